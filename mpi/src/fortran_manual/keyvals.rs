//! Keyvals with Fortran copy and delete procedures, and the predefined ones. See [`super`].

use crate::fortran_support::{self as fs, fortran_fn};
use crate::handles::*;
use std::ffi::{c_int, c_void};
/// A Fortran copy callback: `(OLDOBJ, KEYVAL, EXTRA_STATE, ATTRIBUTE_VAL_IN, ATTRIBUTE_VAL_OUT,
/// FLAG, IERROR)`, values of `V` (`INTEGER(KIND=MPI_ADDRESS_KIND)`; default INTEGER for the
/// deprecated `MPI_KEYVAL_CREATE`).
type FortranCopy<V> = unsafe extern "C" fn(
    *const c_int,
    *const c_int,
    *const V,
    *const V,
    *mut V,
    *mut c_int,
    *mut c_int,
);
/// A Fortran delete callback: `(OBJ, KEYVAL, ATTRIBUTE_VAL, EXTRA_STATE, IERROR)`.
type FortranDelete<V> =
    unsafe extern "C" fn(*const c_int, *const c_int, *const V, *const V, *mut c_int);

/// The C copy callback the attribute layer calls (`MPI_Comm_copy_attr_function`'s shape).
type CCopy =
    unsafe extern "C" fn(usize, c_int, *mut c_void, *mut c_void, *mut c_void, *mut c_int) -> c_int;
/// The C delete callback the attribute layer calls.
type CDelete = unsafe extern "C" fn(usize, c_int, *mut c_void, *mut c_void) -> c_int;

/// The C side's extra state of a keyval created from Fortran: the Fortran callbacks and the
/// program's own extra state. Kept for the life of the process (a keyval's callbacks may run
/// after it is freed, while attributes still use it).
struct FortranKeyval<V> {
    copy: Option<FortranCopy<V>>,
    delete: Option<FortranDelete<V>>,
    extra: V,
}

/// The C copy and delete callbacks that call a keyval's Fortran ones, per object kind and
/// value type: they turn the C handle into its Fortran INTEGER and the `void *` value into the
/// Fortran value.
macro_rules! keyval_trampolines {
    ($($copy:ident / $delete:ident: $toint:ident, $v:ty;)*) => {$(
        /// Calls the Fortran copy callback of the keyval whose extra state is `state`.
        ///
        /// # Safety
        /// `state` is a [`FortranKeyval`] this module made; the other pointers are the C
        /// attribute layer's.
        unsafe extern "C" fn $copy(old: usize, keyval: c_int, state: *mut c_void,
            value_in: *mut c_void, value_out: *mut c_void, flag: *mut c_int) -> c_int
        {
            // SAFETY: the contract above.
            unsafe {
                let k = &*(state as *const FortranKeyval<$v>);
                let Some(f) = k.copy else { return 0 };
                let (h, vin) = ($toint(old), value_in as isize as $v);
                let (mut out, mut fflag, mut ierr): ($v, c_int, c_int) = (0, 0, 0);
                f(&h, &keyval, &k.extra, &vin, &mut out, &mut fflag, &mut ierr);
                *flag = fs::logical_to_c(fflag);
                if *flag != 0 {
                    *(value_out as *mut *mut c_void) = out as isize as *mut c_void;
                }
                ierr
            }
        }

        /// Calls the Fortran delete callback of the keyval whose extra state is `state`.
        ///
        /// # Safety
        /// As the copy twin.
        unsafe extern "C" fn $delete(obj: usize, keyval: c_int, value: *mut c_void,
            state: *mut c_void) -> c_int
        {
            // SAFETY: the contract above.
            unsafe {
                let k = &*(state as *const FortranKeyval<$v>);
                let Some(f) = k.delete else { return 0 };
                let (h, v) = ($toint(obj), value as isize as $v);
                let mut ierr: c_int = 0;
                f(&h, &keyval, &v, &k.extra, &mut ierr);
                ierr
            }
        }
    )*};
}

keyval_trampolines! {
    comm_copy / comm_delete: PMPI_Comm_toint, isize;
    type_copy / type_delete: PMPI_Type_toint, isize;
    win_copy / win_delete: PMPI_Win_toint, isize;
    legacy_copy / legacy_delete: PMPI_Comm_toint, c_int;
}

unsafe extern "C" {
    fn MPI_Comm_create_keyval(
        copy: usize,
        delete: usize,
        keyval: *mut c_int,
        extra: *mut c_void,
    ) -> c_int;
    fn PMPI_Comm_create_keyval(
        copy: usize,
        delete: usize,
        keyval: *mut c_int,
        extra: *mut c_void,
    ) -> c_int;
    fn MPI_Type_create_keyval(
        copy: usize,
        delete: usize,
        keyval: *mut c_int,
        extra: *mut c_void,
    ) -> c_int;
    fn PMPI_Type_create_keyval(
        copy: usize,
        delete: usize,
        keyval: *mut c_int,
        extra: *mut c_void,
    ) -> c_int;
    fn MPI_Win_create_keyval(
        copy: usize,
        delete: usize,
        keyval: *mut c_int,
        extra: *mut c_void,
    ) -> c_int;
    fn PMPI_Win_create_keyval(
        copy: usize,
        delete: usize,
        keyval: *mut c_int,
        extra: *mut c_void,
    ) -> c_int;
    fn MPI_Keyval_create(
        copy: usize,
        delete: usize,
        keyval: *mut c_int,
        extra: *mut c_void,
    ) -> c_int;
    fn PMPI_Keyval_create(
        copy: usize,
        delete: usize,
        keyval: *mut c_int,
        extra: *mut c_void,
    ) -> c_int;
}

