//! Lending a caller's buffer to the transport for the length of a blocking send, so a large
//! message to a shared-memory peer is read by the receiver straight out of the caller's memory
//! (`process_vm_readv`) instead of being copied into a message buffer first.
//!
//! [`lend`] wraps the borrowed bytes in a [`Bytes`] whose owner signals when the last reference
//! is dropped: the transport drops it once the receiver acknowledged its copy (or the frame was
//! written into the rings, or the peer was lost). [`Returned`] completes then, and the caller
//! must not let the borrow end before: its `Drop` waits if the future was abandoned.

use bytes::Bytes;
use parking_lot::Mutex;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

#[derive(Default)]
struct Signal {
    done: AtomicBool,
    waker: Mutex<Option<Waker>>,
}

impl Signal {
    /// The bytes were let go of: completes the waiting future.
    fn raise(&self) {
        self.done.store(true, Ordering::Release);
        if let Some(w) = self.waker.lock().take() {
            w.wake();
        }
    }

    fn is_raised(&self) -> bool {
        self.done.load(Ordering::Acquire)
    }

    /// Ready once raised; otherwise registers `cx`'s waker (looking again after, so a raise
    /// in between is not missed).
    fn poll_raised(&self, cx: &mut Context<'_>) -> Poll<()> {
        if self.is_raised() {
            return Poll::Ready(());
        }
        *self.waker.lock() = Some(cx.waker().clone());
        if self.is_raised() {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    }
}

/// The owner of lent bytes inside a [`Bytes`]: a pointer into the caller's buffer.
struct Lent {
    ptr: *const u8,
    len: usize,
    signal: Arc<Signal>,
}

// SAFETY: `Lent` only reads the lent memory, which the lender keeps alive and unmodified until
// `Returned` completes (see `lend`).
unsafe impl Send for Lent {}
// SAFETY: as above; shared access is read-only.
unsafe impl Sync for Lent {}

impl AsRef<[u8]> for Lent {
    fn as_ref(&self) -> &[u8] {
        // SAFETY: `ptr`/`len` describe the lent slice, alive until this owner is dropped.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl Drop for Lent {
    fn drop(&mut self) {
        self.signal.raise();
    }
}

/// Completes when the transport has let go of lent bytes.
pub(crate) struct Returned {
    signal: Arc<Signal>,
}

impl Returned {
    fn done(&self) -> bool {
        self.signal.is_raised()
    }
}

impl Future for Returned {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        self.signal.poll_raised(cx)
    }
}

impl Drop for Returned {
    fn drop(&mut self) {
        // Only reached early when the wait was abandoned (a panic): the borrow must not end
        // while the transport may still read the bytes.
        while !self.done() {
            std::thread::sleep(Duration::from_micros(100));
        }
    }
}

/// Wraps `data` as [`Bytes`] without copying. The caller must keep `data` alive and unmodified
/// until the returned [`Returned`] completes (awaiting it, or dropping it, which waits).
pub(crate) fn lend(data: &[u8]) -> (Bytes, Returned) {
    let signal = Arc::new(Signal::default());
    let owner = Lent {
        ptr: data.as_ptr(),
        len: data.len(),
        signal: signal.clone(),
    };
    (Bytes::from_owner(owner), Returned { signal })
}

/// The owner of tracked bytes: the original bytes, and the signal their release raises.
struct Tracked {
    data: Bytes,
    signal: Arc<Signal>,
}

impl AsRef<[u8]> for Tracked {
    fn as_ref(&self) -> &[u8] {
        &self.data
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        self.signal.raise();
    }
}

/// Completes when the transport has let go of tracked bytes (see [`track`]). Unlike
/// [`Returned`] it may be dropped at any time: the bytes are owned, nothing is borrowed.
pub(crate) struct Released {
    signal: Arc<Signal>,
}

impl Future for Released {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        self.signal.poll_raised(cx)
    }
}

/// Wraps owned `data` (no copy) so that [`Released`] completes once every clone of the
/// returned [`Bytes`] is dropped: a sender can wait until the transport has let go of a large
/// payload (the receiver copied it), which bounds how far it runs ahead of the receiver.
pub(crate) fn track(data: Bytes) -> (Bytes, Released) {
    let signal = Arc::new(Signal::default());
    let owner = Tracked {
        data,
        signal: signal.clone(),
    };
    (Bytes::from_owner(owner), Released { signal })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn returned_completes_when_the_last_clone_is_dropped() {
        let data = vec![7u8; 4096];
        let (bytes, returned) = lend(&data);
        assert_eq!(bytes.as_ptr(), data.as_ptr(), "no copy");
        let clone = bytes.slice(10..20);
        drop(bytes);
        assert!(!returned.done());
        let t = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            assert_eq!(&clone[..], &[7u8; 10]);
        });
        pollster::block_on(returned);
        t.join().unwrap();
    }

    #[test]
    fn released_completes_when_the_tracked_bytes_are_dropped_and_may_be_abandoned() {
        let (bytes, released) = track(Bytes::from(vec![3u8; 100]));
        let part = bytes.slice(1..3);
        drop(bytes);
        assert!(!released.signal.is_raised());
        let t = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            assert_eq!(&part[..], &[3, 3]);
        });
        pollster::block_on(released);
        t.join().unwrap();
        let (_kept, abandoned) = track(Bytes::from_static(b"x"));
        drop(abandoned); // returns at once although the bytes are still held
    }
}
