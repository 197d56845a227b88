//! One data access, the step every read and write function shares: `count` instances of a
//! datatype in memory moved to or from a view's data stream at an etype position (packed,
//! converted for `external32`, mapped onto file byte runs, read or written with the POSIX
//! calls, under a byte-range lock in atomic mode), and the drivers the entry points call:
//! blocking, non-blocking (done at once, a completed request) and split collective.

use super::file::{FileObj, Split, with_file};
use super::posix::{self, RangeLock};
use super::two_phase;
use super::view::{Rep, View, check_ext32};
use super::*;
use crate::consts::*;
use crate::datatype::ext32::{from_ext, to_ext};
use crate::datatype::layout::Type;
use crate::datatype::pack::{pack, packed_len, unpack};
use crate::datatype::registry;
use crate::errors::report::{MpiError, Result, non_null};
use crate::request::status::{MPI_Status, store};
use crate::request::table::{MPI_Request, store_request};
use std::borrow::Cow;
use std::ffi::c_void;
use std::os::fd::AsFd;
use std::sync::Arc;

/// Reading or writing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    /// File to memory.
    Read,
    /// Memory to file.
    Write,
}

/// Where an access starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum At {
    /// An explicit offset (etypes).
    Offset(MPI_Offset),
    /// The individual file pointer (advanced by the data moved).
    Individual,
    /// The shared file pointer (advanced by the data asked for).
    Shared,
    /// The shared file pointer, in rank order (collective).
    Ordered,
}

/// One data access function's kind.
#[derive(Debug, Clone, Copy)]
pub struct Op {
    /// Reading or writing.
    pub dir: Dir,
    /// Where it starts.
    pub at: At,
    /// Collective: the ranks agree on the outcome (a rank's failure fails the call everywhere).
    pub collective: bool,
}

/// The status of an access that moved `bytes` bytes.
pub fn status_of(bytes: usize) -> MPI_Status {
    MPI_Status::new(MPI_PROC_NULL, MPI_ANY_TAG, bytes, MPI_SUCCESS)
}

/// The packed file bytes of `count` instances of `ty` at `buf` (`len` bytes), converted to
/// `external32` if `ext32`: the user's memory itself when it is already that.
fn outgoing<'a>(
    (buf, count, ty): (*const c_void, usize, &Type),
    len: usize,
    ext32: bool,
) -> Result<Cow<'a, [u8]>> {
    let native: Cow<'a, [u8]> = if ty.dense(count) {
        // SAFETY: the buffer holds `count` instances (the MPI contract); dense means they are
        // the `len` bytes from `buf`.
        Cow::Borrowed(unsafe { std::slice::from_raw_parts(buf.cast::<u8>(), len) })
    } else {
        let mut v = Vec::with_capacity(len);
        // SAFETY: the typemap is readable per the MPI contract.
        unsafe { pack(buf as usize, count, ty, &mut v) };
        Cow::Owned(v)
    };
    if !ext32 {
        return Ok(native);
    }
    let mut out = Vec::with_capacity(len);
    to_ext(&native, ty, &mut out)?;
    Ok(Cow::Owned(out))
}

/// Stores the first `got` bytes of `data` (packed file bytes read, converted from
/// `external32` if `ext32`) into `count` instances of `ty` at `buf`.
fn incoming(
    mut data: Vec<u8>,
    got: usize,
    (buf, count, ty): (*const c_void, usize, &Type),
    ext32: bool,
) -> Result<()> {
    if ext32 {
        let mut native = vec![0u8; data.len()];
        from_ext(&data, ty, &mut native)?;
        data = native;
    }
    // SAFETY: the typemap is writable per the MPI contract and not aliased by `data`.
    unsafe { unpack(&data[..got], buf as usize, count, ty) };
    Ok(())
}

/// `MPI_ERR_BUFFER` for a NULL buffer that would be used at address 0.
fn check_buffer(buf: *const c_void, ty: &Type, len: usize) -> Result<()> {
    if len > 0 && buf.is_null() && ty.true_lb == 0 {
        return Err(MpiError::new(MPI_ERR_BUFFER, "buffer is NULL"));
    }
    Ok(())
}

