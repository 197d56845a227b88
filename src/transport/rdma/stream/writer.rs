//! The sending end of the lane (see the parent module for the protocol and its invariant).

use super::{Sticky, failed, qp_error, received_in_range, send_completed};
use crate::transport::rdma::Completion;
use crate::transport::rdma::QueuePair;
use crate::transport::rdma::backoff::Backoff;
use crate::transport::rdma::message::{HEADER_LEN, Header, Kind, invalid};
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::AsyncWrite;

/// Counters of one [`QpWriter`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WriterStats {
    /// Data and End messages posted.
    pub messages: u64,
    /// Stream bytes posted.
    pub bytes: u64,
    /// Credit messages received.
    pub credit_messages: u64,
    /// Credits those messages returned.
    pub credits_returned: u64,
    /// Polls of write, flush or shutdown that had a message ready but no credit to send it.
    pub credit_waits: u64,
    /// Sleeps armed while waiting (the lane went idle).
    pub sleeps: u64,
}

/// Where the writer is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Writes accepted.
    Open,
    /// End posted; waiting for every send to complete.
    Ending,
    /// Every send completed after End.
    Closed,
}

/// The sending end of a lane: bytes written are cut into messages of at most the send slot
/// size; `poll_flush` posts a partly filled slot; `poll_shutdown` sends the end-of-stream
/// message and waits until every send completed. `Send + Unpin`.
pub struct QpWriter {
    qp: Box<dyn QueuePair>,
    /// The reader's receive slots: every credit there is.
    window: usize,
    /// Credits held: messages that may be sent now.
    credits: usize,
    /// This side's receive slots, announced to the reader in every message.
    announce: u16,
    /// Stream bytes per message.
    cap: usize,
    /// Send slots whose last send completed.
    free: Vec<usize>,
    /// The slot being filled and the stream bytes in it.
    fill: Option<(usize, usize)>,
    state: State,
    err: Sticky,
    backoff: Backoff,
    comps: Vec<Completion>,
    stats: WriterStats,
}

impl QpWriter {
    /// Wraps a connected queue pair whose peer is a [`QpReader`](super::QpReader) that has
    /// `credits` receives posted (its `recv_slots`). Posts this side's receives (for credit
    /// returns). Errors (`InvalidInput`) when `credits` is 0 or the slot pools cannot carry
    /// the protocol (no slots, send slots not longer than the 8-byte header, receive slots
    /// shorter than it, more than 65535 receive slots).
    pub fn new(mut qp: Box<dyn QueuePair>, credits: usize) -> io::Result<Self> {
        let bad =
            |m: String| io::Error::new(io::ErrorKind::InvalidInput, format!("QpWriter::new: {m}"));
        if credits == 0 {
            return Err(bad(
                "credits is 0 (the reader must have receives posted)".into()
            ));
        }
        if qp.send_slots() == 0 {
            return Err(bad("the queue pair has no send slots".into()));
        }
        if qp.send_slot_len() <= HEADER_LEN {
            return Err(bad(format!(
                "send slots of {} bytes leave no room after the {HEADER_LEN}-byte header",
                qp.send_slot_len()
            )));
        }
        let recv = qp.recv_slots();
        let announce = u16::try_from(recv)
            .ok()
            .filter(|&r| r > 0)
            .ok_or_else(|| bad(format!("{recv} receive slots (need 1..=65535)")))?;
        if qp.recv_slot_len() < HEADER_LEN {
            return Err(bad(format!(
                "receive slots of {} bytes cannot hold a {HEADER_LEN}-byte credit message",
                qp.recv_slot_len()
            )));
        }
        for slot in 0..recv {
            qp.post_recv(slot)
                .map_err(|e| qp_error("writer", "posting a receive", e))?;
        }
        let cap = (qp.send_slot_len() - HEADER_LEN).min(u32::MAX as usize);
        let free = (0..qp.send_slots()).rev().collect();
        Ok(Self {
            qp,
            window: credits,
            credits,
            announce,
            cap,
            free,
            fill: None,
            state: State::Open,
            err: Sticky::default(),
            backoff: Backoff::default(),
            comps: Vec::new(),
            stats: WriterStats::default(),
        })
    }

    /// The counters so far.
    pub fn stats(&self) -> WriterStats {
        WriterStats {
            sleeps: self.backoff.sleeps,
            ..self.stats
        }
    }

    /// Credits held now (messages that could be sent without waiting).
    pub fn credits(&self) -> usize {
        self.credits
    }

    /// Handles every ready completion; true if there was any.
    fn progress(&mut self) -> io::Result<bool> {
        let mut comps = std::mem::take(&mut self.comps);
        comps.clear();
        let polled = self.qp.poll(&mut comps);
        let mut result = polled
            .map_err(|e| qp_error("writer", "polling the completion queue", e))
            .map(|()| !comps.is_empty());
        // A failure in the batch is the cause to report: later work requests (reposting a
        // receive for a credit message in the same batch) would only fail because of it.
        if let Some(what) = comps.iter().find_map(|c| match c {
            Completion::Failed { what } => Some(what.clone()),
            _ => None,
        }) {
            comps.clear();
            result = Err(failed("writer", &what));
        }
        for c in comps.drain(..) {
            if result.is_err() {
                break;
            }
            if let Err(e) = self.handle(c) {
                result = Err(e);
            }
        }
        self.comps = comps;
        if matches!(result, Ok(true)) {
            self.backoff.reset();
        }
        result
    }

    /// One completion.
    fn handle(&mut self, c: Completion) -> io::Result<()> {
        match c {
            Completion::Sent { slot } => {
                send_completed(&mut self.free, self.qp.send_slots(), slot, "writer")
            }
            Completion::Received { slot, len } => self.on_credit(slot, len),
            Completion::Failed { what } => Err(failed("writer", &what)),
        }
    }

