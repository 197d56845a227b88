/*
 * rma_fence.c: one-sided communication under MPI_Win_fence, at any rank count.
 *
 * Covered: a ring halo exchange with MPI_Put into MPI_Win_create memory (each rank's halo
 * cells hold its neighbours' values afterwards); MPI_Put and MPI_Get with derived datatypes on
 * both sides (a vector origin into an indexed target, checked byte for byte, including the
 * bytes that must stay untouched); MPI_Accumulate (MPI_SUM) of every rank into every rank's
 * window many times over (the sums are exact only if each accumulate is atomic);
 * MPI_Get_accumulate with MPI_NO_OP and MPI_REPLACE; MPI_Rput / MPI_Rget return completed
 * requests; MPI_Win_allocate memory; the predefined window attributes, MPI_Win_get_group,
 * names; MPI_PROC_NULL targets do nothing.
 */
#include "mpi_check.h"

#include <stdint.h>

enum { HALO = 8, ACC_ROUNDS = 50 };

static void halo_exchange(int rank, int size)
{
    /* cells: [left halo][own x HALO][right halo] */
    double cells[HALO + 2];
    for (int i = 0; i < HALO + 2; i++)
        cells[i] = -1.0;
    for (int i = 1; i <= HALO; i++)
        cells[i] = rank * 100.0 + i;
    MPI_Win win;
    CHECK_OK(MPI_Win_create(cells, sizeof cells, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD,
                            &win));
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    CHECK_OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    /* My first own cell is my left neighbour's right halo; my last, my right one's left. */
    CHECK_OK(MPI_Put(&cells[1], 1, MPI_DOUBLE, left, HALO + 1, 1, MPI_DOUBLE, win));
    CHECK_OK(MPI_Put(&cells[HALO], 1, MPI_DOUBLE, right, 0, 1, MPI_DOUBLE, win));
    CHECK_OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    CHECK(cells[0] == left * 100.0 + HALO);
    CHECK(cells[HALO + 1] == right * 100.0 + 1);
    for (int i = 1; i <= HALO; i++)
        CHECK(cells[i] == rank * 100.0 + i);

    int flavor_ok = 0, *flavor = NULL, *model = NULL, *unit = NULL;
    MPI_Aint *wsize = NULL;
    void *base = NULL;
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flavor_ok));
    CHECK(flavor_ok && base == (void *)cells);
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_SIZE, &wsize, &flavor_ok));
    CHECK(flavor_ok && *wsize == (MPI_Aint)sizeof cells);
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &unit, &flavor_ok));
    CHECK(flavor_ok && *unit == (int)sizeof(double));
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flavor_ok));
    CHECK(flavor_ok && *flavor == MPI_WIN_FLAVOR_CREATE);
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flavor_ok));
    CHECK(flavor_ok && *model == MPI_WIN_UNIFIED);

    MPI_Group wg, cg;
    int cmp = -1;
    CHECK_OK(MPI_Win_get_group(win, &wg));
    CHECK_OK(MPI_Comm_group(MPI_COMM_WORLD, &cg));
    CHECK_OK(MPI_Group_compare(wg, cg, &cmp));
    CHECK(cmp == MPI_IDENT);
    MPI_Group_free(&wg);
    MPI_Group_free(&cg);

    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    CHECK_OK(MPI_Win_get_name(win, name, &len));
    CHECK(len == 0);
    CHECK_OK(MPI_Win_set_name(win, "halo"));
    CHECK_OK(MPI_Win_get_name(win, name, &len));
    CHECK(len == 4 && strcmp(name, "halo") == 0);
    CHECK_OK(MPI_Win_free(&win));
    CHECK(win == MPI_WIN_NULL);
}

/* A vector origin (every other int of 2*N) into an indexed target (blocks at 1, 5..6, 9..),
 * then the same back with MPI_Get into a fresh vector-shaped buffer. */
