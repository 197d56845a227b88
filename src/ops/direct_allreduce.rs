//! Direct shared-memory allreduce for large vectors: the ranks reduce straight out of each
//! other's buffers with `process_vm_readv` instead of sending copies around.
//!
//! It applies when the plan says so (`Plan::Direct`: the vector has at least [`min_bytes`]
//! bytes and every member runs on this host, the same on every rank). The vector is split into
//! `n` blocks of whole elements; rank `r` owns block `r`.
//!
//! **The protocol** (describe, reduce, done, and every failure path) is the sans-IO machine
//! [`nexar_proto::algo::allreduce::direct`], whose module documentation has the rules and
//! which the simulator runs with crashes, drops and stalls. This file is its driver: it
//! describes this rank (`usable`: it may read and write every peer's memory and they its own,
//! [`crate::transport::Transport::cma_pid`]), feeds the machine this call's frames and peer
//! failures, sends what it emits, and does what it asks:
//! - **Reduce** (`pieces.rs`): compute block `me` into the receive buffer piece by piece
//!   ([`PIECE`] bytes, cache-sized), reading each peer's piece and combining in rank order
//!   `x0 ⊕ x1 ⊕ ... ⊕ x(n-1)` (so a non-commutative op is exact), then write the finished
//!   piece, still in cache, into every peer's receive buffer with `process_vm_writev`. Each
//!   block is computed once and copied: every rank ends with identical bits.
//! - **Fallback** (`fallback.rs`): some rank cannot copy directly; every rank runs the plan's
//!   proto machine over this same collective.
//!
//! The machine's safety rule is why a run that fails or is dropped may wait: while this rank
//! is *exposed* (described as usable and not yet known safe), peers may be reading its input
//! and writing its receive buffer, so it returns (and the caller gets its buffers back) only
//! once each of them said `Done` or is known failed.
//!
//! A failed peer surfaces as [`ErrorKind::ProcFailed`] through the collective mailbox or as a
//! failed read; both end the call with an error.

use crate::comm::CommInner;
use crate::core::engine::CollEvent;
use crate::core::fingerprint::Fingerprint;
use crate::error::{Error, ErrorKind, Result};
use bytes::Bytes;
use fallback::Fallback;
use nexar_proto::algo::allreduce::direct::{
    Described, Direct, DirectError, Effect, STEP_DESCRIBE, STEP_DONE,
};
use nexar_proto::{Incoming, Outbox, Reducer};
use std::sync::{Arc, OnceLock};

mod fallback;
mod pieces;

/// Default smallest vector (bytes) for the direct algorithm; below it the proto machines win.
/// Measured with bench/mpibench on 2 cores: at 2 ranks the two tie at 512 KiB and the direct
/// algorithm is 1.8x faster at 1 MiB; at 4 ranks they tie at 1 MiB, direct is 3x faster at 2.
pub const DEFAULT_MIN_BYTES: usize = 1 << 20;

/// Bytes combined per piece: the scratch and output pieces stay in L2 (1 MiB per core here;
/// 64 and 256 KiB measured the same within noise).
pub const PIECE: usize = 128 << 10;

/// Smallest vector for the direct algorithm: `NEXAR_ALLREDUCE_DIRECT_MIN` (bytes; set it alike
/// on every rank, e.g. huge to turn the algorithm off) or [`DEFAULT_MIN_BYTES`].
pub fn min_bytes() -> usize {
    static MIN: OnceLock<usize> = OnceLock::new();
    *MIN.get_or_init(|| {
        std::env::var("NEXAR_ALLREDUCE_DIRECT_MIN")
            .ok()
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(DEFAULT_MIN_BYTES)
    })
}

/// A direct allreduce started on this rank.
pub(crate) struct DirectAllreduce {
    comm: Arc<CommInner>,
    seq: u64,
    /// What this call is, carried by its frames (see [`Fingerprint`]).
    fp: Fingerprint,
    rx: crate::core::mailbox::Receiver<CollEvent>,
    red: Reducer,
    /// This rank's input (`data_len` bytes at `data_addr`): `owned`, or the caller's buffer
    /// (see [`DirectAllreduce::start_borrowed`]). Peers read it until they say they are
    /// finished, so it stays put.
    data_addr: usize,
    data_len: usize,
    owned: Vec<u8>,
    /// Process id of each member (comm rank), when all are usable; 0 for this rank.
    pids: Vec<i32>,
    usable: bool,
    /// The protocol, once the call is finished (the receive buffer is known then).
    machine: Option<Direct>,
    /// Every rank's description, once the machine asked for the reduce.
    described: Vec<Described>,
    /// The first engine error this run met (a failure, a frame of the wrong call, its own
    /// reduce's): what the machine's outcome is reported as when it names the same cause.
    first_error: Option<Error>,
}

