//! The ULFM fault-tolerance extension (`MPIX_Comm_revoke`, `MPIX_Comm_shrink`,
//! `MPIX_Comm_agree`, `MPIX_Comm_iagree`, `MPIX_Comm_get_failed`, `MPIX_Comm_ack_failed`,
//! `MPIX_Comm_failure_ack`, `MPIX_Comm_failure_get_acked`, `MPIX_Comm_is_revoked`) over the
//! engine's `nexar::Comm::{revoke, shrink, agree_outcome, iagree_outcome, failed_ranks,
//! ack_failed, ack_failed_first, acked_failed}`.
//!
//! These are not part of the MPI standard ABI: they are declared in `mpi.h` (section "MPIX
//! fault tolerance") and exported as `MPIX_X` / `PMPIX_X`; `mpi-ext.h` defines the feature
//! macros ULFM programs test (`MPIX_FT`, `OMPI_HAVE_MPI_EXT_FTMPI`).
//!
//! Error classes: nexar's `ProcFailed` is `MPIX_ERR_PROC_FAILED` and `Revoked` is
//! `MPIX_ERR_REVOKED` (see [`crate::errors::report`]). Their values are MPICH's (`mpi.h.in`:
//! `MPICH_ERR_FIRST_MPIX` 100, then `MPIX_ERR_PROC_FAILED` +1, `MPIX_ERR_PROC_FAILED_PENDING`
//! +2, `MPIX_ERR_REVOKED` +3), which sit between the standard ABI's classes (up to 62) and
//! `MPI_ERR_LASTCODE`. nexar does not produce `MPIX_ERR_PROC_FAILED_PENDING`: a wildcard
//! receive whose possible sender failed (unacknowledged) fails with `MPIX_ERR_PROC_FAILED`.

use crate::comm::group::{MPI_Group, new_group};
use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
use crate::request::table::{MPI_Request, store_request};
use crate::state::{comm, errhandler_of, insert_comm};
use std::ffi::c_int;

/// Error class: a process failure prevented the operation (MPICH's value).
pub const MPIX_ERR_PROC_FAILED: c_int = 101;
/// Error class: a wildcard receive may not complete because a possible sender failed
/// (declared for ULFM programs; nexar reports [`MPIX_ERR_PROC_FAILED`] instead).
pub const MPIX_ERR_PROC_FAILED_PENDING: c_int = 102;
/// Error class: the communicator was revoked.
pub const MPIX_ERR_REVOKED: c_int = 103;

/// The world ranks of `c`'s members at comm ranks `ranks`, as a new group.
fn group_of(c: &nexar::Comm, ranks: &[u32]) -> Result<MPI_Group> {
    let world = ranks
        .iter()
        .map(|&r| {
            c.world_rank_of(r)
                .map(|w| crate::comm::group::id_of(c, w))
                .map_err(MpiError::from)
        })
        .collect::<Result<Vec<u32>>>()?;
    new_group(world)
}

fn write<T>(out: *mut T, name: &str, v: T) -> Result<()> {
    non_null(out, name)?;
    // SAFETY: checked for NULL; writable per the MPI contract.
    unsafe { out.write(v) };
    Ok(())
}

