//! Packing: the copy between a user buffer described by `(address, count, datatype)` and the
//! packed (dense) byte form every data path moves, plus `MPI_Pack`, `MPI_Unpack`,
//! `MPI_Pack_size` and their `_c` forms.

use super::layout::Type;
use super::registry;
use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
use std::ffi::{c_int, c_void};

/// Address of byte `off` of instance `k` of a buffer at `base`.
fn addr(base: usize, ty: &Type, k: usize, off: isize) -> usize {
    base.wrapping_add_signed((k as isize).wrapping_mul(ty.extent()).wrapping_add(off))
}

/// Appends the packed form of `count` instances of `ty` at `base` to `out`.
///
/// # Safety
/// Every byte of the typemap must be readable (the MPI contract for send buffers).
pub unsafe fn pack(base: usize, count: usize, ty: &Type, out: &mut Vec<u8>) {
    out.reserve(count * ty.size);
    for k in 0..count {
        for s in ty.segs.iter() {
            let p = addr(base, ty, k, s.off) as *const u8;
            // SAFETY: readable per the contract above.
            out.extend_from_slice(unsafe { std::slice::from_raw_parts(p, s.len) });
        }
    }
}

/// Writes packed `data` into `count` instances of `ty` at `base`, stopping when `data` runs
/// out (a partial receive fills a prefix, down to a partial element). Returns the bytes used.
///
/// # Safety
/// Every byte of the typemap must be writable and not aliased by `data`.
pub unsafe fn unpack(data: &[u8], base: usize, count: usize, ty: &Type) -> usize {
    let mut used = 0;
    'outer: for k in 0..count {
        for s in ty.segs.iter() {
            let n = s.len.min(data.len() - used);
            let p = addr(base, ty, k, s.off) as *mut u8;
            // SAFETY: writable per the contract above; `n` bytes remain in `data`.
            unsafe { std::ptr::copy_nonoverlapping(data[used..].as_ptr(), p, n) };
            used += n;
            if used == data.len() {
                break 'outer;
            }
        }
    }
    used
}

/// `count * ty.size` as a byte length, or `MPI_ERR_COUNT`.
pub fn packed_len(count: MPI_Count, ty: &Type, what: &str) -> Result<usize> {
    usize::try_from(count)
        .ok()
        .and_then(|c| c.checked_mul(ty.size))
        .filter(|&l| l <= isize::MAX as usize)
        .ok_or_else(|| {
            MpiError::new(
                MPI_ERR_COUNT,
                format!("{what} count {count} is negative or too large"),
            )
        })
}

fn position(p: MPI_Count, size: MPI_Count) -> Result<usize> {
    if p < 0 || p > size {
        return Err(MpiError::new(
            MPI_ERR_ARG,
            format!("position {p} is outside the buffer of {size} bytes"),
        ));
    }
    Ok(p as usize)
}

fn pack_impl(
    inbuf: *const c_void,
    incount: MPI_Count,
    dt: MPI_Datatype,
    outbuf: *mut c_void,
    outsize: MPI_Count,
    pos: &mut MPI_Count,
) -> Result<()> {
    let ty = registry::committed(dt)?;
    let len = packed_len(incount, &ty, "input")?;
    let at = position(*pos, outsize)?;
    if len > outsize as usize - at {
        return Err(MpiError::new(
            MPI_ERR_TRUNCATE,
            format!(
                "packing {len} bytes at position {at} overflows the output buffer of {outsize} bytes"
            ),
        ));
    }
    if len == 0 {
        return Ok(());
    }
    non_null(outbuf, "outbuf")?;
    let (base, n) = (inbuf as usize, incount as usize);
    let v = match crate::device_buf::device_of(base, &ty, n) {
        // SAFETY: CUDA device memory covering the typemap per the MPI contract.
        Some(ordinal) => unsafe { crate::device_buf::pack_from_device(ordinal, base, n, &ty)? },
        None => {
            let mut v = Vec::with_capacity(len);
            // SAFETY: the input is readable per the MPI contract.
            unsafe { pack(base, n, &ty, &mut v) };
            v
        }
    };
    // SAFETY: the output holds `outsize` bytes and `at + len <= outsize`; `copy_into` writes
    // device memory through the driver.
    let out = unsafe { std::slice::from_raw_parts_mut((outbuf as *mut u8).add(at), len) };
    nexar::device::copy_into(out, &v)?;
    *pos += len as MPI_Count;
    Ok(())
}

