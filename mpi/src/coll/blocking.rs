//! Blocking collectives over the engine's collectives. One implementation over 64-bit counts
//! serves `MPI_X` and `MPI_X_c`; it checks the arguments and starts the collective with its
//! destination (a [`PendingCollective`]), which the blocking entry points wait for on the
//! calling thread and the non-blocking ones ([`crate::coll::nonblocking`],
//! [`crate::coll::vector`]) make a request (`Complete::into_request`). `MPI_IN_PLACE` is accepted
//! where the standard allows it (the root of reduce/gather/scatter, every rank of allreduce,
//! allgather and alltoall).
//!
//! Buffers go through [`Buf`]: a dense buffer is the engine's destination as it is (the engine
//! stages device memory itself); a derived layout is packed for sending and unpacked by a
//! [`crate::args::RecvTarget`] when the collective completes. Data-movement collectives move
//! packed bytes, so send and receive types need only matching signatures; reductions run on
//! [`crate::coll::reducers::builtin`].
//!
//! `MPI_Allreduce`, `MPI_Bcast`, `MPI_Allgather` and `MPI_Reduce_scatter(_block)` use the
//! engine's raw starts with a [`Mode`]: for a blocking call the engine's plan may send them
//! through NCCL (`nccl` builds), after every argument check here. Which branch a call takes
//! depends only on what MPI requires to match across ranks (the operation, the type signature,
//! the packed length): a rank whose layout is not dense hands NCCL packed host copies.

use crate::args::{Buf, count, in_place, root_rank};
use crate::coll::op::{OpSpec, op};
use crate::consts::*;
use crate::errors::report::{MpiError, Result, call};
use crate::request::table::{MPI_Request, store_request};
use crate::state::comm;
use nexar::{Comm, Datatype, Dest, Input, Mode, PendingCollective};
use std::ffi::{c_int, c_void};

/// Where a collective's result for `b` goes: the user's memory itself when `b` is dense, else a
/// receive target that unpacks the packed result into `b`'s layout.
pub(crate) fn dest_of(b: &Buf) -> Dest {
    if b.is_dense() {
        // SAFETY: `Buf::new` checked the buffer; the MPI contract keeps it valid and untouched
        // until the operation completes.
        unsafe { Dest::caller(b.ptr.cast_mut(), b.len) }
    } else {
        Dest::Target(Box::new(b.recv_target()))
    }
}

/// `rb`'s destination, or nothing for a rank without a receive buffer.
fn dest_or_nothing(rb: Option<&Buf>) -> Dest {
    rb.map_or(Dest::Nothing, dest_of)
}

/// `b` as an input the engine may read in place (dense) or its packed copy.
pub(crate) fn input_of(b: &Buf) -> Result<Input> {
    Ok(if b.is_dense() {
        Input::Borrowed(b.ptr)
    } else {
        // SAFETY: `Buf::new` checked the buffer; readable per the MPI contract.
        Input::Owned(unsafe { b.send_bytes()? }.into_owned())
    })
}

/// How the shim completes a started collective (its destination already given).
pub(crate) trait Complete {
    /// Waits on the calling thread (a blocking call).
    fn complete(self) -> Result<()>;

    /// Makes the collective a request: `*request` (checked for NULL) receives the handle; the
    /// collective finishes in the background.
    fn into_request(self, comm_h: MPI_Comm, request: *mut MPI_Request) -> Result<()>;
}

impl Complete for PendingCollective {
    fn complete(self) -> Result<()> {
        Ok(self.wait()?)
    }

    fn into_request(self, comm_h: MPI_Comm, request: *mut MPI_Request) -> Result<()> {
        store_request(request, comm_h, self.finish_in_background(None))
    }
}

