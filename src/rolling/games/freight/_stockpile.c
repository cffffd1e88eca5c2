/* The stockpile options of Rolling Freight in C (issue 34; rule F, "Stockpiling Resources").

   rolling.games.freight.stockpile.options lists each distinct stockpile outcome of a seat's
   unspent dice as (store string, markers per colour), most markers first. Its Python reference
   (stockpile._options_py) reads each die's face code from stockpile._FACE_CODE, adds the plain
   dice's packed counts, reads the split dice's allocations from stockpile._ALLOCATIONS and looks
   each allocation's markers up per colour; here the same steps run on C integers (the markers of a
   count worked out as the tables hold them: min(max(0, count - penalty), supply)), with no set,
   no list and no sort key: about a seventh of the instructions of the compiled Python.

   options(dice, spent, kinds, both, penalty, supply, codes, splits, allocations, empty)
       -> the options tuple, as stockpile._options_py gives it, or None where anything is not as
       the memos have it (a face with no code yet, split dice with no allocations yet, a count
       past 255, a number that does not fit, more than MAX_SPLIT split dice or MAX_WAYS
       allocations): the caller then runs the Python reference, which fills the memos.
   dice, spent, kinds: the player's faces, spent flags and die kinds (lists); both: two
   Efficient Storage (a basic split die counts for both its colours); penalty: 0 or 1;
   supply: the four colours' markers in the supply (a list); codes: _FACE_CODE; splits: _SPLITS;
   allocations: _ALLOCATIONS; empty: the store string of no split dice ("").
   tests/freight/test_freight_stockpile_compiled.py compares the two. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "_cread.h"

#define BITS 8
#define MASK 255
#define MAX_SPLIT 64
#define MAX_WAYS 512

/* the int as a long long; 0 with *ok = 0 and no exception where it is no int or does not fit */
static inline long long as_long(PyObject *o, int *ok) {
    long long v;
    if (!cread_long(o, &v)) {
        *ok = 0;
        return 0;
    }
    return v;
}

/* the markers of colour k for packed counts v (0 with *ok = 0 where the count is past MASK: the
   Python tables have no such entry) */
static inline long long taken(long long v, int k, long long penalty, const long long *supply, int *ok) {
    long long count = v >> (BITS * k);
    if (k < 3)
        count &= MASK;
    else if (count > MASK || count < 0) {
        *ok = 0;
        return 0;
    }
    long long m = count - penalty;
    if (m < 0)
        m = 0;
    return m < supply[k] ? m : supply[k];
}

/* the order of outcomes 0..n-1 by most markers first (total), equal totals in their order (a
   stable insertion sort, as sorted's) */
static inline void most_first(const long long *total, Py_ssize_t n, Py_ssize_t *order) {
    for (Py_ssize_t o = 0; o < n; o++) {
        Py_ssize_t at = o;
        while (at > 0 && total[order[at - 1]] < total[o]) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = o;
    }
}

/* the markers tuples of counts 0..7 each, made once and shared (a tuple of ints is immutable) */
static PyObject *markers_kept[8 * 8 * 8 * 8];

/* (store, (a, b, c, d)) */
static PyObject *outcome(PyObject *store, const long long *g) {
    int small = 1;
    for (int k = 0; k < 4; k++)
        small &= g[k] >= 0 && g[k] < 8;
    PyObject *markers = small ? markers_kept[((g[0] * 8 + g[1]) * 8 + g[2]) * 8 + g[3]] : NULL;
    if (markers != NULL) {
        Py_INCREF(markers);
    } else {
        markers = PyTuple_New(4);
        if (markers == NULL)
            return NULL;
        for (int k = 0; k < 4; k++) {
            PyObject *n = PyLong_FromLongLong(g[k]);
            if (n == NULL) {
                Py_DECREF(markers);
                return NULL;
            }
            PyTuple_SET_ITEM(markers, k, n);
        }
        if (small) {
            Py_INCREF(markers);
            markers_kept[((g[0] * 8 + g[1]) * 8 + g[2]) * 8 + g[3]] = markers;
        }
    }
    PyObject *t = PyTuple_New(2);
    if (t == NULL) {
        Py_DECREF(markers);
        return NULL;
    }
    Py_INCREF(store);
    PyTuple_SET_ITEM(t, 0, store);
    PyTuple_SET_ITEM(t, 1, markers);
    return t;
}

