/*
 * test_bad_input: the bad-input matrix. Every bad call must return its specific code, leave
 * out-parameters alone and never crash; afterwards real communication still works.
 *
 * Ranks stay in step: every collective-path bad call below is made identically by every rank
 * (symmetric), so whether the library rejects it before starting (the usual case) or after
 * starting (e.g. a NULL receive buffer, found once the input is taken), all ranks agree on which
 * collectives ran. Calls valid at some ranks only (e.g. a NULL recvcounts that only a gatherv
 * root reads) are deliberately absent. Point-to-point bad calls fail before any message moves.
 *
 * Covered: NULL buffers with count > 0 (NEXAR_ERR_ARG), NEXAR_IN_PLACE where it is not allowed,
 * NULL out-parameters / request pointers / count arrays (a NULL request on one rank only starts
 * nothing there, so the next collective still matches), (size_t)-1 and overflowing counts and
 * count arrays (NEXAR_ERR_COUNT), inconsistent alltoallv counts, ranks and roots < 0 and >= size
 * (NEXAR_ERR_RANK / NEXAR_ERR_ROOT), negative tags (NEXAR_ERR_TAG), datatype codes 0, 18, -1
 * (NEXAR_ERR_DATATYPE), op codes 0, 13, -1 and valid ops invalid for the type
 * (NEXAR_ERR_OP), freed / forged / NULL / wrong-kind communicator and request handles
 * (NEXAR_ERR_COMM / NEXAR_ERR_REQUEST), a request waited twice, nexar_error_string for every code
 * and unknown ones, nexar_last_error_message after failures (and unchanged by a success),
 * nexar_set_error_mode with an unknown mode.
 */
#include "check.h"

#include <limits.h>
#include <stdint.h>

#define W NEXAR_COMM_WORLD
#define I32 NEXAR_DTYPE_INT32
#define HUGE_I32 ((size_t)SIZE_MAX / 2 + 1) /* count * 4 overflows size_t */
#define HUGE_U8 ((size_t)1 << (sizeof(size_t) * 8 - 1)) /* more bytes than isize::MAX */

static int rank, size;

/* A failure must leave a non-empty message naming the function. */
#define EXPECT_FAIL(call, code, fname)                                              \
    do {                                                                            \
        EXPECT_CODE(call, code);                                                    \
        const char *m_ = nexar_last_error_message();                                \
        CHECK(m_ != NULL && m_[0] != '\0' && strstr(m_, fname) != NULL);            \
    } while (0)

