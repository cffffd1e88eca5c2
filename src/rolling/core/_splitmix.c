/* SplitMix64 draws in C: the arithmetic of rolling.core.rng.Rng.next64 and Rng.below (issue 34).

   Python computes each step of SplitMix64 on unbounded integers masked to 64 bits (about 7,000
   machine instructions a draw); here the same steps run on uint64_t, whose arithmetic wraps modulo
   2**64 exactly as the masks do. The generator's state stays a Python int held by the Rng object:
   these functions take it and give the next one back, so an Rng is copied, cloned, pickled and
   subclassed as before. rng.py keeps the Python steps as the reference (and runs them where this
   extension is not built, or ROLLING_PURE_PYTHON is set); tests/test_rng_compiled.py compares the
   two.

   next64(state) -> (state, value)
   below(state, n) -> (state, value) with value uniform in [0, n), or None where a number does not
   fit (state not in 0..2**64-1, n not in 1..2**64-1): the caller then draws in Python.
   draws(state, bounds) -> (state, values): below for each bound of a list, in order (None as
   below: nothing is drawn then). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#include "_splitmix.h"

/* the int as uint64_t; 0 with no exception where it is no int in 0..2**64-1 (*ok = 0) */
static uint64_t as_u64(PyObject *o, int *ok) {
    if (!PyLong_Check(o)) {
        *ok = 0;
        return 0;
    }
    uint64_t v = PyLong_AsUnsignedLongLong(o);
    if (v == (uint64_t)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        *ok = 0;
        return 0;
    }
    *ok = 1;
    return v;
}

static PyObject *pair(uint64_t state, uint64_t value) {
    PyObject *s = PyLong_FromUnsignedLongLong(state);
    if (s == NULL)
        return NULL;
    PyObject *v = PyLong_FromUnsignedLongLong(value);
    if (v == NULL) {
        Py_DECREF(s);
        return NULL;
    }
    PyObject *t = PyTuple_New(2);
    if (t == NULL) {
        Py_DECREF(s);
        Py_DECREF(v);
        return NULL;
    }
    PyTuple_SET_ITEM(t, 0, s);
    PyTuple_SET_ITEM(t, 1, v);
    return t;
}

static PyObject *next64(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "next64(state) takes one argument");
        return NULL;
    }
    int ok;
    uint64_t state = as_u64(args[0], &ok);
    if (!ok)
        Py_RETURN_NONE;
    uint64_t z = splitmix_step(&state);
    return pair(state, z);
}

static PyObject *below(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "below(state, n) takes two arguments");
        return NULL;
    }
    int ok_state, ok_n;
    uint64_t state = as_u64(args[0], &ok_state);
    uint64_t n = as_u64(args[1], &ok_n);
    if (!ok_state || !ok_n || n == 0)
        Py_RETURN_NONE;
    uint64_t x = splitmix_below(&state, n);
    return pair(state, x);
}

static PyObject *draws(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "draws(state, bounds) takes two arguments");
        return NULL;
    }
    int ok;
    uint64_t state = as_u64(args[0], &ok);
    if (!ok || !PyList_CheckExact(args[1]))
        Py_RETURN_NONE;
    PyObject *bounds = args[1];
    Py_ssize_t count = PyList_GET_SIZE(bounds);
    PyObject *out = PyList_New(count);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < count; i++) {
        uint64_t n = as_u64(PyList_GET_ITEM(bounds, i), &ok);
        if (!ok || n == 0) { /* nothing drawn: the caller draws each in Python */
            Py_DECREF(out);
            Py_RETURN_NONE;
        }
        PyObject *v = PyLong_FromUnsignedLongLong(splitmix_below(&state, n));
        if (v == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, v);
    }
    PyObject *s = PyLong_FromUnsignedLongLong(state);
    if (s == NULL) {
        Py_DECREF(out);
        return NULL;
    }
    PyObject *t = PyTuple_New(2);
    if (t == NULL) {
        Py_DECREF(s);
        Py_DECREF(out);
        return NULL;
    }
    PyTuple_SET_ITEM(t, 0, s);
    PyTuple_SET_ITEM(t, 1, out);
    return t;
}

static PyMethodDef methods[] = {
    {"next64", (PyCFunction)(void (*)(void))next64, METH_FASTCALL,
     "next64(state) -> (state, value): one SplitMix64 step (None: state not in 0..2**64-1)."},
    {"below", (PyCFunction)(void (*)(void))below, METH_FASTCALL,
     "below(state, n) -> (state, value in [0, n)) by rejection sampling, as Rng.below (None: a "
     "number that does not fit 64 bits, or n == 0)."},
    {"draws", (PyCFunction)(void (*)(void))draws, METH_FASTCALL,
     "draws(state, bounds) -> (state, [below(n) for each n of the list bounds]) (None: a number "
     "that does not fit 64 bits, or a bound 0)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_splitmix", "SplitMix64 draws of rolling.core.rng.Rng in C.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__splitmix(void) { return PyModule_Create(&module); }
