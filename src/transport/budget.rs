//! Back-pressure on unexpected point-to-point messages: a byte budget per sending peer.
//!
//! The matcher counts, per sender, the payload bytes of messages that arrived before any
//! receive wanted them (the unexpected queue). Once a sender's count reaches the budget
//! (`Config::max_unexpected`, default 64 MiB, `NEXAR_MAX_UNEXPECTED`), transports stop reading
//! that sender's point-to-point traffic: QUIC stops reading its p2p streams (flow control then
//! stalls the sender, whose sends queue up without error), shared memory leaves its ring slots
//! unconsumed (the sender's ring fills and its sends queue). Receives that take queued messages
//! bring the count down and reading resumes. Nothing is dropped and order is kept.
//!
//! Why this does not deadlock:
//! * only p2p frames count and only p2p traffic stalls. On QUIC, collective frames,
//!   acknowledgements and aborts travel on streams (and TLS connections) of their own, and the
//!   connection's flow-control window leaves them room when both p2p streams sit full
//!   (`endpoint::CONNECTION_WINDOW`), so a collective never waits behind a stalled message;
//! * a posted receive that nothing queued matches lifts the stall for the peers it could match
//!   (its source, or everybody for ANY_SOURCE): the application asked for a message that may
//!   still be in the stalled traffic, so reading goes on until it arrives (memory then grows
//!   only as far as the application's own receive order requires);
//! * shared memory has one FIFO ring per peer, so a collective frame may sit behind held-back
//!   p2p frames: there ([`RxBudget::stalled_fifo`]) the stall is also lifted while this rank
//!   has a collective open (the engine reports them), so a collective always gets its frames
//!   (the p2p bytes read meanwhile are queued over budget).
//!
//! Memory while a peer is stalled: the budget, plus one frame per p2p lane, plus what the
//! transport holds unread (QUIC: up to a 32 MiB stream window per p2p stream; TLS: TCP
//! buffers; shared memory: nothing, the bytes stay in the ring or in the sender's buffer).

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// The default budget per sending peer.
pub const DEFAULT_PER_PEER: u64 = 64 << 20;

/// Per-peer unexpected bytes and waiting receives, shared by the matcher (which updates them)
/// and the transports (which ask [`RxBudget::stalled`] before reading a p2p frame).
pub struct RxBudget {
    limit: u64,
    used: Vec<AtomicU64>,
    /// Posted receives not yet matched that name the peer as their source.
    waiting: Vec<AtomicU32>,
    /// Posted ANY_SOURCE receives not yet matched.
    waiting_any: AtomicU32,
    /// Collectives open on this rank.
    colls_open: AtomicU32,
    /// Messages in the unexpected queue, from every peer (lets a receive that finds none skip
    /// the matcher's lock).
    messages: AtomicU64,
    /// Woken whenever a stall may have ended (QUIC readers wait on it; shared memory polls).
    resumed: tokio::sync::Notify,
}

impl std::fmt::Debug for RxBudget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RxBudget")
            .field("limit", &self.limit)
            .finish_non_exhaustive()
    }
}

impl RxBudget {
    /// A budget of `limit` bytes for each of `size` peers.
    pub fn new(limit: u64, size: u32) -> Self {
        Self {
            limit,
            used: (0..size).map(|_| AtomicU64::new(0)).collect(),
            waiting: (0..size).map(|_| AtomicU32::new(0)).collect(),
            waiting_any: AtomicU32::new(0),
            colls_open: AtomicU32::new(0),
            messages: AtomicU64::new(0),
            resumed: tokio::sync::Notify::new(),
        }
    }

    /// The budget per peer in bytes.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Unexpected bytes from `peer` now.
    pub fn used(&self, peer: u32) -> u64 {
        self.used
            .get(peer as usize)
            .map_or(0, |u| u.load(Ordering::Acquire))
    }

    /// Messages in the unexpected queue now, from every peer.
    pub fn queued_messages(&self) -> u64 {
        self.messages.load(Ordering::Acquire)
    }

    /// Payload bytes in the unexpected queue now, from every peer.
    pub fn queued_bytes(&self) -> u64 {
        self.used.iter().map(|u| u.load(Ordering::Acquire)).sum()
    }

    /// Whether the unexpected queue holds no message at all (of any size, from anybody).
    pub fn none_queued(&self) -> bool {
        self.messages.load(Ordering::Acquire) == 0
    }

    /// Whether p2p traffic from `peer` should not be read now: its unexpected bytes reached
    /// the budget and no posted receive is waiting for a message it may send.
    pub fn stalled(&self, peer: u32) -> bool {
        let i = peer as usize;
        let (Some(used), Some(waiting)) = (self.used.get(i), self.waiting.get(i)) else {
            return false;
        };
        used.load(Ordering::Acquire) >= self.limit
            && waiting.load(Ordering::Acquire) == 0
            && self.waiting_any.load(Ordering::Acquire) == 0
    }

    /// [`Self::stalled`] for a transport that carries every kind of frame from `peer` in one
    /// FIFO (shared memory): also false while a collective is open here, whose frames may be
    /// queued behind the stalled ones.
    pub fn stalled_fifo(&self, peer: u32) -> bool {
        self.stalled(peer) && self.colls_open.load(Ordering::Acquire) == 0
    }

