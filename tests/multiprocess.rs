//! Multi-process runs over real QUIC: nexarrun starts N processes of the conformance suite
//! (examples/conformance.rs, the same checks the in-process tests run) and the demo.

mod common;

use common::procs::{nexarrun_output, rank_lines};
use std::process::Output;

/// Runs `prog` at `n` ranks over QUIC plus `env`.
fn run(n: u32, prog: &str, env: &[(&str, &str)]) -> Output {
    // These runs are about QUIC; tests/shm_transport.rs covers shared memory.
    nexarrun_output(n, prog, "quic", &[], env)
}

#[test]
fn conformance_suite_over_quic_at_2_ranks() {
    let out = run(2, "conformance", &[]);
    rank_lines(2, &out, "conformance checks passed over quic");
}

#[test]
fn conformance_suite_over_quic_at_4_ranks() {
    let out = run(4, "conformance", &[]);
    rank_lines(4, &out, "conformance checks passed over quic");
}

#[test]
fn demo_prints_a_verified_result_at_1_to_4_ranks() {
    for n in 1..=4 {
        let out = run(n, "allreduce_demo", &[]);
        rank_lines(n, &out, "verified");
    }
}
