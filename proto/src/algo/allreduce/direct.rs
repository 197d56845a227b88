//! The direct shared-memory allreduce's control protocol (describe, reduce, done) as a sans-IO
//! machine with effects. The engine runs exactly this machine (its driver is
//! `src/ops/direct_allreduce.rs`), and the simulator runs it with crashes, drops and stalls
//! (`proto/tests/direct_allreduce.rs`). The machine never touches memory: it asks its driver to
//! reduce (an [`Effect`]) and is told how that went ([`Direct::reduced`]).
//!
//! The vector (`len` bytes, whole elements) is cut into `n` blocks ([`block_bytes`]); rank `r`
//! owns block `r`.
//! 1. **Describe** `[usable u8][input address u64][receive address u64][length u64]` to every
//!    peer ([`Direct::start`]). From then on a usable rank is *exposed*: a peer may read its
//!    input and write its receive buffer.
//! 2. Once every peer described itself: lengths must agree (else a mismatch). If some rank is
//!    not usable, every rank says `Done(ok)` and falls back to the ordinary allreduce machine
//!    over the same call ([`Effect::Fallback`], with the machine messages filed so far). Else,
//!    unless a peer already gave up, [`Effect::Reduce`]: compute block `me` in rank order from
//!    every input and write it into every receive buffer.
//! 3. **Done** `[1]`, or `[0][kind u8]` / `[0][kind u8][failed u32]` when the rank gave up
//!    (`kind`: the engine's stable error code, [`KIND_PROC_FAILED`] and the like; `failed`:
//!    the failed rank that caused it). Every rank sends `Done` exactly once, whatever path it
//!    leaves by. After its reduce, a rank returns only once every peer said `Done` or is known
//!    failed; then the result is complete unless a member failed or a peer gave up.
//! 4. A rank that gives up while exposed waits (except for a mismatch or a timeout) until every peer whose
//!    description it received said `Done` or is known failed: only they can be touching its
//!    memory. Peers whose description is still in flight are not waited for (the engine's
//!    documented window: such a peer may still write this rank's receive buffer).
//!
//! A peer's `Done(false)` makes this rank give up: before the reduce when the peer named a
//! failed process or never described itself, and at the end in any case. Ranks here are group
//! ranks; the engine's frames carry world ranks in `failed`, which its driver maps. Steps are
//! the engine's ([`STEP_DESCRIBE`], [`STEP_DONE`]); any other step is a message of the fallback
//! machine, filed until the fallback (a mismatch if the ranks go direct).

use crate::prelude::*;

use crate::error::ProtoError;
use crate::machine::{Incoming, Outbox};
use crate::partition::block_bytes;
use crate::types::{Group, Rank};
use bytes::Bytes;
use core::ops::Range;

/// Step of a description, far above any step a proto machine uses.
pub const STEP_DESCRIBE: u32 = 0xFFFF_FF00;
/// Step of a `Done`.
pub const STEP_DONE: u32 = STEP_DESCRIBE + 1;
/// The engine's error code for a failed process (`ErrorKind::ProcFailed`).
pub const KIND_PROC_FAILED: u8 = 10;
/// The engine's error code for mismatched calls (`ErrorKind::Mismatch`).
pub const KIND_MISMATCH: u8 = 11;
/// The engine's error code for a transport failure (`ErrorKind::Transport`), what a peer that
/// gave up without saying why is reported as.
pub const KIND_TRANSPORT: u8 = 12;
/// The engine's error code for a timeout (`ErrorKind::Timeout`): like a mismatch, a rank
/// leaving with it does not wait for its peers (the user bounded the call's time).
pub const KIND_TIMEOUT: u8 = 15;
/// The engine's error code for an internal failure (`ErrorKind::Internal`), what a dropped
/// call gives up with.
pub const KIND_INTERNAL: u8 = 22;

