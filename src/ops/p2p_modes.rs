//! Send modes and message handling beyond plain send / receive:
//!
//! * synchronous sends ([`Comm::ssend`], [`Comm::start_ssend_bytes`], [`Comm::issend`]): the
//!   message carries a flag, the receiver's matcher acknowledges it when a receive (of any
//!   source / tag selection) or a matched probe takes it, and the send completes on that
//!   acknowledgement (or fails with [`ErrorKind::ProcFailed`] if the receiver dies first);
//! * matched probes ([`Comm::improbe`], [`Comm::mprobe`]): the message is removed from the
//!   matching queue and owned by a [`Message`], so no other receive or probe can take it;
//! * cancelling a posted receive ([`RecvCancel`]).

use super::p2p::{truncation_error, wait_matching};
use super::{Source, Status, TagMatch, bytes_of, check_tag};
use crate::comm::Comm;
use crate::core::engine::{Engine, SyncWait};
use crate::core::matching::Envelope;
use crate::core::recv_cell::RecvCell;
use crate::element::Element;
use crate::error::{Error, ErrorKind, Result};
use crate::ops::p2p::RecvOutcome;
use crate::request::Request;
use bytes::Bytes;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context as TaskContext, Poll};

/// A synchronous send in progress: a future that completes once the receiver has matched the
/// message. The data is already copied and queued; dropping this only stops waiting.
#[derive(Debug)]
pub struct SyncSend {
    wait: Option<SyncWait>,
}

impl Future for SyncSend {
    type Output = Result<()>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Result<()>> {
        let Some(rx) = self.wait.as_mut() else {
            return Poll::Ready(Ok(()));
        };
        match Pin::new(rx).poll(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(r) => {
                self.wait = None;
                Poll::Ready(r.unwrap_or_else(|_| {
                    Err(Error::new(
                        ErrorKind::Finalized,
                        "the context was finalized",
                    ))
                }))
            }
        }
    }
}

impl Comm {
    /// Starts a synchronous send of raw bytes to `dest` with `tag`: the data is queued at once
    /// and the returned future completes when the receiver has matched the message.
    pub fn start_ssend_bytes(&self, payload: Bytes, dest: u32, tag: i32) -> Result<SyncSend> {
        check_tag(tag)?;
        let to = self.inner.peer_world_rank(dest)?;
        let wait = self
            .inner
            .engine
            .send_p2p_sync(to, self.inner.context, tag, payload)?;
        Ok(SyncSend { wait: Some(wait) })
    }

    /// Synchronous send: returns once rank `dest` has matched the message with a receive.
    pub async fn ssend<T: Element>(&self, data: &[T], dest: u32, tag: i32) -> Result<()> {
        self.start_ssend_bytes(crate::device::to_bytes(bytes_of(data))?, dest, tag)?
            .await
    }

    /// Blocking [`Comm::ssend`].
    pub fn ssend_blocking<T: Element>(&self, data: &[T], dest: u32, tag: i32) -> Result<()> {
        pollster::block_on(self.ssend(data, dest, tag))
    }

    /// Non-blocking synchronous send: the request completes once `dest` has matched it.
    pub fn issend<T: Element>(&self, data: &[T], dest: u32, tag: i32) -> Result<Request<()>> {
        let s = self.start_ssend_bytes(crate::device::to_bytes(bytes_of(data))?, dest, tag)?;
        Ok(self.spawn(s))
    }

    /// Matched probe, non-blocking: takes the oldest matching message that has arrived, if any,
    /// out of the matching queue. Only the returned [`Message`] can receive it.
    pub fn improbe(
        &self,
        source: impl Into<Source>,
        tag: impl Into<TagMatch>,
    ) -> Result<Option<Message>> {
        let engine = &self.inner.engine;
        engine.check_open()?;
        engine.check_revoked(self.inner.context)?;
        self.progress();
        let spec = self.recv_spec(source.into(), tag.into())?;
        Ok(engine.take_message(&spec).map(|env| Message {
            comm: self.clone(),
            env: Some(env),
        }))
    }

    /// Matched probe: waits for a matching message and takes it out of the matching queue.
    pub async fn mprobe(
        &self,
        source: impl Into<Source>,
        tag: impl Into<TagMatch>,
    ) -> Result<Message> {
        let spec = self.recv_spec(source.into(), tag.into())?;
        let env = wait_matching(&self.inner.engine, &spec, |e| e.take_message(&spec)).await?;
        Ok(Message {
            comm: self.clone(),
            env: Some(env),
        })
    }

    /// Blocking [`Comm::mprobe`].
    pub fn mprobe_blocking(&self, source: Source, tag: TagMatch) -> Result<Message> {
        pollster::block_on(self.mprobe(source, tag))
    }
}

