//! MPI-4 persistent collectives (`MPI_Barrier_init`, `MPI_Bcast_init`, ... `MPI_Exscan_init`
//! and their large-count `_c` forms).
//!
//! One mechanism serves them all: `MPI_X_init` checks its arguments once (errors are raised
//! at init, as MPI requires), copies the count / displacement / datatype arrays it needs (the
//! caller may reuse them after init), and stores a persistent request whose starter issues the
//! matching non-blocking collective `MPI_IX` with the kept arguments at each `MPI_Start`; the
//! started operation is adopted into the persistent request (`request::adopt`). Each persistent
//! collective runs on a channel of its own (a hidden communicator derived from the parent and
//! the init's place among the parent's persistent inits, `Lane`): inits are collective and
//! ordered, so the channels agree on every rank, and ranks may start their persistent
//! collectives in different orders, as MPI 4 allows. The info argument is checked and ignored.
//! An error at `MPI_Start` (rare: the arguments were checked at init) is reported by the
//! non-blocking form too, so a user error handler may see it twice.

use crate::args::{Buf, count, in_place, root_rank};
use crate::coll::vector::ArrayInt;
use crate::comm::communicator::MPI_Info;
use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
use crate::request::table::{MPI_Request, adopt, store_persistent};
use crate::state::{comm, errhandler_of, insert_comm, remove_comm};
use nexar::Comm;
use std::collections::HashMap;
use std::ffi::{c_int, c_void};

use crate::coll::alltoallw::{PMPI_Ialltoallw, PMPI_Ialltoallw_c};
use crate::coll::nonblocking::{
    PMPI_Iallgather, PMPI_Iallgather_c, PMPI_Iallreduce, PMPI_Iallreduce_c, PMPI_Ialltoall,
    PMPI_Ialltoall_c, PMPI_Ibarrier, PMPI_Ibcast, PMPI_Ibcast_c, PMPI_Igather, PMPI_Igather_c,
    PMPI_Ireduce, PMPI_Ireduce_c, PMPI_Iscatter, PMPI_Iscatter_c,
};
use crate::coll::vector::{
    PMPI_Iallgatherv, PMPI_Iallgatherv_c, PMPI_Ialltoallv, PMPI_Ialltoallv_c, PMPI_Iexscan,
    PMPI_Iexscan_c, PMPI_Igatherv, PMPI_Igatherv_c, PMPI_Ireduce_scatter,
    PMPI_Ireduce_scatter_block, PMPI_Ireduce_scatter_block_c, PMPI_Ireduce_scatter_c, PMPI_Iscan,
    PMPI_Iscan_c, PMPI_Iscatterv, PMPI_Iscatterv_c,
};

/// The arguments a persistent collective keeps (user buffer pointers among them: the MPI
/// contract keeps them valid until the request is freed, and only an active request uses them).
struct Kept<S>(S);

// SAFETY: the pointers are the user's buffers, which MPI lets any thread use for the request.
unsafe impl<S> Send for Kept<S> {}

impl<S> Kept<S> {
    /// The arguments (a method, so closures capture the whole `Kept`, which is `Send`).
    fn get(&self) -> &S {
        &self.0
    }
}

/// Checks what every `*_init` takes: the request pointer, the info and the communicator.
pub(crate) fn init(comm_h: MPI_Comm, info: MPI_Info, request: *mut MPI_Request) -> Result<Comm> {
    non_null(request, "request")?;
    crate::comm::info::pairs_or_empty(info)?;
    comm(comm_h)
}

/// The channel of one persistent collective: a hidden communicator (with the parent's error
/// handler and topology) whose context derives from the parent's and the init's index among the
/// parent's persistent inits. Freed with the request.
struct Lane(MPI_Comm);

impl Lane {
    fn open(parent: MPI_Comm) -> Result<Self> {
        // Per communicator (its context, the same on every member), the next init index.
        static NEXT: parking_lot::Mutex<Option<HashMap<u64, u64>>> = parking_lot::Mutex::new(None);
        let c = comm(parent)?;
        let index = {
            let mut next = NEXT.lock();
            let n = next
                .get_or_insert_with(HashMap::new)
                .entry(c.context_id())
                .or_insert(0);
            *n += 1;
            *n - 1
        };
        let lane = c.companion(format!("persistent-collective-{index}").as_bytes());
        let h = insert_comm(lane, errhandler_of(parent))?;
        crate::comm::topo::copy_topology(parent, h);
        Ok(Self(h))
    }
}

