/*
 * coll_move.h (part of test_collectives): the data-movement collectives (bcast, gather(v),
 * scatter(v), allgather(v), alltoall(v)), blocking and non-blocking, with and without
 * NEXAR_IN_PLACE, every root, zero counts, zero-length blocks, packed (NULL) displacements,
 * reversed-order displacements with gaps, and overlapping send blocks.
 *
 * Every rank's send data at element e is pat(rank, e), so each rank builds the exact image its
 * receive buffer must hold (gaps and a guard region keep the SENT filler) and compares bytes.
 * Arguments documented as "read at the root only" are passed as NULL on the other ranks.
 */
#ifndef NEXAR_CTEST_COLL_MOVE_H
#define NEXAR_CTEST_COLL_MOVE_H

#include "coll_util.h"

enum mcoll { M_BCAST, M_GATHER, M_GATHERV, M_SCATTER, M_SCATTERV, M_ALLGATHER, M_ALLGATHERV,
             M_ALLTOALL, M_ALLTOALLV, M_NCOLL };
static const char *const MNAMES[] = { "bcast", "gather", "gatherv", "scatter", "scatterv",
                                      "allgather", "allgatherv", "alltoall", "alltoallv" };

typedef struct {
    int coll, root, inplace, nb, layout, salt;
    const type_t *t;
    size_t n;
    size_t sc[MAXR], sd[MAXR], rc[MAXR], rd[MAXR];
    const size_t *sca, *sda, *rca, *rda; /* as passed: NULL where ignored or packed */
    size_t scount, rcount;               /* gatherv / allgatherv sendcount, scatterv recvcount */
    unsigned char *send, *recv, *expect;
    size_t send_bytes, recv_bytes;
    const void *sarg;
    void *rarg;
    nexar_request_t req;
    char desc[200];
} mcase;

/* Block length of rank i in the v-variants: zero for some ranks, different for the others. */
static size_t vcount(int i, int salt, size_t n)
{
    return (i + salt) % 3 == 1 ? 0 : n + (size_t)i;
}

/* alltoallv block from src to dst; `sym`: the same both ways (what in-place needs). */
static size_t a2a_count(int src, int dst, int salt, size_t n, int sym)
{
    int k = sym ? src + dst + salt : src + 2 * dst + salt;
    return k % 3 == 0 ? 0 : n + (size_t)(src + dst);
}

/* Places blocks c[0..p) and returns the elements spanned: layout 0 packed in rank order,
 * 1 reversed rank order with a 2-element head and 1-element gaps, 2 all at 0 (overlapping). */
static size_t place(const size_t *c, size_t *d, int p, int layout)
{
    size_t pos = 0;
    if (layout == 0) {
        for (int i = 0; i < p; i++) {
            d[i] = pos;
            pos += c[i];
        }
        return pos;
    }
    if (layout == 2) {
        for (int i = 0; i < p; i++) {
            d[i] = 0;
            pos = c[i] > pos ? c[i] : pos;
        }
        return pos;
    }
    pos = 2;
    for (int i = p - 1; i >= 0; i--) {
        d[i] = pos;
        pos += c[i] + 1;
    }
    return pos + 1;
}

/* Receive buffer and its expected image, `elems` elements plus the guard, all SENT. */
static void mrecv(mcase *c, size_t elems)
{
    c->recv_bytes = (elems + GUARD) * c->t->size;
    c->recv = sent_buf(c->recv_bytes);
    c->expect = sent_buf(c->recv_bytes);
    c->rarg = c->recv;
}

/* Send buffer of `elems` elements of this rank's pattern. */
static void msend(mcase *c, size_t elems)
{
    c->send_bytes = elems * c->t->size;
    c->send = xmalloc(c->send_bytes);
    fill_pat(c->send, g_rank, 0, elems, c->t->size, c->salt);
    c->sarg = c->send;
}

/* Writes origin's elements [first, first + n) at element `at` of both buffers (prefill) or of
 * the expected image only. */
static void mput(mcase *c, int both, size_t at, int origin, size_t first, size_t n)
{
    size_t es = c->t->size;
    fill_pat(c->expect + at * es, origin, first, n, es, c->salt);
    if (both) {
        fill_pat(c->recv + at * es, origin, first, n, es, c->salt);
    }
}

