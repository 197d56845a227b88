//! The starts a binding calls with the caller's raw buffers and a [`Mode`], for the four
//! collectives NCCL can run: the destination is given up front, and a blocking call may be
//! sent through NCCL when the plan says so (`device::nccl`, which asks
//! `nexar_proto::select::plan`), so no binding routes anything itself.
//!
//! Every pointer is the caller's, valid for the stated length until the returned collective
//! finishes (the functions' safety contracts); `None` as the input means "in place": the
//! input is the receive buffer.

use super::collectives::PendingCollective;
#[cfg(feature = "nccl")]
use super::collectives::Work;
use super::dest::{Dest, Mode};
use crate::comm::Comm;
use crate::error::{Error, ErrorKind, Result};
use nexar_proto::{Datatype, ReduceOp, Reducer};

/// `count` elements of `dt` in bytes, or an error naming `what`.
fn bytes(count: usize, dt: Datatype, what: &str) -> Result<usize> {
    count
        .checked_mul(dt.size())
        .ok_or_else(|| Error::new(ErrorKind::InvalidCount, format!("{what}: size overflows")))
}

/// `len` bytes at `ptr` as a slice (empty, whatever `ptr` is, when `len` is 0).
///
/// # Safety
/// `ptr` must be valid for reads of `len` bytes for `'a`.
unsafe fn view<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if len == 0 {
        return &[];
    }
    // SAFETY: per the contract.
    unsafe { std::slice::from_raw_parts(ptr, len) }
}

impl Comm {
    /// A collective already complete (NCCL ran it).
    #[cfg(feature = "nccl")]
    fn done(&self, recv_len: usize) -> PendingCollective {
        self.pending(Work::Done, Some(recv_len))
    }

    /// Starts an allreduce of `count` elements of `dt` with `op` from `send` (`None`: in place)
    /// into the `count` elements at `recv`.
    ///
    /// # Safety
    /// `recv` must be valid for reads and writes of `count` elements, `send` (if given) for
    /// reads of `count` elements, the two must not overlap, and neither may be touched by
    /// anyone else until the returned collective has finished or been dropped; with
    /// [`Mode::Request`] `send` is copied before this returns.
    pub unsafe fn start_allreduce_to(
        &self,
        send: Option<*const u8>,
        recv: *mut u8,
        count: usize,
        dt: Datatype,
        op: ReduceOp,
        mode: Mode,
    ) -> Result<PendingCollective> {
        op.check(dt).map_err(Error::from)?;
        let len = bytes(count, dt, "allreduce")?;
        #[cfg(feature = "nccl")]
        if mode == Mode::Blocking {
            // SAFETY: per this function's contract.
            let routed = unsafe { self.allreduce_routed(send, recv, count, dt, op) };
            if self.block_on(routed)? {
                return Ok(self.done(len));
            }
        }
        let src = send.unwrap_or(recv);
        let p = match mode {
            // SAFETY: `src` is left alone until the collective finishes (the contract).
            Mode::Blocking => unsafe {
                self.start_allreduce_borrowed(src, len, Reducer::builtin(op, dt))?
            },
            // SAFETY: valid for `len` bytes of reads (the contract); copied by the start.
            Mode::Request => self.start_allreduce(unsafe { view(src, len) }, dt, op)?,
        };
        // SAFETY: `recv` is the caller's for `len` bytes until the call finishes.
        Ok(p.to(unsafe { Dest::caller(recv, len) }))
    }

    /// Starts a bcast of the `len` bytes at `buf` from `root`.
    ///
    /// # Safety
    /// `buf` must be valid for reads and writes of `len` bytes, untouched by anyone else until
    /// the returned collective has finished or been dropped.
    pub unsafe fn start_bcast_to(
        &self,
        buf: *mut u8,
        len: usize,
        root: u32,
        mode: Mode,
    ) -> Result<PendingCollective> {
        #[cfg(feature = "nccl")]
        if mode == Mode::Blocking {
            // SAFETY: per this function's contract.
            let routed = unsafe { self.bcast_routed(buf, len, root) };
            if self.block_on(routed)? {
                return Ok(self.done(len));
            }
        }
        let _ = mode;
        // SAFETY: as above; the start copies the root's data.
        let p = self.start_bcast(unsafe { view(buf, len) }, root)?;
        // SAFETY: as above.
        Ok(p.to(unsafe { Dest::caller(buf, len) }))
    }