impl Drop for Lane {
    fn drop(&mut self) {
        // After MPI_Finalize the table is gone with everything in it.
        let _ = remove_comm(self.0);
    }
}

/// Stores the persistent request: each start runs `issue(kept, lane, &mut handle)`, a
/// non-blocking collective on the request's own channel ([`Lane`]), and adopts the request it
/// creates.
pub(crate) fn persist<S: 'static>(
    comm_h: MPI_Comm,
    request: *mut MPI_Request,
    kept: S,
    issue: impl Fn(&S, MPI_Comm, *mut MPI_Request) -> c_int + 'static,
) -> Result<()> {
    let lane = Lane::open(comm_h)?;
    let kept = Kept((kept, issue, lane));
    store_persistent(
        request,
        comm_h,
        Box::new(move || {
            let (s, issue, lane) = kept.get();
            let mut h = MPI_REQUEST_NULL;
            let rc = issue(s, lane.0, &mut h);
            if rc != MPI_SUCCESS {
                return Err(MpiError::new(
                    rc,
                    "starting the persistent collective failed",
                ));
            }
            adopt(h)
        }),
    )
}

/// Checks a buffer's count and datatype (and pointer), as the operation will.
pub(crate) fn buf(p: *const c_void, n: MPI_Count, dt: MPI_Datatype, what: &str) -> Result<()> {
    Buf::new(p, n, dt, what).map(drop)
}

/// Checks a datatype alone (for the vector forms, whose counts are arrays).
pub(crate) fn dtype(dt: MPI_Datatype, what: &str) -> Result<()> {
    Buf::new(std::ptr::null(), 0, dt, what).map(drop)
}

/// Checks a reduction operation.
fn op(o: MPI_Op) -> Result<()> {
    crate::coll::op::op(o).map(drop)
}

/// Copies the caller's `n`-entry array `what` when it is significant (`needed`): counts must
/// be non-negative (`MPI_ERR_COUNT`), displacements too (`MPI_ERR_ARG`, as the operation).
pub(crate) fn arr<T: ArrayInt>(
    p: *const T,
    n: usize,
    what: &str,
    needed: bool,
) -> Result<Option<Vec<T>>> {
    if !needed {
        return Ok(None);
    }
    non_null(p, what)?;
    // SAFETY: checked for NULL; the array holds one entry per rank (the MPI contract).
    let v: Vec<T> = (0..n).map(|i| unsafe { p.add(i).read() }).collect();
    if let Some((i, x)) = v.iter().enumerate().find(|(_, x)| x.wide() < 0) {
        let class = if what.contains("displs") {
            MPI_ERR_ARG
        } else {
            MPI_ERR_COUNT
        };
        return Err(MpiError::new(
            class,
            format!("{what}[{i}] = {} is negative", x.wide()),
        ));
    }
    Ok(Some(v))
}

/// Copies an array of datatypes (each checked) when significant.
pub(crate) fn types(
    p: *const MPI_Datatype,
    n: usize,
    what: &str,
    needed: bool,
) -> Result<Option<Vec<usize>>> {
    if !needed {
        return Ok(None);
    }
    non_null(p, what)?;
    // SAFETY: checked for NULL; one entry per rank (the MPI contract).
    let v: Vec<usize> = (0..n).map(|i| unsafe { p.add(i).read() }).collect();
    for (i, &t) in v.iter().enumerate() {
        dtype(t, &format!("{what}[{i}]"))?;
    }
    Ok(Some(v))
}

/// The kept copy of an array as the pointer the non-blocking form reads (NULL if not kept).
pub(crate) fn ptr<T>(v: &Option<Vec<T>>) -> *const T {
    v.as_ref().map_or(std::ptr::null(), |v| v.as_ptr())
}

/// Whether this rank is `root` (checked) of `c`.
fn is_root(c: &Comm, root: c_int) -> Result<bool> {
    Ok(root_rank(root, c.size())? == c.rank())
}

