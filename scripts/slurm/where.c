/* The program scripts/slurm/check.sh starts under Slurm: every rank checks the world size it
 * was told (argv[1]) and an allreduce, and rank 0 prints, in rank order, where each rank ran:
 *   rank R/N node NODE step STEP
 * NODE is Slurm's node name (SLURMD_NODENAME), STEP the job step (SLURM_STEP_ID; "none" outside
 * a step), so the script can tell which ranks srun started on which node. Exits 1 on a wrong
 * size or sum. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE 128

static const char *env_or(const char *name, const char *fallback)
{
    const char *v = getenv(name);
    return v && *v ? v : fallback;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int want = argc > 1 ? atoi(argv[1]) : size;
    int one = rank + 1, sum = 0;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int ok = size == want && sum == size * (size + 1) / 2;

    char mine[LINE];
    snprintf(mine, sizeof mine, "rank %d/%d node %s step %s", rank, size,
             env_or("SLURMD_NODENAME", "none"), env_or("SLURM_STEP_ID", "none"));
    char *all = rank == 0 ? malloc((size_t)size * LINE) : NULL;
    MPI_Gather(mine, LINE, MPI_CHAR, all, LINE, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        for (int r = 0; r < size; r++)
            printf("%s\n", all + (size_t)r * LINE);
        free(all);
    }
    if (!ok)
        fprintf(stderr, "rank %d: size %d (expected %d), sum %d\n", rank, size, want, sum);
    MPI_Finalize();
    return ok ? 0 : 1;
}
