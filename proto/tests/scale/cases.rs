//! Every collective algorithm the selector can choose, with a way to simulate it on `n` ranks and
//! its closed-form costs, shared by `tests/scale_formulas.rs` (exact equality) and
//! `examples/scale_sim.rs` (the table at 1,024 and 16,384 ranks).
//!
//! `m` is the bytes each rank contributes: the vector of allreduce, reduce, bcast and scan, the
//! block of allgather, gather and scatter, the block per destination of alltoall and the block
//! per rank of reduce-scatter. Reductions use `u8` elements with `bor`, so any `m` is a whole
//! number of elements. Rounds are [`SimReport::rounds`] under [`sim::run_synchronous`]: the
//! longest chain of messages each sent after its sender received the previous one (a sender's
//! own serialisation of several sends does not count). Roots are rank 0.

#![allow(dead_code)]

use nexar_proto::algo::allgather::{self, Algo as AgAlgo};
use nexar_proto::algo::alltoall::{self, Algo as A2aAlgo};
use nexar_proto::algo::barrier::Barrier;
use nexar_proto::algo::gather::{self, Algo as GatherAlgo};
use nexar_proto::algo::scatter::{self, Algo as ScatterAlgo};
use nexar_proto::algo::{allreduce, bcast, ceil_log2, floor_pow2, reduce, reduce_scatter, scan};
use nexar_proto::select::movement::{ReduceScatterAlgo, ScanAlgo};
use nexar_proto::select::reductions::{AllreduceAlgo, BcastAlgo, ReduceAlgo};
use nexar_proto::sim::{self, SimError, SimReport};
use nexar_proto::{Collective, Datatype, Group, ProtoError, Rank, ReduceOp};

/// What a simulation measures, and what a formula predicts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Costs {
    /// Critical path in messages.
    pub rounds: u32,
    /// Messages sent in all.
    pub messages: usize,
    /// Most payload bytes any one rank sent.
    pub max_sent: usize,
    /// Most payload bytes any one rank received.
    pub max_recv: usize,
    /// Payload bytes sent in all (divided by `n`: the mean per rank).
    pub total_bytes: usize,
}

impl Costs {
    /// The measured costs of a simulated run.
    pub fn of(rep: &SimReport) -> Self {
        Self {
            rounds: rep.rounds,
            messages: rep.messages,
            max_sent: rep.bytes_per_rank.iter().copied().max().unwrap_or(0),
            max_recv: rep.bytes_recv_per_rank.iter().copied().max().unwrap_or(0),
            total_bytes: rep.bytes,
        }
    }
}

/// One algorithm: how to run it and what it should cost.
pub struct Case {
    /// `collective/algorithm`.
    pub name: &'static str,
    /// The textbook costs, as printed.
    pub textbook: &'static str,
    /// `n(n-1)` messages or more: too slow to simulate at 16,384 ranks.
    pub quadratic: bool,
    /// Whether the algorithm runs on `n` ranks.
    pub applies: fn(u32) -> bool,
    /// Whether the byte formulas are exact for `(n, m)` (blocked algorithms need `m` to split
    /// evenly); rounds and messages always are.
    pub exact_bytes: fn(u32, usize) -> bool,
    /// Rough bytes of simulator state (inputs, outputs, messages in flight).
    pub memory: fn(u32, usize) -> usize,
    /// Simulates it.
    pub run: fn(u32, usize) -> Result<SimReport, SimError>,
    /// The formulas.
    pub expect: fn(u32, usize) -> Costs,
}

type Make = Result<Box<dyn Collective>, ProtoError>;

fn sync(n: u32, make: impl FnMut(Rank) -> Make) -> Result<SimReport, SimError> {
    sim::run_synchronous(n, make)
}

fn g(r: Rank, n: u32) -> Result<Group, ProtoError> {
    Group::new(r, n)
}

/// `floor(log2 n)`.
pub fn floor_log2(n: u32) -> u32 {
    31 - n.max(1).leading_zeros()
}

fn always(_: u32) -> bool {
    true
}

fn pow2(n: u32) -> bool {
    n.is_power_of_two()
}

fn any_m(_: u32, _: usize) -> bool {
    true
}

fn m_split_n(n: u32, m: usize) -> bool {
    m.is_multiple_of(n as usize)
}

fn m_split_p2(n: u32, m: usize) -> bool {
    m.is_multiple_of(floor_pow2(n) as usize)
}

