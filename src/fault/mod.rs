//! Fault tolerance in the style of MPI's ULFM proposal: revoking a communicator
//! ([`revoke`]), fault-tolerant agreement ([`agree`]), shrinking to the survivors and
//! acknowledging failures ([`shrink`]), finalizing after failures ([`finalize`]). Engine-side
//! state and frame handling are in [`state`] and `engine_hooks.rs` (a child module of the
//! engine).

pub mod agree;
pub(crate) mod finalize;
pub mod revoke;
pub mod shrink;
pub(crate) mod state;
