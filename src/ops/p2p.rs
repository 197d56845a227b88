//! Point-to-point operations: send, receive, probe, sendrecv.
//!
//! Sends are eager: the data is copied and queued, and the call returns. Receives match with MPI
//! semantics (see `core::matching`). A message larger than the receive buffer fills the buffer
//! and fails with [`ErrorKind::Truncated`]; nothing is written past the buffer.
//!
//! Synchronous sends, matched probes and receive cancellation are in [`super::p2p_modes`].

use super::{Source, Status, TagMatch, bytes_of, bytes_of_mut, check_tag};
use crate::comm::Comm;
use crate::core::engine::{Engine, RecvWait};
use crate::core::matching::{Envelope, RecvSpec};
use crate::element::Element;
use crate::error::{Error, ErrorKind, Result};
use bytes::Bytes;
use std::sync::Arc;

/// A posted receive as a future. If it is dropped before yielding its message (a cancelled
/// call, or a sendrecv whose send half failed), a message it already matched is given back to
/// the matcher, so no message is ever lost.
struct PostedRecv {
    engine: Arc<Engine>,
    wait: Option<RecvWait>,
}

impl Future for PostedRecv {
    type Output = Result<Envelope>;

    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<Envelope>> {
        use std::task::Poll;
        let out = match self.wait.as_mut() {
            None => Err(Error::new(
                ErrorKind::Internal,
                "receive polled after completion",
            )),
            Some(RecvWait::Ready(_)) => match self.wait.take() {
                Some(RecvWait::Ready(env)) => Ok(env),
                _ => unreachable!("just matched Ready"),
            },
            Some(RecvWait::Pending(_, rx)) => match std::pin::Pin::new(rx).poll(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(r) => {
                    self.wait = None;
                    r.unwrap_or_else(|_| {
                        Err(Error::new(
                            ErrorKind::Finalized,
                            "the context was finalized",
                        ))
                    })
                }
            },
        };
        Poll::Ready(out)
    }
}

impl Drop for PostedRecv {
    fn drop(&mut self) {
        match self.wait.take() {
            Some(RecvWait::Ready(env)) => self.engine.requeue(env),
            Some(RecvWait::Pending(id, mut rx)) => {
                self.engine.cancel_recv(id);
                if let Ok(Ok(env)) = rx.try_recv() {
                    self.engine.requeue(env);
                }
            }
            None => {}
        }
    }
}

impl Comm {
    pub(crate) fn recv_spec(&self, source: Source, tag: TagMatch) -> Result<RecvSpec> {
        let source = match source {
            Source::Any => None,
            Source::Rank(r) => Some(self.inner.peer_world_rank(r)?),
        };
        let tag = match tag {
            TagMatch::Any => None,
            TagMatch::Tag(t) => {
                check_tag(t)?;
                Some(t)
            }
        };
        Ok(RecvSpec {
            context: self.inner.context,
            source,
            tag,
            members: self.inner.wildcard_members(),
        })
    }

    pub(crate) fn status_of(&self, src_world: u32, tag: i32, bytes: usize) -> Status {
        let source = self
            .inner
            .peers()
            .comm_rank_of(src_world)
            .unwrap_or(u32::MAX);
        Status { source, tag, bytes }
    }

