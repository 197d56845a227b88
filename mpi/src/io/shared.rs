//! The shared file pointer: `MPI_File_read_shared`, `MPI_File_write_shared` (and their
//! non-blocking forms), `MPI_File_read_ordered`, `MPI_File_write_ordered`,
//! `MPI_File_seek_shared`, `MPI_File_get_position_shared`.
//!
//! The pointer (etypes of the current view) is 8 bytes in a hidden file next to the data
//! file, `.<name>.nexar-shfp.<token>` (the token, chosen by rank 0 at open, keeps separate
//! opens of one file apart). Every update reads and writes it under an `fcntl` write lock, so
//! ranks on several hosts share it through a shared file system, as ROMIO does; a mutex keeps
//! the threads of one process apart (`fcntl` locks belong to the process). The hidden file is
//! made by the first rank that uses the pointer (a file that never uses it gets none); while
//! it is missing or empty the pointer is where it starts (0, or the end of the file with
//! `MPI_MODE_APPEND`); `MPI_File_set_view` empties it, and rank 0 removes it at close.

use super::access::{At, Dir, Op, blocking, nonblocking};
use super::file::{FileObj, with_file};
use super::posix::{self, RangeLock, pread_full, pwrite_all};
use super::*;
use crate::consts::*;
use crate::errors::report::{MpiError, Result, non_null};
use crate::request::status::MPI_Status;
use crate::request::table::MPI_Request;
use parking_lot::Mutex;
use std::ffi::c_void;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};

/// The hidden file holding a shared file pointer.
pub struct SharedPointer {
    /// Its path.
    pub path: PathBuf,
    /// The position while the file is missing or empty.
    start: MPI_Offset,
    /// The file once this process opened it; the mutex also keeps threads apart.
    fd: Mutex<Option<OwnedFd>>,
}

/// The hidden file's path for data file `data` and open token `token`.
pub fn hidden_path(data: &Path, token: u64) -> PathBuf {
    let name = data
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    data.with_file_name(format!(".{name}.nexar-shfp.{token:016x}"))
}

impl SharedPointer {
    /// The pointer kept at `path`, starting at `start`; nothing is made yet.
    pub fn new(path: PathBuf, start: MPI_Offset) -> Self {
        Self {
            path,
            start,
            fd: Mutex::new(None),
        }
    }

    /// Runs `f` on the pointer under the locks and stores what it leaves.
    fn update<R>(&self, f: impl FnOnce(&mut MPI_Offset) -> R) -> io::Result<R> {
        let mut guard = self.fd.lock();
        if guard.is_none() {
            let file = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&self.path)?;
            *guard = Some(file.into());
        }
        let fd = guard.as_ref().expect("opened above").as_fd();
        let _lock = RangeLock::new(fd, 0, 8, true)?;
        let mut b = [0u8; 8];
        let n = pread_full(fd, &mut b, 0)?;
        let mut v = if n == 8 {
            MPI_Offset::from_le_bytes(b)
        } else {
            self.start
        };
        let old = (n == 8).then_some(v);
        let r = f(&mut v);
        if old != Some(v) {
            pwrite_all(fd, &v.to_le_bytes(), 0)?;
        }
        Ok(r)
    }

    /// Empties the hidden file if it exists, so the pointer is at 0 of a new view (rank 0,
    /// in `MPI_File_set_view`; no other rank touches the pointer meanwhile).
    pub fn reset(&self) -> io::Result<()> {
        match std::fs::OpenOptions::new().write(true).open(&self.path) {
            Ok(file) => {
                let fd: OwnedFd = file.into();
                let _lock = RangeLock::new(fd.as_fd(), 0, 8, true)?;
                pwrite_all(fd.as_fd(), &0i64.to_le_bytes(), 0)
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(e),
        }
    }
}

fn update<R>(f: &FileObj, g: impl FnOnce(&mut MPI_Offset) -> R) -> Result<R> {
    f.shared
        .update(g)
        .map_err(|e| posix::error("updating the shared file pointer of", &f.name, &e))
}

/// The shared pointer's position (etypes).
pub fn position(f: &FileObj) -> Result<MPI_Offset> {
    update(f, |v| *v)
}

/// Sets the shared pointer to `to` (etypes).
pub fn set_position(f: &FileObj, to: MPI_Offset) -> Result<()> {
    update(f, |v| *v = to)
}

/// Puts the shared pointer at 0 for a new view (rank 0 only; see [`SharedPointer::reset`]).
pub fn reset(f: &FileObj) -> Result<()> {
    f.shared
        .reset()
        .map_err(|e| posix::error("resetting the shared file pointer of", &f.name, &e))
}

