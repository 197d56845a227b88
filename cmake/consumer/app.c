/* A tiny outside user of nexar: allreduce the ranks and check the sum. */
#include <nexar.h>

#include <stdio.h>

#ifndef NEXAR_CONSUMER_KIND
#define NEXAR_CONSUMER_KIND "pkg-config"
#endif

int main(int argc, char **argv) {
    int rank = -1, size = -1;
    if (nexar_init(&argc, &argv) != NEXAR_SUCCESS) {
        fprintf(stderr, "nexar_init: %s\n", nexar_last_error_message());
        return 1;
    }
    nexar_comm_rank(NEXAR_COMM_WORLD, &rank);
    nexar_comm_size(NEXAR_COMM_WORLD, &size);
    long long mine = rank + 1, sum = 0;
    int rc = nexar_allreduce(&mine, &sum, 1, NEXAR_DTYPE_INT64, NEXAR_OP_SUM, NEXAR_COMM_WORLD);
    int ok = rc == NEXAR_SUCCESS && sum == (long long)size * (size + 1) / 2;
    printf("consumer (%s, %s): rank %d of %d: sum %lld: %s\n", NEXAR_CONSUMER_KIND,
           nexar_version_string(), rank, size, sum, ok ? "ok" : "FAILED");
    nexar_finalize();
    return ok ? 0 : 1;
}
