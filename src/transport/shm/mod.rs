//! Same-host shared-memory transport.
//!
//! * **Segments** ([`segment`]): each rank owns an inbox in `/dev/shm`, created before the
//!   rendezvous and unlinked as soon as every local rank has mapped it, so nothing is left
//!   behind even after `kill -9`. The inbox holds one ring per local rank and a doorbell; rings
//!   shrink as local ranks grow ([`slots_for`]) so a host's shared memory stays linear in them.
//! * **Rings** ([`ring`]): lock-free single-producer/single-consumer rings of fixed-size slots.
//!   Small frames travel inline in one slot; larger ones are split across slots and pipelined
//!   (the producer continues as the consumer frees slots), so any size works.
//! * **One copy** ([`cma`]): payloads of at least [`CMA_THRESHOLD`] bytes are announced as
//!   (address, length, token) and the receiver copies them straight out of the sender with
//!   `process_vm_readv`, then acknowledges. Each receiver probes once whether it may; when it
//!   may not (ptrace restrictions), or `NEXAR_SHM_CMA=0`, or a read fails at run time, frames
//!   go through the rings instead.
//! * **Waiting** ([`doorbell`], `progress.rs`): one progress thread per rank reads the inbox;
//!   it spins briefly, then yields, then sleeps on a futex in the inbox. Senders issue a wake-up
//!   only when it sleeps. Idle ranks use no CPU. The spin is skipped when the host's ranks
//!   outnumber the cores ([`spin_limit`]): a waiting rank then yields at once to the one it
//!   waits for.
//! * **Blocking calls** (`caller.rs`, [`crate::transport::caller`]): a thread blocked in a
//!   `*_blocking` call reads the rings itself (whoever holds the receive-side lock consumes),
//!   with the same spin/yield/sleep policy, while the progress thread parks; a message then
//!   needs no thread hand-off at all. `NEXAR_SHM_CALLER_PROGRESS=0` turns this off.
//! * **Warm buffers** ([`malloc`]): glibc's mmap/trim thresholds are raised so freed large
//!   receive buffers are reused without page faults.
//! * **Sending** never blocks: a frame is written straight into the peer's ring from the calling
//!   thread; what does not fit is queued and written by the progress thread as the peer frees
//!   slots (the peer wakes it through the producer-waiting flag).
//! * **Peer death**: the progress thread checks every [`LIVENESS_PERIOD`] whether local peers
//!   still hold the lock on their inbox; one that exited without `GOODBYE` is reported to
//!   [`FrameSink::on_peer_lost`].
//! * **Stalls** (`heartbeat.rs`): a watchdog thread per rank bumps a heartbeat counter in its
//!   inbox every tenth of the peer timeout; a local peer whose counter stands still for the
//!   whole timeout is declared failed and fenced (its ring is no longer read, and a flag tells
//!   it, should it wake, that it was dropped).
//!
//! The sender of every frame is authenticated by the ring it arrives on (only the owner's user
//! can open the 0600 inbox, and a ring has one producer): `header.src` must match.

mod caller;
pub mod cma;
pub mod doorbell;
pub mod flag_area;
mod heartbeat;
pub mod malloc;
pub mod outbound;
mod progress;
pub mod ring;
pub mod segment;
mod setup;
pub mod shared_file;

pub use setup::{ShmInbox, connect, prepare};

use super::{BoxFuture, FrameSink, Transport, TransportStats};
use crate::error::{Error, ErrorKind, Result};
use crate::wire::{Frame, HEADER_LEN, encode_header};
use bytes::Bytes;
use outbound::{Item, Outbound};
use parking_lot::Mutex;
use ring::Ring;
use segment::Segment;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

