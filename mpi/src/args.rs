//! Argument checks and buffer views shared by the point-to-point and collective functions.
//! Counts arrive as 64-bit (`MPI_Count`) from both the `int` and the `_c` entry points.
//!
//! A [`Buf`] is a checked `(buffer, count, datatype)`. Data moves packed: a send takes
//! [`Buf::send_bytes`] (the user's memory itself when the layout is dense, else a packed
//! copy); a receive writes into a [`RecvTarget`] (the user's memory, or a temporary buffer
//! that [`RecvTarget::finish`] unpacks). Reductions take their reducer from
//! [`crate::coll::reducers::builtin`].

use crate::consts::*;
use crate::datatype::pack::{pack, packed_len, unpack};
use crate::datatype::registry::{self, TypeRef};
use crate::device_buf;
use crate::errors::report::{MpiError, Result};
use nexar::Datatype;
use nexar_bind::buffers::{overlaps, view, view_mut};
use std::borrow::Cow;
use std::ffi::{c_int, c_void};

/// A checked buffer description.
#[derive(Debug, Clone)]
pub struct Buf {
    /// The buffer's address (may be NULL = `MPI_BOTTOM` for derived types with absolute
    /// displacements).
    pub ptr: *const u8,
    /// Number of instances of the datatype.
    pub count: usize,
    /// The datatype's layout.
    pub ty: TypeRef,
    /// Length of the packed data in bytes (`count * size`).
    pub len: usize,
    /// The nexar element type the packed data moves as (its size divides `len`).
    pub dtype: Datatype,
}

// SAFETY: `ptr` is only an address; the MPI contract keeps the memory valid while an operation
// uses it, from whichever thread completes it.
unsafe impl Send for Buf {}

impl Buf {
    /// Checks `count` (`MPI_ERR_COUNT`), the datatype (`MPI_ERR_TYPE`: NULL, freed or not
    /// committed) and the pointer (`MPI_ERR_BUFFER` if NULL with a positive count and a
    /// predefined type). A count of zero with `MPI_DATATYPE_NULL` is an empty buffer, as in
    /// MPICH (MPICH's own tests send such zero-byte messages to synchronize).
    pub fn new(ptr: *const c_void, count: MPI_Count, dt: MPI_Datatype, what: &str) -> Result<Self> {
        if count < 0 {
            return Err(MpiError::new(
                MPI_ERR_COUNT,
                format!("{what} count {count} is negative"),
            ));
        }
        let dt = if count == 0 && dt == MPI_DATATYPE_NULL {
            crate::datatype::predefined::MPI_BYTE
        } else {
            dt
        };
        let ty = registry::committed_ref(dt)?;
        let len = packed_len(count, &ty, what)?;
        // A derived type may address absolute locations from MPI_BOTTOM (NULL).
        if len > 0 && ptr.is_null() && ty.env.types.is_empty() {
            return Err(MpiError::new(
                MPI_ERR_BUFFER,
                format!("{what} buffer is NULL with count {count}"),
            ));
        }
        if ptr as usize == MPI_IN_PLACE && len > 0 {
            return Err(MpiError::new(
                MPI_ERR_BUFFER,
                format!("MPI_IN_PLACE is not valid as the {what} buffer here"),
            ));
        }
        let dtype = ty.move_type();
        Ok(Self {
            ptr: ptr.cast(),
            count: count as usize,
            len,
            dtype,
            ty,
        })
    }

