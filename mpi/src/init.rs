//! Environment management: init and finalize, thread levels, versions, processor name, time,
//! abort and address arithmetic.

use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null, write_string};
use crate::state::{
    CommEntry, Phase, Running, STATE, WORLD_ACTIVE, WORLD_DONE, WORLD_NEVER, with_running,
};
use crate::table::{Table, USER_HANDLES};
use nexar::Context;
use parking_lot::Mutex;
use std::ffi::{c_char, c_int};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicI32, AtomicU8, AtomicUsize, Ordering};
use std::time::Instant;

static CLOCK: OnceLock<Instant> = OnceLock::new();

fn clock() -> Instant {
    *CLOCK.get_or_init(Instant::now)
}

/// `MPI_Wtime`'s clock in nanoseconds (the tools interface's event source).
pub(crate) fn wtime_nanos() -> MPI_Count {
    clock().elapsed().as_nanos() as MPI_Count
}

fn init(func: &str, required: c_int) -> Result<c_int> {
    let level = required.clamp(MPI_THREAD_SINGLE, MPI_THREAD_MULTIPLE);
    let mut state = STATE.write();
    match &*state {
        // The engine already runs for sessions: the world model starts on it.
        Phase::Running(r) if r.world() == WORLD_NEVER => {
            r.world.store(WORLD_ACTIVE, Ordering::Release);
            r.thread_level.store(level, Ordering::Relaxed);
            *r.main_thread.lock() = std::thread::current().id();
            return Ok(level);
        }
        Phase::Running(r) if r.world() == WORLD_ACTIVE => {
            return Err(MpiError::new(
                MPI_ERR_OTHER,
                format!("{func}: MPI is already initialized"),
            ));
        }
        Phase::Running(_) | Phase::Finalized => {
            return Err(MpiError::new(
                MPI_ERR_OTHER,
                format!("{func}: MPI cannot be initialized again after MPI_Finalize"),
            ));
        }
        Phase::Uninit => {}
    }
    *state = Phase::Running(start_engine(level, WORLD_ACTIVE, 0)?);
    Ok(level)
}

/// Joins the job: the engine, for the world model (`world`) and `sessions` sessions.
fn start_engine(level: c_int, world: u8, sessions: usize) -> Result<Box<Running>> {
    clock();
    // MPI's default handler is MPI_ERRORS_ARE_FATAL: until the program sets a non-fatal one
    // (state::set_errhandler), a launcher ends this rank with the job when a peer dies.
    let cfg = nexar::Config {
        returns_errors: false,
        ..nexar::Config::from_env()?
    };
    let ctx = Context::init_with(cfg)?;
    // A spawned process's MPI_COMM_WORLD is its own group; its parents are across an
    // intercommunicator.
    let (world_comm, parent) = match crate::comm::spawn::join_as_child(&ctx)? {
        Some((group, inter)) => (group, Some(inter)),
        None => (ctx.world().clone(), None),
    };
    let mut comms = Table::new(USER_HANDLES);
    let parent = match parent {
        Some(inter) => comms
            .insert(CommEntry {
                comm: inter,
                errhandler: MPI_ERRORS_ARE_FATAL,
            })
            .ok_or_else(|| MpiError::new(MPI_ERR_NO_MEM, "too many live communicators"))?,
        None => MPI_COMM_NULL,
    };
    Ok(Box::new(Running {
        ctx,
        comms: Mutex::new(comms),
        main_thread: Mutex::new(std::thread::current().id()),
        thread_level: AtomicI32::new(level),
        world: AtomicU8::new(world),
        sessions: AtomicUsize::new(sessions),
        world_comm,
        parent: AtomicUsize::new(parent),
        spawned: Mutex::new(Vec::new()),
    }))
}

