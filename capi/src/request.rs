//! Request functions: wait, test, waitall, waitany, testall, free. `nexar_waitany`'s pass over
//! the array and its wait loop are [`nexar_bind::any`], shared with the MPI shim.

use crate::boundary::{call, non_null, write_out};
use crate::lifecycle::with_running;
use crate::p2p::finish_status;
use crate::types::{
    NEXAR_ANY_SOURCE, NEXAR_ANY_TAG, NEXAR_SUCCESS, NEXAR_UNDEFINED, nexar_request_t,
    nexar_status_t,
};
use nexar::{Error, ErrorKind, RecvOutcome, Request, Result};
use nexar_bind::any;
use std::ffi::c_int;

/// What a C request yields: for receives, the outcome and the buffer's capacity in bytes.
pub type CRequest = Request<Option<(RecvOutcome, usize)>>;

/// The result a completed C request yields.
type CResult = Result<Option<(RecvOutcome, usize)>>;

/// Registers `r` and writes its handle to `*out` (already checked for NULL).
pub fn store_request(out: *mut nexar_request_t, r: CRequest) -> Result<()> {
    let h = with_running(|s| s.requests.lock().insert(r))?;
    // SAFETY: the caller checked `out` for NULL; writable per the C contract.
    unsafe { write_out(out, h as nexar_request_t) };
    Ok(())
}

/// Starts a collective (`start`, which gives it its destination) as a request: `*request`
/// receives the handle; the collective finishes in the background. A NULL `request` is refused
/// before anything starts, so no rank is left in a collective this one never joined.
pub fn into_request(
    request: *mut nexar_request_t,
    start: impl FnOnce() -> Result<nexar::PendingCollective>,
) -> Result<()> {
    non_null(request, "request")?;
    store_request(request, start()?.finish_in_background(None))
}

/// The status of an operation without a message (MPI's "empty status").
fn empty_status(error: c_int) -> nexar_status_t {
    nexar_status_t {
        source: NEXAR_ANY_SOURCE,
        tag: NEXAR_ANY_TAG,
        error,
        count: 0,
    }
}

/// Reports a completed request's result through `status` (which may be NULL).
fn report(result: CResult, status: *mut nexar_status_t) -> Result<()> {
    match result {
        Ok(Some((outcome, capacity))) => finish_status(&outcome, capacity, status),
        Ok(None) => {
            if !status.is_null() {
                // SAFETY: checked for NULL; writable per the C contract.
                unsafe { write_out(status, empty_status(NEXAR_SUCCESS)) };
            }
            Ok(())
        }
        Err(e) => {
            if !status.is_null() {
                // SAFETY: checked for NULL; writable per the C contract.
                unsafe { write_out(status, empty_status(e.kind().code())) };
            }
            Err(e)
        }
    }
}

fn read_handle(p: *mut nexar_request_t) -> u64 {
    // SAFETY: callers check `p` for NULL; readable per the C contract.
    unsafe { p.read() as u64 }
}

fn clear_handle(p: *mut nexar_request_t) {
    // SAFETY: callers check `p` for NULL; writable per the C contract.
    unsafe { write_out(p, std::ptr::null_mut()) };
}

/// Completes request `h` if it is done: `Some(result)` and the handle is released.
/// The world communicator: every communicator shares its engine and transport, so it serves to
/// drive progress for any request.
fn world() -> Result<nexar::Comm> {
    with_running(|s| Ok(s.ctx.world().clone()))
}

fn try_complete(h: u64) -> Result<Option<CResult>> {
    // One pass of transport progress on this thread first (shared memory): a message that has
    // landed completes its receive now, without a hand-off through the transport's thread.
    world()?.progress();
    with_running(|s| {
        let mut table = s.requests.lock();
        if !table.get_mut(h)?.test() {
            return Ok(None);
        }
        Ok(Some(table.remove(h)?.wait()))
    })
}

