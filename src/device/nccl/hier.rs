//! The hierarchical communicator: NCCL among the ranks of one host (one GPU each), nexar
//! between hosts (one leader per host), NCCL inside each host again.
//!
//! [`Core`] holds the NCCL side and takes the communicator as an argument, so a communicator
//! can cache its own `Core` (automatic routing, `super::auto`) without owning itself.
//! Every nexar round here uses the unrouted collectives of `super::plain`.

use super::init::{RawComm, init_host_comm};
use super::plain;
use super::select::{self, Fallback, HostSetup};
use crate::comm::Comm;
use crate::device::cuda::{checked, with_context};
use crate::device::{Memory, classify};
use crate::element::Element;
use crate::error::{Error, ErrorKind, Result};
use cudarc::driver::sys as cu;
use cudarc::nccl::{result as nr, sys as ns};
use nexar_proto::{Datatype, ReduceOp};
use std::ffi::c_void;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// A communicator whose allreduce / bcast / allgather / reduce_scatter on device buffers run
/// through NCCL inside each host, and through the staged CUDA path otherwise (the reason is
/// logged once). Built collectively by [`NcclHier::new`]; use it from one thread at a time.
pub struct NcclHier {
    comm: Comm,
    core: Core,
}

/// The hierarchical machinery over some communicator passed to each call.
pub(crate) struct Core {
    gpu: i32,
    nccl: Option<Nccl>,
    /// Why the NCCL side is absent (agreed at set-up), when it is.
    why_not: Option<Fallback>,
    /// Calls that ran through NCCL.
    nccl_calls: AtomicU64,
    /// Calls whose per-call agreement chose the staged path.
    staged_calls: AtomicU64,
    /// One call at a time on this rank: a call is several engine collectives and NCCL calls
    /// that must not interleave with another thread's (NCCL communicators are not
    /// thread-safe).
    turn: tokio::sync::Mutex<()>,
}

/// The NCCL side, present when every host passed [`select::select_host`].
struct Nccl {
    /// This host's NCCL communicator (local rank order = rank order in `comm`).
    raw: RawComm,
    /// `(host index, local rank)` of every rank of the communicator.
    places: Vec<(u32, u32)>,
    /// The host leaders (local rank 0), ordered by host index; `None` on other ranks.
    leaders: Option<Comm>,
    hosts: u32,
}

fn nccl_err(what: &str, e: nr::NcclError) -> Error {
    Error::new(
        ErrorKind::Internal,
        format!("NCCL {what} failed: {:?}", e.0),
    )
}

fn bad_len(what: &str, got: usize, want: usize) -> Error {
    Error::new(
        ErrorKind::InvalidArgument,
        format!("NcclHier::{what}: buffer has {got} elements, expected {want}"),
    )
}

/// The deadline for NCCL's set-up on `comm`'s engine (`NEXAR_NCCL_INIT_TIMEOUT_MS`, else the
/// connect timeout).
pub(crate) fn init_deadline(comm: &Comm) -> Duration {
    let cfg = &comm.inner.engine.cfg;
    cfg.nccl_init_timeout.unwrap_or(cfg.connect_timeout)
}

impl NcclHier {
    /// Sets up over `comm` (collective): this rank runs NCCL on GPU `gpu` (`None`: it has
    /// none). When some host cannot run NCCL (see [`Fallback`]), or NCCL's set-up fails or
    /// misses its deadline on some rank (`NEXAR_NCCL_INIT_TIMEOUT_MS`), every rank gets a
    /// communicator that always takes the staged path.
    pub async fn new(comm: &Comm, gpu: Option<i32>) -> Result<Self> {
        let core = Core::new(comm, gpu, init_deadline(comm)).await?;
        Ok(Self {
            comm: comm.clone(),
            core,
        })
    }

    /// Whether the NCCL path is set up (every host has one distinct GPU per rank and NCCL).
    pub fn uses_nccl(&self) -> bool {
        self.core.uses_nccl()
    }

    /// Why the NCCL path is not set up (`None` when it is).
    pub fn fallback(&self) -> Option<&Fallback> {
        self.core.why_not.as_ref()
    }

    /// Calls so far that ran through NCCL, and calls that took the staged path.
    pub fn calls(&self) -> (u64, u64) {
        self.core.calls()
    }

