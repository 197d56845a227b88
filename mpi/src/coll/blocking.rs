//! Blocking collectives over the engine's byte-level `start_*` collectives. One implementation
//! over 64-bit counts serves `MPI_X` and `MPI_X_c`; it checks the arguments and starts the
//! collective ([`Started`]), which the blocking entry points finish on the calling thread and
//! the non-blocking ones ([`crate::coll::nonblocking`], [`crate::coll::vector`]) in a request.
//! `MPI_IN_PLACE` is accepted where the standard allows it (the root of reduce/gather/scatter,
//! every rank of allreduce, allgather and alltoall).
//!
//! Buffers go through [`Buf`]: derived datatypes are packed for sending and unpacked when the
//! collective completes ([`RecvTarget`]); data-movement collectives move packed bytes, so send
//! and receive types need only matching signatures; reductions run on
//! [`Buf::reduce_type`].
//!
//! In `nccl` builds the blocking `MPI_Allreduce`, `MPI_Bcast`, `MPI_Allgather` and
//! `MPI_Reduce_scatter(_block)` (equal counts) go through automatic NCCL routing ([`Mode`],
//! `route`) after every argument check; the non-blocking and persistent forms never do (a
//! routed call is several engine collectives that a start cannot issue, and MPI never matches
//! a blocking collective with a non-blocking one).

use crate::args::{Buf, RecvTarget, count, in_place, root_rank};
use crate::coll::op::{OpSpec, op};
#[cfg(feature = "nccl")]
use crate::coll::route;
use crate::consts::*;
use crate::errors::report::{MpiError, Result, call};
use crate::request::table::{MPI_Request, store_request};
use crate::state::comm;
use nexar::{Comm, Datatype, PendingCollective};
use std::ffi::{c_int, c_void};

/// Whether a collective call blocks or returns a request.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// A blocking call: in `nccl` builds the routable collectives go through automatic NCCL
    /// routing (decided per communicator, `nexar::device::nccl::auto`).
    Blocking,
    /// A non-blocking or persistent call: always the engine's request-based path.
    Request,
}

/// Where a started collective's result goes.
pub(crate) enum Dest {
    /// The caller's buffer (unpacked on completion when its layout is not dense).
    User(RecvTarget),
    /// A scratch buffer whose contents are dropped (ranks without a result, in-place roots).
    Scratch(Vec<u8>),
}

/// A collective started on this rank (its place in the communicator's order is taken): finish
/// it on the calling thread ([`Started::finish`]) or in a request ([`Started::into_request`]).
pub struct Started {
    comm: Comm,
    /// `None`: already complete (routed through NCCL).
    pending: Option<PendingCollective>,
    dest: Dest,
}

impl Started {
    pub(crate) fn user(comm: &Comm, pending: PendingCollective, out: RecvTarget) -> Self {
        Self {
            comm: comm.clone(),
            pending: Some(pending),
            dest: Dest::User(out),
        }
    }

    pub(crate) fn scratch(comm: &Comm, pending: PendingCollective, v: Vec<u8>) -> Self {
        Self {
            comm: comm.clone(),
            pending: Some(pending),
            dest: Dest::Scratch(v),
        }
    }

    /// A call already complete (routed through NCCL).
    #[cfg(feature = "nccl")]
    pub(crate) fn done(comm: &Comm) -> Self {
        Self {
            comm: comm.clone(),
            pending: None,
            dest: Dest::Scratch(Vec::new()),
        }
    }

    fn into_out(self, rb: Option<&Buf>) -> Self {
        match rb {
            Some(rb) => Self {
                dest: Dest::User(rb.recv_target()),
                ..self
            },
            None => self,
        }
    }

    /// Finishes on the calling thread.
    pub fn finish(self) -> Result<()> {
        let Self {
            comm,
            pending,
            dest,
        } = self;
        Ok(comm.block_on(finish_into(pending, dest))?)
    }

    /// Finishes in the background; `*request` (checked for NULL) receives the handle.
    pub fn into_request(self, comm_h: MPI_Comm, request: *mut MPI_Request) -> Result<()> {
        let Self {
            comm,
            pending,
            dest,
        } = self;
        let req = comm.spawn(async move {
            finish_into(pending, dest).await?;
            Ok(None)
        });
        store_request(request, comm_h, req)
    }
}

