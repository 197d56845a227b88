//! reduce_scatter, reduce_scatter_block, scan and exscan error paths: bad arguments, messages
//! of the wrong length or from the wrong (peer, step), and ranks that disagree about a call.

use nexar_proto::algo::reduce_scatter as rs;
use nexar_proto::algo::scan;
use nexar_proto::machine::{Collective, Incoming, Outbox};
use nexar_proto::select::movement::{ReduceScatterAlgo, ScanAlgo};
use nexar_proto::sim::{self, SimError};
use nexar_proto::testkit::input;
use nexar_proto::{Datatype, Group, ProtoError, ReduceOp};

fn rs_algos(n: u32) -> impl Iterator<Item = ReduceScatterAlgo> {
    [
        ReduceScatterAlgo::Ring,
        ReduceScatterAlgo::Pairwise,
        ReduceScatterAlgo::Halving,
    ]
    .into_iter()
    .filter(move |&a| a != ReduceScatterAlgo::Halving || n.is_power_of_two())
}

// ---------------------------------------------------------------------------------------------
// Bad arguments
// ---------------------------------------------------------------------------------------------

fn invalid_argument<T>(r: Result<T, ProtoError>) -> bool {
    matches!(r, Err(ProtoError::InvalidArgument(_)))
}

#[test]
fn reduce_scatter_rejects_bad_arguments() {
    let g = Group::new(1, 4).unwrap();
    let (i32_, sum) = (Datatype::I32, ReduceOp::Sum);
    let bad_group = Group { rank: 4, size: 4 };
    let empty_group = Group { rank: 0, size: 0 };
    for algo in [
        None,
        Some(ReduceScatterAlgo::Ring),
        Some(ReduceScatterAlgo::Pairwise),
    ]
    .into_iter()
    .chain([Some(ReduceScatterAlgo::Halving)])
    {
        let mk =
            |g: Group, dt: Datatype, op: ReduceOp, data: Vec<u8>, counts: Vec<usize>| match algo {
                Some(a) => rs::with_algo(a, g, dt, op, data, counts),
                None => rs::machine(g, dt, op, data, counts),
            };
        assert!(matches!(
            mk(g, Datatype::F32, ReduceOp::Band, vec![0; 16], vec![1; 4]),
            Err(ProtoError::InvalidOp { .. })
        ));
        assert!(matches!(
            mk(g, i32_, ReduceOp::MaxLoc, vec![0; 16], vec![1; 4]),
            Err(ProtoError::InvalidOp { .. })
        ));
        // Counts for the wrong number of ranks.
        assert!(invalid_argument(mk(g, i32_, sum, vec![0; 12], vec![1; 3])));
        assert!(invalid_argument(mk(g, i32_, sum, vec![0; 20], vec![1; 5])));
        // Data not matching the counts.
        assert!(invalid_argument(mk(g, i32_, sum, vec![0; 15], vec![1; 4])));
        assert!(invalid_argument(mk(g, i32_, sum, vec![0; 20], vec![1; 4])));
        // Overflow: of a block's bytes, and of the total.
        assert!(invalid_argument(mk(
            g,
            i32_,
            sum,
            vec![],
            vec![usize::MAX / 2, 0, 0, 0]
        )));
        assert!(invalid_argument(mk(
            g,
            Datatype::U8,
            sum,
            vec![],
            vec![usize::MAX, 1, 0, 0]
        )));
        // A group that is not one.
        assert!(invalid_argument(mk(
            bad_group,
            i32_,
            sum,
            vec![0; 16],
            vec![1; 4]
        )));
        assert!(invalid_argument(mk(empty_group, i32_, sum, vec![], vec![])));
    }
    assert!(invalid_argument(rs::with_algo(
        ReduceScatterAlgo::Halving,
        Group::new(0, 6).unwrap(),
        i32_,
        sum,
        vec![0; 24],
        vec![1; 6]
    )));
    // reduce_scatter_block.
    assert!(invalid_argument(rs::block_machine(
        g,
        i32_,
        sum,
        vec![0; 12],
        4
    )));
    assert!(invalid_argument(rs::block_machine(
        g,
        Datatype::U8,
        sum,
        vec![],
        usize::MAX
    )));
    assert!(invalid_argument(rs::block_machine(
        bad_group,
        i32_,
        sum,
        vec![],
        0
    )));
    assert!(invalid_argument(rs::block_machine(
        empty_group,
        i32_,
        sum,
        vec![],
        0
    )));
    assert!(matches!(
        rs::block_machine(g, Datatype::F64, ReduceOp::Bxor, vec![0; 32], 1),
        Err(ProtoError::InvalidOp { .. })
    ));
}

