//! Revocation, the core's part of ULFM (a child module of `engine`, so it reaches the
//! engine's queues): revoking a context fails everything waiting on it, here and, through
//! forwarded revoke frames, on every member. Agreement is a feature (`crate::fault`).

use super::{CollEvent, Engine};
use crate::error::{Error, ErrorKind, Result};
use crate::wire::{Frame, FrameHeader, FrameKind};
use bytes::Bytes;
use parking_lot::RwLock;
use rustc_hash::FxHashMap;
use std::sync::atomic::{AtomicBool, Ordering};

/// The revoked contexts of one engine.
#[derive(Default)]
pub(super) struct Revocations {
    /// Revoked contexts and the error their operations fail with.
    revoked: RwLock<FxHashMap<u64, Error>>,
    /// Set once `revoked` has an entry, so the per-operation check skips the lock.
    any_revoked: AtomicBool,
    /// Set once a communicator was revoked here or an agreement ran: the program uses ULFM
    /// recovery (see `fault::finalize`).
    recovering: AtomicBool,
}

impl Revocations {
    /// The error operations on `context` fail with, if it is revoked.
    #[inline] // on every operation's path: one load while nothing is revoked
    fn revoked(&self, context: u64) -> Option<Error> {
        if !self.any_revoked.load(Ordering::Acquire) {
            return None;
        }
        self.recorded(context)
    }

    #[cold]
    fn recorded(&self, context: u64) -> Option<Error> {
        self.revoked.read().get(&context).cloned()
    }

    /// Records `context` as revoked; false if it already was.
    fn insert(&self, context: u64, err: Error) -> bool {
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

impl Engine {
    /// Fails with [`ErrorKind::Revoked`] if communicator `context` was revoked.
    #[inline]
    pub(crate) fn check_revoked(&self, context: u64) -> Result<()> {
        match self.revoked.revoked(context) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Records that the program uses ULFM recovery (an agreement ran here).
    pub(crate) fn set_recovering(&self) {
        self.revoked.recovering.store(true, Ordering::Release);
    }

    /// Whether the program uses ULFM recovery: a communicator was revoked or an agreement
    /// ran on this rank.
    pub(crate) fn recovering(&self) -> bool {
        self.revoked.recovering.load(Ordering::Acquire)
    }

    /// Revokes `context` here (once): pending receives, synchronous sends and collectives on
    /// it fail with [`ErrorKind::Revoked`], and so will later ones. The first time, forwards
    /// the revocation to every other member of `members` (world ranks) but `from`, so it
    /// reaches all of them even if the rank that started it dies. Returns false if `context`
    /// was already revoked here.
    pub(crate) fn revoke_context(&self, context: u64, members: &[u32], from: u32) -> bool {
        let err = Error::new(
            ErrorKind::Revoked,
            format!("the communicator (context {context:#x}) was revoked by world rank {from}"),
        );
        if !self.revoked.insert(context, err.clone()) {
            return false;
        }
        tracing::debug!(rank = self.rank, context, from, "communicator revoked");
        let mut payload = Vec::with_capacity(members.len() * 4);
        for m in members {
            payload.extend_from_slice(&m.to_le_bytes());
        }
        let payload = Bytes::from(payload);
        for &to in members.iter().filter(|&&m| m != self.rank && m != from) {
            if self.failure_of(to).is_some() {
                continue;
            }
            let mut h = FrameHeader::new(FrameKind::Revoke, self.rank);
            h.context = context;
            // A failed send means the member is gone: nothing to tell it.
            let _ = self.transport().send(to, Frame::new(h, payload.clone()));
        }
        self.matcher.lock().fail_context(context, &err);
        let lost: Vec<_> = {
            let mut ss = self.ssends.lock();
            let keys: Vec<_> = ss
                .iter()
                .filter(|(_, (c, _))| *c == context)
                .map(|(k, _)| *k)
                .collect();
            keys.into_iter()
                .filter_map(|k| ss.remove(&k).map(|(_, tx)| tx))
                .collect()
        };
        for tx in lost {
            let _ = tx.send(Err(err.clone()));
        }
        let open: Vec<_> = {
            let r = self.colls.lock();
            r.open
                .iter()
                .filter(|((c, _), _)| *c == context)
                .map(|(_, tx)| tx.clone())
                .collect()
        };
        for tx in open {
            tx.send(CollEvent::PeerLost(err.clone()));
        }
        self.arrivals.notify_waiters();
        true
    }

    /// Handles a [`FrameKind::Revoke`] frame: revokes its context here and forwards it.
    pub(super) fn on_revoke_frame(&self, frame: Frame) {
        let h = frame.header;
        let p = &frame.payload;
        let n = p.len() / 4;
        if !p.len().is_multiple_of(4) || n > self.size as usize {
            tracing::warn!(
                rank = self.rank,
                src = h.src,
                "dropping a malformed revoke frame"
            );
            return;
        }
        let members: Vec<u32> = p
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        if members.iter().any(|&m| m >= self.size) || !members.contains(&self.rank) {
            tracing::warn!(
                rank = self.rank,
                src = h.src,
                "dropping a revoke frame with bad members"
            );
            return;
        }
        self.revoke_context(h.context, &members, h.src);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::FrameSink;

    fn revoke_frame(src: u32, context: u64, payload: Vec<u8>) -> Frame {
        let mut h = FrameHeader::new(FrameKind::Revoke, src);
        h.context = context;
        Frame::new(h, Bytes::from(payload))
    }

    fn members(m: &[u32]) -> Vec<u8> {
        m.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    #[test]
    fn a_revocation_that_reached_one_member_is_forwarded_to_all() {
        let ctxs = crate::Context::in_process(4).unwrap();
        let engines: Vec<_> = ctxs
            .iter()
            .map(|c| c.world().inner.engine.clone())
            .collect();
        // As if rank 0 sent its revocation to rank 2 only and died.
        engines[2].on_frame(revoke_frame(0, 77, members(&[0, 1, 2, 3])));
        // Rank 2 forwards to 1 and 3, which forward to the rest (0 included) once each.
        for (r, e) in engines.iter().enumerate() {
            assert!(e.check_revoked(77).is_err(), "rank {r}");
            assert!(
                e.check_revoked(0).is_ok(),
                "rank {r}: the world is not revoked"
            );
        }
        let err = engines[3].check_revoked(77).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Revoked);
    }

    #[test]
    fn malformed_revocations_are_dropped() {
        let ctxs = crate::Context::in_process(3).unwrap();
        let e = ctxs[1].world().inner.engine.clone();
        for bad in [
            vec![1, 2, 3],                   // not a whole number of ranks
            members(&[0, 1, 2, 0, 1, 2, 0]), // more members than the world
            members(&[0, 1, 9]),             // a rank outside the world
            members(&[0, 2]),                // without the receiver
        ] {
            e.on_frame(revoke_frame(0, 5, bad));
            assert!(e.check_revoked(5).is_ok());
        }
    }
}
