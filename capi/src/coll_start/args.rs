//! Argument helpers of the collective starts: roots, counts and displacements, extents, and
//! which buffer a call reads its input from (`NEXAR_IN_PLACE`).

use crate::buffers::{byte_len, counts, disjoint, input, is_in_place};
use crate::types::rank_arg;
use nexar::{Datatype, Error, ErrorKind, Result};
use std::ffi::c_void;

/// A `root` argument as a rank (a bad one is `InvalidRoot`).
pub(super) fn root_arg(root: i32) -> Result<u32> {
    rank_arg(root, ErrorKind::InvalidRoot, "root")
}

/// Bytes spanned by blocks of `counts` at `displs` (packed when NULL).
pub(super) fn extent(c: &[usize], displs: Option<&[usize]>, dt: Datatype) -> Result<usize> {
    let overflow = || Error::new(ErrorKind::InvalidCount, "counts or displacements overflow");
    let elems = match displs {
        None => c
            .iter()
            .try_fold(0usize, |a, &x| a.checked_add(x))
            .ok_or_else(overflow)?,
        Some(d) => c
            .iter()
            .zip(d)
            .try_fold(0usize, |m, (&n, &at)| at.checked_add(n).map(|e| m.max(e)))
            .ok_or_else(overflow)?,
    };
    byte_len(elems, dt)
}

/// The `n` counts (`counts_name`) and displacements (`displs_name`; NULL: packed) of a
/// v-collective.
///
/// # Safety
/// Non-NULL arrays hold `n` entries per the C contract.
pub(super) unsafe fn counts_and_displs<'a>(
    cnts: *const usize,
    displs: *const usize,
    n: usize,
    counts_name: &str,
    displs_name: &str,
) -> Result<(&'a [usize], Option<&'a [usize]>)> {
    // SAFETY: as the caller's.
    let c = unsafe { counts(cnts, n, counts_name, false)? }.unwrap_or_default();
    // SAFETY: as the caller's.
    let d = unsafe { counts(displs, n, displs_name, true)? };
    Ok((c, d))
}

/// This rank's block of a gatherv/allgatherv: read from its place in `out` (block `me` of
/// `rc` at `d`) when `send` is `NEXAR_IN_PLACE`, else `sendcount` elements of `send`.
///
/// # Safety
/// `send` holds `sendcount` elements unless it is `NEXAR_IN_PLACE`.
pub(super) unsafe fn own_block(
    send: *const c_void,
    sendcount: usize,
    out: &[u8],
    rc: &[usize],
    d: Option<&[usize]>,
    me: usize,
    dt: Datatype,
) -> Result<Vec<u8>> {
    if is_in_place(send) {
        let at = d.map_or_else(|| rc[..me].iter().sum(), |d| d[me]);
        let (start, len) = (byte_len(at, dt)?, byte_len(rc[me], dt)?);
        nexar::device::to_host_vec(&out[start..start + len])
    } else {
        // SAFETY: as the caller's.
        nexar::device::to_host_vec(unsafe { input(send, byte_len(sendcount, dt)?, "sendbuf")? })
    }
}

/// The input of a reduction-like call: `recv` itself when `send` is `NEXAR_IN_PLACE`.
///
/// # Safety
/// Buffers as documented on the entry points.
pub(super) unsafe fn input_or_in_place<'a>(
    send: *const c_void,
    recv: *mut c_void,
    len: usize,
) -> Result<&'a [u8]> {
    if is_in_place(send) {
        // SAFETY: `recv` holds `len` bytes per the C contract.
        unsafe { input(recv, len, "recvbuf") }
    } else {
        // SAFETY: `send` holds `len` bytes per the C contract.
        unsafe { input(send, len, "sendbuf") }
    }
}

/// `input_or_in_place` for calls whose receive buffer has the input's size, refusing a send
/// buffer that overlaps it (see `disjoint`).
///
/// # Safety
/// Buffers as documented on the entry points.
pub(super) unsafe fn input_not_aliased<'a>(
    send: *const c_void,
    recv: *mut c_void,
    len: usize,
) -> Result<&'a [u8]> {
    disjoint(send, len, recv, len)?;
    // SAFETY: as the caller's.
    unsafe { input_or_in_place(send, recv, len) }
}
