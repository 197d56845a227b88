//! `MPI_Request`: the request table, `MPI_Isend` / `MPI_Irecv`, and the completion functions
//! (wait, test and their all / any / some forms, `MPI_Request_free`,
//! `MPI_Request_get_status`).
//!
//! A request wraps a [`nexar::Request`]: most operations run on the engine's runtime and make
//! progress on their own; receives and synchronous sends are inline requests, whose last step
//! (copying the matched message out, seeing the acknowledgement) runs on the thread that tests
//! or waits. Its result is `Some(status)` for receives and `None` otherwise.
//! Request handles come from a [`Table`] (`MPI_REQUEST_NULL` is the spec's 0x180, far below
//! every table handle). `MPI_Wait(all)` blocks on the request's future; `*any` / `*some` check
//! every request, spinning briefly and then sleeping with growing pauses.
//!
//! `MPI_Request_free` of a pending request drops the handle and lets the operation finish in
//! the background, on the runtime (its buffer must stay valid until then, as MPI states).
//!
//! Persistent requests (see [`crate::persistent`]) keep a starter: completing one leaves it
//! allocated and inactive (never set to `MPI_REQUEST_NULL`); an inactive request completes at
//! once with an empty status and is skipped by the any / some forms, like `MPI_REQUEST_NULL`.
//!
//! Generalized requests (see [`crate::grequest`]) keep the user's callbacks: their outcome is
//! the status `query_fn` gives when the request is completed or its status read.

use crate::consts::*;
use crate::error::{MpiError, Result, call, non_null};
use crate::grequest::Greq;
use crate::status::{MPI_Status, store};
use crate::table::Table;
use parking_lot::Mutex;
use std::ffi::c_int;
use std::sync::Arc;
use std::time::Duration;

/// What a completed request yields: the receive status, or `None`.
pub type Outcome = std::result::Result<Option<MPI_Status>, MpiError>;

/// One started operation: its request and, for a receive, what cancels it.
pub struct Started {
    /// The operation.
    pub req: nexar::Request<Option<MPI_Status>>,
    /// Cancels a receive that has not matched yet (`MPI_Cancel`); `None` for other operations.
    pub cancel: Option<nexar::RecvCancel>,
}

impl From<nexar::Request<Option<MPI_Status>>> for Started {
    fn from(req: nexar::Request<Option<MPI_Status>>) -> Self {
        Self { req, cancel: None }
    }
}

/// Starts a persistent request's operation again (`MPI_Start`).
pub type Starter = Box<dyn FnMut() -> Result<Started> + Send>;

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
    /// Generalized requests: the user's callbacks ([`crate::grequest`]).
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
        if !r.test() {
            return false;
        }
        let r = self.req.take().expect("checked above");
        self.done = Some(r.wait().map_err(MpiError::from));
        true
    }

    /// Blocks until complete and yields the result (an inactive persistent request: none).
    fn wait(mut self) -> Outcome {
        self.take_wait()
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
                // Blocking through the communicator lets this thread drive the transport.
                Some(r) => match crate::state::comm(self.comm) {
                    Ok(c) => c.block_on(r),
                    Err(_) => r.wait(),
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

static REQUESTS: Mutex<Table<Entry>> = Mutex::new(Table::new());

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
    started: Started,
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
pub(crate) fn adopt(h: MPI_Request) -> Result<Started> {
    let e = REQUESTS.lock().remove(h).ok_or_else(|| bad_request(h))?;
    let req = e
        .req
        .ok_or_else(|| MpiError::new(MPI_ERR_INTERN, format!("request {h:#x} has no operation")))?;
    Ok(Started {
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

fn bad_request(h: MPI_Request) -> MpiError {
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
fn clear(p: *mut MPI_Request, i: usize) {
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

fn status_slot(p: *mut MPI_Status, i: usize) -> *mut MPI_Status {
    if p.is_null() { p } else { p.wrapping_add(i) }
}

/// Takes request `h` out of the table if it has completed: `Ok(None)` if still running.
fn take_if_done(h: MPI_Request) -> Result<Option<Outcome>> {
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
fn take_and_wait(h: MPI_Request) -> Result<Outcome> {
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

/// Spin briefly, then sleep with growing pauses: never a busy loop on an oversubscribed host.
struct Backoff(u32);

impl Backoff {
    fn pause(&mut self) {
        self.0 += 1;
        if self.0 < 64 {
            std::thread::yield_now();
        } else {
            let us = 10u64 << ((self.0 - 64) / 16).min(7);
            std::thread::sleep(Duration::from_micros(us));
        }
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
        store(status, empty_status());
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

/// Records completed request `i`'s outcome in the statuses; true if it failed.
pub(crate) fn record(statuses: *mut MPI_Status, slot: usize, o: &Outcome) -> bool {
    let st = status_of(o);
    store(status_slot(statuses, slot), st);
    st.MPI_ERROR != MPI_SUCCESS
}

pub(crate) fn in_status(func: &str, failed: usize) -> Result<()> {
    if failed == 0 {
        return Ok(());
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
    let mut failed = 0;
    for i in 0..n {
        let h = read(requests, i);
        let o = if h == MPI_REQUEST_NULL {
            Ok(None)
        } else {
            let o = take_and_wait(h)?;
            clear(requests, i);
            o
        };
        failed += record(statuses, i, &o) as usize;
    }
    in_status("MPI_Waitall", failed)
}

fn test_all(
    n: c_int,
    requests: *mut MPI_Request,
    flag: *mut c_int,
    statuses: *mut MPI_Status,
) -> Result<()> {
    non_null(flag, "flag")?;
    let n = array_len(n, requests)?;
    let all = {
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
        all
    };
    // SAFETY: checked for NULL.
    unsafe { flag.write(all as c_int) };
    if all {
        wait_all(n as c_int, requests, statuses)
    } else {
        Ok(())
    }
}

/// One pass over the array: the first completed request, if any. `Ok(Err(()))` if every entry
/// is `MPI_REQUEST_NULL`.
fn any_pass(
    n: usize,
    requests: *mut MPI_Request,
) -> Result<std::result::Result<Option<(usize, Outcome)>, ()>> {
    let mut live = false;
    for i in 0..n {
        let h = read(requests, i);
        if h == MPI_REQUEST_NULL || is_inactive(h) {
            continue;
        }
        live = true;
        if let Some(o) = take_if_done(h).map_err(|e| e.context_index(i))? {
            clear(requests, i);
            return Ok(Ok(Some((i, o))));
        }
    }
    Ok(if live { Ok(None) } else { Err(()) })
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
    let n = array_len(n, requests)?;
    let mut backoff = Backoff(0);
    let found = loop {
        match any_pass(n, requests)? {
            Ok(Some(f)) => break Some(f),
            Err(()) => break None,
            Ok(None) if block => backoff.pause(),
            Ok(None) => {
                // SAFETY: checked for NULL.
                unsafe { flag.write(0) };
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
            store(status, empty_status());
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
    let mut backoff = Backoff(0);
    loop {
        let mut live = false;
        let mut done = 0usize;
        let mut failed = 0usize;
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
                failed += record(statuses, done, &o) as usize;
                done += 1;
            }
        }
        if !live || done > 0 || !block {
            let out = if live { done as c_int } else { MPI_UNDEFINED };
            // SAFETY: checked for NULL.
            unsafe { outcount.write(out) };
            return in_status(func, failed);
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
fn comm_at(request: *const MPI_Request) -> MPI_Comm {
    if request.is_null() {
        MPI_COMM_WORLD
    } else {
        comm_of(read(request, 0))
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

    /// Completes one completed request if there is one (`*flag` says whether).
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
