//! gfortran entry points (`mpi_x_`, `pmpi_x_`) of the implemented MPI functions for
//! `mpif.h` and `use mpi` programs: arguments by reference, `ierror` last, CHARACTER
//! lengths hidden after it. Generated from mpi/spec by `cargo xtask gen`; do not edit.
//!
//! Implemented functions without a generated Fortran binding (no mechanical mapping):
//! * `MPI_Abi_get_fortran_booleans`: parameter `void *logical_true` has no mechanical mapping
//! * `MPI_Abi_set_fortran_booleans`: parameter `void *logical_true` has no mechanical mapping
//! * `MPI_Alloc_mem`: bound by hand in `crate::fortran_manual`
//! * `MPI_Attr_get`: bound by hand in `crate::fortran_manual`
//! * `MPI_Attr_put`: bound by hand in `crate::fortran_manual`
//! * `MPI_Buffer_detach`: bound by hand in `crate::fortran_manual`
//! * `MPI_Comm_create_errhandler`: bound by hand in `crate::fortran_manual`
//! * `MPI_Comm_create_keyval`: bound by hand in `crate::fortran_manual`
//! * `MPI_Comm_detach_buffer`: bound by hand in `crate::fortran_manual`
//! * `MPI_Comm_get_attr`: bound by hand in `crate::fortran_manual`
//! * `MPI_Comm_idup`: bound by hand in `crate::fortran_manual`
//! * `MPI_Comm_idup_with_info`: bound by hand in `crate::fortran_manual`
//! * `MPI_Comm_set_attr`: bound by hand in `crate::fortran_manual`
//! * `MPI_Comm_spawn`: bound by hand in `crate::fortran_manual`
//! * `MPI_Comm_spawn_multiple`: bound by hand in `crate::fortran_manual`
//! * `MPI_File_create_errhandler`: bound by hand in `crate::fortran_manual`
//! * `MPI_Grequest_start`: bound by hand in `crate::fortran_manual`
//! * `MPI_Ineighbor_alltoallw`: bound by hand in `crate::fortran_manual`
//! * `MPI_Info_create_env`: bound by hand in `crate::fortran_manual`
//! * `MPI_Keyval_create`: bound by hand in `crate::fortran_manual`
//! * `MPI_Neighbor_alltoallw`: bound by hand in `crate::fortran_manual`
//! * `MPI_Neighbor_alltoallw_init`: bound by hand in `crate::fortran_manual`
//! * `MPI_Op_create`: bound by hand in `crate::fortran_manual`
//! * `MPI_Pcontrol`: bound by hand in `crate::fortran_manual`
//! * `MPI_Register_datarep`: bound by hand in `crate::fortran_manual`
//! * `MPI_Session_create_errhandler`: bound by hand in `crate::fortran_manual`
//! * `MPI_Session_detach_buffer`: bound by hand in `crate::fortran_manual`
//! * `MPI_Type_create_keyval`: bound by hand in `crate::fortran_manual`
//! * `MPI_Type_get_attr`: bound by hand in `crate::fortran_manual`
//! * `MPI_Type_set_attr`: bound by hand in `crate::fortran_manual`
//! * `MPI_Win_allocate`: bound by hand in `crate::fortran_manual`
//! * `MPI_Win_allocate_shared`: bound by hand in `crate::fortran_manual`
//! * `MPI_Win_create_errhandler`: bound by hand in `crate::fortran_manual`
//! * `MPI_Win_create_keyval`: bound by hand in `crate::fortran_manual`
//! * `MPI_Win_get_attr`: bound by hand in `crate::fortran_manual`
//! * `MPI_Win_set_attr`: bound by hand in `crate::fortran_manual`
//! * `MPI_Win_shared_query`: bound by hand in `crate::fortran_manual`

#![allow(unused_imports, clippy::too_many_arguments, clippy::unused_unit)]

use crate::fortran_support::{self as fs, fortran_fn};
use crate::handles::*;
use std::ffi::{c_char, c_int, c_void};

