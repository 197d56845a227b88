//! The per-process engine: owns the transport, the matcher and the collective mailboxes, and
//! routes every incoming frame. It is the [`FrameSink`] transports deliver into.
//!
//! Locking rule: no engine lock is ever held while calling into a transport, because the
//! in-memory transport delivers synchronously into another engine.

use crate::bootstrap::World;
use crate::config::Config;
use crate::core::mailbox;
use crate::core::matching::{Envelope, Matcher, Posting, RecvSpec};
use crate::error::{Error, ErrorKind, Result};
use crate::transport::{FrameSink, Transport};
use crate::wire::{Frame, FrameHeader, FrameKind, P2P_SYNC};
use bytes::Bytes;
use parking_lot::{Mutex, RwLock};
use rustc_hash::FxHashMap;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use tokio::sync::{Notify, oneshot};

mod colls;
pub(crate) use colls::EarlyFlags;
mod revoke;

use super::feature::{Feature, Features};
use revoke::Revocations;

/// What a running collective's mailbox receives.
#[derive(Debug)]
pub(crate) enum CollEvent {
    /// A frame for this collective.
    Frame(Frame),
    /// A world rank failed (the error names it).
    PeerLost(Error),
}

type RendezvousParts = (
    Option<crate::bootstrap::rendezvous::RendezvousLink>,
    Option<crate::bootstrap::rendezvous::RendezvousServer>,
);

/// Key of one collective call: (communicator context, collective sequence number).
type CollKey = (u64, u64);

#[derive(Default)]
struct CollRouter {
    open: FxHashMap<CollKey, mailbox::Sender<CollEvent>>,
    /// Frames for collectives this rank has not started yet.
    early: FxHashMap<CollKey, Vec<Frame>>,
    /// Recently finished calls (fingerprint and members' world ranks), so a frame of a
    /// mismatched call that arrives after this rank finished is still caught.
    closed: FxHashMap<CollKey, (crate::core::fingerprint::Fingerprint, Arc<[u32]>)>,
    closed_order: std::collections::VecDeque<CollKey>,
}

/// How many finished calls [`CollRouter::closed`] remembers.
const CLOSED_KEPT: usize = 256;

/// A receive that may still be waiting.
pub(crate) enum RecvWait {
    /// Matched immediately.
    Ready(Envelope),
    /// Queued under this id; the channel fires on match or failure.
    Pending(u64, oneshot::Receiver<Result<Envelope>>),
}

/// Completes a synchronous send: `Ok` once the receiver matched it, or the peer's failure.
pub(crate) type SyncWait = oneshot::Receiver<Result<()>>;

/// Synchronous sends awaiting acknowledgement (with their context), by (destination world
/// rank, sequence number).
type SyncSends = FxHashMap<(u32, u64), (u64, oneshot::Sender<Result<()>>)>;

/// The per-process engine.
pub(crate) struct Engine {
    /// This engine, for callbacks that outlive a borrow of it (a transport's landing).
    me: std::sync::Weak<Engine>,
    /// World rank of this process.
    pub rank: u32,
    /// World size.
    pub size: u32,
    /// Configuration in force.
    pub cfg: Config,
    /// Runtime that runs transports and non-blocking operations.
    pub runtime: tokio::runtime::Handle,
    transport: OnceLock<Arc<dyn Transport>>,
    hosts: OnceLock<Vec<String>>,
    /// The rendezvous connection (and server, on a hosting rank 0), kept open while the world
    /// lives.
    pub(crate) rendezvous: Mutex<Option<RendezvousParts>>,
    matcher: Mutex<Matcher>,
    /// The matcher's back-pressure budget, reachable without its lock.
    budget: Arc<crate::transport::budget::RxBudget>,
    /// Notified whenever a p2p message arrives or a peer fails (for blocking probes).
    arrivals: Notify,
    colls: Mutex<CollRouter>,
    send_seq: Vec<AtomicU64>,
    /// Synchronous sends awaiting their acknowledgement, by (destination, sequence number).
    ssends: Mutex<SyncSends>,
    failed: RwLock<HashMap<u32, Error>>,
    /// Set once `failed` has an entry: lets the per-message checks skip the lock while every
    /// peer is alive.
    any_failed: AtomicBool,
    /// A peer declared this rank failed and dropped it: its goodbyes pass on no failures.
    dropped: AtomicBool,
    /// Peers that said goodbye (finished cleanly), by world rank: a send that finds one gone
    /// fails, but does not make it a failed process for this rank's failure set or the
    /// failure reports its own goodbye passes on (a departure is not a failure).
    departed: Vec<AtomicBool>,
    closed: AtomicBool,
    /// Revoked communicators (see [`Engine::revoke_context`]).
    revoked: Revocations,
    /// The features above the core: their frames, failures and the close reach them here.
    features: Features,
}

