//! `MPI_Request`: the request table, starting, cancelling and freeing requests
//! (`MPI_Request_free`). The completion functions (wait, test and their all / any / some
//! forms) are in [`crate::request::complete`], the status queries in
//! [`crate::request::get_status`].
//!
//! A request wraps a [`nexar::Request`]: most operations run on the engine's runtime and make
//! progress on their own; receives and synchronous sends are inline requests, whose last step
//! (copying the matched message out, seeing the acknowledgement) runs on the thread that tests
//! or waits. Its result is `Some(status)` for receives and `None` otherwise.
//! Request handles come from a [`Table`] (`MPI_REQUEST_NULL` is the spec's 0x180, far below
//! every table handle).
//!
//! `MPI_Request_free` of a pending request drops the handle and lets the operation finish in
//! the background, on the runtime (its buffer must stay valid until then, as MPI states).
//!
//! Persistent requests (see [`crate::p2p::persistent`]) keep a starter: completing one leaves it
//! allocated and inactive (never set to `MPI_REQUEST_NULL`); an inactive request completes at
//! once with an empty status and is skipped by the any / some forms, like `MPI_REQUEST_NULL`.
//!
//! Generalized requests (see [`crate::request::generalized`]) keep the user's callbacks: their outcome is
//! the status `query_fn` gives when the request is completed or its status read.

use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
use crate::request::complete::IndexContext;
use crate::request::generalized::Greq;
use crate::request::status::MPI_Status;
use crate::table::{Table, USER_HANDLES};
use parking_lot::Mutex;
use std::ffi::c_int;
use std::sync::Arc;

/// What a completed request yields: the receive status, or `None`.
pub type Outcome = std::result::Result<Option<MPI_Status>, MpiError>;

/// One started operation: its request and, for a receive, what cancels it.
pub struct Running {
    /// The operation.
    pub req: nexar::Request<Option<MPI_Status>>,
    /// Cancels a receive that has not matched yet (`MPI_Cancel`); `None` for other operations.
    pub cancel: Option<nexar::RecvCancel>,
}

impl From<nexar::Request<Option<MPI_Status>>> for Running {
    fn from(req: nexar::Request<Option<MPI_Status>>) -> Self {
        Self { req, cancel: None }
    }
}

/// Starts a persistent request's operation again (`MPI_Start`).
pub type Starter = Box<dyn FnMut() -> Result<Running> + Send>;

/// A live request.
struct Entry {
    /// The operation, until its result has been taken.
    req: Option<nexar::Request<Option<MPI_Status>>>,
    /// The result once known.
    done: Option<Outcome>,
    /// The communicator (its error handler reports the request's errors).
    comm: MPI_Comm,
    /// Cancels the operation if it is a receive that has not matched.
    cancel: Option<nexar::RecvCancel>,
    /// Persistent requests: starts the operation (the entry outlives each completion).
    starter: Option<Starter>,
    /// Generalized requests: the user's callbacks ([`crate::request::generalized`]).
    greq: Option<Arc<Greq>>,
}

impl Entry {
    /// A persistent request with no operation started (or its result already taken).
    fn inactive(&self) -> bool {
        self.starter.is_some() && self.req.is_none() && self.done.is_none()
    }

    /// Whether the operation has completed (its result is then in `done`; an inactive
    /// persistent request counts as complete). Never blocks.
    fn poll(&mut self) -> bool {
        if self.done.is_some() {
            return true;
        }
        let Some(r) = self.req.as_mut() else {
            return self.starter.is_some();
        };
        // A generalized request is complete once MPI_Grequest_complete was called, even if its
        // task has not run on the runtime yet: the task then ends at once, so waiting for its
        // result below is brief.
        let fired = self.greq.as_ref().is_some_and(|g| g.completed());
        if !fired && !r.test() {
            return false;
        }
        let r = self.req.take().expect("checked above");
        self.done = Some(r.wait().map_err(MpiError::from));
        true
    }

    /// Blocks until complete and yields the result (an inactive persistent request: none).
    /// A generalized request's `free_fn` runs here, as its handle is released; its error is
    /// the call's unless the operation (or `query_fn`) failed first.
    fn wait(mut self) -> Outcome {
        let o = self.take_wait();
        match self.greq.take().map(|g| g.release()) {
            Some(Err(e)) if o.is_ok() => Err(e),
            _ => o,
        }
    }

