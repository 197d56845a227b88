//! A lock-free single-producer/single-consumer ring of fixed-size slots in shared memory.
//!
//! Layout (all offsets from the ring's base, which must be 64-byte aligned):
//!
//! | offset | field | written by |
//! |---|---|---|
//! | 0 | `tail`: slots published so far (u64) | producer |
//! | 8 | `head` as the producer last read it (u64; only the producer uses it) | producer |
//! | 128 | `head`: slots consumed so far (u64) | consumer |
//! | 256 | `producer_waiting`: the producer is blocked on a full ring (u32) | both |
//! | 260 | `cma_ok`: the consumer can read the producer's memory directly (u32) | consumer |
//! | 264 | `fenced`: the producer declared the consumer failed and stopped reading its ring (u32) | producer |
//! | 512 | `slots` slots of `slot_bytes` each: `seq: u64`, `len: u32`, `kind: u32`, data | producer |
//!
//! The producer fills the slot at `tail % slots`, then stores its `seq` = `tail + 1` with
//! release ordering (publishing it) and advances `tail`; the consumer loads the `seq` of the
//! slot at `head % slots` with acquire ordering (`head + 1` means published), reads the slot and
//! stores `head + 1` with release ordering, which hands the slot back. The consumer never reads
//! `tail`: a message costs the one cache-line transfer of its slot, as in Open MPI's fastboxes.
//! Counters never wrap in practice (u64). The fields live on separate cache lines so the two
//! sides do not contend.
//! The producer reads the consumer's `head` only when its last reading says the ring is full:
//! one cache-line transfer less per slot (the copy sits on the producer's own line).

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering, fence};

/// Bytes before the first slot.
pub const RING_HEADER: usize = 512;
/// Bytes of each slot's own header (`seq`, `len`, `kind`).
pub const SLOT_HEADER: usize = 16;

/// A view of one ring in mapped memory. Copyable; the mapping must outlive every copy.
#[derive(Clone, Copy, Debug)]
pub struct Ring {
    base: *mut u8,
    slots: u32,
    slot_bytes: u32,
}

// SAFETY: a `Ring` is a pointer into a shared mapping whose fields are only accessed through
// atomics or through slots that the SPSC protocol hands to exactly one side at a time.
unsafe impl Send for Ring {}
// SAFETY: as above.
unsafe impl Sync for Ring {}

/// Bytes one ring of `slots` slots of `slot_bytes` bytes occupies.
pub const fn ring_bytes(slots: u32, slot_bytes: u32) -> usize {
    RING_HEADER + slots as usize * slot_bytes as usize
}

impl Ring {
    /// A view of the ring at `base`.
    ///
    /// # Safety
    /// `base` must be 64-byte aligned, valid for reads and writes of
    /// [`ring_bytes`]`(slots, slot_bytes)` bytes for as long as the view is used, and shared only
    /// with one producer and one consumer that follow this module's protocol. `slots` must be a
    /// power of two (positions map to slots with a mask: a division here cost tens of cycles
    /// on every poll), `slot_bytes` a multiple of 8 and larger than [`SLOT_HEADER`].
    pub unsafe fn from_raw(base: *mut u8, slots: u32, slot_bytes: u32) -> Self {
        debug_assert!((base as usize).is_multiple_of(64) && slot_bytes as usize > SLOT_HEADER);
        debug_assert!(slots.is_power_of_two());
        Self {
            base,
            slots,
            slot_bytes,
        }
    }

    fn word64(&self, off: usize) -> &AtomicU64 {
        // SAFETY: `off` is one of the aligned header offsets inside the ring (see from_raw).
        unsafe { &*(self.base.add(off) as *const AtomicU64) }
    }

    fn word32(&self, off: usize) -> &AtomicU32 {
        // SAFETY: as in word64.
        unsafe { &*(self.base.add(off) as *const AtomicU32) }
    }

    fn tail(&self) -> &AtomicU64 {
        self.word64(0)
    }

    fn head(&self) -> &AtomicU64 {
        self.word64(128)
    }

    /// The producer's last reading of `head` (a lower bound of it).
    fn head_seen(&self) -> &AtomicU64 {
        self.word64(8)
    }

    /// The producer's "I am blocked on a full ring" flag.
    pub fn producer_waiting(&self) -> &AtomicU32 {
        self.word32(256)
    }

    /// Set by the consumer once it has verified it can read the producer's memory directly.
    pub fn cma_ok(&self) -> &AtomicU32 {
        self.word32(260)
    }

