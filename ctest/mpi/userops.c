/*
 * userops.c: user-defined reduction operations (MPI_Op_create, MPI_Op_create_c, MPI_Op_free,
 * MPI_Op_commutative, MPI_Reduce_local) and the reduction collectives with them.
 *
 * - A commutative op: product modulo a prime on MPI_INT.
 * - A non-commutative op: composition of affine maps x -> a*x + b (mod a prime) on MPI_2INT,
 *   which MPI must combine in rank order: result = x0 o x1 o ... o x(p-1), where `f o g`
 *   applies f first. Checked for Reduce at every root, Allreduce (short and long vectors,
 *   in place), Scan, Exscan, Reduce_scatter_block, Reduce_scatter, Iallreduce + Wait.
 * - An MPI_User_function_c op (wrapping sum of MPI_LONG) through Allreduce.
 * - Reduce_local with predefined and user ops; Op_commutative; a freed op is MPI_ERR_OP.
 */
#include "mpi_check.h"

#define P 1000003LL /* the product's modulus */
#define Q 10007     /* the affine maps' modulus: products stay below 2^31 */

typedef struct {
    int a, b;
} affine_t;

static int bad_len_or_type = 0;

static void prod_mod(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const int *x = in;
    int *y = inout;
    if (*dt != MPI_INT || *len < 0)
        bad_len_or_type++;
    for (int i = 0; i < *len; i++)
        y[i] = (int)(((long long)x[i] * y[i]) % P);
}

/* f o g: apply f = *in first, then g = *inout. */
static affine_t compose(affine_t f, affine_t g)
{
    affine_t r = {(f.a * g.a) % Q, (g.a * f.b + g.b) % Q};
    return r;
}

static void affine_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const affine_t *x = in;
    affine_t *y = inout;
    if (*dt != MPI_2INT || *len < 0)
        bad_len_or_type++;
    for (int i = 0; i < *len; i++)
        y[i] = compose(x[i], y[i]);
}

static void lsum_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *dt)
{
    const long *x = in;
    long *y = inout;
    if (*dt != MPI_LONG || *len < 0)
        bad_len_or_type++;
    for (MPI_Count i = 0; i < *len; i++)
        y[i] = (long)((unsigned long)x[i] + (unsigned long)y[i]);
}

static int pval(int r, int i) { return (r * 7 + i * 3 + 2) % (int)P; }

static affine_t aval(int r, int i)
{
    affine_t v = {(r * 5 + i + 2) % Q, (r * 3 + i * 11 + 1) % Q};
    return v;
}

/* x[lo] o ... o x[hi-1] at index i (hi > lo). */
static affine_t afold(int lo, int hi, int i)
{
    affine_t acc = aval(lo, i);
    for (int r = lo + 1; r < hi; r++)
        acc = compose(acc, aval(r, i));
    return acc;
}

static int aeq(affine_t x, affine_t y) { return x.a == y.a && x.b == y.b; }

static void fill(affine_t *v, int rank, int n)
{
    for (int i = 0; i < n; i++)
        v[i] = aval(rank, i);
}

static int all_fold(const affine_t *v, int lo, int hi, int n)
{
    for (int i = 0; i < n; i++)
        if (!aeq(v[i], afold(lo, hi, i)))
            return 0;
    return 1;
}

/* A user op on a vector type with holes (2 ints, stride 3): the function must see the
 * elements laid out as the type says, and the hole must stay untouched. */
static MPI_Datatype strided_type;

static void strided_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const int *x = in;
    int *y = inout;
    if (*dt != strided_type)
        bad_len_or_type++;
    for (int e = 0; e < *len; e++) /* extent of one element: 4 ints (resized) */
        for (int k = 0; k < 2; k++)
            y[e * 4 + k * 3] += x[e * 4 + k * 3];
}

