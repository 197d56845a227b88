//! The open-file table and the state of one open file, and how errors of the I/O functions are
//! reported: through the file's error handler, or for `MPI_File_open`, `MPI_File_delete` and
//! calls on an invalid handle through the handler set on `MPI_FILE_NULL` (default
//! `MPI_ERRORS_RETURN`, MPI 4.1 §14.7).

use super::view::View;
use super::{MPI_ERR_FILE, MPI_File, MPI_Offset};
use crate::comm::info::Pairs;
use crate::consts::*;
use crate::errors::report::{MpiError, Result, raise_with};
use crate::request::status::MPI_Status;
use crate::table::{Table, USER_HANDLES};
use nexar_bind::boundary::Report;
use parking_lot::Mutex;
use std::ffi::c_int;
use std::os::fd::OwnedFd;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A split collective started by a `_begin` call and not yet ended.
pub struct Split {
    /// The `_end` function that must come next (`MPI_File_read_all_end`, ...).
    pub end: &'static str,
    /// The status the `_end` call returns.
    pub status: MPI_Status,
}

/// What may change on an open file.
pub struct FileState {
    /// The current view.
    pub view: Arc<View>,
    /// The individual file pointer, in etypes of the view.
    pub pos: MPI_Offset,
    /// Atomic mode (`MPI_File_set_atomicity`).
    pub atomic: bool,
    /// The hints given (open, `MPI_File_set_info`, `MPI_File_set_view`).
    pub hints: Pairs,
    /// The error handler.
    pub errhandler: MPI_Errhandler,
    /// The active split collective.
    pub split: Option<Split>,
}

/// An open file.
pub struct FileObj {
    /// The name as given to `MPI_File_open` (for messages).
    pub name: String,
    /// The path opened (the name without a file-system prefix such as `ufs:`).
    pub path: std::path::PathBuf,
    /// The descriptor.
    pub fd: OwnedFd,
    /// The access mode.
    pub amode: c_int,
    /// The file's own communicator (a duplicate of the one it was opened on).
    pub comm: nexar::Comm,
    /// The first rank (in `comm`) of each host, in rank order: the default aggregators of
    /// collective buffering ([`super::two_phase`]).
    pub hosts: Vec<u32>,
    /// The shared file pointer.
    pub shared: super::shared::SharedPointer,
    /// The mutable state.
    pub state: Mutex<FileState>,
}

impl FileObj {
    /// Whether the file was opened with `MPI_MODE_SEQUENTIAL`.
    pub fn sequential(&self) -> bool {
        self.amode & super::MPI_MODE_SEQUENTIAL != 0
    }

    /// `MPI_ERR_UNSUPPORTED_OPERATION` for a file opened `MPI_MODE_SEQUENTIAL` (explicit
    /// offsets and individual pointers need random access).
    pub fn random_access(&self) -> Result<()> {
        if self.sequential() {
            return Err(MpiError::new(
                MPI_ERR_UNSUPPORTED_OPERATION,
                format!(
                    "file `{}` was opened with MPI_MODE_SEQUENTIAL: only shared-pointer access",
                    self.name
                ),
            ));
        }
        Ok(())
    }

    /// The current view.
    pub fn view(&self) -> Arc<View> {
        self.state.lock().view.clone()
    }

    /// Agrees on the outcome of a collective step: every rank passes its own result and gets
    /// its own error back, or, if only another rank failed, an error of that rank's class.
    pub fn agree<T>(&self, what: &str, r: Result<T>) -> Result<T> {
        agree(&self.comm, &self.name, what, r)
    }
}

/// [`FileObj::agree`] on communicator `c` for the file called `name`.
pub fn agree<T>(c: &nexar::Comm, name: &str, what: &str, r: Result<T>) -> Result<T> {
    let mine = r.as_ref().err().map_or(0, |e| e.class);
    let mut worst = [mine];
    c.allreduce_blocking(&mut worst, nexar::ReduceOp::Max)?;
    match r {
        Err(e) => Err(e),
        Ok(_) if worst[0] != 0 => Err(MpiError::new(
            worst[0],
            format!("{what} of `{name}` failed on another rank"),
        )),
        Ok(v) => Ok(v),
    }
}

static FILES: Mutex<Table<Arc<FileObj>>> = Mutex::new(Table::new(USER_HANDLES));

