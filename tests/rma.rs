//! One-sided windows (`nexar::rma`) in real processes, since one process cannot exercise
//! shared areas and cross-memory attach between ranks: puts, fences and fetching accumulates
//! at 1-4 ranks on allocated and created windows, also with QUIC forced on one host; a
//! communicator whose ranks share no memory (two host names) refused with `Unsupported` on every
//! rank; and a rank dying while holding an
//! exclusive lock failing the others' lock calls promptly instead of hanging them.

mod common;

use common::procs::{example, launch_by_hand, nexarrun_output, rank_lines, wait_all};
use std::time::{Duration, Instant};

const UNSET: [&str; 2] = ["RMA_CHECK", "NEXAR_SHM_CMA"];

#[test]
fn puts_fences_and_fetching_accumulates_agree_at_1_to_4_ranks() {
    for n in 1..=4 {
        rank_lines(
            n,
            &nexarrun_output(n, "rma_check", "auto", &UNSET, &[]),
            "rma ok",
        );
    }
}

/// Ranks on two "hosts" (`NEXAR_HOSTNAME`): their windows are refused on every rank.
#[test]
fn ranks_that_share_no_memory_are_refused_on_every_rank() {
    let dir = tempfile::tempdir().unwrap();
    let launch = launch_by_hand(&example("rma_check"), 2, dir.path(), |c| {
        let first = c
            .get_envs()
            .any(|(k, v)| k == "NEXAR_RANK" && v.is_some_and(|v| v == "0"));
        c.env("RMA_CHECK", "refused")
            .env("NEXAR_TRANSPORT", "auto")
            .env("NEXAR_HOSTNAME", if first { "host-a" } else { "host-b" })
            .env_remove("NEXAR_SHM_CMA");
    });
    for (r, o) in wait_all(launch.children).iter().enumerate() {
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "rank {r}: {stdout}");
        let line = stdout
            .lines()
            .find(|l| l.contains("rma refused"))
            .unwrap_or_else(|| panic!("rank {r}: {stdout}"));
        assert!(
            line.contains("Unsupported") && line.contains("one host"),
            "{line}"
        );
    }
}

/// QUIC forced between ranks of one host: the windows still share this host's memory (the
/// window's own shared file and cross-memory attach, whatever carries the messages).
#[test]
fn windows_on_one_host_work_with_quic_forced() {
    for n in [2, 3] {
        rank_lines(
            n,
            &nexarrun_output(n, "rma_check", "quic", &UNSET, &[]),
            "rma ok",
        );
    }
}

/// Launched by hand (not nexarrun, which would terminate the survivors at once) so the
/// survivors can be watched failing instead of hanging.
#[test]
fn a_rank_dying_with_a_lock_fails_the_others_lock_calls_promptly() {
    let n = 3u32;
    let dir = tempfile::tempdir().unwrap();
    let start = Instant::now();
    let launch = launch_by_hand(&example("rma_check"), n, dir.path(), |c| {
        c.arg("crash").env("NEXAR_TRANSPORT", "auto");
        for k in UNSET {
            c.env_remove(k);
        }
    });
    let outs = wait_all(launch.children);
    assert!(start.elapsed() < Duration::from_secs(60));
    for (r, o) in outs.iter().enumerate().take(n as usize - 1) {
        let stdout = String::from_utf8_lossy(&o.stdout);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "rank {r}: {stdout}\n{stderr}");
        for what in ["held by the dead rank", "on the dead rank"] {
            assert!(
                stdout
                    .lines()
                    .any(|l| l.contains(&format!("lock {what} failed")) && l.contains("ProcFailed")),
                "rank {r}: {stdout}\n{stderr}"
            );
        }
    }
    assert!(
        !outs[n as usize - 1].status.success(),
        "the victim was killed"
    );
}