/// Fortran bindings of the keyval constructors:
/// `(COPY_FN, DELETE_FN, KEYVAL, EXTRA_STATE, IERROR)`.
macro_rules! create_keyval {
    ($($doc:literal $f:ident / $pf:ident => $cf:ident / $cpf:ident, $copy:ident / $delete:ident,
        $v:ty;)*) => {$(
        fortran_fn! {
            #[doc = $doc]
            $f / $pf => $cf / $cpf,
            |c| (copy_fn: Option<FortranCopy<$v>>, delete_fn: Option<FortranDelete<$v>>,
                 keyval: *mut c_int, extra_state: *const $v, ierror: *mut c_int) -> () {
                // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
                unsafe {
                    let state = Box::into_raw(Box::new(FortranKeyval {
                        copy: copy_fn,
                        delete: delete_fn,
                        extra: fs::get(extra_state),
                    }));
                    let mut k: c_int = 0;
                    let rc = c($copy as CCopy as usize, $delete as CDelete as usize, &mut k, state.cast());
                    if rc == 0 {
                        fs::set(keyval, k);
                    } else {
                        drop(Box::from_raw(state));
                    }
                    fs::set(ierror, rc);
                }
            }
        }
    )*};
}

create_keyval! {
    "Fortran binding of `MPI_Comm_create_keyval` (Fortran copy and delete callbacks)."
    mpi_comm_create_keyval_ / pmpi_comm_create_keyval_
        => MPI_Comm_create_keyval / PMPI_Comm_create_keyval, comm_copy / comm_delete, isize;
    "Fortran binding of `MPI_Type_create_keyval`."
    mpi_type_create_keyval_ / pmpi_type_create_keyval_
        => MPI_Type_create_keyval / PMPI_Type_create_keyval, type_copy / type_delete, isize;
    "Fortran binding of `MPI_Win_create_keyval`."
    mpi_win_create_keyval_ / pmpi_win_create_keyval_
        => MPI_Win_create_keyval / PMPI_Win_create_keyval, win_copy / win_delete, isize;
    "Fortran binding of the deprecated `MPI_Keyval_create` (default INTEGER values)."
    mpi_keyval_create_ / pmpi_keyval_create_
        => MPI_Keyval_create / PMPI_Keyval_create, legacy_copy / legacy_delete, c_int;
}

/// The predefined Fortran callbacks (`EXTERNAL` in `mpif.h` and the `mpi` module): "do not
/// copy", "copy the value as is", "nothing to do on delete".
macro_rules! predefined_callbacks {
    ($($null_copy:ident, $dup:ident, $null_delete:ident: $v:ty;)*) => {$(
        #[doc = concat!("Fortran's `", stringify!($null_copy), "`: the attribute is not copied.")]
        ///
        /// # Safety
        /// Called by the attribute layer with valid Fortran arguments.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $null_copy(_old: *const c_int, _keyval: *const c_int,
            _extra: *const $v, _value_in: *const $v, _value_out: *mut $v, flag: *mut c_int,
            ierror: *mut c_int)
        {
            // SAFETY: the caller's contract.
            unsafe {
                fs::set(flag, 0);
                fs::set(ierror, 0);
            }
        }

        #[doc = concat!("Fortran's `", stringify!($dup), "`: the new object gets the same value.")]
        ///
        /// # Safety
        /// As the null twin.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $dup(_old: *const c_int, _keyval: *const c_int,
            _extra: *const $v, value_in: *const $v, value_out: *mut $v, flag: *mut c_int,
            ierror: *mut c_int)
        {
            // SAFETY: the caller's contract.
            unsafe {
                fs::set(value_out, fs::get(value_in));
                fs::set(flag, 1);
                fs::set(ierror, 0);
            }
        }

        #[doc = concat!("Fortran's `", stringify!($null_delete), "`: nothing to do.")]
        ///
        /// # Safety
        /// As the null twin.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $null_delete(_obj: *const c_int, _keyval: *const c_int,
            _value: *const $v, _extra: *const $v, ierror: *mut c_int)
        {
            // SAFETY: the caller's contract.
            unsafe { fs::set(ierror, 0) }
        }
    )*};
}

predefined_callbacks! {
    mpi_comm_null_copy_fn_, mpi_comm_dup_fn_, mpi_comm_null_delete_fn_: isize;
    mpi_type_null_copy_fn_, mpi_type_dup_fn_, mpi_type_null_delete_fn_: isize;
    mpi_win_null_copy_fn_, mpi_win_dup_fn_, mpi_win_null_delete_fn_: isize;
    mpi_null_copy_fn_, mpi_dup_fn_, mpi_null_delete_fn_: c_int;
}
