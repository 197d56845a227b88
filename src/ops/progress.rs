//! Blocking calls and polling loops on a communicator, driving the transport on the calling
//! thread where it allows (see [`crate::transport::caller`] for how).

use crate::comm::Comm;
use crate::transport::caller::block_on;
use std::future::Future;
use std::time::Duration;

impl Comm {
    /// Runs `fut` (typically an operation on this communicator) to completion on this thread,
    /// making the transport progress here while waiting when it can (see the module docs). The
    /// `*_blocking` methods use it; bindings that block on engine futures should too.
    pub fn block_on<F: Future>(&self, fut: F) -> F::Output {
        block_on(self.inner.engine.transport().caller_progress(), fut)
    }

    /// One pass of transport progress on this thread, where the transport allows it (shared
    /// memory); true if anything moved. For bindings whose test-style calls poll completion
    /// (`MPI_Test`, `MPI_Waitany`, ...): messages then arrive without a hand-off through the
    /// transport's own thread. Never blocks.
    pub fn progress(&self) -> bool {
        self.inner
            .engine
            .transport()
            .caller_progress()
            .is_some_and(|p| p.poll())
    }

    /// Waits, without spinning, until traffic arrives for this rank or `max` passes: sleeps on
    /// the transport's wake-up word where it has one, else simply sleeps `max`. For polling
    /// loops that found nothing to do (see [`Comm::progress`]); completions that need no
    /// traffic of this transport are noticed after at most `max`.
    pub fn idle_wait(&self, max: Duration) {
        match self.inner.engine.transport().caller_progress() {
            Some(p) => p.sleep(&|| false, max),
            None => std::thread::sleep(max),
        }
    }
}

/// Pacing for loops that poll several operations for completion (`MPI_Waitany`,
/// `nexar_waitany`): each pause first drives the transport on this thread
/// ([`Comm::progress`](crate::Comm::progress)) and returns at once if that moved anything;
/// otherwise it yields the CPU for a while, then sleeps on the transport
/// ([`Comm::idle_wait`](crate::Comm::idle_wait), woken by its traffic) with limits growing from
/// 10 us to 1.28 ms. Never a busy loop on an oversubscribed host.
pub struct PollBackoff {
    idle: u32,
    comm: Option<Comm>,
}

impl PollBackoff {
    /// Yields before sleeping: this many idle pauses.
    const YIELDS: u32 = 64;

    /// A backoff driving `comm`'s transport (every communicator of a process shares it); with
    /// `None` it only yields and sleeps.
    pub fn new(comm: Option<Comm>) -> Self {
        Self { idle: 0, comm }
    }

    /// One pass of transport progress on this thread; true if anything moved.
    pub fn drive(&self) -> bool {
        self.comm.as_ref().is_some_and(|c| c.progress())
    }

    /// Waits a little before the next pass over the operations (see the type's docs).
    pub fn pause(&mut self) {
        if self.drive() {
            self.idle = 0;
            return;
        }
        self.idle += 1;
        if self.idle < Self::YIELDS {
            std::thread::yield_now();
            return;
        }
        let max = Duration::from_micros(10u64 << ((self.idle - Self::YIELDS) / 16).min(7));
        match &self.comm {
            Some(c) => c.idle_wait(max),
            None => std::thread::sleep(max),
        }
    }
}
