//! The POSIX calls under MPI-IO: full `pread`/`pwrite` loops over byte runs (reads with small
//! holes sieved through one larger read), `fcntl` byte-range locks, and the mapping of `errno`
//! onto the MPI I/O error classes with a message naming the file and the system error.

use super::*;
use crate::consts::*;
use crate::errors::report::MpiError;
use std::io;
use std::os::fd::{AsRawFd, BorrowedFd};

/// A run of file bytes: `(offset, length)`.
pub type Run = (u64, usize);

/// The MPI error class of an I/O error.
pub fn class_of(e: &io::Error) -> c_int {
    match e.raw_os_error() {
        Some(libc::ENOENT) => MPI_ERR_NO_SUCH_FILE,
        Some(libc::EACCES | libc::EPERM) => MPI_ERR_ACCESS,
        Some(libc::EEXIST) => MPI_ERR_FILE_EXISTS,
        Some(libc::ENOSPC | libc::EFBIG) => MPI_ERR_NO_SPACE,
        Some(libc::EDQUOT) => MPI_ERR_QUOTA,
        Some(libc::EROFS) => MPI_ERR_READ_ONLY,
        Some(libc::ENAMETOOLONG | libc::ENOTDIR | libc::EISDIR | libc::ELOOP | libc::EINVAL) => {
            MPI_ERR_BAD_FILE
        }
        Some(libc::ETXTBSY | libc::EBUSY) => MPI_ERR_FILE_IN_USE,
        Some(libc::ENOMEM) => MPI_ERR_NO_MEM,
        _ => MPI_ERR_IO,
    }
}

/// The MPI error of `e` raised doing `what` on file `name`; its message reads
/// ``<what> `<name>`: <system error>``.
pub fn error(what: &str, name: &str, e: &io::Error) -> MpiError {
    MpiError::new(class_of(e), format!("{what} `{name}`: {e}"))
}

fn check(r: isize) -> io::Result<usize> {
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(r as usize)
    }
}

