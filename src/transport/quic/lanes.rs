//! The outgoing side: per peer, four lanes, each an unbounded queue drained by a task into one
//! long-lived unidirectional stream: control and bulk for collective frames, acknowledgements
//! and aborts; p2p and p2p-bulk for point-to-point messages. Headers are encoded in front of
//! each payload; payloads are handed to quinn as they are (small ones are coalesced with their
//! header). Each bulk lane goes over an RDMA queue pair when both sides can (`rdma_lane.rs`),
//! else over TLS-over-TCP when the TLS lane is on and the peer answers (`tls_lane.rs`); any way
//! it counts as one of the [`LANE_COUNT`] streams a goodbye announces.
//!
//! Point-to-point messages travel apart so that a receiver may stop reading them when too many
//! wait unmatched (`transport::budget`) without holding up a collective behind them.

use super::stats::LaneStats;
use super::tls_stream::BulkKind;
use super::{BULK_THRESHOLD, Inner, conn, rdma_lane, tls_lane, tls_stream};
use crate::wire::{Frame, FrameHeader, FrameKind, encode_header};
use bytes::{Bytes, BytesMut};
use std::sync::Arc;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

/// Payloads up to this size are copied next to their header into one buffer.
const COALESCE_LIMIT: usize = 4 << 10;
/// Most frames written in one call.
const MAX_BATCH: usize = 64;

/// Streams a writer opens (control, bulk, p2p and p2p-bulk; the bulk ones on QUIC or TLS); a
/// goodbye announces this many.
pub(super) const LANE_COUNT: u64 = 4;

/// The sending ends of a peer's lanes.
pub(super) struct Lanes {
    control: UnboundedSender<Frame>,
    bulk: UnboundedSender<Frame>,
    p2p: UnboundedSender<Frame>,
    p2p_bulk: UnboundedSender<Frame>,
}

/// The receiving ends, owned by the writer task.
pub(super) struct Receivers {
    control: UnboundedReceiver<Frame>,
    bulk: UnboundedReceiver<Frame>,
    p2p: UnboundedReceiver<Frame>,
    p2p_bulk: UnboundedReceiver<Frame>,
}

impl Lanes {
    pub(super) fn new() -> (Self, Receivers) {
        let (ct, cr) = unbounded_channel();
        let (bt, br) = unbounded_channel();
        let (pt, pr) = unbounded_channel();
        let (qt, qr) = unbounded_channel();
        (
            Self {
                control: ct,
                bulk: bt,
                p2p: pt,
                p2p_bulk: qt,
            },
            Receivers {
                control: cr,
                bulk: br,
                p2p: pr,
                p2p_bulk: qr,
            },
        )
    }

    /// Queues a frame on the lane its kind and size select. Fails when the writer has ended.
    pub(super) fn push(&self, frame: Frame) -> Result<(), Frame> {
        let big = frame.payload.len() >= BULK_THRESHOLD;
        let lane = match (frame.header.frame_kind() == Some(FrameKind::P2p), big) {
            (false, false) => &self.control,
            (false, true) => &self.bulk,
            (true, false) => &self.p2p,
            (true, true) => &self.p2p_bulk,
        };
        lane.send(frame).map_err(|e| e.0)
    }
}

/// Why a lane stopped.
pub(super) enum LaneError {
    /// The connection ended (the reason tells a goodbye from a failure).
    Conn(quinn::ConnectionError),
    /// Anything else, already described.
    Other(String),
}

/// The writer of one peer: connects (or reuses a connection the peer opened), then drains both
/// lanes until their queues close, finishes the streams and waits for the peer's
/// acknowledgement.
pub(super) async fn run_writer(inner: Arc<Inner>, peer: u32, rx: Receivers) {
    let conn = match conn::connection_for(&inner, peer).await {
        Ok(c) => c,
        Err(reason) => {
            inner.peer_lost(peer, reason);
            return;
        }
    };
    let Receivers {
        control,
        bulk,
        p2p,
        p2p_bulk,
    } = rx;
    let (a, b, c, d) = tokio::join!(
        run_lane(&inner, &conn, control, None),
        bulk_lane(&inner, peer, &conn, bulk),
        run_lane(&inner, &conn, p2p, None),
        bulk_lane(&inner, peer, &conn, p2p_bulk),
    );
    tracing::debug!(
        rank = inner.rank,
        peer,
        mtu = conn.stats().path.current_mtu,
        lost_packets = conn.stats().path.lost_packets,
        "writer finished"
    );
    for r in [a, b, c, d] {
        match r {
            Ok(()) => {}
            Err(LaneError::Conn(e)) => inner.connection_ended(peer, &e),
            Err(LaneError::Other(reason)) => inner.peer_lost(peer, reason),
        }
    }
}

