//! The CUDA driver side (feature `cuda`): loading the driver lazily, classifying pointers,
//! and the real copy engine of the staging pipeline (two streams, two pinned bounce buffers
//! per device, allocated on first use and kept for the life of the process).

use super::pipeline::{CopyEngine, SLOTS};
use super::{CHUNK, Memory};
use crate::error::{Error, ErrorKind, Result};
use cudarc::driver::sys;
use parking_lot::Mutex;
use std::ffi::c_void;
use std::sync::OnceLock;

/// Turns a driver status into a result naming the call.
fn check(r: sys::CUresult, what: &str) -> Result<()> {
    if r == sys::CUresult::CUDA_SUCCESS {
        Ok(())
    } else {
        Err(Error::new(
            ErrorKind::Internal,
            format!("CUDA {what} failed: {r:?}"),
        ))
    }
}

/// Whether `libcuda.so` loaded, initialized and reports at least one device; decided once.
pub(super) fn driver_ready() -> bool {
    static READY: OnceLock<bool> = OnceLock::new();
    *READY.get_or_init(|| {
        // SAFETY: only tries to open the library by its usual names.
        if !unsafe { sys::is_culib_present() } {
            tracing::debug!("cuda: libcuda.so not found; every buffer is treated as host memory");
            return false;
        }
        // SAFETY: cuInit with flags 0 is the documented first driver call.
        if let Err(e) = check(unsafe { sys::cuInit(0) }, "cuInit") {
            tracing::debug!("cuda: {e}; every buffer is treated as host memory");
            return false;
        }
        let mut n = 0;
        // SAFETY: writes one int.
        let r = check(unsafe { sys::cuDeviceGetCount(&mut n) }, "cuDeviceGetCount");
        if r.is_err() || n <= 0 {
            tracing::debug!("cuda: no device ({r:?}, count {n}); every buffer is host memory");
            return false;
        }
        tracing::debug!("cuda: driver loaded, {n} device(s)");
        true
    })
}

/// See [`super::classify`].
pub(super) fn classify(ptr: *const u8) -> Memory {
    if ptr.is_null() || !driver_ready() {
        return Memory::Host;
    }
    let mut attrs = [
        sys::CUpointer_attribute::CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
        sys::CUpointer_attribute::CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
        sys::CUpointer_attribute::CU_POINTER_ATTRIBUTE_IS_MANAGED,
    ];
    // Zeroed 8-byte cells: the driver writes an enum, an int and a bool into the low bytes.
    let mut vals = [0u64; 3];
    let mut data: [*mut c_void; 3] = [
        (&mut vals[0] as *mut u64).cast(),
        (&mut vals[1] as *mut u64).cast(),
        (&mut vals[2] as *mut u64).cast(),
    ];
    // SAFETY: three attributes, each with a writable cell large enough for its value.
    let r = unsafe {
        sys::cuPointerGetAttributes(3, attrs.as_mut_ptr(), data.as_mut_ptr(), ptr as u64)
    };
    // Unknown (plain host) memory is an error on old drivers and type 0 on new ones.
    if r != sys::CUresult::CUDA_SUCCESS {
        return Memory::Host;
    }
    let is_managed = vals[2] & 0xff != 0;
    let mem_type = vals[0] as u32;
    if is_managed {
        Memory::Managed
    } else if mem_type == sys::CUmemorytype::CU_MEMORYTYPE_DEVICE as u32 {
        Memory::Device {
            ordinal: vals[1] as u32 as i32,
        }
    } else {
        Memory::Host
    }
}

/// The copy engine of one device: its primary context, two streams and two
/// pinned bounce buffers of [`CHUNK`] bytes.
pub(super) struct CudaEngine {
    ordinal: i32,
    ctx: sys::CUcontext,
    streams: [sys::CUstream; SLOTS],
    bounce: [*mut u8; SLOTS],
}

// SAFETY: the driver handles and pinned buffers may be used from any thread once the context
// is made current there (with_engine does), and the registry's mutex serializes their use.
unsafe impl Send for CudaEngine {}

impl CudaEngine {
    fn create(ordinal: i32) -> Result<Self> {
        if !driver_ready() {
            return Err(Error::new(
                ErrorKind::Unsupported,
                format!("device {ordinal} memory, but no CUDA driver or device"),
            ));
        }
        let ctx = primary_context(ordinal)?;
        let _current = Current::enter(ctx)?;
        let mut streams = [std::ptr::null_mut(); SLOTS];
        let mut bounce = [std::ptr::null_mut(); SLOTS];
        for slot in 0..SLOTS {
            let mut p: *mut c_void = std::ptr::null_mut();
            // Blocking streams (not CU_STREAM_NON_BLOCKING): their copies wait for work the
            // caller queued on the legacy default stream (kernels, cudaMemcpy), as users of a
            // CUDA-aware library expect.
            let flags = sys::CUstream_flags::CU_STREAM_DEFAULT as u32;
            // SAFETY: out-parameters; the context is current.
            unsafe {
                check(
                    sys::cuStreamCreate(&mut streams[slot], flags),
                    "cuStreamCreate",
                )?;
                check(sys::cuMemHostAlloc(&mut p, CHUNK, 0), "cuMemHostAlloc")?;
            }
            bounce[slot] = p.cast();
        }
        tracing::debug!("cuda: staging engine for device {ordinal}: {SLOTS} x {CHUNK} B pinned");
        Ok(Self {
            ordinal,
            ctx,
            streams,
            bounce,
        })
    }
}

