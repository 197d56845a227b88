//! Automatic NCCL routing of the blocking collectives (`nccl` builds): hands checked buffers
//! to the engine's routed entry points, which take the communicator's decision
//! (`nexar::device::nccl::auto`). `Ok(true)`: the collective ran; `Ok(false)`: not routed,
//! the caller starts it as usual. Called after every argument check.
//!
//! Whether a call enters routing depends only on what MPI requires to match across ranks:
//! the operation (predefined ops only), the type signature (reductions run on its uniform
//! element type, [`Buf::reduce_type`]) and the packed length. So ranks describing the same
//! data with different datatypes (a contiguous derived type against its predefined element
//! type, say) still take the same branch: a rank whose layout is not dense runs the routed
//! call on packed host copies (the engine's per-call agreement then picks the staged path
//! for every rank) and unpacks the result.

use crate::args::{Buf, in_place};
use crate::errors::report::Result;
use nexar::{Comm, ReduceOp};
use std::ffi::c_void;

/// Writes the packed `result` into `b`'s layout (host or device memory).
fn unpack_into(b: &Buf, result: &[u8]) -> Result<()> {
    let mut t = b.recv_target();
    // SAFETY: `Buf::new` checked the buffer; writable per the MPI contract, and the caller
    // is blocked until this returns.
    unsafe {
        t.slice().copy_from_slice(result);
        t.finish(result.len())?;
    }
    Ok(())
}

/// The packed bytes of `b` in host memory.
fn packed(b: &Buf) -> Result<Vec<u8>> {
    // SAFETY: `Buf::new` checked the buffer; readable per the MPI contract.
    Ok(unsafe { b.send_bytes()? }.into_owned())
}

/// Which reduction [`reduction`] runs.
#[derive(Clone, Copy)]
pub(crate) enum Reduction {
    /// An allreduce: `rb` gets the reduction of every rank's `input` (`rb`'s size).
    All,
    /// A reduce_scatter with equal blocks: `input` holds every block, `rb` gets this rank's.
    ScatterBlock,
}

/// A blocking `kind` reduction of `input` (`rb`'s whole buffer when `sbuf` is
/// `MPI_IN_PLACE`) into `rb`.
pub(crate) fn reduction(
    c: &Comm,
    kind: Reduction,
    sbuf: *const c_void,
    input: &Buf,
    rb: &Buf,
    op: ReduceOp,
) -> Result<bool> {
    let dt = input.reduce_type(op)?;
    let count = rb.len / dt.size();
    // Only called below with checked, disjoint buffers of `count` elements (`count * size`
    // for a reduce_scatter's input, `recv` itself in place); the caller is blocked until
    // this returns.
    let run = |send: Option<*const u8>, recv: *mut u8| match kind {
        // SAFETY: as above.
        Reduction::All => c.block_on(unsafe { c.allreduce_routed(send, recv, count, dt, op) }),
        Reduction::ScatterBlock => {
            // SAFETY: as above.
            c.block_on(unsafe { c.reduce_scatter_block_routed(send, recv, count, dt, op) })
        }
    };
    if rb.is_dense() && input.is_dense() {
        // In place (allreduce), `input` is `rb` itself: dense alike.
        let send = (!in_place(sbuf)).then_some(input.ptr);
        return Ok(run(send, rb.ptr.cast_mut())?);
    }
    // Packed host copies: an allreduce runs in place on the input's, a reduce_scatter from
    // it into a packed result.
    let all = packed(input)?;
    let (send, mut v) = match kind {
        Reduction::All => (None, all),
        Reduction::ScatterBlock => (Some(all), vec![0; rb.len]),
    };
    if !run(send.as_deref().map(<[u8]>::as_ptr), v.as_mut_ptr())? {
        return Ok(false);
    }
    unpack_into(rb, &v[..rb.len])?;
    Ok(true)
}

/// A blocking bcast of `b` from `root` (moved as packed bytes).
pub(crate) fn bcast(c: &Comm, b: &Buf, root: u32) -> Result<bool> {
    if b.is_dense() {
        // SAFETY: a checked dense buffer of `b.len` bytes; the caller is blocked.
        return Ok(c.block_on(unsafe { c.bcast_routed(b.ptr.cast_mut(), b.len, root) })?);
    }
    let is_root = root == c.rank();
    let mut v = if is_root { packed(b)? } else { vec![0; b.len] };
    // SAFETY: `v` holds `b.len` bytes.
    if !c.block_on(unsafe { c.bcast_routed(v.as_mut_ptr(), v.len(), root) })? {
        return Ok(false);
    }
    if !is_root {
        unpack_into(b, &v)?;
    }
    Ok(true)
}

/// A blocking allgather of `sb` (`None`: `MPI_IN_PLACE`, this rank's block is in `rb`) into
/// `rb` (equal packed blocks, checked by the caller).
pub(crate) fn allgather(c: &Comm, sb: Option<&Buf>, rb: &Buf) -> Result<bool> {
    let block = rb.len / c.size() as usize;
    if rb.is_dense() && sb.is_none_or(Buf::is_dense) {
        let send = sb.map(|s| s.ptr);
        // SAFETY: checked, dense, disjoint buffers of `block` and `block * size` bytes.
        return Ok(c.block_on(unsafe { c.allgather_routed(send, rb.ptr.cast_mut(), block) })?);
    }
    let mine = match sb {
        Some(s) => packed(s)?,
        None => super::blocking::block(rb, c.rank(), c.size())?,
    };
    let mut v = vec![0; rb.len];
    // SAFETY: `mine` holds `block` bytes, `v` `block * size`.
    if !c.block_on(unsafe { c.allgather_routed(Some(mine.as_ptr()), v.as_mut_ptr(), block) })? {
        return Ok(false);
    }
    unpack_into(rb, &v)?;
    Ok(true)
}
