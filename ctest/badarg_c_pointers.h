/*
 * badarg_c_pointers.h: bad-argument cases of NULL pointers (buffers with count > 0, out-parameters, requests, count arrays, NEXAR_IN_PLACE where it is not allowed).
 * Included once by badarg_c.c (one translation unit, so check.h's counters are shared); every
 * CASE here becomes one CTest (see badarg_c.c and ctest/CMakeLists.txt).
 */
/* ---- NULL pointers: buffers (count > 0), out-parameters, requests, arrays ---- */
CASE(send_null_buf, 1, NEXAR_ERR_ARG, "nexar_send", "`buf` is NULL")
{
    return nexar_send(NULL, 1, I32, 0, 1, W);
}
CASE(recv_null_buf, 1, NEXAR_ERR_ARG, "nexar_recv", "`buf` is NULL")
{
    return nexar_recv(NULL, 1, I32, 0, 1, W, NULL);
}
CASE(isend_null_buf, 2, NEXAR_ERR_ARG, "nexar_isend", "`buf` is NULL")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    int rc = nexar_isend(NULL, 4, I32, 0, 1, W, &q);
    CHECK(q == NEXAR_REQUEST_NULL);
    return rc;
}
CASE(irecv_null_buf, 2, NEXAR_ERR_ARG, "nexar_irecv", "`buf` is NULL")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    return nexar_irecv(NULL, 1, I32, 0, 1, W, &q);
}
CASE(isend_null_request, 1, NEXAR_ERR_ARG, "nexar_isend", "`request` is NULL")
{
    return nexar_isend(sb, 1, I32, 0, 1, W, NULL);
}
CASE(irecv_null_request, 1, NEXAR_ERR_ARG, "nexar_irecv", "`request` is NULL")
{
    return nexar_irecv(rb, 1, I32, 0, 1, W, NULL);
}
CASE(sendrecv_null_sendbuf, 2, NEXAR_ERR_ARG, "nexar_sendrecv", "is NULL")
{
    return nexar_sendrecv(NULL, 1, I32, rank, 1, rb, 1, I32, rank, 1, W, NULL);
}
CASE(sendrecv_null_recvbuf, 2, NEXAR_ERR_ARG, "nexar_sendrecv", "is NULL")
{
    return nexar_sendrecv(sb, 1, I32, rank, 1, NULL, 1, I32, rank, 1, W, NULL);
}
CASE(probe_null_status, 1, NEXAR_ERR_ARG, "nexar_probe", "`status` is NULL")
{
    return nexar_probe(0, 1, W, NULL);
}
CASE(iprobe_null_flag, 1, NEXAR_ERR_ARG, "nexar_iprobe", "`flag` is NULL")
{
    return nexar_iprobe(0, 1, W, NULL, NULL);
}
CASE(get_count_null_status, 1, NEXAR_ERR_ARG, "nexar_get_count", "`status` is NULL")
{
    size_t n = 7;
    int rc = nexar_get_count(NULL, I32, &n);
    CHECK(n == 7);
    return rc;
}
CASE(get_count_null_count, 1, NEXAR_ERR_ARG, "nexar_get_count", "`count` is NULL")
{
    nexar_status_t st = { 0, 0, 0, 8 };
    return nexar_get_count(&st, I32, NULL);
}
CASE(comm_rank_null, 1, NEXAR_ERR_ARG, "nexar_comm_rank", "`rank` is NULL")
{
    return nexar_comm_rank(W, NULL);
}
CASE(comm_size_null, 2, NEXAR_ERR_ARG, "nexar_comm_size", "`size` is NULL")
{
    return nexar_comm_size(W, NULL);
}
CASE(comm_split_null_newcomm, 2, NEXAR_ERR_ARG, "nexar_comm_split", "`newcomm` is NULL")
{
    return nexar_comm_split(W, 0, 0, NULL);
}
CASE(comm_split_type_null_newcomm, 1, NEXAR_ERR_ARG, "nexar_comm_split_type",
     "`newcomm` is NULL")
{
    return nexar_comm_split_type(W, NEXAR_COMM_TYPE_SHARED, 0, NULL);
}
CASE(comm_dup_null_newcomm, 2, NEXAR_ERR_ARG, "nexar_comm_dup", "`newcomm` is NULL")
{
    return nexar_comm_dup(W, NULL);
}
CASE(comm_free_null, 1, NEXAR_ERR_ARG, "nexar_comm_free", "is NULL")
{
    return nexar_comm_free(NULL);
}
CASE(initialized_null, 1, NEXAR_ERR_ARG, "nexar_initialized", "`flag` is NULL")
{
    return nexar_initialized(NULL);
}
CASE(finalized_null, 1, NEXAR_ERR_ARG, "nexar_finalized", "`flag` is NULL")
{
    return nexar_finalized(NULL);
}
CASE(wait_null_request, 1, NEXAR_ERR_ARG, "nexar_wait", "`request` is NULL")
{
    return nexar_wait(NULL, NULL);
}
CASE(test_null_request, 1, NEXAR_ERR_ARG, "nexar_test", "`request` is NULL")
{
    int flag = 3;
    int rc = nexar_test(NULL, &flag, NULL);
    CHECK(flag == 3);
    return rc;
}
CASE(test_null_flag, 1, NEXAR_ERR_ARG, "nexar_test", "`flag` is NULL")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    return nexar_test(&q, NULL, NULL);
}
CASE(waitall_null_array, 1, NEXAR_ERR_ARG, "nexar_waitall", "`requests` is NULL")
{
    return nexar_waitall(2, NULL, NULL);
}
CASE(waitany_null_array, 1, NEXAR_ERR_ARG, "nexar_waitany", "`requests` is NULL")
{
    int idx = -5;
    int rc = nexar_waitany(2, NULL, &idx, NULL);
    CHECK(idx == -5);
    return rc;
}
CASE(waitany_null_index, 1, NEXAR_ERR_ARG, "nexar_waitany", "`index` is NULL")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    return nexar_waitany(1, &q, NULL, NULL);
}
CASE(testall_null_array, 1, NEXAR_ERR_ARG, "nexar_testall", "`requests` is NULL")
{
    int flag = 0;
    return nexar_testall(3, NULL, &flag, NULL);
}
CASE(testall_null_flag, 1, NEXAR_ERR_ARG, "nexar_testall", "`flag` is NULL")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    return nexar_testall(1, &q, NULL, NULL);
}
CASE(request_free_null, 1, NEXAR_ERR_ARG, "nexar_request_free", "`request` is NULL")
{
    return nexar_request_free(NULL);
}
CASE(ibarrier_null_request, 2, NEXAR_ERR_ARG, "nexar_ibarrier", "`request` is NULL")
{
    return nexar_ibarrier(W, NULL);
}
CASE(iallreduce_null_request, 2, NEXAR_ERR_ARG, "nexar_iallreduce", "`request` is NULL")
{
    return nexar_iallreduce(sb, rb, 1, I32, NEXAR_OP_SUM, W, NULL);
}
CASE(bcast_null_buf, 2, NEXAR_ERR_ARG, "nexar_bcast", "`buf` is NULL")
{
    return nexar_bcast(NULL, 3, I32, 0, W);
}
CASE(allreduce_null_sendbuf, 2, NEXAR_ERR_ARG, "nexar_allreduce", "`sendbuf` is NULL")
{
    return nexar_allreduce(NULL, rb, 2, I32, NEXAR_OP_SUM, W);
}
CASE(allreduce_null_recvbuf, 2, NEXAR_ERR_ARG, "nexar_allreduce", "`recvbuf` is NULL")
{
    return nexar_allreduce(sb, NULL, 2, I32, NEXAR_OP_SUM, W);
}
CASE(reduce_null_recvbuf_root, 1, NEXAR_ERR_ARG, "nexar_reduce", "`recvbuf` is NULL")
{
    return nexar_reduce(sb, NULL, 2, I32, NEXAR_OP_SUM, 0, W);
}
CASE(gather_null_sendbuf, 2, NEXAR_ERR_ARG, "nexar_gather", "`sendbuf` is NULL")
{
    return nexar_gather(NULL, rb, 1, I32, 0, W);
}
CASE(scatter_null_recvbuf, 2, NEXAR_ERR_ARG, "nexar_scatter", "`recvbuf` is NULL")
{
    return nexar_scatter(sb, NULL, 1, I32, 0, W);
}
CASE(allgather_null_recvbuf, 2, NEXAR_ERR_ARG, "nexar_allgather", "`recvbuf` is NULL")
{
    return nexar_allgather(sb, NULL, 1, I32, W);
}
CASE(alltoall_null_sendbuf, 2, NEXAR_ERR_ARG, "nexar_alltoall", "`sendbuf` is NULL")
{
    return nexar_alltoall(NULL, rb, 1, I32, W);
}
CASE(alltoallv_null_sendcounts, 2, NEXAR_ERR_ARG, "nexar_alltoallv", "`sendcounts` is NULL")
{
    return nexar_alltoallv(sb, NULL, NULL, rb, ones, NULL, I32, W);
}
CASE(allgatherv_null_recvcounts, 2, NEXAR_ERR_ARG, "nexar_allgatherv", "`recvcounts` is NULL")
{
    return nexar_allgatherv(sb, 1, rb, NULL, NULL, I32, W);
}
CASE(reduce_scatter_null_recvcounts, 2, NEXAR_ERR_ARG, "nexar_reduce_scatter",
     "`recvcounts` is NULL")
{
    return nexar_reduce_scatter(sb, rb, NULL, I32, NEXAR_OP_SUM, W);
}
CASE(scan_null_recvbuf, 2, NEXAR_ERR_ARG, "nexar_scan", "`recvbuf` is NULL")
{
    return nexar_scan(sb, NULL, 2, I32, NEXAR_OP_SUM, W);
}
CASE(exscan_null_sendbuf, 2, NEXAR_ERR_ARG, "nexar_exscan", "`sendbuf` is NULL")
{
    return nexar_exscan(NULL, rb, 2, I32, NEXAR_OP_SUM, W);
}
CASE(send_in_place, 1, NEXAR_ERR_ARG, "nexar_send", "`buf` is NULL")
{
    return nexar_send(NEXAR_IN_PLACE, 1, I32, 0, 1, W);
}
CASE(bcast_in_place, 2, NEXAR_ERR_ARG, "nexar_bcast", "`buf` is NULL")
{
    return nexar_bcast(NEXAR_IN_PLACE, 1, I32, 0, W);
}

