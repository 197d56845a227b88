/* Neighbourhood collectives: on a periodic ring (every rank count, including the degenerate
 * rings of 1 and 2 ranks where both neighbours are one process: the block sent up must arrive
 * as the one from below), on a non-periodic line (MPI_PROC_NULL ends: blocks untouched), on a
 * 2-D grid, and on a distributed graph with a repeated edge (blocks pair up in list order).
 * Blocking, non-blocking and persistent forms of allgather(v) and alltoall(v,w), every value
 * checked against what the neighbours' ranks say it must be; errors without a topology and
 * with MPI_IN_PLACE. */
#include "mpi_check.h"

/* GCC takes the pointer constant MPI_UNWEIGHTED ((int *)10) passed for a `const int[]`
 * parameter for a real array of size 0 and warns that the call reads past it; the library
 * compares the pointer and never reads it. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wstringop-overread"
#endif

#define SENTINEL (-7)

/* Rank of the process `step` places from `me` on a ring of `n` (periodic) or a line (-1 when
 * off the end, standing for MPI_PROC_NULL). */
static int along(int me, int step, int n, int periodic)
{
    int r = me + step;
    if (periodic) return ((r % n) + n) % n;
    return (r < 0 || r >= n) ? -1 : r;
}

static void ring(int periodic)
{
    int size, me;
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    int dims[1] = {size}, periods[1] = {periodic};
    MPI_Comm c;
    CHECK_OK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &c));
    CHECK_OK(MPI_Comm_rank(c, &me));
    int down = along(me, -1, size, periodic), up = along(me, 1, size, periodic);

    /* allgather: everyone's rank, from below then from above. */
    int mine = 100 + me, got[2] = {SENTINEL, SENTINEL};
    CHECK_OK(MPI_Neighbor_allgather(&mine, 1, MPI_INT, got, 1, MPI_INT, c));
    CHECK(got[0] == (down < 0 ? SENTINEL : 100 + down));
    CHECK(got[1] == (up < 0 ? SENTINEL : 100 + up));

    /* alltoall: block 0 goes down, block 1 goes up. What comes from below is what that rank
     * sent up (its block 1), from above what that rank sent down (its block 0). */
    int send[2] = {1000 * me + 0, 1000 * me + 1}, recv[2] = {SENTINEL, SENTINEL};
    MPI_Request q;
    CHECK_OK(MPI_Ineighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, c, &q));
    CHECK_OK(MPI_Wait(&q, MPI_STATUS_IGNORE));
    CHECK(recv[0] == (down < 0 ? SENTINEL : 1000 * down + 1));
    CHECK(recv[1] == (up < 0 ? SENTINEL : 1000 * up + 0));

    /* alltoallv: 1 int down, 2 ints up, landing at displacements 3 and 0. */
    int vs[3] = {10 * me, 10 * me + 1, 10 * me + 2};
    int scounts[2] = {1, 2}, sdispls[2] = {0, 1};
    int rcounts[2] = {2, 1}, rdispls[2] = {3, 0};
    int vr[5] = {SENTINEL, SENTINEL, SENTINEL, SENTINEL, SENTINEL};
    CHECK_OK(MPI_Neighbor_alltoallv(vs, scounts, sdispls, MPI_INT, vr, rcounts, rdispls, MPI_INT,
                                    c));
    /* From below: that rank's 2 ints sent up; from above: its 1 int sent down. */
    CHECK(vr[3] == (down < 0 ? SENTINEL : 10 * down + 1));
    CHECK(vr[4] == (down < 0 ? SENTINEL : 10 * down + 2));
    CHECK(vr[0] == (up < 0 ? SENTINEL : 10 * up));
    CHECK(vr[1] == SENTINEL && vr[2] == SENTINEL);

    /* alltoallw: an int down, a double up (byte displacements, a type per neighbour). */
    struct {
        int i;
        double d;
    } ws = {me, me + 0.5}, wr = {SENTINEL, SENTINEL};
    int wc[2] = {1, 1};
    MPI_Aint sd[2] = {0, (char *)&ws.d - (char *)&ws}, rd[2] = {(char *)&wr.d - (char *)&wr, 0};
    MPI_Datatype st[2] = {MPI_INT, MPI_DOUBLE}, rt[2] = {MPI_DOUBLE, MPI_INT};
    CHECK_OK(MPI_Neighbor_alltoallw(&ws, wc, sd, st, &wr, wc, rd, rt, c));
    CHECK(wr.d == (down < 0 ? SENTINEL : down + 0.5));
    CHECK(wr.i == (up < 0 ? SENTINEL : up));

    CHECK_OK(MPI_Comm_free(&c));
}

