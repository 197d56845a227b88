//! # nexar
//!
//! A communication library for parallel programs: ranks exchange point-to-point messages and run
//! collectives (allreduce, broadcast, barrier, ...) over QUIC between hosts (and, later, shared
//! memory on one host). This crate is the engine and the Rust API; the C ABI and the MPI shim sit
//! on top of it.
//!
//! ```text
//! # fn main() -> nexar::Result<()> {
//! let ctx = nexar::Context::init()?;
//! let world = ctx.world();
//! let mut v = vec![world.rank() as f64; 4];
//! world.allreduce_blocking(&mut v, nexar::ReduceOp::Sum)?;
//! # Ok(()) }
//! ```

pub mod bootstrap;
pub mod config;
pub mod error;
pub mod security;
pub mod transport;
pub mod wire;

pub use config::Config;
pub use error::{Error, ErrorKind, Result};
pub use nexar_proto::{Datatype, ReduceOp};