fn unpack_impl(
    inbuf: *const c_void,
    insize: MPI_Count,
    pos: &mut MPI_Count,
    outbuf: *mut c_void,
    outcount: MPI_Count,
    dt: MPI_Datatype,
) -> Result<()> {
    let ty = registry::committed(dt)?;
    let len = packed_len(outcount, &ty, "output")?;
    let at = position(*pos, insize)?;
    if len > insize as usize - at {
        return Err(MpiError::new(
            MPI_ERR_TRUNCATE,
            format!(
                "unpacking {len} bytes at position {at} reads past the input of {insize} bytes"
            ),
        ));
    }
    if len == 0 {
        return Ok(());
    }
    non_null(inbuf, "inbuf")?;
    // SAFETY: the input holds `insize` bytes and `at + len <= insize`.
    let data = unsafe { std::slice::from_raw_parts((inbuf as *const u8).add(at), len) };
    // A device input is read through a host copy.
    let data = nexar::device::host_view(data)?;
    let (base, n) = (outbuf as usize, outcount as usize);
    match crate::device_buf::device_of(base, &ty, n) {
        // SAFETY: CUDA device memory covering the typemap per the MPI contract.
        Some(ordinal) => unsafe {
            crate::device_buf::edit_on_host(ordinal, base, n, &ty, |h| {
                unpack(&data, h, n, &ty);
            })?
        },
        // SAFETY: the output is writable per the MPI contract.
        None => _ = unsafe { unpack(&data, base, n, &ty) },
    }
    *pos += len as MPI_Count;
    Ok(())
}

/// Reads `*p`, runs `f` on it and writes it back on success.
fn with_pos<T: Copy>(
    p: *mut T,
    to: impl Fn(T) -> MPI_Count,
    from: impl Fn(MPI_Count) -> Option<T>,
    f: impl FnOnce(&mut MPI_Count) -> Result<()>,
) -> Result<()> {
    non_null(p, "position")?;
    // SAFETY: checked for NULL; readable per the MPI contract.
    let mut v = to(unsafe { p.read() });
    f(&mut v)?;
    let out = from(v).ok_or_else(|| {
        MpiError::new(
            MPI_ERR_VALUE_TOO_LARGE,
            format!("position {v} overflows an int"),
        )
    })?;
    // SAFETY: as above.
    unsafe { p.write(out) };
    Ok(())
}

fn pack_size(n: MPI_Count, dt: MPI_Datatype) -> Result<MPI_Count> {
    let ty = registry::committed(dt)?;
    Ok(packed_len(n, &ty, "input")? as MPI_Count)
}

fn int_count(v: MPI_Count) -> Option<c_int> {
    c_int::try_from(v).ok()
}

