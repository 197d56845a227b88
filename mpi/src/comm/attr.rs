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
//! | `MPI_LASTUSEDCODE`    | the largest error code in use (see [`crate::errors::codes`])    |
//!
//! User keyvals (`MPI_Comm_create_keyval`, and the deprecated `MPI_Keyval_create` /
//! `MPI_Attr_*`) cache a `void *` per communicator. `MPI_Comm_dup` calls each attribute's copy
//! callback (`MPI_COMM_NULL_COPY_FN`: not copied, `MPI_COMM_DUP_FN`: copied as is) and
//! `MPI_Comm_free`, `MPI_Comm_delete_attr` and replacing a value call its delete callback
//! (`MPI_COMM_NULL_DELETE_FN`: nothing). Callbacks run with no lock held, so they may call MPI;
//! an error code they return fails the calling function with that code. A freed keyval stays
//! known while attributes use it (they can be read and deleted through it, their delete
//! callbacks still run) and is released with the last of them. Predefined
//! keyvals are read-only (`MPI_ERR_KEYVAL` on set/delete/free). `MPI_Finalize` first deletes
//! the attributes of `MPI_COMM_SELF` (in the reverse order of setting), as the standard
//! requires, so libraries can hook their cleanup there.

use crate::comm::attr_store::{self as store, AttrStore, Keyval, Shared};
use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
use crate::state::comm;
use std::ffi::{c_int, c_void};
use std::sync::OnceLock;

pub use crate::comm::attr_store::MPI_KEYVAL_INVALID;

/// First user keyval (above the predefined ones).
const FIRST_KEYVAL: c_int = 0x1000;

/// User keyvals and attribute values of communicators.
static ATTRS: Shared<MPI_Comm> = Shared::new(AttrStore::new(FIRST_KEYVAL, "keyval"));

fn is_predefined(keyval: c_int) -> bool {
    (MPI_TAG_UB..=MPI_APPNUM).contains(&keyval) || keyval == MPI_LASTUSEDCODE
}

/// The live user keyval `k`, or `MPI_ERR_KEYVAL`.
fn user_keyval(k: c_int) -> Result<Keyval> {
    match ATTRS.lock().live(k) {
        Some(kv) => Ok(kv),
        None if is_predefined(k) => Err(MpiError::new(
            MPI_ERR_KEYVAL,
            format!("keyval {k} is predefined (read-only)"),
        )),
        None => Err(MpiError::new(
            MPI_ERR_KEYVAL,
            format!("invalid or freed keyval {k}"),
        )),
    }
}

/// The user keyval `k` if it is live or freed but still in use (for reading and deleting
/// attributes), or `MPI_ERR_KEYVAL`.
fn known_keyval(k: c_int) -> Result<Keyval> {
    let kv = ATTRS.lock().known(k);
    kv.map_or_else(|| user_keyval(k), Ok)
}

/// Copies the attributes of `old` onto `new` through their copy callbacks (for
/// `MPI_Comm_dup`). On error the attributes copied so far stay on `new` (see
/// [`delete_all`]).
pub fn copy_all(old: MPI_Comm, new: MPI_Comm) -> Result<()> {
    store::copy_all(&ATTRS, old, new)
}

/// Deletes every attribute of `comm_h` through its delete callback, in the reverse order of
/// setting (for `MPI_Comm_free`, and for `MPI_COMM_SELF` at `MPI_Finalize`). Stops at the first
/// callback error; the attributes not deleted yet stay.
pub fn delete_all(comm_h: MPI_Comm) -> Result<()> {
    store::delete_all(&ATTRS, comm_h)
}

fn create_keyval(copy: usize, delete: usize, keyval: *mut c_int, extra: *mut c_void) -> Result<()> {
    non_null(keyval, "keyval")?;
    crate::state::with_running(|_| Ok(()))?;
    store::create_keyval(&ATTRS, copy, delete, keyval, extra)
}

fn free_keyval(keyval: *mut c_int) -> Result<()> {
    non_null(keyval, "keyval")?;
    // SAFETY: checked for NULL.
    let k = unsafe { keyval.read() };
    // A keyval freed already but still used by attributes may be freed again (a delete
    // callback freeing its own keyval, then the program): nothing more happens, as in MPICH.
    known_keyval(k)?;
    store::free_keyval(&ATTRS, keyval, k);
    Ok(())
}

fn set_attr(comm_h: MPI_Comm, keyval: c_int, value: *mut c_void) -> Result<()> {
    comm(comm_h)?;
    user_keyval(keyval)?;
    store::set(&ATTRS, comm_h, keyval, value)
}

fn delete_attr(comm_h: MPI_Comm, keyval: c_int) -> Result<()> {
    comm(comm_h)?;
    known_keyval(keyval)?;
    store::delete(&ATTRS, comm_h, keyval)
}

fn get_attr(
    comm_h: MPI_Comm,
    keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> Result<()> {
    non_null(attribute_val, "attribute_val")?;
    non_null(flag, "flag")?;
    comm(comm_h)?;
    let v: Option<usize> = if is_predefined(keyval) {
        let world = comm(MPI_COMM_WORLD)?.size() as c_int;
        predefined(keyval, world)?.map(|v| v as *const c_int as usize)
    } else {
        known_keyval(keyval)?;
        ATTRS.lock().get(comm_h, keyval)
    };
    store::write_answer(attribute_val, flag, v)
}

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
/// Predefined keyval `MPI_LASTUSEDCODE`.
pub const MPI_LASTUSEDCODE: c_int = 507;

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
        MPI_LASTUSEDCODE => Some(crate::errors::codes::last_used()),
        k => {
            return Err(MpiError::new(
                MPI_ERR_KEYVAL,
                format!("keyval {k} is not predefined"),
            ));
        }
    })
}