static void test_null_pointers(void)
{
    int32_t b[256] = { 0 }, r[256];
    int out = -7;
    nexar_status_t st;
    nexar_request_t q = NEXAR_REQUEST_NULL;
    nexar_comm_t nc = W;
    size_t cnt = 99;
    size_t counts[64] = { 0 };
    REQUIRE(size <= 64);
    for (int i = 0; i < size; i++) {
        counts[i] = 1;
    }
    CTX("NULL buffers with count > 0");
    EXPECT_FAIL(nexar_send(NULL, 1, I32, 0, 1, W), NEXAR_ERR_ARG, "nexar_send");
    EXPECT_FAIL(nexar_isend(NULL, 2, I32, 0, 1, W, &q), NEXAR_ERR_ARG, "nexar_isend");
    CHECK(q == NEXAR_REQUEST_NULL);
    EXPECT_FAIL(nexar_recv(NULL, 1, I32, 0, 1, W, &st), NEXAR_ERR_ARG, "nexar_recv");
    EXPECT_FAIL(nexar_irecv(NULL, 1, I32, 0, 1, W, &q), NEXAR_ERR_ARG, "nexar_irecv");
    EXPECT_FAIL(nexar_sendrecv(NULL, 1, I32, 0, 1, r, 1, I32, 0, 1, W, NULL), NEXAR_ERR_ARG,
                "nexar_sendrecv");
    EXPECT_FAIL(nexar_sendrecv(b, 1, I32, 0, 1, NULL, 1, I32, 0, 1, W, NULL), NEXAR_ERR_ARG,
                "nexar_sendrecv");
    EXPECT_FAIL(nexar_bcast(NULL, 3, I32, 0, W), NEXAR_ERR_ARG, "nexar_bcast");
    EXPECT_FAIL(nexar_ibcast(NULL, 3, I32, 0, W, &q), NEXAR_ERR_ARG, "nexar_ibcast");
    EXPECT_FAIL(nexar_reduce(NULL, r, 2, I32, NEXAR_OP_SUM, 0, W), NEXAR_ERR_ARG, "nexar_reduce");
    EXPECT_FAIL(nexar_allreduce(NULL, r, 2, I32, NEXAR_OP_SUM, W), NEXAR_ERR_ARG,
                "nexar_allreduce");
    EXPECT_FAIL(nexar_allreduce(b, NULL, 2, I32, NEXAR_OP_SUM, W), NEXAR_ERR_ARG,
                "nexar_allreduce");
    EXPECT_FAIL(nexar_iallreduce(b, NULL, 2, I32, NEXAR_OP_SUM, W, &q), NEXAR_ERR_ARG,
                "nexar_iallreduce");
    EXPECT_FAIL(nexar_scan(b, NULL, 2, I32, NEXAR_OP_SUM, W), NEXAR_ERR_ARG, "nexar_scan");
    EXPECT_FAIL(nexar_exscan(NULL, r, 2, I32, NEXAR_OP_SUM, W), NEXAR_ERR_ARG, "nexar_exscan");
    EXPECT_FAIL(nexar_gather(NULL, r, 1, I32, 0, W), NEXAR_ERR_ARG, "nexar_gather");
    EXPECT_FAIL(nexar_allgather(b, NULL, 1, I32, W), NEXAR_ERR_ARG, "nexar_allgather");
    EXPECT_FAIL(nexar_allgather(NULL, r, 1, I32, W), NEXAR_ERR_ARG, "nexar_allgather");
    EXPECT_FAIL(nexar_alltoall(NULL, r, 1, I32, W), NEXAR_ERR_ARG, "nexar_alltoall");
    EXPECT_FAIL(nexar_alltoall(b, NULL, 1, I32, W), NEXAR_ERR_ARG, "nexar_alltoall");
    EXPECT_FAIL(nexar_reduce_scatter_block(NULL, r, 1, I32, NEXAR_OP_SUM, W), NEXAR_ERR_ARG,
                "nexar_reduce_scatter_block");
    EXPECT_FAIL(nexar_allgatherv(b, 1, NULL, counts, NULL, I32, W), NEXAR_ERR_ARG,
                "nexar_allgatherv");
    CHECK(q == NEXAR_REQUEST_NULL);

    CTX("NEXAR_IN_PLACE where it is not allowed");
    EXPECT_CODE(nexar_send(NEXAR_IN_PLACE, 1, I32, 0, 1, W), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_recv(NEXAR_IN_PLACE, 1, I32, 0, 1, W, NULL), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_allreduce(b, NEXAR_IN_PLACE, 1, I32, NEXAR_OP_SUM, W), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_bcast(NEXAR_IN_PLACE, 1, I32, 0, W), NEXAR_ERR_ARG);

    CTX("NULL count arrays");
    EXPECT_CODE(nexar_allgatherv(b, 1, r, NULL, NULL, I32, W), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_alltoallv(b, NULL, NULL, r, counts, NULL, I32, W), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_alltoallv(b, counts, NULL, r, NULL, NULL, I32, W), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_reduce_scatter(b, r, NULL, I32, NEXAR_OP_SUM, W), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_ireduce_scatter(b, r, NULL, I32, NEXAR_OP_SUM, W, &q), NEXAR_ERR_ARG);

    CTX("NULL out-parameters");
    EXPECT_CODE(nexar_comm_rank(W, NULL), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_comm_size(W, NULL), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_comm_split(W, 0, 0, NULL), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_comm_split_type(W, NEXAR_COMM_TYPE_SHARED, 0, NULL), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_comm_dup(W, NULL), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_comm_free(NULL), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_initialized(NULL), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_finalized(NULL), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_probe(0, 1, W, NULL), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_iprobe(0, 1, W, NULL, &st), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_get_count(NULL, I32, &cnt), NEXAR_ERR_ARG);
    st.count = 8;
    EXPECT_CODE(nexar_get_count(&st, I32, NULL), NEXAR_ERR_ARG);
    CHECK_OK(nexar_version(NULL, NULL, NULL)); /* documented: any may be NULL */

    CTX("NULL request pointers");
    EXPECT_CODE(nexar_isend(b, 1, I32, 0, 1, W, NULL), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_irecv(r, 1, I32, 0, 1, W, NULL), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_ibarrier(W, NULL), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_iallreduce(b, r, 1, I32, NEXAR_OP_SUM, W, NULL), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_ibcast(b, 1, I32, 0, W, NULL), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_wait(NULL, &st), NEXAR_ERR_ARG);
    int flag = 5;
    EXPECT_CODE(nexar_test(NULL, &flag, &st), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_test(&q, NULL, &st), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_waitall(2, NULL, NULL), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_waitany(2, NULL, &out, NULL), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_waitany(1, &q, NULL, NULL), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_testall(2, NULL, &flag, NULL), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_testall(1, &q, NULL, NULL), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_request_free(NULL), NEXAR_ERR_ARG);
    CHECK(out == -7 && flag == 5 && cnt == 99 && nc == W); /* never written */
}

