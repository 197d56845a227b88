/*
 * badarg_c: the bad-argument matrix of the C ABI, one case per process.
 *
 *   badarg_c <case>     run that case (under nexarrun at the rank count the case names)
 *   badarg_c --list     print every case as "<name> <ranks>"
 *   badarg_c --count N  exit 0 only if exactly N cases are compiled in (checks the CMake list)
 *
 * Every case is written once as CASE(name, ranks, code, func, what) { body }: the body
 * makes exactly one bad call (after whatever set-up it needs) and returns its status. The
 * harness initializes nexar (unless ranks is 0: a call before nexar_init, run as a singleton),
 * runs the body, and checks that the status is exactly `code` (the code include/nexar.h
 * documents) and that nexar_last_error_message() names the function `func` and contains `what`
 * (the problem: "`buf` is NULL", "negative", ...). Then the ranks still agree: a barrier and
 * finalize must succeed (except after cases that finalized themselves). The cases live in
 * badarg_c_pointers.h, badarg_c_values.h and badarg_c_handles.h (included below);
 * ctest/CMakeLists.txt reads their CASE lines to register one CTest per case, so they are the
 * only list. A crash, a hang or a wrong code fails that one test.
 *
 * Multi-rank cases make the same bad call on every rank; every such call fails before any
 * message moves, so the ranks stay in step.
 */
#include "check.h"

#include <limits.h>
#include <stdint.h>

#define W NEXAR_COMM_WORLD
#define I32 NEXAR_DTYPE_INT32
#define HUGE_I32 ((size_t)SIZE_MAX / 2 + 1) /* count * 4 overflows size_t */

#include "badarg_cases.h"

/* Set by a case that ended the library itself (finalize), so the harness does not again. */
static int case_finalized;
static int rank, size;

static int32_t sb[256] = { 1, 2, 3, 4 }, rb[256];
static size_t ones[64];

#include "badarg_c_pointers.h"
#include "badarg_c_values.h"
#include "badarg_c_handles.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: badarg_c <case> | --list | --count <n>\n");
        return 2;
    }
    int listed = badarg_list_or_count(argc, argv);
    if (listed >= 0) {
        return listed;
    }
    const struct badcase *c = find(argv[1]);
    if (!c) {
        fprintf(stderr, "badarg_c: unknown case '%s'\n", argv[1]);
        return 2;
    }
    CTX("%s", c->name);
    if (c->ranks > 0) {
        check_init(&argc, &argv, &rank, &size);
        REQUIRE(size <= 64);
    } else {
        size = 1;
    }
    for (int i = 0; i < 64; i++) {
        ones[i] = 1;
    }
    int rc = c->fn();
    const char *m = nexar_last_error_message();
    if (rc != c->code) {
        check_report(__FILE__, __LINE__, "case", "%s returned %d (%s), expected %d (%s)",
                     c->name, rc, nexar_error_string(rc), c->code, nexar_error_string(c->code));
    } else if (c->code != NEXAR_SUCCESS) {
        CHECK(m != NULL && m[0] != '\0');
        if (m && (!strstr(m, c->func) || !strstr(m, c->what))) {
            check_report(__FILE__, __LINE__, "message", "\"%s\" should name \"%s\" and say \"%s\"",
                         m, c->func, c->what);
        }
    }
    fprintf(stderr, "[rank %d] %s: returned %d (%s): \"%s\"\n", rank, c->name, rc,
            nexar_error_string(rc), m ? m : "(NULL)");
    if (c->ranks == 0) {
        check_init(&argc, &argv, &rank, &size); /* the library works after the refused call */
    }
    if (case_finalized) {
        return check_failures ? 1 : 0;
    }
    CHECK_OK(nexar_barrier(W)); /* every rank is still in step */
    return check_finish(1);
}
