//! The neighbourhood all-to-all with a datatype per block (arrays sized by the topology). See [`super`].

use crate::fortran_support::{self as fs, fortran_fn};
use crate::handles::*;
use std::ffi::{c_int, c_void};
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
