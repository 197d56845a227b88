//! Typed async collectives: slices of [`Element`]s in, results written in place.
//!
//! Every function is collective: each member must call it, in the same order relative to other
//! collectives on the communicator, with matching arguments (the same root, op, and compatible
//! counts). Arguments that are wrong on this rank fail here without communicating.

use super::{bytes_of, bytes_of_mut};
use crate::ReduceOp;
use crate::comm::Comm;
#[cfg(feature = "nccl")]
use crate::device::nccl::auto::routed;
use crate::element::Element;
use crate::error::{Error, ErrorKind, Result};
#[cfg(feature = "nccl")]
use nexar_proto::select::plan::Coll;

fn elems_total(what: &str, per_rank: usize, n: u32) -> Result<usize> {
    per_rank.checked_mul(n as usize).ok_or_else(|| {
        Error::new(
            ErrorKind::InvalidCount,
            format!("{what}: total count overflows"),
        )
    })
}

impl Comm {
    /// Blocks until every member has entered the barrier.
    pub async fn barrier(&self) -> Result<()> {
        self.start_barrier()?.finish_into(&mut []).await
    }

    /// Copies `buf` from `root` to every member's `buf` (same length everywhere).
    pub async fn bcast<T: Element>(&self, buf: &mut [T], root: u32) -> Result<()> {
        #[cfg(feature = "nccl")]
        if root < self.size()
            && let Some(h) = routed(
                self,
                Coll::Bcast,
                bytes_of(buf).len(),
                &[buf.as_ptr().cast()],
            )
            .await?
        {
            return h.bcast(self, buf, root).await;
        }
        let p = self.start_bcast(bytes_of(buf), root)?;
        p.finish_into(bytes_of_mut(buf)).await
    }

    /// Reduces every member's `send` with `op` into `recv` at `root` (`recv` must have
    /// `send.len()` elements at the root; it is ignored elsewhere).
    pub async fn reduce<T: Element>(
        &self,
        send: &[T],
        recv: &mut [T],
        op: ReduceOp,
        root: u32,
    ) -> Result<()> {
        let p = self.start_reduce(bytes_of(send), T::DATATYPE, op, root)?;
        p.finish_into(bytes_of_mut(recv)).await
    }

    /// Reduces `buf` element-wise with `op` across all members; every member gets the result
    /// in `buf`, bitwise identical on every rank.
    pub async fn allreduce<T: Element>(&self, buf: &mut [T], op: ReduceOp) -> Result<()> {
        op.check(T::DATATYPE).map_err(crate::Error::from)?;
        #[cfg(feature = "nccl")]
        if let Some(h) = routed(
            self,
            Coll::Allreduce,
            bytes_of(buf).len(),
            &[buf.as_ptr().cast()],
        )
        .await?
        {
            return h.allreduce(self, buf, op).await;
        }
        let data = bytes_of(buf);
        // In place and not copied: `buf` stays borrowed until the collective has finished or
        // been dropped (its drop waits for the peers), as the borrowed start requires.
        // SAFETY: see above.
        let p = unsafe {
            self.start_allreduce_borrowed(
                data.as_ptr(),
                data.len(),
                crate::Reducer::builtin(op, T::DATATYPE),
            )?
        };
        p.finish_into(bytes_of_mut(buf)).await
    }

    pub(crate) async fn allgather_bytes(&self, send: &[u8], recv: &mut [u8]) -> Result<()> {
        self.start_allgather(send, nexar_proto::Datatype::U8)?
            .finish_into(recv)
            .await
    }

    /// Gathers every member's `send` (equal lengths) into `recv` on every member, in rank order
    /// (`recv.len() == send.len() * size`).
    pub async fn allgather<T: Element>(&self, send: &[T], recv: &mut [T]) -> Result<()> {
        let _total = elems_total("allgather", send.len(), self.size())?;
        #[cfg(feature = "nccl")]
        if recv.len() == _total
            && let Some(h) = routed(
                self,
                Coll::Allgather,
                bytes_of(recv).len(),
                &[send.as_ptr().cast(), recv.as_ptr().cast()],
            )
            .await?
        {
            return h.allgather(self, send, recv).await;
        }
        let p = self.start_allgather(bytes_of(send), T::DATATYPE)?;
        p.finish_into(bytes_of_mut(recv)).await
    }

    /// Gathers variable-sized blocks on every member: rank `i`'s `counts[i]` elements land at
    /// `displs[i]` in `recv` (packed in rank order when `displs` is `None`).
    pub async fn allgatherv<T: Element>(
        &self,
        send: &[T],
        recv: &mut [T],
        counts: &[usize],
        displs: Option<&[usize]>,
    ) -> Result<()> {
        let p = self.start_allgatherv(
            bytes_of(send),
            T::DATATYPE,
            counts,
            displs,
            std::mem::size_of_val(recv),
        )?;
        p.finish_into(bytes_of_mut(recv)).await
    }

    /// Gathers every member's `send` (equal lengths) into `recv` at `root`, in rank order.
    pub async fn gather<T: Element>(&self, send: &[T], recv: &mut [T], root: u32) -> Result<()> {
        let p = self.start_gather(bytes_of(send), T::DATATYPE, root)?;
        p.finish_into(bytes_of_mut(recv)).await
    }

