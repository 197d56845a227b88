/*
 * test_threads: several POSIX threads per rank calling nexar at the same time.
 *
 * nexar.h promises: "Every function may be called from any thread at the same time" (each
 * function's comment repeats "Thread safety: any thread"). The exceptions are ordering rules,
 * not locking rules: collectives on one communicator must be started in the same order on every
 * rank, so each thread here runs its collectives on its own communicator (duplicated by the main
 * thread before the threads start, so every rank dups in the same order); and nexar_init /
 * nexar_finalize are called once, by the main thread, outside the threaded section.
 *
 * Each of NT threads, concurrently with the others:
 *  - runs allreduce loops on its own dup'ed communicator (blocking, and non-blocking completed
 *    with a nexar_test loop), results checked;
 *  - exchanges point-to-point messages around the ring on NEXAR_COMM_WORLD with a tag of its
 *    own (so threads never take each other's messages), contents checked;
 *  - dups and frees a communicator of its own (handle tables under contention);
 *  - makes a failing call and checks nexar_last_error_message() is its own (thread-local) even
 *    after every other thread has failed differently in between.
 * Then two threads race on one handle: waiting on the same pending request (exactly one wait
 * completes it, the other gets NEXAR_ERR_REQUEST, as nexar.h documents), and freeing the same
 * communicator (exactly one NEXAR_SUCCESS, one NEXAR_ERR_COMM).
 */
#include "check.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define NT 4
#define ITERS 40
#define W NEXAR_COMM_WORLD

static int rank, size;
static nexar_comm_t comms[NT];
static pthread_barrier_t all_failed;

static void *worker(void *arg)
{
    int tid = (int)(intptr_t)arg;
    nexar_comm_t c = comms[tid];
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    CTX("thread %d", tid);
    for (int it = 0; it < ITERS; it++) {
        int64_t v[8], r[8];
        for (int i = 0; i < 8; i++) {
            v[i] = (int64_t)rank * 1000 + tid * 100 + it + i;
        }
        if (it % 4 == 3) {
            nexar_request_t q;
            int flag = 0;
            CHECK_OK(nexar_iallreduce(v, r, 8, NEXAR_DTYPE_INT64, NEXAR_OP_SUM, c, &q));
            while (!flag) {
                CHECK_OK(nexar_test(&q, &flag, NULL));
                if (!flag) {
                    sched_yield();
                }
            }
        } else {
            CHECK_OK(nexar_allreduce(v, r, 8, NEXAR_DTYPE_INT64, NEXAR_OP_SUM, c));
        }
        for (int i = 0; i < 8; i++) {
            int64_t want = (int64_t)size * (size - 1) / 2 * 1000 +
                           (int64_t)size * (tid * 100 + it + i);
            CHECK(r[i] == want);
        }

        int32_t out[3] = { rank, tid, it }, in[3] = { -1, -1, -1 };
        nexar_status_t st;
        int tag = 1000 + tid;
        if (it % 2) {
            CHECK_OK(nexar_sendrecv(out, 3, NEXAR_DTYPE_INT32, right, tag, in, 3,
                                    NEXAR_DTYPE_INT32, left, tag, W, &st));
        } else {
            CHECK_OK(nexar_send(out, 3, NEXAR_DTYPE_INT32, right, tag, W));
            CHECK_OK(nexar_recv(in, 3, NEXAR_DTYPE_INT32, NEXAR_ANY_SOURCE, tag, W, &st));
        }
        CHECK(in[0] == left && in[1] == tid && in[2] == it);
        CHECK(st.source == left && st.tag == tag);

        int r2 = -1, s2 = -1;
        CHECK_OK(nexar_comm_rank(c, &r2));
        CHECK_OK(nexar_comm_size(W, &s2));
        CHECK(r2 == rank && s2 == size);
        CHECK(nexar_error_string(NEXAR_ERR_TAG) != NULL);
        CHECK(nexar_wtime() >= 0.0);

        if (it % 10 == 0) {
            nexar_comm_t sub = NULL;
            CHECK_OK(nexar_comm_dup(c, &sub));
            int one = 1, n = 0;
            CHECK_OK(nexar_allreduce(&one, &n, 1, NEXAR_DTYPE_INT32, NEXAR_OP_SUM, sub));
            CHECK(n == size);
            CHECK_OK(nexar_comm_free(&sub));
            CHECK(sub == NULL);
        }
    }

    /* Thread-local error messages: fail, wait until every thread has failed, then read. */
    int bad_tag = -(100 + tid);
    EXPECT_CODE(nexar_send(&rank, 1, NEXAR_DTYPE_INT32, 0, bad_tag, W), NEXAR_ERR_TAG);
    int rc = pthread_barrier_wait(&all_failed);
    CHECK(rc == 0 || rc == PTHREAD_BARRIER_SERIAL_THREAD);
    char want[32];
    snprintf(want, sizeof want, "tag %d", bad_tag);
    const char *msg = nexar_last_error_message();
    CHECK(msg != NULL && strstr(msg, want) != NULL);
    return NULL;
}

