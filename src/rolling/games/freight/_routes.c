/* The major-route search of Rolling Freight, compiled (issue 34: a faster Freight engine).

   `search(ends, nc, owner, costs, rings, phase, cargo, colour_index, cap, seat, avail, slack,
   owner_bits)` is the part of `rolling.games.freight.routes.enumerate_routes` after its cheap
   checks, step for step: the graph of completed links (`_route_graph`: per city its steps in link
   order, the first link of each neighbour and owner kept; the neighbour masks; the cheapest dice
   between two cities), the cities wanting each colour, the fewest dice on to a wanting city
   (`_cheapest_rest`), and the depth-first walk (`_walk`) from each cargo marker in city order and
   each of its colours in the order first held, keeping the first path of each outcome. It returns
   the same list: `(origin, colour, dest, path, cost)` tuples in the same order.

   Python's integers are unbounded; here a set of cities is a 64-bit mask, the packed count of
   links per owner a 64-bit integer, dice 64-bit. A search whose numbers do not fit (more than 64
   cities, too many owners for the packed counts, a cost or cap out of range) or whose arguments
   are not shaped as the engine's state returns None, and the caller searches in Python: the
   answer never depends on which one searched.

   The rules this serves are in routes.py; nothing here decides anything the Python search does
   not. Built as an optional extension: where no C compiler is found the package installs without
   it and routes.py searches in Python. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXC 64        /* cities: one bit each in a 64-bit mask */
#define NCOLOURS 16    /* colour indices (colour_index's values) */
#define MAX_COST (1 << 20)

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

/* an open-addressing set of keys of three 64-bit words (the outcome keys and the repeats) */
typedef struct {
    uint64_t *k; /* 3 words per slot, slot used when used[i] */
    unsigned char *used;
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
    free(s->used);
    s->k = NULL;
    s->used = NULL;
    s->cap = s->n = 0;
}

static void set_clear(Set *s)
{
    if (s->n) {
        memset(s->used, 0, s->cap);
        s->n = 0;
    }
}

static int set_init(Set *s, size_t cap)
{
    s->k = malloc(3 * cap * sizeof(uint64_t));
    s->used = calloc(cap, 1);
    s->cap = cap;
    s->n = 0;
    return s->k && s->used;
}