    /// Posts a receive now (so receives match in the order they were posted) and returns a
    /// future for its envelope.
    pub(crate) fn post_recv(
        &self,
        source: Source,
        tag: TagMatch,
    ) -> Result<impl Future<Output = Result<Envelope>> + Send + 'static> {
        post_spec(&self.inner.engine, self.recv_spec(source, tag)?)
    }

    /// Copies a received envelope into `buf`; returns the status and whether it was truncated.
    /// A device `buf` is written through the staged path (crate::device).
    pub(crate) fn deliver_into(&self, env: &Envelope, buf: &mut [u8]) -> Result<(Status, bool)> {
        let n = env.payload.len().min(buf.len());
        crate::device::copy_into(&mut buf[..n], &env.payload[..n])?;
        Ok((
            self.status_of(env.src, env.tag, env.payload.len()),
            env.payload.len() > buf.len(),
        ))
    }

    /// Sends raw bytes to `dest` with `tag`. Returns once the message is queued.
    pub fn send_bytes(&self, payload: Bytes, dest: u32, tag: i32) -> Result<()> {
        check_tag(tag)?;
        let to = self.inner.peer_world_rank(dest)?;
        self.inner
            .engine
            .send_p2p(to, self.inner.context, tag, payload)
    }

    /// Sends `data` to rank `dest` with `tag` and returns once `data` may be reused, blocking
    /// the calling thread (which drives the transport meanwhile, see [`Comm::block_on`]). A
    /// large message to a shared-memory peer is not copied on this side: the receiver reads it
    /// straight out of `data`, and the call returns once it has (or the peer was lost). Other
    /// messages are copied and queued, as [`Comm::send_bytes`] does.
    pub fn send_bytes_blocking(&self, data: &[u8], dest: u32, tag: i32) -> Result<()> {
        check_tag(tag)?;
        let to = self.inner.peer_world_rank(dest)?;
        let engine = &self.inner.engine;
        if crate::device::device_of(data).is_some() {
            return self.send_bytes(crate::device::to_bytes(data)?, dest, tag);
        }
        // Never lent to itself: its own message would wait in the matcher, holding the loan.
        if to == engine.rank || !engine.transport().lends(to, data.len()) {
            return engine.send_p2p_copy(to, self.inner.context, tag, data);
        }
        let (payload, returned) = super::lend::lend(data);
        let sent = engine.send_p2p(to, self.inner.context, tag, payload);
        // Whether or not the send was accepted, `data` stays borrowed until the transport
        // has let go of it.
        self.block_on(returned);
        sent
    }

    /// Starts sending `data` to rank `dest` with `tag`; the request completes once `data` may
    /// be reused. A large message to a shared-memory peer is read by the receiver straight out
    /// of `data`; any other is copied and queued at once (the request is then complete).
    ///
    /// # Safety
    /// `data` must stay valid and unmodified until the request completes. Dropping the request
    /// early blocks until the transport has let go of `data`.
    pub unsafe fn isend_bytes_lent(
        &self,
        data: &[u8],
        dest: u32,
        tag: i32,
    ) -> Result<crate::Request<()>> {
        check_tag(tag)?;
        let to = self.inner.peer_world_rank(dest)?;
        let engine = &self.inner.engine;
        if crate::device::device_of(data).is_some() {
            self.send_bytes(crate::device::to_bytes(data)?, dest, tag)?;
            return Ok(crate::Request::ready(Ok(())));
        }
        // Never lent to itself: its own message would wait in the matcher, holding the loan.
        if to == engine.rank || !engine.transport().lends(to, data.len()) {
            engine.send_p2p_copy(to, self.inner.context, tag, data)?;
            return Ok(crate::Request::ready(Ok(())));
        }
        let (payload, returned) = super::lend::lend(data);
        let sent = engine.send_p2p(to, self.inner.context, tag, payload);
        Ok(crate::Request::inline(async move {
            returned.await;
            sent
        }))
    }

    /// Sends `data` to rank `dest` with `tag`. Returns once the data is copied and queued.
    pub async fn send<T: Element>(&self, data: &[T], dest: u32, tag: i32) -> Result<()> {
        self.send_bytes(crate::device::to_bytes(bytes_of(data))?, dest, tag)
    }

    /// Receives one whole message as bytes, whatever its size.
    pub async fn recv_bytes(
        &self,
        source: impl Into<Source>,
        tag: impl Into<TagMatch>,
    ) -> Result<(Bytes, Status)> {
        let env = self.post_recv(source.into(), tag.into())?.await?;
        let st = self.status_of(env.src, env.tag, env.payload.len());
        Ok((env.payload, st))
    }

    /// Receives into `buf`. A larger message fills `buf` and fails with
    /// [`ErrorKind::Truncated`].
    pub async fn recv<T: Element>(
        &self,
        buf: &mut [T],
        source: impl Into<Source>,
        tag: impl Into<TagMatch>,
    ) -> Result<Status> {
        let cap = std::mem::size_of_val(buf);
        let o = self
            .post_into(bytes_of_mut(buf), source.into(), tag.into())?
            .await?;
        if o.truncated {
            return Err(truncation_error(&o.status, cap));
        }
        Ok(o.status)
    }

    /// Posts a receive into `buf` now and returns a future for its outcome: posted with the
    /// buffer when it is host memory (see `ops::p2p_into`: small messages from shared memory
    /// land straight from the ring, large ones are read straight from the sender), otherwise
    /// copied in on completion. Dropping the future withdraws the receive.
    fn post_into<'a>(
        &self,
        buf: &'a mut [u8],
        source: Source,
        tag: TagMatch,
    ) -> Result<std::pin::Pin<Box<dyn Future<Output = Result<RecvOutcome>> + Send + 'a>>> {
        if crate::device::device_of(buf).is_some() {
            let pending = self.start_recv(source, tag)?;
            return Ok(Box::pin(pending.finish_into(buf)));
        }
        // SAFETY: `buf` stays mutably borrowed by the returned future and is not touched
        // through the borrow until the receive completed; dropping the future withdraws the
        // receive before the borrow ends.
        let (r, _) = unsafe { self.start_recv_into(buf.as_mut_ptr(), buf.len(), source, tag)? };
        Ok(Box::pin(r))
    }

    /// Reports the oldest matching message without receiving it, if one has arrived. Makes one
    /// pass of transport progress on this thread first (see [`Comm::progress`]), so polling
    /// loops see messages as soon as they land.
    pub fn iprobe(
        &self,
        source: impl Into<Source>,
        tag: impl Into<TagMatch>,
    ) -> Result<Option<Status>> {
        self.inner.engine.check_open()?;
        self.inner.engine.check_revoked(self.inner.context)?;
        self.progress();
        let spec = self.recv_spec(source.into(), tag.into())?;
        Ok(self
            .inner
            .engine
            .probe(&spec)
            .map(|(s, t, b)| self.status_of(s, t, b)))
    }

    /// Waits until a matching message has arrived and reports it without receiving it.
    pub async fn probe(
        &self,
        source: impl Into<Source>,
        tag: impl Into<TagMatch>,
    ) -> Result<Status> {
        let spec = self.recv_spec(source.into(), tag.into())?;
        let (s, t, b) = wait_matching(&self.inner.engine, &spec, |e| e.probe(&spec)).await?;
        Ok(self.status_of(s, t, b))
    }

    /// Sends `send` to `dest` and receives into `recv` from `source`, without deadlocking
    /// against a matching sendrecv on the peer.
    #[allow(clippy::too_many_arguments)]
    pub async fn sendrecv<T: Element, U: Element>(
        &self,
        send: &[T],
        dest: u32,
        send_tag: i32,
        recv: &mut [U],
        source: impl Into<Source>,
        recv_tag: impl Into<TagMatch>,
    ) -> Result<Status> {
        // The send's arguments are checked before the receive is posted: a call that fails
        // on them must not consume a message.
        check_tag(send_tag)?;
        self.inner.peer_world_rank(dest)?;
        let cap = std::mem::size_of_val(recv);
        let pending = self.post_into(bytes_of_mut(recv), source.into(), recv_tag.into())?;
        // If the send fails, dropping `pending` withdraws the receive (a message it already
        // matched and did not copy goes back).
        self.send_bytes(crate::device::to_bytes(bytes_of(send))?, dest, send_tag)?;
        let o = pending.await?;
        if o.truncated {
            return Err(truncation_error(&o.status, cap));
        }
        Ok(o.status)
    }
}

