//! Blocked callers driving the shared-memory transport on their own thread (see
//! [`crate::transport::caller`]): the progress thread parks while any caller is blocked, and
//! the caller takes the receive-side lock to read the rings itself.

use super::{LIVENESS_PERIOD, ShmTransport, doorbell};
use crate::transport::caller::CallerProgress;
use std::sync::atomic::Ordering;

impl CallerProgress for ShmTransport {
    fn enter(&self) {
        self.inner.callers.fetch_add(1, Ordering::SeqCst);
        // Senders may skip their wake-up system call while this thread polls.
        self.inner.me.doorbell().start_polling();
    }

    fn exit(&self, slept: bool) {
        let bell = self.inner.me.doorbell();
        bell.stop_polling();
        // A sender may have skipped waking the progress thread while we polled: if we leave
        // traffic behind, wake it now (only then does this cost a system call).
        if self.inner.has_incoming() {
            bell.ring();
        }
        // After a short call the progress thread notices within its park period (no wake-up
        // system call on the fast path); after a long wait it is woken at once.
        if self.inner.callers.fetch_sub(1, Ordering::SeqCst) == 1 {
            if slept {
                doorbell::wake_private(&self.inner.caller_exit);
            } else {
                self.inner.caller_exit.fetch_add(1, Ordering::SeqCst);
            }
        }
    }

    fn poll(&self) -> bool {
        self.inner.try_poll()
    }

    fn sleep(&self, ready: &dyn Fn() -> bool, max: std::time::Duration) {
        let bell = self.inner.me.doorbell();
        // A sleeper is not polling: traffic must wake it.
        bell.stop_polling();
        let ticket = bell.prepare();
        if !ready() && !self.inner.try_poll() {
            bell.wait(ticket, max.min(LIVENESS_PERIOD));
        }
        bell.done();
        bell.start_polling();
    }

    fn ringer(&self) -> Box<dyn Fn() + Send + Sync> {
        let inner = self.inner.clone();
        Box::new(move || inner.me.doorbell().ring())
    }

    fn spin_limit(&self) -> std::time::Duration {
        self.inner.spin
    }

    fn id(&self) -> usize {
        std::sync::Arc::as_ptr(&self.inner) as usize
    }
}
