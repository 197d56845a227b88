/*
 * badarg_c_handles.h: bad-argument cases of communicator and request handles (NULL, forged, freed, predefined, double free, stale after completion, wrong kind), comm_split arguments and the lifecycle (before init, init twice, after finalize).
 * Included once by badarg_c.c (one translation unit, so check.h's counters are shared); every
 * CASE here becomes one CTest (see badarg_c.c and ctest/CMakeLists.txt).
 */
/* ---- communicator handles: NULL, forged, freed, predefined ---- */
CASE(send_null_comm, 1, NEXAR_ERR_COMM, "nexar_send", "communicator handle is NULL")
{
    return nexar_send(sb, 1, I32, 0, 1, NULL);
}
CASE(barrier_null_comm, 2, NEXAR_ERR_COMM, "nexar_barrier", "communicator handle is NULL")
{
    return nexar_barrier(NULL);
}
CASE(allreduce_forged_comm, 2, NEXAR_ERR_COMM, "nexar_allreduce", "invalid or freed")
{
    return nexar_allreduce(sb, rb, 1, I32, NEXAR_OP_SUM, (nexar_comm_t)(uintptr_t)0x12345678);
}
CASE(comm_rank_freed_comm, 2, NEXAR_ERR_COMM, "nexar_comm_rank", "invalid or freed")
{
    nexar_comm_t d = NULL;
    CHECK_OK(nexar_comm_dup(W, &d));
    nexar_comm_t stale = d;
    CHECK_OK(nexar_comm_free(&d));
    CHECK(d == NULL);
    int r = -4;
    int rc = nexar_comm_rank(stale, &r);
    CHECK(r == -4);
    return rc;
}
CASE(bcast_freed_comm, 2, NEXAR_ERR_COMM, "nexar_bcast", "invalid or freed")
{
    nexar_comm_t d = NULL;
    CHECK_OK(nexar_comm_split(W, rank % 2, 0, &d));
    nexar_comm_t stale = d;
    CHECK_OK(nexar_comm_free(&d));
    return nexar_bcast(sb, 1, I32, 0, stale);
}
CASE(comm_double_free, 2, NEXAR_ERR_COMM, "nexar_comm_free", "invalid or freed")
{
    nexar_comm_t d = NULL;
    CHECK_OK(nexar_comm_dup(W, &d));
    nexar_comm_t copy = d;
    CHECK_OK(nexar_comm_free(&d));
    CHECK_OK(nexar_comm_free(&d)); /* *comm == NULL: documented to do nothing */
    return nexar_comm_free(&copy);
}
CASE(comm_free_world, 1, NEXAR_ERR_COMM, "nexar_comm_free", "WORLD")
{
    nexar_comm_t w = W;
    int rc = nexar_comm_free(&w);
    CHECK(w == W);
    return rc;
}
CASE(comm_free_self, 1, NEXAR_ERR_COMM, "nexar_comm_free", "SELF")
{
    nexar_comm_t s = NEXAR_COMM_SELF;
    return nexar_comm_free(&s);
}
CASE(comm_split_freed_comm, 2, NEXAR_ERR_COMM, "nexar_comm_split", "invalid or freed")
{
    nexar_comm_t d = NULL, n = W;
    CHECK_OK(nexar_comm_dup(W, &d));
    nexar_comm_t stale = d;
    CHECK_OK(nexar_comm_free(&d));
    int rc = nexar_comm_split(stale, 0, 0, &n);
    CHECK(n == W);
    return rc;
}
CASE(request_as_comm, 1, NEXAR_ERR_COMM, "nexar_comm_size", "invalid or freed")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    CHECK_OK(nexar_irecv(rb, 1, I32, 0, 5, W, &q));
    int s = -1;
    int rc = nexar_comm_size((nexar_comm_t)(void *)q, &s);
    CHECK_OK(nexar_send(sb, 1, I32, 0, 5, W));
    CHECK_OK(nexar_wait(&q, NULL));
    return rc;
}

