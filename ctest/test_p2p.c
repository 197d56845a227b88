/*
 * test_p2p: point-to-point semantics of the C API, at any rank count (a rank's neighbours are
 * itself when it is alone).
 *
 *  - order: many messages with one tag, small ones mixed with 1 MiB ones, arrive in order, both
 *    to blocking receives and to receives posted in advance;
 *  - NEXAR_ANY_SOURCE / NEXAR_ANY_TAG: status source, tag and count, per-sender order;
 *  - iprobe / probe + nexar_get_count (whole, other element sizes, not a whole number), zero-length
 *    messages;
 *  - truncation: NEXAR_ERR_TRUNCATED from recv, irecv + wait / test / waitany / waitall,
 *    sendrecv and a zero-size buffer, status.error set, status.count the full size, a guard
 *    region after the buffer untouched;
 *  - sendrecv ring (mixed datatypes, wildcards);
 *  - isend / irecv completed with waitall, waitany, testall;
 *  - request_free on a completed request, NEXAR_ERR_PENDING on a pending one (then wait it),
 *    wait / test / free on NEXAR_REQUEST_NULL;
 *  - a sendrecv that fails on its send arguments must not consume a message.
 */
#include "check.h"

#include <sched.h>
#include <stdint.h>

#define MIB (1u << 20)
#define W NEXAR_COMM_WORLD

static int rank, size, right, left;

static unsigned char pbyte(int origin, int k, size_t j)
{
    return (unsigned char)(origin * 31 + k * 7 + (int)(j % 251));
}

/* Length of message k in the order test: every 4th is 1 MiB. */
static size_t order_len(int k)
{
    return k % 4 == 1 ? MIB : 8 + (size_t)(k % 5) * 8;
}

static void fill_msg(unsigned char *b, int origin, int k, size_t len)
{
    uint64_t seq = (uint64_t)k;
    for (size_t j = 8; j < len; j++) {
        b[j] = pbyte(origin, k, j);
    }
    memcpy(b, &seq, 8);
}

static int msg_ok(const unsigned char *b, int origin, int k, size_t len)
{
    uint64_t seq;
    memcpy(&seq, b, 8);
    if (seq != (uint64_t)k) {
        return 0;
    }
    for (size_t j = 8; j < len; j++) {
        if (b[j] != pbyte(origin, k, j)) {
            return 0;
        }
    }
    return 1;
}

static void test_order(void)
{
    enum { N = 24, NPOST = 12 };
    unsigned char *s = malloc(MIB), *r = malloc(MIB);
    REQUIRE(s && r);
    CTX("order, blocking receives");
    for (int k = 0; k < N; k++) {
        fill_msg(s, rank, k, order_len(k));
        CHECK_OK(nexar_send(s, order_len(k), NEXAR_DTYPE_UINT8, right, 11, W));
    }
    for (int k = 0; k < N; k++) {
        nexar_status_t st;
        CHECK_OK(nexar_recv(r, MIB, NEXAR_DTYPE_UINT8, left, 11, W, &st));
        CHECK(st.source == left && st.tag == 11 && st.error == NEXAR_SUCCESS);
        CHECK(st.count == order_len(k));
        CHECK(msg_ok(r, left, k, order_len(k)));
    }

    CTX("order, receives posted before the sends");
    unsigned char *bufs[NPOST];
    nexar_request_t q[NPOST];
    for (int k = 0; k < NPOST; k++) {
        bufs[k] = malloc(MIB);
        REQUIRE(bufs[k]);
        CHECK_OK(nexar_irecv(bufs[k], MIB, NEXAR_DTYPE_UINT8, left, 12, W, &q[k]));
    }
    CHECK_OK(nexar_barrier(W)); /* every receive is posted before any send */
    for (int k = 0; k < NPOST; k++) {
        fill_msg(s, rank, k, order_len(k));
        CHECK_OK(nexar_send(s, order_len(k), NEXAR_DTYPE_UINT8, right, 12, W));
    }
    nexar_status_t st[NPOST];
    CHECK_OK(nexar_waitall(NPOST, q, st));
    for (int k = 0; k < NPOST; k++) {
        CHECK(q[k] == NEXAR_REQUEST_NULL);
        CHECK(st[k].source == left && st[k].tag == 12 && st[k].error == NEXAR_SUCCESS);
        CHECK(st[k].count == order_len(k));
        CHECK(msg_ok(bufs[k], left, k, order_len(k)));
        free(bufs[k]);
    }
    free(s);
    free(r);
}

