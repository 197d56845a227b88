//! Data access through the individual file pointer: `MPI_File_read`, `MPI_File_write`, their
//! collective (`_all`), non-blocking (`MPI_File_iread`, ...) and large-count (`_c`) forms,
//! `MPI_File_seek` and `MPI_File_get_position`. The pointer counts etypes of the current view
//! and advances by the data each access moved; the split collective forms are in
//! [`super::split`].

use super::access::{At, Dir, Op, blocking, nonblocking};
use super::file::{FileObj, with_file};
use super::*;
use crate::consts::*;
use crate::errors::report::{MpiError, Result, non_null};
use crate::request::status::MPI_Status;
use crate::request::table::MPI_Request;
use std::ffi::c_void;
use std::os::fd::AsFd;

const fn op(dir: Dir, at: At, collective: bool) -> Op {
    Op {
        dir,
        at,
        collective,
    }
}

fn seek(f: &FileObj, offset: MPI_Offset, whence: c_int) -> Result<()> {
    f.random_access()?;
    let base = match whence {
        MPI_SEEK_SET => 0,
        MPI_SEEK_CUR => f.state.lock().pos,
        MPI_SEEK_END => {
            let size = super::posix::size(f.fd.as_fd())
                .map_err(|e| super::posix::error("reading the size of", &f.name, &e))?;
            f.view().end_in_etypes(size)
        }
        _ => {
            return Err(MpiError::new(
                MPI_ERR_ARG,
                format!("invalid whence {whence}"),
            ));
        }
    };
    let to = base
        .checked_add(offset)
        .filter(|&p| p >= 0)
        .ok_or_else(|| {
            MpiError::new(MPI_ERR_ARG, format!("seeking by {offset} leaves the file"))
        })?;
    f.state.lock().pos = to;
    Ok(())
}