/* ---- comm_split / split_type arguments ---- */
CASE(comm_split_negative_color, 2, NEXAR_ERR_ARG, "nexar_comm_split", "color -5 is negative")
{
    nexar_comm_t n = W;
    int rc = nexar_comm_split(W, -5, 0, &n);
    CHECK(n == W);
    return rc;
}
CASE(comm_split_color_int_min, 2, NEXAR_ERR_ARG, "nexar_comm_split", "is negative")
{
    nexar_comm_t n = W;
    return nexar_comm_split(W, INT_MIN, 0, &n);
}
CASE(comm_split_type_unknown, 2, NEXAR_ERR_ARG, "nexar_comm_split_type", "unknown split type")
{
    nexar_comm_t n = W;
    return nexar_comm_split_type(W, 77, 0, &n);
}

/* ---- request handles: freed, double free, stale after completion, forged, pending ---- */
CASE(wait_freed_request, 1, NEXAR_ERR_REQUEST, "nexar_wait", "invalid or freed")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    CHECK_OK(nexar_isend(sb, 1, I32, 0, 9, W, &q));
    nexar_request_t copy = q;
    CHECK_OK(nexar_wait(&q, NULL));
    CHECK(q == NEXAR_REQUEST_NULL);
    CHECK_OK(nexar_recv(rb, 1, I32, 0, 9, W, NULL));
    return nexar_wait(&copy, NULL);
}
CASE(wait_completed_null_request, 1, NEXAR_SUCCESS, "", "")
{
    /* A request already completed by wait is NEXAR_REQUEST_NULL: waiting again is a no-op. */
    nexar_request_t q = NEXAR_REQUEST_NULL;
    CHECK_OK(nexar_isend(sb, 1, I32, 0, 9, W, &q));
    CHECK_OK(nexar_wait(&q, NULL));
    CHECK_OK(nexar_recv(rb, 1, I32, 0, 9, W, NULL));
    nexar_status_t st;
    memset(&st, 0x55, sizeof st);
    int rc = nexar_wait(&q, &st);
    CHECK(st.error == NEXAR_SUCCESS && st.count == 0);
    return rc;
}
CASE(test_freed_request, 1, NEXAR_ERR_REQUEST, "nexar_test", "invalid or freed")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    CHECK_OK(nexar_ibarrier(W, &q));
    nexar_request_t copy = q;
    CHECK_OK(nexar_wait(&q, NULL));
    int flag = 7;
    int rc = nexar_test(&copy, &flag, NULL);
    CHECK(flag == 7);
    return rc;
}
CASE(request_double_free, 1, NEXAR_ERR_REQUEST, "nexar_request_free", "invalid or freed")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    CHECK_OK(nexar_isend(sb, 1, I32, 0, 9, W, &q));
    nexar_request_t copy = q;
    CHECK_OK(nexar_request_free(&q));
    CHECK(q == NEXAR_REQUEST_NULL);
    CHECK_OK(nexar_recv(rb, 1, I32, 0, 9, W, NULL));
    return nexar_request_free(&copy);
}
CASE(request_free_pending, 1, NEXAR_ERR_PENDING, "nexar_request_free", "")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    CHECK_OK(nexar_irecv(rb, 1, I32, 0, 9, W, &q));
    int rc = nexar_request_free(&q);
    CHECK(q != NEXAR_REQUEST_NULL); /* still valid: wait for it */
    CHECK_OK(nexar_send(sb, 1, I32, 0, 9, W));
    CHECK_OK(nexar_wait(&q, NULL));
    CHECK(rb[0] == sb[0]);
    return rc;
}
CASE(waitany_freed_request, 1, NEXAR_ERR_REQUEST, "nexar_waitany", "invalid or freed")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    CHECK_OK(nexar_ibarrier(W, &q));
    nexar_request_t copy = q;
    CHECK_OK(nexar_wait(&q, NULL));
    int idx = -3;
    int rc = nexar_waitany(1, &copy, &idx, NULL);
    CHECK(idx == -3);
    return rc;
}
CASE(waitall_freed_request, 2, NEXAR_ERR_REQUEST, "nexar_waitall", "invalid or freed")
{
    nexar_request_t two[2] = { NEXAR_REQUEST_NULL, NEXAR_REQUEST_NULL };
    CHECK_OK(nexar_ibarrier(W, &two[1]));
    nexar_request_t copy = two[1];
    CHECK_OK(nexar_wait(&two[1], NULL));
    two[1] = copy;
    CHECK_OK(nexar_isend(sb, 1, I32, rank, 9, W, &two[0]));
    nexar_status_t sts[2];
    int rc = nexar_waitall(2, two, sts);
    /* the good request is completed anyway, the stale one reported in its status */
    CHECK(two[0] == NEXAR_REQUEST_NULL && sts[0].error == NEXAR_SUCCESS);
    CHECK(sts[1].error == NEXAR_ERR_REQUEST);
    CHECK_OK(nexar_recv(rb, 1, I32, rank, 9, W, NULL));
    return rc;
}
CASE(testall_forged_request, 1, NEXAR_ERR_REQUEST, "nexar_testall", "invalid or freed")
{
    nexar_request_t f = (nexar_request_t)(uintptr_t)0x4321;
    int flag = 9;
    return nexar_testall(1, &f, &flag, NULL);
}
CASE(comm_as_request, 1, NEXAR_ERR_REQUEST, "nexar_wait", "invalid or freed")
{
    nexar_comm_t d = NULL;
    CHECK_OK(nexar_comm_dup(W, &d));
    nexar_request_t f = (nexar_request_t)(void *)d;
    int rc = nexar_wait(&f, NULL);
    CHECK(f == (nexar_request_t)(void *)d);
    CHECK_OK(nexar_comm_free(&d));
    return rc;
}