/// What the next mailbox event means for the machine.
enum Event {
    /// A message of this call, from a member (comm rank).
    Msg(Incoming),
    /// An error: a member failed, the call timed out or was revoked, a bad frame arrived.
    Failed(Error),
    /// Nothing for this call (a failure outside the communicator).
    Nothing,
}

impl DirectAllreduce {
    /// Takes the collective's sequence number (the rest happens when it is finished).
    pub fn start(
        comm: &Arc<CommInner>,
        red: Reducer,
        data: Vec<u8>,
        fp: Fingerprint,
    ) -> Result<Self> {
        let (addr, len) = (data.as_ptr() as usize, data.len());
        Self::start_at(comm, red, data, addr, len, fp)
    }

    /// Like [`DirectAllreduce::start`] over the caller's `len` bytes at `addr`, not copied.
    ///
    /// They may be the receive buffer given to [`DirectAllreduce::finish_into`] (in place).
    ///
    /// # Safety
    /// The bytes must stay readable, and unchanged by the caller, until the run is finished or
    /// dropped.
    pub unsafe fn start_borrowed(
        comm: &Arc<CommInner>,
        red: Reducer,
        addr: *const u8,
        len: usize,
        fp: Fingerprint,
    ) -> Result<Self> {
        Self::start_at(comm, red, Vec::new(), addr as usize, len, fp)
    }

    fn start_at(
        comm: &Arc<CommInner>,
        red: Reducer,
        owned: Vec<u8>,
        data_addr: usize,
        data_len: usize,
        fp: Fingerprint,
    ) -> Result<Self> {
        let engine = &comm.engine;
        let world = comm.members.world().clone();
        let (seq, rx) = comm.open_collective()?;
        let me = comm.rank as usize;
        let transport = engine.transport();
        let pids: Vec<Option<i32>> = world
            .iter()
            .enumerate()
            .map(|(i, &w)| {
                if i == me {
                    Some(0)
                } else {
                    transport.cma_pid(w)
                }
            })
            .collect();
        let usable = engine.cfg.shm_cma && pids.iter().all(Option::is_some);
        if usable {
            super::hugepages::advise(data_addr, data_len);
        }
        Ok(Self {
            comm: comm.clone(),
            seq,
            fp,
            rx,
            red,
            pids: pids.into_iter().map(|p| p.unwrap_or(0)).collect(),
            usable,
            machine: None,
            described: Vec::new(),
            first_error: None,
            data_addr,
            data_len,
            owned,
        })
    }

    /// This rank's input.
    fn data(&self) -> &[u8] {
        if self.data_len == 0 {
            return &[];
        }
        // SAFETY: `owned`'s heap block, or the caller's buffer that `start_borrowed` requires
        // to stay readable and unchanged while this run lives.
        unsafe { std::slice::from_raw_parts(self.data_addr as *const u8, self.data_len) }
    }

    fn n(&self) -> usize {
        self.comm.members.world().len()
    }

    fn me(&self) -> usize {
        self.comm.rank as usize
    }

    fn world_of(&self, r: usize) -> u32 {
        self.comm.members.world()[r]
    }

    fn send(&self, to: usize, step: u32, payload: Bytes) -> Result<()> {
        self.comm.engine.send_coll(
            self.world_of(to),
            self.comm.context,
            self.seq,
            step,
            payload,
            &self.fp,
            self.comm.members.world(),
        )
    }

    fn mismatch(&self, what: impl std::fmt::Display) -> Error {
        Error::new(
            ErrorKind::Mismatch,
            format!("allreduce on rank {}: {what}", self.comm.rank),
        )
    }

    fn machine(&mut self) -> &mut Direct {
        self.machine
            .as_mut()
            .expect("the machine runs once the call is finished")
    }