/* Two threads given the same handle value start the same call at once. */
static pthread_barrier_t race_start;
static nexar_request_t race_req;
static nexar_comm_t race_comm;
static int race_rc[2];

static void *race_wait(void *arg)
{
    int k = (int)(intptr_t)arg;
    nexar_request_t mine = race_req;
    int rc = pthread_barrier_wait(&race_start);
    CHECK(rc == 0 || rc == PTHREAD_BARRIER_SERIAL_THREAD);
    race_rc[k] = nexar_wait(&mine, NULL);
    CHECK(race_rc[k] != NEXAR_SUCCESS || mine == NEXAR_REQUEST_NULL);
    return NULL;
}

static void *race_free(void *arg)
{
    int k = (int)(intptr_t)arg;
    nexar_comm_t mine = race_comm;
    int rc = pthread_barrier_wait(&race_start);
    CHECK(rc == 0 || rc == PTHREAD_BARRIER_SERIAL_THREAD);
    race_rc[k] = nexar_comm_free(&mine);
    return NULL;
}

static void race(void *(*fn)(void *), void (*meanwhile)(void))
{
    pthread_t th[2];
    REQUIRE(pthread_barrier_init(&race_start, NULL, 2) == 0);
    for (int k = 0; k < 2; k++) {
        race_rc[k] = -1;
        REQUIRE(pthread_create(&th[k], NULL, fn, (void *)(intptr_t)k) == 0);
    }
    if (meanwhile) {
        meanwhile();
    }
    for (int k = 0; k < 2; k++) {
        REQUIRE(pthread_join(th[k], NULL) == 0);
    }
    pthread_barrier_destroy(&race_start);
}

static int race_value = -1;

static void send_to_self_later(void)
{
    struct timespec ts = { 0, 20 * 1000 * 1000 };
    nanosleep(&ts, NULL);
    CHECK_OK(nexar_send(&rank, 1, NEXAR_DTYPE_INT32, rank, 77, W));
}

static void test_races(void)
{
    CTX("two threads wait on one pending request");
    CHECK_OK(nexar_irecv(&race_value, 1, NEXAR_DTYPE_INT32, rank, 77, W, &race_req));
    race(race_wait, send_to_self_later);
    CHECK((race_rc[0] == NEXAR_SUCCESS && race_rc[1] == NEXAR_ERR_REQUEST) ||
          (race_rc[1] == NEXAR_SUCCESS && race_rc[0] == NEXAR_ERR_REQUEST));
    CHECK(race_value == rank);

    CTX("two threads free one communicator");
    CHECK_OK(nexar_comm_dup(W, &race_comm));
    race(race_free, NULL);
    CHECK((race_rc[0] == NEXAR_SUCCESS && race_rc[1] == NEXAR_ERR_COMM) ||
          (race_rc[1] == NEXAR_SUCCESS && race_rc[0] == NEXAR_ERR_COMM));
    check_ctx[0] = '\0';
}

int main(int argc, char **argv)
{
    check_init(&argc, &argv, &rank, &size);
    for (int t = 0; t < NT; t++) {
        CHECK_OK(nexar_comm_dup(W, &comms[t]));
    }
    REQUIRE(pthread_barrier_init(&all_failed, NULL, NT) == 0);
    pthread_t th[NT];
    for (int t = 0; t < NT; t++) {
        REQUIRE(pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t) == 0);
    }
    for (int t = 0; t < NT; t++) {
        REQUIRE(pthread_join(th[t], NULL) == 0);
    }
    pthread_barrier_destroy(&all_failed);
    for (int t = 0; t < NT; t++) {
        CHECK_OK(nexar_comm_free(&comms[t]));
    }
    test_races();
    CHECK_OK(nexar_barrier(W));
    return check_finish(1);
}
