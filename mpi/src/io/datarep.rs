//! `MPI_Register_datarep` and its `_c` form. User data representations are not supported:
//! registering one raises `MPI_ERR_UNSUPPORTED_OPERATION` (saying so), and registering a
//! predefined name (`native`, `internal`, `external32`) raises `MPI_ERR_DUP_DATAREP`, as the
//! standard requires. Errors go through `MPI_FILE_NULL`'s error handler.

use super::file::call;
use super::*;
use crate::consts::*;
use crate::errors::report::{MpiError, Result, non_null};
use std::ffi::{CStr, c_char, c_void};

fn register(datarep: *const c_char) -> Result<()> {
    non_null(datarep, "datarep")?;
    // SAFETY: non-NULL, NUL-terminated per the MPI contract.
    let name = unsafe { CStr::from_ptr(datarep) }.to_string_lossy();
    if matches!(&*name, "native" | "internal" | "external32") {
        return Err(MpiError::new(
            MPI_ERR_DUP_DATAREP,
            format!("data representation `{name}` is predefined"),
        ));
    }
    Err(MpiError::new(
        MPI_ERR_UNSUPPORTED_OPERATION,
        format!("user data representations (`{name}`) are not supported by nexar"),
    ))
}

mpi_fn! {
    /// Would register data representation `datarep` with its conversion functions: nexar
    /// supports `native`, `internal` and `external32` only, so this raises
    /// `MPI_ERR_UNSUPPORTED_OPERATION` (`MPI_ERR_DUP_DATAREP` for a predefined name). Local.
    fn MPI_Register_datarep(datarep: *const c_char, _read_conversion_fn: *const c_void,
        _write_conversion_fn: *const c_void, _dtype_file_extent_fn: *const c_void,
        _extra_state: *mut c_void) -> c_int => PMPI_Register_datarep
    {
        call("MPI_Register_datarep", MPI_FILE_NULL, || register(datarep))
    }

    /// Large-count `MPI_Register_datarep` (likewise unsupported).
    fn MPI_Register_datarep_c(datarep: *const c_char, _read_conversion_fn: *const c_void,
        _write_conversion_fn: *const c_void, _dtype_file_extent_fn: *const c_void,
        _extra_state: *mut c_void) -> c_int => PMPI_Register_datarep_c
    {
        call("MPI_Register_datarep_c", MPI_FILE_NULL, || register(datarep))
    }
}
