//! Argument handling for the collective entry points. Each function here validates the C
//! arguments, resolves `NEXAR_IN_PLACE`, and starts the collective in the engine with its
//! destination (the engine copies the input and takes the collective's place in the
//! communicator's order). The blocking entry points then wait on it
//! ([`PendingCollective::wait`]) and the `nexar_i*` ones make it a request
//! ([`crate::request::into_request`]).
//!
//! The four collectives NCCL has take the engine's raw starts with a [`Mode`]: for a blocking
//! call the engine's plan may send it through NCCL (`nccl` builds), after every argument check
//! here, so bad arguments give the same errors with or without the feature.

use crate::buffers::{byte_len, check_output, counts, disjoint, input, is_in_place, output};
use crate::lifecycle::comm;
use crate::types::{datatype, nexar_comm_t, nexar_datatype_t, nexar_op_t, op};
use args::{counts_and_displs, extent, input_not_aliased, input_or_in_place, own_block, root_arg};
use nexar::{Dest, Error, ErrorKind, Input, Mode, PendingCollective, Reducer, Result};
use std::ffi::c_void;

mod args;

/// `p` with the caller's `out` as its destination.
fn into(p: PendingCollective, out: &mut [u8]) -> PendingCollective {
    // SAFETY: the C contract: the buffer stays valid, and untouched by the caller, until the
    // blocking call returns or its request completes.
    p.to(unsafe { Dest::caller(out.as_mut_ptr(), out.len()) })
}

/// `send` as the engine's input for a `mode` call: a blocking call's input is read where it
/// is, a request's is copied at once (the caller may reuse it as soon as the call returns).
fn source(send: *const c_void, mode: Mode) -> Input {
    match (is_in_place(send), mode) {
        (true, _) => Input::InPlace,
        (false, Mode::Blocking) => Input::Borrowed(send.cast()),
        (false, Mode::Request) => Input::Copied(send.cast()),
    }
}

/// The caller's `len` bytes at `recv` as the destination.
///
/// # Safety
/// The C contract: `recv` stays valid for `len` bytes, untouched by the caller, until the
/// blocking call returns or its request completes.
unsafe fn caller(recv: *mut c_void, len: usize) -> Dest {
    // SAFETY: per this function's contract.
    unsafe { Dest::caller(recv.cast(), len) }
}

/// Starts a barrier.
pub fn barrier(comm_h: nexar_comm_t, mode: Mode) -> Result<PendingCollective> {
    comm(comm_h)?.start_barrier_to(mode)
}

/// Starts a broadcast.
pub fn bcast(
    buf: *mut c_void,
    count: usize,
    dt: nexar_datatype_t,
    root: i32,
    comm_h: nexar_comm_t,
    mode: Mode,
) -> Result<PendingCollective> {
    let dt = datatype(dt)?;
    let c = comm(comm_h)?;
    // SAFETY: `buf` holds `count` elements per the C contract.
    let b = unsafe { output(buf, byte_len(count, dt)?, "buf")? };
    let root = root_arg(root)?;
    let (ptr, len) = (b.as_mut_ptr(), b.len());
    // SAFETY: `b` is the caller's checked buffer, left alone until the call completes.
    unsafe { c.start_bcast_to(Input::InPlace, Dest::caller(ptr, len), len, root, mode) }
}

/// Starts a reduce.
#[allow(clippy::too_many_arguments)]
pub fn reduce(
    send: *const c_void,
    recv: *mut c_void,
    count: usize,
    dt: nexar_datatype_t,
    o: nexar_op_t,
    root: i32,
    comm_h: nexar_comm_t,
    mode: Mode,
) -> Result<PendingCollective> {
    let (dt, o) = (datatype(dt)?, op(o)?);
    let c = comm(comm_h)?;
    let root = root_arg(root)?;
    let len = byte_len(count, dt)?;
    let reducer = Reducer::builtin(o, dt);
    if c.rank() == root {
        // SAFETY: buffers hold `count` elements per the C contract.
        let data = unsafe { input_not_aliased(send, recv, len)? };
        // Checked before starting: a call refused after its start would leave the other
        // ranks in it.
        check_output(recv, len, "recvbuf")?;
        // SAFETY: `recv` holds `count` elements and stays untouched until the call completes
        // (the C contract).
        let dest = unsafe { caller(recv, len) };
        Ok(c.start_reduce_to(data, dest, reducer, root, mode)?)
    } else {
        // SAFETY: `send` holds `count` elements per the C contract.
        let data = unsafe { input(send, len, "sendbuf")? };
        Ok(c.start_reduce_to(data, Dest::Nothing, reducer, root, mode)?)
    }
}