    /// Set by the producer once it declared the consumer failed (a stalled rank that wakes
    /// learns from it that it was dropped).
    pub fn fenced(&self) -> &AtomicU32 {
        self.word32(264)
    }

    /// Data bytes one slot carries.
    pub fn capacity(&self) -> usize {
        self.slot_bytes as usize - SLOT_HEADER
    }

    /// The publication word of the slot for position `pos`.
    fn slot_seq(&self, pos: u64) -> &AtomicU64 {
        // SAFETY: the slot lies inside the ring and starts 8-byte aligned (the base is 64-byte
        // aligned, the header 512 bytes and `slot_bytes` a multiple of 8).
        unsafe { &*(self.slot_ptr(pos) as *const AtomicU64) }
    }

    /// Consumer: whether the slot at `head` is published.
    fn published_at(&self, head: u64) -> bool {
        self.slot_seq(head).load(Ordering::Acquire) == head + 1
    }

    fn slot_ptr(&self, pos: u64) -> *mut u8 {
        // `slots` is a power of two (see `from_raw`); with any other value the mask still keeps
        // `i` below `slots`.
        let i = (pos & (self.slots as u64 - 1)) as usize;
        // SAFETY: i < slots, so the slot lies inside the ring.
        unsafe { self.base.add(RING_HEADER + i * self.slot_bytes as usize) }
    }

    /// Producer: slots published so far (counts every slot ever written).
    pub fn published(&self) -> u64 {
        self.tail().load(Ordering::Relaxed)
    }

    /// Producer: slots free right now (at least; the consumer may have freed more).
    pub fn free_slots(&self) -> u64 {
        let tail = self.tail().load(Ordering::Relaxed);
        // `head` only grows: a free slot by the last reading is free now.
        let seen = self.head_seen().load(Ordering::Relaxed);
        if tail - seen < self.slots as u64 {
            return self.slots as u64 - (tail - seen);
        }
        let head = self.head().load(Ordering::Acquire);
        self.head_seen().store(head, Ordering::Relaxed);
        self.slots as u64 - (tail - head)
    }

    /// Producer: writes one slot of `kind` holding the concatenation of `parts` (at most
    /// [`Self::capacity`] bytes) and publishes it. Returns false, writing nothing, when the
    /// ring is full.
    pub fn try_push(&self, kind: u32, parts: &[&[u8]]) -> bool {
        let len: usize = parts.iter().map(|p| p.len()).sum();
        assert!(len <= self.capacity(), "slot overflow: {len} bytes");
        if self.free_slots() == 0 {
            return false;
        }
        let tail = self.tail().load(Ordering::Relaxed);
        let slot = self.slot_ptr(tail);
        // SAFETY: the slot at `tail` belongs to the producer until `tail` is advanced; every
        // write stays inside the slot (len <= capacity).
        unsafe {
            (slot.add(8) as *mut u32).write(len as u32);
            (slot.add(12) as *mut u32).write(kind);
            let mut at = slot.add(SLOT_HEADER);
            for p in parts {
                std::ptr::copy_nonoverlapping(p.as_ptr(), at, p.len());
                at = at.add(p.len());
            }
        }
        self.slot_seq(tail).store(tail + 1, Ordering::Release);
        self.tail().store(tail + 1, Ordering::Relaxed);
        true
    }

    /// Looks at the oldest published slot without consuming it: `f(kind, data)`, or `None`
    /// when the ring is empty (back-pressure decides from it whether to read on).
    pub fn peek<R>(&self, f: impl FnOnce(u32, &[u8]) -> R) -> Option<R> {
        let head = self.head().load(Ordering::Relaxed);
        if !self.published_at(head) {
            return None;
        }
        let slot = self.slot_ptr(head);
        // SAFETY: as in `pop`: the slot at `head` was published and stays untouched by the
        // producer until `head` advances, which only the consumer (us) does.
        unsafe {
            let len = ((slot.add(8) as *const u32).read() as usize).min(self.capacity());
            let kind = (slot.add(12) as *const u32).read();
            Some(f(
                kind,
                std::slice::from_raw_parts(slot.add(SLOT_HEADER), len),
            ))
        }
    }

