//! `MPI_Pack_external`, `MPI_Unpack_external`, `MPI_Pack_external_size` (and `_c` forms) for
//! the `external32` representation: the packed form with every element big-endian. Element
//! sizes equal the native ones for the types supported here; types without an `external32`
//! form in this shim (`long` on LP64, pair types, 16-byte floats) are `MPI_ERR_TYPE`.

use super::layout::Type;
use super::pack::{pack, packed_len, unpack};
use super::registry;
use crate::consts::*;
use crate::error::{MpiError, Result, call, non_null};
use std::ffi::{CStr, c_char, c_int, c_void};

fn check_rep(datarep: *const c_char) -> Result<()> {
    non_null(datarep, "datarep")?;
    // SAFETY: non-NULL, NUL-terminated per the MPI contract.
    let rep = unsafe { CStr::from_ptr(datarep) }.to_bytes();
    if rep != b"external32" {
        return Err(MpiError::new(
            MPI_ERR_ARG,
            format!(
                "data representation \"{}\" is not supported (only \"external32\")",
                String::from_utf8_lossy(rep)
            ),
        ));
    }
    Ok(())
}

/// Converts packed data of `count` instances of `ty` between native and big-endian order
/// (the same swap both ways).
fn swap(data: &mut [u8], ty: &Type) -> Result<()> {
    if cfg!(target_endian = "big") || ty.size == 0 {
        return Ok(());
    }
    for inst in data.chunks_mut(ty.size) {
        let mut at = 0;
        for &(p, reps) in &ty.sig {
            if p.swap == 0 {
                return Err(MpiError::new(
                    MPI_ERR_TYPE,
                    "the datatype holds an element without an external32 form here \
                     (long, a pair type or a 16-byte float)",
                ));
            }
            let end = (at + p.size * reps).min(inst.len());
            for unit in inst[at..end].chunks_mut(p.swap) {
                unit.reverse();
            }
            at = end;
        }
    }
    Ok(())
}

fn pack_ext(
    datarep: *const c_char,
    inbuf: *const c_void,
    n: MPI_Count,
    dt: MPI_Datatype,
    outbuf: *mut c_void,
    outsize: MPI_Count,
    pos: *mut MPI_Count,
) -> Result<()> {
    check_rep(datarep)?;
    non_null(pos, "position")?;
    let ty = registry::committed(dt)?;
    let len = packed_len(n, &ty, "input")?;
    // SAFETY: checked for NULL.
    let at = unsafe { pos.read() };
    if at < 0 || at > outsize || len as MPI_Count > outsize - at {
        return Err(MpiError::new(
            MPI_ERR_TRUNCATE,
            format!("packing {len} bytes at position {at} overflows the buffer of {outsize} bytes"),
        ));
    }
    let mut v = Vec::with_capacity(len);
    // SAFETY: the input is readable per the MPI contract.
    unsafe { pack(inbuf as usize, n as usize, &ty, &mut v) };
    swap(&mut v, &ty)?;
    if len > 0 {
        non_null(outbuf, "outbuf")?;
        // SAFETY: `at + len <= outsize` bytes of the output.
        unsafe {
            std::ptr::copy_nonoverlapping(v.as_ptr(), (outbuf as *mut u8).add(at as usize), len)
        };
    }
    // SAFETY: checked for NULL.
    unsafe { pos.write(at + len as MPI_Count) };
    Ok(())
}

fn unpack_ext(
    datarep: *const c_char,
    inbuf: *const c_void,
    insize: MPI_Count,
    pos: *mut MPI_Count,
    outbuf: *mut c_void,
    n: MPI_Count,
    dt: MPI_Datatype,
) -> Result<()> {
    check_rep(datarep)?;
    non_null(pos, "position")?;
    let ty = registry::committed(dt)?;
    let len = packed_len(n, &ty, "output")?;
    // SAFETY: checked for NULL.
    let at = unsafe { pos.read() };
    if at < 0 || at > insize || len as MPI_Count > insize - at {
        return Err(MpiError::new(
            MPI_ERR_TRUNCATE,
            format!(
                "unpacking {len} bytes at position {at} reads past the input of {insize} bytes"
            ),
        ));
    }
    if len > 0 {
        non_null(inbuf, "inbuf")?;
        // SAFETY: `at + len <= insize` bytes of the input.
        let src = unsafe { std::slice::from_raw_parts((inbuf as *const u8).add(at as usize), len) };
        let mut v = src.to_vec();
        swap(&mut v, &ty)?;
        // SAFETY: the output is writable per the MPI contract.
        unsafe { unpack(&v, outbuf as usize, n as usize, &ty) };
    }
    // SAFETY: checked for NULL.
    unsafe { pos.write(at + len as MPI_Count) };
    Ok(())
}

