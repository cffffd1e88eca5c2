/* The seat's construction moves and prices of Rolling Freight in C (issue 34; rules A, B, D, E).

   The listing of a turn reads the seat's dice, faces and spent flags, markers, contracts and
   improvements for five small rules; each is written here once more on C integers, reading the
   Python objects directly, with the Python functions kept as the reference:

   budget(player, units) -> payment.generic_budget: each marker one, each unspent die its entry
       of ``units`` (a payment.face_units table).
   build_moves(state, seat, made, columns, ranks) -> legal.build_moves: the kept moves of
       ``made`` (legal._made), read by (seat, link id, colour) and index as the Python reads them;
       ``columns``: payment.BUILD_COLUMNS; ``ranks``: payment._BUILD_RANKS.
   takeable(state, seat, budget, columns, masks) -> legal.takeable: ``masks``: payment._PAY_MASK
       (face name -> bits by BUILD_COLUMNS of payment.face_pays); a marker of COLOURS[k] is bit k.
   affordable(state, seat, budget) -> improvements.affordable.
   station_cost(state, seat) -> stations.station_cost, with -1 for the full mat (None there).
   prices(station, buys) -> legal._prices_of for a station within the budget (or None).
   record(cls, *values) -> cls(*values), a move made without its dataclass __init__ (below).

   Each answers None where anything is not as expected (a type, a size, an index, a number that
   does not fit, a face or a kept move not in the tables yet): the caller then runs the Python
   reference, which fills the tables and raises where it raises. Nothing here calls Python code
   (strings, ints and exact types only), so the lists read stay as they are while read.
   tests/freight/test_freight_listing_compiled.py compares each with its reference. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "_cread.h"

#define MAX_DICE 64
#define MAX_COLUMNS 8
#define MAX_HOLD 24
#define MAX_CONTRACTS 16

enum {
    A_PLAYERS, A_MARKERS, A_DICE, A_SPENT, A_CONTRACTS, A_IMPROVEMENTS, A_CUBES, A_COMP, A_BOX, A_MAP, A_LINKS,
    A_STEADY_USED, A_LENGTH, A_ID, A_COLOUR, A_COST, A_LINKS_OWNED, A_CONTRACT_TRACK, A_IMPROVEMENT_TRACK,
    A_STATION_COSTS, A_STATIONS, N_ATTRS
};
static const char *attr_text[N_ATTRS] = {
    "players", "markers", "dice", "spent", "contracts", "improvements", "cubes", "comp", "box", "map", "links",
    "steady_used", "length", "id", "colour", "cost", "links_owned", "contract_track", "improvement_track",
    "station_costs", "stations"};
static PyObject *attr_name[N_ATTRS];
static PyObject *s_cubes_per_player, *s_max_contracts, *s_sticks_per_player, *s_steady_builder, *s_expert;

/* Where a slotted class keeps an attribute: the slot's offset, valid while the type's version tag
   is the one read with it (the type unchanged since; a version tag is never given twice), as the
   interpreter's own attribute caches do; two types an attribute name. Anything else (an
   instance dict, a property, a type of its own __getattribute__) is read by PyObject_GetAttr. */
typedef struct {
    PyTypeObject *type[2];
    unsigned int version[2];
    Py_ssize_t offset[2]; /* -1: read by PyObject_GetAttr */
    int next;
} AttrCache;
static AttrCache attr_cache[N_ATTRS];

/* o.<attribute a> as a new reference, or NULL with an exception */
static PyObject *read_attr(PyObject *o, int a) {
    AttrCache *c = &attr_cache[a];
    PyTypeObject *type = Py_TYPE(o);
    for (int e = 0; e < 2; e++) {
        if (c->type[e] == type && c->version[e] == type->tp_version_tag
            && PyType_HasFeature(type, Py_TPFLAGS_VALID_VERSION_TAG)) {
            return cread_slot_get(o, c->offset[e], attr_name[a]); /* unset: raises */
        }
    }
    Py_ssize_t offset = cread_slot_offset(type, attr_name[a]);
    if (PyType_HasFeature(type, Py_TPFLAGS_VALID_VERSION_TAG) && type->tp_version_tag != 0) {
        int e = c->next;
        c->next = 1 - e;
        c->type[e] = type;
        c->version[e] = type->tp_version_tag;
        c->offset[e] = offset;
    }
    return PyObject_GetAttr(o, attr_name[a]);
}

