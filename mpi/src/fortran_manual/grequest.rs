//! Generalized requests with Fortran query, free and cancel procedures. See [`super`].

use crate::fortran_support::{self as fs, fortran_fn};
use crate::handles::*;
use crate::request::status::MPI_Status;
use std::ffi::{c_int, c_void};
/// Fortran's `SUBROUTINE QUERY(EXTRA_STATE, STATUS, IERROR)`.
type FortranQuery = unsafe extern "C" fn(*const isize, *mut c_int, *mut c_int);
/// Fortran's `SUBROUTINE FREE(EXTRA_STATE, IERROR)`.
type FortranFree = unsafe extern "C" fn(*const isize, *mut c_int);
/// Fortran's `SUBROUTINE CANCEL(EXTRA_STATE, COMPLETE, IERROR)` (`COMPLETE` a LOGICAL).
type FortranCancel = unsafe extern "C" fn(*const isize, *const c_int, *mut c_int);

/// The C extra state of a generalized request started from Fortran: its procedures and the
/// program's extra state. Freed after the free procedure ran.
struct FortranGrequest {
    query: Option<FortranQuery>,
    free: Option<FortranFree>,
    cancel: Option<FortranCancel>,
    extra: isize,
}

/// Calls the Fortran query procedure: a Fortran status is the C `MPI_Status`'s INTEGERs
/// (`MPI_STATUS_SIZE` of them, the standard ABI's layout), so the status goes as it is.
///
/// # Safety
/// `state` is a [`FortranGrequest`] this module made; `status` the request layer's.
unsafe extern "C" fn grequest_query(state: *mut c_void, status: *mut MPI_Status) -> c_int {
    // SAFETY: the contract above.
    unsafe {
        let g = &*(state as *const FortranGrequest);
        let Some(f) = g.query else { return 0 };
        let mut ierr: c_int = 0;
        f(&g.extra, status.cast(), &mut ierr);
        ierr
    }
}

/// Calls the Fortran free procedure, then releases the state.
///
/// # Safety
/// As [`grequest_query`]; the state is not used again.
unsafe extern "C" fn grequest_free(state: *mut c_void) -> c_int {
    // SAFETY: the contract above.
    unsafe {
        let g = Box::from_raw(state as *mut FortranGrequest);
        let mut ierr: c_int = 0;
        if let Some(f) = g.free {
            f(&g.extra, &mut ierr);
        }
        ierr
    }
}

/// Calls the Fortran cancel procedure.
///
/// # Safety
/// As [`grequest_query`].
unsafe extern "C" fn grequest_cancel(state: *mut c_void, complete: c_int) -> c_int {
    // SAFETY: the contract above.
    unsafe {
        let g = &*(state as *const FortranGrequest);
        let Some(f) = g.cancel else { return 0 };
        let (flag, mut ierr) = (fs::logical_from_c(complete), 0 as c_int);
        f(&g.extra, &flag, &mut ierr);
        ierr
    }
}

unsafe extern "C" {
    fn MPI_Grequest_start(
        query: Option<unsafe extern "C" fn(*mut c_void, *mut MPI_Status) -> c_int>,
        free: Option<unsafe extern "C" fn(*mut c_void) -> c_int>,
        cancel: Option<unsafe extern "C" fn(*mut c_void, c_int) -> c_int>,
        extra: *mut c_void,
        request: *mut usize,
    ) -> c_int;
    fn PMPI_Grequest_start(
        query: Option<unsafe extern "C" fn(*mut c_void, *mut MPI_Status) -> c_int>,
        free: Option<unsafe extern "C" fn(*mut c_void) -> c_int>,
        cancel: Option<unsafe extern "C" fn(*mut c_void, c_int) -> c_int>,
        extra: *mut c_void,
        request: *mut usize,
    ) -> c_int;
}

fortran_fn! {
    /// Fortran binding of `MPI_Grequest_start`: `(QUERY_FN, FREE_FN, CANCEL_FN, EXTRA_STATE,
    /// REQUEST, IERROR)`, the procedures Fortran subroutines given `EXTRA_STATE` (an
    /// `INTEGER(KIND=MPI_ADDRESS_KIND)`).
    mpi_grequest_start_ / pmpi_grequest_start_ => MPI_Grequest_start / PMPI_Grequest_start,
    |c| (query_fn: Option<FortranQuery>, free_fn: Option<FortranFree>,
         cancel_fn: Option<FortranCancel>, extra_state: *const isize, request: *mut c_int,
         ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let state = Box::into_raw(Box::new(FortranGrequest {
                query: query_fn,
                free: free_fn,
                cancel: cancel_fn,
                extra: fs::get(extra_state),
            }));
            let mut r = 0usize;
            let rc = c(Some(grequest_query), Some(grequest_free), Some(grequest_cancel),
                state.cast(), &mut r);
            if rc == 0 {
                fs::set(request, PMPI_Request_toint(r));
            } else {
                drop(Box::from_raw(state));
            }
            fs::set(ierror, rc);
        }
    }
}
