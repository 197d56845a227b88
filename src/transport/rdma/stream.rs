//! A connected [`QueuePair`] as an ordered byte stream with credit-based
//! flow control: [`QpWriter`] at the sending end, [`QpReader`] at the receiving end.
//!
//! # Messages
//!
//! Every SEND is one message: the 8-byte header of `message.rs` (kind, credits, payload
//! length) and up to `send_slot_len - 8` stream bytes. The writer sends `Data` messages and,
//! last, one `End` (which may carry the final bytes); the reader sends `Credit` messages back
//! on the same queue pair. A reliable connection delivers them in order.
//!
//! # Flow control: nobody ever SENDs without a receive posted on the other side
//!
//! Let `Rr` be the reader's receive slots and `Rw` the writer's.
//!
//! * **Writer to reader.** The writer starts with `Rr` credits (its `credits` argument: the
//!   reader posted every receive before the writer was told the lane is ready) and spends one
//!   per `Data`/`End` message. The reader reposts a receive when the user has read a message,
//!   and only then counts one credit owed. The credits the writer holds, the messages on their
//!   way or unread, the credits the reader owes and those in unprocessed `Credit` messages
//!   always add up to `Rr`, so the writer's messages never outnumber the reader's posted
//!   receives. A credit return that would push the writer past `Rr` is rejected as a
//!   protocol error ("credit overflow").
//! * **Reader to writer.** The writer posts all `Rw` receives before its first send and
//!   announces `Rw` in the `credits` field of every `Data`/`End` message. The reader returns
//!   credits only in batches of at least `b >= ceil(Rr / Rw)` (also at least a quarter of the
//!   window, to save messages; never more than `Rr`). A `Credit` message occupies a
//!   writer receive from its SEND until the writer processes it, and the writer reposts that
//!   receive at the moment it processes the message. The credits inside unprocessed `Credit`
//!   messages are part of the `Rr` above, so at most `Rr / b <= Rw` of them exist at once:
//!   never more than the writer's posted receives. The reader sends no `Credit` after the
//!   writer's `End` (the writer may be gone).
//!
//! No deadlock: a writer without credits means all `Rr` are read-but-owed (the reader sends
//! them as soon as `b <= Rr` are owed), unread (the reader's user holds them: backpressure),
//! or already travelling back.
//!
//! The in-memory fake of `fake.rs` fails a SEND that finds no posted receive (as RNR would on
//! hardware), so the tests in `stream_tests.rs` check the invariant on every message.
//!
//! # Waiting
//!
//! Completion queues are polled without blocking; an end with nothing to do yields a few
//! times, then sleeps with backoff (see `backoff.rs`). Both ends therefore need a tokio
//! runtime with its timer enabled.

mod reader;
mod writer;

#[cfg(test)]
pub(crate) use reader::credit_batch;
pub use reader::{QpReader, ReaderStats};
pub use writer::{QpWriter, WriterStats};

use super::QueuePair;
use super::message::invalid;
use std::io;

/// The first error an end hit, kept so every later call reports it again.
#[derive(Debug, Default)]
struct Sticky(Option<(io::ErrorKind, String)>);

impl Sticky {
    /// Records `e` (if none yet) and returns it.
    fn set(&mut self, e: io::Error) -> io::Error {
        if self.0.is_none() {
            self.0 = Some((e.kind(), e.to_string()));
        }
        e
    }

    /// The recorded error, as a fresh `io::Error`.
    fn get(&self) -> Option<io::Error> {
        self.0.as_ref().map(|(k, m)| io::Error::new(*k, m.clone()))
    }
}

/// Returns send slot `slot` (one of `slots`) to the free list `free` once its send completed;
/// a completion for a slot that was not posted is an error naming `end`.
fn send_completed(free: &mut Vec<usize>, slots: usize, slot: usize, end: &str) -> io::Result<()> {
    if slot >= slots || free.contains(&slot) {
        return Err(io::Error::other(format!(
            "RDMA lane {end}: send completion for slot {slot}, which was not posted"
        )));
    }
    free.push(slot);
    Ok(())
}

/// Checks a receive completion names one of `qp`'s receive slots and fits it; the error names
/// `end`.
fn received_in_range(qp: &dyn QueuePair, slot: usize, len: usize, end: &str) -> io::Result<()> {
    if slot >= qp.recv_slots() || len > qp.recv_slot_len() {
        return Err(invalid(format!(
            "RDMA lane {end}: receive completion for slot {slot} of {len} bytes is out of range"
        )));
    }
    Ok(())
}

/// The error for a [`Completion::Failed`](super::Completion::Failed) the device reported.
fn failed(end: &str, what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::ConnectionAborted,
        format!("RDMA lane {end}: work request failed: {what}"),
    )
}

/// Wraps an error from a queue pair call with what the lane was doing.
fn qp_error(end: &str, doing: &str, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("RDMA lane {end}: {doing}: {e}"))
}
