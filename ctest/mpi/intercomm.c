/* Intercommunicators (intercomm_pair.h's, by rank parity): the queries (test_inter, local
 * size/rank/group, remote size/group), point-to-point both ways (blocking with ANY_SOURCE and
 * its status, non-blocking, probe, a rank past the remote group), merge with high/low and both
 * orders, dup / compare / name / attribute / free, split and create on it, pairs made over
 * MPI_COMM_SELF, and MPI_Intercomm_create_from_groups (each checked with traffic on the new
 * intercommunicator). At one rank no intercommunicator can exist: only the intracommunicator
 * answers are checked. The collectives between the groups are in intercomm_coll.c. */
#include "intercomm_pair.h"


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

    /* Bad arguments fail on every rank alike, before any message. */
    MPI_Comm none;
    EXPECT_CLASS(MPI_Comm_remote_size(ic, NULL), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Intercomm_merge(MPI_COMM_WORLD, 0, &none), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Intercomm_create(ic, 0, MPI_COMM_WORLD, 0, 5, &none), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Intercomm_create(MPI_COMM_WORLD, 0, MPI_COMM_WORLD, 0, 5, NULL),
                 MPI_ERR_ARG);
    /* A bad peer communicator is seen by the leader alone; the others fail with it. */
    int rc = MPI_Intercomm_create(MPI_COMM_WORLD, 0, MPI_COMM_NULL, 0, 5, &none), cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_COMM);
    CHECK(rc != MPI_SUCCESS);

    /* Topologies are defined on intracommunicators only. */
    int dims[1] = {lsize}, periods[1] = {0};
    MPI_Comm topo = MPI_COMM_NULL;
    EXPECT_CLASS(MPI_Cart_create(ic, 1, dims, periods, 0, &topo), MPI_ERR_COMM);
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

    /* Idup: usable once the request completes. */
    MPI_Request req;
    CHECK_OK(MPI_Comm_idup(ic, &d, &req));
    CHECK_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    check_queries(d);
    int s = -1;
    CHECK_OK(MPI_Allreduce(&me, &s, 1, MPI_INT, MPI_SUM, d));
    CHECK(s == remote_sum(1, 0));
    CHECK_OK(MPI_Comm_free(&d));
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
    MPI_Comm local, ic;
    if (!parity_intercomm(&local, &ic)) {
        printf("intercomm: one rank, no intercommunicator to make\n");
        return check_finish();
    }
    check_queries(ic);
    check_p2p(ic);
    check_merge(ic);
    check_dup(ic);
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