static size_t set_slot(const Set *s, uint64_t a, uint64_t b, uint64_t c)
{
    size_t mask = s->cap - 1;
    size_t i = (size_t)mix(a * 0x9E3779B97F4A7C15ULL ^ b * 0xC2B2AE3D27D4EB4FULL ^ c * 0x165667B19E3779F9ULL) & mask;
    while (s->used[i]) {
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
    if (s->used[i])
        return 0;
    if (2 * (s->n + 1) > s->cap) {
        Set t;
        if (!set_init(&t, 2 * s->cap))
            return -1;
        for (size_t j = 0; j < s->cap; j++)
            if (s->used[j]) {
                const uint64_t *k = s->k + 3 * j;
                size_t m = set_slot(&t, k[0], k[1], k[2]);
                t.used[m] = 1;
                memcpy(t.k + 3 * m, k, 3 * sizeof(uint64_t));
                t.n++;
            }
        set_free(s);
        *s = t;
        i = set_slot(s, a, b, c);
    }
    s->used[i] = 1;
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

static void *vec_push(Vec *v)
{
    if (v->n == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 256;
        void *p = realloc(v->p, cap * v->size);
        if (!p)
            return NULL;
        v->p = p;
        v->cap = cap;
    }
    return (char *)v->p + v->size * v->n++;
}

/* a Python int as a long long in [lo, hi]: 1, 0 out of range or not an int, -1 error */
static int as_ll(PyObject *v, long long lo, long long hi, long long *out)
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

typedef struct {
    int nc;
    Step *steps[MAXC];
    int nsteps[MAXC];
    uint64_t nbrmask[MAXC];
    int64_t cheapest[MAXC][MAXC];
} Graph;

/* _cheapest_rest: per city the fewest dice on to a city of wmask, -1 where none is reachable
   (the distances are Dijkstra's, whatever order ties are taken in) */
static void cheapest_rest(const Graph *g, uint64_t wmask, int64_t *rest)
{
    int64_t dist[MAXC];
    int done[MAXC];
    for (int c = 0; c < g->nc; c++) {
        dist[c] = (wmask >> c & 1) ? 0 : -1;
        done[c] = 0;
        rest[c] = -1;
    }
    for (;;) {
        int best = -1;
        for (int c = 0; c < g->nc; c++)
            if (!done[c] && dist[c] >= 0 && (best < 0 || dist[c] < dist[best]))
                best = c;
        if (best < 0)
            break;
        done[best] = 1;
        rest[best] = dist[best];
        uint64_t m = g->nbrmask[best];
        while (m) {
            int b = __builtin_ctzll(m);
            m &= m - 1;
            int64_t d = dist[best] + g->cheapest[best][b];
            if (!done[b] && (dist[b] < 0 || d < dist[b]))
                dist[b] = d;
        }
    }
}

typedef struct {
    Vec stack, nodes, found;
    Set keys, repeats;
} Work;

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

/* the colour index of a colour name (0..NCOLOURS-1): 1, 0 unknown, -1 error */
static int colour_of(PyObject *colour_index, PyObject *name, int *out)
{
    PyObject *v = PyDict_GetItemWithError(colour_index, name); /* borrowed */
    if (!v)
        return PyErr_Occurred() ? -1 : 0;
    long long x;
    int r = as_ll(v, 0, NCOLOURS - 1, &x);
    if (r > 0)
        *out = (int)x;
    return r;
}

static PyObject *routes_search(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *ends, *owner, *costs, *rings, *cargo, *colour_index, *cap_o, *avail_o, *slack_o;
    int nc, phase, seat, owner_bits;
    if (!PyArg_ParseTuple(args, "O!iO!O!O!iO!O!OiOOi:search", &PyBytes_Type, &ends, &nc, &PyList_Type, &owner,
                          &PyTuple_Type, &costs, &PyList_Type, &rings, &phase, &PyList_Type, &cargo, &PyDict_Type,
                          &colour_index, &cap_o, &seat, &avail_o, &slack_o, &owner_bits))
        return NULL;
    PyObject *result = NULL;
    Graph *g = NULL;
    Step *pool = NULL;
    Work w;
    memset(&w, 0, sizeof w);
    w.stack.size = sizeof(Entry);
    w.nodes.size = sizeof(PathNode);
    w.found.size = sizeof(Found);
    /* origin and colour of each walk's first found route, in walk order */
    int walk_origin[MAXC * NCOLOURS];
    PyObject *walk_colour[MAXC * NCOLOURS]; /* borrowed from cargo */
    size_t walk_end[MAXC * NCOLOURS];
    int nwalks = 0;
    int r = 0;
    long long cap, avail, slack;
    Py_ssize_t nlinks = PyList_GET_SIZE(owner);
    Py_ssize_t n = PyTuple_GET_SIZE(costs);
    if (nc < 1 || nc > MAXC || PyBytes_GET_SIZE(ends) != 2 * nlinks || nlinks > 127 || n < 1
        || owner_bits < 1 || owner_bits > 16 || 6 + (long long)owner_bits * (n - 1) > 64 || seat < 0 || seat >= n
        || PyList_GET_SIZE(rings) != nc || PyList_GET_SIZE(cargo) != nc)
        goto unfit;
    if ((r = as_ll(cap_o, -((long long)1 << 40), (long long)1 << 40, &cap)) <= 0
        || (r = as_ll(avail_o, -((long long)1 << 40), (long long)1 << 40, &avail)) <= 0
        || (r = as_ll(slack_o, -((long long)1 << 40), (long long)1 << 40, &slack)) <= 0)
        goto unfit;
    int64_t cost_of[64];
    for (Py_ssize_t o = 0; o < n; o++) {
        long long x;
        if ((r = as_ll(PyTuple_GET_ITEM(costs, o), 0, MAX_COST, &x)) <= 0)
            goto unfit;
        cost_of[o] = x;
    }

    /* _route_graph */
    g = malloc(sizeof *g);
    pool = malloc((size_t)(2 * nlinks + 1) * sizeof(Step));
    if (!g || !pool) {
        PyErr_NoMemory();
        goto fail;
    }
    g->nc = nc;
    const unsigned char *ab = (const unsigned char *)PyBytes_AS_STRING(ends);
    /* each city's steps in link order: count first, then fill */
    int count[MAXC] = {0};
    int owner_of[128];
    for (Py_ssize_t i = 0; i < nlinks; i++) {
        long long o;
        if ((r = as_ll(PyList_GET_ITEM(owner, i), -1, n - 1, &o)) <= 0)
            goto unfit;
        if (ab[2 * i] >= nc || ab[2 * i + 1] >= nc)
            goto unfit;
        owner_of[i] = (int)o;
        if (o >= 0) {
            count[ab[2 * i]]++;
            count[ab[2 * i + 1]]++;
        }
    }
    {
        Step *at = pool;
        for (int c = 0; c < nc; c++) {
            g->steps[c] = at;
            g->nsteps[c] = 0;
            g->nbrmask[c] = 0;
            at += count[c];
            for (int d = 0; d < nc; d++)
                g->cheapest[c][d] = -1;
        }
    }
    for (Py_ssize_t i = 0; i < nlinks; i++) {
        int o = owner_of[i];
        if (o < 0)
            continue;
        for (int dir = 0; dir < 2; dir++) {
            int a = ab[2 * i + dir], b = ab[2 * i + 1 - dir];
            int dup = 0;
            for (int s = 0; s < g->nsteps[a]; s++)
                if (g->steps[a][s].b == b && g->steps[a][s].one == (uint64_t)1 << (owner_bits * o)) {
                    dup = 1;
                    break;
                }
            if (!dup) {
                Step *st = &g->steps[a][g->nsteps[a]++];
                st->b = (int8_t)b;
                st->link = (int8_t)i;
                st->cost = (int32_t)cost_of[o];
                st->one = (uint64_t)1 << (owner_bits * o);
            }
            g->nbrmask[a] |= (uint64_t)1 << b;
            if (g->cheapest[a][b] < 0 || cost_of[o] < g->cheapest[a][b])
                g->cheapest[a][b] = cost_of[o];
        }
    }

    /* the cities whose open rings want each colour */
    uint64_t wanting[NCOLOURS] = {0};
    for (int c = 0; c < nc; c++) {
        PyObject *rs = PyList_GET_ITEM(rings, c);
        if (!PyList_Check(rs))
            goto unfit;
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(rs); k++) {
            PyObject *ring = PyList_GET_ITEM(rs, k);
            if (!PyList_Check(ring) || PyList_GET_SIZE(ring) != 3)
                goto unfit;
            long long ph;
            if ((r = as_ll(PyList_GET_ITEM(ring, 1), -((long long)1 << 40), (long long)1 << 40, &ph)) <= 0)
                goto unfit;
            if (ph > phase)
                continue;
            int sat = PyObject_IsTrue(PyList_GET_ITEM(ring, 2));
            if (sat < 0)
                goto fail;
            if (sat)
                continue;
            int ci;
            r = colour_of(colour_index, PyList_GET_ITEM(ring, 0), &ci);
            if (r < 0)
                goto fail;
            if (r) /* a colour no cargo can have (else the cargo's colour is unknown too: unfit below) */
                wanting[ci] |= (uint64_t)1 << c;
        }
    }

    /* the walks: cargo markers in city order, each city's colours in the order first held */
    if (!set_init(&w.keys, 64) || !set_init(&w.repeats, 256)) {
        PyErr_NoMemory();
        goto fail;
    }
    int64_t rests[NCOLOURS][MAXC];
    int rest_done[NCOLOURS] = {0};
    int own_shift = owner_bits * seat;
    uint64_t own_mask = ((uint64_t)1 << owner_bits) - 1;
    for (int origin = 0; origin < nc; origin++) {
        PyObject *held = PyList_GET_ITEM(cargo, origin);
        if (!PyList_Check(held))
            goto unfit;
        if (!PyList_GET_SIZE(held) || !g->nsteps[origin])
            continue;
        unsigned walked = 0;
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(held); k++) {
            PyObject *colour = PyList_GET_ITEM(held, k);
            int ci;
            r = colour_of(colour_index, colour, &ci);
            if (r < 0)
                goto fail;
            if (!r)
                goto unfit;
            if (walked >> ci & 1)
                continue;
            walked |= 1u << ci;
            uint64_t wmask = wanting[ci];
            if (!wmask)
                continue;
            if (!rest_done[ci]) {
                cheapest_rest(g, wmask, rests[ci]);
                rest_done[ci] = 1;
            }
            if (rests[ci][origin] < 0)
                continue;
            if (walk(g, &w, origin, wmask, rests[ci], cap, own_shift, own_mask, slack) < 0) {
                PyErr_NoMemory();
                goto fail;
            }
            walk_origin[nwalks] = origin;
            walk_colour[nwalks] = colour;
            walk_end[nwalks] = w.found.n;
            nwalks++;
        }
    }

    result = PyList_New((Py_ssize_t)w.found.n);
    if (!result)
        goto fail;
    {
        size_t j = 0;
        for (int k = 0; k < nwalks; k++) {
            PyObject *o = NULL, *d = NULL, *path = NULL, *cost = NULL;
            for (; j < walk_end[k]; j++) {
                const Found *f = (const Found *)w.found.p + j;
                o = PyLong_FromLong(walk_origin[k]);
                d = PyLong_FromLong(f->dest);
                path = path_list(&w, f);
                int64_t price = f->base - avail;
                cost = PyLong_FromLongLong(price > 1 ? price : 1);
                if (!o || !d || !path || !cost) {
                    Py_XDECREF(o);
                    Py_XDECREF(d);
                    Py_XDECREF(path);
                    Py_XDECREF(cost);
                    goto fail;
                }
                PyObject *t = PyTuple_New(5);
                if (!t) {
                    Py_DECREF(o);
                    Py_DECREF(d);
                    Py_DECREF(path);
                    Py_DECREF(cost);
                    goto fail;
                }
                Py_INCREF(walk_colour[k]);
                PyTuple_SET_ITEM(t, 0, o);
                PyTuple_SET_ITEM(t, 1, walk_colour[k]);
                PyTuple_SET_ITEM(t, 2, d);
                PyTuple_SET_ITEM(t, 3, path);
                PyTuple_SET_ITEM(t, 4, cost);
                PyList_SET_ITEM(result, (Py_ssize_t)j, t);
            }
        }
    }
    goto out;
unfit:
    if (r < 0 || PyErr_Occurred())
        goto fail;
    goto out;
fail:
    Py_CLEAR(result);
out:
    free(pool);
    free(g);
    free(w.stack.p);
    free(w.nodes.p);
    free(w.found.p);
    set_free(&w.keys);
    set_free(&w.repeats);
    if (!result && !PyErr_Occurred())
        Py_RETURN_NONE; /* does not fit: search in Python */
    return result;
}

static PyMethodDef methods[] = {
    {"search", routes_search, METH_VARARGS,
     "search(ends, nc, owner, costs, rings, phase, cargo, colour_index, cap, seat, avail, slack, owner_bits)\n"
     "-> list | None\n\n"
     "routes.enumerate_routes' search compiled (its graph, cheapest rests and walks): the routes as\n"
     "(origin, colour, dest, path, cost) tuples in the same order. None where the search's numbers do\n"
     "not fit in fixed-width integers or the arguments are not shaped as a game state's (search it in\n"
     "Python)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_routes", "Rolling Freight's major-route search, compiled (routes.enumerate_routes; issue 34).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__routes(void) { return PyModule_Create(&module); }
