//! Reduce-scatter (`MPI_Reduce_scatter`) and its equal-counts case (`MPI_Reduce_scatter_block`).
//!
//! Every rank holds a vector of `Σ recv_counts` elements, cut into blocks: block `j` holds
//! `recv_counts[j]` elements and rank `j` ends with `d_0[j] ⊕ d_1[j] ⊕ … ⊕ d_{n-1}[j]`.
//! In every algorithm each rank sends every block but its own exactly once (raw or as a partial
//! result), so rank `r` sends `total - |block r|` bytes. Empty blocks still travel, as empty
//! messages, so message counts do not depend on the counts and mismatched calls are caught.
//!
//! * [`ReduceScatterAlgo::Ring`]: in step `s` (`0..n-1`) rank `r` sends its partial of block
//!   `r - s - 1` to `r + 1` and adds its own data (on the right) to the partial of block
//!   `r - s - 2` it receives from `r - 1`. Block `j` starts at rank `j + 1` and ends at `j`, so
//!   it is the left fold over the rotated rank order `j+1, …, n-1, 0, …, j` (the plain left fold
//!   for block `n - 1`). `n(n-1)` messages, `n - 1` rounds.
//!   Not order-preserving, so never used for a non-commutative custom op.
//! * [`ReduceScatterAlgo::Pairwise`]: rank `r` sends its raw block `r + s` to rank `r + s` at
//!   step `s` (`1..n`), all at once, and folds the contributions to its block in rank order: the
//!   sequential left fold, bitwise. `n(n-1)` messages, 1 round, up to `n - 1` blocks buffered.
//! * [`ReduceScatterAlgo::Halving`] (powers of two): in step `k`, rank `r` and `r ^ 2^k`, whose
//!   partials cover adjacent aligned groups of `2^k` ranks, swap the halves of their remaining
//!   blocks: each keeps the blocks of the ranks that share its bit `k`. The lower group's
//!   partial is the left operand, so each block is a balanced tree over the ranks in order.
//!   `n log2 n` messages, `log2 n` rounds.

use crate::prelude::*;

use crate::datatype::Datatype;
use crate::error::ProtoError;
use crate::kernels::Order;
use crate::machine::{Collective, Inbox, Incoming, Outbox, check_sender};
use crate::op::ReduceOp;
use crate::partition;
use crate::reducer::Reducer;
use crate::select::movement::{self, ReduceScatterAlgo};
use crate::types::Group;
use bytes::Bytes;
use core::ops::Range;

/// Builds rank `g.rank`'s reduce_scatter machine with the algorithm the plan
/// ([`crate::select::plan`]) picks. `data` is the full vector of `Σ recv_counts` elements;
/// `recv_counts[i]` is the number of elements rank `i` receives (the same vector on every rank).
pub fn machine(
    g: Group,
    dtype: Datatype,
    op: ReduceOp,
    data: Vec<u8>,
    recv_counts: Vec<usize>,
) -> Result<Box<dyn Collective>, ProtoError> {
    reducer_machine(g, Reducer::builtin(op, dtype), data, recv_counts)
}

/// Reduce-scatter-block: [`machine`] with `count` elements for every rank.
pub fn block_machine(
    g: Group,
    dtype: Datatype,
    op: ReduceOp,
    data: Vec<u8>,
    count: usize,
) -> Result<Box<dyn Collective>, ProtoError> {
    let g = Group::new(g.rank, g.size)?;
    machine(g, dtype, op, data, vec![count; g.size as usize])
}

/// Like [`machine`], with the algorithm chosen by the caller (every rank must choose the same).
/// [`ReduceScatterAlgo::Halving`] needs a power-of-two group.
pub fn with_algo(
    algo: ReduceScatterAlgo,
    g: Group,
    dtype: Datatype,
    op: ReduceOp,
    data: Vec<u8>,
    recv_counts: Vec<usize>,
) -> Result<Box<dyn Collective>, ProtoError> {
    reducer_with_algo(algo, g, Reducer::builtin(op, dtype), data, recv_counts)
}

/// [`machine`] with any [`Reducer`]: the algorithm is the plan ([`crate::select::plan`])'s
/// choice, which keeps the rank order for a non-commutative reducer.
pub fn reducer_machine(
    g: Group,
    red: Reducer,
    data: Vec<u8>,
    recv_counts: Vec<usize>,
) -> Result<Box<dyn Collective>, ProtoError> {
    let commutative = red.commutative();
    let layout = Layout::new(g, red, data.len(), &recv_counts)?;
    let algo = movement::reduce_scatter_for(g.size, layout.total(), commutative);
    build(algo, layout, data)
}