fn mem_vec(n: u32, m: usize) -> usize {
    4 * n as usize * m
}

fn mem_all(n: u32, m: usize) -> usize {
    3 * (n as usize) * (n as usize) * m
}

/// `max { popcount(v) : v < n }`: depth of the binomial bcast tree. With `t = n - 1` of bit
/// length `b`, `2^(b-1) - 1 <= t` has `b - 1` ones, and only `t` itself may have more.
pub fn binomial_depth(n: u32) -> u32 {
    let t = n.saturating_sub(1);
    let bits = 32 - t.leading_zeros();
    t.count_ones().max(bits.saturating_sub(1))
}

/// Blocks of the subtree of relative rank `v > 0` in a binomial tree over `n` ranks.
fn subtree(v: u32, n: u32) -> u32 {
    (v + (1 << v.trailing_zeros())).min(n) - v
}

/// Synchronous depth of the scatter + chain allgather bcast (as in `tests/bcast.rs`): the chain
/// message of relative rank `v` at step `s` leaves at depth `1 + max(popcount(v), depth of
/// v - 1's step s - 1)`; the root sends everything at depth 1.
fn scatter_allgather_rounds(n: u32) -> u32 {
    let nn = n as usize;
    let mut prev = vec![1u32; nn];
    for v in 1..n.saturating_sub(1) {
        let mut cur = vec![0; nn];
        let mut seen = v.count_ones();
        for s in 0..nn - 1 {
            if s > 0 {
                seen = seen.max(prev[s - 1]);
            }
            cur[s] = 1 + seen;
        }
        prev = cur;
    }
    let chain = prev[..nn.saturating_sub(1)]
        .iter()
        .copied()
        .max()
        .unwrap_or(0);
    binomial_depth(n).max(chain)
}

/// Height of the order-preserving reduce tree over ranks `[lo, hi)` led by `leader` (see
/// `tests/reductions.rs`).
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

/// `(p2, rem, log2 p2)` of the fold to a power of two.
fn fold(n: u32) -> (usize, usize, u32) {
    let p2 = floor_pow2(n);
    (p2 as usize, (n - p2) as usize, p2.trailing_zeros())
}

/// Payload blocks a binomial gather (or scatter) moves: relative rank `v` forwards its subtree.
fn binomial_blocks(n: u32) -> (usize, usize) {
    let sizes = (1..n).map(|v| subtree(v, n) as usize);
    let total = sizes.clone().sum();
    (total, sizes.max().unwrap_or(0))
}

fn reduction_input(r: Rank, m: usize) -> Vec<u8> {
    vec![1u8 << (r % 8); m]
}

fn allreduce_run(n: u32, m: usize, algo: AllreduceAlgo) -> Result<SimReport, SimError> {
    sync(n, |r| {
        let data = reduction_input(r, m);
        allreduce::machine_with(g(r, n)?, Datatype::U8, ReduceOp::Bor, data, algo)
    })
}

fn reduce_scatter_run(n: u32, m: usize, algo: ReduceScatterAlgo) -> Result<SimReport, SimError> {
    sync(n, |r| {
        let data = reduction_input(r, m * n as usize);
        let counts = vec![m; n as usize];
        reduce_scatter::with_algo(algo, g(r, n)?, Datatype::U8, ReduceOp::Bor, data, counts)
    })
}

fn allgather_run(n: u32, m: usize, algo: AgAlgo) -> Result<SimReport, SimError> {
    sync(n, |r| {
        allgather::machine_with(g(r, n)?, vec![r as u8; m], vec![m; n as usize], algo)
    })
}

fn alltoall_run(n: u32, m: usize, algo: A2aAlgo) -> Result<SimReport, SimError> {
    sync(n, |r| {
        let sizes = vec![m; n as usize];
        let data = vec![r as u8; m * n as usize];
        alltoall::machine_with(g(r, n)?, data, sizes.clone(), sizes, algo)
    })
}

fn gather_run(n: u32, m: usize, algo: GatherAlgo) -> Result<SimReport, SimError> {
    sync(n, |r| {
        gather::machine_with(g(r, n)?, 0, vec![r as u8; m], vec![m; n as usize], algo)
    })
}

fn scatter_run(n: u32, m: usize, algo: ScatterAlgo) -> Result<SimReport, SimError> {
    sync(n, |r| {
        let data = if r == 0 {
            vec![7u8; m * n as usize]
        } else {
            Vec::new()
        };
        scatter::machine_with(g(r, n)?, 0, data, vec![m; n as usize], algo)
    })
}

