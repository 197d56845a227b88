//! Vector and prefix collectives: gatherv, scatterv, allgatherv, alltoallv, reduce_scatter,
//! reduce_scatter_block, scan, exscan, each blocking (`MPI_X`) and non-blocking (`MPI_IX`),
//! with `int` counts and displacements or large-count `_c` ones (`MPI_Count` counts,
//! `MPI_Aint` displacements), over one implementation and the engine's `start_*`.
//!
//! Counts and displacements are in elements of the receive (or send) datatype, displacements
//! in units of its extent. Data moves packed (block `i` at `displs[i] * size` bytes), so send
//! and receive types need only matching signatures, and derived types unpack on completion.
//! Reductions run on the datatype's element type ([`crate::coll::reducers::builtin`]). Negative counts are `MPI_ERR_COUNT`; negative displacements are
//! not supported (`MPI_ERR_ARG`). `MPI_IN_PLACE` is accepted where the standard allows it.

use crate::args::{Buf, RecvTarget, count, in_place, root_rank};
use crate::coll::blocking::Complete;
use crate::coll::blocking::{dest_of, input_of, reduce_input, reduce_source, same_len};
use crate::coll::inter;
use crate::coll::op::op;
use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
use crate::request::table::MPI_Request;
use crate::state::comm;
use nexar::Datatype::U8;
use nexar::{Comm, Dest, Input, InterRoot, Mode, PendingCollective};
use std::ffi::{c_int, c_void};

/// An integer element of a count or displacement array.
pub trait ArrayInt: Copy {
    /// As a 64-bit value.
    fn wide(self) -> i64;
}

impl ArrayInt for c_int {
    fn wide(self) -> i64 {
        self as i64
    }
}

impl ArrayInt for i64 {
    fn wide(self) -> i64 {
        self
    }
}

impl ArrayInt for isize {
    fn wide(self) -> i64 {
        self as i64
    }
}

/// Reads `n` counts (`displs`: displacements) from the caller's array.
pub(crate) fn array<T: ArrayInt>(
    p: *const T,
    n: usize,
    what: &str,
    displs: bool,
) -> Result<Vec<usize>> {
    non_null(p, what)?;
    (0..n)
        .map(|i| {
            // SAFETY: checked for NULL; the array holds `n` entries per the MPI contract.
            let v = unsafe { p.add(i).read() }.wide();
            usize::try_from(v).map_err(|_| {
                if displs {
                    MpiError::new(
                        MPI_ERR_ARG,
                        format!("{what}[{i}] = {v}: negative displacements are not supported"),
                    )
                } else {
                    MpiError::new(MPI_ERR_COUNT, format!("{what}[{i}] = {v} is negative"))
                }
            })
        })
        .collect()
}

/// Elements spanned by blocks of `counts` at `displs`.
pub(crate) fn extent(counts: &[usize], displs: &[usize]) -> Result<MPI_Count> {
    counts
        .iter()
        .zip(displs)
        .try_fold(0usize, |m, (&c, &d)| d.checked_add(c).map(|e| m.max(e)))
        .and_then(|e| MPI_Count::try_from(e).ok())
        .ok_or_else(|| MpiError::new(MPI_ERR_COUNT, "counts and displacements overflow"))
}

/// Elements in all of `counts`.
fn total(counts: &[usize]) -> Result<MPI_Count> {
    counts
        .iter()
        .try_fold(0usize, |a, &c| a.checked_add(c))
        .and_then(|e| MPI_Count::try_from(e).ok())
        .ok_or_else(|| MpiError::new(MPI_ERR_COUNT, "counts overflow"))
}

/// `v * size` for each of `v` (counts or displacements in elements of a type of `size`
/// bytes), in bytes.
pub(crate) fn scaled(v: &[usize], size: usize) -> Result<Vec<usize>> {
    v.iter()
        .map(|&x| {
            x.checked_mul(size)
                .ok_or_else(|| MpiError::new(MPI_ERR_COUNT, "counts and displacements overflow"))
        })
        .collect()
}

