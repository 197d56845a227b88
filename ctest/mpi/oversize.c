/*
 * oversize.c: a message larger than the transport's limit (run with NEXAR_MAX_MESSAGE=4096) is
 * refused at the sender with an error, and nothing else happens: the receiver does not take
 * the sender for failed, and both go on talking. Before, over shared memory, the receiver read
 * the oversized frame as a protocol violation and declared the healthy sender failed.
 * Prints "rank R: oversize refused, peers fine" and exits 0 only then. 2 ranks or more (ranks
 * above 1 only take part in the final barrier).
 */
#include "mpi_check.h"

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    int rank = -1, size = -1;
    CHECK_OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    static char big[8192];
    int small = 42;
    if (rank == 0) {
        int rc = MPI_Send(big, (int)sizeof big, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
        CHECK(rc != MPI_SUCCESS);
        char msg[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(rc, msg, &len);
        CHECK(strstr(msg, "exceeds the limit") != NULL);
        printf("rank 0: the 8 KiB send failed: %s\n", msg);
        CHECK_OK(MPI_Send(&small, 1, MPI_INT, 1, 2, MPI_COMM_WORLD));
    } else if (rank == 1) {
        int got = 0;
        CHECK_OK(MPI_Recv(&got, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(got == 42);
        int flag = 1;
        CHECK_OK(MPI_Iprobe(0, 1, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
        CHECK(flag == 0);
    }
    /* Every rank still sees every other alive. */
    MPI_Group failed;
    int nfailed = -1;
    CHECK_OK(MPIX_Comm_get_failed(MPI_COMM_WORLD, &failed));
    CHECK_OK(MPI_Group_size(failed, &nfailed));
    CHECK(nfailed == 0);
    CHECK_OK(MPI_Group_free(&failed));
    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    printf("rank %d: oversize refused, peers fine\n", rank);
    CHECK_OK(MPI_Finalize());
    return 0;
}
