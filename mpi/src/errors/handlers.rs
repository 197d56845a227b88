//! Error handlers: the predefined ones (`MPI_ERRORS_ARE_FATAL`, `MPI_ERRORS_RETURN`,
//! `MPI_ERRORS_ABORT`), user ones (`MPI_Comm_create_errhandler`, `MPI_Errhandler_free`), setting
//! and getting a communicator's (`MPI_Comm_set_errhandler`, `MPI_Comm_get_errhandler`), and
//! `MPI_Comm_call_errhandler`.
//!
//! User error handlers are a table of C functions with a reference count
//! (`MPI_Comm_get_errhandler` adds one, `MPI_Errhandler_free` drops one). A handler attached to
//! a communicator keeps working after it is freed; only setting a freed one is an error.
//! [`crate::errors::report::raise`] calls the handler with the communicator and the code, with
//! no lock held (it may call MPI), then returns the code. Which handler a communicator has is
//! kept with it in [`crate::state`].

use crate::consts::*;
use crate::errors::codes::string_of_added;
use crate::errors::report::{MpiError, call, describe, non_null, raise};
use crate::state::{comm, errhandler_of, set_errhandler};
use crate::table::{Table, USER_HANDLES};
use parking_lot::Mutex;
use std::ffi::c_int;

/// `MPI_Comm_errhandler_function`: `void f(MPI_Comm *comm, int *error_code, ...)`.
pub type CommErrhandlerFn = unsafe extern "C" fn(*mut MPI_Comm, *mut c_int, ...);

/// A user error handler and its references.
struct UserHandler {
    f: CommErrhandlerFn,
    /// Made from Fortran: the handle it gets is the Fortran INTEGER of this kind.
    fortran: Option<FortranHandle>,
    refs: usize,
}

/// What a Fortran error handler gets: `SUBROUTINE HANDLER(OBJ, ERROR_CODE)`, both INTEGERs by
/// reference, `OBJ` the INTEGER handle of the object of this kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FortranHandle {
    /// `MPI_Comm_create_errhandler`.
    Comm,
    /// `MPI_Win_create_errhandler`.
    Win,
    /// `MPI_File_create_errhandler`.
    File,
    /// `MPI_Session_create_errhandler`.
    Session,
}

/// Calls user error handler `h` (if it is one) with object `handle` and `code`, as the
/// language that made it expects; false if `h` is no user handler. No lock is held during the
/// call (it may call MPI).
pub fn call_user(h: MPI_Errhandler, handle: usize, code: c_int) -> bool {
    let Some((f, fortran)) = HANDLERS.lock().get(h).map(|u| (u.f, u.fortran)) else {
        return false;
    };
    let mut code = code;
    // SAFETY: a function given to an MPI_*_create_errhandler (C or Fortran) of this kind.
    unsafe {
        match fortran {
            None => {
                let mut c = handle;
                f(&raw mut c, &raw mut code);
            }
            Some(kind) => {
                use crate::handles::*;
                let mut i = match kind {
                    FortranHandle::Comm => PMPI_Comm_toint(handle),
                    FortranHandle::Win => PMPI_Win_toint(handle),
                    FortranHandle::File => PMPI_File_toint(handle),
                    FortranHandle::Session => PMPI_Session_toint(handle),
                };
                f((&raw mut i).cast(), &raw mut code);
            }
        }
    }
    true
}

static HANDLERS: Mutex<Table<UserHandler>> = Mutex::new(Table::new(USER_HANDLES));

/// The function of user error handler `h`, if `h` is one (freed or not).
pub fn user_errhandler(h: MPI_Errhandler) -> Option<CommErrhandlerFn> {
    HANDLERS.lock().get(h).map(|u| u.f)
}

/// Whether `h` is a user error handler with references left (settable on a communicator).
pub fn errhandler_live(h: MPI_Errhandler) -> bool {
    HANDLERS.lock().get(h).is_some_and(|u| u.refs > 0)
}

/// One more reference to `h` if it is a user handler (`MPI_Comm_get_errhandler`).
pub fn retain_errhandler(h: MPI_Errhandler) {
    if let Some(u) = HANDLERS.lock().get_mut(h) {
        u.refs += 1;
    }
}

/// Registers user error handler `f` with one reference (`MPI_Comm_create_errhandler`,
/// `MPI_File_create_errhandler`: both handler kinds take a pointer to a pointer-sized handle
/// and a pointer to the code).
pub fn new_user_errhandler(f: CommErrhandlerFn) -> crate::errors::report::Result<MPI_Errhandler> {
    register(f, None)
}

/// Registers a Fortran error handler of objects of `kind` (the Fortran bindings of the
/// `MPI_*_create_errhandler` functions): it gets the object's INTEGER handle.
pub fn new_fortran_errhandler(
    f: CommErrhandlerFn,
    kind: FortranHandle,
) -> crate::errors::report::Result<MPI_Errhandler> {
    register(f, Some(kind))
}