/* ---- more NULL pointers: every non-blocking collective's request, rooted count arrays ---- */
CASE(iallgather_null_request, 2, NEXAR_ERR_ARG, "nexar_iallgather", "`request` is NULL")
{
    return nexar_iallgather(sb, rb, 1, I32, W, NULL);
}
CASE(ialltoallv_null_request, 2, NEXAR_ERR_ARG, "nexar_ialltoallv", "`request` is NULL")
{
    return nexar_ialltoallv(sb, ones, NULL, rb, ones, NULL, I32, W, NULL);
}
CASE(ireduce_scatter_block_null_request, 2, NEXAR_ERR_ARG, "nexar_ireduce_scatter_block",
     "`request` is NULL")
{
    return nexar_ireduce_scatter_block(sb, rb, 1, I32, NEXAR_OP_SUM, W, NULL);
}
CASE(iexscan_null_request, 2, NEXAR_ERR_ARG, "nexar_iexscan", "`request` is NULL")
{
    return nexar_iexscan(sb, rb, 1, I32, NEXAR_OP_SUM, W, NULL);
}
CASE(igather_null_request, 2, NEXAR_ERR_ARG, "nexar_igather", "`request` is NULL")
{
    return nexar_igather(sb, rb, 1, I32, 0, W, NULL);
}
CASE(iscatter_null_request, 2, NEXAR_ERR_ARG, "nexar_iscatter", "`request` is NULL")
{
    return nexar_iscatter(sb, rb, 1, I32, 0, W, NULL);
}
CASE(gatherv_null_recvcounts_root, 1, NEXAR_ERR_ARG, "nexar_gatherv", "`recvcounts` is NULL")
{
    return nexar_gatherv(sb, 1, rb, NULL, NULL, I32, 0, W);
}
CASE(scatterv_null_sendcounts_root, 1, NEXAR_ERR_ARG, "nexar_scatterv", "`sendcounts` is NULL")
{
    return nexar_scatterv(sb, NULL, NULL, rb, 1, I32, 0, W);
}
CASE(scatter_null_sendbuf_root, 1, NEXAR_ERR_ARG, "nexar_scatter", "`sendbuf` is NULL")
{
    return nexar_scatter(NULL, rb, 1, I32, 0, W);
}
CASE(ireduce_null_recvbuf_root, 1, NEXAR_ERR_ARG, "nexar_ireduce", "`recvbuf` is NULL")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    int rc = nexar_ireduce(sb, NULL, 1, I32, NEXAR_OP_SUM, 0, W, &q);
    CHECK(q == NEXAR_REQUEST_NULL);
    return rc;
}
CASE(comm_split_type_null_comm, 2, NEXAR_ERR_COMM, "nexar_comm_split_type",
     "communicator handle is NULL")
{
    nexar_comm_t n = W;
    return nexar_comm_split_type(NULL, NEXAR_COMM_TYPE_SHARED, 0, &n);
}
CASE(iprobe_freed_comm, 2, NEXAR_ERR_COMM, "nexar_iprobe", "invalid or freed")
{
    nexar_comm_t d = NULL;
    CHECK_OK(nexar_comm_dup(W, &d));
    nexar_comm_t stale = d;
    CHECK_OK(nexar_comm_free(&d));
    int flag = 6;
    int rc = nexar_iprobe(0, 0, stale, &flag, NULL);
    CHECK(flag == 6);
    return rc;
}
CASE(version_null_parts, 1, NEXAR_SUCCESS, "", "")
{
    int major = -1;
    int rc = nexar_version(&major, NULL, NULL); /* documented: any part may be NULL */
    CHECK(major >= 0);
    return rc;
}
CASE(scatter_aliased_root, 2, NEXAR_ERR_ARG, "nexar_scatter", "overlap")
{
    /* each rank is the root of its own NEXAR_COMM_SELF */
    return nexar_scatter(rb, rb, 2, I32, 0, NEXAR_COMM_SELF);
}
