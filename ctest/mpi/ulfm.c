/*
 * ulfm: the MPIX fault-tolerance extension through the MPI shim, at any rank count, without
 * killing ranks (tests/ulfm.rs covers real failures). Uses MPI_ERRORS_RETURN:
 *
 *  - <mpi-ext.h> advertises MPIX_FT; the MPIX_ERR_* classes are their own classes with
 *    descriptions;
 *  - a fresh communicator has an empty failed group and acked group and is not revoked;
 *  - MPIX_Comm_agree gives every rank the bitwise AND of all flags; so does MPIX_Comm_iagree,
 *    started before a barrier on one rank and after it on the others (mpi4py's test_ulfm
 *    pattern), which cannot complete on the first before the others start it;
 *  - MPIX_Comm_ack_failed acknowledges nothing when nothing failed, and checks its arguments;
 *  - rank 0 revokes a duplicate of MPI_COMM_WORLD while the others wait in a blocking
 *    ANY_SOURCE receive and a non-blocking receive on it: both fail with MPIX_ERR_REVOKED, as
 *    do later operations there; MPI_COMM_WORLD keeps working;
 *  - on the revoked communicator, MPIX_Comm_agree works and MPIX_Comm_shrink gives a working
 *    communicator of every rank.
 */
#include "mpi_check.h"

#include <mpi-ext.h>

#ifndef MPIX_FT
#error "mpi-ext.h does not define MPIX_FT"
#endif

static int rank, size;

static int group_size(MPI_Group g)
{
    int n = -1;
    CHECK_OK(MPI_Group_size(g, &n));
    if (g != MPI_GROUP_EMPTY) {
        CHECK_OK(MPI_Group_free(&g));
    }
    return n;
}

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    rank = check_rank;
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    /* Error classes. */
    int classes[3] = {MPIX_ERR_PROC_FAILED, MPIX_ERR_PROC_FAILED_PENDING, MPIX_ERR_REVOKED};
    for (int i = 0; i < 3; i++) {
        int cls = -1, len = 0;
        char msg[MPI_MAX_ERROR_STRING];
        CHECK_OK(MPI_Error_class(classes[i], &cls));
        CHECK(cls == classes[i]);
        CHECK_OK(MPI_Error_string(classes[i], msg, &len));
        CHECK(len > 0 && strcmp(msg, "unknown error code") != 0);
    }

    MPI_Comm d;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    CHECK_OK(MPI_Comm_set_errhandler(d, MPI_ERRORS_RETURN));

    /* A fresh communicator. */
    MPI_Group g;
    int flag = -1;
    CHECK_OK(MPIX_Comm_get_failed(d, &g));
    CHECK(group_size(g) == 0);
    CHECK_OK(MPIX_Comm_failure_ack(d));
    CHECK_OK(MPIX_Comm_failure_get_acked(d, &g));
    CHECK(group_size(g) == 0);
    CHECK_OK(MPIX_Comm_is_revoked(d, &flag));
    CHECK(flag == 0);
    EXPECT_CLASS(MPIX_Comm_agree(d, NULL), MPI_ERR_ARG);
    EXPECT_CLASS(MPIX_Comm_shrink(d, NULL), MPI_ERR_ARG);
    EXPECT_CLASS(MPIX_Comm_get_failed(d, NULL), MPI_ERR_ARG);

    MPI_Request req = MPI_REQUEST_NULL;

    /* Agreement: the AND of every rank's flag. */
    int v = ~(1 << (rank % 30)), want = ~0;
    for (int r = 0; r < size; r++) {
        want &= ~(1 << (r % 30));
    }
    CHECK_OK(MPIX_Comm_agree(d, &v));
    CHECK(v == want);

    /* Non-blocking agreement, in flight across a barrier that the ranks call before it or
     * after it (agreements are numbered apart from collectives): each root starts it before
     * the barrier, the others after, and the root cannot see it complete before they do. */
    for (int root = 0; root < size; root++) {
        MPI_Request areq = MPI_REQUEST_NULL;
        int done = -1;
        CHECK_OK(MPI_Barrier(d));
        if (rank == root) {
            v = 0xB;
            CHECK_OK(MPIX_Comm_iagree(d, &v, &areq));
            CHECK_OK(MPI_Test(&areq, &done, MPI_STATUS_IGNORE));
            CHECK(size == 1 || (done == 0 && v == 0xB));
            CHECK_OK(MPI_Barrier(d));
        } else {
            v = 0xD;
            CHECK_OK(MPI_Barrier(d));
            CHECK_OK(MPIX_Comm_iagree(d, &v, &areq));
        }
        if (areq != MPI_REQUEST_NULL) {
            CHECK_OK(MPI_Wait(&areq, MPI_STATUS_IGNORE));
        }
        CHECK(v == (size == 1 ? 0xB : 0x9));
    }
    EXPECT_CLASS(MPIX_Comm_iagree(d, NULL, &req), MPI_ERR_ARG);
    EXPECT_CLASS(MPIX_Comm_iagree(d, &v, NULL), MPI_ERR_ARG);

    /* Acknowledging: nothing failed, so nothing is acknowledged whatever the count. */
    int nacked = -1;
    CHECK_OK(MPIX_Comm_ack_failed(d, 0, &nacked));
    CHECK(nacked == 0);
    CHECK_OK(MPIX_Comm_ack_failed(d, size, &nacked));
    CHECK(nacked == 0);
    EXPECT_CLASS(MPIX_Comm_ack_failed(d, -1, &nacked), MPI_ERR_ARG);
    EXPECT_CLASS(MPIX_Comm_ack_failed(d, 1, NULL), MPI_ERR_ARG);

    /* Revoke while the others wait in receives. */
    int a = 0, b = 0;
    req = MPI_REQUEST_NULL;
    if (rank != 0) {
        CHECK_OK(MPI_Irecv(&b, 1, MPI_INT, 0, 7, d, &req));
    }
    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        CHECK_OK(MPIX_Comm_revoke(d));
    } else {
        EXPECT_CLASS(MPI_Recv(&a, 1, MPI_INT, MPI_ANY_SOURCE, 3, d, MPI_STATUS_IGNORE),
                     MPIX_ERR_REVOKED);
        EXPECT_CLASS(MPI_Wait(&req, MPI_STATUS_IGNORE), MPIX_ERR_REVOKED);
    }
    CHECK_OK(MPIX_Comm_is_revoked(d, &flag));
    CHECK(flag == 1);
    EXPECT_CLASS(MPI_Barrier(d), MPIX_ERR_REVOKED);
    EXPECT_CLASS(MPI_Send(&a, 1, MPI_INT, 0, 3, d), MPIX_ERR_REVOKED);
    int x = rank, sum = -1;
    CHECK_OK(MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(sum == size * (size - 1) / 2);

    /* Recovery on the revoked communicator. */
    v = rank == 0 ? 0x5 : 0x7;
    CHECK_OK(MPIX_Comm_agree(d, &v));
    CHECK(v == 0x5);
    MPI_Comm s;
    CHECK_OK(MPIX_Comm_shrink(d, &s));
    int sr = -1, ss = -1;
    CHECK_OK(MPI_Comm_rank(s, &sr));
    CHECK_OK(MPI_Comm_size(s, &ss));
    CHECK(sr == rank && ss == size);
    CHECK_OK(MPIX_Comm_is_revoked(s, &flag));
    CHECK(flag == 0);
    x = rank + 1;
    CHECK_OK(MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, s));
    CHECK(sum == size * (size + 1) / 2);
    CHECK_OK(MPI_Comm_free(&s));
    CHECK_OK(MPI_Comm_free(&d));
    return check_finish();
}
