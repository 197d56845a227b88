/* MPI shim datatypes, continued: the name of MPI_DATATYPE_NULL and renamed predefined types;
 * MPI_Type_create_f90_* as cached derived types (combiner, contents, no free, data movement);
 * external32 for long (4 bytes, range checked), pair types (members without padding) and
 * long double (16-byte IEEE quad); a huge contiguous type; datatype attributes with copy and
 * delete callbacks through MPI_Type_dup and MPI_Type_free; a vector of INT_MAX / 2 blocks.
 * Every check verifies values. */
#include "mpi_check.h"

#include <limits.h>
#include <string.h>

static int rank, size;

static void names(void)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len = 0;
    CHECK_OK(MPI_Type_get_name(MPI_DATATYPE_NULL, name, &len));
    CHECK(strcmp(name, "MPI_DATATYPE_NULL") == 0 && len == 17);
    CHECK_OK(MPI_Type_set_name(MPI_SHORT, "my short"));
    CHECK_OK(MPI_Type_get_name(MPI_SHORT, name, &len));
    CHECK(strcmp(name, "my short") == 0 && len == 8);
    CHECK_OK(MPI_Type_set_name(MPI_SHORT, "MPI_SHORT"));
    CHECK_OK(MPI_Type_get_name(MPI_SHORT, name, &len));
    CHECK(strcmp(name, "MPI_SHORT") == 0);
}

/* Envelope and contents of an f90 type: `want_ints` integers, nothing else. */
static void f90_contents(MPI_Datatype t, int combiner, int nwant, int p, int r)
{
    int ni = -1, na = -1, nd = -1, comb = -1;
    CHECK_OK(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
    CHECK(comb == combiner && ni == nwant && na == 0 && nd == 0);
    int ints[2] = {-7, -7};
    CHECK_OK(MPI_Type_get_contents(t, 2, 0, 0, ints, NULL, NULL));
    if (nwant == 1)
        CHECK(ints[0] == r);
    else
        CHECK(ints[0] == p && ints[1] == r);
}

static void f90(void)
{
    MPI_Datatype i4, i4b, r8, c16;
    CHECK_OK(MPI_Type_create_f90_integer(4, &i4));
    CHECK_OK(MPI_Type_create_f90_integer(4, &i4b));
    CHECK(i4 == i4b); /* cached per arguments */
    CHECK(i4 != MPI_INTEGER2 && i4 != MPI_DATATYPE_NULL);
    f90_contents(i4, MPI_COMBINER_F90_INTEGER, 1, 0, 4);
    MPI_Aint lb, ext;
    CHECK_OK(MPI_Type_get_extent(i4, &lb, &ext));
    CHECK(lb == 0 && ext == 2);

    CHECK_OK(MPI_Type_create_f90_real(15, 300, &r8));
    f90_contents(r8, MPI_COMBINER_F90_REAL, 2, 15, 300);
    CHECK_OK(MPI_Type_create_f90_complex(15, MPI_UNDEFINED, &c16));
    f90_contents(c16, MPI_COMBINER_F90_COMPLEX, 2, 15, MPI_UNDEFINED);
    int sz = 0;
    CHECK_OK(MPI_Type_size(c16, &sz));
    CHECK(sz == 16);

    /* Usable without a commit, like a predefined type: a ring shift of doubles. */
    double out[3], in[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++)
        out[k] = rank * 10.0 + k;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    CHECK_OK(MPI_Sendrecv(out, 3, r8, right, 5, in, 3, r8, left, 5, MPI_COMM_WORLD,
                          MPI_STATUS_IGNORE));
    for (int k = 0; k < 3; k++)
        CHECK(in[k] == left * 10.0 + k);
    double sum = 0, one = rank + 1.0;
    CHECK_OK(MPI_Allreduce(&one, &sum, 1, r8, MPI_SUM, MPI_COMM_WORLD));
    CHECK(sum == size * (size + 1) / 2.0);

    /* A derived type built on it lists it among its contents as the same handle. */
    MPI_Datatype v, inner;
    CHECK_OK(MPI_Type_contiguous(2, r8, &v));
    CHECK_OK(MPI_Type_get_contents(v, 1, 0, 1, &sz, NULL, &inner));
    CHECK(sz == 2 && inner == r8);
    CHECK_OK(MPI_Type_free(&v));

    /* The library owns them. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Datatype tmp = r8;
    EXPECT_CLASS(MPI_Type_free(&tmp), MPI_ERR_TYPE);
    EXPECT_CLASS(MPI_Type_create_f90_integer(100, &tmp), MPI_ERR_ARG);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    CHECK_OK(MPI_Type_size(r8, &sz));
    CHECK(sz == 8);
}

static void ext32_long(void)
{
    long in[3] = {-5, 7, INT_MAX}, back[3] = {0, 0, 0};
    unsigned char buf[64];
    MPI_Aint esz = 0, pos = 0, upos = 0;
    CHECK_OK(MPI_Pack_external_size("external32", 3, MPI_LONG, &esz));
    CHECK(esz == 12);
    CHECK_OK(MPI_Pack_external("external32", in, 3, MPI_LONG, buf, sizeof buf, &pos));
    CHECK(pos == 12);
    CHECK(buf[0] == 0xff && buf[3] == 0xfb); /* -5 big-endian */
    CHECK(buf[4] == 0 && buf[7] == 7);
    CHECK(buf[8] == 0x7f && buf[11] == 0xff);
    CHECK_OK(MPI_Unpack_external("external32", buf, pos, &upos, back, 3, MPI_LONG));
    CHECK(upos == 12 && back[0] == -5 && back[1] == 7 && back[2] == INT_MAX);

    unsigned long u = 4000000000UL, ub = 0;
    pos = upos = 0;
    CHECK_OK(MPI_Pack_external("external32", &u, 1, MPI_UNSIGNED_LONG, buf, sizeof buf, &pos));
    CHECK(pos == 4);
    CHECK_OK(MPI_Unpack_external("external32", buf, pos, &upos, &ub, 1, MPI_UNSIGNED_LONG));
    CHECK(ub == u);

    if (sizeof(long) == 8) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        long big = (long)INT_MAX + 1;
        pos = 0;
        EXPECT_CLASS(MPI_Pack_external("external32", &big, 1, MPI_LONG, buf, sizeof buf, &pos),
                     MPI_ERR_CONVERSION);
        CHECK(pos == 0);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    }
}

