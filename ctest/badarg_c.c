/*
 * badarg_c: the bad-argument matrix of the C ABI, one case per process.
 *
 *   badarg_c <case>     run that case (under nexarrun at the rank count the case names)
 *   badarg_c --list     print every case as "<name> <ranks>"
 *
 * Every case is written once below as CASE(name, ranks, code, func, what) { body }: the body
 * makes exactly one bad call (after whatever set-up it needs) and returns its status. The
 * harness initializes nexar (unless ranks is 0: a call before nexar_init, run as a singleton),
 * runs the body, and checks that the status is exactly `code` (the code include/nexar.h
 * documents) and that nexar_last_error_message() names the function `func` and contains `what`
 * (the problem: "`buf` is NULL", "negative", ...). Then the ranks still agree: a barrier and
 * finalize must succeed (except after cases that finalized themselves). ctest/CMakeLists.txt
 * reads the CASE lines of this file to register one CTest per case, so this file is the only
 * list. A crash, a hang or a wrong code fails that one test.
 *
 * Multi-rank cases make the same bad call on every rank; every such call fails before any
 * message moves, so the ranks stay in step.
 */
#include "check.h"

#include <limits.h>
#include <stdint.h>

#define W NEXAR_COMM_WORLD
#define I32 NEXAR_DTYPE_INT32
#define HUGE_I32 ((size_t)SIZE_MAX / 2 + 1) /* count * 4 overflows size_t */

typedef int (*case_fn)(void);

struct badcase {
    const char *name;
    int ranks; /* 0: called before nexar_init (singleton) */
    int code;
    const char *func;
    const char *what;
    case_fn fn;
};

#define MAX_CASES 160
static struct badcase cases[MAX_CASES];
static int ncases;
/* Set by a case that ended the library itself (finalize), so the harness does not again. */
static int case_finalized;
static int rank, size;

static void add_case(const char *name, int ranks, int code, const char *func, const char *what,
                     case_fn fn)
{
    if (ncases == MAX_CASES) {
        fprintf(stderr, "badarg_c: raise MAX_CASES\n");
        exit(2);
    }
    cases[ncases++] = (struct badcase){ name, ranks, code, func, what, fn };
}

