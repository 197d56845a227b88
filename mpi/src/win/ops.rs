//! Data movement: `MPI_Put`, `MPI_Get`, `MPI_Accumulate`, `MPI_Get_accumulate`,
//! `MPI_Fetch_and_op`, `MPI_Compare_and_swap`, the request forms `MPI_Rput`, `MPI_Rget`,
//! `MPI_Raccumulate`, `MPI_Rget_accumulate`, and the `_c` large-count forms.
//!
//! The origin side moves packed (a derived origin datatype is packed before a put and
//! unpacked after a get); the target datatype becomes the byte runs the engine reads and
//! writes in the target's memory. Accumulates take the predefined operations (`MPI_REPLACE`
//! and `MPI_NO_OP` included) over the target datatype's element type; user operations are not
//! allowed there (MPI 4.1 §12.3.4). Every operation has completed when it returns, so the
//! request forms return requests that are already complete. `MPI_PROC_NULL` as the target
//! does nothing.

use super::{MPI_Win, call, win};
use crate::args::{Buf, count, dest_rank};
use crate::coll::op::OpSpec;
use crate::consts::*;
use crate::datatype::layout::Type;
use crate::errors::report::{MpiError, Result, non_null};
use crate::request::table::{MPI_Request, store_request};
use nexar::Reducer;
use nexar::rma::{Combine, Window};
use std::borrow::Cow;
use std::ffi::{c_int, c_void};
use std::sync::Arc;

/// `MPI_REPLACE` and `MPI_NO_OP`.
const MPI_REPLACE: MPI_Op = 0x3c;
const MPI_NO_OP: MPI_Op = 0x3d;

/// The target side of an operation: window, rank (`None`: `MPI_PROC_NULL`), displacement,
/// and the target datatype's byte runs and packed length.
struct Target {
    win: Window,
    rank: Option<u32>,
    disp: isize,
    ty: Arc<Type>,
    runs: Vec<(isize, usize)>,
    len: usize,
}

/// The byte runs of `count` instances of `ty`, adjacent runs merged.
fn runs_of(ty: &Type, count: usize) -> Vec<(isize, usize)> {
    let ext = ty.extent();
    if let Some(one) = ty.segs.single()
        && one.len as isize == ext
    {
        // Instances that tile: one run (a count of a predefined type, mostly).
        return if one.len * count == 0 {
            Vec::new()
        } else {
            vec![(one.off, one.len * count)]
        };
    }
    let mut v: Vec<(isize, usize)> =
        Vec::with_capacity(count.saturating_mul(ty.segs.len()).min(1 << 16));
    for k in 0..count {
        for s in ty.segs.iter() {
            let off = k as isize * ext + s.off;
            match v.last_mut() {
                Some(last) if last.0 + last.1 as isize == off => last.1 += s.len,
                _ if s.len > 0 => v.push((off, s.len)),
                _ => {}
            }
        }
    }
    v
}

fn target(
    h: MPI_Win,
    rank: c_int,
    disp: MPI_Aint,
    n: MPI_Count,
    dt: MPI_Datatype,
) -> Result<Target> {
    let win = win(h)?;
    let rank = dest_rank(rank, win.comm().size(), "target")?;
    if n < 0 {
        return Err(MpiError::new(
            MPI_ERR_COUNT,
            format!("target count {n} is negative"),
        ));
    }
    let ty = crate::datatype::registry::committed(dt)?;
    let len = crate::datatype::pack::packed_len(n, &ty, "target")?;
    let runs = if rank.is_some() {
        runs_of(&ty, n as usize)
    } else {
        Vec::new()
    };
    Ok(Target {
        win,
        rank,
        disp,
        ty,
        runs,
        len,
    })
}

/// The packed bytes of an origin buffer.
fn packed<'a>(b: &Buf) -> Result<Cow<'a, [u8]>> {
    // SAFETY: the MPI contract: the origin buffer is readable over its typemap.
    Ok(unsafe { b.send_bytes() }?)
}

fn check_sizes(origin: usize, t: &Target, what: &str) -> Result<()> {
    if origin != t.len {
        return Err(MpiError::new(
            MPI_ERR_TYPE,
            format!(
                "the {what} data ({origin} bytes) and the target data ({} bytes) have \
                 different type signatures",
                t.len
            ),
        ));
    }
    Ok(())
}

