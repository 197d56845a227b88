//! `MPI_Register_datarep` and its `_c` form: user data representations.
//!
//! A registration is kept for the life of the process (MPI has no way to remove one);
//! registering a name twice, or a predefined one (`native`, `internal`, `external32`), raises
//! `MPI_ERR_DUP_DATAREP`. A view may use a registered representation whose conversion
//! functions are both `MPI_CONVERSION_FN_NULL` (the data is then stored as in memory) and
//! whose extent function gives the native extent of the view's etype; one with conversion
//! functions raises `MPI_ERR_UNSUPPORTED_DATAREP` at `MPI_File_set_view` (calling user
//! conversion functions is not implemented). Errors go through `MPI_FILE_NULL`'s handler.

use super::file::call;
use super::*;
use crate::consts::*;
use crate::errors::report::{MpiError, Result, non_null};
use parking_lot::Mutex;
use std::ffi::{CStr, c_char, c_void};

/// `MPI_Datarep_extent_function`: the file extent of a predefined datatype.
pub type ExtentFn = unsafe extern "C" fn(MPI_Datatype, *mut MPI_Aint, *mut c_void) -> c_int;

/// A registered data representation.
struct Datarep {
    name: &'static str,
    converts: bool,
    extent_fn: Option<ExtentFn>,
    extra_state: usize,
}

static DATAREPS: Mutex<Vec<Datarep>> = Mutex::new(Vec::new());

fn register(
    datarep: *const c_char,
    converts: bool,
    extent_fn: Option<ExtentFn>,
    extra_state: *mut c_void,
) -> Result<()> {
    non_null(datarep, "datarep")?;
    // SAFETY: non-NULL, NUL-terminated per the MPI contract.
    let name = unsafe { CStr::from_ptr(datarep) }
        .to_string_lossy()
        .into_owned();
    if name.is_empty() || name.len() >= MPI_MAX_DATAREP_STRING {
        return Err(MpiError::new(
            MPI_ERR_ARG,
            format!("data representation name of {} bytes", name.len()),
        ));
    }
    let mut reps = DATAREPS.lock();
    if matches!(name.as_str(), "native" | "internal" | "external32")
        || reps.iter().any(|r| r.name == name)
    {
        return Err(MpiError::new(
            MPI_ERR_DUP_DATAREP,
            format!("data representation `{name}` is already defined"),
        ));
    }
    reps.push(Datarep {
        name: Box::leak(name.into_boxed_str()),
        converts,
        extent_fn,
        extra_state: extra_state as usize,
    });
    Ok(())
}

/// The registered representation `name` as a view may use it (see the module documentation),
/// checked against `etype` (its handle and native extent); `None` if `name` is not registered.
pub fn usable(name: &str, etype: MPI_Datatype, extent: MPI_Aint) -> Result<Option<&'static str>> {
    let reps = DATAREPS.lock();
    let Some(r) = reps.iter().find(|r| r.name == name) else {
        return Ok(None);
    };
    let unsupported = |why: String| {
        Err(MpiError::new(
            MPI_ERR_UNSUPPORTED_DATAREP,
            format!("data representation `{name}`: {why}"),
        ))
    };
    if r.converts {
        return unsupported("user conversion functions are not supported".into());
    }
    if let Some(f) = r.extent_fn
        && crate::datatype::predefined::is_predefined(etype)
    {
        let mut e: MPI_Aint = 0;
        // SAFETY: the user's function, called as the standard describes.
        let rc = unsafe { f(etype, &raw mut e, r.extra_state as *mut c_void) };
        if rc != MPI_SUCCESS || e != extent {
            return unsupported(format!(
                "its extent of the etype is {e} bytes, not the native {extent}"
            ));
        }
    }
    Ok(Some(r.name))
}

mpi_fn! {
    /// Registers data representation `datarep` with its read and write conversion functions
    /// (`MPI_CONVERSION_FN_NULL`: none) and its extent function; see the module documentation
    /// for which registered representations a view may use. Local, thread-safe. Errors
    /// (through `MPI_FILE_NULL`'s handler): `MPI_ERR_DUP_DATAREP`, `MPI_ERR_ARG`.
    fn MPI_Register_datarep(datarep: *const c_char, read_conversion_fn: *const c_void,
        write_conversion_fn: *const c_void, dtype_file_extent_fn: Option<ExtentFn>,
        extra_state: *mut c_void) -> c_int => PMPI_Register_datarep
    {
        call("MPI_Register_datarep", MPI_FILE_NULL, || {
            let converts = !read_conversion_fn.is_null() || !write_conversion_fn.is_null();
            register(datarep, converts, dtype_file_extent_fn, extra_state)
        })
    }

    /// Large-count `MPI_Register_datarep`.
    fn MPI_Register_datarep_c(datarep: *const c_char, read_conversion_fn: *const c_void,
        write_conversion_fn: *const c_void, dtype_file_extent_fn: Option<ExtentFn>,
        extra_state: *mut c_void) -> c_int => PMPI_Register_datarep_c
    {
        call("MPI_Register_datarep_c", MPI_FILE_NULL, || {
            let converts = !read_conversion_fn.is_null() || !write_conversion_fn.is_null();
            register(datarep, converts, dtype_file_extent_fn, extra_state)
        })
    }
}
