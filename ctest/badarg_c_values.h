/*
 * badarg_c_values.h: bad-argument cases of values (counts, ranks, roots, tags, datatype and op codes) and aliased buffers.
 * Included once by badarg_c.c (one translation unit, so check.h's counters are shared); every
 * CASE here becomes one CTest (see badarg_c.c and ctest/CMakeLists.txt).
 */
/* ---- counts: (size_t)-1 (a negative int cast), overflowing byte sizes and arrays ---- */
CASE(send_count_minus_one, 1, NEXAR_ERR_COUNT, "nexar_send", "too large")
{
    return nexar_send(sb, (size_t)-1, I32, 0, 1, W);
}
CASE(recv_count_huge, 1, NEXAR_ERR_COUNT, "nexar_recv", "too large")
{
    return nexar_recv(rb, HUGE_I32, I32, 0, 1, W, NULL);
}
CASE(irecv_count_minus_one, 2, NEXAR_ERR_COUNT, "nexar_irecv", "too large")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    int rc = nexar_irecv(rb, (size_t)-1, NEXAR_DTYPE_DOUBLE, 0, 1, W, &q);
    CHECK(q == NEXAR_REQUEST_NULL);
    return rc;
}
CASE(bcast_count_minus_one, 2, NEXAR_ERR_COUNT, "nexar_bcast", "too large")
{
    return nexar_bcast(sb, (size_t)-1, I32, 0, W);
}
CASE(allreduce_count_huge, 2, NEXAR_ERR_COUNT, "nexar_allreduce", "too large")
{
    return nexar_allreduce(sb, rb, HUGE_I32, I32, NEXAR_OP_SUM, W);
}
CASE(allgather_count_minus_one, 2, NEXAR_ERR_COUNT, "nexar_allgather", "too large")
{
    return nexar_allgather(sb, rb, (size_t)-1, I32, W);
}
CASE(alltoallv_counts_overflow, 2, NEXAR_ERR_COUNT, "nexar_alltoallv", "overflow")
{
    size_t big[64];
    for (int i = 0; i < size; i++) {
        big[i] = SIZE_MAX;
    }
    return nexar_alltoallv(sb, big, NULL, rb, ones, NULL, I32, W);
}
CASE(allgatherv_displs_overflow, 2, NEXAR_ERR_COUNT, "nexar_allgatherv", "overflow")
{
    size_t far[64];
    for (int i = 0; i < size; i++) {
        far[i] = SIZE_MAX - 1 + (size_t)(i == 0);
    }
    return nexar_allgatherv(sb, 1, rb, ones, far, I32, W);
}
CASE(get_count_not_whole, 1, NEXAR_ERR_COUNT, "nexar_get_count", "not a whole number")
{
    nexar_status_t st = { 0, 0, 0, 6 };
    size_t n = 5;
    int rc = nexar_get_count(&st, I32, &n);
    CHECK(n == 5);
    return rc;
}

/* ---- ranks and roots: negative, == size, INT_MAX / INT_MIN ---- */
CASE(send_rank_negative, 2, NEXAR_ERR_RANK, "nexar_send", "-1")
{
    return nexar_send(sb, 1, I32, -1, 1, W);
}
CASE(send_rank_size, 2, NEXAR_ERR_RANK, "nexar_send", "out of range")
{
    return nexar_send(sb, 1, I32, size, 1, W);
}
CASE(send_rank_int_min, 1, NEXAR_ERR_RANK, "nexar_send", "negative")
{
    return nexar_send(sb, 1, I32, INT_MIN, 1, W);
}
CASE(recv_rank_size, 2, NEXAR_ERR_RANK, "nexar_recv", "out of range")
{
    return nexar_recv(rb, 1, I32, size, 1, W, NULL);
}
CASE(irecv_rank_minus_two, 2, NEXAR_ERR_RANK, "nexar_irecv", "-2")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    return nexar_irecv(rb, 1, I32, -2, 1, W, &q);
}
CASE(probe_rank_int_max, 2, NEXAR_ERR_RANK, "nexar_probe", "out of range")
{
    nexar_status_t st;
    return nexar_probe(INT_MAX, 1, W, &st);
}
CASE(iprobe_rank_negative, 1, NEXAR_ERR_RANK, "nexar_iprobe", "-3")
{
    int flag = 2;
    return nexar_iprobe(-3, 1, W, &flag, NULL);
}
CASE(sendrecv_dest_size, 2, NEXAR_ERR_RANK, "nexar_sendrecv", "out of range")
{
    return nexar_sendrecv(sb, 1, I32, size, 1, rb, 1, I32, rank, 1, W, NULL);
}
CASE(bcast_root_negative, 2, NEXAR_ERR_ROOT, "nexar_bcast", "root -1")
{
    return nexar_bcast(sb, 1, I32, -1, W);
}
CASE(bcast_root_size, 2, NEXAR_ERR_ROOT, "nexar_bcast", "out of range")
{
    return nexar_bcast(sb, 1, I32, size, W);
}
CASE(reduce_root_int_max, 2, NEXAR_ERR_ROOT, "nexar_reduce", "out of range")
{
    return nexar_reduce(sb, rb, 1, I32, NEXAR_OP_SUM, INT_MAX, W);
}
CASE(gather_root_size, 2, NEXAR_ERR_ROOT, "nexar_gather", "out of range")
{
    return nexar_gather(sb, rb, 1, I32, size, W);
}
CASE(scatterv_root_negative, 2, NEXAR_ERR_ROOT, "nexar_scatterv", "negative")
{
    return nexar_scatterv(sb, ones, NULL, rb, 1, I32, -7, W);
}
CASE(ireduce_root_size, 2, NEXAR_ERR_ROOT, "nexar_ireduce", "out of range")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    int rc = nexar_ireduce(sb, rb, 1, I32, NEXAR_OP_SUM, size, W, &q);
    CHECK(q == NEXAR_REQUEST_NULL);
    return rc;
}

