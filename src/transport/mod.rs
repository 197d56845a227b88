//! Transports move [`Frame`]s between ranks. The engine never waits on a transport: `send`
//! queues and returns, incoming frames are pushed into a [`FrameSink`].
//!
//! Transports may reorder frames between the same pair (QUIC uses separate streams for small and
//! bulk traffic); the engine restores point-to-point order with sequence numbers and collective
//! machines accept any order. A transport must authenticate the sender of every frame it
//! delivers: `frame.header.src` is checked against the peer's certificate.
//!
//! Between ranks on one host the default is shared memory ([`shm`]); [`routed`] sends each
//! frame over shared memory or QUIC by destination, and `NEXAR_TRANSPORT=quic` forces QUIC
//! everywhere. Blocking calls may drive a transport on their own thread ([`caller`]).

pub mod budget;
pub mod caller;
pub mod landing;
pub mod mem;
pub mod quic;
pub mod rdma;
pub mod routed;
pub mod shm;

use crate::error::Result;
use crate::wire::{Frame, FrameHeader};
use std::future::Future;
use std::pin::Pin;

/// A boxed future, for the one async method of the object-safe [`Transport`] trait.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Receives what a transport reads. Implemented by the engine.
pub trait FrameSink: Send + Sync + 'static {
    /// A frame from an authenticated peer (`frame.header.src` is that peer's world rank).
    fn on_frame(&self, frame: Frame);

    /// A point-to-point frame whose payload `body` is still in the transport's buffer (a
    /// shared-memory ring slot): the sink may copy it straight into a posted receive's buffer.
    /// True if it took the frame; false (the default) and the transport delivers it through
    /// [`FrameSink::on_frame`] as usual.
    fn on_p2p_inline(&self, header: &FrameHeader, body: &[u8]) -> bool {
        let _ = (header, body);
        false
    }

    /// The posted receive that takes the point-to-point frame `header` describes, lent to the
    /// transport to fill straight from the wire (see [`landing`]), if there is one now; `None`
    /// (the default) and the transport delivers the frame through [`FrameSink::on_frame`].
    fn claim_landing(&self, header: &FrameHeader) -> Option<landing::Landing> {
        let _ = header;
        None
    }

    /// Whether [`FrameSink::claim_landing`] would find a posted receive for the frame `header`
    /// announces, now (a transport may then wait briefly for one before reading the payload
    /// into a frame of its own). False by default.
    fn would_land(&self, header: &FrameHeader) -> bool {
        let _ = header;
        false
    }

    /// The connection to `peer` died or timed out. Called at most once per peer.
    fn on_peer_lost(&self, peer: u32, reason: String);

    /// The unexpected-message budget transports stall p2p reading on (see [`budget`]); `None`
    /// (the default) reads without limit.
    fn rx_budget(&self) -> Option<std::sync::Arc<budget::RxBudget>> {
        None
    }

    /// World ranks this process knows to have failed. A transport shutting down passes them
    /// on in its goodbyes (see [`failures_to_bytes`]); none by default.
    fn known_failures(&self) -> Vec<u32> {
        Vec::new()
    }

    /// Peer `by` said in its goodbye that these world ranks failed (it saw them fail, then
    /// left, most likely because of that). Ignored by default.
    fn on_failures_reported(&self, _by: u32, _failed: &[u32]) {}

    /// Peer `peer` said goodbye: it finished cleanly (called after
    /// [`FrameSink::on_failures_reported`] for the same goodbye). Ignored by default.
    fn on_departed(&self, _peer: u32) {}

    /// Peer `by` declared this rank failed and dropped it (this rank was stalled). From then
    /// on this rank's view of who failed is its own (the peers that dropped it look failed to
    /// it, and are not): [`FrameSink::known_failures`] should report nothing. Ignored by
    /// default.
    fn on_dropped_by(&self, _by: u32) {}
}

/// Most failed ranks a goodbye names (they fit one shared-memory slot with room to spare).
pub const MAX_REPORTED_FAILURES: usize = 1024;

/// A goodbye's body: the first [`MAX_REPORTED_FAILURES`] of `failed`, 4 bytes each (LE).
pub fn failures_to_bytes(failed: &[u32]) -> Vec<u8> {
    failed
        .iter()
        .take(MAX_REPORTED_FAILURES)
        .flat_map(|r| r.to_le_bytes())
        .collect()
}

/// The ranks in a goodbye's body (a trailing partial entry is ignored).
pub fn failures_from_bytes(body: &[u8]) -> Vec<u32> {
    body.chunks_exact(4)
        .take(MAX_REPORTED_FAILURES)
        .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect()
}

