/* MPI shim error reporting under MPI_ERRORS_RETURN: each bad argument gives its error class;
 * a function not implemented yet returns MPI_ERR_UNSUPPORTED_OPERATION and MPI_Error_string
 * names it. */
#include "mpi_check.h"

static void expect_message(int rc, const char *needle)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = -1;
    CHECK_OK(MPI_Error_string(rc, msg, &len));
    CHECK(len > 0 && (size_t)len == strlen(msg));
    if (!strstr(msg, needle)) {
        check_failures++;
        fprintf(stderr, "[rank %d] error string '%s' does not contain '%s'\n", check_rank, msg,
                needle);
    }
}

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    int size, x = 0;
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    MPI_Errhandler eh;
    CHECK_OK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
    CHECK(eh == MPI_ERRORS_ARE_FATAL);
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
    CHECK(eh == MPI_ERRORS_RETURN);

    /* Ranks, buffers, counts, tags, types, ops, roots, communicators. */
    int rc = MPI_Send(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
    EXPECT_CLASS(rc, MPI_ERR_RANK);
    expect_message(rc, "MPI_Send");
    EXPECT_CLASS(MPI_Send(&x, 1, MPI_INT, -7, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    EXPECT_CLASS(MPI_Recv(&x, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                 MPI_ERR_RANK);
    rc = MPI_Send(NULL, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    EXPECT_CLASS(rc, MPI_ERR_BUFFER);
    expect_message(rc, "NULL");
    EXPECT_CLASS(MPI_Send(&x, -1, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    EXPECT_CLASS(MPI_Recv(&x, -2, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                 MPI_ERR_COUNT);
    EXPECT_CLASS(MPI_Send(&x, 1, MPI_INT, 0, -5, MPI_COMM_WORLD), MPI_ERR_TAG);
    EXPECT_CLASS(MPI_Send(&x, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    /* An empty receive from MPI_PROC_NULL needs no datatype (as in MPICH); a non-empty one
     * still does. */
    {
        MPI_Status st;
        MPI_Request q;
        CHECK_OK(MPI_Recv(NULL, 0, MPI_DATATYPE_NULL, MPI_PROC_NULL, 10, MPI_COMM_WORLD, &st));
        CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG);
        CHECK_OK(MPI_Irecv(NULL, 0, MPI_DATATYPE_NULL, MPI_PROC_NULL, 10, MPI_COMM_WORLD, &q));
        CHECK_OK(MPI_Waitall(1, &q, &st));
        CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG);
        EXPECT_CLASS(MPI_Recv(&x, 1, MPI_DATATYPE_NULL, MPI_PROC_NULL, 0, MPI_COMM_WORLD,
                              MPI_STATUS_IGNORE),
                     MPI_ERR_TYPE);
    }
    EXPECT_CLASS(MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_NULL), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Send(&x, 1, MPI_INT, 0, 0, (MPI_Comm)(intptr_t)0x7fff1234), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Bcast(&x, 1, MPI_INT, size, MPI_COMM_WORLD), MPI_ERR_ROOT);
    EXPECT_CLASS(MPI_Bcast(NULL, 2, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    EXPECT_CLASS(MPI_Allreduce(&x, &x, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP);
    EXPECT_CLASS(MPI_Allreduce(&x, &x, 1, MPI_INT, MPI_MINLOC, MPI_COMM_WORLD), MPI_ERR_OP);
    EXPECT_CLASS(MPI_Comm_rank(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    MPI_Comm world = MPI_COMM_WORLD;
    EXPECT_CLASS(MPI_Comm_free(&world), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL),
                 MPI_ERR_ERRHANDLER);

    /* A program that cannot be spawned: the message names it. */
    MPI_Comm inter;
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    rc = MPI_Comm_spawn("/nonexistent/none", MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF,
                        &inter, MPI_ERRCODES_IGNORE);
    EXPECT_CLASS(rc, MPI_ERR_SPAWN);
    CHECK(rc == MPI_ERR_SPAWN);
    expect_message(rc, "MPI_Comm_spawn: cannot spawn \"/nonexistent/none\"");
    /* The PMPI_ twin behaves the same. */
    EXPECT_CLASS(PMPI_Comm_spawn("/nonexistent/none", MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0,
                                 MPI_COMM_SELF, &inter, MPI_ERRCODES_IGNORE),
                 MPI_ERR_SPAWN);

    /* Error strings and classes of plain classes. */
    expect_message(MPI_ERR_RANK, "rank");
    int cls = -1;
    CHECK_OK(MPI_Error_class(MPI_ERR_TRUNCATE, &cls));
    CHECK(cls == MPI_ERR_TRUNCATE);

    /* Everything still works after the errors. */
    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    return check_finish();
}