static void test_wildcards(void)
{
    int root = size - 1;
    int32_t m[2];
    CTX("ANY_SOURCE + ANY_TAG");
    m[0] = rank;
    m[1] = 0;
    CHECK_OK(nexar_send(m, 2, NEXAR_DTYPE_INT32, root, 200 + rank, W));
    m[1] = 1;
    CHECK_OK(nexar_send(m, 2, NEXAR_DTYPE_INT32, root, 300 + rank, W));
    if (rank == root) {
        int seen[64] = { 0 };
        REQUIRE(size <= 64);
        for (int i = 0; i < 2 * size; i++) {
            nexar_status_t st;
            int32_t got[2] = { -1, -1 };
            CHECK_OK(nexar_recv(got, 2, NEXAR_DTYPE_INT32, NEXAR_ANY_SOURCE, NEXAR_ANY_TAG, W, &st));
            REQUIRE(st.source >= 0 && st.source < size);
            CHECK(got[0] == st.source);
            CHECK(got[1] == seen[st.source]); /* per-sender order holds under ANY_TAG */
            CHECK(st.tag == (got[1] ? 300 : 200) + st.source);
            CHECK(st.error == NEXAR_SUCCESS && st.count == 8);
            size_t n = 0;
            CHECK_OK(nexar_get_count(&st, NEXAR_DTYPE_INT32, &n));
            CHECK(n == 2);
            seen[st.source]++;
        }
        for (int i = 0; i < size; i++) {
            CHECK(seen[i] == 2);
        }
    }
    CHECK_OK(nexar_barrier(W));

    CTX("ANY_SOURCE with a tag, a source with ANY_TAG");
    CHECK_OK(nexar_send(&rank, 1, NEXAR_DTYPE_INT32, 0, 400 + rank, W));
    CHECK_OK(nexar_send(&rank, 1, NEXAR_DTYPE_INT32, 0, 500 + rank, W));
    if (rank == 0) {
        for (int i = size - 1; i >= 0; i--) {
            nexar_status_t st;
            int got = -1;
            CHECK_OK(nexar_recv(&got, 1, NEXAR_DTYPE_INT32, NEXAR_ANY_SOURCE, 400 + i, W, &st));
            CHECK(st.source == i && st.tag == 400 + i && got == i);
        }
        for (int i = 0; i < size; i++) {
            nexar_status_t st;
            int got = -1;
            CHECK_OK(nexar_recv(&got, 1, NEXAR_DTYPE_INT32, i, NEXAR_ANY_TAG, W, &st));
            CHECK(st.source == i && st.tag == 500 + i && got == i);
        }
    }
    CHECK_OK(nexar_barrier(W));
}

