//! Data-movement collectives (allgather(v), gather(v), scatter(v), alltoall(v)) under the
//! simulator: every algorithm forced, every rank count 1..=17, block lengths 0, 1, p-1, p+1 and
//! large (uniform, and varied per rank with zeros), 20 delivery orders; outputs against the
//! sequential reference, message and byte counts against each algorithm's formula, rounds under
//! the synchronous model. Then bad arguments and bad messages.

use bytes::Bytes;
use nexar_proto::algo::{allgather, alltoall, ceil_log2, gather, scatter};
use nexar_proto::sim::{self, SimError, SimReport};
use nexar_proto::testkit::{bytes, lengths, rank_counts, seeds};
use nexar_proto::{Collective, Group, Incoming, Outbox, ProtoError, Rank};

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

fn invalid<T>(r: Result<T, ProtoError>) -> bool {
    matches!(r, Err(ProtoError::InvalidArgument(_)))
}

#[test]
fn bad_arguments_are_errors() {
    let g = Group::new(1, 4).unwrap();
    let bb = vec![2usize; 4];
    let ok = vec![0u8; 2];

    // allgather: vector length, overflow, data length, recursive doubling off powers of two.
    assert!(invalid(allgather::machine(g, ok.clone(), vec![2; 3])));
    assert!(invalid(allgather::machine(
        g,
        ok.clone(),
        vec![1, 2, usize::MAX, 0]
    )));
    assert!(invalid(allgather::machine(g, vec![0; 3], bb.clone())));
    for algo in [allgather::Algo::Ring, allgather::Algo::Bruck] {
        assert!(invalid(allgather::machine_with(
            g,
            vec![0; 1],
            bb.clone(),
            algo
        )));
    }
    let g6 = Group::new(1, 6).unwrap();
    let rd = allgather::Algo::RecursiveDoubling;
    assert!(invalid(allgather::machine_with(
        g6,
        ok.clone(),
        vec![2; 6],
        rd
    )));
    assert!(allgather::machine_with(g, ok.clone(), bb.clone(), rd).is_ok());

    // gather: root range, vector length, overflow, data length.
    for algo in [gather::Algo::Linear, gather::Algo::Binomial] {
        assert!(invalid(gather::machine_with(
            g,
            4,
            ok.clone(),
            bb.clone(),
            algo
        )));
        assert!(invalid(gather::machine_with(
            g,
            0,
            ok.clone(),
            vec![2; 5],
            algo
        )));
        let over = vec![usize::MAX, 2, 1, 1];
        assert!(invalid(gather::machine_with(g, 0, ok.clone(), over, algo)));
        assert!(invalid(gather::machine_with(
            g,
            0,
            vec![],
            bb.clone(),
            algo
        )));
    }
    assert!(invalid(gather::machine(g, 9, ok.clone(), bb.clone())));

    // scatter: root range, root needs the whole input, others nothing.
    let root = Group::new(0, 4).unwrap();
    for algo in [scatter::Algo::Linear, scatter::Algo::Binomial] {
        assert!(invalid(scatter::machine_with(
            g,
            4,
            vec![],
            bb.clone(),
            algo
        )));
        assert!(invalid(scatter::machine_with(
            g,
            0,
            ok.clone(),
            bb.clone(),
            algo
        )));
        assert!(invalid(scatter::machine_with(
            root,
            0,
            vec![0; 7],
            bb.clone(),
            algo
        )));
        assert!(invalid(scatter::machine_with(
            root,
            0,
            vec![0; 8],
            vec![2; 3],
            algo
        )));
        let over = vec![usize::MAX, 2, 1, 1];
        assert!(invalid(scatter::machine_with(g, 0, vec![], over, algo)));
        assert!(scatter::machine_with(root, 0, vec![0; 8], bb.clone(), algo).is_ok());
    }
    assert!(invalid(scatter::machine(g, 0, vec![1], bb.clone())));

    // alltoall: lengths, overflow, data length, self block mismatch.
    for algo in [alltoall::Algo::Pairwise, alltoall::Algo::Scattered] {
        let a = |data: usize, s: Vec<usize>, r: Vec<usize>| {
            alltoall::machine_with(g, vec![0; data], s, r, algo)
        };
        assert!(invalid(a(6, vec![2; 3], vec![2; 4])));
        assert!(invalid(a(8, vec![2; 4], vec![2; 5])));
        assert!(invalid(a(8, vec![2; 4], vec![usize::MAX, 2, 2, 2])));
        assert!(invalid(a(7, vec![2; 4], vec![2; 4])));
        assert!(invalid(a(8, vec![2; 4], vec![2, 3, 2, 2])));
        assert!(a(8, vec![2; 4], vec![5, 2, 0, 0]).is_ok());
    }
    assert!(invalid(alltoall::machine(g, vec![], vec![], vec![])));
}

fn msg(from: Rank, step: u32, len: usize) -> Incoming {
    Incoming {
        from,
        step,
        payload: Bytes::from(vec![0u8; len]),
    }
}

