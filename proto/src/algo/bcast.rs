//! bcast: every rank ends with the root's bytes.
//!
//! Two algorithms, chosen by the plan ([`crate::select::plan`]) or forced with
//! [`machine_with`]. Both work on ranks relative to the root ([`Group::relative`]).
//! * [`BcastAlgo::Binomial`]: relative rank `v > 0` receives the whole vector from
//!   `v - lowbit(v)` (step `log2 lowbit(v)`) and forwards it to `v + 2^k` for every `2^k <
//!   lowbit(v)` (the root: every `2^k < n`). Messages: `n - 1`; rounds: the largest popcount of a
//!   relative rank, `max { popcount(v) : v < n }`.
//! * [`BcastAlgo::ScatterAllgather`] (van de Geijn), for large vectors: the bytes are cut into `n`
//!   blocks ([`crate::partition::block`]), block `v` belonging to relative rank `v`.
//!   1. Binomial scatter: the same tree, each child receiving the blocks of its subtree
//!      (`[v, min(v + lowbit(v), n))`), at step `log2 lowbit(v)`.
//!   2. Chain allgather (step `S + s`, `S = ceil(log2 n)`, `s = 0..n-1`): relative rank `v < n - 1`
//!      sends block `(v - s) mod n` to `v + 1`; the ring is open between `n - 1` and the root,
//!      which already holds everything. Messages: `(n - 1) + (n - 1)^2 = n (n - 1)`, every one
//!      sent even when its block is empty.

use crate::prelude::*;

use crate::algo::ceil_log2;
use crate::algo::sched::{Driven, Recv, Steps};
use crate::error::ProtoError;
use crate::machine::{Collective, Outbox};
use crate::partition::block;
use crate::select::reductions::{self as select, BcastAlgo};
use crate::types::{Group, Rank};
use bytes::Bytes;
use core::ops::Range;

/// A bcast of the root's `data` (every rank passes the same length; only the root's contents
/// matter), using the algorithm the plan ([`crate::select::plan`]) picks for this size.
pub fn machine(g: Group, root: Rank, data: Vec<u8>) -> Result<Box<dyn Collective>, ProtoError> {
    let algo = select::bcast(g.size, data.len());
    machine_with(g, root, data, algo)
}

/// Like [`machine`], with the algorithm forced. Every rank must pass the same `algo`.
pub fn machine_with(
    g: Group,
    root: Rank,
    data: Vec<u8>,
    algo: BcastAlgo,
) -> Result<Box<dyn Collective>, ProtoError> {
    let g = Group::new(g.rank, g.size)?;
    g.check_root(root)?;
    Ok(match algo {
        BcastAlgo::Binomial => {
            let tree = Tree::new(g, root);
            let recvs = tree
                .parent()
                .map(|(from, step)| Recv {
                    step,
                    from,
                    len: data.len(),
                })
                .into_iter()
                .collect();
            let buf = if tree.rel == 0 {
                Bytes::from(data)
            } else {
                Bytes::new()
            };
            Driven::boxed(Binomial { tree, buf }, recvs)
        }
        BcastAlgo::ScatterAllgather => {
            let m = ScatterAllgather {
                tree: Tree::new(g, root),
                buf: data,
            };
            let recvs = m.recvs();
            Driven::boxed(m, recvs)
        }
    })
}

/// The binomial tree over relative ranks, shared by both algorithms.
#[derive(Debug, Clone, Copy)]
struct Tree {
    g: Group,
    root: Rank,
    /// My relative rank.
    rel: u32,
}

impl Tree {
    fn new(g: Group, root: Rank) -> Self {
        Self {
            g,
            root,
            rel: g.relative(root),
        }
    }

    /// `lowbit(rel)`, or the first power of two `>= n` for the root: my subtree is
    /// `[rel, min(rel + span, n))`.
    fn span(&self) -> u64 {
        1 << self.levels()
    }

    /// `log2 span()`: the number of levels below me.
    fn levels(&self) -> u32 {
        if self.rel == 0 {
            ceil_log2(self.g.size)
        } else {
            self.rel.trailing_zeros()
        }
    }

    fn subtree_end(&self, rel: u32, span: u64) -> u32 {
        // In u64: `rel + span` passes u32::MAX for the last subtrees of huge groups.
        (u64::from(rel) + span).min(u64::from(self.g.size)) as u32
    }

    fn abs(&self, rel: u32) -> Rank {
        self.g.absolute(rel, self.root)
    }

    /// (absolute parent, step) for non-roots.
    fn parent(&self) -> Option<(Rank, u32)> {
        (self.rel != 0).then(|| {
            let k = self.rel.trailing_zeros();
            (self.abs(self.rel - (1 << k)), k)
        })
    }

