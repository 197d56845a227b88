/* Sessions (MPI 4) without MPI_Init: a session with a thread level asked through info, its
 * process sets (count, names through the length query, mpi_size), groups from mpi://WORLD and
 * mpi://SELF, communicators from groups (two with one string tag stay apart; a smaller group
 * without one rank, which passes MPI_GROUP_EMPTY and gets MPI_COMM_NULL), the session's
 * buffered-send buffer, error handlers (a user one called by MPI_Session_call_errhandler), the
 * errors (an unknown set, a set index out of range, a group without this process), and a
 * second session after the first is finalized. The process never calls MPI_Init or
 * MPI_Finalize: it leaves the job at exit, and every rank must still exit 0. */
#include "mpi_check.h"

static int handler_calls = 0, handler_code = 0;

static void on_session_error(MPI_Session *s, int *code, ...)
{
    (void)s;
    handler_calls++;
    handler_code = *code;
}

static MPI_Comm world_of(MPI_Session s, const char *tag)
{
    MPI_Group g;
    MPI_Comm c;
    CHECK_OK(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    CHECK_OK(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    CHECK_OK(MPI_Group_free(&g));
    return c;
}

static int sum_of_ranks(MPI_Comm c)
{
    int me, sum = -1;
    CHECK_OK(MPI_Comm_rank(c, &me));
    CHECK_OK(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, c));
    return sum;
}

int main(void)
{
    int flag = -1;
    CHECK_OK(MPI_Initialized(&flag));
    CHECK(flag == 0);

    MPI_Info ask;
    CHECK_OK(MPI_Info_create(&ask));
    CHECK_OK(MPI_Info_set(ask, "thread_level", "MPI_THREAD_MULTIPLE"));
    MPI_Session s = MPI_SESSION_NULL;
    CHECK_OK(MPI_Session_init(ask, MPI_ERRORS_RETURN, &s));
    CHECK_OK(MPI_Info_free(&ask));
    CHECK(s != MPI_SESSION_NULL);
    CHECK_OK(MPI_Initialized(&flag));
    CHECK(flag == 0); /* a session does not start the world model */

    MPI_Info got;
    char value[64];
    CHECK_OK(MPI_Session_get_info(s, &got));
    CHECK_OK(MPI_Info_get(got, "thread_level", (int)sizeof value - 1, value, &flag));
    CHECK(flag && strcmp(value, "MPI_THREAD_MULTIPLE") == 0);
    CHECK_OK(MPI_Info_free(&got));

    /* Process sets: names through the length query, sizes. */
    int n = 0, seen_world = 0, seen_self = 0, size = 0;
    CHECK_OK(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n));
    CHECK(n == 2);
    MPI_Comm w = world_of(s, "sessions.c world");
    CHECK_OK(MPI_Comm_size(w, &size));
    CHECK_OK(MPI_Comm_rank(w, &check_rank));
    for (int i = 0; i < n; i++) {
        int len = 0;
        char name[64];
        CHECK_OK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL));
        CHECK(len > 1 && len <= (int)sizeof name);
        CHECK_OK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name));
        CHECK((int)strlen(name) + 1 == len);
        MPI_Info pi;
        CHECK_OK(MPI_Session_get_pset_info(s, name, &pi));
        CHECK_OK(MPI_Info_get(pi, "mpi_size", (int)sizeof value - 1, value, &flag));
        CHECK(flag);
        if (strcmp(name, "mpi://WORLD") == 0) {
            seen_world = 1;
            CHECK(atoi(value) == size);
        } else if (strcmp(name, "mpi://SELF") == 0) {
            seen_self = 1;
            CHECK(atoi(value) == 1);
        }
        CHECK_OK(MPI_Info_free(&pi));
    }
    CHECK(seen_world && seen_self);

    /* Communicators from groups: the world, a second one with the same tag, SELF. */
    CHECK(sum_of_ranks(w) == size * (size - 1) / 2);
    MPI_Comm w2 = world_of(s, "sessions.c world");
    int mine = check_rank, a = -1, b = -1;
    MPI_Request q[2];
    CHECK_OK(MPI_Iallreduce(&mine, &a, 1, MPI_INT, MPI_MAX, w2, &q[0]));
    CHECK_OK(MPI_Iallreduce(&mine, &b, 1, MPI_INT, MPI_MIN, w, &q[1]));
    CHECK_OK(MPI_Waitall(2, q, MPI_STATUSES_IGNORE));
    CHECK(a == size - 1 && b == 0);
    MPI_Group gs;
    MPI_Comm self;
    CHECK_OK(MPI_Group_from_session_pset(s, "mpi://SELF", &gs));
    CHECK_OK(MPI_Comm_create_from_group(gs, "sessions.c self", MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                        &self));
    CHECK(sum_of_ranks(self) == 0);
    CHECK_OK(MPI_Comm_free(&self));
    CHECK_OK(MPI_Group_free(&gs));

    /* A smaller group: the last rank is left out and passes MPI_GROUP_EMPTY. */
    if (size > 1) {
        MPI_Group gw, part;
        int out = size - 1;
        MPI_Comm c;
        CHECK_OK(MPI_Group_from_session_pset(s, "mpi://WORLD", &gw));
        CHECK_OK(MPI_Group_excl(gw, 1, &out, &part));
        if (check_rank == out) {
            CHECK_OK(MPI_Comm_create_from_group(MPI_GROUP_EMPTY, "part", MPI_INFO_NULL,
                                                MPI_ERRORS_RETURN, &c));
            CHECK(c == MPI_COMM_NULL);
            /* A group without this process is an error. */
            EXPECT_CLASS(MPI_Comm_create_from_group(part, "part", MPI_INFO_NULL,
                                                    MPI_ERRORS_RETURN, &c),
                         MPI_ERR_GROUP);
        } else {
            CHECK_OK(MPI_Comm_create_from_group(part, "part", MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                                &c));
            int cs = 0;
            CHECK_OK(MPI_Comm_size(c, &cs));
            CHECK(cs == size - 1);
            CHECK(sum_of_ranks(c) == (size - 1) * (size - 2) / 2);
            CHECK_OK(MPI_Comm_free(&c));
        }
        CHECK_OK(MPI_Group_free(&part));
        CHECK_OK(MPI_Group_free(&gw));
    }

    /* The session's buffer serves its communicators' buffered sends. */
    static char buffer[4096];
    char *back = NULL;
    int back_size = 0, x = 42, y = 0;
    CHECK_OK(MPI_Session_attach_buffer(s, buffer, (int)sizeof buffer));
    CHECK_OK(MPI_Bsend(&x, 1, MPI_INT, check_rank, 5, w));
    CHECK_OK(MPI_Recv(&y, 1, MPI_INT, check_rank, 5, w, MPI_STATUS_IGNORE));
    CHECK(y == 42);
    CHECK_OK(MPI_Session_flush_buffer(s));
    CHECK_OK(MPI_Session_detach_buffer(s, &back, &back_size));
    CHECK(back == buffer && back_size == (int)sizeof buffer);
    EXPECT_CLASS(MPI_Bsend(&x, 1, MPI_INT, check_rank, 5, w), MPI_ERR_BUFFER);

    /* Errors go through the session's handler. */
    int len = 0;
    EXPECT_CLASS(MPI_Session_get_pset_info(s, "mpi://NOWHERE", &got), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 2, &len, NULL), MPI_ERR_ARG);
    MPI_Errhandler eh, cur;
    CHECK_OK(MPI_Session_create_errhandler(on_session_error, &eh));
    CHECK_OK(MPI_Session_set_errhandler(s, eh));
    CHECK_OK(MPI_Session_get_errhandler(s, &cur));
    CHECK(cur == eh);
    CHECK_OK(MPI_Errhandler_free(&cur));
    CHECK_OK(MPI_Session_call_errhandler(s, MPI_ERR_OTHER));
    CHECK(handler_calls == 1 && handler_code == MPI_ERR_OTHER);
    MPI_Group none;
    MPI_Session_get_pset_info(s, "mpi://NOWHERE", &got); /* the user handler sees it */
    CHECK(handler_calls == 2 && handler_code == MPI_ERR_ARG);
    CHECK_OK(MPI_Session_set_errhandler(s, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Errhandler_free(&eh));
    EXPECT_CLASS(MPI_Group_from_session_pset(s, "mpi://NOWHERE", &none), MPI_ERR_ARG);

    CHECK_OK(MPI_Comm_free(&w2));
    CHECK_OK(MPI_Comm_free(&w));
    CHECK_OK(MPI_Session_finalize(&s));
    CHECK(s == MPI_SESSION_NULL);

    /* A second session on the same job; without a thread_level it gets MPI_THREAD_MULTIPLE. */
    CHECK_OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    CHECK_OK(MPI_Session_get_info(s, &got));
    CHECK_OK(MPI_Info_get(got, "thread_level", (int)sizeof value - 1, value, &flag));
    CHECK(flag && strcmp(value, "MPI_THREAD_MULTIPLE") == 0);
    CHECK_OK(MPI_Info_free(&got));
    w = world_of(s, "sessions.c again");
    CHECK(sum_of_ranks(w) == size * (size - 1) / 2);
    CHECK_OK(MPI_Comm_free(&w));
    CHECK_OK(MPI_Session_finalize(&s));

    CHECK_OK(MPI_Finalized(&flag));
    CHECK(flag == 0);
    if (check_failures) {
        fprintf(stderr, "[rank %d] %d check(s) failed\n", check_rank, check_failures);
        return 1;
    }
    return 0;
}
