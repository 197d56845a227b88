//! Protocols under injected faults ([`sim::faults`]): the agreement machine keeps its
//! guarantees through crashes and stalls, collectives that cannot survive a crash fail naming
//! it (never a hang, never a wrong answer), and a lost message between live ranks (outside the
//! engine's model: its links are reliable) shows up as a reported hang.
//!
//! The agreement guarantee checked, for every run with `dead` ranks failed before the call
//! (every member is told) and `crashed` ranks crashing at random steps (each one's messages in
//! flight lost or delivered by a coin), every live member eventually told of each:
//! 1. every survivor finishes (no survivor waits or fails; nothing is cut short);
//! 2. every survivor returns the same decision (value, failed set, unacknowledged);
//! 3. the failed set holds every dead rank, every crashed rank none of whose messages was ever
//!    delivered, and no survivor;
//! 4. the value is the AND of the flags of every rank outside the failed set and of some
//!    crashed ranks inside it (flags are `!(1 << rank)`, so the value names the flags it ANDed);
//! 5. `unacknowledged` is true exactly when some rank of the failed set is missing from some
//!    contributor's acknowledged list (every rank acknowledges the dead ranks; on odd seeds one
//!    survivor acknowledges nothing).
//!
//! Without failures the decision is exact: the AND of every flag, nothing failed. Guarantee 1
//! needs rule 5 of [`nexar_proto::fault::agree`], which the engine's protocol lacked before it
//! ran this machine (see `a_member_holding_an_old_decision_resends_it_when_it_becomes_the_lowest`,
//! here and, over in-process engines, in the engine's `src/fault/agree.rs`).

use nexar_proto::algo::{allreduce, bcast};
use nexar_proto::fault::agree::{Agree, Agreement, Ballot};
use nexar_proto::select::reductions::{AllreduceAlgo, BcastAlgo};
use nexar_proto::sim::SimRng;
use nexar_proto::sim::faults::{Failure, Fault, FaultMix, FaultReport, Outcome, run_with_faults};
use nexar_proto::{Collective, Datatype, Group, ProtoError, Rank, ReduceOp, testkit};

/// Seeds per rank count for the randomized fault runs.
const SEEDS: u64 = 400;

fn group(r: Rank, n: u32) -> Group {
    Group::new(r, n).unwrap()
}

/// The ranks a plan kills: (dead before the call, crashed during it).
fn killed(plan: &[Fault]) -> (Vec<Rank>, Vec<Rank>) {
    let mut dead = Vec::new();
    let mut crashed = Vec::new();
    for f in plan {
        match *f {
            Fault::Dead { rank } => dead.push(rank),
            Fault::Crash { rank, .. } => crashed.push(rank),
            _ => {}
        }
    }
    dead.sort_unstable();
    crashed.sort_unstable();
    (dead, crashed)
}

/// One agreement run: rank `r` passes `flags[r]`, knows `dead` failed, acknowledges `acked[r]`.
fn agree(
    n: u32,
    seed: u64,
    plan: &[Fault],
    flags: &[u32],
    acked: &[Vec<Rank>],
) -> (FaultReport, Vec<Rank>) {
    let (dead, _) = killed(plan);
    let make = |r: Rank| -> Result<Box<dyn Collective>, ProtoError> {
        // A dead rank's machine is built but never started.
        let failed: Vec<Rank> = dead.iter().copied().filter(|&d| d != r).collect();
        Ok(Box::new(Agree::new(
            group(r, n),
            flags[r as usize],
            &failed,
            &acked[r as usize],
            Ballot::default(),
        )?))
    };
    (run_with_faults(n, seed, plan, make).unwrap(), dead)
}

fn decision(n: u32, o: &Outcome) -> Option<Agreement> {
    match o {
        Outcome::Finished(b) => Some(Agreement::decode(b, n).expect("a well-formed decision")),
        _ => None,
    }
}

