// A legacy-style C++ MPI program: an explicit 2-D heat-equation stencil on a Cartesian process
// grid (MPI_Dims_create, MPI_Cart_create periodic in dimension 0, not in dimension 1), halo rows
// exchanged as contiguous doubles and halo columns as an MPI_Type_vector, both with
// MPI_Sendrecv to the neighbours MPI_Cart_shift names (MPI_PROC_NULL at the non-periodic
// edges, whose halo stays a fixed zero boundary). After K steps every rank compares its block
// with a serial computation of the whole grid it runs itself, and the global checksum
// (MPI_Allreduce). Then MPI_Cart_sub row communicators reduce (min, max) pairs with a user
// op (MPI_Op_create), and MPI_Comm_split column communicators sum their blocks; both checked
// against the serial grid.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

constexpr int LX = 4;  // interior rows of a rank's block (dimension 0)
constexpr int LY = 5;  // interior columns (dimension 1)
constexpr int STEPS = 6;
constexpr double ALPHA = 0.1;

int g_rank = -1;
int g_failures = 0;

#define CHECK(cond)                                                                       \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            ++g_failures;                                                                 \
            std::fprintf(stderr, "[rank %d] %s:%d: CHECK failed: %s\n", g_rank, __FILE__, \
                         __LINE__, #cond);                                                \
        }                                                                                 \
    } while (0)

#define CHECK_OK(call)                                                                \
    do {                                                                              \
        int rc_ = (call);                                                             \
        if (rc_ != MPI_SUCCESS) {                                                     \
            std::fprintf(stderr, "[rank %d] %s:%d: %s returned %d\n", g_rank, __FILE__, \
                         __LINE__, #call, rc_);                                       \
            MPI_Abort(MPI_COMM_WORLD, 1);                                             \
        }                                                                             \
    } while (0)

// The initial temperature at global cell (i, j).
double initial(int i, int j) { return ((i * 7 + j * 3) % 11) + 0.25 * i - 0.125 * j; }

// A field of `rows` x `cols` interior cells with a one-cell halo all around, row-major.
struct Field {
    int rows, cols;
    std::vector<double> v;
    Field(int r, int c) : rows(r), cols(c), v(static_cast<size_t>((r + 2) * (c + 2)), 0.0) {}
    double &at(int i, int j) { return v[static_cast<size_t>(i * (cols + 2) + j)]; }
    double at(int i, int j) const { return v[static_cast<size_t>(i * (cols + 2) + j)]; }
};

// One explicit step on the interior of `f` (its halo already filled).
void step(Field &f)
{
    Field next = f;
    for (int i = 1; i <= f.rows; ++i)
        for (int j = 1; j <= f.cols; ++j)
            next.at(i, j) = f.at(i, j) + ALPHA * (f.at(i - 1, j) + f.at(i + 1, j) +
                                                  f.at(i, j - 1) + f.at(i, j + 1) -
                                                  4.0 * f.at(i, j));
    f = next;
}

// The whole grid stepped serially: rows wrap around (periodic), columns see zero boundaries.
Field serial(int nx, int ny)
{
    Field g(nx, ny);
    for (int i = 1; i <= nx; ++i)
        for (int j = 1; j <= ny; ++j)
            g.at(i, j) = initial(i - 1, j - 1);
    for (int s = 0; s < STEPS; ++s) {
        for (int j = 1; j <= ny; ++j) {
            g.at(0, j) = g.at(nx, j);
            g.at(nx + 1, j) = g.at(1, j);
        }
        step(g);
    }
    return g;
}

// Weight of global cell (i, j) in the checksum (so misplaced values are caught too).
double weight(int i, int j) { return 1.0 + 0.01 * i + 0.001 * j; }

// A (min, max) pair and the user op combining them.
struct MinMax {
    double lo, hi;
};

void minmax_op(void *in, void *inout, int *len, MPI_Datatype *)
{
    auto *a = static_cast<const MinMax *>(in);
    auto *b = static_cast<MinMax *>(inout);
    for (int k = 0; k < *len; ++k) {
        b[k].lo = std::min(a[k].lo, b[k].lo);
        b[k].hi = std::max(a[k].hi, b[k].hi);
    }
}

bool close(double a, double b) { return std::fabs(a - b) <= 1e-9 * (1.0 + std::fabs(b)); }

}  // namespace

