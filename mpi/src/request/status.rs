//! `MPI_Status`: its layout (32 bytes: source, tag, error, five internal ints), how the shim
//! fills it (the message size in packed bytes in `MPI_internal[0..2]`), and `MPI_Get_count`
//! (whole elements of any datatype, derived ones included; `MPI_Get_elements` is in
//! [`crate::datatype::query`]).

use crate::args::count;
use crate::consts::*;
use crate::datatype::registry;
use crate::errors::report::{MpiError, Result, call, non_null};
use std::ffi::c_int;

/// The standard ABI's `MPI_Status`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct MPI_Status {
    /// Sender rank.
    pub MPI_SOURCE: c_int,
    /// Message tag.
    pub MPI_TAG: c_int,
    /// Error class of this message.
    pub MPI_ERROR: c_int,
    /// `[0]`, `[1]`: size in bytes (low, high 32 bits); `[2]`: cancelled flag.
    pub MPI_internal: [c_int; 5],
}

const _: () = assert!(size_of::<MPI_Status>() == 32);

impl MPI_Status {
    /// A status for `bytes` bytes from `source` with `tag`.
    pub fn new(source: c_int, tag: c_int, bytes: usize, error: c_int) -> Self {
        let mut st = Self {
            MPI_SOURCE: source,
            MPI_TAG: tag,
            MPI_ERROR: error,
            MPI_internal: [0; 5],
        };
        st.set_bytes(bytes as u64);
        st
    }

    /// The status of a receive from `MPI_PROC_NULL`.
    pub fn proc_null() -> Self {
        Self::new(MPI_PROC_NULL, MPI_ANY_TAG, 0, MPI_SUCCESS)
    }

    /// Message size in bytes.
    pub fn bytes(&self) -> u64 {
        (self.MPI_internal[0] as u32 as u64) | ((self.MPI_internal[1] as u32 as u64) << 32)
    }

    /// Sets the message size in bytes (`MPI_Status_set_elements`).
    pub fn set_bytes(&mut self, b: u64) {
        self.MPI_internal[0] = b as u32 as c_int;
        self.MPI_internal[1] = (b >> 32) as u32 as c_int;
    }
}

/// Writes `st` to `out` unless it is `MPI_STATUS_IGNORE` (NULL), leaving `out`'s `MPI_ERROR`
/// as it was: MPI 4.1 §3.2.5 lets only the multiple-completion calls set that field (and only
/// when they return `MPI_ERR_IN_STATUS`, see [`set_error`]).
pub fn store(out: *mut MPI_Status, st: MPI_Status) {
    if !out.is_null() {
        // SAFETY: not NULL; writable per the MPI contract. Field by field, so the caller's
        // (possibly uninitialised) MPI_ERROR is neither read nor written.
        unsafe {
            (&raw mut (*out).MPI_SOURCE).write(st.MPI_SOURCE);
            (&raw mut (*out).MPI_TAG).write(st.MPI_TAG);
            (&raw mut (*out).MPI_internal).write(st.MPI_internal);
        }
    }
}

/// Writes MPI's empty status to `out` unless it is `MPI_STATUS_IGNORE`: `MPI_ANY_SOURCE`,
/// `MPI_ANY_TAG`, a count of 0 and, unlike [`store`], `MPI_ERROR` set to `MPI_SUCCESS` (MPI 4.1
/// §3.7.3 defines the empty status with all four, and returns it for `MPI_REQUEST_NULL`).
pub fn store_empty(out: *mut MPI_Status) {
    store(out, crate::request::table::empty_status());
    set_error(out, crate::consts::MPI_SUCCESS);
}

/// Sets the `MPI_ERROR` field of `out` unless it is `MPI_STATUS_IGNORE` (for the
/// multiple-completion calls that return `MPI_ERR_IN_STATUS`).
pub fn set_error(out: *mut MPI_Status, error: c_int) {
    if !out.is_null() {
        // SAFETY: not NULL; writable per the MPI contract.
        unsafe { (&raw mut (*out).MPI_ERROR).write(error) };
    }
}

fn get_count(status: *const MPI_Status, dt: MPI_Datatype) -> Result<MPI_Count> {
    non_null(status, "status")?;
    let size = registry::layout(dt)?.size as u64;
    // SAFETY: checked for NULL; readable per the MPI contract.
    let bytes = unsafe { status.read() }.bytes();
    if size == 0 {
        // Every message of a zero-size type holds zero elements.
        return Ok(if bytes == 0 { 0 } else { count(MPI_UNDEFINED) });
    }
    Ok(if bytes % size == 0 {
        (bytes / size) as MPI_Count
    } else {
        count(MPI_UNDEFINED)
    })
}

mpi_fn! {
    /// Number of `datatype` elements in the message `status` describes (`MPI_UNDEFINED` if
    /// not a whole number, or too large for an `int`).
    fn MPI_Get_count(status: *const MPI_Status, dt: MPI_Datatype, count_out: *mut c_int) -> c_int
        => PMPI_Get_count
    {
        call("MPI_Get_count", MPI_COMM_WORLD, || {
            non_null(count_out, "count")?;
            let n = get_count(status, dt)?;
            let n = c_int::try_from(n).unwrap_or(MPI_UNDEFINED);
            // SAFETY: checked for NULL.
            unsafe { count_out.write(n) };
            Ok(())
        })
    }

    /// Large-count `MPI_Get_count`.
    fn MPI_Get_count_c(status: *const MPI_Status, dt: MPI_Datatype, count_out: *mut MPI_Count)
        -> c_int => PMPI_Get_count_c
    {
        call("MPI_Get_count_c", MPI_COMM_WORLD, || {
            non_null(count_out, "count")?;
            let n = get_count(status, dt)?;
            // SAFETY: checked for NULL.
            unsafe { count_out.write(n) };
            Ok(())
        })
    }
}

/// An `MPI_ERR_TRUNCATE` error for a message of `bytes` into `cap` bytes.
pub fn truncated(st: &MPI_Status, cap: usize) -> MpiError {
    MpiError::new(
        MPI_ERR_TRUNCATE,
        format!(
            "message from rank {} with tag {} has {} bytes but the receive buffer holds {cap}",
            st.MPI_SOURCE,
            st.MPI_TAG,
            st.bytes()
        ),
    )
}
