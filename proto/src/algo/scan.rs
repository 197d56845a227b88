//! Inclusive scan (`MPI_Scan`) and exclusive scan (`MPI_Exscan`).
//!
//! Rank `r`'s inclusive result is `d_0 ⊕ d_1 ⊕ … ⊕ d_r`; its exclusive result is
//! `d_0 ⊕ … ⊕ d_{r-1}`, and rank 0's exclusive result is empty (MPI leaves it undefined; the
//! engine leaves the user buffer untouched). Data received always covers lower ranks, so it is
//! always the left operand.
//!
//! * [`ScanAlgo::Doubling`], recursive doubling (Hillis–Steele): in step `k` (distance
//!   `d = 2^k`, `ceil(log2 n)` steps) rank `r` sends its running partial `d_{r-2d+1..=r}` to
//!   `r + d` (if `< n`) and receives `d_{r-2d+1..=r-d}` from `r - d` (if `>= 0`).
//!   `Σ_{2^k < n} (n - 2^k)` messages of the full vector; the longest dependency chain is
//!   `floor(log2 n)` messages. Exscan keeps the exclusive prefix separately (two reductions per
//!   received message) and skips updating the inclusive partial once no later step sends it.
//!   Each result is a fixed tree over the ranks, so it is bitwise reproducible.
//! * [`ScanAlgo::Pipeline`], a chain `0 → 1 → … → n-1` cut into `s` segments that pipeline down
//!   the chain: `(n-1)s` messages, each rank sends its vector once, `n - 1` rounds of latency.
//!   Results are exactly the sequential left fold. Segment `i` travels at step `i`, with the top
//!   bit set on the last one, so ranks that disagree on the segment count fail loudly.

use crate::prelude::*;

use crate::algo::ceil_log2;
use crate::datatype::Datatype;
use crate::error::ProtoError;
use crate::kernels::Order;
use crate::machine::{Collective, Inbox, Incoming, Outbox, check_sender};
use crate::op::ReduceOp;
use crate::reducer::Reducer;
use crate::select::movement::{self, ScanAlgo};
use crate::types::Group;
use bytes::Bytes;
use core::ops::Range;

/// Builds rank `g.rank`'s scan (or exscan, if `exclusive`) machine with the algorithm
/// the plan ([`crate::select::plan`]) picks for this group and vector size. `data` is this rank's
/// vector (the same element count on every rank).
pub fn machine(
    g: Group,
    dtype: Datatype,
    op: ReduceOp,
    data: Vec<u8>,
    exclusive: bool,
) -> Result<Box<dyn Collective>, ProtoError> {
    let algo = movement::scan(g.size, data.len());
    with_algo(algo, g, dtype, op, data, exclusive)
}

/// Like [`machine`], with the algorithm chosen by the caller (every rank must choose the same).
pub fn with_algo(
    algo: ScanAlgo,
    g: Group,
    dtype: Datatype,
    op: ReduceOp,
    data: Vec<u8>,
    exclusive: bool,
) -> Result<Box<dyn Collective>, ProtoError> {
    reducer_with_algo(algo, g, Reducer::builtin(op, dtype), data, exclusive)
}

/// [`machine`] with any [`Reducer`] (custom, possibly non-commutative: both scan algorithms
/// keep the rank order).
pub fn reducer_machine(
    g: Group,
    red: Reducer,
    data: Vec<u8>,
    exclusive: bool,
) -> Result<Box<dyn Collective>, ProtoError> {
    let algo = movement::scan(g.size, data.len());
    reducer_with_algo(algo, g, red, data, exclusive)
}

/// [`with_algo`] with any [`Reducer`].
pub fn reducer_with_algo(
    algo: ScanAlgo,
    g: Group,
    red: Reducer,
    data: Vec<u8>,
    exclusive: bool,
) -> Result<Box<dyn Collective>, ProtoError> {
    let g = Group::new(g.rank, g.size)?;
    red.check()?;
    let count = red.count_of(data.len())?;
    let spec = Spec { g, red, exclusive };
    Ok(match algo {
        ScanAlgo::Doubling => Box::new(Doubling::new(spec, data)),
        ScanAlgo::Pipeline { segment_bytes } => {
            Box::new(Pipeline::new(spec, data, count, segment_bytes))
        }
    })
}

/// What every scan machine needs to know besides its data.
#[derive(Debug, Clone)]
struct Spec {
    g: Group,
    red: Reducer,
    exclusive: bool,
}

impl Spec {
    /// `left ⊕ right` into a fresh buffer.
    fn combine(&self, left: &[u8], right: &[u8]) -> Result<Vec<u8>, ProtoError> {
        let mut acc = left.to_vec();
        self.red.reduce_into(&mut acc, right, Order::AccFirst)?;
        Ok(acc)
    }
}