    /// A collective opened on this rank (the engine calls this, and
    /// [`Self::collective_closed`] when it ends).
    pub fn collective_opened(&self) {
        if self.colls_open.fetch_add(1, Ordering::AcqRel) == 0 {
            self.resume();
        }
    }

    /// A collective opened with [`Self::collective_opened`] ended.
    pub fn collective_closed(&self) {
        self.colls_open.fetch_sub(1, Ordering::AcqRel);
    }

    /// Waits until [`Self::stalled`] is false for `peer`.
    pub async fn wait_unstalled(&self, peer: u32) {
        loop {
            let resumed = self.resumed.notified();
            tokio::pin!(resumed);
            resumed.as_mut().enable();
            if !self.stalled(peer) {
                return;
            }
            resumed.await;
        }
    }

    fn resume(&self) {
        self.resumed.notify_waiters();
    }

    /// `bytes` from `peer` joined the unexpected queue. (This and the three below are called
    /// by the matcher; they are public so transport tests can play the matcher.)
    pub fn queued(&self, peer: u32, bytes: u64) {
        self.messages.fetch_add(1, Ordering::AcqRel);
        if let Some(u) = self.used.get(peer as usize) {
            u.fetch_add(bytes, Ordering::AcqRel);
        }
    }

    /// `bytes` from `peer` left the unexpected queue (matched).
    pub fn taken(&self, peer: u32, bytes: u64) {
        self.messages.fetch_sub(1, Ordering::AcqRel);
        if let Some(u) = self.used.get(peer as usize) {
            let before = u.fetch_sub(bytes, Ordering::AcqRel);
            if before >= self.limit && before - bytes < self.limit {
                self.resume();
            }
        }
    }

    /// A receive for `source` (`None`: any source) was posted and is waiting.
    pub fn receive_posted(&self, source: Option<u32>) {
        let counter = match source {
            Some(s) => self.waiting.get(s as usize),
            None => Some(&self.waiting_any),
        };
        // Only a peer at its budget can be stalled: nobody else needs waking (the common case
        // skips the notification).
        if let Some(c) = counter
            && c.fetch_add(1, Ordering::AcqRel) == 0
            && self.at_limit(source)
        {
            self.resume();
        }
    }

    /// Whether `source` (any peer, for `None`) has reached the budget.
    fn at_limit(&self, source: Option<u32>) -> bool {
        match source {
            Some(s) => self.used(s) >= self.limit,
            None => self
                .used
                .iter()
                .any(|u| u.load(Ordering::Acquire) >= self.limit),
        }
    }

    /// A waiting receive for `source` matched or went away.
    pub fn receive_done(&self, source: Option<u32>) {
        let counter = match source {
            Some(s) => self.waiting.get(s as usize),
            None => Some(&self.waiting_any),
        };
        if let Some(c) = counter {
            c.fetch_sub(1, Ordering::AcqRel);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn counts_queued_messages_including_empty_ones() {
        let b = RxBudget::new(100, 2);
        assert!(b.none_queued());
        b.queued(1, 0);
        assert!(!b.none_queued(), "a zero-byte message counts");
        b.queued(0, 10);
        b.taken(1, 0);
        assert!(!b.none_queued());
        b.taken(0, 10);
        assert!(b.none_queued());
    }

    #[test]
    fn stalls_at_the_budget_and_resumes_below_it_or_for_a_waiting_receive() {
        let b = RxBudget::new(100, 3);
        b.queued(1, 60);
        assert!(!b.stalled(1));
        b.queued(1, 60);
        assert!(b.stalled(1));
        assert!(!b.stalled(2), "other peers are not affected");
        b.receive_posted(Some(1));
        assert!(!b.stalled(1), "a waiting receive lifts the stall");
        b.receive_done(Some(1));
        assert!(b.stalled(1));
        b.receive_posted(None);
        assert!(!b.stalled(1), "so does an ANY_SOURCE receive");
        b.receive_done(None);
        b.taken(1, 30);
        assert!(!b.stalled(1));
        assert_eq!(b.used(1), 90);
        assert!(!b.stalled(7), "an unknown rank is never stalled");
        b.queued(1, 30);
        assert!(b.stalled(1) && b.stalled_fifo(1));
        b.collective_opened();
        assert!(
            b.stalled(1),
            "separate streams keep p2p stalled during a collective"
        );
        assert!(
            !b.stalled_fifo(1),
            "a FIFO ring is read while a collective is open"
        );
        b.collective_closed();
        assert!(b.stalled_fifo(1));
    }

    #[tokio::test]
    async fn a_waiter_wakes_when_the_queue_drains() {
        let b = Arc::new(RxBudget::new(10, 2));
        b.queued(0, 10);
        let b2 = b.clone();
        let t = tokio::spawn(async move { b2.wait_unstalled(0).await });
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        assert!(!t.is_finished());
        b.taken(0, 5);
        tokio::time::timeout(std::time::Duration::from_secs(5), t)
            .await
            .expect("woken")
            .unwrap();
    }
}
