//! Errors: the MPI error classes, how nexar's [`ErrorKind`]s map onto them, the error-handler
//! path every function reports through, and `MPI_Error_string` / `MPI_Error_class`.
//!
//! Predefined error codes are error classes. The message of the last error raised on a thread
//! is kept, and `MPI_Error_string` of that code returns it (so it names the function); other
//! codes give the class description. Codes and classes added by the user (above
//! `MPI_ERR_LASTCODE`) are in [`crate::errors::codes`].
//!
//! | nexar `ErrorKind`   | MPI error class                 |
//! |---------------------|---------------------------------|
//! | `InvalidArgument`   | `MPI_ERR_ARG`                   |
//! | `InvalidRank`       | `MPI_ERR_RANK`                  |
//! | `InvalidRoot`       | `MPI_ERR_ROOT`                  |
//! | `InvalidCount`      | `MPI_ERR_COUNT`                 |
//! | `InvalidDatatype`   | `MPI_ERR_TYPE`                  |
//! | `InvalidOp`         | `MPI_ERR_OP`                    |
//! | `InvalidComm`       | `MPI_ERR_COMM`                  |
//! | `InvalidTag`        | `MPI_ERR_TAG`                   |
//! | `Truncated`         | `MPI_ERR_TRUNCATE`              |
//! | `ProcFailed`        | `MPIX_ERR_PROC_FAILED` (ULFM)   |
//! | `Mismatch`          | `MPIX_ERR_COLL_MISMATCH` (nexar)|
//! | `Transport`         | `MPI_ERR_OTHER`                 |
//! | `Security`          | `MPI_ERR_OTHER`                 |
//! | `Bootstrap`         | `MPI_ERR_OTHER`                 |
//! | `Timeout`           | `MPIX_ERR_TIMEOUT` (MPICH's)    |
//! | `Finalized`         | `MPI_ERR_OTHER`                 |
//! | `NotInitialized`    | `MPI_ERR_OTHER`                 |
//! | `Pending`           | `MPI_ERR_PENDING`               |
//! | `Unsupported`       | `MPI_ERR_UNSUPPORTED_OPERATION` |
//! | `ResourceExhausted` | `MPI_ERR_NO_MEM`                |
//! | `Revoked`           | `MPIX_ERR_REVOKED` (ULFM)       |
//! | `Internal`          | `MPI_ERR_INTERN`                |
//! | `InvalidRequest`    | `MPI_ERR_REQUEST`               |
//! | `RmaSync`           | `MPI_ERR_RMA_SYNC`              |
//! | `RmaRange`          | `MPI_ERR_RMA_RANGE`             |
//!
//! The shim's own checks add `MPI_ERR_BUFFER` (NULL buffer with a positive count) and
//! `MPI_ERR_UNSUPPORTED_OPERATION` (the generated stubs).
//!
//! Error handlers: a user handler ([`crate::errors::codes`]) is called, then the code is returned;
//! `MPI_ERRORS_RETURN` returns the code; `MPI_ERRORS_ARE_FATAL` (the default)
//! and `MPI_ERRORS_ABORT` print `nexar MPI: <message>` to stderr and end the process with the
//! error class as exit status (the launcher then ends the job).

use crate::consts::*;
use crate::state::errhandler_of;
use nexar::ErrorKind;
use nexar_bind::boundary::Report;
use nexar_bind::last_error;
use std::ffi::{c_char, c_int};

/// An MPI error: its class and a message naming what went wrong.
#[derive(Debug, Clone)]
pub struct MpiError {
    /// The MPI error class.
    pub class: c_int,
    /// What went wrong.
    pub message: String,
}

impl MpiError {
    /// An error of `class`.
    pub fn new(class: c_int, message: impl Into<String>) -> Self {
        Self {
            class,
            message: message.into(),
        }
    }
}

/// Result of the shim's internal functions.
pub type Result<T> = std::result::Result<T, MpiError>;

/// Error class: the call timed out (`NEXAR_TIMEOUT`: a rank never joined a collective).
/// MPICH's value (`MPICH_ERR_FIRST_MPIX` + 7).
pub const MPIX_ERR_TIMEOUT: c_int = 107;
/// Error class: the ranks called collectives that do not match (another collective, count,
/// datatype, op or root, or a blocking call against a non-blocking one). nexar's own class;
/// `NEXAR_ERR_MISMATCH` of the C API.
pub const MPIX_ERR_COLL_MISMATCH: c_int = 120;

