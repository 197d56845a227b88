/*
 * badarg_mpi: the bad-argument matrix of the MPI shim, one case per process.
 *
 *   test_mpi_badarg_mpi <case>        MPI_ERRORS_RETURN on MPI_COMM_WORLD and MPI_COMM_SELF,
 *                                     then the case's call
 *   test_mpi_badarg_mpi fatal-<case>  the same call under the default MPI_ERRORS_ARE_FATAL
 *   test_mpi_badarg_mpi --list        every case as "<name> <ranks>"
 *   test_mpi_badarg_mpi --count N     exit 0 only if exactly N cases are compiled in
 *
 * Every case is written once below as CASE(name, ranks, class, func, what) { body }: the body
 * makes exactly one bad call and returns its code. The harness checks the code's error class
 * is exactly `class`, and that MPI_Error_string of it is non-empty, names the function `func`
 * and contains `what`. A barrier afterwards shows the ranks are still in step (every bad call
 * fails before any message moves, the same on every rank). ctest/mpi/CMakeLists.txt reads the
 * CASE lines of this file to register one CTest per case; a few cases also run as
 * `fatal-<case>` (registered there), where the job must end with the class as exit status and
 * the message, not a signal. Includes the two calls that crash Open MPI and MPICH: a NULL send buffer to
 * MPI_Allreduce with count > 0, and a count of -1.
 */
#include "mpi_check.h"

#include <limits.h>
#include <stdint.h>

#include "../badarg_cases.h"

static int case_finalized;
static int size;
static int sb[64] = { 1, 2, 3, 4 }, rb[64];
static int ones[64];

#define W MPI_COMM_WORLD

/* ---- the two calls the issue cites: they crash Open MPI / MPICH ---- */
CASE(allreduce_null_sendbuf, 2, MPI_ERR_BUFFER, "MPI_Allreduce", "NULL")
{
    return MPI_Allreduce(NULL, rb, 4, MPI_INT, MPI_SUM, W);
}
CASE(send_count_minus_one, 2, MPI_ERR_COUNT, "MPI_Send", "-1 is negative")
{
    return MPI_Send(sb, -1, MPI_INT, 0, 0, W);
}

/* ---- buffers ---- */
CASE(allreduce_null_recvbuf, 2, MPI_ERR_BUFFER, "MPI_Allreduce", "NULL")
{
    return MPI_Allreduce(sb, NULL, 4, MPI_INT, MPI_SUM, W);
}
CASE(send_null_buf, 1, MPI_ERR_BUFFER, "MPI_Send", "NULL")
{
    return MPI_Send(NULL, 1, MPI_INT, 0, 0, W);
}
CASE(recv_null_buf, 1, MPI_ERR_BUFFER, "MPI_Recv", "NULL")
{
    return MPI_Recv(NULL, 1, MPI_INT, 0, 0, W, MPI_STATUS_IGNORE);
}
CASE(isend_null_buf, 2, MPI_ERR_BUFFER, "MPI_Isend", "NULL")
{
    MPI_Request q = MPI_REQUEST_NULL;
    int rc = MPI_Isend(NULL, 2, MPI_DOUBLE, 0, 0, W, &q);
    CHECK(q == MPI_REQUEST_NULL);
    return rc;
}
CASE(bcast_null_buf, 2, MPI_ERR_BUFFER, "MPI_Bcast", "NULL")
{
    return MPI_Bcast(NULL, 3, MPI_INT, 0, W);
}
CASE(gather_null_sendbuf, 2, MPI_ERR_BUFFER, "MPI_Gather", "NULL")
{
    return MPI_Gather(NULL, 1, MPI_INT, rb, 1, MPI_INT, 0, W);
}
CASE(alltoall_null_recvbuf, 2, MPI_ERR_BUFFER, "MPI_Alltoall", "NULL")
{
    return MPI_Alltoall(sb, 1, MPI_INT, NULL, 1, MPI_INT, W);
}
CASE(send_in_place, 1, MPI_ERR_BUFFER, "MPI_Send", "MPI_IN_PLACE")
{
    return MPI_Send(MPI_IN_PLACE, 1, MPI_INT, 0, 0, W);
}
CASE(allreduce_aliased, 2, MPI_ERR_BUFFER, "MPI_Allreduce", "overlap")
{
    return MPI_Allreduce(rb, rb, 4, MPI_INT, MPI_SUM, W);
}
CASE(reduce_partly_aliased, 2, MPI_ERR_BUFFER, "MPI_Reduce", "overlap")
{
    /* every rank is the root of its own MPI_COMM_SELF, where recvbuf counts */
    return MPI_Reduce(rb, rb + 2, 4, MPI_INT, MPI_SUM, 0, MPI_COMM_SELF);
}

