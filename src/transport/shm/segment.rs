//! One rank's inbox: a file in `/dev/shm` holding a doorbell and one ring per local rank.
//!
//! Each rank creates its own inbox (`/dev/shm/nexar-<job id>-<rank>`, mode 0600, exclusive)
//! *before* joining the rendezvous, so once the rendezvous completes every local peer's inbox
//! exists. At that point it holds only the header (magic `PENDING`): how many rings, and how
//! large, depends on the number of ranks on this host, known only from the rendezvous's host
//! table. The owner then lays out its rings ([`Segment::finish`]) and publishes the geometry in
//! the header with the final magic; a peer opening the inbox waits for that (bounded by a
//! deadline and by the owner's liveness lock) and takes the geometry from the header, so the
//! two sides cannot disagree. Every local peer then maps it and counts itself in `mapped`; whoever brings the count
//! to the number of local ranks unlinks the name. From then on only the mappings keep the memory
//! alive and the kernel frees it when the last process exits, `kill -9` included. The owner also
//! unlinks at shutdown (in case a peer never mapped it).
//!
//! Liveness: the owner holds a shared `flock` on the inbox for its whole life. A peer that can
//! take an exclusive lock on its own descriptor of the same file knows the owner has exited.
//!
//! Header (first [`DATA_OFFSET`] bytes): magic, owner pid, ring count, slot geometry, the
//! address of the owner's CMA probe cell, the `mapped` counter, the owner's heartbeat counter
//! (bumped by its heartbeat thread, read by peers to tell a stalled owner from a live one), and
//! the doorbell.

use super::doorbell::Doorbell;
use super::ring::{Ring, ring_bytes};
use std::fs::{File, OpenOptions};
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

const MAGIC: u64 = u64::from_le_bytes(*b"NXRSHM02");
/// The magic of an inbox whose owner has not laid out its rings yet.
const PENDING: u64 = u64::from_le_bytes(*b"NXRSHM0P");
/// Offset of the first ring.
pub const DATA_OFFSET: usize = 4096;
const OFF_PID: usize = 8;
const OFF_RINGS: usize = 12;
const OFF_SLOTS: usize = 16;
const OFF_SLOT_BYTES: usize = 20;
const OFF_PROBE: usize = 24;
const OFF_MAPPED: usize = 32;
const OFF_BEAT: usize = 64;
const OFF_BELL: usize = 128;

/// What a peer reads from this process's memory to check that `process_vm_readv` works.
pub static CMA_PROBE: [u8; 16] = *b"nexar-cma-probe!";

/// Where rank `rank` of job `job_id` keeps its inbox.
pub fn inbox_path(job_id: &str, rank: u32) -> PathBuf {
    PathBuf::from(format!("/dev/shm/nexar-{job_id}-{rank}"))
}

/// Inboxes up to this size get their memory allocated up front.
const RESERVE_LIMIT: usize = 64 << 20;

/// Makes sure touching the inbox cannot fail later: a full `/dev/shm` (small in containers)
/// would otherwise kill the process with SIGBUS on first touch. Small inboxes are allocated
/// up front (with rings sized by `slots_for`, every inbox up to ~1,000 local ranks); for larger
/// ones the file system must at least have room for the whole inbox.
fn reserve(file: &File, len: usize) -> io::Result<()> {
    if len <= RESERVE_LIMIT {
        // SAFETY: fallocate on an open descriptor within the file's length.
        let rc = unsafe { libc::posix_fallocate(file.as_raw_fd(), 0, len as libc::off_t) };
        return if rc == 0 {
            Ok(())
        } else {
            Err(io::Error::from_raw_os_error(rc))
        };
    }
    // SAFETY: fstatvfs fills the struct it is given.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: as above; `st` is valid for writes.
    if unsafe { libc::fstatvfs(file.as_raw_fd(), &mut st) } != 0 {
        return Err(io::Error::last_os_error());
    }
    if (st.f_bavail as u128) * (st.f_frsize as u128) < len as u128 {
        return Err(io::Error::new(
            io::ErrorKind::StorageFull,
            format!("/dev/shm has no room for a {len}-byte inbox"),
        ));
    }
    Ok(())
}

/// Removes whatever inboxes of a finished job of `size` ranks are still named on this host
/// (a rank killed before every local peer had mapped its inbox leaves its name behind; the
/// launcher calls this once the job is over). Missing files are not an error.
pub fn remove_job_inboxes(job_id: &str, size: u32) {
    for r in 0..size {
        let _ = std::fs::remove_file(inbox_path(job_id, r));
    }
}