/* ---- lifecycle: before init, init twice, after finalize ---- */
CASE(send_before_init, 0, NEXAR_ERR_NOT_INITIALIZED, "nexar_send", "nexar_init has not")
{
    return nexar_send(sb, 1, I32, 0, 1, W);
}
CASE(comm_rank_before_init, 0, NEXAR_ERR_NOT_INITIALIZED, "nexar_comm_rank", "nexar_init")
{
    int r = -1;
    return nexar_comm_rank(W, &r);
}
CASE(finalize_before_init, 0, NEXAR_ERR_NOT_INITIALIZED, "nexar_finalize", "nexar_init")
{
    return nexar_finalize();
}
CASE(init_twice, 2, NEXAR_ERR_ARG, "nexar_init", "already")
{
    return nexar_init(NULL, NULL);
}
static int finalize_first(void)
{
    CHECK_OK(nexar_finalize());
    case_finalized = 1;
    return 0;
}
CASE(send_after_finalize, 2, NEXAR_ERR_FINALIZED, "nexar_send", "nexar_finalize was called")
{
    finalize_first();
    return nexar_send(sb, 1, I32, 0, 1, W);
}
CASE(allreduce_after_finalize, 2, NEXAR_ERR_FINALIZED, "nexar_allreduce", "nexar_finalize")
{
    finalize_first();
    return nexar_allreduce(sb, rb, 1, I32, NEXAR_OP_SUM, W);
}
CASE(comm_free_after_finalize, 2, NEXAR_ERR_FINALIZED, "nexar_comm_free", "nexar_finalize")
{
    nexar_comm_t d = NULL;
    CHECK_OK(nexar_comm_dup(W, &d));
    finalize_first();
    return nexar_comm_free(&d);
}
CASE(wait_after_finalize, 2, NEXAR_ERR_FINALIZED, "nexar_wait", "nexar_finalize")
{
    nexar_request_t q = NEXAR_REQUEST_NULL;
    CHECK_OK(nexar_isend(sb, 1, I32, rank, 3, W, &q));
    finalize_first();
    return nexar_wait(&q, NULL);
}
CASE(init_after_finalize, 2, NEXAR_ERR_FINALIZED, "nexar_init", "")
{
    finalize_first();
    return nexar_init(NULL, NULL);
}
CASE(finalize_twice, 2, NEXAR_ERR_FINALIZED, "nexar_finalize", "")
{
    finalize_first();
    return nexar_finalize();
}

/* ---- error modes ---- */
CASE(set_error_mode_unknown, 1, NEXAR_ERR_ARG, "nexar_set_error_mode", "unknown error mode 2")
{
    return nexar_set_error_mode(2);
}