/* Defines case_<name> and registers it before main runs (table order = file order). */
#define CASE(nm, ranks, code, func, what)                                                   \
    static int case_##nm(void);                                                             \
    __attribute__((constructor)) static void register_##nm(void)                            \
    {                                                                                       \
        add_case(#nm, ranks, code, func, what, case_##nm);                                  \
    }                                                                                       \
    static int case_##nm(void)

static int32_t sb[256] = { 1, 2, 3, 4 }, rb[256];
static size_t ones[64];

/* ---- NULL pointers: buffers (count > 0), out-parameters, requests, arrays ---- */
CASE(send_null_buf, 1, NEXAR_ERR_ARG, "nexar_send", "`buf` is NULL")
{
    return nexar_send(NULL, 1, I32, 0, 1, W);
}
CASE(recv_null_buf, 1, NEXAR_ERR_ARG, "nexar_recv", "`buf` is NULL")
{
    return nexar_recv(NULL, 1, I32, 0, 1, W, NULL);
}
CASE(isend_null_buf, 2, NEXAR_ERR_ARG, "nexar_isend", "`buf` is NULL")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    int rc = nexar_isend(NULL, 4, I32, 0, 1, W, &q);
    CHECK(q == NEXAR_REQUEST_NULL);
    return rc;
}
CASE(irecv_null_buf, 2, NEXAR_ERR_ARG, "nexar_irecv", "`buf` is NULL")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    return nexar_irecv(NULL, 1, I32, 0, 1, W, &q);
}
CASE(isend_null_request, 1, NEXAR_ERR_ARG, "nexar_isend", "`request` is NULL")
{
    return nexar_isend(sb, 1, I32, 0, 1, W, NULL);
}
CASE(irecv_null_request, 1, NEXAR_ERR_ARG, "nexar_irecv", "`request` is NULL")
{
    return nexar_irecv(rb, 1, I32, 0, 1, W, NULL);
}
CASE(sendrecv_null_sendbuf, 2, NEXAR_ERR_ARG, "nexar_sendrecv", "is NULL")
{
    return nexar_sendrecv(NULL, 1, I32, rank, 1, rb, 1, I32, rank, 1, W, NULL);
}
CASE(sendrecv_null_recvbuf, 2, NEXAR_ERR_ARG, "nexar_sendrecv", "is NULL")
{
    return nexar_sendrecv(sb, 1, I32, rank, 1, NULL, 1, I32, rank, 1, W, NULL);
}
CASE(probe_null_status, 1, NEXAR_ERR_ARG, "nexar_probe", "`status` is NULL")
{
    return nexar_probe(0, 1, W, NULL);
}
CASE(iprobe_null_flag, 1, NEXAR_ERR_ARG, "nexar_iprobe", "`flag` is NULL")
{
    return nexar_iprobe(0, 1, W, NULL, NULL);
}
CASE(get_count_null_status, 1, NEXAR_ERR_ARG, "nexar_get_count", "`status` is NULL")
{
    size_t n = 7;
    int rc = nexar_get_count(NULL, I32, &n);
    CHECK(n == 7);
    return rc;
}
CASE(get_count_null_count, 1, NEXAR_ERR_ARG, "nexar_get_count", "`count` is NULL")
{
    nexar_status_t st = { 0, 0, 0, 8 };
    return nexar_get_count(&st, I32, NULL);
}
CASE(comm_rank_null, 1, NEXAR_ERR_ARG, "nexar_comm_rank", "`rank` is NULL")
{
    return nexar_comm_rank(W, NULL);
}
CASE(comm_size_null, 2, NEXAR_ERR_ARG, "nexar_comm_size", "`size` is NULL")
{
    return nexar_comm_size(W, NULL);
}
CASE(comm_split_null_newcomm, 2, NEXAR_ERR_ARG, "nexar_comm_split", "`newcomm` is NULL")
{
    return nexar_comm_split(W, 0, 0, NULL);
}
CASE(comm_split_type_null_newcomm, 1, NEXAR_ERR_ARG, "nexar_comm_split_type",
     "`newcomm` is NULL")
{
    return nexar_comm_split_type(W, NEXAR_COMM_TYPE_SHARED, 0, NULL);
}
CASE(comm_dup_null_newcomm, 2, NEXAR_ERR_ARG, "nexar_comm_dup", "`newcomm` is NULL")
{
    return nexar_comm_dup(W, NULL);
}
CASE(comm_free_null, 1, NEXAR_ERR_ARG, "nexar_comm_free", "is NULL")
{
    return nexar_comm_free(NULL);
}
CASE(initialized_null, 1, NEXAR_ERR_ARG, "nexar_initialized", "`flag` is NULL")
{
    return nexar_initialized(NULL);
}
CASE(finalized_null, 1, NEXAR_ERR_ARG, "nexar_finalized", "`flag` is NULL")
{
    return nexar_finalized(NULL);
}
CASE(wait_null_request, 1, NEXAR_ERR_ARG, "nexar_wait", "`request` is NULL")
{
    return nexar_wait(NULL, NULL);
}
CASE(test_null_request, 1, NEXAR_ERR_ARG, "nexar_test", "`request` is NULL")
{
    int flag = 3;
    int rc = nexar_test(NULL, &flag, NULL);
    CHECK(flag == 3);
    return rc;
}
CASE(test_null_flag, 1, NEXAR_ERR_ARG, "nexar_test", "`flag` is NULL")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    return nexar_test(&q, NULL, NULL);
}
CASE(waitall_null_array, 1, NEXAR_ERR_ARG, "nexar_waitall", "`requests` is NULL")
{
    return nexar_waitall(2, NULL, NULL);
}
CASE(waitany_null_array, 1, NEXAR_ERR_ARG, "nexar_waitany", "`requests` is NULL")
{
    int idx = -5;
    int rc = nexar_waitany(2, NULL, &idx, NULL);
    CHECK(idx == -5);
    return rc;
}
CASE(waitany_null_index, 1, NEXAR_ERR_ARG, "nexar_waitany", "`index` is NULL")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    return nexar_waitany(1, &q, NULL, NULL);
}
CASE(testall_null_array, 1, NEXAR_ERR_ARG, "nexar_testall", "`requests` is NULL")
{
    int flag = 0;
    return nexar_testall(3, NULL, &flag, NULL);
}
CASE(testall_null_flag, 1, NEXAR_ERR_ARG, "nexar_testall", "`flag` is NULL")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    return nexar_testall(1, &q, NULL, NULL);
}
CASE(request_free_null, 1, NEXAR_ERR_ARG, "nexar_request_free", "`request` is NULL")
{
    return nexar_request_free(NULL);
}
CASE(ibarrier_null_request, 2, NEXAR_ERR_ARG, "nexar_ibarrier", "`request` is NULL")
{
    return nexar_ibarrier(W, NULL);
}
CASE(iallreduce_null_request, 2, NEXAR_ERR_ARG, "nexar_iallreduce", "`request` is NULL")
{
    return nexar_iallreduce(sb, rb, 1, I32, NEXAR_OP_SUM, W, NULL);
}
CASE(bcast_null_buf, 2, NEXAR_ERR_ARG, "nexar_bcast", "`buf` is NULL")
{
    return nexar_bcast(NULL, 3, I32, 0, W);
}
CASE(allreduce_null_sendbuf, 2, NEXAR_ERR_ARG, "nexar_allreduce", "`sendbuf` is NULL")
{
    return nexar_allreduce(NULL, rb, 2, I32, NEXAR_OP_SUM, W);
}
CASE(allreduce_null_recvbuf, 2, NEXAR_ERR_ARG, "nexar_allreduce", "`recvbuf` is NULL")
{
    return nexar_allreduce(sb, NULL, 2, I32, NEXAR_OP_SUM, W);
}
CASE(reduce_null_recvbuf_root, 1, NEXAR_ERR_ARG, "nexar_reduce", "`recvbuf` is NULL")
{
    return nexar_reduce(sb, NULL, 2, I32, NEXAR_OP_SUM, 0, W);
}
CASE(gather_null_sendbuf, 2, NEXAR_ERR_ARG, "nexar_gather", "`sendbuf` is NULL")
{
    return nexar_gather(NULL, rb, 1, I32, 0, W);
}
CASE(scatter_null_recvbuf, 2, NEXAR_ERR_ARG, "nexar_scatter", "`recvbuf` is NULL")
{
    return nexar_scatter(sb, NULL, 1, I32, 0, W);
}
CASE(allgather_null_recvbuf, 2, NEXAR_ERR_ARG, "nexar_allgather", "`recvbuf` is NULL")
{
    return nexar_allgather(sb, NULL, 1, I32, W);
}
CASE(alltoall_null_sendbuf, 2, NEXAR_ERR_ARG, "nexar_alltoall", "`sendbuf` is NULL")
{
    return nexar_alltoall(NULL, rb, 1, I32, W);
}
CASE(alltoallv_null_sendcounts, 2, NEXAR_ERR_ARG, "nexar_alltoallv", "`sendcounts` is NULL")
{
    return nexar_alltoallv(sb, NULL, NULL, rb, ones, NULL, I32, W);
}
CASE(allgatherv_null_recvcounts, 2, NEXAR_ERR_ARG, "nexar_allgatherv", "`recvcounts` is NULL")
{
    return nexar_allgatherv(sb, 1, rb, NULL, NULL, I32, W);
}
CASE(reduce_scatter_null_recvcounts, 2, NEXAR_ERR_ARG, "nexar_reduce_scatter",
     "`recvcounts` is NULL")
{
    return nexar_reduce_scatter(sb, rb, NULL, I32, NEXAR_OP_SUM, W);
}
CASE(scan_null_recvbuf, 2, NEXAR_ERR_ARG, "nexar_scan", "`recvbuf` is NULL")
{
    return nexar_scan(sb, NULL, 2, I32, NEXAR_OP_SUM, W);
}
CASE(exscan_null_sendbuf, 2, NEXAR_ERR_ARG, "nexar_exscan", "`sendbuf` is NULL")
{
    return nexar_exscan(NULL, rb, 2, I32, NEXAR_OP_SUM, W);
}
CASE(send_in_place, 1, NEXAR_ERR_ARG, "nexar_send", "`buf` is NULL")
{
    return nexar_send(NEXAR_IN_PLACE, 1, I32, 0, 1, W);
}
CASE(bcast_in_place, 2, NEXAR_ERR_ARG, "nexar_bcast", "`buf` is NULL")
{
    return nexar_bcast(NEXAR_IN_PLACE, 1, I32, 0, W);
}

