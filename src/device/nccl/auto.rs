//! Automatic NCCL routing of a communicator's allreduce / bcast / allgather / reduce_scatter.
//!
//! **Per communicator, decided once.** The first of these collectives on a communicator
//! (whatever its buffers, on every rank) decides for the communicator: each rank checks
//! locally that the CUDA driver and `libnccl` load and that it has a GPU ([`local_verdict`],
//! with the GPU picked by [`pick_gpu`]), one byte-sized agreement allreduce combines the
//! verdicts, and when every rank can, the communicator's hierarchical NCCL machinery
//! (`NcclHier`'s core) is built collectively (host split, NCCL set-up with a deadline, a
//! second agreement). The outcome is cached: "off" (with the reason, logged once per process)
//! makes later calls take the ordinary path with no extra cost; "on" sends each of the four
//! collectives through the hierarchical path, whose per-call agreement picks NCCL or the
//! staged path (host buffers fall back there), so ranks mixing host and device buffers stay
//! matched. `NEXAR_NCCL=off` (`Config::nccl`) skips all of it: no set-up, no agreement.
//!
//! **Which entry points route.** The typed async collectives (`Comm::allreduce`, `bcast`,
//! `allgather`, `reduce_scatter` with equal counts, `reduce_scatter_block`) and their
//! `*_blocking` twins, which run them; and, through the raw-buffer entries of
//! `super::untyped` (`Comm::allreduce_routed`, `bcast_routed`, `allgather_routed`,
//! `reduce_scatter_block_routed`, which dispatch a [`nexar_proto::Datatype`] to the typed
//! path), the BLOCKING calls of the C API (`nexar_allreduce`, `nexar_bcast`,
//! `nexar_allgather`, `nexar_reduce_scatter` with equal counts, `nexar_reduce_scatter_block`)
//! and of the MPI shim (`MPI_Allreduce`, `MPI_Bcast`, `MPI_Allgather`,
//! `MPI_Reduce_scatter_block`, `MPI_Reduce_scatter` with equal counts, and their `_c` forms;
//! predefined ops only), after all their argument checks. The request-based `start_*` calls
//! (the Rust `i*` collectives, the C API's `nexar_i*`, the shim's non-blocking and persistent
//! collectives) stay on the staged path: a routed call is several engine collectives
//! (agreements, set-up, leader rounds), which a synchronous start cannot issue. A collective
//! must therefore be entered through a routed entry on every rank or on none: as MPI
//! requires of blocking and non-blocking collectives (they never match each other), a rank's
//! `allreduce_blocking` / `MPI_Allreduce` must not pair with another rank's `iallreduce` /
//! `MPI_Iallreduce` once routing is on (with routing off, or without the feature, such pairs
//! still match). Whether a call enters routing depends only on what is equal on every rank
//! (datatype or type signature, operator, counts), never on this rank's buffers or layout.
//! `NEXAR_NCCL` must be the same on every rank.
//!
//! **Which GPU.** The device of the first routable call's buffer when it is device memory,
//! else the device of the calling thread's current CUDA context, else none (that rank then
//! vetoes NCCL for the communicator: [`Fallback::NoGpuChosen`]).

use super::select::Fallback;
use crate::comm::Comm;
use crate::device::Memory;

/// Where a communicator's routable collectives go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NcclState {
    /// No routable collective has run on the communicator yet.
    Undecided,
    /// `NEXAR_NCCL=off` (`Config::nccl`): NCCL is never set up.
    Disabled,
    /// NCCL is not used; the reason as this rank saw it ([`Fallback::Elsewhere`] when another
    /// rank vetoed). Without the `nccl` feature: [`Fallback::FeatureOff`].
    Off(Fallback),
    /// The collectives go through the hierarchical NCCL path.
    On,
}

/// What automatic NCCL routing did on a communicator ([`Comm::nccl_status`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NcclStatus {
    /// The communicator's decision.
    pub state: NcclState,
    /// Collectives that ran through NCCL (only while [`NcclState::On`]).
    pub nccl_calls: u64,
    /// Collectives that went through the hierarchical path but took the staged path (a host
    /// buffer, a type or operator NCCL lacks; only while [`NcclState::On`]).
    pub staged_calls: u64,
}

