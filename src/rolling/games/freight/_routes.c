/* The major-route search of Rolling Freight, compiled (issue 34: a faster Freight engine).

   The part of `rolling.games.freight.routes.enumerate_routes` after its cheap checks, in two steps
   (so that a seat with no route at any price is told so before its dice are counted):

   `prepare(ends, nc, owner, n, rings, phase, cargo, colour_index, seat, owner_bits)` reads the
   state: the links' owners, the cities wanting each colour, the walks to make (each cargo marker
   in city order and each of its colours in the order first held) and, as `_could_route`, whether
   any of them could give a route at any price: False where none could, else a `Prepared` for

   `search(prepared, costs, cap, avail, slack)`, `_search_py` step for step: the graph of completed
   links (`_route_graph`: per city its steps in link order, the first link of each neighbour and
   owner kept; the neighbour masks; the cheapest dice between two cities), the fewest dice on to a
   wanting city (`_cheapest_rest`), and the depth-first walk (`_walk`) of each walk, keeping the
   first path of each outcome. It returns the same list: `(origin, colour, dest, path, cost)`
   tuples in the same order.

   Python's integers are unbounded; here a set of cities is a 64-bit mask, the packed count of
   links per owner a 64-bit integer, dice 64-bit. A search whose numbers do not fit (more than 64
   cities, too many owners for the packed counts, a cost or cap out of range) or whose arguments
   are not shaped as the engine's state returns None, and the caller searches in Python: the
   answer never depends on which one searched.

   Speed (issue 34: the search is asked at every decision, and most of its time went into reading
   the arguments and building the graph, not into the walk): the state is read into plain C
   numbers (small ints found by their address, colour names looked up once and kept), and the
   search then runs without calling Python: the graph, and the fewest dice on per set of wanting
   cities, are kept for the last NGRAPHS (links owned, dice per owner, map) seen, as the links
   rarely change between two listings; the walk's buffers are kept between calls. All of these
   are bounded and keyed on all they are built from, so they never change an answer.

   The rules this serves are in routes.py; nothing here decides anything the Python search does
   not. Built as an optional extension: where no C compiler is found the package installs without
   it and routes.py searches in Python. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_cread.h"

#define MAXC 64        /* cities: one bit each in a 64-bit mask */
#define MAXLINKS 127   /* links: an int8_t index each */
#define MAXOWNERS 64   /* owners (the packed counts allow at most 59) */
#define NCOLOURS 16    /* colour indices (colour_index's values) */
#define MAX_COST (1 << 20)
#define NGRAPHS 8      /* graphs kept: a few per seat to list for (their dice per owner differ) */
#define NRESTS 8       /* fewest-dice tables kept per graph (one per set of wanting cities) */
#define SMALL_LO (-1)  /* the ints read without a call (owners, phases): -1 .. SMALL_HI */
#define SMALL_HI 63

#if defined(__GNUC__)
#define HOT __attribute__((always_inline)) /* read in the loops over the state: no call */
#else
#define HOT
#endif


typedef struct {
    int8_t b;     /* the city reached */
    int8_t link;  /* the link index (< 128) */
    int32_t cost; /* dice */
    uint64_t one; /* 1 << (owner_bits * owner) */
} Step;

typedef struct {
    int32_t link;
    int32_t parent; /* index of the path node before, -1 at the origin */
} PathNode;

typedef struct {
    int city;
    uint64_t seen;
    int64_t base;
    uint64_t owners;
    int32_t path; /* path node of the last link, -1 for the empty path */
} Entry;

typedef struct {
    int dest;
    int32_t path; /* the path node before the last link */
    int32_t link; /* the last link */
    int64_t base;
} Found;

/* an open-addressing set of keys of three 64-bit words (the outcome keys and the repeats);
   a slot is used when its generation is the set's, so emptying it is one increment */
typedef struct {
    uint64_t *k; /* 3 words per slot */
    uint32_t *gen;
    uint32_t cur;
    size_t cap, n;
} Set;

static inline uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDULL;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ULL;
    h ^= h >> 33;
    return h;
}

static void set_free(Set *s)
{
    free(s->k);
    free(s->gen);
    s->k = NULL;
    s->gen = NULL;
    s->cap = s->n = 0;
    s->cur = 0;
}

static int set_init(Set *s, size_t cap)
{
    s->k = malloc(3 * cap * sizeof(uint64_t));
    s->gen = calloc(cap, sizeof(uint32_t));
    s->cap = cap;
    s->n = 0;
    s->cur = 1;
    return s->k && s->gen;
}

/* s made empty, with room for cap keys where it had none: 1, or 0 out of memory */
static int set_ready(Set *s, size_t cap)
{
    if (s->cap)
        return 1;
    if (set_init(s, cap))
        return 1;
    set_free(s);
    return 0;
}

static void set_clear(Set *s)
{
    s->n = 0;
    if (++s->cur == 0) { /* wrapped: every old generation forgotten */
        memset(s->gen, 0, s->cap * sizeof(uint32_t));
        s->cur = 1;
    }
}

static size_t set_slot(const Set *s, uint64_t a, uint64_t b, uint64_t c)
{
    size_t mask = s->cap - 1;
    size_t i = (size_t)mix(a * 0x9E3779B97F4A7C15ULL ^ b * 0xC2B2AE3D27D4EB4FULL ^ c * 0x165667B19E3779F9ULL) & mask;
    while (s->gen[i] == s->cur) {
        const uint64_t *k = s->k + 3 * i;
        if (k[0] == a && k[1] == b && k[2] == c)
            return i;
        i = (i + 1) & mask;
    }
    return i;
}

/* add (a, b, c): 1 when added, 0 when already there, -1 out of memory */
static int set_add(Set *s, uint64_t a, uint64_t b, uint64_t c)
{
    size_t i = set_slot(s, a, b, c);
    if (s->gen[i] == s->cur)
        return 0;
    if (2 * (s->n + 1) > s->cap) {
        Set t;
        if (!set_init(&t, 2 * s->cap)) {
            set_free(&t);
            return -1;
        }
        for (size_t j = 0; j < s->cap; j++)
            if (s->gen[j] == s->cur) {
                const uint64_t *k = s->k + 3 * j;
                size_t m = set_slot(&t, k[0], k[1], k[2]);
                t.gen[m] = t.cur;
                memcpy(t.k + 3 * m, k, 3 * sizeof(uint64_t));
                t.n++;
            }
        set_free(s);
        *s = t;
        i = set_slot(s, a, b, c);
    }
    s->gen[i] = s->cur;
    s->k[3 * i] = a;
    s->k[3 * i + 1] = b;
    s->k[3 * i + 2] = c;
    s->n++;
    return 1;
}

/* a growing array of n items of `size` bytes */
typedef struct {
    void *p;
    size_t n, cap, size;
} Vec;

static void *vec_grow_push(Vec *v)
{
    size_t cap = v->cap ? 2 * v->cap : 256;
    void *p = realloc(v->p, cap * v->size);
    if (!p)
        return NULL;
    v->p = p;
    v->cap = cap;
    return (char *)v->p + v->size * v->n++;
}

/* (inline: the walk pushes at every step; the buffers are kept, so they seldom grow) */
static inline void *vec_push(Vec *v)
{
    if (v->n == v->cap)
        return vec_grow_push(v);
    return (char *)v->p + v->size * v->n++;
}

/* Python's own objects for the ints SMALL_LO..SMALL_HI: CPython keeps one of each small int, in
   one array, so an int read from the state (an owner, a phase, dice) is most often one of these,
   and its value is its place in that array. Checked when the module is loaded (small_stride 0
   where they are not evenly spaced a power of two apart: then every int is read by a call). */
static PyObject *small_ints[SMALL_HI - SMALL_LO + 1];
static uintptr_t small_base, small_span, small_stride;
static int small_shift;

static void small_ints_place(void)
{
    uintptr_t stride = (uintptr_t)small_ints[1] - (uintptr_t)small_ints[0];
    int shift = 0;
    while (shift < 16 && ((uintptr_t)1 << shift) < stride)
        shift++;
    if (stride == 0 || stride != (uintptr_t)1 << shift)
        return;
    for (int k = 0; k <= SMALL_HI - SMALL_LO; k++)
        if ((uintptr_t)small_ints[k] != (uintptr_t)small_ints[0] + (uintptr_t)k * stride)
            return;
    small_base = (uintptr_t)small_ints[0];
    small_span = (uintptr_t)(SMALL_HI - SMALL_LO) * stride;
    small_stride = stride;
    small_shift = shift;
}

/* a Python int as a long long in [lo, hi]: 1, 0 out of range or not an int, -1 error */
static int as_ll_call(PyObject *v, long long lo, long long hi, long long *out)
{
    if (!PyLong_Check(v))
        return 0;
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (x == -1 && PyErr_Occurred())
        return -1;
    if (overflow || x < lo || x > hi)
        return 0;
    *out = x;
    return 1;
}