/// Feeds a started machine the expected first message `(from, step)` of `len` bytes, broken in
/// every way (wrong length, wrong step, wrong or foreign peer), then intact, then again.
fn probe(
    mut m: Box<dyn Collective>,
    from: Rank,
    step: u32,
    len: usize,
    wrong_peer: Rank,
    ctx: &str,
) {
    let mut out = Outbox::new();
    m.start(&mut out).unwrap();
    let e = m.deliver(msg(from, step, len + 1), &mut out).unwrap_err();
    assert!(matches!(e, ProtoError::LengthMismatch { .. }), "{ctx}: {e}");
    if len > 0 {
        let e = m.deliver(msg(from, step, len - 1), &mut out).unwrap_err();
        assert!(matches!(e, ProtoError::LengthMismatch { .. }), "{ctx}: {e}");
    }
    for (f, s) in [(from, step + 100), (wrong_peer, step), (99, step)] {
        let e = m.deliver(msg(f, s, len), &mut out).unwrap_err();
        assert!(
            matches!(e, ProtoError::UnexpectedMessage { .. }),
            "{ctx} ({f}, {s}): {e}"
        );
    }
    m.deliver(msg(from, step, len), &mut out).unwrap();
    let e = m.deliver(msg(from, step, len), &mut out).unwrap_err();
    assert!(
        matches!(e, ProtoError::DuplicateMessage { .. }),
        "{ctx}: {e}"
    );
}

/// A started machine that still waits for input refuses to finish.
fn unfinished(mut m: Box<dyn Collective>, ctx: &str) {
    m.start(&mut Outbox::new()).unwrap();
    assert!(!m.is_done(), "{ctx}");
    assert_eq!(m.finish().unwrap_err(), ProtoError::NotFinished, "{ctx}");
}

#[test]
fn bad_messages_are_errors() {
    let n = 4;
    let bb = vec![3usize, 5, 7, 2];
    let g1 = Group::new(1, n).unwrap();
    let g0 = Group::new(0, n).unwrap();

    use allgather::Algo as Ag;
    let ag = |algo| allgather::machine_with(g1, vec![0; 5], bb.clone(), algo).unwrap();
    // Ring: block 0 from the left neighbour 0 at step 0.
    probe(ag(Ag::Ring), 0, 0, 3, 2, "ring");
    // Recursive doubling: partner 0 at round 0.
    probe(ag(Ag::RecursiveDoubling), 0, 0, 3, 3, "recursive doubling");
    // Bruck: rank 2 at round 0 (we send to rank 0).
    probe(ag(Ag::Bruck), 2, 0, 7, 0, "bruck");
    for algo in [Ag::Ring, Ag::RecursiveDoubling, Ag::Bruck] {
        unfinished(ag(algo), &format!("allgather {algo:?}"));
    }

    // Gather at root 0: rank 1 sends its block at step 0 in both algorithms.
    for algo in [gather::Algo::Linear, gather::Algo::Binomial] {
        let m = || gather::machine_with(g0, 0, vec![0; 3], bb.clone(), algo).unwrap();
        probe(m(), 1, 0, 5, 0, &format!("gather {algo:?}"));
        unfinished(m(), &format!("gather {algo:?}"));
        // A non-root never receives.
        let mut leaf = gather::machine_with(g1, 0, vec![0; 5], bb.clone(), algo).unwrap();
        leaf.start(&mut Outbox::new()).unwrap();
        let e = leaf.deliver(msg(0, 0, 3), &mut Outbox::new()).unwrap_err();
        assert!(matches!(e, ProtoError::UnexpectedMessage { .. }), "{e}");
    }

    // Scatter from root 0 to rank 1: linear at step 0, binomial at step ceil(log2 4) - 1 = 1.
    for (algo, step) in [(scatter::Algo::Linear, 0), (scatter::Algo::Binomial, 1)] {
        let m = || scatter::machine_with(g1, 0, vec![], bb.clone(), algo).unwrap();
        probe(m(), 0, step, 5, 2, &format!("scatter {algo:?}"));
        unfinished(m(), &format!("scatter {algo:?}"));
    }

    // Alltoall at rank 1: rank 0's block arrives at step 0; rank 2's at step 2.
    for algo in [alltoall::Algo::Pairwise, alltoall::Algo::Scattered] {
        // Rank 1 sends bb (17 bytes, 5 to itself) and receives these.
        let recv = vec![4usize, 5, 6, 1];
        let m = || alltoall::machine_with(g1, vec![0; 17], bb.clone(), recv.clone(), algo).unwrap();
        probe(m(), 0, 0, 4, 2, &format!("alltoall {algo:?}"));
        probe(m(), 2, 2, 6, 1, &format!("alltoall {algo:?} self"));
        unfinished(m(), &format!("alltoall {algo:?}"));
    }
}

#[test]
fn disagreeing_ranks_fail_instead_of_hanging() {
    let n = 5;
    // allgather: rank 0 believes its block is 3 bytes, everyone else 2.
    for algo in [allgather::Algo::Ring, allgather::Algo::Bruck] {
        let res = sim::run(n, 4, |r| {
            let bb = if r == 0 {
                vec![3, 2, 2, 2, 2]
            } else {
                vec![2; 5]
            };
            let data = vec![0u8; bb[r as usize]];
            allgather::machine_with(Group::new(r, n)?, data, bb, algo)
        });
        assert!(
            matches!(
                res,
                Err(SimError::Machine {
                    err: ProtoError::LengthMismatch { .. },
                    ..
                })
            ),
            "{algo:?}: {res:?}"
        );
    }
    // alltoall: rank 0 sends rank 1 nothing, but rank 1 expects 2 bytes (an empty block is
    // still a message, so this is a length error, not a hang).
    let res = sim::run(n, 4, |r| {
        let mut send = vec![2usize; 5];
        if r == 0 {
            send[1] = 0;
        }
        let data = vec![0u8; send.iter().sum()];
        alltoall::machine_with(
            Group::new(r, n)?,
            data,
            send,
            vec![2; 5],
            alltoall::Algo::Pairwise,
        )
    });
    assert!(
        matches!(
            res,
            Err(SimError::Machine {
                rank: 1,
                err: ProtoError::LengthMismatch { .. },
            })
        ),
        "{res:?}"
    );
}
