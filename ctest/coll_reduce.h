/*
 * coll_reduce.h (part of test_collectives): reduce, allreduce, scan, exscan, reduce_scatter and
 * reduce_scatter_block for every (datatype, op) pair the type accepts, blocking and
 * non-blocking, with and without NEXAR_IN_PLACE, every root, counts 0, 1, 7 and large, against a
 * reference every rank computes locally from gen(rank, index).
 *
 * Inputs are small integers (quarters for floats) so every partial result is exact in every
 * type: results must equal the reference whatever order the library reduces in.
 */
#ifndef NEXAR_CTEST_COLL_REDUCE_H
#define NEXAR_CTEST_COLL_REDUCE_H

#include "coll_util.h"

enum rcoll { R_REDUCE, R_ALLREDUCE, R_SCAN, R_EXSCAN, R_RS, R_RSB, R_NCOLL };
static const char *const RNAMES[] = { "reduce", "allreduce", "scan", "exscan", "reduce_scatter",
                                      "reduce_scatter_block" };
static const char *const OPNAMES[] = { "?", "sum", "prod", "min", "max", "land", "lor",
                                       "lxor", "band", "bor", "bxor", "minloc", "maxloc" };

/* Whether `op` is defined for `t` (the MPI rules). */
static int op_valid(const type_t *t, int op)
{
    if (t->kind == K_PAIR) {
        return op == NEXAR_OP_MINLOC || op == NEXAR_OP_MAXLOC;
    }
    if (op >= NEXAR_OP_SUM && op <= NEXAR_OP_MAX) {
        return 1;
    }
    return op >= NEXAR_OP_LAND && op <= NEXAR_OP_BXOR && t->kind != K_FLOAT;
}

typedef struct {
    double v;
    int idx;
} val_t;

/* Input element `i` of rank `rank` for reducing `t` with `op`. */
static val_t rgen(const type_t *t, int op, int rank, size_t i, int salt)
{
    unsigned h = (unsigned)rank * 7u + (unsigned)(i % 1009) * 13u + (unsigned)salt * 5u +
                 (unsigned)op * 3u;
    val_t r = { 0, 0 };
    if (t->kind == K_PAIR) { /* few distinct values: ties, resolved by the lowest index */
        r.v = (double)((int)(h % 3) - 1) * (t->vkind == K_FLOAT ? 0.5 : 1.0);
        r.idx = (int)(((unsigned)rank * 5u + (unsigned)(i % 1009) * 3u + (unsigned)salt) % 7);
        return r;
    }
    int sgn = t->kind != K_UNSIGNED;
    if (op == NEXAR_OP_PROD) {
        r.v = sgn ? (int)(h % 5) - 2 : (int)(h % 3) + 1;
    } else if (op >= NEXAR_OP_LAND && op <= NEXAR_OP_LXOR) {
        r.v = sgn ? (int)(h % 4) - 1 : (int)(h % 3);
    } else {
        r.v = sgn ? (int)(h % 11) - 5 : (int)(h % 11);
    }
    if (t->kind == K_FLOAT && op != NEXAR_OP_PROD) {
        r.v *= 0.25;
    }
    return r;
}

static val_t rcombine(int op, val_t a, val_t b)
{
    int64_t x = (int64_t)a.v, y = (int64_t)b.v;
    val_t r = a;
    switch (op) {
    case NEXAR_OP_SUM: r.v = a.v + b.v; break;
    case NEXAR_OP_PROD: r.v = a.v * b.v; break;
    case NEXAR_OP_MIN: r.v = b.v < a.v ? b.v : a.v; break;
    case NEXAR_OP_MAX: r.v = b.v > a.v ? b.v : a.v; break;
    case NEXAR_OP_LAND: r.v = (a.v != 0) && (b.v != 0); break;
    case NEXAR_OP_LOR: r.v = (a.v != 0) || (b.v != 0); break;
    case NEXAR_OP_LXOR: r.v = (a.v != 0) != (b.v != 0); break;
    case NEXAR_OP_BAND: r.v = (double)(x & y); break;
    case NEXAR_OP_BOR: r.v = (double)(x | y); break;
    case NEXAR_OP_BXOR: r.v = (double)(x ^ y); break;
    case NEXAR_OP_MINLOC:
    case NEXAR_OP_MAXLOC: {
        int b_wins = op == NEXAR_OP_MINLOC ? b.v < a.v : b.v > a.v;
        if (b_wins) {
            r = b;
        } else if (a.v == b.v) {
            r.idx = b.idx < a.idx ? b.idx : a.idx;
        }
        break;
    }
    default: REQUIRE(!"unknown op");
    }
    return r;
}

