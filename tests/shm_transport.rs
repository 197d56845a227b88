//! Multi-process runs over the shared-memory transport: the conformance suite at 2 and 4 ranks
//! with and without `process_vm_readv`, a byte-exact exchange of sizes around every boundary,
//! QUIC forced by `NEXAR_TRANSPORT=quic`, idle ranks sleeping instead of spinning, and a rank
//! killed with SIGKILL (its peers notice and nothing is left in /dev/shm).

mod common;

use common::procs::{example, launch_by_hand, nexarrun_output, rank_lines, wait_all};
use std::process::Output;
use std::time::{Duration, Instant};

/// Runs `prog` at `n` ranks with the transport left to choose (`NEXAR_TRANSPORT=auto`, so the
/// test means the same when the suite runs with QUIC forced) plus `env`.
fn run(n: u32, prog: &str, env: &[(&str, &str)]) -> Output {
    let unset = [
        "NEXAR_SHM_CMA",
        "NEXAR_SHM_CALLER_PROGRESS",
        "NEXAR_SHM_TEST_FAIL_READS",
    ];
    nexarrun_output(n, prog, "auto", &unset, env)
}

fn counter(line: &str, name: &str) -> u64 {
    let key = format!("{name}=");
    let at = line
        .find(&key)
        .unwrap_or_else(|| panic!("no {name} in {line}"))
        + key.len();
    line[at..]
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn conformance_over_shm_at_2_and_4_ranks() {
    for n in [2, 4] {
        let out = run(n, "conformance", &[]);
        rank_lines(n, &out, "conformance checks passed over shm");
    }
}

#[test]
fn conformance_over_shm_with_progress_only_on_the_progress_thread() {
    for n in [2, 4] {
        let out = run(n, "conformance", &[("NEXAR_SHM_CALLER_PROGRESS", "0")]);
        rank_lines(n, &out, "conformance checks passed over shm");
    }
}

#[test]
fn conformance_over_shm_without_one_copy_at_2_and_4_ranks() {
    for n in [2, 4] {
        let out = run(n, "conformance", &[("NEXAR_SHM_CMA", "0")]);
        rank_lines(n, &out, "conformance checks passed over shm");
    }
}

#[test]
fn every_size_arrives_intact_with_and_without_one_copy() {
    for n in [2, 3] {
        // 3 rounds x 13 sizes x (n-1) peers, plus the barrier's frames.
        let min_frames = 3 * 13 * (n as u64 - 1);
        let lines = rank_lines(n, &run(n, "shm_check", &[]), "shm check passed over shm");
        // Whether one-copy reads are permitted depends on the sandbox; when they are, the
        // messages of at least CMA_THRESHOLD bytes (2 of the 13 sizes) must have used them.
        assert_eq!(nexar::transport::shm::CMA_THRESHOLD, 1 << 20);
        let one_copy: u64 = lines.iter().map(|l| counter(l, "one_copy")).sum();
        let permitted = nexar::transport::shm::cma::probe(
            std::process::id() as i32,
            nexar::transport::shm::segment::CMA_PROBE.as_ptr() as u64,
            &nexar::transport::shm::segment::CMA_PROBE,
        );
        for l in &lines {
            assert!(counter(l, "frames_sent") >= min_frames, "{l}");
            assert!(counter(l, "frames_received") >= min_frames, "{l}");
            // The posted windows (32 small receives per peer, posted before any send) land
            // straight from the ring in the receives' buffers, and their 2 large messages per
            // peer straight from the sender when one-copy reads are permitted.
            let direct = if permitted { 34 } else { 32 };
            assert!(counter(l, "landed") >= direct * (n as u64 - 1), "{l}");
        }
        if permitted {
            assert!(one_copy >= 3 * 2 * (n as u64 - 1), "{lines:?}");
        }
        let forced = rank_lines(
            n,
            &run(n, "shm_check", &[("NEXAR_SHM_CMA", "0")]),
            "shm check passed over shm",
        );
        for l in &forced {
            assert_eq!(counter(l, "one_copy"), 0, "{l}");
        }
    }
}

#[test]
fn failed_one_copy_reads_are_resent_through_the_rings() {
    let n = 3;
    let lines = rank_lines(
        n,
        &run(n, "shm_check", &[("NEXAR_SHM_TEST_FAIL_READS", "1")]),
        "shm check passed over shm",
    );
    for l in &lines {
        // Every payload arrived intact (checked by the example); after the first refused
        // read each sender stops announcing to that peer, so far fewer than the 6 per peer.
        let announced = counter(l, "one_copy");
        assert!(announced <= 2 * (n as u64 - 1), "{l}");
    }
}

#[test]
fn quic_forced_by_the_environment() {
    let out = nexarrun_output(2, "conformance", "quic", &[], &[]);
    rank_lines(2, &out, "conformance checks passed over quic");
}

fn leftovers(job_id: &str) -> Vec<String> {
    std::fs::read_dir("/dev/shm")
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with(&format!("nexar-{job_id}-")))
                .collect()
        })
        .unwrap_or_default()
}

/// Launched by hand (not nexarrun, which would terminate the survivors at once) so the
/// survivors can be watched noticing the death.
#[test]
fn a_killed_rank_is_detected_and_leaves_nothing_in_dev_shm() {
    let n = 3u32;
    let dir = tempfile::tempdir().unwrap();
    let start = Instant::now();
    let launch = launch_by_hand(&example("shm_crash"), n, dir.path(), |c| {
        c.env("NEXAR_TRANSPORT", "auto");
    });
    let job_id = launch.job_id;
    let outs = wait_all(launch.children);
    assert!(start.elapsed() < Duration::from_secs(60));
    for (r, o) in outs.iter().enumerate() {
        let stdout = String::from_utf8_lossy(&o.stdout);
        let stderr = String::from_utf8_lossy(&o.stderr);
        if r as u32 == n - 1 {
            assert!(!o.status.success(), "the victim was killed");
            continue;
        }
        assert!(o.status.success(), "rank {r}: {stdout}\n{stderr}");
        assert!(stdout.contains("up over shm"), "rank {r}: {stdout}");
        assert!(
            stdout.contains(&format!("lost rank {}", n - 1)),
            "rank {r}: {stdout}\n{stderr}"
        );
    }
    assert_eq!(leftovers(&job_id), Vec::<String>::new());
}

#[test]
fn ranks_waiting_for_a_second_use_almost_no_cpu() {
    for cp in ["1", "0"] {
        let n = 4;
        let out = run(n, "shm_idle", &[("NEXAR_SHM_CALLER_PROGRESS", cp)]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{stdout}");
        for r in 1..n {
            let tag = format!("rank {r}/{n}: idle over shm");
            let line = stdout
                .lines()
                .find(|l| l.contains(&tag))
                .unwrap_or_else(|| panic!("rank {r} did not report\n{stdout}"));
            assert!(counter(line, "waited_ms") >= 900, "{line}");
            // Spinning through the wait would cost about 1000 ms; sleeping costs a few.
            assert!(
                counter(line, "cpu_ms") < 150,
                "caller progress {cp}: {line}"
            );
        }
    }
}
