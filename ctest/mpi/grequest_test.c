/*
 * grequest_test.c: a generalized request completed by MPI_Grequest_complete on the calling
 * thread is complete at once (MPI 4.1 §13.2): the next MPI_Test reports flag = true, calls
 * query_fn for the status and then free_fn, each once; Testany / Testall / Testsome and
 * MPI_Request_get_status see it complete too (the last calls query_fn without freeing).
 */
#include "mpi_check.h"

struct state {
    int queried, freed;
};

static int query_fn(void *extra, MPI_Status *st)
{
    ((struct state *)extra)->queried++;
    MPI_Status_set_source(st, 3);
    MPI_Status_set_tag(st, 44);
    MPI_Status_set_elements(st, MPI_INT, 2);
    MPI_Status_set_cancelled(st, 0);
    return MPI_SUCCESS;
}

static int free_fn(void *extra)
{
    ((struct state *)extra)->freed++;
    return MPI_SUCCESS;
}

static int cancel_fn(void *extra, int complete)
{
    (void)extra, (void)complete;
    return MPI_SUCCESS;
}

static MPI_Request started(struct state *s)
{
    MPI_Request r;
    s->queried = s->freed = 0;
    CHECK_OK(MPI_Grequest_start(query_fn, free_fn, cancel_fn, s, &r));
    return r;
}

/* The status query_fn fills in. */
static int queried_status(const MPI_Status *st)
{
    int n = -1;
    MPI_Get_count(st, MPI_INT, &n);
    return st->MPI_SOURCE == 3 && st->MPI_TAG == 44 && n == 2;
}

#define DONE_ONCE(s, flag, what)                                                        \
    do {                                                                                \
        if (!(flag) || (s).queried != 1 || (s).freed != 1)                              \
            fprintf(stderr, "[rank %d] %s after MPI_Grequest_complete: flag %d, "        \
                            "query_fn ran %d times, free_fn %d (want 1, 1, 1)\n",       \
                    check_rank, what, (flag), (s).queried, (s).freed);                  \
        CHECK((flag) && (s).queried == 1 && (s).freed == 1);                            \
    } while (0)

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    struct state s;
    MPI_Status st;
    int flag = 0;

    /* Not complete yet: Test says so and calls nothing. */
    MPI_Request r = started(&s);
    CHECK_OK(MPI_Test(&r, &flag, &st));
    CHECK(flag == 0 && s.queried == 0 && s.freed == 0 && r != MPI_REQUEST_NULL);
    CHECK_OK(MPI_Grequest_complete(r));
    CHECK_OK(MPI_Test(&r, &flag, &st));
    DONE_ONCE(s, flag, "MPI_Test");
    CHECK(r == MPI_REQUEST_NULL && queried_status(&st));

    r = started(&s);
    CHECK_OK(MPI_Grequest_complete(r));
    flag = 0;
    CHECK_OK(MPI_Request_get_status(r, &flag, &st));
    if (!flag || s.queried != 1 || s.freed != 0)
        fprintf(stderr, "[rank %d] MPI_Request_get_status: flag %d, query %d, free %d\n",
                check_rank, flag, s.queried, s.freed);
    CHECK(flag && s.queried == 1 && s.freed == 0 && queried_status(&st));
    s.queried = 0;
    CHECK_OK(MPI_Test(&r, &flag, &st));
    DONE_ONCE(s, flag, "MPI_Test after MPI_Request_get_status");

    MPI_Request rs[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    rs[1] = started(&s);
    CHECK_OK(MPI_Grequest_complete(rs[1]));
    int index = -1;
    flag = 0;
    CHECK_OK(MPI_Testany(2, rs, &index, &flag, &st));
    DONE_ONCE(s, flag, "MPI_Testany");
    CHECK(index == 1 && rs[1] == MPI_REQUEST_NULL);

    rs[0] = started(&s);
    CHECK_OK(MPI_Grequest_complete(rs[0]));
    flag = 0;
    MPI_Status sts[2];
    CHECK_OK(MPI_Testall(2, rs, &flag, sts));
    DONE_ONCE(s, flag, "MPI_Testall");

    rs[0] = started(&s);
    CHECK_OK(MPI_Grequest_complete(rs[0]));
    int outcount = 0, idx[2];
    CHECK_OK(MPI_Testsome(2, rs, &outcount, idx, sts));
    DONE_ONCE(s, outcount == 1, "MPI_Testsome");

    return check_finish();
}
