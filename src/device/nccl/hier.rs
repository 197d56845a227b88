//! The hierarchical communicator: NCCL among the ranks of one host (one GPU each), nexar
//! between hosts (one leader per host), NCCL inside each host again.

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

/// A communicator whose allreduce / bcast / allgather / reduce_scatter on device buffers run
/// through NCCL inside each host, and through the staged CUDA path otherwise (the reason is
/// logged once). Built collectively by [`NcclHier::new`]; use it from one thread at a time.
pub struct NcclHier {
    comm: Comm,
    gpu: i32,
    nccl: Option<Nccl>,
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

/// An NCCL communicator, destroyed on drop.
struct RawComm(ns::ncclComm_t);

// SAFETY: used by one thread at a time (documented on `NcclHier`); NCCL allows a
// communicator to move between threads.
unsafe impl Send for RawComm {}

impl Drop for RawComm {
    fn drop(&mut self) {
        // SAFETY: created by `comm_init_rank`, destroyed once.
        unsafe { _ = nr::comm_destroy(self.0) };
    }
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

impl NcclHier {
    /// Sets up over `comm` (collective): this rank runs NCCL on GPU `gpu` (`None`: it has
    /// none). When some host cannot run NCCL (see [`Fallback`]) every rank gets a
    /// communicator that always takes the staged path.
    pub async fn new(comm: &Comm, gpu: Option<i32>) -> Result<Self> {
        let host = comm.split_by_host(comm.rank() as i32).await?;
        // SAFETY: only tries to open the library by its usual names.
        let loadable = super::super::available()
            && unsafe { ns::is_culib_present() }
            && gpu.is_some_and(|g| (0..super::super::device_count()).contains(&g));
        let mine = [gpu.unwrap_or(-1), i32::from(loadable)];
        let mut all = vec![0i32; 2 * host.size() as usize];
        host.allgather(&mine, &mut all).await?;
        let gpus: Vec<Option<i32>> = all.chunks(2).map(|c| (c[0] >= 0).then_some(c[0])).collect();
        let verdict = select::select_host(&HostSetup {
            feature: true,
            nccl_loadable: all.chunks(2).all(|c| c[1] == 1),
            gpus: &gpus,
        });
        let gpu_or = gpu.unwrap_or(-1);
        if let Some(why) = agree(comm, verdict).await? {
            super::log_fallback(&why);
            return Ok(Self {
                comm: comm.clone(),
                gpu: gpu_or,
                nccl: None,
            });
        }
        // A failed set-up on one host must not leave the others waiting: agree on it too.
        let raw = init_host_comm(&host, gpu_or).await;
        let verdict = raw
            .as_ref()
            .map(|_| ())
            .map_err(|e| Fallback::NcclInit(e.to_string()));
        if let Some(why) = agree(comm, verdict).await? {
            super::log_fallback(&why);
            return Ok(Self {
                comm: comm.clone(),
                gpu: gpu_or,
                nccl: None,
            });
        }
        let raw = raw?;
        let local = host.rank();
        let leaders = comm
            .split((local == 0).then_some(0), comm.rank() as i32)
            .await?;
        // Host index = the leader's rank among the leaders, told to the host by its leader.
        let mut idx = [leaders.as_ref().map_or(0, |l| l.rank())];
        host.bcast(&mut idx, 0).await?;
        let mut places = vec![0u32; 2 * comm.size() as usize];
        comm.allgather(&[idx[0], local], &mut places).await?;
        let places: Vec<(u32, u32)> = places.chunks(2).map(|c| (c[0], c[1])).collect();
        let hosts = places.iter().map(|p| p.0 + 1).max().unwrap_or(1);
        Ok(Self {
            comm: comm.clone(),
            gpu: gpu_or,
            nccl: Some(Nccl {
                raw,
                places,
                leaders,
                hosts,
            }),
        })
    }

    /// Whether the NCCL path is set up (every host has one distinct GPU per rank and NCCL).
    pub fn uses_nccl(&self) -> bool {
        self.nccl.is_some()
    }

    /// The communicator this runs over.
    pub fn comm(&self) -> &Comm {
        &self.comm
    }

    /// Decides, with every rank, whether this call takes the NCCL path.
    async fn route(&self, bufs: &[Memory], red: Option<(Datatype, ReduceOp)>) -> Result<bool> {
        if self.nccl.is_none() {
            return Ok(false);
        }
        let why = agree(&self.comm, select::select_call(self.gpu, bufs, red)).await?;
        if let Some(why) = &why {
            super::log_fallback(why);
        }
        Ok(why.is_none())
    }

