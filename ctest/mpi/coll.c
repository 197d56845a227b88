/* MPI shim collectives: Barrier, Bcast, Reduce, Allreduce (incl. MPI_IN_PLACE), Gather,
 * Allgather, Scatter, Alltoall (incl. IN_PLACE forms), MINLOC/MAXLOC, large-count variants. */
#include "mpi_check.h"

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    int rank = check_rank, size;
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));

    for (int root = 0; root < size; root++) {
        /* Bcast */
        double b[3] = {0, 0, 0};
        if (rank == root) {
            b[0] = root + 0.5;
            b[1] = -root;
            b[2] = 42;
        }
        CHECK_OK(MPI_Bcast(b, 3, MPI_DOUBLE, root, MPI_COMM_WORLD));
        CHECK(b[0] == root + 0.5 && b[1] == -root && b[2] == 42);

        /* Reduce (sum, max), root receives; IN_PLACE at the root. */
        long v[2] = {rank + 1, rank * 2}, r[2] = {-1, -1};
        CHECK_OK(MPI_Reduce(v, r, 2, MPI_LONG, MPI_SUM, root, MPI_COMM_WORLD));
        if (rank == root) {
            CHECK(r[0] == (long)size * (size + 1) / 2 && r[1] == (long)size * (size - 1));
        }
        int mx = rank * 3, mr = -1;
        if (rank == root) {
            mr = mx;
            CHECK_OK(MPI_Reduce(MPI_IN_PLACE, &mr, 1, MPI_INT, MPI_MAX, root, MPI_COMM_WORLD));
            CHECK(mr == (size - 1) * 3);
        } else {
            CHECK_OK(MPI_Reduce(&mx, NULL, 1, MPI_INT, MPI_MAX, root, MPI_COMM_WORLD));
        }

        /* Gather, and IN_PLACE at the root. */
        short s[2] = {(short)rank, (short)(rank + 100)}, all[8] = {0};
        CHECK_OK(MPI_Gather(s, 2, MPI_SHORT, all, 2, MPI_SHORT, root, MPI_COMM_WORLD));
        if (rank == root) {
            for (int i = 0; i < size; i++) {
                CHECK(all[2 * i] == i && all[2 * i + 1] == i + 100);
            }
            memset(all, 0, sizeof all);
            all[2 * root] = (short)root;
            all[2 * root + 1] = (short)(root + 100);
            CHECK_OK(MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 2, MPI_SHORT, root,
                                MPI_COMM_WORLD));
            for (int i = 0; i < size; i++) {
                CHECK(all[2 * i] == i && all[2 * i + 1] == i + 100);
            }
        } else {
            CHECK_OK(MPI_Gather(s, 2, MPI_SHORT, NULL, 0, MPI_DATATYPE_NULL, root,
                                MPI_COMM_WORLD));
        }

        /* Scatter, and IN_PLACE at the root. */
        unsigned int src[4], mine = 0;
        for (int i = 0; i < size; i++) {
            src[i] = (unsigned)(i * 7 + root);
        }
        CHECK_OK(MPI_Scatter(src, 1, MPI_UNSIGNED, &mine, 1, MPI_UNSIGNED, root,
                             MPI_COMM_WORLD));
        CHECK(mine == (unsigned)(rank * 7 + root));
        if (rank == root) {
            CHECK_OK(MPI_Scatter(src, 1, MPI_UNSIGNED, MPI_IN_PLACE, 1, MPI_UNSIGNED, root,
                                 MPI_COMM_WORLD));
        } else {
            mine = 0;
            CHECK_OK(MPI_Scatter(NULL, 0, MPI_UNSIGNED, &mine, 1, MPI_UNSIGNED, root,
                                 MPI_COMM_WORLD));
            CHECK(mine == (unsigned)(rank * 7 + root));
        }
    }

    /* Allreduce: sum of floats, logical and, IN_PLACE product. */
    float fv = 1.5f * rank, fs = -1;
    CHECK_OK(MPI_Allreduce(&fv, &fs, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(fs == 1.5f * size * (size - 1) / 2);
    int yes = 1, all_yes = 0;
    CHECK_OK(MPI_Allreduce(&yes, &all_yes, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD));
    CHECK(all_yes == 1);
    long long p[2] = {2, rank + 1};
    CHECK_OK(MPI_Allreduce(MPI_IN_PLACE, p, 2, MPI_LONG_LONG, MPI_PROD, MPI_COMM_WORLD));
    long long fact = 1;
    for (int i = 1; i <= size; i++) {
        fact *= i;
    }
    CHECK(p[0] == (1LL << size) && p[1] == fact);

    /* MINLOC / MAXLOC over (value, index) pairs. */
    struct { double v; int i; } in = {rank == size - 1 ? -1.0 : (double)rank, rank}, lo, hi;
    CHECK_OK(MPI_Allreduce(&in, &lo, 1, MPI_DOUBLE_INT, MPI_MINLOC, MPI_COMM_WORLD));
    CHECK(lo.i == size - 1 && lo.v == (size == 1 ? -1.0 : -1.0));
    CHECK_OK(MPI_Allreduce(&in, &hi, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD));
    if (size > 1) {
        CHECK(hi.i == (size > 2 ? size - 2 : 0) && hi.v == (double)(size > 2 ? size - 2 : 0));
    }
    struct { int v; int i; } ii = {rank % 2, rank}, io;
    CHECK_OK(MPI_Allreduce(&ii, &io, 1, MPI_2INT, MPI_MINLOC, MPI_COMM_WORLD));
    CHECK(io.v == 0 && io.i == 0);

    /* Allgather, and IN_PLACE. */
    int me[2] = {rank, -rank}, ag[8] = {0};
    CHECK_OK(MPI_Allgather(me, 2, MPI_INT, ag, 2, MPI_INT, MPI_COMM_WORLD));
    for (int i = 0; i < size; i++) {
        CHECK(ag[2 * i] == i && ag[2 * i + 1] == -i);
    }
    memset(ag, 0, sizeof ag);
    ag[2 * rank] = rank;
    ag[2 * rank + 1] = -rank;
    CHECK_OK(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ag, 2, MPI_INT, MPI_COMM_WORLD));
    for (int i = 0; i < size; i++) {
        CHECK(ag[2 * i] == i && ag[2 * i + 1] == -i);
    }

    /* Alltoall, and IN_PLACE: block j of rank i is i*10+j. */
    int a2a[4], got[4];
    for (int j = 0; j < size; j++) {
        a2a[j] = rank * 10 + j;
    }
    CHECK_OK(MPI_Alltoall(a2a, 1, MPI_INT, got, 1, MPI_INT, MPI_COMM_WORLD));
    for (int i = 0; i < size; i++) {
        CHECK(got[i] == i * 10 + rank);
    }
    CHECK_OK(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a2a, 1, MPI_INT, MPI_COMM_WORLD));
    for (int i = 0; i < size; i++) {
        CHECK(a2a[i] == i * 10 + rank);
    }

    /* Large-count variants. */
    unsigned char cb[4] = {0};
    if (rank == 0) {
        memcpy(cb, "abc", 4);
    }
    CHECK_OK(MPI_Bcast_c(cb, 4, MPI_CHAR, 0, MPI_COMM_WORLD));
    CHECK(strcmp((char *)cb, "abc") == 0);
    double dsum = 0, d1 = 1;
    CHECK_OK(MPI_Allreduce_c(&d1, &dsum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
    CHECK(dsum == size);

    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    return check_finish();
}
