//! A connected [`QueuePair`] as an ordered byte stream with credit-based flow control.
//! STUB: the contract only; the implementation replaces every body.

use super::QueuePair;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The sending end of a lane: bytes written are cut into messages of at most the send slot
/// size; `poll_flush` posts a partly filled slot; `poll_shutdown` sends the end-of-stream
/// message and waits until every send completed.
pub struct QpWriter {
    _qp: Box<dyn QueuePair>,
}

impl QpWriter {
    /// Wraps a connected queue pair whose peer is a [`QpReader`] that has `credits` receives
    /// posted (its `recv_slots`). Posts this side's receives (for credit returns).
    pub fn new(qp: Box<dyn QueuePair>, credits: usize) -> io::Result<Self> {
        let _ = credits;
        Ok(Self { _qp: qp })
    }
}

impl AsyncWrite for QpWriter {
    fn poll_write(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        _buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Poll::Ready(Err(io::Error::other("stub")))
    }
    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Err(io::Error::other("stub")))
    }
    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Err(io::Error::other("stub")))
    }
}

/// The receiving end of a lane: reads return the writer's bytes in order, `Ok(0)` after its
/// end-of-stream message; a failed queue pair is an error. Posts all its receives when made,
/// so make it before telling the writer the lane is ready.
pub struct QpReader {
    _qp: Box<dyn QueuePair>,
}

impl QpReader {
    /// Wraps a connected queue pair whose peer is a [`QpWriter`]; posts every receive slot.
    pub fn new(qp: Box<dyn QueuePair>) -> io::Result<Self> {
        Ok(Self { _qp: qp })
    }
}

impl AsyncRead for QpReader {
    fn poll_read(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        _buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Poll::Ready(Err(io::Error::other("stub")))
    }
}
