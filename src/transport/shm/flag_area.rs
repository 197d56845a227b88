//! A communicator's flag area: one shared-memory file that every member on one host maps, where
//! the calling threads of blocking small collectives meet (the protocol is `crate::ops::flags`).
//!
//! Layout, for `n` members and a largest payload of `max` bytes, every part cache-line aligned
//! so that a rank writes only lines it owns:
//!
//! ```text
//! member r: [done line: u64, 56 bytes unused]
//!           [slot 0: seq u64 | fp u64 | fp_len u64 | unused u64 | data (max bytes)]
//!           [slot 1: the same]
//! ```
//!
//! A slot's data starts in the same cache line as its `seq` word, so a peer's 8-byte
//! contribution costs one cache miss. Only the owner writes its lines; the others only read.
//!
//! The file is created by the communicator's rank 0 under a fresh name, opened by the others,
//! and unlinked as soon as every member has mapped it (or failed to): nothing stays in
//! `/dev/shm` after that, even after `kill -9`.

use super::shared_file::SharedMap;
use std::io;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// A cache line.
const LINE: usize = 64;
/// Bytes before a slot's data: `seq`, the two fingerprint words, one unused word.
const SLOT_HEADER: usize = 32;

/// Where a communicator stands with its flag area: unset until the first call that plans for
/// one has set it up, then `Some` (mapped by every member) or `None` (some member could not
/// map it, or the setup failed: the communicator never uses one). Set once.
pub type FlagState = std::sync::OnceLock<Option<Arc<FlagArea>>>;

/// One communicator's mapped flag area.
pub struct FlagArea {
    /// Calls this rank ran on the area (for housekeeping every so many calls).
    calls: AtomicU64,
    /// One more than the last call this rank completed here with every peer's contribution
    /// read (0: none).
    last_complete: AtomicU64,
    base: *mut u8,
    len: usize,
    /// The mapping `base` points into (unmapped when the area is dropped).
    _map: SharedMap,
    members: usize,
    max: usize,
    slot_bytes: usize,
    member_bytes: usize,
}

// SAFETY: the mapping is shared memory accessed through atomics, and payload bytes only under
// the `seq` / `done` protocol of `crate::ops::flags`.
unsafe impl Send for FlagArea {}
// SAFETY: as above.
unsafe impl Sync for FlagArea {}

fn round_up(x: usize) -> usize {
    x.div_ceil(LINE) * LINE
}

impl FlagArea {
    /// Bytes of the area for `members` members and payloads of up to `max` bytes.
    pub fn bytes_for(members: usize, max: usize) -> usize {
        members * (LINE + 2 * round_up(SLOT_HEADER + max))
    }

    /// Creates (mode 0600, failing if the name exists), sizes, allocates and maps the area.
    pub fn create(path: &Path, members: usize, max: usize) -> io::Result<Self> {
        let map = SharedMap::create(path, Self::bytes_for(members, max))?;
        Ok(Self::over(map, members, max))
    }

    /// Opens and maps the area rank 0 created at `path`, which must have the expected size.
    pub fn open(path: &Path, members: usize, max: usize) -> io::Result<Self> {
        let map = SharedMap::open(path, Self::bytes_for(members, max))?;
        Ok(Self::over(map, members, max))
    }

    fn over(map: SharedMap, members: usize, max: usize) -> Self {
        let slot_bytes = round_up(SLOT_HEADER + max);
        Self {
            calls: AtomicU64::new(0),
            last_complete: AtomicU64::new(0),
            base: map.base(),
            len: map.len(),
            _map: map,
            members,
            max,
            slot_bytes,
            member_bytes: LINE + 2 * slot_bytes,
        }
    }

    /// Counts one more call on this rank; returns how many came before.
    pub fn count_call(&self) -> u64 {
        // Only the communicator's calling thread counts (one collective at a time), so a plain
        // load and store do: a locked add would wait for this call's stores to reach the peers.
        let n = self.calls.load(Ordering::Relaxed);
        self.calls.store(n + 1, Ordering::Relaxed);
        n
    }

    /// One more than the last call this rank completed here having read every peer's
    /// contribution (0: none); only this rank's own calls set it.
    pub fn last_complete(&self) -> &AtomicU64 {
        &self.last_complete
    }