/// The error handler of `MPI_FILE_NULL`: that of files opened from now on, and of the calls
/// that have no file.
static NULL_ERRHANDLER: AtomicUsize = AtomicUsize::new(MPI_ERRORS_RETURN);

/// The open file behind `fh`, or `MPI_ERR_FILE`.
pub fn file(fh: MPI_File) -> Result<Arc<FileObj>> {
    FILES.lock().get(fh).cloned().ok_or_else(|| {
        if fh == MPI_FILE_NULL {
            MpiError::new(MPI_ERR_FILE, "file is MPI_FILE_NULL")
        } else {
            MpiError::new(MPI_ERR_FILE, format!("invalid or closed file {fh:#x}"))
        }
    })
}

/// Registers an open file and gives its handle.
pub fn insert(f: FileObj) -> Result<MPI_File> {
    FILES
        .lock()
        .insert(Arc::new(f))
        .ok_or_else(|| MpiError::new(MPI_ERR_NO_MEM, "too many open files"))
}

/// Removes `fh` from the table (`MPI_File_close`).
pub fn remove(fh: MPI_File) -> Option<Arc<FileObj>> {
    FILES.lock().remove(fh)
}

/// Whether `fh` is an open file (for `MPI_File_fromint`).
pub fn is_live(fh: MPI_File) -> bool {
    FILES.lock().get(fh).is_some()
}

/// The error handler of `fh` (`MPI_FILE_NULL` and invalid handles: the `MPI_FILE_NULL` one).
pub fn errhandler_of(fh: MPI_File) -> MPI_Errhandler {
    match FILES.lock().get(fh) {
        Some(f) => f.state.lock().errhandler,
        None => NULL_ERRHANDLER.load(Ordering::Relaxed),
    }
}

/// Sets the error handler of `fh`, or the default one for `MPI_FILE_NULL`.
pub fn set_errhandler(fh: MPI_File, h: MPI_Errhandler) -> Result<()> {
    if fh == MPI_FILE_NULL {
        NULL_ERRHANDLER.store(h, Ordering::Relaxed);
    } else {
        file(fh)?.state.lock().errhandler = h;
    }
    Ok(())
}

/// The error handler a newly opened file starts with.
pub fn default_errhandler() -> MPI_Errhandler {
    NULL_ERRHANDLER.load(Ordering::Relaxed)
}

/// Reports `e` raised by `func` on file `fh` through its error handler.
pub fn raise(func: &str, fh: MPI_File, e: MpiError) -> c_int {
    raise_with(func, errhandler_of(fh), fh, e)
}

/// The I/O functions' [`Report`]: errors of file `.0` go through its error handler, or the
/// handler `.1` when given (the one a file had before `MPI_File_close` removed it).
struct OnFile(MPI_File, Option<MPI_Errhandler>);

impl Report for OnFile {
    type Error = MpiError;
    const SUCCESS: c_int = MPI_SUCCESS;

    fn internal(&self, message: String) -> MpiError {
        MpiError::new(MPI_ERR_INTERN, message)
    }

    fn fail(&self, func: &str, e: MpiError) -> c_int {
        match self.1 {
            Some(h) => raise_with(func, h, self.0, e),
            None => raise(func, self.0, e),
        }
    }
}

/// Runs `f` as the body of `func`, whose errors belong to file `fh` (`MPI_FILE_NULL` for the
/// calls without a file), inside [`nexar_bind::boundary::call`].
pub fn call(func: &str, fh: MPI_File, f: impl FnOnce() -> Result<()>) -> c_int {
    nexar_bind::boundary::call(OnFile(fh, None), func, f)
}

/// [`call`] whose errors go through `handler` (for `MPI_File_close`, which removes the file
/// before it can fail).
pub fn call_with(
    func: &str,
    fh: MPI_File,
    handler: MPI_Errhandler,
    f: impl FnOnce() -> Result<()>,
) -> c_int {
    nexar_bind::boundary::call(OnFile(fh, Some(handler)), func, f)
}

/// Runs `f` with the open file `fh` as the body of `func` (see [`call`]).
pub fn with_file(func: &str, fh: MPI_File, f: impl FnOnce(&FileObj) -> Result<()>) -> c_int {
    call(func, fh, || f(&*file(fh)?))
}
