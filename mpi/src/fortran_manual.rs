//! Hand-written Fortran bindings (`mpif.h`, `use mpi`) of functions the generator cannot map
//! mechanically ([`crate::generated::fortran`] lists them): attribute values, base addresses,
//! Fortran procedures given to MPI, arrays of strings, and arguments Fortran does not have.
//!
//! * Attribute values are `INTEGER(KIND=MPI_ADDRESS_KIND)` in Fortran (a default INTEGER for
//!   the deprecated `MPI_ATTR_GET` / `PUT`). Setting one stores the integer itself as C's
//!   `void *` value (what a Fortran caller reads back). Reading a predefined attribute gives its
//!   value, not the address C gets: `MPI_TAG_UB` and the other `int` attributes of
//!   communicators, `MPI_WIN_SIZE`, `MPI_WIN_DISP_UNIT`, `MPI_WIN_CREATE_FLAVOR`,
//!   `MPI_WIN_MODEL`; `MPI_WIN_BASE` is the base address, as in C.
//! * Base addresses (`MPI_Alloc_mem`, `MPI_Win_allocate`, `_shared`, `MPI_Win_shared_query`)
//!   come back as `INTEGER(KIND=MPI_ADDRESS_KIND)` (Fortran programs turn them into pointers with
//!   `C_F_POINTER(TRANSFER(...))` or Cray pointers). The buffer detach functions give back only
//!   the size (the address means nothing to a Fortran program).
//! * `MPI_OP_CREATE` takes `SUBROUTINE F(INVEC, INOUTVEC, LEN, DATATYPE)`, which gets the
//!   INTEGER handle of the datatype (`coll::op::create_from_fortran`).
//! * Keyvals made from Fortran call Fortran copy and delete procedures (C trampolines carry them
//!   in the extra state); `MPI_*_NULL_COPY_FN`, `MPI_*_DUP_FN`, `MPI_*_NULL_DELETE_FN` are
//!   subroutines of the library. Error handlers made from Fortran get INTEGER handles.
//! * `MPI_COMM_SPAWN` / `_MULTIPLE` take Fortran argument lists (blank-terminated CHARACTER
//!   arrays, `MPI_ARGV_NULL` / `MPI_ARGVS_NULL`), read at the root only.
//! * `MPI_PCONTROL(LEVEL)` has no varargs; `MPI_INFO_CREATE_ENV(INFO)` has no `argc`/`argv`.
//!
//! * `MPI_COMM_IDUP` writes the new handle at once (nexar's duplication is complete when the C
//!   call returns); the neighbourhood `MPI_(I)NEIGHBOR_ALLTOALLW(_INIT)` size their datatype
//!   arrays by the topology's degrees.
//!
//! * Generalized requests started from Fortran call Fortran query, free and cancel procedures.
//!
//! * `MPI_REGISTER_DATAREP`'s extent procedure gets INTEGER datatype handles;
//!   `MPI_CONVERSION_FN_NULL` is a library subroutine recognised by its address.
//!
//! `use mpi_f08` has no routine of this file yet (its routines are generated); the standard
//! ABI's `MPI_Abi_get/set_fortran_booleans` describe a Fortran binding to C and have none.

use crate::coll::op::{FortranUserFunction, create_from_fortran};
use crate::comm::attr::{
    MPI_APPNUM, MPI_HOST, MPI_IO, MPI_LASTUSEDCODE, MPI_TAG_UB, MPI_UNIVERSE_SIZE,
    MPI_WTIME_IS_GLOBAL,
};
use crate::consts::{MPI_COMM_WORLD, MPI_ERR_ARG, MPI_FILE_NULL};
use crate::errors::handlers::{CommErrhandlerFn, FortranHandle, new_fortran_errhandler};
use crate::errors::report::MpiError;
use crate::fortran_support::{self as fs, fortran_fn};
use crate::handles::*;
use crate::request::status::MPI_Status;
use std::ffi::{CString, c_char, c_int, c_void};

/// Predefined window attributes whose C values are addresses of their values
/// (`MPI_WIN_BASE`, 601, is the base address itself, as in C).
const MPI_WIN_DISP_UNIT: c_int = 602;
const MPI_WIN_SIZE: c_int = 603;
const MPI_WIN_CREATE_FLAVOR: c_int = 604;
const MPI_WIN_MODEL: c_int = 605;

/// The Fortran value of attribute `keyval` whose C value is `v`.
///
/// # Safety
/// `v` is what the C get function returned for `keyval` (for a predefined attribute, the
/// address of its value).
unsafe fn fortran_value(keyval: c_int, v: *mut c_void) -> isize {
    match keyval {
        MPI_TAG_UB
        | MPI_HOST
        | MPI_IO
        | MPI_WTIME_IS_GLOBAL
        | MPI_UNIVERSE_SIZE
        | MPI_APPNUM
        | MPI_LASTUSEDCODE
        | MPI_WIN_DISP_UNIT
        | MPI_WIN_CREATE_FLAVOR
        | MPI_WIN_MODEL => {
            // SAFETY: the address of an `int` (the contract).
            unsafe { *(v as *const c_int) as isize }
        }
        // SAFETY: the address of an `MPI_Aint` (the contract).
        MPI_WIN_SIZE => unsafe { *(v as *const isize) },
        _ => v as isize,
    }
}

