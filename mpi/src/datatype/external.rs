//! `MPI_Pack_external`, `MPI_Unpack_external`, `MPI_Pack_external_size` (and `_c` forms) for
//! the `external32` representation: the packed form with every element converted by
//! [`super::ext32`] (big-endian; `long` in 4 bytes, pair types without padding, `long double`
//! as an IEEE quad). CUDA device buffers (feature `cuda`) are read and written through host
//! copies, as `MPI_Pack` does.

use super::ext32::{ext_size, from_ext, to_ext};
use super::layout::Type;
use super::pack::{pack, packed_len, unpack};
use super::registry;
use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
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
    let native = packed_len(n, &ty, "input")?;
    let len = ext_len(n, &ty)?;
    // SAFETY: checked for NULL.
    let at = unsafe { pos.read() };
    if at < 0 || at > outsize || len as MPI_Count > outsize - at {
        return Err(MpiError::new(
            MPI_ERR_TRUNCATE,
            format!("packing {len} bytes at position {at} overflows the buffer of {outsize} bytes"),
        ));
    }
    let (base, count) = (inbuf as usize, n as usize);
    let v = match crate::device_buf::device_of(base, &ty, count) {
        // SAFETY: CUDA device memory covering the typemap per the MPI contract.
        Some(ordinal) => unsafe { crate::device_buf::pack_from_device(ordinal, base, count, &ty)? },
        None => {
            let mut v = Vec::with_capacity(native);
            // SAFETY: the input is readable per the MPI contract.
            unsafe { pack(base, count, &ty, &mut v) };
            v
        }
    };
    let mut e = Vec::with_capacity(len);
    to_ext(&v, &ty, &mut e)?;
    if len > 0 {
        non_null(outbuf, "outbuf")?;
        // SAFETY: `at + len <= outsize` bytes of the output; `copy_into` writes device memory
        // through the driver.
        let out =
            unsafe { std::slice::from_raw_parts_mut((outbuf as *mut u8).add(at as usize), len) };
        nexar::device::copy_into(out, &e)?;
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
    let native = packed_len(n, &ty, "output")?;
    let len = ext_len(n, &ty)?;
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
        // A device input is read through a host copy.
        let src = nexar::device::host_view(src)?;
        let mut v = vec![0u8; native];
        from_ext(&src, &ty, &mut v)?;
        let (base, count) = (outbuf as usize, n as usize);
        match crate::device_buf::device_of(base, &ty, count) {
            // SAFETY: CUDA device memory covering the typemap per the MPI contract.
            Some(ordinal) => unsafe {
                crate::device_buf::edit_on_host(ordinal, base, count, &ty, |h| {
                    unpack(&v, h, count, &ty);
                })?
            },
            // SAFETY: the output is writable per the MPI contract.
            None => _ = unsafe { unpack(&v, base, count, &ty) },
        }
    }
    // SAFETY: checked for NULL.
    unsafe { pos.write(at + len as MPI_Count) };
    Ok(())
}

fn size_ext(datarep: *const c_char, n: MPI_Count, dt: MPI_Datatype) -> Result<MPI_Count> {
    check_rep(datarep)?;
    let ty = registry::committed(dt)?;
    Ok(ext_len(n, &ty)? as MPI_Count)
}

/// Bytes of the `external32` form of `n` instances of `ty`.
fn ext_len(n: MPI_Count, ty: &Type) -> Result<usize> {
    packed_len(n, ty, "input")?;
    usize::try_from(n)
        .ok()
        .and_then(|n| n.checked_mul(ext_size(ty).ok()?))
        .ok_or_else(|| {
            MpiError::new(
                MPI_ERR_COUNT,
                format!("the external32 size of {n} elements overflows"),
            )
        })
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

    fn ext(h: usize, native: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        to_ext(native, &predefined::get(h).unwrap(), &mut out).unwrap();
        out
    }

    #[test]
    fn external32_is_big_endian() {
        assert_eq!(ext(0x209, &0x0102_0304i32.to_ne_bytes()), [1, 2, 3, 4]);
        let c = [1.0f64.to_ne_bytes(), 2.0f64.to_ne_bytes()].concat();
        assert_eq!(
            ext(0x216, &c),
            [1.0f64.to_be_bytes(), 2.0f64.to_be_bytes()].concat()
        );
    }

    #[test]
    fn pairs_drop_padding_and_long_is_four_bytes() {
        let di = predefined::get(0x229).unwrap(); // MPI_DOUBLE_INT
        assert_eq!(ext_size(&di).unwrap(), 12);
        // The packed native element is 12 bytes too: the value, then the int.
        let mut native = [0u8; 12];
        native[..8].copy_from_slice(&3.5f64.to_ne_bytes());
        native[8..12].copy_from_slice(&7i32.to_ne_bytes());
        let e = ext(0x229, &native);
        assert_eq!(
            e,
            [3.5f64.to_be_bytes().as_slice(), &7i32.to_be_bytes()].concat()
        );
        let mut back = [0u8; 12];
        from_ext(&e, &di, &mut back).unwrap();
        assert_eq!(back, native);
        let si = predefined::get(0x22c).unwrap(); // MPI_SHORT_INT: 2 + 4 bytes packed
        let native = [(-3i16).to_ne_bytes().as_slice(), &9i32.to_ne_bytes()].concat();
        let e = ext(0x22c, &native);
        assert_eq!(
            e,
            [(-3i16).to_be_bytes().as_slice(), &9i32.to_be_bytes()].concat()
        );
        let mut back = [0u8; 6];
        from_ext(&e, &si, &mut back).unwrap();
        assert_eq!(back[..], native[..]);
        let long = predefined::get(0x20a).unwrap();
        assert_eq!(ext_size(&long).unwrap(), 4);
        assert_eq!(
            ext_size(&predefined::get(0x22c).unwrap()).unwrap(),
            6,
            "short_int"
        );
        assert_eq!(
            ext_size(&predefined::get(0x220).unwrap()).unwrap(),
            16,
            "long double"
        );
    }
}
