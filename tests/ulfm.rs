//! ULFM recovery across real processes (ranks launched by hand, no launcher): revoke reaches
//! every rank fast, agreement is uniform when its coordinator is killed, and a job shrinks
//! through serial SIGKILLs from 4 ranks to 1. Timing figures are printed (eprintln), and
//! only generous bounds are asserted.

mod common;

use common::procs::{example, launch_by_hand, stderr_text, stdout_text, wait_all_within};
use std::os::unix::process::ExitStatusExt;
use std::process::Child;
use std::time::{Duration, Instant};

/// Each rank's exit signal (if any), exit code and stdout, after every rank exited (the
/// stderr of a rank that failed without a signal is echoed); kills them all and panics if that
/// takes longer than `limit`.
fn finish(children: Vec<Child>, limit: Duration) -> Vec<(Option<i32>, i32, String)> {
    wait_all_within(children, limit)
        .iter()
        .map(|o| {
            let s = o.status;
            if !s.success() && s.signal().is_none() {
                eprintln!("rank stderr:\n{}", stderr_text(o));
            }
            (s.signal(), s.code().unwrap_or(-1), stdout_text(o))
        })
        .collect()
}

/// Runs `n` ranks of `ulfm_scenarios MODE` over `transport` (`auto`: shared memory here).
fn run_over(mode: &str, n: u32, transport: &str) -> Vec<(Option<i32>, i32, String)> {
    let dir = tempfile::tempdir().unwrap();
    let launch = launch_by_hand(&example("ulfm_scenarios"), n, dir.path(), |c| {
        c.arg(mode)
            .env("NEXAR_TRANSPORT", transport)
            .env("NEXAR_PEER_TIMEOUT_MS", "3000");
    });
    let outs = finish(launch.children, Duration::from_secs(45));
    // Every rank that was not killed finalized cleanly despite the failures / revocation.
    for (r, (sig, _, out)) in outs.iter().enumerate() {
        if sig.is_none() {
            assert!(
                out.contains("FINALIZED"),
                "rank {r} did not finalize:\n{out}"
            );
        }
    }
    outs
}

/// The value of `key=` in `line`.
fn field<'a>(line: &'a str, key: &str) -> &'a str {
    line.split_whitespace()
        .find_map(|w| w.strip_prefix(key).and_then(|w| w.strip_prefix('=')))
        .unwrap_or_else(|| panic!("no {key} in {line:?}"))
}

fn lines<'a>(out: &'a str, tag: &str) -> Vec<&'a str> {
    out.lines().filter(|l| l.starts_with(tag)).collect()
}

#[test]
fn revoke_reaches_every_rank_fast_and_shrink_then_works() {
    check_revoke("auto");
}

#[test]
fn revoke_over_quic() {
    check_revoke("quic");
}

fn check_revoke(transport: &str) {
    let outs = run_over("revoke", 4, transport);
    for (r, (sig, code, out)) in outs.iter().enumerate() {
        assert_eq!((*sig, *code), (None, 0), "rank {r}:\n{out}");
    }
    let at: u128 = field(lines(&outs[0].2, "REVOKE ")[0], "at_us")
        .parse()
        .unwrap();
    let mut worst = 0;
    for (r, (_, _, out)) in outs.iter().enumerate().skip(1) {
        let got: u128 = field(lines(out, "REVOKED")[0], "at_us").parse().unwrap();
        let lat = got.saturating_sub(at);
        eprintln!("{transport}: rank {r}: operation failed with Revoked {lat} us after the revoke");
        worst = worst.max(lat);
    }
    eprintln!("{transport}: revoke latency (worst of 3 ranks): {worst} us");
    assert!(worst < 500_000, "revocation took {worst} us");
    for (_, _, out) in &outs {
        let done = lines(out, "DONE")[0];
        // 0 + 1 + 2 + 3, and the AND of 0xF0 | rank over ranks 0..4.
        assert_eq!((field(done, "size"), field(done, "sum")), ("4", "6"));
        assert_eq!(field(done, "flag"), "240");
    }
}

#[test]
fn agree_is_uniform_when_the_coordinator_is_killed() {
    check_agree("auto");
}

#[test]
fn agree_with_a_killed_coordinator_over_quic() {
    check_agree("quic");
}

fn check_agree(transport: &str) {
    let outs = run_over("agree", 4, transport);
    assert_eq!(
        outs[0].0,
        Some(libc::SIGKILL),
        "rank 0 should die by SIGKILL"
    );
    let mut first = Vec::new();
    for (r, (sig, code, out)) in outs.iter().enumerate().skip(1) {
        assert_eq!((*sig, *code), (None, 0), "rank {r}:\n{out}");
        let a1 = lines(out, "AGREE1")[0];
        eprintln!(
            "{transport}: rank {r}: agreement with a dead coordinator took {} ms",
            field(a1, "ms")
        );
        first.push((
            field(a1, "value"),
            field(a1, "failed"),
            field(a1, "unacked"),
        ));
        let a2 = lines(out, "AGREE2")[0];
        // 0xFF00 | rank, ANDed over ranks 1, 2, 3.
        assert_eq!(field(a2, "value"), "0xff00");
    }
    // !(1 << r) ANDed over ranks 1..4; rank 0 failed and nobody had acknowledged it.
    let want = format!("{:#x}", !0b1110u32);
    assert!(
        first.iter().all(|f| *f == (want.as_str(), "[0]", "true")),
        "{first:?}"
    );
}

#[test]
fn serial_attrition_from_four_ranks_to_one() {
    check_attrition("auto");
}

#[test]
fn serial_attrition_over_quic() {
    check_attrition("quic");
}

fn check_attrition(transport: &str) {
    let t = Instant::now();
    let outs = run_over("attrition", 4, transport);
    eprintln!("{transport}: attrition job took {:?}", t.elapsed());
    // Victims: world rank 0 (round 0, comm rank 0 of 4), then comm rank 1 of {1, 2, 3} =
    // world 2, then comm rank 1 of {1, 3} = world 3. World rank 1 is the last one.
    for (r, (sig, _, out)) in outs.iter().enumerate() {
        if r == 1 {
            assert_eq!((*sig, outs[r].1), (None, 0), "rank {r}:\n{out}");
        } else {
            assert_eq!(
                *sig,
                Some(libc::SIGKILL),
                "rank {r} should die by SIGKILL:\n{out}"
            );
        }
    }
    // Survivors sum their world ranks: {1, 2, 3}, {1, 3}, {1}.
    let sums = [6, 4, 1];
    let out1 = &outs[1].2;
    let rounds = lines(out1, "ROUND");
    assert_eq!(rounds.len(), 3, "{out1}");
    for (i, l) in rounds.iter().enumerate() {
        assert_eq!(field(l, "size"), (3 - i).to_string());
        assert_eq!(field(l, "sum"), sums[i].to_string());
        eprintln!(
            "{transport}: round {i}: failure detected after {} ms ({}), shrink took {} ms",
            field(l, "detect_ms"),
            field(l, "error"),
            field(l, "shrink_ms")
        );
    }
    assert!(lines(out1, "LAST")[0].contains("rounds=3"));
    // The other survivors of each round saw the same communicator.
    for (r, n) in [(2usize, 1usize), (3, 2)] {
        let rs = lines(&outs[r].2, "ROUND");
        assert_eq!(rs.len(), n, "rank {r}:\n{}", outs[r].2);
        for (i, l) in rs.iter().enumerate() {
            assert_eq!(field(l, "sum"), sums[i].to_string());
        }
    }
}
