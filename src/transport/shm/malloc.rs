//! Keeps large buffers' pages mapped between messages.
//!
//! Every large message arrives in a freshly allocated buffer (the engine owns received
//! payloads). With glibc's defaults a buffer of many megabytes is `mmap`ed and returned to the
//! kernel on free, or the heap is trimmed, so each message pays a page fault per 4 KiB page;
//! profiles of 16 MiB allreduce show that as the largest cost. The shared-memory and QUIC
//! transports raise glibc's mmap and trim thresholds once so that freed buffers are reused warm
//! (memory stays with the process, as MPI libraries' registration caches do).

/// Largest value glibc accepts for `M_MMAP_THRESHOLD` on 64-bit targets.
const MMAP_THRESHOLD: i32 = 32 << 20;
/// Free memory at the top of the heap kept before trimming.
const TRIM_THRESHOLD: i32 = 256 << 20;

/// Applies the thresholds (once per process; a no-op off glibc).
pub fn keep_large_buffers_warm() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            // SAFETY: mallopt only changes allocator tunables; it is thread-safe in glibc.
            unsafe {
                libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
                libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD);
            }
        });
    }
}
