//! Non-blocking operations. Each starts at once (collectives take their place in the
//! communicator's order when called) and returns a [`Request`] that owns its buffers and hands
//! them back on completion.

use super::collectives::PendingCollective;
use super::{Source, Status, TagMatch, bytes_of, bytes_of_mut};
use crate::ReduceOp;
use crate::comm::Comm;
use crate::element::Element;
use crate::error::Result;
use crate::request::Request;

impl Comm {
    fn spawn_into<T: Element>(&self, p: PendingCollective, mut buf: Vec<T>) -> Request<Vec<T>> {
        Request::spawn(&self.inner.engine.runtime, async move {
            p.finish_into(bytes_of_mut(&mut buf)).await?;
            Ok(buf)
        })
    }

    /// Non-blocking send: the data is copied and queued, so the request is already complete.
    pub fn isend<T: Element>(&self, data: &[T], dest: u32, tag: i32) -> Result<Request<()>> {
        self.send_bytes(crate::device::to_bytes(bytes_of(data))?, dest, tag)?;
        Ok(Request::ready(Ok(())))
    }

    /// Non-blocking receive into `buf`, which comes back with the status. Posted now, so it
    /// matches before receives posted after it.
    pub fn irecv<T: Element>(
        &self,
        mut buf: Vec<T>,
        source: impl Into<Source>,
        tag: impl Into<TagMatch>,
    ) -> Result<Request<(Vec<T>, Status)>> {
        let bytes = bytes_of_mut(&mut buf);
        let (dst, cap) = (bytes.as_mut_ptr(), bytes.len());
        // SAFETY: the vector's heap buffer (host memory) stays where it is as the vector moves
        // into the request, which owns it and touches it only once the receive completed;
        // dropping the request withdraws the receive first (see `RecvInto`).
        let (recv, _) = unsafe { self.start_recv_into(dst, cap, source.into(), tag.into())? };
        let recv = recv.owning(buf);
        // Nothing runs on the runtime: the engine lands the message in the buffer and the
        // waiter observes it.
        Ok(Request::inline(async move {
            let (o, buf) = recv.await?;
            if o.truncated {
                return Err(super::p2p::truncation_error(&o.status, cap));
            }
            Ok((buf, o.status))
        }))
    }

    /// Non-blocking barrier.
    pub fn ibarrier(&self) -> Result<Request<()>> {
        let p = self.start_barrier()?;
        Ok(Request::spawn(&self.inner.engine.runtime, async move {
            p.finish_into(&mut []).await
        }))
    }

    /// Non-blocking broadcast of `buf` from `root`; the buffer comes back filled.
    pub fn ibcast<T: Element>(&self, buf: Vec<T>, root: u32) -> Result<Request<Vec<T>>> {
        let p = self.start_bcast(bytes_of(&buf), root)?;
        Ok(self.spawn_into(p, buf))
    }

    /// Non-blocking reduce to `root`: the root gets the reduction back, others their input.
    pub fn ireduce<T: Element>(
        &self,
        buf: Vec<T>,
        op: ReduceOp,
        root: u32,
    ) -> Result<Request<Vec<T>>> {
        let p = self.start_reduce(bytes_of(&buf), T::DATATYPE, op, root)?;
        Ok(self.spawn_into(p, buf))
    }

    /// Non-blocking allreduce; the buffer comes back holding the reduction.
    pub fn iallreduce<T: Element>(&self, buf: Vec<T>, op: ReduceOp) -> Result<Request<Vec<T>>> {
        let p = self.start_allreduce(bytes_of(&buf), T::DATATYPE, op)?;
        Ok(self.spawn_into(p, buf))
    }

    /// Non-blocking allgather; yields every member's block in rank order.
    pub fn iallgather<T: Element>(&self, send: &[T]) -> Result<Request<Vec<T>>> {
        let p = self.start_allgather(bytes_of(send), T::DATATYPE)?;
        let out = vec![T::zeroed(); send.len() * self.size() as usize];
        Ok(self.spawn_into(p, out))
    }

    /// Non-blocking alltoall (equal blocks); yields the received blocks in rank order.
    pub fn ialltoall<T: Element>(&self, send: &[T]) -> Result<Request<Vec<T>>> {
        let p = self.start_alltoall(bytes_of(send), T::DATATYPE)?;
        Ok(self.spawn_into(p, vec![T::zeroed(); send.len()]))
    }

    /// Non-blocking inclusive scan; yields this rank's prefix.
    pub fn iscan<T: Element>(&self, send: &[T], op: ReduceOp) -> Result<Request<Vec<T>>> {
        let p = self.start_scan(bytes_of(send), T::DATATYPE, op, false)?;
        Ok(self.spawn_into(p, send.to_vec()))
    }
}
