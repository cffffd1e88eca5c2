/* The end of a turn of Rolling Freight in C (issue 34): steps F (stockpile), the improvements
   bought taking effect, G (refill both tracks), H (roll), the final round's countdown and the
   next player's turn, as rolling.games.freight.turn._end_turn_py does them (the reference) for
   the common case.

   end_turn(state, seat, store, face_code, splits, sets, rng_class, end_of_phase) -> True or None
       state: the FreightState; seat: the seat ending its turn; store: EndTurn.store;
       face_code, splits: stockpile._FACE_CODE and stockpile._SPLITS; sets: dice._SETS;
       rng_class: rolling.core.rng.Rng; end_of_phase: components.END_OF_PHASE.
   True: the turn was ended, exactly as the reference ends it. None: nothing was changed, and the
   caller ends the turn in Python. 1 or 2: nothing was changed, and the caller asks again once it
   has read the engine's store (1: the store is empty with split dice; stockpile.options) or worked
   the dice set out (2: the set after the improvements bought is not in sets, and could not be
   worked out here as dice._dice_set does; dice._dice_set). Everything is checked before anything changes; None where:
   the log is on; anything is not of the expected type or size; a face is not yet in face_code;
   the store names colours the reference would refuse (it raises the error); the final round's
   countdown would end the phase.
   It allocates only the values it stores in the state.
   tests/freight/test_freight_turn_compiled.py compares it with the reference at every end of a
   turn of random games. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <structmember.h>

#include "../../core/_splitmix.h"
#include "_cread.h"

static PyObject *S_players, *S_dice, *S_spent, *S_die_kinds, *S_improvements, *S_pending,
    *S_markers, *S_supply, *S_log, *S_comp, *S_box, *S_contract_track, *S_contract_deck,
    *S_improvement_track, *S_improvement_deck, *S_rng, *S_state, *S_reveals, *S_last_reveal,
    *S_final_left, *S_eop_pending, *S_eop_holder, *S_current, *S_n, *S_turn, *S_routes_done, *S_stations_used, *S_steady_used,
    *S_efficient, *S_basic, *S_card, *S_empty, *S_dice_word, *S_basic_dice, *S_improvement_dice, *S_die;
static const char *COLOUR_NAMES[4] = {"blue", "gray", "red", "yellow"};


/* str.isspace() for an ASCII character, as str.split() and str.strip() read it */
static inline int ascii_space(Py_UCS1 c) {
    return c == ' ' || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f);
}