typedef struct {
    int coll, op, root, inplace, nb, salt;
    const type_t *t;
    size_t n;               /* count (per rank for reduce_scatter_block) */
    size_t counts[MAXR];    /* reduce_scatter's recvcounts */
    size_t in_elems;        /* input elements */
    size_t my_elems, my_off; /* this rank's result: length, index of its first element */
    size_t recv_elems;      /* receive buffer elements before the guard */
    unsigned char *send, *recv, *before;
    nexar_request_t req;
    char desc[200];
} rcase;

static int rcase_in_place_here(const rcase *c)
{
    return c->inplace && (c->coll != R_REDUCE || g_rank == c->root);
}

static void rsetup(rcase *c)
{
    const type_t *t = c->t;
    size_t es = t->size;
    c->my_off = 0;
    c->in_elems = c->my_elems = c->n;
    if (c->coll == R_RS) {
        c->in_elems = 0;
        for (int j = 0; j < g_size; j++) {
            c->counts[j] = (j + c->salt) % 3 == 1 ? 0 : c->n + (size_t)j; /* zero blocks too */
            if (j < g_rank) {
                c->my_off += c->counts[j];
            }
            c->in_elems += c->counts[j];
        }
        c->my_elems = c->counts[g_rank];
    } else if (c->coll == R_RSB) {
        c->in_elems = c->n * (size_t)g_size;
        c->my_off = c->n * (size_t)g_rank;
    }
    int split = c->coll == R_RS || c->coll == R_RSB;
    c->recv_elems = split && c->inplace ? c->in_elems : c->my_elems;
    c->send = xmalloc(c->in_elems * es);
    memset(c->send, 0, c->in_elems * es);
    for (size_t i = 0; i < c->in_elems; i++) {
        val_t v = rgen(t, c->op, g_rank, i, c->salt);
        put_elem(t, c->send, i, v.v, v.idx);
    }
    size_t rb = (c->recv_elems + GUARD) * es;
    /* Non-roots of reduce may pass NULL: odd ranks do, even ranks pass a buffer that must stay
     * untouched. */
    c->recv = c->coll == R_REDUCE && g_rank != c->root && g_rank % 2 ? NULL : sent_buf(rb);
    if (rcase_in_place_here(c)) {
        memcpy(c->recv, c->send, c->in_elems * es);
    }
    c->before = NULL;
    if (c->recv) {
        c->before = xmalloc(rb);
        memcpy(c->before, c->recv, rb);
    }
    c->req = NEXAR_REQUEST_NULL;
    snprintf(c->desc, sizeof c->desc, "%s %s %s n=%zu root=%d %s%s salt=%d", RNAMES[c->coll],
             t->name, OPNAMES[c->op], c->n, c->root, c->nb ? "nonblocking" : "blocking",
             c->inplace ? " in-place" : "", c->salt);
}

