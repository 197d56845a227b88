//! Registered-memory cache: idle registered buffers kept for reuse, by exact length.
//!
//! Registering memory pins its pages and costs a system call per page range, so lanes take
//! their slot pools from here and give them back when they close. The cache holds at most
//! `limit` bytes; past it the buffer returned least recently is evicted first, and dropping
//! it (`M`'s `Drop`) deregisters it. Lookups and evictions are O(log n).

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::io;

/// Counters and occupancy of an [`MrCache`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MrCacheStats {
    /// `take` calls served from the cache.
    pub hits: u64,
    /// `take` calls that had to register.
    pub misses: u64,
    /// Buffers dropped to stay under the limit (including ones larger than the limit).
    pub evictions: u64,
    /// Bytes of idle buffers held now.
    pub bytes_held: usize,
    /// Idle buffers held now.
    pub buffers_held: usize,
}

/// Keeps registered buffers of type `M` for reuse, up to a byte limit.
pub struct MrCache<M> {
    limit: usize,
    /// Idle buffers by return stamp (oldest first): (length, buffer).
    by_age: BTreeMap<u64, (usize, M)>,
    /// Stamps of idle buffers by length, oldest first.
    by_len: HashMap<usize, VecDeque<u64>>,
    next_stamp: u64,
    stats: MrCacheStats,
}

impl<M> MrCache<M> {
    /// A cache that keeps at most `limit` bytes of idle registered buffers.
    pub fn new(limit: usize) -> Self {
        Self {
            limit,
            by_age: BTreeMap::new(),
            by_len: HashMap::new(),
            next_stamp: 0,
            stats: MrCacheStats::default(),
        }
    }

    /// A buffer of `len` bytes: the most recently returned one of exactly that length, or a
    /// new one from `register` (whose error is returned as is).
    pub fn take(
        &mut self,
        len: usize,
        register: impl FnOnce(usize) -> io::Result<M>,
    ) -> io::Result<M> {
        let stamp = self.by_len.get_mut(&len).and_then(|q| q.pop_back());
        if let Some(stamp) = stamp {
            self.forget_len_if_empty(len);
            let (_, m) = self.by_age.remove(&stamp).expect("indexes agree");
            self.stats.hits += 1;
            self.stats.bytes_held -= len;
            self.stats.buffers_held -= 1;
            return Ok(m);
        }
        self.stats.misses += 1;
        register(len)
    }

    /// Returns a buffer of `len` bytes for reuse (dropped, deregistering it, when over the limit).
    pub fn give_back(&mut self, len: usize, m: M) {
        if len > self.limit {
            self.stats.evictions += 1;
            drop(m);
            return;
        }
        let stamp = self.next_stamp;
        self.next_stamp += 1;
        self.by_age.insert(stamp, (len, m));
        self.by_len.entry(len).or_default().push_back(stamp);
        self.stats.bytes_held += len;
        self.stats.buffers_held += 1;
        while self.stats.bytes_held > self.limit {
            self.evict_oldest();
        }
    }

    /// The counters and what is held now.
    pub fn stats(&self) -> MrCacheStats {
        self.stats
    }

    /// Drops (deregisters) every idle buffer.
    pub fn clear(&mut self) {
        while !self.by_age.is_empty() {
            self.evict_oldest();
        }
    }

    fn evict_oldest(&mut self) {
        let Some((stamp, (len, m))) = self.by_age.pop_first() else {
            return;
        };
        let q = self.by_len.get_mut(&len).expect("indexes agree");
        // The globally oldest buffer is also the oldest of its length.
        debug_assert_eq!(q.front(), Some(&stamp));
        q.pop_front();
        self.forget_len_if_empty(len);
        self.stats.bytes_held -= len;
        self.stats.buffers_held -= 1;
        self.stats.evictions += 1;
        drop(m);
    }

