//! Selection for bcast, reduce and allreduce.
//!
//! Inputs are the group size and the vector length in bytes, identical on every rank, so every
//! rank picks the same algorithm. The thresholds are starting points (MPICH-like) to be tuned
//! with the benchmark harness:
//! * below [`SMALL_BYTES`], or with fewer bytes than ranks times [`MAX_ELEM_BYTES`] (so possibly
//!   fewer elements than ranks), latency dominates: binomial trees and recursive doubling;
//! * above, bandwidth dominates: scatter-allgather bcast, reduce-scatter + gather reduce, and
//!   Rabenseifner or ring allreduce.

/// Vectors shorter than this (in bytes) use the latency-optimal algorithms.
pub const SMALL_BYTES: usize = 64 * 1024;

/// Allreduce vectors at least this long (in bytes) use the ring on non-power-of-two groups,
/// where Rabenseifner's fold would cost two extra full-vector transfers.
pub const RING_BYTES: usize = 1024 * 1024;

/// Groups smaller than this always use the binomial bcast (as MPICH does: with few ranks the
/// scatter saves little and adds rounds).
pub const BCAST_MIN_RANKS: u32 = 8;

/// The largest element size (the 16-byte pair types): a vector shorter than `size * 16` bytes may
/// hold fewer elements than ranks, which leaves the blocked algorithms sending empty blocks.
pub const MAX_ELEM_BYTES: usize = 16;

/// The bcast algorithms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BcastAlgo {
    /// Binomial tree: `n - 1` whole-vector messages, `ceil(log2 n)` rounds at most.
    Binomial,
    /// Binomial scatter of `n` blocks, then a chain allgather (van de Geijn).
    ScatterAllgather,
}

impl BcastAlgo {
    /// Every variant.
    pub const ALL: [BcastAlgo; 2] = [Self::Binomial, Self::ScatterAllgather];
}

/// The reduce algorithms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReduceAlgo {
    /// Order-preserving binomial tree: `n - 1` whole-vector messages, at most `ceil(log2 n)`
    /// rounds.
    Binomial,
    /// Recursive-halving reduce-scatter, then each block straight to the root.
    ReduceScatterGather,
}

impl ReduceAlgo {
    /// Every variant.
    pub const ALL: [ReduceAlgo; 2] = [Self::Binomial, Self::ReduceScatterGather];

    /// Whether every element is combined as `x0 ⊕ x1 ⊕ ... ⊕ x(n-1)` in rank order (some
    /// bracketing), as a non-commutative operator needs. Both reduce algorithms do.
    pub const fn preserves_order(self) -> bool {
        match self {
            Self::Binomial | Self::ReduceScatterGather => true,
        }
    }
}

/// The allreduce algorithms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AllreduceAlgo {
    /// Whole-vector exchanges with partners at distance 1, 2, 4, ... (with a fold for
    /// non-powers of two).
    RecursiveDoubling,
    /// Ring reduce-scatter then ring allgather: `2(n - 1)` rounds.
    Ring,
    /// Recursive-halving reduce-scatter then recursive-doubling allgather.
    Rabenseifner,
}

impl AllreduceAlgo {
    /// Every variant.
    pub const ALL: [AllreduceAlgo; 3] = [Self::RecursiveDoubling, Self::Ring, Self::Rabenseifner];

    /// Whether every element is combined in rank order (some bracketing), as a non-commutative
    /// operator needs. The ring is not: rank 0 puts the higher ranks' partial on its right.
    pub const fn preserves_order(self) -> bool {
        match self {
            Self::RecursiveDoubling | Self::Rabenseifner => true,
            Self::Ring => false,
        }
    }
}

/// True when a vector of `bytes` on `size` ranks is latency-bound.
fn small(size: u32, bytes: usize) -> bool {
    bytes < SMALL_BYTES || bytes < (size as usize).saturating_mul(MAX_ELEM_BYTES)
}

/// The bcast algorithm for `size` ranks and `bytes` bytes.
pub(crate) fn bcast(size: u32, bytes: usize) -> BcastAlgo {
    if size < BCAST_MIN_RANKS || small(size, bytes) {
        BcastAlgo::Binomial
    } else {
        BcastAlgo::ScatterAllgather
    }
}

/// The reduce algorithm for `size` ranks and `bytes` bytes.
pub(crate) fn reduce(size: u32, bytes: usize) -> ReduceAlgo {
    if size <= 2 || small(size, bytes) {
        ReduceAlgo::Binomial
    } else {
        ReduceAlgo::ReduceScatterGather
    }
}

/// The allreduce algorithm for `size` ranks and `bytes` bytes.
pub(crate) fn allreduce(size: u32, bytes: usize) -> AllreduceAlgo {
    if size <= 2 || small(size, bytes) {
        AllreduceAlgo::RecursiveDoubling
    } else if size.is_power_of_two() || bytes < RING_BYTES {
        AllreduceAlgo::Rabenseifner
    } else {
        AllreduceAlgo::Ring
    }
}

/// The reduce algorithm for a reducer that may be non-commutative: [`reduce`] (both
/// algorithms keep the rank order).
pub(crate) fn reduce_for(size: u32, bytes: usize, commutative: bool) -> ReduceAlgo {
    let algo = reduce(size, bytes);
    debug_assert!(commutative || algo.preserves_order());
    algo
}

/// The allreduce algorithm for a reducer that is `commutative` or not: [`allreduce`], with
/// Rabenseifner (order-preserving, also bandwidth optimal) instead of the ring for a
/// non-commutative one.
pub(crate) fn allreduce_for(size: u32, bytes: usize, commutative: bool) -> AllreduceAlgo {
    match allreduce(size, bytes) {
        a if commutative || a.preserves_order() => a,
        _ => AllreduceAlgo::Rabenseifner,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_vectors_pick_latency_algorithms() {
        for size in 1..=64 {
            assert_eq!(bcast(size, 1000), BcastAlgo::Binomial);
            assert_eq!(reduce(size, 1000), ReduceAlgo::Binomial);
            assert_eq!(allreduce(size, 1000), AllreduceAlgo::RecursiveDoubling);
        }
        // Fewer bytes than 16 per rank stays latency-bound however large the group.
        assert_eq!(
            allreduce(100_000, 1 << 20),
            AllreduceAlgo::RecursiveDoubling
        );
    }

    #[test]
    fn large_vectors_pick_bandwidth_algorithms() {
        let big = 16 << 20;
        assert_eq!(bcast(4, big), BcastAlgo::Binomial);
        assert_eq!(bcast(16, big), BcastAlgo::ScatterAllgather);
        assert_eq!(reduce(16, big), ReduceAlgo::ReduceScatterGather);
        assert_eq!(allreduce(16, big), AllreduceAlgo::Rabenseifner);
        assert_eq!(allreduce(12, big), AllreduceAlgo::Ring);
        assert_eq!(allreduce(12, 256 * 1024), AllreduceAlgo::Rabenseifner);
        assert_eq!(allreduce(2, big), AllreduceAlgo::RecursiveDoubling);
    }

    #[test]
    fn non_commutative_choices_keep_the_rank_order() {
        for size in 1..=40 {
            for bytes in [0, 1000, 256 * 1024, 16 << 20] {
                assert!(allreduce_for(size, bytes, false).preserves_order());
                assert!(reduce_for(size, bytes, false).preserves_order());
                assert_eq!(allreduce_for(size, bytes, true), allreduce(size, bytes));
            }
        }
        assert_eq!(
            allreduce_for(12, 16 << 20, false),
            AllreduceAlgo::Rabenseifner
        );
    }
}
