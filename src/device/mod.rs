//! GPU device buffers ("CUDA-aware" operations, cargo feature `cuda`).
//!
//! Every operation that takes a user buffer first asks [`classify`] what kind of memory it is.
//! Host memory (and CUDA managed memory, which the host may read) takes the ordinary path. A
//! device buffer is never dereferenced on the host: it is staged through two pinned host
//! bounce buffers in [`CHUNK`]-byte pieces (see [`pipeline`]), the operation runs on the host
//! copy, and a result is copied back to the device the same way.
//!
//! Without the `cuda` feature, or on a machine without `libcuda.so` or without a GPU,
//! everything is host memory and the checks cost nothing (without the feature) or one
//! cached flag (without a driver; logged once at debug level).
//!
//! Device buffers reach the Rust API as slices made from device pointers (for example
//! `std::slice::from_raw_parts_mut(dev_ptr as *mut f32, n)`): such a slice must never be read
//! or written by the caller on the host, only handed to nexar. Work on the legacy default
//! stream is ordered before nexar's copies (its staging streams are blocking streams); work on
//! other streams that produces a send buffer must have completed (synchronize the stream)
//! before the call, as with any CUDA-aware MPI. A received device buffer is complete when the
//! call returns.

pub mod nccl;
pub mod pipeline;

#[cfg(feature = "cuda")]
mod cuda;

#[cfg(feature = "cuda")]
mod alloc;

#[cfg(feature = "cuda")]
pub use alloc::DeviceBuffer;
#[cfg(feature = "cuda")]
pub use cudarc;

/// Runs `f` with device `ordinal`'s primary context current on this thread (the previous
/// context is restored afterwards): for driver calls of your own through [`cudarc`].
#[cfg(feature = "cuda")]
pub fn with_context<R>(ordinal: i32, f: impl FnOnce() -> Result<R>) -> Result<R> {
    cuda::with_context(ordinal, f)
}

/// Number of CUDA devices (0 without the `cuda` feature, a driver, or a device).
pub fn device_count() -> i32 {
    #[cfg(feature = "cuda")]
    {
        cuda::device_count()
    }
    #[cfg(not(feature = "cuda"))]
    {
        0
    }
}

use crate::error::Result;
use bytes::Bytes;

/// Bytes per chunk of the staged path (the size of each pinned bounce buffer).
pub const CHUNK: usize = 4 << 20;

/// What kind of memory a pointer refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Memory {
    /// Ordinary host memory (pageable or pinned): read and written directly.
    Host,
    /// Memory of GPU `ordinal`, not accessible from the host: staged.
    Device {
        /// The CUDA device ordinal that owns the memory.
        ordinal: i32,
    },
    /// CUDA managed (unified) memory: the host may access it, so it takes the host path.
    Managed,
}

/// Classifies the memory at `ptr` through the CUDA driver's pointer attributes (always
/// [`Memory::Host`] without the `cuda` feature, a driver, or a device).
pub fn classify(ptr: *const u8) -> Memory {
    #[cfg(feature = "cuda")]
    {
        cuda::classify(ptr)
    }
    #[cfg(not(feature = "cuda"))]
    {
        let _ = ptr;
        Memory::Host
    }
}

/// True if the CUDA driver loaded and at least one device is present (always false without
/// the `cuda` feature). Loads the driver on first use.
pub fn available() -> bool {
    #[cfg(feature = "cuda")]
    {
        cuda::driver_ready()
    }
    #[cfg(not(feature = "cuda"))]
    {
        false
    }
}

/// The device ordinal owning `buf`, or `None` if the host may read it directly.
#[inline]
pub fn device_of(buf: &[u8]) -> Option<i32> {
    if cfg!(not(feature = "cuda")) || buf.is_empty() {
        return None;
    }
    match classify(buf.as_ptr()) {
        Memory::Device { ordinal } => Some(ordinal),
        Memory::Host | Memory::Managed => None,
    }
}

