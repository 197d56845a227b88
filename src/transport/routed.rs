//! A transport that routes each frame by destination: local peers reached through shared memory
//! go over [`ShmTransport`], every other rank over the network transport (QUIC).

use super::shm::ShmTransport;
use super::{BoxFuture, Transport, TransportStats};
use crate::error::Result;
use crate::wire::Frame;
use std::sync::Arc;

/// Shared memory for local peers, the network for the rest.
pub struct Routed {
    shm: ShmTransport,
    net: Arc<dyn Transport>,
    name: &'static str,
}

impl Routed {
    /// Combines `shm` (for the ranks it reaches) with `net` (for all others) in a world of
    /// `size` ranks where this is rank `rank`.
    pub fn new(shm: ShmTransport, net: Arc<dyn Transport>, rank: u32, size: u32) -> Self {
        let all_local = (0..size).all(|r| r == rank || shm.reaches(r));
        Self {
            shm,
            net,
            name: if all_local { "shm" } else { "shm+quic" },
        }
    }
}

impl Transport for Routed {
    fn send(&self, to: u32, frame: Frame) -> Result<()> {
        if self.shm.reaches(to) {
            self.shm.send(to, frame)
        } else {
            self.net.send(to, frame)
        }
    }

    fn send_copy(&self, to: u32, header: crate::wire::FrameHeader, payload: &[u8]) -> Result<()> {
        if self.shm.reaches(to) {
            self.shm.send_copy(to, header, payload)
        } else {
            self.net.send_copy(to, header, payload)
        }
    }

    fn shutdown(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            self.shm.shutdown().await;
            self.net.shutdown().await;
        })
    }

    fn name(&self) -> &'static str {
        self.name
    }

    fn caller_progress(&self) -> Option<&dyn super::caller::CallerProgress> {
        self.shm.caller_progress()
    }

    fn lends(&self, to: u32, len: usize) -> bool {
        if self.shm.reaches(to) {
            self.shm.lends(to, len)
        } else {
            self.net.lends(to, len)
        }
    }

    fn cma_pid(&self, to: u32) -> Option<i32> {
        self.shm.cma_pid(to)
    }

    fn cma_target(&self, to: u32) -> Option<i32> {
        self.shm.cma_target(to)
    }

    fn shares_memory(&self, to: u32) -> bool {
        self.shm.reaches(to)
    }

    fn refresh_liveness(&self) {
        self.shm.refresh_liveness();
    }

    fn stats(&self) -> Vec<(&'static str, TransportStats)> {
        let mut v = self.shm.stats();
        v.extend(self.net.stats());
        v
    }
}