static void ext32_pairs(void)
{
    struct { double v; int i; } di[2] = {{2.5, 3}, {-1.0, 9}}, dib[2];
    unsigned char buf[64];
    MPI_Aint esz = 0, pos = 0, upos = 0;
    CHECK_OK(MPI_Pack_external_size("external32", 2, MPI_DOUBLE_INT, &esz));
    CHECK(esz == 24);
    CHECK_OK(MPI_Pack_external("external32", di, 2, MPI_DOUBLE_INT, buf, sizeof buf, &pos));
    CHECK(pos == 24);
    CHECK(buf[0] == 0x40 && buf[1] == 0x04); /* 2.5 big-endian */
    CHECK(buf[8] == 0 && buf[11] == 3 && buf[23] == 9);
    memset(dib, 0, sizeof dib);
    CHECK_OK(MPI_Unpack_external("external32", buf, pos, &upos, dib, 2, MPI_DOUBLE_INT));
    CHECK(dib[0].v == 2.5 && dib[0].i == 3 && dib[1].v == -1.0 && dib[1].i == 9);

    struct { short v; int i; } si = {-2, 70000}, sib = {0, 0};
    CHECK_OK(MPI_Pack_external_size("external32", 1, MPI_SHORT_INT, &esz));
    CHECK(esz == 6);
    pos = upos = 0;
    CHECK_OK(MPI_Pack_external("external32", &si, 1, MPI_SHORT_INT, buf, sizeof buf, &pos));
    CHECK(pos == 6 && buf[0] == 0xff && buf[1] == 0xfe);
    CHECK_OK(MPI_Unpack_external("external32", buf, pos, &upos, &sib, 1, MPI_SHORT_INT));
    CHECK(sib.v == -2 && sib.i == 70000);

    struct { long v; int i; } li = {-123456, 4}, lib = {0, 0};
    CHECK_OK(MPI_Pack_external_size("external32", 1, MPI_LONG_INT, &esz));
    CHECK(esz == 8);
    pos = upos = 0;
    CHECK_OK(MPI_Pack_external("external32", &li, 1, MPI_LONG_INT, buf, sizeof buf, &pos));
    CHECK_OK(MPI_Unpack_external("external32", buf, pos, &upos, &lib, 1, MPI_LONG_INT));
    CHECK(upos == 8 && lib.v == -123456 && lib.i == 4);
}