unsafe extern "C" {
    fn MPI_Comm_get_attr(comm: usize, keyval: c_int, value: *mut c_void, flag: *mut c_int)
    -> c_int;
    fn PMPI_Comm_get_attr(
        comm: usize,
        keyval: c_int,
        value: *mut c_void,
        flag: *mut c_int,
    ) -> c_int;
    fn MPI_Type_get_attr(ty: usize, keyval: c_int, value: *mut c_void, flag: *mut c_int) -> c_int;
    fn PMPI_Type_get_attr(ty: usize, keyval: c_int, value: *mut c_void, flag: *mut c_int) -> c_int;
    fn MPI_Win_get_attr(win: usize, keyval: c_int, value: *mut c_void, flag: *mut c_int) -> c_int;
    fn PMPI_Win_get_attr(win: usize, keyval: c_int, value: *mut c_void, flag: *mut c_int) -> c_int;
    fn MPI_Attr_get(comm: usize, keyval: c_int, value: *mut c_void, flag: *mut c_int) -> c_int;
    fn PMPI_Attr_get(comm: usize, keyval: c_int, value: *mut c_void, flag: *mut c_int) -> c_int;
    fn MPI_Comm_set_attr(comm: usize, keyval: c_int, value: *mut c_void) -> c_int;
    fn PMPI_Comm_set_attr(comm: usize, keyval: c_int, value: *mut c_void) -> c_int;
    fn MPI_Type_set_attr(ty: usize, keyval: c_int, value: *mut c_void) -> c_int;
    fn PMPI_Type_set_attr(ty: usize, keyval: c_int, value: *mut c_void) -> c_int;
    fn MPI_Win_set_attr(win: usize, keyval: c_int, value: *mut c_void) -> c_int;
    fn PMPI_Win_set_attr(win: usize, keyval: c_int, value: *mut c_void) -> c_int;
    fn MPI_Attr_put(comm: usize, keyval: c_int, value: *mut c_void) -> c_int;
    fn PMPI_Attr_put(comm: usize, keyval: c_int, value: *mut c_void) -> c_int;
    fn MPI_Alloc_mem(size: isize, info: usize, baseptr: *mut c_void) -> c_int;
    fn PMPI_Alloc_mem(size: isize, info: usize, baseptr: *mut c_void) -> c_int;
    fn MPI_Win_allocate(
        size: isize,
        disp_unit: c_int,
        info: usize,
        comm: usize,
        baseptr: *mut c_void,
        win: *mut usize,
    ) -> c_int;
    fn PMPI_Win_allocate(
        size: isize,
        disp_unit: c_int,
        info: usize,
        comm: usize,
        baseptr: *mut c_void,
        win: *mut usize,
    ) -> c_int;
    fn MPI_Win_allocate_shared(
        size: isize,
        disp_unit: c_int,
        info: usize,
        comm: usize,
        baseptr: *mut c_void,
        win: *mut usize,
    ) -> c_int;
    fn PMPI_Win_allocate_shared(
        size: isize,
        disp_unit: c_int,
        info: usize,
        comm: usize,
        baseptr: *mut c_void,
        win: *mut usize,
    ) -> c_int;
    fn MPI_Win_shared_query(
        win: usize,
        rank: c_int,
        size: *mut isize,
        disp_unit: *mut c_int,
        baseptr: *mut c_void,
    ) -> c_int;
    fn PMPI_Win_shared_query(
        win: usize,
        rank: c_int,
        size: *mut isize,
        disp_unit: *mut c_int,
        baseptr: *mut c_void,
    ) -> c_int;
    fn MPI_Buffer_detach(buffer_addr: *mut c_void, size: *mut c_int) -> c_int;
    fn PMPI_Buffer_detach(buffer_addr: *mut c_void, size: *mut c_int) -> c_int;
    fn MPI_Comm_detach_buffer(comm: usize, buffer_addr: *mut c_void, size: *mut c_int) -> c_int;
    fn PMPI_Comm_detach_buffer(comm: usize, buffer_addr: *mut c_void, size: *mut c_int) -> c_int;
    fn MPI_Session_detach_buffer(
        session: usize,
        buffer_addr: *mut c_void,
        size: *mut c_int,
    ) -> c_int;
    fn PMPI_Session_detach_buffer(
        session: usize,
        buffer_addr: *mut c_void,
        size: *mut c_int,
    ) -> c_int;
    fn MPI_Pcontrol(level: c_int, ...) -> c_int;
    fn PMPI_Pcontrol(level: c_int, ...) -> c_int;
    fn MPI_Info_create_env(argc: c_int, argv: *mut *mut i8, info: *mut usize) -> c_int;
    fn PMPI_Info_create_env(argc: c_int, argv: *mut *mut i8, info: *mut usize) -> c_int;
}

/// Fortran bindings of the attribute getters: `(HANDLE, KEYVAL, ATTRIBUTE_VAL, FLAG, IERROR)`,
/// the value an `INTEGER(KIND=MPI_ADDRESS_KIND)` (a default INTEGER for `MPI_ATTR_GET`).
macro_rules! get_attr {
    ($($doc:literal $f:ident / $pf:ident => $cf:ident / $cpf:ident, $from:ident, $v:ty;)*) => {$(
        fortran_fn! {
            #[doc = $doc]
            $f / $pf => $cf / $cpf,
            |c| (h: *const c_int, keyval: *const c_int, attribute_val: *mut $v,
                 flag: *mut c_int, ierror: *mut c_int) -> () {
                // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
                unsafe {
                    let k = fs::get(keyval);
                    let mut v: *mut c_void = std::ptr::null_mut();
                    let mut found: c_int = 0;
                    let rc = c($from(fs::get(h)), k, (&raw mut v).cast(), &mut found);
                    if rc == 0 {
                        fs::set(flag, fs::logical_from_c(found));
                        if found != 0 {
                            fs::set(attribute_val, fortran_value(k, v) as $v);
                        }
                    }
                    fs::set(ierror, rc);
                }
            }
        }
    )*};
}

