//! `MPI_COMM_IDUP` and `_WITH_INFO`. See [`super`].

use crate::fortran_support::{self as fs, fortran_fn};
use crate::handles::*;
use std::ffi::c_int;
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