    /// Starts an allgather of `count` elements of `dt` per rank from `send` (`None`: in
    /// place, this rank's block already at its place in `recv`) into `recv` (`count * size`
    /// elements). The own block is copied once, by the start.
    ///
    /// # Safety
    /// As for [`Comm::start_allreduce_to`], with `recv` holding `count * size` elements.
    pub unsafe fn start_allgather_to(
        &self,
        send: Option<*const u8>,
        recv: *mut u8,
        count: usize,
        dt: Datatype,
        mode: Mode,
    ) -> Result<PendingCollective> {
        let block = bytes(count, dt, "allgather")?;
        let total = block
            .checked_mul(self.size() as usize)
            .ok_or_else(|| Error::new(ErrorKind::InvalidCount, "allgather: size overflows"))?;
        #[cfg(feature = "nccl")]
        if mode == Mode::Blocking {
            // SAFETY: per this function's contract.
            let routed = unsafe { self.allgather_routed(send, recv, block) };
            if self.block_on(routed)? {
                return Ok(self.done(total));
            }
        }
        let _ = mode;
        // In place, this rank's block is already in `recv`, where the result will go: the
        // start copies it before anything is written there.
        // SAFETY: `recv` spans `total` bytes (the contract); the own block lies inside it.
        let own = send.unwrap_or_else(|| unsafe { recv.add(self.rank() as usize * block) });
        // SAFETY: `own` is valid for `block` bytes of reads (the contract).
        let p = self.start_allgather(unsafe { view(own, block) }, dt)?;
        // SAFETY: as above.
        Ok(p.to(unsafe { Dest::caller(recv, total) }))
    }

    /// Starts a reduce_scatter of `send` (`None`: in place, the input is `recv`), whose rank
    /// `i` receives `counts[i]` elements of `dt` reduced with `op` at `recv`.
    ///
    /// # Safety
    /// `send` (or, in place, `recv`) must be valid for reads of `sum(counts)` elements and
    /// `recv` for writes of this rank's block (of `sum(counts)` in place), not overlapping
    /// and untouched by anyone else until the returned collective has finished or been
    /// dropped.
    pub unsafe fn start_reduce_scatter_to(
        &self,
        send: Option<*const u8>,
        recv: *mut u8,
        counts: &[usize],
        dt: Datatype,
        op: ReduceOp,
        mode: Mode,
    ) -> Result<PendingCollective> {
        op.check(dt).map_err(Error::from)?;
        let total = counts.iter().try_fold(0usize, |a, &c| a.checked_add(c));
        let total = bytes(total.unwrap_or(usize::MAX), dt, "reduce_scatter")?;
        let mine = bytes(
            counts.get(self.rank() as usize).copied().unwrap_or(0),
            dt,
            "reduce_scatter",
        )?;
        // NCCL has only equal blocks (the counts are the same on every rank, so is this).
        let equal = counts.len() == self.size() as usize && counts.iter().all(|&c| c == counts[0]);
        #[cfg(feature = "nccl")]
        if equal && mode == Mode::Blocking {
            // SAFETY: per this function's contract.
            let routed = unsafe { self.reduce_scatter_block_routed(send, recv, counts[0], dt, op) };
            if self.block_on(routed)? {
                return Ok(self.done(mine));
            }
        }
        let _ = (mode, equal);
        // SAFETY: valid for `total` bytes of reads (the contract); copied by the start.
        let data = unsafe { view(send.unwrap_or(recv), total) };
        let p = self.start_reduce_scatter(data, counts, dt, op)?;
        // SAFETY: `recv` holds this rank's block (the contract).
        Ok(p.to(unsafe { Dest::caller(recv, mine) }))
    }
}