get_attr! {
    "Fortran binding of `MPI_Comm_get_attr` (predefined attributes give their values)."
    mpi_comm_get_attr_ / pmpi_comm_get_attr_ => MPI_Comm_get_attr / PMPI_Comm_get_attr,
        PMPI_Comm_fromint, isize;
    "Fortran binding of `MPI_Type_get_attr`."
    mpi_type_get_attr_ / pmpi_type_get_attr_ => MPI_Type_get_attr / PMPI_Type_get_attr,
        PMPI_Type_fromint, isize;
    "Fortran binding of `MPI_Win_get_attr` (predefined attributes give their values)."
    mpi_win_get_attr_ / pmpi_win_get_attr_ => MPI_Win_get_attr / PMPI_Win_get_attr,
        PMPI_Win_fromint, isize;
    "Fortran binding of the deprecated `MPI_Attr_get` (a default INTEGER value)."
    mpi_attr_get_ / pmpi_attr_get_ => MPI_Attr_get / PMPI_Attr_get, PMPI_Comm_fromint, c_int;
}

/// Fortran bindings of the attribute setters: `(HANDLE, KEYVAL, ATTRIBUTE_VAL, IERROR)`; the
/// value is stored as the integer itself.
macro_rules! set_attr {
    ($($doc:literal $f:ident / $pf:ident => $cf:ident / $cpf:ident, $from:ident, $val:ty;)*) => {$(
        fortran_fn! {
            #[doc = $doc]
            $f / $pf => $cf / $cpf,
            |c| (h: *const c_int, keyval: *const c_int, attribute_val: *const $val,
                 ierror: *mut c_int) -> () {
                // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
                unsafe {
                    let v = fs::get(attribute_val) as isize as *mut c_void;
                    let rc = c($from(fs::get(h)), fs::get(keyval), v);
                    fs::set(ierror, rc);
                }
            }
        }
    )*};
}

set_attr! {
    "Fortran binding of `MPI_Comm_set_attr`."
    mpi_comm_set_attr_ / pmpi_comm_set_attr_ => MPI_Comm_set_attr / PMPI_Comm_set_attr,
        PMPI_Comm_fromint, isize;
    "Fortran binding of `MPI_Type_set_attr`."
    mpi_type_set_attr_ / pmpi_type_set_attr_ => MPI_Type_set_attr / PMPI_Type_set_attr,
        PMPI_Type_fromint, isize;
    "Fortran binding of `MPI_Win_set_attr`."
    mpi_win_set_attr_ / pmpi_win_set_attr_ => MPI_Win_set_attr / PMPI_Win_set_attr,
        PMPI_Win_fromint, isize;
    "Fortran binding of the deprecated `MPI_Attr_put` (a default INTEGER value)."
    mpi_attr_put_ / pmpi_attr_put_ => MPI_Attr_put / PMPI_Attr_put, PMPI_Comm_fromint, c_int;
}

fortran_fn! {
    /// Fortran binding of `MPI_Alloc_mem`: `(SIZE, INFO, BASEPTR, IERROR)`, the base address
    /// an `INTEGER(KIND=MPI_ADDRESS_KIND)`.
    mpi_alloc_mem_ / pmpi_alloc_mem_ => MPI_Alloc_mem / PMPI_Alloc_mem,
    |c| (size: *const isize, info: *const c_int, baseptr: *mut isize, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut p: *mut c_void = std::ptr::null_mut();
            let rc = c(fs::get(size), PMPI_Info_fromint(fs::get(info)), (&raw mut p).cast());
            if rc == 0 {
                fs::set(baseptr, p as isize);
            }
            fs::set(ierror, rc);
        }
    }
}

/// Fortran bindings of the allocating window constructors:
/// `(SIZE, DISP_UNIT, INFO, COMM, BASEPTR, WIN, IERROR)`.
macro_rules! win_allocate {
    ($($doc:literal $f:ident / $pf:ident => $cf:ident / $cpf:ident;)*) => {$(
        fortran_fn! {
            #[doc = $doc]
            $f / $pf => $cf / $cpf,
            |c| (size: *const isize, disp_unit: *const c_int, info: *const c_int,
                 comm: *const c_int, baseptr: *mut isize, win: *mut c_int,
                 ierror: *mut c_int) -> () {
                // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
                unsafe {
                    let mut p: *mut c_void = std::ptr::null_mut();
                    let mut h: usize = 0;
                    let rc = c(fs::get(size), fs::get(disp_unit),
                        PMPI_Info_fromint(fs::get(info)), PMPI_Comm_fromint(fs::get(comm)),
                        (&raw mut p).cast(), &mut h);
                    if rc == 0 {
                        fs::set(baseptr, p as isize);
                        fs::set(win, PMPI_Win_toint(h));
                    }
                    fs::set(ierror, rc);
                }
            }
        }
    )*};
}

win_allocate! {
    "Fortran binding of `MPI_Win_allocate` (the base address as an address-sized INTEGER)."
    mpi_win_allocate_ / pmpi_win_allocate_ => MPI_Win_allocate / PMPI_Win_allocate;
    "Fortran binding of `MPI_Win_allocate_shared` (the base address as an address-sized INTEGER)."
    mpi_win_allocate_shared_ / pmpi_win_allocate_shared_
        => MPI_Win_allocate_shared / PMPI_Win_allocate_shared;
}

