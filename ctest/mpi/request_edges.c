/*
 * request_edges.c: the any / some completion calls on arrays with nothing to complete
 * (MPI 4.1 §3.7.5). When no request completed, Testany and Request_get_status_any set
 * *index = MPI_UNDEFINED; when no request is active (all MPI_REQUEST_NULL or inactive
 * persistent), Testany and Request_get_status_any set *flag = true and *index = MPI_UNDEFINED,
 * Waitany returns at once with *index = MPI_UNDEFINED, Testsome / Waitsome set
 * *outcount = MPI_UNDEFINED, and Testall sets *flag = true.
 */
#include "mpi_check.h"

/* A status with every public field set to a marker, to see which fields a call writes. */
static MPI_Status marked(void)
{
    MPI_Status st;
    memset(&st, 0, sizeof st);
    st.MPI_SOURCE = 1234;
    st.MPI_TAG = 5678;
    st.MPI_ERROR = -77;
    return st;
}

/* The empty status: source MPI_ANY_SOURCE, tag MPI_ANY_TAG, no elements. */
static int is_empty(const MPI_Status *st)
{
    int n = -1;
    MPI_Get_count(st, MPI_INT, &n);
    return st->MPI_SOURCE == MPI_ANY_SOURCE && st->MPI_TAG == MPI_ANY_TAG && n == 0;
}

/* Arrays in which no request is active: both NULL, or NULL and an inactive persistent one. */
static void no_active(MPI_Request *reqs, const char *what)
{
    int index = 42, flag = 0, outcount = 42, indices[2] = {-5, -5};
    MPI_Status st = marked(), sts[2];

    CHECK_OK(MPI_Testany(2, reqs, &index, &flag, &st));
    if (!flag || index != MPI_UNDEFINED || !is_empty(&st))
        fprintf(stderr, "[rank %d] %s: Testany gave flag %d index %d (want 1, %d)\n",
                check_rank, what, flag, index, MPI_UNDEFINED);
    CHECK(flag && index == MPI_UNDEFINED && is_empty(&st));

    index = 42, flag = 0, st = marked();
    CHECK_OK(MPI_Request_get_status_any(2, reqs, &index, &flag, &st));
    if (!flag || index != MPI_UNDEFINED)
        fprintf(stderr, "[rank %d] %s: Request_get_status_any gave flag %d index %d\n",
                check_rank, what, flag, index);
    CHECK(flag && index == MPI_UNDEFINED);

    index = 42, st = marked();
    CHECK_OK(MPI_Waitany(2, reqs, &index, &st));
    if (index != MPI_UNDEFINED)
        fprintf(stderr, "[rank %d] %s: Waitany gave index %d\n", check_rank, what, index);
    CHECK(index == MPI_UNDEFINED && is_empty(&st));

    CHECK_OK(MPI_Testsome(2, reqs, &outcount, indices, sts));
    if (outcount != MPI_UNDEFINED)
        fprintf(stderr, "[rank %d] %s: Testsome gave outcount %d\n", check_rank, what, outcount);
    CHECK(outcount == MPI_UNDEFINED);

    outcount = 42;
    CHECK_OK(MPI_Waitsome(2, reqs, &outcount, indices, sts));
    CHECK(outcount == MPI_UNDEFINED);

    flag = 0;
    CHECK_OK(MPI_Testall(2, reqs, &flag, sts));
    CHECK(flag == 1);
}

int main(int argc, char **argv)
{
    check_init(&argc, &argv);

    MPI_Request reqs[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    no_active(reqs, "all MPI_REQUEST_NULL");

    /* An inactive persistent receive counts as no active request. */
    int buf = 0;
    CHECK_OK(MPI_Recv_init(&buf, 1, MPI_INT, 0, 99, MPI_COMM_SELF, &reqs[1]));
    no_active(reqs, "NULL + inactive persistent");
    CHECK(reqs[1] != MPI_REQUEST_NULL);
    CHECK_OK(MPI_Request_free(&reqs[1]));

    /* One active receive that cannot complete (nothing is sent to it yet). */
    int got = -1;
    CHECK_OK(MPI_Irecv(&got, 1, MPI_INT, 0, 7, MPI_COMM_SELF, &reqs[1]));
    int index = 42, flag = 1;
    MPI_Status st = marked();
    CHECK_OK(MPI_Testany(2, reqs, &index, &flag, &st));
    if (flag != 0 || index != MPI_UNDEFINED)
        fprintf(stderr, "[rank %d] pending Testany gave flag %d index %d (want 0, %d)\n",
                check_rank, flag, index, MPI_UNDEFINED);
    CHECK(flag == 0 && index == MPI_UNDEFINED);
    CHECK(reqs[1] != MPI_REQUEST_NULL);

    index = 42, flag = 1;
    CHECK_OK(MPI_Request_get_status_any(2, reqs, &index, &flag, &st));
    if (flag != 0 || index != MPI_UNDEFINED)
        fprintf(stderr, "[rank %d] pending Request_get_status_any gave flag %d index %d\n",
                check_rank, flag, index);
    CHECK(flag == 0 && index == MPI_UNDEFINED);

    int outcount = 42, indices[2];
    MPI_Status sts[2];
    CHECK_OK(MPI_Testsome(2, reqs, &outcount, indices, sts));
    CHECK(outcount == 0);

    /* Now complete it: Testany reports its index. */
    int v = 31;
    CHECK_OK(MPI_Send(&v, 1, MPI_INT, 0, 7, MPI_COMM_SELF));
    flag = 0, index = 42;
    for (int spin = 0; spin < 1000000 && !flag; spin++)
        CHECK_OK(MPI_Testany(2, reqs, &index, &flag, &st));
    CHECK(flag == 1 && index == 1 && got == 31 && reqs[1] == MPI_REQUEST_NULL);
    CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == 7);

    return check_finish();
}
