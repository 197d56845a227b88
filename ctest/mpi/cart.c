/* Cartesian topologies: a 2D grid (Dims_create) periodic and not, halo exchange along both
 * dimensions with Cart_shift + Sendrecv (values checked against the neighbours' ranks),
 * Cart_rank / Cart_coords round trips, Cart_get, Cart_sub rows and columns with Allreduce,
 * Cart_map, Topo_test, a dup keeping the topology, Dims_create cases and errors. */
#include "mpi_check.h"

/* Exchanges ranks with both neighbours of every dimension and checks what arrives. */
static void halo(MPI_Comm cart, const int dims[2], const int periods[2])
{
    int me, coords[2];
    CHECK_OK(MPI_Comm_rank(cart, &me));
    CHECK_OK(MPI_Cart_coords(cart, me, 2, coords));
    for (int d = 0; d < 2; d++) {
        int src, dst;
        CHECK_OK(MPI_Cart_shift(cart, d, 1, &src, &dst));
        /* The expected neighbours, computed from the coordinates. */
        int want[2];
        for (int s = -1; s <= 1; s += 2) {
            int c[2] = {coords[0], coords[1]};
            c[d] += s;
            int r = MPI_PROC_NULL;
            if (periods[d] || (c[d] >= 0 && c[d] < dims[d])) {
                c[d] = (c[d] + dims[d]) % dims[d];
                CHECK_OK(MPI_Cart_rank(cart, c, &r));
            }
            want[s < 0 ? 0 : 1] = r;
        }
        CHECK(src == want[0]);
        CHECK(dst == want[1]);
        /* Send my rank up, receive from below; then down. */
        int got = -100;
        CHECK_OK(MPI_Sendrecv(&me, 1, MPI_INT, dst, 5, &got, 1, MPI_INT, src, 5, cart,
                              MPI_STATUS_IGNORE));
        CHECK(got == (src == MPI_PROC_NULL ? -100 : src));
        got = -100;
        CHECK_OK(MPI_Sendrecv(&me, 1, MPI_INT, src, 6, &got, 1, MPI_INT, dst, 6, cart,
                              MPI_STATUS_IGNORE));
        CHECK(got == (dst == MPI_PROC_NULL ? -100 : dst));
    }
}

static void grid(int size, int periodic)
{
    int dims[2] = {0, 0}, periods[2] = {periodic, 0};
    CHECK_OK(MPI_Dims_create(size, 2, dims));
    CHECK(dims[0] * dims[1] == size && dims[0] >= dims[1]);
    MPI_Comm cart;
    CHECK_OK(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &cart));
    CHECK(cart != MPI_COMM_NULL);
    int status = -1, nd = -1, me;
    CHECK_OK(MPI_Topo_test(cart, &status));
    CHECK(status == MPI_CART);
    CHECK_OK(MPI_Cartdim_get(cart, &nd));
    CHECK(nd == 2);
    CHECK_OK(MPI_Comm_rank(cart, &me));

    int gd[2], gp[2], gc[2], cc[2];
    CHECK_OK(MPI_Cart_get(cart, 2, gd, gp, gc));
    CHECK(gd[0] == dims[0] && gd[1] == dims[1]);
    CHECK(gp[0] == periodic && gp[1] == 0);
    CHECK_OK(MPI_Cart_coords(cart, me, 2, cc));
    CHECK(cc[0] == gc[0] && cc[1] == gc[1]);
    CHECK(me == gc[0] * dims[1] + gc[1]); /* row-major */
    for (int r = 0; r < size; r++) {
        int c[2], back = -1;
        CHECK_OK(MPI_Cart_coords(cart, r, 2, c));
        CHECK_OK(MPI_Cart_rank(cart, c, &back));
        CHECK(back == r);
    }
    /* Periodic wrap in dimension 0; out of range in the non-periodic dimension 1. */
    int c[2] = {gc[0], gc[1]}, r = -1;
    c[0] = gc[0] + dims[0];
    if (periodic) {
        CHECK_OK(MPI_Cart_rank(cart, c, &r));
        CHECK(r == me);
    } else {
        EXPECT_CLASS(MPI_Cart_rank(cart, c, &r), MPI_ERR_RANK);
    }
    c[0] = gc[0];
    c[1] = -1;
    EXPECT_CLASS(MPI_Cart_rank(cart, c, &r), MPI_ERR_RANK);
    EXPECT_CLASS(MPI_Cart_coords(cart, size, 2, c), MPI_ERR_RANK);

    halo(cart, dims, periods);

    /* Rows (keep dim 1) and columns (keep dim 0). */
    int keep_row[2] = {0, 1}, keep_col[2] = {1, 0};
    MPI_Comm row, col;
    CHECK_OK(MPI_Cart_sub(cart, keep_row, &row));
    CHECK_OK(MPI_Cart_sub(cart, keep_col, &col));
    int rs, cs, rr, cr, sum = 0;
    CHECK_OK(MPI_Comm_size(row, &rs));
    CHECK_OK(MPI_Comm_size(col, &cs));
    CHECK_OK(MPI_Comm_rank(row, &rr));
    CHECK_OK(MPI_Comm_rank(col, &cr));
    CHECK(rs == dims[1] && cs == dims[0] && rr == gc[1] && cr == gc[0]);
    CHECK_OK(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, row));
    /* Row i holds ranks i*d1 .. i*d1 + d1 - 1. */
    CHECK(sum == gc[0] * dims[1] * dims[1] + dims[1] * (dims[1] - 1) / 2);
    CHECK_OK(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, col));
    /* Column j holds ranks j, j + d1, ... */
    CHECK(sum == gc[1] * dims[0] + dims[1] * dims[0] * (dims[0] - 1) / 2);
    int sd[1], sp[1], sc[1];
    CHECK_OK(MPI_Cart_get(col, 1, sd, sp, sc));
    CHECK(sd[0] == dims[0] && sp[0] == periodic && sc[0] == gc[0]);

    /* A dup keeps the topology. */
    MPI_Comm dup;
    CHECK_OK(MPI_Comm_dup(cart, &dup));
    CHECK_OK(MPI_Topo_test(dup, &status));
    CHECK(status == MPI_CART);
    CHECK_OK(MPI_Cartdim_get(dup, &nd));
    CHECK(nd == 2);

    CHECK_OK(MPI_Comm_free(&dup));
    CHECK_OK(MPI_Comm_free(&row));
    CHECK_OK(MPI_Comm_free(&col));
    CHECK_OK(MPI_Comm_free(&cart));
}

