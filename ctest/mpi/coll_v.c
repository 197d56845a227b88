/* MPI shim vector and prefix collectives (gatherv, scatterv, allgatherv, alltoallv with
 * displacements, gaps and zero blocks; reduce_scatter(_block); scan/exscan), blocking and
 * non-blocking, and the non-blocking forms of the other collectives (completed with Wait /
 * Waitall / Test loops), several in flight at once, MPI_IN_PLACE forms, large-count
 * variants. */
#include "mpi_check.h"

enum { N = 3, MAXR = 16 };


/* Rank i contributes i % 3 elements (rank 0 and every third: zero blocks), stored at
 * displacement 2 * i * 2 + 1 (gaps). */
static int cnt(int i) { return i % 3; }
static int disp(int i) { return 4 * i + 1; }

static void vector(int rank, int size, int nonblocking)
{
    MPI_Comm w = MPI_COMM_WORLD;
    int root = size / 2;
    int rc[MAXR], d[MAXR], span = 4 * size + 2;
    for (int i = 0; i < size; i++) {
        rc[i] = cnt(i);
        d[i] = disp(i);
    }
    int mine[3] = {rank * 10, rank * 10 + 1, rank * 10 + 2};
    int gv[4 * MAXR + 2], agv[4 * MAXR + 2];
    for (int i = 0; i < span; i++)
        gv[i] = agv[i] = -7;

    /* scatterv source (root): block i at d[i] holds i*10 + k. */
    int sv[4 * MAXR + 2], svin[3] = {-1, -1, -1};
    for (int i = 0; i < span; i++)
        sv[i] = -9;
    for (int i = 0; i < size; i++)
        for (int k = 0; k < cnt(i); k++)
            sv[d[i] + k] = i * 10 + k;

    /* alltoallv: rank r sends (r + j) % 2 + 1 ints to rank j, at sdispl 3*j; receives
     * (j + r) % 2 + 1 from j at rdispl 3*j + 1. */
    int sc[MAXR], sd[MAXR], ac[MAXR], ad[MAXR], aout[3 * MAXR], ain[3 * MAXR + 1];
    for (int j = 0; j < size; j++) {
        sc[j] = (rank + j) % 2 + 1;
        sd[j] = 3 * j;
        ac[j] = (j + rank) % 2 + 1;
        ad[j] = 3 * j + 1;
        for (int k = 0; k < 3; k++)
            aout[3 * j + k] = rank * 1000 + j * 10 + k;
    }
    for (int i = 0; i < 3 * size + 1; i++)
        ain[i] = -5;

    /* reduce_scatter: rank j gets cnt(j) + 1 elements; element e of the input is rank + e. */
    int rsc[MAXR], rstot = 0;
    for (int j = 0; j < size; j++) {
        rsc[j] = cnt(j) + 1;
        rstot += rsc[j];
    }
    int rsin[4 * MAXR], rsout[4] = {-1, -1, -1, -1}, rsb_in[2 * MAXR], rsb_out[2] = {-1, -1};
    for (int e = 0; e < rstot; e++)
        rsin[e] = rank + e;
    for (int e = 0; e < 2 * size; e++)
        rsb_in[e] = rank * e;
    int sc_in = rank + 1, scan_out = -1, ex_out = -1;

    if (nonblocking) {
        MPI_Request r[7];
        CHECK_OK(MPI_Igatherv(mine, cnt(rank), MPI_INT, gv, rc, d, MPI_INT, root, w, &r[0]));
        CHECK_OK(MPI_Iallgatherv(mine, cnt(rank), MPI_INT, agv, rc, d, MPI_INT, w, &r[1]));
        CHECK_OK(MPI_Iscatterv(sv, rc, d, MPI_INT, svin, cnt(rank), MPI_INT, root, w, &r[2]));
        CHECK_OK(MPI_Ialltoallv(aout, sc, sd, MPI_INT, ain, ac, ad, MPI_INT, w, &r[3]));
        CHECK_OK(MPI_Ireduce_scatter(rsin, rsout, rsc, MPI_INT, MPI_SUM, w, &r[4]));
        CHECK_OK(MPI_Iscan(&sc_in, &scan_out, 1, MPI_INT, MPI_SUM, w, &r[5]));
        CHECK_OK(MPI_Iexscan(&sc_in, &ex_out, 1, MPI_INT, MPI_SUM, w, &r[6]));
        CHECK_OK(MPI_Waitall(7, r, MPI_STATUSES_IGNORE));
        CHECK_OK(MPI_Ireduce_scatter_block(rsb_in, rsb_out, 2, MPI_INT, MPI_SUM, w, &r[0]));
        CHECK_OK(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    } else {
        CHECK_OK(MPI_Gatherv(mine, cnt(rank), MPI_INT, gv, rc, d, MPI_INT, root, w));
        CHECK_OK(MPI_Allgatherv(mine, cnt(rank), MPI_INT, agv, rc, d, MPI_INT, w));
        CHECK_OK(MPI_Scatterv(sv, rc, d, MPI_INT, svin, cnt(rank), MPI_INT, root, w));
        CHECK_OK(MPI_Alltoallv(aout, sc, sd, MPI_INT, ain, ac, ad, MPI_INT, w));
        CHECK_OK(MPI_Reduce_scatter(rsin, rsout, rsc, MPI_INT, MPI_SUM, w));
        CHECK_OK(MPI_Scan(&sc_in, &scan_out, 1, MPI_INT, MPI_SUM, w));
        CHECK_OK(MPI_Exscan(&sc_in, &ex_out, 1, MPI_INT, MPI_SUM, w));
        CHECK_OK(MPI_Reduce_scatter_block(rsb_in, rsb_out, 2, MPI_INT, MPI_SUM, w));
    }

    /* Gatherv / allgatherv: blocks in place, gaps untouched. */
    for (int i = 0; i < span; i++) {
        int want = -7;
        for (int j = 0; j < size; j++)
            if (i >= d[j] && i < d[j] + cnt(j))
                want = j * 10 + (i - d[j]);
        if (rank == root)
            CHECK(gv[i] == want);
        else
            CHECK(gv[i] == -7);
        CHECK(agv[i] == want);
    }
    for (int k = 0; k < 3; k++)
        CHECK(svin[k] == (k < cnt(rank) ? rank * 10 + k : -1));
    for (int j = 0; j < size; j++) {
        CHECK(ain[3 * j] == -5);
        if (ac[j] == 1)
            CHECK(ain[3 * j + 2] == -5);
        for (int k = 0; k < ac[j]; k++)
            CHECK(ain[ad[j] + k] == j * 1000 + rank * 10 + k);
    }
    int off = 0;
    for (int j = 0; j < rank; j++)
        off += rsc[j];
    for (int k = 0; k < rsc[rank]; k++)
        CHECK(rsout[k] == size * (size - 1) / 2 + size * (off + k));
    for (int k = rsc[rank]; k < 4; k++)
        CHECK(rsout[k] == -1);
    for (int k = 0; k < 2; k++)
        CHECK(rsb_out[k] == (size * (size - 1) / 2) * (2 * rank + k));
    CHECK(scan_out == (rank + 1) * (rank + 2) / 2);
    if (rank > 0)
        CHECK(ex_out == rank * (rank + 1) / 2);
    else
        CHECK(ex_out == -1);
}

/* MPI_IN_PLACE and large-count forms of the vector collectives. */
static void vector_extra(int rank, int size)
{
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Count rc[MAXR] = {0};
    MPI_Aint d[MAXR] = {0};
    long long buf[2 * MAXR] = {0};
    for (int i = 0; i < size; i++) {
        rc[i] = 1;
        d[i] = 2 * i;
        buf[2 * i] = i == rank ? rank * 3 : -1;
        buf[2 * i + 1] = -2;
    }
    CHECK_OK(MPI_Allgatherv_c(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, rc, d, MPI_LONG_LONG, w));
    for (int i = 0; i < size; i++)
        CHECK(buf[2 * i] == i * 3 && buf[2 * i + 1] == -2);

    int v = rank + 1;
    CHECK_OK(MPI_Scan(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_PROD, w));
    int f = 1;
    for (int i = 1; i <= rank + 1; i++)
        f *= i;
    CHECK(v == f);

    int rs[MAXR] = {0};
    for (int i = 0; i < size; i++)
        rs[i] = i;
    CHECK_OK(MPI_Reduce_scatter_block(MPI_IN_PLACE, rs, 1, MPI_INT, MPI_SUM, w));
    CHECK(rs[0] == rank * size);

    int a[MAXR] = {0}, c1[MAXR] = {0}, dd[MAXR] = {0};
    for (int i = 0; i < size; i++) {
        a[i] = rank * 100 + i;
        c1[i] = 1;
        dd[i] = i;
    }
    CHECK_OK(MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, a, c1, dd, MPI_INT, w));
    for (int i = 0; i < size; i++)
        CHECK(a[i] == i * 100 + rank);

    CHECK_OK(MPI_Comm_set_errhandler(w, MPI_ERRORS_RETURN));
    int neg[MAXR] = {0};
    for (int i = 0; i < size; i++)
        neg[i] = -1;
    EXPECT_CLASS(MPI_Allgatherv(&v, 1, MPI_INT, a, neg, dd, MPI_INT, w), MPI_ERR_COUNT);
    EXPECT_CLASS(MPI_Allgatherv(&v, 1, MPI_INT, a, c1, neg, MPI_INT, w), MPI_ERR_ARG);
    CHECK_OK(MPI_Comm_set_errhandler(w, MPI_ERRORS_ARE_FATAL));
}

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
    st[0].MPI_ERROR = -77; /* a Waitall that succeeds leaves MPI_ERROR alone */
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
    CHECK(st[0].MPI_ERROR == -77);

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
    vector(check_rank, size, 0);
    vector(check_rank, size, 1);
    vector_extra(check_rank, size);
    nonblocking(check_rank, size);
    return check_finish();
}
