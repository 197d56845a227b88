//! Starting under a process manager: PMI-1 (MPICH's `mpiexec.hydra`, Slurm's `srun --mpi=pmi2`:
//! the "simple" text protocol on `PMI_FD`) or PMIx (Slurm's `srun --mpi=pmix`, Open MPI's
//! `mpirun`: through the system's PMIx client library, loaded at run time, [`pmix`]).
//!
//! The process manager hands each process a connection: an inherited socket named by `PMI_FD`
//! (hydra's default, with `PMI_RANK` / `PMI_SIZE`), or `PMI_PORT` (`host:port`) plus `PMI_ID`
//! (hydra's `-pmi-port`; rank and size come in the `initack` reply). A PMIx server sets
//! `PMIX_NAMESPACE`, `PMIX_RANK` and `PMIX_SERVER_URI*`; rank, size and local rank come from
//! the server. Consulted after nexar's own `NEXAR_RANK` / `NEXAR_SIZE` and before Open MPI,
//! Slurm and torchrun (see [`crate::bootstrap`]); `PMI_FD` wins over `PMI_PORT`, which wins
//! over PMIx. Without the PMIx library a PMIx launch is left to the Open MPI and Slurm
//! detection of [`crate::bootstrap::schedulers`].
//!
//! What goes through the key-value space (KVS; [`Kvs`]), all values hex-encoded:
//!
//! | key | put by | value |
//! |---|---|---|
//! | `nexar-rdv` | rank 0 | `host:port` of the rendezvous rank 0 started on (any port): on `NEXAR_BIND_ADDR` when set (an unspecified address is published as this host's name); else on loopback when every rank is on rank 0's host, or on the first non-loopback address rank 0's host name resolves to (else of an interface that is up) when they are not ([`crate::bootstrap::bind`]) |
//! | `nexar-secret` | rank 0 | the 32-byte job secret rank 0 generated, or the word `file` when rank 0 read `NEXAR_JOB_SECRET_FILE` (then every rank must read it) |
//! | `nexar-host-R` | every rank R | its host name (`NEXAR_HOSTNAME` overrides it), when the process manager does not say the local rank (`MPI_LOCALRANKID`, `PMI_LOCAL_RANK`, `SLURM_LOCALID`), or when rank 0 must learn whether the ranks span several hosts (no `NEXAR_BIND_ADDR`, and `MPI_LOCALNRANKS` is not the world size) |
//!
//! In the second case a first barrier makes the host names visible to rank 0 before it starts
//! the rendezvous. After the (last) PMI barrier every rank reads these and the ordinary rendezvous runs (failure
//! notices, shared memory within a host, QUIC between hosts). A world of one needs no
//! rendezvous.
//!
//! **Trust assumption.** Without `NEXAR_JOB_SECRET_FILE` the job secret travels through the
//! process manager's KVS. The KVS belongs to the process manager and the processes of this job
//! only (hydra serves it on a per-process socket or on a port whose clients must present their
//! `PMI_ID`), so it is as trusted as the process manager that starts the ranks anyway. Where
//! that is not acceptable, give every rank the same `NEXAR_JOB_SECRET_FILE` (mode 0600): the
//! secret then never enters the KVS.
//!
//! The connection stays open for the life of the [`crate::Context`]: its clean finalize sends
//! `cmd=finalize`, and [`crate::abort_job`] first asks the process manager to end the job with
//! `cmd=abort exitcode=N` (best effort, after a 0.1 s grace for output), then sends its abort
//! frames as usual.

mod client;
mod exchange;
#[cfg(test)]
mod fake;
mod kvs;
pub mod pmix;
#[cfg(test)]
mod tests;

pub use client::{Conn, MAX_LINE, Maxes, PmiClient, Reply, hex_decode, hex_encode};
pub(crate) use exchange::boot_from_env;
pub use kvs::{Kvs, SimpleKvs};

use crate::error::{Error, ErrorKind, Result};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

/// Where the process manager listens for this process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PmiAddr {
    /// `PMI_FD`: an inherited socket.
    Fd(i32),
    /// `PMI_PORT` (`host:port`) with `PMI_ID`.
    Port {
        /// `host:port` to connect to.
        hostport: String,
        /// The id to present in `cmd=initack`.
        id: u32,
    },
    /// A PMIx server (`PMIX_SERVER_URI*`), reached through the PMIx client library.
    Pmix {
        /// `PMIX_NAMESPACE`: the job's name.
        namespace: String,
    },
}

