//! Datatype constructors (each with its `_c` large-count form), `MPI_Type_dup`,
//! `MPI_Type_commit` and `MPI_Type_free`. New types are uncommitted; their layout is computed
//! once, here.

use super::layout::{Envelope, Type};
use super::registry;
use super::*;
use crate::coll::vector::ArrayInt;
use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
use std::ffi::c_int;
use std::sync::Arc;

/// Reads `n` entries of a caller's array as 64-bit values.
pub(crate) fn read<T: ArrayInt>(p: *const T, n: usize, what: &str) -> Result<Vec<i64>> {
    if n > 0 {
        non_null(p, what)?;
    }
    // SAFETY: checked for NULL; the array holds `n` entries per the MPI contract.
    Ok((0..n).map(|i| unsafe { p.add(i).read() }.wide()).collect())
}

/// A non-negative count or block length.
pub(crate) fn nonneg(v: i64, what: &str) -> Result<usize> {
    usize::try_from(v).map_err(|_| MpiError::new(MPI_ERR_COUNT, format!("{what} {v} is negative")))
}

/// `a * b` in bytes, or `MPI_ERR_ARG` on overflow.
fn mul(a: i64, b: isize) -> Result<isize> {
    isize::try_from(a)
        .ok()
        .and_then(|a| a.checked_mul(b))
        .ok_or_else(|| MpiError::new(MPI_ERR_ARG, "displacement overflows"))
}

/// The envelope of a constructor call: `large` (a `_c` form) puts the integer and address
/// arguments in the large counts.
pub(crate) fn env(
    combiner: c_int,
    large: bool,
    ints: &[i64],
    aints: &[i64],
    types: &[MPI_Datatype],
) -> Result<Envelope> {
    let types = types
        .iter()
        .map(|&h| Ok((h, registry::layout(h)?)))
        .collect::<Result<_>>()?;
    Ok(if large {
        Envelope {
            combiner,
            counts: ints.iter().chain(aints).copied().collect(),
            types,
            ..Default::default()
        }
    } else {
        Envelope {
            combiner,
            ints: ints.iter().map(|&v| v as c_int).collect(),
            aints: aints.iter().map(|&v| v as MPI_Aint).collect(),
            types,
            ..Default::default()
        }
    })
}

/// Registers `t` as a new uncommitted handle in `*out`.
pub(crate) fn publish(out: *mut MPI_Datatype, t: Type) -> Result<()> {
    let h = registry::insert(Arc::new(t), false)?;
    // SAFETY: checked for NULL by the caller; writable per the MPI contract.
    unsafe { out.write(h) };
    Ok(())
}

fn contiguous(n: i64, old: MPI_Datatype, large: bool, out: *mut MPI_Datatype) -> Result<()> {
    non_null(out, "newtype")?;
    let o = registry::layout(old)?;
    let e = env(MPI_COMBINER_CONTIGUOUS, large, &[n], &[], &[old])?;
    publish(out, Type::blocks(&[(&o, nonneg(n, "count")?, 0)], e)?)
}

/// Vector (`stride` in elements) or hvector (`bytes`: stride in bytes).
fn vector(
    n: i64,
    bl: i64,
    stride: i64,
    bytes: bool,
    old: MPI_Datatype,
    large: bool,
    out: *mut MPI_Datatype,
) -> Result<()> {
    non_null(out, "newtype")?;
    let o = registry::layout(old)?;
    let e = if bytes {
        env(MPI_COMBINER_HVECTOR, large, &[n, bl], &[stride], &[old])?
    } else {
        env(MPI_COMBINER_VECTOR, large, &[n, bl, stride], &[], &[old])?
    };
    let step = if bytes {
        mul(stride, 1)?
    } else {
        mul(stride, o.extent())?
    };
    let bl = nonneg(bl, "blocklength")?;
    let n = nonneg(n, "count")?;
    // One block's runs repeated at the stride: no per-block memory, however many blocks.
    let block = Type::blocks(&[(&o, bl, 0)], Envelope::default())?;
    if let Some(t) = Type::strided(&block, n, step as isize, e.clone())? {
        return publish(out, t);
    }
    if n > super::layout::MAX_SEGS {
        return Err(MpiError::new(
            MPI_ERR_ARG,
            format!("a vector of {n} blocks of this type has too many non-contiguous pieces"),
        ));
    }
    let blocks = (0..n)
        .map(|k| Ok((&o, bl, mul(k as i64, step)?)))
        .collect::<Result<Vec<_>>>()?;
    publish(out, Type::blocks(&blocks, e)?)
}

