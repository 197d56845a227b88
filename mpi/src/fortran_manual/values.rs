//! Attribute values, base addresses, a Fortran reduction, and arguments Fortran does not have. See [`super`].

use crate::coll::op::{FortranUserFunction, create_from_fortran};
use crate::comm::attr::{
    MPI_APPNUM, MPI_HOST, MPI_IO, MPI_LASTUSEDCODE, MPI_TAG_UB, MPI_UNIVERSE_SIZE,
    MPI_WTIME_IS_GLOBAL,
};
use crate::fortran_support::{self as fs, fortran_fn};
use crate::handles::*;
use std::ffi::{c_int, c_void};
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

fortran_fn! {
    /// Fortran binding of `MPI_Op_create`: `(USER_FN, COMMUTE, OP, IERROR)`; the procedure gets
    /// the datatype's INTEGER handle. Both entry points go to the same shim function.
    mpi_op_create_ / pmpi_op_create_ => create_from_fortran / create_from_fortran,
    |c| (user_fn: Option<FortranUserFunction>, commute: *const c_int, op: *mut c_int,
         ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h: usize = 0;
            let rc = c(user_fn, fs::logical_to_c(fs::get(commute)), &mut h);
            if rc == 0 {
                fs::set(op, PMPI_Op_toint(h));
            }
            fs::set(ierror, rc);
        }
    }
}