/// [`with_algo`] with any [`Reducer`]; an algorithm that reorders operands
/// ([`ReduceScatterAlgo::preserves_order`]) is refused for a non-commutative one.
pub fn reducer_with_algo(
    algo: ReduceScatterAlgo,
    g: Group,
    red: Reducer,
    data: Vec<u8>,
    recv_counts: Vec<usize>,
) -> Result<Box<dyn Collective>, ProtoError> {
    let layout = Layout::new(g, red, data.len(), &recv_counts)?;
    crate::algo::allreduce::check_order(
        &layout.red,
        algo.preserves_order(),
        "reduce_scatter",
        &algo,
    )?;
    build(algo, layout, data)
}

fn build(
    algo: ReduceScatterAlgo,
    layout: Layout,
    data: Vec<u8>,
) -> Result<Box<dyn Collective>, ProtoError> {
    Ok(match algo {
        ReduceScatterAlgo::Ring => Box::new(Ring::new(layout, data)),
        ReduceScatterAlgo::Pairwise => Box::new(Pairwise::new(layout, data)),
        ReduceScatterAlgo::Halving => Box::new(Halving::new(layout, data)?),
    })
}

/// The validated arguments: group, reduction and where each block lies.
#[derive(Debug)]
struct Layout {
    g: Group,
    red: Reducer,
    /// Byte offset of every block, plus the total at the end (`n + 1` entries).
    offs: Vec<usize>,
}

impl Layout {
    fn new(
        g: Group,
        red: Reducer,
        data_len: usize,
        recv_counts: &[usize],
    ) -> Result<Self, ProtoError> {
        let g = Group::new(g.rank, g.size)?;
        red.check()?;
        if recv_counts.len() != g.size as usize {
            return Err(ProtoError::InvalidArgument(format!(
                "reduce_scatter: {} receive counts for a group of {}",
                recv_counts.len(),
                g.size
            )));
        }
        let lens = recv_counts
            .iter()
            .map(|&c| red.bytes_for(c))
            .collect::<Result<Vec<_>, _>>()?;
        let offs = partition::offsets(&lens).ok_or_else(|| {
            ProtoError::InvalidArgument("reduce_scatter: total count overflows".into())
        })?;
        let total = offs[lens.len()];
        if data_len != total {
            return Err(ProtoError::InvalidArgument(format!(
                "reduce_scatter: {data_len} bytes of data, the counts need {total}"
            )));
        }
        Ok(Self { g, red, offs })
    }

    fn total(&self) -> usize {
        self.offs[self.offs.len() - 1]
    }

    /// Bytes of block `j`.
    fn range(&self, j: u32) -> Range<usize> {
        self.offs[j as usize]..self.offs[j as usize + 1]
    }

    /// `(r + k) mod n` for any `k`, without overflow.
    fn plus(&self, k: i64) -> u32 {
        let n = i64::from(self.g.size);
        (i64::from(self.g.rank) + k).rem_euclid(n) as u32
    }

    fn reduce(&self, acc: &mut [u8], inc: &[u8], order: Order) -> Result<(), ProtoError> {
        self.red.reduce_into(acc, inc, order)
    }
}

/// One rank's ring reduce-scatter.
#[derive(Debug)]
struct Ring {
    l: Layout,
    data: Bytes,
    /// Next step whose incoming partial we wait for (`0..n-1`).
    step: u32,
    result: Vec<u8>,
    inbox: Inbox,
}

impl Ring {
    fn new(l: Layout, data: Vec<u8>) -> Self {
        let result = if l.g.size == 1 {
            data.clone()
        } else {
            Vec::new()
        };
        Self {
            l,
            data: Bytes::from(data),
            step: 0,
            result,
            inbox: Inbox::new(),
        }
    }

    fn steps(&self) -> u32 {
        self.l.g.size - 1
    }

    /// The block whose partial arrives at step `s`: `r - s - 2`.
    fn incoming_block(&self, s: u32) -> u32 {
        self.l.plus(-i64::from(s) - 2)
    }

    fn advance(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        while self.step < self.steps() {
            let from = self.l.plus(-1);
            let b = self.incoming_block(self.step);
            let range = self.l.range(b);
            let Some(inc) = self.inbox.take_exact(from, self.step, range.len())? else {
                return Ok(());
            };
            let mut acc = self.data[range].to_vec();
            self.l.reduce(&mut acc, &inc, Order::IncFirst)?;
            self.step += 1;
            if self.step < self.steps() {
                out.send(self.l.plus(1), self.step, Bytes::from(acc));
            } else {
                self.result = acc;
            }
        }
        Ok(())
    }
}

