//! Datatype queries: size, extents, names, envelope and contents, `MPI_Get_elements`,
//! `MPI_Get_address`, `MPI_Type_match_size` and `MPI_Type_get_value_index`. The `_c` / `_x`
//! forms share the implementation; the `int` form of `MPI_Type_size` reports `MPI_UNDEFINED`
//! when the value does not fit.

use super::layout::Type;
use super::registry;
use super::*;
use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
use crate::request::status::MPI_Status;
use std::ffi::{c_char, c_int, c_void};
use std::sync::Arc;

/// `MPI_MAX_OBJECT_NAME`.
const MAX_NAME: usize = 128;

fn write<T>(p: *mut T, what: &str, v: T) -> Result<()> {
    non_null(p, what)?;
    // SAFETY: checked for NULL; writable per the MPI contract.
    unsafe { p.write(v) };
    Ok(())
}

fn aint(v: isize) -> MPI_Aint {
    v as MPI_Aint
}

/// The number of primitive elements in the message `status` describes, if whole.
pub fn elements(status: *const MPI_Status, dt: MPI_Datatype) -> Result<Option<usize>> {
    non_null(status, "status")?;
    let ty = registry::layout(dt)?;
    // SAFETY: checked for NULL; readable per the MPI contract.
    let bytes = unsafe { status.read() }.bytes();
    Ok(ty.elements_in(bytes as usize))
}

fn envelope(dt: MPI_Datatype) -> Result<(Arc<Type>, [usize; 4])> {
    let t = registry::layout(dt)?;
    let e = &t.env;
    let n = [e.ints.len(), e.aints.len(), e.counts.len(), e.types.len()];
    Ok((t, n))
}

/// Writes `src` to the caller's array of room `max`.
fn fill<T: Copy>(dst: *mut T, max: i64, src: &[T], what: &str) -> Result<()> {
    if (max as i128) < src.len() as i128 {
        return Err(MpiError::new(
            MPI_ERR_ARG,
            format!(
                "{what} has room for {max} entries; {} are needed",
                src.len()
            ),
        ));
    }
    if !src.is_empty() {
        non_null(dst, what)?;
        // SAFETY: checked for NULL; room for `max >= len` entries per the MPI contract.
        unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), dst, src.len()) };
    }
    Ok(())
}

/// The handles of `t`'s constituent types: predefined ones as they are, derived ones as new
/// handles (the caller frees them, as MPI states).
fn contents_types(t: &Type) -> Result<Vec<MPI_Datatype>> {
    t.env
        .types
        .iter()
        .map(|(h, l)| {
            if predefined::is_predefined(*h) || registry::is_fixed(*h) {
                Ok(*h)
            } else {
                registry::insert(l.clone(), true)
            }
        })
        .collect()
}

fn named_error(dt: MPI_Datatype) -> MpiError {
    MpiError::new(
        MPI_ERR_ARG,
        format!("datatype {dt:#x} is predefined (MPI_COMBINER_NAMED): it has no contents"),
    )
}

/// `MPI_Type_match_size`: the Fortran type of `class` with `size` bytes.
fn match_size(class: c_int, size: c_int) -> Result<MPI_Datatype> {
    let table: &[(c_int, c_int, MPI_Datatype)] = &[
        (MPI_TYPECLASS_INTEGER, 1, 0x2c1),
        (MPI_TYPECLASS_INTEGER, 2, 0x2c9),
        (MPI_TYPECLASS_INTEGER, 4, 0x2d1),
        (MPI_TYPECLASS_INTEGER, 8, 0x2d9),
        (MPI_TYPECLASS_INTEGER, 16, 0x2e1),
        (MPI_TYPECLASS_REAL, 2, 0x2ca),
        (MPI_TYPECLASS_REAL, 4, 0x2d2),
        (MPI_TYPECLASS_REAL, 8, 0x2da),
        (MPI_TYPECLASS_REAL, 16, 0x2e2),
        (MPI_TYPECLASS_COMPLEX, 4, 0x2d3),
        (MPI_TYPECLASS_COMPLEX, 8, 0x2db),
        (MPI_TYPECLASS_COMPLEX, 16, 0x2e3),
        (MPI_TYPECLASS_COMPLEX, 32, 0x2eb),
    ];
    table
        .iter()
        .find(|r| r.0 == class && r.1 == size)
        .map(|r| r.2)
        .ok_or_else(|| {
            MpiError::new(
                MPI_ERR_ARG,
                format!("no predefined type of class {class} with {size} bytes"),
            )
        })
}