fn register(
    f: CommErrhandlerFn,
    fortran: Option<FortranHandle>,
) -> crate::errors::report::Result<MPI_Errhandler> {
    HANDLERS
        .lock()
        .insert(UserHandler {
            f,
            fortran,
            refs: 1,
        })
        .ok_or_else(|| MpiError::new(MPI_ERR_NO_MEM, "too many error handlers"))
}

mpi_fn! {
    /// Sets `comm`'s error handler: `MPI_ERRORS_ARE_FATAL`, `MPI_ERRORS_RETURN`,
    /// `MPI_ERRORS_ABORT` or one made by `MPI_Comm_create_errhandler`.
    fn MPI_Comm_set_errhandler(comm_h: MPI_Comm, errhandler: MPI_Errhandler) -> c_int
        => PMPI_Comm_set_errhandler
    {
        call("MPI_Comm_set_errhandler", comm_h, || set_errhandler(comm_h, errhandler))
    }

    /// `comm`'s error handler.
    fn MPI_Comm_get_errhandler(comm_h: MPI_Comm, errhandler: *mut MPI_Errhandler) -> c_int
        => PMPI_Comm_get_errhandler
    {
        call("MPI_Comm_get_errhandler", comm_h, || {
            non_null(errhandler, "errhandler")?;
            comm(comm_h)?;
            let h = errhandler_of(comm_h);
            // The caller owns a reference to a user handler (freed with MPI_Errhandler_free).
            crate::errors::handlers::retain_errhandler(h);
            // SAFETY: checked for NULL.
            unsafe { errhandler.write(h) };
            Ok(())
        })
    }

    /// A new error handler calling `comm_errhandler_fn(&comm, &code)` for the errors raised on
    /// the communicators it is set on.
    fn MPI_Comm_create_errhandler(comm_errhandler_fn: Option<CommErrhandlerFn>,
        errhandler: *mut MPI_Errhandler) -> c_int => PMPI_Comm_create_errhandler
    {
        call("MPI_Comm_create_errhandler", MPI_COMM_WORLD, || {
            crate::errors::report::non_null(errhandler, "errhandler")?;
            let f = comm_errhandler_fn.ok_or_else(|| {
                MpiError::new(MPI_ERR_ARG, "argument `comm_errhandler_fn` is NULL")
            })?;
            let h = new_user_errhandler(f)?;
            // SAFETY: checked for NULL.
            unsafe { errhandler.write(h) };
            Ok(())
        })
    }

    /// Drops a reference to an error handler and sets `*errhandler` to
    /// `MPI_ERRHANDLER_NULL`; communicators using it keep it. Predefined handlers may be freed
    /// too (nothing happens to them).
    fn MPI_Errhandler_free(errhandler: *mut MPI_Errhandler) -> c_int => PMPI_Errhandler_free {
        call("MPI_Errhandler_free", MPI_COMM_WORLD, || {
            crate::errors::report::non_null(errhandler, "errhandler")?;
            // SAFETY: checked for NULL.
            let h = unsafe { errhandler.read() };
            if !matches!(h, MPI_ERRORS_ARE_FATAL | MPI_ERRORS_RETURN | MPI_ERRORS_ABORT) {
                let mut t = HANDLERS.lock();
                match t.get_mut(h) {
                    Some(u) if u.refs > 0 => u.refs -= 1,
                    _ => {
                        return Err(MpiError::new(
                            MPI_ERR_ERRHANDLER,
                            format!("invalid or freed error handler {h:#x}"),
                        ))
                    }
                }
            }
            // SAFETY: checked for NULL.
            unsafe { errhandler.write(MPI_ERRHANDLER_NULL) };
            Ok(())
        })
    }

    /// Invokes `comm`'s error handler with `errorcode` (predefined or added) as if an MPI
    /// call on `comm` had raised it; returns `MPI_SUCCESS` when the handler returns.
    fn MPI_Comm_call_errhandler(comm_h: MPI_Comm, errorcode: c_int) -> c_int
        => PMPI_Comm_call_errhandler
    {
        let checked = call("MPI_Comm_call_errhandler", comm_h, || {
            crate::state::comm(comm_h)?;
            Ok(())
        });
        if checked != MPI_SUCCESS {
            return checked;
        }
        let text = match string_of_added(errorcode) {
            Some(s) if !s.is_empty() => s,
            Some(_) => format!("user error code {errorcode}"),
            None => describe(errorcode).to_string(),
        };
        raise("MPI_Comm_call_errhandler", comm_h, MpiError::new(errorcode, text));
        MPI_SUCCESS
    }
}
