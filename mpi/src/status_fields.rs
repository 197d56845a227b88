//! Reading and setting the fields of an `MPI_Status` (`MPI_Status_get_source` / `_tag` /
//! `_error`, `MPI_Status_set_source` / `_tag` / `_error` / `_cancelled`): what programs and
//! layered libraries (mpi4py's `Status` objects, generalized requests) use instead of touching
//! the fields directly.

use crate::consts::*;
use crate::error::{Result, call, non_null};
use crate::status::MPI_Status;
use std::ffi::c_int;

/// Reads one field of `*status` into `*out`.
fn get(
    status: *const MPI_Status,
    out: *mut c_int,
    what: &str,
    field: fn(&MPI_Status) -> c_int,
) -> Result<()> {
    non_null(status, "status")?;
    non_null(out, what)?;
    // SAFETY: both checked for NULL; readable / writable per the MPI contract.
    unsafe { out.write(field(&status.read())) };
    Ok(())
}

/// Changes one field of `*status`.
fn set(status: *mut MPI_Status, update: impl FnOnce(&mut MPI_Status)) -> Result<()> {
    non_null(status, "status")?;
    // SAFETY: checked for NULL; a writable status per the MPI contract.
    update(unsafe { &mut *status });
    Ok(())
}

mpi_fn! {
    /// The `MPI_SOURCE` field of `status`.
    fn MPI_Status_get_source(status: *const MPI_Status, source: *mut c_int) -> c_int
        => PMPI_Status_get_source
    {
        call("MPI_Status_get_source", MPI_COMM_WORLD, || {
            get(status, source, "source", |s| s.MPI_SOURCE)
        })
    }

    /// The `MPI_TAG` field of `status`.
    fn MPI_Status_get_tag(status: *const MPI_Status, tag: *mut c_int) -> c_int
        => PMPI_Status_get_tag
    {
        call("MPI_Status_get_tag", MPI_COMM_WORLD, || get(status, tag, "tag", |s| s.MPI_TAG))
    }

    /// The `MPI_ERROR` field of `status`.
    fn MPI_Status_get_error(status: *const MPI_Status, error: *mut c_int) -> c_int
        => PMPI_Status_get_error
    {
        call("MPI_Status_get_error", MPI_COMM_WORLD, || {
            get(status, error, "error", |s| s.MPI_ERROR)
        })
    }

    /// Sets the `MPI_SOURCE` field of `status`.
    fn MPI_Status_set_source(status: *mut MPI_Status, source: c_int) -> c_int
        => PMPI_Status_set_source
    {
        call("MPI_Status_set_source", MPI_COMM_WORLD, || set(status, |s| s.MPI_SOURCE = source))
    }

    /// Sets the `MPI_TAG` field of `status`.
    fn MPI_Status_set_tag(status: *mut MPI_Status, tag: c_int) -> c_int
        => PMPI_Status_set_tag
    {
        call("MPI_Status_set_tag", MPI_COMM_WORLD, || set(status, |s| s.MPI_TAG = tag))
    }

    /// Sets the `MPI_ERROR` field of `status`.
    fn MPI_Status_set_error(status: *mut MPI_Status, error: c_int) -> c_int
        => PMPI_Status_set_error
    {
        call("MPI_Status_set_error", MPI_COMM_WORLD, || set(status, |s| s.MPI_ERROR = error))
    }
}
