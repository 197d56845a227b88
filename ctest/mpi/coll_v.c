/* MPI shim non-blocking collectives (completed with Wait / Waitall / Test loops), several in
 * flight at once, MPI_IN_PLACE forms and large-count variants. */
#include "mpi_check.h"

enum { N = 3, MAXR = 16 };

static void nonblocking(int rank, int size)
{
    MPI_Comm w = MPI_COMM_WORLD;
    int root = size - 1;

    /* Several collectives in flight at once, completed together. */
    int b = rank == root ? 42 : -1;
    int sum = -1, mx = -1, red = -1, ag[MAXR], a2a_in[MAXR], a2a_out[MAXR];
    int one = rank + 1;
    for (int i = 0; i < size; i++) {
        ag[i] = -1;
        a2a_out[i] = rank * 100 + i;
        a2a_in[i] = -1;
    }
    MPI_Request r[6];
    CHECK_OK(MPI_Ibcast(&b, 1, MPI_INT, root, w, &r[0]));
    CHECK_OK(MPI_Iallreduce(&one, &sum, 1, MPI_INT, MPI_SUM, w, &r[1]));
    CHECK_OK(MPI_Iallreduce(&one, &mx, 1, MPI_INT, MPI_MAX, w, &r[2]));
    CHECK_OK(MPI_Ireduce(&one, &red, 1, MPI_INT, MPI_PROD, 0, w, &r[3]));
    CHECK_OK(MPI_Iallgather(&one, 1, MPI_INT, ag, 1, MPI_INT, w, &r[4]));
    CHECK_OK(MPI_Ialltoall(a2a_out, 1, MPI_INT, a2a_in, 1, MPI_INT, w, &r[5]));
    MPI_Status st[6];
    CHECK_OK(MPI_Waitall(6, r, st));
    CHECK(b == 42);
    CHECK(sum == size * (size + 1) / 2);
    CHECK(mx == size);
    if (rank == 0) {
        int f = 1;
        for (int i = 1; i <= size; i++)
            f *= i;
        CHECK(red == f);
    }
    for (int i = 0; i < size; i++) {
        CHECK(ag[i] == i + 1);
        CHECK(a2a_in[i] == i * 100 + rank);
    }
    CHECK(st[0].MPI_ERROR == MPI_SUCCESS);

    /* Gather / scatter with Wait and a Test loop. */
    double g[MAXR], me = rank * 1.5, back = -1;
    MPI_Request q;
    CHECK_OK(MPI_Igather(&me, 1, MPI_DOUBLE, g, 1, MPI_DOUBLE, root, w, &q));
    CHECK_OK(MPI_Wait(&q, MPI_STATUS_IGNORE));
    if (rank == root)
        for (int i = 0; i < size; i++)
            CHECK(g[i] == i * 1.5);
    for (int i = 0; i < size && rank == root; i++)
        g[i] = i * 2.0;
    CHECK_OK(MPI_Iscatter(g, 1, MPI_DOUBLE, &back, 1, MPI_DOUBLE, root, w, &q));
    int flag = 0;
    while (!flag)
        CHECK_OK(MPI_Test(&q, &flag, MPI_STATUS_IGNORE));
    CHECK(back == rank * 2.0);

    /* In place: allreduce and allgather. */
    int v = rank;
    CHECK_OK(MPI_Iallreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_SUM, w, &q));
    CHECK_OK(MPI_Wait(&q, MPI_STATUS_IGNORE));
    CHECK(v == size * (size - 1) / 2);
    int ip[MAXR];
    ip[rank] = rank * 7;
    CHECK_OK(MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ip, 1, MPI_INT, w, &q));
    CHECK_OK(MPI_Wait(&q, MPI_STATUS_IGNORE));
    for (int i = 0; i < size; i++)
        CHECK(ip[i] == i * 7);

    /* Barrier and large-count forms. */
    CHECK_OK(MPI_Ibarrier(w, &q));
    CHECK_OK(MPI_Wait(&q, MPI_STATUS_IGNORE));
    CHECK(q == MPI_REQUEST_NULL);
    long long big[N] = {rank, 2 * rank, 3 * rank}, tot[N];
    CHECK_OK(MPI_Iallreduce_c(big, tot, N, MPI_LONG_LONG, MPI_SUM, w, &q));
    CHECK_OK(MPI_Wait(&q, MPI_STATUS_IGNORE));
    for (int i = 0; i < N; i++)
        CHECK(tot[i] == (long long)(i + 1) * size * (size - 1) / 2);
    long long bc = rank == 0 ? 77 : 0;
    CHECK_OK(MPI_Ibcast_c(&bc, 1, MPI_LONG_LONG, 0, w, &q));
    CHECK_OK(MPI_Wait(&q, MPI_STATUS_IGNORE));
    CHECK(bc == 77);

    /* Errors are raised at the call: invalid root, NULL request. */
    CHECK_OK(MPI_Comm_set_errhandler(w, MPI_ERRORS_RETURN));
    EXPECT_CLASS(MPI_Ibcast(&bc, 1, MPI_LONG_LONG, size, w, &q), MPI_ERR_ROOT);
    EXPECT_CLASS(MPI_Ibarrier(w, NULL), MPI_ERR_ARG);
    CHECK_OK(MPI_Comm_set_errhandler(w, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    int size;
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    if (size > MAXR) {
        fprintf(stderr, "at most %d ranks\n", MAXR);
        return 1;
    }
    nonblocking(check_rank, size);
    return check_finish();
}
