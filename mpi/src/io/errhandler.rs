//! Error handlers on files: `MPI_File_set_errhandler`, `MPI_File_get_errhandler`,
//! `MPI_File_create_errhandler`, `MPI_File_call_errhandler`. A file starts with the handler
//! set on `MPI_FILE_NULL` when it is opened (`MPI_ERRORS_RETURN` unless changed, as MPI
//! 4.1 §14.7 says); that handler also reports the calls that have no file (`MPI_File_open`,
//! `MPI_File_delete`). User handlers share the table of [`crate::errors::handlers`].

use super::file::{call, file, raise, set_errhandler};
use super::*;
use crate::consts::*;
use crate::errors::handlers::{errhandler_live, new_user_errhandler, retain_errhandler};
use crate::errors::report::{MpiError, describe, non_null};

/// `MPI_File_errhandler_function`: `void f(MPI_File *file, int *error_code, ...)`.
pub type FileErrhandlerFn = unsafe extern "C" fn(*mut MPI_File, *mut c_int, ...);

mpi_fn! {
    /// Sets the error handler of `file` (`MPI_FILE_NULL`: of files opened from now on and of
    /// the calls without a file): `MPI_ERRORS_RETURN`, `MPI_ERRORS_ARE_FATAL`,
    /// `MPI_ERRORS_ABORT` or one made by `MPI_File_create_errhandler`. Local, thread-safe.
    /// Errors: `MPI_ERR_FILE`, `MPI_ERR_ERRHANDLER`.
    fn MPI_File_set_errhandler(fh: MPI_File, errhandler: MPI_Errhandler) -> c_int
        => PMPI_File_set_errhandler
    {
        call("MPI_File_set_errhandler", fh, || {
            if !matches!(errhandler, MPI_ERRORS_ARE_FATAL | MPI_ERRORS_RETURN | MPI_ERRORS_ABORT)
                && !errhandler_live(errhandler)
            {
                return Err(MpiError::new(
                    MPI_ERR_ERRHANDLER,
                    format!("invalid error handler {errhandler:#x}"),
                ));
            }
            set_errhandler(fh, errhandler)
        })
    }

    /// Writes the error handler of `file` (or the one of `MPI_FILE_NULL`); the caller frees a
    /// user handler with `MPI_Errhandler_free`. Local, thread-safe. Errors: `MPI_ERR_FILE`,
    /// `MPI_ERR_ARG`.
    fn MPI_File_get_errhandler(fh: MPI_File, errhandler: *mut MPI_Errhandler) -> c_int
        => PMPI_File_get_errhandler
    {
        call("MPI_File_get_errhandler", fh, || {
            non_null(errhandler, "errhandler")?;
            if fh != MPI_FILE_NULL {
                file(fh)?;
            }
            let h = super::file::errhandler_of(fh);
            retain_errhandler(h);
            // SAFETY: checked for NULL.
            unsafe { errhandler.write(h) };
            Ok(())
        })
    }

    /// A new error handler calling `file_errhandler_fn(&file, &code)` for the errors raised on
    /// the files it is set on (the caller frees it with `MPI_Errhandler_free`). Local,
    /// thread-safe. Errors (through `MPI_FILE_NULL`'s handler): `MPI_ERR_ARG`, `MPI_ERR_NO_MEM`.
    fn MPI_File_create_errhandler(file_errhandler_fn: Option<FileErrhandlerFn>,
        errhandler: *mut MPI_Errhandler) -> c_int => PMPI_File_create_errhandler
    {
        call("MPI_File_create_errhandler", MPI_FILE_NULL, || {
            non_null(errhandler, "errhandler")?;
            let f = file_errhandler_fn.ok_or_else(|| {
                MpiError::new(MPI_ERR_ARG, "argument `file_errhandler_fn` is NULL")
            })?;
            let h = new_user_errhandler(f)?;
            // SAFETY: checked for NULL.
            unsafe { errhandler.write(h) };
            Ok(())
        })
    }

    /// Invokes the error handler of `file` (or `MPI_FILE_NULL`'s) with `errorcode` as if an
    /// I/O call on it had raised it; returns `MPI_SUCCESS` when the handler returns. Local.
    /// Errors: `MPI_ERR_FILE`.
    fn MPI_File_call_errhandler(fh: MPI_File, errorcode: c_int) -> c_int
        => PMPI_File_call_errhandler
    {
        let checked = call("MPI_File_call_errhandler", fh, || {
            if fh != MPI_FILE_NULL {
                file(fh)?;
            }
            Ok(())
        });
        if checked != MPI_SUCCESS {
            return checked;
        }
        let text = match crate::errors::codes::string_of_added(errorcode) {
            Some(s) if !s.is_empty() => s,
            Some(_) => format!("user error code {errorcode}"),
            None => describe(errorcode).to_string(),
        };
        raise("MPI_File_call_errhandler", fh, MpiError::new(errorcode, text));
        MPI_SUCCESS
    }
}
