//! Blocking collectives over the engine's byte-level `start_*` collectives. One implementation
//! over 64-bit counts serves `MPI_X` and `MPI_X_c`. `MPI_IN_PLACE` is accepted where the
//! standard allows it (the root of reduce/gather/scatter, every rank of allreduce, allgather
//! and alltoall).

use crate::args::{Buf, count, in_place, root_rank};
use crate::consts::*;
use crate::error::{MpiError, Result, call};
use crate::handles::op;
use crate::state::comm;
use nexar::{Comm, PendingCollective};
use std::ffi::{c_int, c_void};

fn finish(p: PendingCollective, recv: &mut [u8]) -> Result<()> {
    Ok(pollster::block_on(p.finish_into(recv))?)
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

fn same_len(send: usize, recv: usize) -> Result<()> {
    if send != recv {
        return Err(MpiError::new(
            MPI_ERR_TRUNCATE,
            format!("send block has {send} bytes, receive block {recv}"),
        ));
    }
    Ok(())
}

fn bcast(buf: *mut c_void, n: MPI_Count, dt: MPI_Datatype, root: c_int, c: &Comm) -> Result<()> {
    let root = root_rank(root, c.size())?;
    let b = Buf::new(buf, n, dt, "broadcast")?;
    // SAFETY: `Buf::new` checked the pointer; the engine copies the input before returning.
    let p = c.start_bcast(unsafe { b.bytes() }, root)?;
    // SAFETY: as above, writable per the MPI contract; no other slice of it is alive.
    finish(p, unsafe { b.bytes_mut() })
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

#[allow(clippy::too_many_arguments)]
fn reduce(
    sbuf: *const c_void,
    rbuf: *mut c_void,
    n: MPI_Count,
    dt: MPI_Datatype,
    o: MPI_Op,
    root: Option<c_int>,
    c: &Comm,
) -> Result<()> {
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
        Some(r) => c.start_reduce(&send, dtype, op, r)?,
        None => c.start_allreduce(&send, dtype, op)?,
    };
    // SAFETY: `Buf::new` checked the pointer; writable per the MPI contract.
    finish(p, rb.map_or(&mut [], |rb| unsafe { rb.bytes_mut() }))
}

#[allow(clippy::too_many_arguments)]
fn gather(
    sbuf: *const c_void,
    sn: MPI_Count,
    st: MPI_Datatype,
    rbuf: *mut c_void,
    rn: MPI_Count,
    rt: MPI_Datatype,
    root: Option<c_int>,
    c: &Comm,
) -> Result<()> {
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
    // SAFETY: `Buf::new` checked the pointer; writable per the MPI contract.
    finish(p, rb.map_or(&mut [], |rb| unsafe { rb.bytes_mut() }))
}

#[allow(clippy::too_many_arguments)]
fn scatter(
    sbuf: *const c_void,
    sn: MPI_Count,
    st: MPI_Datatype,
    rbuf: *mut c_void,
    rn: MPI_Count,
    rt: MPI_Datatype,
    root: c_int,
    c: &Comm,
) -> Result<()> {
    let root = root_rank(root, c.size())?;
    let is_root = root == c.rank();
    let sb = if is_root {
        Some(Buf::new(sbuf, times(sn, c.size())?, st, "send")?)
    } else {
        None
    };
    let mut scratch = Vec::new();
    let (recv, dtype): (&mut [u8], _) = match &sb {
        Some(sb) if in_place(rbuf) => {
            scratch.resize(sb.len / c.size() as usize, 0);
            (&mut scratch, sb.dtype)
        }
        _ => {
            let rb = Buf::new(rbuf, rn, rt, "receive")?;
            // SAFETY: `Buf::new` checked the pointer; writable per the MPI contract.
            (unsafe { rb.bytes_mut() }, rb.dtype)
        }
    };
    if let Some(sb) = &sb {
        same_len(sb.len / c.size() as usize, recv.len())?;
    }
    // SAFETY: `Buf::new` checked the pointer; readable per the MPI contract.
    let send = sb.map_or(&[][..], |sb| unsafe { sb.bytes() });
    let p = c.start_scatter(send, dtype, recv.len(), root)?;
    finish(p, recv)
}

#[allow(clippy::too_many_arguments)]
fn alltoall(
    sbuf: *const c_void,
    sn: MPI_Count,
    st: MPI_Datatype,
    rbuf: *mut c_void,
    rn: MPI_Count,
    rt: MPI_Datatype,
    c: &Comm,
) -> Result<()> {
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
    // SAFETY: `Buf::new` checked the pointer; writable per the MPI contract.
    finish(p, unsafe { rb.bytes_mut() })
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
                    $body
                })
            }

            #[doc = concat!("Large-count [`", stringify!($name), "`].")]
            fn $cname($($arg: $cty,)* comm_h: MPI_Comm) -> c_int => $pcname {
                call(stringify!($cname), comm_h, || {
                    let $c = comm(comm_h)?;
                    let $cv = |n: MPI_Count| n;
                    $body
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
            finish(c.start_barrier()?, &mut [])
        })
    }
}