/* new references taken while reading, let go at the end */
typedef struct {
    PyObject *refs[MAX_HOLD];
    int n;
    PyObject *sd; /* the state's __dict__ (held; NULL: read by PyObject_GetAttr) */
    int sd_read;  /* sd looked for */
} Hold;

static void release(Hold *h) {
    for (int i = 0; i < h->n; i++)
        Py_DECREF(h->refs[i]);
    h->n = 0;
    Py_CLEAR(h->sd);
    h->sd_read = 0;
}

/* let go of the last k references taken (a loop's reads, once used: the hold is small) */
static void let_go(Hold *h, int k) {
    while (k-- > 0 && h->n > 0) {
        h->n--;
        Py_DECREF(h->refs[h->n]);
    }
}

/* o.<attribute a>, held by h; NULL (no exception) where it fails */
static PyObject *get(Hold *h, PyObject *o, int a) {
    if (h->n >= MAX_HOLD)
        return NULL;
    PyObject *v = read_attr(o, a);
    if (v == NULL) {
        PyErr_Clear();
        return NULL;
    }
    h->refs[h->n++] = v;
    return v;
}

/* the state's attributes read here, in its __dict__ where its type lets (DictFit, _cread.h) */
static DictFit state_fit;
static PyObject **state_names[] = {&attr_name[A_PLAYERS], &attr_name[A_CUBES], &attr_name[A_COMP],
                                   &attr_name[A_MAP], &attr_name[A_STEADY_USED], &attr_name[A_CONTRACT_TRACK],
                                   &attr_name[A_IMPROVEMENT_TRACK]};

/* state.<attribute a>, held by h; NULL (no exception) where it fails */
static PyObject *sget(Hold *h, PyObject *state, int a) {
    if (!h->sd_read) {
        h->sd = cread_dict_of(&state_fit, state, state_names, sizeof state_names / sizeof state_names[0], 0);
        h->sd_read = 1;
    }
    if (h->n >= MAX_HOLD)
        return NULL;
    PyObject *v = cread_dict_get(h->sd, state, attr_name[a]);
    if (v == NULL) {
        PyErr_Clear();
        return NULL;
    }
    h->refs[h->n++] = v;
    return v;
}

/* d[key] of a dict (borrowed); NULL (no exception) where it is no dict or has no such key */
static PyObject *item(PyObject *d, PyObject *key) {
    if (!PyDict_CheckExact(d))
        return NULL;
    PyObject *v = PyDict_GetItemWithError(d, key);
    if (v == NULL)
        PyErr_Clear();
    return v;
}

/* the items and size of a list or tuple; 0 where it is neither */
static int seq(PyObject *o, PyObject ***items, Py_ssize_t *n) {
    if (o == NULL)
        return 0;
    if (PyList_CheckExact(o)) {
        *items = ((PyListObject *)o)->ob_item;
        *n = PyList_GET_SIZE(o);
        return 1;
    }
    if (PyTuple_CheckExact(o)) {
        *items = ((PyTupleObject *)o)->ob_item;
        *n = PyTuple_GET_SIZE(o);
        return 1;
    }
    return 0;
}

/* an int as a long long; 0 where it is none or does not fit (no exception) */
static inline int num(PyObject *o, long long *v) {
    return cread_long(o, v);
}

/* a truth of a flag that is a bool or an int (as Python's ``if``); 0 where it is neither */
static int flag(PyObject *o, int *v) {
    if (o == Py_True) {
        *v = 1;
        return 1;
    }
    if (o == Py_False) {
        *v = 0;
        return 1;
    }
    long long x;
    if (!num(o, &x))
        return 0;
    *v = x != 0;
    return 1;
}

/* two exact strs equal: their lengths, kinds and characters (no call); -1 where one cannot be read */
static inline int same_str(PyObject *a, PyObject *b) {
    return cread_same_str(a, b);
}

/* A printed price less the Acquisition Experts held, never below 0 (A, D, E: contracts.cost_cut,
   improvements._price and stations.station_cost take one die off a price for each) */
static inline long long discounted(long long printed, long long experts) {
    return printed - experts > 0 ? printed - experts : 0;
}

/* list.count(name) of a list of strings; -1 where an item is no exact str */
static long long count_of(PyObject *list, PyObject *name) {
    PyObject **items;
    Py_ssize_t n;
    if (!PyList_CheckExact(list) || !seq(list, &items, &n))
        return -1;
    long long c = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyUnicode_CheckExact(items[i]))
            return -1;
        int same = same_str(items[i], name);
        if (same < 0)
            return -1;
        c += same;
    }
    return c;
}