/// Runs `fill` on a packed buffer for `b` (the user's memory itself when dense), then unpacks
/// it into `b`.
fn deliver(b: &Buf, fill: impl FnOnce(&mut [u8]) -> Result<()>) -> Result<()> {
    if b.len == 0 {
        return fill(&mut []);
    }
    if b.is_dense() {
        // SAFETY: the MPI contract: the buffer is writable over its `len` packed bytes, which
        // are contiguous when dense; no one else uses it during the call.
        let dst = unsafe { std::slice::from_raw_parts_mut(b.ptr.cast_mut(), b.len) };
        return fill(dst);
    }
    let mut tmp = vec![0u8; b.len];
    fill(&mut tmp)?;
    // SAFETY: the MPI contract: the buffer is writable over its typemap.
    unsafe { crate::datatype::pack::unpack(&tmp, b.ptr as usize, b.count, &b.ty) };
    Ok(())
}

/// How an accumulate combines (`MPI_REPLACE`, `MPI_NO_OP` or a predefined reduction over the
/// target datatype's elements).
enum AccOp {
    Replace,
    NoOp,
    Reduce(Reducer),
}

fn acc_op(op: MPI_Op, t: &Target) -> Result<AccOp> {
    match op {
        MPI_REPLACE => Ok(AccOp::Replace),
        MPI_NO_OP => Ok(AccOp::NoOp),
        _ => match crate::coll::op::op(op)? {
            // No element to combine: any predefined op will do (mpi4py accumulates zero
            // MPI_BYTEs with MPI_SUM).
            OpSpec::Builtin(_) if t.len == 0 => Ok(AccOp::NoOp),
            OpSpec::Builtin(o) => Ok(AccOp::Reduce(crate::coll::reducers::builtin(
                o, &t.ty, t.len,
            )?)),
            OpSpec::User(_) => Err(MpiError::new(
                MPI_ERR_OP,
                "user-defined operations are not allowed in one-sided accumulates",
            )),
        },
    }
}

impl AccOp {
    fn combine(&self) -> Combine<'_> {
        match self {
            Self::Replace => Combine::Replace,
            Self::NoOp => Combine::NoOp,
            Self::Reduce(r) => Combine::Reduce(r),
        }
    }
}

/// The bytes of a contiguous access (the usual small put or get): the same count of the same
/// gap-free predefined type on both sides, at a non-NULL origin in host memory. `None` sends
/// the access down the general path, which also reports whatever is wrong with it.
fn contiguous(
    origin: *const c_void,
    ocount: MPI_Count,
    odt: MPI_Datatype,
    tcount: MPI_Count,
    tdt: MPI_Datatype,
) -> Option<usize> {
    if ocount != tcount || odt != tdt || ocount <= 0 || origin.is_null() {
        return None;
    }
    if origin as usize == MPI_IN_PLACE {
        return None;
    }
    let ty = crate::datatype::predefined::tiled(odt)?;
    let len = (ocount as usize)
        .checked_mul(ty.size)
        .filter(|&l| l <= isize::MAX as usize)?;
    if crate::device_buf::device_of(origin as usize, ty, ocount as usize).is_some() {
        return None;
    }
    Some(len)
}

#[allow(clippy::too_many_arguments)]
fn put(
    origin: *const c_void,
    ocount: MPI_Count,
    odt: MPI_Datatype,
    rank: c_int,
    disp: MPI_Aint,
    tcount: MPI_Count,
    tdt: MPI_Datatype,
    h: MPI_Win,
) -> Result<()> {
    if let Some(len) = contiguous(origin, ocount, odt, tcount, tdt) {
        let w = win(h)?;
        let Some(r) = dest_rank(rank, w.comm().size(), "target")? else {
            return Ok(());
        };
        // SAFETY: the MPI contract: `len` readable bytes at `origin` (dense, in host memory).
        let src = unsafe { std::slice::from_raw_parts(origin.cast::<u8>(), len) };
        return Ok(w.put(r, disp, &[(0, len)], src)?);
    }
    let t = target(h, rank, disp, tcount, tdt)?;
    let o = Buf::new(origin, ocount, odt, "origin")?;
    check_sizes(o.len, &t, "origin")?;
    let Some(r) = t.rank else { return Ok(()) };
    let src = packed(&o)?;
    Ok(t.win.put(r, t.disp, &t.runs, &src)?)
}

