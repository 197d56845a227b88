//! Generalized requests (MPI 4.1 §13.2): `MPI_Grequest_start` and `MPI_Grequest_complete`.
//!
//! A generalized request is an ordinary entry of the request table whose operation is a task
//! that finishes when `MPI_Grequest_complete` is called (from any thread). The entry keeps the
//! user's callbacks ([`Greq`]): completing the request (wait, test, ...) calls `query_fn` for
//! the status; `MPI_Request_get_status` calls it too, without freeing; `MPI_Cancel` calls
//! `cancel_fn` with whether the request has completed. `free_fn` is called exactly once, when
//! the request has both completed and been released (completed by a wait / test, or freed
//! with `MPI_Request_free`, then completed): the table entry and the waiting task each hold the
//! [`Greq`], and the last one to let go calls it.

use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
use crate::request::status::MPI_Status;
use crate::request::table::{MPI_Request, Outcome, empty_status, store_grequest};
use crate::state::comm;
use parking_lot::Mutex;
use std::collections::HashMap;
use std::ffi::{c_int, c_void};
use std::sync::{Arc, LazyLock, Weak};
use std::task::{Poll, Waker};

/// `MPI_Grequest_query_function`.
pub type QueryFn = Option<unsafe extern "C" fn(*mut c_void, *mut MPI_Status) -> c_int>;
/// `MPI_Grequest_free_function`.
pub type FreeFn = Option<unsafe extern "C" fn(*mut c_void) -> c_int>;
/// `MPI_Grequest_cancel_function`.
pub type CancelFn = Option<unsafe extern "C" fn(*mut c_void, c_int) -> c_int>;

/// Whether `MPI_Grequest_complete` has been called, and who waits for it.
#[derive(Default)]
struct Signal {
    fired: bool,
    waker: Option<Waker>,
}

/// A generalized request's callbacks and completion signal.
pub struct Greq {
    query: QueryFn,
    free: FreeFn,
    cancel: CancelFn,
    /// The user's `extra_state` (an opaque pointer, passed back to every callback).
    extra: usize,
    signal: Mutex<Signal>,
    /// Whether `free_fn` has run (it runs once: when the request is released, else on drop).
    freed: std::sync::atomic::AtomicBool,
}

impl Greq {
    fn extra(&self) -> *mut c_void {
        self.extra as *mut c_void
    }

    /// Whether `MPI_Grequest_complete` has been called.
    pub(crate) fn completed(&self) -> bool {
        self.signal.lock().fired
    }

    /// Marks the request complete (`MPI_Grequest_complete`); a second call is an error.
    fn complete(&self) -> Result<()> {
        let mut s = self.signal.lock();
        if s.fired {
            return Err(MpiError::new(
                MPI_ERR_REQUEST,
                "MPI_Grequest_complete was already called for this request",
            ));
        }
        s.fired = true;
        if let Some(w) = s.waker.take() {
            w.wake();
        }
        Ok(())
    }

    /// The completed request's outcome: the status `query_fn` fills in (an error if it
    /// returns one, or if the operation itself failed).
    pub(crate) fn query(&self, o: Outcome) -> Outcome {
        o?;
        let mut st = empty_status();
        if let Some(q) = self.query {
            // SAFETY: the user's callback, called with its own state and a writable status.
            let rc = unsafe { q(self.extra(), &mut st) };
            if rc != MPI_SUCCESS {
                return Err(MpiError::new(
                    rc,
                    format!("query_fn of the generalized request returned error {rc}"),
                ));
            }
        }
        // The error field is not part of what a single completion reports.
        st.MPI_ERROR = MPI_SUCCESS;
        Ok(Some(st))
    }

    /// Runs `free_fn` (once) as the completed request is released by a wait or test: its error
    /// code is that call's result (MPI 4.1 13.2).
    pub(crate) fn release(&self) -> Result<()> {
        if self.freed.swap(true, std::sync::atomic::Ordering::AcqRel) {
            return Ok(());
        }
        let Some(f) = self.free else { return Ok(()) };
        // SAFETY: the user's callback with its own state, called once.
        let rc = unsafe { f(self.extra()) };
        if rc != MPI_SUCCESS {
            return Err(MpiError::new(
                rc,
                format!("free_fn of the generalized request returned error {rc}"),
            ));
        }
        Ok(())
    }

