//! Persistent neighbourhood collectives (`MPI_Neighbor_allgather_init` ...
//! `MPI_Neighbor_alltoallw_init` and their `_c` forms), the same way as the other persistent
//! collectives ([`crate::coll::persistent`]): arguments checked at init, count / displacement
//! / datatype arrays copied there (one entry per neighbour of the communicator's topology),
//! and each `MPI_Start` issues the matching `MPI_Ineighbor_*` with the kept arguments.

use crate::args::count;
use crate::coll::neighbor::{
    PMPI_Ineighbor_allgather, PMPI_Ineighbor_allgather_c, PMPI_Ineighbor_allgatherv,
    PMPI_Ineighbor_allgatherv_c, PMPI_Ineighbor_alltoall, PMPI_Ineighbor_alltoall_c,
    PMPI_Ineighbor_alltoallv, PMPI_Ineighbor_alltoallv_c, PMPI_Ineighbor_alltoallw,
    PMPI_Ineighbor_alltoallw_c,
};
use crate::coll::persistent::{arr, buf, dtype, init, persist, ptr, types};
use crate::comm::communicator::MPI_Info;
use crate::comm::topo::neighbour_lists;
use crate::consts::*;
use crate::errors::report::call;
use crate::request::table::MPI_Request;
use std::ffi::{c_int, c_void};

