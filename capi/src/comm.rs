//! Communicator functions.

use crate::boundary::{call, non_null, write_out};
use crate::lifecycle::{SELF_HANDLE, WORLD_HANDLE, comm, insert_comm, with_running};
use crate::types::{NEXAR_UNDEFINED, nexar_comm_t};
use nexar::{Error, ErrorKind};
use std::ffi::c_int;

/// `split_type` for `nexar_comm_split_type`: ranks on the same host.
pub const NEXAR_COMM_TYPE_SHARED: c_int = 1;

/// The world communicator's handle (the value of `NEXAR_COMM_WORLD`, for languages without C
/// macros). Blocking: no. Thread safety: any thread. Errors: none.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_comm_world() -> nexar_comm_t {
    WORLD_HANDLE as nexar_comm_t
}

/// The self communicator's handle (the value of `NEXAR_COMM_SELF`). Blocking: no. Thread
/// safety: any thread. Errors: none.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_comm_self() -> nexar_comm_t {
    SELF_HANDLE as nexar_comm_t
}

/// Writes this process's rank in `comm` to `*rank`.
///
/// Blocking: no. Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG` (NULL `rank`), `NEXAR_ERR_COMM` (invalid or freed handle),
/// `NEXAR_ERR_NOT_INITIALIZED`, `NEXAR_ERR_FINALIZED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_comm_rank(comm_h: nexar_comm_t, rank: *mut c_int) -> c_int {
    call("nexar_comm_rank", || {
        non_null(rank, "rank")?;
        let c = comm(comm_h)?;
        // SAFETY: checked for NULL; the caller provides a writable int.
        unsafe { write_out(rank, c.rank() as c_int) };
        Ok(())
    })
}

/// Writes the number of ranks in `comm` to `*size`.
///
/// Blocking: no. Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG` (NULL `size`), `NEXAR_ERR_COMM`, `NEXAR_ERR_NOT_INITIALIZED`,
/// `NEXAR_ERR_FINALIZED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_comm_size(comm_h: nexar_comm_t, size: *mut c_int) -> c_int {
    call("nexar_comm_size", || {
        non_null(size, "size")?;
        let c = comm(comm_h)?;
        // SAFETY: checked for NULL; the caller provides a writable int.
        unsafe { write_out(size, c.size() as c_int) };
        Ok(())
    })
}

fn store_new(newcomm: *mut nexar_comm_t, c: Option<nexar::Comm>) -> nexar::Result<()> {
    let h = match c {
        Some(c) => insert_comm(c)?,
        None => std::ptr::null_mut(),
    };
    // SAFETY: the caller checked `newcomm` for NULL; it is writable per the C contract.
    unsafe { write_out(newcomm, h) };
    Ok(())
}

/// Splits `comm` into disjoint communicators, one per non-negative `color`, ranks ordered by
/// `key` then by rank in `comm`. `color == NEXAR_UNDEFINED` gives `*newcomm = NULL`.
/// Ownership: the new handle belongs to the caller; release it with `nexar_comm_free`.
///
/// Blocking: yes; collective over `comm` (every member calls it, in the same order as other
/// collectives). Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG` (NULL `newcomm`, negative color other than `NEXAR_UNDEFINED`),
/// `NEXAR_ERR_COMM`, `NEXAR_ERR_PROC_FAILED`, `NEXAR_ERR_NOT_INITIALIZED`, `NEXAR_ERR_FINALIZED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_comm_split(
    comm_h: nexar_comm_t,
    color: c_int,
    key: c_int,
    newcomm: *mut nexar_comm_t,
) -> c_int {
    call("nexar_comm_split", || {
        non_null(newcomm, "newcomm")?;
        let c = comm(comm_h)?;
        let color = match color {
            NEXAR_UNDEFINED => None,
            c if c >= 0 => Some(c as u32),
            c => return Err(Error::invalid(format!("color {c} is negative"))),
        };
        store_new(newcomm, c.split_blocking(color, key)?)
    })
}

/// Splits `comm` by type: `NEXAR_COMM_TYPE_SHARED` groups the ranks on the same host, ordered
/// by `key`; `NEXAR_UNDEFINED` gives `*newcomm = NULL`. Ownership as `nexar_comm_split`.
///
/// Blocking: yes; collective over `comm`. Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG` (NULL `newcomm`, unknown `split_type`), `NEXAR_ERR_COMM`,
/// `NEXAR_ERR_PROC_FAILED`, `NEXAR_ERR_NOT_INITIALIZED`, `NEXAR_ERR_FINALIZED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_comm_split_type(
    comm_h: nexar_comm_t,
    split_type: c_int,
    key: c_int,
    newcomm: *mut nexar_comm_t,
) -> c_int {
    call("nexar_comm_split_type", || {
        non_null(newcomm, "newcomm")?;
        let c = comm(comm_h)?;
        match split_type {
            NEXAR_COMM_TYPE_SHARED => store_new(newcomm, Some(c.split_by_host_blocking(key)?)),
            // Still collective: take part in the split with no color.
            NEXAR_UNDEFINED => store_new(newcomm, c.split_blocking(None, key)?),
            t => Err(Error::invalid(format!("unknown split type {t}"))),
        }
    })
}

/// Duplicates `comm`: same members, separate traffic. Ownership as `nexar_comm_split`.
///
/// Blocking: yes; collective over `comm`. Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG` (NULL `newcomm`), `NEXAR_ERR_COMM`, `NEXAR_ERR_PROC_FAILED`,
/// `NEXAR_ERR_NOT_INITIALIZED`, `NEXAR_ERR_FINALIZED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_comm_dup(comm_h: nexar_comm_t, newcomm: *mut nexar_comm_t) -> c_int {
    call("nexar_comm_dup", || {
        non_null(newcomm, "newcomm")?;
        let c = comm(comm_h)?;
        store_new(newcomm, Some(c.dup_blocking()?))
    })
}

/// Releases a communicator and sets `*comm` to NULL. `*comm == NULL` does nothing. Operations
/// already started on it complete normally.
///
/// Blocking: no. Thread safety: any thread (a handle freed by one thread is invalid for all).
/// Errors: `NEXAR_ERR_ARG` (NULL `comm`), `NEXAR_ERR_COMM` (freed handle, or
/// `NEXAR_COMM_WORLD` / `NEXAR_COMM_SELF`, which cannot be freed), `NEXAR_ERR_NOT_INITIALIZED`,
/// `NEXAR_ERR_FINALIZED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_comm_free(comm_p: *mut nexar_comm_t) -> c_int {
    call("nexar_comm_free", || {
        non_null(comm_p, "comm")?;
        // SAFETY: checked for NULL; readable per the C contract.
        let h = unsafe { comm_p.read() } as u64;
        if h == 0 {
            return Ok(());
        }
        if h == WORLD_HANDLE || h == SELF_HANDLE {
            let name = if h == WORLD_HANDLE {
                "NEXAR_COMM_WORLD"
            } else {
                "NEXAR_COMM_SELF"
            };
            return Err(Error::new(
                ErrorKind::InvalidComm,
                format!("{name} is predefined and cannot be freed"),
            ));
        }
        with_running(|r| r.comms.lock().remove(h).map(drop))?;
        // SAFETY: as above.
        unsafe { write_out(comm_p, std::ptr::null_mut()) };
        Ok(())
    })
}