/* ---- communicator handles: NULL, forged, freed, predefined ---- */
CASE(send_null_comm, 1, NEXAR_ERR_COMM, "nexar_send", "communicator handle is NULL")
{
    return nexar_send(sb, 1, I32, 0, 1, NULL);
}
CASE(barrier_null_comm, 2, NEXAR_ERR_COMM, "nexar_barrier", "communicator handle is NULL")
{
    return nexar_barrier(NULL);
}
CASE(allreduce_forged_comm, 2, NEXAR_ERR_COMM, "nexar_allreduce", "invalid or freed")
{
    return nexar_allreduce(sb, rb, 1, I32, NEXAR_OP_SUM, (nexar_comm_t)(uintptr_t)0x12345678);
}
CASE(comm_rank_freed_comm, 2, NEXAR_ERR_COMM, "nexar_comm_rank", "invalid or freed")
{
    nexar_comm_t d = NULL;
    CHECK_OK(nexar_comm_dup(W, &d));
    nexar_comm_t stale = d;
    CHECK_OK(nexar_comm_free(&d));
    CHECK(d == NULL);
    int r = -4;
    int rc = nexar_comm_rank(stale, &r);
    CHECK(r == -4);
    return rc;
}
CASE(bcast_freed_comm, 2, NEXAR_ERR_COMM, "nexar_bcast", "invalid or freed")
{
    nexar_comm_t d = NULL;
    CHECK_OK(nexar_comm_split(W, rank % 2, 0, &d));
    nexar_comm_t stale = d;
    CHECK_OK(nexar_comm_free(&d));
    return nexar_bcast(sb, 1, I32, 0, stale);
}
CASE(comm_double_free, 2, NEXAR_ERR_COMM, "nexar_comm_free", "invalid or freed")
{
    nexar_comm_t d = NULL;
    CHECK_OK(nexar_comm_dup(W, &d));
    nexar_comm_t copy = d;
    CHECK_OK(nexar_comm_free(&d));
    CHECK_OK(nexar_comm_free(&d)); /* *comm == NULL: documented to do nothing */
    return nexar_comm_free(&copy);
}
CASE(comm_free_world, 1, NEXAR_ERR_COMM, "nexar_comm_free", "WORLD")
{
    nexar_comm_t w = W;
    int rc = nexar_comm_free(&w);
    CHECK(w == W);
    return rc;
}
CASE(comm_free_self, 1, NEXAR_ERR_COMM, "nexar_comm_free", "SELF")
{
    nexar_comm_t s = NEXAR_COMM_SELF;
    return nexar_comm_free(&s);
}
CASE(comm_split_freed_comm, 2, NEXAR_ERR_COMM, "nexar_comm_split", "invalid or freed")
{
    nexar_comm_t d = NULL, n = W;
    CHECK_OK(nexar_comm_dup(W, &d));
    nexar_comm_t stale = d;
    CHECK_OK(nexar_comm_free(&d));
    int rc = nexar_comm_split(stale, 0, 0, &n);
    CHECK(n == W);
    return rc;
}
CASE(request_as_comm, 1, NEXAR_ERR_COMM, "nexar_comm_size", "invalid or freed")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    CHECK_OK(nexar_irecv(rb, 1, I32, 0, 5, W, &q));
    int s = -1;
    int rc = nexar_comm_size((nexar_comm_t)(void *)q, &s);
    CHECK_OK(nexar_send(sb, 1, I32, 0, 5, W));
    CHECK_OK(nexar_wait(&q, NULL));
    return rc;
}

