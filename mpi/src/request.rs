//! `MPI_Request`: the request table, `MPI_Isend` / `MPI_Irecv`, and the completion functions
//! (wait, test and their all / any / some forms, `MPI_Request_free`,
//! `MPI_Request_get_status`).
//!
//! A request wraps a [`nexar::Request`] (the operation runs on the engine's runtime and makes
//! progress on its own). Its result is `Some(status)` for receives and `None` otherwise.
//! Request handles come from a [`Table`] (`MPI_REQUEST_NULL` is the spec's 0x180, far below
//! every table handle). `MPI_Wait(all)` blocks on the request's future; `*any` / `*some` check
//! every request, spinning briefly and then sleeping with growing pauses.
//!
//! `MPI_Request_free` of a pending request drops the handle and lets the operation finish in
//! the background (its buffer must stay valid until then, as MPI states).

use crate::args::{Buf, count, dest_rank, recv_source, recv_tag, send_tag};
use crate::consts::*;
use crate::error::{MpiError, Result, call, non_null};
use crate::state::comm;
use crate::status::{MPI_Status, store};
use crate::table::Table;
use bytes::Bytes;
use parking_lot::Mutex;
use std::ffi::{c_int, c_void};
use std::time::Duration;

/// What a completed request yields: the receive status, or `None`.
pub type Outcome = std::result::Result<Option<MPI_Status>, MpiError>;

/// A live request.
struct Entry {
    /// The operation, until its result has been taken.
    req: Option<nexar::Request<Option<MPI_Status>>>,
    /// The result once known.
    done: Option<Outcome>,
    /// The communicator (its error handler reports the request's errors).
    comm: MPI_Comm,
}

impl Entry {
    /// Whether the operation has completed (its result is then in `done`). Never blocks.
    fn poll(&mut self) -> bool {
        if self.done.is_some() {
            return true;
        }
        let Some(r) = self.req.as_mut() else {
            return false;
        };
        if !r.test() {
            return false;
        }
        let r = self.req.take().expect("checked above");
        self.done = Some(r.wait().map_err(MpiError::from));
        true
    }

    /// Blocks until complete and yields the result.
    fn wait(mut self) -> Outcome {
        match self.done.take() {
            Some(o) => o,
            None => match self.req.take() {
                Some(r) => r.wait().map_err(MpiError::from),
                None => Err(MpiError::new(MPI_ERR_INTERN, "request without operation")),
            },
        }
    }
}

/// The standard ABI's `MPI_Request` (a pointer-sized handle).
pub type MPI_Request = usize;

static REQUESTS: Mutex<Table<Entry>> = Mutex::new(Table::new());

/// A writable user buffer handed to a background operation (the MPI contract keeps it valid
/// and untouched until the request completes).
#[derive(Clone, Copy)]
pub struct RawOut {
    ptr: usize,
    len: usize,
}

impl RawOut {
    /// The buffer described by `b`.
    pub fn of(b: &Buf) -> Self {
        Self {
            ptr: b.ptr as usize,
            len: b.len,
        }
    }

    /// The bytes.
    ///
    /// # Safety
    /// The buffer must be valid and unaliased for `len` bytes (the MPI contract).
    pub unsafe fn get<'a>(self) -> &'a mut [u8] {
        if self.len == 0 {
            return &mut [];
        }
        // SAFETY: non-NULL (`Buf::new` checked it) and writable per the contract.
        unsafe { std::slice::from_raw_parts_mut(self.ptr as *mut u8, self.len) }
    }
}