impl Collective for Ring {
    fn start(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        if self.steps() > 0 {
            let b = self.l.plus(-1);
            out.send(self.l.plus(1), 0, self.data.slice(self.l.range(b)));
        }
        self.advance(out)
    }

    fn deliver(&mut self, msg: Incoming, out: &mut Outbox) -> Result<(), ProtoError> {
        check_sender(&msg, self.l.g.size)?;
        if msg.step >= self.steps() || msg.step < self.step || msg.from != self.l.plus(-1) {
            return Err(msg.unexpected());
        }
        msg.expect_len(self.l.range(self.incoming_block(msg.step)).len())?;
        self.inbox.put(msg)?;
        self.advance(out)
    }

    fn is_done(&self) -> bool {
        self.step == self.steps()
    }

    fn finish(self: Box<Self>) -> Result<Vec<u8>, ProtoError> {
        if !self.is_done() {
            return Err(ProtoError::NotFinished);
        }
        Ok(self.result)
    }
}

/// One rank's pairwise reduce-scatter.
#[derive(Debug)]
struct Pairwise {
    l: Layout,
    data: Bytes,
    /// Next rank whose contribution to our block gets folded (`0..=n`).
    next: u32,
    acc: Vec<u8>,
    inbox: Inbox,
}

impl Pairwise {
    fn new(l: Layout, data: Vec<u8>) -> Self {
        Self {
            l,
            data: Bytes::from(data),
            next: 0,
            acc: Vec::new(),
            inbox: Inbox::new(),
        }
    }

    /// The step on which rank `from` sends us its contribution: `(r - from) mod n`.
    fn step_of(&self, from: u32) -> u32 {
        self.l.plus(-i64::from(from))
    }

    fn advance(&mut self) -> Result<(), ProtoError> {
        let (r, n) = (self.l.g.rank, self.l.g.size);
        let own = self.l.range(r);
        while self.next < n {
            let c = if self.next == r {
                self.data.slice(own.clone())
            } else {
                let step = self.step_of(self.next);
                match self.inbox.take_exact(self.next, step, own.len())? {
                    Some(c) => c,
                    None => return Ok(()),
                }
            };
            if self.next == 0 {
                self.acc = c.to_vec();
            } else {
                self.l.reduce(&mut self.acc, &c, Order::AccFirst)?;
            }
            self.next += 1;
        }
        Ok(())
    }
}

impl Collective for Pairwise {
    fn start(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        for s in 1..self.l.g.size {
            let to = self.l.plus(i64::from(s));
            out.send(to, s, self.data.slice(self.l.range(to)));
        }
        self.advance()
    }

    fn deliver(&mut self, msg: Incoming, _out: &mut Outbox) -> Result<(), ProtoError> {
        check_sender(&msg, self.l.g.size)?;
        if msg.from == self.l.g.rank || msg.from < self.next || msg.step != self.step_of(msg.from) {
            return Err(msg.unexpected());
        }
        msg.expect_len(self.l.range(self.l.g.rank).len())?;
        self.inbox.put(msg)?;
        self.advance()
    }

    fn is_done(&self) -> bool {
        self.next == self.l.g.size
    }

    fn finish(self: Box<Self>) -> Result<Vec<u8>, ProtoError> {
        if !self.is_done() {
            return Err(ProtoError::NotFinished);
        }
        Ok(self.acc)
    }
}

/// One rank's recursive-halving reduce-scatter (power-of-two groups).
#[derive(Debug)]
struct Halving {
    l: Layout,
    /// The whole vector; only the blocks this rank still owns are kept up to date.
    buf: Vec<u8>,
    steps: u32,
    /// Next step whose incoming half we wait for.
    step: u32,
    inbox: Inbox,
}

impl Halving {
    fn new(l: Layout, data: Vec<u8>) -> Result<Self, ProtoError> {
        if !l.g.size.is_power_of_two() {
            return Err(ProtoError::InvalidArgument(format!(
                "recursive-halving reduce_scatter needs a power-of-two group, not {}",
                l.g.size
            )));
        }
        Ok(Self {
            steps: l.g.size.trailing_zeros(),
            l,
            buf: data,
            step: 0,
            inbox: Inbox::new(),
        })
    }

    fn partner(&self, k: u32) -> u32 {
        self.l.g.rank ^ (1 << k)
    }

