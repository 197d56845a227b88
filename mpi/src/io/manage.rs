//! File management: `MPI_File_set_size`, `MPI_File_preallocate`, `MPI_File_get_size`,
//! `MPI_File_get_amode`, `MPI_File_get_group`, `MPI_File_set_info`, `MPI_File_get_info`,
//! `MPI_File_sync`, `MPI_File_set_atomicity`, `MPI_File_get_atomicity`.
//!
//! Hints: the ones in effect are reported by `MPI_File_get_info`. Collective buffering
//! ([`super::two_phase`]) follows `romio_cb_read` / `romio_cb_write` (`enable`, `disable`,
//! `automatic`: the default), `cb_nodes` (default: the number of hosts) and `cb_buffer_size`
//! (default 2 MiB). nexar states what it does for data sieving (`romio_ds_read`
//! `automatic`: independent reads with small holes are sieved; `romio_ds_write` `disable`)
//! whatever was asked. Other sizes (`ind_rd_buffer_size`, `striping_factor`,
//! `striping_unit`, ...) are accepted when they are positive integers, and the standard's
//! descriptive hints (`access_style`, `collective_buffering`, `file_perm`, ...) are kept as
//! given; POSIX file systems have no striping to set, so those are reported, not applied.
//! Other keys are ignored, as the standard allows.

use super::file::{FileObj, with_file};
use super::posix;
use super::*;
use crate::comm::communicator::MPI_Info;
use crate::comm::group::MPI_Group;
use crate::comm::info::{self, Pairs};
use crate::consts::*;
use crate::errors::report::{MpiError, Result, non_null};
use std::os::fd::AsFd;

/// Hints whose value is what nexar does, whatever is asked.
const FIXED: &[(&str, &str)] = &[
    ("romio_ds_read", "automatic"),
    ("romio_ds_write", "disable"),
];

/// Collective buffering switches: `enable`, `disable` or `automatic` (the default).
const SWITCHES: &[&str] = &["romio_cb_read", "romio_cb_write"];

/// Hints accepted when their value is a positive integer.
const SIZES: &[&str] = &[
    "cb_buffer_size",
    "cb_nodes",
    "ind_rd_buffer_size",
    "ind_wr_buffer_size",
    "striping_factor",
    "striping_unit",
    "num_io_nodes",
    "nb_proc",
    "chunked_size",
];

/// Hints kept as given.
const KEPT: &[&str] = &[
    "access_style",
    "collective_buffering",
    "file_perm",
    "io_node_list",
    "cb_config_list",
    "romio_no_indep_rw",
    "chunked",
    "chunked_item",
    "filename",
];

/// The hints of a newly opened file whose ranks are on `hosts` hosts.
pub fn default_hints(hosts: usize) -> Pairs {
    let mut p: Pairs = FIXED
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    for k in SWITCHES {
        info::set(&mut p, k, "automatic");
    }
    info::set(
        &mut p,
        "cb_buffer_size",
        &super::two_phase::DEFAULT_BUFFER.to_string(),
    );
    info::set(&mut p, "cb_nodes", &hosts.to_string());
    info::set(&mut p, "ind_rd_buffer_size", "4194304");
    p
}

/// Takes the hints of `given` that nexar accepts into `hints`.
pub fn merge_hints(hints: &mut Pairs, given: Pairs) {
    for (k, v) in given {
        let positive = v.trim().parse::<u64>().is_ok_and(|n| n > 0);
        let switch = SWITCHES.contains(&k.as_str())
            && matches!(v.as_str(), "enable" | "disable" | "automatic");
        if (SIZES.contains(&k.as_str()) && positive) || KEPT.contains(&k.as_str()) || switch {
            info::set(hints, &k, &v);
        }
    }
}

fn not_sequential(f: &FileObj, what: &str) -> Result<()> {
    if f.sequential() {
        return Err(MpiError::new(
            MPI_ERR_UNSUPPORTED_OPERATION,
            format!("{what} a file opened with MPI_MODE_SEQUENTIAL"),
        ));
    }
    Ok(())
}

fn size_arg(size: MPI_Offset) -> Result<u64> {
    u64::try_from(size).map_err(|_| MpiError::new(MPI_ERR_ARG, format!("size {size} is negative")))
}

/// Rank 0 runs `f`; the ranks agree on its outcome (a collective that changes the file once).
fn on_rank0(fh: &FileObj, what: &str, f: impl FnOnce() -> Result<()>) -> Result<()> {
    let r = if fh.comm.rank() == 0 { f() } else { Ok(()) };
    fh.agree(what, r)
}

fn set_size(f: &FileObj, size: MPI_Offset) -> Result<()> {
    let local = (|| {
        not_sequential(f, "resizing")?;
        if f.amode & MPI_MODE_RDONLY != 0 {
            return Err(MpiError::new(
                MPI_ERR_READ_ONLY,
                format!("file `{}` was opened MPI_MODE_RDONLY", f.name),
            ));
        }
        size_arg(size)
    })();
    let size = f.agree("resizing", local)?;
    on_rank0(f, "resizing", || {
        posix::truncate(f.fd.as_fd(), size).map_err(|e| posix::error("resizing", &f.name, &e))
    })
}

fn preallocate(f: &FileObj, size: MPI_Offset) -> Result<()> {
    let local = (|| {
        not_sequential(f, "preallocating")?;
        if f.amode & MPI_MODE_RDONLY != 0 {
            return Err(MpiError::new(
                MPI_ERR_READ_ONLY,
                format!("file `{}` was opened MPI_MODE_RDONLY", f.name),
            ));
        }
        size_arg(size)
    })();
    let size = f.agree("preallocating", local)?;
    on_rank0(f, "preallocating", || {
        posix::allocate(f.fd.as_fd(), size).map_err(|e| posix::error("preallocating", &f.name, &e))
    })
}

