//! The per-peer table: outgoing lanes, authenticated connections, and liveness (lost / left).

use super::Inner;
use super::lanes::{self, Lanes};
use crate::error::{Error, ErrorKind, Result};
use crate::transport::TransportStats;
use crate::wire::{Frame, FrameHeader, FrameKind};
use bytes::Bytes;
use parking_lot::Mutex;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use tokio::sync::Notify;
use tokio::task::JoinHandle;

/// What this rank knows about one peer.
#[derive(Default)]
struct PeerState {
    /// Queues of the writer task, once something was sent.
    lanes: Option<Lanes>,
    /// The writer task.
    writer: Option<JoinHandle<()>>,
    /// Authenticated connections to the peer (dialed or accepted).
    conns: Vec<quinn::Connection>,
    /// Set once the peer was declared lost, with the reason.
    lost: Option<String>,
    /// The peer said goodbye: it is leaving cleanly.
    left: bool,
    /// Incoming streams from the peer that ended cleanly.
    streams_done: u64,
    /// How many streams the peer's goodbye said it opened to us.
    streams_announced: u64,
    /// Some authenticated connection with the peer was ever recorded.
    ever_connected: bool,
    /// This rank queued its goodbye to the peer (at its shutdown, or in answer to the peer's).
    said_goodbye: bool,
}

impl PeerState {
    fn alive_conn(&self) -> Option<quinn::Connection> {
        self.conns
            .iter()
            .find(|c| c.close_reason().is_none())
            .cloned()
    }

    fn gone(&self) -> bool {
        self.left || self.lost.is_some()
    }

    /// Nothing more will arrive from this peer.
    fn quiet(&self) -> bool {
        self.lost.is_some()
            || self.alive_conn().is_none()
            || (self.left && self.streams_done >= self.streams_announced)
    }
}

/// Every peer's state, indexed by world rank.
pub(super) struct Peers {
    slots: Vec<Mutex<PeerState>>,
    /// Woken whenever a peer leaves, is lost, or loses a connection.
    changed: Notify,
    /// Authenticated connections recorded that this rank dialed.
    dialed: AtomicU64,
    /// Authenticated connections recorded that a peer dialed.
    accepted: AtomicU64,
    /// Peers with which some connection was ever recorded.
    connected_peers: AtomicU64,
}

impl Peers {
    pub(super) fn new(size: u32) -> Self {
        Self {
            slots: (0..size)
                .map(|_| Mutex::new(PeerState::default()))
                .collect(),
            changed: Notify::new(),
            dialed: AtomicU64::new(0),
            accepted: AtomicU64::new(0),
            connected_peers: AtomicU64::new(0),
        }
    }

    /// `stats` with the connection counters filled in (connections are made lazily, so these
    /// show how many peers the algorithms really talked to).
    pub(super) fn with_connection_counts(&self, mut stats: TransportStats) -> TransportStats {
        stats.connections_dialed = self.dialed.load(Relaxed);
        stats.connections_accepted = self.accepted.load(Relaxed);
        stats.peers_connected = self.connected_peers.load(Relaxed);
        stats
    }

    fn slot(&self, peer: u32) -> &Mutex<PeerState> {
        &self.slots[peer as usize]
    }

    /// Queues `frame` for `to` (a valid rank other than ours), starting its writer if needed.
    pub(super) fn enqueue(&self, inner: &Arc<Inner>, to: u32, frame: Frame) -> Result<()> {
        let mut st = self.slot(to).lock();
        if let Some(reason) = &st.lost {
            return Err(Error::proc_failed(to, reason));
        }
        if st.left {
            return Err(Error::proc_failed(to, "it has shut down"));
        }
        if st.lanes.is_none() {
            if inner.addr_of(to).is_none() && st.alive_conn().is_none() {
                return Err(Error::new(
                    ErrorKind::Internal,
                    format!("no address is known for rank {to} yet"),
                ));
            }
            start_writer(inner, to, &mut st);
        }
        match st.lanes.as_ref().map(|l| l.push(frame)) {
            Some(Ok(())) => Ok(()),
            _ => Err(Error::proc_failed(to, "its connection closed")),
        }
    }

