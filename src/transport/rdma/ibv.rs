//! The verbs glue (cargo feature `rdma`): the device probe and a [`QueuePair`] on a real
//! reliable-connected queue pair, through the `ibverbs` crate (libibverbs).
//!
//! NOT TESTED ON HARDWARE: the machine this was written on has no RDMA device and no kernel
//! RDMA support (`ibv_get_device_list` fails with `ENOSYS`), so only the probe's "no device"
//! path has run. The lane protocol above it (`stream.rs`, `setup.rs`) is tested with fakes.
//!
//! One device context and one protection domain per process, opened at the first probe and
//! leaked on purpose (`Box::leak`): every queue pair and registered buffer borrows them, a
//! process uses the device until it exits, and the kernel releases both when it does. Buffer
//! pools come from a process-wide [`MrCache`] and go back to it when a queue pair is dropped,
//! so a lane set up again (another peer, a later job phase) does not register memory again.

use super::mr_cache::MrCache;
use super::probe::Found;
use super::setup::{Endpoint, Pools, PreparedQp, QpFactory};
use super::{Completion, QueuePair};
use ibverbs::{CompletionQueue, MemoryRegion, ProtectionDomain, QueuePairEndpoint, ibv_wc};
use parking_lot::Mutex;
use std::io;
use std::sync::{Arc, OnceLock};

/// Idle registered memory the process keeps for later lanes.
const CACHE_LIMIT: usize = 256 << 20;
/// Bit of a work request id that marks a receive (the low bits are the slot).
const RECV_BIT: u64 = 1 << 32;
/// Completions taken from the queue per poll.
const POLL_BATCH: usize = 32;

/// `IBV_GID_TYPE_ROCE_V2` of `<infiniband/verbs.h>` (the crate re-exports the type only).
const GID_TYPE_ROCE_V2: ibverbs::ibv_gid_type = 2;

type Region = MemoryRegion<u8>;

fn cache() -> &'static Mutex<MrCache<Region>> {
    static CACHE: OnceLock<Mutex<MrCache<Region>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(MrCache::new(CACHE_LIMIT)))
}

/// Why `ibv_get_device_list` failed, in words a user can act on.
fn list_failure(e: &io::Error) -> String {
    let hint = match e.raw_os_error() {
        Some(libc::ENOSYS) => {
            "this kernel has no RDMA support (no InfiniBand or RoCE driver, no rdma_rxe)"
        }
        Some(libc::EPERM) | Some(libc::EACCES) => "permission denied on /dev/infiniband",
        _ => "libibverbs could not list devices",
    };
    format!("no RDMA device: ibv_get_device_list failed: {e}; {hint}")
}

/// Lists the devices and opens the first one (see the module docs for why it is leaked).
pub(super) fn probe() -> Result<Found, String> {
    let list = ibverbs::devices().map_err(|e| list_failure(&e))?;
    let names: Vec<String> = list
        .iter()
        .map(|d| {
            d.name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "(unnamed)".to_string())
        })
        .collect();
    let Some(dev) = list.get(0) else {
        return Err(
            "no RDMA device: libibverbs lists none (no InfiniBand or RoCE adapter, or \
                    its driver is not loaded)"
                .to_string(),
        );
    };
    let name = names[0].clone();
    let ctx = dev
        .open()
        .map_err(|e| format!("cannot open RDMA device {name}: {e}"))?;
    let ctx: &'static ibverbs::Context = Box::leak(Box::new(ctx));
    let pd = ctx
        .alloc_pd()
        .map_err(|e| format!("cannot allocate a protection domain on {name}: {e}"))?;
    let pd: &'static ProtectionDomain<'static> = Box::leak(Box::new(pd));
    // RoCE needs a GID (its LID is 0); prefer a RoCE v2 entry (routable over IP).
    let table = ctx.gid_table();
    let gid_index = table
        .iter()
        .find(|g| g.gid_type == GID_TYPE_ROCE_V2)
        .or_else(|| table.first())
        .map(|g| g.gid_index);
    tracing::debug!(device = %name, ?gid_index, "RDMA device opened");
    Ok(Found {
        device: name,
        all: names,
        factory: Arc::new(IbvFactory { ctx, pd, gid_index }),
    })
}