    fn forget_len_if_empty(&mut self, len: usize) {
        if self.by_len.get(&len).is_some_and(|q| q.is_empty()) {
            self.by_len.remove(&len);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;
    use std::rc::Rc;

    /// A fake registration: counts how many were made and dropped (deregistered).
    struct Reg {
        id: usize,
        len: usize,
        dropped: Rc<Cell<usize>>,
    }

    impl Drop for Reg {
        fn drop(&mut self) {
            self.dropped.set(self.dropped.get() + 1);
        }
    }

    /// A counting fake registrar.
    struct Registrar {
        made: Cell<usize>,
        dropped: Rc<Cell<usize>>,
    }

    impl Registrar {
        fn new() -> Self {
            Self {
                made: Cell::new(0),
                dropped: Rc::new(Cell::new(0)),
            }
        }
        fn register(&self, len: usize) -> io::Result<Reg> {
            self.made.set(self.made.get() + 1);
            Ok(Reg {
                id: self.made.get(),
                len,
                dropped: self.dropped.clone(),
            })
        }
    }

    #[test]
    fn a_returned_buffer_is_reused_for_the_same_length_only() {
        let r = Registrar::new();
        let mut c = MrCache::new(1 << 20);
        let a = c.take(4096, |l| r.register(l)).unwrap();
        assert_eq!((a.id, a.len), (1, 4096));
        c.give_back(4096, a);
        let b = c.take(8192, |l| r.register(l)).unwrap();
        assert_eq!(b.id, 2, "a different length registers anew");
        let a2 = c.take(4096, |l| r.register(l)).unwrap();
        assert_eq!(a2.id, 1, "same length is served from the cache");
        let s = c.stats();
        assert_eq!((s.hits, s.misses, s.evictions, s.bytes_held), (1, 2, 0, 0));
        assert_eq!(r.made.get(), 2);
        assert_eq!(r.dropped.get(), 0);
        drop((a2, b));
    }

    #[test]
    fn the_least_recently_returned_is_evicted_first() {
        let r = Registrar::new();
        let mut c = MrCache::new(3000);
        let bufs: Vec<Reg> = (0..4)
            .map(|_| c.take(1000, |l| r.register(l)).unwrap())
            .collect();
        for b in bufs {
            c.give_back(1000, b); // ids 1, 2, 3, 4 in that order
        }
        let s = c.stats();
        assert_eq!((s.bytes_held, s.buffers_held, s.evictions), (3000, 3, 1));
        assert_eq!(r.dropped.get(), 1, "id 1, returned first, was deregistered");
        // Most recently returned first: 4, 3, 2; then a new registration.
        let ids: Vec<usize> = (0..4)
            .map(|_| c.take(1000, |l| r.register(l)).unwrap().id)
            .collect();
        assert_eq!(ids, vec![4, 3, 2, 5]);
        assert_eq!(c.stats().hits, 3);
        assert_eq!(c.stats().misses, 5);
    }

    #[test]
    fn eviction_crosses_lengths_in_return_order() {
        let r = Registrar::new();
        let mut c = MrCache::new(10_000);
        let small = c.take(1000, |l| r.register(l)).unwrap();
        let big = c.take(6000, |l| r.register(l)).unwrap();
        let big2 = c.take(6000, |l| r.register(l)).unwrap();
        c.give_back(1000, small);
        c.give_back(6000, big);
        c.give_back(6000, big2); // 13000 > 10000: the small one (oldest) and one big go
        let s = c.stats();
        assert_eq!((s.bytes_held, s.buffers_held, s.evictions), (6000, 1, 2));
        assert_eq!(r.dropped.get(), 2);
        assert_eq!(c.take(6000, |l| r.register(l)).unwrap().id, 3);
        assert_eq!(c.take(1000, |l| r.register(l)).unwrap().id, 4);
    }

    #[test]
    fn oversize_buffers_are_dropped_and_errors_pass_through() {
        let r = Registrar::new();
        let mut c = MrCache::new(100);
        let m = c.take(200, |l| r.register(l)).unwrap();
        c.give_back(200, m);
        assert_eq!(r.dropped.get(), 1);
        assert_eq!(c.stats().evictions, 1);
        assert_eq!(c.stats().bytes_held, 0);
        let e = c
            .take(50, |_| Err(io::Error::other("ibv_reg_mr: ENOMEM")))
            .err()
            .expect("register failed");
        assert!(e.to_string().contains("ENOMEM"));
        let m = c.take(50, |l| r.register(l)).unwrap();
        c.give_back(50, m);
        c.clear();
        assert_eq!(r.dropped.get(), 2);
        assert_eq!(c.stats().buffers_held, 0);
    }
}
