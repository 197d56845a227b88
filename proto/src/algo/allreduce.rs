//! allreduce: placeholder until the algorithms land.
#![allow(missing_docs)]
use crate::{Collective, Datatype, Group, ProtoError, ReduceOp};
pub fn machine(
    _g: Group,
    _t: Datatype,
    _o: ReduceOp,
    _d: Vec<u8>,
) -> Result<Box<dyn Collective>, ProtoError> {
    Err(ProtoError::InvalidArgument("allreduce pending".into()))
}