/* an exact int that fits a long, in *out; 0 where not */
static inline int small_int(PyObject *o, long *out) {
    if (o == NULL || !PyLong_CheckExact(o))
        return 0;
    int overflow;
    long v = PyLong_AsLongAndOverflow(o, &overflow);
    if (overflow || (v == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return 0;
    }
    *out = v;
    return 1;
}

/* a new reference to state.name, or NULL with no exception set */
static PyObject *get(PyObject *o, PyObject *name) {
    PyObject *v = PyObject_GetAttr(o, name);
    if (v == NULL)
        PyErr_Clear();
    return v;
}

/* The offset of the slot ``name`` of o's type (a member descriptor of an object kept by
   reference, writable, the type's attribute access the generic one), or -1: then read and write
   it by getattr and setattr. A slot read and written at its offset is what the generic access does
   (Player and Rng are slotted classes: issue 34). */
static Py_ssize_t slot_offset(PyObject *o, PyObject *name) {
    PyTypeObject *t = Py_TYPE(o);
    if (t->tp_getattro != PyObject_GenericGetAttr || t->tp_setattro != PyObject_GenericSetAttr)
        return -1;
    PyObject *descr = _PyType_Lookup(t, name);
    if (descr == NULL || Py_TYPE(descr) != &PyMemberDescr_Type)
        return -1;
    PyMemberDef *m = ((PyMemberDescrObject *)descr)->d_member;
    if (m->type != T_OBJECT_EX || (m->flags & READONLY) || m->offset <= 0)
        return -1;
    return m->offset;
}

/* a new reference to o.name (a slot), or NULL with no exception set */
static PyObject *sget(PyObject *o, PyObject *name) {
    Py_ssize_t off = slot_offset(o, name);
    if (off < 0)
        return get(o, name);
    PyObject *v = *(PyObject **)((char *)o + off);
    Py_XINCREF(v);
    return v;
}

/* o.name = v (a slot) */
static int sset(PyObject *o, PyObject *name, PyObject *v) {
    Py_ssize_t off = slot_offset(o, name);
    if (off < 0)
        return PyObject_SetAttr(o, name, v);
    PyObject **at = (PyObject **)((char *)o + off), *old = *at;
    Py_INCREF(v);
    *at = v;
    Py_XDECREF(old);
    return 0;
}

/* The state's attributes read and written in its __dict__ where its type lets (DictFit, _cread.h:
   generic attribute access, no class attribute of any of these names; else the Python reference). */
static DictFit dict_fit;
static PyObject **dict_names[] = {&S_players, &S_log, &S_supply, &S_comp, &S_contract_track, &S_contract_deck,
                                  &S_improvement_track, &S_improvement_deck, &S_rng, &S_reveals, &S_last_reveal,
                                  &S_final_left, &S_eop_pending, &S_eop_holder, &S_current, &S_n, &S_turn,
                                  &S_routes_done, &S_stations_used, &S_steady_used};

/* a new reference to state.<name> (d: the state's __dict__), or NULL with no exception set */
static PyObject *dget(PyObject *d, PyObject *state, PyObject *name) {
    PyObject *v = cread_dict_get(d, state, name);
    if (v == NULL)
        PyErr_Clear();
    return v;
}

static int set_long(PyObject *d, PyObject *name, long v) {
    PyObject *x = PyLong_FromLong(v);
    if (x == NULL)
        return -1;
    int r = PyDict_SetItem(d, name, x);
    Py_DECREF(x);
    return r;
}

/* list item k set to the int v */
static int list_set_long(PyObject *list, Py_ssize_t k, long v) {
    PyObject *x = PyLong_FromLong(v);
    if (x == NULL)
        return -1;
    return PyList_SetItem(list, k, x); /* steals x */
}

/* whether the list holds None */
static int has_none(PyObject *list) {
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list); i++)
        if (PyList_GET_ITEM(list, i) == Py_None)
            return 1;
    return 0;
}

/* the list without its None items (a new list) */
static PyObject *compact(PyObject *list) {
    PyObject *out = PyList_New(0);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list); i++) {
        PyObject *c = PyList_GET_ITEM(list, i);
        if (c != Py_None && PyList_Append(out, c) < 0) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return out;
}

/* G's slide of a track (refill.fill_*_track): where *track has gaps, the state's attribute
   ``name`` becomes a new list without them, and *track (a held reference) that list; a full track
   without gaps is left as it is. -1 on an error. */
static int slide(PyObject *d, PyObject *state, PyObject *name, PyObject **track) {
    if (!has_none(*track))
        return 0;
    PyObject *t = compact(*track);
    if (t == NULL)
        return -1;
    int e = cread_dict_set(d, state, name, t);
    Py_DECREF(*track);
    *track = t;
    return e < 0 ? -1 : 0;
}

static Py_ssize_t count_not_none(PyObject *list) {
    Py_ssize_t n = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list); i++)
        if (PyList_GET_ITEM(list, i) != Py_None)
            n++;
    return n;
}

/* dice._dice_set's entry for the improvements ``key`` (a tuple of names), put into ``sets`` as
   dice._dice_set puts it (emptied at 1000 entries): (comp, kinds, faces, bounds). A new reference,
   or NULL with no exception where anything is not of the expected form (the caller asks Python). */
