/* MPI shim thread support: MPI_Init_thread grants MPI_THREAD_MULTIPLE, MPI_Is_thread_main
 * tells threads apart, and two threads communicate at once, each on its own communicator
 * (blocking calls and requests). */
#include "mpi_check.h"
#include <pthread.h>

#define THREADS 2
#define ROUNDS 20

static MPI_Comm comms[THREADS];
static int size;

static void *worker(void *arg)
{
    int t = (int)(intptr_t)arg, rank = check_rank, flag = -1;
    MPI_Comm c = comms[t];
    CHECK_OK(MPI_Is_thread_main(&flag));
    CHECK(flag == 0);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    for (int i = 0; i < ROUNDS; i++) {
        int out = rank * 1000 + t * 100 + i, in = -1;
        CHECK_OK(MPI_Sendrecv(&out, 1, MPI_INT, next, i, &in, 1, MPI_INT, prev, i, c,
                              MPI_STATUS_IGNORE));
        CHECK(in == prev * 1000 + t * 100 + i);
        long sum = 0, one = t + 1;
        CHECK_OK(MPI_Allreduce(&one, &sum, 1, MPI_LONG, MPI_SUM, c));
        CHECK(sum == (long)size * (t + 1));
        /* The same with requests: both threads use the request table at once. */
        MPI_Request r[3];
        in = -1;
        sum = 0;
        CHECK_OK(MPI_Irecv(&in, 1, MPI_INT, prev, i, c, &r[0]));
        CHECK_OK(MPI_Isend(&out, 1, MPI_INT, next, i, c, &r[1]));
        CHECK_OK(MPI_Iallreduce(&one, &sum, 1, MPI_LONG, MPI_SUM, c, &r[2]));
        CHECK_OK(MPI_Waitall(3, r, MPI_STATUSES_IGNORE));
        CHECK(in == prev * 1000 + t * 100 + i);
        CHECK(sum == (long)size * (t + 1));
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = -1;
    CHECK_OK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK_OK(MPI_Comm_rank(MPI_COMM_WORLD, &check_rank));
    CHECK(provided == MPI_THREAD_MULTIPLE);
    int q = -1, flag = -1;
    CHECK_OK(MPI_Query_thread(&q));
    CHECK(q == MPI_THREAD_MULTIPLE);
    CHECK_OK(MPI_Is_thread_main(&flag));
    CHECK(flag == 1);
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    for (int t = 0; t < THREADS; t++) {
        CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]));
    }
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++) {
        CHECK(pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t) == 0);
    }
    for (int t = 0; t < THREADS; t++) {
        CHECK(pthread_join(th[t], NULL) == 0);
    }
    for (int t = 0; t < THREADS; t++) {
        CHECK_OK(MPI_Comm_free(&comms[t]));
    }
    return check_finish();
}
