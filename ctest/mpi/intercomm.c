/* Intercommunicators: MPI_COMM_WORLD split by rank parity into two groups joined by
 * MPI_Intercomm_create (leaders: world ranks 0 and 1). Checks the queries (test_inter, local
 * size/rank/group, remote size/group), point-to-point both ways (blocking with ANY_SOURCE and
 * its status, non-blocking, probe), merge with high/low and both orders, dup / compare / name /
 * attribute / free, split and create on it, pairs made over MPI_COMM_SELF,
 * MPI_Intercomm_create_from_groups, and the collectives between the groups (the v-variants
 * and alltoallw too) with values that show each group got the other's data. Unsupported forms
 * must fail with MPI_ERR_COMM, not hang. At one rank no intercommunicator can exist: only the
 * intracommunicator answers are checked. */
#include "mpi_check.h"

static int me, size, color, lrank, lsize, rsize;

/* World rank of remote rank i (the other parity's i-th member). */
static int remote_world(int i) { return 2 * i + (1 - color); }

/* How many world ranks of parity p there are. */
static int count_of(int p) { return (size + 1 - p) / 2; }

static MPI_Group parity_group(int parity)
{
    MPI_Group world, g;
    int ranks[256], n = 0;
    for (int r = parity; r < size && n < 256; r += 2)
        ranks[n++] = r;
    CHECK_OK(MPI_Comm_group(MPI_COMM_WORLD, &world));
    CHECK_OK(MPI_Group_incl(world, n, ranks, &g));
    CHECK_OK(MPI_Group_free(&world));
    return g;
}

static void check_queries(MPI_Comm ic)
{
    int flag = 0, n = -1, r = -1;
    CHECK_OK(MPI_Comm_test_inter(ic, &flag));
    CHECK(flag == 1);
    CHECK_OK(MPI_Comm_size(ic, &n));
    CHECK(n == lsize);
    CHECK_OK(MPI_Comm_rank(ic, &r));
    CHECK(r == lrank);
    CHECK_OK(MPI_Comm_remote_size(ic, &n));
    CHECK(n == rsize);

    MPI_Group rg, lg, wg;
    CHECK_OK(MPI_Comm_remote_group(ic, &rg));
    CHECK_OK(MPI_Comm_group(ic, &lg));
    CHECK_OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    CHECK_OK(MPI_Group_size(rg, &n));
    CHECK(n == rsize);
    CHECK_OK(MPI_Group_size(lg, &n));
    CHECK(n == lsize);
    int idx[256], world[256];
    for (int i = 0; i < 256; i++)
        idx[i] = i;
    CHECK_OK(MPI_Group_translate_ranks(rg, rsize, idx, wg, world));
    for (int i = 0; i < rsize; i++)
        CHECK(world[i] == remote_world(i));
    CHECK_OK(MPI_Group_translate_ranks(lg, lsize, idx, wg, world));
    for (int i = 0; i < lsize; i++)
        CHECK(world[i] == 2 * i + color);
    CHECK_OK(MPI_Group_free(&rg));
    CHECK_OK(MPI_Group_free(&lg));
    CHECK_OK(MPI_Group_free(&wg));
}