    /// The communicator this runs over.
    pub fn comm(&self) -> &Comm {
        &self.comm
    }

    /// Allreduce of `buf` in place (a device buffer on this rank's GPU for the NCCL path).
    pub async fn allreduce<T: Element>(&self, buf: &mut [T], op: ReduceOp) -> Result<()> {
        self.core.allreduce(&self.comm, buf, op).await
    }

    /// Bcast of `buf` from `root`.
    pub async fn bcast<T: Element>(&self, buf: &mut [T], root: u32) -> Result<()> {
        self.core.bcast(&self.comm, buf, root).await
    }

    /// Allgather: `recv` gets every rank's `send` in rank order (`send.len() * size`).
    pub async fn allgather<T: Element>(&self, send: &[T], recv: &mut [T]) -> Result<()> {
        self.core.allgather(&self.comm, send, recv).await
    }

    /// Reduce-scatter with equal blocks: rank `i` gets block `i` (`recv.len()` elements) of
    /// the reduction of every rank's `send` (`recv.len() * size` elements).
    pub async fn reduce_scatter<T: Element>(
        &self,
        send: &[T],
        recv: &mut [T],
        op: ReduceOp,
    ) -> Result<()> {
        self.core.reduce_scatter(&self.comm, send, recv, op).await
    }
}

impl Core {
    /// Sets up over `comm` (collective); see [`NcclHier::new`].
    pub(crate) async fn new(comm: &Comm, gpu: Option<i32>, deadline: Duration) -> Result<Self> {
        let host = comm.split_by_host(comm.rank() as i32).await?;
        // SAFETY: only tries to open the library by its usual names.
        let loadable = super::super::available()
            && unsafe { ns::is_culib_present() }
            && gpu.is_some_and(|g| (0..super::super::device_count()).contains(&g));
        let mine = [gpu.unwrap_or(-1), i32::from(loadable)];
        let mut all = vec![0i32; 2 * host.size() as usize];
        plain::allgather(&host, &mine, &mut all).await?;
        let gpus: Vec<Option<i32>> = all.chunks(2).map(|c| (c[0] >= 0).then_some(c[0])).collect();
        let verdict = select::select_host(&HostSetup {
            feature: true,
            nccl_loadable: all.chunks(2).all(|c| c[1] == 1),
            gpus: &gpus,
        });
        let gpu_or = gpu.unwrap_or(-1);
        let off = |why: Fallback| {
            super::log_fallback(&why);
            Self::made(gpu_or, None, Some(why))
        };
        if let Some(why) = agree(comm, verdict).await? {
            return Ok(off(why));
        }
        // A failed or late set-up on one host must not leave the others waiting: it has a
        // deadline, and every rank agrees on the outcome.
        let raw = init_host_comm(&host, gpu_or, deadline).await;
        let verdict = raw
            .as_ref()
            .map(|_| ())
            .map_err(|e| Fallback::NcclInit(e.to_string()));
        if let Some(why) = agree(comm, verdict).await? {
            if let Ok(raw) = raw {
                raw.abort(); // a peer gave up: destroying could wait for it
            }
            return Ok(off(why));
        }
        let raw = raw?;
        let local = host.rank();
        let leaders = comm
            .split((local == 0).then_some(0), comm.rank() as i32)
            .await?;
        // Host index = the leader's rank among the leaders, told to the host by its leader.
        let mut idx = [leaders.as_ref().map_or(0, |l| l.rank())];
        plain::bcast(&host, &mut idx, 0).await?;
        let mut places = vec![0u32; 2 * comm.size() as usize];
        plain::allgather(comm, &[idx[0], local], &mut places).await?;
        let places: Vec<(u32, u32)> = places.chunks(2).map(|c| (c[0], c[1])).collect();
        let hosts = places.iter().map(|p| p.0 + 1).max().unwrap_or(1);
        let nccl = Nccl {
            raw,
            places,
            leaders,
            hosts,
        };
        Ok(Self::made(gpu_or, Some(nccl), None))
    }

    fn made(gpu: i32, nccl: Option<Nccl>, why_not: Option<Fallback>) -> Self {
        Self {
            gpu,
            nccl,
            why_not,
            nccl_calls: AtomicU64::new(0),
            staged_calls: AtomicU64::new(0),
            turn: tokio::sync::Mutex::new(()),
        }
    }