/// The MPI error class of a nexar error kind (the table above).
pub fn class_of(kind: ErrorKind) -> c_int {
    use ErrorKind as K;
    match kind {
        K::InvalidArgument => MPI_ERR_ARG,
        K::InvalidRank => MPI_ERR_RANK,
        K::InvalidRoot => MPI_ERR_ROOT,
        K::InvalidCount => MPI_ERR_COUNT,
        K::InvalidDatatype => MPI_ERR_TYPE,
        K::InvalidOp => MPI_ERR_OP,
        K::InvalidComm => MPI_ERR_COMM,
        K::InvalidTag => MPI_ERR_TAG,
        K::Truncated => MPI_ERR_TRUNCATE,
        K::ProcFailed => crate::comm::ulfm::MPIX_ERR_PROC_FAILED,
        K::Revoked => crate::comm::ulfm::MPIX_ERR_REVOKED,
        K::Mismatch => MPIX_ERR_COLL_MISMATCH,
        K::Timeout => MPIX_ERR_TIMEOUT,
        K::Transport | K::Security | K::Bootstrap | K::Finalized | K::NotInitialized => {
            MPI_ERR_OTHER
        }
        K::Pending => MPI_ERR_PENDING,
        K::Unsupported => MPI_ERR_UNSUPPORTED_OPERATION,
        K::ResourceExhausted => MPI_ERR_NO_MEM,
        K::Internal => MPI_ERR_INTERN,
        K::InvalidRequest => MPI_ERR_REQUEST,
        K::RmaSync => MPI_ERR_RMA_SYNC,
        K::RmaRange => MPI_ERR_RMA_RANGE,
    }
}

impl From<nexar::Error> for MpiError {
    fn from(e: nexar::Error) -> Self {
        let text = e.to_string();
        let text = if e.kind() == nexar::ErrorKind::Mismatch {
            super::mismatch_words::in_mpi_terms(&text)
        } else {
            text
        };
        Self::new(class_of(e.kind()), text)
    }
}

/// The name of error class `class` (`MPI_ERR_RANK`, `MPIX_ERR_PROC_FAILED`, ...) from the spec
/// table, or `None` for a class the program added.
pub fn class_name(class: c_int) -> Option<&'static str> {
    static TABLE: &str = include_str!("../../spec/constants.txt");
    TABLE.lines().find_map(|l| {
        let mut w = l.split_whitespace();
        let (name, value) = (w.next()?, w.next()?);
        let is_class = name.starts_with("MPI_ERR_") || name.starts_with("MPIX_ERR_");
        (is_class && value.parse::<c_int>().ok()? == class).then_some(name)
    })
}

/// Description of an error class.
pub fn describe(class: c_int) -> &'static str {
    match class {
        MPI_SUCCESS => "no error",
        MPI_ERR_BUFFER => "invalid buffer pointer",
        MPI_ERR_COUNT => "invalid count argument",
        MPI_ERR_TYPE => "invalid datatype",
        MPI_ERR_TAG => "invalid tag",
        MPI_ERR_COMM => "invalid communicator",
        MPI_ERR_RANK => "invalid rank",
        MPI_ERR_REQUEST => "invalid request",
        MPI_ERR_ROOT => "invalid root",
        MPI_ERR_GROUP => "invalid group",
        MPI_ERR_OP => "invalid operation",
        MPI_ERR_TOPOLOGY => "invalid topology",
        MPI_ERR_DIMS => "invalid dimension argument",
        MPI_ERR_ARG => "invalid argument",
        MPI_ERR_UNKNOWN => "unknown error",
        MPI_ERR_TRUNCATE => "message truncated",
        MPI_ERR_OTHER => "other error",
        MPI_ERR_INTERN => "internal error",
        MPI_ERR_PENDING => "pending request",
        MPI_ERR_IN_STATUS => "error code is in status",
        MPI_ERR_NO_MEM => "out of memory",
        MPI_ERR_UNSUPPORTED_OPERATION => "unsupported operation",
        MPI_ERR_PROC_ABORTED => "process aborted",
        MPI_ERR_VALUE_TOO_LARGE => "value too large",
        MPI_ERR_ERRHANDLER => "invalid error handler",
        MPI_ERR_ASSERT => "invalid assertion argument",
        MPI_ERR_DISP => "invalid displacement argument",
        MPI_ERR_LOCKTYPE => "invalid lock type",
        MPI_ERR_RMA_RANGE => "one-sided access outside the target window",
        MPI_ERR_RMA_SYNC => "one-sided call outside its synchronization epoch",
        MPI_ERR_SIZE => "invalid size argument",
        MPI_ERR_WIN => "invalid window",
        MPI_ERR_RMA_FLAVOR => "operation not allowed on this window flavor",
        crate::comm::ulfm::MPIX_ERR_PROC_FAILED => "process failed",
        crate::comm::ulfm::MPIX_ERR_PROC_FAILED_PENDING => {
            "process failed (wildcard receive pending)"
        }
        crate::comm::ulfm::MPIX_ERR_REVOKED => "communicator revoked",
        MPIX_ERR_TIMEOUT => "operation timed out",
        MPIX_ERR_COLL_MISMATCH => "ranks called mismatched collectives",
        crate::io::MPI_ERR_ACCESS => "permission denied",
        crate::io::MPI_ERR_AMODE => "invalid file access mode",
        crate::io::MPI_ERR_BAD_FILE => "invalid file name",
        crate::io::MPI_ERR_FILE => "invalid file handle",
        crate::io::MPI_ERR_FILE_EXISTS => "file exists",
        crate::io::MPI_ERR_FILE_IN_USE => "file in use",
        crate::io::MPI_ERR_IO => "I/O error",
        crate::io::MPI_ERR_NO_SPACE => "no space left on device",
        crate::io::MPI_ERR_NO_SUCH_FILE => "no such file",
        crate::io::MPI_ERR_QUOTA => "quota exceeded",
        crate::io::MPI_ERR_READ_ONLY => "read-only file or file system",
        crate::io::MPI_ERR_DUP_DATAREP => "data representation already defined",
        crate::io::MPI_ERR_UNSUPPORTED_DATAREP => "unsupported data representation",
        // Every other standard class: its name from the spec table.
        c if (0..=62).contains(&c) => class_name(c).unwrap_or("MPI error"),
        _ => "unknown error code",
    }
}

