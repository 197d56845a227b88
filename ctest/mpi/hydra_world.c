/* MPI shim under an outside process manager (ctest/hydra.cmake runs it under mpiexec.hydra):
 * the world has exactly argv[1] ranks (so a fall-back to singletons cannot pass), and an
 * allreduce, an allgather and a bcast across it give the right results. Prints one line per
 * rank: "hydra world of N: rank R verified". */
#include "mpi_check.h"
#include <stdlib.h>

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    int rank = check_rank, size = -1;
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(argc == 2);
    int want = argc == 2 ? atoi(argv[1]) : -1;
    CHECK(size == want);

    long v = rank + 1, sum = 0;
    CHECK_OK(MPI_Allreduce(&v, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
    CHECK(sum == (long)size * (size + 1) / 2);

    int *all = malloc(sizeof(int) * (size_t)size);
    CHECK(all != NULL);
    if (all) {
        CHECK_OK(MPI_Allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD));
        for (int i = 0; i < size; i++) {
            CHECK(all[i] == i);
        }
        free(all);
    }

    int token = rank == size - 1 ? 4242 : 0;
    CHECK_OK(MPI_Bcast(&token, 1, MPI_INT, size - 1, MPI_COMM_WORLD));
    CHECK(token == 4242);

    int rc = check_finish();
    if (rc == 0) {
        printf("hydra world of %d: rank %d verified\n", size, rank);
    }
    return rc;
}