/* the ints lo..hi that are small, by their place (for a loop reading many of one range) */
typedef struct {
    uintptr_t base, span, mask;
    int shift, on;
    long long lo;
} SmallRange;

static SmallRange small_range(long long lo, long long hi)
{
    SmallRange sr = {0, 0, 0, 0, 0, 0};
    if (lo < SMALL_LO)
        lo = SMALL_LO;
    if (hi > SMALL_HI)
        hi = SMALL_HI;
    if (!small_stride || lo > hi)
        return sr;
    sr.base = small_base + (uintptr_t)(lo - SMALL_LO) * small_stride;
    sr.span = (uintptr_t)(hi - lo) * small_stride;
    sr.mask = small_stride - 1;
    sr.shift = small_shift;
    sr.on = 1;
    sr.lo = lo;
    return sr;
}

/* as_ll, looking first among the small ints of sr (a part of lo..hi) */
static inline HOT int as_ll_in(const SmallRange *sr, PyObject *v, long long lo, long long hi, long long *out)
{
    uintptr_t d = (uintptr_t)v - sr->base;
    if (sr->on && d <= sr->span && !(d & sr->mask)) {
        *out = sr->lo + (long long)(d >> sr->shift);
        return 1;
    }
    return as_ll_call(v, lo, hi, out);
}

/* as_ll_call, a small int found by its place */
static inline HOT int as_ll(PyObject *v, long long lo, long long hi, long long *out)
{
    uintptr_t d = (uintptr_t)v - small_base;
    if (small_stride && d <= small_span && !(d & (small_stride - 1))) {
        long long x = (long long)(d >> small_shift) + SMALL_LO;
        if (x < lo || x > hi)
            return 0;
        *out = x;
        return 1;
    }
    return as_ll_call(v, lo, hi, out);
}

/* The colour names looked up, kept between calls: a name (an exact str, held here, so that no
   other object takes its address while it is kept) and its colour index (-1: none), valid for the
   items of colour_index they were looked up in (exact str keys and their values, held here too):
   when colour_index's items are other objects the names are forgotten. So each name the state
   holds (each ring's colour is its own str) is looked up in the dict once, not at every call. */
#define NMEMO 256 /* names kept, one per place (the place from the name's address) */
static PyObject *memo_name[NMEMO];
static signed char memo_index[NMEMO];
static PyObject *memo_items[2 * NCOLOURS]; /* key, value, key, value, ... in the dict's order */
static Py_ssize_t memo_nitems;
static uint64_t colours_epoch; /* counts the times the kept items were replaced (the board memo's key) */

/* colour_index as read for one call: `memo` is 1 where the kept names serve it (every key an
   exact str), else every name is looked up in the dict */
typedef struct {
    PyObject *dict;
    int memo;
} Colours;

static void colours_read(Colours *cs, PyObject *colour_index)
{
    cs->dict = colour_index;
    cs->memo = 0;
    Py_ssize_t n = PyDict_GET_SIZE(colour_index);
    if (n > NCOLOURS)
        return;
    PyObject *items[2 * NCOLOURS];
    Py_ssize_t pos = 0, j = 0;
    PyObject *k, *v;
    int same = n == memo_nitems;
    while (PyDict_Next(colour_index, &pos, &k, &v)) {
        if (!PyUnicode_CheckExact(k) || j >= n)
            return;
        items[2 * j] = k;
        items[2 * j + 1] = v;
        same = same && memo_items[2 * j] == k && memo_items[2 * j + 1] == v;
        j++;
    }
    cs->memo = 1;
    if (same)
        return;
    /* other items: forget the names, keep these items (what is let go is let go last) */
    PyObject *old[NMEMO + 2 * NCOLOURS];
    int nold = 0;
    for (int m = 0; m < NMEMO; m++)
        if (memo_name[m]) {
            old[nold++] = memo_name[m];
            memo_name[m] = NULL;
        }
    for (Py_ssize_t m = 0; m < 2 * memo_nitems; m++)
        old[nold++] = memo_items[m];
    for (Py_ssize_t m = 0; m < 2 * n; m++) {
        Py_INCREF(items[m]);
        memo_items[m] = items[m];
    }
    memo_nitems = n;
    colours_epoch++;
    for (int m = 0; m < nold; m++)
        Py_DECREF(old[m]);
}

/* colour_of for a name not kept: looked up in the dict, and kept */
static int colour_lookup(const Colours *cs, PyObject *name, int *out, size_t place)
{
    PyObject *v = PyDict_GetItemWithError(cs->dict, name); /* borrowed */
    long long x = -1;
    if (!v && PyErr_Occurred())
        return -1;
    int r = v ? as_ll(v, 0, NCOLOURS - 1, &x) : 0;
    if (r < 0)
        return -1;
    if (cs->memo && PyUnicode_CheckExact(name)) {
        PyObject *old = memo_name[place];
        Py_INCREF(name);
        memo_name[place] = name;
        memo_index[place] = (signed char)(r ? x : -1);
        Py_XDECREF(old);
    }
    if (r)
        *out = (int)x;
    return r;
}

/* the colour index of a colour name (0..NCOLOURS-1): 1, 0 unknown, -1 error */
static inline HOT int colour_of(const Colours *cs, PyObject *name, int *out)
{
    size_t place = (size_t)(((uint64_t)(uintptr_t)name * 0x9E3779B97F4A7C15ULL) >> 56) & (NMEMO - 1);
    if (cs->memo && memo_name[place] == name) {
        if (memo_index[place] < 0)
            return 0;
        *out = memo_index[place];
        return 1;
    }
    return colour_lookup(cs, name, out, place);
}

/* the graph of completed links, and what it is built from (its key) */
typedef struct {
    uint64_t wmask;
    int64_t rest[MAXC]; /* _cheapest_rest: -1 where no wanting city is reachable */
} Rest;

typedef struct {
    int nc, nlinks, n, owner_bits;
    unsigned char ends[2 * MAXLINKS]; /* each link's two cities */
    int8_t owner[MAXLINKS];           /* each link's owner, -1 not completed */
    int64_t cost_of[MAXOWNERS];       /* dice per link of each owner */
} GraphKey;

static int same_key(const GraphKey *a, const GraphKey *b)
{
    return a->nc == b->nc && a->nlinks == b->nlinks && a->n == b->n && a->owner_bits == b->owner_bits
           && !memcmp(a->owner, b->owner, (size_t)a->nlinks)
           && !memcmp(a->cost_of, b->cost_of, (size_t)a->n * sizeof(int64_t))
           && !memcmp(a->ends, b->ends, 2 * (size_t)a->nlinks);
}

typedef struct {
    int used;
    uint64_t stamp; /* last use: the least recently used graph is replaced */
    GraphKey key;   /* what the graph is built from */
    /* the graph */
    Step pool[2 * MAXLINKS];
    Step *steps[MAXC];
    int nsteps[MAXC];
    uint64_t nbrmask[MAXC];
    int32_t cheapest[MAXC][MAXC]; /* set where nbrmask has the neighbour */
    /* _cheapest_rest per set of wanting cities, the last NRESTS asked for */
    Rest rests[NRESTS];
    int nrests, next_rest;
} Graph;

static Graph graphs[NGRAPHS];
static uint64_t graph_clock;

/* _route_graph into g for its key */
static void build_graph(Graph *g)
{
    const GraphKey *k = &g->key;
    int nc = k->nc, owner_bits = k->owner_bits;
    const unsigned char *ab = k->ends;
    /* each city's steps in link order: count first, then fill */
    int count[MAXC] = {0};
    for (int i = 0; i < k->nlinks; i++)
        if (k->owner[i] >= 0) {
            count[ab[2 * i]]++;
            count[ab[2 * i + 1]]++;
        }
    Step *at = g->pool;
    for (int c = 0; c < nc; c++) {
        g->steps[c] = at;
        g->nsteps[c] = 0;
        g->nbrmask[c] = 0;
        at += count[c];
    }
    for (int i = 0; i < k->nlinks; i++) {
        int o = k->owner[i];
        if (o < 0)
            continue;
        int32_t cost = (int32_t)k->cost_of[o];
        uint64_t one = (uint64_t)1 << (owner_bits * o);
        for (int dir = 0; dir < 2; dir++) {
            int a = ab[2 * i + dir], b = ab[2 * i + 1 - dir];
            int dup = 0;
            for (int s = 0; s < g->nsteps[a]; s++)
                if (g->steps[a][s].b == b && g->steps[a][s].one == one) {
                    dup = 1;
                    break;
                }
            if (!dup) {
                Step *st = &g->steps[a][g->nsteps[a]++];
                st->b = (int8_t)b;
                st->link = (int8_t)i;
                st->cost = cost;
                st->one = one;
            }
            if (!(g->nbrmask[a] >> b & 1) || cost < g->cheapest[a][b])
                g->cheapest[a][b] = cost;
            g->nbrmask[a] |= (uint64_t)1 << b;
        }
    }
    g->nrests = g->next_rest = 0;
}

