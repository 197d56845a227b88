/*
 * io_access.c: every MPI-IO data access family (explicit offsets, individual pointer,
 * collective, non-blocking, split collective, shared pointer, ordered) through three kinds of
 * file view (contiguous, strided vector, 2-D subarray), each checked byte for byte against
 * the file image a serial reference computes, and read back through the view.
 *
 * Rank r's element i holds VALUE(r, family, kind, i). Per-rank views interleave the ranks'
 * data in the file; the shared-pointer families use one view every rank shares.
 */
#include "io_common.h"

#define B 4   /* ints per block of the vector view */
#define W 4   /* columns per rank of the subarray view */
#define R 6   /* rows of the subarray view */
#define N 24  /* ints each rank moves: R * W, a multiple of B */
#define HDR 16 /* bytes before the views (displacement) */

enum kind { CONTIG, VECTOR, SUBARRAY, NKINDS };
static const char *kind_name[] = {"contig", "vector", "subarray"};

enum family { AT, AT_ALL, IND, IND_ALL, IAT, IALL, SPLIT, ORDERED, SHARED, NFAMILIES };
static const char *family_name[] = {"at",   "at_all", "ind",     "ind_all", "iat",
                                    "iall", "split",  "ordered", "shared"};

/* Collective buffering settings: the default (automatic: two-phase when the ranks' accesses
 * interleave), forced on with tiny rounds and two aggregators, and off. */
#define NCB 3
static const char *cb_hints[NCB][5][2] = {
    {{NULL, NULL}},
    {{"romio_cb_write", "enable"},
     {"romio_cb_read", "enable"},
     {"cb_buffer_size", "64"},
     {"cb_nodes", "2"}},
    {{"romio_cb_write", "disable"}, {"romio_cb_read", "disable"}, {NULL, NULL}},
};

static int nprocs, me;

static int value(int r, int f, int k, int i)
{
    return (r + 1) * 1000000 + f * 10000 + k * 1000 + i;
}

/* File byte offset of element i of rank r under the per-rank view of kind k. */
static long own_off(int k, int r, int i)
{
    switch (k) {
    case CONTIG:
        return HDR + ((long)r * N + i) * 4;
    case VECTOR:
        return HDR + ((long)(i / B) * nprocs * B + r * B + i % B) * 4;
    default:
        return HDR + ((long)(i / W) * nprocs * W + r * W + i % W) * 4;
    }
}

/* File byte offset of stream element j under the view every rank shares, of kind k. */
static long common_off(int k, long j)
{
    switch (k) {
    case CONTIG:
        return HDR + j * 4;
    case VECTOR: /* blocks of B ints every 2B */
        return HDR + ((j / B) * 2 * B + j % B) * 4;
    default: { /* columns 0..W-1 of an R x 2W array, tiled */
        long t = j / N, e = j % N;
        return HDR + t * R * 2 * W * 4 + ((e / W) * 2 * W + e % W) * 4;
    }
    }
}

