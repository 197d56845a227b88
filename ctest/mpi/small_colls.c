/*
 * small_colls.c: blocking barriers and small bcasts, reduces and allreduces, which run on the
 * communicator's
 * shared flag area when every member is on this host (nexar's src/ops/flags.rs), checked for
 * the right answer in every situation the flag area's protocol has a rule for:
 *
 * - thousands of calls in a row (the two slots alternate and are reused);
 * - flag-area calls interleaved with calls on the other paths, which share the communicator's
 *   call numbers: non-blocking barriers and allreduces, a bcast whose root does not wait, a
 *   large allreduce (direct shared-memory path), an allreduce just above the flag area's size;
 * - bcast and reduce from every root (in place at the root, a rank-order user op);
 * - sizes 0, 1 element, up to the flag area's largest (1024 B) and just above it; MPI_IN_PLACE;
 *   MPI_INT / MPI_DOUBLE with SUM, MAX, PROD; a non-commutative user op (combined in rank
 *   order); a derived datatype (the result lands through the shim's unpacking);
 * - several communicators at once (a dup, a split into two halves, MPI_COMM_SELF), each with its
 *   own area, used alternately.
 * Around barriers, point-to-point traffic still flows: each rank sends to the next before a
 * barrier and receives after it.
 */
#include "mpi_check.h"

static int size;

/* x -> a*x + b modulo Q: composition in rank order, f o g applies f first. */
#define Q 10007
typedef struct {
    int a, b;
} affine_t;

static void compose_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    affine_t *f = in, *g = inout;
    for (int i = 0; i < *len; i++) {
        affine_t r = {(f[i].a * g[i].a) % Q, (g[i].a * f[i].b + g[i].b) % Q};
        g[i] = r;
    }
}

static affine_t map_of(int rank, int i)
{
    affine_t m = {2 + (rank * 7 + i) % 50, (rank * 13 + i * 3) % Q};
    return m;
}

/* Allreduce of `n` ints (value rank + i + k) with SUM on `comm`, in place or not. */
static void sum_ints(MPI_Comm comm, int n, int k, int in_place)
{
    int r, p;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    int *a = malloc(sizeof(int) * (n ? n : 1)), *b = malloc(sizeof(int) * (n ? n : 1));
    for (int i = 0; i < n; i++) {
        a[i] = r + i + k;
        b[i] = -1;
    }
    if (in_place)
        CHECK_OK(MPI_Allreduce(MPI_IN_PLACE, a, n, MPI_INT, MPI_SUM, comm));
    else
        CHECK_OK(MPI_Allreduce(a, b, n, MPI_INT, MPI_SUM, comm));
    const int *res = in_place ? a : b;
    for (int i = 0; i < n; i++)
        CHECK(res[i] == p * (p - 1) / 2 + p * (i + k));
    free(a);
    free(b);
}

static void affine_rank_order(MPI_Comm comm, MPI_Op op, MPI_Datatype t, int n)
{
    int r, p;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    affine_t in[64], out[64];
    for (int i = 0; i < n; i++)
        in[i] = map_of(r, i);
    CHECK_OK(MPI_Allreduce(in, out, n, t, op, comm));
    for (int i = 0; i < n; i++) {
        affine_t want = map_of(0, i);
        for (int q = 1; q < p; q++) {
            affine_t g = map_of(q, i);
            affine_t c = {(want.a * g.a) % Q, (g.a * want.b + g.b) % Q};
            want = c;
        }
        CHECK(out[i].a == want.a && out[i].b == want.b);
    }
}

