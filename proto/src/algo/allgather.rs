//! allgather and allgatherv: every rank contributes one block (`block_bytes[i]` bytes from rank
//! `i`, possibly different per rank) and every rank ends with all blocks concatenated in rank
//! order. Plain allgather is the case where every block has the same length.
//!
//! Three algorithms, all sending `(n - 1) * total` payload bytes in all:
//! * [`Algo::Ring`]: `n - 1` rounds, `n (n - 1)` messages; bandwidth-optimal per link, for large
//!   totals.
//! * [`Algo::RecursiveDoubling`]: power-of-two `n` only; `log2 n` rounds, `n log2 n` messages.
//! * [`Algo::Bruck`]: any `n`; `ceil(log2 n)` rounds, `n ceil(log2 n)` messages.
//!
//! This module also holds the block-size validation helpers the other data-movement collectives
//! (gather, scatter, alltoall) share.

use crate::prelude::*;
use crate::select::movement;

use crate::algo::ceil_log2;
use crate::error::ProtoError;
use crate::machine::{Collective, Inbox, Incoming, Outbox, check_sender};
use crate::partition;
use crate::types::{Group, Rank};
use bytes::Bytes;

/// An allgather algorithm, for forcing one with [`machine_with`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algo {
    /// Ring: in step `s`, rank `r` sends block `r - s` to `r + 1` and receives block `r - s - 1`
    /// from `r - 1`, forwarding each received block at the next step. `n - 1` rounds,
    /// `n (n - 1)` messages.
    Ring,
    /// Recursive doubling: in round `k`, rank `r` swaps everything it holds (the blocks of its
    /// aligned group of `2^k` ranks) with `r xor 2^k`. Requires a power-of-two group:
    /// `log2 n` rounds, `n log2 n` messages.
    RecursiveDoubling,
    /// Bruck: in round `k`, rank `r` sends the first `min(2^k, n - 2^k)` blocks it holds (in the
    /// rotated order `r, r+1, ...`) to `r - 2^k` and appends those of `r + 2^k`; a final local
    /// rotation restores rank order. Any `n`: `ceil(log2 n)` rounds, `n ceil(log2 n)` messages.
    Bruck,
}

/// allgather(v) for rank `g.rank` with the algorithm chosen by size (see [`Algo`]): `data` is
/// this rank's block, `block_bytes[i]` the length of rank `i`'s block (the same vector on every
/// rank). The output on every rank is all blocks concatenated in rank order.
pub fn machine(
    g: Group,
    data: Vec<u8>,
    block_bytes: Vec<usize>,
) -> Result<Box<dyn Collective>, ProtoError> {
    let off = block_offsets(g, &block_bytes, "block_bytes")?;
    let algo = movement::allgather(g.size, off[off.len() - 1]);
    machine_with(g, data, block_bytes, algo)
}

/// Like [`machine`], with the algorithm forced. [`Algo::RecursiveDoubling`] on a group whose
/// size is not a power of two is an [`ProtoError::InvalidArgument`].
pub fn machine_with(
    g: Group,
    data: Vec<u8>,
    block_bytes: Vec<usize>,
    algo: Algo,
) -> Result<Box<dyn Collective>, ProtoError> {
    let off = block_offsets(g, &block_bytes, "block_bytes")?;
    let r = g.rank as usize;
    check_len("data", data.len(), block_bytes[r])?;
    Ok(match algo {
        Algo::Ring => Box::new(Ring::new(g, data, off)),
        Algo::RecursiveDoubling => {
            if !g.size.is_power_of_two() {
                return Err(ProtoError::InvalidArgument(format!(
                    "recursive doubling needs a power-of-two group, got {} ranks",
                    g.size
                )));
            }
            Box::new(RecursiveDoubling::new(g, data, off))
        }
        Algo::Bruck => Box::new(Bruck::new(g, data, off)),
    })
}

/// Checks that `lens` has one entry per rank of `g` and that its total fits in `usize`; returns
/// its prefix sums (`n + 1` entries, see [`partition::offsets`]).
pub(crate) fn block_offsets(
    g: Group,
    lens: &[usize],
    what: &str,
) -> Result<Vec<usize>, ProtoError> {
    if lens.len() != g.size as usize {
        return Err(ProtoError::InvalidArgument(format!(
            "{what} has {} entries, expected one per rank ({})",
            lens.len(),
            g.size
        )));
    }
    partition::offsets(lens)
        .ok_or_else(|| ProtoError::InvalidArgument(format!("{what} sums past usize::MAX")))
}

/// Checks that an input buffer named `what` is `expected` bytes long.
pub(crate) fn check_len(what: &str, got: usize, expected: usize) -> Result<(), ProtoError> {
    if got != expected {
        return Err(ProtoError::InvalidArgument(format!(
            "{what} has {got} bytes, expected {expected}"
        )));
    }
    Ok(())
}