static void check_p2p(MPI_Comm ic)
{
    /* Blocking: one message to every remote rank, received with ANY_SOURCE. */
    for (int j = 0; j < rsize; j++) {
        int v = 1000 * me + j;
        CHECK_OK(MPI_Send(&v, 1, MPI_INT, j, 5, ic));
    }
    int seen[256] = {0};
    for (int k = 0; k < rsize; k++) {
        int v = -1;
        MPI_Status st;
        CHECK_OK(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 5, ic, &st));
        CHECK(st.MPI_SOURCE >= 0 && st.MPI_SOURCE < rsize);
        CHECK(st.MPI_TAG == 5);
        if (st.MPI_SOURCE >= 0 && st.MPI_SOURCE < rsize) {
            seen[st.MPI_SOURCE]++;
            CHECK(v == 1000 * remote_world(st.MPI_SOURCE) + lrank);
        }
    }
    for (int j = 0; j < rsize; j++)
        CHECK(seen[j] == 1);

    /* Non-blocking, every source named. */
    MPI_Request reqs[512];
    int in[256], out[256];
    for (int j = 0; j < rsize; j++) {
        in[j] = -1;
        out[j] = 7 * me + j;
        CHECK_OK(MPI_Irecv(&in[j], 1, MPI_INT, j, 6, ic, &reqs[j]));
    }
    for (int j = 0; j < rsize; j++)
        CHECK_OK(MPI_Isend(&out[j], 1, MPI_INT, j, 6, ic, &reqs[rsize + j]));
    CHECK_OK(MPI_Waitall(2 * rsize, reqs, MPI_STATUSES_IGNORE));
    for (int j = 0; j < rsize; j++)
        CHECK(in[j] == 7 * remote_world(j) + lrank);

    /* Probe: local rank 0 sends two ints to every remote rank. */
    if (lrank == 0)
        for (int j = 0; j < rsize; j++) {
            int two[2] = {me, j};
            CHECK_OK(MPI_Send(two, 2, MPI_INT, j, 8, ic));
        }
    MPI_Status st;
    int n = -1, two[2] = {-1, -1};
    CHECK_OK(MPI_Probe(MPI_ANY_SOURCE, 8, ic, &st));
    CHECK(st.MPI_SOURCE == 0);
    CHECK_OK(MPI_Get_count(&st, MPI_INT, &n));
    CHECK(n == 2);
    CHECK_OK(MPI_Recv(two, 2, MPI_INT, 0, 8, ic, MPI_STATUS_IGNORE));
    CHECK(two[0] == remote_world(0) && two[1] == lrank);

    /* A rank of the local group's size but past the remote group's is out of range. */
    int v = 0;
    EXPECT_CLASS(MPI_Send(&v, 1, MPI_INT, rsize, 9, ic), MPI_ERR_RANK);
}

static void check_merge(MPI_Comm ic)
{
    int evens = count_of(0);
    MPI_Comm m;
    int r = -1, n = -1;
    /* The odd group says high: evens first. */
    CHECK_OK(MPI_Intercomm_merge(ic, color, &m));
    CHECK_OK(MPI_Comm_size(m, &n));
    CHECK(n == size);
    CHECK_OK(MPI_Comm_rank(m, &r));
    CHECK(r == (color == 0 ? lrank : evens + lrank));
    int sum = 0;
    CHECK_OK(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, m));
    CHECK(sum == size * (size - 1) / 2);
    CHECK_OK(MPI_Comm_free(&m));
    /* The even group says high: odds first. */
    CHECK_OK(MPI_Intercomm_merge(ic, 1 - color, &m));
    CHECK_OK(MPI_Comm_rank(m, &r));
    CHECK(r == (color == 1 ? lrank : count_of(1) + lrank));
    CHECK_OK(MPI_Comm_free(&m));
    /* Both the same: a fixed order, the same on every rank (the test's: evens first). */
    CHECK_OK(MPI_Intercomm_merge(ic, 0, &m));
    CHECK_OK(MPI_Comm_rank(m, &r));
    int ranks_all[256];
    CHECK_OK(MPI_Allgather(&me, 1, MPI_INT, ranks_all, 1, MPI_INT, m));
    CHECK(ranks_all[r] == me);
    for (int i = 1; i < size; i++)
        CHECK(ranks_all[i] != ranks_all[0]);
    CHECK_OK(MPI_Comm_free(&m));
}

