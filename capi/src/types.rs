//! C-visible types and constants: handles, datatype and op codes, the status struct, error codes
//! and wildcards.

use nexar::{Datatype, Error, ErrorKind, ReduceOp, Result};

/// Opaque communicator object (never dereferenced; handles are checked values).
pub struct nexar_comm {
    _private: [u8; 0],
}

/// Opaque request object (never dereferenced; handles are checked values).
pub struct nexar_request {
    _private: [u8; 0],
}

/// Opaque window object (never dereferenced; handles are checked values).
pub struct nexar_win {
    _private: [u8; 0],
}

/// A one-sided window handle, from `nexar_win_allocate` / `nexar_win_create`, released with
/// `nexar_win_free`.
pub type nexar_win_t = *mut nexar_win;

/// A communicator handle. `NEXAR_COMM_WORLD` and `NEXAR_COMM_SELF` are predefined; others come
/// from `nexar_comm_split` / `nexar_comm_dup` and are released with `nexar_comm_free`.
pub type nexar_comm_t = *mut nexar_comm;

/// A request handle for a non-blocking operation. `NEXAR_REQUEST_NULL` (NULL) is the empty
/// request.
pub type nexar_request_t = *mut nexar_request;

/// A datatype code (`NEXAR_DTYPE_*`).
pub type nexar_datatype_t = i32;

/// A reduction operator code (`NEXAR_OP_*`).
pub type nexar_op_t = i32;

/// What a receive or probe reports.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct nexar_status_t {
    /// Rank of the sender in the communicator.
    pub source: i32,
    /// The message's tag.
    pub tag: i32,
    /// Status of this operation (`NEXAR_SUCCESS`, or e.g. `NEXAR_ERR_TRUNCATED`).
    pub error: i32,
    /// Size of the message in bytes (the full size, even when truncated); see `nexar_get_count`.
    pub count: usize,
}

/// The world communicator (every rank of the job).
pub const NEXAR_COMM_WORLD: nexar_comm_t = 1 as nexar_comm_t;
/// The communicator holding only the calling rank.
pub const NEXAR_COMM_SELF: nexar_comm_t = 2 as nexar_comm_t;
/// The empty request; waiting on it completes at once.
pub const NEXAR_REQUEST_NULL: nexar_request_t = 0 as nexar_request_t;
/// Passed as a send (or, for scatter roots, receive) buffer to mean "the data is already in the
/// other buffer"; see each collective.
#[allow(clippy::manual_dangling_ptr)] // the value 1 is the ABI, not a placeholder
pub const NEXAR_IN_PLACE: *mut std::ffi::c_void = 1 as *mut std::ffi::c_void;

/// Receive from any sender.
pub const NEXAR_ANY_SOURCE: i32 = -1;
/// Receive any tag.
pub const NEXAR_ANY_TAG: i32 = -1;
/// Largest valid tag.
pub const NEXAR_TAG_UB: i32 = i32::MAX;
/// `color` for `nexar_comm_split` meaning "no communicator for me" (like MPI_UNDEFINED).
pub const NEXAR_UNDEFINED: i32 = -32766;

/// Success.
pub const NEXAR_SUCCESS: i32 = 0;
/// An argument is invalid (NULL pointer, inconsistent length, ...).
pub const NEXAR_ERR_ARG: i32 = 1;
/// A rank is outside the communicator.
pub const NEXAR_ERR_RANK: i32 = 2;
/// A root is outside the communicator.
pub const NEXAR_ERR_ROOT: i32 = 3;
/// A count is invalid, overflows or does not match a buffer.
pub const NEXAR_ERR_COUNT: i32 = 4;
/// Unknown datatype code.
pub const NEXAR_ERR_DATATYPE: i32 = 5;
/// Unknown op code, or an op not defined for the datatype.
pub const NEXAR_ERR_OP: i32 = 6;
/// Invalid or freed communicator handle.
pub const NEXAR_ERR_COMM: i32 = 7;
/// Invalid tag.
pub const NEXAR_ERR_TAG: i32 = 8;
/// Message larger than the receive buffer.
pub const NEXAR_ERR_TRUNCATED: i32 = 9;
/// A peer process failed.
pub const NEXAR_ERR_PROC_FAILED: i32 = 10;
/// Mismatched collectives (another collective, count, datatype, op or root, or a blocking call
/// against a non-blocking one) or a protocol violation; `MPIX_ERR_COLL_MISMATCH` in the MPI shim.
pub const NEXAR_ERR_MISMATCH: i32 = 11;
/// Transport failure.
pub const NEXAR_ERR_TRANSPORT: i32 = 12;
/// Authentication failure.
pub const NEXAR_ERR_SECURITY: i32 = 13;
/// Job set-up failure.
pub const NEXAR_ERR_BOOTSTRAP: i32 = 14;
/// Timed out (`NEXAR_TIMEOUT`); `MPIX_ERR_TIMEOUT` in the MPI shim.
pub const NEXAR_ERR_TIMEOUT: i32 = 15;
/// Called after `nexar_finalize`.
pub const NEXAR_ERR_FINALIZED: i32 = 16;
/// Called before `nexar_init`.
pub const NEXAR_ERR_NOT_INITIALIZED: i32 = 17;
/// The request is still pending.
pub const NEXAR_ERR_PENDING: i32 = 18;
/// Not supported.
pub const NEXAR_ERR_UNSUPPORTED: i32 = 19;
/// A resource limit was hit.
pub const NEXAR_ERR_RESOURCE: i32 = 20;
/// The communicator was revoked.
pub const NEXAR_ERR_REVOKED: i32 = 21;
/// Internal error (a bug in nexar).
pub const NEXAR_ERR_INTERNAL: i32 = 22;
/// Invalid or freed request handle.
pub const NEXAR_ERR_REQUEST: i32 = 23;
/// One-sided call outside its synchronization epoch.
pub const NEXAR_ERR_RMA_SYNC: i32 = 24;
/// One-sided access outside the target window.
pub const NEXAR_ERR_RMA_RANGE: i32 = 25;