/// A receive posted with [`Comm::start_recv`]: it already holds its place in the matching
/// order; finish it to copy the message into a buffer.
pub struct PendingRecv {
    comm: Comm,
    wait: std::pin::Pin<Box<dyn Future<Output = Result<Envelope>> + Send>>,
    cancel: super::p2p_modes::RecvCancel,
}

impl std::fmt::Debug for PendingRecv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PendingRecv").finish_non_exhaustive()
    }
}

/// What a finished receive produced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecvOutcome {
    /// Sender, tag and full message size.
    pub status: Status,
    /// True if the message was larger than the buffer (which then holds its first bytes).
    pub truncated: bool,
}

impl PendingRecv {
    /// A handle that can cancel this receive while it has not matched (see
    /// [`super::p2p_modes::RecvCancel`]).
    pub fn cancel_handle(&self) -> super::p2p_modes::RecvCancel {
        self.cancel.clone()
    }

    /// Waits for the matching message and copies it into `buf` (at most `buf.len()` bytes).
    /// Truncation is reported in the outcome, not as an error, so callers can still report the
    /// status.
    pub async fn finish_into(self, buf: &mut [u8]) -> Result<RecvOutcome> {
        let env = self.wait.await?;
        let (status, truncated) = self.comm.deliver_into(&env, buf)?;
        Ok(RecvOutcome { status, truncated })
    }

    /// [`PendingRecv::finish_into`], blocking the calling thread (which drives the transport
    /// meanwhile where it can: see [`Comm::block_on`]).
    pub fn finish_into_blocking(self, buf: &mut [u8]) -> Result<RecvOutcome> {
        let comm = self.comm.clone();
        comm.block_on(self.finish_into(buf))
    }
}

impl Comm {
    /// Receives into `buf` from `source` with `tag`, blocking the calling thread (which drives
    /// the transport meanwhile where it can: see [`Comm::block_on`]). Truncation is reported
    /// in the outcome.
    ///
    /// A buffer in host memory is posted with the receive: a small message read from a
    /// shared-memory ring is copied by the reading thread straight into it, a large one read
    /// from the sender's memory straight into it (one copy, no landing buffer). A device
    /// buffer takes the message as it arrives (`take_arriving`) and is written from there.
    pub fn recv_into_blocking(
        &self,
        buf: &mut [u8],
        source: Source,
        tag: TagMatch,
    ) -> Result<RecvOutcome> {
        // Posted for every size: measured 8 B ping-pong 1.19 -> 1.06 us (2 ranks) and 1.47 ->
        // 1.17 us (4 ranks on 2 cores) against taking small messages as they arrive.
        if crate::device::device_of(buf).is_none() {
            // SAFETY: `buf` stays mutably borrowed for this call, and the receive has
            // completed or been withdrawn (dropping `RecvInto`) when it returns.
            let recv = unsafe { self.post_recv_into(buf.as_mut_ptr(), buf.len(), source, tag)? };
            return self.block_on(recv);
        }
        let spec = self.recv_spec(source, tag)?;
        let env = self.block_on(take_arriving(&self.inner.engine, &spec))?;
        let (status, truncated) = self.deliver_into(&env, buf)?;
        Ok(RecvOutcome { status, truncated })
    }

