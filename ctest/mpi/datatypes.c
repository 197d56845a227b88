/* MPI shim derived datatypes: vector halo exchange of a row-major matrix, indexed, struct of
 * mixed types (p2p and bcast), resized + gather, subarray halo exchange, Isend/Irecv with a
 * vector type, Pack/Unpack, envelope/contents, extents, Get_elements/Get_count on partial
 * receives, complex and contiguous-type reductions, data movement of types without a nexar
 * reduction type, and error cases under MPI_ERRORS_RETURN. Every check verifies values. */
#include "mpi_check.h"

#include <complex.h>
#include <stddef.h>

enum { ROWS = 4, COLS = 6 };

static int rank, size, left, right;

static double mval(int r, int i, int j) { return r * 1000 + i * 10 + j; }

/* Each rank sends its last interior column to the right neighbour's ghost column 0. */
static void vector_halo(void)
{
    double m[ROWS][COLS];
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++)
            m[i][j] = j == 0 ? -1.0 : mval(rank, i, j);
    MPI_Datatype col;
    CHECK_OK(MPI_Type_vector(ROWS, 1, COLS, MPI_DOUBLE, &col));
    CHECK_OK(MPI_Type_commit(&col));
    CHECK_OK(MPI_Sendrecv(&m[0][COLS - 1], 1, col, right, 1, &m[0][0], 1, col, left, 1,
                          MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int i = 0; i < ROWS; i++) {
        CHECK(m[i][0] == mval(left, i, COLS - 1));
        for (int j = 1; j < COLS; j++)
            CHECK(m[i][j] == mval(rank, i, j));
    }

    /* The same with Isend / Irecv, the receive unpacked when Waitall completes it. */
    double g[ROWS][COLS];
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++)
            g[i][j] = -2.0;
    MPI_Request rq[2];
    CHECK_OK(MPI_Irecv(&g[0][2], 1, col, left, 2, MPI_COMM_WORLD, &rq[0]));
    CHECK_OK(MPI_Isend(&m[0][3], 1, col, right, 2, MPI_COMM_WORLD, &rq[1]));
    MPI_Status st[2];
    CHECK_OK(MPI_Waitall(2, rq, st));
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++)
            CHECK(g[i][j] == (j == 2 ? mval(left, i, 3) : -2.0));
    int n = -1;
    CHECK_OK(MPI_Get_count(&st[0], col, &n));
    CHECK(n == 1);
    CHECK_OK(MPI_Get_count(&st[0], MPI_DOUBLE, &n));
    CHECK(n == ROWS);
    CHECK_OK(MPI_Type_free(&col));
    CHECK(col == MPI_DATATYPE_NULL);
}

/* Indexed blocks {2, 1, 3} at {0, 4, 7} of an int array, received contiguously. */
static void indexed(void)
{
    int bl[3] = {2, 1, 3}, dp[3] = {0, 4, 7}, src[10], dst[6] = {0};
    for (int i = 0; i < 10; i++)
        src[i] = rank * 100 + i;
    MPI_Datatype t;
    CHECK_OK(MPI_Type_indexed(3, bl, dp, MPI_INT, &t));
    CHECK_OK(MPI_Type_commit(&t));
    int sz = 0;
    CHECK_OK(MPI_Type_size(t, &sz));
    CHECK(sz == 6 * (int)sizeof(int));
    CHECK_OK(MPI_Sendrecv(src, 1, t, right, 3, dst, 6, MPI_INT, left, 3, MPI_COMM_WORLD,
                          MPI_STATUS_IGNORE));
    int want[6] = {0, 1, 4, 7, 8, 9};
    for (int i = 0; i < 6; i++)
        CHECK(dst[i] == left * 100 + want[i]);
    CHECK_OK(MPI_Type_free(&t));
}

struct rec {
    int i;
    double d;
    char c[3];
};

