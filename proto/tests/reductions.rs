//! reduce and allreduce: every algorithm forced explicitly, against the sequential reference, over
//! the test kit's rank counts, lengths and seeds; bitwise agreement for order-sensitive floats;
//! message counts and rounds against each algorithm's formula; bad inputs and bad messages.

use bytes::Bytes;
use nexar_proto::algo::{allreduce, ceil_log2, floor_pow2, reduce};
use nexar_proto::select::reductions::{AllreduceAlgo, ReduceAlgo};
use nexar_proto::sim::{self, SimError, SimReport, SimRng};
use nexar_proto::testkit;
use nexar_proto::{Collective, Datatype, Group, Incoming, Outbox, ProtoError, Rank, ReduceOp};

/// One reduction problem: `n` ranks' inputs and the sequential reference.
struct Case {
    dtype: Datatype,
    op: ReduceOp,
    inputs: Vec<Vec<u8>>,
    expected: Vec<u8>,
}

impl Case {
    fn new(dtype: Datatype, op: ReduceOp, n: u32, count: usize) -> Self {
        let inputs: Vec<Vec<u8>> = (0..n)
            .map(|r| testkit::input(dtype, r, count, 17))
            .collect();
        let expected = testkit::seq_reduce(op, dtype, &inputs);
        Self {
            dtype,
            op,
            inputs,
            expected,
        }
    }

    fn n(&self) -> u32 {
        self.inputs.len() as u32
    }

    fn allreduce(&self, algo: AllreduceAlgo, seed: Option<u64>) -> SimReport {
        let n = self.n();
        let make = |r: Rank| {
            let data = self.inputs[r as usize].clone();
            allreduce::machine_with(Group::new(r, n)?, self.dtype, self.op, data, algo)
        };
        let rep = match seed {
            Some(seed) => sim::run(n, seed, make),
            None => sim::run_synchronous(n, make),
        };
        rep.unwrap_or_else(|e| panic!("{algo:?} {} {} n={n}: {e}", self.dtype, self.op))
    }

    fn reduce(&self, algo: ReduceAlgo, root: Rank, seed: Option<u64>) -> SimReport {
        let n = self.n();
        let make = |r: Rank| {
            let data = self.inputs[r as usize].clone();
            reduce::machine_with(Group::new(r, n)?, root, self.dtype, self.op, data, algo)
        };
        let rep = match seed {
            Some(seed) => sim::run(n, seed, make),
            None => sim::run_synchronous(n, make),
        };
        rep.unwrap_or_else(|e| panic!("{algo:?} {} {} n={n}: {e}", self.dtype, self.op))
    }

    fn check_allreduce(&self, algo: AllreduceAlgo, seed: Option<u64>) {
        let rep = self.allreduce(algo, seed);
        for (r, out) in rep.outputs.iter().enumerate() {
            assert!(
                out == &self.expected,
                "{algo:?} {} {} n={} len={} seed={seed:?}: rank {r} differs",
                self.dtype,
                self.op,
                self.n(),
                self.expected.len()
            );
        }
    }

    fn check_reduce(&self, algo: ReduceAlgo, root: Rank, seed: Option<u64>) {
        let rep = self.reduce(algo, root, seed);
        for (r, out) in rep.outputs.iter().enumerate() {
            let want: &[u8] = if r as Rank == root {
                &self.expected
            } else {
                &[]
            };
            assert!(
                out == want,
                "{algo:?} {} {} n={} root={root} len={} seed={seed:?}: rank {r} differs",
                self.dtype,
                self.op,
                self.n(),
                self.expected.len()
            );
        }
    }
}

/// The full grid (ranks × lengths × seeds) for one exact (dtype, op) and one algorithm; one test
/// per algorithm so the test threads share the work.
fn allreduce_full_grid_i32_sum(algo: AllreduceAlgo) {
    for n in testkit::rank_counts() {
        for count in testkit::lengths(n) {
            let case = Case::new(Datatype::I32, ReduceOp::Sum, n, count);
            for seed in testkit::seeds() {
                case.check_allreduce(algo, Some(seed));
            }
        }
    }
}

#[test]
fn allreduce_full_grid_recursive_doubling() {
    allreduce_full_grid_i32_sum(AllreduceAlgo::RecursiveDoubling);
}

#[test]
fn allreduce_full_grid_ring() {
    allreduce_full_grid_i32_sum(AllreduceAlgo::Ring);
}