#[test]
fn without_failures_every_rank_gets_the_and_of_every_flag() {
    for n in testkit::rank_counts() {
        for seed in 0..SEEDS {
            let mut rng = SimRng::new(seed * 1000 + n as u64);
            // Dense flags, so the AND keeps some bits even at 17 ranks.
            let flags: Vec<u32> = (0..n)
                .map(|_| (rng.next_u64() | rng.next_u64() | rng.next_u64()) as u32)
                .collect();
            let plan = if seed % 2 == 1 {
                FaultMix {
                    stalls: 3,
                    horizon: 2 * (n * n) as u64 + 4,
                    max_stall: 50,
                    ..FaultMix::default()
                }
                .plan(n, seed)
            } else {
                Vec::new()
            };
            let (rep, _) = agree(n, seed, &plan, &flags, &vec![Vec::new(); n as usize]);
            let want = Agreement {
                value: flags.iter().fold(u32::MAX, |a, f| a & f),
                failed: Vec::new(),
                unacknowledged: false,
            };
            for r in 0..n {
                assert_eq!(
                    decision(n, &rep.outcomes[r as usize]),
                    Some(want.clone()),
                    "n={n} seed={seed} rank {r}: {:?}",
                    rep.outcomes[r as usize]
                );
            }
            // Contributions and the decision flood, no query: rank 0 lives.
            let n = n as usize;
            assert_eq!(rep.sent, 2 * n * (n - 1), "n={n} seed={seed}");
            assert!(rep.strays.is_empty() && !rep.exhausted);
        }
    }
}

/// Checks guarantees 1-5 (module doc) on one run; returns whether rank 0 crashed before every
/// survivor finished and the decision names a failed rank (the interesting runs).
fn check_agreement(
    n: u32,
    seed: u64,
    plan: &[Fault],
    rep: &FaultReport,
    acked: &[Vec<Rank>],
) -> bool {
    let (dead, crashed) = killed(plan);
    let ctx = format!("n={n} seed={seed} plan={plan:?}");
    assert!(!rep.exhausted, "{ctx}");
    assert!(rep.strays.is_empty(), "{ctx}");
    let survivors = rep.survivors();
    let mut killed_all = dead.clone();
    killed_all.extend(&crashed);
    assert_eq!(survivors.len() + killed_all.len(), n as usize, "{ctx}");
    // 1 and 2.
    let decisions: Vec<Agreement> = survivors
        .iter()
        .map(|&r| {
            decision(n, &rep.outcomes[r as usize])
                .unwrap_or_else(|| panic!("{ctx}: survivor {r}: {:?}", rep.outcomes[r as usize]))
        })
        .collect();
    let d = &decisions[0];
    for (i, other) in decisions.iter().enumerate() {
        assert_eq!(other, d, "{ctx}: survivor {} disagrees", survivors[i]);
    }
    // 3.
    for r in &dead {
        assert!(d.failed.contains(r), "{ctx}: dead {r} missing from {d:?}");
    }
    for r in &crashed {
        if rep.delivered_from[*r as usize] == 0 {
            assert!(d.failed.contains(r), "{ctx}: silent {r} missing from {d:?}");
        }
    }
    for r in &d.failed {
        assert!(killed_all.contains(r), "{ctx}: live {r} in {d:?}");
    }
    // 4: flags are !(1 << rank); the cleared bits name the flags ANDed.
    let anded: Vec<Rank> = (0..n).filter(|&r| d.value & (1 << r) == 0).collect();
    assert_eq!(d.value | ((1u64 << n) - 1) as u32, u32::MAX, "{ctx}");
    for r in 0..n {
        if !d.failed.contains(&r) {
            assert!(anded.contains(&r), "{ctx}: flag of {r} missing from {d:?}");
        }
    }
    for r in &anded {
        assert!(
            !d.failed.contains(r) || crashed.contains(r),
            "{ctx}: flag of dead {r} in {d:?}"
        );
    }
    // 5: every survivor contributed; a crashed contributor acknowledges what survivors with a
    // full list do, so only the survivors' lists decide.
    let unack = d
        .failed
        .iter()
        .any(|f| survivors.iter().any(|&s| !acked[s as usize].contains(f)));
    assert_eq!(d.unacknowledged, unack, "{ctx}: {d:?}");
    let first_crash = plan.iter().find_map(|f| match *f {
        Fault::Crash { rank: 0, step } => Some(step),
        _ => None,
    });
    matches!(first_crash, Some(s) if s < rep.steps) && !d.failed.is_empty()
}