/* state.players[seat] (held by h), or NULL */
static PyObject *player_of(Hold *h, PyObject *state, PyObject *seat) {
    long long s;
    PyObject **items;
    Py_ssize_t n;
    if (!num(seat, &s) || !seq(sget(h, state, A_PLAYERS), &items, &n) || s < 0 || s >= n)
        return NULL;
    return items[s];  /* the players list is held */
}

/* the box's cubes less those on the seat's contracts (construction.cubes_left); 0 where it fails */
static int cubes_left(Hold *h, PyObject *state, PyObject *box, PyObject **contracts, Py_ssize_t nc,
                      PyObject **cubes, Py_ssize_t ncubes, long long *left) {
    long long total;
    if (!num(item(box, s_cubes_per_player), &total))
        return 0;
    (void)h;
    (void)state;
    for (Py_ssize_t j = 0; j < nc; j++) {
        long long i, c;
        if (!num(contracts[j], &i) || i < 0 || i >= ncubes || !num(cubes[i], &c))
            return 0;
        total -= c;
    }
    *left = total;
    return 1;
}

/* out.append((slot, link, cost)), or (slot, cost) without a link; slot a new reference (or NULL:
   failed); 0 where it fails */
static int append_pair(PyObject *out, PyObject *slot, PyObject *link, long long cost) {
    PyObject *c = PyLong_FromLongLong(cost);
    PyObject *t = PyTuple_New(link ? 3 : 2);
    if (slot == NULL || c == NULL || t == NULL) {
        Py_XDECREF(slot);
        Py_XDECREF(c);
        Py_XDECREF(t);
        return 0;
    }
    PyTuple_SET_ITEM(t, 0, slot);
    if (link) {
        Py_INCREF(link);
        PyTuple_SET_ITEM(t, 1, link);
    }
    PyTuple_SET_ITEM(t, link ? 2 : 1, c);
    int bad = PyList_Append(out, t);
    Py_DECREF(t);
    return bad == 0;
}

static PyObject *fallback(Hold *h, PyObject *out) {
    Py_XDECREF(out);
    release(h);
    Py_RETURN_NONE;
}

/* budget(player, units) */
static PyObject *budget(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Hold h = {.n = 0};
    if (nargs != 2)
        return fallback(&h, NULL);
    PyObject *p = args[0], *units = args[1];
    PyObject **markers, **dice, **spent;
    Py_ssize_t nm, nd, ns;
    if (!seq(get(&h, p, A_MARKERS), &markers, &nm) || !seq(get(&h, p, A_DICE), &dice, &nd)
        || !seq(get(&h, p, A_SPENT), &spent, &ns) || ns < nd || !PyDict_CheckExact(units))
        return fallback(&h, NULL);
    long long n = 0, v;
    for (Py_ssize_t k = 0; k < nm; k++) {
        if (!num(markers[k], &v))
            return fallback(&h, NULL);
        n += v;
    }
    for (Py_ssize_t i = 0; i < nd; i++) {
        int used;
        if (!flag(spent[i], &used))
            return fallback(&h, NULL);
        if (used)
            continue;
        if (!PyUnicode_CheckExact(dice[i]) || !num(item(units, dice[i]), &v))
            return fallback(&h, NULL);
        n += v;
    }
    release(&h);
    return PyLong_FromLongLong(n);
}