static PyObject *options(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 10) {
        PyErr_SetString(PyExc_TypeError, "options takes ten arguments");
        return NULL;
    }
    PyObject *dice = args[0], *spent = args[1], *kinds = args[2], *supply_list = args[5];
    PyObject *codes = args[6], *splits = args[7], *allocations = args[8], *empty = args[9];
    if (!PyList_Check(dice) || !PyList_Check(spent) || !PyList_Check(kinds) || !PyList_Check(supply_list)
        || !PyDict_CheckExact(codes) || !PyList_Check(splits) || !PyDict_CheckExact(allocations)
        || PyList_GET_SIZE(supply_list) != 4)
        Py_RETURN_NONE;
    int both = PyObject_IsTrue(args[3]);
    if (both < 0)
        return NULL;
    int ok = 1;
    long long penalty = as_long(args[4], &ok);
    long long supply[4];
    for (int k = 0; k < 4; k++)
        supply[k] = as_long(PyList_GET_ITEM(supply_list, k), &ok);
    if (!ok)
        Py_RETURN_NONE;

    /* the dice, as _options_py reads them */
    long long base = 0;
    PyObject *split[MAX_SPLIT]; /* the split dice's codes (borrowed from codes), in die order */
    Py_ssize_t n_split = 0;
    Py_ssize_t n_dice = PyList_GET_SIZE(dice);
    if (PyList_GET_SIZE(spent) < n_dice)
        Py_RETURN_NONE;
    for (Py_ssize_t i = 0; i < n_dice; i++) {
        int used = PyObject_IsTrue(PyList_GET_ITEM(spent, i));
        if (used < 0)
            return NULL;
        if (used)
            continue;
        PyObject *code_obj = PyDict_GetItemWithError(codes, PyList_GET_ITEM(dice, i));
        if (code_obj == NULL) {
            if (PyErr_Occurred())
                PyErr_Clear();
            Py_RETURN_NONE;
        }
        long long code = as_long(code_obj, &ok);
        if (!ok)
            Py_RETURN_NONE;
        if (code >= 0) {
            base += code;
            continue;
        }
        if (both) {
            if (i >= PyList_GET_SIZE(kinds))
                Py_RETURN_NONE;
            PyObject *kind = PyList_GET_ITEM(kinds, i);
            if (!PyUnicode_Check(kind))
                Py_RETURN_NONE;
            if (PyUnicode_CompareWithASCIIString(kind, "basic") == 0) {
                Py_ssize_t at = -1 - code;
                if (at >= PyList_GET_SIZE(splits))
                    Py_RETURN_NONE;
                PyObject *entry = PyList_GET_ITEM(splits, at);
                if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 2)
                    Py_RETURN_NONE;
                base += as_long(PyTuple_GET_ITEM(entry, 1), &ok);
                if (!ok)
                    Py_RETURN_NONE;
                continue;
            }
        }
        if (n_split == MAX_SPLIT)
            Py_RETURN_NONE;
        split[n_split++] = code_obj;
    }
    if (base < 0 || base >= (1LL << 40))
        Py_RETURN_NONE;

    long long g[4];
    if (n_split == 0) {
        for (int k = 0; k < 4; k++)
            g[k] = taken(base, k, penalty, supply, &ok);
        if (!ok)
            Py_RETURN_NONE;
        PyObject *one = outcome(empty, g);
        if (one == NULL)
            return NULL;
        PyObject *out = PyTuple_New(1);
        if (out == NULL) {
            Py_DECREF(one);
            return NULL;
        }
        PyTuple_SET_ITEM(out, 0, one);
        return out;
    }

    /* the split dice's allocations, from the memo */
    PyObject *key = PyTuple_New(n_split);
    if (key == NULL)
        return NULL;
    for (Py_ssize_t j = 0; j < n_split; j++) {
        Py_INCREF(split[j]);
        PyTuple_SET_ITEM(key, j, split[j]);
    }
    PyObject *entry = PyDict_GetItemWithError(allocations, key);
    Py_DECREF(key);
    if (entry == NULL) {
        if (PyErr_Occurred())
            PyErr_Clear();
        Py_RETURN_NONE;
    }
    if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) > MAX_WAYS)
        Py_RETURN_NONE;
    Py_ssize_t n_ways = PyTuple_GET_SIZE(entry);

    /* each new outcome (the first store giving it), in the allocations' order */
    long long found[MAX_WAYS][4]; /* on the stack: a collection run while the tuples are made may
                                     call anything, this function too */
    long long total[MAX_WAYS];
    Py_ssize_t way[MAX_WAYS]; /* the allocation giving it */
    Py_ssize_t n_out = 0;
    for (Py_ssize_t w = 0; w < n_ways; w++) {
        PyObject *pair = PyTuple_GET_ITEM(entry, w);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2)
            Py_RETURN_NONE;
        long long v = as_long(PyTuple_GET_ITEM(pair, 0), &ok);
        if (!ok || v < 0 || v >= (1LL << 40))
            Py_RETURN_NONE;
        long long sum = base + v;
        for (int k = 0; k < 4; k++)
            g[k] = taken(sum, k, penalty, supply, &ok);
        if (!ok)
            Py_RETURN_NONE;
        Py_ssize_t o = 0;
        while (o < n_out && (found[o][0] != g[0] || found[o][1] != g[1] || found[o][2] != g[2] || found[o][3] != g[3]))
            o++;
        if (o < n_out)
            continue;
        for (int k = 0; k < 4; k++)
            found[n_out][k] = g[k];
        total[n_out] = g[0] + g[1] + g[2] + g[3];
        way[n_out] = w;
        n_out++;
    }

    Py_ssize_t order[MAX_WAYS];
    most_first(total, n_out, order);
    PyObject *out = PyTuple_New(n_out);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t r = 0; r < n_out; r++) {
        Py_ssize_t o = order[r];
        PyObject *one = outcome(PyTuple_GET_ITEM(PyTuple_GET_ITEM(entry, way[o]), 1), found[o]);
        if (one == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, r, one);
    }
    return out;
}