static void ext32_long_double(void)
{
#if defined(__x86_64__)
    long double in[3] = {1.5L, -0.1L, 1e4000L}, back[3] = {0, 0, 0};
    unsigned char buf[64];
    MPI_Aint esz = 0, pos = 0, upos = 0;
    CHECK_OK(MPI_Pack_external_size("external32", 3, MPI_LONG_DOUBLE, &esz));
    CHECK(esz == 48);
    CHECK_OK(MPI_Pack_external("external32", in, 3, MPI_LONG_DOUBLE, buf, sizeof buf, &pos));
    /* 1.5 as an IEEE quad: sign 0, exponent 0x3fff, fraction 1000...: 3f ff 80 00 ... */
    CHECK(buf[0] == 0x3f && buf[1] == 0xff && buf[2] == 0x80 && buf[3] == 0 && buf[15] == 0);
    CHECK((buf[16] & 0x80) != 0); /* -0.1 is negative */
    CHECK_OK(MPI_Unpack_external("external32", buf, pos, &upos, back, 3, MPI_LONG_DOUBLE));
    CHECK(upos == 48 && back[0] == in[0] && back[1] == in[1] && back[2] == in[2]);

    long double _Complex z = 2.0L - 3.0L * 1.0iL, zb = 0;
    pos = upos = 0;
    CHECK_OK(MPI_Pack_external("external32", &z, 1, MPI_C_LONG_DOUBLE_COMPLEX, buf, sizeof buf,
                               &pos));
    CHECK(pos == 32 && buf[0] == 0x40 && buf[16] == 0xc0);
    CHECK_OK(MPI_Unpack_external("external32", buf, pos, &upos, &zb, 1,
                                 MPI_C_LONG_DOUBLE_COMPLEX));
    CHECK(zb == z);
#endif
}

static void huge_contiguous(void)
{
    MPI_Datatype t;
    CHECK_OK(MPI_Type_contiguous(INT_MAX, MPI_BYTE, &t));
    MPI_Count sz = 0;
    CHECK_OK(MPI_Type_size_c(t, &sz));
    CHECK(sz == INT_MAX);
    CHECK_OK(MPI_Type_free(&t));
    CHECK_OK(MPI_Type_contiguous_c((MPI_Count)INT_MAX * 4, MPI_INT, &t));
    CHECK_OK(MPI_Type_size_c(t, &sz));
    CHECK(sz == (MPI_Count)INT_MAX * 16);
    CHECK_OK(MPI_Type_free(&t));

    /* A vector of INT_MAX / 2 blocks is described by one block (it took one entry per block,
     * gigabytes, before): sizes, bounds, a resized copy, and data through a short prefix. */
    MPI_Datatype four, vec, rsz;
    CHECK_OK(MPI_Type_contiguous(4, MPI_INT, &four));
    CHECK_OK(MPI_Type_vector(INT_MAX / 2, 1, 3, four, &vec));
    CHECK_OK(MPI_Type_commit(&vec));
    int isz = 0;
    CHECK_OK(MPI_Type_size(vec, &isz));
    CHECK(isz == MPI_UNDEFINED);
    CHECK_OK(MPI_Type_size_c(vec, &sz));
    CHECK(sz == 16LL * (INT_MAX / 2));
    MPI_Count lb = -1, ext = -1, tlb = -1, text = -1;
    CHECK_OK(MPI_Type_get_extent_c(vec, &lb, &ext));
    CHECK_OK(MPI_Type_get_true_extent_c(vec, &tlb, &text));
    CHECK(lb == 0 && ext == 48LL * (INT_MAX / 2 - 1) + 16 && tlb == 0 && text == ext);
    CHECK_OK(MPI_Type_create_resized(vec, INT_MAX, -1024, &rsz));
    CHECK_OK(MPI_Type_get_extent_c(rsz, &lb, &ext));
    CHECK(lb == INT_MAX && ext == -1024);
    CHECK_OK(MPI_Type_free(&rsz));
    CHECK_OK(MPI_Type_free(&vec));
    /* The same shape at a size that moves: 3 blocks of 4 ints, 12 ints apart. */
    int src[36], dst[36] = {0}, packed[12], pos = 0;
    for (int i = 0; i < 36; i++)
        src[i] = i;
    CHECK_OK(MPI_Type_vector(3, 1, 3, four, &vec));
    CHECK_OK(MPI_Type_commit(&vec));
    CHECK_OK(MPI_Pack(src, 1, vec, packed, (int)sizeof packed, &pos, MPI_COMM_SELF));
    CHECK(pos == 48 && packed[4] == 12 && packed[11] == 27);
    pos = 0;
    CHECK_OK(MPI_Unpack(packed, (int)sizeof packed, &pos, dst, 1, vec, MPI_COMM_SELF));
    for (int i = 0; i < 36; i++)
        CHECK(dst[i] == ((i % 12) < 4 ? i : 0));
    CHECK_OK(MPI_Type_free(&vec));
    CHECK_OK(MPI_Type_free(&four));
}

static int copies, deletes, last_deleted;

