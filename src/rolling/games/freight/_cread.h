/* Fast reads of Python objects shared by Rolling Freight's C extensions (issue 34): _listing.c,
   _routes.c, _stockpile.c, _turn.c and _walk.c include this header (setup.py lists it in each Extension's
   depends, and it ships in the sdist with them).

   Why: the C parts read the game state's slotted objects (a Player, a Link, a Card...), small ints
   and short strs at every listing; the generic calls (PyObject_GetAttr: about 200 instructions for
   a slot; PyLong_AsLongLongAndOverflow; PyUnicode_Compare) were a large share of their time.
   Each read here is the interpreter's own fast path, taken only where what it relies on is
   checked, with the generic call as its fallback, so that it answers exactly as the call would:

   - cread_slot_offset / cread_slot_get / Slots, slot_attr: an attribute kept in __slots__ read
     from its slot. Checked: the type reads attributes the generic way (tp_getattro is
     PyObject_GenericGetAttr), the name's descriptor on the type (_PyType_Lookup: the MRO, as
     attribute look-up does) is a plain object member descriptor (T_OBJECT_EX, not
     READ_RESTRICTED, a positive offset), the offsets are used only while the type's version tag
     is the one they were read with (Py_TPFLAGS_VALID_VERSION_TAG; the tag changes whenever the
     type or a base is changed, and is never given twice), and the slot is set. Anything else (an
     instance dict, a property, a data descriptor of a subclass, an unset slot: AttributeError)
     goes through PyObject_GetAttr. Python 3.11 and later (_PyType_Lookup and tp_version_tag are
     in every CPython 3 API; PyMemberDescrObject in structmember.h/descrobject.h).
   - cread_small / cread_long: an int read in place where it is one digit or none ("compact").
     CPython 3.11: Py_SIZE is the signed number of 30-bit digits and an int of size 0 still has
     its digit 0 (the interpreter's own medium_value reads size * digit[0]); 3.12 and later: the
     layout changed (lv_tag), read through PyUnstable_Long_IsCompact / CompactValue. Any other int
     goes through PyLong_AsLongLongAndOverflow. Not under the limited API.
   - cread_same_str: two strs equal by their lengths, kinds and characters (no call), as
     PyUnicode_Compare finds them for exact strs in their canonical (ready) form; on 3.11 a legacy
     str not yet ready is made ready first (-1 where that fails: the caller falls back).
   - DictFit, cread_dict_of / cread_dict_get / cread_dict_set: the attributes of a plain instance
     (FreightState: no __slots__, its attributes in its __dict__) read (and written) as items of
     its __dict__, fetched once per call (PyObject_GetAttr: a type look-up, then the dict look-up,
     each time). Checked, once per type and version tag (per call site: the last type found fit,
     not held, kept with its tag): the type reads attributes the generic way (tp_getattro is
     PyObject_GenericGetAttr; for writes also tp_setattro is PyObject_GenericSetAttr: no
     __getattr__/__getattribute__/__setattr__ of its own), its instances have a __dict__
     (tp_dictoffset), and no class in its MRO defines any of the names read or written there
     (_PyType_Lookup: no property, other descriptor or class attribute, which would come before
     or after the instance dict). Then d[name] is what getattr gives where d holds the name, and
     d[name] = v is setattr. Where the check fails (a subclass with a property of one of the
     names, a __getattr__, ...) no dict is used and every read is PyObject_GetAttr (every write
     PyObject_SetAttr); a name missing from the dict is read by PyObject_GetAttr too (its
     AttributeError). The dict's keys are the instance's exact strs, so a look-up runs no Python
     code. Python 3.11 and later (PyObject_GenericGetDict makes the dict of an instance whose
     values are kept inline, 3.11's managed dicts, as the interpreter does for vars(o)). */

#ifndef ROLLING_FREIGHT_CREAD_H
#define ROLLING_FREIGHT_CREAD_H

#ifndef PY_SSIZE_T_CLEAN
#define PY_SSIZE_T_CLEAN
#endif
#include <Python.h>
#include <string.h>
#include <structmember.h>

/* ---- slotted attributes ---- */

/* where type keeps attribute name: the slot's offset, or -1 where it must be read by
   PyObject_GetAttr (valid while type's version tag is unchanged) */
static inline Py_ssize_t cread_slot_offset(PyTypeObject *type, PyObject *name)
{
    if (type->tp_getattro != PyObject_GenericGetAttr)
        return -1;
    PyObject *descr = _PyType_Lookup(type, name); /* borrowed */
    if (descr == NULL || !Py_IS_TYPE(descr, &PyMemberDescr_Type))
        return -1;
    PyMemberDef *m = ((PyMemberDescrObject *)descr)->d_member;
    if (m->type != T_OBJECT_EX || (m->flags & READ_RESTRICTED) || m->offset <= 0)
        return -1;
    return m->offset;
}

/* o.<name> as a new reference, from the slot at offset (from cread_slot_offset for o's type, its
   version tag checked by the caller) where it is set; else PyObject_GetAttr (NULL with its error) */
static inline PyObject *cread_slot_get(PyObject *o, Py_ssize_t offset, PyObject *name)
{
    if (offset > 0) {
        PyObject *v = *(PyObject **)((char *)o + offset);
        if (v) {
            Py_INCREF(v);
            return v;
        }
    }
    return PyObject_GetAttr(o, name);
}

/* the offsets of up to CREAD_NSLOTNAMES attribute names of one type (a per-call-site cache: the
   last type seen, as a monomorphic inline cache) */
#define CREAD_NSLOTNAMES 8
typedef struct {
    PyTypeObject *type; /* the type the offsets are of (not held: its version tag is checked too) */
    unsigned int tag;
    Py_ssize_t off[CREAD_NSLOTNAMES]; /* -1: read by PyObject_GetAttr */
} Slots;