/// One rank's recursive-doubling scan.
#[derive(Debug)]
struct Doubling {
    s: Spec,
    /// Bytes in every message (this rank's vector length).
    len: usize,
    steps: u32,
    /// Next step whose incoming partial we wait for.
    step: u32,
    /// Whether `step`'s outgoing partial has been emitted.
    sent: bool,
    /// `d_{max(0, r-2^step+1) ..= r}`: what this rank sends at `step`.
    partial: Bytes,
    /// Exscan only: the exclusive prefix received so far.
    excl: Option<Vec<u8>>,
    inbox: Inbox,
}

impl Doubling {
    fn new(s: Spec, data: Vec<u8>) -> Self {
        Self {
            len: data.len(),
            steps: ceil_log2(s.g.size),
            s,
            step: 0,
            sent: false,
            partial: Bytes::from(data),
            excl: None,
            inbox: Inbox::new(),
        }
    }

    /// The distance of step `k` (`k < steps <= 32`).
    fn dist(k: u32) -> u64 {
        1u64 << k
    }

    /// The rank that sends to us at step `k`, if any.
    fn source(&self, k: u32) -> Option<u32> {
        u64::from(self.s.g.rank)
            .checked_sub(Self::dist(k))
            .map(|f| f as u32)
    }

    /// The rank we send to at step `k`, if any.
    fn target(&self, k: u32) -> Option<u32> {
        let to = u64::from(self.s.g.rank) + Self::dist(k);
        (to < u64::from(self.s.g.size)).then_some(to as u32)
    }

    fn advance(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        while self.step < self.steps {
            if !self.sent {
                if let Some(to) = self.target(self.step) {
                    out.send(to, self.step, self.partial.clone());
                }
                self.sent = true;
            }
            if let Some(from) = self.source(self.step) {
                let Some(inc) = self.inbox.take_exact(from, self.step, self.len)? else {
                    return Ok(());
                };
                self.absorb(&inc)?;
            }
            self.step += 1;
            self.sent = false;
        }
        Ok(())
    }

    /// Folds the partial received at `step` (it covers lower ranks: left operand).
    fn absorb(&mut self, inc: &[u8]) -> Result<(), ProtoError> {
        if self.s.exclusive {
            self.excl = Some(match self.excl.take() {
                None => inc.to_vec(),
                Some(e) => self.s.combine(inc, &e)?,
            });
            // The inclusive partial is only needed if a later step sends it.
            if self.step + 1 >= self.steps || self.target(self.step + 1).is_none() {
                return Ok(());
            }
        }
        self.partial = Bytes::from(self.s.combine(inc, &self.partial)?);
        Ok(())
    }
}

impl Collective for Doubling {
    fn start(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        self.advance(out)
    }

    fn deliver(&mut self, msg: Incoming, out: &mut Outbox) -> Result<(), ProtoError> {
        check_sender(&msg, self.s.g.size)?;
        if msg.step >= self.steps || msg.step < self.step || self.source(msg.step) != Some(msg.from)
        {
            return Err(msg.unexpected());
        }
        msg.expect_len(self.len)?;
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
        Ok(match (self.s.exclusive, self.excl) {
            (false, _) => Vec::from(self.partial),
            (true, Some(e)) => e,
            (true, None) => Vec::new(),
        })
    }
}

/// One rank's pipelined-chain scan.
#[derive(Debug)]
struct Pipeline {
    s: Spec,
    data: Bytes,
    /// Segment size in bytes (a positive multiple of the element size, or 0 for empty data).
    seg: usize,
    segs: u32,
    /// Segments received so far (`received[i]` for segment `i`); empty on rank 0.
    received: Vec<bool>,
    remaining: u32,
    /// This rank's result, filled segment by segment.
    result: Vec<u8>,
}

impl Pipeline {
    fn new(s: Spec, data: Vec<u8>, count: usize, segment_bytes: usize) -> Self {
        let elem = s.red.elem_size();
        // At least one element per segment, and few enough segments for [`Pipeline::step`].
        let seg_elems = (segment_bytes / elem)
            .max(1)
            .max(count.div_ceil(LAST as usize));
        // No overflow: at most max(segment_bytes, data.len(), elem).
        let seg = seg_elems * elem;
        let segs = count.div_ceil(seg_elems).max(1) as u32;
        let r = s.g.rank;
        let receives = r > 0;
        let result = match (r, s.exclusive) {
            (0, true) => Vec::new(),
            (_, true) => vec![0; data.len()],
            (_, false) => data.clone(),
        };
        Self {
            s,
            data: Bytes::from(data),
            seg,
            segs,
            received: vec![false; if receives { segs as usize } else { 0 }],
            remaining: if receives { segs } else { 0 },
            result,
        }
    }

