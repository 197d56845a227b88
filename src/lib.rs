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

mod abort;
pub mod bootstrap;
mod comm;
mod comm_subset;
pub mod config;
mod context;
pub mod device;
mod driver;
mod element;
mod engine;
pub mod error;
mod fault;
mod grow;
mod mailbox;
mod matching;
pub mod ops;
mod request;
pub mod rpc;
pub mod security;
pub mod transport;
pub mod wire;

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
pub use ops::local::{reduce_local, reduce_local_with};
pub use ops::p2p::{PendingRecv, RecvOutcome};
pub use ops::p2p_modes::{Message, RecvCancel, SyncSend};
pub use ops::{ANY_SOURCE, ANY_TAG, Source, Status, TAG_UB, TagMatch};
pub use request::{Request, wait_all};
pub use rpc::Rpc;
pub use transport::caller::PollBackoff;

/// The README's Rust code blocks, compiled as doctests so the quick start stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
