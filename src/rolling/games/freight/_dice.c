/* Step H (rolling the dice) in C: the draws and the faces of rolling.games.freight.dice.roll_all
   (issue 34).

   roll(state, faces) -> (state, dice) or None
       state: the Rng's state (an int in 0..2**64-1); faces: a tuple with, for each die in order,
       the tuple of its faces (each non-empty). Draws Rng.below(len(faces[j])) for each die in
       order, exactly as rolling.core.rng.Rng.draws does (SplitMix64 with rejection sampling: the
       steps of rolling/core/_splitmix.c), and gives the next state with the list of the faces
       showing (the face objects themselves). None (nothing drawn) where an argument is not of
       that form: the caller then rolls in Python (dice.roll_all's own steps are the reference;
       tests/freight/test_freight_dice_compiled.py compares the two at every end of a turn).
   It allocates only the result. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

static inline uint64_t step(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static PyObject *roll(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "roll(state, faces) takes two arguments");
        return NULL;
    }
    PyObject *st = args[0], *faces = args[1];
    if (!PyLong_Check(st) || !PyTuple_CheckExact(faces))
        Py_RETURN_NONE;
    uint64_t state = PyLong_AsUnsignedLongLong(st);
    if (state == (uint64_t)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    Py_ssize_t count = PyTuple_GET_SIZE(faces);
    for (Py_ssize_t j = 0; j < count; j++) {
        PyObject *f = PyTuple_GET_ITEM(faces, j);
        if (!PyTuple_CheckExact(f) || PyTuple_GET_SIZE(f) == 0)
            Py_RETURN_NONE;
    }
    PyObject *out = PyList_New(count);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t j = 0; j < count; j++) {
        PyObject *f = PyTuple_GET_ITEM(faces, j);
        uint64_t n = (uint64_t)PyTuple_GET_SIZE(f);
        /* Python: limit = 2**64 - 2**64 % n, accept x < limit */
        uint64_t rem = (UINT64_MAX % n + 1) % n, last = UINT64_MAX - rem, x;
        do {
            x = step(&state);
        } while (x > last);
        PyObject *face = PyTuple_GET_ITEM(f, (Py_ssize_t)(x % n));
        Py_INCREF(face);
        PyList_SET_ITEM(out, j, face);
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
    {"roll", (PyCFunction)(void (*)(void))roll, METH_FASTCALL,
     "roll(state, faces) -> (state, faces showing), or None where the arguments are not of that form."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_dice", "Step H (rolling the dice) in C.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__dice(void) { return PyModule_Create(&module); }