static PyObject *dice_entry(PyObject *comp, PyObject *key, PyObject *sets) {
    PyObject *basic = sget(comp, S_basic_dice), *imps = sget(comp, S_improvements), *idice = sget(comp, S_improvement_dice);
    PyObject *kinds = PyList_New(0), *faces = PyList_New(0), *bounds = NULL, *entry = NULL;
    if (!basic || !imps || !idice || !kinds || !faces || !PyTuple_CheckExact(basic) || !PyDict_CheckExact(imps) ||
        !PyDict_CheckExact(idice))
        goto done;
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(basic); j++) {
        PyObject *f = PyTuple_GET_ITEM(basic, j);
        if (!PyTuple_CheckExact(f) || PyList_Append(kinds, S_basic) < 0 || PyList_Append(faces, f) < 0)
            goto done;
    }
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(key); j++) {
        PyObject *rec = PyDict_GetItemWithError(imps, PyTuple_GET_ITEM(key, j));
        if (rec == NULL)
            goto done;
        PyObject *die = sget(rec, S_die);
        if (die == NULL)
            goto done;
        if (die == Py_None || (PyUnicode_CheckExact(die) && PyUnicode_GET_LENGTH(die) == 0)) { /* no die */
            Py_DECREF(die);
            continue;
        }
        PyObject *f = PyUnicode_CheckExact(die) ? PyDict_GetItemWithError(idice, die) : NULL;
        int e = f == NULL || !PyTuple_CheckExact(f) || PyList_Append(kinds, die) < 0 || PyList_Append(faces, f) < 0;
        Py_DECREF(die);
        if (e)
            goto done;
    }
    bounds = PyList_New(PyList_GET_SIZE(faces));
    if (bounds == NULL)
        goto done;
    for (Py_ssize_t j = 0; j < PyList_GET_SIZE(faces); j++) {
        PyObject *n = PyLong_FromSsize_t(PyTuple_GET_SIZE(PyList_GET_ITEM(faces, j)));
        if (n == NULL)
            goto done;
        PyList_SET_ITEM(bounds, j, n);
    }
    PyObject *kt = PyList_AsTuple(kinds), *ft = PyList_AsTuple(faces);
    if (kt && ft)
        entry = PyTuple_Pack(4, comp, kt, ft, bounds);
    Py_XDECREF(kt);
    Py_XDECREF(ft);
    if (entry != NULL && ((PyDict_Size(sets) >= 1000 && (PyDict_Clear(sets), 0)) || PyDict_SetItem(sets, key, entry) < 0))
        Py_CLEAR(entry);
done:
    Py_XDECREF(basic);
    Py_XDECREF(imps);
    Py_XDECREF(idice);
    Py_XDECREF(kinds);
    Py_XDECREF(faces);
    Py_XDECREF(bounds);
    if (entry == NULL && PyErr_Occurred())
        PyErr_Clear();
    return entry;
}

#define MAX_DICE 64
#define MAX_DRAWS 16

typedef struct {
    PyObject *d, *p, *dice, *spent, *kinds, *imps, *pending, *markers, *supply, *comp, *box,
        *ctrack, *cdeck, *itrack, *ideck, *rng, *key, *entry;
} Refs;

static void release(Refs *r) {
    Py_XDECREF(r->d);
    Py_XDECREF(r->p);
    Py_XDECREF(r->dice);
    Py_XDECREF(r->spent);
    Py_XDECREF(r->kinds);
    Py_XDECREF(r->imps);
    Py_XDECREF(r->pending);
    Py_XDECREF(r->markers);
    Py_XDECREF(r->supply);
    Py_XDECREF(r->comp);
    Py_XDECREF(r->box);
    Py_XDECREF(r->ctrack);
    Py_XDECREF(r->cdeck);
    Py_XDECREF(r->itrack);
    Py_XDECREF(r->ideck);
    Py_XDECREF(r->rng);
    Py_XDECREF(r->key);
    Py_XDECREF(r->entry);
}

#define FALLBACK                                                                                   \
    do {                                                                                           \
        release(&r);                                                                               \
        if (PyErr_Occurred())                                                                      \
            PyErr_Clear();                                                                         \
        Py_RETURN_NONE;                                                                            \
    } while (0)
#define FAIL                                                                                       \
    do {                                                                                           \
        release(&r);                                                                               \
        return NULL;                                                                               \
    } while (0)

