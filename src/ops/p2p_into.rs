//! Receives posted with their buffer: the non-blocking receive's fast path.
//!
//! [`Comm::start_recv_into`] posts a receive whose buffer the engine knows from the start, so
//! a small message read from a shared-memory ring lands in it directly, with no allocation, no
//! channel and no task hop (see `core::recv_cell`); any other message is copied in by the
//! thread that waits. Matching order, wildcards, truncation, cancellation and failures behave
//! as for [`Comm::start_recv`].

use super::p2p::RecvOutcome;
use super::p2p_modes::RecvCancel;
use super::{Source, TagMatch};
use crate::comm::Comm;
use crate::core::matching::Envelope;
use crate::core::recv_cell::RecvCell;
use crate::error::{Error, ErrorKind, Result};
use std::cell::RefCell;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

/// Spare cells a thread keeps: enough for a window of receives posted before any completes
/// (`osu_bw` posts 64).
const SPARE_CELLS: usize = 64;

thread_local! {
    /// Cells of this thread's finished receives, kept for its next ones: a receive then
    /// allocates nothing (measured: malloc and free were about a sixth of a blocking receive's
    /// instructions). Only cells nobody else holds are kept (see [`keep_cell`]).
    static SPARES: RefCell<Vec<Arc<RecvCell>>> = const { RefCell::new(Vec::new()) };
}

/// A cell landing in the `cap` bytes at `buf`: one of this thread's spare ones if it has one.
///
/// # Safety
/// As [`RecvCell::new`].
unsafe fn new_cell(buf: *mut u8, cap: usize) -> Arc<RecvCell> {
    // `try_with`: during thread teardown the slot may be gone; a fresh cell is made then.
    let spare = SPARES
        .try_with(|s| s.try_borrow_mut().ok()?.pop())
        .ok()
        .flatten();
    if let Some(mut cell) = spare
        && let Some(c) = Arc::get_mut(&mut cell)
    {
        // SAFETY: the caller's contract.
        *c = unsafe { RecvCell::new(buf, cap) };
        return cell;
    }
    // SAFETY: the caller's contract.
    Arc::new(unsafe { RecvCell::new(buf, cap) })
}

/// Keeps `cell` for this thread's next receive if its caller, about to drop it, is the last to
/// hold it (the receive is over: neither the matcher, nor the receive, nor a cancel handle has
/// it any more).
pub(crate) fn keep_cell(cell: &Arc<RecvCell>) {
    if Arc::strong_count(cell) != 1 {
        return;
    }
    let _ = SPARES.try_with(|s| {
        if let Ok(mut s) = s.try_borrow_mut()
            && s.len() < SPARE_CELLS
        {
            s.push(cell.clone());
        }
    });
}

/// A receive posted with [`Comm::start_recv_into`]. Awaiting it (or polling it through
/// [`crate::Request::inline`]) gives the outcome once the message is in the buffer.
///
/// Dropped before it completed, the receive is withdrawn; a message already matched to it and
/// not yet copied goes back to the matcher (no message is lost). A message that already landed
/// in the buffer stays consumed: it is in the caller's buffer.
pub struct RecvInto {
    comm: Comm,
    cell: Arc<RecvCell>,
    /// The matcher's id while queued (`None`: completed when posted).
    id: Option<u64>,
    context: u64,
    finished: bool,
}

impl std::fmt::Debug for RecvInto {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RecvInto")
            .field("done", &self.cell.is_done())
            .finish_non_exhaustive()
    }
}

impl Comm {
    /// Posts a receive from `source` with `tag` into the `cap` host-memory bytes at `buf`
    /// now (it matches before receives posted later). The returned [`RecvInto`] completes once
    /// the message is in the buffer; a longer message fills it and reports truncation in the
    /// outcome. Fails at once as [`Comm::start_recv`] does (bad rank or tag, a dead source,
    /// a finalized context, a revoked communicator).
    ///
    /// # Safety
    /// `buf` must be host memory valid for writes of `cap` bytes, and nobody may read or write
    /// it, until the [`RecvInto`] completes or is dropped.
    pub unsafe fn start_recv_into(
        &self,
        buf: *mut u8,
        cap: usize,
        source: Source,
        tag: TagMatch,
    ) -> Result<(RecvInto, RecvCancel)> {
        // SAFETY: the caller's contract.
        let recv = unsafe { self.post_recv_into(buf, cap, source, tag)? };
        let cancel = RecvCancel::of_cell(self.inner.engine.clone(), recv.id, recv.cell.clone());
        Ok((recv, cancel))
    }