#[test]
fn allreduce_full_grid_rabenseifner() {
    allreduce_full_grid_i32_sum(AllreduceAlgo::Rabenseifner);
}

#[test]
fn reduce_full_grid_i64_prod() {
    for n in testkit::rank_counts() {
        for count in testkit::lengths(n) {
            let case = Case::new(Datatype::I64, ReduceOp::Prod, n, count);
            for algo in ReduceAlgo::ALL {
                // The root rotates with the seed, so every root is covered at every size.
                for seed in testkit::seeds() {
                    case.check_reduce(algo, (seed % n as u64) as Rank, Some(seed));
                }
            }
        }
    }
}

/// Every (dtype, op) case of the test kit, on the short lengths and a few seeds.
#[test]
fn every_reduction_case_matches_the_reference() {
    for (dtype, op) in testkit::reduction_cases() {
        for n in testkit::rank_counts() {
            for count in [1, n as usize - 1, n as usize + 1, 3 * n as usize + 2] {
                let case = Case::new(dtype, op, n, count);
                for seed in 0..2 {
                    for algo in AllreduceAlgo::ALL {
                        case.check_allreduce(algo, Some(seed));
                    }
                    for algo in ReduceAlgo::ALL {
                        case.check_reduce(algo, n - 1 - seed as u32 % n, Some(seed));
                    }
                }
            }
        }
    }
}

/// f32 values of widely varied magnitude and sign: sums depend on the bracketing.
fn float_inputs(n: u32, count: usize, salt: u64) -> Vec<Vec<u8>> {
    let mut rng = SimRng::new(salt);
    (0..n)
        .map(|_| {
            (0..count)
                .flat_map(|_| {
                    let mant = (rng.next_u64() % (1 << 24)) as f32 / (1 << 24) as f32 + 0.5;
                    let exp = (rng.next_u64() % 41) as i32 - 20;
                    let sign = if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 };
                    (sign * mant * 2f32.powi(exp)).to_ne_bytes()
                })
                .collect()
        })
        .collect()
}

fn float_case(n: u32, count: usize) -> Case {
    let inputs = float_inputs(n, count, 99 + n as u64);
    Case {
        dtype: Datatype::F32,
        op: ReduceOp::Sum,
        expected: Vec::new(),
        inputs,
    }
}

#[test]
fn allreduce_floats_are_bitwise_identical_everywhere() {
    let mut order_sensitive = false;
    for n in testkit::rank_counts() {
        for count in testkit::lengths(n) {
            let case = float_case(n, count);
            let seq = testkit::seq_reduce(case.op, case.dtype, &case.inputs);
            let mut per_algo = Vec::new();
            for algo in AllreduceAlgo::ALL {
                let first = case.allreduce(algo, None).outputs[0].clone();
                assert_eq!(first.len(), count * 4);
                // Every seed on the short lengths; a few on the long one, to bound the runtime.
                let seeds = if count > 100 { 3 } else { usize::MAX };
                for seed in testkit::seeds().take(seeds) {
                    let rep = case.allreduce(algo, Some(seed));
                    for (r, out) in rep.outputs.iter().enumerate() {
                        assert!(
                            *out == first,
                            "{algo:?} n={n} count={count} seed={seed} r={r}"
                        );
                    }
                }
                order_sensitive |= first != seq;
                per_algo.push(first);
            }
            // Recursive doubling and Rabenseifner share one bracketing.
            assert!(per_algo[0] == per_algo[2], "n={n} count={count}");
        }
    }
    assert!(
        order_sensitive,
        "the float inputs should expose bracketing differences"
    );
}

#[test]
fn reduce_floats_are_deterministic_and_root_independent() {
    for n in testkit::rank_counts() {
        for count in [1, n as usize + 1, 300] {
            let case = float_case(n, count);
            let want_rsg = case.allreduce(AllreduceAlgo::Rabenseifner, None).outputs[0].clone();
            for algo in ReduceAlgo::ALL {
                let mut want: Option<Vec<u8>> = None;
                for root in 0..n {
                    for seed in 0..4 {
                        let rep = case.reduce(algo, root, Some(seed));
                        let got = &rep.outputs[root as usize];
                        let want = want.get_or_insert_with(|| got.clone());
                        assert!(got == want, "{algo:?} n={n} root={root} seed={seed}");
                        for (r, out) in rep.outputs.iter().enumerate() {
                            assert!(r as Rank == root || out.is_empty());
                        }
                    }
                }
                if algo == ReduceAlgo::ReduceScatterGather {
                    assert!(want.as_ref() == Some(&want_rsg), "n={n} count={count}");
                }
            }
        }
    }
}