static void test_counts(void)
{
    int32_t b[256] = { 0 }, r[256];
    size_t c1[64], big[64], d[64];
    for (int i = 0; i < size; i++) {
        c1[i] = 1;
        big[i] = SIZE_MAX;
        d[i] = (size_t)i;
    }
    CTX("(size_t)-1 and overflowing counts");
    EXPECT_CODE(nexar_send(b, (size_t)-1, I32, 0, 1, W), NEXAR_ERR_COUNT);
    EXPECT_CODE(nexar_send(b, HUGE_U8, NEXAR_DTYPE_UINT8, 0, 1, W), NEXAR_ERR_COUNT);
    EXPECT_CODE(nexar_recv(r, (size_t)-1, NEXAR_DTYPE_DOUBLE, 0, 1, W, NULL), NEXAR_ERR_COUNT);
    EXPECT_CODE(nexar_recv(r, HUGE_U8, NEXAR_DTYPE_UINT8, 0, 1, W, NULL), NEXAR_ERR_COUNT);
    nexar_request_t q = NEXAR_REQUEST_NULL;
    EXPECT_CODE(nexar_irecv(r, HUGE_I32, I32, 0, 1, W, &q), NEXAR_ERR_COUNT);
    EXPECT_CODE(nexar_isend(b, HUGE_I32, I32, 0, 1, W, &q), NEXAR_ERR_COUNT);
    CHECK(q == NEXAR_REQUEST_NULL);
    EXPECT_CODE(nexar_bcast(b, (size_t)-1, I32, 0, W), NEXAR_ERR_COUNT);
    EXPECT_CODE(nexar_bcast(b, HUGE_U8, NEXAR_DTYPE_UINT8, 0, W), NEXAR_ERR_COUNT);
    EXPECT_CODE(nexar_allreduce(b, r, (size_t)-1, I32, NEXAR_OP_SUM, W), NEXAR_ERR_COUNT);
    EXPECT_CODE(nexar_iallreduce(b, r, HUGE_I32, I32, NEXAR_OP_SUM, W, &q), NEXAR_ERR_COUNT);
    EXPECT_CODE(nexar_reduce(b, r, HUGE_I32, I32, NEXAR_OP_MAX, 0, W), NEXAR_ERR_COUNT);
    EXPECT_CODE(nexar_scan(b, r, (size_t)-1, I32, NEXAR_OP_SUM, W), NEXAR_ERR_COUNT);
    EXPECT_CODE(nexar_gather(b, r, (size_t)-1, I32, 0, W), NEXAR_ERR_COUNT);
    EXPECT_CODE(nexar_scatter(b, r, HUGE_I32, I32, 0, W), NEXAR_ERR_COUNT);
    EXPECT_CODE(nexar_allgather(b, r, HUGE_I32, I32, W), NEXAR_ERR_COUNT);
    EXPECT_CODE(nexar_alltoall(b, r, HUGE_I32, I32, W), NEXAR_ERR_COUNT);
    EXPECT_CODE(nexar_reduce_scatter_block(b, r, (size_t)-1, I32, NEXAR_OP_SUM, W),
                NEXAR_ERR_COUNT);
    EXPECT_CODE(nexar_ibarrier(W, &q), NEXAR_SUCCESS); /* a good call in between */
    CHECK_OK(nexar_wait(&q, NULL));

    CTX("overflowing count arrays and displacements");
    EXPECT_CODE(nexar_allgatherv(b, 1, r, big, NULL, I32, W), NEXAR_ERR_COUNT);
    EXPECT_CODE(nexar_allgatherv(b, HUGE_I32, r, c1, NULL, I32, W), NEXAR_ERR_COUNT);
    size_t far[64];
    for (int i = 0; i < size; i++) {
        far[i] = SIZE_MAX - 1 + (size_t)(i == 0); /* displacement + count overflows */
    }
    EXPECT_CODE(nexar_allgatherv(b, 1, r, c1, far, I32, W), NEXAR_ERR_COUNT);
    EXPECT_CODE(nexar_alltoallv(b, c1, d, r, big, NULL, I32, W), NEXAR_ERR_COUNT);
    EXPECT_CODE(nexar_alltoallv(b, big, NULL, r, c1, d, I32, W), NEXAR_ERR_COUNT);
    EXPECT_CODE(nexar_reduce_scatter(b, r, big, I32, NEXAR_OP_SUM, W), NEXAR_ERR_COUNT);

    CTX("inconsistent alltoallv counts (a rank's block to itself differs both ways)");
    size_t c2[64];
    for (int i = 0; i < size; i++) {
        c2[i] = 2;
    }
    int32_t wide[2 * 64] = { 0 };
    EXPECT_CODE(nexar_alltoallv(wide, c1, NULL, wide + 64, c2, NULL, I32, W), NEXAR_ERR_COUNT);
}