    fn range(&self, i: u32) -> Range<usize> {
        let len = self.data.len();
        let start = (i as usize).saturating_mul(self.seg).min(len);
        start..start.saturating_add(self.seg).min(len)
    }

    fn target(&self) -> Option<u32> {
        let to = self.s.g.rank.checked_add(1)?;
        (to < self.s.g.size).then_some(to)
    }

    /// The step that carries segment `i`: `i`, with [`LAST`] set on the final segment, so a
    /// receiver that expects a different number of segments fails instead of waiting forever.
    fn step(&self, i: u32) -> u32 {
        if i + 1 == self.segs { i | LAST } else { i }
    }
}

/// The flag on the step of a pipeline's final segment.
const LAST: u32 = 1 << 31;

impl Collective for Pipeline {
    fn start(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        if self.s.g.rank == 0
            && let Some(to) = self.target()
        {
            for i in 0..self.segs {
                out.send(to, self.step(i), self.data.slice(self.range(i)));
            }
        }
        Ok(())
    }

    fn deliver(&mut self, msg: Incoming, out: &mut Outbox) -> Result<(), ProtoError> {
        check_sender(&msg, self.s.g.size)?;
        let r = self.s.g.rank;
        let i = msg.step & !LAST;
        if r == 0 || msg.from != r - 1 || i >= self.segs || msg.step != self.step(i) {
            return Err(msg.unexpected());
        }
        if self.received[i as usize] {
            return Err(msg.duplicate());
        }
        let range = self.range(i);
        msg.expect_len(range.len())?;
        self.received[i as usize] = true;
        self.remaining -= 1;
        let own = &self.data[range.clone()];
        if self.s.exclusive {
            self.result[range].copy_from_slice(&msg.payload);
            if let Some(to) = self.target() {
                out.send(
                    to,
                    msg.step,
                    Bytes::from(self.s.combine(&msg.payload, own)?),
                );
            }
        } else {
            let prefix = self.s.combine(&msg.payload, own)?;
            self.result[range].copy_from_slice(&prefix);
            if let Some(to) = self.target() {
                out.send(to, msg.step, Bytes::from(prefix));
            }
        }
        Ok(())
    }

    fn is_done(&self) -> bool {
        self.remaining == 0
    }

    fn finish(self: Box<Self>) -> Result<Vec<u8>, ProtoError> {
        if !self.is_done() {
            return Err(ProtoError::NotFinished);
        }
        Ok(self.result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim;
    use crate::testkit;

    fn run(algo: ScanAlgo, n: u32, count: usize, exclusive: bool) -> sim::SimReport {
        let (dt, op) = (Datatype::I32, ReduceOp::Sum);
        sim::run(n, 7, |r| {
            let data = testkit::input(dt, r, count, 1);
            with_algo(algo, Group::new(r, n)?, dt, op, data, exclusive)
        })
        .unwrap()
    }

    #[test]
    fn both_algorithms_match_the_reference() {
        let algos = [ScanAlgo::Doubling, ScanAlgo::Pipeline { segment_bytes: 12 }];
        for algo in algos {
            for n in [1, 2, 5, 8] {
                for exclusive in [false, true] {
                    let rep = run(algo, n, 10, exclusive);
                    let inputs: Vec<_> = (0..n)
                        .map(|r| testkit::input(Datatype::I32, r, 10, 1))
                        .collect();
                    for r in 0..n as usize {
                        let upto = if exclusive { r } else { r + 1 };
                        let want = if upto == 0 {
                            Vec::new()
                        } else {
                            testkit::seq_reduce(ReduceOp::Sum, Datatype::I32, &inputs[..upto])
                        };
                        assert_eq!(
                            rep.outputs[r], want,
                            "{algo:?} n={n} r={r} excl={exclusive}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn pipeline_segments_round_to_elements() {
        // 10 i32 = 40 bytes in segments of 3 elements (12 bytes, from 13 requested): 4 segments.
        let rep = run(ScanAlgo::Pipeline { segment_bytes: 13 }, 3, 10, false);
        assert_eq!(rep.messages, 2 * 4);
        // A segment smaller than an element still carries one element.
        let rep = run(ScanAlgo::Pipeline { segment_bytes: 1 }, 3, 10, false);
        assert_eq!(rep.messages, 2 * 10);
        // Empty data: one empty segment per link.
        let rep = run(ScanAlgo::Pipeline { segment_bytes: 1 }, 3, 0, false);
        assert_eq!(rep.messages, 2);
    }
}
