//! The MPI tool information interface (`MPI_T_*`): what nexar exposes to tools, and the
//! calls that read it.
//!
//! - **Control variables** ([`vars`]): the settings the engine runs with (the transport in use,
//!   the unexpected-message budget, the largest message, the direct-allreduce and flag-area
//!   thresholds, the shared-memory single-copy threshold, timeouts, engine threads). They are
//!   fixed for the run (`MPI_T_SCOPE_CONSTANT`): nexar reads them once at start-up from the
//!   `NEXAR_*` variables, so `MPI_T_cvar_write` refuses them (`MPI_T_ERR_CVAR_SET_NEVER`).
//!   Before the engine runs they show the values it would start with.
//! - **Performance variables** ([`vars`]): the transports' traffic counters (frames and bytes
//!   sent and received, payloads copied once) as counters that sessions start, stop and read,
//!   and the unexpected queue (messages, bytes) as levels read continuously. Read-only.
//! - **Categories** ([`catalog`]): `nexar_settings` (every control variable) and
//!   `nexar_traffic` (every performance variable). No enumerations, no events (the event calls
//!   answer with `MPI_T_ERR_INVALID_INDEX` / `_HANDLE` / `_NAME`, as for an index or handle
//!   that does not exist), one event source (the clock of `MPI_Wtime`, in nanoseconds).
//!
//! MPI_T calls return their error codes and never call error handlers (the standard's rule).
//! Every call but `MPI_T_init_thread` and `MPI_T_finalize` fails with
//! `MPI_T_ERR_NOT_INITIALIZED` unless the interface is initialized (initializations nest).

pub mod catalog;
pub mod vars;

use crate::consts::*;
use crate::errors::report::MpiError;
use std::ffi::{c_char, c_int};
use std::sync::atomic::{AtomicUsize, Ordering};

/// `MPI_T_ERR_NOT_INITIALIZED`.
pub const MPI_T_ERR_NOT_INITIALIZED: c_int = 1003;
/// `MPI_T_ERR_INVALID`: an argument that is not valid (a NULL pointer, ...).
pub const MPI_T_ERR_INVALID: c_int = 1006;
/// `MPI_T_ERR_INVALID_INDEX`.
pub const MPI_T_ERR_INVALID_INDEX: c_int = 1007;
/// `MPI_T_ERR_INVALID_SESSION`.
pub const MPI_T_ERR_INVALID_SESSION: c_int = 1009;
/// `MPI_T_ERR_INVALID_HANDLE`.
pub const MPI_T_ERR_INVALID_HANDLE: c_int = 1010;
/// `MPI_T_ERR_INVALID_NAME`.
pub const MPI_T_ERR_INVALID_NAME: c_int = 1011;
/// `MPI_T_ERR_OUT_OF_HANDLES`.
pub const MPI_T_ERR_OUT_OF_HANDLES: c_int = 1012;
/// `MPI_T_ERR_OUT_OF_SESSIONS`.
pub const MPI_T_ERR_OUT_OF_SESSIONS: c_int = 1013;
/// `MPI_T_ERR_CVAR_SET_NEVER`.
pub const MPI_T_ERR_CVAR_SET_NEVER: c_int = 1015;
/// `MPI_T_ERR_PVAR_NO_WRITE`.
pub const MPI_T_ERR_PVAR_NO_WRITE: c_int = 1016;
/// `MPI_T_ERR_PVAR_NO_STARTSTOP`.
pub const MPI_T_ERR_PVAR_NO_STARTSTOP: c_int = 1017;

/// Nested `MPI_T_init_thread` calls not yet matched by `MPI_T_finalize`.
static INITS: AtomicUsize = AtomicUsize::new(0);

/// An MPI_T error: its code and what went wrong (kept as the last error message).
fn t_err(code: c_int, message: impl Into<String>) -> MpiError {
    MpiError::new(code, message.into())
}

/// MPI_T's [`nexar_bind::boundary::Report`]: the code is the result, no handler runs.
struct Tools;

impl nexar_bind::boundary::Report for Tools {
    type Error = MpiError;
    const SUCCESS: c_int = MPI_SUCCESS;

    fn internal(&self, message: String) -> MpiError {
        MpiError::new(MPI_ERR_INTERN, message)
    }

    fn fail(&self, func: &str, e: MpiError) -> c_int {
        nexar_bind::last_error::set(e.class, format!("{func}: {}", e.message));
        e.class
    }
}

