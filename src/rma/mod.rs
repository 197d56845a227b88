//! One-sided communication (RMA): windows of memory that the members of a communicator read,
//! write and update in each other without the target taking part.
//!
//! **Members that share memory** (one host): every member maps one shared area per window
//! (`area.rs`: per-target lock words and accumulate mutexes, the counters of post / start /
//! complete / wait). Data moves with one copy and no target involvement:
//! * `allocate` and `shared` windows live in that same shared file, so a peer's memory is a
//!   load or a store away ([`Window::shared_query`] gives its address);
//! * `create` (the caller's own memory) and `dynamic` windows (memory attached later,
//!   addressed by absolute address) are read and written with cross-memory attach
//!   (`process_vm_readv` / `process_vm_writev`), whose iovecs take a datatype's byte runs.
//!
//! **Members that do not** (between hosts, or where cross-memory attach is refused, or with
//! `NEXAR_RMA=messages`): the window is served by active messages (`remote.rs`). Each member
//! keeps the same area privately, with its own memory in it for `allocate`; an access to
//! another member is a remote procedure call on the window's communicator ([`crate::rpc`]),
//! which the target's engine runs on its own memory and words, on a thread of its own, so the
//! target need not call anything (passive-target progress). Locks wait at the target; posts
//! and completes are written into the member that reads them. `shared` windows need shared
//! memory and are refused there ([`ErrorKind::Unsupported`]).
//!
//! Every operation completes when it returns, so flushes are ordering points and a fence is a
//! memory fence around a barrier. Accumulates hold the target's accumulate mutex around
//! read-combine-write (MPI's per-element atomicity, for any type and op).
//!
//! Synchronization and epochs are in `sync.rs`, data movement in `access.rs`.
//!
//! **Limits** (what a later round adds): locks are taken when `lock` / `lock_all` is called
//! (MPI also allows taking them lazily, at the first access, which a program mixing
//! `lock_all` with exclusive locks held elsewhere could rely on); accumulates always go
//! through the target's mutex (no CPU atomics yet, so a lone fetch-and-op pays for it); a
//! window is served by active messages as a whole once one pair of members cannot share
//! memory (members of one host then also pay for messages); between hosts an access that
//! returns data (a get, a fetching accumulate, a compare-and-swap) is one round trip, the
//! others are pipelined up to the next flush (`remote.rs`), and nothing uses RDMA.

mod access;
mod area;
mod remote;
mod sync;
mod wait;

pub use access::Combine;
pub use sync::LockKind;

use crate::comm::Comm;
use crate::error::{Error, ErrorKind, Result};
use crate::transport::shm::shared_file::SharedMap;
use area::Area;
use nexar_proto::ReduceOp;
use parking_lot::Mutex;
use std::sync::Arc;

/// How a window's memory was provided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    /// The caller's memory (`MPI_Win_create`).
    Create,
    /// Memory the window allocated (`MPI_Win_allocate`).
    Allocate,
    /// Memory the window allocated, loadable and storable by every member
    /// (`MPI_Win_allocate_shared`).
    Shared,
    /// Memory attached and detached later, addressed absolutely (`MPI_Win_create_dynamic`).
    Dynamic,
}

/// What this member exposes in a new window.
#[derive(Debug, Clone, Copy)]
pub struct Exposed {
    /// The memory of a `Create` window (ignored by the other flavors).
    pub base: *mut u8,
    /// Bytes of it (0 for `Dynamic`).
    pub size: usize,
    /// The unit of target displacements, in bytes.
    pub disp_unit: usize,
    /// For `Shared`: members' memory need not be contiguous (`alloc_shared_noncontig`); each
    /// region then starts on a page. The window is non-contiguous if any member asks.
    pub noncontig: bool,
}

/// How this process reaches one member's window memory.
#[derive(Debug, Clone, Copy)]
enum Reach {
    /// At this address in this process (its own memory, or the shared file).
    Here(*mut u8),
    /// At this address in process `pid`, by cross-memory attach.
    Cma { pid: i32, base: u64 },
    /// In another process reached by active messages only (`remote.rs`).
    Remote,
}

/// One member's window memory.
#[derive(Debug, Clone, Copy)]
struct Target {
    size: usize,
    disp_unit: usize,
    reach: Reach,
}

/// A window (cheap to clone; the members' collective [`Window::free`] ends it).
#[derive(Clone)]
pub struct Window {
    inner: Arc<Inner>,
}

