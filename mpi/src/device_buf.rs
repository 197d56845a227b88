//! CUDA-aware user buffers in the shim ("CUDA-aware MPI", nexar's `cuda` feature).
//!
//! The engine stages device memory itself wherever it takes a slice, but the shim also copies
//! user buffers on the host: packing derived datatypes, copying a send before a receive may
//! overwrite it, unpacking into a derived receive layout. Those copies go through here: a
//! device buffer's data is moved through a host copy of the bytes its typemap spans (never
//! dereferenced on the host). Without the feature, [`device_of`] is a constant `None`.

use crate::datatype::layout::Type;
use crate::datatype::pack::pack;

/// The bytes the data of `count` instances of `ty` at offset 0 occupy: `(first byte offset,
/// length)` (`(0, 0)` when there is no data).
pub fn span(ty: &Type, count: usize) -> (isize, usize) {
    if count == 0 || ty.size == 0 {
        return (0, 0);
    }
    let last = (count as isize - 1).wrapping_mul(ty.extent());
    let lo = last.min(0) + ty.true_lb;
    let hi = last.max(0) + ty.true_ub;
    (lo, (hi - lo) as usize)
}

/// The CUDA device owning the data of `count` instances of `ty` at `base`, or `None` for
/// memory the host may touch (always `None` without the `cuda` feature).
#[inline]
pub fn device_of(base: usize, ty: &Type, count: usize) -> Option<i32> {
    if cfg!(not(feature = "cuda")) {
        return None;
    }
    let (lo, len) = span(ty, count);
    if len == 0 {
        return None;
    }
    match nexar::device::classify(base.wrapping_add_signed(lo) as *const u8) {
        nexar::device::Memory::Device { ordinal } => Some(ordinal),
        _ => None,
    }
}

/// The packed form of `count` instances of `ty` at device address `base` (device `ordinal`).
///
/// # Safety
/// The typemap's span must be a live allocation of that device (the MPI contract).
pub unsafe fn pack_from_device(
    ordinal: i32,
    base: usize,
    count: usize,
    ty: &Type,
) -> nexar::Result<Vec<u8>> {
    let (lo, len) = span(ty, count);
    let mut host = vec![0u8; len];
    // SAFETY: per the contract above.
    unsafe { nexar::device::download_to(ordinal, base.wrapping_add_signed(lo) as u64, &mut host)? };
    if ty.dense(count) {
        return Ok(host);
    }
    Ok(pack_span_copy(&host, lo, count, ty))
}

/// Packs `count` instances of `ty` from `host`, a copy of their span starting at offset `lo`
/// (see [`span`]).
pub fn pack_span_copy(host: &[u8], lo: isize, count: usize, ty: &Type) -> Vec<u8> {
    assert_eq!(
        host.len(),
        span(ty, count).1,
        "pack_span_copy: not the whole span"
    );
    let mut out = Vec::with_capacity(count * ty.size);
    // SAFETY: `host` holds the whole span, so every typemap byte, shifted by `-lo`, is in it.
    unsafe {
        pack(
            (host.as_ptr() as usize).wrapping_add_signed(-lo),
            count,
            ty,
            &mut out,
        )
    };
    out
}

/// Copies `data` to device address `dst` of device `ordinal`.
///
/// # Safety
/// `dst` must be a live allocation of that device for `data.len()` bytes.
pub unsafe fn upload(ordinal: i32, data: &[u8], dst: usize) -> nexar::Result<()> {
    if data.is_empty() {
        return Ok(());
    }
    // SAFETY: per the contract above.
    unsafe { nexar::device::upload_from(ordinal, data, dst as u64) }
}

/// Runs `write` on a host copy of the span of `count` instances of `ty` at device address
/// `base` (passing the host address standing for `base`), then copies the span back: bytes
/// `write` leaves alone keep their device contents.
///
/// # Safety
/// The span must be a live allocation of device `ordinal`, not used by anyone else meanwhile.
pub unsafe fn edit_on_host(
    ordinal: i32,
    base: usize,
    count: usize,
    ty: &Type,
    write: impl FnOnce(usize),
) -> nexar::Result<()> {
    let (lo, len) = span(ty, count);
    if len == 0 {
        return Ok(());
    }
    let start = base.wrapping_add_signed(lo);
    let mut host = vec![0u8; len];
    // SAFETY: per the contract above.
    unsafe { nexar::device::download_to(ordinal, start as u64, &mut host)? };
    write((host.as_mut_ptr() as usize).wrapping_add_signed(-lo));
    // SAFETY: as above.
    unsafe { upload(ordinal, &host, start) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datatype::layout::Envelope;

    fn int() -> std::sync::Arc<Type> {
        crate::datatype::predefined::get(0x209).unwrap()
    }

    #[test]
    fn span_covers_every_instance_in_either_direction() {
        let int = int();
        assert_eq!(span(&int, 0), (0, 0));
        assert_eq!(span(&int, 5), (0, 20));
        // A resized type with a hole in front of its data and a negative extent.
        let mut t = (*int).clone();
        t.true_lb = 8;
        t.true_ub = 12;
        assert_eq!(span(&t, 3), (8, 12 - 8 + 2 * t.extent() as usize));
        t.lb = 0;
        t.ub = -16;
        assert_eq!(span(&t, 3), (8 - 32, 36));
    }

    #[test]
    fn packing_a_span_copy_matches_packing_the_original() {
        let i = int();
        // vector(3, 2, 4, int): data at ints 0-1, 4-5, 8-9 of each 40-byte instance.
        let b: Vec<_> = (0..3).map(|k| (&i, 2, k * 16)).collect();
        let t = Type::blocks(&b, Envelope::default()).unwrap();
        let src: Vec<i32> = (0..20).collect();
        let base = src.as_ptr() as usize;
        let mut direct = Vec::new();
        // SAFETY: `src` covers two instances (extent 40 bytes).
        unsafe { pack(base, 2, &t, &mut direct) };
        let (lo, len) = span(&t, 2);
        assert_eq!((lo, len), (0, 80));
        // SAFETY: the span lies inside `src`.
        let span_bytes =
            unsafe { std::slice::from_raw_parts((base as *const u8).add(lo as usize), len) };
        // A separate copy at another address, as a staged device span would be.
        let copy = span_bytes.to_vec();
        assert_eq!(pack_span_copy(&copy, lo, 2, &t), direct);
    }

    #[test]
    fn host_memory_is_never_a_device() {
        let int = int();
        let v = [1i32; 4];
        assert_eq!(device_of(v.as_ptr() as usize, &int, 4), None);
        assert_eq!(device_of(0, &int, 0), None);
    }
}
