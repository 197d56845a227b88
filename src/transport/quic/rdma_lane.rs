//! The RDMA bulk lane's set-up, over a bidirectional stream of the peers' authenticated QUIC
//! connection (`transport::rdma::setup` has the messages and the decisions; `docs/RDMA.md`).
//!
//! The writer, once its bulk queue got a frame, sends a hello with its queue pair's endpoint
//! and reads the reply; the acceptor (`conn.rs` hands it the stream) answers with its endpoint
//! once its queue pair is connected and its receives are posted, or refuses with the reason.
//! Frames then go through `tls_stream`'s generic writer and reader over
//! `QpWriter` / `QpReader`, counted in the `"rdma"` stats.
//!
//! A writer that cannot use RDMA falls back to the TLS (or QUIC) lane and logs the reason once
//! per peer; with `NEXAR_RDMA=require` its lane fails instead, which reports the peer lost
//! with the reason. With `NEXAR_RDMA=off` nothing is tried or logged, and the QUIC transport
//! parameters allow no bidirectional stream between ranks, exactly as without the feature.

use super::Inner;
use super::tls_stream::{self, BulkKind};
use crate::config::RdmaMode;
use crate::transport::rdma::probe;
use crate::transport::rdma::setup::{
    self, Hello, MAX_MESSAGE, Plan, Pools, PreparedQp, READER_POOLS, Reply, WRITER_POOLS,
};
use crate::transport::rdma::stream::{QpReader, QpWriter};
use parking_lot::Mutex;
use rustc_hash::FxHashSet;
use std::sync::Arc;
use tokio::time::timeout;

/// Set-up streams a peer may open on one connection at a time (one per bulk lane, with room
/// for a retry).
pub(super) const SETUP_STREAMS: u32 = 4;

/// The RDMA side of one rank's QUIC transport.
pub(super) struct RdmaLane {
    mode: RdmaMode,
    /// Peers whose fallback was logged already.
    pub(super) told: Mutex<FxHashSet<u32>>,
    /// Unit tests only: a fake device used instead of the process's.
    #[cfg(test)]
    fake: std::sync::OnceLock<probe::Found>,
}

/// What the writer of a bulk lane does.
pub(super) enum Outcome {
    /// Frames go over this queue pair.
    Lane(Box<QpWriter>),
    /// The TLS or QUIC lane (the reason, if any, was logged).
    FallBack,
    /// `NEXAR_RDMA=require` cannot be met: the lane fails with this reason.
    Fail(String),
}

impl RdmaLane {
    /// The lane for `mode` (`NEXAR_RDMA`).
    pub(super) fn new(mode: RdmaMode) -> Self {
        Self {
            mode,
            told: Mutex::new(FxHashSet::default()),
            #[cfg(test)]
            fake: std::sync::OnceLock::new(),
        }
    }

    /// The device this rank uses, or why none.
    fn device(&self) -> Result<&probe::Found, &'static str> {
        #[cfg(test)]
        if let Some(f) = self.fake.get() {
            return Ok(f);
        }
        probe::device()
    }

    /// Unit tests only: use `found` (a fake device) instead of probing.
    #[cfg(test)]
    pub(super) fn use_fake_device(&self, found: probe::Found) {
        assert!(self.fake.set(found).is_ok(), "fake device set twice");
    }

    /// How many bidirectional (set-up) streams a peer may open: none when RDMA is off or
    /// not built, so the QUIC connection is exactly what it is without the feature.
    pub(super) fn peer_bidi_streams(mode: RdmaMode) -> u32 {
        // Unit tests run the set-up with a fake device whether or not the feature is on.
        if cfg!(any(feature = "rdma", test)) && mode != RdmaMode::Off {
            SETUP_STREAMS
        } else {
            0
        }
    }

    /// Logs why `peer`'s bulk lanes do not use RDMA, once per peer (`local`: this host has no
    /// device, the usual case, logged at info level; otherwise a warning).
    fn fall_back(&self, rank: u32, peer: u32, reason: &str, local: bool) {
        if !self.told.lock().insert(peer) {
            return;
        }
        if local {
            tracing::info!(rank, peer, %reason, "RDMA bulk lane unavailable; large frames go over TLS or QUIC");
        } else {
            tracing::warn!(rank, peer, %reason, "RDMA bulk lane unavailable; large frames go over TLS or QUIC");
        }
    }
}

/// The writer's attempt at an RDMA lane to `peer` on `conn`.
pub(super) async fn connect(inner: &Inner, peer: u32, conn: &quinn::Connection) -> Outcome {
    let lane = &inner.rdma;
    let device = lane.device();
    match setup::plan(lane.mode, device.map(|_| ())) {
        Plan::Skip => return Outcome::FallBack,
        Plan::Fail(why) => return Outcome::Fail(why),
        Plan::FallBack(why) => {
            // Without the feature, silent: exactly the behaviour of a build before it.
            if cfg!(any(feature = "rdma", test)) {
                lane.fall_back(inner.rank, peer, &why, true);
            }
            return Outcome::FallBack;
        }
        Plan::Try => {}
    }
    let Ok(found) = device else {
        return Outcome::FallBack;
    };
    let limit = inner.connect_timeout;
    let why = match timeout(limit, writer_setup(inner, peer, conn, found)).await {
        Ok(Ok(w)) => {
            tracing::debug!(rank = inner.rank, peer, device = %found.device, "RDMA bulk lane connected");
            return Outcome::Lane(Box::new(w));
        }
        Ok(Err(why)) => why,
        Err(_) => format!("RDMA set-up with rank {peer} took longer than {limit:?}"),
    };
    match setup::after_refusal(lane.mode, &why) {
        Plan::Fail(why) => Outcome::Fail(why),
        _ => {
            lane.fall_back(inner.rank, peer, &why, false);
            Outcome::FallBack
        }
    }
}

