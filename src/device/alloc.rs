//! [`DeviceBuffer`]: a plain device (or managed) allocation for tests, examples and simple
//! programs that have no CUDA library of their own. Its copies are synchronous driver copies
//! that do not use nexar's staging, so tests can check the staged path against them.

use super::cuda::{checked, with_context};
use crate::error::{Error, ErrorKind, Result};
use cudarc::driver::sys;

/// Memory on a CUDA device, freed on drop.
#[derive(Debug)]
pub struct DeviceBuffer {
    ptr: u64,
    len: usize,
    ordinal: i32,
}

impl DeviceBuffer {
    /// Allocates `len` bytes (at least 1) of device memory on device `ordinal`.
    pub fn new(ordinal: i32, len: usize) -> Result<Self> {
        Self::alloc(ordinal, len, false)
    }

    /// Allocates `len` bytes (at least 1) of managed (unified) memory attached globally,
    /// preferring device `ordinal`.
    pub fn managed(ordinal: i32, len: usize) -> Result<Self> {
        Self::alloc(ordinal, len, true)
    }

    fn alloc(ordinal: i32, len: usize, managed: bool) -> Result<Self> {
        if ordinal < 0 || ordinal >= super::device_count() {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                format!(
                    "DeviceBuffer: no CUDA device {ordinal} (this machine has {})",
                    super::device_count()
                ),
            ));
        }
        let mut ptr = 0;
        with_context(ordinal, || {
            let bytes = len.max(1);
            // SAFETY: out-parameter; the device's context is current.
            let r = unsafe {
                if managed {
                    let global = sys::CUmemAttach_flags::CU_MEM_ATTACH_GLOBAL as u32;
                    sys::cuMemAllocManaged(&mut ptr, bytes, global)
                } else {
                    sys::cuMemAlloc_v2(&mut ptr, bytes)
                }
            };
            checked(r, "cuMemAlloc")
        })?;
        Ok(Self { ptr, len, ordinal })
    }

    /// The device address.
    pub fn ptr(&self) -> u64 {
        self.ptr
    }

    /// Size in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True if the buffer holds no bytes.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The owning device.
    pub fn ordinal(&self) -> i32 {
        self.ordinal
    }

    fn check_len(&self, n: usize, what: &str) -> Result<()> {
        if n != self.len {
            return Err(Error::new(
                ErrorKind::InvalidCount,
                format!(
                    "DeviceBuffer::{what}: {n} bytes for a buffer of {}",
                    self.len
                ),
            ));
        }
        Ok(())
    }

    /// Copies `src` (exactly [`DeviceBuffer::len`] bytes) to the device, synchronously.
    pub fn write(&mut self, src: &[u8]) -> Result<()> {
        self.check_len(src.len(), "write")?;
        with_context(self.ordinal, || {
            // SAFETY: both ranges hold `len` bytes.
            let r = unsafe { sys::cuMemcpyHtoD_v2(self.ptr, src.as_ptr().cast(), src.len()) };
            checked(r, "cuMemcpyHtoD")?;
            // A copy from pageable memory may return before its DMA is done; finish it.
            // SAFETY: synchronizes the current (primary) context.
            checked(unsafe { sys::cuCtxSynchronize() }, "cuCtxSynchronize")
        })
    }

    /// Copies the buffer (exactly [`DeviceBuffer::len`] bytes) into `dst`, synchronously.
    pub fn read(&self, dst: &mut [u8]) -> Result<()> {
        self.check_len(dst.len(), "read")?;
        with_context(self.ordinal, || {
            // SAFETY: both ranges hold `len` bytes.
            let r = unsafe { sys::cuMemcpyDtoH_v2(dst.as_mut_ptr().cast(), self.ptr, dst.len()) };
            checked(r, "cuMemcpyDtoH")
        })
    }

    /// The buffer as a slice of `T` to hand to nexar's operations (which detect device memory
    /// and never read it on the host).
    ///
    /// # Safety
    /// The caller must not read or write the slice on the host (for device memory it points at
    /// the GPU), and the length must be a whole number of `T`s at a suitable alignment (device
    /// allocations are 256-byte aligned).
    pub unsafe fn as_slice_mut<T: bytemuck::Pod>(&mut self) -> &mut [T] {
        let n = self.len / std::mem::size_of::<T>();
        if n == 0 {
            return &mut [];
        }
        // SAFETY: per the contract, used only as an address range handed to nexar.
        unsafe { std::slice::from_raw_parts_mut(self.ptr as *mut T, n) }
    }
}

impl Drop for DeviceBuffer {
    fn drop(&mut self) {
        let ptr = self.ptr;
        let _ = with_context(self.ordinal, || {
            // SAFETY: allocated by this value and freed once.
            checked(unsafe { sys::cuMemFree_v2(ptr) }, "cuMemFree")
        });
    }
}
