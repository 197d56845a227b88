//! The values of `include/mpi.h` the shim uses (from `mpi/spec/constants.txt`, the MPI 5.0
//! standard ABI), and the C types of its handles.
//!
//! Handles are pointers to incomplete structs in C; they are passed as `usize` here (the same
//! integer class in every supported calling convention). Predefined handles are small integers;
//! user handles are at least [`crate::table::USER_BASE`], so the two never collide.

#![allow(missing_docs)]

use std::ffi::c_int;

pub type MPI_Comm = usize;
pub type MPI_Datatype = usize;
pub type MPI_Op = usize;
pub type MPI_Errhandler = usize;
pub type MPI_Aint = isize;
pub type MPI_Count = i64;

pub const MPI_VERSION: c_int = 5;
pub const MPI_SUBVERSION: c_int = 0;
pub const MPI_ABI_VERSION: c_int = 1;
pub const MPI_ABI_SUBVERSION: c_int = 0;

pub const MPI_COMM_NULL: MPI_Comm = 0x100;
pub const MPI_COMM_WORLD: MPI_Comm = 0x101;
pub const MPI_COMM_SELF: MPI_Comm = 0x102;

pub const MPI_ERRHANDLER_NULL: MPI_Errhandler = 0x140;
pub const MPI_ERRORS_ARE_FATAL: MPI_Errhandler = 0x141;
pub const MPI_ERRORS_RETURN: MPI_Errhandler = 0x142;
pub const MPI_ERRORS_ABORT: MPI_Errhandler = 0x143;

pub const MPI_OP_NULL: MPI_Op = 0x20;
pub const MPI_DATATYPE_NULL: MPI_Datatype = 0x200;

/// The NULL handle of each handle type (what `MPI_<T>_fromint` returns for an unknown value).
pub const MPI_GROUP_NULL: usize = 0x108;
pub const MPI_WIN_NULL: usize = 0x110;
pub const MPI_FILE_NULL: usize = 0x118;
pub const MPI_SESSION_NULL: usize = 0x120;
pub const MPI_MESSAGE_NULL: usize = 0x128;
pub const MPI_INFO_NULL: usize = 0x130;
pub const MPI_REQUEST_NULL: usize = 0x180;

pub const MPI_SUCCESS: c_int = 0;
pub const MPI_ERR_BUFFER: c_int = 1;
pub const MPI_ERR_COUNT: c_int = 2;
pub const MPI_ERR_TYPE: c_int = 3;
pub const MPI_ERR_TAG: c_int = 4;
pub const MPI_ERR_COMM: c_int = 5;
pub const MPI_ERR_RANK: c_int = 6;
pub const MPI_ERR_REQUEST: c_int = 7;
pub const MPI_ERR_ROOT: c_int = 8;
pub const MPI_ERR_GROUP: c_int = 9;
pub const MPI_ERR_OP: c_int = 10;
pub const MPI_ERR_TOPOLOGY: c_int = 11;
pub const MPI_ERR_DIMS: c_int = 12;
pub const MPI_ERR_ARG: c_int = 13;
pub const MPI_ERR_UNKNOWN: c_int = 14;
pub const MPI_ERR_TRUNCATE: c_int = 15;
pub const MPI_ERR_OTHER: c_int = 16;
pub const MPI_ERR_INTERN: c_int = 17;
pub const MPI_ERR_PENDING: c_int = 18;
pub const MPI_ERR_IN_STATUS: c_int = 19;
pub const MPI_ERR_NO_MEM: c_int = 39;
pub const MPI_ERR_SPAWN: c_int = 53;
pub const MPI_ERR_UNSUPPORTED_OPERATION: c_int = 55;
pub const MPI_ERR_PROC_ABORTED: c_int = 58;
pub const MPI_ERR_VALUE_TOO_LARGE: c_int = 59;
pub const MPI_ERR_ERRHANDLER: c_int = 61;
pub const MPI_ERR_ASSERT: c_int = 22;
pub const MPI_ERR_DISP: c_int = 26;
pub const MPI_ERR_LOCKTYPE: c_int = 37;
pub const MPI_ERR_RMA_RANGE: c_int = 48;
pub const MPI_ERR_RMA_SYNC: c_int = 50;
pub const MPI_ERR_SIZE: c_int = 52;
pub const MPI_ERR_WIN: c_int = 56;
pub const MPI_ERR_RMA_FLAVOR: c_int = 57;
pub const MPI_ERR_LASTCODE: c_int = 0x3fff;

pub const MPI_BOTTOM: usize = 0;
pub const MPI_IN_PLACE: usize = 1;

pub const MPI_MAX_ERROR_STRING: usize = 512;
pub const MPI_MAX_LIBRARY_VERSION_STRING: usize = 8192;
pub const MPI_MAX_PROCESSOR_NAME: usize = 256;

pub const MPI_ANY_SOURCE: c_int = -1;
pub const MPI_ANY_TAG: c_int = -2;
pub const MPI_PROC_NULL: c_int = -3;
pub const MPI_ROOT: c_int = -4;
pub const MPI_UNDEFINED: c_int = -32766;