    /// Waits for the next mailbox event.
    async fn next_event(&mut self) -> Event {
        let f = match self.rx.recv().await {
            CollEvent::Frame(f) => f,
            CollEvent::PeerLost(e) => {
                let relevant = e
                    .failed_rank()
                    .is_none_or(|r| self.comm.members.comm_rank_of(r).is_some());
                return if relevant {
                    Event::Failed(e)
                } else {
                    Event::Nothing
                };
            }
        };
        if let Err(e) = crate::driver::check_frame(&self.comm, self.seq, &self.fp, &f) {
            return Event::Failed(e);
        }
        let Some(from) = self.comm.members.comm_rank_of(f.header.src) else {
            return Event::Failed(
                self.mismatch(format!("a frame from rank {} outside", f.header.src)),
            );
        };
        // A `Done` names a failed process by world rank on the wire, by comm rank in the
        // machine (one outside the communicator is dropped: it is no member's failure).
        let payload = renamed_failure(f.header.step, f.payload, |w| {
            self.comm.members.comm_rank_of(w)
        });
        Event::Msg(Incoming {
            from,
            step: f.header.step,
            payload,
        })
    }

    /// Hands the machine one event (the control messages and failures; a fallback machine's
    /// message is returned to the caller).
    fn feed(&mut self, ev: Event, out: &mut Outbox) -> Option<Incoming> {
        match ev {
            Event::Msg(m) => {
                let is_control = matches!(m.step, STEP_DESCRIBE | STEP_DONE);
                if self.machine().fell_back() && !is_control {
                    return Some(m);
                }
                if let Err(e) = self.machine().deliver(m, out) {
                    let e = Error::from(e).context(format!("allreduce on rank {}", self.comm.rank));
                    self.fail(e, out);
                }
            }
            Event::Failed(e) => self.fail(e, out),
            Event::Nothing => {}
        }
        None
    }

    /// Tells the machine about an engine error: a member's failure, or an error that names no
    /// member (the call then ends with it).
    fn fail(&mut self, e: Error, out: &mut Outbox) {
        let member = e
            .failed_rank()
            .and_then(|w| self.comm.members.comm_rank_of(w));
        let kind = u8::try_from(e.kind().code()).unwrap_or(u8::MAX);
        self.first_error.get_or_insert(e);
        match member {
            Some(r) if r != self.comm.rank => self.machine().peer_failed(r, out),
            _ => self.machine().abandon(kind, out),
        }
    }

    /// Sends what the machine emitted (a `Done` naming a failed process carries its world
    /// rank); a send that fails is one more error for the machine, whose answer is sent too.
    fn flush(&mut self, out: &mut Outbox) {
        while !out.is_empty() {
            let sent: Vec<_> = out.drain().collect();
            for m in sent {
                let payload =
                    renamed_failure(m.step, m.payload, |r| Some(self.world_of(r as usize)));
                if let Err(e) = self.send(m.to as usize, m.step, payload) {
                    // A `Done` is best effort: a failed peer needs no notice.
                    if m.step != STEP_DONE {
                        self.fail(e, out);
                    }
                }
            }
        }
    }

    /// Completes the allreduce into `recv` (the caller checked its length).
    pub async fn finish_into(mut self, recv: &mut [u8]) -> Result<()> {
        if self.usable {
            super::hugepages::advise(recv.as_ptr() as usize, recv.len());
        }
        let mine = Described {
            usable: self.usable,
            data: self.data_addr as u64,
            recv: recv.as_ptr() as u64,
            len: self.data_len as u64,
        };
        let elem = self.red.elem_size().max(1);
        self.machine = Some(Direct::new(self.comm.group(), elem, mine)?);
        let mut out = Outbox::new();
        self.machine().start(&mut out);
        self.flush(&mut out);
        let outcome = loop {
            for effect in self.machine().take_effects() {
                match effect {
                    Effect::Reduce { block, peers } => {
                        self.described = peers;
                        let in_place =
                            self.data_len > 0 && recv.as_ptr() as usize == self.data_addr;
                        let res = self.reduce_mine(&mut recv[block], in_place);
                        let res = res.map_err(|e| self.direct_error(e));
                        self.machine().reduced(res, &mut out);
                        self.flush(&mut out);
                    }
                    Effect::Fallback(filed) => {
                        self.flush(&mut out);
                        let res = Fallback::run(&mut self, recv, filed).await;
                        return self.explained(res).await;
                    }
                }
            }
            if let Some(res) = self.machine().outcome() {
                break res.clone();
            }
            let ev = self.next_event().await;
            self.feed(ev, &mut out);
            self.flush(&mut out);
        };
        let res = match outcome {
            // A peer that could not reduce its block usually lost a rank: say which one.
            Ok(()) => self.comm.engine.check_alive(self.comm.members.world()),
            Err(e) => Err(self.error_of(e)),
        };
        self.explained(res).await
    }