/// Advances the shared pointer by `n` etypes; gives where it was.
pub fn fetch_add(f: &FileObj, n: MPI_Offset) -> Result<MPI_Offset> {
    update(f, |v| {
        let old = *v;
        *v += n;
        old
    })
}

fn seek_shared(f: &FileObj, offset: MPI_Offset, whence: c_int) -> Result<()> {
    // Every earlier shared-pointer access of every rank is done before rank 0 moves it.
    f.agree("seeking the shared file pointer", Ok(()))?;
    let r = (|| {
        if !matches!(whence, MPI_SEEK_SET | MPI_SEEK_CUR | MPI_SEEK_END) {
            return Err(MpiError::new(
                MPI_ERR_ARG,
                format!("invalid whence {whence}"),
            ));
        }
        if f.comm.rank() != 0 {
            return Ok(());
        }
        let end = if whence == MPI_SEEK_END {
            let size = posix::size(f.fd.as_fd())
                .map_err(|e| posix::error("reading the size of", &f.name, &e))?;
            f.view().end_in_etypes(size)
        } else {
            0
        };
        update(f, |p| {
            let to = match whence {
                MPI_SEEK_SET => offset,
                MPI_SEEK_CUR => *p + offset,
                _ => end + offset,
            };
            if to < 0 {
                return Err(MpiError::new(
                    MPI_ERR_ARG,
                    format!("seeking to negative position {to}"),
                ));
            }
            *p = to;
            Ok(())
        })?
    })();
    f.agree("seeking the shared file pointer", r)
}

const fn op(dir: Dir, at: At, collective: bool) -> Op {
    Op {
        dir,
        at,
        collective,
    }
}