static void msetup(mcase *c)
{
    int me = g_rank, p = g_size, root = c->root, is_root = me == root;
    size_t n = c->n;
    int ip = c->inplace;
    c->send = c->recv = c->expect = NULL;
    c->sarg = NULL;
    c->rarg = NULL;
    c->sca = c->sda = c->rca = c->rda = NULL;
    c->send_bytes = c->recv_bytes = 0;
    c->req = NEXAR_REQUEST_NULL;
    switch (c->coll) {
    case M_BCAST:
        mrecv(c, n);
        mput(c, is_root, 0, root, 0, n);
        break;
    case M_GATHER:
    case M_GATHERV: {
        int v = c->coll == M_GATHERV;
        c->scount = v ? vcount(me, c->salt, n) : n;
        msend(c, c->scount);
        if (!is_root) { /* recvbuf ignored: NULL on odd ranks, an untouched buffer on even */
            if (me % 2 == 0) {
                mrecv(c, 0);
            }
            break;
        }
        for (int i = 0; i < p; i++) {
            c->rc[i] = v ? vcount(i, c->salt, n) : n;
        }
        mrecv(c, place(c->rc, c->rd, p, v ? c->layout : 0));
        c->rca = c->rc;
        c->rda = c->layout ? c->rd : NULL;
        for (int i = 0; i < p; i++) {
            mput(c, ip && i == me, c->rd[i], i, 0, c->rc[i]);
        }
        if (ip) {
            c->sarg = NEXAR_IN_PLACE;
        }
        break;
    }
    case M_SCATTER:
    case M_SCATTERV: {
        int v = c->coll == M_SCATTERV;
        for (int i = 0; i < p; i++) {
            c->sc[i] = v ? vcount(i, c->salt, n) : n;
        }
        size_t span = place(c->sc, c->sd, p, v ? c->layout : 0);
        c->rcount = c->sc[me];
        if (is_root) {
            /* the root's pattern, origin = root */
            msend(c, span);
            c->sca = c->sc;
            c->sda = c->layout ? c->sd : NULL;
        }
        if (is_root && ip) { /* nothing received: the send buffer must be left alone */
            c->rarg = NEXAR_IN_PLACE;
            c->expect = xmalloc(c->send_bytes);
            memcpy(c->expect, c->send, c->send_bytes);
            break;
        }
        mrecv(c, c->rcount);
        mput(c, 0, 0, root, c->sd[me], c->rcount);
        break;
    }
    case M_ALLGATHER:
    case M_ALLGATHERV: {
        int v = c->coll == M_ALLGATHERV;
        for (int i = 0; i < p; i++) {
            c->rc[i] = v ? vcount(i, c->salt, n) : n;
        }
        c->scount = c->rc[me];
        msend(c, c->scount);
        mrecv(c, place(c->rc, c->rd, p, v ? c->layout : 0));
        c->rca = c->rc;
        c->rda = c->layout ? c->rd : NULL;
        for (int i = 0; i < p; i++) {
            mput(c, ip && i == me, c->rd[i], i, 0, c->rc[i]);
        }
        if (ip) {
            c->sarg = NEXAR_IN_PLACE;
        }
        break;
    }
    case M_ALLTOALL:
        mrecv(c, n * (size_t)p);
        if (ip) {
            fill_pat(c->recv, me, 0, n * (size_t)p, c->t->size, c->salt);
            c->sarg = NEXAR_IN_PLACE;
        } else {
            msend(c, n * (size_t)p);
        }
        for (int i = 0; i < p; i++) {
            mput(c, 0, (size_t)i * n, i, (size_t)me * n, n);
        }
        break;
    default: { /* M_ALLTOALLV: sender i's block for me sits at sd_i[me] of i's buffer */
        int rl = c->layout, sl = ip ? rl : 1 - rl;
        for (int i = 0; i < p; i++) {
            c->rc[i] = a2a_count(i, me, c->salt, n, ip);
            c->sc[i] = a2a_count(me, i, c->salt, n, ip);
        }
        mrecv(c, place(c->rc, c->rd, p, rl));
        c->rca = c->rc;
        c->rda = rl ? c->rd : NULL;
        if (ip) {
            for (int j = 0; j < p; j++) { /* my block for j, by position in my buffer */
                fill_pat(c->recv + c->rd[j] * c->t->size, me, c->rd[j], c->rc[j], c->t->size,
                         c->salt);
            }
            c->sarg = NEXAR_IN_PLACE;
        } else {
            msend(c, place(c->sc, c->sd, p, sl));
            c->sca = c->sc;
            c->sda = sl ? c->sd : NULL;
        }
        for (int i = 0; i < p; i++) {
            size_t ic[MAXR] = { 0 }, id[MAXR] = { 0 };
            for (int j = 0; j < p; j++) {
                ic[j] = a2a_count(i, j, c->salt, n, ip);
            }
            place(ic, id, p, sl);
            mput(c, 0, c->rd[i], i, id[me], c->rc[i]);
        }
        break;
    }
    }
    snprintf(c->desc, sizeof c->desc, "%s %s n=%zu root=%d layout=%d %s%s salt=%d",
             MNAMES[c->coll], c->t->name, n, root, c->layout, c->nb ? "nonblocking" : "blocking",
             ip ? " in-place" : "", c->salt);
}