    /// Fails with `MPI_ERR_BUFFER` if this (send) buffer and `recv` share memory: the engine
    /// may read the input while writing the result, so aliased buffers (which the MPI standard
    /// forbids; `MPI_IN_PLACE` is the way to share one) would give garbage. Dense buffers are
    /// compared by their byte ranges, others by their start address.
    pub fn check_not_aliased(&self, recv: &Buf) -> Result<()> {
        if self.len == 0 || recv.len == 0 || self.ptr.is_null() {
            return Ok(());
        }
        let overlap = if self.is_dense() && recv.is_dense() {
            overlaps(self.ptr, self.len, recv.ptr, recv.len)
        } else {
            self.ptr == recv.ptr
        };
        if overlap {
            return Err(MpiError::new(
                MPI_ERR_BUFFER,
                format!(
                    "the send buffer ({} bytes at {:p}) and the receive buffer ({} bytes at \
                     {:p}) overlap (aliased buffers); pass MPI_IN_PLACE as the send buffer to \
                     use one buffer",
                    self.len, self.ptr, recv.len, recv.ptr
                ),
            ));
        }
        Ok(())
    }

    /// Instances `first .. first + n` of this buffer.
    pub fn sub(&self, first: usize, n: usize) -> Buf {
        let off = (first as isize).wrapping_mul(self.ty.extent());
        Self {
            ptr: self.ptr.wrapping_offset(off),
            count: n,
            len: n * self.ty.size,
            ..self.clone()
        }
    }

    /// Whether the user's memory is already the packed form.
    pub fn is_dense(&self) -> bool {
        self.len == 0 || self.ty.dense(self.count)
    }

    /// The packed data to send: the user's memory when dense, else a packed copy (always a
    /// host copy for CUDA device memory, which the host must not read).
    ///
    /// # Safety
    /// The caller's buffer must be readable over its typemap (the MPI contract) for `'a`.
    pub unsafe fn send_bytes<'a>(&self) -> nexar::Result<Cow<'a, [u8]>> {
        if self.len == 0 {
            return Ok(Cow::Borrowed(&[]));
        }
        if let Some(ordinal) = device_buf::device_of(self.ptr as usize, &self.ty, self.count) {
            // SAFETY: device memory covering the typemap per the contract.
            let v = unsafe {
                device_buf::pack_from_device(ordinal, self.ptr as usize, self.count, &self.ty)
            };
            return v.map(Cow::Owned);
        }
        if self.is_dense() {
            // SAFETY: dense: `len` readable bytes at `ptr` per the contract.
            return Ok(Cow::Borrowed(unsafe { view(self.ptr, self.len) }));
        }
        let mut v = Vec::with_capacity(self.len);
        // SAFETY: readable per the contract.
        unsafe { pack(self.ptr as usize, self.count, &self.ty, &mut v) };
        Ok(Cow::Owned(v))
    }

    /// Where a receive into this buffer writes.
    pub fn recv_target(&self) -> RecvTarget {
        // The common case, a dense buffer in host memory, is written in place and keeps no
        // block list (no allocation per receive).
        if self.is_dense()
            && device_buf::device_of(self.ptr as usize, &self.ty, self.count).is_none()
        {
            return RecvTarget {
                base: self.ptr as usize,
                ty: self.ty.clone(),
                temp: None,
                len: self.len,
                blocks: Vec::new(),
                device: None,
            };
        }
        RecvTarget::blocks(self, vec![(0, self.count, 0)], self.len)
    }
}

/// A collective's result lands in a receive target: the engine writes its bytes, then the
/// target unpacks them into the user's layout (or device memory). Created from a checked
/// [`Buf`] under the MPI contract: the user's buffer stays valid and untouched until the
/// operation completes, which is what [`RecvTarget::slice`] and [`RecvTarget::finish`] need.
impl nexar::Target for RecvTarget {
    fn buf(&mut self) -> &mut [u8] {
        // SAFETY: the MPI contract (see above).
        unsafe { self.slice() }
    }

    fn land(self: Box<Self>) -> nexar::Result<()> {
        let n = self.len;
        // SAFETY: the MPI contract (see above).
        unsafe { self.finish(n) }
    }
}

