//! Collective algorithms, one module per collective. Each exposes machines implementing
//! [`crate::Collective`]; [`crate::select`] picks the variant.
//!
//! Conventions shared by every machine here:
//! * ranks are group-local; `step` numbers are per machine and start at 0;
//! * inputs and outputs are raw bytes, the caller owns element typing;
//! * whenever data is combined, the lower-ranked partial result is the left operand, so results
//!   are bitwise reproducible and identical on every rank that receives them;
//! * reductions combine through a [`crate::Reducer`]; for a non-commutative custom op only
//!   algorithms whose partials cover contiguous rank ranges (`preserves_order`) are used;
//! * a message of the wrong length or from an unexpected (peer, step) is an error, never a hang.

pub mod allgather;
pub mod allreduce;
pub mod alltoall;
pub mod barrier;
pub mod bcast;
pub mod confirm;
pub mod gather;
pub mod reduce;
pub mod reduce_scatter;
pub mod scan;
pub mod scatter;
pub(crate) mod sched;

/// `ceil(log2(n))` for `n >= 1`.
pub fn ceil_log2(n: u32) -> u32 {
    if n <= 1 {
        0
    } else {
        32 - (n - 1).leading_zeros()
    }
}

/// Largest power of two `<= n` (`n >= 1`).
pub fn floor_pow2(n: u32) -> u32 {
    1 << (31 - n.leading_zeros())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_helpers() {
        assert_eq!(ceil_log2(1), 0);
        assert_eq!(ceil_log2(2), 1);
        assert_eq!(ceil_log2(3), 2);
        assert_eq!(ceil_log2(17), 5);
        assert_eq!(floor_pow2(1), 1);
        assert_eq!(floor_pow2(17), 16);
        assert_eq!(floor_pow2(16), 16);
    }
}