// Rounds are [`SimReport::rounds`]: the longest chain of messages each sent after its sender
// received the previous one. A rank that needs no input sends at depth 1 even if, in real time,
// it would wait for its peers.

/// Depth of participant `nr` after the recursive-doubling (or halving) exchanges: the longest
/// chain into it starts at some participant `j`, one hop per bit where `j` and `nr` differ, plus
/// one hop for the fold if `j` absorbed a partner.
fn exchange_depth(p2: usize, rem: usize, nr: usize) -> u32 {
    (0..p2)
        .map(|j| u32::from(j < rem) + (j ^ nr).count_ones())
        .max()
        .unwrap_or(0)
}

/// Recursive doubling: the unfold leaves each absorber one hop after its exchanges.
fn rd_rounds(p2: usize, rem: usize) -> u32 {
    if rem == 0 {
        return p2.trailing_zeros();
    }
    (0..rem)
        .map(|nr| 1 + exchange_depth(p2, rem, nr))
        .max()
        .unwrap_or(0)
}

/// Reduce-scatter + gather: each participant but the root sends its block one hop after its
/// halving exchanges.
fn rsg_rounds(n: u32, root: Rank) -> u32 {
    let p2 = floor_pow2(n) as usize;
    let rem = n as usize - p2;
    let rank_of = |nr: usize| if nr < rem { 2 * nr + 1 } else { nr + rem };
    (0..p2)
        .filter(|&nr| rank_of(nr) != root as usize)
        .map(|nr| 1 + exchange_depth(p2, rem, nr))
        .max()
        .unwrap_or(0)
}

/// Height of the order-preserving reduce tree over ranks `[lo, hi)` led by `leader`: the other
/// half's subtree (led by its lowest rank) sends one hop above its own height.
fn tree_height(lo: u32, hi: u32, leader: Rank) -> u32 {
    if hi - lo <= 1 {
        return 0;
    }
    let mid = lo + (hi - lo).div_ceil(2);
    let (keep, other) = if leader < mid {
        ((lo, mid), (mid, hi))
    } else {
        ((mid, hi), (lo, mid))
    };
    tree_height(keep.0, keep.1, leader).max(1 + tree_height(other.0, other.1, other.0))
}

#[test]
fn allreduce_message_counts_and_rounds_match_formulas() {
    for n in testkit::rank_counts() {
        let (nn, p2) = (n as usize, floor_pow2(n) as usize);
        let (rem, l) = (nn - p2, p2.trailing_zeros());
        let folded = u32::from(rem > 0);
        for count in [0, 1, nn + 3, 40 * nn] {
            let case = Case::new(Datatype::F64, ReduceOp::Max, n, count);
            let bytes = count * 8;
            let rep = case.allreduce(AllreduceAlgo::RecursiveDoubling, None);
            assert_eq!(rep.messages, p2 * l as usize + 2 * rem, "rd n={n}");
            assert_eq!(rep.bytes, rep.messages * bytes, "rd n={n}");
            assert_eq!(rep.rounds, rd_rounds(p2, rem), "rd n={n}");
            // Closed form: the unfold waits for one more hop only when rem > p2 / 2.
            let closed = l + folded * (1 + u32::from(rem > p2 / 2));
            assert_eq!(rep.rounds, closed, "rd n={n}");

            let rep = case.allreduce(AllreduceAlgo::Ring, None);
            assert_eq!(rep.messages, 2 * nn * (nn - 1), "ring n={n}");
            // Each rank sends every block but one in each phase.
            assert_eq!(rep.bytes, 2 * (nn - 1) * bytes, "ring n={n}");
            assert_eq!(rep.rounds, 2 * (n - 1), "ring n={n}");

            let rep = case.allreduce(AllreduceAlgo::Rabenseifner, None);
            assert_eq!(rep.messages, 2 * p2 * l as usize + 2 * rem, "rab n={n}");
            // Each phase moves (p2 - 1) / p2 of the vector per participant: (p2 - 1) vectors.
            assert_eq!(
                rep.bytes,
                2 * (p2 - 1) * bytes + 2 * rem * bytes,
                "rab n={n}"
            );
            assert_eq!(rep.rounds, 2 * l + 2 * folded, "rab n={n}");
        }
    }
}

