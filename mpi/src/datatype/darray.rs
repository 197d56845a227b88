//! `MPI_Type_create_darray`: this process's part of an `ndims`-dimensional array distributed
//! block, cyclic(k) or not at all along each dimension over a row-major process grid. Built
//! like a subarray (dimension by dimension from the fastest-varying one, then resized to the
//! whole array's extent), from the list of global indices this process owns in each
//! dimension.

use super::constructors::{nonneg, publish, read};
use super::layout::{Envelope, Type};
use super::registry;
use super::*;
use crate::coll::vector::ArrayInt;
use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
use std::ffi::c_int;
use std::sync::Arc;

/// `MPI_DISTRIBUTE_*` and `MPI_DISTRIBUTE_DFLT_DARG`.
const NONE: c_int = 16;
const BLOCK: c_int = 17;
const CYCLIC: c_int = 18;
const DFLT_DARG: c_int = 19;

/// One dimension's distribution.
#[derive(Debug, Clone, Copy)]
pub struct Dim {
    /// Global size.
    pub gsize: i64,
    /// `MPI_DISTRIBUTE_NONE`, `_BLOCK` or `_CYCLIC`.
    pub distrib: c_int,
    /// Block size argument (`MPI_DISTRIBUTE_DFLT_DARG` for the default).
    pub darg: c_int,
    /// Processes along this dimension.
    pub psize: i64,
}

fn bad(d: usize, what: String) -> MpiError {
    MpiError::new(MPI_ERR_ARG, format!("dimension {d}: {what}"))
}

/// The global indices process coordinate `p` owns along dimension `d`.
fn owned(d: usize, dim: Dim, p: i64) -> Result<Vec<i64>> {
    let Dim {
        gsize: g,
        distrib,
        darg,
        psize: ps,
    } = dim;
    match distrib {
        NONE => {
            if ps != 1 {
                return Err(bad(
                    d,
                    format!("MPI_DISTRIBUTE_NONE needs 1 process, not {ps}"),
                ));
            }
            Ok((0..g).collect())
        }
        BLOCK => {
            let b = if darg == DFLT_DARG {
                (g + ps - 1) / ps
            } else {
                darg as i64
            };
            if b <= 0 || b * ps < g {
                return Err(bad(d, format!("block size {b} cannot cover {g} elements")));
            }
            let start = (p * b).min(g);
            Ok((start..(start + b).min(g)).collect())
        }
        CYCLIC => {
            let b = if darg == DFLT_DARG { 1 } else { darg as i64 };
            if b <= 0 {
                return Err(bad(d, format!("cyclic block size {b} is not positive")));
            }
            let mut v = Vec::new();
            let mut at = p * b;
            while at < g {
                v.extend(at..(at + b).min(g));
                at += b * ps;
            }
            Ok(v)
        }
        x => Err(bad(d, format!("distribution {x} is not MPI_DISTRIBUTE_*"))),
    }
}

/// The layout of process `rank`'s part (of `size` processes) of `dims` in `order`.
pub fn layout(
    size: i64,
    rank: i64,
    dims: &[Dim],
    order: c_int,
    old: &Arc<Type>,
    env: Envelope,
) -> Result<Type> {
    let nd = dims.len();
    if nd == 0 {
        return Err(MpiError::new(MPI_ERR_ARG, "ndims must be positive"));
    }
    if dims.iter().any(|d| d.gsize <= 0 || d.psize <= 0) {
        return Err(MpiError::new(
            MPI_ERR_ARG,
            "gsizes and psizes must be positive",
        ));
    }
    let procs = dims.iter().try_fold(1i64, |a, d| a.checked_mul(d.psize));
    if procs != Some(size) || rank < 0 || rank >= size {
        return Err(MpiError::new(
            MPI_ERR_ARG,
            format!("rank {rank} / size {size} do not match the process grid"),
        ));
    }
    // Row-major process coordinates (whatever the array order).
    let mut coords = vec![0i64; nd];
    let mut r = rank;
    for d in (0..nd).rev() {
        coords[d] = r % dims[d].psize;
        r /= dims[d].psize;
    }
    let fastest_first: Vec<usize> = match order {
        MPI_ORDER_C => (0..nd).rev().collect(),
        MPI_ORDER_FORTRAN => (0..nd).collect(),
        o => {
            return Err(MpiError::new(
                MPI_ERR_ARG,
                format!("order {o:#x} is not valid"),
            ));
        }
    };
    let overflow = || MpiError::new(MPI_ERR_ARG, "darray extent overflows");
    let mut stride = old.extent();
    let mut cur = old.clone();
    for &d in &fastest_first {
        let idx = owned(d, dims[d], coords[d])?;
        let blocks = idx
            .iter()
            .map(|&i| {
                (i as isize)
                    .checked_mul(stride)
                    .map(|off| (&cur, 1usize, off))
                    .ok_or_else(overflow)
            })
            .collect::<Result<Vec<_>>>()?;
        let next = Type::blocks(&blocks, Envelope::default())?;
        stride = stride
            .checked_mul(dims[d].gsize as isize)
            .ok_or_else(overflow)?;
        cur = Arc::new(next);
    }
    Ok(cur.resized(0, stride, env))
}

