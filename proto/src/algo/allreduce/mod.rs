//! allreduce: every rank ends with the element-wise reduction of every rank's vector.
//!
//! Three algorithms, chosen by [`crate::select::reductions::allreduce`] or forced with
//! [`machine_with`]:
//! * [`recursive_doubling`]: `log2 p2` full-vector exchanges (plus a fold and an unfold when the
//!   size is not a power of two); for small vectors.
//! * [`ring`]: ring reduce-scatter then ring allgather over `n` blocks; bandwidth optimal, `2(n-1)`
//!   rounds; for large vectors.
//! * [`rabenseifner`]: recursive-halving reduce-scatter then recursive-doubling allgather;
//!   bandwidth optimal with logarithmic latency.
//!
//! Every algorithm gives all ranks bitwise identical results, whatever the delivery order: each
//! element is reduced in one fixed bracketing (recursive doubling and Rabenseifner: lower-ranked
//! partial results on the left; ring: see [`ring`]) and either computed identically on every
//! rank or computed once and copied.

pub mod rabenseifner;
pub mod recursive_doubling;
pub mod ring;

use crate::datatype::Datatype;
use crate::error::ProtoError;
use crate::machine::Collective;
use crate::op::ReduceOp;
use crate::select::reductions::{self as select, AllreduceAlgo};
use crate::types::Group;

/// An allreduce of `data` (a whole number of `dtype` elements, the same count on every rank) with
/// `op`, using the algorithm [`select::allreduce`] picks for this size.
pub fn machine(
    g: Group,
    dtype: Datatype,
    op: ReduceOp,
    data: Vec<u8>,
) -> Result<Box<dyn Collective>, ProtoError> {
    let algo = select::allreduce(g.size, data.len());
    machine_with(g, dtype, op, data, algo)
}

/// Like [`machine`], with the algorithm forced. Every rank must pass the same `algo`.
pub fn machine_with(
    g: Group,
    dtype: Datatype,
    op: ReduceOp,
    data: Vec<u8>,
    algo: AllreduceAlgo,
) -> Result<Box<dyn Collective>, ProtoError> {
    let (g, _) = check_reduction(g, dtype, op, &data)?;
    Ok(match algo {
        AllreduceAlgo::RecursiveDoubling => recursive_doubling::build(g, dtype, op, data),
        AllreduceAlgo::Ring => ring::build(g, dtype, op, data),
        AllreduceAlgo::Rabenseifner => {
            rabenseifner::build(g, dtype, op, data, rabenseifner::Finish::Allgather)
        }
    })
}

/// Validates the arguments every reduction shares: a well-formed group, an operator defined on
/// the datatype, and a whole number of elements. Returns the group and the element count.
pub(crate) fn check_reduction(
    g: Group,
    dtype: Datatype,
    op: ReduceOp,
    data: &[u8],
) -> Result<(Group, usize), ProtoError> {
    let g = Group::new(g.rank, g.size)?;
    op.check(dtype)?;
    let count = dtype.count_of(data.len())?;
    Ok((g, count))
}
