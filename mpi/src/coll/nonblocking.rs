//! Non-blocking collectives (`MPI_Ibarrier`, `MPI_Ibcast`, ...): the blocking collectives'
//! argument handling and engine `start_*` calls ([`crate::coll::blocking`]), finished in a request. The
//! collective takes its place in the communicator's order when the call returns; buffers
//! belong to the operation until the request completes.

use crate::args::count;
use crate::coll::blocking as coll;
use crate::coll::blocking::Complete;
use crate::consts::*;
use crate::errors::report::{call, non_null};
use crate::request::table::MPI_Request;
use crate::state::comm;
use nexar::Mode::Request;
use std::ffi::{c_int, c_void};

/// Defines `MPI_IX` and `MPI_IX_c` (and their PMPI twins) over one implementation: `$conv`
/// turns each count argument into `MPI_Count`; `$body` yields a started [`nexar::PendingCollective`].
macro_rules! icoll_pair {
    ($(
        $(#[$doc:meta])*
        $name:ident / $pname:ident, $cname:ident / $pcname:ident
            ($($arg:ident: $ty:ty | $cty:ty),*) => |$c:ident, $cv:ident| $body:expr;
    )*) => {$(
        mpi_fn! {
            $(#[$doc])*
            fn $name($($arg: $ty,)* comm_h: MPI_Comm, request: *mut MPI_Request) -> c_int
                => $pname
            {
                call(stringify!($name), comm_h, || {
                    non_null(request, "request")?;
                    let $c = comm(comm_h)?;
                    let $cv = |n: c_int| count(n);
                    $body?.into_request(comm_h, request)
                })
            }

            #[doc = concat!("Large-count [`", stringify!($name), "`].")]
            fn $cname($($arg: $cty,)* comm_h: MPI_Comm, request: *mut MPI_Request) -> c_int
                => $pcname
            {
                call(stringify!($cname), comm_h, || {
                    non_null(request, "request")?;
                    let $c = comm(comm_h)?;
                    let $cv = |n: MPI_Count| n;
                    $body?.into_request(comm_h, request)
                })
            }
        }
    )*};
}

icoll_pair! {
    /// Starts a broadcast of `count` elements from `root`.
    MPI_Ibcast / PMPI_Ibcast, MPI_Ibcast_c / PMPI_Ibcast_c
        (buf: *mut c_void | *mut c_void, n: c_int | MPI_Count, dt: MPI_Datatype | MPI_Datatype,
         root: c_int | c_int)
        => |c, cv| coll::bcast(buf, cv(n), dt, root, &c, Request);
    /// Starts a reduce to `root` (`sendbuf` may be `MPI_IN_PLACE` at the root).
    MPI_Ireduce / PMPI_Ireduce, MPI_Ireduce_c / PMPI_Ireduce_c
        (sendbuf: *const c_void | *const c_void, recvbuf: *mut c_void | *mut c_void,
         n: c_int | MPI_Count, dt: MPI_Datatype | MPI_Datatype, o: MPI_Op | MPI_Op,
         root: c_int | c_int)
        => |c, cv| coll::reduce(sendbuf, recvbuf, cv(n), dt, o, Some(root), &c, Request);
    /// Starts a reduction to every rank (`sendbuf` may be `MPI_IN_PLACE`).
    MPI_Iallreduce / PMPI_Iallreduce, MPI_Iallreduce_c / PMPI_Iallreduce_c
        (sendbuf: *const c_void | *const c_void, recvbuf: *mut c_void | *mut c_void,
         n: c_int | MPI_Count, dt: MPI_Datatype | MPI_Datatype, o: MPI_Op | MPI_Op)
        => |c, cv| coll::reduce(sendbuf, recvbuf, cv(n), dt, o, None, &c, Request);
    /// Starts a gather of equal blocks to `root`.
    MPI_Igather / PMPI_Igather, MPI_Igather_c / PMPI_Igather_c
        (sendbuf: *const c_void | *const c_void, sendcount: c_int | MPI_Count,
         sendtype: MPI_Datatype | MPI_Datatype, recvbuf: *mut c_void | *mut c_void,
         recvcount: c_int | MPI_Count, recvtype: MPI_Datatype | MPI_Datatype, root: c_int | c_int)
        => |c, cv| coll::gather(sendbuf, cv(sendcount), sendtype, recvbuf, cv(recvcount),
                                recvtype, Some(root), &c, Request);
    /// Starts a gather of equal blocks to every rank.
    MPI_Iallgather / PMPI_Iallgather, MPI_Iallgather_c / PMPI_Iallgather_c
        (sendbuf: *const c_void | *const c_void, sendcount: c_int | MPI_Count,
         sendtype: MPI_Datatype | MPI_Datatype, recvbuf: *mut c_void | *mut c_void,
         recvcount: c_int | MPI_Count, recvtype: MPI_Datatype | MPI_Datatype)
        => |c, cv| coll::gather(sendbuf, cv(sendcount), sendtype, recvbuf, cv(recvcount),
                                recvtype, None, &c, Request);
    /// Starts a scatter of equal blocks from `root`.
    MPI_Iscatter / PMPI_Iscatter, MPI_Iscatter_c / PMPI_Iscatter_c
        (sendbuf: *const c_void | *const c_void, sendcount: c_int | MPI_Count,
         sendtype: MPI_Datatype | MPI_Datatype, recvbuf: *mut c_void | *mut c_void,
         recvcount: c_int | MPI_Count, recvtype: MPI_Datatype | MPI_Datatype, root: c_int | c_int)
        => |c, cv| coll::scatter(sendbuf, cv(sendcount), sendtype, recvbuf, cv(recvcount),
                                 recvtype, root, &c);
    /// Starts an exchange of equal blocks between all ranks.
    MPI_Ialltoall / PMPI_Ialltoall, MPI_Ialltoall_c / PMPI_Ialltoall_c
        (sendbuf: *const c_void | *const c_void, sendcount: c_int | MPI_Count,
         sendtype: MPI_Datatype | MPI_Datatype, recvbuf: *mut c_void | *mut c_void,
         recvcount: c_int | MPI_Count, recvtype: MPI_Datatype | MPI_Datatype)
        => |c, cv| coll::alltoall(sendbuf, cv(sendcount), sendtype, recvbuf, cv(recvcount),
                                  recvtype, &c);
}

mpi_fn! {
    /// Starts a barrier; the request completes once every rank has entered it.
    fn MPI_Ibarrier(comm_h: MPI_Comm, request: *mut MPI_Request) -> c_int => PMPI_Ibarrier {
        call("MPI_Ibarrier", comm_h, || {
            non_null(request, "request")?;
            let c = comm(comm_h)?;
            coll::barrier(&c, Request)?.into_request(comm_h, request)
        })
    }
}
