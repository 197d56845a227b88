//! Buffered sends: `MPI_Buffer_attach` / `_detach` / `_flush` / `_iflush`, their per-communicator
//! forms (`MPI_Comm_attach_buffer`, ...), and `MPI_Bsend` / `MPI_Ibsend` (`_c` forms too).
//!
//! nexar copies every outgoing message into its own queue at once, so the user's buffer is
//! never written; it is used for accounting, as MPI specifies: each buffered send reserves its
//! size plus [`BSEND_ACCOUNTED`] bytes of the attached buffer (the communicator's if it has
//! one, else the process's) and fails with `MPI_ERR_BUFFER` when that does not fit.
//! `MPI_BSEND_OVERHEAD` (512, fixed by the standard ABI) is the upper bound programs allocate
//! per message; accounting less, as MPICH and Open MPI do with their real bookkeeping, also
//! runs the programs that size their buffer by those implementations' smaller overheads. The
//! space
//! stays reserved until the receiver has matched the message: it goes out as a synchronous
//! send whose acknowledgement (or failure) releases the space, so messages nobody has received
//! yet fill the buffer as MPI 4.1 §3.6 describes.
//!
//! Detach and flush wait for nothing: they must wait until every buffered message has been
//! *transmitted*, and nexar transmitted each one (copied it out) when it was sent. Waiting for
//! the receivers instead would deadlock the legal pattern "Bsend to each other, detach, then
//! receive". They end the reservations (a flush starts a new generation of the buffer, a
//! detach drops it), and acknowledgements of an earlier generation release nothing.
//! `MPI_BUFFER_AUTOMATIC` attaches an unlimited buffer.

use crate::args::count;
use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
use crate::p2p::send_modes::{Mode, isend_impl, send_impl};
use crate::request::table::{MPI_Request, store_request};
use crate::state::comm;
use bytes::Bytes;
use nexar::Comm;
use parking_lot::{Condvar, Mutex, MutexGuard};
use std::collections::BTreeMap;
use std::ffi::{c_int, c_void};
use std::time::{Duration, Instant};

/// `MPI_BSEND_OVERHEAD` of `mpi.h`: the most a buffered message takes on top of its data.
pub const BSEND_OVERHEAD: usize = 512;
/// Bytes accounted per buffered message on top of its data: nexar keeps no bookkeeping in the
/// user's buffer, and this is of the order of MPICH's and Open MPI's real per-message overhead
/// (MPICH's test suite sizes buffers by it: ten 40-byte messages in 2000 bytes).
pub const BSEND_ACCOUNTED: usize = 64;
/// `MPI_BUFFER_AUTOMATIC` of `mpi.h`.
const AUTOMATIC: usize = 2;

/// An attached buffer: where, how large (`usize::MAX` when automatic), how much is reserved,
/// and its generation (new at every attach and flush).
struct Attached {
    addr: usize,
    size: usize,
    used: usize,
    generation: u64,
}

/// A reservation: which buffer, of which generation.
#[derive(Debug, Clone, Copy)]
struct Reserved {
    owner: Owner,
    generation: u64,
}

/// The next buffer generation (unique in the process).
fn next_generation() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// Which buffer: the process's or a communicator's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Owner {
    Process,
    Comm(MPI_Comm),
    /// A session's buffer: serves the communicators made from its process sets' groups.
    Session(usize),
}

static BUFFERS: Mutex<BTreeMap<Owner, Attached>> = Mutex::new(BTreeMap::new());
/// Signalled whenever a reservation is released.
static RELEASED: Condvar = Condvar::new();

fn attach(owner: Owner, buffer: *mut c_void, size: MPI_Count) -> Result<()> {
    let size = usize::try_from(size)
        .map_err(|_| MpiError::new(MPI_ERR_ARG, format!("buffer size {size} is negative")))?;
    let addr = buffer as usize;
    if addr == 0 && size > 0 {
        return Err(MpiError::new(
            MPI_ERR_BUFFER,
            format!("buffer is NULL with size {size}"),
        ));
    }
    let mut b = BUFFERS.lock();
    if b.contains_key(&owner) {
        return Err(MpiError::new(
            MPI_ERR_BUFFER,
            "a buffer is already attached; detach it first",
        ));
    }
    let size = if addr == AUTOMATIC { usize::MAX } else { size };
    b.insert(
        owner,
        Attached {
            addr,
            size,
            used: 0,
            generation: next_generation(),
        },
    );
    Ok(())
}

