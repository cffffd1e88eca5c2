/* The payment fronts of Rolling Freight, compiled (issue 34: a faster Freight engine).

   `fronts(infos, counts, bits, inside, left, second, no_colour, targets, max_listed)` is
   `rolling.games.freight.payways._fronts_py` step for step (its set-up, the walk `_run` with
   `_choices`, the second walk of odd prices, the Pareto front of each price), with the same
   result: a dict price -> tuple of payments, each a tuple of tokens spent per class. See those
   functions for what the packed integers mean. Python's integers are unbounded; here a partial
   state is an unsigned integer of two, three or four 64-bit limbs (added with carries as Python
   adds them; per walk the fewest that hold every sum the walk can make, so it is exact), a
   payment and a key are 128-bit integers. A walk whose numbers do not fit (a partial
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

/* A partial state is `nl` limbs of 64 bits, little end first: nl = 2, 3 or 4 per walk, the fewest
   its numbers fit (most walks: two). The helpers are inlined into one walk per width, where `nl`
   is a constant. */
#define ALWAYS static inline __attribute__((always_inline))

typedef struct {
    uint64_t w[LIMBS];
} S;

ALWAYS void s_add(uint64_t *r, const uint64_t *a, const uint64_t *b, int nl)
{
    if (nl == 2) { /* one 128-bit add (add, adc) */
        u128 x, y;
        memcpy(&x, a, sizeof(x));
        memcpy(&y, b, sizeof(y));
        x += y;
        memcpy(r, &x, sizeof(x));
        return;
    }
    u128 c = (u128)a[0] + b[0];
    r[0] = (uint64_t)c;
    c = (c >> 64) + a[1] + b[1];
    r[1] = (uint64_t)c;
    if (nl > 2) {
        c = (c >> 64) + a[2] + b[2];
        r[2] = (uint64_t)c;
    }
    if (nl > 3) {
        c = (c >> 64) + a[3] + b[3];
        r[3] = (uint64_t)c;
    }
}

/* bits [lo, lo + n) of a, 0 < n <= 64 */
ALWAYS uint64_t s_bits(const uint64_t *a, int lo, int n, int nl)
{
    int i = lo >> 6, o = lo & 63;
    uint64_t v = i < nl ? a[i] >> o : 0;
    if (o && i + 1 < nl)
        v |= a[i + 1] << (64 - o);
    return n >= 64 ? v : v & (((uint64_t)1 << n) - 1);
}

/* bits [67, 195) of a: the fields of the first twelve build cuts (payways: `ns >> first`) */
ALWAYS u128 s_cut_bits(const uint64_t *a, int nl)
{
    uint64_t lo = a[1] >> 3 | (nl > 2 ? a[2] << 61 : 0);
    uint64_t hi = nl > 2 ? (a[2] >> 3 | (nl > 3 ? a[3] << 61 : 0)) : 0;
    return (u128)hi << 64 | lo;
}

ALWAYS int s_eq(const uint64_t *a, const uint64_t *b, int nl)
{
    return a[0] == b[0] && a[1] == b[1] && (nl < 3 || a[2] == b[2]) && (nl < 4 || a[3] == b[3]);
}

static inline uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDULL;
    h ^= h >> 33;
    return h;
}