/// Defines `MPI_X_init` and `MPI_X_init_c` (and their PMPI twins) like the other persistent
/// collectives, with `$nb` the communicator's neighbours (`MPI_ERR_TOPOLOGY` without a
/// topology) and `$cv` a count as `MPI_Count`.
macro_rules! pneighbor {
    ($(
        $(#[$doc:meta])*
        $name:ident / $pname:ident => $iname:ident, $cname:ident / $pcname:ident => $icname:ident
            ($($arg:ident: $ty:ty | $cty:ty),*)
            check |$nb:ident, $cv:ident| $check:block
            issue |$f:ident, $st:pat, $comm:ident, $req:ident| $issue:expr;
    )*) => {$(
        mpi_fn! {
            $(#[$doc])*
            fn $name($($arg: $ty,)* comm_h: MPI_Comm, info: MPI_Info,
                     request: *mut MPI_Request) -> c_int => $pname
            {
                call(stringify!($name), comm_h, || {
                    init(comm_h, info, request)?;
                    let $nb = neighbour_lists(comm_h)?;
                    let $cv = |n: c_int| count(n);
                    let kept = $check;
                    let $f = $iname;
                    persist(comm_h, request, kept, move |$st, $comm, $req| $issue)
                })
            }

            #[doc = concat!("Large-count [`", stringify!($name), "`].")]
            fn $cname($($arg: $cty,)* comm_h: MPI_Comm, info: MPI_Info,
                      request: *mut MPI_Request) -> c_int => $pcname
            {
                call(stringify!($cname), comm_h, || {
                    init(comm_h, info, request)?;
                    let $nb = neighbour_lists(comm_h)?;
                    let $cv = |n: MPI_Count| n;
                    let kept = $check;
                    let $f = $icname;
                    persist(comm_h, request, kept, move |$st, $comm, $req| $issue)
                })
            }
        }
    )*};
}

pneighbor! {
    /// Creates an inactive persistent [`crate::coll::neighbor::MPI_Neighbor_allgather`].
    MPI_Neighbor_allgather_init / PMPI_Neighbor_allgather_init => PMPI_Ineighbor_allgather,
    MPI_Neighbor_allgather_init_c / PMPI_Neighbor_allgather_init_c => PMPI_Ineighbor_allgather_c
        (sb: *const c_void | *const c_void, sn: c_int | MPI_Count, st: MPI_Datatype | MPI_Datatype,
         rb: *mut c_void | *mut c_void, rn: c_int | MPI_Count, rt: MPI_Datatype | MPI_Datatype)
        check |_nb, cv| {
            buf(sb, cv(sn), st, "send")?;
            buf(rb, cv(rn), rt, "receive")?;
            (sb, sn, st, rb, rn, rt)
        }
        issue |f, &(sb, sn, st, rb, rn, rt), comm, req| f(sb, sn, st, rb, rn, rt, comm, req);
    /// Creates an inactive persistent [`crate::coll::neighbor::MPI_Neighbor_allgatherv`]
    /// (arrays copied at init).
    MPI_Neighbor_allgatherv_init / PMPI_Neighbor_allgatherv_init => PMPI_Ineighbor_allgatherv,
    MPI_Neighbor_allgatherv_init_c / PMPI_Neighbor_allgatherv_init_c
        => PMPI_Ineighbor_allgatherv_c
        (sb: *const c_void | *const c_void, sn: c_int | MPI_Count, st: MPI_Datatype | MPI_Datatype,
         rb: *mut c_void | *mut c_void, rc: *const c_int | *const MPI_Count,
         rd: *const c_int | *const MPI_Aint, rt: MPI_Datatype | MPI_Datatype)
        check |nb, cv| {
            let n = nb.sources.len();
            buf(sb, cv(sn), st, "send")?;
            dtype(rt, "receive")?;
            (sb, sn, st, rb, arr(rc, n, "recvcounts", true)?, arr(rd, n, "displs", true)?, rt)
        }
        issue |f, (sb, sn, st, rb, rc, rd, rt), comm, req|
            f(*sb, *sn, *st, *rb, ptr(rc), ptr(rd), *rt, comm, req);
    /// Creates an inactive persistent [`crate::coll::neighbor::MPI_Neighbor_alltoall`].
    MPI_Neighbor_alltoall_init / PMPI_Neighbor_alltoall_init => PMPI_Ineighbor_alltoall,
    MPI_Neighbor_alltoall_init_c / PMPI_Neighbor_alltoall_init_c => PMPI_Ineighbor_alltoall_c
        (sb: *const c_void | *const c_void, sn: c_int | MPI_Count, st: MPI_Datatype | MPI_Datatype,
         rb: *mut c_void | *mut c_void, rn: c_int | MPI_Count, rt: MPI_Datatype | MPI_Datatype)
        check |_nb, cv| {
            buf(sb, cv(sn), st, "send")?;
            buf(rb, cv(rn), rt, "receive")?;
            (sb, sn, st, rb, rn, rt)
        }
        issue |f, &(sb, sn, st, rb, rn, rt), comm, req| f(sb, sn, st, rb, rn, rt, comm, req);
    /// Creates an inactive persistent [`crate::coll::neighbor::MPI_Neighbor_alltoallv`]
    /// (arrays copied at init).
    MPI_Neighbor_alltoallv_init / PMPI_Neighbor_alltoallv_init => PMPI_Ineighbor_alltoallv,
    MPI_Neighbor_alltoallv_init_c / PMPI_Neighbor_alltoallv_init_c
        => PMPI_Ineighbor_alltoallv_c
        (sb: *const c_void | *const c_void, sc: *const c_int | *const MPI_Count,
         sd: *const c_int | *const MPI_Aint, st: MPI_Datatype | MPI_Datatype,
         rb: *mut c_void | *mut c_void, rc: *const c_int | *const MPI_Count,
         rd: *const c_int | *const MPI_Aint, rt: MPI_Datatype | MPI_Datatype)
        check |nb, _cv| {
            let (no, ni) = (nb.destinations.len(), nb.sources.len());
            dtype(st, "send")?;
            dtype(rt, "receive")?;
            (sb, arr(sc, no, "sendcounts", true)?, arr(sd, no, "sdispls", true)?, st,
             rb, arr(rc, ni, "recvcounts", true)?, arr(rd, ni, "rdispls", true)?, rt)
        }
        issue |f, (sb, sc, sd, st, rb, rc, rd, rt), comm, req|
            f(*sb, ptr(sc), ptr(sd), *st, *rb, ptr(rc), ptr(rd), *rt, comm, req);
    /// Creates an inactive persistent [`crate::coll::neighbor::MPI_Neighbor_alltoallw`]
    /// (arrays copied at init).
    MPI_Neighbor_alltoallw_init / PMPI_Neighbor_alltoallw_init => PMPI_Ineighbor_alltoallw,
    MPI_Neighbor_alltoallw_init_c / PMPI_Neighbor_alltoallw_init_c
        => PMPI_Ineighbor_alltoallw_c
        (sb: *const c_void | *const c_void, sc: *const c_int | *const MPI_Count,
         sd: *const MPI_Aint | *const MPI_Aint, st: *const MPI_Datatype | *const MPI_Datatype,
         rb: *mut c_void | *mut c_void, rc: *const c_int | *const MPI_Count,
         rd: *const MPI_Aint | *const MPI_Aint, rt: *const MPI_Datatype | *const MPI_Datatype)
        check |nb, _cv| {
            let (no, ni) = (nb.destinations.len(), nb.sources.len());
            (sb, arr(sc, no, "sendcounts", true)?, arr(sd, no, "sdispls", true)?,
             types(st, no, "sendtypes", true)?,
             rb, arr(rc, ni, "recvcounts", true)?, arr(rd, ni, "rdispls", true)?,
             types(rt, ni, "recvtypes", true)?)
        }
        issue |f, (sb, sc, sd, st, rb, rc, rd, rt), comm, req|
            f(*sb, ptr(sc), ptr(sd), ptr(st), *rb, ptr(rc), ptr(rd), ptr(rt), comm, req);
}
