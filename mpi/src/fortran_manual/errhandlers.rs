//! Error handlers made from Fortran: they get INTEGER handles. See [`super`].

use crate::consts::{MPI_COMM_WORLD, MPI_ERR_ARG, MPI_FILE_NULL};
use crate::errors::handlers::{CommErrhandlerFn, FortranHandle, new_fortran_errhandler};
use crate::errors::report::MpiError;
use crate::fortran_support as fs;
use crate::handles::*;
use std::ffi::c_int;
/// Registers Fortran error handler `f` for objects of `kind` and writes its INTEGER handle.
///
/// # Safety
/// `errhandler` and `ierror` are the Fortran caller's INTEGERs; `f` a Fortran subroutine
/// `(OBJ, ERROR_CODE)`.
unsafe fn create_errhandler(
    name: &str,
    f: Option<CommErrhandlerFn>,
    kind: FortranHandle,
    errhandler: *mut c_int,
    ierror: *mut c_int,
) {
    let body = || {
        let f = f.ok_or_else(|| MpiError::new(MPI_ERR_ARG, "the handler procedure is NULL"))?;
        let h = new_fortran_errhandler(f, kind)?;
        // SAFETY: the caller's INTEGER (the contract).
        unsafe { fs::set(errhandler, PMPI_Errhandler_toint(h)) };
        Ok(())
    };
    // Reported as the C functions report: files through MPI_FILE_NULL's handler.
    let rc = match kind {
        FortranHandle::File => crate::io::file::call(name, MPI_FILE_NULL, body),
        _ => crate::errors::report::call(name, MPI_COMM_WORLD, body),
    };
    // SAFETY: the caller's INTEGER (the contract).
    unsafe { fs::set(ierror, rc) };
}

/// Fortran bindings of the error handler constructors: `(FUNCTION, ERRHANDLER, IERROR)`, the
/// procedure a `SUBROUTINE HANDLER(OBJ, ERROR_CODE)` that gets the object's INTEGER handle.
macro_rules! create_errhandler {
    ($($f:ident / $pf:ident: $name:literal, $kind:ident;)*) => {$(
        #[doc = concat!("Fortran binding of `", $name, "` (the handler gets INTEGER handles).")]
        ///
        /// # Safety
        /// The arguments are the Fortran caller's: a subroutine and INTEGER variables.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $f(f: Option<CommErrhandlerFn>, errhandler: *mut c_int,
            ierror: *mut c_int)
        {
            // SAFETY: the caller's contract.
            unsafe { create_errhandler($name, f, FortranHandle::$kind, errhandler, ierror) }
        }

        #[doc = concat!("Profiling entry point of [`", stringify!($f), "`].")]
        ///
        /// # Safety
        /// As the non-profiling twin.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $pf(f: Option<CommErrhandlerFn>, errhandler: *mut c_int,
            ierror: *mut c_int)
        {
            // SAFETY: the caller's contract.
            unsafe { create_errhandler($name, f, FortranHandle::$kind, errhandler, ierror) }
        }
    )*};
}

create_errhandler! {
    mpi_comm_create_errhandler_ / pmpi_comm_create_errhandler_:
        "MPI_Comm_create_errhandler", Comm;
    mpi_win_create_errhandler_ / pmpi_win_create_errhandler_:
        "MPI_Win_create_errhandler", Win;
    mpi_file_create_errhandler_ / pmpi_file_create_errhandler_:
        "MPI_File_create_errhandler", File;
    mpi_session_create_errhandler_ / pmpi_session_create_errhandler_:
        "MPI_Session_create_errhandler", Session;
}
