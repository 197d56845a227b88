//! Attributes cached on datatypes: `MPI_Type_create_keyval`, `_free_keyval`, `_set_attr`,
//! `_get_attr`, `_delete_attr`. The same model as the communicator attributes of
//! [`crate::attr`], with its own keyval space: `MPI_Type_dup` calls each attribute's copy
//! callback (`MPI_TYPE_NULL_COPY_FN`: not copied, `MPI_TYPE_DUP_FN`: copied as is),
//! `MPI_Type_free`, `MPI_Type_delete_attr` and replacing a value call its delete callback
//! (`MPI_TYPE_NULL_DELETE_FN`: nothing). Callbacks run with no lock held, so they may call MPI;
//! an error code they return fails the calling function with that code. A freed keyval stays
//! known to the attributes still attached. Predefined datatypes may carry attributes too.

use super::registry;
use crate::attr::{MPI_ERR_KEYVAL, MPI_KEYVAL_INVALID};
use crate::consts::*;
use crate::error::{MpiError, Result, call, non_null};
use parking_lot::Mutex;
use std::collections::BTreeMap;
use std::ffi::{c_int, c_void};

/// `MPI_TYPE_NULL_COPY_FN` (and `MPI_TYPE_NULL_DELETE_FN`).
const NULL_FN: usize = 0;
/// `MPI_TYPE_DUP_FN`.
const DUP_FN: usize = 1;
/// First datatype keyval (apart from communicator keyvals, so a mix-up is caught).
const FIRST_KEYVAL: c_int = 0x2000_0000;

/// `MPI_Type_copy_attr_function`.
type CopyFn = unsafe extern "C" fn(
    MPI_Datatype,
    c_int,
    *mut c_void,
    *mut c_void,
    *mut c_void,
    *mut c_int,
) -> c_int;
/// `MPI_Type_delete_attr_function`.
type DeleteFn = unsafe extern "C" fn(MPI_Datatype, c_int, *mut c_void, *mut c_void) -> c_int;

/// A keyval: its callbacks (addresses; 0 and 1 are the predefined ones) and extra state.
#[derive(Clone, Copy)]
struct Keyval {
    copy: usize,
    delete: usize,
    extra: usize,
    freed: bool,
}

/// Keyvals and values by (datatype, keyval), each with the sequence number of its setting.
struct Attrs {
    keyvals: BTreeMap<c_int, Keyval>,
    next: c_int,
    values: BTreeMap<(MPI_Datatype, c_int), (usize, u64)>,
    seq: u64,
}

static ATTRS: Mutex<Attrs> = Mutex::new(Attrs {
    keyvals: BTreeMap::new(),
    next: FIRST_KEYVAL,
    values: BTreeMap::new(),
    seq: 0,
});

impl Attrs {
    fn set(&mut self, h: MPI_Datatype, keyval: c_int, value: usize) {
        self.seq += 1;
        self.values.insert((h, keyval), (value, self.seq));
    }
}

/// The live keyval `k`, or `MPI_ERR_KEYVAL`.
fn keyval(k: c_int) -> Result<Keyval> {
    match ATTRS.lock().keyvals.get(&k) {
        Some(kv) if !kv.freed => Ok(*kv),
        _ => Err(MpiError::new(
            MPI_ERR_KEYVAL,
            format!("invalid or freed datatype keyval {k}"),
        )),
    }
}

fn callback_result(what: &str, keyval: c_int, rc: c_int) -> Result<()> {
    if rc == MPI_SUCCESS {
        return Ok(());
    }
    Err(MpiError::new(
        rc,
        format!("the {what} callback of datatype keyval {keyval} returned {rc}"),
    ))
}

