//! Which path and algorithm a collective call takes: [`plan::plan`], the one place that decides.
//!
//! The plan's parts are the per-collective rules by (ranks, bytes) in [`reductions`] (bcast,
//! reduce, allreduce) and [`movement`] (the block-moving collectives, reduce_scatter and scan).
//! Thresholds are starting points, tuned with the benchmark harness; every rule is
//! deterministic, so all ranks pick the same algorithm.

pub mod movement;
pub mod plan;
pub mod reductions;