/// Waits for `*request` to complete, fills `*status` (may be NULL) and sets `*request` to
/// `NEXAR_REQUEST_NULL`. A NULL `*request` completes at once with an empty status. Returns the
/// operation's own result (e.g. `NEXAR_ERR_TRUNCATED`, `NEXAR_ERR_PROC_FAILED`); the request is
/// released either way.
///
/// Blocking: yes. Thread safety: any thread; a request must be completed by one thread only
/// (a second concurrent waiter gets `NEXAR_ERR_REQUEST`).
/// Errors: `NEXAR_ERR_ARG` (NULL `request`), `NEXAR_ERR_REQUEST` (invalid or freed handle),
/// the operation's error, `NEXAR_ERR_NOT_INITIALIZED`, `NEXAR_ERR_FINALIZED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_wait(request: *mut nexar_request_t, status: *mut nexar_status_t) -> c_int {
    call("nexar_wait", || {
        non_null(request, "request")?;
        wait_one(request, status)
    })
}

/// The body of `nexar_wait` for a non-NULL `request` pointer.
fn wait_one(request: *mut nexar_request_t, status: *mut nexar_status_t) -> Result<()> {
    let h = read_handle(request);
    if h == 0 {
        return report(Ok(None), status);
    }
    let req = with_running(|s| s.requests.lock().remove(h))?;
    clear_handle(request);
    // Blocking through a communicator lets this thread drive the transport.
    report(world()?.block_on(req), status)
}

/// Checks whether `*request` has completed. If so: sets `*flag` to 1, fills `*status` (may be
/// NULL), releases it and sets `*request` to `NEXAR_REQUEST_NULL`, returning the operation's
/// result. If not: sets `*flag` to 0 and returns `NEXAR_SUCCESS`.
///
/// Blocking: no. Thread safety: as `nexar_wait`.
/// Errors: `NEXAR_ERR_ARG` (NULL `request` or `flag`), `NEXAR_ERR_REQUEST`, the operation's
/// error, `NEXAR_ERR_NOT_INITIALIZED`, `NEXAR_ERR_FINALIZED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_test(
    request: *mut nexar_request_t,
    flag: *mut c_int,
    status: *mut nexar_status_t,
) -> c_int {
    call("nexar_test", || {
        non_null(request, "request")?;
        non_null(flag, "flag")?;
        let h = read_handle(request);
        if h == 0 {
            // SAFETY: checked for NULL; writable per the C contract.
            unsafe { write_out(flag, 1) };
            return report(Ok(None), status);
        }
        match try_complete(h)? {
            None => {
                // SAFETY: checked for NULL; writable per the C contract.
                unsafe { write_out(flag, 0) };
                Ok(())
            }
            Some(result) => {
                clear_handle(request);
                // SAFETY: checked for NULL; writable per the C contract.
                unsafe { write_out(flag, 1) };
                report(result, status)
            }
        }
    })
}

fn slot<T>(p: *mut T, i: usize) -> *mut T {
    if p.is_null() { p } else { p.wrapping_add(i) }
}

/// Waits for all `count` requests in `requests` (NULL entries are skipped), setting each to
/// `NEXAR_REQUEST_NULL`. `statuses` may be NULL or an array of `count`; each status's `error`
/// holds that request's result. Returns `NEXAR_SUCCESS` if all succeeded, else the first
/// failing request's code.
///
/// Blocking: yes. Thread safety: as `nexar_wait`.
/// Errors: `NEXAR_ERR_ARG` (NULL `requests` with `count > 0`), `NEXAR_ERR_REQUEST`, the
/// operations' errors, `NEXAR_ERR_NOT_INITIALIZED`, `NEXAR_ERR_FINALIZED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_waitall(
    count: usize,
    requests: *mut nexar_request_t,
    statuses: *mut nexar_status_t,
) -> c_int {
    call("nexar_waitall", || wait_all_impl(count, requests, statuses))
}

/// The body of `nexar_waitall`.
fn wait_all_impl(
    count: usize,
    requests: *mut nexar_request_t,
    statuses: *mut nexar_status_t,
) -> Result<()> {
    if count > 0 {
        non_null(requests, "requests")?;
    }
    let mut first: Option<Error> = None;
    for i in 0..count {
        let st = slot(statuses, i);
        if !st.is_null() {
            // A handle `nexar_wait` rejects writes no status; this one then reports the code.
            // SAFETY: `statuses` holds `count` writable entries per the C contract.
            unsafe { write_out(st, empty_status(NEXAR_SUCCESS)) };
        }
        if let Err(e) = wait_one(requests.wrapping_add(i), st) {
            if !st.is_null() {
                // SAFETY: as above.
                unsafe { (*st).error = e.kind().code() };
            }
            if first.is_none() {
                first = Some(e.context(format!("request {i}")));
            }
        }
    }
    first.map_or(Ok(()), Err)
}

