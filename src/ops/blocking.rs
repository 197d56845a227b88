//! Blocking twins of the async operations: `x_blocking(args)` runs `x(args)` to completion on
//! the calling thread. Progress on the wire happens in the engine's runtime, so these may be
//! called from any thread, including several at once; do not call them from inside an async
//! task (use the async form there).

use super::{Source, Status, TagMatch};
use crate::ReduceOp;
use crate::comm::Comm;
use crate::element::Element;
use crate::error::Result;

macro_rules! blocking {
    ($(
        $(#[$doc:meta])*
        fn $name:ident => $async_name:ident $(<$($g:ident: $b:path),*>)? ($($arg:ident: $ty:ty),*) -> $ret:ty;
    )*) => {
        impl Comm {$(
            $(#[$doc])*
            #[allow(clippy::too_many_arguments)]
            pub fn $name $(<$($g: $b),*>)? (&self, $($arg: $ty),*) -> $ret {
                self.block_on(self.$async_name($($arg),*))
            }
        )*}
    };
}

impl Comm {
    /// Blocking [`Comm::send`]: returns once `data` may be reused. A large message to a
    /// shared-memory peer is read by the receiver straight out of `data` (see
    /// [`Comm::send_bytes_blocking`]).
    pub fn send_blocking<T: Element>(&self, data: &[T], dest: u32, tag: i32) -> Result<()> {
        self.send_bytes_blocking(super::bytes_of(data), dest, tag)
    }

    /// Blocking [`Comm::recv`]: the message is taken as it arrives, without posting a receive
    /// (see [`Comm::recv_into_blocking`]). A larger message fills `buf` and fails with
    /// [`crate::ErrorKind::Truncated`].
    pub fn recv_blocking<T: Element>(
        &self,
        buf: &mut [T],
        source: Source,
        tag: TagMatch,
    ) -> Result<Status> {
        let capacity = std::mem::size_of_val(buf);
        let out = self.recv_into_blocking(super::bytes_of_mut(buf), source, tag)?;
        if out.truncated {
            return Err(super::p2p::truncation_error(&out.status, capacity));
        }
        Ok(out.status)
    }
}

blocking! {
    /// Blocking [`Comm::probe`].
    fn probe_blocking => probe(source: Source, tag: TagMatch) -> Result<Status>;
    /// Blocking [`Comm::sendrecv`].
    fn sendrecv_blocking => sendrecv<T: Element, U: Element>(send: &[T], dest: u32, send_tag: i32, recv: &mut [U], source: Source, recv_tag: TagMatch) -> Result<Status>;
    /// Blocking [`Comm::barrier`].
    fn barrier_blocking => barrier() -> Result<()>;
    /// Blocking [`Comm::bcast`].
    fn bcast_blocking => bcast<T: Element>(buf: &mut [T], root: u32) -> Result<()>;
    /// Blocking [`Comm::reduce`].
    fn reduce_blocking => reduce<T: Element>(send: &[T], recv: &mut [T], op: ReduceOp, root: u32) -> Result<()>;
    /// Blocking [`Comm::allreduce`].
    fn allreduce_blocking => allreduce<T: Element>(buf: &mut [T], op: ReduceOp) -> Result<()>;
    /// Blocking [`Comm::allgather`].
    fn allgather_blocking => allgather<T: Element>(send: &[T], recv: &mut [T]) -> Result<()>;
    /// Blocking [`Comm::allgatherv`].
    fn allgatherv_blocking => allgatherv<T: Element>(send: &[T], recv: &mut [T], counts: &[usize], displs: Option<&[usize]>) -> Result<()>;
    /// Blocking [`Comm::gather`].
    fn gather_blocking => gather<T: Element>(send: &[T], recv: &mut [T], root: u32) -> Result<()>;
    /// Blocking [`Comm::gatherv`].
    fn gatherv_blocking => gatherv<T: Element>(send: &[T], recv: &mut [T], counts: &[usize], displs: Option<&[usize]>, root: u32) -> Result<()>;
    /// Blocking [`Comm::scatter`].
    fn scatter_blocking => scatter<T: Element>(send: &[T], recv: &mut [T], root: u32) -> Result<()>;
    /// Blocking [`Comm::scatterv`].
    fn scatterv_blocking => scatterv<T: Element>(send: &[T], counts: &[usize], displs: Option<&[usize]>, recv: &mut [T], root: u32) -> Result<()>;
    /// Blocking [`Comm::alltoall`].
    fn alltoall_blocking => alltoall<T: Element>(send: &[T], recv: &mut [T]) -> Result<()>;
    /// Blocking [`Comm::alltoallv`].
    fn alltoallv_blocking => alltoallv<T: Element>(send: &[T], send_counts: &[usize], send_displs: Option<&[usize]>, recv: &mut [T], recv_counts: &[usize], recv_displs: Option<&[usize]>) -> Result<()>;
    /// Blocking [`Comm::reduce_scatter`].
    fn reduce_scatter_blocking => reduce_scatter<T: Element>(send: &[T], recv: &mut [T], counts: &[usize], op: ReduceOp) -> Result<()>;
    /// Blocking [`Comm::reduce_scatter_block`].
    fn reduce_scatter_block_blocking => reduce_scatter_block<T: Element>(send: &[T], recv: &mut [T], op: ReduceOp) -> Result<()>;
    /// Blocking [`Comm::scan`].
    fn scan_blocking => scan<T: Element>(send: &[T], recv: &mut [T], op: ReduceOp) -> Result<()>;
    /// Blocking [`Comm::exscan`].
    fn exscan_blocking => exscan<T: Element>(send: &[T], recv: &mut [T], op: ReduceOp) -> Result<()>;
    /// Blocking [`Comm::dup`].
    fn dup_blocking => dup() -> Result<Comm>;
    /// Blocking [`Comm::intercomm_create`].
    fn intercomm_create_blocking => intercomm_create(local_leader: u32, peer: Option<&Comm>, remote_leader: u32, tag: i32) -> Result<Comm>;
    /// Blocking [`Comm::inter_create`].
    fn inter_create_blocking => inter_create(local: &[u32]) -> Result<Option<Comm>>;
    /// Blocking [`Comm::intercomm_merge`].
    fn intercomm_merge_blocking => intercomm_merge(high: bool) -> Result<Comm>;
    /// Blocking [`Comm::split`].
    fn split_blocking => split(color: Option<u32>, key: i32) -> Result<Option<Comm>>;
    /// Blocking [`Comm::split_by_host`].
    fn split_by_host_blocking => split_by_host(key: i32) -> Result<Comm>;
}