/* ---- comm_split / split_type arguments ---- */
CASE(comm_split_negative_color, 2, NEXAR_ERR_ARG, "nexar_comm_split", "color -5 is negative")
{
    nexar_comm_t n = W;
    int rc = nexar_comm_split(W, -5, 0, &n);
    CHECK(n == W);
    return rc;
}
CASE(comm_split_color_int_min, 2, NEXAR_ERR_ARG, "nexar_comm_split", "is negative")
{
    nexar_comm_t n = W;
    return nexar_comm_split(W, INT_MIN, 0, &n);
}
CASE(comm_split_type_unknown, 2, NEXAR_ERR_ARG, "nexar_comm_split_type", "unknown split type")
{
    nexar_comm_t n = W;
    return nexar_comm_split_type(W, 77, 0, &n);
}

/* ---- request handles: freed, double free, stale after completion, forged, pending ---- */
CASE(wait_freed_request, 1, NEXAR_ERR_REQUEST, "nexar_wait", "invalid or freed")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    CHECK_OK(nexar_isend(sb, 1, I32, 0, 9, W, &q));
    nexar_request_t copy = q;
    CHECK_OK(nexar_wait(&q, NULL));
    CHECK(q == NEXAR_REQUEST_NULL);
    CHECK_OK(nexar_recv(rb, 1, I32, 0, 9, W, NULL));
    return nexar_wait(&copy, NULL);
}
CASE(wait_completed_null_request, 1, NEXAR_SUCCESS, "", "")
{
    /* A request already completed by wait is NEXAR_REQUEST_NULL: waiting again is a no-op. */
    nexar_request_t q = NEXAR_REQUEST_NULL;
    CHECK_OK(nexar_isend(sb, 1, I32, 0, 9, W, &q));
    CHECK_OK(nexar_wait(&q, NULL));
    CHECK_OK(nexar_recv(rb, 1, I32, 0, 9, W, NULL));
    nexar_status_t st;
    memset(&st, 0x55, sizeof st);
    int rc = nexar_wait(&q, &st);
    CHECK(st.error == NEXAR_SUCCESS && st.count == 0);
    return rc;
}
CASE(test_freed_request, 1, NEXAR_ERR_REQUEST, "nexar_test", "invalid or freed")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    CHECK_OK(nexar_ibarrier(W, &q));
    nexar_request_t copy = q;
    CHECK_OK(nexar_wait(&q, NULL));
    int flag = 7;
    int rc = nexar_test(&copy, &flag, NULL);
    CHECK(flag == 7);
    return rc;
}
CASE(request_double_free, 1, NEXAR_ERR_REQUEST, "nexar_request_free", "invalid or freed")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    CHECK_OK(nexar_isend(sb, 1, I32, 0, 9, W, &q));
    nexar_request_t copy = q;
    CHECK_OK(nexar_request_free(&q));
    CHECK(q == NEXAR_REQUEST_NULL);
    CHECK_OK(nexar_recv(rb, 1, I32, 0, 9, W, NULL));
    return nexar_request_free(&copy);
}
CASE(request_free_pending, 1, NEXAR_ERR_PENDING, "nexar_request_free", "")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    CHECK_OK(nexar_irecv(rb, 1, I32, 0, 9, W, &q));
    int rc = nexar_request_free(&q);
    CHECK(q != NEXAR_REQUEST_NULL); /* still valid: wait for it */
    CHECK_OK(nexar_send(sb, 1, I32, 0, 9, W));
    CHECK_OK(nexar_wait(&q, NULL));
    CHECK(rb[0] == sb[0]);
    return rc;
}
CASE(waitany_freed_request, 1, NEXAR_ERR_REQUEST, "nexar_waitany", "invalid or freed")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    CHECK_OK(nexar_ibarrier(W, &q));
    nexar_request_t copy = q;
    CHECK_OK(nexar_wait(&q, NULL));
    int idx = -3;
    int rc = nexar_waitany(1, &copy, &idx, NULL);
    CHECK(idx == -3);
    return rc;
}
CASE(waitall_freed_request, 2, NEXAR_ERR_REQUEST, "nexar_waitall", "invalid or freed")
{
    nexar_request_t two[2] = { NEXAR_REQUEST_NULL, NEXAR_REQUEST_NULL };
    CHECK_OK(nexar_ibarrier(W, &two[1]));
    nexar_request_t copy = two[1];
    CHECK_OK(nexar_wait(&two[1], NULL));
    two[1] = copy;
    CHECK_OK(nexar_isend(sb, 1, I32, rank, 9, W, &two[0]));
    nexar_status_t sts[2];
    int rc = nexar_waitall(2, two, sts);
    /* the good request is completed anyway, the stale one reported in its status */
    CHECK(two[0] == NEXAR_REQUEST_NULL && sts[0].error == NEXAR_SUCCESS);
    CHECK(sts[1].error == NEXAR_ERR_REQUEST);
    CHECK_OK(nexar_recv(rb, 1, I32, rank, 9, W, NULL));
    return rc;
}
CASE(testall_forged_request, 1, NEXAR_ERR_REQUEST, "nexar_testall", "invalid or freed")
{
    nexar_request_t f = (nexar_request_t)(uintptr_t)0x4321;
    int flag = 9;
    return nexar_testall(1, &f, &flag, NULL);
}
CASE(comm_as_request, 1, NEXAR_ERR_REQUEST, "nexar_wait", "invalid or freed")
{
    nexar_comm_t d = NULL;
    CHECK_OK(nexar_comm_dup(W, &d));
    nexar_request_t f = (nexar_request_t)(void *)d;
    int rc = nexar_wait(&f, NULL);
    CHECK(f == (nexar_request_t)(void *)d);
    CHECK_OK(nexar_comm_free(&d));
    return rc;
}