/// What a rank says about itself in its description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Described {
    /// It may read and write every peer's memory, and they its own.
    pub usable: bool,
    /// Address of its input.
    pub data: u64,
    /// Address of its receive buffer.
    pub recv: u64,
    /// Bytes reduced.
    pub len: u64,
}

impl Described {
    fn encode(&self) -> Bytes {
        let mut m = Vec::with_capacity(25);
        m.push(u8::from(self.usable));
        m.extend_from_slice(&self.data.to_le_bytes());
        m.extend_from_slice(&self.recv.to_le_bytes());
        m.extend_from_slice(&self.len.to_le_bytes());
        m.into()
    }

    fn decode(p: &[u8]) -> Option<Self> {
        if p.len() != 25 {
            return None;
        }
        let word = |at: usize| u64::from_le_bytes(p[at..at + 8].try_into().expect("8 bytes"));
        Some(Self {
            usable: p[0] != 0,
            data: word(1),
            recv: word(9),
            len: word(17),
        })
    }
}

/// Why the call failed on this rank.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DirectError {
    /// Rank `rank` failed (this rank was told, its reduce could not reach it, or a peer's
    /// `Done` named it).
    ProcFailed {
        /// The failed rank.
        rank: Rank,
    },
    /// Peer `rank` gave up with error `kind` and named no failed process.
    GaveUp {
        /// The peer.
        rank: Rank,
        /// Its error code.
        kind: u8,
    },
    /// The ranks called mismatched collectives, or a peer broke the protocol.
    Mismatch(String),
    /// This rank's reduce failed with error `kind` (not a failed process).
    Local {
        /// The error code.
        kind: u8,
    },
}

impl DirectError {
    /// The engine's error code for this error.
    pub fn kind(&self) -> u8 {
        match self {
            DirectError::ProcFailed { .. } => KIND_PROC_FAILED,
            DirectError::GaveUp { kind, .. } | DirectError::Local { kind } => *kind,
            DirectError::Mismatch(_) => KIND_MISMATCH,
        }
    }

    /// The failed rank this error names, if any.
    pub fn failed_rank(&self) -> Option<Rank> {
        match self {
            DirectError::ProcFailed { rank } => Some(*rank),
            _ => None,
        }
    }

    /// The body of the `Done(false)` a rank leaving with this error sends.
    fn done_body(&self) -> Bytes {
        let mut b = vec![0, self.kind()];
        if let Some(r) = self.failed_rank() {
            b.extend_from_slice(&r.to_le_bytes());
        }
        b.into()
    }
}

/// What the machine asks its driver to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Compute bytes `block` of the result, in rank order, from every rank's input (this
    /// rank's own, and each peer's at its `data` address), and write it into every receive
    /// buffer (each peer's at its `recv` address, at the same offset); then call
    /// [`Direct::reduced`].
    Reduce {
        /// Byte range of this rank's block.
        block: Range<usize>,
        /// Every rank's description, by rank (this rank's own included).
        peers: Vec<Described>,
    },
    /// Some rank cannot copy directly: run the ordinary allreduce machine over this call,
    /// starting with these messages filed for it; hand it every later message whose step is
    /// not a control step (control messages still go to [`Direct::deliver`]).
    Fallback(Vec<Incoming>),
}

/// Where the call stands.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Phase {
    /// Waiting for every description.
    Describing,
    /// [`Effect::Reduce`] emitted, waiting for [`Direct::reduced`].
    Reducing,
    /// Reduced (with this result); waiting for every peer's `Done`.
    Finishing(Result<(), DirectError>),
    /// Gave up with this error; waiting until no peer can touch this rank's memory.
    Withdrawing(DirectError),
    /// Handed over to the fallback machine.
    Fallback,
    /// Returned.
    Returned(Result<(), DirectError>),
}

