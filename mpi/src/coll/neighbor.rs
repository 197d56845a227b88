//! Neighbourhood collectives on a process topology: `MPI_Neighbor_allgather(v)`,
//! `MPI_Neighbor_alltoall(v,w)`, their non-blocking `MPI_Ineighbor_*` forms and the
//! large-count `_c` ones (the persistent `_init` forms are not implemented yet).
//!
//! Every process sends one block along each of its out-edges and receives one along each of
//! its in-edges, in the order [`crate::comm::topo::neighbour_lists`] gives (Cartesian: per
//! dimension the neighbour below, then above). All of them reduce to one exchange: the blocks
//! for a destination rank are packed one after another in edge order and move through the
//! engine's byte-level alltoallv (zero bytes to ranks that are not neighbours); a rank that
//! appears several times in a list (a multigraph) gets its blocks in edge order on both
//! sides, as MPI matches them; on a Cartesian grid the block sent one step up is the one the
//! receiver gets from one step down, also when both are the same process (a periodic
//! dimension of size 1 or 2), so each dimension's pair is packed up first. An `MPI_PROC_NULL`
//! neighbour sends nothing and its receive block is left untouched. `MPI_IN_PLACE` is not
//! valid here (the standard does not allow it).

use crate::args::{Buf, in_place};
use crate::coll::alltoallw::BlockTargets;
use crate::coll::blocking::Complete;
use crate::coll::vector::{ArrayInt, array};
use crate::comm::topo::{Neighbours, neighbour_lists};
use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
use crate::request::table::MPI_Request;
use crate::state::comm;
use nexar::Datatype::U8;
use nexar::{Comm, Dest, PendingCollective};
use std::ffi::{c_int, c_void};

/// One side of a neighbourhood exchange: the block of every edge, in edge order.
type Blocks = Vec<Buf>;

fn no_in_place(b: *const c_void, what: &str) -> Result<()> {
    if in_place(b) {
        return Err(MpiError::new(
            MPI_ERR_BUFFER,
            format!("MPI_IN_PLACE is not valid as the {what} buffer of a neighbourhood collective"),
        ));
    }
    Ok(())
}

/// `n` blocks of `count` instances of `dt` laid one after another from `base` (block `k` at
/// `k * count` instances).
fn uniform(
    base: *const c_void,
    count: i64,
    dt: MPI_Datatype,
    n: usize,
    what: &str,
) -> Result<Blocks> {
    if count < 0 {
        return Err(MpiError::new(
            MPI_ERR_COUNT,
            format!("{what} count {count} is negative"),
        ));
    }
    let whole = Buf::new(base, count.saturating_mul(n as i64), dt, what)?;
    let c = count as usize;
    Ok((0..n).map(|k| whole.sub(k * c, c)).collect())
}

/// Blocks `counts[k]` instances of `dt` at `displs[k]` instances from `base`.
fn varying(
    base: *const c_void,
    counts: &[usize],
    displs: &[usize],
    dt: MPI_Datatype,
    what: &str,
) -> Result<Blocks> {
    let end = counts
        .iter()
        .zip(displs)
        .map(|(&c, &d)| c.checked_add(d))
        .try_fold(0usize, |m, e| e.map(|e| m.max(e)))
        .ok_or_else(|| MpiError::new(MPI_ERR_COUNT, "counts and displacements overflow"))?;
    let whole = Buf::new(base, end as MPI_Count, dt, what)?;
    Ok(counts
        .iter()
        .zip(displs)
        .map(|(&c, &d)| whole.sub(d, c))
        .collect())
}

/// Blocks of `counts[k]` instances of `types[k]` at `displs[k]` bytes from `base`.
fn typed<C: ArrayInt>(
    base: *const c_void,
    (counts, displs, types): (*const C, *const MPI_Aint, *const MPI_Datatype),
    n: usize,
    what: &str,
) -> Result<Blocks> {
    let counts = array(counts, n, &format!("{what}counts"), false)?;
    non_null(displs, &format!("{}displs", &what[..1]))?;
    non_null(types, &format!("{what}types"))?;
    (0..n)
        .map(|k| {
            // SAFETY: checked for NULL; one entry per neighbour (the MPI contract).
            let (d, t) = unsafe { (displs.add(k).read(), types.add(k).read()) };
            let p = base.cast::<u8>().wrapping_offset(d).cast();
            Buf::new(p, counts[k] as MPI_Count, t, &format!("{what} block {k}"))
        })
        .collect()
}