/* ---- options_of(state, seat, ctx): the whole of stockpile.options in C (issue 34, round 4) ----

   The player's mat and the supply are read here (state.players[seat]: improvements, dice, spent,
   die_kinds; state.supply), and the split dice's allocations are worked out here as
   stockpile._allocations works them out (no memo of them: the dice grouped by face in order of
   first die, the groups' ways in itertools.product order, the last group's the fastest, each group's
   ways in _compositions order), each outcome kept from its first allocation (an allocation with
   the packed counts of an earlier one gives its markers: dropping it, as _allocations does, keeps
   the same first allocation of each outcome). ctx: (codes (_FACE_CODE), splits (_SPLITS), colour
   names (COLOURS), "Efficient Storage", "basic", ""). None where anything is not as expected (a face
   not in codes yet, a count past 255, too many split dice or allocations, a list not a list...):
   the caller then runs stockpile._options_py, the reference. */

#define MAX_GROUPS 8
#define MAX_PARTS 4
#define MAX_PRODUCT 8192
#define MAX_GROUP_WAYS 1024

static PyObject *s_players, *s_improvements, *s_dice, *s_spent, *s_die_kinds, *s_supply;

/* the state's attributes options_of reads, in its __dict__ where its type lets (DictFit, _cread.h) */
static DictFit state_fit;
static PyObject **state_names[] = {&s_players, &s_supply};