fortran_fn! {
    /// Fortran binding of `MPI_Win_shared_query`: `(WIN, RANK, SIZE, DISP_UNIT, BASEPTR,
    /// IERROR)`, the base address an `INTEGER(KIND=MPI_ADDRESS_KIND)`.
    mpi_win_shared_query_ / pmpi_win_shared_query_ => MPI_Win_shared_query / PMPI_Win_shared_query,
    |c| (win: *const c_int, rank: *const c_int, size: *mut isize, disp_unit: *mut c_int,
         baseptr: *mut isize, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let (mut n, mut unit, mut p) = (0isize, 0 as c_int, std::ptr::null_mut::<c_void>());
            let rc = c(PMPI_Win_fromint(fs::get(win)), fs::get(rank), &mut n, &mut unit,
                (&raw mut p).cast());
            if rc == 0 {
                fs::set(size, n);
                fs::set(disp_unit, unit);
                fs::set(baseptr, p as isize);
            }
            fs::set(ierror, rc);
        }
    }
}

fortran_fn! {
    /// Fortran binding of `MPI_Buffer_detach`: `(BUFFER_ADDR, SIZE, IERROR)`. The address
    /// means nothing to a Fortran program (it still has the buffer it attached): only the size
    /// comes back.
    mpi_buffer_detach_ / pmpi_buffer_detach_ => MPI_Buffer_detach / PMPI_Buffer_detach,
    |c| (_buffer_addr: *mut c_void, size: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let (mut p, mut n) = (std::ptr::null_mut::<c_void>(), 0 as c_int);
            let rc = c((&raw mut p).cast(), &mut n);
            if rc == 0 {
                fs::set(size, n);
            }
            fs::set(ierror, rc);
        }
    }
}

/// Fortran bindings of the per-communicator and per-session buffer detach:
/// `(HANDLE, BUFFER_ADDR, SIZE, IERROR)` (only the size comes back, as for
/// `MPI_BUFFER_DETACH`).
macro_rules! detach_buffer {
    ($($doc:literal $f:ident / $pf:ident => $cf:ident / $cpf:ident, $from:ident;)*) => {$(
        fortran_fn! {
            #[doc = $doc]
            $f / $pf => $cf / $cpf,
            |c| (h: *const c_int, _buffer_addr: *mut c_void, size: *mut c_int,
                 ierror: *mut c_int) -> () {
                // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
                unsafe {
                    let (mut p, mut n) = (std::ptr::null_mut::<c_void>(), 0 as c_int);
                    let rc = c($from(fs::get(h)), (&raw mut p).cast(), &mut n);
                    if rc == 0 {
                        fs::set(size, n);
                    }
                    fs::set(ierror, rc);
                }
            }
        }
    )*};
}

detach_buffer! {
    "Fortran binding of `MPI_Comm_detach_buffer`."
    mpi_comm_detach_buffer_ / pmpi_comm_detach_buffer_
        => MPI_Comm_detach_buffer / PMPI_Comm_detach_buffer, PMPI_Comm_fromint;
    "Fortran binding of `MPI_Session_detach_buffer`."
    mpi_session_detach_buffer_ / pmpi_session_detach_buffer_
        => MPI_Session_detach_buffer / PMPI_Session_detach_buffer, PMPI_Session_fromint;
}

fortran_fn! {
    /// Fortran binding of `MPI_Pcontrol`: `(LEVEL, IERROR)`.
    mpi_pcontrol_ / pmpi_pcontrol_ => MPI_Pcontrol / PMPI_Pcontrol,
    |c| (level: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::get(level));
            fs::set(ierror, rc);
        }
    }
}

fortran_fn! {
    /// Fortran binding of `MPI_Info_create_env`: `(INFO, IERROR)` (Fortran has no
    /// `argc` / `argv` to pass).
    mpi_info_create_env_ / pmpi_info_create_env_ => MPI_Info_create_env / PMPI_Info_create_env,
    |c| (info: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h: usize = 0;
            let rc = c(0, std::ptr::null_mut(), &mut h);
            if rc == 0 {
                fs::set(info, PMPI_Info_toint(h));
            }
            fs::set(ierror, rc);
        }
    }
}

/// Fortran binding of `MPI_Op_create`: `(USER_FN, COMMUTE, OP, IERROR)`; the function gets the
/// datatype's INTEGER handle.
///
/// # Safety
/// The arguments are the Fortran caller's: `user_fn` a Fortran subroutine of the MPI user
/// function's shape, the others valid INTEGER / LOGICAL variables.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mpi_op_create_(
    user_fn: Option<FortranUserFunction>,
    commute: *const c_int,
    op: *mut c_int,
    ierror: *mut c_int,
) {
    // SAFETY: the caller's contract.
    unsafe { op_create(user_fn, commute, op, ierror) }
}

/// Profiling entry point of [`mpi_op_create_`].
///
/// # Safety
/// As [`mpi_op_create_`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmpi_op_create_(
    user_fn: Option<FortranUserFunction>,
    commute: *const c_int,
    op: *mut c_int,
    ierror: *mut c_int,
) {
    // SAFETY: the caller's contract.
    unsafe { op_create(user_fn, commute, op, ierror) }
}