/* the kept graph of key k (its link ends cities: prepare checked them), built into the least
   recently used place if none */
static Graph *graph_for(const GraphKey *k)
{
    graph_clock++;
    Graph *old = &graphs[0];
    for (int j = 0; j < NGRAPHS; j++) {
        Graph *g = &graphs[j];
        if (g->used && same_key(&g->key, k)) {
            g->stamp = graph_clock;
            return g;
        }
        if (!g->used || (old->used && g->stamp < old->stamp))
            old = g;
    }
    old->key = *k;
    build_graph(old);
    old->used = 1;
    old->stamp = graph_clock;
    return old;
}

/* _cheapest_rest: per city the fewest dice on to a city of wmask, -1 where none is reachable
   (the distances are Dijkstra's, whatever order ties are taken in); kept with the graph */
static const int64_t *cheapest_rest(Graph *g, uint64_t wmask)
{
    for (int j = 0; j < g->nrests; j++)
        if (g->rests[j].wmask == wmask)
            return g->rests[j].rest;
    Rest *out = &g->rests[g->next_rest];
    g->next_rest = (g->next_rest + 1) % NRESTS;
    if (g->nrests < NRESTS)
        g->nrests++;
    out->wmask = wmask;
    int64_t *rest = out->rest;
    int64_t dist[MAXC];
    for (int c = 0; c < g->key.nc; c++) {
        rest[c] = -1;
        dist[c] = 0;
    }
    uint64_t open = wmask, done = 0; /* open: cities reached, not yet done, at dist */
    while (open) {
        uint64_t m = open;
        int best = __builtin_ctzll(m);
        for (m &= m - 1; m; m &= m - 1) {
            int c = __builtin_ctzll(m);
            if (dist[c] < dist[best])
                best = c;
        }
        open &= ~((uint64_t)1 << best);
        done |= (uint64_t)1 << best;
        rest[best] = dist[best];
        for (m = g->nbrmask[best] & ~done; m; m &= m - 1) {
            int b = __builtin_ctzll(m);
            int64_t d = dist[best] + g->cheapest[best][b];
            if (!(open >> b & 1) || d < dist[b]) {
                dist[b] = d;
                open |= (uint64_t)1 << b;
            }
        }
    }
    return rest;
}

typedef struct {
    Vec stack, nodes, found;
    Set keys, repeats;
} Work;

/* the walk's buffers, kept between calls (a call made while they are in use, as from a finalizer
   run by an allocation, takes fresh ones); given back past these sizes */
static Work kept_work;
static int kept_busy;
#define KEEP_ITEMS 4096
#define KEEP_NODES 65536

static void work_free(Work *w)
{
    free(w->stack.p);
    free(w->nodes.p);
    free(w->found.p);
    set_free(&w->keys);
    set_free(&w->repeats);
    memset(w, 0, sizeof *w);
}

/* _walk from one cargo marker: appends to w->found the first path of each new outcome; 0, or -1
   out of memory */
static int walk(const Graph *g, Work *w, int origin, uint64_t wmask, const int64_t *rest, int64_t cap,
                int own_shift, uint64_t own_mask, int64_t slack)
{
    set_clear(&w->keys);
    set_clear(&w->repeats);
    w->stack.n = 0;
    Entry *e0 = vec_push(&w->stack);
    if (!e0)
        return -1;
    e0->city = origin;
    e0->seen = (uint64_t)1 << origin;
    e0->base = 0;
    e0->owners = 0;
    e0->path = -1;
    while (w->stack.n) {
        Entry cur = ((Entry *)w->stack.p)[--w->stack.n];
        const Step *st = g->steps[cur.city];
        for (int s = 0; s < g->nsteps[cur.city]; s++) {
            int b = st[s].b;
            uint64_t bit = (uint64_t)1 << b;
            if (cur.seen & bit)
                continue;
            int64_t nb = cur.base + st[s].cost;
            uint64_t no = cur.owners + st[s].one;
            if (wmask & bit) {
                if (nb <= cap && (no >> own_shift & own_mask)) {
                    int added = set_add(&w->keys, (uint64_t)b, no, 0);
                    if (added < 0)
                        return -1;
                    if (added) {
                        Found *f = vec_push(&w->found);
                        if (!f)
                            return -1;
                        f->dest = b;
                        f->path = cur.path;
                        f->link = st[s].link;
                        f->base = nb;
                    }
                }
                continue;
            }
            int64_t r = rest[b];
            if (r < 0 || nb + r > cap)
                continue;
            uint64_t ns = cur.seen | bit;
            if (cap - nb - r >= slack) {
                uint64_t allowed = ~(ns | wmask);
                uint64_t reach = 0, touch = 0, frontier = bit;
                while (frontier) {
                    uint64_t nxt = 0;
                    while (frontier) {
                        nxt |= g->nbrmask[__builtin_ctzll(frontier)];
                        frontier &= frontier - 1;
                    }
                    touch |= nxt;
                    frontier = nxt & allowed & ~reach;
                    reach |= frontier;
                }
                if (!(touch & wmask & ~ns))
                    continue;
                int added = set_add(&w->repeats, (uint64_t)b, no, reach);
                if (added < 0)
                    return -1;
                if (!added)
                    continue;
            }
            if (w->nodes.n >= INT32_MAX)
                return -1;
            PathNode *pn = vec_push(&w->nodes);
            if (!pn)
                return -1;
            pn->link = st[s].link;
            pn->parent = cur.path;
            Entry *ne = vec_push(&w->stack);
            if (!ne)
                return -1;
            ne->city = b;
            ne->seen = ns;
            ne->base = nb;
            ne->owners = no;
            ne->path = (int32_t)(w->nodes.n - 1);
        }
    }
    return 0;
}

/* the route's path as a list of link indices from the origin */
static PyObject *path_list(const Work *w, const Found *f)
{
    int len = 1;
    const PathNode *nodes = w->nodes.p;
    for (int32_t p = f->path; p >= 0; p = nodes[p].parent)
        len++;
    PyObject *out = PyList_New(len);
    if (!out)
        return NULL;
    PyObject *last = PyLong_FromLong(f->link);
    if (!last) {
        Py_DECREF(out);
        return NULL;
    }
    PyList_SET_ITEM(out, len - 1, last);
    int k = len - 2;
    for (int32_t p = f->path; p >= 0; p = nodes[p].parent, k--) {
        PyObject *v = PyLong_FromLong(nodes[p].link);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, k, v);
    }
    return out;
}

/* an argument that must be an int (as PyArg_ParseTuple's "i"): 0, or -1 with TypeError or
   OverflowError set */
static int int_arg(PyObject *v, int *out)
{
    if (!PyLong_Check(v)) {
        PyErr_Format(PyExc_TypeError, "expected an int, not %.100s", Py_TYPE(v)->tp_name);
        return -1;
    }
    long x = PyLong_AsLong(v);
    if (x == -1 && PyErr_Occurred())
        return -1;
    if (x < INT32_MIN || x > INT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "an int argument is out of range");
        return -1;
    }
    *out = (int)x;
    return 0;
}

static int typed_arg(PyObject *v, PyTypeObject *type)
{
    if (Py_IS_TYPE(v, type) || PyType_IsSubtype(Py_TYPE(v), type))
        return 0;
    PyErr_Format(PyExc_TypeError, "expected %.50s, not %.100s", type->tp_name, Py_TYPE(v)->tp_name);
    return -1;
}

/* one walk to make: a cargo marker's city and colour (its index, and the name as the state holds
   it, held) */
typedef struct {
    int origin, ci;
    int live; /* (in a Prepared) whether walk_could_route for its seat: else it gives no route */
    PyObject *colour;
} Walk;

/* what prepare read from the state, for search: the links' ends and owners, the cities wanting
   each colour, and the walks in order */
typedef struct {
    PyObject_VAR_HEAD /* ob_size: the walks */
    int nc, nlinks, n, owner_bits, seat;
    PyObject *ends; /* bytes, held */
    int8_t owner[MAXLINKS];
    uint64_t wanting[NCOLOURS];
    Walk walks[1];
} Prepared;

static void prepared_dealloc(PyObject *self)
{
    Prepared *p = (Prepared *)self;
    Py_XDECREF(p->ends);
    for (Py_ssize_t k = 0; k < Py_SIZE(p); k++)
        Py_XDECREF(p->walks[k].colour);
    Py_TYPE(self)->tp_free(self);
}

