//! Scalar reference kernels: one element at a time, unaligned reads, obviously correct. Every fast
//! kernel is tested against these.

use super::Order;
use crate::datatype::Datatype;
use crate::op::ReduceOp;
use half::{bf16, f16};

/// Combines `a ⊕ b` for one scalar of an integer type.
macro_rules! int_op {
    ($t:ty, $op:expr, $a:expr, $b:expr) => {{
        let (a, b): ($t, $t) = ($a, $b);
        match $op {
            ReduceOp::Sum => a.wrapping_add(b),
            ReduceOp::Prod => a.wrapping_mul(b),
            ReduceOp::Min => a.min(b),
            ReduceOp::Max => a.max(b),
            ReduceOp::Land => <$t>::from((a != 0) && (b != 0)),
            ReduceOp::Lor => <$t>::from((a != 0) || (b != 0)),
            ReduceOp::Lxor => <$t>::from((a != 0) != (b != 0)),
            ReduceOp::Band => a & b,
            ReduceOp::Bor => a | b,
            ReduceOp::Bxor => a ^ b,
            ReduceOp::MinLoc | ReduceOp::MaxLoc => unreachable!("checked by ReduceOp::accepts"),
        }
    }};
}

/// Combines `a ⊕ b` for one float scalar (computed in the type itself), through the helpers in
/// [`super`] that make NaN results and min/max ties deterministic.
macro_rules! float_op {
    ($op:expr, $a:expr, $b:expr) => {{
        let (a, b) = ($a, $b);
        match $op {
            ReduceOp::Sum => super::fadd(a, b),
            ReduceOp::Prod => super::fmul(a, b),
            ReduceOp::Min => super::fmin(a, b),
            ReduceOp::Max => super::fmax(a, b),
            _ => unreachable!("checked by ReduceOp::accepts"),
        }
    }};
}

/// Applies `f(left, right)` to every element of a plain scalar type, respecting `order`.
macro_rules! each {
    ($t:ty, $acc:expr, $inc:expr, $order:expr, |$l:ident, $r:ident| $body:expr) => {{
        const N: usize = core::mem::size_of::<$t>();
        for (a, b) in $acc.chunks_exact_mut(N).zip($inc.chunks_exact(N)) {
            let x = <$t>::from_ne_bytes(a.try_into().unwrap());
            let y = <$t>::from_ne_bytes(b.try_into().unwrap());
            let ($l, $r) = match $order {
                Order::AccFirst => (x, y),
                Order::IncFirst => (y, x),
            };
            a.copy_from_slice(&($body).to_ne_bytes());
        }
    }};
}

/// Value-index pairs: keep the better value; on a tie keep the lower index.
macro_rules! pair {
    ($t:ty, $op:expr, $acc:expr, $inc:expr, $size:expr, $ioff:expr) => {{
        const V: usize = core::mem::size_of::<$t>();
        for (a, b) in $acc.chunks_exact_mut($size).zip($inc.chunks_exact($size)) {
            let av = <$t>::from_ne_bytes(a[..V].try_into().unwrap());
            let bv = <$t>::from_ne_bytes(b[..V].try_into().unwrap());
            let ai = i32::from_ne_bytes(a[$ioff..$ioff + 4].try_into().unwrap());
            let bi = i32::from_ne_bytes(b[$ioff..$ioff + 4].try_into().unwrap());
            let take_b = match $op {
                ReduceOp::MinLoc => bv < av || (bv == av && bi < ai),
                _ => bv > av || (bv == av && bi < ai),
            };
            if take_b {
                a[..V].copy_from_slice(&bv.to_ne_bytes());
                a[$ioff..$ioff + 4].copy_from_slice(&bi.to_ne_bytes());
            }
        }
    }};
}

/// The scalar reference for every valid (op, dtype). Arguments must already be checked with
/// [`super::check_args`].
pub fn reduce_unchecked(op: ReduceOp, dtype: Datatype, acc: &mut [u8], inc: &[u8], order: Order) {
    match dtype {
        Datatype::I8 => each!(i8, acc, inc, order, |l, r| int_op!(i8, op, l, r)),
        Datatype::U8 => each!(u8, acc, inc, order, |l, r| int_op!(u8, op, l, r)),
        Datatype::I16 => each!(i16, acc, inc, order, |l, r| int_op!(i16, op, l, r)),
        Datatype::U16 => each!(u16, acc, inc, order, |l, r| int_op!(u16, op, l, r)),
        Datatype::I32 => each!(i32, acc, inc, order, |l, r| int_op!(i32, op, l, r)),
        Datatype::U32 => each!(u32, acc, inc, order, |l, r| int_op!(u32, op, l, r)),
        Datatype::I64 => each!(i64, acc, inc, order, |l, r| int_op!(i64, op, l, r)),
        Datatype::U64 => each!(u64, acc, inc, order, |l, r| int_op!(u64, op, l, r)),
        Datatype::F32 => each!(f32, acc, inc, order, |l, r| float_op!(op, l, r)),
        Datatype::F64 => each!(f64, acc, inc, order, |l, r| float_op!(op, l, r)),
        Datatype::F16 => each!(f16, acc, inc, order, |l, r| f16::from_f32(float_op!(
            op,
            l.to_f32(),
            r.to_f32()
        ))),
        Datatype::Bf16 => each!(bf16, acc, inc, order, |l, r| bf16::from_f32(float_op!(
            op,
            l.to_f32(),
            r.to_f32()
        ))),
        // MINLOC/MAXLOC are commutative (ties go to the lower index), so order is irrelevant.
        Datatype::F32I32 => pair!(f32, op, acc, inc, 8, 4),
        Datatype::F64I32 => pair!(f64, op, acc, inc, 16, 8),
        Datatype::I32I32 => pair!(i32, op, acc, inc, 8, 4),
        Datatype::I64I32 => pair!(i64, op, acc, inc, 16, 8),
        Datatype::I16I32 => pair!(i16, op, acc, inc, 8, 4),
    }
}
