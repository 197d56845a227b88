//! The progress thread: reads every local peer's ring in this rank's inbox, delivers frames,
//! writes queued outgoing slots, watches peers' liveness, and sleeps on the doorbell when idle.

use super::doorbell::wait_private;
use super::outbound::{ACK, CMA, CONT, FRAME, GOODBYE, Item, NACK, P2P, decode_p2p};
use super::{GONE, Inner, LIVE, LIVENESS_PERIOD, Peer, cma};
use crate::transport::budget::RxBudget;
use crate::transport::landing::LandingEnd;
use crate::wire::{Frame, FrameHeader, FrameKind, HEADER_LEN, PREALLOC_LIMIT, decode_header};
use bytes::Bytes;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Yielding time after spinning, before sleeping on the doorbell.
const YIELD: Duration = Duration::from_micros(200);
/// Slots taken from one ring before looking at the others.
const BATCH: usize = 64;
/// How long a one-copy announcement of a p2p message stays unread at the head of its ring
/// while no receive is posted for it (see [`awaits_receive`]), per MiB of payload: a tenth of
/// what reading it into a frame first and copying it again costs (the second copy and the
/// fresh pages run at about 10 GB/s here), so waiting never costs more than a small part of
/// what it saves. Long enough to cover the wake-up of a receiving thread that slept.
const RECEIVE_GRACE_PER_MIB: Duration = Duration::from_micros(100);

/// A frame being assembled from slots.
struct Assembly {
    header: FrameHeader,
    buf: Vec<u8>,
}

/// Counts a p2p frame that landed straight in a posted receive.
fn count_landed(inner: &Inner, len: u64) {
    let stats = &inner.stats;
    stats.frames_received.fetch_add(1, Ordering::Relaxed);
    stats.landed_frames.fetch_add(1, Ordering::Relaxed);
    stats.bytes_received.fetch_add(len, Ordering::Relaxed);
}

/// What one slot asks for after it has been released.
enum Action {
    Nothing,
    Deliver(Frame),
    Copy(FrameHeader, u64, u64),
    Violation(String),
}

/// How long the progress thread first parks while callers drive progress before looking
/// again; consecutive parks double it up to [`CALLER_PARK_MAX`], so a rank blocked for long
/// stays nearly idle (a caller that slept wakes the thread itself when it leaves).
const CALLER_PARK: Duration = Duration::from_millis(1);
/// Longest park: bounds how late queued traffic moves once callers stop blocking.
const CALLER_PARK_MAX: Duration = Duration::from_millis(16);

/// Per-peer receive state.
struct RxState {
    peer: Arc<Peer>,
    asm: Option<Assembly>,
    /// Since when the one-copy announcement at the head of the ring waits for its receive to
    /// be posted (see [`awaits_receive`]).
    waiting_since: Option<Instant>,
}

/// The receive side: per-peer assembly state and the liveness timer. Held (as a lock in
/// [`Inner`]) by whichever thread is reading the rings.
pub(super) struct RxSide {
    peers: Vec<RxState>,
    last_check: Instant,
    idle_passes: u32,
    /// The sink's unexpected-message budget, fetched on the first pass (`None` inside: none).
    budget: Option<Option<Arc<RxBudget>>>,
}

impl RxSide {
    /// Receive state for these peers.
    pub(super) fn new(peers: &[Arc<Peer>]) -> Self {
        Self {
            peers: peers
                .iter()
                .map(|p| RxState {
                    peer: p.clone(),
                    asm: None,
                    waiting_since: None,
                })
                .collect(),
            last_check: Instant::now(),
            idle_passes: 0,
            budget: None,
        }
    }
}

impl Inner {
    /// One pass over rings and queues if no other thread is reading them; checks liveness
    /// when due. True if anything moved.
    pub(super) fn try_poll(&self) -> bool {
        let Some(mut side) = self.rx.try_lock() else {
            return false;
        };
        let side = &mut *side;
        let budget = side
            .budget
            .get_or_insert_with(|| self.sink.rx_budget())
            .as_deref();
        if poll(self, &mut side.peers, budget) {
            return true;
        }
        // Reading the clock costs as much as a pass over idle rings: look at it on every
        // 64th idle pass only.
        side.idle_passes = side.idle_passes.wrapping_add(1);
        if side.idle_passes.is_multiple_of(64) && side.last_check.elapsed() >= LIVENESS_PERIOD {
            side.last_check = Instant::now();
            check_liveness(self, &mut side.peers, budget);
        }
        false
    }

