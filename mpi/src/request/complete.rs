//! Completing requests: `MPI_Wait`, `MPI_Test` and their all / any / some forms.
//! `MPI_Wait(all)` blocks on the request's future (through its communicator, so the calling
//! thread drives the transport); `*any` / `*some` check every request, driving the transport
//! between passes, yielding briefly and then sleeping on the transport with growing limits; the
//! `Test` forms make one pass of transport progress first. Requests live in
//! [`crate::request::table`]'s table. The any forms' pass over the array and their wait loop are
//! [`nexar_bind::any`], shared with libnexar's `nexar_waitany`.

use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
use crate::request::status::{MPI_Status, set_error, store, store_empty};
use crate::request::table::{
    MPI_Request, Outcome, all_done, bad_request, clear, comm_at, comm_of, is_inactive, is_live,
    read, result_of, status_of, take_and_wait, take_if_done,
};
use nexar_bind::any::{self, Pass};
use std::ffi::c_int;

fn status_slot(p: *mut MPI_Status, i: usize) -> *mut MPI_Status {
    if p.is_null() { p } else { p.wrapping_add(i) }
}

/// The pacing of the `*any` / `*some` forms, driving the communicator of the array's first live
/// request (`array_comm` copes with any count and NULL arrays).
fn backoff(n: c_int, requests: *const MPI_Request) -> nexar::PollBackoff {
    nexar::PollBackoff::new(crate::state::comm(array_comm(n, requests)).ok())
}

/// One pass of transport progress on the calling thread before a test-style call looks at
/// completion (messages then land without a hand-off through the transport's thread).
fn progress(comm_h: MPI_Comm) {
    if let Ok(c) = crate::state::comm(comm_h) {
        c.progress();
    }
}

pub(crate) fn array_len(n: c_int, requests: *const MPI_Request) -> Result<usize> {
    let n = usize::try_from(n)
        .map_err(|_| MpiError::new(MPI_ERR_COUNT, format!("request count {n} is negative")))?;
    if n > 0 {
        non_null(requests, "array_of_requests")?;
    }
    Ok(n)
}

/// The communicator of the first live request of the array (for error reporting).
pub(crate) fn array_comm(n: c_int, requests: *const MPI_Request) -> MPI_Comm {
    if requests.is_null() || n <= 0 {
        return MPI_COMM_WORLD;
    }
    (0..n as usize)
        .map(|i| read(requests, i))
        .find(|&h| h != MPI_REQUEST_NULL)
        .map_or(MPI_COMM_WORLD, comm_of)
}

fn wait_one(request: *mut MPI_Request, status: *mut MPI_Status) -> Result<()> {
    non_null(request, "request")?;
    let h = read(request, 0);
    if h == MPI_REQUEST_NULL {
        store_empty(status);
        return Ok(());
    }
    let o = take_and_wait(h)?;
    clear(request, 0);
    store(status, status_of(&o));
    result_of(o)
}

fn test_one(request: *mut MPI_Request, flag: *mut c_int, status: *mut MPI_Status) -> Result<()> {
    non_null(request, "request")?;
    non_null(flag, "flag")?;
    let h = read(request, 0);
    let o = if h == MPI_REQUEST_NULL {
        Some(Ok(None))
    } else {
        progress(comm_of(h));
        take_if_done(h)?
    };
    // SAFETY: checked for NULL.
    unsafe { flag.write(o.is_some() as c_int) };
    let Some(o) = o else { return Ok(()) };
    if h != MPI_REQUEST_NULL {
        clear(request, 0);
    }
    store(status, status_of(&o));
    result_of(o)
}

/// Records a completed request's outcome in status `slot` (all but `MPI_ERROR`); returns its
/// error class (`MPI_SUCCESS` if it succeeded) for [`in_status`].
pub(crate) fn record(statuses: *mut MPI_Status, slot: usize, o: &Outcome) -> c_int {
    let st = status_of(o);
    store(status_slot(statuses, slot), st);
    st.MPI_ERROR
}