    /// [`Entry::wait`] that leaves the (now inactive) entry in place.
    fn take_wait(&mut self) -> Outcome {
        self.cancel = None;
        let o = self.take_op_outcome();
        match &self.greq {
            Some(g) => g.query(o),
            None => o,
        }
    }

    /// The operation's own outcome (blocking until known), before any generalized-request
    /// query.
    fn take_op_outcome(&mut self) -> Outcome {
        match self.done.take() {
            Some(o) => o,
            None => match self.req.take() {
                // Complete already (an eager send, a receive whose message is in): taken
                // without the blocking machinery (a `Waitall` over many such requests).
                Some(mut r) => if r.done_now() {
                    r.wait()
                } else {
                    // Blocking through the communicator lets this thread drive the transport.
                    match crate::state::comm(self.comm) {
                        Ok(c) => c.block_on(r),
                        Err(_) => r.wait(),
                    }
                }
                .map_err(MpiError::from),
                None if self.starter.is_some() => Ok(None),
                None => Err(MpiError::new(MPI_ERR_INTERN, "request without operation")),
            },
        }
    }
}

/// The standard ABI's `MPI_Request` (a pointer-sized handle).
pub type MPI_Request = usize;

static REQUESTS: Mutex<Table<Entry>> = Mutex::new(Table::new(USER_HANDLES));

/// Registers `req` (on communicator `comm`) and writes its handle to `*out` (checked for NULL
/// by the caller).
pub fn store_request(
    out: *mut MPI_Request,
    comm: MPI_Comm,
    req: nexar::Request<Option<MPI_Status>>,
) -> Result<()> {
    store_started(out, comm, req.into(), None)
}

/// Registers an operation with its cancel handle (`started`), or an inactive persistent
/// request (`starter` given, `started` not yet: pass `None` for it through
/// [`store_persistent`]), and writes its handle to `*out` (checked for NULL by the caller).
pub fn store_started(
    out: *mut MPI_Request,
    comm: MPI_Comm,
    started: Running,
    starter: Option<Starter>,
) -> Result<()> {
    insert(
        out,
        Entry {
            req: Some(started.req),
            done: None,
            comm,
            cancel: started.cancel,
            starter,
            greq: None,
        },
    )
}

/// Registers an inactive persistent request that `starter` starts (`MPI_Start`).
pub fn store_persistent(out: *mut MPI_Request, comm: MPI_Comm, starter: Starter) -> Result<()> {
    insert(
        out,
        Entry {
            req: None,
            done: None,
            comm,
            cancel: None,
            starter: Some(starter),
            greq: None,
        },
    )
}

/// Registers generalized request `req` (finished by `MPI_Grequest_complete`) with its
/// callbacks `g`, and writes its handle to `*out` (checked for NULL by the caller).
pub(crate) fn store_grequest(
    out: *mut MPI_Request,
    comm: MPI_Comm,
    req: nexar::Request<Option<MPI_Status>>,
    g: Arc<Greq>,
) -> Result<()> {
    insert(
        out,
        Entry {
            req: Some(req),
            done: None,
            comm,
            cancel: None,
            starter: None,
            greq: Some(g),
        },
    )
}

/// Takes the operation of the one-shot request `h` out of the table (its handle is then
/// free): a persistent collective's start adopts the request its non-blocking form created.
pub(crate) fn adopt(h: MPI_Request) -> Result<Running> {
    let e = REQUESTS.lock().remove(h).ok_or_else(|| bad_request(h))?;
    let req = e
        .req
        .ok_or_else(|| MpiError::new(MPI_ERR_INTERN, format!("request {h:#x} has no operation")))?;
    Ok(Running {
        req,
        cancel: e.cancel,
    })
}

fn insert(out: *mut MPI_Request, e: Entry) -> Result<()> {
    let h = REQUESTS
        .lock()
        .insert(e)
        .ok_or_else(|| MpiError::new(MPI_ERR_NO_MEM, "too many live requests"))?;
    // SAFETY: checked for NULL by the caller; writable per the MPI contract.
    unsafe { out.write(h) };
    Ok(())
}

/// Whether `h` is a live request handle (for `MPI_Request_fromint`).
pub fn is_live(h: MPI_Request) -> bool {
    REQUESTS.lock().get(h).is_some()
}