impl Engine {
    /// An engine for world rank `rank` of `size`, not yet connected.
    /// `features` (from `crate::router`) receive the frames the core does not handle itself.
    pub fn new(
        rank: u32,
        size: u32,
        cfg: Config,
        runtime: tokio::runtime::Handle,
        features: Features,
    ) -> Arc<Self> {
        let matcher = Matcher::new(cfg.max_unexpected, size);
        Arc::new_cyclic(|me| Self {
            me: me.clone(),
            rank,
            size,
            budget: matcher.budget(),
            matcher: Mutex::new(matcher),
            cfg,
            runtime,
            transport: OnceLock::new(),
            hosts: OnceLock::new(),
            rendezvous: Mutex::new(None),
            arrivals: Notify::new(),
            colls: Mutex::new(CollRouter::default()),
            send_seq: (0..size).map(|_| AtomicU64::new(0)).collect(),
            ssends: Mutex::new(FxHashMap::default()),
            failed: RwLock::new(HashMap::new()),
            any_failed: AtomicBool::new(false),
            dropped: AtomicBool::new(false),
            departed: (0..size).map(|_| AtomicBool::new(false)).collect(),
            closed: AtomicBool::new(false),
            revoked: Default::default(),
            features,
        })
    }

    /// The installed feature of type `T` (every feature is installed by `crate::router`).
    pub(crate) fn feature<T: Feature>(&self) -> Arc<T> {
        self.features
            .get::<T>()
            .expect("crate::router installs every feature in every engine")
    }

    /// Installs the connected world (once).
    pub fn connect(&self, world: World) {
        let _ = self.hosts.set(world.hosts);
        let _ = self.transport.set(world.transport);
        *self.rendezvous.lock() = Some((world.rendezvous, world.rendezvous_server));
    }

    /// Drops the rendezvous connection (after the final shutdown).
    pub fn leave_rendezvous(&self) {
        self.rendezvous.lock().take();
    }

    /// The transport (panics if called before [`Engine::connect`], which `Context` prevents).
    pub fn transport(&self) -> &Arc<dyn Transport> {
        self.transport
            .get()
            .expect("engine is connected before use")
    }

    /// The transport, or `None` before [`Engine::connect`].
    pub(crate) fn transport_if_connected(&self) -> Option<&Arc<dyn Transport>> {
        self.transport.get()
    }

    /// Host name of every world rank.
    pub fn hosts(&self) -> &[String] {
        self.hosts.get().map(Vec::as_slice).unwrap_or(&[])
    }