int main(int argc, char **argv)
{
    CHECK_OK(MPI_Init(&argc, &argv));
    int size = 0;
    CHECK_OK(MPI_Comm_rank(MPI_COMM_WORLD, &g_rank));
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));

    int dims[2] = {0, 0}, periods[2] = {1, 0};
    CHECK_OK(MPI_Dims_create(size, 2, dims));
    CHECK(dims[0] * dims[1] == size && dims[0] >= dims[1]);
    MPI_Comm cart;
    CHECK_OK(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart));
    int me = -1, coords[2] = {-1, -1};
    CHECK_OK(MPI_Comm_rank(cart, &me));
    CHECK_OK(MPI_Cart_coords(cart, me, 2, coords));

    // Neighbours: `up`/`down` along dimension 0 (periodic), `left`/`right` along 1.
    int up, down, left, right;
    CHECK_OK(MPI_Cart_shift(cart, 0, 1, &up, &down));
    CHECK_OK(MPI_Cart_shift(cart, 1, 1, &left, &right));
    CHECK(up != MPI_PROC_NULL && down != MPI_PROC_NULL);
    CHECK((left == MPI_PROC_NULL) == (coords[1] == 0));
    CHECK((right == MPI_PROC_NULL) == (coords[1] == dims[1] - 1));

    const int nx = dims[0] * LX, ny = dims[1] * LY;
    const int i0 = coords[0] * LX, j0 = coords[1] * LY;
    Field u(LX, LY);
    for (int i = 1; i <= LX; ++i)
        for (int j = 1; j <= LY; ++j)
            u.at(i, j) = initial(i0 + i - 1, j0 + j - 1);

    // A column of the interior: LX doubles, one per row.
    MPI_Datatype column;
    CHECK_OK(MPI_Type_vector(LX, 1, LY + 2, MPI_DOUBLE, &column));
    CHECK_OK(MPI_Type_commit(&column));

    for (int s = 0; s < STEPS; ++s) {
        MPI_Status st;
        // Last interior row down, first halo row from up; then the other way.
        CHECK_OK(MPI_Sendrecv(&u.at(LX, 1), LY, MPI_DOUBLE, down, 10, &u.at(0, 1), LY,
                              MPI_DOUBLE, up, 10, cart, &st));
        CHECK(st.MPI_SOURCE == up && st.MPI_TAG == 10);
        CHECK_OK(MPI_Sendrecv(&u.at(1, 1), LY, MPI_DOUBLE, up, 11, &u.at(LX + 1, 1), LY,
                              MPI_DOUBLE, down, 11, cart, MPI_STATUS_IGNORE));
        // Columns: MPI_PROC_NULL at the edges leaves the zero boundary in place.
        CHECK_OK(MPI_Sendrecv(&u.at(1, LY), 1, column, right, 12, &u.at(1, 0), 1, column,
                              left, 12, cart, &st));
        if (left == MPI_PROC_NULL) {
            int n = -1;
            CHECK_OK(MPI_Get_count(&st, column, &n));
            CHECK(st.MPI_SOURCE == MPI_PROC_NULL && n == 0);
        }
        CHECK_OK(MPI_Sendrecv(&u.at(1, 1), 1, column, left, 13, &u.at(1, LY + 1), 1, column,
                              right, 13, cart, MPI_STATUS_IGNORE));
        step(u);
    }

    const Field g = serial(nx, ny);
    int bad = 0;
    double local = 0.0, expect = 0.0, plain = 0.0;
    for (int i = 1; i <= LX; ++i)
        for (int j = 1; j <= LY; ++j) {
            const int gi = i0 + i - 1, gj = j0 + j - 1;
            bad += !close(u.at(i, j), g.at(gi + 1, gj + 1));
            local += weight(gi, gj) * u.at(i, j);
            plain += u.at(i, j);
        }
    if (bad)
        std::fprintf(stderr, "[rank %d] %d cells differ from the serial grid\n", g_rank, bad);
    CHECK(bad == 0);
    for (int i = 0; i < nx; ++i)
        for (int j = 0; j < ny; ++j)
            expect += weight(i, j) * g.at(i + 1, j + 1);
    double total = 0.0;
    CHECK_OK(MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, cart));
    CHECK(close(total, expect));

    // Row communicators (fixed coordinate 0): (min, max) over their band of rows.
    MPI_Comm row;
    int remain[2] = {0, 1};
    CHECK_OK(MPI_Cart_sub(cart, remain, &row));
    int rsize = -1, rrank = -1;
    CHECK_OK(MPI_Comm_size(row, &rsize));
    CHECK_OK(MPI_Comm_rank(row, &rrank));
    CHECK(rsize == dims[1] && rrank == coords[1]);
    MPI_Datatype pair;
    CHECK_OK(MPI_Type_contiguous(2, MPI_DOUBLE, &pair));
    CHECK_OK(MPI_Type_commit(&pair));
    MPI_Op mm;
    CHECK_OK(MPI_Op_create(minmax_op, 1, &mm));
    MinMax mine{1e300, -1e300}, band{0, 0}, want{1e300, -1e300};
    for (int i = 1; i <= LX; ++i)
        for (int j = 1; j <= LY; ++j) {
            mine.lo = std::min(mine.lo, u.at(i, j));
            mine.hi = std::max(mine.hi, u.at(i, j));
        }
    CHECK_OK(MPI_Allreduce(&mine, &band, 1, pair, mm, row));
    for (int i = i0; i < i0 + LX; ++i)
        for (int j = 0; j < ny; ++j) {
            want.lo = std::min(want.lo, g.at(i + 1, j + 1));
            want.hi = std::max(want.hi, g.at(i + 1, j + 1));
        }
    CHECK(close(band.lo, want.lo) && close(band.hi, want.hi));

    // Column communicators by MPI_Comm_split (color: coordinate 1, key: coordinate 0).
    MPI_Comm col;
    CHECK_OK(MPI_Comm_split(cart, coords[1], coords[0], &col));
    int csize = -1, crank = -1;
    CHECK_OK(MPI_Comm_size(col, &csize));
    CHECK_OK(MPI_Comm_rank(col, &crank));
    CHECK(csize == dims[0] && crank == coords[0]);
    double colsum = 0.0, colwant = 0.0;
    CHECK_OK(MPI_Allreduce(&plain, &colsum, 1, MPI_DOUBLE, MPI_SUM, col));
    for (int i = 0; i < nx; ++i)
        for (int j = j0; j < j0 + LY; ++j)
            colwant += g.at(i + 1, j + 1);
    CHECK(close(colsum, colwant));

    CHECK_OK(MPI_Op_free(&mm));
    CHECK(mm == MPI_OP_NULL);
    CHECK_OK(MPI_Type_free(&pair));
    CHECK_OK(MPI_Type_free(&column));
    CHECK_OK(MPI_Comm_free(&col));
    CHECK_OK(MPI_Comm_free(&row));
    CHECK_OK(MPI_Comm_free(&cart));

    int failed = 0;
    CHECK_OK(MPI_Allreduce(&g_failures, &failed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    if (g_rank == 0 && failed == 0)
        std::printf("legacy_halo: %d ranks OK (grid %dx%d, %d steps)\n", size, dims[0], dims[1],
                    STEPS);
    CHECK_OK(MPI_Finalize());
    return g_failures ? 1 : 0;
}