static void set_view(MPI_File fh, int k, int shared)
{
    MPI_Datatype ft, c;
    MPI_Offset disp = HDR;
    int sizes[2] = {R, shared ? 2 * W : nprocs * W}, subsizes[2] = {R, W};
    int starts[2] = {0, shared ? 0 : me * W};
    switch (k) {
    case CONTIG:
        if (!shared)
            disp += (MPI_Offset)me * N * 4;
        CHECK_OK(MPI_File_set_view(fh, disp, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
        return;
    case VECTOR:
        CHECK_OK(MPI_Type_contiguous(B, MPI_INT, &c));
        CHECK_OK(MPI_Type_create_resized(c, 0, (MPI_Aint)(shared ? 2 : nprocs) * B * 4, &ft));
        MPI_Type_free(&c);
        if (!shared)
            disp += (MPI_Offset)me * B * 4;
        break;
    default:
        CHECK_OK(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &ft));
        break;
    }
    CHECK_OK(MPI_Type_commit(&ft));
    CHECK_OK(MPI_File_set_view(fh, disp, MPI_INT, ft, "native", MPI_INFO_NULL));
    MPI_Type_free(&ft); /* the view keeps its own reference */
}

static void check_count_of(MPI_Status *st, MPI_Datatype t, int want)
{
    int n = -1;
    MPI_Get_count(st, t, &n);
    CHECK(n == want);
}

static void check_count(MPI_Status *st, int want)
{
    check_count_of(st, MPI_INT, want);
}

/* Writes this rank's data with family f, then reads it back into rbuf the same way. */
static void do_access(MPI_File fh, int f, const int *w, int *rbuf)
{
    MPI_Status st;
    MPI_Request rq[2];
    MPI_Offset pos = -1;
    int half = N / 2;
    switch (f) {
    case AT:
        CHECK_OK(MPI_File_write_at(fh, half, w + half, half, MPI_INT, &st));
        check_count(&st, half);
        CHECK_OK(MPI_File_write_at(fh, 0, w, half, MPI_INT, &st));
        CHECK_OK(MPI_File_sync(fh));
        CHECK_OK(MPI_File_read_at(fh, 0, rbuf, N, MPI_INT, &st));
        check_count(&st, N);
        break;
    case AT_ALL: { /* memory side strided too: every other int of a 2N buffer */
        MPI_Datatype every2;
        int sparse[2 * N];
        CHECK_OK(MPI_Type_vector(N, 1, 2, MPI_INT, &every2));
        CHECK_OK(MPI_Type_commit(&every2));
        for (int i = 0; i < 2 * N; i++)
            sparse[i] = i % 2 ? -7 : w[i / 2];
        CHECK_OK(MPI_File_write_at_all(fh, 0, sparse, 1, every2, &st));
        check_count_of(&st, every2, 1);
        CHECK_OK(MPI_File_sync(fh));
        for (int i = 0; i < 2 * N; i++)
            sparse[i] = -1;
        CHECK_OK(MPI_File_read_at_all(fh, 0, sparse, 1, every2, &st));
        check_count_of(&st, every2, 1);
        for (int i = 0; i < N; i++) {
            rbuf[i] = sparse[2 * i];
            CHECK(sparse[2 * i + 1] == -1); /* the holes of the memory type untouched */
        }
        MPI_Type_free(&every2);
        break;
    }
    case IND:
        CHECK_OK(MPI_File_write(fh, w, half, MPI_INT, &st));
        CHECK_OK(MPI_File_write(fh, w + half, half, MPI_INT, &st));
        CHECK_OK(MPI_File_get_position(fh, &pos));
        CHECK(pos == N);
        CHECK_OK(MPI_File_sync(fh));
        CHECK_OK(MPI_File_seek(fh, -N, MPI_SEEK_CUR));
        CHECK_OK(MPI_File_read(fh, rbuf, N, MPI_INT, &st));
        check_count(&st, N);
        break;
    case IND_ALL:
        CHECK_OK(MPI_File_write_all(fh, w, N, MPI_INT, &st));
        check_count(&st, N);
        CHECK_OK(MPI_File_sync(fh));
        CHECK_OK(MPI_File_seek(fh, 0, MPI_SEEK_SET));
        CHECK_OK(MPI_File_read_all(fh, rbuf, N, MPI_INT, &st));
        check_count(&st, N);
        break;
    case IAT:
        CHECK_OK(MPI_File_iwrite_at(fh, 0, w, half, MPI_INT, &rq[0]));
        CHECK_OK(MPI_File_iwrite_at(fh, half, w + half, half, MPI_INT, &rq[1]));
        CHECK_OK(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
        CHECK_OK(MPI_File_sync(fh));
        CHECK_OK(MPI_File_iread_at(fh, 0, rbuf, N, MPI_INT, &rq[0]));
        CHECK_OK(MPI_Wait(&rq[0], &st));
        check_count(&st, N);
        break;
    case IALL:
        CHECK_OK(MPI_File_iwrite_all(fh, w, N, MPI_INT, &rq[0]));
        CHECK_OK(MPI_Wait(&rq[0], &st));
        check_count(&st, N);
        CHECK_OK(MPI_File_sync(fh));
        CHECK_OK(MPI_File_iread_at_all(fh, 0, rbuf, N, MPI_INT, &rq[0]));
        CHECK_OK(MPI_Wait(&rq[0], &st));
        check_count(&st, N);
        break;
    case SPLIT:
        CHECK_OK(MPI_File_write_at_all_begin(fh, 0, w, N, MPI_INT));
        CHECK_OK(MPI_File_write_at_all_end(fh, w, &st));
        check_count(&st, N);
        CHECK_OK(MPI_File_sync(fh));
        CHECK_OK(MPI_File_read_all_begin(fh, rbuf, N, MPI_INT));
        CHECK_OK(MPI_File_read_all_end(fh, rbuf, &st));
        check_count(&st, N);
        break;
    case ORDERED:
        CHECK_OK(MPI_File_write_ordered(fh, w, N, MPI_INT, &st));
        check_count(&st, N);
        CHECK_OK(MPI_File_get_position_shared(fh, &pos));
        CHECK(pos == (MPI_Offset)nprocs * N);
        CHECK_OK(MPI_File_sync(fh));
        CHECK_OK(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
        CHECK_OK(MPI_File_read_ordered_begin(fh, rbuf, N, MPI_INT));
        CHECK_OK(MPI_File_read_ordered_end(fh, rbuf, &st));
        check_count(&st, N);
        break;
    case SHARED:
        CHECK_OK(MPI_File_write_shared(fh, w, N, MPI_INT, &st));
        check_count(&st, N);
        CHECK_OK(MPI_File_sync(fh));
        CHECK_OK(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
        CHECK_OK(MPI_File_iread_shared(fh, rbuf, N, MPI_INT, &rq[0]));
        CHECK_OK(MPI_Wait(&rq[0], &st));
        check_count(&st, N);
        break;
    }
}

/* Rank 0: the file must be exactly the serial reference: each rank's data where the views
 * put it, zeros in the holes. For the shared pointer, blocks land in some rank order: find
 * it in the file and check it is a permutation. */
static void check_image(const char *path, int f, int k)
{
    int shared = f == SHARED || f == ORDERED;
    int order[64];
    long len, size = 0;
    unsigned char *img = io_slurp(path, &len);
    CHECK(img != NULL);
    if (!img)
        return;
    for (int s = 0; s < nprocs; s++)
        order[s] = s;
    if (f == SHARED) {
        int seen[64] = {0};
        for (int s = 0; s < nprocs; s++) {
            int v = 0;
            long o = common_off(k, (long)s * N);
            if (o + 4 <= len)
                memcpy(&v, img + o, 4);
            order[s] = v / 1000000 - 1;
            CHECK(order[s] >= 0 && order[s] < nprocs && !seen[order[s]]);
            if (order[s] < 0 || order[s] >= nprocs || seen[order[s]])
                order[s] = s;
            seen[order[s]] = 1;
        }
    }
    for (int r = 0; r < nprocs; r++)
        for (int i = 0; i < N; i++) {
            long o = shared ? common_off(k, (long)r * N + i) : own_off(k, r, i);
            if (o + 4 > size)
                size = o + 4;
        }
    unsigned char *want = calloc((size_t)size, 1);
    for (int s = 0; s < nprocs; s++)
        for (int i = 0; i < N; i++) {
            int v = value(order[s], f, k, i);
            long o = shared ? common_off(k, (long)s * N + i) : own_off(k, s, i);
            memcpy(want + o, &v, 4);
        }
    CHECK(len == size);
    if (len == size && memcmp(img, want, (size_t)size) != 0) {
        long at = 0;
        while (img[at] == want[at])
            at++;
        fprintf(stderr, "[rank 0] %s/%s: file differs from the reference at byte %ld\n",
                family_name[f], kind_name[k], at);
        check_failures++;
    }
    free(want);
    free(img);
}

int main(int argc, char **argv)
{
    char dir[256], path[512];
    int w[N], rbuf[N];
    check_init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    me = check_rank;
    io_tmpdir(MPI_COMM_WORLD, dir);
    for (int f = 0; f < NFAMILIES; f++)
        for (int k = 0; k < NKINDS; k++)
            for (int cb = 0; cb < NCB; cb++) {
                MPI_File fh;
                MPI_Info info;
                int shared = f == SHARED || f == ORDERED;
                /* The blocking collectives run with each collective buffering setting. */
                if (cb > 0 && f != AT_ALL && f != IND_ALL && f != SPLIT)
                    continue;
                snprintf(path, sizeof path, "%s/%s_%s_%d", dir, family_name[f], kind_name[k],
                         cb);
                MPI_Info_create(&info);
                for (int h = 0; cb_hints[cb][h][0]; h++)
                    MPI_Info_set(info, cb_hints[cb][h][0], cb_hints[cb][h][1]);
                CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR,
                                       info, &fh));
                MPI_Info_free(&info);
                set_view(fh, k, shared);
                for (int i = 0; i < N; i++) {
                    w[i] = value(me, f, k, i);
                    rbuf[i] = -1;
                }
                do_access(fh, f, w, rbuf);
                if (f == SHARED) {
                    /* Whole blocks, each read by one rank. */
                    int owner = rbuf[0] / 1000000 - 1, owners[64] = {0}, all[64];
                    for (int i = 0; i < N; i++)
                        CHECK(owner >= 0 && rbuf[i] == value(owner, f, k, i));
                    MPI_Allgather(&owner, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
                    for (int r = 0; r < nprocs; r++)
                        if (all[r] >= 0 && all[r] < nprocs)
                            owners[all[r]]++;
                    for (int r = 0; r < nprocs; r++)
                        CHECK(owners[r] == 1);
                } else {
                    for (int i = 0; i < N; i++)
                        if (rbuf[i] != w[i]) {
                            fprintf(stderr, "[rank %d] %s/%s: element %d read %d, wrote %d\n", me,
                                    family_name[f], kind_name[k], i, rbuf[i], w[i]);
                            check_failures++;
                            break;
                        }
                }
                MPI_Barrier(MPI_COMM_WORLD);
                if (me == 0)
                    CHECK(io_hidden_files(dir) == shared);
                CHECK_OK(MPI_File_close(&fh));
                CHECK(fh == MPI_FILE_NULL);
                if (me == 0)
                    check_image(path, f, k);
                MPI_Barrier(MPI_COMM_WORLD);
            }
    io_rmdir(MPI_COMM_WORLD, dir);
    return check_finish();
}
