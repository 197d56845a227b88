//! Blocking collectives over the engine's byte-level `start_*` collectives. One implementation
//! over 64-bit counts serves `MPI_X` and `MPI_X_c`; it checks the arguments and starts the
//! collective ([`Started`]), which the blocking entry points finish on the calling thread and
//! the non-blocking ones ([`crate::nonblocking`], [`crate::coll_v`]) in a request.
//! `MPI_IN_PLACE` is accepted where the standard allows it (the root of reduce/gather/scatter,
//! every rank of allreduce, allgather and alltoall).

use crate::args::{Buf, count, in_place, root_rank};
use crate::consts::*;
use crate::error::{MpiError, Result, call};
use crate::op::op;
use crate::request::{MPI_Request, RawOut, store_request};
use crate::state::comm;
use nexar::{Comm, PendingCollective};
use std::ffi::{c_int, c_void};

/// Where a started collective's result goes.
pub(crate) enum Dest {
    /// The caller's buffer.
    User(RawOut),
    /// A scratch buffer whose contents are dropped (ranks without a result, in-place roots).
    Scratch(Vec<u8>),
}

/// A collective started on this rank (its place in the communicator's order is taken): finish
/// it on the calling thread ([`Started::finish`]) or in a request ([`Started::into_request`]).
pub struct Started {
    comm: Comm,
    pending: PendingCollective,
    dest: Dest,
}

impl Started {
    pub(crate) fn user(comm: &Comm, pending: PendingCollective, out: RawOut) -> Self {
        Self {
            comm: comm.clone(),
            pending,
            dest: Dest::User(out),
        }
    }

    pub(crate) fn scratch(comm: &Comm, pending: PendingCollective, v: Vec<u8>) -> Self {
        Self {
            comm: comm.clone(),
            pending,
            dest: Dest::Scratch(v),
        }
    }

    fn into_out(self, rb: Option<&Buf>) -> Self {
        match rb {
            Some(rb) => Self {
                dest: Dest::User(RawOut::of(rb)),
                ..self
            },
            None => self,
        }
    }

    /// Finishes on the calling thread.
    pub fn finish(self) -> Result<()> {
        let Self { pending, dest, .. } = self;
        match dest {
            // SAFETY: checked at start; the caller is blocked meanwhile.
            Dest::User(out) => pollster::block_on(pending.finish_into(unsafe { out.get() }))?,
            Dest::Scratch(mut v) => pollster::block_on(pending.finish_into(&mut v))?,
        }
        Ok(())
    }

