//! `Context::abort` (and through it `nexar_abort` / `MPI_Abort`) ends every rank with the
//! abort's code: without a launcher (the abort frame reaches each peer), over shared memory and
//! over QUIC, and under nexarrun (which returns the code).

mod common;

use common::procs::{example, launch_by_hand, nexarrun_path, wait_all};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn check_all_aborted(outs: &[Output]) {
    for (r, o) in outs.iter().enumerate() {
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(7), "rank {r}: {stderr}");
        if r + 1 < outs.len() {
            assert!(
                stderr.contains(&format!(
                    "rank {} aborted the job with code 7",
                    outs.len() - 1
                )),
                "rank {r}: {stderr}"
            );
        }
    }
}

fn aborts_without_a_launcher(transport: &str) {
    let dir = tempfile::tempdir().unwrap();
    let start = Instant::now();
    let launch = launch_by_hand(&example("abort_check"), 3, dir.path(), |c| {
        c.env("NEXAR_TRANSPORT", transport);
    });
    let outs = wait_all(launch.children);
    // Generous (start-up included): without the abort frame the survivors would wait for the
    // peer timeout (30 s) and then exit with 3.
    assert!(start.elapsed() < Duration::from_secs(20), "{outs:?}");
    check_all_aborted(&outs);
}

#[test]
fn an_abort_ends_every_rank_over_shared_memory_without_a_launcher() {
    aborts_without_a_launcher("auto");
}

#[test]
fn an_abort_ends_every_rank_over_quic_without_a_launcher() {
    aborts_without_a_launcher("quic");
}

#[test]
fn nexarrun_returns_the_abort_code() {
    let out = Command::new(nexarrun_path())
        .args(["-n", "3"])
        .arg(example("abort_check"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(7),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