unsafe extern "C" {
    fn MPI_Abi_get_fortran_info(info: *mut usize) -> c_int;
    fn PMPI_Abi_get_fortran_info(info: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Abi_get_fortran_info`.
    mpi_abi_get_fortran_info_ / pmpi_abi_get_fortran_info_ => MPI_Abi_get_fortran_info / PMPI_Abi_get_fortran_info,
    |c| (info: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_info = PMPI_Info_fromint(fs::get(info));
            let rc = c(&mut h_info);
            fs::set(info, PMPI_Info_toint(h_info));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Abi_get_info(info: *mut usize) -> c_int;
    fn PMPI_Abi_get_info(info: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Abi_get_info`.
    mpi_abi_get_info_ / pmpi_abi_get_info_ => MPI_Abi_get_info / PMPI_Abi_get_info,
    |c| (info: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_info = PMPI_Info_fromint(fs::get(info));
            let rc = c(&mut h_info);
            fs::set(info, PMPI_Info_toint(h_info));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Abi_get_version(abi_major: *mut c_int, abi_minor: *mut c_int) -> c_int;
    fn PMPI_Abi_get_version(abi_major: *mut c_int, abi_minor: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Abi_get_version`.
    mpi_abi_get_version_ / pmpi_abi_get_version_ => MPI_Abi_get_version / PMPI_Abi_get_version,
    |c| (abi_major: *mut c_int, abi_minor: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(abi_major, abi_minor);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Abi_set_fortran_info(info: usize) -> c_int;
    fn PMPI_Abi_set_fortran_info(info: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Abi_set_fortran_info`.
    mpi_abi_set_fortran_info_ / pmpi_abi_set_fortran_info_ => MPI_Abi_set_fortran_info / PMPI_Abi_set_fortran_info,
    |c| (info: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Info_fromint(fs::get(info)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Abort(comm: usize, errorcode: c_int) -> c_int;
    fn PMPI_Abort(comm: usize, errorcode: c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Abort`.
    mpi_abort_ / pmpi_abort_ => MPI_Abort / PMPI_Abort,
    |c| (comm: *const c_int, errorcode: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), fs::get(errorcode));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Accumulate(origin_addr: *mut c_void, origin_count: c_int, origin_datatype: usize, target_rank: c_int, target_disp: isize, target_count: c_int, target_datatype: usize, op: usize, win: usize) -> c_int;
    fn PMPI_Accumulate(origin_addr: *mut c_void, origin_count: c_int, origin_datatype: usize, target_rank: c_int, target_disp: isize, target_count: c_int, target_datatype: usize, op: usize, win: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Accumulate`.
    mpi_accumulate_ / pmpi_accumulate_ => MPI_Accumulate / PMPI_Accumulate,
    |c| (origin_addr: *const c_void, origin_count: *const c_int, origin_datatype: *const c_int, target_rank: *const c_int, target_disp: *const i64, target_count: *const c_int, target_datatype: *const c_int, op: *const c_int, win: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(origin_addr), fs::get(origin_count), PMPI_Type_fromint(fs::get(origin_datatype)), fs::get(target_rank), fs::get(target_disp) as isize, fs::get(target_count), PMPI_Type_fromint(fs::get(target_datatype)), PMPI_Op_fromint(fs::get(op)), PMPI_Win_fromint(fs::get(win)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Add_error_class(errorclass: *mut c_int) -> c_int;
    fn PMPI_Add_error_class(errorclass: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Add_error_class`.
    mpi_add_error_class_ / pmpi_add_error_class_ => MPI_Add_error_class / PMPI_Add_error_class,
    |c| (errorclass: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(errorclass);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Add_error_code(errorclass: c_int, errorcode: *mut c_int) -> c_int;
    fn PMPI_Add_error_code(errorclass: c_int, errorcode: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Add_error_code`.
    mpi_add_error_code_ / pmpi_add_error_code_ => MPI_Add_error_code / PMPI_Add_error_code,
    |c| (errorclass: *const c_int, errorcode: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::get(errorclass), errorcode);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Add_error_string(errorcode: c_int, string: *const c_char) -> c_int;
    fn PMPI_Add_error_string(errorcode: c_int, string: *const c_char) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Add_error_string`.
    mpi_add_error_string_ / pmpi_add_error_string_ => MPI_Add_error_string / PMPI_Add_error_string,
    |c| (errorcode: *const c_int, string: *const u8, ierror: *mut c_int, string_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let s_string = fs::string_in(string, string_len);
            let rc = c(fs::get(errorcode), s_string.as_ptr());
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Allgather(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, comm: usize) -> c_int;
    fn PMPI_Allgather(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, comm: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Allgather`.
    mpi_allgather_ / pmpi_allgather_ => MPI_Allgather / PMPI_Allgather,
    |c| (sendbuf: *const c_void, sendcount: *const c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcount: *const c_int, recvtype: *const c_int, comm: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(sendbuf), fs::get(sendcount), PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), fs::get(recvcount), PMPI_Type_fromint(fs::get(recvtype)), PMPI_Comm_fromint(fs::get(comm)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Allgather_init(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, comm: usize, info: usize, request: *mut usize) -> c_int;
    fn PMPI_Allgather_init(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, comm: usize, info: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Allgather_init`.
    mpi_allgather_init_ / pmpi_allgather_init_ => MPI_Allgather_init / PMPI_Allgather_init,
    |c| (sendbuf: *const c_void, sendcount: *const c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcount: *const c_int, recvtype: *const c_int, comm: *const c_int, info: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::get(sendcount), PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), fs::get(recvcount), PMPI_Type_fromint(fs::get(recvtype)), PMPI_Comm_fromint(fs::get(comm)), PMPI_Info_fromint(fs::get(info)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Allgatherv(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcounts: *mut c_int, displs: *mut c_int, recvtype: usize, comm: usize) -> c_int;
    fn PMPI_Allgatherv(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcounts: *mut c_int, displs: *mut c_int, recvtype: usize, comm: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Allgatherv`.
    mpi_allgatherv_ / pmpi_allgatherv_ => MPI_Allgatherv / PMPI_Allgatherv,
    |c| (sendbuf: *const c_void, sendcount: *const c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcounts: *mut c_int, displs: *mut c_int, recvtype: *const c_int, comm: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(sendbuf), fs::get(sendcount), PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), recvcounts, displs, PMPI_Type_fromint(fs::get(recvtype)), PMPI_Comm_fromint(fs::get(comm)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Allgatherv_init(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcounts: *mut c_int, displs: *mut c_int, recvtype: usize, comm: usize, info: usize, request: *mut usize) -> c_int;
    fn PMPI_Allgatherv_init(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcounts: *mut c_int, displs: *mut c_int, recvtype: usize, comm: usize, info: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Allgatherv_init`.
    mpi_allgatherv_init_ / pmpi_allgatherv_init_ => MPI_Allgatherv_init / PMPI_Allgatherv_init,
    |c| (sendbuf: *const c_void, sendcount: *const c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcounts: *mut c_int, displs: *mut c_int, recvtype: *const c_int, comm: *const c_int, info: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::get(sendcount), PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), recvcounts, displs, PMPI_Type_fromint(fs::get(recvtype)), PMPI_Comm_fromint(fs::get(comm)), PMPI_Info_fromint(fs::get(info)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Allreduce(sendbuf: *mut c_void, recvbuf: *mut c_void, count: c_int, datatype: usize, op: usize, comm: usize) -> c_int;
    fn PMPI_Allreduce(sendbuf: *mut c_void, recvbuf: *mut c_void, count: c_int, datatype: usize, op: usize, comm: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Allreduce`.
    mpi_allreduce_ / pmpi_allreduce_ => MPI_Allreduce / PMPI_Allreduce,
    |c| (sendbuf: *const c_void, recvbuf: *const c_void, count: *const c_int, datatype: *const c_int, op: *const c_int, comm: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(sendbuf), fs::buffer(recvbuf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), PMPI_Op_fromint(fs::get(op)), PMPI_Comm_fromint(fs::get(comm)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Allreduce_init(sendbuf: *mut c_void, recvbuf: *mut c_void, count: c_int, datatype: usize, op: usize, comm: usize, info: usize, request: *mut usize) -> c_int;
    fn PMPI_Allreduce_init(sendbuf: *mut c_void, recvbuf: *mut c_void, count: c_int, datatype: usize, op: usize, comm: usize, info: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Allreduce_init`.
    mpi_allreduce_init_ / pmpi_allreduce_init_ => MPI_Allreduce_init / PMPI_Allreduce_init,
    |c| (sendbuf: *const c_void, recvbuf: *const c_void, count: *const c_int, datatype: *const c_int, op: *const c_int, comm: *const c_int, info: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::buffer(recvbuf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), PMPI_Op_fromint(fs::get(op)), PMPI_Comm_fromint(fs::get(comm)), PMPI_Info_fromint(fs::get(info)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Alltoall(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, comm: usize) -> c_int;
    fn PMPI_Alltoall(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, comm: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Alltoall`.
    mpi_alltoall_ / pmpi_alltoall_ => MPI_Alltoall / PMPI_Alltoall,
    |c| (sendbuf: *const c_void, sendcount: *const c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcount: *const c_int, recvtype: *const c_int, comm: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(sendbuf), fs::get(sendcount), PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), fs::get(recvcount), PMPI_Type_fromint(fs::get(recvtype)), PMPI_Comm_fromint(fs::get(comm)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Alltoall_init(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, comm: usize, info: usize, request: *mut usize) -> c_int;
    fn PMPI_Alltoall_init(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, comm: usize, info: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Alltoall_init`.
    mpi_alltoall_init_ / pmpi_alltoall_init_ => MPI_Alltoall_init / PMPI_Alltoall_init,
    |c| (sendbuf: *const c_void, sendcount: *const c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcount: *const c_int, recvtype: *const c_int, comm: *const c_int, info: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::get(sendcount), PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), fs::get(recvcount), PMPI_Type_fromint(fs::get(recvtype)), PMPI_Comm_fromint(fs::get(comm)), PMPI_Info_fromint(fs::get(info)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Alltoallv(sendbuf: *mut c_void, sendcounts: *mut c_int, sdispls: *mut c_int, sendtype: usize, recvbuf: *mut c_void, recvcounts: *mut c_int, rdispls: *mut c_int, recvtype: usize, comm: usize) -> c_int;
    fn PMPI_Alltoallv(sendbuf: *mut c_void, sendcounts: *mut c_int, sdispls: *mut c_int, sendtype: usize, recvbuf: *mut c_void, recvcounts: *mut c_int, rdispls: *mut c_int, recvtype: usize, comm: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Alltoallv`.
    mpi_alltoallv_ / pmpi_alltoallv_ => MPI_Alltoallv / PMPI_Alltoallv,
    |c| (sendbuf: *const c_void, sendcounts: *mut c_int, sdispls: *mut c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcounts: *mut c_int, rdispls: *mut c_int, recvtype: *const c_int, comm: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(sendbuf), sendcounts, sdispls, PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), recvcounts, rdispls, PMPI_Type_fromint(fs::get(recvtype)), PMPI_Comm_fromint(fs::get(comm)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Alltoallv_init(sendbuf: *mut c_void, sendcounts: *mut c_int, sdispls: *mut c_int, sendtype: usize, recvbuf: *mut c_void, recvcounts: *mut c_int, rdispls: *mut c_int, recvtype: usize, comm: usize, info: usize, request: *mut usize) -> c_int;
    fn PMPI_Alltoallv_init(sendbuf: *mut c_void, sendcounts: *mut c_int, sdispls: *mut c_int, sendtype: usize, recvbuf: *mut c_void, recvcounts: *mut c_int, rdispls: *mut c_int, recvtype: usize, comm: usize, info: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Alltoallv_init`.
    mpi_alltoallv_init_ / pmpi_alltoallv_init_ => MPI_Alltoallv_init / PMPI_Alltoallv_init,
    |c| (sendbuf: *const c_void, sendcounts: *mut c_int, sdispls: *mut c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcounts: *mut c_int, rdispls: *mut c_int, recvtype: *const c_int, comm: *const c_int, info: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), sendcounts, sdispls, PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), recvcounts, rdispls, PMPI_Type_fromint(fs::get(recvtype)), PMPI_Comm_fromint(fs::get(comm)), PMPI_Info_fromint(fs::get(info)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Alltoallw(sendbuf: *mut c_void, sendcounts: *mut c_int, sdispls: *mut c_int, sendtypes: *mut usize, recvbuf: *mut c_void, recvcounts: *mut c_int, rdispls: *mut c_int, recvtypes: *mut usize, comm: usize) -> c_int;
    fn PMPI_Alltoallw(sendbuf: *mut c_void, sendcounts: *mut c_int, sdispls: *mut c_int, sendtypes: *mut usize, recvbuf: *mut c_void, recvcounts: *mut c_int, rdispls: *mut c_int, recvtypes: *mut usize, comm: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Alltoallw`.
    mpi_alltoallw_ / pmpi_alltoallw_ => MPI_Alltoallw / PMPI_Alltoallw,
    |c| (sendbuf: *const c_void, sendcounts: *mut c_int, sdispls: *mut c_int, sendtypes: *mut c_int, recvbuf: *const c_void, recvcounts: *mut c_int, rdispls: *mut c_int, recvtypes: *mut c_int, comm: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut v_sendtypes: Vec<usize> = (0..if fs::buffer(sendbuf) as usize == 1 { 0 } else { crate::state::comm(PMPI_Comm_fromint(fs::get(comm))).map_or(0, |c| c.size() as usize) }).map(|i| PMPI_Type_fromint(sendtypes.add(i).read())).collect();
            let mut v_recvtypes: Vec<usize> = (0..crate::state::comm(PMPI_Comm_fromint(fs::get(comm))).map_or(0, |c| c.size() as usize)).map(|i| PMPI_Type_fromint(recvtypes.add(i).read())).collect();
            let rc = c(fs::buffer(sendbuf), sendcounts, sdispls, v_sendtypes.as_mut_ptr(), fs::buffer(recvbuf), recvcounts, rdispls, v_recvtypes.as_mut_ptr(), PMPI_Comm_fromint(fs::get(comm)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Alltoallw_init(sendbuf: *mut c_void, sendcounts: *mut c_int, sdispls: *mut c_int, sendtypes: *mut usize, recvbuf: *mut c_void, recvcounts: *mut c_int, rdispls: *mut c_int, recvtypes: *mut usize, comm: usize, info: usize, request: *mut usize) -> c_int;
    fn PMPI_Alltoallw_init(sendbuf: *mut c_void, sendcounts: *mut c_int, sdispls: *mut c_int, sendtypes: *mut usize, recvbuf: *mut c_void, recvcounts: *mut c_int, rdispls: *mut c_int, recvtypes: *mut usize, comm: usize, info: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Alltoallw_init`.
    mpi_alltoallw_init_ / pmpi_alltoallw_init_ => MPI_Alltoallw_init / PMPI_Alltoallw_init,
    |c| (sendbuf: *const c_void, sendcounts: *mut c_int, sdispls: *mut c_int, sendtypes: *mut c_int, recvbuf: *const c_void, recvcounts: *mut c_int, rdispls: *mut c_int, recvtypes: *mut c_int, comm: *const c_int, info: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut v_sendtypes: Vec<usize> = (0..if fs::buffer(sendbuf) as usize == 1 { 0 } else { crate::state::comm(PMPI_Comm_fromint(fs::get(comm))).map_or(0, |c| c.size() as usize) }).map(|i| PMPI_Type_fromint(sendtypes.add(i).read())).collect();
            let mut v_recvtypes: Vec<usize> = (0..crate::state::comm(PMPI_Comm_fromint(fs::get(comm))).map_or(0, |c| c.size() as usize)).map(|i| PMPI_Type_fromint(recvtypes.add(i).read())).collect();
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), sendcounts, sdispls, v_sendtypes.as_mut_ptr(), fs::buffer(recvbuf), recvcounts, rdispls, v_recvtypes.as_mut_ptr(), PMPI_Comm_fromint(fs::get(comm)), PMPI_Info_fromint(fs::get(info)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Attr_delete(comm: usize, keyval: c_int) -> c_int;
    fn PMPI_Attr_delete(comm: usize, keyval: c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Attr_delete`.
    mpi_attr_delete_ / pmpi_attr_delete_ => MPI_Attr_delete / PMPI_Attr_delete,
    |c| (comm: *const c_int, keyval: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), fs::get(keyval));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Barrier(comm: usize) -> c_int;
    fn PMPI_Barrier(comm: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Barrier`.
    mpi_barrier_ / pmpi_barrier_ => MPI_Barrier / PMPI_Barrier,
    |c| (comm: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Comm_fromint(fs::get(comm)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Barrier_init(comm: usize, info: usize, request: *mut usize) -> c_int;
    fn PMPI_Barrier_init(comm: usize, info: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Barrier_init`.
    mpi_barrier_init_ / pmpi_barrier_init_ => MPI_Barrier_init / PMPI_Barrier_init,
    |c| (comm: *const c_int, info: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), PMPI_Info_fromint(fs::get(info)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Bcast(buffer: *mut c_void, count: c_int, datatype: usize, root: c_int, comm: usize) -> c_int;
    fn PMPI_Bcast(buffer: *mut c_void, count: c_int, datatype: usize, root: c_int, comm: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Bcast`.
    mpi_bcast_ / pmpi_bcast_ => MPI_Bcast / PMPI_Bcast,
    |c| (buffer: *const c_void, count: *const c_int, datatype: *const c_int, root: *const c_int, comm: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(buffer), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::get(root), PMPI_Comm_fromint(fs::get(comm)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Bcast_init(buffer: *mut c_void, count: c_int, datatype: usize, root: c_int, comm: usize, info: usize, request: *mut usize) -> c_int;
    fn PMPI_Bcast_init(buffer: *mut c_void, count: c_int, datatype: usize, root: c_int, comm: usize, info: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Bcast_init`.
    mpi_bcast_init_ / pmpi_bcast_init_ => MPI_Bcast_init / PMPI_Bcast_init,
    |c| (buffer: *const c_void, count: *const c_int, datatype: *const c_int, root: *const c_int, comm: *const c_int, info: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(buffer), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::get(root), PMPI_Comm_fromint(fs::get(comm)), PMPI_Info_fromint(fs::get(info)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Bsend(buf: *mut c_void, count: c_int, datatype: usize, dest: c_int, tag: c_int, comm: usize) -> c_int;
    fn PMPI_Bsend(buf: *mut c_void, count: c_int, datatype: usize, dest: c_int, tag: c_int, comm: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Bsend`.
    mpi_bsend_ / pmpi_bsend_ => MPI_Bsend / PMPI_Bsend,
    |c| (buf: *const c_void, count: *const c_int, datatype: *const c_int, dest: *const c_int, tag: *const c_int, comm: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::get(dest), fs::get(tag), PMPI_Comm_fromint(fs::get(comm)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Bsend_init(buf: *mut c_void, count: c_int, datatype: usize, dest: c_int, tag: c_int, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Bsend_init(buf: *mut c_void, count: c_int, datatype: usize, dest: c_int, tag: c_int, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Bsend_init`.
    mpi_bsend_init_ / pmpi_bsend_init_ => MPI_Bsend_init / PMPI_Bsend_init,
    |c| (buf: *const c_void, count: *const c_int, datatype: *const c_int, dest: *const c_int, tag: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::get(dest), fs::get(tag), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Buffer_attach(buffer: *mut c_void, size: c_int) -> c_int;
    fn PMPI_Buffer_attach(buffer: *mut c_void, size: c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Buffer_attach`.
    mpi_buffer_attach_ / pmpi_buffer_attach_ => MPI_Buffer_attach / PMPI_Buffer_attach,
    |c| (buffer: *const c_void, size: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(buffer), fs::get(size));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Buffer_flush() -> c_int;
    fn PMPI_Buffer_flush() -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Buffer_flush`.
    mpi_buffer_flush_ / pmpi_buffer_flush_ => MPI_Buffer_flush / PMPI_Buffer_flush,
    |c| (ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c();
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Buffer_iflush(request: *mut usize) -> c_int;
    fn PMPI_Buffer_iflush(request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Buffer_iflush`.
    mpi_buffer_iflush_ / pmpi_buffer_iflush_ => MPI_Buffer_iflush / PMPI_Buffer_iflush,
    |c| (request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(&mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Cancel(request: *mut usize) -> c_int;
    fn PMPI_Cancel(request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Cancel`.
    mpi_cancel_ / pmpi_cancel_ => MPI_Cancel / PMPI_Cancel,
    |c| (request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(&mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Cart_coords(comm: usize, rank: c_int, maxdims: c_int, coords: *mut c_int) -> c_int;
    fn PMPI_Cart_coords(comm: usize, rank: c_int, maxdims: c_int, coords: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Cart_coords`.
    mpi_cart_coords_ / pmpi_cart_coords_ => MPI_Cart_coords / PMPI_Cart_coords,
    |c| (comm: *const c_int, rank: *const c_int, maxdims: *const c_int, coords: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), fs::get(rank), fs::get(maxdims), coords);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Cart_create(comm_old: usize, ndims: c_int, dims: *mut c_int, periods: *mut c_int, reorder: c_int, comm_cart: *mut usize) -> c_int;
    fn PMPI_Cart_create(comm_old: usize, ndims: c_int, dims: *mut c_int, periods: *mut c_int, reorder: c_int, comm_cart: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Cart_create`.
    mpi_cart_create_ / pmpi_cart_create_ => MPI_Cart_create / PMPI_Cart_create,
    |c| (comm_old: *const c_int, ndims: *const c_int, dims: *mut c_int, periods: *mut c_int, reorder: *const c_int, comm_cart: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_comm_cart = PMPI_Comm_fromint(fs::get(comm_cart));
            let rc = c(PMPI_Comm_fromint(fs::get(comm_old)), fs::get(ndims), dims, periods, fs::logical_to_c(fs::get(reorder)), &mut h_comm_cart);
            fs::set(comm_cart, PMPI_Comm_toint(h_comm_cart));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Cart_get(comm: usize, maxdims: c_int, dims: *mut c_int, periods: *mut c_int, coords: *mut c_int) -> c_int;
    fn PMPI_Cart_get(comm: usize, maxdims: c_int, dims: *mut c_int, periods: *mut c_int, coords: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Cart_get`.
    mpi_cart_get_ / pmpi_cart_get_ => MPI_Cart_get / PMPI_Cart_get,
    |c| (comm: *const c_int, maxdims: *const c_int, dims: *mut c_int, periods: *mut c_int, coords: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), fs::get(maxdims), dims, periods, coords);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Cart_map(comm: usize, ndims: c_int, dims: *mut c_int, periods: *mut c_int, newrank: *mut c_int) -> c_int;
    fn PMPI_Cart_map(comm: usize, ndims: c_int, dims: *mut c_int, periods: *mut c_int, newrank: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Cart_map`.
    mpi_cart_map_ / pmpi_cart_map_ => MPI_Cart_map / PMPI_Cart_map,
    |c| (comm: *const c_int, ndims: *const c_int, dims: *mut c_int, periods: *mut c_int, newrank: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), fs::get(ndims), dims, periods, newrank);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Cart_rank(comm: usize, coords: *mut c_int, rank: *mut c_int) -> c_int;
    fn PMPI_Cart_rank(comm: usize, coords: *mut c_int, rank: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Cart_rank`.
    mpi_cart_rank_ / pmpi_cart_rank_ => MPI_Cart_rank / PMPI_Cart_rank,
    |c| (comm: *const c_int, coords: *mut c_int, rank: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), coords, rank);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Cart_shift(comm: usize, direction: c_int, disp: c_int, rank_source: *mut c_int, rank_dest: *mut c_int) -> c_int;
    fn PMPI_Cart_shift(comm: usize, direction: c_int, disp: c_int, rank_source: *mut c_int, rank_dest: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Cart_shift`.
    mpi_cart_shift_ / pmpi_cart_shift_ => MPI_Cart_shift / PMPI_Cart_shift,
    |c| (comm: *const c_int, direction: *const c_int, disp: *const c_int, rank_source: *mut c_int, rank_dest: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), fs::get(direction), fs::get(disp), rank_source, rank_dest);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Cart_sub(comm: usize, remain_dims: *mut c_int, newcomm: *mut usize) -> c_int;
    fn PMPI_Cart_sub(comm: usize, remain_dims: *mut c_int, newcomm: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Cart_sub`.
    mpi_cart_sub_ / pmpi_cart_sub_ => MPI_Cart_sub / PMPI_Cart_sub,
    |c| (comm: *const c_int, remain_dims: *mut c_int, newcomm: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newcomm = PMPI_Comm_fromint(fs::get(newcomm));
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), remain_dims, &mut h_newcomm);
            fs::set(newcomm, PMPI_Comm_toint(h_newcomm));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Cartdim_get(comm: usize, ndims: *mut c_int) -> c_int;
    fn PMPI_Cartdim_get(comm: usize, ndims: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Cartdim_get`.
    mpi_cartdim_get_ / pmpi_cartdim_get_ => MPI_Cartdim_get / PMPI_Cartdim_get,
    |c| (comm: *const c_int, ndims: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), ndims);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Close_port(port_name: *const c_char) -> c_int;
    fn PMPI_Close_port(port_name: *const c_char) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Close_port`.
    mpi_close_port_ / pmpi_close_port_ => MPI_Close_port / PMPI_Close_port,
    |c| (port_name: *const u8, ierror: *mut c_int, port_name_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let s_port_name = fs::string_in(port_name, port_name_len);
            let rc = c(s_port_name.as_ptr());
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_accept(port_name: *const c_char, info: usize, root: c_int, comm: usize, newcomm: *mut usize) -> c_int;
    fn PMPI_Comm_accept(port_name: *const c_char, info: usize, root: c_int, comm: usize, newcomm: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_accept`.
    mpi_comm_accept_ / pmpi_comm_accept_ => MPI_Comm_accept / PMPI_Comm_accept,
    |c| (port_name: *const u8, info: *const c_int, root: *const c_int, comm: *const c_int, newcomm: *mut c_int, ierror: *mut c_int, port_name_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let s_port_name = fs::string_in(port_name, port_name_len);
            let mut h_newcomm = PMPI_Comm_fromint(fs::get(newcomm));
            let rc = c(s_port_name.as_ptr(), PMPI_Info_fromint(fs::get(info)), fs::get(root), PMPI_Comm_fromint(fs::get(comm)), &mut h_newcomm);
            fs::set(newcomm, PMPI_Comm_toint(h_newcomm));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_attach_buffer(comm: usize, buffer: *mut c_void, size: c_int) -> c_int;
    fn PMPI_Comm_attach_buffer(comm: usize, buffer: *mut c_void, size: c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_attach_buffer`.
    mpi_comm_attach_buffer_ / pmpi_comm_attach_buffer_ => MPI_Comm_attach_buffer / PMPI_Comm_attach_buffer,
    |c| (comm: *const c_int, buffer: *const c_void, size: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), fs::buffer(buffer), fs::get(size));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_call_errhandler(comm: usize, errorcode: c_int) -> c_int;
    fn PMPI_Comm_call_errhandler(comm: usize, errorcode: c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_call_errhandler`.
    mpi_comm_call_errhandler_ / pmpi_comm_call_errhandler_ => MPI_Comm_call_errhandler / PMPI_Comm_call_errhandler,
    |c| (comm: *const c_int, errorcode: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), fs::get(errorcode));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_compare(comm1: usize, comm2: usize, result: *mut c_int) -> c_int;
    fn PMPI_Comm_compare(comm1: usize, comm2: usize, result: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_compare`.
    mpi_comm_compare_ / pmpi_comm_compare_ => MPI_Comm_compare / PMPI_Comm_compare,
    |c| (comm1: *const c_int, comm2: *const c_int, result: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Comm_fromint(fs::get(comm1)), PMPI_Comm_fromint(fs::get(comm2)), result);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_connect(port_name: *const c_char, info: usize, root: c_int, comm: usize, newcomm: *mut usize) -> c_int;
    fn PMPI_Comm_connect(port_name: *const c_char, info: usize, root: c_int, comm: usize, newcomm: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_connect`.
    mpi_comm_connect_ / pmpi_comm_connect_ => MPI_Comm_connect / PMPI_Comm_connect,
    |c| (port_name: *const u8, info: *const c_int, root: *const c_int, comm: *const c_int, newcomm: *mut c_int, ierror: *mut c_int, port_name_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let s_port_name = fs::string_in(port_name, port_name_len);
            let mut h_newcomm = PMPI_Comm_fromint(fs::get(newcomm));
            let rc = c(s_port_name.as_ptr(), PMPI_Info_fromint(fs::get(info)), fs::get(root), PMPI_Comm_fromint(fs::get(comm)), &mut h_newcomm);
            fs::set(newcomm, PMPI_Comm_toint(h_newcomm));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_create(comm: usize, group: usize, newcomm: *mut usize) -> c_int;
    fn PMPI_Comm_create(comm: usize, group: usize, newcomm: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_create`.
    mpi_comm_create_ / pmpi_comm_create_ => MPI_Comm_create / PMPI_Comm_create,
    |c| (comm: *const c_int, group: *const c_int, newcomm: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newcomm = PMPI_Comm_fromint(fs::get(newcomm));
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), PMPI_Group_fromint(fs::get(group)), &mut h_newcomm);
            fs::set(newcomm, PMPI_Comm_toint(h_newcomm));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_create_from_group(group: usize, stringtag: *const c_char, info: usize, errhandler: usize, newcomm: *mut usize) -> c_int;
    fn PMPI_Comm_create_from_group(group: usize, stringtag: *const c_char, info: usize, errhandler: usize, newcomm: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_create_from_group`.
    mpi_comm_create_from_group_ / pmpi_comm_create_from_group_ => MPI_Comm_create_from_group / PMPI_Comm_create_from_group,
    |c| (group: *const c_int, stringtag: *const u8, info: *const c_int, errhandler: *const c_int, newcomm: *mut c_int, ierror: *mut c_int, stringtag_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let s_stringtag = fs::string_in(stringtag, stringtag_len);
            let mut h_newcomm = PMPI_Comm_fromint(fs::get(newcomm));
            let rc = c(PMPI_Group_fromint(fs::get(group)), s_stringtag.as_ptr(), PMPI_Info_fromint(fs::get(info)), PMPI_Errhandler_fromint(fs::get(errhandler)), &mut h_newcomm);
            fs::set(newcomm, PMPI_Comm_toint(h_newcomm));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_create_group(comm: usize, group: usize, tag: c_int, newcomm: *mut usize) -> c_int;
    fn PMPI_Comm_create_group(comm: usize, group: usize, tag: c_int, newcomm: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_create_group`.
    mpi_comm_create_group_ / pmpi_comm_create_group_ => MPI_Comm_create_group / PMPI_Comm_create_group,
    |c| (comm: *const c_int, group: *const c_int, tag: *const c_int, newcomm: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newcomm = PMPI_Comm_fromint(fs::get(newcomm));
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), PMPI_Group_fromint(fs::get(group)), fs::get(tag), &mut h_newcomm);
            fs::set(newcomm, PMPI_Comm_toint(h_newcomm));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_delete_attr(comm: usize, comm_keyval: c_int) -> c_int;
    fn PMPI_Comm_delete_attr(comm: usize, comm_keyval: c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_delete_attr`.
    mpi_comm_delete_attr_ / pmpi_comm_delete_attr_ => MPI_Comm_delete_attr / PMPI_Comm_delete_attr,
    |c| (comm: *const c_int, comm_keyval: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), fs::get(comm_keyval));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_disconnect(comm: *mut usize) -> c_int;
    fn PMPI_Comm_disconnect(comm: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_disconnect`.
    mpi_comm_disconnect_ / pmpi_comm_disconnect_ => MPI_Comm_disconnect / PMPI_Comm_disconnect,
    |c| (comm: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_comm = PMPI_Comm_fromint(fs::get(comm));
            let rc = c(&mut h_comm);
            fs::set(comm, PMPI_Comm_toint(h_comm));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_dup(comm: usize, newcomm: *mut usize) -> c_int;
    fn PMPI_Comm_dup(comm: usize, newcomm: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_dup`.
    mpi_comm_dup_ / pmpi_comm_dup_ => MPI_Comm_dup / PMPI_Comm_dup,
    |c| (comm: *const c_int, newcomm: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newcomm = PMPI_Comm_fromint(fs::get(newcomm));
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), &mut h_newcomm);
            fs::set(newcomm, PMPI_Comm_toint(h_newcomm));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_dup_with_info(comm: usize, info: usize, newcomm: *mut usize) -> c_int;
    fn PMPI_Comm_dup_with_info(comm: usize, info: usize, newcomm: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_dup_with_info`.
    mpi_comm_dup_with_info_ / pmpi_comm_dup_with_info_ => MPI_Comm_dup_with_info / PMPI_Comm_dup_with_info,
    |c| (comm: *const c_int, info: *const c_int, newcomm: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newcomm = PMPI_Comm_fromint(fs::get(newcomm));
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), PMPI_Info_fromint(fs::get(info)), &mut h_newcomm);
            fs::set(newcomm, PMPI_Comm_toint(h_newcomm));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_flush_buffer(comm: usize) -> c_int;
    fn PMPI_Comm_flush_buffer(comm: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_flush_buffer`.
    mpi_comm_flush_buffer_ / pmpi_comm_flush_buffer_ => MPI_Comm_flush_buffer / PMPI_Comm_flush_buffer,
    |c| (comm: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Comm_fromint(fs::get(comm)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_free(comm: *mut usize) -> c_int;
    fn PMPI_Comm_free(comm: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_free`.
    mpi_comm_free_ / pmpi_comm_free_ => MPI_Comm_free / PMPI_Comm_free,
    |c| (comm: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_comm = PMPI_Comm_fromint(fs::get(comm));
            let rc = c(&mut h_comm);
            fs::set(comm, PMPI_Comm_toint(h_comm));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_free_keyval(comm_keyval: *mut c_int) -> c_int;
    fn PMPI_Comm_free_keyval(comm_keyval: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_free_keyval`.
    mpi_comm_free_keyval_ / pmpi_comm_free_keyval_ => MPI_Comm_free_keyval / PMPI_Comm_free_keyval,
    |c| (comm_keyval: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(comm_keyval);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_get_errhandler(comm: usize, errhandler: *mut usize) -> c_int;
    fn PMPI_Comm_get_errhandler(comm: usize, errhandler: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_get_errhandler`.
    mpi_comm_get_errhandler_ / pmpi_comm_get_errhandler_ => MPI_Comm_get_errhandler / PMPI_Comm_get_errhandler,
    |c| (comm: *const c_int, errhandler: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_errhandler = PMPI_Errhandler_fromint(fs::get(errhandler));
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), &mut h_errhandler);
            fs::set(errhandler, PMPI_Errhandler_toint(h_errhandler));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_get_info(comm: usize, info_used: *mut usize) -> c_int;
    fn PMPI_Comm_get_info(comm: usize, info_used: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_get_info`.
    mpi_comm_get_info_ / pmpi_comm_get_info_ => MPI_Comm_get_info / PMPI_Comm_get_info,
    |c| (comm: *const c_int, info_used: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_info_used = PMPI_Info_fromint(fs::get(info_used));
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), &mut h_info_used);
            fs::set(info_used, PMPI_Info_toint(h_info_used));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_get_name(comm: usize, comm_name: *mut c_char, resultlen: *mut c_int) -> c_int;
    fn PMPI_Comm_get_name(comm: usize, comm_name: *mut c_char, resultlen: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_get_name`.
    mpi_comm_get_name_ / pmpi_comm_get_name_ => MPI_Comm_get_name / PMPI_Comm_get_name,
    |c| (comm: *const c_int, comm_name: *mut u8, resultlen: *mut c_int, ierror: *mut c_int, comm_name_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut s_comm_name = fs::string_buffer(comm_name_len);
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), s_comm_name.as_mut_ptr().cast(), resultlen);
            if rc == 0 { fs::string_out(comm_name, comm_name_len, &s_comm_name); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_get_parent(parent: *mut usize) -> c_int;
    fn PMPI_Comm_get_parent(parent: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_get_parent`.
    mpi_comm_get_parent_ / pmpi_comm_get_parent_ => MPI_Comm_get_parent / PMPI_Comm_get_parent,
    |c| (parent: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_parent = PMPI_Comm_fromint(fs::get(parent));
            let rc = c(&mut h_parent);
            fs::set(parent, PMPI_Comm_toint(h_parent));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_group(comm: usize, group: *mut usize) -> c_int;
    fn PMPI_Comm_group(comm: usize, group: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_group`.
    mpi_comm_group_ / pmpi_comm_group_ => MPI_Comm_group / PMPI_Comm_group,
    |c| (comm: *const c_int, group: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_group = PMPI_Group_fromint(fs::get(group));
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), &mut h_group);
            fs::set(group, PMPI_Group_toint(h_group));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_iflush_buffer(comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Comm_iflush_buffer(comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_iflush_buffer`.
    mpi_comm_iflush_buffer_ / pmpi_comm_iflush_buffer_ => MPI_Comm_iflush_buffer / PMPI_Comm_iflush_buffer,
    |c| (comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_join(fd: c_int, intercomm: *mut usize) -> c_int;
    fn PMPI_Comm_join(fd: c_int, intercomm: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_join`.
    mpi_comm_join_ / pmpi_comm_join_ => MPI_Comm_join / PMPI_Comm_join,
    |c| (fd: *const c_int, intercomm: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_intercomm = PMPI_Comm_fromint(fs::get(intercomm));
            let rc = c(fs::get(fd), &mut h_intercomm);
            fs::set(intercomm, PMPI_Comm_toint(h_intercomm));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_rank(comm: usize, rank: *mut c_int) -> c_int;
    fn PMPI_Comm_rank(comm: usize, rank: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_rank`.
    mpi_comm_rank_ / pmpi_comm_rank_ => MPI_Comm_rank / PMPI_Comm_rank,
    |c| (comm: *const c_int, rank: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), rank);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_remote_group(comm: usize, group: *mut usize) -> c_int;
    fn PMPI_Comm_remote_group(comm: usize, group: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_remote_group`.
    mpi_comm_remote_group_ / pmpi_comm_remote_group_ => MPI_Comm_remote_group / PMPI_Comm_remote_group,
    |c| (comm: *const c_int, group: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_group = PMPI_Group_fromint(fs::get(group));
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), &mut h_group);
            fs::set(group, PMPI_Group_toint(h_group));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_remote_size(comm: usize, size: *mut c_int) -> c_int;
    fn PMPI_Comm_remote_size(comm: usize, size: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_remote_size`.
    mpi_comm_remote_size_ / pmpi_comm_remote_size_ => MPI_Comm_remote_size / PMPI_Comm_remote_size,
    |c| (comm: *const c_int, size: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), size);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_set_errhandler(comm: usize, errhandler: usize) -> c_int;
    fn PMPI_Comm_set_errhandler(comm: usize, errhandler: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_set_errhandler`.
    mpi_comm_set_errhandler_ / pmpi_comm_set_errhandler_ => MPI_Comm_set_errhandler / PMPI_Comm_set_errhandler,
    |c| (comm: *const c_int, errhandler: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), PMPI_Errhandler_fromint(fs::get(errhandler)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_set_info(comm: usize, info: usize) -> c_int;
    fn PMPI_Comm_set_info(comm: usize, info: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_set_info`.
    mpi_comm_set_info_ / pmpi_comm_set_info_ => MPI_Comm_set_info / PMPI_Comm_set_info,
    |c| (comm: *const c_int, info: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), PMPI_Info_fromint(fs::get(info)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_set_name(comm: usize, comm_name: *const c_char) -> c_int;
    fn PMPI_Comm_set_name(comm: usize, comm_name: *const c_char) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_set_name`.
    mpi_comm_set_name_ / pmpi_comm_set_name_ => MPI_Comm_set_name / PMPI_Comm_set_name,
    |c| (comm: *const c_int, comm_name: *const u8, ierror: *mut c_int, comm_name_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let s_comm_name = fs::string_in(comm_name, comm_name_len);
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), s_comm_name.as_ptr());
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_size(comm: usize, size: *mut c_int) -> c_int;
    fn PMPI_Comm_size(comm: usize, size: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_size`.
    mpi_comm_size_ / pmpi_comm_size_ => MPI_Comm_size / PMPI_Comm_size,
    |c| (comm: *const c_int, size: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), size);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_split(comm: usize, color: c_int, key: c_int, newcomm: *mut usize) -> c_int;
    fn PMPI_Comm_split(comm: usize, color: c_int, key: c_int, newcomm: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_split`.
    mpi_comm_split_ / pmpi_comm_split_ => MPI_Comm_split / PMPI_Comm_split,
    |c| (comm: *const c_int, color: *const c_int, key: *const c_int, newcomm: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newcomm = PMPI_Comm_fromint(fs::get(newcomm));
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), fs::get(color), fs::get(key), &mut h_newcomm);
            fs::set(newcomm, PMPI_Comm_toint(h_newcomm));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_split_type(comm: usize, split_type: c_int, key: c_int, info: usize, newcomm: *mut usize) -> c_int;
    fn PMPI_Comm_split_type(comm: usize, split_type: c_int, key: c_int, info: usize, newcomm: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_split_type`.
    mpi_comm_split_type_ / pmpi_comm_split_type_ => MPI_Comm_split_type / PMPI_Comm_split_type,
    |c| (comm: *const c_int, split_type: *const c_int, key: *const c_int, info: *const c_int, newcomm: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newcomm = PMPI_Comm_fromint(fs::get(newcomm));
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), fs::get(split_type), fs::get(key), PMPI_Info_fromint(fs::get(info)), &mut h_newcomm);
            fs::set(newcomm, PMPI_Comm_toint(h_newcomm));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Comm_test_inter(comm: usize, flag: *mut c_int) -> c_int;
    fn PMPI_Comm_test_inter(comm: usize, flag: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Comm_test_inter`.
    mpi_comm_test_inter_ / pmpi_comm_test_inter_ => MPI_Comm_test_inter / PMPI_Comm_test_inter,
    |c| (comm: *const c_int, flag: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut l_flag: c_int = 0;
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), &mut l_flag);
            if rc == 0 { fs::set(flag, fs::logical_from_c(l_flag)); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Compare_and_swap(origin_addr: *mut c_void, compare_addr: *mut c_void, result_addr: *mut c_void, datatype: usize, target_rank: c_int, target_disp: isize, win: usize) -> c_int;
    fn PMPI_Compare_and_swap(origin_addr: *mut c_void, compare_addr: *mut c_void, result_addr: *mut c_void, datatype: usize, target_rank: c_int, target_disp: isize, win: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Compare_and_swap`.
    mpi_compare_and_swap_ / pmpi_compare_and_swap_ => MPI_Compare_and_swap / PMPI_Compare_and_swap,
    |c| (origin_addr: *const c_void, compare_addr: *const c_void, result_addr: *const c_void, datatype: *const c_int, target_rank: *const c_int, target_disp: *const i64, win: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(origin_addr), fs::buffer(compare_addr), fs::buffer(result_addr), PMPI_Type_fromint(fs::get(datatype)), fs::get(target_rank), fs::get(target_disp) as isize, PMPI_Win_fromint(fs::get(win)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Dims_create(nnodes: c_int, ndims: c_int, dims: *mut c_int) -> c_int;
    fn PMPI_Dims_create(nnodes: c_int, ndims: c_int, dims: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Dims_create`.
    mpi_dims_create_ / pmpi_dims_create_ => MPI_Dims_create / PMPI_Dims_create,
    |c| (nnodes: *const c_int, ndims: *const c_int, dims: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::get(nnodes), fs::get(ndims), dims);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Dist_graph_create(comm_old: usize, n: c_int, sources: *mut c_int, degrees: *mut c_int, destinations: *mut c_int, weights: *mut c_int, info: usize, reorder: c_int, comm_dist_graph: *mut usize) -> c_int;
    fn PMPI_Dist_graph_create(comm_old: usize, n: c_int, sources: *mut c_int, degrees: *mut c_int, destinations: *mut c_int, weights: *mut c_int, info: usize, reorder: c_int, comm_dist_graph: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Dist_graph_create`.
    mpi_dist_graph_create_ / pmpi_dist_graph_create_ => MPI_Dist_graph_create / PMPI_Dist_graph_create,
    |c| (comm_old: *const c_int, n: *const c_int, sources: *mut c_int, degrees: *mut c_int, destinations: *mut c_int, weights: *mut c_int, info: *const c_int, reorder: *const c_int, comm_dist_graph: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_comm_dist_graph = PMPI_Comm_fromint(fs::get(comm_dist_graph));
            let rc = c(PMPI_Comm_fromint(fs::get(comm_old)), fs::get(n), sources, degrees, destinations, fs::int_array(weights), PMPI_Info_fromint(fs::get(info)), fs::logical_to_c(fs::get(reorder)), &mut h_comm_dist_graph);
            fs::set(comm_dist_graph, PMPI_Comm_toint(h_comm_dist_graph));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Dist_graph_create_adjacent(comm_old: usize, indegree: c_int, sources: *mut c_int, sourceweights: *mut c_int, outdegree: c_int, destinations: *mut c_int, destweights: *mut c_int, info: usize, reorder: c_int, comm_dist_graph: *mut usize) -> c_int;
    fn PMPI_Dist_graph_create_adjacent(comm_old: usize, indegree: c_int, sources: *mut c_int, sourceweights: *mut c_int, outdegree: c_int, destinations: *mut c_int, destweights: *mut c_int, info: usize, reorder: c_int, comm_dist_graph: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Dist_graph_create_adjacent`.
    mpi_dist_graph_create_adjacent_ / pmpi_dist_graph_create_adjacent_ => MPI_Dist_graph_create_adjacent / PMPI_Dist_graph_create_adjacent,
    |c| (comm_old: *const c_int, indegree: *const c_int, sources: *mut c_int, sourceweights: *mut c_int, outdegree: *const c_int, destinations: *mut c_int, destweights: *mut c_int, info: *const c_int, reorder: *const c_int, comm_dist_graph: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_comm_dist_graph = PMPI_Comm_fromint(fs::get(comm_dist_graph));
            let rc = c(PMPI_Comm_fromint(fs::get(comm_old)), fs::get(indegree), sources, fs::int_array(sourceweights), fs::get(outdegree), destinations, fs::int_array(destweights), PMPI_Info_fromint(fs::get(info)), fs::logical_to_c(fs::get(reorder)), &mut h_comm_dist_graph);
            fs::set(comm_dist_graph, PMPI_Comm_toint(h_comm_dist_graph));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Dist_graph_neighbors(comm: usize, maxindegree: c_int, sources: *mut c_int, sourceweights: *mut c_int, maxoutdegree: c_int, destinations: *mut c_int, destweights: *mut c_int) -> c_int;
    fn PMPI_Dist_graph_neighbors(comm: usize, maxindegree: c_int, sources: *mut c_int, sourceweights: *mut c_int, maxoutdegree: c_int, destinations: *mut c_int, destweights: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Dist_graph_neighbors`.
    mpi_dist_graph_neighbors_ / pmpi_dist_graph_neighbors_ => MPI_Dist_graph_neighbors / PMPI_Dist_graph_neighbors,
    |c| (comm: *const c_int, maxindegree: *const c_int, sources: *mut c_int, sourceweights: *mut c_int, maxoutdegree: *const c_int, destinations: *mut c_int, destweights: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), fs::get(maxindegree), sources, fs::int_array(sourceweights), fs::get(maxoutdegree), destinations, fs::int_array(destweights));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Dist_graph_neighbors_count(comm: usize, indegree: *mut c_int, outdegree: *mut c_int, weighted: *mut c_int) -> c_int;
    fn PMPI_Dist_graph_neighbors_count(comm: usize, indegree: *mut c_int, outdegree: *mut c_int, weighted: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Dist_graph_neighbors_count`.
    mpi_dist_graph_neighbors_count_ / pmpi_dist_graph_neighbors_count_ => MPI_Dist_graph_neighbors_count / PMPI_Dist_graph_neighbors_count,
    |c| (comm: *const c_int, indegree: *mut c_int, outdegree: *mut c_int, weighted: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut l_weighted: c_int = 0;
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), indegree, outdegree, &mut l_weighted);
            if rc == 0 { fs::set(weighted, fs::logical_from_c(l_weighted)); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Errhandler_free(errhandler: *mut usize) -> c_int;
    fn PMPI_Errhandler_free(errhandler: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Errhandler_free`.
    mpi_errhandler_free_ / pmpi_errhandler_free_ => MPI_Errhandler_free / PMPI_Errhandler_free,
    |c| (errhandler: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_errhandler = PMPI_Errhandler_fromint(fs::get(errhandler));
            let rc = c(&mut h_errhandler);
            fs::set(errhandler, PMPI_Errhandler_toint(h_errhandler));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Error_class(errorcode: c_int, errorclass: *mut c_int) -> c_int;
    fn PMPI_Error_class(errorcode: c_int, errorclass: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Error_class`.
    mpi_error_class_ / pmpi_error_class_ => MPI_Error_class / PMPI_Error_class,
    |c| (errorcode: *const c_int, errorclass: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::get(errorcode), errorclass);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Error_string(errorcode: c_int, string: *mut c_char, resultlen: *mut c_int) -> c_int;
    fn PMPI_Error_string(errorcode: c_int, string: *mut c_char, resultlen: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Error_string`.
    mpi_error_string_ / pmpi_error_string_ => MPI_Error_string / PMPI_Error_string,
    |c| (errorcode: *const c_int, string: *mut u8, resultlen: *mut c_int, ierror: *mut c_int, string_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut s_string = fs::string_buffer(string_len);
            let rc = c(fs::get(errorcode), s_string.as_mut_ptr().cast(), resultlen);
            if rc == 0 { fs::string_out(string, string_len, &s_string); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Exscan(sendbuf: *mut c_void, recvbuf: *mut c_void, count: c_int, datatype: usize, op: usize, comm: usize) -> c_int;
    fn PMPI_Exscan(sendbuf: *mut c_void, recvbuf: *mut c_void, count: c_int, datatype: usize, op: usize, comm: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Exscan`.
    mpi_exscan_ / pmpi_exscan_ => MPI_Exscan / PMPI_Exscan,
    |c| (sendbuf: *const c_void, recvbuf: *const c_void, count: *const c_int, datatype: *const c_int, op: *const c_int, comm: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(sendbuf), fs::buffer(recvbuf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), PMPI_Op_fromint(fs::get(op)), PMPI_Comm_fromint(fs::get(comm)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Exscan_init(sendbuf: *mut c_void, recvbuf: *mut c_void, count: c_int, datatype: usize, op: usize, comm: usize, info: usize, request: *mut usize) -> c_int;
    fn PMPI_Exscan_init(sendbuf: *mut c_void, recvbuf: *mut c_void, count: c_int, datatype: usize, op: usize, comm: usize, info: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Exscan_init`.
    mpi_exscan_init_ / pmpi_exscan_init_ => MPI_Exscan_init / PMPI_Exscan_init,
    |c| (sendbuf: *const c_void, recvbuf: *const c_void, count: *const c_int, datatype: *const c_int, op: *const c_int, comm: *const c_int, info: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::buffer(recvbuf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), PMPI_Op_fromint(fs::get(op)), PMPI_Comm_fromint(fs::get(comm)), PMPI_Info_fromint(fs::get(info)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Fetch_and_op(origin_addr: *mut c_void, result_addr: *mut c_void, datatype: usize, target_rank: c_int, target_disp: isize, op: usize, win: usize) -> c_int;
    fn PMPI_Fetch_and_op(origin_addr: *mut c_void, result_addr: *mut c_void, datatype: usize, target_rank: c_int, target_disp: isize, op: usize, win: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Fetch_and_op`.
    mpi_fetch_and_op_ / pmpi_fetch_and_op_ => MPI_Fetch_and_op / PMPI_Fetch_and_op,
    |c| (origin_addr: *const c_void, result_addr: *const c_void, datatype: *const c_int, target_rank: *const c_int, target_disp: *const i64, op: *const c_int, win: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(origin_addr), fs::buffer(result_addr), PMPI_Type_fromint(fs::get(datatype)), fs::get(target_rank), fs::get(target_disp) as isize, PMPI_Op_fromint(fs::get(op)), PMPI_Win_fromint(fs::get(win)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_call_errhandler(fh: usize, errorcode: c_int) -> c_int;
    fn PMPI_File_call_errhandler(fh: usize, errorcode: c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_call_errhandler`.
    mpi_file_call_errhandler_ / pmpi_file_call_errhandler_ => MPI_File_call_errhandler / PMPI_File_call_errhandler,
    |c| (fh: *const c_int, errorcode: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::get(errorcode));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_close(fh: *mut usize) -> c_int;
    fn PMPI_File_close(fh: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_close`.
    mpi_file_close_ / pmpi_file_close_ => MPI_File_close / PMPI_File_close,
    |c| (fh: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_fh = PMPI_File_fromint(fs::get(fh));
            let rc = c(&mut h_fh);
            fs::set(fh, PMPI_File_toint(h_fh));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_delete(filename: *const c_char, info: usize) -> c_int;
    fn PMPI_File_delete(filename: *const c_char, info: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_delete`.
    mpi_file_delete_ / pmpi_file_delete_ => MPI_File_delete / PMPI_File_delete,
    |c| (filename: *const u8, info: *const c_int, ierror: *mut c_int, filename_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let s_filename = fs::string_in(filename, filename_len);
            let rc = c(s_filename.as_ptr(), PMPI_Info_fromint(fs::get(info)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_get_amode(fh: usize, amode: *mut c_int) -> c_int;
    fn PMPI_File_get_amode(fh: usize, amode: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_get_amode`.
    mpi_file_get_amode_ / pmpi_file_get_amode_ => MPI_File_get_amode / PMPI_File_get_amode,
    |c| (fh: *const c_int, amode: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), amode);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_get_atomicity(fh: usize, flag: *mut c_int) -> c_int;
    fn PMPI_File_get_atomicity(fh: usize, flag: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_get_atomicity`.
    mpi_file_get_atomicity_ / pmpi_file_get_atomicity_ => MPI_File_get_atomicity / PMPI_File_get_atomicity,
    |c| (fh: *const c_int, flag: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut l_flag: c_int = 0;
            let rc = c(PMPI_File_fromint(fs::get(fh)), &mut l_flag);
            if rc == 0 { fs::set(flag, fs::logical_from_c(l_flag)); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_get_byte_offset(fh: usize, offset: i64, disp: *mut i64) -> c_int;
    fn PMPI_File_get_byte_offset(fh: usize, offset: i64, disp: *mut i64) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_get_byte_offset`.
    mpi_file_get_byte_offset_ / pmpi_file_get_byte_offset_ => MPI_File_get_byte_offset / PMPI_File_get_byte_offset,
    |c| (fh: *const c_int, offset: *const i64, disp: *mut i64, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::get(offset), disp.cast());
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_get_errhandler(file: usize, errhandler: *mut usize) -> c_int;
    fn PMPI_File_get_errhandler(file: usize, errhandler: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_get_errhandler`.
    mpi_file_get_errhandler_ / pmpi_file_get_errhandler_ => MPI_File_get_errhandler / PMPI_File_get_errhandler,
    |c| (file: *const c_int, errhandler: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_errhandler = PMPI_Errhandler_fromint(fs::get(errhandler));
            let rc = c(PMPI_File_fromint(fs::get(file)), &mut h_errhandler);
            fs::set(errhandler, PMPI_Errhandler_toint(h_errhandler));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_get_group(fh: usize, group: *mut usize) -> c_int;
    fn PMPI_File_get_group(fh: usize, group: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_get_group`.
    mpi_file_get_group_ / pmpi_file_get_group_ => MPI_File_get_group / PMPI_File_get_group,
    |c| (fh: *const c_int, group: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_group = PMPI_Group_fromint(fs::get(group));
            let rc = c(PMPI_File_fromint(fs::get(fh)), &mut h_group);
            fs::set(group, PMPI_Group_toint(h_group));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_get_info(fh: usize, info_used: *mut usize) -> c_int;
    fn PMPI_File_get_info(fh: usize, info_used: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_get_info`.
    mpi_file_get_info_ / pmpi_file_get_info_ => MPI_File_get_info / PMPI_File_get_info,
    |c| (fh: *const c_int, info_used: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_info_used = PMPI_Info_fromint(fs::get(info_used));
            let rc = c(PMPI_File_fromint(fs::get(fh)), &mut h_info_used);
            fs::set(info_used, PMPI_Info_toint(h_info_used));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_get_position(fh: usize, offset: *mut i64) -> c_int;
    fn PMPI_File_get_position(fh: usize, offset: *mut i64) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_get_position`.
    mpi_file_get_position_ / pmpi_file_get_position_ => MPI_File_get_position / PMPI_File_get_position,
    |c| (fh: *const c_int, offset: *mut i64, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), offset.cast());
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_get_position_shared(fh: usize, offset: *mut i64) -> c_int;
    fn PMPI_File_get_position_shared(fh: usize, offset: *mut i64) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_get_position_shared`.
    mpi_file_get_position_shared_ / pmpi_file_get_position_shared_ => MPI_File_get_position_shared / PMPI_File_get_position_shared,
    |c| (fh: *const c_int, offset: *mut i64, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), offset.cast());
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_get_size(fh: usize, size: *mut i64) -> c_int;
    fn PMPI_File_get_size(fh: usize, size: *mut i64) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_get_size`.
    mpi_file_get_size_ / pmpi_file_get_size_ => MPI_File_get_size / PMPI_File_get_size,
    |c| (fh: *const c_int, size: *mut i64, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), size.cast());
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_get_type_extent(fh: usize, datatype: usize, extent: *mut isize) -> c_int;
    fn PMPI_File_get_type_extent(fh: usize, datatype: usize, extent: *mut isize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_get_type_extent`.
    mpi_file_get_type_extent_ / pmpi_file_get_type_extent_ => MPI_File_get_type_extent / PMPI_File_get_type_extent,
    |c| (fh: *const c_int, datatype: *const c_int, extent: *mut i64, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), PMPI_Type_fromint(fs::get(datatype)), extent.cast());
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_get_view(fh: usize, disp: *mut i64, etype: *mut usize, filetype: *mut usize, datarep: *mut c_char) -> c_int;
    fn PMPI_File_get_view(fh: usize, disp: *mut i64, etype: *mut usize, filetype: *mut usize, datarep: *mut c_char) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_get_view`.
    mpi_file_get_view_ / pmpi_file_get_view_ => MPI_File_get_view / PMPI_File_get_view,
    |c| (fh: *const c_int, disp: *mut i64, etype: *mut c_int, filetype: *mut c_int, datarep: *mut u8, ierror: *mut c_int, datarep_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_etype = PMPI_Type_fromint(fs::get(etype));
            let mut h_filetype = PMPI_Type_fromint(fs::get(filetype));
            let mut s_datarep = fs::string_buffer(datarep_len);
            let rc = c(PMPI_File_fromint(fs::get(fh)), disp.cast(), &mut h_etype, &mut h_filetype, s_datarep.as_mut_ptr().cast());
            fs::set(etype, PMPI_Type_toint(h_etype));
            fs::set(filetype, PMPI_Type_toint(h_filetype));
            if rc == 0 { fs::string_out(datarep, datarep_len, &s_datarep); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_iread(fh: usize, buf: *mut c_void, count: c_int, datatype: usize, request: *mut usize) -> c_int;
    fn PMPI_File_iread(fh: usize, buf: *mut c_void, count: c_int, datatype: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_iread`.
    mpi_file_iread_ / pmpi_file_iread_ => MPI_File_iread / PMPI_File_iread,
    |c| (fh: *const c_int, buf: *const c_void, count: *const c_int, datatype: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_iread_all(fh: usize, buf: *mut c_void, count: c_int, datatype: usize, request: *mut usize) -> c_int;
    fn PMPI_File_iread_all(fh: usize, buf: *mut c_void, count: c_int, datatype: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_iread_all`.
    mpi_file_iread_all_ / pmpi_file_iread_all_ => MPI_File_iread_all / PMPI_File_iread_all,
    |c| (fh: *const c_int, buf: *const c_void, count: *const c_int, datatype: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_iread_at(fh: usize, offset: i64, buf: *mut c_void, count: c_int, datatype: usize, request: *mut usize) -> c_int;
    fn PMPI_File_iread_at(fh: usize, offset: i64, buf: *mut c_void, count: c_int, datatype: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_iread_at`.
    mpi_file_iread_at_ / pmpi_file_iread_at_ => MPI_File_iread_at / PMPI_File_iread_at,
    |c| (fh: *const c_int, offset: *const i64, buf: *const c_void, count: *const c_int, datatype: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::get(offset), fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_iread_at_all(fh: usize, offset: i64, buf: *mut c_void, count: c_int, datatype: usize, request: *mut usize) -> c_int;
    fn PMPI_File_iread_at_all(fh: usize, offset: i64, buf: *mut c_void, count: c_int, datatype: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_iread_at_all`.
    mpi_file_iread_at_all_ / pmpi_file_iread_at_all_ => MPI_File_iread_at_all / PMPI_File_iread_at_all,
    |c| (fh: *const c_int, offset: *const i64, buf: *const c_void, count: *const c_int, datatype: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::get(offset), fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_iread_shared(fh: usize, buf: *mut c_void, count: c_int, datatype: usize, request: *mut usize) -> c_int;
    fn PMPI_File_iread_shared(fh: usize, buf: *mut c_void, count: c_int, datatype: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_iread_shared`.
    mpi_file_iread_shared_ / pmpi_file_iread_shared_ => MPI_File_iread_shared / PMPI_File_iread_shared,
    |c| (fh: *const c_int, buf: *const c_void, count: *const c_int, datatype: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_iwrite(fh: usize, buf: *mut c_void, count: c_int, datatype: usize, request: *mut usize) -> c_int;
    fn PMPI_File_iwrite(fh: usize, buf: *mut c_void, count: c_int, datatype: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_iwrite`.
    mpi_file_iwrite_ / pmpi_file_iwrite_ => MPI_File_iwrite / PMPI_File_iwrite,
    |c| (fh: *const c_int, buf: *const c_void, count: *const c_int, datatype: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_iwrite_all(fh: usize, buf: *mut c_void, count: c_int, datatype: usize, request: *mut usize) -> c_int;
    fn PMPI_File_iwrite_all(fh: usize, buf: *mut c_void, count: c_int, datatype: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_iwrite_all`.
    mpi_file_iwrite_all_ / pmpi_file_iwrite_all_ => MPI_File_iwrite_all / PMPI_File_iwrite_all,
    |c| (fh: *const c_int, buf: *const c_void, count: *const c_int, datatype: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_iwrite_at(fh: usize, offset: i64, buf: *mut c_void, count: c_int, datatype: usize, request: *mut usize) -> c_int;
    fn PMPI_File_iwrite_at(fh: usize, offset: i64, buf: *mut c_void, count: c_int, datatype: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_iwrite_at`.
    mpi_file_iwrite_at_ / pmpi_file_iwrite_at_ => MPI_File_iwrite_at / PMPI_File_iwrite_at,
    |c| (fh: *const c_int, offset: *const i64, buf: *const c_void, count: *const c_int, datatype: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::get(offset), fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_iwrite_at_all(fh: usize, offset: i64, buf: *mut c_void, count: c_int, datatype: usize, request: *mut usize) -> c_int;
    fn PMPI_File_iwrite_at_all(fh: usize, offset: i64, buf: *mut c_void, count: c_int, datatype: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_iwrite_at_all`.
    mpi_file_iwrite_at_all_ / pmpi_file_iwrite_at_all_ => MPI_File_iwrite_at_all / PMPI_File_iwrite_at_all,
    |c| (fh: *const c_int, offset: *const i64, buf: *const c_void, count: *const c_int, datatype: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::get(offset), fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_iwrite_shared(fh: usize, buf: *mut c_void, count: c_int, datatype: usize, request: *mut usize) -> c_int;
    fn PMPI_File_iwrite_shared(fh: usize, buf: *mut c_void, count: c_int, datatype: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_iwrite_shared`.
    mpi_file_iwrite_shared_ / pmpi_file_iwrite_shared_ => MPI_File_iwrite_shared / PMPI_File_iwrite_shared,
    |c| (fh: *const c_int, buf: *const c_void, count: *const c_int, datatype: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_open(comm: usize, filename: *const c_char, amode: c_int, info: usize, fh: *mut usize) -> c_int;
    fn PMPI_File_open(comm: usize, filename: *const c_char, amode: c_int, info: usize, fh: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_open`.
    mpi_file_open_ / pmpi_file_open_ => MPI_File_open / PMPI_File_open,
    |c| (comm: *const c_int, filename: *const u8, amode: *const c_int, info: *const c_int, fh: *mut c_int, ierror: *mut c_int, filename_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let s_filename = fs::string_in(filename, filename_len);
            let mut h_fh = PMPI_File_fromint(fs::get(fh));
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), s_filename.as_ptr(), fs::get(amode), PMPI_Info_fromint(fs::get(info)), &mut h_fh);
            fs::set(fh, PMPI_File_toint(h_fh));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_preallocate(fh: usize, size: i64) -> c_int;
    fn PMPI_File_preallocate(fh: usize, size: i64) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_preallocate`.
    mpi_file_preallocate_ / pmpi_file_preallocate_ => MPI_File_preallocate / PMPI_File_preallocate,
    |c| (fh: *const c_int, size: *const i64, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::get(size));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_read(fh: usize, buf: *mut c_void, count: c_int, datatype: usize, status: *mut c_void) -> c_int;
    fn PMPI_File_read(fh: usize, buf: *mut c_void, count: c_int, datatype: usize, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_read`.
    mpi_file_read_ / pmpi_file_read_ => MPI_File_read / PMPI_File_read,
    |c| (fh: *const c_int, buf: *const c_void, count: *const c_int, datatype: *const c_int, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::status(status));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_read_all(fh: usize, buf: *mut c_void, count: c_int, datatype: usize, status: *mut c_void) -> c_int;
    fn PMPI_File_read_all(fh: usize, buf: *mut c_void, count: c_int, datatype: usize, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_read_all`.
    mpi_file_read_all_ / pmpi_file_read_all_ => MPI_File_read_all / PMPI_File_read_all,
    |c| (fh: *const c_int, buf: *const c_void, count: *const c_int, datatype: *const c_int, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::status(status));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_read_all_begin(fh: usize, buf: *mut c_void, count: c_int, datatype: usize) -> c_int;
    fn PMPI_File_read_all_begin(fh: usize, buf: *mut c_void, count: c_int, datatype: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_read_all_begin`.
    mpi_file_read_all_begin_ / pmpi_file_read_all_begin_ => MPI_File_read_all_begin / PMPI_File_read_all_begin,
    |c| (fh: *const c_int, buf: *const c_void, count: *const c_int, datatype: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_read_all_end(fh: usize, buf: *mut c_void, status: *mut c_void) -> c_int;
    fn PMPI_File_read_all_end(fh: usize, buf: *mut c_void, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_read_all_end`.
    mpi_file_read_all_end_ / pmpi_file_read_all_end_ => MPI_File_read_all_end / PMPI_File_read_all_end,
    |c| (fh: *const c_int, buf: *const c_void, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::buffer(buf), fs::status(status));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_read_at(fh: usize, offset: i64, buf: *mut c_void, count: c_int, datatype: usize, status: *mut c_void) -> c_int;
    fn PMPI_File_read_at(fh: usize, offset: i64, buf: *mut c_void, count: c_int, datatype: usize, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_read_at`.
    mpi_file_read_at_ / pmpi_file_read_at_ => MPI_File_read_at / PMPI_File_read_at,
    |c| (fh: *const c_int, offset: *const i64, buf: *const c_void, count: *const c_int, datatype: *const c_int, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::get(offset), fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::status(status));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_read_at_all(fh: usize, offset: i64, buf: *mut c_void, count: c_int, datatype: usize, status: *mut c_void) -> c_int;
    fn PMPI_File_read_at_all(fh: usize, offset: i64, buf: *mut c_void, count: c_int, datatype: usize, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_read_at_all`.
    mpi_file_read_at_all_ / pmpi_file_read_at_all_ => MPI_File_read_at_all / PMPI_File_read_at_all,
    |c| (fh: *const c_int, offset: *const i64, buf: *const c_void, count: *const c_int, datatype: *const c_int, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::get(offset), fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::status(status));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_read_at_all_begin(fh: usize, offset: i64, buf: *mut c_void, count: c_int, datatype: usize) -> c_int;
    fn PMPI_File_read_at_all_begin(fh: usize, offset: i64, buf: *mut c_void, count: c_int, datatype: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_read_at_all_begin`.
    mpi_file_read_at_all_begin_ / pmpi_file_read_at_all_begin_ => MPI_File_read_at_all_begin / PMPI_File_read_at_all_begin,
    |c| (fh: *const c_int, offset: *const i64, buf: *const c_void, count: *const c_int, datatype: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::get(offset), fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_read_at_all_end(fh: usize, buf: *mut c_void, status: *mut c_void) -> c_int;
    fn PMPI_File_read_at_all_end(fh: usize, buf: *mut c_void, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_read_at_all_end`.
    mpi_file_read_at_all_end_ / pmpi_file_read_at_all_end_ => MPI_File_read_at_all_end / PMPI_File_read_at_all_end,
    |c| (fh: *const c_int, buf: *const c_void, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::buffer(buf), fs::status(status));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_read_ordered(fh: usize, buf: *mut c_void, count: c_int, datatype: usize, status: *mut c_void) -> c_int;
    fn PMPI_File_read_ordered(fh: usize, buf: *mut c_void, count: c_int, datatype: usize, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_read_ordered`.
    mpi_file_read_ordered_ / pmpi_file_read_ordered_ => MPI_File_read_ordered / PMPI_File_read_ordered,
    |c| (fh: *const c_int, buf: *const c_void, count: *const c_int, datatype: *const c_int, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::status(status));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_read_ordered_begin(fh: usize, buf: *mut c_void, count: c_int, datatype: usize) -> c_int;
    fn PMPI_File_read_ordered_begin(fh: usize, buf: *mut c_void, count: c_int, datatype: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_read_ordered_begin`.
    mpi_file_read_ordered_begin_ / pmpi_file_read_ordered_begin_ => MPI_File_read_ordered_begin / PMPI_File_read_ordered_begin,
    |c| (fh: *const c_int, buf: *const c_void, count: *const c_int, datatype: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_read_ordered_end(fh: usize, buf: *mut c_void, status: *mut c_void) -> c_int;
    fn PMPI_File_read_ordered_end(fh: usize, buf: *mut c_void, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_read_ordered_end`.
    mpi_file_read_ordered_end_ / pmpi_file_read_ordered_end_ => MPI_File_read_ordered_end / PMPI_File_read_ordered_end,
    |c| (fh: *const c_int, buf: *const c_void, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::buffer(buf), fs::status(status));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_read_shared(fh: usize, buf: *mut c_void, count: c_int, datatype: usize, status: *mut c_void) -> c_int;
    fn PMPI_File_read_shared(fh: usize, buf: *mut c_void, count: c_int, datatype: usize, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_read_shared`.
    mpi_file_read_shared_ / pmpi_file_read_shared_ => MPI_File_read_shared / PMPI_File_read_shared,
    |c| (fh: *const c_int, buf: *const c_void, count: *const c_int, datatype: *const c_int, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::status(status));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_seek(fh: usize, offset: i64, whence: c_int) -> c_int;
    fn PMPI_File_seek(fh: usize, offset: i64, whence: c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_seek`.
    mpi_file_seek_ / pmpi_file_seek_ => MPI_File_seek / PMPI_File_seek,
    |c| (fh: *const c_int, offset: *const i64, whence: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::get(offset), fs::get(whence));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_seek_shared(fh: usize, offset: i64, whence: c_int) -> c_int;
    fn PMPI_File_seek_shared(fh: usize, offset: i64, whence: c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_seek_shared`.
    mpi_file_seek_shared_ / pmpi_file_seek_shared_ => MPI_File_seek_shared / PMPI_File_seek_shared,
    |c| (fh: *const c_int, offset: *const i64, whence: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::get(offset), fs::get(whence));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_set_atomicity(fh: usize, flag: c_int) -> c_int;
    fn PMPI_File_set_atomicity(fh: usize, flag: c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_set_atomicity`.
    mpi_file_set_atomicity_ / pmpi_file_set_atomicity_ => MPI_File_set_atomicity / PMPI_File_set_atomicity,
    |c| (fh: *const c_int, flag: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::logical_to_c(fs::get(flag)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_set_errhandler(file: usize, errhandler: usize) -> c_int;
    fn PMPI_File_set_errhandler(file: usize, errhandler: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_set_errhandler`.
    mpi_file_set_errhandler_ / pmpi_file_set_errhandler_ => MPI_File_set_errhandler / PMPI_File_set_errhandler,
    |c| (file: *const c_int, errhandler: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(file)), PMPI_Errhandler_fromint(fs::get(errhandler)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_set_info(fh: usize, info: usize) -> c_int;
    fn PMPI_File_set_info(fh: usize, info: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_set_info`.
    mpi_file_set_info_ / pmpi_file_set_info_ => MPI_File_set_info / PMPI_File_set_info,
    |c| (fh: *const c_int, info: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), PMPI_Info_fromint(fs::get(info)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_set_size(fh: usize, size: i64) -> c_int;
    fn PMPI_File_set_size(fh: usize, size: i64) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_set_size`.
    mpi_file_set_size_ / pmpi_file_set_size_ => MPI_File_set_size / PMPI_File_set_size,
    |c| (fh: *const c_int, size: *const i64, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::get(size));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_set_view(fh: usize, disp: i64, etype: usize, filetype: usize, datarep: *const c_char, info: usize) -> c_int;
    fn PMPI_File_set_view(fh: usize, disp: i64, etype: usize, filetype: usize, datarep: *const c_char, info: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_set_view`.
    mpi_file_set_view_ / pmpi_file_set_view_ => MPI_File_set_view / PMPI_File_set_view,
    |c| (fh: *const c_int, disp: *const i64, etype: *const c_int, filetype: *const c_int, datarep: *const u8, info: *const c_int, ierror: *mut c_int, datarep_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let s_datarep = fs::string_in(datarep, datarep_len);
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::get(disp), PMPI_Type_fromint(fs::get(etype)), PMPI_Type_fromint(fs::get(filetype)), s_datarep.as_ptr(), PMPI_Info_fromint(fs::get(info)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_sync(fh: usize) -> c_int;
    fn PMPI_File_sync(fh: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_sync`.
    mpi_file_sync_ / pmpi_file_sync_ => MPI_File_sync / PMPI_File_sync,
    |c| (fh: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_write(fh: usize, buf: *mut c_void, count: c_int, datatype: usize, status: *mut c_void) -> c_int;
    fn PMPI_File_write(fh: usize, buf: *mut c_void, count: c_int, datatype: usize, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_write`.
    mpi_file_write_ / pmpi_file_write_ => MPI_File_write / PMPI_File_write,
    |c| (fh: *const c_int, buf: *const c_void, count: *const c_int, datatype: *const c_int, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::status(status));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_write_all(fh: usize, buf: *mut c_void, count: c_int, datatype: usize, status: *mut c_void) -> c_int;
    fn PMPI_File_write_all(fh: usize, buf: *mut c_void, count: c_int, datatype: usize, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_write_all`.
    mpi_file_write_all_ / pmpi_file_write_all_ => MPI_File_write_all / PMPI_File_write_all,
    |c| (fh: *const c_int, buf: *const c_void, count: *const c_int, datatype: *const c_int, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::status(status));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_write_all_begin(fh: usize, buf: *mut c_void, count: c_int, datatype: usize) -> c_int;
    fn PMPI_File_write_all_begin(fh: usize, buf: *mut c_void, count: c_int, datatype: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_write_all_begin`.
    mpi_file_write_all_begin_ / pmpi_file_write_all_begin_ => MPI_File_write_all_begin / PMPI_File_write_all_begin,
    |c| (fh: *const c_int, buf: *const c_void, count: *const c_int, datatype: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_write_all_end(fh: usize, buf: *mut c_void, status: *mut c_void) -> c_int;
    fn PMPI_File_write_all_end(fh: usize, buf: *mut c_void, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_write_all_end`.
    mpi_file_write_all_end_ / pmpi_file_write_all_end_ => MPI_File_write_all_end / PMPI_File_write_all_end,
    |c| (fh: *const c_int, buf: *const c_void, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::buffer(buf), fs::status(status));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_write_at(fh: usize, offset: i64, buf: *mut c_void, count: c_int, datatype: usize, status: *mut c_void) -> c_int;
    fn PMPI_File_write_at(fh: usize, offset: i64, buf: *mut c_void, count: c_int, datatype: usize, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_write_at`.
    mpi_file_write_at_ / pmpi_file_write_at_ => MPI_File_write_at / PMPI_File_write_at,
    |c| (fh: *const c_int, offset: *const i64, buf: *const c_void, count: *const c_int, datatype: *const c_int, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::get(offset), fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::status(status));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_write_at_all(fh: usize, offset: i64, buf: *mut c_void, count: c_int, datatype: usize, status: *mut c_void) -> c_int;
    fn PMPI_File_write_at_all(fh: usize, offset: i64, buf: *mut c_void, count: c_int, datatype: usize, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_write_at_all`.
    mpi_file_write_at_all_ / pmpi_file_write_at_all_ => MPI_File_write_at_all / PMPI_File_write_at_all,
    |c| (fh: *const c_int, offset: *const i64, buf: *const c_void, count: *const c_int, datatype: *const c_int, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::get(offset), fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::status(status));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_write_at_all_begin(fh: usize, offset: i64, buf: *mut c_void, count: c_int, datatype: usize) -> c_int;
    fn PMPI_File_write_at_all_begin(fh: usize, offset: i64, buf: *mut c_void, count: c_int, datatype: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_write_at_all_begin`.
    mpi_file_write_at_all_begin_ / pmpi_file_write_at_all_begin_ => MPI_File_write_at_all_begin / PMPI_File_write_at_all_begin,
    |c| (fh: *const c_int, offset: *const i64, buf: *const c_void, count: *const c_int, datatype: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::get(offset), fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_write_at_all_end(fh: usize, buf: *mut c_void, status: *mut c_void) -> c_int;
    fn PMPI_File_write_at_all_end(fh: usize, buf: *mut c_void, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_write_at_all_end`.
    mpi_file_write_at_all_end_ / pmpi_file_write_at_all_end_ => MPI_File_write_at_all_end / PMPI_File_write_at_all_end,
    |c| (fh: *const c_int, buf: *const c_void, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::buffer(buf), fs::status(status));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_write_ordered(fh: usize, buf: *mut c_void, count: c_int, datatype: usize, status: *mut c_void) -> c_int;
    fn PMPI_File_write_ordered(fh: usize, buf: *mut c_void, count: c_int, datatype: usize, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_write_ordered`.
    mpi_file_write_ordered_ / pmpi_file_write_ordered_ => MPI_File_write_ordered / PMPI_File_write_ordered,
    |c| (fh: *const c_int, buf: *const c_void, count: *const c_int, datatype: *const c_int, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::status(status));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_write_ordered_begin(fh: usize, buf: *mut c_void, count: c_int, datatype: usize) -> c_int;
    fn PMPI_File_write_ordered_begin(fh: usize, buf: *mut c_void, count: c_int, datatype: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_write_ordered_begin`.
    mpi_file_write_ordered_begin_ / pmpi_file_write_ordered_begin_ => MPI_File_write_ordered_begin / PMPI_File_write_ordered_begin,
    |c| (fh: *const c_int, buf: *const c_void, count: *const c_int, datatype: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_write_ordered_end(fh: usize, buf: *mut c_void, status: *mut c_void) -> c_int;
    fn PMPI_File_write_ordered_end(fh: usize, buf: *mut c_void, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_write_ordered_end`.
    mpi_file_write_ordered_end_ / pmpi_file_write_ordered_end_ => MPI_File_write_ordered_end / PMPI_File_write_ordered_end,
    |c| (fh: *const c_int, buf: *const c_void, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::buffer(buf), fs::status(status));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_File_write_shared(fh: usize, buf: *mut c_void, count: c_int, datatype: usize, status: *mut c_void) -> c_int;
    fn PMPI_File_write_shared(fh: usize, buf: *mut c_void, count: c_int, datatype: usize, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_File_write_shared`.
    mpi_file_write_shared_ / pmpi_file_write_shared_ => MPI_File_write_shared / PMPI_File_write_shared,
    |c| (fh: *const c_int, buf: *const c_void, count: *const c_int, datatype: *const c_int, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_File_fromint(fs::get(fh)), fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::status(status));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Finalize() -> c_int;
    fn PMPI_Finalize() -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Finalize`.
    mpi_finalize_ / pmpi_finalize_ => MPI_Finalize / PMPI_Finalize,
    |c| (ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c();
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Finalized(flag: *mut c_int) -> c_int;
    fn PMPI_Finalized(flag: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Finalized`.
    mpi_finalized_ / pmpi_finalized_ => MPI_Finalized / PMPI_Finalized,
    |c| (flag: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut l_flag: c_int = 0;
            let rc = c(&mut l_flag);
            if rc == 0 { fs::set(flag, fs::logical_from_c(l_flag)); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Free_mem(base: *mut c_void) -> c_int;
    fn PMPI_Free_mem(base: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Free_mem`.
    mpi_free_mem_ / pmpi_free_mem_ => MPI_Free_mem / PMPI_Free_mem,
    |c| (base: *const c_void, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(base));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Gather(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, root: c_int, comm: usize) -> c_int;
    fn PMPI_Gather(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, root: c_int, comm: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Gather`.
    mpi_gather_ / pmpi_gather_ => MPI_Gather / PMPI_Gather,
    |c| (sendbuf: *const c_void, sendcount: *const c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcount: *const c_int, recvtype: *const c_int, root: *const c_int, comm: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(sendbuf), fs::get(sendcount), PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), fs::get(recvcount), PMPI_Type_fromint(fs::get(recvtype)), fs::get(root), PMPI_Comm_fromint(fs::get(comm)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Gather_init(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, root: c_int, comm: usize, info: usize, request: *mut usize) -> c_int;
    fn PMPI_Gather_init(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, root: c_int, comm: usize, info: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Gather_init`.
    mpi_gather_init_ / pmpi_gather_init_ => MPI_Gather_init / PMPI_Gather_init,
    |c| (sendbuf: *const c_void, sendcount: *const c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcount: *const c_int, recvtype: *const c_int, root: *const c_int, comm: *const c_int, info: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::get(sendcount), PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), fs::get(recvcount), PMPI_Type_fromint(fs::get(recvtype)), fs::get(root), PMPI_Comm_fromint(fs::get(comm)), PMPI_Info_fromint(fs::get(info)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Gatherv(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcounts: *mut c_int, displs: *mut c_int, recvtype: usize, root: c_int, comm: usize) -> c_int;
    fn PMPI_Gatherv(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcounts: *mut c_int, displs: *mut c_int, recvtype: usize, root: c_int, comm: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Gatherv`.
    mpi_gatherv_ / pmpi_gatherv_ => MPI_Gatherv / PMPI_Gatherv,
    |c| (sendbuf: *const c_void, sendcount: *const c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcounts: *mut c_int, displs: *mut c_int, recvtype: *const c_int, root: *const c_int, comm: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(sendbuf), fs::get(sendcount), PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), recvcounts, displs, PMPI_Type_fromint(fs::get(recvtype)), fs::get(root), PMPI_Comm_fromint(fs::get(comm)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Gatherv_init(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcounts: *mut c_int, displs: *mut c_int, recvtype: usize, root: c_int, comm: usize, info: usize, request: *mut usize) -> c_int;
    fn PMPI_Gatherv_init(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcounts: *mut c_int, displs: *mut c_int, recvtype: usize, root: c_int, comm: usize, info: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Gatherv_init`.
    mpi_gatherv_init_ / pmpi_gatherv_init_ => MPI_Gatherv_init / PMPI_Gatherv_init,
    |c| (sendbuf: *const c_void, sendcount: *const c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcounts: *mut c_int, displs: *mut c_int, recvtype: *const c_int, root: *const c_int, comm: *const c_int, info: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::get(sendcount), PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), recvcounts, displs, PMPI_Type_fromint(fs::get(recvtype)), fs::get(root), PMPI_Comm_fromint(fs::get(comm)), PMPI_Info_fromint(fs::get(info)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Get(origin_addr: *mut c_void, origin_count: c_int, origin_datatype: usize, target_rank: c_int, target_disp: isize, target_count: c_int, target_datatype: usize, win: usize) -> c_int;
    fn PMPI_Get(origin_addr: *mut c_void, origin_count: c_int, origin_datatype: usize, target_rank: c_int, target_disp: isize, target_count: c_int, target_datatype: usize, win: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Get`.
    mpi_get_ / pmpi_get_ => MPI_Get / PMPI_Get,
    |c| (origin_addr: *const c_void, origin_count: *const c_int, origin_datatype: *const c_int, target_rank: *const c_int, target_disp: *const i64, target_count: *const c_int, target_datatype: *const c_int, win: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(origin_addr), fs::get(origin_count), PMPI_Type_fromint(fs::get(origin_datatype)), fs::get(target_rank), fs::get(target_disp) as isize, fs::get(target_count), PMPI_Type_fromint(fs::get(target_datatype)), PMPI_Win_fromint(fs::get(win)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Get_accumulate(origin_addr: *mut c_void, origin_count: c_int, origin_datatype: usize, result_addr: *mut c_void, result_count: c_int, result_datatype: usize, target_rank: c_int, target_disp: isize, target_count: c_int, target_datatype: usize, op: usize, win: usize) -> c_int;
    fn PMPI_Get_accumulate(origin_addr: *mut c_void, origin_count: c_int, origin_datatype: usize, result_addr: *mut c_void, result_count: c_int, result_datatype: usize, target_rank: c_int, target_disp: isize, target_count: c_int, target_datatype: usize, op: usize, win: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Get_accumulate`.
    mpi_get_accumulate_ / pmpi_get_accumulate_ => MPI_Get_accumulate / PMPI_Get_accumulate,
    |c| (origin_addr: *const c_void, origin_count: *const c_int, origin_datatype: *const c_int, result_addr: *const c_void, result_count: *const c_int, result_datatype: *const c_int, target_rank: *const c_int, target_disp: *const i64, target_count: *const c_int, target_datatype: *const c_int, op: *const c_int, win: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(origin_addr), fs::get(origin_count), PMPI_Type_fromint(fs::get(origin_datatype)), fs::buffer(result_addr), fs::get(result_count), PMPI_Type_fromint(fs::get(result_datatype)), fs::get(target_rank), fs::get(target_disp) as isize, fs::get(target_count), PMPI_Type_fromint(fs::get(target_datatype)), PMPI_Op_fromint(fs::get(op)), PMPI_Win_fromint(fs::get(win)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Get_address(location: *mut c_void, address: *mut isize) -> c_int;
    fn PMPI_Get_address(location: *mut c_void, address: *mut isize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Get_address`.
    mpi_get_address_ / pmpi_get_address_ => MPI_Get_address / PMPI_Get_address,
    |c| (location: *const c_void, address: *mut i64, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(location), address.cast());
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Get_count(status: *mut c_void, datatype: usize, count: *mut c_int) -> c_int;
    fn PMPI_Get_count(status: *mut c_void, datatype: usize, count: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Get_count`.
    mpi_get_count_ / pmpi_get_count_ => MPI_Get_count / PMPI_Get_count,
    |c| (status: *mut c_int, datatype: *const c_int, count: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::status(status), PMPI_Type_fromint(fs::get(datatype)), count);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Get_elements(status: *mut c_void, datatype: usize, count: *mut c_int) -> c_int;
    fn PMPI_Get_elements(status: *mut c_void, datatype: usize, count: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Get_elements`.
    mpi_get_elements_ / pmpi_get_elements_ => MPI_Get_elements / PMPI_Get_elements,
    |c| (status: *mut c_int, datatype: *const c_int, count: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::status(status), PMPI_Type_fromint(fs::get(datatype)), count);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Get_elements_x(status: *mut c_void, datatype: usize, count: *mut i64) -> c_int;
    fn PMPI_Get_elements_x(status: *mut c_void, datatype: usize, count: *mut i64) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Get_elements_x`.
    mpi_get_elements_x_ / pmpi_get_elements_x_ => MPI_Get_elements_x / PMPI_Get_elements_x,
    |c| (status: *mut c_int, datatype: *const c_int, count: *mut i64, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::status(status), PMPI_Type_fromint(fs::get(datatype)), count.cast());
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Get_hw_resource_info(hw_info: *mut usize) -> c_int;
    fn PMPI_Get_hw_resource_info(hw_info: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Get_hw_resource_info`.
    mpi_get_hw_resource_info_ / pmpi_get_hw_resource_info_ => MPI_Get_hw_resource_info / PMPI_Get_hw_resource_info,
    |c| (hw_info: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_hw_info = PMPI_Info_fromint(fs::get(hw_info));
            let rc = c(&mut h_hw_info);
            fs::set(hw_info, PMPI_Info_toint(h_hw_info));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Get_library_version(version: *mut c_char, resultlen: *mut c_int) -> c_int;
    fn PMPI_Get_library_version(version: *mut c_char, resultlen: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Get_library_version`.
    mpi_get_library_version_ / pmpi_get_library_version_ => MPI_Get_library_version / PMPI_Get_library_version,
    |c| (version: *mut u8, resultlen: *mut c_int, ierror: *mut c_int, version_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut s_version = fs::string_buffer(version_len);
            let rc = c(s_version.as_mut_ptr().cast(), resultlen);
            if rc == 0 { fs::string_out(version, version_len, &s_version); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Get_processor_name(name: *mut c_char, resultlen: *mut c_int) -> c_int;
    fn PMPI_Get_processor_name(name: *mut c_char, resultlen: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Get_processor_name`.
    mpi_get_processor_name_ / pmpi_get_processor_name_ => MPI_Get_processor_name / PMPI_Get_processor_name,
    |c| (name: *mut u8, resultlen: *mut c_int, ierror: *mut c_int, name_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut s_name = fs::string_buffer(name_len);
            let rc = c(s_name.as_mut_ptr().cast(), resultlen);
            if rc == 0 { fs::string_out(name, name_len, &s_name); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Get_version(version: *mut c_int, subversion: *mut c_int) -> c_int;
    fn PMPI_Get_version(version: *mut c_int, subversion: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Get_version`.
    mpi_get_version_ / pmpi_get_version_ => MPI_Get_version / PMPI_Get_version,
    |c| (version: *mut c_int, subversion: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(version, subversion);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Graph_create(comm_old: usize, nnodes: c_int, indx: *mut c_int, edges: *mut c_int, reorder: c_int, comm_graph: *mut usize) -> c_int;
    fn PMPI_Graph_create(comm_old: usize, nnodes: c_int, indx: *mut c_int, edges: *mut c_int, reorder: c_int, comm_graph: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Graph_create`.
    mpi_graph_create_ / pmpi_graph_create_ => MPI_Graph_create / PMPI_Graph_create,
    |c| (comm_old: *const c_int, nnodes: *const c_int, indx: *mut c_int, edges: *mut c_int, reorder: *const c_int, comm_graph: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_comm_graph = PMPI_Comm_fromint(fs::get(comm_graph));
            let rc = c(PMPI_Comm_fromint(fs::get(comm_old)), fs::get(nnodes), indx, edges, fs::logical_to_c(fs::get(reorder)), &mut h_comm_graph);
            if rc == 0 { fs::set(indx, fs::index_from_c(fs::get(indx))); }
            fs::set(comm_graph, PMPI_Comm_toint(h_comm_graph));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Graph_get(comm: usize, maxindex: c_int, maxedges: c_int, indx: *mut c_int, edges: *mut c_int) -> c_int;
    fn PMPI_Graph_get(comm: usize, maxindex: c_int, maxedges: c_int, indx: *mut c_int, edges: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Graph_get`.
    mpi_graph_get_ / pmpi_graph_get_ => MPI_Graph_get / PMPI_Graph_get,
    |c| (comm: *const c_int, maxindex: *const c_int, maxedges: *const c_int, indx: *mut c_int, edges: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), fs::get(maxindex), fs::get(maxedges), indx, edges);
            if rc == 0 { fs::set(indx, fs::index_from_c(fs::get(indx))); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Graph_map(comm: usize, nnodes: c_int, indx: *mut c_int, edges: *mut c_int, newrank: *mut c_int) -> c_int;
    fn PMPI_Graph_map(comm: usize, nnodes: c_int, indx: *mut c_int, edges: *mut c_int, newrank: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Graph_map`.
    mpi_graph_map_ / pmpi_graph_map_ => MPI_Graph_map / PMPI_Graph_map,
    |c| (comm: *const c_int, nnodes: *const c_int, indx: *mut c_int, edges: *mut c_int, newrank: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), fs::get(nnodes), indx, edges, newrank);
            if rc == 0 { fs::set(indx, fs::index_from_c(fs::get(indx))); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Graph_neighbors(comm: usize, rank: c_int, maxneighbors: c_int, neighbors: *mut c_int) -> c_int;
    fn PMPI_Graph_neighbors(comm: usize, rank: c_int, maxneighbors: c_int, neighbors: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Graph_neighbors`.
    mpi_graph_neighbors_ / pmpi_graph_neighbors_ => MPI_Graph_neighbors / PMPI_Graph_neighbors,
    |c| (comm: *const c_int, rank: *const c_int, maxneighbors: *const c_int, neighbors: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), fs::get(rank), fs::get(maxneighbors), neighbors);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Graph_neighbors_count(comm: usize, rank: c_int, nneighbors: *mut c_int) -> c_int;
    fn PMPI_Graph_neighbors_count(comm: usize, rank: c_int, nneighbors: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Graph_neighbors_count`.
    mpi_graph_neighbors_count_ / pmpi_graph_neighbors_count_ => MPI_Graph_neighbors_count / PMPI_Graph_neighbors_count,
    |c| (comm: *const c_int, rank: *const c_int, nneighbors: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), fs::get(rank), nneighbors);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Graphdims_get(comm: usize, nnodes: *mut c_int, nedges: *mut c_int) -> c_int;
    fn PMPI_Graphdims_get(comm: usize, nnodes: *mut c_int, nedges: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Graphdims_get`.
    mpi_graphdims_get_ / pmpi_graphdims_get_ => MPI_Graphdims_get / PMPI_Graphdims_get,
    |c| (comm: *const c_int, nnodes: *mut c_int, nedges: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), nnodes, nedges);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Grequest_complete(request: usize) -> c_int;
    fn PMPI_Grequest_complete(request: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Grequest_complete`.
    mpi_grequest_complete_ / pmpi_grequest_complete_ => MPI_Grequest_complete / PMPI_Grequest_complete,
    |c| (request: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Request_fromint(fs::get(request)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Group_compare(group1: usize, group2: usize, result: *mut c_int) -> c_int;
    fn PMPI_Group_compare(group1: usize, group2: usize, result: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Group_compare`.
    mpi_group_compare_ / pmpi_group_compare_ => MPI_Group_compare / PMPI_Group_compare,
    |c| (group1: *const c_int, group2: *const c_int, result: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Group_fromint(fs::get(group1)), PMPI_Group_fromint(fs::get(group2)), result);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Group_difference(group1: usize, group2: usize, newgroup: *mut usize) -> c_int;
    fn PMPI_Group_difference(group1: usize, group2: usize, newgroup: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Group_difference`.
    mpi_group_difference_ / pmpi_group_difference_ => MPI_Group_difference / PMPI_Group_difference,
    |c| (group1: *const c_int, group2: *const c_int, newgroup: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newgroup = PMPI_Group_fromint(fs::get(newgroup));
            let rc = c(PMPI_Group_fromint(fs::get(group1)), PMPI_Group_fromint(fs::get(group2)), &mut h_newgroup);
            fs::set(newgroup, PMPI_Group_toint(h_newgroup));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Group_excl(group: usize, n: c_int, ranks: *mut c_int, newgroup: *mut usize) -> c_int;
    fn PMPI_Group_excl(group: usize, n: c_int, ranks: *mut c_int, newgroup: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Group_excl`.
    mpi_group_excl_ / pmpi_group_excl_ => MPI_Group_excl / PMPI_Group_excl,
    |c| (group: *const c_int, n: *const c_int, ranks: *mut c_int, newgroup: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newgroup = PMPI_Group_fromint(fs::get(newgroup));
            let rc = c(PMPI_Group_fromint(fs::get(group)), fs::get(n), ranks, &mut h_newgroup);
            fs::set(newgroup, PMPI_Group_toint(h_newgroup));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Group_free(group: *mut usize) -> c_int;
    fn PMPI_Group_free(group: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Group_free`.
    mpi_group_free_ / pmpi_group_free_ => MPI_Group_free / PMPI_Group_free,
    |c| (group: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_group = PMPI_Group_fromint(fs::get(group));
            let rc = c(&mut h_group);
            fs::set(group, PMPI_Group_toint(h_group));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Group_from_session_pset(session: usize, pset_name: *const c_char, newgroup: *mut usize) -> c_int;
    fn PMPI_Group_from_session_pset(session: usize, pset_name: *const c_char, newgroup: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Group_from_session_pset`.
    mpi_group_from_session_pset_ / pmpi_group_from_session_pset_ => MPI_Group_from_session_pset / PMPI_Group_from_session_pset,
    |c| (session: *const c_int, pset_name: *const u8, newgroup: *mut c_int, ierror: *mut c_int, pset_name_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let s_pset_name = fs::string_in(pset_name, pset_name_len);
            let mut h_newgroup = PMPI_Group_fromint(fs::get(newgroup));
            let rc = c(PMPI_Session_fromint(fs::get(session)), s_pset_name.as_ptr(), &mut h_newgroup);
            fs::set(newgroup, PMPI_Group_toint(h_newgroup));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Group_incl(group: usize, n: c_int, ranks: *mut c_int, newgroup: *mut usize) -> c_int;
    fn PMPI_Group_incl(group: usize, n: c_int, ranks: *mut c_int, newgroup: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Group_incl`.
    mpi_group_incl_ / pmpi_group_incl_ => MPI_Group_incl / PMPI_Group_incl,
    |c| (group: *const c_int, n: *const c_int, ranks: *mut c_int, newgroup: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newgroup = PMPI_Group_fromint(fs::get(newgroup));
            let rc = c(PMPI_Group_fromint(fs::get(group)), fs::get(n), ranks, &mut h_newgroup);
            fs::set(newgroup, PMPI_Group_toint(h_newgroup));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Group_intersection(group1: usize, group2: usize, newgroup: *mut usize) -> c_int;
    fn PMPI_Group_intersection(group1: usize, group2: usize, newgroup: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Group_intersection`.
    mpi_group_intersection_ / pmpi_group_intersection_ => MPI_Group_intersection / PMPI_Group_intersection,
    |c| (group1: *const c_int, group2: *const c_int, newgroup: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newgroup = PMPI_Group_fromint(fs::get(newgroup));
            let rc = c(PMPI_Group_fromint(fs::get(group1)), PMPI_Group_fromint(fs::get(group2)), &mut h_newgroup);
            fs::set(newgroup, PMPI_Group_toint(h_newgroup));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Group_range_excl(group: usize, n: c_int, ranges: *mut c_int, newgroup: *mut usize) -> c_int;
    fn PMPI_Group_range_excl(group: usize, n: c_int, ranges: *mut c_int, newgroup: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Group_range_excl`.
    mpi_group_range_excl_ / pmpi_group_range_excl_ => MPI_Group_range_excl / PMPI_Group_range_excl,
    |c| (group: *const c_int, n: *const c_int, ranges: *mut c_int, newgroup: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newgroup = PMPI_Group_fromint(fs::get(newgroup));
            let rc = c(PMPI_Group_fromint(fs::get(group)), fs::get(n), ranges, &mut h_newgroup);
            fs::set(newgroup, PMPI_Group_toint(h_newgroup));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Group_range_incl(group: usize, n: c_int, ranges: *mut c_int, newgroup: *mut usize) -> c_int;
    fn PMPI_Group_range_incl(group: usize, n: c_int, ranges: *mut c_int, newgroup: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Group_range_incl`.
    mpi_group_range_incl_ / pmpi_group_range_incl_ => MPI_Group_range_incl / PMPI_Group_range_incl,
    |c| (group: *const c_int, n: *const c_int, ranges: *mut c_int, newgroup: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newgroup = PMPI_Group_fromint(fs::get(newgroup));
            let rc = c(PMPI_Group_fromint(fs::get(group)), fs::get(n), ranges, &mut h_newgroup);
            fs::set(newgroup, PMPI_Group_toint(h_newgroup));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Group_rank(group: usize, rank: *mut c_int) -> c_int;
    fn PMPI_Group_rank(group: usize, rank: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Group_rank`.
    mpi_group_rank_ / pmpi_group_rank_ => MPI_Group_rank / PMPI_Group_rank,
    |c| (group: *const c_int, rank: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Group_fromint(fs::get(group)), rank);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Group_size(group: usize, size: *mut c_int) -> c_int;
    fn PMPI_Group_size(group: usize, size: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Group_size`.
    mpi_group_size_ / pmpi_group_size_ => MPI_Group_size / PMPI_Group_size,
    |c| (group: *const c_int, size: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Group_fromint(fs::get(group)), size);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Group_translate_ranks(group1: usize, n: c_int, ranks1: *mut c_int, group2: usize, ranks2: *mut c_int) -> c_int;
    fn PMPI_Group_translate_ranks(group1: usize, n: c_int, ranks1: *mut c_int, group2: usize, ranks2: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Group_translate_ranks`.
    mpi_group_translate_ranks_ / pmpi_group_translate_ranks_ => MPI_Group_translate_ranks / PMPI_Group_translate_ranks,
    |c| (group1: *const c_int, n: *const c_int, ranks1: *mut c_int, group2: *const c_int, ranks2: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Group_fromint(fs::get(group1)), fs::get(n), ranks1, PMPI_Group_fromint(fs::get(group2)), ranks2);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Group_union(group1: usize, group2: usize, newgroup: *mut usize) -> c_int;
    fn PMPI_Group_union(group1: usize, group2: usize, newgroup: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Group_union`.
    mpi_group_union_ / pmpi_group_union_ => MPI_Group_union / PMPI_Group_union,
    |c| (group1: *const c_int, group2: *const c_int, newgroup: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newgroup = PMPI_Group_fromint(fs::get(newgroup));
            let rc = c(PMPI_Group_fromint(fs::get(group1)), PMPI_Group_fromint(fs::get(group2)), &mut h_newgroup);
            fs::set(newgroup, PMPI_Group_toint(h_newgroup));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Iallgather(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Iallgather(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Iallgather`.
    mpi_iallgather_ / pmpi_iallgather_ => MPI_Iallgather / PMPI_Iallgather,
    |c| (sendbuf: *const c_void, sendcount: *const c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcount: *const c_int, recvtype: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::get(sendcount), PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), fs::get(recvcount), PMPI_Type_fromint(fs::get(recvtype)), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Iallgatherv(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcounts: *mut c_int, displs: *mut c_int, recvtype: usize, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Iallgatherv(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcounts: *mut c_int, displs: *mut c_int, recvtype: usize, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Iallgatherv`.
    mpi_iallgatherv_ / pmpi_iallgatherv_ => MPI_Iallgatherv / PMPI_Iallgatherv,
    |c| (sendbuf: *const c_void, sendcount: *const c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcounts: *mut c_int, displs: *mut c_int, recvtype: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::get(sendcount), PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), recvcounts, displs, PMPI_Type_fromint(fs::get(recvtype)), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Iallreduce(sendbuf: *mut c_void, recvbuf: *mut c_void, count: c_int, datatype: usize, op: usize, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Iallreduce(sendbuf: *mut c_void, recvbuf: *mut c_void, count: c_int, datatype: usize, op: usize, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Iallreduce`.
    mpi_iallreduce_ / pmpi_iallreduce_ => MPI_Iallreduce / PMPI_Iallreduce,
    |c| (sendbuf: *const c_void, recvbuf: *const c_void, count: *const c_int, datatype: *const c_int, op: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::buffer(recvbuf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), PMPI_Op_fromint(fs::get(op)), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Ialltoall(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Ialltoall(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Ialltoall`.
    mpi_ialltoall_ / pmpi_ialltoall_ => MPI_Ialltoall / PMPI_Ialltoall,
    |c| (sendbuf: *const c_void, sendcount: *const c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcount: *const c_int, recvtype: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::get(sendcount), PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), fs::get(recvcount), PMPI_Type_fromint(fs::get(recvtype)), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Ialltoallv(sendbuf: *mut c_void, sendcounts: *mut c_int, sdispls: *mut c_int, sendtype: usize, recvbuf: *mut c_void, recvcounts: *mut c_int, rdispls: *mut c_int, recvtype: usize, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Ialltoallv(sendbuf: *mut c_void, sendcounts: *mut c_int, sdispls: *mut c_int, sendtype: usize, recvbuf: *mut c_void, recvcounts: *mut c_int, rdispls: *mut c_int, recvtype: usize, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Ialltoallv`.
    mpi_ialltoallv_ / pmpi_ialltoallv_ => MPI_Ialltoallv / PMPI_Ialltoallv,
    |c| (sendbuf: *const c_void, sendcounts: *mut c_int, sdispls: *mut c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcounts: *mut c_int, rdispls: *mut c_int, recvtype: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), sendcounts, sdispls, PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), recvcounts, rdispls, PMPI_Type_fromint(fs::get(recvtype)), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Ialltoallw(sendbuf: *mut c_void, sendcounts: *mut c_int, sdispls: *mut c_int, sendtypes: *mut usize, recvbuf: *mut c_void, recvcounts: *mut c_int, rdispls: *mut c_int, recvtypes: *mut usize, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Ialltoallw(sendbuf: *mut c_void, sendcounts: *mut c_int, sdispls: *mut c_int, sendtypes: *mut usize, recvbuf: *mut c_void, recvcounts: *mut c_int, rdispls: *mut c_int, recvtypes: *mut usize, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Ialltoallw`.
    mpi_ialltoallw_ / pmpi_ialltoallw_ => MPI_Ialltoallw / PMPI_Ialltoallw,
    |c| (sendbuf: *const c_void, sendcounts: *mut c_int, sdispls: *mut c_int, sendtypes: *mut c_int, recvbuf: *const c_void, recvcounts: *mut c_int, rdispls: *mut c_int, recvtypes: *mut c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut v_sendtypes: Vec<usize> = (0..if fs::buffer(sendbuf) as usize == 1 { 0 } else { crate::state::comm(PMPI_Comm_fromint(fs::get(comm))).map_or(0, |c| c.size() as usize) }).map(|i| PMPI_Type_fromint(sendtypes.add(i).read())).collect();
            let mut v_recvtypes: Vec<usize> = (0..crate::state::comm(PMPI_Comm_fromint(fs::get(comm))).map_or(0, |c| c.size() as usize)).map(|i| PMPI_Type_fromint(recvtypes.add(i).read())).collect();
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), sendcounts, sdispls, v_sendtypes.as_mut_ptr(), fs::buffer(recvbuf), recvcounts, rdispls, v_recvtypes.as_mut_ptr(), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Ibarrier(comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Ibarrier(comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Ibarrier`.
    mpi_ibarrier_ / pmpi_ibarrier_ => MPI_Ibarrier / PMPI_Ibarrier,
    |c| (comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Ibcast(buffer: *mut c_void, count: c_int, datatype: usize, root: c_int, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Ibcast(buffer: *mut c_void, count: c_int, datatype: usize, root: c_int, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Ibcast`.
    mpi_ibcast_ / pmpi_ibcast_ => MPI_Ibcast / PMPI_Ibcast,
    |c| (buffer: *const c_void, count: *const c_int, datatype: *const c_int, root: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(buffer), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::get(root), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Ibsend(buf: *mut c_void, count: c_int, datatype: usize, dest: c_int, tag: c_int, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Ibsend(buf: *mut c_void, count: c_int, datatype: usize, dest: c_int, tag: c_int, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Ibsend`.
    mpi_ibsend_ / pmpi_ibsend_ => MPI_Ibsend / PMPI_Ibsend,
    |c| (buf: *const c_void, count: *const c_int, datatype: *const c_int, dest: *const c_int, tag: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::get(dest), fs::get(tag), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Iexscan(sendbuf: *mut c_void, recvbuf: *mut c_void, count: c_int, datatype: usize, op: usize, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Iexscan(sendbuf: *mut c_void, recvbuf: *mut c_void, count: c_int, datatype: usize, op: usize, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Iexscan`.
    mpi_iexscan_ / pmpi_iexscan_ => MPI_Iexscan / PMPI_Iexscan,
    |c| (sendbuf: *const c_void, recvbuf: *const c_void, count: *const c_int, datatype: *const c_int, op: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::buffer(recvbuf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), PMPI_Op_fromint(fs::get(op)), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Igather(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, root: c_int, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Igather(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, root: c_int, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Igather`.
    mpi_igather_ / pmpi_igather_ => MPI_Igather / PMPI_Igather,
    |c| (sendbuf: *const c_void, sendcount: *const c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcount: *const c_int, recvtype: *const c_int, root: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::get(sendcount), PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), fs::get(recvcount), PMPI_Type_fromint(fs::get(recvtype)), fs::get(root), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Igatherv(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcounts: *mut c_int, displs: *mut c_int, recvtype: usize, root: c_int, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Igatherv(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcounts: *mut c_int, displs: *mut c_int, recvtype: usize, root: c_int, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Igatherv`.
    mpi_igatherv_ / pmpi_igatherv_ => MPI_Igatherv / PMPI_Igatherv,
    |c| (sendbuf: *const c_void, sendcount: *const c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcounts: *mut c_int, displs: *mut c_int, recvtype: *const c_int, root: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::get(sendcount), PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), recvcounts, displs, PMPI_Type_fromint(fs::get(recvtype)), fs::get(root), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Improbe(source: c_int, tag: c_int, comm: usize, flag: *mut c_int, message: *mut usize, status: *mut c_void) -> c_int;
    fn PMPI_Improbe(source: c_int, tag: c_int, comm: usize, flag: *mut c_int, message: *mut usize, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Improbe`.
    mpi_improbe_ / pmpi_improbe_ => MPI_Improbe / PMPI_Improbe,
    |c| (source: *const c_int, tag: *const c_int, comm: *const c_int, flag: *mut c_int, message: *mut c_int, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut l_flag: c_int = 0;
            let mut h_message = PMPI_Message_fromint(fs::get(message));
            let rc = c(fs::get(source), fs::get(tag), PMPI_Comm_fromint(fs::get(comm)), &mut l_flag, &mut h_message, fs::status(status));
            if rc == 0 { fs::set(flag, fs::logical_from_c(l_flag)); }
            fs::set(message, PMPI_Message_toint(h_message));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Imrecv(buf: *mut c_void, count: c_int, datatype: usize, message: *mut usize, request: *mut usize) -> c_int;
    fn PMPI_Imrecv(buf: *mut c_void, count: c_int, datatype: usize, message: *mut usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Imrecv`.
    mpi_imrecv_ / pmpi_imrecv_ => MPI_Imrecv / PMPI_Imrecv,
    |c| (buf: *const c_void, count: *const c_int, datatype: *const c_int, message: *mut c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_message = PMPI_Message_fromint(fs::get(message));
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), &mut h_message, &mut h_request);
            fs::set(message, PMPI_Message_toint(h_message));
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Ineighbor_allgather(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Ineighbor_allgather(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Ineighbor_allgather`.
    mpi_ineighbor_allgather_ / pmpi_ineighbor_allgather_ => MPI_Ineighbor_allgather / PMPI_Ineighbor_allgather,
    |c| (sendbuf: *const c_void, sendcount: *const c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcount: *const c_int, recvtype: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::get(sendcount), PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), fs::get(recvcount), PMPI_Type_fromint(fs::get(recvtype)), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Ineighbor_allgatherv(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcounts: *mut c_int, displs: *mut c_int, recvtype: usize, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Ineighbor_allgatherv(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcounts: *mut c_int, displs: *mut c_int, recvtype: usize, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Ineighbor_allgatherv`.
    mpi_ineighbor_allgatherv_ / pmpi_ineighbor_allgatherv_ => MPI_Ineighbor_allgatherv / PMPI_Ineighbor_allgatherv,
    |c| (sendbuf: *const c_void, sendcount: *const c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcounts: *mut c_int, displs: *mut c_int, recvtype: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::get(sendcount), PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), recvcounts, displs, PMPI_Type_fromint(fs::get(recvtype)), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Ineighbor_alltoall(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Ineighbor_alltoall(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Ineighbor_alltoall`.
    mpi_ineighbor_alltoall_ / pmpi_ineighbor_alltoall_ => MPI_Ineighbor_alltoall / PMPI_Ineighbor_alltoall,
    |c| (sendbuf: *const c_void, sendcount: *const c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcount: *const c_int, recvtype: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::get(sendcount), PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), fs::get(recvcount), PMPI_Type_fromint(fs::get(recvtype)), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Ineighbor_alltoallv(sendbuf: *mut c_void, sendcounts: *mut c_int, sdispls: *mut c_int, sendtype: usize, recvbuf: *mut c_void, recvcounts: *mut c_int, rdispls: *mut c_int, recvtype: usize, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Ineighbor_alltoallv(sendbuf: *mut c_void, sendcounts: *mut c_int, sdispls: *mut c_int, sendtype: usize, recvbuf: *mut c_void, recvcounts: *mut c_int, rdispls: *mut c_int, recvtype: usize, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Ineighbor_alltoallv`.
    mpi_ineighbor_alltoallv_ / pmpi_ineighbor_alltoallv_ => MPI_Ineighbor_alltoallv / PMPI_Ineighbor_alltoallv,
    |c| (sendbuf: *const c_void, sendcounts: *mut c_int, sdispls: *mut c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcounts: *mut c_int, rdispls: *mut c_int, recvtype: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), sendcounts, sdispls, PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), recvcounts, rdispls, PMPI_Type_fromint(fs::get(recvtype)), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Info_create(info: *mut usize) -> c_int;
    fn PMPI_Info_create(info: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Info_create`.
    mpi_info_create_ / pmpi_info_create_ => MPI_Info_create / PMPI_Info_create,
    |c| (info: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_info = PMPI_Info_fromint(fs::get(info));
            let rc = c(&mut h_info);
            fs::set(info, PMPI_Info_toint(h_info));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Info_delete(info: usize, key: *const c_char) -> c_int;
    fn PMPI_Info_delete(info: usize, key: *const c_char) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Info_delete`.
    mpi_info_delete_ / pmpi_info_delete_ => MPI_Info_delete / PMPI_Info_delete,
    |c| (info: *const c_int, key: *const u8, ierror: *mut c_int, key_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let s_key = fs::string_in(key, key_len);
            let rc = c(PMPI_Info_fromint(fs::get(info)), s_key.as_ptr());
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Info_dup(info: usize, newinfo: *mut usize) -> c_int;
    fn PMPI_Info_dup(info: usize, newinfo: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Info_dup`.
    mpi_info_dup_ / pmpi_info_dup_ => MPI_Info_dup / PMPI_Info_dup,
    |c| (info: *const c_int, newinfo: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newinfo = PMPI_Info_fromint(fs::get(newinfo));
            let rc = c(PMPI_Info_fromint(fs::get(info)), &mut h_newinfo);
            fs::set(newinfo, PMPI_Info_toint(h_newinfo));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Info_free(info: *mut usize) -> c_int;
    fn PMPI_Info_free(info: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Info_free`.
    mpi_info_free_ / pmpi_info_free_ => MPI_Info_free / PMPI_Info_free,
    |c| (info: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_info = PMPI_Info_fromint(fs::get(info));
            let rc = c(&mut h_info);
            fs::set(info, PMPI_Info_toint(h_info));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Info_get(info: usize, key: *const c_char, valuelen: c_int, value: *mut c_char, flag: *mut c_int) -> c_int;
    fn PMPI_Info_get(info: usize, key: *const c_char, valuelen: c_int, value: *mut c_char, flag: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Info_get`.
    mpi_info_get_ / pmpi_info_get_ => MPI_Info_get / PMPI_Info_get,
    |c| (info: *const c_int, key: *const u8, valuelen: *const c_int, value: *mut u8, flag: *mut c_int, ierror: *mut c_int, key_len: usize, value_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let s_key = fs::string_in(key, key_len);
            let mut s_value = fs::string_buffer(value_len);
            let mut l_flag: c_int = 0;
            let rc = c(PMPI_Info_fromint(fs::get(info)), s_key.as_ptr(), fs::get(valuelen), s_value.as_mut_ptr().cast(), &mut l_flag);
            if rc == 0 { fs::string_out(value, value_len, &s_value); }
            if rc == 0 { fs::set(flag, fs::logical_from_c(l_flag)); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Info_get_nkeys(info: usize, nkeys: *mut c_int) -> c_int;
    fn PMPI_Info_get_nkeys(info: usize, nkeys: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Info_get_nkeys`.
    mpi_info_get_nkeys_ / pmpi_info_get_nkeys_ => MPI_Info_get_nkeys / PMPI_Info_get_nkeys,
    |c| (info: *const c_int, nkeys: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Info_fromint(fs::get(info)), nkeys);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Info_get_nthkey(info: usize, n: c_int, key: *mut c_char) -> c_int;
    fn PMPI_Info_get_nthkey(info: usize, n: c_int, key: *mut c_char) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Info_get_nthkey`.
    mpi_info_get_nthkey_ / pmpi_info_get_nthkey_ => MPI_Info_get_nthkey / PMPI_Info_get_nthkey,
    |c| (info: *const c_int, n: *const c_int, key: *mut u8, ierror: *mut c_int, key_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut s_key = fs::string_buffer(key_len);
            let rc = c(PMPI_Info_fromint(fs::get(info)), fs::get(n), s_key.as_mut_ptr().cast());
            if rc == 0 { fs::string_out(key, key_len, &s_key); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Info_get_string(info: usize, key: *const c_char, buflen: *mut c_int, value: *mut c_char, flag: *mut c_int) -> c_int;
    fn PMPI_Info_get_string(info: usize, key: *const c_char, buflen: *mut c_int, value: *mut c_char, flag: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Info_get_string`.
    mpi_info_get_string_ / pmpi_info_get_string_ => MPI_Info_get_string / PMPI_Info_get_string,
    |c| (info: *const c_int, key: *const u8, buflen: *mut c_int, value: *mut u8, flag: *mut c_int, ierror: *mut c_int, key_len: usize, value_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let s_key = fs::string_in(key, key_len);
            let mut s_value = fs::string_buffer(value_len);
            let mut l_flag: c_int = 0;
            let rc = c(PMPI_Info_fromint(fs::get(info)), s_key.as_ptr(), buflen, s_value.as_mut_ptr().cast(), &mut l_flag);
            if rc == 0 { fs::string_out(value, value_len, &s_value); }
            if rc == 0 { fs::set(flag, fs::logical_from_c(l_flag)); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Info_get_valuelen(info: usize, key: *const c_char, valuelen: *mut c_int, flag: *mut c_int) -> c_int;
    fn PMPI_Info_get_valuelen(info: usize, key: *const c_char, valuelen: *mut c_int, flag: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Info_get_valuelen`.
    mpi_info_get_valuelen_ / pmpi_info_get_valuelen_ => MPI_Info_get_valuelen / PMPI_Info_get_valuelen,
    |c| (info: *const c_int, key: *const u8, valuelen: *mut c_int, flag: *mut c_int, ierror: *mut c_int, key_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let s_key = fs::string_in(key, key_len);
            let mut l_flag: c_int = 0;
            let rc = c(PMPI_Info_fromint(fs::get(info)), s_key.as_ptr(), valuelen, &mut l_flag);
            if rc == 0 { fs::set(flag, fs::logical_from_c(l_flag)); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Info_set(info: usize, key: *const c_char, value: *const c_char) -> c_int;
    fn PMPI_Info_set(info: usize, key: *const c_char, value: *const c_char) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Info_set`.
    mpi_info_set_ / pmpi_info_set_ => MPI_Info_set / PMPI_Info_set,
    |c| (info: *const c_int, key: *const u8, value: *const u8, ierror: *mut c_int, key_len: usize, value_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let s_key = fs::string_in(key, key_len);
            let s_value = fs::string_in(value, value_len);
            let rc = c(PMPI_Info_fromint(fs::get(info)), s_key.as_ptr(), s_value.as_ptr());
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Init(argc: *mut c_void, argv: *mut c_void) -> c_int;
    fn PMPI_Init(argc: *mut c_void, argv: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Init`.
    mpi_init_ / pmpi_init_ => MPI_Init / PMPI_Init,
    |c| (ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(std::ptr::null_mut(), std::ptr::null_mut());
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Init_thread(argc: *mut c_void, argv: *mut c_void, required: c_int, provided: *mut c_int) -> c_int;
    fn PMPI_Init_thread(argc: *mut c_void, argv: *mut c_void, required: c_int, provided: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Init_thread`.
    mpi_init_thread_ / pmpi_init_thread_ => MPI_Init_thread / PMPI_Init_thread,
    |c| (required: *const c_int, provided: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(std::ptr::null_mut(), std::ptr::null_mut(), fs::get(required), provided);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Initialized(flag: *mut c_int) -> c_int;
    fn PMPI_Initialized(flag: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Initialized`.
    mpi_initialized_ / pmpi_initialized_ => MPI_Initialized / PMPI_Initialized,
    |c| (flag: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut l_flag: c_int = 0;
            let rc = c(&mut l_flag);
            if rc == 0 { fs::set(flag, fs::logical_from_c(l_flag)); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Intercomm_create(local_comm: usize, local_leader: c_int, peer_comm: usize, remote_leader: c_int, tag: c_int, newintercomm: *mut usize) -> c_int;
    fn PMPI_Intercomm_create(local_comm: usize, local_leader: c_int, peer_comm: usize, remote_leader: c_int, tag: c_int, newintercomm: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Intercomm_create`.
    mpi_intercomm_create_ / pmpi_intercomm_create_ => MPI_Intercomm_create / PMPI_Intercomm_create,
    |c| (local_comm: *const c_int, local_leader: *const c_int, peer_comm: *const c_int, remote_leader: *const c_int, tag: *const c_int, newintercomm: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newintercomm = PMPI_Comm_fromint(fs::get(newintercomm));
            let rc = c(PMPI_Comm_fromint(fs::get(local_comm)), fs::get(local_leader), PMPI_Comm_fromint(fs::get(peer_comm)), fs::get(remote_leader), fs::get(tag), &mut h_newintercomm);
            fs::set(newintercomm, PMPI_Comm_toint(h_newintercomm));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Intercomm_create_from_groups(local_group: usize, local_leader: c_int, remote_group: usize, remote_leader: c_int, stringtag: *const c_char, info: usize, errhandler: usize, newintercomm: *mut usize) -> c_int;
    fn PMPI_Intercomm_create_from_groups(local_group: usize, local_leader: c_int, remote_group: usize, remote_leader: c_int, stringtag: *const c_char, info: usize, errhandler: usize, newintercomm: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Intercomm_create_from_groups`.
    mpi_intercomm_create_from_groups_ / pmpi_intercomm_create_from_groups_ => MPI_Intercomm_create_from_groups / PMPI_Intercomm_create_from_groups,
    |c| (local_group: *const c_int, local_leader: *const c_int, remote_group: *const c_int, remote_leader: *const c_int, stringtag: *const u8, info: *const c_int, errhandler: *const c_int, newintercomm: *mut c_int, ierror: *mut c_int, stringtag_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let s_stringtag = fs::string_in(stringtag, stringtag_len);
            let mut h_newintercomm = PMPI_Comm_fromint(fs::get(newintercomm));
            let rc = c(PMPI_Group_fromint(fs::get(local_group)), fs::get(local_leader), PMPI_Group_fromint(fs::get(remote_group)), fs::get(remote_leader), s_stringtag.as_ptr(), PMPI_Info_fromint(fs::get(info)), PMPI_Errhandler_fromint(fs::get(errhandler)), &mut h_newintercomm);
            fs::set(newintercomm, PMPI_Comm_toint(h_newintercomm));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Intercomm_merge(intercomm: usize, high: c_int, newintracomm: *mut usize) -> c_int;
    fn PMPI_Intercomm_merge(intercomm: usize, high: c_int, newintracomm: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Intercomm_merge`.
    mpi_intercomm_merge_ / pmpi_intercomm_merge_ => MPI_Intercomm_merge / PMPI_Intercomm_merge,
    |c| (intercomm: *const c_int, high: *const c_int, newintracomm: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newintracomm = PMPI_Comm_fromint(fs::get(newintracomm));
            let rc = c(PMPI_Comm_fromint(fs::get(intercomm)), fs::get(high), &mut h_newintracomm);
            fs::set(newintracomm, PMPI_Comm_toint(h_newintracomm));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Iprobe(source: c_int, tag: c_int, comm: usize, flag: *mut c_int, status: *mut c_void) -> c_int;
    fn PMPI_Iprobe(source: c_int, tag: c_int, comm: usize, flag: *mut c_int, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Iprobe`.
    mpi_iprobe_ / pmpi_iprobe_ => MPI_Iprobe / PMPI_Iprobe,
    |c| (source: *const c_int, tag: *const c_int, comm: *const c_int, flag: *mut c_int, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut l_flag: c_int = 0;
            let rc = c(fs::get(source), fs::get(tag), PMPI_Comm_fromint(fs::get(comm)), &mut l_flag, fs::status(status));
            if rc == 0 { fs::set(flag, fs::logical_from_c(l_flag)); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Irecv(buf: *mut c_void, count: c_int, datatype: usize, source: c_int, tag: c_int, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Irecv(buf: *mut c_void, count: c_int, datatype: usize, source: c_int, tag: c_int, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Irecv`.
    mpi_irecv_ / pmpi_irecv_ => MPI_Irecv / PMPI_Irecv,
    |c| (buf: *const c_void, count: *const c_int, datatype: *const c_int, source: *const c_int, tag: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::get(source), fs::get(tag), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Ireduce(sendbuf: *mut c_void, recvbuf: *mut c_void, count: c_int, datatype: usize, op: usize, root: c_int, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Ireduce(sendbuf: *mut c_void, recvbuf: *mut c_void, count: c_int, datatype: usize, op: usize, root: c_int, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Ireduce`.
    mpi_ireduce_ / pmpi_ireduce_ => MPI_Ireduce / PMPI_Ireduce,
    |c| (sendbuf: *const c_void, recvbuf: *const c_void, count: *const c_int, datatype: *const c_int, op: *const c_int, root: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::buffer(recvbuf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), PMPI_Op_fromint(fs::get(op)), fs::get(root), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Ireduce_scatter(sendbuf: *mut c_void, recvbuf: *mut c_void, recvcounts: *mut c_int, datatype: usize, op: usize, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Ireduce_scatter(sendbuf: *mut c_void, recvbuf: *mut c_void, recvcounts: *mut c_int, datatype: usize, op: usize, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Ireduce_scatter`.
    mpi_ireduce_scatter_ / pmpi_ireduce_scatter_ => MPI_Ireduce_scatter / PMPI_Ireduce_scatter,
    |c| (sendbuf: *const c_void, recvbuf: *const c_void, recvcounts: *mut c_int, datatype: *const c_int, op: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::buffer(recvbuf), recvcounts, PMPI_Type_fromint(fs::get(datatype)), PMPI_Op_fromint(fs::get(op)), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Ireduce_scatter_block(sendbuf: *mut c_void, recvbuf: *mut c_void, recvcount: c_int, datatype: usize, op: usize, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Ireduce_scatter_block(sendbuf: *mut c_void, recvbuf: *mut c_void, recvcount: c_int, datatype: usize, op: usize, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Ireduce_scatter_block`.
    mpi_ireduce_scatter_block_ / pmpi_ireduce_scatter_block_ => MPI_Ireduce_scatter_block / PMPI_Ireduce_scatter_block,
    |c| (sendbuf: *const c_void, recvbuf: *const c_void, recvcount: *const c_int, datatype: *const c_int, op: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::buffer(recvbuf), fs::get(recvcount), PMPI_Type_fromint(fs::get(datatype)), PMPI_Op_fromint(fs::get(op)), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Irsend(buf: *mut c_void, count: c_int, datatype: usize, dest: c_int, tag: c_int, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Irsend(buf: *mut c_void, count: c_int, datatype: usize, dest: c_int, tag: c_int, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Irsend`.
    mpi_irsend_ / pmpi_irsend_ => MPI_Irsend / PMPI_Irsend,
    |c| (buf: *const c_void, count: *const c_int, datatype: *const c_int, dest: *const c_int, tag: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::get(dest), fs::get(tag), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Is_thread_main(flag: *mut c_int) -> c_int;
    fn PMPI_Is_thread_main(flag: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Is_thread_main`.
    mpi_is_thread_main_ / pmpi_is_thread_main_ => MPI_Is_thread_main / PMPI_Is_thread_main,
    |c| (flag: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut l_flag: c_int = 0;
            let rc = c(&mut l_flag);
            if rc == 0 { fs::set(flag, fs::logical_from_c(l_flag)); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Iscan(sendbuf: *mut c_void, recvbuf: *mut c_void, count: c_int, datatype: usize, op: usize, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Iscan(sendbuf: *mut c_void, recvbuf: *mut c_void, count: c_int, datatype: usize, op: usize, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Iscan`.
    mpi_iscan_ / pmpi_iscan_ => MPI_Iscan / PMPI_Iscan,
    |c| (sendbuf: *const c_void, recvbuf: *const c_void, count: *const c_int, datatype: *const c_int, op: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::buffer(recvbuf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), PMPI_Op_fromint(fs::get(op)), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Iscatter(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, root: c_int, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Iscatter(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, root: c_int, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Iscatter`.
    mpi_iscatter_ / pmpi_iscatter_ => MPI_Iscatter / PMPI_Iscatter,
    |c| (sendbuf: *const c_void, sendcount: *const c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcount: *const c_int, recvtype: *const c_int, root: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::get(sendcount), PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), fs::get(recvcount), PMPI_Type_fromint(fs::get(recvtype)), fs::get(root), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Iscatterv(sendbuf: *mut c_void, sendcounts: *mut c_int, displs: *mut c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, root: c_int, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Iscatterv(sendbuf: *mut c_void, sendcounts: *mut c_int, displs: *mut c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, root: c_int, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Iscatterv`.
    mpi_iscatterv_ / pmpi_iscatterv_ => MPI_Iscatterv / PMPI_Iscatterv,
    |c| (sendbuf: *const c_void, sendcounts: *mut c_int, displs: *mut c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcount: *const c_int, recvtype: *const c_int, root: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), sendcounts, displs, PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), fs::get(recvcount), PMPI_Type_fromint(fs::get(recvtype)), fs::get(root), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Isend(buf: *mut c_void, count: c_int, datatype: usize, dest: c_int, tag: c_int, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Isend(buf: *mut c_void, count: c_int, datatype: usize, dest: c_int, tag: c_int, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Isend`.
    mpi_isend_ / pmpi_isend_ => MPI_Isend / PMPI_Isend,
    |c| (buf: *const c_void, count: *const c_int, datatype: *const c_int, dest: *const c_int, tag: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::get(dest), fs::get(tag), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Isendrecv(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, dest: c_int, sendtag: c_int, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, source: c_int, recvtag: c_int, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Isendrecv(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, dest: c_int, sendtag: c_int, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, source: c_int, recvtag: c_int, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Isendrecv`.
    mpi_isendrecv_ / pmpi_isendrecv_ => MPI_Isendrecv / PMPI_Isendrecv,
    |c| (sendbuf: *const c_void, sendcount: *const c_int, sendtype: *const c_int, dest: *const c_int, sendtag: *const c_int, recvbuf: *const c_void, recvcount: *const c_int, recvtype: *const c_int, source: *const c_int, recvtag: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::get(sendcount), PMPI_Type_fromint(fs::get(sendtype)), fs::get(dest), fs::get(sendtag), fs::buffer(recvbuf), fs::get(recvcount), PMPI_Type_fromint(fs::get(recvtype)), fs::get(source), fs::get(recvtag), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Isendrecv_replace(buf: *mut c_void, count: c_int, datatype: usize, dest: c_int, sendtag: c_int, source: c_int, recvtag: c_int, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Isendrecv_replace(buf: *mut c_void, count: c_int, datatype: usize, dest: c_int, sendtag: c_int, source: c_int, recvtag: c_int, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Isendrecv_replace`.
    mpi_isendrecv_replace_ / pmpi_isendrecv_replace_ => MPI_Isendrecv_replace / PMPI_Isendrecv_replace,
    |c| (buf: *const c_void, count: *const c_int, datatype: *const c_int, dest: *const c_int, sendtag: *const c_int, source: *const c_int, recvtag: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::get(dest), fs::get(sendtag), fs::get(source), fs::get(recvtag), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Issend(buf: *mut c_void, count: c_int, datatype: usize, dest: c_int, tag: c_int, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Issend(buf: *mut c_void, count: c_int, datatype: usize, dest: c_int, tag: c_int, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Issend`.
    mpi_issend_ / pmpi_issend_ => MPI_Issend / PMPI_Issend,
    |c| (buf: *const c_void, count: *const c_int, datatype: *const c_int, dest: *const c_int, tag: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::get(dest), fs::get(tag), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Keyval_free(keyval: *mut c_int) -> c_int;
    fn PMPI_Keyval_free(keyval: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Keyval_free`.
    mpi_keyval_free_ / pmpi_keyval_free_ => MPI_Keyval_free / PMPI_Keyval_free,
    |c| (keyval: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(keyval);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Lookup_name(service_name: *const c_char, info: usize, port_name: *mut c_char) -> c_int;
    fn PMPI_Lookup_name(service_name: *const c_char, info: usize, port_name: *mut c_char) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Lookup_name`.
    mpi_lookup_name_ / pmpi_lookup_name_ => MPI_Lookup_name / PMPI_Lookup_name,
    |c| (service_name: *const u8, info: *const c_int, port_name: *mut u8, ierror: *mut c_int, service_name_len: usize, port_name_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let s_service_name = fs::string_in(service_name, service_name_len);
            let mut s_port_name = fs::string_buffer(port_name_len);
            let rc = c(s_service_name.as_ptr(), PMPI_Info_fromint(fs::get(info)), s_port_name.as_mut_ptr().cast());
            if rc == 0 { fs::string_out(port_name, port_name_len, &s_port_name); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Mprobe(source: c_int, tag: c_int, comm: usize, message: *mut usize, status: *mut c_void) -> c_int;
    fn PMPI_Mprobe(source: c_int, tag: c_int, comm: usize, message: *mut usize, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Mprobe`.
    mpi_mprobe_ / pmpi_mprobe_ => MPI_Mprobe / PMPI_Mprobe,
    |c| (source: *const c_int, tag: *const c_int, comm: *const c_int, message: *mut c_int, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_message = PMPI_Message_fromint(fs::get(message));
            let rc = c(fs::get(source), fs::get(tag), PMPI_Comm_fromint(fs::get(comm)), &mut h_message, fs::status(status));
            fs::set(message, PMPI_Message_toint(h_message));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Mrecv(buf: *mut c_void, count: c_int, datatype: usize, message: *mut usize, status: *mut c_void) -> c_int;
    fn PMPI_Mrecv(buf: *mut c_void, count: c_int, datatype: usize, message: *mut usize, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Mrecv`.
    mpi_mrecv_ / pmpi_mrecv_ => MPI_Mrecv / PMPI_Mrecv,
    |c| (buf: *const c_void, count: *const c_int, datatype: *const c_int, message: *mut c_int, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_message = PMPI_Message_fromint(fs::get(message));
            let rc = c(fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), &mut h_message, fs::status(status));
            fs::set(message, PMPI_Message_toint(h_message));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Neighbor_allgather(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, comm: usize) -> c_int;
    fn PMPI_Neighbor_allgather(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, comm: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Neighbor_allgather`.
    mpi_neighbor_allgather_ / pmpi_neighbor_allgather_ => MPI_Neighbor_allgather / PMPI_Neighbor_allgather,
    |c| (sendbuf: *const c_void, sendcount: *const c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcount: *const c_int, recvtype: *const c_int, comm: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(sendbuf), fs::get(sendcount), PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), fs::get(recvcount), PMPI_Type_fromint(fs::get(recvtype)), PMPI_Comm_fromint(fs::get(comm)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Neighbor_allgather_init(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, comm: usize, info: usize, request: *mut usize) -> c_int;
    fn PMPI_Neighbor_allgather_init(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, comm: usize, info: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Neighbor_allgather_init`.
    mpi_neighbor_allgather_init_ / pmpi_neighbor_allgather_init_ => MPI_Neighbor_allgather_init / PMPI_Neighbor_allgather_init,
    |c| (sendbuf: *const c_void, sendcount: *const c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcount: *const c_int, recvtype: *const c_int, comm: *const c_int, info: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::get(sendcount), PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), fs::get(recvcount), PMPI_Type_fromint(fs::get(recvtype)), PMPI_Comm_fromint(fs::get(comm)), PMPI_Info_fromint(fs::get(info)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Neighbor_allgatherv(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcounts: *mut c_int, displs: *mut c_int, recvtype: usize, comm: usize) -> c_int;
    fn PMPI_Neighbor_allgatherv(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcounts: *mut c_int, displs: *mut c_int, recvtype: usize, comm: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Neighbor_allgatherv`.
    mpi_neighbor_allgatherv_ / pmpi_neighbor_allgatherv_ => MPI_Neighbor_allgatherv / PMPI_Neighbor_allgatherv,
    |c| (sendbuf: *const c_void, sendcount: *const c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcounts: *mut c_int, displs: *mut c_int, recvtype: *const c_int, comm: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(sendbuf), fs::get(sendcount), PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), recvcounts, displs, PMPI_Type_fromint(fs::get(recvtype)), PMPI_Comm_fromint(fs::get(comm)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Neighbor_allgatherv_init(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcounts: *mut c_int, displs: *mut c_int, recvtype: usize, comm: usize, info: usize, request: *mut usize) -> c_int;
    fn PMPI_Neighbor_allgatherv_init(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcounts: *mut c_int, displs: *mut c_int, recvtype: usize, comm: usize, info: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Neighbor_allgatherv_init`.
    mpi_neighbor_allgatherv_init_ / pmpi_neighbor_allgatherv_init_ => MPI_Neighbor_allgatherv_init / PMPI_Neighbor_allgatherv_init,
    |c| (sendbuf: *const c_void, sendcount: *const c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcounts: *mut c_int, displs: *mut c_int, recvtype: *const c_int, comm: *const c_int, info: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::get(sendcount), PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), recvcounts, displs, PMPI_Type_fromint(fs::get(recvtype)), PMPI_Comm_fromint(fs::get(comm)), PMPI_Info_fromint(fs::get(info)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Neighbor_alltoall(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, comm: usize) -> c_int;
    fn PMPI_Neighbor_alltoall(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, comm: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Neighbor_alltoall`.
    mpi_neighbor_alltoall_ / pmpi_neighbor_alltoall_ => MPI_Neighbor_alltoall / PMPI_Neighbor_alltoall,
    |c| (sendbuf: *const c_void, sendcount: *const c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcount: *const c_int, recvtype: *const c_int, comm: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(sendbuf), fs::get(sendcount), PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), fs::get(recvcount), PMPI_Type_fromint(fs::get(recvtype)), PMPI_Comm_fromint(fs::get(comm)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Neighbor_alltoall_init(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, comm: usize, info: usize, request: *mut usize) -> c_int;
    fn PMPI_Neighbor_alltoall_init(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, comm: usize, info: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Neighbor_alltoall_init`.
    mpi_neighbor_alltoall_init_ / pmpi_neighbor_alltoall_init_ => MPI_Neighbor_alltoall_init / PMPI_Neighbor_alltoall_init,
    |c| (sendbuf: *const c_void, sendcount: *const c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcount: *const c_int, recvtype: *const c_int, comm: *const c_int, info: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::get(sendcount), PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), fs::get(recvcount), PMPI_Type_fromint(fs::get(recvtype)), PMPI_Comm_fromint(fs::get(comm)), PMPI_Info_fromint(fs::get(info)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Neighbor_alltoallv(sendbuf: *mut c_void, sendcounts: *mut c_int, sdispls: *mut c_int, sendtype: usize, recvbuf: *mut c_void, recvcounts: *mut c_int, rdispls: *mut c_int, recvtype: usize, comm: usize) -> c_int;
    fn PMPI_Neighbor_alltoallv(sendbuf: *mut c_void, sendcounts: *mut c_int, sdispls: *mut c_int, sendtype: usize, recvbuf: *mut c_void, recvcounts: *mut c_int, rdispls: *mut c_int, recvtype: usize, comm: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Neighbor_alltoallv`.
    mpi_neighbor_alltoallv_ / pmpi_neighbor_alltoallv_ => MPI_Neighbor_alltoallv / PMPI_Neighbor_alltoallv,
    |c| (sendbuf: *const c_void, sendcounts: *mut c_int, sdispls: *mut c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcounts: *mut c_int, rdispls: *mut c_int, recvtype: *const c_int, comm: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(sendbuf), sendcounts, sdispls, PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), recvcounts, rdispls, PMPI_Type_fromint(fs::get(recvtype)), PMPI_Comm_fromint(fs::get(comm)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Neighbor_alltoallv_init(sendbuf: *mut c_void, sendcounts: *mut c_int, sdispls: *mut c_int, sendtype: usize, recvbuf: *mut c_void, recvcounts: *mut c_int, rdispls: *mut c_int, recvtype: usize, comm: usize, info: usize, request: *mut usize) -> c_int;
    fn PMPI_Neighbor_alltoallv_init(sendbuf: *mut c_void, sendcounts: *mut c_int, sdispls: *mut c_int, sendtype: usize, recvbuf: *mut c_void, recvcounts: *mut c_int, rdispls: *mut c_int, recvtype: usize, comm: usize, info: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Neighbor_alltoallv_init`.
    mpi_neighbor_alltoallv_init_ / pmpi_neighbor_alltoallv_init_ => MPI_Neighbor_alltoallv_init / PMPI_Neighbor_alltoallv_init,
    |c| (sendbuf: *const c_void, sendcounts: *mut c_int, sdispls: *mut c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcounts: *mut c_int, rdispls: *mut c_int, recvtype: *const c_int, comm: *const c_int, info: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), sendcounts, sdispls, PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), recvcounts, rdispls, PMPI_Type_fromint(fs::get(recvtype)), PMPI_Comm_fromint(fs::get(comm)), PMPI_Info_fromint(fs::get(info)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Op_commutative(op: usize, commute: *mut c_int) -> c_int;
    fn PMPI_Op_commutative(op: usize, commute: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Op_commutative`.
    mpi_op_commutative_ / pmpi_op_commutative_ => MPI_Op_commutative / PMPI_Op_commutative,
    |c| (op: *const c_int, commute: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Op_fromint(fs::get(op)), commute);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Op_free(op: *mut usize) -> c_int;
    fn PMPI_Op_free(op: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Op_free`.
    mpi_op_free_ / pmpi_op_free_ => MPI_Op_free / PMPI_Op_free,
    |c| (op: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_op = PMPI_Op_fromint(fs::get(op));
            let rc = c(&mut h_op);
            fs::set(op, PMPI_Op_toint(h_op));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Open_port(info: usize, port_name: *mut c_char) -> c_int;
    fn PMPI_Open_port(info: usize, port_name: *mut c_char) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Open_port`.
    mpi_open_port_ / pmpi_open_port_ => MPI_Open_port / PMPI_Open_port,
    |c| (info: *const c_int, port_name: *mut u8, ierror: *mut c_int, port_name_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut s_port_name = fs::string_buffer(port_name_len);
            let rc = c(PMPI_Info_fromint(fs::get(info)), s_port_name.as_mut_ptr().cast());
            if rc == 0 { fs::string_out(port_name, port_name_len, &s_port_name); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Pack(inbuf: *mut c_void, incount: c_int, datatype: usize, outbuf: *mut c_void, outsize: c_int, position: *mut c_int, comm: usize) -> c_int;
    fn PMPI_Pack(inbuf: *mut c_void, incount: c_int, datatype: usize, outbuf: *mut c_void, outsize: c_int, position: *mut c_int, comm: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Pack`.
    mpi_pack_ / pmpi_pack_ => MPI_Pack / PMPI_Pack,
    |c| (inbuf: *const c_void, incount: *const c_int, datatype: *const c_int, outbuf: *const c_void, outsize: *const c_int, position: *mut c_int, comm: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(inbuf), fs::get(incount), PMPI_Type_fromint(fs::get(datatype)), fs::buffer(outbuf), fs::get(outsize), position, PMPI_Comm_fromint(fs::get(comm)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Pack_external(datarep: *const c_char, inbuf: *mut c_void, incount: c_int, datatype: usize, outbuf: *mut c_void, outsize: isize, position: *mut isize) -> c_int;
    fn PMPI_Pack_external(datarep: *const c_char, inbuf: *mut c_void, incount: c_int, datatype: usize, outbuf: *mut c_void, outsize: isize, position: *mut isize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Pack_external`.
    mpi_pack_external_ / pmpi_pack_external_ => MPI_Pack_external / PMPI_Pack_external,
    |c| (datarep: *const u8, inbuf: *const c_void, incount: *const c_int, datatype: *const c_int, outbuf: *const c_void, outsize: *const i64, position: *mut i64, ierror: *mut c_int, datarep_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let s_datarep = fs::string_in(datarep, datarep_len);
            let rc = c(s_datarep.as_ptr(), fs::buffer(inbuf), fs::get(incount), PMPI_Type_fromint(fs::get(datatype)), fs::buffer(outbuf), fs::get(outsize) as isize, position.cast());
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Pack_external_size(datarep: *const c_char, incount: c_int, datatype: usize, size: *mut isize) -> c_int;
    fn PMPI_Pack_external_size(datarep: *const c_char, incount: c_int, datatype: usize, size: *mut isize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Pack_external_size`.
    mpi_pack_external_size_ / pmpi_pack_external_size_ => MPI_Pack_external_size / PMPI_Pack_external_size,
    |c| (datarep: *const u8, incount: *const c_int, datatype: *const c_int, size: *mut i64, ierror: *mut c_int, datarep_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let s_datarep = fs::string_in(datarep, datarep_len);
            let rc = c(s_datarep.as_ptr(), fs::get(incount), PMPI_Type_fromint(fs::get(datatype)), size.cast());
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Pack_size(incount: c_int, datatype: usize, comm: usize, size: *mut c_int) -> c_int;
    fn PMPI_Pack_size(incount: c_int, datatype: usize, comm: usize, size: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Pack_size`.
    mpi_pack_size_ / pmpi_pack_size_ => MPI_Pack_size / PMPI_Pack_size,
    |c| (incount: *const c_int, datatype: *const c_int, comm: *const c_int, size: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::get(incount), PMPI_Type_fromint(fs::get(datatype)), PMPI_Comm_fromint(fs::get(comm)), size);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Parrived(request: usize, partition: c_int, flag: *mut c_int) -> c_int;
    fn PMPI_Parrived(request: usize, partition: c_int, flag: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Parrived`.
    mpi_parrived_ / pmpi_parrived_ => MPI_Parrived / PMPI_Parrived,
    |c| (request: *const c_int, partition: *const c_int, flag: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut l_flag: c_int = 0;
            let rc = c(PMPI_Request_fromint(fs::get(request)), fs::get(partition), &mut l_flag);
            if rc == 0 { fs::set(flag, fs::logical_from_c(l_flag)); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Pready(partition: c_int, request: usize) -> c_int;
    fn PMPI_Pready(partition: c_int, request: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Pready`.
    mpi_pready_ / pmpi_pready_ => MPI_Pready / PMPI_Pready,
    |c| (partition: *const c_int, request: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::get(partition), PMPI_Request_fromint(fs::get(request)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Pready_list(length: c_int, array_of_partitions: *mut c_int, request: usize) -> c_int;
    fn PMPI_Pready_list(length: c_int, array_of_partitions: *mut c_int, request: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Pready_list`.
    mpi_pready_list_ / pmpi_pready_list_ => MPI_Pready_list / PMPI_Pready_list,
    |c| (length: *const c_int, array_of_partitions: *mut c_int, request: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::get(length), array_of_partitions, PMPI_Request_fromint(fs::get(request)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Pready_range(partition_low: c_int, partition_high: c_int, request: usize) -> c_int;
    fn PMPI_Pready_range(partition_low: c_int, partition_high: c_int, request: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Pready_range`.
    mpi_pready_range_ / pmpi_pready_range_ => MPI_Pready_range / PMPI_Pready_range,
    |c| (partition_low: *const c_int, partition_high: *const c_int, request: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::get(partition_low), fs::get(partition_high), PMPI_Request_fromint(fs::get(request)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Precv_init(buf: *mut c_void, partitions: c_int, count: c_int, datatype: usize, dest: c_int, tag: c_int, comm: usize, info: usize, request: *mut usize) -> c_int;
    fn PMPI_Precv_init(buf: *mut c_void, partitions: c_int, count: c_int, datatype: usize, dest: c_int, tag: c_int, comm: usize, info: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Precv_init`.
    mpi_precv_init_ / pmpi_precv_init_ => MPI_Precv_init / PMPI_Precv_init,
    |c| (buf: *const c_void, partitions: *const c_int, count: *const c_int, datatype: *const c_int, dest: *const c_int, tag: *const c_int, comm: *const c_int, info: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(buf), fs::get(partitions), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::get(dest), fs::get(tag), PMPI_Comm_fromint(fs::get(comm)), PMPI_Info_fromint(fs::get(info)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Probe(source: c_int, tag: c_int, comm: usize, status: *mut c_void) -> c_int;
    fn PMPI_Probe(source: c_int, tag: c_int, comm: usize, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Probe`.
    mpi_probe_ / pmpi_probe_ => MPI_Probe / PMPI_Probe,
    |c| (source: *const c_int, tag: *const c_int, comm: *const c_int, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::get(source), fs::get(tag), PMPI_Comm_fromint(fs::get(comm)), fs::status(status));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Psend_init(buf: *mut c_void, partitions: c_int, count: c_int, datatype: usize, dest: c_int, tag: c_int, comm: usize, info: usize, request: *mut usize) -> c_int;
    fn PMPI_Psend_init(buf: *mut c_void, partitions: c_int, count: c_int, datatype: usize, dest: c_int, tag: c_int, comm: usize, info: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Psend_init`.
    mpi_psend_init_ / pmpi_psend_init_ => MPI_Psend_init / PMPI_Psend_init,
    |c| (buf: *const c_void, partitions: *const c_int, count: *const c_int, datatype: *const c_int, dest: *const c_int, tag: *const c_int, comm: *const c_int, info: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(buf), fs::get(partitions), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::get(dest), fs::get(tag), PMPI_Comm_fromint(fs::get(comm)), PMPI_Info_fromint(fs::get(info)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Publish_name(service_name: *const c_char, info: usize, port_name: *const c_char) -> c_int;
    fn PMPI_Publish_name(service_name: *const c_char, info: usize, port_name: *const c_char) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Publish_name`.
    mpi_publish_name_ / pmpi_publish_name_ => MPI_Publish_name / PMPI_Publish_name,
    |c| (service_name: *const u8, info: *const c_int, port_name: *const u8, ierror: *mut c_int, service_name_len: usize, port_name_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let s_service_name = fs::string_in(service_name, service_name_len);
            let s_port_name = fs::string_in(port_name, port_name_len);
            let rc = c(s_service_name.as_ptr(), PMPI_Info_fromint(fs::get(info)), s_port_name.as_ptr());
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Put(origin_addr: *mut c_void, origin_count: c_int, origin_datatype: usize, target_rank: c_int, target_disp: isize, target_count: c_int, target_datatype: usize, win: usize) -> c_int;
    fn PMPI_Put(origin_addr: *mut c_void, origin_count: c_int, origin_datatype: usize, target_rank: c_int, target_disp: isize, target_count: c_int, target_datatype: usize, win: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Put`.
    mpi_put_ / pmpi_put_ => MPI_Put / PMPI_Put,
    |c| (origin_addr: *const c_void, origin_count: *const c_int, origin_datatype: *const c_int, target_rank: *const c_int, target_disp: *const i64, target_count: *const c_int, target_datatype: *const c_int, win: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(origin_addr), fs::get(origin_count), PMPI_Type_fromint(fs::get(origin_datatype)), fs::get(target_rank), fs::get(target_disp) as isize, fs::get(target_count), PMPI_Type_fromint(fs::get(target_datatype)), PMPI_Win_fromint(fs::get(win)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Query_thread(provided: *mut c_int) -> c_int;
    fn PMPI_Query_thread(provided: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Query_thread`.
    mpi_query_thread_ / pmpi_query_thread_ => MPI_Query_thread / PMPI_Query_thread,
    |c| (provided: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(provided);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Raccumulate(origin_addr: *mut c_void, origin_count: c_int, origin_datatype: usize, target_rank: c_int, target_disp: isize, target_count: c_int, target_datatype: usize, op: usize, win: usize, request: *mut usize) -> c_int;
    fn PMPI_Raccumulate(origin_addr: *mut c_void, origin_count: c_int, origin_datatype: usize, target_rank: c_int, target_disp: isize, target_count: c_int, target_datatype: usize, op: usize, win: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Raccumulate`.
    mpi_raccumulate_ / pmpi_raccumulate_ => MPI_Raccumulate / PMPI_Raccumulate,
    |c| (origin_addr: *const c_void, origin_count: *const c_int, origin_datatype: *const c_int, target_rank: *const c_int, target_disp: *const i64, target_count: *const c_int, target_datatype: *const c_int, op: *const c_int, win: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(origin_addr), fs::get(origin_count), PMPI_Type_fromint(fs::get(origin_datatype)), fs::get(target_rank), fs::get(target_disp) as isize, fs::get(target_count), PMPI_Type_fromint(fs::get(target_datatype)), PMPI_Op_fromint(fs::get(op)), PMPI_Win_fromint(fs::get(win)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Recv(buf: *mut c_void, count: c_int, datatype: usize, source: c_int, tag: c_int, comm: usize, status: *mut c_void) -> c_int;
    fn PMPI_Recv(buf: *mut c_void, count: c_int, datatype: usize, source: c_int, tag: c_int, comm: usize, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Recv`.
    mpi_recv_ / pmpi_recv_ => MPI_Recv / PMPI_Recv,
    |c| (buf: *const c_void, count: *const c_int, datatype: *const c_int, source: *const c_int, tag: *const c_int, comm: *const c_int, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::get(source), fs::get(tag), PMPI_Comm_fromint(fs::get(comm)), fs::status(status));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Recv_init(buf: *mut c_void, count: c_int, datatype: usize, source: c_int, tag: c_int, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Recv_init(buf: *mut c_void, count: c_int, datatype: usize, source: c_int, tag: c_int, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Recv_init`.
    mpi_recv_init_ / pmpi_recv_init_ => MPI_Recv_init / PMPI_Recv_init,
    |c| (buf: *const c_void, count: *const c_int, datatype: *const c_int, source: *const c_int, tag: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::get(source), fs::get(tag), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Reduce(sendbuf: *mut c_void, recvbuf: *mut c_void, count: c_int, datatype: usize, op: usize, root: c_int, comm: usize) -> c_int;
    fn PMPI_Reduce(sendbuf: *mut c_void, recvbuf: *mut c_void, count: c_int, datatype: usize, op: usize, root: c_int, comm: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Reduce`.
    mpi_reduce_ / pmpi_reduce_ => MPI_Reduce / PMPI_Reduce,
    |c| (sendbuf: *const c_void, recvbuf: *const c_void, count: *const c_int, datatype: *const c_int, op: *const c_int, root: *const c_int, comm: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(sendbuf), fs::buffer(recvbuf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), PMPI_Op_fromint(fs::get(op)), fs::get(root), PMPI_Comm_fromint(fs::get(comm)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Reduce_init(sendbuf: *mut c_void, recvbuf: *mut c_void, count: c_int, datatype: usize, op: usize, root: c_int, comm: usize, info: usize, request: *mut usize) -> c_int;
    fn PMPI_Reduce_init(sendbuf: *mut c_void, recvbuf: *mut c_void, count: c_int, datatype: usize, op: usize, root: c_int, comm: usize, info: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Reduce_init`.
    mpi_reduce_init_ / pmpi_reduce_init_ => MPI_Reduce_init / PMPI_Reduce_init,
    |c| (sendbuf: *const c_void, recvbuf: *const c_void, count: *const c_int, datatype: *const c_int, op: *const c_int, root: *const c_int, comm: *const c_int, info: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::buffer(recvbuf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), PMPI_Op_fromint(fs::get(op)), fs::get(root), PMPI_Comm_fromint(fs::get(comm)), PMPI_Info_fromint(fs::get(info)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Reduce_local(inbuf: *mut c_void, inoutbuf: *mut c_void, count: c_int, datatype: usize, op: usize) -> c_int;
    fn PMPI_Reduce_local(inbuf: *mut c_void, inoutbuf: *mut c_void, count: c_int, datatype: usize, op: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Reduce_local`.
    mpi_reduce_local_ / pmpi_reduce_local_ => MPI_Reduce_local / PMPI_Reduce_local,
    |c| (inbuf: *const c_void, inoutbuf: *const c_void, count: *const c_int, datatype: *const c_int, op: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(inbuf), fs::buffer(inoutbuf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), PMPI_Op_fromint(fs::get(op)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Reduce_scatter(sendbuf: *mut c_void, recvbuf: *mut c_void, recvcounts: *mut c_int, datatype: usize, op: usize, comm: usize) -> c_int;
    fn PMPI_Reduce_scatter(sendbuf: *mut c_void, recvbuf: *mut c_void, recvcounts: *mut c_int, datatype: usize, op: usize, comm: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Reduce_scatter`.
    mpi_reduce_scatter_ / pmpi_reduce_scatter_ => MPI_Reduce_scatter / PMPI_Reduce_scatter,
    |c| (sendbuf: *const c_void, recvbuf: *const c_void, recvcounts: *mut c_int, datatype: *const c_int, op: *const c_int, comm: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(sendbuf), fs::buffer(recvbuf), recvcounts, PMPI_Type_fromint(fs::get(datatype)), PMPI_Op_fromint(fs::get(op)), PMPI_Comm_fromint(fs::get(comm)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Reduce_scatter_block(sendbuf: *mut c_void, recvbuf: *mut c_void, recvcount: c_int, datatype: usize, op: usize, comm: usize) -> c_int;
    fn PMPI_Reduce_scatter_block(sendbuf: *mut c_void, recvbuf: *mut c_void, recvcount: c_int, datatype: usize, op: usize, comm: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Reduce_scatter_block`.
    mpi_reduce_scatter_block_ / pmpi_reduce_scatter_block_ => MPI_Reduce_scatter_block / PMPI_Reduce_scatter_block,
    |c| (sendbuf: *const c_void, recvbuf: *const c_void, recvcount: *const c_int, datatype: *const c_int, op: *const c_int, comm: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(sendbuf), fs::buffer(recvbuf), fs::get(recvcount), PMPI_Type_fromint(fs::get(datatype)), PMPI_Op_fromint(fs::get(op)), PMPI_Comm_fromint(fs::get(comm)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Reduce_scatter_block_init(sendbuf: *mut c_void, recvbuf: *mut c_void, recvcount: c_int, datatype: usize, op: usize, comm: usize, info: usize, request: *mut usize) -> c_int;
    fn PMPI_Reduce_scatter_block_init(sendbuf: *mut c_void, recvbuf: *mut c_void, recvcount: c_int, datatype: usize, op: usize, comm: usize, info: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Reduce_scatter_block_init`.
    mpi_reduce_scatter_block_init_ / pmpi_reduce_scatter_block_init_ => MPI_Reduce_scatter_block_init / PMPI_Reduce_scatter_block_init,
    |c| (sendbuf: *const c_void, recvbuf: *const c_void, recvcount: *const c_int, datatype: *const c_int, op: *const c_int, comm: *const c_int, info: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::buffer(recvbuf), fs::get(recvcount), PMPI_Type_fromint(fs::get(datatype)), PMPI_Op_fromint(fs::get(op)), PMPI_Comm_fromint(fs::get(comm)), PMPI_Info_fromint(fs::get(info)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Reduce_scatter_init(sendbuf: *mut c_void, recvbuf: *mut c_void, recvcounts: *mut c_int, datatype: usize, op: usize, comm: usize, info: usize, request: *mut usize) -> c_int;
    fn PMPI_Reduce_scatter_init(sendbuf: *mut c_void, recvbuf: *mut c_void, recvcounts: *mut c_int, datatype: usize, op: usize, comm: usize, info: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Reduce_scatter_init`.
    mpi_reduce_scatter_init_ / pmpi_reduce_scatter_init_ => MPI_Reduce_scatter_init / PMPI_Reduce_scatter_init,
    |c| (sendbuf: *const c_void, recvbuf: *const c_void, recvcounts: *mut c_int, datatype: *const c_int, op: *const c_int, comm: *const c_int, info: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::buffer(recvbuf), recvcounts, PMPI_Type_fromint(fs::get(datatype)), PMPI_Op_fromint(fs::get(op)), PMPI_Comm_fromint(fs::get(comm)), PMPI_Info_fromint(fs::get(info)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Remove_error_class(errorclass: c_int) -> c_int;
    fn PMPI_Remove_error_class(errorclass: c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Remove_error_class`.
    mpi_remove_error_class_ / pmpi_remove_error_class_ => MPI_Remove_error_class / PMPI_Remove_error_class,
    |c| (errorclass: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::get(errorclass));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Remove_error_code(errorcode: c_int) -> c_int;
    fn PMPI_Remove_error_code(errorcode: c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Remove_error_code`.
    mpi_remove_error_code_ / pmpi_remove_error_code_ => MPI_Remove_error_code / PMPI_Remove_error_code,
    |c| (errorcode: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::get(errorcode));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Remove_error_string(errorcode: c_int) -> c_int;
    fn PMPI_Remove_error_string(errorcode: c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Remove_error_string`.
    mpi_remove_error_string_ / pmpi_remove_error_string_ => MPI_Remove_error_string / PMPI_Remove_error_string,
    |c| (errorcode: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::get(errorcode));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Request_free(request: *mut usize) -> c_int;
    fn PMPI_Request_free(request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Request_free`.
    mpi_request_free_ / pmpi_request_free_ => MPI_Request_free / PMPI_Request_free,
    |c| (request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(&mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Request_get_status(request: usize, flag: *mut c_int, status: *mut c_void) -> c_int;
    fn PMPI_Request_get_status(request: usize, flag: *mut c_int, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Request_get_status`.
    mpi_request_get_status_ / pmpi_request_get_status_ => MPI_Request_get_status / PMPI_Request_get_status,
    |c| (request: *const c_int, flag: *mut c_int, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut l_flag: c_int = 0;
            let rc = c(PMPI_Request_fromint(fs::get(request)), &mut l_flag, fs::status(status));
            if rc == 0 { fs::set(flag, fs::logical_from_c(l_flag)); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Request_get_status_all(count: c_int, array_of_requests: *mut usize, flag: *mut c_int, array_of_statuses: *mut c_void) -> c_int;
    fn PMPI_Request_get_status_all(count: c_int, array_of_requests: *mut usize, flag: *mut c_int, array_of_statuses: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Request_get_status_all`.
    mpi_request_get_status_all_ / pmpi_request_get_status_all_ => MPI_Request_get_status_all / PMPI_Request_get_status_all,
    |c| (count: *const c_int, array_of_requests: *mut c_int, flag: *mut c_int, array_of_statuses: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut v_array_of_requests: Vec<usize> = (0..fs::get(count).max(0) as usize).map(|i| PMPI_Request_fromint(array_of_requests.add(i).read())).collect();
            let mut l_flag: c_int = 0;
            let rc = c(fs::get(count), v_array_of_requests.as_mut_ptr(), &mut l_flag, fs::status(array_of_statuses));
            if rc == 0 { fs::set(flag, fs::logical_from_c(l_flag)); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Request_get_status_any(count: c_int, array_of_requests: *mut usize, indx: *mut c_int, flag: *mut c_int, status: *mut c_void) -> c_int;
    fn PMPI_Request_get_status_any(count: c_int, array_of_requests: *mut usize, indx: *mut c_int, flag: *mut c_int, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Request_get_status_any`.
    mpi_request_get_status_any_ / pmpi_request_get_status_any_ => MPI_Request_get_status_any / PMPI_Request_get_status_any,
    |c| (count: *const c_int, array_of_requests: *mut c_int, indx: *mut c_int, flag: *mut c_int, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut v_array_of_requests: Vec<usize> = (0..fs::get(count).max(0) as usize).map(|i| PMPI_Request_fromint(array_of_requests.add(i).read())).collect();
            let mut l_flag: c_int = 0;
            let rc = c(fs::get(count), v_array_of_requests.as_mut_ptr(), indx, &mut l_flag, fs::status(status));
            if rc == 0 { fs::set(indx, fs::index_from_c(fs::get(indx))); }
            if rc == 0 { fs::set(flag, fs::logical_from_c(l_flag)); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Request_get_status_some(incount: c_int, array_of_requests: *mut usize, outcount: *mut c_int, array_of_indices: *mut c_int, array_of_statuses: *mut c_void) -> c_int;
    fn PMPI_Request_get_status_some(incount: c_int, array_of_requests: *mut usize, outcount: *mut c_int, array_of_indices: *mut c_int, array_of_statuses: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Request_get_status_some`.
    mpi_request_get_status_some_ / pmpi_request_get_status_some_ => MPI_Request_get_status_some / PMPI_Request_get_status_some,
    |c| (incount: *const c_int, array_of_requests: *mut c_int, outcount: *mut c_int, array_of_indices: *mut c_int, array_of_statuses: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut v_array_of_requests: Vec<usize> = (0..fs::get(incount).max(0) as usize).map(|i| PMPI_Request_fromint(array_of_requests.add(i).read())).collect();
            let rc = c(fs::get(incount), v_array_of_requests.as_mut_ptr(), outcount, array_of_indices, fs::status(array_of_statuses));
            if rc == 0 && !array_of_indices.is_null() { for i in 0..fs::get(outcount).max(0) as usize { let q = array_of_indices.add(i); q.write(fs::index_from_c(q.read())); } }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Rget(origin_addr: *mut c_void, origin_count: c_int, origin_datatype: usize, target_rank: c_int, target_disp: isize, target_count: c_int, target_datatype: usize, win: usize, request: *mut usize) -> c_int;
    fn PMPI_Rget(origin_addr: *mut c_void, origin_count: c_int, origin_datatype: usize, target_rank: c_int, target_disp: isize, target_count: c_int, target_datatype: usize, win: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Rget`.
    mpi_rget_ / pmpi_rget_ => MPI_Rget / PMPI_Rget,
    |c| (origin_addr: *const c_void, origin_count: *const c_int, origin_datatype: *const c_int, target_rank: *const c_int, target_disp: *const i64, target_count: *const c_int, target_datatype: *const c_int, win: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(origin_addr), fs::get(origin_count), PMPI_Type_fromint(fs::get(origin_datatype)), fs::get(target_rank), fs::get(target_disp) as isize, fs::get(target_count), PMPI_Type_fromint(fs::get(target_datatype)), PMPI_Win_fromint(fs::get(win)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Rget_accumulate(origin_addr: *mut c_void, origin_count: c_int, origin_datatype: usize, result_addr: *mut c_void, result_count: c_int, result_datatype: usize, target_rank: c_int, target_disp: isize, target_count: c_int, target_datatype: usize, op: usize, win: usize, request: *mut usize) -> c_int;
    fn PMPI_Rget_accumulate(origin_addr: *mut c_void, origin_count: c_int, origin_datatype: usize, result_addr: *mut c_void, result_count: c_int, result_datatype: usize, target_rank: c_int, target_disp: isize, target_count: c_int, target_datatype: usize, op: usize, win: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Rget_accumulate`.
    mpi_rget_accumulate_ / pmpi_rget_accumulate_ => MPI_Rget_accumulate / PMPI_Rget_accumulate,
    |c| (origin_addr: *const c_void, origin_count: *const c_int, origin_datatype: *const c_int, result_addr: *const c_void, result_count: *const c_int, result_datatype: *const c_int, target_rank: *const c_int, target_disp: *const i64, target_count: *const c_int, target_datatype: *const c_int, op: *const c_int, win: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(origin_addr), fs::get(origin_count), PMPI_Type_fromint(fs::get(origin_datatype)), fs::buffer(result_addr), fs::get(result_count), PMPI_Type_fromint(fs::get(result_datatype)), fs::get(target_rank), fs::get(target_disp) as isize, fs::get(target_count), PMPI_Type_fromint(fs::get(target_datatype)), PMPI_Op_fromint(fs::get(op)), PMPI_Win_fromint(fs::get(win)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Rput(origin_addr: *mut c_void, origin_count: c_int, origin_datatype: usize, target_rank: c_int, target_disp: isize, target_count: c_int, target_datatype: usize, win: usize, request: *mut usize) -> c_int;
    fn PMPI_Rput(origin_addr: *mut c_void, origin_count: c_int, origin_datatype: usize, target_rank: c_int, target_disp: isize, target_count: c_int, target_datatype: usize, win: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Rput`.
    mpi_rput_ / pmpi_rput_ => MPI_Rput / PMPI_Rput,
    |c| (origin_addr: *const c_void, origin_count: *const c_int, origin_datatype: *const c_int, target_rank: *const c_int, target_disp: *const i64, target_count: *const c_int, target_datatype: *const c_int, win: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(origin_addr), fs::get(origin_count), PMPI_Type_fromint(fs::get(origin_datatype)), fs::get(target_rank), fs::get(target_disp) as isize, fs::get(target_count), PMPI_Type_fromint(fs::get(target_datatype)), PMPI_Win_fromint(fs::get(win)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Rsend(buf: *mut c_void, count: c_int, datatype: usize, dest: c_int, tag: c_int, comm: usize) -> c_int;
    fn PMPI_Rsend(buf: *mut c_void, count: c_int, datatype: usize, dest: c_int, tag: c_int, comm: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Rsend`.
    mpi_rsend_ / pmpi_rsend_ => MPI_Rsend / PMPI_Rsend,
    |c| (buf: *const c_void, count: *const c_int, datatype: *const c_int, dest: *const c_int, tag: *const c_int, comm: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::get(dest), fs::get(tag), PMPI_Comm_fromint(fs::get(comm)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Rsend_init(buf: *mut c_void, count: c_int, datatype: usize, dest: c_int, tag: c_int, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Rsend_init(buf: *mut c_void, count: c_int, datatype: usize, dest: c_int, tag: c_int, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Rsend_init`.
    mpi_rsend_init_ / pmpi_rsend_init_ => MPI_Rsend_init / PMPI_Rsend_init,
    |c| (buf: *const c_void, count: *const c_int, datatype: *const c_int, dest: *const c_int, tag: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::get(dest), fs::get(tag), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Scan(sendbuf: *mut c_void, recvbuf: *mut c_void, count: c_int, datatype: usize, op: usize, comm: usize) -> c_int;
    fn PMPI_Scan(sendbuf: *mut c_void, recvbuf: *mut c_void, count: c_int, datatype: usize, op: usize, comm: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Scan`.
    mpi_scan_ / pmpi_scan_ => MPI_Scan / PMPI_Scan,
    |c| (sendbuf: *const c_void, recvbuf: *const c_void, count: *const c_int, datatype: *const c_int, op: *const c_int, comm: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(sendbuf), fs::buffer(recvbuf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), PMPI_Op_fromint(fs::get(op)), PMPI_Comm_fromint(fs::get(comm)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Scan_init(sendbuf: *mut c_void, recvbuf: *mut c_void, count: c_int, datatype: usize, op: usize, comm: usize, info: usize, request: *mut usize) -> c_int;
    fn PMPI_Scan_init(sendbuf: *mut c_void, recvbuf: *mut c_void, count: c_int, datatype: usize, op: usize, comm: usize, info: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Scan_init`.
    mpi_scan_init_ / pmpi_scan_init_ => MPI_Scan_init / PMPI_Scan_init,
    |c| (sendbuf: *const c_void, recvbuf: *const c_void, count: *const c_int, datatype: *const c_int, op: *const c_int, comm: *const c_int, info: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::buffer(recvbuf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), PMPI_Op_fromint(fs::get(op)), PMPI_Comm_fromint(fs::get(comm)), PMPI_Info_fromint(fs::get(info)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Scatter(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, root: c_int, comm: usize) -> c_int;
    fn PMPI_Scatter(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, root: c_int, comm: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Scatter`.
    mpi_scatter_ / pmpi_scatter_ => MPI_Scatter / PMPI_Scatter,
    |c| (sendbuf: *const c_void, sendcount: *const c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcount: *const c_int, recvtype: *const c_int, root: *const c_int, comm: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(sendbuf), fs::get(sendcount), PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), fs::get(recvcount), PMPI_Type_fromint(fs::get(recvtype)), fs::get(root), PMPI_Comm_fromint(fs::get(comm)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Scatter_init(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, root: c_int, comm: usize, info: usize, request: *mut usize) -> c_int;
    fn PMPI_Scatter_init(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, root: c_int, comm: usize, info: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Scatter_init`.
    mpi_scatter_init_ / pmpi_scatter_init_ => MPI_Scatter_init / PMPI_Scatter_init,
    |c| (sendbuf: *const c_void, sendcount: *const c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcount: *const c_int, recvtype: *const c_int, root: *const c_int, comm: *const c_int, info: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), fs::get(sendcount), PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), fs::get(recvcount), PMPI_Type_fromint(fs::get(recvtype)), fs::get(root), PMPI_Comm_fromint(fs::get(comm)), PMPI_Info_fromint(fs::get(info)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Scatterv(sendbuf: *mut c_void, sendcounts: *mut c_int, displs: *mut c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, root: c_int, comm: usize) -> c_int;
    fn PMPI_Scatterv(sendbuf: *mut c_void, sendcounts: *mut c_int, displs: *mut c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, root: c_int, comm: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Scatterv`.
    mpi_scatterv_ / pmpi_scatterv_ => MPI_Scatterv / PMPI_Scatterv,
    |c| (sendbuf: *const c_void, sendcounts: *mut c_int, displs: *mut c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcount: *const c_int, recvtype: *const c_int, root: *const c_int, comm: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(sendbuf), sendcounts, displs, PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), fs::get(recvcount), PMPI_Type_fromint(fs::get(recvtype)), fs::get(root), PMPI_Comm_fromint(fs::get(comm)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Scatterv_init(sendbuf: *mut c_void, sendcounts: *mut c_int, displs: *mut c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, root: c_int, comm: usize, info: usize, request: *mut usize) -> c_int;
    fn PMPI_Scatterv_init(sendbuf: *mut c_void, sendcounts: *mut c_int, displs: *mut c_int, sendtype: usize, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, root: c_int, comm: usize, info: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Scatterv_init`.
    mpi_scatterv_init_ / pmpi_scatterv_init_ => MPI_Scatterv_init / PMPI_Scatterv_init,
    |c| (sendbuf: *const c_void, sendcounts: *mut c_int, displs: *mut c_int, sendtype: *const c_int, recvbuf: *const c_void, recvcount: *const c_int, recvtype: *const c_int, root: *const c_int, comm: *const c_int, info: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(sendbuf), sendcounts, displs, PMPI_Type_fromint(fs::get(sendtype)), fs::buffer(recvbuf), fs::get(recvcount), PMPI_Type_fromint(fs::get(recvtype)), fs::get(root), PMPI_Comm_fromint(fs::get(comm)), PMPI_Info_fromint(fs::get(info)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Send(buf: *mut c_void, count: c_int, datatype: usize, dest: c_int, tag: c_int, comm: usize) -> c_int;
    fn PMPI_Send(buf: *mut c_void, count: c_int, datatype: usize, dest: c_int, tag: c_int, comm: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Send`.
    mpi_send_ / pmpi_send_ => MPI_Send / PMPI_Send,
    |c| (buf: *const c_void, count: *const c_int, datatype: *const c_int, dest: *const c_int, tag: *const c_int, comm: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::get(dest), fs::get(tag), PMPI_Comm_fromint(fs::get(comm)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Send_init(buf: *mut c_void, count: c_int, datatype: usize, dest: c_int, tag: c_int, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Send_init(buf: *mut c_void, count: c_int, datatype: usize, dest: c_int, tag: c_int, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Send_init`.
    mpi_send_init_ / pmpi_send_init_ => MPI_Send_init / PMPI_Send_init,
    |c| (buf: *const c_void, count: *const c_int, datatype: *const c_int, dest: *const c_int, tag: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::get(dest), fs::get(tag), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Sendrecv(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, dest: c_int, sendtag: c_int, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, source: c_int, recvtag: c_int, comm: usize, status: *mut c_void) -> c_int;
    fn PMPI_Sendrecv(sendbuf: *mut c_void, sendcount: c_int, sendtype: usize, dest: c_int, sendtag: c_int, recvbuf: *mut c_void, recvcount: c_int, recvtype: usize, source: c_int, recvtag: c_int, comm: usize, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Sendrecv`.
    mpi_sendrecv_ / pmpi_sendrecv_ => MPI_Sendrecv / PMPI_Sendrecv,
    |c| (sendbuf: *const c_void, sendcount: *const c_int, sendtype: *const c_int, dest: *const c_int, sendtag: *const c_int, recvbuf: *const c_void, recvcount: *const c_int, recvtype: *const c_int, source: *const c_int, recvtag: *const c_int, comm: *const c_int, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(sendbuf), fs::get(sendcount), PMPI_Type_fromint(fs::get(sendtype)), fs::get(dest), fs::get(sendtag), fs::buffer(recvbuf), fs::get(recvcount), PMPI_Type_fromint(fs::get(recvtype)), fs::get(source), fs::get(recvtag), PMPI_Comm_fromint(fs::get(comm)), fs::status(status));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Sendrecv_replace(buf: *mut c_void, count: c_int, datatype: usize, dest: c_int, sendtag: c_int, source: c_int, recvtag: c_int, comm: usize, status: *mut c_void) -> c_int;
    fn PMPI_Sendrecv_replace(buf: *mut c_void, count: c_int, datatype: usize, dest: c_int, sendtag: c_int, source: c_int, recvtag: c_int, comm: usize, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Sendrecv_replace`.
    mpi_sendrecv_replace_ / pmpi_sendrecv_replace_ => MPI_Sendrecv_replace / PMPI_Sendrecv_replace,
    |c| (buf: *const c_void, count: *const c_int, datatype: *const c_int, dest: *const c_int, sendtag: *const c_int, source: *const c_int, recvtag: *const c_int, comm: *const c_int, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::get(dest), fs::get(sendtag), fs::get(source), fs::get(recvtag), PMPI_Comm_fromint(fs::get(comm)), fs::status(status));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Session_attach_buffer(session: usize, buffer: *mut c_void, size: c_int) -> c_int;
    fn PMPI_Session_attach_buffer(session: usize, buffer: *mut c_void, size: c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Session_attach_buffer`.
    mpi_session_attach_buffer_ / pmpi_session_attach_buffer_ => MPI_Session_attach_buffer / PMPI_Session_attach_buffer,
    |c| (session: *const c_int, buffer: *const c_void, size: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Session_fromint(fs::get(session)), fs::buffer(buffer), fs::get(size));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Session_call_errhandler(session: usize, errorcode: c_int) -> c_int;
    fn PMPI_Session_call_errhandler(session: usize, errorcode: c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Session_call_errhandler`.
    mpi_session_call_errhandler_ / pmpi_session_call_errhandler_ => MPI_Session_call_errhandler / PMPI_Session_call_errhandler,
    |c| (session: *const c_int, errorcode: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Session_fromint(fs::get(session)), fs::get(errorcode));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Session_finalize(session: *mut usize) -> c_int;
    fn PMPI_Session_finalize(session: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Session_finalize`.
    mpi_session_finalize_ / pmpi_session_finalize_ => MPI_Session_finalize / PMPI_Session_finalize,
    |c| (session: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_session = PMPI_Session_fromint(fs::get(session));
            let rc = c(&mut h_session);
            fs::set(session, PMPI_Session_toint(h_session));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Session_flush_buffer(session: usize) -> c_int;
    fn PMPI_Session_flush_buffer(session: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Session_flush_buffer`.
    mpi_session_flush_buffer_ / pmpi_session_flush_buffer_ => MPI_Session_flush_buffer / PMPI_Session_flush_buffer,
    |c| (session: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Session_fromint(fs::get(session)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Session_get_errhandler(session: usize, errhandler: *mut usize) -> c_int;
    fn PMPI_Session_get_errhandler(session: usize, errhandler: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Session_get_errhandler`.
    mpi_session_get_errhandler_ / pmpi_session_get_errhandler_ => MPI_Session_get_errhandler / PMPI_Session_get_errhandler,
    |c| (session: *const c_int, errhandler: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_errhandler = PMPI_Errhandler_fromint(fs::get(errhandler));
            let rc = c(PMPI_Session_fromint(fs::get(session)), &mut h_errhandler);
            fs::set(errhandler, PMPI_Errhandler_toint(h_errhandler));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Session_get_info(session: usize, info_used: *mut usize) -> c_int;
    fn PMPI_Session_get_info(session: usize, info_used: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Session_get_info`.
    mpi_session_get_info_ / pmpi_session_get_info_ => MPI_Session_get_info / PMPI_Session_get_info,
    |c| (session: *const c_int, info_used: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_info_used = PMPI_Info_fromint(fs::get(info_used));
            let rc = c(PMPI_Session_fromint(fs::get(session)), &mut h_info_used);
            fs::set(info_used, PMPI_Info_toint(h_info_used));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Session_get_nth_pset(session: usize, info: usize, n: c_int, pset_len: *mut c_int, pset_name: *mut c_char) -> c_int;
    fn PMPI_Session_get_nth_pset(session: usize, info: usize, n: c_int, pset_len: *mut c_int, pset_name: *mut c_char) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Session_get_nth_pset`.
    mpi_session_get_nth_pset_ / pmpi_session_get_nth_pset_ => MPI_Session_get_nth_pset / PMPI_Session_get_nth_pset,
    |c| (session: *const c_int, info: *const c_int, n: *const c_int, pset_len: *mut c_int, pset_name: *mut u8, ierror: *mut c_int, pset_name_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut s_pset_name = fs::string_buffer(pset_name_len);
            let rc = c(PMPI_Session_fromint(fs::get(session)), PMPI_Info_fromint(fs::get(info)), fs::get(n), pset_len, s_pset_name.as_mut_ptr().cast());
            if rc == 0 { fs::string_out(pset_name, pset_name_len, &s_pset_name); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Session_get_num_psets(session: usize, info: usize, npset_names: *mut c_int) -> c_int;
    fn PMPI_Session_get_num_psets(session: usize, info: usize, npset_names: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Session_get_num_psets`.
    mpi_session_get_num_psets_ / pmpi_session_get_num_psets_ => MPI_Session_get_num_psets / PMPI_Session_get_num_psets,
    |c| (session: *const c_int, info: *const c_int, npset_names: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Session_fromint(fs::get(session)), PMPI_Info_fromint(fs::get(info)), npset_names);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Session_get_pset_info(session: usize, pset_name: *const c_char, info: *mut usize) -> c_int;
    fn PMPI_Session_get_pset_info(session: usize, pset_name: *const c_char, info: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Session_get_pset_info`.
    mpi_session_get_pset_info_ / pmpi_session_get_pset_info_ => MPI_Session_get_pset_info / PMPI_Session_get_pset_info,
    |c| (session: *const c_int, pset_name: *const u8, info: *mut c_int, ierror: *mut c_int, pset_name_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let s_pset_name = fs::string_in(pset_name, pset_name_len);
            let mut h_info = PMPI_Info_fromint(fs::get(info));
            let rc = c(PMPI_Session_fromint(fs::get(session)), s_pset_name.as_ptr(), &mut h_info);
            fs::set(info, PMPI_Info_toint(h_info));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Session_iflush_buffer(session: usize, request: *mut usize) -> c_int;
    fn PMPI_Session_iflush_buffer(session: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Session_iflush_buffer`.
    mpi_session_iflush_buffer_ / pmpi_session_iflush_buffer_ => MPI_Session_iflush_buffer / PMPI_Session_iflush_buffer,
    |c| (session: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(PMPI_Session_fromint(fs::get(session)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Session_init(info: usize, errhandler: usize, session: *mut usize) -> c_int;
    fn PMPI_Session_init(info: usize, errhandler: usize, session: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Session_init`.
    mpi_session_init_ / pmpi_session_init_ => MPI_Session_init / PMPI_Session_init,
    |c| (info: *const c_int, errhandler: *const c_int, session: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_session = PMPI_Session_fromint(fs::get(session));
            let rc = c(PMPI_Info_fromint(fs::get(info)), PMPI_Errhandler_fromint(fs::get(errhandler)), &mut h_session);
            fs::set(session, PMPI_Session_toint(h_session));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Session_set_errhandler(session: usize, errhandler: usize) -> c_int;
    fn PMPI_Session_set_errhandler(session: usize, errhandler: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Session_set_errhandler`.
    mpi_session_set_errhandler_ / pmpi_session_set_errhandler_ => MPI_Session_set_errhandler / PMPI_Session_set_errhandler,
    |c| (session: *const c_int, errhandler: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Session_fromint(fs::get(session)), PMPI_Errhandler_fromint(fs::get(errhandler)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Ssend(buf: *mut c_void, count: c_int, datatype: usize, dest: c_int, tag: c_int, comm: usize) -> c_int;
    fn PMPI_Ssend(buf: *mut c_void, count: c_int, datatype: usize, dest: c_int, tag: c_int, comm: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Ssend`.
    mpi_ssend_ / pmpi_ssend_ => MPI_Ssend / PMPI_Ssend,
    |c| (buf: *const c_void, count: *const c_int, datatype: *const c_int, dest: *const c_int, tag: *const c_int, comm: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::get(dest), fs::get(tag), PMPI_Comm_fromint(fs::get(comm)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Ssend_init(buf: *mut c_void, count: c_int, datatype: usize, dest: c_int, tag: c_int, comm: usize, request: *mut usize) -> c_int;
    fn PMPI_Ssend_init(buf: *mut c_void, count: c_int, datatype: usize, dest: c_int, tag: c_int, comm: usize, request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Ssend_init`.
    mpi_ssend_init_ / pmpi_ssend_init_ => MPI_Ssend_init / PMPI_Ssend_init,
    |c| (buf: *const c_void, count: *const c_int, datatype: *const c_int, dest: *const c_int, tag: *const c_int, comm: *const c_int, request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(fs::buffer(buf), fs::get(count), PMPI_Type_fromint(fs::get(datatype)), fs::get(dest), fs::get(tag), PMPI_Comm_fromint(fs::get(comm)), &mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Start(request: *mut usize) -> c_int;
    fn PMPI_Start(request: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Start`.
    mpi_start_ / pmpi_start_ => MPI_Start / PMPI_Start,
    |c| (request: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(&mut h_request);
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Startall(count: c_int, array_of_requests: *mut usize) -> c_int;
    fn PMPI_Startall(count: c_int, array_of_requests: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Startall`.
    mpi_startall_ / pmpi_startall_ => MPI_Startall / PMPI_Startall,
    |c| (count: *const c_int, array_of_requests: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut v_array_of_requests: Vec<usize> = (0..fs::get(count).max(0) as usize).map(|i| PMPI_Request_fromint(array_of_requests.add(i).read())).collect();
            let rc = c(fs::get(count), v_array_of_requests.as_mut_ptr());
            for (i, h) in v_array_of_requests.iter().enumerate() { array_of_requests.add(i).write(PMPI_Request_toint(*h)); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Status_get_error(status: *mut c_void, error: *mut c_int) -> c_int;
    fn PMPI_Status_get_error(status: *mut c_void, error: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Status_get_error`.
    mpi_status_get_error_ / pmpi_status_get_error_ => MPI_Status_get_error / PMPI_Status_get_error,
    |c| (status: *mut c_int, error: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::status(status), error);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Status_get_source(status: *mut c_void, source: *mut c_int) -> c_int;
    fn PMPI_Status_get_source(status: *mut c_void, source: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Status_get_source`.
    mpi_status_get_source_ / pmpi_status_get_source_ => MPI_Status_get_source / PMPI_Status_get_source,
    |c| (status: *mut c_int, source: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::status(status), source);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Status_get_tag(status: *mut c_void, tag: *mut c_int) -> c_int;
    fn PMPI_Status_get_tag(status: *mut c_void, tag: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Status_get_tag`.
    mpi_status_get_tag_ / pmpi_status_get_tag_ => MPI_Status_get_tag / PMPI_Status_get_tag,
    |c| (status: *mut c_int, tag: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::status(status), tag);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Status_set_cancelled(status: *mut c_void, flag: c_int) -> c_int;
    fn PMPI_Status_set_cancelled(status: *mut c_void, flag: c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Status_set_cancelled`.
    mpi_status_set_cancelled_ / pmpi_status_set_cancelled_ => MPI_Status_set_cancelled / PMPI_Status_set_cancelled,
    |c| (status: *mut c_int, flag: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::status(status), fs::logical_to_c(fs::get(flag)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Status_set_elements(status: *mut c_void, datatype: usize, count: c_int) -> c_int;
    fn PMPI_Status_set_elements(status: *mut c_void, datatype: usize, count: c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Status_set_elements`.
    mpi_status_set_elements_ / pmpi_status_set_elements_ => MPI_Status_set_elements / PMPI_Status_set_elements,
    |c| (status: *mut c_int, datatype: *const c_int, count: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::status(status), PMPI_Type_fromint(fs::get(datatype)), fs::get(count));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Status_set_elements_x(status: *mut c_void, datatype: usize, count: i64) -> c_int;
    fn PMPI_Status_set_elements_x(status: *mut c_void, datatype: usize, count: i64) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Status_set_elements_x`.
    mpi_status_set_elements_x_ / pmpi_status_set_elements_x_ => MPI_Status_set_elements_x / PMPI_Status_set_elements_x,
    |c| (status: *mut c_int, datatype: *const c_int, count: *const i64, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::status(status), PMPI_Type_fromint(fs::get(datatype)), fs::get(count));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Status_set_error(status: *mut c_void, error: c_int) -> c_int;
    fn PMPI_Status_set_error(status: *mut c_void, error: c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Status_set_error`.
    mpi_status_set_error_ / pmpi_status_set_error_ => MPI_Status_set_error / PMPI_Status_set_error,
    |c| (status: *mut c_int, error: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::status(status), fs::get(error));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Status_set_source(status: *mut c_void, source: c_int) -> c_int;
    fn PMPI_Status_set_source(status: *mut c_void, source: c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Status_set_source`.
    mpi_status_set_source_ / pmpi_status_set_source_ => MPI_Status_set_source / PMPI_Status_set_source,
    |c| (status: *mut c_int, source: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::status(status), fs::get(source));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Status_set_tag(status: *mut c_void, tag: c_int) -> c_int;
    fn PMPI_Status_set_tag(status: *mut c_void, tag: c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Status_set_tag`.
    mpi_status_set_tag_ / pmpi_status_set_tag_ => MPI_Status_set_tag / PMPI_Status_set_tag,
    |c| (status: *mut c_int, tag: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::status(status), fs::get(tag));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Test(request: *mut usize, flag: *mut c_int, status: *mut c_void) -> c_int;
    fn PMPI_Test(request: *mut usize, flag: *mut c_int, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Test`.
    mpi_test_ / pmpi_test_ => MPI_Test / PMPI_Test,
    |c| (request: *mut c_int, flag: *mut c_int, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let mut l_flag: c_int = 0;
            let rc = c(&mut h_request, &mut l_flag, fs::status(status));
            fs::set(request, PMPI_Request_toint(h_request));
            if rc == 0 { fs::set(flag, fs::logical_from_c(l_flag)); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Test_cancelled(status: *mut c_void, flag: *mut c_int) -> c_int;
    fn PMPI_Test_cancelled(status: *mut c_void, flag: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Test_cancelled`.
    mpi_test_cancelled_ / pmpi_test_cancelled_ => MPI_Test_cancelled / PMPI_Test_cancelled,
    |c| (status: *mut c_int, flag: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut l_flag: c_int = 0;
            let rc = c(fs::status(status), &mut l_flag);
            if rc == 0 { fs::set(flag, fs::logical_from_c(l_flag)); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Testall(count: c_int, array_of_requests: *mut usize, flag: *mut c_int, array_of_statuses: *mut c_void) -> c_int;
    fn PMPI_Testall(count: c_int, array_of_requests: *mut usize, flag: *mut c_int, array_of_statuses: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Testall`.
    mpi_testall_ / pmpi_testall_ => MPI_Testall / PMPI_Testall,
    |c| (count: *const c_int, array_of_requests: *mut c_int, flag: *mut c_int, array_of_statuses: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut v_array_of_requests: Vec<usize> = (0..fs::get(count).max(0) as usize).map(|i| PMPI_Request_fromint(array_of_requests.add(i).read())).collect();
            let mut l_flag: c_int = 0;
            let rc = c(fs::get(count), v_array_of_requests.as_mut_ptr(), &mut l_flag, fs::status(array_of_statuses));
            for (i, h) in v_array_of_requests.iter().enumerate() { array_of_requests.add(i).write(PMPI_Request_toint(*h)); }
            if rc == 0 { fs::set(flag, fs::logical_from_c(l_flag)); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Testany(count: c_int, array_of_requests: *mut usize, indx: *mut c_int, flag: *mut c_int, status: *mut c_void) -> c_int;
    fn PMPI_Testany(count: c_int, array_of_requests: *mut usize, indx: *mut c_int, flag: *mut c_int, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Testany`.
    mpi_testany_ / pmpi_testany_ => MPI_Testany / PMPI_Testany,
    |c| (count: *const c_int, array_of_requests: *mut c_int, indx: *mut c_int, flag: *mut c_int, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut v_array_of_requests: Vec<usize> = (0..fs::get(count).max(0) as usize).map(|i| PMPI_Request_fromint(array_of_requests.add(i).read())).collect();
            let mut l_flag: c_int = 0;
            let rc = c(fs::get(count), v_array_of_requests.as_mut_ptr(), indx, &mut l_flag, fs::status(status));
            for (i, h) in v_array_of_requests.iter().enumerate() { array_of_requests.add(i).write(PMPI_Request_toint(*h)); }
            if rc == 0 { fs::set(indx, fs::index_from_c(fs::get(indx))); }
            if rc == 0 { fs::set(flag, fs::logical_from_c(l_flag)); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Testsome(incount: c_int, array_of_requests: *mut usize, outcount: *mut c_int, array_of_indices: *mut c_int, array_of_statuses: *mut c_void) -> c_int;
    fn PMPI_Testsome(incount: c_int, array_of_requests: *mut usize, outcount: *mut c_int, array_of_indices: *mut c_int, array_of_statuses: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Testsome`.
    mpi_testsome_ / pmpi_testsome_ => MPI_Testsome / PMPI_Testsome,
    |c| (incount: *const c_int, array_of_requests: *mut c_int, outcount: *mut c_int, array_of_indices: *mut c_int, array_of_statuses: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut v_array_of_requests: Vec<usize> = (0..fs::get(incount).max(0) as usize).map(|i| PMPI_Request_fromint(array_of_requests.add(i).read())).collect();
            let rc = c(fs::get(incount), v_array_of_requests.as_mut_ptr(), outcount, array_of_indices, fs::status(array_of_statuses));
            for (i, h) in v_array_of_requests.iter().enumerate() { array_of_requests.add(i).write(PMPI_Request_toint(*h)); }
            if rc == 0 && !array_of_indices.is_null() { for i in 0..fs::get(outcount).max(0) as usize { let q = array_of_indices.add(i); q.write(fs::index_from_c(q.read())); } }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Topo_test(comm: usize, status: *mut c_int) -> c_int;
    fn PMPI_Topo_test(comm: usize, status: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Topo_test`.
    mpi_topo_test_ / pmpi_topo_test_ => MPI_Topo_test / PMPI_Topo_test,
    |c| (comm: *const c_int, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Comm_fromint(fs::get(comm)), status);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_commit(datatype: *mut usize) -> c_int;
    fn PMPI_Type_commit(datatype: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_commit`.
    mpi_type_commit_ / pmpi_type_commit_ => MPI_Type_commit / PMPI_Type_commit,
    |c| (datatype: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_datatype = PMPI_Type_fromint(fs::get(datatype));
            let rc = c(&mut h_datatype);
            fs::set(datatype, PMPI_Type_toint(h_datatype));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_contiguous(count: c_int, oldtype: usize, newtype: *mut usize) -> c_int;
    fn PMPI_Type_contiguous(count: c_int, oldtype: usize, newtype: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_contiguous`.
    mpi_type_contiguous_ / pmpi_type_contiguous_ => MPI_Type_contiguous / PMPI_Type_contiguous,
    |c| (count: *const c_int, oldtype: *const c_int, newtype: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newtype = PMPI_Type_fromint(fs::get(newtype));
            let rc = c(fs::get(count), PMPI_Type_fromint(fs::get(oldtype)), &mut h_newtype);
            fs::set(newtype, PMPI_Type_toint(h_newtype));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_create_darray(size: c_int, rank: c_int, ndims: c_int, array_of_gsizes: *mut c_int, array_of_distribs: *mut c_int, array_of_dargs: *mut c_int, array_of_psizes: *mut c_int, order: c_int, oldtype: usize, newtype: *mut usize) -> c_int;
    fn PMPI_Type_create_darray(size: c_int, rank: c_int, ndims: c_int, array_of_gsizes: *mut c_int, array_of_distribs: *mut c_int, array_of_dargs: *mut c_int, array_of_psizes: *mut c_int, order: c_int, oldtype: usize, newtype: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_create_darray`.
    mpi_type_create_darray_ / pmpi_type_create_darray_ => MPI_Type_create_darray / PMPI_Type_create_darray,
    |c| (size: *const c_int, rank: *const c_int, ndims: *const c_int, array_of_gsizes: *mut c_int, array_of_distribs: *mut c_int, array_of_dargs: *mut c_int, array_of_psizes: *mut c_int, order: *const c_int, oldtype: *const c_int, newtype: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newtype = PMPI_Type_fromint(fs::get(newtype));
            let rc = c(fs::get(size), fs::get(rank), fs::get(ndims), array_of_gsizes, array_of_distribs, array_of_dargs, array_of_psizes, fs::get(order), PMPI_Type_fromint(fs::get(oldtype)), &mut h_newtype);
            fs::set(newtype, PMPI_Type_toint(h_newtype));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_create_f90_complex(p: c_int, r: c_int, newtype: *mut usize) -> c_int;
    fn PMPI_Type_create_f90_complex(p: c_int, r: c_int, newtype: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_create_f90_complex`.
    mpi_type_create_f90_complex_ / pmpi_type_create_f90_complex_ => MPI_Type_create_f90_complex / PMPI_Type_create_f90_complex,
    |c| (p: *const c_int, r: *const c_int, newtype: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newtype = PMPI_Type_fromint(fs::get(newtype));
            let rc = c(fs::get(p), fs::get(r), &mut h_newtype);
            fs::set(newtype, PMPI_Type_toint(h_newtype));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_create_f90_integer(r: c_int, newtype: *mut usize) -> c_int;
    fn PMPI_Type_create_f90_integer(r: c_int, newtype: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_create_f90_integer`.
    mpi_type_create_f90_integer_ / pmpi_type_create_f90_integer_ => MPI_Type_create_f90_integer / PMPI_Type_create_f90_integer,
    |c| (r: *const c_int, newtype: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newtype = PMPI_Type_fromint(fs::get(newtype));
            let rc = c(fs::get(r), &mut h_newtype);
            fs::set(newtype, PMPI_Type_toint(h_newtype));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_create_f90_real(p: c_int, r: c_int, newtype: *mut usize) -> c_int;
    fn PMPI_Type_create_f90_real(p: c_int, r: c_int, newtype: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_create_f90_real`.
    mpi_type_create_f90_real_ / pmpi_type_create_f90_real_ => MPI_Type_create_f90_real / PMPI_Type_create_f90_real,
    |c| (p: *const c_int, r: *const c_int, newtype: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newtype = PMPI_Type_fromint(fs::get(newtype));
            let rc = c(fs::get(p), fs::get(r), &mut h_newtype);
            fs::set(newtype, PMPI_Type_toint(h_newtype));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_create_hindexed(count: c_int, array_of_blocklengths: *mut c_int, array_of_displacements: *mut isize, oldtype: usize, newtype: *mut usize) -> c_int;
    fn PMPI_Type_create_hindexed(count: c_int, array_of_blocklengths: *mut c_int, array_of_displacements: *mut isize, oldtype: usize, newtype: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_create_hindexed`.
    mpi_type_create_hindexed_ / pmpi_type_create_hindexed_ => MPI_Type_create_hindexed / PMPI_Type_create_hindexed,
    |c| (count: *const c_int, array_of_blocklengths: *mut c_int, array_of_displacements: *mut i64, oldtype: *const c_int, newtype: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newtype = PMPI_Type_fromint(fs::get(newtype));
            let rc = c(fs::get(count), array_of_blocklengths, array_of_displacements.cast(), PMPI_Type_fromint(fs::get(oldtype)), &mut h_newtype);
            fs::set(newtype, PMPI_Type_toint(h_newtype));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_create_hindexed_block(count: c_int, blocklength: c_int, array_of_displacements: *mut isize, oldtype: usize, newtype: *mut usize) -> c_int;
    fn PMPI_Type_create_hindexed_block(count: c_int, blocklength: c_int, array_of_displacements: *mut isize, oldtype: usize, newtype: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_create_hindexed_block`.
    mpi_type_create_hindexed_block_ / pmpi_type_create_hindexed_block_ => MPI_Type_create_hindexed_block / PMPI_Type_create_hindexed_block,
    |c| (count: *const c_int, blocklength: *const c_int, array_of_displacements: *mut i64, oldtype: *const c_int, newtype: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newtype = PMPI_Type_fromint(fs::get(newtype));
            let rc = c(fs::get(count), fs::get(blocklength), array_of_displacements.cast(), PMPI_Type_fromint(fs::get(oldtype)), &mut h_newtype);
            fs::set(newtype, PMPI_Type_toint(h_newtype));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_create_hvector(count: c_int, blocklength: c_int, stride: isize, oldtype: usize, newtype: *mut usize) -> c_int;
    fn PMPI_Type_create_hvector(count: c_int, blocklength: c_int, stride: isize, oldtype: usize, newtype: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_create_hvector`.
    mpi_type_create_hvector_ / pmpi_type_create_hvector_ => MPI_Type_create_hvector / PMPI_Type_create_hvector,
    |c| (count: *const c_int, blocklength: *const c_int, stride: *const i64, oldtype: *const c_int, newtype: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newtype = PMPI_Type_fromint(fs::get(newtype));
            let rc = c(fs::get(count), fs::get(blocklength), fs::get(stride) as isize, PMPI_Type_fromint(fs::get(oldtype)), &mut h_newtype);
            fs::set(newtype, PMPI_Type_toint(h_newtype));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_create_indexed_block(count: c_int, blocklength: c_int, array_of_displacements: *mut c_int, oldtype: usize, newtype: *mut usize) -> c_int;
    fn PMPI_Type_create_indexed_block(count: c_int, blocklength: c_int, array_of_displacements: *mut c_int, oldtype: usize, newtype: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_create_indexed_block`.
    mpi_type_create_indexed_block_ / pmpi_type_create_indexed_block_ => MPI_Type_create_indexed_block / PMPI_Type_create_indexed_block,
    |c| (count: *const c_int, blocklength: *const c_int, array_of_displacements: *mut c_int, oldtype: *const c_int, newtype: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newtype = PMPI_Type_fromint(fs::get(newtype));
            let rc = c(fs::get(count), fs::get(blocklength), array_of_displacements, PMPI_Type_fromint(fs::get(oldtype)), &mut h_newtype);
            fs::set(newtype, PMPI_Type_toint(h_newtype));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_create_resized(oldtype: usize, lb: isize, extent: isize, newtype: *mut usize) -> c_int;
    fn PMPI_Type_create_resized(oldtype: usize, lb: isize, extent: isize, newtype: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_create_resized`.
    mpi_type_create_resized_ / pmpi_type_create_resized_ => MPI_Type_create_resized / PMPI_Type_create_resized,
    |c| (oldtype: *const c_int, lb: *const i64, extent: *const i64, newtype: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newtype = PMPI_Type_fromint(fs::get(newtype));
            let rc = c(PMPI_Type_fromint(fs::get(oldtype)), fs::get(lb) as isize, fs::get(extent) as isize, &mut h_newtype);
            fs::set(newtype, PMPI_Type_toint(h_newtype));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_create_struct(count: c_int, array_of_blocklengths: *mut c_int, array_of_displacements: *mut isize, array_of_types: *mut usize, newtype: *mut usize) -> c_int;
    fn PMPI_Type_create_struct(count: c_int, array_of_blocklengths: *mut c_int, array_of_displacements: *mut isize, array_of_types: *mut usize, newtype: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_create_struct`.
    mpi_type_create_struct_ / pmpi_type_create_struct_ => MPI_Type_create_struct / PMPI_Type_create_struct,
    |c| (count: *const c_int, array_of_blocklengths: *mut c_int, array_of_displacements: *mut i64, array_of_types: *mut c_int, newtype: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut v_array_of_types: Vec<usize> = (0..fs::get(count).max(0) as usize).map(|i| PMPI_Type_fromint(array_of_types.add(i).read())).collect();
            let mut h_newtype = PMPI_Type_fromint(fs::get(newtype));
            let rc = c(fs::get(count), array_of_blocklengths, array_of_displacements.cast(), v_array_of_types.as_mut_ptr(), &mut h_newtype);
            fs::set(newtype, PMPI_Type_toint(h_newtype));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_create_subarray(ndims: c_int, array_of_sizes: *mut c_int, array_of_subsizes: *mut c_int, array_of_starts: *mut c_int, order: c_int, oldtype: usize, newtype: *mut usize) -> c_int;
    fn PMPI_Type_create_subarray(ndims: c_int, array_of_sizes: *mut c_int, array_of_subsizes: *mut c_int, array_of_starts: *mut c_int, order: c_int, oldtype: usize, newtype: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_create_subarray`.
    mpi_type_create_subarray_ / pmpi_type_create_subarray_ => MPI_Type_create_subarray / PMPI_Type_create_subarray,
    |c| (ndims: *const c_int, array_of_sizes: *mut c_int, array_of_subsizes: *mut c_int, array_of_starts: *mut c_int, order: *const c_int, oldtype: *const c_int, newtype: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newtype = PMPI_Type_fromint(fs::get(newtype));
            let rc = c(fs::get(ndims), array_of_sizes, array_of_subsizes, array_of_starts, fs::get(order), PMPI_Type_fromint(fs::get(oldtype)), &mut h_newtype);
            fs::set(newtype, PMPI_Type_toint(h_newtype));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_delete_attr(datatype: usize, type_keyval: c_int) -> c_int;
    fn PMPI_Type_delete_attr(datatype: usize, type_keyval: c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_delete_attr`.
    mpi_type_delete_attr_ / pmpi_type_delete_attr_ => MPI_Type_delete_attr / PMPI_Type_delete_attr,
    |c| (datatype: *const c_int, type_keyval: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Type_fromint(fs::get(datatype)), fs::get(type_keyval));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_dup(oldtype: usize, newtype: *mut usize) -> c_int;
    fn PMPI_Type_dup(oldtype: usize, newtype: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_dup`.
    mpi_type_dup_ / pmpi_type_dup_ => MPI_Type_dup / PMPI_Type_dup,
    |c| (oldtype: *const c_int, newtype: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newtype = PMPI_Type_fromint(fs::get(newtype));
            let rc = c(PMPI_Type_fromint(fs::get(oldtype)), &mut h_newtype);
            fs::set(newtype, PMPI_Type_toint(h_newtype));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_free(datatype: *mut usize) -> c_int;
    fn PMPI_Type_free(datatype: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_free`.
    mpi_type_free_ / pmpi_type_free_ => MPI_Type_free / PMPI_Type_free,
    |c| (datatype: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_datatype = PMPI_Type_fromint(fs::get(datatype));
            let rc = c(&mut h_datatype);
            fs::set(datatype, PMPI_Type_toint(h_datatype));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_free_keyval(type_keyval: *mut c_int) -> c_int;
    fn PMPI_Type_free_keyval(type_keyval: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_free_keyval`.
    mpi_type_free_keyval_ / pmpi_type_free_keyval_ => MPI_Type_free_keyval / PMPI_Type_free_keyval,
    |c| (type_keyval: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(type_keyval);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_get_contents(datatype: usize, max_integers: c_int, max_addresses: c_int, max_datatypes: c_int, array_of_integers: *mut c_int, array_of_addresses: *mut isize, array_of_datatypes: *mut usize) -> c_int;
    fn PMPI_Type_get_contents(datatype: usize, max_integers: c_int, max_addresses: c_int, max_datatypes: c_int, array_of_integers: *mut c_int, array_of_addresses: *mut isize, array_of_datatypes: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_get_contents`.
    mpi_type_get_contents_ / pmpi_type_get_contents_ => MPI_Type_get_contents / PMPI_Type_get_contents,
    |c| (datatype: *const c_int, max_integers: *const c_int, max_addresses: *const c_int, max_datatypes: *const c_int, array_of_integers: *mut c_int, array_of_addresses: *mut i64, array_of_datatypes: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut v_array_of_datatypes: Vec<usize> = (0..fs::get(max_datatypes).max(0) as usize).map(|i| PMPI_Type_fromint(array_of_datatypes.add(i).read())).collect();
            let rc = c(PMPI_Type_fromint(fs::get(datatype)), fs::get(max_integers), fs::get(max_addresses), fs::get(max_datatypes), array_of_integers, array_of_addresses.cast(), v_array_of_datatypes.as_mut_ptr());
            for (i, h) in v_array_of_datatypes.iter().enumerate() { array_of_datatypes.add(i).write(PMPI_Type_toint(*h)); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_get_envelope(datatype: usize, num_integers: *mut c_int, num_addresses: *mut c_int, num_datatypes: *mut c_int, combiner: *mut c_int) -> c_int;
    fn PMPI_Type_get_envelope(datatype: usize, num_integers: *mut c_int, num_addresses: *mut c_int, num_datatypes: *mut c_int, combiner: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_get_envelope`.
    mpi_type_get_envelope_ / pmpi_type_get_envelope_ => MPI_Type_get_envelope / PMPI_Type_get_envelope,
    |c| (datatype: *const c_int, num_integers: *mut c_int, num_addresses: *mut c_int, num_datatypes: *mut c_int, combiner: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Type_fromint(fs::get(datatype)), num_integers, num_addresses, num_datatypes, combiner);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_get_extent(datatype: usize, lb: *mut isize, extent: *mut isize) -> c_int;
    fn PMPI_Type_get_extent(datatype: usize, lb: *mut isize, extent: *mut isize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_get_extent`.
    mpi_type_get_extent_ / pmpi_type_get_extent_ => MPI_Type_get_extent / PMPI_Type_get_extent,
    |c| (datatype: *const c_int, lb: *mut i64, extent: *mut i64, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Type_fromint(fs::get(datatype)), lb.cast(), extent.cast());
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_get_extent_x(datatype: usize, lb: *mut i64, extent: *mut i64) -> c_int;
    fn PMPI_Type_get_extent_x(datatype: usize, lb: *mut i64, extent: *mut i64) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_get_extent_x`.
    mpi_type_get_extent_x_ / pmpi_type_get_extent_x_ => MPI_Type_get_extent_x / PMPI_Type_get_extent_x,
    |c| (datatype: *const c_int, lb: *mut i64, extent: *mut i64, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Type_fromint(fs::get(datatype)), lb.cast(), extent.cast());
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_get_name(datatype: usize, type_name: *mut c_char, resultlen: *mut c_int) -> c_int;
    fn PMPI_Type_get_name(datatype: usize, type_name: *mut c_char, resultlen: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_get_name`.
    mpi_type_get_name_ / pmpi_type_get_name_ => MPI_Type_get_name / PMPI_Type_get_name,
    |c| (datatype: *const c_int, type_name: *mut u8, resultlen: *mut c_int, ierror: *mut c_int, type_name_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut s_type_name = fs::string_buffer(type_name_len);
            let rc = c(PMPI_Type_fromint(fs::get(datatype)), s_type_name.as_mut_ptr().cast(), resultlen);
            if rc == 0 { fs::string_out(type_name, type_name_len, &s_type_name); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_get_true_extent(datatype: usize, true_lb: *mut isize, true_extent: *mut isize) -> c_int;
    fn PMPI_Type_get_true_extent(datatype: usize, true_lb: *mut isize, true_extent: *mut isize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_get_true_extent`.
    mpi_type_get_true_extent_ / pmpi_type_get_true_extent_ => MPI_Type_get_true_extent / PMPI_Type_get_true_extent,
    |c| (datatype: *const c_int, true_lb: *mut i64, true_extent: *mut i64, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Type_fromint(fs::get(datatype)), true_lb.cast(), true_extent.cast());
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_get_true_extent_x(datatype: usize, true_lb: *mut i64, true_extent: *mut i64) -> c_int;
    fn PMPI_Type_get_true_extent_x(datatype: usize, true_lb: *mut i64, true_extent: *mut i64) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_get_true_extent_x`.
    mpi_type_get_true_extent_x_ / pmpi_type_get_true_extent_x_ => MPI_Type_get_true_extent_x / PMPI_Type_get_true_extent_x,
    |c| (datatype: *const c_int, true_lb: *mut i64, true_extent: *mut i64, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Type_fromint(fs::get(datatype)), true_lb.cast(), true_extent.cast());
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_get_value_index(value_type: usize, index_type: usize, pair_type: *mut usize) -> c_int;
    fn PMPI_Type_get_value_index(value_type: usize, index_type: usize, pair_type: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_get_value_index`.
    mpi_type_get_value_index_ / pmpi_type_get_value_index_ => MPI_Type_get_value_index / PMPI_Type_get_value_index,
    |c| (value_type: *const c_int, index_type: *const c_int, pair_type: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_pair_type = PMPI_Type_fromint(fs::get(pair_type));
            let rc = c(PMPI_Type_fromint(fs::get(value_type)), PMPI_Type_fromint(fs::get(index_type)), &mut h_pair_type);
            fs::set(pair_type, PMPI_Type_toint(h_pair_type));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_indexed(count: c_int, array_of_blocklengths: *mut c_int, array_of_displacements: *mut c_int, oldtype: usize, newtype: *mut usize) -> c_int;
    fn PMPI_Type_indexed(count: c_int, array_of_blocklengths: *mut c_int, array_of_displacements: *mut c_int, oldtype: usize, newtype: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_indexed`.
    mpi_type_indexed_ / pmpi_type_indexed_ => MPI_Type_indexed / PMPI_Type_indexed,
    |c| (count: *const c_int, array_of_blocklengths: *mut c_int, array_of_displacements: *mut c_int, oldtype: *const c_int, newtype: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newtype = PMPI_Type_fromint(fs::get(newtype));
            let rc = c(fs::get(count), array_of_blocklengths, array_of_displacements, PMPI_Type_fromint(fs::get(oldtype)), &mut h_newtype);
            fs::set(newtype, PMPI_Type_toint(h_newtype));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_match_size(typeclass: c_int, size: c_int, datatype: *mut usize) -> c_int;
    fn PMPI_Type_match_size(typeclass: c_int, size: c_int, datatype: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_match_size`.
    mpi_type_match_size_ / pmpi_type_match_size_ => MPI_Type_match_size / PMPI_Type_match_size,
    |c| (typeclass: *const c_int, size: *const c_int, datatype: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_datatype = PMPI_Type_fromint(fs::get(datatype));
            let rc = c(fs::get(typeclass), fs::get(size), &mut h_datatype);
            fs::set(datatype, PMPI_Type_toint(h_datatype));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_set_name(datatype: usize, type_name: *const c_char) -> c_int;
    fn PMPI_Type_set_name(datatype: usize, type_name: *const c_char) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_set_name`.
    mpi_type_set_name_ / pmpi_type_set_name_ => MPI_Type_set_name / PMPI_Type_set_name,
    |c| (datatype: *const c_int, type_name: *const u8, ierror: *mut c_int, type_name_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let s_type_name = fs::string_in(type_name, type_name_len);
            let rc = c(PMPI_Type_fromint(fs::get(datatype)), s_type_name.as_ptr());
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_size(datatype: usize, size: *mut c_int) -> c_int;
    fn PMPI_Type_size(datatype: usize, size: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_size`.
    mpi_type_size_ / pmpi_type_size_ => MPI_Type_size / PMPI_Type_size,
    |c| (datatype: *const c_int, size: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Type_fromint(fs::get(datatype)), size);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_size_x(datatype: usize, size: *mut i64) -> c_int;
    fn PMPI_Type_size_x(datatype: usize, size: *mut i64) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_size_x`.
    mpi_type_size_x_ / pmpi_type_size_x_ => MPI_Type_size_x / PMPI_Type_size_x,
    |c| (datatype: *const c_int, size: *mut i64, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Type_fromint(fs::get(datatype)), size.cast());
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Type_vector(count: c_int, blocklength: c_int, stride: c_int, oldtype: usize, newtype: *mut usize) -> c_int;
    fn PMPI_Type_vector(count: c_int, blocklength: c_int, stride: c_int, oldtype: usize, newtype: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Type_vector`.
    mpi_type_vector_ / pmpi_type_vector_ => MPI_Type_vector / PMPI_Type_vector,
    |c| (count: *const c_int, blocklength: *const c_int, stride: *const c_int, oldtype: *const c_int, newtype: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_newtype = PMPI_Type_fromint(fs::get(newtype));
            let rc = c(fs::get(count), fs::get(blocklength), fs::get(stride), PMPI_Type_fromint(fs::get(oldtype)), &mut h_newtype);
            fs::set(newtype, PMPI_Type_toint(h_newtype));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Unpack(inbuf: *mut c_void, insize: c_int, position: *mut c_int, outbuf: *mut c_void, outcount: c_int, datatype: usize, comm: usize) -> c_int;
    fn PMPI_Unpack(inbuf: *mut c_void, insize: c_int, position: *mut c_int, outbuf: *mut c_void, outcount: c_int, datatype: usize, comm: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Unpack`.
    mpi_unpack_ / pmpi_unpack_ => MPI_Unpack / PMPI_Unpack,
    |c| (inbuf: *const c_void, insize: *const c_int, position: *mut c_int, outbuf: *const c_void, outcount: *const c_int, datatype: *const c_int, comm: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::buffer(inbuf), fs::get(insize), position, fs::buffer(outbuf), fs::get(outcount), PMPI_Type_fromint(fs::get(datatype)), PMPI_Comm_fromint(fs::get(comm)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Unpack_external(datarep: *const c_char, inbuf: *mut c_void, insize: isize, position: *mut isize, outbuf: *mut c_void, outcount: c_int, datatype: usize) -> c_int;
    fn PMPI_Unpack_external(datarep: *const c_char, inbuf: *mut c_void, insize: isize, position: *mut isize, outbuf: *mut c_void, outcount: c_int, datatype: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Unpack_external`.
    mpi_unpack_external_ / pmpi_unpack_external_ => MPI_Unpack_external / PMPI_Unpack_external,
    |c| (datarep: *const u8, inbuf: *const c_void, insize: *const i64, position: *mut i64, outbuf: *const c_void, outcount: *const c_int, datatype: *const c_int, ierror: *mut c_int, datarep_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let s_datarep = fs::string_in(datarep, datarep_len);
            let rc = c(s_datarep.as_ptr(), fs::buffer(inbuf), fs::get(insize) as isize, position.cast(), fs::buffer(outbuf), fs::get(outcount), PMPI_Type_fromint(fs::get(datatype)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Unpublish_name(service_name: *const c_char, info: usize, port_name: *const c_char) -> c_int;
    fn PMPI_Unpublish_name(service_name: *const c_char, info: usize, port_name: *const c_char) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Unpublish_name`.
    mpi_unpublish_name_ / pmpi_unpublish_name_ => MPI_Unpublish_name / PMPI_Unpublish_name,
    |c| (service_name: *const u8, info: *const c_int, port_name: *const u8, ierror: *mut c_int, service_name_len: usize, port_name_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let s_service_name = fs::string_in(service_name, service_name_len);
            let s_port_name = fs::string_in(port_name, port_name_len);
            let rc = c(s_service_name.as_ptr(), PMPI_Info_fromint(fs::get(info)), s_port_name.as_ptr());
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Wait(request: *mut usize, status: *mut c_void) -> c_int;
    fn PMPI_Wait(request: *mut usize, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Wait`.
    mpi_wait_ / pmpi_wait_ => MPI_Wait / PMPI_Wait,
    |c| (request: *mut c_int, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_request = PMPI_Request_fromint(fs::get(request));
            let rc = c(&mut h_request, fs::status(status));
            fs::set(request, PMPI_Request_toint(h_request));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Waitall(count: c_int, array_of_requests: *mut usize, array_of_statuses: *mut c_void) -> c_int;
    fn PMPI_Waitall(count: c_int, array_of_requests: *mut usize, array_of_statuses: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Waitall`.
    mpi_waitall_ / pmpi_waitall_ => MPI_Waitall / PMPI_Waitall,
    |c| (count: *const c_int, array_of_requests: *mut c_int, array_of_statuses: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut v_array_of_requests: Vec<usize> = (0..fs::get(count).max(0) as usize).map(|i| PMPI_Request_fromint(array_of_requests.add(i).read())).collect();
            let rc = c(fs::get(count), v_array_of_requests.as_mut_ptr(), fs::status(array_of_statuses));
            for (i, h) in v_array_of_requests.iter().enumerate() { array_of_requests.add(i).write(PMPI_Request_toint(*h)); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Waitany(count: c_int, array_of_requests: *mut usize, indx: *mut c_int, status: *mut c_void) -> c_int;
    fn PMPI_Waitany(count: c_int, array_of_requests: *mut usize, indx: *mut c_int, status: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Waitany`.
    mpi_waitany_ / pmpi_waitany_ => MPI_Waitany / PMPI_Waitany,
    |c| (count: *const c_int, array_of_requests: *mut c_int, indx: *mut c_int, status: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut v_array_of_requests: Vec<usize> = (0..fs::get(count).max(0) as usize).map(|i| PMPI_Request_fromint(array_of_requests.add(i).read())).collect();
            let rc = c(fs::get(count), v_array_of_requests.as_mut_ptr(), indx, fs::status(status));
            for (i, h) in v_array_of_requests.iter().enumerate() { array_of_requests.add(i).write(PMPI_Request_toint(*h)); }
            if rc == 0 { fs::set(indx, fs::index_from_c(fs::get(indx))); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Waitsome(incount: c_int, array_of_requests: *mut usize, outcount: *mut c_int, array_of_indices: *mut c_int, array_of_statuses: *mut c_void) -> c_int;
    fn PMPI_Waitsome(incount: c_int, array_of_requests: *mut usize, outcount: *mut c_int, array_of_indices: *mut c_int, array_of_statuses: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Waitsome`.
    mpi_waitsome_ / pmpi_waitsome_ => MPI_Waitsome / PMPI_Waitsome,
    |c| (incount: *const c_int, array_of_requests: *mut c_int, outcount: *mut c_int, array_of_indices: *mut c_int, array_of_statuses: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut v_array_of_requests: Vec<usize> = (0..fs::get(incount).max(0) as usize).map(|i| PMPI_Request_fromint(array_of_requests.add(i).read())).collect();
            let rc = c(fs::get(incount), v_array_of_requests.as_mut_ptr(), outcount, array_of_indices, fs::status(array_of_statuses));
            for (i, h) in v_array_of_requests.iter().enumerate() { array_of_requests.add(i).write(PMPI_Request_toint(*h)); }
            if rc == 0 && !array_of_indices.is_null() { for i in 0..fs::get(outcount).max(0) as usize { let q = array_of_indices.add(i); q.write(fs::index_from_c(q.read())); } }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Win_attach(win: usize, base: *mut c_void, size: isize) -> c_int;
    fn PMPI_Win_attach(win: usize, base: *mut c_void, size: isize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Win_attach`.
    mpi_win_attach_ / pmpi_win_attach_ => MPI_Win_attach / PMPI_Win_attach,
    |c| (win: *const c_int, base: *const c_void, size: *const i64, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Win_fromint(fs::get(win)), fs::buffer(base), fs::get(size) as isize);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Win_call_errhandler(win: usize, errorcode: c_int) -> c_int;
    fn PMPI_Win_call_errhandler(win: usize, errorcode: c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Win_call_errhandler`.
    mpi_win_call_errhandler_ / pmpi_win_call_errhandler_ => MPI_Win_call_errhandler / PMPI_Win_call_errhandler,
    |c| (win: *const c_int, errorcode: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Win_fromint(fs::get(win)), fs::get(errorcode));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Win_complete(win: usize) -> c_int;
    fn PMPI_Win_complete(win: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Win_complete`.
    mpi_win_complete_ / pmpi_win_complete_ => MPI_Win_complete / PMPI_Win_complete,
    |c| (win: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Win_fromint(fs::get(win)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Win_create(base: *mut c_void, size: isize, disp_unit: c_int, info: usize, comm: usize, win: *mut usize) -> c_int;
    fn PMPI_Win_create(base: *mut c_void, size: isize, disp_unit: c_int, info: usize, comm: usize, win: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Win_create`.
    mpi_win_create_ / pmpi_win_create_ => MPI_Win_create / PMPI_Win_create,
    |c| (base: *const c_void, size: *const i64, disp_unit: *const c_int, info: *const c_int, comm: *const c_int, win: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_win = PMPI_Win_fromint(fs::get(win));
            let rc = c(fs::buffer(base), fs::get(size) as isize, fs::get(disp_unit), PMPI_Info_fromint(fs::get(info)), PMPI_Comm_fromint(fs::get(comm)), &mut h_win);
            fs::set(win, PMPI_Win_toint(h_win));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Win_create_dynamic(info: usize, comm: usize, win: *mut usize) -> c_int;
    fn PMPI_Win_create_dynamic(info: usize, comm: usize, win: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Win_create_dynamic`.
    mpi_win_create_dynamic_ / pmpi_win_create_dynamic_ => MPI_Win_create_dynamic / PMPI_Win_create_dynamic,
    |c| (info: *const c_int, comm: *const c_int, win: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_win = PMPI_Win_fromint(fs::get(win));
            let rc = c(PMPI_Info_fromint(fs::get(info)), PMPI_Comm_fromint(fs::get(comm)), &mut h_win);
            fs::set(win, PMPI_Win_toint(h_win));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Win_delete_attr(win: usize, win_keyval: c_int) -> c_int;
    fn PMPI_Win_delete_attr(win: usize, win_keyval: c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Win_delete_attr`.
    mpi_win_delete_attr_ / pmpi_win_delete_attr_ => MPI_Win_delete_attr / PMPI_Win_delete_attr,
    |c| (win: *const c_int, win_keyval: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Win_fromint(fs::get(win)), fs::get(win_keyval));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Win_detach(win: usize, base: *mut c_void) -> c_int;
    fn PMPI_Win_detach(win: usize, base: *mut c_void) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Win_detach`.
    mpi_win_detach_ / pmpi_win_detach_ => MPI_Win_detach / PMPI_Win_detach,
    |c| (win: *const c_int, base: *const c_void, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Win_fromint(fs::get(win)), fs::buffer(base));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Win_fence(assert: c_int, win: usize) -> c_int;
    fn PMPI_Win_fence(assert: c_int, win: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Win_fence`.
    mpi_win_fence_ / pmpi_win_fence_ => MPI_Win_fence / PMPI_Win_fence,
    |c| (assert: *const c_int, win: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::get(assert), PMPI_Win_fromint(fs::get(win)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Win_flush(rank: c_int, win: usize) -> c_int;
    fn PMPI_Win_flush(rank: c_int, win: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Win_flush`.
    mpi_win_flush_ / pmpi_win_flush_ => MPI_Win_flush / PMPI_Win_flush,
    |c| (rank: *const c_int, win: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::get(rank), PMPI_Win_fromint(fs::get(win)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Win_flush_all(win: usize) -> c_int;
    fn PMPI_Win_flush_all(win: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Win_flush_all`.
    mpi_win_flush_all_ / pmpi_win_flush_all_ => MPI_Win_flush_all / PMPI_Win_flush_all,
    |c| (win: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Win_fromint(fs::get(win)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Win_flush_local(rank: c_int, win: usize) -> c_int;
    fn PMPI_Win_flush_local(rank: c_int, win: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Win_flush_local`.
    mpi_win_flush_local_ / pmpi_win_flush_local_ => MPI_Win_flush_local / PMPI_Win_flush_local,
    |c| (rank: *const c_int, win: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::get(rank), PMPI_Win_fromint(fs::get(win)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Win_flush_local_all(win: usize) -> c_int;
    fn PMPI_Win_flush_local_all(win: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Win_flush_local_all`.
    mpi_win_flush_local_all_ / pmpi_win_flush_local_all_ => MPI_Win_flush_local_all / PMPI_Win_flush_local_all,
    |c| (win: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Win_fromint(fs::get(win)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Win_free(win: *mut usize) -> c_int;
    fn PMPI_Win_free(win: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Win_free`.
    mpi_win_free_ / pmpi_win_free_ => MPI_Win_free / PMPI_Win_free,
    |c| (win: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_win = PMPI_Win_fromint(fs::get(win));
            let rc = c(&mut h_win);
            fs::set(win, PMPI_Win_toint(h_win));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Win_free_keyval(win_keyval: *mut c_int) -> c_int;
    fn PMPI_Win_free_keyval(win_keyval: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Win_free_keyval`.
    mpi_win_free_keyval_ / pmpi_win_free_keyval_ => MPI_Win_free_keyval / PMPI_Win_free_keyval,
    |c| (win_keyval: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(win_keyval);
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Win_get_errhandler(win: usize, errhandler: *mut usize) -> c_int;
    fn PMPI_Win_get_errhandler(win: usize, errhandler: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Win_get_errhandler`.
    mpi_win_get_errhandler_ / pmpi_win_get_errhandler_ => MPI_Win_get_errhandler / PMPI_Win_get_errhandler,
    |c| (win: *const c_int, errhandler: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_errhandler = PMPI_Errhandler_fromint(fs::get(errhandler));
            let rc = c(PMPI_Win_fromint(fs::get(win)), &mut h_errhandler);
            fs::set(errhandler, PMPI_Errhandler_toint(h_errhandler));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Win_get_group(win: usize, group: *mut usize) -> c_int;
    fn PMPI_Win_get_group(win: usize, group: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Win_get_group`.
    mpi_win_get_group_ / pmpi_win_get_group_ => MPI_Win_get_group / PMPI_Win_get_group,
    |c| (win: *const c_int, group: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_group = PMPI_Group_fromint(fs::get(group));
            let rc = c(PMPI_Win_fromint(fs::get(win)), &mut h_group);
            fs::set(group, PMPI_Group_toint(h_group));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Win_get_info(win: usize, info_used: *mut usize) -> c_int;
    fn PMPI_Win_get_info(win: usize, info_used: *mut usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Win_get_info`.
    mpi_win_get_info_ / pmpi_win_get_info_ => MPI_Win_get_info / PMPI_Win_get_info,
    |c| (win: *const c_int, info_used: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut h_info_used = PMPI_Info_fromint(fs::get(info_used));
            let rc = c(PMPI_Win_fromint(fs::get(win)), &mut h_info_used);
            fs::set(info_used, PMPI_Info_toint(h_info_used));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Win_get_name(win: usize, win_name: *mut c_char, resultlen: *mut c_int) -> c_int;
    fn PMPI_Win_get_name(win: usize, win_name: *mut c_char, resultlen: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Win_get_name`.
    mpi_win_get_name_ / pmpi_win_get_name_ => MPI_Win_get_name / PMPI_Win_get_name,
    |c| (win: *const c_int, win_name: *mut u8, resultlen: *mut c_int, ierror: *mut c_int, win_name_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut s_win_name = fs::string_buffer(win_name_len);
            let rc = c(PMPI_Win_fromint(fs::get(win)), s_win_name.as_mut_ptr().cast(), resultlen);
            if rc == 0 { fs::string_out(win_name, win_name_len, &s_win_name); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Win_lock(lock_type: c_int, rank: c_int, assert: c_int, win: usize) -> c_int;
    fn PMPI_Win_lock(lock_type: c_int, rank: c_int, assert: c_int, win: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Win_lock`.
    mpi_win_lock_ / pmpi_win_lock_ => MPI_Win_lock / PMPI_Win_lock,
    |c| (lock_type: *const c_int, rank: *const c_int, assert: *const c_int, win: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::get(lock_type), fs::get(rank), fs::get(assert), PMPI_Win_fromint(fs::get(win)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Win_lock_all(assert: c_int, win: usize) -> c_int;
    fn PMPI_Win_lock_all(assert: c_int, win: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Win_lock_all`.
    mpi_win_lock_all_ / pmpi_win_lock_all_ => MPI_Win_lock_all / PMPI_Win_lock_all,
    |c| (assert: *const c_int, win: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::get(assert), PMPI_Win_fromint(fs::get(win)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Win_post(group: usize, assert: c_int, win: usize) -> c_int;
    fn PMPI_Win_post(group: usize, assert: c_int, win: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Win_post`.
    mpi_win_post_ / pmpi_win_post_ => MPI_Win_post / PMPI_Win_post,
    |c| (group: *const c_int, assert: *const c_int, win: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Group_fromint(fs::get(group)), fs::get(assert), PMPI_Win_fromint(fs::get(win)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Win_set_errhandler(win: usize, errhandler: usize) -> c_int;
    fn PMPI_Win_set_errhandler(win: usize, errhandler: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Win_set_errhandler`.
    mpi_win_set_errhandler_ / pmpi_win_set_errhandler_ => MPI_Win_set_errhandler / PMPI_Win_set_errhandler,
    |c| (win: *const c_int, errhandler: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Win_fromint(fs::get(win)), PMPI_Errhandler_fromint(fs::get(errhandler)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Win_set_info(win: usize, info: usize) -> c_int;
    fn PMPI_Win_set_info(win: usize, info: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Win_set_info`.
    mpi_win_set_info_ / pmpi_win_set_info_ => MPI_Win_set_info / PMPI_Win_set_info,
    |c| (win: *const c_int, info: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Win_fromint(fs::get(win)), PMPI_Info_fromint(fs::get(info)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Win_set_name(win: usize, win_name: *const c_char) -> c_int;
    fn PMPI_Win_set_name(win: usize, win_name: *const c_char) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Win_set_name`.
    mpi_win_set_name_ / pmpi_win_set_name_ => MPI_Win_set_name / PMPI_Win_set_name,
    |c| (win: *const c_int, win_name: *const u8, ierror: *mut c_int, win_name_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let s_win_name = fs::string_in(win_name, win_name_len);
            let rc = c(PMPI_Win_fromint(fs::get(win)), s_win_name.as_ptr());
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Win_start(group: usize, assert: c_int, win: usize) -> c_int;
    fn PMPI_Win_start(group: usize, assert: c_int, win: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Win_start`.
    mpi_win_start_ / pmpi_win_start_ => MPI_Win_start / PMPI_Win_start,
    |c| (group: *const c_int, assert: *const c_int, win: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Group_fromint(fs::get(group)), fs::get(assert), PMPI_Win_fromint(fs::get(win)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Win_sync(win: usize) -> c_int;
    fn PMPI_Win_sync(win: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Win_sync`.
    mpi_win_sync_ / pmpi_win_sync_ => MPI_Win_sync / PMPI_Win_sync,
    |c| (win: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Win_fromint(fs::get(win)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Win_test(win: usize, flag: *mut c_int) -> c_int;
    fn PMPI_Win_test(win: usize, flag: *mut c_int) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Win_test`.
    mpi_win_test_ / pmpi_win_test_ => MPI_Win_test / PMPI_Win_test,
    |c| (win: *const c_int, flag: *mut c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let mut l_flag: c_int = 0;
            let rc = c(PMPI_Win_fromint(fs::get(win)), &mut l_flag);
            if rc == 0 { fs::set(flag, fs::logical_from_c(l_flag)); }
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Win_unlock(rank: c_int, win: usize) -> c_int;
    fn PMPI_Win_unlock(rank: c_int, win: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Win_unlock`.
    mpi_win_unlock_ / pmpi_win_unlock_ => MPI_Win_unlock / PMPI_Win_unlock,
    |c| (rank: *const c_int, win: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(fs::get(rank), PMPI_Win_fromint(fs::get(win)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Win_unlock_all(win: usize) -> c_int;
    fn PMPI_Win_unlock_all(win: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Win_unlock_all`.
    mpi_win_unlock_all_ / pmpi_win_unlock_all_ => MPI_Win_unlock_all / PMPI_Win_unlock_all,
    |c| (win: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Win_fromint(fs::get(win)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Win_wait(win: usize) -> c_int;
    fn PMPI_Win_wait(win: usize) -> c_int;
}
fortran_fn! {
    /// Fortran binding of `MPI_Win_wait`.
    mpi_win_wait_ / pmpi_win_wait_ => MPI_Win_wait / PMPI_Win_wait,
    |c| (win: *const c_int, ierror: *mut c_int) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            let rc = c(PMPI_Win_fromint(fs::get(win)));
            fs::set(ierror, rc);
        }
    }
}

unsafe extern "C" {
    fn MPI_Aint_add(base: isize, disp: isize) -> isize;
    fn PMPI_Aint_add(base: isize, disp: isize) -> isize;
}
fortran_fn! {
    /// Fortran binding of `MPI_Aint_add`.
    mpi_aint_add_ / pmpi_aint_add_ => MPI_Aint_add / PMPI_Aint_add,
    |c| (base: *const i64, disp: *const i64) -> i64 {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            c(fs::get(base) as isize, fs::get(disp) as isize) as i64
        }
    }
}

unsafe extern "C" {
    fn MPI_Aint_diff(addr1: isize, addr2: isize) -> isize;
    fn PMPI_Aint_diff(addr1: isize, addr2: isize) -> isize;
}
fortran_fn! {
    /// Fortran binding of `MPI_Aint_diff`.
    mpi_aint_diff_ / pmpi_aint_diff_ => MPI_Aint_diff / PMPI_Aint_diff,
    |c| (addr1: *const i64, addr2: *const i64) -> i64 {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            c(fs::get(addr1) as isize, fs::get(addr2) as isize) as i64
        }
    }
}

unsafe extern "C" {
    fn MPI_Wtick() -> f64;
    fn PMPI_Wtick() -> f64;
}
fortran_fn! {
    /// Fortran binding of `MPI_Wtick`.
    mpi_wtick_ / pmpi_wtick_ => MPI_Wtick / PMPI_Wtick,
    |c| () -> f64 {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            c()
        }
    }
}

unsafe extern "C" {
    fn MPI_Wtime() -> f64;
    fn PMPI_Wtime() -> f64;
}
fortran_fn! {
    /// Fortran binding of `MPI_Wtime`.
    mpi_wtime_ / pmpi_wtime_ => MPI_Wtime / PMPI_Wtime,
    |c| () -> f64 {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            c()
        }
    }
}