    /// Checks every live peer's process now (see [`check_liveness`]), unless another thread
    /// keeps reading the rings for a few milliseconds (it checks periodically itself; this
    /// thread may even be that one, calling in from a delivery).
    pub(super) fn check_liveness_now(&self) {
        let Some(mut side) = self.rx.try_lock_for(Duration::from_millis(5)) else {
            return;
        };
        let side = &mut *side;
        let budget = side
            .budget
            .get_or_insert_with(|| self.sink.rx_budget())
            .as_deref();
        side.last_check = Instant::now();
        check_liveness(self, &mut side.peers, budget);
    }
}

/// The progress thread: runs until `inner.stop` is set.
pub(super) fn run(inner: Arc<Inner>) {
    let bell = inner.me.doorbell();
    let mut last_work = Instant::now();
    let mut park = CALLER_PARK;
    while !inner.stop.load(Ordering::Acquire) {
        if inner.callers.load(Ordering::SeqCst) > 0 {
            let t = inner.caller_exit.load(Ordering::SeqCst);
            if inner.callers.load(Ordering::SeqCst) > 0 && !inner.stop.load(Ordering::Acquire) {
                wait_private(&inner.caller_exit, t, park);
                park = (park * 2).min(CALLER_PARK_MAX);
            }
            last_work = Instant::now();
            continue;
        }
        park = CALLER_PARK;
        if inner.try_poll() {
            last_work = Instant::now();
            continue;
        }
        let idle = last_work.elapsed();
        if idle < inner.spin {
            std::hint::spin_loop();
            continue;
        }
        if idle < inner.spin + YIELD {
            std::thread::yield_now();
            continue;
        }
        let ticket = bell.prepare();
        if inner.stop.load(Ordering::Acquire)
            || inner.callers.load(Ordering::SeqCst) > 0
            || inner.try_poll()
        {
            bell.done();
            last_work = Instant::now();
            continue;
        }
        bell.wait(ticket, LIVENESS_PERIOD);
        bell.done();
        last_work = Instant::now() - inner.spin;
    }
}

/// One pass over every ring and every pending queue; true if anything happened.
fn poll(inner: &Inner, rx: &mut [RxState], budget: Option<&RxBudget>) -> bool {
    let mut any = inner.pump_pending();
    for st in rx.iter_mut() {
        any |= drain(inner, st, budget);
    }
    any
}

/// Whether the next slot of `peer`'s ring starts a p2p frame (inline, or announced for a
/// one-copy transfer) that back-pressure holds back: the peer is over its unexpected-message
/// budget (`transport::budget`) and no frame is half read. The slot stays in the ring; once the
/// ring is full the peer's sends queue on its side (a one-copy sender's buffer stays lent).
fn held_back(inner: &Inner, st: &RxState, budget: Option<&RxBudget>) -> bool {
    let Some(b) = budget else { return false };
    if st.asm.is_some() || !b.stalled_fifo(st.peer.rank) {
        return false;
    }
    st.peer.rx.peek(|kind, data| {
        kind == P2P
            || (kind == FRAME || kind == CMA)
                && data.len() >= HEADER_LEN
                && decode_header(&data[..HEADER_LEN], inner.max_message)
                    .is_ok_and(|h| h.frame_kind() == Some(FrameKind::P2p))
    }) == Some(true)
}

/// Consumes up to [`BATCH`] slots of one peer's ring; true if any.
fn drain(inner: &Inner, st: &mut RxState, budget: Option<&RxBudget>) -> bool {
    if st.peer.rx.is_empty() {
        return false;
    }
    let peer = st.peer.clone();
    if peer.state.load(Ordering::Acquire) != LIVE {
        return false;
    }
    let mut n = 0;
    let mut waiting = false;
    while n < BATCH {
        if held_back(inner, st, budget) {
            break;
        }
        if awaits_receive(inner, st) {
            waiting = true;
            break;
        }
        let Some(action) = peer.rx.pop(|kind, data| on_slot(inner, st, kind, data)) else {
            break;
        };
        n += 1;
        if peer.rx.take_producer_waiting() {
            peer.seg.doorbell().ring_traffic();
        }
        match action {
            Action::Nothing => {}
            Action::Deliver(f) => deliver(inner, f),
            Action::Copy(header, addr, token) => copy_in(inner, &peer, header, addr, token),
            Action::Violation(why) => {
                // The ring is no longer read (its producer's sends queue up); the process and
                // its other peers carry on.
                tracing::error!(peer = peer.rank, reason = %why, "shm: malformed frame; closing the ring");
                inner.lose(&peer, format!("sent a malformed frame: {why}"));
                return true;
            }
        }
    }
    // A waiting announcement counts as work: the thread polling keeps looking (it does not
    // sleep) until the receive is posted or the grace period ends.
    n > 0 || waiting
}

