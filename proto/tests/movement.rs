//! Data-movement collectives (allgather(v), gather(v), scatter(v), alltoall(v)) under the
//! simulator: every algorithm forced, every rank count 1..=17, block lengths 0, 1, p-1, p+1 and
//! large (uniform, and varied per rank with zeros), 20 delivery orders; outputs against the
//! sequential reference, message and byte counts against each algorithm's formula, rounds under
//! the synchronous model. The error paths are in movement_errors.rs.

use nexar_proto::algo::{allgather, alltoall, ceil_log2, gather, scatter};
use nexar_proto::sim::{self, SimReport};
use nexar_proto::testkit::{bytes, lengths, rank_counts, seeds};
use nexar_proto::{Collective, Group, ProtoError, Rank};

/// Below this total the default selections pick the logarithmic algorithms (mirrors the
/// private threshold in the algorithm modules).
const SMALL: usize = 32 * 1024;

fn floor_log2(n: u32) -> u32 {
    31 - n.leading_zeros()
}

/// Per-rank block lengths around `len`: all equal, and varied with zeros.
fn patterns(n: u32, len: usize) -> Vec<Vec<usize>> {
    let uniform = vec![len; n as usize];
    let varied = (0..n as usize)
        .map(|i| match i % 4 {
            0 => 0,
            1 => len,
            2 => len / 2 + 1,
            _ => len + i,
        })
        .collect();
    vec![uniform, varied]
}

/// Roots tested: all of them for small groups, else the two ends and the middle.
fn roots(n: u32) -> Vec<Rank> {
    if n <= 8 {
        (0..n).collect()
    } else {
        vec![0, n / 2, n - 1]
    }
}

fn blocks_for(bb: &[usize], salt: u64) -> Vec<Vec<u8>> {
    bb.iter()
        .enumerate()
        .map(|(r, &l)| bytes(r as u32, l, salt))
        .collect()
}

/// Payload bytes a binomial gather/scatter rooted at `root` moves: relative rank `v > 0` carries
/// its subtree, relative ranks `v .. min(v + lowbit(v), n)`.
fn binomial_bytes(bb: &[usize], root: Rank) -> usize {
    let n = bb.len();
    (1..n)
        .map(|v| {
            let end = n.min(v + (1 << v.trailing_zeros()));
            (v..end)
                .map(|rel| bb[(rel + root as usize) % n])
                .sum::<usize>()
        })
        .sum()
}

fn run_all<F>(n: u32, mut make: F, ctx: &str) -> Vec<SimReport>
where
    F: FnMut(Rank) -> Result<Box<dyn Collective>, ProtoError>,
{
    seeds()
        .map(|seed| {
            sim::run(n, seed, &mut make).unwrap_or_else(|e| panic!("{ctx} seed={seed}: {e}"))
        })
        .collect()
}

fn check_outputs(rep: &SimReport, expected: &[Vec<u8>], ctx: &str) {
    for (r, (got, want)) in rep.outputs.iter().zip(expected).enumerate() {
        assert!(got == want, "{ctx}: rank {r} output differs");
    }
}

#[test]
fn allgather_every_algorithm() {
    use allgather::Algo;
    for n in rank_counts() {
        let nn = n as usize;
        for len in lengths(n) {
            for bb in patterns(n, len) {
                let blocks = blocks_for(&bb, len as u64);
                let total: usize = bb.iter().sum();
                let expected = vec![blocks.concat(); nn];
                let mut algos = vec![
                    (Algo::Ring, nn * (nn - 1), n.saturating_sub(1)),
                    (Algo::Bruck, nn * ceil_log2(n) as usize, ceil_log2(n)),
                ];
                if n.is_power_of_two() {
                    algos.push((
                        Algo::RecursiveDoubling,
                        nn * ceil_log2(n) as usize,
                        ceil_log2(n),
                    ));
                }
                for (algo, msgs, rounds) in algos {
                    let ctx = format!("allgather {algo:?} n={n} bb={bb:?}");
                    let make = |r: Rank| {
                        let g = Group::new(r, n)?;
                        allgather::machine_with(g, blocks[r as usize].clone(), bb.clone(), algo)
                    };
                    for rep in run_all(n, make, &ctx) {
                        check_outputs(&rep, &expected, &ctx);
                        assert_eq!(rep.messages, msgs, "{ctx}");
                        assert_eq!(rep.bytes, (nn - 1) * total, "{ctx}");
                    }
                    let rep = sim::run_synchronous(n, make).unwrap();
                    check_outputs(&rep, &expected, &ctx);
                    assert_eq!(rep.rounds, rounds, "{ctx}");
                }
                // Default selection: logarithmic below 32 KiB, ring above.
                let ctx = format!("allgather default n={n} bb={bb:?}");
                let rep = sim::run(n, 1, |r| {
                    allgather::machine(Group::new(r, n)?, blocks[r as usize].clone(), bb.clone())
                })
                .unwrap_or_else(|e| panic!("{ctx}: {e}"));
                check_outputs(&rep, &expected, &ctx);
                let msgs = if total < SMALL {
                    nn * ceil_log2(n) as usize
                } else {
                    nn * (nn - 1)
                };
                assert_eq!(rep.messages, msgs, "{ctx}");
            }
        }
    }
}

