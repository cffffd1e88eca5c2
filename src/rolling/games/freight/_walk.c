/* The payment fronts of Rolling Freight, compiled (issue 34: a faster Freight engine).

   `fronts(table, keys, counts, contracts, left, second, no_colour, targets, max_listed)` is
   `rolling.games.freight.payways._fronts_py` step for step (each class's info looked up in
   `table`, class -> payways._class_info, the contracts' colour bits and empty squares of each set
   worked out here) (its set-up, the walk `_run` with
   `_choices`, the second walk of odd prices, the Pareto front of each price), with the same
   result: a dict price -> tuple of payments, each a tuple of tokens spent per class. See those
   functions for what the packed integers mean.

   A partial state holds the numbers of Python's packed state, each in a field only as wide as
   the walk's largest sum of it needs: the flags in bits 0-6 (as Python's), the units paid in bits
   7-12, then the wild symbols, worth, markers and units spent, the money, and what is spent off
   each build cut, no field across two 64-bit words (most walks: one word; at most four). No field
   of a walk's states can reach 2**10 (checked at set-up), so none of Python's fields carries into
   the next: two partial payments share Python's state exactly when they share this one, and the
   words add without carries. A complete payment's key is packed in one word the same way (see
   Walk), and each price's front is kept as the payments are completed (see Front). A payment is
   a 128-bit integer. A walk whose numbers do not fit (a sum of 2**10 or more, an item of a key of
   2**9 or more, more than four words of fields, a payment of 127 bits or more, a price of 63
   units or more) returns None and the caller walks it in Python: the answers never depend on
   which one walked.

   The rules this serves are in payways.py; nothing here decides anything the Python walk does
   not. Built as an optional extension: where no C compiler is found the package installs without
   it and payways walks in Python. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_cread.h"

typedef unsigned __int128 u128;

#define LIMBS 4 /* the most words of a partial state */
#define W 10    /* payways._W: the bits of one counted item in Python's packing */
#define PAID 7  /* the units paid: bits 7-12 of a state's first word (a price is under 64) */
#define NITEMS 5

/* The helpers are inlined into one walk per width (`nl` words), where `nl` is a constant. */
#define ALWAYS static inline __attribute__((always_inline))

ALWAYS int s_eq(const uint64_t *a, const uint64_t *b, int nl)
{
    return a[0] == b[0] && (nl < 2 || a[1] == b[1]) && (nl < 3 || a[2] == b[2]) && (nl < 4 || a[3] == b[3]);
}

/* multiplicative hashing: the top bits of the product are the slot */
ALWAYS uint64_t s_hash(const uint64_t *a, int nl)
{
    uint64_t h = a[0];
    if (nl > 1)
        h ^= a[1] * 0xC2B2AE3D27D4EB4FULL;
    if (nl > 2)
        h ^= a[2] * 0x165667B19E3779F9ULL;
    if (nl > 3)
        h ^= a[3] * 0x27D4EB2F165667C5ULL;
    return h * 0x9E3779B97F4A7C15ULL;
}

/* ---- Python integers in and out ---- */

/* A Python int into `limbs` 64-bit limbs: 1 done, 0 negative or too large (no error set), -1
   error (not an int). Little-endian bytes on a little-endian machine are the limbs in order; the
   fixed-width types are converted limb by limb elsewhere. */
static int to_limbs(PyObject *v, uint64_t *out, int limbs)
{
    if (!PyLong_Check(v)) {
        PyErr_SetString(PyExc_TypeError, "_walk.run: an int was expected");
        return -1;
    }
    unsigned long long x = PyLong_AsUnsignedLongLong(v);
    if (!(x == (unsigned long long)-1 && PyErr_Occurred())) {
        out[0] = x;
        for (int i = 1; i < limbs; i++)
            out[i] = 0;
        return 1;
    }
    PyErr_Clear();
    unsigned char buf[8 * LIMBS];
    size_t nb = 8 * (size_t)limbs;
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t need = PyLong_AsNativeBytes(v, buf, (Py_ssize_t)nb,
                                           Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER
                                               | Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (need < 0) {
        if (!PyErr_ExceptionMatches(PyExc_ValueError))
            return -1;
        PyErr_Clear();
        return 0;
    }
    if ((size_t)need > nb)
        return 0;
#else
    if (_PyLong_AsByteArray((PyLongObject *)v, buf, nb, 1, 0) < 0) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError))
            return -1;
        PyErr_Clear();
        return 0;
    }
#endif
    for (int i = 0; i < limbs; i++) {
        uint64_t w = 0;
        for (int k = 7; k >= 0; k--)
            w = (w << 8) | buf[8 * i + k];
        out[i] = w;
    }
    return 1;
}

/* An exact int of one digit read in place (the counts, prices and bits of a call are all
   small): 1 read, 0 ask the slow way. */
ALWAYS int small_int(PyObject *v, int64_t *out)
{
    long long x;
    if (!PyLong_CheckExact(v) || !cread_small(v, &x))
        return 0;
    *out = (int64_t)x;
    return 1;
}

ALWAYS int to_i64(PyObject *v, int64_t *out)
{
    if (small_int(v, out))
        return 1;
    if (!PyLong_Check(v)) {
        PyErr_SetString(PyExc_TypeError, "_walk.run: an int was expected");
        return -1;
    }
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (x == -1 && PyErr_Occurred())
        return -1;
    if (overflow)
        return 0;
    *out = x;
    return 1;
}

/* the ints 0..63 (a payment's digits), held from import */
static PyObject *digits[64];

/* The payments made lately (a tuple of tokens spent per class, from its digits), by their
   digits: the same payments recur walk after walk (three in four), and a tuple of ints does not
   change, so one tuple serves them all. A payment takes its slot over from the one there. */
#define PAYMENTS_BITS 12
static struct {
    PyObject *tup; /* held */
    u128 val;
    int n, size;
} payments[1 << PAYMENTS_BITS];

/* the payment of digits `val` (`size` bits each, the first class highest) of `n` classes: a new
   reference, NULL on error */
static PyObject *payment(u128 val, Py_ssize_t n, int size)
{
    uint64_t h = ((uint64_t)val ^ (uint64_t)(val >> 64) * 0xC2B2AE3D27D4EB4FULL ^ (uint64_t)(n << 8 | size))
                 * 0x9E3779B97F4A7C15ULL;
    __typeof__(payments[0]) *m = &payments[h >> (64 - PAYMENTS_BITS)];
    if (m->tup && m->val == val && m->n == n && m->size == size) {
        Py_INCREF(m->tup);
        return m->tup;
    }
    PyObject *pay = PyTuple_New(n);
    if (!pay)
        return NULL;
    if (size * n <= 64) {
        uint64_t v = (uint64_t)val, digit = size ? ((uint64_t)1 << size) - 1 : 0;
        for (Py_ssize_t j = n - 1; j >= 0; j--, v = size ? v >> size : 0) {
            PyObject *d = digits[v & digit];
            Py_INCREF(d);
            PyTuple_SET_ITEM(pay, j, d);
        }
    } else
        for (Py_ssize_t j = 0; j < n; j++) {
            PyObject *d = digits[(int)((val >> (size * (int)(n - 1 - j))) & (((u128)1 << size) - 1))];
            Py_INCREF(d);
            PyTuple_SET_ITEM(pay, j, d);
        }
    PyObject *old = m->tup;
    Py_INCREF(pay);
    m->tup = pay;
    m->val = val;
    m->n = (int)n;
    m->size = size;
    Py_XDECREF(old);
    return pay;
}

/* A front as the walk made it (issue 34): a read-only sequence of its payments, each a tuple of
   tokens spent per class (see payment), made only when read: a listing reads the length of most
   fronts and one payment of few (the random bot) or each in turn. Equal to the tuple of its
   payments (compares, hashes, prints, iterates and pickles as that tuple, made once and kept). It
   holds no object but that tuple of tuples of ints (no cycle through it: not tracked by the
   garbage collector, and no count towards a collection). */
typedef struct {
    PyObject_VAR_HEAD /* ob_size: the payments */
    PyObject *tup;    /* the tuple of the payments once made (held), else NULL */
    Py_ssize_t n;     /* classes */
    int size;         /* bits a digit */
    uint64_t val[1];  /* each payment's digits: low word, high word */
} FrontObj;

static PyTypeObject FrontType;

static inline u128 front_val(const FrontObj *f, Py_ssize_t i)
{
    return (u128)f->val[2 * i] | (u128)f->val[2 * i + 1] << 64;
}

/* the tuple of the payments (borrowed: the front keeps it), NULL on error */
static PyObject *front_all(FrontObj *f)
{
    if (!f->tup) {
        Py_ssize_t nf = Py_SIZE(f);
        PyObject *tup = PyTuple_New(nf);
        if (!tup)
            return NULL;
        for (Py_ssize_t i = 0; i < nf; i++) {
            PyObject *pay = payment(front_val(f, i), f->n, f->size);
            if (!pay) {
                Py_DECREF(tup);
                return NULL;
            }
            PyTuple_SET_ITEM(tup, i, pay);
        }
        f->tup = tup;
    }
    return f->tup;
}

static void front_dealloc(FrontObj *f)
{
    Py_XDECREF(f->tup);
    Py_TYPE(f)->tp_free((PyObject *)f);
}

static Py_ssize_t front_len(FrontObj *f)
{
    return Py_SIZE(f);
}

static PyObject *front_item(FrontObj *f, Py_ssize_t i)
{
    if (i < 0 || i >= Py_SIZE(f)) {
        PyErr_SetString(PyExc_IndexError, "tuple index out of range");
        return NULL;
    }
    return payment(front_val(f, i), f->n, f->size);
}

static PyObject *front_subscript(FrontObj *f, PyObject *key)
{
    if (PyIndex_Check(key)) {
        Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
        if (i == -1 && PyErr_Occurred())
            return NULL;
        if (i < 0)
            i += Py_SIZE(f);
        return front_item(f, i);
    }
    PyObject *tup = front_all(f);
    return tup ? PyObject_GetItem(tup, key) : NULL;
}

static PyObject *front_iter(FrontObj *f)
{
    PyObject *tup = front_all(f);
    return tup ? PyObject_GetIter(tup) : NULL;
}

/* as its tuple: a front or a tuple, else NotImplemented (borrowed, NULL on error) */
static PyObject *as_tuple(PyObject *v)
{
    if (Py_IS_TYPE(v, &FrontType))
        return front_all((FrontObj *)v);
    return PyTuple_Check(v) ? v : Py_NotImplemented;
}

static PyObject *front_richcompare(PyObject *a, PyObject *b, int op)
{
    PyObject *ta = as_tuple(a), *tb = ta && ta != Py_NotImplemented ? as_tuple(b) : ta;
    if (!tb)
        return NULL;
    if (tb == Py_NotImplemented)
        Py_RETURN_NOTIMPLEMENTED;
    return PyObject_RichCompare(ta, tb, op);
}

static Py_hash_t front_hash(FrontObj *f)
{
    PyObject *tup = front_all(f);
    return tup ? PyObject_Hash(tup) : -1;
}

static PyObject *front_repr(FrontObj *f)
{
    PyObject *tup = front_all(f);
    return tup ? PyObject_Repr(tup) : NULL;
}

static PyObject *front_reduce(FrontObj *f, PyObject *unused)
{
    (void)unused;
    PyObject *tup = front_all(f);
    return tup ? Py_BuildValue("(O(O))", (PyObject *)&PyTuple_Type, tup) : NULL;
}

static PySequenceMethods front_as_sequence = {
    .sq_length = (lenfunc)front_len,
    .sq_item = (ssizeargfunc)front_item,
};

static PyMappingMethods front_as_mapping = {
    .mp_length = (lenfunc)front_len,
    .mp_subscript = (binaryfunc)front_subscript,
};