/// Whether the next slot of `st`'s ring is a one-copy announcement of a p2p message that no
/// posted receive would take yet, and has waited less than its grace period
/// ([`RECEIVE_GRACE_PER_MIB`]): it then stays in
/// the ring. A receive posted meanwhile (the usual case: a ping-pong's next receive, a
/// receive posted just after its sender's announcement) gets the payload read straight into
/// its buffer, one copy in all; after the grace period the payload is read into a frame of
/// its own (the sender's buffer is lent until it is read) and waits as an unexpected message.
fn awaits_receive(inner: &Inner, st: &mut RxState) -> bool {
    // The announced length, if the head of the ring is such an announcement.
    let waiting_len = st
        .peer
        .rx
        .peek(|kind, data| {
            if kind != CMA || data.len() < HEADER_LEN {
                return None;
            }
            decode_header(&data[..HEADER_LEN], inner.max_message)
                .ok()
                .filter(|h| h.frame_kind() == Some(FrameKind::P2p) && !inner.sink.would_land(h))
                .map(|h| h.len)
        })
        .flatten();
    let Some(len) = waiting_len else {
        st.waiting_since = None;
        return false;
    };
    let since = *st.waiting_since.get_or_insert_with(Instant::now);
    if since.elapsed() < RECEIVE_GRACE_PER_MIB.mul_f64(len as f64 / (1 << 20) as f64) {
        // The receiving thread may need this CPU to post its receive (ranks pinned one per
        // core share it with their progress thread).
        std::thread::yield_now();
        return true;
    }
    st.waiting_since = None;
    false
}

fn deliver(inner: &Inner, f: Frame) {
    inner.stats.frames_received.fetch_add(1, Ordering::Relaxed);
    inner
        .stats
        .bytes_received
        .fetch_add(f.payload.len() as u64, Ordering::Relaxed);
    inner.sink.on_frame(f);
}

/// A validated header from the start of a slot; its sender must be the ring's producer.
fn header_of(inner: &Inner, peer: &Peer, data: &[u8]) -> Result<FrameHeader, String> {
    if data.len() < HEADER_LEN {
        return Err(format!("a {}-byte first slot", data.len()));
    }
    let h = decode_header(&data[..HEADER_LEN], inner.max_message).map_err(|e| e.to_string())?;
    if h.src != peer.rank {
        return Err(format!(
            "rank {} sent a frame claiming to be from rank {}",
            peer.rank, h.src
        ));
    }
    if matches!(h.frame_kind(), Some(FrameKind::Hello | FrameKind::Goodbye)) {
        return Err("a transport-level frame kind on a ring".into());
    }
    Ok(h)
}

fn on_slot(inner: &Inner, st: &mut RxState, kind: u32, data: &[u8]) -> Action {
    let peer = &st.peer;
    match kind {
        FRAME => {
            if st.asm.is_some() {
                return Action::Violation("a frame started inside another".into());
            }
            let h = match header_of(inner, peer, data) {
                Ok(h) => h,
                Err(e) => return Action::Violation(e),
            };
            let body = &data[HEADER_LEN..];
            let len = h.len as usize;
            if body.len() > len {
                return Action::Violation("a slot longer than its frame".into());
            }
            if body.len() == len {
                return whole_frame(inner, h, body);
            }
            // The header's length is a claim: reserve at most PREALLOC_LIMIT before the slots
            // carrying it arrive.
            let mut buf = Vec::with_capacity(len.min(PREALLOC_LIMIT));
            buf.extend_from_slice(body);
            st.asm = Some(Assembly { header: h, buf });
            Action::Nothing
        }
        P2P => {
            if st.asm.is_some() {
                return Action::Violation("a frame started inside another".into());
            }
            match decode_p2p(peer.rank, data) {
                Some((h, _)) if h.step != 0 => {
                    Action::Violation("a compact p2p frame with flags".into())
                }
                // As `decode_header` refuses a longer frame (the sender refuses to send one).
                Some((h, _)) if h.len > inner.max_message => {
                    Action::Violation(format!("a {}-byte frame over the limit", h.len))
                }
                Some((h, body)) => whole_frame(inner, h, body),
                None => Action::Violation("a malformed compact p2p frame".into()),
            }
        }
        CONT => {
            let Some(a) = st.asm.as_mut() else {
                return Action::Violation("a continuation slot outside a frame".into());
            };
            if a.buf.len() + data.len() > a.header.len as usize {
                return Action::Violation("a frame longer than its header says".into());
            }
            a.buf.extend_from_slice(data);
            if a.buf.len() == a.header.len as usize {
                let a = st.asm.take().expect("checked above");
                return Action::Deliver(Frame {
                    header: a.header,
                    payload: a.buf.into(),
                });
            }
            Action::Nothing
        }
        CMA => {
            if data.len() != HEADER_LEN + 16 {
                return Action::Violation("a malformed one-copy announcement".into());
            }
            let h = match header_of(inner, peer, data) {
                Ok(h) => h,
                Err(e) => return Action::Violation(e),
            };
            let addr = u64::from_le_bytes(data[HEADER_LEN..HEADER_LEN + 8].try_into().unwrap());
            let token = u64::from_le_bytes(data[HEADER_LEN + 8..].try_into().unwrap());
            Action::Copy(h, addr, token)
        }
        ACK | NACK => {
            let Ok(t) = <[u8; 8]>::try_from(data) else {
                return Action::Violation("a malformed acknowledgement".into());
            };
            let entry = peer.inflight.lock().remove(&u64::from_le_bytes(t));
            if kind == NACK
                && let Some((head, payload)) = entry
            {
                peer.cma_failed.store(true, Ordering::Relaxed);
                inner.enqueue(peer, Item::frame(head, payload));
            }
            Action::Nothing
        }
        GOODBYE => {
            // The report before the state: a peer seen GONE can end this rank's shutdown, and
            // what its goodbye said must be known by then.
            let failed = crate::transport::failures_from_bytes(data);
            if !failed.is_empty() {
                inner.sink.on_failures_reported(peer.rank, &failed);
            }
            inner.sink.on_departed(peer.rank);
            peer.state.store(GONE, Ordering::Release);
            Action::Nothing
        }
        other => Action::Violation(format!("unknown slot kind {other}")),
    }
}

