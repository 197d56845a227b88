//! Argument handling for the collective entry points. Each `start_*` validates the C
//! arguments, resolves `NEXAR_IN_PLACE`, and starts the collective in the engine (which copies
//! the input and takes the collective's place in the communicator's order). The blocking and
//! `nexar_i*` entry points then finish it on the calling thread or in a request.
//!
//! In `nccl` builds the blocking allreduce, bcast, allgather and reduce_scatter(_block) (equal
//! counts) first offer the call to automatic NCCL routing (`route`), after every argument
//! check; a routed call is complete when its start returns. The `nexar_i*` calls never route:
//! a routed call is several engine collectives that a start cannot issue, and blocking and
//! non-blocking collectives never match each other across ranks.

use crate::buffers::{
    RawOut, byte_len, check_output, counts, disjoint, input, is_in_place, output,
};
use crate::lifecycle::comm;
use crate::request::{CRequest, store_request};
use crate::types::{datatype, nexar_comm_t, nexar_datatype_t, nexar_op_t, nexar_request_t, op};
use args::{counts_and_displs, extent, input_not_aliased, input_or_in_place, own_block, root_arg};
use nexar::{Comm, Error, ErrorKind, PendingCollective, Result};
use std::ffi::c_void;

mod args;
#[cfg(feature = "nccl")]
mod route;

/// Where a collective's result goes.
enum Dest {
    /// The caller's buffer.
    User(RawOut),
    /// A scratch buffer whose contents are dropped (in-place roots that keep their data).
    Scratch(Vec<u8>),
}

/// A collective started on this rank.
pub struct Started {
    comm: Comm,
    /// `None`: already complete (routed through NCCL).
    pending: Option<PendingCollective>,
    dest: Dest,
}

impl Started {
    fn new(comm: Comm, pending: PendingCollective, recv: &mut [u8]) -> Self {
        Self {
            comm,
            pending: Some(pending),
            dest: Dest::User(RawOut::new(recv)),
        }
    }

    /// A scatter root's: into `recv`, or (in place: the root keeps its block) a scratch
    /// buffer of `len` bytes that is dropped.
    fn at_root(
        comm: Comm,
        pending: PendingCollective,
        recv: Option<&mut [u8]>,
        len: usize,
    ) -> Self {
        match recv {
            Some(out) => Self::new(comm, pending, out),
            None => Self {
                comm,
                pending: Some(pending),
                dest: Dest::Scratch(vec![0; len]),
            },
        }
    }

    fn nothing(comm: Comm, pending: PendingCollective) -> Self {
        Self {
            comm,
            pending: Some(pending),
            dest: Dest::Scratch(Vec::new()),
        }
    }

    /// A call already complete (routed through NCCL).
    #[cfg(feature = "nccl")]
    fn done(comm: Comm) -> Self {
        Self {
            comm,
            pending: None,
            dest: Dest::Scratch(Vec::new()),
        }
    }

    /// Finishes on the calling thread.
    pub fn finish(self) -> Result<()> {
        let Self {
            comm,
            pending,
            dest,
        } = self;
        let Some(pending) = pending else {
            return Ok(());
        };
        match dest {
            // SAFETY: the buffer was checked at start and the caller is blocked meanwhile.
            Dest::User(out) => comm.block_on(pending.finish_into(unsafe { out.get() })),
            Dest::Scratch(mut v) => comm.block_on(pending.finish_into(&mut v)),
        }
    }

    /// Finishes in the background; `*request` receives the handle.
    pub fn into_request(self, request: *mut nexar_request_t) -> Result<()> {
        crate::boundary::non_null(request, "request")?;
        let Self {
            comm,
            pending,
            dest,
        } = self;
        let req: CRequest = comm.spawn(async move {
            let Some(pending) = pending else {
                return Ok(None);
            };
            match dest {
                // SAFETY: the caller keeps the buffer valid until the request completes.
                Dest::User(out) => pending.finish_into(unsafe { out.get() }).await?,
                Dest::Scratch(mut v) => pending.finish_into(&mut v).await?,
            }
            Ok(None)
        });
        store_request(request, req)
    }
}

/// Starts a barrier.
pub fn barrier(comm_h: nexar_comm_t) -> Result<Started> {
    let c = comm(comm_h)?;
    let p = c.start_barrier()?;
    Ok(Started::nothing(c, p))
}

