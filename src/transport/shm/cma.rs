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

/// Most iovecs one `process_vm_readv` / `process_vm_writev` call takes (`IOV_MAX`).
const IOV_BATCH: usize = 1024;

/// Which way [`runs`] copies.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Way {
    Read,
    Write,
}

/// Copies between the contiguous `local` bytes and the byte runs `remote` (address, length) of
/// process `pid`, in order, `IOV_BATCH` runs per system call (a datatype's typemap goes
/// straight into the iovecs, no packing on the remote side). A short transfer (a run not
/// mapped in the peer) is an error of kind `UnexpectedEof`.
///
/// # Safety
/// `local` must be valid for `len` = the runs' total bytes (writes for `Read`).
unsafe fn runs(pid: i32, remote: &[(u64, usize)], local: *mut u8, way: Way) -> io::Result<()> {
    let mut done = 0usize;
    for batch in remote.chunks(IOV_BATCH) {
        let want: usize = batch.iter().map(|r| r.1).sum();
        if want == 0 {
            continue;
        }
        let iov: Vec<libc::iovec> = batch
            .iter()
            .map(|&(a, l)| libc::iovec {
                iov_base: a as usize as *mut libc::c_void,
                iov_len: l,
            })
            .collect();
        let mine = libc::iovec {
            // SAFETY: inside the caller's `local` bytes (`done + want` <= their total).
            iov_base: unsafe { local.add(done) }.cast(),
            iov_len: want,
        };
        let n = iov.len() as libc::c_ulong;
        // SAFETY: the local iovec covers memory the caller vouched for; the remote ones are
        // checked by the kernel against the peer's mappings.
        let got = unsafe {
            match way {
                Way::Read => libc::process_vm_readv(pid, &mine, 1, iov.as_ptr(), n, 0),
                Way::Write => libc::process_vm_writev(pid, &mine, 1, iov.as_ptr(), n, 0),
            }
        };
        if got < 0 {
            return Err(io::Error::last_os_error());
        }
        if got as usize != want {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!(
                    "moved {got} of {want} bytes: part of the range is not mapped in process {pid}"
                ),
            ));
        }
        done += want;
    }
    Ok(())
}

/// Copies the byte runs `remote` (address, length) of process `pid`, in order, into `dst`,
/// whose length must be their total.
pub fn read_runs(pid: i32, remote: &[(u64, usize)], dst: &mut [u8]) -> io::Result<()> {
    assert_eq!(remote.iter().map(|r| r.1).sum::<usize>(), dst.len());
    // SAFETY: `dst` is writable for the runs' total bytes (asserted).
    unsafe { runs(pid, remote, dst.as_mut_ptr(), Way::Read) }
}

/// Copies `src`, whose length must be the runs' total, into the byte runs `remote` (address,
/// length) of process `pid`, in order.
pub fn write_runs(pid: i32, remote: &[(u64, usize)], src: &[u8]) -> io::Result<()> {
    assert_eq!(remote.iter().map(|r| r.1).sum::<usize>(), src.len());
    // SAFETY: `src` is readable for the runs' total bytes (asserted); the kernel only reads it.
    unsafe { runs(pid, remote, src.as_ptr().cast_mut(), Way::Write) }
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

    #[test]
    fn runs_scatter_and_gather_in_order() {
        let pid = std::process::id() as i32;
        let mut target = vec![0u8; 32];
        let at = target.as_mut_ptr() as u64;
        let remote = [(at + 1, 2), (at + 10, 3), (at + 20, 0), (at + 30, 1)];
        if write_runs(pid, &remote, b"abcdef").is_err() {
            return; // no cross-memory attach in this sandbox
        }
        assert_eq!(&target[1..3], b"ab");
        assert_eq!(&target[10..13], b"cde");
        assert_eq!(target[30], b'f');
        let mut back = [0u8; 6];
        read_runs(pid, &remote, &mut back).unwrap();
        assert_eq!(&back, b"abcdef");
        let e = read_runs(pid, &[(8, 4)], &mut [0u8; 4]).unwrap_err();
        assert!(e.raw_os_error() == Some(libc::EFAULT), "{e}");
    }
}
