/* MPI shim derived datatypes in collectives: scatter / scatterv / alltoall / alltoallv with
 * strided (vector, resized) types on either side, non-blocking collectives that unpack when
 * the request completes (Ibcast of a struct, Iallgather into a column type), reductions over
 * reducible derived types (reduce_scatter_block, scan, exscan with a contiguous type) and
 * Isendrecv_replace with a vector type, and darray. Every check verifies values. */
#include "mpi_check.h"

#include <stddef.h>

enum { MAXR = 16 };

static int rank, size;

/* Root scatters column j of a 3 x size matrix to rank j (vector send type, resized). */
static void scatters(void)
{
    MPI_Datatype col, colr;
    CHECK_OK(MPI_Type_vector(3, 1, size, MPI_INT, &col));
    CHECK_OK(MPI_Type_create_resized(col, 0, sizeof(int), &colr));
    CHECK_OK(MPI_Type_commit(&colr));
    int m[3 * MAXR], got[3] = {-1, -1, -1};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < size; j++)
            m[i * size + j] = rank == 0 ? i * 100 + j : -1;
    CHECK_OK(MPI_Scatter(m, 1, colr, got, 3, MPI_INT, 0, MPI_COMM_WORLD));
    for (int i = 0; i < 3; i++)
        CHECK(got[i] == i * 100 + rank);

    /* Scatterv: rank j gets column size-1-j (displacements in extents = ints). */
    int sc[MAXR], sd[MAXR];
    for (int j = 0; j < size; j++) {
        sc[j] = 1;
        sd[j] = size - 1 - j;
    }
    got[0] = got[1] = got[2] = -1;
    CHECK_OK(MPI_Scatterv(m, sc, sd, colr, got, 3, MPI_INT, 0, MPI_COMM_WORLD));
    for (int i = 0; i < 3; i++)
        CHECK(got[i] == i * 100 + size - 1 - rank);

    /* Alltoall: send row-major blocks of 3 ints, receive into columns of a 3 x size matrix. */
    int out[3 * MAXR], in[3 * MAXR];
    for (int j = 0; j < size; j++)
        for (int k = 0; k < 3; k++)
            out[3 * j + k] = rank * 1000 + j * 10 + k;
    for (int i = 0; i < 3 * size; i++)
        in[i] = -1;
    CHECK_OK(MPI_Alltoall(out, 3, MPI_INT, in, 1, colr, MPI_COMM_WORLD));
    for (int j = 0; j < size; j++)
        for (int k = 0; k < 3; k++)
            CHECK(in[k * size + j] == j * 1000 + rank * 10 + k);

    /* Alltoallv with the column type on the send side, reversed order. */
    int rc[MAXR], rd[MAXR], back[3 * MAXR];
    for (int j = 0; j < size; j++) {
        rc[j] = 3;
        rd[j] = 3 * (size - 1 - j);
    }
    for (int i = 0; i < 3 * size; i++)
        back[i] = -1;
    CHECK_OK(MPI_Alltoallv(in, sc, sd, colr, back, rc, rd, MPI_INT, MPI_COMM_WORLD));
    /* I sent my column size-1-j to rank j; rank j's column size-1-me came from rank
     * size-1-me's ... block from rank j holds in_j[k][size-1-me] = (size-1-me)*1000+j*10+k. */
    for (int j = 0; j < size; j++)
        for (int k = 0; k < 3; k++)
            CHECK(back[3 * (size - 1 - j) + k] == (size - 1 - rank) * 1000 + j * 10 + k);
    CHECK_OK(MPI_Type_free(&col));
    CHECK_OK(MPI_Type_free(&colr));
}

struct rec {
    short s;
    double d;
};