/// A mapped inbox (this rank's own, or a peer's).
pub struct Segment {
    file: File,
    base: *mut u8,
    len: usize,
    path: PathBuf,
    slots: u32,
    slot_bytes: u32,
    rings: u32,
}

// SAFETY: the mapping is shared memory accessed only through atomics and the ring protocol.
unsafe impl Send for Segment {}
// SAFETY: as above.
unsafe impl Sync for Segment {}

/// Maps `len` bytes of `file` shared, readable and writable.
pub(super) fn map(file: &File, len: usize) -> io::Result<*mut u8> {
    // SAFETY: a fresh shared mapping of `len` bytes of an open file; checked for failure.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED,
            file.as_raw_fd(),
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return Err(io::Error::last_os_error());
    }
    Ok(p.cast())
}

impl Segment {
    /// Creates and maps this rank's inbox, header only: the rings are laid out by
    /// [`Self::finish`] once the number of local ranks is known. Takes the liveness lock and
    /// counts itself as mapped. A stale file of the same name (a crashed earlier job with the
    /// same secret) is replaced.
    pub fn create(path: &Path) -> io::Result<Self> {
        let open = || {
            OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .mode(0o600)
                .custom_flags(libc::O_CLOEXEC)
                .open(path)
        };
        let file = match open() {
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                std::fs::remove_file(path)?;
                open()?
            }
            r => r?,
        };
        let len = DATA_OFFSET;
        if let Err(e) = file.set_len(len as u64).and_then(|()| reserve(&file, len)) {
            let _ = std::fs::remove_file(path);
            return Err(e);
        }
        let base = match map(&file, len) {
            Ok(b) => b,
            Err(e) => {
                let _ = std::fs::remove_file(path);
                return Err(e);
            }
        };
        let seg = Self {
            file,
            base,
            len,
            path: path.to_path_buf(),
            slots: 0,
            slot_bytes: 0,
            rings: 0,
        };
        // SAFETY: header offsets are inside the fresh mapping and aligned; nobody else has
        // the file open before the rendezvous completes.
        unsafe {
            (base.add(OFF_PID) as *mut u32).write(std::process::id());
            (base.add(OFF_PROBE) as *mut u64).write(CMA_PROBE.as_ptr() as u64);
        }
        seg.mapped().store(1, Ordering::SeqCst);
        seg.word64(0).store(PENDING, Ordering::Release);
        // SAFETY: flock on an open descriptor.
        if unsafe { libc::flock(seg.file.as_raw_fd(), libc::LOCK_SH) } != 0 {
            let e = io::Error::last_os_error();
            seg.unlink();
            return Err(e);
        }
        Ok(seg)
    }

    /// Lays out `rings` rings of `slots` x `slot_bytes` in this rank's own inbox (allocating
    /// the memory, see `reserve`) and publishes the geometry: peers waiting in
    /// [`Self::open`] map the inbox from then on. Called once, after [`Self::create`].
    pub fn finish(&mut self, rings: u32, slots: u32, slot_bytes: u32) -> io::Result<()> {
        if self.word64(0).load(Ordering::Acquire) != PENDING
            || !slots.is_power_of_two()
            || slot_bytes < 64
            || !slot_bytes.is_multiple_of(64)
        {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "inbox geometry {rings} x {slots} x {slot_bytes}: needs a pending inbox, \
                     a power-of-two slot count and slot bytes a multiple of 64"
                ),
            ));
        }
        let len = DATA_OFFSET + rings as usize * ring_bytes(slots, slot_bytes);
        self.file.set_len(len as u64)?;
        reserve(&self.file, len)?;
        let base = map(&self.file, len)?;
        // SAFETY: the old mapping is the header-only one made by `create`; no views of it
        // exist (rings are handed out only after `finish`).
        unsafe { libc::munmap(self.base.cast(), self.len) };
        self.base = base;
        self.len = len;
        self.rings = rings;
        self.slots = slots;
        self.slot_bytes = slot_bytes;
        // SAFETY: header offsets inside the mapping; peers read them only after the magic.
        unsafe {
            (base.add(OFF_RINGS) as *mut u32).write(rings);
            (base.add(OFF_SLOTS) as *mut u32).write(slots);
            (base.add(OFF_SLOT_BYTES) as *mut u32).write(slot_bytes);
        }
        self.word64(0).store(MAGIC, Ordering::Release);
        Ok(())
    }

    /// Opens and maps a peer's inbox, checking owner, magic and geometry. While the owner has
    /// not laid out its rings yet ([`Self::finish`]) this waits, until `deadline` or until the
    /// owner exits.
    pub fn open(path: &Path, deadline: Instant) -> io::Result<Self> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(libc::O_CLOEXEC | libc::O_NOFOLLOW)
            .open(path)?;
        let meta = file.metadata()?;
        // SAFETY: getuid cannot fail.
        if meta.uid() != unsafe { libc::getuid() } || meta.mode() & 0o077 != 0 {
            return Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                format!("{} is not a private file of this user", path.display()),
            ));
        }
        if (meta.len() as usize) < DATA_OFFSET {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "inbox too small",
            ));
        }
        let base = map(&file, DATA_OFFSET)?;
        let mut seg = Self {
            file,
            base,
            len: DATA_OFFSET,
            path: path.to_path_buf(),
            slots: 0,
            slot_bytes: 0,
            rings: 0,
        };
        seg.wait_laid_out(deadline)?;
        // SAFETY: header fields inside the mapping, written before the magic (release).
        unsafe {
            seg.rings = (base.add(OFF_RINGS) as *const u32).read();
            seg.slots = (base.add(OFF_SLOTS) as *const u32).read();
            seg.slot_bytes = (base.add(OFF_SLOT_BYTES) as *const u32).read();
        }
        let len = seg.file.metadata()?.len() as usize;
        let need =
            DATA_OFFSET as u128 + seg.rings as u128 * ring_bytes(seg.slots, seg.slot_bytes) as u128;
        if !seg.slots.is_power_of_two()
            || !seg.slot_bytes.is_multiple_of(64)
            || seg.slot_bytes < 64
            || need > len as u128
        {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "bad inbox geometry: {} rings x {} slots x {} bytes in a {len}-byte file",
                    seg.rings, seg.slots, seg.slot_bytes
                ),
            ));
        }
        let full = map(&seg.file, len)?;
        // SAFETY: unmaps the header-only mapping made above; nothing refers to it any more.
        unsafe { libc::munmap(seg.base.cast(), seg.len) };
        seg.base = full;
        seg.len = len;
        Ok(seg)
    }

    /// Waits until the owner has published its geometry (the magic changes from pending).
    fn wait_laid_out(&self, deadline: Instant) -> io::Result<()> {
        let mut pause = Duration::from_micros(20);
        loop {
            match self.word64(0).load(Ordering::Acquire) {
                MAGIC => return Ok(()),
                PENDING if !self.owner_alive() => {
                    return Err(io::Error::new(
                        io::ErrorKind::NotConnected,
                        "the inbox's owner exited before laying out its rings",
                    ));
                }
                PENDING if Instant::now() < deadline => {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(1));
                }
                PENDING => {
                    return Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "the inbox's owner did not lay out its rings in time",
                    ));
                }
                _ => {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        "bad inbox magic",
                    ));
                }
            }
        }
    }

    /// Slots per ring of this inbox.
    pub fn slots(&self) -> u32 {
        self.slots
    }

    /// Bytes mapped (header and rings).
    pub fn mapped_bytes(&self) -> usize {
        self.len
    }

    fn word64(&self, off: usize) -> &AtomicU64 {
        // SAFETY: an aligned header offset inside the mapping.
        unsafe { &*(self.base.add(off) as *const AtomicU64) }
    }

    fn mapped(&self) -> &AtomicU32 {
        // SAFETY: an aligned header offset inside the mapping.
        unsafe { &*(self.base.add(OFF_MAPPED) as *const AtomicU32) }
    }

    /// The owner's heartbeat counter (see `heartbeat.rs`).
    pub fn heartbeat(&self) -> &AtomicU64 {
        self.word64(OFF_BEAT)
    }

    /// Counts this process as mapped; unlinks the name once all `local` ranks are.
    pub fn mark_mapped(&self, local: u32) {
        if self.mapped().fetch_add(1, Ordering::SeqCst) + 1 >= local {
            self.unlink();
        }
    }

    /// Removes the name (the memory lives on while mapped). Idempotent.
    pub fn unlink(&self) {
        let _ = std::fs::remove_file(&self.path);
    }

    /// The owner's process id.
    pub fn pid(&self) -> i32 {
        // SAFETY: header field inside the mapping.
        unsafe { (self.base.add(OFF_PID) as *const u32).read() as i32 }
    }

    /// Address of the owner's [`CMA_PROBE`] in the owner's address space.
    pub fn probe_addr(&self) -> u64 {
        // SAFETY: header field inside the mapping.
        unsafe { (self.base.add(OFF_PROBE) as *const u64).read() }
    }

    /// The ring carrying frames into this inbox from the local rank with index `sender` (its
    /// position among this host's ranks in world-rank order); `None` before the rings are
    /// laid out or past the last ring.
    pub fn ring(&self, sender: u32) -> Option<Ring> {
        if sender >= self.rings {
            return None;
        }
        let off = DATA_OFFSET + sender as usize * ring_bytes(self.slots, self.slot_bytes);
        // SAFETY: the ring lies inside the mapping (geometry checked at finish/open), the
        // offset is 64-byte aligned, and the mapping lives as long as `self`.
        Some(unsafe { Ring::from_raw(self.base.add(off), self.slots, self.slot_bytes) })
    }

    /// The owner's doorbell.
    pub fn doorbell(&self) -> Doorbell {
        // SAFETY: OFF_BELL..OFF_BELL+68 lies inside the header.
        unsafe { Doorbell::from_raw(self.base.add(OFF_BELL)) }
    }

    /// For a peer's inbox: false once the owner has exited (its lock is gone).
    pub fn owner_alive(&self) -> bool {
        let fd = self.file.as_raw_fd();
        // SAFETY: flock on an open descriptor.
        if unsafe { libc::flock(fd, libc::LOCK_EX | libc::LOCK_NB) } == 0 {
            // SAFETY: as above.
            unsafe { libc::flock(fd, libc::LOCK_UN) };
            return false;
        }
        true
    }
}

