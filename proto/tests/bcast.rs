//! bcast: every algorithm, rank count, length, root and delivery order, against the root's bytes,
//! with message counts, bytes and rounds checked against each algorithm's formula.

use nexar_proto::algo::bcast;
use nexar_proto::algo::ceil_log2;
use nexar_proto::partition::block;
use nexar_proto::select::reductions::BcastAlgo;
use nexar_proto::sim::{self, SimReport};
use nexar_proto::{Group, ProtoError, Rank, testkit};

fn roots(n: u32) -> Vec<Rank> {
    let mut v = vec![0, n / 2, n - 1];
    v.dedup();
    v
}

fn inputs(n: u32, len: usize, salt: u64) -> Vec<Vec<u8>> {
    (0..n).map(|r| testkit::bytes(r, len, salt)).collect()
}

fn run(algo: BcastAlgo, n: u32, root: Rank, data: &[Vec<u8>], seed: Option<u64>) -> SimReport {
    let make =
        |r: Rank| bcast::machine_with(Group::new(r, n)?, root, data[r as usize].clone(), algo);
    match seed {
        Some(seed) => sim::run(n, seed, make),
        None => sim::run_synchronous(n, make),
    }
    .unwrap_or_else(|e| panic!("{algo:?} n={n} root={root} seed={seed:?}: {e}"))
}

/// `max { popcount(v) : v < n }`: the binomial tree's depth.
fn binomial_rounds(n: u32) -> u32 {
    (0..n).map(u32::count_ones).max().unwrap_or(0)
}

/// Synchronous depth of the scatter + chain allgather: the chain message of relative rank `v`
/// at step `s` leaves at depth `1 + max(popcount(v), depth of v - 1's step s - 1)`; the root
/// sends everything at depth 1.
fn scatter_allgather_rounds(n: u32) -> u32 {
    let mut rounds = binomial_rounds(n);
    let mut prev = vec![1u32; n as usize]; // depths of the root's chain messages, by step
    for v in 1..n.saturating_sub(1) {
        let mut cur = vec![0; n as usize];
        let mut seen = v.count_ones();
        for s in 0..(n - 1) as usize {
            if s > 0 {
                seen = seen.max(prev[s - 1]);
            }
            cur[s] = 1 + seen;
        }
        prev = cur;
    }
    if n > 1 {
        rounds = rounds.max(prev[..(n - 1) as usize].iter().copied().max().unwrap_or(0));
    }
    rounds
}

/// Payload bytes of the scatter + chain allgather for `m` bytes on `n` ranks.
fn scatter_allgather_bytes(n: u32, m: usize) -> usize {
    let n = n as usize;
    let blocks = |lo: usize, hi: usize| block(m, n, hi - 1).end - block(m, n, lo).start;
    let scatter: usize = (1..n)
        .map(|v| blocks(v, (v + (1 << v.trailing_zeros())).min(n)))
        .sum();
    // Relative rank v < n - 1 sends every block except block v + 1.
    let chain: usize = (0..n.saturating_sub(1))
        .map(|v| m - block(m, n, v + 1).len())
        .sum();
    scatter + chain
}

#[test]
fn every_rank_gets_the_roots_bytes() {
    for n in testkit::rank_counts() {
        let mut lens = testkit::lengths(n);
        lens.push(3 * n as usize + 1);
        for &len in &lens {
            for root in roots(n) {
                let data = inputs(n, len, len as u64);
                for algo in BcastAlgo::ALL {
                    for seed in testkit::seeds() {
                        let rep = run(algo, n, root, &data, Some(seed));
                        for (r, out) in rep.outputs.iter().enumerate() {
                            assert_eq!(out, &data[root as usize], "{algo:?} n={n} r={r}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn message_counts_bytes_and_rounds_match_formulas() {
    for n in testkit::rank_counts() {
        let nn = n as usize;
        for len in [0, 1, nn + 1, 100 * nn + 7] {
            for root in roots(n) {
                let data = inputs(n, len, 7);
                let rep = run(BcastAlgo::Binomial, n, root, &data, None);
                assert_eq!(rep.messages, nn - 1, "binomial n={n}");
                assert_eq!(rep.bytes, (nn - 1) * len, "binomial n={n}");
                assert_eq!(rep.rounds, binomial_rounds(n), "binomial n={n}");
                assert!(rep.rounds <= ceil_log2(n));

                let rep = run(BcastAlgo::ScatterAllgather, n, root, &data, None);
                assert_eq!(rep.messages, nn * (nn - 1), "scatter-allgather n={n}");
                assert_eq!(
                    rep.bytes,
                    scatter_allgather_bytes(n, len),
                    "n={n} len={len}"
                );
                assert_eq!(rep.rounds, scatter_allgather_rounds(n), "n={n}");
                // The root sends everything once; nobody sends more than about twice the vector.
                assert!(rep.bytes_per_rank.iter().all(|&b| b <= 2 * len));
            }
        }
    }
}

#[test]
fn selection_entry_point_broadcasts() {
    // Large enough for the scatter-allgather at 8 and more ranks.
    let len = 70_000;
    for n in [3, 8, 9] {
        let data = inputs(n, len, 1);
        let rep = sim::run(n, 3, |r| {
            bcast::machine(Group::new(r, n)?, n - 1, data[r as usize].clone())
        })
        .unwrap();
        assert!(rep.outputs.iter().all(|o| o == &data[n as usize - 1]));
    }
}

#[test]
fn bad_arguments_are_rejected() {
    for algo in BcastAlgo::ALL {
        let err = bcast::machine_with(Group::new(0, 4).unwrap(), 4, vec![1; 8], algo).err();
        assert!(
            matches!(err, Some(ProtoError::InvalidArgument(_))),
            "{algo:?}"
        );
        let bad = Group { rank: 5, size: 4 };
        let err = bcast::machine_with(bad, 0, vec![1; 8], algo).err();
        assert!(
            matches!(err, Some(ProtoError::InvalidArgument(_))),
            "{algo:?}"
        );
    }
}

#[test]
fn mismatched_lengths_fail_instead_of_hanging() {
    for algo in BcastAlgo::ALL {
        for n in [2, 5, 8] {
            let err = sim::run(n, 0, |r| {
                let len = if r == n - 1 { 40 } else { 64 };
                bcast::machine_with(Group::new(r, n)?, 0, vec![0; len], algo)
            })
            .unwrap_err();
            assert!(
                err.to_string().contains("bytes, expected"),
                "{algo:?} n={n}: {err}"
            );
        }
    }
}
