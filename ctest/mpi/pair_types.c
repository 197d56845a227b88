/*
 * pair_types.c: the MINLOC / MAXLOC pair types (MPI 4.1 §6.9.4). Their size counts the value
 * and the int only (MPI_DOUBLE_INT 12, MPI_SHORT_INT 6, MPI_LONG_DOUBLE_INT 20 bytes on
 * x86-64), their extent is the C struct's (padding included, as MPICH and Open MPI report);
 * sends move the data bytes of each struct and leave the receiver's padding alone; MINLOC /
 * MAXLOC reductions and MPI_Get_count see whole pairs.
 */
#include "mpi_check.h"
#include <stddef.h>

struct di { double v; int i; };
struct si { short v; int i; };
struct li { long v; int i; };
struct ldi { long double v; int i; };

#define SIZE_EXTENT(type, size, ext)                                                    \
    do {                                                                                \
        int s_ = -1;                                                                    \
        MPI_Aint lb_ = -1, ext_ = -1;                                                   \
        CHECK_OK(MPI_Type_size(type, &s_));                                             \
        CHECK_OK(MPI_Type_get_extent(type, &lb_, &ext_));                               \
        if (s_ != (int)(size) || lb_ != 0 || ext_ != (MPI_Aint)(ext))                   \
            fprintf(stderr, "[rank %d] %s: size %d, lb %ld, extent %ld (want %d, 0, %ld)\n", \
                    check_rank, #type, s_, (long)lb_, (long)ext_, (int)(size), (long)(ext)); \
        CHECK(s_ == (int)(size) && lb_ == 0 && ext_ == (MPI_Aint)(ext));                \
    } while (0)

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    MPI_Comm w = MPI_COMM_WORLD;
    int size, me = check_rank;
    CHECK_OK(MPI_Comm_size(w, &size));

    SIZE_EXTENT(MPI_DOUBLE_INT, sizeof(double) + sizeof(int), sizeof(struct di));
    SIZE_EXTENT(MPI_SHORT_INT, sizeof(short) + sizeof(int), sizeof(struct si));
    SIZE_EXTENT(MPI_LONG_INT, sizeof(long) + sizeof(int), sizeof(struct li));
    SIZE_EXTENT(MPI_LONG_DOUBLE_INT, 20, sizeof(struct ldi));
    SIZE_EXTENT(MPI_FLOAT_INT, 8, 8);
    SIZE_EXTENT(MPI_2INT, 8, 8);
    CHECK(sizeof(struct di) == 16 && sizeof(struct si) == 8);

    /* MINLOC / MAXLOC over 3 pairs: value k*(rank+1) for rank-dependent signs. */
    struct di din[3], dmin[3], dmax[3];
    for (int k = 0; k < 3; k++) {
        din[k].v = (k == 1 ? -1.0 : 1.0) * (me % 2 ? 10.0 - me : me + 0.5);
        din[k].i = me * 100 + k;
    }
    CHECK_OK(MPI_Allreduce(din, dmin, 3, MPI_DOUBLE_INT, MPI_MINLOC, w));
    CHECK_OK(MPI_Allreduce(din, dmax, 3, MPI_DOUBLE_INT, MPI_MAXLOC, w));
    double lo = 1e300, hi = -1e300;
    int ilo = -1, ihi = -1;
    for (int r = 0; r < size; r++) {
        double v = r % 2 ? 10.0 - r : r + 0.5;
        if (v < lo) lo = v, ilo = r;
        if (v > hi) hi = v, ihi = r;
    }
    int ok = dmin[0].v == lo && dmin[0].i == ilo * 100 && dmax[0].v == hi &&
             dmax[0].i == ihi * 100 && dmin[1].v == -hi && dmin[1].i == ihi * 100 + 1 &&
             dmax[1].v == -lo && dmax[1].i == ilo * 100 + 1 && dmin[2].i == ilo * 100 + 2;
    if (!ok)
        fprintf(stderr, "[rank %d] MPI_DOUBLE_INT MINLOC/MAXLOC: min (%g,%d) (%g,%d), max "
                        "(%g,%d) (%g,%d); want min (%g,%d) max (%g,%d)\n", me, dmin[0].v,
                dmin[0].i, dmin[1].v, dmin[1].i, dmax[0].v, dmax[0].i, dmax[1].v, dmax[1].i,
                lo, ilo * 100, hi, ihi * 100);
    CHECK(ok);

    struct si sin[2] = {{(short)(-me), me}, {(short)me, me}}, sout[2];
    CHECK_OK(MPI_Allreduce(sin, sout, 2, MPI_SHORT_INT, MPI_MINLOC, w));
    CHECK(sout[0].v == -(size - 1) && sout[0].i == size - 1 && sout[1].v == 0 && sout[1].i == 0);
    struct li lin = {(long)me << 33, me}, lout;
    CHECK_OK(MPI_Allreduce(&lin, &lout, 1, MPI_LONG_INT, MPI_MAXLOC, w));
    CHECK(lout.v == (long)(size - 1) << 33 && lout.i == size - 1);

    /* Local reduction and the wrong op. */
    struct di a[2] = {{3.0, 1}, {5.0, 2}}, b[2] = {{3.0, 0}, {4.0, 9}};
    CHECK_OK(MPI_Reduce_local(a, b, 2, MPI_DOUBLE_INT, MPI_MINLOC));
    CHECK(b[0].v == 3.0 && b[0].i == 0 && b[1].v == 4.0 && b[1].i == 9);
    CHECK_OK(MPI_Comm_set_errhandler(w, MPI_ERRORS_RETURN));
    EXPECT_CLASS(MPI_Reduce_local(a, b, 2, MPI_DOUBLE_INT, MPI_SUM), MPI_ERR_OP);

    /* A send moves the data of each struct; the receiver's padding stays as it was. */
    int next = (me + 1) % size, prev = (me + size - 1) % size;
    struct di out[3], in[3];
    memset(out, 0x11, sizeof out);
    memset(in, 0x5a, sizeof in);
    for (int k = 0; k < 3; k++)
        out[k].v = me + k * 0.5, out[k].i = -me - k;
    MPI_Status st;
    CHECK_OK(MPI_Sendrecv(out, 3, MPI_DOUBLE_INT, next, 3, in, 3, MPI_DOUBLE_INT, prev, 3, w,
                          &st));
    int n = -1, bytes = -1;
    CHECK_OK(MPI_Get_count(&st, MPI_DOUBLE_INT, &n));
    CHECK_OK(MPI_Get_count(&st, MPI_BYTE, &bytes));
    if (n != 3 || bytes != 36)
        fprintf(stderr, "[rank %d] received %d MPI_DOUBLE_INT in %d bytes (want 3 in 36)\n", me,
                n, bytes);
    CHECK(n == 3 && bytes == 36);
    for (int k = 0; k < 3; k++) {
        const unsigned char *pad = (const unsigned char *)&in[k] + offsetof(struct di, i) + 4;
        CHECK(in[k].v == prev + k * 0.5 && in[k].i == -prev - k);
        CHECK(pad[0] == 0x5a && pad[3] == 0x5a);
    }
    struct si sout2[2], sin2[2];
    memset(sin2, 0x5a, sizeof sin2);
    sout2[0].v = 7, sout2[0].i = 8, sout2[1].v = -7, sout2[1].i = -8;
    CHECK_OK(MPI_Sendrecv(sout2, 2, MPI_SHORT_INT, next, 4, sin2, 2, MPI_SHORT_INT, prev, 4, w,
                          &st));
    CHECK_OK(MPI_Get_count(&st, MPI_BYTE, &bytes));
    CHECK(bytes == 12 && sin2[0].v == 7 && sin2[0].i == 8 && sin2[1].v == -7 && sin2[1].i == -8);

    return check_finish();
}