    /// A fake for unit tests: a core without NCCL (as when some rank vetoed at set-up), so
    /// every call takes the staged path after the same bookkeeping.
    #[cfg(test)]
    pub(crate) fn staged_only() -> Self {
        Self::made(-1, None, Some(Fallback::Elsewhere))
    }

    /// Whether the NCCL path is set up.
    pub(crate) fn uses_nccl(&self) -> bool {
        self.nccl.is_some()
    }

    /// Why the NCCL path is not set up.
    pub(crate) fn why_not(&self) -> Option<&Fallback> {
        self.why_not.as_ref()
    }

    /// Calls that ran through NCCL, and calls that took the staged path.
    pub(crate) fn calls(&self) -> (u64, u64) {
        (
            self.nccl_calls.load(Ordering::Relaxed),
            self.staged_calls.load(Ordering::Relaxed),
        )
    }

    /// Decides, with every rank of `comm`, whether this call takes the NCCL path.
    async fn route(
        &self,
        comm: &Comm,
        bufs: &[Memory],
        red: Option<(Datatype, ReduceOp)>,
    ) -> Result<bool> {
        if self.nccl.is_none() {
            self.staged_calls.fetch_add(1, Ordering::Relaxed);
            return Ok(false);
        }
        let why = agree(comm, select::select_call(self.gpu, bufs, red)).await?;
        let counter = match &why {
            Some(why) => {
                super::log_fallback(why);
                &self.staged_calls
            }
            None => &self.nccl_calls,
        };
        counter.fetch_add(1, Ordering::Relaxed);
        Ok(why.is_none())
    }

    /// Allreduce of `buf` in place (a device buffer on this rank's GPU for the NCCL path).
    pub(crate) async fn allreduce<T: Element>(
        &self,
        comm: &Comm,
        buf: &mut [T],
        op: ReduceOp,
    ) -> Result<()> {
        let _turn = self.turn.lock().await;
        let kinds = [kind(buf.as_ptr().cast())];
        if !self.route(comm, &kinds, Some((T::DATATYPE, op))).await? {
            return plain::allreduce(comm, buf, op).await;
        }
        self.allreduce_nccl(buf, T::DATATYPE, op).await
    }

    /// Bcast of `buf` from `root`.
    pub(crate) async fn bcast<T: Element>(
        &self,
        comm: &Comm,
        buf: &mut [T],
        root: u32,
    ) -> Result<()> {
        let _turn = self.turn.lock().await;
        let kinds = [kind(buf.as_ptr().cast())];
        if root >= comm.size() || !self.route(comm, &kinds, None).await? {
            return plain::bcast(comm, buf, root).await;
        }
        let n = self.nccl.as_ref().expect("routed to NCCL");
        let (rh, rl) = n.places[root as usize];
        let (mine, _) = n.places[comm.rank() as usize];
        let p = buf.as_mut_ptr().cast::<c_void>();
        let (len, bytes) = (std::mem::size_of_val(buf), ns::ncclDataType_t::ncclUint8);
        // Root's host: from the root to its leader (and everyone local).
        if mine == rh && rl != 0 {
            // SAFETY: device buffer of `len` bytes on this rank's GPU (routed).
            self.run(|c| unsafe { nr::broadcast(p, p, len, bytes, rl as i32, c, null()) })?;
        }
        if let Some(l) = n.leaders.as_ref().filter(|_| n.hosts > 1) {
            plain::bcast(l, buf, rh).await?;
        }
        // Every other host (and the root's, when the root is its leader): from the leader.
        if mine != rh || rl == 0 {
            let p = buf.as_mut_ptr().cast::<c_void>();
            // SAFETY: as above.
            self.run(|c| unsafe { nr::broadcast(p, p, len, bytes, 0, c, null()) })?;
        }
        Ok(())
    }

