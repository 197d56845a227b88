//! The `external32` form of each primitive element (MPI 4.1 §13.5.2's table): big-endian,
//! with `long` / `unsigned long` 4 bytes (narrowed with a range check), pair types as their
//! members in sequence without padding, and `long double` as a 16-byte IEEE quad (converted
//! from the x86-64 80-bit format). [`Ext`] says how one element converts; [`to_ext`] and
//! [`from_ext`] convert whole signatures.

use super::layout::Type;
use crate::errors::report::{MpiError, Result};
use std::ffi::c_int;

/// `MPI_ERR_CONVERSION`: a value has no representation in the other form.
pub const MPI_ERR_CONVERSION: c_int = 25;

/// One scalar's conversion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scalar {
    /// Same size; each element of this many bytes is byte-reversed.
    Swap(usize),
    /// An 8-byte signed native integer, 4 bytes in `external32`.
    Long,
    /// An 8-byte unsigned native integer, 4 bytes in `external32`.
    ULong,
    /// The x86-64 80-bit `long double` in 16 bytes, a 16-byte IEEE quad in `external32`.
    X87,
}

impl Scalar {
    /// `(native size, external32 size)`.
    fn sizes(self) -> (usize, usize) {
        match self {
            Scalar::Swap(n) => (n, n),
            Scalar::Long | Scalar::ULong => (8, 4),
            Scalar::X87 => (16, 16),
        }
    }

    fn encode(self, src: &[u8], out: &mut Vec<u8>) -> Result<()> {
        match self {
            Scalar::Swap(n) => out.extend(src[..n].iter().rev()),
            Scalar::Long => {
                let v = i64::from_ne_bytes(src[..8].try_into().unwrap());
                let v = i32::try_from(v).map_err(|_| out_of_range(v.to_string(), "long"))?;
                out.extend(v.to_be_bytes());
            }
            Scalar::ULong => {
                let v = u64::from_ne_bytes(src[..8].try_into().unwrap());
                let v =
                    u32::try_from(v).map_err(|_| out_of_range(v.to_string(), "unsigned long"))?;
                out.extend(v.to_be_bytes());
            }
            Scalar::X87 => out.extend(x87_to_quad(src).to_be_bytes()),
        }
        Ok(())
    }

    fn decode(self, src: &[u8], dst: &mut [u8]) {
        match self {
            Scalar::Swap(n) => {
                for (d, s) in dst[..n].iter_mut().zip(src[..n].iter().rev()) {
                    *d = *s;
                }
            }
            Scalar::Long => {
                let v = i32::from_be_bytes(src[..4].try_into().unwrap());
                dst[..8].copy_from_slice(&i64::from(v).to_ne_bytes());
            }
            Scalar::ULong => {
                let v = u32::from_be_bytes(src[..4].try_into().unwrap());
                dst[..8].copy_from_slice(&u64::from(v).to_ne_bytes());
            }
            Scalar::X87 => {
                let q = u128::from_be_bytes(src[..16].try_into().unwrap());
                dst[..16].copy_from_slice(&quad_to_x87(q));
            }
        }
    }
}

fn out_of_range(v: String, what: &str) -> MpiError {
    MpiError::new(
        MPI_ERR_CONVERSION,
        format!("the {what} value {v} does not fit the 4 bytes of its external32 form"),
    )
}

/// How a primitive element converts to `external32`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ext {
    /// No `external32` form in this shim.
    None,
    /// The element is this scalar repeated (twice for complex types).
    One(Scalar),
    /// A pair type: the first member at offset 0, the second at this native offset (native
    /// padding is dropped).
    Pair(Scalar, usize, Scalar),
}

impl Ext {
    /// Bytes of the `external32` form of one element of native size `size`, if it has one.
    pub fn size(self, size: usize) -> Option<usize> {
        match self {
            Ext::None => None,
            Ext::One(s) => {
                let (n, e) = s.sizes();
                Some(size / n * e)
            }
            Ext::Pair(a, _, b) => Some(a.sizes().1 + b.sizes().1),
        }
    }
}

fn no_form() -> MpiError {
    MpiError::new(
        crate::consts::MPI_ERR_TYPE,
        "the datatype holds an element without an external32 form here",
    )
}

/// Bytes of the `external32` form of one instance of `ty`.
pub fn ext_size(ty: &Type) -> Result<usize> {
    ty.sig.iter().try_fold(0usize, |acc, &(p, reps)| {
        let one = p.ext.size(p.size).ok_or_else(no_form)?;
        Ok(acc + one * reps)
    })
}

/// Converts `native` (packed instances of `ty`) to `external32`, appended to `out`.
pub fn to_ext(native: &[u8], ty: &Type, out: &mut Vec<u8>) -> Result<()> {
    if ty.size == 0 {
        return Ok(());
    }
    for inst in native.chunks(ty.size) {
        let mut at = 0;
        for &(p, reps) in &ty.sig {
            for _ in 0..reps {
                let el = &inst[at..at + p.size];
                match p.ext {
                    Ext::None => return Err(no_form()),
                    Ext::One(s) => {
                        for part in el.chunks(s.sizes().0) {
                            s.encode(part, out)?;
                        }
                    }
                    Ext::Pair(a, off, b) => {
                        a.encode(el, out)?;
                        b.encode(&el[off..], out)?;
                    }
                }
                at += p.size;
            }
        }
    }
    Ok(())
}

