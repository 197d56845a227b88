/*
 * bsend_space.c: buffered sends use up the attached buffer (MPI 4.1 §3.6): each message takes
 * its packed size plus at most MPI_BSEND_OVERHEAD until it has left the buffer (been received;
 * the messages here are large enough that the buffers sized below hold exactly as many
 * whatever the real bookkeeping per message, from 0 to MPI_BSEND_OVERHEAD bytes), and a
 * Bsend / Ibsend that does not fit in what is left fails with MPI_ERR_BUFFER. Receiving the
 * messages frees the space again, also for the next Bsend right after the receive. Detach and
 * flush wait for no receiver (nexar transmits a message when it is sent): ranks that Bsend to
 * each other, detach, then receive must not deadlock, and a flush frees the whole buffer.
 */
#include "mpi_check.h"

#define N 4096

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    MPI_Comm w = MPI_COMM_WORLD;
    CHECK_OK(MPI_Comm_set_errhandler(w, MPI_ERRORS_RETURN));
    int size;
    CHECK_OK(MPI_Comm_size(w, &size));
    int next = (check_rank + 1) % size, prev = (check_rank + size - 1) % size;
    int one_msg;
    CHECK_OK(MPI_Pack_size(N, MPI_INT, w, &one_msg));
    one_msg += MPI_BSEND_OVERHEAD;

    static int a[N], b[N], c[N], in[N];
    for (int i = 0; i < N; i++)
        a[i] = i, b[i] = 1000 + i, c[i] = 2000 + i;

    /* Room for exactly one message: the second, not received yet, does not fit. */
    char *mem = malloc((size_t)(2 * one_msg));
    CHECK_OK(MPI_Buffer_attach(mem, one_msg));
    CHECK_OK(MPI_Bsend(a, N, MPI_INT, next, 1, w));
    int rc = MPI_Bsend(b, N, MPI_INT, next, 2, w), cls = -1;
    MPI_Error_class(rc, &cls);
    if (cls != MPI_ERR_BUFFER)
        fprintf(stderr, "[rank %d] a second Bsend into a buffer for one message returned %d "
                        "(class %d), want MPI_ERR_BUFFER\n", check_rank, rc, cls);
    CHECK(cls == MPI_ERR_BUFFER);
    MPI_Request r = MPI_REQUEST_NULL;
    EXPECT_CLASS(MPI_Ibsend(b, N, MPI_INT, next, 2, w, &r), MPI_ERR_BUFFER);
    CHECK_OK(MPI_Barrier(w)); /* nobody receives before every rank has tried */

    /* Once received, its space is free again. */
    CHECK_OK(MPI_Recv(in, N, MPI_INT, prev, 1, w, MPI_STATUS_IGNORE));
    CHECK(in[0] == 0 && in[N - 1] == N - 1);
    void *addr = NULL;
    int got = 0;
    CHECK_OK(MPI_Buffer_detach(&addr, &got));
    CHECK(addr == mem && got == one_msg);

    /* Room for two: two fit, a third does not. */
    CHECK_OK(MPI_Buffer_attach(mem, 2 * one_msg));
    CHECK_OK(MPI_Bsend(a, N, MPI_INT, next, 3, w));
    CHECK_OK(MPI_Ibsend(b, N, MPI_INT, next, 4, w, &r));
    CHECK_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    rc = MPI_Bsend(c, N, MPI_INT, next, 5, w);
    MPI_Error_class(rc, &cls);
    if (cls != MPI_ERR_BUFFER)
        fprintf(stderr, "[rank %d] a third Bsend into a buffer for two messages returned %d "
                        "(class %d), want MPI_ERR_BUFFER\n", check_rank, rc, cls);
    CHECK(cls == MPI_ERR_BUFFER);
    CHECK_OK(MPI_Barrier(w));
    CHECK_OK(MPI_Recv(in, N, MPI_INT, prev, 3, w, MPI_STATUS_IGNORE));
    CHECK(in[5] == 5);
    CHECK_OK(MPI_Recv(in, N, MPI_INT, prev, 4, w, MPI_STATUS_IGNORE));
    CHECK(in[5] == 1005);
    CHECK_OK(MPI_Buffer_detach(&addr, &got));
    CHECK(addr == mem && got == 2 * one_msg);

    /* Room for one message, reused at once: a message received frees its space for the next
     * Bsend without a spurious MPI_ERR_BUFFER. */
    CHECK_OK(MPI_Buffer_attach(mem, one_msg));
    int failures = 0;
    for (int k = 0; k < 200; k++) {
        a[0] = k;
        if (MPI_Bsend(a, N, MPI_INT, 0, 6, MPI_COMM_SELF) != MPI_SUCCESS) {
            failures++;
            break;
        }
        CHECK_OK(MPI_Recv(in, N, MPI_INT, 0, 6, MPI_COMM_SELF, MPI_STATUS_IGNORE));
        CHECK(in[0] == k);
    }
    if (failures)
        fprintf(stderr, "[rank %d] a Bsend to self failed after its predecessor was received\n",
                check_rank);
    CHECK(failures == 0);
    CHECK_OK(MPI_Buffer_detach(&addr, &got));

    /* Bsend to the next rank, detach before anyone receives, then receive: no deadlock. */
    CHECK_OK(MPI_Buffer_attach(mem, one_msg));
    a[0] = 77;
    CHECK_OK(MPI_Bsend(a, N, MPI_INT, next, 7, w));
    CHECK_OK(MPI_Buffer_detach(&addr, &got));
    CHECK_OK(MPI_Recv(in, N, MPI_INT, prev, 7, w, MPI_STATUS_IGNORE));
    CHECK(in[0] == 77);

    /* A flush frees the buffer at once: the next Bsend fits though nothing was received. */
    CHECK_OK(MPI_Buffer_attach(mem, one_msg));
    a[0] = 88;
    CHECK_OK(MPI_Bsend(a, N, MPI_INT, next, 8, w));
    CHECK_OK(MPI_Buffer_flush());
    a[0] = 99;
    CHECK_OK(MPI_Bsend(a, N, MPI_INT, next, 9, w));
    CHECK_OK(MPI_Recv(in, N, MPI_INT, prev, 8, w, MPI_STATUS_IGNORE));
    CHECK(in[0] == 88);
    CHECK_OK(MPI_Recv(in, N, MPI_INT, prev, 9, w, MPI_STATUS_IGNORE));
    CHECK(in[0] == 99);
    CHECK_OK(MPI_Buffer_detach(&addr, &got));

    /* Nothing was sent by the failed calls. */
    int flag = 1;
    CHECK_OK(MPI_Barrier(w));
    CHECK_OK(MPI_Iprobe(prev, MPI_ANY_TAG, w, &flag, MPI_STATUS_IGNORE));
    CHECK(flag == 0);
    CHECK_OK(MPI_Barrier(w));
    free(mem);
    return check_finish();
}
