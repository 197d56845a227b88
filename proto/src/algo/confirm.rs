//! A collective followed by a confirmation round: once the inner machine is done, every rank
//! runs a dissemination barrier (steps from [`CONFIRM_STEP_BASE`]) before it reports done.
//!
//! Why: in a rooted collective some ranks finish without hearing from every member (a bcast
//! root sends and is done; a reduce leaf sends its contribution and is done). When members
//! disagree about the call (a different root, a different collective), such a rank would return
//! success while its peers fail. The driver checks every frame's call fingerprint; the barrier
//! makes every rank hear (transitively) from every other one, so a rank whose call differs is
//! found by someone, and the driver's mismatch notice then fails the call everywhere. The cost
//! is one barrier per call, so the engine runs it only when asked (strict collective checking).
//!
//! Messages of the barrier that arrive while the inner machine still runs (a faster peer) are
//! kept until the inner machine is done; the barrier starts only then.

use crate::prelude::*;

use crate::algo::barrier::Barrier;
use crate::error::ProtoError;
use crate::machine::{Collective, Incoming, Outbox, PeerFailed};
use crate::types::{Group, Rank};

/// The first step of the confirmation barrier; the inner machine's steps must stay below it.
pub const CONFIRM_STEP_BASE: u32 = 0x4000_0000;

/// `inner`, then a barrier among the same group.
pub struct Confirmed {
    inner: Box<dyn Collective>,
    barrier: Barrier,
    /// The barrier started (the inner machine is done).
    started: bool,
    /// Barrier messages that arrived before it started.
    early: Vec<Incoming>,
}

impl core::fmt::Debug for Confirmed {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Confirmed")
            .field("barrier", &self.barrier)
            .field("started", &self.started)
            .field("early", &self.early.len())
            .finish()
    }
}

impl Confirmed {
    /// `inner` (a machine of group `g`) followed by a confirmation barrier of `g`.
    pub fn new(inner: Box<dyn Collective>, g: Group) -> Self {
        Self {
            inner,
            barrier: Barrier::new(g),
            started: false,
            early: Vec::new(),
        }
    }

    /// Moves an outbox of barrier messages into `out`, on the barrier's steps.
    fn shifted(barrier_out: &mut Outbox, out: &mut Outbox) {
        for m in barrier_out.drain() {
            out.send(m.to, CONFIRM_STEP_BASE + m.step, m.payload);
        }
    }

    /// Once the inner machine is done: starts the barrier and hands it the early messages.
    fn maybe_start_barrier(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        if self.started || !self.inner.is_done() {
            return Ok(());
        }
        self.started = true;
        let mut b = Outbox::new();
        self.barrier.start(&mut b)?;
        for msg in core::mem::take(&mut self.early) {
            self.barrier.deliver(msg, &mut b)?;
        }
        Self::shifted(&mut b, out);
        Ok(())
    }
}

impl Collective for Confirmed {
    fn start(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        self.inner.start(out)?;
        self.maybe_start_barrier(out)
    }

    fn deliver(&mut self, msg: Incoming, out: &mut Outbox) -> Result<(), ProtoError> {
        if msg.step < CONFIRM_STEP_BASE {
            self.inner.deliver(msg, out)?;
            return self.maybe_start_barrier(out);
        }
        let msg = Incoming {
            step: msg.step - CONFIRM_STEP_BASE,
            ..msg
        };
        if !self.started {
            self.early.push(msg);
            return Ok(());
        }
        let mut b = Outbox::new();
        self.barrier.deliver(msg, &mut b)?;
        Self::shifted(&mut b, out);
        Ok(())
    }

    fn is_done(&self) -> bool {
        self.started && self.barrier.is_done()
    }

    fn finish(self: Box<Self>) -> Result<Vec<u8>, ProtoError> {
        if !self.is_done() {
            return Err(ProtoError::NotFinished);
        }
        self.inner.finish()
    }

    fn peer_failed(&mut self, rank: Rank, out: &mut Outbox) -> Result<(), PeerFailed> {
        // The barrier needs every member: any loss ends the call, as in the inner machine.
        if self.started {
            return Err(PeerFailed { rank });
        }
        self.inner.peer_failed(rank, out)
    }
}
