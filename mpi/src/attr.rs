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
//! | `MPI_LASTUSEDCODE`    | `MPI_ERR_LASTCODE` (no error classes or codes added yet)   |
//!
//! User keyvals (`MPI_Comm_create_keyval`, and the deprecated `MPI_Keyval_create` /
//! `MPI_Attr_*`) cache a `void *` per communicator. `MPI_Comm_dup` calls each attribute's copy
//! callback (`MPI_COMM_NULL_COPY_FN`: not copied, `MPI_COMM_DUP_FN`: copied as is) and
//! `MPI_Comm_free`, `MPI_Comm_delete_attr` and replacing a value call its delete callback
//! (`MPI_COMM_NULL_DELETE_FN`: nothing). Callbacks run with no lock held, so they may call MPI;
//! an error code they return fails the calling function with that code. A freed keyval stays
//! known to the attributes still attached (their delete callbacks still run). Predefined
//! keyvals are read-only (`MPI_ERR_KEYVAL` on set/delete/free). `MPI_Finalize` first deletes
//! the attributes of `MPI_COMM_SELF` (in the reverse order of setting), as the standard
//! requires, so libraries can hook their cleanup there.

use crate::consts::*;
use crate::error::{MpiError, Result, call, non_null};
use crate::state::comm;
use parking_lot::Mutex;
use std::collections::BTreeMap;
use std::ffi::{c_int, c_void};
use std::sync::OnceLock;

/// `MPI_KEYVAL_INVALID`.
pub const MPI_KEYVAL_INVALID: c_int = 0;
/// `MPI_COMM_NULL_COPY_FN` / `MPI_NULL_COPY_FN` (and `MPI_COMM_NULL_DELETE_FN`).
const NULL_FN: usize = 0;
/// `MPI_COMM_DUP_FN` / `MPI_DUP_FN`.
const DUP_FN: usize = 1;
/// First user keyval (above the predefined ones).
const FIRST_KEYVAL: c_int = 0x1000;

/// `MPI_Comm_copy_attr_function` (= `MPI_Copy_function`).
type CopyFn = unsafe extern "C" fn(
    MPI_Comm,
    c_int,
    *mut c_void,
    *mut c_void,
    *mut c_void,
    *mut c_int,
) -> c_int;
/// `MPI_Comm_delete_attr_function` (= `MPI_Delete_function`).
type DeleteFn = unsafe extern "C" fn(MPI_Comm, c_int, *mut c_void, *mut c_void) -> c_int;

/// A user keyval: its callbacks (addresses; 0 and 1 are the predefined ones) and extra state.
#[derive(Clone, Copy)]
struct Keyval {
    copy: usize,
    delete: usize,
    extra: usize,
    freed: bool,
}

/// User keyvals and the attribute values, by (communicator, keyval), each with the sequence
/// number of the call that set it.
struct Attrs {
    keyvals: BTreeMap<c_int, Keyval>,
    next: c_int,
    values: BTreeMap<(MPI_Comm, c_int), (usize, u64)>,
    seq: u64,
}

impl Attrs {
    fn set(&mut self, comm_h: MPI_Comm, keyval: c_int, value: usize) {
        self.seq += 1;
        self.values.insert((comm_h, keyval), (value, self.seq));
    }

    fn get(&self, comm_h: MPI_Comm, keyval: c_int) -> Option<usize> {
        self.values.get(&(comm_h, keyval)).map(|&(v, _)| v)
    }
}

static ATTRS: Mutex<Attrs> = Mutex::new(Attrs {
    keyvals: BTreeMap::new(),
    next: FIRST_KEYVAL,
    values: BTreeMap::new(),
    seq: 0,
});

fn is_predefined(keyval: c_int) -> bool {
    (MPI_TAG_UB..=MPI_LASTUSEDCODE).contains(&keyval)
}

/// The live user keyval `k`, or `MPI_ERR_KEYVAL`.
fn user_keyval(k: c_int) -> Result<Keyval> {
    match ATTRS.lock().keyvals.get(&k) {
        Some(kv) if !kv.freed => Ok(*kv),
        _ if is_predefined(k) => Err(MpiError::new(
            MPI_ERR_KEYVAL,
            format!("keyval {k} is predefined (read-only)"),
        )),
        _ => Err(MpiError::new(
            MPI_ERR_KEYVAL,
            format!("invalid or freed keyval {k}"),
        )),
    }
}

fn callback_result(what: &str, keyval: c_int, rc: c_int) -> Result<()> {
    if rc == MPI_SUCCESS {
        Ok(())
    } else {
        Err(MpiError::new(
            rc,
            format!("the {what} callback of keyval {keyval} returned {rc}"),
        ))
    }
}

/// Runs the delete callback of `keyval` (known, freed or not) on `value`.
fn run_delete(comm_h: MPI_Comm, keyval: c_int, value: usize) -> Result<()> {
    let Some(kv) = ATTRS.lock().keyvals.get(&keyval).copied() else {
        return Ok(());
    };
    if kv.delete == NULL_FN {
        return Ok(());
    }
    // SAFETY: a function pointer given to MPI_Comm_create_keyval (not 0 or 1: checked).
    let f: DeleteFn = unsafe { std::mem::transmute::<usize, DeleteFn>(kv.delete) };
    // SAFETY: the C callback's contract.
    let rc = unsafe {
        f(
            comm_h,
            keyval,
            value as *mut c_void,
            kv.extra as *mut c_void,
        )
    };
    callback_result("delete", keyval, rc)
}

