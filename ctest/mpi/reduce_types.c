/*
 * reduce_types.c: predefined reductions on the types with no plain engine kernel
 * (MPI 4.1 §6.9.2): MPI_LONG_DOUBLE with SUM, PROD, MIN, MAX at full 80-bit precision,
 * MPI_C_LONG_DOUBLE_COMPLEX with SUM and PROD, PROD on the float and double complex types
 * (complex multiplication), and MPI_BYTE, which takes only BAND / BOR / BXOR (SUM is
 * MPI_ERR_OP).
 */
#include "mpi_check.h"
#include <complex.h>

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    MPI_Comm w = MPI_COMM_WORLD;
    int size, me = check_rank;
    CHECK_OK(MPI_Comm_size(w, &size));
    CHECK_OK(MPI_Comm_set_errhandler(w, MPI_ERRORS_RETURN));

    /* 1 + (rank+1) * 2^-60: the sum keeps the small part only at long double precision. */
    long double tiny = 1.0L / 1152921504606846976.0L; /* 2^-60 */
    long double x = 1.0L + (me + 1) * tiny, sum = 0, want = size + tiny * size * (size + 1) / 2;
    CHECK_OK(MPI_Allreduce(&x, &sum, 1, MPI_LONG_DOUBLE, MPI_SUM, w));
    if (sum != want)
        fprintf(stderr, "[rank %d] long double SUM: %.21Lg, want %.21Lg\n", me, sum, want);
    CHECK(sum == want);

    long double f = me + 1, prod = 0, fact = 1;
    for (int r = 1; r <= size; r++)
        fact *= r;
    CHECK_OK(MPI_Allreduce(&f, &prod, 1, MPI_LONG_DOUBLE, MPI_PROD, w));
    CHECK(prod == fact);
    long double m[2] = {x, -x}, mins[2], maxs[2];
    CHECK_OK(MPI_Allreduce(m, mins, 2, MPI_LONG_DOUBLE, MPI_MIN, w));
    CHECK_OK(MPI_Allreduce(m, maxs, 2, MPI_LONG_DOUBLE, MPI_MAX, w));
    long double first = 1.0L + tiny, last = 1.0L + size * tiny;
    if (mins[0] != first || maxs[0] != last || mins[1] != -last || maxs[1] != -first)
        fprintf(stderr, "[rank %d] long double MIN/MAX: %.21Lg %.21Lg %.21Lg %.21Lg\n", me,
                mins[0], maxs[0], mins[1], maxs[1]);
    CHECK(mins[0] == first && maxs[0] == last && mins[1] == -last && maxs[1] == -first);
    EXPECT_CLASS(MPI_Allreduce(&f, &prod, 1, MPI_LONG_DOUBLE, MPI_BAND, w), MPI_ERR_OP);

    /* Complex values (rank+1) + i, all small integers: the products are exact. */
    long double _Complex lz = (me + 1) + 1.0L * I, lsum = 0, lprod = 0, lwant_s = 0,
                         lwant_p = 1;
    double _Complex dz = (me + 1) + 1.0 * I, dprod = 0, dwant = 1;
    float _Complex fz = (me + 1) - 1.0f * I, fprod = 0, fwant = 1;
    for (int r = 0; r < size; r++) {
        lwant_s += (r + 1) + 1.0L * I;
        lwant_p *= (r + 1) + 1.0L * I;
        dwant *= (r + 1) + 1.0 * I;
        fwant *= (r + 1) - 1.0f * I;
    }
    CHECK_OK(MPI_Allreduce(&lz, &lsum, 1, MPI_C_LONG_DOUBLE_COMPLEX, MPI_SUM, w));
    CHECK_OK(MPI_Allreduce(&lz, &lprod, 1, MPI_C_LONG_DOUBLE_COMPLEX, MPI_PROD, w));
    CHECK_OK(MPI_Allreduce(&dz, &dprod, 1, MPI_C_DOUBLE_COMPLEX, MPI_PROD, w));
    CHECK_OK(MPI_Allreduce(&fz, &fprod, 1, MPI_C_FLOAT_COMPLEX, MPI_PROD, w));
    if (lsum != lwant_s || lprod != lwant_p || dprod != dwant || fprod != fwant)
        fprintf(stderr, "[rank %d] complex: long double sum %Lg%+Lgi prod %Lg%+Lgi (want "
                        "%Lg%+Lgi), double prod %g%+gi (want %g%+gi), float prod %g%+gi "
                        "(want %g%+gi)\n", me, creall(lsum), cimagl(lsum), creall(lprod),
                cimagl(lprod), creall(lwant_p), cimagl(lwant_p), creal(dprod), cimag(dprod),
                creal(dwant), cimag(dwant), (double)crealf(fprod), (double)cimagf(fprod),
                (double)crealf(fwant), (double)cimagf(fwant));
    CHECK(lsum == lwant_s && lprod == lwant_p && dprod == dwant && fprod == fwant);
    double _Complex two[2] = {dz, 2.0 * I}, inout[2] = {1.0 * I, 3.0};
    CHECK_OK(MPI_Reduce_local(two, inout, 2, MPI_C_DOUBLE_COMPLEX, MPI_PROD));
    CHECK(inout[0] == dz * I && inout[1] == 6.0 * I);
    EXPECT_CLASS(MPI_Allreduce(&dz, &dprod, 1, MPI_C_DOUBLE_COMPLEX, MPI_MAX, w), MPI_ERR_OP);

    /* MPI_BYTE: bitwise only. */
    unsigned char bits = (unsigned char)(1u << (me % 8)), any = 0, one = 1, out = 0;
    EXPECT_CLASS(MPI_Allreduce(&bits, &any, 1, MPI_BYTE, MPI_SUM, w), MPI_ERR_OP);
    EXPECT_CLASS(MPI_Reduce_local(&one, &out, 1, MPI_BYTE, MPI_SUM), MPI_ERR_OP);
    EXPECT_CLASS(MPI_Reduce_local(&one, &out, 1, MPI_BYTE, MPI_MAX), MPI_ERR_OP);
    CHECK_OK(MPI_Allreduce(&bits, &any, 1, MPI_BYTE, MPI_BOR, w));
    unsigned char want_bits = 0;
    for (int r = 0; r < size; r++)
        want_bits |= (unsigned char)(1u << (r % 8));
    CHECK(any == want_bits);
    /* MPI_UNSIGNED_CHAR still sums. */
    unsigned char uc = 1, ucs = 0;
    CHECK_OK(MPI_Allreduce(&uc, &ucs, 1, MPI_UNSIGNED_CHAR, MPI_SUM, w));
    CHECK(ucs == size);

    return check_finish();
}
