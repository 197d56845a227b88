//! Data access with explicit offsets: `MPI_File_read_at`, `MPI_File_write_at`, their
//! collective (`_all`), non-blocking (`MPI_File_iread_at`, ...) and large-count (`_c`) forms.
//! Each is one [`super::access`] call; the split collective forms are in [`super::split`].

use super::access::{At, Dir, Op, blocking, nonblocking};
use super::*;
use crate::consts::*;
use crate::request::status::MPI_Status;
use crate::request::table::MPI_Request;
use std::ffi::c_void;

const fn op(dir: Dir, at: At, collective: bool) -> Op {
    Op {
        dir,
        at,
        collective,
    }
}

mpi_fn! {
    /// Reads `count` `datatype` into `buf` from view offset `offset` (etypes); reading past the end
    /// of the file reads short (the status counts what was read). Blocks this rank only.
    /// Thread-safe. Errors (through the file's error handler): `MPI_ERR_FILE`, `MPI_ERR_TYPE`,
    /// `MPI_ERR_COUNT`, `MPI_ERR_ARG` (negative offset), `MPI_ERR_ACCESS` (opened write-only),
    /// `MPI_ERR_IO`. `MPI_ERR_UNSUPPORTED_OPERATION` on a file opened `MPI_MODE_SEQUENTIAL`.
    fn MPI_File_read_at(fh: MPI_File, offset: MPI_Offset, buf: *mut c_void, count: c_int,
        datatype: MPI_Datatype, status: *mut MPI_Status) -> c_int
        => PMPI_File_read_at
    {
        blocking("MPI_File_read_at", fh, op(Dir::Read, At::Offset(offset), false),
            (buf, count.into(), datatype), status)
    }

    /// Large-count `MPI_File_read_at`.
    fn MPI_File_read_at_c(fh: MPI_File, offset: MPI_Offset, buf: *mut c_void, count: MPI_Count,
        datatype: MPI_Datatype, status: *mut MPI_Status) -> c_int
        => PMPI_File_read_at_c
    {
        blocking("MPI_File_read_at_c", fh, op(Dir::Read, At::Offset(offset), false),
            (buf, count, datatype), status)
    }

    /// Reads `count` `datatype` into `buf` from view offset `offset` (etypes); reading past the end
    /// of the file reads short (the status counts what was read). Collective: every rank calls it;
    /// blocks until every rank's access is done, and a failure on any rank fails the call on every
    /// rank. Thread-safe. Errors (through the file's error handler): `MPI_ERR_FILE`,
    /// `MPI_ERR_TYPE`, `MPI_ERR_COUNT`, `MPI_ERR_ARG` (negative offset), `MPI_ERR_ACCESS` (opened
    /// write-only), `MPI_ERR_IO`. `MPI_ERR_UNSUPPORTED_OPERATION` on a file opened
    /// `MPI_MODE_SEQUENTIAL`.
    fn MPI_File_read_at_all(fh: MPI_File, offset: MPI_Offset, buf: *mut c_void, count: c_int,
        datatype: MPI_Datatype, status: *mut MPI_Status) -> c_int
        => PMPI_File_read_at_all
    {
        blocking("MPI_File_read_at_all", fh, op(Dir::Read, At::Offset(offset), true),
            (buf, count.into(), datatype), status)
    }

    /// Large-count `MPI_File_read_at_all`.
    fn MPI_File_read_at_all_c(fh: MPI_File, offset: MPI_Offset, buf: *mut c_void, count: MPI_Count,
        datatype: MPI_Datatype, status: *mut MPI_Status) -> c_int
        => PMPI_File_read_at_all_c
    {
        blocking("MPI_File_read_at_all_c", fh, op(Dir::Read, At::Offset(offset), true),
            (buf, count, datatype), status)
    }

    /// Reads `count` `datatype` into `buf` from view offset `offset` (etypes); reading past the end
    /// of the file reads short (the status counts what was read). Non-blocking: done at once;
    /// `*request` is complete and carries the status. Thread-safe. Errors (through the file's error
    /// handler): `MPI_ERR_FILE`, `MPI_ERR_TYPE`, `MPI_ERR_COUNT`, `MPI_ERR_ARG` (negative offset),
    /// `MPI_ERR_ACCESS` (opened write-only), `MPI_ERR_IO`. `MPI_ERR_UNSUPPORTED_OPERATION` on a
    /// file opened `MPI_MODE_SEQUENTIAL`.
    fn MPI_File_iread_at(fh: MPI_File, offset: MPI_Offset, buf: *mut c_void, count: c_int,
        datatype: MPI_Datatype, request: *mut MPI_Request) -> c_int
        => PMPI_File_iread_at
    {
        nonblocking("MPI_File_iread_at", fh, op(Dir::Read, At::Offset(offset), false),
            (buf, count.into(), datatype), request)
    }

    /// Large-count `MPI_File_iread_at`.
    fn MPI_File_iread_at_c(fh: MPI_File, offset: MPI_Offset, buf: *mut c_void, count: MPI_Count,
        datatype: MPI_Datatype, request: *mut MPI_Request) -> c_int
        => PMPI_File_iread_at_c
    {
        nonblocking("MPI_File_iread_at_c", fh, op(Dir::Read, At::Offset(offset), false),
            (buf, count, datatype), request)
    }

    /// Reads `count` `datatype` into `buf` from view offset `offset` (etypes); reading past the end
    /// of the file reads short (the status counts what was read). Non-blocking collective: done at
    /// once without waiting for the other ranks (so only this rank's errors are reported);
    /// `*request` is complete and carries the status. Thread-safe. Errors (through the file's error
    /// handler): `MPI_ERR_FILE`, `MPI_ERR_TYPE`, `MPI_ERR_COUNT`, `MPI_ERR_ARG` (negative offset),
    /// `MPI_ERR_ACCESS` (opened write-only), `MPI_ERR_IO`. `MPI_ERR_UNSUPPORTED_OPERATION` on a
    /// file opened `MPI_MODE_SEQUENTIAL`.
    fn MPI_File_iread_at_all(fh: MPI_File, offset: MPI_Offset, buf: *mut c_void, count: c_int,
        datatype: MPI_Datatype, request: *mut MPI_Request) -> c_int
        => PMPI_File_iread_at_all
    {
        nonblocking("MPI_File_iread_at_all", fh, op(Dir::Read, At::Offset(offset), true),
            (buf, count.into(), datatype), request)
    }

    /// Large-count `MPI_File_iread_at_all`.
    fn MPI_File_iread_at_all_c(fh: MPI_File, offset: MPI_Offset, buf: *mut c_void,
        count: MPI_Count, datatype: MPI_Datatype, request: *mut MPI_Request) -> c_int
        => PMPI_File_iread_at_all_c
    {
        nonblocking("MPI_File_iread_at_all_c", fh, op(Dir::Read, At::Offset(offset), true),
            (buf, count, datatype), request)
    }

    /// Writes `count` `datatype` from `buf` at view offset `offset` (etypes). Blocks this rank
    /// only. Thread-safe. Errors (through the file's error handler): `MPI_ERR_FILE`,
    /// `MPI_ERR_TYPE`, `MPI_ERR_COUNT`, `MPI_ERR_ARG` (negative offset), `MPI_ERR_READ_ONLY`,
    /// `MPI_ERR_NO_SPACE`, `MPI_ERR_IO`. `MPI_ERR_UNSUPPORTED_OPERATION` on a file opened
    /// `MPI_MODE_SEQUENTIAL`.
    fn MPI_File_write_at(fh: MPI_File, offset: MPI_Offset, buf: *const c_void, count: c_int,
        datatype: MPI_Datatype, status: *mut MPI_Status) -> c_int
        => PMPI_File_write_at
    {
        blocking("MPI_File_write_at", fh, op(Dir::Write, At::Offset(offset), false),
            (buf, count.into(), datatype), status)
    }

    /// Large-count `MPI_File_write_at`.
    fn MPI_File_write_at_c(fh: MPI_File, offset: MPI_Offset, buf: *const c_void, count: MPI_Count,
        datatype: MPI_Datatype, status: *mut MPI_Status) -> c_int
        => PMPI_File_write_at_c
    {
        blocking("MPI_File_write_at_c", fh, op(Dir::Write, At::Offset(offset), false),
            (buf, count, datatype), status)
    }

    /// Writes `count` `datatype` from `buf` at view offset `offset` (etypes). Collective: every
    /// rank calls it; blocks until every rank's access is done, and a failure on any rank fails the
    /// call on every rank. Thread-safe. Errors (through the file's error handler): `MPI_ERR_FILE`,
    /// `MPI_ERR_TYPE`, `MPI_ERR_COUNT`, `MPI_ERR_ARG` (negative offset), `MPI_ERR_READ_ONLY`,
    /// `MPI_ERR_NO_SPACE`, `MPI_ERR_IO`. `MPI_ERR_UNSUPPORTED_OPERATION` on a file opened
    /// `MPI_MODE_SEQUENTIAL`.
    fn MPI_File_write_at_all(fh: MPI_File, offset: MPI_Offset, buf: *const c_void, count: c_int,
        datatype: MPI_Datatype, status: *mut MPI_Status) -> c_int
        => PMPI_File_write_at_all
    {
        blocking("MPI_File_write_at_all", fh, op(Dir::Write, At::Offset(offset), true),
            (buf, count.into(), datatype), status)
    }

    /// Large-count `MPI_File_write_at_all`.
    fn MPI_File_write_at_all_c(fh: MPI_File, offset: MPI_Offset, buf: *const c_void,
        count: MPI_Count, datatype: MPI_Datatype, status: *mut MPI_Status) -> c_int
        => PMPI_File_write_at_all_c
    {
        blocking("MPI_File_write_at_all_c", fh, op(Dir::Write, At::Offset(offset), true),
            (buf, count, datatype), status)
    }

    /// Writes `count` `datatype` from `buf` at view offset `offset` (etypes). Non-blocking: done at
    /// once; `*request` is complete and carries the status. Thread-safe. Errors (through the file's
    /// error handler): `MPI_ERR_FILE`, `MPI_ERR_TYPE`, `MPI_ERR_COUNT`, `MPI_ERR_ARG` (negative
    /// offset), `MPI_ERR_READ_ONLY`, `MPI_ERR_NO_SPACE`, `MPI_ERR_IO`.
    /// `MPI_ERR_UNSUPPORTED_OPERATION` on a file opened `MPI_MODE_SEQUENTIAL`.
    fn MPI_File_iwrite_at(fh: MPI_File, offset: MPI_Offset, buf: *const c_void, count: c_int,
        datatype: MPI_Datatype, request: *mut MPI_Request) -> c_int
        => PMPI_File_iwrite_at
    {
        nonblocking("MPI_File_iwrite_at", fh, op(Dir::Write, At::Offset(offset), false),
            (buf, count.into(), datatype), request)
    }

    /// Large-count `MPI_File_iwrite_at`.
    fn MPI_File_iwrite_at_c(fh: MPI_File, offset: MPI_Offset, buf: *const c_void, count: MPI_Count,
        datatype: MPI_Datatype, request: *mut MPI_Request) -> c_int
        => PMPI_File_iwrite_at_c
    {
        nonblocking("MPI_File_iwrite_at_c", fh, op(Dir::Write, At::Offset(offset), false),
            (buf, count, datatype), request)
    }

    /// Writes `count` `datatype` from `buf` at view offset `offset` (etypes). Non-blocking
    /// collective: done at once without waiting for the other ranks (so only this rank's errors are
    /// reported); `*request` is complete and carries the status. Thread-safe. Errors (through the
    /// file's error handler): `MPI_ERR_FILE`, `MPI_ERR_TYPE`, `MPI_ERR_COUNT`, `MPI_ERR_ARG`
    /// (negative offset), `MPI_ERR_READ_ONLY`, `MPI_ERR_NO_SPACE`, `MPI_ERR_IO`.
    /// `MPI_ERR_UNSUPPORTED_OPERATION` on a file opened `MPI_MODE_SEQUENTIAL`.
    fn MPI_File_iwrite_at_all(fh: MPI_File, offset: MPI_Offset, buf: *const c_void, count: c_int,
        datatype: MPI_Datatype, request: *mut MPI_Request) -> c_int
        => PMPI_File_iwrite_at_all
    {
        nonblocking("MPI_File_iwrite_at_all", fh, op(Dir::Write, At::Offset(offset), true),
            (buf, count.into(), datatype), request)
    }

    /// Large-count `MPI_File_iwrite_at_all`.
    fn MPI_File_iwrite_at_all_c(fh: MPI_File, offset: MPI_Offset, buf: *const c_void,
        count: MPI_Count, datatype: MPI_Datatype, request: *mut MPI_Request) -> c_int
        => PMPI_File_iwrite_at_all_c
    {
        nonblocking("MPI_File_iwrite_at_all_c", fh, op(Dir::Write, At::Offset(offset), true),
            (buf, count, datatype), request)
    }
}