/// Copies `len` bytes at device address `src` (memory of device `ordinal`) into `dst` through
/// the staged path.
///
/// # Safety
/// `src` must be a device allocation of device `ordinal` valid for `dst.len()` bytes, with no
/// kernel writing it meanwhile.
pub unsafe fn download_to(ordinal: i32, src: u64, dst: &mut [u8]) -> Result<()> {
    stage_down(ordinal, src, dst.len(), |off, chunk| {
        dst[off..off + chunk.len()].copy_from_slice(chunk);
        Ok(())
    })
}

/// Copies `src` to device address `dst` (memory of device `ordinal`) through the staged path;
/// the bytes are on the device when this returns.
///
/// # Safety
/// `dst` must be a device allocation of device `ordinal` valid for `src.len()` bytes, with no
/// kernel using it meanwhile.
pub unsafe fn upload_from(ordinal: i32, src: &[u8], dst: u64) -> Result<()> {
    stage_up(ordinal, dst, src.len(), |off, chunk| {
        chunk.copy_from_slice(&src[off..off + chunk.len()]);
        Ok(())
    })
}

/// Runs [`pipeline::download`] on the cached engine of device `ordinal`.
fn stage_down(
    ordinal: i32,
    src: u64,
    len: usize,
    consume: impl FnMut(usize, &[u8]) -> Result<()>,
) -> Result<()> {
    #[cfg(feature = "cuda")]
    {
        cuda::with_engine(ordinal, |eng| pipeline::download(eng, src, len, consume))
    }
    #[cfg(not(feature = "cuda"))]
    {
        let _ = (src, len, consume);
        Err(no_cuda(ordinal))
    }
}

/// Runs [`pipeline::upload`] on the cached engine of device `ordinal`.
fn stage_up(
    ordinal: i32,
    dst: u64,
    len: usize,
    produce: impl FnMut(usize, &mut [u8]) -> Result<()>,
) -> Result<()> {
    #[cfg(feature = "cuda")]
    {
        cuda::with_engine(ordinal, |eng| pipeline::upload(eng, dst, len, produce))
    }
    #[cfg(not(feature = "cuda"))]
    {
        let _ = (dst, len, produce);
        Err(no_cuda(ordinal))
    }
}

#[cfg(not(feature = "cuda"))]
fn no_cuda(ordinal: i32) -> crate::Error {
    crate::Error::new(
        crate::ErrorKind::Unsupported,
        format!("device {ordinal} memory needs nexar built with the `cuda` feature"),
    )
}

/// A host copy of `buf`, staged from the device if `buf` is device memory. The hook every
/// operation uses where it copies its input.
pub fn to_host_vec(buf: &[u8]) -> Result<Vec<u8>> {
    let Some(ordinal) = device_of(buf) else {
        return Ok(buf.to_vec());
    };
    let mut v = Vec::with_capacity(buf.len());
    stage_down(ordinal, buf.as_ptr() as u64, buf.len(), |_, chunk| {
        v.extend_from_slice(chunk);
        Ok(())
    })?;
    Ok(v)
}

/// `buf` itself if the host may read it, else a host copy staged from the device.
pub fn host_view(buf: &[u8]) -> Result<std::borrow::Cow<'_, [u8]>> {
    match device_of(buf) {
        None => Ok(std::borrow::Cow::Borrowed(buf)),
        Some(_) => to_host_vec(buf).map(std::borrow::Cow::Owned),
    }
}

/// True if `ptr` is device memory (never true without the `cuda` feature).
#[inline]
pub fn is_device(ptr: *const u8) -> bool {
    cfg!(feature = "cuda") && matches!(classify(ptr), Memory::Device { .. })
}

/// [`to_host_vec`] as a message payload.
pub fn to_bytes(buf: &[u8]) -> Result<Bytes> {
    match device_of(buf) {
        None => Ok(Bytes::copy_from_slice(buf)),
        Some(_) => to_host_vec(buf).map(Bytes::from),
    }
}

/// Copies host bytes `src` into `dst` (same length), which may be device memory.
pub fn copy_into(dst: &mut [u8], src: &[u8]) -> Result<()> {
    assert_eq!(dst.len(), src.len(), "copy_into: lengths differ");
    match device_of(dst) {
        None => {
            dst.copy_from_slice(src);
            Ok(())
        }
        // SAFETY: `dst` is a live buffer of `src.len()` bytes on that device (the caller's
        // slice), written only through the driver.
        Some(ordinal) => unsafe { upload_from(ordinal, src, dst.as_mut_ptr() as u64) },
    }
}