static void test_ranks_tags_types_ops(void)
{
    int32_t b[256] = { 1, 2, 3, 4 }, r[256];
    double db[4] = { 1, 2, 3, 4 }, dr[4];
    nexar_request_t q = NEXAR_REQUEST_NULL;
    nexar_status_t st;
    int flag = 0;
    size_t c1[64];
    for (int i = 0; i < size; i++) {
        c1[i] = 1;
    }
    CTX("invalid ranks");
    EXPECT_FAIL(nexar_send(b, 1, I32, -1, 1, W), NEXAR_ERR_RANK, "nexar_send");
    EXPECT_CODE(nexar_send(b, 1, I32, size, 1, W), NEXAR_ERR_RANK);
    EXPECT_CODE(nexar_send(b, 1, I32, INT_MIN, 1, W), NEXAR_ERR_RANK);
    EXPECT_CODE(nexar_isend(b, 1, I32, size + 5, 1, W, &q), NEXAR_ERR_RANK);
    EXPECT_CODE(nexar_recv(r, 1, I32, -2, 1, W, NULL), NEXAR_ERR_RANK);
    EXPECT_CODE(nexar_recv(r, 1, I32, size, 1, W, NULL), NEXAR_ERR_RANK);
    EXPECT_CODE(nexar_irecv(r, 1, I32, size, 1, W, &q), NEXAR_ERR_RANK);
    EXPECT_CODE(nexar_probe(size, 1, W, &st), NEXAR_ERR_RANK);
    EXPECT_CODE(nexar_iprobe(-3, 1, W, &flag, &st), NEXAR_ERR_RANK);
    EXPECT_CODE(nexar_sendrecv(b, 1, I32, 0, 1, r, 1, I32, size, 1, W, NULL), NEXAR_ERR_RANK);
    EXPECT_CODE(nexar_sendrecv(b, 1, I32, size, 1, r, 1, I32, 0, 1, W, NULL), NEXAR_ERR_RANK);
    CHECK(q == NEXAR_REQUEST_NULL);

    CTX("invalid roots");
    int roots[] = { -1, size, INT_MAX };
    for (int k = 0; k < 3; k++) {
        int rt = roots[k];
        EXPECT_FAIL(nexar_bcast(b, 1, I32, rt, W), NEXAR_ERR_ROOT, "nexar_bcast");
        EXPECT_CODE(nexar_ibcast(b, 1, I32, rt, W, &q), NEXAR_ERR_ROOT);
        EXPECT_CODE(nexar_reduce(b, r, 1, I32, NEXAR_OP_SUM, rt, W), NEXAR_ERR_ROOT);
        EXPECT_CODE(nexar_ireduce(b, r, 1, I32, NEXAR_OP_SUM, rt, W, &q), NEXAR_ERR_ROOT);
        EXPECT_CODE(nexar_gather(b, r, 1, I32, rt, W), NEXAR_ERR_ROOT);
        EXPECT_CODE(nexar_gatherv(b, 1, r, c1, NULL, I32, rt, W), NEXAR_ERR_ROOT);
        EXPECT_CODE(nexar_scatter(b, r, 1, I32, rt, W), NEXAR_ERR_ROOT);
        EXPECT_CODE(nexar_iscatterv(b, c1, NULL, r, 1, I32, rt, W, &q), NEXAR_ERR_ROOT);
    }
    CHECK(q == NEXAR_REQUEST_NULL);

    CTX("negative tags");
    EXPECT_FAIL(nexar_send(b, 1, I32, 0, -5, W), NEXAR_ERR_TAG, "nexar_send");
    EXPECT_CODE(nexar_send(b, 1, I32, 0, NEXAR_ANY_TAG, W), NEXAR_ERR_TAG);
    EXPECT_CODE(nexar_isend(b, 1, I32, 0, INT_MIN, W, &q), NEXAR_ERR_TAG);
    EXPECT_CODE(nexar_recv(r, 1, I32, 0, -2, W, NULL), NEXAR_ERR_TAG);
    EXPECT_CODE(nexar_irecv(r, 1, I32, NEXAR_ANY_SOURCE, -100, W, &q), NEXAR_ERR_TAG);
    EXPECT_CODE(nexar_probe(0, -3, W, &st), NEXAR_ERR_TAG);
    EXPECT_CODE(nexar_iprobe(0, -3, W, &flag, &st), NEXAR_ERR_TAG);
    EXPECT_CODE(nexar_sendrecv(b, 1, I32, 0, 1, r, 1, I32, 0, -9, W, NULL), NEXAR_ERR_TAG);
    CHECK(q == NEXAR_REQUEST_NULL);

    CTX("invalid datatype codes");
    int dts[] = { 0, 18, -1, INT_MAX };
    for (int k = 0; k < 4; k++) {
        int dt = dts[k];
        EXPECT_FAIL(nexar_send(b, 1, dt, 0, 1, W), NEXAR_ERR_DATATYPE, "nexar_send");
        EXPECT_CODE(nexar_recv(r, 1, dt, 0, 1, W, NULL), NEXAR_ERR_DATATYPE);
        EXPECT_CODE(nexar_irecv(r, 1, dt, 0, 1, W, &q), NEXAR_ERR_DATATYPE);
        EXPECT_CODE(nexar_bcast(b, 1, dt, 0, W), NEXAR_ERR_DATATYPE);
        EXPECT_CODE(nexar_allreduce(b, r, 1, dt, NEXAR_OP_SUM, W), NEXAR_ERR_DATATYPE);
        EXPECT_CODE(nexar_iallreduce(b, r, 1, dt, NEXAR_OP_SUM, W, &q), NEXAR_ERR_DATATYPE);
        EXPECT_CODE(nexar_alltoallv(b, c1, NULL, r, c1, NULL, dt, W), NEXAR_ERR_DATATYPE);
        EXPECT_CODE(nexar_gather(b, r, 1, dt, 0, W), NEXAR_ERR_DATATYPE);
        st.count = 4;
        size_t n = 77;
        EXPECT_CODE(nexar_get_count(&st, dt, &n), NEXAR_ERR_DATATYPE);
        CHECK(n == 77);
    }
    CHECK(q == NEXAR_REQUEST_NULL);

    CTX("invalid op codes");
    int ops[] = { 0, 13, -1, INT_MIN };
    for (int k = 0; k < 4; k++) {
        int op = ops[k];
        EXPECT_FAIL(nexar_allreduce(b, r, 1, I32, op, W), NEXAR_ERR_OP, "nexar_allreduce");
        EXPECT_CODE(nexar_reduce(b, r, 1, I32, op, 0, W), NEXAR_ERR_OP);
        EXPECT_CODE(nexar_iscan(b, r, 1, I32, op, W, &q), NEXAR_ERR_OP);
        EXPECT_CODE(nexar_reduce_scatter_block(b, r, 1, I32, op, W), NEXAR_ERR_OP);
    }
    CTX("valid ops not defined for the datatype");
    struct { int32_t v, i; } pr[1] = { { 1, 0 } }, prr[1];
    EXPECT_CODE(nexar_allreduce(db, dr, 2, NEXAR_DTYPE_DOUBLE, NEXAR_OP_BAND, W), NEXAR_ERR_OP);
    EXPECT_CODE(nexar_allreduce(db, dr, 2, NEXAR_DTYPE_FLOAT, NEXAR_OP_LXOR, W), NEXAR_ERR_OP);
    EXPECT_CODE(nexar_reduce(db, dr, 1, NEXAR_DTYPE_DOUBLE, NEXAR_OP_BOR, size - 1, W),
                NEXAR_ERR_OP);
    EXPECT_CODE(nexar_allreduce(b, r, 1, I32, NEXAR_OP_MINLOC, W), NEXAR_ERR_OP);
    EXPECT_CODE(nexar_scan(db, dr, 1, NEXAR_DTYPE_DOUBLE, NEXAR_OP_MAXLOC, W), NEXAR_ERR_OP);
    EXPECT_CODE(nexar_allreduce(pr, prr, 1, NEXAR_DTYPE_2INT, NEXAR_OP_SUM, W), NEXAR_ERR_OP);
    EXPECT_CODE(nexar_exscan(pr, prr, 1, NEXAR_DTYPE_2INT, NEXAR_OP_MAX, W), NEXAR_ERR_OP);
    EXPECT_CODE(nexar_iallreduce(db, dr, 1, NEXAR_DTYPE_DOUBLE_INT, NEXAR_OP_PROD, W, &q),
                NEXAR_ERR_OP);
    CHECK(q == NEXAR_REQUEST_NULL);
}