static void derived_types(int rank, int size)
{
    enum { N = 6, TLEN = 16 };
    int target[TLEN];
    for (int i = 0; i < TLEN; i++)
        target[i] = -7;
    MPI_Win win;
    CHECK_OK(MPI_Win_create(target, sizeof target, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                            &win));
    MPI_Datatype vec, idx;
    CHECK_OK(MPI_Type_vector(N, 1, 2, MPI_INT, &vec));
    CHECK_OK(MPI_Type_commit(&vec));
    int lens[3] = {1, 2, 3}, disps[3] = {1, 5, 9};
    CHECK_OK(MPI_Type_indexed(3, lens, disps, MPI_INT, &idx));
    CHECK_OK(MPI_Type_commit(&idx));
    int origin[2 * N];
    for (int i = 0; i < 2 * N; i++)
        origin[i] = (i % 2 == 0) ? rank * 1000 + i : -1;
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    CHECK_OK(MPI_Win_fence(0, win));
    CHECK_OK(MPI_Put(origin, 1, vec, to, 2, 1, idx, win));
    CHECK_OK(MPI_Win_fence(0, win));
    /* target[2 + {1, 5, 6, 9, 10, 11}] = from's origin[0, 2, 4, 6, 8, 10] */
    int want[TLEN];
    for (int i = 0; i < TLEN; i++)
        want[i] = -7;
    int slots[N] = {3, 7, 8, 11, 12, 13};
    for (int k = 0; k < N; k++)
        want[slots[k]] = from * 1000 + 2 * k;
    CHECK(memcmp(target, want, sizeof want) == 0);
    int back[2 * N];
    for (int i = 0; i < 2 * N; i++)
        back[i] = -3;
    MPI_Request req;
    CHECK_OK(MPI_Rget(back, 1, vec, to, 2, 1, idx, win, &req));
    int done = 0;
    CHECK_OK(MPI_Test(&req, &done, MPI_STATUS_IGNORE));
    CHECK(done == 1 && req == MPI_REQUEST_NULL);
    for (int i = 0; i < 2 * N; i++)
        CHECK(back[i] == ((i % 2 == 0) ? rank * 1000 + i : -3));
    /* MPI_PROC_NULL: nothing happens, no error. */
    CHECK_OK(MPI_Put(origin, 1, vec, MPI_PROC_NULL, 0, 1, idx, win));
    CHECK_OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    CHECK(memcmp(target, want, sizeof want) == 0);
    MPI_Type_free(&vec);
    MPI_Type_free(&idx);
    CHECK_OK(MPI_Win_free(&win));
}

/* Every rank adds (rank + 1) into every rank's window ACC_ROUNDS times, all at once. */
static void accumulate_sums(int rank, int size)
{
    int64_t *mem = NULL;
    MPI_Win win;
    CHECK_OK(MPI_Win_allocate(4 * sizeof(int64_t), sizeof(int64_t), MPI_INFO_NULL,
                              MPI_COMM_WORLD, &mem, &win));
    int *flavor = NULL, ok = 0;
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &ok));
    CHECK(ok && *flavor == MPI_WIN_FLAVOR_ALLOCATE);
    for (int i = 0; i < 4; i++)
        mem[i] = 0;
    CHECK_OK(MPI_Win_fence(0, win));
    int64_t add[4] = {rank + 1, 2 * (rank + 1), 0, 1};
    for (int r = 0; r < ACC_ROUNDS; r++)
        for (int t = 0; t < size; t++)
            CHECK_OK(MPI_Accumulate(add, 4, MPI_INT64_T, (t + rank) % size, 0, 4, MPI_INT64_T,
                                    MPI_SUM, win));
    CHECK_OK(MPI_Win_fence(0, win));
    int64_t tri = (int64_t)size * (size + 1) / 2;
    CHECK(mem[0] == ACC_ROUNDS * tri);
    CHECK(mem[1] == 2 * ACC_ROUNDS * tri);
    CHECK(mem[2] == 0);
    CHECK(mem[3] == (int64_t)ACC_ROUNDS * size);
    /* Fetch without change, then replace: each rank reads its right neighbour's. */
    int64_t got[4] = {0}, mine[4] = {rank, rank, rank, rank};
    int to = (rank + 1) % size;
    CHECK_OK(MPI_Get_accumulate(NULL, 0, MPI_INT64_T, got, 4, MPI_INT64_T, to, 0, 4,
                                MPI_INT64_T, MPI_NO_OP, win));
    CHECK(got[0] == ACC_ROUNDS * tri && got[3] == (int64_t)ACC_ROUNDS * size);
    CHECK_OK(MPI_Win_fence(0, win));
    MPI_Request req;
    CHECK_OK(MPI_Raccumulate(mine, 4, MPI_INT64_T, to, 0, 4, MPI_INT64_T, MPI_REPLACE, win,
                             &req));
    CHECK_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Win_fence(0, win));
    int from = (rank + size - 1) % size;
    for (int i = 0; i < 4; i++)
        CHECK(mem[i] == from);
    CHECK_OK(MPI_Win_fence(0, win)); /* everyone checked before anyone changes slot 2 */
    /* MAX through Fetch_and_op: everyone proposes its rank into rank 0's slot 2. */
    int64_t prop = 10 + rank, old = -1;
    CHECK_OK(MPI_Fetch_and_op(&prop, &old, MPI_INT64_T, 0, 2, MPI_MAX, win));
    CHECK_OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    if (rank == 0)
        CHECK(mem[2] == 10 + size - 1);
    CHECK_OK(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    halo_exchange(rank, size);
    derived_types(rank, size);
    accumulate_sums(rank, size);
    return check_finish();
}
