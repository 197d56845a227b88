//! In-memory transport: N ranks inside one process, for engine tests. Frames are handed to the
//! destination's sink directly (the engine never calls `send` while holding its own locks).

use super::{BoxFuture, FrameSink, Transport};
use crate::error::{Error, ErrorKind, Result};
use crate::wire::Frame;
use parking_lot::RwLock;
use std::sync::Arc;

/// The shared switchboard of an in-process world.
#[derive(Default)]
pub struct MemFabric {
    sinks: RwLock<Vec<Option<Arc<dyn FrameSink>>>>,
}

impl MemFabric {
    /// A fabric for `n` ranks, none attached yet.
    pub fn new(n: usize) -> Arc<Self> {
        Arc::new(Self {
            sinks: RwLock::new(vec![None; n]),
        })
    }

    /// Attaches rank `rank`'s sink and returns its transport.
    pub fn attach(self: &Arc<Self>, rank: u32, sink: Arc<dyn FrameSink>) -> MemTransport {
        self.sinks.write()[rank as usize] = Some(sink);
        MemTransport {
            rank,
            fabric: self.clone(),
        }
    }

    /// Detaches `rank` as if its process died: every other rank is told it was lost.
    pub fn kill(&self, rank: u32, reason: &str) {
        let others: Vec<_> = {
            let mut sinks = self.sinks.write();
            sinks[rank as usize] = None;
            sinks.iter().flatten().cloned().collect()
        };
        for s in others {
            s.on_peer_lost(rank, reason.to_string());
        }
    }
}

/// One rank's handle on a [`MemFabric`].
pub struct MemTransport {
    rank: u32,
    fabric: Arc<MemFabric>,
}

impl Transport for MemTransport {
    fn send(&self, to: u32, frame: Frame) -> Result<()> {
        let sink = {
            let sinks = self.fabric.sinks.read();
            match sinks.get(to as usize) {
                None => {
                    return Err(Error::new(
                        ErrorKind::InvalidRank,
                        format!("rank {to} is not part of this in-memory world"),
                    ));
                }
                Some(None) => return Err(Error::proc_failed(to, "in-memory peer is gone")),
                Some(Some(s)) => s.clone(),
            }
        };
        sink.on_frame(frame);
        Ok(())
    }

    fn shutdown(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            // Leaving cleanly is not a failure: detach without notifying anyone.
            self.fabric.sinks.write()[self.rank as usize] = None;
        })
    }

    fn name(&self) -> &'static str {
        "mem"
    }
}
