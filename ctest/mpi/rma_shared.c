/*
 * rma_shared.c: post/start/complete/wait, shared-memory windows and dynamic windows, at any
 * rank count.
 *
 * Covered: PSCW on a ring (each rank exposes its window to its left neighbour and accesses
 * its right one; MPI_Win_test polls until the epoch ends) repeated so that posts and starts
 * must match up epoch by epoch; MPI_Win_allocate_shared memory written with plain stores and
 * read by every rank through MPI_Win_shared_query pointers (contiguous by default: rank r+1's
 * memory follows rank r's), and with alloc_shared_noncontig; MPI_PROC_NULL in shared_query;
 * MPI_Win_create_dynamic with MPI_Win_attach (absolute displacements from MPI_Get_address)
 * and MPI_Win_detach.
 */
#include "mpi_check.h"

enum { EPOCHS = 20 };

static void pscw_ring(int rank, int size)
{
    int cell[2] = {-1, -1};
    MPI_Win win;
    CHECK_OK(MPI_Win_create(cell, sizeof cell, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                            &win));
    MPI_Group world, left_g, right_g;
    CHECK_OK(MPI_Comm_group(MPI_COMM_WORLD, &world));
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    CHECK_OK(MPI_Group_incl(world, 1, &left, &left_g));
    CHECK_OK(MPI_Group_incl(world, 1, &right, &right_g));
    for (int e = 0; e < EPOCHS; e++) {
        CHECK_OK(MPI_Win_post(left_g, 0, win));   /* my left neighbour writes me */
        CHECK_OK(MPI_Win_start(right_g, 0, win)); /* I write my right neighbour */
        int v[2] = {rank, e};
        CHECK_OK(MPI_Put(v, 2, MPI_INT, right, 0, 2, MPI_INT, win));
        CHECK_OK(MPI_Win_complete(win));
        if (e % 2 == 0) {
            CHECK_OK(MPI_Win_wait(win));
        } else {
            int flag = 0;
            while (!flag)
                CHECK_OK(MPI_Win_test(win, &flag));
        }
        CHECK(cell[0] == left && cell[1] == e);
    }
    MPI_Group_free(&left_g);
    MPI_Group_free(&right_g);
    MPI_Group_free(&world);
    CHECK_OK(MPI_Win_free(&win));
}

static void shared_window(int rank, int size, int noncontig)
{
    MPI_Info info = MPI_INFO_NULL;
    if (noncontig) {
        CHECK_OK(MPI_Info_create(&info));
        CHECK_OK(MPI_Info_set(info, "alloc_shared_noncontig", "true"));
    }
    /* rank r holds r + 1 doubles */
    double *mine = NULL;
    MPI_Win win;
    CHECK_OK(MPI_Win_allocate_shared((MPI_Aint)sizeof(double) * (rank + 1), sizeof(double),
                                     info, MPI_COMM_WORLD, &mine, &win));
    int *flavor = NULL, ok = 0;
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &ok));
    CHECK(ok && *flavor == MPI_WIN_FLAVOR_SHARED);
    CHECK_OK(MPI_Win_lock_all(0, win));
    for (int i = 0; i <= rank; i++)
        mine[i] = rank * 10.0 + i;
    CHECK_OK(MPI_Win_sync(win));
    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_OK(MPI_Win_sync(win));
    double *prev_end = NULL;
    for (int r = 0; r < size; r++) {
        MPI_Aint sz = -1;
        int unit = -1;
        double *p = NULL;
        CHECK_OK(MPI_Win_shared_query(win, r, &sz, &unit, &p));
        CHECK(sz == (MPI_Aint)sizeof(double) * (r + 1) && unit == (int)sizeof(double));
        if (r == rank)
            CHECK(p == mine);
        if (!noncontig && prev_end)
            CHECK(p == prev_end);
        prev_end = p + r + 1;
        for (int i = 0; i <= r; i++)
            CHECK(p[i] == r * 10.0 + i);
    }
    MPI_Aint sz = -1;
    int unit = -1;
    double *p = NULL;
    CHECK_OK(MPI_Win_shared_query(win, MPI_PROC_NULL, &sz, &unit, &p));
    CHECK(sz == (MPI_Aint)sizeof(double) && p != NULL && p[0] == 0.0);
    CHECK_OK(MPI_Win_unlock_all(win));
    CHECK_OK(MPI_Win_free(&win));
    if (info != MPI_INFO_NULL)
        MPI_Info_free(&info);
}

static void dynamic_window(int rank, int size)
{
    MPI_Win win;
    CHECK_OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    int *flavor = NULL, ok = 0;
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &ok));
    CHECK(ok && *flavor == MPI_WIN_FLAVOR_DYNAMIC);
    long *buf = calloc((size_t)size, sizeof(long));
    CHECK_OK(MPI_Win_attach(win, buf, sizeof(long) * size));
    MPI_Aint here, *addrs = malloc(sizeof(MPI_Aint) * size);
    CHECK_OK(MPI_Get_address(buf, &here));
    CHECK_OK(MPI_Allgather(&here, 1, MPI_AINT, addrs, 1, MPI_AINT, MPI_COMM_WORLD));
    CHECK_OK(MPI_Win_fence(0, win));
    long v = 1000 + rank;
    for (int t = 0; t < size; t++)
        CHECK_OK(MPI_Put(&v, 1, MPI_LONG, t, addrs[t] + (MPI_Aint)sizeof(long) * rank, 1,
                         MPI_LONG, win));
    CHECK_OK(MPI_Win_fence(0, win));
    for (int r = 0; r < size; r++)
        CHECK(buf[r] == 1000 + r);
    long got = -1;
    int right = (rank + 1) % size;
    CHECK_OK(MPI_Get(&got, 1, MPI_LONG, right, addrs[right], 1, MPI_LONG, win));
    CHECK_OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    CHECK(got == 1000);
    CHECK_OK(MPI_Win_detach(win, buf));
    CHECK_OK(MPI_Win_free(&win));
    free(addrs);
    free(buf);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    pscw_ring(rank, size);
    shared_window(rank, size, 0);
    shared_window(rank, size, 1);
    dynamic_window(rank, size);
    return check_finish();
}