/// Ends every reservation of `owner`'s buffer (its messages were transmitted when sent: see
/// the module docs); with `remove`, detaches the buffer and returns (address, size) — NULL and
/// 0 if none was attached.
fn drain(owner: Owner, remove: bool) -> (usize, usize) {
    let mut b = BUFFERS.lock();
    RELEASED.notify_all();
    if !remove {
        if let Some(a) = b.get_mut(&owner) {
            a.used = 0;
            a.generation = next_generation();
        }
        return (0, 0);
    }
    match b.remove(&owner) {
        Some(a) if a.addr == AUTOMATIC => (AUTOMATIC, 0),
        Some(a) => (a.addr, a.size),
        None => (0, 0),
    }
}

fn detach(owner: Owner, buffer_addr: *mut c_void, size: *mut MPI_Count) -> Result<()> {
    non_null(buffer_addr, "buffer_addr")?;
    non_null(size, "size")?;
    let (addr, n) = drain(owner, true);
    // SAFETY: checked for NULL; `buffer_addr` points to a `void *` per the MPI contract.
    unsafe {
        buffer_addr.cast::<usize>().write(addr);
        size.write(n as MPI_Count);
    }
    Ok(())
}

fn detach_int(owner: Owner, buffer_addr: *mut c_void, size: *mut c_int) -> Result<()> {
    non_null(size, "size")?;
    let mut n: MPI_Count = 0;
    detach(owner, buffer_addr, &mut n)?;
    // SAFETY: checked for NULL. The size was attached as an `int` (or is 0), so it fits.
    unsafe { size.write(c_int::try_from(n).unwrap_or(c_int::MAX)) };
    Ok(())
}

/// How long a buffered send that does not fit waits for space to come back before failing.
const GRACE: Duration = Duration::from_millis(20);

/// Reserves room for `len` bytes in the buffer that serves `comm_h`; `progress` drives the
/// transport while a send that does not fit waits.
fn reserve(comm_h: MPI_Comm, len: usize, progress: impl Fn()) -> Result<Reserved> {
    let deadline = Instant::now() + GRACE;
    let mut b = BUFFERS.lock();
    loop {
        // The communicator's own buffer, then its session's, then the process's (MPI 4.1).
        let session = crate::session::session_of_comm(comm_h).map(Owner::Session);
        let owner = [Some(Owner::Comm(comm_h)), session, Some(Owner::Process)]
            .into_iter()
            .flatten()
            .find(|o| b.contains_key(o))
            .ok_or_else(|| {
                MpiError::new(
                    MPI_ERR_BUFFER,
                    "buffered send without an attached buffer (call MPI_Buffer_attach)",
                )
            })?;
        let a = b.get_mut(&owner).expect("found above");
        let need = len.saturating_add(BSEND_ACCOUNTED);
        if need <= a.size - a.used {
            a.used += need;
            return Ok(Reserved {
                owner,
                generation: a.generation,
            });
        }
        // Messages already received free their space when their acknowledgement lands, which
        // may be a moment later: a send that does not fit gives them that moment (driving the
        // transport) before it fails, so a correct program never sees a spurious error.
        if a.used == 0 || need > a.size || Instant::now() >= deadline {
            return Err(MpiError::new(
                MPI_ERR_BUFFER,
                format!(
                    "buffered send of {len} bytes needs {need} bytes ({BSEND_ACCOUNTED} of \
                     bookkeeping; MPI_BSEND_OVERHEAD is the bound to allocate per message) \
                     but only {} of the attached buffer's {} bytes are free (the rest holds \
                     buffered messages not received yet)",
                    a.size - a.used,
                    a.size
                ),
            ));
        }
        MutexGuard::unlocked(&mut b, &progress);
        RELEASED.wait_for(&mut b, Duration::from_millis(1));
    }
}

fn release(r: Reserved, len: usize) {
    let mut b = BUFFERS.lock();
    if let Some(a) = b.get_mut(&r.owner).filter(|a| a.generation == r.generation) {
        a.used -= len.saturating_add(BSEND_ACCOUNTED);
    }
    RELEASED.notify_all();
}

/// Sends `data` as a buffered message: its size plus [`BSEND_ACCOUNTED`] is reserved in the
/// attached buffer until the receiver has matched it (or the send failed). Returns at once.
pub(crate) fn send(c: &Comm, comm_h: MPI_Comm, data: Bytes, dest: u32, tag: i32) -> Result<()> {
    let len = data.len();
    let owner = reserve(comm_h, len, || {
        c.progress();
    })?;
    let acked = match c.start_ssend_bytes(data, dest, tag) {
        Ok(s) => s,
        Err(e) => {
            release(owner, len);
            return Err(e.into());
        }
    };
    // The request is dropped, not the task: it runs on the engine's runtime until the
    // acknowledgement (or the failure) comes, then frees the space.
    drop(c.spawn(async move {
        let r = acked.await;
        release(owner, len);
        r
    }));
    Ok(())
}