    /// Allgather: `recv` gets every rank's `send` in rank order (`send.len() * size`).
    pub(crate) async fn allgather<T: Element>(
        &self,
        comm: &Comm,
        send: &[T],
        recv: &mut [T],
    ) -> Result<()> {
        let _turn = self.turn.lock().await;
        let want = send.len() * comm.size() as usize;
        if recv.len() != want {
            return Err(bad_len("allgather", recv.len(), want));
        }
        let kinds = [kind(send.as_ptr().cast()), kind(recv.as_ptr().cast())];
        if !self.route(comm, &kinds, None).await? {
            return plain::allgather(comm, send, recv).await;
        }
        let n = self.nccl.as_ref().expect("routed to NCCL");
        let (s, r) = (
            send.as_ptr().cast::<c_void>(),
            recv.as_mut_ptr().cast::<c_void>(),
        );
        let block = std::mem::size_of_val(send);
        if n.hosts == 1 {
            let u8t = ns::ncclDataType_t::ncclUint8;
            // SAFETY: device buffers of `block` and `block * size` bytes (routed, checked).
            return self.run(|c| unsafe { nr::all_gather(s, r, block, u8t, c, null()) });
        }
        // Across hosts: own block in a zeroed result, then a byte-sum allreduce (exact: each
        // byte has one non-zero contributor at most).
        let at = r as u64 + (comm.rank() as usize * block) as u64;
        let total = block * comm.size() as usize;
        with_context(self.gpu, || {
            // SAFETY: `recv` is a device buffer of `total` bytes on this rank's GPU (routed).
            let zeroed = unsafe { cu::cuMemsetD8_v2(r as u64, 0, total) };
            checked(zeroed, "cuMemsetD8")?;
            // SAFETY: `send` holds `block` bytes; `at` is block `rank` of `recv`.
            let copied = unsafe { cu::cuMemcpyDtoD_v2(at, s as u64, block) };
            checked(copied, "cuMemcpyDtoD")
        })?;
        let bytes = bytemuck::cast_slice_mut::<T, u8>(recv);
        self.allreduce_nccl(bytes, Datatype::U8, ReduceOp::Sum)
            .await
    }

    /// Reduce-scatter with equal blocks: rank `i` gets block `i` (`recv.len()` elements) of
    /// the reduction of every rank's `send` (`recv.len() * size` elements).
    pub(crate) async fn reduce_scatter<T: Element>(
        &self,
        comm: &Comm,
        send: &[T],
        recv: &mut [T],
        op: ReduceOp,
    ) -> Result<()> {
        let _turn = self.turn.lock().await;
        let want = recv.len() * comm.size() as usize;
        if send.len() != want {
            return Err(bad_len("reduce_scatter", send.len(), want));
        }
        let kinds = [kind(send.as_ptr().cast()), kind(recv.as_ptr().cast())];
        if !self.route(comm, &kinds, Some((T::DATATYPE, op))).await? {
            return plain::reduce_scatter_block(comm, send, recv, op).await;
        }
        let n = self.nccl.as_ref().expect("routed to NCCL");
        let (dt, rop) = nccl_kinds(T::DATATYPE, op);
        let (s, r) = (
            send.as_ptr().cast::<c_void>(),
            recv.as_mut_ptr().cast::<c_void>(),
        );
        let count = recv.len();
        if n.hosts == 1 {
            // SAFETY: device buffers of the checked lengths (routed).
            return self.run(|c| unsafe { nr::reduce_scatter(s, r, count, dt, rop, c, null()) });
        }
        // Across hosts: the hierarchical allreduce of a device copy, then this rank's block.
        let bytes = std::mem::size_of_val(send);
        let mut tmp = crate::device::DeviceBuffer::new(self.gpu, bytes)?;
        let block = std::mem::size_of_val(recv);
        let from = tmp.ptr() + (comm.rank() as usize * block) as u64;
        with_context(self.gpu, || {
            // SAFETY: both device buffers hold `bytes` bytes.
            checked(
                unsafe { cu::cuMemcpyDtoD_v2(tmp.ptr(), s as u64, bytes) },
                "cuMemcpyDtoD",
            )
        })?;
        // SAFETY: `tmp` is a device buffer of `bytes` bytes; only handed to NCCL and nexar.
        let all = unsafe { tmp.as_slice_mut::<T>() };
        self.allreduce_nccl(all, T::DATATYPE, op).await?;
        with_context(self.gpu, || {
            // SAFETY: `recv` holds `block` bytes; `from` lies inside `tmp`.
            checked(
                unsafe { cu::cuMemcpyDtoD_v2(r as u64, from, block) },
                "cuMemcpyDtoD",
            )
        })
    }