/// Moves `count` instances of `ty` at `buf` to or from view `v` at stream byte position
/// `start`, this rank alone; gives the bytes moved (a read past the end of the file moves
/// fewer).
fn transfer(
    f: &FileObj,
    v: &View,
    dir: Dir,
    start: u64,
    (buf, count, ty): (*const c_void, usize, &Type),
    len: usize,
) -> Result<usize> {
    check_buffer(buf, ty, len)?;
    if len == 0 {
        return Ok(0);
    }
    let ext32 = v.rep == Rep::External32;
    if ext32 {
        check_ext32(ty, "buffer's datatype")?;
    }
    let runs = v.runs(start, len)?;
    let fd = f.fd.as_fd();
    let _lock = if f.state.lock().atomic {
        let lo = runs.iter().map(|r| r.0).min().unwrap_or(0);
        let hi = runs.iter().map(|r| r.0 + r.1 as u64).max().unwrap_or(0);
        let lock = RangeLock::new(fd, lo, hi - lo, dir == Dir::Write);
        Some(lock.map_err(|e| posix::error("locking", &f.name, &e))?)
    } else {
        None
    };
    let mem = (buf, count, ty);
    match dir {
        Dir::Write => {
            let data = outgoing(mem, len, ext32)?;
            posix::write_runs(fd, &runs, &data)
                .map_err(|e| posix::error("writing", &f.name, &e))?;
            Ok(len)
        }
        Dir::Read => {
            let read = |out: &mut [u8]| {
                posix::read_runs(fd, &runs, out).map_err(|e| posix::error("reading", &f.name, &e))
            };
            if ty.dense(count) && !ext32 {
                // SAFETY: as in `outgoing`; the buffer is writable per the MPI contract.
                let out = unsafe { std::slice::from_raw_parts_mut(buf as *mut u8, len) };
                return read(out);
            }
            let mut data = vec![0u8; len];
            let got = read(&mut data)?;
            incoming(data, got, mem, ext32)?;
            Ok(got)
        }
    }
}

/// A collective access at an explicit offset or the individual pointer: every rank prepares
/// its runs (and data), the ranks agree, then [`two_phase`] moves the data, and the ranks
/// agree on the outcome.
fn collective(
    f: &FileObj,
    op: Op,
    local: Result<(Arc<Type>, usize, Arc<View>)>,
    buf: *const c_void,
    count: MPI_Count,
) -> Result<MPI_Status> {
    let what = if op.dir == Dir::Read {
        "a collective read"
    } else {
        "a collective write"
    };
    let prep = local.and_then(|(ty, len, v)| {
        let pos = match op.at {
            At::Offset(o) => o,
            _ => f.state.lock().pos,
        };
        let start = v.stream_pos(pos)?;
        check_buffer(buf, &ty, len)?;
        let ext32 = v.rep == Rep::External32;
        if ext32 && len > 0 {
            check_ext32(&ty, "buffer's datatype")?;
        }
        let runs = v.runs(start, len)?;
        let data = match op.dir {
            Dir::Write if len > 0 => Some(outgoing((buf, count as usize, &ty), len, ext32)?),
            _ => None,
        };
        Ok((ty, len, v, pos, runs, data, ext32))
    });
    let (ty, len, v, pos, runs, data, ext32) = f.agree(what, prep)?;
    let moved = match op.dir {
        Dir::Write => two_phase::write(f, &runs, data.as_deref().unwrap_or_default()).map(|()| len),
        Dir::Read if len > 0 && ty.dense(count as usize) && !ext32 => {
            // SAFETY: as in `outgoing`; the buffer is writable per the MPI contract.
            let out = unsafe { std::slice::from_raw_parts_mut(buf as *mut u8, len) };
            two_phase::read(f, &runs, out)
        }
        Dir::Read => {
            let mut d = vec![0u8; len];
            two_phase::read(f, &runs, &mut d).and_then(|got| {
                incoming(d, got, (buf, count as usize, &ty), ext32)?;
                Ok(got)
            })
        }
    };
    let moved = f.agree(what, moved)?;
    if op.at == At::Individual {
        f.state.lock().pos = pos + (moved as u64 / v.esize()) as MPI_Offset;
    }
    Ok(status_of(moved))
}

/// Does access `op` of file `f`: checks the access mode, finds the start, moves the data,
/// advances the pointer and, for a collective, agrees on the outcome. Gives the status.
pub fn perform(
    f: &FileObj,
    op: Op,
    buf: *const c_void,
    count: MPI_Count,
    dt: MPI_Datatype,
) -> Result<MPI_Status> {
    let local = (|| {
        if op.dir == Dir::Write && f.amode & MPI_MODE_RDONLY != 0 {
            return Err(MpiError::new(
                MPI_ERR_READ_ONLY,
                format!("file `{}` was opened MPI_MODE_RDONLY", f.name),
            ));
        }
        if op.dir == Dir::Read && f.amode & MPI_MODE_WRONLY != 0 {
            return Err(MpiError::new(
                MPI_ERR_ACCESS,
                format!("file `{}` was opened MPI_MODE_WRONLY", f.name),
            ));
        }
        if matches!(op.at, At::Offset(_) | At::Individual) {
            f.random_access()?;
        }
        let ty = registry::committed(dt)?;
        let len = packed_len(count, &ty, "buffer")?;
        let v = f.view();
        let esize = v.esize() as usize;
        if len % esize != 0 {
            return Err(MpiError::new(
                MPI_ERR_ARG,
                format!("{len} bytes of data are not a whole number of etypes of {esize} bytes"),
            ));
        }
        Ok((ty, len, v))
    })();
    if op.at == At::Ordered {
        return ordered(f, op, local, buf, count);
    }
    if op.collective {
        return collective(f, op, local, buf, count);
    }
    local.and_then(|(ty, len, v)| {
        let esize = v.esize();
        let etypes = (len as u64 / esize) as MPI_Offset;
        let pos = match op.at {
            At::Offset(o) => o,
            At::Individual => f.state.lock().pos,
            At::Shared => super::shared::fetch_add(f, etypes)?,
            At::Ordered => unreachable!("ordered accesses are handled above"),
        };
        let start = v.stream_pos(pos)?;
        let moved = transfer(f, &v, op.dir, start, (buf, count as usize, &ty), len)?;
        if op.at == At::Individual {
            f.state.lock().pos = pos + (moved as u64 / esize) as MPI_Offset;
        }
        Ok(status_of(moved))
    })
}

