//! Process-wide state: the init/finalize phase, the engine context, user communicators and the
//! error handler of every communicator. Communicator handles are translated here only.

use crate::consts::*;
use crate::errors::report::{MpiError, Result};
use crate::table::Table;
use nexar::{Comm, Context};
use parking_lot::{Mutex, RwLock};
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, AtomicU8, AtomicUsize, Ordering};
use std::thread::ThreadId;

/// A user communicator and its error handler.
pub struct CommEntry {
    /// The engine communicator.
    pub comm: Comm,
    /// Its error handler (a predefined `MPI_Errhandler`).
    pub errhandler: MPI_Errhandler,
}

/// The running library.
pub struct Running {
    /// The engine context.
    pub ctx: Context,
    /// User communicators.
    pub comms: Mutex<Table<CommEntry>>,
    /// Thread that called `MPI_Init(_thread)` (or started the first session).
    pub main_thread: Mutex<ThreadId>,
    /// The thread level granted.
    pub thread_level: AtomicI32,
    /// Where the world model is: [`WORLD_NEVER`], [`WORLD_ACTIVE`] or [`WORLD_DONE`].
    pub world: AtomicU8,
    /// Sessions initialized and not yet finalized (`crate::session`).
    pub sessions: AtomicUsize,
    /// `MPI_COMM_WORLD`: the context's world, or a spawned process's own group.
    pub world_comm: Comm,
    /// What `MPI_Comm_get_parent` returns (`MPI_COMM_NULL` unless spawned and still
    /// connected).
    pub parent: AtomicUsize,
    /// Worlds this process spawned into (`crate::comm::spawn`), kept until the program
    /// disconnects from them or finalizes.
    pub spawned: Mutex<Vec<Arc<Context>>>,
}

/// A context found by [`Running::context_of`].
pub enum ContextRef<'a> {
    /// This process's own.
    Own(&'a Context),
    /// A spawned or connected world (kept alive while in use, even if disconnected meanwhile).
    Other(Arc<Context>),
}

impl std::ops::Deref for ContextRef<'_> {
    type Target = Context;
    fn deref(&self) -> &Context {
        match self {
            ContextRef::Own(c) => c,
            ContextRef::Other(c) => c,
        }
    }
}

/// The world model (`MPI_Init` .. `MPI_Finalize`) has not started: the engine runs for
/// sessions only.
pub const WORLD_NEVER: u8 = 0;
/// Between `MPI_Init` and `MPI_Finalize`.
pub const WORLD_ACTIVE: u8 = 1;
/// After `MPI_Finalize`, with sessions still open (the engine stays until they end).
pub const WORLD_DONE: u8 = 2;

impl Running {
    /// Leaves the job: the worlds this process spawned into first (their final barriers wait
    /// for the spawned processes that did not part), then its own.
    pub fn finalize(self: Box<Self>) -> nexar::Result<()> {
        let spawned = std::mem::take(&mut *self.spawned.lock());
        let mut result = Ok(());
        for w in spawned {
            result = result.and(w.finalize());
        }
        result.and(self.ctx.finalize())
    }

    /// The context `c` belongs to: this process's, or a world it spawned into or met in.
    pub fn context_of(&self, c: &Comm) -> Result<ContextRef<'_>> {
        if self.ctx.owns(c) {
            return Ok(ContextRef::Own(&self.ctx));
        }
        self.spawned
            .lock()
            .iter()
            .find(|w| w.owns(c))
            .map(|w| ContextRef::Other(w.clone()))
            .ok_or_else(|| MpiError::new(MPI_ERR_COMM, "the communicator belongs to no live world"))
    }

    /// The world model's state.
    pub fn world(&self) -> u8 {
        self.world.load(Ordering::Acquire)
    }
}

/// Where the library is in its life.
pub enum Phase {
    /// Before `MPI_Init` or the first `MPI_Session_init`.
    Uninit,
    /// The engine runs: for the world model, for sessions, or both (see [`Running::world`]).
    Running(Box<Running>),
    /// After the engine was finalized (`MPI_Finalize` with no session open, the last session
    /// after `MPI_Finalize`, or the process's exit after sessions only).
    Finalized,
}

/// The phase (write-locked only by init and finalize).
pub static STATE: RwLock<Phase> = RwLock::new(Phase::Uninit);

static WORLD_ERRHANDLER: AtomicUsize = AtomicUsize::new(MPI_ERRORS_ARE_FATAL);
static SELF_ERRHANDLER: AtomicUsize = AtomicUsize::new(MPI_ERRORS_ARE_FATAL);

