//! Direct shared-memory allreduce for large vectors: the ranks reduce straight out of each
//! other's buffers with `process_vm_readv` instead of sending copies around.
//!
//! It applies when the vector has at least [`min_bytes`] bytes and every member of the
//! communicator runs on this host (the same on every rank, so all ranks take the same path).
//! The vector is split into `n` blocks of whole elements; rank `r` owns block `r`.
//!
//! 1. **Describe** `[usable u8][input address u64][receive address u64][length u64]`, to every
//!    peer when the call is finished (the receive buffer is known then). `usable` says this
//!    rank may read and write every peer's memory and they its own
//!    ([`crate::transport::Transport::cma_pid`]). If any rank is not usable the ranks run the
//!    usual proto machine instead, over this same collective (`Fallback`), so a rank that
//!    cannot copy directly never leaves the others waiting.
//! 2. **Reduce and hand out**: rank `r` computes block `r` into its receive buffer piece by
//!    piece ([`PIECE`] bytes, cache-sized): it reads each peer's piece into a scratch buffer
//!    and combines in rank order `x0 ⊕ x1 ⊕ ... ⊕ x(n-1)` (so a non-commutative op is exact),
//!    then writes the finished piece, still in cache, into every peer's receive buffer with
//!    `process_vm_writev`. Each block is computed once and copied: every rank ends with
//!    identical bits.
//! 3. **Done** `[1]`, or `[0] [kind u8] [failed u32]?`: this rank has read all it needs from the peers and written its block
//!    everywhere. A rank returns (and its buffers may be freed) only once every peer said so:
//!    then every block of its receive buffer is final and nobody touches its memory any more.
//!    A rank that failed sends `0`, the code of its error's kind and, when a failed process was
//!    the cause, `failed u32`, its world rank; everyone returns an error (`ProcFailed` naming
//!    that rank, when given, else of the same kind) instead of waiting forever.
//!
//! **Every rank sends `Done` exactly once per call**, whatever path it leaves by: after its
//! block (direct), when it falls back (it will never touch a peer's memory), or when it fails
//! before the direct phase. Without that, a rank in the direct phase waited forever for a peer
//! that failed early (a third rank died while descriptions were arriving), said nothing and
//! left cleanly.
//!
//! A rank that described itself as usable is *exposed* from then on: a peer that received every
//! description may be reading its input and writing its receive buffer. Failing before the
//! direct phase, such a rank waits (for a failure, not a mismatch or a timeout) until every
//! peer *whose description it has received* said `Done` or failed: only those can be in the
//! direct phase, and each of them is in this call, so says `Done` on every path. It does not
//! wait for peers that have not described themselves: they may never come to this call (a
//! failed earlier one). Such a peer enters the direct phase only if no `Done(false)` reached it
//! first (checked before it touches any memory), and this rank's `Done(false)` follows its
//! description on the same ordered channel; so only a peer whose description was still in
//! flight when this rank gave up can write into its buffer afterwards: a window of a few
//! microseconds, in a failure, that closing would take a shared-memory handshake per write.
//!
//! A failed peer surfaces as [`ErrorKind::ProcFailed`] through the collective mailbox or as a
//! failed read; both end the call with an error.

use crate::comm::CommInner;
use crate::core::engine::CollEvent;
use crate::core::fingerprint::Fingerprint;
use crate::error::{Error, ErrorKind, Result};
use crate::wire::Frame;
use bytes::Bytes;
use fallback::Fallback;
use nexar_proto::Reducer;
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

/// Control steps, far above any step a proto machine uses.
const STEP_DESCRIBE: u32 = 0xFFFF_FF00;
const STEP_DONE: u32 = STEP_DESCRIBE + 1;

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

