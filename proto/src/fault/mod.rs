//! Fault-tolerant protocols: machines that keep going when peers fail, where every other
//! collective gives up (see [`crate::machine::Collective::peer_failed`]).
//!
//! * [`agree`]: ULFM's agreement (`MPIX_Comm_agree`): the survivors agree on the AND of a flag
//!   and on a set of failed ranks.

pub mod agree;