    /// Marks the engine closed: later operations fail with [`ErrorKind::Finalized`].
    pub fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        let err = Error::new(ErrorKind::Finalized, "the context was finalized");
        self.matcher.lock().fail_all(&err);
        // Blocking receives and probes that wait for arrivals look again and see the close.
        self.arrivals.notify_waiters();
        for (_, (_, tx)) in self.ssends.lock().drain() {
            let _ = tx.send(Err(err.clone()));
        }
        let open: Vec<_> = self.colls.lock().open.values().cloned().collect();
        for tx in open {
            tx.send(CollEvent::PeerLost(err.clone()));
        }
        self.features.close(&err);
    }

    /// Fails if the engine was finalized.
    #[inline] // on every operation's path: one load, the error built out of line
    pub fn check_open(&self) -> Result<()> {
        if self.closed.load(Ordering::SeqCst) {
            return Err(finalized());
        }
        Ok(())
    }

    /// The failure recorded for world rank `rank`, if any.
    #[inline] // on every operation's path: one load while no rank has failed
    pub fn failure_of(&self, rank: u32) -> Option<Error> {
        if !self.any_failed.load(Ordering::Acquire) {
            return None;
        }
        self.recorded_failure(rank)
    }

    #[cold]
    fn recorded_failure(&self, rank: u32) -> Option<Error> {
        self.failed.read().get(&rank).cloned()
    }

    /// `e`, after recording the failure it names if the engine did not know it yet: an error
    /// that tells the caller "rank r failed" must leave r in every failed set this rank reports
    /// (ULFM's `MPIX_Comm_get_failed`), whichever path found it (a transport, a peer that gave
    /// up on a call, a vanished process).
    pub fn named_failure(&self, e: Error) -> Error {
        if e.kind() == ErrorKind::ProcFailed
            && let Some(r) = e.failed_rank()
            && r != self.rank
            && r < self.size
            && !self.has_departed(r)
            && self.failure_of(r).is_none()
        {
            self.mark_failed(r, e.clone());
        }
        e
    }

    /// Whether world rank `r` said goodbye (left cleanly).
    pub fn has_departed(&self, r: u32) -> bool {
        self.departed
            .get(r as usize)
            .is_some_and(|d| d.load(Ordering::Acquire))
    }

    /// The first of `members` (world ranks) that said goodbye, if any.
    pub fn departed_among(&self, members: &[u32]) -> Option<u32> {
        members.iter().copied().find(|&r| self.has_departed(r))
    }

    /// The error of a call that still waits for world rank `r`, which left the job: a process
    /// that finalized sends nothing more, so the call can never complete.
    pub fn departure_error(&self, r: u32) -> Error {
        Error::proc_failed(
            r,
            "it left the job (finalized) while a call on this rank still waited for it",
        )
    }

    /// The recorded failure that means a receive with `spec` can never be satisfied: its
    /// source's, or (for `ANY_SOURCE`) the first among the communicator's members.
    pub(crate) fn source_failure(&self, spec: &RecvSpec) -> Option<Error> {
        match spec.source {
            Some(s) => self.failure_of(s),
            None => self.check_alive(&spec.members).err(),
        }
    }

    /// Fails with the first recorded failure among `members` (world ranks).
    pub fn check_alive(&self, members: &[u32]) -> Result<()> {
        if !self.any_failed.load(Ordering::Acquire) {
            return Ok(());
        }
        let failed = self.failed.read();
        if failed.is_empty() {
            return Ok(());
        }
        match members.iter().find_map(|r| failed.get(r)) {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }

    /// Sends a p2p message to world rank `to` (eager: returns once queued).
    pub fn send_p2p(&self, to: u32, context: u64, tag: i32, payload: Bytes) -> Result<()> {
        self.send_p2p_mode(to, context, tag, payload, false)
            .map(|_| ())
    }

    /// [`Engine::send_p2p`] of a borrowed payload, copied before this returns: into the
    /// peer's ring slot on shared memory (no allocation for a small message), into a frame
    /// otherwise.
    pub fn send_p2p_copy(&self, to: u32, context: u64, tag: i32, data: &[u8]) -> Result<()> {
        if to == self.rank {
            return self.send_p2p(to, context, tag, Bytes::copy_from_slice(data));
        }
        let seq = self.next_p2p_seq(to, context, data.len())?;
        let h = self.p2p_header(context, tag, seq, false);
        self.transport()
            .send_copy(to, h, data)
            .map_err(|e| self.named_failure(e))
    }

    /// The sequence number of the next p2p message to world rank `to` on `context`, after the
    /// checks every send makes: the engine is open, the communicator not revoked, `to` not
    /// known to have failed.
    ///
    /// A message over the transports' limit is refused here, before it takes a number: a
    /// number taken by a message that never leaves would hold back every later message to
    /// `to` (they are delivered in order).
    fn next_p2p_seq(&self, to: u32, context: u64, len: usize) -> Result<u64> {
        if len as u64 > self.cfg.max_message {
            return Err(Error::new(
                ErrorKind::ResourceExhausted,
                format!(
                    "message of {len} bytes exceeds the limit of {} (NEXAR_MAX_MESSAGE)",
                    self.cfg.max_message
                ),
            ));
        }
        self.check_open()?;
        self.check_revoked(context)?;
        if let Some(e) = self.failure_of(to) {
            return Err(e);
        }
        Ok(self.send_seq[to as usize].fetch_add(1, Ordering::Relaxed))
    }

    /// The header of p2p message `seq` from this rank.
    fn p2p_header(&self, context: u64, tag: i32, seq: u64, sync: bool) -> FrameHeader {
        let mut h = FrameHeader::new(FrameKind::P2p, self.rank);
        h.context = context;
        h.tag = tag;
        h.seq = seq;
        if sync {
            h.step = P2P_SYNC;
        }
        h
    }

    /// Sends a synchronous p2p message to world rank `to` (queued at once, like
    /// [`Engine::send_p2p`]); the returned channel fires once the receiver matched it, or with
    /// the error that ended the wait (the peer failed, the engine closed).
    pub fn send_p2p_sync(
        &self,
        to: u32,
        context: u64,
        tag: i32,
        payload: Bytes,
    ) -> Result<SyncWait> {
        Ok(self
            .send_p2p_mode(to, context, tag, payload, true)?
            .expect("a synchronous send has a wait"))
    }

    fn send_p2p_mode(
        &self,
        to: u32,
        context: u64,
        tag: i32,
        payload: Bytes,
        sync: bool,
    ) -> Result<Option<SyncWait>> {
        let seq = self.next_p2p_seq(to, context, payload.len())?;
        // Registered before the failure re-check and the send, so neither a fast
        // acknowledgement nor a concurrent failure of `to` can be missed.
        let wait = sync.then(|| {
            let (tx, rx) = oneshot::channel();
            self.ssends.lock().insert((to, seq), (context, tx));
            rx
        });
        if sync && let Some(e) = self.failure_of(to) {
            self.ssends.lock().remove(&(to, seq));
            return Err(e);
        }
        let sent = if to == self.rank {
            let env = Envelope {
                context,
                src: to,
                tag,
                payload,
                ack: sync.then_some(seq),
            };
            let r = self.with_matcher(|m| m.arrive(seq, env));
            self.arrivals.notify_waiters();
            r
        } else {
            let h = self.p2p_header(context, tag, seq, sync);
            self.transport().send(to, Frame::new(h, payload))
        };
        if sent.is_err() && sync {
            self.ssends.lock().remove(&(to, seq));
        }
        sent.map(|()| wait).map_err(|e| self.named_failure(e))
    }

    /// Runs `f` on the locked matcher, then (unlocked) acknowledges the synchronous messages it
    /// matched.
    fn with_matcher<R>(&self, f: impl FnOnce(&mut Matcher) -> R) -> R {
        let (r, acks) = {
            let mut m = self.matcher.lock();
            let r = f(&mut m);
            (r, m.take_acks())
        };
        for (src, seq) in acks {
            if src == self.rank {
                self.acked(src, seq);
                continue;
            }
            let mut h = FrameHeader::new(FrameKind::Ack, self.rank);
            h.seq = seq;
            // A failed send means the peer is gone: its failure is handled elsewhere.
            let _ = self.transport().send(src, Frame::new(h, Bytes::new()));
        }
        r
    }

    /// World rank `to` acknowledged our synchronous message `seq`.
    fn acked(&self, to: u32, seq: u64) {
        if let Some((_, tx)) = self.ssends.lock().remove(&(to, seq)) {
            let _ = tx.send(Ok(()));
        }
    }

    /// Posts a receive. Fails at once if the only possible source is known to be dead and no
    /// message from it is already waiting.
    pub fn post_recv(&self, spec: RecvSpec) -> Result<RecvWait> {
        self.check_open()?;
        self.check_revoked(spec.context)?;
        self.with_matcher(|m| {
            if let Some(env) = m.take(&spec) {
                return Ok(RecvWait::Ready(env));
            }
            // Checked under the matcher lock, before queueing: a failure recorded after this
            // check fails the queued receive, since `mark_failed` needs this lock to do so.
            if let Some(e) = self.source_failure(&spec) {
                return Err(e);
            }
            let (tx, rx) = oneshot::channel();
            match m.post(spec, tx) {
                Posting::Matched(env) => Ok(RecvWait::Ready(env)),
                Posting::Queued(id) => Ok(RecvWait::Pending(id, rx)),
            }
        })
    }

    /// Posts a receive completed in `cell` (see [`crate::core::recv_cell`]): `None` if a
    /// waiting message completed it at once, else the id that withdraws it
    /// ([`Engine::cancel_recv`], [`Engine::cancel_posted`]). Fails at once as
    /// [`Engine::post_recv`] does.
    pub fn post_recv_cell(
        &self,
        spec: RecvSpec,
        cell: Arc<crate::core::recv_cell::RecvCell>,
    ) -> Result<Option<u64>> {
        self.check_open()?;
        self.check_revoked(spec.context)?;
        self.with_matcher(|m| {
            if m.take_into(&spec, &cell) {
                return Ok(None);
            }
            // As in `post_recv`: checked under the lock, before queueing.
            if let Some(e) = self.source_failure(&spec) {
                return Err(e);
            }
            Ok(Some(m.post_cell(spec, cell)))
        })
    }

    /// The matcher's back-pressure budget (see [`crate::transport::budget`]), without its lock.
    pub(crate) fn budget(&self) -> &crate::transport::budget::RxBudget {
        &self.budget
    }

    /// Gives back a message matched to a receive that was then abandoned.
    pub fn requeue(&self, env: Envelope) {
        self.with_matcher(|m| m.requeue(env));
        self.arrivals.notify_waiters();
    }

    /// Withdraws a pending receive; false if it already matched.
    pub fn cancel_recv(&self, id: u64) -> bool {
        self.matcher.lock().cancel(id)
    }

    /// Cancels pending receive `id`, completing it with `err`; false if it already matched.
    pub fn cancel_posted(&self, id: u64, err: &Error) -> bool {
        self.matcher.lock().cancel_with(id, err)
    }

    /// Takes the oldest unexpected message `spec` matches (a matched probe).
    pub fn take_message(&self, spec: &RecvSpec) -> Option<Envelope> {
        // An empty queue needs no lock (a message queued right after this look also notifies
        // `arrivals`, which waiting callers arm before looking).
        if self.budget.none_queued() {
            return None;
        }
        self.with_matcher(|m| m.take(spec))
    }

    /// Non-blocking probe: (src world rank, tag, bytes) of the oldest match.
    pub fn probe(&self, spec: &RecvSpec) -> Option<(u32, i32, usize)> {
        if self.budget.none_queued() {
            return None;
        }
        self.matcher.lock().probe(spec)
    }

    /// Waits until the next p2p arrival or failure (pair with a re-check to avoid races: create
    /// the future, probe, then await it).
    pub fn arrivals(&self) -> &Notify {
        &self.arrivals
    }

    /// Ends the landing of a claimed receive (see [`FrameSink::claim_landing`]): completes it
    /// with the `len`-byte message from `src` with `tag`, puts it back in its place, or fails it.
    fn end_landing(
        &self,
        claim: crate::core::matching::Claim,
        src: u32,
        tag: i32,
        len: usize,
        end: crate::transport::landing::LandingEnd,
    ) {
        use crate::transport::landing::LandingEnd;
        let err = match end {
            LandingEnd::Filled => {
                claim.cell().filled(src, tag, len);
                return;
            }
            LandingEnd::Failed(e) => e,
            LandingEnd::Again => {
                let mut m = self.matcher.lock();
                // Back in its place; if its source failed meanwhile, the failure may have
                // swept the queue already, so the receive fails here (as a posting would).
                let id = claim.id();
                let dead = self.source_failure(claim.spec());
                m.unclaim(claim);
                if let Some(e) = dead {
                    m.cancel_with(id, &e);
                }
                return;
            }
        };
        claim.cell().complete(Err(self.named_failure(err)));
    }

    /// Whether frame `h` may land straight in a posted receive's buffer: a point-to-point
    /// message from a live peer that needs no acknowledgement.
    fn lands_directly(&self, h: &FrameHeader) -> bool {
        let src = h.src;
        h.frame_kind() == Some(FrameKind::P2p)
            && src < self.size
            && src != self.rank
            && h.step & P2P_SYNC == 0
            && !(self.any_failed.load(Ordering::Acquire) && self.failed.read().contains_key(&src))
    }

    /// Records that world rank `rank` failed and fails everything waiting on it.
    pub fn mark_failed(&self, rank: u32, err: Error) {
        {
            let mut failed = self.failed.write();
            if failed.contains_key(&rank) {
                return;
            }
            tracing::warn!(rank = self.rank, peer = rank, "peer failed: {err}");
            failed.insert(rank, err.clone());
            self.any_failed.store(true, Ordering::Release);
        }
        self.matcher.lock().fail_peer(rank, &err);
        let lost: Vec<_> = {
            let mut ss = self.ssends.lock();
            let keys: Vec<_> = ss.keys().filter(|(to, _)| *to == rank).copied().collect();
            keys.into_iter()
                .filter_map(|k| ss.remove(&k))
                .map(|e| e.1)
                .collect()
        };
        for tx in lost {
            let _ = tx.send(Err(err.clone()));
        }
        self.features.peer_failed(rank, &err);
        let open: Vec<_> = self.colls.lock().open.values().cloned().collect();
        for tx in open {
            tx.send(CollEvent::PeerLost(err.clone()));
        }
        self.arrivals.notify_waiters();
    }
}