    /// Posts a receive now (it matches before receives posted later) without a buffer yet; a
    /// building block for bindings. See [`PendingRecv::finish_into`].
    pub fn start_recv(&self, source: Source, tag: TagMatch) -> Result<PendingRecv> {
        let engine = self.inner.engine.clone();
        let wait = engine.post_recv(self.recv_spec(source, tag)?)?;
        let id = match &wait {
            RecvWait::Pending(id, _) => Some(*id),
            RecvWait::Ready(_) => None,
        };
        Ok(PendingRecv {
            comm: self.clone(),
            cancel: super::p2p_modes::RecvCancel::new(engine.clone(), id),
            wait: Box::pin(PostedRecv {
                engine,
                wait: Some(wait),
            }),
        })
    }

    /// Runs `fut` on the engine's runtime and returns a [`crate::Request`] for it; a building
    /// block for bindings that manage their own buffers.
    pub fn spawn<T, F>(&self, fut: F) -> crate::Request<T>
    where
        T: Send + 'static,
        F: Future<Output = Result<T>> + Send + 'static,
    {
        crate::Request::spawn(&self.inner.engine.runtime, fut)
    }
}

/// Receives the oldest message `spec` matches without posting a receive: takes it from the
/// unexpected queue, waiting for arrivals meanwhile (counted as a waiting receive, so
/// back-pressure does not stall its source). A blocking receive's fast path: no reply channel,
/// no posted entry. Order is kept: an arriving message goes to the receives posted before it
/// arrived, and only then to the unexpected queue this takes from; and the calling thread
/// cannot post another receive while it waits here. Fails as a posted receive does (closed,
/// revoked, source failed).
pub(crate) async fn take_arriving(engine: &Engine, spec: &RecvSpec) -> Result<Envelope> {
    struct Waiting<'a>(&'a crate::transport::budget::RxBudget, Option<u32>);
    impl Drop for Waiting<'_> {
        fn drop(&mut self) {
            self.0.receive_done(self.1);
        }
    }
    engine.budget().receive_posted(spec.source);
    let _waiting = Waiting(engine.budget(), spec.source);
    wait_matching(engine, spec, |e| e.take_message(spec)).await
}

/// Posts the receive `spec` now and returns a future for its envelope (see [`PostedRecv`]).
pub(crate) fn post_spec(
    engine: &Arc<Engine>,
    spec: RecvSpec,
) -> Result<impl Future<Output = Result<Envelope>> + Send + 'static> {
    let wait = engine.post_recv(spec)?;
    Ok(PostedRecv {
        engine: engine.clone(),
        wait: Some(wait),
    })
}

/// The error for a receive whose message did not fit.
pub fn truncation_error(st: &Status, capacity: usize) -> Error {
    Error::new(
        ErrorKind::Truncated,
        format!(
            "message from rank {} with tag {} has {} bytes but the receive buffer holds {}",
            st.source, st.tag, st.bytes, capacity
        ),
    )
}

/// Waits until `look` finds what it wants among the messages matching `spec` (it is asked
/// again after every arrival): a probe's envelope, a matched probe's message. Fails when the
/// engine shuts down, the communicator is revoked, or the awaited source (every member, for
/// a wildcard) failed.
pub(super) async fn wait_matching<T>(
    engine: &Engine,
    spec: &RecvSpec,
    mut look: impl FnMut(&Engine) -> Option<T>,
) -> Result<T> {
    loop {
        engine.check_open()?;
        engine.check_revoked(spec.context)?;
        // A first look unarmed: what is already there (or arrives while this thread drives
        // the transport) costs no registration.
        if let Some(found) = look(engine) {
            return Ok(found);
        }
        // Armed before looking again, so an arrival between the look and the wait is not
        // missed.
        let notified = engine.arrivals().notified();
        tokio::pin!(notified);
        notified.as_mut().enable();
        if let Some(found) = look(engine) {
            return Ok(found);
        }
        if let Some(e) = engine.source_failure(spec) {
            return Err(e);
        }
        notified.await;
    }
}
