//! Automatic NCCL routing for callers holding raw buffers and a [`Datatype`] (the C API's and
//! the MPI shim's blocking allreduce / bcast / allgather / reduce_scatter_block).
//!
//! Each `Comm::*_routed` method takes the same per-communicator decision as the typed
//! collectives (`super::auto`) and returns `Ok(true)` when it ran the collective (through the
//! hierarchical path, NCCL or staged), `Ok(false)` when the caller must run its ordinary path
//! (routing decided off, `NEXAR_NCCL=off`, or a datatype / operator pair the typed path does
//! not reduce). Whether a call enters routing depends only on arguments that are equal on
//! every rank (datatype, operator, counts), never on this rank's buffers, so every rank takes
//! the same branch (empty calls never route: their counts are zero everywhere). Callers run
//! their argument checks first.
//!
//! In-place forms take `send = None`. The typed paths want a separate, aligned input: an
//! in-place allgather or reduce_scatter input, or a buffer not aligned for its element type,
//! is first copied into scratch memory of the same kind (a device allocation on the buffer's
//! device, else host memory), so device buffers stay on the device.

use super::auto::routed;
use super::hier::Core;
#[cfg(test)]
use super::select::Fallback;
use crate::comm::Comm;
use crate::device::DeviceBuffer;
use crate::device::cuda::{checked, with_context};
use crate::device::{Memory, classify};
use crate::element::{DoubleInt, FloatInt, IntInt, LongInt, ShortInt};
use crate::error::Result;
use cudarc::driver::sys as cu;
use nexar_proto::select::plan::Coll;
use nexar_proto::{Datatype, ReduceOp};

/// Runs `$body` with `$t` naming the [`crate::Element`] type of datatype `$dt`.
macro_rules! by_type {
    ($dt:expr, $t:ident => $body:expr) => {
        match $dt {
            Datatype::I8 => by_type!(@ i8, $t, $body),
            Datatype::U8 => by_type!(@ u8, $t, $body),
            Datatype::I16 => by_type!(@ i16, $t, $body),
            Datatype::U16 => by_type!(@ u16, $t, $body),
            Datatype::I32 => by_type!(@ i32, $t, $body),
            Datatype::U32 => by_type!(@ u32, $t, $body),
            Datatype::I64 => by_type!(@ i64, $t, $body),
            Datatype::U64 => by_type!(@ u64, $t, $body),
            Datatype::F16 => by_type!(@ half::f16, $t, $body),
            Datatype::Bf16 => by_type!(@ half::bf16, $t, $body),
            Datatype::F32 => by_type!(@ f32, $t, $body),
            Datatype::F64 => by_type!(@ f64, $t, $body),
            Datatype::F32I32 => by_type!(@ FloatInt, $t, $body),
            Datatype::F64I32 => by_type!(@ DoubleInt, $t, $body),
            Datatype::I32I32 => by_type!(@ IntInt, $t, $body),
            Datatype::I64I32 => by_type!(@ LongInt, $t, $body),
            Datatype::I16I32 => by_type!(@ ShortInt, $t, $body),
        }
    };
    (@ $ty:ty, $t:ident, $body:expr) => {{
        type $t = $ty;
        $body
    }};
}

/// The largest alignment of an element type (scratch memory is aligned to it).
const MAX_ALIGN: usize = 8;

/// Scratch memory of the same kind as a user buffer, aligned to [`MAX_ALIGN`].
enum Scratch {
    Host(Vec<u64>),
    Device(DeviceBuffer),
}

impl Scratch {
    /// A copy of the `len` bytes at `src`.
    ///
    /// # Safety
    /// `src` must be readable for `len` bytes (through the driver when device memory).
    unsafe fn copy_of(src: *const u8, len: usize) -> Result<Self> {
        let mut s = match classify(src) {
            Memory::Device { ordinal } if len > 0 => Self::Device(DeviceBuffer::new(ordinal, len)?),
            _ => Self::Host(vec![0; len.div_ceil(MAX_ALIGN)]),
        };
        // SAFETY: `s` holds `len` bytes; `src` per the contract.
        unsafe { copy(s.ptr(), src, len)? };
        Ok(s)
    }

    fn ptr(&mut self) -> *mut u8 {
        match self {
            Self::Host(v) => v.as_mut_ptr().cast(),
            Self::Device(d) => d.ptr() as *mut u8,
        }
    }
}