static void check_dup(MPI_Comm ic)
{
    MPI_Comm d;
    int res = -1, flag = 0;
    CHECK_OK(MPI_Comm_dup(ic, &d));
    check_queries(d);
    CHECK_OK(MPI_Comm_compare(ic, d, &res));
    CHECK(res == MPI_CONGRUENT);
    CHECK_OK(MPI_Comm_compare(ic, ic, &res));
    CHECK(res == MPI_IDENT);
    CHECK_OK(MPI_Comm_compare(ic, MPI_COMM_WORLD, &res));
    CHECK(res == MPI_UNEQUAL);
    /* The dup's traffic is its own: the same tag on both, received on the dup first. */
    int a = 1, b = 2, x = 0, y = 0;
    if (lrank == 0) {
        CHECK_OK(MPI_Send(&a, 1, MPI_INT, 0, 3, ic));
        CHECK_OK(MPI_Send(&b, 1, MPI_INT, 0, 3, d));
    }
    if (lrank == 0) {
        CHECK_OK(MPI_Recv(&y, 1, MPI_INT, 0, 3, d, MPI_STATUS_IGNORE));
        CHECK_OK(MPI_Recv(&x, 1, MPI_INT, 0, 3, ic, MPI_STATUS_IGNORE));
        CHECK(x == 1 && y == 2);
    }
    char name[MPI_MAX_OBJECT_NAME];
    int len = 0;
    CHECK_OK(MPI_Comm_set_name(d, "inter-dup"));
    CHECK_OK(MPI_Comm_get_name(d, name, &len));
    CHECK(strcmp(name, "inter-dup") == 0);
    int key, val = 77, *got = NULL;
    CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL));
    CHECK_OK(MPI_Comm_set_attr(d, key, &val));
    CHECK_OK(MPI_Comm_get_attr(d, key, &got, &flag));
    CHECK(flag == 1 && got == &val);
    CHECK_OK(MPI_Comm_free_keyval(&key));
    CHECK_OK(MPI_Comm_free(&d));
    CHECK(d == MPI_COMM_NULL);
}

/* Sum over remote ranks of f(world rank). */
static int remote_sum(int mul, int add)
{
    int s = 0;
    for (int i = 0; i < rsize; i++)
        s += mul * remote_world(i) + add;
    return s;
}

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

/* Comm_split on the intercommunicator: color = local rank parity, key reverses the order. */
static void check_split(MPI_Comm ic)
{
    int c = lrank % 2;
    MPI_Comm s;
    CHECK_OK(MPI_Comm_split(ic, c, -lrank, &s));
    int lcount = (lsize - c + 1) / 2, rcount = (rsize - c + 1) / 2;
    if (rcount == 0) {
        CHECK(s == MPI_COMM_NULL);
        return;
    }
    CHECK(s != MPI_COMM_NULL);
    if (s == MPI_COMM_NULL)
        return;
    int flag = 0, n = -1, r = -1;
    CHECK_OK(MPI_Comm_test_inter(s, &flag));
    CHECK(flag == 1);
    CHECK_OK(MPI_Comm_size(s, &n));
    CHECK(n == lcount);
    CHECK_OK(MPI_Comm_rank(s, &r));
    CHECK(r == lcount - 1 - (lrank - c) / 2);
    CHECK_OK(MPI_Comm_remote_size(s, &n));
    CHECK(n == rcount);
    int sum = -1, want = 0;
    for (int i = c; i < rsize; i += 2)
        want += remote_world(i);
    CHECK_OK(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, s));
    CHECK(sum == want);
    CHECK_OK(MPI_Comm_free(&s));
}

/* Comm_create on the intercommunicator: the even side keeps only its rank 0, the odd side
 * all its members. */
static void check_create(MPI_Comm ic)
{
    MPI_Group lg, g;
    int zero = 0;
    CHECK_OK(MPI_Comm_group(ic, &lg));
    if (color == 0)
        CHECK_OK(MPI_Group_incl(lg, 1, &zero, &g));
    else
        CHECK_OK(MPI_Group_incl(lg, lsize, (int[]){0, 1, 2, 3, 4, 5, 6, 7}, &g));
    MPI_Comm s;
    CHECK_OK(MPI_Comm_create(ic, g, &s));
    CHECK_OK(MPI_Group_free(&g));
    CHECK_OK(MPI_Group_free(&lg));
    if (color == 0 && lrank != 0) {
        CHECK(s == MPI_COMM_NULL);
        return;
    }
    CHECK(s != MPI_COMM_NULL);
    if (s == MPI_COMM_NULL)
        return;
    int n = -1, sum = -1;
    CHECK_OK(MPI_Comm_remote_size(s, &n));
    CHECK(n == (color == 0 ? rsize : 1));
    CHECK_OK(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, s));
    CHECK(sum == (color == 0 ? remote_sum(1, 0) : 0));
    CHECK_OK(MPI_Comm_free(&s));
}