/// Reads into `buf` from `off` until it is full or the file ends; gives the bytes read.
pub fn pread_full(fd: BorrowedFd<'_>, buf: &mut [u8], off: u64) -> io::Result<usize> {
    let mut done = 0;
    while done < buf.len() {
        let at = off + done as u64;
        let rest = &mut buf[done..];
        // SAFETY: `rest` is writable for its length.
        let r = unsafe {
            libc::pread(
                fd.as_raw_fd(),
                rest.as_mut_ptr().cast(),
                rest.len(),
                at as libc::off_t,
            )
        };
        match check(r) {
            Ok(0) => break,
            Ok(n) => done += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(done)
}

/// Writes all of `buf` at `off`.
pub fn pwrite_all(fd: BorrowedFd<'_>, buf: &[u8], off: u64) -> io::Result<()> {
    let mut done = 0;
    while done < buf.len() {
        let at = off + done as u64;
        let rest = &buf[done..];
        // SAFETY: `rest` is readable for its length.
        let r = unsafe {
            libc::pwrite(
                fd.as_raw_fd(),
                rest.as_ptr().cast(),
                rest.len(),
                at as libc::off_t,
            )
        };
        match check(r) {
            Ok(0) => return Err(io::Error::from_raw_os_error(libc::ENOSPC)),
            Ok(n) => done += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Largest span read at once to sieve several runs.
const SIEVE_SPAN: u64 = 4 << 20;
/// Largest hole a sieving read skips over (larger holes end the sieved span).
const SIEVE_HOLE: u64 = 64 << 10;
/// Runs of a sieved span at least this long on average are read by one `preadv` straight
/// into the caller's buffer (the holes into a small sink), not into a scratch buffer copied
/// out after.
const DIRECT_RUN: usize = 8 << 10;

/// Most iovecs one `preadv` takes (Linux's `IOV_MAX`).
const MAX_IOV: usize = 1024;

/// Reads the runs into consecutive bytes of `out` (`out.len()` is their total length) and
/// gives the bytes read before the first run that hit the end of the file (reading past the
/// end reads short). Runs with small holes between them are read as one span (data sieving).
pub fn read_runs(fd: BorrowedFd<'_>, runs: &[Run], out: &mut [u8]) -> io::Result<usize> {
    let spans = sieve_spans(runs);
    let mut done = 0;
    let (mut scratch, mut sink) = (Vec::new(), Vec::new());
    for &(i, j) in &spans {
        let (start, end) = (runs[i].0, runs[j - 1].0 + runs[j - 1].1 as u64);
        let bytes: usize = runs[i..j].iter().map(|r| r.1).sum();
        if j == i + 1 {
            let (o, l) = runs[i];
            let n = pread_full(fd, &mut out[done..done + l], o)?;
            done += n;
            if n < l {
                return Ok(done);
            }
        } else if bytes / (j - i) >= DIRECT_RUN && 2 * (j - i) <= MAX_IOV {
            // One read of the span, the runs landing in `out` and the holes in a sink.
            let sink_len = runs[i..j]
                .windows(2)
                .map(|w| (w[1].0 - w[0].0 - w[0].1 as u64) as usize)
                .max()
                .unwrap_or(0);
            sink.resize(sink_len.max(sink.len()), 0);
            let mut iov = Vec::with_capacity(2 * (j - i));
            let mut at = done;
            for (k, &(o, l)) in runs[i..j].iter().enumerate() {
                if k > 0 {
                    let (po, pl) = runs[i + k - 1];
                    let hole = (o - po - pl as u64) as usize;
                    if hole > 0 {
                        iov.push(libc::iovec {
                            iov_base: sink.as_mut_ptr().cast(),
                            iov_len: hole,
                        });
                    }
                }
                iov.push(libc::iovec {
                    iov_base: out[at..].as_mut_ptr().cast(),
                    iov_len: l,
                });
                at += l;
            }
            let got = loop {
                // SAFETY: every iovec points into `out` (disjoint ranges) or the sink, both
                // writable for their lengths and not otherwise used during the call.
                let r = unsafe {
                    libc::preadv(
                        fd.as_raw_fd(),
                        iov.as_ptr(),
                        iov.len() as c_int,
                        start as libc::off_t,
                    )
                };
                match check(r) {
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    r => break r? as u64,
                }
            };
            // A short read (the end of the file, or a signal): the rest run by run.
            for &(o, l) in &runs[i..j] {
                let have = (got.saturating_sub(o - start) as usize).min(l);
                let n = if have < l {
                    have + pread_full(fd, &mut out[done + have..done + l], o + have as u64)?
                } else {
                    l
                };
                done += n;
                if n < l {
                    return Ok(done);
                }
            }
        } else {
            scratch.resize((end - start) as usize, 0);
            let got = pread_full(fd, &mut scratch, start)?;
            for &(o, l) in &runs[i..j] {
                let at = (o - start) as usize;
                let n = l.min(got.saturating_sub(at));
                out[done..done + n].copy_from_slice(&scratch[at..at + n]);
                done += n;
                if n < l {
                    return Ok(done);
                }
            }
        }
    }
    Ok(done)
}

/// The runs cut into sieved spans, as index ranges `i..j` of `runs`: ascending runs with
/// small holes between them, at most [`SIEVE_SPAN`] bytes from the first to the last.
fn sieve_spans(runs: &[Run]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < runs.len() {
        let start = runs[i].0;
        let mut end = start + runs[i].1 as u64;
        let mut j = i + 1;
        while j < runs.len() {
            let (o, l) = runs[j];
            let e = o + l as u64;
            if o < end || o - end > SIEVE_HOLE || e - start > SIEVE_SPAN {
                break;
            }
            end = e;
            j += 1;
        }
        out.push((i, j));
        i = j;
    }
    out
}

/// Writes consecutive bytes of `data` to the runs (`data.len()` is their total length).
pub fn write_runs(fd: BorrowedFd<'_>, runs: &[Run], data: &[u8]) -> io::Result<()> {
    let mut done = 0;
    let mut behind = WriteBehind::default();
    for &(o, l) in runs {
        pwrite_all(fd, &data[done..done + l], o)?;
        behind.wrote(fd, o, l);
        done += l;
    }
    Ok(())
}

/// Bytes a long write produces between two starts of the kernel's write-back.
const WRITE_BEHIND: usize = 8 << 20;

/// Starts the kernel's write-back of a long write every 8 MiB (`WRITE_BEHIND`), so the disk
/// works while later bytes are still being copied in and the `MPI_File_sync` or close that
/// follows waits for less (2-rank array of the I/O benchmark, interleaved runs: 1157-1194 ->
/// 1313-1597 MiB/s). It only starts write-back (`sync_file_range(SYNC_FILE_RANGE_WRITE)`):
/// nothing is promised durable, and a file system without it just ignores the hint.
#[derive(Default)]
pub struct WriteBehind {
    lo: u64,
    hi: u64,
    pending: usize,
}

impl WriteBehind {
    /// `len` bytes were written at `off` through `fd`.
    pub fn wrote(&mut self, fd: BorrowedFd<'_>, off: u64, len: usize) {
        if self.pending == 0 {
            (self.lo, self.hi) = (off, off);
        }
        self.lo = self.lo.min(off);
        self.hi = self.hi.max(off + len as u64);
        self.pending += len;
        if self.pending < WRITE_BEHIND {
            return;
        }
        #[cfg(target_os = "linux")]
        // SAFETY: a plain system call on an open descriptor; it reads no memory of ours.
        unsafe {
            libc::sync_file_range(
                fd.as_raw_fd(),
                self.lo as libc::off64_t,
                (self.hi - self.lo) as libc::off64_t,
                libc::SYNC_FILE_RANGE_WRITE,
            );
        }
        #[cfg(not(target_os = "linux"))]
        let _ = fd;
        self.pending = 0;
    }
}

/// An `fcntl` lock on a byte range, released when dropped.
pub struct RangeLock<'a> {
    fd: BorrowedFd<'a>,
    start: u64,
    len: u64,
}

fn flock(kind: c_int, start: u64, len: u64) -> libc::flock {
    // SAFETY: plain-old-data struct; every field the call reads is set below.
    let mut l: libc::flock = unsafe { std::mem::zeroed() };
    l.l_type = kind as _;
    l.l_whence = libc::SEEK_SET as _;
    l.l_start = start as libc::off_t;
    l.l_len = len as libc::off_t;
    l
}

impl<'a> RangeLock<'a> {
    /// Waits for a write (`exclusive`) or read lock on `len` bytes from `start` (`len` 0: to
    /// the end of the file, and beyond).
    pub fn new(fd: BorrowedFd<'a>, start: u64, len: u64, exclusive: bool) -> io::Result<Self> {
        let kind = if exclusive {
            libc::F_WRLCK
        } else {
            libc::F_RDLCK
        };
        let l = flock(kind, start, len);
        loop {
            // SAFETY: `l` is a valid flock for the duration of the call.
            let r = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_SETLKW, &raw const l) };
            if r == 0 {
                return Ok(Self { fd, start, len });
            }
            let e = io::Error::last_os_error();
            if e.kind() != io::ErrorKind::Interrupted {
                return Err(e);
            }
        }
    }
}

impl Drop for RangeLock<'_> {
    fn drop(&mut self) {
        let l = flock(libc::F_UNLCK, self.start, self.len);
        // SAFETY: as in `new`; unlocking cannot block.
        unsafe { libc::fcntl(self.fd.as_raw_fd(), libc::F_SETLK, &raw const l) };
    }
}

/// The size of the file.
pub fn size(fd: BorrowedFd<'_>) -> io::Result<u64> {
    // SAFETY: plain-old-data out-parameter.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: `st` is writable.
    if unsafe { libc::fstat(fd.as_raw_fd(), &raw mut st) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(st.st_size as u64)
}

/// Sets the size of the file (truncating or extending with zeros).
pub fn truncate(fd: BorrowedFd<'_>, size: u64) -> io::Result<()> {
    // SAFETY: a plain system call on an open descriptor.
    if unsafe { libc::ftruncate(fd.as_raw_fd(), size as libc::off_t) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Allocates storage for the first `size` bytes (never shrinks the file).
pub fn allocate(fd: BorrowedFd<'_>, size: u64) -> io::Result<()> {
    if size == 0 {
        return Ok(());
    }
    // SAFETY: a plain system call on an open descriptor.
    match unsafe { libc::posix_fallocate(fd.as_raw_fd(), 0, size as libc::off_t) } {
        0 => Ok(()),
        // File systems without fallocate: extend with zeros instead.
        libc::EOPNOTSUPP | libc::EINVAL if size > self::size(fd)? => truncate(fd, size),
        libc::EOPNOTSUPP | libc::EINVAL => Ok(()),
        e => Err(io::Error::from_raw_os_error(e)),
    }
}

/// Flushes the file's data and metadata to storage.
pub fn sync(fd: BorrowedFd<'_>) -> io::Result<()> {
    // SAFETY: a plain system call on an open descriptor.
    if unsafe { libc::fsync(fd.as_raw_fd()) } != 0 {
        let e = io::Error::last_os_error();
        // Files that cannot be synced (pipes, some special files) have nothing to flush.
        if e.raw_os_error() != Some(libc::EINVAL) {
            return Err(e);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::AsFd;

    #[test]
    fn errno_maps_to_io_classes() {
        let c = |n| class_of(&io::Error::from_raw_os_error(n));
        assert_eq!(c(libc::ENOENT), MPI_ERR_NO_SUCH_FILE);
        assert_eq!(c(libc::EACCES), MPI_ERR_ACCESS);
        assert_eq!(c(libc::EEXIST), MPI_ERR_FILE_EXISTS);
        assert_eq!(c(libc::ENOSPC), MPI_ERR_NO_SPACE);
        assert_eq!(c(libc::EROFS), MPI_ERR_READ_ONLY);
        assert_eq!(c(libc::EIO), MPI_ERR_IO);
        let m = error(
            "opening",
            "/x/y",
            &io::Error::from_raw_os_error(libc::ENOENT),
        )
        .message;
        assert!(m.contains("/x/y") && m.contains("No such file"), "{m}");
    }

    #[test]
    fn sieved_and_plain_runs_read_the_same_bytes_and_stop_at_eof() {
        let dir = std::env::temp_dir().join(format!("nexar-io-posix-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("runs");
        let data: Vec<u8> = (0..=255u8).cycle().take(100_000).collect();
        std::fs::write(&p, &data).unwrap();
        let f = std::fs::File::open(&p).unwrap();
        // Small holes (sieved), a big hole (not), and a run past the end (short).
        let runs = [(0, 10), (20, 5), (30, 7), (90_000, 100), (99_990, 50)];
        let mut out = vec![0u8; 172];
        let n = read_runs(f.as_fd(), &runs, &mut out).unwrap();
        assert_eq!(n, 10 + 5 + 7 + 100 + 10);
        let mut want = Vec::new();
        for &(o, l) in &runs {
            want.extend(data.iter().skip(o as usize).take(l));
        }
        assert_eq!(&out[..n], &want[..n]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn long_sieved_runs_read_straight_into_place_and_stop_at_eof() {
        let dir = std::env::temp_dir().join(format!("nexar-io-preadv-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("runs");
        let data: Vec<u8> = (0..=250u8).cycle().take(300_000).collect();
        std::fs::write(&p, &data).unwrap();
        let f = std::fs::File::open(&p).unwrap();
        // 10 KiB runs with holes of 0 to 6 KiB (one `preadv` a span), the last runs crossing
        // and past the end of the file.
        let mut runs: Vec<Run> = (0..20)
            .map(|k| (k * 14_000 + (k % 3) * 1000, 10_240))
            .collect();
        runs.push((296_000, 10_240));
        runs.push((306_240, 10_240));
        let total: usize = runs.iter().map(|r| r.1).sum();
        let mut out = vec![0xEEu8; total];
        let n = read_runs(f.as_fd(), &runs, &mut out).unwrap();
        assert_eq!(n, 20 * 10_240 + 4_000);
        let mut want = Vec::new();
        for &(o, l) in &runs {
            want.extend(data.iter().skip(o as usize).take(l));
        }
        assert_eq!(&out[..n], &want[..n]);
        assert!(
            out[n..].iter().all(|&b| b == 0xEE),
            "bytes past the end untouched"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A long strided write (past the write-behind threshold) lands byte for byte, and the
    /// write-behind starts a flush once per threshold.
    #[test]
    fn long_writes_start_write_back_and_land_intact() {
        let dir = std::env::temp_dir().join(format!("nexar-io-wb-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("runs");
        let f = std::fs::OpenOptions::new()
            .create(true)
            .truncate(true)
            .read(true)
            .write(true)
            .open(&p)
            .unwrap();
        let runs: Vec<Run> = (0..300).map(|k| (k * 65_536, 32_768)).collect();
        let data: Vec<u8> = (0..300 * 32_768).map(|i| (i % 251) as u8).collect();
        write_runs(f.as_fd(), &runs, &data).unwrap();
        let file = std::fs::read(&p).unwrap();
        for (k, &(o, l)) in runs.iter().enumerate() {
            assert_eq!(&file[o as usize..o as usize + l], &data[k * l..(k + 1) * l]);
        }
        let mut b = WriteBehind::default();
        for &(o, l) in &runs {
            b.wrote(f.as_fd(), o, l);
        }
        assert_eq!(
            b.pending,
            300 * 32_768 % WRITE_BEHIND,
            "a flush starts every 8 MiB"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
