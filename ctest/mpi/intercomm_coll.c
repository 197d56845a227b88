/* Collectives on an intercommunicator (intercomm_pair.h's, by rank parity), each with values
 * that show every group got the other group's data: barrier, bcast both ways, allreduce,
 * reduce, allgather, gather, scatter, alltoall, non-blocking (two in flight) and persistent
 * forms, reduce_scatter(_block) where the groups are of one size; then the v-variants and
 * alltoallw, with gaps between blocks that must stay untouched. MPI_Scan and
 * MPI_Comm_create_group must fail with MPI_ERR_COMM (not hang). At one rank only the
 * intracommunicator answers are checked. */
#include "intercomm_pair.h"


static void check_colls(MPI_Comm ic)
{
    CHECK_OK(MPI_Barrier(ic));

    /* Bcast both ways: the root is local rank 0 of the sending group. */
    for (int from = 0; from < 2; from++) {
        int v = (color == from && lrank == 0) ? 4242 + from : -1;
        int root = color == from ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
        CHECK_OK(MPI_Bcast(&v, 1, MPI_INT, root, ic));
        if (color == from)
            CHECK(v == (lrank == 0 ? 4242 + from : -1));
        else
            CHECK(v == 4242 + from);
    }

    /* Allreduce: each group gets the other's sums. */
    int send[2] = {me + 1, 1}, recv[2] = {-1, -1};
    CHECK_OK(MPI_Allreduce(send, recv, 2, MPI_INT, MPI_SUM, ic));
    CHECK(recv[0] == remote_sum(1, 1));
    CHECK(recv[1] == rsize);
    int mx = -1;
    CHECK_OK(MPI_Allreduce(&me, &mx, 1, MPI_INT, MPI_MAX, ic));
    CHECK(mx == remote_world(rsize - 1));

    /* Reduce to local rank 0 of the odd group. */
    int r = -1, root = color == 1 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    int mine = 3 * me;
    CHECK_OK(MPI_Reduce(&mine, &r, 1, MPI_INT, MPI_SUM, root, ic));
    if (root == MPI_ROOT)
        CHECK(r == remote_sum(3, 0));
    else
        CHECK(r == -1);

    /* Allgather: the remote group's world ranks in remote rank order. */
    int all[256];
    for (int i = 0; i < 256; i++)
        all[i] = -1;
    CHECK_OK(MPI_Allgather(&me, 1, MPI_INT, all, 1, MPI_INT, ic));
    for (int i = 0; i < rsize; i++)
        CHECK(all[i] == remote_world(i));
    CHECK(all[rsize] == -1);

    /* Gather to local rank 0 of the even group. */
    for (int i = 0; i < 256; i++)
        all[i] = -1;
    root = color == 0 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    int g = 5 * me + 1;
    CHECK_OK(MPI_Gather(&g, 1, MPI_INT, all, 1, MPI_INT, root, ic));
    for (int i = 0; i < rsize; i++)
        CHECK(all[i] == (root == MPI_ROOT ? 5 * remote_world(i) + 1 : -1));

    /* Scatter from local rank 0 of the odd group. */
    root = color == 1 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    int blocks[256], got = -1;
    for (int i = 0; i < 256; i++)
        blocks[i] = 100 + i;
    CHECK_OK(MPI_Scatter(blocks, 1, MPI_INT, &got, 1, MPI_INT, root, ic));
    CHECK(got == (color == 0 ? 100 + lrank : -1));

    /* Alltoall: block j to remote rank j. */
    int out[256], in[256];
    for (int j = 0; j < rsize; j++) {
        out[j] = 100 * me + j;
        in[j] = -1;
    }
    CHECK_OK(MPI_Alltoall(out, 1, MPI_INT, in, 1, MPI_INT, ic));
    for (int i = 0; i < rsize; i++)
        CHECK(in[i] == 100 * remote_world(i) + lrank);

    /* Non-blocking, two in flight. */
    MPI_Request reqs[2];
    int s2 = me, r2 = -1;
    CHECK_OK(MPI_Iallreduce(&s2, &r2, 1, MPI_INT, MPI_SUM, ic, &reqs[0]));
    CHECK_OK(MPI_Ibarrier(ic, &reqs[1]));
    CHECK_OK(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
    CHECK(r2 == remote_sum(1, 0));
    int bv = color == 1 && lrank == 0 ? 99 : -1;
    root = color == 1 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    CHECK_OK(MPI_Ibcast(&bv, 1, MPI_INT, root, ic, &reqs[0]));
    CHECK_OK(MPI_Wait(&reqs[0], MPI_STATUS_IGNORE));
    CHECK(bv == (color == 0 || lrank == 0 ? 99 : -1));

    /* Persistent: started twice. */
    int ps = me, pout = -1;
    MPI_Request pr;
    CHECK_OK(MPI_Allreduce_init(&ps, &pout, 1, MPI_INT, MPI_SUM, ic, MPI_INFO_NULL, &pr));
    for (int it = 0; it < 2; it++) {
        pout = -1;
        CHECK_OK(MPI_Start(&pr));
        CHECK_OK(MPI_Wait(&pr, MPI_STATUS_IGNORE));
        CHECK(pout == remote_sum(1, 0));
    }
    CHECK_OK(MPI_Request_free(&pr));

    /* Not supported yet on an intercommunicator: a clear MPI_ERR_COMM on every rank. */
    /* Reduce_scatter(_block): both groups must reduce vectors of the same length. */
    if (lsize == rsize) {
        int v[512], blk[2] = {-1, -1};
        for (int k = 0; k < 2 * lsize; k++)
            v[k] = 100 * me + k;
        CHECK_OK(MPI_Reduce_scatter_block(v, blk, 2, MPI_INT, MPI_SUM, ic));
        for (int k = 0; k < 2; k++)
            CHECK(blk[k] == remote_sum(100, 2 * lrank + k));
        int counts[256], first = 0, got3[256];
        for (int i = 0; i < lsize; i++) {
            counts[i] = i + 1;
            if (i < lrank)
                first += i + 1;
        }
        for (int k = 0; k < 256; k++)
            got3[k] = -1;
        CHECK_OK(MPI_Reduce_scatter(v, got3, counts, MPI_INT, MPI_MAX, ic));
        for (int k = 0; k < lrank + 1; k++)
            CHECK(got3[k] == 100 * remote_world(rsize - 1) + first + k);
        CHECK(got3[lrank + 1] == -1);
    }

    int rs = -1;
    EXPECT_CLASS(MPI_Scan(&me, &rs, 1, MPI_INT, MPI_SUM, ic), MPI_ERR_COMM);
    MPI_Group lg;
    MPI_Comm sub = MPI_COMM_NULL;
    CHECK_OK(MPI_Comm_group(ic, &lg));
    EXPECT_CLASS(MPI_Comm_create_group(ic, lg, 3, &sub), MPI_ERR_COMM);
    CHECK_OK(MPI_Group_free(&lg));
    EXPECT_CLASS(MPI_Comm_remote_size(MPI_COMM_WORLD, &rs), MPI_ERR_COMM);
}

/* The v-variants and alltoallw: remote rank i's block has i + 1 elements (or the receiver's
 * local rank + 1 in alltoallv), with a gap of one element between blocks that must stay. */
static void check_vcolls(MPI_Comm ic)
{
    int rc[256], rd[256], buf[1024], send[256], at = 0;
    for (int i = 0; i < rsize; i++) {
        rc[i] = i + 1;
        rd[i] = at;
        at += i + 2;
    }
    for (int i = 0; i < 1024; i++)
        buf[i] = -1;
    for (int k = 0; k < lrank + 1; k++)
        send[k] = 10 * me + k;
    CHECK_OK(MPI_Allgatherv(send, lrank + 1, MPI_INT, buf, rc, rd, MPI_INT, ic));
    for (int i = 0; i < rsize; i++) {
        for (int k = 0; k < i + 1; k++)
            CHECK(buf[rd[i] + k] == 10 * remote_world(i) + k);
        CHECK(buf[rd[i] + i + 1] == -1);
    }

    /* Gatherv to the even group's rank 0. */
    for (int i = 0; i < 1024; i++)
        buf[i] = -1;
    int root = color == 0 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    CHECK_OK(MPI_Gatherv(send, lrank + 1, MPI_INT, buf, rc, rd, MPI_INT, root, ic));
    for (int i = 0; i < rsize; i++)
        for (int k = 0; k < i + 1; k++)
            CHECK(buf[rd[i] + k] == (root == MPI_ROOT ? 10 * remote_world(i) + k : -1));

    /* Scatterv from the odd group's rank 0: remote rank i gets i + 1 elements. */
    root = color == 1 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    for (int i = 0; i < 1024; i++)
        buf[i] = 500 + i;
    int got[256];
    for (int k = 0; k < 256; k++)
        got[k] = -1;
    CHECK_OK(MPI_Scatterv(buf, rc, rd, MPI_INT, got, lrank + 1, MPI_INT, root, ic));
    if (color == 0) {
        int d = 0;
        for (int i = 0; i < lrank; i++)
            d += i + 2;
        for (int k = 0; k < lrank + 1; k++)
            CHECK(got[k] == 500 + d + k);
    }
    CHECK(got[lrank + 1] == -1);

    /* Alltoallv: j + 1 elements to remote rank j; lrank + 1 from every remote rank. */
    int sc[256], sd[256], rc2[256], rd2[256], out[1024];
    at = 0;
    for (int j = 0; j < rsize; j++) {
        sc[j] = j + 1;
        sd[j] = at;
        for (int k = 0; k < j + 1; k++)
            out[at + k] = 100 * me + 10 * j + k;
        at += j + 1;
        rc2[j] = lrank + 1;
        rd2[j] = j * (lrank + 2);
    }
    for (int i = 0; i < 1024; i++)
        buf[i] = -1;
    CHECK_OK(MPI_Alltoallv(out, sc, sd, MPI_INT, buf, rc2, rd2, MPI_INT, ic));
    for (int i = 0; i < rsize; i++) {
        for (int k = 0; k < lrank + 1; k++)
            CHECK(buf[rd2[i] + k] == 100 * remote_world(i) + 10 * lrank + k);
        CHECK(buf[rd2[i] + lrank + 1] == -1);
    }

    /* Alltoallw with byte displacements: one int to every remote rank. */
    int one[256], bd[256], in1[256];
    MPI_Datatype types[256];
    for (int j = 0; j < rsize; j++) {
        one[j] = 1;
        bd[j] = j * (int)sizeof(int);
        types[j] = MPI_INT;
        out[j] = 7000 + 10 * me + j;
        in1[j] = -1;
    }
    CHECK_OK(MPI_Alltoallw(out, one, bd, types, in1, one, bd, types, ic));
    for (int i = 0; i < rsize; i++)
        CHECK(in1[i] == 7000 + 10 * remote_world(i) + lrank);
}

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    MPI_Comm local, ic;
    if (!parity_intercomm(&local, &ic)) {
        printf("intercomm_coll: one rank, no intercommunicator to make\n");
        return check_finish();
    }
    check_colls(ic);
    check_vcolls(ic);
    CHECK_OK(MPI_Comm_free(&ic));
    CHECK_OK(MPI_Comm_free(&local));
    if (me == 0)
        printf("intercomm_coll: %d ranks checked\n", size);
    return check_finish();
}
