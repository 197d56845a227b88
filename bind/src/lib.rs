//! # nexar-bind
//!
//! The glue both C-facing crates need, written once: `capi/` (libnexar) and `mpi/`
//! (libmpi_abi) each link their own copy of it. It holds what is the same concern on both
//! sides and nothing that names a C type, a status code or an MPI rule:
//!
//! * [`boundary`]: the one helper every `extern "C"` body runs in (panics caught, errors turned
//!   into a status through the caller's [`boundary::Report`]).
//! * [`last_error`]: the thread-local record of the last error a thread raised.
//! * [`handles`]: the generational handle table (each crate picks its own bit [`handles::Layout`]).
//! * [`buffers`]: raw buffer views (empty buffers never dereferenced) and the aliasing test.
//! * [`any`]: completing any one of an array of requests, with the caller's progress between
//!   passes.
//!
//! This crate exports no symbol: it has no `#[no_mangle]` and no `extern "C"` function, so the
//! export allow-lists of both libraries (`cargo xtask symbols`) are untouched by it.

pub mod any;
pub mod boundary;
pub mod buffers;
pub mod handles;
pub mod last_error;