/// The attributes of `comm_h` (keyval, value), in the order they were set.
fn attrs_of(comm_h: MPI_Comm) -> Vec<(c_int, usize)> {
    let mut v: Vec<(u64, c_int, usize)> = ATTRS
        .lock()
        .values
        .range((comm_h, c_int::MIN)..=(comm_h, c_int::MAX))
        .map(|(&(_, k), &(v, seq))| (seq, k, v))
        .collect();
    v.sort_unstable();
    v.into_iter().map(|(_, k, v)| (k, v)).collect()
}

/// Copies the attributes of `old` onto `new` through their copy callbacks (for
/// `MPI_Comm_dup`). On error the attributes copied so far stay on `new` (see
/// [`delete_all`]).
pub fn copy_all(old: MPI_Comm, new: MPI_Comm) -> Result<()> {
    for (keyval, value) in attrs_of(old) {
        let Some(kv) = ATTRS.lock().keyvals.get(&keyval).copied() else {
            continue;
        };
        let copied = match kv.copy {
            NULL_FN => None,
            DUP_FN => Some(value),
            f => {
                // SAFETY: a function pointer given to MPI_Comm_create_keyval.
                let f: CopyFn = unsafe { std::mem::transmute::<usize, CopyFn>(f) };
                let (mut out, mut flag): (*mut c_void, c_int) = (std::ptr::null_mut(), 0);
                // SAFETY: the C callback's contract; `out` and `flag` are valid locals.
                let rc = unsafe {
                    f(
                        old,
                        keyval,
                        kv.extra as *mut c_void,
                        value as *mut c_void,
                        (&raw mut out).cast(),
                        &raw mut flag,
                    )
                };
                callback_result("copy", keyval, rc)?;
                (flag != 0).then_some(out as usize)
            }
        };
        if let Some(v) = copied {
            ATTRS.lock().set(new, keyval, v);
        }
    }
    Ok(())
}

/// Deletes every attribute of `comm_h` through its delete callback, in the reverse order of
/// setting (for `MPI_Comm_free`, and for `MPI_COMM_SELF` at `MPI_Finalize`). Stops at the first
/// callback error; the attributes not deleted yet stay.
pub fn delete_all(comm_h: MPI_Comm) -> Result<()> {
    for (keyval, value) in attrs_of(comm_h).into_iter().rev() {
        run_delete(comm_h, keyval, value)?;
        ATTRS.lock().values.remove(&(comm_h, keyval));
    }
    Ok(())
}

fn create_keyval(copy: usize, delete: usize, keyval: *mut c_int, extra: *mut c_void) -> Result<()> {
    non_null(keyval, "keyval")?;
    crate::state::with_running(|_| Ok(()))?;
    let k = {
        let mut a = ATTRS.lock();
        let k = a.next;
        a.next = a
            .next
            .checked_add(1)
            .ok_or_else(|| MpiError::new(MPI_ERR_NO_MEM, "out of keyvals"))?;
        a.keyvals.insert(
            k,
            Keyval {
                copy,
                delete,
                extra: extra as usize,
                freed: false,
            },
        );
        k
    };
    // SAFETY: checked for NULL.
    unsafe { keyval.write(k) };
    Ok(())
}

fn free_keyval(keyval: *mut c_int) -> Result<()> {
    non_null(keyval, "keyval")?;
    // SAFETY: checked for NULL.
    let k = unsafe { keyval.read() };
    user_keyval(k)?;
    if let Some(kv) = ATTRS.lock().keyvals.get_mut(&k) {
        kv.freed = true;
    }
    // SAFETY: checked for NULL.
    unsafe { keyval.write(MPI_KEYVAL_INVALID) };
    Ok(())
}

fn set_attr(comm_h: MPI_Comm, keyval: c_int, value: *mut c_void) -> Result<()> {
    comm(comm_h)?;
    user_keyval(keyval)?;
    let old = ATTRS.lock().get(comm_h, keyval);
    if let Some(old) = old {
        run_delete(comm_h, keyval, old)?;
    }
    ATTRS.lock().set(comm_h, keyval, value as usize);
    Ok(())
}

fn delete_attr(comm_h: MPI_Comm, keyval: c_int) -> Result<()> {
    comm(comm_h)?;
    user_keyval(keyval)?;
    let old = ATTRS.lock().get(comm_h, keyval);
    if let Some(old) = old {
        run_delete(comm_h, keyval, old)?;
        ATTRS.lock().values.remove(&(comm_h, keyval));
    }
    Ok(())
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
        user_keyval(keyval)?;
        ATTRS.lock().get(comm_h, keyval)
    };
    // SAFETY: both checked for NULL; `attribute_val` holds a pointer (the standard's `void *`
    // that is really a `void **` for get_attr).
    unsafe {
        if let Some(v) = v {
            attribute_val.cast::<usize>().write(v);
        }
        flag.write(c_int::from(v.is_some()));
    }
    Ok(())
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
/// The value of `MPI_LASTUSEDCODE`: the largest error code in use (`MPI_ERR_LASTCODE` while no
/// error class or code has been added).
static LAST_USED_CODE: c_int = MPI_ERR_LASTCODE;

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
        MPI_LASTUSEDCODE => Some(&LAST_USED_CODE),
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
