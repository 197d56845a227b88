//! Matched probes: `MPI_Mprobe`, `MPI_Improbe`, `MPI_Mrecv`, `MPI_Imrecv` (and `_c` forms).
//!
//! A matched probe takes the message out of the matching queue (no other receive or probe can
//! see it) and returns an `MPI_Message` handle that owns it; `MPI_Mrecv` / `MPI_Imrecv` copy it
//! into the buffer and set the handle to `MPI_MESSAGE_NULL`. The message is already here, so
//! `MPI_Imrecv`'s request is complete at once. A probe of `MPI_PROC_NULL` returns
//! `MPI_MESSAGE_NO_PROC`, whose receive completes at once with the `MPI_PROC_NULL` status.

use crate::args::{Buf, count, recv_source, recv_tag};
use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
use crate::request::status::{MPI_Status, store, truncated};
use crate::request::table::{MPI_Request, store_request};
use crate::state::comm;
use crate::table::{Table, USER_HANDLES};
use parking_lot::Mutex;
use std::ffi::{c_int, c_void};

/// The standard ABI's `MPI_Message` (a pointer-sized handle).
pub type MPI_Message = usize;

/// `MPI_MESSAGE_NO_PROC` of `mpi.h`.
pub const MPI_MESSAGE_NO_PROC: MPI_Message = 0x129;

/// A matched message and the communicator it arrived on (whose error handler reports errors).
struct Held {
    msg: nexar::Message,
    comm: MPI_Comm,
}

static MESSAGES: Mutex<Table<Held>> = Mutex::new(Table::new(USER_HANDLES));

/// Whether `h` is a matched message not yet received (for `MPI_Message_fromint`).
pub fn is_live(h: MPI_Message) -> bool {
    MESSAGES.lock().get(h).is_some()
}

fn status_of(st: nexar::Status, err: c_int) -> MPI_Status {
    MPI_Status::new(st.source as c_int, st.tag, st.bytes, err)
}

/// Registers `msg`, writes its handle to `*message` and its status to `status`.
fn hand_out(
    msg: nexar::Message,
    comm_h: MPI_Comm,
    message: *mut MPI_Message,
    status: *mut MPI_Status,
) -> Result<()> {
    let st = status_of(msg.status(), MPI_SUCCESS);
    let h = MESSAGES
        .lock()
        .insert(Held { msg, comm: comm_h })
        .ok_or_else(|| MpiError::new(MPI_ERR_NO_MEM, "too many matched messages"))?;
    // SAFETY: checked for NULL by the caller; writable per the MPI contract.
    unsafe { message.write(h) };
    store(status, st);
    Ok(())
}

fn no_proc(message: *mut MPI_Message, status: *mut MPI_Status) {
    // SAFETY: checked for NULL by the caller; writable per the MPI contract.
    unsafe { message.write(MPI_MESSAGE_NO_PROC) };
    store(status, MPI_Status::proc_null());
}

fn mprobe(
    source: c_int,
    tag: c_int,
    comm_h: MPI_Comm,
    message: *mut MPI_Message,
    status: *mut MPI_Status,
) -> Result<()> {
    non_null(message, "message")?;
    let c = comm(comm_h)?;
    let tag = recv_tag(tag)?;
    let Some(s) = recv_source(source, c.peer_count())? else {
        no_proc(message, status);
        return Ok(());
    };
    let msg = c.mprobe_blocking(s, tag)?;
    hand_out(msg, comm_h, message, status)
}

fn improbe(
    source: c_int,
    tag: c_int,
    comm_h: MPI_Comm,
    flag: *mut c_int,
    message: *mut MPI_Message,
    status: *mut MPI_Status,
) -> Result<()> {
    non_null(flag, "flag")?;
    non_null(message, "message")?;
    let c = comm(comm_h)?;
    let tag = recv_tag(tag)?;
    let found = match recv_source(source, c.peer_count())? {
        None => {
            no_proc(message, status);
            true
        }
        Some(s) => match c.improbe(s, tag)? {
            Some(msg) => {
                hand_out(msg, comm_h, message, status)?;
                true
            }
            None => false,
        },
    };
    // SAFETY: checked for NULL.
    unsafe { flag.write(found as c_int) };
    Ok(())
}

/// The communicator of message handle `*message` (for error reporting).
fn comm_at(message: *const MPI_Message) -> MPI_Comm {
    if message.is_null() {
        return MPI_COMM_WORLD;
    }
    // SAFETY: not NULL; readable per the MPI contract.
    let h = unsafe { message.read() };
    MESSAGES.lock().get(h).map_or(MPI_COMM_WORLD, |m| m.comm)
}