static PyTypeObject PreparedType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "rolling.games.freight._routes.Prepared",
    .tp_basicsize = offsetof(Prepared, walks),
    .tp_itemsize = sizeof(Walk),
    .tp_dealloc = prepared_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A state's links, demand and cargo markers as routes.enumerate_routes' compiled search reads them.",
};

/* _could_route for one walk: whether a route could start it at any price. Its cities but the last
   are reached from the origin without entering a city that wants the cargo (`inner`), its last
   one wants it, and one of its links is the seat's: so some wanting city but the origin borders
   `inner`, and some link of the seat joins a city of `inner` to one of `inner` or a wanting one. */
static int walk_could_route(const uint64_t *nbr, const uint64_t *mine, int origin, uint64_t wmask)
{
    uint64_t inner = (uint64_t)1 << origin, touch = 0, frontier = inner;
    while (frontier) {
        uint64_t nxt = 0;
        for (; frontier; frontier &= frontier - 1)
            nxt |= nbr[__builtin_ctzll(frontier)];
        touch |= nxt;
        frontier = nxt & ~wmask & ~inner;
        inner |= frontier;
    }
    if (!(touch & wmask & ~((uint64_t)1 << origin)))
        return 0;
    for (uint64_t m = inner; m; m &= m - 1)
        if (mine[__builtin_ctzll(m)] & (inner | wmask))
            return 1;
    return 0;
}

/* what prepare read from the links the last time it read them (see there) */
static struct {
    Py_ssize_t nlinks; /* -1: nothing kept */
    int nc, n;
    PyObject *item[MAXLINKS]; /* the owner list's items, held */
    unsigned char ab[2 * MAXLINKS];
    int8_t own[MAXLINKS];
    uint64_t nbr[MAXC];
} links_kept = {.nlinks = -1};

/* what prepare reads from the board, whoever the seat: the links' owners and ends, each city's
   neighbours over completed links, the cities wanting each colour, and the walks in order */
typedef struct {
    int nc, nlinks, n, owner_bits;
    PyObject *ends; /* bytes (borrowed from the caller, or held by the board memo) */
    int8_t own[MAXLINKS];
    uint64_t nbr[MAXC];
    uint64_t wanting[NCOLOURS];
    int nwalks;
    Walk walks[MAXC * NCOLOURS]; /* their colours borrowed from the cargo lists (held by the memo) */
} Board;

/* prepare's reading of the board into b: 1, 0 where it does not fit (search in Python), -1 error */
static int prepare_board(PyObject *ends, int nc, PyObject *owner, int n, PyObject *rings, int phase, PyObject *cargo,
                         PyObject *colour_index, int owner_bits, Board *b)
{
    Py_ssize_t nlinks = PyList_GET_SIZE(owner);
    if (nc < 1 || nc > MAXC || PyBytes_GET_SIZE(ends) != 2 * nlinks || nlinks > MAXLINKS || n < 1 || n > MAXOWNERS
        || owner_bits < 1 || owner_bits > 16 || 6 + (long long)owner_bits * (n - 1) > 64
        || PyList_GET_SIZE(rings) != nc || PyList_GET_SIZE(cargo) != nc)
        return 0;
    int r = 0;
    b->nc = nc;
    b->nlinks = (int)nlinks;
    b->n = n;
    b->owner_bits = owner_bits;
    b->ends = ends;

    /* the links: their owners, each city's neighbours over completed links (kept from the last
       call whose links' ends, cities, owners and owner objects were the same: the owner objects
       are held while kept, so the same objects are the same numbers) */
    const unsigned char *ab = (const unsigned char *)PyBytes_AS_STRING(ends);
    int8_t *own = b->own;
    uint64_t *nbr = b->nbr;
    if (links_kept.nlinks == nlinks && links_kept.nc == nc && links_kept.n == n
        && memcmp(links_kept.ab, ab, 2 * (size_t)nlinks) == 0
        && memcmp(links_kept.item, ((PyListObject *)owner)->ob_item, (size_t)nlinks * sizeof(PyObject *)) == 0) {
        memcpy(own, links_kept.own, (size_t)nlinks);
        memcpy(nbr, links_kept.nbr, sizeof b->nbr);
    } else {
        memset(nbr, 0, sizeof b->nbr);
        const SmallRange owners = small_range(-1, n - 1);
        for (Py_ssize_t i = 0; i < nlinks; i++) {
            long long o;
            if ((r = as_ll_in(&owners, PyList_GET_ITEM(owner, i), -1, n - 1, &o)) <= 0)
                return r;
            int a = ab[2 * i], bb = ab[2 * i + 1];
            if (a >= nc || bb >= nc)
                return 0;
            own[i] = (int8_t)o;
            if (o < 0)
                continue;
            nbr[a] |= (uint64_t)1 << bb;
            nbr[bb] |= (uint64_t)1 << a;
        }
        /* kept: the new owner objects held first, the old ones let go last */
        PyObject *old[MAXLINKS];
        Py_ssize_t nold = links_kept.nlinks > 0 ? links_kept.nlinks : 0;
        memcpy(old, links_kept.item, (size_t)nold * sizeof(PyObject *));
        for (Py_ssize_t i = 0; i < nlinks; i++) {
            links_kept.item[i] = PyList_GET_ITEM(owner, i);
            Py_INCREF(links_kept.item[i]);
        }
        links_kept.nlinks = nlinks;
        links_kept.nc = nc;
        links_kept.n = n;
        memcpy(links_kept.ab, ab, 2 * (size_t)nlinks);
        memcpy(links_kept.own, own, (size_t)nlinks);
        memcpy(links_kept.nbr, nbr, sizeof b->nbr);
        for (Py_ssize_t i = 0; i < nold; i++)
            Py_DECREF(old[i]);
    }

    Colours cs;
    colours_read(&cs, colour_index);

    /* the cities whose open rings want each colour (of the cities with completed links: no route
       reaches another, and a search never looks at whether it wants the cargo) */
    uint64_t *wanting = b->wanting;
    memset(wanting, 0, sizeof b->wanting);
    const SmallRange phases = small_range(-((long long)1 << 40), (long long)1 << 40);
    for (int c = 0; c < nc; c++) {
        PyObject *rs = PyList_GET_ITEM(rings, c);
        if (!PyList_Check(rs))
            return 0;
        if (!nbr[c])
            continue;
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(rs); k++) {
            PyObject *ring = PyList_GET_ITEM(rs, k);
            if (!PyList_Check(ring) || PyList_GET_SIZE(ring) != 3)
                return 0;
            long long ph;
            if ((r = as_ll_in(&phases, PyList_GET_ITEM(ring, 1), -((long long)1 << 40), (long long)1 << 40, &ph)) <= 0)
                return r;
            if (ph > phase)
                continue;
            PyObject *sat_o = PyList_GET_ITEM(ring, 2);
            int sat = sat_o == Py_True ? 1 : sat_o == Py_False ? 0 : PyObject_IsTrue(sat_o);
            if (sat < 0)
                return -1;
            if (sat)
                continue;
            int ci;
            r = colour_of(&cs, PyList_GET_ITEM(ring, 0), &ci);
            if (r < 0)
                return -1;
            if (r) /* a colour no cargo can have (else the cargo's colour is unknown too: unfit below) */
                wanting[ci] |= (uint64_t)1 << c;
        }
    }

    /* the walks: cargo markers in city order (of the cities with completed links), each city's
       colours in the order first held (that some city wants) */
    int nwalks = 0;
    for (int origin = 0; origin < nc; origin++) {
        PyObject *held = PyList_GET_ITEM(cargo, origin);
        if (!PyList_Check(held))
            return 0;
        if (!nbr[origin])
            continue;
        unsigned walked = 0;
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(held); k++) {
            PyObject *colour = PyList_GET_ITEM(held, k);
            int ci;
            r = colour_of(&cs, colour, &ci);
            if (r <= 0)
                return r;
            if (walked >> ci & 1)
                continue;
            walked |= 1u << ci;
            if (!wanting[ci])
                continue;
            b->walks[nwalks].origin = origin;
            b->walks[nwalks].ci = ci;
            b->walks[nwalks].live = 0;
            b->walks[nwalks].colour = colour;
            nwalks++;
        }
    }
    b->nwalks = nwalks;
    return 1;
}

/* prepare's answer for the seat on board b: False where no walk could give a route at any price
   (_could_route), else a new Prepared; NULL on error (and, where watch is set and b is the board
   memo's, NULL with no error where that board was replaced while the Prepared was allocated) */
static uint64_t board_gen; /* counts the boards kept in the board memo (below) */