/// What a peer said in its describe message.
#[derive(Clone, Copy)]
struct Described {
    usable: bool,
    /// Its input.
    data: u64,
    /// Its receive buffer.
    recv: u64,
    len: u64,
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
    described: Vec<Option<Described>>,
    done: Vec<Option<bool>>,
    /// A world rank a peer named in its `Done` as the failed process it could not reach.
    blamed: Option<u32>,
    /// The error kind of the first `Done(false)` that arrived.
    peer_kind: Option<ErrorKind>,
    /// Frames of the proto machine, kept until the ranks agree to fall back.
    machine_frames: Vec<Frame>,
    /// Described as usable and not (yet) known safe: peers may be reading this rank's input and
    /// writing its receive buffer until each of them said `Done` or failed. A run that fails
    /// or is dropped meanwhile waits for that (see `withdraw` and `Drop`).
    exposed: bool,
    /// The direct phase began (every rank described itself as usable, lengths agree).
    in_direct: bool,
    /// This rank's `Done` went out.
    sent_done: bool,
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
        let n = world.len();
        let run = Self {
            comm: comm.clone(),
            seq,
            fp,
            rx,
            red,
            pids: pids.into_iter().map(|p| p.unwrap_or(0)).collect(),
            usable,
            described: vec![None; n],
            done: vec![None; n],
            blamed: None,
            peer_kind: None,
            machine_frames: Vec::new(),
            exposed: false,
            in_direct: false,
            sent_done: false,
            data_addr,
            data_len,
            owned,
        };
        if usable {
            super::hugepages::advise(data_addr, data_len);
        }
        Ok(run)
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

    fn to_all(&self, step: u32, payload: Bytes) -> Result<()> {
        (0..self.n())
            .filter(|&r| r != self.me())
            .try_for_each(|r| self.send(r, step, payload.clone()))
    }

    fn mismatch(&self, what: impl std::fmt::Display) -> Error {
        Error::new(
            ErrorKind::Mismatch,
            format!("allreduce on rank {}: {what}", self.comm.rank),
        )
    }

    /// Waits for the next frame and files it; a relevant peer failure is an error.
    async fn pump(&mut self) -> Result<()> {
        let event = self.rx.recv().await;
        let f = match event {
            CollEvent::Frame(f) => {
                crate::driver::check_frame(&self.comm, self.seq, &self.fp, &f)?;
                f
            }
            CollEvent::PeerLost(e) => {
                let relevant = e
                    .failed_rank()
                    .is_none_or(|r| self.comm.members.comm_rank_of(r).is_some());
                return if relevant { Err(e) } else { Ok(()) };
            }
        };
        let Some(from) = self.comm.members.comm_rank_of(f.header.src) else {
            return Err(self.mismatch(format!("a frame from rank {} outside", f.header.src)));
        };
        let from = from as usize;
        let p = &f.payload[..];
        let word = |at: usize| u64::from_le_bytes(p[at..at + 8].try_into().expect("8 bytes"));
        match f.header.step {
            STEP_DESCRIBE if p.len() == 25 && self.described[from].is_none() => {
                self.described[from] = Some(Described {
                    usable: p[0] != 0,
                    data: word(1),
                    recv: word(9),
                    len: word(17),
                });
            }
            STEP_DONE if done_is_well_formed(p) && self.done[from].is_none() => {
                self.done[from] = Some(p[0] != 0);
                if p[0] == 0 {
                    let kind = ErrorKind::from_code(i32::from(p[1])).unwrap_or(ErrorKind::Internal);
                    self.peer_kind.get_or_insert(kind);
                }
                if p.len() == 6 {
                    let w = u32::from_le_bytes(p[2..6].try_into().expect("4 bytes"));
                    if self.comm.members.comm_rank_of(w).is_some() {
                        self.blamed.get_or_insert(w);
                    }
                }
            }
            STEP_DESCRIBE | STEP_DONE => {
                return Err(self.mismatch(format!(
                    "a malformed or repeated control message (step {:#x}) from rank {from}",
                    f.header.step
                )));
            }
            _ => self.machine_frames.push(f),
        }
        Ok(())
    }

