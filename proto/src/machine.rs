//! The contract between a collective algorithm and whatever moves its messages.
//!
//! A [`Collective`] is a state machine for one rank's part of one collective call. The driver
//! (the engine, or [`crate::sim`]) calls [`Collective::start`] once, then
//! [`Collective::deliver`] for every message addressed to this rank, in any order, until
//! [`Collective::is_done`]; then [`Collective::finish`] yields this rank's output bytes.
//!
//! Messages are tagged with a `step` chosen by the algorithm, so a machine can tell rounds apart
//! when they arrive early or out of order. [`Inbox`] buffers early arrivals by (peer, step).
//!
//! Failures are fail-stop: a failed peer sends and receives nothing more. The driver tells a
//! running machine with [`Collective::peer_failed`], as the engine's driver is told with its
//! `CollEvent::PeerLost`; a machine that cannot complete without the peer (every collective but
//! fault-tolerant ones such as [`crate::fault::agree`]) answers [`PeerFailed`], and the driver
//! fails the call naming that rank.

use crate::prelude::*;

use crate::error::ProtoError;
use crate::types::Rank;
use alloc::collections::BTreeMap;
use bytes::Bytes;

/// A message a machine wants sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outgoing {
    /// Destination rank (group-local).
    pub to: Rank,
    /// Algorithm-defined step, echoed to the receiver.
    pub step: u32,
    /// Raw payload bytes (never serialized).
    pub payload: Bytes,
}

/// A message delivered to a machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Incoming {
    /// Sender rank (group-local).
    pub from: Rank,
    /// The sender's step.
    pub step: u32,
    /// Raw payload bytes.
    pub payload: Bytes,
}

impl Incoming {
    /// The error for a message that fits no slot of the receiver's schedule.
    pub fn unexpected(&self) -> ProtoError {
        ProtoError::UnexpectedMessage {
            from: self.from,
            step: self.step,
        }
    }

    /// The error for a second message in a slot already filled.
    pub fn duplicate(&self) -> ProtoError {
        ProtoError::DuplicateMessage {
            from: self.from,
            step: self.step,
        }
    }

    /// Rejects a payload that is not exactly `expected` bytes, on arrival (before buffering).
    pub fn expect_len(&self, expected: usize) -> Result<(), ProtoError> {
        if self.payload.len() != expected {
            return Err(ProtoError::LengthMismatch {
                from: self.from,
                step: self.step,
                expected,
                got: self.payload.len(),
            });
        }
        Ok(())
    }
}

/// Where a machine puts messages to send. The driver drains it after every call.
#[derive(Debug, Default)]
pub struct Outbox {
    msgs: Vec<Outgoing>,
}

impl Outbox {
    /// An empty outbox.
    pub fn new() -> Self {
        Self::default()
    }

    /// Queues `payload` for rank `to` at `step`.
    pub fn send(&mut self, to: Rank, step: u32, payload: Bytes) {
        self.msgs.push(Outgoing { to, step, payload });
    }

    /// Takes every queued message, in the order they were queued.
    pub fn drain(&mut self) -> alloc::vec::Drain<'_, Outgoing> {
        self.msgs.drain(..)
    }

    /// Number of queued messages.
    pub fn len(&self) -> usize {
        self.msgs.len()
    }

    /// True if nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.msgs.is_empty()
    }
}

/// A machine's answer when told a peer failed: the call cannot complete without `rank`. The
/// engine turns it into its process-failed error naming the rank, what its driver returns today
/// when a member is lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("rank {rank} failed")]
pub struct PeerFailed {
    /// The failed rank (group-local).
    pub rank: Rank,
}

/// One rank's part of one collective call, as a sans-IO state machine.
///
/// Implementations must accept messages in any order (buffer early ones, typically with
/// [`Inbox`]) and must reject messages they can never use, so a mismatched call fails loudly
/// instead of hanging.
pub trait Collective: Send {
    /// Emits the first messages. Called exactly once, before any `deliver`.
    fn start(&mut self, out: &mut Outbox) -> Result<(), ProtoError>;

    /// Hands the machine one message addressed to it; it may emit more.
    fn deliver(&mut self, msg: Incoming, out: &mut Outbox) -> Result<(), ProtoError>;

    /// True once this rank's part is complete (all its sends emitted, all needed input received).
    fn is_done(&self) -> bool;

    /// This rank's output bytes. What they mean depends on the collective (for example, the
    /// reduced vector for allreduce, or nothing for a non-root rank of reduce).
    fn finish(self: Box<Self>) -> Result<Vec<u8>, ProtoError>;

    /// The driver learned that group rank `rank` failed (fail-stop: it sends and receives
    /// nothing more; messages it sent before may still arrive). Called while the machine is not
    /// done, or at any time for a machine that [`serves_after_done`](Self::serves_after_done);
    /// the same rank may be reported more than once. A fault-tolerant machine records it and
    /// may emit messages; the default gives up: [`PeerFailed`] naming `rank`.
    fn peer_failed(&mut self, rank: Rank, out: &mut Outbox) -> Result<(), PeerFailed> {
        let _ = out;
        Err(PeerFailed { rank })
    }

    /// True if messages that reach this machine after [`is_done`](Self::is_done) must still be
    /// delivered to it (it answers peers after its own result is fixed, as agreement answers a
    /// later coordinator's query). False by default: such a message is a protocol error.
    fn serves_after_done(&self) -> bool {
        false
    }
}

/// Buffers messages by (sender, step) until the machine is ready for them.
#[derive(Debug, Default)]
pub struct Inbox {
    pending: BTreeMap<(Rank, u32), Bytes>,
}

impl Inbox {
    /// An empty inbox.
    pub fn new() -> Self {
        Self::default()
    }

    /// Stores a message; a second message for the same (sender, step) is an error.
    pub fn put(&mut self, msg: Incoming) -> Result<(), ProtoError> {
        match self.pending.entry((msg.from, msg.step)) {
            alloc::collections::btree_map::Entry::Occupied(_) => {
                Err(ProtoError::DuplicateMessage {
                    from: msg.from,
                    step: msg.step,
                })
            }
            alloc::collections::btree_map::Entry::Vacant(v) => {
                v.insert(msg.payload);
                Ok(())
            }
        }
    }

    /// Removes and returns the message from `from` at `step`, if it has arrived.
    pub fn take(&mut self, from: Rank, step: u32) -> Option<Bytes> {
        self.pending.remove(&(from, step))
    }

    /// Like [`Inbox::take`], but checks the payload is exactly `expected` bytes.
    pub fn take_exact(
        &mut self,
        from: Rank,
        step: u32,
        expected: usize,
    ) -> Result<Option<Bytes>, ProtoError> {
        match self.pending.remove(&(from, step)) {
            None => Ok(None),
            Some(p) if p.len() == expected => Ok(Some(p)),
            Some(p) => Err(ProtoError::LengthMismatch {
                from,
                step,
                expected,
                got: p.len(),
            }),
        }
    }

    /// True if nothing is buffered.
    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }

    /// An error naming one buffered message, for machines that finish with leftovers.
    pub fn leftover_error(&self) -> Option<ProtoError> {
        self.pending
            .keys()
            .min()
            .map(|&(from, step)| ProtoError::UnexpectedMessage { from, step })
    }
}

/// Checks that a message's sender is a member of a group of `size`.
pub fn check_sender(msg: &Incoming, size: u32) -> Result<(), ProtoError> {
    if msg.from >= size {
        return Err(ProtoError::UnexpectedMessage {
            from: msg.from,
            step: msg.step,
        });
    }
    Ok(())
}