static PyMethodDef front_methods[] = {
    {"__reduce__", (PyCFunction)front_reduce, METH_NOARGS, "pickled, and copied, as the tuple of its payments"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject FrontType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "rolling.games.freight._walk.Front",
    .tp_doc = "A price's front as the compiled walk made it: a read-only sequence of payments (tuples of tokens\n"
              "spent per class), each made when read; equal to, and hashed as, the tuple of them.",
    .tp_basicsize = offsetof(FrontObj, val),
    .tp_itemsize = 2 * sizeof(uint64_t),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = (destructor)front_dealloc,
    .tp_as_sequence = &front_as_sequence,
    .tp_as_mapping = &front_as_mapping,
    .tp_iter = (getiterfunc)front_iter,
    .tp_richcompare = front_richcompare,
    .tp_hash = (hashfunc)front_hash,
    .tp_repr = (reprfunc)front_repr,
    .tp_methods = front_methods,
};

/* The fronts made lately, by their payments' digits: the same fronts recur (one in two), and a
   front does not change, so one serves them all. A front takes its slot over from the one there. */
#define FRONTS_BITS 10
#define FRONT_MOST 32 /* the most payments of a front remembered */
static PyObject *front_memo[1 << FRONTS_BITS]; /* held */

/* the front of the payments of digits `val[0..nf)` (see payment): a new reference, NULL on
   error; the empty tuple where there is none */
static PyObject *front_tuple(const u128 *val, size_t nf, Py_ssize_t n, int size)
{
    if (!nf)
        return PyTuple_New(0);
    uint64_t h = nf ^ (uint64_t)(n << 8 | size) << 32;
    for (size_t i = 0; i < nf; i++)
        h = (h ^ (uint64_t)val[i] ^ (uint64_t)(val[i] >> 64) * 0xC2B2AE3D27D4EB4FULL) * 0x9E3779B97F4A7C15ULL;
    PyObject **m = nf <= FRONT_MOST ? &front_memo[h >> (64 - FRONTS_BITS)] : NULL, *old = m ? *m : NULL;
    if (old) {
        FrontObj *o = (FrontObj *)old;
        if (Py_SIZE(o) == (Py_ssize_t)nf && o->n == n && o->size == size) {
            size_t i = 0;
            while (i < nf && front_val(o, (Py_ssize_t)i) == val[i])
                i++;
            if (i == nf) {
                Py_INCREF(old);
                return old;
            }
        }
    }
    FrontObj *f = PyObject_NewVar(FrontObj, &FrontType, (Py_ssize_t)nf);
    if (!f)
        return NULL;
    f->tup = NULL;
    f->n = n;
    f->size = size;
    for (size_t i = 0; i < nf; i++) {
        f->val[2 * i] = (uint64_t)val[i];
        f->val[2 * i + 1] = (uint64_t)(val[i] >> 64);
    }
    if (m) {
        Py_INCREF(f);
        *m = (PyObject *)f;
        Py_XDECREF(old);
    }
    return (PyObject *)f;
}

/* ---- tables: a partial state -> its best payment so far (the largest) ---- */

/* Open addressing over `slot` (0 empty, else an entry's index + 1); the entries lie packed in
   order of arrival (keys of `nl` words each), so that a walk reads them and clears the table in
   the time of its entries, not of its capacity. Kept from one walk to the next (grown, never
   shrunk): no allocation in most walks. */
typedef struct {
    uint32_t *slot; /* cap */
    uint64_t *key;  /* cap / 2 entries of up to LIMBS words */
    u128 *val;      /* cap / 2 */
    uint64_t *aux;  /* cap / 2: what the walk keeps with a state (its part of a key, see Walk) */
    uint32_t *at;   /* each entry's slot, to clear it */
    size_t cap, n;
    int shift; /* 64 - log2(cap): a hash's top bits are its slot */
} Tab;

static void tab_free(Tab *t)
{
    free(t->slot);
    free(t->key);
    free(t->val);
    free(t->aux);
    free(t->at);
    memset(t, 0, sizeof(Tab));
}

/* an empty table of `cap` slots (a power of two), 0; -1 no memory (the table left empty) */
static int tab_init(Tab *t, size_t cap, int shift)
{
    tab_free(t);
    size_t room = cap / 2 + 1;
    t->slot = calloc(cap, sizeof(uint32_t));
    t->key = malloc(room * LIMBS * sizeof(uint64_t));
    t->val = malloc(room * sizeof(u128));
    t->aux = malloc(room * sizeof(uint64_t));
    t->at = malloc(room * sizeof(uint32_t));
    if (!t->slot || !t->key || !t->val || !t->aux || !t->at) {
        tab_free(t);
        return -1;
    }
    t->cap = cap;
    t->shift = shift;
    return 0;
}

/* empty, ready for a walk; -1 no memory */
static inline int tab_ready(Tab *t)
{
    if (!t->cap)
        return tab_init(t, 64, 58);
    for (size_t e = 0; e < t->n; e++)
        t->slot[t->at[e]] = 0;
    t->n = 0;
    return 0;
}

/* twice the slots, the entries kept; -1 no memory (the table as it was) */
static int tab_grow(Tab *t, int nl)
{
    size_t cap = t->cap * 2, room = cap / 2 + 1, m = cap - 1;
    int shift = t->shift - 1;
    uint32_t *slot = calloc(cap, sizeof(uint32_t));
    uint64_t *key = realloc(t->key, room * LIMBS * sizeof(uint64_t));
    if (key)
        t->key = key;
    u128 *val = realloc(t->val, room * sizeof(u128));
    if (val)
        t->val = val;
    uint64_t *aux = realloc(t->aux, room * sizeof(uint64_t));
    if (aux)
        t->aux = aux;
    uint32_t *at = realloc(t->at, room * sizeof(uint32_t));
    if (at)
        t->at = at;
    if (!slot || !key || !val || !aux || !at) {
        free(slot);
        return -1;
    }
    for (size_t e = 0; e < t->n; e++) {
        const uint64_t *k = t->key + e * nl;
        /* the hash of `nl` words, nl not a constant here */
        uint64_t h = k[0];
        if (nl > 1)
            h ^= k[1] * 0xC2B2AE3D27D4EB4FULL;
        if (nl > 2)
            h ^= k[2] * 0x165667B19E3779F9ULL;
        if (nl > 3)
            h ^= k[3] * 0x27D4EB2F165667C5ULL;
        size_t i = (size_t)((h * 0x9E3779B97F4A7C15ULL) >> shift);
        while (slot[i])
            i = (i + 1) & m;
        slot[i] = (uint32_t)e + 1;
        t->at[e] = (uint32_t)i;
    }
    free(t->slot);
    t->slot = slot;
    t->cap = cap;
    t->shift = shift;
    return 0;
}

/* keep `val` for `key` if it is larger than what is kept (Python: `if q > get(ns, -1)`), with
   `aux` for a key new (a function of the key). `t` is the walk's own copy of the table `home` (so
   that the compiler keeps its fields in registers: no store into the table can change them),
   written back when the table grows. */
ALWAYS int tab_max(Tab *t, Tab *home, const uint64_t *key, u128 val, uint64_t aux, int nl)
{
    size_t m = t->cap - 1, i = (size_t)(s_hash(key, nl) >> t->shift);
    uint32_t s;
    while ((s = t->slot[i])) {
        if (s_eq(t->key + (size_t)(s - 1) * nl, key, nl)) {
            if (val > t->val[s - 1])
                t->val[s - 1] = val;
            return 0;
        }
        i = (i + 1) & m;
    }
    size_t e = t->n++;
    for (int l = 0; l < nl; l++)
        t->key[e * nl + l] = key[l];
    t->val[e] = val;
    t->aux[e] = aux;
    t->at[e] = (uint32_t)i;
    t->slot[i] = (uint32_t)e + 1;
    if (t->n * 2 > t->cap) {
        *home = *t;
        if (tab_grow(home, nl))
            return -1;
        *t = *home;
    }
    return 0;
}

/* ---- a class's choices (payways._choices) ---- */

typedef struct {
    int du;            /* units paid */
    int cq;            /* spent off each build cut the class feeds: tokens spent * build weight */
    uint64_t fl;       /* flags set */
    uint64_t d[LIMBS]; /* the change of a state: units paid and items and cuts spent */
    u128 dq;           /* payment digit */
    uint64_t kd;       /* the change of a key (see Walk): less the items spent, more the money */
} Ch;

/* a class of tokens in a walk: payways._fronts_py's `walked` entry, with its choices for one
   `use` (units per token), in room for `whole + 1` and `2 * whole + 2` choices */
typedef struct {
    int j, pays, whole, u, wt;
    uint64_t cover, route, fedcuts; /* fedcuts: bit g, the class feeds build cut g */
    uint64_t one[LIMBS];            /* one token's change of a state, units paid aside */
    uint64_t kone;                  /* one token's change of a key */
    u128 place;
    Ch *free_, *paying;
    int nfree, npaying;
} Cls;

/* payways: `flags[x]` = (cover if x < whole else 0) | (route if x else 0); for one token
   (cover, route) alike */
static inline uint64_t flags_of(const Cls *c, int x)
{
    return (x < c->whole ? c->cover : 0) | (x ? c->route : 0);
}

/* The class's choices for `u` units a token (payways._choices), fewest units first: x tokens
   paying units, and where the class pays the colour die, also x tokens paying units and one more
   paying the die (among choices paying as many units the order changes nothing: each state keeps
   its best payment). A choice paying more units than a state's field holds is never taken (the
   walk stops at the first over the top price, under 64). */
ALWAYS void choices(Cls *c, int u, int nl)
{
    int whole = c->whole, xs = u ? whole : 0;
    c->u = u;
    if (whole == 1) { /* most dice: kept, or spent paying units, or spent on the colour die */
        Ch kept = {0, 0, c->cover, {0, 0, 0, 0}, 0, 0}, spent = {0, c->wt, c->route, {0, 0, 0, 0}, c->place, c->kone};
        for (int l = 0; l < nl; l++)
            spent.d[l] = c->one[l];
        Ch *f = c->free_;
        f[0] = kept;
        c->nfree = 1;
        if (c->pays) {
            Ch *p = c->paying;
            p[0] = kept;
            p[1] = spent;
            p[1].fl |= 1;
            c->npaying = 2;
            if (u) {
                spent.du = u;
                spent.d[0] += (uint64_t)u << PAID;
                p[2] = f[1] = spent;
                c->nfree = 2;
                c->npaying = 3;
            }
        } else {
            if (u) {
                spent.du = u;
                spent.d[0] += (uint64_t)u << PAID;
                f[1] = spent;
                c->nfree = 2;
            }
            c->paying = f;
            c->npaying = c->nfree;
        }
        return;
    }
    Ch *f = c->free_, x_tokens = {0, 0, 0, {0, 0, 0, 0}, 0, 0};
    uint64_t step0 = c->one[0] + ((uint64_t)u << PAID); /* one token more, paying units */
    for (int x = 0; x <= xs; x++) {
        f[x] = x_tokens;
        f[x].fl = flags_of(c, x);
        x_tokens.du += u;
        x_tokens.cq += c->wt;
        x_tokens.d[0] += step0;
        for (int l = 1; l < nl; l++)
            x_tokens.d[l] += c->one[l];
        x_tokens.dq += c->place;
        x_tokens.kd += c->kone;
    }
    c->nfree = xs + 1;
    if (!c->pays) {
        c->paying = f; /* nothing to pay the colour die with: the same choices */
        c->npaying = xs + 1;
        return;
    }
    Ch *p = c->paying;
    int np = 0;
    for (int x = 0; x <= xs; x++) {
        p[np++] = f[x];
        if (x < whole) { /* one token more, paying the die */
            Ch *d = &p[np++];
            *d = f[x];
            d->cq += c->wt;
            d->d[0] += c->one[0];
            for (int l = 1; l < nl; l++)
                d->d[l] += c->one[l];
            d->dq += c->place;
            d->kd += c->kone;
            d->fl = flags_of(c, x + 1) | 1;
        }
    }
    c->npaying = np;
}

/* A field of a state: word, shift and mask (mask 0: a sum always 0, no bits given), and for a
   build cut, its constant less the cap (payways: `cc - cap`). */
typedef struct {
    int limb, shift;
    uint64_t mask;
    int64_t k;
} Field;

ALWAYS int64_t field_of(const uint64_t *st, const Field *f, int nl)
{
    return (int64_t)((st[nl == 1 ? 0 : f->limb] >> f->shift) & f->mask);
}

/* What a walk's last step needs besides its classes (payways._run's arguments).

   A complete payment's key (payways: `key`, the seven items of the order, W bits each) is packed
   here in one word: the same items in the same order, the least important lowest (wild symbols,
   colours covered, worth, markers and units kept, money, cubes buildable), each in a field one
   bit wider than its largest value in the walk (all under 2**9, checked at set-up). Comparing
   two as integers compares them as payways' keys do, and payways' test of one key matching or
   beating another on every item (`og - k & _GUARDS == _GUARDS`) is the same test with the top
   bit of each field here (`guards`): each item compared by itself, as no item of payways' keys
   reaches its guard bit. */
typedef struct {
    int naway, nfed;
    int cut_lo; /* in a walk of one word, the cuts' fields lie above this bit (the items below) */
    /* the cuts that may take the build below the cap (payways: `low`): those the last class does
       not feed, and those it does (a cut no payment can take below the cap counts for none) */
    Field away[64], fed[64];
    int pop_at, build_at; /* the places of the colours covered and the cubes buildable in a key */
    uint64_t kept;        /* a key of nothing spent and no colours covered (the totals, the cap): a
                             state carries its own key so far, this less what it spent (Tab.aux) */
    uint64_t guards;      /* the top bit of each item of a key */
} Walk;

/* the colours covered by a state's kept classes (bits 2-6), counted */
static const unsigned char POP5[32] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                       1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5};

/* the tables of the partial states after each class, two in turn */
static Tab tab_a, tab_b;

/* ---- each price's front, kept as the walk completes payments ---- */

/* The keys of one price that no other key reached matches or beats on every item (payways: the
   front, before it is sorted), each with the best payment of that key. As each item of a key is
   compared by itself (see Walk), a key beaten by one beaten in turn is beaten by the first, and
   a key beating another is the larger: the keys payways lists, best first, are exactly these,
   sorted (its first MAX_LISTED). Each key is kept with its guard bits set (`kg`: no item reaches
   its guard bit, so the order of these is the keys' order), its payment apart (`val`). Kept from
   one walk to the next (grown, never shrunk). */
typedef struct {
    uint64_t *kg; /* key | guards */
    u128 *val;    /* the best payment of the key (its digits) */
    size_t n, room;
} Front;

static Front fronts[64];

