//! `MPI_Cancel` and `MPI_Status_set_cancelled` (`MPI_Test_cancelled` is in
//! [`crate::request::get_status`]).
//!
//! A receive that has not matched a message yet is withdrawn from the matching queue and its
//! request completes with a cancelled status. A receive that has matched, and every send (sends
//! are queued at once; a synchronous send's message has left), completes normally: the status
//! then reports "not cancelled", as MPI allows.

use crate::consts::*;
use crate::errors::report::{Result, call, non_null};
use crate::request::status::MPI_Status;
use crate::request::table::{MPI_Request, comm_of, read};
use std::ffi::c_int;

/// Index of the cancelled flag in `MPI_Status::MPI_internal`.
const CANCELLED: usize = 2;

/// The status of a cancelled receive.
pub fn cancelled() -> MPI_Status {
    let mut st = MPI_Status::new(MPI_ANY_SOURCE, MPI_ANY_TAG, 0, MPI_SUCCESS);
    st.MPI_internal[CANCELLED] = 1;
    st
}

fn cancel(request: *mut MPI_Request) -> Result<()> {
    non_null(request, "request")?;
    crate::request::table::cancel(read(request, 0))
}

mpi_fn! {
    /// Marks `*request` for cancellation; complete it with a wait or test, then
    /// `MPI_Test_cancelled` on its status says whether it was cancelled.
    fn MPI_Cancel(request: *mut MPI_Request) -> c_int => PMPI_Cancel {
        let comm = if request.is_null() { MPI_COMM_WORLD } else { comm_of(read(request, 0)) };
        call("MPI_Cancel", comm, || cancel(request))
    }

    /// Sets the cancelled flag of `*status` (for generalized requests and layered libraries).
    fn MPI_Status_set_cancelled(status: *mut MPI_Status, flag: c_int) -> c_int
        => PMPI_Status_set_cancelled
    {
        call("MPI_Status_set_cancelled", MPI_COMM_WORLD, || {
            non_null(status, "status")?;
            // SAFETY: checked for NULL; writable per the MPI contract.
            unsafe { (*status).MPI_internal[CANCELLED] = (flag != 0) as c_int };
            Ok(())
        })
    }
}