/// The ordered access (`MPI_File_read_ordered`, ...): the ranks gather each other's sizes
/// (each starts after the ranks before it), rank 0 advances the shared pointer once by the
/// total and broadcasts where it was.
fn ordered(
    f: &FileObj,
    op: Op,
    local: Result<(Arc<Type>, usize, Arc<View>)>,
    buf: *const c_void,
    count: MPI_Count,
) -> Result<MPI_Status> {
    let (ty, len, v) = f.agree("an ordered access", local)?;
    let etypes = (len as u64 / v.esize()) as i64;
    let (rank, size) = (f.comm.rank() as usize, f.comm.size() as usize);
    let mut all = vec![0i64; size];
    f.comm.allgather_blocking(&[etypes], &mut all)?;
    let before: i64 = all[..rank].iter().sum();
    let total: i64 = all.iter().sum();
    let base = if rank == 0 {
        super::shared::fetch_add(f, total)
    } else {
        Ok(0)
    };
    let mut base = [f.agree("advancing the shared file pointer", base)?];
    f.comm.bcast_blocking(&mut base, 0)?;
    let r = v.stream_pos(base[0] + before).and_then(|start| {
        transfer(f, &v, op.dir, start, (buf, count as usize, &ty), len).map(status_of)
    });
    f.agree("an ordered access", r)
}

/// The body of a blocking data access function `func`.
pub fn blocking(
    func: &str,
    fh: MPI_File,
    op: Op,
    (buf, count, dt): (*const c_void, MPI_Count, MPI_Datatype),
    status: *mut MPI_Status,
) -> c_int {
    with_file(func, fh, |f| {
        let st = perform(f, op, buf, count, dt)?;
        store(status, st);
        Ok(())
    })
}

/// The body of a non-blocking data access function `func`: the access is done at once and
/// `*request` is a completed request carrying its status. A collective one does not agree
/// with the other ranks (so it never waits for them).
pub fn nonblocking(
    func: &str,
    fh: MPI_File,
    op: Op,
    (buf, count, dt): (*const c_void, MPI_Count, MPI_Datatype),
    request: *mut MPI_Request,
) -> c_int {
    with_file(func, fh, |f| {
        non_null(request, "request")?;
        let op = Op {
            collective: false,
            ..op
        };
        let st = perform(f, op, buf, count, dt)?;
        store_request(request, MPI_COMM_SELF, nexar::Request::ready(Ok(Some(st))))
    })
}

/// The body of a split collective's `_begin` function `func`: the collective access is done
/// now, and its status kept for `end` (the matching `_end` function).
pub fn begin(
    func: &str,
    fh: MPI_File,
    op: Op,
    (buf, count, dt): (*const c_void, MPI_Count, MPI_Datatype),
    end: &'static str,
) -> c_int {
    with_file(func, fh, |f| {
        if let Some(s) = &f.state.lock().split {
            return Err(MpiError::new(
                MPI_ERR_OTHER,
                format!(
                    "a split collective is active on this file: call {} first",
                    s.end
                ),
            ));
        }
        let status = perform(f, op, buf, count, dt)?;
        f.state.lock().split = Some(Split { end, status });
        Ok(())
    })
}

/// The body of a split collective's `_end` function `func`: writes the status of the access
/// its `_begin` did.
pub fn end(func: &'static str, fh: MPI_File, status: *mut MPI_Status) -> c_int {
    with_file(func, fh, |f| {
        let mut st = f.state.lock();
        match st.split.take() {
            Some(s) if s.end == func => {
                store(status, s.status);
                Ok(())
            }
            other => {
                let what = other.as_ref().map_or("none is active", |s| s.end);
                st.split = other;
                Err(MpiError::new(
                    MPI_ERR_OTHER,
                    format!("{func} does not end the active split collective ({what})"),
                ))
            }
        }
    })
}
