//! Synchronization: `MPI_Win_fence`, `MPI_Win_post` / `_start` / `_complete` / `_wait` /
//! `_test`, `MPI_Win_lock` / `_unlock`, `MPI_Win_lock_all` / `_unlock_all`, the flushes and
//! `MPI_Win_sync`, over the engine's ([`nexar::rma`] documents what each does). Assertions
//! are checked for validity and otherwise only `MPI_MODE_NOSUCCEED` changes anything (it ends
//! the fence epoch). `MPI_PROC_NULL` as the rank of a lock, unlock or flush does nothing.

use super::{MPI_Win, call};
use crate::args::dest_rank;
use crate::comm::group::MPI_Group;
use crate::consts::*;
use crate::errors::report::{MpiError, Result, non_null};
use nexar::rma::LockKind;
use std::ffi::c_int;

/// `MPI_MODE_*` assertion bits.
const MPI_MODE_NOCHECK: c_int = 1024;
const MPI_MODE_NOPRECEDE: c_int = 2048;
const MPI_MODE_NOPUT: c_int = 4096;
const MPI_MODE_NOSTORE: c_int = 8192;
const MPI_MODE_NOSUCCEED: c_int = 16384;
/// `MPI_LOCK_EXCLUSIVE` and `MPI_LOCK_SHARED`.
const MPI_LOCK_EXCLUSIVE: c_int = 301;
const MPI_LOCK_SHARED: c_int = 302;

/// Fails with `MPI_ERR_ASSERT` unless `a` is a combination of `allowed` bits.
fn assertion(a: c_int, allowed: c_int) -> Result<()> {
    if a & !allowed != 0 {
        return Err(MpiError::new(
            MPI_ERR_ASSERT,
            format!("invalid assertion {a:#x} (allowed bits: {allowed:#x})"),
        ));
    }
    Ok(())
}

/// The window ranks of the members of `group`, which must all belong to `win`'s group.
fn window_ranks(w: &nexar::rma::Window, group: MPI_Group) -> Result<Vec<u32>> {
    let members = crate::comm::group::members(group)?;
    let mine = crate::comm::group::comm_members(w.comm())?;
    members
        .iter()
        .map(|&g| {
            crate::comm::group::rank_in(&mine, g)
                .map(|r| r as u32)
                .ok_or_else(|| {
                    MpiError::new(
                        MPI_ERR_GROUP,
                        format!("world rank {g} of the group is not in the window's group"),
                    )
                })
        })
        .collect()
}

/// A lock's, unlock's or flush's rank: `None` for `MPI_PROC_NULL`.
fn rank_of(w: &nexar::rma::Window, rank: c_int) -> Result<Option<u32>> {
    dest_rank(rank, w.comm().size(), "target")
}