/* build_moves(state, seat, made, columns, ranks, made_for, die_build) */
static PyObject *build_moves(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Hold h = {.n = 0};
    if (nargs != 7)
        return fallback(&h, NULL);
    PyObject *state = args[0], *seat = args[1], *made_of = args[2], *columns = args[3], *ranks_of = args[4];
    PyObject *made_for = args[5], *die_build = args[6];
    PyObject *p = player_of(&h, state, seat);
    PyObject **contracts, **cubes, **links, **dice, **spent, **markers;
    Py_ssize_t nc, ncubes, nl, nd, ns, nm;
    if (p == NULL || !seq(get(&h, p, A_CONTRACTS), &contracts, &nc))
        return fallback(&h, NULL);
    if (nc == 0) {
        release(&h);
        return PyList_New(0);
    }
    PyObject *comp = sget(&h, state, A_COMP);
    PyObject *box = comp ? get(&h, comp, A_BOX) : NULL;
    long long left;
    if (box == NULL || nc > MAX_CONTRACTS || !seq(sget(&h, state, A_CUBES), &cubes, &ncubes)
        || !cubes_left(&h, state, box, contracts, nc, cubes, ncubes, &left))
        return fallback(&h, NULL);
    if (left <= 0) {
        release(&h);
        return PyList_New(0);
    }
    long long seat_no;
    PyObject *map = sget(&h, state, A_MAP);
    PyObject *link_tuple = map ? get(&h, map, A_LINKS) : NULL;
    if (link_tuple == NULL || !PyTuple_CheckExact(link_tuple) || !seq(link_tuple, &links, &nl)
        || !seq(get(&h, p, A_DICE), &dice, &nd) || !seq(get(&h, p, A_SPENT), &spent, &ns) || ns < nd
        || nd > MAX_DICE || !seq(get(&h, p, A_MARKERS), &markers, &nm) || !PyDict_CheckExact(made_of)
        || !PyDict_CheckExact(columns) || !PyDict_CheckExact(ranks_of) || !PyLong_CheckExact(seat)
        || !num(seat, &seat_no) || seat_no < 0 || seat_no >= 8)
        return fallback(&h, NULL);
    long long used_steady, builders;
    PyObject *imps = get(&h, p, A_IMPROVEMENTS);
    if (!num(sget(&h, state, A_STEADY_USED), &used_steady) || imps == NULL
        || (builders = count_of(imps, s_steady_builder)) < 0)
        return fallback(&h, NULL);
    int steady = used_steady < builders;

    /* what the loop reads, copied first: the callbacks run Python code */
    long long idx[MAX_CONTRACTS], on[MAX_CONTRACTS];
    int marker[MAX_COLUMNS];
    for (Py_ssize_t j = 0; j < nc; j++) {
        num(contracts[j], &idx[j]); /* checked by cubes_left */
        num(cubes[idx[j]], &on[j]);
        if (idx[j] >= nl)
            return fallback(&h, NULL);
    }
    for (Py_ssize_t k = 0; k < nm && k < MAX_COLUMNS; k++)
        if (!flag(markers[k], &marker[k]))
            return fallback(&h, NULL);

    /* the unspent dice: index, first of its face, its ranks (build_dice) */
    int die[MAX_DICE], first[MAX_DICE], nu = 0;
    signed char rank[MAX_DICE][MAX_COLUMNS];
    Py_ssize_t nr[MAX_DICE];
    PyObject *names[MAX_DICE];
    for (Py_ssize_t i = 0; i < nd; i++) {
        int used;
        if (!flag(spent[i], &used))
            return fallback(&h, NULL);
        if (used)
            continue;
        PyObject *name = dice[i];
        if (!PyUnicode_CheckExact(name))
            return fallback(&h, NULL);
        int f = -1; /* the earlier unspent die of the face, if any: its ranks are these */
        for (int j = 0; j < nu; j++) {
            int same = same_str(names[j], name);
            if (same < 0)
                return fallback(&h, NULL);
            if (same) {
                f = j;
                break;
            }
        }
        if (f >= 0) {
            nr[nu] = nr[f];
            memcpy(rank[nu], rank[f], sizeof rank[f]);
        } else {
            PyObject *r = item(ranks_of, name);
            if (r == NULL || !PyTuple_CheckExact(r))
                return fallback(&h, NULL);
            nr[nu] = PyTuple_GET_SIZE(r) < MAX_COLUMNS ? PyTuple_GET_SIZE(r) : MAX_COLUMNS;
            for (Py_ssize_t c = 0; c < nr[nu]; c++) {
                long long v;
                if (!num(PyTuple_GET_ITEM(r, c), &v) || v < -100 || v > 100)
                    return fallback(&h, NULL);
                rank[nu][c] = (signed char)v;
            }
        }
        die[nu] = (int)i;
        first[nu] = f < 0;
        names[nu] = name;
        nu++;
    }

    PyObject *out = PyList_New(0);
    if (out == NULL)
        return fallback(&h, NULL);
    for (Py_ssize_t j = 0; j < nc; j++) {
        long long length, column, id;
        PyObject *link = links[idx[j]];
        PyObject *lid = get(&h, link, A_ID), *colour = get(&h, link, A_COLOUR);
        if (!num(get(&h, link, A_LENGTH), &length) || lid == NULL || !PyLong_CheckExact(lid) || !num(lid, &id)
            || id < 0 || id >= (1LL << 40) || colour == NULL || !PyUnicode_CheckExact(colour)
            || !num(item(columns, colour), &column) || column < 0 || column >= MAX_COLUMNS)
            return fallback(&h, out);
        long long cap = length - on[j] < left ? length - on[j] : left;
        PyObject *key = PyLong_FromLongLong((id * 8 + column) * 8 + seat_no); /* legal._made_key */
        if (key == NULL || h.n >= MAX_HOLD) {
            Py_XDECREF(key);
            return fallback(&h, out);
        }
        PyObject *made = item(made_of, key);
        if (made != NULL)
            Py_INCREF(made);
        else {
            PyObject *call[4] = {key, seat, lid, colour};
            made = PyObject_Vectorcall(made_for, call, 4, NULL);
            if (made == NULL)
                PyErr_Clear();
        }
        Py_DECREF(key);
        if (made == NULL)
            return fallback(&h, out);
        h.refs[h.n++] = made;
        PyObject **kept;
        Py_ssize_t nk;
        if (!PyList_CheckExact(made) || !seq(made, &kept, &nk) || nk < 3)
            return fallback(&h, out);
        int able = 0;
        long long best = 3;
        for (int u = 0; u < nu; u++) {
            if (column >= nr[u])
                return fallback(&h, out);
            int r = rank[u][column];
            if (r < 0)
                continue;
            able++;
            if (r < best)
                best = r;
            if (!first[u])
                continue;
            Py_ssize_t k = 3 + 3 * (Py_ssize_t)die[u];
            Py_ssize_t lo = k, hi = k + 1;
            if (r == 2) {
                lo = k + 1;
                hi = cap >= 2 ? k + 3 : k + 2;
            }
            for (Py_ssize_t m = lo; m < hi; m++) {
                if (m < nk && kept[m] != Py_None) {
                    if (PyList_Append(out, kept[m]) < 0)
                        return fallback(&h, out);
                    continue;
                }
                /* first listed: legal._die_build makes and keeps it */
                PyObject *d = PyLong_FromLong(die[u]), *n = PyLong_FromSsize_t(m - k);
                PyObject *move = NULL;
                if (d != NULL && n != NULL) {
                    PyObject *call[5] = {made, seat, lid, d, n};
                    move = PyObject_Vectorcall(die_build, call, 5, NULL);
                }
                Py_XDECREF(d);
                Py_XDECREF(n);
                if (move == NULL) {
                    PyErr_Clear();
                    return fallback(&h, out);
                }
                int bad = PyList_Append(out, move);
                Py_DECREF(move);
                if (bad < 0 || !seq(made, &kept, &nk) || nk < 3) /* made grew */
                    return fallback(&h, out);
            }
        }
        if (column < nm && marker[column] && PyList_Append(out, kept[2]) < 0)
            return fallback(&h, out);
        if (able > 1 && cap > (best == 2 ? 2 : 1) && PyList_Append(out, kept[0]) < 0)
            return fallback(&h, out);
        if (steady && PyList_Append(out, kept[1]) < 0)
            return fallback(&h, out);
        let_go(&h, 4); /* the link's attributes and its moves */
    }
    release(&h);
    return out;
}