mpi_fn! {
    /// Reads `count` `datatype` from the shared file pointer into `buf` and advances it by
    /// the data asked for (short at the end of the file: the status counts what was read).
    /// Blocks this rank only; accesses of several ranks are serialized in some order.
    /// Thread-safe. Errors (through the file's error handler): `MPI_ERR_FILE`,
    /// `MPI_ERR_ACCESS` (opened write-only), `MPI_ERR_TYPE`, `MPI_ERR_COUNT`, `MPI_ERR_IO`.
    fn MPI_File_read_shared(fh: MPI_File, buf: *mut c_void, count: c_int, datatype: MPI_Datatype,
        status: *mut MPI_Status) -> c_int => PMPI_File_read_shared
    {
        blocking("MPI_File_read_shared", fh, op(Dir::Read, At::Shared, false),
            (buf, count.into(), datatype), status)
    }

    /// Large-count `MPI_File_read_shared`.
    fn MPI_File_read_shared_c(fh: MPI_File, buf: *mut c_void, count: MPI_Count,
        datatype: MPI_Datatype, status: *mut MPI_Status) -> c_int => PMPI_File_read_shared_c
    {
        blocking("MPI_File_read_shared_c", fh, op(Dir::Read, At::Shared, false),
            (buf, count, datatype), status)
    }

    /// Writes `count` `datatype` from `buf` at the shared file pointer and advances it.
    /// As `MPI_File_read_shared`; `MPI_ERR_READ_ONLY` for a file opened read-only,
    /// `MPI_ERR_NO_SPACE` when the file system is full.
    fn MPI_File_write_shared(fh: MPI_File, buf: *const c_void, count: c_int,
        datatype: MPI_Datatype, status: *mut MPI_Status) -> c_int => PMPI_File_write_shared
    {
        blocking("MPI_File_write_shared", fh, op(Dir::Write, At::Shared, false),
            (buf, count.into(), datatype), status)
    }

    /// Large-count `MPI_File_write_shared`.
    fn MPI_File_write_shared_c(fh: MPI_File, buf: *const c_void, count: MPI_Count,
        datatype: MPI_Datatype, status: *mut MPI_Status) -> c_int => PMPI_File_write_shared_c
    {
        blocking("MPI_File_write_shared_c", fh, op(Dir::Write, At::Shared, false),
            (buf, count, datatype), status)
    }

    /// Non-blocking `MPI_File_read_shared`: done at once; `*request` is complete.
    fn MPI_File_iread_shared(fh: MPI_File, buf: *mut c_void, count: c_int,
        datatype: MPI_Datatype, request: *mut MPI_Request) -> c_int => PMPI_File_iread_shared
    {
        nonblocking("MPI_File_iread_shared", fh, op(Dir::Read, At::Shared, false),
            (buf, count.into(), datatype), request)
    }

    /// Large-count `MPI_File_iread_shared`.
    fn MPI_File_iread_shared_c(fh: MPI_File, buf: *mut c_void, count: MPI_Count,
        datatype: MPI_Datatype, request: *mut MPI_Request) -> c_int
        => PMPI_File_iread_shared_c
    {
        nonblocking("MPI_File_iread_shared_c", fh, op(Dir::Read, At::Shared, false),
            (buf, count, datatype), request)
    }

    /// Non-blocking `MPI_File_write_shared`: done at once; `*request` is complete.
    fn MPI_File_iwrite_shared(fh: MPI_File, buf: *const c_void, count: c_int,
        datatype: MPI_Datatype, request: *mut MPI_Request) -> c_int => PMPI_File_iwrite_shared
    {
        nonblocking("MPI_File_iwrite_shared", fh, op(Dir::Write, At::Shared, false),
            (buf, count.into(), datatype), request)
    }

    /// Large-count `MPI_File_iwrite_shared`.
    fn MPI_File_iwrite_shared_c(fh: MPI_File, buf: *const c_void, count: MPI_Count,
        datatype: MPI_Datatype, request: *mut MPI_Request) -> c_int
        => PMPI_File_iwrite_shared_c
    {
        nonblocking("MPI_File_iwrite_shared_c", fh, op(Dir::Write, At::Shared, false),
            (buf, count, datatype), request)
    }

    /// Collective: every rank reads its `count` `datatype` from the shared file pointer in
    /// rank order (rank 0's data first), and the pointer advances past all of it. Blocks until
    /// every rank's read is done; any rank's failure fails the call on every rank.
    fn MPI_File_read_ordered(fh: MPI_File, buf: *mut c_void, count: c_int,
        datatype: MPI_Datatype, status: *mut MPI_Status) -> c_int => PMPI_File_read_ordered
    {
        blocking("MPI_File_read_ordered", fh, op(Dir::Read, At::Ordered, true),
            (buf, count.into(), datatype), status)
    }

    /// Large-count `MPI_File_read_ordered`.
    fn MPI_File_read_ordered_c(fh: MPI_File, buf: *mut c_void, count: MPI_Count,
        datatype: MPI_Datatype, status: *mut MPI_Status) -> c_int => PMPI_File_read_ordered_c
    {
        blocking("MPI_File_read_ordered_c", fh, op(Dir::Read, At::Ordered, true),
            (buf, count, datatype), status)
    }

    /// Collective: every rank writes its data at the shared file pointer in rank order; as
    /// `MPI_File_read_ordered`.
    fn MPI_File_write_ordered(fh: MPI_File, buf: *const c_void, count: c_int,
        datatype: MPI_Datatype, status: *mut MPI_Status) -> c_int => PMPI_File_write_ordered
    {
        blocking("MPI_File_write_ordered", fh, op(Dir::Write, At::Ordered, true),
            (buf, count.into(), datatype), status)
    }

    /// Large-count `MPI_File_write_ordered`.
    fn MPI_File_write_ordered_c(fh: MPI_File, buf: *const c_void, count: MPI_Count,
        datatype: MPI_Datatype, status: *mut MPI_Status) -> c_int => PMPI_File_write_ordered_c
    {
        blocking("MPI_File_write_ordered_c", fh, op(Dir::Write, At::Ordered, true),
            (buf, count, datatype), status)
    }

    /// Collective: moves the shared file pointer to `offset` etypes from the start of the view
    /// (`MPI_SEEK_SET`), from where it is (`MPI_SEEK_CUR`) or from the end of the file
    /// (`MPI_SEEK_END`); every rank passes the same arguments. Blocks until every rank is in
    /// the call. Errors: `MPI_ERR_FILE`, `MPI_ERR_ARG` (bad whence, negative result).
    fn MPI_File_seek_shared(fh: MPI_File, offset: MPI_Offset, whence: c_int) -> c_int
        => PMPI_File_seek_shared
    {
        with_file("MPI_File_seek_shared", fh, |f| seek_shared(f, offset, whence))
    }

    /// Writes the shared file pointer's position (etypes of the view). Local, thread-safe.
    /// Errors: `MPI_ERR_FILE`, `MPI_ERR_ARG` (NULL), `MPI_ERR_IO` (the hidden file).
    fn MPI_File_get_position_shared(fh: MPI_File, offset: *mut MPI_Offset) -> c_int
        => PMPI_File_get_position_shared
    {
        with_file("MPI_File_get_position_shared", fh, |f| {
            non_null(offset, "offset")?;
            let p = position(f)?;
            // SAFETY: checked for NULL.
            unsafe { offset.write(p) };
            Ok(())
        })
    }
}