    /// The error to report: before the reduce nothing of the peers' was read, so a mismatch
    /// notice explains a failed peer better (see `prefer_mismatch`).
    async fn explained(&mut self, res: Result<()>) -> Result<()> {
        let Err(e) = res else { return Ok(()) };
        if !self.described.is_empty() {
            return Err(e);
        }
        let (comm, seq, fp) = (self.comm.clone(), self.seq, self.fp);
        Err(crate::driver::prefer_mismatch(&comm, seq, &fp, &mut self.rx, e).await)
    }

    /// The machine's view of this rank's failed reduce.
    fn direct_error(&mut self, e: Error) -> DirectError {
        let member = e
            .failed_rank()
            .and_then(|w| self.comm.members.comm_rank_of(w));
        let kind = u8::try_from(e.kind().code()).unwrap_or(u8::MAX);
        self.first_error.get_or_insert(e);
        match member {
            Some(rank) => DirectError::ProcFailed { rank },
            None => DirectError::Local { kind },
        }
    }

    /// The engine error for the machine's outcome: the error this run met, when it is that
    /// cause, or one worded from what the machine knows.
    fn error_of(&mut self, e: DirectError) -> Error {
        let named = match &e {
            DirectError::ProcFailed { rank } => Some(self.world_of(*rank as usize)),
            _ => None,
        };
        let same_cause = |met: &Error| match &e {
            DirectError::ProcFailed { .. } => met.failed_rank() == named,
            DirectError::Local { kind } => i32::from(*kind) == met.kind().code(),
            DirectError::Mismatch(_) => met.kind() == ErrorKind::Mismatch,
            DirectError::GaveUp { .. } => false,
        };
        if let Some(met) = self.first_error.take_if(|met| same_cause(met)) {
            return met;
        }
        match e {
            DirectError::ProcFailed { rank } => {
                let w = self.world_of(rank as usize);
                self.comm.engine.failure_of(w).unwrap_or_else(|| {
                    self.comm.engine.named_failure(Error::proc_failed(
                        w,
                        "allreduce: a peer could not reach it and gave up on the call",
                    ))
                })
            }
            DirectError::GaveUp { rank, kind } => {
                let who = self.world_of(rank as usize);
                let kind = ErrorKind::from_code(i32::from(kind)).unwrap_or(ErrorKind::Transport);
                if let Err(dead) = self.comm.engine.check_alive(self.comm.members.world()) {
                    return dead;
                }
                Error::new(
                    kind,
                    format!("allreduce: rank {who} gave up on the call ({kind:?} there)"),
                )
            }
            DirectError::Mismatch(what) => self.mismatch(what),
            DirectError::Local { kind } => {
                let kind = ErrorKind::from_code(i32::from(kind)).unwrap_or(ErrorKind::Internal);
                Error::new(
                    kind,
                    format!("allreduce on rank {}: {kind:?}", self.comm.rank),
                )
            }
        }
    }
}

/// A `Done` body (step `step`) with the failed process it names, if any, renamed by `rename`
/// (comm rank to world rank or back; `None` drops the name); any other message unchanged.
fn renamed_failure(step: u32, payload: Bytes, rename: impl Fn(u32) -> Option<u32>) -> Bytes {
    if step != STEP_DONE || payload.len() != 6 {
        return payload;
    }
    let named = u32::from_le_bytes(payload[2..6].try_into().expect("4 bytes"));
    match rename(named) {
        Some(r) => [&payload[..2], &r.to_le_bytes()[..]].concat().into(),
        None => payload.slice(..2),
    }
}

impl Drop for DirectAllreduce {
    fn drop(&mut self) {
        if self.machine.as_ref().is_some_and(Direct::exposed) {
            // Dropped while peers may still read this rank's input or write its receive
            // buffer, which the caller is about to get back (a cancelled future, a panic):
            // give up, say so, and wait until they cannot any more. An error that names no
            // member ends the wait (as it ends the call).
            let mut out = Outbox::new();
            self.machine().cancel(&mut out);
            self.flush(&mut out);
            let engine = self.comm.engine.clone();
            let progress = engine.transport().caller_progress();
            let wait = async {
                while self.machine.as_ref().is_some_and(Direct::exposed) {
                    let ev = self.next_event().await;
                    if matches!(&ev, Event::Failed(e) if e.failed_rank().is_none()) {
                        break;
                    }
                    self.feed(ev, &mut out);
                    self.flush(&mut out);
                }
            };
            crate::transport::caller::block_on(progress, wait);
        }
        self.comm.close_collective(self.seq, &mut self.rx, &self.fp);
    }
}