/// Completes `pending` into `dest` (unpacking a derived layout before returning); `None`:
/// already complete.
async fn finish_into(pending: Option<PendingCollective>, dest: Dest) -> nexar::Result<()> {
    let Some(pending) = pending else {
        return Ok(());
    };
    match dest {
        Dest::User(mut t) => {
            let n = t.len();
            // SAFETY: checked at start; the MPI contract keeps the buffer valid and untouched
            // until the operation completes.
            pending.finish_into(unsafe { t.slice() }).await?;
            // SAFETY: as above.
            unsafe { t.finish(n)? };
        }
        Dest::Scratch(mut v) => pending.finish_into(&mut v).await?,
    }
    Ok(())
}

/// `count * n` for the whole-communicator buffers of rooted and all-to-all collectives.
fn times(n: MPI_Count, size: u32) -> Result<MPI_Count> {
    if n < 0 {
        return Err(MpiError::new(
            MPI_ERR_COUNT,
            format!("count {n} is negative"),
        ));
    }
    n.checked_mul(size as MPI_Count)
        .ok_or_else(|| MpiError::new(MPI_ERR_COUNT, format!("count {n} is too large")))
}

/// Block `i` of `b` split into `n` equal blocks, packed.
pub(crate) fn block(b: &Buf, i: u32, n: u32) -> Result<Vec<u8>> {
    let per = b.count / n as usize;
    // SAFETY: `Buf::new` checked the buffer; readable per the MPI contract.
    Ok(unsafe { b.sub(i as usize * per, per).send_bytes()? }.into_owned())
}

pub(crate) fn same_len(send: usize, recv: usize) -> Result<()> {
    if send != recv {
        return Err(MpiError::new(
            MPI_ERR_TRUNCATE,
            format!("send block has {send} bytes, receive block {recv}"),
        ));
    }
    Ok(())
}

/// Starts a broadcast as a `mode` call.
pub fn bcast(
    buf: *mut c_void,
    n: MPI_Count,
    dt: MPI_Datatype,
    root: c_int,
    c: &Comm,
    mode: Mode,
) -> Result<Started> {
    let root = root_rank(root, c.size())?;
    let b = Buf::new(buf, n, dt, "broadcast")?;
    #[cfg(feature = "nccl")]
    if mode == Mode::Blocking && route::bcast(c, &b, root)? {
        return Ok(Started::done(c));
    }
    let _ = mode;
    let p = if root == c.rank() || b.is_dense() {
        // SAFETY: `Buf::new` checked the buffer; the engine copies the input before returning.
        c.start_bcast(&unsafe { b.send_bytes()? }, root)?
    } else {
        // Only the length matters off the root: skip packing a derived layout.
        c.start_bcast(&vec![0; b.len], root)?
    };
    Ok(Started::user(c, p, b.recv_target()))
}

/// The input of a reduction with `op` (`sbuf`, or `rbuf` when `sbuf` is `MPI_IN_PLACE`),
/// packed; the engine reducer for it; and how many reducer elements make one element of `dt`
/// (predefined ops reduce the datatype's uniform nexar element type, user ops whole elements).
pub(crate) fn reduce_input(
    sbuf: *const c_void,
    rb: Option<&Buf>,
    n: MPI_Count,
    dt: MPI_Datatype,
    op: OpSpec,
) -> Result<(Vec<u8>, nexar::Reducer, usize)> {
    let (b, reducer, per) = reduce_source(sbuf, rb, n, dt, op)?;
    // SAFETY: `Buf::new` checked the buffer; readable per the MPI contract.
    Ok((unsafe { b.send_bytes()? }.into_owned(), reducer, per))
}

/// The unpacked form of [`reduce_input`]: the input buffer itself.
pub(crate) fn reduce_source(
    sbuf: *const c_void,
    rb: Option<&Buf>,
    n: MPI_Count,
    dt: MPI_Datatype,
    op: OpSpec,
) -> Result<(Buf, nexar::Reducer, usize)> {
    let b = match rb {
        Some(rb) if in_place(sbuf) => rb.clone(),
        _ => Buf::new(sbuf, n, dt, "send")?,
    };
    let (reducer, per) = match op {
        OpSpec::Builtin(o) => {
            let dtype = b.reduce_type(o)?;
            let per = b.ty.size / dtype.size();
            (nexar::Reducer::builtin(o, dtype), per)
        }
        OpSpec::User(_) => (op.user_reducer(b.ty.clone(), dt), 1),
    };
    Ok((b, reducer, per))
}