/// One rank's direct allreduce.
#[derive(Debug)]
pub struct Direct {
    g: Group,
    elem: usize,
    mine: Described,
    described: Vec<Option<Described>>,
    /// Each peer's `Done`: `Some(true)` ok, `Some(false)` gave up.
    done: Vec<Option<bool>>,
    /// Peers this rank was told failed.
    dead: Vec<bool>,
    /// A failed rank a peer's `Done(false)` named.
    blamed: Option<Rank>,
    /// The error code of the first `Done(false)`.
    peer_kind: Option<u8>,
    /// The first peer failure met while finishing.
    failure: Option<Rank>,
    /// A protocol violation met while the reduce was under way.
    violated: Option<DirectError>,
    /// Messages for the fallback machine.
    filed: Vec<Incoming>,
    exposed: bool,
    sent_done: bool,
    phase: Phase,
    effects: Vec<Effect>,
}

impl Direct {
    /// Rank `g.rank`'s part, describing itself as `mine` (its `len` bytes are a whole number of
    /// `elem`-byte elements).
    pub fn new(g: Group, elem: usize, mine: Described) -> Result<Self, ProtoError> {
        let g = Group::new(g.rank, g.size)?;
        if elem == 0 || !(mine.len as usize).is_multiple_of(elem) {
            return Err(ProtoError::InvalidArgument(format!(
                "{} bytes are not a whole number of {elem}-byte elements",
                mine.len
            )));
        }
        let n = g.size as usize;
        let mut described = vec![None; n];
        described[g.rank as usize] = Some(mine);
        Ok(Self {
            g,
            elem,
            mine,
            described,
            done: vec![None; n],
            dead: vec![false; n],
            blamed: None,
            peer_kind: None,
            failure: None,
            violated: None,
            filed: Vec::new(),
            exposed: false,
            sent_done: false,
            phase: Phase::Describing,
            effects: Vec::new(),
        })
    }

    /// Byte range of rank `r`'s block.
    pub fn block(&self, r: Rank) -> Range<usize> {
        block_bytes(
            self.mine.len as usize / self.elem,
            self.g.size as usize,
            r as usize,
            self.elem,
        )
    }

    /// Sends the description and goes as far as it can.
    pub fn start(&mut self, out: &mut Outbox) {
        self.exposed = self.mine.usable;
        let d = self.mine.encode();
        for r in self.peers() {
            out.send(r, STEP_DESCRIBE, d.clone());
        }
        self.advance(out);
    }

    /// Takes the effects asked for since the last call.
    pub fn take_effects(&mut self) -> Vec<Effect> {
        core::mem::take(&mut self.effects)
    }

    /// The result once the call returned: `Ok` when every receive buffer block is final.
    pub fn outcome(&self) -> Option<&Result<(), DirectError>> {
        match &self.phase {
            Phase::Returned(r) => Some(r),
            _ => None,
        }
    }

    /// True once handed over to the fallback machine.
    pub fn fell_back(&self) -> bool {
        self.phase == Phase::Fallback
    }

    /// True while peers may be reading this rank's input or writing its receive buffer.
    pub fn exposed(&self) -> bool {
        self.exposed
    }

    /// True if rank `r`'s description arrived.
    pub fn has_description(&self, r: Rank) -> bool {
        self.described.get(r as usize).is_some_and(Option::is_some)
    }

    fn peers(&self) -> impl Iterator<Item = Rank> + use<> {
        let me = self.g.rank;
        (0..self.g.size).filter(move |&r| r != me)
    }

