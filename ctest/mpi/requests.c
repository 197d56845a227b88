/* MPI shim requests: Isend/Irecv rings completed with Waitall, Waitany, Waitsome, Testall
 * loops, Testany/Testsome, ANY_SOURCE, Request_free on a completed and on a pending send,
 * MPI_REQUEST_NULL handling, Request_get_status, statuses, truncation in Waitall
 * (MPI_ERR_IN_STATUS), large-count variants, Isendrecv(_replace), Request_get_status_all/any/some,
 * Test_cancelled. */
#include "mpi_check.h"
#include <stdint.h>

enum { N = 8 };

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    int rank, size;
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    rank = check_rank;
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Comm w = MPI_COMM_WORLD;

    /* Ring with Waitall and statuses. */
    {
        int out[N], in[N];
        for (int i = 0; i < N; i++) {
            out[i] = rank * 100 + i;
            in[i] = -1;
        }
        MPI_Request r[2];
        MPI_Status st[2];
        CHECK_OK(MPI_Irecv(in, N, MPI_INT, prev, 3, w, &r[0]));
        CHECK_OK(MPI_Isend(out, N, MPI_INT, next, 3, w, &r[1]));
        CHECK(r[0] != MPI_REQUEST_NULL);
        CHECK_OK(MPI_Waitall(2, r, st));
        CHECK(r[0] == MPI_REQUEST_NULL && r[1] == MPI_REQUEST_NULL);
        for (int i = 0; i < N; i++)
            CHECK(in[i] == prev * 100 + i);
        CHECK(st[0].MPI_SOURCE == prev && st[0].MPI_TAG == 3);
        int n = -1;
        CHECK_OK(MPI_Get_count(&st[0], MPI_INT, &n));
        CHECK(n == N);
    }

    /* Several messages per neighbour, completed with Waitany; STATUSES_IGNORE elsewhere. */
    {
        int in[N], out[N];
        MPI_Request r[2 * N];
        for (int i = 0; i < N; i++) {
            in[i] = -1;
            out[i] = rank + i;
            CHECK_OK(MPI_Irecv(&in[i], 1, MPI_INT, prev, i, w, &r[i]));
        }
        for (int i = 0; i < N; i++)
            CHECK_OK(MPI_Isend(&out[i], 1, MPI_INT, next, i, w, &r[N + i]));
        int seen = 0;
        for (int k = 0; k < 2 * N; k++) {
            int idx = -1;
            MPI_Status st;
            CHECK_OK(MPI_Waitany(2 * N, r, &idx, &st));
            CHECK(idx >= 0 && idx < 2 * N && r[idx] == MPI_REQUEST_NULL);
            if (idx >= 0 && idx < N) {
                CHECK(st.MPI_TAG == idx && st.MPI_SOURCE == prev);
                CHECK(in[idx] == prev + idx);
            }
            if (idx >= 0 && idx < 2 * N)
                seen++;
        }
        CHECK(seen == 2 * N);
        /* All NULL now: index is MPI_UNDEFINED. */
        int idx = 0;
        CHECK_OK(MPI_Waitany(2 * N, r, &idx, MPI_STATUS_IGNORE));
        CHECK(idx == MPI_UNDEFINED);
        CHECK_OK(MPI_Waitall(2 * N, r, MPI_STATUSES_IGNORE));
    }

    /* Waitsome until all done. */
    {
        int in[N], out[N];
        MPI_Request r[N];
        for (int i = 0; i < N; i++) {
            in[i] = -1;
            out[i] = 7 * rank + i;
            CHECK_OK(MPI_Irecv(&in[i], 1, MPI_INT, prev, 20 + i, w, &r[i]));
        }
        for (int i = N - 1; i >= 0; i--)
            CHECK_OK(MPI_Send(&out[i], 1, MPI_INT, next, 20 + i, w));
        int done = 0;
        while (done < N) {
            int outcount = -1, idx[N];
            MPI_Status st[N];
            CHECK_OK(MPI_Waitsome(N, r, &outcount, idx, st));
            CHECK(outcount >= 1 && outcount <= N);
            for (int k = 0; k < outcount; k++) {
                CHECK(r[idx[k]] == MPI_REQUEST_NULL);
                CHECK(st[k].MPI_TAG == 20 + idx[k]);
            }
            done += outcount;
        }
        CHECK(done == N);
        for (int i = 0; i < N; i++)
            CHECK(in[i] == 7 * prev + i);
        int outcount = 0, idx[N];
        CHECK_OK(MPI_Waitsome(N, r, &outcount, idx, MPI_STATUSES_IGNORE));
        CHECK(outcount == MPI_UNDEFINED);
        CHECK_OK(MPI_Testsome(N, r, &outcount, idx, MPI_STATUSES_IGNORE));
        CHECK(outcount == MPI_UNDEFINED);
    }

    /* Testall loop, Test, Testany. */
    {
        double in = -1, out = rank + 0.5;
        MPI_Request r[2];
        CHECK_OK(MPI_Irecv(&in, 1, MPI_DOUBLE, prev, 40, w, &r[0]));
        CHECK_OK(MPI_Isend(&out, 1, MPI_DOUBLE, next, 40, w, &r[1]));
        int flag = 0;
        while (!flag)
            CHECK_OK(MPI_Testall(2, r, &flag, MPI_STATUSES_IGNORE));
        CHECK(in == prev + 0.5);
        CHECK(r[0] == MPI_REQUEST_NULL && r[1] == MPI_REQUEST_NULL);

        CHECK_OK(MPI_Irecv(&in, 1, MPI_DOUBLE, prev, 41, w, &r[0]));
        CHECK_OK(MPI_Send(&out, 1, MPI_DOUBLE, next, 41, w));
        MPI_Status st;
        flag = 0;
        while (!flag)
            CHECK_OK(MPI_Test(&r[0], &flag, &st));
        CHECK(st.MPI_SOURCE == prev && st.MPI_TAG == 41);

        CHECK_OK(MPI_Irecv(&in, 1, MPI_DOUBLE, prev, 42, w, &r[0]));
        r[1] = MPI_REQUEST_NULL;
        CHECK_OK(MPI_Send(&out, 1, MPI_DOUBLE, next, 42, w));
        int idx = -1;
        flag = 0;
        while (!flag)
            CHECK_OK(MPI_Testany(2, r, &idx, &flag, &st));
        CHECK(idx == 0 && st.MPI_TAG == 42);
        CHECK_OK(MPI_Testany(2, r, &idx, &flag, &st));
        CHECK(flag == 1 && idx == MPI_UNDEFINED);
    }

    /* Isendrecv and Isendrecv_replace rings; Request_get_status_all/any/some leave the
     * requests live. */
    {
        int out = rank * 5, in = -1, rep = rank * 9;
        MPI_Request r[2];
        CHECK_OK(MPI_Isendrecv(&out, 1, MPI_INT, next, 90, &in, 1, MPI_INT, prev, 90, w, &r[0]));
        CHECK_OK(MPI_Isendrecv_replace(&rep, 1, MPI_INT, next, 91, prev, 91, w, &r[1]));
        int flag = 0;
        MPI_Status st[2];
        while (!flag)
            CHECK_OK(MPI_Request_get_status_all(2, r, &flag, st));
        CHECK(r[0] != MPI_REQUEST_NULL && r[1] != MPI_REQUEST_NULL);
        CHECK(st[0].MPI_SOURCE == prev && st[0].MPI_TAG == 90 && st[1].MPI_TAG == 91);
        int idx = -1;
        CHECK_OK(MPI_Request_get_status_any(2, r, &idx, &flag, &st[0]));
        CHECK(flag == 1 && idx >= 0 && idx < 2 && r[idx] != MPI_REQUEST_NULL);
        int outcount = -1, ids[2];
        CHECK_OK(MPI_Request_get_status_some(2, r, &outcount, ids, MPI_STATUSES_IGNORE));
        CHECK(outcount == 2 && ids[0] == 0 && ids[1] == 1);
        CHECK_OK(MPI_Waitall(2, r, st));
        CHECK(in == prev * 5 && rep == prev * 9);
        CHECK(st[1].MPI_SOURCE == prev);
        int cancelled = 1;
        CHECK_OK(MPI_Test_cancelled(&st[0], &cancelled));
        CHECK(cancelled == 0);
        CHECK_OK(MPI_Request_get_status_any(2, r, &idx, &flag, MPI_STATUS_IGNORE));
        CHECK(flag == 1 && idx == MPI_UNDEFINED);
        CHECK_OK(MPI_Request_get_status_some(2, r, &outcount, ids, MPI_STATUSES_IGNORE));
        CHECK(outcount == MPI_UNDEFINED);
    }

    /* MPI_REQUEST_NULL: Wait and Test complete at once with an empty status. */
    {
        MPI_Request r = MPI_REQUEST_NULL;
        MPI_Status st;
        st.MPI_SOURCE = 99;
        CHECK_OK(MPI_Wait(&r, &st));
        CHECK(st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG);
        int flag = 0;
        CHECK_OK(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
        CHECK(flag == 1);
        CHECK_OK(MPI_Request_get_status(MPI_REQUEST_NULL, &flag, MPI_STATUS_IGNORE));
        CHECK(flag == 1);
        CHECK_OK(MPI_Waitall(0, NULL, MPI_STATUSES_IGNORE));
    }

    /* ANY_SOURCE: rank 0 receives one message from every other rank. */
    if (rank == 0) {
        int in[16];
        MPI_Request r[16];
        for (int i = 1; i < size; i++)
            CHECK_OK(MPI_Irecv(&in[i], 1, MPI_INT, MPI_ANY_SOURCE, 50, w, &r[i]));
        MPI_Status st[16];
        if (size > 1)
            CHECK_OK(MPI_Waitall(size - 1, &r[1], &st[1]));
        int seen = 0;
        for (int i = 1; i < size; i++) {
            CHECK(st[i].MPI_SOURCE >= 1 && st[i].MPI_SOURCE < size);
            CHECK(in[i] == st[i].MPI_SOURCE * 3);
            seen |= 1 << st[i].MPI_SOURCE;
        }
        CHECK(seen == (1 << size) - 2);
    } else {
        int v = rank * 3;
        MPI_Request r;
        CHECK_OK(MPI_Isend(&v, 1, MPI_INT, 0, 50, w, &r));
        CHECK_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    }

    /* Request_free: on a completed send, and on a receive still pending (it completes in the
     * background; its buffer stays valid until the matching message arrived). */
    {
        static int bg_in = -1;
        int v = rank, flag = 0;
        MPI_Request r;
        CHECK_OK(MPI_Isend(&v, 1, MPI_INT, next, 60, w, &r));
        MPI_Status st;
        do
            CHECK_OK(MPI_Request_get_status(r, &flag, &st));
        while (!flag);
        CHECK(r != MPI_REQUEST_NULL);
        CHECK(MPI_Request_fromint(MPI_Request_toint(r)) == r);
        CHECK_OK(MPI_Request_free(&r));
        CHECK(r == MPI_REQUEST_NULL);
        CHECK(MPI_Request_fromint(MPI_Request_toint(MPI_REQUEST_NULL)) == MPI_REQUEST_NULL);

        MPI_Request pending;
        CHECK_OK(MPI_Irecv(&bg_in, 1, MPI_INT, prev, 61, w, &pending));
        CHECK_OK(MPI_Request_free(&pending));
        CHECK(pending == MPI_REQUEST_NULL);
        int got = -1;
        CHECK_OK(MPI_Recv(&got, 1, MPI_INT, prev, 60, w, MPI_STATUS_IGNORE));
        CHECK(got == prev);
        CHECK_OK(MPI_Send(&v, 1, MPI_INT, next, 61, w));
        CHECK_OK(MPI_Send(&v, 1, MPI_INT, next, 62, w));
        CHECK_OK(MPI_Recv(&got, 1, MPI_INT, prev, 62, w, MPI_STATUS_IGNORE));
        /* Non-overtaking: tag 61 was matched first; its copy lands in the background. */
        for (long i = 0; i < 100000000L && *(volatile int *)&bg_in != prev; i++) {
            int f;
            CHECK_OK(MPI_Iprobe(MPI_ANY_SOURCE, 999, w, &f, MPI_STATUS_IGNORE));
        }
        CHECK(*(volatile int *)&bg_in == prev);
        CHECK_OK(MPI_Barrier(w));
    }

    /* Errors: truncation in Waitall is MPI_ERR_IN_STATUS; invalid handles are MPI_ERR_REQUEST. */
    CHECK_OK(MPI_Comm_set_errhandler(w, MPI_ERRORS_RETURN));
    {
        int big[4] = {1, 2, 3, 4}, small = -1, ok = -1, one = 5;
        MPI_Request r[2];
        MPI_Status st[2];
        CHECK_OK(MPI_Irecv(&small, 1, MPI_INT, prev, 70, w, &r[0]));
        CHECK_OK(MPI_Irecv(&ok, 1, MPI_INT, prev, 71, w, &r[1]));
        CHECK_OK(MPI_Send(big, 4, MPI_INT, next, 70, w));
        CHECK_OK(MPI_Send(&one, 1, MPI_INT, next, 71, w));
        EXPECT_CLASS(MPI_Waitall(2, r, st), MPI_ERR_IN_STATUS);
        CHECK(st[0].MPI_ERROR == MPI_ERR_TRUNCATE && st[1].MPI_ERROR == MPI_SUCCESS);
        CHECK(small == 1 && ok == 5);
        CHECK(r[0] == MPI_REQUEST_NULL && r[1] == MPI_REQUEST_NULL);

        CHECK_OK(MPI_Irecv(&small, 1, MPI_INT, prev, 72, w, &r[0]));
        CHECK_OK(MPI_Send(big, 4, MPI_INT, next, 72, w));
        int flag = 0, rc = MPI_SUCCESS;
        while (!flag)
            rc = MPI_Request_get_status(r[0], &flag, &st[0]);
        int cls = -1;
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_TRUNCATE && r[0] != MPI_REQUEST_NULL);
        EXPECT_CLASS(MPI_Wait(&r[0], &st[0]), MPI_ERR_TRUNCATE);
        CHECK(st[0].MPI_ERROR == MPI_ERR_TRUNCATE && r[0] == MPI_REQUEST_NULL);

        MPI_Request bogus = (MPI_Request)(intptr_t)0x12345;
        EXPECT_CLASS(MPI_Wait(&bogus, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
        MPI_Request null = MPI_REQUEST_NULL;
        EXPECT_CLASS(MPI_Request_free(&null), MPI_ERR_REQUEST);
        EXPECT_CLASS(MPI_Isend(big, 1, MPI_INT, next, 0, w, NULL), MPI_ERR_ARG);
    }

    /* Large-count variants and MPI_PROC_NULL. */
    {
        long long out = rank, in = -1;
        MPI_Request r[3];
        CHECK_OK(MPI_Irecv_c(&in, 1, MPI_LONG_LONG, prev, 80, w, &r[0]));
        CHECK_OK(MPI_Isend_c(&out, 1, MPI_LONG_LONG, next, 80, w, &r[1]));
        CHECK_OK(MPI_Irecv(&in, 1, MPI_LONG_LONG, MPI_PROC_NULL, 80, w, &r[2]));
        MPI_Status st[3];
        CHECK_OK(MPI_Waitall(3, r, st));
        CHECK(in == prev);
        CHECK(st[2].MPI_SOURCE == MPI_PROC_NULL);
    }
    return check_finish();
}