static int copy_fn(MPI_Datatype t, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)t, (void)keyval;
    copies++;
    *(void **)out = (char *)in + *(int *)extra; /* the copy is the value plus the extra */
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Datatype t, int keyval, void *val, void *extra)
{
    (void)keyval, (void)extra;
    int sz = -1;
    MPI_Type_size(t, &sz); /* the type is still valid while its attributes go */
    deletes++;
    last_deleted = (int)(MPI_Aint)val * 100 + sz;
    return MPI_SUCCESS;
}

static int failing_copy(MPI_Datatype t, int k, void *e, void *in, void *out, int *flag)
{
    (void)t, (void)k, (void)e, (void)in, (void)out, (void)flag;
    return MPI_ERR_OTHER;
}

static void attributes(void)
{
    static int step = 5;
    int k, kdup, kfail;
    CHECK_OK(MPI_Type_create_keyval(copy_fn, delete_fn, &k, &step));
    CHECK_OK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &kdup, NULL));
    MPI_Datatype t, d;
    CHECK_OK(MPI_Type_contiguous(3, MPI_INT, &t));
    void *v = NULL;
    int flag = -1;
    CHECK_OK(MPI_Type_get_attr(t, k, &v, &flag));
    CHECK(flag == 0);
    CHECK_OK(MPI_Type_set_attr(t, k, (void *)(MPI_Aint)1));
    CHECK_OK(MPI_Type_set_attr(t, k, (void *)(MPI_Aint)2)); /* replaces: deletes 1 */
    CHECK(deletes == 1 && last_deleted == 112);
    CHECK_OK(MPI_Type_set_attr(t, kdup, (void *)(MPI_Aint)77));
    CHECK_OK(MPI_Type_get_attr(t, k, &v, &flag));
    CHECK(flag == 1 && v == (void *)(MPI_Aint)2);

    CHECK_OK(MPI_Type_dup(t, &d));
    CHECK(copies == 1);
    CHECK_OK(MPI_Type_get_attr(d, k, &v, &flag));
    CHECK(flag == 1 && v == (void *)(MPI_Aint)7);
    CHECK_OK(MPI_Type_get_attr(d, kdup, &v, &flag));
    CHECK(flag == 1 && v == (void *)(MPI_Aint)77);

    CHECK_OK(MPI_Type_delete_attr(d, k));
    CHECK(deletes == 2 && last_deleted == 712);
    CHECK_OK(MPI_Type_get_attr(d, k, &v, &flag));
    CHECK(flag == 0);
    CHECK_OK(MPI_Type_free(&d));
    CHECK(deletes == 2);

    /* A freed keyval stays with the attributes still attached. */
    CHECK_OK(MPI_Type_free_keyval(&k));
    CHECK(k == MPI_KEYVAL_INVALID);
    CHECK_OK(MPI_Type_free(&t));
    CHECK(deletes == 3 && last_deleted == 212);

    /* Predefined types carry attributes too. */
    CHECK_OK(MPI_Type_set_attr(MPI_DOUBLE, kdup, (void *)(MPI_Aint)9));
    CHECK_OK(MPI_Type_get_attr(MPI_DOUBLE, kdup, &v, &flag));
    CHECK(flag == 1 && v == (void *)(MPI_Aint)9);
    CHECK_OK(MPI_Type_delete_attr(MPI_DOUBLE, kdup));

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK_OK(MPI_Type_create_keyval(failing_copy, MPI_TYPE_NULL_DELETE_FN, &kfail, NULL));
    CHECK_OK(MPI_Type_contiguous(2, MPI_INT, &t));
    CHECK_OK(MPI_Type_set_attr(t, kfail, NULL));
    d = MPI_DATATYPE_NULL;
    EXPECT_CLASS(MPI_Type_dup(t, &d), MPI_ERR_OTHER);
    CHECK(d == MPI_DATATYPE_NULL);
    CHECK_OK(MPI_Type_free(&t));
    EXPECT_CLASS(MPI_Type_get_attr(MPI_INT, k, &v, &flag), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Type_set_attr(MPI_DATATYPE_NULL, kdup, NULL), MPI_ERR_TYPE);
    int bad = 12345;
    EXPECT_CLASS(MPI_Type_free_keyval(&bad), MPI_ERR_KEYVAL);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    CHECK_OK(MPI_Type_free_keyval(&kdup));
    CHECK_OK(MPI_Type_free_keyval(&kfail));
}

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    CHECK_OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    names();
    f90();
    ext32_long();
    ext32_pairs();
    ext32_long_double();
    huge_contiguous();
    attributes();
    return check_finish();
}