/// Indexed forms: `bls` (one per block, or one for all: `_block`), displacements in elements
/// or bytes (`bytes`).
#[allow(clippy::too_many_arguments)]
fn indexed(
    combiner: c_int,
    bls: &[i64],
    displs: &[i64],
    bytes: bool,
    old: MPI_Datatype,
    large: bool,
    out: *mut MPI_Datatype,
) -> Result<()> {
    non_null(out, "newtype")?;
    let o = registry::layout(old)?;
    let n = displs.len() as i64;
    let ints = if bytes {
        [&[n], bls].concat()
    } else {
        [&[n], bls, displs].concat()
    };
    let aints = if bytes { displs.to_vec() } else { Vec::new() };
    let e = env(combiner, large, &ints, &aints, &[old])?;
    let unit = if bytes { 1 } else { o.extent() };
    let blocks = displs
        .iter()
        .enumerate()
        .map(|(i, &d)| {
            let bl = bls.get(i).copied().unwrap_or(bls[0]);
            Ok((&o, nonneg(bl, "blocklength")?, mul(d, unit)?))
        })
        .collect::<Result<Vec<_>>>()?;
    publish(out, Type::blocks(&blocks, e)?)
}

fn structure(
    bls: &[i64],
    displs: &[i64],
    types: &[MPI_Datatype],
    large: bool,
    out: *mut MPI_Datatype,
) -> Result<()> {
    non_null(out, "newtype")?;
    let n = bls.len() as i64;
    let e = env(
        MPI_COMBINER_STRUCT,
        large,
        &[&[n], bls].concat(),
        displs,
        types,
    )?;
    let layouts = e.types.iter().map(|t| t.1.clone()).collect::<Vec<_>>();
    let blocks = layouts
        .iter()
        .zip(bls.iter().zip(displs))
        .map(|(t, (&bl, &d))| Ok((t, nonneg(bl, "blocklength")?, mul(d, 1)?)))
        .collect::<Result<Vec<_>>>()?;
    let mut t = Type::blocks(&blocks, e)?;
    t.pad_to_alignment();
    publish(out, t)
}

fn resized(
    old: MPI_Datatype,
    lb: i64,
    extent: i64,
    large: bool,
    out: *mut MPI_Datatype,
) -> Result<()> {
    non_null(out, "newtype")?;
    let o = registry::layout(old)?;
    let e = env(MPI_COMBINER_RESIZED, large, &[], &[lb, extent], &[old])?;
    publish(out, o.resized(mul(lb, 1)?, mul(extent, 1)?, e))
}

fn count_of(n: i64) -> Result<usize> {
    nonneg(n, "count")
}

