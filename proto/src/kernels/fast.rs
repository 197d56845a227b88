//! Fast kernels for contiguous f32/f64/i32/i64. Returns `false` when it has no fast path, so the
//! caller falls back to [`super::reference`].

use super::Order;
use crate::datatype::Datatype;
use crate::op::ReduceOp;

/// Runs a fast kernel if one exists for (`op`, `dtype`); arguments are already checked.
pub fn try_reduce(
    _op: ReduceOp,
    _dtype: Datatype,
    _acc: &mut [u8],
    _inc: &[u8],
    _order: Order,
) -> bool {
    false
}