static int front_grow(Front *f)
{
    size_t room = f->room ? 2 * f->room : 16;
    uint64_t *kg = realloc(f->kg, room * sizeof(uint64_t));
    if (!kg)
        return -1;
    f->kg = kg;
    u128 *val = realloc(f->val, room * sizeof(u128));
    if (!val)
        return -1;
    f->val = val;
    f->room = room;
    return 0;
}

/* a payment into its price's front: kept if no key there matches or beats its own (of a key
   matched, the best payment kept), each key it beats dropped. Once a key kept is found beaten,
   no later one matches or beats the new key (it would beat the first, and the front holds no two
   keys one beating the other): the rest is only sifted. -1: no memory. */
ALWAYS int front_put(Front *f, uint64_t key, u128 val, uint64_t guards)
{
    uint64_t *kg = f->kg, nkg = key | guards;
    u128 *v = f->val;
    size_t n = f->n, i = 0, k;
    for (; i < n; i++) {
        uint64_t o = kg[i];
        if (((o - key) & guards) == guards) { /* o matches or beats the new key */
            if (o == nkg && val > v[i])
                v[i] = val;
            return 0;
        }
        if (((nkg - (o ^ guards)) & guards) == guards) /* the new key beats o */
            break;
    }
    /* o (at i) dropped, and each later key the new one beats; none matches or beats it */
    for (k = i++; i < n; i++) {
        uint64_t o = kg[i];
        if (((nkg - (o ^ guards)) & guards) != guards) {
            kg[k] = o;
            v[k] = v[i];
            k++;
        }
    }
    if (k == f->room) {
        if (front_grow(f))
            return -1;
        kg = f->kg;
        v = f->val;
    }
    kg[k] = nkg;
    v[k] = val;
    f->n = k + 1;
    return 0;
}

/* How far below the cap a state's spending off the cuts takes the build (see walk_width), by
   that spending, in walks of one word: kept for the walk's last step (`gen` the step's). */
#define LOWS_BITS 6
typedef struct {
    uint64_t spent;
    int64_t away, fed;
    uint32_t gen;
} Low;
static Low lows[1 << LOWS_BITS];
static uint32_t lows_gen;

/* payways._run with states of `nl` words: each complete payment into the front of its price
   (price `t` recorded as `t + shift_t`, so that the odd walk lands on its even prices). -1: no
   memory. */
ALWAYS int walk_width(Cls *const *cls, int n, const int *use, uint64_t start, uint64_t tmask, int top_t,
                      const Walk *w, int shift_t, int nl)
{
    uint64_t reach[65], owed[65];
    reach[n] = 1;
    owed[n] = 0;
    for (int i = n - 1; i >= 0; i--) {
        Cls *c = cls[i];
        int u = use[c->j];
        if (c->u != u)
            choices(c, u, nl);
        uint64_t r = reach[i + 1];
        if (u)
            for (int x = 1; x <= c->whole && x * u < 64; x++)
                r |= reach[i + 1] << (x * u);
        reach[i] = r;
        owed[i] = owed[i + 1] | (c->pays ? 1 : 0) | (flags_of(c, c->whole) & 2);
    }
    if (tab_ready(&tab_a) || tab_ready(&tab_b))
        return -1;
    Tab *states_home = &tab_a, *next_home = &tab_b;
    Tab states = tab_a;
    uint64_t st0[LIMBS] = {start, 0, 0, 0};
    if (tab_max(&states, states_home, st0, 0, w->kept, nl))
        return -1;
    *states_home = states;
    for (int i = 0; i + 1 < n; i++) {
        const Cls *c = cls[i];
        uint64_t after = reach[i + 1], left_owed = owed[i + 1];
        if (tab_ready(next_home))
            return -1;
        Tab next = *next_home;
        for (size_t k = 0; k < states.n; k++) {
            const uint64_t *st = states.key + k * nl;
            u128 path = states.val[k];
            uint64_t kst = states.aux[k];
            int paid = (int)(st[0] >> PAID) & 63;
            const Ch *ch = (st[0] & 1) ? c->free_ : c->paying;
            int nch = (st[0] & 1) ? c->nfree : c->npaying;
            for (int q = 0; q < nch; q++) {
                int np = paid + ch[q].du;
                if (np > top_t)
                    break;
                if (!((tmask >> np) & after))
                    continue;
                uint64_t ns[LIMBS];
                ns[0] = (st[0] + ch[q].d[0]) | ch[q].fl;
                if (((ns[0] | left_owed) & 3) != 3)
                    continue;
                for (int l = 1; l < nl; l++)
                    ns[l] = st[l] + ch[q].d[l];
                if (tab_max(&next, next_home, ns, path + ch[q].dq, kst + ch[q].kd, nl))
                    return -1;
            }
        }
        *next_home = next;
        Tab *t = states_home;
        states_home = next_home;
        next_home = t;
        states = next;
    }
    /* The last class completes each partial payment, keyed at once: the state's part of the key
       (what it spent), the choice's part, the colours covered, the build below the cap. */
    static const Ch none = {0, 0, 0, {0, 0, 0, 0}, 0, 0};
    const Ch *lfree = &none, *lpaying = &none;
    int nlfree = 1, nlpaying = 1;
    if (n) {
        lfree = cls[n - 1]->free_;
        lpaying = cls[n - 1]->paying;
        nlfree = cls[n - 1]->nfree;
        nlpaying = cls[n - 1]->npaying;
    }
    if (!++lows_gen) { /* a new step: none of the memo's entries is its own */
        memset(lows, 0, sizeof(lows));
        lows_gen = 1;
    }
    /* (read once: the compiler cannot tell that no store into a front changes them) */
    const int pop_at = w->pop_at, build_at = w->build_at, naway = w->naway, nfed = w->nfed;
    const int memoed = nl == 1 && naway + nfed > 2;
    const uint64_t guards = w->guards;
    for (size_t k = 0; k < states.n; k++) {
        const uint64_t *st = states.key + k * nl;
        u128 path = states.val[k];
        int paid = (int)(st[0] >> PAID) & 63;
        const Ch *ch = (st[0] & 1) ? lfree : lpaying;
        int nch = (st[0] & 1) ? nlfree : nlpaying;
        /* the state's key so far (carried), and how far below the cap its spending off the cuts
           takes the build: `away` by the cuts the last class does not feed (and 0), `fed` by
           those it does, before what it spends (payways: `low`) */
        uint64_t kst = states.aux[k];
        int64_t away = 0, fed = INT64_MIN / 2;
        Low *memo = NULL;
        uint64_t spent = 0;
        if (memoed) {
            /* states alike in what they spent off the cuts share it (payways: `lows`; with two
               cuts or fewer, working it out again costs less) */
            spent = st[0] >> w->cut_lo;
            memo = &lows[(spent * 0x9E3779B97F4A7C15ULL) >> (64 - LOWS_BITS)];
            if (memo->gen == lows_gen && memo->spent == spent) {
                away = memo->away;
                fed = memo->fed;
                goto known;
            }
        }
        for (int g = 0; g < naway; g++) {
            int64_t x = field_of(st, &w->away[g], nl) - w->away[g].k;
            if (x > away)
                away = x;
        }
        for (int g = 0; g < nfed; g++) {
            int64_t x = field_of(st, &w->fed[g], nl) - w->fed[g].k;
            if (x > fed)
                fed = x;
        }
        if (memo) {
            memo->gen = lows_gen;
            memo->spent = spent;
            memo->away = away;
            memo->fed = fed;
        }
    known:
        for (int q = 0; q < nch; q++) {
            int np = paid + ch[q].du;
            if (np > top_t)
                break;
            if (!((tmask >> np) & 1))
                continue;
            uint64_t fl = st[0] | ch[q].fl;
            if ((fl & 3) != 3)
                continue;
            int64_t low = fed + ch[q].cq;
            if (low < away)
                low = away;
            uint64_t key = kst + ch[q].kd + ((uint64_t)POP5[(fl >> 2) & 31] << pop_at) - ((uint64_t)low << build_at);
            if (front_put(&fronts[np + shift_t], key, path + ch[q].dq, guards))
                return -1;
        }
    }
    return 0;
}

static int walk_core(Cls *const *cls, int n, const int *use, uint64_t start, uint64_t tmask, int top_t,
                     const Walk *w, int shift_t, int nl)
{
    switch (nl) {
    case 1:
        return walk_width(cls, n, use, start, tmask, top_t, w, shift_t, 1);
    case 2:
        return walk_width(cls, n, use, start, tmask, top_t, w, shift_t, 2);
    case 3:
        return walk_width(cls, n, use, start, tmask, top_t, w, shift_t, 3);
    default:
        return walk_width(cls, n, use, start, tmask, top_t, w, shift_t, 4);
    }
}

/* ---- the fronts ---- */

/* A class's info (payways._class_info) as read from its tuple, remembered by the tuple itself:
   the memo holds it, so no other object takes its address while it is remembered, and a tuple of
   ints does not change (payways hands the same tuples walk after walk). */
typedef struct {
    int16_t u, pays, wt, cover, route; /* info[0], [1], [5], [3], [4] */
    int16_t fits;                      /* read as a walk here reads it (else walked in Python) */
    int16_t chunk[NITEMS];             /* what one token spends of each item (info[2]'s fields),
                                          as much as it counts for in the totals (info[7]) */
    uint16_t nz;                       /* bit f: chunk[f] is not 0 */
} Num;

typedef struct {
    PyObject *info; /* held */
    Num x;
    int nfeed;               /* the colours fed (info[6]): how many below, -1 any (None), -2 ask the set */
    PyObject *feed[8];       /* each an exact str (held by the tuple's frozenset) */
    Py_hash_t feed_hash[8];
} Info;

#define MEMO_BITS 10
static Info memo[1 << MEMO_BITS];

/* the item fields of Python's packing a state here keeps (info[2]'s fields 0, 2, 3, 4, 5: field 1
   is where a key counts the colours covered) */
static const int ITEM_FIELD[NITEMS] = {0, 2, 3, 4, 5};

/* 1 read, 0 numbers that do not fit, -1 error */
static int info_of(PyObject *info, const Info **out)
{
    Info *m = &memo[((uintptr_t)info >> 4) * 0x9E3779B97F4A7C15ULL >> (64 - MEMO_BITS)];
    if (m->info == info) {
        *out = m;
        return 1;
    }
    if (!PyTuple_Check(info) || PyTuple_GET_SIZE(info) != 8) {
        PyErr_SetString(PyExc_TypeError, "_walk.fronts: a class's info is an 8-tuple");
        return -1;
    }
    Info in;
    Num *x = &in.x;
    int r;
    int64_t u, pays, cover, route, wt, items[4];
    uint64_t one[LIMBS];
    if ((r = to_i64(PyTuple_GET_ITEM(info, 0), &u)) != 1 || (r = to_i64(PyTuple_GET_ITEM(info, 1), &pays)) != 1
        || (r = to_i64(PyTuple_GET_ITEM(info, 3), &cover)) != 1 || (r = to_i64(PyTuple_GET_ITEM(info, 4), &route)) != 1
        || (r = to_i64(PyTuple_GET_ITEM(info, 5), &wt)) != 1)
        return r;
    if ((r = to_limbs(PyTuple_GET_ITEM(info, 2), one, LIMBS)) != 1)
        return r;
    if (u < 0 || u > 62 || wt < 0 || wt > 1000 || cover < 0 || route < 0)
        return 0;
    PyObject *it = PyTuple_GET_ITEM(info, 7);
    if (!PyTuple_Check(it) || PyTuple_GET_SIZE(it) != 4) {
        PyErr_SetString(PyExc_TypeError, "_walk.fronts: a class's items are a 4-tuple");
        return -1;
    }
    for (int k = 0; k < 4; k++)
        if ((r = to_i64(PyTuple_GET_ITEM(it, k), &items[k])) != 1)
            return r;
    /* What a walk here reads: flags in bits 0-6 only, and info[2] (`one`) made of the six item
       fields alone, nothing in its flag bits, none in the field where a key counts colours (as
       payways._class_info makes them), and what a token spends of each item what it counts for
       in the totals (info[7]: units, markers, worth, wild), so that no item kept falls below 0.
       Else the class is walked in Python. */
    u128 o = (u128)one[1] << 64 | one[0];
    int64_t chunk[NITEMS];
    for (int f = 0; f < NITEMS; f++)
        chunk[f] = (int64_t)((o >> (7 + W * ITEM_FIELD[f])) & 1023);
    x->fits = cover < 128 && route < 128 && !one[2] && !one[3] && !(o >> (7 + 6 * W)) && !(o & 127)
              && !((o >> (7 + W)) & 1023) && chunk[0] == items[3] && chunk[1] == items[2]
              && chunk[2] == items[1] && chunk[3] == items[0];
    x->u = (int16_t)u;
    x->pays = pays != 0;
    x->wt = (int16_t)wt;
    x->cover = (int16_t)(cover & 127);
    x->route = (int16_t)(route & 127);
    for (int f = 0; f < NITEMS; f++)
        x->chunk[f] = (int16_t)chunk[f];
    x->nz = 0;
    for (int f = 0; f < NITEMS; f++)
        if (chunk[f])
            x->nz |= (uint16_t)(1 << f);
    PyObject *fd = PyTuple_GET_ITEM(info, 6);
    in.nfeed = fd == Py_None ? -1 : -2;
    if (PyFrozenSet_CheckExact(fd) && PySet_GET_SIZE(fd) <= 8) {
        /* a frozenset of exact strs (payways' colours) is read once, here */
        PyObject *iter = PyObject_GetIter(fd), *col;
        if (!iter)
            return -1;
        int k = 0, plain = 1;
        while ((col = PyIter_Next(iter))) {
            if (PyUnicode_CheckExact(col) && k < 8) {
                in.feed_hash[k] = PyObject_Hash(col);
                in.feed[k++] = col;
            } else
                plain = 0;
            Py_DECREF(col);
        }
        Py_DECREF(iter);
        if (PyErr_Occurred())
            return -1;
        if (plain)
            in.nfeed = k;
    }
    PyObject *old = m->info;
    Py_INCREF(info);
    in.info = info;
    *m = in;
    *out = m;
    Py_XDECREF(old);
    return 1;
}