    /// The routed allreduce: NCCL reduce to the leader, nexar allreduce among the leaders
    /// (staged from the device), NCCL bcast from the leader; one NCCL allreduce on one host.
    async fn allreduce_nccl<T: Element>(
        &self,
        buf: &mut [T],
        d: Datatype,
        op: ReduceOp,
    ) -> Result<()> {
        let n = self.nccl.as_ref().expect("routed to NCCL");
        let (dt, rop) = nccl_kinds(d, op);
        let count = std::mem::size_of_val(buf) / d.size();
        let p = buf.as_mut_ptr().cast::<c_void>();
        if n.hosts == 1 {
            // SAFETY: a device buffer of `count` elements on this rank's GPU (routed).
            return self.run(|c| unsafe { nr::all_reduce(p, p, count, dt, rop, c, null()) });
        }
        // SAFETY: as above.
        self.run(|c| unsafe { nr::reduce(p, p, count, dt, rop, 0, c, null()) })?;
        if let Some(l) = &n.leaders {
            // The engine stages the device input at start and lands the result through its
            // device hooks.
            let bytes = bytemuck::cast_slice_mut::<T, u8>(buf);
            let pending = l.start_allreduce(bytes, d, op)?;
            pending.finish_into(bytes).await?;
        }
        let p = buf.as_mut_ptr().cast::<c_void>();
        // SAFETY: as above.
        self.run(|c| unsafe { nr::broadcast(p, p, count, dt, 0, c, null()) })
    }

    /// Runs one NCCL call on this rank's GPU and waits for it.
    fn run(
        &self,
        f: impl FnOnce(ns::ncclComm_t) -> std::result::Result<nr::NcclStatus, nr::NcclError>,
    ) -> Result<()> {
        let n = self.nccl.as_ref().expect("routed to NCCL");
        with_context(self.gpu, || {
            let st = f(n.raw.0).map_err(|e| nccl_err("collective", e))?;
            // A non-blocking communicator may still be enqueueing the call: wait until it
            // is, so the synchronisation below covers it.
            if st == nr::NcclStatus::InProgress {
                n.raw.settle(Duration::MAX)?;
            }
            // SAFETY: plain synchronisation of the current context.
            checked(unsafe { cu::cuCtxSynchronize() }, "cuCtxSynchronize")
        })
    }
}

/// The legacy default stream (NCCL work is ordered with the caller's default-stream work).
fn null() -> ns::cudaStream_t {
    std::ptr::null_mut()
}

fn kind(p: *const u8) -> Memory {
    classify(p)
}

/// Agrees on a verdict across `comm`: `None` when every rank selected NCCL, else this
/// rank's own reason (or [`Fallback::Elsewhere`]).
async fn agree(
    comm: &Comm,
    verdict: std::result::Result<(), Fallback>,
) -> Result<Option<Fallback>> {
    let mut code = [verdict.as_ref().err().map_or(0u8, Fallback::code)];
    plain::allreduce(comm, &mut code, ReduceOp::Max).await?;
    Ok(match (code[0], verdict) {
        (0, _) => None,
        (_, Err(why)) => Some(why),
        (_, Ok(())) => Some(Fallback::Elsewhere),
    })
}

/// NCCL's type and operator for a routed call (checked by [`select::select_call`]).
fn nccl_kinds(d: Datatype, op: ReduceOp) -> (ns::ncclDataType_t, ns::ncclRedOp_t) {
    use ns::ncclDataType_t as T;
    use ns::ncclRedOp_t as O;
    let t = match select::nccl_type(d) {
        Some(0) => T::ncclInt8,
        Some(2) => T::ncclInt32,
        Some(3) => T::ncclUint32,
        Some(4) => T::ncclInt64,
        Some(5) => T::ncclUint64,
        Some(6) => T::ncclFloat16,
        Some(7) => T::ncclFloat32,
        Some(8) => T::ncclFloat64,
        Some(9) => T::ncclBfloat16,
        _ => T::ncclUint8,
    };
    let o = match select::nccl_op(op) {
        Some(1) => O::ncclProd,
        Some(2) => O::ncclMax,
        Some(3) => O::ncclMin,
        _ => O::ncclSum,
    };
    (t, o)
}
