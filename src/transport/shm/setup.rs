//! Bringing the transport up: the inbox is created before the rendezvous ([`prepare`]) and the
//! peers' inboxes are mapped after it ([`connect`]), when every rank's host name is known.

use super::segment::{CMA_PROBE, Segment, inbox_path};
use super::{
    Counters, Inner, LIVE, Peer, SLOT_BYTES, SLOTS, ShmTransport, cma, heartbeat, malloc, progress,
};
use crate::transport::FrameSink;
use parking_lot::Mutex;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64, AtomicUsize};

/// Worlds larger than this do not use shared memory (each inbox has a ring per world rank).
pub const MAX_WORLD: u32 = 4096;

/// This rank's inbox, created before the rendezvous.
pub struct ShmInbox {
    seg: Segment,
    job_id: String,
    rank: u32,
}

/// Creates this rank's inbox for job `job_id`. `None` (logged) when shared memory is not
/// available; the job then runs over the network transport only.
pub fn prepare(job_id: &str, rank: u32, size: u32) -> Option<ShmInbox> {
    if !(2..=MAX_WORLD).contains(&size) {
        return None;
    }
    match Segment::create(&inbox_path(job_id, rank), size, SLOTS, SLOT_BYTES) {
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
    let me = inbox.seg;
    let Some(my_host) = hosts.get(rank as usize) else {
        me.unlink();
        return None;
    };
    let local: Vec<u32> = (0..hosts.len() as u32)
        .filter(|&r| &hosts[r as usize] == my_host)
        .collect();
    let n_local = local.len() as u32;
    let mut peers: Vec<Option<Arc<Peer>>> = vec![None; hosts.len()];
    for &r in local.iter().filter(|&&r| r != rank) {
        let seg = match Segment::open(&inbox_path(&inbox.job_id, r)) {
            Ok(s) => s,
            Err(e) => {
                tracing::info!(rank, peer = r, "cannot map the peer's inbox ({e})");
                continue;
            }
        };
        seg.mark_mapped(n_local);
        let (Some(tx), Some(rx)) = (seg.ring(rank), me.ring(r)) else {
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