/// A frame whose payload `body` came whole in one slot. A small p2p message lands straight in
/// a receive posted with its buffer, with no allocation (see `core::recv_cell`); anything else
/// is delivered as a frame.
fn whole_frame(inner: &Inner, h: FrameHeader, body: &[u8]) -> Action {
    if h.frame_kind() == Some(FrameKind::P2p) && inner.sink.on_p2p_inline(&h, body) {
        count_landed(inner, body.len() as u64);
        return Action::Nothing;
    }
    Action::Deliver(Frame {
        header: h,
        payload: Bytes::copy_from_slice(body),
    })
}

/// Copies an announced payload out of the peer and acknowledges it (or asks for slots). A
/// p2p payload a posted receive takes is read straight into that receive's buffer (one copy
/// in all); any other into a fresh frame.
fn copy_in(inner: &Inner, peer: &Peer, header: FrameHeader, addr: u64, token: u64) {
    let pid = peer.seg.pid();
    if let Some(mut landing) = inner.sink.claim_landing(&header) {
        if inner.fail_reads || cma::read_into(pid, addr, landing.buffer()).is_err() {
            landing.end(LandingEnd::Again);
            return read_failed(inner, peer, token, "into a posted receive");
        }
        landing.end(LandingEnd::Filled);
        acknowledge(inner, peer, ACK, token);
        count_landed(inner, header.len);
        return;
    }
    let read = if inner.fail_reads {
        Err(std::io::Error::from_raw_os_error(libc::EPERM))
    } else {
        cma::read_vec(pid, addr, header.len as usize)
    };
    match read {
        Ok(v) => {
            acknowledge(inner, peer, ACK, token);
            deliver(
                inner,
                Frame {
                    header,
                    payload: v.into(),
                },
            );
        }
        Err(e) => read_failed(inner, peer, token, &e.to_string()),
    }
}

/// Tells the peer its announced payload `token` was read (`ACK`: its buffer is free) or must
/// come through the ring (`NACK`).
fn acknowledge(inner: &Inner, peer: &Peer, kind: u32, token: u64) {
    inner.enqueue(
        peer,
        Item::Control {
            kind,
            body: token.to_le_bytes().to_vec(),
        },
    );
}

/// A one-copy read failed: the peer resends the payload through the ring.
fn read_failed(inner: &Inner, peer: &Peer, token: u64, why: &str) {
    tracing::debug!(
        peer = peer.rank,
        "process_vm_readv failed ({why}); using slots"
    );
    acknowledge(inner, peer, NACK, token);
}

/// Reports live peers whose process has exited (after reading what they left in the ring,
/// which may include their goodbye).
fn check_liveness(inner: &Inner, rx: &mut [RxState], budget: Option<&RxBudget>) {
    for st in rx.iter_mut() {
        let peer = st.peer.clone();
        if peer.state.load(Ordering::Acquire) != LIVE || peer.seg.owner_alive() {
            continue;
        }
        while drain(inner, st, budget) {}
        if peer.state.load(Ordering::Acquire) == LIVE {
            inner.lose(
                &peer,
                format!("local rank {} exited without saying goodbye", peer.rank),
            );
        }
    }
}
