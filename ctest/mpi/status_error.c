/*
 * status_error.c: who writes a status's MPI_ERROR field (MPI 4.1 §3.2.5, §3.7.5). The
 * single-completion calls (Recv, Probe, Iprobe, Mprobe, Improbe, Mrecv, Imrecv + Wait, Wait,
 * Test) never do, even when the call fails; the multiple-completion calls (Waitall, Testall,
 * Waitsome, Testsome) set it in every status only when they return MPI_ERR_IN_STATUS.
 */
#include "mpi_check.h"

#define MARK (-77)

static MPI_Status marked(void)
{
    MPI_Status st;
    memset(&st, 0, sizeof st);
    st.MPI_ERROR = MARK;
    return st;
}

/* Reports (and counts) a call that wrote MPI_ERROR. */
#define KEEPS_ERROR(st, what)                                                           \
    do {                                                                                \
        if ((st).MPI_ERROR != MARK)                                                     \
            fprintf(stderr, "[rank %d] %s overwrote status.MPI_ERROR with %d\n",        \
                    check_rank, what, (st).MPI_ERROR);                                  \
        CHECK((st).MPI_ERROR == MARK);                                                  \
    } while (0)

static void send_self(int tag, int n)
{
    int v[2] = {10 + tag, 20 + tag};
    MPI_Request r;
    CHECK_OK(MPI_Isend(v, n, MPI_INT, 0, tag, MPI_COMM_SELF, &r));
    CHECK_OK(MPI_Request_free(&r));
}

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    MPI_Comm self = MPI_COMM_SELF;
    CHECK_OK(MPI_Comm_set_errhandler(self, MPI_ERRORS_RETURN));
    int v[2];
    MPI_Status st;

    send_self(1, 1);
    st = marked();
    CHECK_OK(MPI_Probe(0, 1, self, &st));
    KEEPS_ERROR(st, "MPI_Probe");
    CHECK(st.MPI_TAG == 1);
    int flag = 0;
    st = marked();
    CHECK_OK(MPI_Iprobe(0, 1, self, &flag, &st));
    KEEPS_ERROR(st, "MPI_Iprobe");
    CHECK(flag == 1);
    st = marked();
    CHECK_OK(MPI_Recv(v, 1, MPI_INT, 0, 1, self, &st));
    KEEPS_ERROR(st, "MPI_Recv");
    CHECK(v[0] == 11 && st.MPI_SOURCE == 0);

    /* A failed receive (truncation) reports through the return code only. */
    send_self(2, 2);
    st = marked();
    EXPECT_CLASS(MPI_Recv(v, 1, MPI_INT, 0, 2, self, &st), MPI_ERR_TRUNCATE);
    KEEPS_ERROR(st, "MPI_Recv (truncated)");

    MPI_Message msg;
    send_self(3, 1);
    st = marked();
    CHECK_OK(MPI_Mprobe(0, 3, self, &msg, &st));
    KEEPS_ERROR(st, "MPI_Mprobe");
    st = marked();
    CHECK_OK(MPI_Mrecv(v, 1, MPI_INT, &msg, &st));
    KEEPS_ERROR(st, "MPI_Mrecv");
    CHECK(v[0] == 13);

    send_self(4, 1);
    flag = 0;
    st = marked();
    while (!flag)
        CHECK_OK(MPI_Improbe(0, 4, self, &flag, &msg, &st));
    KEEPS_ERROR(st, "MPI_Improbe");
    MPI_Request r;
    CHECK_OK(MPI_Imrecv(v, 1, MPI_INT, &msg, &r));
    st = marked();
    CHECK_OK(MPI_Wait(&r, &st));
    KEEPS_ERROR(st, "MPI_Imrecv + MPI_Wait");
    CHECK(v[0] == 14);

    send_self(5, 1);
    CHECK_OK(MPI_Irecv(v, 1, MPI_INT, 0, 5, self, &r));
    flag = 0;
    while (!flag) {
        st = marked();
        CHECK_OK(MPI_Test(&r, &flag, &st));
        KEEPS_ERROR(st, "MPI_Test");
    }
    CHECK(v[0] == 15);

    /* Truncation completing through Wait: the code says it, the field stays. */
    send_self(6, 2);
    CHECK_OK(MPI_Irecv(v, 1, MPI_INT, 0, 6, self, &r));
    st = marked();
    EXPECT_CLASS(MPI_Wait(&r, &st), MPI_ERR_TRUNCATE);
    KEEPS_ERROR(st, "MPI_Wait (truncated)");

    /* Multiple completion without failure: no MPI_ERROR is written. */
    int a[2], b[2];
    MPI_Request rs[2];
    MPI_Status sts[2];
    send_self(7, 1);
    send_self(8, 1);
    CHECK_OK(MPI_Irecv(a, 1, MPI_INT, 0, 7, self, &rs[0]));
    CHECK_OK(MPI_Irecv(b, 1, MPI_INT, 0, 8, self, &rs[1]));
    sts[0] = marked(), sts[1] = marked();
    CHECK_OK(MPI_Waitall(2, rs, sts));
    KEEPS_ERROR(sts[0], "MPI_Waitall (success)");
    KEEPS_ERROR(sts[1], "MPI_Waitall (success)");

    send_self(9, 1);
    CHECK_OK(MPI_Irecv(a, 1, MPI_INT, 0, 9, self, &rs[0]));
    rs[1] = MPI_REQUEST_NULL;
    int outcount = 0, idx[2];
    sts[0] = marked();
    while (outcount == 0)
        CHECK_OK(MPI_Testsome(2, rs, &outcount, idx, sts));
    KEEPS_ERROR(sts[0], "MPI_Testsome (success)");

    /* Multiple completion with a failure: MPI_ERR_IN_STATUS, every MPI_ERROR set. */
    send_self(10, 1);
    send_self(11, 2);
    CHECK_OK(MPI_Irecv(a, 1, MPI_INT, 0, 10, self, &rs[0]));
    CHECK_OK(MPI_Irecv(b, 1, MPI_INT, 0, 11, self, &rs[1]));
    sts[0] = marked(), sts[1] = marked();
    EXPECT_CLASS(MPI_Waitall(2, rs, sts), MPI_ERR_IN_STATUS);
    int c0 = -1, c1 = -1;
    MPI_Error_class(sts[0].MPI_ERROR, &c0);
    MPI_Error_class(sts[1].MPI_ERROR, &c1);
    if (sts[0].MPI_ERROR != MPI_SUCCESS || c1 != MPI_ERR_TRUNCATE)
        fprintf(stderr, "[rank %d] Waitall's statuses hold errors %d, %d (want %d, class %d)\n",
                check_rank, sts[0].MPI_ERROR, sts[1].MPI_ERROR, MPI_SUCCESS, MPI_ERR_TRUNCATE);
    CHECK(sts[0].MPI_ERROR == MPI_SUCCESS && c1 == MPI_ERR_TRUNCATE);

    return check_finish();
}
