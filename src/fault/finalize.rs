//! The final synchronization of `Context::finalize` after failures: the usual final barrier
//! over the world cannot complete once a world member failed or the world was revoked, so in
//! a program that uses ULFM recovery (this rank revoked or saw a revocation, or ran an
//! agreement or shrink) the survivors fall back to an agreement over the world, which
//! completes among the live members (see [`super::agree`]). A program that recovered with
//! revoke and shrink can thus still finalize cleanly; other programs keep the barrier's
//! immediate error.

use crate::comm::Comm;
use crate::error::{ErrorKind, Result};
use crate::ops::collectives::PendingCollective;

/// Finishes the final `barrier` started on `world`; if it fails because a member failed or
/// the world was revoked, synchronizes with the other survivors by agreement instead (in a
/// program using ULFM recovery).
pub(crate) async fn final_sync(world: Comm, barrier: Result<PendingCollective>) -> Result<()> {
    let err = match barrier {
        Ok(b) => match b.finish_into(&mut []).await {
            Ok(()) => return Ok(()),
            Err(e) => e,
        },
        Err(e) => e,
    };
    // Only for programs that use ULFM recovery (a revocation or an agreement happened here):
    // others keep the barrier's fast failure, and ranks the others dropped do not wait.
    let recovering = world.inner.engine.recovering();
    if !recovering || !matches!(err.kind(), ErrorKind::ProcFailed | ErrorKind::Revoked) {
        return Err(err);
    }
    tracing::debug!(
        rank = world.rank(),
        "final barrier failed ({err}); agreeing instead"
    );
    world.agree_outcome(0).await.map(|_| ())
}
