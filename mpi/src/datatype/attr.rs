//! Attributes cached on datatypes: `MPI_Type_create_keyval`, `_free_keyval`, `_set_attr`,
//! `_get_attr`, `_delete_attr`. The same model as the communicator attributes of
//! [`crate::comm::attr`], with its own keyval space: `MPI_Type_dup` calls each attribute's copy
//! callback (`MPI_TYPE_NULL_COPY_FN`: not copied, `MPI_TYPE_DUP_FN`: copied as is),
//! `MPI_Type_free`, `MPI_Type_delete_attr` and replacing a value call its delete callback
//! (`MPI_TYPE_NULL_DELETE_FN`: nothing). Callbacks run with no lock held, so they may call MPI;
//! an error code they return fails the calling function with that code. A freed keyval stays
//! known while attributes use it (read, deleted, delete callback run) and is released with the
//! last of them. Predefined datatypes may carry attributes too.

use super::registry;
use crate::comm::attr::MPI_ERR_KEYVAL;
use crate::comm::attr_store::{self as store, AttrStore, Keyval, Shared};
use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
use std::ffi::{c_int, c_void};

/// First datatype keyval (apart from communicator keyvals, so a mix-up is caught).
const FIRST_KEYVAL: c_int = 0x2000_0000;

/// Keyvals and attribute values of datatypes.
static ATTRS: Shared<MPI_Datatype> = Shared::new(AttrStore::new(FIRST_KEYVAL, "datatype keyval"));

/// The live keyval `k`, or `MPI_ERR_KEYVAL`.
fn keyval(k: c_int) -> Result<Keyval> {
    ATTRS.lock().live(k).ok_or_else(|| {
        MpiError::new(
            MPI_ERR_KEYVAL,
            format!("invalid or freed datatype keyval {k}"),
        )
    })
}

/// Keyval `k` if it is live or freed but still in use (for reading and deleting attributes),
/// or `MPI_ERR_KEYVAL`.
fn known_keyval(k: c_int) -> Result<Keyval> {
    let kv = ATTRS.lock().known(k);
    kv.map_or_else(|| keyval(k), Ok)
}

/// Copies the attributes of `old` onto `new` through their copy callbacks (for
/// `MPI_Type_dup`). On error the ones copied so far stay on `new`.
pub fn copy_all(old: MPI_Datatype, new: MPI_Datatype) -> Result<()> {
    store::copy_all(&ATTRS, old, new)
}

/// Deletes every attribute of `h` through its delete callback, newest first (for
/// `MPI_Type_free`). Stops at the first callback error; the rest stay.
pub fn delete_all(h: MPI_Datatype) -> Result<()> {
    store::delete_all(&ATTRS, h)
}

fn create_keyval(copy: usize, delete: usize, out: *mut c_int, extra: *mut c_void) -> Result<()> {
    non_null(out, "type_keyval")?;
    store::create_keyval(&ATTRS, copy, delete, out, extra)
}

fn free_keyval(p: *mut c_int) -> Result<()> {
    non_null(p, "type_keyval")?;
    // SAFETY: checked for NULL.
    let k = unsafe { p.read() };
    // Freed again while attributes still use it: accepted (see the communicators' keyvals).
    known_keyval(k)?;
    store::free_keyval(&ATTRS, p, k);
    Ok(())
}

fn set_attr(h: MPI_Datatype, k: c_int, value: *mut c_void) -> Result<()> {
    registry::layout(h)?;
    keyval(k)?;
    store::set(&ATTRS, h, k, value)
}

fn delete_attr(h: MPI_Datatype, k: c_int) -> Result<()> {
    registry::layout(h)?;
    known_keyval(k)?;
    store::delete(&ATTRS, h, k)
}

fn get_attr(h: MPI_Datatype, k: c_int, val: *mut c_void, flag: *mut c_int) -> Result<()> {
    non_null(val, "attribute_val")?;
    non_null(flag, "flag")?;
    registry::layout(h)?;
    known_keyval(k)?;
    let v = ATTRS.lock().get(h, k);
    store::write_answer(val, flag, v)
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
