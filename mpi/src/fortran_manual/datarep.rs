//! `MPI_REGISTER_DATAREP` with a Fortran extent procedure; `MPI_CONVERSION_FN_NULL`. See [`super`].

use crate::fortran_support::{self as fs, fortran_fn};
use crate::handles::*;
use std::ffi::{c_char, c_int, c_void};
/// Fortran's `MPI_CONVERSION_FN_NULL`: a subroutine of the library that stands for "no
/// conversion" (never called: [`mpi_register_datarep_`] recognises its address).
///
/// # Safety
/// Never called by MPI; harmless if a program calls it.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mpi_conversion_fn_null_() {}

/// Whether the procedure at `f` is Fortran's `MPI_CONVERSION_FN_NULL` (the library's, or the
/// one the dynamic linker binds the name to) or absent.
fn no_conversion(f: *const c_void) -> bool {
    static BOUND: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    let bound = *BOUND.get_or_init(|| {
        // SAFETY: dlsym with a NUL-terminated name; a missing symbol gives NULL.
        unsafe { libc::dlsym(libc::RTLD_DEFAULT, c"mpi_conversion_fn_null_".as_ptr()) as usize }
    });
    let own = mpi_conversion_fn_null_ as *const () as *const c_void;
    f.is_null() || std::ptr::eq(f, own) || f as usize == bound
}

/// Fortran's `SUBROUTINE EXTENT(DATATYPE, EXTENT, EXTRA_STATE, IERROR)`.
type FortranExtent = unsafe extern "C" fn(*const c_int, *mut isize, *const isize, *mut c_int);

/// The C extra state of a data representation registered from Fortran (kept for the life of
/// the process, as the registration).
struct FortranDatarep {
    extent: FortranExtent,
    extra: isize,
}

/// Calls the Fortran extent procedure with the datatype's INTEGER handle.
///
/// # Safety
/// `state` is a [`FortranDatarep`] this module made; `extent` the I/O layer's.
unsafe extern "C" fn datarep_extent(dt: usize, extent: *mut isize, state: *mut c_void) -> c_int {
    // SAFETY: the contract above.
    unsafe {
        let d = &*(state as *const FortranDatarep);
        let (h, mut ierr) = (PMPI_Type_toint(dt), 0 as c_int);
        (d.extent)(&h, extent, &d.extra, &mut ierr);
        ierr
    }
}

unsafe extern "C" {
    fn MPI_Register_datarep(
        datarep: *const c_char,
        read: *const c_void,
        write: *const c_void,
        extent: Option<unsafe extern "C" fn(usize, *mut isize, *mut c_void) -> c_int>,
        extra: *mut c_void,
    ) -> c_int;
    fn PMPI_Register_datarep(
        datarep: *const c_char,
        read: *const c_void,
        write: *const c_void,
        extent: Option<unsafe extern "C" fn(usize, *mut isize, *mut c_void) -> c_int>,
        extra: *mut c_void,
    ) -> c_int;
}

fortran_fn! {
    /// Fortran binding of `MPI_Register_datarep`: `(DATAREP, READ_CONVERSION_FN,
    /// WRITE_CONVERSION_FN, DTYPE_FILE_EXTENT_FN, EXTRA_STATE, IERROR)` and the hidden length;
    /// `MPI_CONVERSION_FN_NULL` means no conversion, and the extent procedure gets INTEGER
    /// datatype handles.
    mpi_register_datarep_ / pmpi_register_datarep_ => MPI_Register_datarep / PMPI_Register_datarep,
    |c| (datarep: *const u8, read_fn: *const c_void, write_fn: *const c_void,
         extent_fn: Option<FortranExtent>, extra_state: *const isize, ierror: *mut c_int,
         datarep_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let name = fs::string_in(datarep, datarep_len);
            let conv = |f: *const c_void| if no_conversion(f) { std::ptr::null() } else { f };
            let (state, tramp) = match extent_fn {
                Some(extent) => (
                    Box::into_raw(Box::new(FortranDatarep {
                        extent,
                        extra: fs::get(extra_state),
                    }))
                    .cast::<c_void>(),
                    Some(datarep_extent as unsafe extern "C" fn(usize, *mut isize, *mut c_void) -> c_int),
                ),
                None => (std::ptr::null_mut(), None),
            };
            let rc = c(name.as_ptr(), conv(read_fn), conv(write_fn), tramp, state);
            if rc != 0 && !state.is_null() {
                drop(Box::from_raw(state.cast::<FortranDatarep>()));
            }
            fs::set(ierror, rc);
        }
    }
}
