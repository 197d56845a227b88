//! Multi-process runs over real QUIC: nexarrun starts N processes of the conformance suite
//! (examples/conformance.rs, the same checks the in-process tests run) and the demo.

mod common;

use common::procs::{example, nexarrun_path as nexarrun};
use std::process::{Command, Output};

fn run(n: u32, prog: &str, env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(nexarrun());
    cmd.args(["-n", &n.to_string(), "--timeout", "240", "--"])
        .arg(example(prog))
        // These runs are about QUIC; tests/shm_transport.rs covers shared memory.
        .env("NEXAR_TRANSPORT", "quic");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("nexarrun starts")
}

fn assert_all_ranks_passed(n: u32, out: &Output, needle: &str) {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "n={n}: exit {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
    for r in 0..n {
        let line = format!("rank {r}/{n}: ");
        assert!(
            stdout
                .lines()
                .any(|l| l.contains(&line) && l.contains(needle)),
            "n={n}: rank {r} did not report success\nstdout:\n{stdout}\nstderr:\n{stderr}"
        );
    }
}

#[test]
fn conformance_suite_over_quic_at_2_ranks() {
    let out = run(2, "conformance", &[]);
    assert_all_ranks_passed(2, &out, "conformance checks passed over quic");
}

#[test]
fn conformance_suite_over_quic_at_4_ranks() {
    let out = run(4, "conformance", &[]);
    assert_all_ranks_passed(4, &out, "conformance checks passed over quic");
}

#[test]
fn demo_prints_a_verified_result_at_1_to_4_ranks() {
    for n in 1..=4 {
        let out = run(n, "allreduce_demo", &[]);
        assert_all_ranks_passed(n, &out, "verified");
    }
}