impl FrameSink for Engine {
    fn on_frame(&self, frame: Frame) {
        let src = frame.header.src;
        if src >= self.size || src == self.rank {
            tracing::warn!(
                rank = self.rank,
                src,
                "dropping a frame with an impossible sender"
            );
            return;
        }
        if self.any_failed.load(Ordering::Acquire) && self.failed.read().contains_key(&src) {
            return;
        }
        match frame.header.frame_kind() {
            Some(FrameKind::P2p) => {
                let h = frame.header;
                let env = Envelope {
                    context: h.context,
                    src,
                    tag: h.tag,
                    payload: frame.payload,
                    ack: (h.step & P2P_SYNC != 0).then_some(h.seq),
                };
                let r = self.with_matcher(|m| m.arrive(h.seq, env));
                self.arrivals.notify_waiters();
                if let Err(e) = r {
                    self.mark_failed(src, Error::proc_failed(src, e.message()));
                }
            }
            Some(FrameKind::Collective) => {
                let key = (frame.header.context, frame.header.seq);
                let mut r = self.colls.lock();
                match r.open.get(&key) {
                    Some(tx) => tx.send(CollEvent::Frame(frame)),
                    None => {
                        let late = r.closed.get(&key).and_then(|(fp, members)| {
                            crate::core::fingerprint::late_mismatch(self.rank, fp, &frame)
                                .map(|n| (n, members.clone()))
                        });
                        if let Some((notice, members)) = late {
                            drop(r);
                            self.report_late_mismatch(key, notice, &members);
                            return;
                        }
                        if frame.header.step == crate::core::fingerprint::COLL_PROBE_STEP
                            && let Some((fp, members)) = r.closed.get(&key).cloned()
                        {
                            // A probe of a call this rank finished the same way: passed on
                            // around the ring (`core::fingerprint::COLL_PROBE_STEP`).
                            drop(r);
                            if let Some(origin) = crate::core::fingerprint::probe_origin(&frame) {
                                self.pass_probe(key, origin, &fp, &members);
                            }
                            return;
                        }
                        if frame.header.step == crate::core::fingerprint::MISMATCH_STEP {
                            // A call this rank already finished was mismatched elsewhere: the
                            // calls it has started since on that communicator fail too, so
                            // nobody waits for ranks that gave up.
                            for ((c, s), tx) in r.open.iter() {
                                if *c == key.0 && *s > key.1 {
                                    tx.send(CollEvent::Frame(frame.clone()));
                                }
                            }
                        }
                        r.early.entry(key).or_default().push(frame)
                    }
                }
            }
            Some(FrameKind::Ack) => self.acked(src, frame.header.seq),
            Some(FrameKind::Abort) => {
                let code = crate::abort::exit_status(frame.header.tag);
                eprintln!(
                    "nexar: rank {src} aborted the job with code {}; rank {} exits with {code}",
                    frame.header.tag, self.rank
                );
                std::process::exit(code);
            }
            Some(FrameKind::Revoke) => self.on_revoke_frame(frame),
            Some(kind @ (FrameKind::Agree | FrameKind::Rpc)) => {
                if !self.features.route(self, kind, frame) {
                    tracing::warn!(rank = self.rank, src, ?kind, "no feature takes this frame");
                }
            }
            Some(FrameKind::Hello | FrameKind::Goodbye) | None => {}
        }
    }