/* ---- tags ---- */
CASE(send_tag_negative, 1, NEXAR_ERR_TAG, "nexar_send", "tag -5 is negative")
{
    return nexar_send(sb, 1, I32, 0, -5, W);
}
CASE(send_any_tag, 2, NEXAR_ERR_TAG, "nexar_send", "negative")
{
    return nexar_send(sb, 1, I32, rank, NEXAR_ANY_TAG, W);
}
CASE(recv_tag_int_min, 1, NEXAR_ERR_TAG, "nexar_recv", "negative")
{
    return nexar_recv(rb, 1, I32, 0, INT_MIN, W, NULL);
}
CASE(probe_tag_negative, 2, NEXAR_ERR_TAG, "nexar_probe", "tag -3")
{
    nexar_status_t st;
    return nexar_probe(rank, -3, W, &st);
}
CASE(sendrecv_recvtag_negative, 2, NEXAR_ERR_TAG, "nexar_sendrecv", "negative")
{
    return nexar_sendrecv(sb, 1, I32, rank, 1, rb, 1, I32, rank, -9, W, NULL);
}

/* ---- datatype and op codes ---- */
CASE(send_datatype_zero, 1, NEXAR_ERR_DATATYPE, "nexar_send", "unknown datatype code 0")
{
    return nexar_send(sb, 1, 0, 0, 1, W);
}
CASE(recv_datatype_negative, 1, NEXAR_ERR_DATATYPE, "nexar_recv", "unknown datatype code -1")
{
    return nexar_recv(rb, 1, -1, 0, 1, W, NULL);
}
CASE(allreduce_datatype_18, 2, NEXAR_ERR_DATATYPE, "nexar_allreduce", "unknown datatype code 18")
{
    return nexar_allreduce(sb, rb, 1, 18, NEXAR_OP_SUM, W);
}
CASE(get_count_datatype_int_max, 1, NEXAR_ERR_DATATYPE, "nexar_get_count", "unknown datatype")
{
    nexar_status_t st = { 0, 0, 0, 4 };
    size_t n = 1;
    return nexar_get_count(&st, INT_MAX, &n);
}
CASE(allreduce_op_zero, 2, NEXAR_ERR_OP, "nexar_allreduce", "unknown op code 0")
{
    return nexar_allreduce(sb, rb, 1, I32, 0, W);
}
CASE(reduce_op_13, 2, NEXAR_ERR_OP, "nexar_reduce", "unknown op code 13")
{
    return nexar_reduce(sb, rb, 1, I32, 13, 0, W);
}
CASE(iscan_op_negative, 2, NEXAR_ERR_OP, "nexar_iscan", "unknown op code -1")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    return nexar_iscan(sb, rb, 1, I32, -1, W, &q);
}
CASE(allreduce_band_double, 2, NEXAR_ERR_OP, "nexar_allreduce", "")
{
    double d[2] = { 1, 2 }, r[2];
    return nexar_allreduce(d, r, 2, NEXAR_DTYPE_DOUBLE, NEXAR_OP_BAND, W);
}
CASE(allreduce_minloc_int32, 2, NEXAR_ERR_OP, "nexar_allreduce", "")
{
    return nexar_allreduce(sb, rb, 1, I32, NEXAR_OP_MINLOC, W);
}

/* ---- buffer aliasing where forbidden (NEXAR_IN_PLACE is the way to share) ---- */
CASE(allreduce_aliased, 2, NEXAR_ERR_ARG, "nexar_allreduce", "overlap")
{
    return nexar_allreduce(sb, sb, 4, I32, NEXAR_OP_SUM, W);
}
CASE(allreduce_partly_aliased, 2, NEXAR_ERR_ARG, "nexar_allreduce", "overlap")
{
    return nexar_allreduce(sb, sb + 2, 4, I32, NEXAR_OP_SUM, W);
}
CASE(iallreduce_aliased, 2, NEXAR_ERR_ARG, "nexar_iallreduce", "overlap")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    int rc = nexar_iallreduce(rb, rb, 4, I32, NEXAR_OP_SUM, W, &q);
    CHECK(q == NEXAR_REQUEST_NULL);
    return rc;
}
CASE(reduce_aliased_root, 2, NEXAR_ERR_ARG, "nexar_reduce", "overlap")
{
    /* only the root reads recvbuf, so every rank names itself root... of its own call: use
     * COMM_SELF so the root check applies everywhere */
    return nexar_reduce(sb, sb, 2, I32, NEXAR_OP_SUM, 0, NEXAR_COMM_SELF);
}
CASE(scan_aliased, 2, NEXAR_ERR_ARG, "nexar_scan", "overlap")
{
    return nexar_scan(rb + 1, rb, 3, I32, NEXAR_OP_SUM, W);
}
CASE(allgather_aliased, 2, NEXAR_ERR_ARG, "nexar_allgather", "overlap")
{
    return nexar_allgather(rb + 1, rb, 2, I32, W);
}
CASE(alltoall_aliased, 2, NEXAR_ERR_ARG, "nexar_alltoall", "overlap")
{
    return nexar_alltoall(rb, rb, 1, I32, W);
}
CASE(allreduce_adjacent_not_aliased, 2, NEXAR_SUCCESS, "", "")
{
    /* touching but disjoint buffers are fine */
    int32_t v[2] = { rank + 1, 0 };
    int rc = nexar_allreduce(v, v + 1, 1, I32, NEXAR_OP_SUM, W);
    CHECK(v[1] == size * (size + 1) / 2);
    return rc;
}