/// Bytes in the blocks `start, start + 1, ..., start + count - 1` (indices mod `n`), given the
/// prefix sums `off` of the `n` block lengths. Needs `start < n` and `count <= n`.
pub(crate) fn wrapped_len(off: &[usize], start: usize, count: usize) -> usize {
    let n = off.len() - 1;
    let end = start + count;
    if end <= n {
        off[end] - off[start]
    } else {
        off[n] - off[start] + off[end - n]
    }
}

/// Prefix sums of the block lengths in the order `root, root + 1, ..., root - 1` (relative rank
/// order), from the absolute prefix sums `off`: entry `i` is where relative rank `i` starts.
pub(crate) fn relative_offsets(off: &[usize], root: usize) -> Vec<usize> {
    let n = off.len() - 1;
    (0..=n).map(|i| wrapped_len(off, root, i)).collect()
}

/// Ring allgather. Steps are independent (step `s` always carries block `r - s - 1`), so each
/// block is copied out and forwarded as soon as it arrives, in any order.
#[derive(Debug)]
struct Ring {
    g: Group,
    off: Vec<usize>,
    out: Vec<u8>,
    /// My own block, sent at step 0 by `start`.
    mine: Option<Bytes>,
    /// Which steps' blocks have arrived.
    got: Vec<bool>,
    remaining: usize,
}

impl Ring {
    fn new(g: Group, data: Vec<u8>, off: Vec<usize>) -> Self {
        let n = g.size as usize;
        let r = g.rank as usize;
        let mut out = vec![0u8; off[n]];
        out[off[r]..off[r + 1]].copy_from_slice(&data);
        Self {
            g,
            off,
            out,
            mine: Some(Bytes::from(data)),
            got: vec![false; n - 1],
            remaining: n - 1,
        }
    }

    fn right(&self) -> Rank {
        (self.g.rank + 1) % self.g.size
    }

    fn left(&self) -> Rank {
        (self.g.rank + self.g.size - 1) % self.g.size
    }
}

impl Collective for Ring {
    fn start(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        let mine = self.mine.take().unwrap_or_default();
        if self.g.size > 1 {
            out.send(self.right(), 0, mine);
        }
        Ok(())
    }

    fn deliver(&mut self, msg: Incoming, out: &mut Outbox) -> Result<(), ProtoError> {
        check_sender(&msg, self.g.size)?;
        let n = self.g.size as usize;
        let s = msg.step as usize;
        if msg.from != self.left() || s >= n - 1 {
            return Err(msg.unexpected());
        }
        if self.got[s] {
            return Err(msg.duplicate());
        }
        let b = (self.g.rank as usize + n - 1 - s) % n;
        let range = self.off[b]..self.off[b + 1];
        msg.expect_len(range.len())?;
        self.out[range].copy_from_slice(&msg.payload);
        self.got[s] = true;
        self.remaining -= 1;
        if s + 1 < n - 1 {
            out.send(self.right(), msg.step + 1, msg.payload);
        }
        Ok(())
    }

    fn is_done(&self) -> bool {
        self.mine.is_none() && self.remaining == 0
    }

    fn finish(self: Box<Self>) -> Result<Vec<u8>, ProtoError> {
        if !self.is_done() {
            return Err(ProtoError::NotFinished);
        }
        Ok(self.out)
    }
}

/// Recursive-doubling allgather (power-of-two groups). Round `k` sends what rounds `< k`
/// gathered, so rounds are consumed in order through an [`Inbox`].
#[derive(Debug)]
struct RecursiveDoubling {
    g: Group,
    off: Vec<usize>,
    out: Vec<u8>,
    rounds: u32,
    /// Next round whose incoming message we wait for.
    round: u32,
    inbox: Inbox,
}

impl RecursiveDoubling {
    fn new(g: Group, data: Vec<u8>, off: Vec<usize>) -> Self {
        let r = g.rank as usize;
        let mut out = vec![0u8; off[g.size as usize]];
        out[off[r]..off[r + 1]].copy_from_slice(&data);
        Self {
            g,
            off,
            out,
            rounds: ceil_log2(g.size),
            round: 0,
            inbox: Inbox::new(),
        }
    }

    fn partner(&self, k: u32) -> Rank {
        self.g.rank ^ (1 << k)
    }

    /// Byte range of the blocks of the aligned group of `2^k` ranks containing `rank`.
    fn held(&self, rank: Rank, k: u32) -> core::ops::Range<usize> {
        let base = (rank as usize >> k) << k;
        self.off[base]..self.off[base + (1 << k)]
    }

    fn send(&self, k: u32, out: &mut Outbox) {
        let range = self.held(self.g.rank, k);
        out.send(self.partner(k), k, Bytes::copy_from_slice(&self.out[range]));
    }

    fn advance(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        while self.round < self.rounds {
            let from = self.partner(self.round);
            let range = self.held(from, self.round);
            let Some(p) = self.inbox.take_exact(from, self.round, range.len())? else {
                return Ok(());
            };
            self.out[range].copy_from_slice(&p);
            self.round += 1;
            if self.round < self.rounds {
                self.send(self.round, out);
            }
        }
        Ok(())
    }
}

impl Collective for RecursiveDoubling {
    fn start(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        if self.rounds > 0 {
            self.send(0, out);
        }
        self.advance(out)
    }