mpi_fn! {
    /// `count` copies of `oldtype`, back to back.
    fn MPI_Type_contiguous(n: c_int, old: MPI_Datatype, newtype: *mut MPI_Datatype) -> c_int
        => PMPI_Type_contiguous
    {
        call("MPI_Type_contiguous", MPI_COMM_WORLD, || contiguous(n.into(), old, false, newtype))
    }

    /// Large-count `MPI_Type_contiguous`.
    fn MPI_Type_contiguous_c(n: MPI_Count, old: MPI_Datatype, newtype: *mut MPI_Datatype)
        -> c_int => PMPI_Type_contiguous_c
    {
        call("MPI_Type_contiguous_c", MPI_COMM_WORLD, || contiguous(n, old, true, newtype))
    }

    /// `count` blocks of `blocklength` elements, `stride` elements apart.
    fn MPI_Type_vector(n: c_int, bl: c_int, stride: c_int, old: MPI_Datatype,
                       newtype: *mut MPI_Datatype) -> c_int => PMPI_Type_vector {
        call("MPI_Type_vector", MPI_COMM_WORLD, || {
            vector(n.into(), bl.into(), stride.into(), false, old, false, newtype)
        })
    }

    /// Large-count `MPI_Type_vector`.
    fn MPI_Type_vector_c(n: MPI_Count, bl: MPI_Count, stride: MPI_Count, old: MPI_Datatype,
                         newtype: *mut MPI_Datatype) -> c_int => PMPI_Type_vector_c {
        call("MPI_Type_vector_c", MPI_COMM_WORLD, || {
            vector(n, bl, stride, false, old, true, newtype)
        })
    }

    /// `count` blocks of `blocklength` elements, `stride` bytes apart.
    fn MPI_Type_create_hvector(n: c_int, bl: c_int, stride: MPI_Aint, old: MPI_Datatype,
                               newtype: *mut MPI_Datatype) -> c_int
        => PMPI_Type_create_hvector
    {
        call("MPI_Type_create_hvector", MPI_COMM_WORLD, || {
            vector(n.into(), bl.into(), stride as i64, true, old, false, newtype)
        })
    }

    /// Large-count `MPI_Type_create_hvector`.
    fn MPI_Type_create_hvector_c(n: MPI_Count, bl: MPI_Count, stride: MPI_Count,
                                 old: MPI_Datatype, newtype: *mut MPI_Datatype) -> c_int
        => PMPI_Type_create_hvector_c
    {
        call("MPI_Type_create_hvector_c", MPI_COMM_WORLD, || {
            vector(n, bl, stride, true, old, true, newtype)
        })
    }

    /// Blocks of `blocklengths[i]` elements at `displacements[i]` elements.
    fn MPI_Type_indexed(n: c_int, bls: *const c_int, displs: *const c_int, old: MPI_Datatype,
                        newtype: *mut MPI_Datatype) -> c_int => PMPI_Type_indexed {
        call("MPI_Type_indexed", MPI_COMM_WORLD, || {
            let n = count_of(n.into())?;
            indexed(MPI_COMBINER_INDEXED, &read(bls, n, "array_of_blocklengths")?,
                    &read(displs, n, "array_of_displacements")?, false, old, false, newtype)
        })
    }

    /// Large-count `MPI_Type_indexed`.
    fn MPI_Type_indexed_c(n: MPI_Count, bls: *const MPI_Count, displs: *const MPI_Count,
                          old: MPI_Datatype, newtype: *mut MPI_Datatype) -> c_int
        => PMPI_Type_indexed_c
    {
        call("MPI_Type_indexed_c", MPI_COMM_WORLD, || {
            let n = count_of(n)?;
            indexed(MPI_COMBINER_INDEXED, &read(bls, n, "array_of_blocklengths")?,
                    &read(displs, n, "array_of_displacements")?, false, old, true, newtype)
        })
    }

    /// Blocks of `blocklengths[i]` elements at `displacements[i]` bytes.
    fn MPI_Type_create_hindexed(n: c_int, bls: *const c_int, displs: *const MPI_Aint,
                                old: MPI_Datatype, newtype: *mut MPI_Datatype) -> c_int
        => PMPI_Type_create_hindexed
    {
        call("MPI_Type_create_hindexed", MPI_COMM_WORLD, || {
            let n = count_of(n.into())?;
            indexed(MPI_COMBINER_HINDEXED, &read(bls, n, "array_of_blocklengths")?,
                    &read(displs, n, "array_of_displacements")?, true, old, false, newtype)
        })
    }

    /// Large-count `MPI_Type_create_hindexed`.
    fn MPI_Type_create_hindexed_c(n: MPI_Count, bls: *const MPI_Count,
                                  displs: *const MPI_Count, old: MPI_Datatype,
                                  newtype: *mut MPI_Datatype) -> c_int
        => PMPI_Type_create_hindexed_c
    {
        call("MPI_Type_create_hindexed_c", MPI_COMM_WORLD, || {
            let n = count_of(n)?;
            indexed(MPI_COMBINER_HINDEXED, &read(bls, n, "array_of_blocklengths")?,
                    &read(displs, n, "array_of_displacements")?, true, old, true, newtype)
        })
    }

    /// Blocks of `blocklength` elements at `displacements[i]` elements.
    fn MPI_Type_create_indexed_block(n: c_int, bl: c_int, displs: *const c_int,
                                     old: MPI_Datatype, newtype: *mut MPI_Datatype) -> c_int
        => PMPI_Type_create_indexed_block
    {
        call("MPI_Type_create_indexed_block", MPI_COMM_WORLD, || {
            let n = count_of(n.into())?;
            indexed(MPI_COMBINER_INDEXED_BLOCK, &[bl.into()],
                    &read(displs, n, "array_of_displacements")?, false, old, false, newtype)
        })
    }

    /// Large-count `MPI_Type_create_indexed_block`.
    fn MPI_Type_create_indexed_block_c(n: MPI_Count, bl: MPI_Count, displs: *const MPI_Count,
                                       old: MPI_Datatype, newtype: *mut MPI_Datatype) -> c_int
        => PMPI_Type_create_indexed_block_c
    {
        call("MPI_Type_create_indexed_block_c", MPI_COMM_WORLD, || {
            let n = count_of(n)?;
            indexed(MPI_COMBINER_INDEXED_BLOCK, &[bl],
                    &read(displs, n, "array_of_displacements")?, false, old, true, newtype)
        })
    }

    /// Blocks of `blocklength` elements at `displacements[i]` bytes.
    fn MPI_Type_create_hindexed_block(n: c_int, bl: c_int, displs: *const MPI_Aint,
                                      old: MPI_Datatype, newtype: *mut MPI_Datatype) -> c_int
        => PMPI_Type_create_hindexed_block
    {
        call("MPI_Type_create_hindexed_block", MPI_COMM_WORLD, || {
            let n = count_of(n.into())?;
            indexed(MPI_COMBINER_HINDEXED_BLOCK, &[bl.into()],
                    &read(displs, n, "array_of_displacements")?, true, old, false, newtype)
        })
    }

    /// Large-count `MPI_Type_create_hindexed_block`.
    fn MPI_Type_create_hindexed_block_c(n: MPI_Count, bl: MPI_Count, displs: *const MPI_Count,
                                        old: MPI_Datatype, newtype: *mut MPI_Datatype) -> c_int
        => PMPI_Type_create_hindexed_block_c
    {
        call("MPI_Type_create_hindexed_block_c", MPI_COMM_WORLD, || {
            let n = count_of(n)?;
            indexed(MPI_COMBINER_HINDEXED_BLOCK, &[bl],
                    &read(displs, n, "array_of_displacements")?, true, old, true, newtype)
        })
    }

    /// Blocks of `blocklengths[i]` elements of `types[i]` at `displacements[i]` bytes; the
    /// extent is rounded up to the strictest member alignment (as a C struct's size is).
    fn MPI_Type_create_struct(n: c_int, bls: *const c_int, displs: *const MPI_Aint,
                              types: *const MPI_Datatype, newtype: *mut MPI_Datatype) -> c_int
        => PMPI_Type_create_struct
    {
        call("MPI_Type_create_struct", MPI_COMM_WORLD, || {
            let n = count_of(n.into())?;
            let ts = read_types(types, n)?;
            structure(&read(bls, n, "array_of_blocklengths")?,
                      &read(displs, n, "array_of_displacements")?, &ts, false, newtype)
        })
    }

    /// Large-count `MPI_Type_create_struct`.
    fn MPI_Type_create_struct_c(n: MPI_Count, bls: *const MPI_Count, displs: *const MPI_Count,
                                types: *const MPI_Datatype, newtype: *mut MPI_Datatype)
        -> c_int => PMPI_Type_create_struct_c
    {
        call("MPI_Type_create_struct_c", MPI_COMM_WORLD, || {
            let n = count_of(n)?;
            let ts = read_types(types, n)?;
            structure(&read(bls, n, "array_of_blocklengths")?,
                      &read(displs, n, "array_of_displacements")?, &ts, true, newtype)
        })
    }

    /// `oldtype` with lower bound `lb` and extent `extent`.
    fn MPI_Type_create_resized(old: MPI_Datatype, lb: MPI_Aint, extent: MPI_Aint,
                               newtype: *mut MPI_Datatype) -> c_int
        => PMPI_Type_create_resized
    {
        call("MPI_Type_create_resized", MPI_COMM_WORLD, || {
            resized(old, lb as i64, extent as i64, false, newtype)
        })
    }

    /// Large-count `MPI_Type_create_resized`.
    fn MPI_Type_create_resized_c(old: MPI_Datatype, lb: MPI_Count, extent: MPI_Count,
                                 newtype: *mut MPI_Datatype) -> c_int
        => PMPI_Type_create_resized_c
    {
        call("MPI_Type_create_resized_c", MPI_COMM_WORLD, || {
            resized(old, lb, extent, true, newtype)
        })
    }

    /// A new handle with `oldtype`'s layout (committed if `oldtype` is) and its attributes
    /// as their copy callbacks decide.
    fn MPI_Type_dup(old: MPI_Datatype, newtype: *mut MPI_Datatype) -> c_int => PMPI_Type_dup {
        call("MPI_Type_dup", MPI_COMM_WORLD, || {
            non_null(newtype, "newtype")?;
            let o = registry::layout(old)?;
            let e = env(MPI_COMBINER_DUP, false, &[], &[], &[old])?;
            let t = Type { env: e, name: "", ..(*o).clone() };
            let h = registry::insert(Arc::new(t), registry::is_committed(old)?)?;
            if let Err(e) = super::attr::copy_all(old, h) {
                // A copy callback failed: no new handle (its copied attributes are dropped).
                let _ = super::attr::delete_all(h);
                registry::free(h)?;
                return Err(e);
            }
            // SAFETY: checked for NULL.
            unsafe { newtype.write(h) };
            Ok(())
        })
    }

    /// Makes `*datatype` usable in communication (a no-op for predefined types).
    fn MPI_Type_commit(datatype: *mut MPI_Datatype) -> c_int => PMPI_Type_commit {
        call("MPI_Type_commit", MPI_COMM_WORLD, || {
            non_null(datatype, "datatype")?;
            // SAFETY: checked for NULL.
            registry::commit(unsafe { datatype.read() })
        })
    }

    /// Frees a user datatype (after its attributes' delete callbacks) and sets `*datatype` to
    /// `MPI_DATATYPE_NULL` (types built from it and pending operations keep working).
    fn MPI_Type_free(datatype: *mut MPI_Datatype) -> c_int => PMPI_Type_free {
        call("MPI_Type_free", MPI_COMM_WORLD, || {
            non_null(datatype, "datatype")?;
            // SAFETY: checked for NULL.
            let h = unsafe { datatype.read() };
            registry::check_free(h)?;
            super::attr::delete_all(h)?;
            registry::free(h)?;
            // SAFETY: as above.
            unsafe { datatype.write(MPI_DATATYPE_NULL) };
            Ok(())
        })
    }
}

/// Reads `n` datatype handles.
fn read_types(p: *const MPI_Datatype, n: usize) -> Result<Vec<MPI_Datatype>> {
    if n > 0 {
        non_null(p, "array_of_types")?;
    }
    // SAFETY: checked for NULL; `n` entries per the MPI contract.
    Ok((0..n).map(|i| unsafe { p.add(i).read() }).collect())
}
