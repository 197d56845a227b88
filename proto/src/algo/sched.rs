//! The receive schedule shared by the bcast, reduce and allreduce machines.
//!
//! Every one of these machines consumes its incoming messages in one fixed sequence, known when
//! the machine is built: a list of (step, peer, length) sorted by step, with at most one message
//! per step. [`RecvPlan`] checks each delivered message against that list on arrival (wrong peer,
//! unknown or already consumed step: [`ProtoError::UnexpectedMessage`]; wrong size:
//! [`ProtoError::LengthMismatch`]), buffers early ones, and hands them out strictly in order.
//!
//! [`Driven`] turns a [`Steps`] implementation (what to send at start and after each receive) into
//! a [`Collective`], so each algorithm only describes its schedule and its reactions.

use crate::prelude::*;

use crate::error::ProtoError;
use crate::machine::{Collective, Inbox, Incoming, Outbox, check_sender};
use crate::types::Rank;
use bytes::Bytes;

/// One expected incoming message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Recv {
    /// The sender's step.
    pub step: u32,
    /// The sender.
    pub from: Rank,
    /// Exact payload length in bytes.
    pub len: usize,
}

/// The ordered list of messages a machine will receive, with an inbox for early arrivals.
#[derive(Debug, Default)]
pub(crate) struct RecvPlan {
    recvs: Vec<Recv>,
    next: usize,
    inbox: Inbox,
}

impl RecvPlan {
    /// A plan for `recvs`, which must be sorted by strictly increasing step.
    pub fn new(recvs: Vec<Recv>) -> Self {
        debug_assert!(recvs.windows(2).all(|w| w[0].step < w[1].step));
        Self {
            recvs,
            next: 0,
            inbox: Inbox::new(),
        }
    }

    /// Checks `msg` against the plan and buffers it.
    pub fn accept(&mut self, msg: Incoming, size: u32) -> Result<(), ProtoError> {
        check_sender(&msg, size)?;
        let idx = self
            .recvs
            .binary_search_by_key(&msg.step, |r| r.step)
            .map_err(|_| msg.unexpected())?;
        let want = self.recvs[idx];
        if want.from != msg.from {
            return Err(msg.unexpected());
        }
        if idx < self.next {
            return Err(msg.duplicate());
        }
        msg.expect_len(want.len)?;
        self.inbox.put(msg)
    }

    /// The next message of the plan, if it has arrived.
    pub fn pop(&mut self) -> Option<(Recv, Bytes)> {
        let want = *self.recvs.get(self.next)?;
        let payload = self.inbox.take(want.from, want.step)?;
        self.next += 1;
        Some((want, payload))
    }

    /// True once every planned message has been consumed.
    pub fn is_complete(&self) -> bool {
        self.next == self.recvs.len()
    }
}

/// An algorithm's reactions: what to send at start and after each planned receive.
pub(crate) trait Steps: Send + 'static {
    /// Group size, for sender checks.
    fn size(&self) -> u32;

    /// Emits the first messages.
    fn on_start(&mut self, out: &mut Outbox) -> Result<(), ProtoError>;

    /// Consumes the next planned message (in plan order) and emits what follows from it.
    fn on_recv(&mut self, recv: Recv, payload: Bytes, out: &mut Outbox) -> Result<(), ProtoError>;

    /// This rank's output, once every planned message has been consumed.
    fn output(self) -> Vec<u8>;
}

/// A [`Collective`] made of a [`RecvPlan`] and the [`Steps`] reacting to it.
#[derive(Debug)]
pub(crate) struct Driven<S> {
    steps: S,
    plan: RecvPlan,
    started: bool,
}

impl<S: Steps> Driven<S> {
    /// Boxes `steps` with the receive plan `recvs`.
    pub fn boxed(steps: S, recvs: Vec<Recv>) -> Box<dyn Collective> {
        Box::new(Self {
            steps,
            plan: RecvPlan::new(recvs),
            started: false,
        })
    }

    fn advance(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        while let Some((recv, payload)) = self.plan.pop() {
            self.steps.on_recv(recv, payload, out)?;
        }
        Ok(())
    }
}

impl<S: Steps> Collective for Driven<S> {
    fn start(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        if self.started {
            return Err(ProtoError::InvalidArgument(
                "collective started twice".to_string(),
            ));
        }
        self.started = true;
        self.steps.on_start(out)?;
        self.advance(out)
    }

    fn deliver(&mut self, msg: Incoming, out: &mut Outbox) -> Result<(), ProtoError> {
        self.plan.accept(msg, self.steps.size())?;
        // Messages that beat `start` wait in the inbox; `start` consumes them.
        if self.started {
            self.advance(out)?;
        }
        Ok(())
    }

    fn is_done(&self) -> bool {
        self.started && self.plan.is_complete()
    }

    fn finish(self: Box<Self>) -> Result<Vec<u8>, ProtoError> {
        if !self.is_done() {
            return Err(ProtoError::NotFinished);
        }
        Ok(self.steps.output())
    }
}
