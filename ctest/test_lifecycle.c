/*
 * test_lifecycle: what may be called when, through the whole life of a process.
 *
 *  - before nexar_init: nexar_initialized / nexar_finalized report 0; communication and
 *    communicator calls (comm_rank, comm_size, barrier, send, recv, allreduce, comm_dup, wait)
 *    and nexar_finalize return NEXAR_ERR_NOT_INITIALIZED; nexar_wtime, nexar_version*,
 *    nexar_error_string and nexar_last_error_message work (the last is empty until a failure);
 *  - nexar_init with a malformed NEXAR_* variable fails with NEXAR_ERR_BOOTSTRAP and leaves
 *    nexar uninitialized (the configuration is read before the job is joined, so it can be
 *    fixed and init called again);
 *  - nexar_init(NULL, NULL) works; a second nexar_init fails with NEXAR_ERR_ARG and leaves
 *    argc / argv alone;
 *  - nexar_wtime is monotonic (also across init), has fine resolution and tracks a sleep;
 *  - nexar_version matches nexar_version_string ("nexar X.Y.Z"), parts may be NULL;
 *  - after nexar_finalize: both flags are 1; calls return NEXAR_ERR_FINALIZED (including a wait on
 *    a request made before, complete or still pending); a second finalize and a re-init fail
 *    with NEXAR_ERR_FINALIZED.
 */
#include "check.h"

#include <stdint.h>
#include <time.h>

#define W NEXAR_COMM_WORLD