static PyObject *end_turn(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "end_turn takes eight arguments");
        return NULL;
    }
    PyObject *state = args[0], *face_code = args[3], *splits = args[4], *sets = args[5],
             *rng_class = args[6], *eop = args[7], *store = args[2];
    Refs r;
    memset(&r, 0, sizeof r);
    long seat;
    if (!small_int(args[1], &seat) || seat < 0 || !PyUnicode_Check(store) || !PyDict_CheckExact(face_code) ||
        !PyList_CheckExact(splits) || !PyDict_CheckExact(sets))
        FALLBACK;
    /* -- read and check everything ------------------------------------------------------------ */
    /* the state's attributes read and written in its __dict__ (FreightState has no descriptor of
       these names: the same as getattr and setattr, with fewer steps) */
    r.d = cread_dict_of(&dict_fit, state, dict_names, sizeof dict_names / sizeof dict_names[0], 1);
    if (r.d == NULL)
        FALLBACK;
    PyObject *log = dget(r.d, state, S_log);
    if (log == NULL)
        FALLBACK;
    Py_DECREF(log);
    if (log != Py_None)
        FALLBACK;
    PyObject *players = dget(r.d, state, S_players);
    if (players == NULL)
        FALLBACK;
    if (!PyList_CheckExact(players) || seat >= PyList_GET_SIZE(players)) {
        Py_DECREF(players);
        FALLBACK;
    }
    r.p = PyList_GET_ITEM(players, seat);
    Py_INCREF(r.p);
    Py_DECREF(players);
    if (!(r.dice = sget(r.p, S_dice)) || !(r.spent = sget(r.p, S_spent)) || !(r.kinds = sget(r.p, S_die_kinds)) ||
        !(r.imps = sget(r.p, S_improvements)) || !(r.pending = sget(r.p, S_pending)) ||
        !(r.markers = sget(r.p, S_markers)) || !(r.supply = dget(r.d, state, S_supply)) || !(r.comp = dget(r.d, state, S_comp)) ||
        !(r.ctrack = dget(r.d, state, S_contract_track)) || !(r.cdeck = dget(r.d, state, S_contract_deck)) ||
        !(r.itrack = dget(r.d, state, S_improvement_track)) || !(r.ideck = dget(r.d, state, S_improvement_deck)) ||
        !(r.rng = dget(r.d, state, S_rng)) || !(r.box = sget(r.comp, S_box)))
        FALLBACK;
    if (!PyList_CheckExact(r.dice) || !PyList_CheckExact(r.spent) || !PyList_CheckExact(r.kinds) ||
        !PyList_CheckExact(r.imps) || !PyList_CheckExact(r.pending) || !PyList_CheckExact(r.markers) ||
        !PyList_CheckExact(r.supply) || !PyList_CheckExact(r.ctrack) || !PyList_CheckExact(r.cdeck) ||
        !PyList_CheckExact(r.itrack) || !PyList_CheckExact(r.ideck) || !PyDict_CheckExact(r.box) ||
        (PyObject *)Py_TYPE(r.rng) != rng_class)
        FALLBACK;
    /* H: the dice set after the improvements bought take effect (dice._SETS) */
    Py_ssize_t ni = PyList_GET_SIZE(r.imps), np = PyList_GET_SIZE(r.pending);
    r.key = PyTuple_New(ni + np);
    if (r.key == NULL)
        FAIL;
    for (Py_ssize_t i = 0; i < ni; i++) {
        PyObject *x = PyList_GET_ITEM(r.imps, i);
        Py_INCREF(x);
        PyTuple_SET_ITEM(r.key, i, x);
    }
    for (Py_ssize_t i = 0; i < np; i++) {
        PyObject *x = PyList_GET_ITEM(r.pending, i);
        Py_INCREF(x);
        PyTuple_SET_ITEM(r.key, ni + i, x);
    }
    r.entry = PyDict_GetItemWithError(sets, r.key);
    if (r.entry == NULL && PyErr_Occurred())
        FALLBACK;
    if (r.entry == NULL || !PyTuple_CheckExact(r.entry) || PyTuple_GET_SIZE(r.entry) != 4 ||
        PyTuple_GET_ITEM(r.entry, 0) != r.comp) {
        r.entry = dice_entry(r.comp, r.key, sets); /* a new reference */
        if (r.entry == NULL) { /* the caller works the dice set out and asks again */
            release(&r);
            return PyLong_FromLong(2);
        }
    } else {
        Py_INCREF(r.entry);
    }
    Py_ssize_t nd = PyList_GET_SIZE(r.dice);
    if (nd > MAX_DICE || PyList_GET_SIZE(r.spent) < nd || PyList_GET_SIZE(r.kinds) < nd ||
        PyList_GET_SIZE(r.markers) != 4 || PyList_GET_SIZE(r.supply) != 4)
        FALLBACK;
    long markers[4], supply[4];
    for (int k = 0; k < 4; k++)
        if (!small_int(PyList_GET_ITEM(r.markers, k), &markers[k]) || !small_int(PyList_GET_ITEM(r.supply, k), &supply[k]))
            FALLBACK;
    long final_left, current, n, turn, reveals, eop_pending;
    PyObject *o;
