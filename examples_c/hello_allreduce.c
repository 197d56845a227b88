/* hello_allreduce: initialize, learn rank and size, allreduce a vector (sum and max, out of
 * place and in place), check every element, print one line per rank.
 * Exits non-zero on any wrong result. Works at any number of ranks. */
#include <nexar.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4096

#define CHECK(call)                                                                         \
    do {                                                                                    \
        int rc_ = (call);                                                                   \
        if (rc_ != NEXAR_SUCCESS) {                                                         \
            fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, #call,      \
                    nexar_error_string(rc_), nexar_last_error_message());                   \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

static int failures = 0;

static void expect(int ok, int rank, const char *what, size_t i) {
    if (!ok && failures++ < 10)
        fprintf(stderr, "rank %d: %s wrong at element %zu\n", rank, what, i);
}

int main(int argc, char **argv) {
    CHECK(nexar_init(&argc, &argv));
    int rank, size;
    CHECK(nexar_comm_rank(NEXAR_COMM_WORLD, &rank));
    CHECK(nexar_comm_size(NEXAR_COMM_WORLD, &size));

    double *x = malloc(N * sizeof *x), *sum = malloc(N * sizeof *sum);
    int64_t *v = malloc(N * sizeof *v);
    if (!x || !sum || !v) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }

    /* x[i] = rank + i: the sum over ranks is size * i + size * (size - 1) / 2, exact in
     * double for these magnitudes. */
    for (size_t i = 0; i < N; i++) x[i] = (double)rank + (double)i;
    CHECK(nexar_allreduce(x, sum, N, NEXAR_DTYPE_DOUBLE, NEXAR_OP_SUM, NEXAR_COMM_WORLD));
    for (size_t i = 0; i < N; i++) {
        double want = (double)size * (double)i + (double)size * (size - 1) / 2.0;
        expect(sum[i] == want, rank, "double sum", i);
    }

    /* In place: v[i] = (rank * 7919 + i) % 1000, reduced with MAX. */
    for (size_t i = 0; i < N; i++) v[i] = ((int64_t)rank * 7919 + (int64_t)i) % 1000;
    CHECK(nexar_allreduce(NEXAR_IN_PLACE, v, N, NEXAR_DTYPE_INT64, NEXAR_OP_MAX,
                          NEXAR_COMM_WORLD));
    for (size_t i = 0; i < N; i++) {
        int64_t want = 0;
        for (int r = 0; r < size; r++) {
            int64_t c = ((int64_t)r * 7919 + (int64_t)i) % 1000;
            if (c > want) want = c;
        }
        expect(v[i] == want, rank, "int64 max (in place)", i);
    }

    /* Every rank must agree that every rank passed. */
    int bad = failures > 0, any_bad = 1;
    CHECK(nexar_allreduce(&bad, &any_bad, 1, NEXAR_DTYPE_INT32, NEXAR_OP_MAX, NEXAR_COMM_WORLD));

    printf("hello from rank %d of %d (%s): allreduce of %d elements %s\n", rank, size,
           nexar_version_string(), N, any_bad ? "FAILED" : "ok");
    free(x);
    free(sum);
    free(v);
    CHECK(nexar_finalize());
    return any_bad ? 1 : 0;
}
