//! Fast kernels for naturally aligned f32/f64 and integer buffers. [`try_reduce`] returns `false`
//! when it has no fast path, so the caller falls back to [`super::reference`].
//!
//! Each kernel is a plain loop over typed slices (`for (a, b) in acc.iter_mut().zip(inc)`) with
//! the operator and the operand order chosen once, outside the loop, so that LLVM vectorises the
//! body. The typed slices come from `bytemuck::try_cast_slice{,_mut}`, which refuse buffers that
//! are not aligned for the element type: those go to the reference kernels (no unsafe code here).
//!
//! Results are bitwise identical to [`super::reference::reduce_unchecked`]:
//!
//! * Integer sum and product wrap, as in the reference. Every integer operator is commutative
//!   bit for bit, so `order` does not matter for integers.
//! * Floats go through the same helpers as the reference, which make NaN sums and products
//!   canonical and pin down min/max for `-0.0` vs `+0.0` and for NaN pairs (see [`super`]): plain
//!   `a + b` would not do, as LLVM swaps its operands in vectorised loops and so changes which NaN
//!   payload comes out. The operand order is still kept explicit, as in the reference.

use super::{Float, Order, fadd, fmax, fmin, fmul};
use crate::datatype::Datatype;
use crate::op::ReduceOp;
use bytemuck::Pod;

/// Integer kernels for one type. Every integer operator is commutative bit for bit (wrapping sum
/// and product included), so the operand order is ignored.
macro_rules! int {
    ($t:ty, $op:expr, $acc:expr, $inc:expr) => {{
        let (acc, inc): (&mut [u8], &[u8]) = ($acc, $inc);
        match $op {
            ReduceOp::Sum => zip_apply(acc, inc, |a: $t, b| a.wrapping_add(b)),
            ReduceOp::Prod => zip_apply(acc, inc, |a: $t, b| a.wrapping_mul(b)),
            ReduceOp::Min => zip_apply(acc, inc, |a: $t, b| a.min(b)),
            ReduceOp::Max => zip_apply(acc, inc, |a: $t, b| a.max(b)),
            ReduceOp::Land => zip_apply(acc, inc, |a: $t, b| <$t>::from((a != 0) & (b != 0))),
            ReduceOp::Lor => zip_apply(acc, inc, |a: $t, b| <$t>::from((a != 0) | (b != 0))),
            ReduceOp::Lxor => zip_apply(acc, inc, |a: $t, b| <$t>::from((a != 0) ^ (b != 0))),
            ReduceOp::Band => zip_apply(acc, inc, |a: $t, b| a & b),
            ReduceOp::Bor => zip_apply(acc, inc, |a: $t, b| a | b),
            ReduceOp::Bxor => zip_apply(acc, inc, |a: $t, b| a ^ b),
            ReduceOp::MinLoc | ReduceOp::MaxLoc => false,
        }
    }};
}

/// Runs a fast kernel if one exists for (`op`, `dtype`) and the buffers are aligned for `dtype`;
/// returns whether it did. Arguments must already be checked with [`super::check_args`]; on
/// `false` `acc` is untouched.
///
/// Fast paths exist for every valid op on `f32`, `f64` and the eight integer types. `f16`,
/// `bf16`, the value-index pair types and misaligned buffers return `false`.
pub fn try_reduce(op: ReduceOp, dtype: Datatype, acc: &mut [u8], inc: &[u8], order: Order) -> bool {
    match dtype {
        Datatype::F32 => float::<f32>(op, acc, inc, order),
        Datatype::F64 => float::<f64>(op, acc, inc, order),
        Datatype::I8 => int!(i8, op, acc, inc),
        Datatype::U8 => int!(u8, op, acc, inc),
        Datatype::I16 => int!(i16, op, acc, inc),
        Datatype::U16 => int!(u16, op, acc, inc),
        Datatype::I32 => int!(i32, op, acc, inc),
        Datatype::U32 => int!(u32, op, acc, inc),
        Datatype::I64 => int!(i64, op, acc, inc),
        Datatype::U64 => int!(u64, op, acc, inc),
        Datatype::F16
        | Datatype::Bf16
        | Datatype::F32I32
        | Datatype::F64I32
        | Datatype::I32I32
        | Datatype::I64I32
        | Datatype::I16I32 => false,
    }
}

/// `acc[i] = f(acc[i], inc[i])` over `T`-typed views of the buffers; `false` (and `acc` untouched)
/// if either buffer is not aligned for `T`. Each call site passes its own closure, so every
/// (type, op, order) gets its own loop with the operator inlined.
#[inline(always)]
fn zip_apply<T: Pod>(acc: &mut [u8], inc: &[u8], f: impl Fn(T, T) -> T) -> bool {
    let Ok(inc) = bytemuck::try_cast_slice::<u8, T>(inc) else {
        return false;
    };
    let Ok(acc) = bytemuck::try_cast_slice_mut::<u8, T>(acc) else {
        return false;
    };
    for (a, b) in acc.iter_mut().zip(inc) {
        *a = f(*a, *b);
    }
    true
}

/// Float kernels: the order branch is hoisted, and `l ⊕ r` keeps the left operand first, as in
/// the reference.
fn float<T: Float + Pod>(op: ReduceOp, acc: &mut [u8], inc: &[u8], order: Order) -> bool {
    use Order::{AccFirst, IncFirst};
    match (op, order) {
        (ReduceOp::Sum, AccFirst) => zip_apply(acc, inc, |a: T, b| fadd(a, b)),
        (ReduceOp::Sum, IncFirst) => zip_apply(acc, inc, |a: T, b| fadd(b, a)),
        (ReduceOp::Prod, AccFirst) => zip_apply(acc, inc, |a: T, b| fmul(a, b)),
        (ReduceOp::Prod, IncFirst) => zip_apply(acc, inc, |a: T, b| fmul(b, a)),
        (ReduceOp::Min, AccFirst) => zip_apply(acc, inc, |a: T, b| fmin(a, b)),
        (ReduceOp::Min, IncFirst) => zip_apply(acc, inc, |a: T, b| fmin(b, a)),
        (ReduceOp::Max, AccFirst) => zip_apply(acc, inc, |a: T, b| fmax(a, b)),
        (ReduceOp::Max, IncFirst) => zip_apply(acc, inc, |a: T, b| fmax(b, a)),
        _ => false,
    }
}