/// Takes the running engine out of `state` (which the caller found running), leaving the
/// library finalized: the caller finalizes the engine once the lock is released.
fn take_engine(state: &mut Phase) -> Box<Running> {
    // A window used after this must be refused, not found in a thread's cached lookup.
    crate::win::forget_lookups();
    match std::mem::replace(state, Phase::Finalized) {
        Phase::Running(r) => r,
        _ => unreachable!("the caller checked that the engine runs"),
    }
}

/// A session starts (`MPI_Session_init`): the engine is started if nothing runs yet. A process
/// that only ever uses sessions leaves the job at exit, as `MPI_Finalize` would
/// ([`leave_at_exit`]), so a later session can still start on the same engine until then.
pub(crate) fn session_started(level: c_int) -> Result<()> {
    let mut state = STATE.write();
    match &*state {
        Phase::Running(r) => {
            r.sessions.fetch_add(1, Ordering::AcqRel);
            Ok(())
        }
        Phase::Finalized => Err(MpiError::new(
            MPI_ERR_OTHER,
            "MPI was finalized in this process: no session can start any more",
        )),
        Phase::Uninit => {
            *state = Phase::Running(start_engine(level, WORLD_NEVER, 1)?);
            // SAFETY: registers a plain `extern "C" fn()`; atexit has no other requirement.
            if unsafe { libc::atexit(leave_at_exit) } != 0 {
                // Without the hook the process leaves without a goodbye: its peers may then
                // report it as failed when it exits.
                eprintln!("nexar MPI: atexit refused the sessions' exit hook");
            }
            Ok(())
        }
    }
}

/// A session ends (`MPI_Session_finalize`): the last one after `MPI_Finalize` ends the engine.
pub(crate) fn session_ended() -> Result<()> {
    let running = {
        let mut state = STATE.write();
        let Phase::Running(r) = &*state else {
            return Ok(());
        };
        let left = r.sessions.fetch_sub(1, Ordering::AcqRel) - 1;
        if left > 0 || r.world() != WORLD_DONE {
            return Ok(());
        }
        take_engine(&mut state)
    };
    running.finalize()?;
    Ok(())
}

/// At process exit, a process whose engine ran for sessions only (or whose sessions outlived
/// `MPI_Finalize`) leaves the job the way `MPI_Finalize` does, so its peers see a goodbye,
/// not a failure. A program inside the world model that never called `MPI_Finalize` is left
/// as it is.
extern "C" fn leave_at_exit() {
    let running = {
        let mut state = STATE.write();
        match &*state {
            Phase::Running(r) if r.world() != WORLD_ACTIVE => take_engine(&mut state),
            _ => return,
        }
    };
    // On a thread of its own: the exiting thread's thread-locals are already destroyed.
    let left = std::thread::Builder::new()
        .name("nexar-exit".into())
        .spawn(move || running.finalize());
    match left.map(|t| t.join()) {
        Ok(Ok(Ok(()))) => {}
        Ok(Ok(Err(e))) => eprintln!("nexar MPI: leaving the job at exit: {e}"),
        Ok(Err(_)) => eprintln!("nexar MPI: leaving the job at exit panicked"),
        Err(e) => eprintln!("nexar MPI: leaving the job at exit: no thread: {e}"),
    }
}

/// Whether `MPI_Init` has been called (the world model started).
fn is_running() -> bool {
    matches!(&*STATE.read(), Phase::Running(r) if r.world() != WORLD_NEVER)
}

/// Whether `MPI_Finalize` has been called.
fn is_finalized() -> bool {
    match &*STATE.read() {
        Phase::Running(r) => r.world() == WORLD_DONE,
        Phase::Finalized => true,
        Phase::Uninit => false,
    }
}

fn write_flag(flag: *mut c_int, v: bool) -> Result<()> {
    non_null(flag, "flag")?;
    // SAFETY: checked for NULL; writable per the MPI contract.
    unsafe { flag.write(v as c_int) };
    Ok(())
}