/// Copies `len` bytes from `src` to `dst`, either of which may be device memory.
///
/// # Safety
/// Both must be valid for `len` bytes and not overlap.
unsafe fn copy(dst: *mut u8, src: *const u8, len: usize) -> Result<()> {
    if len == 0 {
        return Ok(());
    }
    let device = [classify(dst), classify(src)]
        .into_iter()
        .find_map(|m| match m {
            Memory::Device { ordinal } => Some(ordinal),
            _ => None,
        });
    match device {
        // SAFETY: host-accessible (host or managed) memory of `len` bytes each.
        None => unsafe { std::ptr::copy_nonoverlapping(src, dst, len) },
        // Unified addressing: one generic copy serves every direction.
        Some(ordinal) => with_context(ordinal, || {
            // SAFETY: both valid for `len` bytes per the contract.
            checked(
                unsafe { cu::cuMemcpy(dst as u64, src as u64, len) },
                "cuMemcpy",
            )
        })?,
    }
    Ok(())
}

/// `p` itself when aligned for `align`, else scratch holding a copy of its `len` bytes
/// (`copy_in`) or room for them (to copy back with [`land`]).
///
/// # Safety
/// `p` must be valid for `len` bytes.
unsafe fn aligned(p: *mut u8, len: usize, align: usize) -> Result<(*mut u8, Option<Scratch>)> {
    if (p as usize).is_multiple_of(align) {
        return Ok((p, None));
    }
    // SAFETY: per the contract.
    let mut s = unsafe { Scratch::copy_of(p, len)? };
    Ok((s.ptr(), Some(s)))
}

/// Copies a result held in scratch back to the user's `dst`.
///
/// # Safety
/// `dst` must be writable for `len` bytes.
unsafe fn land(dst: *mut u8, scratch: Option<Scratch>, len: usize) -> Result<()> {
    match scratch {
        // SAFETY: the scratch holds `len` bytes; `dst` per the contract.
        Some(mut s) => unsafe { copy(dst, s.ptr(), len) },
        None => Ok(()),
    }
}

/// A raw reduction's arguments `(send, recv, count, dt, op)`: `count` elements of `dt` (per
/// rank's block for a reduce_scatter) reduced with `op` from `send` (`None`: in place in
/// `recv`) into `recv`.
#[derive(Clone, Copy)]
struct Raw(Option<*const u8>, *mut u8, usize, Datatype, ReduceOp);

/// Which reduction [`Comm::reduction_routed`] runs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reduction {
    All,
    ScatterBlock,
}

impl Comm {
    /// Allreduce of `count` elements of `dt` with `op` through automatic NCCL routing:
    /// `send` into `recv` (`None`: in place in `recv`). `Ok(false)`: not routed, nothing done
    /// (run the ordinary allreduce). Blocking calls only (see the module docs).
    ///
    /// # Safety
    /// `recv` (and `send`) must be valid, non-overlapping buffers of `count` elements (host
    /// or device memory), untouched by others until this returns.
    pub async unsafe fn allreduce_routed(
        &self,
        send: Option<*const u8>,
        recv: *mut u8,
        count: usize,
        dt: Datatype,
        op: ReduceOp,
    ) -> Result<bool> {
        let a = Raw(send, recv, count, dt, op);
        // SAFETY: per the contract.
        unsafe { self.reduction_routed(Reduction::All, a).await }
    }

    /// Bcast of `len` bytes at `buf` from `root` through automatic NCCL routing (moved as
    /// bytes). `Ok(false)`: not routed, nothing done. Blocking calls only.
    ///
    /// # Safety
    /// `buf` must be a valid buffer of `len` bytes, untouched by others until this returns.
    pub async unsafe fn bcast_routed(&self, buf: *mut u8, len: usize, root: u32) -> Result<bool> {
        if len == 0 || root >= self.size() {
            return Ok(false);
        }
        let Some(core) = routed(self, Coll::Bcast, len, &[buf]).await? else {
            return Ok(false);
        };
        // SAFETY: `len` bytes per the contract; device memory is never read on the host.
        let b = unsafe { std::slice::from_raw_parts_mut(buf, len) };
        core.bcast(self, b, root).await?;
        Ok(true)
    }

