//! Frames on a bulk lane that is a byte stream (TLS over TCP, or an RDMA queue pair through
//! `transport::rdma::stream`), encoded exactly as on a QUIC stream: a validated header, then
//! exactly `len` payload bytes. The writer drains the peer's bulk queue into its stream; the
//! reader checks every header (before allocating the payload) and every `src`. Both are generic
//! over the stream type, so every lane shares one encoding and one validation.
//!
//! A lane ends cleanly at a frame boundary (a TLS `close_notify`, the RDMA stream's
//! end-of-stream message); that counts as one finished stream in the goodbye accounting
//! (`Peers::stream_finished`). Any other end (reset, a TCP close without `close_notify`, a
//! failed queue pair, a truncated frame, a protocol violation) reports the peer lost, once.

use super::Inner;
use super::lanes::LaneError;
use super::reader::deliver;
use super::recv_pool::RecvPool;
use super::stats::LaneStats;
use super::tls_lane::ClientStream;
use crate::wire::{
    Frame, FrameHeader, FrameKind, HEADER_LEN, PREALLOC_LIMIT, decode_header, encode_header,
};
use bytes::{Bytes, BytesMut};
use std::sync::Arc;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc::UnboundedReceiver;

/// Most frames written before a flush.
const MAX_BATCH: usize = 64;
/// TLS 1.3's largest record payload: the header goes out with the first payload bytes in one
/// full record instead of a record of its own.
const RECORD: usize = 16 << 10;

/// Which byte-stream bulk lane a stream is: its counters and its name in messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum BulkKind {
    /// TLS over TCP (`tls_lane.rs`).
    Tls,
    /// An RDMA queue pair (`rdma_lane.rs`).
    Rdma,
}

impl BulkKind {
    fn name(self) -> &'static str {
        match self {
            Self::Tls => "TLS",
            Self::Rdma => "RDMA",
        }
    }

    fn stats(self, inner: &Inner) -> &LaneStats {
        match self {
            Self::Tls => &inner.tls_stats,
            Self::Rdma => &inner.rdma_stats,
        }
    }
}

/// Reads and validates one header (payload at most `max_len`). `None` when the stream ended
/// cleanly (TLS `close_notify`) at a frame boundary. Errors are described.
pub(super) async fn read_header<R: AsyncRead + Unpin>(
    r: &mut R,
    max_len: u64,
) -> Result<Option<FrameHeader>, String> {
    let mut buf = [0u8; HEADER_LEN];
    let mut got = 0;
    while got < HEADER_LEN {
        match r.read(&mut buf[got..]).await {
            Ok(0) if got == 0 => return Ok(None),
            Ok(0) => {
                return Err(format!(
                    "stream ended inside a frame header ({got} of {HEADER_LEN} bytes)"
                ));
            }
            Ok(n) => got += n,
            Err(e) => return Err(io_reason(&e)),
        }
    }
    decode_header(&buf, max_len)
        .map(Some)
        .map_err(|e| e.message().to_string())
}

fn io_reason(e: &std::io::Error) -> String {
    if e.kind() == std::io::ErrorKind::UnexpectedEof {
        "the connection closed without a TLS close_notify".to_string()
    } else {
        format!("connection error: {e}")
    }
}

/// Whether a read error (as [`io_reason`] words it) is the connection failing rather than
/// the peer sending bytes that are not a valid frame.
fn is_io(reason: &str) -> bool {
    reason.starts_with("connection error") || reason.contains("close_notify")
}

/// Reads exactly `len` payload bytes (already checked against the limit) into a buffer from
/// `pool`, without zeroing it first.
async fn read_payload<R: AsyncRead + Unpin>(
    r: &mut R,
    len: u64,
    pool: &Arc<RecvPool>,
) -> Result<Bytes, String> {
    let n = usize::try_from(len).map_err(|_| format!("frame of {len} bytes is too large here"))?;
    // Reserve no more than PREALLOC_LIMIT before the bytes arrive (the length is a claim).
    let mut buf = pool.take_for(n, PREALLOC_LIMIT);
    let mut limited = r.take(len);
    while buf.len() < n {
        if buf.len() == buf.capacity() {
            let more = (n - buf.len()).min(buf.len().max(PREALLOC_LIMIT));
            buf.reserve_exact(more);
        }
        match limited.read_buf(&mut buf).await {
            Ok(0) => {
                return Err(format!(
                    "stream ended inside a payload ({} of {n} bytes)",
                    buf.len()
                ));
            }
            Ok(_) => {}
            Err(e) => return Err(io_reason(&e)),
        }
    }
    Ok(RecvPool::wrap(pool, buf))
}

