//! NCCL inside a host (cargo feature `nccl`): a hierarchical allreduce / bcast / allgather /
//! reduce_scatter for device buffers.
//!
//! `NcclHier` runs NCCL among the ranks of one host (one distinct GPU per rank; the NCCL
//! unique id travels by a nexar bcast on the host's sub-communicator), nexar between hosts
//! (the host leaders, staging device memory as every CUDA-aware call does), and NCCL inside
//! each host again. It is chosen when the feature is on, `libnccl` loads (at run time: nothing
//! links it at build time), every local rank has its own GPU and the call's buffers are on
//! that GPU; otherwise the call takes the staged CUDA path, and the reason
//! ([`select::Fallback`]) is logged once at info level. All ranks agree on the choice (one
//! byte-sized allreduce per call), so mixed device and host ranks stay matched.
//!
//! The engine's own collectives use it automatically ([`auto`]): a communicator decides on
//! its first allreduce / bcast / allgather / reduce_scatter and caches the outcome
//! ([`crate::Comm::nccl_status`]).

pub mod auto;
pub mod select;

#[cfg(feature = "nccl")]
mod hier;
#[cfg(feature = "nccl")]
mod init;
#[cfg(feature = "nccl")]
mod plain;
#[cfg(feature = "nccl")]
mod untyped;

#[cfg(feature = "nccl")]
pub use hier::NcclHier;
#[cfg(feature = "nccl")]
pub use init::{InitPoll, poll_until};

pub use auto::{NcclState, NcclStatus};
pub use select::Fallback;

/// Logs `why` at info level, once per kind of reason per process.
pub fn log_fallback(why: &Fallback) {
    use std::sync::atomic::{AtomicU32, Ordering};
    static LOGGED: AtomicU32 = AtomicU32::new(0);
    let bit = 1u32 << why.code();
    if LOGGED.fetch_or(bit, Ordering::Relaxed) & bit == 0 {
        tracing::info!("nexar: NCCL not used, staged CUDA path instead: {why}");
    }
}
