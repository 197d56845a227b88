/*
 * mpi_check.h: assertions of the MPI shim tests (ctest/mpi).
 *
 *   CHECK(cond)        soft: report and count a failure, keep going
 *   CHECK_OK(call)     fatal: `call` must return MPI_SUCCESS, else report and MPI_Abort
 *   EXPECT_CLASS(call, class)  soft: `call` must return a code of error class `class`
 *
 * Reports name the rank, the line and the expression. A test ends with
 * `return check_finish();` (MPI_Finalize, then 0 only if nothing failed on this rank).
 */
#ifndef NEXAR_MPI_CHECK_H
#define NEXAR_MPI_CHECK_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_rank = -1;
static int check_failures = 0;

#define CHECK(cond)                                                                    \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            check_failures++;                                                          \
            fprintf(stderr, "[rank %d] %s:%d: CHECK failed: %s\n", check_rank,       \
                    __FILE__, __LINE__, #cond);                                        \
        }                                                                              \
    } while (0)

static inline void check_describe(int rc, const char *expr, const char *file, int line)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    msg[0] = '\0';
    MPI_Error_string(rc, msg, &len);
    fprintf(stderr, "[rank %d] %s:%d: %s returned %d (%s)\n", check_rank, file, line, expr, rc,
            msg);
}

#define CHECK_OK(call)                                                                 \
    do {                                                                               \
        int check_rc_ = (call);                                                        \
        if (check_rc_ != MPI_SUCCESS) {                                                \
            check_describe(check_rc_, #call, __FILE__, __LINE__);                      \
            MPI_Abort(MPI_COMM_WORLD, 1);                                              \
        }                                                                              \
    } while (0)

#define EXPECT_CLASS(call, want)                                                       \
    do {                                                                               \
        int check_rc_ = (call), check_class_ = -1;                                     \
        MPI_Error_class(check_rc_, &check_class_);                                     \
        if (check_class_ != (want)) {                                                  \
            check_failures++;                                                          \
            check_describe(check_rc_, #call, __FILE__, __LINE__);                      \
            fprintf(stderr, "[rank %d]   expected error class %d (%s), got %d\n",       \
                    check_rank, (want), #want, check_class_);                          \
        }                                                                              \
    } while (0)

static inline void check_init(int *argc, char ***argv)
{
    CHECK_OK(MPI_Init(argc, argv));
    CHECK_OK(MPI_Comm_rank(MPI_COMM_WORLD, &check_rank));
}

static inline int check_finish(void)
{
    CHECK_OK(MPI_Finalize());
    if (check_failures) {
        fprintf(stderr, "[rank %d] %d check(s) failed\n", check_rank, check_failures);
        return 1;
    }
    return 0;
}

#endif