#[allow(clippy::too_many_arguments)]
fn get(
    origin: *mut c_void,
    ocount: MPI_Count,
    odt: MPI_Datatype,
    rank: c_int,
    disp: MPI_Aint,
    tcount: MPI_Count,
    tdt: MPI_Datatype,
    h: MPI_Win,
) -> Result<()> {
    if let Some(len) = contiguous(origin, ocount, odt, tcount, tdt) {
        let w = win(h)?;
        let Some(r) = dest_rank(rank, w.comm().size(), "target")? else {
            return Ok(());
        };
        // SAFETY: the MPI contract: `len` writable bytes at `origin` (dense, in host memory),
        // which nothing else uses during the call.
        let dst = unsafe { std::slice::from_raw_parts_mut(origin.cast::<u8>(), len) };
        return Ok(w.get(r, disp, &[(0, len)], dst)?);
    }
    let t = target(h, rank, disp, tcount, tdt)?;
    let o = Buf::new(origin, ocount, odt, "origin")?;
    check_sizes(o.len, &t, "origin")?;
    let Some(r) = t.rank else { return Ok(()) };
    deliver(&o, |dst| Ok(t.win.get(r, t.disp, &t.runs, dst)?))
}

/// Accumulate, with the fetch of `MPI_Get_accumulate` when `result` is given.
#[allow(clippy::too_many_arguments)]
fn accumulate(
    origin: *const c_void,
    ocount: MPI_Count,
    odt: MPI_Datatype,
    result: Option<(*mut c_void, MPI_Count, MPI_Datatype)>,
    rank: c_int,
    disp: MPI_Aint,
    tcount: MPI_Count,
    tdt: MPI_Datatype,
    op: MPI_Op,
    h: MPI_Win,
) -> Result<()> {
    if let Some(len) = contiguous(origin, ocount, odt, tcount, tdt)
        && let Some(ty) = crate::datatype::predefined::tiled(tdt)
        && result.is_none_or(|(p, n, dt)| contiguous(p, n, dt, tcount, tdt).is_some())
        && !(op == MPI_REPLACE || op == MPI_NO_OP)
        && let OpSpec::Builtin(o) = crate::coll::op::op(op)?
    {
        // The usual `MPI_Fetch_and_op` / `MPI_Accumulate` of a predefined type: no run list,
        // no packing, no staging.
        let red = crate::coll::reducers::builtin(o, ty, len)?;
        let w = win(h)?;
        let Some(r) = dest_rank(rank, w.comm().size(), "target")? else {
            return Ok(());
        };
        // SAFETY: the MPI contract: `len` readable bytes at `origin` (dense, in host memory,
        // checked by `contiguous`).
        let src = unsafe { std::slice::from_raw_parts(origin.cast::<u8>(), len) };
        let fetch = result.map(|(p, _, _)| {
            // SAFETY: likewise `len` writable bytes at the result, which MPI keeps apart from
            // the origin.
            unsafe { std::slice::from_raw_parts_mut(p.cast::<u8>(), len) }
        });
        return Ok(w.accumulate(r, disp, &[(0, len)], src, Combine::Reduce(&red), fetch)?);
    }
    let t = target(h, rank, disp, tcount, tdt)?;
    let how = acc_op(op, &t)?;
    // MPI_NO_OP ignores the origin buffer (it may be NULL).
    let src: Cow<'_, [u8]> = if matches!(how, AccOp::NoOp) {
        Cow::Borrowed(&[])
    } else {
        let o = Buf::new(origin, ocount, odt, "origin")?;
        check_sizes(o.len, &t, "origin")?;
        if t.rank.is_none() {
            return Ok(());
        }
        packed(&o)?
    };
    let res = match result {
        Some((p, n, dt)) => {
            let b = Buf::new(p, n, dt, "result")?;
            check_sizes(b.len, &t, "result")?;
            Some(b)
        }
        None => None,
    };
    let Some(r) = t.rank else { return Ok(()) };
    match res {
        Some(b) => deliver(&b, |dst| {
            Ok(t.win
                .accumulate(r, t.disp, &t.runs, &src, how.combine(), Some(dst))?)
        }),
        None => Ok(t
            .win
            .accumulate(r, t.disp, &t.runs, &src, how.combine(), None)?),
    }
}