    /// Hands the machine one message. A non-control message after the fallback is refused
    /// (it belongs to the fallback machine); everything else is taken, a protocol violation
    /// ending the call with a mismatch.
    pub fn deliver(&mut self, msg: Incoming, out: &mut Outbox) -> Result<(), ProtoError> {
        if msg.from >= self.g.size || msg.from == self.g.rank {
            return Err(msg.unexpected());
        }
        let from = msg.from as usize;
        let p = &msg.payload[..];
        match msg.step {
            STEP_DESCRIBE if self.described[from].is_none() && Described::decode(p).is_some() => {
                self.described[from] = Described::decode(p);
            }
            STEP_DONE if done_is_well_formed(p) && self.done[from].is_none() => {
                self.done[from] = Some(p[0] != 0);
                if p[0] == 0 {
                    self.peer_kind.get_or_insert(p[1]);
                }
                if p.len() == 6 {
                    let w = u32::from_le_bytes(p[2..6].try_into().expect("4 bytes"));
                    if w < self.g.size {
                        self.blamed.get_or_insert(w);
                    }
                }
            }
            STEP_DESCRIBE | STEP_DONE => {
                let e = DirectError::Mismatch(format!(
                    "a malformed or repeated control message (step {:#x}) from rank {from}",
                    msg.step
                ));
                return self.violation(e, out);
            }
            _ if self.phase == Phase::Fallback => return Err(msg.unexpected()),
            _ => self.filed.push(msg),
        }
        self.advance(out);
        Ok(())
    }

    /// The driver learned that rank `rank` failed.
    pub fn peer_failed(&mut self, rank: Rank, out: &mut Outbox) {
        if rank >= self.g.size || rank == self.g.rank {
            return;
        }
        self.dead[rank as usize] = true;
        match self.phase {
            Phase::Describing => self.give_up(DirectError::ProcFailed { rank }, out),
            Phase::Reducing | Phase::Finishing(_) => {
                self.failure.get_or_insert(rank);
                self.advance(out);
            }
            Phase::Withdrawing(_) => self.advance(out),
            Phase::Fallback | Phase::Returned(_) => {}
        }
    }

    /// The driver finished [`Effect::Reduce`] with `res` (a failed read or write of rank `r`
    /// is [`DirectError::ProcFailed`] naming it when the process is gone).
    pub fn reduced(&mut self, res: Result<(), DirectError>, out: &mut Outbox) {
        if self.phase != Phase::Reducing {
            return;
        }
        self.say_done(res.as_ref().err(), out);
        if let Some(e) = self.violated.take() {
            self.exposed = false;
            self.phase = Phase::Returned(res.and(Err(e)));
            return;
        }
        self.phase = Phase::Finishing(res);
        self.advance(out);
    }

    fn say_done(&mut self, failure: Option<&DirectError>, out: &mut Outbox) {
        if self.sent_done {
            return;
        }
        self.sent_done = true;
        let body = match failure {
            None => Bytes::from_static(&[1]),
            Some(e) => e.done_body(),
        };
        for r in self.peers() {
            out.send(r, STEP_DONE, body.clone());
        }
    }

    /// The error for peer `r`'s `Done(false)`.
    fn peer_could_not(&self, r: usize) -> DirectError {
        match self.blamed {
            Some(rank) => DirectError::ProcFailed { rank },
            None => DirectError::GaveUp {
                rank: r as Rank,
                kind: self.peer_kind.unwrap_or(KIND_TRANSPORT),
            },
        }
    }

    /// A protocol violation ends the call at once (the engine's `pump` error, which no wait
    /// outlasts), after the reduce if one is under way; after the fallback it is the driver's
    /// error.
    fn violation(&mut self, e: DirectError, out: &mut Outbox) -> Result<(), ProtoError> {
        match &self.phase {
            Phase::Returned(_) => {}
            Phase::Fallback => {
                return Err(ProtoError::InvalidArgument(format!("allreduce: {e:?}")));
            }
            Phase::Reducing => {
                self.violated.get_or_insert(e);
            }
            Phase::Finishing(local) => {
                let res = local.clone().and(Err(e));
                self.exposed = false;
                self.phase = Phase::Returned(res);
            }
            Phase::Describing | Phase::Withdrawing(_) => {
                self.say_done(Some(&e), out);
                self.exposed = false;
                self.phase = Phase::Returned(Err(e));
            }
        }
        Ok(())
    }

