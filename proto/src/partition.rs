//! Splitting a vector of elements into near-equal blocks, identically on every rank.

use crate::prelude::*;

use core::ops::Range;

/// Element range of block `i` when `total` elements are split into `parts` blocks: the first
/// `total % parts` blocks hold one element more. Every rank computes the same split.
pub fn block(total: usize, parts: usize, i: usize) -> Range<usize> {
    debug_assert!(parts > 0 && i < parts);
    let base = total / parts;
    let extra = total % parts;
    let start = i * base + i.min(extra);
    let len = base + usize::from(i < extra);
    start..start + len
}

/// Same as [`block`], scaled to bytes for elements of `elem` bytes.
pub fn block_bytes(total_elems: usize, parts: usize, i: usize, elem: usize) -> Range<usize> {
    let r = block(total_elems, parts, i);
    r.start * elem..r.end * elem
}

/// Prefix sums of `lens`: `offsets[i]` is where block `i` starts; the last entry is the total.
/// Returns `None` on overflow.
pub fn offsets(lens: &[usize]) -> Option<Vec<usize>> {
    let mut out = Vec::with_capacity(lens.len() + 1);
    let mut acc = 0usize;
    out.push(0);
    for &l in lens {
        acc = acc.checked_add(l)?;
        out.push(acc);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_tile_the_range() {
        for total in 0..40 {
            for parts in 1..12 {
                let mut next = 0;
                for i in 0..parts {
                    let r = block(total, parts, i);
                    assert_eq!(r.start, next);
                    assert!(r.len() == total / parts || r.len() == total / parts + 1);
                    next = r.end;
                }
                assert_eq!(next, total);
            }
        }
    }

    #[test]
    fn offsets_detect_overflow() {
        assert_eq!(offsets(&[1, 2, 3]).unwrap(), vec![0, 1, 3, 6]);
        assert!(offsets(&[usize::MAX, 1]).is_none());
    }
}