static int rstart(rcase *c)
{
    const void *s = rcase_in_place_here(c) ? NEXAR_IN_PLACE : (const void *)c->send;
    void *r = c->recv;
    nexar_datatype_t dt = c->t->dt;
    nexar_request_t *q = &c->req;
    int nb = c->nb;
    switch (c->coll) {
    case R_REDUCE:
        return nb ? nexar_ireduce(s, r, c->n, dt, c->op, c->root, g_comm, q)
                  : nexar_reduce(s, r, c->n, dt, c->op, c->root, g_comm);
    case R_ALLREDUCE:
        return nb ? nexar_iallreduce(s, r, c->n, dt, c->op, g_comm, q)
                  : nexar_allreduce(s, r, c->n, dt, c->op, g_comm);
    case R_SCAN:
        return nb ? nexar_iscan(s, r, c->n, dt, c->op, g_comm, q)
                  : nexar_scan(s, r, c->n, dt, c->op, g_comm);
    case R_EXSCAN:
        return nb ? nexar_iexscan(s, r, c->n, dt, c->op, g_comm, q)
                  : nexar_exscan(s, r, c->n, dt, c->op, g_comm);
    case R_RS:
        return nb ? nexar_ireduce_scatter(s, r, c->counts, dt, c->op, g_comm, q)
                  : nexar_reduce_scatter(s, r, c->counts, dt, c->op, g_comm);
    default:
        return nb ? nexar_ireduce_scatter_block(s, r, c->n, dt, c->op, g_comm, q)
                  : nexar_reduce_scatter_block(s, r, c->n, dt, c->op, g_comm);
    }
}

static void rverify(rcase *c)
{
    const type_t *t = c->t;
    size_t es = t->size, rb = (c->recv_elems + GUARD) * es;
    CTX("%s", c->desc);
    if (!c->recv) {
        return;
    }
    int untouched = (c->coll == R_REDUCE && g_rank != c->root) ||
                    (c->coll == R_EXSCAN && g_rank == 0);
    if (untouched) {
        size_t d = first_diff(c->recv, c->before, rb);
        if (d != (size_t)-1) {
            check_report(__FILE__, __LINE__, "CHECK", "buffer that must stay untouched changed "
                         "at byte %zu", d);
        }
        return;
    }
    int hi = c->coll == R_SCAN ? g_rank : c->coll == R_EXSCAN ? g_rank - 1 : g_size - 1;
    for (size_t i = 0; i < c->my_elems; i++) {
        size_t gi = c->my_off + i;
        val_t e = rgen(t, c->op, 0, gi, c->salt);
        for (int r = 1; r <= hi; r++) {
            e = rcombine(c->op, e, rgen(t, c->op, r, gi, c->salt));
        }
        double got = get_val(t, c->recv, i);
        int gidx = t->kind == K_PAIR ? get_idx(t, c->recv, i) : 0;
        if (got != e.v || gidx != e.idx) {
            check_report(__FILE__, __LINE__, "CHECK", "element %zu: got %g (index %d), expected "
                         "%g (index %d)", i, got, gidx, e.v, e.idx);
            return;
        }
    }
    size_t end = c->recv_elems * es;
    size_t d = first_diff(c->recv + end, c->before + end, GUARD * es);
    if (d != (size_t)-1) {
        check_report(__FILE__, __LINE__, "CHECK", "write past the result: guard byte %zu", d);
    }
}

/* Runs `n` cases: blocking one by one, or non-blocking all started then completed together. */
static void rrun(rcase *cs, size_t n, int nb, int style)
{
    for (size_t i = 0; i < n; i++) {
        cs[i].nb = nb;
        rsetup(&cs[i]);
    }
    if (nb) {
        nexar_request_t *reqs = xmalloc((n + 1) * sizeof *reqs);
        for (size_t i = 0; i < n; i++) {
            CTX("%s", cs[i].desc);
            CHECK_OK(rstart(&cs[i]));
            REQUIRE(cs[i].req != NEXAR_REQUEST_NULL);
            if (!rcase_in_place_here(&cs[i])) { /* send buffers are copied at the start */
                memset(cs[i].send, 0x5A, cs[i].in_elems * cs[i].t->size);
            }
            reqs[i] = cs[i].req;
        }
        CTX("completing %zu %s requests (style %d)", n, RNAMES[cs[0].coll], style % 5);
        complete_requests(reqs, n, style);
        free(reqs);
    }
    for (size_t i = 0; i < n; i++) {
        if (!nb) {
            CTX("%s", cs[i].desc);
            CHECK_OK(rstart(&cs[i]));
        }
        rverify(&cs[i]);
        free(cs[i].send);
        free(cs[i].recv);
        free(cs[i].before);
    }
    check_ctx[0] = '\0';
}