/// The GPU a rank uses for automatic routing: the device of the first buffer that is device
/// memory, else the current CUDA context's device `current`, else none.
pub fn pick_gpu(first_buffers: &[Memory], current: Option<i32>) -> Option<i32> {
    first_buffers
        .iter()
        .find_map(|m| match *m {
            Memory::Device { ordinal } => Some(ordinal),
            _ => None,
        })
        .or(current)
}

/// This rank's verdict before any set-up: NCCL and the driver load (`libraries`), and it has
/// a GPU among the `devices` present. `rank` names it in the reason.
pub fn local_verdict(
    libraries: bool,
    gpu: Option<i32>,
    devices: i32,
    rank: u32,
) -> Result<(), Fallback> {
    if !libraries {
        return Err(Fallback::NcclMissing);
    }
    match gpu {
        Some(g) if (0..devices).contains(&g) => Ok(()),
        _ => Err(Fallback::NoGpuChosen { rank }),
    }
}

/// Whether a reduce_scatter with `counts` may route: one equal block per rank of a
/// communicator of `size`, `recv` holding one block and `send` all of them (`counts` is the
/// same on every rank, so the answer is too, unless this rank's lengths are wrong, which the
/// unrouted path then reports).
pub fn equal_blocks(counts: &[usize], send: usize, recv: usize, size: u32) -> bool {
    counts.len() == size as usize
        && counts.iter().all(|&n| n == recv)
        && recv.checked_mul(counts.len()) == Some(send)
}

impl Comm {
    /// What automatic NCCL routing did on this communicator (see `device::nccl::auto`):
    /// the decision and the calls routed through NCCL or staged.
    pub fn nccl_status(&self) -> NcclStatus {
        #[cfg(feature = "nccl")]
        {
            routing::status(self)
        }
        #[cfg(not(feature = "nccl"))]
        {
            NcclStatus {
                state: NcclState::Off(Fallback::FeatureOff),
                nccl_calls: 0,
                staged_calls: 0,
            }
        }
    }
}

#[cfg(feature = "nccl")]
pub(crate) use routing::{Slot, routed};

#[cfg(feature = "nccl")]
mod routing {
    use super::super::hier::{Core, init_deadline};
    use super::super::plain;
    use super::{NcclState, NcclStatus, local_verdict, pick_gpu};
    use crate::comm::Comm;
    use crate::config::NcclMode;
    use crate::device::nccl::{Fallback, log_fallback};
    use crate::error::Result;
    use nexar_proto::ReduceOp;
    use nexar_proto::select::plan::{Coll, Facts, Plan};
    use std::sync::Arc;

    /// A communicator's cached decision (a field of the communicator's shared state).
    #[derive(Default)]
    pub(crate) struct Slot(tokio::sync::OnceCell<Decided>);

    enum Decided {
        Off(Fallback),
        On(Arc<Core>),
    }

    fn disabled(c: &Comm) -> bool {
        c.inner.engine.cfg.nccl == NcclMode::Off
    }

    /// The hierarchical core to send this call through, or `None` for the ordinary path.
    /// Decides for the communicator on its first call (collective); `bufs` are this call's
    /// buffers (they pick the GPU on the first call only).
    ///
    /// Whether to try NCCL at all is the plan's answer (`Plan::Nccl`) for this `coll` call of
    /// `bytes`, given whether NCCL is still possible on this communicator.
    pub(crate) async fn routed(
        c: &Comm,
        coll: Coll,
        bytes: usize,
        bufs: &[*const u8],
    ) -> Result<Option<Arc<Core>>> {
        let possible = !disabled(c) && !matches!(c.inner.nccl.0.get(), Some(Decided::Off(_)));
        let facts = Facts {
            nccl: possible,
            ..c.inner.facts(coll, bytes)
        };
        if c.inner.plan(&facts) != Plan::Nccl {
            return Ok(None);
        }
        let d = c.inner.nccl.0.get_or_try_init(|| decide(c, bufs)).await?;
        Ok(match d {
            Decided::On(core) => Some(core.clone()),
            Decided::Off(_) => None,
        })
    }

