//! What a reduction machine combines with: a predefined operator on a predefined datatype, or a
//! custom (user-defined) combiner over opaque fixed-size elements.
//!
//! Every reduction machine holds a [`Reducer`] and combines through [`Reducer::reduce_into`]. The
//! predefined case goes straight to [`kernels::reduce_into`] (one extra branch, no allocation).
//! A custom combiner only promises what [`CustomOp`] says: it need not be commutative, so
//! machines always put the lower-ranked partial result on the left, and the selection
//! ([`crate::select`]) picks only order-preserving algorithms for a non-commutative one.

use crate::prelude::*;

use crate::datatype::Datatype;
use crate::error::ProtoError;
use crate::kernels::{self, Order};
use crate::op::ReduceOp;
use alloc::sync::Arc;
use core::fmt;

/// A user-defined reduction over elements of [`CustomOp::elem_size`] bytes.
///
/// It must be associative (MPI's rule: the result is `x0 ⊕ x1 ⊕ ... ⊕ x(p-1)` in some
/// bracketing); it need not be commutative, in which case every machine keeps the rank order.
pub trait CustomOp: Send + Sync + fmt::Debug {
    /// Combines `inc` into `acc` element-wise: `acc = acc ⊕ inc` for [`Order::AccFirst`],
    /// `acc = inc ⊕ acc` for [`Order::IncFirst`]. Both slices have the same length, a whole
    /// (possibly zero) number of elements.
    fn combine(&self, acc: &mut [u8], inc: &[u8], order: Order);

    /// Bytes per element (positive): algorithms cut vectors only at multiples of it.
    fn elem_size(&self) -> usize;

    /// Whether `a ⊕ b == b ⊕ a` for all operands.
    fn commutative(&self) -> bool;
}

/// The combiner of a reduction: predefined (`op` on `dtype`) or custom.
#[derive(Debug, Clone)]
pub enum Reducer {
    /// A predefined operator on a predefined datatype (the fast kernels).
    Builtin {
        /// The operator.
        op: ReduceOp,
        /// The element type.
        dtype: Datatype,
    },
    /// A user-defined combiner.
    Custom(Arc<dyn CustomOp>),
}

impl Reducer {
    /// The predefined reducer `op` on `dtype` (checked when a machine is built).
    pub fn builtin(op: ReduceOp, dtype: Datatype) -> Self {
        Self::Builtin { op, dtype }
    }

    /// A custom reducer.
    pub fn custom(op: Arc<dyn CustomOp>) -> Self {
        Self::Custom(op)
    }

    /// Bytes per element.
    pub fn elem_size(&self) -> usize {
        match self {
            Self::Builtin { dtype, .. } => dtype.size(),
            Self::Custom(c) => c.elem_size(),
        }
    }

    /// Whether operands may be combined in any order. Every predefined operator is commutative.
    pub fn commutative(&self) -> bool {
        match self {
            Self::Builtin { .. } => true,
            Self::Custom(c) => c.commutative(),
        }
    }

    /// A short name for error messages.
    pub fn name(&self) -> String {
        match self {
            Self::Builtin { op, dtype } => format!("{op} on {}", dtype.name()),
            Self::Custom(c) => format!("custom op on {}-byte elements", c.elem_size()),
        }
    }

    /// `Ok` if the reducer is usable: a predefined operator defined on its datatype, or a
    /// custom one with a positive element size.
    pub fn check(&self) -> Result<(), ProtoError> {
        match self {
            Self::Builtin { op, dtype } => op.check(*dtype),
            Self::Custom(c) if c.elem_size() == 0 => Err(ProtoError::InvalidArgument(
                "custom reduction with an element size of 0 bytes".into(),
            )),
            Self::Custom(_) => Ok(()),
        }
    }

