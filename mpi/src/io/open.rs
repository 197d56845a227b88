//! `MPI_File_open`, `MPI_File_close` and `MPI_File_delete`.
//!
//! Opening is collective and agreed: every rank checks its arguments, the ranks agree, rank 0 opens
//! (and creates, exclusively if asked) the file and picks the token that names the shared pointer's
//! hidden file, the ranks agree on that, then the others open it and the ranks agree once more.
//! Each agreement is an allreduce of the error class, so a failure anywhere fails the call on every
//! rank (the failing rank's error names the file and the system error; the others say a rank
//! failed) and no rank keeps the file open. The file gets a duplicate of the communicator, so its
//! collective steps never mix with the program's messages.

use super::file::{FileObj, FileState, agree, call, call_with, errhandler_of, file};
use super::posix;
use super::shared::{SharedPointer, hidden_path};
use super::view::View;
use super::*;
use crate::comm::communicator::MPI_Info;
use crate::comm::info;
use crate::consts::*;
use crate::errors::report::{MpiError, Result, non_null};
use parking_lot::Mutex;
use std::ffi::{CStr, c_char};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Every access-mode bit.
const ALL_MODES: c_int = MPI_MODE_APPEND
    | MPI_MODE_CREATE
    | MPI_MODE_DELETE_ON_CLOSE
    | MPI_MODE_EXCL
    | MPI_MODE_RDONLY
    | MPI_MODE_RDWR
    | MPI_MODE_SEQUENTIAL
    | MPI_MODE_UNIQUE_OPEN
    | MPI_MODE_WRONLY;

/// `MPI_ERR_AMODE` unless `amode` is a valid access mode (MPI 4.1 §14.2.1): exactly one of
/// `RDONLY`, `RDWR`, `WRONLY`; no `CREATE` or `EXCL` with `RDONLY`; no `SEQUENTIAL` with
/// `RDWR`; no unknown bits.
pub fn check_amode(amode: c_int) -> Result<()> {
    let bad = |why: &str| {
        Err(MpiError::new(
            MPI_ERR_AMODE,
            format!("invalid access mode {amode:#x}: {why}"),
        ))
    };
    if amode & !ALL_MODES != 0 {
        return bad("unknown bits");
    }
    let rw = [MPI_MODE_RDONLY, MPI_MODE_RDWR, MPI_MODE_WRONLY]
        .iter()
        .filter(|&&m| amode & m != 0)
        .count();
    if rw != 1 {
        return bad("exactly one of MPI_MODE_RDONLY, MPI_MODE_RDWR, MPI_MODE_WRONLY is needed");
    }
    if amode & MPI_MODE_RDONLY != 0 && amode & (MPI_MODE_CREATE | MPI_MODE_EXCL) != 0 {
        return bad("MPI_MODE_RDONLY with MPI_MODE_CREATE or MPI_MODE_EXCL");
    }
    if amode & MPI_MODE_RDWR != 0 && amode & MPI_MODE_SEQUENTIAL != 0 {
        return bad("MPI_MODE_SEQUENTIAL with MPI_MODE_RDWR");
    }
    Ok(())
}

/// The path of file name `name`: without a ROMIO-style file-system prefix (`ufs:`, `nfs:`,
/// ...), which names how to reach the file, not where it is.
pub fn path_of(name: &str) -> PathBuf {
    const PREFIXES: &[&str] = &[
        "ufs:", "nfs:", "lustre:", "gpfs:", "pvfs2:", "panfs:", "xfs:", "daos:", "testfs:",
    ];
    let rest = PREFIXES
        .iter()
        .find_map(|p| name.strip_prefix(p))
        .unwrap_or(name);
    PathBuf::from(rest)
}

/// Opens `path` with the access mode's read/write flags; `first` adds the creation flags
/// (rank 0 only: the others open what it created).
fn open_path(path: &Path, amode: c_int, first: bool) -> std::io::Result<OwnedFd> {
    let mut o = std::fs::OpenOptions::new();
    o.read(amode & MPI_MODE_WRONLY == 0)
        .write(amode & MPI_MODE_RDONLY == 0);
    if first && amode & MPI_MODE_CREATE != 0 {
        if amode & MPI_MODE_EXCL != 0 {
            o.create_new(true);
        } else {
            o.create(true);
        }
    } else if first && amode & MPI_MODE_EXCL != 0 {
        // EXCL without CREATE: the file must not exist, and is not made.
        if path.exists() {
            return Err(std::io::Error::from_raw_os_error(libc::EEXIST));
        }
    }
    o.mode(0o666);
    Ok(o.open(path)?.into())
}