/// The body of [`mpi_op_create_`].
///
/// # Safety
/// As [`mpi_op_create_`].
unsafe fn op_create(
    user_fn: Option<FortranUserFunction>,
    commute: *const c_int,
    op: *mut c_int,
    ierror: *mut c_int,
) {
    // SAFETY: the caller's contract.
    unsafe {
        let mut h: usize = 0;
        let rc = create_from_fortran(user_fn, fs::logical_to_c(fs::get(commute)), &mut h);
        if rc == 0 {
            fs::set(op, PMPI_Op_toint(h));
        }
        fs::set(ierror, rc);
    }
}

// ---- Keyvals with Fortran copy and delete callbacks ----------------------------------------

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

// ---- Error handlers with Fortran procedures ------------------------------------------------

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

// ---- Dynamic processes: arrays of strings --------------------------------------------------

unsafe extern "C" {
    fn PMPI_Comm_rank(comm: usize, rank: *mut c_int) -> c_int;
    fn MPI_Comm_spawn(
        command: *const c_char,
        argv: *mut *mut c_char,
        maxprocs: c_int,
        info: usize,
        root: c_int,
        comm: usize,
        intercomm: *mut usize,
        errcodes: *mut c_int,
    ) -> c_int;
    fn PMPI_Comm_spawn(
        command: *const c_char,
        argv: *mut *mut c_char,
        maxprocs: c_int,
        info: usize,
        root: c_int,
        comm: usize,
        intercomm: *mut usize,
        errcodes: *mut c_int,
    ) -> c_int;
    fn MPI_Comm_spawn_multiple(
        count: c_int,
        commands: *mut *mut c_char,
        argvs: *mut *mut *mut c_char,
        maxprocs: *const c_int,
        infos: *const usize,
        root: c_int,
        comm: usize,
        intercomm: *mut usize,
        errcodes: *mut c_int,
    ) -> c_int;
    fn PMPI_Comm_spawn_multiple(
        count: c_int,
        commands: *mut *mut c_char,
        argvs: *mut *mut *mut c_char,
        maxprocs: *const c_int,
        infos: *const usize,
        root: c_int,
        comm: usize,
        intercomm: *mut usize,
        errcodes: *mut c_int,
    ) -> c_int;
}

/// Whether this process is rank `root` of `comm`: only the root's command arguments are read
/// (the others may pass anything).
fn at_root(comm: usize, root: c_int) -> bool {
    let mut me: c_int = -1;
    // SAFETY: a valid out-pointer; an invalid handle leaves `me` at -1 (the spawn reports it).
    unsafe { PMPI_Comm_rank(comm, &mut me) };
    me == root
}

/// A Fortran argument list: strings of `len` characters `stride` apart from `p`, up to the
/// first blank one (the end mark), as C strings.
///
/// # Safety
/// `p` holds the strings and the blank one after them.
unsafe fn argv_of(p: *const u8, len: usize, stride: usize) -> Vec<CString> {
    let mut out = Vec::new();
    loop {
        // SAFETY: the caller's contract: every string up to the blank one is readable.
        let s = unsafe { fs::string_in(p.add(out.len() * stride), len) };
        if s.as_bytes().is_empty() {
            return out;
        }
        out.push(s);
    }
}

/// C `argv` pointers (NULL-terminated) to `strings`, which must outlive them.
fn c_argv(strings: &[CString]) -> Vec<*mut c_char> {
    strings
        .iter()
        .map(|s| s.as_ptr().cast_mut())
        .chain(std::iter::once(std::ptr::null_mut()))
        .collect()
}

/// Fortran binding of `MPI_Comm_spawn`: `(COMMAND, ARGV, MAXPROCS, INFO, ROOT, COMM,
/// INTERCOMM, ARRAY_OF_ERRCODES, IERROR)` with the two CHARACTER lengths hidden at the end;
/// `ARGV` ends with a blank string, or is `MPI_ARGV_NULL`.
///
/// # Safety
/// The arguments are the Fortran caller's, valid as the binding states.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mpi_comm_spawn_(
    command: *const u8,
    argv: *const u8,
    maxprocs: *const c_int,
    info: *const c_int,
    root: *const c_int,
    comm: *const c_int,
    intercomm: *mut c_int,
    errcodes: *mut c_int,
    ierror: *mut c_int,
    command_len: usize,
    argv_len: usize,
) {
    // SAFETY: the caller's contract.
    unsafe {
        spawn_one(
            MPI_Comm_spawn,
            command,
            argv,
            maxprocs,
            info,
            root,
            comm,
            intercomm,
            errcodes,
            ierror,
            command_len,
            argv_len,
        )
    }
}

/// Profiling entry point of [`mpi_comm_spawn_`].
///
/// # Safety
/// As [`mpi_comm_spawn_`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmpi_comm_spawn_(
    command: *const u8,
    argv: *const u8,
    maxprocs: *const c_int,
    info: *const c_int,
    root: *const c_int,
    comm: *const c_int,
    intercomm: *mut c_int,
    errcodes: *mut c_int,
    ierror: *mut c_int,
    command_len: usize,
    argv_len: usize,
) {
    // SAFETY: the caller's contract.
    unsafe {
        spawn_one(
            PMPI_Comm_spawn,
            command,
            argv,
            maxprocs,
            info,
            root,
            comm,
            intercomm,
            errcodes,
            ierror,
            command_len,
            argv_len,
        )
    }
}

/// The C `MPI_Comm_spawn` or its profiling twin.
type SpawnFn = unsafe extern "C" fn(
    *const c_char,
    *mut *mut c_char,
    c_int,
    usize,
    c_int,
    usize,
    *mut usize,
    *mut c_int,
) -> c_int;