static MPI_Datatype rec_type(void)
{
    int bl[3] = {1, 1, 3};
    MPI_Aint dp[3] = {offsetof(struct rec, i), offsetof(struct rec, d), offsetof(struct rec, c)};
    MPI_Datatype ts[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR}, t;
    CHECK_OK(MPI_Type_create_struct(3, bl, dp, ts, &t));
    CHECK_OK(MPI_Type_commit(&t));
    return t;
}

static void structs(void)
{
    MPI_Datatype t = rec_type();
    MPI_Aint lb = -1, ext = -1;
    CHECK_OK(MPI_Type_get_extent(t, &lb, &ext));
    CHECK(lb == 0 && ext == (MPI_Aint)sizeof(struct rec));
    int sz = 0;
    CHECK_OK(MPI_Type_size(t, &sz));
    CHECK(sz == 4 + 8 + 3);
    struct rec out[2], in[2];
    memset(in, 0, sizeof in);
    for (int k = 0; k < 2; k++) {
        out[k].i = rank * 10 + k;
        out[k].d = rank + 0.5 * k;
        out[k].c[0] = (char)('a' + rank);
        out[k].c[1] = (char)('A' + k);
        out[k].c[2] = 'z';
    }
    CHECK_OK(MPI_Sendrecv(out, 2, t, right, 4, in, 2, t, left, 4, MPI_COMM_WORLD,
                          MPI_STATUS_IGNORE));
    for (int k = 0; k < 2; k++) {
        CHECK(in[k].i == left * 10 + k);
        CHECK(in[k].d == left + 0.5 * k);
        CHECK(in[k].c[0] == 'a' + left && in[k].c[1] == 'A' + k && in[k].c[2] == 'z');
    }

    struct rec b[3];
    for (int k = 0; k < 3; k++) {
        b[k].i = rank == 0 ? 42 + k : -1;
        b[k].d = rank == 0 ? 3.25 * k : -1.0;
        memcpy(b[k].c, rank == 0 ? "xyz" : "---", 3);
    }
    CHECK_OK(MPI_Bcast(b, 3, t, 0, MPI_COMM_WORLD));
    for (int k = 0; k < 3; k++)
        CHECK(b[k].i == 42 + k && b[k].d == 3.25 * k && memcmp(b[k].c, "xyz", 3) == 0);
    CHECK_OK(MPI_Type_free(&t));
}

/* Gather two ints per rank into column `rank` of a 2 x size matrix at the root. */
static void resized_gather(void)
{
    MPI_Datatype col, colr;
    CHECK_OK(MPI_Type_vector(2, 1, size, MPI_INT, &col));
    CHECK_OK(MPI_Type_create_resized(col, 0, sizeof(int), &colr));
    CHECK_OK(MPI_Type_commit(&colr));
    MPI_Aint lb, ext, tlb, text;
    CHECK_OK(MPI_Type_get_extent(colr, &lb, &ext));
    CHECK_OK(MPI_Type_get_true_extent(colr, &tlb, &text));
    CHECK(lb == 0 && ext == sizeof(int));
    CHECK(tlb == 0 && text == (MPI_Aint)((size + 1) * sizeof(int)));
    int mine[2] = {rank, 100 + rank}, mat[2 * 16];
    for (int i = 0; i < 2 * size; i++)
        mat[i] = -1;
    CHECK_OK(MPI_Gather(mine, 2, MPI_INT, mat, 1, colr, 0, MPI_COMM_WORLD));
    if (rank == 0)
        for (int j = 0; j < size; j++)
            CHECK(mat[j] == j && mat[size + j] == 100 + j);
    /* Allgather into the same layout everywhere. */
    for (int i = 0; i < 2 * size; i++)
        mat[i] = -1;
    CHECK_OK(MPI_Allgather(mine, 2, MPI_INT, mat, 1, colr, MPI_COMM_WORLD));
    for (int j = 0; j < size; j++)
        CHECK(mat[j] == j && mat[size + j] == 100 + j);
    /* Gatherv with displacements in units of the (resized) extent. */
    int rc[16], dp[16], v[2 * 16 + 2];
    for (int j = 0; j < size; j++) {
        rc[j] = 1;
        dp[j] = size - 1 - j;
    }
    for (int i = 0; i < 2 * size; i++)
        v[i] = -1;
    CHECK_OK(MPI_Gatherv(mine, 2, MPI_INT, v, rc, dp, colr, 0, MPI_COMM_WORLD));
    if (rank == 0)
        for (int j = 0; j < size; j++)
            CHECK(v[size - 1 - j] == j && v[2 * size - 1 - j] == 100 + j);
    CHECK_OK(MPI_Type_free(&col));
    CHECK_OK(MPI_Type_free(&colr));
}

