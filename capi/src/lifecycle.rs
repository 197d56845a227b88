//! Process-wide state and the lifecycle functions: init, finalize, queries, abort, time,
//! version and errors.

use crate::boundary::{self, call, non_null, write_out};
use crate::handles::Handles;
use crate::request::CRequest;
use crate::types::{NEXAR_ERRORS_ABORT, NEXAR_ERRORS_RETURN, nexar_comm_t};
use nexar::{Comm, Context, Error, ErrorKind, Result};
use parking_lot::{Mutex, RwLock};
use std::ffi::{c_char, c_int};
use std::sync::OnceLock;
use std::time::Instant;

/// Handle value of `NEXAR_COMM_WORLD`.
pub(crate) const WORLD_HANDLE: u64 = 1;
/// Handle value of `NEXAR_COMM_SELF`.
pub(crate) const SELF_HANDLE: u64 = 2;

/// A running library.
pub struct Running {
    /// The process's context.
    pub ctx: Context,
    /// User communicators.
    pub comms: Mutex<Handles<Comm>>,
    /// Live requests.
    pub requests: Mutex<Handles<CRequest>>,
    /// Live one-sided windows.
    pub wins: Mutex<Handles<nexar::rma::Window>>,
}

enum Phase {
    Uninit,
    Running(Box<Running>),
    Finalized,
}

static STATE: RwLock<Phase> = RwLock::new(Phase::Uninit);

/// Runs `f` with the running library, or fails with `NotInitialized` / `Finalized`.
pub fn with_running<R>(f: impl FnOnce(&Running) -> Result<R>) -> Result<R> {
    match &*STATE.read() {
        Phase::Uninit => Err(Error::new(
            ErrorKind::NotInitialized,
            "nexar_init has not been called",
        )),
        Phase::Finalized => Err(Error::new(
            ErrorKind::Finalized,
            "nexar_finalize was called",
        )),
        Phase::Running(r) => f(r),
    }
}

/// The communicator behind a handle (cloned, so no lock is held while it is used).
pub fn comm(h: nexar_comm_t) -> Result<Comm> {
    with_running(|r| match h as u64 {
        0 => Err(Error::new(
            ErrorKind::InvalidComm,
            "communicator handle is NULL",
        )),
        WORLD_HANDLE => Ok(r.ctx.world().clone()),
        SELF_HANDLE => Ok(r.ctx.self_comm().clone()),
        v => r.comms.lock().get(v).cloned(),
    })
}

/// Registers a new communicator and returns its handle.
pub fn insert_comm(c: Comm) -> Result<nexar_comm_t> {
    with_running(|r| Ok(r.comms.lock().insert(c)? as nexar_comm_t))
}

/// Initializes nexar for this process: joins the job described by the environment (nexarrun,
/// or a world of one when started alone).
///
/// `argc` and `argv` may be NULL; they are not modified. If `SIGPIPE` is at its default
/// action (terminating the process), it is set to ignored, so a peer dying mid-write gives an
/// error rather than killing this process; a handler the program installed is kept.
/// Blocking: yes (connects to the other ranks). Thread safety: call once, from one thread,
/// before any other nexar function except `nexar_initialized`, `nexar_finalized`,
/// `nexar_wtime`, `nexar_version*`, `nexar_error_string`, `nexar_last_error_message` and
/// `nexar_set_error_mode`.
/// Errors: `NEXAR_ERR_ARG` if already initialized, `NEXAR_ERR_FINALIZED` after finalize,
/// `NEXAR_ERR_BOOTSTRAP` / `NEXAR_ERR_SECURITY` / `NEXAR_ERR_TRANSPORT` if the job cannot be
/// joined.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_init(argc: *mut c_int, argv: *mut *mut *mut c_char) -> c_int {
    let _ = (argc, argv);
    call("nexar_init", || {
        let mut state = STATE.write();
        match &*state {
            Phase::Running(_) => return Err(Error::invalid("nexar_init was already called")),
            Phase::Finalized => {
                return Err(Error::new(
                    ErrorKind::Finalized,
                    "nexar cannot be re-initialized",
                ));
            }
            Phase::Uninit => {}
        }
        start_clock();
        // The C API returns error codes: a launcher leaves this rank running when a peer
        // dies, and the death surfaces as NEXAR_ERR_PROC_FAILED.
        let cfg = nexar::Config {
            returns_errors: true,
            ..nexar::Config::from_env()?
        };
        let ctx = Context::init_with(cfg)?;
        *state = Phase::Running(Box::new(Running {
            ctx,
            comms: Mutex::new(Handles::new(1, "communicator", ErrorKind::InvalidComm)),
            requests: Mutex::new(Handles::new(2, "request", ErrorKind::InvalidRequest)),
            wins: Mutex::new(Handles::new(3, "window", ErrorKind::InvalidArgument)),
        }));
        Ok(())
    })
}

/// Leaves the job: a final barrier with every rank, then closes connections. Communicator and
/// request handles become invalid; pending requests fail.
///
/// Blocking: yes (collective over all ranks). Thread safety: call once, after every thread is
/// done with nexar.
/// Errors: `NEXAR_ERR_NOT_INITIALIZED`, `NEXAR_ERR_FINALIZED`; a failed final barrier
/// (`NEXAR_ERR_PROC_FAILED`, `NEXAR_ERR_TIMEOUT`) is reported but nexar is finalized anyway.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_finalize() -> c_int {
    call("nexar_finalize", || {
        let running = {
            let mut state = STATE.write();
            match std::mem::replace(&mut *state, Phase::Finalized) {
                Phase::Running(r) => r,
                Phase::Uninit => {
                    *state = Phase::Uninit;
                    return Err(Error::new(
                        ErrorKind::NotInitialized,
                        "nexar_init was not called",
                    ));
                }
                Phase::Finalized => {
                    return Err(Error::new(
                        ErrorKind::Finalized,
                        "nexar_finalize was already called",
                    ));
                }
            }
        };
        // Grown worlds (nexar_grow) first: their members include processes of no older world.
        let grown = crate::grow::finalize_grown();
        let r = running.ctx.finalize().and(grown);
        running.requests.lock().clear();
        running.comms.lock().clear();
        r
    })
}