/// The body of [`mpi_comm_spawn_`].
///
/// # Safety
/// As [`mpi_comm_spawn_`].
#[allow(clippy::too_many_arguments)]
unsafe fn spawn_one(
    c: SpawnFn,
    command: *const u8,
    argv: *const u8,
    maxprocs: *const c_int,
    info: *const c_int,
    root: *const c_int,
    comm: *const c_int,
    intercomm: *mut c_int,
    errcodes: *mut c_int,
    ierror: *mut c_int,
    command_len: usize,
    argv_len: usize,
) {
    // SAFETY: the caller's contract.
    unsafe {
        let (comm_c, root_v) = (PMPI_Comm_fromint(fs::get(comm)), fs::get(root));
        let cmd = fs::string_in(command, command_len);
        let args = if at_root(comm_c, root_v) && !argv.is_null() && !fs::is_argv_null(argv) {
            argv_of(argv, argv_len, argv_len)
        } else {
            Vec::new()
        };
        let mut ptrs = c_argv(&args);
        let argv_c = if args.is_empty() {
            std::ptr::null_mut()
        } else {
            ptrs.as_mut_ptr()
        };
        let mut ic: usize = 0;
        let rc = c(
            cmd.as_ptr(),
            argv_c,
            fs::get(maxprocs),
            PMPI_Info_fromint(fs::get(info)),
            root_v,
            comm_c,
            &mut ic,
            fs::int_array(errcodes),
        );
        if rc == 0 {
            fs::set(intercomm, PMPI_Comm_toint(ic));
        }
        fs::set(ierror, rc);
    }
}

/// Fortran binding of `MPI_Comm_spawn_multiple`: `(COUNT, ARRAY_OF_COMMANDS, ARRAY_OF_ARGV,
/// ARRAY_OF_MAXPROCS, ARRAY_OF_INFO, ROOT, COMM, INTERCOMM, ARRAY_OF_ERRCODES, IERROR)` with
/// the two CHARACTER lengths hidden at the end; `ARRAY_OF_ARGV(COUNT, *)` holds command `i`'s
/// arguments in row `i`, each row ending with a blank string, or is `MPI_ARGVS_NULL`.
///
/// # Safety
/// The arguments are the Fortran caller's, valid as the binding states.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mpi_comm_spawn_multiple_(
    count: *const c_int,
    commands: *const u8,
    argvs: *const u8,
    maxprocs: *const c_int,
    infos: *const c_int,
    root: *const c_int,
    comm: *const c_int,
    intercomm: *mut c_int,
    errcodes: *mut c_int,
    ierror: *mut c_int,
    commands_len: usize,
    argv_len: usize,
) {
    // SAFETY: the caller's contract.
    unsafe {
        spawn_many(
            MPI_Comm_spawn_multiple,
            count,
            commands,
            argvs,
            maxprocs,
            infos,
            root,
            comm,
            intercomm,
            errcodes,
            ierror,
            commands_len,
            argv_len,
        )
    }
}

/// Profiling entry point of [`mpi_comm_spawn_multiple_`].
///
/// # Safety
/// As [`mpi_comm_spawn_multiple_`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmpi_comm_spawn_multiple_(
    count: *const c_int,
    commands: *const u8,
    argvs: *const u8,
    maxprocs: *const c_int,
    infos: *const c_int,
    root: *const c_int,
    comm: *const c_int,
    intercomm: *mut c_int,
    errcodes: *mut c_int,
    ierror: *mut c_int,
    commands_len: usize,
    argv_len: usize,
) {
    // SAFETY: the caller's contract.
    unsafe {
        spawn_many(
            PMPI_Comm_spawn_multiple,
            count,
            commands,
            argvs,
            maxprocs,
            infos,
            root,
            comm,
            intercomm,
            errcodes,
            ierror,
            commands_len,
            argv_len,
        )
    }
}

/// The C `MPI_Comm_spawn_multiple` or its profiling twin.
type SpawnManyFn = unsafe extern "C" fn(
    c_int,
    *mut *mut c_char,
    *mut *mut *mut c_char,
    *const c_int,
    *const usize,
    c_int,
    usize,
    *mut usize,
    *mut c_int,
) -> c_int;

