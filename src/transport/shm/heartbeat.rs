//! Heartbeats and fencing between local ranks.
//!
//! The inbox lock (see [`super::segment`]) tells a dead peer from a live one, but not a
//! *stalled* one (`SIGSTOP`, a frozen machine, a debugger). So every rank runs a small
//! watchdog thread, independent of the caller and of the progress thread, that every
//! [`period`] of the peer timeout:
//!
//! * bumps the heartbeat counter in its own inbox header, so a rank busy in a long
//!   computation (not calling nexar) still beats;
//! * declares failed a live peer whose counter has not moved for the whole peer timeout, and
//!   *fences* it: sets the `fenced` flag of the ring it produces into that peer's inbox, and
//!   stops reading the peer's ring (the peer's state is no longer `LIVE`), so nothing the peer
//!   sends after waking is delivered;
//! * reports a peer that fenced *this* rank (it declared this rank failed while it was
//!   stalled): this rank then fails every operation involving that peer, with an error naming
//!   it, instead of waiting forever for a peer that no longer listens.
//!
//! A watchdog that itself did not run for half the timeout (this whole process was stopped)
//! does not blame its peers for the silence it saw: it starts their clocks afresh.

use super::{Inner, LIVE};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// How often the watchdog beats and looks at its peers: a tenth of the peer timeout, within
/// 5 ms .. 1 s.
pub(super) fn period(timeout: Duration) -> Duration {
    (timeout / 10).clamp(Duration::from_millis(5), Duration::from_secs(1))
}

/// What the watchdog last saw of one peer.
struct Seen {
    beat: u64,
    since: Instant,
}

/// The watchdog loop; returns once `inner.stop` is set (the thread is unparked then).
pub(super) fn run(inner: Arc<Inner>, timeout: Duration) {
    let period = period(timeout);
    let now = Instant::now();
    let mut seen: Vec<Seen> = inner
        .local
        .iter()
        .map(|p| Seen {
            beat: p.seg.heartbeat().load(Ordering::Acquire),
            since: now,
        })
        .collect();
    let mut last_tick = now;
    loop {
        inner.me.heartbeat().fetch_add(1, Ordering::Release);
        std::thread::park_timeout(period);
        if inner.stop.load(Ordering::Acquire) {
            return;
        }
        let now = Instant::now();
        let we_stalled = now.duration_since(last_tick) > timeout / 2;
        last_tick = now;
        inner.me.heartbeat().fetch_add(1, Ordering::Release);
        check(&inner, &mut seen, now, timeout, we_stalled);
    }
}

/// One look at every live peer.
fn check(inner: &Inner, seen: &mut [Seen], now: Instant, timeout: Duration, we_stalled: bool) {
    for (p, s) in inner.local.iter().zip(seen.iter_mut()) {
        if p.state.load(Ordering::Acquire) != LIVE {
            continue;
        }
        if p.rx.fenced().load(Ordering::Acquire) != 0 {
            inner.sink.on_dropped_by(p.rank);
            inner.lose(
                p,
                format!(
                    "local rank {} declared rank {} failed (no heartbeat within the peer \
                     timeout) and dropped it",
                    p.rank, inner.rank
                ),
            );
            continue;
        }
        let beat = p.seg.heartbeat().load(Ordering::Acquire);
        if beat != s.beat || we_stalled {
            s.beat = beat;
            s.since = now;
            continue;
        }
        let silent = now.duration_since(s.since);
        if silent >= timeout {
            // Fence first, so the peer finds the flag whenever it wakes.
            p.tx.fenced().store(1, Ordering::Release);
            p.seg.doorbell().ring_traffic();
            inner.lose(
                p,
                format!(
                    "local rank {} sent no heartbeat for {} ms (peer timeout {} ms): stalled \
                     or frozen",
                    p.rank,
                    silent.as_millis(),
                    timeout.as_millis()
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn period_is_a_tenth_within_bounds() {
        assert_eq!(period(Duration::from_secs(10)), Duration::from_secs(1));
        assert_eq!(period(Duration::from_secs(1)), Duration::from_millis(100));
        assert_eq!(period(Duration::from_millis(10)), Duration::from_millis(5));
        assert_eq!(period(Duration::from_secs(600)), Duration::from_secs(1));
    }
}
