//! Per-engine agreement state: the agreement machines (`nexar_proto::fault::agree`) of this
//! rank, running and recently finished, the frames and queries of agreements not started here
//! yet, and the feature that feeds them frames and failures. (Which communicators are revoked
//! is the core's: `core::engine`.)
//!
//! A machine lives here from its start (`fault::agree::run`) until it is evicted, well after
//! it is done: a finished machine still answers queries (ULFM's ballots) and, on a later
//! failure of a lower member, may send its decision again (the machine's rule 5). Everything
//! a machine emits is sent after this state's lock is released.

use crate::core::engine::Engine;
use crate::core::feature::Feature;
use crate::error::Error;
use crate::wire::{Frame, FrameHeader, FrameKind};
use nexar_proto::fault::agree::{self as machine, Agree, Ballot, PROMISE, QUERY};
use nexar_proto::{Collective, Incoming, Outbox};
use parking_lot::Mutex;
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::VecDeque;
use std::sync::{Arc, Weak};

/// Key of one agreement: (communicator context, agreement number).
pub(crate) type AgreeKey = (u64, u64);

/// How many finished agreements keep their machine (to answer queries and for rule 5), at
/// most one per communicator: the latest. An older one is never needed by a live member. A
/// member still running agreement `k` of a communicator has not contributed to `k + 1`, so no
/// coordinator decided `k + 1` unless it knew that member failed: once this rank finished
/// `k + 1`, every member still in `k` (querying, or waiting for a resend) failed. Keeping
/// only the latest also keeps rule 5 from resending stale decisions on every later failure.
const FINISHED_KEPT: usize = 1024;
/// How many evicted agreements are remembered so their late frames are dropped, not kept.
const RETIRED_KEPT: usize = 1 << 14;
/// Most agreement frames kept waiting at once: a peer flooding frames for agreements that
/// never start cannot grow memory without bound.
const MAX_PENDING_FRAMES: usize = 1 << 16;

/// A frame to send: (destination world rank, frame).
pub(crate) type ToSend = (u32, Frame);

/// One agreement's machine and how to reach its members.
pub(crate) struct Driven {
    machine: Agree,
    /// World rank of each member, by comm rank (the communicator's own list).
    world: Arc<[u32]>,
    /// True if `world` is ascending: a binary search then finds a comm rank.
    sorted: bool,
    /// World rank -> comm rank while the agreement runs, for an unsorted `world`; dropped
    /// once done (lookups are then rare).
    index: Option<FxHashMap<u32, u32>>,
    /// This rank's engine, to send what the machine emits on a failure (the failure hook has
    /// no engine at hand).
    engine: Weak<Engine>,
}

impl Driven {
    /// `machine`, run by `engine` over the members `world` (world ranks by comm rank).
    pub fn new(machine: Agree, world: Arc<[u32]>, engine: Weak<Engine>) -> Self {
        let sorted = world.is_sorted();
        let index = (!sorted).then(|| {
            let ranks = world.iter().enumerate();
            ranks.map(|(c, &w)| (w, c as u32)).collect()
        });
        Self {
            machine,
            world,
            sorted,
            index,
            engine,
        }
    }

    /// The comm rank of world rank `w`, if a member.
    fn comm_rank_of(&self, w: u32) -> Option<u32> {
        if self.sorted {
            return self.world.binary_search(&w).ok().map(|r| r as u32);
        }
        if let Some(ix) = &self.index {
            return ix.get(&w).copied();
        }
        self.world.iter().position(|&x| x == w).map(|r| r as u32)
    }

    /// Frames for what the machine emitted into `out`, for agreement `key`.
    fn ship(&self, me: u32, key: AgreeKey, out: &mut Outbox, sends: &mut Vec<ToSend>) {
        for o in out.drain() {
            let Some((ballot, body)) = machine::split(&o.payload) else {
                continue;
            };
            let mut h = FrameHeader::new(FrameKind::Agree, me);
            (h.context, h.seq, h.step, h.tag) = (key.0, key.1, o.step, ballot as i32);
            sends.push((self.world[o.to as usize], Frame::new(h, body)));
        }
    }

    /// Hands the machine an agreement frame from world rank `frame.header.src`.
    fn deliver(&mut self, me: u32, key: AgreeKey, frame: Frame, sends: &mut Vec<ToSend>) {
        let h = frame.header;
        let Some(from) = self.comm_rank_of(h.src) else {
            return;
        };
        let msg = Incoming {
            from,
            step: h.step,
            payload: machine::message(h.tag as u32, &frame.payload),
        };
        let mut out = Outbox::new();
        if let Err(e) = self.machine.deliver(msg, &mut out) {
            tracing::warn!(from, step = h.step, "dropping an agreement frame: {e}");
        }
        self.ship(me, key, &mut out, sends);
        if self.machine.is_done() {
            self.index = None;
        }
    }
}

