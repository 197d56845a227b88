//! reduce_scatter: placeholder until the algorithms land.
#![allow(missing_docs)]
use crate::{Collective, Datatype, Group, ProtoError, ReduceOp};
pub fn machine(
    _g: Group,
    _t: Datatype,
    _o: ReduceOp,
    _d: Vec<u8>,
    _c: Vec<usize>,
) -> Result<Box<dyn Collective>, ProtoError> {
    Err(ProtoError::InvalidArgument("reduce_scatter pending".into()))
}