/// A message taken by a matched probe. It already holds the data, so receiving it never
/// blocks (it serves as both the blocking and the non-blocking receive). Dropping it without
/// receiving gives the message back to the front of the matching queue.
#[derive(Debug)]
pub struct Message {
    comm: Comm,
    env: Option<Envelope>,
}

impl Message {
    /// Sender, tag and size of the message.
    pub fn status(&self) -> Status {
        let env = self.env.as_ref().expect("present until consumed");
        self.comm.status_of(env.src, env.tag, env.payload.len())
    }

    /// Copies the message into `buf` (at most `buf.len()` bytes); truncation is reported in
    /// the outcome.
    ///
    /// # Panics
    /// If `buf` is GPU memory and the copy to the device fails; [`Message::try_recv_into`]
    /// reports that as an error instead.
    pub fn recv_into(self, buf: &mut [u8]) -> RecvOutcome {
        self.try_recv_into(buf)
            .unwrap_or_else(|e| panic!("Message::recv_into: {e}"))
    }

    /// [`Message::recv_into`], failing (instead of panicking) when a device buffer cannot be
    /// written.
    pub fn try_recv_into(mut self, buf: &mut [u8]) -> Result<RecvOutcome> {
        let env = self.env.take().expect("present until consumed");
        let (status, truncated) = self.comm.deliver_into(&env, buf)?;
        Ok(RecvOutcome { status, truncated })
    }

    /// Receives into a typed buffer; a larger message fills it and fails with
    /// [`ErrorKind::Truncated`].
    pub fn recv<T: Element>(self, buf: &mut [T]) -> Result<Status> {
        let cap = std::mem::size_of_val(buf);
        let out = self.try_recv_into(bytemuck::cast_slice_mut(buf))?;
        if out.truncated {
            return Err(truncation_error(&out.status, cap));
        }
        Ok(out.status)
    }

    /// The whole message as bytes, with its status.
    pub fn into_bytes(mut self) -> (Bytes, Status) {
        let st = self.status();
        let env = self.env.take().expect("present until consumed");
        (env.payload, st)
    }
}

impl Drop for Message {
    fn drop(&mut self) {
        if let Some(env) = self.env.take() {
            self.comm.inner.engine.requeue(env);
        }
    }
}

/// Cancels a posted receive that has not matched yet (MPI_Cancel of a receive). Clones share
/// the outcome.
#[derive(Clone)]
pub struct RecvCancel {
    engine: Arc<Engine>,
    /// The matcher's id of the queued receive; `None` when it matched at once.
    id: Option<u64>,
    cancelled: CancelFlag,
}

/// Where a receive's "cancelled" flag lives: a receive posted with its buffer keeps it in its
/// cell (no allocation of its own).
#[derive(Clone)]
enum CancelFlag {
    Own(Arc<AtomicBool>),
    Cell(Arc<RecvCell>),
}

impl CancelFlag {
    fn get(&self) -> &AtomicBool {
        match self {
            CancelFlag::Own(f) => f,
            CancelFlag::Cell(c) => &c.cancelled,
        }
    }
}

impl Drop for CancelFlag {
    fn drop(&mut self) {
        // The last holder of a finished receive's cell (a cancel handle outlives the receive
        // in a request table) hands it to the thread's spares.
        if let CancelFlag::Cell(c) = self {
            crate::ops::p2p_into::keep_cell(c);
        }
    }
}

impl std::fmt::Debug for RecvCancel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RecvCancel")
            .field("cancelled", &self.is_cancelled())
            .finish_non_exhaustive()
    }
}

impl RecvCancel {
    pub(crate) fn new(engine: Arc<Engine>, id: Option<u64>) -> Self {
        Self {
            engine,
            id,
            cancelled: CancelFlag::Own(Arc::new(AtomicBool::new(false))),
        }
    }

    /// The handle of a receive posted with its buffer (see `crate::ops::p2p_into`).
    pub(crate) fn of_cell(engine: Arc<Engine>, id: Option<u64>, cell: Arc<RecvCell>) -> Self {
        Self {
            engine,
            id,
            cancelled: CancelFlag::Cell(cell),
        }
    }

    /// Withdraws the receive if no message has matched it yet: it then completes with an
    /// [`ErrorKind::InvalidRequest`] error saying so, and this returns true. Returns false if
    /// it already matched (it then completes normally).
    pub fn cancel(&self) -> bool {
        if self.is_cancelled() {
            return true;
        }
        let Some(id) = self.id else { return false };
        // Set first, so whoever sees the cancellation error also sees the flag.
        self.cancelled.get().store(true, Ordering::SeqCst);
        let err = Error::new(ErrorKind::InvalidRequest, "the receive was cancelled");
        let done = self.engine.cancel_posted(id, &err);
        if !done {
            self.cancelled.get().store(false, Ordering::SeqCst);
        }
        done
    }

    /// Whether [`RecvCancel::cancel`] succeeded.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.get().load(Ordering::SeqCst)
    }
}