/* ---- counts ---- */
CASE(recv_count_negative, 1, MPI_ERR_COUNT, "MPI_Recv", "negative")
{
    return MPI_Recv(rb, -2, MPI_INT, 0, 0, W, MPI_STATUS_IGNORE);
}
CASE(allreduce_count_minus_one, 2, MPI_ERR_COUNT, "MPI_Allreduce", "negative")
{
    return MPI_Allreduce(sb, rb, -1, MPI_INT, MPI_SUM, W);
}
CASE(bcast_count_int_min, 2, MPI_ERR_COUNT, "MPI_Bcast", "negative")
{
    return MPI_Bcast(sb, INT_MIN, MPI_INT, 0, W);
}
CASE(isend_count_minus_one, 2, MPI_ERR_COUNT, "MPI_Isend", "negative")
{
    MPI_Request q = MPI_REQUEST_NULL;
    return MPI_Isend(sb, -1, MPI_INT, 0, 0, W, &q);
}
CASE(send_c_count_huge, 1, MPI_ERR_COUNT, "MPI_Send_c", "")
{
    return MPI_Send_c(sb, (MPI_Count)1 << 62, MPI_INT, 0, 0, W);
}
CASE(alltoallv_count_negative, 2, MPI_ERR_COUNT, "MPI_Alltoallv", "negative")
{
    int bad[64], displs[64] = { 0 };
    for (int i = 0; i < size; i++) {
        bad[i] = -1;
    }
    return MPI_Alltoallv(sb, bad, displs, MPI_INT, rb, ones, displs, MPI_INT, W);
}

/* ---- ranks and roots ---- */
CASE(send_rank_size, 2, MPI_ERR_RANK, "MPI_Send", "out of range")
{
    return MPI_Send(sb, 1, MPI_INT, size, 0, W);
}
CASE(send_rank_negative, 2, MPI_ERR_RANK, "MPI_Send", "-7")
{
    return MPI_Send(sb, 1, MPI_INT, -7, 0, W);
}
CASE(send_any_source, 1, MPI_ERR_RANK, "MPI_Send", "")
{
    return MPI_Send(sb, 1, MPI_INT, MPI_ANY_SOURCE, 0, W);
}
CASE(recv_rank_int_max, 2, MPI_ERR_RANK, "MPI_Recv", "")
{
    return MPI_Recv(rb, 1, MPI_INT, INT_MAX, 0, W, MPI_STATUS_IGNORE);
}
CASE(sendrecv_dest_size, 2, MPI_ERR_RANK, "MPI_Sendrecv", "")
{
    return MPI_Sendrecv(sb, 1, MPI_INT, size, 0, rb, 1, MPI_INT, 0, 0, W, MPI_STATUS_IGNORE);
}
CASE(bcast_root_size, 2, MPI_ERR_ROOT, "MPI_Bcast", "")
{
    return MPI_Bcast(sb, 1, MPI_INT, size, W);
}
CASE(reduce_root_negative, 2, MPI_ERR_ROOT, "MPI_Reduce", "")
{
    return MPI_Reduce(sb, rb, 1, MPI_INT, MPI_SUM, -1, W);
}
CASE(gather_root_int_max, 2, MPI_ERR_ROOT, "MPI_Gather", "")
{
    return MPI_Gather(sb, 1, MPI_INT, rb, 1, MPI_INT, INT_MAX, W);
}

/* ---- tags ---- */
CASE(send_tag_negative, 1, MPI_ERR_TAG, "MPI_Send", "tag -5 is negative")
{
    return MPI_Send(sb, 1, MPI_INT, 0, -5, W);
}
CASE(send_any_tag, 2, MPI_ERR_TAG, "MPI_Send", "")
{
    return MPI_Send(sb, 1, MPI_INT, 0, MPI_ANY_TAG, W);
}
CASE(recv_tag_negative, 2, MPI_ERR_TAG, "MPI_Recv", "")
{
    return MPI_Recv(rb, 1, MPI_INT, 0, -12345, W, MPI_STATUS_IGNORE);
}