/// Slots per ring while the host's ranks fit the [`INBOX_BUDGET`] (up to 16 local ranks).
pub const MAX_SLOTS: u32 = 64;
/// Fewest slots per ring, however many local ranks: a frame of several slots still pipelines
/// (the producer fills some while the consumer drains others). Frames of [`CMA_THRESHOLD`]
/// or more usually skip the rings anyway.
pub const MIN_SLOTS: u32 = 8;
/// Bytes per slot (including its 8-byte header).
pub const SLOT_BYTES: u32 = 8192;
/// Ring memory one inbox aims to stay within (8 MiB = 1,024 slots); all of it is committed in
/// `/dev/shm` up front, so a host of `n` ranks holds about `n x` this.
pub const INBOX_BUDGET: usize = 8 << 20;

/// Slots per ring on a host of `local_ranks` ranks: the largest power of two that keeps the
/// inbox (one ring per local rank) within [`INBOX_BUDGET`], between [`MIN_SLOTS`] and
/// [`MAX_SLOTS`]. 64 up to 16 ranks, 32 up to 32, 16 up to 64, then 8 (an inbox then grows past
/// the budget: 16 MiB at 256 ranks). Every rank of the host derives the same value from the
/// host table, and peers read it from the inbox's header anyway.
pub fn slots_for(local_ranks: u32) -> u32 {
    let fair = (INBOX_BUDGET / SLOT_BYTES as usize) as u32 / local_ranks.max(1);
    let pow2 = if fair == 0 { 0 } else { 1 << fair.ilog2() };
    pow2.clamp(MIN_SLOTS, MAX_SLOTS)
}
/// Payloads at least this large go by `process_vm_readv` when permitted. Below it the
/// pipelined rings win (both copies run in parallel on two cores and stay in cache; measured
/// at 1 MiB: rings 8.6-10.4 GB/s, one-copy 5.6-8.6 GB/s); above it one copy halves the memory
/// traffic, which matters most when ranks share cores.
pub const CMA_THRESHOLD: usize = 1 << 20;
/// Busy-polling time of a waiting thread before it starts yielding, when every local rank has
/// a core of its own. A message then costs no system call at all.
pub const SPIN: Duration = Duration::from_micros(10);

