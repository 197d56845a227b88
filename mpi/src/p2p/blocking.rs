//! Blocking point-to-point: send, receive, sendrecv, probe. One implementation over 64-bit
//! counts serves `MPI_X` and `MPI_X_c`.
//! Derived datatypes are packed on send and unpacked into the receive buffer on completion
//! (see [`Buf`]); statuses count packed bytes.

use crate::args::{Buf, count, dest_rank, recv_source, recv_tag, send_tag};
use crate::consts::*;
use crate::errors::report::{Result, call, non_null};
use crate::request::status::{MPI_Status, store, truncated};
use crate::state::comm;
use bytes::Bytes;
use nexar::Comm;
use std::borrow::Cow;
use std::ffi::{c_int, c_void};

fn send(c: &Comm, buf: Buf, dest: c_int, tag: c_int) -> Result<()> {
    let tag = send_tag(tag)?;
    let Some(dest) = dest_rank(dest, c.peer_count(), "destination")? else {
        return Ok(());
    };
    // SAFETY: `Buf::new` checked the buffer; readable per the MPI contract.
    match unsafe { buf.send_bytes()? } {
        // A dense buffer is lent for the call: large messages to shared-memory peers are read
        // straight out of it.
        Cow::Borrowed(data) => Ok(c.send_bytes_blocking(data, dest, tag)?),
        Cow::Owned(packed) => Ok(c.send_bytes(Bytes::from(packed), dest, tag)?),
    }
}

fn status_of(o: nexar::RecvOutcome) -> MPI_Status {
    let err = if o.truncated {
        MPI_ERR_TRUNCATE
    } else {
        MPI_SUCCESS
    };
    MPI_Status::new(o.status.source as c_int, o.status.tag, o.status.bytes, err)
}

/// Finishes a posted receive into `buf`, storing the status (also on truncation).
fn finish(p: Option<nexar::PendingRecv>, buf: Buf, status: *mut MPI_Status) -> Result<()> {
    let Some(p) = p else {
        store(status, MPI_Status::proc_null());
        return Ok(());
    };
    // SAFETY: `Buf::new` checked the buffer; writable per the MPI contract.
    unsafe { receive_into(buf, status, |slice| p.finish_into_blocking(slice)) }
}

/// Runs `recv` on `buf`'s landing area, unpacks into `buf` and stores the status (also on
/// truncation).
///
/// # Safety
/// `buf` must be writable per the MPI contract (`Buf::new` checked it).
unsafe fn receive_into(
    buf: Buf,
    status: *mut MPI_Status,
    recv: impl FnOnce(&mut [u8]) -> nexar::Result<nexar::RecvOutcome>,
) -> Result<()> {
    let mut target = buf.recv_target();
    // SAFETY: per this function's contract.
    let out = recv(unsafe { target.slice() })?;
    // SAFETY: as above.
    unsafe { target.finish(out.status.bytes)? };
    let st = status_of(out);
    store(status, st);
    if out.truncated {
        return Err(truncated(&st, buf.len));
    }
    Ok(())
}

fn post(c: &Comm, source: c_int, tag: c_int) -> Result<Option<nexar::PendingRecv>> {
    let tag = recv_tag(tag)?;
    match recv_source(source, c.peer_count())? {
        None => Ok(None),
        Some(s) => Ok(Some(c.start_recv(s, tag)?)),
    }
}

fn send_impl(
    buf: *const c_void,
    n: MPI_Count,
    dt: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm_h: MPI_Comm,
) -> Result<()> {
    let c = comm(comm_h)?;
    send(&c, Buf::new(buf, n, dt, "send")?, dest, tag)
}

fn recv_impl(
    buf: *mut c_void,
    n: MPI_Count,
    dt: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm_h: MPI_Comm,
    status: *mut MPI_Status,
) -> Result<()> {
    let c = comm(comm_h)?;
    let tag = recv_tag(tag)?;
    let Some(source) = recv_source(source, c.peer_count())? else {
        // Nothing arrives from MPI_PROC_NULL: an empty receive needs no datatype (MPICH and
        // its test suite accept MPI_DATATYPE_NULL there); any other buffer is still checked.
        if !(n == 0 && dt == MPI_DATATYPE_NULL) {
            Buf::new(buf, n, dt, "receive")?;
        }
        store(status, MPI_Status::proc_null());
        return Ok(());
    };
    let b = Buf::new(buf, n, dt, "receive")?;
    // Nothing else to do meanwhile: the message is taken as it arrives, without posting.
    // SAFETY: `Buf::new` checked the buffer; writable per the MPI contract.
    unsafe { receive_into(b, status, |slice| c.recv_into_blocking(slice, source, tag)) }
}

#[allow(clippy::too_many_arguments)]
fn sendrecv_impl(
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
    status: *mut MPI_Status,
) -> Result<()> {
    let c = comm(comm_h)?;
    let sb = Buf::new(sbuf, sn, sdt, "send")?;
    let rb = Buf::new(rbuf, rn, rdt, "receive")?;
    // Post the receive first so a matching sendrecv on the peer cannot deadlock.
    let pending = post(&c, source, rtag)?;
    send(&c, sb, dest, stag)?;
    finish(pending, rb, status)
}