/* ---- counts: (size_t)-1 (a negative int cast), overflowing byte sizes and arrays ---- */
CASE(send_count_minus_one, 1, NEXAR_ERR_COUNT, "nexar_send", "too large")
{
    return nexar_send(sb, (size_t)-1, I32, 0, 1, W);
}
CASE(recv_count_huge, 1, NEXAR_ERR_COUNT, "nexar_recv", "too large")
{
    return nexar_recv(rb, HUGE_I32, I32, 0, 1, W, NULL);
}
CASE(irecv_count_minus_one, 2, NEXAR_ERR_COUNT, "nexar_irecv", "too large")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    int rc = nexar_irecv(rb, (size_t)-1, NEXAR_DTYPE_DOUBLE, 0, 1, W, &q);
    CHECK(q == NEXAR_REQUEST_NULL);
    return rc;
}
CASE(bcast_count_minus_one, 2, NEXAR_ERR_COUNT, "nexar_bcast", "too large")
{
    return nexar_bcast(sb, (size_t)-1, I32, 0, W);
}
CASE(allreduce_count_huge, 2, NEXAR_ERR_COUNT, "nexar_allreduce", "too large")
{
    return nexar_allreduce(sb, rb, HUGE_I32, I32, NEXAR_OP_SUM, W);
}
CASE(allgather_count_minus_one, 2, NEXAR_ERR_COUNT, "nexar_allgather", "too large")
{
    return nexar_allgather(sb, rb, (size_t)-1, I32, W);
}
CASE(alltoallv_counts_overflow, 2, NEXAR_ERR_COUNT, "nexar_alltoallv", "overflow")
{
    size_t big[64];
    for (int i = 0; i < size; i++) {
        big[i] = SIZE_MAX;
    }
    return nexar_alltoallv(sb, big, NULL, rb, ones, NULL, I32, W);
}
CASE(allgatherv_displs_overflow, 2, NEXAR_ERR_COUNT, "nexar_allgatherv", "overflow")
{
    size_t far[64];
    for (int i = 0; i < size; i++) {
        far[i] = SIZE_MAX - 1 + (size_t)(i == 0);
    }
    return nexar_allgatherv(sb, 1, rb, ones, far, I32, W);
}
CASE(get_count_not_whole, 1, NEXAR_ERR_COUNT, "nexar_get_count", "not a whole number")
{
    nexar_status_t st = { 0, 0, 0, 6 };
    size_t n = 5;
    int rc = nexar_get_count(&st, I32, &n);
    CHECK(n == 5);
    return rc;
}

