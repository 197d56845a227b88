//! # nexar-proto
//!
//! The sans-IO heart of nexar: collective algorithms written as state machines that never touch a
//! socket, a clock or a runtime. The engine feeds them messages and ships what they emit; tests run
//! them in [`sim`], a seeded simulator that delivers messages in random order.
//!
//! * [`types`]: ranks, tags and the [`types::Group`] a machine runs in.
//! * [`datatype`] and [`op`]: the element types and reduction operators.
//! * [`kernels`]: reduction kernels for every valid (datatype, op) pair.
//! * [`reducer`]: what a reduction combines with: a predefined (op, datatype) or a custom op.
//! * [`machine`]: the [`machine::Collective`] trait, the outbox and the reorder inbox.
//! * [`algo`]: one module per collective algorithm.
//! * [`select`]: which algorithm to use for (ranks, bytes).
//! * [`fault`]: fault-tolerant protocols (agreement) that keep going when peers fail.
//! * [`sim`]: the deterministic multi-rank simulator, with crash, drop and stall injection in
//!   [`sim::faults`].
//!
//! The crate is `#![no_std]` (it needs only `alloc`) and forbids unsafe code, and CI builds it for
//! `wasm32-unknown-unknown`: a machine that reached for a socket, a clock, a thread or a pointer
//! trick would fail the build, not a review.

#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;
// Unit tests run on the host and may print and use std's collections.
#[cfg(test)]
extern crate std;

pub mod algo;
pub mod datatype;
pub mod error;
pub mod fault;
pub mod kernels;
pub mod machine;
pub mod op;
pub mod partition;
mod prelude;
pub mod reducer;
pub mod select;
pub mod sim;
#[doc(hidden)]
pub mod testkit;
pub mod types;

pub use datatype::Datatype;
pub use error::ProtoError;
pub use kernels::Order;
pub use machine::{Collective, Incoming, Outbox, Outgoing, PeerFailed};
pub use op::ReduceOp;
pub use reducer::{CustomOp, Reducer};
pub use types::{Group, Rank, Tag};
