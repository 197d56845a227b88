//! gather and gatherv: every rank contributes one block (`block_bytes[i]` bytes from rank `i`)
//! and the root ends with all blocks concatenated in rank order; other ranks output nothing.
//!
//! Two algorithms, both `n - 1` messages (empty blocks are sent too, so a length disagreement
//! between ranks is reported instead of hanging):
//! * [`Algo::Linear`]: every non-root sends its block straight to the root; one round, each
//!   byte crosses one link.
//! * [`Algo::Binomial`]: a binomial tree over ranks relative to the root; subtrees are
//!   concatenated on the way up. `floor(log2 n)` rounds of dependent messages, but bytes cross up
//!   to that many links.

use crate::prelude::*;
use crate::select::movement;

use crate::algo::allgather::{block_offsets, check_len, relative_offsets};
use crate::algo::ceil_log2;
use crate::error::ProtoError;
use crate::machine::{Collective, Inbox, Incoming, Outbox, check_sender};
use crate::types::{Group, Rank};
use bytes::Bytes;

/// A gather algorithm, for forcing one with [`machine_with`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algo {
    /// Every non-root sends its block to the root at step 0: `n - 1` messages, 1 round.
    Linear,
    /// Binomial tree on relative rank `v = rank - root`: in round `k`, `v` with bit `k` as its
    /// lowest set bit sends everything it gathered (relative ranks `v .. v + 2^k`) to `v - 2^k`,
    /// at step `k`. `n - 1` messages, `floor(log2 n)` rounds.
    Binomial,
}

/// gather(v) for rank `g.rank` with the algorithm chosen by size: `data` is this rank's block,
/// `block_bytes[i]` the length of rank `i`'s block (the same vector on every rank). The root's
/// output is all blocks in rank order; other ranks' output is empty.
pub fn machine(
    g: Group,
    root: Rank,
    data: Vec<u8>,
    block_bytes: Vec<usize>,
) -> Result<Box<dyn Collective>, ProtoError> {
    let off = block_offsets(g, &block_bytes, "block_bytes")?;
    let algo = movement::gather(off[off.len() - 1]);
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
    check_len("data", data.len(), block_bytes[g.rank as usize])?;
    Ok(match algo {
        Algo::Linear => Box::new(Linear::new(g, root, data, off)),
        Algo::Binomial => Box::new(Binomial::new(g, root, data, off)),
    })
}

/// Linear gather: the root places each block as it arrives, in any order.
#[derive(Debug)]
struct Linear {
    g: Group,
    root: Rank,
    off: Vec<usize>,
    /// The root's result; empty elsewhere.
    out: Vec<u8>,
    /// A non-root's block, until `start` sends it.
    mine: Option<Bytes>,
    /// At the root, which ranks' blocks have arrived.
    got: Vec<bool>,
    remaining: usize,
}

impl Linear {
    fn new(g: Group, root: Rank, data: Vec<u8>, off: Vec<usize>) -> Self {
        let n = g.size as usize;
        let r = g.rank as usize;
        if g.rank == root {
            let mut out = vec![0u8; off[n]];
            out[off[r]..off[r + 1]].copy_from_slice(&data);
            let mut got = vec![false; n];
            got[r] = true;
            Self {
                g,
                root,
                off,
                out,
                mine: None,
                got,
                remaining: n - 1,
            }
        } else {
            Self {
                g,
                root,
                off,
                out: Vec::new(),
                mine: Some(Bytes::from(data)),
                got: Vec::new(),
                remaining: 0,
            }
        }
    }
}

impl Collective for Linear {
    fn start(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        if let Some(mine) = self.mine.take() {
            out.send(self.root, 0, mine);
        }
        Ok(())
    }

