//! The piece movement of the direct allreduce: reading the peers' inputs and writing the
//! finished block into their receive buffers with cross-memory attach (`process_vm_readv` /
//! `process_vm_writev`), and the errors a failed copy turns into.

use super::{DirectAllreduce, PIECE};
use crate::error::{Error, ErrorKind, Result};
use crate::transport::shm::cma;
use nexar_proto::Order;
use nexar_proto::partition::block_bytes;
use std::ops::Range;

impl DirectAllreduce {
    /// Block `b` of the vector, in bytes.
    pub(super) fn block(&self, b: usize) -> Range<usize> {
        let e = self.red.elem_size();
        block_bytes(self.data_len / e.max(1), self.n(), b, e)
    }

    /// An error for a failed read from comm rank `r` (its failure if the engine knows it).
    fn read_error(&self, r: usize, e: std::io::Error) -> Error {
        let w = self.world_of(r);
        if let Some(known) = self.comm.engine.failure_of(w) {
            return known;
        }
        if e.raw_os_error() == Some(libc::ESRCH) {
            let gone = Error::proc_failed(w, "its process is gone");
            return self.comm.engine.named_failure(gone);
        }
        Error::new(
            ErrorKind::Transport,
            format!("allreduce: reading rank {w}'s buffer failed: {e}"),
        )
    }

    /// An error for a failed write to comm rank `r`.
    fn write_error(&self, r: usize, e: std::io::Error) -> Error {
        self.read_error(r, e).context("writing the result")
    }

    /// Reduces block `me` into `out` (the same block of the receive buffer), in rank order,
    /// piece by piece, and writes each finished piece into every peer's receive buffer. The
    /// first peer's piece is read straight into `out` (rank 0 then folds its own piece in on
    /// the left), the others through a cache-sized scratch buffer: no memory-to-memory copy
    /// besides the cross-process ones.
    ///
    /// `in_place`: the input is the receive buffer itself, so `out` also holds this rank's
    /// operand, which is saved piece by piece (in cache) before the piece is overwritten. No
    /// reference to the input is made then, since it aliases `out`.
    pub(super) fn reduce_mine(&self, out: &mut [u8], in_place: bool) -> Result<()> {
        let me = self.me();
        let block = self.block(me);
        let e = self.red.elem_size().max(1);
        let piece = (PIECE / e).max(1) * e;
        let mut scratch = vec![0u8; piece.min(block.len())];
        let mut saved = vec![0u8; if in_place { scratch.len() } else { 0 }];
        let first = if me == 0 { 1 } else { 0 };
        let data = if in_place { &[][..] } else { self.data() };
        let peer = |r: usize| self.described[r];
        let mut at = 0;
        while at < block.len() {
            let end = (at + piece).min(block.len());
            let dst = &mut out[at..end];
            let src = block.start + at..block.start + end;
            let own: &[u8] = if in_place {
                saved[..end - at].copy_from_slice(dst);
                &saved[..end - at]
            } else {
                &data[src.clone()]
            };
            let read = |r: usize, to: &mut [u8]| {
                cma::read_into(self.pids[r], peer(r).data + src.start as u64, to)
                    .map_err(|e| self.read_error(r, e))
            };
            read(first, dst)?;
            if me == 0 {
                self.red.reduce_into(dst, own, Order::IncFirst)?;
            }
            for r in first + 1..self.n() {
                if r == me {
                    self.red.reduce_into(dst, own, Order::AccFirst)?;
                } else {
                    let tmp = &mut scratch[..end - at];
                    read(r, tmp)?;
                    self.red.reduce_into(dst, tmp, Order::AccFirst)?;
                }
            }
            for r in (0..self.n()).filter(|&r| r != me) {
                cma::write_from(self.pids[r], peer(r).recv + src.start as u64, dst)
                    .map_err(|e| self.write_error(r, e))?;
            }
            at = end;
        }
        Ok(())
    }
}
