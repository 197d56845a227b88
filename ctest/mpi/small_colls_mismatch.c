/*
 * small_colls_mismatch.c <case>: the last rank calls a different collective than the others
 * at one call, where at least one side runs on the communicator's shared flag area (nexar's
 * src/ops/flags.rs). Every rank must return an error that names the mismatch
 * (MPI_ERRORS_RETURN; a rank must not blame a peer that left after finding the mismatch), never
 * hang and never return success; each prints "rank R: mismatch named (class C) after T ms" and
 * exits 0 only then, and only if its MPI_Finalize then returns within 2 s.
 *
 * Cases (the others / the last rank):
 *   count        allreduce of 1 int / of 2 ints             (both on the flag area)
 *   kind         allreduce of 1 int / barrier                (both on the flag area)
 *   path         allreduce of 8 B / of 2 MiB                  (flag area / direct path)
 *   nonblocking  barrier / Ibarrier + Wait                    (flag area / frames: MPI never
 *                                                              matches the two kinds)
 *   bcast        barrier / bcast of 8 B from rank 0           (flag area / a receiver on the
 *                                                              frame path, which sends nothing)
 *   root         bcast of 8 B from rank 0 / from itself       (both on the flag area)
 *   reduce       reduce of 8 B to rank 0 / allreduce of 8 B   (both on the flag area)
 *   reduce_root  reduce of 8 B to rank 0 / to itself          (both on the flag area: the case
 *                                                              of two "roots" that hung before)
 *   bcast_reduce bcast of 8 B from rank 0 / reduce to rank 0  (both on the flag area)
 *   op           allreduce MPI_SUM / MPI_MAX                  (both on the flag area)
 *   type         allreduce of 2 MPI_INT / of 2 MPI_FLOAT      (both on the flag area)
 *
 * The message must name the differing field as the program wrote it: the cases kind, op and
 * type check for the MPI names (MPI_Allreduce and MPI_Barrier; MPI_SUM and MPI_MAX; MPI_INT32_T
 * and MPI_FLOAT).
 * A second argument `16M` makes the bcasts and reduces of the root, reduce, reduce_root and
 * bcast_reduce cases 16 MiB (the frame paths). CTest also runs the cases with the flag area
 * off (NEXAR_FLAGS_MAX=off) and strict checking on (NEXAR_STRICT_COLLECTIVES=1): there a bcast
 * root or a reduce leaf, which finishes without hearing from every member, must fail too.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const char *c = argc > 1 ? argv[1] : "";
    int big_calls = argc > 2 && !strcmp(argv[2], "16M");
    int last = rank == size - 1;
    /* Warm up: the flag area is set up by the first blocking barrier. */
    if (MPI_Barrier(MPI_COMM_WORLD) != MPI_SUCCESS) {
        printf("rank %d: the warm-up barrier failed\n", rank);
        return 2;
    }
    static int big[(2 << 20) / sizeof(int)], bigout[(2 << 20) / sizeof(int)];
    int small_a[2] = {1, 2}, small_b[2];
    int *a = small_a, *b = small_b, n = 2;
    if (big_calls) {
        n = (16 << 20) / (int)sizeof(int);
        a = calloc((size_t)n, sizeof(int));
        b = calloc((size_t)n, sizeof(int));
        if (!a || !b) {
            printf("rank %d: out of memory\n", rank);
            return 2;
        }
    }
    MPI_Request req;
    double t0 = MPI_Wtime();
    int rc;
    if (!strcmp(c, "count")) {
        rc = MPI_Allreduce(a, b, last ? 2 : 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    } else if (!strcmp(c, "kind")) {
        rc = last ? MPI_Barrier(MPI_COMM_WORLD)
                  : MPI_Allreduce(a, b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    } else if (!strcmp(c, "path")) {
        rc = last ? MPI_Allreduce(big, bigout, (int)(sizeof big / sizeof big[0]), MPI_INT,
                                  MPI_SUM, MPI_COMM_WORLD)
                  : MPI_Allreduce(a, b, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    } else if (!strcmp(c, "nonblocking")) {
        if (last) {
            rc = MPI_Ibarrier(MPI_COMM_WORLD, &req);
            if (rc == MPI_SUCCESS)
                rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
        } else {
            rc = MPI_Barrier(MPI_COMM_WORLD);
        }
    } else if (!strcmp(c, "bcast")) {
        rc = last ? MPI_Bcast(a, 2, MPI_INT, 0, MPI_COMM_WORLD) : MPI_Barrier(MPI_COMM_WORLD);
    } else if (!strcmp(c, "root")) {
        rc = MPI_Bcast(a, n, MPI_INT, last ? size - 1 : 0, MPI_COMM_WORLD);
    } else if (!strcmp(c, "reduce")) {
        rc = last ? MPI_Allreduce(a, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD)
                  : MPI_Reduce(a, b, n, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    } else if (!strcmp(c, "reduce_root")) {
        rc = MPI_Reduce(a, b, n, MPI_INT, MPI_SUM, last ? size - 1 : 0, MPI_COMM_WORLD);
    } else if (!strcmp(c, "op")) {
        rc = MPI_Allreduce(a, b, 2, MPI_INT, last ? MPI_MAX : MPI_SUM, MPI_COMM_WORLD);
    } else if (!strcmp(c, "type")) {
        float fa[2] = {1, 2}, fb[2];
        rc = last ? MPI_Allreduce(fa, fb, 2, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD)
                  : MPI_Allreduce(a, b, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    } else if (!strcmp(c, "bcast_reduce")) {
        rc = last ? MPI_Reduce(a, b, n, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD)
                  : MPI_Bcast(a, n, MPI_INT, 0, MPI_COMM_WORLD);
    } else {
        printf("rank %d: unknown case '%s'\n", rank, c);
        return 2;
    }
    double ms = (MPI_Wtime() - t0) * 1e3;
    if (big_calls) {
        free(a);
        free(b);
    }
    if (rc == MPI_SUCCESS) {
        printf("rank %d: %s: the call returned success\n", rank, c);
        fflush(stdout);
        return 1;
    }
    int cls = -1, len = 0;
    char msg[MPI_MAX_ERROR_STRING];
    MPI_Error_class(rc, &cls);
    MPI_Error_string(rc, msg, &len);
    if (!strstr(msg, "mismatch")) {
        printf("rank %d: %s: an error that names no mismatch (class %d): %s\n", rank, c, cls, msg);
        fflush(stdout);
        return 1;
    }
    const char *names[3][3] = {{"kind", "MPI_Allreduce", "MPI_Barrier"},
                               {"op", "MPI_SUM", "MPI_MAX"},
                               {"type", "MPI_INT32_T", "MPI_FLOAT"}};
    for (int i = 0; i < 3; i++) {
        if (strcmp(c, names[i][0]))
            continue;
        for (int j = 1; j < 3; j++) {
            if (!strstr(msg, names[i][j])) {
                printf("rank %d: %s: the message does not name %s: %s\n", rank, c, names[i][j],
                       msg);
                fflush(stdout);
                return 1;
            }
        }
    }
    if (cls != MPIX_ERR_COLL_MISMATCH) {
        printf("rank %d: %s: class %d, not MPIX_ERR_COLL_MISMATCH: %s\n", rank, c, cls, msg);
        fflush(stdout);
        return 1;
    }
    printf("rank %d: mismatch named (class %d) after %.1f ms: %s\n", rank, cls, ms, msg);
    fflush(stdout);
    /* Finalize must not hang, whatever the mismatch left behind (issue: at most 2 s). */
    struct timespec f0, f1;
    clock_gettime(CLOCK_MONOTONIC, &f0);
    MPI_Finalize();
    clock_gettime(CLOCK_MONOTONIC, &f1);
    double fin = (double)(f1.tv_sec - f0.tv_sec) + (double)(f1.tv_nsec - f0.tv_nsec) * 1e-9;
    if (fin > 2.0) {
        printf("rank %d: %s: MPI_Finalize took %.2f s after the mismatch\n", rank, c, fin);
        fflush(stdout);
        return 1;
    }
    return 0;
}