/// A request that is complete from the start.
fn done_request(request: *mut MPI_Request, comm_h: MPI_Comm) -> Result<()> {
    non_null(request, "request")?;
    store_request(request, comm_h, nexar::Request::ready(Ok(None)))
}

fn comm_owner(comm_h: MPI_Comm) -> Result<Owner> {
    comm(comm_h)?;
    Ok(Owner::Comm(comm_h))
}

mpi_fn! {
    /// Attaches `buffer` of `size` bytes for buffered sends (`MPI_BUFFER_AUTOMATIC`: no limit).
    fn MPI_Buffer_attach(buffer: *mut c_void, size: c_int) -> c_int => PMPI_Buffer_attach {
        call("MPI_Buffer_attach", MPI_COMM_WORLD, || attach(Owner::Process, buffer, count(size)))
    }

    /// Large-count `MPI_Buffer_attach`.
    fn MPI_Buffer_attach_c(buffer: *mut c_void, size: MPI_Count) -> c_int
        => PMPI_Buffer_attach_c
    {
        call("MPI_Buffer_attach_c", MPI_COMM_WORLD, || attach(Owner::Process, buffer, size))
    }

    /// Detaches the buffer (its messages were transmitted when sent: nothing to wait for) and
    /// returns its address (in `*(void **)buffer_addr`) and size (NULL and 0 if none was
    /// attached).
    fn MPI_Buffer_detach(buffer_addr: *mut c_void, size: *mut c_int) -> c_int
        => PMPI_Buffer_detach
    {
        call("MPI_Buffer_detach", MPI_COMM_WORLD, || {
            detach_int(Owner::Process, buffer_addr, size)
        })
    }

    /// Large-count `MPI_Buffer_detach`.
    fn MPI_Buffer_detach_c(buffer_addr: *mut c_void, size: *mut MPI_Count) -> c_int
        => PMPI_Buffer_detach_c
    {
        call("MPI_Buffer_detach_c", MPI_COMM_WORLD, || detach(Owner::Process, buffer_addr, size))
    }

    /// Every buffered send using the process's buffer has left it (nexar transmits each when
    /// it is sent): frees all of the buffer's space at once.
    fn MPI_Buffer_flush() -> c_int => PMPI_Buffer_flush {
        call("MPI_Buffer_flush", MPI_COMM_WORLD, || {
            drain(Owner::Process, false);
            Ok(())
        })
    }

    /// `MPI_Buffer_flush` as a request (complete on return: buffered messages leave the buffer
    /// as soon as they are queued).
    fn MPI_Buffer_iflush(request: *mut MPI_Request) -> c_int => PMPI_Buffer_iflush {
        call("MPI_Buffer_iflush", MPI_COMM_WORLD, || {
            drain(Owner::Process, false);
            done_request(request, MPI_COMM_WORLD)
        })
    }

    /// Attaches a buffer for buffered sends on `comm` only.
    fn MPI_Comm_attach_buffer(comm_h: MPI_Comm, buffer: *mut c_void, size: c_int) -> c_int
        => PMPI_Comm_attach_buffer
    {
        call("MPI_Comm_attach_buffer", comm_h, || attach(comm_owner(comm_h)?, buffer, count(size)))
    }

    /// Large-count `MPI_Comm_attach_buffer`.
    fn MPI_Comm_attach_buffer_c(comm_h: MPI_Comm, buffer: *mut c_void, size: MPI_Count)
        -> c_int => PMPI_Comm_attach_buffer_c
    {
        call("MPI_Comm_attach_buffer_c", comm_h, || attach(comm_owner(comm_h)?, buffer, size))
    }

    /// `MPI_Buffer_detach` for the buffer attached to `comm`.
    fn MPI_Comm_detach_buffer(comm_h: MPI_Comm, buffer_addr: *mut c_void, size: *mut c_int)
        -> c_int => PMPI_Comm_detach_buffer
    {
        call("MPI_Comm_detach_buffer", comm_h, || {
            detach_int(comm_owner(comm_h)?, buffer_addr, size)
        })
    }

    /// Large-count `MPI_Comm_detach_buffer`.
    fn MPI_Comm_detach_buffer_c(comm_h: MPI_Comm, buffer_addr: *mut c_void,
                                size: *mut MPI_Count) -> c_int => PMPI_Comm_detach_buffer_c {
        call("MPI_Comm_detach_buffer_c", comm_h, || {
            detach(comm_owner(comm_h)?, buffer_addr, size)
        })
    }

    /// `MPI_Buffer_flush` for the buffer attached to `comm`.
    fn MPI_Comm_flush_buffer(comm_h: MPI_Comm) -> c_int => PMPI_Comm_flush_buffer {
        call("MPI_Comm_flush_buffer", comm_h, || {
            drain(comm_owner(comm_h)?, false);
            Ok(())
        })
    }

    /// `MPI_Buffer_iflush` for the buffer attached to `comm`.
    fn MPI_Comm_iflush_buffer(comm_h: MPI_Comm, request: *mut MPI_Request) -> c_int
        => PMPI_Comm_iflush_buffer
    {
        call("MPI_Comm_iflush_buffer", comm_h, || {
            drain(comm_owner(comm_h)?, false);
            done_request(request, comm_h)
        })
    }

    /// Buffered send: accounted against the attached buffer (`MPI_ERR_BUFFER` if it does not
    /// fit), complete once queued.
    fn MPI_Bsend(buf: *const c_void, n: c_int, dt: MPI_Datatype, dest: c_int, tag: c_int,
                 comm_h: MPI_Comm) -> c_int => PMPI_Bsend {
        call("MPI_Bsend", comm_h, || send_impl(buf, count(n), dt, dest, tag, comm_h, Mode::Buffered))
    }

    /// Large-count `MPI_Bsend`.
    fn MPI_Bsend_c(buf: *const c_void, n: MPI_Count, dt: MPI_Datatype, dest: c_int, tag: c_int,
                   comm_h: MPI_Comm) -> c_int => PMPI_Bsend_c {
        call("MPI_Bsend_c", comm_h, || send_impl(buf, n, dt, dest, tag, comm_h, Mode::Buffered))
    }

    /// Non-blocking buffered send (complete on return).
    fn MPI_Ibsend(buf: *const c_void, n: c_int, dt: MPI_Datatype, dest: c_int, tag: c_int,
                  comm_h: MPI_Comm, request: *mut MPI_Request) -> c_int => PMPI_Ibsend {
        call("MPI_Ibsend", comm_h, || {
            isend_impl(buf, count(n), dt, dest, tag, comm_h, request, Mode::Buffered)
        })
    }

    /// Large-count `MPI_Ibsend`.
    fn MPI_Ibsend_c(buf: *const c_void, n: MPI_Count, dt: MPI_Datatype, dest: c_int, tag: c_int,
                    comm_h: MPI_Comm, request: *mut MPI_Request) -> c_int => PMPI_Ibsend_c {
        call("MPI_Ibsend_c", comm_h, || {
            isend_impl(buf, n, dt, dest, tag, comm_h, request, Mode::Buffered)
        })
    }
}

