//! Raw buffer views and the aliasing test. Both C-facing crates receive buffers as a pointer
//! and a length and hand the engine slices: making a slice from a pointer must never happen
//! for an empty buffer (C may pass NULL or a dangling pointer with a zero count, which
//! `std::slice::from_raw_parts` does not allow), and a send and a receive buffer that share
//! bytes must be refused before the engine reads one while writing the other. The checks that
//! come before (NULL with a positive count, `NEXAR_IN_PLACE` / `MPI_IN_PLACE`, `MPI_BOTTOM`,
//! datatype layouts) are each crate's own.

/// Whether the byte ranges `a .. a + a_len` and `b .. b + b_len` share a byte. Empty ranges
/// share none; ranges that only touch do not overlap. Addresses near the top of the address
/// space saturate instead of wrapping.
pub fn overlaps(a: *const u8, a_len: usize, b: *const u8, b_len: usize) -> bool {
    if a_len == 0 || b_len == 0 {
        return false;
    }
    let (a, b) = (a as usize, b as usize);
    a < b.saturating_add(b_len) && b < a.saturating_add(a_len)
}

/// The `len` bytes at `p` as a slice; an empty slice (without looking at `p`, which may be
/// NULL or dangling) when `len == 0`.
///
/// # Safety
/// If `len > 0`, `p` must be non-NULL and valid for reads of `len` bytes for `'a`, with no
/// writer in that time (the C caller's contract).
pub unsafe fn view<'a>(p: *const u8, len: usize) -> &'a [u8] {
    if len == 0 {
        return &[];
    }
    // SAFETY: per this function's contract.
    unsafe { std::slice::from_raw_parts(p, len) }
}

/// The `len` bytes at `p` as a writable slice; an empty slice (without looking at `p`) when
/// `len == 0`.
///
/// # Safety
/// If `len > 0`, `p` must be non-NULL and valid for writes of `len` bytes for `'a`, and not
/// aliased by any other live reference in that time (the C caller's contract).
pub unsafe fn view_mut<'a>(p: *mut u8, len: usize) -> &'a mut [u8] {
    if len == 0 {
        return &mut [];
    }
    // SAFETY: per this function's contract.
    unsafe { std::slice::from_raw_parts_mut(p, len) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlapping_ranges_are_found_touching_and_empty_ones_are_not() {
        let v = [0u8; 64];
        let p = |i: usize| v[i..].as_ptr();
        assert!(overlaps(p(0), 16, p(0), 16), "the same range");
        assert!(overlaps(p(8), 16, p(0), 16));
        assert!(overlaps(p(0), 16, p(15), 4), "one shared byte");
        assert!(overlaps(p(0), 64, p(10), 1), "one inside the other");
        assert!(!overlaps(p(0), 16, p(16), 16), "touching");
        assert!(!overlaps(p(16), 16, p(0), 16));
        assert!(!overlaps(p(0), 0, p(0), 16), "empty");
        assert!(!overlaps(p(0), 16, p(0), 0));
        let near_top = (usize::MAX - 8) as *const u8;
        assert!(
            overlaps(near_top, 16, near_top, 16),
            "saturates, does not wrap"
        );
        assert!(!overlaps(std::ptr::null(), 16, near_top, 16));
    }

    #[test]
    fn empty_views_never_read_the_pointer() {
        // SAFETY: an empty view does not touch the pointer.
        let (r, w) = unsafe { (view(std::ptr::null(), 0), view_mut(std::ptr::null_mut(), 0)) };
        assert!(r.is_empty() && w.is_empty());
        let mut v = [1u8, 2, 3];
        // SAFETY: `v` is valid for 3 bytes and not otherwise used while the view lives.
        let s = unsafe { view_mut(v.as_mut_ptr(), 3) };
        s[1] = 9;
        // SAFETY: as above.
        assert_eq!(unsafe { view(v.as_ptr(), 3) }, &[1, 9, 3]);
    }
}
