//! A seeded, deterministic simulator that runs one collective on N ranks inside one thread.
//!
//! Every emitted message goes into a pool; each step delivers a message picked at random (from a
//! seeded SplitMix64 stream), so tests cover many delivery orders reproducibly. The report counts
//! messages and bytes and the critical-path length in rounds, for checking each algorithm against
//! its formula. [`faults`] runs a collective with crashes, lost messages and stalls injected.

use crate::prelude::*;

use crate::error::ProtoError;
use crate::machine::{Collective, Incoming, Outbox};
use crate::types::Rank;
use alloc::collections::BinaryHeap;
use core::cmp::Reverse;

pub mod faults;

/// SplitMix64: a tiny, good-enough PRNG so proto needs no dependency for randomness.
#[derive(Debug, Clone)]
pub struct SimRng(u64);

impl SimRng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// What a simulated run produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimReport {
    /// Each rank's output from [`Collective::finish`].
    pub outputs: Vec<Vec<u8>>,
    /// Total messages sent.
    pub messages: usize,
    /// Total payload bytes sent.
    pub bytes: usize,
    /// Messages sent by each rank.
    pub sent_per_rank: Vec<usize>,
    /// Payload bytes sent by each rank.
    pub bytes_per_rank: Vec<usize>,
    /// Messages received by each rank.
    pub recv_per_rank: Vec<usize>,
    /// Payload bytes received by each rank.
    pub bytes_recv_per_rank: Vec<usize>,
    /// Latency rounds: the longest chain of messages where each was sent after its sender received
    /// the previous one. Exact under [`run_synchronous`]; an upper bound under [`run`], where a
    /// message that arrived early counts as if it had been needed.
    pub rounds: u32,
}

/// Why a simulated run failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SimError {
    /// A machine returned an error.
    #[error("rank {rank}: {err}")]
    Machine {
        /// Rank whose machine failed.
        rank: Rank,
        /// Its error.
        err: ProtoError,
    },
    /// A message was addressed outside the group.
    #[error("rank {from} sent to rank {to}, outside a group of {size}")]
    BadDestination {
        /// Sender.
        from: Rank,
        /// Destination.
        to: Rank,
        /// Group size.
        size: u32,
    },
    /// A machine sent to itself (algorithms must handle their own data locally).
    #[error("rank {0} sent a message to itself")]
    SelfSend(Rank),
    /// A message arrived at a machine that had already finished.
    #[error("message from {from} step {step} reached rank {to} after it finished")]
    Stray {
        /// Sender.
        from: Rank,
        /// Destination.
        to: Rank,
        /// Step.
        step: u32,
    },
    /// No message is in flight but some ranks are not done.
    #[error("deadlock: ranks {0:?} never finished")]
    Deadlock(Vec<Rank>),
    /// An injected fault does not fit the run (see [`faults::Fault`]).
    #[error("bad fault: {0}")]
    BadFault(String),
}

struct InFlight {
    from: Rank,
    to: Rank,
    step: u32,
    payload: bytes::Bytes,
    depth: u32,
}

/// A message waiting in the synchronous pool, ordered by (depth, arrival): lowest depth first,
/// oldest first among equals.
struct Queued {
    key: (u32, u64),
    m: InFlight,
}

impl PartialEq for Queued {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl Eq for Queued {}

impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Queued {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.key.cmp(&other.key)
    }
}

/// Messages in flight. Random order: a vector, any element taken in O(1). Synchronous order: a
/// heap, so simulating tens of thousands of ranks stays O(messages * log(in flight)).
enum Pool {
    Random(Vec<InFlight>, SimRng),
    Synchronous(BinaryHeap<Reverse<Queued>>, u64),
}

impl Pool {
    fn push(&mut self, m: InFlight) {
        match self {
            Pool::Random(v, _) => v.push(m),
            Pool::Synchronous(h, seq) => {
                *seq += 1;
                h.push(Reverse(Queued {
                    key: (m.depth, *seq),
                    m,
                }));
            }
        }
    }

    fn pop(&mut self) -> Option<InFlight> {
        match self {
            Pool::Random(v, rng) if !v.is_empty() => {
                let idx = rng.below(v.len());
                Some(v.swap_remove(idx))
            }
            Pool::Random(..) => None,
            Pool::Synchronous(h, _) => h.pop().map(|Reverse(q)| q.m),
        }
    }
}