/// Starts a broadcast.
pub fn bcast(
    buf: *mut c_void,
    count: usize,
    dt: nexar_datatype_t,
    root: i32,
    comm_h: nexar_comm_t,
    mode: Mode,
) -> Result<Started> {
    let dt = datatype(dt)?;
    let c = comm(comm_h)?;
    // SAFETY: `buf` holds `count` elements per the C contract.
    let b = unsafe { output(buf, byte_len(count, dt)?, "buf")? };
    let root = root_arg(root)?;
    #[cfg(feature = "nccl")]
    if mode == Mode::Blocking && route::bcast(&c, b, root)? {
        return Ok(Started::done(c));
    }
    let _ = mode;
    let p = c.start_bcast(b, root)?;
    Ok(Started::new(c, p, b))
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
) -> Result<Started> {
    let (dt, o) = (datatype(dt)?, op(o)?);
    let c = comm(comm_h)?;
    let root = root_arg(root)?;
    let len = byte_len(count, dt)?;
    if c.rank() == root {
        // SAFETY: buffers hold `count` elements per the C contract.
        let data = unsafe { input_not_aliased(send, recv, len)? };
        // Checked before starting: a call refused after its start would leave the other
        // ranks in it.
        check_output(recv, len, "recvbuf")?;
        let p = c.start_reduce(data, dt, o, root)?;
        // SAFETY: as above.
        let out = unsafe { output(recv, len, "recvbuf")? };
        Ok(Started::new(c, p, out))
    } else {
        // SAFETY: `send` holds `count` elements per the C contract.
        let data = unsafe { input(send, len, "sendbuf")? };
        let p = c.start_reduce(data, dt, o, root)?;
        Ok(Started::nothing(c, p))
    }
}

/// Whether the call blocks or returns a request.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// A blocking call: an allreduce reads its input in place until the call completes (large
    /// vectors between local ranks are then reduced without a copy), and in `nccl` builds the
    /// routable collectives go through automatic NCCL routing.
    Blocking,
    /// A non-blocking call: an allreduce copies its input before the start returns (the
    /// documented contract lets the caller reuse the send buffer at once); never routed.
    Request,
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
) -> Result<Started> {
    let (dt, o) = (datatype(dt)?, op(o)?);
    let c = comm(comm_h)?;
    let len = byte_len(count, dt)?;
    // SAFETY: buffers hold `count` elements per the C contract.
    let data = unsafe { input_not_aliased(send, recv, len)? };
    check_output(recv, len, "recvbuf")?; // before starting (see `reduce`)
    #[cfg(feature = "nccl")]
    if mode == Mode::Blocking
        && route::reduction(&c, route::Reduction::All, send, recv, count, dt, o)?
    {
        return Ok(Started::done(c));
    }
    let p = match mode {
        Mode::Request => c.start_allreduce(data, dt, o)?,
        Mode::Blocking => {
            o.check(dt).map_err(nexar::Error::from)?;
            // SAFETY: as above; a blocking call leaves `data` alone until `Started` finishes.
            unsafe {
                c.start_allreduce_borrowed(
                    data.as_ptr(),
                    data.len(),
                    nexar::Reducer::builtin(o, dt),
                )?
            }
        }
    };
    // SAFETY: as above.
    let out = unsafe { output(recv, len, "recvbuf")? };
    Ok(Started::new(c, p, out))
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
) -> Result<Started> {
    let (dt, o) = (datatype(dt)?, op(o)?);
    let c = comm(comm_h)?;
    let len = byte_len(count, dt)?;
    // SAFETY: buffers hold `count` elements per the C contract.
    let data = unsafe { input_not_aliased(send, recv, len)? };
    check_output(recv, len, "recvbuf")?; // before starting (see `reduce`)
    let p = c.start_scan(data, dt, o, exclusive)?;
    // SAFETY: as above.
    let out = unsafe { output(recv, len, "recvbuf")? };
    Ok(Started::new(c, p, out))
}

/// Starts an allgather (`count` elements per rank).
pub fn allgather(
    send: *const c_void,
    recv: *mut c_void,
    count: usize,
    dt: nexar_datatype_t,
    comm_h: nexar_comm_t,
    mode: Mode,
) -> Result<Started> {
    let dt = datatype(dt)?;
    let c = comm(comm_h)?;
    let block = byte_len(count, dt)?;
    let total = byte_len(count.saturating_mul(c.size() as usize), dt)?;
    disjoint(send, block, recv, total)?;
    // SAFETY: `recv` holds `size * count` elements per the C contract.
    let out = unsafe { output(recv, total, "recvbuf")? };
    let own = if is_in_place(send) {
        None
    } else {
        // SAFETY: `send` holds `count` elements per the C contract.
        Some(unsafe { input(send, block, "sendbuf")? })
    };
    #[cfg(feature = "nccl")]
    if mode == Mode::Blocking && route::allgather(&c, own, out, block)? {
        return Ok(Started::done(c));
    }
    let _ = mode;
    let mine = match own {
        None => nexar::device::to_host_vec(&out[c.rank() as usize * block..][..block])?,
        Some(s) => nexar::device::to_host_vec(s)?,
    };
    let p = c.start_allgather(&mine, dt)?;
    Ok(Started::new(c, p, out))
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
) -> Result<Started> {
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
    Ok(Started::new(c, p, out))
}