#[test]
fn gather_every_algorithm_and_root() {
    use gather::Algo;
    for n in rank_counts() {
        let nn = n as usize;
        for len in lengths(n) {
            for bb in patterns(n, len) {
                let blocks = blocks_for(&bb, 7 + len as u64);
                let total: usize = bb.iter().sum();
                for root in roots(n) {
                    let mut expected = vec![Vec::new(); nn];
                    expected[root as usize] = blocks.concat();
                    let algos = [
                        (Algo::Linear, total - bb[root as usize], u32::from(n > 1)),
                        (Algo::Binomial, binomial_bytes(&bb, root), floor_log2(n)),
                    ];
                    for (algo, moved, rounds) in algos {
                        let ctx = format!("gather {algo:?} n={n} root={root} bb={bb:?}");
                        let make = |r: Rank| {
                            let g = Group::new(r, n)?;
                            let data = blocks[r as usize].clone();
                            gather::machine_with(g, root, data, bb.clone(), algo)
                        };
                        for rep in run_all(n, make, &ctx) {
                            check_outputs(&rep, &expected, &ctx);
                            assert_eq!(rep.messages, nn - 1, "{ctx}");
                            assert_eq!(rep.bytes, moved, "{ctx}");
                            for (r, &s) in rep.sent_per_rank.iter().enumerate() {
                                assert_eq!(s, usize::from(r != root as usize), "{ctx} rank {r}");
                            }
                        }
                        let rep = sim::run_synchronous(n, make).unwrap();
                        check_outputs(&rep, &expected, &ctx);
                        assert_eq!(rep.rounds, rounds, "{ctx}");
                    }
                    let ctx = format!("gather default n={n} root={root} bb={bb:?}");
                    let rep = sim::run(n, 3, |r| {
                        let g = Group::new(r, n)?;
                        gather::machine(g, root, blocks[r as usize].clone(), bb.clone())
                    })
                    .unwrap_or_else(|e| panic!("{ctx}: {e}"));
                    check_outputs(&rep, &expected, &ctx);
                    let moved = if total < SMALL {
                        binomial_bytes(&bb, root)
                    } else {
                        total - bb[root as usize]
                    };
                    assert_eq!(rep.bytes, moved, "{ctx}");
                }
            }
        }
    }
}

#[test]
fn scatter_every_algorithm_and_root() {
    use scatter::Algo;
    for n in rank_counts() {
        let nn = n as usize;
        for len in lengths(n) {
            for bb in patterns(n, len) {
                let blocks = blocks_for(&bb, 11 + len as u64);
                let all = blocks.concat();
                let total = all.len();
                for root in roots(n) {
                    let input = |r: Rank| if r == root { all.clone() } else { Vec::new() };
                    let algos = [
                        (Algo::Linear, total - bb[root as usize], 1, nn - 1),
                        (
                            Algo::Binomial,
                            binomial_bytes(&bb, root),
                            floor_log2(n),
                            ceil_log2(n) as usize,
                        ),
                    ];
                    for (algo, moved, rounds, root_sends) in algos {
                        let rounds = if n == 1 { 0 } else { rounds };
                        let ctx = format!("scatter {algo:?} n={n} root={root} bb={bb:?}");
                        let make = |r: Rank| {
                            let g = Group::new(r, n)?;
                            scatter::machine_with(g, root, input(r), bb.clone(), algo)
                        };
                        for rep in run_all(n, make, &ctx) {
                            check_outputs(&rep, &blocks, &ctx);
                            assert_eq!(rep.messages, nn - 1, "{ctx}");
                            assert_eq!(rep.bytes, moved, "{ctx}");
                            assert_eq!(rep.sent_per_rank[root as usize], root_sends, "{ctx}");
                        }
                        let rep = sim::run_synchronous(n, make).unwrap();
                        check_outputs(&rep, &blocks, &ctx);
                        assert_eq!(rep.rounds, rounds, "{ctx}");
                    }
                    let ctx = format!("scatter default n={n} root={root} bb={bb:?}");
                    let rep = sim::run(n, 5, |r| {
                        scatter::machine(Group::new(r, n)?, root, input(r), bb.clone())
                    })
                    .unwrap_or_else(|e| panic!("{ctx}: {e}"));
                    check_outputs(&rep, &blocks, &ctx);
                    let moved = if total < SMALL {
                        binomial_bytes(&bb, root)
                    } else {
                        total - bb[root as usize]
                    };
                    assert_eq!(rep.bytes, moved, "{ctx}");
                }
            }
        }
    }
}

