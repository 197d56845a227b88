//! Bringing the transport up: the inbox is created before the rendezvous ([`prepare`]) and the
//! peers' inboxes are mapped after it ([`connect`]), when every rank's host name is known.

use super::segment::{CMA_PROBE, Segment, inbox_path};
use super::{
    Counters, Inner, LIVE, Peer, SLOT_BYTES, ShmTransport, cma, heartbeat, malloc, progress,
    slots_for,
};
use crate::transport::FrameSink;
use parking_lot::Mutex;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64, AtomicUsize};

/// Worlds larger than this do not use shared memory.
pub const MAX_WORLD: u32 = 4096;

/// Longest a rank waits for a local peer to lay out its inbox after the rendezvous (the peer
/// does it first thing once it has the host table; a peer that exits is noticed at once).
const LAYOUT_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

/// This rank's inbox, created before the rendezvous.
pub struct ShmInbox {
    seg: Segment,
    job_id: String,
    rank: u32,
}

/// Creates this rank's inbox for job `job_id` (its header only; [`connect`] lays out the rings).
/// `None` (logged) when shared memory is not available; the job then runs over the network
/// transport only.
pub fn prepare(job_id: &str, rank: u32, size: u32) -> Option<ShmInbox> {
    if !(2..=MAX_WORLD).contains(&size) {
        return None;
    }
    match Segment::create(&inbox_path(job_id, rank)) {
        Ok(seg) => Some(ShmInbox {
            seg,
            job_id: job_id.to_string(),
            rank,
        }),
        Err(e) => {
            tracing::info!(
                rank,
                "shared memory unavailable ({e}); using the network only"
            );
            None
        }
    }
}

/// Maps the inboxes of the ranks on this host (`hosts[r] == hosts[rank]`) and starts the
/// progress thread. `None` when no local peer could be reached. `cma` false forces frames
/// through the rings even when `process_vm_readv` would work; `caller_progress` lets blocked
/// callers read the rings on their own thread. `peer_timeout` bounds how long a local peer may
/// stall before it is declared failed (see `heartbeat.rs`).
#[allow(clippy::too_many_arguments)]
pub fn connect(
    inbox: ShmInbox,
    hosts: &[String],
    sink: Arc<dyn FrameSink>,
    max_message: u64,
    cma: bool,
    caller_progress: bool,
    peer_timeout: std::time::Duration,
) -> Option<ShmTransport> {
    let rank = inbox.rank;
    let mut me = inbox.seg;
    let Some(my_host) = hosts.get(rank as usize) else {
        me.unlink();
        return None;
    };
    // Rings are indexed by position among the host's ranks (world-rank order), which every
    // local rank computes alike from the same host table.
    let local: Vec<u32> = (0..hosts.len() as u32)
        .filter(|&r| &hosts[r as usize] == my_host)
        .collect();
    let n_local = local.len() as u32;
    if n_local <= 1 {
        me.unlink();
        return None;
    }
    let my_index = local.iter().position(|&r| r == rank)? as u32;
    let slots = slots_for(n_local);
    let started = std::time::Instant::now();
    if let Err(e) = me.finish(n_local, slots, SLOT_BYTES) {
        // Dropping `me` releases its liveness lock: peers waiting for the layout give up at once.
        tracing::info!(
            rank,
            "cannot lay out the shared-memory inbox ({e}); using the network only"
        );
        me.unlink();
        return None;
    }
    tracing::debug!(
        rank,
        local_ranks = n_local,
        slots,
        bytes = me.mapped_bytes(),
        "shm inbox laid out in {:?}",
        started.elapsed()
    );
    let deadline = std::time::Instant::now() + LAYOUT_WAIT;
    let mut peers: Vec<Option<Arc<Peer>>> = vec![None; hosts.len()];
    for (index, &r) in local.iter().enumerate().filter(|&(_, &r)| r != rank) {
        let seg = match Segment::open(&inbox_path(&inbox.job_id, r), deadline) {
            Ok(s) => s,
            Err(e) => {
                tracing::info!(rank, peer = r, "cannot map the peer's inbox ({e})");
                continue;
            }
        };
        seg.mark_mapped(n_local);
        let (Some(tx), Some(rx)) = (seg.ring(my_index), me.ring(index as u32)) else {
            continue;
        };
        // The producer (peer r) announces payloads only once we have shown we can read them.
        let can_copy = cma && cma::probe(seg.pid(), seg.probe_addr(), &CMA_PROBE);
        rx.cma_ok()
            .store(can_copy as u32, std::sync::atomic::Ordering::Release);
        peers[r as usize] = Some(Arc::new(Peer {
            rank: r,
            seg,
            tx,
            rx,
            out: Mutex::new(Default::default()),
            pending: AtomicBool::new(false),
            state: AtomicU8::new(LIVE),
            cma_failed: AtomicBool::new(false),
            inflight: Mutex::new(Default::default()),
            lost_reason: Default::default(),
        }));
    }
    if n_local <= 1 {
        me.unlink();
    }
    let local_peers: Vec<Arc<Peer>> = peers.iter().flatten().cloned().collect();
    if local_peers.is_empty() {
        me.unlink();
        return None;
    }
    let inner = Arc::new(Inner {
        rank,
        me,
        peers,
        local: local_peers.clone(),
        sink,
        max_message,
        next_token: AtomicU64::new(1),
        stop: AtomicBool::new(false),
        stats: Counters::default(),
        rx: Mutex::new(progress::RxSide::new(&local_peers)),
        callers: AtomicUsize::new(0),
        caller_exit: AtomicU32::new(0),
        caller_progress,
        spin: super::spin_limit(local_peers.len() + 1),
        fail_reads: std::env::var("NEXAR_SHM_TEST_FAIL_READS").is_ok_and(|v| v == "1"),
    });
    malloc::keep_large_buffers_warm();
    let for_thread = inner.clone();
    let thread = std::thread::Builder::new()
        .name(format!("nexar-shm-{rank}"))
        .spawn(move || progress::run(for_thread))
        .map_err(|e| tracing::warn!(rank, "cannot start the shm progress thread: {e}"))
        .ok()?;
    let for_watchdog = inner.clone();
    let watchdog = std::thread::Builder::new()
        .name(format!("nexar-beat-{rank}"))
        .spawn(move || heartbeat::run(for_watchdog, peer_timeout))
        .map_err(|e| tracing::warn!(rank, "cannot start the shm heartbeat thread: {e}"))
        .ok();
    Some(ShmTransport {
        inner,
        thread: Mutex::new(Some(thread)),
        watchdog: Mutex::new(watchdog),
    })
}
