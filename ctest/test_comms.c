/*
 * test_comms: communicator management through the C API, at any rank count.
 *
 *  - predefined handles: nexar_comm_world() / nexar_comm_self() equal the macros, SELF has one
 *    rank and works for collectives and self-messages;
 *  - split: by parity with reversed keys, with equal keys (order by world rank), nested, and
 *    NEXAR_UNDEFINED giving NULL (on one rank, and on every rank at size 1);
 *  - split_type NEXAR_COMM_TYPE_SHARED: every rank is on this host, ordered by key;
 *    NEXAR_UNDEFINED gives NULL; an unknown type is NEXAR_ERR_ARG;
 *  - dup: same ranks, separate traffic: point-to-point messages with the same tag and sender on
 *    the dup and the original never match each other; collectives on the two may be started in
 *    different orders on different ranks;
 *  - free: the handle becomes NULL; the freed value gives NEXAR_ERR_COMM everywhere (rank, size,
 *    collectives, a second free); freeing WORLD / SELF is NEXAR_ERR_COMM; freeing a NULL handle
 *    does nothing; an operation started before the free still completes; many dup/free cycles
 *    never revive a stale handle.
 */
#include "check.h"

#include <stdint.h>

#define W NEXAR_COMM_WORLD

static int rank, size;

/* The world ranks of c's members, in c's rank order (via allgather on c). */
static void members(nexar_comm_t c, int *out, int n)
{
    int csize = -1;
    CHECK_OK(nexar_comm_size(c, &csize));
    REQUIRE(csize == n);
    CHECK_OK(nexar_allgather(&rank, out, 1, NEXAR_DTYPE_INT32, c));
}

static void test_predefined(void)
{
    CTX("predefined communicators");
    CHECK(nexar_comm_world() == NEXAR_COMM_WORLD);
    CHECK(nexar_comm_self() == NEXAR_COMM_SELF);
    int r = -1, s = -1;
    CHECK_OK(nexar_comm_rank(NEXAR_COMM_SELF, &r));
    CHECK_OK(nexar_comm_size(NEXAR_COMM_SELF, &s));
    CHECK(r == 0 && s == 1);
    int v = rank * 3 + 1, sum = 0;
    CHECK_OK(nexar_allreduce(&v, &sum, 1, NEXAR_DTYPE_INT32, NEXAR_OP_SUM, NEXAR_COMM_SELF));
    CHECK(sum == v);
    nexar_status_t st;
    int got = -1;
    CHECK_OK(nexar_sendrecv(&v, 1, NEXAR_DTYPE_INT32, 0, 9, &got, 1, NEXAR_DTYPE_INT32, 0, 9,
                            NEXAR_COMM_SELF, &st));
    CHECK(got == v && st.source == 0);
}

static void test_split(void)
{
    int m[64];
    REQUIRE(size <= 64);
    CTX("split by parity, keys reversed");
    nexar_comm_t c = NULL;
    CHECK_OK(nexar_comm_split(W, rank % 2, -rank, &c));
    REQUIRE(c != NULL);
    int n = (size - rank % 2 + 1) / 2, cr = -1;
    CHECK_OK(nexar_comm_rank(c, &cr));
    CHECK(cr == (n - 1) - rank / 2);
    members(c, m, n);
    for (int i = 0; i < n; i++) { /* highest world rank first */
        CHECK(m[i] % 2 == rank % 2 && (i == 0 || m[i] < m[i - 1]));
    }

    CTX("split of a split (halves of the parity group), equal keys");
    nexar_comm_t h = NULL;
    CHECK_OK(nexar_comm_split(c, cr < n / 2, 7, &h));
    REQUIRE(h != NULL);
    int hn = -1, hm[64];
    CHECK_OK(nexar_comm_size(h, &hn));
    CHECK(hn == (cr < n / 2 ? n / 2 : n - n / 2));
    members(h, hm, hn);
    for (int i = 1; i < hn; i++) { /* equal keys: order of ranks in c, i.e. descending world */
        CHECK(hm[i] < hm[i - 1]);
    }
    CHECK_OK(nexar_comm_free(&h));
    CHECK_OK(nexar_comm_free(&c));
    CHECK(c == NULL && h == NULL);

    CTX("split with NEXAR_UNDEFINED on rank 0");
    c = W;
    CHECK_OK(nexar_comm_split(W, rank == 0 ? NEXAR_UNDEFINED : 3, 0, &c));
    if (rank == 0) {
        CHECK(c == NULL);
    } else {
        REQUIRE(c != NULL);
        members(c, m, size - 1);
        for (int i = 0; i < size - 1; i++) {
            CHECK(m[i] == i + 1);
        }
        CHECK_OK(nexar_comm_free(&c));
    }

    CTX("split: everyone undefined");
    c = W;
    CHECK_OK(nexar_comm_split(W, NEXAR_UNDEFINED, rank, &c));
    CHECK(c == NULL);

    CTX("split: one color per rank");
    CHECK_OK(nexar_comm_split(W, rank, 0, &c));
    REQUIRE(c != NULL);
    members(c, m, 1);
    CHECK(m[0] == rank);
    CHECK_OK(nexar_comm_free(&c));
}