mpi_fn! {
    /// Revokes `comm` on every member: their pending and later operations on it fail with
    /// `MPIX_ERR_REVOKED`, except the `MPIX_` recovery functions. Local; returns at once.
    fn MPIX_Comm_revoke(comm_h: MPI_Comm) -> c_int => PMPIX_Comm_revoke {
        call("MPIX_Comm_revoke", comm_h, || Ok(comm(comm_h)?.revoke()?))
    }

    /// Sets `*flag` to true if `comm` was revoked (here or by a member).
    fn MPIX_Comm_is_revoked(comm_h: MPI_Comm, flag: *mut c_int) -> c_int
        => PMPIX_Comm_is_revoked
    {
        call("MPIX_Comm_is_revoked", comm_h, || {
            non_null(flag, "flag")?;
            let revoked = comm(comm_h)?.is_revoked();
            write(flag, "flag", c_int::from(revoked))
        })
    }

    /// A new communicator of the surviving members of `comm` (same order), agreed among
    /// them; works on a revoked communicator. Inherits `comm`'s error handler.
    fn MPIX_Comm_shrink(comm_h: MPI_Comm, newcomm: *mut MPI_Comm) -> c_int
        => PMPIX_Comm_shrink
    {
        call("MPIX_Comm_shrink", comm_h, || {
            non_null(newcomm, "newcomm")?;
            let s = comm(comm_h)?.shrink_blocking()?;
            let h = insert_comm(s, errhandler_of(comm_h))?;
            write(newcomm, "newcomm", h)
        })
    }

    /// Fault-tolerant agreement: `*flag` becomes the bitwise AND of the live members' flags,
    /// the same everywhere. If a member failed that not every member acknowledged, `*flag`
    /// is still set and the call raises `MPIX_ERR_PROC_FAILED` on every member.
    fn MPIX_Comm_agree(comm_h: MPI_Comm, flag: *mut c_int) -> c_int => PMPIX_Comm_agree {
        call("MPIX_Comm_agree", comm_h, || {
            non_null(flag, "flag")?;
            let c = comm(comm_h)?;
            // SAFETY: checked for NULL; readable and writable per the MPI contract.
            let mine = unsafe { flag.read() } as u32;
            let a = c.agree_outcome_blocking(mine)?;
            write(flag, "flag", a.value as c_int)?;
            if a.unacknowledged {
                return Err(MpiError::new(
                    MPIX_ERR_PROC_FAILED,
                    format!(
                        "ranks {:?} of the communicator failed and not every member \
                         acknowledged it (the flag is still agreed)",
                        a.failed
                    ),
                ));
            }
            Ok(())
        })
    }

    /// Non-blocking [`MPIX_Comm_agree`]: `*flag` is read now and holds the agreed value when
    /// the request completes (keep it valid until then); the request's error is
    /// `MPIX_ERR_PROC_FAILED` where `MPIX_Comm_agree` would raise it. Agreements are numbered
    /// apart from collectives, so collectives may be called while it is in flight.
    fn MPIX_Comm_iagree(comm_h: MPI_Comm, flag: *mut c_int, request: *mut MPI_Request) -> c_int
        => PMPIX_Comm_iagree
    {
        call("MPIX_Comm_iagree", comm_h, || {
            non_null(flag, "flag")?;
            non_null(request, "request")?;
            let c = comm(comm_h)?;
            // SAFETY: checked for NULL; readable per the MPI contract.
            let mine = unsafe { flag.read() } as u32;
            let started = c.iagree_outcome(mine)?;
            let at = flag as usize;
            let req = nexar::Request::inline(async move {
                let a = started.await?;
                // SAFETY: MPI keeps `flag` valid and writable until the request completes.
                unsafe { (at as *mut c_int).write(a.value as c_int) };
                if a.unacknowledged {
                    let first = a.failed.first().copied().unwrap_or(0);
                    return Err(nexar::Error::proc_failed(
                        c.world_rank_of(first).unwrap_or(u32::MAX),
                        format!(
                            "ranks {:?} of the communicator failed and not every member \
                             acknowledged it (the flag is still agreed)",
                            a.failed
                        ),
                    ));
                }
                Ok(None)
            });
            store_request(request, comm_h, req)
        })
    }

    /// Acknowledges the first `num_to_ack` failures of `MPIX_Comm_get_failed`'s group (which
    /// is in ascending rank order) on top of earlier ones; `*num_acked` gets how many are
    /// acknowledged in all. Acknowledged failures no longer fail `MPI_ANY_SOURCE` receives
    /// nor raise in agreements. Local.
    fn MPIX_Comm_ack_failed(comm_h: MPI_Comm, num_to_ack: c_int, num_acked: *mut c_int)
        -> c_int => PMPIX_Comm_ack_failed
    {
        call("MPIX_Comm_ack_failed", comm_h, || {
            non_null(num_acked, "num_acked")?;
            let n = usize::try_from(num_to_ack).map_err(|_| {
                MpiError::new(MPI_ERR_ARG, format!("num_to_ack {num_to_ack} is negative"))
            })?;
            let acked = comm(comm_h)?.ack_failed_first(n);
            write(num_acked, "num_acked", acked as c_int)
        })
    }

    /// The group of the members of `comm` this process knows failed (a new group; free it).
    fn MPIX_Comm_get_failed(comm_h: MPI_Comm, failedgrp: *mut MPI_Group) -> c_int
        => PMPIX_Comm_get_failed
    {
        call("MPIX_Comm_get_failed", comm_h, || {
            non_null(failedgrp, "failedgrp")?;
            let c = comm(comm_h)?;
            let g = group_of(&c, &c.failed_ranks())?;
            write(failedgrp, "failedgrp", g)
        })
    }

    /// Acknowledges the failures of `comm`'s members known now: `MPI_ANY_SOURCE` receives
    /// on `comm` are no longer failed by them, and agreements no longer raise for them.
    fn MPIX_Comm_failure_ack(comm_h: MPI_Comm) -> c_int => PMPIX_Comm_failure_ack {
        call("MPIX_Comm_failure_ack", comm_h, || {
            comm(comm_h)?.ack_failed();
            Ok(())
        })
    }

    /// The group of the failures acknowledged by the last `MPIX_Comm_failure_ack` on `comm`.
    fn MPIX_Comm_failure_get_acked(comm_h: MPI_Comm, failedgrp: *mut MPI_Group) -> c_int
        => PMPIX_Comm_failure_get_acked
    {
        call("MPIX_Comm_failure_get_acked", comm_h, || {
            non_null(failedgrp, "failedgrp")?;
            let c = comm(comm_h)?;
            let g = group_of(&c, &c.acked_failed())?;
            write(failedgrp, "failedgrp", g)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_classes_match_the_spec_table() {
        let value = |name: &str| crate::consts::spec_value(name) as c_int;
        assert_eq!(value("MPIX_ERR_PROC_FAILED"), MPIX_ERR_PROC_FAILED);
        assert_eq!(
            value("MPIX_ERR_PROC_FAILED_PENDING"),
            MPIX_ERR_PROC_FAILED_PENDING
        );
        assert_eq!(value("MPIX_ERR_REVOKED"), MPIX_ERR_REVOKED);
        const { assert!(MPIX_ERR_REVOKED < MPI_ERR_LASTCODE) };
    }
}