    /// The blocks rank `owner` keeps after step `k`: those of the ranks that agree with `owner`
    /// on bits `0..=k`, in increasing order.
    fn kept(&self, owner: u32, k: u32) -> impl Iterator<Item = u32> + use<> {
        let stride = 2u64 << k;
        let first = u64::from(owner) & (stride - 1);
        (first..u64::from(self.l.g.size))
            .step_by(stride as usize)
            .map(|j| j as u32)
    }

    /// Bytes our partner sends us at step `k`: the blocks we keep.
    fn incoming_len(&self, k: u32) -> usize {
        self.kept(self.l.g.rank, k)
            .map(|j| self.l.range(j).len())
            .sum()
    }

    fn send(&self, k: u32, out: &mut Outbox) {
        let partner = self.partner(k);
        let mut payload = Vec::new();
        for j in self.kept(partner, k) {
            payload.extend_from_slice(&self.buf[self.l.range(j)]);
        }
        out.send(partner, k, Bytes::from(payload));
    }

    fn advance(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        let r = self.l.g.rank;
        while self.step < self.steps {
            let k = self.step;
            let partner = self.partner(k);
            let Some(inc) = self.inbox.take_exact(partner, k, self.incoming_len(k))? else {
                return Ok(());
            };
            // Our partial covers the lower group of 2^k ranks iff our bit k is clear.
            let order = if r < partner {
                Order::AccFirst
            } else {
                Order::IncFirst
            };
            let mut at = 0;
            for j in self.kept(r, k) {
                let range = self.l.range(j);
                let len = range.len();
                self.l
                    .reduce(&mut self.buf[range], &inc[at..at + len], order)?;
                at += len;
            }
            self.step += 1;
            if self.step < self.steps {
                self.send(self.step, out);
            }
        }
        Ok(())
    }
}

impl Collective for Halving {
    fn start(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        if self.steps > 0 {
            self.send(0, out);
        }
        self.advance(out)
    }

    fn deliver(&mut self, msg: Incoming, out: &mut Outbox) -> Result<(), ProtoError> {
        check_sender(&msg, self.l.g.size)?;
        if msg.step >= self.steps || msg.step < self.step || msg.from != self.partner(msg.step) {
            return Err(msg.unexpected());
        }
        msg.expect_len(self.incoming_len(msg.step))?;
        self.inbox.put(msg)?;
        self.advance(out)
    }

    fn is_done(&self) -> bool {
        self.step == self.steps
    }

    fn finish(self: Box<Self>) -> Result<Vec<u8>, ProtoError> {
        if !self.is_done() {
            return Err(ProtoError::NotFinished);
        }
        let mut buf = self.buf;
        let range = self.l.range(self.l.g.rank);
        buf.truncate(range.end);
        buf.drain(..range.start);
        Ok(buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim;
    use crate::testkit;

    const ALGOS: [ReduceScatterAlgo; 3] = [
        ReduceScatterAlgo::Ring,
        ReduceScatterAlgo::Pairwise,
        ReduceScatterAlgo::Halving,
    ];

    #[test]
    fn every_algorithm_matches_the_reference() {
        let (dt, op) = (Datatype::I32, ReduceOp::Sum);
        for algo in ALGOS {
            for n in [1u32, 2, 3, 4, 8] {
                if algo == ReduceScatterAlgo::Halving && !n.is_power_of_two() {
                    continue;
                }
                let counts: Vec<usize> = (0..n as usize).map(|i| i % 3).collect();
                let total: usize = counts.iter().sum();
                let inputs: Vec<_> = (0..n).map(|r| testkit::input(dt, r, total, 3)).collect();
                let full = testkit::seq_reduce(op, dt, &inputs);
                let rep = sim::run(n, 11, |r| {
                    let g = Group::new(r, n)?;
                    with_algo(algo, g, dt, op, inputs[r as usize].clone(), counts.clone())
                })
                .unwrap();
                let offs = partition::offsets(&counts).unwrap();
                for r in 0..n as usize {
                    assert_eq!(
                        rep.outputs[r],
                        full[offs[r] * 4..offs[r + 1] * 4],
                        "{algo:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn halving_rejects_other_sizes() {
        let g = Group::new(0, 3).unwrap();
        let err = with_algo(
            ReduceScatterAlgo::Halving,
            g,
            Datatype::U8,
            ReduceOp::Sum,
            vec![0; 3],
            vec![1; 3],
        );
        assert!(matches!(err, Err(ProtoError::InvalidArgument(_))));
    }
}