pub const MPI_THREAD_SINGLE: c_int = 0;
pub const MPI_THREAD_FUNNELED: c_int = 1024;
pub const MPI_THREAD_SERIALIZED: c_int = 2048;
pub const MPI_THREAD_MULTIPLE: c_int = 4096;

/// The value of `name` in the spec table `mpi/spec/constants.txt` (decimal or `0x` hex), for
/// the tests that check the shim's constants against it; panics if it is not there.
#[cfg(test)]
pub(crate) fn spec_value(name: &str) -> i64 {
    static TABLE: &str = include_str!("../spec/constants.txt");
    let v = TABLE
        .lines()
        .find(|l| l.split_whitespace().next() == Some(name))
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap_or_else(|| panic!("{name} not in the spec"));
    match v.strip_prefix("0x") {
        Some(h) => i64::from_str_radix(h, 16).expect("hex"),
        None => v.parse().expect("int"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The values above against the spec table they are copied from.
    #[test]
    fn values_match_the_spec_table() {
        let value = spec_value;
        let checks: &[(&str, i64)] = &[
            ("MPI_COMM_NULL", MPI_COMM_NULL as i64),
            ("MPI_COMM_WORLD", MPI_COMM_WORLD as i64),
            ("MPI_COMM_SELF", MPI_COMM_SELF as i64),
            ("MPI_ERRHANDLER_NULL", MPI_ERRHANDLER_NULL as i64),
            ("MPI_ERRORS_ARE_FATAL", MPI_ERRORS_ARE_FATAL as i64),
            ("MPI_ERRORS_RETURN", MPI_ERRORS_RETURN as i64),
            ("MPI_ERRORS_ABORT", MPI_ERRORS_ABORT as i64),
            ("MPI_OP_NULL", MPI_OP_NULL as i64),
            ("MPI_DATATYPE_NULL", MPI_DATATYPE_NULL as i64),
            ("MPI_GROUP_NULL", MPI_GROUP_NULL as i64),
            ("MPI_FILE_NULL", MPI_FILE_NULL as i64),
            ("MPI_SESSION_NULL", MPI_SESSION_NULL as i64),
            ("MPI_MESSAGE_NULL", MPI_MESSAGE_NULL as i64),
            ("MPI_INFO_NULL", MPI_INFO_NULL as i64),
            ("MPI_REQUEST_NULL", MPI_REQUEST_NULL as i64),
            ("MPI_ERR_BUFFER", MPI_ERR_BUFFER as i64),
            ("MPI_ERR_COUNT", MPI_ERR_COUNT as i64),
            ("MPI_ERR_RANK", MPI_ERR_RANK as i64),
            ("MPI_ERR_ARG", MPI_ERR_ARG as i64),
            ("MPI_ERR_TRUNCATE", MPI_ERR_TRUNCATE as i64),
            ("MPI_ERR_INTERN", MPI_ERR_INTERN as i64),
            ("MPI_ERR_NO_MEM", MPI_ERR_NO_MEM as i64),
            ("MPI_ERR_ASSERT", MPI_ERR_ASSERT as i64),
            ("MPI_ERR_DISP", MPI_ERR_DISP as i64),
            ("MPI_ERR_LOCKTYPE", MPI_ERR_LOCKTYPE as i64),
            ("MPI_ERR_RMA_RANGE", MPI_ERR_RMA_RANGE as i64),
            ("MPI_ERR_RMA_SYNC", MPI_ERR_RMA_SYNC as i64),
            ("MPI_ERR_SIZE", MPI_ERR_SIZE as i64),
            ("MPI_ERR_WIN", MPI_ERR_WIN as i64),
            ("MPI_ERR_RMA_FLAVOR", MPI_ERR_RMA_FLAVOR as i64),
            (
                "MPI_ERR_UNSUPPORTED_OPERATION",
                MPI_ERR_UNSUPPORTED_OPERATION as i64,
            ),
            ("MPI_ERR_PROC_ABORTED", MPI_ERR_PROC_ABORTED as i64),
            ("MPI_ERR_ERRHANDLER", MPI_ERR_ERRHANDLER as i64),
            ("MPI_ERR_LASTCODE", MPI_ERR_LASTCODE as i64),
            ("MPI_ANY_SOURCE", MPI_ANY_SOURCE as i64),
            ("MPI_ANY_TAG", MPI_ANY_TAG as i64),
            ("MPI_PROC_NULL", MPI_PROC_NULL as i64),
            ("MPI_UNDEFINED", MPI_UNDEFINED as i64),
            ("MPI_THREAD_MULTIPLE", MPI_THREAD_MULTIPLE as i64),
            ("MPI_THREAD_FUNNELED", MPI_THREAD_FUNNELED as i64),
            ("MPI_IN_PLACE", MPI_IN_PLACE as i64),
            ("MPI_MAX_ERROR_STRING", MPI_MAX_ERROR_STRING as i64),
            ("MPI_MAX_PROCESSOR_NAME", MPI_MAX_PROCESSOR_NAME as i64),
        ];
        for (name, v) in checks {
            assert_eq!(value(name), *v, "{name}");
        }
    }
}
