/*
 * check.h: the assertion macros every C test of the nexar ABI shares.
 *
 *   CHECK(cond)             soft: report and count a failure, keep going
 *   EXPECT_CODE(call, code) soft: `call` must return exactly `code`
 *   CHECK_OK(call)          fatal: `call` must return NEXAR_SUCCESS; otherwise report and exit(1)
 *                           at once (a failed communication call may leave ranks out of step, so
 *                           going on could only hang; under nexarrun the other ranks are ended)
 *   REQUIRE(cond)           fatal CHECK
 *   CTX(fmt, ...)           describe the case being run; printed with every failure
 *
 * Every report names the rank, the source line, the expression, the returned code with its
 * nexar_error_string and the calling thread's nexar_last_error_message(). A test ends with
 * `return check_finish(1);` (finalize, then exit status 0 only if nothing failed on this rank).
 */
#ifndef NEXAR_CTEST_CHECK_H
#define NEXAR_CTEST_CHECK_H

#include <nexar.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* World rank for messages (-1 until check_init). */
static int check_rank = -1;
/* Failures seen on this rank (all threads). */
static int check_failures = 0;
/* The case being run (see CTX); thread-local so threaded tests can describe their own. */
static _Thread_local char check_ctx[256];

#define CHECK_MAX_REPORTS 40

static inline void check_vreport(const char *file, int line, const char *what, const char *fmt,
                                 va_list ap)
{
    /* Counted with a GCC builtin so concurrent threads neither lose failures nor race. */
    int n = __atomic_add_fetch(&check_failures, 1, __ATOMIC_SEQ_CST);
    if (n > CHECK_MAX_REPORTS) {
        return;
    }
    char detail[512];
    vsnprintf(detail, sizeof detail, fmt, ap);
    const char *msg = nexar_last_error_message();
    fprintf(stderr, "[rank %d] %s:%d: %s failed: %s%s%s%s\n    last error: \"%s\"\n", check_rank,
            file, line, what, detail, check_ctx[0] ? " [case: " : "", check_ctx,
            check_ctx[0] ? "]" : "", msg ? msg : "(NULL)");
    if (n == CHECK_MAX_REPORTS) {
        fprintf(stderr, "[rank %d] (further failures are counted, not printed)\n", check_rank);
    }
    fflush(stderr);
}

static inline void check_report(const char *file, int line, const char *what, const char *fmt,
                                ...)
{
    va_list ap;
    va_start(ap, fmt);
    check_vreport(file, line, what, fmt, ap);
    va_end(ap);
}

static inline void check_fatal(void)
{
    fprintf(stderr, "[rank %d] fatal failure: exiting\n", check_rank);
    fflush(stderr);
    exit(1);
}

static inline int check_code(const char *file, int line, const char *expr, int got, int want)
{
    if (got == want) {
        return 1;
    }
    check_report(file, line, "EXPECT_CODE", "%s returned %d (%s), expected %d (%s)", expr, got,
                 nexar_error_string(got), want, nexar_error_string(want));
    return 0;
}

/* Sets the case description printed with failures (printf-style). */
static inline void check_set_ctx(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(check_ctx, sizeof check_ctx, fmt, ap);
    va_end(ap);
}

#define CTX(...) check_set_ctx(__VA_ARGS__)

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            check_report(__FILE__, __LINE__, "CHECK", "%s", #cond);                  \
        }                                                                            \
    } while (0)

#define REQUIRE(cond)                                                                \
    do {                                                                             \
        if (!(cond)) {                                                               \
            check_report(__FILE__, __LINE__, "REQUIRE", "%s", #cond);                \
            check_fatal();                                                           \
        }                                                                            \
    } while (0)

#define EXPECT_CODE(call, code) ((void)check_code(__FILE__, __LINE__, #call, (call), (code)))

#define CHECK_OK(call)                                                               \
    do {                                                                             \
        if (!check_code(__FILE__, __LINE__, #call, (call), NEXAR_SUCCESS)) {         \
            check_fatal();                                                           \
        }                                                                            \
    } while (0)

/* nexar_init + rank/size of the world. */
static inline void check_init(int *argc, char ***argv, int *rank, int *size)
{
    CHECK_OK(nexar_init(argc, argv));
    CHECK_OK(nexar_comm_rank(NEXAR_COMM_WORLD, rank));
    CHECK_OK(nexar_comm_size(NEXAR_COMM_WORLD, size));
    check_rank = *rank;
}

/* Ends a test: optionally finalizes, prints a verdict, returns the exit status. */
static inline int check_finish(int finalize)
{
    if (finalize) {
        check_ctx[0] = '\0';
        CHECK_OK(nexar_finalize());
    }
    int n = __atomic_load_n(&check_failures, __ATOMIC_SEQ_CST);
    if (n != 0) {
        fprintf(stderr, "[rank %d] FAILED: %d failure(s)\n", check_rank, n);
        return 1;
    }
    if (check_rank <= 0) {
        printf("PASSED\n");
    }
    return 0;
}

#endif /* NEXAR_CTEST_CHECK_H */
