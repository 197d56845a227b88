/*
 * rma_errors.c: misuse of windows gives the MPI error classes, never a crash or a hang, at
 * any rank count.
 *
 * Covered (window error handler MPI_ERRORS_RETURN, set with MPI_Win_set_errhandler):
 * MPI_ERR_RMA_SYNC for a put outside any epoch, an unlock without a lock, a nested lock, a
 * flush outside a passive-target epoch, complete without start, wait without post, a fence
 * inside a lock epoch and MPI_Win_free while holding a lock; MPI_ERR_RMA_RANGE for a put
 * past the end of the target's window and before its start; MPI_ERR_RANK for target ranks
 * out of range; MPI_ERR_LOCKTYPE, MPI_ERR_ASSERT, MPI_ERR_RMA_FLAVOR (attach to a non-dynamic
 * window), MPI_ERR_SIZE and MPI_ERR_DISP at creation (through the communicator's handler),
 * MPI_ERR_WIN for MPI_WIN_NULL; a user window error handler from MPI_Win_create_errhandler
 * sees the window and the code of MPI_Win_call_errhandler and of a real error. The window
 * still works afterwards. A freed window's handle gives MPI_ERR_WIN, also right after a get on
 * it.
 */
#include "mpi_check.h"

static int handler_calls = 0, handler_code = 0;
static MPI_Win handler_win = MPI_WIN_NULL;

static void on_error(MPI_Win *win, int *code, ...)
{
    handler_calls++;
    handler_code = *code;
    handler_win = *win;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    int buf[4] = {0, 0, 0, 0}, v = 7;
    MPI_Win win;
    EXPECT_CLASS(MPI_Win_create(buf, -1, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_ERR_SIZE);
    EXPECT_CLASS(MPI_Win_create(buf, 16, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_ERR_DISP);
    CHECK_OK(MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    CHECK_OK(MPI_Win_get_errhandler(win, &eh));
    CHECK(eh == MPI_ERRORS_ARE_FATAL);
    CHECK_OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    int right = (rank + 1) % size;

    EXPECT_CLASS(MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
    EXPECT_CLASS(MPI_Win_unlock(right, win), MPI_ERR_RMA_SYNC);
    EXPECT_CLASS(MPI_Win_unlock_all(win), MPI_ERR_RMA_SYNC);
    EXPECT_CLASS(MPI_Win_flush(right, win), MPI_ERR_RMA_SYNC);
    EXPECT_CLASS(MPI_Win_complete(win), MPI_ERR_RMA_SYNC);
    EXPECT_CLASS(MPI_Win_wait(win), MPI_ERR_RMA_SYNC);
    EXPECT_CLASS(MPI_Win_lock(12345, right, 0, win), MPI_ERR_LOCKTYPE);
    EXPECT_CLASS(MPI_Win_fence(1, win), MPI_ERR_ASSERT);
    EXPECT_CLASS(MPI_Win_attach(win, buf, sizeof buf), MPI_ERR_RMA_FLAVOR);
    EXPECT_CLASS(MPI_Win_lock(MPI_LOCK_SHARED, size, 0, win), MPI_ERR_RANK);

    CHECK_OK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    EXPECT_CLASS(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win), MPI_ERR_RMA_SYNC);
    EXPECT_CLASS(MPI_Win_fence(0, win), MPI_ERR_RMA_SYNC);
    EXPECT_CLASS(MPI_Win_free(&win), MPI_ERR_RMA_SYNC);
    CHECK(win != MPI_WIN_NULL);
    EXPECT_CLASS(MPI_Put(&v, 1, MPI_INT, right, 4, 1, MPI_INT, win), MPI_ERR_RMA_RANGE);
    EXPECT_CLASS(MPI_Put(&v, 1, MPI_INT, right, -1, 1, MPI_INT, win), MPI_ERR_RMA_RANGE);
    EXPECT_CLASS(MPI_Get(buf, 2, MPI_INT, right, 3, 2, MPI_INT, win), MPI_ERR_RMA_RANGE);
    EXPECT_CLASS(MPI_Put(&v, 1, MPI_INT, size, 0, 1, MPI_INT, win), MPI_ERR_RANK);
    EXPECT_CLASS(MPI_Put(&v, 1, MPI_INT, -5, 0, 1, MPI_INT, win), MPI_ERR_RANK);
    CHECK_OK(MPI_Put(&v, 1, MPI_INT, right, 3, 1, MPI_INT, win)); /* still usable */
    CHECK_OK(MPI_Win_unlock(right, win));
    /* The epoch is over: accesses fail again. */
    EXPECT_CLASS(MPI_Put(&v, 1, MPI_INT, right, 3, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
    EXPECT_CLASS(MPI_Get(&v, 1, MPI_INT, right, 3, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
    CHECK_OK(MPI_Win_fence(0, win));
    CHECK_OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    EXPECT_CLASS(MPI_Put(&v, 1, MPI_INT, right, 3, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK(buf[3] == 7 && buf[0] == 0);

    MPI_Errhandler mine;
    CHECK_OK(MPI_Win_create_errhandler(on_error, &mine));
    CHECK_OK(MPI_Win_set_errhandler(win, mine));
    CHECK_OK(MPI_Win_call_errhandler(win, MPI_ERR_OTHER));
    CHECK(handler_calls == 1 && handler_code == MPI_ERR_OTHER && handler_win == win);
    EXPECT_CLASS(MPI_Win_unlock(right, win), MPI_ERR_RMA_SYNC);
    CHECK(handler_calls == 2 && handler_code == MPI_ERR_RMA_SYNC);
    CHECK_OK(MPI_Errhandler_free(&mine));

    EXPECT_CLASS(MPI_Win_fence(0, MPI_WIN_NULL), MPI_ERR_WIN);

    /* A freed window's handle is refused, also right after puts and gets on it (the library
     * remembers each thread's last window). */
    MPI_Win gone, stale;
    CHECK_OK(MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &gone));
    CHECK_OK(MPI_Win_set_errhandler(gone, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Win_fence(0, gone));
    CHECK_OK(MPI_Get(&v, 1, MPI_INT, right, 3, 1, MPI_INT, gone));
    CHECK(v == 7);
    CHECK_OK(MPI_Win_fence(0, gone));
    stale = gone;
    CHECK_OK(MPI_Win_free(&gone));
    EXPECT_CLASS(MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, stale), MPI_ERR_WIN);
    EXPECT_CLASS(MPI_Get(&v, 1, MPI_INT, right, 0, 1, MPI_INT, stale), MPI_ERR_WIN);
    CHECK_OK(MPI_Win_free(&win));
    return check_finish();
}