/// The destination of a receive: the user's memory directly (dense layouts) or a temporary
/// buffer unpacked by [`RecvTarget::finish`]. It is `Send`, so a request can finish it on the
/// engine's runtime.
pub struct RecvTarget {
    base: usize,
    ty: TypeRef,
    /// `None`: write straight into the user's memory at `base`.
    temp: Option<Vec<u8>>,
    len: usize,
    /// `(first instance, instances, packed offset)` of each block to unpack.
    blocks: Vec<(isize, usize, usize)>,
    /// CUDA device memory: `(ordinal, instances of the whole buffer, layout is direct)`. Such
    /// a target always receives into `temp`, and [`RecvTarget::finish`] copies it over.
    device: Option<(i32, usize, bool)>,
}

impl RecvTarget {
    /// A target for the blocks `(first instance, instances, packed offset)` of `b`, whose
    /// packed form has `len` bytes. Written in place when `b`'s layout is dense and the blocks
    /// sit at their packed offsets.
    pub fn blocks(b: &Buf, blocks: Vec<(isize, usize, usize)>, len: usize) -> Self {
        let ext = b.ty.extent();
        let direct = b.ty.dense(usize::MAX)
            || (blocks.len() == 1 && blocks[0].0 == 0 && blocks[0].2 == 0 && b.is_dense());
        let direct = direct && blocks.iter().all(|&(f, _, off)| f * ext == off as isize);
        let device = device_buf::device_of(b.ptr as usize, &b.ty, b.count);
        Self {
            base: b.ptr as usize,
            ty: b.ty.clone(),
            temp: (!direct || device.is_some()).then(|| vec![0; len]),
            len,
            blocks,
            device: device.map(|d| (d, b.count, direct)),
        }
    }

    /// Length in bytes of the packed data this target holds.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it holds no data.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes the engine writes into.
    ///
    /// # Safety
    /// A direct target's user memory must be valid and unaliased for `len` bytes (the MPI
    /// contract) for `'a`.
    pub unsafe fn slice(&mut self) -> &mut [u8] {
        match &mut self.temp {
            Some(t) => t,
            // SAFETY: per the contract above (nothing is read when `len` is 0).
            None => unsafe { view_mut(self.base as *mut u8, self.len) },
        }
    }

    /// Unpacks the first `received` bytes into the user's buffer (a no-op for direct targets
    /// in host memory; device memory is written through the driver).
    ///
    /// # Safety
    /// The user's buffer must be writable over its typemap (the MPI contract).
    pub unsafe fn finish(self, received: usize) -> nexar::Result<()> {
        let Some(t) = &self.temp else { return Ok(()) };
        let received = received.min(t.len());
        match self.device {
            // SAFETY: writable per the contract.
            None => unsafe { self.unpack_blocks(t, self.base, received) },
            // Direct layout: each block's packed bytes sit at the same offsets on the device.
            Some((ordinal, _, true)) => {
                for &(_, n, off) in &self.blocks {
                    let end = (off + n * self.ty.size).min(received);
                    if off < end {
                        // SAFETY: the block lies in the user's device buffer per the contract.
                        unsafe { device_buf::upload(ordinal, &t[off..end], self.base + off)? };
                    }
                }
            }
            // Derived layout: unpack into a host copy of the buffer's span, then copy it back.
            Some((ordinal, count, false)) => {
                // SAFETY: writable device memory over the typemap per the contract; the host
                // base stands for `base` over the whole span, which holds every block.
                unsafe {
                    device_buf::edit_on_host(ordinal, self.base, count, &self.ty, |h| {
                        self.unpack_blocks(t, h, received)
                    })?
                };
            }
        }
        Ok(())
    }

    /// Unpacks each block's part of `t[..received]` into the layout at host address `base`.
    ///
    /// # Safety
    /// The layout at `base` must be writable over the blocks.
    unsafe fn unpack_blocks(&self, t: &[u8], base: usize, received: usize) {
        let ext = self.ty.extent();
        for &(first, n, off) in &self.blocks {
            if off >= received {
                continue;
            }
            let end = (off + n * self.ty.size).min(received);
            let at = base.wrapping_add_signed(first.wrapping_mul(ext));
            // SAFETY: writable per the contract.
            unsafe { unpack(&t[off..end], at, n, &self.ty) };
        }
    }
}

