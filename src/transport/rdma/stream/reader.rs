//! The receiving end of the lane (see the parent module for the protocol and its invariant).

use super::{Sticky, failed, qp_error, received_in_range, send_completed};
use crate::transport::rdma::backoff::Backoff;
use crate::transport::rdma::message::{HEADER_LEN, Header, Kind, invalid};
use crate::transport::rdma::{Completion, QueuePair};
use std::collections::VecDeque;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, ReadBuf};

/// Counters of one [`QpReader`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReaderStats {
    /// Data and End messages received.
    pub messages: u64,
    /// Stream bytes received.
    pub bytes: u64,
    /// Credit messages sent.
    pub credit_messages: u64,
    /// Credits those messages returned.
    pub credits_returned: u64,
    /// Sleeps armed while waiting (the lane went idle).
    pub sleeps: u64,
}

/// The fewest credits a Credit message may return, for a reader with `window` receive slots
/// and a writer with `peer_window`: at least `ceil(window / peer_window)`, which keeps the
/// reader's Credit messages within the writer's posted receives (see the parent module), and
/// at least a quarter of the window, so a roomy writer does not get one message per credit.
/// Never more than `window`, so a writer without credits always gets some back.
pub(crate) fn credit_batch(window: usize, peer_window: usize) -> usize {
    window
        .div_ceil(peer_window.max(1))
        .max(window.div_ceil(4))
        .min(window)
}

/// A received message not yet read to its end.
#[derive(Debug, Clone, Copy)]
struct Msg {
    slot: usize,
    kind: Kind,
    len: usize,
}

/// The receiving end of a lane: reads return the writer's bytes in order, `Ok(0)` after its
/// end-of-stream message; a failed queue pair is an error, and so is a message that breaks
/// the protocol (`InvalidData`). Posts all its receives when made, so make it before telling
/// the writer the lane is ready. `Send + Unpin`.
pub struct QpReader {
    qp: Box<dyn QueuePair>,
    /// Received messages in arrival order; the front one is being read.
    queue: VecDeque<Msg>,
    /// Payload bytes of the front message already read.
    pos: usize,
    /// Receives reposted but not yet returned to the writer as credits.
    owed: usize,
    /// The writer's receive window, from its first message.
    peer_window: Option<u16>,
    /// Smallest credit return (see [`credit_batch`]).
    batch: usize,
    /// Send slots whose last send completed.
    free: Vec<usize>,
    /// The End message arrived: no more credits are sent, late failures are ignored.
    end_seen: bool,
    /// The End message was read to its end.
    eof: bool,
    err: Sticky,
    backoff: Backoff,
    comps: Vec<Completion>,
    stats: ReaderStats,
}

impl QpReader {
    /// Wraps a connected queue pair whose peer is a [`QpWriter`](super::QpWriter); posts
    /// every receive slot. Errors (`InvalidInput`) when the slot pools cannot carry the
    /// protocol (no slots, more than 65535 receive slots, receive slots not longer than the
    /// 8-byte header, send slots shorter than it).
    pub fn new(mut qp: Box<dyn QueuePair>) -> io::Result<Self> {
        let bad =
            |m: String| io::Error::new(io::ErrorKind::InvalidInput, format!("QpReader::new: {m}"));
        let recv = qp.recv_slots();
        if recv == 0 || recv > u16::MAX as usize {
            return Err(bad(format!("{recv} receive slots (need 1..=65535)")));
        }
        if qp.recv_slot_len() <= HEADER_LEN {
            return Err(bad(format!(
                "receive slots of {} bytes leave no room after the {HEADER_LEN}-byte header",
                qp.recv_slot_len()
            )));
        }
        if qp.send_slots() == 0 {
            return Err(bad("the queue pair has no send slots".into()));
        }
        if qp.send_slot_len() < HEADER_LEN {
            return Err(bad(format!(
                "send slots of {} bytes cannot hold a {HEADER_LEN}-byte credit message",
                qp.send_slot_len()
            )));
        }
        for slot in 0..recv {
            qp.post_recv(slot)
                .map_err(|e| qp_error("reader", "posting a receive", e))?;
        }
        let free = (0..qp.send_slots()).rev().collect();
        Ok(Self {
            qp,
            queue: VecDeque::new(),
            pos: 0,
            owed: 0,
            peer_window: None,
            batch: recv,
            free,
            end_seen: false,
            eof: false,
            err: Sticky::default(),
            backoff: Backoff::default(),
            comps: Vec::new(),
            stats: ReaderStats::default(),
        })
    }

    /// The counters so far.
    pub fn stats(&self) -> ReaderStats {
        ReaderStats {
            sleeps: self.backoff.sleeps,
            ..self.stats
        }
    }