/// `MPI_Session_attach_buffer` (the session checked by the caller).
pub(crate) fn attach_for_session(
    session: usize,
    buffer: *mut c_void,
    size: MPI_Count,
) -> Result<()> {
    attach(Owner::Session(session), buffer, size)
}

/// `MPI_Session_detach_buffer` (the session checked by the caller).
pub(crate) fn detach_for_session(
    session: usize,
    buffer_addr: *mut c_void,
    size: *mut MPI_Count,
) -> Result<()> {
    detach(Owner::Session(session), buffer_addr, size)
}

/// `MPI_Session_detach_buffer` with an `int` size.
pub(crate) fn detach_int_for_session(
    session: usize,
    buffer_addr: *mut c_void,
    size: *mut c_int,
) -> Result<()> {
    detach_int(Owner::Session(session), buffer_addr, size)
}

/// `MPI_Session_flush_buffer` (the session checked by the caller).
pub(crate) fn flush_for_session(session: usize) {
    drain(Owner::Session(session), false);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reservations_account_overhead_and_detach_returns_the_buffer() {
        let owner = Owner::Comm(0x7777);
        let mut mem = vec![0u8; 2 * BSEND_ACCOUNTED + 100];
        attach(owner, mem.as_mut_ptr().cast(), mem.len() as MPI_Count).unwrap();
        assert_eq!(
            attach(owner, mem.as_mut_ptr().cast(), 1).unwrap_err().class,
            MPI_ERR_BUFFER
        );
        let a = reserve(0x7777, 60, || {}).unwrap();
        let b = reserve(0x7777, 40, || {}).unwrap();
        assert_eq!(reserve(0x7777, 1, || {}).unwrap_err().class, MPI_ERR_BUFFER);
        release(a, 60);
        release(b, 40);
        // A flush frees the space at once; a late release of before it changes nothing.
        let c = reserve(0x7777, 60, || {}).unwrap();
        let _d = reserve(0x7777, 40, || {}).unwrap();
        drain(owner, false);
        release(c, 60);
        let e = reserve(0x7777, 100, || {}).unwrap();
        assert_eq!(reserve(0x7777, 1, || {}).unwrap_err().class, MPI_ERR_BUFFER);
        release(e, 100);
        let (addr, size) = drain(owner, true);
        assert_eq!((addr, size), (mem.as_ptr() as usize, mem.len()));
        assert_eq!(drain(owner, true), (0, 0));
    }
}
