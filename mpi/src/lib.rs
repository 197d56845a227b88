//! # nexar MPI shim
//!
//! `libmpi_abi.so.1`: the MPI 5.0 standard ABI (`include/mpi.h`) over the nexar engine. Every
//! function of `mpi/spec/functions.txt` is exported twice, as `MPI_X` and `PMPI_X`; `MPI_X`
//! calls `PMPI_X`, so profiling tools can interpose on `MPI_X`.
//!
//! * Implemented functions (IMPL `yes` in the spec) are written by hand in the modules below,
//!   each through [`mpi_fn!`], and every body runs inside [`error::call`] (panics caught,
//!   errors reported through the communicator's error handler).
//! * The others are generated stubs ([`generated::stubs`], written by `cargo xtask gen`) that
//!   raise `MPI_ERR_UNSUPPORTED_OPERATION`.
//!
//! The shim translates handles and arguments and calls the engine; it never re-implements an
//! algorithm.
//!
//! Conventions of every implemented function: any thread may call it at any time
//! (`MPI_THREAD_MULTIPLE`); functions that communicate block the calling thread until their
//! part is done (sends return once the data is copied and queued, synchronous sends once the
//! receiver matched the message); collectives are called by every rank of the communicator in
//! the same order; out-parameters are written only on success
//! (a receive's status also on truncation); errors go through the communicator's error handler
//! (see [`error`]). Buffers stay the caller's.

#![allow(non_snake_case, non_camel_case_types)]
// Every extern fn checks its pointers for NULL before use; the remaining contract (valid for the
// given length) is the C caller's, as the MPI standard states it.
#![allow(clippy::missing_safety_doc, clippy::not_unsafe_ptr_arg_deref)]

/// Defines `MPI_X` (documented, calling `PMPI_X`) and `PMPI_X` (the implementation).
///
/// `fn MPI_X(args) -> Ret => PMPI_X { body }`
macro_rules! mpi_fn {
    ($(
        $(#[$doc:meta])*
        fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty => $pname:ident $body:block
    )*) => {$(
        $(#[$doc])*
        #[unsafe(no_mangle)]
        pub extern "C" fn $name($($arg: $ty),*) -> $ret {
            $pname($($arg),*)
        }

        #[doc = concat!("Profiling entry point of [`", stringify!($name), "`] (the implementation).")]
        #[unsafe(no_mangle)]
        pub extern "C" fn $pname($($arg: $ty),*) -> $ret $body
    )*};
}

/// Defines a not-yet-implemented function: `MPI_X` and `PMPI_X` raise
/// `MPI_ERR_UNSUPPORTED_OPERATION` naming `MPI_X`. They take no parameters (valid for the C
/// calling convention: the caller's arguments are ignored).
macro_rules! stub {
    ($name:ident, $pname:ident) => {
        #[doc = concat!("`", stringify!($name), "`: not implemented yet; raises `MPI_ERR_UNSUPPORTED_OPERATION`.")]
        #[unsafe(no_mangle)]
        pub extern "C" fn $name() -> std::ffi::c_int {
            $pname()
        }

        #[doc = concat!("Profiling entry point of [`", stringify!($name), "`].")]
        #[unsafe(no_mangle)]
        pub extern "C" fn $pname() -> std::ffi::c_int {
            crate::error::unsupported(stringify!($name))
        }
    };
}

pub mod args;
pub mod attr;
pub mod attr_store;
pub mod bsend;
pub mod cancel;
pub mod coll;
pub mod coll_persistent;
pub mod coll_v;
pub mod coll_w;
pub mod comm;
pub mod consts;
pub mod datatype;
pub mod device_buf;
pub mod errcodes;
pub mod error;
pub mod fortran_support;
pub mod generated;
pub mod grequest;
pub mod group;
pub mod handles;
pub mod info;
pub mod init;
pub mod mem;
pub mod mprobe;
pub mod nonblocking;
pub mod op;
pub mod p2p;
pub mod p2p_nonblocking;
pub mod persistent;
pub mod request;
pub mod request_complete;
pub mod request_status;
pub mod send_modes;
pub mod state;
pub mod status;
pub mod status_fields;
pub mod table;
pub mod topo;
pub mod topo_graph;
pub mod ulfm;