/// Starts a reduce (`root` given) or an allreduce as a `mode` call.
#[allow(clippy::too_many_arguments)]
pub fn reduce(
    sbuf: *const c_void,
    rbuf: *mut c_void,
    n: MPI_Count,
    dt: MPI_Datatype,
    o: MPI_Op,
    root: Option<c_int>,
    c: &Comm,
    mode: Mode,
) -> Result<Started> {
    let root = root.map(|r| root_rank(r, c.size())).transpose()?;
    let op = op(o)?;
    let receives = root.is_none_or(|r| r == c.rank());
    let rb = if receives {
        Some(Buf::new(rbuf, n, dt, "receive")?)
    } else {
        None
    };
    let (b, reducer, _) = reduce_source(sbuf, rb.as_ref(), n, dt, op)?;
    if let Some(rb) = rb.as_ref().filter(|_| !in_place(sbuf)) {
        // An op the datatype does not support is the first error to report.
        reducer.check().map_err(nexar::Error::from)?;
        b.check_not_aliased(rb)?;
    }
    #[cfg(feature = "nccl")]
    if let (Mode::Blocking, None, Some(rb), OpSpec::Builtin(o)) = (mode, root, &rb, op)
        && route::reduction(c, route::Reduction::All, sbuf, &b, rb, o)?
    {
        return Ok(Started::done(c));
    }
    let _ = mode;
    let p = match root {
        // SAFETY: `Buf::new` checked the buffer; readable per the MPI contract.
        Some(r) => c.start_reduce_with(&unsafe { b.send_bytes()? }, reducer, r)?,
        // A dense input is read where it is (the MPI contract leaves a send buffer untouched
        // until the call completes; an `MPI_IN_PLACE` receive buffer is the input and the
        // output, which the engine handles).
        // SAFETY: dense: `b.len` readable bytes at `b.ptr` until completion.
        None if b.is_dense() => unsafe { c.start_allreduce_borrowed(b.ptr, b.len, reducer)? },
        // SAFETY: as above; a packed copy is ours to hand over.
        None => c.start_allreduce_owned(unsafe { b.send_bytes()? }.into_owned(), reducer)?,
    };
    Ok(Started::scratch(c, p, Vec::new()).into_out(rb.as_ref()))
}

/// Starts a gather (`root` given) or an allgather as a `mode` call.
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
    mode: Mode,
) -> Result<Started> {
    let root = root.map(|r| root_rank(r, c.size())).transpose()?;
    let receives = root.is_none_or(|r| r == c.rank());
    let rb = if receives {
        Some(Buf::new(rbuf, times(rn, c.size())?, rt, "receive")?)
    } else {
        None
    };
    // Data moves as packed bytes: send and receive types need only matching signatures.
    let dtype = Datatype::U8;
    let sb = match &rb {
        Some(_) if in_place(sbuf) => None,
        _ => Some(Buf::new(sbuf, sn, st, "send")?),
    };
    if let Some(rb) = &rb {
        let own = rb.len / c.size() as usize;
        same_len(sb.as_ref().map_or(own, |s| s.len), own)?;
    }
    #[cfg(feature = "nccl")]
    if let (Mode::Blocking, None, Some(rb)) = (mode, root, &rb)
        && route::allgather(c, sb.as_ref(), rb)?
    {
        return Ok(Started::done(c));
    }
    let _ = mode;
    let send = match (&sb, &rb) {
        // SAFETY: `Buf::new` checked the buffer; readable per the MPI contract.
        (Some(sb), _) => unsafe { sb.send_bytes()? }.into_owned(),
        (None, Some(rb)) => block(rb, c.rank(), c.size())?,
        (None, None) => unreachable!("a rank without a receive buffer has a send buffer"),
    };
    let p = match root {
        Some(r) => c.start_gather(&send, dtype, r)?,
        None => c.start_allgather(&send, dtype)?,
    };
    Ok(Started::scratch(c, p, Vec::new()).into_out(rb.as_ref()))
}