mpi_fn! {
    /// The value of attribute `comm_keyval` on `comm`: `*(void **)attribute_val` is the value
    /// (for a predefined keyval, a pointer to a static `int`) and `*flag` is 1, or `*flag` is 0
    /// when the attribute is not set.
    fn MPI_Comm_get_attr(comm_h: MPI_Comm, comm_keyval: c_int, attribute_val: *mut c_void,
        flag: *mut c_int) -> c_int => PMPI_Comm_get_attr
    {
        call("MPI_Comm_get_attr", comm_h, || get_attr(comm_h, comm_keyval, attribute_val, flag))
    }

    /// Deprecated form of [`MPI_Comm_get_attr`].
    fn MPI_Attr_get(comm_h: MPI_Comm, keyval: c_int, attribute_val: *mut c_void,
        flag: *mut c_int) -> c_int => PMPI_Attr_get
    {
        call("MPI_Attr_get", comm_h, || get_attr(comm_h, keyval, attribute_val, flag))
    }

    /// Sets attribute `comm_keyval` of `comm` to `attribute_val` (the delete callback runs on
    /// the value it replaces).
    fn MPI_Comm_set_attr(comm_h: MPI_Comm, comm_keyval: c_int, attribute_val: *mut c_void)
        -> c_int => PMPI_Comm_set_attr
    {
        call("MPI_Comm_set_attr", comm_h, || set_attr(comm_h, comm_keyval, attribute_val))
    }

    /// Deprecated form of [`MPI_Comm_set_attr`].
    fn MPI_Attr_put(comm_h: MPI_Comm, keyval: c_int, attribute_val: *mut c_void) -> c_int
        => PMPI_Attr_put
    {
        call("MPI_Attr_put", comm_h, || set_attr(comm_h, keyval, attribute_val))
    }

    /// Removes attribute `comm_keyval` from `comm` through its delete callback (nothing to do
    /// when it is not set).
    fn MPI_Comm_delete_attr(comm_h: MPI_Comm, comm_keyval: c_int) -> c_int
        => PMPI_Comm_delete_attr
    {
        call("MPI_Comm_delete_attr", comm_h, || delete_attr(comm_h, comm_keyval))
    }

    /// Deprecated form of [`MPI_Comm_delete_attr`].
    fn MPI_Attr_delete(comm_h: MPI_Comm, keyval: c_int) -> c_int => PMPI_Attr_delete {
        call("MPI_Attr_delete", comm_h, || delete_attr(comm_h, keyval))
    }

    /// A new keyval with copy and delete callbacks (`MPI_COMM_NULL_COPY_FN`,
    /// `MPI_COMM_DUP_FN`, `MPI_COMM_NULL_DELETE_FN` or functions) and `extra_state`.
    fn MPI_Comm_create_keyval(comm_copy_attr_fn: usize, comm_delete_attr_fn: usize,
        comm_keyval: *mut c_int, extra_state: *mut c_void) -> c_int => PMPI_Comm_create_keyval
    {
        call("MPI_Comm_create_keyval", MPI_COMM_WORLD, || {
            create_keyval(comm_copy_attr_fn, comm_delete_attr_fn, comm_keyval, extra_state)
        })
    }

    /// Deprecated form of [`MPI_Comm_create_keyval`].
    fn MPI_Keyval_create(copy_fn: usize, delete_fn: usize, keyval: *mut c_int,
        extra_state: *mut c_void) -> c_int => PMPI_Keyval_create
    {
        call("MPI_Keyval_create", MPI_COMM_WORLD, || {
            create_keyval(copy_fn, delete_fn, keyval, extra_state)
        })
    }

    /// Frees a user keyval and sets `*comm_keyval` to `MPI_KEYVAL_INVALID`; attributes still
    /// attached keep it until they are deleted.
    fn MPI_Comm_free_keyval(comm_keyval: *mut c_int) -> c_int => PMPI_Comm_free_keyval {
        call("MPI_Comm_free_keyval", MPI_COMM_WORLD, || free_keyval(comm_keyval))
    }

    /// Deprecated form of [`MPI_Comm_free_keyval`].
    fn MPI_Keyval_free(keyval: *mut c_int) -> c_int => PMPI_Keyval_free {
        call("MPI_Keyval_free", MPI_COMM_WORLD, || free_keyval(keyval))
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
        let value = crate::consts::spec_value;
        for (name, v) in [
            ("MPI_ERR_KEYVAL", MPI_ERR_KEYVAL),
            ("MPI_TAG_UB", MPI_TAG_UB),
            ("MPI_IO", MPI_IO),
            ("MPI_HOST", MPI_HOST),
            ("MPI_WTIME_IS_GLOBAL", MPI_WTIME_IS_GLOBAL),
            ("MPI_UNIVERSE_SIZE", MPI_UNIVERSE_SIZE),
            ("MPI_APPNUM", MPI_APPNUM),
            ("MPI_LASTUSEDCODE", MPI_LASTUSEDCODE),
            (
                "MPI_MAX_OBJECT_NAME",
                crate::comm::communicator::MPI_MAX_OBJECT_NAME as c_int,
            ),
            (
                "MPI_COMM_TYPE_SHARED",
                crate::comm::communicator::MPI_COMM_TYPE_SHARED,
            ),
        ] {
            assert_eq!(value(name), i64::from(v), "{name}");
        }
    }
}
