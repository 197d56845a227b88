//! The engine's collectives without the NCCL hook: what the typed `Comm` collectives did
//! before automatic routing. The hierarchical communicator's own rounds (set-up, per-call
//! agreement, the staged fallback, the leaders' exchange) use these, so routing never recurses
//! and a sub-communicator made for NCCL never sets up NCCL itself.

use crate::comm::Comm;
use crate::element::Element;
use crate::error::Result;
use crate::ops::{bytes_of, bytes_of_mut};
use nexar_proto::ReduceOp;

/// [`Comm::allreduce`] without routing.
pub(crate) async fn allreduce<T: Element>(c: &Comm, buf: &mut [T], op: ReduceOp) -> Result<()> {
    op.check(T::DATATYPE).map_err(crate::Error::from)?;
    let data = bytes_of(buf);
    // SAFETY: `buf` stays borrowed until the collective has finished or been dropped (its
    // drop waits for the peers), as the borrowed start requires (as in `Comm::allreduce`).
    let p = unsafe {
        c.start_allreduce_borrowed(
            data.as_ptr(),
            data.len(),
            crate::Reducer::builtin(op, T::DATATYPE),
        )?
    };
    p.finish_into(bytes_of_mut(buf)).await
}

/// [`Comm::bcast`] without routing.
pub(crate) async fn bcast<T: Element>(c: &Comm, buf: &mut [T], root: u32) -> Result<()> {
    let p = c.start_bcast(bytes_of(buf), root)?;
    p.finish_into(bytes_of_mut(buf)).await
}

/// [`Comm::allgather`] without routing.
pub(crate) async fn allgather<T: Element>(c: &Comm, send: &[T], recv: &mut [T]) -> Result<()> {
    let p = c.start_allgather(bytes_of(send), T::DATATYPE)?;
    p.finish_into(bytes_of_mut(recv)).await
}

/// [`Comm::reduce_scatter_block`] without routing.
pub(crate) async fn reduce_scatter_block<T: Element>(
    c: &Comm,
    send: &[T],
    recv: &mut [T],
    op: ReduceOp,
) -> Result<()> {
    let counts = vec![recv.len(); c.size() as usize];
    let p = c.start_reduce_scatter(bytes_of(send), &counts, T::DATATYPE, op)?;
    p.finish_into(bytes_of_mut(recv)).await
}
