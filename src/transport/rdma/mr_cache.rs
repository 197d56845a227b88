//! Registered-memory cache. STUB: the implementation replaces this file.

use std::io;

/// Keeps registered buffers of type `M` for reuse, up to a byte limit.
pub struct MrCache<M> {
    _held: Vec<M>,
}

impl<M> MrCache<M> {
    /// A cache that keeps at most `limit` bytes of idle registered buffers.
    pub fn new(limit: usize) -> Self {
        let _ = limit;
        Self { _held: Vec::new() }
    }

    /// A buffer of `len` bytes: a cached one, or a new one from `register`.
    pub fn take(
        &mut self,
        len: usize,
        register: impl FnOnce(usize) -> io::Result<M>,
    ) -> io::Result<M> {
        register(len)
    }

    /// Returns a buffer of `len` bytes for reuse (dropped, deregistering it, when over the limit).
    pub fn give_back(&mut self, len: usize, m: M) {
        let _ = (len, m);
    }
}
