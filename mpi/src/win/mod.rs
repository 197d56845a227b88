//! One-sided communication (MPI RMA): windows over the engine's [`nexar::rma::Window`].
//!
//! * [`create`]: `MPI_Win_create`, `_allocate`, `_allocate_shared`, `_create_dynamic`,
//!   `_shared_query`, `_attach`, `_detach`, `_free`;
//! * [`props`]: group, name, info, attributes (the predefined `MPI_WIN_BASE`, `SIZE`,
//!   `DISP_UNIT`, `CREATE_FLAVOR`, `MODEL` and user keyvals), error handlers;
//! * [`ops`]: `MPI_Put`, `MPI_Get`, the accumulates, `MPI_Fetch_and_op`,
//!   `MPI_Compare_and_swap` and their request forms;
//! * [`sync`]: fence, post / start / complete / wait / test, locks, flushes, `MPI_Win_sync`.
//!
//! The engine does the work (shared areas, locks, epochs, data movement); this family checks
//! and translates handles, datatypes and ops. Every operation completes locally when it
//! returns (the engine copies the origin data at issue time; between hosts a write completes at
//! the target by the next flush, unlock or fence), so the request forms return completed
//! requests. Among ranks of one host windows share memory; over a communicator that spans hosts
//! they are served by active messages, and only `MPI_Win_allocate_shared` fails there, with
//! `MPI_ERR_UNSUPPORTED_OPERATION` (see [`nexar::rma`]).
//!
//! Errors of a function on a window go through the window's error handler, which is
//! `MPI_ERRORS_ARE_FATAL` until `MPI_Win_set_errhandler` changes it; errors of the creation
//! functions go through the communicator's.

pub mod create;
pub mod ops;
pub mod props;
pub mod sync;

use crate::consts::*;
use crate::errors::report::{MpiError, Result, raise_with};
use crate::table::{Table, USER_HANDLES};
use nexar::rma::Window;
use nexar_bind::boundary::Report;
use parking_lot::Mutex;
use std::cell::RefCell;
use std::ffi::c_int;
use std::sync::atomic::{AtomicU64, Ordering};

/// The standard ABI's `MPI_Win` (a pointer-sized handle).
pub type MPI_Win = usize;

/// The values the predefined attributes point to (boxed: their addresses stay put).
pub struct Fixed {
    /// `MPI_WIN_BASE`: the value is the base address itself.
    pub base: usize,
    /// `MPI_WIN_SIZE`.
    pub size: MPI_Aint,
    /// `MPI_WIN_DISP_UNIT`.
    pub disp_unit: c_int,
    /// `MPI_WIN_CREATE_FLAVOR`.
    pub flavor: c_int,
    /// `MPI_WIN_MODEL` (always `MPI_WIN_UNIFIED`).
    pub model: c_int,
}

/// A live window.
pub struct WinEntry {
    /// The engine window.
    pub win: Window,
    /// Its error handler.
    pub errhandler: MPI_Errhandler,
    /// Its name (`MPI_Win_set_name`).
    pub name: Vec<u8>,
    /// The info hints given at creation and by `MPI_Win_set_info`.
    pub info: crate::comm::info::Pairs,
    /// What the predefined attributes point to.
    pub fixed: Box<Fixed>,
}

static WINS: Mutex<Table<WinEntry>> = Mutex::new(Table::new(USER_HANDLES));

fn bad_win(h: MPI_Win) -> MpiError {
    if h == MPI_WIN_NULL {
        MpiError::new(MPI_ERR_WIN, "window is MPI_WIN_NULL")
    } else {
        MpiError::new(MPI_ERR_WIN, format!("invalid or freed window {h:#x}"))
    }
}

/// Changes whenever a window handle comes or goes, and at `MPI_Finalize`: a thread's cached
/// lookup ([`LAST`]) is good only while it has not changed.
static VERSION: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// This thread's last window lookup: (handle, [`VERSION`] then, window). A loop of small
    /// puts or gets on one window then takes neither the table's lock nor the library state's.
    static LAST: RefCell<Option<(MPI_Win, u64, Window)>> = const { RefCell::new(None) };
}

/// Makes every thread's cached window lookup stale (a handle freed, `MPI_Finalize`).
pub(crate) fn forget_lookups() {
    VERSION.fetch_add(1, Ordering::AcqRel);
}

/// The engine window behind `h` (cloned: no lock is held while it is used).
pub fn win(h: MPI_Win) -> Result<Window> {
    let version = VERSION.load(Ordering::Acquire);
    let cached = LAST.with_borrow(|last| match last {
        Some((lh, lv, w)) if *lh == h && *lv == version => Some(w.clone()),
        _ => None,
    });
    if let Some(w) = cached {
        return Ok(w);
    }
    crate::state::with_running(|_| Ok(()))?;
    let w = WINS
        .lock()
        .get(h)
        .map(|e| e.win.clone())
        .ok_or_else(|| bad_win(h))?;
    LAST.set(Some((h, version, w.clone())));
    Ok(w)
}

/// Runs `f` on the entry of `h`.
pub fn with_entry<R>(h: MPI_Win, f: impl FnOnce(&mut WinEntry) -> Result<R>) -> Result<R> {
    let mut t = WINS.lock();
    let e = t.get_mut(h).ok_or_else(|| bad_win(h))?;
    f(e)
}

/// Registers a new window and returns its handle.
pub fn insert(e: WinEntry) -> Result<MPI_Win> {
    let h = WINS
        .lock()
        .insert(e)
        .ok_or_else(|| MpiError::new(MPI_ERR_NO_MEM, "too many live windows"));
    forget_lookups();
    h
}

/// Forgets window `h`.
pub fn remove(h: MPI_Win) -> Result<WinEntry> {
    let e = WINS.lock().remove(h).ok_or_else(|| bad_win(h));
    forget_lookups();
    // This thread's cached clone goes now, so the engine can release the window's memory when
    // the entry's clone goes (another thread's stale clone goes at its next lookup).
    LAST.set(None);
    e
}

/// Whether `h` is `MPI_WIN_NULL` or a live window (for `MPI_Win_fromint`).
pub fn win_valid(h: usize) -> bool {
    h == MPI_WIN_NULL || WINS.lock().get(h).is_some()
}

/// The error handler of `h`; for an invalid handle, `MPI_COMM_WORLD`'s (errors that belong to
/// no valid window are raised there).
pub fn errhandler_of(h: MPI_Win) -> MPI_Errhandler {
    let e = WINS.lock().get(h).map(|e| e.errhandler);
    e.unwrap_or_else(|| crate::state::errhandler_of(MPI_COMM_WORLD))
}

/// The [`Report`] of functions on a window: errors go through its error handler.
struct OnWin(MPI_Win);

impl Report for OnWin {
    type Error = MpiError;
    const SUCCESS: c_int = MPI_SUCCESS;

    fn internal(&self, message: String) -> MpiError {
        MpiError::new(MPI_ERR_INTERN, message)
    }

    fn fail(&self, func: &str, e: MpiError) -> c_int {
        raise_with(func, errhandler_of(self.0), self.0, e)
    }
}

/// Runs `f` as the body of `func`, whose errors belong to window `h`.
pub fn call(func: &str, h: MPI_Win, f: impl FnOnce() -> Result<()>) -> c_int {
    nexar_bind::boundary::call(OnWin(h), func, f)
}