/// Moves frames to other ranks of the world.
pub trait Transport: Send + Sync + 'static {
    /// Queues `frame` for world rank `to` and returns at once. Fails only when `to` is unknown
    /// or already known to be dead; a later loss is reported through
    /// [`FrameSink::on_peer_lost`].
    fn send(&self, to: u32, frame: Frame) -> Result<()>;

    /// [`Transport::send`] of a frame whose payload is borrowed: it is copied where the
    /// transport keeps it (a shared-memory ring slot, a queue), so the caller may reuse
    /// `payload` at once. The default copies it into a frame first; shared memory writes a
    /// small frame straight into the peer's ring (no allocation). `header.len` is set here.
    fn send_copy(&self, to: u32, header: crate::wire::FrameHeader, payload: &[u8]) -> Result<()> {
        self.send(
            to,
            Frame::new(header, bytes::Bytes::copy_from_slice(payload)),
        )
    }

    /// Flushes everything queued, says goodbye to peers and closes. Called once, at shutdown,
    /// after a final barrier.
    fn shutdown(&self) -> BoxFuture<'_, ()>;

    /// A short name for diagnostics (`"quic"`, `"mem"`).
    fn name(&self) -> &'static str;

    /// Traffic counters, one entry per underlying transport that keeps them (none by default).
    fn stats(&self) -> Vec<(&'static str, TransportStats)> {
        Vec::new()
    }

    /// Whether a blocking send of `len` bytes to world rank `to` should lend the caller's
    /// buffer instead of copying it (see `Comm::send_bytes_blocking`): true when this transport
    /// lets go of such a payload promptly on its own, because the receiver reads it straight
    /// out of the sender's memory (shared memory) or because it is copied out as it is written
    /// (the TLS bulk lane). The sender then waits for that. False by default.
    fn lends(&self, _to: u32, _len: usize) -> bool {
        false
    }

    /// Lets blocking calls make progress on their own thread (see [`caller`]); `None` (the
    /// default) makes them park until another thread delivers.
    fn caller_progress(&self) -> Option<&dyn caller::CallerProgress> {
        None
    }

    /// The process id of world rank `to` when this process and `to` may copy straight out of
    /// each other's memory with `process_vm_readv` (a live shared-memory peer that passed the
    /// probe both ways); `None` (the default) otherwise.
    fn cma_pid(&self, _to: u32) -> Option<i32> {
        None
    }

    /// The process id of world rank `to` when this process may read and write its memory with
    /// cross-memory attach (this process's probe of the peer passed at setup; the peer's probe
    /// of this process need not have run yet); `None` (the default) otherwise. One-sided
    /// windows over memory that is not shared use it.
    fn cma_target(&self, _to: u32) -> Option<i32> {
        None
    }

    /// Whether this process reaches world rank `to` through shared memory on this host (so the
    /// two may also meet in other shared segments, such as a communicator's flag area); false
    /// (the default) for a transport that does not.
    fn shares_memory(&self, _to: u32) -> bool {
        false
    }

    /// Looks now, rather than at the next periodic check, for peers whose process is gone,
    /// and reports them through [`FrameSink::on_peer_lost`]; a no-op (the default) where the
    /// transport cannot tell cheaply. Called when a peer turned out to have left, to find a
    /// failure that may be the reason it left.
    fn refresh_liveness(&self) {}
}

/// Traffic counters of one transport since it started.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TransportStats {
    /// Frames handed to the transport for sending.
    pub frames_sent: u64,
    /// Payload bytes of those frames.
    pub bytes_sent: u64,
    /// Frames delivered to the sink.
    pub frames_received: u64,
    /// Payload bytes of those frames.
    pub bytes_received: u64,
    /// Frames sent whose payload the receiver copied directly (shared memory only).
    pub one_copy_frames: u64,
    /// Point-to-point frames received that were copied straight from a ring slot into a posted
    /// receive's buffer, with no allocation (shared memory only; see `core::recv_cell`).
    pub landed_frames: u64,
    /// Authenticated connections this rank dialed (QUIC only; connections are made lazily, on
    /// the first frame for a peer, so this counts the peers it sent to first).
    pub connections_dialed: u64,
    /// Authenticated connections peers dialed to this rank (QUIC only).
    pub connections_accepted: u64,
    /// Distinct peers this rank has had an authenticated connection with, either way (QUIC
    /// only): a measure of how many peers the algorithms actually talked to.
    pub peers_connected: u64,
}

/// The transport of a world of one: there is nobody to send to.
pub struct SelfOnly;

impl Transport for SelfOnly {
    fn send(&self, to: u32, _frame: Frame) -> Result<()> {
        Err(crate::error::Error::new(
            crate::error::ErrorKind::InvalidRank,
            format!("rank {to} does not exist in a world of one"),
        ))
    }

    fn shutdown(&self) -> BoxFuture<'_, ()> {
        Box::pin(async {})
    }

    fn name(&self) -> &'static str {
        "self"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn goodbye_failure_lists_round_trip_capped_and_tolerate_a_partial_entry() {
        let ranks = [3u32, 0, u32::MAX, 17];
        assert_eq!(failures_from_bytes(&failures_to_bytes(&ranks)), ranks);
        assert!(failures_to_bytes(&[]).is_empty());
        let many: Vec<u32> = (0..5000).collect();
        let body = failures_to_bytes(&many);
        assert_eq!(body.len(), 4 * MAX_REPORTED_FAILURES);
        assert_eq!(failures_from_bytes(&body), many[..MAX_REPORTED_FAILURES]);
        let mut odd = failures_to_bytes(&[9]);
        odd.extend_from_slice(&[1, 2]);
        assert_eq!(failures_from_bytes(&odd), [9]);
    }
}
