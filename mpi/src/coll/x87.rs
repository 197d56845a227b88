//! Arithmetic on x86-64 `long double` (the x87 80-bit extended format in a 16-byte slot) for
//! the reductions on `MPI_LONG_DOUBLE` and `MPI_C_LONG_DOUBLE_COMPLEX`. Rust has no such type:
//! additions and products run on the x87 unit through inline assembly (exactly what C does
//! with `long double`), comparisons on the bit pattern. Only built for x86-64; elsewhere those
//! reductions are refused (see [`crate::coll::reducers`]).

use std::arch::asm;

/// Bytes of one `long double` slot (the value is in the first 10).
pub const SLOT: usize = 16;

/// `out = a + b` (`mul`: `a * b`), each the first 10 bytes of an 80-bit value.
fn arith(a: &[u8], b: &[u8], out: &mut [u8], mul: bool) {
    assert!(a.len() >= 10 && b.len() >= 10 && out.len() >= 10);
    let (pa, pb, po) = (a.as_ptr(), b.as_ptr(), out.as_mut_ptr());
    // SAFETY: each pointer covers 10 readable (writable for `po`) bytes (checked above); the
    // x87 stack is left as found (two loads, one pop in the arithmetic, one in the store).
    unsafe {
        if mul {
            asm!(
                "fld tbyte ptr [{a}]",
                "fld tbyte ptr [{b}]",
                "fmulp",
                "fstp tbyte ptr [{o}]",
                a = in(reg) pa, b = in(reg) pb, o = in(reg) po,
                out("st(0)") _, out("st(1)") _,
                options(nostack),
            );
        } else {
            asm!(
                "fld tbyte ptr [{a}]",
                "fld tbyte ptr [{b}]",
                "faddp",
                "fstp tbyte ptr [{o}]",
                a = in(reg) pa, b = in(reg) pb, o = in(reg) po,
                out("st(0)") _, out("st(1)") _,
                options(nostack),
            );
        }
    }
}

/// `acc += inc`.
pub fn add(acc: &mut [u8], inc: &[u8]) {
    let mut r = [0u8; 10];
    arith(acc, inc, &mut r, false);
    acc[..10].copy_from_slice(&r);
}

/// `acc *= inc`.
pub fn mul(acc: &mut [u8], inc: &[u8]) {
    let mut r = [0u8; 10];
    arith(acc, inc, &mut r, true);
    acc[..10].copy_from_slice(&r);
}

/// An order key of the value in `x` (`None` for a NaN): sign, then exponent and significand.
pub fn key(x: &[u8]) -> Option<i128> {
    let mant = u64::from_le_bytes(x[..8].try_into().unwrap());
    let se = u16::from_le_bytes(x[8..10].try_into().unwrap());
    let exp = se & 0x7fff;
    // An all-ones exponent with a fraction (beyond the explicit integer bit) is a NaN.
    if exp == 0x7fff && mant << 1 != 0 {
        return None;
    }
    let mag = (i128::from(exp) << 64) | i128::from(mant);
    Some(if se & 0x8000 != 0 { -mag } else { mag })
}

/// `acc = min(acc, inc)` (`max`: the maximum); a NaN operand loses to a number, as in the
/// engine's float kernels.
pub fn min_max(acc: &mut [u8], inc: &[u8], max: bool) {
    let take = match (key(acc), key(inc)) {
        (_, None) => false,
        (None, Some(_)) => true,
        (Some(a), Some(i)) => {
            if max {
                i > a
            } else {
                i < a
            }
        }
    };
    if take {
        acc[..10].copy_from_slice(&inc[..10]);
    }
}

/// `acc *= inc` for complex values (real part in the first slot, imaginary in the second):
/// `(a + bi)(c + di) = (ac - bd) + (ad + bc)i`, each product rounded to 80 bits as C does.
pub fn complex_mul(acc: &mut [u8], inc: &[u8]) {
    let (a, b) = acc.split_at(SLOT);
    let (c, d) = inc.split_at(SLOT);
    let (mut ac, mut bd, mut ad, mut bc) = ([0u8; 10], [0u8; 10], [0u8; 10], [0u8; 10]);
    arith(a, c, &mut ac, true);
    arith(b, d, &mut bd, true);
    arith(a, d, &mut ad, true);
    arith(b, c, &mut bc, true);
    bd[9] ^= 0x80; // -bd: flip the sign bit
    let (mut re, mut im) = ([0u8; 10], [0u8; 10]);
    arith(&ac, &bd, &mut re, false);
    arith(&ad, &bc, &mut im, false);
    acc[..10].copy_from_slice(&re);
    acc[SLOT..SLOT + 10].copy_from_slice(&im);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 80-bit form of small integer `v` (exact).
    fn ld(v: i64) -> [u8; SLOT] {
        let mut out = [0u8; SLOT];
        if v == 0 {
            return out;
        }
        let m = v.unsigned_abs();
        let shift = m.leading_zeros();
        out[..8].copy_from_slice(&(m << shift).to_le_bytes());
        let exp = 16383 + 63 - shift as u16;
        let se = exp | if v < 0 { 0x8000 } else { 0 };
        out[8..10].copy_from_slice(&se.to_le_bytes());
        out
    }

    #[test]
    fn add_mul_min_max_complex() {
        let mut a = ld(6);
        add(&mut a, &ld(-8));
        assert_eq!(a, ld(-2));
        mul(&mut a, &ld(-21));
        assert_eq!(a, ld(42));
        min_max(&mut a, &ld(-5), false);
        assert_eq!(a, ld(-5));
        min_max(&mut a, &ld(7), true);
        assert_eq!(a, ld(7));
        let nan = {
            let mut n = [0u8; SLOT];
            n[..8].copy_from_slice(&0xc000_0000_0000_0000u64.to_le_bytes());
            n[8..10].copy_from_slice(&0x7fffu16.to_le_bytes());
            n
        };
        min_max(&mut a, &nan, true);
        assert_eq!(a, ld(7));
        // (1 + 2i)(3 + 4i) = -5 + 10i
        let mut z = [ld(1), ld(2)].concat();
        complex_mul(&mut z, &[ld(3), ld(4)].concat());
        assert_eq!(z, [ld(-5), ld(10)].concat());
    }
}
