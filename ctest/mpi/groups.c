/* MPI groups: Comm_group, size/rank, incl/excl, range_incl/range_excl (strides), union,
 * intersection, difference, translate_ranks (PROC_NULL, non-members), compare, free,
 * toint/fromint, and argument errors under MPI_ERRORS_RETURN. Groups are local: no rank
 * waits on another. */
#include "mpi_check.h"

/* The world ranks of `g` (via translate_ranks into the world group). */
static void world_ranks(MPI_Group g, MPI_Group world, int *out, int *n)
{
    CHECK_OK(MPI_Group_size(g, n));
    int in[64];
    for (int i = 0; i < *n; i++)
        in[i] = i;
    CHECK_OK(MPI_Group_translate_ranks(g, *n, in, world, out));
}

static int same(const int *a, const int *b, int n)
{
    for (int i = 0; i < n; i++)
        if (a[i] != b[i])
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    int size, r, n, w[64], want[64];
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));

    MPI_Group world, selfg, g, h, u;
    CHECK_OK(MPI_Comm_group(MPI_COMM_WORLD, &world));
    CHECK_OK(MPI_Group_size(world, &n));
    CHECK(n == size);
    CHECK_OK(MPI_Group_rank(world, &r));
    CHECK(r == check_rank);
    CHECK_OK(MPI_Comm_group(MPI_COMM_SELF, &selfg));
    CHECK_OK(MPI_Group_size(selfg, &n));
    CHECK(n == 1);
    CHECK_OK(MPI_Group_rank(selfg, &r));
    CHECK(r == 0);

    /* Empty group. */
    CHECK_OK(MPI_Group_size(MPI_GROUP_EMPTY, &n));
    CHECK(n == 0);
    CHECK_OK(MPI_Group_rank(MPI_GROUP_EMPTY, &r));
    CHECK(r == MPI_UNDEFINED);

    /* incl: reversed order. */
    int rev[64];
    for (int i = 0; i < size; i++)
        rev[i] = size - 1 - i;
    CHECK_OK(MPI_Group_incl(world, size, rev, &g));
    world_ranks(g, world, w, &n);
    CHECK(n == size && same(w, rev, size));
    CHECK_OK(MPI_Group_rank(g, &r));
    CHECK(r == size - 1 - check_rank);
    int cmp = -1;
    CHECK_OK(MPI_Group_compare(world, g, &cmp));
    CHECK(cmp == (size == 1 ? MPI_IDENT : MPI_SIMILAR));
    CHECK_OK(MPI_Group_compare(world, world, &cmp));
    CHECK(cmp == MPI_IDENT);
    CHECK_OK(MPI_Group_compare(world, MPI_GROUP_EMPTY, &cmp));
    CHECK(cmp == MPI_UNEQUAL);

    /* translate_ranks world -> reversed, with PROC_NULL. */
    int in2[2] = {0, MPI_PROC_NULL}, out2[2] = {-1, -1};
    CHECK_OK(MPI_Group_translate_ranks(world, 2, in2, g, out2));
    CHECK(out2[0] == size - 1 && out2[1] == MPI_PROC_NULL);
    CHECK_OK(MPI_Group_free(&g));
    CHECK(g == MPI_GROUP_NULL);

    /* excl rank 0: the others in order; rank 0 is not a member. */
    int zero = 0;
    CHECK_OK(MPI_Group_excl(world, 1, &zero, &g));
    CHECK_OK(MPI_Group_size(g, &n));
    CHECK(n == size - 1);
    CHECK_OK(MPI_Group_rank(g, &r));
    CHECK(r == (check_rank == 0 ? MPI_UNDEFINED : check_rank - 1));
    int out1 = -1;
    CHECK_OK(MPI_Group_translate_ranks(world, 1, &zero, g, &out1));
    CHECK(out1 == MPI_UNDEFINED);

    /* range_incl: evens (0, size-1, 2) and a descending stride. */
    int evens[1][3] = {{0, size - 1, 2}};
    CHECK_OK(MPI_Group_range_incl(world, 1, evens, &h));
    world_ranks(h, world, w, &n);
    int ne = 0;
    for (int i = 0; i < size; i += 2)
        want[ne++] = i;
    CHECK(n == ne && same(w, want, n));
    int down[1][3] = {{size - 1, 0, -2}};
    MPI_Group d;
    CHECK_OK(MPI_Group_range_incl(world, 1, down, &d));
    world_ranks(d, world, w, &n);
    int nd = 0;
    for (int i = size - 1; i >= 0; i -= 2)
        want[nd++] = i;
    CHECK(n == nd && same(w, want, n));
    CHECK_OK(MPI_Group_free(&d));

    /* range_excl of the evens: the odds. */
    CHECK_OK(MPI_Group_range_excl(world, 1, evens, &d));
    world_ranks(d, world, w, &n);
    int no = 0;
    for (int i = 1; i < size; i += 2)
        want[no++] = i;
    CHECK(n == no && same(w, want, n));

    /* union(odds, evens) = odds then evens; intersection and difference. */
    CHECK_OK(MPI_Group_union(d, h, &u));
    world_ranks(u, world, w, &n);
    for (int i = 0, k = no; i < size; i += 2)
        want[k++] = i;
    CHECK(n == size && same(w, want, n));
    CHECK_OK(MPI_Group_compare(u, world, &cmp));
    CHECK(cmp == (size == 1 ? MPI_IDENT : MPI_SIMILAR));
    CHECK_OK(MPI_Group_free(&u));
    CHECK_OK(MPI_Group_union(world, h, &u));
    CHECK_OK(MPI_Group_compare(u, world, &cmp));
    CHECK(cmp == MPI_IDENT);
    CHECK_OK(MPI_Group_free(&u));
    CHECK_OK(MPI_Group_intersection(d, h, &u));
    CHECK_OK(MPI_Group_size(u, &n));
    CHECK(n == 0);
    CHECK_OK(MPI_Group_free(&u));
    CHECK_OK(MPI_Group_intersection(world, h, &u));
    CHECK_OK(MPI_Group_compare(u, h, &cmp));
    CHECK(cmp == MPI_IDENT);
    CHECK_OK(MPI_Group_free(&u));
    CHECK_OK(MPI_Group_difference(world, h, &u));
    CHECK_OK(MPI_Group_compare(u, d, &cmp));
    CHECK(cmp == MPI_IDENT);
    CHECK_OK(MPI_Group_free(&u));
    CHECK_OK(MPI_Group_difference(h, world, &u));
    CHECK_OK(MPI_Group_size(u, &n));
    CHECK(n == 0);
    CHECK_OK(MPI_Group_free(&u));

    /* toint / fromint round trip of a user group. */
    int gi = MPI_Group_toint(h);
    CHECK(MPI_Group_fromint(gi) == h);
    CHECK(MPI_Group_fromint(MPI_Group_toint(MPI_GROUP_EMPTY)) == MPI_GROUP_EMPTY);

    /* Errors. */
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int bad = size, dup2[2] = {0, 0}, neg = -1;
    EXPECT_CLASS(MPI_Group_incl(world, 1, &bad, &u), MPI_ERR_RANK);
    EXPECT_CLASS(MPI_Group_incl(world, 1, &neg, &u), MPI_ERR_RANK);
    EXPECT_CLASS(MPI_Group_incl(world, 2, dup2, &u), MPI_ERR_RANK);
    EXPECT_CLASS(MPI_Group_excl(world, 1, &bad, &u), MPI_ERR_RANK);
    EXPECT_CLASS(MPI_Group_incl(world, -1, &zero, &u), MPI_ERR_ARG);
    int stride0[1][3] = {{0, 0, 0}}, outr[1][3] = {{0, size, 1}};
    EXPECT_CLASS(MPI_Group_range_incl(world, 1, stride0, &u), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Group_range_incl(world, 1, outr, &u), MPI_ERR_RANK);
    EXPECT_CLASS(MPI_Group_range_excl(world, 1, outr, &u), MPI_ERR_RANK);
    int twice[2][3] = {{0, 0, 1}, {0, 0, 1}};
    EXPECT_CLASS(MPI_Group_range_incl(world, 2, twice, &u), MPI_ERR_RANK);
    EXPECT_CLASS(MPI_Group_translate_ranks(world, 1, &bad, world, &out1), MPI_ERR_RANK);
    EXPECT_CLASS(MPI_Group_size(MPI_GROUP_NULL, &n), MPI_ERR_GROUP);
    EXPECT_CLASS(MPI_Group_compare(MPI_GROUP_NULL, world, &cmp), MPI_ERR_GROUP);
    EXPECT_CLASS(MPI_Group_size(world, NULL), MPI_ERR_ARG);
    CHECK_OK(MPI_Group_free(&d));
    CHECK_OK(MPI_Group_incl(world, 1, &zero, &d)); /* a user group (never MPI_GROUP_EMPTY) */
    MPI_Group freed = d;
    CHECK_OK(MPI_Group_free(&d));
    EXPECT_CLASS(MPI_Group_size(freed, &n), MPI_ERR_GROUP);
    EXPECT_CLASS(MPI_Group_free(&freed), MPI_ERR_GROUP);
    MPI_Group null = MPI_GROUP_NULL;
    EXPECT_CLASS(MPI_Group_free(&null), MPI_ERR_GROUP);
    MPI_Group empty = MPI_GROUP_EMPTY;
    CHECK_OK(MPI_Group_free(&empty));
    CHECK(empty == MPI_GROUP_NULL);

    CHECK_OK(MPI_Group_free(&h));
    CHECK_OK(MPI_Group_free(&g));
    CHECK_OK(MPI_Group_free(&selfg));
    CHECK_OK(MPI_Group_free(&world));
    CHECK(MPI_Pcontrol(1) == MPI_SUCCESS);
    return check_finish();
}
