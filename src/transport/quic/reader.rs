//! The incoming side: one task per stream reads header, checks it, reads exactly the payload and
//! hands the frame to the sink. Any violation closes the connection and reports the peer.

use super::conn::truncate;
use super::stats::LaneStats;
use super::{Inner, codes};
use crate::wire::{Frame, FrameHeader, FrameKind, HEADER_LEN, PREALLOC_LIMIT, decode_header};
use bytes::{Bytes, BytesMut};
use quinn::{ReadError, ReadExactError, RecvStream};
use std::sync::Arc;

/// Why reading a stream stopped.
pub(super) enum ReadFail {
    /// The connection ended.
    Conn(quinn::ConnectionError),
    /// The stream failed (reset, stopped; described).
    Protocol(String),
    /// The peer sent bytes that are not a valid frame (described): a header that fails
    /// validation, an unknown kind, a length over the limit, a `src` other than its
    /// certificate's, a truncated frame.
    Malformed(String),
}

fn read_fail(e: ReadError) -> ReadFail {
    match e {
        ReadError::ConnectionLost(c) => ReadFail::Conn(c),
        ReadError::Reset(code) => {
            ReadFail::Protocol(format!("stream reset by the peer (code {code})"))
        }
        other => ReadFail::Protocol(format!("stream error: {other}")),
    }
}

/// Reads and validates one header (payload length at most `max_len`). `None` when the stream
/// ended cleanly at a frame boundary.
pub(super) async fn read_header(
    recv: &mut RecvStream,
    max_len: u64,
) -> Result<Option<FrameHeader>, ReadFail> {
    let mut buf = [0u8; HEADER_LEN];
    match recv.read_exact(&mut buf).await {
        Ok(()) => {}
        Err(ReadExactError::FinishedEarly(0)) => return Ok(None),
        Err(ReadExactError::FinishedEarly(n)) => {
            return Err(ReadFail::Malformed(format!(
                "stream ended inside a frame header ({n} of {HEADER_LEN} bytes)"
            )));
        }
        Err(ReadExactError::ReadError(e)) => return Err(read_fail(e)),
    }
    decode_header(&buf, max_len)
        .map(Some)
        .map_err(|e| ReadFail::Malformed(e.message().to_string()))
}

/// Reads exactly `len` payload bytes (already checked against the limit).
async fn read_payload(recv: &mut RecvStream, len: u64) -> Result<Bytes, ReadFail> {
    let len = usize::try_from(len)
        .map_err(|_| ReadFail::Malformed(format!("frame of {len} bytes is too large here")))?;
    if len == 0 {
        return Ok(Bytes::new());
    }
    let truncated = |got: usize| {
        ReadFail::Malformed(format!(
            "stream ended inside a payload ({got} of {len} bytes)"
        ))
    };
    let first = match recv.read_chunk(len, true).await.map_err(read_fail)? {
        Some(c) => c.bytes,
        None => return Err(truncated(0)),
    };
    if first.len() == len {
        return Ok(first);
    }
    // Reserve no more than PREALLOC_LIMIT up front: the header's length is a claim until the
    // bytes arrive (growing later is a cheap mremap for large buffers).
    let mut buf = BytesMut::with_capacity(len.min(PREALLOC_LIMIT));
    buf.extend_from_slice(&first);
    while buf.len() < len {
        match recv
            .read_chunk(len - buf.len(), true)
            .await
            .map_err(read_fail)?
        {
            Some(c) => buf.extend_from_slice(&c.bytes),
            None => return Err(truncated(buf.len())),
        }
    }
    Ok(buf.freeze())
}

/// Acts on a whole, validated frame from `peer` after a lane's opening `Hello` (a QUIC stream
/// or the TLS bulk lane): counts and delivers data and control frames, records a `Goodbye`.
/// Another `Hello` (or an unknown kind) is a protocol violation, described in the error.
pub(super) fn deliver(
    inner: &Arc<Inner>,
    stats: &LaneStats,
    peer: u32,
    frame: Frame,
) -> Result<(), &'static str> {
    match frame.header.frame_kind() {
        Some(
            FrameKind::P2p
            | FrameKind::Collective
            | FrameKind::Ack
            | FrameKind::Abort
            | FrameKind::Revoke
            | FrameKind::Agree
            | FrameKind::Rpc,
        ) => {
            stats.received(&frame);
            inner.sink.on_frame(frame);
        }
        Some(FrameKind::Goodbye) => {
            // The report first: marking the peer as left can end this rank's shutdown, and
            // what the goodbye said must be known by then.
            let failed = crate::transport::failures_from_bytes(&frame.payload);
            if !failed.is_empty() {
                inner.sink.on_failures_reported(peer, &failed);
            }
            inner.sink.on_departed(peer);
            inner.peers.goodbye_received(inner, peer, frame.header.seq);
        }
        Some(FrameKind::Hello) | None => return Err("unexpected Hello in the middle of a stream"),
    }
    Ok(())
}

/// Reads the frames of one stream from `peer` (already authenticated on `conn`). Unless
/// `hello_seen`, the stream must start with a `Hello` naming `peer`.
pub(super) async fn read_stream(
    inner: Arc<Inner>,
    conn: quinn::Connection,
    peer: u32,
    mut recv: RecvStream,
    mut hello_seen: bool,
) {
    let fail = loop {
        let header = match read_header(&mut recv, inner.max_message).await {
            Ok(Some(h)) => h,
            Ok(None) => {
                inner.peers.stream_finished(peer);
                return;
            }
            Err(f) => break f,
        };
        if header.src != peer {
            break ReadFail::Malformed(format!(
                "frame claims to come from rank {} on a connection authenticated as rank {peer}",
                header.src
            ));
        }
        let kind = header.frame_kind();
        if !hello_seen {
            if kind != Some(FrameKind::Hello) || header.len != 0 {
                break ReadFail::Malformed("stream does not start with a Hello".into());
            }
            hello_seen = true;
            continue;
        }
        if kind == Some(FrameKind::P2p) {
            // Back-pressure: not reading leaves the bytes in QUIC's window, stalling the sender.
            tokio::select! {
                () = inner.p2p_admission(peer) => {}
                e = conn.closed() => break ReadFail::Conn(e),
            }
        }
        let payload = match read_payload(&mut recv, header.len).await {
            Ok(p) => p,
            Err(f) => break f,
        };
        if let Err(m) = deliver(&inner, &inner.quic_stats, peer, Frame { header, payload }) {
            break ReadFail::Malformed(m.into());
        }
    };
    match fail {
        // The connection's own task reports why it ended.
        ReadFail::Conn(_) => {}
        ReadFail::Protocol(msg) => {
            tracing::error!(rank = inner.rank, peer, reason = %msg, "protocol violation; closing the connection");
            conn.close(codes::PROTOCOL, truncate(&msg).as_bytes());
            inner.peer_lost(peer, format!("protocol violation: {msg}"));
        }
        ReadFail::Malformed(msg) => {
            // Only this connection closes; the process and its other peers carry on.
            tracing::error!(rank = inner.rank, peer, reason = %msg, "malformed frame; closing the connection");
            conn.close(codes::PROTOCOL, truncate(&msg).as_bytes());
            inner.peer_lost(peer, format!("sent a malformed frame: {msg}"));
        }
    }
}
