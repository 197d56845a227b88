//! # nexar C ABI
//!
//! `libnexar.so` / `libnexar.a` and the functions declared in `include/nexar.h` (generated from
//! this crate by `cargo xtask gen`). This crate is the only place with `nexar_*` `extern "C"`
//! functions; each body runs inside [`boundary::call`], which catches panics, turns errors into
//! status codes and records a message for `nexar_last_error_message`.
//!
//! Conventions (see also the header):
//! * Every fallible function returns an `int` status: `NEXAR_SUCCESS` (0) or a positive
//!   `NEXAR_ERR_*` code. Out-parameters are written only on success.
//! * Handles (`nexar_comm_t`, `nexar_request_t`, `nexar_win_t`) are opaque values checked on every use: a freed
//!   or forged handle is an error, never undefined behaviour.
//! * Every function may be called from any thread at the same time.
//! * Counts are `size_t`; ranks, roots and tags are `int`.

#![allow(non_camel_case_types)]
// Every extern fn checks its pointers for NULL before use; the remaining contract (valid for
// the given length) is the C caller's, documented per function in the header.
#![allow(clippy::missing_safety_doc, clippy::not_unsafe_ptr_arg_deref)]

pub mod boundary;
pub mod buffers;
pub mod coll;
pub mod coll_rooted;
mod coll_start;
pub mod comm;
pub mod grow;
pub mod handles;
pub mod lifecycle;
pub mod p2p;
pub mod request;
pub mod types;
pub mod ulfm;
pub mod win;