/// Makes a queue pair off the runtime's worker threads: registering its buffers pins memory
/// (system calls per page range), and a rank's runtime often has a single worker.
async fn prepare(found: &probe::Found, pools: Pools) -> std::io::Result<Box<dyn PreparedQp>> {
    let factory = found.factory.clone();
    tokio::task::spawn_blocking(move || factory.prepare(&pools))
        .await
        .map_err(|e| std::io::Error::other(format!("queue pair set-up task failed: {e}")))?
}

async fn writer_setup(
    inner: &Inner,
    peer: u32,
    conn: &quinn::Connection,
    found: &probe::Found,
) -> Result<QpWriter, String> {
    let prepared = prepare(found, WRITER_POOLS)
        .await
        .map_err(|e| format!("cannot make a queue pair on {}: {e}", found.device))?;
    let hello = Hello {
        rank: inner.rank,
        endpoint: prepared.endpoint(),
        pools: WRITER_POOLS,
    };
    // Polled once first: a peer that allows no set-up stream (built without the feature, or
    // NEXAR_RDMA=off) would leave it pending for good.
    let opened = tokio::select! {
        biased;
        r = conn.open_bi() => Some(r),
        () = std::future::ready(()) => None,
    };
    let (mut send, mut recv) = opened
        .ok_or_else(|| format!("rank {peer} accepts no RDMA set-up (RDMA off or not built there)"))?
        .map_err(|e| format!("cannot open the RDMA set-up stream to rank {peer}: {e}"))?;
    send.write_all(&setup::encode_hello(&hello))
        .await
        .map_err(|e| format!("cannot send the RDMA hello to rank {peer}: {e}"))?;
    let _ = send.finish();
    let buf = recv
        .read_to_end(MAX_MESSAGE)
        .await
        .map_err(|e| format!("no RDMA set-up reply from rank {peer}: {e}"))?;
    match setup::decode_reply(&buf).map_err(|e| format!("rank {peer}: {e}"))? {
        Reply::Refuse { reason } => Err(format!("rank {peer} refused: {reason}")),
        Reply::Accept { endpoint, pools } => {
            WRITER_POOLS
                .fits(&pools)
                .map_err(|e| format!("rank {peer}'s buffers do not match: {e}"))?;
            let qp = prepared
                .connect(&endpoint)
                .map_err(|e| format!("cannot connect the queue pair to rank {peer}: {e}"))?;
            QpWriter::new(qp, pools.recv_slots as usize)
                .map_err(|e| format!("cannot start the RDMA stream to rank {peer}: {e}"))
        }
    }
}

/// The acceptor's side of a set-up stream `peer` opened; on success reads the lane's frames
/// until it ends.
pub(super) async fn accept(
    inner: Arc<Inner>,
    peer: u32,
    mut send: quinn::SendStream,
    mut recv: quinn::RecvStream,
) {
    let limit = inner.connect_timeout;
    let made = timeout(limit, acceptor_setup(&inner, peer, &mut send, &mut recv)).await;
    let reader = match made {
        Ok(Ok(r)) => r,
        Ok(Err(why)) => {
            tracing::debug!(rank = inner.rank, peer, %why, "refused an RDMA bulk lane");
            return;
        }
        Err(_) => {
            tracing::warn!(
                rank = inner.rank,
                peer,
                "RDMA set-up stream: no hello within {limit:?}"
            );
            return;
        }
    };
    tracing::debug!(rank = inner.rank, peer, "RDMA bulk lane accepted");
    tls_stream::read_frames(inner, peer, reader, BulkKind::Rdma).await;
}

async fn acceptor_setup(
    inner: &Inner,
    peer: u32,
    send: &mut quinn::SendStream,
    recv: &mut quinn::RecvStream,
) -> Result<QpReader, String> {
    let me = inner.rank;
    let buf = recv
        .read_to_end(MAX_MESSAGE)
        .await
        .map_err(|e| format!("reading the RDMA hello from rank {peer}: {e}"))?;
    let hello = setup::decode_hello(&buf);
    if let Err(why) = &hello {
        // The peer is authenticated, so this is a bug or a version mix, not noise.
        tracing::warn!(rank = me, peer, %why, "malformed RDMA hello; refused");
    }
    let made = async {
        let hello = hello?;
        let device = inner.rdma.device();
        setup::acceptor_check(
            me,
            peer,
            inner.rdma.mode,
            device.map(|_| ()),
            &hello,
            &READER_POOLS,
        )?;
        let found = device.map_err(str::to_string)?;
        let prepared = prepare(found, READER_POOLS)
            .await
            .map_err(|e| format!("rank {me}: cannot make a queue pair: {e}"))?;
        let endpoint = prepared.endpoint();
        let qp = prepared
            .connect(&hello.endpoint)
            .map_err(|e| format!("rank {me}: cannot connect its queue pair: {e}"))?;
        // Posts every receive: the writer may send as soon as it reads the reply.
        let reader =
            QpReader::new(qp).map_err(|e| format!("rank {me}: cannot post receives: {e}"))?;
        Ok::<_, String>((endpoint, reader))
    }
    .await;
    let (reply, result) = match made {
        Ok((endpoint, reader)) => (
            Reply::Accept {
                endpoint,
                pools: READER_POOLS,
            },
            Ok(reader),
        ),
        Err(reason) => (
            Reply::Refuse {
                reason: reason.clone(),
            },
            Err(reason),
        ),
    };
    send.write_all(&setup::encode_reply(&reply))
        .await
        .map_err(|e| format!("cannot answer rank {peer}'s RDMA hello: {e}"))?;
    let _ = send.finish();
    result
}
