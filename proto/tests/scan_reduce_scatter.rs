//! reduce_scatter, reduce_scatter_block, scan and exscan under the simulator: results against the
//! sequential reference (and, for floats, against each algorithm's exact combination order), and
//! message, byte and round counts against each algorithm's formula. Error paths are in
//! `scan_reduce_scatter_errors.rs`.

use nexar_proto::algo::reduce_scatter as rs;
use nexar_proto::algo::scan;
use nexar_proto::partition;
use nexar_proto::select::movement::{ReduceScatterAlgo, ScanAlgo};
use nexar_proto::sim::{self, SimError, SimReport, SimRng};
use nexar_proto::testkit::{self, input, lengths, rank_counts, seeds, seq_reduce};
use nexar_proto::{Datatype, Group, ReduceOp};

const RS_ALGOS: [ReduceScatterAlgo; 3] = [
    ReduceScatterAlgo::Ring,
    ReduceScatterAlgo::Pairwise,
    ReduceScatterAlgo::Halving,
];

fn rs_algos(n: u32) -> impl Iterator<Item = ReduceScatterAlgo> {
    RS_ALGOS
        .into_iter()
        .filter(move |&a| a != ReduceScatterAlgo::Halving || n.is_power_of_two())
}

/// The scan variants tested for a vector of `bytes`: doubling, a single-segment pipeline, a
/// pipeline of three or four segments and a pipeline of one-element segments for short vectors.
fn scan_algos(bytes: usize) -> Vec<ScanAlgo> {
    let mut v = vec![
        ScanAlgo::Doubling,
        ScanAlgo::Pipeline {
            segment_bytes: usize::MAX,
        },
        ScanAlgo::Pipeline {
            segment_bytes: bytes / 3,
        },
    ];
    if bytes <= 64 {
        v.push(ScanAlgo::Pipeline { segment_bytes: 0 });
    }
    v
}

/// Delivery-order seeds for a vector of `count` elements: all of [`seeds`] for short vectors;
/// two for the long one in [`lengths`], whose cost (in debug builds) is reductions, not orders.
fn seeds_for(count: usize) -> impl Iterator<Item = u64> {
    seeds().take(if count >= 1000 { 2 } else { usize::MAX })
}

fn floor_log2(n: u32) -> u32 {
    31 - n.leading_zeros()
}

// ---------------------------------------------------------------------------------------------
// Formulas
// ---------------------------------------------------------------------------------------------

fn rs_messages(algo: ReduceScatterAlgo, n: u32) -> usize {
    let n = n as usize;
    match algo {
        ReduceScatterAlgo::Ring | ReduceScatterAlgo::Pairwise => n * (n - 1),
        ReduceScatterAlgo::Halving => n * n.trailing_zeros() as usize,
    }
}

fn rs_rounds(algo: ReduceScatterAlgo, n: u32) -> u32 {
    match algo {
        ReduceScatterAlgo::Ring => n - 1,
        ReduceScatterAlgo::Pairwise => u32::from(n > 1),
        ReduceScatterAlgo::Halving => n.trailing_zeros(),
    }
}

/// Steps of recursive doubling and the messages it sends: `Σ_{2^k < n} (n - 2^k)`.
fn doubling_messages(n: u32) -> usize {
    (0..32)
        .map(|k| 1u64 << k)
        .take_while(|&d| d < u64::from(n))
        .map(|d| (u64::from(n) - d) as usize)
        .sum()
}

fn pipeline_segments(segment_bytes: usize, dtype: Datatype, count: usize) -> usize {
    let seg_elems = (segment_bytes / dtype.size()).max(1);
    count.div_ceil(seg_elems).max(1)
}

fn scan_messages(algo: ScanAlgo, n: u32, dtype: Datatype, count: usize) -> usize {
    match algo {
        ScanAlgo::Doubling => doubling_messages(n),
        ScanAlgo::Pipeline { segment_bytes } => {
            (n as usize - 1) * pipeline_segments(segment_bytes, dtype, count)
        }
    }
}