/// Whether `p` is `MPI_IN_PLACE`.
pub fn in_place(p: *const c_void) -> bool {
    p as usize == MPI_IN_PLACE
}

/// A destination or root rank in a communicator of `size` ranks: `None` for `MPI_PROC_NULL`.
pub fn dest_rank(r: c_int, size: u32, what: &str) -> Result<Option<u32>> {
    match r {
        MPI_PROC_NULL => Ok(None),
        r if r >= 0 && (r as u32) < size => Ok(Some(r as u32)),
        r => Err(MpiError::new(
            MPI_ERR_RANK,
            format!("{what} rank {r} is out of range for a communicator of size {size}"),
        )),
    }
}

/// A root rank (`MPI_ERR_ROOT` when out of range).
pub fn root_rank(r: c_int, size: u32) -> Result<u32> {
    if r >= 0 && (r as u32) < size {
        Ok(r as u32)
    } else {
        Err(MpiError::new(
            MPI_ERR_ROOT,
            format!("root {r} is out of range for a communicator of size {size}"),
        ))
    }
}

/// A send tag: `0..=MPI_TAG_UB` (`MPI_ERR_TAG` otherwise).
pub fn send_tag(tag: c_int) -> Result<i32> {
    if tag < 0 {
        return Err(MpiError::new(MPI_ERR_TAG, format!("tag {tag} is negative")));
    }
    Ok(tag)
}

/// A receive tag: a send tag or `MPI_ANY_TAG`.
pub fn recv_tag(tag: c_int) -> Result<nexar::TagMatch> {
    if tag == MPI_ANY_TAG {
        Ok(nexar::TagMatch::Any)
    } else {
        send_tag(tag).map(nexar::TagMatch::Tag)
    }
}

/// A receive source: `None` for `MPI_PROC_NULL`.
pub fn recv_source(r: c_int, size: u32) -> Result<Option<nexar::Source>> {
    if r == MPI_ANY_SOURCE {
        return Ok(Some(nexar::Source::Any));
    }
    Ok(dest_rank(r, size, "source")?.map(nexar::Source::Rank))
}

