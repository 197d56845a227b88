/*
 * test_collectives: every collective of the C API against a locally computed reference.
 *
 *  - barrier and every collective with count 0 and NULL buffers (blocking and non-blocking);
 *  - reductions (coll_reduce.h): reduce, allreduce, scan, exscan, reduce_scatter,
 *    reduce_scatter_block x every datatype/op pair (all 17 datatypes for allreduce) x blocking /
 *    non-blocking x in-place or not x every root, with zero-length blocks and large counts;
 *  - data movement (coll_move.h): bcast, gather(v), scatter(v), allgather(v), alltoall(v) x
 *    element sizes 1..16 x blocking / non-blocking x in-place or not x every root x displacement
 *    layouts (packed, reversed with gaps, overlapping send blocks);
 *  - the same (smaller matrices) on a communicator whose rank order is the reverse of the
 *    world's, and on NEXAR_COMM_SELF.
 *
 * Non-blocking batches are completed with waitall, wait, test, waitany or testall in turn, and
 * their send buffers are overwritten right after the start (they must have been copied).
 * Works at any number of ranks (1..MAXR).
 */
#include "coll_move.h"
#include "coll_reduce.h"

/* Every collective with count 0 and NULL buffers; count arrays are all zero. */
static void test_zero_counts(void)
{
    size_t zc[MAXR] = { 0 };
    nexar_datatype_t i32 = NEXAR_DTYPE_INT32;
    int last = g_size - 1;
    for (int nb = 0; nb < 2; nb++) {
        nexar_request_t q[16];
        for (int i = 0; i < 16; i++) {
            q[i] = NEXAR_REQUEST_NULL;
        }
        CTX("count 0 with NULL buffers, %s", nb ? "non-blocking" : "blocking");
#define ZERO(k, blocking, nonblocking)       \
    do {                                    \
        if (nb) {                           \
            CHECK_OK(nonblocking);          \
            CHECK(q[k] != NEXAR_REQUEST_NULL); \
        } else {                            \
            CHECK_OK(blocking);             \
        }                                   \
    } while (0)
        ZERO(0, nexar_barrier(g_comm), nexar_ibarrier(g_comm, &q[0]));
        ZERO(1, nexar_bcast(NULL, 0, i32, last, g_comm),
             nexar_ibcast(NULL, 0, i32, last, g_comm, &q[1]));
        ZERO(2, nexar_reduce(NULL, NULL, 0, i32, NEXAR_OP_SUM, last, g_comm),
             nexar_ireduce(NULL, NULL, 0, i32, NEXAR_OP_SUM, last, g_comm, &q[2]));
        ZERO(3, nexar_allreduce(NULL, NULL, 0, i32, NEXAR_OP_MAX, g_comm),
             nexar_iallreduce(NULL, NULL, 0, i32, NEXAR_OP_MAX, g_comm, &q[3]));
        ZERO(4, nexar_gather(NULL, NULL, 0, i32, 0, g_comm),
             nexar_igather(NULL, NULL, 0, i32, 0, g_comm, &q[4]));
        ZERO(5, nexar_gatherv(NULL, 0, NULL, zc, NULL, i32, last, g_comm),
             nexar_igatherv(NULL, 0, NULL, zc, NULL, i32, last, g_comm, &q[5]));
        ZERO(6, nexar_scatter(NULL, NULL, 0, i32, 0, g_comm),
             nexar_iscatter(NULL, NULL, 0, i32, 0, g_comm, &q[6]));
        ZERO(7, nexar_scatterv(NULL, zc, NULL, NULL, 0, i32, last, g_comm),
             nexar_iscatterv(NULL, zc, NULL, NULL, 0, i32, last, g_comm, &q[7]));
        ZERO(8, nexar_allgather(NULL, NULL, 0, i32, g_comm),
             nexar_iallgather(NULL, NULL, 0, i32, g_comm, &q[8]));
        ZERO(9, nexar_allgatherv(NULL, 0, NULL, zc, NULL, i32, g_comm),
             nexar_iallgatherv(NULL, 0, NULL, zc, NULL, i32, g_comm, &q[9]));
        ZERO(10, nexar_alltoall(NULL, NULL, 0, i32, g_comm),
             nexar_ialltoall(NULL, NULL, 0, i32, g_comm, &q[10]));
        ZERO(11, nexar_alltoallv(NULL, zc, NULL, NULL, zc, NULL, i32, g_comm),
             nexar_ialltoallv(NULL, zc, NULL, NULL, zc, NULL, i32, g_comm, &q[11]));
        ZERO(12, nexar_reduce_scatter(NULL, NULL, zc, i32, NEXAR_OP_SUM, g_comm),
             nexar_ireduce_scatter(NULL, NULL, zc, i32, NEXAR_OP_SUM, g_comm, &q[12]));
        ZERO(13, nexar_reduce_scatter_block(NULL, NULL, 0, i32, NEXAR_OP_BOR, g_comm),
             nexar_ireduce_scatter_block(NULL, NULL, 0, i32, NEXAR_OP_BOR, g_comm, &q[13]));
        ZERO(14, nexar_scan(NULL, NULL, 0, i32, NEXAR_OP_PROD, g_comm),
             nexar_iscan(NULL, NULL, 0, i32, NEXAR_OP_PROD, g_comm, &q[14]));
        ZERO(15, nexar_exscan(NULL, NULL, 0, i32, NEXAR_OP_MIN, g_comm),
             nexar_iexscan(NULL, NULL, 0, i32, NEXAR_OP_MIN, g_comm, &q[15]));
#undef ZERO
        if (nb) {
            complete_requests(q, 16, 0);
        }
    }
    check_ctx[0] = '\0';
}

/* A barrier's requests: several in flight at once, completed out of order. */
static void test_barriers(void)
{
    CTX("barriers");
    for (int i = 0; i < 3; i++) {
        CHECK_OK(nexar_barrier(g_comm));
    }
    nexar_request_t q[4];
    for (int i = 0; i < 4; i++) {
        CHECK_OK(nexar_ibarrier(g_comm, &q[i]));
    }
    for (int i = 0; i < 5; i++) {
        complete_requests(q, 4, i); /* the first style completes them; the rest see NULLs */
    }
    check_ctx[0] = '\0';
}

static void suite(int full)
{
    test_zero_counts();
    test_barriers();
    test_reductions(full);
    test_movement(full);
}

int main(int argc, char **argv)
{
    int rank, size;
    check_init(&argc, &argv, &rank, &size);
    double t0 = nexar_wtime();

    use_comm(NEXAR_COMM_WORLD);
    suite(1);

    /* The world in reverse rank order: roots, scan order and blocks follow the new ranks. */
    nexar_comm_t rev = NEXAR_COMM_WORLD;
    CHECK_OK(nexar_comm_split(NEXAR_COMM_WORLD, 0, size - rank, &rev));
    use_comm(rev);
    CHECK(g_rank == size - 1 - rank && g_size == size);
    suite(0);
    CHECK_OK(nexar_comm_free(&rev));

    use_comm(NEXAR_COMM_SELF);
    CHECK(g_rank == 0 && g_size == 1);
    suite(0);

    use_comm(NEXAR_COMM_WORLD);
    CHECK_OK(nexar_barrier(NEXAR_COMM_WORLD));
    if (rank == 0) {
        printf("test_collectives: %d rank(s), %.2f s\n", size, nexar_wtime() - t0);
    }
    return check_finish(1);
}