/// Waits until any one of the `count` requests completes; writes its position to `*index`,
/// fills `*status` (may be NULL), releases it and sets it to `NEXAR_REQUEST_NULL`. If every
/// entry is NULL, `*index` is `NEXAR_UNDEFINED` and the call returns at once.
///
/// Blocking: yes (spins briefly, then sleeps between checks). Thread safety: as `nexar_wait`.
/// Errors: `NEXAR_ERR_ARG` (NULL `requests` with `count > 0`, NULL `index`),
/// `NEXAR_ERR_REQUEST`, the completed operation's error, `NEXAR_ERR_NOT_INITIALIZED`,
/// `NEXAR_ERR_FINALIZED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_waitany(
    count: usize,
    requests: *mut nexar_request_t,
    index: *mut c_int,
    status: *mut nexar_status_t,
) -> c_int {
    call("nexar_waitany", || {
        non_null(index, "index")?;
        if count > 0 {
            non_null(requests, "requests")?;
        }
        let handles: Vec<u64> = (0..count)
            .map(|i| read_handle(requests.wrapping_add(i)))
            .collect();
        let found = if handles.iter().all(|&h| h == 0) {
            None
        } else {
            let mut backoff = nexar::PollBackoff::new(Some(world()?));
            let one_pass = || {
                any::pass(
                    count,
                    |i| (handles[i] != 0).then_some(handles[i]),
                    |i, h| -> Result<Option<CResult>> {
                        let done = try_complete(h)?;
                        if done.is_some() {
                            clear_handle(requests.wrapping_add(i));
                        }
                        Ok(done)
                    },
                )
            };
            any::wait(one_pass, || backoff.pause())?
        };
        match found {
            Some((i, result)) => {
                // SAFETY: checked for NULL; writable per the C contract.
                unsafe { write_out(index, i as c_int) };
                report(result, status)
            }
            None => {
                // SAFETY: checked for NULL; writable per the C contract.
                unsafe { write_out(index, NEXAR_UNDEFINED) };
                report(Ok(None), status)
            }
        }
    })
}

/// If all `count` requests have completed: sets `*flag` to 1 and completes them all as
/// `nexar_waitall` does. Otherwise sets `*flag` to 0 and leaves every request untouched.
///
/// Blocking: no. Thread safety: as `nexar_wait`.
/// Errors: as `nexar_waitall`, plus `NEXAR_ERR_ARG` for a NULL `flag`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_testall(
    count: usize,
    requests: *mut nexar_request_t,
    flag: *mut c_int,
    statuses: *mut nexar_status_t,
) -> c_int {
    call("nexar_testall", || {
        non_null(flag, "flag")?;
        if count > 0 {
            non_null(requests, "requests")?;
        }
        let all_done = with_running(|s| {
            let mut table = s.requests.lock();
            for i in 0..count {
                let h = read_handle(requests.wrapping_add(i));
                if h != 0 && !table.get_mut(h)?.test() {
                    return Ok(false);
                }
            }
            Ok(true)
        })?;
        // SAFETY: checked for NULL; writable per the C contract.
        unsafe { write_out(flag, c_int::from(all_done)) };
        if !all_done {
            return Ok(());
        }
        wait_all_impl(count, requests, statuses)
    })
}

/// Releases a completed request without reading its result and sets `*request` to
/// `NEXAR_REQUEST_NULL`; `*request == NULL` does nothing. A request still in progress is NOT
/// released: the call fails with `NEXAR_ERR_PENDING` and the request stays valid (wait for it
/// first), so no operation can ever write into memory the caller has freed.
///
/// Blocking: no. Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG` (NULL `request`), `NEXAR_ERR_REQUEST` (invalid or freed handle),
/// `NEXAR_ERR_PENDING`, `NEXAR_ERR_NOT_INITIALIZED`, `NEXAR_ERR_FINALIZED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_request_free(request: *mut nexar_request_t) -> c_int {
    call("nexar_request_free", || {
        non_null(request, "request")?;
        let h = read_handle(request);
        if h == 0 {
            return Ok(());
        }
        match try_complete(h)? {
            None => Err(Error::new(
                ErrorKind::Pending,
                "the request is still in progress; wait for it before freeing",
            )),
            Some(_) => {
                clear_handle(request);
                Ok(())
            }
        }
    })
}