/// Starts the exchange on `c`: `sends[k]` goes to destination `k`, `recvs[k]` comes from
/// source `k` (see the module docs for the order of blocks between the same two processes).
fn exchange(
    c: &Comm,
    nb: &Neighbours,
    sends: &Blocks,
    recvs: &Blocks,
) -> Result<PendingCollective> {
    let (sources, dests) = (&nb.sources, &nb.destinations);
    let n = c.size() as usize;
    let rank_of = |r: c_int, what: &str| -> Result<Option<usize>> {
        match r {
            MPI_PROC_NULL => Ok(None),
            r if (0..n as c_int).contains(&r) => Ok(Some(r as usize)),
            r => Err(MpiError::new(
                MPI_ERR_TOPOLOGY,
                format!("{what} {r} is not a rank of this communicator"),
            )),
        }
    };
    // Packed send blocks grouped by destination, in edge order within a destination.
    let mut to: Vec<Vec<usize>> = vec![Vec::new(); n];
    for j in 0..nb.destinations.len() {
        // Cartesian: per dimension the block going up, then the one going down.
        let k = if nb.cartesian { j ^ 1 } else { j };
        if let Some(r) = rank_of(dests[k], "destination")? {
            to[r].push(k);
        }
    }
    let mut data = Vec::new();
    let (mut sc, mut sd) = (vec![0; n], vec![0; n]);
    for r in 0..n {
        sd[r] = data.len();
        for &k in &to[r] {
            // SAFETY: `Buf::new` checked the block; readable per the MPI contract.
            data.extend_from_slice(&unsafe { sends[k].send_bytes()? });
        }
        sc[r] = data.len() - sd[r];
    }
    let mut from: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, &s) in sources.iter().enumerate() {
        if let Some(r) = rank_of(s, "source")? {
            from[r].push(k);
        }
    }
    let (mut rc, mut rd) = (vec![0; n], vec![0; n]);
    let mut targets = Vec::new();
    let mut total = 0usize;
    for r in 0..n {
        rd[r] = total;
        for &k in &from[r] {
            targets.push((recvs[k].recv_target(), total));
            total += recvs[k].len;
        }
        rc[r] = total - rd[r];
    }
    let p = c.start_alltoallv(&data, &sc, Some(&sd), U8, &rc, Some(&rd), total)?;
    Ok(p.to(Dest::Target(Box::new(BlockTargets::new(total, targets)))))
}

/// The communicator (an intracommunicator with a topology) and its neighbours.
fn topology(comm_h: MPI_Comm) -> Result<(Comm, Neighbours)> {
    let c = comm(comm_h)?;
    if c.is_inter() {
        return Err(MpiError::new(
            MPI_ERR_COMM,
            "neighbourhood collectives need an intracommunicator with a topology",
        ));
    }
    Ok((c, neighbour_lists(comm_h)?))
}

#[allow(clippy::too_many_arguments)]
fn allgather(
    sb: *const c_void,
    sn: MPI_Count,
    st: MPI_Datatype,
    rb: *mut c_void,
    rn: MPI_Count,
    rt: MPI_Datatype,
    comm_h: MPI_Comm,
) -> Result<PendingCollective> {
    no_in_place(sb, "send")?;
    let (c, nb) = topology(comm_h)?;
    let one = uniform(sb, sn, st, 1, "send")?.remove(0);
    let sends = vec![one; nb.destinations.len()];
    let recvs = uniform(rb, rn, rt, nb.sources.len(), "receive")?;
    exchange(&c, &nb, &sends, &recvs)
}

#[allow(clippy::too_many_arguments)]
fn allgatherv<C: ArrayInt, D: ArrayInt>(
    sb: *const c_void,
    sn: MPI_Count,
    st: MPI_Datatype,
    rb: *mut c_void,
    rcounts: *const C,
    displs: *const D,
    rt: MPI_Datatype,
    comm_h: MPI_Comm,
) -> Result<PendingCollective> {
    no_in_place(sb, "send")?;
    let (c, nb) = topology(comm_h)?;
    let one = uniform(sb, sn, st, 1, "send")?.remove(0);
    let sends = vec![one; nb.destinations.len()];
    let n = nb.sources.len();
    let counts = array(rcounts, n, "recvcounts", false)?;
    let displs = array(displs, n, "displs", true)?;
    let recvs = varying(rb, &counts, &displs, rt, "receive")?;
    exchange(&c, &nb, &sends, &recvs)
}

