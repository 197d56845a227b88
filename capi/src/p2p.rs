//! Point-to-point functions.

use crate::boundary::{call, non_null, write_out};
use crate::buffers::{RawOut, byte_len, input, output};
use crate::lifecycle::comm;
use crate::request::{CRequest, store_request};
use crate::types::{
    NEXAR_ANY_SOURCE, NEXAR_ANY_TAG, NEXAR_ERR_TRUNCATED, NEXAR_SUCCESS, datatype, nexar_comm_t,
    nexar_datatype_t, nexar_request_t, nexar_status_t, status_of,
};
use nexar::{Error, ErrorKind, RecvOutcome, Result, Source, TagMatch};
use std::ffi::{c_int, c_void};

/// The engine's source selector for a C source argument.
pub fn source_arg(s: c_int) -> Result<Source> {
    match s {
        NEXAR_ANY_SOURCE => Ok(Source::Any),
        s if s >= 0 => Ok(Source::Rank(s as u32)),
        s => Err(Error::new(
            ErrorKind::InvalidRank,
            format!("source rank {s} is negative"),
        )),
    }
}

/// The engine's tag selector for a C tag argument.
pub fn tag_arg(t: c_int) -> Result<TagMatch> {
    match t {
        NEXAR_ANY_TAG => Ok(TagMatch::Any),
        t if t >= 0 => Ok(TagMatch::Tag(t)),
        t => Err(Error::new(
            ErrorKind::InvalidTag,
            format!("tag {t} is negative"),
        )),
    }
}

/// Writes a receive's status (if `status` is non-NULL); a truncated receive becomes an error
/// naming the sizes (`capacity` is the buffer's size in bytes).
pub fn finish_status(
    out: &RecvOutcome,
    capacity: usize,
    status: *mut nexar_status_t,
) -> Result<()> {
    let code = if out.truncated {
        NEXAR_ERR_TRUNCATED
    } else {
        NEXAR_SUCCESS
    };
    if !status.is_null() {
        // SAFETY: checked for NULL; writable per the C contract.
        unsafe { write_out(status, status_of(&out.status, code)) };
    }
    if out.truncated {
        return Err(nexar::ops::p2p::truncation_error(&out.status, capacity));
    }
    Ok(())
}

fn send_impl(
    buf: *const c_void,
    count: usize,
    dt: nexar_datatype_t,
    dest: c_int,
    tag: c_int,
    comm_h: nexar_comm_t,
) -> Result<()> {
    let dt = datatype(dt)?;
    // SAFETY: the C caller provides `count` elements at `buf`.
    let data = unsafe { input(buf, byte_len(count, dt)?, "buf")? };
    let dest = crate::types::rank_arg(dest, ErrorKind::InvalidRank, "destination rank")?;
    let c = comm(comm_h)?;
    c.send_blocking(data, dest, tag)
}

/// Sends `count` elements of `datatype` from `buf` to rank `dest` of `comm` with `tag` (>= 0).
/// The data is copied before the call returns, so `buf` may be reused at once.
///
/// Blocking: no longer than copying the data (sends are buffered). Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG` (NULL `buf` with `count > 0`), `NEXAR_ERR_COUNT` (overflowing count),
/// `NEXAR_ERR_DATATYPE`, `NEXAR_ERR_RANK`, `NEXAR_ERR_TAG`, `NEXAR_ERR_COMM`,
/// `NEXAR_ERR_PROC_FAILED` (`dest` has failed), `NEXAR_ERR_NOT_INITIALIZED`, `NEXAR_ERR_FINALIZED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_send(
    buf: *const c_void,
    count: usize,
    datatype: nexar_datatype_t,
    dest: c_int,
    tag: c_int,
    comm: nexar_comm_t,
) -> c_int {
    call("nexar_send", || {
        send_impl(buf, count, datatype, dest, tag, comm)
    })
}

/// Receives into `buf` (room for `count` elements of `datatype`) a message from `source`
/// (or `NEXAR_ANY_SOURCE`) with `tag` (or `NEXAR_ANY_TAG`) on `comm`. `status` may be NULL.
/// A larger message fills `buf`, nothing is written past it, `status` is still written (with
/// `error = NEXAR_ERR_TRUNCATED`) and the call returns `NEXAR_ERR_TRUNCATED`.
///
/// Blocking: until a matching message arrives or its sender fails. Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG`, `NEXAR_ERR_COUNT`, `NEXAR_ERR_DATATYPE`, `NEXAR_ERR_RANK`,
/// `NEXAR_ERR_TAG`, `NEXAR_ERR_COMM`, `NEXAR_ERR_TRUNCATED`, `NEXAR_ERR_PROC_FAILED`,
/// `NEXAR_ERR_NOT_INITIALIZED`, `NEXAR_ERR_FINALIZED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_recv(
    buf: *mut c_void,
    count: usize,
    datatype: nexar_datatype_t,
    source: c_int,
    tag: c_int,
    comm: nexar_comm_t,
    status: *mut nexar_status_t,
) -> c_int {
    call("nexar_recv", || {
        let dt = crate::types::datatype(datatype)?;
        // SAFETY: the C caller provides room for `count` elements at `buf`.
        let out = unsafe { output(buf, byte_len(count, dt)?, "buf")? };
        let capacity = out.len();
        let (src, tag) = (source_arg(source)?, tag_arg(tag)?);
        let c = self::comm(comm)?;
        let outcome = c.recv_into_blocking(out, src, tag)?;
        finish_status(&outcome, capacity, status)
    })
}

