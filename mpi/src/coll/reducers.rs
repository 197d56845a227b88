//! The reducer of a predefined operation on a datatype ([`builtin`]): the engine's kernel for
//! the datatype's element type where it has one, else a custom reducer of this file: the
//! padded pair types (`MPI_DOUBLE_INT`, ...), whose packed form (the value, then the `int`) is
//! widened to the padded element the engine's MINLOC / MAXLOC kernels take.

use crate::consts::*;
use crate::datatype::layout::{Red, Type};
use crate::errors::report::{MpiError, Result};
use nexar::{CustomOp, Datatype, Order, ReduceOp, Reducer};
use std::sync::Arc;

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
    match ty.uniform() {
        Some(Red::Basic(d)) => Ok(Reducer::builtin(op, d)),
        Some(Red::Complex(d)) => match op {
            Sum => Ok(Reducer::builtin(Sum, d)),
            _ => Err(refused(
                op,
                &format!("complex datatype {name} (MPI_SUM only)"),
            )),
        },
        Some(Red::Pair(d)) => {
            op.check(d)
                .map_err(|_| refused(op, &format!("pair type {name} (MINLOC, MAXLOC only)")))?;
            let elem = ty.sig[0].0.size;
            Ok(Reducer::custom(Arc::new(PairReducer {
                op,
                padded: d,
                elem,
            })))
        }
        None if len == 0 => Ok(Reducer::builtin(op, Datatype::U8)),
        _ => Err(MpiError::new(
            MPI_ERR_OP,
            format!(
                "datatype {name} has no reducible element type (mixed or without a nexar \
                 equivalent, e.g. long double)"
            ),
        )),
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
}
