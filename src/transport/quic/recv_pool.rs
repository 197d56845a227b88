//! Recycled receive buffers for large payloads on the TLS bulk lane.
//!
//! A fresh multi-megabyte allocation comes from `mmap` or a newly grown heap: every page faults
//! and is zeroed by the kernel on first touch, which costs about a quarter of the lane's
//! throughput. A payload's buffer is handed to the engine as [`Bytes`]; when the engine drops it,
//! it comes back here, so the next payload of a similar size lands in memory that is already
//! mapped.

use bytes::Bytes;
use parking_lot::Mutex;
use std::sync::Arc;

/// Payloads smaller than this are allocated normally (the heap serves them cheaply).
pub(super) const MIN_POOLED: usize = 1 << 20;
/// Buffers kept for reuse at most.
const MAX_KEPT: usize = 4;

/// A small stack of spare buffers, shared by a transport's bulk readers.
#[derive(Default)]
pub(super) struct RecvPool {
    spare: Mutex<Vec<Vec<u8>>>,
}

impl RecvPool {
    /// An empty buffer for `len` bytes: a spare one with room for them that is not more than
    /// twice as large, or a new one with room for at most `reserve_max` bytes (the caller
    /// grows it as data arrives).
    pub(super) fn take_for(&self, len: usize, reserve_max: usize) -> Vec<u8> {
        if len >= MIN_POOLED {
            let mut spare = self.spare.lock();
            if let Some(i) = spare
                .iter()
                .position(|b| b.capacity() >= len && b.capacity() / 2 <= len)
            {
                let mut b = spare.swap_remove(i);
                b.clear();
                return b;
            }
        }
        Vec::with_capacity(len.min(reserve_max))
    }

    /// An empty buffer with room for at least `len` bytes: a spare one that is not more than
    /// twice as large, or a new one.
    #[cfg(test)]
    pub(super) fn take(&self, len: usize) -> Vec<u8> {
        self.take_for(len, usize::MAX)
    }

    /// Wraps a filled buffer as [`Bytes`] that returns it to `pool` when the last reference
    /// goes away.
    pub(super) fn wrap(pool: &Arc<Self>, buf: Vec<u8>) -> Bytes {
        if buf.capacity() < MIN_POOLED {
            return Bytes::from(buf);
        }
        Bytes::from_owner(Pooled {
            buf,
            pool: pool.clone(),
        })
    }

    fn give_back(&self, buf: Vec<u8>) {
        let mut spare = self.spare.lock();
        if spare.len() < MAX_KEPT {
            spare.push(buf);
        }
    }
}

/// A pooled buffer lent out as [`Bytes`].
struct Pooled {
    buf: Vec<u8>,
    pool: Arc<RecvPool>,
}

impl AsRef<[u8]> for Pooled {
    fn as_ref(&self) -> &[u8] {
        &self.buf
    }
}

impl Drop for Pooled {
    fn drop(&mut self) {
        self.pool.give_back(std::mem::take(&mut self.buf));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_come_back_and_are_reused_for_similar_sizes() {
        let pool = Arc::new(RecvPool::default());
        let mut b = pool.take(2 << 20);
        b.extend(std::iter::repeat_n(5u8, 2 << 20));
        let ptr = b.as_ptr();
        let bytes = RecvPool::wrap(&pool, b);
        assert_eq!(bytes.len(), 2 << 20);
        assert!(bytes.iter().all(|&x| x == 5));
        let clone = bytes.slice(10..20);
        drop(bytes);
        assert!(pool.spare.lock().is_empty(), "still referenced by a slice");
        drop(clone);
        assert_eq!(pool.spare.lock().len(), 1);
        // Too small for it (more than twice smaller), then the right size.
        assert!(pool.take(MIN_POOLED / 2).capacity() < MIN_POOLED);
        let again = pool.take((2 << 20) - 5);
        assert_eq!(again.as_ptr(), ptr);
        assert!(again.is_empty());
        assert!(pool.spare.lock().is_empty());
    }

    #[test]
    fn at_most_a_few_buffers_are_kept() {
        let pool = Arc::new(RecvPool::default());
        let all: Vec<Bytes> = (0..MAX_KEPT + 3)
            .map(|_| RecvPool::wrap(&pool, vec![1u8; MIN_POOLED]))
            .collect();
        drop(all);
        assert_eq!(pool.spare.lock().len(), MAX_KEPT);
    }
}