    /// Consumer: hands the oldest published slot (`kind`, data) to `f` and then releases it.
    /// Returns false when the ring is empty. A corrupt length is clamped to the slot.
    pub fn pop<R>(&self, f: impl FnOnce(u32, &[u8]) -> R) -> Option<R> {
        let head = self.head().load(Ordering::Relaxed);
        if !self.published_at(head) {
            return None;
        }
        let slot = self.slot_ptr(head);
        // SAFETY: the slot at `head` was published (acquire above) and stays untouched by the
        // producer until `head` is advanced below.
        let r = unsafe {
            let len = ((slot.add(8) as *const u32).read() as usize).min(self.capacity());
            let kind = (slot.add(12) as *const u32).read();
            f(kind, std::slice::from_raw_parts(slot.add(SLOT_HEADER), len))
        };
        self.head().store(head + 1, Ordering::Release);
        Some(r)
    }

    /// Consumer: true when nothing is published.
    pub fn is_empty(&self) -> bool {
        !self.published_at(self.head().load(Ordering::Relaxed))
    }

    /// Producer: marks itself blocked, then re-checks for space (the consumer checks the flag
    /// after freeing a slot; the fences make sure one of the two sides sees the other).
    /// Returns true when space appeared meanwhile.
    pub fn block_producer(&self) -> bool {
        self.producer_waiting().store(1, Ordering::SeqCst);
        fence(Ordering::SeqCst);
        self.free_slots() > 0
    }

    /// Consumer, after popping: true (clearing the flag) when the producer waits for space and
    /// must be woken.
    pub fn take_producer_waiting(&self) -> bool {
        fence(Ordering::SeqCst);
        self.producer_waiting().load(Ordering::Relaxed) != 0
            && self.producer_waiting().swap(0, Ordering::SeqCst) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Heap memory standing in for a shared mapping.
    struct Mem(Vec<u64>);

    fn ring(slots: u32, slot_bytes: u32) -> (Mem, Ring) {
        let mut m = Mem(vec![0u64; ring_bytes(slots, slot_bytes).div_ceil(8) + 8]);
        let p = m.0.as_mut_ptr() as *mut u8;
        // SAFETY: the vector has 64 spare bytes for the alignment offset.
        let p = unsafe { p.add(p.align_offset(64)) };
        // SAFETY: the vector is large enough, aligned above, and outlives the ring in each test.
        let r = unsafe { Ring::from_raw(p, slots, slot_bytes) };
        (m, r)
    }

    #[test]
    fn single_thread_fifo_and_wraparound() {
        let (_m, r) = ring(4, 64);
        assert_eq!(r.capacity(), 48);
        assert!(r.pop(|_, _| ()).is_none());
        for round in 0u32..50 {
            let n = 1 + round % 4;
            for i in 0..n {
                let b = [round as u8, i as u8];
                assert!(r.try_push(round, &[&b, &[7u8; 3]]));
            }
            if n == 4 {
                assert!(!r.try_push(0, &[&[1]]), "a full ring refuses");
            }
            for i in 0..n {
                let got = r.pop(|k, d| (k, d.to_vec())).unwrap();
                assert_eq!(got, (round, vec![round as u8, i as u8, 7, 7, 7]));
            }
            assert!(r.is_empty());
        }
    }

    #[test]
    fn producer_waiting_flag_handshake() {
        let (_m, r) = ring(2, 64);
        assert!(r.try_push(1, &[b"a"]));
        assert!(r.try_push(1, &[b"b"]));
        assert!(!r.block_producer(), "still full");
        r.pop(|_, _| ()).unwrap();
        assert!(r.take_producer_waiting());
        assert!(!r.take_producer_waiting(), "cleared once taken");
        assert!(r.free_slots() == 1);
    }

    #[test]
    fn two_thread_stress_with_random_sizes() {
        let (_m, r) = ring(8, 128);
        let cap = r.capacity();
        const N: u64 = 200_000;
        let producer = std::thread::spawn(move || {
            let mut rng = nexar_proto::sim::SimRng::new(7);
            for i in 0..N {
                let len = (rng.next_u64() as usize) % (cap - 8 + 1);
                let mut data = vec![(i % 251) as u8; len];
                data.extend_from_slice(&i.to_le_bytes());
                while !r.try_push((i % 5) as u32, &[&data]) {
                    std::hint::spin_loop();
                }
            }
        });
        let mut next = 0u64;
        while next < N {
            let got = r.pop(|k, d| {
                assert_eq!(k as u64, next % 5);
                let (body, seq) = d.split_at(d.len() - 8);
                assert_eq!(u64::from_le_bytes(seq.try_into().unwrap()), next);
                assert!(body.iter().all(|&b| b == (next % 251) as u8));
            });
            if got.is_some() {
                next += 1;
            } else {
                std::hint::spin_loop();
            }
        }
        producer.join().unwrap();
        assert!(r.is_empty());
    }
}