static void nonblocking(void)
{
    int bl[2] = {1, 1};
    MPI_Aint dp[2] = {offsetof(struct rec, s), offsetof(struct rec, d)};
    MPI_Datatype ts[2] = {MPI_SHORT, MPI_DOUBLE}, rt;
    CHECK_OK(MPI_Type_create_struct(2, bl, dp, ts, &rt));
    CHECK_OK(MPI_Type_commit(&rt));
    struct rec r[2];
    for (int k = 0; k < 2; k++) {
        r[k].s = rank == size - 1 ? (short)(7 + k) : -1;
        r[k].d = rank == size - 1 ? 0.25 * k : -1.0;
    }
    MPI_Request rq[2];
    CHECK_OK(MPI_Ibcast(r, 2, rt, size - 1, MPI_COMM_WORLD, &rq[0]));

    MPI_Datatype col, colr;
    CHECK_OK(MPI_Type_vector(2, 1, size, MPI_DOUBLE, &col));
    CHECK_OK(MPI_Type_create_resized(col, 0, sizeof(double), &colr));
    CHECK_OK(MPI_Type_commit(&colr));
    double mine[2] = {rank, -rank}, all[2 * MAXR];
    for (int i = 0; i < 2 * size; i++)
        all[i] = 99;
    CHECK_OK(MPI_Iallgather(mine, 2, MPI_DOUBLE, all, 1, colr, MPI_COMM_WORLD, &rq[1]));
    CHECK_OK(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    for (int k = 0; k < 2; k++)
        CHECK(r[k].s == 7 + k && r[k].d == 0.25 * k);
    for (int j = 0; j < size; j++)
        CHECK(all[j] == j && all[size + j] == -j);

    /* Isendrecv_replace with a vector type around a ring. */
    int v[6];
    for (int i = 0; i < 6; i++)
        v[i] = i % 2 ? -1 : rank * 10 + i;
    MPI_Datatype ev;
    CHECK_OK(MPI_Type_vector(3, 1, 2, MPI_INT, &ev));
    CHECK_OK(MPI_Type_commit(&ev));
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Request q;
    CHECK_OK(MPI_Isendrecv_replace(v, 1, ev, right, 3, left, 3, MPI_COMM_WORLD, &q));
    MPI_Status st;
    CHECK_OK(MPI_Wait(&q, &st));
    for (int i = 0; i < 6; i++)
        CHECK(v[i] == (i % 2 ? -1 : left * 10 + i));
    int n = 0;
    CHECK_OK(MPI_Get_count(&st, ev, &n));
    CHECK(n == 1);
    CHECK_OK(MPI_Type_free(&rt));
    CHECK_OK(MPI_Type_free(&col));
    CHECK_OK(MPI_Type_free(&colr));
    CHECK_OK(MPI_Type_free(&ev));
}

static void reductions(void)
{
    MPI_Datatype c2;
    CHECK_OK(MPI_Type_contiguous(2, MPI_INT, &c2));
    CHECK_OK(MPI_Type_commit(&c2));
    int in[2 * MAXR], out[2] = {-1, -1};
    for (int i = 0; i < 2 * size; i++)
        in[i] = rank + i;
    CHECK_OK(MPI_Reduce_scatter_block(in, out, 1, c2, MPI_SUM, MPI_COMM_WORLD));
    int tri = size * (size - 1) / 2;
    CHECK(out[0] == tri + size * 2 * rank && out[1] == tri + size * (2 * rank + 1));

    int x[4] = {rank, 1, 2 * rank, 3}, s[4], e[4] = {-5, -5, -5, -5};
    CHECK_OK(MPI_Scan(x, s, 2, c2, MPI_SUM, MPI_COMM_WORLD));
    int pre = rank * (rank + 1) / 2;
    CHECK(s[0] == pre && s[1] == rank + 1 && s[2] == 2 * pre && s[3] == 3 * (rank + 1));
    CHECK_OK(MPI_Exscan(x, e, 2, c2, MPI_SUM, MPI_COMM_WORLD));
    if (rank == 0)
        CHECK(e[0] == -5 && e[1] == -5 && e[2] == -5 && e[3] == -5);
    else
        CHECK(e[0] == pre - rank && e[1] == rank && e[3] == 3 * rank);
    /* A strided reducible type in a non-blocking allreduce. */
    MPI_Datatype ev;
    CHECK_OK(MPI_Type_vector(2, 1, 2, MPI_INT, &ev));
    CHECK_OK(MPI_Type_commit(&ev));
    int a[3] = {rank, 50, 1}, b[3] = {-1, -2, -3};
    MPI_Request q;
    CHECK_OK(MPI_Iallreduce(a, b, 1, ev, MPI_MAX, MPI_COMM_WORLD, &q));
    CHECK_OK(MPI_Wait(&q, MPI_STATUS_IGNORE));
    CHECK(b[0] == size - 1 && b[1] == -2 && b[2] == 1);
    CHECK_OK(MPI_Type_free(&c2));
    CHECK_OK(MPI_Type_free(&ev));
}

/* darray: rows cyclic over the ranks, columns not distributed; then a gather of every
 * rank's part (sent with its darray type) checks the pieces cover the array. */
static void darray(void)
{
    enum { C = 3 };
    int g0 = 2 * size + 1, gs[2] = {g0, C}, di[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_NONE};
    int da[2] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, ps[2] = {size, 1};
    MPI_Datatype t;
    CHECK_OK(MPI_Type_create_darray(size, rank, 2, gs, di, da, ps, MPI_ORDER_C, MPI_INT, &t));
    CHECK_OK(MPI_Type_commit(&t));
    int a[(2 * MAXR + 1) * C];
    for (int i = 0; i < g0 * C; i++)
        a[i] = i;
    int rows = 0;
    for (int r = rank; r < g0; r += size)
        rows++;
    int sz = 0;
    CHECK_OK(MPI_Type_size(t, &sz));
    CHECK(sz == rows * C * (int)sizeof(int));
    MPI_Aint lb, ext;
    CHECK_OK(MPI_Type_get_extent(t, &lb, &ext));
    CHECK(lb == 0 && ext == (MPI_Aint)(g0 * C * sizeof(int)));
    int packed[(2 * MAXR + 1) * C], pos = 0;
    CHECK_OK(MPI_Pack(a, 1, t, packed, sizeof packed, &pos, MPI_COMM_WORLD));
    int k = 0;
    for (int r = rank; r < g0; r += size)
        for (int c = 0; c < C; c++)
            CHECK(packed[k++] == r * C + c);
    /* Every rank sends its part to rank 0, which receives it into place with the sender's
     * darray type: the pieces rebuild the array. */
    int whole[(2 * MAXR + 1) * C];
    for (int i = 0; i < g0 * C; i++)
        whole[i] = -1;
    MPI_Request q;
    CHECK_OK(MPI_Isend(a, 1, t, 0, 9, MPI_COMM_WORLD, &q));
    if (rank == 0)
        for (int src = 0; src < size; src++) {
            MPI_Datatype ts;
            CHECK_OK(MPI_Type_create_darray(size, src, 2, gs, di, da, ps, MPI_ORDER_C, MPI_INT,
                                            &ts));
            CHECK_OK(MPI_Type_commit(&ts));
            CHECK_OK(MPI_Recv(whole, 1, ts, src, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK_OK(MPI_Type_free(&ts));
        }
    CHECK_OK(MPI_Wait(&q, MPI_STATUS_IGNORE));
    if (rank == 0)
        for (int i = 0; i < g0 * C; i++)
            CHECK(whole[i] == i);
    CHECK_OK(MPI_Type_free(&t));
}

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    CHECK_OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    scatters();
    nonblocking();
    reductions();
    darray();
    return check_finish();
}
