//! # nexar MPI shim
//!
//! `libmpi_abi.so.1`: the MPI 5.0 standard ABI (`include/mpi.h`) over the nexar engine. Every
//! function of `mpi/spec/functions.txt` is exported twice, as `MPI_X` and `PMPI_X`; `MPI_X`
//! calls `PMPI_X`, so profiling tools can interpose on `MPI_X`.
//!
//! * Implemented functions (IMPL `yes` in the spec) are written by hand in the modules below,
//!   each through `mpi_fn!`, and every body runs inside [`errors::report::call`] (panics caught,
//!   errors reported through the communicator's error handler).
//! * The others are generated stubs ([`generated::stubs`], written by `cargo xtask gen`) that
//!   raise `MPI_ERR_UNSUPPORTED_OPERATION`.
//!
//! The shim translates handles and arguments and calls the engine; it never re-implements an
//! algorithm.
//!
//! Layout: one folder per MPI family, each file named for what it holds (without repeating
//! the folder's name): [`p2p`], [`coll`] (reduction operations too), [`request`] (statuses
//! too), [`comm`] (groups, topologies, info, attributes, ULFM), [`datatype`], [`errors`],
//! [`io`] (MPI-IO: files, views, data access). The
//! crate-wide plumbing stays at the top: [`state`] (process-wide state), [`consts`],
//! [`handles`] (predefined handles), [`table`] (user handle layout), [`args`] (argument
//! checks and buffer views), [`device_buf`] (CUDA-aware buffers), [`init`] (environment
//! management), [`mem`] (`MPI_Alloc_mem`), [`fortran_support`] and [`generated`] (written by
//! `cargo xtask gen`).
//!
//! Conventions of every implemented function: any thread may call it at any time
//! (`MPI_THREAD_MULTIPLE`); functions that communicate block the calling thread until their
//! part is done (sends return once the data is copied and queued, synchronous sends once the
//! receiver matched the message); collectives are called by every rank of the communicator in
//! the same order; out-parameters are written only on success
//! (a receive's status also on truncation); errors go through the communicator's error handler
//! (see [`errors`]). Buffers stay the caller's.

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
/// calling convention: the caller's arguments are ignored). Unused while every function of the
/// spec is implemented; kept for the next one the standard adds.
#[allow(unused_macros)]
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
            crate::errors::report::unsupported(stringify!($name))
        }
    };
}

pub mod abi_fortran;
pub mod args;
pub mod coll;
pub mod comm;
pub mod consts;
pub mod datatype;
pub mod device_buf;
pub mod errors;
pub mod fortran_manual;
pub mod fortran_support;
pub mod generated;
pub mod handles;
pub mod init;
pub mod io;
pub mod mem;
pub mod p2p;
pub mod request;
pub mod session;
pub mod state;
pub mod table;
pub mod tools;
pub mod win;