/// True if `ranges`, in order, cover `0..len` exactly with no gap (so writing them all writes
/// the whole buffer, and a device buffer needs no copy of its old contents first).
pub fn tiles(ranges: &[std::ops::Range<usize>], len: usize) -> bool {
    let mut at = 0;
    ranges.iter().all(|r| {
        let next = r.start == at;
        at = r.end;
        next
    }) && at == len
}

/// A receive buffer seen through a host stand-in when it is device memory: the operation
/// writes [`Landing::buf`], and [`Landing::land`] copies it to the device.
pub struct Landing<'a> {
    user: &'a mut [u8],
    stage: Option<(i32, Vec<u8>)>,
}

impl<'a> Landing<'a> {
    /// Wraps `user`. When the operation may leave parts of the buffer untouched
    /// (`writes_all == false`), the host stand-in starts as a copy of the device contents so
    /// those parts survive.
    pub fn new(user: &'a mut [u8], writes_all: bool) -> Result<Self> {
        let stage = match device_of(user) {
            None => None,
            Some(ordinal) if writes_all => Some((ordinal, vec![0; user.len()])),
            Some(ordinal) => Some((ordinal, to_host_vec(user)?)),
        };
        Ok(Self { user, stage })
    }

    /// The buffer the operation writes.
    pub fn buf(&mut self) -> &mut [u8] {
        match &mut self.stage {
            Some((_, v)) => v,
            None => self.user,
        }
    }

    /// Finishes: copies the host stand-in to the device (nothing to do for host memory).
    pub fn land(self) -> Result<()> {
        match self.stage {
            None => Ok(()),
            // SAFETY: `user` is the caller's live device buffer of this length.
            Some((ordinal, v)) => unsafe { upload_from(ordinal, &v, self.user.as_ptr() as u64) },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_memory_of_every_kind_is_host() {
        let stack = [1u8; 64];
        let heap = vec![2u8; 1 << 20];
        let boxed = Box::new([3u8; 4096]);
        for p in [stack.as_ptr(), heap.as_ptr(), boxed.as_ptr()] {
            assert_eq!(classify(p), Memory::Host);
        }
        // An anonymous mapping and a pointer that is not memory at all.
        // SAFETY: plain anonymous private mapping, unmapped below.
        let m = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                1 << 16,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        assert_ne!(m, libc::MAP_FAILED);
        assert_eq!(classify(m.cast()), Memory::Host);
        // SAFETY: the mapping made above.
        unsafe { libc::munmap(m, 1 << 16) };
        assert_eq!(classify(std::ptr::null()), Memory::Host);
        assert_eq!(device_of(&heap), None);
        assert_eq!(device_of(&[]), None);
    }

    #[test]
    fn tiles_means_contiguous_in_order_and_complete() {
        assert!(tiles(&[0..4, 4..8, 8..8, 8..12], 12));
        assert!(tiles(&[], 0));
        assert!(!tiles(&[0..4, 5..8], 8), "gap");
        assert!(!tiles(&[4..8, 0..4], 8), "out of order");
        assert!(!tiles(&[0..4, 4..6], 8), "short");
        assert!(!tiles(&[0..4, 2..8], 8), "overlap");
    }

    #[test]
    fn host_buffers_pass_through_the_hooks_unchanged() {
        let src: Vec<u8> = (0..=255).collect();
        assert_eq!(to_host_vec(&src).unwrap(), src);
        assert_eq!(&to_bytes(&src).unwrap()[..], &src[..]);
        let mut dst = vec![0u8; 256];
        copy_into(&mut dst, &src).unwrap();
        assert_eq!(dst, src);
        let mut out = vec![9u8; 8];
        let mut l = Landing::new(&mut out, false).unwrap();
        l.buf()[..4].copy_from_slice(&[1, 2, 3, 4]);
        l.land().unwrap();
        assert_eq!(out, [1, 2, 3, 4, 9, 9, 9, 9]);
    }
}
