/* Partitioned point-to-point (MPI 4): a ring where sender and receiver cut the buffer into
 * different partitions (4 x 6 ints sent, 3 x 8 received), three rounds marking partitions
 * with MPI_Pready (in reverse), MPI_Pready_range and MPI_Pready_list, the receiver polling
 * MPI_Parrived on every partition before MPI_Wait; two requests with the same peer and tag
 * matched in initialization order although the second is readied first; MPI_PROC_NULL
 * peers; a request freed without a start; and the errors (partition out of range or marked
 * twice, MPI_Pready on a receive or an inactive send, MPI_Parrived on a send, wildcards,
 * negative partitions). Every value is checked against the sender's rank and round. */
#include "mpi_check.h"

#define SP 4 /* sender's partitions */
#define SC 6 /* ints per sender partition */
#define RP 3 /* receiver's partitions */
#define RC 8 /* ints per receiver partition */
#define N (SP * SC)

static int value(int from, int round, int i) { return from * 10000 + round * 100 + i; }

static void ring(void)
{
    int size, me;
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_OK(MPI_Comm_rank(MPI_COMM_WORLD, &me));
    int up = (me + 1) % size, down = (me + size - 1) % size;
    int out[N], in[N];
    MPI_Request s, r;
    CHECK_OK(MPI_Psend_init(out, SP, SC, MPI_INT, up, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    CHECK_OK(MPI_Precv_init(in, RP, RC, MPI_INT, down, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < N; i++) in[i] = -1;
        CHECK_OK(MPI_Start(&r));
        CHECK_OK(MPI_Start(&s));
        if (round == 0) {
            for (int p = SP - 1; p >= 0; p--) {
                for (int i = p * SC; i < (p + 1) * SC; i++) out[i] = value(me, round, i);
                CHECK_OK(MPI_Pready(p, s));
            }
        } else {
            for (int i = 0; i < N; i++) out[i] = value(me, round, i);
            if (round == 1) {
                CHECK_OK(MPI_Pready_range(0, SP - 1, s));
            } else {
                int list[SP] = {2, 0, 3, 1};
                CHECK_OK(MPI_Pready_list(SP, list, s));
            }
        }
        /* Every receive partition arrives, then the request tests complete at once. */
        for (int p = 0; p < RP; p++) {
            int flag = 0;
            while (!flag) CHECK_OK(MPI_Parrived(r, p, &flag));
            for (int i = p * RC; i < (p + 1) * RC; i++) CHECK(in[i] == value(down, round, i));
        }
        int done = 0;
        MPI_Status st;
        CHECK_OK(MPI_Test(&r, &done, &st));
        CHECK(done);
        if (!done) CHECK_OK(MPI_Wait(&r, &st));
        CHECK(r != MPI_REQUEST_NULL); /* persistent: still allocated */
        CHECK_OK(MPI_Wait(&s, MPI_STATUS_IGNORE));
    }
    CHECK_OK(MPI_Request_free(&s));
    CHECK_OK(MPI_Request_free(&r));
    CHECK(s == MPI_REQUEST_NULL && r == MPI_REQUEST_NULL);
}

/* Two partitioned pairs on the same peers and tag: the first initialized send meets the first
 * initialized receive, whatever order their data becomes ready in. */
static void init_order(void)
{
    int size, me;
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_OK(MPI_Comm_rank(MPI_COMM_WORLD, &me));
    int up = (me + 1) % size, down = (me + size - 1) % size;
    int a = 1000 + me, b = 2000 + me, ga = -1, gb = -1;
    MPI_Request q[4];
    CHECK_OK(MPI_Psend_init(&a, 1, 1, MPI_INT, up, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &q[0]));
    CHECK_OK(MPI_Psend_init(&b, 1, 1, MPI_INT, up, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &q[1]));
    CHECK_OK(MPI_Precv_init(&ga, 1, 1, MPI_INT, down, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &q[2]));
    CHECK_OK(MPI_Precv_init(&gb, 1, 1, MPI_INT, down, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &q[3]));
    CHECK_OK(MPI_Startall(4, q));
    CHECK_OK(MPI_Pready(0, q[1]));
    CHECK_OK(MPI_Pready(0, q[0]));
    CHECK_OK(MPI_Waitall(4, q, MPI_STATUSES_IGNORE));
    CHECK(ga == 1000 + down && gb == 2000 + down);
    for (int i = 0; i < 4; i++) CHECK_OK(MPI_Request_free(&q[i]));
}

static void proc_null_and_no_start(void)
{
    int x = 5, y = -1, flag = 0;
    MPI_Request s, r;
    CHECK_OK(MPI_Psend_init(&x, 1, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_INFO_NULL,
                            &s));
    CHECK_OK(MPI_Precv_init(&y, 1, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_INFO_NULL,
                            &r));
    CHECK_OK(MPI_Start(&s));
    CHECK_OK(MPI_Start(&r));
    CHECK_OK(MPI_Pready(0, s));
    CHECK_OK(MPI_Parrived(r, 0, &flag));
    CHECK(flag);
    MPI_Status st;
    CHECK_OK(MPI_Wait(&r, &st));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && y == -1);
    CHECK_OK(MPI_Wait(&s, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Request_free(&s));
    CHECK_OK(MPI_Request_free(&r));
    /* Never started: freeing is all. */
    CHECK_OK(MPI_Psend_init(&x, 1, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    CHECK_OK(MPI_Request_free(&s));
}

static void errors(void)
{
    int me, x[4] = {0};
    CHECK_OK(MPI_Comm_rank(MPI_COMM_WORLD, &me));
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_Request s, r, bad;
    CHECK_OK(MPI_Psend_init(x, 2, 2, MPI_INT, me, 4, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    CHECK_OK(MPI_Precv_init(x, 2, 2, MPI_INT, me, 4, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    int flag = 0;
    EXPECT_CLASS(MPI_Pready(0, s), MPI_ERR_REQUEST); /* not started */
    EXPECT_CLASS(MPI_Parrived(r, 0, &flag), MPI_ERR_REQUEST);
    CHECK_OK(MPI_Start(&r));
    CHECK_OK(MPI_Start(&s));
    EXPECT_CLASS(MPI_Pready(2, s), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Pready(-1, s), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Pready_range(1, 0, s), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Pready(0, r), MPI_ERR_REQUEST);
    EXPECT_CLASS(MPI_Parrived(s, 0, &flag), MPI_ERR_REQUEST);
    EXPECT_CLASS(MPI_Parrived(r, 2, &flag), MPI_ERR_ARG);
    CHECK_OK(MPI_Pready(0, s));
    EXPECT_CLASS(MPI_Pready(0, s), MPI_ERR_ARG); /* twice in one round */
    CHECK_OK(MPI_Pready(1, s));
    MPI_Request both[2] = {s, r};
    CHECK_OK(MPI_Waitall(2, both, MPI_STATUSES_IGNORE));
    CHECK_OK(MPI_Request_free(&s));
    CHECK_OK(MPI_Request_free(&r));
    EXPECT_CLASS(MPI_Precv_init(x, 1, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD,
                                MPI_INFO_NULL, &bad),
                 MPI_ERR_RANK);
    EXPECT_CLASS(MPI_Precv_init(x, 1, 1, MPI_INT, me, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_INFO_NULL,
                                &bad),
                 MPI_ERR_TAG);
    EXPECT_CLASS(MPI_Psend_init(x, -1, 1, MPI_INT, me, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &bad),
                 MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Pready(0, MPI_REQUEST_NULL), MPI_ERR_REQUEST);
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    ring();
    init_order();
    proc_null_and_no_start();
    errors();
    return check_finish();
}