static void test_probe(void)
{
    nexar_status_t st, st2, canary;
    int flag = -1;
    CTX("iprobe with nothing pending");
    memset(&canary, 0x77, sizeof canary);
    st = canary;
    CHECK_OK(nexar_iprobe(NEXAR_ANY_SOURCE, 999, W, &flag, &st));
    CHECK(flag == 0);
    CHECK(memcmp(&st, &canary, sizeof st) == 0); /* status written only when found */

    CTX("iprobe / probe / get_count");
    size_t n = 17 + 2 * (size_t)rank, ln = 17 + 2 * (size_t)left; /* odd: not whole doubles */
    int32_t buf[64];
    for (size_t i = 0; i < n; i++) {
        buf[i] = rank * 1000 + (int)i;
    }
    CHECK_OK(nexar_send(buf, n, NEXAR_DTYPE_INT32, right, 21, W));
    flag = 0;
    while (!flag) {
        CHECK_OK(nexar_iprobe(left, 21, W, &flag, &st));
        if (!flag) {
            sched_yield();
        }
    }
    CHECK(st.source == left && st.tag == 21 && st.error == NEXAR_SUCCESS);
    CHECK(st.count == ln * 4);
    size_t c = 0;
    CHECK_OK(nexar_get_count(&st, NEXAR_DTYPE_INT32, &c));
    CHECK(c == ln);
    CHECK_OK(nexar_get_count(&st, NEXAR_DTYPE_UINT8, &c));
    CHECK(c == ln * 4);
    CHECK_OK(nexar_get_count(&st, NEXAR_DTYPE_INT16, &c));
    CHECK(c == ln * 2);
    c = 12345;
    EXPECT_CODE(nexar_get_count(&st, NEXAR_DTYPE_DOUBLE, &c), NEXAR_ERR_COUNT);
    CHECK(c == 12345); /* out-parameter untouched on failure */
    flag = 0;
    CHECK_OK(nexar_iprobe(NEXAR_ANY_SOURCE, NEXAR_ANY_TAG, W, &flag, NULL)); /* still there */
    CHECK(flag == 1);
    CHECK_OK(nexar_probe(left, NEXAR_ANY_TAG, W, &st2));
    CHECK(st2.source == st.source && st2.tag == st.tag && st2.count == st.count);
    int32_t got[64];
    CHECK_OK(nexar_recv(got, ln, NEXAR_DTYPE_INT32, left, 21, W, NULL));
    for (size_t i = 0; i < ln; i++) {
        CHECK(got[i] == left * 1000 + (int)i);
    }
    CHECK_OK(nexar_iprobe(left, 21, W, &flag, NULL));
    CHECK(flag == 0);

    CTX("zero-length message");
    CHECK_OK(nexar_send(NULL, 0, NEXAR_DTYPE_DOUBLE, right, 22, W));
    CHECK_OK(nexar_probe(NEXAR_ANY_SOURCE, 22, W, &st));
    CHECK(st.source == left && st.count == 0);
    CHECK_OK(nexar_get_count(&st, NEXAR_DTYPE_DOUBLE, &c));
    CHECK(c == 0);
    memset(&st, 0x77, sizeof st);
    CHECK_OK(nexar_recv(NULL, 0, NEXAR_DTYPE_DOUBLE, left, 22, W, &st));
    CHECK(st.source == left && st.tag == 22 && st.count == 0 && st.error == NEXAR_SUCCESS);
    CHECK_OK(nexar_barrier(W));
}

#define TGUARD 64

static int guard_ok(const unsigned char *g)
{
    for (int i = 0; i < TGUARD; i++) {
        if (g[i] != 0xCD) {
            return 0;
        }
    }
    return 1;
}