/* A class's info by the class and the table it is looked up in (payways._INFO_TABLES: one per
   kind of walk, class -> _class_info): remembered by the two objects themselves, both held, so no
   other object takes either address while remembered. payways fills a table once per class and
   never changes an entry, so the pair names the info. */
typedef struct {
    PyObject *cls, *table, *info; /* held */
} ClassInfo;

static ClassInfo class_memo[1 << MEMO_BITS];

/* 1 found (`*out` borrowed: the memo holds it), -1 error: a class not in the table raises
   KeyError(class), and payways fills the table and asks again */
static int class_info(PyObject *table, PyObject *cls, PyObject **out)
{
    ClassInfo *m = &class_memo[(((uintptr_t)cls >> 4) ^ ((uintptr_t)table >> 4) * 0xC2B2AE3D27D4EB4FULL)
                               * 0x9E3779B97F4A7C15ULL >> (64 - MEMO_BITS)];
    if (m->cls == cls && m->table == table) {
        *out = m->info;
        return 1;
    }
    PyObject *info = PyDict_GetItemWithError(table, cls);
    if (!info) {
        if (!PyErr_Occurred())
            PyErr_SetObject(PyExc_KeyError, cls);
        return -1;
    }
    ClassInfo old = *m;
    Py_INCREF(cls);
    Py_INCREF(table);
    Py_INCREF(info);
    m->cls = cls;
    m->table = table;
    m->info = info;
    Py_XDECREF(old.cls);
    Py_XDECREF(old.table);
    Py_XDECREF(old.info);
    *out = info;
    return 1;
}

/* The contracts of a call by colour (payways._contract_sets' `bits`): each colour once (exact
   strs, compared as a dict finds them), with the contracts of that colour as bits. */
typedef struct {
    int n;
    PyObject *col[6]; /* borrowed from the contracts tuple */
    Py_hash_t hash[6];
    uint64_t val[6];
} Bits;

/* two exact strs of the same hash equal (as a set finds them; one that cannot be read: not) */
static inline int same_str(PyObject *a, PyObject *b)
{
    return cread_same_str(a, b) > 0;
}

/* the contracts a class's tokens feed as bits, for a class whose colours fed were read (nfeed >=
   0): each contract colour that equals one fed, as a set finds it (same hash, the same str) */
static int fed_read(const Info *in, const Bits *b, uint64_t *out)
{
    uint64_t f = 0;
    for (int k = 0; k < b->n; k++)
        for (int c = 0; c < in->nfeed; c++)
            if (b->col[k] == in->feed[c] || (b->hash[k] == in->feed_hash[c] && same_str(b->col[k], in->feed[c]))) {
                f |= b->val[k];
                break;
            }
    *out = f;
    return 1;
}

/* the choices of the walked classes, kept from one walk to the next (grown, never shrunk) */
static Ch *pool;
static size_t pool_room;
/* walks by the words of their states (1, 2, 3, 4), for the tests */
static unsigned long long by_width[LIMBS];
/* set while a call uses the tables above: a call made meanwhile (a finaliser run by the
   collector, say) answers None and is walked in Python */
static int busy;

static int grow(void **buf, size_t *room, size_t need, size_t size)
{
    if (need <= *room)
        return 0;
    size_t r = *room ? *room : 64;
    while (r < need)
        r *= 2;
    void *b = realloc(*buf, r * size);
    if (!b)
        return -1;
    *buf = b;
    *room = r;
    return 0;
}

static int as_bool(PyObject *v, int *out)
{
    int b = PyObject_IsTrue(v);
    if (b < 0)
        return -1;
    *out = b;
    return 0;
}

/* `xcol`, `xempty`: one more contract after those of args[3] (a contract taken: its colour, an
   exact str, and its empty squares), or `xcol` NULL */
static PyObject *fronts_of(PyObject *const *args, PyObject *xcol, int64_t xempty);

static PyObject *walk_fronts(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 9) {
        PyErr_Format(PyExc_TypeError, "fronts() takes 9 arguments (%zd given)", nargs);
        return NULL;
    }
    static const char *kinds[9] = {"dict", "tuple", "tuple", "tuple", NULL, NULL, NULL, "tuple", NULL};
    for (int k = 0; k < 9; k++) {
        int ok = k == 0 ? PyDict_Check(args[k]) : kinds[k] ? PyTuple_Check(args[k]) : 1;
        if (!ok) {
            PyErr_Format(PyExc_TypeError, "fronts() argument %d must be %s, not %.50s", k + 1, kinds[k],
                         Py_TYPE(args[k])->tp_name);
            return NULL;
        }
    }
    if (busy)
        Py_RETURN_NONE;
    busy = 1;
    PyObject *result = fronts_of(args, NULL, 0);
    busy = 0;
    return result;
}

/* a field of `bits` bits at the next place that holds it whole: 0, or -1 past the last word */
static int place_field(Field *f, int bits, int *limb, int *pos)
{
    if (!bits) {
        f->limb = f->shift = 0;
        f->mask = 0;
        return 0;
    }
    if (*pos + bits > 64) {
        ++*limb;
        *pos = 0;
        if (*limb == LIMBS)
            return -1;
    }
    f->limb = *limb;
    f->shift = *pos;
    f->mask = bits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
    *pos += bits;
    return 0;
}

static int bit_length(int64_t x)
{
    return x ? 64 - __builtin_clzll((uint64_t)x) : 0;
}