    fn on_p2p_inline(&self, h: &FrameHeader, body: &[u8]) -> bool {
        self.lands_directly(h)
            && self
                .matcher
                .lock()
                .arrive_inline(h.seq, h.context, h.src, h.tag, body)
    }

    fn would_land(&self, h: &FrameHeader) -> bool {
        self.lands_directly(h)
            && self
                .matcher
                .lock()
                .claimable(h.seq, h.context, h.src, h.tag)
    }

    fn claim_landing(&self, h: &FrameHeader) -> Option<crate::transport::landing::Landing> {
        if !self.lands_directly(h) {
            return None;
        }
        let claim = self.matcher.lock().claim(h.seq, h.context, h.src, h.tag)?;
        let (dst, cap) = claim.cell().raw_buffer();
        let (src, tag, len) = (h.src, h.tag, h.len as usize);
        // Weak: a landing held by the transport must not keep the engine (which owns the
        // transport) alive; an engine gone by the end has nobody left to tell.
        let me = self.me.clone();
        let on_end = Box::new(move |end| {
            if let Some(me) = me.upgrade() {
                me.end_landing(claim, src, tag, len, end);
            }
        });
        // SAFETY: the claim makes the landing's holder the buffer's only writer until it ends,
        // and the buffer's owner keeps it until then (`RecvCell::new`; a receive dropped while
        // claimed waits for the end).
        Some(unsafe { crate::transport::landing::Landing::new(dst, cap.min(len), src, on_end) })
    }