/// Reports `e` raised by `func` on communicator `comm` through its error handler: returns the
/// class under `MPI_ERRORS_RETURN`, otherwise prints the message and ends the process.
pub fn raise(func: &str, comm: MPI_Comm, e: MpiError) -> c_int {
    raise_with(func, errhandler_of(comm), comm, e)
}

/// Reports `e` raised by `func` on the object `handle` (a communicator, or a file for the I/O
/// functions) whose error handler is `handler`: returns the class under `MPI_ERRORS_RETURN`,
/// calls a user handler with `&handle` and `&class` then returns the class, otherwise prints
/// the message and ends the process.
pub fn raise_with(func: &str, handler: MPI_Errhandler, handle: usize, e: MpiError) -> c_int {
    let message = if e.message.starts_with(func) {
        e.message
    } else {
        format!("{func}: {}", e.message)
    };
    let class = e.class;
    last_error::set(class, message.clone());
    match handler {
        MPI_ERRORS_RETURN => class,
        h if crate::errors::handlers::call_user(h, handle, class) => class,
        h => {
            let what = if h == MPI_ERRORS_ABORT {
                "MPI_ERRORS_ABORT"
            } else {
                "MPI_ERRORS_ARE_FATAL"
            };
            let name =
                class_name(class).map_or_else(|| format!("error class {class}"), str::to_owned);
            eprintln!("nexar MPI: {message} ({name}; {what}: ending the job)");
            std::process::exit(if class & 0xff == 0 { 1 } else { class })
        }
    }
}

/// The shim's [`Report`]: errors of communicator `.0` go through its error handler
/// ([`raise`]).
struct OnComm(MPI_Comm);

impl Report for OnComm {
    type Error = MpiError;
    const SUCCESS: c_int = MPI_SUCCESS;

    fn internal(&self, message: String) -> MpiError {
        MpiError::new(MPI_ERR_INTERN, message)
    }

    fn fail(&self, func: &str, e: MpiError) -> c_int {
        raise(func, self.0, e)
    }
}

/// Runs `f` as the body of `func`, whose errors belong to communicator `comm`, inside
/// [`nexar_bind::boundary::call`]: `Ok` gives `MPI_SUCCESS`, an error (or a panic, as
/// `MPI_ERR_INTERN`) goes through [`raise`].
pub fn call(func: &str, comm: MPI_Comm, f: impl FnOnce() -> Result<()>) -> c_int {
    nexar_bind::boundary::call(OnComm(comm), func, f)
}

/// The body of every generated stub: raises `MPI_ERR_UNSUPPORTED_OPERATION` on
/// `MPI_COMM_WORLD` (stubs do not read their arguments).
pub fn unsupported(func: &str) -> c_int {
    raise(
        func,
        MPI_COMM_WORLD,
        MpiError::new(
            MPI_ERR_UNSUPPORTED_OPERATION,
            format!("{func} is not supported yet"),
        ),
    )
}

/// An `MPI_ERR_ARG` error for a NULL pointer argument.
pub fn non_null<T>(p: *const T, name: &str) -> Result<()> {
    if p.is_null() {
        Err(MpiError::new(
            MPI_ERR_ARG,
            format!("argument `{name}` is NULL"),
        ))
    } else {
        Ok(())
    }
}