#[allow(clippy::too_many_arguments)]
fn alltoall(
    sb: *const c_void,
    sn: MPI_Count,
    st: MPI_Datatype,
    rb: *mut c_void,
    rn: MPI_Count,
    rt: MPI_Datatype,
    comm_h: MPI_Comm,
) -> Result<PendingCollective> {
    no_in_place(sb, "send")?;
    let (c, nb) = topology(comm_h)?;
    let sends = uniform(sb, sn, st, nb.destinations.len(), "send")?;
    let recvs = uniform(rb, rn, rt, nb.sources.len(), "receive")?;
    exchange(&c, &nb, &sends, &recvs)
}

/// The counts / displacements / datatype of one side of an alltoallv.
type VSide<C, D> = (*const C, *const D, MPI_Datatype);

fn alltoallv<C: ArrayInt, D: ArrayInt>(
    sb: *const c_void,
    (scounts, sdispls, st): VSide<C, D>,
    rb: *mut c_void,
    (rcounts, rdispls, rt): VSide<C, D>,
    comm_h: MPI_Comm,
) -> Result<PendingCollective> {
    no_in_place(sb, "send")?;
    let (c, nb) = topology(comm_h)?;
    let (no, ni) = (nb.destinations.len(), nb.sources.len());
    let sends = varying(
        sb,
        &array(scounts, no, "sendcounts", false)?,
        &array(sdispls, no, "sdispls", true)?,
        st,
        "send",
    )?;
    let recvs = varying(
        rb,
        &array(rcounts, ni, "recvcounts", false)?,
        &array(rdispls, ni, "rdispls", true)?,
        rt,
        "receive",
    )?;
    exchange(&c, &nb, &sends, &recvs)
}

/// The counts / byte displacements / datatypes of one side of an alltoallw.
type WSide<C> = (*const C, *const MPI_Aint, *const MPI_Datatype);

fn alltoallw<C: ArrayInt>(
    sb: *const c_void,
    send: WSide<C>,
    rb: *mut c_void,
    recv: WSide<C>,
    comm_h: MPI_Comm,
) -> Result<PendingCollective> {
    no_in_place(sb, "send")?;
    let (c, nb) = topology(comm_h)?;
    let sends = typed(sb, send, nb.destinations.len(), "send")?;
    let recvs = typed(rb, recv, nb.sources.len(), "recv")?;
    exchange(&c, &nb, &sends, &recvs)
}