    /// (relative child, step) pairs, largest subtree first.
    fn children(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        (0..self.levels())
            .rev()
            .map(|k| (self.rel + (1 << k), k))
            .filter(|&(c, _)| c < self.g.size)
    }
}

#[derive(Debug)]
struct Binomial {
    tree: Tree,
    buf: Bytes,
}

impl Binomial {
    fn forward(&self, out: &mut Outbox) {
        for (child, step) in self.tree.children() {
            out.send(self.tree.abs(child), step, self.buf.clone());
        }
    }
}

impl Steps for Binomial {
    fn size(&self) -> u32 {
        self.tree.g.size
    }

    fn on_start(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        if self.tree.rel == 0 {
            self.forward(out);
        }
        Ok(())
    }

    fn on_recv(&mut self, _recv: Recv, payload: Bytes, out: &mut Outbox) -> Result<(), ProtoError> {
        self.buf = payload;
        self.forward(out);
        Ok(())
    }

    fn output(self) -> Vec<u8> {
        Vec::from(self.buf)
    }
}

#[derive(Debug)]
struct ScatterAllgather {
    tree: Tree,
    buf: Vec<u8>,
}

impl ScatterAllgather {
    fn n(&self) -> u32 {
        self.tree.g.size
    }

    /// Bytes of relative blocks `lo..hi`.
    fn blocks(&self, lo: u32, hi: u32) -> Range<usize> {
        let (len, n) = (self.buf.len(), self.n() as usize);
        block(len, n, lo as usize).start..block(len, n, hi as usize - 1).end
    }

    /// `(rel - d) mod n`.
    fn back(&self, d: u32) -> u32 {
        let n = u64::from(self.n());
        ((u64::from(self.tree.rel) + n - u64::from(d) % n) % n) as u32
    }

    fn ring_step(&self, s: u32) -> u32 {
        ceil_log2(self.n()) + s
    }

    fn recvs(&self) -> Vec<Recv> {
        let t = &self.tree;
        let Some((from, step)) = t.parent() else {
            return Vec::new();
        };
        let end = t.subtree_end(t.rel, t.span());
        let mut v = vec![Recv {
            step,
            from,
            len: self.blocks(t.rel, end).len(),
        }];
        let prev = t.abs(t.rel - 1);
        for s in 0..self.n() - 1 {
            let b = self.back(1 + s);
            v.push(Recv {
                step: self.ring_step(s),
                from: prev,
                len: self.blocks(b, b + 1).len(),
            });
        }
        v
    }

    /// Sends chain step `s` (block `rel - s`), unless I am the end of the chain.
    fn send_ring(&self, s: u32, out: &mut Outbox) {
        let t = &self.tree;
        if t.rel + 1 < self.n() && s + 1 < self.n() {
            let b = self.back(s);
            let payload = Bytes::copy_from_slice(&self.buf[self.blocks(b, b + 1)]);
            out.send(t.abs(t.rel + 1), self.ring_step(s), payload);
        }
    }
}

impl Steps for ScatterAllgather {
    fn size(&self) -> u32 {
        self.n()
    }

    fn on_start(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        let t = self.tree;
        if t.rel != 0 {
            return Ok(());
        }
        for (child, step) in t.children() {
            let end = t.subtree_end(child, u64::from(child - t.rel));
            let payload = Bytes::copy_from_slice(&self.buf[self.blocks(child, end)]);
            out.send(t.abs(child), step, payload);
        }
        for s in 0..self.n() - 1 {
            self.send_ring(s, out);
        }
        Ok(())
    }

    fn on_recv(&mut self, recv: Recv, payload: Bytes, out: &mut Outbox) -> Result<(), ProtoError> {
        let t = self.tree;
        let ring0 = self.ring_step(0);
        if recv.step < ring0 {
            // Scatter: my subtree's blocks; keep them, pass the children theirs, start the chain.
            let end = t.subtree_end(t.rel, t.span());
            let base = self.blocks(t.rel, end).start;
            let mine = self.blocks(t.rel, end);
            self.buf[mine].copy_from_slice(&payload);
            for (child, step) in t.children() {
                let span = u64::from(child - t.rel);
                let range = self.blocks(child, t.subtree_end(child, span));
                let slice = payload.slice(range.start - base..range.end - base);
                out.send(t.abs(child), step, slice);
            }
            self.send_ring(0, out);
        } else {
            // Chain step s: block (rel - 1 - s), forwarded at step s + 1.
            let s = recv.step - ring0;
            let b = self.back(1 + s);
            let range = self.blocks(b, b + 1);
            self.buf[range].copy_from_slice(&payload);
            self.send_ring(s + 1, out);
        }
        Ok(())
    }

    fn output(self) -> Vec<u8> {
        self.buf
    }
}