/// Costs where every rank sends and receives the same `per_rank` bytes.
fn even(rounds: u32, messages: usize, n: u32, per_rank: usize) -> Costs {
    Costs {
        rounds,
        messages,
        max_sent: per_rank,
        max_recv: per_rank,
        total_bytes: n as usize * per_rank,
    }
}

/// Every rank sends its `m` bytes to (or on behalf of) every other one, one message per
/// ordered pair, in `rounds`.
fn all_pairs(rounds: u32, n: u32, m: usize) -> Costs {
    let nn = n as usize;
    even(rounds, nn * (nn - 1), n, (nn - 1) * m)
}

/// `steps` exchanges in which every rank sends one message, `(n-1)*m` bytes per rank in all.
fn log_steps(steps: u32, n: u32, m: usize) -> Costs {
    let nn = n as usize;
    even(steps, nn * steps as usize, n, (nn - 1) * m)
}

/// Which way a rooted collective's `n-1` messages flow.
#[derive(Clone, Copy)]
enum Flow {
    /// Towards the root (gather, reduce): the root receives the most.
    ToRoot,
    /// Away from the root (scatter, bcast): the root sends the most.
    FromRoot,
}

/// A rooted collective of `n-1` messages: the root moves `root` bytes, the busiest other rank
/// `other` (in the opposite direction), `total` bytes in all.
fn rooted(flow: Flow, rounds: u32, n: u32, root: usize, other: usize, total: usize) -> Costs {
    let (max_sent, max_recv) = match flow {
        Flow::ToRoot => (other, root),
        Flow::FromRoot => (root, other),
    };
    Costs {
        rounds,
        messages: n as usize - 1,
        max_sent,
        max_recv,
        total_bytes: total,
    }
}

/// A linear gather or scatter: the root exchanges one block with every other rank at once.
fn linear(flow: Flow, n: u32, m: usize) -> Costs {
    let all = (n as usize - 1) * m;
    rooted(flow, u32::from(n > 1), n, all, if_many(n, m), all)
}

/// A binomial gather or scatter: relative rank `v` forwards its subtree's blocks.
fn binomial(flow: Flow, n: u32, m: usize) -> Costs {
    let (total, biggest) = binomial_blocks(n);
    let root = (n as usize - 1) * m;
    rooted(flow, floor_log2(n), n, root, biggest * m, total * m)
}

/// `m` when any message moves at all (`n > 1`), else 0.
fn if_many(n: u32, m: usize) -> usize {
    m * usize::from(n > 1)
}

impl Case {
    /// A case for every `n` whose byte formulas are exact for every `m`, with `O(n log n)`
    /// messages and a vector per rank of simulator state; the modifiers below change that.
    fn new(
        name: &'static str,
        textbook: &'static str,
        run: fn(u32, usize) -> Result<SimReport, SimError>,
        expect: fn(u32, usize) -> Costs,
    ) -> Self {
        Self {
            name,
            textbook,
            quadratic: false,
            applies: always,
            exact_bytes: any_m,
            memory: mem_vec,
            run,
            expect,
        }
    }

    /// `n(n-1)` messages or more.
    fn quadratic(self) -> Self {
        Self {
            quadratic: true,
            ..self
        }
    }

    /// Runs only on the `n` that `applies` accepts.
    fn only(self, applies: fn(u32) -> bool) -> Self {
        Self { applies, ..self }
    }

    /// Byte formulas exact only where `exact_bytes` says so.
    fn exact_when(self, exact_bytes: fn(u32, usize) -> bool) -> Self {
        Self {
            exact_bytes,
            ..self
        }
    }

    /// Simulator state of `memory` bytes.
    fn memory(self, memory: fn(u32, usize) -> usize) -> Self {
        Self { memory, ..self }
    }
}