/// Starts an allreduce.
pub fn allreduce(
    send: *const c_void,
    recv: *mut c_void,
    count: usize,
    dt: nexar_datatype_t,
    o: nexar_op_t,
    comm_h: nexar_comm_t,
    mode: Mode,
) -> Result<PendingCollective> {
    let (dt, o) = (datatype(dt)?, op(o)?);
    let c = comm(comm_h)?;
    let len = byte_len(count, dt)?;
    // SAFETY: buffers hold `count` elements per the C contract.
    unsafe { input_not_aliased(send, recv, len)? };
    check_output(recv, len, "recvbuf")?; // before starting (see `reduce`)
    let red = Reducer::builtin(o, dt);
    // SAFETY: checked buffers, left alone by the caller until the call completes (a request
    // copies `send` at once).
    unsafe { c.start_allreduce_to(source(send, mode), caller(recv, len), len, red, mode) }
}

/// Starts a scan or exscan.
pub fn scan(
    send: *const c_void,
    recv: *mut c_void,
    count: usize,
    dt: nexar_datatype_t,
    o: nexar_op_t,
    comm_h: nexar_comm_t,
    exclusive: bool,
) -> Result<PendingCollective> {
    let (dt, o) = (datatype(dt)?, op(o)?);
    let c = comm(comm_h)?;
    let len = byte_len(count, dt)?;
    // SAFETY: buffers hold `count` elements per the C contract.
    let data = unsafe { input_not_aliased(send, recv, len)? };
    check_output(recv, len, "recvbuf")?; // before starting (see `reduce`)
    let p = c.start_scan(data, dt, o, exclusive)?;
    // SAFETY: as above.
    Ok(into(p, unsafe { output(recv, len, "recvbuf")? }))
}

/// Starts an allgather (`count` elements per rank).
pub fn allgather(
    send: *const c_void,
    recv: *mut c_void,
    count: usize,
    dt: nexar_datatype_t,
    comm_h: nexar_comm_t,
    mode: Mode,
) -> Result<PendingCollective> {
    let dt = datatype(dt)?;
    let c = comm(comm_h)?;
    let block = byte_len(count, dt)?;
    let total = byte_len(count.saturating_mul(c.size() as usize), dt)?;
    disjoint(send, block, recv, total)?;
    // SAFETY: `recv` holds `size * count` elements per the C contract.
    unsafe { output(recv, total, "recvbuf")? };
    if !is_in_place(send) {
        // SAFETY: `send` holds `count` elements per the C contract.
        unsafe { input(send, block, "sendbuf")? };
    }
    // SAFETY: checked, disjoint buffers, left alone by the caller until the call completes.
    unsafe { c.start_allgather_to(source(send, mode), caller(recv, total), block, mode) }
}

/// Starts an allgatherv.
#[allow(clippy::too_many_arguments)]
pub fn allgatherv(
    send: *const c_void,
    sendcount: usize,
    recv: *mut c_void,
    recvcounts: *const usize,
    displs: *const usize,
    dt: nexar_datatype_t,
    comm_h: nexar_comm_t,
) -> Result<PendingCollective> {
    let dt = datatype(dt)?;
    let c = comm(comm_h)?;
    let n = c.size() as usize;
    // SAFETY: arrays hold `size` entries per the C contract.
    let (rc, d) = unsafe { counts_and_displs(recvcounts, displs, n, "recvcounts", "displs")? };
    let total = extent(rc, d, dt)?;
    // SAFETY: `recv` spans `total` bytes per the C contract.
    let out = unsafe { output(recv, total, "recvbuf")? };
    // SAFETY: `send` holds `sendcount` elements per the C contract.
    let mine = unsafe { own_block(send, sendcount, out, rc, d, c.rank() as usize, dt)? };
    let p = c.start_allgatherv(&mine, dt, rc, d, total)?;
    Ok(into(p, out))
}

/// Starts a gather (`count` elements per rank).
pub fn gather(
    send: *const c_void,
    recv: *mut c_void,
    count: usize,
    dt: nexar_datatype_t,
    root: i32,
    comm_h: nexar_comm_t,
) -> Result<PendingCollective> {
    let dt = datatype(dt)?;
    let c = comm(comm_h)?;
    let root = root_arg(root)?;
    let block = byte_len(count, dt)?;
    if c.rank() != root {
        // SAFETY: `send` holds `count` elements per the C contract.
        let data = unsafe { input(send, block, "sendbuf")? };
        let p = c.start_gather(data, dt, root)?;
        return Ok(p.to(Dest::Nothing));
    }
    let total = byte_len(count.saturating_mul(c.size() as usize), dt)?;
    disjoint(send, block, recv, total)?;
    // SAFETY: at the root `recv` holds `size * count` elements per the C contract.
    let out = unsafe { output(recv, total, "recvbuf")? };
    let mine = if is_in_place(send) {
        nexar::device::to_host_vec(&out[root as usize * block..][..block])?
    } else {
        // SAFETY: `send` holds `count` elements per the C contract.
        nexar::device::to_host_vec(unsafe { input(send, block, "sendbuf")? })?
    };
    let p = c.start_gather(&mine, dt, root)?;
    Ok(into(p, out))
}