/// Defines `MPI_X_init` and `MPI_X_init_c` (and their PMPI twins): `$check` validates the
/// arguments (`$c`: the communicator, `$cv`: a count as `MPI_Count`) and yields what to keep;
/// `$issue` starts the non-blocking form `$f` from the kept `$st` on `$comm` into `$req`.
macro_rules! pcoll {
    ($(
        $(#[$doc:meta])*
        $name:ident / $pname:ident => $iname:ident, $cname:ident / $pcname:ident => $icname:ident
            ($($arg:ident: $ty:ty | $cty:ty),*)
            check |$c:ident, $cv:ident| $check:block
            issue |$f:ident, $st:pat, $comm:ident, $req:ident| $issue:expr;
    )*) => {$(
        mpi_fn! {
            $(#[$doc])*
            fn $name($($arg: $ty,)* comm_h: MPI_Comm, info: MPI_Info,
                     request: *mut MPI_Request) -> c_int => $pname
            {
                call(stringify!($name), comm_h, || {
                    let $c = init(comm_h, info, request)?;
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
                    let $c = init(comm_h, info, request)?;
                    let $cv = |n: MPI_Count| n;
                    let kept = $check;
                    let $f = $icname;
                    persist(comm_h, request, kept, move |$st, $comm, $req| $issue)
                })
            }
        }
    )*};
}

pcoll! {
    /// Creates an inactive persistent broadcast of `count` elements from `root`.
    MPI_Bcast_init / PMPI_Bcast_init => PMPI_Ibcast,
    MPI_Bcast_init_c / PMPI_Bcast_init_c => PMPI_Ibcast_c
        (b: *mut c_void | *mut c_void, n: c_int | MPI_Count, dt: MPI_Datatype | MPI_Datatype,
         root: c_int | c_int)
        check |c, cv| {
            is_root(&c, root)?;
            buf(b, cv(n), dt, "broadcast")?;
            (b, n, dt, root)
        }
        issue |f, &(b, n, dt, root), comm, req| f(b, n, dt, root, comm, req);
    /// Creates an inactive persistent reduce to `root`.
    MPI_Reduce_init / PMPI_Reduce_init => PMPI_Ireduce,
    MPI_Reduce_init_c / PMPI_Reduce_init_c => PMPI_Ireduce_c
        (sb: *const c_void | *const c_void, rb: *mut c_void | *mut c_void, n: c_int | MPI_Count,
         dt: MPI_Datatype | MPI_Datatype, o: MPI_Op | MPI_Op, root: c_int | c_int)
        check |c, cv| {
            let me = is_root(&c, root)?;
            op(o)?;
            if !(me && in_place(sb)) {
                buf(sb, cv(n), dt, "send")?;
            }
            if me {
                buf(rb, cv(n), dt, "receive")?;
            }
            (sb, rb, n, dt, o, root)
        }
        issue |f, &(sb, rb, n, dt, o, root), comm, req| f(sb, rb, n, dt, o, root, comm, req);
    /// Creates an inactive persistent allreduce (`sendbuf` may be `MPI_IN_PLACE`).
    MPI_Allreduce_init / PMPI_Allreduce_init => PMPI_Iallreduce,
    MPI_Allreduce_init_c / PMPI_Allreduce_init_c => PMPI_Iallreduce_c
        (sb: *const c_void | *const c_void, rb: *mut c_void | *mut c_void, n: c_int | MPI_Count,
         dt: MPI_Datatype | MPI_Datatype, o: MPI_Op | MPI_Op)
        check |_c, cv| { reduce_like(sb, rb, cv(n), dt, o)?; (sb, rb, n, dt, o) }
        issue |f, &(sb, rb, n, dt, o), comm, req| f(sb, rb, n, dt, o, comm, req);
    /// Creates an inactive persistent inclusive scan.
    MPI_Scan_init / PMPI_Scan_init => PMPI_Iscan,
    MPI_Scan_init_c / PMPI_Scan_init_c => PMPI_Iscan_c
        (sb: *const c_void | *const c_void, rb: *mut c_void | *mut c_void, n: c_int | MPI_Count,
         dt: MPI_Datatype | MPI_Datatype, o: MPI_Op | MPI_Op)
        check |_c, cv| { reduce_like(sb, rb, cv(n), dt, o)?; (sb, rb, n, dt, o) }
        issue |f, &(sb, rb, n, dt, o), comm, req| f(sb, rb, n, dt, o, comm, req);
    /// Creates an inactive persistent exclusive scan.
    MPI_Exscan_init / PMPI_Exscan_init => PMPI_Iexscan,
    MPI_Exscan_init_c / PMPI_Exscan_init_c => PMPI_Iexscan_c
        (sb: *const c_void | *const c_void, rb: *mut c_void | *mut c_void, n: c_int | MPI_Count,
         dt: MPI_Datatype | MPI_Datatype, o: MPI_Op | MPI_Op)
        check |_c, cv| { reduce_like(sb, rb, cv(n), dt, o)?; (sb, rb, n, dt, o) }
        issue |f, &(sb, rb, n, dt, o), comm, req| f(sb, rb, n, dt, o, comm, req);
    /// Creates an inactive persistent reduce-scatter with equal blocks of `recvcount`.
    MPI_Reduce_scatter_block_init / PMPI_Reduce_scatter_block_init => PMPI_Ireduce_scatter_block,
    MPI_Reduce_scatter_block_init_c / PMPI_Reduce_scatter_block_init_c
        => PMPI_Ireduce_scatter_block_c
        (sb: *const c_void | *const c_void, rb: *mut c_void | *mut c_void, n: c_int | MPI_Count,
         dt: MPI_Datatype | MPI_Datatype, o: MPI_Op | MPI_Op)
        check |_c, cv| {
            op(o)?;
            buf(rb, cv(n), dt, "receive")?;
            (sb, rb, n, dt, o)
        }
        issue |f, &(sb, rb, n, dt, o), comm, req| f(sb, rb, n, dt, o, comm, req);
    /// Creates an inactive persistent reduce-scatter (`recvcounts` copied at init).
    MPI_Reduce_scatter_init / PMPI_Reduce_scatter_init => PMPI_Ireduce_scatter,
    MPI_Reduce_scatter_init_c / PMPI_Reduce_scatter_init_c => PMPI_Ireduce_scatter_c
        (sb: *const c_void | *const c_void, rb: *mut c_void | *mut c_void,
         rc: *const c_int | *const MPI_Count, dt: MPI_Datatype | MPI_Datatype, o: MPI_Op | MPI_Op)
        check |c, _cv| {
            op(o)?;
            dtype(dt, "datatype")?;
            (sb, rb, arr(rc, c.size() as usize, "recvcounts", true)?, dt, o)
        }
        issue |f, (sb, rb, rc, dt, o), comm, req| f(*sb, *rb, ptr(rc), *dt, *o, comm, req);
    /// Creates an inactive persistent gather of equal blocks to `root`.
    MPI_Gather_init / PMPI_Gather_init => PMPI_Igather,
    MPI_Gather_init_c / PMPI_Gather_init_c => PMPI_Igather_c
        (sb: *const c_void | *const c_void, sn: c_int | MPI_Count, st: MPI_Datatype | MPI_Datatype,
         rb: *mut c_void | *mut c_void, rn: c_int | MPI_Count, rt: MPI_Datatype | MPI_Datatype,
         root: c_int | c_int)
        check |c, cv| {
            let me = is_root(&c, root)?;
            if !(me && in_place(sb)) {
                buf(sb, cv(sn), st, "send")?;
            }
            if me {
                buf(rb, cv(rn), rt, "receive")?;
            }
            (sb, sn, st, rb, rn, rt, root)
        }
        issue |f, &(sb, sn, st, rb, rn, rt, root), comm, req|
            f(sb, sn, st, rb, rn, rt, root, comm, req);
    /// Creates an inactive persistent scatter of equal blocks from `root`.
    MPI_Scatter_init / PMPI_Scatter_init => PMPI_Iscatter,
    MPI_Scatter_init_c / PMPI_Scatter_init_c => PMPI_Iscatter_c
        (sb: *const c_void | *const c_void, sn: c_int | MPI_Count, st: MPI_Datatype | MPI_Datatype,
         rb: *mut c_void | *mut c_void, rn: c_int | MPI_Count, rt: MPI_Datatype | MPI_Datatype,
         root: c_int | c_int)
        check |c, cv| {
            let me = is_root(&c, root)?;
            if me {
                buf(sb, cv(sn), st, "send")?;
            }
            if !(me && in_place(rb)) {
                buf(rb, cv(rn), rt, "receive")?;
            }
            (sb, sn, st, rb, rn, rt, root)
        }
        issue |f, &(sb, sn, st, rb, rn, rt, root), comm, req|
            f(sb, sn, st, rb, rn, rt, root, comm, req);
    /// Creates an inactive persistent allgather (`sendbuf` may be `MPI_IN_PLACE`).
    MPI_Allgather_init / PMPI_Allgather_init => PMPI_Iallgather,
    MPI_Allgather_init_c / PMPI_Allgather_init_c => PMPI_Iallgather_c
        (sb: *const c_void | *const c_void, sn: c_int | MPI_Count, st: MPI_Datatype | MPI_Datatype,
         rb: *mut c_void | *mut c_void, rn: c_int | MPI_Count, rt: MPI_Datatype | MPI_Datatype)
        check |_c, cv| {
            if !in_place(sb) {
                buf(sb, cv(sn), st, "send")?;
            }
            buf(rb, cv(rn), rt, "receive")?;
            (sb, sn, st, rb, rn, rt)
        }
        issue |f, &(sb, sn, st, rb, rn, rt), comm, req| f(sb, sn, st, rb, rn, rt, comm, req);
    /// Creates an inactive persistent all-to-all of equal blocks.
    MPI_Alltoall_init / PMPI_Alltoall_init => PMPI_Ialltoall,
    MPI_Alltoall_init_c / PMPI_Alltoall_init_c => PMPI_Ialltoall_c
        (sb: *const c_void | *const c_void, sn: c_int | MPI_Count, st: MPI_Datatype | MPI_Datatype,
         rb: *mut c_void | *mut c_void, rn: c_int | MPI_Count, rt: MPI_Datatype | MPI_Datatype)
        check |_c, cv| {
            if !in_place(sb) {
                buf(sb, cv(sn), st, "send")?;
            }
            buf(rb, cv(rn), rt, "receive")?;
            (sb, sn, st, rb, rn, rt)
        }
        issue |f, &(sb, sn, st, rb, rn, rt), comm, req| f(sb, sn, st, rb, rn, rt, comm, req);
    /// Creates an inactive persistent gatherv to `root` (the root's arrays copied at init).
    MPI_Gatherv_init / PMPI_Gatherv_init => PMPI_Igatherv,
    MPI_Gatherv_init_c / PMPI_Gatherv_init_c => PMPI_Igatherv_c
        (sb: *const c_void | *const c_void, sn: c_int | MPI_Count, st: MPI_Datatype | MPI_Datatype,
         rb: *mut c_void | *mut c_void, rc: *const c_int | *const MPI_Count,
         rd: *const c_int | *const MPI_Aint, rt: MPI_Datatype | MPI_Datatype, root: c_int | c_int)
        check |c, cv| {
            let me = is_root(&c, root)?;
            let n = c.size() as usize;
            if !(me && in_place(sb)) {
                buf(sb, cv(sn), st, "send")?;
            }
            if me {
                dtype(rt, "receive")?;
            }
            (sb, sn, st, rb, arr(rc, n, "recvcounts", me)?, arr(rd, n, "displs", me)?, rt, root)
        }
        issue |f, (sb, sn, st, rb, rc, rd, rt, root), comm, req|
            f(*sb, *sn, *st, *rb, ptr(rc), ptr(rd), *rt, *root, comm, req);
    /// Creates an inactive persistent scatterv from `root` (the root's arrays copied at init).
    MPI_Scatterv_init / PMPI_Scatterv_init => PMPI_Iscatterv,
    MPI_Scatterv_init_c / PMPI_Scatterv_init_c => PMPI_Iscatterv_c
        (sb: *const c_void | *const c_void, sc: *const c_int | *const MPI_Count,
         sd: *const c_int | *const MPI_Aint, st: MPI_Datatype | MPI_Datatype,
         rb: *mut c_void | *mut c_void, rn: c_int | MPI_Count, rt: MPI_Datatype | MPI_Datatype,
         root: c_int | c_int)
        check |c, cv| {
            let me = is_root(&c, root)?;
            let n = c.size() as usize;
            if me {
                dtype(st, "send")?;
            }
            if !(me && in_place(rb)) {
                buf(rb, cv(rn), rt, "receive")?;
            }
            (sb, arr(sc, n, "sendcounts", me)?, arr(sd, n, "displs", me)?, st, rb, rn, rt, root)
        }
        issue |f, (sb, sc, sd, st, rb, rn, rt, root), comm, req|
            f(*sb, ptr(sc), ptr(sd), *st, *rb, *rn, *rt, *root, comm, req);
    /// Creates an inactive persistent allgatherv (arrays copied at init).
    MPI_Allgatherv_init / PMPI_Allgatherv_init => PMPI_Iallgatherv,
    MPI_Allgatherv_init_c / PMPI_Allgatherv_init_c => PMPI_Iallgatherv_c
        (sb: *const c_void | *const c_void, sn: c_int | MPI_Count, st: MPI_Datatype | MPI_Datatype,
         rb: *mut c_void | *mut c_void, rc: *const c_int | *const MPI_Count,
         rd: *const c_int | *const MPI_Aint, rt: MPI_Datatype | MPI_Datatype)
        check |c, cv| {
            let n = c.size() as usize;
            if !in_place(sb) {
                buf(sb, cv(sn), st, "send")?;
            }
            dtype(rt, "receive")?;
            (sb, sn, st, rb, arr(rc, n, "recvcounts", true)?, arr(rd, n, "displs", true)?, rt)
        }
        issue |f, (sb, sn, st, rb, rc, rd, rt), comm, req|
            f(*sb, *sn, *st, *rb, ptr(rc), ptr(rd), *rt, comm, req);
    /// Creates an inactive persistent alltoallv (arrays copied at init).
    MPI_Alltoallv_init / PMPI_Alltoallv_init => PMPI_Ialltoallv,
    MPI_Alltoallv_init_c / PMPI_Alltoallv_init_c => PMPI_Ialltoallv_c
        (sb: *const c_void | *const c_void, sc: *const c_int | *const MPI_Count,
         sd: *const c_int | *const MPI_Aint, st: MPI_Datatype | MPI_Datatype,
         rb: *mut c_void | *mut c_void, rc: *const c_int | *const MPI_Count,
         rd: *const c_int | *const MPI_Aint, rt: MPI_Datatype | MPI_Datatype)
        check |c, _cv| {
            let n = c.size() as usize;
            let send = !in_place(sb);
            if send {
                dtype(st, "send")?;
            }
            dtype(rt, "receive")?;
            (sb, arr(sc, n, "sendcounts", send)?, arr(sd, n, "sdispls", send)?, st,
             rb, arr(rc, n, "recvcounts", true)?, arr(rd, n, "rdispls", true)?, rt)
        }
        issue |f, (sb, sc, sd, st, rb, rc, rd, rt), comm, req|
            f(*sb, ptr(sc), ptr(sd), *st, *rb, ptr(rc), ptr(rd), *rt, comm, req);
    /// Creates an inactive persistent alltoallw (counts, byte displacements and datatypes
    /// copied at init).
    MPI_Alltoallw_init / PMPI_Alltoallw_init => PMPI_Ialltoallw,
    MPI_Alltoallw_init_c / PMPI_Alltoallw_init_c => PMPI_Ialltoallw_c
        (sb: *const c_void | *const c_void, sc: *const c_int | *const MPI_Count,
         sd: *const c_int | *const MPI_Aint, st: *const MPI_Datatype | *const MPI_Datatype,
         rb: *mut c_void | *mut c_void, rc: *const c_int | *const MPI_Count,
         rd: *const c_int | *const MPI_Aint, rt: *const MPI_Datatype | *const MPI_Datatype)
        check |c, _cv| {
            let n = c.size() as usize;
            let send = !in_place(sb);
            (sb, arr(sc, n, "sendcounts", send)?, arr(sd, n, "sdispls", send)?,
             types(st, n, "sendtypes", send)?,
             rb, arr(rc, n, "recvcounts", true)?, arr(rd, n, "rdispls", true)?,
             types(rt, n, "recvtypes", true)?)
        }
        issue |f, (sb, sc, sd, st, rb, rc, rd, rt), comm, req|
            f(*sb, ptr(sc), ptr(sd), ptr(st), *rb, ptr(rc), ptr(rd), ptr(rt), comm, req);
}

/// The checks of allreduce, scan and exscan: the operation, the send buffer unless
/// `MPI_IN_PLACE`, the receive buffer.
fn reduce_like(
    sb: *const c_void,
    rb: *mut c_void,
    n: MPI_Count,
    dt: MPI_Datatype,
    o: MPI_Op,
) -> Result<()> {
    op(o)?;
    if !in_place(sb) {
        buf(sb, n, dt, "send")?;
    }
    buf(rb, n, dt, "receive")
}

mpi_fn! {
    /// Creates an inactive persistent barrier.
    fn MPI_Barrier_init(comm_h: MPI_Comm, info: MPI_Info, request: *mut MPI_Request) -> c_int
        => PMPI_Barrier_init
    {
        call("MPI_Barrier_init", comm_h, || {
            init(comm_h, info, request)?;
            persist(comm_h, request, (), |_, comm, req| PMPI_Ibarrier(comm, req))
        })
    }
}