fn scan_rounds(algo: ScanAlgo, n: u32) -> u32 {
    match algo {
        // ceil(log2 n) steps, but the longest chain of dependent messages uses strictly
        // increasing distances summing to at most n - 1: floor(log2 n) of them.
        ScanAlgo::Doubling => floor_log2(n),
        ScanAlgo::Pipeline { .. } => n - 1,
    }
}

// ---------------------------------------------------------------------------------------------
// Drivers
// ---------------------------------------------------------------------------------------------

/// Receive-count patterns summing to `total`: near-equal blocks (empty ones when `total < n`),
/// and blocks with every third rank (from rank 1) getting nothing.
fn count_patterns(n: u32, total: usize) -> Vec<Vec<usize>> {
    let n = n as usize;
    let even = (0..n)
        .map(|i| partition::block(total, n, i).len())
        .collect();
    let takers: Vec<usize> = (0..n).filter(|i| i % 3 != 1).collect();
    let mut gaps = vec![0; n];
    for (k, &i) in takers.iter().enumerate() {
        gaps[i] = partition::block(total, takers.len(), k).len();
    }
    vec![even, gaps]
}

/// Runs reduce_scatter (`algo`, or the selected one for `None`) on `inputs`.
fn run_rs(
    algo: Option<ReduceScatterAlgo>,
    dtype: Datatype,
    op: ReduceOp,
    inputs: &[Vec<u8>],
    counts: &[usize],
    seed: Option<u64>,
) -> Result<SimReport, SimError> {
    let n = inputs.len() as u32;
    let make = |r: u32| {
        let (g, data, c) = (
            Group::new(r, n)?,
            inputs[r as usize].clone(),
            counts.to_vec(),
        );
        match algo {
            Some(a) => rs::with_algo(a, g, dtype, op, data, c),
            None => rs::machine(g, dtype, op, data, c),
        }
    };
    match seed {
        Some(s) => sim::run(n, s, make),
        None => sim::run_synchronous(n, make),
    }
}

fn run_scan(
    algo: Option<ScanAlgo>,
    dtype: Datatype,
    op: ReduceOp,
    inputs: &[Vec<u8>],
    exclusive: bool,
    seed: Option<u64>,
) -> Result<SimReport, SimError> {
    let n = inputs.len() as u32;
    let make = |r: u32| {
        let (g, data) = (Group::new(r, n)?, inputs[r as usize].clone());
        match algo {
            Some(a) => scan::with_algo(a, g, dtype, op, data, exclusive),
            None => scan::machine(g, dtype, op, data, exclusive),
        }
    };
    match seed {
        Some(s) => sim::run(n, s, make),
        None => sim::run_synchronous(n, make),
    }
}

/// Block `j` of `v` under `counts`, in bytes of `dtype`.
fn block_of(v: &[u8], counts: &[usize], dtype: Datatype, j: usize) -> Vec<u8> {
    let offs = partition::offsets(counts).unwrap();
    v[offs[j] * dtype.size()..offs[j + 1] * dtype.size()].to_vec()
}

/// The sequential reference for every rank's reduce_scatter block.
fn rs_reference(
    dtype: Datatype,
    op: ReduceOp,
    inputs: &[Vec<u8>],
    counts: &[usize],
) -> Vec<Vec<u8>> {
    let full = seq_reduce(op, dtype, inputs);
    (0..inputs.len())
        .map(|j| block_of(&full, counts, dtype, j))
        .collect()
}

/// The sequential reference for every rank's scan (or exscan) result: `seq_reduce` over each
/// prefix, computed incrementally (the same left fold).
fn scan_reference(
    dtype: Datatype,
    op: ReduceOp,
    inputs: &[Vec<u8>],
    exclusive: bool,
) -> Vec<Vec<u8>> {
    let mut inclusive: Vec<Vec<u8>> = vec![inputs[0].clone()];
    for d in &inputs[1..] {
        let next = seq_reduce(
            op,
            dtype,
            &[inclusive[inclusive.len() - 1].clone(), d.clone()],
        );
        inclusive.push(next);
    }
    if exclusive {
        inclusive.pop();
        inclusive.insert(0, Vec::new());
    }
    inclusive
}