    fn deliver(&mut self, msg: Incoming, _out: &mut Outbox) -> Result<(), ProtoError> {
        check_sender(&msg, self.g.size)?;
        if self.g.rank != self.root || msg.from == self.root || msg.step != 0 {
            return Err(msg.unexpected());
        }
        let from = msg.from as usize;
        if self.got[from] {
            return Err(msg.duplicate());
        }
        let range = self.off[from]..self.off[from + 1];
        msg.expect_len(range.len())?;
        self.out[range].copy_from_slice(&msg.payload);
        self.got[from] = true;
        self.remaining -= 1;
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

/// Binomial-tree gather. `acc` holds relative ranks `v, v + 1, ...` back to back; children are
/// appended in round order through an [`Inbox`], then the whole subtree goes to the parent.
#[derive(Debug)]
struct Binomial {
    g: Group,
    root: Rank,
    /// My rank relative to the root.
    v: usize,
    /// Where each relative rank's block starts in relative order (`n + 1` entries).
    rel_off: Vec<usize>,
    /// Where the root's own block starts in rank order: the final rotation.
    root_off: usize,
    acc: Vec<u8>,
    /// Rounds in which I receive: `ceil(log2 n)` at the root, else the index of my lowest set
    /// bit (the round in which I send).
    limit: u32,
    /// Next round whose child message we wait for.
    round: u32,
    sent: bool,
    inbox: Inbox,
}

impl Binomial {
    fn new(g: Group, root: Rank, data: Vec<u8>, off: Vec<usize>) -> Self {
        let n = g.size as usize;
        let v = g.relative(root) as usize;
        let limit = if v == 0 {
            ceil_log2(g.size)
        } else {
            v.trailing_zeros()
        };
        let rel_off = relative_offsets(&off, root as usize);
        let end = n.min(v + (1usize << limit));
        let mut acc = Vec::with_capacity(rel_off[end] - rel_off[v]);
        acc.extend_from_slice(&data);
        Self {
            g,
            root,
            v,
            rel_off,
            root_off: off[root as usize],
            acc,
            limit,
            round: 0,
            sent: false,
            inbox: Inbox::new(),
        }
    }

    fn n(&self) -> usize {
        self.g.size as usize
    }

    /// My child in round `k` (relative), if it exists.
    fn child(&self, k: u32) -> Option<usize> {
        let c = self.v + (1usize << k);
        (c < self.n()).then_some(c)
    }

    /// Bytes of the subtree rooted at relative rank `c`, a child received in round `k`.
    fn subtree_len(&self, c: usize, k: u32) -> usize {
        let end = self.n().min(c + (1usize << k));
        self.rel_off[end] - self.rel_off[c]
    }

    fn abs(&self, rel: usize) -> Rank {
        self.g.absolute(rel as Rank, self.root)
    }

    fn advance(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        while self.round < self.limit {
            if let Some(c) = self.child(self.round) {
                let len = self.subtree_len(c, self.round);
                let Some(p) = self.inbox.take_exact(self.abs(c), self.round, len)? else {
                    return Ok(());
                };
                self.acc.extend_from_slice(&p);
            }
            self.round += 1;
        }
        if self.v != 0 && !self.sent {
            let parent = self.abs(self.v - (1usize << self.limit));
            let acc = core::mem::take(&mut self.acc);
            out.send(parent, self.limit, Bytes::from(acc));
            self.sent = true;
        }
        Ok(())
    }
}

impl Collective for Binomial {
    fn start(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        self.advance(out)
    }

    fn deliver(&mut self, msg: Incoming, out: &mut Outbox) -> Result<(), ProtoError> {
        check_sender(&msg, self.g.size)?;
        let child = if msg.step < self.limit {
            self.child(msg.step)
        } else {
            None
        };
        let Some(c) = child.filter(|&c| self.abs(c) == msg.from) else {
            return Err(msg.unexpected());
        };
        if msg.step < self.round {
            return Err(msg.duplicate());
        }
        msg.expect_len(self.subtree_len(c, msg.step))?;
        self.inbox.put(msg)?;
        self.advance(out)
    }

    fn is_done(&self) -> bool {
        self.round == self.limit && (self.v == 0 || self.sent)
    }

    fn finish(self: Box<Self>) -> Result<Vec<u8>, ProtoError> {
        if !self.is_done() {
            return Err(ProtoError::NotFinished);
        }
        if self.v != 0 {
            return Ok(Vec::new());
        }
        let mut acc = self.acc;
        // acc = [B_root .. B_{n-1}, B_0 .. B_{root-1}]: the last root_off bytes are blocks 0..root.
        acc.rotate_right(self.root_off);
        Ok(acc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choice_by_total() {
        assert_eq!(movement::gather(0), Algo::Binomial);
        assert_eq!(
            movement::gather(movement::SMALL_TOTAL_BYTES - 1),
            Algo::Binomial
        );
        assert_eq!(movement::gather(movement::SMALL_TOTAL_BYTES), Algo::Linear);
    }
}
