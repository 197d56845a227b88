//! Per-engine agreement state: the agreement frames that arrived for agreements still running
//! (or not yet started) on this rank, and the feature that files them. (Which communicators
//! are revoked is the core's: `core::engine`.)

use crate::core::engine::Engine;
use crate::core::feature::Feature;
use crate::wire::{Frame, FrameHeader, FrameKind};
use parking_lot::Mutex;
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::VecDeque;

/// Key of one agreement: (communicator context, agreement number).
pub(crate) type AgreeKey = (u64, u64);

/// How many finished agreements are remembered (their late frames are dropped, not kept).
const FINISHED_KEPT: usize = 1024;
/// Most agreement frames kept waiting at once: a peer flooding frames for agreements that
/// never start cannot grow memory without bound.
const MAX_PENDING_FRAMES: usize = 1 << 16;

/// One agreement's ballot state on this rank (see `fault::agree`): the highest coordinator
/// ballot it promised to follow, and the decision it adopted with the ballot that carried it.
/// Kept after the agreement returns, so a later coordinator's query is answered.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Ballot {
    /// Decisions of lower ballots are refused.
    pub promised: u32,
    /// The adopted decision (encoded) and its ballot.
    pub adopted: Option<(u32, bytes::Bytes)>,
}

/// Agreement frames and ballots by agreement.
#[derive(Default)]
pub(crate) struct AgreeFrames {
    pending: FxHashMap<AgreeKey, Vec<Frame>>,
    pending_count: usize,
    finished: FxHashSet<AgreeKey>,
    finished_order: VecDeque<AgreeKey>,
    ballots: FxHashMap<AgreeKey, Ballot>,
    ballots_order: VecDeque<AgreeKey>,
}

impl AgreeFrames {
    /// Keeps `frame` for agreement `key` unless that agreement already finished here; false
    /// if it was dropped.
    pub fn push(&mut self, key: AgreeKey, frame: Frame) -> bool {
        if self.finished.contains(&key) || self.pending_count >= MAX_PENDING_FRAMES {
            return false;
        }
        self.pending.entry(key).or_default().push(frame);
        self.pending_count += 1;
        true
    }

    /// Takes the frames waiting for `key`.
    pub fn take(&mut self, key: AgreeKey) -> Vec<Frame> {
        let v = self.pending.remove(&key).unwrap_or_default();
        self.pending_count -= v.len();
        v
    }

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

    /// A coordinator of `ballot` asks what this rank adopted: from now on decisions of lower
    /// ballots are refused here. Returns the state after the promise.
    pub fn promise(&mut self, key: AgreeKey, ballot: u32) -> Ballot {
        let b = self.ballot(key);
        b.promised = b.promised.max(ballot);
        b.clone()
    }

    /// Adopts `decision`, carried by `ballot`, unless this rank promised a higher ballot.
    /// Returns what this rank holds afterwards: the decision it adopted earlier if any (a rank
    /// adopts once), else this one; `None` when it was refused.
    pub fn adopt(
        &mut self,
        key: AgreeKey,
        ballot: u32,
        decision: bytes::Bytes,
    ) -> Option<(u32, bytes::Bytes)> {
        let b = self.ballot(key);
        if let Some(a) = &b.adopted {
            return Some(a.clone());
        }
        if ballot < b.promised {
            return None;
        }
        b.adopted = Some((ballot, decision));
        b.adopted.clone()
    }

    /// Marks `key` finished: its waiting and later frames are dropped.
    pub fn finish(&mut self, key: AgreeKey) {
        self.take(key);
        if self.finished.insert(key) {
            self.finished_order.push_back(key);
        }
        if self.finished_order.len() > FINISHED_KEPT
            && let Some(old) = self.finished_order.pop_front()
        {
            self.finished.remove(&old);
        }
    }
}

/// The agreement feature of one engine: the frames of agreements still running (or not yet
/// started) on this rank, and the promises it gave (see `fault::agree`).
#[derive(Default)]
pub(crate) struct Agreements {
    /// Frames and ballots, by agreement.
    pub frames: Mutex<AgreeFrames>,
}

impl Feature for Agreements {
    fn kinds(&self) -> &'static [FrameKind] {
        &[FrameKind::Agree]
    }

    /// A query is answered here, whether or not this rank's agreement runs or already
    /// returned: the promise must hold from now on (see `fault::agree`). Other agreement
    /// frames wait for their agreement.
    fn on_frame(&self, engine: &Engine, frame: Frame) {
        let h = frame.header;
        if h.step == super::agree::QUERY {
            let ballot = h.tag as u32;
            let state = self.frames.lock().promise((h.context, h.seq), ballot);
            let mut r = FrameHeader::new(FrameKind::Agree, engine.rank);
            (r.context, r.seq, r.step, r.tag) = (h.context, h.seq, super::agree::PROMISE, h.tag);
            let payload = super::agree::encode_promise(&state);
            // A failed reply means the coordinator is gone: its successor asks again.
            let _ = engine.transport().send(h.src, Frame::new(r, payload));
            return;
        }
        if self.frames.lock().push((h.context, h.seq), frame) {
            engine.arrivals().notify_waiters();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_promise_refuses_lower_ballots_and_reports_the_adopted_decision() {
        let mut t = AgreeFrames::default();
        let d0 = bytes::Bytes::from_static(b"zero");
        let d1 = bytes::Bytes::from_static(b"one");
        // Promised to coordinator 1 first: coordinator 0's decision in flight is refused.
        assert_eq!(t.promise((7, 0), 1).adopted, None);
        assert_eq!(t.adopt((7, 0), 0, d0.clone()), None);
        assert_eq!(t.adopt((7, 0), 1, d1.clone()), Some((1, d1.clone())));
        // Adopted once: a later decision does not replace it, and a query reports it.
        assert_eq!(t.adopt((7, 0), 2, d0.clone()), Some((1, d1.clone())));
        assert_eq!(t.promise((7, 0), 2).adopted, Some((1, d1.clone())));
        // Another agreement is independent; adopting before any promise works.
        assert_eq!(t.adopt((7, 1), 0, d0.clone()), Some((0, d0.clone())));
        assert_eq!(t.promise((7, 1), 3).adopted, Some((0, d0)));
    }

    #[test]
    fn frames_of_finished_agreements_are_dropped() {
        let mut t = AgreeFrames::default();
        let f = Frame::new(FrameHeader::new(FrameKind::Agree, 1), bytes::Bytes::new());
        assert!(t.push((5, 0), f.clone()));
        assert_eq!(t.take((5, 0)).len(), 1);
        t.finish((5, 0));
        assert!(!t.push((5, 0), f.clone()));
        assert!(t.push((5, 1), f));
        assert_eq!(t.pending_count, 1);
    }
}
