//! Algorithm selection by (ranks, bytes). The thresholds are starting points, to be tuned with
//! the benchmark harness.