static void grid(void)
{
    int size, me;
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    int dims[2] = {0, 0}, periods[2] = {1, 0};
    CHECK_OK(MPI_Dims_create(size, 2, dims));
    MPI_Comm c;
    CHECK_OK(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &c));
    CHECK_OK(MPI_Comm_rank(c, &me));
    int got[4];
    for (int k = 0; k < 4; k++) got[k] = SENTINEL;
    CHECK_OK(MPI_Neighbor_allgather(&me, 1, MPI_INT, got, 1, MPI_INT, c));
    for (int d = 0; d < 2; d++) {
        int src, dst;
        CHECK_OK(MPI_Cart_shift(c, d, 1, &src, &dst));
        CHECK(got[2 * d] == (src == MPI_PROC_NULL ? SENTINEL : src));
        CHECK(got[2 * d + 1] == (dst == MPI_PROC_NULL ? SENTINEL : dst));
    }
    CHECK_OK(MPI_Comm_free(&c));
}

/* A distributed graph where every rank sends to the next rank twice and receives from the
 * previous one twice: the two blocks pair up in order. Gathered with allgatherv into
 * reversed slots. */
static void multigraph(void)
{
    int size, me;
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_OK(MPI_Comm_rank(MPI_COMM_WORLD, &me));
    int next = (me + 1) % size, prev = (me + size - 1) % size;
    int srcs[2] = {prev, prev}, dsts[2] = {next, next};
    MPI_Comm g;
    CHECK_OK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, srcs, MPI_UNWEIGHTED, 2, dsts,
                                            MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g));
    int send[2] = {7 * me, 7 * me + 1}, recv[2] = {SENTINEL, SENTINEL};
    CHECK_OK(MPI_Neighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, g));
    CHECK(recv[0] == 7 * prev && recv[1] == 7 * prev + 1);

    int counts[2] = {1, 1}, displs[2] = {1, 0}, out[2] = {SENTINEL, SENTINEL};
    MPI_Request q;
    CHECK_OK(MPI_Ineighbor_allgatherv(&send[1], 1, MPI_INT, out, counts, displs, MPI_INT, g, &q));
    CHECK_OK(MPI_Wait(&q, MPI_STATUS_IGNORE));
    CHECK(out[0] == 7 * prev + 1 && out[1] == 7 * prev + 1);
    CHECK_OK(MPI_Comm_free(&g));
}

int main(int argc, char **argv)
{
    CHECK_OK(MPI_Init(&argc, &argv));
    CHECK_OK(MPI_Comm_rank(MPI_COMM_WORLD, &check_rank));
    ring(1);
    ring(0);
    grid();
    multigraph();

    /* Persistent: started three times, the send value changing in between. */
    {
        int size, me;
        CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
        int dims[1] = {size}, periods[1] = {1};
        MPI_Comm c;
        CHECK_OK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &c));
        CHECK_OK(MPI_Comm_rank(c, &me));
        int down = (me + size - 1) % size, up = (me + 1) % size, v = 0, got[2];
        MPI_Request q;
        CHECK_OK(MPI_Neighbor_allgather_init(&v, 1, MPI_INT, got, 1, MPI_INT, c, MPI_INFO_NULL,
                                             &q));
        for (int round = 0; round < 3; round++) {
            v = 10 * me + round;
            got[0] = got[1] = SENTINEL;
            CHECK_OK(MPI_Start(&q));
            CHECK_OK(MPI_Wait(&q, MPI_STATUS_IGNORE));
            CHECK(got[0] == 10 * down + round && got[1] == 10 * up + round);
        }
        CHECK_OK(MPI_Request_free(&q));
        CHECK_OK(MPI_Comm_free(&c));
    }

    /* Errors: no topology; MPI_IN_PLACE is not a neighbourhood send buffer. */
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int x = 0, y[2];
    EXPECT_CLASS(MPI_Neighbor_allgather(&x, 1, MPI_INT, y, 1, MPI_INT, MPI_COMM_WORLD),
                 MPI_ERR_TOPOLOGY);
    int size, dims[1], periods[1] = {1};
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    dims[0] = size;
    MPI_Comm c;
    CHECK_OK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &c));
    CHECK_OK(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));
    EXPECT_CLASS(MPI_Neighbor_alltoall(MPI_IN_PLACE, 1, MPI_INT, y, 1, MPI_INT, c),
                 MPI_ERR_BUFFER);
    CHECK_OK(MPI_Comm_free(&c));
    return check_finish();
}