#[test]
fn reduce_message_counts_and_rounds_match_formulas() {
    for n in testkit::rank_counts() {
        let (nn, p2) = (n as usize, floor_pow2(n) as usize);
        let (rem, l) = (nn - p2, p2.trailing_zeros());
        for count in [0, 1, nn + 3, 40 * nn] {
            let case = Case::new(Datatype::U16, ReduceOp::Bor, n, count);
            for root in 0..n {
                let rep = case.reduce(ReduceAlgo::Binomial, root, None);
                assert_eq!(rep.messages, nn - 1, "binomial n={n}");
                assert_eq!(rep.bytes, (nn - 1) * count * 2, "binomial n={n}");
                let height = tree_height(0, n, root);
                assert_eq!(rep.rounds, height, "binomial n={n} root={root}");
                assert!(height <= ceil_log2(n));
                if n.is_power_of_two() {
                    assert_eq!(height, ceil_log2(n), "binomial n={n}");
                }

                let rep = case.reduce(ReduceAlgo::ReduceScatterGather, root, None);
                let root_participates = !(root < 2 * rem as u32 && root.is_multiple_of(2));
                let gathers = p2 - usize::from(root_participates);
                assert_eq!(rep.messages, rem + p2 * l as usize + gathers, "rsg n={n}");
                assert_eq!(rep.rounds, rsg_rounds(n, root), "rsg n={n} root={root}");
                assert!(rep.rounds <= l + 1 + u32::from(rem > 0), "rsg n={n}");
            }
        }
    }
}

#[test]
fn selection_entry_points_reduce() {
    // 20 000 i32 = 80 000 bytes: the bandwidth algorithms at 12 and 16 ranks.
    for n in [1, 2, 5, 12, 16] {
        let case = Case::new(Datatype::I32, ReduceOp::Sum, n, 20_000);
        let rep = sim::run(n, 5, |r| {
            let data = case.inputs[r as usize].clone();
            allreduce::machine(Group::new(r, n)?, case.dtype, case.op, data)
        })
        .unwrap();
        assert!(rep.outputs.iter().all(|o| o == &case.expected), "n={n}");
        let rep = sim::run(n, 5, |r| {
            let data = case.inputs[r as usize].clone();
            reduce::machine(Group::new(r, n)?, n / 2, case.dtype, case.op, data)
        })
        .unwrap();
        assert_eq!(rep.outputs[n as usize / 2], case.expected, "n={n}");
    }
}

fn all_builders() -> Vec<(String, BuildFn)> {
    let mut v: Vec<(String, BuildFn)> = Vec::new();
    for algo in AllreduceAlgo::ALL {
        v.push((
            format!("allreduce {algo:?}"),
            Box::new(move |g, _root, dt, op, data| allreduce::machine_with(g, dt, op, data, algo)),
        ));
    }
    for algo in ReduceAlgo::ALL {
        v.push((
            format!("reduce {algo:?}"),
            Box::new(move |g, root, dt, op, data| {
                reduce::machine_with(g, root, dt, op, data, algo)
            }),
        ));
    }
    v
}

type BuildFn = Box<
    dyn Fn(Group, Rank, Datatype, ReduceOp, Vec<u8>) -> Result<Box<dyn Collective>, ProtoError>,
>;

#[test]
fn bad_arguments_are_rejected() {
    let g = Group::new(1, 4).unwrap();
    for (name, build) in all_builders() {
        let err = build(g, 0, Datatype::F32, ReduceOp::Band, vec![0; 8]).err();
        assert!(matches!(err, Some(ProtoError::InvalidOp { .. })), "{name}");
        let err = build(g, 0, Datatype::F64, ReduceOp::Sum, vec![0; 12]).err();
        assert!(
            matches!(err, Some(ProtoError::InvalidArgument(_))),
            "{name}"
        );
        let bad = Group { rank: 4, size: 4 };
        let err = build(bad, 0, Datatype::F64, ReduceOp::Sum, vec![0; 16]).err();
        assert!(
            matches!(err, Some(ProtoError::InvalidArgument(_))),
            "{name}"
        );
    }
    for algo in ReduceAlgo::ALL {
        let err = reduce::machine_with(g, 4, Datatype::I32, ReduceOp::Sum, vec![0; 8], algo).err();
        assert!(
            matches!(err, Some(ProtoError::InvalidArgument(_))),
            "{algo:?}"
        );
    }
}

