//! A window's shared area: one shared-memory file every member maps (created by the
//! communicator's rank 0 under a fresh name, agreed collectively, unlinked at once, see
//! [`crate::transport::shm::shared_file`]). For `n` members:
//!
//! ```text
//! target t (one cache line each): [lock word u64][accumulate mutex u64][unused]
//! post[t][o]      n x n u64: posts target t made to origin o (only t writes row t)
//! complete[t][o]  n x n u64: completes origin o made to target t (only o writes column o)
//! (page aligned) window memory of MPI_Win_allocate / MPI_Win_allocate_shared, every member's
//!                region at the offset `super::Layout` computes
//! ```
//!
//! Lock word: `EXCLUSIVE | holder` (the world rank of the holder) while held exclusively, else
//! the number of shared holders. Accumulate mutex: 0 when free, else one more than the world
//! rank of its holder.

use crate::transport::shm::shared_file::SharedMap;
use std::sync::atomic::AtomicU64;

/// A cache line.
const LINE: usize = 64;
/// A page: the window memory starts on one.
pub(super) const PAGE: usize = 4096;
/// The lock word's exclusive bit.
pub(super) const EXCLUSIVE: u64 = 1 << 63;

/// One member's mapping of a window's shared area.
pub(super) struct Area {
    map: SharedMap,
    n: usize,
}

impl Area {
    /// Bytes of the control part for `n` members (page aligned: window memory follows).
    pub(super) fn control_bytes(n: usize) -> usize {
        (n * LINE + 2 * n * n * 8).div_ceil(PAGE) * PAGE
    }

    pub(super) fn new(map: SharedMap, n: usize) -> Self {
        assert!(map.len() >= Self::control_bytes(n));
        Self { map, n }
    }

    fn word(&self, offset: usize) -> &AtomicU64 {
        assert!(offset + 8 <= Self::control_bytes(self.n));
        // SAFETY: inside the mapping's control part (asserted) and 8-byte aligned (the mapping
        // is page aligned, every offset a multiple of 8); the control part is only accessed
        // through atomics.
        unsafe { &*(self.map.base().add(offset) as *const AtomicU64) }
    }

    /// Target `t`'s lock word.
    pub(super) fn lock(&self, t: usize) -> &AtomicU64 {
        assert!(t < self.n);
        self.word(t * LINE)
    }

    /// Target `t`'s accumulate mutex.
    pub(super) fn acc_mutex(&self, t: usize) -> &AtomicU64 {
        assert!(t < self.n);
        self.word(t * LINE + 8)
    }

    /// Posts target `t` made to origin `o`.
    pub(super) fn post(&self, t: usize, o: usize) -> &AtomicU64 {
        assert!(t < self.n && o < self.n);
        self.word(self.n * LINE + (t * self.n + o) * 8)
    }

    /// Completes origin `o` made to target `t`.
    pub(super) fn complete(&self, t: usize, o: usize) -> &AtomicU64 {
        assert!(t < self.n && o < self.n);
        self.word(self.n * LINE + (self.n * self.n + t * self.n + o) * 8)
    }

    /// The address of byte `offset` of the mapping (window memory lies past the control part).
    pub(super) fn at(&self, offset: usize) -> *mut u8 {
        assert!(offset <= self.map.len());
        // SAFETY: inside the mapping (asserted; one past the end for an empty last region).
        unsafe { self.map.base().add(offset) }
    }
}