/* ---- ranks and roots: negative, == size, INT_MAX / INT_MIN ---- */
CASE(send_rank_negative, 2, NEXAR_ERR_RANK, "nexar_send", "-1")
{
    return nexar_send(sb, 1, I32, -1, 1, W);
}
CASE(send_rank_size, 2, NEXAR_ERR_RANK, "nexar_send", "out of range")
{
    return nexar_send(sb, 1, I32, size, 1, W);
}
CASE(send_rank_int_min, 1, NEXAR_ERR_RANK, "nexar_send", "negative")
{
    return nexar_send(sb, 1, I32, INT_MIN, 1, W);
}
CASE(recv_rank_size, 2, NEXAR_ERR_RANK, "nexar_recv", "out of range")
{
    return nexar_recv(rb, 1, I32, size, 1, W, NULL);
}
CASE(irecv_rank_minus_two, 2, NEXAR_ERR_RANK, "nexar_irecv", "-2")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    return nexar_irecv(rb, 1, I32, -2, 1, W, &q);
}
CASE(probe_rank_int_max, 2, NEXAR_ERR_RANK, "nexar_probe", "out of range")
{
    nexar_status_t st;
    return nexar_probe(INT_MAX, 1, W, &st);
}
CASE(iprobe_rank_negative, 1, NEXAR_ERR_RANK, "nexar_iprobe", "-3")
{
    int flag = 2;
    return nexar_iprobe(-3, 1, W, &flag, NULL);
}
CASE(sendrecv_dest_size, 2, NEXAR_ERR_RANK, "nexar_sendrecv", "out of range")
{
    return nexar_sendrecv(sb, 1, I32, size, 1, rb, 1, I32, rank, 1, W, NULL);
}
CASE(bcast_root_negative, 2, NEXAR_ERR_ROOT, "nexar_bcast", "root -1")
{
    return nexar_bcast(sb, 1, I32, -1, W);
}
CASE(bcast_root_size, 2, NEXAR_ERR_ROOT, "nexar_bcast", "out of range")
{
    return nexar_bcast(sb, 1, I32, size, W);
}
CASE(reduce_root_int_max, 2, NEXAR_ERR_ROOT, "nexar_reduce", "out of range")
{
    return nexar_reduce(sb, rb, 1, I32, NEXAR_OP_SUM, INT_MAX, W);
}
CASE(gather_root_size, 2, NEXAR_ERR_ROOT, "nexar_gather", "out of range")
{
    return nexar_gather(sb, rb, 1, I32, size, W);
}
CASE(scatterv_root_negative, 2, NEXAR_ERR_ROOT, "nexar_scatterv", "negative")
{
    return nexar_scatterv(sb, ones, NULL, rb, 1, I32, -7, W);
}
CASE(ireduce_root_size, 2, NEXAR_ERR_ROOT, "nexar_ireduce", "out of range")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    int rc = nexar_ireduce(sb, rb, 1, I32, NEXAR_OP_SUM, size, W, &q);
    CHECK(q == NEXAR_REQUEST_NULL);
    return rc;
}

/* ---- tags ---- */
CASE(send_tag_negative, 1, NEXAR_ERR_TAG, "nexar_send", "tag -5 is negative")
{
    return nexar_send(sb, 1, I32, 0, -5, W);
}
CASE(send_any_tag, 2, NEXAR_ERR_TAG, "nexar_send", "negative")
{
    return nexar_send(sb, 1, I32, rank, NEXAR_ANY_TAG, W);
}
CASE(recv_tag_int_min, 1, NEXAR_ERR_TAG, "nexar_recv", "negative")
{
    return nexar_recv(rb, 1, I32, 0, INT_MIN, W, NULL);
}
CASE(probe_tag_negative, 2, NEXAR_ERR_TAG, "nexar_probe", "tag -3")
{
    nexar_status_t st;
    return nexar_probe(rank, -3, W, &st);
}
CASE(sendrecv_recvtag_negative, 2, NEXAR_ERR_TAG, "nexar_sendrecv", "negative")
{
    return nexar_sendrecv(sb, 1, I32, rank, 1, rb, 1, I32, rank, -9, W, NULL);
}

/* ---- datatype and op codes ---- */
CASE(send_datatype_zero, 1, NEXAR_ERR_DATATYPE, "nexar_send", "unknown datatype code 0")
{
    return nexar_send(sb, 1, 0, 0, 1, W);
}
CASE(recv_datatype_negative, 1, NEXAR_ERR_DATATYPE, "nexar_recv", "unknown datatype code -1")
{
    return nexar_recv(rb, 1, -1, 0, 1, W, NULL);
}
CASE(allreduce_datatype_18, 2, NEXAR_ERR_DATATYPE, "nexar_allreduce", "unknown datatype code 18")
{
    return nexar_allreduce(sb, rb, 1, 18, NEXAR_OP_SUM, W);
}
CASE(get_count_datatype_int_max, 1, NEXAR_ERR_DATATYPE, "nexar_get_count", "unknown datatype")
{
    nexar_status_t st = { 0, 0, 0, 4 };
    size_t n = 1;
    return nexar_get_count(&st, INT_MAX, &n);
}
CASE(allreduce_op_zero, 2, NEXAR_ERR_OP, "nexar_allreduce", "unknown op code 0")
{
    return nexar_allreduce(sb, rb, 1, I32, 0, W);
}
CASE(reduce_op_13, 2, NEXAR_ERR_OP, "nexar_reduce", "unknown op code 13")
{
    return nexar_reduce(sb, rb, 1, I32, 13, 0, W);
}
CASE(iscan_op_negative, 2, NEXAR_ERR_OP, "nexar_iscan", "unknown op code -1")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    return nexar_iscan(sb, rb, 1, I32, -1, W, &q);
}
CASE(allreduce_band_double, 2, NEXAR_ERR_OP, "nexar_allreduce", "")
{
    double d[2] = { 1, 2 }, r[2];
    return nexar_allreduce(d, r, 2, NEXAR_DTYPE_DOUBLE, NEXAR_OP_BAND, W);
}
CASE(allreduce_minloc_int32, 2, NEXAR_ERR_OP, "nexar_allreduce", "")
{
    return nexar_allreduce(sb, rb, 1, I32, NEXAR_OP_MINLOC, W);
}