/// Starts a send (see `nexar_send`) and returns a request in `*request`. The data is copied
/// before the call returns, so the request is already complete; wait on or free it.
///
/// Blocking: no. Thread safety: any thread.
/// Errors: those of `nexar_send`, plus `NEXAR_ERR_ARG` for a NULL `request`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_isend(
    buf: *const c_void,
    count: usize,
    datatype: nexar_datatype_t,
    dest: c_int,
    tag: c_int,
    comm: nexar_comm_t,
    request: *mut nexar_request_t,
) -> c_int {
    call("nexar_isend", || {
        non_null(request, "request")?;
        send_impl(buf, count, datatype, dest, tag, comm)?;
        store_request(request, CRequest::ready(Ok(None)))
    })
}

/// Posts a receive (see `nexar_recv`) and returns a request in `*request`. Receives match in
/// the order they are posted. `buf` must stay valid and untouched until the request completes
/// (`nexar_wait` / `nexar_test` report the status, including truncation).
///
/// Blocking: no. Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG`, `NEXAR_ERR_COUNT`, `NEXAR_ERR_DATATYPE`, `NEXAR_ERR_RANK`,
/// `NEXAR_ERR_TAG`, `NEXAR_ERR_COMM`, `NEXAR_ERR_PROC_FAILED`, `NEXAR_ERR_NOT_INITIALIZED`,
/// `NEXAR_ERR_FINALIZED`; failures after posting are reported by the request.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_irecv(
    buf: *mut c_void,
    count: usize,
    datatype: nexar_datatype_t,
    source: c_int,
    tag: c_int,
    comm: nexar_comm_t,
    request: *mut nexar_request_t,
) -> c_int {
    call("nexar_irecv", || {
        non_null(request, "request")?;
        let dt = crate::types::datatype(datatype)?;
        // SAFETY: the C caller provides room for `count` elements, valid until completion.
        let out = RawOut::new(unsafe { output(buf, byte_len(count, dt)?, "buf")? });
        let (src, tag) = (source_arg(source)?, tag_arg(tag)?);
        let c = self::comm(comm)?;
        // SAFETY: the buffer outlives the request per the documented contract.
        let dst = unsafe { out.get() };
        if nexar::device::device_of(dst).is_some() {
            // Device memory is written through the staged copy, on the runtime.
            let pending = c.start_recv(src, tag)?;
            let req = c.spawn(async move {
                // SAFETY: as above.
                let o = pending.finish_into(unsafe { out.get() }).await?;
                Ok(Some((o, out.len())))
            });
            return store_request(request, req);
        }
        // Host memory: the engine lands the message in `buf` itself (a small one straight
        // from a shared-memory ring), and the thread that waits only observes completion.
        let len = dst.len();
        // SAFETY: as above; nothing else touches `buf` until the request completes (MPI-style
        // contract), and dropping the request withdraws the receive.
        let (pending, _) = unsafe { c.start_recv_into(dst.as_mut_ptr(), len, src, tag)? };
        let req = nexar::Request::inline(async move { Ok(Some((pending.await?, len))) });
        store_request(request, req)
    })
}