static void test_truncation(void)
{
    int32_t ten[10];
    for (int i = 0; i < 10; i++) {
        ten[i] = rank * 100 + i;
    }
    for (int tag = 31; tag <= 33; tag++) {
        CHECK_OK(nexar_send(ten, 10, NEXAR_DTYPE_INT32, right, tag, W));
    }
    CHECK_OK(nexar_send(ten, 5, NEXAR_DTYPE_UINT8, right, 35, W));
    _Alignas(int32_t) unsigned char mem[4 * 4 + TGUARD];
    int32_t *b = (int32_t *)(void *)mem;
    nexar_status_t st;

    CTX("truncation: nexar_recv");
    memset(mem, 0xCD, sizeof mem);
    memset(&st, 0, sizeof st);
    EXPECT_CODE(nexar_recv(b, 4, NEXAR_DTYPE_INT32, left, 31, W, &st), NEXAR_ERR_TRUNCATED);
    CHECK(st.error == NEXAR_ERR_TRUNCATED && st.count == 40 && st.source == left && st.tag == 31);
    CHECK(strlen(nexar_last_error_message()) > 0);
    for (int i = 0; i < 4; i++) {
        CHECK(b[i] == left * 100 + i);
    }
    CHECK(guard_ok(mem + 16));

    CTX("truncation: nexar_irecv + nexar_wait");
    memset(mem, 0xCD, sizeof mem);
    memset(&st, 0, sizeof st);
    nexar_request_t q;
    CHECK_OK(nexar_irecv(b, 4, NEXAR_DTYPE_INT32, left, 32, W, &q));
    EXPECT_CODE(nexar_wait(&q, &st), NEXAR_ERR_TRUNCATED);
    CHECK(q == NEXAR_REQUEST_NULL);
    CHECK(st.error == NEXAR_ERR_TRUNCATED && st.count == 40 && st.source == left && st.tag == 32);
    CHECK(b[3] == left * 100 + 3);
    CHECK(guard_ok(mem + 16));

    CTX("truncation reported by nexar_test, nexar_waitany and nexar_waitall");
    for (int tag = 37; tag <= 39; tag++) {
        CHECK_OK(nexar_send(ten, 10, NEXAR_DTYPE_INT32, right, tag, W));
    }
    memset(mem, 0xCD, sizeof mem);
    memset(&st, 0, sizeof st);
    CHECK_OK(nexar_irecv(b, 4, NEXAR_DTYPE_INT32, left, 37, W, &q));
    int flag = 0, rc = NEXAR_SUCCESS;
    while (!flag) {
        rc = nexar_test(&q, &flag, &st);
        CHECK(rc == (flag ? NEXAR_ERR_TRUNCATED : NEXAR_SUCCESS));
        if (!flag) {
            sched_yield();
        }
    }
    CHECK(q == NEXAR_REQUEST_NULL && st.error == NEXAR_ERR_TRUNCATED && st.count == 40);
    int idx = -1;
    CHECK_OK(nexar_irecv(b, 4, NEXAR_DTYPE_INT32, left, 38, W, &q));
    EXPECT_CODE(nexar_waitany(1, &q, &idx, &st), NEXAR_ERR_TRUNCATED);
    CHECK(idx == 0 && q == NEXAR_REQUEST_NULL && st.error == NEXAR_ERR_TRUNCATED);
    nexar_request_t two[2];
    nexar_status_t sts[2];
    int32_t fits[10];
    CHECK_OK(nexar_irecv(fits, 10, NEXAR_DTYPE_INT32, left, 39, W, &two[0]));
    CHECK_OK(nexar_irecv(b, 4, NEXAR_DTYPE_INT32, left, 40, W, &two[1]));
    CHECK_OK(nexar_send(ten, 10, NEXAR_DTYPE_INT32, right, 40, W));
    EXPECT_CODE(nexar_waitall(2, two, sts), NEXAR_ERR_TRUNCATED);
    CHECK(sts[0].error == NEXAR_SUCCESS && sts[0].count == 40 && fits[9] == left * 100 + 9);
    CHECK(sts[1].error == NEXAR_ERR_TRUNCATED && sts[1].count == 40);
    CHECK(two[0] == NEXAR_REQUEST_NULL && two[1] == NEXAR_REQUEST_NULL);
    CHECK(guard_ok(mem + 16));

    CTX("truncation: status NULL");
    memset(mem, 0xCD, sizeof mem);
    EXPECT_CODE(nexar_recv(b, 4, NEXAR_DTYPE_INT32, left, NEXAR_ANY_TAG, W, NULL),
                NEXAR_ERR_TRUNCATED);
    CHECK(guard_ok(mem + 16));

    CTX("truncation: zero-size buffer");
    memset(&st, 0, sizeof st);
    EXPECT_CODE(nexar_recv(NULL, 0, NEXAR_DTYPE_UINT8, left, 35, W, &st), NEXAR_ERR_TRUNCATED);
    CHECK(st.error == NEXAR_ERR_TRUNCATED && st.count == 5);

    CTX("truncation: nexar_sendrecv");
    memset(mem, 0xCD, sizeof mem);
    memset(&st, 0, sizeof st);
    EXPECT_CODE(nexar_sendrecv(ten, 10, NEXAR_DTYPE_INT32, right, 34, b, 3, NEXAR_DTYPE_INT32,
                               left, 34, W, &st),
                NEXAR_ERR_TRUNCATED);
    CHECK(st.error == NEXAR_ERR_TRUNCATED && st.count == 40);
    CHECK(b[2] == left * 100 + 2);
    CHECK(mem[12] == 0xCD && guard_ok(mem + 16));

    CTX("after truncation");
    CHECK_OK(nexar_sendrecv(ten, 2, NEXAR_DTYPE_INT32, right, 36, b, 4, NEXAR_DTYPE_INT32, left,
                            36, W, &st));
    CHECK(st.error == NEXAR_SUCCESS && st.count == 8 && b[1] == left * 100 + 1);
    CHECK_OK(nexar_barrier(W));
}

