//! Algorithm selection by (ranks, bytes). Thresholds are starting points, to be tuned with the
//! benchmark harness; every choice is deterministic so all ranks pick the same algorithm.

pub mod movement;
pub mod reductions;
