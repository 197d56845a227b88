//! Reading and setting the fields of an `MPI_Status` (`MPI_Status_get_source` / `_tag` /
//! `_error`, `MPI_Status_set_source` / `_tag` / `_error` / `_cancelled`): what programs and
//! layered libraries (mpi4py's `Status` objects, generalized requests) use instead of touching
//! the fields directly.

use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
use crate::request::status::MPI_Status;
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

/// Packed bytes of the first `count` primitive elements of `dt`, repeated instance by instance
/// (the inverse of `MPI_Get_elements`).
fn bytes_of_elements(dt: MPI_Datatype, count: MPI_Count) -> Result<usize> {
    let ty = crate::datatype::registry::layout(dt)?;
    let count = usize::try_from(count)
        .map_err(|_| MpiError::new(MPI_ERR_COUNT, format!("element count {count} is negative")))?;
    let per = ty.elements();
    if per == 0 {
        return Ok(0);
    }
    let mut bytes = (count / per)
        .checked_mul(ty.size)
        .ok_or_else(|| MpiError::new(MPI_ERR_COUNT, "element count is too large"))?;
    let mut rem = count % per;
    for &(prim, n) in &ty.sig {
        let per_prim = prim.basic_elements();
        let k = (rem / per_prim).min(n);
        bytes += k * prim.size;
        rem -= k * per_prim;
        if rem == 0 || k < n {
            break;
        }
    }
    Ok(bytes)
}

fn set_elements(status: *mut MPI_Status, dt: MPI_Datatype, count: MPI_Count) -> Result<()> {
    let b = bytes_of_elements(dt, count)? as u64;
    set(status, |s| s.set_bytes(b))
}

mpi_fn! {
    /// Sets `status` so that `MPI_Get_elements(status, datatype)` gives `count` (and
    /// `MPI_Get_count` the matching whole number of `datatype`s, if any).
    fn MPI_Status_set_elements(status: *mut MPI_Status, datatype: MPI_Datatype, count: c_int)
        -> c_int => PMPI_Status_set_elements
    {
        call("MPI_Status_set_elements", MPI_COMM_WORLD, || {
            set_elements(status, datatype, count as MPI_Count)
        })
    }

    /// Large-count [`MPI_Status_set_elements`].
    fn MPI_Status_set_elements_c(status: *mut MPI_Status, datatype: MPI_Datatype,
        count: MPI_Count) -> c_int => PMPI_Status_set_elements_c
    {
        call("MPI_Status_set_elements_c", MPI_COMM_WORLD, || set_elements(status, datatype, count))
    }

    /// Deprecated spelling of [`MPI_Status_set_elements_c`] (MPI 4.1).
    fn MPI_Status_set_elements_x(status: *mut MPI_Status, datatype: MPI_Datatype,
        count: MPI_Count) -> c_int => PMPI_Status_set_elements_x
    {
        call("MPI_Status_set_elements_x", MPI_COMM_WORLD, || set_elements(status, datatype, count))
    }
}
