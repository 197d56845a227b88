//! Collectives on an intercommunicator (MPI 4.1 §6.2.2): the argument rules of the two-group
//! forms over the engine's starts between the groups ([`nexar::Comm::start_inter_bcast`],
//! ...). [`crate::coll::blocking`]'s starts hand an intercommunicator here, so the blocking,
//! non-blocking and persistent forms of these collectives all work on one.
//!
//! Rooted calls: the root passes `MPI_ROOT`, the rest of its group `MPI_PROC_NULL`, and the
//! other group the root's rank in the root's group. Buffers count per remote process, as the
//! standard says (an allgather receives `recvcount` from each remote rank). Data moves packed,
//! so only type signatures must match.

use crate::args::Buf;
use crate::coll::blocking::{dest_of, reduce_source, times};
use crate::coll::op::OpSpec;
use crate::consts::*;
use crate::errors::report::{MpiError, Result};
use nexar::{Comm, InterRoot, PendingCollective};
use std::ffi::{c_int, c_void};

/// A root argument on intercommunicator `c`.
fn role(root: c_int, c: &Comm) -> Result<InterRoot> {
    let remote = c.remote_size().unwrap_or(0);
    match root {
        MPI_ROOT => Ok(InterRoot::Root),
        MPI_PROC_NULL => Ok(InterRoot::Idle),
        r if r >= 0 && (r as u32) < remote => Ok(InterRoot::Remote(r as u32)),
        r => Err(MpiError::new(
            MPI_ERR_ROOT,
            format!(
                "root {r} is not MPI_ROOT, MPI_PROC_NULL or a rank of the remote group (size {remote})"
            ),
        )),
    }
}

/// The packed bytes of `b`.
fn packed(b: &Buf) -> Result<Vec<u8>> {
    // SAFETY: `Buf::new` checked the buffer; readable per the MPI contract.
    Ok(unsafe { b.send_bytes()? }.into_owned())
}

/// The remote group's size, to count whole-remote-group buffers.
fn remote(c: &Comm) -> u32 {
    c.remote_size().unwrap_or(0)
}

/// `MPI_Bcast` on an intercommunicator.
pub fn bcast(
    buf: *mut c_void,
    n: MPI_Count,
    dt: MPI_Datatype,
    root: c_int,
    c: &Comm,
) -> Result<PendingCollective> {
    let role = role(root, c)?;
    Ok(match role {
        InterRoot::Root => {
            let b = Buf::new(buf, n, dt, "broadcast")?;
            c.start_inter_bcast(packed(&b)?, 0, role)?
        }
        InterRoot::Idle => c.start_inter_bcast(Vec::new(), 0, role)?,
        InterRoot::Remote(_) => {
            let b = Buf::new(buf, n, dt, "broadcast")?;
            c.start_inter_bcast(Vec::new(), b.len, role)?
                .to(dest_of(&b))
        }
    })
}

/// `MPI_Reduce` (`root` given) or `MPI_Allreduce` on an intercommunicator.
pub fn reduce(
    sbuf: *const c_void,
    rbuf: *mut c_void,
    n: MPI_Count,
    dt: MPI_Datatype,
    op: OpSpec,
    root: Option<c_int>,
    c: &Comm,
) -> Result<PendingCollective> {
    let Some(root) = root else {
        let rb = Buf::new(rbuf, n, dt, "receive")?;
        let (b, reducer, _) = reduce_source(sbuf, Some(&rb), n, dt, op)?;
        reducer.check().map_err(nexar::Error::from)?;
        return Ok(c
            .start_inter_allreduce(packed(&b)?, reducer)?
            .to(dest_of(&rb)));
    };
    let role = role(root, c)?;
    Ok(match role {
        InterRoot::Root => {
            let rb = Buf::new(rbuf, n, dt, "receive")?;
            c.start_inter_reduce(Vec::new(), rb.len, None, role)?
                .to(dest_of(&rb))
        }
        InterRoot::Idle => c.start_inter_reduce(Vec::new(), 0, None, role)?,
        InterRoot::Remote(_) => {
            let (b, reducer, _) = reduce_source(sbuf, None, n, dt, op)?;
            reducer.check().map_err(nexar::Error::from)?;
            let send = packed(&b)?;
            let len = send.len();
            c.start_inter_reduce(send, len, Some(reducer), role)?
        }
    })
}

/// `MPI_Gather` (`root` given) or `MPI_Allgather` on an intercommunicator.
#[allow(clippy::too_many_arguments)]
pub fn gather(
    sbuf: *const c_void,
    sn: MPI_Count,
    st: MPI_Datatype,
    rbuf: *mut c_void,
    rn: MPI_Count,
    rt: MPI_Datatype,
    root: Option<c_int>,
    c: &Comm,
) -> Result<PendingCollective> {
    let Some(root) = root else {
        let rb = Buf::new(rbuf, times(rn, remote(c))?, rt, "receive")?;
        let sb = Buf::new(sbuf, sn, st, "send")?;
        return Ok(c
            .start_inter_allgather(packed(&sb)?, rb.len)?
            .to(dest_of(&rb)));
    };
    let role = role(root, c)?;
    Ok(match role {
        InterRoot::Root => {
            let rb = Buf::new(rbuf, times(rn, remote(c))?, rt, "receive")?;
            c.start_inter_gather(Vec::new(), rb.len, role)?
                .to(dest_of(&rb))
        }
        InterRoot::Idle => c.start_inter_gather(Vec::new(), 0, role)?,
        InterRoot::Remote(_) => {
            let sb = Buf::new(sbuf, sn, st, "send")?;
            c.start_inter_gather(packed(&sb)?, 0, role)?
        }
    })
}

/// `MPI_Scatter` on an intercommunicator.
#[allow(clippy::too_many_arguments)]
pub fn scatter(
    sbuf: *const c_void,
    sn: MPI_Count,
    st: MPI_Datatype,
    rbuf: *mut c_void,
    rn: MPI_Count,
    rt: MPI_Datatype,
    root: c_int,
    c: &Comm,
) -> Result<PendingCollective> {
    let role = role(root, c)?;
    Ok(match role {
        InterRoot::Root => {
            let sb = Buf::new(sbuf, times(sn, remote(c))?, st, "send")?;
            c.start_inter_scatter(packed(&sb)?, 0, role)?
        }
        InterRoot::Idle => c.start_inter_scatter(Vec::new(), 0, role)?,
        InterRoot::Remote(_) => {
            let rb = Buf::new(rbuf, rn, rt, "receive")?;
            c.start_inter_scatter(Vec::new(), rb.len, role)?
                .to(dest_of(&rb))
        }
    })
}

/// `MPI_Alltoall` on an intercommunicator (`MPI_IN_PLACE` is not allowed on one).
#[allow(clippy::too_many_arguments)]
pub fn alltoall(
    sbuf: *const c_void,
    sn: MPI_Count,
    st: MPI_Datatype,
    rbuf: *mut c_void,
    rn: MPI_Count,
    rt: MPI_Datatype,
    c: &Comm,
) -> Result<PendingCollective> {
    if crate::args::in_place(sbuf) {
        return Err(MpiError::new(
            MPI_ERR_ARG,
            "MPI_IN_PLACE is not allowed in an alltoall on an intercommunicator",
        ));
    }
    let rb = Buf::new(rbuf, times(rn, remote(c))?, rt, "receive")?;
    let sb = Buf::new(sbuf, times(sn, remote(c))?, st, "send")?;
    Ok(c.start_inter_alltoall(packed(&sb)?, rb.len)?
        .to(dest_of(&rb)))
}