struct Inner {
    /// A duplicate of the creating communicator: the window's collectives never interleave
    /// with the program's own on that communicator.
    comm: Comm,
    flavor: Flavor,
    me: usize,
    area: Area,
    targets: Vec<Target>,
    epoch: sync::EpochCell,
    /// Regions attached to a dynamic window here (address, bytes).
    attached: Mutex<Vec<(usize, usize)>>,
    /// Served by active messages (`None`: shared memory).
    remote: Option<remote::Remote>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        if let Some(remote) = &self.remote {
            remote.stop();
        }
    }
}

// SAFETY: the raw addresses are window memory, accessed under the MPI rules (the program's
// synchronization) or through atomics; the rest is Send + Sync.
unsafe impl Send for Inner {}
// SAFETY: as above.
unsafe impl Sync for Inner {}

/// Every member's `(size, disp_unit, base address, usable, noncontig, pid)` record.
const RECORD: usize = 6;
/// Window memory of each member of an `Allocate` window starts at a multiple of this.
const ALLOC_ALIGN: usize = 64;

impl Comm {
    /// Creates a window over this communicator (collective): every member calls it with the
    /// same `flavor`. See the module docs for what is supported.
    pub fn win_create(&self, flavor: Flavor, mine: Exposed) -> Result<Window> {
        self.inner.refuse_inter("a window")?;
        let comm = self.dup_blocking()?;
        let n = comm.size() as usize;
        let me = comm.rank() as usize;
        let engine = comm.inner.engine.clone();
        let transport = engine.transport();
        let world = comm.inner.members.world().clone();
        let needs_cma = matches!(flavor, Flavor::Create | Flavor::Dynamic);
        // Which members share this host's memory: the shared-memory transport says where it
        // runs; where it does not (QUIC forced on one host) the host names say. A window's
        // memory is its own shared file (or the members' memory read by cross-memory attach),
        // whatever carries the messages.
        let hosts = engine.hosts();
        let my_host = hosts.get(engine.rank as usize);
        let same_host = |w: u32| {
            w == engine.rank
                || transport.shares_memory(w)
                || (my_host.is_some() && hosts.get(w as usize) == my_host)
        };
        // Whether cross-memory attach may read a member: the transport knows (it tried);
        // without it, a member on this host is assumed readable and a refused read fails
        // the operation with its error.
        let cma_known = |w: u32| !transport.shares_memory(w) || transport.cma_target(w).is_some();
        // Shared memory unless the configuration asks for active messages (which a shared
        // window cannot use).
        let usable = (!engine.cfg.rma_messages || flavor == Flavor::Shared)
            && world
                .iter()
                .all(|&w| same_host(w) && (!needs_cma || w == engine.rank || cma_known(w)));
        let size = if flavor == Flavor::Dynamic {
            0
        } else {
            mine.size
        };
        let record = [
            size as u64,
            mine.disp_unit as u64,
            mine.base as u64,
            u64::from(usable),
            u64::from(mine.noncontig),
            u64::from(std::process::id()),
        ];
        let mut all = vec![0u64; RECORD * n];
        comm.allgather_blocking(&record, &mut all)?;
        let rec = |r: usize| &all[RECORD * r..RECORD * (r + 1)];
        let apart = (0..n).find(|&r| rec(r)[3] == 0);
        if let (Some(r), Flavor::Shared) = (apart, flavor) {
            return Err(Error::new(
                ErrorKind::Unsupported,
                format!(
                    "rank {r} of the communicator does not share memory with every other \
                     member: MPI_Win_allocate_shared needs ranks of one host (other window \
                     flavors work between hosts)"
                ),
            ));
        }
        let sizes: Vec<usize> = (0..n).map(|r| rec(r)[0] as usize).collect();
        let messages = apart.is_some();
        let (area, targets) = if messages {
            // This member's control words and (allocate) memory, private; the others are
            // reached by active messages.
            let control = Area::control_bytes(n);
            let mine_bytes = if flavor == Flavor::Allocate { size } else { 0 };
            let map = SharedMap::private(control + mine_bytes).map_err(|e| {
                Error::new(
                    ErrorKind::ResourceExhausted,
                    format!("cannot map the window's {mine_bytes} bytes: {e}"),
                )
            })?;
            let area = Area::new(map, n);
            let targets = (0..n)
                .map(|r| Target {
                    size: sizes[r],
                    disp_unit: rec(r)[1] as usize,
                    reach: match flavor {
                        _ if r != me => Reach::Remote,
                        Flavor::Allocate => Reach::Here(area.at(control)),
                        // Addressed absolutely.
                        Flavor::Dynamic => Reach::Here(std::ptr::null_mut()),
                        _ => Reach::Here(mine.base),
                    },
                })
                .collect();
            (area, targets)
        } else {
            // Every member must lay the file out alike: non-contiguous if any member asked.
            let noncontig = (0..n).any(|r| rec(r)[4] != 0);
            let (offsets, total) = data_offsets(flavor, noncontig, n, &sizes);
            let map = share_file(&comm, total)?;
            let area = Area::new(map, n);
            let targets = (0..n)
                .map(|r| {
                    let (size, disp_unit, base) = (sizes[r], rec(r)[1] as usize, rec(r)[2]);
                    let reach = match flavor {
                        Flavor::Allocate | Flavor::Shared => Reach::Here(area.at(offsets[r])),
                        _ if r == me => Reach::Here(base as usize as *mut u8),
                        _ => Reach::Cma {
                            pid: rec(r)[5] as i32,
                            base,
                        },
                    };
                    Target {
                        size,
                        disp_unit,
                        reach,
                    }
                })
                .collect();
            (area, targets)
        };
        let remote = messages.then(|| remote::Remote::new(comm.rpc(), n));
        let window = Window {
            inner: Arc::new(Inner {
                epoch: sync::EpochCell::new(n),
                comm,
                flavor,
                me,
                area,
                targets,
                attached: Mutex::new(Vec::new()),
                remote,
            }),
        };
        if messages {
            // Every member serves before any calls it.
            remote::serve(&window);
            window.inner.comm.barrier_blocking()?;
        }
        Ok(window)
    }
}

