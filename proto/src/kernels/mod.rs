//! Reduction kernels: `acc = acc ⊕ inc` (or `inc ⊕ acc`) element-wise over raw bytes.
//!
//! [`reduce_into`] is the entry point every algorithm uses. It dispatches to the fast kernels in
//! [`fast`] for naturally aligned f32/f64 and integer buffers and to [`reference`](mod@reference) (a
//! straightforward scalar implementation, the ground truth in tests) for everything else. Both give
//! bitwise identical results, so which one runs (it depends on buffer alignment) never shows.
//!
//! The operand order is explicit so that algorithms can combine partial results in one fixed
//! order (lower ranks on the left) and every rank ends with bitwise identical results.
//!
//! Floats are bitwise deterministic, which plain Rust arithmetic is not: Rust and LLVM leave the
//! payload of a NaN result unspecified (LLVM may swap the operands of `+` and `*`, and does in
//! vectorised loops, so `NaN_a + NaN_b` can come out as either), and `f32::min` may return either
//! zero for `-0.0` vs `+0.0`. So every kernel goes through the same helpers, which pin these down:
//!
//! * Sum and product: a NaN result is stored as the canonical quiet NaN (`f32::NAN`, `f64::NAN`,
//!   and for f16/bf16 whatever that converts to), whatever the operands' payloads.
//! * Min and max follow `f32::min`/`f32::max` (a NaN operand loses to a number); on a tie
//!   (`-0.0` vs `+0.0`) the left operand wins, and of two NaNs the right one is returned unchanged.

use crate::prelude::*;

pub mod fast;
pub mod reference;

use crate::datatype::Datatype;
use crate::error::ProtoError;
use crate::op::ReduceOp;
use core::ops::{Add, Mul};

/// Which operand goes on the left of `⊕`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// `acc = acc ⊕ inc`: the accumulator holds the lower-ranked (left) partial result.
    AccFirst,
    /// `acc = inc ⊕ acc`: the incoming data is the lower-ranked (left) partial result.
    IncFirst,
}

/// Float scalars the kernels compute in: what the helpers below and the fast kernels need.
pub(crate) trait Float: Copy + PartialOrd + Add<Output = Self> + Mul<Output = Self> {
    /// The canonical quiet NaN every NaN sum or product becomes.
    const NAN: Self;
    /// True for every NaN bit pattern.
    fn is_nan(self) -> bool;
}

impl Float for f32 {
    const NAN: Self = f32::NAN;
    #[inline(always)]
    fn is_nan(self) -> bool {
        f32::is_nan(self)
    }
}

impl Float for f64 {
    const NAN: Self = f64::NAN;
    #[inline(always)]
    fn is_nan(self) -> bool {
        f64::is_nan(self)
    }
}

/// `x`, or the canonical NaN if `x` is any NaN.
#[inline(always)]
fn canonical<T: Float>(x: T) -> T {
    if x.is_nan() { T::NAN } else { x }
}

/// `l + r`, with a NaN result made canonical (IEEE addition is otherwise commutative bit for bit).
#[inline(always)]
pub(crate) fn fadd<T: Float>(l: T, r: T) -> T {
    canonical(l + r)
}

/// `l * r`, with a NaN result made canonical.
#[inline(always)]
pub(crate) fn fmul<T: Float>(l: T, r: T) -> T {
    canonical(l * r)
}

/// `l min r` with a NaN losing to a number; on a tie (`-0.0` vs `+0.0`) `l` wins and if both are
/// NaN `r` is returned. A pure compare-and-select, so it vectorises without changing any bit.
#[inline(always)]
pub(crate) fn fmin<T: Float>(l: T, r: T) -> T {
    if r < l || l.is_nan() { r } else { l }
}

/// `l max r` with a NaN losing to a number; ties and NaN pairs as in [`fmin`].
#[inline(always)]
pub(crate) fn fmax<T: Float>(l: T, r: T) -> T {
    if r > l || l.is_nan() { r } else { l }
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