/// Receives the message `*message` into `buf` (checked first, so a bad buffer leaves the
/// message in place), sets the handle to `MPI_MESSAGE_NULL` and returns the status.
fn receive(
    buf: *mut c_void,
    n: MPI_Count,
    dt: MPI_Datatype,
    message: *mut MPI_Message,
) -> Result<MPI_Status> {
    non_null(message, "message")?;
    let b = Buf::new(buf, n, dt, "receive")?;
    // SAFETY: checked for NULL; readable per the MPI contract.
    let h = unsafe { message.read() };
    let held = match h {
        MPI_MESSAGE_NO_PROC => None,
        MPI_MESSAGE_NULL => {
            return Err(MpiError::new(
                MPI_ERR_REQUEST,
                "message is MPI_MESSAGE_NULL (already received, or no matched probe)",
            ));
        }
        h => Some(MESSAGES.lock().remove(h).ok_or_else(|| {
            MpiError::new(
                MPI_ERR_REQUEST,
                format!("invalid or received message {h:#x}"),
            )
        })?),
    };
    // SAFETY: checked for NULL; writable per the MPI contract.
    unsafe { message.write(MPI_MESSAGE_NULL) };
    let Some(held) = held else {
        return Ok(MPI_Status::proc_null());
    };
    let mut target = b.recv_target();
    // SAFETY: `Buf::new` checked the buffer; writable per the MPI contract.
    let o = held.msg.recv_into(unsafe { target.slice() });
    // SAFETY: as above; a derived layout is unpacked here.
    unsafe { target.finish(o.status.bytes)? };
    let err = if o.truncated {
        MPI_ERR_TRUNCATE
    } else {
        MPI_SUCCESS
    };
    Ok(status_of(o.status, err))
}

fn mrecv(
    buf: *mut c_void,
    n: MPI_Count,
    dt: MPI_Datatype,
    message: *mut MPI_Message,
    status: *mut MPI_Status,
) -> Result<()> {
    let st = receive(buf, n, dt, message)?;
    store(status, st);
    if st.MPI_ERROR == MPI_ERR_TRUNCATE {
        // The buffer was checked by `receive`, so this recomputes its size.
        let b = Buf::new(buf, n, dt, "receive")?;
        return Err(truncated(&st, b.len));
    }
    Ok(())
}

fn imrecv(
    buf: *mut c_void,
    n: MPI_Count,
    dt: MPI_Datatype,
    message: *mut MPI_Message,
    request: *mut MPI_Request,
) -> Result<()> {
    non_null(request, "request")?;
    let comm_h = comm_at(message);
    let st = receive(buf, n, dt, message)?;
    // A truncation is reported when the request completes (its status's MPI_ERROR).
    store_request(request, comm_h, nexar::Request::ready(Ok(Some(st))))
}

mpi_fn! {
    /// Waits for a matching message, takes it out of the matching queue and returns a handle
    /// to it in `*message` (`MPI_MESSAGE_NO_PROC` for `MPI_PROC_NULL`).
    fn MPI_Mprobe(source: c_int, tag: c_int, comm_h: MPI_Comm, message: *mut MPI_Message,
                  status: *mut MPI_Status) -> c_int => PMPI_Mprobe {
        call("MPI_Mprobe", comm_h, || mprobe(source, tag, comm_h, message, status))
    }

    /// `MPI_Mprobe` that does not wait: `*flag` says whether a message was taken.
    fn MPI_Improbe(source: c_int, tag: c_int, comm_h: MPI_Comm, flag: *mut c_int,
                   message: *mut MPI_Message, status: *mut MPI_Status) -> c_int => PMPI_Improbe {
        call("MPI_Improbe", comm_h, || improbe(source, tag, comm_h, flag, message, status))
    }

    /// Receives the matched message `*message` and sets it to `MPI_MESSAGE_NULL`.
    fn MPI_Mrecv(buf: *mut c_void, n: c_int, dt: MPI_Datatype, message: *mut MPI_Message,
                 status: *mut MPI_Status) -> c_int => PMPI_Mrecv {
        call("MPI_Mrecv", comm_at(message), || mrecv(buf, count(n), dt, message, status))
    }

    /// Large-count `MPI_Mrecv`.
    fn MPI_Mrecv_c(buf: *mut c_void, n: MPI_Count, dt: MPI_Datatype, message: *mut MPI_Message,
                   status: *mut MPI_Status) -> c_int => PMPI_Mrecv_c {
        call("MPI_Mrecv_c", comm_at(message), || mrecv(buf, n, dt, message, status))
    }

    /// Non-blocking `MPI_Mrecv` (the data is already here: the request is complete at once).
    fn MPI_Imrecv(buf: *mut c_void, n: c_int, dt: MPI_Datatype, message: *mut MPI_Message,
                  request: *mut MPI_Request) -> c_int => PMPI_Imrecv {
        call("MPI_Imrecv", comm_at(message), || imrecv(buf, count(n), dt, message, request))
    }

    /// Large-count `MPI_Imrecv`.
    fn MPI_Imrecv_c(buf: *mut c_void, n: MPI_Count, dt: MPI_Datatype, message: *mut MPI_Message,
                    request: *mut MPI_Request) -> c_int => PMPI_Imrecv_c {
        call("MPI_Imrecv_c", comm_at(message), || imrecv(buf, n, dt, message, request))
    }
}
