/* Communicators on subsets made by their members alone: the even ranks make one with
 * Comm_create_group (twice with the same tag: two distinct communicators) and Allreduce on it
 * while the odd ranks do the same among themselves; Comm_create with a subset (the last ranks,
 * reversed); Comm_idup + Wait, then the new communicator is used. */
#include "mpi_check.h"

/* The group of world ranks r with r % 2 == parity. */
static MPI_Group parity_group(int parity, int size)
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

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int me = check_rank, size;
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));

    /* Only the members of each parity call, each side with the same tag. */
    MPI_Group mine = parity_group(me % 2, size);
    MPI_Comm a, b;
    CHECK_OK(MPI_Comm_create_group(MPI_COMM_WORLD, mine, 11, &a));
    CHECK_OK(MPI_Comm_create_group(MPI_COMM_WORLD, mine, 11, &b));
    CHECK(a != MPI_COMM_NULL && b != MPI_COMM_NULL && a != b);
    int n = (size - me % 2 + 1) / 2, an, ar, sum = -1, want = 0;
    for (int r = me % 2; r < size; r += 2)
        want += r;
    CHECK_OK(MPI_Comm_size(a, &an));
    CHECK_OK(MPI_Comm_rank(a, &ar));
    CHECK(an == n && ar == me / 2);
    CHECK_OK(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, a));
    CHECK(sum == want);
    /* Same tag on a and b: the messages stay on their communicator. */
    if (an > 1 && ar < 2) {
        int peer = 1 - ar, x = -1, y = -1, va = 100 + me, vb = 200 + me;
        MPI_Request rq[4];
        CHECK_OK(MPI_Irecv(&x, 1, MPI_INT, peer, 0, b, &rq[0]));
        CHECK_OK(MPI_Irecv(&y, 1, MPI_INT, peer, 0, a, &rq[1]));
        CHECK_OK(MPI_Isend(&va, 1, MPI_INT, peer, 0, a, &rq[2]));
        CHECK_OK(MPI_Isend(&vb, 1, MPI_INT, peer, 0, b, &rq[3]));
        CHECK_OK(MPI_Waitall(4, rq, MPI_STATUSES_IGNORE));
        int pw = peer * 2 + me % 2; /* the peer's world rank */
        CHECK(x == 200 + pw && y == 100 + pw);
    }
    int ones = 1;
    CHECK_OK(MPI_Allreduce(MPI_IN_PLACE, &ones, 1, MPI_INT, MPI_SUM, b));
    CHECK(ones == n);
    CHECK_OK(MPI_Comm_free(&a));
    CHECK_OK(MPI_Comm_free(&b));
    /* A non-member of a group gets MPI_COMM_NULL without any member's help. */
    MPI_Group other = parity_group(1 - me % 2, size);
    MPI_Comm none = MPI_COMM_WORLD;
    int other_size;
    CHECK_OK(MPI_Group_size(other, &other_size));
    if (other_size > 0) {
        CHECK_OK(MPI_Comm_create_group(MPI_COMM_WORLD, other, 11, &none));
        CHECK(none == MPI_COMM_NULL);
    }
    EXPECT_CLASS(MPI_Comm_create_group(MPI_COMM_WORLD, mine, -1, &none), MPI_ERR_TAG);
    CHECK_OK(MPI_Group_free(&mine));
    CHECK_OK(MPI_Group_free(&other));

    /* Comm_create (called by all) with the last min(size, 3) ranks, reversed. */
    int k = size < 3 ? size : 3, ranks[3];
    for (int i = 0; i < k; i++)
        ranks[i] = size - 1 - i;
    MPI_Group world, tail;
    CHECK_OK(MPI_Comm_group(MPI_COMM_WORLD, &world));
    CHECK_OK(MPI_Group_incl(world, k, ranks, &tail));
    MPI_Comm t;
    CHECK_OK(MPI_Comm_create(MPI_COMM_WORLD, tail, &t));
    int in_tail = me >= size - k;
    CHECK((t != MPI_COMM_NULL) == in_tail);
    if (t != MPI_COMM_NULL) {
        int tr, tn, mx = -1;
        CHECK_OK(MPI_Comm_rank(t, &tr));
        CHECK_OK(MPI_Comm_size(t, &tn));
        CHECK(tn == k && tr == size - 1 - me);
        CHECK_OK(MPI_Allreduce(&tr, &mx, 1, MPI_INT, MPI_MAX, t));
        CHECK(mx == k - 1);
        CHECK_OK(MPI_Comm_free(&t));
    }
    CHECK_OK(MPI_Group_free(&tail));
    CHECK_OK(MPI_Group_free(&world));

    /* Comm_idup: complete after Wait, then usable. */
    MPI_Comm d;
    MPI_Request req;
    CHECK_OK(MPI_Comm_idup(MPI_COMM_WORLD, &d, &req));
    CHECK_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(req == MPI_REQUEST_NULL);
    int total = 0, cmp = -1;
    CHECK_OK(MPI_Allreduce(&me, &total, 1, MPI_INT, MPI_SUM, d));
    CHECK(total == size * (size - 1) / 2);
    CHECK_OK(MPI_Comm_compare(MPI_COMM_WORLD, d, &cmp));
    CHECK(cmp == MPI_CONGRUENT);
    MPI_Comm e;
    CHECK_OK(MPI_Comm_idup_with_info(d, MPI_INFO_NULL, &e, &req));
    CHECK_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Barrier(e));
    CHECK_OK(MPI_Comm_free(&e));
    CHECK_OK(MPI_Comm_free(&d));
    return check_finish();
}