    /// Allgather of `block` bytes from every rank into `recv` (`block * size` bytes, rank
    /// order) through automatic NCCL routing; `send = None`: this rank's block already sits in
    /// `recv`. `Ok(false)`: not routed, nothing done. Blocking calls only.
    ///
    /// # Safety
    /// `recv` (`block * size` bytes) and `send` (`block` bytes) must be valid and not
    /// overlap, untouched by others until this returns.
    pub async unsafe fn allgather_routed(
        &self,
        send: Option<*const u8>,
        recv: *mut u8,
        block: usize,
    ) -> Result<bool> {
        if block == 0 || block.checked_mul(self.size() as usize).is_none() {
            return Ok(false);
        }
        let total = block * self.size() as usize;
        let bufs = [send.unwrap_or(recv), recv];
        let Some(core) = routed(self, Coll::Allgather, total, &bufs).await? else {
            return Ok(false);
        };
        // SAFETY: per the contract.
        unsafe { allgather_on(&core, self, send, recv, block).await? };
        Ok(true)
    }

    /// Reduce-scatter with equal blocks of `count` elements of `dt` through automatic NCCL
    /// routing: rank `i` gets block `i` of the reduction of every rank's `send` (`count *
    /// size` elements) in `recv`; `send = None`: the input is `recv` itself (`count * size`
    /// elements, the result lands at its start). `Ok(false)`: not routed, nothing done.
    /// Blocking calls only.
    ///
    /// # Safety
    /// `recv` (`count` elements, or `count * size` in place) and `send` must be valid and
    /// not overlap, untouched by others until this returns.
    pub async unsafe fn reduce_scatter_block_routed(
        &self,
        send: Option<*const u8>,
        recv: *mut u8,
        count: usize,
        dt: Datatype,
        op: ReduceOp,
    ) -> Result<bool> {
        let a = Raw(send, recv, count, dt, op);
        // SAFETY: per the contract.
        unsafe { self.reduction_routed(Reduction::ScatterBlock, a).await }
    }

    /// [`Comm::allreduce_routed`] or [`Comm::reduce_scatter_block_routed`] (`kind`).
    ///
    /// # Safety
    /// As for the method `kind` names.
    async unsafe fn reduction_routed(&self, kind: Reduction, a: Raw) -> Result<bool> {
        let Raw(send, recv, count, dt, op) = a;
        let blocks = match kind {
            Reduction::All => 1,
            Reduction::ScatterBlock => self.size() as usize,
        };
        let total = count
            .checked_mul(dt.size())
            .and_then(|b| b.checked_mul(blocks));
        let Some(total) = total.filter(|&t| t > 0) else {
            return Ok(false);
        };
        if op.check(dt).is_err() {
            return Ok(false);
        }
        let coll = match kind {
            Reduction::All => Coll::Allreduce,
            Reduction::ScatterBlock => Coll::ReduceScatter,
        };
        let Some(core) = routed(self, coll, total, &[send.unwrap_or(recv), recv]).await? else {
            return Ok(false);
        };
        // SAFETY: per the contract.
        unsafe {
            match kind {
                Reduction::All => allreduce_on(&core, self, a).await?,
                Reduction::ScatterBlock => reduce_scatter_on(&core, self, a).await?,
            }
        };
        Ok(true)
    }
}

/// [`Comm::allreduce_routed`] on `core` (whose per-call agreement picks NCCL or staging).
///
/// # Safety
/// As for [`Comm::allreduce_routed`]; `count * dt.size()` does not overflow.
async unsafe fn allreduce_on(core: &Core, c: &Comm, a: Raw) -> Result<()> {
    let Raw(send, recv, count, dt, op) = a;
    let len = count * dt.size();
    // SAFETY: `recv` holds `len` bytes per the contract.
    let (work, scratch) = unsafe { aligned(recv, len, dt.size().min(MAX_ALIGN))? };
    if let Some(s) = send {
        // SAFETY: `work` holds `len` bytes, `s` too (and does not overlap `recv`).
        unsafe { copy(work, s, len)? };
    }
    by_type!(dt, T => {
        // SAFETY: `work` is aligned for `T` and holds `count` of them; a device buffer is
        // only handed to NCCL and the staged path, never read on the host.
        let buf = unsafe { std::slice::from_raw_parts_mut(work.cast::<T>(), count) };
        core.allreduce(c, buf, op).await?
    });
    // SAFETY: as above.
    unsafe { land(recv, scratch, len) }
}

