//! Status queries that leave requests alive: `MPI_Request_get_status` and its `_all` / `_any` /
//! `_some` forms, and `MPI_Test_cancelled`. Completion (which frees requests) is in
//! [`crate::request::table`].

use crate::consts::*;
use crate::errors::report::{Result, call, non_null};
use crate::request::complete::{IndexContext, array_comm, array_len, in_status, record};
use crate::request::status::{MPI_Status, store, store_empty};
use crate::request::table::{MPI_Request, comm_of, is_inactive, peek, read, result_of, status_of};
use std::ffi::c_int;

fn get_status_all(
    n: c_int,
    requests: *const MPI_Request,
    flag: *mut c_int,
    statuses: *mut MPI_Status,
) -> Result<()> {
    non_null(flag, "flag")?;
    let n = array_len(n, requests)?;
    let mut done = Vec::with_capacity(n);
    for i in 0..n {
        match peek(read(requests, i)).map_err(|e| e.context_index(i))? {
            Some(o) => done.push(o),
            None => {
                // SAFETY: checked for NULL.
                unsafe { flag.write(0) };
                return Ok(());
            }
        }
    }
    // SAFETY: checked for NULL.
    unsafe { flag.write(1) };
    let errors: Vec<c_int> = done
        .iter()
        .enumerate()
        .map(|(i, o)| record(statuses, i, o))
        .collect();
    in_status("MPI_Request_get_status_all", statuses, &errors)
}

fn get_status_any(
    n: c_int,
    requests: *const MPI_Request,
    index: *mut c_int,
    flag: *mut c_int,
    status: *mut MPI_Status,
) -> Result<()> {
    non_null(index, "index")?;
    non_null(flag, "flag")?;
    let n = array_len(n, requests)?;
    let mut live = false;
    for i in 0..n {
        let h = read(requests, i);
        if h == MPI_REQUEST_NULL || is_inactive(h) {
            continue;
        }
        live = true;
        if let Some(o) = peek(h).map_err(|e| e.context_index(i))? {
            // SAFETY: checked for NULL.
            unsafe {
                flag.write(1);
                index.write(i as c_int);
            }
            store(status, status_of(&o));
            return result_of(o);
        }
    }
    // Nothing completed (or nothing active): the index is MPI_UNDEFINED either way.
    // SAFETY: checked for NULL.
    unsafe {
        flag.write((!live) as c_int);
        index.write(MPI_UNDEFINED);
    }
    if !live {
        store_empty(status);
    }
    Ok(())
}

fn get_status_some(
    n: c_int,
    requests: *const MPI_Request,
    outcount: *mut c_int,
    indices: *mut c_int,
    statuses: *mut MPI_Status,
) -> Result<()> {
    non_null(outcount, "outcount")?;
    let n = array_len(n, requests)?;
    if n > 0 {
        non_null(indices, "array_of_indices")?;
    }
    let (mut live, mut done, mut errors) = (false, 0usize, Vec::new());
    for i in 0..n {
        let h = read(requests, i);
        if h == MPI_REQUEST_NULL || is_inactive(h) {
            continue;
        }
        live = true;
        if let Some(o) = peek(h).map_err(|e| e.context_index(i))? {
            // SAFETY: `indices` holds `n` entries per the MPI contract.
            unsafe { indices.add(done).write(i as c_int) };
            errors.push(record(statuses, done, &o));
            done += 1;
        }
    }
    let out = if live { done as c_int } else { MPI_UNDEFINED };
    // SAFETY: checked for NULL.
    unsafe { outcount.write(out) };
    in_status("MPI_Request_get_status_some", statuses, &errors)
}

mpi_fn! {
    /// `MPI_Testall` without releasing the requests.
    fn MPI_Request_get_status_all(n: c_int, requests: *const MPI_Request, flag: *mut c_int,
                                  statuses: *mut MPI_Status) -> c_int
        => PMPI_Request_get_status_all
    {
        call("MPI_Request_get_status_all", array_comm(n, requests), || {
            get_status_all(n, requests, flag, statuses)
        })
    }

    /// `MPI_Testany` without releasing the request.
    fn MPI_Request_get_status_any(n: c_int, requests: *const MPI_Request, index: *mut c_int,
                                  flag: *mut c_int, status: *mut MPI_Status) -> c_int
        => PMPI_Request_get_status_any
    {
        call("MPI_Request_get_status_any", array_comm(n, requests), || {
            get_status_any(n, requests, index, flag, status)
        })
    }

    /// `MPI_Testsome` without releasing the requests.
    fn MPI_Request_get_status_some(n: c_int, requests: *const MPI_Request,
                                   outcount: *mut c_int, indices: *mut c_int,
                                   statuses: *mut MPI_Status) -> c_int
        => PMPI_Request_get_status_some
    {
        call("MPI_Request_get_status_some", array_comm(n, requests), || {
            get_status_some(n, requests, outcount, indices, statuses)
        })
    }

    /// Sets `*flag` to whether the operation `status` describes was cancelled (see
    /// `MPI_Cancel`: only receives that had not matched are).
    fn MPI_Test_cancelled(status: *const MPI_Status, flag: *mut c_int) -> c_int
        => PMPI_Test_cancelled
    {
        call("MPI_Test_cancelled", MPI_COMM_WORLD, || {
            non_null(status, "status")?;
            non_null(flag, "flag")?;
            // SAFETY: checked for NULL; readable / writable per the MPI contract.
            unsafe { flag.write((status.read().MPI_internal[2] != 0) as c_int) };
            Ok(())
        })
    }

    /// Sets `*flag` to whether `request` has completed and, if so, fills `status` and
    /// returns the operation's result; the request stays live.
    fn MPI_Request_get_status(request: MPI_Request, flag: *mut c_int, status: *mut MPI_Status)
        -> c_int => PMPI_Request_get_status
    {
        call("MPI_Request_get_status", comm_of(request), || {
            non_null(flag, "flag")?;
            let o = peek(request)?;
            // SAFETY: checked for NULL.
            unsafe { flag.write(o.is_some() as c_int) };
            let Some(o) = o else { return Ok(()) };
            store(status, status_of(&o));
            result_of(o)
        })
    }
}