static PyObject *fronts_of(PyObject *const *args, PyObject *xcol, int64_t xempty)
{
    PyObject *table = args[0], *keys = args[1], *counts = args[2], *contracts = args[3], *targets = args[7];
    int64_t left;
    if (!small_int(args[4], &left)) {
        long long x = PyLong_AsLongLong(args[4]);
        if (x == -1 && PyErr_Occurred())
            return NULL;
        left = x;
    }
    int second, no_colour;
    if (as_bool(args[5], &second) || as_bool(args[6], &no_colour))
        return NULL;
    long ml = PyLong_AsLong(args[8]);
    if (ml == -1 && PyErr_Occurred())
        return NULL;
    if (ml > INT_MAX || ml < INT_MIN) {
        PyErr_SetString(PyExc_OverflowError, "signed integer is greater than maximum");
        return NULL;
    }
    int max_listed = (int)ml;
    Py_ssize_t n = PyTuple_GET_SIZE(keys);
    int nc0 = (int)PyTuple_GET_SIZE(contracts), nc = nc0 + (xcol != NULL);
    Py_ssize_t nin = (Py_ssize_t)1 << (nc < 7 ? nc : 0);
    if (PyTuple_GET_SIZE(counts) != n || nc > 6 || n > 60)
        Py_RETURN_NONE;

    PyObject *result = NULL;
    Cls walked[61], *order[61];
    Num num[61]; /* copied: a later class's info may take a memo entry over */
    int use[61], twos[61];
    uint64_t fbits[61];
    int64_t ins[64], count[61];
    int nw = 0;
    Walk w;
    int r = 1;
    /* the contracts by colour, and the empty squares of each set of them (payways._contract_sets):
       a contract that is not (an exact str, a small int) is walked in Python */
    Bits rb;
    rb.n = 0;
    int64_t empty[6];
    for (int i = 0; i < nc; i++) {
        PyObject *col;
        if (i < nc0) {
            PyObject *c = PyTuple_GET_ITEM(contracts, i);
            if (!PyTuple_Check(c) || PyTuple_GET_SIZE(c) != 2 || !PyUnicode_CheckExact(PyTuple_GET_ITEM(c, 0)))
                goto unfit;
            if ((r = to_i64(PyTuple_GET_ITEM(c, 1), &empty[i])) != 1 || empty[i] >= (1 << 16))
                goto unfit;
            col = PyTuple_GET_ITEM(c, 0);
        } else { /* the contract taken */
            if (!PyUnicode_CheckExact(xcol) || xempty >= (1 << 16))
                goto unfit;
            empty[i] = xempty;
            col = xcol;
        }
        Py_hash_t h = PyObject_Hash(col);
        if (h == -1)
            goto fail;
        int k = 0;
        while (k < rb.n && !(rb.col[k] == col || (rb.hash[k] == h && same_str(rb.col[k], col))))
            k++;
        if (k == rb.n) {
            rb.col[k] = col;
            rb.hash[k] = h;
            rb.val[k] = 0;
            rb.n++;
        }
        rb.val[k] |= (uint64_t)1 << i;
    }
    ins[0] = 0;
    for (Py_ssize_t m = 1; m < nin; m++) {
        Py_ssize_t low = m & -m;
        ins[m] = ins[m ^ low] + empty[__builtin_ctzll((uint64_t)low)];
    }
    /* the empty squares of each set of contracts: a few dozen at most (bounds the keys) */
    for (Py_ssize_t m = 0; m < nin; m++)
        if (ins[m] < 0 || ins[m] >= (1 << 20))
            goto unfit;

    /* per class: its info, count and the contracts it feeds (bits) */
    uint64_t every = ((uint64_t)1 << nc) - 1, fed = 0;
    int maxcount = 0;
    for (Py_ssize_t j = 0; j < n; j++) {
        const Info *in;
        PyObject *info;
        if (class_info(table, PyTuple_GET_ITEM(keys, j), &info) < 0)
            goto fail;
        if ((r = info_of(info, &in)) != 1 || (r = to_i64(PyTuple_GET_ITEM(counts, j), &count[j])) != 1)
            goto unfit;
        if (count[j] < 1 || count[j] > 60 || !in->x.fits)
            goto unfit;
        uint64_t f = every;
        if (in->nfeed >= 0)
            r = fed_read(in, &rb, &f);
        else if (in->nfeed != -1) /* colours fed not read as a set of strs: walked in Python */
            goto unfit;
        if (r != 1)
            goto unfit;
        num[j] = in->x;
        fed |= f;
        fbits[j] = f;
        use[j] = (int)in->x.u;
        twos[j] = in->x.u == 2 ? 2 : 0;
        if (count[j] > maxcount)
            maxcount = (int)count[j];
    }

    /* the build cuts (payways._fronts_py); no set of contracts has more empty squares than all
       (so that no cut takes the build below 0) */
    int64_t total = ins[nin - 1];
    for (Py_ssize_t m = 0; m < nin; m++)
        if (ins[m] > total)
            goto unfit;
    int64_t cap = left < total ? left : total;
    for (Py_ssize_t m = 1; m < nin; m++)
        if (!(m & fed) && total - ins[m] < cap)
            cap = total - ins[m];
    int cuts[64], ncuts = 0;
    int64_t cut_const[64];
    for (Py_ssize_t m = 1; m < nin; m++)
        if ((m & fed) && total - ins[m] < cap) {
            cut_const[ncuts] = total - ins[m];
            cuts[ncuts++] = (int)m;
        }
    int size = 0;
    while ((1 << size) <= maxcount)
        size++;
    if (size * n > 126 || cap < 0 || cap >= 512)
        goto unfit;
    /* the walked classes, and the largest sum of each field of a state: the items, the cuts */
    int64_t t_units = 0, t_mk = 0, t_wo = 0, t_wi = 0, most[NITEMS] = {0}, most_cut[64];
    for (int g = 0; g < ncuts; g++)
        most_cut[g] = 0;
    uint64_t start = second ? 0 : 2;
    if (no_colour)
        start |= 1;
    int shift = size * (int)n;
    size_t room = 0;
    for (Py_ssize_t j = 0; j < n; j++) {
        const Num *in = &num[j];
        int64_t cnt = count[j];
        shift -= size;
        t_units += in->chunk[3] * cnt;
        t_mk += in->chunk[2] * cnt;
        t_wo += in->chunk[1] * cnt;
        t_wi += in->chunk[0] * cnt;
        int walks = use[j] || in->pays;
        uint64_t fc = 0;
        if (fbits[j])
            for (int g = 0; g < ncuts; g++)
                if (fbits[j] & (uint64_t)cuts[g]) {
                    cut_const[g] += in->wt * cnt;
                    fc |= (uint64_t)1 << g;
                    if (walks)
                        most_cut[g] += in->wt * cnt;
                }
        if (!walks) {
            start |= (uint64_t)in->cover; /* never spent: kept whole */
            continue;
        }
        Cls *c = &walked[nw];
        order[nw++] = c;
        c->j = (int)j;
        c->pays = in->pays != 0;
        c->whole = (int)cnt;
        c->u = -1;
        c->wt = (int)in->wt;
        c->cover = (uint64_t)in->cover;
        c->route = (uint64_t)in->route;
        c->fedcuts = fc;
        c->place = (u128)1 << shift;
        for (unsigned nz = in->nz; nz; nz &= nz - 1) {
            int f = __builtin_ctz(nz);
            most[f] += in->chunk[f] * cnt;
        }
        room += 3 * (size_t)cnt + 3;
    }
    /* each field as wide as its largest sum: a sum of 2**10 or more would carry into the next
       field of Python's packing (walked in Python) */
    Field item[NITEMS], cut[64];
    int limb = 0, pos = PAID + 6;
    /* a key's items (see Walk), each under 2**9: the wild symbols, colours covered, worth, markers
       and units kept, the money, the cubes buildable */
    int64_t key_most[7] = {t_wi, 5, t_wo, t_mk, t_units, most[4], cap};
    int key_at[7];
    w.guards = 0;
    for (int f = 0, at = 0; f < 7; f++) {
        int bits = bit_length(key_most[f]) + 1;
        if (key_most[f] >= 512 || at + bits > 64)
            goto unfit;
        key_at[f] = at;
        at += bits;
        w.guards |= (uint64_t)1 << (at - 1);
    }
    for (int f = 0; f < NITEMS; f++)
        if (most[f] >= 1024 || place_field(&item[f], bit_length(most[f]), &limb, &pos))
            goto unfit;
    w.cut_lo = pos < 64 ? pos : 63; /* (a key finer than the cuts' fields does as well) */
    for (int g = 0; g < ncuts; g++)
        if (most_cut[g] >= 1024 || place_field(&cut[g], bit_length(most_cut[g]), &limb, &pos))
            goto unfit;
    int nl = limb + 1;
    int64_t weight[NITEMS];
    for (int f = 0; f < NITEMS; f++) /* an item spent is one less kept; the money spent is more */
        weight[f] = f == 4 ? (int64_t)1 << key_at[5] : -((int64_t)1 << key_at[ITEM_FIELD[f]]);
    /* the classes that can pay the colour die first, then the fewest tokens (a stable sort) */
    int rank[61];
    for (int k = 0; k < nw; k++) {
        Cls *c = &walked[k];
        const Num *in = &num[c->j];
        rank[k] = (c->pays ? 0 : 64) + c->whole;
        memset(c->one, 0, sizeof(c->one));
        c->kone = 0;
        for (unsigned nz = in->nz; nz; nz &= nz - 1) {
            int f = __builtin_ctz(nz);
            c->one[item[f].limb] += (uint64_t)in->chunk[f] << item[f].shift;
            c->kone += (uint64_t)in->chunk[f] * (uint64_t)weight[f];
        }
        for (uint64_t fc = c->fedcuts; fc; fc &= fc - 1) {
            int g = __builtin_ctzll(fc);
            c->one[cut[g].limb] += (uint64_t)c->wt << cut[g].shift;
        }
    }
    for (int a = 1; a < nw; a++) {
        Cls *t = order[a];
        int rt = rank[a], b = a - 1;
        while (b >= 0 && rank[b] > rt) {
            order[b + 1] = order[b];
            rank[b + 1] = rank[b];
            b--;
        }
        order[b + 1] = t;
        rank[b + 1] = rt;
    }
    if (grow((void **)&pool, &pool_room, room, sizeof(Ch))) {
        PyErr_NoMemory();
        goto out;
    }
    room = 0;
    for (int k = 0; k < nw; k++) {
        walked[k].free_ = pool + room;
        walked[k].paying = pool + room + walked[k].whole + 1;
        room += 3 * (size_t)walked[k].whole + 3;
    }
    by_width[nl - 1]++;
    w.pop_at = key_at[1];
    w.build_at = key_at[6];
    w.kept = (uint64_t)t_wi << key_at[0] | (uint64_t)t_wo << key_at[2] | (uint64_t)t_mk << key_at[3]
             | (uint64_t)t_units << key_at[4] | (uint64_t)cap << key_at[6];
    w.naway = w.nfed = 0;
    uint64_t lfed = nw ? order[nw - 1]->fedcuts : 0;
    for (int g = 0; g < ncuts; g++) {
        cut[g].k = cut_const[g] - cap;
        if (most_cut[g] > cut[g].k) { /* else no payment spends enough off it to matter */
            if ((lfed >> g) & 1)
                w.fed[w.nfed++] = cut[g];
            else
                w.away[w.naway++] = cut[g];
        }
    }

    uint64_t tmask = 0, odd = 0;
    int top_t = -1, top_odd = -1;
    Py_ssize_t nt = PyTuple_GET_SIZE(targets);
    unsigned char tv[256];
    if (nt > 256)
        goto unfit;
    for (Py_ssize_t k = 0; k < nt; k++) {
        int64_t t;
        if ((r = to_i64(PyTuple_GET_ITEM(targets, k), &t)) != 1 || t < 0 || t > 62) {
            if (r < 0)
                goto out;
            goto unfit;
        }
        tv[k] = (unsigned char)t;
        tmask |= (uint64_t)1 << t;
        if (t > top_t)
            top_t = (int)t;
        if (t % 2) {
            odd |= (uint64_t)1 << (t + 1);
            if (t + 1 > top_odd)
                top_odd = (int)t + 1;
        }
    }
    for (uint64_t m = tmask; m; m &= m - 1)
        fronts[__builtin_ctzll(m)].n = 0;
    if (top_t >= 0 && walk_core(order, nw, use, start, tmask, top_t, &w, 0, nl)) {
        PyErr_NoMemory();
        goto out;
    }
    /* An any2 may pay a cost of one: an odd price may also be paid with two-unit tokens alone. */
    int has_two = 0;
    for (Py_ssize_t j = 0; j < n; j++)
        has_two |= use[j] == 2;
    if (odd && has_two && walk_core(order, nw, twos, start, odd, top_odd, &w, -1, nl)) {
        PyErr_NoMemory();
        goto out;
    }

    /* each price's front, best first (payways: sorted by key), at most `max_listed` */
    uint64_t sorted = 0;
    result = PyDict_New();
    if (!result)
        goto fail;
    for (Py_ssize_t k = 0; k < nt; k++) {
        int t = tv[k];
        uint64_t *kg = fronts[t].kg;
        u128 *v = fronts[t].val;
        size_t nf = fronts[t].n;
        if (!((sorted >> t) & 1))
            for (size_t i = 1; i < nf; i++) {
                uint64_t xk = kg[i];
                u128 xv = v[i];
                size_t j = i;
                while (j > 0 && kg[j - 1] < xk) {
                    kg[j] = kg[j - 1];
                    v[j] = v[j - 1];
                    j--;
                }
                kg[j] = xk;
                v[j] = xv;
            }
        sorted |= (uint64_t)1 << t;
        if (max_listed > 0 && nf > (size_t)max_listed)
            nf = (size_t)max_listed;
        PyObject *tup = front_tuple(v, nf, n, size);
        if (!tup)
            goto fail;
        int bad = PyDict_SetItem(result, PyTuple_GET_ITEM(targets, k), tup) < 0;
        Py_DECREF(tup);
        if (bad)
            goto fail;
    }
    goto out;
unfit: /* an error, or numbers that do not fit: None */
    if (r < 0 || PyErr_Occurred())
        goto fail;
    goto out;
fail:
    Py_CLEAR(result);
out:
    if (!result && !PyErr_Occurred())
        Py_RETURN_NONE; /* does not fit: walk it in Python */
    return result;
}

/* ---- a seat's hand grouped by class (payways._hand_py) ---- */

/* hand(dice, spent, kinds, both, plain, storing, markers, die_tokens, marker_classes): the
   unspent dice grouped by class (`plain` or, for a basic die when `both`, `storing`: face name ->
   (class, number)), in die order, then the markers by colour, as (classes, counts, tokens of
   each, signature bytes): payways._hand_py step for step. None where anything is not as payways
   keeps it (a face not in the dict yet, more than 64 dice, a number over 255...): the caller
   then groups the hand in Python. */
