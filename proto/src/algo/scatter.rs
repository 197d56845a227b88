//! scatter and scatterv: the root holds all blocks concatenated in rank order (`block_bytes[i]`
//! bytes for rank `i`) and every rank ends with its own block.
//!
//! Two algorithms, both `n - 1` messages (empty blocks are sent too, so a length disagreement
//! between ranks is reported instead of hanging):
//! * [`Algo::Linear`]: the root sends each block straight to its rank; one round.
//! * [`Algo::Binomial`]: a binomial tree over ranks relative to the root; each rank receives its
//!   whole subtree's blocks and hands the children their parts. `floor(log2 n)` rounds.
//!
//! Payloads are zero-copy slices of the root's buffer, forwarded without copying.

use crate::prelude::*;
use crate::select::movement;

use crate::algo::allgather::{block_offsets, check_len, relative_offsets};
use crate::algo::ceil_log2;
use crate::error::ProtoError;
use crate::machine::{Collective, Incoming, Outbox, check_sender};
use crate::types::{Group, Rank};
use bytes::Bytes;

/// A scatter algorithm, for forcing one with [`machine_with`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algo {
    /// The root sends block `i` to rank `i` at step 0: `n - 1` messages, 1 round.
    Linear,
    /// Binomial tree on relative rank `v = rank - root`, with `R = ceil(log2 n)`: `v` (lowest
    /// set bit `t`, or `t = R` at the root) gets relative ranks `v .. v + 2^t` from `v - 2^t` at
    /// step `R - 1 - t`, then for `k = t - 1` down to 0 sends relative ranks
    /// `v + 2^k .. v + 2^(k+1)` to `v + 2^k` at step `R - 1 - k`. `n - 1` messages,
    /// `floor(log2 n)` rounds.
    Binomial,
}

/// scatter(v) for rank `g.rank` with the algorithm chosen by size: at the root, `data` is every
/// rank's block concatenated in rank order; elsewhere `data` is empty. `block_bytes[i]` is the
/// length of rank `i`'s block (the same vector on every rank). Every rank's output is its block.
pub fn machine(
    g: Group,
    root: Rank,
    data: Vec<u8>,
    block_bytes: Vec<usize>,
) -> Result<Box<dyn Collective>, ProtoError> {
    let off = block_offsets(g, &block_bytes, "block_bytes")?;
    let algo = movement::scatter(off[off.len() - 1]);
    machine_with(g, root, data, block_bytes, algo)
}

/// Like [`machine`], with the algorithm forced.
pub fn machine_with(
    g: Group,
    root: Rank,
    data: Vec<u8>,
    block_bytes: Vec<usize>,
    algo: Algo,
) -> Result<Box<dyn Collective>, ProtoError> {
    g.check_root(root)?;
    let off = block_offsets(g, &block_bytes, "block_bytes")?;
    let expected = if g.rank == root {
        off[off.len() - 1]
    } else {
        0
    };
    check_len("data", data.len(), expected)?;
    Ok(match algo {
        Algo::Linear => Box::new(Linear::new(g, root, data, off)),
        Algo::Binomial => Box::new(Binomial::new(g, root, data, off)),
    })
}

/// Linear scatter: the root sends everything at `start`; the others wait for one message.
#[derive(Debug)]
struct Linear {
    g: Group,
    root: Rank,
    off: Vec<usize>,
    /// At the root, the whole input until `start` sends it.
    all: Option<Bytes>,
    /// My block, once known.
    out: Option<Vec<u8>>,
}

impl Linear {
    fn new(g: Group, root: Rank, data: Vec<u8>, off: Vec<usize>) -> Self {
        let all = (g.rank == root).then(|| Bytes::from(data));
        Self {
            g,
            root,
            off,
            all,
            out: None,
        }
    }

    fn my_len(&self) -> usize {
        let r = self.g.rank as usize;
        self.off[r + 1] - self.off[r]
    }
}

impl Collective for Linear {
    fn start(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        let Some(all) = self.all.take() else {
            return Ok(());
        };
        for rel in 1..self.g.size {
            let to = self.g.absolute(rel, self.root) as usize;
            out.send(to as Rank, 0, all.slice(self.off[to]..self.off[to + 1]));
        }
        let r = self.g.rank as usize;
        self.out = Some(all[self.off[r]..self.off[r + 1]].to_vec());
        Ok(())
    }

