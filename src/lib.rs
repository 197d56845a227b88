//! # nexar
//!
//! A communication library for parallel programs: ranks exchange point-to-point messages and run
//! collectives (allreduce, broadcast, barrier, ...) over QUIC between processes. This crate is
//! the engine and the Rust API; the C ABI and the MPI shim sit on top of it.
//!
//! ```no_run
//! # fn main() -> nexar::Result<()> {
//! let ctx = nexar::Context::init()?; // from nexarrun's environment, or a world of one
//! let world = ctx.world();
//! let mut v = vec![world.rank() as f64; 4];
//! world.allreduce_blocking(&mut v, nexar::ReduceOp::Sum)?;
//! # Ok(()) }
//! ```
//!
//! Every operation is an `async fn` on [`Comm`] with a `_blocking` twin, and the common ones
//! have non-blocking forms returning a [`Request`]. Collective algorithms live in the sans-IO
//! crate `nexar-proto`; this crate moves their messages.

// The floors, lowest first (checked by `cargo xtask check`, see xtask/src/floors.rs): a module
// imports only from its own floor and those below.
// Foundation: errors, the wire format, security, element types.
mod element;
pub mod error;
pub mod security;
pub mod wire;
// Core: the engine, its mailboxes and send paths, transports, configuration, bootstrap.
mod abort;
pub mod bootstrap;
pub mod config;
mod core;
pub mod transport;
// Features: communicators, operations, collectives' driver, failures, devices, RPC.
mod comm;
mod comm_companion;
mod comm_inter;
mod comm_inter_sub;
mod comm_subset;
pub mod device;
mod driver;
mod fault;
mod grow;
pub mod ops;
mod port;
mod request;
pub mod rma;
pub mod rpc;
mod spawn;
// Top: the frame router (the one file naming every feature) and the context that assembles them.
mod context;
mod logging;
mod router;

pub use abort::{abort_job, exit_status};
pub use comm::Comm;
pub use config::Config;
pub use context::Context;
pub use element::{DoubleInt, Element, FloatInt, IntInt, LongInt, ShortInt};
pub use error::{Error, ErrorKind, Result};
pub use fault::agree::Agreement;
pub use grow::{GrowPlan, Newcomer};
pub use nexar_proto::{CustomOp, Order, Reducer};
pub use nexar_proto::{Datatype, ReduceOp};
pub use ops::collectives::PendingCollective;
pub use ops::dest::{Dest, Input, Mode, Target};
pub use ops::inter::InterRoot;
pub use ops::local::{reduce_local, reduce_local_with};
pub use ops::p2p::{PendingRecv, RecvOutcome};
pub use ops::p2p_into::{Owning, RecvInto};
pub use ops::p2p_modes::{Message, RecvCancel, SyncSend};
pub use ops::progress::PollBackoff;
pub use ops::{ANY_SOURCE, ANY_TAG, Source, Status, TAG_UB, TagMatch};
pub use port::Port;
pub use request::{Request, wait_all};
pub use rpc::Rpc;
pub use spawn::{FinalSync, Origin, PARENTS_VAR, Spawned};

/// The README's Rust code blocks, compiled as doctests so the quick start stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
