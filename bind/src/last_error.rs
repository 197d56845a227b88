//! The thread-local last error. Both C-facing crates explain a failing status after the fact
//! (`nexar_last_error_message`, `MPI_Error_string` of the code just returned), so each keeps
//! the code and message of the last error raised on the calling thread; this is that record.
//! Each library links its own copy of this crate, so libnexar and libmpi_abi never see each
//! other's errors.

use std::cell::RefCell;
use std::ffi::{CString, c_char, c_int};

/// The last error of a thread.
struct Last {
    code: c_int,
    message: String,
    /// `message` for C (interior NULs become spaces), kept so a pointer to it stays valid until
    /// the thread's next error.
    c_message: CString,
}

thread_local! {
    static LAST: RefCell<Option<Last>> = const { RefCell::new(None) };
}

/// Records `code` and `message` as this thread's last error.
pub fn set(code: c_int, message: String) {
    let c_message = CString::new(message.replace('\0', " ")).unwrap_or_default();
    LAST.with(|l| {
        *l.borrow_mut() = Some(Last {
            code,
            message,
            c_message,
        })
    });
}

/// This thread's last error (code and message), if it raised one.
pub fn get() -> Option<(c_int, String)> {
    LAST.with(|l| l.borrow().as_ref().map(|e| (e.code, e.message.clone())))
}

/// This thread's last error message as a C string: valid until the thread's next [`set`];
/// the empty string (static) if the thread raised none.
pub fn message_ptr() -> *const c_char {
    LAST.with(|l| match l.borrow().as_ref() {
        Some(e) => e.c_message.as_ptr(),
        None => c"".as_ptr(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    fn c_text() -> String {
        // SAFETY: `message_ptr` is a NUL-terminated string valid until the next `set`.
        unsafe { CStr::from_ptr(message_ptr()) }
            .to_string_lossy()
            .into_owned()
    }

    #[test]
    fn per_thread_and_nul_safe() {
        std::thread::spawn(|| {
            assert_eq!(get(), None);
            assert_eq!(c_text(), "");
            set(4, "a\0b".into());
            assert_eq!(get(), Some((4, "a\0b".into())), "kept as raised");
            assert_eq!(c_text(), "a b", "the C form has no interior NUL");
        })
        .join()
        .unwrap();
        std::thread::spawn(|| assert_eq!(get(), None, "another thread's error is not seen"))
            .join()
            .unwrap();
    }
}
