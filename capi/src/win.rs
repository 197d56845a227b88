//! One-sided windows (`nexar_win_*`): memory every rank of a communicator exposes, which the
//! others read (`nexar_win_get`), write (`nexar_win_put`) and update atomically
//! (`nexar_win_accumulate`, `nexar_win_fetch_and_op`, `nexar_win_compare_and_swap`) without
//! the owner taking part, inside epochs opened by `nexar_win_fence` (collective) or by locks
//! (`nexar_win_lock` / `nexar_win_lock_all`).
//!
//! Common to all: among ranks of one host windows share memory; over a communicator that spans
//! hosts every access to another rank is a message its engine serves (no call needed from the
//! target): writes are pipelined until the next flush, unlock or fence, reads take a round trip
//! each, and an error the target finds is reported by the call that completes the write. Data is
//! contiguous elements of one datatype on both sides; displacements count `disp_unit`-byte
//! units of the target's memory. Every operation has completed locally when it returns (the
//! origin buffer may be reused), and at the target too among ranks that share memory. Misuse gives `NEXAR_ERR_RMA_SYNC` (an access outside any epoch, an unlock without
//! a lock, nested locks), an access outside the target's memory `NEXAR_ERR_RMA_RANGE`, a target
//! rank outside the communicator `NEXAR_ERR_RANK`; a dead target or lock holder gives
//! `NEXAR_ERR_PROC_FAILED` instead of a hang.

use crate::boundary::{call, non_null, write_out};
use crate::buffers::{byte_len, input, output};
use crate::lifecycle::{comm, with_running};
use crate::types::{
    datatype, nexar_comm_t, nexar_datatype_t, nexar_op_t, nexar_win_t, op, rank_arg,
};
use nexar::rma::{Combine, Exposed, Flavor, LockKind, Window};
use nexar::{Error, ErrorKind, Reducer, Result};
use std::ffi::{c_int, c_void};

/// The window behind a handle (cloned: no lock is held while it is used).
fn win(h: nexar_win_t) -> Result<Window> {
    with_running(|r| r.wins.lock().get(h as u64).cloned())
}

/// Creates a window of `flavor` over `comm` and writes its handle (and, for allocated memory,
/// its address) out.
fn create(
    comm_h: nexar_comm_t,
    flavor: Flavor,
    mem: *mut c_void,
    size: usize,
    disp_unit: usize,
    win_out: *mut nexar_win_t,
) -> Result<Window> {
    non_null(win_out, "win")?;
    if disp_unit == 0 {
        return Err(Error::invalid("disp_unit must be at least 1"));
    }
    let c = comm(comm_h)?;
    let w = c.win_create(
        flavor,
        Exposed {
            base: mem.cast(),
            size,
            disp_unit,
            noncontig: false,
        },
    )?;
    let h = with_running(|r| r.wins.lock().insert(w.clone()))?;
    // SAFETY: checked for NULL.
    unsafe { write_out(win_out, h as nexar_win_t) };
    Ok(w)
}

/// Allocates `size` bytes of window memory on every rank of `comm` (collective; sizes may
/// differ) and writes its address to `*base` and the window to `*win`. The memory is shared
/// with the other ranks of the host (private where the communicator spans hosts) and is
/// released by `nexar_win_free`.
///
/// Blocking: yes (collective). Thread safety: any thread (one collective at a time per
/// communicator).
/// Errors: `NEXAR_ERR_ARG` (NULL `base` or `win`, `disp_unit` 0), `NEXAR_ERR_COMM`,
/// `NEXAR_ERR_RESOURCE` (no shared memory left), `NEXAR_ERR_PROC_FAILED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_win_allocate(
    comm: nexar_comm_t,
    size: usize,
    disp_unit: usize,
    base: *mut *mut c_void,
    win: *mut nexar_win_t,
) -> c_int {
    call("nexar_win_allocate", || {
        non_null(base, "base")?;
        let w = create(
            comm,
            Flavor::Allocate,
            std::ptr::null_mut(),
            size,
            disp_unit,
            win,
        )?;
        // SAFETY: checked for NULL.
        unsafe { write_out(base, w.local().0.cast()) };
        Ok(())
    })
}

/// Makes the caller's `size` bytes at `base` window memory on every rank of `comm`
/// (collective); peers reach it by cross-memory attach (by messages its engine serves where
/// that is not possible, e.g. between hosts), so `base` must stay valid until
/// `nexar_win_free`.
///
/// Blocking: yes (collective). Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG` (NULL `win`, NULL `base` with a size, `disp_unit` 0),
/// `NEXAR_ERR_COMM`, `NEXAR_ERR_PROC_FAILED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_win_create(
    comm: nexar_comm_t,
    base: *mut c_void,
    size: usize,
    disp_unit: usize,
    win: *mut nexar_win_t,
) -> c_int {
    call("nexar_win_create", || {
        if size > 0 {
            non_null(base, "base")?;
        }
        create(comm, Flavor::Create, base, size, disp_unit, win).map(drop)
    })
}

