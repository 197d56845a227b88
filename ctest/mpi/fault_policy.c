/* What the launcher does when a rank dies (run under nexarrun at 2 or more ranks): the last
 * rank kills itself with SIGKILL after a barrier while the others run allreduces.
 *
 *   return: MPI_ERRORS_RETURN on MPI_COMM_WORLD declares that this rank handles errors, so the
 *           launcher leaves the survivors running; each gets an error from MPI_Allreduce
 *           naming the dead rank, prints it, and finalizes.
 *   fatal:  the default MPI_ERRORS_ARE_FATAL; the launcher terminates the job.
 *
 * Either way the job's exit status is the dead rank's (128 + SIGKILL = 137). */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define COUNT 1024

int main(int argc, char **argv)
{
    int returns = argc > 1 && strcmp(argv[1], "return") == 0;
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (returns) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == size - 1) {
        struct timespec t = {0, 100 * 1000 * 1000};
        nanosleep(&t, NULL);
        kill(getpid(), SIGKILL);
    }
    static double x[COUNT];
    /* Bounded (the launcher's --timeout guards it too): a dead rank must end it much sooner. */
    for (long i = 0; i < 10 * 1000 * 1000; i++) {
        for (int j = 0; j < COUNT; j++) {
            x[j] = rank + 1;
        }
        int rc = MPI_Allreduce(MPI_IN_PLACE, x, COUNT, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        if (rc != MPI_SUCCESS) {
            char msg[MPI_MAX_ERROR_STRING];
            int len = 0, cls = 0;
            MPI_Error_class(rc, &cls);
            MPI_Error_string(rc, msg, &len);
            printf("rank %d saw the failure (class %d): %s\n", rank, cls, msg);
            fflush(stdout);
            MPI_Finalize();
            return 0;
        }
        if (x[0] != size * (size + 1) / 2.0) {
            fprintf(stderr, "rank %d: wrong sum %g\n", rank, x[0]);
            return 1;
        }
    }
    fprintf(stderr, "rank %d: no failure was reported\n", rank);
    return 3;
}