static void test_handles(void)
{
    int32_t b[256] = { 0 }, r[256];
    int out = -9;
    nexar_status_t st;
    CTX("freed, forged, NULL and wrong-kind communicator handles");
    nexar_comm_t d = NULL;
    CHECK_OK(nexar_comm_dup(W, &d));
    nexar_comm_t freed = d;
    CHECK_OK(nexar_comm_free(&d));
    nexar_comm_t bad[] = { freed, (nexar_comm_t)(uintptr_t)0x12345678, NULL,
                           (nexar_comm_t)(uintptr_t)~(uintptr_t)0 };
    for (int k = 0; k < 4; k++) {
        nexar_comm_t c = bad[k];
        EXPECT_FAIL(nexar_comm_rank(c, &out), NEXAR_ERR_COMM, "nexar_comm_rank");
        EXPECT_CODE(nexar_comm_size(c, &out), NEXAR_ERR_COMM);
        EXPECT_CODE(nexar_send(b, 1, I32, 0, 1, c), NEXAR_ERR_COMM);
        EXPECT_CODE(nexar_recv(r, 1, I32, 0, 1, c, NULL), NEXAR_ERR_COMM);
        int flag = 3;
        EXPECT_CODE(nexar_iprobe(0, 1, c, &flag, NULL), NEXAR_ERR_COMM);
        CHECK(flag == 3);
        EXPECT_CODE(nexar_barrier(c), NEXAR_ERR_COMM);
        EXPECT_CODE(nexar_allreduce(b, r, 1, I32, NEXAR_OP_SUM, c), NEXAR_ERR_COMM);
        EXPECT_CODE(nexar_bcast(b, 1, I32, 0, c), NEXAR_ERR_COMM);
        nexar_comm_t nc = W;
        EXPECT_CODE(nexar_comm_dup(c, &nc), NEXAR_ERR_COMM);
        EXPECT_CODE(nexar_comm_split(c, 0, 0, &nc), NEXAR_ERR_COMM);
        CHECK(nc == W);
    }
    CHECK(out == -9);
    nexar_comm_t w = W;
    EXPECT_CODE(nexar_comm_free(&w), NEXAR_ERR_COMM);
    EXPECT_CODE(nexar_comm_split(W, -5, 0, &d), NEXAR_ERR_ARG); /* negative color */

    CTX("freed, forged, twice-waited and wrong-kind request handles");
    nexar_request_t q = NEXAR_REQUEST_NULL;
    CHECK_OK(nexar_isend(b, 1, I32, rank, 90, W, &q));
    nexar_request_t copy = q;
    CHECK_OK(nexar_wait(&q, &st));
    CHECK(q == NEXAR_REQUEST_NULL);
    int flag = 4;
    EXPECT_FAIL(nexar_wait(&copy, &st), NEXAR_ERR_REQUEST, "nexar_wait");
    EXPECT_CODE(nexar_test(&copy, &flag, &st), NEXAR_ERR_REQUEST);
    EXPECT_CODE(nexar_request_free(&copy), NEXAR_ERR_REQUEST);
    nexar_request_t forged[] = { (nexar_request_t)(uintptr_t)0x1234,
                                 (nexar_request_t)(void *)freed, /* a communicator's value */
                                 (nexar_request_t)(uintptr_t)~(uintptr_t)0 };
    for (int k = 0; k < 3; k++) {
        nexar_request_t f = forged[k];
        EXPECT_CODE(nexar_wait(&f, NULL), NEXAR_ERR_REQUEST);
        EXPECT_CODE(nexar_test(&f, &flag, NULL), NEXAR_ERR_REQUEST);
        EXPECT_CODE(nexar_request_free(&f), NEXAR_ERR_REQUEST);
        int idx = -5;
        EXPECT_CODE(nexar_waitany(1, &f, &idx, NULL), NEXAR_ERR_REQUEST);
        EXPECT_CODE(nexar_testall(1, &f, &flag, NULL), NEXAR_ERR_REQUEST);
        CHECK(f == forged[k] && idx == -5);
    }
    CHECK(flag == 4);
    /* waitall completes the good requests and reports the bad one */
    nexar_request_t two[2] = { NEXAR_REQUEST_NULL, forged[0] };
    CHECK_OK(nexar_isend(b, 1, I32, rank, 91, W, &two[0]));
    nexar_status_t sts[2];
    memset(sts, 0x77, sizeof sts);
    EXPECT_CODE(nexar_waitall(2, two, sts), NEXAR_ERR_REQUEST);
    CHECK(two[0] == NEXAR_REQUEST_NULL && sts[0].error == NEXAR_SUCCESS);
    CHECK(sts[1].error == NEXAR_ERR_REQUEST);
    /* a live request is not a communicator */
    CHECK_OK(nexar_irecv(r, 2, I32, rank, 92, W, &q));
    EXPECT_CODE(nexar_comm_rank((nexar_comm_t)(void *)q, &out), NEXAR_ERR_COMM);
    CHECK_OK(nexar_send(b, 2, I32, rank, 92, W));
    CHECK_OK(nexar_wait(&q, NULL));
    for (int tag = 90; tag <= 91; tag++) { /* drain the self-messages */
        CHECK_OK(nexar_recv(r, 2, I32, rank, tag, W, NULL));
    }
}