/// Starts a scatter.
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
) -> Result<Started> {
    let root = root_rank(root, c.size())?;
    let is_root = root == c.rank();
    let sb = if is_root {
        Some(Buf::new(sbuf, times(sn, c.size())?, st, "send")?)
    } else {
        None
    };
    let (dest, len) = match &sb {
        Some(sb) if in_place(rbuf) => {
            let len = sb.len / c.size() as usize;
            (Dest::Scratch(vec![0; len]), len)
        }
        _ => {
            let rb = Buf::new(rbuf, rn, rt, "receive")?;
            (Dest::User(rb.recv_target()), rb.len)
        }
    };
    if let Some(sb) = &sb {
        same_len(sb.len / c.size() as usize, len)?;
    }
    let send = match &sb {
        // SAFETY: `Buf::new` checked the buffer; readable per the MPI contract.
        Some(sb) => unsafe { sb.send_bytes()? },
        None => Default::default(),
    };
    let p = c.start_scatter(&send, Datatype::U8, len, root)?;
    Ok(Started {
        comm: c.clone(),
        pending: Some(p),
        dest,
    })
}

/// Starts an alltoall.
#[allow(clippy::too_many_arguments)]
pub fn alltoall(
    sbuf: *const c_void,
    sn: MPI_Count,
    st: MPI_Datatype,
    rbuf: *mut c_void,
    rn: MPI_Count,
    rt: MPI_Datatype,
    c: &Comm,
) -> Result<Started> {
    let rb = Buf::new(rbuf, times(rn, c.size())?, rt, "receive")?;
    let send = if in_place(sbuf) {
        // SAFETY: `Buf::new` checked the buffer; readable per the MPI contract.
        unsafe { rb.send_bytes()? }.into_owned()
    } else {
        let sb = Buf::new(sbuf, times(sn, c.size())?, st, "send")?;
        // SAFETY: as above.
        unsafe { sb.send_bytes()? }.into_owned()
    };
    same_len(send.len(), rb.len)?;
    let p = c.start_alltoall(&send, Datatype::U8)?;
    Ok(Started::user(c, p, rb.recv_target()))
}

/// Starts a barrier.
pub fn barrier(c: &Comm) -> Result<Started> {
    Ok(Started::scratch(c, c.start_barrier()?, Vec::new()))
}