/// Acknowledged lists: every rank acknowledges the dead; on odd seeds one survivor none.
fn acked_lists(n: u32, seed: u64, plan: &[Fault]) -> Vec<Vec<Rank>> {
    let (dead, crashed) = killed(plan);
    let mut acked = vec![dead.clone(); n as usize];
    if seed % 2 == 1
        && let Some(s) = (0..n).find(|r| !dead.contains(r) && !crashed.contains(r))
    {
        acked[s as usize].clear();
    }
    acked
}

/// Runs agreements under `mix` for every rank count and [`SEEDS`] seeds; returns how many runs
/// lost rank 0 mid-way with a failure decided (successor coordinators at work).
fn agreement_under(mix: impl Fn(u32, u64) -> Vec<Fault>) -> usize {
    let mut interesting = 0;
    for n in testkit::rank_counts() {
        let flags: Vec<u32> = (0..n).map(|r| !(1u32 << r)).collect();
        for seed in 0..SEEDS {
            let plan = mix(n, seed);
            let acked = acked_lists(n, seed, &plan);
            let (rep, _) = agree(n, seed, &plan, &flags, &acked);
            interesting += usize::from(check_agreement(n, seed, &plan, &rep, &acked));
        }
    }
    interesting
}

#[test]
fn with_crashes_every_survivor_returns_the_same_decision() {
    let interesting = agreement_under(|n, seed| {
        FaultMix {
            dead: (seed % 3 == 0) as u32,
            crashes: 1 + (seed % 3) as u32,
            horizon: 2 * (n * n) as u64 + 8,
            ..FaultMix::default()
        }
        .plan(n, seed)
    });
    assert!(
        interesting > 200,
        "only {interesting} runs lost rank 0 mid-way"
    );
}

#[test]
fn with_successive_coordinators_crashing_every_survivor_returns_the_same_decision() {
    // Ranks 0, 1 and 2 (each the next coordinator) crash at random steps, so decisions and
    // queries of several ballots are in flight at once.
    let interesting = agreement_under(|n, seed| {
        let mut rng = SimRng::new(seed ^ 0xC0);
        let horizon = 2 * (n * n) as usize + 8;
        let mut plan: Vec<Fault> = (0..3.min(n.saturating_sub(1)))
            .map(|rank| Fault::Crash {
                rank,
                step: rng.below(horizon) as u64,
            })
            .collect();
        if seed % 4 == 0 {
            plan.push(Fault::Stall {
                rank: rng.below(n as usize) as Rank,
                step: rng.below(horizon) as u64,
                steps: 40,
            });
        }
        plan
    });
    assert!(
        interesting > 1000,
        "only {interesting} runs lost rank 0 mid-way"
    );
}

#[test]
fn with_crashes_and_stalls_every_survivor_returns_the_same_decision() {
    agreement_under(|n, seed| {
        FaultMix {
            dead: (seed % 4 == 1) as u32,
            crashes: 1 + (seed % 2) as u32,
            stalls: 4,
            horizon: 2 * (n * n) as u64 + 8,
            max_stall: 4 * n as u64,
            ..FaultMix::default()
        }
        .plan(n, seed)
    });
}

#[test]
fn a_member_holding_an_old_decision_resends_it_when_it_becomes_the_lowest() {
    // Found by the simulator: rank 0 decides and dies with its decision half sent; ranks 3, 4,
    // 5, 7, 9 and 10 adopt it; rank 2, the next coordinator, queries (6 and 8 promise ballot 2,
    // so they refuse ballot 0 from then on) and dies before deciding. Rank 3 is now the lowest
    // member but already done: under the engine's rules (1-4) ranks 6 and 8 wait forever. Rule
    // 5 has rank 3 send its decision again under ballot 3.
    let n = 11;
    let plan = [
        Fault::Crash { rank: 0, step: 100 },
        Fault::Crash { rank: 1, step: 36 },
        Fault::Crash { rank: 2, step: 182 },
    ];
    let flags: Vec<u32> = (0..n).map(|r| !(1u32 << r)).collect();
    let acked = vec![Vec::new(); n as usize];
    let (rep, _) = agree(n, 107, &plan, &flags, &acked);
    assert!(rep.waiting().is_empty(), "{:?}", rep.outcomes);
    check_agreement(n, 107, &plan, &rep, &acked);
}