/// Runs one collective on `n` ranks, delivering messages in an order drawn from `seed`;
/// `make(rank)` builds each rank's machine.
pub fn run<F>(n: u32, seed: u64, make: F) -> Result<SimReport, SimError>
where
    F: FnMut(Rank) -> Result<Box<dyn Collective>, ProtoError>,
{
    run_with(n, Some(SimRng::new(seed)), make)
}

/// Runs one collective delivering messages level by level (all messages of round `d` before any
/// of round `d + 1`), the synchronous model in which [`SimReport::rounds`] is exact.
pub fn run_synchronous<F>(n: u32, make: F) -> Result<SimReport, SimError>
where
    F: FnMut(Rank) -> Result<Box<dyn Collective>, ProtoError>,
{
    run_with(n, None, make)
}

fn run_with<F>(n: u32, rng: Option<SimRng>, mut make: F) -> Result<SimReport, SimError>
where
    F: FnMut(Rank) -> Result<Box<dyn Collective>, ProtoError>,
{
    let mut machines: Vec<Box<dyn Collective>> = Vec::with_capacity(n as usize);
    for rank in 0..n {
        machines.push(make(rank).map_err(|err| SimError::Machine { rank, err })?);
    }
    let mut depth = vec![0u32; n as usize];
    let mut pool = match rng {
        Some(rng) => Pool::Random(Vec::new(), rng),
        None => Pool::Synchronous(BinaryHeap::new(), 0),
    };
    let mut report = SimReport {
        outputs: Vec::new(),
        messages: 0,
        bytes: 0,
        sent_per_rank: vec![0; n as usize],
        bytes_per_rank: vec![0; n as usize],
        recv_per_rank: vec![0; n as usize],
        bytes_recv_per_rank: vec![0; n as usize],
        rounds: 0,
    };
    let mut out = Outbox::new();

    let collect = |from: Rank,
                   out: &mut Outbox,
                   pool: &mut Pool,
                   report: &mut SimReport,
                   d: u32|
     -> Result<(), SimError> {
        for m in out.drain() {
            if m.to >= n {
                return Err(SimError::BadDestination {
                    from,
                    to: m.to,
                    size: n,
                });
            }
            if m.to == from {
                return Err(SimError::SelfSend(from));
            }
            report.messages += 1;
            report.bytes += m.payload.len();
            report.sent_per_rank[from as usize] += 1;
            report.bytes_per_rank[from as usize] += m.payload.len();
            pool.push(InFlight {
                from,
                to: m.to,
                step: m.step,
                payload: m.payload,
                depth: d + 1,
            });
        }
        Ok(())
    };

    for rank in 0..n {
        machines[rank as usize]
            .start(&mut out)
            .map_err(|err| SimError::Machine { rank, err })?;
        collect(rank, &mut out, &mut pool, &mut report, 0)?;
    }

    while let Some(m) = pool.pop() {
        let to = m.to as usize;
        if machines[to].is_done() {
            return Err(SimError::Stray {
                from: m.from,
                to: m.to,
                step: m.step,
            });
        }
        depth[to] = depth[to].max(m.depth);
        report.rounds = report.rounds.max(m.depth);
        report.recv_per_rank[to] += 1;
        report.bytes_recv_per_rank[to] += m.payload.len();
        let msg = Incoming {
            from: m.from,
            step: m.step,
            payload: m.payload,
        };
        machines[to]
            .deliver(msg, &mut out)
            .map_err(|err| SimError::Machine { rank: m.to, err })?;
        collect(m.to, &mut out, &mut pool, &mut report, depth[to])?;
    }

    let stuck: Vec<Rank> = (0..n)
        .filter(|&r| !machines[r as usize].is_done())
        .collect();
    if !stuck.is_empty() {
        return Err(SimError::Deadlock(stuck));
    }
    for (rank, m) in machines.into_iter().enumerate() {
        let rank = rank as Rank;
        report
            .outputs
            .push(m.finish().map_err(|err| SimError::Machine { rank, err })?);
    }
    Ok(report)
}