/* takeable(state, seat, budget, columns, masks) */
static PyObject *takeable(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Hold h = {.n = 0};
    long long budget;
    if (nargs != 5 || !num(args[2], &budget))
        return fallback(&h, NULL);
    if (budget < 1)
        return PyList_New(0);
    PyObject *state = args[0], *seat = args[1], *columns = args[3], *masks = args[4];
    PyObject *p = player_of(&h, state, seat);
    PyObject **contracts, **cubes, **links, **dice, **spent, **markers, **track;
    Py_ssize_t nc, ncubes, nl, nd, ns, nm, nt;
    PyObject *comp = sget(&h, state, A_COMP);
    PyObject *box = comp ? get(&h, comp, A_BOX) : NULL;
    long long most, owned, sticks, left;
    if (p == NULL || box == NULL || !seq(get(&h, p, A_CONTRACTS), &contracts, &nc)
        || !num(item(box, s_max_contracts), &most))
        return fallback(&h, NULL);
    if (nc >= most) {
        release(&h);
        return PyList_New(0);
    }
    if (!num(get(&h, p, A_LINKS_OWNED), &owned) || !num(item(box, s_sticks_per_player), &sticks))
        return fallback(&h, NULL);
    if (owned + nc >= sticks) {
        release(&h);
        return PyList_New(0);
    }
    if (!seq(sget(&h, state, A_CUBES), &cubes, &ncubes)
        || !cubes_left(&h, state, box, contracts, nc, cubes, ncubes, &left))
        return fallback(&h, NULL);
    if (left <= 0) {
        release(&h);
        return PyList_New(0);
    }
    PyObject *map = sget(&h, state, A_MAP);
    PyObject *imps = get(&h, p, A_IMPROVEMENTS);
    long long cut;
    if (map == NULL || !seq(get(&h, map, A_LINKS), &links, &nl) || !seq(get(&h, p, A_DICE), &dice, &nd)
        || !seq(get(&h, p, A_SPENT), &spent, &ns) || ns < nd || !seq(get(&h, p, A_MARKERS), &markers, &nm)
        || nm < 4 || !seq(sget(&h, state, A_CONTRACT_TRACK), &track, &nt) || imps == NULL
        || (cut = count_of(imps, s_expert)) < 0 || !PyDict_CheckExact(columns) || !PyDict_CheckExact(masks))
        return fallback(&h, NULL);
    /* colour_payers as bits by BUILD_COLUMNS */
    long long mask = 0, v;
    for (Py_ssize_t i = 0; i < nd; i++) {
        int used;
        if (!flag(spent[i], &used))
            return fallback(&h, NULL);
        if (used)
            continue;
        if (!PyUnicode_CheckExact(dice[i]) || !num(item(masks, dice[i]), &v))
            return fallback(&h, NULL);
        mask |= v;
    }
    for (int k = 0; k < 4; k++) {
        int any;
        if (!flag(markers[k], &any))
            return fallback(&h, NULL);
        if (any)
            mask |= 1LL << k;
    }
    PyObject *out = PyList_New(0);
    if (out == NULL)
        return fallback(&h, NULL);
    for (Py_ssize_t slot = 0; slot < nt; slot++) {
        PyObject *card = track[slot];
        if (card == Py_None)
            continue;
        long long c, column, printed;
        if (!num(card, &c) || c < 0 || c >= nl)
            return fallback(&h, out);
        PyObject *link = links[c];
        PyObject *colour = get(&h, link, A_COLOUR);
        if (colour == NULL || !PyUnicode_CheckExact(colour) || !num(item(columns, colour), &column)
            || column < 0 || column >= MAX_COLUMNS)
            return fallback(&h, out);
        let_go(&h, 1); /* the colour: the link holds it */
        if (!((mask >> column) & 1))
            continue;
        if (!num(get(&h, link, A_COST), &printed))
            return fallback(&h, out);
        let_go(&h, 1);
        long long cost = discounted(printed, cut);
        if (cost <= budget - 1) {
            if (!append_pair(out, PyLong_FromSsize_t(slot), link, cost))
                return fallback(&h, out);
        }
    }
    release(&h);
    return out;
}