/// Where each member's memory starts in the shared file (past the control part), and the
/// file's length.
fn data_offsets(flavor: Flavor, noncontig: bool, n: usize, sizes: &[usize]) -> (Vec<usize>, usize) {
    let control = Area::control_bytes(n);
    if !matches!(flavor, Flavor::Allocate | Flavor::Shared) {
        // The members' memory is their own: the file is the control part only.
        return (vec![control; n], control);
    }
    let align = match flavor {
        Flavor::Allocate => ALLOC_ALIGN,
        Flavor::Shared if noncontig => area::PAGE,
        // Contiguous across ranks, as MPI_Win_allocate_shared's default requires.
        _ => 1,
    };
    let mut at = control;
    let offsets = sizes
        .iter()
        .map(|&s| {
            at = at.div_ceil(align) * align;
            let here = at;
            at += s;
            here
        })
        .collect();
    (offsets, at)
}

/// Rank 0 creates the window's shared file under a fresh name and broadcasts the name; every
/// member maps it; an allreduce tells everyone whether all did; rank 0 then unlinks the name.
fn share_file(comm: &Comm, data_end: usize) -> Result<SharedMap> {
    let mut name = [0u8; 128];
    let mut map = None;
    let mut created = None;
    let mut why = String::new();
    if comm.rank() == 0 {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let path = format!(
            "/dev/shm/nexar-win-{}-{:x}-{nanos:x}",
            std::process::id(),
            comm.context_id()
        );
        match SharedMap::create(std::path::Path::new(&path), data_end) {
            Ok(m) => {
                name[..path.len()].copy_from_slice(path.as_bytes());
                map = Some(m);
                created = Some(path);
            }
            Err(e) => why = format!("cannot create the window's shared file {path}: {e}"),
        }
    }
    let named = comm.bcast_blocking(&mut name, 0);
    if comm.rank() != 0 && named.is_ok() {
        let len = name.iter().position(|&b| b == 0).unwrap_or(name.len());
        if len > 0 {
            let path = String::from_utf8_lossy(&name[..len]).into_owned();
            match SharedMap::open(std::path::Path::new(&path), data_end) {
                Ok(m) => map = Some(m),
                Err(e) => why = format!("cannot map the window's shared file {path}: {e}"),
            }
        }
    }
    let mut all = [u8::from(map.is_some())];
    let agreed = named.and_then(|()| comm.allreduce_blocking(&mut all, ReduceOp::Min));
    if let Some(path) = created {
        let _ = std::fs::remove_file(path);
    }
    agreed?;
    match map {
        Some(m) if all[0] == 1 => Ok(m),
        _ => Err(Error::new(
            ErrorKind::ResourceExhausted,
            if why.is_empty() {
                format!("another member could not map the window's shared file ({data_end} bytes)")
            } else {
                why
            },
        )),
    }
}

impl Window {
    /// The flavor it was created with.
    pub fn flavor(&self) -> Flavor {
        self.inner.flavor
    }

