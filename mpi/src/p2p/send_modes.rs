//! Send modes: synchronous (`MPI_Ssend`, `MPI_Issend`), ready (`MPI_Rsend`, `MPI_Irsend`) and
//! the shared start of every mode (also used by buffered and persistent sends), plus
//! `MPI_Sendrecv_replace`. One implementation over 64-bit counts serves `MPI_X` and `MPI_X_c`.
//!
//! * Standard and ready sends copy the data and queue it: complete at once (MPI allows a ready
//!   send to behave as a standard one).
//! * A synchronous send is queued at once too, but completes only when the receiver has matched
//!   it (the engine's acknowledgement); it fails if the receiver dies first.
//! * Buffered sends go through [`crate::p2p::buffered`] (accounted against the attached buffer).

use crate::args::{Buf, count, dest_rank, send_tag};
use crate::consts::*;
use crate::errors::report::{Result, call, non_null};
use crate::request::status::{MPI_Status, store, truncated};
use crate::request::table::{MPI_Request, store_request};
use crate::state::comm;
use bytes::Bytes;
use nexar::Comm;
use std::ffi::{c_int, c_void};

/// How a send completes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// `MPI_Send`: complete once the data is copied and queued.
    Standard,
    /// `MPI_Ssend`: complete once the receiver matched the message.
    Sync,
    /// `MPI_Bsend`: accounted against the attached buffer, then as standard.
    Buffered,
    /// `MPI_Rsend`: as standard.
    Ready,
}

/// Starts a send of `b` to `dest` in `mode` on `c` (handle `comm_h`) and returns its request.
pub(crate) fn start_send(
    c: &Comm,
    comm_h: MPI_Comm,
    b: &Buf,
    dest: c_int,
    tag: c_int,
    mode: Mode,
) -> Result<nexar::Request<Option<MPI_Status>>> {
    let tag = send_tag(tag)?;
    let Some(dest) = dest_rank(dest, c.peer_count(), "destination")? else {
        return Ok(nexar::Request::ready(Ok(None)));
    };
    // SAFETY: `Buf::new` checked the buffer; readable per the MPI contract.
    let data = Bytes::copy_from_slice(&unsafe { b.send_bytes()? });
    match mode {
        Mode::Standard | Mode::Ready => c.send_bytes(data, dest, tag)?,
        Mode::Buffered => crate::p2p::buffered::send(c, comm_h, data, dest, tag)?,
        Mode::Sync => {
            let s = c.start_ssend_bytes(data, dest, tag)?;
            // Polled by MPI_Test / MPI_Wait themselves: the request completes the moment
            // the receiver's acknowledgement arrives.
            return Ok(nexar::Request::inline(async move {
                s.await?;
                Ok(None)
            }));
        }
    }
    Ok(nexar::Request::ready(Ok(None)))
}

/// Blocking send in `mode`.
pub(crate) fn send_impl(
    buf: *const c_void,
    n: MPI_Count,
    dt: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm_h: MPI_Comm,
    mode: Mode,
) -> Result<()> {
    let c = comm(comm_h)?;
    let b = Buf::new(buf, n, dt, "send")?;
    start_send(&c, comm_h, &b, dest, tag, mode)?.wait()?;
    Ok(())
}

/// Non-blocking send in `mode`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn isend_impl(
    buf: *const c_void,
    n: MPI_Count,
    dt: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm_h: MPI_Comm,
    request: *mut MPI_Request,
    mode: Mode,
) -> Result<()> {
    non_null(request, "request")?;
    let c = comm(comm_h)?;
    let b = Buf::new(buf, n, dt, "send")?;
    let req = start_send(&c, comm_h, &b, dest, tag, mode)?;
    store_request(request, comm_h, req)
}

#[allow(clippy::too_many_arguments)]
fn sendrecv_replace(
    buf: *mut c_void,
    n: MPI_Count,
    dt: MPI_Datatype,
    dest: c_int,
    stag: c_int,
    source: c_int,
    rtag: c_int,
    comm_h: MPI_Comm,
    status: *mut MPI_Status,
) -> Result<()> {
    let c = comm(comm_h)?;
    let b = Buf::new(buf, n, dt, "buffer")?;
    let tag = crate::args::recv_tag(rtag)?;
    let source = crate::args::recv_source(source, c.peer_count())?;
    // The outgoing data is copied (inside `start_send`) before the receive can overwrite it;
    // the receive is posted first so a matching call on the peer cannot deadlock.
    let pending = source.map(|s| c.start_recv(s, tag)).transpose()?;
    start_send(&c, comm_h, &b, dest, stag, Mode::Standard)?;
    let Some(p) = pending else {
        store(status, MPI_Status::proc_null());
        return Ok(());
    };
    let mut target = b.recv_target();
    // SAFETY: `Buf::new` checked the buffer; writable per the MPI contract.
    let o = p.finish_into_blocking(unsafe { target.slice() })?;
    // SAFETY: as above; a derived layout is unpacked here.
    unsafe { target.finish(o.status.bytes)? };
    let err = if o.truncated {
        MPI_ERR_TRUNCATE
    } else {
        MPI_SUCCESS
    };
    let st = MPI_Status::new(o.status.source as c_int, o.status.tag, o.status.bytes, err);
    store(status, st);
    if o.truncated {
        return Err(truncated(&st, b.len));
    }
    Ok(())
}