static PyObject *walk_hand(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 9) {
        PyErr_Format(PyExc_TypeError, "hand() takes 9 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *dice = args[0], *spent = args[1], *kinds = args[2], *plain = args[4], *storing = args[5];
    PyObject *markers = args[6], *die_tokens = args[7], *marker_classes = args[8];
    int both = PyObject_IsTrue(args[3]);
    if (both < 0)
        return NULL;
    if (!PyList_CheckExact(dice) || !PyList_CheckExact(spent) || !PyList_CheckExact(kinds)
        || !PyDict_CheckExact(plain) || !PyDict_CheckExact(storing) || !PyList_CheckExact(markers)
        || !PyTuple_CheckExact(die_tokens) || !PyTuple_CheckExact(marker_classes))
        Py_RETURN_NONE;
    Py_ssize_t nd = PyList_GET_SIZE(dice);
    if (nd > 64 || PyList_GET_SIZE(spent) < nd || (both && PyList_GET_SIZE(kinds) < nd)
        || PyTuple_GET_SIZE(die_tokens) < nd || PyList_GET_SIZE(markers) != 4 || PyTuple_GET_SIZE(marker_classes) != 4)
        Py_RETURN_NONE;
    PyObject *cls[68];
    int64_t num[68], cnt[68];
    unsigned char first[68][64]; /* the dice of each class, in die order */
    int n = 0;
    for (Py_ssize_t i = 0; i < nd; i++) {
        PyObject *sp = PyList_GET_ITEM(spent, i);
        if (sp == Py_True)
            continue;
        if (sp != Py_False) /* only bools: no Python code runs while the dicts' items are borrowed */
            Py_RETURN_NONE;
        int sb = 0;
        if (both) {
            PyObject *k = PyList_GET_ITEM(kinds, i);
            if (!PyUnicode_CheckExact(k))
                Py_RETURN_NONE;
            sb = PyUnicode_CompareWithASCIIString(k, "basic") == 0;
        }
        PyObject *name = PyList_GET_ITEM(dice, i);
        if (!PyUnicode_CheckExact(name))
            Py_RETURN_NONE;
        PyObject *got = PyDict_GetItemWithError(sb ? storing : plain, name);
        if (!got) {
            if (PyErr_Occurred())
                return NULL;
            Py_RETURN_NONE; /* a face new to the dict: payways makes its class */
        }
        int64_t x;
        if (!PyTuple_CheckExact(got) || PyTuple_GET_SIZE(got) != 2 || !small_int(PyTuple_GET_ITEM(got, 1), &x) || x < 0
            || x > 255)
            Py_RETURN_NONE;
        int j = 0;
        while (j < n && num[j] != x)
            j++;
        if (j == n) {
            cls[n] = PyTuple_GET_ITEM(got, 0);
            num[n] = x;
            cnt[n++] = 0;
        }
        first[j][cnt[j]++] = (unsigned char)i;
    }
    int dn = n;
    for (int k = 0; k < 4; k++) {
        int64_t m;
        PyObject *mk = PyList_GET_ITEM(markers, k);
        if (!small_int(mk, &m) || m < 0 || m > 255)
            Py_RETURN_NONE;
        if (m) {
            cls[n] = PyTuple_GET_ITEM(marker_classes, k);
            num[n] = k;
            cnt[n++] = m;
        }
    }
    PyObject *keys = PyTuple_New(n), *counts = PyTuple_New(n), *toks = PyTuple_New(n);
    PyObject *sig = PyBytes_FromStringAndSize(NULL, 2 * (Py_ssize_t)n);
    PyObject *out = NULL;
    if (!keys || !counts || !toks || !sig)
        goto done;
    char *sb = PyBytes_AS_STRING(sig);
    for (int j = 0; j < n; j++) {
        Py_INCREF(cls[j]);
        PyTuple_SET_ITEM(keys, j, cls[j]);
        PyObject *c = PyLong_FromLongLong(cnt[j]);
        PyObject *t = PyTuple_New((Py_ssize_t)cnt[j]);
        if (!c || !t) {
            Py_XDECREF(c);
            Py_XDECREF(t);
            goto done;
        }
        PyTuple_SET_ITEM(counts, j, c);
        for (int64_t k = 0; k < cnt[j]; k++) {
            PyObject *tok = j < dn ? PyTuple_GET_ITEM(die_tokens, first[j][k]) : cls[j]; /* a marker's token is its class */
            Py_INCREF(tok);
            PyTuple_SET_ITEM(t, (Py_ssize_t)k, tok);
        }
        PyTuple_SET_ITEM(toks, j, t);
        sb[j] = (char)num[j];
        sb[n + j] = (char)cnt[j];
    }
    out = PyTuple_Pack(4, keys, counts, toks, sig);
done:
    Py_XDECREF(keys);
    Py_XDECREF(counts);
    Py_XDECREF(toks);
    Py_XDECREF(sig);
    return out;
}

/* ---- a seat's payments at one moment (payways.SeatPayments, compiled) ---- */

/* Set once by payways (seat_setup): what Seat reads and the Python functions it falls back on.
   All held. */
static struct {
    int ready, direct;
    PyObject *plain, *storing, *die_tokens, *marker_classes; /* payways._DIE_CLASSES, ... */
    PyObject *info_tables;                                   /* payways._INFO_TABLES */
    PyObject *py_hand, *class_info, *py_seat_fronts, *py_fronts; /* payways._hand, _class_info, ... */
    PyObject *max_listed;
    PyObject *memo; /* payways._FRONTS */
    struct {
        PyObject *colour, *table; /* held */
        int route, second;
    } tables[16]; /* the info tables met, by colour object (payways._INFO_TABLES' entries) */
    int ntables;
} cfg;

static PyObject *s_players, *s_map, *s_links, *s_cubes, *s_comp, *s_box, *s_cubes_per_player, *s_dice, *s_spent,
    *s_die_kinds, *s_improvements, *s_markers, *s_contracts, *s_colour, *s_length, *s_route, *s_buy, *s_contract,
    *s_storage, *s_young, *s_old, *s_size, *s_put;

typedef struct {
    PyObject_HEAD
    PyObject *keys, *counts, *toks, *hand, *contracts, *left, *known;
} Seat;

static void seat_dealloc(Seat *s)
{
    Py_XDECREF(s->keys);
    Py_XDECREF(s->counts);
    Py_XDECREF(s->toks);
    Py_XDECREF(s->hand);
    Py_XDECREF(s->contracts);
    Py_XDECREF(s->left);
    Py_XDECREF(s->known);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

/* the slotted attributes the Seat set-up reads (slot_attr, _cread.h: else PyObject_GetAttr) */
enum { SP_IMPROVEMENTS, SP_DICE, SP_SPENT, SP_DIE_KINDS, SP_MARKERS, SP_CONTRACTS, N_SEAT_PLAYER };
static PyObject *seat_player_names[N_SEAT_PLAYER], *seat_link_names[2], *seat_map_names[1], *seat_comp_names[1];
static Slots seat_player_slots, seat_link_slots, seat_map_slots, seat_comp_slots;

static PyObject *seat_pattr(PyObject *player, int k)
{
    return slot_attr(&seat_player_slots, player, k, seat_player_names, N_SEAT_PLAYER);
}

/* payways._hand(player): (classes, counts, tokens of each, signature) */
static PyObject *seat_hand(PyObject *player)
{
    PyObject *imps = seat_pattr(player, SP_IMPROVEMENTS);
    if (!imps)
        return NULL;
    int both = -1;
    if (PyList_CheckExact(imps)) {
        Py_ssize_t n = 0, k;
        for (k = 0; k < PyList_GET_SIZE(imps); k++) {
            PyObject *x = PyList_GET_ITEM(imps, k);
            if (!PyUnicode_CheckExact(x))
                break;
            n += x == s_storage || (PyUnicode_GET_LENGTH(x) == PyUnicode_GET_LENGTH(s_storage)
                                    && PyUnicode_Compare(x, s_storage) == 0);
        }
        if (k == PyList_GET_SIZE(imps))
            both = n >= 2;
    }
    Py_DECREF(imps);
    PyObject *got = NULL;
    if (both >= 0) {
        PyObject *a[9] = {NULL};
        a[0] = seat_pattr(player, SP_DICE);
        a[1] = a[0] ? seat_pattr(player, SP_SPENT) : NULL;
        a[2] = a[1] ? seat_pattr(player, SP_DIE_KINDS) : NULL;
        a[6] = a[2] ? seat_pattr(player, SP_MARKERS) : NULL;
        if (a[6]) {
            a[3] = both ? Py_True : Py_False;
            a[4] = cfg.plain;
            a[5] = cfg.storing;
            a[7] = cfg.die_tokens;
            a[8] = cfg.marker_classes;
            got = walk_hand(NULL, a, 9);
        }
        Py_XDECREF(a[0]);
        Py_XDECREF(a[1]);
        Py_XDECREF(a[2]);
        Py_XDECREF(a[6]);
        if (!got)
            return NULL;
        if (got != Py_None)
            return got;
        Py_DECREF(got);
    }
    return PyObject_CallOneArg(cfg.py_hand, player); /* grouped in Python */
}

/* seq[i]: read in place for an exact list or tuple and an exact int in range, else as Python does */
static PyObject *item_at(PyObject *seq, PyObject *i)
{
    int64_t k;
    if (small_int(i, &k) && k >= 0) {
        if (PyList_CheckExact(seq) && k < PyList_GET_SIZE(seq)) {
            PyObject *x = PyList_GET_ITEM(seq, k);
            Py_INCREF(x);
            return x;
        }
        if (PyTuple_CheckExact(seq) && k < PyTuple_GET_SIZE(seq)) {
            PyObject *x = PyTuple_GET_ITEM(seq, k);
            Py_INCREF(x);
            return x;
        }
    }
    return PyObject_GetItem(seq, i);
}

/* the state's attributes the Seat set-up reads, in its __dict__ where its type lets (DictFit,
   _cread.h: else PyObject_GetAttr) */
static DictFit seat_state_fit;
static PyObject **seat_state_names[] = {&s_players, &s_map, &s_cubes, &s_comp};

/* payways._contracts(state, seat) for the seat's player: ((colour, empty squares), ...), left
   (sd: the state's __dict__ from cread_dict_of, or NULL) */
static int seat_contracts(PyObject *sd, PyObject *state, PyObject *player, PyObject **contracts, PyObject **left)
{
    PyObject *map = NULL, *links = NULL, *cubes = NULL, *comp = NULL, *box = NULL, *lf = NULL, *pc = NULL,
             *seq = NULL, *out = NULL;
    int ok = -1;
    if (!(map = cread_dict_get(sd, state, s_map)) || !(links = slot_attr(&seat_map_slots, map, 0, seat_map_names, 1))
        || !(cubes = cread_dict_get(sd, state, s_cubes)) || !(comp = cread_dict_get(sd, state, s_comp))
        || !(box = slot_attr(&seat_comp_slots, comp, 0, seat_comp_names, 1)) || !(lf = PyObject_GetItem(box, s_cubes_per_player))
        || !(pc = seat_pattr(player, SP_CONTRACTS)) || !(seq = PySequence_Fast(pc, "contracts")))
        goto done;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (!(out = PyTuple_New(n)))
        goto done;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *i = PySequence_Fast_GET_ITEM(seq, k);
        PyObject *ln = item_at(links, i);
        PyObject *ci = ln ? item_at(cubes, i) : NULL;
        PyObject *nl = ci ? PyNumber_Subtract(lf, ci) : NULL;
        PyObject *col = nl ? slot_attr(&seat_link_slots, ln, 0, seat_link_names, 2) : NULL;
        PyObject *len = col ? slot_attr(&seat_link_slots, ln, 1, seat_link_names, 2) : NULL;
        PyObject *e = len ? PyNumber_Subtract(len, ci) : NULL;
        PyObject *pair = e ? PyTuple_Pack(2, col, e) : NULL;
        Py_XDECREF(ln);
        Py_XDECREF(ci);
        Py_XDECREF(col);
        Py_XDECREF(len);
        Py_XDECREF(e);
        if (!pair) {
            Py_XDECREF(nl);
            goto done;
        }
        Py_SETREF(lf, nl);
        PyTuple_SET_ITEM(out, k, pair);
    }
    *contracts = out;
    *left = lf;
    out = lf = NULL;
    ok = 0;
done:
    Py_XDECREF(map);
    Py_XDECREF(links);
    Py_XDECREF(cubes);
    Py_XDECREF(comp);
    Py_XDECREF(box);
    Py_XDECREF(lf);
    Py_XDECREF(pc);
    Py_XDECREF(seq);
    Py_XDECREF(out);
    return ok;
}

static PyTypeObject SeatType;

static PyObject *seat_make(PyTypeObject *type, PyObject *state, PyObject *seatno)
{
    if (!cfg.ready) {
        PyErr_SetString(PyExc_RuntimeError, "_walk.Seat: seat_setup() not called");
        return NULL;
    }
    PyObject *sd = cread_dict_of(&seat_state_fit, state, seat_state_names, 4, 0);
    PyObject *players = cread_dict_get(sd, state, s_players);
    if (!players) {
        Py_XDECREF(sd);
        return NULL;
    }
    PyObject *player = item_at(players, seatno);
    Py_DECREF(players);
    if (!player) {
        Py_XDECREF(sd);
        return NULL;
    }
    Seat *s = (Seat *)type->tp_alloc(type, 0);
    PyObject *h = s ? seat_hand(player) : NULL;
    if (!h)
        goto fail;
    if (!PyTuple_CheckExact(h) || PyTuple_GET_SIZE(h) != 4) {
        Py_DECREF(h);
        PyErr_SetString(PyExc_TypeError, "_walk.Seat: a hand is a 4-tuple");
        goto fail;
    }
    s->keys = PyTuple_GET_ITEM(h, 0);
    s->counts = PyTuple_GET_ITEM(h, 1);
    s->toks = PyTuple_GET_ITEM(h, 2);
    s->hand = PyTuple_GET_ITEM(h, 3);
    Py_INCREF(s->keys);
    Py_INCREF(s->counts);
    Py_INCREF(s->toks);
    Py_INCREF(s->hand);
    Py_DECREF(h);
    if (seat_contracts(sd, state, player, &s->contracts, &s->left))
        goto fail;
    Py_XDECREF(sd);
    Py_DECREF(player);
    return (PyObject *)s;
fail:
    Py_XDECREF(sd);
    Py_DECREF(player);
    Py_XDECREF(s);
    return NULL;
}

static PyObject *seat_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *state, *seatno;
    static char *names[] = {"state", "seat", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO:Seat", names, &state, &seatno))
        return NULL;
    return seat_make(type, state, seatno);
}

static PyObject *seat_vectorcall(PyObject *type, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    if (kwnames || n != 2) {
        PyObject *t = PyTuple_New(0); /* anything else: as tp_new parses it */
        PyObject *r = NULL;
        if (!t)
            return NULL;
        PyObject *tup = PyTuple_New(n);
        for (Py_ssize_t k = 0; tup && k < n; k++) {
            Py_INCREF(args[k]);
            PyTuple_SET_ITEM(tup, k, args[k]);
        }
        PyObject *kw = NULL;
        if (tup && kwnames) {
            kw = PyDict_New();
            for (Py_ssize_t k = 0; kw && k < PyTuple_GET_SIZE(kwnames); k++)
                if (PyDict_SetItem(kw, PyTuple_GET_ITEM(kwnames, k), args[n + k]) < 0)
                    Py_CLEAR(kw);
        }
        if (tup && (kw || !kwnames))
            r = seat_new((PyTypeObject *)type, tup, kw);
        Py_DECREF(t);
        Py_XDECREF(tup);
        Py_XDECREF(kw);
        return r;
    }
    return seat_make((PyTypeObject *)type, args[0], args[1]);
}

/* payways._taking's contracts: `contracts` and the contract taken on a link of colour `tc` and
   length `tl` (a new reference, NULL on error) */
static PyObject *taking(PyObject *contracts, PyObject *tc, PyObject *tl)
{
    PyObject *one = PyLong_FromLong(1);
    PyObject *e = one ? PyNumber_Subtract(tl, one) : NULL;
    PyObject *pair = e ? PyTuple_Pack(2, tc, e) : NULL;
    PyObject *more = pair ? PyTuple_Pack(1, pair) : NULL;
    PyObject *out = more ? PySequence_Concat(contracts, more) : NULL;
    Py_XDECREF(one);
    Py_XDECREF(e);
    Py_XDECREF(pair);
    Py_XDECREF(more);
    return out;
}

/* payways._fronts(keys, counts, colour, kind, second, contracts, left, targets): the compiled walk
   called here (its table looked up here), or the Python function where anything is not as the
   compiled walk takes it. `tc`, `tl`: the colour and length of the link of a contract taken (its
   contract one more after `contracts`, payways._taking: told the compiled walk apart, no tuples
   made), or NULL. */
static PyObject *seat_walk(Seat *s, PyObject *colour, int route, PyObject *second, PyObject *contracts,
                           PyObject *left, PyObject *targets, PyObject *tc, PyObject *tl)
{
    PyObject *kind = route ? s_route : s_buy;
    PyObject *xcol = NULL;
    int64_t xempty = 0;
    if (tc && PyUnicode_CheckExact(tc) && small_int(tl, &xempty)) {
        xcol = tc;
        xempty--;
    }
    if (cfg.direct && !busy && (!tc || xcol)) {
        PyObject *table = NULL;
        int sec = second == Py_True ? 1 : second == Py_False ? 0 : -1;
        for (int k = 0; k < cfg.ntables && !table; k++)
            if (cfg.tables[k].colour == colour && cfg.tables[k].route == route && cfg.tables[k].second == sec)
                table = cfg.tables[k].table;
        if (!table) {
            PyObject *tk = PyTuple_Pack(3, route ? s_route : s_contract, second, colour);
            if (!tk)
                return NULL;
            table = PyDict_GetItemWithError(cfg.info_tables, tk); /* borrowed */
            if (!table && !PyErr_Occurred()) { /* a kind of walk new to the tables (payways._fronts_c) */
                PyObject *t = PyDict_New();
                if (t && PyDict_SetItem(cfg.info_tables, tk, t) == 0)
                    table = t; /* held by the tables */
                Py_XDECREF(t);
            }
            Py_DECREF(tk);
            /* remembered by the colour object itself (held: no other takes its address), for a
               second exactly True or False (payways never replaces a table) */
            if (table && sec >= 0 && cfg.ntables < 16 && (colour == Py_None || PyUnicode_CheckExact(colour))) {
                int k = cfg.ntables++;
                Py_INCREF(colour);
                Py_INCREF(table);
                cfg.tables[k].colour = colour;
                cfg.tables[k].table = table;
                cfg.tables[k].route = route;
                cfg.tables[k].second = sec;
            }
        }
        if (table && PyDict_Check(table) && PyTuple_Check(s->keys) && PyTuple_Check(s->counts)
            && PyTuple_Check(contracts) && PyTuple_Check(targets)) {
            PyObject *args[9] = {table, s->keys, s->counts, contracts, left, second,
                                 colour == Py_None ? Py_True : Py_False, targets, cfg.max_listed};
            Py_INCREF(table); /* held while walked */
            busy = 1;
            PyObject *got = fronts_of(args, xcol, xempty);
            busy = 0;
            if (!got && PyErr_ExceptionMatches(PyExc_KeyError)) {
                /* a class new to this kind of walk: its info into the table, then walked
                   (payways._fronts_c) */
                PyErr_Clear();
                int bad = 0;
                for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(s->keys) && !bad; j++) {
                    PyObject *c = PyTuple_GET_ITEM(s->keys, j);
                    int has = PyDict_Contains(table, c);
                    if (has < 0)
                        bad = 1;
                    else if (!has) {
                        PyObject *info = PyObject_CallFunctionObjArgs(cfg.class_info, c, route ? s_route : s_contract,
                                                                      second, colour, NULL);
                        bad = !info || PyDict_SetItem(table, c, info) < 0;
                        Py_XDECREF(info);
                    }
                }
                if (bad) {
                    Py_DECREF(table);
                    return NULL;
                }
                busy = 1;
                got = fronts_of(args, xcol, xempty);
                busy = 0;
            }
            Py_DECREF(table);
            if (got && got != Py_None)
                return got;
            Py_XDECREF(got);
            if (!got) {
                if (!PyErr_ExceptionMatches(PyExc_KeyError))
                    return NULL;
                PyErr_Clear(); /* a class new to the table: payways fills it */
            }
        } else if (PyErr_Occurred())
            return NULL;
    }
    PyObject *all = tc ? taking(contracts, tc, tl) : contracts;
    if (!all)
        return NULL;
    PyObject *a[8] = {s->keys, s->counts, colour, kind, second, all, left, targets};
    PyObject *got = PyObject_Vectorcall(cfg.py_fronts, a, 8, NULL);
    if (tc)
        Py_DECREF(all);
    return got;
}