#[test]
fn a_lost_message_between_live_ranks_is_a_reported_hang_never_a_disagreement() {
    // Rank 1's contribution to rank 0, the coordinator, is message n - 1 (rank 0 starts first
    // and sends n - 1): without it rank 0 never decides and nobody else may.
    for n in 2..=17u32 {
        let flags = vec![u32::MAX; n as usize];
        let plan = [Fault::Drop {
            message: (n - 1) as u64,
        }];
        let (rep, _) = agree(n, 7, &plan, &flags, &vec![Vec::new(); n as usize]);
        assert_eq!(rep.waiting(), (0..n).collect::<Vec<_>>(), "n={n}");
        assert_eq!(rep.lost, 1);
        assert!(!rep.exhausted);
    }
    // Random drops: whoever finishes agrees with everyone else who does; the rest wait.
    let mut hangs = 0;
    for n in testkit::rank_counts() {
        let flags: Vec<u32> = (0..n).map(|r| !(1u32 << r)).collect();
        for seed in 0..SEEDS {
            let plan = FaultMix {
                drops: 1 + (seed % 3) as u32,
                horizon: 2 * (n * n) as u64,
                ..FaultMix::default()
            }
            .plan(n, seed);
            let (rep, _) = agree(n, seed, &plan, &flags, &vec![Vec::new(); n as usize]);
            let done: Vec<Agreement> = rep.outcomes.iter().filter_map(|o| decision(n, o)).collect();
            assert_eq!(
                done.len() + rep.waiting().len(),
                n as usize,
                "n={n} seed={seed}"
            );
            assert!(done.windows(2).all(|w| w[0] == w[1]), "n={n} seed={seed}");
            hangs += usize::from(!rep.waiting().is_empty());
        }
    }
    assert!(hangs > 0);
}

#[test]
fn the_same_seed_replays_the_same_run() {
    let n = 9;
    let flags: Vec<u32> = (0..n).map(|r| !(1u32 << r)).collect();
    let mix = FaultMix {
        crashes: 2,
        drops: 1,
        stalls: 2,
        horizon: 150,
        max_stall: 30,
        ..FaultMix::default()
    };
    let plan = mix.plan(n, 5);
    let acked = acked_lists(n, 5, &plan);
    let a = agree(n, 5, &plan, &flags, &acked).0;
    assert_eq!(a, agree(n, 5, &plan, &flags, &acked).0);
    assert_ne!(mix.plan(n, 5), mix.plan(n, 6));
}

#[test]
fn faults_naming_ranks_outside_the_group_are_refused() {
    let make = |r: Rank| -> Result<Box<dyn Collective>, ProtoError> {
        Ok(Box::new(Agree::new(
            group(r, 3),
            1,
            &[],
            &[],
            Ballot::default(),
        )?))
    };
    for f in [
        Fault::Dead { rank: 3 },
        Fault::Crash { rank: 5, step: 0 },
        Fault::Stall {
            rank: 3,
            step: 0,
            steps: 1,
        },
    ] {
        assert!(run_with_faults(3, 0, &[f], make).is_err());
    }
}

/// Builds one rank's machine.
type Make = Box<dyn Fn(Rank) -> Result<Box<dyn Collective>, ProtoError>>;

/// A collective that cannot survive a crash, with its expected output per rank.
struct Coll {
    name: &'static str,
    make: Make,
    expected: Vec<Vec<u8>>,
}

fn collectives(n: u32, seed: u64) -> Vec<Coll> {
    let count = 1 + (seed % 5) as usize * n as usize;
    let inputs: Vec<Vec<u8>> = (0..n)
        .map(|r| testkit::input(Datatype::I32, r, count, seed))
        .collect();
    let sum = testkit::seq_reduce(ReduceOp::Sum, Datatype::I32, &inputs);
    let root = (seed % n as u64) as Rank;
    let data: Vec<Vec<u8>> = (0..n).map(|r| testkit::bytes(r, count, seed)).collect();
    let mut v = Vec::new();
    for algo in [AllreduceAlgo::RecursiveDoubling, AllreduceAlgo::Ring] {
        let inputs = inputs.clone();
        v.push(Coll {
            name: if algo == AllreduceAlgo::Ring {
                "allreduce ring"
            } else {
                "allreduce recursive doubling"
            },
            make: Box::new(move |r| {
                allreduce::machine_with(
                    group(r, n),
                    Datatype::I32,
                    ReduceOp::Sum,
                    inputs[r as usize].clone(),
                    algo,
                )
            }),
            expected: vec![sum.clone(); n as usize],
        });
    }
    let d = data.clone();
    v.push(Coll {
        name: "bcast binomial",
        make: Box::new(move |r| {
            bcast::machine_with(
                group(r, n),
                root,
                d[r as usize].clone(),
                BcastAlgo::Binomial,
            )
        }),
        expected: vec![data[root as usize].clone(); n as usize],
    });
    v
}