    /// The driver's wait ended with an error of code `kind` that names no process (a
    /// timeout, a revocation, a frame of the wrong call): the call ends with it. Before the
    /// reduce the rank gives up (and waits while exposed, unless `kind` is a mismatch or a
    /// timeout); a rank already waiting returns at once, with a mismatch in place of its own
    /// error or else its own error; after the reduce the error is returned at once, after the
    /// rank's own.
    pub fn abandon(&mut self, kind: u8, out: &mut Outbox) {
        let e = DirectError::Local { kind };
        match self.phase.clone() {
            Phase::Describing => self.give_up(e, out),
            Phase::Reducing => {
                self.violated.get_or_insert(e);
            }
            Phase::Finishing(local) => {
                self.exposed = false;
                self.phase = Phase::Returned(local.and(Err(e)));
            }
            Phase::Withdrawing(mine) => {
                self.exposed = false;
                let res = if kind == KIND_MISMATCH { e } else { mine };
                self.phase = Phase::Returned(Err(res));
            }
            Phase::Fallback | Phase::Returned(_) => {}
        }
    }

    /// The call is dropped before it returned: before the reduce the rank gives up (with
    /// [`KIND_INTERNAL`]) and, while exposed, waits as on any give-up; a rank that reduced or
    /// is already withdrawing keeps waiting as it was. The driver keeps delivering until
    /// [`Direct::exposed`] is false.
    pub fn cancel(&mut self, out: &mut Outbox) {
        if self.phase == Phase::Describing {
            self.give_up(
                DirectError::Local {
                    kind: KIND_INTERNAL,
                },
                out,
            );
        }
    }

    /// Leaving with `e` before the reduce (the engine's `withdraw`).
    fn give_up(&mut self, e: DirectError, out: &mut Outbox) {
        self.say_done(Some(&e), out);
        if !self.exposed || matches!(e.kind(), KIND_MISMATCH | KIND_TIMEOUT) {
            self.exposed = false;
            self.phase = Phase::Returned(Err(e));
            return;
        }
        self.phase = Phase::Withdrawing(e);
        self.advance(out);
    }

    fn advance(&mut self, out: &mut Outbox) {
        let n = self.g.size as usize;
        let me = self.g.rank as usize;
        match self.phase.clone() {
            Phase::Describing => {
                if let Some(r) = (0..n).find(|&r| {
                    self.done[r] == Some(false)
                        && (self.blamed.is_some() || self.described[r].is_none())
                }) {
                    return self.give_up(self.peer_could_not(r), out);
                }
                if self.described.iter().any(Option::is_none) {
                    return;
                }
                let all: Vec<Described> = self.described.iter().flatten().copied().collect();
                if let Some((r, d)) = all.iter().enumerate().find(|(_, d)| d.len != self.mine.len) {
                    let e = DirectError::Mismatch(format!(
                        "rank {r} reduces {} bytes, this rank {}",
                        d.len, self.mine.len
                    ));
                    return self.give_up(e, out);
                }
                if !all.iter().all(|d| d.usable) {
                    self.exposed = false;
                    self.say_done(None, out);
                    self.phase = Phase::Fallback;
                    let filed = core::mem::take(&mut self.filed);
                    self.effects.push(Effect::Fallback(filed));
                    return;
                }
                if let Some(m) = self.filed.first() {
                    let e = DirectError::Mismatch(format!(
                        "a proto-machine message (step {}) during the direct algorithm",
                        m.step
                    ));
                    return self.give_up(e, out);
                }
                if let Some(r) = (0..n).find(|&r| self.done[r] == Some(false)) {
                    return self.give_up(self.peer_could_not(r), out);
                }
                self.phase = Phase::Reducing;
                self.effects.push(Effect::Reduce {
                    block: self.block(me as Rank),
                    peers: all,
                });
            }
            Phase::Finishing(local) => {
                if (0..n).any(|r| r != me && self.done[r].is_none() && !self.dead[r]) {
                    return;
                }
                self.exposed = false;
                let res = self.finishing_result(local);
                self.phase = Phase::Returned(res);
            }
            Phase::Withdrawing(e) => {
                if (0..n).any(|r| {
                    r != me
                        && self.done[r].is_none()
                        && self.described[r].is_some()
                        && !self.dead[r]
                }) {
                    return;
                }
                self.exposed = false;
                self.phase = Phase::Returned(Err(e));
            }
            Phase::Reducing | Phase::Fallback | Phase::Returned(_) => {}
        }
    }
}