/// `int8_t`
pub const NEXAR_DTYPE_INT8: nexar_datatype_t = 1;
/// `uint8_t` (also raw bytes)
pub const NEXAR_DTYPE_UINT8: nexar_datatype_t = 2;
/// `int16_t`
pub const NEXAR_DTYPE_INT16: nexar_datatype_t = 3;
/// `uint16_t`
pub const NEXAR_DTYPE_UINT16: nexar_datatype_t = 4;
/// `int32_t`
pub const NEXAR_DTYPE_INT32: nexar_datatype_t = 5;
/// `uint32_t`
pub const NEXAR_DTYPE_UINT32: nexar_datatype_t = 6;
/// `int64_t`
pub const NEXAR_DTYPE_INT64: nexar_datatype_t = 7;
/// `uint64_t`
pub const NEXAR_DTYPE_UINT64: nexar_datatype_t = 8;
/// IEEE binary16 (stored as `uint16_t`)
pub const NEXAR_DTYPE_FLOAT16: nexar_datatype_t = 9;
/// bfloat16 (stored as `uint16_t`)
pub const NEXAR_DTYPE_BFLOAT16: nexar_datatype_t = 10;
/// `float`
pub const NEXAR_DTYPE_FLOAT: nexar_datatype_t = 11;
/// `double`
pub const NEXAR_DTYPE_DOUBLE: nexar_datatype_t = 12;
/// `struct { float v; int i; }` (MINLOC/MAXLOC)
pub const NEXAR_DTYPE_FLOAT_INT: nexar_datatype_t = 13;
/// `struct { double v; int i; }` (MINLOC/MAXLOC)
pub const NEXAR_DTYPE_DOUBLE_INT: nexar_datatype_t = 14;
/// `struct { int v; int i; }` (MINLOC/MAXLOC)
pub const NEXAR_DTYPE_2INT: nexar_datatype_t = 15;
/// `struct { long v; int i; }` (MINLOC/MAXLOC)
pub const NEXAR_DTYPE_LONG_INT: nexar_datatype_t = 16;
/// `struct { short v; int i; }` (MINLOC/MAXLOC)
pub const NEXAR_DTYPE_SHORT_INT: nexar_datatype_t = 17;

/// Sum.
pub const NEXAR_OP_SUM: nexar_op_t = 1;
/// Product.
pub const NEXAR_OP_PROD: nexar_op_t = 2;
/// Minimum.
pub const NEXAR_OP_MIN: nexar_op_t = 3;
/// Maximum.
pub const NEXAR_OP_MAX: nexar_op_t = 4;
/// Logical and.
pub const NEXAR_OP_LAND: nexar_op_t = 5;
/// Logical or.
pub const NEXAR_OP_LOR: nexar_op_t = 6;
/// Logical exclusive or.
pub const NEXAR_OP_LXOR: nexar_op_t = 7;
/// Bitwise and.
pub const NEXAR_OP_BAND: nexar_op_t = 8;
/// Bitwise or.
pub const NEXAR_OP_BOR: nexar_op_t = 9;
/// Bitwise exclusive or.
pub const NEXAR_OP_BXOR: nexar_op_t = 10;
/// Minimum value and its lowest index (pair types).
pub const NEXAR_OP_MINLOC: nexar_op_t = 11;
/// Maximum value and its lowest index (pair types).
pub const NEXAR_OP_MAXLOC: nexar_op_t = 12;

