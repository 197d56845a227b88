//! Persistent requests: `MPI_Send_init`, `MPI_Ssend_init`, `MPI_Bsend_init`, `MPI_Rsend_init`,
//! `MPI_Recv_init` (and `_c` forms), `MPI_Start` and `MPI_Startall`.
//!
//! `*_init` checks the arguments and creates an inactive request that remembers them; each
//! `MPI_Start` runs the operation once (a send copies the buffer's contents at that moment, a
//! receive is posted then). Completing it (wait, test, ...) leaves the request allocated and
//! inactive; `MPI_Request_free` releases it. See [`crate::request::table`] for completion.

use crate::args::{Buf, count, dest_rank, recv_source, recv_tag, send_tag};
use crate::consts::*;
use crate::errors::report::{Result, call, non_null};
use crate::p2p::send_modes::{Mode, start_send};
use crate::request::complete::{array_comm, array_len};
use crate::request::table::{MPI_Request, Running, comm_of, read, start, store_persistent};
use crate::state::comm;
use std::ffi::{c_int, c_void};

/// A user buffer remembered by a persistent request (the MPI contract keeps it valid until the
/// request is freed; it is only touched while the request is active).
struct Kept(Buf);

// SAFETY: the pointer is the user's buffer, which MPI lets any thread use for the request.
unsafe impl Send for Kept {}

impl Kept {
    /// The buffer (a method, so closures capture the whole `Kept`, which is `Send`).
    fn buf(&self) -> Buf {
        self.0.clone()
    }
}

#[allow(clippy::too_many_arguments)]
fn send_init(
    buf: *const c_void,
    n: MPI_Count,
    dt: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm_h: MPI_Comm,
    request: *mut MPI_Request,
    mode: Mode,
) -> Result<()> {
    non_null(request, "request")?;
    let c = comm(comm_h)?;
    let b = Kept(Buf::new(buf, n, dt, "send")?);
    send_tag(tag)?;
    dest_rank(dest, c.peer_count(), "destination")?;
    store_persistent(
        request,
        comm_h,
        Box::new(move || Ok(start_send(&c, comm_h, &b.buf(), dest, tag, mode)?.into())),
    )
}

fn recv_init(
    buf: *mut c_void,
    n: MPI_Count,
    dt: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm_h: MPI_Comm,
    request: *mut MPI_Request,
) -> Result<()> {
    non_null(request, "request")?;
    let c = comm(comm_h)?;
    let b = Kept(Buf::new(buf, n, dt, "receive")?);
    recv_tag(tag)?;
    recv_source(source, c.peer_count())?;
    store_persistent(
        request,
        comm_h,
        Box::new(move || -> Result<Running> {
            crate::p2p::nonblocking::post_recv(&c, b.buf(), source, tag)
        }),
    )
}

fn start_all(n: c_int, requests: *mut MPI_Request) -> Result<()> {
    let n = array_len(n, requests)?;
    for i in 0..n {
        use crate::request::complete::IndexContext;
        start(read(requests, i)).map_err(|e| e.context_index(i))?;
    }
    Ok(())
}

macro_rules! send_inits {
    ($($(#[$doc:meta])* $name:ident / $pname:ident, $cname:ident / $pcname:ident => $mode:expr;)*) => {
        mpi_fn! {$(
            $(#[$doc])*
            fn $name(buf: *const c_void, n: c_int, dt: MPI_Datatype, dest: c_int, tag: c_int,
                      comm_h: MPI_Comm, request: *mut MPI_Request) -> c_int => $pname {
                call(stringify!($name), comm_h, || {
                    send_init(buf, count(n), dt, dest, tag, comm_h, request, $mode)
                })
            }

            #[doc = concat!("Large-count `", stringify!($name), "`.")]
            fn $cname(buf: *const c_void, n: MPI_Count, dt: MPI_Datatype, dest: c_int, tag: c_int,
                      comm_h: MPI_Comm, request: *mut MPI_Request) -> c_int => $pcname {
                call(stringify!($cname), comm_h, || {
                    send_init(buf, n, dt, dest, tag, comm_h, request, $mode)
                })
            }
        )*}
    };
}

send_inits! {
    /// Creates an inactive persistent standard send; each `MPI_Start` sends the buffer's
    /// current contents.
    MPI_Send_init / PMPI_Send_init, MPI_Send_init_c / PMPI_Send_init_c => Mode::Standard;
    /// Creates an inactive persistent synchronous send (each start completes once matched).
    MPI_Ssend_init / PMPI_Ssend_init, MPI_Ssend_init_c / PMPI_Ssend_init_c => Mode::Sync;
    /// Creates an inactive persistent buffered send (accounted at each start).
    MPI_Bsend_init / PMPI_Bsend_init, MPI_Bsend_init_c / PMPI_Bsend_init_c => Mode::Buffered;
    /// Creates an inactive persistent ready send (behaves as a standard one).
    MPI_Rsend_init / PMPI_Rsend_init, MPI_Rsend_init_c / PMPI_Rsend_init_c => Mode::Ready;
}

mpi_fn! {
    /// Creates an inactive persistent receive; each `MPI_Start` posts it.
    fn MPI_Recv_init(buf: *mut c_void, n: c_int, dt: MPI_Datatype, source: c_int, tag: c_int,
                     comm_h: MPI_Comm, request: *mut MPI_Request) -> c_int => PMPI_Recv_init {
        call("MPI_Recv_init", comm_h, || recv_init(buf, count(n), dt, source, tag, comm_h, request))
    }

    /// Large-count `MPI_Recv_init`.
    fn MPI_Recv_init_c(buf: *mut c_void, n: MPI_Count, dt: MPI_Datatype, source: c_int,
                       tag: c_int, comm_h: MPI_Comm, request: *mut MPI_Request) -> c_int
        => PMPI_Recv_init_c
    {
        call("MPI_Recv_init_c", comm_h, || recv_init(buf, n, dt, source, tag, comm_h, request))
    }

    /// Starts the inactive persistent request `*request`.
    fn MPI_Start(request: *mut MPI_Request) -> c_int => PMPI_Start {
        let comm_h = if request.is_null() { MPI_COMM_WORLD } else { comm_of(read(request, 0)) };
        call("MPI_Start", comm_h, || {
            non_null(request, "request")?;
            start(read(request, 0))
        })
    }

    /// Starts every request of the array, in order.
    fn MPI_Startall(n: c_int, requests: *mut MPI_Request) -> c_int => PMPI_Startall {
        call("MPI_Startall", array_comm(n, requests), || start_all(n, requests))
    }
}