    /// Completes the allreduce into `recv` (the caller checked its length).
    pub async fn finish_into(mut self, recv: &mut [u8]) -> Result<()> {
        let Err(e) = self.run(recv).await else {
            return Ok(());
        };
        let e = self.withdraw(e).await;
        if self.in_direct {
            return Err(e);
        }
        // Before the direct phase nothing of the peers' was read: a mismatch notice explains
        // a failed peer better (see `prefer_mismatch`).
        let (comm, seq, fp) = (self.comm.clone(), self.seq, self.fp);
        Err(crate::driver::prefer_mismatch(&comm, seq, &fp, &mut self.rx, e).await)
    }

    /// Leaving with `e`: says `Done` (if not said yet: peers wait for it) and, while exposed,
    /// waits until no peer can touch this rank's buffers (see the module docs). Returns the
    /// error to report: `e`, or a mismatch found while waiting.
    async fn withdraw(&mut self, e: Error) -> Error {
        self.say_done(Some(&e));
        if !self.exposed {
            return e;
        }
        let waited = match e.kind() {
            ErrorKind::Mismatch | ErrorKind::Timeout => Ok(()),
            _ => self.wait_peers_done(true).await,
        };
        self.exposed = false;
        match waited {
            Err(w) if w.kind() == ErrorKind::Mismatch => w,
            _ => e,
        }
    }

    /// [`DirectAllreduce::finish_into`] before a failure is explained.
    async fn run(&mut self, recv: &mut [u8]) -> Result<()> {
        let me = self.me();
        if self.usable {
            super::hugepages::advise(recv.as_ptr() as usize, recv.len());
        }
        let mut msg = Vec::with_capacity(25);
        msg.push(self.usable as u8);
        msg.extend_from_slice(&(self.data_addr as u64).to_le_bytes());
        msg.extend_from_slice(&(recv.as_ptr() as u64).to_le_bytes());
        msg.extend_from_slice(&(self.data_len as u64).to_le_bytes());
        // Exposed before the first peer can read the description.
        self.exposed = self.usable;
        self.to_all(STEP_DESCRIBE, Bytes::from(msg))?;
        while (0..self.n()).any(|r| r != me && self.described[r].is_none()) {
            self.pump().await?;
            // A peer gave up because a process failed, or before describing itself (it never
            // will: its `Done` follows its description): so does this one. Other causes, a
            // mismatch above all, are found and worded better here.
            if let Some(r) = (0..self.n()).find(|&r| {
                self.done[r] == Some(false)
                    && (self.blamed.is_some() || self.described[r].is_none())
            }) {
                return Err(self.peer_could_not(r));
            }
        }
        let len = self.data_len as u64;
        let mut all_usable = self.usable;
        for (r, d) in self.described.iter().enumerate() {
            let Some(d) = d else { continue };
            if d.len != len {
                return Err(
                    self.mismatch(format!("rank {r} reduces {} bytes, this rank {len}", d.len))
                );
            }
            all_usable &= d.usable;
        }
        if !all_usable {
            // A description said "not usable" (the same one to every rank): nobody enters the
            // direct phase. Say so to any rank that failed early and waits for it.
            self.exposed = false;
            self.say_done(None);
            return Fallback::run(self, recv).await;
        }
        if let Some(f) = self.machine_frames.first() {
            return Err(self.mismatch(format!(
                "a proto-machine frame (step {}) during the direct algorithm",
                f.header.step
            )));
        }
        self.direct(recv).await
    }

    async fn direct(&mut self, recv: &mut [u8]) -> Result<()> {
        let me = self.me();
        let mine = self.block(me);
        let in_place = self.data_len > 0 && recv.as_ptr() as usize == self.data_addr;
        // A peer that already gave up may have returned: touch nobody's memory.
        if let Some(r) = (0..self.n()).find(|&r| self.done[r] == Some(false)) {
            return Err(self.peer_could_not(r));
        }
        self.in_direct = true;
        let local = self.reduce_mine(&mut recv[mine], in_place);
        self.say_done(local.as_ref().err());
        // Nobody frees a buffer a peer may still be reading or writing.
        let waited = self.wait_peers_done(false).await;
        self.exposed = false;
        local?;
        waited?;
        // A peer that could not reduce its block usually lost a rank: say which one failed.
        self.comm.engine.check_alive(self.comm.members.world())?;
        if let Some(r) = (0..self.n()).find(|&r| self.done[r] == Some(false)) {
            return Err(self.peer_could_not(r));
        }
        if let Some(f) = self.machine_frames.first() {
            return Err(self.mismatch(format!(
                "a proto-machine frame (step {}) during the direct algorithm",
                f.header.step
            )));
        }
        Ok(())
    }