    /// An open authenticated connection to `peer`, if any.
    pub(super) fn alive_conn(&self, peer: u32) -> Option<quinn::Connection> {
        self.slot(peer).lock().alive_conn()
    }

    /// Records an authenticated connection. False when the peer is already gone (the caller
    /// closes the connection instead).
    pub(super) fn add_conn(&self, peer: u32, conn: quinn::Connection) -> bool {
        let mut st = self.slot(peer).lock();
        if st.gone() {
            return false;
        }
        st.conns.retain(|c| c.close_reason().is_none());
        match conn.side() {
            quinn::Side::Client => self.dialed.fetch_add(1, Relaxed),
            quinn::Side::Server => self.accepted.fetch_add(1, Relaxed),
        };
        if !st.ever_connected {
            st.ever_connected = true;
            self.connected_peers.fetch_add(1, Relaxed);
        }
        st.conns.push(conn);
        true
    }

    /// Forgets a closed connection.
    pub(super) fn remove_conn(&self, peer: u32, conn: &quinn::Connection) {
        self.slot(peer)
            .lock()
            .conns
            .retain(|c| c.stable_id() != conn.stable_id());
        self.changed.notify_waiters();
    }

    /// Whether `peer` was declared lost.
    pub(super) fn is_lost(&self, peer: u32) -> bool {
        self.slot(peer).lock().lost.is_some()
    }

    /// Marks `peer` lost. True if this is the first time (the caller reports it).
    pub(super) fn mark_lost(&self, peer: u32, reason: &str) -> bool {
        let first = {
            let mut st = self.slot(peer).lock();
            if st.gone() {
                false
            } else {
                st.lost = Some(reason.to_string());
                // Dropping the queues ends the writer; later sends fail at once.
                st.lanes = None;
                true
            }
        };
        self.changed.notify_waiters();
        first
    }

    /// Marks `peer` as leaving cleanly: its goodbye arrived, announcing `streams` streams
    /// that will all end cleanly (0 when the connection closed with a goodbye code).
    pub(super) fn mark_left(&self, peer: u32, streams: u64) {
        {
            let mut st = self.slot(peer).lock();
            if st.lost.is_none() {
                st.left = true;
                st.lanes = None;
                st.streams_announced = st.streams_announced.max(streams);
            }
        }
        self.changed.notify_waiters();
    }

    /// `peer`'s goodbye arrived in a stream: answers it with this rank's own goodbye (unless
    /// already said), then marks the peer as leaving. Without the answer, a peer whose goodbye
    /// arrives first would wait for one that never comes: this rank drops its queues to a peer
    /// that left, and its shutdown says goodbye only to peers still there.
    pub(super) fn goodbye_received(&self, inner: &Arc<Inner>, peer: u32, streams: u64) {
        {
            let mut st = self.slot(peer).lock();
            if !st.gone() {
                say_goodbye_to(inner, peer, &mut st, &inner.sink.known_failures());
            }
        }
        self.mark_left(peer, streams);
    }

    /// The transport is dropped: closes every queue, so writer tasks (which hold the transport)
    /// end instead of waiting for frames forever, and lets go of the connections. Without
    /// this, a transport dropped without a shutdown kept its socket, tasks and buffers.
    pub(super) fn abandon(&self) {
        for slot in &self.slots {
            let mut st = slot.lock();
            st.lanes = None;
            st.conns.clear();
        }
        self.changed.notify_waiters();
    }

    /// An incoming stream from `peer` ended cleanly.
    pub(super) fn stream_finished(&self, peer: u32) {
        self.slot(peer).lock().streams_done += 1;
        self.changed.notify_waiters();
    }