static inline void slots_learn(Slots *sc, PyTypeObject *t, PyObject *const *names, int n)
{
    sc->type = NULL;
    for (int k = 0; k < n; k++)
        sc->off[k] = cread_slot_offset(t, names[k]);
    if (t->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) {
        sc->type = t;
        sc->tag = t->tp_version_tag;
    }
}

/* o.<names[k]> (k < n <= CREAD_NSLOTNAMES), a new reference (NULL with the error of
   PyObject_GetAttr) */
static inline PyObject *slot_attr(Slots *sc, PyObject *o, int k, PyObject *const *names, int n)
{
    PyTypeObject *t = Py_TYPE(o);
    if (t != sc->type || !(t->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) || t->tp_version_tag != sc->tag)
        slots_learn(sc, t, names, n);
    return cread_slot_get(o, sc->off[k], names[k]);
}

/* ---- small ints ---- */

/* an int (PyLong_Check(o): any int, bool included) of one digit or none read in place: 1 with
   *v, 0 where it is larger (then ask PyLong_AsLongLongAndOverflow) */
static inline int cread_small(PyObject *o, long long *v)
{
#if defined(Py_LIMITED_API)
    (void)o;
    (void)v;
    return 0;
#elif PY_VERSION_HEX >= 0x030C0000
    if (!PyUnstable_Long_IsCompact((PyLongObject *)o))
        return 0;
    *v = (long long)PyUnstable_Long_CompactValue((PyLongObject *)o);
    return 1;
#else
    Py_ssize_t size = Py_SIZE(o);
    if (size < -1 || size > 1)
        return 0;
    *v = (long long)size * (long long)((PyLongObject *)o)->ob_digit[0];
    return 1;
#endif
}

/* an int as a long long: 1 with *v, 0 where o is no int or does not fit (no exception left) */
static inline int cread_long(PyObject *o, long long *v)
{
    if (o == NULL || !PyLong_Check(o))
        return 0;
    if (cread_small(o, v))
        return 1;
    int over = 0;
    *v = PyLong_AsLongLongAndOverflow(o, &over);
    if (over || (*v == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return 0;
    }
    return 1;
}

/* ---- strs ---- */

/* two strs (exact strs, checked by the caller) equal: 1, 0, or -1 where one cannot be read (3.11:
   a legacy str that cannot be made ready; no exception left) */
static inline int cread_same_str(PyObject *a, PyObject *b)
{
    if (a == b)
        return 1;
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(a) < 0 || PyUnicode_READY(b) < 0) {
        PyErr_Clear();
        return -1;
    }
#endif
    Py_ssize_t n = PyUnicode_GET_LENGTH(a);
    int kind = (int)PyUnicode_KIND(a);
    return n == PyUnicode_GET_LENGTH(b) && kind == (int)PyUnicode_KIND(b)
           && memcmp(PyUnicode_DATA(a), PyUnicode_DATA(b), (size_t)n * (size_t)kind) == 0;
}

/* ---- a plain instance's attributes in its __dict__ ---- */

/* the type last found fit for one set of names (a per-call-site cache) */
typedef struct {
    PyTypeObject *type; /* not held: its version tag is checked too (a tag is never given twice) */
    unsigned int tag;
} DictFit;

/* 1 where o's attributes of the n names may be read (write: and written) in its __dict__ */
static inline int cread_dict_fit(DictFit *c, PyObject *o, PyObject **const *names, size_t n, int write)
{
    PyTypeObject *t = Py_TYPE(o);
    if (t == c->type && (t->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) && t->tp_version_tag == c->tag)
        return 1;
    if (t->tp_getattro != PyObject_GenericGetAttr || (write && t->tp_setattro != PyObject_GenericSetAttr)
        || t->tp_dictoffset == 0)
        return 0;
    for (size_t k = 0; k < n; k++)
        if (_PyType_Lookup(t, *names[k]) != NULL) /* borrowed; no exception left */
            return 0;
    if (t->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) { /* (else checked again next time) */
        c->type = t;
        c->tag = t->tp_version_tag;
    }
    return 1;
}

/* o's __dict__ (a new reference, an exact dict) where cread_dict_fit; else NULL (no exception):
   then read with PyObject_GetAttr */
static inline PyObject *cread_dict_of(DictFit *c, PyObject *o, PyObject **const *names, size_t n, int write)
{
    if (!cread_dict_fit(c, o, names, n, write))
        return NULL;
    PyObject *d = PyObject_GenericGetDict(o, NULL);
    if (d == NULL) {
        PyErr_Clear();
        return NULL;
    }
    if (!PyDict_CheckExact(d)) {
        Py_DECREF(d);
        return NULL;
    }
    return d;
}

/* o.<name> as a new reference: d[name] where d (o's __dict__ from cread_dict_of, or NULL) holds
   it, else PyObject_GetAttr (NULL with its error) */
static inline PyObject *cread_dict_get(PyObject *d, PyObject *o, PyObject *name)
{
    if (d) {
        PyObject *v = PyDict_GetItemWithError(d, name); /* borrowed */
        if (v) {
            Py_INCREF(v);
            return v;
        }
        if (PyErr_Occurred())
            return NULL;
    }
    return PyObject_GetAttr(o, name);
}

/* o.<name> = v: d[name] = v where d (o's __dict__ from cread_dict_of with write), else
   PyObject_SetAttr; 0, or -1 with an exception */
static inline int cread_dict_set(PyObject *d, PyObject *o, PyObject *name, PyObject *v)
{
    return d ? PyDict_SetItem(d, name, v) : PyObject_SetAttr(o, name, v);
}

#endif /* ROLLING_FREIGHT_CREAD_H */