/* the player's attributes options_of reads, in Slots order (read from their slots: slot_attr, _cread.h) */
static PyObject *player_names[4];
static Slots player_slots;
enum { P_IMPROVEMENTS, P_DICE, P_SPENT, P_DIE_KINDS };

/* a player attribute (as attr) */
static PyObject *pattr(PyObject *p, int k, int *err) {
    PyObject *v = slot_attr(&player_slots, p, k, player_names, 4);
    if (v == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_AttributeError))
            *err = 1;
        else
            PyErr_Clear();
    }
    return v;
}

/* an attribute (d: o's __dict__ from cread_dict_of, or NULL), or NULL with no exception where it
   is missing (an error other than AttributeError: -1 via *err) */
static PyObject *attr(PyObject *d, PyObject *o, PyObject *name, int *err) {
    PyObject *v = cread_dict_get(d, o, name);
    if (v == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_AttributeError))
            *err = 1;
        else
            PyErr_Clear();
    }
    return v;
}

/* 1 where o equals the str s (o an exact str), 0 where not, -1 where o is no exact str (or
   cannot be read) */
static inline int same_str(PyObject *o, PyObject *s) {
    if (!PyUnicode_CheckExact(o))
        return o == s ? 1 : -1;
    return cread_same_str(o, s);
}

typedef struct {
    int code_at;            /* index in splits */
    int ncol;               /* its colours */
    int colours[MAX_PARTS]; /* colour indices, in order */
    int ndice;
    int dice[MAX_SPLIT];    /* places in the split dice (die order) */
    int nways;
    int way_at;             /* first way in ways[] */
} Group;