/// Checks one reduce_scatter configuration under every seed and synchronously.
fn check_rs(
    algo: Option<ReduceScatterAlgo>,
    dtype: Datatype,
    op: ReduceOp,
    inputs: &[Vec<u8>],
    counts: &[usize],
    want: &[Vec<u8>],
    seeds: impl Iterator<Item = u64>,
) {
    let n = inputs.len() as u32;
    let total: usize = counts.iter().sum::<usize>() * dtype.size();
    let ctx = || format!("{algo:?} {dtype} {op} n={n} counts={counts:?}");
    let sync =
        run_rs(algo, dtype, op, inputs, counts, None).unwrap_or_else(|e| panic!("{}: {e}", ctx()));
    assert_eq!(sync.outputs, want, "{} (synchronous)", ctx());
    if let Some(a) = algo {
        assert_eq!(sync.rounds, rs_rounds(a, n), "{}: rounds", ctx());
        assert_eq!(sync.messages, rs_messages(a, n), "{}: messages", ctx());
    }
    let per_rank: Vec<usize> = (0..n as usize)
        .map(|r| total - counts[r] * dtype.size())
        .collect();
    assert_eq!(sync.bytes_per_rank, per_rank, "{}: bytes per rank", ctx());
    for seed in seeds {
        let rep = run_rs(algo, dtype, op, inputs, counts, Some(seed))
            .unwrap_or_else(|e| panic!("{} seed={seed}: {e}", ctx()));
        assert_eq!(rep.outputs, want, "{} seed={seed}", ctx());
        assert_eq!(rep.messages, sync.messages, "{} seed={seed}", ctx());
        assert_eq!(rep.bytes_per_rank, per_rank, "{} seed={seed}", ctx());
    }
}

/// Checks one scan configuration under every seed and synchronously.
fn check_scan(
    algo: Option<ScanAlgo>,
    dtype: Datatype,
    op: ReduceOp,
    inputs: &[Vec<u8>],
    exclusive: bool,
    want: &[Vec<u8>],
    seeds: impl Iterator<Item = u64>,
) {
    let n = inputs.len() as u32;
    let len = inputs[0].len();
    let ctx = || format!("{algo:?} {dtype} {op} n={n} bytes={len} exclusive={exclusive}");
    let sync = run_scan(algo, dtype, op, inputs, exclusive, None)
        .unwrap_or_else(|e| panic!("{}: {e}", ctx()));
    assert_eq!(sync.outputs, want, "{} (synchronous)", ctx());
    if let Some(a) = algo {
        let count = len / dtype.size();
        assert_eq!(sync.rounds, scan_rounds(a, n), "{}: rounds", ctx());
        assert_eq!(
            sync.messages,
            scan_messages(a, n, dtype, count),
            "{}: messages",
            ctx()
        );
        let bytes = match a {
            ScanAlgo::Doubling => doubling_messages(n) * len,
            ScanAlgo::Pipeline { .. } => (n as usize - 1) * len,
        };
        assert_eq!(sync.bytes, bytes, "{}: bytes", ctx());
    }
    for seed in seeds {
        let rep = run_scan(algo, dtype, op, inputs, exclusive, Some(seed))
            .unwrap_or_else(|e| panic!("{} seed={seed}: {e}", ctx()));
        assert_eq!(rep.outputs, want, "{} seed={seed}", ctx());
        assert_eq!(rep.messages, sync.messages, "{} seed={seed}", ctx());
        assert_eq!(rep.bytes, sync.bytes, "{} seed={seed}", ctx());
    }
}

// ---------------------------------------------------------------------------------------------
// Integer results: full grid for (i32, sum), every (dtype, op) case on a subset
// ---------------------------------------------------------------------------------------------

#[test]
fn reduce_scatter_full_grid() {
    let (dt, op) = (Datatype::I32, ReduceOp::Sum);
    for n in rank_counts() {
        for total in lengths(n) {
            let inputs: Vec<_> = (0..n).map(|r| input(dt, r, total, 1)).collect();
            for counts in count_patterns(n, total) {
                let want = rs_reference(dt, op, &inputs, &counts);
                for algo in rs_algos(n) {
                    check_rs(
                        Some(algo),
                        dt,
                        op,
                        &inputs,
                        &counts,
                        &want,
                        seeds_for(total),
                    );
                }
                check_rs(None, dt, op, &inputs, &counts, &want, 0..1);
            }
        }
    }
}