/// The blocks `(first instance, instances, packed offset)` of counts at displacements.
pub(crate) fn blocks(
    counts: &[usize],
    displs: &[usize],
    size: usize,
) -> Vec<(isize, usize, usize)> {
    counts
        .iter()
        .zip(displs)
        .map(|(&c, &d)| (d as isize, c, d * size))
        .collect()
}

/// The packed form of `b` where block `i` (`counts[i]` instances at `displs[i]`) sits at
/// `displs[i] * size` (gaps zeroed; dense layouts are taken as they are).
pub(crate) fn pack_blocks(b: &Buf, counts: &[usize], displs: &[usize]) -> Result<Vec<u8>> {
    if b.is_dense() {
        // SAFETY: `Buf::new` checked the buffer; readable per the MPI contract.
        return Ok(unsafe { b.send_bytes()? }.into_owned());
    }
    let size = b.ty.size;
    let mut out = vec![0; b.len];
    for (&c, &d) in counts.iter().zip(displs) {
        // SAFETY: as above.
        let part = unsafe { b.sub(d, c).send_bytes()? };
        out[d * size..d * size + part.len()].copy_from_slice(&part);
    }
    Ok(out)
}

/// This rank's contribution to a gather: its block of `rb` in place, or the send buffer.
fn contribution(
    sbuf: *const c_void,
    sn: MPI_Count,
    st: MPI_Datatype,
    rb: &Buf,
    at: (usize, usize),
) -> Result<Vec<u8>> {
    let b = if in_place(sbuf) {
        rb.sub(at.0, at.1)
    } else {
        Buf::new(sbuf, sn, st, "send")?
    };
    // SAFETY: `Buf::new` checked the buffer; readable per the MPI contract.
    Ok(unsafe { b.send_bytes()? }.into_owned())
}

#[allow(clippy::too_many_arguments)]
fn gatherv<T: ArrayInt, D: ArrayInt>(
    sbuf: *const c_void,
    sn: MPI_Count,
    st: MPI_Datatype,
    rbuf: *mut c_void,
    rcounts: *const T,
    displs: *const D,
    rt: MPI_Datatype,
    root: Option<c_int>,
    c: &Comm,
) -> Result<PendingCollective> {
    if c.is_inter() {
        let role = root.map(|r| inter::role(r, c)).transpose()?;
        let arrays = if role.is_none_or(|r| r == InterRoot::Root) {
            let n = c.peer_count() as usize;
            let rc = array(rcounts, n, "recvcounts", false)?;
            Some((rc, array(displs, n, "displs", true)?))
        } else {
            None
        };
        return inter::gatherv(sbuf, sn, st, rbuf, arrays, rt, role, c);
    }
    let root = root.map(|r| root_rank(r, c.size())).transpose()?;
    let n = c.size() as usize;
    let me = c.rank() as usize;
    if let Some(r) = root.filter(|&r| r != c.rank()) {
        let sb = Buf::new(sbuf, sn, st, "send")?;
        // SAFETY: `Buf::new` checked the buffer; readable per the MPI contract.
        let p = c.start_gatherv(&unsafe { sb.send_bytes()? }, U8, &[], None, 0, r)?;
        return Ok(p.to(Dest::Nothing));
    }
    let rc = array(rcounts, n, "recvcounts", false)?;
    let d = array(displs, n, "displs", true)?;
    let rb = Buf::new(rbuf, extent(&rc, &d)?, rt, "receive")?;
    let size = rb.ty.size;
    let mine = contribution(sbuf, sn, st, &rb, (d[me], rc[me]))?;
    same_len(mine.len(), rc[me] * size)?;
    let (bc, bd) = (scaled(&rc, size)?, scaled(&d, size)?);
    let p = match root {
        Some(r) => c.start_gatherv(&mine, U8, &bc, Some(&bd), rb.len, r)?,
        None => c.start_allgatherv(&mine, U8, &bc, Some(&bd), rb.len)?,
    };
    let target = RecvTarget::blocks(&rb, blocks(&rc, &d, size), rb.len);
    Ok(p.to(Dest::Target(Box::new(target))))
}