/// A token that tells this open of a file from any other (the shared pointer's file).
fn token() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    t ^ (u64::from(std::process::id()) << 32) ^ COUNT.fetch_add(1, Ordering::Relaxed)
}

fn open(
    comm_h: MPI_Comm,
    filename: *const c_char,
    amode: c_int,
    info_h: MPI_Info,
    fh: *mut MPI_File,
) -> Result<()> {
    non_null(fh, "fh")?;
    let c = crate::state::comm(comm_h)?;
    if c.is_inter() {
        return Err(MpiError::new(
            MPI_ERR_COMM,
            "files are opened on intracommunicators only",
        ));
    }
    let c = c.dup_blocking()?;
    let local = (|| {
        non_null(filename, "filename")?;
        // SAFETY: non-NULL, NUL-terminated per the MPI contract.
        let name = unsafe { CStr::from_ptr(filename) }
            .to_string_lossy()
            .into_owned();
        check_amode(amode)?;
        Ok((name, info::pairs_or_empty(info_h)?))
    })();
    let (name, given) = agree(&c, "the file", "opening", local)?;
    let path = path_of(&name);
    let opening =
        |first| open_path(&path, amode, first).map_err(|e| posix::error("opening", &name, &e));
    // Rank 0 opens (creates) the file and names the shared pointer's file.
    let mut tok = [0u64];
    let first = if c.rank() == 0 {
        tok[0] = token();
        opening(true).map(Some)
    } else {
        Ok(None)
    };
    let first = agree(&c, &name, "opening", first)?;
    c.bcast_blocking(&mut tok, 0)?;
    let fd = match first {
        Some(fd) => Ok(fd),
        None => opening(false),
    };
    let fd = agree(&c, &name, "opening", fd)?;
    let start = initial_pointer(&fd, amode);
    let shared = SharedPointer::new(hidden_path(&path, tok[0]), start);
    let hosts = host_leaders(&c)?;
    let mut hints = super::manage::default_hints(hosts.len());
    super::manage::merge_hints(&mut hints, given);
    let obj = FileObj {
        name,
        path,
        amode,
        comm: c,
        hosts,
        shared,
        state: Mutex::new(FileState {
            view: Arc::new(View::default_view()),
            pos: start,
            atomic: false,
            hints,
            errhandler: super::file::default_errhandler(),
            split: None,
        }),
        fd,
    };
    let h = super::file::insert(obj)?;
    // SAFETY: checked for NULL; writable per the MPI contract.
    unsafe { fh.write(h) };
    Ok(())
}

/// The first rank of each host of `c`, in rank order.
fn host_leaders(c: &nexar::Comm) -> Result<Vec<u32>> {
    let local = c.split_by_host_blocking(0)?;
    let mine = [u8::from(local.rank() == 0)];
    let mut all = vec![0u8; c.size() as usize];
    c.allgather_blocking(&mine, &mut all)?;
    Ok((0..c.size()).filter(|&r| all[r as usize] == 1).collect())
}

/// Where the file pointers start: at the end of the file with `MPI_MODE_APPEND` (the default
/// view counts bytes), else at 0.
fn initial_pointer(fd: &OwnedFd, amode: c_int) -> MPI_Offset {
    if amode & MPI_MODE_APPEND == 0 {
        return 0;
    }
    posix::size(fd.as_fd()).map_or(0, |s| s as MPI_Offset)
}

fn close(fh: *mut MPI_File) -> Result<()> {
    // SAFETY: checked for NULL by the caller.
    let h = unsafe { fh.read() };
    let f = file(h)?;
    // Every rank is done with the file before rank 0 removes anything.
    let r = f.agree("closing", Ok(()));
    super::file::remove(h);
    // SAFETY: as above.
    unsafe { fh.write(MPI_FILE_NULL) };
    r?;
    let removed = if f.comm.rank() == 0 {
        remove_files(&f)
    } else {
        Ok(())
    };
    f.agree("closing", removed)
}

/// Rank 0's part of closing: the shared pointer's file, and the file itself with
/// `MPI_MODE_DELETE_ON_CLOSE`.
fn remove_files(f: &FileObj) -> Result<()> {
    let hidden = match std::fs::remove_file(&f.shared.path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(posix::error(
            "removing the shared file pointer of",
            &f.name,
            &e,
        )),
        _ => Ok(()),
    };
    if f.amode & MPI_MODE_DELETE_ON_CLOSE != 0 {
        std::fs::remove_file(&f.path).map_err(|e| posix::error("deleting", &f.name, &e))?;
    }
    hidden
}