/// Every case, in table order.
pub fn cases() -> Vec<Case> {
    vec![
        Case::new(
            "barrier/dissemination",
            "ceil(log2 n) rounds, n*ceil(log2 n) empty msgs",
            |n, _| sync(n, |r| Ok(Box::new(Barrier::new(g(r, n)?)))),
            |n, _| {
                let c = ceil_log2(n);
                even(c, n as usize * c as usize, n, 0)
            },
        )
        .memory(|n, _| 256 * n as usize),
        Case::new(
            "bcast/binomial",
            "ceil(log2 n) rounds, n-1 msgs, root sends ceil(log2 n)*m",
            |n, m| {
                sync(n, |r| {
                    bcast::machine_with(g(r, n)?, 0, vec![9u8; m], BcastAlgo::Binomial)
                })
            },
            |n, m| {
                let root = ceil_log2(n) as usize * m;
                rooted(
                    Flow::FromRoot,
                    binomial_depth(n),
                    n,
                    root,
                    if_many(n, m),
                    (n as usize - 1) * m,
                )
            },
        ),
        Case::new(
            "bcast/scatter-allgather",
            "log2 n + n-1 rounds, n(n-1) msgs, root sends 2(n-1)/n*m",
            |n, m| {
                sync(n, |r| {
                    let algo = BcastAlgo::ScatterAllgather;
                    bcast::machine_with(g(r, n)?, 0, vec![9u8; m], algo)
                })
            },
            |n, m| {
                let (nn, b) = (n as usize, m / n as usize);
                let (scattered, biggest) = binomial_blocks(n);
                Costs {
                    rounds: scatter_allgather_rounds(n),
                    messages: nn * (nn - 1),
                    max_sent: 2 * (nn - 1) * b,
                    max_recv: (nn - 1 + biggest) * b * usize::from(n > 1),
                    total_bytes: (scattered + (nn - 1) * (nn - 1)) * b,
                }
            },
        )
        .quadratic()
        .exact_when(m_split_n),
        Case::new(
            "allreduce/recursive-doubling",
            "log2 n rounds, n*log2 n msgs, log2 n * m per rank",
            |n, m| allreduce_run(n, m, AllreduceAlgo::RecursiveDoubling),
            |n, m| {
                let (p2, rem, l) = fold(n);
                let folded = u32::from(rem > 0);
                let most = (l as usize + rem.min(1)) * m;
                Costs {
                    rounds: l + folded * (1 + u32::from(rem > p2 / 2)),
                    messages: p2 * l as usize + 2 * rem,
                    max_sent: most,
                    max_recv: most,
                    total_bytes: (p2 * l as usize + 2 * rem) * m,
                }
            },
        ),
        Case::new(
            "allreduce/ring",
            "2(n-1) rounds, 2n(n-1) msgs, 2(n-1)/n*m per rank",
            |n, m| allreduce_run(n, m, AllreduceAlgo::Ring),
            |n, m| {
                let nn = n as usize;
                even(2 * (n - 1), 2 * nn * (nn - 1), n, 2 * (nn - 1) * (m / nn))
            },
        )
        .quadratic()
        .exact_when(m_split_n),
        Case::new(
            "allreduce/rabenseifner",
            "2 log2 n rounds, 2n log2 n msgs, 2(n-1)/n*m per rank",
            |n, m| allreduce_run(n, m, AllreduceAlgo::Rabenseifner),
            |n, m| {
                let (p2, rem, l) = fold(n);
                let most = 2 * (p2 - 1) * (m / p2) + rem.min(1) * m;
                Costs {
                    rounds: 2 * l + 2 * u32::from(rem > 0),
                    messages: 2 * p2 * l as usize + 2 * rem,
                    max_sent: most,
                    max_recv: most,
                    total_bytes: 2 * (p2 - 1) * m + 2 * rem * m,
                }
            },
        )
        .exact_when(m_split_p2),
        Case::new(
            "reduce/binomial",
            "ceil(log2 n) rounds, n-1 msgs, m per sender",
            |n, m| {
                sync(n, |r| {
                    let data = reduction_input(r, m);
                    let (dt, op) = (Datatype::U8, ReduceOp::Bor);
                    reduce::machine_with(g(r, n)?, 0, dt, op, data, ReduceAlgo::Binomial)
                })
            },
            |n, m| {
                let root = ceil_log2(n) as usize * m;
                rooted(
                    Flow::ToRoot,
                    tree_height(0, n, 0),
                    n,
                    root,
                    if_many(n, m),
                    (n as usize - 1) * m,
                )
            },
        ),
        Case::new(
            "allgather/ring",
            "n-1 rounds, n(n-1) msgs, (n-1)*m per rank",
            |n, m| allgather_run(n, m, AgAlgo::Ring),
            |n, m| all_pairs(n - 1, n, m),
        )
        .quadratic()
        .memory(mem_all),
        Case::new(
            "allgather/recursive-doubling",
            "log2 n rounds, n log2 n msgs, (n-1)*m per rank (n = 2^k)",
            |n, m| allgather_run(n, m, AgAlgo::RecursiveDoubling),
            |n, m| log_steps(n.trailing_zeros(), n, m),
        )
        .only(pow2)
        .memory(mem_all),
        Case::new(
            "allgather/bruck",
            "ceil(log2 n) rounds, n ceil(log2 n) msgs, (n-1)*m per rank",
            |n, m| allgather_run(n, m, AgAlgo::Bruck),
            |n, m| log_steps(ceil_log2(n), n, m),
        )
        .memory(mem_all),
        Case::new(
            "reduce_scatter/halving",
            "log2 n rounds, n log2 n msgs, (n-1)*m per rank (n = 2^k)",
            |n, m| reduce_scatter_run(n, m, ReduceScatterAlgo::Halving),
            |n, m| log_steps(n.trailing_zeros(), n, m),
        )
        .only(pow2)
        .memory(|n, m| mem_vec(n, m * n as usize)),
        Case::new(
            "reduce_scatter/pairwise",
            "1 round, n(n-1) msgs, (n-1)*m per rank",
            |n, m| reduce_scatter_run(n, m, ReduceScatterAlgo::Pairwise),
            |n, m| all_pairs(u32::from(n > 1), n, m),
        )
        .quadratic()
        .memory(mem_all),
        Case::new(
            "reduce_scatter/ring",
            "n-1 rounds, n(n-1) msgs, (n-1)*m per rank",
            |n, m| reduce_scatter_run(n, m, ReduceScatterAlgo::Ring),
            |n, m| all_pairs(n - 1, n, m),
        )
        .quadratic()
        .memory(|n, m| mem_vec(n, m * n as usize)),
        Case::new(
            "alltoall/pairwise",
            "n-1 rounds, n(n-1) msgs, (n-1)*m per rank",
            |n, m| alltoall_run(n, m, A2aAlgo::Pairwise),
            |n, m| all_pairs(n - 1, n, m),
        )
        .quadratic()
        .memory(mem_all),
        Case::new(
            "alltoall/scattered",
            "1 round, n(n-1) msgs, (n-1)*m per rank",
            |n, m| alltoall_run(n, m, A2aAlgo::Scattered),
            |n, m| all_pairs(u32::from(n > 1), n, m),
        )
        .quadratic()
        .memory(mem_all),
        Case::new(
            "gather/linear",
            "1 round, n-1 msgs, root receives (n-1)*m",
            |n, m| gather_run(n, m, GatherAlgo::Linear),
            |n, m| linear(Flow::ToRoot, n, m),
        ),
        Case::new(
            "gather/binomial",
            "floor(log2 n) rounds, n-1 msgs, root receives (n-1)*m",
            |n, m| gather_run(n, m, GatherAlgo::Binomial),
            |n, m| binomial(Flow::ToRoot, n, m),
        ),
        Case::new(
            "scatter/linear",
            "1 round, n-1 msgs, root sends (n-1)*m",
            |n, m| scatter_run(n, m, ScatterAlgo::Linear),
            |n, m| linear(Flow::FromRoot, n, m),
        ),
        Case::new(
            "scatter/binomial",
            "floor(log2 n) rounds, n-1 msgs, root sends (n-1)*m",
            |n, m| scatter_run(n, m, ScatterAlgo::Binomial),
            |n, m| binomial(Flow::FromRoot, n, m),
        ),
        Case::new(
            "scan/doubling",
            "ceil(log2 n) steps, sum_k (n-2^k) msgs, rank 0 sends ceil(log2 n)*m",
            |n, m| {
                sync(n, |r| {
                    let data = reduction_input(r, m);
                    let (dt, op) = (Datatype::U8, ReduceOp::Bor);
                    scan::with_algo(ScanAlgo::Doubling, g(r, n)?, dt, op, data, false)
                })
            },
            |n, m| {
                let msgs: usize = (0..ceil_log2(n)).map(|k| (n - (1 << k)) as usize).sum();
                Costs {
                    rounds: floor_log2(n),
                    messages: msgs,
                    max_sent: ceil_log2(n) as usize * m,
                    max_recv: ceil_log2(n) as usize * m,
                    total_bytes: msgs * m,
                }
            },
        ),
    ]
}