#define READ_LONG(name, var)                                                                       \
    o = dget(r.d, state, name);                                                                    \
    if (o == NULL)                                                                                 \
        FALLBACK;                                                                                  \
    if (!small_int(o, &var)) {                                                                     \
        Py_DECREF(o);                                                                              \
        FALLBACK;                                                                                  \
    }                                                                                              \
    Py_DECREF(o);
    READ_LONG(S_final_left, final_left)
    READ_LONG(S_current, current)
    READ_LONG(S_n, n)
    READ_LONG(S_turn, turn)
    READ_LONG(S_reveals, reveals)
    READ_LONG(S_eop_pending, eop_pending)
    if (n <= 0 || current < 0)
        FALLBACK;
    /* F: the dice by face code (stockpile._read_dice) */
    int efficient = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(r.imps); i++) {
        int eq = PyObject_RichCompareBool(PyList_GET_ITEM(r.imps, i), S_efficient, Py_EQ);
        if (eq < 0)
            FALLBACK;
        efficient += eq;
    }
    Py_ssize_t nsplits_known = PyList_GET_SIZE(splits);
    int64_t base = 0;
    long split_code[MAX_DICE];
    int nsplit = 0;
    for (Py_ssize_t i = 0; i < nd; i++) {
        PyObject *s = PyList_GET_ITEM(r.spent, i);
        if (s == Py_True)
            continue;
        if (s != Py_False)
            FALLBACK;
        PyObject *name = PyList_GET_ITEM(r.dice, i);
        if (!PyUnicode_CheckExact(name))
            FALLBACK;
        long code;
        if (!small_int(PyDict_GetItemWithError(face_code, name), &code) || code < -nsplits_known || code >= (1L << 32))
            FALLBACK;
        if (code >= 0) {
            base += code;
        } else {
            PyObject *entry = PyList_GET_ITEM(splits, -1 - code);
            int basic = 0;
            if (efficient >= 2) {
                basic = PyObject_RichCompareBool(PyList_GET_ITEM(r.kinds, i), S_basic, Py_EQ);
                if (basic < 0)
                    FALLBACK;
            }
            if (basic) {
                long add;
                if (!PyTuple_CheckExact(entry) || PyTuple_GET_SIZE(entry) != 2 ||
                    !small_int(PyTuple_GET_ITEM(entry, 1), &add) || add < 0 || add >= (1L << 32))
                    FALLBACK;
                base += add;
            } else {
                split_code[nsplit++] = code;
            }
        }
    }
    /* the store: one colour per split die, as stockpile_store reads and checks it */
    if (!PyUnicode_IS_ASCII(store))
        FALLBACK;
    const Py_UCS1 *txt = PyUnicode_1BYTE_DATA(store);
    Py_ssize_t len = PyUnicode_GET_LENGTH(store);
    int blank = 1;
    for (Py_ssize_t j = 0; j < len; j++)
        if (!ascii_space(txt[j]))
            blank = 0;
    if (blank) {
        if (nsplit) { /* the engine's choice: the caller reads it (stockpile.options) and asks again */
            release(&r);
            return PyLong_FromLong(1);
        }
    } else {
        int w = 0;
        Py_ssize_t j = 0;
        while (j < len) {
            while (j < len && (ascii_space(txt[j]) || txt[j] == ','))
                j++;
            if (j >= len)
                break;
            Py_ssize_t start = j;
            while (j < len && !(ascii_space(txt[j]) || txt[j] == ','))
                j++;
            if (w >= nsplit)
                FALLBACK; /* more colours than split dice: the reference refuses */
            int colour = -1;
            for (int k = 0; k < 4; k++)
                if ((Py_ssize_t)strlen(COLOUR_NAMES[k]) == j - start &&
                    memcmp(COLOUR_NAMES[k], txt + start, (size_t)(j - start)) == 0)
                    colour = k;
            if (colour < 0)
                FALLBACK;
            PyObject *entry = PyList_GET_ITEM(splits, -1 - split_code[w]);
            if (!PyTuple_CheckExact(entry) || PyTuple_GET_SIZE(entry) != 2 ||
                !PyTuple_CheckExact(PyTuple_GET_ITEM(entry, 0)))
                FALLBACK;
            PyObject *cols = PyTuple_GET_ITEM(entry, 0);
            int shows = 0;
            for (Py_ssize_t q = 0; q < PyTuple_GET_SIZE(cols); q++) {
                long c;
                if (!small_int(PyTuple_GET_ITEM(cols, q), &c))
                    FALLBACK;
                if (c == colour)
                    shows = 1;
            }
            if (!shows)
                FALLBACK;
            base += (int64_t)1 << (8 * colour);
            w++;
        }
        if (w != nsplit)
            FALLBACK;
    }
    long take[4];
    long penalty = efficient ? 0 : 1;
    for (int k = 0; k < 4; k++) {
        long c = (long)((base >> (8 * k)) & 0xff) - penalty;
        if (c < 0)
            c = 0;
        if (c > supply[k])
            c = supply[k];
        take[k] = c;
    }
    /* G: the cards the contract track's refill pops (refill.fill_contract_track, draw_contract):
       an End of Phase card goes to this seat (refill.end_of_phase_drawn, in its turn), another
       drawn while a final round runs waits for the next phase */
    long csize, isize;
    if (!small_int(PyDict_GetItemWithError(r.box, S_contract_track), &csize) ||
        !small_int(PyDict_GetItemWithError(r.box, S_improvement_track), &isize))
        FALLBACK;
    Py_ssize_t held = count_not_none(r.ctrack), cdraw = 0, deck_left = PyList_GET_SIZE(r.cdeck);
    long new_final = final_left, new_pending = eop_pending;
    int holder_set = 0;
    while (held < csize && deck_left > 0) {
        while (deck_left > 0) {
            int eq = PyObject_RichCompareBool(PyList_GET_ITEM(r.cdeck, --deck_left), eop, Py_EQ);
            cdraw++;
            if (eq < 0)
                FALLBACK;
            if (eq) {
                if (new_final >= 0) {
                    new_pending++;
                } else {
                    holder_set = 1;
                    new_final = n + 1;
                }
                continue;
            }
            held++;
            break;
        }
    }
    if (new_final == 1) /* the countdown ends the phase (phases.end_phase): Python */
        FALLBACK;
    /* the improvement cards are strings (so that comparing them cannot fail) */
    for (Py_ssize_t j = 0; j < PyList_GET_SIZE(r.ideck); j++)
        if (!PyUnicode_CheckExact(PyList_GET_ITEM(r.ideck, j)))
            FALLBACK;
    for (Py_ssize_t j = 0; j < PyList_GET_SIZE(r.itrack); j++)
        if (PyList_GET_ITEM(r.itrack, j) != Py_None && !PyUnicode_CheckExact(PyList_GET_ITEM(r.itrack, j)))
            FALLBACK;
    PyObject *kinds = PyTuple_GET_ITEM(r.entry, 1), *faces = PyTuple_GET_ITEM(r.entry, 2);
    if (!PyTuple_CheckExact(kinds) || !PyTuple_CheckExact(faces) || PyTuple_GET_SIZE(kinds) != PyTuple_GET_SIZE(faces))
        FALLBACK;
    Py_ssize_t nroll = PyTuple_GET_SIZE(faces);
    for (Py_ssize_t j = 0; j < nroll; j++) {
        PyObject *f = PyTuple_GET_ITEM(faces, j);
        if (!PyTuple_CheckExact(f) || PyTuple_GET_SIZE(f) == 0)
            FALLBACK;
    }
    PyObject *rs = sget(r.rng, S_state);
    if (rs == NULL)
        FALLBACK;
    if (!PyLong_CheckExact(rs)) {
        Py_DECREF(rs);
        FALLBACK;
    }
    uint64_t rstate = PyLong_AsUnsignedLongLong(rs);
    Py_DECREF(rs);
    if (rstate == (uint64_t)-1 && PyErr_Occurred())
        FALLBACK;

    /* -- change the state (only allocation failures are left) --------------------------------- */
    /* F */
    for (int k = 0; k < 4; k++)
        if (take[k]) {
            if (list_set_long(r.markers, k, markers[k] + take[k]) < 0 || list_set_long(r.supply, k, supply[k] - take[k]) < 0)
                FAIL;
        }
    /* the improvements bought take effect: p.improvements += p.pending; p.pending = [] */
    if (np) {
        for (Py_ssize_t i = 0; i < np; i++)
            if (PyList_Append(r.imps, PyList_GET_ITEM(r.pending, i)) < 0)
                FAIL;
        PyObject *fresh = PyList_New(0);
        if (fresh == NULL)
            FAIL;
        int e = sset(r.p, S_pending, fresh);
        Py_DECREF(fresh);
        if (e < 0)
            FAIL;
    }
    /* G */
    if (slide(r.d, state, S_contract_track, &r.ctrack) < 0)
        FAIL;
    for (Py_ssize_t j = 0; j < cdraw; j++) {
        Py_ssize_t last = PyList_GET_SIZE(r.cdeck) - 1;
        PyObject *card = PyList_GET_ITEM(r.cdeck, last);
        Py_INCREF(card);
        int eq = PyObject_RichCompareBool(card, eop, Py_EQ);
        int e = eq < 0 ? -1 : eq ? 0 : PyList_Append(r.ctrack, card);
        Py_DECREF(card);
        if (e < 0 || PyList_SetSlice(r.cdeck, last, last + 1, NULL) < 0)
            FAIL;
    }
    if ((holder_set && (set_long(r.d, S_eop_holder, seat) < 0 || set_long(r.d, S_final_left, new_final) < 0)) ||
        (new_pending != eop_pending && set_long(r.d, S_eop_pending, new_pending) < 0))
        FAIL;
    if (slide(r.d, state, S_improvement_track, &r.itrack) < 0)
        FAIL;
    /* refill.fill_improvement_track's loop: a duplicate goes to the bottom of the deck */
    Py_ssize_t idraw = 0, tries = 0;
    while (PyList_GET_SIZE(r.itrack) < isize && PyList_GET_SIZE(r.ideck) > 0 && tries <= PyList_GET_SIZE(r.ideck)) {
        Py_ssize_t last = PyList_GET_SIZE(r.ideck) - 1;
        PyObject *card = PyList_GET_ITEM(r.ideck, last);
        Py_INCREF(card);
        idraw++;
        if (PyList_SetSlice(r.ideck, last, last + 1, NULL) < 0) {
            Py_DECREF(card);
            FAIL;
        }
        int dup = PySequence_Contains(r.itrack, card);
        int e = dup < 0 ? -1 : dup ? PyList_Insert(r.ideck, 0, card) : PyList_Append(r.itrack, card);
        Py_DECREF(card);
        if (e < 0)
            FAIL;
        tries = dup ? tries + 1 : 0;
    }
    /* H */
    PyObject *rolled = PyList_New(nroll), *spent = PyList_New(nroll), *dk = PySequence_List(kinds);
    if (rolled == NULL || spent == NULL || dk == NULL) {
        Py_XDECREF(rolled);
        Py_XDECREF(spent);
        Py_XDECREF(dk);
        FAIL;
    }
    for (Py_ssize_t j = 0; j < nroll; j++) {
        PyObject *f = PyTuple_GET_ITEM(faces, j);
        PyObject *face = PyTuple_GET_ITEM(f, (Py_ssize_t)splitmix_below(&rstate, (uint64_t)PyTuple_GET_SIZE(f)));
        Py_INCREF(face);
        PyList_SET_ITEM(rolled, j, face);
        Py_INCREF(Py_False);
        PyList_SET_ITEM(spent, j, Py_False);
    }
    PyObject *newstate = PyLong_FromUnsignedLongLong(rstate);
    int e = newstate == NULL ? -1 : sset(r.rng, S_state, newstate);
    Py_XDECREF(newstate);
    if (e == 0)
        e = sset(r.p, S_die_kinds, dk);
    if (e == 0)
        e = sset(r.p, S_dice, rolled);
    if (e == 0)
        e = sset(r.p, S_spent, spent);
    Py_DECREF(rolled);
    Py_DECREF(spent);
    Py_DECREF(dk);
    if (e < 0)
        FAIL;
    /* the reveals: each card drawn, then the roll */
    if (set_long(r.d, S_reveals, reveals + (long)cdraw + (long)idraw + 1) < 0)
        FAIL;
    PyObject *lr = PyTuple_Pack(2, S_dice_word, S_empty);
    if (lr == NULL)
        FAIL;
    e = cread_dict_set(r.d, state, S_last_reveal, lr);
    Py_DECREF(lr);
    if (e < 0)
        FAIL;
    /* the final round's countdown (not ending the phase: checked above), the next turn */
    if (new_final >= 0 && set_long(r.d, S_final_left, new_final - 1) < 0)
        FAIL;
    if (set_long(r.d, S_current, (current + 1) % n) < 0 || set_long(r.d, S_turn, turn + 1) < 0 ||
        set_long(r.d, S_routes_done, 0) < 0 || set_long(r.d, S_stations_used, 0) < 0 ||
        set_long(r.d, S_steady_used, 0) < 0)
        FAIL;
    release(&r);
    Py_RETURN_TRUE;
}

