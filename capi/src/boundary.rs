//! The one helper every `extern "C"` body runs in: it catches panics, converts errors to status
//! codes, records the message for `nexar_last_error_message`, and aborts instead of returning when
//! the process chose "abort on error".

use nexar::{Error, ErrorKind};
use std::cell::RefCell;
use std::ffi::CString;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};

/// Status code of success.
pub(crate) const SUCCESS: i32 = 0;

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

static ABORT_ON_ERROR: AtomicBool = AtomicBool::new(false);

/// Chooses between returning codes (false, the default) and aborting on any error (true).
pub fn set_abort_on_error(on: bool) {
    ABORT_ON_ERROR.store(on, Ordering::SeqCst);
}

/// Whether errors abort the process.
pub fn abort_on_error() -> bool {
    ABORT_ON_ERROR.load(Ordering::SeqCst)
}

/// Records `msg` as this thread's last error message.
pub fn set_last_error(msg: &str) {
    let c = CString::new(msg.replace('\0', " ")).unwrap_or_default();
    LAST_ERROR.with(|l| *l.borrow_mut() = c);
}

/// Pointer to this thread's last error message (valid until the thread's next failing call).
pub fn last_error_ptr() -> *const libc::c_char {
    LAST_ERROR.with(|l| l.borrow().as_ptr())
}

/// Turns an error into its status code, recording the message (and aborting if asked to).
pub fn fail(func: &str, e: &Error) -> i32 {
    let msg = format!("{func}: {e}");
    set_last_error(&msg);
    if abort_on_error() {
        eprintln!("nexar: aborting on error: {msg}");
        std::process::abort();
    }
    e.kind().code()
}

/// Runs `f` as the body of C function `func`: `Ok` gives `NEXAR_SUCCESS`, `Err` its code, a
/// panic `NEXAR_ERR_INTERNAL` (never unwinding into C).
pub fn call<F>(func: &str, f: F) -> i32
where
    F: FnOnce() -> nexar::Result<()>,
{
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => SUCCESS,
        Ok(Err(e)) => fail(func, &e),
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            fail(
                func,
                &Error::new(ErrorKind::Internal, format!("internal panic: {what}")),
            )
        }
    }
}

/// An `InvalidArgument` error for a NULL pointer argument.
pub fn null_arg(name: &str) -> Error {
    Error::invalid(format!("argument `{name}` is NULL"))
}

/// Checks a pointer argument is not NULL.
pub fn non_null<T>(p: *const T, name: &str) -> nexar::Result<()> {
    if p.is_null() {
        Err(null_arg(name))
    } else {
        Ok(())
    }
}

/// Writes `v` through an out-pointer already checked for NULL.
///
/// # Safety
/// `out` must be valid for a write of `T`.
pub unsafe fn write_out<T>(out: *mut T, v: T) {
    // SAFETY: the caller checked `out` for NULL and the C contract makes it writable.
    unsafe { out.write(v) }
}
