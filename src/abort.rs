//! Ending the whole job (`nexar_abort`, `MPI_Abort`, `Context::abort`): an abort frame to every
//! other rank, which exits with its code on receipt (`Engine::on_frame`), whether or not a
//! launcher watches the job.

use crate::core::engine::Engine;
use crate::wire::{Frame, FrameHeader, FrameKind};
use bytes::Bytes;
use std::sync::Arc;

impl Engine {
    /// Tells every other rank to end with `code` (an [`FrameKind::Abort`] frame each, best
    /// effort: failed peers and send errors are skipped). True if any frame was queued.
    pub fn send_abort(&self, code: i32) -> bool {
        let Some(t) = self.transport_if_connected() else {
            return false;
        };
        let mut any = false;
        for to in (0..self.size).filter(|&r| r != self.rank) {
            if self.failure_of(to).is_some() {
                continue;
            }
            let mut h = FrameHeader::new(FrameKind::Abort, self.rank);
            h.tag = code;
            any |= t.send(to, Frame::new(h, Bytes::new())).is_ok();
        }
        any
    }
}

/// The process exit status for abort code `code`: its low 8 bits are what a parent sees, so a
/// code whose low 8 bits are 0 (0, 256, ...) becomes 1 and still reads as a failure.
pub fn exit_status(code: i32) -> i32 {
    if code & 0xff == 0 { 1 } else { code }
}

/// Engines of this process, for [`abort_job`] (weak: a finalized context drops out).
static ENGINES: parking_lot::Mutex<Vec<std::sync::Weak<Engine>>> =
    parking_lot::Mutex::new(Vec::new());

/// Registers `engine` for [`abort_job`] (contexts launched as real processes do).
pub(crate) fn register_for_abort(engine: &Arc<Engine>) {
    let mut v = ENGINES.lock();
    v.retain(|w| w.strong_count() > 0);
    v.push(Arc::downgrade(engine));
}

/// How long an abort lets queued abort frames leave before the process exits.
const ABORT_FLUSH: std::time::Duration = std::time::Duration::from_millis(200);

/// How long an abort under PMI waits before asking the process manager to end the job, so that
/// it forwards the output this process already wrote before it kills the ranks.
const PMI_OUTPUT_GRACE: std::time::Duration = std::time::Duration::from_millis(100);

/// Ends the whole job: under a PMI process manager first asks it to end the job
/// ([`crate::bootstrap::pmi::abort_job`], so it reports `code` rather than a rank killed by a
/// signal), then tells every other rank of every live context in this process to exit with
/// `code` (see [`exit_status`]), gives the frames `ABORT_FLUSH` to leave, then exits this
/// process. Returns promptly whatever the peers' state (dead or hung peers are not waited
/// for), from any thread, initialized or not.
pub fn abort_job(code: i32) -> ! {
    if crate::bootstrap::pmi::is_active() {
        std::thread::sleep(PMI_OUTPUT_GRACE);
        crate::bootstrap::pmi::abort_job(exit_status(code));
    }
    let engines: Vec<Arc<Engine>> = ENGINES
        .try_lock_for(std::time::Duration::from_millis(100))
        .map(|v| v.iter().filter_map(std::sync::Weak::upgrade).collect())
        .unwrap_or_default();
    let mut sent = false;
    for e in &engines {
        sent |= e.send_abort(code);
    }
    if sent {
        std::thread::sleep(ABORT_FLUSH);
    }
    std::process::exit(exit_status(code))
}
