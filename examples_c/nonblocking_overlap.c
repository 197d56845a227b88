/* nonblocking_overlap: non-blocking collectives and point-to-point overlapped with local
 * compute.
 *   1. nexar_iallreduce, polled with nexar_test between chunks of local work;
 *   2. nexar_ibcast + nexar_iallreduce in flight together, completed with nexar_waitall;
 *   3. a ring exchange (nexar_irecv + nexar_isend) plus a scalar nexar_iallreduce, completed one
 *      at a time with nexar_waitany;
 *   4. a receive that cannot complete yet: nexar_test says "not done", nexar_request_free
 *      refuses it (NEXAR_ERR_PENDING), and the matching send lets nexar_wait finish it.
 * Exits non-zero on any wrong result. Works at any number of ranks. */
#include <nexar.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define M (1 << 16)
#define CHUNKS 64

#define CHECK(call)                                                                         \
    do {                                                                                    \
        int rc_ = (call);                                                                   \
        if (rc_ != NEXAR_SUCCESS) {                                                         \
            fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, #call,      \
                    nexar_error_string(rc_), nexar_last_error_message());                   \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

#define EXPECT(cond)                                                                        \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            fprintf(stderr, "rank %d: %s:%d: expected %s\n", rank, __FILE__, __LINE__,      \
                    #cond);                                                                 \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

/* One chunk of "local work": a partial sum of 1/k^2 over [lo, hi). */
static double work(long lo, long hi) {
    double s = 0.0;
    for (long k = hi - 1; k >= lo; k--) s += 1.0 / ((double)k * (double)k);
    return s;
}

int main(int argc, char **argv) {
    CHECK(nexar_init(&argc, &argv));
    int rank, size;
    CHECK(nexar_comm_rank(NEXAR_COMM_WORLD, &rank));
    CHECK(nexar_comm_size(NEXAR_COMM_WORLD, &size));

    double *x = malloc(M * sizeof *x), *y = malloc(M * sizeof *y);
    int32_t *b = malloc(M * sizeof *b);
    if (!x || !y || !b) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }

    /* 1. iallreduce polled with nexar_test while computing. */
    for (size_t i = 0; i < M; i++) x[i] = (double)(rank + 1) * (double)(i % 97);
    nexar_request_t req = NEXAR_REQUEST_NULL;
    CHECK(nexar_iallreduce(x, y, M, NEXAR_DTYPE_DOUBLE, NEXAR_OP_SUM, NEXAR_COMM_WORLD, &req));
    for (size_t i = 0; i < M; i++) x[i] = -1.0; /* send buffers are copied: reuse at once */
    double local = 0.0;
    int done = 0, polls = 0;
    for (long c = 0; c < CHUNKS; c++) {
        local += work(1 + c * 4096, 1 + (c + 1) * 4096);
        if (!done) {
            nexar_status_t st;
            CHECK(nexar_test(&req, &done, &st));
            polls++;
            if (done) EXPECT(req == NEXAR_REQUEST_NULL && st.error == NEXAR_SUCCESS);
        }
    }
    if (!done) CHECK(nexar_wait(&req, NULL));
    EXPECT(req == NEXAR_REQUEST_NULL);
    double ranks_sum = (double)size * (size + 1) / 2.0; /* sum of (rank + 1) */
    for (size_t i = 0; i < M; i++) EXPECT(y[i] == ranks_sum * (double)(i % 97));
    /* sum_{k=1}^{K} 1/k^2 = pi^2/6 - 1/K + O(1/K^2); K = 262144. */
    EXPECT(local > 1.6449302 && local < 1.6449303);

    /* 2. ibcast and iallreduce in flight together, then nexar_waitall. */
    int root = size - 1;
    for (size_t i = 0; i < M; i++) b[i] = rank == root ? (int32_t)(i * 31u % 1009u) : -1;
    int64_t counts[3] = {rank, 1, (int64_t)rank * rank}, sums[3] = {0, 0, 0};
    nexar_request_t reqs[2];
    CHECK(nexar_ibcast(b, M, NEXAR_DTYPE_INT32, root, NEXAR_COMM_WORLD, &reqs[0]));
    CHECK(nexar_iallreduce(counts, sums, 3, NEXAR_DTYPE_INT64, NEXAR_OP_SUM, NEXAR_COMM_WORLD,
                           &reqs[1]));
    local = work(1, 1 << 16);
    nexar_status_t sts[2];
    CHECK(nexar_waitall(2, reqs, sts));
    EXPECT(reqs[0] == NEXAR_REQUEST_NULL && reqs[1] == NEXAR_REQUEST_NULL);
    EXPECT(sts[0].error == NEXAR_SUCCESS && sts[1].error == NEXAR_SUCCESS);
    for (size_t i = 0; i < M; i++) EXPECT(b[i] == (int32_t)(i * 31u % 1009u));
    int64_t n = size;
    EXPECT(sums[0] == n * (n - 1) / 2 && sums[1] == n && sums[2] == (n - 1) * n * (2 * n - 1) / 6);
    EXPECT(local > 1.6449 && local < 1.645);

    /* 3. Ring (with one rank: to and from itself) plus a scalar allreduce, via waitany. */
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (size_t i = 0; i < M; i++) y[i] = (double)rank * 1e6 + (double)i;
    double one = 1.0, count_ranks = 0.0;
    nexar_request_t ring[3];
    CHECK(nexar_irecv(x, M, NEXAR_DTYPE_DOUBLE, left, 11, NEXAR_COMM_WORLD, &ring[0]));
    CHECK(nexar_isend(y, M, NEXAR_DTYPE_DOUBLE, right, 11, NEXAR_COMM_WORLD, &ring[1]));
    CHECK(nexar_iallreduce(&one, &count_ranks, 1, NEXAR_DTYPE_DOUBLE, NEXAR_OP_SUM,
                           NEXAR_COMM_WORLD, &ring[2]));
    local = work(1, 1 << 15);
    int seen[3] = {0, 0, 0};
    for (;;) {
        int index = -2;
        nexar_status_t st;
        CHECK(nexar_waitany(3, ring, &index, &st));
        if (index == NEXAR_UNDEFINED) break;
        EXPECT(index >= 0 && index < 3 && !seen[index] && ring[index] == NEXAR_REQUEST_NULL);
        seen[index] = 1;
        if (index == 0) {
            size_t got = 0;
            CHECK(nexar_get_count(&st, NEXAR_DTYPE_DOUBLE, &got));
            EXPECT(st.source == left && st.tag == 11 && got == M);
        }
    }
    EXPECT(seen[0] && seen[1] && seen[2]);
    for (size_t i = 0; i < M; i++) EXPECT(x[i] == (double)left * 1e6 + (double)i);
    EXPECT(count_ranks == (double)size);

    /* 4. A receive nobody has sent for yet stays pending and cannot be freed. */
    int32_t slot = -1, msg = 4242 + rank;
    nexar_request_t pending;
    CHECK(nexar_irecv(&slot, 1, NEXAR_DTYPE_INT32, rank, 99, NEXAR_COMM_WORLD, &pending));
    int flag = 1;
    CHECK(nexar_test(&pending, &flag, NULL));
    EXPECT(flag == 0 && pending != NEXAR_REQUEST_NULL);
    EXPECT(nexar_request_free(&pending) == NEXAR_ERR_PENDING);
    EXPECT(pending != NEXAR_REQUEST_NULL);
    CHECK(nexar_send(&msg, 1, NEXAR_DTYPE_INT32, rank, 99, NEXAR_COMM_WORLD));
    nexar_status_t st;
    CHECK(nexar_wait(&pending, &st));
    EXPECT(pending == NEXAR_REQUEST_NULL && slot == msg && st.source == rank);
    /* A freed request handle is rejected. */
    nexar_request_t again = NEXAR_REQUEST_NULL;
    CHECK(nexar_isend(&msg, 1, NEXAR_DTYPE_INT32, rank, 98, NEXAR_COMM_WORLD, &again));
    nexar_request_t stale = again;
    CHECK(nexar_wait(&again, NULL));
    EXPECT(nexar_wait(&stale, NULL) == NEXAR_ERR_REQUEST);
    CHECK(nexar_recv(&slot, 1, NEXAR_DTYPE_INT32, rank, 98, NEXAR_COMM_WORLD, NULL));
    EXPECT(slot == msg);

    CHECK(nexar_barrier(NEXAR_COMM_WORLD));
    if (rank == 0)
        printf("nonblocking_overlap: %d ranks: ok (iallreduce polled %d times)\n", size, polls);
    free(x);
    free(y);
    free(b);
    CHECK(nexar_finalize());
    return 0;
}