/* tuple(sorted(set(items) | extra - skip.keys())) */
static PyObject *sorted_set(PyObject *items, PyObject *extra, PyObject *skip)
{
    PyObject *set = PySet_New(items);
    if (!set)
        return NULL;
    if (extra && PySet_Add(set, extra) < 0)
        goto fail;
    if (skip) {
        PyObject *k, *v;
        Py_ssize_t pos = 0;
        while (PyDict_Next(skip, &pos, &k, &v))
            if (PySet_Discard(set, k) < 0)
                goto fail;
    }
    PyObject *list = PySequence_List(set);
    Py_DECREF(set);
    if (!list)
        return NULL;
    if (PyList_Sort(list) < 0) {
        Py_DECREF(list);
        return NULL;
    }
    PyObject *t = PyList_AsTuple(list);
    Py_DECREF(list);
    return t;
fail:
    Py_DECREF(set);
    return NULL;
}

/* payways._seat_fronts(hand, contracts, left): the memo's entry (a new reference), written out
   on payways._FRONTS (a rolling.core.memo.Recent: its young and old dicts, its size); anything
   else asks the Python function */
#if PY_VERSION_HEX < 0x030D0000
/* the memo's key hashed once for its (up to) three look-ups (a tuple's hash is not kept) */
#define GET_KNOWN(d, k, h) _PyDict_GetItem_KnownHash(d, k, h)
#define SET_KNOWN(d, k, v, h) _PyDict_SetItem_KnownHash(d, k, v, h)
#else
#define GET_KNOWN(d, k, h) PyDict_GetItemWithError(d, k)
#define SET_KNOWN(d, k, v, h) PyDict_SetItem(d, k, v)
#endif

static PyObject *seat_memo(Seat *s)
{
    PyObject *young = NULL, *old = NULL, *size = NULL, *mine = NULL;
    PyObject *at = PyTuple_Pack(3, s->hand, s->contracts, s->left);
    if (!at)
        return NULL;
    Py_hash_t h = PyObject_Hash(at);
    if (h == -1)
        goto done;
    if (!(young = PyObject_GetAttr(cfg.memo, s_young)))
        goto done;
    if (!PyDict_CheckExact(young)) {
        mine = PyObject_CallFunctionObjArgs(cfg.py_seat_fronts, s->hand, s->contracts, s->left, NULL);
        goto done;
    }
    mine = GET_KNOWN(young, at, h);
    if (mine) {
        Py_INCREF(mine);
        goto done;
    }
    if (PyErr_Occurred() || !(old = PyObject_GetAttr(cfg.memo, s_old)))
        goto done;
    if (!PyDict_CheckExact(old)) {
        PyErr_SetString(PyExc_TypeError, "_walk.Seat: the memo's generations are dicts");
        goto done;
    }
    mine = GET_KNOWN(old, at, h); /* asked for again: back to the young generation */
    if (mine)
        Py_INCREF(mine);
    else if (PyErr_Occurred() || !(mine = PyDict_New()))
        goto done;
    if (!(size = PyObject_GetAttr(cfg.memo, s_size)))
        goto fail;
    int lt;
    int64_t sz;
    if (small_int(size, &sz))
        lt = PyDict_GET_SIZE(young) < sz;
    else {
        PyObject *len = PyLong_FromSsize_t(PyDict_GET_SIZE(young));
        lt = len ? PyObject_RichCompareBool(len, size, Py_LT) : -1;
        Py_XDECREF(len);
    }
    if (lt < 0)
        goto fail;
    if (lt) {
        if (SET_KNOWN(young, at, mine, h) < 0)
            goto fail;
    } else { /* the young generation full: it becomes the old one */
        PyObject *r = PyObject_CallMethodObjArgs(cfg.memo, s_put, at, mine, NULL);
        if (!r)
            goto fail;
        Py_DECREF(r);
    }
    goto done;
fail:
    Py_CLEAR(mine);
done:
    Py_DECREF(at);
    Py_XDECREF(young);
    Py_XDECREF(old);
    Py_XDECREF(size);
    return mine;
}

/* the prices 0..63 alone, `(price,)`, held from their first use: the prices of most walks */
static PyObject *single[64];

/* `(price,)`: a new reference, NULL on error */
static PyObject *single_price(PyObject *price)
{
    int64_t t;
    if (!small_int(price, &t) || t < 0 || t >= 64)
        return PyTuple_Pack(1, price);
    if (!single[t] && !(single[t] = PyTuple_Pack(1, price)))
        return NULL;
    Py_INCREF(single[t]);
    return single[t];
}

/* The memo keys made lately (payways.SeatPayments.fronts' `at`: the walk's colour, kind, second
   and the contract taken), with their hashes, by the very objects in them: a listing asks for the
   same few, and a tuple does not change, so one serves them all. A key takes its slot over from
   the one there. */
#define ATS_BITS 6
static struct {
    PyObject *at; /* held */
    Py_hash_t hash;
} ats[1 << ATS_BITS];

/* the tuple of `items[0..n)` (n <= 5) and its hash: a new reference, NULL on error */
static PyObject *at_key(PyObject *const *items, Py_ssize_t n, Py_hash_t *hash)
{
    uint64_t x = (uint64_t)n;
    for (Py_ssize_t i = 0; i < n; i++)
        x = (x ^ ((uintptr_t)items[i] >> 4)) * 0x9E3779B97F4A7C15ULL;
    __typeof__(ats[0]) *m = &ats[x >> (64 - ATS_BITS)];
    if (m->at && PyTuple_GET_SIZE(m->at) == n) {
        Py_ssize_t i = 0;
        while (i < n && PyTuple_GET_ITEM(m->at, i) == items[i])
            i++;
        if (i == n) {
            *hash = m->hash;
            Py_INCREF(m->at);
            return m->at;
        }
    }
    PyObject *at = PyTuple_New(n);
    if (!at)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_INCREF(items[i]);
        PyTuple_SET_ITEM(at, i, items[i]);
    }
    Py_hash_t h = PyObject_Hash(at);
    if (h == -1) {
        Py_DECREF(at);
        return NULL;
    }
    PyObject *old = m->at;
    Py_INCREF(at);
    m->at = at;
    m->hash = h;
    Py_XDECREF(old);
    *hash = h;
    return at;
}

/* SeatPayments.fronts(colour, generic, purpose, second=False, take=None, also=()) */
static PyObject *seat_fronts_impl(Seat *s, PyObject *colour, PyObject *generic, PyObject *purpose, PyObject *second,
                                  PyObject *take, PyObject *also)
{
    PyObject *mine = s->known;
    if (!mine) {
        mine = seat_memo(s);
        if (!mine)
            return NULL;
        if (!PyDict_Check(mine)) {
            Py_DECREF(mine);
            PyErr_SetString(PyExc_TypeError, "_walk.Seat: the memo's entry is a dict");
            return NULL;
        }
        s->known = mine;
    }
    /* (an exact str compared in place: `purpose == "route"`) */
    int route = purpose == s_route ? 1
                : PyUnicode_CheckExact(purpose) ? PyUnicode_GET_LENGTH(purpose) == PyUnicode_GET_LENGTH(s_route)
                                                       && same_str(purpose, s_route)
                                                 : PyObject_RichCompareBool(purpose, s_route, Py_EQ);
    if (route < 0)
        return NULL;
    PyObject *kind = route ? s_route : s_buy;
    PyObject *at, *tc = NULL, *tl = NULL;
    Py_hash_t h = -1;
    if (take == Py_None) {
        PyObject *items[3] = {colour, kind, second};
        at = at_key(items, 3, &h);
    } else {
        if (!(tc = PyObject_GetAttr(take, s_colour)) || !(tl = PyObject_GetAttr(take, s_length))) {
            Py_XDECREF(tc);
            return NULL;
        }
        PyObject *items[5] = {colour, kind, second, tc, tl};
        at = at_key(items, 5, &h);
    }
    PyObject *known = NULL, *contracts = NULL, *left = NULL, *targets = NULL, *got = NULL, *out = NULL;
    if (!at)
        goto done;
    known = GET_KNOWN(mine, at, h);
    if (!known && PyErr_Occurred())
        goto done;
    Py_XINCREF(known);
    int also_true = PyObject_IsTrue(also);
    if (also_true < 0)
        goto done;
    int need = !known;
    if (!need) {
        int has = PySequence_Contains(known, generic);
        if (has < 0)
            goto done;
        need = !has;
        if (!need && also_true) {
            PyObject *it = PyObject_GetIter(also), *t;
            if (!it)
                goto done;
            while (!need && (t = PyIter_Next(it))) {
                has = PySequence_Contains(known, t);
                Py_DECREF(t);
                if (has < 0)
                    break;
                need = !has;
            }
            Py_DECREF(it);
            if (PyErr_Occurred())
                goto done;
        }
    }
    if (!need) {
        out = known;
        known = NULL;
        goto done;
    }
    if (take == Py_None) {
        contracts = s->contracts;
        left = s->left;
        Py_INCREF(contracts);
        Py_INCREF(left);
    } else { /* payways._taking: the contract taken told seat_walk apart (tc, tl) */
        contracts = s->contracts;
        Py_INCREF(contracts);
        PyObject *one = PyLong_FromLong(1);
        left = one ? PyNumber_Subtract(s->left, one) : NULL;
        Py_XDECREF(one);
        if (!left)
            goto done;
    }
    if (!known) {
        if (!also_true)
            targets = single_price(generic);
        else {
            int has = PySequence_Contains(also, generic);
            if (has < 0)
                goto done;
            if (has) {
                PyObject *seq = PySequence_Tuple(also);
                if (!seq)
                    goto done;
                Py_ssize_t n = PyTuple_GET_SIZE(seq);
                int rising = 1;
                for (Py_ssize_t k = 1; k < n && rising; k++) {
                    int ge = PyObject_RichCompareBool(PyTuple_GET_ITEM(seq, k - 1), PyTuple_GET_ITEM(seq, k), Py_GE);
                    if (ge < 0) {
                        Py_DECREF(seq);
                        goto done;
                    }
                    rising = !ge;
                }
                if (rising && PyTuple_CheckExact(also)) {
                    targets = also;
                    Py_INCREF(targets);
                } else if (rising)
                    targets = seq; /* (the tuple of a sequence: walked the same) */
                else
                    targets = sorted_set(seq, NULL, NULL);
                if (targets != seq)
                    Py_DECREF(seq);
            } else
                targets = sorted_set(also, generic, NULL);
        }
        if (!targets)
            goto done;
        got = seat_walk(s, colour, route, second, contracts, left, targets, tc, tl);
        if (!got || SET_KNOWN(mine, at, got, h) < 0)
            goto done;
        out = got;
        got = NULL;
    } else { /* the prices not yet known */
        if (!PyDict_Check(known)) {
            PyErr_SetString(PyExc_TypeError, "_walk.Seat: a memo's fronts are a dict");
            goto done;
        }
        if (!(targets = sorted_set(also, generic, known)))
            goto done;
        got = seat_walk(s, colour, route, second, contracts, left, targets, tc, tl);
        if (!got || PyDict_Update(known, got) < 0)
            goto done;
        out = known;
        known = NULL;
    }
done:
    Py_XDECREF(tc);
    Py_XDECREF(tl);
    Py_XDECREF(at);
    Py_XDECREF(known);
    Py_XDECREF(contracts);
    Py_XDECREF(left);
    Py_XDECREF(targets);
    Py_XDECREF(got);
    return out;
}