/* affordable(state, seat, budget) */
static PyObject *affordable(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Hold h = {.n = 0};
    long long budget;
    if (nargs != 3 || !num(args[2], &budget))
        return fallback(&h, NULL);
    PyObject *state = args[0];
    PyObject *p = player_of(&h, state, args[1]);
    PyObject *comp = sget(&h, state, A_COMP);
    PyObject *cards = comp ? get(&h, comp, A_IMPROVEMENTS) : NULL;
    PyObject *imps = p ? get(&h, p, A_IMPROVEMENTS) : NULL;
    PyObject **track;
    Py_ssize_t nt;
    long long off;
    if (cards == NULL || !PyDict_CheckExact(cards) || imps == NULL || (off = count_of(imps, s_expert)) < 0
        || !seq(sget(&h, state, A_IMPROVEMENT_TRACK), &track, &nt))
        return fallback(&h, NULL);
    PyObject *out = PyList_New(0);
    if (out == NULL)
        return fallback(&h, NULL);
    for (Py_ssize_t slot = 0; slot < nt; slot++) {
        PyObject *name = track[slot];
        if (name == Py_None)
            continue;
        long long printed;
        if (!PyUnicode_CheckExact(name))
            return fallback(&h, out);
        PyObject *card = item(cards, name);
        if (card == NULL || !num(get(&h, card, A_COST), &printed))
            return fallback(&h, out);
        let_go(&h, 1);
        long long cost = discounted(printed, off);
        if (cost <= budget) {
            if (!append_pair(out, PyLong_FromSsize_t(slot), NULL, cost))
                return fallback(&h, out);
        }
    }
    release(&h);
    return out;
}

