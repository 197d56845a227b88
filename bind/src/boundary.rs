//! The panic boundary: the one helper every `extern "C"` body of libnexar and libmpi_abi runs
//! in. A panic must never unwind into C (that is undefined behaviour), and every failure must
//! come back as a status code; both crates need exactly this, and only the way an error becomes
//! a code differs. That part is the caller's [`Report`]: libnexar's records the message and
//! may abort, the MPI shim's goes through the communicator's error handler.

use std::any::Any;
use std::ffi::c_int;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// How a C-facing crate turns the outcome of a body into the status it returns.
pub trait Report {
    /// The error the bodies return.
    type Error;

    /// The status of success.
    const SUCCESS: c_int;

    /// The error a caught panic becomes; `message` reads `internal panic: <panic message>`.
    fn internal(&self, message: String) -> Self::Error;

    /// Reports `e`, raised by the C function `func` (recording it as the thread's last error,
    /// calling handlers, aborting if the crate is configured to), and gives the status to
    /// return.
    fn fail(&self, func: &str, e: Self::Error) -> c_int;
}

/// Runs `f` as the body of C function `func`: `Ok` gives [`Report::SUCCESS`], `Err` whatever
/// [`Report::fail`] makes of it, and a panic is caught (never unwinding into C) and reported as
/// the error [`Report::internal`] makes.
pub fn call<R: Report>(report: R, func: &str, f: impl FnOnce() -> Result<(), R::Error>) -> c_int {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => R::SUCCESS,
        Ok(Err(e)) => report.fail(func, e),
        Err(payload) => {
            let e = report.internal(format!("internal panic: {}", panic_message(&*payload)));
            report.fail(func, e)
        }
    }
}

/// The message a panic was raised with (`panic!("...")` carries a `&str` or a `String`), or
/// `unknown panic` for any other payload.
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::last_error;

    const INTERNAL: c_int = 17;

    /// A reporter like libnexar's: records `func: message` and returns the error's code.
    struct Codes;

    impl Report for Codes {
        type Error = (c_int, String);
        const SUCCESS: c_int = 0;

        fn internal(&self, message: String) -> Self::Error {
            (INTERNAL, message)
        }

        fn fail(&self, func: &str, (code, message): Self::Error) -> c_int {
            last_error::set(code, format!("{func}: {message}"));
            code
        }
    }

    #[test]
    fn ok_is_success_and_leaves_the_last_error() {
        last_error::set(5, "earlier".into());
        assert_eq!(call(Codes, "f_ok", || Ok(())), 0);
        assert_eq!(last_error::get(), Some((5, "earlier".into())));
    }

    #[test]
    fn err_gives_its_code_and_the_last_error_message() {
        assert_eq!(call(Codes, "f_err", || Err((3, "bad count".into()))), 3);
        assert_eq!(last_error::get(), Some((3, "f_err: bad count".into())));
    }

    #[test]
    fn a_panic_is_caught_and_becomes_the_internal_code() {
        let code = call(Codes, "f_panic", || panic!("boom {}", 42));
        assert_eq!(code, INTERNAL);
        let (c, message) = last_error::get().expect("recorded");
        assert_eq!(c, INTERNAL);
        assert_eq!(message, "f_panic: internal panic: boom 42");
        let code = call(Codes, "f_str", || panic!("static"));
        assert_eq!(code, INTERNAL);
        assert_eq!(
            last_error::get().unwrap().1,
            "f_str: internal panic: static"
        );
    }

    #[test]
    fn a_non_string_panic_payload_is_named_unknown() {
        let code = call(Codes, "f_any", || std::panic::panic_any(7u8));
        assert_eq!(code, INTERNAL);
        assert_eq!(
            last_error::get().unwrap().1,
            "f_any: internal panic: unknown panic"
        );
    }
}
