//! Selection for allgather(v), gather(v), scatter(v), alltoall(v), reduce_scatter and scan.

use crate::algo::{allgather, alltoall, ceil_log2, gather, scatter};

// ---------------------------------------------------------------------------------------------
// reduce_scatter / reduce_scatter_block
// ---------------------------------------------------------------------------------------------

/// The reduce_scatter algorithms (see [`crate::algo::reduce_scatter`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReduceScatterAlgo {
    /// Every rank sends each other rank its raw block at once (step `s` to rank `r + s`) and folds
    /// the `n` contributions to its own block in rank order: 1 round, `n(n-1)` messages, results
    /// bitwise equal to the sequential left fold; buffers up to `n - 1` blocks.
    Pairwise,
    /// Recursive vector halving with distance doubling, powers of two only: `log2 n` rounds,
    /// `n log2 n` messages, a balanced combination tree (lower half on the left).
    Halving,
    /// Ring: `n - 1` rounds, `n(n-1)` neighbour-only messages, one block in flight per rank.
    Ring,
}

/// Largest total vector (all blocks, in bytes) for which [`ReduceScatterAlgo::Pairwise`] is
/// chosen on a group that is not a power of two.
pub const REDUCE_SCATTER_PAIRWISE_MAX: usize = 64 * 1024;

/// Largest total vector (all blocks, in bytes) for which [`ReduceScatterAlgo::Halving`] is
/// chosen on a power-of-two group.
pub const REDUCE_SCATTER_HALVING_MAX: usize = 1024 * 1024;

/// Picks the reduce_scatter algorithm for `size` ranks and a vector of `total_bytes` (the sum of
/// every rank's block: the same on every rank, so every rank picks the same algorithm).
pub(crate) fn reduce_scatter(size: u32, total_bytes: usize) -> ReduceScatterAlgo {
    if size.is_power_of_two() && total_bytes <= REDUCE_SCATTER_HALVING_MAX {
        ReduceScatterAlgo::Halving
    } else if total_bytes <= REDUCE_SCATTER_PAIRWISE_MAX {
        ReduceScatterAlgo::Pairwise
    } else {
        ReduceScatterAlgo::Ring
    }
}

impl ReduceScatterAlgo {
    /// Whether every block is combined in rank order (some bracketing), as a non-commutative
    /// operator needs. The ring is not: block `j` is folded over the rotated order
    /// `j+1, ..., n-1, 0, ..., j`.
    pub const fn preserves_order(self) -> bool {
        match self {
            Self::Pairwise | Self::Halving => true,
            Self::Ring => false,
        }
    }
}

/// [`reduce_scatter`] for a reducer that is `commutative` or not: a non-commutative one gets
/// recursive halving on powers of two and the pairwise exchange otherwise, never the ring.
pub(crate) fn reduce_scatter_for(
    size: u32,
    total_bytes: usize,
    commutative: bool,
) -> ReduceScatterAlgo {
    match reduce_scatter(size, total_bytes) {
        a if commutative || a.preserves_order() => a,
        _ if size.is_power_of_two() => ReduceScatterAlgo::Halving,
        _ => ReduceScatterAlgo::Pairwise,
    }
}

// ---------------------------------------------------------------------------------------------
// scan / exscan
// ---------------------------------------------------------------------------------------------

/// The scan and exscan algorithms (see [`crate::algo::scan`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScanAlgo {
    /// Recursive doubling (Hillis–Steele): `ceil(log2 n)` steps, every message a full vector.
    Doubling,
    /// A chain `0 → 1 → … → n-1` that forwards the running prefix in segments of about
    /// `segment_bytes` (rounded down to whole elements, at least one), so the segments pipeline
    /// down the chain. Each rank sends its vector once; results are the sequential left fold.
    Pipeline {
        /// Target segment size in bytes.
        segment_bytes: usize,
    },
}

/// The latency of one message expressed in bytes of bandwidth (α/β), for the scan cost model.
pub const SCAN_ALPHA_BYTES: u64 = 64 * 1024;

/// Picks the scan algorithm for `size` ranks and `bytes` per rank, from an α-β cost model:
/// doubling costs `ceil(log2 n)(α + βm)`, a pipeline of `s` segments `(n - 2 + s)(α + βm/s)`,
/// minimised at `s = sqrt((n - 2)βm/α)`.
pub(crate) fn scan(size: u32, bytes: usize) -> ScanAlgo {
    if size <= 2 {
        return ScanAlgo::Doubling;
    }
    let (n, m, a) = (u64::from(size), bytes as u64, SCAN_ALPHA_BYTES);
    let doubling = u64::from(ceil_log2(size)).saturating_mul(a.saturating_add(m));
    let segs = ((n - 2).saturating_mul(m) / a).isqrt().max(1);
    let pipeline = (n - 2 + segs).saturating_mul(a.saturating_add(m.div_ceil(segs)));
    if pipeline < doubling {
        ScanAlgo::Pipeline {
            segment_bytes: usize::try_from(m.div_ceil(segs)).unwrap_or(usize::MAX),
        }
    } else {
        ScanAlgo::Doubling
    }
}