static PyObject *options_of(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "options_of takes three arguments");
        return NULL;
    }
    PyObject *state = args[0], *ctx = args[2];
    if (!PyLong_CheckExact(args[1]) || !PyTuple_CheckExact(ctx) || PyTuple_GET_SIZE(ctx) != 6)
        Py_RETURN_NONE;
    PyObject *codes = PyTuple_GET_ITEM(ctx, 0), *splits = PyTuple_GET_ITEM(ctx, 1), *names = PyTuple_GET_ITEM(ctx, 2);
    PyObject *storage_name = PyTuple_GET_ITEM(ctx, 3), *basic = PyTuple_GET_ITEM(ctx, 4), *empty = PyTuple_GET_ITEM(ctx, 5);
    if (!PyDict_CheckExact(codes) || !PyList_CheckExact(splits) || !PyTuple_CheckExact(names)
        || PyTuple_GET_SIZE(names) != 4 || !PyUnicode_CheckExact(storage_name) || !PyUnicode_CheckExact(basic))
        Py_RETURN_NONE;
    int ok = 1, err = 0;
    long long seat = as_long(args[1], &ok);
    if (!ok)
        Py_RETURN_NONE;
    PyObject *result = NULL, *players = NULL, *p = NULL, *improvements = NULL, *dice = NULL, *spent = NULL,
             *kinds = NULL, *supply_list = NULL, *sd = NULL;
    sd = cread_dict_of(&state_fit, state, state_names, 2, 0);
    players = attr(sd, state, s_players, &err);
    if (players == NULL || !PyList_CheckExact(players) || seat < 0 || seat >= PyList_GET_SIZE(players))
        goto unfit;
    p = PyList_GET_ITEM(players, seat);
    Py_INCREF(p);
    if ((improvements = pattr(p, P_IMPROVEMENTS, &err)) == NULL || (dice = pattr(p, P_DICE, &err)) == NULL
        || (spent = pattr(p, P_SPENT, &err)) == NULL || (kinds = pattr(p, P_DIE_KINDS, &err)) == NULL
        || (supply_list = attr(sd, state, s_supply, &err)) == NULL)
        goto unfit;
    if (!PyList_CheckExact(improvements) || !PyList_CheckExact(dice) || !PyList_CheckExact(spent)
        || !PyList_CheckExact(kinds) || !PyList_CheckExact(supply_list) || PyList_GET_SIZE(supply_list) != 4)
        goto unfit;
    int storage = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(improvements); i++) {
        int s = same_str(PyList_GET_ITEM(improvements, i), storage_name);
        if (s < 0)
            goto unfit;
        storage += s;
    }
    int both = storage >= 2;
    long long penalty = storage ? 0 : 1;
    long long supply[4];
    for (int k = 0; k < 4; k++)
        supply[k] = as_long(PyList_GET_ITEM(supply_list, k), &ok);
    if (!ok)
        goto unfit;

    /* the dice, as _options_py reads them */
    long long base = 0;
    int split_code[MAX_SPLIT]; /* the split dice's indices in splits, in die order */
    int n_split = 0;
    Py_ssize_t n_dice = PyList_GET_SIZE(dice);
    if (PyList_GET_SIZE(spent) < n_dice)
        goto unfit;
    for (Py_ssize_t i = 0; i < n_dice; i++) {
        PyObject *used_o = PyList_GET_ITEM(spent, i);
        int used = used_o == Py_True ? 1 : used_o == Py_False ? 0 : -2;
        if (used == -2)
            goto unfit;
        if (used)
            continue;
        PyObject *name = PyList_GET_ITEM(dice, i);
        if (!PyUnicode_CheckExact(name))
            goto unfit;
        PyObject *code_obj = PyDict_GetItemWithError(codes, name);
        if (code_obj == NULL)
            goto unfit;
        long long code = as_long(code_obj, &ok);
        if (!ok)
            goto unfit;
        if (code >= 0) {
            base += code;
            if (base >= (1LL << 40))
                goto unfit;
            continue;
        }
        long long at = -1 - code;
        if (at >= PyList_GET_SIZE(splits) || at >= (1 << 20))
            goto unfit;
        if (both) {
            if (i >= PyList_GET_SIZE(kinds))
                goto unfit;
            int b = same_str(PyList_GET_ITEM(kinds, i), basic);
            if (b < 0)
                goto unfit;
            if (b) {
                PyObject *entry = PyList_GET_ITEM(splits, at);
                if (!PyTuple_CheckExact(entry) || PyTuple_GET_SIZE(entry) != 2)
                    goto unfit;
                base += as_long(PyTuple_GET_ITEM(entry, 1), &ok);
                if (!ok || base < 0 || base >= (1LL << 40))
                    goto unfit;
                continue;
            }
        }
        if (n_split == MAX_SPLIT)
            goto unfit;
        split_code[n_split++] = (int)at;
    }

    long long g[4];
    if (n_split == 0) {
        for (int k = 0; k < 4; k++)
            g[k] = taken(base, k, penalty, supply, &ok);
        if (!ok)
            goto unfit;
        PyObject *one = outcome(empty, g);
        if (one == NULL)
            goto done;
        result = PyTuple_New(1);
        if (result == NULL) {
            Py_DECREF(one);
            goto done;
        }
        PyTuple_SET_ITEM(result, 0, one);
        goto done;
    }

    /* the groups: the split dice by face, in order of first die, each with its ways */
    Group groups[MAX_GROUPS];
    int n_groups = 0;
    for (int j = 0; j < n_split; j++) {
        int q = 0;
        while (q < n_groups && groups[q].code_at != split_code[j])
            q++;
        if (q == n_groups) {
            if (n_groups == MAX_GROUPS)
                goto unfit;
            Group *gr = &groups[n_groups++];
            gr->code_at = split_code[j];
            gr->ndice = 0;
            PyObject *entry = PyList_GET_ITEM(splits, split_code[j]);
            if (!PyTuple_CheckExact(entry) || PyTuple_GET_SIZE(entry) != 2 || !PyTuple_CheckExact(PyTuple_GET_ITEM(entry, 0)))
                goto unfit;
            PyObject *cols = PyTuple_GET_ITEM(entry, 0);
            gr->ncol = (int)PyTuple_GET_SIZE(cols);
            if (gr->ncol < 1 || gr->ncol > MAX_PARTS)
                goto unfit;
            for (int c = 0; c < gr->ncol; c++) {
                long long ci = as_long(PyTuple_GET_ITEM(cols, c), &ok);
                if (!ok || ci < 0 || ci > 3)
                    goto unfit;
                gr->colours[c] = (int)ci;
            }
        }
        groups[q].dice[groups[q].ndice++] = j;
    }
    /* each group's ways (_compositions order: the first part largest first), as parts per colour */
    static int ways[MAX_GROUP_WAYS][MAX_PARTS]; /* no Python is called while these are in use */
    static long long way_v[MAX_GROUP_WAYS];
    int n_ways_all = 0;
    long long product = 1;
    for (int q = 0; q < n_groups; q++) {
        Group *gr = &groups[q];
        gr->way_at = n_ways_all;
        int k = gr->ncol, n = gr->ndice;
        int parts[MAX_PARTS];
        /* odometer over compositions in lexicographically decreasing order */
        parts[0] = n;
        for (int c = 1; c < k; c++)
            parts[c] = 0;
        for (;;) {
            if (n_ways_all == MAX_GROUP_WAYS)
                goto unfit;
            long long v = 0;
            for (int c = 0; c < k; c++) {
                ways[n_ways_all][c] = parts[c];
                v += (long long)parts[c] << (BITS * gr->colours[c]);
            }
            way_v[n_ways_all++] = v;
            /* next: the rightmost part but the last that is > 0 gives one to the next, which takes
               all that follows it */
            int c = k - 2;
            while (c >= 0 && parts[c] == 0)
                c--;
            if (c < 0)
                break;
            parts[c]--;
            int rest = parts[k - 1] + 1;
            parts[k - 1] = 0;
            parts[c + 1] = rest;
        }
        gr->nways = n_ways_all - gr->way_at;
        product *= gr->nways;
        if (product > MAX_PRODUCT)
            goto unfit;
    }

    /* each new outcome (the first allocation giving it), in product order */
    long long found[MAX_WAYS][4];
    long long total[MAX_WAYS];
    short way_of[MAX_WAYS][MAX_GROUPS]; /* the allocation giving it: each group's way */
    Py_ssize_t n_out = 0;
    int idx[MAX_GROUPS] = {0};
    for (long long t = 0; t < product; t++) {
        long long sum = base;
        for (int q = 0; q < n_groups; q++)
            sum += way_v[groups[q].way_at + idx[q]];
        if (sum >= (1LL << 40))
            goto unfit;
        for (int k = 0; k < 4; k++)
            g[k] = taken(sum, k, penalty, supply, &ok);
        if (!ok)
            goto unfit;
        Py_ssize_t o = 0;
        while (o < n_out && (found[o][0] != g[0] || found[o][1] != g[1] || found[o][2] != g[2] || found[o][3] != g[3]))
            o++;
        if (o == n_out) {
            if (n_out == MAX_WAYS)
                goto unfit;
            for (int k = 0; k < 4; k++)
                found[n_out][k] = g[k];
            total[n_out] = g[0] + g[1] + g[2] + g[3];
            for (int q = 0; q < n_groups; q++)
                way_of[n_out][q] = (short)idx[q];
            n_out++;
        }
        for (int q = n_groups - 1; q >= 0; q--) { /* the last group the fastest */
            if (++idx[q] < groups[q].nways)
                break;
            idx[q] = 0;
        }
    }

    /* the colour names, as text */
    const char *cname[4];
    Py_ssize_t clen[4];
    for (int k = 0; k < 4; k++) {
        PyObject *nm = PyTuple_GET_ITEM(names, k);
        if (!PyUnicode_CheckExact(nm) || !PyUnicode_IS_ASCII(nm) || PyUnicode_GET_LENGTH(nm) > 32)
            goto unfit;
        cname[k] = (const char *)PyUnicode_DATA(nm);
        clen[k] = PyUnicode_GET_LENGTH(nm);
    }

    Py_ssize_t order[MAX_WAYS];
    most_first(total, n_out, order);
    /* the stores, text first (nothing Python runs until they are all written) */
    static char text[MAX_WAYS][MAX_SPLIT * 34];
    Py_ssize_t text_len[MAX_WAYS];
    for (Py_ssize_t o = 0; o < n_out; o++) {
        int colour_of[MAX_SPLIT];
        for (int q = 0; q < n_groups; q++) {
            const int *parts = ways[groups[q].way_at + way_of[o][q]];
            int d = 0;
            for (int c = 0; c < groups[q].ncol; c++)
                for (int m = 0; m < parts[c]; m++)
                    colour_of[groups[q].dice[d++]] = groups[q].colours[c];
        }
        char *w = text[o];
        for (int j = 0; j < n_split; j++) {
            if (j)
                *w++ = ',';
            memcpy(w, cname[colour_of[j]], (size_t)clen[colour_of[j]]);
            w += clen[colour_of[j]];
        }
        text_len[o] = w - text[o];
    }
    PyObject *made[MAX_WAYS];
    for (Py_ssize_t o = 0; o < n_out; o++) {
        made[o] = PyUnicode_DecodeASCII(text[o], text_len[o], NULL);
        if (made[o] == NULL) {
            for (Py_ssize_t x = 0; x < o; x++)
                Py_DECREF(made[x]);
            goto done;
        }
    }
    result = PyTuple_New(n_out);
    for (Py_ssize_t r = 0; r < n_out && result != NULL; r++) {
        Py_ssize_t o = order[r];
        PyObject *one = outcome(made[o], found[o]);
        if (one == NULL)
            Py_CLEAR(result);
        else
            PyTuple_SET_ITEM(result, r, one);
    }
    for (Py_ssize_t o = 0; o < n_out; o++)
        Py_DECREF(made[o]);
    goto done;