    /// The error for peer `r`'s `Done(false)`: the failed process it named, if any, else one
    /// of the kind it reported.
    fn peer_could_not(&self, r: usize) -> Error {
        let who = self.world_of(r);
        match self.blamed {
            Some(w) => Error::proc_failed(
                w,
                format!("allreduce: rank {who} could not reach it and gave up on the call"),
            ),
            None => {
                let kind = self.peer_kind.unwrap_or(ErrorKind::Transport);
                Error::new(
                    kind,
                    format!("allreduce: rank {who} gave up on the call ({kind:?} there)"),
                )
            }
        }
    }

    /// Tells every live peer this rank no longer touches their memory (`failure` `None`: its
    /// block is complete everywhere). Best effort: a peer that failed needs no notice.
    fn say_done(&mut self, failure: Option<&Error>) {
        if self.sent_done {
            return;
        }
        self.sent_done = true;
        // `Done(false)` names the failed process that stopped this rank, if one did, so the
        // peers report the failure rather than a bare "could not reduce".
        let mut body = vec![u8::from(failure.is_none())];
        if let Some(e) = failure {
            body.push(u8::try_from(e.kind().code()).unwrap_or(0));
            if let Some(w) = e.failed_rank() {
                body.extend_from_slice(&w.to_le_bytes());
            }
        }
        let msg = Bytes::from(body);
        for r in (0..self.n()).filter(|&r| r != self.me()) {
            let _ = self.send(r, STEP_DONE, msg.clone());
        }
    }

    /// Waits until no peer can touch this rank's buffers any more: each one said `Done` or is
    /// known to have failed (a dead process writes nothing); with `described_only`, only the
    /// peers whose description arrived (see the module docs: before the direct phase). A peer
    /// failure does not end the wait early (the others may still be writing); it is returned at
    /// the end. A protocol violation ends it at once.
    async fn wait_peers_done(&mut self, described_only: bool) -> Result<()> {
        let mut first_failure = None;
        loop {
            let engine = &self.comm.engine;
            let waiting = (0..self.n()).any(|r| {
                r != self.me()
                    && self.done[r].is_none()
                    && (!described_only || self.described[r].is_some())
                    && engine.failure_of(self.world_of(r)).is_none()
            });
            if !waiting {
                break;
            }
            match self.pump().await {
                Ok(()) => {}
                Err(e) if e.kind() == ErrorKind::ProcFailed => {
                    first_failure.get_or_insert(e);
                }
                Err(e) => return Err(e),
            }
        }
        first_failure.map_or(Ok(()), Err)
    }
}

/// A `Done` body: `[1]`, `[0, kind]` or `[0, kind, failed u32]`.
fn done_is_well_formed(p: &[u8]) -> bool {
    matches!((p.first(), p.len()), (Some(1), 1) | (Some(0), 2 | 6))
}

impl Drop for DirectAllreduce {
    fn drop(&mut self) {
        if self.exposed {
            // Dropped in the middle of the direct phase (a cancelled future, a panic): peers
            // may still read this rank's input or write its receive buffer, which the caller
            // is about to get back. Stop, say so, and wait until they cannot any more.
            self.say_done(Some(&Error::new(ErrorKind::Internal, "dropped")));
            let engine = self.comm.engine.clone();
            let progress = engine.transport().caller_progress();
            let described_only = !self.in_direct;
            let _ =
                crate::transport::caller::block_on(progress, self.wait_peers_done(described_only));
            self.exposed = false;
        }
        self.comm.close_collective(self.seq, &mut self.rx, &self.fp);
    }
}
