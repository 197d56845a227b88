//! The RDMA bulk lane (cargo feature `rdma` for the verbs glue; the protocol here is plain Rust
//! and always compiled, so its tests run on every machine).
//!
//! Between hosts, frames of at least `quic::BULK_THRESHOLD` bytes may travel over an InfiniBand
//! or RoCE reliable-connected queue pair instead of the TLS or QUIC bulk lane. The lane is a
//! byte stream of frames (header then payload, exactly as on a QUIC stream) cut into messages
//! that fit the registered buffers, sent with two-sided SEND / RECV:
//!
//! * [`QueuePair`] is what the protocol needs from the hardware: fixed pools of registered send
//!   and receive buffers ("slots"), posting a send or a receive of one slot, and polling for
//!   completions. `ibv.rs` implements it with the `ibverbs` crate; the unit tests use an
//!   in-memory fake.
//! * [`stream`] turns a connected queue pair into an ordered byte stream with credit-based flow
//!   control (a sender never sends more messages than the receiver has receives posted).
//! * [`mr_cache`] keeps registered buffers across lanes: registration pins pages and costs a
//!   system call per page range, so pools are reused instead of registered per connection.

//! * [`setup`] is the set-up exchange over the peers' QUIC connection and [`probe`] says which
//!   device this process uses, or why none (`quic/rdma_lane.rs` ties them to the bulk lane).

mod backoff;
#[cfg(test)]
mod fake;
#[cfg(test)]
pub(crate) mod fake_factory;
#[cfg(feature = "rdma")]
mod ibv;
mod message;
pub mod mr_cache;
pub mod probe;
pub mod setup;
pub mod stream;
#[cfg(test)]
mod stream_tests;

use std::io;

/// A finished piece of work reported by [`QueuePair::poll`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Completion {
    /// The send posted from send slot `slot` completed: the slot may be refilled.
    Sent {
        /// The send slot.
        slot: usize,
    },
    /// Receive slot `slot` holds a message of `len` bytes (read it, then post it again).
    Received {
        /// The receive slot.
        slot: usize,
        /// Bytes received.
        len: usize,
    },
    /// A work request failed (the queue pair is in the error state; the lane is over).
    Failed {
        /// What the device reported.
        what: String,
    },
}

/// One connected reliable queue pair and its registered buffers, as the lane protocol sees it.
/// Messages arrive in the order they were sent (reliable connection); a SEND that finds no
/// receive posted is an error, which the credit scheme of [`stream`] rules out.
pub trait QueuePair: Send + 'static {
    /// Number of registered send buffers.
    fn send_slots(&self) -> usize;
    /// Bytes in each send buffer.
    fn send_slot_len(&self) -> usize;
    /// Number of registered receive buffers.
    fn recv_slots(&self) -> usize;
    /// Bytes in each receive buffer (at least the peer's `send_slot_len`).
    fn recv_slot_len(&self) -> usize;
    /// Send buffer `slot`, to fill before [`Self::post_send`]. Must not be touched while a
    /// send from it is outstanding.
    fn send_buf(&mut self, slot: usize) -> &mut [u8];
    /// Receive buffer `slot`, valid after its [`Completion::Received`] until it is posted again.
    fn recv_buf(&self, slot: usize) -> &[u8];
    /// Posts a SEND of the first `len` bytes of send buffer `slot`.
    fn post_send(&mut self, slot: usize, len: usize) -> io::Result<()>;
    /// Posts receive buffer `slot`.
    fn post_recv(&mut self, slot: usize) -> io::Result<()>;
    /// Appends the completions that are ready to `out` without waiting.
    fn poll(&mut self, out: &mut Vec<Completion>) -> io::Result<()>;
}