static int mstart(mcase *c)
{
    const void *s = c->sarg;
    void *r = c->rarg;
    nexar_datatype_t dt = c->t->dt;
    nexar_request_t *q = &c->req;
    int nb = c->nb, root = c->root;
    size_t n = c->n;
    switch (c->coll) {
    case M_BCAST:
        return nb ? nexar_ibcast(r, n, dt, root, g_comm, q) : nexar_bcast(r, n, dt, root, g_comm);
    case M_GATHER:
        return nb ? nexar_igather(s, r, n, dt, root, g_comm, q)
                  : nexar_gather(s, r, n, dt, root, g_comm);
    case M_GATHERV:
        return nb ? nexar_igatherv(s, c->scount, r, c->rca, c->rda, dt, root, g_comm, q)
                  : nexar_gatherv(s, c->scount, r, c->rca, c->rda, dt, root, g_comm);
    case M_SCATTER:
        return nb ? nexar_iscatter(s, r, n, dt, root, g_comm, q)
                  : nexar_scatter(s, r, n, dt, root, g_comm);
    case M_SCATTERV:
        return nb ? nexar_iscatterv(s, c->sca, c->sda, r, c->rcount, dt, root, g_comm, q)
                  : nexar_scatterv(s, c->sca, c->sda, r, c->rcount, dt, root, g_comm);
    case M_ALLGATHER:
        return nb ? nexar_iallgather(s, r, n, dt, g_comm, q) : nexar_allgather(s, r, n, dt, g_comm);
    case M_ALLGATHERV:
        return nb ? nexar_iallgatherv(s, c->scount, r, c->rca, c->rda, dt, g_comm, q)
                  : nexar_allgatherv(s, c->scount, r, c->rca, c->rda, dt, g_comm);
    case M_ALLTOALL:
        return nb ? nexar_ialltoall(s, r, n, dt, g_comm, q) : nexar_alltoall(s, r, n, dt, g_comm);
    default:
        return nb ? nexar_ialltoallv(s, c->sca, c->sda, r, c->rca, c->rda, dt, g_comm, q)
                  : nexar_alltoallv(s, c->sca, c->sda, r, c->rca, c->rda, dt, g_comm);
    }
}

static void mverify(mcase *c)
{
    CTX("%s", c->desc);
    const unsigned char *got = c->rarg == NEXAR_IN_PLACE ? c->send : c->recv;
    size_t len = c->rarg == NEXAR_IN_PLACE ? c->send_bytes : c->recv_bytes;
    if (got == NULL) {
        return;
    }
    size_t d = first_diff(got, c->expect, len);
    if (d != (size_t)-1) {
        check_report(__FILE__, __LINE__, "CHECK", "%s byte %zu (element %zu) is 0x%02x, expected "
                     "0x%02x (buffer %zu bytes incl. %d guard elements)",
                     c->rarg == NEXAR_IN_PLACE ? "send buffer" : "receive buffer", d,
                     d / c->t->size, got[d], c->expect[d], len, GUARD);
    }
}