    /// Allreduce of `buf` in place (a device buffer on this rank's GPU for the NCCL path).
    pub async fn allreduce<T: Element>(&self, buf: &mut [T], op: ReduceOp) -> Result<()> {
        let kinds = [kind(buf.as_ptr().cast())];
        if !self.route(&kinds, Some((T::DATATYPE, op))).await? {
            return self.comm.allreduce(buf, op).await;
        }
        self.allreduce_nccl(buf, T::DATATYPE, op).await
    }

    /// Bcast of `buf` from `root`.
    pub async fn bcast<T: Element>(&self, buf: &mut [T], root: u32) -> Result<()> {
        let kinds = [kind(buf.as_ptr().cast())];
        if root >= self.comm.size() || !self.route(&kinds, None).await? {
            return self.comm.bcast(buf, root).await;
        }
        let n = self.nccl.as_ref().expect("routed to NCCL");
        let (rh, rl) = n.places[root as usize];
        let (mine, _) = n.places[self.comm.rank() as usize];
        let p = buf.as_mut_ptr().cast::<c_void>();
        let (len, bytes) = (std::mem::size_of_val(buf), ns::ncclDataType_t::ncclUint8);
        // Root's host: from the root to its leader (and everyone local).
        if mine == rh && rl != 0 {
            // SAFETY: device buffer of `len` bytes on this rank's GPU (routed).
            self.run(|c| unsafe { nr::broadcast(p, p, len, bytes, rl as i32, c, null()) })?;
        }
        if let Some(l) = n.leaders.as_ref().filter(|_| n.hosts > 1) {
            l.bcast(buf, rh).await?;
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
    pub async fn allgather<T: Element>(&self, send: &[T], recv: &mut [T]) -> Result<()> {
        let want = send.len() * self.comm.size() as usize;
        if recv.len() != want {
            return Err(bad_len("allgather", recv.len(), want));
        }
        let kinds = [kind(send.as_ptr().cast()), kind(recv.as_ptr().cast())];
        if !self.route(&kinds, None).await? {
            return self.comm.allgather(send, recv).await;
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
        let at = r as u64 + (self.comm.rank() as usize * block) as u64;
        let total = block * self.comm.size() as usize;
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
    pub async fn reduce_scatter<T: Element>(
        &self,
        send: &[T],
        recv: &mut [T],
        op: ReduceOp,
    ) -> Result<()> {
        let want = recv.len() * self.comm.size() as usize;
        if send.len() != want {
            return Err(bad_len("reduce_scatter", send.len(), want));
        }
        let kinds = [kind(send.as_ptr().cast()), kind(recv.as_ptr().cast())];
        if !self.route(&kinds, Some((T::DATATYPE, op))).await? {
            return self.comm.reduce_scatter_block(send, recv, op).await;
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
        let from = tmp.ptr() + (self.comm.rank() as usize * block) as u64;
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
            f(n.raw.0).map_err(|e| nccl_err("collective", e))?;
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
    comm.allreduce(&mut code, ReduceOp::Max).await?;
    Ok(match (code[0], verdict) {
        (0, _) => None,
        (_, Err(why)) => Some(why),
        (_, Ok(())) => Some(Fallback::Elsewhere),
    })
}

/// Makes the host's NCCL communicator: local rank 0 makes the unique id, a nexar bcast on the
/// host communicator hands it out.
async fn init_host_comm(host: &Comm, gpu: i32) -> Result<RawComm> {
    // Byte 0: 1 if the id is valid (local rank 0 may fail to make one).
    let mut msg = [0u8; 129];
    if let Some(id) = (host.rank() == 0)
        .then(nr::get_uniqueid)
        .and_then(|r| r.ok())
    {
        msg[0] = 1;
        for (d, s) in msg[1..].iter_mut().zip(id.internal) {
            *d = s as u8;
        }
    }
    host.bcast(&mut msg, 0).await?;
    if msg[0] != 1 {
        return Err(Error::new(
            ErrorKind::Internal,
            "NCCL: ncclGetUniqueId failed on local rank 0",
        ));
    }
    let mut id = ns::ncclUniqueId { internal: [0; 128] };
    for (d, s) in id.internal.iter_mut().zip(&msg[1..]) {
        *d = *s as _;
    }
    let mut raw: ns::ncclComm_t = std::ptr::null_mut();
    with_context(gpu, || {
        // SAFETY: out-parameter; every local rank calls this with the same id.
        unsafe { nr::comm_init_rank(&mut raw, host.size() as i32, id, host.rank() as i32) }
            .map_err(|e| nccl_err("ncclCommInitRank", e))
            .map(drop)
    })?;
    Ok(RawComm(raw))
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