static void test_sendrecv_ring(void)
{
    double s[256], r[256];
    for (int it = 0; it < 20; it++) {
        CTX("sendrecv ring, iteration %d", it);
        size_t n = (size_t)(it * 37) % 200 + 1;
        for (size_t i = 0; i < n; i++) {
            s[i] = rank * 1000.0 + it * 10.0 + (double)i;
        }
        nexar_status_t st;
        int src = it % 3 == 2 ? NEXAR_ANY_SOURCE : left;
        int tag = it % 2 ? NEXAR_ANY_TAG : 40 + it;
        CHECK_OK(nexar_sendrecv(s, n, NEXAR_DTYPE_DOUBLE, right, 40 + it, r, 256,
                                NEXAR_DTYPE_DOUBLE, src, tag, W, &st));
        CHECK(st.source == left && st.tag == 40 + it && st.count == n * 8);
        for (size_t i = 0; i < n; i++) {
            CHECK(r[i] == left * 1000.0 + it * 10.0 + (double)i);
        }
    }
    CTX("sendrecv with different send and receive datatypes");
    unsigned char bytes[24];
    double three[3] = { 1.5, -2.25, (double)rank };
    nexar_status_t st;
    CHECK_OK(nexar_sendrecv(three, 3, NEXAR_DTYPE_DOUBLE, right, 61, bytes, 24,
                            NEXAR_DTYPE_UINT8, left, 61, W, &st));
    CHECK(st.count == 24);
    double back[3];
    memcpy(back, bytes, 24);
    CHECK(back[0] == 1.5 && back[1] == -2.25 && back[2] == (double)left);
    CHECK_OK(nexar_barrier(W));
}

static void test_nonblocking(void)
{
    enum { M = 8 };
    int32_t (*in)[M] = malloc(sizeof(int32_t[M]) * (size_t)size);
    int32_t (*out)[M] = malloc(sizeof(int32_t[M]) * (size_t)size);
    nexar_request_t *rq = malloc(sizeof *rq * (size_t)size), *sq = malloc(sizeof *sq * (size_t)size);
    nexar_status_t *st = malloc(sizeof *st * (size_t)size);
    REQUIRE(in && out && rq && sq && st);
    for (int round = 0; round < 3; round++) {
        CTX("isend/irecv with every rank, round %d", round);
        int tag = 70 + round;
        for (int j = 0; j < size; j++) {
            memset(in[j], 0, sizeof in[j]);
            CHECK_OK(nexar_irecv(in[j], M, NEXAR_DTYPE_INT32, j, tag, W, &rq[j]));
        }
        for (int j = 0; j < size; j++) {
            size_t n = (size_t)(j + round) % M + 1;
            for (size_t i = 0; i < n; i++) {
                out[j][i] = rank * 10000 + j * 100 + round * 10 + (int)i;
            }
            CHECK_OK(nexar_isend(out[j], n, NEXAR_DTYPE_INT32, j, tag, W, &sq[j]));
            memset(out[j], 0, sizeof out[j]); /* the data was copied */
        }
        CHECK_OK(nexar_waitall((size_t)size, sq, st));
        for (int j = 0; j < size; j++) {
            CHECK(sq[j] == NEXAR_REQUEST_NULL && st[j].error == NEXAR_SUCCESS);
        }
        int done = 0;
        if (round == 0) {
            for (int k = 0; k < size; k++) {
                int idx = -1;
                nexar_status_t s1;
                CHECK_OK(nexar_waitany((size_t)size, rq, &idx, &s1));
                REQUIRE(idx >= 0 && idx < size && rq[idx] == NEXAR_REQUEST_NULL);
                CHECK(s1.source == idx && s1.tag == tag);
                st[idx] = s1;
                done++;
            }
            int idx = -1;
            CHECK_OK(nexar_waitany((size_t)size, rq, &idx, NULL));
            CHECK(idx == NEXAR_UNDEFINED);
        } else if (round == 1) {
            int flag = 0;
            while (!flag) {
                CHECK_OK(nexar_testall((size_t)size, rq, &flag, st));
                if (!flag) {
                    sched_yield();
                }
            }
            done = size;
        } else {
            CHECK_OK(nexar_waitall((size_t)size, rq, st));
            done = size;
        }
        CHECK(done == size);
        for (int j = 0; j < size; j++) {
            size_t n = (size_t)(rank + round) % M + 1; /* what j sent me */
            CHECK(rq[j] == NEXAR_REQUEST_NULL);
            CHECK(st[j].source == j && st[j].tag == tag && st[j].count == n * 4);
            for (size_t i = 0; i < n; i++) {
                CHECK(in[j][i] == j * 10000 + rank * 100 + round * 10 + (int)i);
            }
        }
    }
    free(in);
    free(out);
    free(rq);
    free(sq);
    free(st);
    CHECK_OK(nexar_barrier(W));
}

