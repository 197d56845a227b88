//! Faults: how ranks learn that others failed, and what they may do about it.
//!
//! * `launcher_link.rs`: this rank's side of the launcher's control channel (declaring that
//!   errors are returned, so the launcher leaves the rank running when a peer dies).
//! * Recovery in the style of MPI's ULFM proposal: revoking a communicator ([`revoke`]),
//!   fault-tolerant agreement ([`agree`]), shrinking to the survivors and acknowledging
//!   failures ([`shrink`]), finalizing after failures ([`finalize`]). The agreement feature's
//!   state and frame handling are in [`state`]; revocation itself is the core's
//!   (`core/engine/revoke.rs`: every send path checks it).
//!
//! Detection itself lives with the transports (QUIC keep-alives and idle timeout, shared-memory
//! inbox locks and heartbeats) and the rendezvous control channel
//! ([`crate::bootstrap::rendezvous::control`]); all of them end in `Engine::mark_failed`.

pub mod agree;
pub(crate) mod finalize;
mod launcher_link;
pub mod revoke;
pub mod shrink;
pub(crate) mod state;