    fn on_peer_lost(&self, peer: u32, reason: String) {
        if peer < self.size && peer != self.rank {
            self.mark_failed(peer, Error::proc_failed(peer, reason));
        }
    }

    fn rx_budget(&self) -> Option<Arc<crate::transport::budget::RxBudget>> {
        Some(self.budget.clone())
    }

    fn known_failures(&self) -> Vec<u32> {
        if self.dropped.load(Ordering::Acquire) {
            return Vec::new();
        }
        let mut v: Vec<u32> = self
            .failed
            .read()
            .keys()
            .copied()
            .filter(|&r| !self.has_departed(r))
            .collect();
        v.sort_unstable();
        v
    }

    fn on_departed(&self, peer: u32) {
        if let Some(d) = self.departed.get(peer as usize) {
            d.store(true, Ordering::Release);
        }
    }

    fn on_dropped_by(&self, _by: u32) {
        self.dropped.store(true, Ordering::Release);
    }

    fn on_failures_reported(&self, by: u32, failed: &[u32]) {
        // A peer's word is taken (it is authenticated, and detection is fail-stop): the
        // survivors it leaves behind then name the failure that made it leave, at once,
        // rather than the departed peer or nothing until their own detection fires.
        for &rank in failed {
            if rank < self.size && rank != self.rank && rank != by && !self.has_departed(rank) {
                self.mark_failed(
                    rank,
                    Error::proc_failed(rank, format!("rank {by} saw it fail before leaving")),
                );
            }
        }
    }
}

/// The error of a call made after the context was finalized.
#[cold]
fn finalized() -> Error {
    Error::new(ErrorKind::Finalized, "the context was finalized")
}