#[test]
fn scan_rejects_bad_arguments() {
    let g = Group::new(1, 4).unwrap();
    let algos = [
        None,
        Some(ScanAlgo::Doubling),
        Some(ScanAlgo::Pipeline { segment_bytes: 8 }),
    ];
    for algo in algos {
        for exclusive in [false, true] {
            let mk = |g: Group, dt: Datatype, op: ReduceOp, data: Vec<u8>| match algo {
                Some(a) => scan::with_algo(a, g, dt, op, data, exclusive),
                None => scan::machine(g, dt, op, data, exclusive),
            };
            assert!(matches!(
                mk(g, Datatype::F64, ReduceOp::Lor, vec![0; 8]),
                Err(ProtoError::InvalidOp { .. })
            ));
            assert!(matches!(
                mk(g, Datatype::I32, ReduceOp::MinLoc, vec![0; 8]),
                Err(ProtoError::InvalidOp { .. })
            ));
            // Not a whole number of elements.
            assert!(invalid_argument(mk(
                g,
                Datatype::I32,
                ReduceOp::Sum,
                vec![0; 6]
            )));
            assert!(invalid_argument(mk(
                Group { rank: 7, size: 4 },
                Datatype::I32,
                ReduceOp::Sum,
                vec![0; 8]
            )));
            assert!(invalid_argument(mk(
                Group { rank: 0, size: 0 },
                Datatype::I32,
                ReduceOp::Sum,
                vec![]
            )));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Bad messages
// ---------------------------------------------------------------------------------------------

/// One machine and the message it is waiting for.
struct Probe {
    name: String,
    make: Box<dyn Fn() -> Box<dyn Collective>>,
    /// The group size.
    n: u32,
    /// (from, step, bytes) of a message the machine accepts now.
    good: (u32, u32, usize),
    /// A group member it never hears from at `good.1`.
    stranger: u32,
}

fn msg(from: u32, step: u32, len: usize) -> Incoming {
    Incoming {
        from,
        step,
        payload: vec![0u8; len].into(),
    }
}

fn probes() -> Vec<Probe> {
    let (dt, op, n) = (Datatype::I32, ReduceOp::Sum, 8u32);
    let counts: Vec<usize> = (0..n as usize).map(|i| i + 1).collect();
    let total: usize = counts.iter().sum();
    let counts_bytes = |j: usize| counts[j] * dt.size();
    let rs_probe = |algo: ReduceScatterAlgo, r: u32, good: (u32, u32, usize), stranger: u32| {
        let counts = counts.clone();
        Probe {
            name: format!("{algo:?} rank {r}"),
            make: Box::new(move || {
                let g = Group::new(r, n).unwrap();
                rs::with_algo(algo, g, dt, op, input(dt, r, total, 0), counts.clone()).unwrap()
            }),
            n,
            good,
            stranger,
        }
    };
    let scan_probe = |algo: ScanAlgo, r: u32, exclusive: bool, good: (u32, u32, usize)| Probe {
        name: format!("{algo:?} rank {r} exclusive={exclusive}"),
        make: Box::new(move || {
            let g = Group::new(r, n).unwrap();
            scan::with_algo(algo, g, dt, op, input(dt, r, 10, 0), exclusive).unwrap()
        }),
        n,
        good,
        stranger: r + 1,
    };
    let mut v = vec![
        // Ring, rank 3: block 3 - 0 - 2 = 1 from rank 2 at step 0.
        rs_probe(ReduceScatterAlgo::Ring, 3, (2, 0, counts_bytes(1)), 4),
        // Pairwise, rank 3: its own block from rank 0 (folded first) at step 3.
        rs_probe(ReduceScatterAlgo::Pairwise, 3, (0, 3, counts_bytes(3)), 3),
        // Halving, rank 3: blocks 1, 3, 5, 7 from rank 2 at step 0.
        rs_probe(
            ReduceScatterAlgo::Halving,
            3,
            (2, 0, [1, 3, 5, 7].map(counts_bytes).iter().sum()),
            1,
        ),
    ];
    for exclusive in [false, true] {
        v.push(scan_probe(ScanAlgo::Doubling, 5, exclusive, (4, 0, 40)));
        v.push(scan_probe(ScanAlgo::Doubling, 5, exclusive, (3, 1, 40)));
        // Three-element segments of ten elements: 12 bytes each but the last.
        let pipe = ScanAlgo::Pipeline { segment_bytes: 12 };
        v.push(scan_probe(pipe, 5, exclusive, (4, 0, 12)));
        v.push(scan_probe(pipe, 5, exclusive, (4, 3 | 1 << 31, 4)));
        v.push(scan_probe(pipe, 5, exclusive, (4, 2, 12)));
    }
    v
}

#[test]
fn machines_reject_bad_messages() {
    for p in probes() {
        let fresh = || {
            let mut m = (p.make)();
            m.start(&mut Outbox::new()).unwrap();
            m
        };
        let (from, step, len) = p.good;
        let mut out = Outbox::new();
        let name = &p.name;

        let mut m = fresh();
        assert!(!m.is_done(), "{name}");
        assert_eq!(
            m.deliver(msg(from, step, len + 1), &mut out),
            Err(ProtoError::LengthMismatch {
                from,
                step,
                expected: len,
                got: len + 1
            }),
            "{name}"
        );
        if len > 0 {
            let got = fresh().deliver(msg(from, step, len - 1), &mut out);
            assert!(
                matches!(got, Err(ProtoError::LengthMismatch { .. })),
                "{name}"
            );
        }
        let unexpected = |f: u32, s: u32| Err(ProtoError::UnexpectedMessage { from: f, step: s });
        assert_eq!(
            fresh().deliver(msg(p.stranger, step, len), &mut out),
            unexpected(p.stranger, step),
            "{name}"
        );
        assert_eq!(
            fresh().deliver(msg(from, 1000, len), &mut out),
            unexpected(from, 1000),
            "{name}"
        );
        assert_eq!(
            fresh().deliver(msg(p.n + 3, step, len), &mut out),
            unexpected(p.n + 3, step),
            "{name}"
        );
        assert_eq!(
            fresh().deliver(msg(from, u32::MAX, len), &mut out),
            unexpected(from, u32::MAX),
            "{name}"
        );

        // The good message is accepted once; a second copy is an error, buffered or not.
        let mut m = fresh();
        m.deliver(msg(from, step, len), &mut out).unwrap();
        let again = m.deliver(msg(from, step, len), &mut out);
        assert!(
            matches!(
                again,
                Err(ProtoError::DuplicateMessage { .. } | ProtoError::UnexpectedMessage { .. })
            ),
            "{name}: {again:?}"
        );
        assert!(!m.is_done(), "{name}");
        assert_eq!(m.finish(), Err(ProtoError::NotFinished), "{name}");
    }
}

#[test]
fn rank_zero_of_a_scan_hears_from_nobody() {
    for algo in [ScanAlgo::Doubling, ScanAlgo::Pipeline { segment_bytes: 4 }] {
        for exclusive in [false, true] {
            let g = Group::new(0, 4).unwrap();
            let mut m =
                scan::with_algo(algo, g, Datatype::I32, ReduceOp::Sum, vec![0; 8], exclusive)
                    .unwrap();
            let mut out = Outbox::new();
            m.start(&mut out).unwrap();
            assert!(m.is_done(), "{algo:?}");
            for (from, step) in [(1, 0), (3, 0), (2, 1)] {
                assert!(m.deliver(msg(from, step, 8), &mut out).is_err(), "{algo:?}");
            }
            let want = if exclusive { vec![] } else { vec![0; 8] };
            assert_eq!(m.finish().unwrap(), want);
        }
    }
}

/// Ranks that disagree about the counts fail with an error, never a hang.
#[test]
fn mismatched_calls_fail() {
    let (dt, op) = (Datatype::I32, ReduceOp::Sum);
    for n in [2u32, 3, 4, 5, 8] {
        for algo in rs_algos(n) {
            let res = sim::run(n, 1, |r| {
                let mut counts = vec![2; n as usize];
                if r == n - 1 {
                    counts.swap(0, 1);
                    counts[0] += 1;
                }
                let total = counts.iter().sum();
                rs::with_algo(
                    algo,
                    Group::new(r, n)?,
                    dt,
                    op,
                    input(dt, r, total, 0),
                    counts,
                )
            });
            assert!(
                matches!(
                    res,
                    Err(SimError::Machine {
                        err: ProtoError::LengthMismatch { .. },
                        ..
                    })
                ),
                "{algo:?} n={n}: {res:?}"
            );
        }
        // Segments of two elements: a last rank with 3 or 5 elements sees a short segment, one
        // with 2 or 6 a different segment count.
        for algo in [ScanAlgo::Doubling, ScanAlgo::Pipeline { segment_bytes: 8 }] {
            for odd in [2, 3, 5, 6] {
                let res = sim::run(n, 1, |r| {
                    let count = if r == n - 1 { odd } else { 4 };
                    let data = input(dt, r, count, 0);
                    scan::with_algo(algo, Group::new(r, n)?, dt, op, data, false)
                });
                assert!(
                    matches!(
                        res,
                        Err(SimError::Machine {
                            err: ProtoError::LengthMismatch { .. }
                                | ProtoError::UnexpectedMessage { .. },
                            ..
                        })
                    ),
                    "{algo:?} n={n} count={odd}: {res:?}"
                );
            }
        }
    }
}
