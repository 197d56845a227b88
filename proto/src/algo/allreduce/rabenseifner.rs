//! Rabenseifner's allreduce and, finishing with a gather instead of the allgather, the
//! reduce-scatter + gather reduce: bandwidth optimal with logarithmic latency.
//!
//! With `p2`, `rem` and the participants' new ranks `nr` as in [`super::recursive_doubling`]
//! (`L = log2 p2`), the vector is cut into `p2` blocks of whole elements.
//! 1. Fold (step 0): even ranks below `2 * rem` send their vector to the odd rank above them.
//! 2. Reduce-scatter by recursive halving (step `1 + k`, `k = 0..L`): the participant holds a
//!    range of blocks; it keeps the lower half if bit `k` of `nr` is 0, else the upper half, sends
//!    the other half to `nr ^ 2^k` and combines what that partner sends for its kept half (lower
//!    new rank on the left). Distances grow from 1, so every partial covers a contiguous range of
//!    ranks and each element is reduced in the same balanced bracketing as recursive doubling.
//! 3. Allreduce: recursive-doubling allgather (step `1 + L + j`, `j = 0..L`, partner
//!    `nr ^ 2^(L-1-j)`), then the unfold (step `1 + 2L`): odd ranks of the fold send the result to
//!    their even partner. Messages: `2 * p2 * L + 2 * rem`; rounds: `2L + 2 * [rem > 0]`.
//! 4. Reduce to a root: every participant other than the root sends its reduced block to the
//!    root (step `1 + L + nr`). Messages: `rem + p2 * L + p2 - [root is a participant]`;
//!    rounds: at most `L + 1 + [rem > 0]`.

use crate::prelude::*;

use super::recursive_doubling::{Fold, Role, order};
use crate::algo::sched::{Driven, Recv, Steps};
use crate::error::ProtoError;
use crate::kernels::Order;
use crate::machine::{Collective, Outbox};
use crate::partition::block_bytes;
use crate::reducer::Reducer;
use crate::types::{Group, Rank};
use bytes::Bytes;
use core::ops::Range;

/// How the reduced blocks are distributed after the reduce-scatter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Finish {
    /// Every rank gets the whole result (allreduce).
    Allgather,
    /// Only this root gets the result; other ranks output nothing (reduce).
    GatherTo(Rank),
}

#[derive(Debug)]
struct Rabenseifner {
    g: Group,
    red: Reducer,
    count: usize,
    fold: Fold,
    role: Role,
    finish: Finish,
    acc: Vec<u8>,
}

const FOLD_STEP: u32 = 0;

impl Rabenseifner {
    fn levels(&self) -> u32 {
        self.fold.levels
    }

