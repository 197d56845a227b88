/*
 * test_abort: nexar_abort(code) on the last rank ends the whole job with that exit status.
 * Registered through expect_exit.cmake, which checks the launcher's (or, alone, the process's)
 * exact exit status: 3 by default; `test_abort 0` must give 1 (a launcher must see a failure)
 * and `test_abort 256` must not give 0.
 *
 * The other ranks wait in a barrier that can never complete; should it return (their peer is
 * gone), they stay until the launcher ends them, so the job's status can only come from the
 * aborting rank. Without a launcher this is a world of one and rank 0 aborts.
 */
#include "check.h"

#include <time.h>

int main(int argc, char **argv)
{
    int rank, size;
    int code = argc > 1 ? atoi(argv[1]) : 3;
    check_init(&argc, &argv, &rank, &size);
    CHECK_OK(nexar_barrier(NEXAR_COMM_WORLD));
    if (rank == size - 1) {
        fprintf(stderr, "[rank %d] calling nexar_abort(%d)\n", rank, code);
        fflush(stderr);
        nexar_abort(code);
        fprintf(stderr, "[rank %d] FAIL: nexar_abort returned\n", rank);
        return 0;
    }
    int rc = nexar_barrier(NEXAR_COMM_WORLD);
    fprintf(stderr, "[rank %d] barrier returned %d (%s); waiting to be ended\n", rank, rc,
            nexar_error_string(rc));
    struct timespec ts = { 1, 0 };
    for (int i = 0; i < 40; i++) {
        nanosleep(&ts, NULL);
    }
    return 0;
}