/* ---- datatypes and ops ---- */
CASE(send_type_null, 1, MPI_ERR_TYPE, "MPI_Send", "")
{
    return MPI_Send(sb, 1, MPI_DATATYPE_NULL, 0, 0, W);
}
CASE(allreduce_type_forged, 2, MPI_ERR_TYPE, "MPI_Allreduce", "")
{
    return MPI_Allreduce(sb, rb, 1, (MPI_Datatype)(intptr_t)0x7fff0123, MPI_SUM, W);
}
CASE(send_type_uncommitted, 1, MPI_ERR_TYPE, "MPI_Send", "commit")
{
    MPI_Datatype t;
    CHECK_OK(MPI_Type_contiguous(2, MPI_INT, &t));
    int rc = MPI_Send(sb, 1, t, 0, 0, W);
    CHECK_OK(MPI_Type_free(&t));
    return rc;
}
CASE(send_type_freed, 1, MPI_ERR_TYPE, "MPI_Send", "")
{
    MPI_Datatype t, stale;
    CHECK_OK(MPI_Type_contiguous(2, MPI_INT, &t));
    CHECK_OK(MPI_Type_commit(&t));
    stale = t;
    CHECK_OK(MPI_Type_free(&t));
    return MPI_Send(sb, 1, stale, 0, 0, W);
}
CASE(allreduce_op_null, 2, MPI_ERR_OP, "MPI_Allreduce", "")
{
    return MPI_Allreduce(sb, rb, 1, MPI_INT, MPI_OP_NULL, W);
}
CASE(allreduce_minloc_int, 2, MPI_ERR_OP, "MPI_Allreduce", "")
{
    return MPI_Allreduce(sb, rb, 1, MPI_INT, MPI_MINLOC, W);
}
CASE(allreduce_band_double, 2, MPI_ERR_OP, "MPI_Allreduce", "")
{
    double d[2] = { 1, 2 }, r[2];
    return MPI_Allreduce(d, r, 2, MPI_DOUBLE, MPI_BAND, W);
}
static void noop_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)in, (void)inout, (void)len, (void)dt;
}
CASE(allreduce_op_freed, 2, MPI_ERR_OP, "MPI_Allreduce", "")
{
    MPI_Op o, stale;
    CHECK_OK(MPI_Op_create(noop_op, 1, &o));
    stale = o;
    CHECK_OK(MPI_Op_free(&o));
    return MPI_Allreduce(sb, rb, 1, MPI_INT, stale, W);
}

/* ---- communicators ---- */
CASE(send_comm_null, 1, MPI_ERR_COMM, "MPI_Send", "")
{
    return MPI_Send(sb, 1, MPI_INT, 0, 0, MPI_COMM_NULL);
}
CASE(barrier_comm_forged, 2, MPI_ERR_COMM, "MPI_Barrier", "")
{
    return MPI_Barrier((MPI_Comm)(intptr_t)0x7fff1234);
}
CASE(allreduce_comm_freed, 2, MPI_ERR_COMM, "MPI_Allreduce", "")
{
    MPI_Comm d, stale;
    CHECK_OK(MPI_Comm_dup(W, &d));
    stale = d;
    CHECK_OK(MPI_Comm_free(&d));
    CHECK(d == MPI_COMM_NULL);
    return MPI_Allreduce(sb, rb, 1, MPI_INT, MPI_SUM, stale);
}
CASE(comm_double_free, 2, MPI_ERR_COMM, "MPI_Comm_free", "")
{
    MPI_Comm d, copy;
    CHECK_OK(MPI_Comm_dup(W, &d));
    copy = d;
    CHECK_OK(MPI_Comm_free(&d));
    return MPI_Comm_free(&copy);
}
CASE(comm_free_world, 1, MPI_ERR_COMM, "MPI_Comm_free", "")
{
    MPI_Comm w = W;
    return MPI_Comm_free(&w);
}
CASE(comm_rank_null_out, 1, MPI_ERR_ARG, "MPI_Comm_rank", "NULL")
{
    return MPI_Comm_rank(W, NULL);
}
CASE(comm_size_null_out, 2, MPI_ERR_ARG, "MPI_Comm_size", "NULL")
{
    return MPI_Comm_size(W, NULL);
}
CASE(comm_dup_null_out, 2, MPI_ERR_ARG, "MPI_Comm_dup", "NULL")
{
    return MPI_Comm_dup(W, NULL);
}
CASE(comm_split_null_out, 2, MPI_ERR_ARG, "MPI_Comm_split", "NULL")
{
    return MPI_Comm_split(W, 0, 0, NULL);
}
CASE(comm_split_negative_color, 2, MPI_ERR_ARG, "MPI_Comm_split", "color")
{
    MPI_Comm n = W;
    int rc = MPI_Comm_split(W, -5, 0, &n);
    CHECK(n == W);
    return rc;
}

