//! Every reduction machine with custom reducers: a non-commutative one (composition of affine
//! maps `x -> a*x + b` over wrapping u64) must give exactly the rank-ordered fold
//! `x0 ⊕ x1 ⊕ ... ⊕ x(p-1)`, and a commutative one (wrapping sum plus xor-mix, element size 12)
//! the same; algorithms that reorder operands are refused for the non-commutative one and never
//! selected for it.

use nexar_proto::algo::{allreduce, reduce, reduce_scatter, scan};
use nexar_proto::select::movement::{ReduceScatterAlgo, ScanAlgo};
use nexar_proto::select::reductions::{AllreduceAlgo, ReduceAlgo};
use nexar_proto::sim::{self, SimRng};
use nexar_proto::{CustomOp, Group, Order, ProtoError, Reducer};
use std::sync::Arc;

/// Composition of affine maps: element `(a, b)` (two native u64) is `x -> a*x + b`;
/// `f ⊕ g` applies `f` first: `(a1*a2, a2*b1 + b2)`.
#[derive(Debug)]
struct Affine;

fn affine(l: (u64, u64), r: (u64, u64)) -> (u64, u64) {
    (
        l.0.wrapping_mul(r.0),
        r.0.wrapping_mul(l.1).wrapping_add(r.1),
    )
}

fn get(b: &[u8], i: usize) -> u64 {
    u64::from_ne_bytes(b[i * 8..i * 8 + 8].try_into().unwrap())
}

fn put(b: &mut [u8], i: usize, v: u64) {
    b[i * 8..i * 8 + 8].copy_from_slice(&v.to_ne_bytes());
}

impl CustomOp for Affine {
    fn combine(&self, acc: &mut [u8], inc: &[u8], order: Order) {
        for e in 0..acc.len() / 16 {
            let a = (get(acc, 2 * e), get(acc, 2 * e + 1));
            let i = (get(inc, 2 * e), get(inc, 2 * e + 1));
            let (x, y) = match order {
                Order::AccFirst => affine(a, i),
                Order::IncFirst => affine(i, a),
            };
            put(acc, 2 * e, x);
            put(acc, 2 * e + 1, y);
        }
    }
    fn elem_size(&self) -> usize {
        16
    }
    fn commutative(&self) -> bool {
        false
    }
}

/// A commutative op on 12-byte elements: three u32 lanes, wrapping sum.
#[derive(Debug)]
struct Sum3;

impl CustomOp for Sum3 {
    fn combine(&self, acc: &mut [u8], inc: &[u8], _order: Order) {
        for (a, b) in acc.chunks_exact_mut(4).zip(inc.chunks_exact(4)) {
            let s = u32::from_ne_bytes(a.try_into().unwrap())
                .wrapping_add(u32::from_ne_bytes(b.try_into().unwrap()));
            a.copy_from_slice(&s.to_ne_bytes());
        }
    }
    fn elem_size(&self) -> usize {
        12
    }
    fn commutative(&self) -> bool {
        true
    }
}

fn reducers() -> [Reducer; 2] {
    [
        Reducer::custom(Arc::new(Affine)),
        Reducer::custom(Arc::new(Sum3)),
    ]
}

fn input(red: &Reducer, rank: u32, count: usize, seed: u64) -> Vec<u8> {
    let mut rng = SimRng::new(seed ^ (u64::from(rank) << 40) ^ count as u64);
    (0..count * red.elem_size())
        .map(|_| rng.next_u64() as u8)
        .collect()
}

/// The sequential rank-ordered fold of `inputs`.
fn fold(red: &Reducer, inputs: &[Vec<u8>]) -> Vec<u8> {
    let mut acc = inputs[0].clone();
    for inc in &inputs[1..] {
        red.reduce_into(&mut acc, inc, Order::AccFirst).unwrap();
    }
    acc
}

fn counts(p: u32) -> Vec<usize> {
    let p = p as usize;
    let mut v = vec![0, 1, p + 1, 37 * p + 5];
    v.dedup();
    v
}

const SEEDS: [u64; 3] = [1, 2, 3];

/// Runs a machine on `n` ranks over inputs from [`input`], returning the inputs and outputs.
fn run(
    red: &Reducer,
    n: u32,
    count: usize,
    seed: u64,
    build: impl Fn(Group, Vec<u8>) -> Result<Box<dyn nexar_proto::Collective>, ProtoError>,
) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let inputs: Vec<_> = (0..n).map(|r| input(red, r, count, seed)).collect();
    let rep = sim::run(n, seed, |r| {
        build(Group::new(r, n)?, inputs[r as usize].clone())
    })
    .unwrap_or_else(|e| panic!("{red:?} n={n} count={count}: {e}"));
    (inputs, rep.outputs)
}

#[test]
fn allreduce_keeps_the_rank_order() {
    for red in reducers() {
        for n in 1..=9 {
            for count in counts(n) {
                for seed in SEEDS {
                    for algo in AllreduceAlgo::ALL {
                        if !red.commutative() && !algo.preserves_order() {
                            continue;
                        }
                        let (inputs, outs) = run(&red, n, count, seed, |g, d| {
                            allreduce::reducer_machine_with(g, red.clone(), d, algo)
                        });
                        let want = fold(&red, &inputs);
                        for (r, o) in outs.iter().enumerate() {
                            assert_eq!(*o, want, "{algo:?} {red:?} n={n} r={r} count={count}");
                        }
                    }
                    let (inputs, outs) = run(&red, n, count, seed, |g, d| {
                        allreduce::reducer_machine(g, red.clone(), d)
                    });
                    assert!(outs.iter().all(|o| *o == fold(&red, &inputs)));
                }
            }
        }
    }
}

