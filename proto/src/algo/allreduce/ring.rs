//! Ring allreduce, for large vectors: a ring reduce-scatter then a ring allgather over `n` blocks
//! of whole elements ([`crate::partition::block_bytes`]).
//!
//! * Reduce-scatter, steps `s = 0..n-1`: rank `r` sends block `(r - 1 - s) mod n` to `r + 1` and
//!   receives block `(r - 2 - s) mod n` from `r - 1`, which it combines into its own copy. After
//!   `n - 1` steps rank `r` holds the full reduction of block `r`.
//! * Allgather, steps `n - 1 + t`, `t = 0..n-1`: rank `r` sends block `(r - t) mod n` to `r + 1`
//!   and receives block `(r - 1 - t) mod n` from `r - 1`, forwarding it at the next step.
//!
//! Every message is sent, even when its block is empty (fewer elements than ranks).
//! Messages: `2 * n * (n - 1)`; rounds: `2 * (n - 1)`.
//!
//! Block `b` is reduced once, along the ring from rank `b + 1` to rank `b`, and then copied, so
//! every rank holds identical bits. Each rank puts the incoming partial result on the left,
//! except rank 0, whose incoming partial covers only higher ranks: block `b` is
//! `((x[0] ⊕ (x[b+1] ⊕ ... ⊕ x[n-1])) ⊕ x[1]) ⊕ ... ⊕ x[b]`, one fixed bracketing that equals
//! the rank-ordered reduction for every predefined (commutative) operator up to rounding.
//! It is not the rank-ordered product for a non-commutative custom op, so it is never selected
//! for one (and refused when forced: [`crate::select::reductions::AllreduceAlgo::preserves_order`]).

use crate::prelude::*;

use crate::algo::sched::{Driven, Recv, Steps};
use crate::error::ProtoError;
use crate::kernels::Order;
use crate::machine::{Collective, Outbox};
use crate::partition::block_bytes;
use crate::reducer::Reducer;
use crate::types::{Group, Rank};
use bytes::Bytes;
use core::ops::Range;

#[derive(Debug)]
struct Ring {
    g: Group,
    red: Reducer,
    count: usize,
    acc: Vec<u8>,
}

impl Ring {
    fn n(&self) -> u32 {
        self.g.size
    }

    /// `(r - d) mod n` for the local rank `r`.
    fn back(&self, d: u32) -> u32 {
        let n = u64::from(self.n());
        ((u64::from(self.g.rank) + n - u64::from(d) % n) % n) as u32
    }

    fn block(&self, b: u32) -> Range<usize> {
        block_bytes(
            self.count,
            self.n() as usize,
            b as usize,
            self.red.elem_size(),
        )
    }

    fn next(&self) -> Rank {
        (self.g.rank + 1) % self.n()
    }

    fn send_block(&self, b: u32, step: u32, out: &mut Outbox) {
        let payload = Bytes::copy_from_slice(&self.acc[self.block(b)]);
        out.send(self.next(), step, payload);
    }

    fn recvs(&self) -> Vec<Recv> {
        let n = self.n();
        if n == 1 {
            return Vec::new();
        }
        let from = self.back(1);
        let rs = (0..n - 1).map(|s| Recv {
            step: s,
            from,
            len: self.block(self.back(2 + s)).len(),
        });
        let ag = (0..n - 1).map(|t| Recv {
            step: n - 1 + t,
            from,
            len: self.block(self.back(1 + t)).len(),
        });
        rs.chain(ag).collect()
    }
}

impl Steps for Ring {
    fn size(&self) -> u32 {
        self.g.size
    }

    fn on_start(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        if self.n() > 1 {
            self.send_block(self.back(1), 0, out);
        }
        Ok(())
    }

    fn on_recv(&mut self, recv: Recv, payload: Bytes, out: &mut Outbox) -> Result<(), ProtoError> {
        let n = self.n();
        if recv.step < n - 1 {
            // Reduce-scatter step s: combine block (r - 2 - s), pass it on (or keep it at the end).
            let s = recv.step;
            let b = self.back(2 + s);
            let range = self.block(b);
            let order = if self.g.rank == 0 {
                Order::AccFirst
            } else {
                Order::IncFirst
            };
            self.red
                .reduce_into(&mut self.acc[range], &payload, order)?;
            if s + 1 < n - 1 {
                self.send_block(b, s + 1, out);
            } else {
                // Block r is complete: start the allgather with it.
                self.send_block(self.g.rank, n - 1, out);
            }
        } else {
            // Allgather step t: store block (r - 1 - t) and forward it.
            let t = recv.step - (n - 1);
            let range = self.block(self.back(1 + t));
            self.acc[range].copy_from_slice(&payload);
            if t + 1 < n - 1 {
                out.send(self.next(), recv.step + 1, payload);
            }
        }
        Ok(())
    }

    fn output(self) -> Vec<u8> {
        self.acc
    }
}

/// Builds the machine; arguments already checked by [`super::check_reduction`].
pub(crate) fn build(g: Group, red: Reducer, data: Vec<u8>) -> Box<dyn Collective> {
    let count = data.len() / red.elem_size();
    let m = Ring {
        g,
        red,
        count,
        acc: data,
    };
    let recvs = m.recvs();
    Driven::boxed(m, recvs)
}