/// Agreement machines, and what arrived for agreements not started here yet.
#[derive(Default)]
pub(crate) struct AgreeTable {
    machines: FxHashMap<AgreeKey, Driven>,
    /// Finished agreements whose machine is kept, oldest first.
    done_order: VecDeque<AgreeKey>,
    /// Evicted agreements: their late frames are dropped.
    retired: FxHashSet<AgreeKey>,
    retired_order: VecDeque<AgreeKey>,
    pending: FxHashMap<AgreeKey, Vec<Frame>>,
    pending_count: usize,
    /// Promises given to queries of agreements not started here yet.
    ballots: FxHashMap<AgreeKey, Ballot>,
    ballots_order: VecDeque<AgreeKey>,
}

impl AgreeTable {
    /// Keeps `frame` for agreement `key`, not started here, unless that agreement is long
    /// finished; false if it was dropped.
    pub fn push(&mut self, key: AgreeKey, frame: Frame) -> bool {
        if self.retired.contains(&key) || self.pending_count >= MAX_PENDING_FRAMES {
            return false;
        }
        self.pending.entry(key).or_default().push(frame);
        self.pending_count += 1;
        true
    }

    /// Takes the frames waiting for `key`.
    fn take(&mut self, key: AgreeKey) -> Vec<Frame> {
        let v = self.pending.remove(&key).unwrap_or_default();
        self.pending_count -= v.len();
        v
    }

    /// The ballot state of agreement `key`, not started here (created if absent).
    fn ballot(&mut self, key: AgreeKey) -> &mut Ballot {
        if !self.ballots.contains_key(&key) {
            self.ballots_order.push_back(key);
            if self.ballots_order.len() > FINISHED_KEPT
                && let Some(old) = self.ballots_order.pop_front()
            {
                self.ballots.remove(&old);
            }
        }
        self.ballots.entry(key).or_default()
    }

    /// Starts agreement `key` with the machine `make` builds from the ballot this rank holds
    /// for it (a query may have come first): sends its contribution, then hands it what
    /// arrived already and the failures of members `failed` reports now. Returns the frames
    /// to send.
    pub fn start(
        &mut self,
        me: u32,
        key: AgreeKey,
        make: impl FnOnce(Ballot) -> crate::error::Result<Driven>,
        failed: impl Fn(u32) -> bool,
    ) -> crate::error::Result<Vec<ToSend>> {
        let ballot = self.ballots.remove(&key).unwrap_or_default();
        self.ballots_order.retain(|k| *k != key);
        let mut d = make(ballot)?;
        let mut sends = Vec::new();
        let mut out = Outbox::new();
        d.machine.start(&mut out)?;
        d.ship(me, key, &mut out, &mut sends);
        for f in self.take(key) {
            d.deliver(me, key, f, &mut sends);
        }
        // Failures recorded before the machine was here to hear of them.
        for r in 0..d.world.len() as u32 {
            if failed(d.world[r as usize]) {
                let _ = d.machine.peer_failed(r, &mut out);
                d.ship(me, key, &mut out, &mut sends);
            }
        }
        let done = d.machine.is_done();
        self.machines.insert(key, d);
        if done {
            self.finished(key);
        }
        Ok(sends)
    }

    /// Records that `key`'s machine is done. Earlier finished agreements of the same
    /// communicator are retired (see [`FINISHED_KEPT`]), and the oldest kept one beyond the
    /// bound.
    fn finished(&mut self, key: AgreeKey) {
        if let Some(d) = self.machines.get_mut(&key) {
            d.index = None;
        }
        let older = |k: &AgreeKey| k.0 == key.0 && k.1 < key.1;
        let superseded: Vec<AgreeKey> = self.done_order.iter().copied().filter(older).collect();
        if !superseded.is_empty() {
            self.done_order.retain(|k| !older(k));
            for k in superseded {
                self.retire(k);
            }
        }
        self.done_order.push_back(key);
        while self.done_order.len() > FINISHED_KEPT {
            let Some(old) = self.done_order.pop_front() else {
                break;
            };
            self.retire(old);
        }
    }

    /// Drops the machine of finished agreement `key`; its late frames are dropped from now on.
    fn retire(&mut self, key: AgreeKey) {
        self.machines.remove(&key);
        if self.retired.insert(key) {
            self.retired_order.push_back(key);
        }
        if self.retired_order.len() > RETIRED_KEPT
            && let Some(k) = self.retired_order.pop_front()
        {
            self.retired.remove(&k);
        }
    }

    /// True once agreement `key` started here.
    #[cfg(test)]
    pub fn started(&self, key: AgreeKey) -> bool {
        self.machines.contains_key(&key)
    }

    /// The decision of agreement `key`, once its machine is done here.
    pub fn outcome(&self, key: AgreeKey) -> Option<machine::Agreement> {
        self.machines.get(&key)?.machine.outcome()
    }
}

/// The agreement feature of one engine (see the module documentation).
#[derive(Default)]
pub(crate) struct Agreements {
    pub table: Mutex<AgreeTable>,
    /// Woken when an agreement finishes here or the engine closes.
    pub wake: tokio::sync::Notify,
}

