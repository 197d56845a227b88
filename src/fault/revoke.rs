//! Revoking a communicator (ULFM's `MPIX_Comm_revoke`).
//!
//! A revocation is flooded: the revoking rank sends a [`crate::wire::FrameKind::Revoke`] frame
//! (listing the members) to every other member, and each member forwards it once, on first
//! receipt, to every member but the sender. So it reaches every live member even if the
//! revoking rank dies right after sending to a single one. On each rank, the first receipt
//! fails every pending receive, synchronous send and collective on that communicator with
//! [`crate::ErrorKind::Revoked`], and every later operation on it fails the same way at once,
//! except the recovery calls: [`Comm::agree`], [`Comm::shrink`], [`Comm::failed_ranks`],
//! [`Comm::ack_failed`], [`Comm::acked_failed`] and [`Comm::is_revoked`]. Other communicators
//! (including ones created from it earlier) are not affected.

use crate::comm::Comm;
use crate::error::Result;

impl Comm {
    /// Revokes this communicator on every member: their pending and later operations on it
    /// (point-to-point and collective, blocking and non-blocking) fail with
    /// [`crate::ErrorKind::Revoked`]. Not collective: any one member may call it, and it
    /// returns at once. Revoking a revoked communicator does nothing.
    pub fn revoke(&self) -> Result<()> {
        let engine = &self.inner.engine;
        engine.check_open()?;
        engine.revoke_context(self.inner.context, self.inner.members.world(), engine.rank);
        Ok(())
    }

    /// True once this communicator was revoked, here or by any member whose revocation has
    /// reached this rank.
    pub fn is_revoked(&self) -> bool {
        self.inner.engine.check_revoked(self.inner.context).is_err()
    }
}