fn write_out<T>(out: *mut T, name: &str, v: T) -> Result<()> {
    non_null(out, name)?;
    // SAFETY: checked for NULL; writable per the MPI contract.
    unsafe { out.write(v) };
    Ok(())
}

mpi_fn! {
    /// Truncates or extends (with zeros) the file to `size` bytes. Collective: every rank
    /// passes the same size; rank 0 resizes and every rank learns the outcome. Errors
    /// (through the file's error handler): `MPI_ERR_FILE`, `MPI_ERR_ARG` (negative),
    /// `MPI_ERR_READ_ONLY`, `MPI_ERR_NO_SPACE`, `MPI_ERR_IO`, `MPI_ERR_UNSUPPORTED_OPERATION`
    /// (sequential mode).
    fn MPI_File_set_size(fh: MPI_File, size: MPI_Offset) -> c_int => PMPI_File_set_size {
        with_file("MPI_File_set_size", fh, |f| set_size(f, size))
    }

    /// Allocates storage for the first `size` bytes (never shrinks the file). Collective, as
    /// `MPI_File_set_size`.
    fn MPI_File_preallocate(fh: MPI_File, size: MPI_Offset) -> c_int => PMPI_File_preallocate {
        with_file("MPI_File_preallocate", fh, |f| preallocate(f, size))
    }

    /// Writes the file's current size in bytes. Local, thread-safe. Errors: `MPI_ERR_FILE`,
    /// `MPI_ERR_ARG`, `MPI_ERR_IO`.
    fn MPI_File_get_size(fh: MPI_File, size: *mut MPI_Offset) -> c_int => PMPI_File_get_size {
        with_file("MPI_File_get_size", fh, |f| {
            let s = posix::size(f.fd.as_fd())
                .map_err(|e| posix::error("reading the size of", &f.name, &e))?;
            write_out(size, "size", s as MPI_Offset)
        })
    }

    /// Writes the access mode the file was opened with. Local, thread-safe. Errors:
    /// `MPI_ERR_FILE`, `MPI_ERR_ARG`.
    fn MPI_File_get_amode(fh: MPI_File, amode: *mut c_int) -> c_int => PMPI_File_get_amode {
        with_file("MPI_File_get_amode", fh, |f| write_out(amode, "amode", f.amode))
    }

    /// Writes a new group of the ranks that opened the file (the caller frees it). Local,
    /// thread-safe. Errors: `MPI_ERR_FILE`, `MPI_ERR_ARG`.
    fn MPI_File_get_group(fh: MPI_File, group: *mut MPI_Group) -> c_int => PMPI_File_get_group {
        with_file("MPI_File_get_group", fh, |f| {
            non_null(group, "group")?;
            let g = crate::comm::group::new_group(crate::comm::group::comm_members(&f.comm)?)?;
            write_out(group, "group", g)
        })
    }

    /// Sets hints of the file from `info` (see the module documentation for which are
    /// accepted). Collective. Errors: `MPI_ERR_FILE`, `MPI_ERR_INFO`.
    fn MPI_File_set_info(fh: MPI_File, info_h: MPI_Info) -> c_int => PMPI_File_set_info {
        with_file("MPI_File_set_info", fh, |f| {
            let given = f.agree("setting hints", info::pairs_or_empty(info_h))?;
            merge_hints(&mut f.state.lock().hints, given);
            Ok(())
        })
    }

    /// Writes a new info holding the hints in effect (the caller frees it). Local,
    /// thread-safe. Errors: `MPI_ERR_FILE`, `MPI_ERR_ARG`, `MPI_ERR_NO_MEM`.
    fn MPI_File_get_info(fh: MPI_File, info_used: *mut MPI_Info) -> c_int
        => PMPI_File_get_info
    {
        with_file("MPI_File_get_info", fh, |f| {
            let hints = f.state.lock().hints.clone();
            info::store_new(hints, info_used)
        })
    }

    /// Flushes every byte this rank wrote to storage (`fsync`). Collective: blocks until every
    /// rank has synced, so data written before it by any rank is visible to reads after it.
    /// Errors: `MPI_ERR_FILE`, `MPI_ERR_IO`, `MPI_ERR_NO_SPACE`.
    fn MPI_File_sync(fh: MPI_File) -> c_int => PMPI_File_sync {
        with_file("MPI_File_sync", fh, |f| {
            let r = posix::sync(f.fd.as_fd()).map_err(|e| posix::error("syncing", &f.name, &e));
            f.agree("syncing", r)
        })
    }

    /// Sets atomic mode (`flag` true): each access then holds an `fcntl` byte-range lock over
    /// its span, so concurrent overlapping accesses see each other whole. Collective; every
    /// rank passes the same flag. Errors: `MPI_ERR_FILE`.
    fn MPI_File_set_atomicity(fh: MPI_File, flag: c_int) -> c_int => PMPI_File_set_atomicity {
        with_file("MPI_File_set_atomicity", fh, |f| {
            f.agree("setting atomicity", Ok(()))?;
            f.state.lock().atomic = flag != 0;
            Ok(())
        })
    }

    /// Writes whether the file is in atomic mode. Local, thread-safe. Errors:
    /// `MPI_ERR_FILE`, `MPI_ERR_ARG`.
    fn MPI_File_get_atomicity(fh: MPI_File, flag: *mut c_int) -> c_int
        => PMPI_File_get_atomicity
    {
        with_file("MPI_File_get_atomicity", fh, |f| {
            let a = f.state.lock().atomic;
            write_out(flag, "flag", c_int::from(a))
        })
    }
}