/// The body of [`mpi_comm_spawn_multiple_`]: at the root, the commands, argument rows and
/// infos become their C forms; elsewhere nothing is read but `COUNT`'s value.
///
/// # Safety
/// As [`mpi_comm_spawn_multiple_`].
#[allow(clippy::too_many_arguments)]
unsafe fn spawn_many(
    c: SpawnManyFn,
    count: *const c_int,
    commands: *const u8,
    argvs: *const u8,
    maxprocs: *const c_int,
    infos: *const c_int,
    root: *const c_int,
    comm: *const c_int,
    intercomm: *mut c_int,
    errcodes: *mut c_int,
    ierror: *mut c_int,
    commands_len: usize,
    argv_len: usize,
) {
    // SAFETY: the caller's contract.
    unsafe {
        let (comm_c, root_v, n) = (
            PMPI_Comm_fromint(fs::get(comm)),
            fs::get(root),
            fs::get(count),
        );
        let here = at_root(comm_c, root_v) && n > 0;
        let k = if here { n as usize } else { 0 };
        let cmds: Vec<CString> = (0..k)
            .map(|i| fs::string_in(commands.add(i * commands_len), commands_len))
            .collect();
        let mut cmd_ptrs: Vec<*mut c_char> = cmds.iter().map(|s| s.as_ptr().cast_mut()).collect();
        let no_args = argvs.is_null() || fs::is_argvs_null(argvs);
        // Row i of ARRAY_OF_ARGV(COUNT, *): element (i, j) is `(j * count + i) * len` in.
        let rows: Vec<Vec<CString>> = (0..k)
            .map(|i| {
                if no_args {
                    Vec::new()
                } else {
                    argv_of(argvs.add(i * argv_len), argv_len, k * argv_len)
                }
            })
            .collect();
        let mut row_ptrs: Vec<Vec<*mut c_char>> = rows.iter().map(|r| c_argv(r)).collect();
        let mut argv_c: Vec<*mut *mut c_char> =
            row_ptrs.iter_mut().map(|r| r.as_mut_ptr()).collect();
        let info_c: Vec<usize> = (0..k).map(|i| PMPI_Info_fromint(*infos.add(i))).collect();
        let mut ic: usize = 0;
        let rc = c(
            n,
            if here {
                cmd_ptrs.as_mut_ptr()
            } else {
                std::ptr::null_mut()
            },
            if here && !no_args {
                argv_c.as_mut_ptr()
            } else {
                std::ptr::null_mut()
            },
            maxprocs,
            if here {
                info_c.as_ptr()
            } else {
                std::ptr::null()
            },
            root_v,
            comm_c,
            &mut ic,
            fs::int_array(errcodes),
        );
        if rc == 0 {
            fs::set(intercomm, PMPI_Comm_toint(ic));
        }
        fs::set(ierror, rc);
    }
}

// ---- Non-blocking duplication -------------------------------------------------------------

unsafe extern "C" {
    fn MPI_Comm_idup(comm: usize, newcomm: *mut usize, request: *mut usize) -> c_int;
    fn PMPI_Comm_idup(comm: usize, newcomm: *mut usize, request: *mut usize) -> c_int;
    fn MPI_Comm_idup_with_info(
        comm: usize,
        info: usize,
        newcomm: *mut usize,
        request: *mut usize,
    ) -> c_int;
    fn PMPI_Comm_idup_with_info(
        comm: usize,
        info: usize,
        newcomm: *mut usize,
        request: *mut usize,
    ) -> c_int;
}

fortran_fn! {
    /// Fortran binding of `MPI_Comm_idup`: `(COMM, NEWCOMM, REQUEST, IERROR)`. nexar's
    /// duplication needs no communication, so the C call has made the new communicator when
    /// it returns (its request is complete): its INTEGER handle is written at once.
    mpi_comm_idup_ / pmpi_comm_idup_ => MPI_Comm_idup / PMPI_Comm_idup,
    |c| (comm: *const c_int, newcomm: *mut c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let (mut nc, mut r) = (0usize, 0usize);
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), &mut nc, &mut r);
            if rc == 0 {
                fs::set(newcomm, PMPI_Comm_toint(nc));
                fs::set(request, PMPI_Request_toint(r));
            }
            fs::set(ierror, rc);
        }
    }
}

fortran_fn! {
    /// Fortran binding of `MPI_Comm_idup_with_info` (as [`mpi_comm_idup_`]).
    mpi_comm_idup_with_info_ / pmpi_comm_idup_with_info_
        => MPI_Comm_idup_with_info / PMPI_Comm_idup_with_info,
    |c| (comm: *const c_int, info: *const c_int, newcomm: *mut c_int, request: *mut c_int,
         ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let (mut nc, mut r) = (0usize, 0usize);
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), PMPI_Info_fromint(fs::get(info)),
                &mut nc, &mut r);
            if rc == 0 {
                fs::set(newcomm, PMPI_Comm_toint(nc));
                fs::set(request, PMPI_Request_toint(r));
            }
            fs::set(ierror, rc);
        }
    }
}

// ---- Neighbourhood all-to-all with a datatype per block ------------------------------------

/// The C handles of `n` Fortran INTEGER datatype handles at `p` (none when `p` is NULL).
///
/// # Safety
/// `p` is NULL or holds `n` INTEGERs.
unsafe fn types_of(p: *const c_int, n: usize) -> Vec<usize> {
    if p.is_null() {
        return Vec::new();
    }
    // SAFETY: the caller's contract.
    (0..n)
        .map(|i| PMPI_Type_fromint(unsafe { *p.add(i) }))
        .collect()
}

/// This process's (in-degree, out-degree) in `comm`'s topology: how many datatypes the
/// neighbourhood all-to-all reads for receiving and sending; `None` without a topology (the C
/// call then reports it).
fn degrees(comm: usize) -> Option<(usize, usize)> {
    crate::comm::topo::neighbour_lists(comm)
        .ok()
        .map(|n| (n.sources.len(), n.destinations.len()))
}

