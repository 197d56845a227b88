/* MPI shim: under the default MPI_ERRORS_ARE_FATAL a bad call ends the job with its error
 * class as exit status and a message naming the function (checked by expect_exit.cmake).
 * argv[1]: "rank" (bad rank to MPI_Send on the last rank), "spawn" (a program that cannot be
 * spawned, on the last rank) or "abort" (MPI_ERRORS_ABORT set, then a bad count). */
#include "mpi_check.h"

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    int size, x = 0;
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    const char *mode = argc > 1 ? argv[1] : "rank";
    if (check_rank == size - 1) {
        if (strcmp(mode, "spawn") == 0) {
            MPI_Comm inter;
            MPI_Comm_spawn("/nonexistent/none", MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter,
                           MPI_ERRCODES_IGNORE);
        } else if (strcmp(mode, "abort") == 0) {
            CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ABORT));
            MPI_Send(&x, -1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        } else {
            MPI_Send(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
        }
        fprintf(stderr, "the bad call returned\n");
        return 0;
    }
    /* The others wait in a barrier the failing rank never reaches: the launcher ends them. */
    MPI_Barrier(MPI_COMM_WORLD);
    return check_finish();
}