/// Runs `f` with the running library, or fails with `MPI_ERR_OTHER` before init / after
/// finalize.
pub fn with_running<R>(f: impl FnOnce(&Running) -> Result<R>) -> Result<R> {
    match &*STATE.read() {
        Phase::Uninit => Err(MpiError::new(MPI_ERR_OTHER, "MPI_Init has not been called")),
        Phase::Finalized => Err(MpiError::new(MPI_ERR_OTHER, "MPI_Finalize was called")),
        Phase::Running(r) => f(r),
    }
}

fn bad_comm(h: MPI_Comm) -> MpiError {
    if h == MPI_COMM_NULL {
        MpiError::new(MPI_ERR_COMM, "communicator is MPI_COMM_NULL")
    } else {
        MpiError::new(
            MPI_ERR_COMM,
            format!("invalid or freed communicator {h:#x}"),
        )
    }
}

/// The engine communicator behind a handle (cloned: no lock is held while it is used).
pub fn comm(h: MPI_Comm) -> Result<Comm> {
    with_running(|r| match h {
        MPI_COMM_WORLD => Ok(r.world_comm.clone()),
        MPI_COMM_SELF => Ok(r.ctx.self_comm().clone()),
        _ => r
            .comms
            .lock()
            .get(h)
            .map(|e| e.comm.clone())
            .ok_or_else(|| bad_comm(h)),
    })
}

/// Every rank of this process's world: `MPI_COMM_WORLD`, or for a spawned process its group
/// and its parents. Group members (process ids) are ranks of this communicator.
pub fn whole_world() -> Result<Comm> {
    with_running(|r| Ok(r.ctx.world().clone()))
}

/// Registers a new communicator with `errhandler` and returns its handle.
pub fn insert_comm(c: Comm, errhandler: MPI_Errhandler) -> Result<MPI_Comm> {
    with_running(|r| {
        r.comms
            .lock()
            .insert(CommEntry {
                comm: c,
                errhandler,
            })
            .ok_or_else(|| MpiError::new(MPI_ERR_NO_MEM, "too many live communicators"))
    })
}

/// Removes a user communicator.
pub fn remove_comm(h: MPI_Comm) -> Result<()> {
    if matches!(h, MPI_COMM_WORLD | MPI_COMM_SELF) {
        return Err(MpiError::new(
            MPI_ERR_COMM,
            "predefined communicators cannot be freed",
        ));
    }
    with_running(|r| {
        r.comms
            .lock()
            .remove(h)
            .map(drop)
            .ok_or_else(|| bad_comm(h))
    })
}

/// The error handler of `h`; for an invalid handle, that of `MPI_COMM_WORLD` (errors that
/// belong to no valid communicator are raised there).
pub fn errhandler_of(h: MPI_Comm) -> MPI_Errhandler {
    match h {
        MPI_COMM_SELF => SELF_ERRHANDLER.load(Ordering::Relaxed),
        MPI_COMM_WORLD => WORLD_ERRHANDLER.load(Ordering::Relaxed),
        _ => {
            let user = match &*STATE.read() {
                Phase::Running(r) => r.comms.lock().get(h).map(|e| e.errhandler),
                _ => None,
            };
            user.unwrap_or_else(|| WORLD_ERRHANDLER.load(Ordering::Relaxed))
        }
    }
}

/// Sets the error handler of a valid communicator.
pub fn set_errhandler(h: MPI_Comm, e: MPI_Errhandler) -> Result<()> {
    if !matches!(
        e,
        MPI_ERRORS_ARE_FATAL | MPI_ERRORS_RETURN | MPI_ERRORS_ABORT
    ) && !crate::errors::handlers::errhandler_live(e)
    {
        return Err(MpiError::new(
            MPI_ERR_ERRHANDLER,
            format!("invalid error handler {e:#x}"),
        ));
    }
    comm(h)?;
    match h {
        MPI_COMM_WORLD => WORLD_ERRHANDLER.store(e, Ordering::Relaxed),
        MPI_COMM_SELF => SELF_ERRHANDLER.store(e, Ordering::Relaxed),
        _ => with_running(|r| {
            let mut t = r.comms.lock();
            t.get_mut(h).ok_or_else(|| bad_comm(h))?.errhandler = e;
            Ok(())
        })?,
    }
    if !matches!(e, MPI_ERRORS_ARE_FATAL | MPI_ERRORS_ABORT)
        && !RETURNS_ERRORS_DECLARED.swap(true, Ordering::Relaxed)
    {
        // Errors now reach the program: a launcher leaves this rank running when a peer dies.
        with_running(|r| {
            r.ctx.set_returns_errors(true);
            Ok(())
        })?;
    }
    Ok(())
}

/// Set once a non-fatal error handler was installed and the launcher told so.
static RETURNS_ERRORS_DECLARED: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);