static void test_strings_and_modes(void)
{
    CTX("nexar_error_string");
    const char *seen[26];
    for (int code = 0; code <= NEXAR_ERR_RMA_RANGE; code++) {
        const char *s = nexar_error_string(code);
        REQUIRE(s != NULL);
        CHECK(s[0] != '\0' && strcmp(s, "unknown error code") != 0);
        for (int j = 0; j < code; j++) {
            CHECK(strcmp(s, seen[j]) != 0); /* each code has its own text */
        }
        seen[code] = s;
    }
    CHECK(strcmp(nexar_error_string(NEXAR_SUCCESS), "success") == 0);
    CHECK(strstr(nexar_error_string(NEXAR_ERR_TRUNCATED), "truncat") != NULL);
    int unknown[] = { NEXAR_ERR_RMA_RANGE + 1, 100, -1, INT_MIN, INT_MAX };
    for (int k = 0; k < 5; k++) {
        const char *s = nexar_error_string(unknown[k]);
        REQUIRE(s != NULL);
        CHECK(strcmp(s, "unknown error code") == 0);
    }

    CTX("nexar_last_error_message");
    EXPECT_CODE(nexar_send(NULL, 1, I32, 0, 1, W), NEXAR_ERR_ARG);
    char saved[512];
    snprintf(saved, sizeof saved, "%s", nexar_last_error_message());
    CHECK(saved[0] != '\0' && strstr(saved, "nexar_send") != NULL);
    int r = -1;
    CHECK_OK(nexar_comm_rank(W, &r)); /* a success leaves the last failure's message */
    CHECK(strcmp(nexar_last_error_message(), saved) == 0);

    CTX("nexar_set_error_mode with an unknown mode");
    EXPECT_CODE(nexar_set_error_mode(2), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_set_error_mode(-1), NEXAR_ERR_ARG);
    CHECK_OK(nexar_set_error_mode(NEXAR_ERRORS_RETURN));
}