    /// `MPI_Cancel`: calls `cancel_fn` with whether the request has completed.
    pub(crate) fn cancel(&self) -> Result<()> {
        let Some(f) = self.cancel else { return Ok(()) };
        // SAFETY: the user's callback with its own state.
        let rc = unsafe { f(self.extra(), self.completed() as c_int) };
        if rc != MPI_SUCCESS {
            return Err(MpiError::new(
                rc,
                format!("cancel_fn of the generalized request returned error {rc}"),
            ));
        }
        Ok(())
    }
}

impl Drop for Greq {
    /// The request is gone without a wait or test releasing it (`MPI_Request_free`): `free_fn`
    /// runs now unless it ran already (its error code has no caller left to report to).
    fn drop(&mut self) {
        let _ = self.release();
    }
}

/// Generalized requests not completed yet, by handle: `MPI_Grequest_complete` may come after
/// `MPI_Request_free` has released the handle's table entry.
static PENDING: LazyLock<Mutex<HashMap<MPI_Request, Weak<Greq>>>> = LazyLock::new(Default::default);

/// `MPI_Grequest_complete` of handle `h`.
fn complete(h: MPI_Request) -> Result<()> {
    let g = PENDING.lock().remove(&h).and_then(|w| w.upgrade());
    let g = g.ok_or_else(|| {
        MpiError::new(
            MPI_ERR_REQUEST,
            format!("request {h:#x} is not a pending generalized request"),
        )
    })?;
    g.complete()
}

/// Waits for `MPI_Grequest_complete` on `g`.
async fn completion(g: Arc<Greq>) {
    std::future::poll_fn(|cx| {
        let mut s = g.signal.lock();
        if s.fired {
            Poll::Ready(())
        } else {
            s.waker = Some(cx.waker().clone());
            Poll::Pending
        }
    })
    .await;
    // The task lets go of the callbacks here, so `free_fn` runs once the handle is released.
    drop(g);
}

fn start(
    query: QueryFn,
    free: FreeFn,
    cancel: CancelFn,
    extra: *mut c_void,
    request: *mut MPI_Request,
) -> Result<()> {
    non_null(request, "request")?;
    let c = comm(MPI_COMM_WORLD)?;
    let g = Arc::new(Greq {
        query,
        free,
        cancel,
        extra: extra as usize,
        signal: Mutex::new(Signal::default()),
        freed: Default::default(),
    });
    let task = completion(g.clone());
    let req = c.spawn(async move {
        task.await;
        Ok(None)
    });
    let weak = Arc::downgrade(&g);
    store_grequest(request, MPI_COMM_WORLD, req, g)?;
    // SAFETY: checked for NULL; `store_grequest` wrote the handle.
    PENDING.lock().insert(unsafe { request.read() }, weak);
    Ok(())
}

mpi_fn! {
    /// Creates a generalized request: it completes when `MPI_Grequest_complete` is called;
    /// `query_fn` gives its status, `free_fn` releases `extra_state`, `cancel_fn` handles
    /// `MPI_Cancel`.
    fn MPI_Grequest_start(query_fn: QueryFn, free_fn: FreeFn, cancel_fn: CancelFn,
                          extra_state: *mut c_void, request: *mut MPI_Request) -> c_int
        => PMPI_Grequest_start
    {
        call("MPI_Grequest_start", MPI_COMM_WORLD, || {
            start(query_fn, free_fn, cancel_fn, extra_state, request)
        })
    }

    /// Tells MPI that generalized request `request` has completed (any thread may call it).
    fn MPI_Grequest_complete(request: MPI_Request) -> c_int => PMPI_Grequest_complete {
        call("MPI_Grequest_complete", MPI_COMM_WORLD, || {
            complete(request)
        })
    }
}