/// Frees `*win` (collective; no lock may be held) and sets `*win` to NULL. Freeing NULL does
/// nothing.
///
/// Blocking: yes (collective). Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG` (invalid handle), `NEXAR_ERR_RMA_SYNC` (a lock still held),
/// `NEXAR_ERR_PROC_FAILED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_win_free(win: *mut nexar_win_t) -> c_int {
    call("nexar_win_free", || {
        non_null(win, "win")?;
        // SAFETY: checked for NULL.
        let h = unsafe { win.read() };
        if h.is_null() {
            return Ok(());
        }
        self::win(h)?.free()?;
        with_running(|r| r.wins.lock().remove(h as u64).map(drop))?;
        // SAFETY: checked for NULL.
        unsafe { write_out(win, std::ptr::null_mut()) };
        Ok(())
    })
}

/// A target rank and its one run of `len` bytes.
fn target(rank: c_int, len: usize) -> Result<(u32, [(isize, usize); 1])> {
    Ok((
        rank_arg(rank, ErrorKind::InvalidRank, "target rank")?,
        [(0, len)],
    ))
}

fn displacement(disp: usize) -> Result<isize> {
    isize::try_from(disp).map_err(|_| {
        Error::new(
            ErrorKind::RmaRange,
            format!("displacement {disp} is too large"),
        )
    })
}

/// Writes `count` elements of `dtype` at `src` into rank `target`'s window at `disp`.
///
/// Blocking: no (complete when it returns). Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG`, `NEXAR_ERR_COUNT`, `NEXAR_ERR_DATATYPE`, `NEXAR_ERR_RANK`,
/// `NEXAR_ERR_RMA_SYNC`, `NEXAR_ERR_RMA_RANGE`, `NEXAR_ERR_PROC_FAILED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_win_put(
    src: *const c_void,
    count: usize,
    dtype: nexar_datatype_t,
    target_rank: c_int,
    disp: usize,
    win: nexar_win_t,
) -> c_int {
    call("nexar_win_put", || {
        let len = byte_len(count, datatype(dtype)?)?;
        // SAFETY: readable for `len` bytes per the C contract (checked for NULL).
        let data = unsafe { input(src, len, "src") }?;
        let (t, runs) = target(target_rank, len)?;
        self::win(win)?.put(t, displacement(disp)?, &runs, data)
    })
}

/// Reads `count` elements of `dtype` of rank `target`'s window at `disp` into `dst`.
///
/// Blocking: no (complete when it returns). Thread safety: any thread.
/// Errors: as `nexar_win_put`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_win_get(
    dst: *mut c_void,
    count: usize,
    dtype: nexar_datatype_t,
    target_rank: c_int,
    disp: usize,
    win: nexar_win_t,
) -> c_int {
    call("nexar_win_get", || {
        let len = byte_len(count, datatype(dtype)?)?;
        // SAFETY: writable for `len` bytes per the C contract (checked for NULL).
        let out = unsafe { output(dst, len, "dst") }?;
        let (t, runs) = target(target_rank, len)?;
        self::win(win)?.get(t, displacement(disp)?, &runs, out)
    })
}

/// Combines `count` elements of `dtype` at `src` into rank `target`'s window at `disp` with
/// `op` (`target = target op src`, element-wise), atomically with respect to every other
/// accumulate, fetch-and-op and compare-and-swap on that rank.
///
/// Blocking: no (complete when it returns). Thread safety: any thread.
/// Errors: as `nexar_win_put`, and `NEXAR_ERR_OP`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_win_accumulate(
    src: *const c_void,
    count: usize,
    dtype: nexar_datatype_t,
    op_code: nexar_op_t,
    target_rank: c_int,
    disp: usize,
    win: nexar_win_t,
) -> c_int {
    call("nexar_win_accumulate", || {
        let dt = datatype(dtype)?;
        let r = Reducer::builtin(op(op_code)?, dt);
        r.check()?;
        let len = byte_len(count, dt)?;
        // SAFETY: readable for `len` bytes per the C contract (checked for NULL).
        let data = unsafe { input(src, len, "src") }?;
        let (t, runs) = target(target_rank, len)?;
        let w = self::win(win)?;
        w.accumulate(
            t,
            displacement(disp)?,
            &runs,
            data,
            Combine::Reduce(&r),
            None,
        )
    })
}