/// Sets `*flag` to 1 if `nexar_init` has been called (even if finalized since), else 0.
///
/// Blocking: no. Thread safety: any thread, any time. Errors: `NEXAR_ERR_ARG` if `flag` is NULL.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_initialized(flag: *mut c_int) -> c_int {
    call("nexar_initialized", || {
        non_null(flag, "flag")?;
        let v = !matches!(*STATE.read(), Phase::Uninit);
        // SAFETY: checked for NULL; the caller provides a writable int.
        unsafe { write_out(flag, c_int::from(v)) };
        Ok(())
    })
}

/// Sets `*flag` to 1 if `nexar_finalize` has been called, else 0.
///
/// Blocking: no. Thread safety: any thread, any time. Errors: `NEXAR_ERR_ARG` if `flag` is NULL.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_finalized(flag: *mut c_int) -> c_int {
    call("nexar_finalized", || {
        non_null(flag, "flag")?;
        let v = matches!(*STATE.read(), Phase::Finalized);
        // SAFETY: checked for NULL; the caller provides a writable int.
        unsafe { write_out(flag, c_int::from(v)) };
        Ok(())
    })
}

/// Ends the whole job with exit status `code` (1 if its low 8 bits are 0, so a launcher sees a
/// failure): every other rank is told to exit with it (with or without a launcher), this
/// process waits at most 0.2 s for those messages to leave, then exits. Does not return.
///
/// Blocking: no (never returns; dead or hung peers are not waited for). Thread safety: any
/// thread, any time, initialized or not.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_abort(code: c_int) -> c_int {
    eprintln!("nexar: nexar_abort({code}) called; ending the job");
    nexar::abort_job(code)
}

static CLOCK: OnceLock<Instant> = OnceLock::new();

fn start_clock() -> Instant {
    *CLOCK.get_or_init(Instant::now)
}

/// Seconds elapsed since an arbitrary fixed point in this process (monotonic, sub-microsecond
/// resolution). Not synchronized between ranks.
///
/// Blocking: no. Thread safety: any thread, any time. Errors: none.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_wtime() -> f64 {
    start_clock().elapsed().as_secs_f64()
}

/// Writes nexar's version numbers. Any pointer may be NULL to skip that part.
///
/// Blocking: no. Thread safety: any thread, any time. Errors: none (always `NEXAR_SUCCESS`).
#[unsafe(no_mangle)]
pub extern "C" fn nexar_version(major: *mut c_int, minor: *mut c_int, patch: *mut c_int) -> c_int {
    call("nexar_version", || {
        let parse = |s: &str| s.parse::<c_int>().unwrap_or(0);
        for (p, v) in [
            (major, env!("CARGO_PKG_VERSION_MAJOR")),
            (minor, env!("CARGO_PKG_VERSION_MINOR")),
            (patch, env!("CARGO_PKG_VERSION_PATCH")),
        ] {
            if !p.is_null() {
                // SAFETY: checked for NULL; the caller provides a writable int.
                unsafe { write_out(p, parse(v)) };
            }
        }
        Ok(())
    })
}

/// The version as a static string, e.g. `"nexar 0.1.0"`. Never NULL; do not free.
///
/// Blocking: no. Thread safety: any thread, any time.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_version_string() -> *const c_char {
    concat!("nexar ", env!("CARGO_PKG_VERSION"), "\0")
        .as_ptr()
        .cast()
}

/// A static description of a status code (`"success"`, `"message truncated"`, ...; unknown
/// codes give `"unknown error code"`). Never NULL; do not free.
///
/// Blocking: no. Thread safety: any thread, any time.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_error_string(code: c_int) -> *const c_char {
    static STRINGS: OnceLock<Vec<std::ffi::CString>> = OnceLock::new();
    let table = STRINGS.get_or_init(|| {
        ErrorKind::ALL
            .iter()
            .map(|k| std::ffi::CString::new(k.describe()).unwrap_or_default())
            .collect()
    });
    if code == 0 {
        return c"success".as_ptr();
    }
    match ErrorKind::from_code(code) {
        Some(k) => table[(k.code() - 1) as usize].as_ptr(),
        None => c"unknown error code".as_ptr(),
    }
}

/// The message of the calling thread's most recent failed nexar call (empty if none). The
/// pointer stays valid until this thread's next failing nexar call; do not free.
///
/// Blocking: no. Thread safety: per thread.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_last_error_message() -> *const c_char {
    nexar_bind::last_error::message_ptr()
}

/// Chooses what failing calls do: `NEXAR_ERRORS_RETURN` (default: return the code) or
/// `NEXAR_ERRORS_ABORT` (print the message and abort the process).
///
/// Blocking: no. Thread safety: any thread; applies process-wide.
/// Errors: `NEXAR_ERR_ARG` for an unknown mode.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_set_error_mode(mode: c_int) -> c_int {
    call("nexar_set_error_mode", || match mode {
        NEXAR_ERRORS_RETURN => {
            boundary::set_abort_on_error(false);
            Ok(())
        }
        NEXAR_ERRORS_ABORT => {
            boundary::set_abort_on_error(true);
            Ok(())
        }
        m => Err(Error::invalid(format!("unknown error mode {m}"))),
    })
}
