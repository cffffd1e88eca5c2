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

#define BITS 8
#define MASK 255
#define MAX_SPLIT 64
#define MAX_WAYS 512

/* the int as a long long; 0 with *ok = 0 and no exception where it is no int or does not fit */
static long long as_long(PyObject *o, int *ok) {
    if (!PyLong_Check(o)) {
        *ok = 0;
        return 0;
    }
    int over = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &over);
    if (over || (v == -1 && PyErr_Occurred())) {
        PyErr_Clear();
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

/* (store, (a, b, c, d)) */
static PyObject *outcome(PyObject *store, const long long *g) {
    PyObject *markers = PyTuple_New(4);
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

    /* most markers first, equal totals in their order (a stable insertion sort, as sorted's) */
    Py_ssize_t order[MAX_WAYS];
    for (Py_ssize_t o = 0; o < n_out; o++) {
        Py_ssize_t at = o;
        while (at > 0 && total[order[at - 1]] < total[o]) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = o;
    }
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

static PyMethodDef methods[] = {
    {"options", (PyCFunction)(void (*)(void))options, METH_FASTCALL,
     "options(dice, spent, kinds, both, penalty, supply, codes, splits, allocations, empty): the "
     "stockpile options as stockpile._options_py lists them, or None (then run that)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_stockpile",
                                    "The stockpile options of Rolling Freight in C (issue 34).", -1, methods};

PyMODINIT_FUNC PyInit__stockpile(void) { return PyModule_Create(&module); }
