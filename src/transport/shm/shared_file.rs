//! A shared-memory file mapped by the members of one communicator: created under a fresh name
//! by one member (mode 0600, exclusive, its pages allocated at once so that a full `/dev/shm`
//! fails here and not with `SIGBUS` on first touch), opened by the others with the size
//! checked, and unlinked by its creator once every member has mapped it (or failed to). The
//! communicator's flag area (`flag_area.rs`) and RMA windows' shared areas (`crate::rma`) are
//! made of one.

use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::io::AsRawFd;
use std::path::Path;

/// One mapping of a shared file, unmapped on drop.
pub struct SharedMap {
    base: *mut u8,
    len: usize,
}

// SAFETY: the mapping is plain shared memory; what may be read or written when is the
// protocol of each user of it.
unsafe impl Send for SharedMap {}
// SAFETY: as above.
unsafe impl Sync for SharedMap {}

impl SharedMap {
    /// Creates (failing if the name exists), sizes, allocates and maps `len` bytes at `path`
    /// (at least one page is mapped, so `len` may be 0). The file is removed again on failure.
    pub fn create(path: &Path, len: usize) -> io::Result<Self> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .mode(0o600)
            .custom_flags(libc::O_CLOEXEC)
            .open(path)?;
        let len = len.max(1);
        let made = file.set_len(len as u64).and_then(|()| {
            // SAFETY: fallocate on an open descriptor within the file's length.
            match unsafe { libc::posix_fallocate(file.as_raw_fd(), 0, len as libc::off_t) } {
                0 => Ok(()),
                rc => Err(io::Error::from_raw_os_error(rc)),
            }
        });
        let map = made.and_then(|()| Self::map(&file, len));
        if map.is_err() {
            let _ = std::fs::remove_file(path);
        }
        map
    }

    /// Opens and maps the file another member created at `path`, which must be `len` bytes.
    pub fn open(path: &Path, len: usize) -> io::Result<Self> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(libc::O_CLOEXEC | libc::O_NOFOLLOW)
            .open(path)?;
        let len = len.max(1);
        let have = file.metadata()?.len();
        if have != len as u64 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("the shared file has {have} bytes, {len} expected"),
            ));
        }
        Self::map(&file, len)
    }

    /// Maps `len` zeroed bytes (at least one page) that only this process sees: the same
    /// layout as a shared file where no other process needs it (a window served by active
    /// messages keeps its control words and its memory in one).
    pub fn private(len: usize) -> io::Result<Self> {
        let len = len.max(1);
        // SAFETY: a fresh anonymous mapping; no existing memory is touched.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        Ok(Self {
            base: base.cast(),
            len,
        })
    }

    fn map(file: &File, len: usize) -> io::Result<Self> {
        let base = super::segment::map(file, len)?;
        Ok(Self { base, len })
    }

    /// The first byte of the mapping (page aligned).
    pub fn base(&self) -> *mut u8 {
        self.base
    }

    /// Bytes mapped.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing is mapped (never: at least one byte is).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Drop for SharedMap {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `map`, unmapped once.
        unsafe {
            libc::munmap(self.base.cast(), self.len);
        }
    }
}