    /// Gathers variable-sized blocks at `root`; `counts` and `displs` are read at the root only.
    pub async fn gatherv<T: Element>(
        &self,
        send: &[T],
        recv: &mut [T],
        counts: &[usize],
        displs: Option<&[usize]>,
        root: u32,
    ) -> Result<()> {
        let p = self.start_gatherv(
            bytes_of(send),
            T::DATATYPE,
            counts,
            displs,
            std::mem::size_of_val(recv),
            root,
        )?;
        p.finish_into(bytes_of_mut(recv)).await
    }

    /// Splits the root's `send` into `size` equal blocks; member `i` receives block `i` in
    /// `recv`. `send` is read at the root only.
    pub async fn scatter<T: Element>(&self, send: &[T], recv: &mut [T], root: u32) -> Result<()> {
        let p = self.start_scatter(
            bytes_of(send),
            T::DATATYPE,
            std::mem::size_of_val(recv),
            root,
        )?;
        p.finish_into(bytes_of_mut(recv)).await
    }

    /// Scatters variable-sized blocks from `root`: member `i` receives `counts[i]` elements from
    /// `displs[i]` of the root's `send`. `send`, `counts` and `displs` are read at the root only.
    pub async fn scatterv<T: Element>(
        &self,
        send: &[T],
        counts: &[usize],
        displs: Option<&[usize]>,
        recv: &mut [T],
        root: u32,
    ) -> Result<()> {
        let p = self.start_scatterv(
            bytes_of(send),
            T::DATATYPE,
            counts,
            displs,
            std::mem::size_of_val(recv),
            root,
        )?;
        p.finish_into(bytes_of_mut(recv)).await
    }

    /// Every member sends block `j` of `send` to member `j` and receives block `i` of `recv`
    /// from member `i` (equal blocks; `send.len() == recv.len()`, divisible by size).
    pub async fn alltoall<T: Element>(&self, send: &[T], recv: &mut [T]) -> Result<()> {
        let p = self.start_alltoall(bytes_of(send), T::DATATYPE)?;
        p.finish_into(bytes_of_mut(recv)).await
    }

    /// Alltoall with per-peer counts and displacements (elements).
    #[allow(clippy::too_many_arguments)]
    pub async fn alltoallv<T: Element>(
        &self,
        send: &[T],
        send_counts: &[usize],
        send_displs: Option<&[usize]>,
        recv: &mut [T],
        recv_counts: &[usize],
        recv_displs: Option<&[usize]>,
    ) -> Result<()> {
        let p = self.start_alltoallv(
            bytes_of(send),
            send_counts,
            send_displs,
            T::DATATYPE,
            recv_counts,
            recv_displs,
            std::mem::size_of_val(recv),
        )?;
        p.finish_into(bytes_of_mut(recv)).await
    }

    /// Reduces `send` (`sum(counts)` elements) across members with `op`; member `i` receives
    /// block `i` (`counts[i]` elements) in `recv`.
    pub async fn reduce_scatter<T: Element>(
        &self,
        send: &[T],
        recv: &mut [T],
        counts: &[usize],
        op: ReduceOp,
    ) -> Result<()> {
        // Equal blocks only (the counts are the same on every rank, so is the choice).
        #[cfg(feature = "nccl")]
        if crate::device::nccl::auto::equal_blocks(counts, send.len(), recv.len(), self.size())
            && op.check(T::DATATYPE).is_ok()
            && let Some(h) = routed(
                self,
                Coll::ReduceScatter,
                bytes_of(send).len(),
                &[send.as_ptr().cast(), recv.as_ptr().cast()],
            )
            .await?
        {
            return h.reduce_scatter(self, send, recv, op).await;
        }
        let p = self.start_reduce_scatter(bytes_of(send), counts, T::DATATYPE, op)?;
        p.finish_into(bytes_of_mut(recv)).await
    }

    /// [`Comm::reduce_scatter`] with equal blocks of `recv.len()` elements.
    pub async fn reduce_scatter_block<T: Element>(
        &self,
        send: &[T],
        recv: &mut [T],
        op: ReduceOp,
    ) -> Result<()> {
        let counts = vec![recv.len(); self.size() as usize];
        elems_total("reduce_scatter_block", recv.len(), self.size())?;
        self.reduce_scatter(send, recv, &counts, op).await
    }

    /// Inclusive prefix reduction: member `r` gets `send_0 op ... op send_r` in `recv`.
    pub async fn scan<T: Element>(&self, send: &[T], recv: &mut [T], op: ReduceOp) -> Result<()> {
        let p = self.start_scan(bytes_of(send), T::DATATYPE, op, false)?;
        p.finish_into(bytes_of_mut(recv)).await
    }

    /// Exclusive prefix reduction: member `r > 0` gets `send_0 op ... op send_{r-1}`; rank 0's
    /// `recv` is left untouched.
    pub async fn exscan<T: Element>(&self, send: &[T], recv: &mut [T], op: ReduceOp) -> Result<()> {
        let p = self.start_scan(bytes_of(send), T::DATATYPE, op, true)?;
        p.finish_into(bytes_of_mut(recv)).await
    }
}