mpi_fn! {
    /// Sends the same block to every out-neighbour and receives one block from each
    /// in-neighbour, in neighbour order (see the module docs).
    fn MPI_Neighbor_allgather(sendbuf: *const c_void, sendcount: c_int, sendtype: MPI_Datatype,
        recvbuf: *mut c_void, recvcount: c_int, recvtype: MPI_Datatype, comm_h: MPI_Comm)
        -> c_int => PMPI_Neighbor_allgather
    {
        call("MPI_Neighbor_allgather", comm_h, || {
            allgather(sendbuf, sendcount.into(), sendtype, recvbuf, recvcount.into(), recvtype,
                comm_h)?.complete()
        })
    }

    /// Large-count [`MPI_Neighbor_allgather`].
    fn MPI_Neighbor_allgather_c(sendbuf: *const c_void, sendcount: MPI_Count,
        sendtype: MPI_Datatype, recvbuf: *mut c_void, recvcount: MPI_Count,
        recvtype: MPI_Datatype, comm_h: MPI_Comm) -> c_int => PMPI_Neighbor_allgather_c
    {
        call("MPI_Neighbor_allgather_c", comm_h, || {
            allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm_h)?
                .complete()
        })
    }

    /// Non-blocking [`MPI_Neighbor_allgather`].
    fn MPI_Ineighbor_allgather(sendbuf: *const c_void, sendcount: c_int, sendtype: MPI_Datatype,
        recvbuf: *mut c_void, recvcount: c_int, recvtype: MPI_Datatype, comm_h: MPI_Comm,
        request: *mut MPI_Request) -> c_int => PMPI_Ineighbor_allgather
    {
        call("MPI_Ineighbor_allgather", comm_h, || {
            non_null(request, "request")?;
            allgather(sendbuf, sendcount.into(), sendtype, recvbuf, recvcount.into(), recvtype,
                comm_h)?.into_request(comm_h, request)
        })
    }

    /// Large-count [`MPI_Ineighbor_allgather`].
    fn MPI_Ineighbor_allgather_c(sendbuf: *const c_void, sendcount: MPI_Count,
        sendtype: MPI_Datatype, recvbuf: *mut c_void, recvcount: MPI_Count,
        recvtype: MPI_Datatype, comm_h: MPI_Comm, request: *mut MPI_Request) -> c_int
        => PMPI_Ineighbor_allgather_c
    {
        call("MPI_Ineighbor_allgather_c", comm_h, || {
            non_null(request, "request")?;
            allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm_h)?
                .into_request(comm_h, request)
        })
    }

    /// [`MPI_Neighbor_allgather`] with a count and displacement (in receive-type extents) per
    /// in-neighbour.
    fn MPI_Neighbor_allgatherv(sendbuf: *const c_void, sendcount: c_int,
        sendtype: MPI_Datatype, recvbuf: *mut c_void, recvcounts: *const c_int,
        displs: *const c_int, recvtype: MPI_Datatype, comm_h: MPI_Comm) -> c_int
        => PMPI_Neighbor_allgatherv
    {
        call("MPI_Neighbor_allgatherv", comm_h, || {
            allgatherv(sendbuf, sendcount.into(), sendtype, recvbuf, recvcounts, displs,
                recvtype, comm_h)?.complete()
        })
    }

    /// Large-count [`MPI_Neighbor_allgatherv`].
    fn MPI_Neighbor_allgatherv_c(sendbuf: *const c_void, sendcount: MPI_Count,
        sendtype: MPI_Datatype, recvbuf: *mut c_void, recvcounts: *const MPI_Count,
        displs: *const MPI_Aint, recvtype: MPI_Datatype, comm_h: MPI_Comm) -> c_int
        => PMPI_Neighbor_allgatherv_c
    {
        call("MPI_Neighbor_allgatherv_c", comm_h, || {
            allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                comm_h)?.complete()
        })
    }

    /// Non-blocking [`MPI_Neighbor_allgatherv`].
    fn MPI_Ineighbor_allgatherv(sendbuf: *const c_void, sendcount: c_int,
        sendtype: MPI_Datatype, recvbuf: *mut c_void, recvcounts: *const c_int,
        displs: *const c_int, recvtype: MPI_Datatype, comm_h: MPI_Comm,
        request: *mut MPI_Request) -> c_int => PMPI_Ineighbor_allgatherv
    {
        call("MPI_Ineighbor_allgatherv", comm_h, || {
            non_null(request, "request")?;
            allgatherv(sendbuf, sendcount.into(), sendtype, recvbuf, recvcounts, displs,
                recvtype, comm_h)?.into_request(comm_h, request)
        })
    }

    /// Large-count [`MPI_Ineighbor_allgatherv`].
    fn MPI_Ineighbor_allgatherv_c(sendbuf: *const c_void, sendcount: MPI_Count,
        sendtype: MPI_Datatype, recvbuf: *mut c_void, recvcounts: *const MPI_Count,
        displs: *const MPI_Aint, recvtype: MPI_Datatype, comm_h: MPI_Comm,
        request: *mut MPI_Request) -> c_int => PMPI_Ineighbor_allgatherv_c
    {
        call("MPI_Ineighbor_allgatherv_c", comm_h, || {
            non_null(request, "request")?;
            allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                comm_h)?.into_request(comm_h, request)
        })
    }

    /// Sends block `k` of the send buffer to out-neighbour `k` and receives block `k` of the
    /// receive buffer from in-neighbour `k`.
    fn MPI_Neighbor_alltoall(sendbuf: *const c_void, sendcount: c_int, sendtype: MPI_Datatype,
        recvbuf: *mut c_void, recvcount: c_int, recvtype: MPI_Datatype, comm_h: MPI_Comm)
        -> c_int => PMPI_Neighbor_alltoall
    {
        call("MPI_Neighbor_alltoall", comm_h, || {
            alltoall(sendbuf, sendcount.into(), sendtype, recvbuf, recvcount.into(), recvtype,
                comm_h)?.complete()
        })
    }

    /// Large-count [`MPI_Neighbor_alltoall`].
    fn MPI_Neighbor_alltoall_c(sendbuf: *const c_void, sendcount: MPI_Count,
        sendtype: MPI_Datatype, recvbuf: *mut c_void, recvcount: MPI_Count,
        recvtype: MPI_Datatype, comm_h: MPI_Comm) -> c_int => PMPI_Neighbor_alltoall_c
    {
        call("MPI_Neighbor_alltoall_c", comm_h, || {
            alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm_h)?
                .complete()
        })
    }

    /// Non-blocking [`MPI_Neighbor_alltoall`].
    fn MPI_Ineighbor_alltoall(sendbuf: *const c_void, sendcount: c_int, sendtype: MPI_Datatype,
        recvbuf: *mut c_void, recvcount: c_int, recvtype: MPI_Datatype, comm_h: MPI_Comm,
        request: *mut MPI_Request) -> c_int => PMPI_Ineighbor_alltoall
    {
        call("MPI_Ineighbor_alltoall", comm_h, || {
            non_null(request, "request")?;
            alltoall(sendbuf, sendcount.into(), sendtype, recvbuf, recvcount.into(), recvtype,
                comm_h)?.into_request(comm_h, request)
        })
    }

    /// Large-count [`MPI_Ineighbor_alltoall`].
    fn MPI_Ineighbor_alltoall_c(sendbuf: *const c_void, sendcount: MPI_Count,
        sendtype: MPI_Datatype, recvbuf: *mut c_void, recvcount: MPI_Count,
        recvtype: MPI_Datatype, comm_h: MPI_Comm, request: *mut MPI_Request) -> c_int
        => PMPI_Ineighbor_alltoall_c
    {
        call("MPI_Ineighbor_alltoall_c", comm_h, || {
            non_null(request, "request")?;
            alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm_h)?
                .into_request(comm_h, request)
        })
    }

    /// [`MPI_Neighbor_alltoall`] with a count and displacement (in datatype extents) per
    /// neighbour on both sides.
    fn MPI_Neighbor_alltoallv(sendbuf: *const c_void, sendcounts: *const c_int,
        sdispls: *const c_int, sendtype: MPI_Datatype, recvbuf: *mut c_void,
        recvcounts: *const c_int, rdispls: *const c_int, recvtype: MPI_Datatype,
        comm_h: MPI_Comm) -> c_int => PMPI_Neighbor_alltoallv
    {
        call("MPI_Neighbor_alltoallv", comm_h, || {
            alltoallv(sendbuf, (sendcounts, sdispls, sendtype), recvbuf,
                (recvcounts, rdispls, recvtype), comm_h)?.complete()
        })
    }

    /// Large-count [`MPI_Neighbor_alltoallv`].
    fn MPI_Neighbor_alltoallv_c(sendbuf: *const c_void, sendcounts: *const MPI_Count,
        sdispls: *const MPI_Aint, sendtype: MPI_Datatype, recvbuf: *mut c_void,
        recvcounts: *const MPI_Count, rdispls: *const MPI_Aint, recvtype: MPI_Datatype,
        comm_h: MPI_Comm) -> c_int => PMPI_Neighbor_alltoallv_c
    {
        call("MPI_Neighbor_alltoallv_c", comm_h, || {
            alltoallv(sendbuf, (sendcounts, sdispls, sendtype), recvbuf,
                (recvcounts, rdispls, recvtype), comm_h)?.complete()
        })
    }

    /// Non-blocking [`MPI_Neighbor_alltoallv`].
    fn MPI_Ineighbor_alltoallv(sendbuf: *const c_void, sendcounts: *const c_int,
        sdispls: *const c_int, sendtype: MPI_Datatype, recvbuf: *mut c_void,
        recvcounts: *const c_int, rdispls: *const c_int, recvtype: MPI_Datatype,
        comm_h: MPI_Comm, request: *mut MPI_Request) -> c_int => PMPI_Ineighbor_alltoallv
    {
        call("MPI_Ineighbor_alltoallv", comm_h, || {
            non_null(request, "request")?;
            alltoallv(sendbuf, (sendcounts, sdispls, sendtype), recvbuf,
                (recvcounts, rdispls, recvtype), comm_h)?.into_request(comm_h, request)
        })
    }

    /// Large-count [`MPI_Ineighbor_alltoallv`].
    fn MPI_Ineighbor_alltoallv_c(sendbuf: *const c_void, sendcounts: *const MPI_Count,
        sdispls: *const MPI_Aint, sendtype: MPI_Datatype, recvbuf: *mut c_void,
        recvcounts: *const MPI_Count, rdispls: *const MPI_Aint, recvtype: MPI_Datatype,
        comm_h: MPI_Comm, request: *mut MPI_Request) -> c_int => PMPI_Ineighbor_alltoallv_c
    {
        call("MPI_Ineighbor_alltoallv_c", comm_h, || {
            non_null(request, "request")?;
            alltoallv(sendbuf, (sendcounts, sdispls, sendtype), recvbuf,
                (recvcounts, rdispls, recvtype), comm_h)?.into_request(comm_h, request)
        })
    }

    /// [`MPI_Neighbor_alltoall`] with a count, byte displacement and datatype per neighbour
    /// on both sides.
    fn MPI_Neighbor_alltoallw(sendbuf: *const c_void, sendcounts: *const c_int,
        sdispls: *const MPI_Aint, sendtypes: *const MPI_Datatype, recvbuf: *mut c_void,
        recvcounts: *const c_int, rdispls: *const MPI_Aint, recvtypes: *const MPI_Datatype,
        comm_h: MPI_Comm) -> c_int => PMPI_Neighbor_alltoallw
    {
        call("MPI_Neighbor_alltoallw", comm_h, || {
            alltoallw(sendbuf, (sendcounts, sdispls, sendtypes), recvbuf,
                (recvcounts, rdispls, recvtypes), comm_h)?.complete()
        })
    }

    /// Large-count [`MPI_Neighbor_alltoallw`].
    fn MPI_Neighbor_alltoallw_c(sendbuf: *const c_void, sendcounts: *const MPI_Count,
        sdispls: *const MPI_Aint, sendtypes: *const MPI_Datatype, recvbuf: *mut c_void,
        recvcounts: *const MPI_Count, rdispls: *const MPI_Aint, recvtypes: *const MPI_Datatype,
        comm_h: MPI_Comm) -> c_int => PMPI_Neighbor_alltoallw_c
    {
        call("MPI_Neighbor_alltoallw_c", comm_h, || {
            alltoallw(sendbuf, (sendcounts, sdispls, sendtypes), recvbuf,
                (recvcounts, rdispls, recvtypes), comm_h)?.complete()
        })
    }

    /// Non-blocking [`MPI_Neighbor_alltoallw`].
    fn MPI_Ineighbor_alltoallw(sendbuf: *const c_void, sendcounts: *const c_int,
        sdispls: *const MPI_Aint, sendtypes: *const MPI_Datatype, recvbuf: *mut c_void,
        recvcounts: *const c_int, rdispls: *const MPI_Aint, recvtypes: *const MPI_Datatype,
        comm_h: MPI_Comm, request: *mut MPI_Request) -> c_int => PMPI_Ineighbor_alltoallw
    {
        call("MPI_Ineighbor_alltoallw", comm_h, || {
            non_null(request, "request")?;
            alltoallw(sendbuf, (sendcounts, sdispls, sendtypes), recvbuf,
                (recvcounts, rdispls, recvtypes), comm_h)?.into_request(comm_h, request)
        })
    }

    /// Large-count [`MPI_Ineighbor_alltoallw`].
    fn MPI_Ineighbor_alltoallw_c(sendbuf: *const c_void, sendcounts: *const MPI_Count,
        sdispls: *const MPI_Aint, sendtypes: *const MPI_Datatype, recvbuf: *mut c_void,
        recvcounts: *const MPI_Count, rdispls: *const MPI_Aint, recvtypes: *const MPI_Datatype,
        comm_h: MPI_Comm, request: *mut MPI_Request) -> c_int => PMPI_Ineighbor_alltoallw_c
    {
        call("MPI_Ineighbor_alltoallw_c", comm_h, || {
            non_null(request, "request")?;
            alltoallw(sendbuf, (sendcounts, sdispls, sendtypes), recvbuf,
                (recvcounts, rdispls, recvtypes), comm_h)?.into_request(comm_h, request)
        })
    }
}
