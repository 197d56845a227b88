//! Split collective data access: `MPI_File_read_all_begin` / `MPI_File_read_all_end` and the
//! `_at_all` and `_ordered` pairs, for reads and writes (with `_c` forms of the `_begin`
//! calls). The `_begin` call does the whole collective access (it may block until every rank
//! has begun, which the standard allows); the `_end` call gives its status. One split
//! collective may be active on a file at a time.

use super::access::{At, Dir, Op, begin, end};
use super::*;
use crate::consts::*;
use crate::request::status::MPI_Status;
use std::ffi::c_void;

const fn op(dir: Dir, at: At) -> Op {
    Op {
        dir,
        at,
        collective: true,
    }
}

mpi_fn! {
    /// Begins split collective `MPI_File_read_all`: does the collective access now (blocks until
    /// every rank's part is done, as `MPI_File_read_all` does); `MPI_File_read_all_end` gives the
    /// status. The buffer must not be touched until then. Thread-safe. Errors: those of
    /// `MPI_File_read_all`, and `MPI_ERR_OTHER` while another split collective is active on the
    /// file.
    fn MPI_File_read_all_begin(fh: MPI_File, buf: *mut c_void, count: c_int,
        datatype: MPI_Datatype) -> c_int
        => PMPI_File_read_all_begin
    {
        begin("MPI_File_read_all_begin", fh, op(Dir::Read, At::Individual),
            (buf, count.into(), datatype), "MPI_File_read_all_end")
    }

    /// Large-count `MPI_File_read_all_begin`.
    fn MPI_File_read_all_begin_c(fh: MPI_File, buf: *mut c_void, count: MPI_Count,
        datatype: MPI_Datatype) -> c_int
        => PMPI_File_read_all_begin_c
    {
        begin("MPI_File_read_all_begin_c", fh, op(Dir::Read, At::Individual),
            (buf, count, datatype), "MPI_File_read_all_end")
    }

    /// Ends split collective `MPI_File_read_all`: writes the status of the access
    /// `MPI_File_read_all_begin` did. Local, thread-safe. Errors: `MPI_ERR_FILE`, `MPI_ERR_OTHER`
    /// (no matching begin).
    fn MPI_File_read_all_end(fh: MPI_File, _buf: *mut c_void, status: *mut MPI_Status) -> c_int
        => PMPI_File_read_all_end
    {
        end("MPI_File_read_all_end", fh, status)
    }

    /// Begins split collective `MPI_File_write_all`: does the collective access now (blocks until
    /// every rank's part is done, as `MPI_File_write_all` does); `MPI_File_write_all_end` gives the
    /// status. The buffer must not be touched until then. Thread-safe. Errors: those of
    /// `MPI_File_write_all`, and `MPI_ERR_OTHER` while another split collective is active on the
    /// file.
    fn MPI_File_write_all_begin(fh: MPI_File, buf: *const c_void, count: c_int,
        datatype: MPI_Datatype) -> c_int
        => PMPI_File_write_all_begin
    {
        begin("MPI_File_write_all_begin", fh, op(Dir::Write, At::Individual),
            (buf, count.into(), datatype), "MPI_File_write_all_end")
    }

    /// Large-count `MPI_File_write_all_begin`.
    fn MPI_File_write_all_begin_c(fh: MPI_File, buf: *const c_void, count: MPI_Count,
        datatype: MPI_Datatype) -> c_int
        => PMPI_File_write_all_begin_c
    {
        begin("MPI_File_write_all_begin_c", fh, op(Dir::Write, At::Individual),
            (buf, count, datatype), "MPI_File_write_all_end")
    }

    /// Ends split collective `MPI_File_write_all`: writes the status of the access
    /// `MPI_File_write_all_begin` did. Local, thread-safe. Errors: `MPI_ERR_FILE`, `MPI_ERR_OTHER`
    /// (no matching begin).
    fn MPI_File_write_all_end(fh: MPI_File, _buf: *const c_void, status: *mut MPI_Status) -> c_int
        => PMPI_File_write_all_end
    {
        end("MPI_File_write_all_end", fh, status)
    }

    /// Begins split collective `MPI_File_read_at_all`: does the collective access now (blocks until
    /// every rank's part is done, as `MPI_File_read_at_all` does); `MPI_File_read_at_all_end` gives
    /// the status. The buffer must not be touched until then. Thread-safe. Errors: those of
    /// `MPI_File_read_at_all`, and `MPI_ERR_OTHER` while another split collective is active on the
    /// file.
    fn MPI_File_read_at_all_begin(fh: MPI_File, offset: MPI_Offset, buf: *mut c_void, count: c_int,
        datatype: MPI_Datatype) -> c_int
        => PMPI_File_read_at_all_begin
    {
        begin("MPI_File_read_at_all_begin", fh, op(Dir::Read, At::Offset(offset)),
            (buf, count.into(), datatype), "MPI_File_read_at_all_end")
    }

    /// Large-count `MPI_File_read_at_all_begin`.
    fn MPI_File_read_at_all_begin_c(fh: MPI_File, offset: MPI_Offset, buf: *mut c_void,
        count: MPI_Count, datatype: MPI_Datatype) -> c_int
        => PMPI_File_read_at_all_begin_c
    {
        begin("MPI_File_read_at_all_begin_c", fh, op(Dir::Read, At::Offset(offset)),
            (buf, count, datatype), "MPI_File_read_at_all_end")
    }

    /// Ends split collective `MPI_File_read_at_all`: writes the status of the access
    /// `MPI_File_read_at_all_begin` did. Local, thread-safe. Errors: `MPI_ERR_FILE`,
    /// `MPI_ERR_OTHER` (no matching begin).
    fn MPI_File_read_at_all_end(fh: MPI_File, _buf: *mut c_void, status: *mut MPI_Status) -> c_int
        => PMPI_File_read_at_all_end
    {
        end("MPI_File_read_at_all_end", fh, status)
    }

    /// Begins split collective `MPI_File_write_at_all`: does the collective access now (blocks
    /// until every rank's part is done, as `MPI_File_write_at_all` does);
    /// `MPI_File_write_at_all_end` gives the status. The buffer must not be touched until then.
    /// Thread-safe. Errors: those of `MPI_File_write_at_all`, and `MPI_ERR_OTHER` while another
    /// split collective is active on the file.
    fn MPI_File_write_at_all_begin(fh: MPI_File, offset: MPI_Offset, buf: *const c_void,
        count: c_int, datatype: MPI_Datatype) -> c_int
        => PMPI_File_write_at_all_begin
    {
        begin("MPI_File_write_at_all_begin", fh, op(Dir::Write, At::Offset(offset)),
            (buf, count.into(), datatype), "MPI_File_write_at_all_end")
    }

    /// Large-count `MPI_File_write_at_all_begin`.
    fn MPI_File_write_at_all_begin_c(fh: MPI_File, offset: MPI_Offset, buf: *const c_void,
        count: MPI_Count, datatype: MPI_Datatype) -> c_int
        => PMPI_File_write_at_all_begin_c
    {
        begin("MPI_File_write_at_all_begin_c", fh, op(Dir::Write, At::Offset(offset)),
            (buf, count, datatype), "MPI_File_write_at_all_end")
    }

    /// Ends split collective `MPI_File_write_at_all`: writes the status of the access
    /// `MPI_File_write_at_all_begin` did. Local, thread-safe. Errors: `MPI_ERR_FILE`,
    /// `MPI_ERR_OTHER` (no matching begin).
    fn MPI_File_write_at_all_end(fh: MPI_File, _buf: *const c_void,
        status: *mut MPI_Status) -> c_int
        => PMPI_File_write_at_all_end
    {
        end("MPI_File_write_at_all_end", fh, status)
    }

    /// Begins split collective `MPI_File_read_ordered`: does the collective access now (blocks
    /// until every rank's part is done, as `MPI_File_read_ordered` does);
    /// `MPI_File_read_ordered_end` gives the status. The buffer must not be touched until then.
    /// Thread-safe. Errors: those of `MPI_File_read_ordered`, and `MPI_ERR_OTHER` while another
    /// split collective is active on the file.
    fn MPI_File_read_ordered_begin(fh: MPI_File, buf: *mut c_void, count: c_int,
        datatype: MPI_Datatype) -> c_int
        => PMPI_File_read_ordered_begin
    {
        begin("MPI_File_read_ordered_begin", fh, op(Dir::Read, At::Ordered),
            (buf, count.into(), datatype), "MPI_File_read_ordered_end")
    }

    /// Large-count `MPI_File_read_ordered_begin`.
    fn MPI_File_read_ordered_begin_c(fh: MPI_File, buf: *mut c_void, count: MPI_Count,
        datatype: MPI_Datatype) -> c_int
        => PMPI_File_read_ordered_begin_c
    {
        begin("MPI_File_read_ordered_begin_c", fh, op(Dir::Read, At::Ordered),
            (buf, count, datatype), "MPI_File_read_ordered_end")
    }

    /// Ends split collective `MPI_File_read_ordered`: writes the status of the access
    /// `MPI_File_read_ordered_begin` did. Local, thread-safe. Errors: `MPI_ERR_FILE`,
    /// `MPI_ERR_OTHER` (no matching begin).
    fn MPI_File_read_ordered_end(fh: MPI_File, _buf: *mut c_void, status: *mut MPI_Status) -> c_int
        => PMPI_File_read_ordered_end
    {
        end("MPI_File_read_ordered_end", fh, status)
    }

    /// Begins split collective `MPI_File_write_ordered`: does the collective access now (blocks
    /// until every rank's part is done, as `MPI_File_write_ordered` does);
    /// `MPI_File_write_ordered_end` gives the status. The buffer must not be touched until then.
    /// Thread-safe. Errors: those of `MPI_File_write_ordered`, and `MPI_ERR_OTHER` while another
    /// split collective is active on the file.
    fn MPI_File_write_ordered_begin(fh: MPI_File, buf: *const c_void, count: c_int,
        datatype: MPI_Datatype) -> c_int
        => PMPI_File_write_ordered_begin
    {
        begin("MPI_File_write_ordered_begin", fh, op(Dir::Write, At::Ordered),
            (buf, count.into(), datatype), "MPI_File_write_ordered_end")
    }

    /// Large-count `MPI_File_write_ordered_begin`.
    fn MPI_File_write_ordered_begin_c(fh: MPI_File, buf: *const c_void, count: MPI_Count,
        datatype: MPI_Datatype) -> c_int
        => PMPI_File_write_ordered_begin_c
    {
        begin("MPI_File_write_ordered_begin_c", fh, op(Dir::Write, At::Ordered),
            (buf, count, datatype), "MPI_File_write_ordered_end")
    }

    /// Ends split collective `MPI_File_write_ordered`: writes the status of the access
    /// `MPI_File_write_ordered_begin` did. Local, thread-safe. Errors: `MPI_ERR_FILE`,
    /// `MPI_ERR_OTHER` (no matching begin).
    fn MPI_File_write_ordered_end(fh: MPI_File, _buf: *const c_void,
        status: *mut MPI_Status) -> c_int
        => PMPI_File_write_ordered_end
    {
        end("MPI_File_write_ordered_end", fh, status)
    }
}