unfit: /* the reference runs, and raises where it raises */
    (void)err;
    PyErr_Clear();
    Py_INCREF(Py_None);
    result = Py_None;
done:
    Py_XDECREF(players);
    Py_XDECREF(p);
    Py_XDECREF(improvements);
    Py_XDECREF(dice);
    Py_XDECREF(spent);
    Py_XDECREF(kinds);
    Py_XDECREF(supply_list);
    Py_XDECREF(sd);
    return result;
}

static PyMethodDef methods[] = {
    {"options_of", (PyCFunction)(void (*)(void))options_of, METH_FASTCALL,
     "options_of(state, seat, ctx): stockpile.options read from the state in C, or None (then run "
     "stockpile._options_py)."},
    {"options", (PyCFunction)(void (*)(void))options, METH_FASTCALL,
     "options(dice, spent, kinds, both, penalty, supply, codes, splits, allocations, empty): the "
     "stockpile options as stockpile._options_py lists them, or None (then run that)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_stockpile",
                                    "The stockpile options of Rolling Freight in C (issue 34).", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__stockpile(void) {
    if (!(s_players = PyUnicode_InternFromString("players")) || !(s_improvements = PyUnicode_InternFromString("improvements"))
        || !(s_dice = PyUnicode_InternFromString("dice")) || !(s_spent = PyUnicode_InternFromString("spent"))
        || !(s_die_kinds = PyUnicode_InternFromString("die_kinds")) || !(s_supply = PyUnicode_InternFromString("supply")))
        return NULL;
    player_names[P_IMPROVEMENTS] = s_improvements;
    player_names[P_DICE] = s_dice;
    player_names[P_SPENT] = s_spent;
    player_names[P_DIE_KINDS] = s_die_kinds;
    return PyModule_Create(&module);
}
