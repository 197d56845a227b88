//! One-sided windows (`nexar::rma`) in real processes, since one process cannot exercise
//! shared areas and cross-memory attach between ranks: puts, fences and fetching accumulates
//! at 1-4 ranks on allocated and created windows, also with QUIC forced on one host, with
//! active messages forced (`NEXAR_RMA=messages`), and between two "hosts" (two host names:
//! active messages over QUIC); a shared window between them refused with `Unsupported` on
//! every rank; and a rank dying while holding an exclusive lock failing the others' lock calls
//! promptly instead of hanging them, in shared memory and through active messages.

mod common;

use common::procs::{example, launch_by_hand, nexarrun_output, rank_lines, wait_all};
use std::time::{Duration, Instant};

const UNSET: [&str; 3] = ["RMA_CHECK", "NEXAR_SHM_CMA", "NEXAR_RMA"];

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

/// Launches `rma_check MODE` by hand on `n` ranks, rank 0 on host-a and the others on host-b
/// (`NEXAR_HOSTNAME`): ranks 0 and 1 share no memory.
fn two_hosts(n: u32, mode: &str) -> Vec<std::process::Output> {
    let dir = tempfile::tempdir().unwrap();
    let launch = launch_by_hand(&example("rma_check"), n, dir.path(), |c| {
        let first = c
            .get_envs()
            .any(|(k, v)| k == "NEXAR_RANK" && v.is_some_and(|v| v == "0"));
        c.env("RMA_CHECK", mode)
            .env("NEXAR_TRANSPORT", "auto")
            .env("NEXAR_HOSTNAME", if first { "host-a" } else { "host-b" })
            .env_remove("NEXAR_SHM_CMA")
            .env_remove("NEXAR_RMA");
    });
    wait_all(launch.children)
}

/// Ranks on two "hosts": allocated and created windows work through active messages.
#[test]
fn windows_work_between_hosts_through_active_messages() {
    for n in [2, 3] {
        for (r, o) in two_hosts(n, "check").iter().enumerate() {
            let stdout = String::from_utf8_lossy(&o.stdout);
            let stderr = String::from_utf8_lossy(&o.stderr);
            assert!(o.status.success(), "n={n} rank {r}: {stdout}\n{stderr}");
            assert!(
                stdout.contains(&format!("rank {r}/{n}: rma ok")),
                "n={n} rank {r}: {stdout}\n{stderr}"
            );
        }
    }
}

/// Ranks on two "hosts": a shared window (`MPI_Win_allocate_shared`) is refused on every rank.
#[test]
fn shared_windows_between_hosts_are_refused_on_every_rank() {
    for (r, o) in two_hosts(2, "refused").iter().enumerate() {
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

/// Active messages forced on one host (`NEXAR_RMA=messages`): the same checks at 1-4 ranks.
#[test]
fn windows_served_by_active_messages_agree_at_1_to_4_ranks() {
    for n in 1..=4 {
        rank_lines(
            n,
            &nexarrun_output(n, "rma_check", "auto", &UNSET, &[("NEXAR_RMA", "messages")]),
            "rma ok",
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
/// survivors can be watched failing instead of hanging: in shared memory, then with the window
/// served by active messages (the lock waits at the target).
#[test]
fn a_rank_dying_with_a_lock_fails_the_others_lock_calls_promptly() {
    for rma in ["auto", "messages"] {
        dying_lock_holder(rma);
    }
}

fn dying_lock_holder(rma: &str) {
    let n = 3u32;
    let dir = tempfile::tempdir().unwrap();
    let start = Instant::now();
    let launch = launch_by_hand(&example("rma_check"), n, dir.path(), |c| {
        c.arg("crash")
            .env("NEXAR_TRANSPORT", "auto")
            .env_remove("RMA_CHECK")
            .env_remove("NEXAR_SHM_CMA")
            .env("NEXAR_RMA", rma);
    });
    let outs = wait_all(launch.children);
    assert!(start.elapsed() < Duration::from_secs(60), "{rma}");
    for (r, o) in outs.iter().enumerate().take(n as usize - 1) {
        let stdout = String::from_utf8_lossy(&o.stdout);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{rma} rank {r}: {stdout}\n{stderr}");
        for what in ["held by the dead rank", "on the dead rank"] {
            assert!(
                stdout
                    .lines()
                    .any(|l| l.contains(&format!("lock {what} failed")) && l.contains("ProcFailed")),
                "{rma} rank {r}: {stdout}\n{stderr}"
            );
        }
    }
    assert!(
        !outs[n as usize - 1].status.success(),
        "the victim was killed ({rma})"
    );
}
