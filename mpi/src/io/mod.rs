//! Parallel I/O, MPI-IO (MPI 4.1 chapter 14), on POSIX files:
//!
//! * [`file`](mod@file): the open-file table, the per-file state and how file errors are reported (through
//!   the file's error handler; `MPI_ERRORS_RETURN` by default, as the standard says);
//! * [`errhandler`]: `MPI_File_set_errhandler`, `get`, `create`, `call`;
//! * [`open`]: `MPI_File_open` (access modes, agreement on the outcome), `close`, `delete`;
//! * [`manage`]: size, preallocation, amode, group, info hints, sync, atomicity;
//! * [`posix`]: the system calls underneath (`pread`/`pwrite` loops, locks) and how `errno`
//!   maps onto the MPI I/O error classes;
//! * [`view`]: file views (`MPI_File_set_view`, ...) and the mapping of view offsets onto file
//!   byte runs;
//! * [`access`]: one read or write of `(buffer, count, datatype)` at a view offset, the step
//!   every data access function shares;
//! * [`explicit`]: explicit offsets (`MPI_File_read_at`, ...);
//! * [`individual`]: individual file pointers (`MPI_File_read`, `MPI_File_seek`, ...);
//! * [`shared`]: the shared file pointer (`MPI_File_read_shared`, `read_ordered`, ...);
//! * [`split`]: split collectives (`MPI_File_read_all_begin` / `_end`, ...);
//! * [`two_phase`]: collective buffering for the `_all` reads and writes;
//! * [`worker`]: its file-access thread (an aggregator's disk works while the ranks exchange);
//! * [`datarep`]: `MPI_Register_datarep` (representations without conversion functions).
//!
//! How it behaves:
//!
//! * Files are opened by every rank of the communicator; rank 0 creates the file first and
//!   every rank learns whether any rank failed, so no rank is left with a half-open file.
//! * Collective data access (`_all`, `_ordered`) agrees on the outcome (an allreduce of the
//!   error class), so a rank that failed makes the call fail on every rank, and synchronizes
//!   the ranks. The `_all` reads and writes use two-phase collective buffering when the ranks'
//!   accesses interleave (hints decide: see [`two_phase`]); otherwise, and for independent
//!   access, each rank accesses its own runs (adjacent runs coalesced, reads with small holes
//!   sieved through one larger read, or one `preadv` when the runs are long; writes are not
//!   sieved).
//! * Non-blocking calls (`MPI_File_iread*`, `MPI_File_iwrite*`, their `_all` forms too) do the
//!   I/O at once and return a completed request; the non-blocking collective forms do not
//!   communicate (they never block on another rank), so they report only this rank's errors.
//! * The shared file pointer lives in a hidden file next to the data file
//!   (`.<name>.nexar-shfp.<token>`), read and advanced under an `fcntl` lock, so it works for
//!   ranks on several hosts over a shared file system; rank 0 removes it on close.
//! * Data representations: `native`, `internal` (the same as `native`) and `external32`
//!   (big-endian, converted on the way in and out) for types whose `external32` size equals
//!   their native size (every fixed-size C and Fortran type on x86-64 and aarch64 Linux);
//!   other types raise `MPI_ERR_UNSUPPORTED_DATAREP`.

use std::ffi::c_int;

pub mod access;
pub mod datarep;
pub mod errhandler;
pub mod explicit;
pub mod file;
pub mod individual;
pub mod manage;
pub mod open;
pub mod posix;
pub mod shared;
pub mod split;
pub mod two_phase;
pub mod view;
pub mod worker;

/// The standard ABI's `MPI_File` (a pointer-sized handle).
pub type MPI_File = usize;
/// The standard ABI's `MPI_Offset`.
pub type MPI_Offset = i64;

/// Access modes of `MPI_File_open`.
pub const MPI_MODE_APPEND: c_int = 1;
/// See [`MPI_MODE_APPEND`].
pub const MPI_MODE_CREATE: c_int = 2;
/// See [`MPI_MODE_APPEND`].
pub const MPI_MODE_DELETE_ON_CLOSE: c_int = 4;
/// See [`MPI_MODE_APPEND`].
pub const MPI_MODE_EXCL: c_int = 8;
/// See [`MPI_MODE_APPEND`].
pub const MPI_MODE_RDONLY: c_int = 16;
/// See [`MPI_MODE_APPEND`].
pub const MPI_MODE_RDWR: c_int = 32;
/// See [`MPI_MODE_APPEND`].
pub const MPI_MODE_SEQUENTIAL: c_int = 64;
/// See [`MPI_MODE_APPEND`].
pub const MPI_MODE_UNIQUE_OPEN: c_int = 128;
/// See [`MPI_MODE_APPEND`].
pub const MPI_MODE_WRONLY: c_int = 256;

/// `whence` of `MPI_File_seek`.
pub const MPI_SEEK_SET: c_int = 401;
/// See [`MPI_SEEK_SET`].
pub const MPI_SEEK_CUR: c_int = 402;
/// See [`MPI_SEEK_SET`].
pub const MPI_SEEK_END: c_int = 403;

/// `disp` of `MPI_File_set_view` in sequential mode: the current shared pointer position.
pub const MPI_DISPLACEMENT_CURRENT: MPI_Offset = -1;
/// Room for a data representation name.
pub const MPI_MAX_DATAREP_STRING: usize = 128;

/// The I/O error classes.
pub const MPI_ERR_ACCESS: c_int = 20;
/// See [`MPI_ERR_ACCESS`].
pub const MPI_ERR_AMODE: c_int = 21;
/// See [`MPI_ERR_ACCESS`].
pub const MPI_ERR_BAD_FILE: c_int = 23;
/// See [`MPI_ERR_ACCESS`].
pub const MPI_ERR_DUP_DATAREP: c_int = 27;
/// See [`MPI_ERR_ACCESS`].
pub const MPI_ERR_FILE_EXISTS: c_int = 28;
/// See [`MPI_ERR_ACCESS`].
pub const MPI_ERR_FILE_IN_USE: c_int = 29;
/// See [`MPI_ERR_ACCESS`].
pub const MPI_ERR_FILE: c_int = 30;
/// See [`MPI_ERR_ACCESS`].
pub const MPI_ERR_IO: c_int = 35;
/// See [`MPI_ERR_ACCESS`].
pub const MPI_ERR_NO_SPACE: c_int = 41;
/// See [`MPI_ERR_ACCESS`].
pub const MPI_ERR_NO_SUCH_FILE: c_int = 42;
/// See [`MPI_ERR_ACCESS`].
pub const MPI_ERR_QUOTA: c_int = 44;
/// See [`MPI_ERR_ACCESS`].
pub const MPI_ERR_READ_ONLY: c_int = 45;
/// See [`MPI_ERR_ACCESS`].
pub const MPI_ERR_UNSUPPORTED_DATAREP: c_int = 54;