mpi_fn! {
    /// Ends the current fence epoch (every access of it complete on every member) and opens
    /// the next unless `assert` has `MPI_MODE_NOSUCCEED` (collective).
    fn MPI_Win_fence(assert: c_int, win: MPI_Win) -> c_int => PMPI_Win_fence {
        call("MPI_Win_fence", win, || {
            assertion(assert, MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE
                | MPI_MODE_NOSUCCEED)?;
            Ok(super::win(win)?.fence(assert & MPI_MODE_NOSUCCEED != 0)?)
        })
    }

    /// Opens an exposure epoch of this member's window to the origins in `group`.
    fn MPI_Win_post(group: MPI_Group, assert: c_int, win: MPI_Win) -> c_int => PMPI_Win_post {
        call("MPI_Win_post", win, || {
            assertion(assert, MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT)?;
            let w = super::win(win)?;
            Ok(w.post(&window_ranks(&w, group)?)?)
        })
    }

    /// Opens an access epoch to the targets in `group`, once each has posted.
    fn MPI_Win_start(group: MPI_Group, assert: c_int, win: MPI_Win) -> c_int
        => PMPI_Win_start
    {
        call("MPI_Win_start", win, || {
            assertion(assert, MPI_MODE_NOCHECK)?;
            let w = super::win(win)?;
            Ok(w.start(&window_ranks(&w, group)?)?)
        })
    }

    /// Ends the access epoch `MPI_Win_start` opened.
    fn MPI_Win_complete(win: MPI_Win) -> c_int => PMPI_Win_complete {
        call("MPI_Win_complete", win, || Ok(super::win(win)?.complete()?))
    }

    /// Ends the exposure epoch once every origin has called `MPI_Win_complete`.
    fn MPI_Win_wait(win: MPI_Win) -> c_int => PMPI_Win_wait {
        call("MPI_Win_wait", win, || Ok(super::win(win)?.wait()?))
    }

    /// Sets `*flag` and ends the exposure epoch if every origin has completed; `*flag` = 0
    /// otherwise.
    fn MPI_Win_test(win: MPI_Win, flag: *mut c_int) -> c_int => PMPI_Win_test {
        call("MPI_Win_test", win, || {
            non_null(flag, "flag")?;
            let done = super::win(win)?.test()?;
            // SAFETY: checked for NULL.
            unsafe { flag.write(c_int::from(done)) };
            Ok(())
        })
    }

    /// Starts a passive-target epoch on `rank` with a shared or exclusive lock.
    fn MPI_Win_lock(lock_type: c_int, rank: c_int, assert: c_int, win: MPI_Win) -> c_int
        => PMPI_Win_lock
    {
        call("MPI_Win_lock", win, || {
            let kind = match lock_type {
                MPI_LOCK_EXCLUSIVE => LockKind::Exclusive,
                MPI_LOCK_SHARED => LockKind::Shared,
                t => return Err(MpiError::new(MPI_ERR_LOCKTYPE,
                    format!("invalid lock type {t}"))),
            };
            assertion(assert, MPI_MODE_NOCHECK)?;
            let w = super::win(win)?;
            match rank_of(&w, rank)? {
                Some(r) => Ok(w.lock(kind, r)?),
                None => Ok(()),
            }
        })
    }

    /// Ends the passive-target epoch on `rank`.
    fn MPI_Win_unlock(rank: c_int, win: MPI_Win) -> c_int => PMPI_Win_unlock {
        call("MPI_Win_unlock", win, || {
            let w = super::win(win)?;
            match rank_of(&w, rank)? {
                Some(r) => Ok(w.unlock(r)?),
                None => Ok(()),
            }
        })
    }

    /// Starts a passive-target epoch on every member (shared locks).
    fn MPI_Win_lock_all(assert: c_int, win: MPI_Win) -> c_int => PMPI_Win_lock_all {
        call("MPI_Win_lock_all", win, || {
            assertion(assert, MPI_MODE_NOCHECK)?;
            Ok(super::win(win)?.lock_all()?)
        })
    }

    /// Ends the `MPI_Win_lock_all` epoch.
    fn MPI_Win_unlock_all(win: MPI_Win) -> c_int => PMPI_Win_unlock_all {
        call("MPI_Win_unlock_all", win, || Ok(super::win(win)?.unlock_all()?))
    }

    /// Completes the operations to `rank` (they already are: an ordering point).
    fn MPI_Win_flush(rank: c_int, win: MPI_Win) -> c_int => PMPI_Win_flush {
        call("MPI_Win_flush", win, || {
            let w = super::win(win)?;
            match rank_of(&w, rank)? {
                Some(r) => Ok(w.flush(Some(r))?),
                None => Ok(()),
            }
        })
    }

    /// Completes every operation of this member's passive-target epochs.
    fn MPI_Win_flush_all(win: MPI_Win) -> c_int => PMPI_Win_flush_all {
        call("MPI_Win_flush_all", win, || Ok(super::win(win)?.flush(None)?))
    }

    /// Completes the operations to `rank` locally (the same as [`MPI_Win_flush`] here).
    fn MPI_Win_flush_local(rank: c_int, win: MPI_Win) -> c_int => PMPI_Win_flush_local {
        call("MPI_Win_flush_local", win, || {
            let w = super::win(win)?;
            match rank_of(&w, rank)? {
                Some(r) => Ok(w.flush(Some(r))?),
                None => Ok(()),
            }
        })
    }

    /// Completes every operation locally (the same as [`MPI_Win_flush_all`] here).
    fn MPI_Win_flush_local_all(win: MPI_Win) -> c_int => PMPI_Win_flush_local_all {
        call("MPI_Win_flush_local_all", win, || Ok(super::win(win)?.flush(None)?))
    }

    /// A memory fence between this process's loads and stores and the window (unified model).
    fn MPI_Win_sync(win: MPI_Win) -> c_int => PMPI_Win_sync {
        call("MPI_Win_sync", win, || {
            super::win(win)?.sync();
            Ok(())
        })
    }
}
