//! Fault tolerance in the style of MPI's ULFM: revoking a communicator, fault-tolerant
//! agreement, shrinking to the survivors, and querying / acknowledging failures. See the Rust
//! `nexar::Comm` methods of the same names for the semantics; in short:
//! * after `nexar_comm_revoke` on any member, every pending and later operation on the
//!   communicator fails with `NEXAR_ERR_REVOKED` on every member, except the functions of
//!   this file;
//! * `nexar_comm_agree` and `nexar_comm_shrink` complete among the live members even while
//!   members fail, and give every survivor the same result;
//! * until a failure is acknowledged with `nexar_comm_ack_failed`, receives from
//!   `NEXAR_ANY_SOURCE` on the communicator fail with `NEXAR_ERR_PROC_FAILED`.

use crate::boundary::{call, non_null, write_out};
use crate::lifecycle::{comm, insert_comm};
use crate::types::nexar_comm_t;
use nexar::Error;
use std::ffi::c_int;

/// Revokes `comm` on every member: their pending and later operations on it fail with
/// `NEXAR_ERR_REVOKED` (within a fraction of a second), except the functions of this file.
/// Not collective: any member may call it; revoking twice does nothing.
///
/// Blocking: no. Thread safety: any thread.
/// Errors: `NEXAR_ERR_COMM` (invalid or freed handle), `NEXAR_ERR_NOT_INITIALIZED`,
/// `NEXAR_ERR_FINALIZED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_comm_revoke(comm_h: nexar_comm_t) -> c_int {
    call("nexar_comm_revoke", || comm(comm_h)?.revoke())
}

/// Writes 1 to `*flag` if `comm` was revoked (here, or by a member whose revocation reached
/// this rank), else 0.
///
/// Blocking: no. Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG` (NULL `flag`), `NEXAR_ERR_COMM`, `NEXAR_ERR_NOT_INITIALIZED`,
/// `NEXAR_ERR_FINALIZED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_comm_is_revoked(comm_h: nexar_comm_t, flag: *mut c_int) -> c_int {
    call("nexar_comm_is_revoked", || {
        non_null(flag, "flag")?;
        let c = comm(comm_h)?;
        // SAFETY: checked for NULL; the caller provides a writable int.
        unsafe { write_out(flag, c_int::from(c.is_revoked())) };
        Ok(())
    })
}

/// Fault-tolerant agreement: `*flag` goes in as this rank's value and comes out as the
/// bitwise AND of the live members' values, the same on every member. Works on a revoked
/// communicator and while members fail.
///
/// Unlike other functions, `*flag` is also written when the call fails with
/// `NEXAR_ERR_PROC_FAILED` because a member failed that not every member had acknowledged
/// (`nexar_comm_ack_failed`): the value is still agreed (as in ULFM's `MPIX_Comm_agree`).
///
/// Blocking: yes; collective over the live members of `comm` (same order everywhere).
/// Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG` (NULL `flag`), `NEXAR_ERR_COMM`, `NEXAR_ERR_PROC_FAILED` (every
/// member alike), `NEXAR_ERR_NOT_INITIALIZED`, `NEXAR_ERR_FINALIZED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_comm_agree(comm_h: nexar_comm_t, flag: *mut c_int) -> c_int {
    call("nexar_comm_agree", || {
        non_null(flag, "flag")?;
        let c = comm(comm_h)?;
        // SAFETY: checked for NULL; the caller provides a readable, writable int.
        let mine = unsafe { flag.read() } as u32;
        let a = c.agree_outcome_blocking(mine)?;
        // SAFETY: as above.
        unsafe { write_out(flag, a.value as c_int) };
        if a.unacknowledged {
            // Same error as the Rust `Comm::agree`.
            let first = a.failed.first().copied().unwrap_or(0);
            return Err(Error::proc_failed(
                c.world_rank_of(first)?,
                format!(
                    "ranks {:?} of this communicator failed and not every member \
                     acknowledged it",
                    a.failed
                ),
            ));
        }
        Ok(())
    })
}