mpi_fn! {
    /// Packs `incount` elements into `outbuf` at `*position` (advanced past them).
    fn MPI_Pack(inbuf: *const c_void, incount: c_int, dt: MPI_Datatype, outbuf: *mut c_void,
                outsize: c_int, position: *mut c_int, comm: MPI_Comm) -> c_int => PMPI_Pack {
        call("MPI_Pack", comm, || with_pos(position, MPI_Count::from, int_count, |p| {
            pack_impl(inbuf, incount.into(), dt, outbuf, outsize.into(), p)
        }))
    }

    /// Large-count `MPI_Pack`.
    fn MPI_Pack_c(inbuf: *const c_void, incount: MPI_Count, dt: MPI_Datatype,
                  outbuf: *mut c_void, outsize: MPI_Count, position: *mut MPI_Count,
                  comm: MPI_Comm) -> c_int => PMPI_Pack_c {
        call("MPI_Pack_c", comm, || with_pos(position, |v| v, Some, |p| {
            pack_impl(inbuf, incount, dt, outbuf, outsize, p)
        }))
    }

    /// Unpacks `outcount` elements from `inbuf` at `*position` (advanced past them).
    fn MPI_Unpack(inbuf: *const c_void, insize: c_int, position: *mut c_int,
                  outbuf: *mut c_void, outcount: c_int, dt: MPI_Datatype, comm: MPI_Comm)
        -> c_int => PMPI_Unpack
    {
        call("MPI_Unpack", comm, || with_pos(position, MPI_Count::from, int_count, |p| {
            unpack_impl(inbuf, insize.into(), p, outbuf, outcount.into(), dt)
        }))
    }

    /// Large-count `MPI_Unpack`.
    fn MPI_Unpack_c(inbuf: *const c_void, insize: MPI_Count, position: *mut MPI_Count,
                    outbuf: *mut c_void, outcount: MPI_Count, dt: MPI_Datatype, comm: MPI_Comm)
        -> c_int => PMPI_Unpack_c
    {
        call("MPI_Unpack_c", comm, || with_pos(position, |v| v, Some, |p| {
            unpack_impl(inbuf, insize, p, outbuf, outcount, dt)
        }))
    }

    /// Upper bound (here: exact) on the bytes `MPI_Pack` needs for `incount` elements.
    fn MPI_Pack_size(incount: c_int, dt: MPI_Datatype, comm: MPI_Comm, size: *mut c_int)
        -> c_int => PMPI_Pack_size
    {
        call("MPI_Pack_size", comm, || {
            non_null(size, "size")?;
            let n = pack_size(incount.into(), dt)?;
            let n = int_count(n).ok_or_else(|| MpiError::new(MPI_ERR_VALUE_TOO_LARGE,
                format!("pack size {n} overflows an int; use MPI_Pack_size_c")))?;
            // SAFETY: checked for NULL.
            unsafe { size.write(n) };
            Ok(())
        })
    }

    /// Large-count `MPI_Pack_size`.
    fn MPI_Pack_size_c(incount: MPI_Count, dt: MPI_Datatype, comm: MPI_Comm,
                       size: *mut MPI_Count) -> c_int => PMPI_Pack_size_c {
        call("MPI_Pack_size_c", comm, || {
            non_null(size, "size")?;
            let n = pack_size(incount, dt)?;
            // SAFETY: checked for NULL.
            unsafe { size.write(n) };
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datatype::layout::Envelope;
    use crate::datatype::predefined;
    use std::sync::Arc;

    /// A small deterministic generator (no external crates needed).
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self, n: usize) -> usize {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((self.0 >> 33) as usize) % n
        }
    }

    #[test]
    fn vector_column_roundtrip() {
        let int = predefined::get(0x209).unwrap();
        // Column 1 of a 4x3 row-major int matrix: vector(4, 1, 3).
        let b: Vec<_> = (0..4).map(|k| (&int, 1, k * 12)).collect();
        let col = Type::blocks(&b, Envelope::default()).unwrap();
        let m: Vec<i32> = (0..12).collect();
        let mut v = Vec::new();
        // SAFETY: the matrix covers the typemap.
        unsafe { pack(m.as_ptr().wrapping_add(1) as usize, 1, &col, &mut v) };
        let got: Vec<i32> = v
            .chunks(4)
            .map(|c| i32::from_ne_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(got, vec![1, 4, 7, 10]);
        let mut out = vec![-1i32; 12];
        // SAFETY: as above.
        let used = unsafe { unpack(&v, out.as_mut_ptr() as usize, 1, &col) };
        assert_eq!(used, 16);
        assert_eq!(out, vec![1, -1, -1, 4, -1, -1, 7, -1, -1, 10, -1, -1]);
    }

    #[test]
    fn random_indexed_roundtrips() {
        let byte = predefined::get(0x247).unwrap();
        let mut rng = Lcg(7);
        for _ in 0..200 {
            let nb = 1 + rng.next(6);
            let mut blocks = Vec::new();
            let mut at = 0isize;
            for _ in 0..nb {
                at += rng.next(5) as isize;
                let len = rng.next(4);
                blocks.push((&byte, len, at));
                at += len as isize;
            }
            let inner = Arc::new(Type::blocks(&blocks, Envelope::default()).unwrap());
            let count = 1 + rng.next(3);
            let span = inner.ub.max(0) as usize + inner.extent().max(0) as usize * count;
            let src: Vec<u8> = (0..span).map(|i| i as u8).collect();
            let mut packed = Vec::new();
            // SAFETY: `span` covers every instance's typemap.
            unsafe { pack(src.as_ptr() as usize, count, &inner, &mut packed) };
            assert_eq!(packed.len(), count * inner.size);
            let mut dst = vec![0u8; span];
            // SAFETY: as above.
            unsafe { unpack(&packed, dst.as_mut_ptr() as usize, count, &inner) };
            for k in 0..count {
                for s in &inner.segs {
                    let o = (k as isize * inner.extent() + s.off) as usize;
                    assert_eq!(&dst[o..o + s.len], &src[o..o + s.len]);
                }
            }
            let mut re = Vec::new();
            // SAFETY: as above.
            unsafe { pack(dst.as_ptr() as usize, count, &inner, &mut re) };
            assert_eq!(re, packed);
        }
    }

    #[test]
    fn partial_unpack_stops_mid_way() {
        let int = predefined::get(0x209).unwrap();
        let b: Vec<_> = (0..3).map(|k| (&int, 1, k * 8)).collect();
        let t = Type::blocks(&b, Envelope::default()).unwrap();
        let data: Vec<u8> = (1..=6).collect();
        let mut out = [0u8; 24];
        // SAFETY: `out` covers the typemap.
        let used = unsafe { unpack(&data, out.as_mut_ptr() as usize, 1, &t) };
        assert_eq!(used, 6);
        assert_eq!(&out[..12], &[1, 2, 3, 4, 0, 0, 0, 0, 5, 6, 0, 0]);
    }
}
