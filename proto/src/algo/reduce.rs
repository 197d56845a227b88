//! reduce: placeholder until the algorithms land.
#![allow(missing_docs)]
use crate::{Collective, Datatype, Group, ProtoError, Rank, ReduceOp};
pub fn machine(
    _g: Group,
    _r: Rank,
    _t: Datatype,
    _o: ReduceOp,
    _d: Vec<u8>,
) -> Result<Box<dyn Collective>, ProtoError> {
    Err(ProtoError::InvalidArgument("reduce pending".into()))
}
