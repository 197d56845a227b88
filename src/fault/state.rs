//! Per-engine ULFM state: which communicators are revoked, and the agreement frames that
//! arrived for agreements still running (or not yet started) on this rank.

use crate::error::Error;
use crate::wire::Frame;
use parking_lot::{Mutex, RwLock};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};

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

/// ULFM state of one engine.
#[derive(Default)]
pub(crate) struct UlfmState {
    /// Revoked contexts and the error their operations fail with.
    revoked: RwLock<FxHashMap<u64, Error>>,
    /// Set once `revoked` has an entry, so the per-operation check skips the lock.
    any_revoked: AtomicBool,
    /// Frames of agreements.
    pub agree: Mutex<AgreeFrames>,
    /// Set once a communicator was revoked here or an agreement ran: the program uses ULFM
    /// recovery (see `fault::finalize`).
    pub recovering: AtomicBool,
}

impl UlfmState {
    /// The error operations on `context` fail with, if it is revoked.
    pub fn revoked(&self, context: u64) -> Option<Error> {
        if !self.any_revoked.load(Ordering::Acquire) {
            return None;
        }
        self.revoked.read().get(&context).cloned()
    }

    /// Records `context` as revoked; false if it already was.
    pub fn insert_revoked(&self, context: u64, err: Error) -> bool {
        let mut r = self.revoked.write();
        if r.contains_key(&context) {
            return false;
        }
        r.insert(context, err);
        self.any_revoked.store(true, Ordering::Release);
        self.recovering.store(true, Ordering::Release);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::{FrameHeader, FrameKind};

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
