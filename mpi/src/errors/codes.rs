//! User error classes, codes and strings (`MPI_Add_error_class`, `MPI_Add_error_code`,
//! `MPI_Add_error_string`, their `MPI_Remove_*` inverses). Error handlers are in
//! [`crate::errors::handlers`].
//!
//! Added classes and codes are numbered from `MPI_ERR_LASTCODE + 1` upwards (never reused), so
//! they cannot be mistaken for predefined ones; the `MPI_LASTUSEDCODE` attribute is the largest
//! in use. A class is its own code. `MPI_Error_string` of an added code gives its added string
//! ("" when none was added) and `MPI_Error_class` its class. Strings may be added only to added
//! codes and classes (`MPI_ERR_ARG` for a predefined one, as the standard makes that erroneous);
//! a class with codes still attached cannot be removed.

use crate::consts::*;
use crate::errors::report::{MpiError, Result, call};
use parking_lot::Mutex;
use std::collections::BTreeMap;
use std::ffi::{CStr, c_char, c_int};
use std::sync::atomic::{AtomicI32, Ordering};

/// An added code: its class and its string, if one was added.
struct Added {
    class: c_int,
    string: Option<String>,
}

struct Registry {
    codes: BTreeMap<c_int, Added>,
    next: c_int,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    codes: BTreeMap::new(),
    next: MPI_ERR_LASTCODE + 1,
});

/// The value of the `MPI_LASTUSEDCODE` attribute (C code reads it through the pointer
/// `MPI_Comm_get_attr` hands out, so it lives at a fixed address).
static LAST_USED: AtomicI32 = AtomicI32::new(MPI_ERR_LASTCODE);

/// The `MPI_LASTUSEDCODE` value, as the `int` the attribute points to.
pub fn last_used() -> &'static c_int {
    // SAFETY: AtomicI32 has the size, alignment and bit validity of i32; Rust code never reads
    // through this reference while it is written (only C code reads the attribute value).
    unsafe { &*LAST_USED.as_ptr() }
}

/// The class of an added code, or `None` when `code` is not an added one.
pub fn class_of_added(code: c_int) -> Option<c_int> {
    REGISTRY.lock().codes.get(&code).map(|a| a.class)
}

/// The string of an added code ("" when none was added), or `None` when it is not added.
pub fn string_of_added(code: c_int) -> Option<String> {
    REGISTRY
        .lock()
        .codes
        .get(&code)
        .map(|a| a.string.clone().unwrap_or_default())
}

fn is_class(r: &Registry, c: c_int) -> bool {
    (MPI_SUCCESS..=62).contains(&c) || r.codes.get(&c).is_some_and(|a| a.class == c)
}

fn add(class: Option<c_int>) -> Result<c_int> {
    let mut r = REGISTRY.lock();
    if let Some(c) = class
        && !is_class(&r, c)
    {
        return Err(MpiError::new(
            MPI_ERR_ARG,
            format!("{c} is not an error class"),
        ));
    }
    let code = r.next;
    r.next = code
        .checked_add(1)
        .ok_or_else(|| MpiError::new(MPI_ERR_NO_MEM, "out of error codes"))?;
    r.codes.insert(
        code,
        Added {
            class: class.unwrap_or(code),
            string: None,
        },
    );
    LAST_USED.store(code, Ordering::Relaxed);
    Ok(code)
}

fn added_or_arg(r: &mut Registry, code: c_int) -> Result<&mut Added> {
    r.codes.get_mut(&code).ok_or_else(|| {
        MpiError::new(
            MPI_ERR_ARG,
            format!("{code} is not an added error code or class"),
        )
    })
}

fn remove(code: c_int, want_class: bool) -> Result<()> {
    let mut r = REGISTRY.lock();
    let is_cls = added_or_arg(&mut r, code)?.class == code;
    if is_cls != want_class {
        let what = if want_class { "a class" } else { "a code" };
        return Err(MpiError::new(MPI_ERR_ARG, format!("{code} is not {what}")));
    }
    if want_class && r.codes.iter().any(|(&k, a)| a.class == code && k != code) {
        return Err(MpiError::new(
            MPI_ERR_ARG,
            format!("error class {code} still has error codes"),
        ));
    }
    if r.codes.get(&code).is_some_and(|a| a.string.is_some()) {
        // MPI 4.1 §9.5: a code or class with a string attached cannot be removed.
        return Err(MpiError::new(
            MPI_ERR_ARG,
            format!("error {code} still has a string (MPI_Remove_error_string first)"),
        ));
    }
    r.codes.remove(&code);
    let last = r
        .codes
        .keys()
        .next_back()
        .copied()
        .unwrap_or(MPI_ERR_LASTCODE);
    LAST_USED.store(last, Ordering::Relaxed);
    Ok(())
}

fn write(out: *mut c_int, v: c_int) -> Result<()> {
    crate::errors::report::non_null(out, "out")?;
    // SAFETY: checked for NULL.
    unsafe { out.write(v) };
    Ok(())
}

mpi_fn! {
    /// A new error class (above `MPI_ERR_LASTCODE`); `MPI_LASTUSEDCODE` follows it.
    fn MPI_Add_error_class(errorclass: *mut c_int) -> c_int => PMPI_Add_error_class {
        call("MPI_Add_error_class", MPI_COMM_WORLD, || {
            crate::errors::report::non_null(errorclass, "errorclass")?;
            write(errorclass, add(None)?)
        })
    }

    /// A new error code of `errorclass` (predefined or added).
    fn MPI_Add_error_code(errorclass: c_int, errorcode: *mut c_int) -> c_int
        => PMPI_Add_error_code
    {
        call("MPI_Add_error_code", MPI_COMM_WORLD, || {
            crate::errors::report::non_null(errorcode, "errorcode")?;
            write(errorcode, add(Some(errorclass))?)
        })
    }

    /// Sets the string of an added code or class (replacing an earlier one); at most
    /// `MPI_MAX_ERROR_STRING - 1` bytes.
    fn MPI_Add_error_string(errorcode: c_int, string: *const c_char) -> c_int
        => PMPI_Add_error_string
    {
        call("MPI_Add_error_string", MPI_COMM_WORLD, || {
            crate::errors::report::non_null(string, "string")?;
            // SAFETY: non-NULL, NUL-terminated per the MPI contract.
            let s = unsafe { CStr::from_ptr(string) }.to_string_lossy().into_owned();
            if s.len() >= MPI_MAX_ERROR_STRING {
                return Err(MpiError::new(
                    MPI_ERR_ARG,
                    format!("string of {} bytes (at most {})", s.len(), MPI_MAX_ERROR_STRING - 1),
                ));
            }
            added_or_arg(&mut REGISTRY.lock(), errorcode)?.string = Some(s);
            Ok(())
        })
    }

    /// Removes an added class that has no codes left.
    fn MPI_Remove_error_class(errorclass: c_int) -> c_int => PMPI_Remove_error_class {
        call("MPI_Remove_error_class", MPI_COMM_WORLD, || remove(errorclass, true))
    }

    /// Removes an added code.
    fn MPI_Remove_error_code(errorcode: c_int) -> c_int => PMPI_Remove_error_code {
        call("MPI_Remove_error_code", MPI_COMM_WORLD, || remove(errorcode, false))
    }

    /// Removes the string of an added code or class (it describes itself as "" again).
    fn MPI_Remove_error_string(errorcode: c_int) -> c_int => PMPI_Remove_error_string {
        call("MPI_Remove_error_string", MPI_COMM_WORLD, || {
            added_or_arg(&mut REGISTRY.lock(), errorcode)?.string = None;
            Ok(())
        })
    }
}
