/* emptybench: the time of collectives that move no byte (count 0), through the MPI API only,
 * so one source builds against any MPI and the numbers compare (issue 17: "zero-byte and
 * zero-count collectives return at once"; IMB runs every collective at 0 bytes first).
 *
 * For each call: 1,000 warm-up calls, then 20,000 timed ones; the figure is the mean time per
 * call, the maximum over ranks, printed by rank 0 as one JSON object a line. Nothing is
 * verified: no data moves (a call that fails aborts the job, MPI_ERRORS_ARE_FATAL).
 *
 * Build and run (nexar, then Open MPI):
 *   _install/bin/mpicc -O2 bench/emptybench.c -o /tmp/emptybench-nexar
 *   _install/bin/mpiexec -n 2 /tmp/emptybench-nexar
 *   mpicc.openmpi -O2 bench/emptybench.c -o /tmp/emptybench-ompi
 *   mpirun.openmpi --oversubscribe -n 2 /tmp/emptybench-ompi
 */
#include <mpi.h>
#include <stdio.h>

enum { WARMUP = 1000, ITERS = 20000, CALLS = 8 };

static const char *const NAMES[CALLS] = {
    "allreduce", "bcast", "reduce", "allgather", "gather", "alltoall", "iallreduce+wait",
    "ibcast+wait"};

/* One zero-count call of kind `which` on `c`. */
static void call(int which, MPI_Comm c) {
  double s = 0, r = 0;
  MPI_Request q;
  switch (which) {
  case 0: MPI_Allreduce(&s, &r, 0, MPI_DOUBLE, MPI_SUM, c); break;
  case 1: MPI_Bcast(&s, 0, MPI_DOUBLE, 0, c); break;
  case 2: MPI_Reduce(&s, &r, 0, MPI_DOUBLE, MPI_SUM, 0, c); break;
  case 3: MPI_Allgather(&s, 0, MPI_DOUBLE, &r, 0, MPI_DOUBLE, c); break;
  case 4: MPI_Gather(&s, 0, MPI_DOUBLE, &r, 0, MPI_DOUBLE, 0, c); break;
  case 5: MPI_Alltoall(&s, 0, MPI_DOUBLE, &r, 0, MPI_DOUBLE, c); break;
  case 6:
    MPI_Iallreduce(&s, &r, 0, MPI_DOUBLE, MPI_SUM, c, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    break;
  case 7:
    MPI_Ibcast(&s, 0, MPI_DOUBLE, 0, c, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    break;
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int w = 0; w < CALLS; w++) {
    for (int i = 0; i < WARMUP; i++) call(w, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    for (int i = 0; i < ITERS; i++) call(w, MPI_COMM_WORLD);
    double us = (MPI_Wtime() - t) / ITERS * 1e6, worst;
    MPI_Reduce(&us, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
      printf("{\"benchmark\":\"empty-%s\",\"ranks\":%d,\"bytes\":0,\"mean_us\":%.4f}\n", NAMES[w],
             size, worst);
  }
  MPI_Finalize();
  return 0;
}
