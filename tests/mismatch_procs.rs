//! Mismatched collectives between real processes under `nexarrun`: the last of 4 ranks calls a
//! collective that differs in count, datatype, op, root or call order, on small (64 B) and
//! large (64 MiB) vectors. Every rank must fail with `Mismatch` (examples/ranks/mismatch_check.rs
//! exits 0 only then), never hang or return a result. Runs over whatever transport the
//! environment selects (CI repeats the suite with `NEXAR_TRANSPORT=quic`).

mod common;

use common::procs::{example, nexarrun_path, succeeded};
use std::process::Command;

/// Runs one case on 4 ranks; returns the slowest rank's time to the error in ms.
fn run_case(case: &str, bytes: usize) -> f64 {
    let out = Command::new(nexarrun_path())
        .args(["-n", "4", "--timeout", "120"])
        .arg(example("mismatch_check"))
        .args([case, &bytes.to_string()])
        .output()
        .expect("nexarrun starts");
    let stdout = succeeded(&out, format_args!("{case} / {bytes} B"));
    let mut slowest = 0.0f64;
    for r in 0..4 {
        let line = stdout
            .lines()
            .find(|l| l.starts_with(&format!("rank {r}: mismatch after ")))
            .unwrap_or_else(|| {
                panic!("{case} / {bytes} B: rank {r} reported no mismatch:\n{stdout}")
            });
        assert!(line.contains("mismatch"), "{line}");
        let ms: f64 = line
            .split("after ")
            .nth(1)
            .and_then(|s| s.split(" ms").next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no time in {line:?}"));
        slowest = slowest.max(ms);
    }
    slowest
}

#[test]
fn every_rank_of_a_real_job_fails_on_a_mismatched_collective() {
    for bytes in [64usize, 64 << 20] {
        for case in ["count", "datatype", "op", "root", "order"] {
            let ms = run_case(case, bytes);
            eprintln!("mismatch {case:>8} at {bytes:>8} B: every rank failed within {ms:.1} ms");
        }
    }
}
