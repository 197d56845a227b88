//! The simulator's counts equal each algorithm's closed-form formula, exactly: rounds (the
//! critical path in messages), messages, the most bytes any rank sends and receives, and the
//! bytes sent in all, for every algorithm the selector can choose, on powers of two and not,
//! up to 1,024 ranks for the algorithms with `O(n log n)` messages. The formulas live in
//! `tests/scale/cases.rs`, shared with `examples/scale_sim.rs`.

#[path = "scale/cases.rs"]
mod cases;

use cases::{Case, Costs, binomial_depth, cases};

/// Simulator state larger than this is skipped (debug builds are slow and CI is small).
const MEMORY_CAP: usize = 64 << 20;

/// A larger message for `n` ranks: a multiple of `n` (blocked algorithms split it evenly), and
/// of the largest power of two `<= n` for the small `n` here (at 1,000 ranks it is not, so
/// Rabenseifner's bytes are not compared there; its rounds and messages are).
fn large(n: u32) -> usize {
    let per_rank = if n.is_power_of_two() { 4 } else { 8 };
    per_rank * n as usize
}

fn check(case: &Case, n: u32, m: usize) {
    if !(case.applies)(n) || (case.memory)(n, m) > MEMORY_CAP {
        return;
    }
    let ctx = format!("{} n={n} m={m}", case.name);
    let rep = (case.run)(n, m).unwrap_or_else(|e| panic!("{ctx}: {e}"));
    assert_eq!(rep.outputs.len(), n as usize, "{ctx}");
    let got = Costs::of(&rep);
    let want = (case.expect)(n, m);
    assert_eq!(got.rounds, want.rounds, "{ctx}: rounds");
    assert_eq!(got.messages, want.messages, "{ctx}: messages");
    // Sent and received counters agree with each other whatever the formulas say.
    assert_eq!(
        rep.bytes_recv_per_rank.iter().sum::<usize>(),
        rep.bytes,
        "{ctx}: bytes received in all"
    );
    assert_eq!(
        rep.recv_per_rank.iter().sum::<usize>(),
        rep.messages,
        "{ctx}: messages received in all"
    );
    if (case.exact_bytes)(n, m) {
        assert_eq!(got, want, "{ctx}: bytes");
    }
}

#[test]
fn small_groups_match_the_formulas_exactly() {
    for case in cases() {
        for n in [2, 3, 5, 8, 64] {
            for m in [8, large(n)] {
                check(&case, n, m);
            }
        }
    }
}

#[test]
fn a_thousand_ranks_match_the_formulas_exactly() {
    for case in cases().iter().filter(|c| !c.quadratic) {
        for n in [1000, 1024] {
            for m in [8, large(n)] {
                check(case, n, m);
            }
        }
    }
}

#[test]
fn binomial_depth_is_the_largest_popcount() {
    for n in 1..300u32 {
        let brute = (0..n).map(u32::count_ones).max().unwrap_or(0);
        assert_eq!(binomial_depth(n), brute, "n={n}");
    }
}