#[test]
fn reduce_scatter_block_full_grid() {
    let (dt, op) = (Datatype::I64, ReduceOp::Sum);
    for n in rank_counts() {
        for count in [0, 1, 2, 37] {
            let counts = vec![count; n as usize];
            let inputs: Vec<_> = (0..n)
                .map(|r| input(dt, r, count * n as usize, 2))
                .collect();
            let want = rs_reference(dt, op, &inputs, &counts);
            for seed in seeds() {
                let rep = sim::run(n, seed, |r| {
                    let g = Group::new(r, n)?;
                    rs::block_machine(g, dt, op, inputs[r as usize].clone(), count)
                })
                .unwrap();
                assert_eq!(rep.outputs, want, "n={n} count={count} seed={seed}");
            }
        }
    }
}

#[test]
fn reduce_scatter_every_reduction_case() {
    for (dt, op) in testkit::reduction_cases() {
        for n in [1, 3, 4, 7, 8] {
            for total in [0, 1, n as usize + 1, 3 * n as usize + 2] {
                let inputs: Vec<_> = (0..n).map(|r| input(dt, r, total, 3)).collect();
                for counts in count_patterns(n, total) {
                    let want = rs_reference(dt, op, &inputs, &counts);
                    for algo in rs_algos(n) {
                        check_rs(Some(algo), dt, op, &inputs, &counts, &want, 0..3);
                    }
                }
            }
        }
    }
}

#[test]
fn scan_full_grid() {
    let (dt, op) = (Datatype::I32, ReduceOp::Sum);
    for n in rank_counts() {
        for count in lengths(n) {
            let inputs: Vec<_> = (0..n).map(|r| input(dt, r, count, 4)).collect();
            for exclusive in [false, true] {
                let want = scan_reference(dt, op, &inputs, exclusive);
                for algo in scan_algos(count * dt.size()) {
                    check_scan(
                        Some(algo),
                        dt,
                        op,
                        &inputs,
                        exclusive,
                        &want,
                        seeds_for(count),
                    );
                }
                check_scan(None, dt, op, &inputs, exclusive, &want, 0..1);
            }
        }
    }
}