/// Starts a gatherv.
#[allow(clippy::too_many_arguments)]
pub fn gatherv(
    send: *const c_void,
    sendcount: usize,
    recv: *mut c_void,
    recvcounts: *const usize,
    displs: *const usize,
    dt: nexar_datatype_t,
    root: i32,
    comm_h: nexar_comm_t,
) -> Result<PendingCollective> {
    let dt = datatype(dt)?;
    let c = comm(comm_h)?;
    let root = root_arg(root)?;
    let n = c.size() as usize;
    if c.rank() != root {
        // SAFETY: `send` holds `sendcount` elements per the C contract.
        let data = unsafe { input(send, byte_len(sendcount, dt)?, "sendbuf")? };
        let p = c.start_gatherv(data, dt, &[], None, 0, root)?;
        return Ok(p.to(Dest::Nothing));
    }
    // SAFETY: at the root the arrays hold `size` entries per the C contract.
    let (rc, d) = unsafe { counts_and_displs(recvcounts, displs, n, "recvcounts", "displs")? };
    let total = extent(rc, d, dt)?;
    // SAFETY: `recv` spans `total` bytes per the C contract.
    let out = unsafe { output(recv, total, "recvbuf")? };
    // SAFETY: `send` holds `sendcount` elements per the C contract.
    let mine = unsafe { own_block(send, sendcount, out, rc, d, root as usize, dt)? };
    let p = c.start_gatherv(&mine, dt, rc, d, total, root)?;
    Ok(into(p, out))
}

/// Starts a scatter (`count` elements per rank).
pub fn scatter(
    send: *const c_void,
    recv: *mut c_void,
    count: usize,
    dt: nexar_datatype_t,
    root: i32,
    comm_h: nexar_comm_t,
) -> Result<PendingCollective> {
    let dt = datatype(dt)?;
    let c = comm(comm_h)?;
    let root = root_arg(root)?;
    let block = byte_len(count, dt)?;
    if c.rank() != root {
        // SAFETY: `recv` holds `count` elements per the C contract.
        let out = unsafe { output(recv, block, "recvbuf")? };
        let p = c.start_scatter(&[], dt, block, root)?;
        return Ok(into(p, out));
    }
    let total = byte_len(count.saturating_mul(c.size() as usize), dt)?;
    // SAFETY: at the root `send` holds `size * count` elements per the C contract.
    let data = unsafe { input(send, total, "sendbuf")? };
    // Every argument is checked before the collective starts (see `reduce`).
    let out = if is_in_place(recv) {
        None
    } else {
        disjoint(send, total, recv, block)?;
        // SAFETY: `recv` holds `count` elements per the C contract.
        Some(unsafe { output(recv, block, "recvbuf")? })
    };
    let p = c.start_scatter(data, dt, block, root)?;
    Ok(match out {
        Some(out) => into(p, out),
        None => p.to(Dest::Scratch(block)),
    })
}

/// Starts a scatterv.
#[allow(clippy::too_many_arguments)]
pub fn scatterv(
    send: *const c_void,
    sendcounts: *const usize,
    displs: *const usize,
    recv: *mut c_void,
    recvcount: usize,
    dt: nexar_datatype_t,
    root: i32,
    comm_h: nexar_comm_t,
) -> Result<PendingCollective> {
    let dt = datatype(dt)?;
    let c = comm(comm_h)?;
    let root = root_arg(root)?;
    let n = c.size() as usize;
    if c.rank() != root {
        let len = byte_len(recvcount, dt)?;
        // SAFETY: `recv` holds `recvcount` elements per the C contract.
        let out = unsafe { output(recv, len, "recvbuf")? };
        let p = c.start_scatterv(&[], dt, &[], None, len, root)?;
        return Ok(into(p, out));
    }
    // SAFETY: at the root the arrays hold `size` entries per the C contract.
    let (sc, d) = unsafe { counts_and_displs(sendcounts, displs, n, "sendcounts", "displs")? };
    // SAFETY: `send` spans the blocks per the C contract.
    let data = unsafe { input(send, extent(sc, d, dt)?, "sendbuf")? };
    let mine = byte_len(sc[root as usize], dt)?;
    // Every argument is checked before the collective starts (see `reduce`).
    let out = if is_in_place(recv) {
        None
    } else {
        if byte_len(recvcount, dt)? != mine {
            return Err(Error::new(
                ErrorKind::InvalidCount,
                "scatterv: the root's recvcount differs from its sendcounts entry",
            ));
        }
        // SAFETY: `recv` holds `recvcount` elements per the C contract.
        Some(unsafe { output(recv, mine, "recvbuf")? })
    };
    let p = c.start_scatterv(data, dt, sc, d, mine, root)?;
    Ok(match out {
        Some(out) => into(p, out),
        None => p.to(Dest::Scratch(mine)),
    })
}