/// Runs `f` as the body of MPI_T function `func` once the interface is initialized.
pub(crate) fn call(func: &str, f: impl FnOnce() -> Result<(), MpiError>) -> c_int {
    nexar_bind::boundary::call(Tools, func, || {
        if INITS.load(Ordering::Acquire) == 0 {
            return Err(t_err(
                MPI_T_ERR_NOT_INITIALIZED,
                "the tool interface is not initialized (call MPI_T_init_thread first)",
            ));
        }
        f()
    })
}

/// A NULL output pointer is `MPI_T_ERR_INVALID`.
pub(crate) fn out<T>(p: *mut T, name: &str) -> Result<(), MpiError> {
    if p.is_null() {
        Err(t_err(
            MPI_T_ERR_INVALID,
            format!("argument `{name}` is NULL"),
        ))
    } else {
        Ok(())
    }
}

/// Writes `v` through `p` if `p` is not NULL (MPI_T lets callers skip any output).
pub(crate) fn put<T>(p: *mut T, v: T) {
    if !p.is_null() {
        // SAFETY: non-NULL; writable per the MPI contract.
        unsafe { p.write(v) };
    }
}

/// MPI_T's string return: with `len` NULL nothing is written; otherwise `*len` becomes the
/// full length with the NUL, and when `buf` is not NULL and `*len` was positive, the string is
/// copied, truncated to `*len - 1` characters and NUL-terminated.
pub(crate) fn put_str(s: &str, buf: *mut c_char, len: *mut c_int) {
    if len.is_null() {
        return;
    }
    // SAFETY: non-NULL; readable and writable per the MPI contract.
    let cap = unsafe { len.read() };
    if !buf.is_null() && cap > 0 {
        let n = s.len().min(cap as usize - 1);
        // SAFETY: `buf` holds `cap` bytes per the MPI contract; n < cap.
        unsafe {
            std::ptr::copy_nonoverlapping(s.as_ptr(), buf.cast::<u8>(), n);
            buf.add(n).write(0);
        }
    }
    // SAFETY: as above.
    unsafe { len.write(s.len() as c_int + 1) };
}

/// Reads a C string argument (`MPI_T_ERR_INVALID` for NULL).
pub(crate) fn in_str<'a>(p: *const c_char, name: &str) -> Result<&'a str, MpiError> {
    if p.is_null() {
        return Err(t_err(
            MPI_T_ERR_INVALID,
            format!("argument `{name}` is NULL"),
        ));
    }
    // SAFETY: non-NULL and NUL-terminated per the MPI contract.
    unsafe { std::ffi::CStr::from_ptr(p) }
        .to_str()
        .map_err(|_| t_err(MPI_T_ERR_INVALID_NAME, format!("`{name}` is not UTF-8")))
}

/// An index into a table of `n` entries (`MPI_T_ERR_INVALID_INDEX` otherwise).
pub(crate) fn index(i: c_int, n: usize, what: &str) -> Result<usize, MpiError> {
    usize::try_from(i).ok().filter(|&i| i < n).ok_or_else(|| {
        t_err(
            MPI_T_ERR_INVALID_INDEX,
            format!("{what} index {i} is out of range (nexar has {n})"),
        )
    })
}

mpi_fn! {
    /// Initializes the tool interface (before or after `MPI_Init`, any number of times;
    /// each call needs its `MPI_T_finalize`). `*provided` is `required` (every thread level
    /// is supported). Returns `MPI_T_ERR_INVALID` for a NULL `provided`.
    fn MPI_T_init_thread(required: c_int, provided: *mut c_int) -> c_int => PMPI_T_init_thread {
        nexar_bind::boundary::call(Tools, "MPI_T_init_thread", || {
            out(provided, "provided")?;
            // SAFETY: checked for NULL.
            unsafe { provided.write(required.clamp(MPI_THREAD_SINGLE, MPI_THREAD_MULTIPLE)) };
            INITS.fetch_add(1, Ordering::AcqRel);
            Ok(())
        })
    }

    /// Ends one `MPI_T_init_thread`; the last one frees every performance-variable session
    /// and control-variable handle still allocated. `MPI_T_ERR_NOT_INITIALIZED` if none is
    /// open.
    fn MPI_T_finalize() -> c_int => PMPI_T_finalize {
        call("MPI_T_finalize", || {
            if INITS.fetch_sub(1, Ordering::AcqRel) == 1 {
                vars::release_all();
            }
            Ok(())
        })
    }
}