#[test]
fn scan_every_reduction_case() {
    for (dt, op) in testkit::reduction_cases() {
        for n in [1, 2, 3, 5, 8, 13] {
            for count in [0, 1, n as usize + 1, 3 * n as usize + 2] {
                let inputs: Vec<_> = (0..n).map(|r| input(dt, r, count, 5)).collect();
                for exclusive in [false, true] {
                    let want = scan_reference(dt, op, &inputs, exclusive);
                    for algo in scan_algos(count * dt.size()) {
                        check_scan(Some(algo), dt, op, &inputs, exclusive, &want, 0..3);
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Floats: every algorithm's exact combination order, identical under every delivery order
// ---------------------------------------------------------------------------------------------

/// Order-sensitive float data: mantissas of six or seven digits over thirteen decades.
fn float_input(dtype: Datatype, rank: u32, count: usize, salt: u64) -> Vec<u8> {
    let mut rng = SimRng::new(salt ^ (u64::from(rank) << 40) ^ count as u64);
    let mut out = Vec::with_capacity(count * dtype.size());
    for _ in 0..count {
        let mant = (rng.next_u64() % 2_000_001) as f64 - 1e6;
        let v = mant * 10f64.powi((rng.next_u64() % 13) as i32 - 6);
        match dtype {
            Datatype::F32 => out.extend_from_slice(&(v as f32).to_ne_bytes()),
            Datatype::F64 => out.extend_from_slice(&v.to_ne_bytes()),
            _ => unreachable!("float_input takes f32 or f64"),
        }
    }
    out
}

fn op2(dtype: Datatype, op: ReduceOp, left: &[u8], right: &[u8]) -> Vec<u8> {
    seq_reduce(op, dtype, &[left.to_vec(), right.to_vec()])
}

/// A balanced tree over `parts` in order, the lower half on the left.
fn tree(dtype: Datatype, op: ReduceOp, parts: &[Vec<u8>]) -> Vec<u8> {
    if parts.len() == 1 {
        return parts[0].clone();
    }
    let (lo, hi) = parts.split_at(parts.len() / 2);
    op2(dtype, op, &tree(dtype, op, lo), &tree(dtype, op, hi))
}

/// What each reduce_scatter algorithm computes, in its exact order.
fn rs_model(
    algo: ReduceScatterAlgo,
    dtype: Datatype,
    op: ReduceOp,
    inputs: &[Vec<u8>],
    counts: &[usize],
) -> Vec<Vec<u8>> {
    let n = inputs.len();
    (0..n)
        .map(|j| {
            let blocks: Vec<Vec<u8>> = inputs
                .iter()
                .map(|v| block_of(v, counts, dtype, j))
                .collect();
            match algo {
                ReduceScatterAlgo::Pairwise => seq_reduce(op, dtype, &blocks),
                ReduceScatterAlgo::Halving => tree(dtype, op, &blocks),
                ReduceScatterAlgo::Ring => {
                    let rotated: Vec<Vec<u8>> =
                        (j + 1..n).chain(0..=j).map(|i| blocks[i].clone()).collect();
                    seq_reduce(op, dtype, &rotated)
                }
            }
        })
        .collect()
}

/// What each scan algorithm computes, in its exact order.
fn scan_model(
    algo: ScanAlgo,
    dtype: Datatype,
    op: ReduceOp,
    inputs: &[Vec<u8>],
    exclusive: bool,
) -> Vec<Vec<u8>> {
    if let ScanAlgo::Pipeline { .. } = algo {
        return scan_reference(dtype, op, inputs, exclusive);
    }
    let n = inputs.len();
    let mut partial = inputs.to_vec();
    let mut excl: Vec<Option<Vec<u8>>> = vec![None; n];
    let mut d = 1;
    while d < n {
        let before = partial.clone();
        for r in d..n {
            let inc = &before[r - d];
            excl[r] = Some(match &excl[r] {
                None => inc.clone(),
                Some(e) => op2(dtype, op, inc, e),
            });
            partial[r] = op2(dtype, op, inc, &before[r]);
        }
        d *= 2;
    }
    if exclusive {
        excl.into_iter().map(Option::unwrap_or_default).collect()
    } else {
        partial
    }
}

/// Every seed gives the same bits, and they are those of the algorithm's model order (for
/// Pairwise, the sequential left fold itself).
#[test]
fn reduce_scatter_floats_follow_a_fixed_order() {
    let op = ReduceOp::Sum;
    for dt in [Datatype::F32, Datatype::F64] {
        let mut order_mattered = false;
        for n in rank_counts() {
            let total = 3 * n as usize + 5;
            let inputs: Vec<_> = (0..n).map(|r| float_input(dt, r, total, 6)).collect();
            for counts in count_patterns(n, total) {
                let sequential = rs_reference(dt, op, &inputs, &counts);
                for algo in rs_algos(n) {
                    let want = rs_model(algo, dt, op, &inputs, &counts);
                    check_rs(Some(algo), dt, op, &inputs, &counts, &want, seeds());
                    order_mattered |= want != sequential;
                }
            }
        }
        assert!(order_mattered, "{dt} data should be sensitive to order");
    }
}

/// Every seed gives the same bits, and they are those of the algorithm's model order (for the
/// pipeline, the sequential left fold itself).
#[test]
fn scan_floats_follow_a_fixed_order() {
    let op = ReduceOp::Sum;
    for dt in [Datatype::F32, Datatype::F64] {
        let mut order_mattered = false;
        for n in rank_counts() {
            let count = 29;
            let inputs: Vec<_> = (0..n).map(|r| float_input(dt, r, count, 7)).collect();
            for exclusive in [false, true] {
                let sequential = scan_reference(dt, op, &inputs, exclusive);
                for algo in scan_algos(count * dt.size()) {
                    let want = scan_model(algo, dt, op, &inputs, exclusive);
                    check_scan(Some(algo), dt, op, &inputs, exclusive, &want, seeds());
                    order_mattered |= want != sequential;
                }
            }
        }
        assert!(order_mattered, "{dt} data should be sensitive to order");
    }
}