impl Direct {
    /// What a rank that reduced (with result `local`) returns once every peer said `Done`:
    /// the first of its own error, a peer failure met while waiting, a member known failed, a
    /// peer that gave up, a fallback message (the engine's order).
    fn finishing_result(&self, local: Result<(), DirectError>) -> Result<(), DirectError> {
        local?;
        if let Some(rank) = self.failure {
            return Err(DirectError::ProcFailed { rank });
        }
        if let Some(r) = self.dead.iter().position(|&d| d) {
            return Err(DirectError::ProcFailed { rank: r as Rank });
        }
        if let Some(r) = self.done.iter().position(|&d| d == Some(false)) {
            return Err(self.peer_could_not(r));
        }
        if let Some(m) = self.filed.first() {
            return Err(DirectError::Mismatch(format!(
                "a proto-machine message (step {}) during the direct algorithm",
                m.step
            )));
        }
        Ok(())
    }
}

/// A `Done` body: `[1]`, `[0, kind]` or `[0, kind, failed u32]`.
fn done_is_well_formed(p: &[u8]) -> bool {
    matches!((p.first(), p.len()), (Some(1), 1) | (Some(0), 2 | 6))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn desc(usable: bool, len: u64) -> Described {
        Described {
            usable,
            data: 1,
            recv: 2,
            len,
        }
    }

    fn msg(from: Rank, step: u32, payload: &[u8]) -> Incoming {
        Incoming {
            from,
            step,
            payload: Bytes::copy_from_slice(payload),
        }
    }

    #[test]
    fn one_rank_reduces_its_whole_vector_alone() {
        let mut m = Direct::new(Group::new(0, 1).unwrap(), 4, desc(true, 12)).unwrap();
        let mut out = Outbox::new();
        m.start(&mut out);
        assert!(out.is_empty());
        match m.take_effects().as_slice() {
            [Effect::Reduce { block, peers }] => {
                assert_eq!((block.clone(), peers.len()), (0..12, 1));
            }
            e => panic!("{e:?}"),
        }
        m.reduced(Ok(()), &mut out);
        assert_eq!(m.outcome(), Some(&Ok(())));
        assert!(!m.exposed());
    }

    #[test]
    fn bad_arguments_and_control_messages_are_refused() {
        assert!(Direct::new(Group::new(0, 2).unwrap(), 4, desc(true, 6)).is_err());
        let d = desc(true, 8).encode();
        assert_eq!(Described::decode(&d), Some(desc(true, 8)));
        assert_eq!(Described::decode(&d[..24]), None);
        for bad in [
            vec![msg(1, STEP_DESCRIBE, &d[..20])],
            vec![msg(1, STEP_DESCRIBE, &d), msg(1, STEP_DESCRIBE, &d)],
            vec![msg(1, STEP_DONE, &[2])],
            vec![msg(1, STEP_DONE, &[1]), msg(1, STEP_DONE, &[1])],
        ] {
            // Three ranks: rank 2 never describes itself, so no reduce starts.
            let mut m = Direct::new(Group::new(0, 3).unwrap(), 4, desc(true, 8)).unwrap();
            let mut out = Outbox::new();
            m.start(&mut out);
            for x in bad {
                m.deliver(x, &mut out).unwrap();
            }
            assert!(
                matches!(m.outcome(), Some(Err(DirectError::Mismatch(_)))),
                "{:?}",
                m.outcome()
            );
            // It said Done(false) with the mismatch code, once to each peer.
            let dones: Vec<_> = out.drain().filter(|o| o.step == STEP_DONE).collect();
            assert_eq!(dones.len(), 2);
            assert_eq!(&dones[0].payload[..], &[0, KIND_MISMATCH]);
        }
        let mut m = Direct::new(Group::new(0, 2).unwrap(), 4, desc(true, 8)).unwrap();
        assert!(
            m.deliver(msg(0, STEP_DONE, &[1]), &mut Outbox::new())
                .is_err()
        );
    }

    #[test]
    fn an_exposed_rank_that_gives_up_waits_for_described_peers() {
        let mut m = Direct::new(Group::new(0, 3).unwrap(), 4, desc(true, 8)).unwrap();
        let mut out = Outbox::new();
        m.start(&mut out);
        m.deliver(msg(1, STEP_DESCRIBE, &desc(true, 8).encode()), &mut out)
            .unwrap();
        m.peer_failed(2, &mut out);
        // Rank 1 described itself and may be reading: wait for its Done.
        assert!(m.outcome().is_none() && m.exposed());
        let done: Vec<_> = out.drain().filter(|o| o.step == STEP_DONE).collect();
        assert_eq!(done.len(), 2);
        assert_eq!(&done[0].payload[..], &[0, KIND_PROC_FAILED, 2, 0, 0, 0]);
        m.deliver(
            msg(1, STEP_DONE, &[0, KIND_PROC_FAILED, 2, 0, 0, 0]),
            &mut out,
        )
        .unwrap();
        assert_eq!(m.outcome(), Some(&Err(DirectError::ProcFailed { rank: 2 })));
        assert!(!m.exposed());
    }

    #[test]
    fn a_timeout_ends_at_once_a_drop_waits_for_described_peers() {
        let two_described = || {
            let mut m = Direct::new(Group::new(0, 3).unwrap(), 4, desc(true, 8)).unwrap();
            let mut out = Outbox::new();
            m.start(&mut out);
            m.deliver(msg(1, STEP_DESCRIBE, &desc(true, 8).encode()), &mut out)
                .unwrap();
            (m, out)
        };
        // A timeout: Done(false, timeout) to each peer, and out at once although exposed.
        let (mut m, mut out) = two_described();
        m.abandon(KIND_TIMEOUT, &mut out);
        let kind = KIND_TIMEOUT;
        assert_eq!(m.outcome(), Some(&Err(DirectError::Local { kind })));
        assert!(!m.exposed());
        let done: Vec<_> = out.drain().filter(|o| o.step == STEP_DONE).collect();
        assert_eq!(done.len(), 2);
        assert_eq!(&done[0].payload[..], &[0, KIND_TIMEOUT]);
        // A drop: rank 1 described itself and may be writing; wait for its Done only.
        let (mut m, mut out) = two_described();
        m.cancel(&mut out);
        assert!(m.outcome().is_none() && m.exposed());
        m.deliver(msg(1, STEP_DONE, &[0, KIND_INTERNAL]), &mut out)
            .unwrap();
        let kind = KIND_INTERNAL;
        assert_eq!(m.outcome(), Some(&Err(DirectError::Local { kind })));
        assert!(!m.exposed());
    }

    #[test]
    fn an_error_after_the_reduce_returns_at_once_after_the_own_result() {
        let mut m = Direct::new(Group::new(1, 2).unwrap(), 4, desc(true, 8)).unwrap();
        let mut out = Outbox::new();
        m.start(&mut out);
        m.deliver(msg(0, STEP_DESCRIBE, &desc(true, 8).encode()), &mut out)
            .unwrap();
        assert!(matches!(
            m.take_effects().as_slice(),
            [Effect::Reduce { .. }]
        ));
        m.reduced(Ok(()), &mut out);
        assert!(m.outcome().is_none(), "waits for rank 0's Done");
        // A drop changes nothing after the reduce: still waiting.
        m.cancel(&mut out);
        assert!(m.outcome().is_none() && m.exposed());
        m.abandon(21, &mut out);
        assert_eq!(m.outcome(), Some(&Err(DirectError::Local { kind: 21 })));
        assert!(!m.exposed());
    }
}