static void test_split_type(void)
{
    int m[64];
    CTX("split_type SHARED (one host)");
    nexar_comm_t c = NULL;
    CHECK_OK(nexar_comm_split_type(W, NEXAR_COMM_TYPE_SHARED, size - rank, &c));
    REQUIRE(c != NULL);
    int cr = -1;
    CHECK_OK(nexar_comm_rank(c, &cr));
    CHECK(cr == size - 1 - rank);
    members(c, m, size);
    for (int i = 0; i < size; i++) {
        CHECK(m[i] == size - 1 - i);
    }
    CHECK_OK(nexar_comm_free(&c));

    CTX("split_type NEXAR_UNDEFINED");
    c = W;
    CHECK_OK(nexar_comm_split_type(W, NEXAR_UNDEFINED, 0, &c));
    CHECK(c == NULL);

    CTX("split_type unknown type");
    c = W;
    EXPECT_CODE(nexar_comm_split_type(W, 12345, 0, &c), NEXAR_ERR_ARG);
    CHECK(c == W); /* not written on failure */
}

static void test_dup_isolation(void)
{
    CTX("dup: same ranks");
    nexar_comm_t d = NULL;
    CHECK_OK(nexar_comm_dup(W, &d));
    REQUIRE(d != NULL && d != W);
    int dr = -1, ds = -1;
    CHECK_OK(nexar_comm_rank(d, &dr));
    CHECK_OK(nexar_comm_size(d, &ds));
    CHECK(dr == rank && ds == size);

    CTX("dup: point-to-point traffic does not mix");
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int a = 1000 + rank, b = 2000 + rank, got = -1;
    CHECK_OK(nexar_send(&b, 1, NEXAR_DTYPE_INT32, right, 5, d)); /* dup first */
    CHECK_OK(nexar_send(&a, 1, NEXAR_DTYPE_INT32, right, 5, W));
    nexar_status_t st;
    CHECK_OK(nexar_recv(&got, 1, NEXAR_DTYPE_INT32, NEXAR_ANY_SOURCE, NEXAR_ANY_TAG, W, &st));
    CHECK(got == 1000 + left && st.source == left && st.tag == 5);
    CHECK_OK(nexar_recv(&got, 1, NEXAR_DTYPE_INT32, left, 5, d, &st));
    CHECK(got == 2000 + left);
    int flag = 1;
    CHECK_OK(nexar_iprobe(NEXAR_ANY_SOURCE, NEXAR_ANY_TAG, d, &flag, NULL));
    CHECK(flag == 0);

    CTX("dup: collectives started in different orders on the two communicators");
    int x[2] = { -1, -1 };
    nexar_request_t q[2];
    int root = size - 1;
    if (rank == root) {
        x[0] = 111;
        x[1] = 222;
    }
    if (rank % 2 == 0) {
        CHECK_OK(nexar_ibcast(&x[0], 1, NEXAR_DTYPE_INT32, root, W, &q[0]));
        CHECK_OK(nexar_ibcast(&x[1], 1, NEXAR_DTYPE_INT32, root, d, &q[1]));
    } else {
        CHECK_OK(nexar_ibcast(&x[1], 1, NEXAR_DTYPE_INT32, root, d, &q[1]));
        CHECK_OK(nexar_ibcast(&x[0], 1, NEXAR_DTYPE_INT32, root, W, &q[0]));
    }
    CHECK_OK(nexar_waitall(2, q, NULL));
    CHECK(x[0] == 111 && x[1] == 222);

    CTX("dup of a dup");
    nexar_comm_t dd = NULL;
    CHECK_OK(nexar_comm_dup(d, &dd));
    int s = 0;
    CHECK_OK(nexar_allreduce(&rank, &s, 1, NEXAR_DTYPE_INT32, NEXAR_OP_SUM, dd));
    CHECK(s == size * (size - 1) / 2);
    CHECK_OK(nexar_comm_free(&dd));
    CHECK_OK(nexar_comm_free(&d));
}