    /// Finishes in the background; `*request` (checked for NULL) receives the handle.
    pub fn into_request(self, comm_h: MPI_Comm, request: *mut MPI_Request) -> Result<()> {
        let Self {
            comm,
            pending,
            dest,
        } = self;
        let req = comm.spawn(async move {
            match dest {
                // SAFETY: the caller keeps the buffer valid until the request completes.
                Dest::User(out) => pending.finish_into(unsafe { out.get() }).await?,
                Dest::Scratch(mut v) => pending.finish_into(&mut v).await?,
            }
            Ok(None)
        });
        store_request(request, comm_h, req)
    }
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

/// Block `i` of `len`-byte blocks of `b`, copied.
fn block(b: &Buf, i: u32, len: usize) -> Vec<u8> {
    // SAFETY: `Buf::new` checked the pointer; readable per the MPI contract.
    let all = unsafe { b.bytes() };
    all[i as usize * len..(i as usize + 1) * len].to_vec()
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

/// Starts a broadcast.
pub fn bcast(
    buf: *mut c_void,
    n: MPI_Count,
    dt: MPI_Datatype,
    root: c_int,
    c: &Comm,
) -> Result<Started> {
    let root = root_rank(root, c.size())?;
    let b = Buf::new(buf, n, dt, "broadcast")?;
    // SAFETY: `Buf::new` checked the pointer; the engine copies the input before returning.
    let p = c.start_bcast(unsafe { b.bytes() }, root)?;
    Ok(Started::user(c, p, RawOut::of(&b)))
}

/// The input of a reduction: `sbuf`, or a copy of `rbuf` when `sbuf` is `MPI_IN_PLACE`.
fn reduce_input(
    sbuf: *const c_void,
    rb: Option<&Buf>,
    n: MPI_Count,
    dt: MPI_Datatype,
) -> Result<Vec<u8>> {
    match rb {
        // SAFETY: `Buf::new` checked the pointer; readable per the MPI contract.
        Some(rb) if in_place(sbuf) => Ok(unsafe { rb.bytes() }.to_vec()),
        // SAFETY: as above.
        _ => Ok(unsafe { Buf::new(sbuf, n, dt, "send")?.bytes() }.to_vec()),
    }
}

/// Starts a reduce (`root` given) or an allreduce.
#[allow(clippy::too_many_arguments)]
pub fn reduce(
    sbuf: *const c_void,
    rbuf: *mut c_void,
    n: MPI_Count,
    dt: MPI_Datatype,
    o: MPI_Op,
    root: Option<c_int>,
    c: &Comm,
) -> Result<Started> {
    let root = root.map(|r| root_rank(r, c.size())).transpose()?;
    let op = op(o)?;
    let receives = root.is_none_or(|r| r == c.rank());
    let rb = if receives {
        Some(Buf::new(rbuf, n, dt, "receive")?)
    } else {
        None
    };
    let send = reduce_input(sbuf, rb.as_ref(), n, dt)?;
    let dtype = crate::handles::datatype(dt)?;
    let p = match root {
        Some(r) => c.start_reduce_with(&send, op.reducer(dtype, dt), r)?,
        None => c.start_allreduce_with(&send, op.reducer(dtype, dt))?,
    };
    Ok(Started::scratch(c, p, Vec::new()).into_out(rb.as_ref()))
}

/// Starts a gather (`root` given) or an allgather.
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
) -> Result<Started> {
    let root = root.map(|r| root_rank(r, c.size())).transpose()?;
    let receives = root.is_none_or(|r| r == c.rank());
    let rb = if receives {
        Some(Buf::new(rbuf, times(rn, c.size())?, rt, "receive")?)
    } else {
        None
    };
    let (send, dtype) = match &rb {
        Some(rb) if in_place(sbuf) => {
            let len = rb.len / c.size() as usize;
            (block(rb, c.rank(), len), rb.dtype)
        }
        _ => {
            let sb = Buf::new(sbuf, sn, st, "send")?;
            // SAFETY: `Buf::new` checked the pointer; readable per the MPI contract.
            (unsafe { sb.bytes() }.to_vec(), sb.dtype)
        }
    };
    if let Some(rb) = &rb {
        same_len(send.len(), rb.len / c.size() as usize)?;
    }
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
    let (dest, len, dtype) = match &sb {
        Some(sb) if in_place(rbuf) => {
            let len = sb.len / c.size() as usize;
            (Dest::Scratch(vec![0; len]), len, sb.dtype)
        }
        _ => {
            let rb = Buf::new(rbuf, rn, rt, "receive")?;
            (Dest::User(RawOut::of(&rb)), rb.len, rb.dtype)
        }
    };
    if let Some(sb) = &sb {
        same_len(sb.len / c.size() as usize, len)?;
    }
    // SAFETY: `Buf::new` checked the pointer; readable per the MPI contract.
    let send = sb.map_or(&[][..], |sb| unsafe { sb.bytes() });
    let p = c.start_scatter(send, dtype, len, root)?;
    Ok(Started {
        comm: c.clone(),
        pending: p,
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
    let (send, dtype) = if in_place(sbuf) {
        // SAFETY: `Buf::new` checked the pointer; readable per the MPI contract.
        (unsafe { rb.bytes() }.to_vec(), rb.dtype)
    } else {
        let sb = Buf::new(sbuf, times(sn, c.size())?, st, "send")?;
        // SAFETY: as above.
        (unsafe { sb.bytes() }.to_vec(), sb.dtype)
    };
    same_len(send.len(), rb.len)?;
    let p = c.start_alltoall(&send, dtype)?;
    Ok(Started::user(c, p, RawOut::of(&rb)))
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
    /// Broadcasts `count` elements from `root`.
    MPI_Bcast / PMPI_Bcast, MPI_Bcast_c / PMPI_Bcast_c
        (buf: *mut c_void | *mut c_void, n: c_int | MPI_Count, dt: MPI_Datatype | MPI_Datatype,
         root: c_int | c_int)
        => |c, cv| bcast(buf, cv(n), dt, root, &c);
    /// Reduces to `root` (`sendbuf` may be `MPI_IN_PLACE` at the root).
    MPI_Reduce / PMPI_Reduce, MPI_Reduce_c / PMPI_Reduce_c
        (sendbuf: *const c_void | *const c_void, recvbuf: *mut c_void | *mut c_void,
         n: c_int | MPI_Count, dt: MPI_Datatype | MPI_Datatype, o: MPI_Op | MPI_Op,
         root: c_int | c_int)
        => |c, cv| reduce(sendbuf, recvbuf, cv(n), dt, o, Some(root), &c);
    /// Reduces to every rank (`sendbuf` may be `MPI_IN_PLACE`).
    MPI_Allreduce / PMPI_Allreduce, MPI_Allreduce_c / PMPI_Allreduce_c
        (sendbuf: *const c_void | *const c_void, recvbuf: *mut c_void | *mut c_void,
         n: c_int | MPI_Count, dt: MPI_Datatype | MPI_Datatype, o: MPI_Op | MPI_Op)
        => |c, cv| reduce(sendbuf, recvbuf, cv(n), dt, o, None, &c);
    /// Gathers equal blocks to `root` (`sendbuf` may be `MPI_IN_PLACE` at the root).
    MPI_Gather / PMPI_Gather, MPI_Gather_c / PMPI_Gather_c
        (sendbuf: *const c_void | *const c_void, sendcount: c_int | MPI_Count,
         sendtype: MPI_Datatype | MPI_Datatype, recvbuf: *mut c_void | *mut c_void,
         recvcount: c_int | MPI_Count, recvtype: MPI_Datatype | MPI_Datatype, root: c_int | c_int)
        => |c, cv| gather(sendbuf, cv(sendcount), sendtype, recvbuf, cv(recvcount), recvtype,
                          Some(root), &c);
    /// Gathers equal blocks to every rank (`sendbuf` may be `MPI_IN_PLACE`).
    MPI_Allgather / PMPI_Allgather, MPI_Allgather_c / PMPI_Allgather_c
        (sendbuf: *const c_void | *const c_void, sendcount: c_int | MPI_Count,
         sendtype: MPI_Datatype | MPI_Datatype, recvbuf: *mut c_void | *mut c_void,
         recvcount: c_int | MPI_Count, recvtype: MPI_Datatype | MPI_Datatype)
        => |c, cv| gather(sendbuf, cv(sendcount), sendtype, recvbuf, cv(recvcount), recvtype,
                          None, &c);
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
