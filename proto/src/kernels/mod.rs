//! Reduction kernels: `acc = acc ⊕ inc` (or `inc ⊕ acc`) element-wise over raw bytes.
//!
//! [`reduce_into`] is the entry point every algorithm uses. It dispatches to the fast kernels in
//! [`fast`] for contiguous f32/f64/i32/i64 and to [`reference`] (a straightforward scalar
//! implementation, the ground truth in tests) for everything else.
//!
//! The operand order is explicit so that algorithms can combine partial results in one fixed
//! order (lower ranks on the left) and every rank ends with bitwise identical results.

pub mod fast;
pub mod reference;

use crate::datatype::Datatype;
use crate::error::ProtoError;
use crate::op::ReduceOp;

/// Which operand goes on the left of `⊕`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// `acc = acc ⊕ inc`: the accumulator holds the lower-ranked (left) partial result.
    AccFirst,
    /// `acc = inc ⊕ acc`: the incoming data is the lower-ranked (left) partial result.
    IncFirst,
}

/// Checks the arguments every kernel shares: op valid for the type, equal lengths, whole elements.
pub fn check_args(op: ReduceOp, dtype: Datatype, acc: &[u8], inc: &[u8]) -> Result<(), ProtoError> {
    op.check(dtype)?;
    if acc.len() != inc.len() {
        return Err(ProtoError::InvalidArgument(format!(
            "reduction operands differ in length: {} vs {} bytes",
            acc.len(),
            inc.len()
        )));
    }
    dtype.count_of(acc.len())?;
    Ok(())
}

/// Reduces `inc` into `acc` element-wise with `op` over elements of `dtype`, in `order`.
pub fn reduce_into(
    op: ReduceOp,
    dtype: Datatype,
    acc: &mut [u8],
    inc: &[u8],
    order: Order,
) -> Result<(), ProtoError> {
    check_args(op, dtype, acc, inc)?;
    if fast::try_reduce(op, dtype, acc, inc, order) {
        return Ok(());
    }
    reference::reduce_unchecked(op, dtype, acc, inc, order);
    Ok(())
}