/* ---- buffer aliasing where forbidden (NEXAR_IN_PLACE is the way to share) ---- */
CASE(allreduce_aliased, 2, NEXAR_ERR_ARG, "nexar_allreduce", "overlap")
{
    return nexar_allreduce(sb, sb, 4, I32, NEXAR_OP_SUM, W);
}
CASE(allreduce_partly_aliased, 2, NEXAR_ERR_ARG, "nexar_allreduce", "overlap")
{
    return nexar_allreduce(sb, sb + 2, 4, I32, NEXAR_OP_SUM, W);
}
CASE(iallreduce_aliased, 2, NEXAR_ERR_ARG, "nexar_iallreduce", "overlap")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    int rc = nexar_iallreduce(rb, rb, 4, I32, NEXAR_OP_SUM, W, &q);
    CHECK(q == NEXAR_REQUEST_NULL);
    return rc;
}
CASE(reduce_aliased_root, 2, NEXAR_ERR_ARG, "nexar_reduce", "overlap")
{
    /* only the root reads recvbuf, so every rank names itself root... of its own call: use
     * COMM_SELF so the root check applies everywhere */
    return nexar_reduce(sb, sb, 2, I32, NEXAR_OP_SUM, 0, NEXAR_COMM_SELF);
}
CASE(scan_aliased, 2, NEXAR_ERR_ARG, "nexar_scan", "overlap")
{
    return nexar_scan(rb + 1, rb, 3, I32, NEXAR_OP_SUM, W);
}
CASE(allgather_aliased, 2, NEXAR_ERR_ARG, "nexar_allgather", "overlap")
{
    return nexar_allgather(rb + 1, rb, 2, I32, W);
}
CASE(alltoall_aliased, 2, NEXAR_ERR_ARG, "nexar_alltoall", "overlap")
{
    return nexar_alltoall(rb, rb, 1, I32, W);
}
CASE(allreduce_adjacent_not_aliased, 2, NEXAR_SUCCESS, "", "")
{
    /* touching but disjoint buffers are fine */
    int32_t v[2] = { rank + 1, 0 };
    int rc = nexar_allreduce(v, v + 1, 1, I32, NEXAR_OP_SUM, W);
    CHECK(v[1] == size * (size + 1) / 2);
    return rc;
}

/* ---- more NULL pointers: every non-blocking collective's request, rooted count arrays ---- */
CASE(iallgather_null_request, 2, NEXAR_ERR_ARG, "nexar_iallgather", "`request` is NULL")
{
    return nexar_iallgather(sb, rb, 1, I32, W, NULL);
}
CASE(ialltoallv_null_request, 2, NEXAR_ERR_ARG, "nexar_ialltoallv", "`request` is NULL")
{
    return nexar_ialltoallv(sb, ones, NULL, rb, ones, NULL, I32, W, NULL);
}
CASE(ireduce_scatter_block_null_request, 2, NEXAR_ERR_ARG, "nexar_ireduce_scatter_block",
     "`request` is NULL")
{
    return nexar_ireduce_scatter_block(sb, rb, 1, I32, NEXAR_OP_SUM, W, NULL);
}
CASE(iexscan_null_request, 2, NEXAR_ERR_ARG, "nexar_iexscan", "`request` is NULL")
{
    return nexar_iexscan(sb, rb, 1, I32, NEXAR_OP_SUM, W, NULL);
}
CASE(igather_null_request, 2, NEXAR_ERR_ARG, "nexar_igather", "`request` is NULL")
{
    return nexar_igather(sb, rb, 1, I32, 0, W, NULL);
}
CASE(iscatter_null_request, 2, NEXAR_ERR_ARG, "nexar_iscatter", "`request` is NULL")
{
    return nexar_iscatter(sb, rb, 1, I32, 0, W, NULL);
}
CASE(gatherv_null_recvcounts_root, 1, NEXAR_ERR_ARG, "nexar_gatherv", "`recvcounts` is NULL")
{
    return nexar_gatherv(sb, 1, rb, NULL, NULL, I32, 0, W);
}
CASE(scatterv_null_sendcounts_root, 1, NEXAR_ERR_ARG, "nexar_scatterv", "`sendcounts` is NULL")
{
    return nexar_scatterv(sb, NULL, NULL, rb, 1, I32, 0, W);
}
CASE(scatter_null_sendbuf_root, 1, NEXAR_ERR_ARG, "nexar_scatter", "`sendbuf` is NULL")
{
    return nexar_scatter(NULL, rb, 1, I32, 0, W);
}
CASE(ireduce_null_recvbuf_root, 1, NEXAR_ERR_ARG, "nexar_ireduce", "`recvbuf` is NULL")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    int rc = nexar_ireduce(sb, NULL, 1, I32, NEXAR_OP_SUM, 0, W, &q);
    CHECK(q == NEXAR_REQUEST_NULL);
    return rc;
}
CASE(comm_split_type_null_comm, 2, NEXAR_ERR_COMM, "nexar_comm_split_type",
     "communicator handle is NULL")
{
    nexar_comm_t n = W;
    return nexar_comm_split_type(NULL, NEXAR_COMM_TYPE_SHARED, 0, &n);
}
CASE(iprobe_freed_comm, 2, NEXAR_ERR_COMM, "nexar_iprobe", "invalid or freed")
{
    nexar_comm_t d = NULL;
    CHECK_OK(nexar_comm_dup(W, &d));
    nexar_comm_t stale = d;
    CHECK_OK(nexar_comm_free(&d));
    int flag = 6;
    int rc = nexar_iprobe(0, 0, stale, &flag, NULL);
    CHECK(flag == 6);
    return rc;
}
CASE(version_null_parts, 1, NEXAR_SUCCESS, "", "")
{
    int major = -1;
    int rc = nexar_version(&major, NULL, NULL); /* documented: any part may be NULL */
    CHECK(major >= 0);
    return rc;
}
CASE(scatter_aliased_root, 2, NEXAR_ERR_ARG, "nexar_scatter", "overlap")
{
    /* each rank is the root of its own NEXAR_COMM_SELF */
    return nexar_scatter(rb, rb, 2, I32, 0, NEXAR_COMM_SELF);
}