fn msg(from: Rank, step: u32, len: usize) -> Incoming {
    Incoming {
        from,
        step,
        payload: Bytes::from(vec![0u8; len]),
    }
}

/// Builds rank `r` of `n`, starts it, and returns it with what it sent first.
fn started(build: &BuildFn, r: Rank, n: u32, root: Rank) -> (Box<dyn Collective>, Outbox) {
    let g = Group::new(r, n).unwrap();
    let mut m = build(g, root, Datatype::I32, ReduceOp::Sum, vec![0; 32]).unwrap();
    let mut out = Outbox::new();
    m.start(&mut out).unwrap();
    (m, out)
}

/// Runs the collective with every rank but `r` simulated only to learn what `r` receives first.
fn first_message_to(build: &BuildFn, r: Rank, n: u32, root: Rank) -> Option<(Rank, u32, usize)> {
    (0..n).filter(|&s| s != r).find_map(|s| {
        let (_, mut out) = started(build, s, n, root);
        out.drain()
            .find(|m| m.to == r)
            .map(|m| (s, m.step, m.payload.len()))
    })
}

#[test]
fn bad_messages_are_errors() {
    for (name, build) in all_builders() {
        let mut checked = 0;
        for n in [2, 3, 4, 6] {
            for r in 0..n {
                let root = 0;
                let Some((from, step, len)) = first_message_to(&build, r, n, root) else {
                    continue;
                };
                let ctx = format!("{name} n={n} r={r} from={from} step={step}");
                let (mut m, _) = started(&build, r, n, root);
                let mut out = Outbox::new();
                let err = m.deliver(msg(from, step, len + 4), &mut out).unwrap_err();
                assert!(
                    matches!(err, ProtoError::LengthMismatch { .. }),
                    "{ctx}: {err}"
                );
                let err = m.deliver(msg(n, step, len), &mut out).unwrap_err();
                assert!(matches!(err, ProtoError::UnexpectedMessage { .. }), "{ctx}");
                let err = m
                    .deliver(msg(from, step + 1000, len), &mut out)
                    .unwrap_err();
                assert!(matches!(err, ProtoError::UnexpectedMessage { .. }), "{ctx}");
                let other = (0..n).find(|&o| o != from && o != r);
                if let Some(other) = other {
                    let err = m.deliver(msg(other, step, len), &mut out).unwrap_err();
                    assert!(matches!(err, ProtoError::UnexpectedMessage { .. }), "{ctx}");
                }
                m.deliver(msg(from, step, len), &mut out).unwrap();
                let err = m.deliver(msg(from, step, len), &mut out).unwrap_err();
                assert!(matches!(err, ProtoError::DuplicateMessage { .. }), "{ctx}");
                checked += 1;
            }
        }
        // Every rank receives something at start in these algorithms, except the leaves of
        // the reduce tree and the donors of the reduce-scatter + gather.
        assert!(checked >= 4, "{name}: only {checked} ranks checked");
    }
}

#[test]
fn unfinished_machines_refuse_to_finish() {
    for (name, build) in all_builders() {
        // Rank 0 of 4 receives something in every algorithm (it is the root of the reduces).
        let (m, _) = started(&build, 0, 4, 0);
        assert!(!m.is_done(), "{name}");
        assert!(matches!(m.finish(), Err(ProtoError::NotFinished)), "{name}");
    }
}

#[test]
fn mismatched_counts_fail_instead_of_hanging() {
    for (name, build) in all_builders() {
        for n in [2, 3, 5, 8] {
            let err = sim::run(n, 1, |r| {
                let len = if r == n - 1 { 16 } else { 4 * (n as usize + 3) };
                build(
                    Group::new(r, n)?,
                    0,
                    Datatype::I32,
                    ReduceOp::Sum,
                    vec![0; len],
                )
            })
            .unwrap_err();
            let is_mismatch = matches!(
                err,
                SimError::Machine {
                    err: ProtoError::LengthMismatch { .. },
                    ..
                }
            );
            assert!(is_mismatch, "{name} n={n}: {err}");
        }
    }
}