static PyMethodDef methods[] = {
    {"end_turn", (PyCFunction)(void (*)(void))end_turn, METH_FASTCALL,
     "end_turn(state, seat, store, face_code, splits, sets, rng_class, end_of_phase) -> True, or None "
     "where the turn is left to the Python steps, or 1 or 2 where the caller asks again (nothing changed)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_turn", "The end of a Rolling Freight turn in C.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__turn(void) {
#define INTERN(var, text)                                                                          \
    if ((var = PyUnicode_InternFromString(text)) == NULL)                                          \
        return NULL;
    INTERN(S_players, "players")
    INTERN(S_dice, "dice")
    INTERN(S_spent, "spent")
    INTERN(S_die_kinds, "die_kinds")
    INTERN(S_improvements, "improvements")
    INTERN(S_pending, "pending")
    INTERN(S_markers, "markers")
    INTERN(S_supply, "supply")
    INTERN(S_log, "log")
    INTERN(S_comp, "comp")
    INTERN(S_box, "box")
    INTERN(S_contract_track, "contract_track")
    INTERN(S_contract_deck, "contract_deck")
    INTERN(S_improvement_track, "improvement_track")
    INTERN(S_improvement_deck, "improvement_deck")
    INTERN(S_rng, "rng")
    INTERN(S_state, "state")
    INTERN(S_reveals, "reveals")
    INTERN(S_last_reveal, "last_reveal")
    INTERN(S_final_left, "final_left")
    INTERN(S_eop_pending, "eop_pending")
    INTERN(S_eop_holder, "eop_holder")
    INTERN(S_current, "current")
    INTERN(S_n, "n")
    INTERN(S_turn, "turn")
    INTERN(S_routes_done, "routes_done")
    INTERN(S_stations_used, "stations_used")
    INTERN(S_steady_used, "steady_used")
    INTERN(S_efficient, "Efficient Storage")
    INTERN(S_basic, "basic")
    INTERN(S_card, "card")
    INTERN(S_empty, "")
    INTERN(S_dice_word, "dice")
    INTERN(S_basic_dice, "basic_dice")
    INTERN(S_improvement_dice, "improvement_dice")
    INTERN(S_die, "die")
    return PyModule_Create(&module);
}