/// The result of a multiple-completion call whose status `i` holds a request that ended with
/// `errors[i]`: if any failed, every status's `MPI_ERROR` is set and the call returns
/// `MPI_ERR_IN_STATUS`; otherwise no `MPI_ERROR` field is touched (MPI 4.1 §3.2.5, §3.7.5).
pub(crate) fn in_status(func: &str, statuses: *mut MPI_Status, errors: &[c_int]) -> Result<()> {
    let failed = errors.iter().filter(|&&e| e != MPI_SUCCESS).count();
    if failed == 0 {
        return Ok(());
    }
    for (i, &e) in errors.iter().enumerate() {
        set_error(status_slot(statuses, i), e);
    }
    Err(MpiError::new(
        MPI_ERR_IN_STATUS,
        format!("{failed} request(s) of {func} failed; see the statuses' MPI_ERROR"),
    ))
}

fn wait_all(n: c_int, requests: *mut MPI_Request, statuses: *mut MPI_Status) -> Result<()> {
    let n = array_len(n, requests)?;
    for i in 0..n {
        let h = read(requests, i);
        if h != MPI_REQUEST_NULL && !is_live(h) {
            return Err(bad_request(h).context_index(i));
        }
    }
    let mut errors = Vec::with_capacity(n);
    for i in 0..n {
        let h = read(requests, i);
        let o = if h == MPI_REQUEST_NULL {
            Ok(None)
        } else {
            let o = take_and_wait(h)?;
            clear(requests, i);
            o
        };
        errors.push(record(statuses, i, &o));
    }
    in_status("MPI_Waitall", statuses, &errors)
}

fn test_all(
    n: c_int,
    requests: *mut MPI_Request,
    flag: *mut c_int,
    statuses: *mut MPI_Status,
) -> Result<()> {
    non_null(flag, "flag")?;
    let n = array_len(n, requests)?;
    progress(array_comm(n as c_int, requests));
    let all = all_done(requests, n)?;
    // SAFETY: checked for NULL.
    unsafe { flag.write(all as c_int) };
    if all {
        wait_all(n as c_int, requests, statuses)
    } else {
        Ok(())
    }
}

fn any(
    n: c_int,
    requests: *mut MPI_Request,
    index: *mut c_int,
    flag: *mut c_int,
    status: *mut MPI_Status,
    block: bool,
) -> Result<()> {
    non_null(index, "index")?;
    if !block {
        non_null(flag, "flag")?;
    }
    let mut backoff = backoff(n, requests);
    let n = array_len(n, requests)?;
    if !block {
        backoff.drive();
    }
    // Skips MPI_REQUEST_NULL and inactive persistent requests; completes the first done one.
    let one_pass = || {
        any::pass(
            n,
            |i| {
                let h = read(requests, i);
                (h != MPI_REQUEST_NULL && !is_inactive(h)).then_some(h)
            },
            |i, h| -> Result<Option<Outcome>> {
                let o = take_if_done(h).map_err(|e| e.context_index(i))?;
                if o.is_some() {
                    clear(requests, i);
                }
                Ok(o)
            },
        )
    };
    let found = if block {
        any::wait(one_pass, || backoff.pause())?
    } else {
        match one_pass()? {
            Pass::Done(i, o) => Some((i, o)),
            Pass::Empty => None,
            Pass::Pending => {
                // Nothing completed: the index is MPI_UNDEFINED (MPI 4.1 §3.7.5).
                // SAFETY: checked for NULL.
                unsafe {
                    flag.write(0);
                    index.write(MPI_UNDEFINED);
                }
                return Ok(());
            }
        }
    };
    if !block {
        // SAFETY: checked for NULL.
        unsafe { flag.write(1) };
    }
    match found {
        None => {
            // SAFETY: checked for NULL.
            unsafe { index.write(MPI_UNDEFINED) };
            store_empty(status);
            Ok(())
        }
        Some((i, o)) => {
            // SAFETY: checked for NULL.
            unsafe { index.write(i as c_int) };
            store(status, status_of(&o));
            result_of(o)
        }
    }
}

