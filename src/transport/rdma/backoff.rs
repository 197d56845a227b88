//! Waiting on a completion queue that can only be polled.
//!
//! The lane has no completion channel (no file descriptor to wait on), so a task with nothing
//! ready first yields a few times (the peer is often a few microseconds away), then sleeps
//! with a doubling delay up to [`MAX_DELAY`] so that idle lanes cost almost no CPU when
//! several ranks share a core. Any progress resets it. Tokio's timer rounds sleeps up to its
//! 1 ms tick, so the first sleeps are effectively 1 ms; the yields cover the short waits.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::time::{Instant, Sleep};

/// Polls that only yield (re-wake at once) before the first sleep.
pub const SPIN_POLLS: u32 = 32;
/// First sleep.
pub const MIN_DELAY: Duration = Duration::from_micros(20);
/// Longest sleep between polls of an idle queue.
pub const MAX_DELAY: Duration = Duration::from_millis(1);

/// The yield-then-sleep state of one lane end (kept in the struct so it survives polls).
#[derive(Debug)]
pub struct Backoff {
    spins: u32,
    delay: Duration,
    sleep: Option<Pin<Box<Sleep>>>,
    /// Sleeps armed so far (a statistic: how often the lane went idle).
    pub sleeps: u64,
}

impl Default for Backoff {
    fn default() -> Self {
        Self {
            spins: 0,
            delay: MIN_DELAY,
            sleep: None,
            sleeps: 0,
        }
    }
}

impl Backoff {
    /// Something happened: the next wait starts spinning again.
    pub fn reset(&mut self) {
        self.spins = 0;
        self.delay = MIN_DELAY;
    }

    /// Nothing is ready: arranges for the task to be woken (at once while spinning, else
    /// after the current delay) and returns `Pending`. Never returns without a wake-up
    /// registered, so a waiting task cannot be lost. Needs a tokio runtime with time enabled.
    pub fn pending<T>(&mut self, cx: &mut Context<'_>) -> Poll<T> {
        if self.spins < SPIN_POLLS {
            self.spins += 1;
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        let deadline = Instant::now() + self.delay;
        self.delay = (self.delay * 2).min(MAX_DELAY);
        self.sleeps += 1;
        let sleep = match &mut self.sleep {
            Some(s) => {
                s.as_mut().reset(deadline);
                s
            }
            None => self
                .sleep
                .insert(Box::pin(tokio::time::sleep_until(deadline))),
        };
        if sleep.as_mut().poll(cx).is_ready() {
            cx.waker().wake_by_ref();
        }
        Poll::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn spins_then_sleeps_with_a_capped_delay() {
        let mut b = Backoff::default();
        let waker = std::task::Waker::noop();
        let mut cx = Context::from_waker(waker);
        for _ in 0..SPIN_POLLS {
            assert!(b.pending::<()>(&mut cx).is_pending());
        }
        assert_eq!(b.sleeps, 0);
        for _ in 0..20 {
            assert!(b.pending::<()>(&mut cx).is_pending());
        }
        assert_eq!(b.sleeps, 20);
        assert_eq!(b.delay, MAX_DELAY);
        b.reset();
        assert_eq!((b.spins, b.delay), (0, MIN_DELAY));
    }
}