    /// Blocks held by participant `nr` after `k` halving rounds.
    fn region(&self, nr: u32, k: u32) -> Range<u32> {
        let (mut lo, mut hi) = (0, self.fold.p2);
        for bit in 0..k {
            let mid = lo + (hi - lo) / 2;
            if nr & (1 << bit) == 0 {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        lo..hi
    }

    /// Byte range of a block range.
    fn bytes(&self, blocks: Range<u32>) -> Range<usize> {
        let (p2, elem) = (self.fold.p2 as usize, self.red.elem_size());
        let start = block_bytes(self.count, p2, blocks.start as usize, elem).start;
        let end = block_bytes(self.count, p2, blocks.end as usize - 1, elem).end;
        start..end
    }

    fn region_bytes(&self, nr: u32, k: u32) -> Range<usize> {
        self.bytes(self.region(nr, k))
    }

    fn rs_step(k: u32) -> u32 {
        1 + k
    }

    fn ag_step(&self, j: u32) -> u32 {
        1 + self.levels() + j
    }

    fn unfold_step(&self) -> u32 {
        1 + 2 * self.levels()
    }

    fn gather_step(&self, nr: u32) -> u32 {
        1 + self.levels() + nr
    }

    fn root_nr(&self, root: Rank) -> Option<u32> {
        match self.fold.role(root) {
            Role::Donor => None,
            Role::Absorber { nr } | Role::Plain { nr } => Some(nr),
        }
    }

    fn recvs(&self) -> Vec<Recv> {
        let r = self.g.rank;
        let l = self.levels();
        let mut v = Vec::new();
        if let Role::Absorber { .. } = self.role {
            v.push(Recv {
                step: FOLD_STEP,
                from: r - 1,
                len: self.acc.len(),
            });
        }
        if let Role::Absorber { nr } | Role::Plain { nr } = self.role {
            for k in 0..l {
                v.push(Recv {
                    step: Self::rs_step(k),
                    from: self.fold.rank_of(nr ^ (1 << k)),
                    len: self.region_bytes(nr, k + 1).len(),
                });
            }
            if self.finish == Finish::Allgather {
                for j in 0..l {
                    let k = l - 1 - j;
                    let partner = nr ^ (1 << k);
                    v.push(Recv {
                        step: self.ag_step(j),
                        from: self.fold.rank_of(partner),
                        len: self.region_bytes(partner, k + 1).len(),
                    });
                }
            }
        }
        match self.finish {
            Finish::Allgather => {
                if self.role == Role::Donor {
                    v.push(Recv {
                        step: self.unfold_step(),
                        from: r + 1,
                        len: self.acc.len(),
                    });
                }
            }
            Finish::GatherTo(root) if root == r => {
                let own = self.root_nr(root);
                for nr in (0..self.fold.p2).filter(|&nr| Some(nr) != own) {
                    v.push(Recv {
                        step: self.gather_step(nr),
                        from: self.fold.rank_of(nr),
                        len: self.region_bytes(nr, l).len(),
                    });
                }
            }
            Finish::GatherTo(_) => {}
        }
        v
    }

    /// Emits what follows `k` completed halving rounds.
    fn after_rs_round(&self, nr: u32, k: u32, out: &mut Outbox) {
        let l = self.levels();
        if k < l {
            let partner = nr ^ (1 << k);
            let range = self.region_bytes(partner, k + 1);
            let to = self.fold.rank_of(partner);
            out.send(
                to,
                Self::rs_step(k),
                Bytes::copy_from_slice(&self.acc[range]),
            );
            return;
        }
        match self.finish {
            Finish::Allgather => self.after_ag_round(nr, 0, out),
            Finish::GatherTo(root) => {
                if self.g.rank != root {
                    let range = self.region_bytes(nr, l);
                    let payload = Bytes::copy_from_slice(&self.acc[range]);
                    out.send(root, self.gather_step(nr), payload);
                }
            }
        }
    }

    /// Emits what follows `j` completed allgather rounds.
    fn after_ag_round(&self, nr: u32, j: u32, out: &mut Outbox) {
        let l = self.levels();
        if j < l {
            let k = l - 1 - j;
            let to = self.fold.rank_of(nr ^ (1 << k));
            let range = self.region_bytes(nr, k + 1);
            out.send(
                to,
                self.ag_step(j),
                Bytes::copy_from_slice(&self.acc[range]),
            );
        } else if let Role::Absorber { .. } = self.role {
            let payload = Bytes::copy_from_slice(&self.acc);
            out.send(self.g.rank - 1, self.unfold_step(), payload);
        }
    }
}

impl Steps for Rabenseifner {
    fn size(&self) -> u32 {
        self.g.size
    }

    fn on_start(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        match self.role {
            Role::Donor => {
                let to = self.g.rank + 1;
                if self.finish == Finish::GatherTo(self.g.rank) {
                    out.send(to, FOLD_STEP, Bytes::copy_from_slice(&self.acc));
                } else {
                    out.send(to, FOLD_STEP, Bytes::from(core::mem::take(&mut self.acc)));
                }
            }
            Role::Absorber { .. } => {}
            Role::Plain { nr } => self.after_rs_round(nr, 0, out),
        }
        Ok(())
    }

    fn on_recv(&mut self, recv: Recv, payload: Bytes, out: &mut Outbox) -> Result<(), ProtoError> {
        let l = self.levels();
        let nr = match self.role {
            Role::Donor => {
                match self.finish {
                    // The unfold: the whole result.
                    Finish::Allgather => self.acc = Vec::from(payload),
                    // A gathered block, at the root.
                    Finish::GatherTo(_) => {
                        let range = self.region_bytes(recv.step - 1 - l, l);
                        self.acc[range].copy_from_slice(&payload);
                    }
                }
                return Ok(());
            }
            Role::Absorber { nr } | Role::Plain { nr } => nr,
        };
        if recv.step == FOLD_STEP {
            self.red
                .reduce_into(&mut self.acc, &payload, Order::IncFirst)?;
            self.after_rs_round(nr, 0, out);
        } else if recv.step <= l {
            let k = recv.step - 1;
            let range = self.region_bytes(nr, k + 1);
            let ord = order(nr, nr ^ (1 << k));
            self.red.reduce_into(&mut self.acc[range], &payload, ord)?;
            self.after_rs_round(nr, k + 1, out);
        } else if self.finish == Finish::Allgather {
            let j = recv.step - 1 - l;
            let partner = nr ^ (1 << (l - 1 - j));
            let range = self.region_bytes(partner, l - j);
            self.acc[range].copy_from_slice(&payload);
            self.after_ag_round(nr, j + 1, out);
        } else {
            let sender = recv.step - 1 - l;
            let range = self.region_bytes(sender, l);
            self.acc[range].copy_from_slice(&payload);
        }
        Ok(())
    }

    fn output(self) -> Vec<u8> {
        match self.finish {
            Finish::GatherTo(root) if root != self.g.rank => Vec::new(),
            _ => self.acc,
        }
    }
}

/// Builds the machine; arguments (and the root, for [`Finish::GatherTo`]) already checked.
pub(crate) fn build(g: Group, red: Reducer, data: Vec<u8>, finish: Finish) -> Box<dyn Collective> {
    let fold = Fold::new(g.size);
    let m = Rabenseifner {
        g,
        count: data.len() / red.elem_size(),
        red,
        fold,
        role: fold.role(g.rank),
        finish,
        acc: data,
    };
    let recvs = m.recvs();
    Driven::boxed(m, recvs)
}