/// Makes queue pairs on the process's device.
struct IbvFactory {
    ctx: &'static ibverbs::Context,
    pd: &'static ProtectionDomain<'static>,
    gid_index: Option<u32>,
}

/// Registered buffers of one queue pair, taken from the cache; given back when dropped.
struct Slots {
    pools: Pools,
    send: Vec<Region>,
    recv: Vec<Region>,
}

impl Slots {
    fn take(pd: &'static ProtectionDomain<'static>, pools: &Pools) -> io::Result<Self> {
        let mut s = Slots {
            pools: *pools,
            send: Vec::new(),
            recv: Vec::new(),
        };
        let mut cache = cache().lock();
        let register = |n: usize| pd.allocate::<u8>(n);
        for _ in 0..pools.send_slots {
            s.send
                .push(cache.take(pools.send_slot_len as usize, register)?);
        }
        for _ in 0..pools.recv_slots {
            s.recv
                .push(cache.take(pools.recv_slot_len as usize, register)?);
        }
        Ok(s)
    }
}

impl Drop for Slots {
    fn drop(&mut self) {
        let mut cache = cache().lock();
        for m in self.send.drain(..) {
            cache.give_back(self.pools.send_slot_len as usize, m);
        }
        for m in self.recv.drain(..) {
            cache.give_back(self.pools.recv_slot_len as usize, m);
        }
    }
}

fn to_endpoint(e: &QueuePairEndpoint) -> Endpoint {
    let gid = e.gid.map(|g| {
        let mut raw = [0u8; 16];
        raw[..8].copy_from_slice(&g.subnet_prefix().to_be_bytes());
        raw[8..].copy_from_slice(&g.interface_id().to_be_bytes());
        raw
    });
    Endpoint {
        qp_num: e.num,
        lid: e.lid,
        gid,
    }
}

fn from_endpoint(e: &Endpoint) -> QueuePairEndpoint {
    let gid = e.gid.map(|raw| {
        let mut g = ibverbs::Gid::default();
        // Writing a union field is safe; `raw` is the GID's byte view.
        AsMut::as_mut(&mut g).raw = raw;
        g
    });
    QueuePairEndpoint {
        num: e.qp_num,
        lid: e.lid,
        gid,
    }
}

