/* MPI shim send modes and friends: Ssend / Issend complete only once matched, Bsend / Ibsend
 * with Buffer_attach / detach and the overflow error, Rsend / Irsend after a barrier,
 * Mprobe / Improbe / Mrecv / Imrecv (ANY_SOURCE, sizes, MPI_PROC_NULL), persistent
 * Send_init / Ssend_init / Recv_init rings with Startall and inactive requests, Cancel of a
 * posted receive (and of a send: not cancelled), Status_set_cancelled, Sendrecv_replace and
 * Isendrecv_replace rings, and bad arguments. Runs at any number of ranks (1 included). */
#define _POSIX_C_SOURCE 200809L
#include "mpi_check.h"
#include <time.h>

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static MPI_Comm w;
static int rank, size, next, prev;

static void ssend_modes(void)
{
    if (size >= 2 && rank < 2) {
        if (rank == 0) {
            int v = 42;
            double t0 = MPI_Wtime();
            CHECK_OK(MPI_Ssend(&v, 1, MPI_INT, 1, 1, w));
            double took = MPI_Wtime() - t0;
            CHECK(took >= 0.15);
            if (took < 0.15)
                fprintf(stderr, "[rank 0] Ssend returned after %.3f s\n", took);
            /* Issend: not complete before the match, complete after it. */
            MPI_Request r;
            int flag = -1, go = 1;
            CHECK_OK(MPI_Issend(&v, 1, MPI_INT, 1, 2, w, &r));
            sleep_ms(100);
            CHECK_OK(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
            CHECK(flag == 0 && r != MPI_REQUEST_NULL);
            CHECK_OK(MPI_Send(&go, 1, MPI_INT, 1, 3, w));
            double t1 = MPI_Wtime();
            while (!flag && MPI_Wtime() - t1 < 30)
                CHECK_OK(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
            CHECK(flag == 1 && r == MPI_REQUEST_NULL);
        } else {
            int v = -1, go = 0;
            MPI_Status st;
            sleep_ms(200);
            CHECK_OK(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, w, &st));
            CHECK(v == 42 && st.MPI_SOURCE == 0 && st.MPI_TAG == 1);
            CHECK_OK(MPI_Recv(&go, 1, MPI_INT, 0, 3, w, MPI_STATUS_IGNORE));
            v = -1;
            CHECK_OK(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 2, w, MPI_STATUS_IGNORE));
            CHECK(v == 42 && go == 1);
        }
    }
    /* Issend to self completes once the receive takes it; Ssend_c to PROC_NULL at once. */
    int me = rank * 7, got = -1;
    MPI_Request r;
    CHECK_OK(MPI_Issend(&me, 1, MPI_INT, rank, 4, w, &r));
    CHECK_OK(MPI_Recv(&got, 1, MPI_INT, rank, 4, w, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(got == rank * 7);
    CHECK_OK(MPI_Ssend_c(&me, 1, MPI_INT, MPI_PROC_NULL, 4, w));
    CHECK_OK(MPI_Barrier(w));
}

enum { BN = 64 };

static void bsend_modes(void)
{
    int cap = 2 * (MPI_BSEND_OVERHEAD + BN * (int)sizeof(int));
    char *mem = malloc((size_t)cap);
    int out[BN], in[BN];
    for (int i = 0; i < BN; i++)
        out[i] = rank * 10 + i;
    CHECK_OK(MPI_Buffer_attach(mem, cap));
    EXPECT_CLASS(MPI_Buffer_attach(mem, cap), MPI_ERR_BUFFER);
    CHECK_OK(MPI_Bsend(out, BN, MPI_INT, next, 5, w));
    MPI_Request r;
    CHECK_OK(MPI_Ibsend_c(out, BN, MPI_INT, next, 6, w, &r));
    CHECK_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    /* Larger than the whole buffer: MPI_ERR_BUFFER (errors return here). */
    int *big = calloc(8 * BN, sizeof(int));
    EXPECT_CLASS(MPI_Bsend(big, 8 * BN, MPI_INT, next, 7, w), MPI_ERR_BUFFER);
    for (int tag = 5; tag <= 6; tag++) {
        memset(in, 0, sizeof in);
        CHECK_OK(MPI_Recv(in, BN, MPI_INT, prev, tag, w, MPI_STATUS_IGNORE));
        for (int i = 0; i < BN; i++)
            CHECK(in[i] == prev * 10 + i);
    }
    void *addr = NULL;
    int got = 0;
    CHECK_OK(MPI_Buffer_detach(&addr, &got));
    CHECK(addr == mem && got == cap);
    /* No buffer attached now. */
    EXPECT_CLASS(MPI_Bsend(out, 1, MPI_INT, next, 7, w), MPI_ERR_BUFFER);
    /* A communicator's own buffer serves it. */
    CHECK_OK(MPI_Comm_attach_buffer(w, mem, cap));
    CHECK_OK(MPI_Bsend(out, 1, MPI_INT, next, 8, w));
    CHECK_OK(MPI_Recv(in, 1, MPI_INT, prev, 8, w, MPI_STATUS_IGNORE));
    CHECK(in[0] == prev * 10);
    CHECK_OK(MPI_Comm_flush_buffer(w));
    MPI_Count gotc = 0;
    CHECK_OK(MPI_Comm_detach_buffer_c(w, &addr, &gotc));
    CHECK(addr == mem && gotc == cap);
    free(big);
    free(mem);
    CHECK_OK(MPI_Barrier(w));
}

static void rsend_modes(void)
{
    int in[2] = {-1, -1}, out = rank + 100;
    MPI_Request r[3];
    CHECK_OK(MPI_Irecv(&in[0], 1, MPI_INT, prev, 9, w, &r[0]));
    CHECK_OK(MPI_Irecv(&in[1], 1, MPI_INT, prev, 10, w, &r[1]));
    CHECK_OK(MPI_Barrier(w)); /* every receive is posted */
    CHECK_OK(MPI_Rsend(&out, 1, MPI_INT, next, 9, w));
    CHECK_OK(MPI_Irsend(&out, 1, MPI_INT, next, 10, w, &r[2]));
    CHECK_OK(MPI_Waitall(3, r, MPI_STATUSES_IGNORE));
    CHECK(in[0] == prev + 100 && in[1] == prev + 100);
}

static void matched_probes(void)
{
    /* Every rank sends (src + 1) * 3 ints to every other rank; receivers take them by
     * ANY_SOURCE matched probes, sizing the buffer with Get_count before Mrecv. */
    int *out = malloc(sizeof(int) * 3 * (size_t)(rank + 1));
    for (int i = 0; i < 3 * (rank + 1); i++)
        out[i] = rank * 1000 + i;
    for (int d = 0; d < size; d++)
        if (d != rank)
            CHECK_OK(MPI_Send(out, 3 * (rank + 1), MPI_INT, d, 11, w));
    int seen = 0;
    for (int k = 0; k < size - 1; k++) {
        MPI_Message m = MPI_MESSAGE_NULL;
        MPI_Status st;
        CHECK_OK(MPI_Mprobe(MPI_ANY_SOURCE, 11, w, &m, &st));
        int n = -1, src = st.MPI_SOURCE;
        CHECK_OK(MPI_Get_count(&st, MPI_INT, &n));
        CHECK(src >= 0 && src < size && src != rank && n == 3 * (src + 1));
        /* The message is ours: a probe cannot see it any more. */
        int flag = -1;
        CHECK_OK(MPI_Iprobe(src, 11, w, &flag, MPI_STATUS_IGNORE));
        CHECK(flag == 0);
        int *in = calloc((size_t)n, sizeof(int));
        MPI_Status rst;
        CHECK_OK(MPI_Mrecv(in, n, MPI_INT, &m, &rst));
        CHECK(m == MPI_MESSAGE_NULL && rst.MPI_SOURCE == src);
        for (int i = 0; i < n; i++)
            CHECK(in[i] == src * 1000 + i);
        seen |= 1 << src;
        free(in);
    }
    CHECK(seen == ((1 << size) - 1) - (1 << rank));
    free(out);

    /* Improbe loop and Imrecv_c from the previous rank. */
    int v = rank + 500, got = -1, flag = 0;
    CHECK_OK(MPI_Send(&v, 1, MPI_INT, next, 12, w));
    MPI_Message m = MPI_MESSAGE_NULL;
    MPI_Status st;
    double t0 = MPI_Wtime();
    while (!flag && MPI_Wtime() - t0 < 30)
        CHECK_OK(MPI_Improbe(prev, 12, w, &flag, &m, &st));
    CHECK(flag == 1 && st.MPI_SOURCE == prev);
    MPI_Request r;
    CHECK_OK(MPI_Imrecv_c(&got, 1, MPI_INT, &m, &r));
    CHECK(m == MPI_MESSAGE_NULL);
    CHECK_OK(MPI_Wait(&r, &st));
    CHECK(got == prev + 500 && st.MPI_TAG == 12);

    /* MPI_PROC_NULL: MPI_MESSAGE_NO_PROC, received at once with the PROC_NULL status. */
    CHECK_OK(MPI_Mprobe(MPI_PROC_NULL, 0, w, &m, &st));
    CHECK(m == MPI_MESSAGE_NO_PROC && st.MPI_SOURCE == MPI_PROC_NULL);
    CHECK_OK(MPI_Mrecv(&got, 1, MPI_INT, &m, &st));
    CHECK(m == MPI_MESSAGE_NULL && st.MPI_SOURCE == MPI_PROC_NULL);
    CHECK_OK(MPI_Barrier(w));
}

enum { PN = 16 };

static void persistent_ring(void)
{
    int out[PN], in[PN];
    MPI_Request r[2];
    CHECK_OK(MPI_Recv_init(in, PN, MPI_INT, prev, 13, w, &r[0]));
    CHECK_OK(MPI_Send_init(out, PN, MPI_INT, next, 13, w, &r[1]));
    /* Inactive: Wait returns at once with an empty status; Testany sees nothing active. */
    MPI_Status st;
    CHECK_OK(MPI_Wait(&r[0], &st));
    CHECK(r[0] != MPI_REQUEST_NULL && st.MPI_SOURCE == MPI_ANY_SOURCE &&
          st.MPI_TAG == MPI_ANY_TAG);
    int idx = -2, flag = -1;
    CHECK_OK(MPI_Testany(2, r, &idx, &flag, MPI_STATUS_IGNORE));
    CHECK(flag == 1 && idx == MPI_UNDEFINED);
    for (int it = 0; it < 10; it++) {
        for (int i = 0; i < PN; i++) {
            out[i] = rank * 10000 + it * 100 + i;
            in[i] = -1;
        }
        MPI_Status sts[2];
        CHECK_OK(MPI_Startall(2, r));
        CHECK_OK(MPI_Waitall(2, r, sts));
        CHECK(r[0] != MPI_REQUEST_NULL && r[1] != MPI_REQUEST_NULL);
        CHECK(sts[0].MPI_SOURCE == prev && sts[0].MPI_TAG == 13);
        for (int i = 0; i < PN; i++)
            CHECK(in[i] == prev * 10000 + it * 100 + i);
    }
    /* Starting an active request is an error. */
    CHECK_OK(MPI_Start(&r[0]));
    EXPECT_CLASS(MPI_Start(&r[0]), MPI_ERR_REQUEST);
    CHECK_OK(MPI_Start(&r[1]));
    CHECK_OK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    CHECK_OK(MPI_Request_free(&r[0]));
    CHECK_OK(MPI_Request_free(&r[1]));
    CHECK(r[0] == MPI_REQUEST_NULL && r[1] == MPI_REQUEST_NULL);

    /* Synchronous, buffered and ready persistent sends, with Wait / Test per request. */
    int cap = 2 * (MPI_BSEND_OVERHEAD + (int)sizeof(int));
    char *mem = malloc((size_t)cap);
    CHECK_OK(MPI_Buffer_attach(mem, cap));
    int v = 0, got = -1;
    MPI_Request s[3], rr;
    CHECK_OK(MPI_Ssend_init(&v, 1, MPI_INT, next, 14, w, &s[0]));
    CHECK_OK(MPI_Bsend_init_c(&v, 1, MPI_INT, next, 14, w, &s[1]));
    CHECK_OK(MPI_Rsend_init(&v, 1, MPI_INT, next, 14, w, &s[2]));
    CHECK_OK(MPI_Recv_init(&got, 1, MPI_INT, prev, 14, w, &rr));
    for (int k = 0; k < 3; k++) {
        CHECK_OK(MPI_Start(&rr));
        CHECK_OK(MPI_Barrier(w)); /* receives posted before the ready send */
        v = rank * 3 + k;
        CHECK_OK(MPI_Start(&s[k]));
        CHECK_OK(MPI_Wait(&rr, MPI_STATUS_IGNORE));
        CHECK(got == prev * 3 + k);
        int done = 0;
        double t0 = MPI_Wtime();
        while (!done && MPI_Wtime() - t0 < 30)
            CHECK_OK(MPI_Test(&s[k], &done, MPI_STATUS_IGNORE));
        CHECK(done == 1 && s[k] != MPI_REQUEST_NULL);
    }
    for (int k = 0; k < 3; k++)
        CHECK_OK(MPI_Request_free(&s[k]));
    CHECK_OK(MPI_Request_free(&rr));
    void *addr;
    int got_size;
    CHECK_OK(MPI_Buffer_detach(&addr, &got_size));
    free(mem);
    CHECK_OK(MPI_Barrier(w));
}

static void cancels(void)
{
    /* A receive that nothing matches is cancelled. */
    int x = -1;
    MPI_Request r;
    MPI_Status st;
    CHECK_OK(MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 99, w, &r));
    CHECK_OK(MPI_Cancel(&r));
    CHECK_OK(MPI_Wait(&r, &st));
    int flag = -1;
    CHECK_OK(MPI_Test_cancelled(&st, &flag));
    CHECK(flag == 1 && x == -1);
    /* A send is not cancelled: it is still received. */
    int v = rank;
    CHECK_OK(MPI_Isend(&v, 1, MPI_INT, rank, 98, w, &r));
    CHECK_OK(MPI_Cancel(&r));
    CHECK_OK(MPI_Wait(&r, &st));
    CHECK_OK(MPI_Test_cancelled(&st, &flag));
    CHECK(flag == 0);
    CHECK_OK(MPI_Recv(&x, 1, MPI_INT, rank, 98, w, MPI_STATUS_IGNORE));
    CHECK(x == rank);
    /* A persistent receive cancelled stays allocated. */
    CHECK_OK(MPI_Recv_init(&x, 1, MPI_INT, prev, 97, w, &r));
    CHECK_OK(MPI_Start(&r));
    CHECK_OK(MPI_Cancel(&r));
    CHECK_OK(MPI_Wait(&r, &st));
    CHECK_OK(MPI_Test_cancelled(&st, &flag));
    CHECK(flag == 1 && r != MPI_REQUEST_NULL);
    CHECK_OK(MPI_Request_free(&r));
    CHECK_OK(MPI_Status_set_cancelled(&st, 0));
    CHECK_OK(MPI_Test_cancelled(&st, &flag));
    CHECK(flag == 0);
    CHECK_OK(MPI_Barrier(w));
}

static void replace_rings(void)
{
    int buf[4];
    for (int i = 0; i < 4; i++)
        buf[i] = rank * 4 + i;
    MPI_Status st;
    CHECK_OK(MPI_Sendrecv_replace(buf, 4, MPI_INT, next, 15, prev, 15, w, &st));
    CHECK(st.MPI_SOURCE == prev);
    for (int i = 0; i < 4; i++)
        CHECK(buf[i] == prev * 4 + i);
    MPI_Request r;
    CHECK_OK(MPI_Isendrecv_replace(buf, 4, MPI_INT, next, 16, prev, 16, w, &r));
    CHECK_OK(MPI_Wait(&r, &st));
    int pp = (prev + size - 1) % size;
    for (int i = 0; i < 4; i++)
        CHECK(buf[i] == pp * 4 + i);
    CHECK_OK(MPI_Barrier(w));
}

static void bad_arguments(void)
{
    MPI_Request r = MPI_REQUEST_NULL;
    EXPECT_CLASS(MPI_Start(&r), MPI_ERR_REQUEST);
    EXPECT_CLASS(MPI_Startall(1, &r), MPI_ERR_REQUEST);
    MPI_Message m = MPI_MESSAGE_NULL;
    int x;
    EXPECT_CLASS(MPI_Mrecv(&x, 1, MPI_INT, &m, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
    EXPECT_CLASS(MPI_Cancel(&r), MPI_ERR_REQUEST);
    /* Start of a request that is not persistent. */
    CHECK_OK(MPI_Isend(&x, 0, MPI_INT, MPI_PROC_NULL, 0, w, &r));
    EXPECT_CLASS(MPI_Start(&r), MPI_ERR_REQUEST);
    CHECK_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    EXPECT_CLASS(MPI_Send_init(&x, -1, MPI_INT, next, 0, w, &r), MPI_ERR_COUNT);
    EXPECT_CLASS(MPI_Recv_init(&x, 1, MPI_INT, size, 0, w, &r), MPI_ERR_RANK);
    EXPECT_CLASS(MPI_Buffer_attach(&x, -1), MPI_ERR_ARG);
}

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    w = MPI_COMM_WORLD;
    rank = check_rank;
    CHECK_OK(MPI_Comm_size(w, &size));
    next = (rank + 1) % size;
    prev = (rank + size - 1) % size;
    CHECK_OK(MPI_Comm_set_errhandler(w, MPI_ERRORS_RETURN));
    ssend_modes();
    bsend_modes();
    rsend_modes();
    matched_probes();
    persistent_ring();
    cancels();
    replace_rings();
    bad_arguments();
    return check_finish();
}