/// Creates a communicator of the surviving members of `comm` (same rank order, fresh
/// context), after agreeing with them on which members failed. Works on a revoked
/// communicator. Ownership: the new handle belongs to the caller; release it with
/// `nexar_comm_free`.
///
/// Blocking: yes; collective over the live members of `comm`. Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG` (NULL `newcomm`), `NEXAR_ERR_COMM`, `NEXAR_ERR_PROC_FAILED` (the
/// other members count this rank as failed), `NEXAR_ERR_NOT_INITIALIZED`,
/// `NEXAR_ERR_FINALIZED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_comm_shrink(comm_h: nexar_comm_t, newcomm: *mut nexar_comm_t) -> c_int {
    call("nexar_comm_shrink", || {
        non_null(newcomm, "newcomm")?;
        let s = comm(comm_h)?.shrink_blocking()?;
        let h = insert_comm(s)?;
        // SAFETY: checked for NULL; the caller provides a writable handle.
        unsafe { write_out(newcomm, h) };
        Ok(())
    })
}

/// Writes up to `capacity` ranks into `ranks` and their total number into `*count`.
fn write_ranks(
    list: &[u32],
    ranks: *mut c_int,
    capacity: c_int,
    count: *mut c_int,
) -> nexar::Result<()> {
    non_null(count, "count")?;
    if capacity < 0 {
        return Err(Error::invalid(format!("capacity {capacity} is negative")));
    }
    if capacity > 0 {
        non_null(ranks, "ranks")?;
    }
    for (i, &r) in list.iter().take(capacity as usize).enumerate() {
        // SAFETY: checked for NULL; the caller provides `capacity` writable ints.
        unsafe { write_out(ranks.add(i), r as c_int) };
    }
    // SAFETY: checked for NULL; the caller provides a writable int.
    unsafe { write_out(count, list.len() as c_int) };
    Ok(())
}

/// The ranks of `comm` this rank knows have failed, ascending: the first `capacity` of them
/// go to `ranks` (which may be NULL when `capacity` is 0), their total number to `*count`
/// (call again with a larger array if `*count > capacity`).
///
/// Blocking: no. Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG` (NULL `count`, NULL `ranks` with `capacity > 0`, negative
/// `capacity`), `NEXAR_ERR_COMM`, `NEXAR_ERR_NOT_INITIALIZED`, `NEXAR_ERR_FINALIZED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_comm_get_failed(
    comm_h: nexar_comm_t,
    ranks: *mut c_int,
    capacity: c_int,
    count: *mut c_int,
) -> c_int {
    call("nexar_comm_get_failed", || {
        let c = comm(comm_h)?;
        write_ranks(&c.failed_ranks(), ranks, capacity, count)
    })
}

/// Acknowledges every failure of a member of `comm` known now: later `NEXAR_ANY_SOURCE`
/// receives on `comm` are no longer failed by them, and agreements no longer report them.
/// Writes how many failures are acknowledged to `*count` (if `count` is not NULL).
///
/// Blocking: no. Thread safety: any thread.
/// Errors: `NEXAR_ERR_COMM`, `NEXAR_ERR_NOT_INITIALIZED`, `NEXAR_ERR_FINALIZED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_comm_ack_failed(comm_h: nexar_comm_t, count: *mut c_int) -> c_int {
    call("nexar_comm_ack_failed", || {
        let n = comm(comm_h)?.ack_failed();
        if !count.is_null() {
            // SAFETY: not NULL; the caller provides a writable int.
            unsafe { write_out(count, n as c_int) };
        }
        Ok(())
    })
}

/// The failures acknowledged by the last `nexar_comm_ack_failed` on `comm`, ascending; same
/// shape as `nexar_comm_get_failed`.
///
/// Blocking: no. Thread safety: any thread.
/// Errors: as `nexar_comm_get_failed`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_comm_get_acked(
    comm_h: nexar_comm_t,
    ranks: *mut c_int,
    capacity: c_int,
    count: *mut c_int,
) -> c_int {
    call("nexar_comm_get_acked", || {
        let c = comm(comm_h)?;
        write_ranks(&c.acked_failed(), ranks, capacity, count)
    })
}
