//! Collectives on an intercommunicator (MPI 4.1 §6.2.2): the argument rules of the two-group
//! forms over the engine's starts between the groups ([`nexar::Comm::start_inter_bcast`],
//! ...). [`crate::coll::blocking`]'s and [`crate::coll::vector`]'s starts hand an
//! intercommunicator here, so the blocking, non-blocking and persistent forms of these
//! collectives all work on one. Alltoallv and alltoallw need nothing here: their arrays count
//! the remote group ([`nexar::Comm::peer_count`]) and the engine's alltoallv runs between the
//! groups on an intercommunicator.
//!
//! Rooted calls: the root passes `MPI_ROOT`, the rest of its group `MPI_PROC_NULL`, and the
//! other group the root's rank in the root's group. Buffers count per remote process, as the
//! standard says (an allgather receives `recvcount` from each remote rank). Data moves packed,
//! so only type signatures must match.

use crate::args::Buf;
use crate::args::RecvTarget;
use crate::coll::blocking::{dest_of, reduce_source, times};
use crate::coll::op::OpSpec;
use crate::coll::vector::{blocks, extent, pack_blocks, scaled};
use crate::consts::*;
use crate::errors::report::{MpiError, Result};
use nexar::{Comm, Datatype, Dest, InterRoot, PendingCollective};
use std::ffi::{c_int, c_void};

/// A root argument on intercommunicator `c`.
pub(crate) fn role(root: c_int, c: &Comm) -> Result<InterRoot> {
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

/// `MPI_Gatherv` (`role` given) or `MPI_Allgatherv` on an intercommunicator; `arrays` (the
/// receive counts and displacements, one per remote rank) where this rank receives.
#[allow(clippy::too_many_arguments)]
pub fn gatherv(
    sbuf: *const c_void,
    sn: MPI_Count,
    st: MPI_Datatype,
    rbuf: *mut c_void,
    arrays: Option<(Vec<usize>, Vec<usize>)>,
    rt: MPI_Datatype,
    role: Option<InterRoot>,
    c: &Comm,
) -> Result<PendingCollective> {
    let send = match role {
        None | Some(InterRoot::Remote(_)) => packed(&Buf::new(sbuf, sn, st, "send")?)?,
        _ => Vec::new(),
    };
    let (Some((rc, d)), role) = (arrays, role) else {
        let role = role.unwrap_or(InterRoot::Idle);
        return Ok(c.start_inter_gatherv(send, Datatype::U8, &[], None, 0, role)?);
    };
    let rb = Buf::new(rbuf, extent(&rc, &d)?, rt, "receive")?;
    let size = rb.ty.size;
    let (bc, bd) = (scaled(&rc, size)?, scaled(&d, size)?);
    let p = match role {
        None => c.start_inter_allgatherv(send, Datatype::U8, &bc, Some(&bd), rb.len)?,
        Some(r) => c.start_inter_gatherv(send, Datatype::U8, &bc, Some(&bd), rb.len, r)?,
    };
    let target = RecvTarget::blocks(&rb, blocks(&rc, &d, size), rb.len);
    Ok(p.to(Dest::Target(Box::new(target))))
}

/// `MPI_Scatterv` on an intercommunicator; `arrays` (the send counts and displacements, one
/// per remote rank) at the root.
#[allow(clippy::too_many_arguments)]
pub fn scatterv(
    sbuf: *const c_void,
    arrays: Option<(Vec<usize>, Vec<usize>)>,
    st: MPI_Datatype,
    rbuf: *mut c_void,
    rn: MPI_Count,
    rt: MPI_Datatype,
    role: InterRoot,
    c: &Comm,
) -> Result<PendingCollective> {
    let u8 = Datatype::U8;
    Ok(match (role, arrays) {
        (InterRoot::Root, Some((sc, d))) => {
            let sb = Buf::new(sbuf, extent(&sc, &d)?, st, "send")?;
            let size = sb.ty.size;
            let data = pack_blocks(&sb, &sc, &d)?;
            let (bc, bd) = (scaled(&sc, size)?, scaled(&d, size)?);
            c.start_inter_scatterv(data, u8, &bc, Some(&bd), 0, role)?
        }
        (InterRoot::Remote(_), _) => {
            let rb = Buf::new(rbuf, rn, rt, "receive")?;
            c.start_inter_scatterv(Vec::new(), u8, &[], None, rb.len, role)?
                .to(dest_of(&rb))
        }
        _ => c.start_inter_scatterv(Vec::new(), u8, &[], None, 0, role)?,
    })
}