mpi_fn! {
    /// Reads `count` `datatype` into `buf` from the individual file pointer, which advances by the
    /// data moved; reading past the end of the file reads short (the status counts what was read).
    /// Blocks this rank only. Thread-safe. Errors (through the file's error handler):
    /// `MPI_ERR_FILE`, `MPI_ERR_TYPE`, `MPI_ERR_COUNT`, `MPI_ERR_ACCESS` (opened write-only),
    /// `MPI_ERR_IO`. `MPI_ERR_UNSUPPORTED_OPERATION` on a file opened `MPI_MODE_SEQUENTIAL`.
    fn MPI_File_read(fh: MPI_File, buf: *mut c_void, count: c_int, datatype: MPI_Datatype,
        status: *mut MPI_Status) -> c_int
        => PMPI_File_read
    {
        blocking("MPI_File_read", fh, op(Dir::Read, At::Individual, false),
            (buf, count.into(), datatype), status)
    }

    /// Large-count `MPI_File_read`.
    fn MPI_File_read_c(fh: MPI_File, buf: *mut c_void, count: MPI_Count, datatype: MPI_Datatype,
        status: *mut MPI_Status) -> c_int
        => PMPI_File_read_c
    {
        blocking("MPI_File_read_c", fh, op(Dir::Read, At::Individual, false),
            (buf, count, datatype), status)
    }

    /// Reads `count` `datatype` into `buf` from the individual file pointer, which advances by the
    /// data moved; reading past the end of the file reads short (the status counts what was read).
    /// Collective: every rank calls it; blocks until every rank's access is done, and a failure on
    /// any rank fails the call on every rank. Thread-safe. Errors (through the file's error
    /// handler): `MPI_ERR_FILE`, `MPI_ERR_TYPE`, `MPI_ERR_COUNT`, `MPI_ERR_ACCESS` (opened
    /// write-only), `MPI_ERR_IO`. `MPI_ERR_UNSUPPORTED_OPERATION` on a file opened
    /// `MPI_MODE_SEQUENTIAL`.
    fn MPI_File_read_all(fh: MPI_File, buf: *mut c_void, count: c_int, datatype: MPI_Datatype,
        status: *mut MPI_Status) -> c_int
        => PMPI_File_read_all
    {
        blocking("MPI_File_read_all", fh, op(Dir::Read, At::Individual, true),
            (buf, count.into(), datatype), status)
    }

    /// Large-count `MPI_File_read_all`.
    fn MPI_File_read_all_c(fh: MPI_File, buf: *mut c_void, count: MPI_Count,
        datatype: MPI_Datatype, status: *mut MPI_Status) -> c_int
        => PMPI_File_read_all_c
    {
        blocking("MPI_File_read_all_c", fh, op(Dir::Read, At::Individual, true),
            (buf, count, datatype), status)
    }

    /// Reads `count` `datatype` into `buf` from the individual file pointer, which advances by the
    /// data moved; reading past the end of the file reads short (the status counts what was read).
    /// Non-blocking: done at once; `*request` is complete and carries the status. Thread-safe.
    /// Errors (through the file's error handler): `MPI_ERR_FILE`, `MPI_ERR_TYPE`, `MPI_ERR_COUNT`,
    /// `MPI_ERR_ACCESS` (opened write-only), `MPI_ERR_IO`. `MPI_ERR_UNSUPPORTED_OPERATION` on a
    /// file opened `MPI_MODE_SEQUENTIAL`.
    fn MPI_File_iread(fh: MPI_File, buf: *mut c_void, count: c_int, datatype: MPI_Datatype,
        request: *mut MPI_Request) -> c_int
        => PMPI_File_iread
    {
        nonblocking("MPI_File_iread", fh, op(Dir::Read, At::Individual, false),
            (buf, count.into(), datatype), request)
    }

    /// Large-count `MPI_File_iread`.
    fn MPI_File_iread_c(fh: MPI_File, buf: *mut c_void, count: MPI_Count, datatype: MPI_Datatype,
        request: *mut MPI_Request) -> c_int
        => PMPI_File_iread_c
    {
        nonblocking("MPI_File_iread_c", fh, op(Dir::Read, At::Individual, false),
            (buf, count, datatype), request)
    }

    /// Reads `count` `datatype` into `buf` from the individual file pointer, which advances by the
    /// data moved; reading past the end of the file reads short (the status counts what was read).
    /// Non-blocking collective: done at once without waiting for the other ranks (so only this
    /// rank's errors are reported); `*request` is complete and carries the status. Thread-safe.
    /// Errors (through the file's error handler): `MPI_ERR_FILE`, `MPI_ERR_TYPE`, `MPI_ERR_COUNT`,
    /// `MPI_ERR_ACCESS` (opened write-only), `MPI_ERR_IO`. `MPI_ERR_UNSUPPORTED_OPERATION` on a
    /// file opened `MPI_MODE_SEQUENTIAL`.
    fn MPI_File_iread_all(fh: MPI_File, buf: *mut c_void, count: c_int, datatype: MPI_Datatype,
        request: *mut MPI_Request) -> c_int
        => PMPI_File_iread_all
    {
        nonblocking("MPI_File_iread_all", fh, op(Dir::Read, At::Individual, true),
            (buf, count.into(), datatype), request)
    }

    /// Large-count `MPI_File_iread_all`.
    fn MPI_File_iread_all_c(fh: MPI_File, buf: *mut c_void, count: MPI_Count,
        datatype: MPI_Datatype, request: *mut MPI_Request) -> c_int
        => PMPI_File_iread_all_c
    {
        nonblocking("MPI_File_iread_all_c", fh, op(Dir::Read, At::Individual, true),
            (buf, count, datatype), request)
    }

    /// Writes `count` `datatype` from `buf` at the individual file pointer, which advances by the
    /// data moved. Blocks this rank only. Thread-safe. Errors (through the file's error handler):
    /// `MPI_ERR_FILE`, `MPI_ERR_TYPE`, `MPI_ERR_COUNT`, `MPI_ERR_READ_ONLY`, `MPI_ERR_NO_SPACE`,
    /// `MPI_ERR_IO`. `MPI_ERR_UNSUPPORTED_OPERATION` on a file opened `MPI_MODE_SEQUENTIAL`.
    fn MPI_File_write(fh: MPI_File, buf: *const c_void, count: c_int, datatype: MPI_Datatype,
        status: *mut MPI_Status) -> c_int
        => PMPI_File_write
    {
        blocking("MPI_File_write", fh, op(Dir::Write, At::Individual, false),
            (buf, count.into(), datatype), status)
    }

    /// Large-count `MPI_File_write`.
    fn MPI_File_write_c(fh: MPI_File, buf: *const c_void, count: MPI_Count, datatype: MPI_Datatype,
        status: *mut MPI_Status) -> c_int
        => PMPI_File_write_c
    {
        blocking("MPI_File_write_c", fh, op(Dir::Write, At::Individual, false),
            (buf, count, datatype), status)
    }

    /// Writes `count` `datatype` from `buf` at the individual file pointer, which advances by the
    /// data moved. Collective: every rank calls it; blocks until every rank's access is done, and a
    /// failure on any rank fails the call on every rank. Thread-safe. Errors (through the file's
    /// error handler): `MPI_ERR_FILE`, `MPI_ERR_TYPE`, `MPI_ERR_COUNT`, `MPI_ERR_READ_ONLY`,
    /// `MPI_ERR_NO_SPACE`, `MPI_ERR_IO`. `MPI_ERR_UNSUPPORTED_OPERATION` on a file opened
    /// `MPI_MODE_SEQUENTIAL`.
    fn MPI_File_write_all(fh: MPI_File, buf: *const c_void, count: c_int, datatype: MPI_Datatype,
        status: *mut MPI_Status) -> c_int
        => PMPI_File_write_all
    {
        blocking("MPI_File_write_all", fh, op(Dir::Write, At::Individual, true),
            (buf, count.into(), datatype), status)
    }

    /// Large-count `MPI_File_write_all`.
    fn MPI_File_write_all_c(fh: MPI_File, buf: *const c_void, count: MPI_Count,
        datatype: MPI_Datatype, status: *mut MPI_Status) -> c_int
        => PMPI_File_write_all_c
    {
        blocking("MPI_File_write_all_c", fh, op(Dir::Write, At::Individual, true),
            (buf, count, datatype), status)
    }

    /// Writes `count` `datatype` from `buf` at the individual file pointer, which advances by the
    /// data moved. Non-blocking: done at once; `*request` is complete and carries the status.
    /// Thread-safe. Errors (through the file's error handler): `MPI_ERR_FILE`, `MPI_ERR_TYPE`,
    /// `MPI_ERR_COUNT`, `MPI_ERR_READ_ONLY`, `MPI_ERR_NO_SPACE`, `MPI_ERR_IO`.
    /// `MPI_ERR_UNSUPPORTED_OPERATION` on a file opened `MPI_MODE_SEQUENTIAL`.
    fn MPI_File_iwrite(fh: MPI_File, buf: *const c_void, count: c_int, datatype: MPI_Datatype,
        request: *mut MPI_Request) -> c_int
        => PMPI_File_iwrite
    {
        nonblocking("MPI_File_iwrite", fh, op(Dir::Write, At::Individual, false),
            (buf, count.into(), datatype), request)
    }

    /// Large-count `MPI_File_iwrite`.
    fn MPI_File_iwrite_c(fh: MPI_File, buf: *const c_void, count: MPI_Count,
        datatype: MPI_Datatype, request: *mut MPI_Request) -> c_int
        => PMPI_File_iwrite_c
    {
        nonblocking("MPI_File_iwrite_c", fh, op(Dir::Write, At::Individual, false),
            (buf, count, datatype), request)
    }

    /// Writes `count` `datatype` from `buf` at the individual file pointer, which advances by the
    /// data moved. Non-blocking collective: done at once without waiting for the other ranks (so
    /// only this rank's errors are reported); `*request` is complete and carries the status.
    /// Thread-safe. Errors (through the file's error handler): `MPI_ERR_FILE`, `MPI_ERR_TYPE`,
    /// `MPI_ERR_COUNT`, `MPI_ERR_READ_ONLY`, `MPI_ERR_NO_SPACE`, `MPI_ERR_IO`.
    /// `MPI_ERR_UNSUPPORTED_OPERATION` on a file opened `MPI_MODE_SEQUENTIAL`.
    fn MPI_File_iwrite_all(fh: MPI_File, buf: *const c_void, count: c_int, datatype: MPI_Datatype,
        request: *mut MPI_Request) -> c_int
        => PMPI_File_iwrite_all
    {
        nonblocking("MPI_File_iwrite_all", fh, op(Dir::Write, At::Individual, true),
            (buf, count.into(), datatype), request)
    }

    /// Large-count `MPI_File_iwrite_all`.
    fn MPI_File_iwrite_all_c(fh: MPI_File, buf: *const c_void, count: MPI_Count,
        datatype: MPI_Datatype, request: *mut MPI_Request) -> c_int
        => PMPI_File_iwrite_all_c
    {
        nonblocking("MPI_File_iwrite_all_c", fh, op(Dir::Write, At::Individual, true),
            (buf, count, datatype), request)
    }

    /// Moves the individual file pointer to `offset` etypes from the start of the view
    /// (`MPI_SEEK_SET`), from where it is (`MPI_SEEK_CUR`) or from the end of the file
    /// (`MPI_SEEK_END`). Local, thread-safe. Errors: `MPI_ERR_FILE`, `MPI_ERR_ARG` (bad whence,
    /// negative result), `MPI_ERR_UNSUPPORTED_OPERATION` (sequential mode).
    fn MPI_File_seek(fh: MPI_File, offset: MPI_Offset, whence: c_int) -> c_int => PMPI_File_seek {
        with_file("MPI_File_seek", fh, |f| seek(f, offset, whence))
    }

    /// Writes the individual file pointer's position (etypes of the view). Local, thread-safe.
    /// Errors: `MPI_ERR_FILE`, `MPI_ERR_ARG` (NULL).
    fn MPI_File_get_position(fh: MPI_File, offset: *mut MPI_Offset) -> c_int
        => PMPI_File_get_position
    {
        with_file("MPI_File_get_position", fh, |f| {
            non_null(offset, "offset")?;
            f.random_access()?;
            let p = f.state.lock().pos;
            // SAFETY: checked for NULL.
            unsafe { offset.write(p) };
            Ok(())
        })
    }
}