/// A bulk lane: over RDMA when both sides can (`rdma_lane.rs`), else over TLS when the TLS
/// lane is on and the peer answers, else a QUIC stream; each fallback is logged with its reason.
/// Nothing is dialed until a bulk frame is queued: most peers never get one (a barrier or a
/// small allreduce), and each dial is a TCP and a TLS handshake (or a queue pair), which made
/// the first collective of a large job CPU-bound (`docs/SCALE.md`). A lane that never carried
/// a frame ends as an empty QUIC stream, so the goodbye's stream count holds either way.
async fn bulk_lane(
    inner: &Inner,
    peer: u32,
    conn: &quinn::Connection,
    mut rx: UnboundedReceiver<Frame>,
) -> Result<(), LaneError> {
    let Some(first) = rx.recv().await else {
        return run_lane(inner, conn, rx, None).await;
    };
    match rdma_lane::connect(inner, peer, conn).await {
        rdma_lane::Outcome::Lane(mut w) => {
            // A queue pair reports nothing while this side waits for credits, so a peer that
            // died then would leave the writer polling forever: the end of the peer's QUIC
            // connection (a failure, or after the goodbyes) stops it.
            return tokio::select! {
                r = tls_stream::write_frames(inner, peer, &mut w, rx, Some(first), BulkKind::Rdma) => r,
                e = conn.closed() => Err(LaneError::Conn(e)),
            };
        }
        rdma_lane::Outcome::Fail(why) => {
            // Reported now: the writer reports lane errors only once all its lanes end.
            inner.peer_lost(peer, format!("RDMA bulk lane to rank {peer}: {why}"));
            return Ok(());
        }
        rdma_lane::Outcome::FallBack => {}
    }
    if inner.tls.is_none() {
        return run_lane(inner, conn, rx, Some(first)).await;
    }
    match tls_lane::connect(inner, peer).await {
        Ok(mut stream) => {
            let r =
                tls_stream::write_frames(inner, peer, &mut stream, rx, Some(first), BulkKind::Tls)
                    .await;
            if r.is_ok() {
                tls_stream::tls_wait_closed(stream).await;
            }
            r
        }
        Err(reason) => {
            tracing::warn!(rank = inner.rank, peer, %reason, "TLS bulk lane unavailable; large frames go over QUIC");
            run_lane(inner, conn, rx, Some(first)).await
        }
    }
}

fn write_err(e: quinn::WriteError) -> LaneError {
    match e {
        quinn::WriteError::ConnectionLost(c) => LaneError::Conn(c),
        other => LaneError::Other(format!("sending failed: {other}")),
    }
}

/// Drains `rx` (after `pending`, a frame already taken from it) into a new QUIC stream.
async fn run_lane(
    inner: &Inner,
    conn: &quinn::Connection,
    mut rx: UnboundedReceiver<Frame>,
    mut pending: Option<Frame>,
) -> Result<(), LaneError> {
    let mut send = conn.open_uni().await.map_err(LaneError::Conn)?;
    let hello = encode_header(&FrameHeader::new(FrameKind::Hello, inner.rank));
    send.write_all(&hello).await.map_err(write_err)?;
    let mut chunks: Vec<Bytes> = Vec::with_capacity(2 * MAX_BATCH);
    let mut small = BytesMut::new();
    let stats = &inner.quic_stats;
    loop {
        let first = match pending.take() {
            Some(f) => f,
            None => match rx.recv().await {
                Some(f) => f,
                None => break,
            },
        };
        push_frame(&mut chunks, &mut small, first, stats);
        for _ in 1..MAX_BATCH {
            match rx.try_recv() {
                Ok(f) => push_frame(&mut chunks, &mut small, f, stats),
                Err(_) => break,
            }
        }
        if !small.is_empty() {
            chunks.push(small.split().freeze());
        }
        send.write_all_chunks(&mut chunks)
            .await
            .map_err(write_err)?;
        chunks.clear();
    }
    // The queue closed: shutdown, or the peer is gone. Flush and wait for the acknowledgement.
    let _ = send.finish();
    match send.stopped().await {
        Ok(None) => Ok(()),
        Ok(Some(code)) => Err(LaneError::Other(format!(
            "the peer stopped reading (code {code})"
        ))),
        Err(quinn::StoppedError::ConnectionLost(c)) => Err(LaneError::Conn(c)),
        Err(e) => Err(LaneError::Other(format!("sending failed: {e}"))),
    }
}

fn push_frame(chunks: &mut Vec<Bytes>, small: &mut BytesMut, f: Frame, stats: &LaneStats) {
    stats.sent(&f);
    small.extend_from_slice(&encode_header(&f.header));
    if f.payload.len() <= COALESCE_LIMIT {
        small.extend_from_slice(&f.payload);
    } else {
        chunks.push(small.split().freeze());
        chunks.push(f.payload);
    }
}