fn hostname() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: `buf` is writable for its length; gethostname NUL-terminates within it or fails.
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len() - 1) };
    if rc != 0 {
        return "localhost".into();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

/// The text `MPI_Get_library_version` returns.
pub fn library_version() -> String {
    format!(
        "nexar {} (MPI {MPI_VERSION}.{MPI_SUBVERSION}, standard ABI {MPI_ABI_VERSION}.{MPI_ABI_SUBVERSION})",
        env!("CARGO_PKG_VERSION")
    )
}

mpi_fn! {
    /// Joins the job (nexarrun / mpiexec, or a world of one when started alone). `argc`/`argv`
    /// may be NULL and are not modified. Thread level: `MPI_THREAD_SINGLE`.
    fn MPI_Init(argc: *mut c_int, argv: *mut *mut *mut c_char) -> c_int => PMPI_Init {
        let _ = (argc, argv);
        call("MPI_Init", MPI_COMM_WORLD, || init("MPI_Init", MPI_THREAD_SINGLE).map(drop))
    }

    /// As `MPI_Init`; `*provided` is `required` (every level up to `MPI_THREAD_MULTIPLE` is
    /// supported).
    fn MPI_Init_thread(argc: *mut c_int, argv: *mut *mut *mut c_char, required: c_int,
                       provided: *mut c_int) -> c_int => PMPI_Init_thread {
        let _ = (argc, argv);
        call("MPI_Init_thread", MPI_COMM_WORLD, || {
            non_null(provided, "provided")?;
            let level = init("MPI_Init_thread", required)?;
            // SAFETY: checked for NULL.
            unsafe { provided.write(level) };
            Ok(())
        })
    }

    /// Whether `MPI_Init` has been called (true after `MPI_Finalize` too).
    fn MPI_Initialized(flag: *mut c_int) -> c_int => PMPI_Initialized {
        call("MPI_Initialized", MPI_COMM_WORLD, || write_flag(flag, is_running() || is_finalized()))
    }

    /// Whether `MPI_Finalize` has been called.
    fn MPI_Finalized(flag: *mut c_int) -> c_int => PMPI_Finalized {
        call("MPI_Finalized", MPI_COMM_WORLD, || write_flag(flag, is_finalized()))
    }

    /// Leaves the job (collective over all ranks); every user communicator becomes invalid.
    fn MPI_Finalize() -> c_int => PMPI_Finalize {
        call("MPI_Finalize", MPI_COMM_WORLD, || {
            // As if MPI_COMM_SELF were freed first: its attributes' delete callbacks run while
            // MPI is still usable.
            if with_running(|_| Ok(())).is_ok() {
                crate::comm::attr::delete_all(MPI_COMM_SELF)?;
            }
            let running = {
                let mut state = STATE.write();
                let why = match &*state {
                    Phase::Running(r) if r.world() == WORLD_ACTIVE => {
                        r.world.store(WORLD_DONE, Ordering::Release);
                        if r.sessions.load(Ordering::Acquire) > 0 {
                            // Open sessions keep the engine; the last one ends it.
                            return Ok(());
                        }
                        None
                    }
                    Phase::Running(r) if r.world() == WORLD_NEVER => Some("MPI_Init was not called"),
                    Phase::Uninit => Some("MPI_Init was not called"),
                    _ => Some("MPI_Finalize was already called"),
                };
                if let Some(why) = why {
                    return Err(MpiError::new(MPI_ERR_OTHER, why));
                }
                take_engine(&mut state)
            };
            running.finalize()?;
            Ok(())
        })
    }

    /// The thread level granted by `MPI_Init(_thread)`.
    fn MPI_Query_thread(provided: *mut c_int) -> c_int => PMPI_Query_thread {
        call("MPI_Query_thread", MPI_COMM_WORLD, || {
            non_null(provided, "provided")?;
            let level = with_running(|r| Ok(r.thread_level.load(Ordering::Relaxed)))?;
            // SAFETY: checked for NULL.
            unsafe { provided.write(level) };
            Ok(())
        })
    }

    /// Whether the calling thread is the one that called `MPI_Init(_thread)`.
    fn MPI_Is_thread_main(flag: *mut c_int) -> c_int => PMPI_Is_thread_main {
        call("MPI_Is_thread_main", MPI_COMM_WORLD, || {
            let main =
                with_running(|r| Ok(*r.main_thread.lock() == std::thread::current().id()))?;
            write_flag(flag, main)
        })
    }

    /// Ends the whole job (every rank, not only `comm`'s, as MPI implementations do): prints
    /// a message, tells every other rank to exit with `errorcode` (1 if its low 8 bits are 0),
    /// and exits; with or without a launcher. Returns promptly even when peers are dead or hung.
    fn MPI_Abort(comm: MPI_Comm, errorcode: c_int) -> c_int => PMPI_Abort {
        eprintln!("nexar MPI: MPI_Abort(comm {comm:#x}, {errorcode}) called; ending the job");
        nexar::abort_job(errorcode)
    }

    /// The MPI version this library implements: 5.0.
    fn MPI_Get_version(version: *mut c_int, subversion: *mut c_int) -> c_int => PMPI_Get_version {
        call("MPI_Get_version", MPI_COMM_WORLD, || {
            non_null(version, "version")?;
            non_null(subversion, "subversion")?;
            // SAFETY: checked for NULL.
            unsafe {
                version.write(MPI_VERSION);
                subversion.write(MPI_SUBVERSION);
            }
            Ok(())
        })
    }

    /// The standard ABI version this library implements: 1.0.
    fn MPI_Abi_get_version(abi_major: *mut c_int, abi_minor: *mut c_int) -> c_int
        => PMPI_Abi_get_version
    {
        call("MPI_Abi_get_version", MPI_COMM_WORLD, || {
            non_null(abi_major, "abi_major")?;
            non_null(abi_minor, "abi_minor")?;
            // SAFETY: checked for NULL.
            unsafe {
                abi_major.write(MPI_ABI_VERSION);
                abi_minor.write(MPI_ABI_SUBVERSION);
            }
            Ok(())
        })
    }

    /// Names the library (nexar and its version) in `version`
    /// (`MPI_MAX_LIBRARY_VERSION_STRING` bytes).
    fn MPI_Get_library_version(version: *mut c_char, resultlen: *mut c_int) -> c_int
        => PMPI_Get_library_version
    {
        call("MPI_Get_library_version", MPI_COMM_WORLD, || {
            // SAFETY: checked inside; the buffer size is the standard's.
            unsafe {
                write_string(&library_version(), version, MPI_MAX_LIBRARY_VERSION_STRING, resultlen)
            }
        })
    }

    /// The host name (`MPI_MAX_PROCESSOR_NAME` bytes).
    fn MPI_Get_processor_name(name: *mut c_char, resultlen: *mut c_int) -> c_int
        => PMPI_Get_processor_name
    {
        call("MPI_Get_processor_name", MPI_COMM_WORLD, || {
            // SAFETY: checked inside; the buffer size is the standard's.
            unsafe { write_string(&hostname(), name, MPI_MAX_PROCESSOR_NAME, resultlen) }
        })
    }

    /// Seconds since an arbitrary point of this process's past (monotonic, not synchronized
    /// across ranks).
    fn MPI_Wtime() -> f64 => PMPI_Wtime {
        clock().elapsed().as_secs_f64()
    }

    /// Resolution of `MPI_Wtime`: one nanosecond.
    fn MPI_Wtick() -> f64 => PMPI_Wtick {
        1e-9
    }

    /// `base + disp` as an address.
    fn MPI_Aint_add(base: MPI_Aint, disp: MPI_Aint) -> MPI_Aint => PMPI_Aint_add {
        base.wrapping_add(disp)
    }

    /// `addr1 - addr2` as a displacement.
    fn MPI_Aint_diff(addr1: MPI_Aint, addr2: MPI_Aint) -> MPI_Aint => PMPI_Aint_diff {
        addr1.wrapping_sub(addr2)
    }

}