/// Sends `sendcount` elements from `sendbuf` to `dest` and receives up to `recvcount` elements
/// into `recvbuf` from `source`, without deadlocking against a matching call on the peer.
/// `status` may be NULL. Truncation as in `nexar_recv`.
///
/// Blocking: until the receive completes. Thread safety: any thread.
/// Errors: those of `nexar_send` and `nexar_recv`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_sendrecv(
    sendbuf: *const c_void,
    sendcount: usize,
    sendtype: nexar_datatype_t,
    dest: c_int,
    sendtag: c_int,
    recvbuf: *mut c_void,
    recvcount: usize,
    recvtype: nexar_datatype_t,
    source: c_int,
    recvtag: c_int,
    comm: nexar_comm_t,
    status: *mut nexar_status_t,
) -> c_int {
    call("nexar_sendrecv", || {
        let rdt = crate::types::datatype(recvtype)?;
        // SAFETY: the C caller provides room for `recvcount` elements at `recvbuf`.
        let out = unsafe { output(recvbuf, byte_len(recvcount, rdt)?, "recvbuf")? };
        let capacity = out.len();
        let (src, rtag) = (source_arg(source)?, tag_arg(recvtag)?);
        let c = self::comm(comm)?;
        // Check the send half before posting the receive: a posted receive may take a message
        // that has already arrived, and a call that fails must not consume one.
        let sdt = crate::types::datatype(sendtype)?;
        // SAFETY: the C caller provides `sendcount` elements at `sendbuf`.
        let data = unsafe { input(sendbuf, byte_len(sendcount, sdt)?, "sendbuf")? };
        let to = crate::types::rank_arg(dest, ErrorKind::InvalidRank, "destination rank")?;
        if to >= c.size() {
            return Err(Error::new(
                ErrorKind::InvalidRank,
                format!(
                    "destination rank {to} is out of range for a communicator of size {}",
                    c.size()
                ),
            ));
        }
        if sendtag < 0 {
            return Err(Error::new(
                ErrorKind::InvalidTag,
                format!("tag {sendtag} is negative"),
            ));
        }
        let pending = c.start_recv(src, rtag)?;
        c.send_blocking(data, to, sendtag)?;
        let outcome = c.block_on(pending.finish_into(out))?;
        finish_status(&outcome, capacity, status)
    })
}

/// Waits until a message matching (`source`, `tag`) on `comm` has arrived and describes it in
/// `*status` without receiving it.
///
/// Blocking: until such a message arrives or the source fails. Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG` (NULL `status`), `NEXAR_ERR_RANK`, `NEXAR_ERR_TAG`, `NEXAR_ERR_COMM`,
/// `NEXAR_ERR_PROC_FAILED`, `NEXAR_ERR_NOT_INITIALIZED`, `NEXAR_ERR_FINALIZED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_probe(
    source: c_int,
    tag: c_int,
    comm: nexar_comm_t,
    status: *mut nexar_status_t,
) -> c_int {
    call("nexar_probe", || {
        non_null(status, "status")?;
        let st = self::comm(comm)?.probe_blocking(source_arg(source)?, tag_arg(tag)?)?;
        // SAFETY: checked for NULL; writable per the C contract.
        unsafe { write_out(status, status_of(&st, NEXAR_SUCCESS)) };
        Ok(())
    })
}

/// Checks without waiting whether a message matching (`source`, `tag`) has arrived: sets
/// `*flag` to 1 and fills `*status` (which may be NULL) if so, else sets `*flag` to 0.
///
/// Blocking: no. Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG` (NULL `flag`), `NEXAR_ERR_RANK`, `NEXAR_ERR_TAG`, `NEXAR_ERR_COMM`,
/// `NEXAR_ERR_NOT_INITIALIZED`, `NEXAR_ERR_FINALIZED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_iprobe(
    source: c_int,
    tag: c_int,
    comm: nexar_comm_t,
    flag: *mut c_int,
    status: *mut nexar_status_t,
) -> c_int {
    call("nexar_iprobe", || {
        non_null(flag, "flag")?;
        let found = self::comm(comm)?.iprobe(source_arg(source)?, tag_arg(tag)?)?;
        if let (Some(st), false) = (&found, status.is_null()) {
            // SAFETY: checked for NULL; writable per the C contract.
            unsafe { write_out(status, status_of(st, NEXAR_SUCCESS)) };
        }
        // SAFETY: checked for NULL; writable per the C contract.
        unsafe { write_out(flag, c_int::from(found.is_some())) };
        Ok(())
    })
}

/// Number of whole `datatype` elements in the message `status` describes.
///
/// Blocking: no. Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG` (NULL pointer), `NEXAR_ERR_DATATYPE`, `NEXAR_ERR_COUNT` (the
/// message is not a whole number of elements).
#[unsafe(no_mangle)]
pub extern "C" fn nexar_get_count(
    status: *const nexar_status_t,
    datatype: nexar_datatype_t,
    count: *mut usize,
) -> c_int {
    call("nexar_get_count", || {
        non_null(status, "status")?;
        non_null(count, "count")?;
        let dt = crate::types::datatype(datatype)?;
        // SAFETY: checked for NULL; readable per the C contract.
        let bytes = unsafe { status.read() }.count;
        if !bytes.is_multiple_of(dt.size()) {
            return Err(Error::new(
                ErrorKind::InvalidCount,
                format!("{bytes} bytes is not a whole number of {dt}"),
            ));
        }
        // SAFETY: checked for NULL; writable per the C contract.
        unsafe { write_out(count, bytes / dt.size()) };
        Ok(())
    })
}