// ---------------------------------------------------------------------------------------------
// allgather(v), gather(v), scatter(v), alltoall(v)
// ---------------------------------------------------------------------------------------------

/// Below this total (bytes) the block-moving collectives are latency-bound.
pub(crate) const SMALL_TOTAL_BYTES: usize = 32 * 1024;

/// Size-based choice, identical on every rank because `total` comes from the shared
/// `block_bytes`: below [`SMALL_TOTAL_BYTES`], recursive doubling for power-of-two groups and
/// Bruck otherwise (latency-bound: `ceil(log2 n)` rounds); at or above it, the ring
/// (bandwidth-bound: each link carries every block once, and nothing is copied to forward).
pub(crate) fn allgather(n: u32, total: usize) -> allgather::Algo {
    if total >= SMALL_TOTAL_BYTES {
        allgather::Algo::Ring
    } else if n.is_power_of_two() {
        allgather::Algo::RecursiveDoubling
    } else {
        allgather::Algo::Bruck
    }
}

/// Size-based choice, identical on every rank because `total` comes from the shared
/// `block_bytes`: the binomial tree below `SMALL_TOTAL_BYTES` (32 KiB, latency-bound: the root
/// handles `ceil(log2 n)` messages instead of `n - 1`), linear at or above it (bandwidth-bound:
/// no byte is forwarded twice).
pub(crate) fn gather(total: usize) -> gather::Algo {
    if total < SMALL_TOTAL_BYTES {
        gather::Algo::Binomial
    } else {
        gather::Algo::Linear
    }
}

/// Size-based choice, identical on every rank because `total` comes from the shared
/// `block_bytes`: the binomial tree below `SMALL_TOTAL_BYTES` (32 KiB, latency-bound: the root
/// sends `ceil(log2 n)` messages instead of `n - 1`), linear at or above it (bandwidth-bound: no
/// byte is forwarded twice).
pub(crate) fn scatter(total: usize) -> scatter::Algo {
    if total < SMALL_TOTAL_BYTES {
        scatter::Algo::Binomial
    } else {
        scatter::Algo::Linear
    }
}

/// Per-rank choice, safe because the algorithms interoperate: scattered (one round) when this
/// rank sends less than `SMALL_TOTAL_BYTES` (32 KiB) in all, pairwise (one peer at a time, no
/// incast) otherwise.
pub(crate) fn alltoall(send_total: usize) -> alltoall::Algo {
    if send_total < SMALL_TOTAL_BYTES {
        alltoall::Algo::Scattered
    } else {
        alltoall::Algo::Pairwise
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduce_scatter_choices() {
        assert_eq!(reduce_scatter(8, 1024), ReduceScatterAlgo::Halving);
        assert_eq!(reduce_scatter(6, 1024), ReduceScatterAlgo::Pairwise);
        assert_eq!(reduce_scatter(6, 1 << 20), ReduceScatterAlgo::Ring);
        assert_eq!(reduce_scatter(8, 16 << 20), ReduceScatterAlgo::Ring);
        assert_eq!(reduce_scatter(1, 0), ReduceScatterAlgo::Halving);
    }

    #[test]
    fn non_commutative_reduce_scatter_keeps_the_rank_order() {
        for size in 1..=20 {
            for bytes in [0, 1024, 1 << 20, 16 << 20] {
                assert!(reduce_scatter_for(size, bytes, false).preserves_order());
                assert_eq!(
                    reduce_scatter_for(size, bytes, true),
                    reduce_scatter(size, bytes)
                );
            }
        }
        assert_eq!(
            reduce_scatter_for(8, 16 << 20, false),
            ReduceScatterAlgo::Halving
        );
        assert_eq!(
            reduce_scatter_for(6, 16 << 20, false),
            ReduceScatterAlgo::Pairwise
        );
    }

    #[test]
    fn scan_choices() {
        assert_eq!(scan(1, 1 << 30), ScanAlgo::Doubling);
        assert_eq!(scan(2, 1 << 30), ScanAlgo::Doubling);
        assert_eq!(scan(16, 1024), ScanAlgo::Doubling);
        match scan(16, 64 << 20) {
            ScanAlgo::Pipeline { segment_bytes } => {
                assert!(segment_bytes > 0 && segment_bytes < 64 << 20)
            }
            other => panic!("expected a pipeline, got {other:?}"),
        }
        // Never panics, whatever the size.
        let _ = scan(u32::MAX, usize::MAX);
    }
}