/* station_cost(state, seat): the cost, -1 for a full mat */
static PyObject *station_cost(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Hold h = {.n = 0};
    if (nargs != 2)
        return fallback(&h, NULL);
    PyObject *state = args[0];
    PyObject *p = player_of(&h, state, args[1]);
    PyObject *comp = sget(&h, state, A_COMP);
    PyObject **costs;
    Py_ssize_t n;
    long long built, off, cost;
    if (p == NULL || comp == NULL || !seq(get(&h, comp, A_STATION_COSTS), &costs, &n)
        || !num(get(&h, p, A_STATIONS), &built) || built < 0)
        return fallback(&h, NULL);
    if (built >= n) {
        release(&h);
        return PyLong_FromLong(-1);
    }
    PyObject *imps = get(&h, p, A_IMPROVEMENTS);
    if (imps == NULL || (off = count_of(imps, s_expert)) < 0 || !num(costs[built], &cost))
        return fallback(&h, NULL);
    release(&h);
    return PyLong_FromLongLong(discounted(cost, off));
}

/* prices(station, buys) -> legal._prices_of(station, buys, budget) for a station already within
   the budget (or None): the distinct costs of the (slot, cost) pairs of ``buys`` and the
   station's, ascending, as a tuple; None where anything is not as expected. */
#define MAX_PRICES 32
static PyObject *prices(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2)
        Py_RETURN_NONE;
    long long got[MAX_PRICES + 1];
    int n = 0;
    PyObject **items;
    Py_ssize_t nb;
    if (!PyList_CheckExact(args[1]) || !seq(args[1], &items, &nb) || nb > MAX_PRICES)
        Py_RETURN_NONE;
    for (Py_ssize_t i = 0; i <= nb; i++) {
        PyObject *c;
        if (i < nb) {
            if (!PyTuple_CheckExact(items[i]) || PyTuple_GET_SIZE(items[i]) != 2)
                Py_RETURN_NONE;
            c = PyTuple_GET_ITEM(items[i], 1);
        } else if (args[0] == Py_None)
            break;
        else
            c = args[0];
        long long v;
        if (!PyLong_CheckExact(c) || !num(c, &v))
            Py_RETURN_NONE;
        int at = 0; /* insertion in order, once each */
        while (at < n && got[at] < v)
            at++;
        if (at < n && got[at] == v)
            continue;
        memmove(got + at + 1, got + at, sizeof(long long) * (size_t)(n - at));
        got[at] = v;
        n++;
    }
    PyObject *out = PyTuple_New(n);
    if (out == NULL)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLongLong(got[i]);
        if (v == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, v);
    }
    return out;
}

/* record(cls, *values) -> cls(*values) for a frozen, slotted dataclass whose __init__ only sets
   its fields in the order of its own __slots__ (the caller, legal._RECORD_CLASSES, checks that
   once per class): the object allocated and its slots set here, without the generated __init__'s
   Python frame and object.__setattr__ calls (a move made costs a fifth). The class's slot offsets
   are read once per type version (up to RECORD_TYPES classes); anything else (not a type, a
   version not valid, a slot not a plain object slot of the class, another count of values) is
   made by calling cls(*values) itself. */
#define RECORD_TYPES 16
#define RECORD_FIELDS 8
typedef struct {
    PyTypeObject *type; /* a strong reference */
    unsigned int version;
    Py_ssize_t n;
    Py_ssize_t offset[RECORD_FIELDS];
} RecordKind;
static RecordKind record_kind[RECORD_TYPES];
static int record_next;
static PyObject *s_slots;