pub(crate) fn bad_request(h: MPI_Request) -> MpiError {
    MpiError::new(MPI_ERR_REQUEST, format!("invalid or freed request {h:#x}"))
}

/// The communicator whose error handler reports errors of request `h` (`MPI_COMM_WORLD` for
/// `MPI_REQUEST_NULL` or an invalid handle).
pub(crate) fn comm_of(h: MPI_Request) -> MPI_Comm {
    REQUESTS.lock().get(h).map_or(MPI_COMM_WORLD, |e| e.comm)
}

/// The status of an operation without a message (MPI's empty status).
pub(crate) fn empty_status() -> MPI_Status {
    MPI_Status::new(MPI_ANY_SOURCE, MPI_ANY_TAG, 0, MPI_SUCCESS)
}

/// The status a completed request reports.
pub(crate) fn status_of(o: &Outcome) -> MPI_Status {
    match o {
        Ok(Some(st)) => *st,
        Ok(None) => empty_status(),
        Err(e) => MPI_Status {
            MPI_ERROR: e.class,
            ..empty_status()
        },
    }
}

/// The result a completed request reports.
pub(crate) fn result_of(o: Outcome) -> Result<()> {
    match o {
        Ok(Some(st)) if st.MPI_ERROR != MPI_SUCCESS => Err(MpiError::new(
            st.MPI_ERROR,
            format!(
                "message from rank {} with tag {} has {} bytes, more than the receive buffer holds",
                st.MPI_SOURCE,
                st.MPI_TAG,
                st.bytes()
            ),
        )),
        Ok(_) => Ok(()),
        Err(e) => Err(e),
    }
}

pub(crate) fn read(p: *const MPI_Request, i: usize) -> MPI_Request {
    // SAFETY: callers checked `p` for NULL; `i` is within the caller's array.
    unsafe { p.add(i).read() }
}

/// Sets completed request `i` to `MPI_REQUEST_NULL`, unless it is persistent (and so still
/// allocated).
pub(crate) fn clear(p: *mut MPI_Request, i: usize) {
    if is_live(read(p, i)) {
        return;
    }
    // SAFETY: as `read`; writable per the MPI contract.
    unsafe { p.add(i).write(MPI_REQUEST_NULL) };
}

/// Whether `h` is an inactive persistent request (treated as `MPI_REQUEST_NULL` by the any /
/// some forms).
pub(crate) fn is_inactive(h: MPI_Request) -> bool {
    REQUESTS.lock().get(h).is_some_and(Entry::inactive)
}

/// Starts persistent request `h` (`MPI_Start`).
pub(crate) fn start(h: MPI_Request) -> Result<()> {
    if h == MPI_REQUEST_NULL {
        return Err(MpiError::new(
            MPI_ERR_REQUEST,
            "request is MPI_REQUEST_NULL",
        ));
    }
    let mut starter = {
        let mut t = REQUESTS.lock();
        let e = t.get_mut(h).ok_or_else(|| bad_request(h))?;
        if e.req.is_some() || e.done.is_some() {
            return Err(MpiError::new(
                MPI_ERR_REQUEST,
                format!("persistent request {h:#x} is already active"),
            ));
        }
        e.starter.take().ok_or_else(|| {
            MpiError::new(MPI_ERR_REQUEST, format!("request {h:#x} is not persistent"))
        })?
    };
    // The starter runs unlocked: a persistent collective's starter creates (and adopts) a
    // request of its own.
    let s = starter();
    let mut t = REQUESTS.lock();
    let e = t.get_mut(h).ok_or_else(|| bad_request(h))?;
    e.starter = Some(starter);
    let s = s?;
    e.req = Some(s.req);
    e.cancel = s.cancel;
    Ok(())
}

/// Cancels request `h` (`MPI_Cancel`): a receive that has not matched completes as cancelled;
/// anything else completes normally.
pub(crate) fn cancel(h: MPI_Request) -> Result<()> {
    if h == MPI_REQUEST_NULL {
        return Err(MpiError::new(
            MPI_ERR_REQUEST,
            "request is MPI_REQUEST_NULL",
        ));
    }
    let (c, g) = {
        let t = REQUESTS.lock();
        let e = t.get(h).ok_or_else(|| bad_request(h))?;
        (e.cancel.clone(), e.greq.clone())
    };
    if let Some(c) = c {
        c.cancel();
    }
    match g {
        Some(g) => g.cancel(),
        None => Ok(()),
    }
}

