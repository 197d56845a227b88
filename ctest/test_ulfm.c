/*
 * test_ulfm: the fault-tolerance calls of the C API at any rank count, without killing ranks
 * (tests/ulfm.rs covers real failures):
 *
 *  - a fresh communicator has no failed, acknowledged or revoked state;
 *  - nexar_comm_agree gives every rank the bitwise AND of all flags;
 *  - rank 0 revokes a duplicate of the world while the others wait in an ANY_SOURCE receive on
 *    it: they fail with NEXAR_ERR_REVOKED, later operations on it fail the same way on every
 *    rank, and the world keeps working;
 *  - on the revoked communicator, agree still works and shrink builds a working communicator
 *    of all ranks;
 *  - bad arguments give NEXAR_ERR_ARG / NEXAR_ERR_COMM.
 */
#include "check.h"

#include <stdint.h>

static int rank, size;

static void test_fresh_and_agree(nexar_comm_t d)
{
    CTX("fresh communicator");
    int ranks[4] = {-1, -1, -1, -1}, count = -1, flag = -1;
    CHECK_OK(nexar_comm_get_failed(d, ranks, 4, &count));
    CHECK(count == 0 && ranks[0] == -1);
    CHECK_OK(nexar_comm_ack_failed(d, &count));
    CHECK(count == 0);
    CHECK_OK(nexar_comm_get_acked(d, NULL, 0, &count));
    CHECK(count == 0);
    CHECK_OK(nexar_comm_is_revoked(d, &flag));
    CHECK(flag == 0);

    CTX("agree: AND of every rank's flag");
    int v = ~(1 << (rank % 30));
    CHECK_OK(nexar_comm_agree(d, &v));
    int want = ~0;
    for (int r = 0; r < size; r++) {
        want &= ~(1 << (r % 30));
    }
    CHECK(v == want);
}

static void test_revoke(nexar_comm_t d)
{
    CTX("revoke while the others wait in a receive");
    CHECK_OK(nexar_barrier(NEXAR_COMM_WORLD));
    int buf = 0, flag = -1;
    if (rank == 0) {
        CHECK_OK(nexar_comm_revoke(d));
        CHECK_OK(nexar_comm_revoke(d)); /* twice: nothing more happens */
    } else {
        EXPECT_CODE(nexar_recv(&buf, 1, NEXAR_DTYPE_INT32, NEXAR_ANY_SOURCE, 3, d, NULL),
                    NEXAR_ERR_REVOKED);
    }
    CHECK_OK(nexar_comm_is_revoked(d, &flag));
    CHECK(flag == 1);
    CTX("later operations on the revoked communicator");
    EXPECT_CODE(nexar_barrier(d), NEXAR_ERR_REVOKED);
    EXPECT_CODE(nexar_send(&buf, 1, NEXAR_DTYPE_INT32, 0, 3, d), NEXAR_ERR_REVOKED);
    int x = rank, sum = -1;
    EXPECT_CODE(nexar_allreduce(&x, &sum, 1, NEXAR_DTYPE_INT32, NEXAR_OP_SUM, d),
                NEXAR_ERR_REVOKED);
    CTX("the world is not affected");
    CHECK_OK(nexar_allreduce(&x, &sum, 1, NEXAR_DTYPE_INT32, NEXAR_OP_SUM, NEXAR_COMM_WORLD));
    CHECK(sum == size * (size - 1) / 2);
}

static void test_recover(nexar_comm_t d)
{
    CTX("agree and shrink on the revoked communicator");
    int v = 0x70 | (rank == 0 ? 0x1 : 0x3);
    CHECK_OK(nexar_comm_agree(d, &v));
    CHECK(v == 0x71);
    nexar_comm_t s = NULL;
    CHECK_OK(nexar_comm_shrink(d, &s));
    REQUIRE(s != NULL);
    int r = -1, n = -1, revoked = -1;
    CHECK_OK(nexar_comm_rank(s, &r));
    CHECK_OK(nexar_comm_size(s, &n));
    CHECK(r == rank && n == size);
    CHECK_OK(nexar_comm_is_revoked(s, &revoked));
    CHECK(revoked == 0);
    int x = rank + 1, sum = -1;
    CHECK_OK(nexar_allreduce(&x, &sum, 1, NEXAR_DTYPE_INT32, NEXAR_OP_SUM, s));
    CHECK(sum == size * (size + 1) / 2);
    CHECK_OK(nexar_comm_free(&s));
}

static void test_bad_input(nexar_comm_t d)
{
    CTX("bad arguments");
    int ranks[2], count;
    EXPECT_CODE(nexar_comm_get_failed(d, ranks, 2, NULL), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_comm_get_failed(d, NULL, 2, &count), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_comm_get_failed(d, ranks, -1, &count), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_comm_get_acked(d, NULL, 1, &count), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_comm_agree(d, NULL), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_comm_shrink(d, NULL), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_comm_is_revoked(d, NULL), NEXAR_ERR_ARG);
    EXPECT_CODE(nexar_comm_revoke(NULL), NEXAR_ERR_COMM);
    EXPECT_CODE(nexar_comm_ack_failed(NULL, NULL), NEXAR_ERR_COMM);
    nexar_comm_t forged = (nexar_comm_t)(uintptr_t)0x7777;
    EXPECT_CODE(nexar_comm_revoke(forged), NEXAR_ERR_COMM);
}

int main(int argc, char **argv)
{
    check_init(&argc, &argv, &rank, &size);
    nexar_comm_t d = NULL;
    CHECK_OK(nexar_comm_dup(NEXAR_COMM_WORLD, &d));
    test_fresh_and_agree(d);
    test_bad_input(d);
    test_revoke(d);
    test_recover(d);
    CHECK_OK(nexar_comm_free(&d));
    CHECK_OK(nexar_barrier(NEXAR_COMM_WORLD));
    return check_finish(1);
}