/// [`Comm::allgather_routed`] on `core`.
///
/// # Safety
/// As for [`Comm::allgather_routed`]; `block * size` does not overflow.
async unsafe fn allgather_on(
    core: &Core,
    c: &Comm,
    send: Option<*const u8>,
    recv: *mut u8,
    block: usize,
) -> Result<()> {
    let total = block * c.size() as usize;
    let mut own = None;
    let send = match send {
        Some(s) => s,
        // SAFETY: this rank's block lies inside `recv` per the contract.
        None => unsafe {
            let mine = recv.add(c.rank() as usize * block);
            own.insert(Scratch::copy_of(mine, block)?).ptr()
        },
    };
    // SAFETY: the lengths per the contract; bytes need no alignment.
    let (s, r) = unsafe {
        (
            std::slice::from_raw_parts(send, block),
            std::slice::from_raw_parts_mut(recv, total),
        )
    };
    core.allgather(c, s, r).await
}

/// [`Comm::reduce_scatter_block_routed`] on `core`.
///
/// # Safety
/// As for [`Comm::reduce_scatter_block_routed`]; `count * dt.size() * size` does not
/// overflow.
async unsafe fn reduce_scatter_on(core: &Core, c: &Comm, a: Raw) -> Result<()> {
    let Raw(send, recv, count, dt, op) = a;
    let block = count * dt.size();
    let total = block * c.size() as usize;
    let align = dt.size().min(MAX_ALIGN);
    // An in-place or misaligned input is copied: the typed path reads it whole while
    // writing the result.
    let mut input = None;
    let send = match send {
        Some(s) if (s as usize).is_multiple_of(align) => s,
        // SAFETY: `total` readable bytes per the contract.
        other => unsafe {
            input
                .insert(Scratch::copy_of(other.unwrap_or(recv), total)?)
                .ptr()
        },
    };
    // SAFETY: `recv` holds at least `block` bytes per the contract.
    let (out, scratch) = unsafe { aligned(recv, block, align)? };
    by_type!(dt, T => {
        // SAFETY: aligned for `T`, of the checked lengths; device memory is never read on
        // the host.
        let (s, r) = unsafe {
            (
                std::slice::from_raw_parts(send.cast::<T>(), count * c.size() as usize),
                std::slice::from_raw_parts_mut(out.cast::<T>(), count),
            )
        };
        core.reduce_scatter(c, s, r, op).await?
    });
    // SAFETY: as above.
    unsafe { land(recv, scratch, block) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `f(world, core)` on every rank of an in-process world of `n`, in parallel, with
    /// the fake [`Core::staged_only`] (no NCCL: the per-call path is the staged one, after
    /// the raw-buffer handling under test).
    fn on_ranks(n: usize, f: impl Fn(&Comm, &Core) + Sync) {
        let ctxs = crate::Context::in_process(n).unwrap();
        std::thread::scope(|s| {
            for c in &ctxs {
                let f = &f;
                s.spawn(move || f(c.world(), &Core::staged_only()));
            }
        });
    }

    /// `v`'s bytes copied to an odd address inside the returned buffer (misaligned for
    /// anything wider than a byte) and the offset.
    fn misaligned<T: bytemuck::Pod>(v: &[T]) -> (Vec<u8>, usize) {
        let bytes = bytemuck::cast_slice::<T, u8>(v);
        let mut buf = vec![0u8; bytes.len() + 16];
        let at = 1 + (8 - (buf.as_ptr() as usize + 1) % 8) % 8 + 1;
        buf[at..at + bytes.len()].copy_from_slice(bytes);
        (buf, at)
    }

    /// A sum of `count` elements of `dt` from `send` into `recv`.
    fn sum(send: Option<*const u8>, recv: *mut u8, count: usize, dt: Datatype) -> Raw {
        Raw(send, recv, count, dt, ReduceOp::Sum)
    }

    #[test]
    fn raw_allreduce_in_place_out_of_place_and_misaligned() {
        for n in [1usize, 3] {
            on_ranks(n, |w, core| {
                let (r, size) = (w.rank() as i64, w.size() as i64);
                let send: Vec<i64> = (0..100).map(|i| (r + 1) * i).collect();
                let want: Vec<i64> = (0..100).map(|i| size * (size + 1) / 2 * i).collect();
                let mut out = vec![0i64; 100];
                let (s, o) = (send.as_ptr().cast::<u8>(), out.as_mut_ptr().cast::<u8>());
                let dt = Datatype::I64;
                // SAFETY: 100 elements each, disjoint.
                let run = unsafe { allreduce_on(core, w, sum(Some(s), o, 100, dt)) };
                w.block_on(run).unwrap();
                assert_eq!(out, want);
                let mut inplace = send.clone();
                let p = inplace.as_mut_ptr().cast::<u8>();
                // SAFETY: 100 elements.
                let run = unsafe { allreduce_on(core, w, sum(None, p, 100, dt)) };
                w.block_on(run).unwrap();
                assert_eq!(inplace, want);
                let (mut buf, at) = misaligned(&send);
                let p = buf[at..].as_mut_ptr();
                // SAFETY: 800 bytes at `p`.
                let run = unsafe { allreduce_on(core, w, sum(None, p, 100, dt)) };
                w.block_on(run).unwrap();
                assert_eq!(&buf[at..at + 800], bytemuck::cast_slice::<i64, u8>(&want));
                assert!(buf[..at].iter().all(|&b| b == 0), "nothing written before");
            });
        }
    }

    #[test]
    fn raw_allgather_with_and_without_a_send_buffer() {
        for n in [1usize, 3] {
            on_ranks(n, |w, core| {
                let (r, size) = (w.rank() as usize, w.size() as usize);
                let block = 6;
                let mine: Vec<u8> = (0..block).map(|j| (r * 10 + j) as u8).collect();
                let want: Vec<u8> = (0..size * block)
                    .map(|k| ((k / block) * 10 + k % block) as u8)
                    .collect();
                let mut out = vec![0u8; size * block];
                let (s, o) = (mine.as_ptr(), out.as_mut_ptr());
                // SAFETY: `block` and `size * block` bytes, disjoint.
                w.block_on(unsafe { allgather_on(core, w, Some(s), o, block) })
                    .unwrap();
                assert_eq!(out, want);
                let mut inplace = vec![0xffu8; size * block];
                inplace[r * block..][..block].copy_from_slice(&mine);
                let p = inplace.as_mut_ptr();
                // SAFETY: `size * block` bytes.
                w.block_on(unsafe { allgather_on(core, w, None, p, block) })
                    .unwrap();
                assert_eq!(inplace, want);
            });
        }
    }

    #[test]
    fn raw_reduce_scatter_block_in_place_and_misaligned() {
        for n in [1usize, 3] {
            on_ranks(n, |w, core| {
                let (r, size) = (w.rank() as usize, w.size() as usize);
                let per = 4;
                let send: Vec<f32> = (0..size * per).map(|k| (r + 1) as f32 * k as f32).collect();
                let tri = (size * (size + 1) / 2) as f32;
                let want: Vec<f32> = (r * per..(r + 1) * per).map(|k| tri * k as f32).collect();
                let dt = Datatype::F32;
                let mut out = vec![0f32; per];
                let (s, o) = (send.as_ptr().cast::<u8>(), out.as_mut_ptr().cast::<u8>());
                // SAFETY: `size * per` and `per` floats, disjoint.
                w.block_on(unsafe { reduce_scatter_on(core, w, sum(Some(s), o, per, dt)) })
                    .unwrap();
                assert_eq!(out, want);
                let mut inplace = send.clone();
                let p = inplace.as_mut_ptr().cast::<u8>();
                // SAFETY: `size * per` floats.
                w.block_on(unsafe { reduce_scatter_on(core, w, sum(None, p, per, dt)) })
                    .unwrap();
                assert_eq!(inplace[..per], want[..]);
                // Misaligned input and output.
                let (sbuf, sat) = misaligned(&send);
                let (mut obuf, oat) = misaligned(&[0f32; 4]);
                let (s, o) = (sbuf[sat..].as_ptr(), obuf[oat..].as_mut_ptr());
                // SAFETY: as above.
                w.block_on(unsafe { reduce_scatter_on(core, w, sum(Some(s), o, per, dt)) })
                    .unwrap();
                assert_eq!(&obuf[oat..oat + 16], bytemuck::cast_slice::<f32, u8>(&want));
            });
        }
    }

    #[test]
    fn unroutable_calls_take_no_decision() {
        on_ranks(2, |w, _| {
            let mut v = [1.0f32; 4];
            let p = v.as_mut_ptr().cast::<u8>();
            // SAFETY: 4 floats; nothing is run.
            let calls = unsafe {
                [
                    w.block_on(w.allreduce_routed(None, p, 0, Datatype::F32, ReduceOp::Sum)),
                    w.block_on(w.allreduce_routed(None, p, 4, Datatype::F32, ReduceOp::Land)),
                    w.block_on(w.allreduce_routed(
                        None,
                        p,
                        usize::MAX,
                        Datatype::F32,
                        ReduceOp::Sum,
                    )),
                    w.block_on(w.bcast_routed(p, 16, w.size())),
                    w.block_on(w.bcast_routed(p, 0, 0)),
                    w.block_on(w.allgather_routed(None, p, 0)),
                    w.block_on(w.allgather_routed(None, p, usize::MAX)),
                    w.block_on(w.reduce_scatter_block_routed(
                        None,
                        p,
                        0,
                        Datatype::F32,
                        ReduceOp::Sum,
                    )),
                    w.block_on(w.reduce_scatter_block_routed(
                        None,
                        p,
                        usize::MAX / 2,
                        Datatype::F32,
                        ReduceOp::Sum,
                    )),
                ]
            };
            for (i, c) in calls.into_iter().enumerate() {
                assert!(!c.unwrap(), "call {i} is not routed");
            }
            assert_eq!(w.nccl_status().state, super::super::NcclState::Undecided);
            // A routable call decides (no CUDA driver here: off), and reports "not routed".
            if crate::device::device_count() == 0 {
                // SAFETY: 4 floats.
                let ran = unsafe { w.allreduce_routed(None, p, 4, Datatype::F32, ReduceOp::Sum) };
                assert!(!w.block_on(ran).unwrap());
                assert_eq!(
                    w.nccl_status().state,
                    super::super::NcclState::Off(Fallback::NcclMissing)
                );
                assert_eq!(v, [1.0; 4], "not routed: untouched");
            }
        });
    }

    #[test]
    fn every_datatype_maps_to_its_element_type() {
        for dt in Datatype::ALL {
            let (size, align, tag) = by_type!(dt, T => (
                std::mem::size_of::<T>(),
                std::mem::align_of::<T>(),
                <T as crate::Element>::DATATYPE
            ));
            assert_eq!(tag, dt);
            assert_eq!(size, dt.size(), "{dt}");
            assert!(align <= MAX_ALIGN && align <= size.min(MAX_ALIGN), "{dt}");
        }
    }

    #[test]
    fn host_scratch_is_aligned_and_copies_exactly() {
        let src: Vec<u8> = (0..37).collect();
        // An odd offset: not aligned for anything wider than a byte.
        let p = src[1..].as_ptr();
        // SAFETY: 36 readable host bytes.
        let mut s = unsafe { Scratch::copy_of(p, 36).unwrap() };
        assert!((s.ptr() as usize).is_multiple_of(MAX_ALIGN));
        // SAFETY: the scratch holds 36 bytes.
        let copied = unsafe { std::slice::from_raw_parts(s.ptr(), 36) };
        assert_eq!(copied, &src[1..]);
        let mut back = vec![0u8; 36];
        // SAFETY: 36 writable bytes.
        unsafe { land(back.as_mut_ptr(), Some(s), 36).unwrap() };
        assert_eq!(back, &src[1..]);
    }

    #[test]
    fn aligned_buffers_are_used_in_place() {
        let mut v = vec![0u64; 4];
        let p = v.as_mut_ptr().cast::<u8>();
        // SAFETY: 32 valid bytes.
        let (q, s) = unsafe { aligned(p, 32, 8).unwrap() };
        assert_eq!(q, p);
        assert!(s.is_none());
        // SAFETY: as above, from an odd address (31 bytes remain).
        let (q, s) = unsafe { aligned(p.wrapping_add(1), 31, 8).unwrap() };
        assert_ne!(q, p.wrapping_add(1));
        assert!(s.is_some());
    }
}