/// The predefined pair of `(value, index)` types, or `MPI_DATATYPE_NULL`.
fn value_index(value: MPI_Datatype, index: MPI_Datatype) -> MPI_Datatype {
    const PAIRS: &[(MPI_Datatype, MPI_Datatype, MPI_Datatype)] = &[
        (0x210, 0x209, 0x228), // MPI_FLOAT, MPI_INT: MPI_FLOAT_INT
        (0x214, 0x209, 0x229), // MPI_DOUBLE_INT
        (0x20a, 0x209, 0x22a), // MPI_LONG_INT
        (0x209, 0x209, 0x22b), // MPI_2INT
        (0x208, 0x209, 0x22c), // MPI_SHORT_INT
        (0x220, 0x209, 0x22d), // MPI_LONG_DOUBLE_INT
        (0x21a, 0x21a, 0x230), // MPI_2REAL
        (0x21c, 0x21c, 0x231), // MPI_2DOUBLE_PRECISION
        (0x219, 0x219, 0x232), // MPI_2INTEGER
    ];
    PAIRS
        .iter()
        .find(|p| p.0 == value && p.1 == index)
        .map_or(MPI_DATATYPE_NULL, |p| p.2)
}

fn int_or_undefined(v: usize) -> c_int {
    c_int::try_from(v).unwrap_or(MPI_UNDEFINED)
}

fn get_extent(dt: MPI_Datatype, lb: *mut MPI_Aint, ext: *mut MPI_Aint, tru: bool) -> Result<()> {
    let t = registry::layout(dt)?;
    let (l, e) = if tru {
        (t.true_lb, t.true_ub - t.true_lb)
    } else {
        (t.lb, t.extent())
    };
    write(lb, "lb", aint(l))?;
    write(ext, "extent", aint(e))
}

fn get_extent_c(
    dt: MPI_Datatype,
    lb: *mut MPI_Count,
    ext: *mut MPI_Count,
    tru: bool,
) -> Result<()> {
    let (mut l, mut e) = (0, 0);
    get_extent(dt, &mut l, &mut e, tru)?;
    write(lb, "lb", l as MPI_Count)?;
    write(ext, "extent", e as MPI_Count)
}

fn size_c(dt: MPI_Datatype, size: *mut MPI_Count) -> Result<()> {
    write(size, "size", registry::layout(dt)?.size as MPI_Count)
}

fn elements_c(status: *const MPI_Status, dt: MPI_Datatype, out: *mut MPI_Count) -> Result<()> {
    non_null(out, "count")?;
    let n = elements(status, dt)?.map_or(MPI_UNDEFINED as MPI_Count, |n| n as MPI_Count);
    write(out, "count", n)
}

fn contents_c(
    dt: MPI_Datatype,
    max: [MPI_Count; 4],
    ints: *mut c_int,
    aints: *mut MPI_Aint,
    counts: *mut MPI_Count,
    types: *mut MPI_Datatype,
) -> Result<()> {
    let (t, _) = envelope(dt)?;
    if t.env.combiner == MPI_COMBINER_NAMED {
        return Err(named_error(dt));
    }
    fill(ints, max[0], &t.env.ints, "array_of_integers")?;
    fill(aints, max[1], &t.env.aints, "array_of_addresses")?;
    fill(counts, max[2], &t.env.counts, "array_of_large_counts")?;
    if max[3] < t.env.types.len() as MPI_Count {
        return Err(MpiError::new(
            MPI_ERR_ARG,
            "array_of_datatypes is too small",
        ));
    }
    fill(types, max[3], &contents_types(&t)?, "array_of_datatypes")
}

