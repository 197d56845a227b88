//! The reducer of a predefined operation on a datatype ([`builtin`]): the engine's kernel for
//! the datatype's element type where it has one, else a custom reducer of this file: complex
//! products, x86-64 `long double` (real and complex, through [`crate::coll::x87`]), and the
//! padded pair types (`MPI_DOUBLE_INT`, ...), whose packed form (the value, then the `int`) is
//! widened to the padded element the engine's MINLOC / MAXLOC kernels take. `MPI_BYTE` takes
//! the bitwise operations only (MPI 4.1 §6.9.2).

use crate::consts::*;
use crate::datatype::layout::{Red, Type};
use crate::errors::report::{MpiError, Result};
use nexar::{CustomOp, Datatype, Order, ReduceOp, Reducer};
use std::sync::Arc;

/// `MPI_LONG_DOUBLE`.
const LONG_DOUBLE: usize = 0x220;
use crate::datatype::predefined::MPI_LONG_DOUBLE_INT as LONG_DOUBLE_INT;
/// `MPI_C_LONG_DOUBLE_COMPLEX` and `MPI_CXX_LONG_DOUBLE_COMPLEX`.
const LONG_DOUBLE_COMPLEX: [usize; 2] = [0x224, 0x225];

fn refused(op: ReduceOp, what: &str) -> MpiError {
    MpiError::new(MPI_ERR_OP, format!("{op:?} is not defined on {what}"))
}

/// The reducer of predefined `op` over packed data of `ty` (`len` bytes of it).
pub fn builtin(op: ReduceOp, ty: &Type, len: usize) -> Result<Reducer> {
    use ReduceOp::*;
    let name = if ty.name.is_empty() {
        "(derived)"
    } else {
        ty.name
    };
    let custom = |c: Arc<dyn CustomOp>| Ok(Reducer::custom(c));
    match ty.uniform() {
        Some(Red::Basic(d)) => Ok(Reducer::builtin(op, d)),
        Some(Red::Complex(d)) => match op {
            Sum => Ok(Reducer::builtin(Sum, d)),
            Prod if matches!(d, Datatype::F32 | Datatype::F64) => custom(Arc::new(ComplexProd(d))),
            _ => Err(refused(
                op,
                &format!("complex datatype {name} (MPI_SUM, MPI_PROD only)"),
            )),
        },
        Some(Red::Pair(d)) => {
            op.check(d)
                .map_err(|_| refused(op, &format!("pair type {name} (MINLOC, MAXLOC only)")))?;
            let elem = ty.sig[0].0.size;
            custom(Arc::new(PairReducer {
                op,
                padded: d,
                elem,
            }))
        }
        Some(Red::Byte) => match op {
            Band | Bor | Bxor => Ok(Reducer::builtin(op, Datatype::U8)),
            _ => Err(refused(
                op,
                &format!("{name} (MPI_BAND, MPI_BOR, MPI_BXOR only)"),
            )),
        },
        Some(Red::Opaque(h)) if cfg!(target_arch = "x86_64") && h == LONG_DOUBLE => match op {
            Sum | Prod | Min | Max => custom(Arc::new(LongDouble { op, complex: false })),
            _ => Err(refused(op, "MPI_LONG_DOUBLE (SUM, PROD, MIN, MAX only)")),
        },
        Some(Red::Opaque(h)) if cfg!(target_arch = "x86_64") && h == LONG_DOUBLE_INT => match op {
            MinLoc | MaxLoc => custom(Arc::new(LongDoubleLoc { max: op == MaxLoc })),
            _ => Err(refused(op, "MPI_LONG_DOUBLE_INT (MINLOC, MAXLOC only)")),
        },
        Some(Red::Opaque(h))
            if cfg!(target_arch = "x86_64") && LONG_DOUBLE_COMPLEX.contains(&h) =>
        {
            match op {
                Sum | Prod => custom(Arc::new(LongDouble { op, complex: true })),
                _ => Err(refused(op, &format!("{name} (MPI_SUM, MPI_PROD only)"))),
            }
        }
        None if len == 0 => Ok(Reducer::builtin(op, Datatype::U8)),
        _ => Err(MpiError::new(
            MPI_ERR_OP,
            format!(
                "datatype {name} has no reducible element type (mixed, or without a \
                 predefined reduction here)"
            ),
        )),
    }
}

/// `MPI_PROD` on `float` / `double` complex values: `(a + bi)(c + di) = (ac - bd) + (ad + bc)i`.
#[derive(Debug)]
struct ComplexProd(Datatype);

macro_rules! complex_prod {
    ($t:ty, $acc:expr, $inc:expr) => {{
        const W: usize = size_of::<$t>();
        let get =
            |b: &[u8], i: usize| <$t>::from_ne_bytes(b[i * W..(i + 1) * W].try_into().unwrap());
        for (a, i) in $acc.chunks_exact_mut(2 * W).zip($inc.chunks_exact(2 * W)) {
            let (ar, ai, ir, ii) = (get(a, 0), get(a, 1), get(i, 0), get(i, 1));
            a[..W].copy_from_slice(&(ar * ir - ai * ii).to_ne_bytes());
            a[W..].copy_from_slice(&(ar * ii + ai * ir).to_ne_bytes());
        }
    }};
}