static void test_free(void)
{
    CTX("free: handle cleared, freed value invalid");
    nexar_comm_t d = NULL;
    CHECK_OK(nexar_comm_dup(W, &d));
    nexar_comm_t stale = d;
    CHECK_OK(nexar_comm_free(&d));
    CHECK(d == NULL);
    int r = -42;
    EXPECT_CODE(nexar_comm_rank(stale, &r), NEXAR_ERR_COMM);
    CHECK(r == -42);
    EXPECT_CODE(nexar_comm_size(stale, &r), NEXAR_ERR_COMM);
    EXPECT_CODE(nexar_barrier(stale), NEXAR_ERR_COMM);
    EXPECT_CODE(nexar_allreduce(&rank, &r, 1, NEXAR_DTYPE_INT32, NEXAR_OP_SUM, stale),
                NEXAR_ERR_COMM);
    EXPECT_CODE(nexar_send(&rank, 1, NEXAR_DTYPE_INT32, 0, 1, stale), NEXAR_ERR_COMM);
    nexar_comm_t copy = stale;
    EXPECT_CODE(nexar_comm_free(&copy), NEXAR_ERR_COMM);
    CHECK(copy == stale); /* not written on failure */
    EXPECT_CODE(nexar_comm_dup(stale, &copy), NEXAR_ERR_COMM);

    CTX("free: predefined and NULL");
    nexar_comm_t w = NEXAR_COMM_WORLD, s = NEXAR_COMM_SELF, none = NULL;
    EXPECT_CODE(nexar_comm_free(&w), NEXAR_ERR_COMM);
    EXPECT_CODE(nexar_comm_free(&s), NEXAR_ERR_COMM);
    CHECK(w == NEXAR_COMM_WORLD && s == NEXAR_COMM_SELF);
    CHECK_OK(nexar_comm_free(&none));
    CHECK(none == NULL);
    EXPECT_CODE(nexar_comm_free(NULL), NEXAR_ERR_ARG);
    int sz = -1;
    CHECK_OK(nexar_comm_size(W, &sz)); /* still alive */
    CHECK(sz == size);

    CTX("free: an operation started before the free completes");
    CHECK_OK(nexar_comm_dup(W, &d));
    int64_t v = rank + 1, sum = 0;
    nexar_request_t q;
    CHECK_OK(nexar_iallreduce(&v, &sum, 1, NEXAR_DTYPE_INT64, NEXAR_OP_SUM, d, &q));
    CHECK_OK(nexar_comm_free(&d));
    CHECK_OK(nexar_wait(&q, NULL));
    CHECK(sum == (int64_t)size * (size + 1) / 2);

    CTX("free: many dup/free cycles never revive a stale handle");
    nexar_comm_t olds[16];
    for (int i = 0; i < 16; i++) {
        CHECK_OK(nexar_comm_dup(W, &d));
        for (int j = 0; j < i; j++) {
            CHECK(d != olds[j]);
        }
        olds[i] = d;
        CHECK_OK(nexar_comm_free(&d));
    }
    for (int j = 0; j < 16; j++) {
        EXPECT_CODE(nexar_comm_rank(olds[j], &r), NEXAR_ERR_COMM);
    }
    CTX("forged handles");
    EXPECT_CODE(nexar_comm_rank((nexar_comm_t)(uintptr_t)0xdeadbeef, &r), NEXAR_ERR_COMM);
    EXPECT_CODE(nexar_comm_rank((nexar_comm_t)(uintptr_t)3, &r), NEXAR_ERR_COMM);
    EXPECT_CODE(nexar_comm_rank(NULL, &r), NEXAR_ERR_COMM);
    CHECK_OK(nexar_barrier(W));
}

int main(int argc, char **argv)
{
    check_init(&argc, &argv, &rank, &size);
    test_predefined();
    test_split();
    test_split_type();
    test_dup_isolation();
    test_free();
    return check_finish(1);
}