impl Drop for Segment {
    fn drop(&mut self) {
        // SAFETY: unmaps exactly the mapping made in create/open; no views outlive `self`
        // (the transport drops its rings before its segments).
        unsafe { libc::munmap(self.base.cast(), self.len) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn create_open_unlink_and_liveness() {
        let job = format!("unit{}", std::process::id());
        let path = inbox_path(&job, 0);
        let mut owner = Segment::create(&path).unwrap();
        assert!(owner.ring(0).is_none(), "no rings before they are laid out");
        owner.finish(3, 4, 128).unwrap();
        assert!(owner.finish(3, 4, 128).is_err(), "laid out once");
        let peer = Segment::open(&path, Instant::now()).unwrap();
        assert_eq!(
            (peer.slots(), peer.mapped_bytes()),
            (4, owner.mapped_bytes())
        );
        assert_eq!(peer.pid(), std::process::id() as i32);
        assert_eq!(peer.probe_addr(), CMA_PROBE.as_ptr() as u64);
        assert!(peer.ring(2).is_some() && peer.ring(3).is_none());
        // Written through one mapping, read through the other.
        assert!(owner.ring(1).unwrap().try_push(7, &[b"hi"]));
        let got = peer.ring(1).unwrap().pop(|k, d| (k, d.to_vec())).unwrap();
        assert_eq!(got, (7, b"hi".to_vec()));
        // Two of three local ranks mapped: the name stays; the third removes it.
        peer.mark_mapped(3);
        assert!(path.exists());
        peer.mark_mapped(3);
        assert!(!path.exists());
        assert!(peer.owner_alive());
        drop(owner);
        assert!(
            !peer.owner_alive(),
            "the owner's lock went with its descriptor"
        );
        // A bad file is refused.
        std::fs::write(&path, b"not an inbox").unwrap();
        assert!(Segment::open(&path, Instant::now() + Duration::from_secs(5)).is_err());
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn open_waits_for_the_layout_and_gives_up_on_a_dead_owner() {
        let job = format!("unitwait{}", std::process::id());
        let path = inbox_path(&job, 0);
        let mut owner = Segment::create(&path).unwrap();
        let opener = {
            let path = path.clone();
            std::thread::spawn(move || {
                Segment::open(&path, Instant::now() + Duration::from_secs(20))
            })
        };
        std::thread::sleep(Duration::from_millis(50));
        owner.finish(2, 8, 256).unwrap();
        let peer = opener.join().unwrap().unwrap();
        assert_eq!(peer.slots(), 8);
        assert!(owner.ring(1).unwrap().try_push(3, &[b"x"]));
        assert_eq!(peer.ring(1).unwrap().pop(|k, _| k), Some(3));
        drop((owner, peer));
        std::fs::remove_file(&path).unwrap();

        // Pending past the deadline: a timeout. Pending with the owner gone: at once.
        let path = inbox_path(&job, 1);
        let owner = Segment::create(&path).unwrap();
        let t = Instant::now();
        let e = Segment::open(&path, t + Duration::from_millis(30))
            .err()
            .unwrap();
        assert_eq!(e.kind(), io::ErrorKind::TimedOut);
        drop(owner);
        let e = Segment::open(&path, Instant::now() + Duration::from_secs(20))
            .err()
            .unwrap();
        assert_eq!(e.kind(), io::ErrorKind::NotConnected, "{e}");
        std::fs::remove_file(&path).unwrap();
    }
}
