/* MPI-4 persistent collectives: every *_init form (and a few _c forms) created once and
 * started 3 times with changing data, results verified after each MPI_Wait; the count /
 * displacement arrays are overwritten after init (the request must have copied them);
 * MPI_Startall over two persistent collectives; two started in different orders on different
 * ranks; MPI_Request_free of inactive ones; argument errors raised at init. */
#include "mpi_check.h"

enum { ROUNDS = 3, MAXP = 64 };

static int rank, size;

/* Starts and completes persistent request `r`, which stays allocated. */
static void run(MPI_Request *r)
{
    MPI_Request keep = *r;
    CHECK_OK(MPI_Start(r));
    CHECK_OK(MPI_Wait(r, MPI_STATUS_IGNORE));
    CHECK(*r == keep);
}

static void fill(int *a, int n, int v)
{
    for (int i = 0; i < n; i++)
        a[i] = v;
}

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    rank = check_rank;
    if (size > MAXP) {
        fprintf(stderr, "at most %d ranks\n", MAXP);
        return 1;
    }
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Info info = MPI_INFO_NULL;
    int last = size - 1;
    int sb[MAXP * 2], rb[MAXP * 2], one, res;
    int counts[MAXP], displs[MAXP], counts2[MAXP], displs2[MAXP];
    MPI_Datatype types[MAXP], types2[MAXP];
    MPI_Request r;

    /* Barrier. */
    CHECK_OK(MPI_Barrier_init(w, info, &r));
    for (int it = 0; it < ROUNDS; it++)
        run(&r);
    CHECK_OK(MPI_Request_free(&r));
    CHECK(r == MPI_REQUEST_NULL);

    /* Bcast from the last rank. */
    CHECK_OK(MPI_Bcast_init(rb, 4, MPI_INT, last, w, info, &r));
    for (int it = 0; it < ROUNDS; it++) {
        for (int i = 0; i < 4; i++)
            rb[i] = rank == last ? it * 10 + i : -1;
        run(&r);
        for (int i = 0; i < 4; i++)
            CHECK(rb[i] == it * 10 + i);
    }
    CHECK_OK(MPI_Request_free(&r));

    /* Reduce to rank 0 (sum of rank + it). */
    CHECK_OK(MPI_Reduce_init(&one, &res, 1, MPI_INT, MPI_SUM, 0, w, info, &r));
    for (int it = 0; it < ROUNDS; it++) {
        one = rank + it;
        res = -1;
        run(&r);
        if (rank == 0)
            CHECK(res == size * (size - 1) / 2 + size * it);
    }
    CHECK_OK(MPI_Request_free(&r));

    /* Allreduce (large-count form), max. */
    CHECK_OK(MPI_Allreduce_init_c(&one, &res, (MPI_Count)1, MPI_INT, MPI_MAX, w, info, &r));
    for (int it = 0; it < ROUNDS; it++) {
        one = rank * it;
        run(&r);
        CHECK(res == last * it);
    }
    CHECK_OK(MPI_Request_free(&r));

    /* Scan and Exscan. */
    CHECK_OK(MPI_Scan_init(&one, &res, 1, MPI_INT, MPI_SUM, w, info, &r));
    for (int it = 0; it < ROUNDS; it++) {
        one = rank + 1 + it;
        run(&r);
        CHECK(res == (rank + 1) * (rank + 2) / 2 + (rank + 1) * it);
    }
    CHECK_OK(MPI_Request_free(&r));
    CHECK_OK(MPI_Exscan_init(&one, &res, 1, MPI_INT, MPI_SUM, w, info, &r));
    for (int it = 0; it < ROUNDS; it++) {
        one = rank + 1 + it;
        res = -7;
        run(&r);
        if (rank == 0)
            CHECK(res == -7);
        else
            CHECK(res == rank * (rank + 1) / 2 + rank * it);
    }
    CHECK_OK(MPI_Request_free(&r));

    /* Gather to the last rank, Scatter from rank 0. */
    CHECK_OK(MPI_Gather_init(&one, 1, MPI_INT, rb, 1, MPI_INT, last, w, info, &r));
    for (int it = 0; it < ROUNDS; it++) {
        one = rank * 10 + it;
        fill(rb, size, -1);
        run(&r);
        if (rank == last)
            for (int i = 0; i < size; i++)
                CHECK(rb[i] == i * 10 + it);
    }
    CHECK_OK(MPI_Request_free(&r));
    CHECK_OK(MPI_Scatter_init(sb, 1, MPI_INT, &res, 1, MPI_INT, 0, w, info, &r));
    for (int it = 0; it < ROUNDS; it++) {
        for (int i = 0; i < size; i++)
            sb[i] = i + it * 7;
        res = -1;
        run(&r);
        CHECK(res == rank + it * 7);
    }
    CHECK_OK(MPI_Request_free(&r));

    /* Gatherv and Scatterv: rank i has i % 2 + 1 elements; arrays clobbered after init. */
    for (int i = 0, d = 0; i < size; i++) {
        counts[i] = i % 2 + 1;
        displs[i] = d;
        d += counts[i];
    }
    int mine = rank % 2 + 1, total = displs[last] + counts[last];
    CHECK_OK(MPI_Gatherv_init(sb, mine, MPI_INT, rb, counts, displs, MPI_INT, 0, w, info, &r));
    MPI_Request r2;
    CHECK_OK(MPI_Scatterv_init(sb, counts, displs, MPI_INT, rb, mine, MPI_INT, last, w, info,
                               &r2));
    memcpy(counts2, counts, sizeof counts);
    memcpy(displs2, displs, sizeof displs);
    fill(counts, size, -1);
    fill(displs, size, -1);
    for (int it = 0; it < ROUNDS; it++) {
        for (int j = 0; j < mine; j++)
            sb[j] = rank * 100 + j + it;
        fill(rb, total, -1);
        run(&r);
        if (rank == 0)
            for (int i = 0; i < size; i++)
                for (int j = 0; j < counts2[i]; j++)
                    CHECK(rb[displs2[i] + j] == i * 100 + j + it);
        for (int i = 0; i < size; i++)
            for (int j = 0; j < counts2[i]; j++)
                sb[displs2[i] + j] = i * 1000 + j * 3 + it;
        fill(rb, mine, -1);
        run(&r2);
        for (int j = 0; j < mine; j++)
            CHECK(rb[j] == rank * 1000 + j * 3 + it);
    }
    CHECK_OK(MPI_Request_free(&r));
    CHECK_OK(MPI_Request_free(&r2));

    /* Allgather and Allgatherv. */
    CHECK_OK(MPI_Allgather_init(&one, 1, MPI_INT, rb, 1, MPI_INT, w, info, &r));
    for (int it = 0; it < ROUNDS; it++) {
        one = rank * 3 + it;
        fill(rb, size, -1);
        run(&r);
        for (int i = 0; i < size; i++)
            CHECK(rb[i] == i * 3 + it);
    }
    CHECK_OK(MPI_Request_free(&r));
    memcpy(counts, counts2, sizeof counts);
    memcpy(displs, displs2, sizeof displs);
    CHECK_OK(MPI_Allgatherv_init(sb, mine, MPI_INT, rb, counts, displs, MPI_INT, w, info, &r));
    fill(counts, size, -1);
    for (int it = 0; it < ROUNDS; it++) {
        for (int j = 0; j < mine; j++)
            sb[j] = rank * 100 + j + it;
        fill(rb, total, -1);
        run(&r);
        for (int i = 0; i < size; i++)
            for (int j = 0; j < counts2[i]; j++)
                CHECK(rb[displs2[i] + j] == i * 100 + j + it);
    }
    CHECK_OK(MPI_Request_free(&r));

    /* Alltoall, Alltoallv (reversed receive blocks), Alltoallw (byte displacements). */
    CHECK_OK(MPI_Alltoall_init(sb, 1, MPI_INT, rb, 1, MPI_INT, w, info, &r));
    for (int i = 0; i < size; i++) {
        counts[i] = 1;
        displs[i] = i;
        displs2[i] = size - 1 - i;
    }
    CHECK_OK(MPI_Alltoallv_init(sb, counts, displs, MPI_INT, rb, counts, displs2, MPI_INT, w,
                                info, &r2));
    MPI_Request r3;
    int bytes[MAXP], one_each[MAXP];
    for (int i = 0; i < size; i++) {
        bytes[i] = i * (int)sizeof(int);
        one_each[i] = 1;
        types[i] = MPI_INT;
        types2[i] = MPI_INT;
    }
    CHECK_OK(MPI_Alltoallw_init(sb, one_each, bytes, types, rb, one_each, bytes, types2, w, info,
                                &r3));
    fill(counts, size, 0);
    fill(one_each, size, 0);
    fill(displs2, size, 0);
    for (int it = 0; it < ROUNDS; it++) {
        for (int i = 0; i < size; i++)
            sb[i] = rank * 100 + i + it;
        fill(rb, size, -1);
        run(&r);
        for (int i = 0; i < size; i++)
            CHECK(rb[i] == i * 100 + rank + it);
        fill(rb, size, -1);
        run(&r2);
        for (int i = 0; i < size; i++)
            CHECK(rb[size - 1 - i] == i * 100 + rank + it);
        fill(rb, size, -1);
        run(&r3);
        for (int i = 0; i < size; i++)
            CHECK(rb[i] == i * 100 + rank + it);
    }
    CHECK_OK(MPI_Request_free(&r));
    CHECK_OK(MPI_Request_free(&r2));
    CHECK_OK(MPI_Request_free(&r3));

    /* Reduce_scatter (one element each) and Reduce_scatter_block (large-count form). */
    fill(counts, size, 1);
    CHECK_OK(MPI_Reduce_scatter_init(sb, &res, counts, MPI_INT, MPI_SUM, w, info, &r));
    fill(counts, size, -1);
    CHECK_OK(MPI_Reduce_scatter_block_init_c(sb, &one, (MPI_Count)1, MPI_INT, MPI_SUM, w, info,
                                             &r2));
    for (int it = 0; it < ROUNDS; it++) {
        for (int i = 0; i < size; i++)
            sb[i] = rank + i + it;
        int want = size * (size - 1) / 2 + size * (rank + it);
        res = one = -1;
        run(&r);
        CHECK(res == want);
        run(&r2);
        CHECK(one == want);
    }
    CHECK_OK(MPI_Request_free(&r));
    CHECK_OK(MPI_Request_free(&r2));

    /* Startall over a bcast and an allreduce. */
    {
        MPI_Request two[2];
        int b = 0, s = 0, t = 0;
        CHECK_OK(MPI_Bcast_init(&b, 1, MPI_INT, 0, w, info, &two[0]));
        CHECK_OK(MPI_Allreduce_init(&s, &t, 1, MPI_INT, MPI_SUM, w, info, &two[1]));
        for (int it = 0; it < ROUNDS; it++) {
            b = rank == 0 ? 50 + it : -1;
            s = it + rank;
            CHECK_OK(MPI_Startall(2, two));
            CHECK_OK(MPI_Waitall(2, two, MPI_STATUSES_IGNORE));
            CHECK(b == 50 + it);
            CHECK(t == size * it + size * (size - 1) / 2);
            CHECK(two[0] != MPI_REQUEST_NULL && two[1] != MPI_REQUEST_NULL);
        }
        /* Inactive persistent requests are freed like any other. */
        CHECK_OK(MPI_Request_free(&two[0]));
        CHECK_OK(MPI_Request_free(&two[1]));
        CHECK(two[0] == MPI_REQUEST_NULL && two[1] == MPI_REQUEST_NULL);
    }

    /* Started in different orders on different ranks (MPI 4 allows it: they match in init
     * order), with a plain collective on the same communicator in between: odd ranks start
     * the allreduce first, even ranks the bcast; both complete with the right values. */
    {
        MPI_Request two[2];
        int b = 0, s = 0, t = 0;
        CHECK_OK(MPI_Bcast_init(&b, 1, MPI_INT, 0, w, info, &two[0]));
        CHECK_OK(MPI_Allreduce_init(&s, &t, 1, MPI_INT, MPI_SUM, w, info, &two[1]));
        for (int it = 0; it < ROUNDS; it++) {
            b = rank == 0 ? 70 + it : -1;
            s = it + rank;
            int first = rank % 2;
            CHECK_OK(MPI_Start(&two[first]));
            int x = 1, y = 0;
            CHECK_OK(MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, w));
            CHECK(y == size);
            CHECK_OK(MPI_Start(&two[1 - first]));
            CHECK_OK(MPI_Waitall(2, two, MPI_STATUSES_IGNORE));
            CHECK(b == 70 + it);
            CHECK(t == size * it + size * (size - 1) / 2);
        }
        CHECK_OK(MPI_Request_free(&two[0]));
        CHECK_OK(MPI_Request_free(&two[1]));
    }

    /* Errors are raised at init (every rank makes the same bad call; nothing is started). */
    CHECK_OK(MPI_Comm_set_errhandler(w, MPI_ERRORS_RETURN));
    r = MPI_REQUEST_NULL;
    EXPECT_CLASS(MPI_Bcast_init(rb, 1, MPI_INT, size, w, info, &r), MPI_ERR_ROOT);
    EXPECT_CLASS(MPI_Allreduce_init(sb, rb, 1, MPI_INT, MPI_OP_NULL, w, info, &r), MPI_ERR_OP);
    EXPECT_CLASS(MPI_Allgather_init(sb, -1, MPI_INT, rb, 1, MPI_INT, w, info, &r),
                 MPI_ERR_COUNT);
    EXPECT_CLASS(MPI_Alltoall_init(sb, 1, MPI_DATATYPE_NULL, rb, 1, MPI_INT, w, info, &r),
                 MPI_ERR_TYPE);
    EXPECT_CLASS(MPI_Barrier_init(MPI_COMM_NULL, info, &r), MPI_ERR_COMM);
    fill(counts, size, 1);
    counts[last] = -2;
    EXPECT_CLASS(MPI_Reduce_scatter_init(sb, rb, counts, MPI_INT, MPI_SUM, w, info, &r),
                 MPI_ERR_COUNT);
    EXPECT_CLASS(MPI_Barrier_init(w, info, NULL), MPI_ERR_ARG);
    CHECK(r == MPI_REQUEST_NULL);
    /* Starting an active persistent collective is an error; it still completes once. */
    CHECK_OK(MPI_Barrier_init(w, info, &r));
    CHECK_OK(MPI_Start(&r));
    EXPECT_CLASS(MPI_Start(&r), MPI_ERR_REQUEST);
    CHECK_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Request_free(&r));

    return check_finish();
}