    /// Shutdown, first half: queues a goodbye for every live peer we have a connection or a
    /// writer to, and closes the queues. Returns the writer tasks to wait for.
    pub(super) fn say_goodbye(&self, inner: &Arc<Inner>) -> Vec<JoinHandle<()>> {
        let mut writers = Vec::new();
        let known_failures = inner.sink.known_failures();
        for (peer, slot) in self.slots.iter().enumerate() {
            let peer = peer as u32;
            if peer == inner.rank {
                continue;
            }
            let mut st = slot.lock();
            if known_failures.contains(&peer) {
                // Nothing queued for a failed peer will ever be acknowledged: waiting for its
                // writer to flush would only hold every survivor's finalize for the whole
                // flush limit.
                st.lanes = None;
                if let Some(w) = st.writer.take() {
                    w.abort();
                }
                continue;
            }
            if !st.gone() {
                say_goodbye_to(inner, peer, &mut st, &known_failures);
            }
            st.lanes = None;
            writers.extend(st.writer.take());
        }
        writers
    }

    /// Shutdown, second half: waits until every peer with an open connection (including one
    /// that connects meanwhile) said goodbye and finished its streams, so everything it sent
    /// was read, or was lost; or until `deadline`. A peer the engine knows failed (the
    /// launcher's notice, a peer's report) says nothing more: it is not waited for, although
    /// its connection may stay open until QUIC's idle timeout.
    pub(super) async fn wait_goodbyes(&self, inner: &Inner, deadline: tokio::time::Instant) {
        // Failures are learnt outside the transport too, without a wake-up here: look again
        // at this pace.
        const RECHECK: std::time::Duration = std::time::Duration::from_millis(20);
        loop {
            let notified = self.changed.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            let failed = inner.sink.known_failures();
            let done = self
                .slots
                .iter()
                .enumerate()
                .all(|(r, slot)| failed.contains(&(r as u32)) || slot.lock().quiet());
            if done {
                return;
            }
            let now = tokio::time::Instant::now();
            if now >= deadline {
                let waiting: Vec<String> = self
                    .slots
                    .iter()
                    .enumerate()
                    .filter(|(r, slot)| !failed.contains(&(*r as u32)) && !slot.lock().quiet())
                    .map(|(r, slot)| {
                        let st = slot.lock();
                        format!(
                            "rank {r} (left {}, streams {}/{}, connections {})",
                            st.left,
                            st.streams_done,
                            st.streams_announced,
                            st.conns.len()
                        )
                    })
                    .collect();
                tracing::debug!(
                    "shutdown: not every peer said goodbye in time: {}",
                    waiting.join(", ")
                );
                return;
            }
            let _ = tokio::time::timeout_at(deadline.min(now + RECHECK), notified).await;
        }
    }
}

/// Queues this rank's goodbye to `peer` (once), starting a writer if a connection is open but
/// nothing was sent yet, so the peer's wait for it ends. `failures`: the ranks this rank knows
/// failed, which the goodbye carries.
fn say_goodbye_to(inner: &Arc<Inner>, peer: u32, st: &mut PeerState, failures: &[u32]) {
    if st.said_goodbye {
        return;
    }
    if st.lanes.is_none() && st.alive_conn().is_some() {
        start_writer(inner, peer, st);
    }
    if let Some(l) = &st.lanes {
        let mut bye = FrameHeader::new(FrameKind::Goodbye, inner.rank);
        bye.seq = lanes::LANE_COUNT;
        let failed = crate::transport::failures_to_bytes(failures);
        let _ = l.push(Frame::new(bye, Bytes::from(failed)));
        st.said_goodbye = true;
    }
}

fn start_writer(inner: &Arc<Inner>, peer: u32, st: &mut PeerState) {
    let (lanes, receivers) = Lanes::new();
    st.writer = Some(
        inner
            .runtime
            .spawn(lanes::run_writer(inner.clone(), peer, receivers)),
    );
    st.lanes = Some(lanes);
}