/// Send matrices `s[i][j]` (bytes rank `i` sends rank `j`) around `len`: uniform, and varied
/// with zeros (including some diagonal zeros).
fn matrices(n: u32, len: usize) -> Vec<Vec<Vec<usize>>> {
    let n = n as usize;
    let uniform = vec![vec![len; n]; n];
    let varied = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| match (i + 2 * j) % 3 {
                    0 => 0,
                    1 => len,
                    _ => len / 2 + (i * j) % 3,
                })
                .collect()
        })
        .collect();
    vec![uniform, varied]
}

/// How each rank of an alltoall run picks its schedule.
#[derive(Debug, Clone, Copy)]
enum Mix {
    All(alltoall::Algo),
    /// Even ranks pairwise, odd ranks scattered: the schedules must interoperate.
    Alternating,
}

#[test]
fn alltoall_every_algorithm() {
    use alltoall::Algo;
    for n in rank_counts() {
        let nn = n as usize;
        for len in lengths(n) {
            for s in matrices(n, len) {
                // blocks[i][j]: what rank i sends rank j.
                let blocks: Vec<Vec<Vec<u8>>> = (0..nn)
                    .map(|i| {
                        (0..nn)
                            .map(|j| bytes(i as u32, s[i][j], (len * nn + j) as u64))
                            .collect()
                    })
                    .collect();
                let data: Vec<Vec<u8>> = blocks.iter().map(|b| b.concat()).collect();
                let expected: Vec<Vec<u8>> = (0..nn)
                    .map(|j| (0..nn).flat_map(|i| blocks[i][j].clone()).collect())
                    .collect();
                let recv = |j: usize| (0..nn).map(|i| s[i][j]).collect::<Vec<usize>>();
                let moved: usize = (0..nn)
                    .flat_map(|i| (0..nn).filter(move |&j| j != i).map(move |j| (i, j)))
                    .map(|(i, j)| s[i][j])
                    .sum();
                for mix in [
                    Mix::All(Algo::Pairwise),
                    Mix::All(Algo::Scattered),
                    Mix::Alternating,
                ] {
                    let ctx = format!("alltoall {mix:?} n={n} len={len} s={s:?}");
                    let make = |r: Rank| {
                        let algo = match mix {
                            Mix::All(a) => a,
                            Mix::Alternating if r.is_multiple_of(2) => Algo::Pairwise,
                            Mix::Alternating => Algo::Scattered,
                        };
                        let ri = r as usize;
                        let g = Group::new(r, n)?;
                        alltoall::machine_with(g, data[ri].clone(), s[ri].clone(), recv(ri), algo)
                    };
                    for rep in run_all(n, make, &ctx) {
                        check_outputs(&rep, &expected, &ctx);
                        assert_eq!(rep.messages, nn * (nn - 1), "{ctx}");
                        assert_eq!(rep.bytes, moved, "{ctx}");
                    }
                    let rep = sim::run_synchronous(n, make).unwrap();
                    check_outputs(&rep, &expected, &ctx);
                    let steps = n.saturating_sub(1);
                    match mix {
                        Mix::All(Algo::Pairwise) => assert_eq!(rep.rounds, steps, "{ctx}"),
                        Mix::All(Algo::Scattered) => assert_eq!(rep.rounds, steps.min(1), "{ctx}"),
                        Mix::Alternating => assert!(rep.rounds <= steps, "{ctx}"),
                    }
                }
                let ctx = format!("alltoall default n={n} len={len}");
                let rep = sim::run(n, 9, |r| {
                    let ri = r as usize;
                    alltoall::machine(Group::new(r, n)?, data[ri].clone(), s[ri].clone(), recv(ri))
                })
                .unwrap_or_else(|e| panic!("{ctx}: {e}"));
                check_outputs(&rep, &expected, &ctx);
                assert_eq!(rep.messages, nn * (nn - 1), "{ctx}");
            }
        }
    }
}