static RecordKind *record_kind_of(PyTypeObject *type, Py_ssize_t n) {
    if (!(type->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) || !(type->tp_flags & Py_TPFLAGS_HEAPTYPE))
        return NULL;
    for (int i = 0; i < RECORD_TYPES; i++) {
        RecordKind *k = &record_kind[i];
        if (k->type == type && k->version == type->tp_version_tag)
            return k->n == n ? k : NULL;
    }
    if (n > RECORD_FIELDS || type->tp_new != PyBaseObject_Type.tp_new || type->tp_alloc != PyType_GenericAlloc
        || type->tp_itemsize != 0 || type->tp_dictoffset != 0 || type->tp_weaklistoffset != 0
        || type->tp_dict == NULL)
        return NULL;
    PyObject *slots = PyDict_GetItemWithError(type->tp_dict, s_slots); /* borrowed */
    if (slots == NULL || !PyTuple_CheckExact(slots) || PyTuple_GET_SIZE(slots) != n) {
        PyErr_Clear();
        return NULL;
    }
    Py_ssize_t offset[RECORD_FIELDS];
    for (Py_ssize_t f = 0; f < n; f++) {
        PyObject *name = PyTuple_GET_ITEM(slots, f);
        if (!PyUnicode_CheckExact(name))
            return NULL;
        PyObject *descr = _PyType_Lookup(type, name);
        if (descr == NULL || !Py_IS_TYPE(descr, &PyMemberDescr_Type)
            || ((PyDescrObject *)descr)->d_type != type)
            return NULL;
        PyMemberDef *m = ((PyMemberDescrObject *)descr)->d_member;
        if (m->type != T_OBJECT_EX || (m->flags & READONLY) || m->offset < (Py_ssize_t)sizeof(PyObject)
            || m->offset + (Py_ssize_t)sizeof(PyObject *) > type->tp_basicsize)
            return NULL;
        for (Py_ssize_t g = 0; g < f; g++)
            if (offset[g] == m->offset)
                return NULL;
        offset[f] = m->offset;
    }
    if (!(type->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG)) /* the look-ups above set it where it can be */
        return NULL;
    RecordKind *k = &record_kind[record_next];
    record_next = (record_next + 1) % RECORD_TYPES;
    Py_INCREF(type);
    Py_XDECREF(k->type);
    k->type = type;
    k->version = type->tp_version_tag;
    k->n = n;
    memcpy(k->offset, offset, sizeof(Py_ssize_t) * (size_t)n);
    return k;
}

static PyObject *record(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs < 1) {
        PyErr_SetString(PyExc_TypeError, "record(cls, *values)");
        return NULL;
    }
    PyObject *cls = args[0];
    RecordKind *k = PyType_Check(cls) ? record_kind_of((PyTypeObject *)cls, nargs - 1) : NULL;
    if (k == NULL)
        return PyObject_Vectorcall(cls, args + 1, (size_t)(nargs - 1), NULL);
    PyObject *obj = k->type->tp_alloc(k->type, 0);
    if (obj == NULL)
        return NULL;
    for (Py_ssize_t f = 0; f < k->n; f++) {
        PyObject **at = (PyObject **)((char *)obj + k->offset[f]);
        Py_INCREF(args[1 + f]);
        *at = args[1 + f];
    }
    return obj;
}

static PyMethodDef methods[] = {
    {"budget", (PyCFunction)(void (*)(void))budget, METH_FASTCALL, "payment.generic_budget, or None"},
    {"build_moves", (PyCFunction)(void (*)(void))build_moves, METH_FASTCALL, "legal.build_moves, or None"},
    {"takeable", (PyCFunction)(void (*)(void))takeable, METH_FASTCALL, "legal.takeable, or None"},
    {"affordable", (PyCFunction)(void (*)(void))affordable, METH_FASTCALL, "improvements.affordable, or None"},
    {"station_cost", (PyCFunction)(void (*)(void))station_cost, METH_FASTCALL,
     "stations.station_cost (-1: the mat is full), or None"},
    {"prices", (PyCFunction)(void (*)(void))prices, METH_FASTCALL, "legal._prices_of, or None"},
    {"record", (PyCFunction)(void (*)(void))record, METH_FASTCALL,
     "cls(*values) for a frozen slotted dataclass that only sets its fields"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_listing",
                                    "The seat's construction moves and prices in C (issue 34).", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__listing(void) {
#define INTERN(var, text)                                                                                     \
    if ((var = PyUnicode_InternFromString(text)) == NULL)                                                     \
        return NULL;
    for (int a = 0; a < N_ATTRS; a++)
        INTERN(attr_name[a], attr_text[a])
    INTERN(s_cubes_per_player, "cubes_per_player")
    INTERN(s_max_contracts, "max_contracts")
    INTERN(s_sticks_per_player, "sticks_per_player")
    INTERN(s_steady_builder, "Steady Builder")
    INTERN(s_expert, "Acquisition Expert")
    INTERN(s_slots, "__slots__")
    return PyModule_Create(&module);
}
