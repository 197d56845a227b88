//! The landing place of a receive posted with its buffer: the matcher completes it in place.
//!
//! A receive posted through a one-shot channel costs two allocations and a channel send per
//! message, and its message is first copied into a fresh `Bytes`. A [`RecvCell`] instead
//! carries the receive buffer's address: a message that arrives inline in a shared-memory ring
//! slot is copied straight from the slot into the buffer by the thread reading the ring
//! ([`super::matching::Matcher::arrive_inline`]), and the waiter sees a flag. A message that is
//! already a `Bytes` (unexpected, assembled from several slots, read from a network stream) is
//! parked in the cell and copied out by the waiter, so no large copy runs under the matcher's
//! lock.

use crate::error::Result;
use bytes::Bytes;
use parking_lot::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll, Waker};

/// What a completed receive got: sender, tag and full length; `parked` holds the message when
/// it was not copied into the buffer yet.
#[derive(Debug)]
pub(crate) struct Landed {
    /// Sender's world rank.
    pub src: u32,
    /// The message's tag.
    pub tag: i32,
    /// The message's full length in bytes (it may exceed the buffer: truncation).
    pub len: usize,
    /// The message, when the waiter still has to copy it (see the module comment).
    pub parked: Option<Bytes>,
}

struct Slot {
    outcome: Option<Result<Landed>>,
    waker: Option<Waker>,
}

/// A posted receive's buffer and completion.
pub(crate) struct RecvCell {
    dst: *mut u8,
    cap: usize,
    done: AtomicBool,
    slot: Mutex<Slot>,
    /// Set by a successful cancellation (`MPI_Cancel`), so the waiter can tell it from a
    /// failure; kept here so the cancel handle needs no allocation of its own.
    pub cancelled: AtomicBool,
}

// SAFETY: `dst` is written only by the matcher while the receive is posted (under the
// matcher's lock, at most once), and the owner of the buffer keeps it valid and untouched until
// the receive completes or is withdrawn (see `RecvCell::new`).
unsafe impl Send for RecvCell {}
// SAFETY: as above; every other field is synchronized.
unsafe impl Sync for RecvCell {}

impl RecvCell {
    /// A cell that lands messages in the `cap` bytes at `dst`.
    ///
    /// # Safety
    /// `dst` must be valid for writes of `cap` bytes (it may be dangling, even null, when `cap`
    /// is 0), and not accessed by anyone else, until the cell completes or its receive is
    /// withdrawn from the matcher.
    pub unsafe fn new(dst: *mut u8, cap: usize) -> Self {
        Self {
            dst,
            cap,
            done: AtomicBool::new(false),
            cancelled: AtomicBool::new(false),
            slot: Mutex::new(Slot {
                outcome: None,
                waker: None,
            }),
        }
    }

    /// Copies `body` (the first `cap` bytes of it) into the buffer and completes the cell.
    /// Called by the matcher, under its lock, at most once per cell.
    pub fn land(&self, src: u32, tag: i32, body: &[u8]) {
        // SAFETY: the buffer is valid and ours while the receive is posted (`RecvCell::new`);
        // the matcher takes the receive out of its queue as it calls this, so once.
        unsafe { self.copy_in(body) };
        self.filled(src, tag, body.len());
    }

    /// Completes the cell with the `len`-byte message from `src` with `tag`, already written
    /// into the buffer (what fits of it).
    pub fn filled(&self, src: u32, tag: i32, len: usize) {
        self.complete(Ok(Landed {
            src,
            tag,
            len,
            parked: None,
        }));
    }

    /// Completes the cell with `outcome` and wakes its waiter.
    pub fn complete(&self, outcome: Result<Landed>) {
        let waker = {
            let mut s = self.slot.lock();
            s.outcome = Some(outcome);
            self.done.store(true, Ordering::Release);
            s.waker.take()
        };
        if let Some(w) = waker {
            w.wake();
        }
    }

    /// Whether the cell has completed.
    pub fn is_done(&self) -> bool {
        self.done.load(Ordering::Acquire)
    }

    /// Takes the outcome once complete; otherwise registers `cx`'s waker.
    pub fn poll_take(&self, cx: &mut Context<'_>) -> Poll<Result<Landed>> {
        let mut s = self.slot.lock();
        if let Some(o) = s.outcome.take() {
            return Poll::Ready(o);
        }
        if !s.waker.as_ref().is_some_and(|w| w.will_wake(cx.waker())) {
            s.waker = Some(cx.waker().clone());
        }
        Poll::Pending
    }

    /// The buffer's address and capacity, for the one claimant that fills it directly (see
    /// `Matcher::claim`); writing through it is `unsafe` and allowed only to that claimant.
    pub fn raw_buffer(&self) -> (*mut u8, usize) {
        (self.dst, self.cap)
    }

    /// The buffer's capacity in bytes.
    pub fn capacity(&self) -> usize {
        self.cap
    }

    /// Copies a parked message (what fits of it) into the buffer, as the waiter does once the
    /// cell is complete.
    ///
    /// # Safety
    /// Only after completion (the matcher no longer writes), by the buffer's owner.
    pub unsafe fn fill(&self, data: &[u8]) {
        // SAFETY: per this function's contract.
        unsafe { self.copy_in(data) }
    }

    /// Copies what fits of `data` into the buffer.
    ///
    /// # Safety
    /// The caller must be the buffer's only writer now (see `RecvCell::new`).
    unsafe fn copy_in(&self, data: &[u8]) {
        let n = data.len().min(self.cap);
        if n > 0 {
            // SAFETY: per `RecvCell::new` and this function's contract.
            unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), self.dst, n) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn landing_copies_what_fits_and_reports_the_full_length() {
        let mut buf = [0u8; 4];
        // SAFETY: `buf` outlives the cell and is not touched until it completes.
        let cell = unsafe { RecvCell::new(buf.as_mut_ptr(), buf.len()) };
        let mut cx = Context::from_waker(Waker::noop());
        assert!(cell.poll_take(&mut cx).is_pending());
        cell.land(3, 7, &[1, 2, 3, 4, 5, 6]);
        assert!(cell.is_done());
        let Poll::Ready(Ok(l)) = cell.poll_take(&mut cx) else {
            panic!("landed")
        };
        assert_eq!((l.src, l.tag, l.len), (3, 7, 6));
        assert!(l.parked.is_none());
        drop(cell);
        assert_eq!(buf, [1, 2, 3, 4]);
    }
}
