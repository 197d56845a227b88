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
//! * [`sim`]: the deterministic multi-rank simulator.

pub mod algo;
pub mod datatype;
pub mod error;
pub mod kernels;
pub mod machine;
pub mod op;
pub mod partition;
pub mod reducer;
pub mod select;
pub mod sim;
#[doc(hidden)]
pub mod testkit;
pub mod types;

pub use datatype::Datatype;
pub use error::ProtoError;
pub use kernels::Order;
pub use machine::{Collective, Incoming, Outbox, Outgoing};
pub use op::ReduceOp;
pub use reducer::{CustomOp, Reducer};
pub use types::{Group, Rank, Tag};