/* ---- requests and statuses ---- */
CASE(wait_null_request_ptr, 1, MPI_ERR_ARG, "MPI_Wait", "NULL")
{
    return MPI_Wait(NULL, MPI_STATUS_IGNORE);
}
CASE(isend_null_request_ptr, 1, MPI_ERR_ARG, "MPI_Isend", "NULL")
{
    return MPI_Isend(sb, 1, MPI_INT, 0, 0, W, NULL);
}
CASE(wait_freed_request, 1, MPI_ERR_REQUEST, "MPI_Wait", "")
{
    MPI_Request q, copy;
    CHECK_OK(MPI_Irecv(rb, 1, MPI_INT, 0, 9, W, &q));
    copy = q;
    CHECK_OK(MPI_Send(sb, 1, MPI_INT, 0, 9, W));
    CHECK_OK(MPI_Wait(&q, MPI_STATUS_IGNORE));
    CHECK(q == MPI_REQUEST_NULL);
    return MPI_Wait(&copy, MPI_STATUS_IGNORE);
}
CASE(test_forged_request, 1, MPI_ERR_REQUEST, "MPI_Test", "")
{
    MPI_Request f = (MPI_Request)(intptr_t)0x7fff4321;
    int flag = 5;
    int rc = MPI_Test(&f, &flag, MPI_STATUS_IGNORE);
    CHECK(flag == 5);
    return rc;
}
CASE(request_double_free, 1, MPI_ERR_REQUEST, "MPI_Request_free", "")
{
    MPI_Request q, copy;
    CHECK_OK(MPI_Isend(sb, 1, MPI_INT, 0, 9, W, &q));
    copy = q;
    CHECK_OK(MPI_Request_free(&q));
    CHECK(q == MPI_REQUEST_NULL);
    CHECK_OK(MPI_Recv(rb, 1, MPI_INT, 0, 9, W, MPI_STATUS_IGNORE));
    return MPI_Request_free(&copy);
}
CASE(waitall_count_negative, 1, MPI_ERR_COUNT, "MPI_Waitall", "")
{
    MPI_Request q = MPI_REQUEST_NULL;
    return MPI_Waitall(-1, &q, MPI_STATUSES_IGNORE);
}
CASE(waitall_null_array, 1, MPI_ERR_ARG, "MPI_Waitall", "NULL")
{
    return MPI_Waitall(2, NULL, MPI_STATUSES_IGNORE);
}
CASE(get_count_null_status, 1, MPI_ERR_ARG, "MPI_Get_count", "NULL")
{
    int n = 0;
    return MPI_Get_count(NULL, MPI_INT, &n);
}