fn delete(filename: *const c_char, info_h: MPI_Info) -> Result<()> {
    non_null(filename, "filename")?;
    info::pairs_or_empty(info_h)?;
    // SAFETY: non-NULL, NUL-terminated per the MPI contract.
    let name = unsafe { CStr::from_ptr(filename) }
        .to_string_lossy()
        .into_owned();
    std::fs::remove_file(path_of(&name)).map_err(|e| posix::error("deleting", &name, &e))
}

mpi_fn! {
    /// Opens file `filename` on every rank of intracommunicator `comm` with access mode
    /// `amode` (`MPI_MODE_RDONLY` / `RDWR` / `WRONLY`, with `CREATE`, `EXCL`, `APPEND`,
    /// `DELETE_ON_CLOSE`, `UNIQUE_OPEN`, `SEQUENTIAL`) and hints `info`; writes the new file
    /// handle (the caller closes it with `MPI_File_close`). Collective: blocks until every rank
    /// has opened it, and fails on every rank if any rank fails (no rank keeps it open).
    /// The view is bytes from offset 0; pointers start at 0, or at the end with `APPEND`.
    /// Thread-safe. Errors (through `MPI_FILE_NULL`'s error handler, `MPI_ERRORS_RETURN`
    /// unless set): `MPI_ERR_AMODE`, `MPI_ERR_NO_SUCH_FILE`, `MPI_ERR_FILE_EXISTS` (`EXCL`),
    /// `MPI_ERR_ACCESS`, `MPI_ERR_READ_ONLY`, `MPI_ERR_BAD_FILE`, `MPI_ERR_NO_SPACE`,
    /// `MPI_ERR_IO`, `MPI_ERR_COMM`, `MPI_ERR_INFO`, `MPI_ERR_ARG`; the message names the file
    /// and the system error.
    fn MPI_File_open(comm: MPI_Comm, filename: *const c_char, amode: c_int, info: MPI_Info,
        fh: *mut MPI_File) -> c_int => PMPI_File_open
    {
        call("MPI_File_open", MPI_FILE_NULL, || open(comm, filename, amode, info, fh))
    }

    /// Closes `*fh` on every rank of its group and sets it to `MPI_FILE_NULL` (also when the
    /// call fails); deletes the file with `MPI_MODE_DELETE_ON_CLOSE`. Collective: blocks until
    /// every rank has closed it. Data written is in the file system (not necessarily on
    /// storage: `MPI_File_sync` flushes). Thread-safe for distinct files. Errors (through the
    /// file's error handler): `MPI_ERR_FILE`, `MPI_ERR_ARG` (NULL), `MPI_ERR_IO` and the
    /// other I/O classes (deleting).
    fn MPI_File_close(fh: *mut MPI_File) -> c_int => PMPI_File_close {
        let h = if fh.is_null() { MPI_FILE_NULL } else {
            // SAFETY: not NULL; readable per the MPI contract.
            unsafe { fh.read() }
        };
        call_with("MPI_File_close", h, errhandler_of(h), || {
            non_null(fh, "fh")?;
            close(fh)
        })
    }

    /// Deletes file `filename` (a file-system prefix such as `ufs:` is accepted). Local; not
    /// collective. Thread-safe. Errors (through `MPI_FILE_NULL`'s error handler):
    /// `MPI_ERR_NO_SUCH_FILE`, `MPI_ERR_ACCESS`, `MPI_ERR_READ_ONLY`, `MPI_ERR_BAD_FILE`,
    /// `MPI_ERR_FILE_IN_USE`, `MPI_ERR_IO`, `MPI_ERR_INFO`, `MPI_ERR_ARG`.
    fn MPI_File_delete(filename: *const c_char, info: MPI_Info) -> c_int => PMPI_File_delete {
        call("MPI_File_delete", MPI_FILE_NULL, || delete(filename, info))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn access_modes_are_checked() {
        assert!(check_amode(MPI_MODE_RDONLY).is_ok());
        assert!(check_amode(MPI_MODE_WRONLY | MPI_MODE_CREATE | MPI_MODE_EXCL).is_ok());
        assert!(check_amode(MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL).is_ok());
        for bad in [
            0,
            MPI_MODE_RDONLY | MPI_MODE_WRONLY,
            MPI_MODE_RDONLY | MPI_MODE_CREATE,
            MPI_MODE_RDONLY | MPI_MODE_EXCL,
            MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL,
            MPI_MODE_RDWR | 0x4000,
        ] {
            assert_eq!(
                check_amode(bad).unwrap_err().class,
                MPI_ERR_AMODE,
                "{bad:#x}"
            );
        }
    }

    #[test]
    fn file_system_prefixes_are_dropped() {
        assert_eq!(path_of("ufs:/tmp/a"), PathBuf::from("/tmp/a"));
        assert_eq!(path_of("/tmp/b:c"), PathBuf::from("/tmp/b:c"));
    }
}