    /// The number of elements in `bytes`, or an error if it is not a whole number.
    pub fn count_of(&self, bytes: usize) -> Result<usize, ProtoError> {
        match self {
            Self::Builtin { dtype, .. } => dtype.count_of(bytes),
            Self::Custom(c) => {
                let e = c.elem_size().max(1);
                if !bytes.is_multiple_of(e) {
                    return Err(ProtoError::InvalidArgument(format!(
                        "{bytes} bytes is not a whole number of {e}-byte elements"
                    )));
                }
                Ok(bytes / e)
            }
        }
    }

    /// Bytes of `count` elements, or an error on overflow.
    pub fn bytes_for(&self, count: usize) -> Result<usize, ProtoError> {
        match self {
            Self::Builtin { dtype, .. } => dtype.bytes_for(count),
            Self::Custom(c) => count.checked_mul(c.elem_size()).ok_or_else(|| {
                ProtoError::InvalidArgument(format!(
                    "count {count} of {}-byte elements overflows the address space",
                    c.elem_size()
                ))
            }),
        }
    }

    /// Reduces `inc` into `acc` element-wise, in `order` (see [`Order`]).
    #[inline]
    pub fn reduce_into(&self, acc: &mut [u8], inc: &[u8], order: Order) -> Result<(), ProtoError> {
        match self {
            Self::Builtin { op, dtype } => kernels::reduce_into(*op, *dtype, acc, inc, order),
            Self::Custom(c) => {
                if acc.len() != inc.len() {
                    return Err(ProtoError::InvalidArgument(format!(
                        "reduction operands differ in length: {} vs {} bytes",
                        acc.len(),
                        inc.len()
                    )));
                }
                self.count_of(acc.len())?;
                if !acc.is_empty() {
                    c.combine(acc, inc, order);
                }
                Ok(())
            }
        }
    }
}

impl From<(ReduceOp, Datatype)> for Reducer {
    fn from((op, dtype): (ReduceOp, Datatype)) -> Self {
        Self::builtin(op, dtype)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keeps the left operand: associative, not commutative.
    #[derive(Debug)]
    struct Left;

    impl CustomOp for Left {
        fn combine(&self, acc: &mut [u8], inc: &[u8], order: Order) {
            if order == Order::IncFirst {
                acc.copy_from_slice(inc);
            }
        }
        fn elem_size(&self) -> usize {
            2
        }
        fn commutative(&self) -> bool {
            false
        }
    }

    #[test]
    fn custom_reduce_checks_lengths_and_keeps_order() {
        let r = Reducer::custom(Arc::new(Left));
        assert!(!r.commutative() && r.check().is_ok());
        let mut acc = vec![1, 2, 3, 4];
        r.reduce_into(&mut acc, &[5, 6, 7, 8], Order::AccFirst)
            .unwrap();
        assert_eq!(acc, [1, 2, 3, 4]);
        r.reduce_into(&mut acc, &[5, 6, 7, 8], Order::IncFirst)
            .unwrap();
        assert_eq!(acc, [5, 6, 7, 8]);
        assert!(r.reduce_into(&mut acc, &[0; 2], Order::AccFirst).is_err());
        assert!(
            r.reduce_into(&mut [0; 3], &[0; 3], Order::AccFirst)
                .is_err()
        );
        assert_eq!(r.count_of(8).unwrap(), 4);
        assert_eq!(r.bytes_for(3).unwrap(), 6);
    }

    #[test]
    fn builtin_matches_the_kernel() {
        let r = Reducer::builtin(ReduceOp::Sum, Datatype::I32);
        assert!(r.commutative() && r.elem_size() == 4);
        let mut acc = 3i32.to_ne_bytes().to_vec();
        r.reduce_into(&mut acc, &4i32.to_ne_bytes(), Order::AccFirst)
            .unwrap();
        assert_eq!(acc, 7i32.to_ne_bytes());
        assert!(
            Reducer::builtin(ReduceOp::Band, Datatype::F32)
                .check()
                .is_err()
        );
    }
}