    /// [`Comm::start_recv_into`] without a cancel handle: for a receive its caller waits for
    /// at once (a blocking receive), which then allocates nothing.
    ///
    /// # Safety
    /// As [`Comm::start_recv_into`].
    pub(crate) unsafe fn post_recv_into(
        &self,
        buf: *mut u8,
        cap: usize,
        source: Source,
        tag: TagMatch,
    ) -> Result<RecvInto> {
        let spec = self.recv_spec(source, tag)?;
        let context = spec.context;
        // SAFETY: the caller's contract.
        let cell = unsafe { new_cell(buf, cap) };
        let id = self.inner.engine.post_recv_cell(spec, cell.clone())?;
        Ok(RecvInto {
            comm: self.clone(),
            cell,
            id,
            context,
            finished: false,
        })
    }
}

impl RecvInto {
    /// This receive, keeping `owner` (whatever owns the buffer: a vector, a staging area)
    /// alive until it is done: completing yields the owner back, and dropping it early
    /// withdraws the receive *before* the owner is dropped, so nothing is ever written into
    /// freed memory.
    pub fn owning<K>(self, owner: K) -> Owning<K> {
        Owning {
            recv: self,
            owner: Some(owner),
        }
    }
}

/// A [`RecvInto`] with the owner of its buffer (see [`RecvInto::owning`]).
#[derive(Debug)]
pub struct Owning<K> {
    // Declared first, so dropped first: the receive is withdrawn before the owner goes.
    recv: RecvInto,
    owner: Option<K>,
}

// The owner is never pinned (it is moved out by value when done): no structural pinning.
impl<K> Unpin for Owning<K> {}

impl<K> Future for Owning<K> {
    type Output = Result<(RecvOutcome, K)>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let out = std::task::ready!(Pin::new(&mut self.recv).poll(cx));
        let owner = self
            .owner
            .take()
            .ok_or_else(|| Error::new(ErrorKind::Internal, "receive polled after completion"))?;
        Poll::Ready(out.map(|o| (o, owner)))
    }
}

impl Future for RecvInto {
    type Output = Result<RecvOutcome>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<RecvOutcome>> {
        if self.finished {
            return Poll::Ready(Err(Error::new(
                ErrorKind::Internal,
                "receive polled after completion",
            )));
        }
        let landed = match self.cell.poll_take(cx) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(r) => {
                self.finished = true;
                r?
            }
        };
        if let Some(p) = &landed.parked {
            // SAFETY: complete, so the matcher no longer writes; this receive owns the buffer.
            unsafe { self.cell.fill(p) };
        }
        let cap = self.cell.capacity();
        Poll::Ready(Ok(RecvOutcome {
            status: self.comm.status_of(landed.src, landed.tag, landed.len),
            truncated: landed.len > cap,
        }))
    }
}

impl Drop for RecvInto {
    fn drop(&mut self) {
        if self.finished {
            keep_cell(&self.cell);
        } else {
            self.withdraw();
        }
    }
}

impl RecvInto {
    /// Withdraws an unfinished receive: after this, nothing writes into the buffer.
    fn withdraw(&mut self) {
        let engine = &self.comm.inner.engine;
        // Withdrawn under the matcher's lock. A receive claimed by a transport reading a
        // payload straight into it (not queued, not complete) is waited for: the read is
        // bounded, and if it fails the receive is queued again and withdrawn on the next pass.
        loop {
            if let Some(id) = self.id
                && engine.cancel_recv(id)
            {
                return;
            }
            if self.cell.is_done() {
                break;
            }
            std::thread::yield_now();
        }
        // Matched meanwhile: a parked message goes back to the matcher, first in line.
        let mut cx = Context::from_waker(std::task::Waker::noop());
        if let Poll::Ready(Ok(landed)) = self.cell.poll_take(&mut cx)
            && let Some(payload) = landed.parked
        {
            engine.requeue(Envelope {
                context: self.context,
                src: landed.src,
                tag: landed.tag,
                payload,
                ack: None,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_nobody_else_holds_is_reused_and_a_shared_one_is_not() {
        let mut buf = [0u8; 8];
        // SAFETY: `buf` outlives every cell here and nothing lands in them.
        let cell = unsafe { new_cell(buf.as_mut_ptr(), buf.len()) };
        let other = cell.clone();
        keep_cell(&cell);
        drop(cell);
        // Still held by `other`: not kept, so the next cell is fresh.
        // SAFETY: as above.
        let fresh = unsafe { new_cell(buf.as_mut_ptr(), 4) };
        assert!(!Arc::ptr_eq(&fresh, &other));
        let addr = Arc::as_ptr(&other);
        keep_cell(&other);
        drop(other);
        // SAFETY: as above.
        let reused = unsafe { new_cell(buf.as_mut_ptr(), 2) };
        assert_eq!(Arc::as_ptr(&reused), addr, "the spare is handed out again");
        assert_eq!(reused.capacity(), 2, "and made new for its receive");
        assert!(!reused.is_done());
    }
}