    /// A message from the reader: must be a Credit message.
    fn on_credit(&mut self, slot: usize, len: usize) -> io::Result<()> {
        received_in_range(&*self.qp, slot, len, "writer")?;
        let h = Header::decode(&self.qp.recv_buf(slot)[..len])?;
        if h.kind != Kind::Credit {
            return Err(invalid(format!(
                "RDMA lane writer: received a {:?} message (only Credit messages travel to the writer)",
                h.kind
            )));
        }
        // Repost at once: the reader's count of this side's receives relies on it.
        self.qp
            .post_recv(slot)
            .map_err(|e| qp_error("writer", "reposting a receive", e))?;
        let c = h.credits as usize;
        if self.credits + c > self.window {
            return Err(invalid(format!(
                "RDMA lane writer: credit overflow: {} held + {c} returned exceeds the window of {}",
                self.credits, self.window
            )));
        }
        self.credits += c;
        self.stats.credit_messages += 1;
        self.stats.credits_returned += c as u64;
        Ok(())
    }

    /// Posts the filled slot as a `kind` message (the caller checked for a credit).
    fn post(&mut self, kind: Kind) -> io::Result<()> {
        let (slot, n) = self.fill.take().expect("a slot is being filled");
        debug_assert!(self.credits > 0);
        Header {
            kind,
            credits: self.announce,
            len: n as u32,
        }
        .encode(self.qp.send_buf(slot));
        self.qp
            .post_send(slot, HEADER_LEN + n)
            .map_err(|e| qp_error("writer", "posting a send", e))?;
        self.credits -= 1;
        self.stats.messages += 1;
        self.stats.bytes += n as u64;
        Ok(())
    }

    /// Waits (yield, then sleep) for a credit, counting the wait.
    fn wait_credit<T>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        self.stats.credit_waits += 1;
        self.backoff.pending(cx)
    }

    /// The error to return, recorded so later calls return it too.
    fn fail<T>(&mut self, e: io::Error) -> Poll<io::Result<T>> {
        Poll::Ready(Err(self.err.set(e)))
    }

    /// Copies as much of `buf` as free slots and credits allow, posting full slots. A failed
    /// post is recorded in `err` (after the bytes were accepted).
    fn write_some(&mut self, buf: &[u8]) -> usize {
        let mut done = 0;
        while done < buf.len() {
            if self.fill.is_none() {
                match self.free.pop() {
                    Some(slot) => self.fill = Some((slot, 0)),
                    None => break,
                }
            }
            let (slot, n) = self.fill.expect("just set");
            let k = (buf.len() - done).min(self.cap - n);
            self.qp.send_buf(slot)[HEADER_LEN + n..HEADER_LEN + n + k]
                .copy_from_slice(&buf[done..done + k]);
            self.fill = Some((slot, n + k));
            done += k;
            if n + k < self.cap {
                break;
            }
            if self.credits == 0 {
                break;
            }
            if let Err(e) = self.post(Kind::Data) {
                // Accepted bytes are reported as written; the error comes next call.
                self.err.set(e);
                break;
            }
        }
        done
    }
}

impl AsyncWrite for QpWriter {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if let Some(e) = this.err.get() {
            return Poll::Ready(Err(e));
        }
        if this.state != State::Open {
            return Poll::Ready(Err(io::Error::new(
                io::ErrorKind::BrokenPipe,
                "RDMA lane writer: write after shutdown",
            )));
        }
        if buf.is_empty() {
            return Poll::Ready(Ok(0));
        }
        if let Err(e) = this.progress() {
            return this.fail(e);
        }
        // A full slot left from an earlier call goes first, to keep the byte order.
        if let Some((_, n)) = this.fill
            && n == this.cap
        {
            if this.credits == 0 {
                return this.wait_credit(cx);
            }
            if let Err(e) = this.post(Kind::Data) {
                return this.fail(e);
            }
        }
        match this.write_some(buf) {
            0 => match this.err.get() {
                Some(e) => Poll::Ready(Err(e)),
                None => this.backoff.pending(cx),
            },
            n => {
                this.backoff.reset();
                Poll::Ready(Ok(n))
            }
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if let Some(e) = this.err.get() {
            return Poll::Ready(Err(e));
        }
        if this.state != State::Open {
            return Poll::Ready(Ok(()));
        }
        if let Err(e) = this.progress() {
            return this.fail(e);
        }
        if let Some((_, n)) = this.fill
            && n > 0
        {
            if this.credits == 0 {
                return this.wait_credit(cx);
            }
            if let Err(e) = this.post(Kind::Data) {
                return this.fail(e);
            }
        }
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if let Some(e) = this.err.get() {
            return Poll::Ready(Err(e));
        }
        if this.state == State::Closed {
            return Poll::Ready(Ok(()));
        }
        if let Err(e) = this.progress() {
            return this.fail(e);
        }
        if this.state == State::Open {
            // The End message carries whatever is still in the current slot.
            if this.fill.is_none() {
                match this.free.pop() {
                    Some(slot) => this.fill = Some((slot, 0)),
                    None => return this.backoff.pending(cx),
                }
            }
            if this.credits == 0 {
                return this.wait_credit(cx);
            }
            if let Err(e) = this.post(Kind::End) {
                return this.fail(e);
            }
            this.state = State::Ending;
        }
        if this.free.len() < this.qp.send_slots() {
            return this.backoff.pending(cx);
        }
        this.state = State::Closed;
        Poll::Ready(Ok(()))
    }
}
