/* Communicator creation and queries: Comm_create (even ranks, empty group), Comm_create_group
 * (whole membership reordered; a proper subset), Comm_compare on world, dup,
 * split and self, Comm_test_inter, names, Comm_split_type (SHARED, UNDEFINED),
 * Comm_dup_with_info, and the predefined attributes. */
#include "mpi_check.h"

static void expect_name(MPI_Comm c, const char *want)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    CHECK_OK(MPI_Comm_get_name(c, name, &len));
    CHECK(len == (int)strlen(want) && strcmp(name, want) == 0);
}

static int compare(MPI_Comm a, MPI_Comm b)
{
    int r = -1;
    CHECK_OK(MPI_Comm_compare(a, b, &r));
    return r;
}

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    int size, r, n, flag;
    const int me = check_rank;
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    MPI_Group world;
    CHECK_OK(MPI_Comm_group(MPI_COMM_WORLD, &world));

    /* Comm_create with the even ranks. */
    MPI_Group evens;
    int range[1][3] = {{0, size - 1, 2}};
    CHECK_OK(MPI_Group_range_incl(world, 1, range, &evens));
    MPI_Comm ec;
    CHECK_OK(MPI_Comm_create(MPI_COMM_WORLD, evens, &ec));
    if (me % 2 == 0) {
        CHECK(ec != MPI_COMM_NULL);
        CHECK_OK(MPI_Comm_size(ec, &n));
        CHECK(n == (size + 1) / 2);
        CHECK_OK(MPI_Comm_rank(ec, &r));
        CHECK(r == me / 2);
        int sum = 0;
        CHECK_OK(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, ec));
        int want = 0;
        for (int i = 0; i < size; i += 2)
            want += i;
        CHECK(sum == want);
        CHECK(compare(ec, MPI_COMM_WORLD) == (size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL));
        CHECK_OK(MPI_Comm_free(&ec));
    } else {
        CHECK(ec == MPI_COMM_NULL);
    }
    CHECK_OK(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_EMPTY, &ec));
    CHECK(ec == MPI_COMM_NULL);

    /* Comm_create_group with the whole membership, reversed. */
    int rev[64];
    for (int i = 0; i < size; i++)
        rev[i] = size - 1 - i;
    MPI_Group rg;
    CHECK_OK(MPI_Group_incl(world, size, rev, &rg));
    MPI_Comm rc;
    CHECK_OK(MPI_Comm_create_group(MPI_COMM_WORLD, rg, 7, &rc));
    CHECK_OK(MPI_Comm_rank(rc, &r));
    CHECK(r == size - 1 - me);
    CHECK(compare(rc, MPI_COMM_WORLD) == (size == 1 ? MPI_CONGRUENT : MPI_SIMILAR));

    /* Comm_compare. */
    MPI_Comm dup, split, dupi;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_OK(MPI_Comm_split(MPI_COMM_WORLD, 0, -me, &split));
    CHECK_OK(MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &dupi));
    CHECK(compare(MPI_COMM_WORLD, MPI_COMM_WORLD) == MPI_IDENT);
    CHECK(compare(dup, dup) == MPI_IDENT);
    CHECK(compare(MPI_COMM_WORLD, dup) == MPI_CONGRUENT);
    CHECK(compare(dupi, dup) == MPI_CONGRUENT);
    CHECK(compare(split, MPI_COMM_WORLD) == (size == 1 ? MPI_CONGRUENT : MPI_SIMILAR));
    CHECK(compare(split, rc) == MPI_CONGRUENT);
    CHECK(compare(MPI_COMM_SELF, MPI_COMM_WORLD) == (size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL));
    CHECK_OK(MPI_Comm_test_inter(dup, &flag));
    CHECK(flag == 0);

    /* Names. */
    expect_name(MPI_COMM_WORLD, "MPI_COMM_WORLD");
    expect_name(MPI_COMM_SELF, "MPI_COMM_SELF");
    expect_name(dup, "");
    CHECK_OK(MPI_Comm_set_name(dup, "my dup"));
    expect_name(dup, "my dup");
    expect_name(dupi, "");
    char longname[300];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    CHECK_OK(MPI_Comm_set_name(split, longname));
    longname[MPI_MAX_OBJECT_NAME - 1] = '\0';
    expect_name(split, longname);
    CHECK_OK(MPI_Comm_set_name(MPI_COMM_WORLD, "world"));
    expect_name(MPI_COMM_WORLD, "world");
    CHECK_OK(MPI_Comm_set_name(MPI_COMM_WORLD, "MPI_COMM_WORLD"));

    /* Comm_split_type: SHARED (all test ranks run on this host) and UNDEFINED. */
    MPI_Comm shared;
    CHECK_OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL,
                                 &shared));
    CHECK_OK(MPI_Comm_size(shared, &n));
    CHECK(n >= 1 && n <= size);
    int total = 0;
    CHECK_OK(MPI_Allreduce(&n, &total, 1, MPI_INT, MPI_MAX, shared));
    CHECK(total == n);
    CHECK_OK(MPI_Comm_free(&shared));
    CHECK_OK(MPI_Comm_split_type(MPI_COMM_WORLD, me % 2 ? MPI_UNDEFINED : MPI_COMM_TYPE_SHARED,
                                 0, MPI_INFO_NULL, &shared));
    CHECK((shared == MPI_COMM_NULL) == (me % 2 == 1));
    if (shared != MPI_COMM_NULL)
        CHECK_OK(MPI_Comm_free(&shared));

    /* Predefined attributes. */
    int *val = NULL;
    CHECK_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &val, &flag));
    CHECK(flag == 1 && val && *val >= 32767);
    CHECK_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &val, &flag));
    CHECK(flag == 1 && val && *val >= size);
    if (!getenv("NEXAR_UNIVERSE_SIZE"))
        CHECK(*val == size);
    CHECK_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &val, &flag));
    CHECK(flag == 1 && val && (*val == 0 || *val == 1));
    val = NULL;
    CHECK_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &val, &flag));
    CHECK(flag == (getenv("NEXAR_APPNUM") != NULL));
    if (flag)
        CHECK(val && *val >= 0);
    CHECK_OK(MPI_Comm_get_attr(dup, MPI_TAG_UB, &val, &flag));
    CHECK(flag == 1 && *val >= 32767);

    /* MPI_Comm_disconnect: collective, frees the communicator; messages sent on it before
       arrive, and a receive posted on it before stays valid. */
    MPI_Comm dc;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dc));
    int token = -1, in = -2;
    MPI_Request rq;
    CHECK_OK(MPI_Irecv(&in, 1, MPI_INT, (me + size - 1) % size, 5, dc, &rq));
    token = me;
    CHECK_OK(MPI_Send(&token, 1, MPI_INT, (me + 1) % size, 5, dc));
    CHECK_OK(MPI_Comm_disconnect(&dc));
    CHECK(dc == MPI_COMM_NULL);
    CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(in == (me + size - 1) % size);

    /* Errors under MPI_ERRORS_RETURN. */
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_Comm world_copy = MPI_COMM_WORLD;
    EXPECT_CLASS(MPI_Comm_disconnect(&world_copy), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_disconnect(NULL), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Comm_get_attr(MPI_COMM_WORLD, 12345, &val, &flag), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Comm_compare(MPI_COMM_NULL, MPI_COMM_WORLD, &r), MPI_ERR_COMM);
    MPI_Group remote;
    EXPECT_CLASS(MPI_Comm_remote_size(MPI_COMM_WORLD, &n), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_remote_group(MPI_COMM_WORLD, &remote), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_set_name(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_NULL, &ec), MPI_ERR_GROUP);
    /* A proper subset: its members make it among themselves; non-members get MPI_COMM_NULL
     * (neither communicates with the other side). */
    if (me % 2 == 0) {
        CHECK_OK(MPI_Comm_create_group(MPI_COMM_WORLD, evens, 0, &ec));
        CHECK(ec != MPI_COMM_NULL);
        CHECK_OK(MPI_Barrier(ec));
        CHECK_OK(MPI_Comm_free(&ec));
    }
    if (me % 2 == 1) {
        ec = MPI_COMM_WORLD;
        CHECK_OK(MPI_Comm_create_group(MPI_COMM_WORLD, evens, 0, &ec));
        CHECK(ec == MPI_COMM_NULL);
    }
    CHECK_OK(MPI_Comm_create_group(MPI_COMM_WORLD, MPI_GROUP_EMPTY, 0, &ec));
    CHECK(ec == MPI_COMM_NULL);

    CHECK_OK(MPI_Comm_free(&dup));
    CHECK_OK(MPI_Comm_free(&dupi));
    CHECK_OK(MPI_Comm_free(&split));
    CHECK_OK(MPI_Comm_free(&rc));
    CHECK_OK(MPI_Group_free(&rg));
    CHECK_OK(MPI_Group_free(&evens));
    CHECK_OK(MPI_Group_free(&world));
    return check_finish();
}