/// Starts an alltoall (`count` elements per block).
pub fn alltoall(
    send: *const c_void,
    recv: *mut c_void,
    count: usize,
    dt: nexar_datatype_t,
    comm_h: nexar_comm_t,
) -> Result<PendingCollective> {
    let dt = datatype(dt)?;
    let c = comm(comm_h)?;
    let total = byte_len(count.saturating_mul(c.size() as usize), dt)?;
    // SAFETY: buffers hold `size * count` elements per the C contract.
    let data = unsafe { input_not_aliased(send, recv, total)? };
    check_output(recv, total, "recvbuf")?; // before starting (see `reduce`)
    let p = c.start_alltoall(data, dt)?;
    // SAFETY: as above.
    let out = unsafe { output(recv, total, "recvbuf")? };
    Ok(into(p, out))
}

/// Starts an alltoallv.
#[allow(clippy::too_many_arguments)]
pub fn alltoallv(
    send: *const c_void,
    sendcounts: *const usize,
    sdispls: *const usize,
    recv: *mut c_void,
    recvcounts: *const usize,
    rdispls: *const usize,
    dt: nexar_datatype_t,
    comm_h: nexar_comm_t,
) -> Result<PendingCollective> {
    let dt = datatype(dt)?;
    let c = comm(comm_h)?;
    let n = c.size() as usize;
    // SAFETY: the arrays hold `size` entries per the C contract.
    let (rc, rd) = unsafe { counts_and_displs(recvcounts, rdispls, n, "recvcounts", "rdispls")? };
    let total = extent(rc, rd, dt)?;
    let (sc, sd, data): (&[usize], Option<&[usize]>, &[u8]) = if is_in_place(send) {
        // SAFETY: `recv` spans `total` bytes per the C contract.
        (rc, rd, unsafe { input(recv, total, "recvbuf")? })
    } else {
        // SAFETY: as above, for the send arrays and buffer.
        let (sc, sd) =
            unsafe { counts_and_displs(sendcounts, sdispls, n, "sendcounts", "sdispls")? };
        // SAFETY: as above.
        let data = unsafe { input(send, extent(sc, sd, dt)?, "sendbuf")? };
        (sc, sd, data)
    };
    check_output(recv, total, "recvbuf")?; // before starting (see `reduce`)
    let p = c.start_alltoallv(data, sc, sd, dt, rc, rd, total)?;
    // SAFETY: `recv` spans `total` bytes per the C contract.
    let out = unsafe { output(recv, total, "recvbuf")? };
    Ok(into(p, out))
}

/// Starts a reduce_scatter.
pub fn reduce_scatter(
    send: *const c_void,
    recv: *mut c_void,
    recvcounts: *const usize,
    dt: nexar_datatype_t,
    o: nexar_op_t,
    comm_h: nexar_comm_t,
    mode: Mode,
) -> Result<PendingCollective> {
    let (dt, o) = (datatype(dt)?, op(o)?);
    let c = comm(comm_h)?;
    let n = c.size() as usize;
    // SAFETY: the array holds `size` entries per the C contract.
    let rc = unsafe { counts(recvcounts, n, "recvcounts", false)? }.unwrap_or_default();
    let total = extent(rc, None, dt)?;
    // SAFETY: buffers span `total` bytes (in place: `recv` does) per the C contract.
    unsafe { input_or_in_place(send, recv, total)? };
    let mine = byte_len(rc[c.rank() as usize], dt)?;
    check_output(recv, mine, "recvbuf")?; // before starting (see `reduce`)
    let len = if is_in_place(send) { total } else { mine };
    let red = Reducer::builtin(o, dt);
    // SAFETY: checked buffers, left alone by the caller until the call completes.
    unsafe { c.start_reduce_scatter_to(source(send, mode), caller(recv, len), rc, red, mode) }
}

/// Starts a reduce_scatter_block (`recvcount` elements per rank).
pub fn reduce_scatter_block(
    send: *const c_void,
    recv: *mut c_void,
    recvcount: usize,
    dt: nexar_datatype_t,
    o: nexar_op_t,
    comm_h: nexar_comm_t,
    mode: Mode,
) -> Result<PendingCollective> {
    let c = comm(comm_h)?;
    let rc = vec![recvcount; c.size() as usize];
    reduce_scatter(send, recv, rc.as_ptr(), dt, o, comm_h, mode)
}
