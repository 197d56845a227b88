//! Automatic NCCL routing of the blocking collectives (`nccl` builds): hands the checked
//! buffers to the engine's routed entry points, which take the communicator's decision
//! (`nexar::device::nccl::auto`). `Ok(true)`: the collective ran; `Ok(false)`: not routed,
//! the caller starts it as usual. Called after every argument check, so bad arguments give
//! the same errors as without the feature.

use crate::buffers::is_in_place;
use nexar::{Comm, Datatype, ReduceOp, Result};
use std::ffi::c_void;

/// `send` as the engine's optional input (`None`: `NEXAR_IN_PLACE`).
fn source(send: *const c_void) -> Option<*const u8> {
    (!is_in_place(send)).then_some(send.cast())
}

/// Which reduction [`reduction`] runs.
#[derive(Clone, Copy)]
pub enum Reduction {
    /// An allreduce of `count` elements.
    All,
    /// A reduce_scatter with `count` elements per rank (in place: `recv` holds the whole
    /// input).
    ScatterBlock,
}

/// A blocking `kind` reduction (buffers checked by the caller).
pub fn reduction(
    c: &Comm,
    kind: Reduction,
    send: *const c_void,
    recv: *mut c_void,
    count: usize,
    dt: Datatype,
    op: ReduceOp,
) -> Result<bool> {
    let (send, recv) = (source(send), recv.cast());
    match kind {
        // SAFETY: checked buffers that do not overlap (the C contract); the caller is
        // blocked until the call returns.
        Reduction::All => c.block_on(unsafe { c.allreduce_routed(send, recv, count, dt, op) }),
        Reduction::ScatterBlock => {
            // SAFETY: as above.
            c.block_on(unsafe { c.reduce_scatter_block_routed(send, recv, count, dt, op) })
        }
    }
}

/// A blocking bcast of `buf` (checked by the caller; moved as bytes).
pub fn bcast(c: &Comm, buf: &mut [u8], root: u32) -> Result<bool> {
    // SAFETY: `buf` is the caller's checked buffer, borrowed for the call.
    c.block_on(unsafe { c.bcast_routed(buf.as_mut_ptr(), buf.len(), root) })
}

/// A blocking allgather of `block` bytes per rank into `recv` (`own`: this rank's checked
/// send block, `None` in place).
pub fn allgather(c: &Comm, own: Option<&[u8]>, recv: &mut [u8], block: usize) -> Result<bool> {
    let send = own.map(<[u8]>::as_ptr);
    // SAFETY: checked, disjoint buffers of `block` and `block * size` bytes, borrowed for
    // the call.
    c.block_on(unsafe { c.allgather_routed(send, recv.as_mut_ptr(), block) })
}