unsafe extern "C" {
    fn MPI_Neighbor_alltoallw(
        sendbuf: *const c_void,
        sendcounts: *const c_int,
        sdispls: *const isize,
        sendtypes: *const usize,
        recvbuf: *mut c_void,
        recvcounts: *const c_int,
        rdispls: *const isize,
        recvtypes: *const usize,
        comm: usize,
    ) -> c_int;
    fn PMPI_Neighbor_alltoallw(
        sendbuf: *const c_void,
        sendcounts: *const c_int,
        sdispls: *const isize,
        sendtypes: *const usize,
        recvbuf: *mut c_void,
        recvcounts: *const c_int,
        rdispls: *const isize,
        recvtypes: *const usize,
        comm: usize,
    ) -> c_int;
    fn MPI_Ineighbor_alltoallw(
        sendbuf: *const c_void,
        sendcounts: *const c_int,
        sdispls: *const isize,
        sendtypes: *const usize,
        recvbuf: *mut c_void,
        recvcounts: *const c_int,
        rdispls: *const isize,
        recvtypes: *const usize,
        comm: usize,
        request: *mut usize,
    ) -> c_int;
    fn PMPI_Ineighbor_alltoallw(
        sendbuf: *const c_void,
        sendcounts: *const c_int,
        sdispls: *const isize,
        sendtypes: *const usize,
        recvbuf: *mut c_void,
        recvcounts: *const c_int,
        rdispls: *const isize,
        recvtypes: *const usize,
        comm: usize,
        request: *mut usize,
    ) -> c_int;
    fn MPI_Neighbor_alltoallw_init(
        sendbuf: *const c_void,
        sendcounts: *const c_int,
        sdispls: *const isize,
        sendtypes: *const usize,
        recvbuf: *mut c_void,
        recvcounts: *const c_int,
        rdispls: *const isize,
        recvtypes: *const usize,
        comm: usize,
        info: usize,
        request: *mut usize,
    ) -> c_int;
    fn PMPI_Neighbor_alltoallw_init(
        sendbuf: *const c_void,
        sendcounts: *const c_int,
        sdispls: *const isize,
        sendtypes: *const usize,
        recvbuf: *mut c_void,
        recvcounts: *const c_int,
        rdispls: *const isize,
        recvtypes: *const usize,
        comm: usize,
        info: usize,
        request: *mut usize,
    ) -> c_int;
}

fortran_fn! {
    /// Fortran binding of `MPI_Neighbor_alltoallw`: the datatype arrays have one entry per
    /// out-neighbour (send) and in-neighbour (receive) of `COMM`'s topology.
    mpi_neighbor_alltoallw_ / pmpi_neighbor_alltoallw_
        => MPI_Neighbor_alltoallw / PMPI_Neighbor_alltoallw,
    |c| (sendbuf: *const c_void, sendcounts: *const c_int, sdispls: *const isize,
         sendtypes: *const c_int, recvbuf: *mut c_void, recvcounts: *const c_int,
         rdispls: *const isize, recvtypes: *const c_int, comm: *const c_int,
         ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let cc = PMPI_Comm_fromint(fs::get(comm));
            let (ind, outd) = degrees(cc).unwrap_or((0, 0));
            let (st, rt) = (types_of(sendtypes, outd), types_of(recvtypes, ind));
            let rc = c(fs::buffer(sendbuf), sendcounts, sdispls, st.as_ptr(),
                fs::buffer(recvbuf), recvcounts, rdispls, rt.as_ptr(), cc);
            fs::set(ierror, rc);
        }
    }
}

fortran_fn! {
    /// Fortran binding of `MPI_Ineighbor_alltoallw` (the datatype arrays as in
    /// [`mpi_neighbor_alltoallw_`]; copied: the caller may reuse them at once).
    mpi_ineighbor_alltoallw_ / pmpi_ineighbor_alltoallw_
        => MPI_Ineighbor_alltoallw / PMPI_Ineighbor_alltoallw,
    |c| (sendbuf: *const c_void, sendcounts: *const c_int, sdispls: *const isize,
         sendtypes: *const c_int, recvbuf: *mut c_void, recvcounts: *const c_int,
         rdispls: *const isize, recvtypes: *const c_int, comm: *const c_int,
         request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let cc = PMPI_Comm_fromint(fs::get(comm));
            let (ind, outd) = degrees(cc).unwrap_or((0, 0));
            let (st, rt) = (types_of(sendtypes, outd), types_of(recvtypes, ind));
            let mut r = 0usize;
            let rc = c(fs::buffer(sendbuf), sendcounts, sdispls, st.as_ptr(),
                fs::buffer(recvbuf), recvcounts, rdispls, rt.as_ptr(), cc, &mut r);
            if rc == 0 {
                fs::set(request, PMPI_Request_toint(r));
            }
            fs::set(ierror, rc);
        }
    }
}

fortran_fn! {
    /// Fortran binding of `MPI_Neighbor_alltoallw_init` (the datatype arrays as in
    /// [`mpi_neighbor_alltoallw_`]).
    mpi_neighbor_alltoallw_init_ / pmpi_neighbor_alltoallw_init_
        => MPI_Neighbor_alltoallw_init / PMPI_Neighbor_alltoallw_init,
    |c| (sendbuf: *const c_void, sendcounts: *const c_int, sdispls: *const isize,
         sendtypes: *const c_int, recvbuf: *mut c_void, recvcounts: *const c_int,
         rdispls: *const isize, recvtypes: *const c_int, comm: *const c_int,
         info: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let cc = PMPI_Comm_fromint(fs::get(comm));
            let (ind, outd) = degrees(cc).unwrap_or((0, 0));
            let (st, rt) = (types_of(sendtypes, outd), types_of(recvtypes, ind));
            let mut r = 0usize;
            let rc = c(fs::buffer(sendbuf), sendcounts, sdispls, st.as_ptr(),
                fs::buffer(recvbuf), recvcounts, rdispls, rt.as_ptr(), cc,
                PMPI_Info_fromint(fs::get(info)), &mut r);
            if rc == 0 {
                fs::set(request, PMPI_Request_toint(r));
            }
            fs::set(ierror, rc);
        }
    }
}

// ---- Generalized requests with Fortran procedures ------------------------------------------

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

// ---- User data representations ---------------------------------------------------------------

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