/* ---- more calls: non-blocking, rooted, predefined handles, groups, topologies ---- */
CASE(iallreduce_null_sendbuf, 2, MPI_ERR_BUFFER, "MPI_Iallreduce", "NULL")
{
    MPI_Request q = MPI_REQUEST_NULL;
    int rc = MPI_Iallreduce(NULL, rb, 2, MPI_INT, MPI_SUM, W, &q);
    CHECK(q == MPI_REQUEST_NULL);
    return rc;
}
CASE(reduce_null_recvbuf_root, 1, MPI_ERR_BUFFER, "MPI_Reduce", "NULL")
{
    return MPI_Reduce(sb, NULL, 2, MPI_INT, MPI_SUM, 0, W);
}
CASE(alltoall_count_minus_one, 2, MPI_ERR_COUNT, "MPI_Alltoall", "negative")
{
    return MPI_Alltoall(sb, -1, MPI_INT, rb, 1, MPI_INT, W);
}
CASE(type_free_predefined, 1, MPI_ERR_TYPE, "MPI_Type_free", "")
{
    MPI_Datatype t = MPI_INT;
    return MPI_Type_free(&t);
}
CASE(op_free_predefined, 1, MPI_ERR_OP, "MPI_Op_free", "")
{
    MPI_Op o = MPI_SUM;
    return MPI_Op_free(&o);
}
CASE(type_commit_null, 1, MPI_ERR_ARG, "MPI_Type_commit", "NULL")
{
    return MPI_Type_commit(NULL);
}
CASE(comm_free_comm_null, 1, MPI_ERR_COMM, "MPI_Comm_free", "")
{
    MPI_Comm c = MPI_COMM_NULL;
    return MPI_Comm_free(&c);
}
CASE(group_incl_rank_out_of_range, 2, MPI_ERR_RANK, "MPI_Group_incl", "")
{
    MPI_Group g, sub = MPI_GROUP_NULL;
    CHECK_OK(MPI_Comm_group(W, &g));
    int ranks[1] = { size };
    int rc = MPI_Group_incl(g, 1, ranks, &sub);
    CHECK(sub == MPI_GROUP_NULL);
    CHECK_OK(MPI_Group_free(&g));
    return rc;
}
CASE(cart_create_negative_dims, 2, MPI_ERR_DIMS, "MPI_Cart_create", "")
{
    int dims[1] = { -1 }, periods[1] = { 0 };
    MPI_Comm c = MPI_COMM_NULL;
    return MPI_Cart_create(W, 1, dims, periods, 0, &c);
}
CASE(get_count_null_count, 1, MPI_ERR_ARG, "MPI_Get_count", "NULL")
{
    MPI_Status st;
    memset(&st, 0, sizeof st);
    return MPI_Get_count(&st, MPI_INT, NULL);
}
CASE(wait_request_null, 1, MPI_SUCCESS, "", "")
{
    /* A completed request is MPI_REQUEST_NULL; waiting on it returns at once. */
    MPI_Request q = MPI_REQUEST_NULL;
    return MPI_Wait(&q, MPI_STATUS_IGNORE);
}

/* ---- NULL out-parameters and arrays of other function classes ---- */
CASE(type_contiguous_count_negative, 1, MPI_ERR_COUNT, "MPI_Type_contiguous", "")
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    return MPI_Type_contiguous(-3, MPI_INT, &t);
}
CASE(type_vector_null_newtype, 1, MPI_ERR_ARG, "MPI_Type_vector", "NULL")
{
    return MPI_Type_vector(2, 1, 2, MPI_INT, NULL);
}
CASE(type_create_struct_null_arrays, 1, MPI_ERR_ARG, "MPI_Type_create_struct", "NULL")
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    return MPI_Type_create_struct(2, NULL, NULL, NULL, &t);
}
CASE(get_processor_name_null, 1, MPI_ERR_ARG, "MPI_Get_processor_name", "NULL")
{
    int len = 0;
    return MPI_Get_processor_name(NULL, &len);
}
CASE(error_string_null, 1, MPI_ERR_ARG, "MPI_Error_string", "NULL")
{
    int len = 0;
    return MPI_Error_string(MPI_ERR_COUNT, NULL, &len);
}
CASE(info_set_null_key, 1, MPI_ERR_ARG, "MPI_Info_set", "`key` is NULL")
{
    MPI_Info info;
    CHECK_OK(MPI_Info_create(&info));
    int rc = MPI_Info_set(info, NULL, "v");
    CHECK_OK(MPI_Info_free(&info));
    return rc;
}
CASE(comm_set_name_null, 1, MPI_ERR_ARG, "MPI_Comm_set_name", "NULL")
{
    return MPI_Comm_set_name(W, NULL);
}
CASE(iprobe_null_flag, 1, MPI_ERR_ARG, "MPI_Iprobe", "NULL")
{
    return MPI_Iprobe(0, 0, W, NULL, MPI_STATUS_IGNORE);
}
CASE(testany_null_index, 1, MPI_ERR_ARG, "MPI_Testany", "NULL")
{
    MPI_Request q = MPI_REQUEST_NULL;
    int flag = 0;
    return MPI_Testany(1, &q, NULL, &flag, MPI_STATUS_IGNORE);
}
CASE(waitany_null_array, 1, MPI_ERR_ARG, "MPI_Waitany", "NULL")
{
    int idx = 0;
    return MPI_Waitany(2, NULL, &idx, MPI_STATUS_IGNORE);
}
CASE(gatherv_null_recvcounts_root, 1, MPI_ERR_ARG, "MPI_Gatherv", "NULL")
{
    int displs[1] = { 0 };
    return MPI_Gatherv(sb, 1, MPI_INT, rb, NULL, displs, MPI_INT, 0, W);
}
CASE(pack_null_position, 1, MPI_ERR_ARG, "MPI_Pack", "NULL")
{
    char out[64];
    return MPI_Pack(sb, 1, MPI_INT, out, (int)sizeof out, NULL, W);
}
CASE(pack_outsize_too_small, 1, MPI_ERR_TRUNCATE, "MPI_Pack", "")
{
    char out[2];
    int pos = 0;
    return MPI_Pack(sb, 4, MPI_INT, out, (int)sizeof out, &pos, W);
}
CASE(unpack_position_past_end, 1, MPI_ERR_ARG, "MPI_Unpack", "")
{
    char in[8] = { 0 };
    int pos = 100;
    return MPI_Unpack(in, (int)sizeof in, &pos, rb, 1, MPI_INT, W);
}

