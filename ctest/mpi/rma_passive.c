/*
 * rma_passive.c: passive-target one-sided communication, at any rank count.
 *
 * Covered: a shared counter on rank 0 bumped with MPI_Fetch_and_op (MPI_SUM) by every rank
 * under MPI_Win_lock_all (final value exact, every fetched ticket unique); a spin lock made
 * of MPI_Compare_and_swap guarding a non-atomic read-modify-write (exact only if CAS is
 * atomic); MPI_Win_lock exclusive around a get-increment-put (exact only if exclusive locks
 * exclude); shared locks held by every rank at once; MPI_Win_flush / flush_all / flush_local
 * inside the epochs; MPI_Rget_accumulate under lock_all; MPI_Win_sync.
 */
#include "mpi_check.h"

enum { ROUNDS = 40 };

static void counter(MPI_Win win, int *mem, int rank, int size)
{
    int one = 1, ticket = -1;
    int *seen = calloc((size_t)ROUNDS * size, sizeof(int));
    int mine[ROUNDS];
    CHECK_OK(MPI_Win_lock_all(0, win));
    for (int i = 0; i < ROUNDS; i++) {
        CHECK_OK(MPI_Fetch_and_op(&one, &ticket, MPI_INT, 0, 0, MPI_SUM, win));
        CHECK_OK(MPI_Win_flush(0, win));
        mine[i] = ticket;
    }
    CHECK_OK(MPI_Win_flush_all(win));
    CHECK_OK(MPI_Win_unlock_all(win));
    int *all = malloc(sizeof(int) * ROUNDS * size);
    CHECK_OK(MPI_Allgather(mine, ROUNDS, MPI_INT, all, ROUNDS, MPI_INT, MPI_COMM_WORLD));
    for (int i = 0; i < ROUNDS * size; i++) {
        CHECK(all[i] >= 0 && all[i] < ROUNDS * size);
        if (all[i] >= 0 && all[i] < ROUNDS * size)
            seen[all[i]]++;
    }
    for (int i = 0; i < ROUNDS * size; i++)
        CHECK(seen[i] == 1);
    if (rank == 0) {
        CHECK_OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        CHECK(mem[0] == ROUNDS * size);
        CHECK_OK(MPI_Win_unlock(0, win));
    }
    free(all);
    free(seen);
}

/* mem[1] is a CAS spin lock (0 free, r+1 held by r) guarding mem[2], bumped non-atomically. */
static void cas_mutex(MPI_Win win, int *mem, int rank, int size)
{
    CHECK_OK(MPI_Win_lock_all(0, win));
    for (int i = 0; i < ROUNDS; i++) {
        int free_ = 0, me = rank + 1, old = -1;
        do {
            CHECK_OK(MPI_Compare_and_swap(&me, &free_, &old, MPI_INT, 0, 1, win));
            CHECK_OK(MPI_Win_flush(0, win));
        } while (old != 0);
        int v = -1;
        CHECK_OK(MPI_Get(&v, 1, MPI_INT, 0, 2, 1, MPI_INT, win));
        CHECK_OK(MPI_Win_flush(0, win));
        v++;
        CHECK_OK(MPI_Put(&v, 1, MPI_INT, 0, 2, 1, MPI_INT, win));
        CHECK_OK(MPI_Win_flush(0, win));
        CHECK_OK(MPI_Compare_and_swap(&free_, &me, &old, MPI_INT, 0, 1, win));
        CHECK_OK(MPI_Win_flush_local(0, win));
        CHECK(old == me);
    }
    CHECK_OK(MPI_Win_flush_local_all(win));
    CHECK_OK(MPI_Win_unlock_all(win));
    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        CHECK_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        CHECK(mem[1] == 0);
        CHECK(mem[2] == ROUNDS * size);
        CHECK_OK(MPI_Win_unlock(0, win));
    }
}

/* Every rank bumps mem[3] of every rank ROUNDS times with get + put under an exclusive lock. */
static void exclusive_rmw(MPI_Win win, int *mem, int rank, int size)
{
    for (int i = 0; i < ROUNDS; i++) {
        int t = (rank + i) % size, v = -1;
        CHECK_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
        CHECK_OK(MPI_Get(&v, 1, MPI_INT, t, 3, 1, MPI_INT, win));
        CHECK_OK(MPI_Win_flush(t, win));
        v++;
        CHECK_OK(MPI_Put(&v, 1, MPI_INT, t, 3, 1, MPI_INT, win));
        CHECK_OK(MPI_Win_unlock(t, win));
    }
    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    CHECK_OK(MPI_Win_sync(win));
    CHECK(mem[3] == ROUNDS);
    CHECK_OK(MPI_Win_unlock(rank, win));
}

/* Every rank holds a shared lock on rank 0 at the same time (a barrier inside the epoch would
 * hang if shared locks excluded each other), reading mem[0] with Rget_accumulate(NO_OP). */
static void shared_together(MPI_Win win, int rank, int size)
{
    CHECK_OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    int got = -1;
    MPI_Request req;
    CHECK_OK(MPI_Rget_accumulate(NULL, 0, MPI_INT, &got, 1, MPI_INT, 0, 0, 1, MPI_INT,
                                 MPI_NO_OP, win, &req));
    CHECK_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(got == ROUNDS * size);
    CHECK_OK(MPI_Win_unlock(0, win));
    (void)rank;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    /* Both memory paths: the caller's memory (cross-memory attach) and allocated memory. */
    for (int flavor = 0; flavor < 2; flavor++) {
        int *mem = NULL, local[4] = {0, 0, 0, 0};
        MPI_Win win;
        if (flavor == 0) {
            mem = local;
            CHECK_OK(MPI_Win_create(mem, sizeof local, sizeof(int), MPI_INFO_NULL,
                                    MPI_COMM_WORLD, &win));
        } else {
            CHECK_OK(MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                                      MPI_COMM_WORLD, &mem, &win));
            for (int i = 0; i < 4; i++)
                mem[i] = 0;
        }
        CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
        counter(win, mem, rank, size);
        cas_mutex(win, mem, rank, size);
        exclusive_rmw(win, mem, rank, size);
        shared_together(win, rank, size);
        CHECK_OK(MPI_Win_free(&win));
    }
    return check_finish();
}
