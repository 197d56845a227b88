/* MPI shim point-to-point: ring, ANY_SOURCE/ANY_TAG with status, Probe + Get_count on a
 * message of unknown size, MPI_PROC_NULL, Sendrecv, Iprobe, large-count variants, truncation. */
#include "mpi_check.h"

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    int rank, size;
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    rank = check_rank;
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;

    /* Ring: every rank sends its rank (as ints) to the next one. */
    int out[4] = {rank, rank * 10, rank * 100, -rank}, in[4] = {-1, -1, -1, -1};
    MPI_Status st;
    CHECK_OK(MPI_Send(out, 4, MPI_INT, next, 7, MPI_COMM_WORLD));
    CHECK_OK(MPI_Recv(in, 4, MPI_INT, prev, 7, MPI_COMM_WORLD, &st));
    CHECK(in[0] == prev && in[1] == prev * 10 && in[2] == prev * 100 && in[3] == -prev);
    CHECK(st.MPI_SOURCE == prev && st.MPI_TAG == 7);
    int n = -1;
    CHECK_OK(MPI_Get_count(&st, MPI_INT, &n));
    CHECK(n == 4);
    CHECK_OK(MPI_Get_count(&st, MPI_DOUBLE, &n));
    CHECK(n == 2);
    /* MPI_SHORT_INT holds 6 bytes of data (its extent is 8): 16 bytes are not whole pairs. */
    CHECK_OK(MPI_Get_count(&st, MPI_SHORT_INT, &n));
    CHECK(n == MPI_UNDEFINED);
    CHECK_OK(MPI_Get_count(&st, MPI_2INT, &n));
    CHECK(n == 2);

    /* ANY_SOURCE / ANY_TAG: rank 0 hears from everyone else, the status names the sender. */
    if (rank == 0) {
        int seen = 0;
        for (int i = 1; i < size; i++) {
            double v = -1;
            CHECK_OK(MPI_Recv(&v, 1, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
            CHECK(st.MPI_SOURCE >= 1 && st.MPI_SOURCE < size);
            CHECK(st.MPI_TAG == 100 + st.MPI_SOURCE);
            CHECK(v == 0.5 * st.MPI_SOURCE);
            seen |= 1 << st.MPI_SOURCE;
        }
        CHECK(seen == ((1 << size) - 2));
    } else {
        double v = 0.5 * rank;
        CHECK_OK(MPI_Send(&v, 1, MPI_DOUBLE, 0, 100 + rank, MPI_COMM_WORLD));
    }
    /* Nothing else may be in flight to rank 0 while it matches ANY_TAG. */
    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));

    /* Probe + Get_count on a message of unknown size, then receive exactly that. */
    int len = 3 + rank;
    long long big[8] = {0};
    for (int i = 0; i < len; i++) {
        big[i] = (long long)rank * 1000 + i;
    }
    CHECK_OK(MPI_Send(big, len, MPI_LONG_LONG, next, 9, MPI_COMM_WORLD));
    CHECK_OK(MPI_Probe(prev, 9, MPI_COMM_WORLD, &st));
    CHECK_OK(MPI_Get_count(&st, MPI_LONG_LONG, &n));
    CHECK(n == 3 + prev && st.MPI_SOURCE == prev && st.MPI_TAG == 9);
    MPI_Count nc = -1;
    CHECK_OK(MPI_Get_count_c(&st, MPI_BYTE, &nc));
    CHECK(nc == (MPI_Count)(n * sizeof(long long)));
    long long got[8] = {0};
    CHECK_OK(MPI_Recv(got, n, MPI_LONG_LONG, prev, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int i = 0; i < n; i++) {
        CHECK(got[i] == (long long)prev * 1000 + i);
    }

    /* MPI_PROC_NULL: sends vanish, receives complete at once with the PROC_NULL status. */
    CHECK_OK(MPI_Send(out, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD));
    CHECK_OK(MPI_Recv(in, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG);
    CHECK_OK(MPI_Get_count(&st, MPI_INT, &n));
    CHECK(n == 0);

    /* Sendrecv around the ring both ways (would deadlock as plain blocking sends). */
    float f = (float)rank + 0.25f, g = -1;
    CHECK_OK(MPI_Sendrecv(&f, 1, MPI_FLOAT, next, 3, &g, 1, MPI_FLOAT, prev, 3, MPI_COMM_WORLD,
                          &st));
    CHECK(g == (float)prev + 0.25f && st.MPI_SOURCE == prev);
    CHECK_OK(MPI_Sendrecv(&f, 1, MPI_FLOAT, prev, 4, &g, 1, MPI_FLOAT, next, 4, MPI_COMM_WORLD,
                          MPI_STATUS_IGNORE));
    CHECK(g == (float)next + 0.25f);

    /* Large-count variants share the implementation. */
    unsigned char bytes[5] = {1, 2, 3, 4, (unsigned char)rank}, rb[5] = {0};
    CHECK_OK(MPI_Send_c(bytes, 5, MPI_BYTE, next, 5, MPI_COMM_WORLD));
    CHECK_OK(MPI_Recv_c(rb, 5, MPI_BYTE, prev, 5, MPI_COMM_WORLD, &st));
    CHECK(rb[0] == 1 && rb[4] == (unsigned char)prev);

    /* Iprobe: finds nothing, then the message a rank sent itself. */
    int flag = -1;
    CHECK_OK(MPI_Iprobe(MPI_ANY_SOURCE, 77, MPI_COMM_SELF, &flag, &st));
    CHECK(flag == 0);
    CHECK_OK(MPI_Send(out, 2, MPI_INT, 0, 77, MPI_COMM_SELF));
    for (int i = 0; i < 1000 && !flag; i++) {
        CHECK_OK(MPI_Iprobe(MPI_ANY_SOURCE, 77, MPI_COMM_SELF, &flag, &st));
    }
    CHECK(flag == 1 && st.MPI_SOURCE == 0 && st.MPI_TAG == 77);

    /* Truncation under MPI_ERRORS_RETURN: MPI_ERR_TRUNCATE, status still filled (but not its
     * MPI_ERROR: a single-completion call leaves that field alone, MPI 4.1 §3.2.5). */
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    int one = -1;
    st.MPI_ERROR = -77;
    EXPECT_CLASS(MPI_Recv(&one, 1, MPI_INT, 0, 77, MPI_COMM_SELF, &st), MPI_ERR_TRUNCATE);
    CHECK(st.MPI_ERROR == -77 && st.MPI_TAG == 77 && one == out[0]);

    /* A duplicated and a split communicator carry their own traffic. */
    MPI_Comm dup, half;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK(dup != MPI_COMM_WORLD && dup != MPI_COMM_NULL);
    CHECK_OK(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half));
    int hr, hs;
    CHECK_OK(MPI_Comm_rank(half, &hr));
    CHECK_OK(MPI_Comm_size(half, &hs));
    CHECK(hs == (size + 1 - rank % 2) / 2 && hr == hs - 1 - rank / 2);
    CHECK(MPI_Comm_fromint(MPI_Comm_toint(half)) == half);
    CHECK_OK(MPI_Sendrecv(&rank, 1, MPI_INT, next, 0, &n, 1, MPI_INT, prev, 0, dup, &st));
    CHECK(n == prev);
    MPI_Errhandler eh;
    CHECK_OK(MPI_Comm_get_errhandler(dup, &eh));
    CHECK(eh == MPI_ERRORS_ARE_FATAL);
    CHECK_OK(MPI_Comm_free(&dup));
    CHECK(dup == MPI_COMM_NULL);
    CHECK_OK(MPI_Comm_free(&half));
    MPI_Comm none;
    CHECK_OK(MPI_Comm_split(MPI_COMM_WORLD, MPI_UNDEFINED, 0, &none));
    CHECK(none == MPI_COMM_NULL);

    return check_finish();
}