impl CopyEngine for CudaEngine {
    fn chunk(&self) -> usize {
        CHUNK
    }

    fn start_download(&mut self, slot: usize, src: u64, len: usize) -> Result<()> {
        // SAFETY: the bounce buffer holds CHUNK >= len bytes; the pipeline keeps one copy per
        // slot in flight; `src` is the caller's device range.
        check(
            unsafe {
                sys::cuMemcpyDtoHAsync_v2(self.bounce[slot].cast(), src, len, self.streams[slot])
            },
            "cuMemcpyDtoHAsync",
        )
    }

    fn start_upload(&mut self, slot: usize, dst: u64, len: usize) -> Result<()> {
        // SAFETY: as in start_download, in the other direction.
        check(
            unsafe {
                sys::cuMemcpyHtoDAsync_v2(dst, self.bounce[slot].cast(), len, self.streams[slot])
            },
            "cuMemcpyHtoDAsync",
        )
    }

    fn wait(&mut self, slot: usize) -> Result<()> {
        // SAFETY: a stream of this engine's context.
        check(
            unsafe { sys::cuStreamSynchronize(self.streams[slot]) },
            "cuStreamSynchronize",
        )
    }

    fn bounce(&mut self, slot: usize) -> &mut [u8] {
        // SAFETY: a pinned allocation of CHUNK bytes owned by this engine; the pipeline only
        // touches it with no copy in flight, and `&mut self` makes the borrow exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.bounce[slot], CHUNK) }
    }
}

/// Makes a context current on this thread and restores the previous one on drop, so a
/// caller's own CUDA context is left as it was.
struct Current(sys::CUcontext);

impl Current {
    fn enter(ctx: sys::CUcontext) -> Result<Self> {
        let mut prev = std::ptr::null_mut();
        // SAFETY: out-parameter, then a context retained by this module.
        unsafe {
            check(sys::cuCtxGetCurrent(&mut prev), "cuCtxGetCurrent")?;
            check(sys::cuCtxSetCurrent(ctx), "cuCtxSetCurrent")?;
        }
        Ok(Self(prev))
    }
}

impl Drop for Current {
    fn drop(&mut self) {
        // SAFETY: restores the context that was current (possibly none) before `enter`.
        let _ = unsafe { sys::cuCtxSetCurrent(self.0) };
    }
}

/// Engines by device ordinal, created on first use; one staging at a time per process.
static ENGINES: Mutex<Vec<CudaEngine>> = Mutex::new(Vec::new());

/// Runs `f` with device `ordinal`'s engine, its context current on this thread.
pub(super) fn with_engine<R>(
    ordinal: i32,
    f: impl FnOnce(&mut CudaEngine) -> Result<R>,
) -> Result<R> {
    let mut engines = ENGINES.lock();
    let i = match engines.iter().position(|e| e.ordinal == ordinal) {
        Some(i) => i,
        None => {
            engines.push(CudaEngine::create(ordinal)?);
            engines.len() - 1
        }
    };
    let eng = &mut engines[i];
    let _current = Current::enter(eng.ctx)?;
    f(eng)
}

/// The primary context of device `ordinal`, retained once and kept for the process's life.
fn primary_context(ordinal: i32) -> Result<sys::CUcontext> {
    /// Retained contexts by ordinal (stored as addresses so the table is `Send`).
    static CONTEXTS: Mutex<Vec<(i32, usize)>> = Mutex::new(Vec::new());
    if !driver_ready() {
        return Err(Error::new(
            ErrorKind::Unsupported,
            format!("device {ordinal}: no CUDA driver or device on this machine"),
        ));
    }
    let mut table = CONTEXTS.lock();
    if let Some(&(_, c)) = table.iter().find(|(o, _)| *o == ordinal) {
        return Ok(c as sys::CUcontext);
    }
    let mut dev = 0;
    let mut ctx = std::ptr::null_mut();
    // SAFETY: out-parameters of the documented types.
    unsafe {
        check(sys::cuDeviceGet(&mut dev, ordinal), "cuDeviceGet")?;
        check(
            sys::cuDevicePrimaryCtxRetain(&mut ctx, dev),
            "cuDevicePrimaryCtxRetain",
        )?;
    }
    table.push((ordinal, ctx as usize));
    Ok(ctx)
}

/// See [`super::with_context`].
pub(super) fn with_context<R>(ordinal: i32, f: impl FnOnce() -> Result<R>) -> Result<R> {
    let _current = Current::enter(primary_context(ordinal)?)?;
    f()
}

/// See [`super::device_count`].
pub(super) fn device_count() -> i32 {
    if !driver_ready() {
        return 0;
    }
    let mut n = 0;
    // SAFETY: writes one int.
    let r = unsafe { sys::cuDeviceGetCount(&mut n) };
    if r == sys::CUresult::CUDA_SUCCESS {
        n
    } else {
        0
    }
}

/// Turns a driver status into a result naming the call (for [`super::alloc`]).
pub(super) fn checked(r: sys::CUresult, what: &str) -> Result<()> {
    check(r, what)
}
