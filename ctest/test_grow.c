/*
 * test_grow: nexar_grow at any rank count. The job grows by 2: rank 0 starts this program
 * again with the argument "newcomer" (found through /proc/self/exe). Every old rank checks that
 * it keeps its rank in the grown world of size+2 and that the old world still works; every
 * process (old or new) checks an allreduce over the grown world. Bad arguments give
 * NEXAR_ERR_ARG / NEXAR_ERR_COMM without communicating.
 */
#include "check.h"

#include <stdint.h>
#include <unistd.h>

#define ADD 2

/* allreduce of rank+1 over `c` must be size*(size+1)/2. */
static void check_sum(nexar_comm_t c)
{
    int r = -1, n = -1;
    CHECK_OK(nexar_comm_rank(c, &r));
    CHECK_OK(nexar_comm_size(c, &n));
    int64_t v = r + 1, sum = -1;
    CHECK_OK(nexar_allreduce(&v, &sum, 1, NEXAR_DTYPE_INT64, NEXAR_OP_SUM, c));
    CHECK(sum == (int64_t)n * (n + 1) / 2);
}

int main(int argc, char **argv)
{
    int rank, size;
    check_init(&argc, &argv, &rank, &size);
    if (argc > 1 && strcmp(argv[1], "newcomer") == 0) {
        CTX("a newcomer in the grown world");
        REQUIRE(size >= 1 + ADD && rank >= size - ADD);
        check_sum(NEXAR_COMM_WORLD);
        return check_finish(1);
    }

    CTX("bad arguments");
    nexar_comm_t g = NULL;
    const char *args[] = {"newcomer", NULL};
    EXPECT_CODE(nexar_grow(NEXAR_COMM_WORLD, 0, "x", args, &g), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_grow(NEXAR_COMM_WORLD, -1, "x", args, &g), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_grow(NEXAR_COMM_WORLD, ADD, "x", args, NULL), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_grow(NEXAR_COMM_SELF, ADD, "x", args, &g), NEXAR_ERR_COMM);
    CHECK(g == NULL);

    CTX("grow by %d", ADD);
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    REQUIRE(len > 0);
    self[len] = '\0';
    CHECK_OK(nexar_grow(NEXAR_COMM_WORLD, ADD, self, args, &g));
    int gr = -1, gs = -1;
    CHECK_OK(nexar_comm_rank(g, &gr));
    CHECK_OK(nexar_comm_size(g, &gs));
    CHECK(gr == rank);
    CHECK(gs == size + ADD);
    check_sum(g);

    CTX("the old world still works");
    check_sum(NEXAR_COMM_WORLD);
    CHECK_OK(nexar_comm_free(&g));
    return check_finish(1);
}