#[allow(clippy::too_many_arguments)]
fn scatterv<T: ArrayInt, D: ArrayInt>(
    sbuf: *const c_void,
    scounts: *const T,
    displs: *const D,
    st: MPI_Datatype,
    rbuf: *mut c_void,
    rn: MPI_Count,
    rt: MPI_Datatype,
    root: c_int,
    c: &Comm,
) -> Result<PendingCollective> {
    if c.is_inter() {
        let role = inter::role(root, c)?;
        let arrays = if role == InterRoot::Root {
            let n = c.peer_count() as usize;
            let sc = array(scounts, n, "sendcounts", false)?;
            Some((sc, array(displs, n, "displs", true)?))
        } else {
            None
        };
        return inter::scatterv(sbuf, arrays, st, rbuf, rn, rt, role, c);
    }
    let root = root_rank(root, c.size())?;
    if root != c.rank() {
        let rb = Buf::new(rbuf, rn, rt, "receive")?;
        let p = c.start_scatterv(&[], U8, &[], None, rb.len, root)?;
        return Ok(p.to(dest_of(&rb)));
    }
    let n = c.size() as usize;
    let sc = array(scounts, n, "sendcounts", false)?;
    let d = array(displs, n, "displs", true)?;
    let sb = Buf::new(sbuf, extent(&sc, &d)?, st, "send")?;
    let size = sb.ty.size;
    let mine = sc[root as usize] * size;
    let rb = if in_place(rbuf) {
        None
    } else {
        let rb = Buf::new(rbuf, rn, rt, "receive")?;
        same_len(mine, rb.len)?;
        Some(rb)
    };
    let data = pack_blocks(&sb, &sc, &d)?;
    let (bc, bd) = (scaled(&sc, size)?, scaled(&d, size)?);
    let p = c.start_scatterv(&data, U8, &bc, Some(&bd), mine, root)?;
    Ok(p.to(match rb {
        Some(rb) => dest_of(&rb),
        None => Dest::Scratch(mine),
    }))
}

#[allow(clippy::too_many_arguments)]
fn alltoallv<T: ArrayInt, D: ArrayInt>(
    sbuf: *const c_void,
    scounts: *const T,
    sdispls: *const D,
    st: MPI_Datatype,
    rbuf: *mut c_void,
    rcounts: *const T,
    rdispls: *const D,
    rt: MPI_Datatype,
    c: &Comm,
) -> Result<PendingCollective> {
    // An intercommunicator's blocks go to and come from the remote group's ranks.
    let n = c.peer_count() as usize;
    let rc = array(rcounts, n, "recvcounts", false)?;
    let rd = array(rdispls, n, "rdispls", true)?;
    let rb = Buf::new(rbuf, extent(&rc, &rd)?, rt, "receive")?;
    let rsize = rb.ty.size;
    let (bsc, bsd, data) = if in_place(sbuf) {
        (
            scaled(&rc, rsize)?,
            scaled(&rd, rsize)?,
            pack_blocks(&rb, &rc, &rd)?,
        )
    } else {
        let sc = array(scounts, n, "sendcounts", false)?;
        let sd = array(sdispls, n, "sdispls", true)?;
        let sb = Buf::new(sbuf, extent(&sc, &sd)?, st, "send")?;
        let ssize = sb.ty.size;
        (
            scaled(&sc, ssize)?,
            scaled(&sd, ssize)?,
            pack_blocks(&sb, &sc, &sd)?,
        )
    };
    let (brc, brd) = (scaled(&rc, rsize)?, scaled(&rd, rsize)?);
    let p = c.start_alltoallv(&data, &bsc, Some(&bsd), U8, &brc, Some(&brd), rb.len)?;
    let target = RecvTarget::blocks(&rb, blocks(&rc, &rd, rsize), rb.len);
    Ok(p.to(Dest::Target(Box::new(target))))
}