/// Stores an already completed request in `*request`.
fn completed(request: *mut MPI_Request) -> Result<()> {
    non_null(request, "request")?;
    store_request(request, MPI_COMM_WORLD, nexar::Request::ready(Ok(None)))
}

mpi_fn! {
    /// Writes `origin_count` `origin_datatype` elements at `origin_addr` into rank
    /// `target_rank`'s window at `target_disp`, laid out as `target_count`
    /// `target_datatype`. Complete when it returns.
    fn MPI_Put(origin_addr: *const c_void, origin_count: c_int, origin_datatype: MPI_Datatype,
        target_rank: c_int, target_disp: MPI_Aint, target_count: c_int,
        target_datatype: MPI_Datatype, win: MPI_Win) -> c_int => PMPI_Put
    {
        call("MPI_Put", win, || put(origin_addr, count(origin_count), origin_datatype,
            target_rank, target_disp, count(target_count), target_datatype, win))
    }

    /// [`MPI_Put`] with large counts.
    fn MPI_Put_c(origin_addr: *const c_void, origin_count: MPI_Count,
        origin_datatype: MPI_Datatype, target_rank: c_int, target_disp: MPI_Aint,
        target_count: MPI_Count, target_datatype: MPI_Datatype, win: MPI_Win) -> c_int
        => PMPI_Put_c
    {
        call("MPI_Put_c", win, || put(origin_addr, origin_count, origin_datatype,
            target_rank, target_disp, target_count, target_datatype, win))
    }

    /// [`MPI_Put`] returning a (completed) request.
    fn MPI_Rput(origin_addr: *const c_void, origin_count: c_int, origin_datatype: MPI_Datatype,
        target_rank: c_int, target_disp: MPI_Aint, target_count: c_int,
        target_datatype: MPI_Datatype, win: MPI_Win, request: *mut MPI_Request) -> c_int
        => PMPI_Rput
    {
        call("MPI_Rput", win, || {
            non_null(request, "request")?;
            put(origin_addr, count(origin_count), origin_datatype, target_rank, target_disp,
                count(target_count), target_datatype, win)?;
            completed(request)
        })
    }

    /// [`MPI_Rput`] with large counts.
    fn MPI_Rput_c(origin_addr: *const c_void, origin_count: MPI_Count,
        origin_datatype: MPI_Datatype, target_rank: c_int, target_disp: MPI_Aint,
        target_count: MPI_Count, target_datatype: MPI_Datatype, win: MPI_Win,
        request: *mut MPI_Request) -> c_int => PMPI_Rput_c
    {
        call("MPI_Rput_c", win, || {
            non_null(request, "request")?;
            put(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                target_count, target_datatype, win)?;
            completed(request)
        })
    }

    /// Reads rank `target_rank`'s window at `target_disp` (laid out as `target_count`
    /// `target_datatype`) into `origin_addr`. Complete when it returns.
    fn MPI_Get(origin_addr: *mut c_void, origin_count: c_int, origin_datatype: MPI_Datatype,
        target_rank: c_int, target_disp: MPI_Aint, target_count: c_int,
        target_datatype: MPI_Datatype, win: MPI_Win) -> c_int => PMPI_Get
    {
        call("MPI_Get", win, || get(origin_addr, count(origin_count), origin_datatype,
            target_rank, target_disp, count(target_count), target_datatype, win))
    }

    /// [`MPI_Get`] with large counts.
    fn MPI_Get_c(origin_addr: *mut c_void, origin_count: MPI_Count,
        origin_datatype: MPI_Datatype, target_rank: c_int, target_disp: MPI_Aint,
        target_count: MPI_Count, target_datatype: MPI_Datatype, win: MPI_Win) -> c_int
        => PMPI_Get_c
    {
        call("MPI_Get_c", win, || get(origin_addr, origin_count, origin_datatype,
            target_rank, target_disp, target_count, target_datatype, win))
    }

    /// [`MPI_Get`] returning a (completed) request.
    fn MPI_Rget(origin_addr: *mut c_void, origin_count: c_int, origin_datatype: MPI_Datatype,
        target_rank: c_int, target_disp: MPI_Aint, target_count: c_int,
        target_datatype: MPI_Datatype, win: MPI_Win, request: *mut MPI_Request) -> c_int
        => PMPI_Rget
    {
        call("MPI_Rget", win, || {
            non_null(request, "request")?;
            get(origin_addr, count(origin_count), origin_datatype, target_rank, target_disp,
                count(target_count), target_datatype, win)?;
            completed(request)
        })
    }

    /// [`MPI_Rget`] with large counts.
    fn MPI_Rget_c(origin_addr: *mut c_void, origin_count: MPI_Count,
        origin_datatype: MPI_Datatype, target_rank: c_int, target_disp: MPI_Aint,
        target_count: MPI_Count, target_datatype: MPI_Datatype, win: MPI_Win,
        request: *mut MPI_Request) -> c_int => PMPI_Rget_c
    {
        call("MPI_Rget_c", win, || {
            non_null(request, "request")?;
            get(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                target_count, target_datatype, win)?;
            completed(request)
        })
    }

    /// Combines the origin data into rank `target_rank`'s window with `op` (a predefined
    /// operation, `MPI_REPLACE` or `MPI_NO_OP`), element-wise atomically with respect to every
    /// other accumulate on that rank.
    fn MPI_Accumulate(origin_addr: *const c_void, origin_count: c_int,
        origin_datatype: MPI_Datatype, target_rank: c_int, target_disp: MPI_Aint,
        target_count: c_int, target_datatype: MPI_Datatype, op: MPI_Op, win: MPI_Win) -> c_int
        => PMPI_Accumulate
    {
        call("MPI_Accumulate", win, || accumulate(origin_addr, count(origin_count),
            origin_datatype, None, target_rank, target_disp, count(target_count),
            target_datatype, op, win))
    }

    /// [`MPI_Accumulate`] with large counts.
    fn MPI_Accumulate_c(origin_addr: *const c_void, origin_count: MPI_Count,
        origin_datatype: MPI_Datatype, target_rank: c_int, target_disp: MPI_Aint,
        target_count: MPI_Count, target_datatype: MPI_Datatype, op: MPI_Op, win: MPI_Win)
        -> c_int => PMPI_Accumulate_c
    {
        call("MPI_Accumulate_c", win, || accumulate(origin_addr, origin_count,
            origin_datatype, None, target_rank, target_disp, target_count, target_datatype,
            op, win))
    }

    /// [`MPI_Accumulate`] returning a (completed) request.
    fn MPI_Raccumulate(origin_addr: *const c_void, origin_count: c_int,
        origin_datatype: MPI_Datatype, target_rank: c_int, target_disp: MPI_Aint,
        target_count: c_int, target_datatype: MPI_Datatype, op: MPI_Op, win: MPI_Win,
        request: *mut MPI_Request) -> c_int => PMPI_Raccumulate
    {
        call("MPI_Raccumulate", win, || {
            non_null(request, "request")?;
            accumulate(origin_addr, count(origin_count), origin_datatype, None, target_rank,
                target_disp, count(target_count), target_datatype, op, win)?;
            completed(request)
        })
    }

    /// [`MPI_Raccumulate`] with large counts.
    fn MPI_Raccumulate_c(origin_addr: *const c_void, origin_count: MPI_Count,
        origin_datatype: MPI_Datatype, target_rank: c_int, target_disp: MPI_Aint,
        target_count: MPI_Count, target_datatype: MPI_Datatype, op: MPI_Op, win: MPI_Win,
        request: *mut MPI_Request) -> c_int => PMPI_Raccumulate_c
    {
        call("MPI_Raccumulate_c", win, || {
            non_null(request, "request")?;
            accumulate(origin_addr, origin_count, origin_datatype, None, target_rank,
                target_disp, target_count, target_datatype, op, win)?;
            completed(request)
        })
    }

    /// Fetches the target data into `result_addr`, then combines the origin data into it
    /// (one atomic step with respect to other accumulates on that rank).
    fn MPI_Get_accumulate(origin_addr: *const c_void, origin_count: c_int,
        origin_datatype: MPI_Datatype, result_addr: *mut c_void, result_count: c_int,
        result_datatype: MPI_Datatype, target_rank: c_int, target_disp: MPI_Aint,
        target_count: c_int, target_datatype: MPI_Datatype, op: MPI_Op, win: MPI_Win) -> c_int
        => PMPI_Get_accumulate
    {
        call("MPI_Get_accumulate", win, || accumulate(origin_addr, count(origin_count),
            origin_datatype, Some((result_addr, count(result_count), result_datatype)),
            target_rank, target_disp, count(target_count), target_datatype, op, win))
    }

    /// [`MPI_Get_accumulate`] with large counts.
    fn MPI_Get_accumulate_c(origin_addr: *const c_void, origin_count: MPI_Count,
        origin_datatype: MPI_Datatype, result_addr: *mut c_void, result_count: MPI_Count,
        result_datatype: MPI_Datatype, target_rank: c_int, target_disp: MPI_Aint,
        target_count: MPI_Count, target_datatype: MPI_Datatype, op: MPI_Op, win: MPI_Win)
        -> c_int => PMPI_Get_accumulate_c
    {
        call("MPI_Get_accumulate_c", win, || accumulate(origin_addr, origin_count,
            origin_datatype, Some((result_addr, result_count, result_datatype)), target_rank,
            target_disp, target_count, target_datatype, op, win))
    }

    /// [`MPI_Get_accumulate`] returning a (completed) request.
    fn MPI_Rget_accumulate(origin_addr: *const c_void, origin_count: c_int,
        origin_datatype: MPI_Datatype, result_addr: *mut c_void, result_count: c_int,
        result_datatype: MPI_Datatype, target_rank: c_int, target_disp: MPI_Aint,
        target_count: c_int, target_datatype: MPI_Datatype, op: MPI_Op, win: MPI_Win,
        request: *mut MPI_Request) -> c_int => PMPI_Rget_accumulate
    {
        call("MPI_Rget_accumulate", win, || {
            non_null(request, "request")?;
            accumulate(origin_addr, count(origin_count), origin_datatype,
                Some((result_addr, count(result_count), result_datatype)), target_rank,
                target_disp, count(target_count), target_datatype, op, win)?;
            completed(request)
        })
    }

    /// [`MPI_Rget_accumulate`] with large counts.
    fn MPI_Rget_accumulate_c(origin_addr: *const c_void, origin_count: MPI_Count,
        origin_datatype: MPI_Datatype, result_addr: *mut c_void, result_count: MPI_Count,
        result_datatype: MPI_Datatype, target_rank: c_int, target_disp: MPI_Aint,
        target_count: MPI_Count, target_datatype: MPI_Datatype, op: MPI_Op, win: MPI_Win,
        request: *mut MPI_Request) -> c_int => PMPI_Rget_accumulate_c
    {
        call("MPI_Rget_accumulate_c", win, || {
            non_null(request, "request")?;
            accumulate(origin_addr, origin_count, origin_datatype,
                Some((result_addr, result_count, result_datatype)), target_rank, target_disp,
                target_count, target_datatype, op, win)?;
            completed(request)
        })
    }

    /// [`MPI_Get_accumulate`] of one `datatype` element.
    fn MPI_Fetch_and_op(origin_addr: *const c_void, result_addr: *mut c_void,
        datatype: MPI_Datatype, target_rank: c_int, target_disp: MPI_Aint, op: MPI_Op,
        win: MPI_Win) -> c_int => PMPI_Fetch_and_op
    {
        call("MPI_Fetch_and_op", win, || accumulate(origin_addr, 1, datatype,
            Some((result_addr, 1, datatype)), target_rank, target_disp, 1, datatype, op, win))
    }

    /// Replaces one `datatype` element of rank `target_rank`'s window with `*origin_addr` if
    /// it equals `*compare_addr`; `*result_addr` receives the old value. Atomic with respect
    /// to accumulates on that rank.
    fn MPI_Compare_and_swap(origin_addr: *const c_void, compare_addr: *const c_void,
        result_addr: *mut c_void, datatype: MPI_Datatype, target_rank: c_int,
        target_disp: MPI_Aint, win: MPI_Win) -> c_int => PMPI_Compare_and_swap
    {
        call("MPI_Compare_and_swap", win, || {
            let t = target(win, target_rank, target_disp, 1, datatype)?;
            let o = Buf::new(origin_addr, 1, datatype, "origin")?;
            let c = Buf::new(compare_addr, 1, datatype, "compare")?;
            let res = Buf::new(result_addr, 1, datatype, "result")?;
            let Some(r) = t.rank else { return Ok(()) };
            let (src, cmp) = (packed(&o)?, packed(&c)?);
            deliver(&res, |dst| Ok(t.win.compare_and_swap(r, t.disp, &src, &cmp, dst)?))
        })
    }
}