/// Runs the delete callback of keyval `k` (freed or not) on `value`.
fn run_delete(h: MPI_Datatype, k: c_int, value: usize) -> Result<()> {
    let Some(kv) = ATTRS.lock().keyvals.get(&k).copied() else {
        return Ok(());
    };
    if kv.delete == NULL_FN {
        return Ok(());
    }
    // SAFETY: a function pointer given to MPI_Type_create_keyval (not 0: checked).
    let f: DeleteFn = unsafe { std::mem::transmute::<usize, DeleteFn>(kv.delete) };
    // SAFETY: the C callback's contract.
    let rc = unsafe { f(h, k, value as *mut c_void, kv.extra as *mut c_void) };
    callback_result("delete", k, rc)
}

/// The attributes of `h` (keyval, value), in the order they were set.
fn attrs_of(h: MPI_Datatype) -> Vec<(c_int, usize)> {
    let mut v: Vec<(u64, c_int, usize)> = ATTRS
        .lock()
        .values
        .range((h, c_int::MIN)..=(h, c_int::MAX))
        .map(|(&(_, k), &(v, seq))| (seq, k, v))
        .collect();
    v.sort_unstable();
    v.into_iter().map(|(_, k, v)| (k, v)).collect()
}

/// Copies the attributes of `old` onto `new` through their copy callbacks (for
/// `MPI_Type_dup`). On error the ones copied so far stay on `new`.
pub fn copy_all(old: MPI_Datatype, new: MPI_Datatype) -> Result<()> {
    for (k, value) in attrs_of(old) {
        let Some(kv) = ATTRS.lock().keyvals.get(&k).copied() else {
            continue;
        };
        let copied = match kv.copy {
            NULL_FN => None,
            DUP_FN => Some(value),
            f => {
                // SAFETY: a function pointer given to MPI_Type_create_keyval.
                let f: CopyFn = unsafe { std::mem::transmute::<usize, CopyFn>(f) };
                let (mut out, mut flag): (*mut c_void, c_int) = (std::ptr::null_mut(), 0);
                // SAFETY: the C callback's contract; `out` and `flag` are valid locals.
                let rc = unsafe {
                    f(
                        old,
                        k,
                        kv.extra as *mut c_void,
                        value as *mut c_void,
                        (&raw mut out).cast(),
                        &raw mut flag,
                    )
                };
                callback_result("copy", k, rc)?;
                (flag != 0).then_some(out as usize)
            }
        };
        if let Some(v) = copied {
            ATTRS.lock().set(new, k, v);
        }
    }
    Ok(())
}

/// Deletes every attribute of `h` through its delete callback, newest first (for
/// `MPI_Type_free`). Stops at the first callback error; the rest stay.
pub fn delete_all(h: MPI_Datatype) -> Result<()> {
    for (k, value) in attrs_of(h).into_iter().rev() {
        run_delete(h, k, value)?;
        ATTRS.lock().values.remove(&(h, k));
    }
    Ok(())
}

fn create_keyval(copy: usize, delete: usize, out: *mut c_int, extra: *mut c_void) -> Result<()> {
    non_null(out, "type_keyval")?;
    let k = {
        let mut a = ATTRS.lock();
        let k = a.next;
        a.next = a
            .next
            .checked_add(1)
            .ok_or_else(|| MpiError::new(MPI_ERR_NO_MEM, "out of datatype keyvals"))?;
        let kv = Keyval {
            copy,
            delete,
            extra: extra as usize,
            freed: false,
        };
        a.keyvals.insert(k, kv);
        k
    };
    // SAFETY: checked for NULL.
    unsafe { out.write(k) };
    Ok(())
}

fn free_keyval(p: *mut c_int) -> Result<()> {
    non_null(p, "type_keyval")?;
    // SAFETY: checked for NULL.
    let k = unsafe { p.read() };
    keyval(k)?;
    if let Some(kv) = ATTRS.lock().keyvals.get_mut(&k) {
        kv.freed = true;
    }
    // SAFETY: checked for NULL.
    unsafe { p.write(MPI_KEYVAL_INVALID) };
    Ok(())
}