/// Starts a gather (`count` elements per rank).
pub fn gather(
    send: *const c_void,
    recv: *mut c_void,
    count: usize,
    dt: nexar_datatype_t,
    root: i32,
    comm_h: nexar_comm_t,
) -> Result<Started> {
    let dt = datatype(dt)?;
    let c = comm(comm_h)?;
    let root = root_arg(root)?;
    let block = byte_len(count, dt)?;
    if c.rank() != root {
        // SAFETY: `send` holds `count` elements per the C contract.
        let data = unsafe { input(send, block, "sendbuf")? };
        let p = c.start_gather(data, dt, root)?;
        return Ok(Started::nothing(c, p));
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
    Ok(Started::new(c, p, out))
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
) -> Result<Started> {
    let dt = datatype(dt)?;
    let c = comm(comm_h)?;
    let root = root_arg(root)?;
    let n = c.size() as usize;
    if c.rank() != root {
        // SAFETY: `send` holds `sendcount` elements per the C contract.
        let data = unsafe { input(send, byte_len(sendcount, dt)?, "sendbuf")? };
        let p = c.start_gatherv(data, dt, &[], None, 0, root)?;
        return Ok(Started::nothing(c, p));
    }
    // SAFETY: at the root the arrays hold `size` entries per the C contract.
    let (rc, d) = unsafe { counts_and_displs(recvcounts, displs, n, "recvcounts", "displs")? };
    let total = extent(rc, d, dt)?;
    // SAFETY: `recv` spans `total` bytes per the C contract.
    let out = unsafe { output(recv, total, "recvbuf")? };
    // SAFETY: `send` holds `sendcount` elements per the C contract.
    let mine = unsafe { own_block(send, sendcount, out, rc, d, root as usize, dt)? };
    let p = c.start_gatherv(&mine, dt, rc, d, total, root)?;
    Ok(Started::new(c, p, out))
}

/// Starts a scatter (`count` elements per rank).
pub fn scatter(
    send: *const c_void,
    recv: *mut c_void,
    count: usize,
    dt: nexar_datatype_t,
    root: i32,
    comm_h: nexar_comm_t,
) -> Result<Started> {
    let dt = datatype(dt)?;
    let c = comm(comm_h)?;
    let root = root_arg(root)?;
    let block = byte_len(count, dt)?;
    if c.rank() != root {
        // SAFETY: `recv` holds `count` elements per the C contract.
        let out = unsafe { output(recv, block, "recvbuf")? };
        let p = c.start_scatter(&[], dt, block, root)?;
        return Ok(Started::new(c, p, out));
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
    Ok(Started::at_root(c, p, out, block))
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
) -> Result<Started> {
    let dt = datatype(dt)?;
    let c = comm(comm_h)?;
    let root = root_arg(root)?;
    let n = c.size() as usize;
    if c.rank() != root {
        let len = byte_len(recvcount, dt)?;
        // SAFETY: `recv` holds `recvcount` elements per the C contract.
        let out = unsafe { output(recv, len, "recvbuf")? };
        let p = c.start_scatterv(&[], dt, &[], None, len, root)?;
        return Ok(Started::new(c, p, out));
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
    Ok(Started::at_root(c, p, out, mine))
}

/// Starts an alltoall (`count` elements per block).
pub fn alltoall(
    send: *const c_void,
    recv: *mut c_void,
    count: usize,
    dt: nexar_datatype_t,
    comm_h: nexar_comm_t,
) -> Result<Started> {
    let dt = datatype(dt)?;
    let c = comm(comm_h)?;
    let total = byte_len(count.saturating_mul(c.size() as usize), dt)?;
    // SAFETY: buffers hold `size * count` elements per the C contract.
    let data = unsafe { input_not_aliased(send, recv, total)? };
    check_output(recv, total, "recvbuf")?; // before starting (see `reduce`)
    let p = c.start_alltoall(data, dt)?;
    // SAFETY: as above.
    let out = unsafe { output(recv, total, "recvbuf")? };
    Ok(Started::new(c, p, out))
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
) -> Result<Started> {
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
    Ok(Started::new(c, p, out))
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
) -> Result<Started> {
    let (dt, o) = (datatype(dt)?, op(o)?);
    let c = comm(comm_h)?;
    let n = c.size() as usize;
    // SAFETY: the array holds `size` entries per the C contract.
    let rc = unsafe { counts(recvcounts, n, "recvcounts", false)? }.unwrap_or_default();
    let total = extent(rc, None, dt)?;
    // SAFETY: buffers span `total` bytes (in place: `recv` does) per the C contract.
    let data = unsafe { input_or_in_place(send, recv, total)? };
    let mine = byte_len(rc[c.rank() as usize], dt)?;
    check_output(recv, mine, "recvbuf")?; // before starting (see `reduce`)
    // Equal blocks only (the counts are the same on every rank, so is the choice).
    #[cfg(feature = "nccl")]
    if mode == Mode::Blocking
        && rc.iter().all(|&k| k == rc[0])
        && route::reduction(&c, route::Reduction::ScatterBlock, send, recv, rc[0], dt, o)?
    {
        return Ok(Started::done(c));
    }
    let _ = mode;
    let p = c.start_reduce_scatter(data, rc, dt, o)?;
    // SAFETY: `recv` holds at least this rank's block per the C contract.
    let out = unsafe { output(recv, mine, "recvbuf")? };
    Ok(Started::new(c, p, out))
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
) -> Result<Started> {
    let c = comm(comm_h)?;
    let rc = vec![recvcount; c.size() as usize];
    reduce_scatter(send, recv, rc.as_ptr(), dt, o, comm_h, mode)
}