/// Registers `req` (on communicator `comm`) and writes its handle to `*out` (checked for NULL
/// by the caller).
pub fn store_request(
    out: *mut MPI_Request,
    comm: MPI_Comm,
    req: nexar::Request<Option<MPI_Status>>,
) -> Result<()> {
    let h = REQUESTS
        .lock()
        .insert(Entry {
            req: Some(req),
            done: None,
            comm,
        })
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
fn comm_of(h: MPI_Request) -> MPI_Comm {
    REQUESTS.lock().get(h).map_or(MPI_COMM_WORLD, |e| e.comm)
}

/// The status of an operation without a message (MPI's empty status).
fn empty_status() -> MPI_Status {
    MPI_Status::new(MPI_ANY_SOURCE, MPI_ANY_TAG, 0, MPI_SUCCESS)
}

/// The status a completed request reports.
fn status_of(o: &Outcome) -> MPI_Status {
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
fn result_of(o: Outcome) -> Result<()> {
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

fn read(p: *const MPI_Request, i: usize) -> MPI_Request {
    // SAFETY: callers checked `p` for NULL; `i` is within the caller's array.
    unsafe { p.add(i).read() }
}

fn clear(p: *mut MPI_Request, i: usize) {
    // SAFETY: as `read`; writable per the MPI contract.
    unsafe { p.add(i).write(MPI_REQUEST_NULL) };
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
    let e = t.remove(h).expect("present above");
    Ok(Some(e.wait()))
}

/// Takes request `h` out of the table and blocks until it completes.
fn take_and_wait(h: MPI_Request) -> Result<Outcome> {
    let e = REQUESTS.lock().remove(h).ok_or_else(|| bad_request(h))?;
    Ok(e.wait())
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

fn array_len(n: c_int, requests: *const MPI_Request) -> Result<usize> {
    let n = usize::try_from(n)
        .map_err(|_| MpiError::new(MPI_ERR_COUNT, format!("request count {n} is negative")))?;
    if n > 0 {
        non_null(requests, "array_of_requests")?;
    }
    Ok(n)
}

/// The communicator of the first live request of the array (for error reporting).
fn array_comm(n: c_int, requests: *const MPI_Request) -> MPI_Comm {
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
fn record(statuses: *mut MPI_Status, slot: usize, o: &Outcome) -> bool {
    let st = status_of(o);
    store(status_slot(statuses, slot), st);
    st.MPI_ERROR != MPI_SUCCESS
}

fn in_status(func: &str, failed: usize) -> Result<()> {
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
        if h == MPI_REQUEST_NULL {
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
            if h == MPI_REQUEST_NULL {
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

trait IndexContext {
    fn context_index(self, i: usize) -> Self;
}

impl IndexContext for MpiError {
    fn context_index(mut self, i: usize) -> Self {
        self.message = format!("request {i}: {}", self.message);
        self
    }
}

fn isend(
    buf: *const c_void,
    n: MPI_Count,
    dt: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm_h: MPI_Comm,
    request: *mut MPI_Request,
) -> Result<()> {
    non_null(request, "request")?;
    let c = comm(comm_h)?;
    let b = Buf::new(buf, n, dt, "send")?;
    let tag = send_tag(tag)?;
    if let Some(dest) = dest_rank(dest, c.size(), "destination")? {
        // The engine copies and queues the message at once (as `MPI_Send` does), so the
        // request is complete from the start.
        // SAFETY: `Buf::new` checked the pointer; readable per the MPI contract.
        let data = Bytes::copy_from_slice(unsafe { b.bytes() });
        c.send_bytes(data, dest, tag)?;
    }
    store_request(request, comm_h, nexar::Request::ready(Ok(None)))
}

fn irecv(
    buf: *mut c_void,
    n: MPI_Count,
    dt: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm_h: MPI_Comm,
    request: *mut MPI_Request,
) -> Result<()> {
    non_null(request, "request")?;
    let c = comm(comm_h)?;
    let b = Buf::new(buf, n, dt, "receive")?;
    let req = post_recv(&c, b, source, tag)?;
    store_request(request, comm_h, req)
}

/// Posts a receive into `b` now (it matches before receives posted later) and finishes it in
/// the background.
fn post_recv(
    c: &nexar::Comm,
    b: Buf,
    source: c_int,
    tag: c_int,
) -> Result<nexar::Request<Option<MPI_Status>>> {
    let tag = recv_tag(tag)?;
    let Some(source) = recv_source(source, c.size())? else {
        return Ok(nexar::Request::ready(Ok(Some(MPI_Status::proc_null()))));
    };
    let pending = c.start_recv(source, tag)?;
    let out = RawOut::of(&b);
    let req = c.spawn(async move {
        // SAFETY: the caller keeps the buffer valid until the request completes.
        let o = pending.finish_into(unsafe { out.get() }).await?;
        let err = if o.truncated {
            MPI_ERR_TRUNCATE
        } else {
            MPI_SUCCESS
        };
        Ok(Some(MPI_Status::new(
            o.status.source as c_int,
            o.status.tag,
            o.status.bytes,
            err,
        )))
    });
    Ok(req)
}

/// Sends `data` (already copied) to `dest` unless it is `MPI_PROC_NULL`.
fn send_copy(c: &nexar::Comm, data: Bytes, dest: c_int, tag: c_int) -> Result<()> {
    let tag = send_tag(tag)?;
    if let Some(dest) = dest_rank(dest, c.size(), "destination")? {
        c.send_bytes(data, dest, tag)?;
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn isendrecv(
    sbuf: *const c_void,
    sn: MPI_Count,
    sdt: MPI_Datatype,
    dest: c_int,
    stag: c_int,
    rbuf: *mut c_void,
    rn: MPI_Count,
    rdt: MPI_Datatype,
    source: c_int,
    rtag: c_int,
    comm_h: MPI_Comm,
    request: *mut MPI_Request,
) -> Result<()> {
    non_null(request, "request")?;
    let c = comm(comm_h)?;
    let sb = Buf::new(sbuf, sn, sdt, "send")?;
    let rb = Buf::new(rbuf, rn, rdt, "receive")?;
    send_tag(stag)?;
    dest_rank(dest, c.size(), "destination")?;
    // SAFETY: `Buf::new` checked the pointer; readable per the MPI contract.
    let data = Bytes::copy_from_slice(unsafe { sb.bytes() });
    // The receive is posted before the send, so a matching call on the peer cannot deadlock.
    let req = post_recv(&c, rb, source, rtag)?;
    send_copy(&c, data, dest, stag)?;
    store_request(request, comm_h, req)
}

#[allow(clippy::too_many_arguments)]
fn isendrecv_replace(
    buf: *mut c_void,
    n: MPI_Count,
    dt: MPI_Datatype,
    dest: c_int,
    stag: c_int,
    source: c_int,
    rtag: c_int,
    comm_h: MPI_Comm,
    request: *mut MPI_Request,
) -> Result<()> {
    non_null(request, "request")?;
    let c = comm(comm_h)?;
    let b = Buf::new(buf, n, dt, "buffer")?;
    send_tag(stag)?;
    dest_rank(dest, c.size(), "destination")?;
    // The outgoing data is copied before the receive can write into the buffer.
    // SAFETY: `Buf::new` checked the pointer; readable per the MPI contract.
    let data = Bytes::copy_from_slice(unsafe { b.bytes() });
    let req = post_recv(&c, b, source, rtag)?;
    send_copy(&c, data, dest, stag)?;
    store_request(request, comm_h, req)
}

/// The outcome of request `h` if it has completed, leaving it live.
fn peek(h: MPI_Request) -> Result<Option<Outcome>> {
    if h == MPI_REQUEST_NULL {
        return Ok(Some(Ok(None)));
    }
    let mut t = REQUESTS.lock();
    let e = t.get_mut(h).ok_or_else(|| bad_request(h))?;
    Ok(if e.poll() { e.done.clone() } else { None })
}

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
    let failed = done
        .iter()
        .enumerate()
        .filter(|(i, o)| record(statuses, *i, o))
        .count();
    in_status("MPI_Request_get_status_all", failed)
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
        if h == MPI_REQUEST_NULL {
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
    // SAFETY: checked for NULL.
    unsafe { flag.write((!live) as c_int) };
    if !live {
        // SAFETY: checked for NULL.
        unsafe { index.write(MPI_UNDEFINED) };
        store(status, empty_status());
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
    let (mut live, mut done, mut failed) = (false, 0usize, 0usize);
    for i in 0..n {
        let h = read(requests, i);
        if h == MPI_REQUEST_NULL {
            continue;
        }
        live = true;
        if let Some(o) = peek(h).map_err(|e| e.context_index(i))? {
            // SAFETY: `indices` holds `n` entries per the MPI contract.
            unsafe { indices.add(done).write(i as c_int) };
            failed += record(statuses, done, &o) as usize;
            done += 1;
        }
    }
    let out = if live { done as c_int } else { MPI_UNDEFINED };
    // SAFETY: checked for NULL.
    unsafe { outcount.write(out) };
    in_status("MPI_Request_get_status_some", failed)
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
    /// Starts a send of `count` elements to `dest` (the data is copied and queued at once).
    fn MPI_Isend(buf: *const c_void, n: c_int, dt: MPI_Datatype, dest: c_int, tag: c_int,
                 comm_h: MPI_Comm, request: *mut MPI_Request) -> c_int => PMPI_Isend {
        call("MPI_Isend", comm_h, || isend(buf, count(n), dt, dest, tag, comm_h, request))
    }

    /// Large-count `MPI_Isend`.
    fn MPI_Isend_c(buf: *const c_void, n: MPI_Count, dt: MPI_Datatype, dest: c_int, tag: c_int,
                   comm_h: MPI_Comm, request: *mut MPI_Request) -> c_int => PMPI_Isend_c {
        call("MPI_Isend_c", comm_h, || isend(buf, n, dt, dest, tag, comm_h, request))
    }

    /// Posts a receive into `buf` (at most `count` elements); complete it with a wait or test.
    fn MPI_Irecv(buf: *mut c_void, n: c_int, dt: MPI_Datatype, source: c_int, tag: c_int,
                 comm_h: MPI_Comm, request: *mut MPI_Request) -> c_int => PMPI_Irecv {
        call("MPI_Irecv", comm_h, || irecv(buf, count(n), dt, source, tag, comm_h, request))
    }

    /// Large-count `MPI_Irecv`.
    fn MPI_Irecv_c(buf: *mut c_void, n: MPI_Count, dt: MPI_Datatype, source: c_int, tag: c_int,
                   comm_h: MPI_Comm, request: *mut MPI_Request) -> c_int => PMPI_Irecv_c {
        call("MPI_Irecv_c", comm_h, || irecv(buf, n, dt, source, tag, comm_h, request))
    }

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
            // Dropping a running `nexar::Request` lets it finish in the background.
            drop(REQUESTS.lock().remove(h).ok_or_else(|| bad_request(h))?);
            clear(request, 0);
            Ok(())
        })
    }

    /// Starts a send to `dest` and a receive from `source` (the receive is posted first).
    fn MPI_Isendrecv(sendbuf: *const c_void, sendcount: c_int, sendtype: MPI_Datatype,
                     dest: c_int, sendtag: c_int, recvbuf: *mut c_void, recvcount: c_int,
                     recvtype: MPI_Datatype, source: c_int, recvtag: c_int, comm_h: MPI_Comm,
                     request: *mut MPI_Request) -> c_int => PMPI_Isendrecv {
        call("MPI_Isendrecv", comm_h, || isendrecv(sendbuf, count(sendcount), sendtype, dest,
            sendtag, recvbuf, count(recvcount), recvtype, source, recvtag, comm_h, request))
    }

    /// Large-count `MPI_Isendrecv`.
    fn MPI_Isendrecv_c(sendbuf: *const c_void, sendcount: MPI_Count, sendtype: MPI_Datatype,
                       dest: c_int, sendtag: c_int, recvbuf: *mut c_void, recvcount: MPI_Count,
                       recvtype: MPI_Datatype, source: c_int, recvtag: c_int, comm_h: MPI_Comm,
                       request: *mut MPI_Request) -> c_int => PMPI_Isendrecv_c {
        call("MPI_Isendrecv_c", comm_h, || isendrecv(sendbuf, sendcount, sendtype, dest,
            sendtag, recvbuf, recvcount, recvtype, source, recvtag, comm_h, request))
    }

    /// Sends `buf` to `dest` and receives into it from `source` (the data sent is copied
    /// first).
    fn MPI_Isendrecv_replace(buf: *mut c_void, n: c_int, dt: MPI_Datatype, dest: c_int,
                             sendtag: c_int, source: c_int, recvtag: c_int, comm_h: MPI_Comm,
                             request: *mut MPI_Request) -> c_int => PMPI_Isendrecv_replace {
        call("MPI_Isendrecv_replace", comm_h, || isendrecv_replace(buf, count(n), dt, dest,
            sendtag, source, recvtag, comm_h, request))
    }

    /// Large-count `MPI_Isendrecv_replace`.
    fn MPI_Isendrecv_replace_c(buf: *mut c_void, n: MPI_Count, dt: MPI_Datatype, dest: c_int,
                               sendtag: c_int, source: c_int, recvtag: c_int, comm_h: MPI_Comm,
                               request: *mut MPI_Request) -> c_int
        => PMPI_Isendrecv_replace_c
    {
        call("MPI_Isendrecv_replace_c", comm_h, || isendrecv_replace(buf, n, dt, dest,
            sendtag, source, recvtag, comm_h, request))
    }

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

    /// Sets `*flag` to whether the operation `status` describes was cancelled (never: the
    /// shim has no `MPI_Cancel`).
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
