/*
 * test_win: one-sided windows of the C API (nexar_win_*) at any rank count:
 *
 *  - an allocated window: a ring of puts between fences, then gets of the neighbour's memory;
 *  - a counter on rank 0 bumped by every rank with nexar_win_fetch_and_op under lock_all
 *    (every fetched ticket unique, the total exact), and a compare-and-swap spin lock guarding
 *    a non-atomic get-increment-put (exact only if the swap is atomic);
 *  - accumulates (MPI-style SUM) from every rank into every rank of a window over the caller's
 *    own memory (nexar_win_create), under exclusive locks;
 *  - misuse: NEXAR_ERR_RMA_SYNC (a put outside an epoch, unlock without lock, nested locks,
 *    free while locked), NEXAR_ERR_RMA_RANGE (past the end), NEXAR_ERR_RANK, NEXAR_ERR_ARG
 *    (NULL and freed handles); freeing NULL does nothing.
 */
#include "check.h"

#include <stdint.h>
#include <stdlib.h>

enum { ROUNDS = 30 };

static int rank, size;

static void test_allocated(void)
{
    CTX("allocated window: ring of puts, gets");
    int64_t *mem = NULL;
    nexar_win_t w = NULL;
    CHECK_OK(nexar_win_allocate(NEXAR_COMM_WORLD, 5 * sizeof(int64_t), sizeof(int64_t),
                                (void **)&mem, &w));
    REQUIRE(mem != NULL && w != NULL);
    for (int i = 0; i < 5; i++)
        mem[i] = 0;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    CHECK_OK(nexar_win_fence(w));
    int64_t v[2] = {100 + rank, 200 + rank};
    CHECK_OK(nexar_win_put(v, 2, NEXAR_DTYPE_INT64, right, 2, w));
    CHECK_OK(nexar_win_fence(w));
    CHECK(mem[2] == 100 + left && mem[3] == 200 + left);
    int64_t got[2] = {-1, -1};
    CHECK_OK(nexar_win_get(got, 2, NEXAR_DTYPE_INT64, left, 2, w));
    CHECK(got[0] == 100 + (left + size - 1) % size);
    CHECK_OK(nexar_win_fence(w));

    CTX("fetch-and-op counter and CAS lock under lock_all");
    int64_t one = 1, ticket = -1;
    int64_t *mine = malloc(sizeof(int64_t) * ROUNDS), *all = malloc(sizeof(int64_t) * ROUNDS * size);
    CHECK_OK(nexar_win_lock_all(w));
    for (int i = 0; i < ROUNDS; i++) {
        CHECK_OK(nexar_win_fetch_and_op(&one, &ticket, NEXAR_DTYPE_INT64, NEXAR_OP_SUM, 0, 0, w));
        mine[i] = ticket;
        int64_t free_ = 0, me = rank + 1, old = -1, x = -1;
        do {
            CHECK_OK(nexar_win_compare_and_swap(&me, &free_, &old, NEXAR_DTYPE_INT64, 0, 1, w));
        } while (old != 0);
        CHECK_OK(nexar_win_get(&x, 1, NEXAR_DTYPE_INT64, 0, 4, w));
        x++;
        CHECK_OK(nexar_win_put(&x, 1, NEXAR_DTYPE_INT64, 0, 4, w));
        CHECK_OK(nexar_win_flush(0, w));
        CHECK_OK(nexar_win_compare_and_swap(&free_, &me, &old, NEXAR_DTYPE_INT64, 0, 1, w));
        CHECK(old == me);
    }
    CHECK_OK(nexar_win_unlock_all(w));
    CHECK_OK(nexar_allgather(mine, all, ROUNDS, NEXAR_DTYPE_INT64, NEXAR_COMM_WORLD));
    char *seen = calloc((size_t)ROUNDS * size, 1);
    for (int i = 0; i < ROUNDS * size; i++) {
        CHECK(all[i] >= 0 && all[i] < ROUNDS * size);
        if (all[i] >= 0 && all[i] < ROUNDS * size)
            seen[all[i]]++;
    }
    for (int i = 0; i < ROUNDS * size; i++)
        CHECK(seen[i] == 1);
    CHECK_OK(nexar_win_fence(w));
    if (rank == 0)
        CHECK(mem[0] == (int64_t)ROUNDS * size && mem[1] == 0 && mem[4] == (int64_t)ROUNDS * size);
    CHECK_OK(nexar_win_free(&w));
    CHECK(w == NULL);
    free(seen);
    free(mine);
    free(all);
}

static void test_created(void)
{
    CTX("window over the caller's memory: accumulates under exclusive locks");
    int32_t buf[3] = {0, 0, 0};
    nexar_win_t w = NULL;
    CHECK_OK(nexar_win_create(NEXAR_COMM_WORLD, buf, sizeof buf, sizeof(int32_t), &w));
    CHECK_OK(nexar_barrier(NEXAR_COMM_WORLD));
    int32_t add[2] = {rank + 1, 1};
    for (int i = 0; i < ROUNDS; i++) {
        int t = (rank + i) % size;
        CHECK_OK(nexar_win_lock(t, 1, w));
        CHECK_OK(nexar_win_accumulate(add, 2, NEXAR_DTYPE_INT32, NEXAR_OP_SUM, t, 1, w));
        CHECK_OK(nexar_win_unlock(t, w));
    }
    CHECK_OK(nexar_win_fence(w));
    /* Every rank sent ROUNDS accumulates spread evenly only when size divides ROUNDS; count
     * what this rank must have received instead. */
    int32_t want_sum = 0, want_n = 0;
    for (int r = 0; r < size; r++)
        for (int i = 0; i < ROUNDS; i++)
            if ((r + i) % size == rank) {
                want_sum += r + 1;
                want_n++;
            }
    CHECK(buf[0] == 0 && buf[1] == want_sum && buf[2] == want_n);

    CTX("misuse");
    int32_t v = 7;
    int right = (rank + 1) % size;
    CHECK_OK(nexar_win_fence(w)); /* a fence epoch is open: ... */
    EXPECT_CODE(nexar_win_unlock(right, w), NEXAR_ERR_RMA_SYNC);
    CHECK_OK(nexar_win_lock(right, 0, w));
    EXPECT_CODE(nexar_win_lock(right, 0, w), NEXAR_ERR_RMA_SYNC);
    EXPECT_CODE(nexar_win_put(&v, 1, NEXAR_DTYPE_INT32, right, 3, w), NEXAR_ERR_RMA_RANGE);
    EXPECT_CODE(nexar_win_put(&v, 1, NEXAR_DTYPE_INT32, size, 0, w), NEXAR_ERR_RANK);
    EXPECT_CODE(nexar_win_put(&v, 1, NEXAR_DTYPE_INT32, -1, 0, w), NEXAR_ERR_RANK);
    EXPECT_CODE(nexar_win_put(NULL, 1, NEXAR_DTYPE_INT32, right, 0, w), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_win_free(&w), NEXAR_ERR_RMA_SYNC);
    CHECK_OK(nexar_win_unlock(right, w));
    nexar_win_t copy = w;
    CHECK_OK(nexar_win_free(&w));
    CHECK(w == NULL);
    CHECK_OK(nexar_win_free(&w)); /* NULL: nothing */
    EXPECT_CODE(nexar_win_fence(copy), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_win_put(&v, 1, NEXAR_DTYPE_INT32, right, 0, copy), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_win_fence(NULL), NEXAR_ERR_ARG);
}

int main(int argc, char **argv)
{
    check_init(&argc, &argv, &rank, &size);
    test_allocated();
    test_created();
    return check_finish(1);
}
