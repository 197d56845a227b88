//! `MPI_Type_create_subarray` (C and Fortran order): an `ndims`-dimensional block of a larger
//! array, built dimension by dimension from the fastest-varying one, then resized to the whole
//! array's extent.

use super::constructors::{nonneg, publish, read};
use super::layout::{Envelope, Type};
use super::registry;
use super::*;
use crate::coll::vector::ArrayInt;
use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
use std::ffi::c_int;
use std::sync::Arc;

/// The layout of the subarray (`sizes`, `subsizes`, `starts` in `order`) of `old`.
pub fn layout(
    sizes: &[i64],
    subsizes: &[i64],
    starts: &[i64],
    order: c_int,
    old: &Arc<Type>,
    env: Envelope,
) -> Result<Type> {
    let nd = sizes.len();
    if nd == 0 {
        return Err(MpiError::new(MPI_ERR_ARG, "ndims must be positive"));
    }
    // Dimensions from the fastest-varying to the slowest.
    let dims: Vec<usize> = match order {
        MPI_ORDER_C => (0..nd).rev().collect(),
        MPI_ORDER_FORTRAN => (0..nd).collect(),
        o => {
            return Err(MpiError::new(
                MPI_ERR_ARG,
                format!("order {o:#x} is not MPI_ORDER_C or MPI_ORDER_FORTRAN"),
            ));
        }
    };
    for d in 0..nd {
        let (s, ss, st) = (sizes[d], subsizes[d], starts[d]);
        if s <= 0 || ss < 0 || st < 0 || ss > s || st > s - ss {
            return Err(MpiError::new(
                MPI_ERR_ARG,
                format!("dimension {d}: size {s}, subsize {ss}, start {st} do not fit"),
            ));
        }
    }
    let mut stride = old.extent();
    let mut cur = old.clone();
    for &d in &dims {
        let blocks = (0..nonneg(subsizes[d], "subsize")?)
            .map(|i| {
                (starts[d] as isize + i as isize)
                    .checked_mul(stride)
                    .map(|off| (&cur, 1usize, off))
                    .ok_or_else(|| MpiError::new(MPI_ERR_ARG, "subarray extent overflows"))
            })
            .collect::<Result<Vec<_>>>()?;
        let next = Type::blocks(&blocks, Envelope::default())?;
        stride = stride
            .checked_mul(sizes[d] as isize)
            .ok_or_else(|| MpiError::new(MPI_ERR_ARG, "subarray extent overflows"))?;
        cur = Arc::new(next);
    }
    // `stride` is now the whole array's extent.
    Ok(cur.resized(0, stride, env))
}

fn create<T: ArrayInt>(
    nd: c_int,
    sizes: *const T,
    subsizes: *const T,
    starts: *const T,
    order: c_int,
    old: MPI_Datatype,
    large: bool,
    out: *mut MPI_Datatype,
) -> Result<()> {
    non_null(out, "newtype")?;
    let n = nonneg(nd.into(), "ndims")?;
    let (sz, ss, st) = (
        read(sizes, n, "array_of_sizes")?,
        read(subsizes, n, "array_of_subsizes")?,
        read(starts, n, "array_of_starts")?,
    );
    let o = registry::layout(old)?;
    let mut env = constructors::env(
        MPI_COMBINER_SUBARRAY,
        false,
        &[&[nd as i64], &sz[..], &ss, &st, &[order as i64]].concat(),
        &[],
        &[old],
    )?;
    if large {
        env.ints = vec![nd, order];
        env.counts = [&sz[..], &ss, &st].concat();
    }
    publish(out, layout(&sz, &ss, &st, order, &o, env)?)
}

mpi_fn! {
    /// The block `starts .. starts + subsizes` of an array of `sizes` elements of `oldtype`
    /// (`order`: `MPI_ORDER_C` or `MPI_ORDER_FORTRAN`); its extent is the whole array's.
    fn MPI_Type_create_subarray(ndims: c_int, sizes: *const c_int, subsizes: *const c_int,
                                starts: *const c_int, order: c_int, old: MPI_Datatype,
                                newtype: *mut MPI_Datatype) -> c_int
        => PMPI_Type_create_subarray
    {
        call("MPI_Type_create_subarray", MPI_COMM_WORLD, || {
            create(ndims, sizes, subsizes, starts, order, old, false, newtype)
        })
    }

    /// Large-count `MPI_Type_create_subarray`.
    fn MPI_Type_create_subarray_c(ndims: c_int, sizes: *const MPI_Count,
                                  subsizes: *const MPI_Count, starts: *const MPI_Count,
                                  order: c_int, old: MPI_Datatype, newtype: *mut MPI_Datatype)
        -> c_int => PMPI_Type_create_subarray_c
    {
        call("MPI_Type_create_subarray_c", MPI_COMM_WORLD, || {
            create(ndims, sizes, subsizes, starts, order, old, true, newtype)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datatype::pack::pack;
    use crate::datatype::predefined;

    #[test]
    fn c_and_fortran_order_pick_the_same_block() {
        let int = predefined::get(0x209).unwrap();
        // 4x5 array, block rows 1..3, columns 2..5.
        let c = layout(
            &[4, 5],
            &[2, 3],
            &[1, 2],
            MPI_ORDER_C,
            &int,
            Envelope::default(),
        )
        .unwrap();
        let f = layout(
            &[5, 4],
            &[3, 2],
            &[2, 1],
            MPI_ORDER_FORTRAN,
            &int,
            Envelope::default(),
        )
        .unwrap();
        assert_eq!((c.lb, c.extent(), c.size), (0, 80, 24));
        let a: Vec<i32> = (0..20).collect();
        for t in [&c, &f] {
            let mut v = Vec::new();
            // SAFETY: the array covers the typemap.
            unsafe { pack(a.as_ptr() as usize, 1, t, &mut v) };
            let got: Vec<i32> = v
                .chunks(4)
                .map(|x| i32::from_ne_bytes(x.try_into().unwrap()))
                .collect();
            assert_eq!(got, vec![7, 8, 9, 12, 13, 14]);
        }
        assert!(layout(&[4], &[5], &[0], MPI_ORDER_C, &int, Envelope::default()).is_err());
    }
}
