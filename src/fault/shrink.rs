//! Failure acknowledgement and shrinking (ULFM's `MPIX_Comm_get_failed`,
//! `MPIX_Comm_failure_ack`, `MPIX_Comm_failure_get_acked` and `MPIX_Comm_shrink`).
//!
//! Acknowledgement semantics (kept simple, as in ULFM): while a member of a communicator is
//! known failed and not acknowledged, an `ANY_SOURCE` receive on it fails with
//! [`crate::ErrorKind::ProcFailed`] (pending ones too, when the failure is detected). After
//! [`Comm::ack_failed`], wildcard receives ignore the failures acknowledged so far (they
//! still fail for members that fail later); receives naming a failed rank, sends to it and
//! collectives on the communicator keep failing: recover with [`Comm::shrink`].

use crate::comm::{Comm, CommInner};
use crate::error::{Error, Result};
use parking_lot::Mutex;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Acknowledged failed ranks (comm ranks, ascending) and the world ranks a wildcard receive
/// then waits on (the members without them), once something was acknowledged.
type Acked = (Vec<u32>, Option<Arc<[u32]>>);

/// Per-communicator ULFM state.
#[derive(Default)]
pub(crate) struct CommFault {
    /// Number of the next agreement on this communicator (agreements are called in the same
    /// order on every member, like collectives, but numbered apart from them).
    agree_seq: AtomicU64,
    /// What was acknowledged.
    acked: Mutex<Acked>,
}

impl CommFault {
    /// Takes the next agreement number.
    pub fn next_agreement(&self) -> u64 {
        self.agree_seq.fetch_add(1, Ordering::Relaxed)
    }
}

impl CommInner {
    /// World ranks whose failure fails an `ANY_SOURCE` receive: the point-to-point peers (the
    /// remote group of an intercommunicator), less the acknowledged failures.
    pub(crate) fn wildcard_members(&self) -> Arc<[u32]> {
        match &self.fault.acked.lock().1 {
            Some(m) => m.clone(),
            None => self.peers().world().clone(),
        }
    }

    /// Comm ranks of the members this rank knows failed, ascending.
    pub(crate) fn failed_ranks(&self) -> Vec<u32> {
        let e = &self.engine;
        (0..self.size())
            .filter(|&r| e.failure_of(self.members.world()[r as usize]).is_some())
            .collect()
    }

    /// Comm ranks of the acknowledged failures, ascending.
    pub(crate) fn acked_ranks(&self) -> Vec<u32> {
        self.fault.acked.lock().0.clone()
    }
}

impl Comm {
    /// Comm ranks of the members this rank knows have failed, ascending (ULFM's
    /// `MPIX_Comm_get_failed`). Local; works on a revoked communicator.
    pub fn failed_ranks(&self) -> Vec<u32> {
        self.inner.failed_ranks()
    }

    /// Acknowledges every failure known now (ULFM's `MPIX_Comm_failure_ack`): later
    /// `ANY_SOURCE` receives on this communicator are no longer failed by them. Returns how
    /// many failures are acknowledged. Local; works on a revoked communicator.
    pub fn ack_failed(&self) -> usize {
        self.ack_failed_first(usize::MAX)
    }

    /// Acknowledges the first `n` failures known now, in [`Comm::failed_ranks`]' order, on
    /// top of those acknowledged before (ULFM's `MPIX_Comm_ack_failed`); returns how many
    /// failures are acknowledged in all. Local; works on a revoked communicator.
    pub fn ack_failed_first(&self, n: usize) -> usize {
        let mut acked = self.inner.acked_ranks();
        acked.extend(self.inner.failed_ranks().into_iter().take(n));
        acked.sort_unstable();
        acked.dedup();
        let world = self.inner.members.world();
        let rest: Vec<u32> = (0..world.len() as u32)
            .filter(|r| acked.binary_search(r).is_err())
            .map(|r| world[r as usize])
            .collect();
        let count = acked.len();
        *self.inner.fault.acked.lock() = (acked, Some(rest.into()));
        count
    }

    /// Comm ranks of the failures acknowledged so far ([`Comm::ack_failed`],
    /// [`Comm::ack_failed_first`]), ascending
    /// (ULFM's `MPIX_Comm_failure_get_acked`).
    pub fn acked_failed(&self) -> Vec<u32> {
        self.inner.acked_ranks()
    }

    /// A new communicator of the surviving members, in the same rank order, with a fresh
    /// context (ULFM's `MPIX_Comm_shrink`). Collective over the survivors: they first agree
    /// (see [`Comm::agree`]) on which members failed, so every survivor builds the same
    /// communicator even if more members fail meanwhile. Works on a revoked communicator.
    ///
    /// # Errors
    /// [`crate::ErrorKind::ProcFailed`] if the agreement counted this rank among the failed
    /// (another member lost contact with it); [`crate::ErrorKind::Finalized`] after finalize.
    pub async fn shrink(&self) -> Result<Comm> {
        self.inner.refuse_inter("shrink")?;
        let (seq, outcome) = super::agree::run(&self.inner, u32::MAX).await?;
        let me = self.inner.rank;
        if outcome.failed.binary_search(&me).is_ok() {
            return Err(Error::proc_failed(
                self.inner.engine.rank,
                "shrink: the other members count this rank as failed",
            ));
        }
        let world = self.inner.members.world();
        let survivors: Vec<u32> = (0..world.len() as u32)
            .filter(|r| outcome.failed.binary_search(r).is_err())
            .map(|r| world[r as usize])
            .collect();
        let context = shrink_context(self.inner.context, seq, &survivors);
        Ok(Comm::from_parts(
            self.inner.engine.clone(),
            context,
            survivors,
        ))
    }

    /// Blocking [`Comm::shrink`].
    pub fn shrink_blocking(&self) -> Result<Comm> {
        self.block_on(self.shrink())
    }
}

/// The context of the communicator shrunk from `parent` by agreement `seq` to `survivors`:
/// the same on every survivor, since they agreed on all three.
fn shrink_context(parent: u64, seq: u64, survivors: &[u32]) -> u64 {
    let mut input = Vec::with_capacity(40 + survivors.len() * 4);
    input.extend_from_slice(b"nexar-contextshrink");
    input.extend_from_slice(&parent.to_le_bytes());
    input.extend_from_slice(&seq.to_le_bytes());
    for s in survivors {
        input.extend_from_slice(&s.to_le_bytes());
    }
    let d = ring::digest::digest(&ring::digest::SHA256, &input);
    let id = u64::from_le_bytes(d.as_ref()[..8].try_into().expect("8 bytes"));
    id.max(crate::comm::SELF_CONTEXT + 1)
}

#[cfg(test)]
mod tests {
    use super::shrink_context;

    #[test]
    fn shrink_contexts_depend_on_parent_agreement_and_survivors() {
        let a = shrink_context(0, 0, &[0, 2]);
        assert_eq!(a, shrink_context(0, 0, &[0, 2]));
        assert_ne!(a, shrink_context(0, 1, &[0, 2]));
        assert_ne!(a, shrink_context(0, 0, &[0, 1]));
        assert_ne!(a, shrink_context(7, 0, &[0, 2]));
        assert!(a > 1);
    }
}