    /// Largest payload of a slot.
    pub fn max(&self) -> usize {
        self.max
    }

    /// Members the area was laid out for.
    pub fn members(&self) -> usize {
        self.members
    }

    fn word(&self, offset: usize) -> &AtomicU64 {
        debug_assert!(offset + 8 <= self.len && offset.is_multiple_of(8));
        // SAFETY: inside the mapping (the callers' offsets come from the layout) and 8-byte
        // aligned (the mapping is page aligned, every offset a multiple of 8); shared memory
        // is only ever accessed as atomics here.
        unsafe { &*(self.base.add(offset) as *const AtomicU64) }
    }

    fn slot_offset(&self, member: usize, parity: usize) -> usize {
        assert!(member < self.members && parity < 2);
        member * self.member_bytes + LINE + parity * self.slot_bytes
    }

    /// Member `member`'s `done` word: one more than the last call it finished reading.
    pub fn done(&self, member: usize) -> &AtomicU64 {
        assert!(member < self.members);
        self.word(member * self.member_bytes)
    }

    /// Member `member`'s slot `parity`'s `seq` word: one more than the call whose contribution
    /// the slot holds (0: none yet).
    pub fn seq(&self, member: usize, parity: usize) -> &AtomicU64 {
        self.word(self.slot_offset(member, parity))
    }

    /// The two fingerprint words of slot `parity` of `member`.
    pub fn fingerprint(&self, member: usize, parity: usize) -> (&AtomicU64, &AtomicU64) {
        let at = self.slot_offset(member, parity);
        (self.word(at + 8), self.word(at + 16))
    }

    /// The first `len` bytes of slot `parity`'s data of `member`.
    ///
    /// # Safety
    /// No process may write those bytes while the slice lives: the slot's owner writes them
    /// only while no peer can be reading them (the protocol of `crate::ops::flags`), and only
    /// the owner writes.
    pub unsafe fn data(&self, member: usize, parity: usize, len: usize) -> &[u8] {
        assert!(len <= self.max);
        let at = self.slot_offset(member, parity) + SLOT_HEADER;
        // SAFETY: inside the mapping (`len` <= `max`); unchanged while it lives per the contract.
        unsafe { std::slice::from_raw_parts(self.base.add(at), len) }
    }

    /// Writes the `len` bytes at `src` into this rank's own slot `parity`.
    ///
    /// # Safety
    /// `member` must be this rank, no peer may be reading the slot (see [`Self::data`]), and
    /// `src` must be readable for `len` bytes.
    pub unsafe fn write(&self, member: usize, parity: usize, src: *const u8, len: usize) {
        assert!(len <= self.max);
        if len == 0 {
            return;
        }
        let at = self.slot_offset(member, parity) + SLOT_HEADER;
        // SAFETY: inside the mapping; nobody reads the bytes meanwhile, and `src` is readable,
        // per the contract.
        unsafe { std::ptr::copy_nonoverlapping(src, self.base.add(at), len) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_mappings_of_one_area_see_each_others_words_and_bytes() {
        let path = std::env::temp_dir().join(format!("nexar-flag-test-{}", std::process::id()));
        let a = FlagArea::create(&path, 3, 100).unwrap();
        assert!(
            FlagArea::create(&path, 3, 100).is_err(),
            "names are never reused"
        );
        assert!(
            FlagArea::open(&path, 3, 200).is_err(),
            "a different layout is refused"
        );
        let b = FlagArea::open(&path, 3, 100).unwrap();
        std::fs::remove_file(&path).unwrap();
        // SAFETY: nobody else reads the slot.
        unsafe { a.write(2, 1, b"hello".as_ptr(), 5) };
        a.seq(2, 1).store(7, Ordering::Release);
        a.done(1).store(3, Ordering::Release);
        assert_eq!(b.seq(2, 1).load(Ordering::Acquire), 7);
        assert_eq!(b.seq(2, 0).load(Ordering::Acquire), 0);
        assert_eq!(b.done(1).load(Ordering::Acquire), 3);
        // SAFETY: nobody writes the slot any more.
        assert_eq!(unsafe { b.data(2, 1, 5) }, b"hello");
        assert_eq!(FlagArea::bytes_for(3, 100), 3 * (64 + 2 * 192));
    }
}
