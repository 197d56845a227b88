/*
 * intercomm_pair.h: the intercommunicator the intercomm tests (ctest/mpi) share:
 * MPI_COMM_WORLD split by rank parity into two groups joined by MPI_Intercomm_create
 * (leaders: world ranks 0 and 1), and what a rank knows about it.
 *
 *   parity_intercomm(&local, &ic)  makes it (MPI_ERRORS_RETURN on it); 0 at one rank, where no
 *                                  intercommunicator can exist (the caller then checks the
 *                                  intracommunicator answers only)
 *   remote_world(i)                the world rank of remote rank i
 */
#ifndef NEXAR_INTERCOMM_PAIR_H
#define NEXAR_INTERCOMM_PAIR_H

#include "mpi_check.h"

static int me, size, color, lrank, lsize, rsize;

/* World rank of remote rank i (the other parity's i-th member). */
static inline int remote_world(int i) { return 2 * i + (1 - color); }

/* How many world ranks of parity p there are. */
static inline int count_of(int p) { return (size + 1 - p) / 2; }

/* The group of the world ranks of parity `parity`. */
static inline MPI_Group parity_group(int parity)
{
    MPI_Group world, g;
    int ranks[256], n = 0;
    for (int r = parity; r < size && n < 256; r += 2)
        ranks[n++] = r;
    CHECK_OK(MPI_Comm_group(MPI_COMM_WORLD, &world));
    CHECK_OK(MPI_Group_incl(world, n, ranks, &g));
    CHECK_OK(MPI_Group_free(&world));
    return g;
}

/* Sum over remote ranks of mul * (world rank) + add. */
static inline int remote_sum(int mul, int add)
{
    int s = 0;
    for (int i = 0; i < rsize; i++)
        s += mul * remote_world(i) + add;
    return s;
}

static inline int parity_intercomm(MPI_Comm *local, MPI_Comm *ic)
{
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    me = check_rank;
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    int flag = -1, n = -1;
    CHECK_OK(MPI_Comm_test_inter(MPI_COMM_WORLD, &flag));
    CHECK(flag == 0);
    EXPECT_CLASS(MPI_Comm_remote_size(MPI_COMM_WORLD, &n), MPI_ERR_COMM);
    if (size < 2)
        return 0;
    color = me % 2;
    CHECK_OK(MPI_Comm_split(MPI_COMM_WORLD, color, me, local));
    CHECK_OK(MPI_Comm_rank(*local, &lrank));
    CHECK_OK(MPI_Comm_size(*local, &lsize));
    rsize = count_of(1 - color);
    CHECK(lsize == count_of(color));
    CHECK_OK(MPI_Intercomm_create(*local, 0, MPI_COMM_WORLD, 1 - color, 17, ic));
    CHECK_OK(MPI_Comm_set_errhandler(*ic, MPI_ERRORS_RETURN));
    return 1;
}

#endif