mpi_fn! {
    /// Synchronous send: returns once `dest` has matched the message with a receive.
    fn MPI_Ssend(buf: *const c_void, n: c_int, dt: MPI_Datatype, dest: c_int, tag: c_int,
                 comm_h: MPI_Comm) -> c_int => PMPI_Ssend {
        call("MPI_Ssend", comm_h, || send_impl(buf, count(n), dt, dest, tag, comm_h, Mode::Sync))
    }

    /// Large-count `MPI_Ssend`.
    fn MPI_Ssend_c(buf: *const c_void, n: MPI_Count, dt: MPI_Datatype, dest: c_int, tag: c_int,
                   comm_h: MPI_Comm) -> c_int => PMPI_Ssend_c {
        call("MPI_Ssend_c", comm_h, || send_impl(buf, n, dt, dest, tag, comm_h, Mode::Sync))
    }

    /// Starts a synchronous send: the request completes once `dest` has matched the message.
    fn MPI_Issend(buf: *const c_void, n: c_int, dt: MPI_Datatype, dest: c_int, tag: c_int,
                  comm_h: MPI_Comm, request: *mut MPI_Request) -> c_int => PMPI_Issend {
        call("MPI_Issend", comm_h, || {
            isend_impl(buf, count(n), dt, dest, tag, comm_h, request, Mode::Sync)
        })
    }

    /// Large-count `MPI_Issend`.
    fn MPI_Issend_c(buf: *const c_void, n: MPI_Count, dt: MPI_Datatype, dest: c_int, tag: c_int,
                    comm_h: MPI_Comm, request: *mut MPI_Request) -> c_int => PMPI_Issend_c {
        call("MPI_Issend_c", comm_h, || {
            isend_impl(buf, n, dt, dest, tag, comm_h, request, Mode::Sync)
        })
    }

    /// Ready send (the receive must already be posted); behaves as `MPI_Send`.
    fn MPI_Rsend(buf: *const c_void, n: c_int, dt: MPI_Datatype, dest: c_int, tag: c_int,
                 comm_h: MPI_Comm) -> c_int => PMPI_Rsend {
        call("MPI_Rsend", comm_h, || send_impl(buf, count(n), dt, dest, tag, comm_h, Mode::Ready))
    }

    /// Large-count `MPI_Rsend`.
    fn MPI_Rsend_c(buf: *const c_void, n: MPI_Count, dt: MPI_Datatype, dest: c_int, tag: c_int,
                   comm_h: MPI_Comm) -> c_int => PMPI_Rsend_c {
        call("MPI_Rsend_c", comm_h, || send_impl(buf, n, dt, dest, tag, comm_h, Mode::Ready))
    }

    /// Non-blocking ready send; behaves as `MPI_Isend`.
    fn MPI_Irsend(buf: *const c_void, n: c_int, dt: MPI_Datatype, dest: c_int, tag: c_int,
                  comm_h: MPI_Comm, request: *mut MPI_Request) -> c_int => PMPI_Irsend {
        call("MPI_Irsend", comm_h, || {
            isend_impl(buf, count(n), dt, dest, tag, comm_h, request, Mode::Ready)
        })
    }

    /// Large-count `MPI_Irsend`.
    fn MPI_Irsend_c(buf: *const c_void, n: MPI_Count, dt: MPI_Datatype, dest: c_int, tag: c_int,
                    comm_h: MPI_Comm, request: *mut MPI_Request) -> c_int => PMPI_Irsend_c {
        call("MPI_Irsend_c", comm_h, || {
            isend_impl(buf, n, dt, dest, tag, comm_h, request, Mode::Ready)
        })
    }

    /// Sends `buf` to `dest` and receives into it from `source` (the data sent is copied
    /// first).
    fn MPI_Sendrecv_replace(buf: *mut c_void, n: c_int, dt: MPI_Datatype, dest: c_int,
                            sendtag: c_int, source: c_int, recvtag: c_int, comm_h: MPI_Comm,
                            status: *mut MPI_Status) -> c_int => PMPI_Sendrecv_replace {
        call("MPI_Sendrecv_replace", comm_h, || sendrecv_replace(buf, count(n), dt, dest,
            sendtag, source, recvtag, comm_h, status))
    }

    /// Large-count `MPI_Sendrecv_replace`.
    fn MPI_Sendrecv_replace_c(buf: *mut c_void, n: MPI_Count, dt: MPI_Datatype, dest: c_int,
                              sendtag: c_int, source: c_int, recvtag: c_int, comm_h: MPI_Comm,
                              status: *mut MPI_Status) -> c_int => PMPI_Sendrecv_replace_c {
        call("MPI_Sendrecv_replace_c", comm_h, || sendrecv_replace(buf, n, dt, dest,
            sendtag, source, recvtag, comm_h, status))
    }
}