#[allow(clippy::too_many_arguments)]
fn create<T: ArrayInt>(
    size: c_int,
    rank: c_int,
    nd: c_int,
    gsizes: *const T,
    distribs: *const c_int,
    dargs: *const c_int,
    psizes: *const c_int,
    order: c_int,
    old: MPI_Datatype,
    large: bool,
    out: *mut MPI_Datatype,
) -> Result<()> {
    non_null(out, "newtype")?;
    let n = nonneg(nd.into(), "ndims")?;
    let g = read(gsizes, n, "array_of_gsizes")?;
    let di = read(distribs, n, "array_of_distribs")?;
    let da = read(dargs, n, "array_of_dargs")?;
    let ps = read(psizes, n, "array_of_psizes")?;
    let dims: Vec<Dim> = (0..n)
        .map(|d| Dim {
            gsize: g[d],
            distrib: di[d] as c_int,
            darg: da[d] as c_int,
            psize: ps[d],
        })
        .collect();
    let o = registry::layout(old)?;
    let head = [size as i64, rank as i64, nd as i64];
    let ints: Vec<i64> = if large {
        [&head[..], &di, &da, &ps, &[order as i64]].concat()
    } else {
        [&head[..], &g, &di, &da, &ps, &[order as i64]].concat()
    };
    let mut env = constructors::env(MPI_COMBINER_DARRAY, false, &ints, &[], &[old])?;
    if large {
        env.counts = g.clone();
    }
    publish(
        out,
        layout(size.into(), rank.into(), &dims, order, &o, env)?,
    )
}

mpi_fn! {
    /// Process `rank`'s part (of `size`) of an array of `gsizes` distributed by `distribs` /
    /// `dargs` over a `psizes` process grid; its extent is the whole array's.
    fn MPI_Type_create_darray(size: c_int, rank: c_int, ndims: c_int, gsizes: *const c_int,
                              distribs: *const c_int, dargs: *const c_int,
                              psizes: *const c_int, order: c_int, old: MPI_Datatype,
                              newtype: *mut MPI_Datatype) -> c_int
        => PMPI_Type_create_darray
    {
        call("MPI_Type_create_darray", MPI_COMM_WORLD, || {
            create(size, rank, ndims, gsizes, distribs, dargs, psizes, order, old, false,
                   newtype)
        })
    }

    /// Large-count `MPI_Type_create_darray`.
    fn MPI_Type_create_darray_c(size: c_int, rank: c_int, ndims: c_int,
                                gsizes: *const MPI_Count, distribs: *const c_int,
                                dargs: *const c_int, psizes: *const c_int, order: c_int,
                                old: MPI_Datatype, newtype: *mut MPI_Datatype) -> c_int
        => PMPI_Type_create_darray_c
    {
        call("MPI_Type_create_darray_c", MPI_COMM_WORLD, || {
            create(size, rank, ndims, gsizes, distribs, dargs, psizes, order, old, true,
                   newtype)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datatype::pack::pack;
    use crate::datatype::predefined;

    fn picked(t: &Type, a: &[i32]) -> Vec<i32> {
        let mut v = Vec::new();
        // SAFETY: `a` covers the whole array.
        unsafe { pack(a.as_ptr() as usize, 1, t, &mut v) };
        v.chunks(4)
            .map(|x| i32::from_ne_bytes(x.try_into().unwrap()))
            .collect()
    }

    #[test]
    fn block_by_cyclic_over_a_2x2_grid() {
        let int = predefined::get(0x209).unwrap();
        // 4 x 6 array: rows block-distributed over 2, columns cyclic(2) over 2.
        let dims = [
            Dim {
                gsize: 4,
                distrib: BLOCK,
                darg: DFLT_DARG,
                psize: 2,
            },
            Dim {
                gsize: 6,
                distrib: CYCLIC,
                darg: 2,
                psize: 2,
            },
        ];
        let a: Vec<i32> = (0..24).collect();
        // Rank 1 = coords (0, 1): rows 0..2, columns 2, 3.
        let t = layout(4, 1, &dims, MPI_ORDER_C, &int, Envelope::default()).unwrap();
        assert_eq!((t.lb, t.extent()), (0, 96));
        assert_eq!(picked(&t, &a), vec![2, 3, 8, 9]);
        // Rank 2 = coords (1, 0): rows 2..4, columns 0, 1, 4, 5.
        let t = layout(4, 2, &dims, MPI_ORDER_C, &int, Envelope::default()).unwrap();
        assert_eq!(picked(&t, &a), vec![12, 13, 16, 17, 18, 19, 22, 23]);
        assert!(layout(3, 0, &dims, MPI_ORDER_C, &int, Envelope::default()).is_err());
        let none = [Dim {
            gsize: 5,
            distrib: NONE,
            darg: DFLT_DARG,
            psize: 1,
        }];
        let t = layout(1, 0, &none, MPI_ORDER_FORTRAN, &int, Envelope::default()).unwrap();
        assert_eq!(picked(&t, &a), vec![0, 1, 2, 3, 4]);
    }
}