fn size_ext(datarep: *const c_char, n: MPI_Count, dt: MPI_Datatype) -> Result<MPI_Count> {
    check_rep(datarep)?;
    let ty = registry::committed(dt)?;
    swap(&mut vec![0; ty.size], &ty)?;
    Ok(packed_len(n, &ty, "input")? as MPI_Count)
}

fn write<T>(p: *mut T, v: T) -> Result<()> {
    non_null(p, "size")?;
    // SAFETY: checked for NULL.
    unsafe { p.write(v) };
    Ok(())
}

mpi_fn! {
    /// Packs `incount` elements in `external32` form into `outbuf` at `*position`.
    fn MPI_Pack_external(datarep: *const c_char, inbuf: *const c_void, incount: c_int,
                         dt: MPI_Datatype, outbuf: *mut c_void, outsize: MPI_Aint,
                         position: *mut MPI_Aint) -> c_int => PMPI_Pack_external
    {
        call("MPI_Pack_external", MPI_COMM_WORLD, || {
            pack_ext(datarep, inbuf, incount.into(), dt, outbuf, outsize as MPI_Count,
                     position.cast())
        })
    }

    /// Large-count `MPI_Pack_external`.
    fn MPI_Pack_external_c(datarep: *const c_char, inbuf: *const c_void, incount: MPI_Count,
                           dt: MPI_Datatype, outbuf: *mut c_void, outsize: MPI_Count,
                           position: *mut MPI_Count) -> c_int => PMPI_Pack_external_c
    {
        call("MPI_Pack_external_c", MPI_COMM_WORLD, || {
            pack_ext(datarep, inbuf, incount, dt, outbuf, outsize, position)
        })
    }

    /// Unpacks `outcount` elements from `external32` form at `*position` of `inbuf`.
    fn MPI_Unpack_external(datarep: *const c_char, inbuf: *const c_void, insize: MPI_Aint,
                           position: *mut MPI_Aint, outbuf: *mut c_void, outcount: c_int,
                           dt: MPI_Datatype) -> c_int => PMPI_Unpack_external
    {
        call("MPI_Unpack_external", MPI_COMM_WORLD, || {
            unpack_ext(datarep, inbuf, insize as MPI_Count, position.cast(), outbuf,
                       outcount.into(), dt)
        })
    }

    /// Large-count `MPI_Unpack_external`.
    fn MPI_Unpack_external_c(datarep: *const c_char, inbuf: *const c_void, insize: MPI_Count,
                             position: *mut MPI_Count, outbuf: *mut c_void,
                             outcount: MPI_Count, dt: MPI_Datatype) -> c_int
        => PMPI_Unpack_external_c
    {
        call("MPI_Unpack_external_c", MPI_COMM_WORLD, || {
            unpack_ext(datarep, inbuf, insize, position, outbuf, outcount, dt)
        })
    }

    /// Bytes `MPI_Pack_external` needs for `incount` elements.
    fn MPI_Pack_external_size(datarep: *const c_char, incount: c_int, dt: MPI_Datatype,
                              size: *mut MPI_Aint) -> c_int => PMPI_Pack_external_size
    {
        call("MPI_Pack_external_size", MPI_COMM_WORLD, || {
            write(size, size_ext(datarep, incount.into(), dt)? as MPI_Aint)
        })
    }

    /// Large-count `MPI_Pack_external_size`.
    fn MPI_Pack_external_size_c(datarep: *const c_char, incount: MPI_Count, dt: MPI_Datatype,
                                size: *mut MPI_Count) -> c_int => PMPI_Pack_external_size_c
    {
        call("MPI_Pack_external_size_c", MPI_COMM_WORLD, || {
            write(size, size_ext(datarep, incount, dt)?)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datatype::predefined;

    #[test]
    fn external32_is_big_endian() {
        let int = predefined::get(0x209).unwrap();
        let mut v = 0x0102_0304i32.to_ne_bytes().to_vec();
        swap(&mut v, &int).unwrap();
        assert_eq!(v, [1, 2, 3, 4]);
        let z = predefined::get(0x216).unwrap();
        let mut c = [1.0f64.to_ne_bytes(), 2.0f64.to_ne_bytes()].concat();
        swap(&mut c, &z).unwrap();
        assert_eq!(&c[..8], &1.0f64.to_be_bytes());
        assert_eq!(&c[8..], &2.0f64.to_be_bytes());
        let ld = predefined::get(0x220).unwrap();
        assert!(swap(&mut [0; 16], &ld).is_err());
    }
}
