//! Recursive-doubling allreduce, for small vectors.
//!
//! Let `p2` be the largest power of two `<= n` and `rem = n - p2`.
//! 1. Fold (step 0): among the first `2 * rem` ranks, each even rank sends its vector to the odd
//!    rank above it, which computes `x[r-1] ⊕ x[r]`. The odd ranks of the fold and the ranks
//!    `>= 2 * rem` form `p2` participants with new ranks `0..p2`, in rank order.
//! 2. Doubling (step `1 + k`, `k < log2 p2`): participants exchange their whole partial result with
//!    new rank `nr ^ 2^k` and both compute `lower ⊕ higher`, so both hold the same bits.
//! 3. Unfold (step `1 + log2 p2`): each odd rank of the fold sends the result to its even partner.
//!
//! Messages: `p2 * log2(p2) + 2 * rem`. Rounds (the dependency depth [`crate::sim`] reports):
//! `log2(p2)` if `rem = 0`, else `log2(p2) + 1 + [rem > p2 / 2]`: participants outside the fold
//! start exchanging without waiting for it, so the fold only lengthens the critical path when an
//! absorber's partial must cross every exchange. Each element is reduced as a balanced tree over
//! the rank order (after the fold), with the lower-ranked partial result always on the left.

use crate::prelude::*;

use crate::algo::floor_pow2;
use crate::algo::sched::{Driven, Recv, Steps};
use crate::error::ProtoError;
use crate::kernels::Order;
use crate::machine::{Collective, Outbox};
use crate::reducer::Reducer;
use crate::types::{Group, Rank};
use bytes::Bytes;

/// Fold geometry shared with [`super::rabenseifner`]: which ranks take part after the fold.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fold {
    /// Largest power of two `<= n`.
    pub p2: u32,
    /// `n - p2`: the number of (even, odd) pairs folded together.
    pub rem: u32,
    /// `log2(p2)`.
    pub levels: u32,
}

/// What one rank does in the fold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// An even rank below `2 * rem`: hands its vector to `rank + 1` and sits out.
    Donor,
    /// An odd rank below `2 * rem`: absorbs `rank - 1`, then takes part with new rank `nr`.
    Absorber {
        /// New rank among the participants.
        nr: u32,
    },
    /// A rank `>= 2 * rem`: takes part with new rank `nr`.
    Plain {
        /// New rank among the participants.
        nr: u32,
    },
}

impl Fold {
    /// The fold for a group of `n`.
    pub fn new(n: u32) -> Self {
        let p2 = floor_pow2(n);
        Self {
            p2,
            rem: n - p2,
            levels: p2.trailing_zeros(),
        }
    }

    /// The fold role of rank `r`.
    pub fn role(&self, r: Rank) -> Role {
        if r < 2 * self.rem {
            if r.is_multiple_of(2) {
                Role::Donor
            } else {
                Role::Absorber { nr: r / 2 }
            }
        } else {
            Role::Plain { nr: r - self.rem }
        }
    }

    /// The absolute rank of participant `nr`.
    pub fn rank_of(&self, nr: u32) -> Rank {
        if nr < self.rem {
            2 * nr + 1
        } else {
            nr + self.rem
        }
    }
}

/// Order for combining my partial (new rank `mine`) with a partner's (`theirs`).
pub(crate) fn order(mine: u32, theirs: u32) -> Order {
    if theirs < mine {
        Order::IncFirst
    } else {
        Order::AccFirst
    }
}

#[derive(Debug)]
struct RecursiveDoubling {
    g: Group,
    red: Reducer,
    fold: Fold,
    role: Role,
    acc: Vec<u8>,
}

const FOLD_STEP: u32 = 0;

impl RecursiveDoubling {
    fn round_step(k: u32) -> u32 {
        1 + k
    }

    fn unfold_step(&self) -> u32 {
        1 + self.fold.levels
    }

    fn partner(&self, nr: u32, k: u32) -> Rank {
        self.fold.rank_of(nr ^ (1 << k))
    }

    fn recvs(&self) -> Vec<Recv> {
        let len = self.acc.len();
        let r = self.g.rank;
        let mut v = Vec::new();
        match self.role {
            Role::Donor => v.push(Recv {
                step: self.unfold_step(),
                from: r + 1,
                len,
            }),
            Role::Absorber { nr } | Role::Plain { nr } => {
                if matches!(self.role, Role::Absorber { .. }) {
                    v.push(Recv {
                        step: FOLD_STEP,
                        from: r - 1,
                        len,
                    });
                }
                for k in 0..self.fold.levels {
                    v.push(Recv {
                        step: Self::round_step(k),
                        from: self.partner(nr, k),
                        len,
                    });
                }
            }
        }
        v
    }

    /// Sends round `k`'s exchange, or the unfold once every round is done.
    fn send_round(&self, nr: u32, k: u32, out: &mut Outbox) {
        if k < self.fold.levels {
            let to = self.partner(nr, k);
            out.send(to, Self::round_step(k), Bytes::copy_from_slice(&self.acc));
        } else if matches!(self.role, Role::Absorber { .. }) {
            let to = self.g.rank - 1;
            out.send(to, self.unfold_step(), Bytes::copy_from_slice(&self.acc));
        }
    }
}

impl Steps for RecursiveDoubling {
    fn size(&self) -> u32 {
        self.g.size
    }

    fn on_start(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        match self.role {
            Role::Donor => {
                let data = core::mem::take(&mut self.acc);
                out.send(self.g.rank + 1, FOLD_STEP, Bytes::from(data));
            }
            Role::Absorber { .. } => {}
            Role::Plain { nr } => self.send_round(nr, 0, out),
        }
        Ok(())
    }

    fn on_recv(&mut self, recv: Recv, payload: Bytes, out: &mut Outbox) -> Result<(), ProtoError> {
        match self.role {
            Role::Donor => self.acc = Vec::from(payload),
            Role::Absorber { nr } | Role::Plain { nr } => {
                if recv.step == FOLD_STEP {
                    self.red
                        .reduce_into(&mut self.acc, &payload, Order::IncFirst)?;
                    self.send_round(nr, 0, out);
                } else {
                    let k = recv.step - 1;
                    let ord = order(nr, nr ^ (1 << k));
                    self.red.reduce_into(&mut self.acc, &payload, ord)?;
                    self.send_round(nr, k + 1, out);
                }
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
    let fold = Fold::new(g.size);
    let m = RecursiveDoubling {
        g,
        red,
        fold,
        role: fold.role(g.rank),
        acc: data,
    };
    let recvs = m.recvs();
    Driven::boxed(m, recvs)
}
