//! QUIC under a hostile network: the seeded chaos layer (`NEXAR_CHAOS`,
//! src/transport/quic/chaos.rs) drops 5 % of the datagrams and duplicates and reorders others;
//! 4 ranks over QUIC (bulk lane on QUIC too: the TLS lane is TCP and would bypass the chaos) must
//! still produce bit-exact integer allreduces and in-order point-to-point messages
//! (examples/ranks/chaos_check.rs).

mod common;

use common::procs::{example, nexarrun_path, stderr_text, succeeded};
use std::process::Command;
use std::time::Instant;

fn run_chaos(n: u32, chaos: &str) -> (std::process::Output, f64) {
    let start = Instant::now();
    let out = Command::new(nexarrun_path())
        // nexarrun kills every rank if the job outlives this: the test cannot hang.
        .args(["-n", &n.to_string(), "--timeout", "150", "--"])
        .arg(example("chaos_check"))
        .env("NEXAR_TRANSPORT", "quic")
        .env("NEXAR_BULK_LANE", "quic")
        .env("NEXAR_CHAOS", chaos)
        .output()
        .expect("nexarrun starts");
    (out, start.elapsed().as_secs_f64())
}

#[test]
fn allreduce_and_p2p_order_survive_loss_duplication_and_reordering() {
    let n = 4;
    let (out, secs) = run_chaos(n, "seed=7,loss=0.05,dup=0.01,reorder=0.05,delay_ms=2");
    let stdout = succeeded(&out, "chaos job");
    let mut dropped = 0u64;
    for r in 0..n {
        let line = stdout
            .lines()
            .find(|l| l.starts_with(&format!("rank {r}/{n}: chaos checks passed over quic")))
            .unwrap_or_else(|| {
                panic!(
                    "rank {r} did not pass\nstdout:\n{stdout}\nstderr:\n{}",
                    stderr_text(&out)
                )
            });
        let d: u64 = line
            .split("dropped ")
            .nth(1)
            .and_then(|t| t.split_whitespace().next())
            .and_then(|t| t.parse().ok())
            .expect("drop count");
        dropped += d;
    }
    // The chaos was real: with 5 % loss, thousands of datagrams went missing.
    assert!(dropped > 50, "only {dropped} datagrams dropped\n{stdout}");
    eprintln!(
        "chaos (4 ranks, 5% loss, 1% dup, 5% reorder): job took {secs:.1} s, {dropped} datagrams dropped\n{stdout}"
    );
}
