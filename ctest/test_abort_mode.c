/*
 * test_abort_mode: with nexar_set_error_mode(NEXAR_ERRORS_ABORT), a failing call prints its
 * message and aborts the process instead of returning.
 *
 * Registered through expect_exit.cmake: the test passes only if the process (the job) ended
 * abnormally AND the output holds "aborting on error: nexar_comm_rank: argument `rank` is NULL".
 * Before that, in the default mode, the same bad call returns NEXAR_ERR_ARG, an unknown mode is
 * NEXAR_ERR_ARG, and successful calls keep working in abort mode. If any of that fails, or the
 * bad call returns, the program exits normally, which the registration counts as a failure.
 * Every rank makes the same bad call.
 */
#include "check.h"

int main(int argc, char **argv)
{
    int rank, size;
    check_init(&argc, &argv, &rank, &size);
    EXPECT_CODE(nexar_comm_rank(NEXAR_COMM_WORLD, NULL), NEXAR_ERR_ARG); /* default: return */
    EXPECT_CODE(nexar_set_error_mode(7), NEXAR_ERR_ARG);
    CHECK_OK(nexar_set_error_mode(NEXAR_ERRORS_ABORT));
    int r = -1;
    CHECK_OK(nexar_comm_rank(NEXAR_COMM_WORLD, &r)); /* successes are unaffected */
    CHECK(r == rank);
    CHECK_OK(nexar_barrier(NEXAR_COMM_WORLD));
    if (check_failures) {
        fprintf(stderr, "[rank %d] FAIL: checks before the bad call failed\n", rank);
        return 0;
    }
    fprintf(stderr, "[rank %d] making a bad call in abort mode\n", rank);
    fflush(stderr);
    nexar_comm_rank(NEXAR_COMM_WORLD, NULL);
    fprintf(stderr, "[rank %d] FAIL: the bad call returned in abort mode\n", rank);
    return 0;
}