static void test_request_free(void)
{
    int v = rank, got = -1;
    nexar_request_t q = NEXAR_REQUEST_NULL;
    nexar_status_t st;
    CTX("request_free on a completed send");
    CHECK_OK(nexar_isend(&v, 1, NEXAR_DTYPE_INT32, right, 50, W, &q));
    CHECK_OK(nexar_request_free(&q));
    CHECK(q == NEXAR_REQUEST_NULL);
    CHECK_OK(nexar_request_free(&q)); /* NULL handle: nothing to do */

    CTX("request_free on a pending receive");
    CHECK_OK(nexar_irecv(&got, 1, NEXAR_DTYPE_INT32, left, 51, W, &q));
    nexar_request_t keep = q;
    EXPECT_CODE(nexar_request_free(&q), NEXAR_ERR_PENDING);
    CHECK(q == keep);
    int flag = -1;
    CHECK_OK(nexar_test(&q, &flag, &st));
    CHECK(flag == 0 && q == keep);
    CHECK_OK(nexar_barrier(W)); /* nobody sends tag 51 before every rank checked */
    CHECK_OK(nexar_send(&v, 1, NEXAR_DTYPE_INT32, right, 51, W));
    CHECK_OK(nexar_wait(&q, &st));
    CHECK(q == NEXAR_REQUEST_NULL && got == left && st.source == left && st.tag == 51);

    CTX("a freed send request still delivers");
    got = -1;
    CHECK_OK(nexar_recv(&got, 1, NEXAR_DTYPE_INT32, left, 50, W, NULL));
    CHECK(got == left);

    CTX("wait / test on NEXAR_REQUEST_NULL");
    memset(&st, 0x55, sizeof st);
    CHECK_OK(nexar_wait(&q, &st));
    CHECK(st.source == NEXAR_ANY_SOURCE && st.tag == NEXAR_ANY_TAG && st.error == 0 &&
          st.count == 0);
    flag = 0;
    CHECK_OK(nexar_test(&q, &flag, NULL));
    CHECK(flag == 1);
    CHECK_OK(nexar_waitall(1, &q, NULL));
    CHECK_OK(nexar_barrier(W));
}

/* A sendrecv whose send arguments are invalid must fail without consuming the message its
 * receive half matches (the call reports an error; nothing happened). */
static void test_failed_sendrecv_keeps_message(void)
{
    int v = rank, got = -1, flag = 0;
    CTX("failed sendrecv must not consume a message");
    CHECK_OK(nexar_send(&v, 1, NEXAR_DTYPE_INT32, right, 80, W));
    while (!flag) { /* the message has arrived */
        CHECK_OK(nexar_iprobe(left, 80, W, &flag, NULL));
        if (!flag) {
            sched_yield();
        }
    }
    EXPECT_CODE(nexar_sendrecv(&v, 1, NEXAR_DTYPE_INT32, -1, 0, &got, 1, NEXAR_DTYPE_INT32,
                               left, 80, W, NULL),
                NEXAR_ERR_RANK);
    EXPECT_CODE(nexar_sendrecv(&v, 1, NEXAR_DTYPE_INT32, right, -7, &got, 1, NEXAR_DTYPE_INT32,
                               left, 80, W, NULL),
                NEXAR_ERR_TAG);
    CHECK(got == -1);
    flag = 0;
    CHECK_OK(nexar_iprobe(left, 80, W, &flag, NULL));
    CHECK(flag == 1);
    if (flag) {
        CHECK_OK(nexar_recv(&got, 1, NEXAR_DTYPE_INT32, left, 80, W, NULL));
        CHECK(got == left);
    }
    CHECK_OK(nexar_barrier(W));
}

int main(int argc, char **argv)
{
    check_init(&argc, &argv, &rank, &size);
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    test_order();
    test_wildcards();
    test_probe();
    test_truncation();
    test_sendrecv_ring();
    test_nonblocking();
    test_request_free();
    test_failed_sendrecv_keeps_message();
    return check_finish(1);
}
