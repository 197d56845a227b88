//! reduce: the root ends with the element-wise reduction of every rank's vector; other ranks
//! output nothing.
//!
//! Two algorithms, chosen by the plan ([`crate::select::plan`]) or forced with
//! [`machine_with`]:
//! * [`ReduceAlgo::Binomial`]: an order-preserving binomial-style tree. The absolute rank range
//!   `[0, n)` is halved recursively (`[lo, mid)`, `[mid, hi)` with `mid = lo + ceil(len / 2)`);
//!   the half holding the current leader (at the top: the root) keeps it, the other half's leader
//!   is its lowest rank and sends that half's partial result to the leader. Every partial covers
//!   a contiguous range of ranks, so the leader combines with the lower range on the left and the
//!   result is `x[0] ⊕ ... ⊕ x[n-1]` in one balanced bracketing that does not depend on the root.
//!   A split at depth `d` is sent at step `ceil(log2 n) - 1 - d`, so leaders consume their
//!   children deepest first in step order. Messages: `n - 1`; rounds: at most `ceil(log2 n)`.
//! * [`ReduceAlgo::ReduceScatterGather`]: Rabenseifner's recursive-halving reduce-scatter, then
//!   every participant sends its block straight to the root; for large vectors. See
//!   [`crate::algo::allreduce::rabenseifner`] for the schedule and its formulas.

use crate::prelude::*;

use crate::algo::allreduce::rabenseifner::{self, Finish};
use crate::algo::allreduce::{check_order, check_reduction};
use crate::algo::ceil_log2;
use crate::algo::sched::{Driven, Recv, Steps};
use crate::datatype::Datatype;
use crate::error::ProtoError;
use crate::kernels::Order;
use crate::machine::{Collective, Outbox};
use crate::op::ReduceOp;
use crate::reducer::Reducer;
use crate::select::reductions::{self as select, ReduceAlgo};
use crate::types::{Group, Rank};
use bytes::Bytes;

/// A reduce of `data` (a whole number of `dtype` elements, the same count on every rank) with
/// `op` to `root`, using the algorithm the plan ([`crate::select::plan`]) picks for this size.
pub fn machine(
    g: Group,
    root: Rank,
    dtype: Datatype,
    op: ReduceOp,
    data: Vec<u8>,
) -> Result<Box<dyn Collective>, ProtoError> {
    reducer_machine(g, root, Reducer::builtin(op, dtype), data)
}

/// Like [`machine`], with the algorithm forced. Every rank must pass the same `algo`.
pub fn machine_with(
    g: Group,
    root: Rank,
    dtype: Datatype,
    op: ReduceOp,
    data: Vec<u8>,
    algo: ReduceAlgo,
) -> Result<Box<dyn Collective>, ProtoError> {
    reducer_machine_with(g, root, Reducer::builtin(op, dtype), data, algo)
}

/// A reduce with any [`Reducer`] (custom, possibly non-commutative, included), using the
/// algorithm the plan ([`crate::select::plan`]) picks.
pub fn reducer_machine(
    g: Group,
    root: Rank,
    red: Reducer,
    data: Vec<u8>,
) -> Result<Box<dyn Collective>, ProtoError> {
    let algo = select::reduce_for(g.size, data.len(), red.commutative());
    reducer_machine_with(g, root, red, data, algo)
}

/// Like [`reducer_machine`], with the algorithm forced (every rank must pass the same `algo`).
pub fn reducer_machine_with(
    g: Group,
    root: Rank,
    red: Reducer,
    data: Vec<u8>,
    algo: ReduceAlgo,
) -> Result<Box<dyn Collective>, ProtoError> {
    let (g, _) = check_reduction(g, &red, &data)?;
    g.check_root(root)?;
    check_order(&red, algo.preserves_order(), "reduce", &algo)?;
    Ok(match algo {
        ReduceAlgo::Binomial => {
            let tree = Tree::new(g.size, root, g.rank);
            let steps = ceil_log2(g.size);
            let recvs = tree
                .children
                .iter()
                .map(|c| Recv {
                    step: steps - 1 - c.depth,
                    from: c.rank,
                    len: data.len(),
                })
                .collect();
            let m = Binomial {
                g,
                root,
                red,
                tree,
                steps,
                acc: data,
            };
            Driven::boxed(m, recvs)
        }
        ReduceAlgo::ReduceScatterGather => {
            rabenseifner::build(g, red, data, Finish::GatherTo(root))
        }
    })
}

/// A child of the order-preserving tree: the leader of a half range.
#[derive(Debug, Clone, Copy)]
struct Child {
    rank: Rank,
    /// Depth of the split that made it a child.
    depth: u32,
    /// True if its range lies below mine.
    lower: bool,
}

/// One rank's place in the order-preserving tree.
#[derive(Debug, Clone)]
struct Tree {
    /// (leader, depth) I send my partial result to; `None` at the root.
    parent: Option<(Rank, u32)>,
    /// My children, deepest first.
    children: Vec<Child>,
}

impl Tree {
    fn new(n: u32, root: Rank, me: Rank) -> Self {
        let (mut lo, mut hi, mut leader) = (0, n, root);
        let mut parent = None;
        let mut children = Vec::new();
        let mut depth = 0;
        while hi - lo > 1 {
            let mid = lo + (hi - lo).div_ceil(2);
            let (keep, other) = if leader < mid {
                ((lo, mid), (mid, hi))
            } else {
                ((mid, hi), (lo, mid))
            };
            let other_leader = other.0;
            let in_other = me >= other.0 && me < other.1;
            if in_other {
                if me == other_leader {
                    parent = Some((leader, depth));
                }
                leader = other_leader;
                (lo, hi) = other;
            } else {
                if me == leader {
                    children.push(Child {
                        rank: other_leader,
                        depth,
                        lower: other.0 < keep.0,
                    });
                }
                (lo, hi) = keep;
            }
            depth += 1;
        }
        children.reverse();
        Self { parent, children }
    }
}

#[derive(Debug)]
struct Binomial {
    g: Group,
    root: Rank,
    red: Reducer,
    tree: Tree,
    /// Number of distinct steps, `ceil(log2 n)`.
    steps: u32,
    acc: Vec<u8>,
}

impl Binomial {
    /// Sends my partial result up once every child has been combined.
    fn send_up(&mut self, out: &mut Outbox) {
        if let Some((to, depth)) = self.tree.parent {
            let data = core::mem::take(&mut self.acc);
            out.send(to, self.steps - 1 - depth, Bytes::from(data));
        }
    }
}

impl Steps for Binomial {
    fn size(&self) -> u32 {
        self.g.size
    }

    fn on_start(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        if self.tree.children.is_empty() {
            self.send_up(out);
        }
        Ok(())
    }

    fn on_recv(&mut self, recv: Recv, payload: Bytes, out: &mut Outbox) -> Result<(), ProtoError> {
        let depth = self.steps - 1 - recv.step;
        let (idx, child) = self
            .tree
            .children
            .iter()
            .enumerate()
            .find(|(_, c)| c.depth == depth)
            .ok_or(ProtoError::UnexpectedMessage {
                from: recv.from,
                step: recv.step,
            })?;
        let order = if child.lower {
            Order::IncFirst
        } else {
            Order::AccFirst
        };
        self.red.reduce_into(&mut self.acc, &payload, order)?;
        if idx + 1 == self.tree.children.len() {
            self.send_up(out);
        }
        Ok(())
    }

    fn output(self) -> Vec<u8> {
        if self.g.rank == self.root {
            self.acc
        } else {
            Vec::new()
        }
    }
}
