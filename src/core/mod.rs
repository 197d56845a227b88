//! The engine's core floor: engine state, the mailboxes (collective calls and point-to-point
//! matching), collective fingerprints, and the [`feature::Feature`] hook through which the
//! features above hear of their frames, of failed peers and of the close.
//!
//! The core imports no feature module (`comm`, `ops`, `driver`, `fault`, `device`, `rpc`,
//! `grow`, `request`, ...) and nothing above it (`router`, `context`): `cargo xtask check` fails
//! the build when a file under `src/core/` does (see `xtask/src/floors.rs` for every floor).

pub(crate) mod engine;
pub(crate) mod feature;
pub(crate) mod fingerprint;
pub(crate) mod mailbox;
pub(crate) mod matching;
pub(crate) mod recv_cell;
