//! Cross-memory attach: copying a peer's buffer straight into ours with `process_vm_readv`
//! (one copy, no staging through the rings). Needs ptrace permission over the peer (same user,
//! and Yama/containers permitting); [`probe`] checks that once per peer.

use std::io;

/// Copies `len` bytes at `addr` in process `pid` into a new vector.
pub fn read_vec(pid: i32, addr: u64, len: usize) -> io::Result<Vec<u8>> {
    let mut v: Vec<u8> = Vec::with_capacity(len);
    // SAFETY: the spare capacity is `len` writable bytes; `read_raw` writes all of them or fails.
    unsafe {
        read_raw(pid, addr, v.as_mut_ptr(), len)?;
        v.set_len(len);
    }
    Ok(v)
}

/// Copies `dst.len()` bytes at `addr` in process `pid` into `dst` (no allocation: the
/// direct allreduce reads into cache-sized scratch pieces and straight into result buffers).
pub fn read_into(pid: i32, addr: u64, dst: &mut [u8]) -> io::Result<()> {
    // SAFETY: `dst` is `dst.len()` writable bytes.
    unsafe { read_raw(pid, addr, dst.as_mut_ptr(), dst.len()) }
}

/// Copies `src` to `addr` in process `pid` (the direct allreduce hands each peer its share of
/// the result this way, straight from cache).
pub fn write_from(pid: i32, addr: u64, src: &[u8]) -> io::Result<()> {
    let mut done = 0usize;
    while done < src.len() {
        let local = libc::iovec {
            iov_base: src[done..].as_ptr() as *mut libc::c_void,
            iov_len: src.len() - done,
        };
        let remote = libc::iovec {
            iov_base: (addr as usize + done) as *mut libc::c_void,
            iov_len: src.len() - done,
        };
        // SAFETY: the local iovec covers `src`, which the kernel only reads; the remote one is
        // checked by the kernel against the peer's mappings.
        let n = unsafe { libc::process_vm_writev(pid, &local, 1, &remote, 1, 0) };
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        if n == 0 {
            return Err(io::Error::new(
                io::ErrorKind::WriteZero,
                "process_vm_writev made no progress",
            ));
        }
        done += n as usize;
    }
    Ok(())
}

/// Copies `len` bytes at `addr` in `pid` to `dst`, looping over partial reads.
///
/// # Safety
/// `dst` must be valid for `len` bytes of writes.
unsafe fn read_raw(pid: i32, addr: u64, dst: *mut u8, len: usize) -> io::Result<()> {
    let mut done = 0usize;
    while done < len {
        let local = libc::iovec {
            // SAFETY: inside the `len` bytes the caller vouched for.
            iov_base: unsafe { dst.add(done) }.cast(),
            iov_len: len - done,
        };
        let remote = libc::iovec {
            iov_base: (addr as usize + done) as *mut libc::c_void,
            iov_len: len - done,
        };
        // SAFETY: the local iovec covers memory the caller vouched for; the remote one is only
        // read by the kernel, which checks it against the peer's mappings.
        let n = unsafe { libc::process_vm_readv(pid, &local, 1, &remote, 1, 0) };
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        if n == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "process_vm_readv made no progress",
            ));
        }
        done += n as usize;
    }
    Ok(())
}

/// True when this process can read `expected.len()` bytes at `addr` of `pid` and they equal
/// `expected`.
pub fn probe(pid: i32, addr: u64, expected: &[u8]) -> bool {
    matches!(read_vec(pid, addr, expected.len()), Ok(v) if v == expected)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_own_memory_and_rejects_bad_addresses() {
        let data: Vec<u8> = (0..100_000u32).map(|i| (i % 253) as u8).collect();
        let pid = std::process::id() as i32;
        match read_vec(pid, data.as_ptr() as u64, data.len()) {
            Ok(v) => assert_eq!(v, data),
            // Some sandboxes forbid it even on ourselves: the transport falls back then.
            Err(e) => assert!(e.raw_os_error() == Some(libc::EPERM), "{e}"),
        }
        assert!(read_vec(pid, 8, 16).is_err());
        let mut dst = [0u8; 64];
        if read_into(pid, data.as_ptr() as u64 + 10, &mut dst).is_ok() {
            assert_eq!(dst[..], data[10..74]);
        }
        assert!(read_into(pid, 8, &mut dst).is_err());
        let mut target = vec![0u8; 64];
        if write_from(pid, target.as_mut_ptr() as u64, &data[..64]).is_ok() {
            assert_eq!(target[..], data[..64]);
        }
        assert!(write_from(pid, 8, &data[..16]).is_err());
        assert!(!probe(pid, 8, b"x"));
    }
}