/// Takes request `h` out of the table if it has completed: `Ok(None)` if still running.
pub(crate) fn take_if_done(h: MPI_Request) -> Result<Option<Outcome>> {
    let mut t = REQUESTS.lock();
    let e = t.get_mut(h).ok_or_else(|| bad_request(h))?;
    if !e.poll() {
        return Ok(None);
    }
    if e.starter.is_some() {
        // Persistent: the request stays allocated, inactive.
        return Ok(Some(e.take_wait()));
    }
    let e = t.remove(h).expect("present above");
    // A generalized request's callbacks run in `wait`: they may call MPI.
    drop(t);
    Ok(Some(e.wait()))
}

/// Takes request `h` out of the table (a persistent one: its operation) and blocks until it
/// completes.
pub(crate) fn take_and_wait(h: MPI_Request) -> Result<Outcome> {
    let mut t = REQUESTS.lock();
    let e = t.get_mut(h).ok_or_else(|| bad_request(h))?;
    if e.starter.is_some() {
        let mut op = Entry {
            req: e.req.take(),
            done: e.done.take(),
            comm: e.comm,
            cancel: e.cancel.take(),
            starter: None,
            greq: None,
        };
        drop(t);
        if op.req.is_none() && op.done.is_none() {
            return Ok(Ok(None));
        }
        return Ok(op.take_wait());
    }
    let e = t.remove(h).expect("present above");
    drop(t);
    Ok(e.wait())
}

/// Lets an operation whose handle is freed finish in the background: a request polled by its
/// tester (`nexar::Request::inline`, e.g. receives) is handed to the engine's runtime.
fn detach(mut req: nexar::Request<Option<MPI_Status>>, comm_h: MPI_Comm) {
    if req.test() {
        return;
    }
    // The request's communicator may be freed already; any live one has the runtime.
    if let Ok(c) = crate::state::comm(comm_h).or_else(|_| crate::state::comm(MPI_COMM_WORLD)) {
        drop(c.spawn(req));
    }
}

/// Whether each of the first `n` requests of the array has completed (`MPI_REQUEST_NULL`
/// counts as complete), polling every live one.
pub(crate) fn all_done(requests: *const MPI_Request, n: usize) -> Result<bool> {
    let mut t = REQUESTS.lock();
    let mut all = true;
    for i in 0..n {
        let h = read(requests, i);
        if h != MPI_REQUEST_NULL {
            all &= t
                .get_mut(h)
                .ok_or_else(|| bad_request(h).context_index(i))?
                .poll();
        }
    }
    Ok(all)
}

/// The outcome of request `h` if it has completed, leaving it live.
pub(crate) fn peek(h: MPI_Request) -> Result<Option<Outcome>> {
    if h == MPI_REQUEST_NULL {
        return Ok(Some(Ok(None)));
    }
    let mut t = REQUESTS.lock();
    let e = t.get_mut(h).ok_or_else(|| bad_request(h))?;
    if !e.poll() {
        return Ok(None);
    }
    // An inactive persistent request reports an empty status.
    let o = e.done.clone().unwrap_or(Ok(None));
    let g = e.greq.clone();
    drop(t);
    Ok(Some(match g {
        Some(g) => g.query(o),
        None => o,
    }))
}

/// The communicator of `*request` (for error reporting), tolerating a NULL pointer.
pub(crate) fn comm_at(request: *const MPI_Request) -> MPI_Comm {
    if request.is_null() {
        MPI_COMM_WORLD
    } else {
        comm_of(read(request, 0))
    }
}

mpi_fn! {
    /// Releases `*request` and sets it to `MPI_REQUEST_NULL`. A pending operation goes on in
    /// the background (its buffer stays the caller's contract until it has completed).
    fn MPI_Request_free(request: *mut MPI_Request) -> c_int => PMPI_Request_free {
        call("MPI_Request_free", comm_at(request), || {
            non_null(request, "request")?;
            let h = read(request, 0);
            if h == MPI_REQUEST_NULL {
                return Err(MpiError::new(MPI_ERR_REQUEST, "request is MPI_REQUEST_NULL"));
            }
            let entry = REQUESTS.lock().remove(h).ok_or_else(|| bad_request(h))?;
            if let Some(req) = entry.req {
                detach(req, entry.comm);
            }
            clear(request, 0);
            Ok(())
        })
    }

}
