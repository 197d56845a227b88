//! What a window carries besides its memory: `MPI_Win_get_group`, its name
//! (`MPI_Win_set_name` / `_get_name`), info hints (`MPI_Win_set_info` / `_get_info`: the
//! hints given are kept and returned; none changes what the window does), attributes (the
//! predefined `MPI_WIN_BASE`, `MPI_WIN_SIZE`, `MPI_WIN_DISP_UNIT`, `MPI_WIN_CREATE_FLAVOR`,
//! `MPI_WIN_MODEL` and user keyvals, through the store communicators and datatypes use) and
//! error handlers (`MPI_Win_create_errhandler`, `_set_`, `_get_`, `_call_errhandler`).

use super::{MPI_Win, call, win, with_entry};
use crate::comm::attr::MPI_ERR_KEYVAL;
use crate::comm::attr_store::{self as store, AttrStore, Keyval, Shared};
use crate::comm::communicator::MPI_Info;
use crate::comm::communicator::MPI_MAX_OBJECT_NAME;
use crate::comm::group::MPI_Group;
use crate::consts::*;
use crate::errors::codes::string_of_added;
use crate::errors::handlers::{
    CommErrhandlerFn, errhandler_live, new_user_errhandler, retain_errhandler,
};
use crate::errors::report::{MpiError, Result, describe, non_null, raise_with, write_string};
use std::ffi::{c_char, c_int, c_void};

/// Predefined window keyvals.
const MPI_WIN_BASE: c_int = 601;
const MPI_WIN_DISP_UNIT: c_int = 602;
const MPI_WIN_SIZE: c_int = 603;
const MPI_WIN_CREATE_FLAVOR: c_int = 604;
const MPI_WIN_MODEL: c_int = 605;

/// First user window keyval (disjoint from the communicator and datatype ranges).
const FIRST_KEYVAL: c_int = 0x3000_0000;

/// User keyvals and attribute values of windows.
static ATTRS: Shared<MPI_Win> = Shared::new(AttrStore::new(FIRST_KEYVAL, "window keyval"));

fn is_predefined(k: c_int) -> bool {
    (MPI_WIN_BASE..=MPI_WIN_MODEL).contains(&k)
}

fn user_keyval(k: c_int) -> Result<Keyval> {
    match ATTRS.lock().live(k) {
        Some(kv) => Ok(kv),
        None if is_predefined(k) => Err(MpiError::new(
            MPI_ERR_KEYVAL,
            format!("window keyval {k} is predefined (read-only)"),
        )),
        None => Err(MpiError::new(
            MPI_ERR_KEYVAL,
            format!("invalid or freed window keyval {k}"),
        )),
    }
}

fn known_keyval(k: c_int) -> Result<Keyval> {
    let kv = ATTRS.lock().known(k);
    kv.map_or_else(|| user_keyval(k), Ok)
}

/// Deletes every user attribute of `h` through its delete callback (for `MPI_Win_free`).
pub fn delete_all(h: MPI_Win) -> Result<()> {
    store::delete_all(&ATTRS, h)
}

fn get_attr(h: MPI_Win, keyval: c_int, val: *mut c_void, flag: *mut c_int) -> Result<()> {
    non_null(val, "attribute_val")?;
    non_null(flag, "flag")?;
    win(h)?;
    let v = if is_predefined(keyval) {
        with_entry(h, |e| {
            let f = &*e.fixed;
            Ok(Some(match keyval {
                MPI_WIN_BASE => f.base,
                MPI_WIN_SIZE => &raw const f.size as usize,
                MPI_WIN_DISP_UNIT => &raw const f.disp_unit as usize,
                MPI_WIN_CREATE_FLAVOR => &raw const f.flavor as usize,
                _ => &raw const f.model as usize,
            }))
        })?
    } else {
        known_keyval(keyval)?;
        ATTRS.lock().get(h, keyval)
    };
    store::write_answer(val, flag, v)
}