impl QpFactory for IbvFactory {
    fn prepare(&self, pools: &Pools) -> io::Result<Box<dyn PreparedQp>> {
        pools.check().map_err(io::Error::other)?;
        let entries = (pools.send_slots + pools.recv_slots) as i32;
        let cq = Box::new(self.ctx.create_cq(entries, 0)?);
        // SAFETY: the completion queue lives on the heap (its address never changes) and is
        // owned by the same `Prepared` / `IbvQp` as the queue pair that borrows it, which
        // declares the queue pair first so it is destroyed before the queue.
        let cq_ref: &'static CompletionQueue<'static> =
            unsafe { &*(cq.as_ref() as *const CompletionQueue<'static>) };
        let mut builder = self
            .pd
            .create_qp(cq_ref, cq_ref, ibverbs::ibv_qp_type::IBV_QPT_RC);
        builder
            .set_max_send_wr(pools.send_slots)
            .set_max_recv_wr(pools.recv_slots);
        if let Some(g) = self.gid_index {
            builder.set_gid_index(g);
        }
        let qp = builder.build()?;
        let slots = Slots::take(self.pd, pools)?;
        Ok(Box::new(Prepared { qp, cq, slots }))
    }
}

/// A queue pair built but not connected. Field order is drop order: the queue pair goes
/// before the completion queue it uses, then the buffers go back to the cache.
struct Prepared {
    qp: ibverbs::PreparedQueuePair<'static>,
    cq: Box<CompletionQueue<'static>>,
    slots: Slots,
}

impl PreparedQp for Prepared {
    fn endpoint(&self) -> Endpoint {
        to_endpoint(&self.qp.endpoint())
    }

    fn connect(self: Box<Self>, remote: &Endpoint) -> io::Result<Box<dyn QueuePair>> {
        let Prepared { qp, cq, slots } = *self;
        // On failure the queue pair is destroyed inside `handshake`, before `cq` drops here.
        let qp = qp.handshake(from_endpoint(remote))?;
        // SAFETY: `ibv_wc` is plain integers (ids, lengths, status and opcode codes); all
        // zeros is a valid value.
        let blank: ibv_wc = unsafe { std::mem::zeroed() };
        Ok(Box::new(IbvQp {
            qp,
            cq,
            slots,
            wcs: vec![blank; POLL_BATCH],
        }))
    }
}

/// A connected queue pair. Field order is drop order (see [`Prepared`]).
struct IbvQp {
    qp: ibverbs::QueuePair<'static>,
    cq: Box<CompletionQueue<'static>>,
    slots: Slots,
    wcs: Vec<ibv_wc>,
}

fn bad(what: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, what)
}

impl QueuePair for IbvQp {
    fn send_slots(&self) -> usize {
        self.slots.send.len()
    }
    fn send_slot_len(&self) -> usize {
        self.slots.pools.send_slot_len as usize
    }
    fn recv_slots(&self) -> usize {
        self.slots.recv.len()
    }
    fn recv_slot_len(&self) -> usize {
        self.slots.pools.recv_slot_len as usize
    }
    fn send_buf(&mut self, slot: usize) -> &mut [u8] {
        let len = self.send_slot_len();
        &mut self.slots.send[slot][..len]
    }
    fn recv_buf(&self, slot: usize) -> &[u8] {
        &self.slots.recv[slot][..self.recv_slot_len()]
    }
    fn post_send(&mut self, slot: usize, len: usize) -> io::Result<()> {
        if slot >= self.send_slots() || len > self.send_slot_len() {
            return Err(bad(format!(
                "post_send: slot {slot} / {len} bytes outside {} slots of {} bytes",
                self.send_slots(),
                self.send_slot_len()
            )));
        }
        let mr = &mut self.slots.send[slot];
        // SAFETY: the buffer stays registered (owned by `self`, which destroys the queue pair
        // first) and the `QueuePair` contract forbids touching it until its completion.
        unsafe { self.qp.post_send(mr, ..len, slot as u64) }
    }
    fn post_recv(&mut self, slot: usize) -> io::Result<()> {
        if slot >= self.recv_slots() {
            return Err(bad(format!(
                "post_recv: slot {slot} outside {} slots",
                self.recv_slots()
            )));
        }
        let len = self.recv_slot_len();
        let mr = &mut self.slots.recv[slot];
        // SAFETY: as in `post_send`; the buffer is not read until its completion.
        unsafe { self.qp.post_receive(mr, ..len, RECV_BIT | slot as u64) }
    }
    fn poll(&mut self, out: &mut Vec<Completion>) -> io::Result<()> {
        loop {
            let done = self.cq.poll(&mut self.wcs)?;
            let n = done.len();
            for wc in done.iter() {
                let id = wc.wr_id();
                let slot = (id & (RECV_BIT - 1)) as usize;
                out.push(match wc.error() {
                    Some((status, vendor)) => Completion::Failed {
                        what: format!(
                            "work request {id:#x} failed with status {status} (vendor error \
                             {vendor:#x})"
                        ),
                    },
                    None if id & RECV_BIT != 0 => Completion::Received {
                        slot,
                        len: wc.len(),
                    },
                    None => Completion::Sent { slot },
                });
            }
            if n < POLL_BATCH {
                return Ok(());
            }
        }
    }
}