/* One round of everything on `comm`; `k` varies the values. */
static void round_on(MPI_Comm comm, MPI_Op affine, MPI_Datatype pair, int k)
{
    int r, p;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    CHECK_OK(MPI_Barrier(comm));
    sum_ints(comm, 1, k, 0);
    sum_ints(comm, 0, k, 0);
    sum_ints(comm, 2, k, 1);
    sum_ints(comm, 256, k, k & 1); /* 1024 B: the flag area's largest */
    sum_ints(comm, 257, k, 0);     /* just above: the frame path */
    double d = 1.5 + r, dmax = 0, dprod = 0;
    CHECK_OK(MPI_Allreduce(&d, &dmax, 1, MPI_DOUBLE, MPI_MAX, comm));
    CHECK(dmax == 1.5 + (p - 1));
    double two = 2.0;
    CHECK_OK(MPI_Allreduce(&two, &dprod, 1, MPI_DOUBLE, MPI_PROD, comm));
    CHECK(dprod == (double)(1 << p));
    affine_rank_order(comm, affine, MPI_2INT, 3);
    affine_rank_order(comm, affine, pair, 5); /* a derived type: lands through unpacking */
    /* Bcast and reduce from every root: sizes 1 and 256 ints (on the flag area) and 257
     * (the frame path); reduce in place at the root, and the rank-order user op. */
    for (int root = 0; root < p; root++) {
        int lens[3] = {1, 256, 257};
        for (int l = 0; l < 3; l++) {
            int n = lens[l], buf[257], sum[257];
            for (int i = 0; i < n; i++)
                buf[i] = r == root ? root * 1000 + i + k : -7;
            CHECK_OK(MPI_Bcast(buf, n, MPI_INT, root, comm));
            for (int i = 0; i < n; i++)
                CHECK(buf[i] == root * 1000 + i + k);
            for (int i = 0; i < n; i++)
                sum[i] = buf[i] = r + i;
            if (r == root && (k & 1))
                CHECK_OK(MPI_Reduce(MPI_IN_PLACE, sum, n, MPI_INT, MPI_SUM, root, comm));
            else
                CHECK_OK(MPI_Reduce(buf, sum, n, MPI_INT, MPI_SUM, root, comm));
            if (r == root)
                for (int i = 0; i < n; i++)
                    CHECK(sum[i] == p * (p - 1) / 2 + p * i);
        }
        affine_t in[3], out[3];
        for (int i = 0; i < 3; i++)
            in[i] = map_of(r, i);
        CHECK_OK(MPI_Reduce(in, out, 3, MPI_2INT, affine, root, comm));
        if (r == root) {
            for (int i = 0; i < 3; i++) {
                affine_t want = map_of(0, i);
                for (int q = 1; q < p; q++) {
                    affine_t g = map_of(q, i);
                    affine_t c = {(want.a * g.a) % Q, (g.a * want.b + g.b) % Q};
                    want = c;
                }
                CHECK(out[i].a == want.a && out[i].b == want.b);
            }
        }
    }
    /* Other paths in between, sharing the call numbers. */
    MPI_Request req;
    CHECK_OK(MPI_Ibarrier(comm, &req));
    CHECK_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    int one = 1, total = 0;
    CHECK_OK(MPI_Iallreduce(&one, &total, 1, MPI_INT, MPI_SUM, comm, &req));
    CHECK_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(total == p);
    int v = r == 0 ? 1000 + k : -1;
    CHECK_OK(MPI_Bcast(&v, 1, MPI_INT, 0, comm)); /* the root leaves at once */
    CHECK(v == 1000 + k);
    sum_ints(comm, 1, k + 1, 1); /* the root may be well ahead here */
}

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    MPI_Op affine;
    CHECK_OK(MPI_Op_create(compose_op, 0, &affine));
    MPI_Datatype pair; /* two ints as one derived type */
    CHECK_OK(MPI_Type_contiguous(2, MPI_INT, &pair));
    CHECK_OK(MPI_Type_commit(&pair));

    /* Thousands in a row: the slots alternate and are reused. */
    for (int i = 0; i < 3000; i++) {
        CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
        long x = check_rank + i, s = 0;
        CHECK_OK(MPI_Allreduce(&x, &s, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
        if (s != (long)size * (size - 1) / 2 + (long)size * i) {
            CHECK(0);
            break;
        }
    }

    /* A barrier orders what comes before it: everything sent before is there after. */
    for (int i = 0; i < 50; i++) {
        int next = (check_rank + 1) % size, prev = (check_rank + size - 1) % size;
        int token = check_rank * 100 + i, got = -1;
        MPI_Request sreq;
        CHECK_OK(MPI_Isend(&token, 1, MPI_INT, next, 7, MPI_COMM_WORLD, &sreq));
        CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_OK(MPI_Recv(&got, 1, MPI_INT, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(got == prev * 100 + i);
        CHECK_OK(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
        CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    }

    /* Several communicators, each with its own area, used alternately. */
    MPI_Comm dup, half;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_OK(MPI_Comm_split(MPI_COMM_WORLD, check_rank % 2, -check_rank, &half));
    for (int k = 0; k < 20; k++) {
        round_on(MPI_COMM_WORLD, affine, pair, k);
        round_on(dup, affine, pair, k + 100);
        round_on(half, affine, pair, k + 200);
        round_on(MPI_COMM_SELF, affine, pair, k + 300);
        /* A large allreduce (the direct path on one host) between flag-area calls. */
        static int big[(2 << 20) / sizeof(int)], bigsum[(2 << 20) / sizeof(int)];
        int n = (int)(sizeof big / sizeof big[0]);
        for (int i = 0; i < n; i += 4096)
            big[i] = check_rank + k;
        CHECK_OK(MPI_Allreduce(big, bigsum, n, MPI_INT, MPI_SUM, dup));
        CHECK(bigsum[4096] == size * (size - 1) / 2 + size * k);
    }
    CHECK_OK(MPI_Comm_free(&half));
    CHECK_OK(MPI_Comm_free(&dup));
    CHECK_OK(MPI_Type_free(&pair));
    CHECK_OK(MPI_Op_free(&affine));
    return check_finish();
}