static PyObject *prepare_seat(const Board *b, int seat, int watch, uint64_t gen)
{
    const unsigned char *ab = (const unsigned char *)PyBytes_AS_STRING(b->ends);
    uint64_t mine[MAXC]; /* each city's neighbours over the seat's links */
    int could = 0;
    unsigned char live[MAXC * NCOLOURS];
    if (b->nwalks) {
        memset(mine, 0, (size_t)b->nc * sizeof(uint64_t));
        for (int i = 0; i < b->nlinks; i++)
            if (b->own[i] == seat) {
                int a = ab[2 * i], c = ab[2 * i + 1];
                mine[a] |= (uint64_t)1 << c;
                mine[c] |= (uint64_t)1 << a;
            }
        for (int k = 0; k < b->nwalks; k++)
            could += live[k] = walk_could_route(b->nbr, mine, b->walks[k].origin, b->wanting[b->walks[k].ci]);
    }
    if (!could)
        Py_RETURN_FALSE;
    Prepared *p = PyObject_NewVar(Prepared, &PreparedType, b->nwalks);
    if (!p)
        return NULL;
    p->ends = NULL;
    if (watch && gen != board_gen) { /* b was the memo's board, replaced while allocating (by Python code a
                               collection ran): NULL, no error set */
        Py_SET_SIZE(p, 0);
        Py_DECREF(p);
        return NULL;
    }
    p->nc = b->nc;
    p->nlinks = b->nlinks;
    p->n = b->n;
    p->owner_bits = b->owner_bits;
    p->seat = seat;
    Py_INCREF(b->ends);
    p->ends = b->ends;
    memcpy(p->owner, b->own, (size_t)b->nlinks);
    memcpy(p->wanting, b->wanting, sizeof b->wanting);
    for (int k = 0; k < b->nwalks; k++) {
        p->walks[k] = b->walks[k];
        p->walks[k].live = live[k];
        Py_INCREF(b->walks[k].colour);
    }
    return (PyObject *)p;
}