/// Defines `MPI_X` and `MPI_X_c` (and their PMPI twins) over one implementation: `$conv`
/// turns each count argument into `MPI_Count`.
macro_rules! coll_pair {
    ($(
        $(#[$doc:meta])*
        $name:ident / $pname:ident, $cname:ident / $pcname:ident
            ($($arg:ident: $ty:ty | $cty:ty),*) => |$c:ident, $cv:ident| $body:expr;
    )*) => {$(
        mpi_fn! {
            $(#[$doc])*
            fn $name($($arg: $ty,)* comm_h: MPI_Comm) -> c_int => $pname {
                call(stringify!($name), comm_h, || {
                    let $c = comm(comm_h)?;
                    let $cv = |n: c_int| count(n);
                    $body?.finish()
                })
            }

            #[doc = concat!("Large-count [`", stringify!($name), "`].")]
            fn $cname($($arg: $cty,)* comm_h: MPI_Comm) -> c_int => $pcname {
                call(stringify!($cname), comm_h, || {
                    let $c = comm(comm_h)?;
                    let $cv = |n: MPI_Count| n;
                    $body?.finish()
                })
            }
        }
    )*};
}

coll_pair! {
    /// Broadcasts `count` elements from `root`. Routed through NCCL in `nccl` builds when
    /// the communicator decided so (`MPI_Ibcast` never is: do not pair the two across ranks).
    MPI_Bcast / PMPI_Bcast, MPI_Bcast_c / PMPI_Bcast_c
        (buf: *mut c_void | *mut c_void, n: c_int | MPI_Count, dt: MPI_Datatype | MPI_Datatype,
         root: c_int | c_int)
        => |c, cv| bcast(buf, cv(n), dt, root, &c, Mode::Blocking);
    /// Reduces to `root` (`sendbuf` may be `MPI_IN_PLACE` at the root).
    MPI_Reduce / PMPI_Reduce, MPI_Reduce_c / PMPI_Reduce_c
        (sendbuf: *const c_void | *const c_void, recvbuf: *mut c_void | *mut c_void,
         n: c_int | MPI_Count, dt: MPI_Datatype | MPI_Datatype, o: MPI_Op | MPI_Op,
         root: c_int | c_int)
        => |c, cv| reduce(sendbuf, recvbuf, cv(n), dt, o, Some(root), &c, Mode::Request);
    /// Reduces to every rank (`sendbuf` may be `MPI_IN_PLACE`). Routed through NCCL in `nccl`
    /// builds when the communicator decided so (`MPI_Iallreduce` never is).
    MPI_Allreduce / PMPI_Allreduce, MPI_Allreduce_c / PMPI_Allreduce_c
        (sendbuf: *const c_void | *const c_void, recvbuf: *mut c_void | *mut c_void,
         n: c_int | MPI_Count, dt: MPI_Datatype | MPI_Datatype, o: MPI_Op | MPI_Op)
        => |c, cv| reduce(sendbuf, recvbuf, cv(n), dt, o, None, &c, Mode::Blocking);
    /// Gathers equal blocks to `root` (`sendbuf` may be `MPI_IN_PLACE` at the root).
    MPI_Gather / PMPI_Gather, MPI_Gather_c / PMPI_Gather_c
        (sendbuf: *const c_void | *const c_void, sendcount: c_int | MPI_Count,
         sendtype: MPI_Datatype | MPI_Datatype, recvbuf: *mut c_void | *mut c_void,
         recvcount: c_int | MPI_Count, recvtype: MPI_Datatype | MPI_Datatype, root: c_int | c_int)
        => |c, cv| gather(sendbuf, cv(sendcount), sendtype, recvbuf, cv(recvcount), recvtype,
                          Some(root), &c, Mode::Request);
    /// Gathers equal blocks to every rank (`sendbuf` may be `MPI_IN_PLACE`). Routed through
    /// NCCL in `nccl` builds when the communicator decided so (`MPI_Iallgather` never is).
    MPI_Allgather / PMPI_Allgather, MPI_Allgather_c / PMPI_Allgather_c
        (sendbuf: *const c_void | *const c_void, sendcount: c_int | MPI_Count,
         sendtype: MPI_Datatype | MPI_Datatype, recvbuf: *mut c_void | *mut c_void,
         recvcount: c_int | MPI_Count, recvtype: MPI_Datatype | MPI_Datatype)
        => |c, cv| gather(sendbuf, cv(sendcount), sendtype, recvbuf, cv(recvcount), recvtype,
                          None, &c, Mode::Blocking);
    /// Scatters equal blocks from `root` (`recvbuf` may be `MPI_IN_PLACE` at the root).
    MPI_Scatter / PMPI_Scatter, MPI_Scatter_c / PMPI_Scatter_c
        (sendbuf: *const c_void | *const c_void, sendcount: c_int | MPI_Count,
         sendtype: MPI_Datatype | MPI_Datatype, recvbuf: *mut c_void | *mut c_void,
         recvcount: c_int | MPI_Count, recvtype: MPI_Datatype | MPI_Datatype, root: c_int | c_int)
        => |c, cv| scatter(sendbuf, cv(sendcount), sendtype, recvbuf, cv(recvcount), recvtype,
                           root, &c);
    /// Exchanges equal blocks between all ranks (`sendbuf` may be `MPI_IN_PLACE`).
    MPI_Alltoall / PMPI_Alltoall, MPI_Alltoall_c / PMPI_Alltoall_c
        (sendbuf: *const c_void | *const c_void, sendcount: c_int | MPI_Count,
         sendtype: MPI_Datatype | MPI_Datatype, recvbuf: *mut c_void | *mut c_void,
         recvcount: c_int | MPI_Count, recvtype: MPI_Datatype | MPI_Datatype)
        => |c, cv| alltoall(sendbuf, cv(sendcount), sendtype, recvbuf, cv(recvcount), recvtype,
                            &c);
}

mpi_fn! {
    /// Blocks until every rank of `comm` has called it.
    fn MPI_Barrier(comm_h: MPI_Comm) -> c_int => PMPI_Barrier {
        call("MPI_Barrier", comm_h, || {
            let c = comm(comm_h)?;
            barrier(&c)?.finish()
        })
    }
}