/// `count * n` for the whole-communicator buffers of rooted and all-to-all collectives.
pub(crate) fn times(n: MPI_Count, size: u32) -> Result<MPI_Count> {
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
) -> Result<PendingCollective> {
    if c.is_inter() {
        return crate::coll::inter::bcast(buf, n, dt, root, c);
    }
    let root = root_rank(root, c.size())?;
    let b = Buf::new(buf, n, dt, "broadcast")?;
    // A dense buffer is broadcast in place; a derived layout moves packed (only the root's
    // bytes matter: elsewhere the input is ignored).
    let send = if b.is_dense() || root != c.rank() {
        Input::InPlace
    } else {
        input_of(&b)?
    };
    // SAFETY: `Buf::new` checked the buffer; left alone until the call completes.
    Ok(unsafe { c.start_bcast_to(send, dest_of(&b), b.len, root, mode)? })
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
            let reducer = crate::coll::reducers::builtin(o, &b.ty, b.len)?;
            let per = b.ty.size / reducer.elem_size().max(1);
            (reducer, per)
        }
        OpSpec::User(_) => (op.user_reducer(b.ty.to_arc(), dt), 1),
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
) -> Result<PendingCollective> {
    if c.is_inter() {
        return crate::coll::inter::reduce(sbuf, rbuf, n, dt, op(o)?, root, c);
    }
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
    let (Some(rb), None) = (&rb, root) else {
        let r = root.expect("an allreduce rank always has a receive buffer");
        // SAFETY: `Buf::new` checked the buffer; readable per the MPI contract.
        let send = unsafe { b.send_bytes()? };
        return Ok(c.start_reduce_to(&send, dest_or_nothing(rb.as_ref()), reducer, r, mode)?);
    };
    // An allreduce: a dense input is read where it is (the MPI contract leaves a send buffer
    // untouched until the call completes; an `MPI_IN_PLACE` receive buffer is the input and
    // the output, which the engine handles).
    let send = if in_place(sbuf) && rb.is_dense() {
        Input::InPlace
    } else {
        input_of(&b)?
    };
    // SAFETY: checked buffers, left alone until the call completes.
    Ok(unsafe { c.start_allreduce_to(send, dest_of(rb), rb.len, reducer, mode)? })
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
) -> Result<PendingCollective> {
    if c.is_inter() {
        return crate::coll::inter::gather(sbuf, sn, st, rbuf, rn, rt, root, c);
    }
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
    if let (None, Some(rb)) = (root, &rb) {
        // An allgather.
        let send = match &sb {
            Some(sb) => input_of(sb)?,
            None if rb.is_dense() => Input::InPlace,
            None => Input::Owned(block(rb, c.rank(), c.size())?),
        };
        let per = rb.len / c.size() as usize;
        // SAFETY: checked, disjoint buffers, left alone until the call completes.
        return Ok(unsafe { c.start_allgather_to(send, dest_of(rb), per, mode)? });
    }
    let send = match (&sb, &rb) {
        // SAFETY: `Buf::new` checked the buffer; readable per the MPI contract.
        (Some(sb), _) => unsafe { sb.send_bytes()? }.into_owned(),
        (None, Some(rb)) => block(rb, c.rank(), c.size())?,
        (None, None) => unreachable!("a rank without a receive buffer has a send buffer"),
    };
    let r = root.expect("rootless calls returned above");
    let p = c.start_gather(&send, dtype, r)?;
    Ok(p.to(dest_or_nothing(rb.as_ref())))
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
) -> Result<PendingCollective> {
    if c.is_inter() {
        return crate::coll::inter::scatter(sbuf, sn, st, rbuf, rn, rt, root, c);
    }
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
            (Dest::Scratch(len), len)
        }
        _ => {
            let rb = Buf::new(rbuf, rn, rt, "receive")?;
            (dest_of(&rb), rb.len)
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
    Ok(c.start_scatter(&send, Datatype::U8, len, root)?.to(dest))
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
) -> Result<PendingCollective> {
    if c.is_inter() {
        return crate::coll::inter::alltoall(sbuf, sn, st, rbuf, rn, rt, c);
    }
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
    Ok(c.start_alltoall(&send, Datatype::U8)?.to(dest_of(&rb)))
}

/// Starts a barrier (a blocking one may complete before this returns, on the flag area).
pub fn barrier(c: &Comm, mode: Mode) -> Result<PendingCollective> {
    if c.is_inter() {
        return Ok(c.start_inter_barrier()?);
    }
    Ok(c.start_barrier_to(mode)?)
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
                    $body?.complete()
                })
            }

            #[doc = concat!("Large-count [`", stringify!($name), "`].")]
            fn $cname($($arg: $cty,)* comm_h: MPI_Comm) -> c_int => $pcname {
                call(stringify!($cname), comm_h, || {
                    let $c = comm(comm_h)?;
                    let $cv = |n: MPI_Count| n;
                    $body?.complete()
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
        => |c, cv| reduce(sendbuf, recvbuf, cv(n), dt, o, Some(root), &c, Mode::Blocking);
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
            barrier(&c, Mode::Blocking)?.complete()
        })
    }
}