/* ---- before MPI_Init (ranks 0: registered only as fatal-<case>, since no error handler can
 * be set yet: the default MPI_ERRORS_ARE_FATAL applies) ---- */
CASE(send_before_init, 0, MPI_ERR_OTHER, "MPI_Send", "")
{
    return MPI_Send(sb, 1, MPI_INT, 0, 0, W);
}

/* ---- after MPI_Finalize ---- */
CASE(send_after_finalize, 2, MPI_ERR_OTHER, "MPI_Send", "MPI_Finalize was called")
{
    CHECK_OK(MPI_Finalize());
    case_finalized = 1;
    return MPI_Send(sb, 1, MPI_INT, 0, 0, W);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_mpi_badarg_mpi [fatal-]<case> | --list | --count <n>\n");
        return 2;
    }
    int listed = badarg_list_or_count(argc, argv);
    if (listed >= 0) {
        return listed;
    }
    int fatal = strncmp(argv[1], "fatal-", 6) == 0;
    const struct badcase *c = find(argv[1] + (fatal ? 6 : 0));
    if (!c) {
        fprintf(stderr, "badarg_mpi: unknown case '%s'\n", argv[1]);
        return 2;
    }
    if (c->ranks == 0) {
        int rc = c->fn(); /* before MPI_Init: must end the process under the default handler */
        fprintf(stderr, "%s: the call before MPI_Init returned %d\n", c->name, rc);
        return 3;
    }
    check_init(&argc, &argv);
    CHECK_OK(MPI_Comm_size(W, &size));
    if (size > 64) {
        return 2;
    }
    for (int i = 0; i < 64; i++) {
        ones[i] = 1;
    }
    if (!fatal) {
        CHECK_OK(MPI_Comm_set_errhandler(W, MPI_ERRORS_RETURN));
        CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    }
    int rc = c->fn();
    if (fatal) {
        fprintf(stderr, "[rank %d] %s: the bad call returned %d under MPI_ERRORS_ARE_FATAL\n",
                check_rank, c->name, rc);
        return 3;
    }
    int cls = -1;
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    msg[0] = '\0';
    MPI_Error_class(rc, &cls);
    MPI_Error_string(rc, msg, &len);
    fprintf(stderr, "[rank %d] %s: returned %d (class %d): \"%s\"\n", check_rank, c->name, rc,
            cls, msg);
    if (cls != c->code) {
        check_failures++;
        fprintf(stderr, "[rank %d] %s: expected error class %d, got %d\n", check_rank, c->name,
                c->code, cls);
    }
    if (len <= 0 || (size_t)len != strlen(msg) || !strstr(msg, c->func) ||
        !strstr(msg, c->what)) {
        check_failures++;
        fprintf(stderr, "[rank %d] %s: the error string should name \"%s\" and say \"%s\"\n",
                check_rank, c->name, c->func, c->what);
    }
    if (case_finalized) {
        return check_failures ? 1 : 0;
    }
    CHECK_OK(MPI_Barrier(W)); /* every rank is still in step */
    return check_finish();
}
