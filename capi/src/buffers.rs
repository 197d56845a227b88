//! Turning C buffer arguments into checked byte slices, and carrying a receive buffer into a
//! background task. libnexar's rules (NULL only with a zero length, `NEXAR_IN_PLACE`, `size_t`
//! count arrays) are here; the views themselves and the overlap test are
//! [`nexar_bind::buffers`].

use crate::boundary::null_arg;
use nexar::{Datatype, Error, ErrorKind, Result};
use nexar_bind::buffers::{overlaps, view, view_mut};
use std::ffi::c_void;

/// The value of `NEXAR_IN_PLACE`.
pub(crate) const IN_PLACE: usize = 1;

/// True if `p` is `NEXAR_IN_PLACE`.
pub fn is_in_place(p: *const c_void) -> bool {
    p as usize == IN_PLACE
}

/// `count` elements of `dt` in bytes, checked for overflow (a negative count cast to `size_t`
/// overflows here).
pub fn byte_len(count: usize, dt: Datatype) -> Result<usize> {
    count
        .checked_mul(dt.size())
        .filter(|&b| b <= isize::MAX as usize)
        .ok_or_else(|| {
            Error::new(
                ErrorKind::InvalidCount,
                format!("count {count} of {dt} is too large (negative count?)"),
            )
        })
}

/// A read-only view of a C buffer of `len` bytes. NULL is allowed only when `len == 0`.
///
/// # Safety
/// If non-NULL, `p` must be valid for reads of `len` bytes for the returned lifetime.
pub unsafe fn input<'a>(p: *const c_void, len: usize, name: &str) -> Result<&'a [u8]> {
    if len > 0 && (p.is_null() || is_in_place(p)) {
        return Err(null_arg(name));
    }
    // SAFETY: non-NULL when `len > 0`, and the C contract makes it readable for `len` bytes.
    Ok(unsafe { view(p.cast(), len) })
}

/// The checks of [`output`] without making the slice: lets a collective refuse a bad receive
/// buffer before it starts (a call refused after its start would leave the other ranks in it).
pub fn check_output(p: *mut c_void, len: usize, name: &str) -> Result<()> {
    if len > 0 && (p.is_null() || is_in_place(p)) {
        return Err(null_arg(name));
    }
    Ok(())
}

/// A writable view of a C buffer of `len` bytes. NULL is allowed only when `len == 0`.
///
/// # Safety
/// If non-NULL, `p` must be valid for writes of `len` bytes for the returned lifetime and not
/// aliased by another live reference.
pub unsafe fn output<'a>(p: *mut c_void, len: usize, name: &str) -> Result<&'a mut [u8]> {
    check_output(p, len, name)?;
    // SAFETY: non-NULL when `len > 0`, and the C contract makes it writable for `len` bytes.
    Ok(unsafe { view_mut(p.cast(), len) })
}

/// Fails if a send buffer of `send_len` bytes and a receive buffer of `recv_len` bytes overlap:
/// the engine may read the input while writing the result, so an aliased call would compute
/// garbage. `NEXAR_IN_PLACE` (the way to share one buffer), NULL and empty buffers never overlap.
pub fn disjoint(
    send: *const c_void,
    send_len: usize,
    recv: *const c_void,
    recv_len: usize,
) -> Result<()> {
    if send.is_null() || recv.is_null() || is_in_place(send) {
        return Ok(());
    }
    if overlaps(send.cast(), send_len, recv.cast(), recv_len) {
        return Err(Error::invalid(format!(
            "`sendbuf` ({send_len} bytes at {send:p}) and `recvbuf` ({recv_len} bytes at \
             {recv:p}) overlap; pass NEXAR_IN_PLACE as `sendbuf` to use one buffer"
        )));
    }
    Ok(())
}

/// A C array of `n` counts or displacements (`size_t`). NULL allowed only when `optional`.
///
/// # Safety
/// If non-NULL, `p` must be valid for reads of `n` `size_t`s.
pub unsafe fn counts<'a>(
    p: *const usize,
    n: usize,
    name: &str,
    optional: bool,
) -> Result<Option<&'a [usize]>> {
    if p.is_null() {
        return if optional {
            Ok(None)
        } else {
            Err(null_arg(name))
        };
    }
    // SAFETY: non-NULL, and the C contract makes it readable for `n` entries.
    Ok(Some(unsafe { std::slice::from_raw_parts(p, n) }))
}

/// A receive buffer that a background task writes into. The C caller promises it stays valid
/// and untouched until the request completes (documented on every `nexar_i*` function).
#[derive(Clone, Copy)]
pub struct RawOut {
    ptr: *mut u8,
    len: usize,
}

// SAFETY: the pointer is only dereferenced by the one task that owns the request, while the C
// caller keeps the buffer alive and untouched (the documented contract).
unsafe impl Send for RawOut {}

impl RawOut {
    /// Captures a checked output buffer.
    pub fn new(buf: &mut [u8]) -> Self {
        Self {
            ptr: buf.as_mut_ptr(),
            len: buf.len(),
        }
    }

    /// Its length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True if the buffer is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The buffer again.
    ///
    /// # Safety
    /// The C caller must have kept the buffer valid and unaliased (see the type's docs).
    pub unsafe fn get<'a>(self) -> &'a mut [u8] {
        // SAFETY: see the type-level contract.
        unsafe { view_mut(self.ptr, self.len) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlapping_buffers_are_refused_touching_ones_are_not() {
        let v = [0u8; 64];
        let p = |i: usize| v[i..].as_ptr().cast::<c_void>();
        assert!(disjoint(p(0), 16, p(0), 16).is_err());
        assert!(disjoint(p(8), 16, p(0), 16).is_err());
        assert!(disjoint(p(0), 16, p(15), 4).is_err());
        let e = disjoint(p(0), 4, p(2), 4).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidArgument);
        assert!(e.message().contains("NEXAR_IN_PLACE"), "{e}");
        assert!(disjoint(p(0), 16, p(16), 16).is_ok(), "touching");
        assert!(disjoint(p(16), 16, p(0), 16).is_ok());
        assert!(disjoint(p(0), 0, p(0), 16).is_ok(), "empty");
        assert!(disjoint(IN_PLACE as *const c_void, 16, p(0), 16).is_ok());
        assert!(disjoint(std::ptr::null(), 16, p(0), 16).is_ok());
    }

    #[test]
    fn receive_buffers_are_checked_without_a_slice() {
        let mut v = [0u8; 4];
        assert!(check_output(v.as_mut_ptr().cast(), 4, "recvbuf").is_ok());
        assert!(check_output(std::ptr::null_mut(), 0, "recvbuf").is_ok());
        let e = check_output(std::ptr::null_mut(), 4, "recvbuf").unwrap_err();
        assert!(e.message().contains("`recvbuf` is NULL"), "{e}");
        assert!(check_output(IN_PLACE as *mut c_void, 4, "recvbuf").is_err());
    }
}