/// Converts an `int` count to the shared 64-bit form.
pub fn count(c: c_int) -> MPI_Count {
    c as MPI_Count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datatype::layout::{Envelope, Type};
    use crate::datatype::predefined;
    use nexar::ReduceOp;
    use std::sync::Arc;

    /// A committed vector(3, 1, 2, int) handle.
    fn strided() -> MPI_Datatype {
        let int = predefined::get(0x209).unwrap();
        let b: Vec<_> = (0..3).map(|k| (&int, 1, k * 8)).collect();
        let t = Type::blocks(&b, Envelope::default()).unwrap();
        registry::insert(Arc::new(t), true).unwrap()
    }

    #[test]
    fn derived_buffers_pack_and_unpack() {
        let h = strided();
        let src: [i32; 11] = std::array::from_fn(|i| i as i32);
        let b = Buf::new(src.as_ptr().cast(), 2, h, "send").unwrap();
        assert_eq!((b.len, b.dtype, b.is_dense()), (24, Datatype::I32, false));
        // SAFETY: `src` covers two instances (extent 20 bytes, data up to byte 40).
        let packed = unsafe { b.send_bytes() }.unwrap();
        let ints: Vec<i32> = packed
            .chunks(4)
            .map(|c| i32::from_ne_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(ints, vec![0, 2, 4, 5, 7, 9]);

        let mut dst = [-1i32; 11];
        let rb = Buf::new(dst.as_mut_ptr().cast(), 2, h, "receive").unwrap();
        let mut t = rb.recv_target();
        // SAFETY: a temporary buffer (the layout is not dense).
        unsafe { t.slice() }.copy_from_slice(&packed);
        // Only 4 elements arrived: the rest of `dst` stays untouched.
        // SAFETY: `dst` covers the typemap.
        unsafe { t.finish(16) }.unwrap();
        assert_eq!(dst, [0, -1, 2, -1, 4, 5, -1, -1, -1, -1, -1]);
        assert_eq!(b.sub(1, 1).ptr, src[5..].as_ptr().cast());
        registry::free(h).unwrap();
        assert_eq!(
            Buf::new(src.as_ptr().cast(), 1, h, "send")
                .unwrap_err()
                .class,
            MPI_ERR_TYPE
        );
    }

    #[test]
    fn aliased_buffers_are_refused() {
        let x = [0i32; 8];
        let at = |i: usize, n: i64| Buf::new(x[i..].as_ptr().cast(), n, 0x209, "b").unwrap();
        let refused = |a: &Buf, b: &Buf| a.check_not_aliased(b).map_err(|e| e.class);
        assert_eq!(refused(&at(0, 4), &at(0, 4)), Err(MPI_ERR_BUFFER));
        assert_eq!(
            refused(&at(0, 4), &at(3, 4)),
            Err(MPI_ERR_BUFFER),
            "one int shared"
        );
        assert_eq!(refused(&at(4, 4), &at(0, 5)), Err(MPI_ERR_BUFFER));
        assert_eq!(refused(&at(0, 4), &at(4, 4)), Ok(()), "adjacent");
        assert_eq!(refused(&at(0, 0), &at(0, 4)), Ok(()), "empty");
        // A strided layout is compared by its start: same start, refused; else allowed.
        let h = strided();
        let s = Buf::new(x.as_ptr().cast(), 1, h, "b").unwrap();
        assert_eq!(refused(&s, &at(0, 2)), Err(MPI_ERR_BUFFER));
        assert_eq!(refused(&s, &at(1, 1)), Ok(()));
        registry::free(h).unwrap();
    }

    #[test]
    fn uncommitted_and_reduction_types() {
        let int = predefined::get(0x209).unwrap();
        let t = Type::blocks(&[(&int, 2, 0)], Envelope::default()).unwrap();
        let h = registry::insert(Arc::new(t), false).unwrap();
        let x = [0i32; 2];
        let e = Buf::new(x.as_ptr().cast(), 1, h, "send").unwrap_err();
        assert_eq!(e.class, MPI_ERR_TYPE);
        registry::commit(h).unwrap();
        let b = Buf::new(x.as_ptr().cast(), 1, h, "send").unwrap();
        assert!(b.is_dense());
        let red = |b: &Buf, op| crate::coll::reducers::builtin(op, &b.ty, b.len);
        assert!(matches!(
            red(&b, ReduceOp::Sum).unwrap(),
            nexar::Reducer::Builtin {
                dtype: Datatype::I32,
                ..
            }
        ));
        let z = Buf::new(x.as_ptr().cast(), 1, 0x212, "send").unwrap();
        assert!(matches!(
            red(&z, ReduceOp::Sum).unwrap(),
            nexar::Reducer::Builtin {
                dtype: Datatype::F32,
                ..
            }
        ));
        assert_eq!(red(&z, ReduceOp::Max).unwrap_err().class, MPI_ERR_OP);
        let ld = Buf::new(x.as_ptr().cast(), 0, 0x220, "send").unwrap();
        assert_eq!(ld.len, 0);
        let ld = Buf::new([0u8; 16].as_ptr().cast(), 1, 0x220, "send").unwrap();
        assert_eq!(red(&ld, ReduceOp::Sum).unwrap().elem_size(), 16);
        assert_eq!(red(&ld, ReduceOp::Band).unwrap_err().class, MPI_ERR_OP);
        assert_eq!(
            Buf::new(x.as_ptr().cast(), -1, 0x209, "send")
                .unwrap_err()
                .class,
            MPI_ERR_COUNT
        );
        registry::free(h).unwrap();
        assert!(
            registry::free(0x209).is_err(),
            "predefined types cannot be freed"
        );
    }
}
