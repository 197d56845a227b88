//! Attributes cached on communicators (the predefined ones so far) and `MPI_Pcontrol`.
//!
//! The predefined attributes are answered on every valid communicator (the standard attaches
//! them to `MPI_COMM_WORLD`; answering elsewhere too is harmless). As the standard requires,
//! `attribute_val` receives a pointer to a static `int`:
//!
//! | keyval                | value                                                      |
//! |-----------------------|------------------------------------------------------------|
//! | `MPI_TAG_UB`          | `INT_MAX`                                                  |
//! | `MPI_HOST`            | `MPI_PROC_NULL` (no host process)                          |
//! | `MPI_IO`              | `MPI_ANY_SOURCE` (every process can do I/O)                |
//! | `MPI_WTIME_IS_GLOBAL` | 0 (clocks are not synchronized)                            |
//! | `MPI_UNIVERSE_SIZE`   | `NEXAR_UNIVERSE_SIZE` from the launcher, else world size   |
//! | `MPI_APPNUM`          | `NEXAR_APPNUM` from the launcher, else not set (flag false) |
//!
//! User keyvals (`MPI_Comm_create_keyval`, ...) are not implemented yet; other keyvals give
//! `MPI_ERR_KEYVAL`.

use crate::consts::*;
use crate::error::{MpiError, Result, call, non_null};
use crate::state::comm;
use std::ffi::{c_int, c_void};
use std::sync::OnceLock;

/// `MPI_ERR_KEYVAL`.
pub const MPI_ERR_KEYVAL: c_int = 36;
/// Predefined keyval `MPI_TAG_UB`.
pub const MPI_TAG_UB: c_int = 501;
/// Predefined keyval `MPI_IO`.
pub const MPI_IO: c_int = 502;
/// Predefined keyval `MPI_HOST` (deprecated in MPI 4.1).
pub const MPI_HOST: c_int = 503;
/// Predefined keyval `MPI_WTIME_IS_GLOBAL`.
pub const MPI_WTIME_IS_GLOBAL: c_int = 504;
/// Predefined keyval `MPI_UNIVERSE_SIZE`.
pub const MPI_UNIVERSE_SIZE: c_int = 505;
/// Predefined keyval `MPI_APPNUM`.
pub const MPI_APPNUM: c_int = 506;

static TAG_UB: c_int = c_int::MAX;
static HOST: c_int = MPI_PROC_NULL;
static IO: c_int = MPI_ANY_SOURCE;
static WTIME_IS_GLOBAL: c_int = 0;
static UNIVERSE_SIZE: OnceLock<c_int> = OnceLock::new();
static APPNUM: OnceLock<Option<c_int>> = OnceLock::new();

/// A non-negative integer from the environment variable `name`.
fn env_int(name: &str) -> Option<c_int> {
    std::env::var(name)
        .ok()?
        .trim()
        .parse::<c_int>()
        .ok()
        .filter(|&v| v >= 0)
}

/// The static value of a predefined attribute, `None` when it is not set, `MPI_ERR_KEYVAL`
/// when `keyval` is not predefined.
fn predefined(keyval: c_int, world_size: c_int) -> Result<Option<&'static c_int>> {
    Ok(match keyval {
        MPI_TAG_UB => Some(&TAG_UB),
        MPI_HOST => Some(&HOST),
        MPI_IO => Some(&IO),
        MPI_WTIME_IS_GLOBAL => Some(&WTIME_IS_GLOBAL),
        MPI_UNIVERSE_SIZE => {
            Some(UNIVERSE_SIZE.get_or_init(|| env_int("NEXAR_UNIVERSE_SIZE").unwrap_or(world_size)))
        }
        MPI_APPNUM => APPNUM.get_or_init(|| env_int("NEXAR_APPNUM")).as_ref(),
        k => {
            return Err(MpiError::new(
                MPI_ERR_KEYVAL,
                format!("invalid keyval {k} (user keyvals are not supported yet)"),
            ));
        }
    })
}

mpi_fn! {
    /// The value of attribute `comm_keyval` on `comm`: `*(int **)attribute_val` points to a
    /// static `int` and `*flag` is 1, or `*flag` is 0 when the attribute is not set.
    fn MPI_Comm_get_attr(comm_h: MPI_Comm, comm_keyval: c_int, attribute_val: *mut c_void,
        flag: *mut c_int) -> c_int => PMPI_Comm_get_attr
    {
        call("MPI_Comm_get_attr", comm_h, || {
            non_null(attribute_val, "attribute_val")?;
            non_null(flag, "flag")?;
            comm(comm_h)?;
            let world = comm(MPI_COMM_WORLD)?.size() as c_int;
            let v = predefined(comm_keyval, world)?;
            // SAFETY: both checked for NULL; `attribute_val` holds a pointer (the standard's
            // `void *` that is really a `void **` for get_attr).
            unsafe {
                if let Some(v) = v {
                    attribute_val.cast::<*const c_int>().write(v as *const c_int);
                }
                flag.write(c_int::from(v.is_some()));
            }
            Ok(())
        })
    }

    /// Profiling control: a no-op that returns `MPI_SUCCESS`. The C prototype is variadic
    /// (`int MPI_Pcontrol(const int level, ...)`); defining only the fixed `int` argument is
    /// ABI-compatible on the SysV x86-64 and AArch64 calling conventions (the caller's extra
    /// arguments are ignored; `%al` set by a variadic caller is not read).
    fn MPI_Pcontrol(level: c_int) -> c_int => PMPI_Pcontrol {
        let _ = level;
        MPI_SUCCESS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predefined_values() {
        assert_eq!(predefined(MPI_TAG_UB, 4).unwrap(), Some(&c_int::MAX));
        assert_eq!(predefined(MPI_WTIME_IS_GLOBAL, 4).unwrap(), Some(&0));
        assert_eq!(predefined(MPI_HOST, 4).unwrap(), Some(&MPI_PROC_NULL));
        assert_eq!(predefined(7, 4).unwrap_err().class, MPI_ERR_KEYVAL);
    }

    #[test]
    fn constants_match_the_spec() {
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/spec/constants.txt"))
                .expect("spec/constants.txt");
        let value = |name: &str| -> i64 {
            text.lines()
                .find(|l| l.split_whitespace().next() == Some(name))
                .and_then(|l| l.split_whitespace().nth(1))
                .unwrap_or_else(|| panic!("{name} not in the spec"))
                .parse()
                .expect("int")
        };
        for (name, v) in [
            ("MPI_ERR_KEYVAL", MPI_ERR_KEYVAL),
            ("MPI_TAG_UB", MPI_TAG_UB),
            ("MPI_IO", MPI_IO),
            ("MPI_HOST", MPI_HOST),
            ("MPI_WTIME_IS_GLOBAL", MPI_WTIME_IS_GLOBAL),
            ("MPI_UNIVERSE_SIZE", MPI_UNIVERSE_SIZE),
            ("MPI_APPNUM", MPI_APPNUM),
            (
                "MPI_MAX_OBJECT_NAME",
                crate::comm::MPI_MAX_OBJECT_NAME as c_int,
            ),
            ("MPI_COMM_TYPE_SHARED", crate::comm::MPI_COMM_TYPE_SHARED),
        ] {
            assert_eq!(value(name), i64::from(v), "{name}");
        }
    }
}