/// A reduce_scatter; blocking calls with equal counts go through automatic NCCL routing in
/// `nccl` builds (the counts are the same on every rank, so is the choice).
fn reduce_scatter(
    sbuf: *const c_void,
    rbuf: *mut c_void,
    rc: Vec<usize>,
    dt: MPI_Datatype,
    o: MPI_Op,
    c: &Comm,
    mode: Mode,
) -> Result<PendingCollective> {
    let op = op(o)?;
    let all = total(&rc)?;
    let mine = rc[c.rank() as usize] as MPI_Count;
    if c.is_inter() {
        // Each group reduces the other's vectors of `all` elements (MPI_IN_PLACE is not
        // allowed on an intercommunicator).
        let (src, reducer, per) = reduce_source(sbuf, None, all, dt, op)?;
        reducer.check().map_err(nexar::Error::from)?;
        let rb = Buf::new(rbuf, mine, dt, "receive")?;
        // SAFETY: `Buf::new` checked the buffer; readable per the MPI contract.
        let send = unsafe { src.send_bytes()? }.into_owned();
        let p = c.start_inter_reduce_scatter(send, &scaled(&rc, per)?, reducer)?;
        return Ok(p.to(dest_of(&rb)));
    }
    let whole = if in_place(sbuf) {
        Some(Buf::new(rbuf, all, dt, "receive")?)
    } else {
        None
    };
    let (src, reducer, per) = reduce_source(sbuf, whole.as_ref(), all, dt, op)?;
    let rb = Buf::new(rbuf, mine, dt, "receive")?;
    // In place with a dense buffer, the engine reads every block from it and writes this
    // rank's at its start; otherwise the input is read where it is (dense) or packed.
    let (send, dest) = match &whole {
        Some(w) if w.is_dense() => (Input::InPlace, dest_of(w)),
        _ => (input_of(&src)?, dest_of(&rb)),
    };
    // The engine counts elements of the reducer: `per` of them in each datatype element.
    let counts = scaled(&rc, per)?;
    // SAFETY: checked buffers, left alone until the call completes.
    Ok(unsafe { c.start_reduce_scatter_to(send, dest, &counts, reducer, mode)? })
}

fn scan(
    sbuf: *const c_void,
    rbuf: *mut c_void,
    n: MPI_Count,
    dt: MPI_Datatype,
    o: MPI_Op,
    exclusive: bool,
    c: &Comm,
) -> Result<PendingCollective> {
    let op = op(o)?;
    let rb = Buf::new(rbuf, n, dt, "receive")?;
    let (data, reducer, _) = reduce_input(sbuf, Some(&rb), n, dt, op)?;
    let p = c.start_scan_with(&data, reducer, exclusive)?;
    if exclusive && c.rank() == 0 {
        // Rank 0's receive buffer is left untouched by an exclusive scan.
        return Ok(p.to(Dest::Scratch(rb.len)));
    }
    Ok(p.to(dest_of(&rb)))
}

fn rs_block(c: &Comm, n: MPI_Count) -> Result<Vec<usize>> {
    let n = usize::try_from(n)
        .map_err(|_| MpiError::new(MPI_ERR_COUNT, format!("recvcount {n} is negative")))?;
    Ok(vec![n; c.size() as usize])
}

