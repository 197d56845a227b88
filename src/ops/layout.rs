//! Counts and displacements (in elements) turned into validated byte ranges, and the packing
//! and unpacking of v-variant buffers.

use crate::error::{Error, ErrorKind, Result};
use std::ops::Range;

/// Byte ranges of `counts[i]` elements at `displs[i]` (or packed contiguously when `displs` is
/// `None`), each checked to lie inside a buffer of `buf_len` bytes.
pub(crate) fn ranges(
    what: &str,
    counts: &[usize],
    displs: Option<&[usize]>,
    elem: usize,
    buf_len: usize,
    size: u32,
) -> Result<Vec<Range<usize>>> {
    if counts.len() != size as usize {
        return Err(Error::new(
            ErrorKind::InvalidCount,
            format!(
                "{what}: {} counts given for a communicator of {size}",
                counts.len()
            ),
        ));
    }
    if let Some(d) = displs
        && d.len() != counts.len()
    {
        return Err(Error::new(
            ErrorKind::InvalidCount,
            format!(
                "{what}: {} displacements given for {} counts",
                d.len(),
                counts.len()
            ),
        ));
    }
    let overflow = || Error::new(ErrorKind::InvalidCount, format!("{what}: counts overflow"));
    let mut next = 0usize;
    let mut out = Vec::with_capacity(counts.len());
    for (i, &c) in counts.iter().enumerate() {
        let start_elems = displs.map_or(next, |d| d[i]);
        let start = start_elems.checked_mul(elem).ok_or_else(overflow)?;
        let len = c.checked_mul(elem).ok_or_else(overflow)?;
        let end = start.checked_add(len).ok_or_else(overflow)?;
        if end > buf_len {
            return Err(Error::new(
                ErrorKind::InvalidCount,
                format!("{what}: block {i} ends at byte {end}, past the {buf_len}-byte buffer"),
            ));
        }
        next = start_elems.checked_add(c).ok_or_else(overflow)?;
        out.push(start..end);
    }
    Ok(out)
}

/// Lengths of byte ranges.
pub(crate) fn lens(r: &[Range<usize>]) -> Vec<usize> {
    r.iter().map(|r| r.len()).collect()
}

/// Concatenates the blocks of `buf` at `r`.
pub(crate) fn pack(buf: &[u8], r: &[Range<usize>]) -> Vec<u8> {
    let mut v = Vec::with_capacity(r.iter().map(|r| r.len()).sum());
    for r in r {
        v.extend_from_slice(&buf[r.clone()]);
    }
    v
}

/// Checks a buffer holds exactly `want` bytes.
pub(crate) fn expect_len(what: &str, got: usize, want: usize) -> Result<()> {
    if got != want {
        return Err(Error::new(
            ErrorKind::InvalidCount,
            format!("{what}: buffer has {got} bytes, {want} are needed"),
        ));
    }
    Ok(())
}

/// How a collective's output bytes land in the caller's receive buffer.
#[derive(Debug, Clone)]
pub(crate) enum Unpack {
    /// Nothing to write (barrier, non-root ranks).
    Nothing,
    /// The output replaces the whole buffer (same length).
    Whole,
    /// The output is blocks concatenated in order; block `i` goes to range `i`.
    Blocks(Vec<Range<usize>>),
}

impl Unpack {
    /// Writes `out` into `recv`.
    pub fn apply(&self, out: &[u8], recv: &mut [u8]) -> Result<()> {
        let internal = |m: String| Error::new(ErrorKind::Internal, m);
        match self {
            Unpack::Nothing => Ok(()),
            Unpack::Whole => {
                if out.len() != recv.len() {
                    return Err(internal(format!(
                        "collective produced {} bytes for a {}-byte buffer",
                        out.len(),
                        recv.len()
                    )));
                }
                recv.copy_from_slice(out);
                Ok(())
            }
            Unpack::Blocks(ranges) => {
                let mut at = 0;
                for r in ranges {
                    let src = out
                        .get(at..at + r.len())
                        .ok_or_else(|| internal("collective output is too short".into()))?;
                    recv[r.clone()].copy_from_slice(src);
                    at += r.len();
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_validate_bounds_and_overflow() {
        let r = ranges("t", &[1, 2], None, 4, 12, 2).unwrap();
        assert_eq!(r, vec![0..4, 4..12]);
        let r = ranges("t", &[1, 1], Some(&[2, 0]), 4, 12, 2).unwrap();
        assert_eq!(r, vec![8..12, 0..4]);
        assert!(ranges("t", &[1, 3], None, 4, 12, 2).is_err());
        assert!(ranges("t", &[usize::MAX, 1], None, 4, usize::MAX, 2).is_err());
        assert!(ranges("t", &[1], None, 4, 12, 2).is_err());
        assert!(ranges("t", &[1, 1], Some(&[0]), 4, 12, 2).is_err());
    }

    #[test]
    fn unpack_blocks_scatters_in_order() {
        let mut recv = [0u8; 4];
        Unpack::Blocks(vec![2..4, 0..1])
            .apply(&[7, 8, 9], &mut recv)
            .unwrap();
        assert_eq!(recv, [9, 0, 7, 8]);
    }
}