#[test]
fn reduce_keeps_the_rank_order_at_every_root() {
    for red in reducers() {
        for n in 1..=9 {
            for count in counts(n) {
                for root in [0, n / 2, n - 1] {
                    for algo in ReduceAlgo::ALL {
                        let (inputs, outs) = run(&red, n, count, u64::from(root), |g, d| {
                            reduce::reducer_machine_with(g, root, red.clone(), d, algo)
                        });
                        let want = fold(&red, &inputs);
                        for (r, o) in outs.iter().enumerate() {
                            let want: &[u8] = if r == root as usize { &want } else { &[] };
                            assert_eq!(o, want, "{algo:?} {red:?} n={n} root={root}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn reduce_scatter_keeps_the_rank_order() {
    let algos = [
        ReduceScatterAlgo::Pairwise,
        ReduceScatterAlgo::Halving,
        ReduceScatterAlgo::Ring,
    ];
    for red in reducers() {
        for n in 1..=9u32 {
            let e = red.elem_size();
            let rc: Vec<usize> = (0..n as usize).map(|i| (i * 7 + 2) % 5).collect();
            let total: usize = rc.iter().sum();
            for seed in SEEDS {
                let mut runs = vec![None];
                for algo in algos {
                    if (algo == ReduceScatterAlgo::Halving && !n.is_power_of_two())
                        || (!red.commutative() && !algo.preserves_order())
                    {
                        continue;
                    }
                    runs.push(Some(algo));
                }
                for algo in runs {
                    let (inputs, outs) = run(&red, n, total, seed, |g, d| match algo {
                        Some(a) => {
                            reduce_scatter::reducer_with_algo(a, g, red.clone(), d, rc.clone())
                        }
                        None => reduce_scatter::reducer_machine(g, red.clone(), d, rc.clone()),
                    });
                    let full = fold(&red, &inputs);
                    let mut at = 0;
                    for (r, o) in outs.iter().enumerate() {
                        let len = rc[r] * e;
                        assert_eq!(*o, full[at..at + len], "{algo:?} {red:?} n={n} r={r}");
                        at += len;
                    }
                }
            }
        }
    }
}

#[test]
fn scan_and_exscan_keep_the_rank_order() {
    let algos = [
        None,
        Some(ScanAlgo::Doubling),
        Some(ScanAlgo::Pipeline { segment_bytes: 40 }),
    ];
    for red in reducers() {
        for n in 1..=9 {
            for count in counts(n) {
                for exclusive in [false, true] {
                    for algo in algos {
                        let (inputs, outs) = run(&red, n, count, 5, |g, d| match algo {
                            Some(a) => scan::reducer_with_algo(a, g, red.clone(), d, exclusive),
                            None => scan::reducer_machine(g, red.clone(), d, exclusive),
                        });
                        for (r, o) in outs.iter().enumerate() {
                            let upto = if exclusive { r } else { r + 1 };
                            let want = if upto == 0 {
                                Vec::new()
                            } else {
                                fold(&red, &inputs[..upto])
                            };
                            assert_eq!(*o, want, "{algo:?} {red:?} n={n} r={r} excl={exclusive}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn reordering_algorithms_are_refused_for_non_commutative_ops() {
    let red = Reducer::custom(Arc::new(Affine));
    let g = Group::new(0, 3).unwrap();
    let err = allreduce::reducer_machine_with(g, red.clone(), vec![0; 32], AllreduceAlgo::Ring);
    assert!(matches!(err, Err(ProtoError::InvalidArgument(_))));
    let err = reduce_scatter::reducer_with_algo(
        ReduceScatterAlgo::Ring,
        g,
        red.clone(),
        vec![0; 48],
        vec![1; 3],
    );
    assert!(matches!(err, Err(ProtoError::InvalidArgument(_))));
    // A vector that is not a whole number of elements.
    let err = allreduce::reducer_machine(g, red, vec![0; 20]);
    assert!(matches!(err, Err(ProtoError::InvalidArgument(_))));
}

#[test]
fn large_vectors_on_odd_groups_stay_ordered() {
    // Big enough that a commutative op would get the ring allreduce and ring reduce-scatter.
    let red = Reducer::custom(Arc::new(Affine));
    let n = 6;
    let count = (1 << 20) / 16 + 3;
    let (inputs, outs) = run(&red, n, count, 9, |g, d| {
        allreduce::reducer_machine(g, red.clone(), d)
    });
    let want = fold(&red, &inputs);
    assert!(outs.iter().all(|o| *o == want));
    let rc = vec![count / n as usize; n as usize];
    let total = rc.iter().sum();
    let (inputs, outs) = run(&red, n, total, 9, |g, d| {
        reduce_scatter::reducer_machine(g, red.clone(), d, rc.clone())
    });
    let full = fold(&red, &inputs);
    let len = rc[0] * 16;
    for (r, o) in outs.iter().enumerate() {
        assert_eq!(*o, full[r * len..(r + 1) * len]);
    }
}
