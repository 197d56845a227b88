//! Traffic counters of the network path, one set per lane kind (QUIC streams, TLS bulk lane), so
//! a test or a benchmark can tell which connection carried the data.

use crate::transport::TransportStats;
use crate::wire::{Frame, FrameKind};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Counters of one lane kind. Only frames that reach or come from the engine count (not the
/// transport's own `Hello` and `Goodbye`).
#[derive(Default)]
pub(super) struct LaneStats {
    frames_sent: AtomicU64,
    bytes_sent: AtomicU64,
    frames_received: AtomicU64,
    bytes_received: AtomicU64,
}

fn counted(f: &Frame) -> bool {
    !matches!(
        f.header.frame_kind(),
        Some(FrameKind::Hello | FrameKind::Goodbye)
    )
}

impl LaneStats {
    /// A frame was handed to the lane's connection.
    pub(super) fn sent(&self, f: &Frame) {
        if counted(f) {
            self.frames_sent.fetch_add(1, Relaxed);
            self.bytes_sent.fetch_add(f.payload.len() as u64, Relaxed);
        }
    }

    /// A frame read from the lane goes to the sink.
    pub(super) fn received(&self, f: &Frame) {
        if counted(f) {
            self.frames_received.fetch_add(1, Relaxed);
            self.bytes_received
                .fetch_add(f.payload.len() as u64, Relaxed);
        }
    }

    /// A snapshot.
    pub(super) fn get(&self) -> TransportStats {
        TransportStats {
            frames_sent: self.frames_sent.load(Relaxed),
            bytes_sent: self.bytes_sent.load(Relaxed),
            frames_received: self.frames_received.load(Relaxed),
            bytes_received: self.bytes_received.load(Relaxed),
            one_copy_frames: 0,
            ..TransportStats::default()
        }
    }
}
