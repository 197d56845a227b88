//! bcast: placeholder until the algorithms land.
#![allow(missing_docs)]
use crate::{Collective, Group, ProtoError, Rank};
pub fn machine(_g: Group, _r: Rank, _d: Vec<u8>) -> Result<Box<dyn Collective>, ProtoError> {
    Err(ProtoError::InvalidArgument("bcast pending".into()))
}