static PyObject *routes_prepare(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 10) {
        PyErr_Format(PyExc_TypeError, "prepare() takes 10 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *ends = args[0], *owner = args[2], *rings = args[4], *cargo = args[6], *colour_index = args[7];
    int nc, n, phase, seat, owner_bits;
    if (typed_arg(ends, &PyBytes_Type) < 0 || int_arg(args[1], &nc) < 0 || typed_arg(owner, &PyList_Type) < 0
        || int_arg(args[3], &n) < 0 || typed_arg(rings, &PyList_Type) < 0 || int_arg(args[5], &phase) < 0
        || typed_arg(cargo, &PyList_Type) < 0 || typed_arg(colour_index, &PyDict_Type) < 0
        || int_arg(args[8], &seat) < 0 || int_arg(args[9], &owner_bits) < 0)
        return NULL;
    if (seat < 0 || seat >= n)
        Py_RETURN_NONE;
    Board b;
    int r = prepare_board(ends, nc, owner, n, rings, phase, cargo, colour_index, owner_bits, &b);
    if (r < 0 || (r == 0 && PyErr_Occurred()))
        return NULL;
    if (r == 0)
        Py_RETURN_NONE; /* does not fit: search in Python */
    return prepare_seat(&b, seat, 0, 0);
}

/* search() for prepared p, the dice per owner's link cost_of (p->n of them, 0..MAX_COST) */
static PyObject *search_impl(const Prepared *p, const int64_t *cost_of, long long cap, long long avail, long long slack)
{
    /* the graph's key: the map's link ends, the links' owners, the dice per owner's link */
    GraphKey key;
    key.nc = p->nc;
    key.nlinks = p->nlinks;
    key.n = p->n;
    key.owner_bits = p->owner_bits;
    memcpy(key.cost_of, cost_of, (size_t)p->n * sizeof(int64_t));
    memcpy(key.ends, PyBytes_AS_STRING(p->ends), 2 * (size_t)p->nlinks);
    memcpy(key.owner, p->owner, (size_t)p->nlinks);

    /* from here on nothing calls Python (which could ask for another search, and replace the
       graph in use) until the routes are made */
    PyObject *result = NULL;
    Work local;
    Work *w = &local;
    memset(&local, 0, sizeof local);
    if (!kept_busy) {
        w = &kept_work;
        kept_busy = 1;
    }
    w->stack.size = sizeof(Entry);
    w->nodes.size = sizeof(PathNode);
    w->found.size = sizeof(Found);
    w->stack.n = w->nodes.n = w->found.n = 0;
    Py_ssize_t nwalks = Py_SIZE(p);
    size_t walk_end[MAXC * NCOLOURS]; /* each walk's routes end there in w->found */
    if (nwalks) {
        Graph *g = graph_for(&key);
        if (!set_ready(&w->keys, 64) || !set_ready(&w->repeats, 256)) {
            PyErr_NoMemory();
            goto done;
        }
        int own_shift = p->owner_bits * p->seat;
        uint64_t own_mask = ((uint64_t)1 << p->owner_bits) - 1;
        for (Py_ssize_t k = 0; k < nwalks; k++) {
            int origin = p->walks[k].origin;
            uint64_t wmask = p->wanting[p->walks[k].ci];
            if (p->walks[k].live && g->nsteps[origin]) { /* (a walk that could not route gives none) */
                const int64_t *rest = cheapest_rest(g, wmask);
                if (rest[origin] >= 0 && walk(g, w, origin, wmask, rest, cap, own_shift, own_mask, slack) < 0) {
                    PyErr_NoMemory();
                    goto done;
                }
            }
            walk_end[k] = w->found.n;
        }
    }

    result = PyList_New((Py_ssize_t)w->found.n);
    if (!result)
        goto done;
    size_t j = 0;
    for (Py_ssize_t k = 0; k < nwalks; k++) {
        for (; j < walk_end[k]; j++) {
            const Found *f = (const Found *)w->found.p + j;
            int64_t price = f->base - avail;
            PyObject *t = PyTuple_New(5);
            if (!t) {
                Py_CLEAR(result);
                goto done;
            }
            PyList_SET_ITEM(result, (Py_ssize_t)j, t);
            Py_INCREF(p->walks[k].colour);
            PyTuple_SET_ITEM(t, 1, p->walks[k].colour);
            PyObject *o = PyLong_FromLong(p->walks[k].origin), *d = PyLong_FromLong(f->dest), *path = path_list(w, f),
                     *cost = PyLong_FromLongLong(price > 1 ? price : 1);
            /* each set, NULL or not: a tuple's NULL items are skipped when it is freed */
            PyTuple_SET_ITEM(t, 0, o);
            PyTuple_SET_ITEM(t, 2, d);
            PyTuple_SET_ITEM(t, 3, path);
            PyTuple_SET_ITEM(t, 4, cost);
            if (!o || !d || !path || !cost) {
                Py_CLEAR(result);
                goto done;
            }
        }
    }
done:
    if (w == &kept_work) {
        if (w->stack.cap > KEEP_ITEMS || w->nodes.cap > KEEP_NODES || w->found.cap > KEEP_ITEMS
            || w->keys.cap > KEEP_ITEMS || w->repeats.cap > KEEP_ITEMS)
            work_free(w);
        kept_busy = 0;
    } else {
        work_free(w);
    }
    return result;
}

static PyObject *routes_search(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 5) {
        PyErr_Format(PyExc_TypeError, "search() takes 5 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *costs = args[1], *cap_o = args[2], *avail_o = args[3], *slack_o = args[4];
    if (typed_arg(args[0], &PreparedType) < 0 || typed_arg(costs, &PyTuple_Type) < 0)
        return NULL;
    const Prepared *p = (const Prepared *)args[0];
    int r = 0;
    long long cap, avail, slack;
    if (PyTuple_GET_SIZE(costs) != p->n)
        Py_RETURN_NONE;
    if ((r = as_ll(cap_o, -((long long)1 << 40), (long long)1 << 40, &cap)) <= 0
        || (r = as_ll(avail_o, -((long long)1 << 40), (long long)1 << 40, &avail)) <= 0
        || (r = as_ll(slack_o, -((long long)1 << 40), (long long)1 << 40, &slack)) <= 0)
        goto unfit;

    {
        int64_t cost_of[MAXOWNERS];
        for (Py_ssize_t o = 0; o < p->n; o++) {
            long long x;
            if ((r = as_ll(PyTuple_GET_ITEM(costs, o), 0, MAX_COST, &x)) <= 0)
                goto unfit;
            cost_of[o] = x;
        }
        return search_impl(p, cost_of, cap, avail, slack);
    }
unfit:
    if (r < 0 || PyErr_Occurred())
        return NULL;
    Py_RETURN_NONE; /* does not fit: search in Python */
}

/* ---- enumerate(state, seat, ctx): the whole of routes.enumerate_routes in C (issue 34, round 4) ----

   routes._enumerate_py step for step, the state read here: the turn's routes and the saturation
   markers, the route symbol of a second route, the seat's links, prepare()'s reading of the board,
   the seat's "any" dice for a route (payment.generic_budget, from the same face tables), its
   stations, the dice per owner's link (Friendly), and search(). ctx: (colour_index, the face
   units of a first route, of a second one (payment.face_units' tables), map_ends (a map -> (its
   link ends as prepare takes them, its cities)), owner_bits, slack, new_units (a face met first, a
   second route or not -> its units, entered in the table as generic_budget enters it)). None where anything is not as
   a game state has it (a face not in the tables yet, a list of the wrong length, a number that
   does not fit...): the caller then runs the Python, which answers (or raises) as before. */

static PyObject *s_routes_done, *s_saturation, *s_players, *s_dice, *s_spent, *s_links_owned, *s_n, *s_map,
    *s_owner, *s_rings, *s_phase, *s_cargo, *s_markers, *s_stations, *s_stations_used, *s_improvements,
    *s_route, *s_friendly;
static PyObject *kept_map, *kept_ends, *kept_nc; /* the last map seen, its link ends and its cities */

/* the player's attributes enumerate reads, in Slots order (read from their slots: slot_attr, _cread.h) */
static PyObject *player_names[6];
static Slots player_slots;
enum { P_DICE, P_SPENT, P_LINKS_OWNED, P_MARKERS, P_STATIONS, P_IMPROVEMENTS };

/* an int player attribute, as int_attr */
static int int_pattr(PyObject *p, int k, long long *out)
{
    PyObject *v = slot_attr(&player_slots, p, k, player_names, 6);
    if (!v)
        return 0;
    int r = PyLong_CheckExact(v) ? as_ll(v, -((long long)1 << 40), (long long)1 << 40, out) : 0;
    Py_DECREF(v);
    return r;
}

/* a small non-negative-or-not exact int attribute: 1, 0 (unfit or missing), -1 error */
static int int_attr(PyObject *o, PyObject *name, long long *out)
{
    PyObject *v = PyObject_GetAttr(o, name);
    if (!v)
        return 0;
    int r = PyLong_CheckExact(v) ? as_ll(v, -((long long)1 << 40), (long long)1 << 40, out) : 0;
    Py_DECREF(v);
    return r;
}

#if PY_VERSION_HEX < 0x030C0000
/* a dict's version (3.11: changed by every change of the dict, and unique among all dicts) */
#define DICT_TAG(d) (((PyDictObject *)(d))->ma_version_tag)
#endif

/* ---- the board memo (issue 34, round 5) ----
   prepare's answer for a seat (False, or its Prepared) kept while every object it read is the very
   same: the map's link ends, the owner list's items (ints), the rings' and cargo's per-city lists,
   the phase and the number of owners (ints), the colour table's items (colours_read's epoch). The
   rules never change a city's rings or cargo list in place: they replace it (FreightState.clone
   shares them between clones; routes.establish, phases, setup), so the same list objects hold the
   same rings and cargo; each is held here while kept, so no other object takes its address. Most
   listings meet the board of the one before (84% of the listings of random games), and then prepare
   reads nothing. */
#define NSEATMEMO 8
static struct {
    int valid, nc, owner_bits;
    Py_ssize_t nlinks;
    uint64_t epoch, ci_tag; /* colours_epoch, and (3.11) the colour table's version, when kept */
    PyObject *colour_index, *phase, *n; /* held (the ends: board.ends, held) */
    PyObject *owner_item[MAXLINKS], *rings_item[MAXC], *cargo_item[MAXC]; /* held */
    Board board; /* what prepare read (its walks' colours held) */
    PyObject *ready[NSEATMEMO]; /* per seat: NULL not known, else False or a Prepared (held) */
} board_kept;

/* whether the kept board is this one (the lists already checked to be lists) */
static int board_same(PyObject *ends, int nc, PyObject *owner, PyObject *n_o, PyObject *rings, PyObject *phase,
                      PyObject *cargo, PyObject *colour_index, int owner_bits)
{
    Py_ssize_t nlinks = PyList_GET_SIZE(owner);
    return board_kept.valid && board_kept.board.ends == ends && board_kept.nc == nc && board_kept.n == n_o
           && board_kept.phase == phase && board_kept.colour_index == colour_index && board_kept.epoch == colours_epoch
           && board_kept.owner_bits == owner_bits && board_kept.nlinks == nlinks && PyList_GET_SIZE(rings) == nc
           && PyList_GET_SIZE(cargo) == nc
           && !memcmp(board_kept.owner_item, ((PyListObject *)owner)->ob_item, (size_t)nlinks * sizeof(PyObject *))
           && !memcmp(board_kept.rings_item, ((PyListObject *)rings)->ob_item, (size_t)nc * sizeof(PyObject *))
           && !memcmp(board_kept.cargo_item, ((PyListObject *)cargo)->ob_item, (size_t)nc * sizeof(PyObject *));
}

/* keep board b (prepare_board's reading of these objects: nc <= MAXC lists of rings and of cargo,
   nlinks <= MAXLINKS owners) in place of the one kept, no seat's answer known yet; what is let
   go is let go last */
static uint64_t board_keep(const Board *b, PyObject *owner, PyObject *n_o, PyObject *rings, PyObject *phase,
                       PyObject *cargo, PyObject *colour_index)
{
    PyObject *old[MAXLINKS + 2 * MAXC + MAXC * NCOLOURS + NSEATMEMO + 4];
    int nold = 0;
    if (board_kept.valid) {
        old[nold++] = board_kept.board.ends;
        old[nold++] = board_kept.colour_index;
        old[nold++] = board_kept.phase;
        old[nold++] = board_kept.n;
        for (Py_ssize_t i = 0; i < board_kept.nlinks; i++)
            old[nold++] = board_kept.owner_item[i];
        for (int c = 0; c < board_kept.nc; c++) {
            old[nold++] = board_kept.rings_item[c];
            old[nold++] = board_kept.cargo_item[c];
        }
        for (int k = 0; k < board_kept.board.nwalks; k++)
            old[nold++] = board_kept.board.walks[k].colour;
    }
    for (int k = 0; k < NSEATMEMO; k++)
        if (board_kept.ready[k]) {
            old[nold++] = board_kept.ready[k];
            board_kept.ready[k] = NULL;
        }
    int nc = b->nc;
    Py_ssize_t nlinks = PyList_GET_SIZE(owner);
    memcpy(&board_kept.board, b, offsetof(Board, walks) + (size_t)b->nwalks * sizeof(Walk));
    Py_INCREF(b->ends);
    for (int k = 0; k < b->nwalks; k++)
        Py_INCREF(b->walks[k].colour);
    board_kept.colour_index = Py_NewRef(colour_index);
    board_kept.phase = Py_NewRef(phase);
    board_kept.n = Py_NewRef(n_o);
    board_kept.nc = nc;
    board_kept.owner_bits = b->owner_bits;
    board_kept.epoch = colours_epoch;
#ifdef DICT_TAG
    board_kept.ci_tag = DICT_TAG(colour_index);
#endif
    board_kept.nlinks = nlinks;
    for (Py_ssize_t i = 0; i < nlinks; i++)
        board_kept.owner_item[i] = Py_NewRef(PyList_GET_ITEM(owner, i));
    for (int c = 0; c < nc; c++) {
        board_kept.rings_item[c] = Py_NewRef(PyList_GET_ITEM(rings, c));
        board_kept.cargo_item[c] = Py_NewRef(PyList_GET_ITEM(cargo, c));
    }
    board_kept.valid = 1;
    uint64_t gen = ++board_gen;
    for (int k = 0; k < nold; k++)
        Py_DECREF(old[k]);
    return gen;
}

/* ---- the state's attributes read in its __dict__ (issue 34, round 5) ----
   FreightState keeps its attributes in its __dict__: where its type lets (DictFit, _cread.h: generic
   attribute access, no class attribute of any name read here), d[name] is getattr(state, name)
   with fewer steps; else each is read by PyObject_GetAttr. */
static DictFit sdict_fit;
static PyObject **sdict_names[] = {&s_routes_done, &s_saturation, &s_players, &s_n, &s_map, &s_owner,
                                   &s_rings, &s_phase, &s_cargo, &s_stations_used};

/* the state's attributes last read, kept while its __dict__ is the same at the same version
   (3.11, where a dict's version says so: then the same objects are there, no look-up needed) */
#define NSATTR (sizeof sdict_names / sizeof sdict_names[0])
enum { SA_ROUTES_DONE, SA_SATURATION, SA_PLAYERS, SA_N, SA_MAP, SA_OWNER, SA_RINGS, SA_PHASE, SA_CARGO,
       SA_STATIONS_USED };
#ifdef DICT_TAG
static struct {
    PyObject *d; /* not held: (address, version) is unique */
    uint64_t tag;
    PyObject *v[NSATTR]; /* held; NULL not read */
} skept;
#endif

/* state.<sdict_names[k]>, a new reference: from d (the state's __dict__, or NULL) where it is
   there, else PyObject_GetAttr (NULL with its error) */
static PyObject *sattr(PyObject *d, PyObject *state, int k)
{
    PyObject *name = *sdict_names[k];
    if (!d)
        return PyObject_GetAttr(state, name);
#ifdef DICT_TAG
    uint64_t tag = DICT_TAG(d);
    if (d == skept.d && tag == skept.tag && skept.v[k])
        return Py_NewRef(skept.v[k]);
#endif
    PyObject *v = cread_dict_get(d, state, name);
#ifdef DICT_TAG
    if (v && DICT_TAG(d) == tag) { /* (nothing ran meanwhile) */
        PyObject *old[NSATTR];
        size_t nold = 0;
        if (d != skept.d || tag != skept.tag) {
            for (size_t j = 0; j < NSATTR; j++)
                if (skept.v[j]) {
                    old[nold++] = skept.v[j];
                    skept.v[j] = NULL;
                }
            skept.d = d;
            skept.tag = tag;
        }
        if (!skept.v[k])
            skept.v[k] = Py_NewRef(v);
        for (size_t j = 0; j < nold; j++)
            Py_DECREF(old[j]);
    }
#endif
    return v;
}

/* an int state attribute, as int_attr */
static int int_sattr(PyObject *d, PyObject *state, int k, long long *out)
{
    if (!d)
        return int_attr(state, *sdict_names[k], out);
    PyObject *v = sattr(d, state, k);
    if (!v)
        return 0;
    int r = PyLong_CheckExact(v) ? as_ll(v, -((long long)1 << 40), (long long)1 << 40, out) : 0;
    Py_DECREF(v);
    return r;
}

#ifdef DICT_TAG
/* a face's units for a route (a first, a second) as last looked up, kept while the table (not
   held: (address, version) is unique) is at the same version; each face held */
#define NUNITS 16
typedef struct {
    PyObject *dict;
    uint64_t tag;
    PyObject *face[NUNITS];
    long long units[NUNITS];
} UnitsKept;
static UnitsKept units_kept[2];
#endif

static PyObject *routes_enumerate(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "enumerate() takes 3 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *state = args[0], *ctx = args[2];
    if (!PyLong_CheckExact(args[1]) || !PyTuple_CheckExact(ctx) || PyTuple_GET_SIZE(ctx) != 7)
        Py_RETURN_NONE;
    PyObject *units_by[2] = {PyTuple_GET_ITEM(ctx, 1), PyTuple_GET_ITEM(ctx, 2)};
    if (!PyDict_CheckExact(units_by[0]) || !PyDict_CheckExact(units_by[1]))
        Py_RETURN_NONE;
    PyObject *result = NULL, *players = NULL, *p = NULL, *dice = NULL, *spent = NULL, *markers = NULL,
             *m = NULL, *owner = NULL, *rings = NULL, *cargo = NULL, *phase = NULL, *n_o = NULL, *ready = NULL,
             *costs = NULL, *cap_o = NULL, *avail_o = NULL, *sd = NULL;
    long long seat, done, saturation, links_owned, n, stations, stations_used;
    if (as_ll(args[1], -((long long)1 << 40), (long long)1 << 40, &seat) <= 0)
        goto unfit;
    sd = cread_dict_of(&sdict_fit, state, sdict_names, NSATTR, 0);
    if (int_sattr(sd, state, SA_ROUTES_DONE, &done) <= 0)
        goto unfit;
    if (done >= 2) {
        result = PyList_New(0);
        goto done;
    }
    if (int_sattr(sd, state, SA_SATURATION, &saturation) <= 0)
        goto unfit;
    if (saturation <= 0) {
        result = PyList_New(0);
        goto done;
    }
    players = sattr(sd, state, SA_PLAYERS);
    if (!players || !PyList_CheckExact(players) || seat < 0 || seat >= PyList_GET_SIZE(players))
        goto unfit;
    p = PyList_GET_ITEM(players, seat);
    Py_INCREF(p);
    int second = done == 1;
    if (!(dice = slot_attr(&player_slots, p, P_DICE, player_names, 6))
        || !(spent = slot_attr(&player_slots, p, P_SPENT, player_names, 6)) || !PyList_CheckExact(dice)
        || !PyList_CheckExact(spent) || PyList_GET_SIZE(dice) != PyList_GET_SIZE(spent))
        goto unfit;
    Py_ssize_t nd = PyList_GET_SIZE(dice);
    for (Py_ssize_t i = 0; i < nd; i++) {
        PyObject *f = PyList_GET_ITEM(dice, i), *sp = PyList_GET_ITEM(spent, i);
        if (!PyUnicode_CheckExact(f) || (sp != Py_True && sp != Py_False))
            goto unfit;
    }
    if (second) {
        int any = 0;
        for (Py_ssize_t i = 0; i < nd && !any; i++)
            if (PyList_GET_ITEM(spent, i) == Py_False) {
                PyObject *f = PyList_GET_ITEM(dice, i);
                any = f == s_route || (PyUnicode_GET_LENGTH(f) == PyUnicode_GET_LENGTH(s_route) && PyUnicode_Compare(f, s_route) == 0);
            }
        if (!any) {
            result = PyList_New(0);
            goto done;
        }
    }
    if (int_pattr(p, P_LINKS_OWNED, &links_owned) <= 0)
        goto unfit;
    if (links_owned == 0) {
        result = PyList_New(0);
        goto done;
    }
    /* prepare, as _prepare_c calls it */
    if (!(n_o = sattr(sd, state, SA_N)) || !PyLong_CheckExact(n_o) || as_ll(n_o, 1, MAXOWNERS, &n) <= 0)
        goto unfit;
    if (!(m = sattr(sd, state, SA_MAP)))
        goto unfit;
    if (m != kept_map) {
        PyObject *got = PyObject_CallOneArg(PyTuple_GET_ITEM(ctx, 3), m);
        if (!got || !PyTuple_CheckExact(got) || PyTuple_GET_SIZE(got) != 2 || !PyBytes_CheckExact(PyTuple_GET_ITEM(got, 0))
            || !PyLong_CheckExact(PyTuple_GET_ITEM(got, 1))) {
            Py_XDECREF(got);
            goto unfit;
        }
        Py_XSETREF(kept_ends, Py_NewRef(PyTuple_GET_ITEM(got, 0)));
        Py_XSETREF(kept_nc, Py_NewRef(PyTuple_GET_ITEM(got, 1)));
        Py_XSETREF(kept_map, Py_NewRef(m));
        Py_DECREF(got);
    }
    if (!(owner = sattr(sd, state, SA_OWNER)) || !(rings = sattr(sd, state, SA_RINGS))
        || !(phase = sattr(sd, state, SA_PHASE)) || !(cargo = sattr(sd, state, SA_CARGO)))
        goto unfit;
    {
        PyObject *ci = PyTuple_GET_ITEM(ctx, 0), *bits_o = PyTuple_GET_ITEM(ctx, 4);
        /* the board memo: its key read as prepare reads it (the colour table read first) */
        long long bits, ncv, phv;
        int keyed = PyList_Check(owner) && PyList_Check(rings) && PyList_Check(cargo) && PyDict_CheckExact(ci)
                    && PyBytes_Check(kept_ends) && as_ll(kept_nc, 1, MAXC, &ncv) > 0 && as_ll(bits_o, 1, 16, &bits) > 0
                    && as_ll(phase, INT32_MIN, INT32_MAX, &phv) > 0 && seat >= 0 && seat < n && seat < NSEATMEMO;
        if (PyErr_Occurred())
            goto unfit;
#ifdef DICT_TAG
        /* the colour table unchanged since the board was kept: the names kept are its own */
        int same_ci = board_kept.valid && ci == board_kept.colour_index && DICT_TAG(ci) == board_kept.ci_tag
                      && board_kept.epoch == colours_epoch;
#else
        int same_ci = 0;
#endif
        if (keyed && !same_ci) {
            Colours cs;
            colours_read(&cs, ci);
            keyed = cs.memo;
        }
        if (keyed) {
            uint64_t gen = board_gen;
            if (!board_same(kept_ends, (int)ncv, owner, n_o, rings, phase, cargo, ci, (int)bits)) {
                Board local;
                int r = prepare_board(kept_ends, (int)ncv, owner, (int)n, rings, (int)phv, cargo, ci, (int)bits, &local);
                if (r <= 0)
                    goto unfit;
                gen = board_keep(&local, owner, n_o, rings, phase, cargo, ci);
            }
            /* (letting go of objects may have run Python code that asked for another board) */
            if (board_gen != gen)
                goto unfit;
            if (board_kept.ready[seat]) {
                ready = Py_NewRef(board_kept.ready[seat]);
            } else {
                if (!(ready = prepare_seat(&board_kept.board, (int)seat, 1, gen)))
                    goto unfit;
                if (board_gen == gen && !board_kept.ready[seat])
                    board_kept.ready[seat] = Py_NewRef(ready);
            }
        } else {
            PyObject *pargs[10] = {kept_ends, kept_nc, owner, n_o, rings, phase, cargo, ci, args[1], bits_o};
            ready = routes_prepare(self, pargs, 10);
        }
    }
    if (!ready || ready == Py_None)
        goto unfit;
    if (ready == Py_False) {
        result = PyList_New(0);
        goto done;
    }
    /* the seat's "any" dice for a route (generic_budget) */
    long long budget = 0;
    if (!(markers = slot_attr(&player_slots, p, P_MARKERS, player_names, 6)) || !PyList_CheckExact(markers))
        goto unfit;
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(markers); k++) {
        long long x;
        PyObject *v = PyList_GET_ITEM(markers, k);
        if (!PyLong_CheckExact(v) || as_ll(v, -((long long)1 << 40), (long long)1 << 40, &x) <= 0)
            goto unfit;
        budget += x;
    }
    PyObject *units = units_by[second];
    for (Py_ssize_t i = 0; i < nd; i++) {
        if (PyList_GET_ITEM(spent, i) != Py_False)
            continue;
        PyObject *face = PyList_GET_ITEM(dice, i);
        long long x;
#ifdef DICT_TAG
        /* the face's units as last looked up in this table, at its version */
        size_t place = (size_t)(((uint64_t)(uintptr_t)face * 0x9E3779B97F4A7C15ULL) >> 60);
        UnitsKept *uk = &units_kept[second];
        uint64_t tag = DICT_TAG(units);
        if (uk->dict == units && uk->tag == tag && uk->face[place] == face) {
            budget += uk->units[place];
            continue;
        }
#endif
        PyObject *u = PyDict_GetItemWithError(units, face), *made = NULL;
        if (!u && !PyErr_Occurred()) { /* a face met first: entered in the table, as generic_budget does */
            made = PyObject_CallFunctionObjArgs(PyTuple_GET_ITEM(ctx, 6), PyList_GET_ITEM(dice, i),
                                                second ? Py_True : Py_False, NULL);
            u = made;
        }
        int fits = u && PyLong_CheckExact(u) && as_ll(u, -((long long)1 << 40), (long long)1 << 40, &x) > 0;
        Py_XDECREF(made);
        if (!fits || PyList_GET_SIZE(dice) != nd || PyList_GET_SIZE(spent) != nd) /* a call may have run */
            goto unfit;
        budget += x;
#ifdef DICT_TAG
        if (!made && DICT_TAG(units) == tag) { /* (nothing ran: kept, the face held) */
            if (uk->dict != units || uk->tag != tag) {
                for (int k = 0; k < NUNITS; k++)
                    Py_CLEAR(uk->face[k]); /* strs: no code runs */
                uk->dict = units;
                uk->tag = tag;
            }
            PyObject *was = uk->face[place];
            uk->face[place] = Py_NewRef(face);
            uk->units[place] = x;
            Py_XDECREF(was);
        }
#endif
    }
    if (budget <= 0) {
        result = PyList_New(0);
        goto done;
    }
    if (int_pattr(p, P_STATIONS, &stations) <= 0 || int_sattr(sd, state, SA_STATIONS_USED, &stations_used) <= 0)
        goto unfit;
    long long avail = stations - stations_used;
    /* the dice per owner's link (owner_link_cost) */
    int64_t cost_of[MAXOWNERS];
    if (n > PyList_GET_SIZE(players))
        goto unfit;
    for (long long o = 0; o < n; o++) {
        long long c = 1;
        if (o != seat) {
            PyObject *imp = slot_attr(&player_slots, PyList_GET_ITEM(players, o), P_IMPROVEMENTS, player_names, 6);
            if (!imp)
                goto unfit;
            int has = 0;
            if (PyList_CheckExact(imp)) {
                for (Py_ssize_t k = 0; k < PyList_GET_SIZE(imp) && !has; k++) {
                    PyObject *x = PyList_GET_ITEM(imp, k);
                    if (!PyUnicode_CheckExact(x)) {
                        has = -1;
                        break;
                    }
                    has = x == s_friendly
                          || (PyUnicode_GET_LENGTH(x) == PyUnicode_GET_LENGTH(s_friendly) && PyUnicode_Compare(x, s_friendly) == 0);
                }
            } else {
                has = -1;
            }
            Py_DECREF(imp);
            if (has < 0)
                goto unfit;
            c = has ? 1 : 2;
        }
        cost_of[o] = c;
    }
    {
        /* search(), its arguments as it reads them */
        long long slack, cap = budget + avail, lim = (long long)1 << 40;
        if (!Py_IS_TYPE(ready, &PreparedType) || ((Prepared *)ready)->n != n || cap < -lim || cap > lim || avail < -lim
            || avail > lim || as_ll(PyTuple_GET_ITEM(ctx, 5), -lim, lim, &slack) <= 0)
            goto unfit;
        result = search_impl((const Prepared *)ready, cost_of, cap, avail, slack);
    }
    if (!result)
        goto unfit;
    goto done;
unfit: /* the Python answers (and raises where it raises) */
    PyErr_Clear();
    Py_CLEAR(result);
    result = Py_NewRef(Py_None);
done:
    Py_XDECREF(players);
    Py_XDECREF(p);
    Py_XDECREF(dice);
    Py_XDECREF(spent);
    Py_XDECREF(markers);
    Py_XDECREF(m);
    Py_XDECREF(owner);
    Py_XDECREF(rings);
    Py_XDECREF(cargo);
    Py_XDECREF(phase);
    Py_XDECREF(n_o);
    Py_XDECREF(ready);
    Py_XDECREF(costs);
    Py_XDECREF(cap_o);
    Py_XDECREF(avail_o);
    Py_XDECREF(sd);
    return result;
}

static PyMethodDef methods[] = {
    {"enumerate", (PyCFunction)(void (*)(void))routes_enumerate, METH_FASTCALL,
     "enumerate(state, seat, ctx) -> list | None\n\n"
     "routes.enumerate_routes read from the state in C (prepare and search included), or None where\n"
     "anything is not as a game state has it (then run routes._enumerate_py)."},
    {"prepare", (PyCFunction)(void (*)(void))routes_prepare, METH_FASTCALL,
     "prepare(ends, nc, owner, n, rings, phase, cargo, colour_index, seat, owner_bits) -> Prepared | False | None\n\n"
     "What routes.enumerate_routes' compiled search reads from the state (the links' owners, the\n"
     "cities wanting each colour, the walks to make), for search(); False where routes._could_route\n"
     "is: no route at any price; None where the numbers do not fit in fixed-width integers or the\n"
     "arguments are not shaped as a game state's (search it in Python)."},
    {"search", (PyCFunction)(void (*)(void))routes_search, METH_FASTCALL,
     "search(prepared, costs, cap, avail, slack) -> list | None\n\n"
     "routes._search_py compiled (its graph, cheapest rests and walks) for the state prepare() read:\n"
     "the routes as (origin, colour, dest, path, cost) tuples in the same order. None where the\n"
     "numbers do not fit (search it in Python)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_routes", "Rolling Freight's major-route search, compiled (routes.enumerate_routes; issue 34).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__routes(void)
{
    static const char *const names[] = {"routes_done", "saturation", "players", "dice", "spent", "links_owned", "n",
                                        "map", "owner", "rings", "phase", "cargo", "markers", "stations",
                                        "stations_used", "improvements", "route", "Friendly"};
    PyObject **slots[] = {&s_routes_done, &s_saturation, &s_players, &s_dice, &s_spent, &s_links_owned, &s_n, &s_map,
                          &s_owner, &s_rings, &s_phase, &s_cargo, &s_markers, &s_stations, &s_stations_used,
                          &s_improvements, &s_route, &s_friendly};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (!(*slots[k] = PyUnicode_InternFromString(names[k])))
            return NULL;
    PyObject *pn[6] = {s_dice, s_spent, s_links_owned, s_markers, s_stations, s_improvements};
    memcpy(player_names, pn, sizeof pn);
    for (int x = SMALL_LO; x <= SMALL_HI; x++)
        if (!(small_ints[x - SMALL_LO] = PyLong_FromLong(x)))
            return NULL;
    small_ints_place();
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddType(m, &PreparedType) < 0)
        Py_CLEAR(m);
    return m;
}