/* Intercommunicators of two single processes (local MPI_COMM_SELF, peer MPI_COMM_WORLD):
 * first with the partner me ^ 1, then with the neighbour on the other side; both stay in use
 * together, and each carries only its own partner's messages. */
static void check_self_pairs(void)
{
    int partners[2] = {me ^ 1, me % 2 ? me + 1 : me - 1};
    MPI_Comm pair[2] = {MPI_COMM_NULL, MPI_COMM_NULL};
    for (int k = 0; k < 2; k++)
        if (partners[k] >= 0 && partners[k] < size)
            CHECK_OK(MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, partners[k], 30 + k,
                                          &pair[k]));
    for (int k = 0; k < 2; k++)
        if (pair[k] != MPI_COMM_NULL)
            CHECK_OK(MPI_Send(&me, 1, MPI_INT, 0, 4, pair[k]));
    for (int k = 0; k < 2; k++) {
        if (pair[k] == MPI_COMM_NULL)
            continue;
        int v = -1, s = -1;
        CHECK_OK(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 4, pair[k], MPI_STATUS_IGNORE));
        CHECK(v == partners[k]);
        CHECK_OK(MPI_Allreduce(&me, &s, 1, MPI_INT, MPI_SUM, pair[k]));
        CHECK(s == partners[k]);
        CHECK_OK(MPI_Comm_free(&pair[k]));
    }
}

static void check_from_groups(void)
{
    MPI_Group mine = parity_group(color), other = parity_group(1 - color);
    MPI_Comm ic;
    CHECK_OK(MPI_Intercomm_create_from_groups(mine, 0, other, 0, "nexar-test-groups",
                                              MPI_INFO_NULL, MPI_ERRORS_RETURN, &ic));
    check_queries(ic);
    int s = me, r = -1;
    CHECK_OK(MPI_Allreduce(&s, &r, 1, MPI_INT, MPI_SUM, ic));
    CHECK(r == remote_sum(1, 0));
    CHECK_OK(MPI_Comm_free(&ic));
    CHECK_OK(MPI_Group_free(&mine));
    CHECK_OK(MPI_Group_free(&other));
}

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    me = check_rank;
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    int flag = -1, n = -1;
    CHECK_OK(MPI_Comm_test_inter(MPI_COMM_WORLD, &flag));
    CHECK(flag == 0);
    EXPECT_CLASS(MPI_Comm_remote_size(MPI_COMM_WORLD, &n), MPI_ERR_COMM);
    if (size < 2) {
        printf("intercomm: one rank, no intercommunicator to make\n");
        return check_finish();
    }

    color = me % 2;
    MPI_Comm local, ic;
    CHECK_OK(MPI_Comm_split(MPI_COMM_WORLD, color, me, &local));
    CHECK_OK(MPI_Comm_rank(local, &lrank));
    CHECK_OK(MPI_Comm_size(local, &lsize));
    rsize = count_of(1 - color);
    CHECK(lsize == count_of(color));
    CHECK_OK(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 - color, 17, &ic));
    CHECK_OK(MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN));

    check_queries(ic);
    check_p2p(ic);
    check_merge(ic);
    check_dup(ic);
    check_colls(ic);
    check_vcolls(ic);
    check_split(ic);
    check_create(ic);
    check_self_pairs();
    check_from_groups();

    CHECK_OK(MPI_Comm_free(&ic));
    CHECK_OK(MPI_Comm_free(&local));
    if (me == 0)
        printf("intercomm: %d ranks checked\n", size);
    return check_finish();
}
