//! The direct shared-memory allreduce (ranks reduce straight out of each other's buffers with
//! `process_vm_readv`) in real processes, since one process cannot exercise cross-memory
//! reads: f32/i64 sums, max and a non-commutative custom op around the threshold and with odd
//! lengths at 2-4 ranks, the fallback to the proto machines (`NEXAR_SHM_CMA=0`, QUIC forced),
//! and a rank dying in the middle of a call.

mod common;

use common::procs::{example, launch_by_hand, nexarrun_output, rank_lines, wait_all};
use std::process::Output;
use std::time::{Duration, Instant};

fn run(n: u32, env: &[(&str, &str)]) -> Output {
    let unset = [
        "NEXAR_SHM_CMA",
        "NEXAR_ALLREDUCE_DIRECT_MIN",
        "NEXAR_SHM_TEST_FAIL_READS",
    ];
    nexarrun_output(n, "direct_allreduce", "auto", &unset, env)
}

/// Asserts every rank verified its results; returns each rank's `bytes_sent`.
fn bytes_sent(n: u32, out: &Output) -> Vec<u64> {
    let tag = "direct-allreduce ok checks=25 bytes_sent=";
    rank_lines(n, out, tag)
        .iter()
        .map(|line| {
            line[line.find(tag).unwrap() + tag.len()..]
                .split(' ')
                .next()
                .unwrap()
                .parse()
                .unwrap()
        })
        .collect()
}

/// Whether this sandbox lets a process read another's memory (else the direct algorithm
/// falls back everywhere, which the results must not show).
fn cma_permitted() -> bool {
    nexar::transport::shm::cma::probe(
        std::process::id() as i32,
        nexar::transport::shm::segment::CMA_PROBE.as_ptr() as u64,
        &nexar::transport::shm::segment::CMA_PROBE,
    )
}

#[test]
fn results_match_a_local_reduction_around_the_threshold_at_2_to_4_ranks() {
    for n in [2, 3, 4] {
        bytes_sent(n, &run(n, &[]));
    }
}

#[test]
fn every_size_goes_direct_when_forced_and_moves_no_payload() {
    for n in [2, 4] {
        let sent = bytes_sent(n, &run(n, &[("NEXAR_ALLREDUCE_DIRECT_MIN", "1")]));
        if cma_permitted() {
            // 25 calls of a few control messages per peer: the vectors (tens of MiB in all)
            // never travel as frames.
            for s in &sent {
                assert!(*s < 64 << 10, "{sent:?}");
            }
        }
    }
}

#[test]
fn without_one_copy_the_proto_machines_run_and_agree() {
    for n in [2, 3] {
        let env = [("NEXAR_ALLREDUCE_DIRECT_MIN", "1"), ("NEXAR_SHM_CMA", "0")];
        let sent = bytes_sent(n, &run(n, &env));
        // The payloads moved as frames: at least the largest vector per rank.
        for s in &sent {
            assert!(*s > 4 << 20, "{sent:?}");
        }
        // QUIC keeps no counters; the results are still checked.
        let quic = run(
            n,
            &[
                ("NEXAR_ALLREDUCE_DIRECT_MIN", "1"),
                ("NEXAR_TRANSPORT", "quic"),
            ],
        );
        bytes_sent(n, &quic);
        assert!(String::from_utf8_lossy(&quic.stdout).contains("over quic"));
    }
}

/// Launched by hand (not nexarrun, which would terminate the survivors at once) so the
/// survivors can be watched failing instead of hanging.
#[test]
fn a_rank_dying_mid_call_fails_the_others_promptly() {
    let n = 3u32;
    let dir = tempfile::tempdir().unwrap();
    let start = Instant::now();
    let launch = launch_by_hand(&example("direct_allreduce"), n, dir.path(), |c| {
        c.arg("crash")
            .env("NEXAR_TRANSPORT", "auto")
            .env_remove("NEXAR_ALLREDUCE_DIRECT_MIN");
    });
    let outs = wait_all(launch.children);
    assert!(start.elapsed() < Duration::from_secs(60));
    for (r, o) in outs.iter().enumerate().take(n as usize - 1) {
        let stdout = String::from_utf8_lossy(&o.stdout);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "rank {r}: {stdout}\n{stderr}");
        assert!(
            stdout.contains("allreduce failed") && stdout.contains("ProcFailed"),
            "rank {r}: {stdout}\n{stderr}"
        );
    }
    assert!(
        !outs[n as usize - 1].status.success(),
        "the victim was killed"
    );
}