    /// The window's communicator (a duplicate of the creating one; same group).
    pub fn comm(&self) -> &Comm {
        &self.inner.comm
    }

    /// This member's window memory in this process: its address (null for a dynamic window),
    /// size in bytes and displacement unit.
    pub fn local(&self) -> (*mut u8, usize, usize) {
        let t = &self.inner.targets[self.inner.me];
        let base = match (self.inner.flavor, t.reach) {
            (Flavor::Dynamic, _) => std::ptr::null_mut(),
            (_, Reach::Here(p)) => p,
            (_, Reach::Cma { base, .. }) => base as usize as *mut u8,
            (_, Reach::Remote) => std::ptr::null_mut(),
        };
        (base, t.size, t.disp_unit)
    }

    /// Member `rank`'s memory as addressable by loads and stores here (address, size,
    /// displacement unit): for `Allocate` and `Shared` windows; `None` for the others, whose
    /// memory other processes cannot address directly.
    pub fn shared_query(&self, rank: u32) -> Result<Option<(*mut u8, usize, usize)>> {
        let t = self.target(rank)?;
        Ok(match (self.inner.flavor, t.reach) {
            // A member without memory has none to address (NULL, as MPI_Win_shared_query
            // reports it).
            (Flavor::Allocate | Flavor::Shared, Reach::Here(_)) if t.size == 0 => {
                Some((std::ptr::null_mut(), 0, t.disp_unit))
            }
            (Flavor::Allocate | Flavor::Shared, Reach::Here(p)) => Some((p, t.size, t.disp_unit)),
            _ => None,
        })
    }

    /// Bytes of member `rank`'s window memory (0 for a dynamic window).
    pub fn size_of(&self, rank: u32) -> Result<usize> {
        Ok(self.target(rank)?.size)
    }

    /// Attaches `size` bytes at `base` to this dynamic window (local; peers address it by
    /// absolute address).
    pub fn attach(&self, base: *mut u8, size: usize) -> Result<()> {
        self.dynamic_only("attach")?;
        self.inner.attached.lock().push((base as usize, size));
        Ok(())
    }

    /// Detaches the region attached at `base`.
    pub fn detach(&self, base: *const u8) -> Result<()> {
        self.dynamic_only("detach")?;
        let mut a = self.inner.attached.lock();
        match a.iter().position(|&(b, _)| b == base as usize) {
            Some(i) => {
                a.remove(i);
                Ok(())
            }
            None => Err(Error::invalid(format!(
                "no region is attached at {base:p} to this dynamic window"
            ))),
        }
    }

    fn dynamic_only(&self, what: &str) -> Result<()> {
        if self.inner.flavor != Flavor::Dynamic {
            return Err(Error::invalid(format!(
                "{what} applies to dynamic windows only (this one is {:?})",
                self.inner.flavor
            )));
        }
        Ok(())
    }

    /// Member `rank`'s memory, or an [`ErrorKind::InvalidRank`] error.
    fn target(&self, rank: u32) -> Result<&Target> {
        self.inner.targets.get(rank as usize).ok_or_else(|| {
            Error::new(
                ErrorKind::InvalidRank,
                format!(
                    "target rank {rank} is not in the window's group of {}",
                    self.inner.targets.len()
                ),
            )
        })
    }

    /// Ends the window (collective): fails with [`ErrorKind::RmaSync`] while this member still
    /// holds a lock or has an access or exposure epoch open; otherwise waits for every member
    /// (so none accesses this one's memory any more) and releases it when the last clone goes.
    pub fn free(&self) -> Result<()> {
        self.inner.epoch.lock().check_idle("free the window")?;
        let settled = self.settle(None);
        self.barrier().and(settled)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_memory_is_laid_out_per_flavor() {
        let c = Area::control_bytes(3);
        assert_eq!(c % area::PAGE, 0);
        let sizes = [10, 0, 7];
        assert_eq!(
            data_offsets(Flavor::Shared, false, 3, &sizes),
            (vec![c, c + 10, c + 10], c + 17),
            "contiguous: each rank's memory follows the previous one's"
        );
        assert_eq!(
            data_offsets(Flavor::Shared, true, 3, &sizes),
            (vec![c, c + 4096, c + 4096], c + 4096 + 7)
        );
        assert_eq!(
            data_offsets(Flavor::Allocate, false, 3, &sizes),
            (vec![c, c + 64, c + 64], c + 64 + 7)
        );
        assert_eq!(
            data_offsets(Flavor::Create, false, 3, &sizes),
            (vec![c; 3], c),
            "a created window's memory stays the caller's"
        );
    }
}