/// Sends `sends` from `engine`; a failed send marks the destination failed (the protocol then
/// stops waiting for it). Called without the table's lock.
pub(crate) fn send_all(engine: &Engine, sends: Vec<ToSend>) {
    for (to, frame) in sends {
        if let Err(e) = engine.transport().send(to, frame) {
            engine.mark_failed(to, Error::proc_failed(to, format!("agreement: {e}")));
        }
    }
}

impl Feature for Agreements {
    fn kinds(&self) -> &'static [FrameKind] {
        &[FrameKind::Agree]
    }

    /// A frame of a started agreement goes to its machine, running or done (a done one still
    /// answers queries: the promise must hold from now on). A query for an agreement not
    /// started here is answered from its ballot; other frames wait for their agreement.
    fn on_frame(&self, engine: &Engine, frame: Frame) {
        let h = frame.header;
        let key = (h.context, h.seq);
        let mut sends = Vec::new();
        let mut woke = false;
        {
            let mut t = self.table.lock();
            if let Some(d) = t.machines.get_mut(&key) {
                let was_done = d.machine.is_done();
                d.deliver(engine.rank, key, frame, &mut sends);
                if !was_done && d.machine.is_done() {
                    t.finished(key);
                    woke = true;
                }
            } else if h.step == QUERY {
                let body = t.ballot(key).answer_query(h.tag as u32);
                let mut r = FrameHeader::new(FrameKind::Agree, engine.rank);
                (r.context, r.seq, r.step, r.tag) = (h.context, h.seq, PROMISE, h.tag);
                sends.push((h.src, Frame::new(r, body)));
            } else {
                t.push(key, frame);
            }
        }
        // A failed answer means the coordinator is gone: its successor asks again.
        send_all(engine, sends);
        if woke {
            self.wake.notify_waiters();
        }
    }

    /// Every machine whose communicator holds world rank `rank` hears of it, done ones too
    /// (rule 5: a member that holds an older decision and becomes the lowest live one sends it
    /// again under its own rank).
    fn on_peer_failed(&self, rank: u32, _err: &Error) {
        let mut sends: Vec<(Weak<Engine>, Vec<ToSend>)> = Vec::new();
        let woke;
        {
            let mut t = self.table.lock();
            let mut finished = Vec::new();
            for (&key, d) in t.machines.iter_mut() {
                let Some(r) = d.comm_rank_of(rank) else {
                    continue;
                };
                let was_done = d.machine.is_done();
                let mut out = Outbox::new();
                let _ = d.machine.peer_failed(r, &mut out);
                if !was_done && d.machine.is_done() {
                    finished.push(key);
                }
                if let Some(engine) = d.engine.upgrade()
                    && !out.is_empty()
                {
                    let mut s = Vec::new();
                    d.ship(engine.rank, key, &mut out, &mut s);
                    sends.push((d.engine.clone(), s));
                }
            }
            woke = !finished.is_empty();
            for key in finished {
                t.finished(key);
            }
        }
        for (engine, s) in sends {
            if let Some(engine) = engine.upgrade() {
                send_all(&engine, s);
            }
        }
        if woke {
            self.wake.notify_waiters();
        }
    }

    fn on_close(&self, _err: &Error) {
        self.wake.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_wait_for_their_agreement_and_late_ones_of_evicted_agreements_are_dropped() {
        let mut t = AgreeTable::default();
        let f = Frame::new(FrameHeader::new(FrameKind::Agree, 1), bytes::Bytes::new());
        assert!(t.push((5, 0), f.clone()));
        assert_eq!(t.take((5, 0)).len(), 1);
        t.retired.insert((5, 0));
        assert!(!t.push((5, 0), f.clone()));
        assert!(t.push((5, 1), f));
        assert_eq!(t.pending_count, 1);
    }

    #[test]
    fn only_the_latest_finished_agreement_of_a_communicator_is_kept() {
        let mut t = AgreeTable::default();
        let alone = |ballot| {
            let m = Agree::new(nexar_proto::Group::new(0, 1)?, 1, &[], &[], ballot)?;
            Ok(Driven::new(m, Arc::from([0u32]), Weak::new()))
        };
        for key in [(5, 0), (6, 0), (5, 1)] {
            // A group of one decides at once and sends nothing.
            assert!(t.start(0, key, alone, |_| false).unwrap().is_empty());
            assert!(t.outcome(key).is_some());
        }
        assert!(!t.started((5, 0)) && t.retired.contains(&(5, 0)));
        assert!(t.started((6, 0)) && t.started((5, 1)));
        assert_eq!(t.done_order, [(6, 0), (5, 1)]);
    }

    #[test]
    fn a_query_before_the_start_is_remembered() {
        let mut t = AgreeTable::default();
        t.ballot((7, 0)).answer_query(2);
        assert_eq!(t.ballot((7, 0)).promised, 2);
        assert_eq!(t.ballot((7, 1)).promised, 0);
    }
}