static void check_strided(int rank, int size)
{
    MPI_Datatype vec;
    MPI_Op op;
    CHECK_OK(MPI_Type_vector(2, 1, 3, MPI_INT, &vec));
    CHECK_OK(MPI_Type_create_resized(vec, 0, 4 * (MPI_Aint)sizeof(int), &strided_type));
    CHECK_OK(MPI_Type_commit(&strided_type));
    CHECK_OK(MPI_Op_create(strided_sum, 1, &op));
    enum { N = 5 };
    int in[4 * N], out[4 * N];
    for (int i = 0; i < 4 * N; i++) {
        in[i] = rank * 100 + i;
        out[i] = -7;
    }
    CHECK_OK(MPI_Allreduce(in, out, N, strided_type, op, MPI_COMM_WORLD));
    for (int e = 0; e < N; e++)
        for (int j = 0; j < 4; j++) {
            int i = e * 4 + j;
            int want = (j == 0 || j == 3) ? size * (size - 1) / 2 * 100 + size * i : -7;
            CHECK(out[i] == want);
        }
    CHECK_OK(MPI_Op_free(&op));
    CHECK_OK(MPI_Type_free(&vec));
    CHECK_OK(MPI_Type_free(&strided_type));
}

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    check_strided(rank, size);

    MPI_Op prod, aff, lsum;
    CHECK_OK(MPI_Op_create(prod_mod, 1, &prod));
    CHECK_OK(MPI_Op_create(affine_op, 0, &aff));
    CHECK_OK(MPI_Op_create_c(lsum_c, 1, &lsum));

    /* Op_commutative, Op_toint / Op_fromint. */
    int commute = -1;
    CHECK_OK(MPI_Op_commutative(MPI_SUM, &commute));
    CHECK(commute == 1);
    CHECK_OK(MPI_Op_commutative(prod, &commute));
    CHECK(commute == 1);
    CHECK_OK(MPI_Op_commutative(aff, &commute));
    CHECK(commute == 0);
    CHECK(MPI_Op_fromint(MPI_Op_toint(aff)) == aff);
    CHECK(MPI_Op_fromint(MPI_Op_toint(MPI_MAX)) == MPI_MAX);

    /* Commutative product on MPI_INT: Allreduce and Reduce at every root. */
    enum { NP = 5 };
    int pin[NP], pout[NP];
    for (int i = 0; i < NP; i++)
        pin[i] = pval(rank, i);
    CHECK_OK(MPI_Allreduce(pin, pout, NP, MPI_INT, prod, MPI_COMM_WORLD));
    for (int i = 0; i < NP; i++) {
        long long want = 1;
        for (int r = 0; r < size; r++)
            want = want * pval(r, i) % P;
        CHECK(pout[i] == (int)want);
    }
    for (int root = 0; root < size; root++) {
        memset(pout, 0, sizeof pout);
        CHECK_OK(MPI_Reduce(pin, pout, NP, MPI_INT, prod, root, MPI_COMM_WORLD));
        if (rank == root) {
            long long want = 1;
            for (int r = 0; r < size; r++)
                want = want * pval(r, 2) % P;
            CHECK(pout[2] == (int)want);
        }
    }

    /* Non-commutative affine maps on MPI_2INT. */
    enum { NA = 6, LONGN = 12000 };
    affine_t ain[NA], aout[NA];
    fill(ain, rank, NA);
    for (int root = 0; root < size; root++) {
        memset(aout, 0, sizeof aout);
        CHECK_OK(MPI_Reduce(ain, aout, NA, MPI_2INT, aff, root, MPI_COMM_WORLD));
        if (rank == root)
            CHECK(all_fold(aout, 0, size, NA));
    }
    CHECK_OK(MPI_Allreduce(ain, aout, NA, MPI_2INT, aff, MPI_COMM_WORLD));
    CHECK(all_fold(aout, 0, size, NA));

    /* A long vector (bandwidth algorithms) and in place. */
    affine_t *big = malloc(LONGN * sizeof *big);
    affine_t *bigout = malloc(LONGN * sizeof *bigout);
    CHECK(big && bigout);
    fill(big, rank, LONGN);
    CHECK_OK(MPI_Allreduce(big, bigout, LONGN, MPI_2INT, aff, MPI_COMM_WORLD));
    CHECK(all_fold(bigout, 0, size, LONGN));
    CHECK_OK(MPI_Allreduce(MPI_IN_PLACE, big, LONGN, MPI_2INT, aff, MPI_COMM_WORLD));
    CHECK(all_fold(big, 0, size, LONGN));
    fill(big, rank, LONGN);
    memset(bigout, 0, LONGN * sizeof *bigout);
    CHECK_OK(MPI_Reduce(big, bigout, LONGN, MPI_2INT, aff, size - 1, MPI_COMM_WORLD));
    if (rank == size - 1)
        CHECK(all_fold(bigout, 0, size, LONGN));

    /* Scan and Exscan. */
    CHECK_OK(MPI_Scan(ain, aout, NA, MPI_2INT, aff, MPI_COMM_WORLD));
    CHECK(all_fold(aout, 0, rank + 1, NA));
    for (int i = 0; i < NA; i++)
        aout[i].a = aout[i].b = -7;
    CHECK_OK(MPI_Exscan(ain, aout, NA, MPI_2INT, aff, MPI_COMM_WORLD));
    if (rank > 0)
        CHECK(all_fold(aout, 0, rank, NA));

    /* Reduce_scatter_block: 3 maps per rank; Reduce_scatter: rank r gets r % 3 + 1 maps. */
    enum { BLK = 3 };
    affine_t *rs = malloc((size_t)size * 4 * sizeof *rs);
    int *counts = malloc((size_t)size * sizeof *counts);
    CHECK(rs && counts);
    fill(rs, rank, size * BLK);
    CHECK_OK(MPI_Reduce_scatter_block(rs, aout, BLK, MPI_2INT, aff, MPI_COMM_WORLD));
    for (int i = 0; i < BLK; i++)
        CHECK(aeq(aout[i], afold(0, size, rank * BLK + i)));
    int total = 0, start = 0;
    for (int r = 0; r < size; r++) {
        counts[r] = r % 3 + 1;
        if (r < rank)
            start += counts[r];
        total += counts[r];
    }
    fill(rs, rank, total);
    CHECK_OK(MPI_Reduce_scatter(rs, aout, counts, MPI_2INT, aff, MPI_COMM_WORLD));
    for (int i = 0; i < counts[rank]; i++)
        CHECK(aeq(aout[i], afold(0, size, start + i)));

    /* Iallreduce + Wait. */
    MPI_Request req;
    memset(aout, 0, sizeof aout);
    CHECK_OK(MPI_Iallreduce(ain, aout, NA, MPI_2INT, aff, MPI_COMM_WORLD, &req));
    CHECK_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(all_fold(aout, 0, size, NA));

    /* MPI_User_function_c: wrapping sum of MPI_LONG. */
    long lin[3] = {rank + 1, -rank, 1000L * rank}, lout[3];
    CHECK_OK(MPI_Allreduce(lin, lout, 3, MPI_LONG, lsum, MPI_COMM_WORLD));
    long n = size;
    CHECK(lout[0] == n * (n + 1) / 2 && lout[1] == -n * (n - 1) / 2 &&
          lout[2] == 1000L * n * (n - 1) / 2);

    /* Reduce_local: predefined and user ops; inbuf is the left operand. */
    int x[3] = {1, 5, -2}, y[3] = {4, 2, 7};
    CHECK_OK(MPI_Reduce_local(x, y, 3, MPI_INT, MPI_SUM));
    CHECK(y[0] == 5 && y[1] == 7 && y[2] == 5);
    double dx[2] = {1.5, -3.0}, dy[2] = {0.5, 2.0};
    CHECK_OK(MPI_Reduce_local_c(dx, dy, 2, MPI_DOUBLE, MPI_MAX));
    CHECK(dy[0] == 1.5 && dy[1] == 2.0);
    affine_t f = {2, 3}, g = {5, 7};
    CHECK_OK(MPI_Reduce_local(&f, &g, 1, MPI_2INT, aff));
    CHECK(g.a == 10 && g.b == 5 * 3 + 7); /* f first: 5*(2x+3)+7 */
    int px[2] = {3, 4}, py[2] = {5, 6};
    CHECK_OK(MPI_Reduce_local(px, py, 2, MPI_INT, prod));
    CHECK(py[0] == 15 && py[1] == 24);
    CHECK(bad_len_or_type == 0);

    /* Errors under MPI_ERRORS_RETURN. */
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    EXPECT_CLASS(MPI_Reduce_local(x, y, 3, MPI_FLOAT, MPI_BAND), MPI_ERR_OP);
    MPI_Op sum = MPI_SUM;
    EXPECT_CLASS(MPI_Op_free(&sum), MPI_ERR_OP);
    CHECK(sum == MPI_SUM);
    MPI_Op stale = aff;
    CHECK_OK(MPI_Op_free(&aff));
    CHECK(aff == MPI_OP_NULL);
    EXPECT_CLASS(MPI_Op_free(&stale), MPI_ERR_OP);
    EXPECT_CLASS(MPI_Allreduce(ain, aout, NA, MPI_2INT, stale, MPI_COMM_WORLD), MPI_ERR_OP);
    EXPECT_CLASS(MPI_Reduce(ain, aout, NA, MPI_2INT, stale, 0, MPI_COMM_WORLD), MPI_ERR_OP);
    EXPECT_CLASS(MPI_Scan(ain, aout, NA, MPI_2INT, stale, MPI_COMM_WORLD), MPI_ERR_OP);
    EXPECT_CLASS(MPI_Reduce_local(&f, &g, 1, MPI_2INT, stale), MPI_ERR_OP);
    EXPECT_CLASS(MPI_Op_commutative(stale, &commute), MPI_ERR_OP);
    EXPECT_CLASS(MPI_Allreduce(ain, aout, NA, MPI_2INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP);
    CHECK(MPI_Op_fromint(MPI_Op_toint(stale)) == MPI_OP_NULL);

    CHECK_OK(MPI_Op_free(&prod));
    CHECK_OK(MPI_Op_free(&lsum));
    CHECK(prod == MPI_OP_NULL && lsum == MPI_OP_NULL);
    free(big);
    free(bigout);
    free(rs);
    free(counts);
    return check_finish();
}
