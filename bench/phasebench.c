/* phasebench: where the time of small point-to-point messages goes, call by call, through the
 * MPI API only (one source builds against any MPI). Each call is bracketed by the x86 time-stamp
 * counter (rdtsc), so the figures are cycles of that counter per call, not instructions.
 *
 * Two patterns, 2 ranks (ranks above 1 only wait in MPI_Finalize):
 *   pingpong: rank 0 MPI_Send + MPI_Recv, rank 1 MPI_Recv + MPI_Send, 8 bytes; per round trip
 *             the whole, the send and the receive (which includes waiting for the other side).
 *   stream:   rank 0 posts 64 MPI_Isend of 8 bytes, MPI_Waitall, receives a 4-byte ack; rank 1
 *             posts 64 MPI_Irecv, MPI_Waitall, sends the ack (the osu_bw pattern); per window
 *             the whole, the posting, the Waitall and the ack.
 * A first pass warms up; the second is printed, one JSON object per rank and pattern.
 *
 * Build and run (nexar, then Open MPI):
 *   _install/bin/mpicc -O2 bench/phasebench.c -o /tmp/phasebench-nexar
 *   _install/bin/mpiexec -n 2 /tmp/phasebench-nexar [iterations]
 *   mpicc.openmpi -O2 bench/phasebench.c -o /tmp/phasebench-ompi
 *   mpirun.openmpi --oversubscribe -n 2 /tmp/phasebench-ompi [iterations]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>

enum { WINDOW = 64 };

typedef unsigned long long tsc_t;

static void pingpong(int rank, long n) {
  double buf = 0;
  for (int pass = 0; pass < 2; pass++) {
    tsc_t sent = 0, received = 0, start = __rdtsc();
    for (long i = 0; i < n; i++) {
      tsc_t t0 = __rdtsc(), t1, t2;
      if (rank == 0) {
        MPI_Send(&buf, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
        t1 = __rdtsc();
        MPI_Recv(&buf, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        t2 = __rdtsc();
        sent += t1 - t0;
        received += t2 - t1;
      } else {
        MPI_Recv(&buf, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        t1 = __rdtsc();
        buf += 1;
        MPI_Send(&buf, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
        t2 = __rdtsc();
        received += t1 - t0;
        sent += t2 - t1;
      }
    }
    if (pass == 1)
      printf("{\"pattern\":\"pingpong\",\"rank\":%d,\"round_trip\":%.0f,\"send\":%.0f,"
             "\"recv\":%.0f}\n",
             rank, (double)(__rdtsc() - start) / n, (double)sent / n, (double)received / n);
  }
  if (rank == 1 && buf != 2.0 * n) {
    fprintf(stderr, "phasebench: ping-pong value %.0f, expected %.0f\n", buf, 2.0 * n);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
}

static void stream(int rank, long n) {
  char data[8] = {0}, ack[4] = {0};
  MPI_Request req[WINDOW];
  for (int pass = 0; pass < 2; pass++) {
    tsc_t post = 0, wait = 0, acked = 0, start = __rdtsc();
    for (long it = 0; it < n; it++) {
      tsc_t t0 = __rdtsc(), t1, t2;
      if (rank == 0) {
        data[0] = (char)it;
        for (int j = 0; j < WINDOW; j++)
          MPI_Isend(data, 8, MPI_BYTE, 1, 10, MPI_COMM_WORLD, &req[j]);
        t1 = __rdtsc();
        MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE);
        t2 = __rdtsc();
        MPI_Recv(ack, 4, MPI_BYTE, 1, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        for (int j = 0; j < WINDOW; j++)
          MPI_Irecv(data, 8, MPI_BYTE, 0, 10, MPI_COMM_WORLD, &req[j]);
        t1 = __rdtsc();
        MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE);
        t2 = __rdtsc();
        if (data[0] != (char)it) {
          fprintf(stderr, "phasebench: window %ld got stamp %d\n", it, data[0]);
          MPI_Abort(MPI_COMM_WORLD, 3);
        }
        MPI_Send(ack, 4, MPI_BYTE, 0, 11, MPI_COMM_WORLD);
      }
      tsc_t t3 = __rdtsc();
      post += t1 - t0;
      wait += t2 - t1;
      acked += t3 - t2;
    }
    if (pass == 1)
      printf("{\"pattern\":\"stream\",\"rank\":%d,\"window\":%.0f,\"post\":%.0f,\"waitall\":%.0f,"
             "\"ack\":%.0f,\"messages\":%d}\n",
             rank, (double)(__rdtsc() - start) / n, (double)post / n, (double)wait / n,
             (double)acked / n, WINDOW);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long n = argc > 1 ? atol(argv[1]) : 100000;
  if (rank < 2) {
    pingpong(rank, n);
    stream(rank, n / 50 > 0 ? n / 50 : 1);
  }
  MPI_Finalize();
  return 0;
}