static void dims_cases(void)
{
    int d2[2] = {0, 0};
    CHECK_OK(MPI_Dims_create(12, 2, d2));
    CHECK(d2[0] == 4 && d2[1] == 3);
    int d3[3] = {0, 0, 0};
    CHECK_OK(MPI_Dims_create(24, 3, d3));
    CHECK(d3[0] == 4 && d3[1] == 3 && d3[2] == 2);
    int f3[3] = {0, 3, 0};
    CHECK_OK(MPI_Dims_create(30, 3, f3));
    CHECK(f3[0] == 5 && f3[1] == 3 && f3[2] == 2);
    int p2[2] = {0, 0};
    CHECK_OK(MPI_Dims_create(7, 2, p2));
    CHECK(p2[0] == 7 && p2[1] == 1);
    int all[2] = {2, 3};
    CHECK_OK(MPI_Dims_create(6, 2, all));
    CHECK(all[0] == 2 && all[1] == 3);
    int bad[2] = {4, 0};
    EXPECT_CLASS(MPI_Dims_create(6, 2, bad), MPI_ERR_DIMS);
    int full[2] = {2, 2};
    EXPECT_CLASS(MPI_Dims_create(6, 2, full), MPI_ERR_DIMS);
    int neg[2] = {-1, 0};
    EXPECT_CLASS(MPI_Dims_create(6, 2, neg), MPI_ERR_DIMS);
    EXPECT_CLASS(MPI_Dims_create(6, -1, d2), MPI_ERR_DIMS);
}

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int size;
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    grid(size, 1);
    grid(size, 0);
    dims_cases();

    /* A 1D grid on all but the last rank: that one gets MPI_COMM_NULL and Cart_map says so. */
    int n = size > 1 ? size - 1 : 1, periods[1] = {1}, newrank = -5, me, status = -1;
    CHECK_OK(MPI_Comm_rank(MPI_COMM_WORLD, &me));
    MPI_Comm line;
    CHECK_OK(MPI_Cart_map(MPI_COMM_WORLD, 1, &n, periods, &newrank));
    CHECK(newrank == (me < n ? me : MPI_UNDEFINED));
    CHECK_OK(MPI_Cart_create(MPI_COMM_WORLD, 1, &n, periods, 0, &line));
    CHECK((line == MPI_COMM_NULL) == (me >= n));
    if (line != MPI_COMM_NULL) {
        int src, dst, got = -1;
        CHECK_OK(MPI_Cart_shift(line, 0, 2, &src, &dst));
        CHECK(src == ((me - 2) % n + n) % n && dst == (me + 2) % n);
        CHECK_OK(MPI_Sendrecv(&me, 1, MPI_INT, dst, 0, &got, 1, MPI_INT, src, 0, line,
                              MPI_STATUS_IGNORE));
        CHECK(got == src);
        EXPECT_CLASS(MPI_Cart_shift(line, 1, 1, &src, &dst), MPI_ERR_ARG);
        CHECK_OK(MPI_Comm_free(&line));
    }

    /* Errors: no topology, bad extents, a grid larger than the communicator. */
    int nd;
    CHECK_OK(MPI_Topo_test(MPI_COMM_WORLD, &status));
    CHECK(status == MPI_UNDEFINED);
    EXPECT_CLASS(MPI_Cartdim_get(MPI_COMM_WORLD, &nd), MPI_ERR_TOPOLOGY);
    int zero[1] = {0}, big[1] = {size + 1};
    MPI_Comm bad;
    EXPECT_CLASS(MPI_Cart_create(MPI_COMM_WORLD, 1, zero, periods, 0, &bad), MPI_ERR_DIMS);
    EXPECT_CLASS(MPI_Cart_create(MPI_COMM_WORLD, 1, big, periods, 0, &bad), MPI_ERR_TOPOLOGY);
    return check_finish();
}