/// Fetches one element of `dtype` of rank `target`'s window at `disp` into `*result`, then
/// combines `*src` into it with `op`, in one atomic step.
///
/// Blocking: no (complete when it returns). Thread safety: any thread.
/// Errors: as `nexar_win_accumulate`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_win_fetch_and_op(
    src: *const c_void,
    result: *mut c_void,
    dtype: nexar_datatype_t,
    op_code: nexar_op_t,
    target_rank: c_int,
    disp: usize,
    win: nexar_win_t,
) -> c_int {
    call("nexar_win_fetch_and_op", || {
        let dt = datatype(dtype)?;
        let r = Reducer::builtin(op(op_code)?, dt);
        r.check()?;
        // SAFETY: one element readable at `src`, writable at `result` (C contract; NULL checked).
        let (data, out) = unsafe {
            (
                input(src, dt.size(), "src")?,
                output(result, dt.size(), "result")?,
            )
        };
        let (t, runs) = target(target_rank, dt.size())?;
        let w = self::win(win)?;
        w.accumulate(
            t,
            displacement(disp)?,
            &runs,
            data,
            Combine::Reduce(&r),
            Some(out),
        )
    })
}

/// Replaces one element of `dtype` of rank `target`'s window at `disp` with `*src` if it
/// equals `*compare`; `*result` receives the old element. Atomic like `nexar_win_accumulate`.
///
/// Blocking: no (complete when it returns). Thread safety: any thread.
/// Errors: as `nexar_win_put`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_win_compare_and_swap(
    src: *const c_void,
    compare: *const c_void,
    result: *mut c_void,
    dtype: nexar_datatype_t,
    target_rank: c_int,
    disp: usize,
    win: nexar_win_t,
) -> c_int {
    call("nexar_win_compare_and_swap", || {
        let n = datatype(dtype)?.size();
        // SAFETY: one element each, readable / writable per the C contract (NULL checked).
        let (data, cmp, out) = unsafe {
            (
                input(src, n, "src")?,
                input(compare, n, "compare")?,
                output(result, n, "result")?,
            )
        };
        let t = rank_arg(target_rank, ErrorKind::InvalidRank, "target rank")?;
        self::win(win)?.compare_and_swap(t, displacement(disp)?, data, cmp, out)
    })
}

/// Ends the current fence epoch on every rank (collective: every access of the epoch is
/// complete and visible everywhere) and opens the next.
///
/// Blocking: yes (collective). Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG` (invalid handle), `NEXAR_ERR_RMA_SYNC` (a lock held),
/// `NEXAR_ERR_PROC_FAILED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_win_fence(win: nexar_win_t) -> c_int {
    call("nexar_win_fence", || self::win(win)?.fence(false))
}

/// Locks rank `target`'s window memory, exclusively if `exclusive` is non-zero (else shared
/// with other shared holders), opening an epoch on it.
///
/// Blocking: yes, until the lock is free. Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG`, `NEXAR_ERR_RANK`, `NEXAR_ERR_RMA_SYNC` (already locked here),
/// `NEXAR_ERR_PROC_FAILED` (the target or the lock's holder died).
#[unsafe(no_mangle)]
pub extern "C" fn nexar_win_lock(target_rank: c_int, exclusive: c_int, win: nexar_win_t) -> c_int {
    call("nexar_win_lock", || {
        let kind = if exclusive != 0 {
            LockKind::Exclusive
        } else {
            LockKind::Shared
        };
        let t = rank_arg(target_rank, ErrorKind::InvalidRank, "target rank")?;
        self::win(win)?.lock(kind, t)
    })
}

/// Unlocks rank `target`'s window memory (every access to it is complete).
///
/// Blocking: no. Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG`, `NEXAR_ERR_RANK`, `NEXAR_ERR_RMA_SYNC` (not locked here).
#[unsafe(no_mangle)]
pub extern "C" fn nexar_win_unlock(target_rank: c_int, win: nexar_win_t) -> c_int {
    call("nexar_win_unlock", || {
        let t = rank_arg(target_rank, ErrorKind::InvalidRank, "target rank")?;
        self::win(win)?.unlock(t)
    })
}

/// Takes a shared lock on every rank's window memory.
///
/// Blocking: yes, until every lock is free of exclusive holders. Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG`, `NEXAR_ERR_RMA_SYNC` (a lock already held), `NEXAR_ERR_PROC_FAILED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_win_lock_all(win: nexar_win_t) -> c_int {
    call("nexar_win_lock_all", || self::win(win)?.lock_all())
}

/// Releases the locks `nexar_win_lock_all` took.
///
/// Blocking: no. Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG`, `NEXAR_ERR_RMA_SYNC` (no lock_all epoch).
#[unsafe(no_mangle)]
pub extern "C" fn nexar_win_unlock_all(win: nexar_win_t) -> c_int {
    call("nexar_win_unlock_all", || self::win(win)?.unlock_all())
}

/// An ordering point inside a lock epoch on `target` (every access has already completed
/// when it returned).
///
/// Blocking: no. Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG`, `NEXAR_ERR_RANK`, `NEXAR_ERR_RMA_SYNC` (no lock on `target`).
#[unsafe(no_mangle)]
pub extern "C" fn nexar_win_flush(target_rank: c_int, win: nexar_win_t) -> c_int {
    call("nexar_win_flush", || {
        let t = rank_arg(target_rank, ErrorKind::InvalidRank, "target rank")?;
        self::win(win)?.flush(Some(t))
    })
}
