//! `MPI_Type_create_f90_integer`, `_real` and `_complex`. Each returns a derived handle with
//! combiner `MPI_COMBINER_F90_*` whose contents are `(r)` or `(p, r)`, laid out like the
//! matching predefined sized type (`MPI_INTEGER4`, `MPI_REAL8`, ...). The handles are owned by
//! the library and cached per `(combiner, p, r)`, as MPICH does: the same arguments give the
//! same handle, and `MPI_Type_free` refuses them.

use super::layout::{Envelope, Type};
use super::*;
use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
use parking_lot::Mutex;
use std::collections::HashMap;
use std::ffi::c_int;
use std::sync::Arc;

/// The smallest predefined Fortran type of a class meeting precision `p` and range `r`
/// (`MPI_UNDEFINED`: no requirement), from `(max p, max r, handle)` rows in size order.
fn sized(
    what: &str,
    p: c_int,
    r: c_int,
    rows: &[(c_int, c_int, MPI_Datatype)],
) -> Result<MPI_Datatype> {
    let ok = |need: c_int, have: c_int| need == MPI_UNDEFINED || need <= have;
    rows.iter()
        .find(|row| ok(p, row.0) && ok(r, row.1))
        .map(|row| row.2)
        .ok_or_else(|| {
            MpiError::new(
                MPI_ERR_ARG,
                format!("no {what} type with precision {p} and range {r}"),
            )
        })
}

/// `(-, range, handle)` of INTEGER1 .. INTEGER16.
const INTEGERS: [(c_int, c_int, MPI_Datatype); 5] = [
    (0, 2, 0x2c1),
    (0, 4, 0x2c9),
    (0, 9, 0x2d1),
    (0, 18, 0x2d9),
    (0, 38, 0x2e1),
];
/// `(precision, range)` of REAL*4, *8, *16 and the matching REAL / COMPLEX handles.
const REALS: [(c_int, c_int, MPI_Datatype); 3] =
    [(6, 37, 0x2d2), (15, 307, 0x2da), (33, 4931, 0x2e2)];
const COMPLEXES: [(c_int, c_int, MPI_Datatype); 3] =
    [(6, 37, 0x2db), (15, 307, 0x2e3), (33, 4931, 0x2eb)];

/// `(combiner, p, r)` of an f90 type.
type Key = (c_int, c_int, c_int);

/// Handles made so far.
static CACHE: Mutex<Option<HashMap<Key, MPI_Datatype>>> = Mutex::new(None);

/// The cached handle for `(combiner, p, r)`, made from predefined `base` on first use.
fn handle(combiner: c_int, p: c_int, r: c_int, base: MPI_Datatype) -> Result<MPI_Datatype> {
    let mut cache = CACHE.lock();
    let map = cache.get_or_insert_with(HashMap::new);
    if let Some(&h) = map.get(&(combiner, p, r)) {
        return Ok(h);
    }
    let b = predefined::get(base)
        .ok_or_else(|| MpiError::new(MPI_ERR_INTERN, format!("{base:#x} is not predefined")))?;
    let ints = if combiner == MPI_COMBINER_F90_INTEGER {
        vec![r]
    } else {
        vec![p, r]
    };
    let ty = Type {
        name: "",
        env: Envelope {
            combiner,
            ints,
            ..Default::default()
        },
        ..(*b).clone()
    };
    let h = registry::insert_fixed(Arc::new(ty))?;
    map.insert((combiner, p, r), h);
    Ok(h)
}

fn create(
    newtype: *mut MPI_Datatype,
    combiner: c_int,
    p: c_int,
    r: c_int,
    base: Result<MPI_Datatype>,
) -> Result<()> {
    non_null(newtype, "newtype")?;
    let h = handle(combiner, p, r, base?)?;
    // SAFETY: checked for NULL; writable per the MPI contract.
    unsafe { newtype.write(h) };
    Ok(())
}

mpi_fn! {
    /// The Fortran `INTEGER` type of decimal range `r` (like INTEGER1 .. INTEGER16).
    fn MPI_Type_create_f90_integer(r: c_int, newtype: *mut MPI_Datatype) -> c_int
        => PMPI_Type_create_f90_integer
    {
        call("MPI_Type_create_f90_integer", MPI_COMM_WORLD, || {
            let base = sized("INTEGER", MPI_UNDEFINED, r, &INTEGERS);
            create(newtype, MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, r, base)
        })
    }

    /// The Fortran `REAL` type of precision `p` and range `r` (like REAL4, REAL8, REAL16).
    fn MPI_Type_create_f90_real(p: c_int, r: c_int, newtype: *mut MPI_Datatype) -> c_int
        => PMPI_Type_create_f90_real
    {
        call("MPI_Type_create_f90_real", MPI_COMM_WORLD, || {
            create(newtype, MPI_COMBINER_F90_REAL, p, r, sized("REAL", p, r, &REALS))
        })
    }

    /// The Fortran `COMPLEX` type of precision `p` and range `r` (like COMPLEX8 .. COMPLEX32).
    fn MPI_Type_create_f90_complex(p: c_int, r: c_int, newtype: *mut MPI_Datatype) -> c_int
        => PMPI_Type_create_f90_complex
    {
        call("MPI_Type_create_f90_complex", MPI_COMM_WORLD, || {
            create(newtype, MPI_COMBINER_F90_COMPLEX, p, r, sized("COMPLEX", p, r, &COMPLEXES))
        })
    }
}