#[test]
fn collectives_under_crashes_finish_right_or_fail_naming_a_crashed_rank() {
    let (mut finished, mut failed) = (0usize, 0usize);
    for n in testkit::rank_counts() {
        for seed in 0..SEEDS / 2 {
            for c in collectives(n, seed) {
                let plan = FaultMix {
                    dead: (seed % 5 == 0) as u32,
                    crashes: 1 + (seed % 2) as u32,
                    stalls: (seed % 3) as u32,
                    horizon: 4 * n as u64 + 4,
                    max_stall: 2 * n as u64,
                    ..FaultMix::default()
                }
                .plan(n, seed);
                let (dead, crashed) = killed(&plan);
                let rep = run_with_faults(n, seed, &plan, &c.make).unwrap();
                let ctx = format!("{} n={n} seed={seed} plan={plan:?}", c.name);
                assert!(!rep.exhausted && rep.strays.is_empty(), "{ctx}");
                for r in rep.survivors() {
                    match &rep.outcomes[r as usize] {
                        Outcome::Finished(out) => {
                            assert_eq!(out, &c.expected[r as usize], "{ctx}: rank {r}");
                            finished += 1;
                        }
                        Outcome::Failed(Failure::PeerFailed(p))
                            if dead.contains(p) || crashed.contains(p) =>
                        {
                            failed += 1
                        }
                        o => panic!("{ctx}: rank {r}: {o:?}"),
                    }
                }
            }
        }
    }
    // Both endings happen, so both branches above are exercised.
    assert!(
        finished > 1000 && failed > 1000,
        "{finished} finished, {failed} failed"
    );
}

#[test]
fn collectives_under_stalls_alone_finish_right() {
    for n in testkit::rank_counts() {
        for seed in 0..SEEDS / 4 {
            for c in collectives(n, seed) {
                let plan = FaultMix {
                    stalls: 3,
                    horizon: 4 * n as u64,
                    max_stall: 4 * n as u64,
                    ..FaultMix::default()
                }
                .plan(n, seed);
                let rep = run_with_faults(n, seed, &plan, &c.make).unwrap();
                for r in 0..n as usize {
                    assert_eq!(
                        rep.outcomes[r],
                        Outcome::Finished(c.expected[r].clone()),
                        "{} n={n} seed={seed} rank {r}",
                        c.name
                    );
                }
            }
        }
    }
}

#[test]
fn a_collective_that_loses_a_message_is_a_reported_hang() {
    // Every message of these algorithms is needed by its receiver: one lost message leaves
    // someone waiting, and the run says who instead of spinning.
    for n in 2..=17u32 {
        for seed in 0..SEEDS / 4 {
            for c in collectives(n, seed) {
                let sent = run_with_faults(n, seed, &[], &c.make).unwrap().sent;
                let message = SimRng::new(seed).below(sent) as u64;
                let rep = run_with_faults(n, seed, &[Fault::Drop { message }], &c.make).unwrap();
                let ctx = format!("{} n={n} seed={seed} drop={message}", c.name);
                assert!(!rep.waiting().is_empty(), "{ctx}");
                assert!(!rep.exhausted, "{ctx}");
                for r in 0..n as usize {
                    match &rep.outcomes[r] {
                        Outcome::Finished(out) => assert_eq!(out, &c.expected[r], "{ctx}"),
                        Outcome::Waiting => {}
                        o => panic!("{ctx}: rank {r}: {o:?}"),
                    }
                }
            }
        }
    }
}
