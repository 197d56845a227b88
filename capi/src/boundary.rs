//! libnexar's side of the panic boundary: how an error becomes a status code (its kind's code,
//! the message recorded for `nexar_last_error_message`, or an abort when the process chose
//! "abort on error"), plus the pointer checks every body starts with. The boundary itself
//! (panics caught, never unwinding into C) is [`nexar_bind::boundary`].

use nexar::{Error, ErrorKind};
use nexar_bind::boundary::Report;
use nexar_bind::last_error;
use std::ffi::c_int;
use std::sync::atomic::{AtomicBool, Ordering};

/// Status code of success.
pub(crate) const SUCCESS: i32 = 0;

static ABORT_ON_ERROR: AtomicBool = AtomicBool::new(false);

/// Chooses between returning codes (false, the default) and aborting on any error (true).
pub fn set_abort_on_error(on: bool) {
    ABORT_ON_ERROR.store(on, Ordering::SeqCst);
}

/// Whether errors abort the process.
pub fn abort_on_error() -> bool {
    ABORT_ON_ERROR.load(Ordering::SeqCst)
}

/// Turns an error into its status code, recording the message (and aborting if asked to).
pub fn fail(func: &str, e: &Error) -> i32 {
    let msg = format!("{func}: {e}");
    if abort_on_error() {
        eprintln!("nexar: aborting on error: {msg}");
        std::process::abort();
    }
    let code = e.kind().code();
    last_error::set(code, msg);
    code
}

/// libnexar's [`Report`]: engine errors, reported by [`fail`].
struct Nexar;

impl Report for Nexar {
    type Error = Error;
    const SUCCESS: c_int = SUCCESS;

    fn internal(&self, message: String) -> Error {
        Error::new(ErrorKind::Internal, message)
    }

    fn fail(&self, func: &str, e: Error) -> c_int {
        fail(func, &e)
    }
}

/// Runs `f` as the body of C function `func` inside [`nexar_bind::boundary::call`]: `Ok` gives
/// `NEXAR_SUCCESS`, `Err` its code, a panic `NEXAR_ERR_INTERNAL` (never unwinding into C).
pub fn call<F>(func: &str, f: F) -> i32
where
    F: FnOnce() -> nexar::Result<()>,
{
    nexar_bind::boundary::call(Nexar, func, f)
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    fn last_message() -> String {
        // SAFETY: a NUL-terminated string valid until this thread's next error.
        unsafe { CStr::from_ptr(last_error::message_ptr()) }
            .to_string_lossy()
            .into_owned()
    }

    #[test]
    fn errors_and_panics_become_codes_and_the_last_error_message() {
        assert_eq!(call("nexar_ok", || Ok(())), SUCCESS);
        let code = call("nexar_bad", || Err(null_arg("buf")));
        assert_eq!(code, ErrorKind::InvalidArgument.code());
        let m = last_message();
        assert!(
            m.starts_with("nexar_bad: ") && m.contains("`buf` is NULL"),
            "{m}"
        );
        let code = call("nexar_boom", || panic!("boom"));
        assert_eq!(code, ErrorKind::Internal.code());
        let m = last_message();
        assert!(
            m.starts_with("nexar_boom: ") && m.contains("internal panic: boom"),
            "{m}"
        );
    }
}