mpi_fn! {
    /// Bytes of data in one element of `datatype` (`MPI_UNDEFINED` if over `INT_MAX`).
    fn MPI_Type_size(dt: MPI_Datatype, size: *mut c_int) -> c_int => PMPI_Type_size {
        call("MPI_Type_size", MPI_COMM_WORLD, || {
            write(size, "size", int_or_undefined(registry::layout(dt)?.size))
        })
    }

    /// Large-count `MPI_Type_size`.
    fn MPI_Type_size_c(dt: MPI_Datatype, size: *mut MPI_Count) -> c_int => PMPI_Type_size_c {
        call("MPI_Type_size_c", MPI_COMM_WORLD, || size_c(dt, size))
    }

    /// `MPI_Type_size_c` under its MPI-3 name.
    fn MPI_Type_size_x(dt: MPI_Datatype, size: *mut MPI_Count) -> c_int => PMPI_Type_size_x {
        call("MPI_Type_size_x", MPI_COMM_WORLD, || size_c(dt, size))
    }

    /// Lower bound and extent.
    fn MPI_Type_get_extent(dt: MPI_Datatype, lb: *mut MPI_Aint, extent: *mut MPI_Aint) -> c_int
        => PMPI_Type_get_extent
    {
        call("MPI_Type_get_extent", MPI_COMM_WORLD, || get_extent(dt, lb, extent, false))
    }

    /// Large-count `MPI_Type_get_extent`.
    fn MPI_Type_get_extent_c(dt: MPI_Datatype, lb: *mut MPI_Count, extent: *mut MPI_Count)
        -> c_int => PMPI_Type_get_extent_c
    {
        call("MPI_Type_get_extent_c", MPI_COMM_WORLD, || get_extent_c(dt, lb, extent, false))
    }

    /// `MPI_Type_get_extent_c` under its MPI-3 name.
    fn MPI_Type_get_extent_x(dt: MPI_Datatype, lb: *mut MPI_Count, extent: *mut MPI_Count)
        -> c_int => PMPI_Type_get_extent_x
    {
        call("MPI_Type_get_extent_x", MPI_COMM_WORLD, || get_extent_c(dt, lb, extent, false))
    }

    /// Lowest data byte and the span of the data bytes (markers and resizing ignored).
    fn MPI_Type_get_true_extent(dt: MPI_Datatype, lb: *mut MPI_Aint, extent: *mut MPI_Aint)
        -> c_int => PMPI_Type_get_true_extent
    {
        call("MPI_Type_get_true_extent", MPI_COMM_WORLD, || get_extent(dt, lb, extent, true))
    }

    /// Large-count `MPI_Type_get_true_extent`.
    fn MPI_Type_get_true_extent_c(dt: MPI_Datatype, lb: *mut MPI_Count, extent: *mut MPI_Count)
        -> c_int => PMPI_Type_get_true_extent_c
    {
        call("MPI_Type_get_true_extent_c", MPI_COMM_WORLD, || get_extent_c(dt, lb, extent, true))
    }

    /// `MPI_Type_get_true_extent_c` under its MPI-3 name.
    fn MPI_Type_get_true_extent_x(dt: MPI_Datatype, lb: *mut MPI_Count, extent: *mut MPI_Count)
        -> c_int => PMPI_Type_get_true_extent_x
    {
        call("MPI_Type_get_true_extent_x", MPI_COMM_WORLD, || get_extent_c(dt, lb, extent, true))
    }

    /// The name set with `MPI_Type_set_name` (predefined types: their MPI name), NUL-terminated
    /// into a buffer of `MPI_MAX_OBJECT_NAME` bytes.
    fn MPI_Type_get_name(dt: MPI_Datatype, type_name: *mut c_char, resultlen: *mut c_int)
        -> c_int => PMPI_Type_get_name
    {
        call("MPI_Type_get_name", MPI_COMM_WORLD, || {
            non_null(type_name, "type_name")?;
            non_null(resultlen, "resultlen")?;
            let name = registry::name(dt)?;
            let b = &name.as_bytes()[..name.len().min(MAX_NAME - 1)];
            // SAFETY: non-NULL; room for MPI_MAX_OBJECT_NAME bytes per the MPI contract.
            unsafe {
                std::ptr::copy_nonoverlapping(b.as_ptr(), type_name.cast::<u8>(), b.len());
                type_name.add(b.len()).write(0);
            }
            write(resultlen, "resultlen", b.len() as c_int)
        })
    }

    /// Names a datatype (predefined ones too) (truncated to `MPI_MAX_OBJECT_NAME - 1` bytes).
    fn MPI_Type_set_name(dt: MPI_Datatype, type_name: *const c_char) -> c_int
        => PMPI_Type_set_name
    {
        call("MPI_Type_set_name", MPI_COMM_WORLD, || {
            non_null(type_name, "type_name")?;
            // SAFETY: non-NULL, NUL-terminated per the MPI contract.
            let s = unsafe { std::ffi::CStr::from_ptr(type_name) }.to_bytes();
            let s = &s[..s.len().min(MAX_NAME - 1)];
            registry::set_name(dt, String::from_utf8_lossy(s).into_owned())
        })
    }

    /// How `datatype` was made: the combiner and the number of each kind of argument.
    fn MPI_Type_get_envelope(dt: MPI_Datatype, num_integers: *mut c_int,
                             num_addresses: *mut c_int, num_datatypes: *mut c_int,
                             combiner: *mut c_int) -> c_int => PMPI_Type_get_envelope
    {
        call("MPI_Type_get_envelope", MPI_COMM_WORLD, || {
            let (t, n) = envelope(dt)?;
            if n[2] > 0 {
                return Err(MpiError::new(MPI_ERR_TYPE, format!(
                    "datatype {dt:#x} was made by a large-count constructor; use MPI_Type_get_envelope_c")));
            }
            write(num_integers, "num_integers", n[0] as c_int)?;
            write(num_addresses, "num_addresses", n[1] as c_int)?;
            write(num_datatypes, "num_datatypes", n[3] as c_int)?;
            write(combiner, "combiner", t.env.combiner)
        })
    }

    /// Large-count `MPI_Type_get_envelope`.
    fn MPI_Type_get_envelope_c(dt: MPI_Datatype, num_integers: *mut MPI_Count,
                               num_addresses: *mut MPI_Count, num_large_counts: *mut MPI_Count,
                               num_datatypes: *mut MPI_Count, combiner: *mut c_int) -> c_int
        => PMPI_Type_get_envelope_c
    {
        call("MPI_Type_get_envelope_c", MPI_COMM_WORLD, || {
            let (t, n) = envelope(dt)?;
            write(num_integers, "num_integers", n[0] as MPI_Count)?;
            write(num_addresses, "num_addresses", n[1] as MPI_Count)?;
            write(num_large_counts, "num_large_counts", n[2] as MPI_Count)?;
            write(num_datatypes, "num_datatypes", n[3] as MPI_Count)?;
            write(combiner, "combiner", t.env.combiner)
        })
    }

    /// The arguments `datatype` was made with (derived constituent types come back as new
    /// handles, which the caller frees).
    fn MPI_Type_get_contents(dt: MPI_Datatype, max_integers: c_int, max_addresses: c_int,
                             max_datatypes: c_int, array_of_integers: *mut c_int,
                             array_of_addresses: *mut MPI_Aint,
                             array_of_datatypes: *mut MPI_Datatype) -> c_int
        => PMPI_Type_get_contents
    {
        call("MPI_Type_get_contents", MPI_COMM_WORLD, || {
            let max = [max_integers.into(), max_addresses.into(), 0, max_datatypes.into()];
            contents_c(dt, max, array_of_integers, array_of_addresses, std::ptr::null_mut(),
                       array_of_datatypes)
        })
    }

    /// Large-count `MPI_Type_get_contents`.
    fn MPI_Type_get_contents_c(dt: MPI_Datatype, max_integers: MPI_Count,
                               max_addresses: MPI_Count, max_large_counts: MPI_Count,
                               max_datatypes: MPI_Count, array_of_integers: *mut c_int,
                               array_of_addresses: *mut MPI_Aint,
                               array_of_large_counts: *mut MPI_Count,
                               array_of_datatypes: *mut MPI_Datatype) -> c_int
        => PMPI_Type_get_contents_c
    {
        call("MPI_Type_get_contents_c", MPI_COMM_WORLD, || {
            contents_c(dt, [max_integers, max_addresses, max_large_counts, max_datatypes],
                       array_of_integers, array_of_addresses, array_of_large_counts,
                       array_of_datatypes)
        })
    }

    /// The Fortran predefined type of `typeclass` with `size` bytes.
    fn MPI_Type_match_size(typeclass: c_int, size: c_int, datatype: *mut MPI_Datatype) -> c_int
        => PMPI_Type_match_size
    {
        call("MPI_Type_match_size", MPI_COMM_WORLD, || {
            write(datatype, "datatype", match_size(typeclass, size)?)
        })
    }

    /// The predefined pair type (for `MPI_MINLOC` / `MPI_MAXLOC`) of `value_type` and
    /// `index_type`, or `MPI_DATATYPE_NULL` when there is none.
    fn MPI_Type_get_value_index(value_type: MPI_Datatype, index_type: MPI_Datatype,
                                pair_type: *mut MPI_Datatype) -> c_int
        => PMPI_Type_get_value_index
    {
        call("MPI_Type_get_value_index", MPI_COMM_WORLD, || {
            registry::layout(value_type)?;
            registry::layout(index_type)?;
            write(pair_type, "pair_type", value_index(value_type, index_type))
        })
    }

    /// The address of `location` (for displacements relative to `MPI_BOTTOM`).
    fn MPI_Get_address(location: *const c_void, address: *mut MPI_Aint) -> c_int
        => PMPI_Get_address
    {
        call("MPI_Get_address", MPI_COMM_WORLD, || {
            write(address, "address", location as MPI_Aint)
        })
    }

    /// Number of primitive elements of `datatype` in the message `status` describes
    /// (`MPI_UNDEFINED` if it ends inside an element or exceeds `INT_MAX`).
    fn MPI_Get_elements(status: *const MPI_Status, dt: MPI_Datatype, count: *mut c_int) -> c_int
        => PMPI_Get_elements
    {
        call("MPI_Get_elements", MPI_COMM_WORLD, || {
            non_null(count, "count")?;
            let n = elements(status, dt)?.map_or(MPI_UNDEFINED, int_or_undefined);
            write(count, "count", n)
        })
    }

    /// Large-count `MPI_Get_elements`.
    fn MPI_Get_elements_c(status: *const MPI_Status, dt: MPI_Datatype, count: *mut MPI_Count)
        -> c_int => PMPI_Get_elements_c
    {
        call("MPI_Get_elements_c", MPI_COMM_WORLD, || elements_c(status, dt, count))
    }

    /// `MPI_Get_elements_c` under its MPI-3 name.
    fn MPI_Get_elements_x(status: *const MPI_Status, dt: MPI_Datatype, count: *mut MPI_Count)
        -> c_int => PMPI_Get_elements_x
    {
        call("MPI_Get_elements_x", MPI_COMM_WORLD, || elements_c(status, dt, count))
    }
}