mpi_fn! {
    /// A new group with the members of `win`'s communicator.
    fn MPI_Win_get_group(win: MPI_Win, group: *mut MPI_Group) -> c_int => PMPI_Win_get_group {
        call("MPI_Win_get_group", win, || {
            non_null(group, "group")?;
            let w = super::win(win)?;
            let g = crate::comm::group::new_group(crate::comm::group::comm_members(w.comm())?)?;
            // SAFETY: checked for NULL.
            unsafe { group.write(g) };
            Ok(())
        })
    }

    /// Names `win` (local); longer names are truncated to `MPI_MAX_OBJECT_NAME - 1` bytes.
    fn MPI_Win_set_name(win: MPI_Win, win_name: *const c_char) -> c_int => PMPI_Win_set_name {
        call("MPI_Win_set_name", win, || {
            non_null(win_name, "win_name")?;
            // SAFETY: non-NULL, NUL-terminated per the MPI contract.
            let bytes = unsafe { std::ffi::CStr::from_ptr(win_name) }.to_bytes();
            let bytes = bytes[..bytes.len().min(MPI_MAX_OBJECT_NAME - 1)].to_vec();
            with_entry(win, |e| {
                e.name = bytes;
                Ok(())
            })
        })
    }

    /// `win`'s name ("" until one is set).
    fn MPI_Win_get_name(win: MPI_Win, win_name: *mut c_char, resultlen: *mut c_int) -> c_int
        => PMPI_Win_get_name
    {
        call("MPI_Win_get_name", win, || {
            // MPI_WIN_NULL has the name "MPI_WIN_NULL" (as in MPICH, whose tests check it).
            let name = if win == MPI_WIN_NULL {
                "MPI_WIN_NULL".to_string()
            } else {
                with_entry(win, |e| Ok(String::from_utf8_lossy(&e.name).into_owned()))?
            };
            // SAFETY: checked inside; the buffer holds MPI_MAX_OBJECT_NAME bytes per MPI.
            unsafe { write_string(&name, win_name, MPI_MAX_OBJECT_NAME, resultlen) }
        })
    }

    /// Adds `info`'s hints to `win`'s (a key given again takes the new value).
    fn MPI_Win_set_info(win: MPI_Win, info: MPI_Info) -> c_int => PMPI_Win_set_info {
        call("MPI_Win_set_info", win, || {
            let new = crate::comm::info::pairs_or_empty(info)?;
            with_entry(win, |e| {
                for (k, v) in &new {
                    crate::comm::info::set(&mut e.info, k, v);
                }
                Ok(())
            })
        })
    }

    /// A new info with `win`'s hints.
    fn MPI_Win_get_info(win: MPI_Win, info_used: *mut MPI_Info) -> c_int
        => PMPI_Win_get_info
    {
        call("MPI_Win_get_info", win, || {
            let p = with_entry(win, |e| Ok(e.info.clone()))?;
            crate::comm::info::store_new(p, info_used)
        })
    }

    /// The value of `win_keyval` on `win`: `*(void **)attribute_val` (for `MPI_WIN_BASE` the
    /// base address, for the other predefined keyvals a pointer to the value) and `*flag`.
    fn MPI_Win_get_attr(win: MPI_Win, win_keyval: c_int, attribute_val: *mut c_void,
        flag: *mut c_int) -> c_int => PMPI_Win_get_attr
    {
        call("MPI_Win_get_attr", win, || get_attr(win, win_keyval, attribute_val, flag))
    }

    /// Sets user attribute `win_keyval` on `win`.
    fn MPI_Win_set_attr(win: MPI_Win, win_keyval: c_int, attribute_val: *mut c_void) -> c_int
        => PMPI_Win_set_attr
    {
        call("MPI_Win_set_attr", win, || {
            super::win(win)?;
            user_keyval(win_keyval)?;
            store::set(&ATTRS, win, win_keyval, attribute_val)
        })
    }

    /// Deletes user attribute `win_keyval` from `win` through its delete callback.
    fn MPI_Win_delete_attr(win: MPI_Win, win_keyval: c_int) -> c_int => PMPI_Win_delete_attr {
        call("MPI_Win_delete_attr", win, || {
            super::win(win)?;
            known_keyval(win_keyval)?;
            store::delete(&ATTRS, win, win_keyval)
        })
    }

    /// A new window keyval (`MPI_WIN_NULL_COPY_FN` / `MPI_WIN_DUP_FN`, `MPI_WIN_NULL_DELETE_FN`
    /// are the predefined callbacks; windows are never duplicated, so copy callbacks never
    /// run).
    fn MPI_Win_create_keyval(win_copy_attr_fn: usize, win_delete_attr_fn: usize,
        win_keyval: *mut c_int, extra_state: *mut c_void) -> c_int => PMPI_Win_create_keyval
    {
        crate::errors::report::call("MPI_Win_create_keyval", MPI_COMM_WORLD, || {
            non_null(win_keyval, "win_keyval")?;
            crate::state::with_running(|_| Ok(()))?;
            store::create_keyval(&ATTRS, win_copy_attr_fn, win_delete_attr_fn, win_keyval,
                extra_state)
        })
    }

    /// Frees a window keyval; attributes still using it keep it until deleted.
    fn MPI_Win_free_keyval(win_keyval: *mut c_int) -> c_int => PMPI_Win_free_keyval {
        crate::errors::report::call("MPI_Win_free_keyval", MPI_COMM_WORLD, || {
            non_null(win_keyval, "win_keyval")?;
            // SAFETY: checked for NULL.
            let k = unsafe { win_keyval.read() };
            // Freed again while attributes still use it: accepted (as for communicators).
            known_keyval(k)?;
            store::free_keyval(&ATTRS, win_keyval, k);
            Ok(())
        })
    }

    /// A new error handler calling `win_errhandler_fn(&win, &code)` for the errors raised on
    /// the windows it is set on.
    fn MPI_Win_create_errhandler(win_errhandler_fn: Option<CommErrhandlerFn>,
        errhandler: *mut MPI_Errhandler) -> c_int => PMPI_Win_create_errhandler
    {
        crate::errors::report::call("MPI_Win_create_errhandler", MPI_COMM_WORLD, || {
            non_null(errhandler, "errhandler")?;
            let f = win_errhandler_fn.ok_or_else(|| {
                MpiError::new(MPI_ERR_ARG, "argument `win_errhandler_fn` is NULL")
            })?;
            let h = new_user_errhandler(f)?;
            // SAFETY: checked for NULL.
            unsafe { errhandler.write(h) };
            Ok(())
        })
    }

    /// Sets `win`'s error handler.
    fn MPI_Win_set_errhandler(win: MPI_Win, errhandler: MPI_Errhandler) -> c_int
        => PMPI_Win_set_errhandler
    {
        call("MPI_Win_set_errhandler", win, || {
            let predefined =
                matches!(errhandler, MPI_ERRORS_ARE_FATAL | MPI_ERRORS_RETURN | MPI_ERRORS_ABORT);
            if !predefined && !errhandler_live(errhandler) {
                return Err(MpiError::new(MPI_ERR_ERRHANDLER,
                    format!("invalid error handler {errhandler:#x}")));
            }
            with_entry(win, |e| {
                e.errhandler = errhandler;
                Ok(())
            })
        })
    }

    /// `win`'s error handler (a user handler gains a reference, freed with
    /// `MPI_Errhandler_free`).
    fn MPI_Win_get_errhandler(win: MPI_Win, errhandler: *mut MPI_Errhandler) -> c_int
        => PMPI_Win_get_errhandler
    {
        call("MPI_Win_get_errhandler", win, || {
            non_null(errhandler, "errhandler")?;
            let h = with_entry(win, |e| Ok(e.errhandler))?;
            retain_errhandler(h);
            // SAFETY: checked for NULL.
            unsafe { errhandler.write(h) };
            Ok(())
        })
    }

    /// Invokes `win`'s error handler with `errorcode`; returns `MPI_SUCCESS` when the handler
    /// returns.
    fn MPI_Win_call_errhandler(win: MPI_Win, errorcode: c_int) -> c_int
        => PMPI_Win_call_errhandler
    {
        let checked = call("MPI_Win_call_errhandler", win, || super::win(win).map(drop));
        if checked != MPI_SUCCESS {
            return checked;
        }
        let text = match string_of_added(errorcode) {
            Some(s) if !s.is_empty() => s,
            Some(_) => format!("user error code {errorcode}"),
            None => describe(errorcode).to_string(),
        };
        raise_with("MPI_Win_call_errhandler", super::errhandler_of(win), win,
            MpiError::new(errorcode, text));
        MPI_SUCCESS
    }
}