/* ---- lifecycle: before init, init twice, after finalize ---- */
CASE(send_before_init, 0, NEXAR_ERR_NOT_INITIALIZED, "nexar_send", "nexar_init has not")
{
    return nexar_send(sb, 1, I32, 0, 1, W);
}
CASE(comm_rank_before_init, 0, NEXAR_ERR_NOT_INITIALIZED, "nexar_comm_rank", "nexar_init")
{
    int r = -1;
    return nexar_comm_rank(W, &r);
}
CASE(finalize_before_init, 0, NEXAR_ERR_NOT_INITIALIZED, "nexar_finalize", "nexar_init")
{
    return nexar_finalize();
}
CASE(init_twice, 2, NEXAR_ERR_ARG, "nexar_init", "already")
{
    return nexar_init(NULL, NULL);
}
static int finalize_first(void)
{
    CHECK_OK(nexar_finalize());
    case_finalized = 1;
    return 0;
}
CASE(send_after_finalize, 2, NEXAR_ERR_FINALIZED, "nexar_send", "nexar_finalize was called")
{
    finalize_first();
    return nexar_send(sb, 1, I32, 0, 1, W);
}
CASE(allreduce_after_finalize, 2, NEXAR_ERR_FINALIZED, "nexar_allreduce", "nexar_finalize")
{
    finalize_first();
    return nexar_allreduce(sb, rb, 1, I32, NEXAR_OP_SUM, W);
}
CASE(comm_free_after_finalize, 2, NEXAR_ERR_FINALIZED, "nexar_comm_free", "nexar_finalize")
{
    nexar_comm_t d = NULL;
    CHECK_OK(nexar_comm_dup(W, &d));
    finalize_first();
    return nexar_comm_free(&d);
}
CASE(wait_after_finalize, 2, NEXAR_ERR_FINALIZED, "nexar_wait", "nexar_finalize")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    CHECK_OK(nexar_isend(sb, 1, I32, rank, 3, W, &q));
    finalize_first();
    return nexar_wait(&q, NULL);
}
CASE(init_after_finalize, 2, NEXAR_ERR_FINALIZED, "nexar_init", "")
{
    finalize_first();
    return nexar_init(NULL, NULL);
}
CASE(finalize_twice, 2, NEXAR_ERR_FINALIZED, "nexar_finalize", "")
{
    finalize_first();
    return nexar_finalize();
}

/* ---- error modes ---- */
CASE(set_error_mode_unknown, 1, NEXAR_ERR_ARG, "nexar_set_error_mode", "unknown error mode 2")
{
    return nexar_set_error_mode(2);
}

static const struct badcase *find(const char *name)
{
    for (int i = 0; i < ncases; i++) {
        if (strcmp(cases[i].name, name) == 0) {
            return &cases[i];
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: badarg_c <case> | --list\n");
        return 2;
    }
    if (strcmp(argv[1], "--list") == 0) {
        for (int i = 0; i < ncases; i++) {
            printf("%s %d\n", cases[i].name, cases[i].ranks);
        }
        return 0;
    }
    const struct badcase *c = find(argv[1]);
    if (!c) {
        fprintf(stderr, "badarg_c: unknown case '%s'\n", argv[1]);
        return 2;
    }
    CTX("%s", c->name);
    if (c->ranks > 0) {
        check_init(&argc, &argv, &rank, &size);
        REQUIRE(size <= 64);
    } else {
        size = 1;
    }
    for (int i = 0; i < 64; i++) {
        ones[i] = 1;
    }
    int rc = c->fn();
    const char *m = nexar_last_error_message();
    if (rc != c->code) {
        check_report(__FILE__, __LINE__, "case", "%s returned %d (%s), expected %d (%s)",
                     c->name, rc, nexar_error_string(rc), c->code, nexar_error_string(c->code));
    } else if (c->code != NEXAR_SUCCESS) {
        CHECK(m != NULL && m[0] != '\0');
        if (m && (!strstr(m, c->func) || !strstr(m, c->what))) {
            check_report(__FILE__, __LINE__, "message", "\"%s\" should name \"%s\" and say \"%s\"",
                         m, c->func, c->what);
        }
    }
    fprintf(stderr, "[rank %d] %s: returned %d (%s): \"%s\"\n", rank, c->name, rc,
            nexar_error_string(rc), m ? m : "(NULL)");
    if (c->ranks == 0) {
        check_init(&argc, &argv, &rank, &size); /* the library works after the refused call */
    }
    if (case_finalized) {
        return check_failures ? 1 : 0;
    }
    CHECK_OK(nexar_barrier(W)); /* every rank is still in step */
    return check_finish(1);
}