impl std::fmt::Display for PmiAddr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PmiAddr::Fd(fd) => write!(f, "PMI_FD={fd}"),
            PmiAddr::Port { hostport, id } => write!(f, "PMI_PORT={hostport} PMI_ID={id}"),
            PmiAddr::Pmix { namespace } => write!(f, "PMIx namespace {namespace}"),
        }
    }
}

fn boot(msg: String) -> Error {
    Error::new(ErrorKind::Bootstrap, msg)
}

/// Finds a PMI launch in variables looked up with `get`: `PMI_FD` first, then `PMI_PORT` (which
/// needs `PMI_ID`), then a PMIx server whose client library loads ([`pmix::detect`]). `None`
/// when none is there; a bad value is an error naming the variable.
pub fn detect(get: &dyn Fn(&str) -> Option<String>) -> Result<Option<PmiAddr>> {
    if let Some(v) = get("PMI_FD") {
        let fd: i32 = v
            .trim()
            .parse()
            .ok()
            .filter(|&fd| fd >= 0)
            .ok_or_else(|| boot(format!("PMI_FD={v:?} is not a file descriptor")))?;
        return Ok(Some(PmiAddr::Fd(fd)));
    }
    if let Some(v) = get("PMI_PORT") {
        let hostport = v.trim().to_string();
        let ok = hostport
            .rsplit_once(':')
            .is_some_and(|(h, p)| !h.is_empty() && p.parse::<u16>().is_ok_and(|p| p != 0));
        if !ok {
            return Err(boot(format!("PMI_PORT={v:?}: expected host:port")));
        }
        let id = get("PMI_ID").ok_or_else(|| boot("PMI_PORT is set but PMI_ID is not".into()))?;
        let id = id
            .trim()
            .parse()
            .map_err(|_| boot(format!("PMI_ID={id:?} is not a non-negative integer")))?;
        return Ok(Some(PmiAddr::Port { hostport, id }));
    }
    match pmix::detect(get) {
        Ok(found) => Ok(found),
        Err(why) => {
            tracing::debug!("PMIx launch, but not joined through PMIx: {why}");
            Ok(None)
        }
    }
}

/// A live process-manager connection (PMI-1 or PMIx), kept for the life of a context.
#[derive(Debug)]
pub struct PmiSession {
    client: parking_lot::Mutex<Box<dyn Kvs>>,
    kvsname: String,
    rank: u32,
    done: AtomicBool,
}

impl PmiSession {
    fn new(client: Box<dyn Kvs>, kvsname: String, rank: u32) -> Arc<Self> {
        let s = Arc::new(Self {
            client: parking_lot::Mutex::new(client),
            kvsname,
            rank,
            done: AtomicBool::new(false),
        });
        *ACTIVE.lock() = Arc::downgrade(&s);
        s
    }

    /// The job's KVS name (PMI-1) or namespace (PMIx).
    pub fn kvsname(&self) -> &str {
        &self.kvsname
    }

    /// Leaves the process manager cleanly (`cmd=finalize`); later calls do nothing.
    pub fn finalize(&self) -> Result<()> {
        if self.done.swap(true, Ordering::SeqCst) {
            return Ok(());
        }
        self.client.lock().finalize()
    }

    /// Asks the process manager to end the job with `code`, waiting at most `wait` for the
    /// connection (another thread may be using it). True if the request was sent.
    pub fn abort(&self, code: i32, wait: Duration) -> bool {
        if self.done.swap(true, Ordering::SeqCst) {
            return false;
        }
        let Some(mut c) = self.client.try_lock_for(wait) else {
            return false;
        };
        match c.abort(code) {
            Ok(()) => true,
            Err(e) => {
                tracing::warn!(rank = self.rank, "PMI abort: {e}");
                false
            }
        }
    }
}

/// The session of this process's context, for [`abort_job`] (weak: it ends with the context).
static ACTIVE: parking_lot::Mutex<Weak<PmiSession>> = parking_lot::Mutex::new(Weak::new());

/// Set once this process took its PMI connection, so a second initialization does not claim
/// the same descriptor (or a reused one) again.
static TAKEN: AtomicBool = AtomicBool::new(false);

/// True while a context of this process holds a PMI connection.
pub fn is_active() -> bool {
    ACTIVE
        .try_lock_for(Duration::from_millis(100))
        .is_some_and(|w| w.strong_count() > 0)
}

/// Under PMI, asks the process manager to end the job with exit code `code` (best effort,
/// bounded: it never waits long for a connection another thread holds). True if it was asked.
pub fn abort_job(code: i32) -> bool {
    let session = ACTIVE
        .try_lock_for(Duration::from_millis(100))
        .and_then(|w| w.upgrade());
    session.is_some_and(|s| s.abort(code, Duration::from_millis(200)))
}
