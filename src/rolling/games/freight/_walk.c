/* The payment fronts of Rolling Freight, compiled (issue 34: a faster Freight engine).

   `fronts(infos, counts, bits, inside, left, second, no_colour, targets, max_listed)` is
   `rolling.games.freight.payways._fronts_py` step for step (its set-up, the walk `_run` with
   `_choices`, the second walk of odd prices, the Pareto front of each price), with the same
   result: a dict price -> tuple of payments, each a tuple of tokens spent per class. See those
   functions for what the packed integers mean. Python's integers are unbounded; here a partial
   state is a 256-bit unsigned integer (four 64-bit limbs, added with carries as Python adds
   them), a payment and a key are 128-bit integers. A walk whose numbers do not fit (a partial
   state of more than 248 bits, a payment of 127 bits or more, a price of 63 units or more)
   returns None and the caller walks it in Python: the answers never depend on which one walked.

   The rules this serves are in payways.py; nothing here decides anything the Python walk does
   not. Built as an optional extension: where no C compiler is found the package installs without
   it and payways walks in Python. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;
typedef __int128 i128;

#define LIMBS 4
#define MAX_PS 248 /* the units paid sit above bit ps and stay under 64 */
#define W 10       /* payways._W: the bits of one counted item */

typedef struct {
    uint64_t w[LIMBS];
} S;

static inline void s_add(S *r, const S *a, const S *b)
{
    u128 c = 0;
    for (int i = 0; i < LIMBS; i++) {
        c += (u128)a->w[i] + b->w[i];
        r->w[i] = (uint64_t)c;
        c >>= 64;
    }
}

/* bits [lo, lo + n) of a, 0 < n <= 64 */
static inline uint64_t s_bits(const S *a, int lo, int n)
{
    int i = lo >> 6, o = lo & 63;
    uint64_t v = i < LIMBS ? a->w[i] >> o : 0;
    if (o && i + 1 < LIMBS)
        v |= a->w[i + 1] << (64 - o);
    return n >= 64 ? v : v & (((uint64_t)1 << n) - 1);
}

static inline int s_eq(const S *a, const S *b)
{
    return a->w[0] == b->w[0] && a->w[1] == b->w[1] && a->w[2] == b->w[2] && a->w[3] == b->w[3];
}

static inline uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDULL;
    h ^= h >> 33;
    return h;
}

static inline uint64_t s_hash(const S *a)
{
    return mix(a->w[0] * 0x9E3779B97F4A7C15ULL ^ a->w[1] * 0xC2B2AE3D27D4EB4FULL
               ^ a->w[2] * 0x165667B19E3779F9ULL ^ a->w[3] * 0x27D4EB2F165667C5ULL);
}