/// Defines `MPI_X`, `MPI_X_c`, `MPI_IX`, `MPI_IX_c` (and their PMPI twins) over one
/// implementation yielding a started [`PendingCollective`]: `$cv` turns a count argument into `MPI_Count`.
macro_rules! coll_quad {
    ($(
        $(#[$doc:meta])*
        $name:ident / $pname:ident, $cname:ident / $pcname:ident,
        $iname:ident / $piname:ident, $icname:ident / $picname:ident
            ($($arg:ident: $ty:ty | $cty:ty),*)
            => |$c:ident, $cv:ident $(, $m:ident)?| $body:expr;
    )*) => {$(
        mpi_fn! {
            $(#[$doc])*
            fn $name($($arg: $ty,)* comm_h: MPI_Comm) -> c_int => $pname {
                call(stringify!($name), comm_h, || {
                    let $c = comm(comm_h)?;
                    let $cv = |n: c_int| count(n);
                    $(let $m = Mode::Blocking;)?
                    $body?.complete()
                })
            }

            #[doc = concat!("Large-count [`", stringify!($name), "`].")]
            fn $cname($($arg: $cty,)* comm_h: MPI_Comm) -> c_int => $pcname {
                call(stringify!($cname), comm_h, || {
                    let $c = comm(comm_h)?;
                    let $cv = |n: MPI_Count| n;
                    $(let $m = Mode::Blocking;)?
                    $body?.complete()
                })
            }

            #[doc = concat!("Non-blocking [`", stringify!($name), "`].")]
            fn $iname($($arg: $ty,)* comm_h: MPI_Comm, request: *mut MPI_Request) -> c_int
                => $piname
            {
                call(stringify!($iname), comm_h, || {
                    non_null(request, "request")?;
                    let $c = comm(comm_h)?;
                    let $cv = |n: c_int| count(n);
                    $(let $m = Mode::Request;)?
                    $body?.into_request(comm_h, request)
                })
            }

            #[doc = concat!("Large-count [`", stringify!($iname), "`].")]
            fn $icname($($arg: $cty,)* comm_h: MPI_Comm, request: *mut MPI_Request) -> c_int
                => $picname
            {
                call(stringify!($icname), comm_h, || {
                    non_null(request, "request")?;
                    let $c = comm(comm_h)?;
                    let $cv = |n: MPI_Count| n;
                    $(let $m = Mode::Request;)?
                    $body?.into_request(comm_h, request)
                })
            }
        }
    )*};
}

coll_quad! {
    /// Gathers blocks of `recvcounts[i]` elements at `displs[i]` to `root` (`sendbuf` may be
    /// `MPI_IN_PLACE` at the root).
    MPI_Gatherv / PMPI_Gatherv, MPI_Gatherv_c / PMPI_Gatherv_c,
    MPI_Igatherv / PMPI_Igatherv, MPI_Igatherv_c / PMPI_Igatherv_c
        (sendbuf: *const c_void | *const c_void, sendcount: c_int | MPI_Count,
         sendtype: MPI_Datatype | MPI_Datatype, recvbuf: *mut c_void | *mut c_void,
         recvcounts: *const c_int | *const MPI_Count, displs: *const c_int | *const MPI_Aint,
         recvtype: MPI_Datatype | MPI_Datatype, root: c_int | c_int)
        => |c, cv| gatherv(sendbuf, cv(sendcount), sendtype, recvbuf, recvcounts, displs,
                           recvtype, Some(root), &c);
    /// Gathers blocks of `recvcounts[i]` elements at `displs[i]` to every rank (`sendbuf` may
    /// be `MPI_IN_PLACE`).
    MPI_Allgatherv / PMPI_Allgatherv, MPI_Allgatherv_c / PMPI_Allgatherv_c,
    MPI_Iallgatherv / PMPI_Iallgatherv, MPI_Iallgatherv_c / PMPI_Iallgatherv_c
        (sendbuf: *const c_void | *const c_void, sendcount: c_int | MPI_Count,
         sendtype: MPI_Datatype | MPI_Datatype, recvbuf: *mut c_void | *mut c_void,
         recvcounts: *const c_int | *const MPI_Count, displs: *const c_int | *const MPI_Aint,
         recvtype: MPI_Datatype | MPI_Datatype)
        => |c, cv| gatherv(sendbuf, cv(sendcount), sendtype, recvbuf, recvcounts, displs,
                           recvtype, None, &c);
    /// Scatters blocks of `sendcounts[i]` elements at `displs[i]` from `root` (`recvbuf` may
    /// be `MPI_IN_PLACE` at the root).
    MPI_Scatterv / PMPI_Scatterv, MPI_Scatterv_c / PMPI_Scatterv_c,
    MPI_Iscatterv / PMPI_Iscatterv, MPI_Iscatterv_c / PMPI_Iscatterv_c
        (sendbuf: *const c_void | *const c_void, sendcounts: *const c_int | *const MPI_Count,
         displs: *const c_int | *const MPI_Aint, sendtype: MPI_Datatype | MPI_Datatype,
         recvbuf: *mut c_void | *mut c_void, recvcount: c_int | MPI_Count,
         recvtype: MPI_Datatype | MPI_Datatype, root: c_int | c_int)
        => |c, cv| scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, cv(recvcount),
                            recvtype, root, &c);
    /// Exchanges blocks of per-rank sizes and displacements between all ranks (`sendbuf` may
    /// be `MPI_IN_PLACE`).
    MPI_Alltoallv / PMPI_Alltoallv, MPI_Alltoallv_c / PMPI_Alltoallv_c,
    MPI_Ialltoallv / PMPI_Ialltoallv, MPI_Ialltoallv_c / PMPI_Ialltoallv_c
        (sendbuf: *const c_void | *const c_void, sendcounts: *const c_int | *const MPI_Count,
         sdispls: *const c_int | *const MPI_Aint, sendtype: MPI_Datatype | MPI_Datatype,
         recvbuf: *mut c_void | *mut c_void, recvcounts: *const c_int | *const MPI_Count,
         rdispls: *const c_int | *const MPI_Aint, recvtype: MPI_Datatype | MPI_Datatype)
        => |c, _cv| alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                              rdispls, recvtype, &c);
    /// Reduces element-wise and scatters block `i` (`recvcounts[i]` elements) to rank `i`
    /// (`sendbuf` may be `MPI_IN_PLACE`: the input is then in `recvbuf`).
    MPI_Reduce_scatter / PMPI_Reduce_scatter, MPI_Reduce_scatter_c / PMPI_Reduce_scatter_c,
    MPI_Ireduce_scatter / PMPI_Ireduce_scatter, MPI_Ireduce_scatter_c / PMPI_Ireduce_scatter_c
        (sendbuf: *const c_void | *const c_void, recvbuf: *mut c_void | *mut c_void,
         recvcounts: *const c_int | *const MPI_Count, dt: MPI_Datatype | MPI_Datatype,
         o: MPI_Op | MPI_Op)
        => |c, _cv, m| reduce_scatter(sendbuf, recvbuf,
                                      array(recvcounts, c.size() as usize, "recvcounts", false)?,
                                      dt, o, &c, m);
    /// Reduces element-wise and scatters equal blocks of `recvcount` elements.
    MPI_Reduce_scatter_block / PMPI_Reduce_scatter_block,
    MPI_Reduce_scatter_block_c / PMPI_Reduce_scatter_block_c,
    MPI_Ireduce_scatter_block / PMPI_Ireduce_scatter_block,
    MPI_Ireduce_scatter_block_c / PMPI_Ireduce_scatter_block_c
        (sendbuf: *const c_void | *const c_void, recvbuf: *mut c_void | *mut c_void,
         recvcount: c_int | MPI_Count, dt: MPI_Datatype | MPI_Datatype, o: MPI_Op | MPI_Op)
        => |c, cv, m| reduce_scatter(sendbuf, recvbuf, rs_block(&c, cv(recvcount))?, dt, o, &c,
                                     m);
    /// Inclusive prefix reduction over ranks `0..=rank` (`sendbuf` may be `MPI_IN_PLACE`).
    MPI_Scan / PMPI_Scan, MPI_Scan_c / PMPI_Scan_c,
    MPI_Iscan / PMPI_Iscan, MPI_Iscan_c / PMPI_Iscan_c
        (sendbuf: *const c_void | *const c_void, recvbuf: *mut c_void | *mut c_void,
         n: c_int | MPI_Count, dt: MPI_Datatype | MPI_Datatype, o: MPI_Op | MPI_Op)
        => |c, cv| scan(sendbuf, recvbuf, cv(n), dt, o, false, &c);
    /// Exclusive prefix reduction over ranks `0..rank` (`recvbuf` of rank 0 is untouched).
    MPI_Exscan / PMPI_Exscan, MPI_Exscan_c / PMPI_Exscan_c,
    MPI_Iexscan / PMPI_Iexscan, MPI_Iexscan_c / PMPI_Iexscan_c
        (sendbuf: *const c_void | *const c_void, recvbuf: *mut c_void | *mut c_void,
         n: c_int | MPI_Count, dt: MPI_Datatype | MPI_Datatype, o: MPI_Op | MPI_Op)
        => |c, cv| scan(sendbuf, recvbuf, cv(n), dt, o, true, &c);
}