impl CustomOp for ComplexProd {
    fn combine(&self, acc: &mut [u8], inc: &[u8], _order: Order) {
        match self.0 {
            Datatype::F32 => complex_prod!(f32, acc, inc),
            _ => complex_prod!(f64, acc, inc),
        }
    }

    fn elem_size(&self) -> usize {
        2 * self.0.size()
    }

    fn commutative(&self) -> bool {
        true
    }
}

/// `long double` (`complex`: `long double _Complex`) with SUM, PROD, MIN or MAX.
#[derive(Debug)]
struct LongDouble {
    op: ReduceOp,
    complex: bool,
}

impl CustomOp for LongDouble {
    #[cfg(target_arch = "x86_64")]
    fn combine(&self, acc: &mut [u8], inc: &[u8], _order: Order) {
        use crate::coll::x87;
        let e = self.elem_size();
        for (a, i) in acc.chunks_exact_mut(e).zip(inc.chunks_exact(e)) {
            match (self.op, self.complex) {
                (ReduceOp::Sum, _) => {
                    for (a, i) in a.chunks_exact_mut(x87::SLOT).zip(i.chunks_exact(x87::SLOT)) {
                        x87::add(a, i);
                    }
                }
                (ReduceOp::Prod, true) => x87::complex_mul(a, i),
                (ReduceOp::Prod, false) => x87::mul(a, i),
                (op, _) => x87::min_max(a, i, op == ReduceOp::Max),
            }
        }
    }

    #[cfg(not(target_arch = "x86_64"))]
    fn combine(&self, _acc: &mut [u8], _inc: &[u8], _order: Order) {
        unreachable!("long double reductions are refused off x86-64 (see `builtin`)")
    }

    fn elem_size(&self) -> usize {
        if self.complex { 32 } else { 16 }
    }

    fn commutative(&self) -> bool {
        true
    }
}

/// MINLOC / MAXLOC on `MPI_LONG_DOUBLE_INT` (x86-64), packed as the 16-byte `long double`
/// slot then the `int`: the larger (MAXLOC) or smaller value wins, equal values keep the
/// smaller index, and a NaN loses to a number (as in the engine's float kernels).
#[derive(Debug)]
struct LongDoubleLoc {
    max: bool,
}

/// Bytes of one packed `MPI_LONG_DOUBLE_INT`.
const LONG_DOUBLE_INT_BYTES: usize = 20;

impl CustomOp for LongDoubleLoc {
    #[cfg(target_arch = "x86_64")]
    fn combine(&self, acc: &mut [u8], inc: &[u8], _order: Order) {
        use crate::coll::x87::{SLOT, key};
        use std::cmp::Ordering::*;
        let e = LONG_DOUBLE_INT_BYTES;
        for (a, i) in acc.chunks_exact_mut(e).zip(inc.chunks_exact(e)) {
            let index = |x: &[u8]| i32::from_le_bytes(x[SLOT..].try_into().expect("4 bytes"));
            let take = match (key(&a[..SLOT]), key(&i[..SLOT])) {
                (_, None) => false,
                (None, Some(_)) => true,
                (Some(x), Some(y)) => match y.cmp(&x) {
                    Equal => index(i) < index(a),
                    Greater => self.max,
                    Less => !self.max,
                },
            };
            if take {
                a.copy_from_slice(i);
            }
        }
    }

    #[cfg(not(target_arch = "x86_64"))]
    fn combine(&self, _acc: &mut [u8], _inc: &[u8], _order: Order) {
        unreachable!("long double reductions are refused off x86-64 (see `builtin`)")
    }

    fn elem_size(&self) -> usize {
        LONG_DOUBLE_INT_BYTES
    }

    fn commutative(&self) -> bool {
        true
    }
}

/// MINLOC / MAXLOC on a padded pair type packed as `elem` bytes (the value, then the `int`):
/// each operand is widened to the engine's `padded` element, reduced by its kernel, and the
/// result packed back.
#[derive(Debug)]
struct PairReducer {
    op: ReduceOp,
    padded: Datatype,
    elem: usize,
}

impl PairReducer {
    fn widen(&self, packed: &[u8]) -> Vec<u8> {
        let (w, v) = (self.padded.size(), self.elem - 4);
        let at = self.padded.index_offset().expect("a pair type");
        let mut out = vec![0u8; packed.len() / self.elem * w];
        for (o, p) in out.chunks_exact_mut(w).zip(packed.chunks_exact(self.elem)) {
            o[..v].copy_from_slice(&p[..v]);
            o[at..at + 4].copy_from_slice(&p[v..]);
        }
        out
    }
}