fn set_attr(h: MPI_Datatype, k: c_int, value: *mut c_void) -> Result<()> {
    registry::layout(h)?;
    keyval(k)?;
    let old = ATTRS.lock().values.get(&(h, k)).map(|v| v.0);
    if let Some(old) = old {
        run_delete(h, k, old)?;
    }
    ATTRS.lock().set(h, k, value as usize);
    Ok(())
}

fn delete_attr(h: MPI_Datatype, k: c_int) -> Result<()> {
    registry::layout(h)?;
    keyval(k)?;
    let old = ATTRS.lock().values.get(&(h, k)).map(|v| v.0);
    if let Some(old) = old {
        run_delete(h, k, old)?;
        ATTRS.lock().values.remove(&(h, k));
    }
    Ok(())
}

fn get_attr(h: MPI_Datatype, k: c_int, val: *mut c_void, flag: *mut c_int) -> Result<()> {
    non_null(val, "attribute_val")?;
    non_null(flag, "flag")?;
    registry::layout(h)?;
    keyval(k)?;
    let v = ATTRS.lock().values.get(&(h, k)).map(|v| v.0);
    // SAFETY: both checked for NULL; `attribute_val` is really a `void **` for get_attr.
    unsafe {
        if let Some(v) = v {
            val.cast::<usize>().write(v);
        }
        flag.write(c_int::from(v.is_some()));
    }
    Ok(())
}

mpi_fn! {
    /// A new datatype keyval with copy and delete callbacks (`MPI_TYPE_NULL_COPY_FN`,
    /// `MPI_TYPE_DUP_FN`, `MPI_TYPE_NULL_DELETE_FN` or functions) and `extra_state`.
    fn MPI_Type_create_keyval(type_copy_attr_fn: usize, type_delete_attr_fn: usize,
        type_keyval: *mut c_int, extra_state: *mut c_void) -> c_int => PMPI_Type_create_keyval
    {
        call("MPI_Type_create_keyval", MPI_COMM_WORLD, || {
            create_keyval(type_copy_attr_fn, type_delete_attr_fn, type_keyval, extra_state)
        })
    }

    /// Frees a datatype keyval and sets `*type_keyval` to `MPI_KEYVAL_INVALID`; attributes
    /// still attached keep it until they are deleted.
    fn MPI_Type_free_keyval(type_keyval: *mut c_int) -> c_int => PMPI_Type_free_keyval {
        call("MPI_Type_free_keyval", MPI_COMM_WORLD, || free_keyval(type_keyval))
    }

    /// Sets attribute `type_keyval` of `datatype` (the delete callback runs on the value it
    /// replaces).
    fn MPI_Type_set_attr(datatype: MPI_Datatype, type_keyval: c_int, attribute_val: *mut c_void)
        -> c_int => PMPI_Type_set_attr
    {
        call("MPI_Type_set_attr", MPI_COMM_WORLD, || set_attr(datatype, type_keyval, attribute_val))
    }

    /// The value of attribute `type_keyval` on `datatype` in `*(void **)attribute_val` with
    /// `*flag` 1, or `*flag` 0 when it is not set.
    fn MPI_Type_get_attr(datatype: MPI_Datatype, type_keyval: c_int, attribute_val: *mut c_void,
        flag: *mut c_int) -> c_int => PMPI_Type_get_attr
    {
        call("MPI_Type_get_attr", MPI_COMM_WORLD, || {
            get_attr(datatype, type_keyval, attribute_val, flag)
        })
    }

    /// Removes attribute `type_keyval` from `datatype` through its delete callback (nothing to
    /// do when it is not set, as for communicators).
    fn MPI_Type_delete_attr(datatype: MPI_Datatype, type_keyval: c_int) -> c_int
        => PMPI_Type_delete_attr
    {
        call("MPI_Type_delete_attr", MPI_COMM_WORLD, || delete_attr(datatype, type_keyval))
    }
}