/* After the whole matrix the library still works, and every rank is still in step. */
static void test_still_works(void)
{
    CTX("a real allreduce after the matrix");
    int64_t v[3] = { rank, 1, rank * rank }, s[3] = { 0, 0, 0 };
    CHECK_OK(nexar_allreduce(v, s, 3, NEXAR_DTYPE_INT64, NEXAR_OP_SUM, W));
    int64_t n = size;
    CHECK(s[0] == n * (n - 1) / 2 && s[1] == n && s[2] == (n - 1) * n * (2 * n - 1) / 6);
    int x = rank == 0 ? 4242 : -1;
    nexar_request_t q;
    CHECK_OK(nexar_ibcast(&x, 1, I32, 0, W, &q));
    CHECK_OK(nexar_wait(&q, NULL));
    CHECK(x == 4242);
    int flag = 1;
    CHECK_OK(nexar_iprobe(NEXAR_ANY_SOURCE, NEXAR_ANY_TAG, W, &flag, NULL));
    CHECK(flag == 0); /* no stray message was sent by a failed call */
    CHECK_OK(nexar_barrier(W));
}

/* A NULL request is refused before the collective starts, so one rank's bad call does not take
 * a place in the communicator's order: its next collective still matches the other ranks'. */
static void test_null_request_starts_nothing(void)
{
    CTX("a NULL request on one rank starts no collective");
    int32_t b = rank + 1, r = 0;
    if (rank == 0)
        EXPECT_CODE(nexar_iallreduce(&b, &r, 1, I32, NEXAR_OP_SUM, W, NULL), NEXAR_ERR_ARG);
    CHECK_OK(nexar_allreduce(&b, &r, 1, I32, NEXAR_OP_SUM, W));
    CHECK(r == size * (size + 1) / 2);
    if (rank == 0)
        EXPECT_CODE(nexar_ibcast(&b, 1, I32, 0, W, NULL), NEXAR_ERR_ARG);
    int32_t x = rank == 0 ? 77 : -1;
    CHECK_OK(nexar_bcast(&x, 1, I32, 0, W));
    CHECK(x == 77);
}

int main(int argc, char **argv)
{
    CHECK(nexar_last_error_message() != NULL && nexar_last_error_message()[0] == '\0');
    check_init(&argc, &argv, &rank, &size);
    REQUIRE(size <= 64);
    test_null_pointers();
    test_counts();
    test_ranks_tags_types_ops();
    test_handles();
    test_strings_and_modes();
    test_still_works();
    test_null_request_starts_nothing();
    return check_finish(1);
}