fn probe_status(st: nexar::Status) -> MPI_Status {
    MPI_Status::new(st.source as c_int, st.tag, st.bytes, MPI_SUCCESS)
}

mpi_fn! {
    /// Sends `count` elements to `dest` (returns once the data is copied and queued).
    fn MPI_Send(buf: *const c_void, n: c_int, dt: MPI_Datatype, dest: c_int, tag: c_int,
                comm_h: MPI_Comm) -> c_int => PMPI_Send {
        call("MPI_Send", comm_h, || send_impl(buf, count(n), dt, dest, tag, comm_h))
    }

    /// Large-count `MPI_Send`.
    fn MPI_Send_c(buf: *const c_void, n: MPI_Count, dt: MPI_Datatype, dest: c_int, tag: c_int,
                  comm_h: MPI_Comm) -> c_int => PMPI_Send_c {
        call("MPI_Send_c", comm_h, || send_impl(buf, n, dt, dest, tag, comm_h))
    }

    /// Receives into `buf` (at most `count` elements); `status` may be `MPI_STATUS_IGNORE`.
    fn MPI_Recv(buf: *mut c_void, n: c_int, dt: MPI_Datatype, source: c_int, tag: c_int,
                comm_h: MPI_Comm, status: *mut MPI_Status) -> c_int => PMPI_Recv {
        call("MPI_Recv", comm_h, || recv_impl(buf, count(n), dt, source, tag, comm_h, status))
    }

    /// Large-count `MPI_Recv`.
    fn MPI_Recv_c(buf: *mut c_void, n: MPI_Count, dt: MPI_Datatype, source: c_int, tag: c_int,
                  comm_h: MPI_Comm, status: *mut MPI_Status) -> c_int => PMPI_Recv_c {
        call("MPI_Recv_c", comm_h, || recv_impl(buf, n, dt, source, tag, comm_h, status))
    }

    /// Sends to `dest` and receives from `source` without deadlocking against the peer.
    fn MPI_Sendrecv(sendbuf: *const c_void, sendcount: c_int, sendtype: MPI_Datatype,
                    dest: c_int, sendtag: c_int, recvbuf: *mut c_void, recvcount: c_int,
                    recvtype: MPI_Datatype, source: c_int, recvtag: c_int, comm_h: MPI_Comm,
                    status: *mut MPI_Status) -> c_int => PMPI_Sendrecv {
        call("MPI_Sendrecv", comm_h, || sendrecv_impl(sendbuf, count(sendcount), sendtype, dest,
            sendtag, recvbuf, count(recvcount), recvtype, source, recvtag, comm_h, status))
    }

    /// Large-count `MPI_Sendrecv`.
    fn MPI_Sendrecv_c(sendbuf: *const c_void, sendcount: MPI_Count, sendtype: MPI_Datatype,
                      dest: c_int, sendtag: c_int, recvbuf: *mut c_void, recvcount: MPI_Count,
                      recvtype: MPI_Datatype, source: c_int, recvtag: c_int, comm_h: MPI_Comm,
                      status: *mut MPI_Status) -> c_int => PMPI_Sendrecv_c {
        call("MPI_Sendrecv_c", comm_h, || sendrecv_impl(sendbuf, sendcount, sendtype, dest,
            sendtag, recvbuf, recvcount, recvtype, source, recvtag, comm_h, status))
    }

    /// Waits for a matching message and describes it in `status` without receiving it.
    fn MPI_Probe(source: c_int, tag: c_int, comm_h: MPI_Comm, status: *mut MPI_Status) -> c_int
        => PMPI_Probe
    {
        call("MPI_Probe", comm_h, || {
            let c = comm(comm_h)?;
            let tag = recv_tag(tag)?;
            let Some(s) = recv_source(source, c.peer_count())? else {
                store(status, MPI_Status::proc_null());
                return Ok(());
            };
            let st = c.probe_blocking(s, tag)?;
            store(status, probe_status(st));
            Ok(())
        })
    }

    /// Sets `*flag` and describes the message in `status` if a matching one has arrived.
    fn MPI_Iprobe(source: c_int, tag: c_int, comm_h: MPI_Comm, flag: *mut c_int,
                  status: *mut MPI_Status) -> c_int => PMPI_Iprobe {
        call("MPI_Iprobe", comm_h, || {
            non_null(flag, "flag")?;
            let c = comm(comm_h)?;
            let tag = recv_tag(tag)?;
            let found = match recv_source(source, c.peer_count())? {
                None => Some(MPI_Status::proc_null()),
                Some(s) => c.iprobe(s, tag)?.map(probe_status),
            };
            if let Some(st) = found {
                store(status, st);
            }
            // SAFETY: checked for NULL.
            unsafe { flag.write(found.is_some() as c_int) };
            Ok(())
        })
    }
}