/// How long a waiting thread spins before yielding: [`SPIN`] when the `local_ranks` of this
/// host fit on the cores this process may use, zero when they do not (spinning would only
/// keep the rank we wait for off the core), or `NEXAR_SHM_SPIN_US` microseconds.
pub fn spin_limit(local_ranks: usize) -> Duration {
    if let Some(us) = std::env::var("NEXAR_SHM_SPIN_US")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
    {
        return Duration::from_micros(us);
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if local_ranks > cores {
        Duration::ZERO
    } else {
        SPIN
    }
}

/// How often the progress thread checks that local peers are alive.
pub const LIVENESS_PERIOD: Duration = Duration::from_millis(200);
/// How long `shutdown` waits for queued frames and copies to drain.
pub const SHUTDOWN_FLUSH_LIMIT: Duration = Duration::from_secs(5);

const LIVE: u8 = 0;
const GONE: u8 = 1;
const LOST: u8 = 2;

/// One local peer.
struct Peer {
    rank: u32,
    /// The peer's inbox (we write to `tx` in it and ring its doorbell).
    seg: Segment,
    /// Our ring in the peer's inbox.
    tx: Ring,
    /// The peer's ring in our inbox.
    rx: Ring,
    out: Mutex<Outbound>,
    pending: AtomicBool,
    state: AtomicU8,
    /// A one-copy read failed at run time: stop announcing payloads to this peer.
    cma_failed: AtomicBool,
    /// Payloads announced by `CMA` and not yet acknowledged: token -> (header, payload).
    inflight: Mutex<HashMap<u64, (Vec<u8>, Bytes)>>,
    /// Why the peer was lost, set before `state` leaves `LIVE`: a send that finds the peer
    /// gone names the real cause, even before the engine has recorded it.
    lost_reason: std::sync::OnceLock<String>,
}

/// Counters of one transport.
#[derive(Default)]
struct Counters {
    frames_sent: AtomicU64,
    bytes_sent: AtomicU64,
    frames_received: AtomicU64,
    bytes_received: AtomicU64,
    one_copy_frames: AtomicU64,
    landed_frames: AtomicU64,
}

/// State shared by the handle and the progress thread.
struct Inner {
    rank: u32,
    me: Segment,
    /// Indexed by world rank; `None` for ranks not reachable through shared memory.
    peers: Vec<Option<Arc<Peer>>>,
    local: Vec<Arc<Peer>>,
    sink: Arc<dyn FrameSink>,
    max_message: u64,
    next_token: AtomicU64,
    stop: AtomicBool,
    stats: Counters,
    /// The receive side; whoever holds the lock consumes the rings (the progress thread, or a
    /// blocked caller driving progress itself).
    rx: Mutex<progress::RxSide>,
    /// Callers blocked in [`caller::block_on`](crate::transport::caller::block_on) on this
    /// transport; while there are any the progress thread stands aside.
    callers: AtomicUsize,
    /// Bumped when the last blocked caller leaves or at shutdown (a private futex word).
    caller_exit: AtomicU32,
    /// Blocked callers drive progress themselves (`NEXAR_SHM_CALLER_PROGRESS`, default on).
    caller_progress: bool,
    /// How long a waiting thread busy-polls before it yields (see [`spin_limit`]).
    spin: Duration,
    /// Tests only (`NEXAR_SHM_TEST_FAIL_READS=1`): every one-copy read fails as if ptrace were
    /// forbidden after the probe, exercising the NACK-and-resend path.
    fail_reads: bool,
}

/// The shared-memory transport of one rank. Reaches only the local peers it could map; see
/// the module docs.
pub struct ShmTransport {
    inner: Arc<Inner>,
    thread: Mutex<Option<std::thread::JoinHandle<()>>>,
    /// The heartbeat watchdog (see `heartbeat.rs`); unparked to stop.
    watchdog: Mutex<Option<std::thread::JoinHandle<()>>>,
}

impl Inner {
    fn peer(&self, to: u32) -> Result<&Arc<Peer>> {
        match self.peers.get(to as usize) {
            Some(Some(p)) => Ok(p),
            _ => Err(Error::new(
                ErrorKind::InvalidRank,
                format!("shm transport: rank {to} is not a local peer"),
            )),
        }
    }

    /// Local peer `to` if it is live, counting a frame of `len` payload bytes as sent; else
    /// the reason it is not (its loss's own words where it was lost).
    fn live_peer(&self, to: u32, len: usize) -> Result<&Arc<Peer>> {
        // Refused here, as the QUIC transport does: the receiver would take an oversized
        // frame for a protocol violation and declare this (healthy) rank failed.
        if len as u64 > self.max_message {
            return Err(Error::new(
                ErrorKind::ResourceExhausted,
                format!(
                    "message of {len} bytes exceeds the limit of {} (NEXAR_MAX_MESSAGE)",
                    self.max_message
                ),
            ));
        }
        let peer = self.peer(to)?;
        if peer.state.load(Ordering::Acquire) != LIVE {
            let why = peer
                .lost_reason
                .get()
                .map_or("local peer has left or failed", |r| r);
            return Err(Error::proc_failed(to, why));
        }
        self.stats.frames_sent.fetch_add(1, Ordering::Relaxed);
        self.stats
            .bytes_sent
            .fetch_add(len as u64, Ordering::Relaxed);
        Ok(peer)
    }

    /// Queues a frame that did not go inline: announced for a one-copy read when it is large
    /// and the peer may read this process (the payload is then kept until acknowledged),
    /// written through the ring slot by slot otherwise.
    fn send_queued(&self, peer: &Peer, header: [u8; HEADER_LEN], payload: Bytes) {
        let head = header.to_vec();
        let item = if payload.len() >= CMA_THRESHOLD
            && peer.tx.cma_ok().load(Ordering::Acquire) != 0
            && !peer.cma_failed.load(Ordering::Relaxed)
        {
            let token = self.next_token.fetch_add(1, Ordering::Relaxed);
            let mut body = head.clone();
            body.extend_from_slice(&(payload.as_ptr() as u64).to_le_bytes());
            body.extend_from_slice(&token.to_le_bytes());
            peer.inflight.lock().insert(token, (head, payload));
            self.stats.one_copy_frames.fetch_add(1, Ordering::Relaxed);
            Item::Control {
                kind: outbound::CMA,
                body,
            }
        } else {
            Item::frame(head, payload)
        };
        self.enqueue(peer, item);
    }

    /// Queues `item` for `peer` and writes what fits now.
    fn enqueue(&self, peer: &Peer, item: Item) {
        let pumped = {
            let mut out = peer.out.lock();
            out.push(item);
            out.pump(&peer.tx)
        };
        if pumped.blocked {
            peer.pending.store(true, Ordering::Release);
        }
        if pumped.wrote {
            peer.seg.doorbell().ring_traffic();
        }
    }

    /// The small-message fast path: writes a one-slot frame straight into the peer's ring when
    /// nothing is queued before it (no queue item, no allocation). False when it must queue.
    fn send_inline(&self, peer: &Peer, kind: u32, header: &[u8], payload: &[u8]) -> bool {
        {
            let out = peer.out.lock();
            if !out.is_empty() || !peer.tx.try_push(kind, &[header, payload]) {
                return false;
            }
        }
        peer.seg.doorbell().ring_traffic();
        true
    }

    /// A small p2p message that needs no acknowledgement, as one `P2P` slot with its compact
    /// header (see `outbound::P2P`): one cache line for 8 bytes instead of two. False (nothing
    /// written) for any other frame, or when it must queue.
    fn send_compact(&self, peer: &Peer, h: &crate::wire::FrameHeader, payload: &[u8]) -> bool {
        h.frame_kind() == Some(crate::wire::FrameKind::P2p)
            && h.step == 0
            && outbound::P2P_HEAD + payload.len() <= peer.tx.capacity()
            && self.send_inline(peer, outbound::P2P, &outbound::encode_p2p(h), payload)
    }

    /// A frame of several slots written straight from the caller's `payload` when nothing is
    /// queued before it: as many slots as the ring has room for now, the rest copied and
    /// queued behind them. What fits costs one copy instead of two (into a queued frame, then
    /// into the ring). False (nothing written) when something is queued or the ring is full.
    fn send_streamed(&self, peer: &Peer, head: &[u8], payload: &[u8]) -> bool {
        {
            let mut out = peer.out.lock();
            if !out.is_empty() {
                return false;
            }
            let ring = &peer.tx;
            let (mut started, mut sent) = (false, 0);
            let done = outbound::write_frame(ring, head, payload, &mut started, &mut sent);
            if !started {
                return false;
            }
            if !done {
                out.push(Item::Frame {
                    head: head.to_vec(),
                    payload: Bytes::copy_from_slice(&payload[sent..]),
                    started: true,
                    sent: 0,
                });
                if out.pump(ring).blocked {
                    peer.pending.store(true, Ordering::Release);
                }
            }
        }
        peer.seg.doorbell().ring_traffic();
        true
    }

    /// True when a ring holds unread slots or a queue waits for ring space.
    fn has_incoming(&self) -> bool {
        self.local
            .iter()
            .any(|p| !p.rx.is_empty() || p.pending.load(Ordering::Acquire))
    }

    /// Writes queued items of every peer that has some; true if anything was written.
    fn pump_pending(&self) -> bool {
        let mut any = false;
        for p in &self.local {
            if !p.pending.load(Ordering::Acquire) {
                continue;
            }
            let pumped = {
                let mut out = p.out.lock();
                let r = out.pump(&p.tx);
                if !r.blocked {
                    p.pending.store(false, Ordering::Release);
                }
                r
            };
            if pumped.wrote {
                any = true;
                p.seg.doorbell().ring_traffic();
            }
        }
        any
    }

    /// Marks `peer` lost (once) and tells the sink.
    fn lose(&self, peer: &Peer, reason: String) {
        // First: a send racing this loss reports this reason, not a generic one (the engine
        // records the first failure it hears of a rank).
        let _ = peer.lost_reason.set(reason.clone());
        if peer
            .state
            .compare_exchange(LIVE, LOST, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
        {
            peer.out.lock().clear();
            peer.inflight.lock().clear();
            peer.pending.store(false, Ordering::Release);
            tracing::debug!(rank = self.rank, peer = peer.rank, "shm: {reason}");
            self.sink.on_peer_lost(peer.rank, reason);
        }
    }

    /// True when nothing is queued or awaiting acknowledgement for live peers.
    fn drained(&self) -> bool {
        self.local.iter().all(|p| {
            p.state.load(Ordering::Acquire) != LIVE
                || (p.out.lock().is_empty() && p.inflight.lock().is_empty())
        })
    }
}

impl ShmTransport {
    /// True when frames to world rank `to` go through shared memory.
    pub fn reaches(&self, to: u32) -> bool {
        matches!(self.inner.peers.get(to as usize), Some(Some(_)))
    }

    /// Number of local peers reached.
    pub fn peer_count(&self) -> usize {
        self.inner.local.len()
    }

    fn stop_thread(&self) {
        self.inner.stop.store(true, Ordering::SeqCst);
        self.inner.me.doorbell().ring();
        doorbell::wake_private(&self.inner.caller_exit);
        if let Some(w) = self.watchdog.lock().as_ref() {
            w.thread().unpark();
        }
    }
}

impl Transport for ShmTransport {
    fn send(&self, to: u32, frame: Frame) -> Result<()> {
        let inner = &self.inner;
        let peer = inner.live_peer(to, frame.payload.len())?;
        if inner.send_compact(peer, &frame.header, &frame.payload) {
            return Ok(());
        }
        let header = encode_header(&frame.header);
        if HEADER_LEN + frame.payload.len() <= peer.tx.capacity()
            && inner.send_inline(peer, outbound::FRAME, &header, &frame.payload)
        {
            return Ok(());
        }
        inner.send_queued(peer, header, frame.payload);
        Ok(())
    }

    fn send_copy(
        &self,
        to: u32,
        mut header: crate::wire::FrameHeader,
        payload: &[u8],
    ) -> Result<()> {
        header.len = payload.len() as u64;
        let inner = &self.inner;
        let peer = inner.live_peer(to, payload.len())?;
        if inner.send_compact(peer, &header, payload) {
            return Ok(());
        }
        let head = encode_header(&header);
        let sent = if HEADER_LEN + payload.len() <= peer.tx.capacity() {
            inner.send_inline(peer, outbound::FRAME, &head, payload)
        } else {
            payload.len() < CMA_THRESHOLD && inner.send_streamed(peer, &head, payload)
        };
        if !sent {
            inner.send_queued(peer, head, Bytes::copy_from_slice(payload));
        }
        Ok(())
    }

    fn lends(&self, to: u32, len: usize) -> bool {
        len >= CMA_THRESHOLD
            && self.inner.peer(to).is_ok_and(|p| {
                p.state.load(Ordering::Acquire) == LIVE
                    && p.tx.cma_ok().load(Ordering::Acquire) != 0
                    && !p.cma_failed.load(Ordering::Relaxed)
            })
    }

    fn shutdown(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            let inner = &self.inner;
            let start = std::time::Instant::now();
            while !inner.drained() && start.elapsed() < SHUTDOWN_FLUSH_LIMIT {
                tokio::time::sleep(Duration::from_micros(200)).await;
            }
            for p in &inner.local {
                if p.state.load(Ordering::Acquire) == LIVE {
                    inner.enqueue(
                        p,
                        Item::Control {
                            kind: outbound::GOODBYE,
                            body: super::failures_to_bytes(&inner.sink.known_failures()),
                        },
                    );
                }
            }
            while !inner.drained() && start.elapsed() < SHUTDOWN_FLUSH_LIMIT {
                tokio::time::sleep(Duration::from_micros(200)).await;
            }
            self.stop_thread();
            let thread = self.thread.lock().take();
            if let Some(t) = thread {
                let _ = tokio::task::spawn_blocking(move || t.join()).await;
            }
            inner.me.unlink();
        })
    }

    fn name(&self) -> &'static str {
        "shm"
    }

    fn caller_progress(&self) -> Option<&dyn crate::transport::caller::CallerProgress> {
        self.inner.caller_progress.then_some(self as _)
    }

    fn refresh_liveness(&self) {
        self.inner.check_liveness_now();
    }

    fn shares_memory(&self, to: u32) -> bool {
        self.reaches(to)
    }

    fn cma_target(&self, to: u32) -> Option<i32> {
        let p = self.inner.peers.get(to as usize)?.as_ref()?;
        let usable = !self.inner.fail_reads
            && p.state.load(Ordering::Acquire) == LIVE
            && p.rx.cma_ok().load(Ordering::Acquire) != 0;
        usable.then(|| p.seg.pid())
    }

    fn cma_pid(&self, to: u32) -> Option<i32> {
        let p = self.inner.peers.get(to as usize)?.as_ref()?;
        let usable = !self.inner.fail_reads
            && p.state.load(Ordering::Acquire) == LIVE
            && p.rx.cma_ok().load(Ordering::Acquire) != 0
            && p.tx.cma_ok().load(Ordering::Acquire) != 0
            && !p.cma_failed.load(Ordering::Relaxed);
        usable.then(|| p.seg.pid())
    }

    fn stats(&self) -> Vec<(&'static str, TransportStats)> {
        let c = &self.inner.stats;
        vec![(
            "shm",
            TransportStats {
                frames_sent: c.frames_sent.load(Ordering::Relaxed),
                bytes_sent: c.bytes_sent.load(Ordering::Relaxed),
                frames_received: c.frames_received.load(Ordering::Relaxed),
                bytes_received: c.bytes_received.load(Ordering::Relaxed),
                one_copy_frames: c.one_copy_frames.load(Ordering::Relaxed),
                landed_frames: c.landed_frames.load(Ordering::Relaxed),
                ..TransportStats::default()
            },
        )]
    }
}

impl Drop for ShmTransport {
    fn drop(&mut self) {
        self.stop_thread();
        self.inner.me.unlink();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rings_shrink_past_sixteen_local_ranks_within_the_budget() {
        // Unchanged (64 slots, 512 KiB rings) for small hosts.
        for n in 1..=16 {
            assert_eq!(slots_for(n), MAX_SLOTS, "{n} local ranks");
        }
        assert_eq!(slots_for(0), MAX_SLOTS);
        let expect = [
            (17, 32),
            (32, 32),
            (33, 16),
            (64, 16),
            (65, 8),
            (127, 8),
            (4096, 8),
        ];
        for (n, slots) in expect {
            assert_eq!(slots_for(n), slots, "{n} local ranks");
        }
        for n in 1..=4096u32 {
            let s = slots_for(n);
            assert!(s.is_power_of_two() && (MIN_SLOTS..=MAX_SLOTS).contains(&s));
            assert!(
                s <= slots_for(n.saturating_sub(1).max(1)),
                "never grows with n"
            );
            let inbox = n as usize * s as usize * SLOT_BYTES as usize;
            assert!(
                s == MIN_SLOTS || inbox <= INBOX_BUDGET,
                "{n} ranks: {inbox} bytes"
            );
        }
    }
}