impl CustomOp for PairReducer {
    fn combine(&self, acc: &mut [u8], inc: &[u8], order: Order) {
        let (mut a, i) = (self.widen(acc), self.widen(inc));
        Reducer::builtin(self.op, self.padded)
            .reduce_into(&mut a, &i, order)
            .expect("MINLOC / MAXLOC on a pair type (checked in `builtin`)");
        let (w, v) = (self.padded.size(), self.elem - 4);
        let at = self.padded.index_offset().expect("a pair type");
        for (p, o) in acc.chunks_exact_mut(self.elem).zip(a.chunks_exact(w)) {
            p[..v].copy_from_slice(&o[..v]);
            p[v..].copy_from_slice(&o[at..at + 4]);
        }
    }

    fn elem_size(&self) -> usize {
        self.elem
    }

    fn commutative(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datatype::predefined;

    fn reduce(op: ReduceOp, h: usize, acc: &mut [u8], inc: &[u8]) -> Result<()> {
        let ty = predefined::get(h).unwrap();
        let r = builtin(op, &ty, acc.len())?;
        r.reduce_into(acc, inc, Order::AccFirst).unwrap();
        Ok(())
    }

    fn di(v: f64, i: i32) -> Vec<u8> {
        [v.to_ne_bytes().as_slice(), &i.to_ne_bytes()].concat()
    }

    #[test]
    fn packed_pairs_minloc_maxloc() {
        let mut acc = [di(2.0, 5), di(1.0, 0)].concat();
        let inc = [di(2.0, 3), di(4.0, 1)].concat();
        reduce(ReduceOp::MinLoc, 0x229, &mut acc, &inc).unwrap();
        assert_eq!(acc, [di(2.0, 3), di(1.0, 0)].concat());
        reduce(ReduceOp::MaxLoc, 0x229, &mut acc, &inc).unwrap();
        assert_eq!(acc, [di(2.0, 3), di(4.0, 1)].concat());
        let si = |v: i16, i: i32| [v.to_ne_bytes().as_slice(), &i.to_ne_bytes()].concat();
        let mut acc = si(-4, 9);
        reduce(ReduceOp::MinLoc, 0x22c, &mut acc, &si(-7, 2)).unwrap();
        assert_eq!(acc, si(-7, 2));
        let e = reduce(ReduceOp::Sum, 0x229, &mut acc, &si(1, 1)).unwrap_err();
        assert_eq!(e.class, MPI_ERR_OP);
    }

    #[test]
    fn complex_product_and_byte_ops() {
        let c = |r: f64, i: f64| [r.to_ne_bytes(), i.to_ne_bytes()].concat();
        let mut acc = c(1.0, 2.0);
        reduce(ReduceOp::Prod, 0x216, &mut acc, &c(3.0, 4.0)).unwrap();
        assert_eq!(acc, c(-5.0, 10.0));
        let cf = |r: f32, i: f32| [r.to_ne_bytes(), i.to_ne_bytes()].concat();
        let mut acc = cf(0.0, 1.0);
        reduce(ReduceOp::Prod, 0x212, &mut acc, &cf(0.0, 1.0)).unwrap();
        assert_eq!(acc, cf(-1.0, 0.0));
        let mut b = [0b1100u8];
        assert_eq!(
            reduce(ReduceOp::Sum, 0x247, &mut b, &[1])
                .unwrap_err()
                .class,
            MPI_ERR_OP
        );
        reduce(ReduceOp::Bxor, 0x247, &mut b, &[0b1010]).unwrap();
        assert_eq!(b, [0b0110]);
    }

    /// x87 80-bit values in 16-byte slots: 1.0 is exponent 0x3fff with the integer bit set.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn long_double_int_minloc_maxloc() {
        let ldi = |exp: u16, neg: bool, i: i32| {
            let mut v = vec![0u8; 20];
            v[..8].copy_from_slice(&(1u64 << 63).to_le_bytes());
            v[8..10].copy_from_slice(&(exp | if neg { 0x8000 } else { 0 }).to_le_bytes());
            v[16..].copy_from_slice(&i.to_le_bytes());
            v
        };
        // 2.0 at index 5 and -1.0 at 0, against 2.0 at 3 and 4.0 at 1.
        let mut acc = [ldi(0x4000, false, 5), ldi(0x3fff, true, 0)].concat();
        let inc = [ldi(0x4000, false, 3), ldi(0x4001, false, 1)].concat();
        reduce(ReduceOp::MinLoc, 0x22d, &mut acc, &inc).unwrap();
        assert_eq!(acc, [ldi(0x4000, false, 3), ldi(0x3fff, true, 0)].concat());
        reduce(ReduceOp::MaxLoc, 0x22d, &mut acc, &inc).unwrap();
        assert_eq!(acc, [ldi(0x4000, false, 3), ldi(0x4001, false, 1)].concat());
        let e = reduce(ReduceOp::Sum, 0x22d, &mut acc, &inc).unwrap_err();
        assert_eq!(e.class, MPI_ERR_OP);
    }
}