    fn deliver(&mut self, msg: Incoming, out: &mut Outbox) -> Result<(), ProtoError> {
        check_sender(&msg, self.g.size)?;
        if msg.step >= self.rounds || msg.from != self.partner(msg.step) {
            return Err(msg.unexpected());
        }
        if msg.step < self.round {
            return Err(msg.duplicate());
        }
        msg.expect_len(self.held(msg.from, msg.step).len())?;
        self.inbox.put(msg)?;
        self.advance(out)
    }

    fn is_done(&self) -> bool {
        self.round == self.rounds
    }

    fn finish(self: Box<Self>) -> Result<Vec<u8>, ProtoError> {
        if !self.is_done() {
            return Err(ProtoError::NotFinished);
        }
        Ok(self.out)
    }
}

/// Bruck allgather. `buf` holds blocks `r, r + 1, ...` (mod `n`) back to back; round `k`
/// appends `min(2^k, n - 2^k)` blocks, so rounds are consumed in order through an [`Inbox`].
#[derive(Debug)]
struct Bruck {
    g: Group,
    off: Vec<usize>,
    buf: Vec<u8>,
    rounds: u32,
    /// Next round whose incoming message we wait for.
    round: u32,
    inbox: Inbox,
}

impl Bruck {
    fn new(g: Group, data: Vec<u8>, off: Vec<usize>) -> Self {
        let mut buf = Vec::with_capacity(off[g.size as usize]);
        buf.extend_from_slice(&data);
        Self {
            g,
            off,
            buf,
            rounds: ceil_log2(g.size),
            round: 0,
            inbox: Inbox::new(),
        }
    }

    /// Blocks exchanged in round `k`.
    fn count(&self, k: u32) -> usize {
        let d = 1usize << k;
        d.min(self.g.size as usize - d)
    }

    /// The rank we receive from in round `k` (we send to the mirror, `r - 2^k`).
    fn source(&self, k: u32) -> Rank {
        ((self.g.rank as usize + (1usize << k)) % self.g.size as usize) as Rank
    }

    /// Bytes rank `from` sends in round `k`: its first `count(k)` blocks, starting at its own.
    fn len_from(&self, from: Rank, k: u32) -> usize {
        wrapped_len(&self.off, from as usize, self.count(k))
    }

    fn send(&self, k: u32, out: &mut Outbox) {
        let n = self.g.size as usize;
        let to = (self.g.rank as usize + n - (1usize << k)) % n;
        let len = self.len_from(self.g.rank, k);
        out.send(to as Rank, k, Bytes::copy_from_slice(&self.buf[..len]));
    }

    fn advance(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        while self.round < self.rounds {
            let from = self.source(self.round);
            let len = self.len_from(from, self.round);
            let Some(p) = self.inbox.take_exact(from, self.round, len)? else {
                return Ok(());
            };
            self.buf.extend_from_slice(&p);
            self.round += 1;
            if self.round < self.rounds {
                self.send(self.round, out);
            }
        }
        Ok(())
    }
}

impl Collective for Bruck {
    fn start(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        if self.rounds > 0 {
            self.send(0, out);
        }
        self.advance(out)
    }

    fn deliver(&mut self, msg: Incoming, out: &mut Outbox) -> Result<(), ProtoError> {
        check_sender(&msg, self.g.size)?;
        if msg.step >= self.rounds || msg.from != self.source(msg.step) {
            return Err(msg.unexpected());
        }
        if msg.step < self.round {
            return Err(msg.duplicate());
        }
        msg.expect_len(self.len_from(msg.from, msg.step))?;
        self.inbox.put(msg)?;
        self.advance(out)
    }

    fn is_done(&self) -> bool {
        self.round == self.rounds
    }

    fn finish(self: Box<Self>) -> Result<Vec<u8>, ProtoError> {
        if !self.is_done() {
            return Err(ProtoError::NotFinished);
        }
        let mut buf = self.buf;
        // buf = [B_r .. B_{n-1}, B_0 .. B_{r-1}]: the last off[r] bytes are blocks 0..r.
        buf.rotate_right(self.off[self.g.rank as usize]);
        Ok(buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choice_by_total_and_shape() {
        assert_eq!(movement::allgather(8, 0), Algo::RecursiveDoubling);
        assert_eq!(
            movement::allgather(6, movement::SMALL_TOTAL_BYTES - 1),
            Algo::Bruck
        );
        assert_eq!(
            movement::allgather(8, movement::SMALL_TOTAL_BYTES),
            Algo::Ring
        );
        assert_eq!(movement::allgather(5, 1 << 30), Algo::Ring);
    }

    #[test]
    fn wrapped_and_relative_offsets() {
        let off = partition::offsets(&[1, 2, 3, 4]).unwrap();
        assert_eq!(wrapped_len(&off, 2, 3), 3 + 4 + 1);
        assert_eq!(wrapped_len(&off, 0, 4), 10);
        assert_eq!(relative_offsets(&off, 2), vec![0, 3, 7, 8, 10]);
        assert_eq!(relative_offsets(&off, 0), off);
    }
}