static void mrun(mcase *cs, size_t n, int nb, int style)
{
    for (size_t i = 0; i < n; i++) {
        cs[i].nb = nb;
        msetup(&cs[i]);
    }
    if (nb) {
        nexar_request_t *reqs = xmalloc((n + 1) * sizeof *reqs);
        for (size_t i = 0; i < n; i++) {
            CTX("%s", cs[i].desc);
            CHECK_OK(mstart(&cs[i]));
            REQUIRE(cs[i].req != NEXAR_REQUEST_NULL);
            if (cs[i].sarg == cs[i].send && cs[i].rarg != NEXAR_IN_PLACE && cs[i].send) {
                memset(cs[i].send, 0x5A, cs[i].send_bytes); /* copied at the start */
            }
            reqs[i] = cs[i].req;
        }
        CTX("completing %zu %s requests (style %d)", n, MNAMES[cs[0].coll], style % 5);
        complete_requests(reqs, n, style);
        free(reqs);
    }
    for (size_t i = 0; i < n; i++) {
        if (!nb) {
            CTX("%s", cs[i].desc);
            CHECK_OK(mstart(&cs[i]));
        }
        mverify(&cs[i]);
        free(cs[i].send);
        free(cs[i].recv);
        free(cs[i].expect);
    }
    check_ctx[0] = '\0';
}

static int m_in_place_ok(int coll)
{
    return coll != M_BCAST;
}

static int m_rooted(int coll)
{
    return coll == M_BCAST || coll == M_GATHER || coll == M_GATHERV || coll == M_SCATTER ||
           coll == M_SCATTERV;
}

static int m_layouts(int coll)
{
    return coll == M_SCATTERV ? 3 : coll == M_GATHERV || coll == M_ALLGATHERV ||
                                            coll == M_ALLTOALLV ? 2 : 1;
}

/* Every data-movement collective on g_comm. `full` = 0 runs a smaller matrix. */
static void test_movement(int full)
{
    static const nexar_datatype_t MTYPES[] = { NEXAR_DTYPE_UINT8, NEXAR_DTYPE_INT16,
                                               NEXAR_DTYPE_INT32, NEXAR_DTYPE_DOUBLE,
                                               NEXAR_DTYPE_DOUBLE_INT };
    static const size_t COUNTS[] = { 3, 0, 1, 3, 2 };
    size_t cap = 2048, style = 0;
    mcase *cs = xmalloc(cap * sizeof *cs);
    for (int coll = 0; coll < M_NCOLL; coll++) {
        for (int mode = 0; mode < 4; mode++) {
            int nb = mode & 1, inplace = mode >> 1;
            if (inplace && !m_in_place_ok(coll)) {
                continue;
            }
            size_t n = 0, combo = 0;
            for (size_t ti = 0; ti < (full ? 5u : 2u); ti++) {
                const type_t *t = type_of(MTYPES[full ? ti : ti * 3]);
                for (int layout = 0; layout < m_layouts(coll); layout++) {
                    for (int root = 0; root < (m_rooted(coll) ? g_size : 1); root++) {
                        REQUIRE(n < cap);
                        size_t count = COUNTS[combo % 5];
                        cs[n++] = (mcase){ .coll = coll, .root = root, .inplace = inplace,
                                           .layout = layout, .t = t, .n = count,
                                           .salt = (int)(combo++ % 3) };
                    }
                }
            }
            if (full) { /* a large case: multi-segment messages */
                cs[n++] = (mcase){ .coll = coll, .root = g_size - 1, .inplace = inplace,
                                   .layout = m_layouts(coll) - 1,
                                   .t = type_of(NEXAR_DTYPE_DOUBLE), .n = 5000, .salt = 2 };
            }
            for (size_t at = 0; at < n; at += nb ? 64 : n) {
                size_t k = n - at < 64 || !nb ? n - at : 64;
                mrun(cs + at, k, nb, (int)style++);
            }
        }
    }
    free(cs);
}

#endif /* NEXAR_CTEST_COLL_MOVE_H */