/* Types every reduction runs with; allreduce runs with all of TYPES. */
static const nexar_datatype_t RTYPES[] = { NEXAR_DTYPE_INT32, NEXAR_DTYPE_INT64,
                                           NEXAR_DTYPE_UINT8, NEXAR_DTYPE_FLOAT,
                                           NEXAR_DTYPE_DOUBLE, NEXAR_DTYPE_DOUBLE_INT,
                                           NEXAR_DTYPE_2INT };

/* Every reduction collective on g_comm. `full` = 0 runs a smaller matrix. */
static void test_reductions(int full)
{
    size_t cap = 4096, style = 0;
    rcase *cs = xmalloc(cap * sizeof *cs);
    for (int coll = 0; coll < R_NCOLL; coll++) {
        for (int mode = 0; mode < 4; mode++) {
            int nb = mode & 1, inplace = mode >> 1;
            size_t n = 0, combo = 0;
            size_t ntypes = coll == R_ALLREDUCE && full ? NTYPES : full ? 7 : 2;
            for (size_t ti = 0; ti < ntypes; ti++) {
                const type_t *t = coll == R_ALLREDUCE && full ? &TYPES[ti] : type_of(RTYPES[ti * (full ? 1 : 5)]);
                for (int op = NEXAR_OP_SUM; op <= NEXAR_OP_MAXLOC; op++) {
                    if (!op_valid(t, op)) {
                        continue;
                    }
                    static const size_t COUNTS[] = { 7, 1, 7, 0, 7, 3 };
                    size_t count = COUNTS[combo++ % 6];
                    int nroots = coll == R_REDUCE ? g_size : 1;
                    for (int root = 0; root < nroots; root++) {
                        REQUIRE(n < cap);
                        cs[n++] = (rcase){ .coll = coll, .op = op, .root = root, .t = t,
                                           .n = count, .inplace = inplace,
                                           .salt = (int)(combo + (size_t)root) % 3 };
                    }
                }
            }
            /* Larger counts: segmented and pipelined paths. */
            static const struct { nexar_datatype_t dt; int op; size_t n; } BIG[] = {
                { NEXAR_DTYPE_INT32, NEXAR_OP_SUM, 40000 },
                { NEXAR_DTYPE_DOUBLE, NEXAR_OP_MAX, 4099 },
                { NEXAR_DTYPE_DOUBLE_INT, NEXAR_OP_MINLOC, 1031 },
            };
            for (size_t b = 0; b < (full ? 3u : 1u); b++) {
                cs[n++] = (rcase){ .coll = coll, .op = BIG[b].op, .root = g_size - 1,
                                   .t = type_of(BIG[b].dt), .n = BIG[b].n, .inplace = inplace,
                                   .salt = 1 };
            }
            if (full && coll == R_ALLREDUCE) { /* 4 MiB: many segments / stream windows */
                cs[n++] = (rcase){ .coll = coll, .op = NEXAR_OP_SUM, .root = 0,
                                   .t = type_of(NEXAR_DTYPE_INT64), .n = (size_t)1 << 19,
                                   .inplace = inplace, .salt = 2 };
            }
            /* At most 64 requests in flight per batch. */
            for (size_t at = 0; at < n; at += nb ? 64 : n) {
                size_t k = n - at < 64 || !nb ? n - at : 64;
                rrun(cs + at, k, nb, (int)style++);
            }
        }
    }
    free(cs);
}

#endif /* NEXAR_CTEST_COLL_REDUCE_H */