/// Reads the frames of an authenticated bulk lane (of kind `kind`) from `peer` until it ends.
/// A malformed frame is logged, ends (drops) this lane and reports the peer lost with the
/// reason; other connections are not touched.
pub(super) async fn read_frames<R: AsyncRead + Unpin>(
    inner: Arc<Inner>,
    peer: u32,
    mut stream: R,
    kind: BulkKind,
) {
    let lane = kind.name();
    // (reason, whether the peer sent bytes that are not a valid frame)
    let (reason, malformed) = loop {
        let header = match read_header(&mut stream, inner.max_message).await {
            Ok(Some(h)) => h,
            Ok(None) => {
                inner.peers.stream_finished(peer);
                tracing::debug!(rank = inner.rank, peer, "{lane} bulk lane finished");
                return;
            }
            Err(m) => {
                let bad = !is_io(&m);
                break (m, bad);
            }
        };
        if header.src != peer {
            break (
                format!(
                    "frame claims to come from rank {} on a {lane} lane authenticated as rank {peer}",
                    header.src
                ),
                true,
            );
        }
        if header.frame_kind() == Some(FrameKind::P2p) {
            // Back-pressure: TCP's window fills and the sender's writes wait.
            inner.p2p_admission(peer).await;
        }
        let payload = match read_payload(&mut stream, header.len, &inner.recv_pool).await {
            Ok(p) => p,
            Err(m) => {
                let bad = !is_io(&m);
                break (m, bad);
            }
        };
        if let Err(m) = deliver(&inner, kind.stats(&inner), peer, Frame { header, payload }) {
            break (m.to_string(), true);
        }
    };
    drop(stream);
    if malformed {
        tracing::error!(rank = inner.rank, peer, %reason, "{lane} bulk lane: malformed frame; closed the connection");
        inner.peer_lost(
            peer,
            format!("sent a malformed frame on the {lane} bulk lane: {reason}"),
        );
    } else {
        tracing::debug!(rank = inner.rank, peer, %reason, "{lane} bulk lane from the peer ended");
        inner.peer_lost(peer, format!("{lane} bulk lane: {reason}"));
    }
}

/// Sends the `Hello` that opens a lane.
pub(super) async fn write_hello(stream: &mut ClientStream, rank: u32) -> std::io::Result<()> {
    stream
        .write_all(&encode_header(&FrameHeader::new(FrameKind::Hello, rank)))
        .await?;
    stream.flush().await
}

/// Drains `peer`'s bulk queue (after `pending`, a frame already taken from it) into `stream`
/// (a lane of kind `kind`) until the queue closes, then shuts the stream down (a TLS
/// `close_notify`; the RDMA stream's end-of-stream message, waiting until every send completed).
pub(super) async fn write_frames<W: AsyncWrite + Unpin>(
    inner: &Inner,
    peer: u32,
    stream: &mut W,
    mut rx: UnboundedReceiver<Frame>,
    mut pending: Option<Frame>,
    kind: BulkKind,
) -> Result<(), LaneError> {
    let lane = kind.name();
    let stats = kind.stats(inner);
    let fail = |e: std::io::Error| {
        LaneError::Other(format!("{lane} bulk lane to rank {peer} failed: {e}"))
    };
    let mut first = BytesMut::with_capacity(RECORD);
    loop {
        let f = match pending.take() {
            Some(f) => f,
            None => match rx.recv().await {
                Some(f) => f,
                None => break,
            },
        };
        let mut next = Some(f);
        let mut batch = 0;
        while let Some(f) = next.take() {
            // Header and the first payload bytes in one record, the rest as it is.
            let head = f.payload.len().min(RECORD - HEADER_LEN);
            first.extend_from_slice(&encode_header(&f.header));
            first.extend_from_slice(&f.payload[..head]);
            stream.write_all(&first).await.map_err(fail)?;
            first.clear();
            stream.write_all(&f.payload[head..]).await.map_err(fail)?;
            stats.sent(&f);
            batch += 1;
            if batch < MAX_BATCH {
                next = rx.try_recv().ok();
            }
        }
        stream.flush().await.map_err(fail)?;
    }
    // The queue closed: shutdown, or the peer is gone.
    stream.shutdown().await.map_err(fail)
}

/// After [`write_frames`] on a TLS lane: waits for the peer to close its side (it has read
/// the `close_notify`, so everything); any end of the connection will do here.
pub(super) async fn tls_wait_closed(mut stream: ClientStream) {
    let mut sink = [0u8; 64];
    while let Ok(n) = stream.read(&mut sink).await {
        if n == 0 {
            break;
        }
    }
}