enum { NX = 3, NY = 4 };

/* A (NX+2) x (NY+2) block with ghosts: the right interior column goes to the right
 * neighbour's left ghost column, the top interior row (Fortran-order type) to its bottom
 * ghost row. */
static void subarray_halo(void)
{
    int a[NX + 2][NY + 2];
    for (int i = 0; i < NX + 2; i++)
        for (int j = 0; j < NY + 2; j++)
            a[i][j] = (i == 0 || j == 0 || i == NX + 1 || j == NY + 1) ? -1
                                                                      : rank * 100 + i * 10 + j;
    int sizes[2] = {NX + 2, NY + 2}, colsub[2] = {NX, 1};
    int s_send[2] = {1, NY}, s_recv[2] = {1, 0};
    MPI_Datatype cs, cr, rs, rr;
    CHECK_OK(MPI_Type_create_subarray(2, sizes, colsub, s_send, MPI_ORDER_C, MPI_INT, &cs));
    CHECK_OK(MPI_Type_create_subarray(2, sizes, colsub, s_recv, MPI_ORDER_C, MPI_INT, &cr));
    /* Fortran order: dimensions reversed. */
    int fsizes[2] = {NY + 2, NX + 2}, rowsub[2] = {NY, 1}, f_send[2] = {1, 1},
        f_recv[2] = {1, NX + 1};
    CHECK_OK(MPI_Type_create_subarray(2, fsizes, rowsub, f_send, MPI_ORDER_FORTRAN, MPI_INT,
                                      &rs));
    CHECK_OK(MPI_Type_create_subarray(2, fsizes, rowsub, f_recv, MPI_ORDER_FORTRAN, MPI_INT,
                                      &rr));
    MPI_Datatype all[4] = {cs, cr, rs, rr};
    for (int k = 0; k < 4; k++)
        CHECK_OK(MPI_Type_commit(&all[k]));
    MPI_Aint lb, ext;
    CHECK_OK(MPI_Type_get_extent(all[0], &lb, &ext));
    CHECK(lb == 0 && ext == (MPI_Aint)sizeof a);
    CHECK_OK(MPI_Sendrecv(a, 1, all[0], right, 5, a, 1, all[1], left, 5, MPI_COMM_WORLD,
                          MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Sendrecv(a, 1, all[2], right, 6, a, 1, all[3], left, 6, MPI_COMM_WORLD,
                          MPI_STATUS_IGNORE));
    for (int i = 1; i <= NX; i++)
        CHECK(a[i][0] == left * 100 + i * 10 + NY);
    for (int j = 1; j <= NY; j++)
        CHECK(a[NX + 1][j] == left * 100 + 10 + j);
    CHECK(a[0][0] == -1 && a[0][NY + 1] == -1 && a[NX + 1][0] == -1);
    for (int k = 0; k < 4; k++)
        CHECK_OK(MPI_Type_free(&all[k]));
}

static void pack_unpack(void)
{
    MPI_Datatype col, rec = rec_type();
    CHECK_OK(MPI_Type_vector(ROWS, 1, COLS, MPI_DOUBLE, &col));
    CHECK_OK(MPI_Type_commit(&col));
    double m[ROWS][COLS];
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++)
            m[i][j] = mval(rank, i, j);
    struct rec r = {7, 2.5, {'p', 'q', 'r'}};
    int n = 99, s1, s2, s3;
    CHECK_OK(MPI_Pack_size(1, MPI_INT, MPI_COMM_WORLD, &s1));
    CHECK_OK(MPI_Pack_size(1, col, MPI_COMM_WORLD, &s2));
    CHECK_OK(MPI_Pack_size(1, rec, MPI_COMM_WORLD, &s3));
    CHECK(s1 == 4 && s2 == ROWS * 8 && s3 == 15);
    char buf[256];
    int pos = 0;
    CHECK_OK(MPI_Pack(&n, 1, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    CHECK_OK(MPI_Pack(&m[0][1], 1, col, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    CHECK_OK(MPI_Pack(&r, 1, rec, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    CHECK(pos == s1 + s2 + s3);
    /* The packed column is dense. */
    double d0;
    memcpy(&d0, buf + 4 + 8, sizeof d0);
    CHECK(d0 == mval(rank, 1, 1));
    /* Ship it as MPI_PACKED and unpack on the other side. */
    char in[256];
    MPI_Status st;
    CHECK_OK(MPI_Sendrecv(buf, pos, MPI_PACKED, right, 7, in, sizeof in, MPI_PACKED, left, 7,
                          MPI_COMM_WORLD, &st));
    int got = 0;
    CHECK_OK(MPI_Get_count(&st, MPI_PACKED, &got));
    CHECK(got == pos);
    int n2 = 0, p2 = 0;
    double g[ROWS][COLS];
    memset(g, 0, sizeof g);
    struct rec r2;
    memset(&r2, 0, sizeof r2);
    CHECK_OK(MPI_Unpack(in, got, &p2, &n2, 1, MPI_INT, MPI_COMM_WORLD));
    CHECK_OK(MPI_Unpack(in, got, &p2, &g[0][4], 1, col, MPI_COMM_WORLD));
    CHECK_OK(MPI_Unpack(in, got, &p2, &r2, 1, rec, MPI_COMM_WORLD));
    CHECK(p2 == pos && n2 == 99);
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++)
            CHECK(g[i][j] == (j == 4 ? mval(left, i, 1) : 0.0));
    CHECK(r2.i == 7 && r2.d == 2.5 && memcmp(r2.c, "pqr", 3) == 0);
    /* external32: big-endian, same sizes as native for int and double. */
    int iv[2] = {0x01020304, -2};
    double dv = 1.0;
    unsigned char ext[32];
    MPI_Aint epos = 0, esz = 0;
    CHECK_OK(MPI_Pack_external_size("external32", 2, MPI_INT, &esz));
    CHECK(esz == 8);
    CHECK_OK(MPI_Pack_external("external32", iv, 2, MPI_INT, ext, sizeof ext, &epos));
    CHECK_OK(MPI_Pack_external("external32", &dv, 1, MPI_DOUBLE, ext, sizeof ext, &epos));
    CHECK(epos == 16 && ext[0] == 1 && ext[1] == 2 && ext[2] == 3 && ext[3] == 4);
    CHECK(ext[4] == 0xff && ext[7] == 0xfe && ext[8] == 0x3f && ext[9] == 0xf0);
    int iv2[2] = {0, 0};
    double dv2 = 0;
    MPI_Aint upos = 0;
    CHECK_OK(MPI_Unpack_external("external32", ext, epos, &upos, iv2, 2, MPI_INT));
    CHECK_OK(MPI_Unpack_external("external32", ext, epos, &upos, &dv2, 1, MPI_DOUBLE));
    CHECK(upos == 16 && iv2[0] == iv[0] && iv2[1] == -2 && dv2 == 1.0);
    /* Unpacking past the end is a truncation. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    EXPECT_CLASS(MPI_Unpack(in, got, &p2, &n2, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    CHECK_OK(MPI_Type_free(&col));
    CHECK_OK(MPI_Type_free(&rec));
}

static void envelope(void)
{
    MPI_Datatype v, vv, s = rec_type();
    CHECK_OK(MPI_Type_vector(3, 2, 5, MPI_DOUBLE, &v));
    CHECK_OK(MPI_Type_create_hvector(2, 1, 1000, v, &vv));
    int ni, na, nd, comb;
    CHECK_OK(MPI_Type_get_envelope(v, &ni, &na, &nd, &comb));
    CHECK(ni == 3 && na == 0 && nd == 1 && comb == MPI_COMBINER_VECTOR);
    int ints[8];
    MPI_Aint addrs[8];
    MPI_Datatype types[8];
    CHECK_OK(MPI_Type_get_contents(v, 8, 8, 8, ints, addrs, types));
    CHECK(ints[0] == 3 && ints[1] == 2 && ints[2] == 5 && types[0] == MPI_DOUBLE);
    CHECK_OK(MPI_Type_get_envelope(vv, &ni, &na, &nd, &comb));
    CHECK(ni == 2 && na == 1 && nd == 1 && comb == MPI_COMBINER_HVECTOR);
    CHECK_OK(MPI_Type_get_contents(vv, 8, 8, 8, ints, addrs, types));
    CHECK(ints[0] == 2 && ints[1] == 1 && addrs[0] == 1000);
    /* The returned derived type describes the vector; it is the caller's to free. */
    int sz = 0;
    CHECK_OK(MPI_Type_size(types[0], &sz));
    CHECK(sz == 6 * 8);
    CHECK_OK(MPI_Type_free(&types[0]));
    CHECK_OK(MPI_Type_get_envelope(s, &ni, &na, &nd, &comb));
    CHECK(ni == 4 && na == 3 && nd == 3 && comb == MPI_COMBINER_STRUCT);
    CHECK_OK(MPI_Type_get_contents(s, 8, 8, 8, ints, addrs, types));
    CHECK(ints[0] == 3 && ints[3] == 3 && addrs[1] == offsetof(struct rec, d));
    CHECK(types[0] == MPI_INT && types[1] == MPI_DOUBLE && types[2] == MPI_CHAR);
    CHECK_OK(MPI_Type_get_envelope(MPI_INT, &ni, &na, &nd, &comb));
    CHECK(comb == MPI_COMBINER_NAMED && ni == 0 && nd == 0);
    MPI_Count nic, nac, nlc, ndc;
    MPI_Datatype cv;
    CHECK_OK(MPI_Type_contiguous_c(4, MPI_INT, &cv));
    CHECK_OK(MPI_Type_get_envelope_c(cv, &nic, &nac, &nlc, &ndc, &comb));
    CHECK(comb == MPI_COMBINER_CONTIGUOUS && nic == 0 && nlc == 1 && ndc == 1);

    /* Extents. */
    MPI_Aint lb, ext, tlb, text;
    CHECK_OK(MPI_Type_get_extent(v, &lb, &ext));
    CHECK(lb == 0 && ext == (2 * 5 + 2) * 8);
    MPI_Datatype r;
    CHECK_OK(MPI_Type_create_resized(MPI_INT, -4, 16, &r));
    CHECK_OK(MPI_Type_get_extent(r, &lb, &ext));
    CHECK_OK(MPI_Type_get_true_extent(r, &tlb, &text));
    CHECK(lb == -4 && ext == 16 && tlb == 0 && text == 4);
    MPI_Count lbc, extc;
    CHECK_OK(MPI_Type_get_extent_c(vv, &lbc, &extc));
    CHECK(lbc == 0 && extc == 1000 + 12 * 8);

    /* Names, dup, toint/fromint, match_size, Get_address. */
    char name[MPI_MAX_OBJECT_NAME];
    int len = 0;
    CHECK_OK(MPI_Type_get_name(MPI_DOUBLE, name, &len));
    CHECK(strcmp(name, "MPI_DOUBLE") == 0 && len == 10);
    CHECK_OK(MPI_Type_set_name(v, "column"));
    CHECK_OK(MPI_Type_get_name(v, name, &len));
    CHECK(strcmp(name, "column") == 0);
    MPI_Datatype d;
    CHECK_OK(MPI_Type_dup(v, &d));
    CHECK_OK(MPI_Type_get_envelope(d, &ni, &na, &nd, &comb));
    CHECK(comb == MPI_COMBINER_DUP && nd == 1);
    CHECK(MPI_Type_fromint(MPI_Type_toint(d)) == d);
    MPI_Datatype m;
    CHECK_OK(MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &m));
    CHECK(m == MPI_REAL8);
    /* f90 types are derived handles laid out like the sized type (see datatypes_more.c). */
    int fsz = 0;
    CHECK_OK(MPI_Type_create_f90_integer(5, &m));
    CHECK_OK(MPI_Type_size(m, &fsz));
    CHECK(fsz == 4);
    CHECK_OK(MPI_Type_create_f90_real(10, MPI_UNDEFINED, &m));
    CHECK_OK(MPI_Type_size(m, &fsz));
    CHECK(fsz == 8);
    CHECK_OK(MPI_Type_create_f90_complex(6, 30, &m));
    CHECK_OK(MPI_Type_size(m, &fsz));
    CHECK(fsz == 8);
    CHECK_OK(MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT, &m));
    CHECK(m == MPI_DOUBLE_INT);
    CHECK_OK(MPI_Type_get_value_index(MPI_CHAR, MPI_INT, &m));
    CHECK(m == MPI_DATATYPE_NULL);
    int arr[4];
    MPI_Aint a0, a2;
    CHECK_OK(MPI_Get_address(&arr[0], &a0));
    CHECK_OK(MPI_Get_address(&arr[2], &a2));
    CHECK(MPI_Aint_diff(a2, a0) == 2 * sizeof(int));
    MPI_Datatype all[6] = {v, vv, s, cv, r, d};
    for (int k = 0; k < 6; k++)
        CHECK_OK(MPI_Type_free(&all[k]));
    CHECK(MPI_Type_fromint(MPI_Type_toint(d)) == MPI_DATATYPE_NULL);
}

/* Messages that end inside a derived type: Get_count is MPI_UNDEFINED, Get_elements counts
 * the primitive elements. */
static void partial(void)
{
    MPI_Datatype pair, rec = rec_type();
    CHECK_OK(MPI_Type_contiguous(2, MPI_INT, &pair));
    CHECK_OK(MPI_Type_commit(&pair));
    int out[5] = {1, 2, 3, 4, 5}, in[6] = {0};
    MPI_Status st;
    CHECK_OK(MPI_Sendrecv(out, 5, MPI_INT, right, 8, in, 3, pair, left, 8, MPI_COMM_WORLD,
                          &st));
    int n = 0;
    CHECK_OK(MPI_Get_count(&st, pair, &n));
    CHECK(n == MPI_UNDEFINED);
    CHECK_OK(MPI_Get_elements(&st, pair, &n));
    CHECK(n == 5);
    CHECK_OK(MPI_Get_count(&st, MPI_INT, &n));
    CHECK(n == 5);
    MPI_Count nc = 0;
    CHECK_OK(MPI_Get_elements_c(&st, pair, &nc));
    CHECK(nc == 5);
    for (int i = 0; i < 5; i++)
        CHECK(in[i] == i + 1);
    CHECK(in[5] == 0);
    /* int + double of a record: 12 bytes = 2 elements of the struct. */
    char bytes[12] = {0};
    CHECK_OK(MPI_Sendrecv(bytes, 12, MPI_BYTE, right, 9, in, 1, rec, left, 9, MPI_COMM_WORLD,
                          &st));
    CHECK_OK(MPI_Get_elements(&st, rec, &n));
    CHECK(n == 2);
    CHECK_OK(MPI_Get_count(&st, rec, &n));
    CHECK(n == MPI_UNDEFINED);
    /* A value-index pair is two basic elements: two MPI_DOUBLE_INTs hold four (MPICH's
     * get_elements_pairtype), and MPI_Status_set_elements is the inverse. */
    struct { double v; int i; } di[2] = {{1.5, 1}, {2.5, 2}}, dj[2];
    CHECK_OK(MPI_Sendrecv(di, 2, MPI_DOUBLE_INT, rank, 10, dj, 2, MPI_DOUBLE_INT, rank, 10,
                          MPI_COMM_WORLD, &st));
    CHECK_OK(MPI_Get_elements(&st, MPI_DOUBLE_INT, &n));
    CHECK(n == 4);
    CHECK_OK(MPI_Get_count(&st, MPI_DOUBLE_INT, &n));
    CHECK(n == 2);
    CHECK(dj[1].v == 2.5 && dj[1].i == 2);
    CHECK_OK(MPI_Status_set_elements(&st, MPI_2INT, 6));
    CHECK_OK(MPI_Get_count(&st, MPI_2INT, &n));
    CHECK(n == 3);
    CHECK_OK(MPI_Type_free(&pair));
    CHECK_OK(MPI_Type_free(&rec));
}

static void reductions(void)
{
    double complex z[2] = {(rank + 1) + rank * I, 2.0 - rank * I}, zs[2];
    CHECK_OK(MPI_Allreduce(z, zs, 2, MPI_C_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD));
    double tri = size * (size - 1) / 2.0;
    CHECK(creal(zs[0]) == tri + size && cimag(zs[0]) == tri);
    CHECK(creal(zs[1]) == 2.0 * size && cimag(zs[1]) == -tri);
    float complex f = 1.5f + 0.5f * I, fs;
    CHECK_OK(MPI_Allreduce(&f, &fs, 1, MPI_C_FLOAT_COMPLEX, MPI_SUM, MPI_COMM_WORLD));
    CHECK(crealf(fs) == 1.5f * size && cimagf(fs) == 0.5f * size);

    MPI_Datatype c3;
    CHECK_OK(MPI_Type_contiguous(3, MPI_DOUBLE, &c3));
    CHECK_OK(MPI_Type_commit(&c3));
    double v[6], s[6];
    for (int i = 0; i < 6; i++)
        v[i] = rank * 10 + i;
    CHECK_OK(MPI_Allreduce(v, s, 2, c3, MPI_SUM, MPI_COMM_WORLD));
    for (int i = 0; i < 6; i++)
        CHECK(s[i] == 10 * tri + size * i);
    CHECK_OK(MPI_Allreduce(MPI_IN_PLACE, v, 2, c3, MPI_MAX, MPI_COMM_WORLD));
    for (int i = 0; i < 6; i++)
        CHECK(v[i] == (size - 1) * 10 + i);
    /* A strided reducible type: every other double. */
    MPI_Datatype odd;
    CHECK_OK(MPI_Type_vector(3, 1, 2, MPI_DOUBLE, &odd));
    CHECK_OK(MPI_Type_commit(&odd));
    double w[5] = {1, -1, 2, -1, 3}, ws[5] = {0, 7, 0, 7, 0};
    CHECK_OK(MPI_Reduce(w, ws, 1, odd, MPI_SUM, 0, MPI_COMM_WORLD));
    if (rank == 0)
        CHECK(ws[0] == size && ws[1] == 7 && ws[2] == 2 * size && ws[3] == 7 && ws[4] == 3 * size);

    /* Types without a reduction (or op): MPI_ERR_OP on every rank, nothing started. */
    MPI_Datatype rec = rec_type();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    double complex zp;
    EXPECT_CLASS(MPI_Allreduce(z, &zp, 1, MPI_C_DOUBLE_COMPLEX, MPI_MAX, MPI_COMM_WORLD),
                 MPI_ERR_OP);
    struct rec r1 = {0, 0, {0}}, r2;
    EXPECT_CLASS(MPI_Allreduce(&r1, &r2, 1, rec, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_OP);
    long double ld = 1.0L, lds;
    EXPECT_CLASS(MPI_Allreduce(&ld, &lds, 1, MPI_LONG_DOUBLE, MPI_BXOR, MPI_COMM_WORLD),
                 MPI_ERR_OP);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    CHECK_OK(MPI_Type_free(&c3));
    CHECK_OK(MPI_Type_free(&odd));
    CHECK_OK(MPI_Type_free(&rec));
}

/* Types with no nexar reduction type still move. */
static void movement(void)
{
    long double ld[2] = {rank == 0 ? 1.25L : 0.0L, rank == 0 ? -3.5L : 0.0L};
    CHECK_OK(MPI_Bcast(ld, 2, MPI_LONG_DOUBLE, 0, MPI_COMM_WORLD));
    CHECK(ld[0] == 1.25L && ld[1] == -3.5L);
    double complex z = rank + 2.0 * rank * I, zin = 0;
    CHECK_OK(MPI_Sendrecv(&z, 1, MPI_C_DOUBLE_COMPLEX, right, 10, &zin, 1,
                          MPI_C_DOUBLE_COMPLEX, left, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(creal(zin) == left && cimag(zin) == 2.0 * left);
    double complex all[16];
    CHECK_OK(MPI_Allgather(&z, 1, MPI_DOUBLE_COMPLEX, all, 1, MPI_DOUBLE_COMPLEX,
                           MPI_COMM_WORLD));
    for (int j = 0; j < size; j++)
        CHECK(creal(all[j]) == j && cimag(all[j]) == 2.0 * j);
}

static void errors(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Datatype t, f;
    CHECK_OK(MPI_Type_contiguous(2, MPI_INT, &t));
    int x[4] = {0};
    EXPECT_CLASS(MPI_Send(x, 1, t, rank, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    EXPECT_CLASS(MPI_Bcast(x, 1, t, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    CHECK_OK(MPI_Type_commit(&t));
    f = t;
    CHECK_OK(MPI_Type_free(&t));
    EXPECT_CLASS(MPI_Send(x, 1, f, rank, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    EXPECT_CLASS(MPI_Type_free(&f), MPI_ERR_TYPE);
    int sz;
    EXPECT_CLASS(MPI_Type_size(f, &sz), MPI_ERR_TYPE);
    EXPECT_CLASS(MPI_Send(x, -1, MPI_INT, rank, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    EXPECT_CLASS(MPI_Send(x, 1, MPI_DATATYPE_NULL, rank, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    /* Zero elements of MPI_DATATYPE_NULL: an empty message (as MPICH accepts). */
    CHECK_OK(MPI_Send(NULL, 0, MPI_DATATYPE_NULL, rank, 7, MPI_COMM_WORLD));
    CHECK_OK(MPI_Recv(NULL, 0, MPI_DATATYPE_NULL, rank, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    EXPECT_CLASS(MPI_Type_contiguous(-1, MPI_INT, &t), MPI_ERR_COUNT);
    MPI_Datatype pre = MPI_INT;
    EXPECT_CLASS(MPI_Type_free(&pre), MPI_ERR_TYPE);
    EXPECT_CLASS(MPI_Type_vector(2, 1, 2, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE);
    char buf[4];
    int pos = 0;
    EXPECT_CLASS(MPI_Pack(x, 2, MPI_INT, buf, 4, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    CHECK_OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    vector_halo();
    indexed();
    structs();
    resized_gather();
    subarray_halo();
    pack_unpack();
    envelope();
    partial();
    reductions();
    movement();
    errors();
    return check_finish();
}
