//! Faults: how ranks learn that others failed, and what they may do about it.
//!
//! * `launcher_link.rs`: this rank's side of the launcher's control channel (declaring that
//!   errors are returned, so the launcher leaves the rank running when a peer dies).
//!
//! Detection itself lives with the transports (QUIC keep-alives and idle timeout, shared-memory
//! inbox locks and heartbeats) and the rendezvous control channel
//! ([`crate::bootstrap::rendezvous::control`]); all of them end in `Engine::mark_failed`.

mod launcher_link;