ALWAYS uint64_t s_hash(const uint64_t *a, int nl)
{
    uint64_t h = a[0] * 0x9E3779B97F4A7C15ULL ^ a[1] * 0xC2B2AE3D27D4EB4FULL;
    if (nl > 2)
        h ^= a[2] * 0x165667B19E3779F9ULL;
    if (nl > 3)
        h ^= a[3] * 0x27D4EB2F165667C5ULL;
    return mix(h);
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

/* Open addressing over `slot` (0 empty, else an entry's index + 1); the entries lie packed in
   order of arrival (keys of `nl` limbs each), so that a walk reads them and clears the table in
   the time of its entries, not of its capacity. Kept from one walk to the next (grown, never
   shrunk): no allocation in most walks. */
typedef struct {
    uint32_t *slot; /* cap */
    uint64_t *key;  /* cap / 2 entries of up to LIMBS limbs */
    u128 *val;      /* cap / 2 */
    uint32_t *at;   /* each entry's slot, to clear it */
    size_t cap, n;
} Tab;

static void tab_free(Tab *t)
{
    free(t->slot);
    free(t->key);
    free(t->val);
    free(t->at);
    memset(t, 0, sizeof(Tab));
}

/* an empty table of `cap` slots (a power of two), 0; -1 no memory (the table left empty) */
static int tab_init(Tab *t, size_t cap)
{
    tab_free(t);
    size_t room = cap / 2 + 1;
    t->slot = calloc(cap, sizeof(uint32_t));
    t->key = malloc(room * LIMBS * sizeof(uint64_t));
    t->val = malloc(room * sizeof(u128));
    t->at = malloc(room * sizeof(uint32_t));
    if (!t->slot || !t->key || !t->val || !t->at) {
        tab_free(t);
        return -1;
    }
    t->cap = cap;
    return 0;
}

/* empty, ready for a walk; -1 no memory */
static int tab_ready(Tab *t)
{
    if (!t->cap)
        return tab_init(t, 64);
    for (size_t e = 0; e < t->n; e++)
        t->slot[t->at[e]] = 0;
    t->n = 0;
    return 0;
}

/* twice the slots, the entries kept; -1 no memory (the table as it was) */
ALWAYS int tab_grow(Tab *t, int nl)
{
    size_t cap = t->cap * 2, room = cap / 2 + 1, m = cap - 1;
    uint32_t *slot = calloc(cap, sizeof(uint32_t));
    uint64_t *key = realloc(t->key, room * LIMBS * sizeof(uint64_t));
    if (key)
        t->key = key;
    u128 *val = realloc(t->val, room * sizeof(u128));
    if (val)
        t->val = val;
    uint32_t *at = realloc(t->at, room * sizeof(uint32_t));
    if (at)
        t->at = at;
    if (!slot || !key || !val || !at) {
        free(slot);
        return -1;
    }
    for (size_t e = 0; e < t->n; e++) {
        size_t i = s_hash(t->key + e * nl, nl) & m;
        while (slot[i])
            i = (i + 1) & m;
        slot[i] = (uint32_t)e + 1;
        t->at[e] = (uint32_t)i;
    }
    free(t->slot);
    t->slot = slot;
    t->cap = cap;
    return 0;
}

/* keep `val` for `key` if it is larger than what is kept (Python: `if q > get(ns, -1)`) */
ALWAYS int tab_max(Tab *t, const uint64_t *key, u128 val, int nl)
{
    size_t m = t->cap - 1, i = s_hash(key, nl) & m;
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
    memcpy(t->key + e * nl, key, nl * sizeof(uint64_t));
    t->val[e] = val;
    t->at[e] = (uint32_t)i;
    t->slot[i] = (uint32_t)e + 1;
    if (t->n * 2 > t->cap)
        return tab_grow(t, nl);
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
   `use` (units per token), in room for `whole + 1` and `2 * whole + 2` choices */
typedef struct {
    int j, pays, whole, u;
    uint64_t cover, route;
    S one;
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

/* The class's choices for `u` units a token (payways._choices), fewest units first. */
static void choices(Cls *c, int u, int ps)
{
    int whole = c->whole;
    c->u = u;
    /* the packed change of spending x tokens of the class (payways: `one * x`), x <= whole */
    S times[62];
    memset(&times[0], 0, sizeof(S));
    for (int x = 1; x <= whole; x++)
        s_add(times[x].w, times[x - 1].w, c->one.w, LIMBS);
    int nf = 0, np = 0;
    int xs = u ? whole : 0;
    for (int x = 0; x <= xs; x++) {
        Ch ch;
        ch.du = x * u;
        S unit = s_shifted((uint64_t)(x * u), ps);
        s_add(ch.d.w, unit.w, times[x].w, LIMBS);
        ch.fl = flags_of(c, x);
        ch.dq = (u128)x * c->place;
        c->free_[nf++] = ch;
    }
    if (c->pays) {
        /* also: x tokens paying units and one more paying the colour die; by units, as the walk
           stops at the first choice over the top price (among choices paying as many units the
           order changes nothing: each state keeps its best payment) */
        for (int x = 0; x <= xs; x++) {
            c->paying[np++] = c->free_[x];
            if (x < whole) {
                Ch ch;
                ch.du = x * u;
                S unit = s_shifted((uint64_t)(x * u), ps);
                s_add(ch.d.w, unit.w, times[x + 1].w, LIMBS);
                ch.fl = flags_of(c, x + 1) | 1;
                ch.dq = (u128)(x + 1) * c->place;
                c->paying[np++] = ch;
            }
        }
    } else {
        c->paying = c->free_; /* nothing to pay the colour die with: the same choices */
        np = nf;
    }
    c->nfree = nf;
    c->npaying = np;
}

/* What a walk needs besides its classes (payways._run's arguments). */
typedef struct {
    int ps, ncuts;
    int64_t cap;
    int64_t cc[64];  /* each cut's constant less the cap */
    int cpos[64];    /* each cut's field in a partial state */
    i128 fixed;      /* (cap << 6W) + the kept totals */
} Walk;

/* the colours covered by a state's kept classes (bits 2-6), counted */
static const unsigned char POP5[32] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                       1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5};

/* the tables of the partial states after each class, two in turn */
static Tab tab_a, tab_b;

/* payways._run with states of `nl` limbs: each (price, key) reached, with its best payment, into
   `fin` (keys of 3 limbs: the key's two, the price; price `t` recorded as `t + shift_t`, so that
   the odd walk lands on its even prices). -1: no memory. */
ALWAYS int walk_width(Cls *cls, int n, const int *use, uint64_t start, uint64_t tmask, int top_t, const Walk *w,
                      Tab *fin, int shift_t, int nl)
{
    int ps = w->ps;
    uint64_t reach[65], owed[65];
    reach[n] = 1;
    owed[n] = 0;
    for (int i = n - 1; i >= 0; i--) {
        int u = use[cls[i].j];
        if (cls[i].u != u)
            choices(&cls[i], u, ps);
        uint64_t r = reach[i + 1];
        if (u)
            for (int x = 1; x <= cls[i].whole && x * u < 64; x++)
                r |= reach[i + 1] << (x * u);
        reach[i] = r;
        owed[i] = owed[i + 1] | (cls[i].pays ? 1 : 0) | (flags_of(&cls[i], cls[i].whole) & 2);
    }
    if (tab_ready(&tab_a) || tab_ready(&tab_b))
        return -1;
    uint64_t st0[LIMBS] = {start, 0, 0, 0};
    if (tab_max(&tab_a, st0, 0, nl))
        return -1;
    Tab *states = &tab_a, *next = &tab_b;
    for (int i = 0; i + 1 < n; i++) {
        const Cls *c = &cls[i];
        uint64_t after = reach[i + 1], left_owed = owed[i + 1];
        if (tab_ready(next))
            return -1;
        for (size_t k = 0; k < states->n; k++) {
            const uint64_t *st = states->key + k * nl;
            u128 path = states->val[k];
            int paid = (int)s_bits(st, ps, 64, nl);
            const Ch *ch = (st[0] & 1) ? c->free_ : c->paying;
            int nch = (st[0] & 1) ? c->nfree : c->npaying;
            for (int q = 0; q < nch; q++) {
                int np = paid + ch[q].du;
                if (np > top_t)
                    break;
                if (!((tmask >> np) & after))
                    continue;
                uint64_t ns[LIMBS];
                s_add(ns, st, ch[q].d.w, nl);
                ns[0] |= ch[q].fl;
                if (((ns[0] | left_owed) & 3) != 3)
                    continue;
                if (tab_max(next, ns, path + ch[q].dq, nl))
                    return -1;
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
    u128 last_cut = ~(u128)0; /* no state has all these bits */
    int64_t last_low = 0;
    for (size_t k = 0; k < states->n; k++) {
        const uint64_t *st = states->key + k * nl;
        u128 path = states->val[k];
        int paid = (int)s_bits(st, ps, 64, nl);
        const Ch *ch = (st[0] & 1) ? lfree : lpaying;
        int nch = (st[0] & 1) ? nlfree : nlpaying;
        for (int q = 0; q < nch; q++) {
            int np = paid + ch[q].du;
            if (np > top_t)
                break;
            if (!((tmask >> np) & 1))
                continue;
            uint64_t ns[LIMBS];
            s_add(ns, st, ch[q].d.w, nl);
            ns[0] |= ch[q].fl;
            if ((ns[0] & 3) != 3)
                continue;
            uint64_t v = s_bits(ns, 7, 6 * W, nl);
            int64_t low = 0;
            if (w->ncuts <= 12) {
                /* payments alike in what they spend off the cuts share it (payways: `lows`); the
                   last one is kept */
                u128 cut = s_cut_bits(ns, nl);
                if (cut == last_cut)
                    low = last_low;
                else {
                    for (int g = 0; g < w->ncuts; g++) {
                        int64_t x = (int64_t)((uint64_t)(cut >> (W * g)) & 1023) - w->cc[g];
                        if (x > low)
                            low = x;
                    }
                    last_cut = cut;
                    last_low = low;
                }
            } else
                for (int g = 0; g < w->ncuts; g++) {
                    int64_t x = (int64_t)s_bits(ns, w->cpos[g], W, nl) - w->cc[g];
                    if (x > low)
                        low = x;
                }
            i128 key = w->fixed - (i128)(v & spent_mask) + (i128)(v & money_mask)
                       + ((i128)POP5[(ns[0] >> 2) & 31] << W) - ((i128)low << 6 * W);
            uint64_t fk[3] = {(uint64_t)(u128)key, (uint64_t)((u128)key >> 64), (uint64_t)(np + shift_t)};
            if (tab_max(fin, fk, path + ch[q].dq, 3))
                return -1;
        }
    }
    return 0;
}

static int walk_core(Cls *cls, int n, const int *use, uint64_t start, uint64_t tmask, int top_t, const Walk *w,
                     Tab *fin, int shift_t, int nl)
{
    if (nl == 2)
        return walk_width(cls, n, use, start, tmask, top_t, w, fin, shift_t, 2);
    if (nl == 3)
        return walk_width(cls, n, use, start, tmask, top_t, w, fin, shift_t, 3);
    return walk_width(cls, n, use, start, tmask, top_t, w, fin, shift_t, 4);
}

/* ---- the fronts ---- */

typedef struct {
    i128 key;
    u128 val;
} KV;

/* best key first (the keys of one price are distinct): quicksort, short runs by insertion */
static void kv_sort(KV *a, size_t n)
{
    while (n > 12) {
        i128 x = a[0].key, y = a[n / 2].key, z = a[n - 1].key;
        /* the median of three distinct keys: neither part below comes out empty */
        i128 p = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
        size_t i = (size_t)-1, j = n;
        for (;;) {
            do
                i++;
            while (a[i].key > p);
            do
                j--;
            while (a[j].key < p);
            if (i >= j)
                break;
            KV t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
        size_t left = j + 1;
        if (left < n - left) {
            kv_sort(a, left);
            a += left;
            n -= left;
        } else {
            kv_sort(a + left, n - left);
            n = left;
        }
    }
    for (size_t i = 1; i < n; i++) {
        KV t = a[i];
        size_t j = i;
        while (j > 0 && a[j - 1].key < t.key) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = t;
    }
}

/* payways._GUARDS: the top bit of each of the seven fields of a key */
static u128 guards(void)
{
    u128 g = 0;
    for (int f = 0; f < 7; f++)
        g |= (u128)1 << (W * f + W - 1);
    return g;
}

/* A class's info (payways._class_info) as read from its tuple, remembered by the tuple itself:
   the memo holds it, so no other object takes its address while it is remembered, and a tuple of
   ints does not change (payways hands the same tuples walk after walk). */
typedef struct {
    PyObject *info; /* held */
    int64_t u, pays, cover, route, wt, items[4];
    S one;
    int nfeed;              /* the colours fed (info[6]): how many below, -1 any (None), -2 ask the set */
    PyObject *feed[8];      /* each an exact str (held by the tuple's frozenset) */
    Py_hash_t feed_hash[8];
} Info;

#define MEMO_BITS 10
static Info memo[1 << MEMO_BITS];

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
    Info x;
    int r;
    if ((r = to_i64(PyTuple_GET_ITEM(info, 0), &x.u)) != 1 || (r = to_i64(PyTuple_GET_ITEM(info, 1), &x.pays)) != 1
        || (r = to_i64(PyTuple_GET_ITEM(info, 3), &x.cover)) != 1 || (r = to_i64(PyTuple_GET_ITEM(info, 4), &x.route)) != 1
        || (r = to_i64(PyTuple_GET_ITEM(info, 5), &x.wt)) != 1)
        return r;
    if ((r = to_s(PyTuple_GET_ITEM(info, 2), &x.one)) != 1)
        return r;
    if (x.u < 0 || x.u > 62 || x.wt < 0 || x.wt > 1000 || x.cover < 0 || x.route < 0)
        return 0;
    PyObject *it = PyTuple_GET_ITEM(info, 7);
    if (!PyTuple_Check(it) || PyTuple_GET_SIZE(it) != 4) {
        PyErr_SetString(PyExc_TypeError, "_walk.fronts: a class's items are a 4-tuple");
        return -1;
    }
    for (int k = 0; k < 4; k++)
        if ((r = to_i64(PyTuple_GET_ITEM(it, k), &x.items[k])) != 1)
            return r;
    PyObject *fd = PyTuple_GET_ITEM(info, 6);
    x.nfeed = fd == Py_None ? -1 : -2;
    if (PyFrozenSet_CheckExact(fd) && PySet_GET_SIZE(fd) <= 8) {
        /* a frozenset of exact strs (payways' colours) is read once, here */
        PyObject *iter = PyObject_GetIter(fd), *col;
        if (!iter)
            return -1;
        int k = 0, plain = 1;
        while ((col = PyIter_Next(iter))) {
            if (PyUnicode_CheckExact(col) && k < 8) {
                x.feed_hash[k] = PyObject_Hash(col);
                x.feed[k++] = col;
            } else
                plain = 0;
            Py_DECREF(col);
        }
        Py_DECREF(iter);
        if (PyErr_Occurred())
            return -1;
        if (plain)
            x.nfeed = k;
    }
    PyObject *old = m->info;
    Py_INCREF(info);
    x.info = info;
    *m = x;
    *out = m;
    Py_XDECREF(old);
    return 1;
}

/* the contracts a class's tokens feed as bits: `fd` (info[6]) an iterable of colours, `bits` the
   dict colour -> contract bits. 1 done, 0 does not fit, -1 error. */
static int fed_bits(PyObject *fd, PyObject *bits, uint64_t *out)
{
    uint64_t f = 0;
    int r;
    if (PyAnySet_Check(fd)) {
        /* a set of colours: ask it of each of the dict's few colours (no iterator made) */
        if (PySet_GET_SIZE(fd) && PyDict_GET_SIZE(bits)) {
            Py_ssize_t pos = 0;
            PyObject *col, *b;
            while (PyDict_Next(bits, &pos, &col, &b)) {
                Py_INCREF(col);
                Py_INCREF(b);
                int in = PySet_Contains(fd, col);
                int64_t bv = 0;
                r = in > 0 ? to_i64(b, &bv) : in;
                Py_DECREF(col);
                Py_DECREF(b);
                if (r != 1 && in != 0)
                    return r;
                if (in)
                    f |= (uint64_t)bv;
            }
        }
        *out = f;
        return 1;
    }
    PyObject *iter = PyObject_GetIter(fd);
    if (!iter)
        return -1;
    PyObject *col;
    while ((col = PyIter_Next(iter))) {
        PyObject *b = PyDict_GetItemWithError(bits, col);
        Py_DECREF(col);
        if (!b && PyErr_Occurred()) {
            Py_DECREF(iter);
            return -1;
        }
        if (b) {
            int64_t bv;
            if ((r = to_i64(b, &bv)) != 1) {
                Py_DECREF(iter);
                return r;
            }
            f |= (uint64_t)bv;
        }
    }
    Py_DECREF(iter);
    if (PyErr_Occurred())
        return -1;
    *out = f;
    return 1;
}

/* The dict colour -> contract bits of a call (`bits`), read once: its keys when all are exact
   strs (then `n` >= 0), held while the call reads them. */
typedef struct {
    int n;
    PyObject *col[64], *val[64];
    Py_hash_t hash[64];
} Bits;

static void bits_release(Bits *b)
{
    for (int k = 0; k < b->n; k++) {
        Py_DECREF(b->col[k]);
        Py_DECREF(b->val[k]);
    }
    b->n = -1;
}

static void bits_read(Bits *b, PyObject *bits)
{
    b->n = 0;
    if (PyDict_GET_SIZE(bits) > 64) {
        b->n = -1;
        return;
    }
    Py_ssize_t pos = 0;
    PyObject *col, *val;
    while (PyDict_Next(bits, &pos, &col, &val)) {
        if (!PyUnicode_CheckExact(col) || b->n == 64) {
            bits_release(b); /* a key that is not an exact str: the set is asked, class by class */
            return;
        }
        Py_INCREF(col);
        Py_INCREF(val);
        b->col[b->n] = col;
        b->val[b->n] = val;
        b->hash[b->n++] = PyObject_Hash(col);
    }
}

/* fed_bits for a class whose colours fed were read (nfeed >= 0) and a dict read (b->n >= 0): each
   colour of the dict that equals one fed, as a set finds it (same hash, the same str) */
static int fed_read(const Info *in, const Bits *b, uint64_t *out)
{
    uint64_t f = 0;
    for (int k = 0; k < b->n; k++)
        for (int c = 0; c < in->nfeed; c++)
            if (b->col[k] == in->feed[c]
                || (b->hash[k] == in->feed_hash[c] && PyUnicode_Compare(b->col[k], in->feed[c]) == 0)) {
                int64_t bv;
                int r = to_i64(b->val[k], &bv);
                if (r != 1)
                    return r;
                f |= (uint64_t)bv;
                break;
            }
    *out = f;
    return 1;
}

/* the choices of the walked classes, kept from one walk to the next (grown, never shrunk) */
static Ch *pool;
static size_t pool_room;
/* the final table, and its entries sorted by price */
static Tab tab_fin;
static KV *kvs;
static size_t kvs_room;
/* walks by the limbs of their states (2, 3, 4), for the tests */
static unsigned long long by_width[3];
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

static PyObject *fronts_of(PyObject *const *args);

static PyObject *walk_fronts(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 9) {
        PyErr_Format(PyExc_TypeError, "fronts() takes 9 arguments (%zd given)", nargs);
        return NULL;
    }
    static const char *kinds[9] = {"list", "tuple", "dict", "tuple", NULL, NULL, NULL, "tuple", NULL};
    for (int k = 0; k < 9; k++) {
        int ok = k == 0 ? PyList_Check(args[k]) : k == 2 ? PyDict_Check(args[k]) : kinds[k] ? PyTuple_Check(args[k]) : 1;
        if (!ok) {
            PyErr_Format(PyExc_TypeError, "fronts() argument %d must be %s, not %.50s", k + 1, kinds[k],
                         Py_TYPE(args[k])->tp_name);
            return NULL;
        }
    }
    if (busy)
        Py_RETURN_NONE;
    busy = 1;
    PyObject *result = fronts_of(args);
    busy = 0;
    return result;
}

static PyObject *fronts_of(PyObject *const *args)
{
    PyObject *infos = args[0], *counts = args[1], *bits = args[2], *inside = args[3], *targets = args[7];
    long long left = PyLong_AsLongLong(args[4]);
    if (left == -1 && PyErr_Occurred())
        return NULL;
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
    Py_ssize_t n = PyList_GET_SIZE(infos);
    Py_ssize_t nin = PyTuple_GET_SIZE(inside);
    int nc = 0;
    while (((Py_ssize_t)1 << nc) < nin)
        nc++;
    if (PyTuple_GET_SIZE(counts) != n || ((Py_ssize_t)1 << nc) != nin || nc > 6 || n > 60)
        Py_RETURN_NONE;

    PyObject *result = NULL;
    Cls cls[61], walked[61];
    int use[61], twos[61];
    uint64_t fbits[61];
    int64_t ins[64];
    int nw = 0;
    Walk w;
    int r = 1;
    Bits rb;
    bits_read(&rb, bits);
    for (Py_ssize_t m = 0; m < nin; m++)
        if ((r = to_i64(PyTuple_GET_ITEM(inside, m), &ins[m])) != 1)
            goto unfit;

    /* per class: units, pays the colour die, packed items, cover bits, route bit, build weight,
       contracts fed (bits), kept totals */
    uint64_t every = ((uint64_t)1 << nc) - 1, fed = 0;
    int64_t count[61], weight[61], items[61][4];
    int maxcount = 0;
    for (Py_ssize_t j = 0; j < n; j++) {
        const Info *in;
        if ((r = info_of(PyList_GET_ITEM(infos, j), &in)) != 1 || (r = to_i64(PyTuple_GET_ITEM(counts, j), &count[j])) != 1)
            goto unfit;
        if (count[j] < 1 || count[j] > 60)
            goto unfit;
        memcpy(items[j], in->items, sizeof(items[j]));
        memset(&cls[j], 0, sizeof(Cls));
        cls[j].one = in->one;
        uint64_t f = every;
        if (in->nfeed >= 0 && rb.n >= 0)
            r = fed_read(in, &rb, &f);
        else if (in->nfeed != -1)
            r = fed_bits(PyTuple_GET_ITEM(in->info, 6), bits, &f);
        if (r != 1)
            goto unfit;
        fed |= f;
        fbits[j] = f;
        use[j] = (int)in->u;
        twos[j] = in->u == 2 ? 2 : 0;
        cls[j].j = (int)j;
        cls[j].pays = in->pays != 0;
        cls[j].whole = (int)count[j];
        cls[j].cover = (uint64_t)in->cover;
        cls[j].route = (uint64_t)in->route;
        cls[j].u = -1;
        weight[j] = in->wt;
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
    int shift = size * (int)n;
    size_t room = 0;
    int top_bit = ps + 6; /* a bound on the bits of one token's packed change, units paid included */
    int64_t tokens = 1;   /* the walked tokens, and one per class and one more */
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
                        s_add(c->one.w, c->one.w, add.w, LIMBS);
                    }
                }
        if (use[j] == 0 && !c->pays) {
            start |= c->cover; /* never spent: kept whole */
            continue;
        }
        c->place = (u128)1 << shift;
        for (int k = LIMBS - 1; k >= 0; k--)
            if (c->one.w[k]) {
                int b = 64 * k + 64 - __builtin_clzll(c->one.w[k]);
                if (b > top_bit)
                    top_bit = b;
                break;
            }
        tokens += c->whole + 1;
        room += 3 * (size_t)c->whole + 3;
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
    /* The fewest limbs that hold every number of the walk, so that it adds exactly as Python does
       whatever the numbers: a class's change is at most `whole` times (one token's packed change
       plus its units above bit ps, under 2**(top_bit + 1)), and each class sets flags under 2**7,
       so a state stays under tokens * 2**(top_bit + 1). */
    int need = top_bit + 1;
    while (tokens >> (need - top_bit - 1))
        need++;
    int nl = need <= 128 ? 2 : need <= 192 ? 3 : 4;
    by_width[nl - 2]++;
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
    if (tab_ready(&tab_fin)) {
        PyErr_NoMemory();
        goto out;
    }
    if (top_t >= 0 && walk_core(walked, nw, use, start, tmask, top_t, &w, &tab_fin, 0, nl)) {
        PyErr_NoMemory();
        goto out;
    }
    /* An any2 may pay a cost of one: an odd price may also be paid with two-unit tokens alone. */
    int has_two = 0;
    for (Py_ssize_t j = 0; j < n; j++)
        has_two |= use[j] == 2;
    if (odd && has_two && walk_core(walked, nw, twos, start, odd, top_odd, &w, &tab_fin, -1, nl)) {
        PyErr_NoMemory();
        goto out;
    }

    /* each price's front: best first, no key matched or beaten on every item by an earlier one */
    const Tab *fin = &tab_fin;
    if (grow((void **)&kvs, &kvs_room, fin->n + 1, sizeof(KV))) {
        PyErr_NoMemory();
        goto out;
    }
    /* the entries of the prices asked for, by price (a count, then each price's run) */
    size_t at[65] = {0}, filled[64];
    for (size_t e = 0; e < fin->n; e++) {
        uint64_t t = fin->key[3 * e + 2];
        if (t < 64 && (tmask >> t) & 1)
            at[t + 1]++;
    }
    for (int t = 0; t < 64; t++)
        at[t + 1] += at[t];
    memcpy(filled, at, sizeof(filled));
    for (size_t e = 0; e < fin->n; e++) {
        uint64_t t = fin->key[3 * e + 2];
        if (t < 64 && (tmask >> t) & 1) {
            KV *kv = &kvs[filled[t]++];
            kv->key = (i128)(((u128)fin->key[3 * e + 1] << 64) | fin->key[3 * e]);
            kv->val = fin->val[e];
        }
    }
    uint64_t sorted = 0;
    result = PyDict_New();
    if (!result)
        goto fail;
    const u128 G = guards();
    const u128 digit = ((u128)1 << size) - 1;
    for (Py_ssize_t k = 0; k < nt; k++) {
        int t = (int)PyLong_AsLong(PyTuple_GET_ITEM(targets, k));
        KV *kv = kvs + at[t];
        size_t m = at[t + 1] - at[t];
        if (!((sorted >> t) & 1))
            kv_sort(kv, m);
        sorted |= (uint64_t)1 << t;
        size_t nf = 0, pick[256];
        u128 guarded[256];
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
            pick[nf] = e;
            guarded[nf++] = kk | G;
        }
        PyObject *tup = PyTuple_New((Py_ssize_t)nf);
        if (!tup)
            goto fail;
        for (size_t e = 0; e < nf; e++) {
            PyObject *pay = PyTuple_New(n);
            if (!pay) {
                Py_DECREF(tup);
                goto fail;
            }
            PyTuple_SET_ITEM(tup, (Py_ssize_t)e, pay);
            u128 val = kv[pick[e]].val;
            for (Py_ssize_t j = 0; j < n; j++) {
                int sh = size * (int)(n - 1 - j);
                PyObject *d = PyLong_FromLong(size ? (long)((val >> sh) & digit) : 0);
                if (!d) {
                    Py_DECREF(tup);
                    goto fail;
                }
                PyTuple_SET_ITEM(pay, j, d);
            }
        }
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
    bits_release(&rb);
    if (!result && !PyErr_Occurred())
        Py_RETURN_NONE; /* does not fit: walk it in Python */
    return result;
}

static PyObject *walks_by_width(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return Py_BuildValue("(KKK)", by_width[0], by_width[1], by_width[2]);
}

static PyMethodDef methods[] = {
    {"fronts", (PyCFunction)(void (*)(void))walk_fronts, METH_FASTCALL,
     "fronts(infos, counts, bits, inside, left, second, no_colour, targets, max_listed) -> dict | None\n\n"
     "payways._fronts_py compiled, from each class's _class_info: price -> tuple of payments (tokens\n"
     "spent per class), best first. None where the walk's numbers do not fit in fixed-width integers\n"
     "(walk it in Python)."},
    {"walks_by_width", walks_by_width, METH_NOARGS,
     "walks_by_width() -> (two, three, four)\n\n"
     "How many walks since import held their partial states in two, three and four 64-bit limbs\n"
     "(each the fewest its numbers fit; the answers are the same whichever)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_walk", "Rolling Freight's payment fronts, compiled (payways._fronts_py; issue 34).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__walk(void) { return PyModule_Create(&module); }