int main(int argc, char **argv)
{
    int flag = -1, r = -1, x = 5, y = 0;
    nexar_request_t forged = (nexar_request_t)(uintptr_t)0x200000000001ull;
    nexar_comm_t nc = NULL;

    CTX("before nexar_init");
    CHECK(nexar_last_error_message() != NULL && nexar_last_error_message()[0] == '\0');
    CHECK_OK(nexar_initialized(&flag));
    CHECK(flag == 0);
    CHECK_OK(nexar_finalized(&flag));
    CHECK(flag == 0);
    EXPECT_CODE(nexar_comm_rank(W, &r), NEXAR_ERR_NOT_INITIALIZED);
    CHECK(r == -1);
    CHECK(strlen(nexar_last_error_message()) > 0);
    EXPECT_CODE(nexar_comm_size(W, &r), NEXAR_ERR_NOT_INITIALIZED);
    EXPECT_CODE(nexar_barrier(W), NEXAR_ERR_NOT_INITIALIZED);
    EXPECT_CODE(nexar_send(&x, 1, NEXAR_DTYPE_INT32, 0, 0, W), NEXAR_ERR_NOT_INITIALIZED);
    EXPECT_CODE(nexar_recv(&y, 1, NEXAR_DTYPE_INT32, 0, 0, W, NULL), NEXAR_ERR_NOT_INITIALIZED);
    EXPECT_CODE(nexar_allreduce(&x, &y, 1, NEXAR_DTYPE_INT32, NEXAR_OP_SUM, W),
                NEXAR_ERR_NOT_INITIALIZED);
    EXPECT_CODE(nexar_comm_dup(W, &nc), NEXAR_ERR_NOT_INITIALIZED);
    EXPECT_CODE(nexar_wait(&forged, NULL), NEXAR_ERR_NOT_INITIALIZED);
    EXPECT_CODE(nexar_finalize(), NEXAR_ERR_NOT_INITIALIZED);
    CHECK(nc == NULL && y == 0);
    double t_pre = nexar_wtime();
    CHECK(t_pre >= 0.0);
    CHECK(strcmp(nexar_error_string(NEXAR_ERR_NOT_INITIALIZED), "unknown error code") != 0);

    CTX("version");
    int maj = -1, min = -1, pat = -1;
    CHECK_OK(nexar_version(&maj, &min, &pat));
    CHECK(maj >= 0 && min >= 0 && pat >= 0);
    char want[64];
    snprintf(want, sizeof want, "nexar %d.%d.%d", maj, min, pat);
    const char *vs = nexar_version_string();
    REQUIRE(vs != NULL);
    CHECK(strcmp(vs, want) == 0);
    int only = -1;
    CHECK_OK(nexar_version(NULL, &only, NULL));
    CHECK(only == min);

    CTX("nexar_init with a malformed NEXAR_TRANSPORT");
    const char *saved = getenv("NEXAR_TRANSPORT");
    char keep[64] = "";
    if (saved) {
        snprintf(keep, sizeof keep, "%s", saved);
    }
    REQUIRE(setenv("NEXAR_TRANSPORT", "carrier-pigeon", 1) == 0);
    EXPECT_CODE(nexar_init(NULL, NULL), NEXAR_ERR_BOOTSTRAP);
    CHECK(strstr(nexar_last_error_message(), "NEXAR_TRANSPORT") != NULL);
    CHECK_OK(nexar_initialized(&flag));
    CHECK(flag == 0);
    EXPECT_CODE(nexar_barrier(W), NEXAR_ERR_NOT_INITIALIZED);
    REQUIRE((saved ? setenv("NEXAR_TRANSPORT", keep, 1) : unsetenv("NEXAR_TRANSPORT")) == 0);

    CTX("nexar_init(NULL, NULL)");
    CHECK_OK(nexar_init(NULL, NULL));
    CHECK_OK(nexar_initialized(&flag));
    CHECK(flag == 1);
    CHECK_OK(nexar_finalized(&flag));
    CHECK(flag == 0);
    int rank = -1, size = -1;
    CHECK_OK(nexar_comm_rank(W, &rank));
    CHECK_OK(nexar_comm_size(W, &size));
    CHECK(rank >= 0 && size >= 1 && rank < size);
    check_rank = rank;

    CTX("second nexar_init");
    int argc0 = argc;
    char **argv0 = argv;
    EXPECT_CODE(nexar_init(&argc, &argv), NEXAR_ERR_ARG);
    CHECK(argc == argc0 && argv == argv0);
    CHECK_OK(nexar_initialized(&flag));
    CHECK(flag == 1);
    CHECK_OK(nexar_barrier(W)); /* still running */

    CTX("nexar_wtime");
    double prev = nexar_wtime(), min_step = 1.0;
    CHECK(prev >= t_pre);
    for (int i = 0; i < 20000; i++) {
        double t = nexar_wtime();
        CHECK(t >= prev);
        if (t > prev && t - prev < min_step) {
            min_step = t - prev;
        }
        prev = t;
    }
    CHECK(min_step < 1e-4); /* fine-grained: consecutive reads differ by far less */
    struct timespec ts = { 0, 20 * 1000 * 1000 };
    double before = nexar_wtime();
    nanosleep(&ts, NULL);
    double slept = nexar_wtime() - before;
    CHECK(slept >= 0.019 && slept < 5.0);

    CTX("work before finalize");
    int sum = 0;
    CHECK_OK(nexar_allreduce(&rank, &sum, 1, NEXAR_DTYPE_INT32, NEXAR_OP_SUM, W));
    CHECK(sum == size * (size - 1) / 2);
    nexar_request_t done = NEXAR_REQUEST_NULL, pending = NEXAR_REQUEST_NULL;
    CHECK_OK(nexar_isend(&x, 1, NEXAR_DTYPE_INT32, rank, 7, W, &done));
    static int never;
    CHECK_OK(nexar_irecv(&never, 1, NEXAR_DTYPE_INT32, rank, 8, W, &pending));
    CHECK_OK(nexar_comm_dup(W, &nc));

    CTX("nexar_finalize");
    CHECK_OK(nexar_finalize());
    CHECK_OK(nexar_initialized(&flag));
    CHECK(flag == 1);
    CHECK_OK(nexar_finalized(&flag));
    CHECK(flag == 1);

    CTX("after nexar_finalize");
    r = -1;
    EXPECT_CODE(nexar_comm_rank(W, &r), NEXAR_ERR_FINALIZED);
    CHECK(r == -1);
    EXPECT_CODE(nexar_comm_size(nc, &r), NEXAR_ERR_FINALIZED);
    EXPECT_CODE(nexar_barrier(W), NEXAR_ERR_FINALIZED);
    EXPECT_CODE(nexar_send(&x, 1, NEXAR_DTYPE_INT32, 0, 0, W), NEXAR_ERR_FINALIZED);
    EXPECT_CODE(nexar_allreduce(&x, &y, 1, NEXAR_DTYPE_INT32, NEXAR_OP_SUM, W),
                NEXAR_ERR_FINALIZED);
    EXPECT_CODE(nexar_comm_dup(W, &nc), NEXAR_ERR_FINALIZED);
    EXPECT_CODE(nexar_wait(&done, NULL), NEXAR_ERR_FINALIZED);
    EXPECT_CODE(nexar_wait(&pending, NULL), NEXAR_ERR_FINALIZED);
    CHECK(strlen(nexar_last_error_message()) > 0);
    CHECK(nexar_wtime() >= prev);
    EXPECT_CODE(nexar_finalize(), NEXAR_ERR_FINALIZED);
    EXPECT_CODE(nexar_init(NULL, NULL), NEXAR_ERR_FINALIZED);
    CHECK_OK(nexar_finalized(&flag));
    CHECK(flag == 1);
    return check_finish(0);
}