/* value << sh as a state (value < 2**64, sh < 256) */
static inline S s_shifted(uint64_t value, int sh)
{
    S r = {{0, 0, 0, 0}};
    int i = sh >> 6, o = sh & 63;
    if (i < LIMBS)
        r.w[i] = value << o;
    if (o && i + 1 < LIMBS)
        r.w[i + 1] = value >> (64 - o);
    return r;
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

static int to_s(PyObject *v, S *out) { return to_limbs(v, out->w, LIMBS); }

static int to_i64(PyObject *v, int64_t *out)
{
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

/* ---- tables: a partial state -> its best payment so far (the largest) ---- */

typedef struct {
    S key;
    u128 val;
} Ent;

typedef struct {
    Ent *e;
    unsigned char *used;
    size_t cap, n;
} Tab;

static int tab_init(Tab *t, size_t cap)
{
    t->cap = cap;
    t->n = 0;
    t->e = malloc(cap * sizeof(Ent));
    t->used = calloc(cap, 1);
    return t->e && t->used ? 0 : -1;
}

static void tab_free(Tab *t)
{
    free(t->e);
    free(t->used);
    t->e = NULL;
    t->used = NULL;
}

static void tab_clear(Tab *t)
{
    memset(t->used, 0, t->cap);
    t->n = 0;
}

static int tab_grow(Tab *t);

/* keep `val` for `key` if it is larger than what is kept (Python: `if q > get(ns, -1)`) */
static inline int tab_max(Tab *t, const S *key, u128 val)
{
    size_t m = t->cap - 1, i = s_hash(key) & m;
    while (t->used[i]) {
        if (s_eq(&t->e[i].key, key)) {
            if (val > t->e[i].val)
                t->e[i].val = val;
            return 0;
        }
        i = (i + 1) & m;
    }
    t->used[i] = 1;
    t->e[i].key = *key;
    t->e[i].val = val;
    if (++t->n * 2 > t->cap)
        return tab_grow(t);
    return 0;
}

static int tab_grow(Tab *t)
{
    Tab g;
    if (tab_init(&g, t->cap * 2))
        return -1;
    size_t m = g.cap - 1;
    for (size_t k = 0; k < t->cap; k++) {
        if (!t->used[k])
            continue;
        size_t i = s_hash(&t->e[k].key) & m;
        while (g.used[i])
            i = (i + 1) & m;
        g.used[i] = 1;
        g.e[i] = t->e[k];
    }
    g.n = t->n;
    tab_free(t);
    *t = g;
    return 0;
}

/* ---- a class's choices (payways._choices) ---- */

typedef struct {
    int du;      /* units paid */
    S d;         /* packed change */
    uint64_t fl; /* flags set */
    u128 dq;     /* payment digit */
} Ch;

/* a class of tokens in a walk: payways._fronts_py's `walked` entry, with its choices for one
   `use` (units per token) */
typedef struct {
    int j, pays, whole, u;
    uint64_t cover, route;
    S one;
    u128 place;
    Ch *free_, *paying;
    int nfree, npaying;
} Cls;

/* the packed change of spending x tokens of the class (payways: `one * x`) */
static inline S times(const S *one, int x)
{
    S r = {{0, 0, 0, 0}};
    for (int k = 0; k < x; k++)
        s_add(&r, &r, one);
    return r;
}

/* payways: `flags[x]` = (cover if x < whole else 0) | (route if x else 0); for one token
   (cover, route) alike */
static inline uint64_t flags_of(const Cls *c, int x)
{
    return (x < c->whole ? c->cover : 0) | (x ? c->route : 0);
}

/* The class's choices for `u` units a token (payways._choices), fewest units first. */
static int choices(Cls *c, int u, int ps)
{
    int whole = c->whole;
    free(c->free_);
    free(c->paying);
    c->u = u;
    c->free_ = malloc((whole + 1) * sizeof(Ch));
    c->paying = malloc((2 * whole + 2) * sizeof(Ch));
    if (!c->free_ || !c->paying)
        return -1;
    int nf = 0, np = 0;
    int xs = u ? whole : 0;
    for (int x = 0; x <= xs; x++) {
        Ch ch;
        ch.du = x * u;
        S unit = s_shifted((uint64_t)(x * u), ps);
        S add = times(&c->one, x);
        s_add(&ch.d, &unit, &add);
        ch.fl = flags_of(c, x);
        ch.dq = (u128)x * c->place;
        c->free_[nf++] = ch;
    }
    if (c->pays) {
        /* also: x tokens paying units and one more paying the colour die */
        for (int x = 0; x <= xs; x++)
            c->paying[np++] = c->free_[x];
        for (int x = 0; x <= xs && x < whole; x++) {
            Ch ch;
            ch.du = x * u;
            S unit = s_shifted((uint64_t)(x * u), ps);
            S add = times(&c->one, x + 1);
            s_add(&ch.d, &unit, &add);
            ch.fl = flags_of(c, x + 1) | 1;
            ch.dq = (u128)(x + 1) * c->place;
            c->paying[np++] = ch;
        }
        /* stable insertion sort by units: the walk stops at the first choice over the top price */
        for (int a = 1; a < np; a++) {
            Ch t = c->paying[a];
            int b = a - 1;
            while (b >= 0 && c->paying[b].du > t.du) {
                c->paying[b + 1] = c->paying[b];
                b--;
            }
            c->paying[b + 1] = t;
        }
    } else {
        memcpy(c->paying, c->free_, nf * sizeof(Ch));
        np = nf;
    }
    c->nfree = nf;
    c->npaying = np;
    return 0;
}

/* The final table is a Tab too: a (price, key) pair is packed in a state's limbs (key_of). */
static inline S key_of(int price, i128 key)
{
    S k = {{(uint64_t)(u128)key, (uint64_t)((u128)key >> 64), (uint64_t)price, 0}};
    return k;
}

/* What a walk needs besides its classes (payways._run's arguments). */
typedef struct {
    int ps, ncuts;
    int64_t cap;
    int64_t cc[64];  /* each cut's constant less the cap */
    int cpos[64];    /* each cut's field in a partial state */
    i128 fixed;      /* (cap << 6W) + the kept totals */
} Walk;

/* payways._run: each (price, key) reached, with its best payment, into `fin` (price `t`
   recorded as `t + shift_t`, so that the odd walk lands on its even prices). -1: no memory. */
static int walk_core(Cls *cls, int n, const int *use, uint64_t start, uint64_t tmask, int top_t, const Walk *w,
                     Tab *fin, int shift_t)
{
    int ps = w->ps;
    uint64_t reach[65], owed[65];
    reach[n] = 1;
    owed[n] = 0;
    for (int i = n - 1; i >= 0; i--) {
        int u = use[cls[i].j];
        if (cls[i].u != u || !cls[i].free_)
            if (choices(&cls[i], u, ps))
                return -1;
        uint64_t r = reach[i + 1];
        if (u)
            for (int x = 1; x <= cls[i].whole && x * u < 64; x++)
                r |= reach[i + 1] << (x * u);
        reach[i] = r;
        owed[i] = owed[i + 1] | (cls[i].pays ? 1 : 0) | (flags_of(&cls[i], cls[i].whole) & 2);
    }
    Tab a = {0}, b = {0};
    int err = -1;
    if (tab_init(&a, 64) || tab_init(&b, 64))
        goto out;
    S st0 = {{start, 0, 0, 0}};
    if (tab_max(&a, &st0, 0))
        goto out;
    Tab *states = &a, *next = &b;
    for (int i = 0; i + 1 < n; i++) {
        const Cls *c = &cls[i];
        uint64_t after = reach[i + 1], left_owed = owed[i + 1];
        tab_clear(next);
        for (size_t k = 0; k < states->cap; k++) {
            if (!states->used[k])
                continue;
            const S *st = &states->e[k].key;
            u128 path = states->e[k].val;
            int paid = (int)s_bits(st, ps, 64);
            const Ch *ch = (st->w[0] & 1) ? c->free_ : c->paying;
            int nch = (st->w[0] & 1) ? c->nfree : c->npaying;
            for (int q = 0; q < nch; q++) {
                int np = paid + ch[q].du;
                if (np > top_t)
                    break;
                if (!((tmask >> np) & after))
                    continue;
                S ns;
                s_add(&ns, st, &ch[q].d);
                ns.w[0] |= ch[q].fl;
                if (((ns.w[0] | left_owed) & 3) != 3)
                    continue;
                if (tab_max(next, &ns, path + ch[q].dq))
                    goto out;
            }
        }
        Tab *t = states;
        states = next;
        next = t;
    }
    /* The last class completes each partial payment, keyed at once. */
    Ch none = {0, {{0, 0, 0, 0}}, 0, 0};
    const Ch *lfree = &none, *lpaying = &none;
    int nlfree = 1, nlpaying = 1;
    if (n) {
        lfree = cls[n - 1].free_;
        lpaying = cls[n - 1].paying;
        nlfree = cls[n - 1].nfree;
        nlpaying = cls[n - 1].npaying;
    }
    const uint64_t spent_mask = ((uint64_t)1023) | ((uint64_t)1023 << 2 * W) | ((uint64_t)1023 << 3 * W)
                                | ((uint64_t)1023 << 4 * W);
    const uint64_t money_mask = (uint64_t)1023 << 5 * W;
    for (size_t k = 0; k < states->cap; k++) {
        if (!states->used[k])
            continue;
        const S *st = &states->e[k].key;
        u128 path = states->e[k].val;
        int paid = (int)s_bits(st, ps, 64);
        const Ch *ch = (st->w[0] & 1) ? lfree : lpaying;
        int nch = (st->w[0] & 1) ? nlfree : nlpaying;
        for (int q = 0; q < nch; q++) {
            int np = paid + ch[q].du;
            if (np > top_t)
                break;
            if (!((tmask >> np) & 1))
                continue;
            S ns;
            s_add(&ns, st, &ch[q].d);
            ns.w[0] |= ch[q].fl;
            if ((ns.w[0] & 3) != 3)
                continue;
            uint64_t v = s_bits(&ns, 7, 6 * W);
            int64_t low = 0;
            for (int g = 0; g < w->ncuts; g++) {
                int64_t x = (int64_t)s_bits(&ns, w->cpos[g], W) - w->cc[g];
                if (x > low)
                    low = x;
            }
            i128 key = w->fixed - (i128)(v & spent_mask) + (i128)(v & money_mask)
                       + ((i128)__builtin_popcountll((ns.w[0] >> 2) & 31) << W) - ((i128)low << 6 * W);
            S fk = key_of(np + shift_t, key);
            if (tab_max(fin, &fk, path + ch[q].dq))
                goto out;
        }
    }
    err = 0;
out:
    tab_free(&a);
    tab_free(&b);
    return err;
}

/* ---- the fronts ---- */

typedef struct {
    i128 key;
    u128 val;
} KV;

static int kv_desc(const void *a, const void *b)
{
    i128 x = ((const KV *)a)->key, y = ((const KV *)b)->key;
    return (x < y) - (x > y);
}

/* payways._GUARDS: the top bit of each of the seven fields of a key */
static u128 guards(void)
{
    u128 g = 0;
    for (int f = 0; f < 7; f++)
        g |= (u128)1 << (W * f + W - 1);
    return g;
}

static PyObject *walk_fronts(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *infos, *counts, *bits, *inside, *targets;
    long long left;
    int second, no_colour, max_listed;
    if (!PyArg_ParseTuple(args, "O!O!O!O!LppO!i", &PyList_Type, &infos, &PyTuple_Type, &counts, &PyDict_Type, &bits,
                          &PyTuple_Type, &inside, &left, &second, &no_colour, &PyTuple_Type, &targets, &max_listed))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(infos);
    Py_ssize_t nin = PyTuple_GET_SIZE(inside);
    int nc = 0;
    while (((Py_ssize_t)1 << nc) < nin)
        nc++;
    if (PyTuple_GET_SIZE(counts) != n || ((Py_ssize_t)1 << nc) != nin || nc > 6 || n > 60)
        Py_RETURN_NONE;

    PyObject *result = NULL;
    Cls *cls = calloc(n ? n : 1, sizeof(Cls));
    int *use = calloc(n ? n : 1, sizeof(int));
    int *twos = calloc(n ? n : 1, sizeof(int));
    uint64_t *fbits = calloc(n ? n : 1, sizeof(uint64_t));
    int64_t *ins = calloc(nin, sizeof(int64_t));
    KV *kv = NULL;
    Tab fin = {0};
    Cls *walked = NULL;
    int nw = 0;
    Walk w;
    int r = 1;
    if (!cls || !use || !twos || !fbits || !ins) {
        PyErr_NoMemory();
        goto out;
    }
    for (Py_ssize_t m = 0; m < nin; m++)
        if ((r = to_i64(PyTuple_GET_ITEM(inside, m), &ins[m])) != 1)
            goto unfit;

    /* per class: units, pays the colour die, packed items, cover bits, route bit, build weight,
       contracts fed (bits), kept totals */
    uint64_t every = ((uint64_t)1 << nc) - 1, fed = 0;
    int64_t count[61], weight[61], items[61][4];
    int maxcount = 0;
    for (Py_ssize_t j = 0; j < n; j++) {
        PyObject *info = PyList_GET_ITEM(infos, j);
        if (!PyTuple_Check(info) || PyTuple_GET_SIZE(info) != 8) {
            PyErr_SetString(PyExc_TypeError, "_walk.fronts: a class's info is an 8-tuple");
            goto out;
        }
        int64_t u, pays, cover, route, wt;
        if ((r = to_i64(PyTuple_GET_ITEM(info, 0), &u)) != 1 || (r = to_i64(PyTuple_GET_ITEM(info, 1), &pays)) != 1
            || (r = to_i64(PyTuple_GET_ITEM(info, 3), &cover)) != 1 || (r = to_i64(PyTuple_GET_ITEM(info, 4), &route)) != 1
            || (r = to_i64(PyTuple_GET_ITEM(info, 5), &wt)) != 1 || (r = to_i64(PyTuple_GET_ITEM(counts, j), &count[j])) != 1)
            goto unfit;
        if ((r = to_s(PyTuple_GET_ITEM(info, 2), &cls[j].one)) != 1)
            goto unfit;
        if (u < 0 || u > 62 || count[j] < 1 || count[j] > 60 || wt < 0 || wt > 1000 || cover < 0 || route < 0)
            goto unfit;
        PyObject *it = PyTuple_GET_ITEM(info, 7);
        if (!PyTuple_Check(it) || PyTuple_GET_SIZE(it) != 4) {
            PyErr_SetString(PyExc_TypeError, "_walk.fronts: a class's items are a 4-tuple");
            goto out;
        }
        for (int k = 0; k < 4; k++)
            if ((r = to_i64(PyTuple_GET_ITEM(it, k), &items[j][k])) != 1)
                goto unfit;
        PyObject *fd = PyTuple_GET_ITEM(info, 6);
        uint64_t f = 0;
        if (fd == Py_None)
            f = every;
        else {
            PyObject *iter = PyObject_GetIter(fd);
            if (!iter)
                goto out;
            PyObject *col;
            while ((col = PyIter_Next(iter))) {
                PyObject *b = PyDict_GetItemWithError(bits, col);
                Py_DECREF(col);
                if (!b && PyErr_Occurred()) {
                    Py_DECREF(iter);
                    goto out;
                }
                if (b) {
                    int64_t bv;
                    if ((r = to_i64(b, &bv)) != 1) {
                        Py_DECREF(iter);
                        goto unfit;
                    }
                    f |= (uint64_t)bv;
                }
            }
            Py_DECREF(iter);
            if (PyErr_Occurred())
                goto out;
        }
        fed |= f;
        fbits[j] = f;
        use[j] = (int)u;
        twos[j] = u == 2 ? 2 : 0;
        cls[j].j = (int)j;
        cls[j].pays = pays != 0;
        cls[j].whole = (int)count[j];
        cls[j].cover = (uint64_t)cover;
        cls[j].route = (uint64_t)route;
        cls[j].u = -1;
        weight[j] = wt;
        if (count[j] > maxcount)
            maxcount = (int)count[j];
    }

    /* the build cuts (payways._fronts_py) */
    int64_t total = ins[nin - 1];
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
    int ps = 7 + W * (6 + ncuts);
    int size = 0;
    while ((1 << size) <= maxcount)
        size++;
    if (ps > MAX_PS || size * n > 126 || cap < 0 || cap >= 512)
        goto unfit;
    int64_t t_units = 0, t_mk = 0, t_wo = 0, t_wi = 0;
    uint64_t start = second ? 0 : 2;
    if (no_colour)
        start |= 1;
    walked = calloc(n ? n : 1, sizeof(Cls));
    if (!walked) {
        PyErr_NoMemory();
        goto out;
    }
    int shift = size * (int)n;
    for (Py_ssize_t j = 0; j < n; j++) {
        Cls *c = &cls[j];
        int64_t cnt = count[j];
        shift -= size;
        t_units += items[j][0] * cnt;
        t_mk += items[j][1] * cnt;
        t_wo += items[j][2] * cnt;
        t_wi += items[j][3] * cnt;
        if (fbits[j])
            for (int g = 0; g < ncuts; g++)
                if (fbits[j] & (uint64_t)cuts[g]) {
                    cut_const[g] += weight[j] * cnt;
                    if (use[j] || c->pays) {
                        S add = s_shifted((uint64_t)weight[j], 7 + W * (6 + g));
                        s_add(&c->one, &c->one, &add);
                    }
                }
        if (use[j] == 0 && !c->pays) {
            start |= c->cover; /* never spent: kept whole */
            continue;
        }
        c->place = (u128)1 << shift;
        walked[nw++] = *c;
    }
    /* the classes that can pay the colour die first, then the fewest tokens (a stable sort) */
    for (int a = 1; a < nw; a++) {
        Cls t = walked[a];
        int b = a - 1;
        while (b >= 0 && ((!walked[b].pays) > (!t.pays) || ((!walked[b].pays) == (!t.pays) && walked[b].whole > t.whole))) {
            walked[b + 1] = walked[b];
            b--;
        }
        walked[b + 1] = t;
    }
    w.ps = ps;
    w.ncuts = ncuts;
    w.cap = cap;
    w.fixed = ((i128)cap << 6 * W) + ((i128)t_units << 4 * W) + ((i128)t_mk << 3 * W) + ((i128)t_wo << 2 * W) + t_wi;
    for (int g = 0; g < ncuts; g++) {
        w.cc[g] = cut_const[g] - cap;
        w.cpos[g] = 7 + W * (6 + g);
    }

    uint64_t tmask = 0, odd = 0;
    int top_t = -1, top_odd = -1;
    Py_ssize_t nt = PyTuple_GET_SIZE(targets);
    for (Py_ssize_t k = 0; k < nt; k++) {
        int64_t t;
        if ((r = to_i64(PyTuple_GET_ITEM(targets, k), &t)) != 1 || t < 0 || t > 62) {
            if (r < 0)
                goto out;
            goto unfit;
        }
        tmask |= (uint64_t)1 << t;
        if (t > top_t)
            top_t = (int)t;
        if (t % 2) {
            odd |= (uint64_t)1 << (t + 1);
            if (t + 1 > top_odd)
                top_odd = (int)t + 1;
        }
    }
    if (tab_init(&fin, 64)) {
        PyErr_NoMemory();
        goto out;
    }
    if (top_t >= 0 && walk_core(walked, nw, use, start, tmask, top_t, &w, &fin, 0)) {
        PyErr_NoMemory();
        goto out;
    }
    /* An any2 may pay a cost of one: an odd price may also be paid with two-unit tokens alone. */
    int has_two = 0;
    for (Py_ssize_t j = 0; j < n; j++)
        has_two |= use[j] == 2;
    if (odd && has_two && walk_core(walked, nw, twos, start, odd, top_odd, &w, &fin, -1)) {
        PyErr_NoMemory();
        goto out;
    }

    /* each price's front: best first, no key matched or beaten on every item by an earlier one */
    result = PyDict_New();
    kv = malloc((fin.n ? fin.n : 1) * sizeof(KV));
    if (!result || !kv) {
        if (!kv)
            PyErr_NoMemory();
        goto fail;
    }
    const u128 G = guards();
    const u128 digit = ((u128)1 << size) - 1;
    for (Py_ssize_t k = 0; k < nt; k++) {
        int t = (int)PyLong_AsLong(PyTuple_GET_ITEM(targets, k));
        size_t m = 0;
        for (size_t e = 0; e < fin.cap; e++)
            if (fin.used[e] && fin.e[e].key.w[2] == (uint64_t)t) {
                kv[m].key = (i128)(((u128)fin.e[e].key.w[1] << 64) | fin.e[e].key.w[0]);
                kv[m].val = fin.e[e].val;
                m++;
            }
        qsort(kv, m, sizeof(KV), kv_desc);
        size_t nf = 0;
        u128 guarded[256];
        PyObject *front = PyList_New(0);
        if (!front)
            goto fail;
        for (size_t e = 0; e < m && (int)nf < max_listed && nf < 256; e++) {
            u128 kk = (u128)kv[e].key;
            int beaten = 0;
            for (size_t o = 0; o < nf; o++)
                if (((guarded[o] - kk) & G) == G) {
                    beaten = 1;
                    break;
                }
            if (beaten)
                continue;
            guarded[nf++] = kk | G;
            PyObject *pay = PyTuple_New(n);
            if (!pay) {
                Py_DECREF(front);
                goto fail;
            }
            for (Py_ssize_t j = 0; j < n; j++) {
                int sh = size * (int)(n - 1 - j);
                PyObject *d = PyLong_FromLong(size ? (long)((kv[e].val >> sh) & digit) : 0);
                if (!d) {
                    Py_DECREF(pay);
                    Py_DECREF(front);
                    goto fail;
                }
                PyTuple_SET_ITEM(pay, j, d);
            }
            int bad = PyList_Append(front, pay) < 0;
            Py_DECREF(pay);
            if (bad) {
                Py_DECREF(front);
                goto fail;
            }
        }
        PyObject *tup = PyList_AsTuple(front);
        Py_DECREF(front);
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
    for (int k = 0; walked && k < nw; k++) {
        free(walked[k].free_);
        free(walked[k].paying);
    }
    free(walked);
    free(cls);
    free(use);
    free(twos);
    free(fbits);
    free(ins);
    free(kv);
    tab_free(&fin);
    if (!result && !PyErr_Occurred())
        Py_RETURN_NONE; /* does not fit: walk it in Python */
    return result;
}

static PyMethodDef methods[] = {
    {"fronts", walk_fronts, METH_VARARGS,
     "fronts(infos, counts, bits, inside, left, second, no_colour, targets, max_listed) -> dict | None\n\n"
     "payways._fronts_py compiled, from each class's _class_info: price -> tuple of payments (tokens\n"
     "spent per class), best first. None where the walk's numbers do not fit in fixed-width integers\n"
     "(walk it in Python)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_walk", "Rolling Freight's payment fronts, compiled (payways._fronts_py; issue 34).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__walk(void) { return PyModule_Create(&module); }
