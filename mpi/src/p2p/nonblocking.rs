//! Non-blocking point-to-point starts: `MPI_Isend`, `MPI_Irecv`, `MPI_Isendrecv` and
//! `MPI_Isendrecv_replace` (and their `_c` forms). Each returns a request from
//! [`crate::request::table`], which owns completion (wait, test and their variants).

use crate::args::{Buf, count, dest_rank, recv_source, recv_tag, send_tag};
use crate::consts::*;
use crate::errors::report::{Result, call, non_null};
use crate::request::status::MPI_Status;
use crate::request::table::{MPI_Request, Running, store_request, store_started};
use crate::state::comm;
use bytes::Bytes;
use std::borrow::Cow;
use std::ffi::{c_int, c_void};

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
    let Some(dest) = dest_rank(dest, c.peer_count(), "destination")? else {
        return store_request(request, comm_h, nexar::Request::ready(Ok(None)));
    };
    // SAFETY: `Buf::new` checked the buffer; readable per the MPI contract.
    let mut req = match unsafe { b.send_bytes()? } {
        // A dense buffer is lent until the request completes (MPI forbids touching it before):
        // large messages to shared-memory peers are read straight out of it. Others are copied
        // and queued at once, and the request is complete from the start.
        // SAFETY: the MPI contract keeps the buffer alive and unmodified until completion.
        Cow::Borrowed(data) => unsafe { c.isend_bytes_lent(data, dest, tag)? },
        Cow::Owned(packed) => {
            c.send_bytes(Bytes::from(packed), dest, tag)?;
            nexar::Request::ready(Ok(()))
        }
    };
    let req = if req.test() {
        // Done already (copied, or refused): a refusal is this call's error.
        req.wait()?;
        nexar::Request::ready(Ok(None))
    } else {
        nexar::Request::inline(async move { req.await.map(|()| None) })
    };
    store_request(request, comm_h, req)
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
    // An empty receive from MPI_PROC_NULL needs no datatype (as in `MPI_Recv`).
    if source == MPI_PROC_NULL && n == 0 && dt == MPI_DATATYPE_NULL {
        recv_tag(tag)?;
        let done = nexar::Request::ready(Ok(Some(MPI_Status::proc_null())));
        return store_request(request, comm_h, done);
    }
    let b = Buf::new(buf, n, dt, "receive")?;
    let started = post_recv(&c, b, source, tag)?;
    store_started(request, comm_h, started, None)
}

/// Posts a receive into `b` now (it matches before receives posted later) and finishes it in
/// the background; a cancelled receive (`MPI_Cancel`) completes with a cancelled status.
pub(crate) fn post_recv(c: &nexar::Comm, b: Buf, source: c_int, tag: c_int) -> Result<Running> {
    let tag = recv_tag(tag)?;
    let Some(source) = recv_source(source, c.peer_count())? else {
        return Ok(nexar::Request::ready(Ok(Some(MPI_Status::proc_null()))).into());
    };
    let mut target = b.recv_target();
    // The engine lands the message straight in the target's bytes (the user's buffer, or a
    // host-memory staging buffer for derived layouts and device memory, whose heap address
    // stays put as `target` moves): small messages from shared-memory peers need no
    // allocation and no hop (see `nexar::RecvInto`).
    // SAFETY: the caller keeps the buffer valid until the request completes.
    let dst = unsafe { target.slice() };
    let (dst, cap) = (dst.as_mut_ptr(), dst.len());
    // SAFETY: as above; nothing else touches the bytes until the receive completes or is
    // dropped (dropping the request withdraws it).
    let (pending, cancel) = unsafe { c.start_recv_into(dst, cap, source, tag)? };
    // The receive owns the target, so a request dropped early withdraws the receive before a
    // staging buffer is freed.
    let pending = pending.owning(target);
    let cancelled = cancel.clone();
    // Polled by MPI_Test / MPI_Wait on the calling thread: once the engine has matched the
    // message, the next test completes it, with no hop through a runtime task (and a receive
    // matched by a synchronous send is complete as soon as that send returns).
    let req = nexar::Request::inline(async move {
        let (o, target) = match pending.await {
            Err(_) if cancelled.is_cancelled() => return Ok(Some(crate::p2p::cancel::cancelled())),
            r => r?,
        };
        // SAFETY: as above; a derived layout is unpacked now, before the request completes.
        unsafe { target.finish(o.status.bytes)? };
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
    Ok(Running {
        req,
        cancel: Some(cancel),
    })
}

/// Sends `data` (already copied) to `dest` unless it is `MPI_PROC_NULL`.
fn send_copy(c: &nexar::Comm, data: Bytes, dest: c_int, tag: c_int) -> Result<()> {
    let tag = send_tag(tag)?;
    if let Some(dest) = dest_rank(dest, c.peer_count(), "destination")? {
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
    dest_rank(dest, c.peer_count(), "destination")?;
    // SAFETY: `Buf::new` checked the buffer; readable per the MPI contract.
    let data = Bytes::copy_from_slice(&unsafe { sb.send_bytes()? });
    // The receive is posted before the send, so a matching call on the peer cannot deadlock.
    let req = post_recv(&c, rb, source, rtag)?;
    send_copy(&c, data, dest, stag)?;
    store_started(request, comm_h, req, None)
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
    dest_rank(dest, c.peer_count(), "destination")?;
    // The outgoing data is copied before the receive can write into the buffer.
    // SAFETY: `Buf::new` checked the buffer; readable per the MPI contract.
    let data = Bytes::copy_from_slice(&unsafe { b.send_bytes()? });
    let req = post_recv(&c, b, source, rtag)?;
    send_copy(&c, data, dest, stag)?;
    store_started(request, comm_h, req, None)
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
}
