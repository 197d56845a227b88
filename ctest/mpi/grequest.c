/* Generalized requests (MPI_Grequest_start / MPI_Grequest_complete): completed by another
 * thread; MPI_Test is false before completion; MPI_Wait returns the status query_fn fills in;
 * free_fn runs exactly once; MPI_Request_get_status queries without freeing; MPI_Cancel calls
 * cancel_fn with whether the request has completed; a request freed before completion runs
 * free_fn once completed. Runs on every rank independently. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "mpi_check.h"
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

struct state {
    atomic_int queried, freed, cancelled, cancel_complete;
    int tag;
};

static int query_fn(void *extra, MPI_Status *st)
{
    struct state *s = extra;
    atomic_fetch_add(&s->queried, 1);
    MPI_Status_set_source(st, 42);
    MPI_Status_set_tag(st, s->tag);
    MPI_Status_set_elements(st, MPI_INT, 5);
    MPI_Status_set_cancelled(st, atomic_load(&s->cancelled) > 0);
    return MPI_SUCCESS;
}

static int free_fn(void *extra)
{
    atomic_fetch_add(&((struct state *)extra)->freed, 1);
    return MPI_SUCCESS;
}

/* A free_fn that fails: its code is the result of the wait that releases the request. */
static int failing_free_fn(void *extra)
{
    atomic_fetch_add(&((struct state *)extra)->freed, 1);
    return MPI_ERR_BUFFER;
}

static int cancel_fn(void *extra, int complete)
{
    struct state *s = extra;
    atomic_fetch_add(&s->cancelled, 1);
    atomic_store(&s->cancel_complete, complete);
    return MPI_SUCCESS;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void *completer(void *arg)
{
    sleep_ms(50);
    CHECK_OK(MPI_Grequest_complete(*(MPI_Request *)arg));
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    CHECK_OK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK_OK(MPI_Comm_rank(MPI_COMM_WORLD, &check_rank));
    CHECK(provided == MPI_THREAD_MULTIPLE);

    /* Completed by another thread; Wait returns query_fn's status; free_fn once. */
    {
        struct state s = {0};
        s.tag = 7 + check_rank;
        MPI_Request r, copy;
        CHECK_OK(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &r));
        int flag = 1;
        CHECK_OK(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
        CHECK(flag == 0);
        CHECK(r != MPI_REQUEST_NULL);
        copy = r;
        pthread_t th;
        CHECK(pthread_create(&th, NULL, completer, &copy) == 0);
        MPI_Status st;
        CHECK_OK(MPI_Wait(&r, &st));
        CHECK(pthread_join(th, NULL) == 0);
        CHECK(r == MPI_REQUEST_NULL);
        CHECK(st.MPI_SOURCE == 42);
        CHECK(st.MPI_TAG == 7 + check_rank);
        int n = -1, cancelled = 1;
        CHECK_OK(MPI_Get_count(&st, MPI_INT, &n));
        CHECK(n == 5);
        CHECK_OK(MPI_Test_cancelled(&st, &cancelled));
        CHECK(cancelled == 0);
        CHECK(atomic_load(&s.queried) == 1);
        CHECK(atomic_load(&s.freed) == 1);
        CHECK(atomic_load(&s.cancelled) == 0);
    }

    /* Test loop; Request_get_status queries without freeing. */
    {
        struct state s = {0};
        s.tag = 3;
        MPI_Request r;
        CHECK_OK(MPI_Grequest_start(query_fn, free_fn, NULL, &s, &r));
        int flag = 1;
        CHECK_OK(MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE));
        CHECK(flag == 0);
        CHECK_OK(MPI_Grequest_complete(r));
        MPI_Status st;
        for (int i = 0; i < 5000 && !flag; i++) {
            CHECK_OK(MPI_Request_get_status(r, &flag, &st));
            if (!flag)
                sleep_ms(1);
        }
        CHECK(flag == 1);
        CHECK(st.MPI_TAG == 3);
        CHECK(atomic_load(&s.freed) == 0);
        CHECK(r != MPI_REQUEST_NULL);
        flag = 0;
        for (int i = 0; i < 5000 && !flag; i++)
            CHECK_OK(MPI_Test(&r, &flag, &st));
        CHECK(flag == 1);
        CHECK(r == MPI_REQUEST_NULL);
        CHECK(st.MPI_SOURCE == 42 && st.MPI_TAG == 3);
        CHECK(atomic_load(&s.freed) == 1);
    }

    /* Cancel before completion: cancel_fn(complete = 0); the status says cancelled. */
    {
        struct state s = {0};
        MPI_Request r;
        CHECK_OK(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &r));
        CHECK_OK(MPI_Cancel(&r));
        CHECK(atomic_load(&s.cancelled) == 1);
        CHECK(atomic_load(&s.cancel_complete) == 0);
        CHECK_OK(MPI_Grequest_complete(r));
        MPI_Status st;
        CHECK_OK(MPI_Wait(&r, &st));
        int cancelled = 0;
        CHECK_OK(MPI_Test_cancelled(&st, &cancelled));
        CHECK(cancelled == 1);
        CHECK(atomic_load(&s.freed) == 1);
    }

    /* Cancel after completion: cancel_fn(complete = 1). */
    {
        struct state s = {0};
        MPI_Request r;
        CHECK_OK(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &r));
        CHECK_OK(MPI_Grequest_complete(r));
        CHECK_OK(MPI_Cancel(&r));
        CHECK(atomic_load(&s.cancelled) == 1);
        CHECK(atomic_load(&s.cancel_complete) == 1);
        CHECK_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        CHECK(atomic_load(&s.freed) == 1);
    }

    /* Freed before completion: free_fn waits for MPI_Grequest_complete, then runs once. */
    {
        struct state s = {0};
        MPI_Request r, keep;
        CHECK_OK(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &r));
        keep = r;
        CHECK_OK(MPI_Request_free(&r));
        CHECK(r == MPI_REQUEST_NULL);
        CHECK(atomic_load(&s.freed) == 0);
        CHECK_OK(MPI_Grequest_complete(keep));
        for (int i = 0; i < 5000 && atomic_load(&s.freed) == 0; i++)
            sleep_ms(1);
        CHECK(atomic_load(&s.freed) == 1);
        CHECK(atomic_load(&s.queried) == 0);
    }

    /* Completing twice, or something that is not a generalized request, is an error. */
    {
        CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
        struct state s = {0};
        MPI_Request r;
        CHECK_OK(MPI_Grequest_start(NULL, NULL, NULL, &s, &r));
        CHECK_OK(MPI_Grequest_complete(r));
        EXPECT_CLASS(MPI_Grequest_complete(r), MPI_ERR_REQUEST);
        CHECK_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        struct state f = {0};
        CHECK_OK(MPI_Grequest_start(query_fn, failing_free_fn, NULL, &f, &r));
        CHECK_OK(MPI_Grequest_complete(r));
        EXPECT_CLASS(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_ERR_BUFFER);
        CHECK(r == MPI_REQUEST_NULL && atomic_load(&f.freed) == 1);
        EXPECT_CLASS(MPI_Grequest_complete(MPI_REQUEST_NULL), MPI_ERR_REQUEST);
        EXPECT_CLASS(MPI_Grequest_start(NULL, NULL, NULL, &s, NULL), MPI_ERR_ARG);
    }

    return check_finish();
}
