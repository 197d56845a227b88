//! Communicator functions: rank, size, dup, split, free, and error handlers.

use crate::consts::*;
use crate::error::{MpiError, Result, call, non_null};
use crate::state::{comm, errhandler_of, insert_comm, remove_comm, set_errhandler};
use std::ffi::c_int;

fn write_int(out: *mut c_int, name: &str, v: c_int) -> Result<()> {
    non_null(out, name)?;
    // SAFETY: checked for NULL; writable per the MPI contract.
    unsafe { out.write(v) };
    Ok(())
}

fn store_new(parent: MPI_Comm, newcomm: *mut MPI_Comm, c: Option<nexar::Comm>) -> Result<()> {
    let h = match c {
        Some(c) => insert_comm(c, errhandler_of(parent))?,
        None => MPI_COMM_NULL,
    };
    // SAFETY: the caller checked `newcomm` for NULL.
    unsafe { newcomm.write(h) };
    Ok(())
}

mpi_fn! {
    /// This process's rank in `comm`.
    fn MPI_Comm_rank(comm_h: MPI_Comm, rank: *mut c_int) -> c_int => PMPI_Comm_rank {
        call("MPI_Comm_rank", comm_h, || {
            non_null(rank, "rank")?;
            write_int(rank, "rank", comm(comm_h)?.rank() as c_int)
        })
    }

    /// The number of ranks in `comm`.
    fn MPI_Comm_size(comm_h: MPI_Comm, size: *mut c_int) -> c_int => PMPI_Comm_size {
        call("MPI_Comm_size", comm_h, || {
            non_null(size, "size")?;
            write_int(size, "size", comm(comm_h)?.size() as c_int)
        })
    }

    /// Duplicates `comm` (collective): same ranks, separate traffic, same error handler.
    fn MPI_Comm_dup(comm_h: MPI_Comm, newcomm: *mut MPI_Comm) -> c_int => PMPI_Comm_dup {
        call("MPI_Comm_dup", comm_h, || {
            non_null(newcomm, "newcomm")?;
            let c = comm(comm_h)?;
            store_new(comm_h, newcomm, Some(c.dup_blocking()?))
        })
    }

    /// Splits `comm` by `color` (collective), ranks ordered by `key`; `MPI_UNDEFINED` gives
    /// `MPI_COMM_NULL`. The new communicators inherit `comm`'s error handler.
    fn MPI_Comm_split(comm_h: MPI_Comm, color: c_int, key: c_int, newcomm: *mut MPI_Comm) -> c_int
        => PMPI_Comm_split
    {
        call("MPI_Comm_split", comm_h, || {
            non_null(newcomm, "newcomm")?;
            let c = comm(comm_h)?;
            let color = match color {
                MPI_UNDEFINED => None,
                c if c >= 0 => Some(c as u32),
                c => return Err(MpiError::new(MPI_ERR_ARG, format!("color {c} is negative"))),
            };
            store_new(comm_h, newcomm, c.split_blocking(color, key)?)
        })
    }

    /// Frees a user communicator and sets `*comm` to `MPI_COMM_NULL`.
    fn MPI_Comm_free(comm_p: *mut MPI_Comm) -> c_int => PMPI_Comm_free {
        // SAFETY: read only when not NULL.
        let h = if comm_p.is_null() { MPI_COMM_WORLD } else { unsafe { comm_p.read() } };
        call("MPI_Comm_free", h, || {
            non_null(comm_p, "comm")?;
            remove_comm(h)?;
            // SAFETY: checked for NULL.
            unsafe { comm_p.write(MPI_COMM_NULL) };
            Ok(())
        })
    }

    /// Sets `comm`'s error handler: `MPI_ERRORS_ARE_FATAL`, `MPI_ERRORS_RETURN` or
    /// `MPI_ERRORS_ABORT`.
    fn MPI_Comm_set_errhandler(comm_h: MPI_Comm, errhandler: MPI_Errhandler) -> c_int
        => PMPI_Comm_set_errhandler
    {
        call("MPI_Comm_set_errhandler", comm_h, || set_errhandler(comm_h, errhandler))
    }

    /// `comm`'s error handler.
    fn MPI_Comm_get_errhandler(comm_h: MPI_Comm, errhandler: *mut MPI_Errhandler) -> c_int
        => PMPI_Comm_get_errhandler
    {
        call("MPI_Comm_get_errhandler", comm_h, || {
            non_null(errhandler, "errhandler")?;
            comm(comm_h)?;
            // SAFETY: checked for NULL.
            unsafe { errhandler.write(errhandler_of(comm_h)) };
            Ok(())
        })
    }
}
