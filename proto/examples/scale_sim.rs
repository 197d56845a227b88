//! Simulated costs of every collective algorithm at scale, next to the textbook formulas.
//!
//! `cargo run --release -p nexar-proto --example scale_sim [-- 2,3,5,8,64,1024,4096,16384]`
//!
//! For each algorithm the selector can choose and each rank count, runs the protocol state
//! machines in the deterministic simulator (synchronous delivery) with a small message (8
//! bytes) and a large one, and prints the critical path in messages (rounds), the messages in
//! all, and the most and the mean payload bytes a rank sends, each as `simulated/formula`. The
//! formulas are in `tests/scale/cases.rs` (exact, checked by `tests/scale_formulas.rs`).
//!
//! Limits, reported in the output: algorithms with `n(n-1)` messages or more are simulated up
//! to [`QUADRATIC_MAX`] ranks; the large message is halved until the simulator's state fits in
//! [`MEMORY_CAP`] (so at 16,384 ranks it is smaller than at 1,024; the `m` column says what
//! was run).

#[path = "../tests/scale/cases.rs"]
mod cases;

use cases::{Case, Costs, cases};
use std::time::Instant;

/// Largest group simulated for algorithms with a quadratic number of messages.
const QUADRATIC_MAX: u32 = 2048;
/// Most simulator state (rough estimate) a run may use.
const MEMORY_CAP: usize = 1536 << 20;
/// The large message before any reduction for memory: 64 KiB, the selector's bandwidth
/// threshold.
const LARGE: usize = 64 << 10;

/// The largest `m <= LARGE` fitting the cap, rounded down to a multiple of `n` and of the
/// largest power of two `<= n` when possible (so blocked formulas are exact).
fn large_for(case: &Case, n: u32) -> Option<usize> {
    let p2 = 1usize << (31 - n.leading_zeros());
    let unit = lcm(n as usize, p2);
    let mut m = LARGE;
    while m > 8 && (case.memory)(n, m) > MEMORY_CAP {
        m /= 2;
    }
    if (case.memory)(n, m) > MEMORY_CAP {
        return None;
    }
    Some(if m >= unit { m / unit * unit } else { m })
}

fn lcm(a: usize, b: usize) -> usize {
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    a / x * b
}

fn cell<T: PartialEq + std::fmt::Display>(got: T, want: T, exact: bool) -> String {
    if !exact {
        format!("{got}/-")
    } else if got == want {
        format!("{got}")
    } else {
        format!("{got}/{want}!")
    }
}

fn main() {
    let ns: Vec<u32> = std::env::args()
        .nth(1)
        .map(|a| {
            a.split(',')
                .map(|x| x.trim().parse().expect("rank count"))
                .collect()
        })
        .unwrap_or_else(|| vec![2, 3, 5, 8, 64, 1000, 1024, 2048, 16384]);
    println!("Simulated / formula (one number: they are equal; `!`: they differ; `-`: no exact");
    println!("byte formula for this m). Rounds = critical path in messages.\n");
    let mut mismatches = 0;
    for case in cases() {
        println!("{}  [textbook: {}]", case.name, case.textbook);
        println!(
            "  {:>6} {:>7} {:>7} {:>12} {:>14} {:>14} {:>14} {:>8}",
            "n", "m", "rounds", "messages", "max sent B", "mean sent B", "max recv B", "sim s"
        );
        for &n in &ns {
            if !(case.applies)(n) {
                continue;
            }
            if case.quadratic && n > QUADRATIC_MAX {
                println!(
                    "  {n:>6}  skipped: n(n-1) messages; largest simulated is {QUADRATIC_MAX}"
                );
                continue;
            }
            for m in [Some(8), large_for(&case, n)] {
                let Some(m) = m else {
                    println!("  {n:>6}  large message skipped: state over the memory cap");
                    continue;
                };
                let t = Instant::now();
                let rep = match (case.run)(n, m) {
                    Ok(r) => r,
                    Err(e) => {
                        println!("  {n:>6} {m:>7}  simulation failed: {e}");
                        mismatches += 1;
                        continue;
                    }
                };
                let secs = t.elapsed().as_secs_f64();
                let (got, want) = (Costs::of(&rep), (case.expect)(n, m));
                let exact = (case.exact_bytes)(n, m);
                let bytes_ok = !exact || got == want;
                if got.rounds != want.rounds || got.messages != want.messages || !bytes_ok {
                    mismatches += 1;
                }
                let mean = |c: &Costs| format!("{:.1}", c.total_bytes as f64 / f64::from(n));
                let mean_cell = if !exact {
                    format!("{}/-", mean(&got))
                } else if got.total_bytes == want.total_bytes {
                    mean(&got)
                } else {
                    format!("{}/{}!", mean(&got), mean(&want))
                };
                println!(
                    "  {n:>6} {m:>7} {:>7} {:>12} {:>14} {:>14} {:>14} {secs:>8.2}",
                    cell(got.rounds, want.rounds, true),
                    cell(got.messages, want.messages, true),
                    cell(got.max_sent, want.max_sent, exact),
                    mean_cell,
                    cell(got.max_recv, want.max_recv, exact),
                );
            }
        }
        println!();
    }
    println!("{mismatches} simulated figures differ from their formulas");
}