    /// Handles every ready completion; true if there was any.
    fn progress(&mut self) -> io::Result<bool> {
        let mut comps = std::mem::take(&mut self.comps);
        comps.clear();
        let mut result = match self.qp.poll(&mut comps) {
            Ok(()) => Ok(!comps.is_empty()),
            // After End every byte is here: the writer tearing the lane down is no failure.
            Err(e) if self.end_seen => {
                tracing::debug!("RDMA lane reader: ignoring a poll error after End: {e}");
                Ok(false)
            }
            Err(e) => Err(qp_error("reader", "polling the completion queue", e)),
        };
        // Receives first: a failure reported in the same batch as the End message (the
        // writer closing its end) must not hide the End.
        let mut failure = None;
        for c in comps.drain(..) {
            if result.is_err() {
                break;
            }
            match c {
                Completion::Failed { what } => {
                    failure.get_or_insert(what);
                }
                c => {
                    if let Err(e) = self.handle(c) {
                        result = Err(e);
                    }
                }
            }
        }
        self.comps = comps;
        if let (Some(what), Ok(_)) = (failure, &result) {
            if self.end_seen {
                tracing::debug!("RDMA lane reader: ignoring a failure after End: {what}");
            } else {
                result = Err(failed("reader", &what));
            }
        }
        if matches!(result, Ok(true)) {
            self.backoff.reset();
        }
        result
    }

    /// One completion.
    fn handle(&mut self, c: Completion) -> io::Result<()> {
        match c {
            Completion::Sent { slot } => {
                send_completed(&mut self.free, self.qp.send_slots(), slot, "reader")
            }
            Completion::Received { slot, len } => self.on_message(slot, len),
            Completion::Failed { what } => Err(failed("reader", &what)),
        }
    }

    /// A message from the writer: validated now, read later in arrival order.
    fn on_message(&mut self, slot: usize, len: usize) -> io::Result<()> {
        received_in_range(&*self.qp, slot, len, "reader")?;
        if self.end_seen {
            return Err(invalid(format!(
                "RDMA lane reader: a message of {len} bytes arrived after End"
            )));
        }
        let h = Header::decode(&self.qp.recv_buf(slot)[..len])?;
        if h.kind == Kind::Credit {
            return Err(invalid(
                "RDMA lane reader: received a Credit message (the reader sends those)".into(),
            ));
        }
        match self.peer_window {
            None => {
                self.peer_window = Some(h.credits);
                self.batch = credit_batch(self.qp.recv_slots(), h.credits as usize);
            }
            Some(w) if w != h.credits => {
                return Err(invalid(format!(
                    "RDMA lane reader: the writer's receive window changed from {w} to {}",
                    h.credits
                )));
            }
            Some(_) => {}
        }
        self.end_seen = h.kind == Kind::End;
        self.stats.messages += 1;
        self.stats.bytes += h.len as u64;
        self.queue.push_back(Msg {
            slot,
            kind: h.kind,
            len: h.len as usize,
        });
        Ok(())
    }

    /// The front message was read to its end: repost its receive (owing a credit), or note
    /// the end of the stream.
    fn finish(&mut self, m: Msg) -> io::Result<()> {
        if m.kind == Kind::End {
            self.eof = true;
            return Ok(());
        }
        if self.end_seen {
            // Nothing follows End: no receive is needed, and the pair may be closing.
            return Ok(());
        }
        self.qp
            .post_recv(m.slot)
            .map_err(|e| qp_error("reader", "reposting a receive", e))?;
        self.owed += 1;
        Ok(())
    }

    /// Returns the owed credits if there are at least a batch of them and a free send slot.
    fn return_credits(&mut self) -> io::Result<()> {
        if self.end_seen || self.owed < self.batch {
            return Ok(());
        }
        let Some(slot) = self.free.pop() else {
            return Ok(());
        };
        let credits = self.owed as u16; // owed <= recv_slots <= u16::MAX (checked in new)
        Header {
            kind: Kind::Credit,
            credits,
            len: 0,
        }
        .encode(self.qp.send_buf(slot));
        self.qp
            .post_send(slot, HEADER_LEN)
            .map_err(|e| qp_error("reader", "posting a credit message", e))?;
        self.owed = 0;
        self.stats.credit_messages += 1;
        self.stats.credits_returned += credits as u64;
        Ok(())
    }

    /// Copies queued payload into `buf`, finishing messages read to their end.
    fn copy_out(&mut self, buf: &mut ReadBuf<'_>) -> io::Result<()> {
        while buf.remaining() > 0 && !self.eof {
            let Some(&m) = self.queue.front() else {
                break;
            };
            let k = (m.len - self.pos).min(buf.remaining());
            let start = HEADER_LEN + self.pos;
            buf.put_slice(&self.qp.recv_buf(m.slot)[start..start + k]);
            self.pos += k;
            if self.pos == m.len {
                self.queue.pop_front();
                self.pos = 0;
                self.finish(m)?;
            }
        }
        Ok(())
    }
}

impl AsyncRead for QpReader {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.eof {
            return Poll::Ready(Ok(()));
        }
        if let Some(e) = this.err.get() {
            return Poll::Ready(Err(e));
        }
        let before = buf.filled().len();
        let step = this
            .progress()
            .and_then(|_| this.copy_out(buf))
            .and_then(|()| this.return_credits());
        let copied = buf.filled().len() > before;
        if let Err(e) = step {
            let e = this.err.set(e);
            // Bytes already handed over must be returned as such; the error comes next call.
            return Poll::Ready(if copied { Ok(()) } else { Err(e) });
        }
        if copied || this.eof || buf.remaining() == 0 {
            this.backoff.reset();
            return Poll::Ready(Ok(()));
        }
        this.backoff.pending(cx)
    }
}