    async fn decide(c: &Comm, bufs: &[*const u8]) -> Result<Decided> {
        let kinds: Vec<_> = bufs.iter().map(|&p| crate::device::classify(p)).collect();
        // SAFETY: only tries to open the library by its usual names.
        let libraries = crate::device::available() && unsafe { ns_present() };
        let gpu = pick_gpu(&kinds, libraries.then(current_device).flatten());
        let verdict = local_verdict(libraries, gpu, crate::device::device_count(), c.rank());
        let mut code = [verdict.as_ref().err().map_or(0u8, Fallback::code)];
        plain::allreduce(c, &mut code, ReduceOp::Max).await?;
        if code[0] != 0 {
            let why = verdict.err().unwrap_or(Fallback::Elsewhere);
            log_fallback(&why);
            return Ok(Decided::Off(why));
        }
        let core = Core::new(c, gpu, init_deadline(c)).await?;
        Ok(match core.why_not() {
            Some(why) => Decided::Off(why.clone()),
            None => Decided::On(Arc::new(core)),
        })
    }

    unsafe fn ns_present() -> bool {
        // SAFETY: see the caller.
        unsafe { cudarc::nccl::sys::is_culib_present() }
    }

    /// The device of the calling thread's current CUDA context (the driver is loaded).
    fn current_device() -> Option<i32> {
        use cudarc::driver::sys as cu;
        let mut ctx: cu::CUcontext = std::ptr::null_mut();
        // SAFETY: out-parameter; the driver was initialised by `device::available`.
        let r = unsafe { cu::cuCtxGetCurrent(&mut ctx) };
        if r != cu::CUresult::CUDA_SUCCESS || ctx.is_null() {
            return None;
        }
        let mut dev: cu::CUdevice = 0;
        // SAFETY: out-parameter; asks about the current context.
        let r = unsafe { cu::cuCtxGetDevice(&mut dev) };
        (r == cu::CUresult::CUDA_SUCCESS).then_some(dev)
    }

    pub(super) fn status(c: &Comm) -> NcclStatus {
        let (state, (nccl_calls, staged_calls)) = match c.inner.nccl.0.get() {
            _ if disabled(c) => (NcclState::Disabled, (0, 0)),
            None => (NcclState::Undecided, (0, 0)),
            Some(Decided::Off(why)) => (NcclState::Off(why.clone()), (0, 0)),
            Some(Decided::On(core)) => (NcclState::On, core.calls()),
        };
        NcclStatus {
            state,
            nccl_calls,
            staged_calls,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gpu_is_the_first_device_buffer_else_the_current_context() {
        let dev = |o| Memory::Device { ordinal: o };
        assert_eq!(pick_gpu(&[dev(2), dev(0)], Some(1)), Some(2));
        assert_eq!(pick_gpu(&[Memory::Host, dev(3)], None), Some(3));
        assert_eq!(pick_gpu(&[Memory::Host, Memory::Managed], Some(1)), Some(1));
        assert_eq!(pick_gpu(&[Memory::Host], None), None);
        assert_eq!(pick_gpu(&[], Some(0)), Some(0));
    }

    #[test]
    fn only_equal_blocks_matching_the_buffers_route() {
        assert!(equal_blocks(&[3, 3, 3], 9, 3, 3));
        assert!(equal_blocks(&[0, 0], 0, 0, 2));
        assert!(!equal_blocks(&[3, 2, 3], 8, 3, 3), "unequal counts");
        assert!(
            !equal_blocks(&[3, 3], 6, 3, 3),
            "counts shorter than the communicator"
        );
        assert!(!equal_blocks(&[3, 3, 3], 8, 3, 3), "send too short");
        assert!(!equal_blocks(&[3, 3, 3], 9, 2, 3), "recv is not one block");
        assert!(
            !equal_blocks(&[usize::MAX; 2], usize::MAX, usize::MAX, 2),
            "overflow"
        );
    }

    #[test]
    fn a_rank_vetoes_without_libraries_or_a_gpu_in_range() {
        assert_eq!(local_verdict(true, Some(0), 1, 0), Ok(()));
        assert_eq!(local_verdict(true, Some(3), 4, 0), Ok(()));
        assert_eq!(
            local_verdict(false, Some(0), 1, 5),
            Err(Fallback::NcclMissing)
        );
        assert_eq!(
            local_verdict(true, None, 2, 5),
            Err(Fallback::NoGpuChosen { rank: 5 })
        );
        assert_eq!(
            local_verdict(true, Some(2), 2, 1),
            Err(Fallback::NoGpuChosen { rank: 1 })
        );
    }
}