/// Converts `ext` (`external32` instances of `ty`) to the native packed form in `native`
/// (`native.len()` is a whole number of instances).
pub fn from_ext(ext: &[u8], ty: &Type, native: &mut [u8]) -> Result<()> {
    if ty.size == 0 {
        return Ok(());
    }
    let mut src = 0;
    for inst in native.chunks_mut(ty.size) {
        let mut at = 0;
        for &(p, reps) in &ty.sig {
            for _ in 0..reps {
                let el = &mut inst[at..at + p.size];
                match p.ext {
                    Ext::None => return Err(no_form()),
                    Ext::One(s) => {
                        let (n, e) = s.sizes();
                        for part in el.chunks_mut(n) {
                            s.decode(&ext[src..], part);
                            src += e;
                        }
                    }
                    Ext::Pair(a, off, b) => {
                        a.decode(&ext[src..], el);
                        src += a.sizes().1;
                        b.decode(&ext[src..], &mut el[off..]);
                        src += b.sizes().1;
                    }
                }
                at += p.size;
            }
        }
    }
    Ok(())
}

/// The 80-bit extended value in the first 10 bytes of `src` as IEEE quad bits. The exponent
/// bias is the same; the explicit integer bit is dropped (exact: 63 fraction bits fit 112).
fn x87_to_quad(src: &[u8]) -> u128 {
    let mant = u64::from_le_bytes(src[..8].try_into().unwrap());
    let se = u16::from_le_bytes(src[8..10].try_into().unwrap());
    let mut exp = u128::from(se & 0x7fff);
    // A pseudo-denormal (exponent 0 with the integer bit set) has the value of exponent 1.
    if exp == 0 && mant >> 63 == 1 {
        exp = 1;
    }
    let frac = u128::from(mant & !(1 << 63)) << 49;
    (u128::from(se >> 15) << 127) | (exp << 112) | frac
}

/// IEEE quad bits as the 16 native bytes of an 80-bit extended value (fraction rounded to
/// nearest, ties to even; exact for values that came from [`x87_to_quad`]).
fn quad_to_x87(q: u128) -> [u8; 16] {
    let sign = (q >> 127) as u16;
    let mut exp = ((q >> 112) & 0x7fff) as u16;
    let frac = q & ((1u128 << 112) - 1);
    let mut f63 = (frac >> 49) as u64;
    let rest = frac & ((1u128 << 49) - 1);
    let half = 1u128 << 48;
    if exp != 0x7fff && (rest > half || (rest == half && f63 & 1 == 1)) {
        f63 += 1;
        if f63 >> 63 == 1 {
            // The fraction overflowed into the integer bit: the next binade.
            f63 = 0;
            exp += 1;
        }
    } else if exp == 0x7fff && frac != 0 && f63 == 0 {
        f63 = 1 << 62; // keep a NaN a NaN (quiet)
    }
    let int_bit = u64::from(exp != 0);
    let mant = (int_bit << 63) | f63;
    let mut out = [0u8; 16];
    out[..8].copy_from_slice(&mant.to_le_bytes());
    out[8..10].copy_from_slice(&((sign << 15) | exp).to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 80-bit bytes of `x` (an f64), built by hand: exact, as f64 fits the 64-bit mantissa.
    fn x87_of(x: f64) -> [u8; 16] {
        let b = x.to_bits();
        let sign = (b >> 63) as u16;
        let e = ((b >> 52) & 0x7ff) as u16;
        let f = b & ((1 << 52) - 1);
        let mut out = [0u8; 16];
        if e == 0 {
            out[8..10].copy_from_slice(&(sign << 15).to_le_bytes());
            return out; // zero (no f64 subnormals in these tests)
        }
        let mant = (1u64 << 63) | (f << 11);
        out[..8].copy_from_slice(&mant.to_le_bytes());
        let exp = e + (16383 - 1023);
        out[8..10].copy_from_slice(&((sign << 15) | exp).to_le_bytes());
        out
    }

    #[test]
    fn long_double_round_trips_as_quad() {
        for x in [1.0f64, -2.5, 255.0, 1e300, -3.25e-300, 0.0] {
            let n = x87_of(x);
            let q = x87_to_quad(&n);
            // The quad's top 64 bits hold sign, exponent and the top 48 fraction bits.
            let hi = (q >> 64) as u64;
            if x != 0.0 {
                let e = ((hi >> 48) & 0x7fff) as i64 - 16383;
                assert_eq!(e, ((x.to_bits() >> 52) & 0x7ff) as i64 - 1023, "{x}");
            }
            assert_eq!(hi >> 63, u64::from(x.is_sign_negative()));
            assert_eq!(quad_to_x87(q), n, "{x}");
        }
        // 1.0 as a quad is 0x3fff followed by zeros.
        assert_eq!(x87_to_quad(&x87_of(1.0)), 0x3fffu128 << 112);
    }

    #[test]
    fn long_narrows_with_range_check() {
        let mut out = Vec::new();
        Scalar::Long
            .encode(&(-5i64).to_ne_bytes(), &mut out)
            .unwrap();
        assert_eq!(out, (-5i32).to_be_bytes());
        let mut back = [0u8; 8];
        Scalar::Long.decode(&out, &mut back);
        assert_eq!(i64::from_ne_bytes(back), -5);
        let e = Scalar::Long.encode(&(1i64 << 40).to_ne_bytes(), &mut out);
        assert_eq!(e.unwrap_err().class, MPI_ERR_CONVERSION);
        let e = Scalar::ULong.encode(&u64::MAX.to_ne_bytes(), &mut out);
        assert!(e.is_err());
    }
}