/// Error mode: failing calls return their code (the default).
pub const NEXAR_ERRORS_RETURN: i32 = 0;
/// Error mode: any failing call prints its message and aborts the process.
pub const NEXAR_ERRORS_ABORT: i32 = 1;

/// The datatype for a C code (codes start at 1 so zeroed memory is never a valid type).
pub fn datatype(code: nexar_datatype_t) -> Result<Datatype> {
    u8::try_from(code.wrapping_sub(1))
        .ok()
        .and_then(Datatype::from_u8)
        .ok_or_else(|| {
            Error::new(
                ErrorKind::InvalidDatatype,
                format!("unknown datatype code {code}"),
            )
        })
}

/// The operator for a C code.
pub fn op(code: nexar_op_t) -> Result<ReduceOp> {
    u8::try_from(code.wrapping_sub(1))
        .ok()
        .and_then(ReduceOp::from_u8)
        .ok_or_else(|| Error::new(ErrorKind::InvalidOp, format!("unknown op code {code}")))
}

/// A non-negative rank or root from C.
pub fn rank_arg(r: i32, kind: ErrorKind, what: &str) -> Result<u32> {
    u32::try_from(r).map_err(|_| Error::new(kind, format!("{what} {r} is negative")))
}

/// The C status for a receive outcome.
pub fn status_of(st: &nexar::Status, error: i32) -> nexar_status_t {
    nexar_status_t {
        source: st.source as i32,
        tag: st.tag,
        error,
        count: st.bytes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_codes_match_the_engine() {
        assert_eq!(NEXAR_ERR_ARG, ErrorKind::InvalidArgument.code());
        assert_eq!(NEXAR_ERR_RANK, ErrorKind::InvalidRank.code());
        assert_eq!(NEXAR_ERR_ROOT, ErrorKind::InvalidRoot.code());
        assert_eq!(NEXAR_ERR_COUNT, ErrorKind::InvalidCount.code());
        assert_eq!(NEXAR_ERR_DATATYPE, ErrorKind::InvalidDatatype.code());
        assert_eq!(NEXAR_ERR_OP, ErrorKind::InvalidOp.code());
        assert_eq!(NEXAR_ERR_COMM, ErrorKind::InvalidComm.code());
        assert_eq!(NEXAR_ERR_TAG, ErrorKind::InvalidTag.code());
        assert_eq!(NEXAR_ERR_TRUNCATED, ErrorKind::Truncated.code());
        assert_eq!(NEXAR_ERR_PROC_FAILED, ErrorKind::ProcFailed.code());
        assert_eq!(NEXAR_ERR_MISMATCH, ErrorKind::Mismatch.code());
        assert_eq!(NEXAR_ERR_TRANSPORT, ErrorKind::Transport.code());
        assert_eq!(NEXAR_ERR_SECURITY, ErrorKind::Security.code());
        assert_eq!(NEXAR_ERR_BOOTSTRAP, ErrorKind::Bootstrap.code());
        assert_eq!(NEXAR_ERR_TIMEOUT, ErrorKind::Timeout.code());
        assert_eq!(NEXAR_ERR_FINALIZED, ErrorKind::Finalized.code());
        assert_eq!(NEXAR_ERR_NOT_INITIALIZED, ErrorKind::NotInitialized.code());
        assert_eq!(NEXAR_ERR_PENDING, ErrorKind::Pending.code());
        assert_eq!(NEXAR_ERR_UNSUPPORTED, ErrorKind::Unsupported.code());
        assert_eq!(NEXAR_ERR_RESOURCE, ErrorKind::ResourceExhausted.code());
        assert_eq!(NEXAR_ERR_REVOKED, ErrorKind::Revoked.code());
        assert_eq!(NEXAR_ERR_INTERNAL, ErrorKind::Internal.code());
        assert_eq!(NEXAR_ERR_REQUEST, ErrorKind::InvalidRequest.code());
        assert_eq!(NEXAR_ERR_RMA_SYNC, ErrorKind::RmaSync.code());
        assert_eq!(NEXAR_ERR_RMA_RANGE, ErrorKind::RmaRange.code());
    }

    #[test]
    fn codes_map_onto_every_datatype_and_op() {
        for c in NEXAR_DTYPE_INT8..=NEXAR_DTYPE_SHORT_INT {
            assert_eq!(datatype(c).unwrap() as i32, c - 1);
        }
        for c in NEXAR_OP_SUM..=NEXAR_OP_MAXLOC {
            assert_eq!(op(c).unwrap() as i32, c - 1);
        }
        for bad in [0, -1, 18, i32::MIN, i32::MAX] {
            assert_eq!(
                datatype(bad).unwrap_err().kind(),
                ErrorKind::InvalidDatatype
            );
        }
        for bad in [0, 13, -7] {
            assert_eq!(op(bad).unwrap_err().kind(), ErrorKind::InvalidOp);
        }
    }
}