/// Copies `s` into the C buffer `out` of `cap` bytes (NUL-terminated, truncated to fit) and
/// writes its length (without the NUL) to `len`.
///
/// # Safety
/// `out` must be writable for `cap` bytes and `len` writable; both checked for NULL.
pub unsafe fn write_string(s: &str, out: *mut c_char, cap: usize, len: *mut c_int) -> Result<()> {
    non_null(out, "string")?;
    non_null(len, "resultlen")?;
    let n = s.len().min(cap - 1);
    // SAFETY: `out` holds `cap` bytes per the MPI contract (MPI_MAX_*_STRING); n < cap.
    unsafe {
        std::ptr::copy_nonoverlapping(s.as_ptr(), out.cast::<u8>(), n);
        out.add(n).write(0);
        len.write(n as c_int);
    }
    Ok(())
}

mpi_fn! {
    /// Writes the description of `errorcode` (the full message of this thread's last error if
    /// it has that code) to `string` (`MPI_MAX_ERROR_STRING` bytes) and its length.
    /// Callable before `MPI_Init` and after `MPI_Finalize`.
    fn MPI_Error_string(errorcode: c_int, string: *mut c_char, resultlen: *mut c_int) -> c_int
        => PMPI_Error_string
    {
        call("MPI_Error_string", MPI_COMM_WORLD, || {
            if let Some(s) = crate::errors::codes::string_of_added(errorcode) {
                // SAFETY: checked inside; the buffer size is the standard's.
                return unsafe { write_string(&s, string, MPI_MAX_ERROR_STRING, resultlen) };
            }
            if !(0..=MPI_ERR_LASTCODE).contains(&errorcode) {
                return Err(MpiError::new(MPI_ERR_ARG, format!("invalid error code {errorcode}")));
            }
            let text = match last_error::get() {
                Some((class, message)) if class == errorcode && errorcode != MPI_SUCCESS => message,
                _ => describe(errorcode).to_string(),
            };
            // SAFETY: checked inside; the buffer size is the standard's.
            unsafe { write_string(&text, string, MPI_MAX_ERROR_STRING, resultlen) }
        })
    }

    /// Writes the class of `errorcode` (predefined codes are classes; added codes have the
    /// class they were added to) to `errorclass`.
    fn MPI_Error_class(errorcode: c_int, errorclass: *mut c_int) -> c_int => PMPI_Error_class {
        call("MPI_Error_class", MPI_COMM_WORLD, || {
            non_null(errorclass, "errorclass")?;
            if let Some(c) = crate::errors::codes::class_of_added(errorcode) {
                // SAFETY: checked for NULL.
                unsafe { errorclass.write(c) };
                return Ok(());
            }
            if !(0..=MPI_ERR_LASTCODE).contains(&errorcode) {
                return Err(MpiError::new(MPI_ERR_ARG, format!("invalid error code {errorcode}")));
            }
            // SAFETY: checked for NULL.
            unsafe { errorclass.write(errorcode) };
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_classes_are_named_from_the_spec_table() {
        assert_eq!(class_name(MPI_ERR_RANK), Some("MPI_ERR_RANK"));
        assert_eq!(class_name(MPI_ERR_TRUNCATE), Some("MPI_ERR_TRUNCATE"));
        assert_eq!(class_name(101), Some("MPIX_ERR_PROC_FAILED"));
        assert_eq!(class_name(MPI_SUCCESS), None);
        assert_eq!(class_name(12345), None);
    }

    #[test]
    fn every_kind_maps_to_a_valid_class() {
        for k in ErrorKind::ALL {
            let c = class_of(k);
            // A standard class, or one of the extensions' (ULFM's 101..=103, 107, 120).
            assert!(
                (c > 0 && c <= 62) || [101, 102, 103, 107, 120].contains(&c),
                "{k:?}"
            );
            assert_ne!(describe(c), "unknown error code", "{k:?}");
        }
        assert_eq!(
            class_of(ErrorKind::ProcFailed),
            crate::comm::ulfm::MPIX_ERR_PROC_FAILED
        );
        assert_eq!(
            class_of(ErrorKind::Revoked),
            crate::comm::ulfm::MPIX_ERR_REVOKED
        );
        assert_eq!(class_of(ErrorKind::Mismatch), MPIX_ERR_COLL_MISMATCH);
        assert_eq!(class_of(ErrorKind::Timeout), MPIX_ERR_TIMEOUT);
        assert_eq!(
            class_name(MPIX_ERR_COLL_MISMATCH),
            Some("MPIX_ERR_COLL_MISMATCH")
        );
        assert_eq!(class_of(ErrorKind::InvalidRank), MPI_ERR_RANK);
        assert_eq!(class_of(ErrorKind::Truncated), MPI_ERR_TRUNCATE);
    }
}
