/* split: split the world by rank parity (reverse rank order inside each half), duplicate the
 * halves, run collectives and point-to-point on them, free them and check that a freed handle
 * is rejected with NEXAR_ERR_COMM. Exits non-zero on any wrong result. Works at any number of
 * ranks. */
#include <nexar.h>

#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                         \
    do {                                                                                    \
        int rc_ = (call);                                                                   \
        if (rc_ != NEXAR_SUCCESS) {                                                         \
            fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, #call,      \
                    nexar_error_string(rc_), nexar_last_error_message());                   \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

#define EXPECT(cond)                                                                        \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            fprintf(stderr, "rank %d: %s:%d: expected %s\n", world_rank, __FILE__, __LINE__, \
                    #cond);                                                                 \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

int main(int argc, char **argv) {
    CHECK(nexar_init(&argc, &argv));
    int world_rank, world_size;
    CHECK(nexar_comm_rank(NEXAR_COMM_WORLD, &world_rank));
    CHECK(nexar_comm_size(NEXAR_COMM_WORLD, &world_size));

    /* Parity halves; key = -rank orders each half by decreasing world rank. */
    int color = world_rank % 2;
    nexar_comm_t half = NULL;
    CHECK(nexar_comm_split(NEXAR_COMM_WORLD, color, -world_rank, &half));
    EXPECT(half != NULL);

    int hrank, hsize;
    CHECK(nexar_comm_rank(half, &hrank));
    CHECK(nexar_comm_size(half, &hsize));
    /* Members of my half: color, color + 2, ...; the largest has sub-rank 0. */
    int members = (world_size - color + 1) / 2;
    int largest = color + 2 * (members - 1);
    EXPECT(hsize == members);
    EXPECT(hrank == (largest - world_rank) / 2);

    /* A duplicate: same members, separate traffic. */
    nexar_comm_t dup = NULL;
    CHECK(nexar_comm_dup(half, &dup));
    int drank, dsize;
    CHECK(nexar_comm_rank(dup, &drank));
    CHECK(nexar_comm_size(dup, &dsize));
    EXPECT(drank == hrank && dsize == hsize);

    /* Sum of world ranks of my half, on the duplicate: color + (color+2) + ... */
    long long mine = world_rank, total = -1, want = 0;
    for (int r = color; r < world_size; r += 2) want += r;
    CHECK(nexar_allreduce(&mine, &total, 1, NEXAR_DTYPE_INT64, NEXAR_OP_SUM, dup));
    EXPECT(total == want);

    /* Broadcast from sub-rank 0 (the largest world rank of the half) on the half itself. */
    int from_root = hrank == 0 ? 1000 + world_rank : -1;
    CHECK(nexar_bcast(&from_root, 1, NEXAR_DTYPE_INT32, 0, half));
    EXPECT(from_root == 1000 + largest);

    /* A message on `dup` is not seen by a receive on `half`: send to my own rank on dup with
     * tag 5, then probe on half (nothing) and receive on dup. */
    int payload = 77 + world_rank, got = 0, flag = 1;
    CHECK(nexar_send(&payload, 1, NEXAR_DTYPE_INT32, drank, 5, dup));
    CHECK(nexar_iprobe(NEXAR_ANY_SOURCE, NEXAR_ANY_TAG, half, &flag, NULL));
    EXPECT(flag == 0);
    nexar_status_t st;
    CHECK(nexar_recv(&got, 1, NEXAR_DTYPE_INT32, NEXAR_ANY_SOURCE, 5, dup, &st));
    EXPECT(got == payload && st.source == drank && st.tag == 5);

    /* A split where only world rank 0 takes part: everybody else gets NULL. */
    nexar_comm_t solo = (nexar_comm_t)&world_rank; /* poisoned: must be overwritten */
    CHECK(nexar_comm_split(NEXAR_COMM_WORLD, world_rank == 0 ? 0 : NEXAR_UNDEFINED, 0, &solo));
    if (world_rank == 0) {
        int s;
        EXPECT(solo != NULL);
        CHECK(nexar_comm_size(solo, &s));
        EXPECT(s == 1);
        CHECK(nexar_comm_free(&solo));
    }
    EXPECT(solo == NULL);

    /* Free: the handle variable becomes NULL, and the old value is rejected everywhere. */
    nexar_comm_t stale = dup;
    CHECK(nexar_comm_free(&dup));
    EXPECT(dup == NULL);
    int r = -1;
    EXPECT(nexar_comm_rank(stale, &r) == NEXAR_ERR_COMM);
    EXPECT(r == -1); /* out-parameters are written only on success */
    EXPECT(nexar_barrier(stale) == NEXAR_ERR_COMM);
    EXPECT(nexar_comm_free(&stale) == NEXAR_ERR_COMM); /* double free */
    CHECK(nexar_comm_free(&dup));                      /* freeing NULL does nothing */

    /* The half still works after its duplicate is gone; then free it too. */
    CHECK(nexar_barrier(half));
    stale = half;
    CHECK(nexar_comm_free(&half));
    EXPECT(nexar_allreduce(&mine, &total, 1, NEXAR_DTYPE_INT64, NEXAR_OP_SUM, stale) ==
           NEXAR_ERR_COMM);

    /* The predefined communicators cannot be freed. */
    nexar_comm_t world = NEXAR_COMM_WORLD;
    EXPECT(nexar_comm_free(&world) == NEXAR_ERR_COMM);
    EXPECT(world == NEXAR_COMM_WORLD);

    CHECK(nexar_barrier(NEXAR_COMM_WORLD));
    printf("split: rank %d of %d -> half %d: rank %d of %d: ok\n", world_rank, world_size, color,
           hrank, hsize);
    CHECK(nexar_finalize());
    return 0;
}
