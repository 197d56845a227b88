//! allreduce: every rank ends with the element-wise reduction of every rank's vector.
//!
//! Three algorithms, chosen by the plan ([`crate::select::plan`]) or forced with
//! [`machine_with`]:
//! * [`recursive_doubling`]: `log2 p2` full-vector exchanges (plus a fold and an unfold when the
//!   size is not a power of two); for small vectors.
//! * [`ring`]: ring reduce-scatter then ring allgather over `n` blocks; bandwidth optimal, `2(n-1)`
//!   rounds; for large vectors.
//! * [`rabenseifner`]: recursive-halving reduce-scatter then recursive-doubling allgather;
//!   bandwidth optimal with logarithmic latency.
//!
//! [`direct`] is the control protocol of the engine's direct shared-memory allreduce, a machine
//! whose reduce is an effect its driver (the engine) performs.
//!
//! Every algorithm gives all ranks bitwise identical results, whatever the delivery order: each
//! element is reduced in one fixed bracketing (recursive doubling and Rabenseifner: lower-ranked
//! partial results on the left; ring: see [`ring`]) and either computed identically on every
//! rank or computed once and copied.

use crate::prelude::*;

pub mod direct;
pub mod rabenseifner;
pub mod recursive_doubling;
pub mod ring;

use crate::datatype::Datatype;
use crate::error::ProtoError;
use crate::machine::Collective;
use crate::op::ReduceOp;
use crate::reducer::Reducer;
use crate::select::reductions::{self as select, AllreduceAlgo};
use crate::types::Group;

/// An allreduce of `data` (a whole number of `dtype` elements, the same count on every rank) with
/// `op`, using the algorithm the plan ([`crate::select::plan`]) picks for this size.
pub fn machine(
    g: Group,
    dtype: Datatype,
    op: ReduceOp,
    data: Vec<u8>,
) -> Result<Box<dyn Collective>, ProtoError> {
    reducer_machine(g, Reducer::builtin(op, dtype), data)
}

/// Like [`machine`], with the algorithm forced. Every rank must pass the same `algo`.
pub fn machine_with(
    g: Group,
    dtype: Datatype,
    op: ReduceOp,
    data: Vec<u8>,
    algo: AllreduceAlgo,
) -> Result<Box<dyn Collective>, ProtoError> {
    reducer_machine_with(g, Reducer::builtin(op, dtype), data, algo)
}

/// An allreduce of `data` (a whole number of elements, the same count on every rank) with any
/// [`Reducer`], using the algorithm the plan ([`crate::select::plan`]) picks (an order-preserving
/// one for a non-commutative reducer).
pub fn reducer_machine(
    g: Group,
    red: Reducer,
    data: Vec<u8>,
) -> Result<Box<dyn Collective>, ProtoError> {
    let algo = select::allreduce_for(g.size, data.len(), red.commutative());
    reducer_machine_with(g, red, data, algo)
}

/// Like [`reducer_machine`], with the algorithm forced (every rank must pass the same `algo`).
/// An algorithm that does not keep the rank order is refused for a non-commutative reducer.
pub fn reducer_machine_with(
    g: Group,
    red: Reducer,
    data: Vec<u8>,
    algo: AllreduceAlgo,
) -> Result<Box<dyn Collective>, ProtoError> {
    let (g, _) = check_reduction(g, &red, &data)?;
    check_order(&red, algo.preserves_order(), "allreduce", &algo)?;
    Ok(match algo {
        AllreduceAlgo::RecursiveDoubling => recursive_doubling::build(g, red, data),
        AllreduceAlgo::Ring => ring::build(g, red, data),
        AllreduceAlgo::Rabenseifner => {
            rabenseifner::build(g, red, data, rabenseifner::Finish::Allgather)
        }
    })
}

/// Validates the arguments every reduction shares: a well-formed group, a usable reducer (an
/// operator defined on the datatype), and a whole number of elements. Returns the group and
/// the element count.
pub(crate) fn check_reduction(
    g: Group,
    red: &Reducer,
    data: &[u8],
) -> Result<(Group, usize), ProtoError> {
    let g = Group::new(g.rank, g.size)?;
    red.check()?;
    let count = red.count_of(data.len())?;
    Ok((g, count))
}

/// Refuses an algorithm that does not keep the rank order (`preserves` false) for a
/// non-commutative reducer.
pub(crate) fn check_order(
    red: &Reducer,
    preserves: bool,
    what: &str,
    algo: &dyn core::fmt::Debug,
) -> Result<(), ProtoError> {
    if preserves || red.commutative() {
        Ok(())
    } else {
        Err(ProtoError::InvalidArgument(format!(
            "{what} algorithm {algo:?} reorders operands, which a non-commutative {} forbids",
            red.name()
        )))
    }
}