/* the arguments (colour, generic, purpose, second=False, take=None, also=()) */
static int seat_args(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, PyObject **out, const char *name)
{
    static const char *names[6] = {"colour", "generic", "purpose", "second", "take", "also"};
    out[0] = out[1] = out[2] = NULL;
    out[3] = Py_False;
    out[4] = Py_None;
    out[5] = NULL; /* () */
    if (nargs > 6) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most 6 arguments (%zd given)", name, nargs);
        return -1;
    }
    for (Py_ssize_t k = 0; k < nargs; k++)
        out[k] = args[k];
    Py_ssize_t nk = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nk; k++) {
        PyObject *kw = PyTuple_GET_ITEM(kwnames, k);
        int f = 0;
        while (f < 6 && !(PyUnicode_Check(kw) && PyUnicode_CompareWithASCIIString(kw, names[f]) == 0))
            f++;
        if (f == 6 || f < nargs) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected or repeated keyword argument %R", name, kw);
            return -1;
        }
        out[f] = args[nargs + k];
    }
    if (!out[0] || !out[1] || !out[2]) {
        PyErr_Format(PyExc_TypeError, "%s() missing a required argument (colour, generic, purpose)", name);
        return -1;
    }
    return 0;
}

static PyObject *empty_tuple;

static PyObject *seat_fronts(Seat *s, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *a[6];
    if (seat_args(args, nargs, kwnames, a, "fronts"))
        return NULL;
    return seat_fronts_impl(s, a[0], a[1], a[2], a[3], a[4], a[5] ? a[5] : empty_tuple);
}

static PyObject *seat_front(Seat *s, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *a[6];
    if (seat_args(args, nargs, kwnames, a, "front"))
        return NULL;
    PyObject *all = seat_fronts_impl(s, a[0], a[1], a[2], a[3], a[4], a[5] ? a[5] : empty_tuple);
    if (!all)
        return NULL;
    PyObject *f = PyObject_GetItem(all, a[1]);
    Py_DECREF(all);
    if (!f)
        return NULL;
    PyObject *r = PyTuple_Pack(2, f, s->toks);
    Py_DECREF(f);
    return r;
}

/* SeatPayments.best(colour, generic, purpose, second=False, take=None): the tokens of the first
   payment of the front (payways.tokens_of), None where there is none */
static PyObject *seat_best(Seat *s, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *a[6];
    if (seat_args(args, nargs, kwnames, a, "best"))
        return NULL;
    if (a[5]) {
        PyErr_SetString(PyExc_TypeError, "best() takes no `also`");
        return NULL;
    }
    PyObject *all = seat_fronts_impl(s, a[0], a[1], a[2], a[3], a[4], empty_tuple);
    if (!all)
        return NULL;
    PyObject *front = PyObject_GetItem(all, a[1]);
    Py_DECREF(all);
    if (!front)
        return NULL;
    PyObject *out = NULL, *spent = NULL;
    Py_ssize_t n;
    int made = Py_IS_TYPE(front, &FrontType);
    if (!(made || PyTuple_Check(front)) || !PyTuple_Check(s->toks)) {
        PyErr_SetString(PyExc_TypeError, "_walk.Seat: a front is a tuple or a Front, the tokens a tuple");
        goto done;
    }
    if (!Py_SIZE(front)) {
        out = Py_None;
        Py_INCREF(out);
        goto done;
    }
    if (made) { /* its first payment, made */
        if (!(spent = front_item((FrontObj *)front, 0)))
            goto done;
    } else {
        spent = PyTuple_GET_ITEM(front, 0);
        Py_INCREF(spent);
    }
    if (!PyTuple_Check(spent) || (n = PyTuple_GET_SIZE(spent)) > PyTuple_GET_SIZE(s->toks)) {
        PyErr_SetString(PyExc_TypeError, "_walk.Seat: a payment is a tuple of counts per class");
        goto done;
    }
    if (!(out = PyList_New(0)))
        goto done;
    for (Py_ssize_t j = 0; j < n; j++) {
        Py_ssize_t x = PyLong_AsSsize_t(PyTuple_GET_ITEM(spent, j));
        if (x == -1 && PyErr_Occurred())
            goto fail;
        if (x <= 0)
            continue;
        PyObject *tj = PyTuple_GET_ITEM(s->toks, j);
        if (!PyTuple_Check(tj))
            goto fail;
        for (Py_ssize_t k = 0; k < x && k < PyTuple_GET_SIZE(tj); k++)
            if (PyList_Append(out, PyTuple_GET_ITEM(tj, k)) < 0)
                goto fail;
    }
    goto done;
fail:
    if (!PyErr_Occurred())
        PyErr_SetString(PyExc_TypeError, "_walk.Seat: the tokens of each class are a tuple");
    Py_CLEAR(out);
done:
    Py_XDECREF(spent);
    Py_DECREF(front);
    return out;
}

static PyMethodDef seat_methods[] = {
    {"best", (PyCFunction)(void (*)(void))seat_best, METH_FASTCALL | METH_KEYWORDS,
     "payways.SeatPayments.best compiled: the tokens of the engine's payment of one price, or None."},
    {"fronts", (PyCFunction)(void (*)(void))seat_fronts, METH_FASTCALL | METH_KEYWORDS,
     "payways.SeatPayments.fronts compiled: {price: front} of `generic` and each price of `also`."},
    {"front", (PyCFunction)(void (*)(void))seat_front, METH_FASTCALL | METH_KEYWORDS,
     "payways.SeatPayments.front compiled: (front, tokens) of one price."},
    {NULL, NULL, 0, NULL},
};

#include <structmember.h>

static PyMemberDef seat_members[] = {
    {"keys", T_OBJECT, offsetof(Seat, keys), READONLY, "the hand's classes"},
    {"counts", T_OBJECT, offsetof(Seat, counts), READONLY, "how many tokens of each class"},
    {"toks", T_OBJECT, offsetof(Seat, toks), READONLY, "the tokens of each class"},
    {"hand", T_OBJECT, offsetof(Seat, hand), READONLY, "the hand's signature"},
    {"contracts", T_OBJECT, offsetof(Seat, contracts), READONLY, "(colour, empty squares) of each contract"},
    {"left", T_OBJECT, offsetof(Seat, left), READONLY, "the cubes in supply"},
    {"known", T_OBJECT, offsetof(Seat, known), READONLY, "the memo's entry, once asked (else None)"},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject SeatType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "rolling.games.freight._walk.Seat",
    .tp_basicsize = sizeof(Seat),
    .tp_dealloc = (destructor)seat_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Seat(state, seat): payways.SeatPayments compiled (the seat's hand and contracts read once).",
    .tp_methods = seat_methods,
    .tp_members = seat_members,
    .tp_new = seat_new,
    .tp_vectorcall = seat_vectorcall,
};

/* seat_setup(plain, storing, die_tokens, marker_classes, info_tables, hand, class_info, seat_fronts,
   fronts, max_listed, direct, memo) */
static PyObject *seat_setup(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 12) {
        PyErr_Format(PyExc_TypeError, "seat_setup() takes 12 arguments (%zd given)", nargs);
        return NULL;
    }
    if (!PyDict_CheckExact(args[0]) || !PyDict_CheckExact(args[1]) || !PyTuple_CheckExact(args[2])
        || !PyTuple_CheckExact(args[3]) || !PyDict_CheckExact(args[4]) || !PyCallable_Check(args[5])
        || !PyCallable_Check(args[6]) || !PyCallable_Check(args[7]) || !PyCallable_Check(args[8])
        || !PyLong_Check(args[9])) {
        PyErr_SetString(PyExc_TypeError, "seat_setup(): arguments not as payways passes them");
        return NULL;
    }
    int direct = PyObject_IsTrue(args[10]);
    if (direct < 0)
        return NULL;
    PyObject **slot[11] = {&cfg.plain, &cfg.storing, &cfg.die_tokens, &cfg.marker_classes, &cfg.info_tables,
                           &cfg.py_hand, &cfg.class_info, &cfg.py_seat_fronts, &cfg.py_fronts, &cfg.max_listed,
                           NULL};
    if (args[4] != cfg.info_tables) /* a new table of tables: the tables remembered forgotten */
        for (; cfg.ntables > 0; cfg.ntables--) {
            Py_CLEAR(cfg.tables[cfg.ntables - 1].colour);
            Py_CLEAR(cfg.tables[cfg.ntables - 1].table);
        }
    slot[10] = &cfg.memo;
    for (int k = 0; k < 11; k++) {
        PyObject *a = args[k < 10 ? k : 11];
        Py_INCREF(a);
        Py_XSETREF(*slot[k], a);
    }
    cfg.direct = direct;
    cfg.ready = 1;
    Py_RETURN_NONE;
}

static int seat_init_module(PyObject *m)
{
    static const char *names[] = {"players", "map", "links", "cubes", "comp", "box", "cubes_per_player", "dice",
                                  "spent", "die_kinds", "improvements", "markers", "contracts", "colour", "length",
                                  "route", "buy", "contract", "Efficient Storage", "young", "old", "size", "put"};
    PyObject **slots[] = {&s_players, &s_map, &s_links, &s_cubes, &s_comp, &s_box, &s_cubes_per_player,
                          &s_dice, &s_spent, &s_die_kinds, &s_improvements, &s_markers, &s_contracts,
                          &s_colour, &s_length, &s_route, &s_buy, &s_contract, &s_storage, &s_young, &s_old, &s_size,
                          &s_put};
    for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
        if (!*slots[k] && !(*slots[k] = PyUnicode_InternFromString(names[k])))
            return -1;
    PyObject *player_names[N_SEAT_PLAYER] = {s_improvements, s_dice, s_spent, s_die_kinds, s_markers, s_contracts};
    for (int k = 0; k < N_SEAT_PLAYER; k++)
        seat_player_names[k] = player_names[k];
    seat_link_names[0] = s_colour;
    seat_link_names[1] = s_length;
    seat_map_names[0] = s_links;
    seat_comp_names[0] = s_box;
    if (!empty_tuple && !(empty_tuple = PyTuple_New(0)))
        return -1;
    if (PyType_Ready(&SeatType) < 0 || PyType_Ready(&FrontType) < 0)
        return -1;
    Py_INCREF(&FrontType);
    if (PyModule_AddObject(m, "Front", (PyObject *)&FrontType) < 0) {
        Py_DECREF(&FrontType);
        return -1;
    }
    Py_INCREF(&SeatType);
    if (PyModule_AddObject(m, "Seat", (PyObject *)&SeatType) < 0) {
        Py_DECREF(&SeatType);
        return -1;
    }
    return 0;
}

static PyObject *walks_by_width(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return Py_BuildValue("(KKKK)", by_width[0], by_width[1], by_width[2], by_width[3]);
}

static PyMethodDef methods[] = {
    {"fronts", (PyCFunction)(void (*)(void))walk_fronts, METH_FASTCALL,
     "fronts(table, keys, counts, contracts, left, second, no_colour, targets, max_listed) -> dict | None\n\n"
     "payways._fronts_py compiled, each class's _class_info from `table` (KeyError: a class not there):\n"
     "price -> tuple of payments (tokens\n"
     "spent per class), best first. None where the walk's numbers do not fit in fixed-width integers\n"
     "(walk it in Python)."},
    {"hand", (PyCFunction)(void (*)(void))walk_hand, METH_FASTCALL,
     "hand(dice, spent, kinds, both, plain, storing, markers, die_tokens, marker_classes) -> tuple | None\n\n"
     "payways._hand_py compiled: (classes, counts, tokens of each, signature). None where the hand is\n"
     "not as payways keeps it (group it in Python)."},
    {"seat_setup", (PyCFunction)(void (*)(void))seat_setup, METH_FASTCALL,
     "seat_setup(plain, storing, die_tokens, marker_classes, info_tables, hand, class_info, seat_fronts, fronts,\n"
     "max_listed, direct, memo) -> None\n\n"
     "What Seat reads (payways' tables) and the Python functions it falls back on; `direct` false: every\n"
     "walk through `fronts` (payways.recorded_walks)."},
    {"walks_by_width", walks_by_width, METH_NOARGS,
     "walks_by_width() -> (one, two, three, four)\n\n"
     "How many walks since import held their partial states in one, two, three and four 64-bit\n"
     "words (each field as wide as the walk's largest sum of it; the answers are the same whichever)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_walk", "Rolling Freight's payment fronts, compiled (payways._fronts_py; issue 34).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__walk(void)
{
    for (int k = 0; k < 64; k++)
        if (!digits[k] && !(digits[k] = PyLong_FromLong(k)))
            return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m && seat_init_module(m) < 0)
        Py_CLEAR(m);
    return m;
}