    fn deliver(&mut self, msg: Incoming, _out: &mut Outbox) -> Result<(), ProtoError> {
        check_sender(&msg, self.g.size)?;
        if self.g.rank == self.root || msg.from != self.root || msg.step != 0 {
            return Err(msg.unexpected());
        }
        if self.out.is_some() {
            return Err(msg.duplicate());
        }
        msg.expect_len(self.my_len())?;
        self.out = Some(msg.payload.to_vec());
        Ok(())
    }

    fn is_done(&self) -> bool {
        self.out.is_some()
    }

    fn finish(self: Box<Self>) -> Result<Vec<u8>, ProtoError> {
        self.out.ok_or(ProtoError::NotFinished)
    }
}

/// Binomial-tree scatter. Each rank receives its subtree's blocks (relative order, starting with
/// its own) in one message and slices them for its children without copying.
#[derive(Debug)]
struct Binomial {
    g: Group,
    root: Rank,
    /// My rank relative to the root.
    v: usize,
    /// Where each relative rank's block starts in relative order (`n + 1` entries).
    rel_off: Vec<usize>,
    /// `ceil(log2 n)`.
    rounds: u32,
    /// Index of my lowest set bit (`rounds` at the root): I hold relative ranks `v .. v + 2^t`.
    t: u32,
    /// At the root, the input rotated into relative order, until `start` distributes it.
    all: Option<Bytes>,
    /// My block, once known.
    out: Option<Vec<u8>>,
}

impl Binomial {
    fn new(g: Group, root: Rank, data: Vec<u8>, off: Vec<usize>) -> Self {
        let v = g.relative(root) as usize;
        let rounds = ceil_log2(g.size);
        let all = (v == 0).then(|| {
            let mut data = data;
            // [B_0 .. B_{root-1}, B_root ..] -> [B_root .. B_{n-1}, B_0 .. B_{root-1}].
            data.rotate_left(off[root as usize]);
            Bytes::from(data)
        });
        Self {
            g,
            root,
            v,
            rel_off: relative_offsets(&off, root as usize),
            rounds,
            t: if v == 0 { rounds } else { v.trailing_zeros() },
            all,
            out: None,
        }
    }

    fn n(&self) -> usize {
        self.g.size as usize
    }

    fn abs(&self, rel: usize) -> Rank {
        self.g.absolute(rel as Rank, self.root)
    }

    /// Byte range, in relative order, of the subtree of `2^k` relative ranks starting at `c`.
    fn subtree(&self, c: usize, k: u32) -> core::ops::Range<usize> {
        self.rel_off[c]..self.rel_off[self.n().min(c + (1usize << k))]
    }

    /// Hands each child its part of `buf` (my subtree, starting with my block) and keeps mine.
    fn distribute(&mut self, buf: Bytes, out: &mut Outbox) {
        let base = self.rel_off[self.v];
        for k in (0..self.t).rev() {
            let c = self.v + (1usize << k);
            if c < self.n() {
                let r = self.subtree(c, k);
                let step = self.rounds - 1 - k;
                out.send(self.abs(c), step, buf.slice(r.start - base..r.end - base));
            }
        }
        let mine = self.rel_off[self.v + 1] - base;
        self.out = Some(buf[..mine].to_vec());
    }
}

impl Collective for Binomial {
    fn start(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        if let Some(all) = self.all.take() {
            self.distribute(all, out);
        }
        Ok(())
    }

    fn deliver(&mut self, msg: Incoming, out: &mut Outbox) -> Result<(), ProtoError> {
        check_sender(&msg, self.g.size)?;
        if self.v == 0 {
            return Err(msg.unexpected());
        }
        let parent = self.abs(self.v - (1usize << self.t));
        if msg.from != parent || msg.step != self.rounds - 1 - self.t {
            return Err(msg.unexpected());
        }
        if self.out.is_some() {
            return Err(msg.duplicate());
        }
        msg.expect_len(self.subtree(self.v, self.t).len())?;
        self.distribute(msg.payload, out);
        Ok(())
    }

    fn is_done(&self) -> bool {
        self.out.is_some()
    }

    fn finish(self: Box<Self>) -> Result<Vec<u8>, ProtoError> {
        self.out.ok_or(ProtoError::NotFinished)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choice_by_total() {
        assert_eq!(movement::scatter(0), Algo::Binomial);
        assert_eq!(
            movement::scatter(movement::SMALL_TOTAL_BYTES - 1),
            Algo::Binomial
        );
        assert_eq!(movement::scatter(movement::SMALL_TOTAL_BYTES), Algo::Linear);
    }
}
