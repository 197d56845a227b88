//! Argument checks and buffer views shared by the point-to-point and collective functions.
//! Counts arrive as 64-bit (`MPI_Count`) from both the `int` and the `_c` entry points.

use crate::consts::*;
use crate::error::{MpiError, Result};
use crate::handles::datatype;
use nexar::Datatype;
use std::ffi::{c_int, c_void};

/// A checked buffer description: element type and length in bytes.
#[derive(Debug, Clone, Copy)]
pub struct Buf {
    /// Start (NULL only when `len` is 0).
    pub ptr: *const u8,
    /// nexar element type.
    pub dtype: Datatype,
    /// Length in bytes.
    pub len: usize,
}

impl Buf {
    /// Checks `count` (`MPI_ERR_COUNT`), the datatype (`MPI_ERR_TYPE`) and the pointer
    /// (`MPI_ERR_BUFFER` if NULL with a positive count).
    pub fn new(ptr: *const c_void, count: MPI_Count, dt: MPI_Datatype, what: &str) -> Result<Self> {
        if count < 0 {
            return Err(MpiError::new(
                MPI_ERR_COUNT,
                format!("{what} count {count} is negative"),
            ));
        }
        let dtype = datatype(dt)?;
        let len = usize::try_from(count)
            .ok()
            .and_then(|c| c.checked_mul(dtype.size()))
            .filter(|&l| l <= isize::MAX as usize)
            .ok_or_else(|| {
                MpiError::new(MPI_ERR_COUNT, format!("{what} count {count} is too large"))
            })?;
        if len > 0 && ptr.is_null() {
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
        Ok(Self {
            ptr: ptr.cast(),
            dtype,
            len,
        })
    }

    /// The bytes.
    ///
    /// # Safety
    /// The caller's buffer must be readable for `len` bytes (the MPI contract).
    pub unsafe fn bytes<'a>(&self) -> &'a [u8] {
        if self.len == 0 {
            return &[];
        }
        // SAFETY: non-NULL (checked in `new`) and readable for `len` bytes per the contract.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }

    /// The bytes, writable.
    ///
    /// # Safety
    /// The caller's buffer must be writable for `len` bytes and not aliased by another live
    /// slice.
    pub unsafe fn bytes_mut<'a>(&self) -> &'a mut [u8] {
        if self.len == 0 {
            return &mut [];
        }
        // SAFETY: non-NULL (checked in `new`) and writable for `len` bytes per the contract.
        unsafe { std::slice::from_raw_parts_mut(self.ptr as *mut u8, self.len) }
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