fn some(
    func: &str,
    n: c_int,
    requests: *mut MPI_Request,
    outcount: *mut c_int,
    indices: *mut c_int,
    statuses: *mut MPI_Status,
    block: bool,
) -> Result<()> {
    non_null(outcount, "outcount")?;
    let n = array_len(n, requests)?;
    if n > 0 {
        non_null(indices, "array_of_indices")?;
    }
    let mut backoff = backoff(n as c_int, requests);
    if !block {
        backoff.drive();
    }
    loop {
        let mut live = false;
        let mut done = 0usize;
        let mut errors = Vec::new();
        for i in 0..n {
            let h = read(requests, i);
            if h == MPI_REQUEST_NULL || is_inactive(h) {
                continue;
            }
            live = true;
            if let Some(o) = take_if_done(h).map_err(|e| e.context_index(i))? {
                clear(requests, i);
                // SAFETY: `indices` holds `n` entries per the MPI contract.
                unsafe { indices.add(done).write(i as c_int) };
                errors.push(record(statuses, done, &o));
                done += 1;
            }
        }
        if !live || done > 0 || !block {
            let out = if live { done as c_int } else { MPI_UNDEFINED };
            // SAFETY: checked for NULL.
            unsafe { outcount.write(out) };
            return in_status(func, statuses, &errors);
        }
        backoff.pause();
    }
}

/// Prefixes an error with the index of the request it concerns.
pub(crate) trait IndexContext {
    fn context_index(self, i: usize) -> Self;
}

impl IndexContext for MpiError {
    fn context_index(mut self, i: usize) -> Self {
        self.message = format!("request {i}: {}", self.message);
        self
    }
}

mpi_fn! {
    /// Blocks until `*request` completes, fills `status` and sets `*request` to
    /// `MPI_REQUEST_NULL` (which completes at once with an empty status).
    fn MPI_Wait(request: *mut MPI_Request, status: *mut MPI_Status) -> c_int => PMPI_Wait {
        call("MPI_Wait", comm_at(request), || wait_one(request, status))
    }

    /// Sets `*flag`; if the request completed, completes it as `MPI_Wait` does.
    fn MPI_Test(request: *mut MPI_Request, flag: *mut c_int, status: *mut MPI_Status) -> c_int
        => PMPI_Test
    {
        call("MPI_Test", comm_at(request), || test_one(request, flag, status))
    }

    /// Completes every request; `MPI_ERR_IN_STATUS` if any failed (each status's `MPI_ERROR`
    /// says which).
    fn MPI_Waitall(n: c_int, requests: *mut MPI_Request, statuses: *mut MPI_Status) -> c_int
        => PMPI_Waitall
    {
        call("MPI_Waitall", array_comm(n, requests), || wait_all(n, requests, statuses))
    }

    /// Sets `*flag` to whether every request has completed; if so, completes them as
    /// `MPI_Waitall` does (otherwise none is touched).
    fn MPI_Testall(n: c_int, requests: *mut MPI_Request, flag: *mut c_int,
                   statuses: *mut MPI_Status) -> c_int => PMPI_Testall {
        call("MPI_Testall", array_comm(n, requests), || test_all(n, requests, flag, statuses))
    }

    /// Blocks until one request completes and completes it (`*index` is `MPI_UNDEFINED` if
    /// every entry is `MPI_REQUEST_NULL`).
    fn MPI_Waitany(n: c_int, requests: *mut MPI_Request, index: *mut c_int,
                   status: *mut MPI_Status) -> c_int => PMPI_Waitany {
        call("MPI_Waitany", array_comm(n, requests), || {
            any(n, requests, index, std::ptr::null_mut(), status, true)
        })
    }

    /// Completes one completed request if there is one (`*flag` says whether; `*index` is
    /// `MPI_UNDEFINED` if none did, and `*flag` is true if no request is active).
    fn MPI_Testany(n: c_int, requests: *mut MPI_Request, index: *mut c_int, flag: *mut c_int,
                   status: *mut MPI_Status) -> c_int => PMPI_Testany {
        call("MPI_Testany", array_comm(n, requests), || {
            any(n, requests, index, flag, status, false)
        })
    }

    /// Blocks until at least one request completes and completes all completed ones.
    fn MPI_Waitsome(n: c_int, requests: *mut MPI_Request, outcount: *mut c_int,
                    indices: *mut c_int, statuses: *mut MPI_Status) -> c_int => PMPI_Waitsome {
        call("MPI_Waitsome", array_comm(n, requests), || {
            some("MPI_Waitsome", n, requests, outcount, indices, statuses, true)
        })
    }

    /// Completes every completed request (possibly none).
    fn MPI_Testsome(n: c_int, requests: *mut MPI_Request, outcount: *mut c_int,
                    indices: *mut c_int, statuses: *mut MPI_Status) -> c_int => PMPI_Testsome {
        call("MPI_Testsome", array_comm(n, requests), || {
            some("MPI_Testsome", n, requests, outcount, indices, statuses, false)
        })
    }
}
