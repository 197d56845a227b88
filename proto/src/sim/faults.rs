//! Fault injection for the simulator: a run where ranks crash, messages are lost and ranks
//! stall, all drawn from one seed, so a failing case replays exactly.
//!
//! The model is the engine's failure model. A crash is fail-stop: from its step on, the rank
//! sends and receives nothing; each of its messages still in flight is lost or delivered (a coin
//! from the seed), as a process dying mid-send leaves some bytes in the network and not others.
//! Every live rank is then told, at a random later step, through
//! [`Collective::peer_failed`] (the engine's
//! `CollEvent::PeerLost`, sent on `mark_failed`). Nothing else ever reports a failure: a rank is
//! never suspected wrongly. A dropped message is lost without a notice; the engine's links are
//! reliable, so on its own a drop is outside the model (it shows what a protocol does when a
//! link loses a message, typically hang, which the run reports); a crashed sender's lost
//! messages are the drops the model has. A stall holds every delivery to a rank (messages and
//! notices) for a number of steps.
//!
//! A *step* is one event taken from the pool (a message or a notice, picked at random); time
//! also advances to the next crash or the end of a stall when nothing is in flight. The run
//! ends when nothing is in flight and no fault is pending, and says for every rank whether it
//! finished, failed and why, crashed, or is still waiting: a hang is reported, never looped on.

use crate::prelude::*;

use super::{SimError, SimRng};
use crate::error::ProtoError;
use crate::machine::{Collective, Incoming, Outbox};
use crate::types::Rank;
use alloc::collections::BTreeSet;
use bytes::Bytes;

/// Most steps one run takes; a run that gets there is cut short ([`FaultReport::exhausted`]),
/// so a protocol that never stops sending cannot loop forever.
pub const MAX_STEPS: u64 = 1 << 22;

/// One injected fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// The rank failed before the call: it never starts, and every other rank is told at once
    /// (the engine's callers pass it as already failed where the protocol takes that input).
    Dead {
        /// The rank.
        rank: Rank,
    },
    /// The rank crashes before step `step` (0: right after every rank started).
    Crash {
        /// The rank.
        rank: Rank,
        /// The step it crashes at.
        step: u64,
    },
    /// The `message`-th message sent in the run (counting from 0, in send order) is lost.
    Drop {
        /// Its index.
        message: u64,
    },
    /// Deliveries to `rank` taken from the pool during steps `step..step + steps` are held until
    /// step `step + steps`.
    Stall {
        /// The rank.
        rank: Rank,
        /// First step of the stall.
        step: u64,
        /// How long it lasts.
        steps: u64,
    },
}

/// Why a live rank's part failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// Its machine gave up when told this rank failed
    /// ([`crate::machine::PeerFailed`]).
    PeerFailed(Rank),
    /// Its machine returned an error.
    Machine(ProtoError),
    /// It broke the simulator's rules (a bad destination, a message to itself).
    Sim(SimError),
}

/// How one rank's part of the run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Done; its output from [`Collective::finish`].
    Finished(Vec<u8>),
    /// Failed with this error.
    Failed(Failure),
    /// Crashed at this step (injected).
    Crashed(u64),
    /// Failed before the call (injected [`Fault::Dead`]).
    Dead,
    /// Live, not done, and nothing left that could move it: a hang.
    Waiting,
}

/// What a run with faults produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FaultReport {
    /// Every rank's outcome, by rank.
    pub outcomes: Vec<Outcome>,
    /// Messages sent.
    pub sent: usize,
    /// Messages delivered.
    pub delivered: usize,
    /// Messages delivered, by sender.
    pub delivered_from: Vec<usize>,
    /// Messages never delivered: dropped by [`Fault::Drop`], lost with a crashed sender, or
    /// addressed to a rank that crashed or failed.
    pub lost: usize,
    /// Messages that reached a rank after it was done, as (from, to, step), for a machine that
    /// does not [`serve after done`](Collective::serves_after_done); not delivered.
    pub strays: Vec<(Rank, Rank, u32)>,
    /// Steps taken.
    pub steps: u64,
    /// True if the run stopped at its step cap ([`MAX_STEPS`] unless given) with events still
    /// in flight.
    pub exhausted: bool,
}

impl FaultReport {
    /// Ranks that did not crash and were not dead before the call.
    pub fn survivors(&self) -> Vec<Rank> {
        self.ranks(|o| !matches!(o, Outcome::Crashed(_) | Outcome::Dead))
    }

    /// Live ranks still waiting when the run ended (a hang).
    pub fn waiting(&self) -> Vec<Rank> {
        self.ranks(|o| matches!(o, Outcome::Waiting))
    }

    fn ranks(&self, keep: impl Fn(&Outcome) -> bool) -> Vec<Rank> {
        (0..self.outcomes.len() as Rank)
            .filter(|&r| keep(&self.outcomes[r as usize]))
            .collect()
    }
}

/// How many faults of each kind [`FaultMix::plan`] draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FaultMix {
    /// Ranks dead before the call.
    pub dead: u32,
    /// Ranks that crash during the run.
    pub crashes: u32,
    /// Messages dropped.
    pub drops: u32,
    /// Stalls.
    pub stalls: u32,
    /// Crash steps, dropped message indices and stall starts are drawn below this.
    pub horizon: u64,
    /// Longest stall, in steps.
    pub max_stall: u64,
}

impl FaultMix {
    /// A plan for `n` ranks drawn from `seed`: distinct ranks for the dead and the crashed, at
    /// least one rank left alive (fewer failures than asked when `n` is small).
    pub fn plan(&self, n: u32, seed: u64) -> Vec<Fault> {
        let mut rng = SimRng::new(seed ^ 0xFA17_FA17_FA17_FA17);
        let horizon = self.horizon.max(1) as usize;
        let mut ranks: Vec<Rank> = (0..n).collect();
        // A seeded shuffle: the first ranks are the ones that fail.
        for i in (1..ranks.len()).rev() {
            ranks.swap(i, rng.below(i + 1));
        }
        let failing = (self.dead + self.crashes).min(n.saturating_sub(1)) as usize;
        let dead = (self.dead as usize).min(failing);
        let mut plan = Vec::new();
        for (i, &rank) in ranks[..failing].iter().enumerate() {
            plan.push(if i < dead {
                Fault::Dead { rank }
            } else {
                Fault::Crash {
                    rank,
                    step: rng.below(horizon) as u64,
                }
            });
        }
        for _ in 0..self.drops {
            plan.push(Fault::Drop {
                message: rng.below(horizon) as u64,
            });
        }
        for _ in 0..self.stalls {
            plan.push(Fault::Stall {
                rank: rng.below(n.max(1) as usize) as Rank,
                step: rng.below(horizon) as u64,
                steps: 1 + rng.below(self.max_stall.max(1) as usize) as u64,
            });
        }
        plan
    }
}

/// A message or a failure notice on its way to rank `to`.
enum Event {
    Msg {
        from: Rank,
        to: Rank,
        step: u32,
        payload: Bytes,
    },
    Notice {
        to: Rank,
        failed: Rank,
    },
}

impl Event {
    fn to(&self) -> Rank {
        match self {
            Event::Msg { to, .. } | Event::Notice { to, .. } => *to,
        }
    }

    fn sent_by(&self, r: Rank) -> bool {
        matches!(self, Event::Msg { from, .. } if *from == r)
    }
}

/// A rank's state during the run.
enum State {
    Running,
    Done,
    Failed(Failure),
    Crashed(u64),
    Dead,
}

impl State {
    fn gone(&self) -> bool {
        matches!(self, State::Crashed(_) | State::Dead)
    }
}

struct Run {
    n: u32,
    machines: Vec<Box<dyn Collective>>,
    state: Vec<State>,
    rng: SimRng,
    pool: Vec<Event>,
    /// Events held by a stall, with the step they are released at.
    held: Vec<(u64, Event)>,
    drops: BTreeSet<u64>,
    stalls: Vec<(Rank, u64, u64)>,
    step: u64,
    out: Outbox,
    report: FaultReport,
}

impl Run {
    /// Whether rank `r` still takes events (a machine that serves after done does).
    fn takes(&self, r: Rank) -> bool {
        match self.state[r as usize] {
            State::Running => true,
            State::Done => self.machines[r as usize].serves_after_done(),
            _ => false,
        }
    }

    /// Sends what rank `from` emitted, after a call that returned `res`.
    fn collect(&mut self, from: Rank, res: Result<(), Failure>) {
        if let Err(f) = res {
            self.out.drain();
            self.state[from as usize] = State::Failed(f);
            return;
        }
        let msgs: Vec<_> = self.out.drain().collect();
        for m in msgs {
            let bad = if m.to >= self.n {
                Some(SimError::BadDestination {
                    from,
                    to: m.to,
                    size: self.n,
                })
            } else if m.to == from {
                Some(SimError::SelfSend(from))
            } else {
                None
            };
            if let Some(e) = bad {
                self.state[from as usize] = State::Failed(Failure::Sim(e));
                return;
            }
            let id = self.report.sent as u64;
            self.report.sent += 1;
            if self.drops.contains(&id) {
                self.report.lost += 1;
                continue;
            }
            self.pool.push(Event::Msg {
                from,
                to: m.to,
                step: m.step,
                payload: m.payload,
            });
        }
        if matches!(self.state[from as usize], State::Running)
            && self.machines[from as usize].is_done()
        {
            self.state[from as usize] = State::Done;
        }
    }

    /// Tells every rank that still takes events that `failed` failed.
    fn notify(&mut self, failed: Rank) {
        for to in 0..self.n {
            if to != failed && self.takes(to) {
                self.pool.push(Event::Notice { to, failed });
            }
        }
    }

    fn crash(&mut self, rank: Rank) {
        if self.state[rank as usize].gone() {
            return;
        }
        self.state[rank as usize] = State::Crashed(self.step);
        // Each message still in flight from it is lost or delivered, by a coin.
        let before = self.pool.len() + self.held.len();
        let rng = &mut self.rng;
        self.pool.retain(|e| !e.sent_by(rank) || rng.below(2) == 1);
        self.held
            .retain(|(_, e)| !e.sent_by(rank) || rng.below(2) == 1);
        self.report.lost += before - self.pool.len() - self.held.len();
        self.notify(rank);
    }

    /// The step a stall of `to` holds an event taken now until, if any.
    fn stalled(&self, to: Rank) -> Option<u64> {
        self.stalls
            .iter()
            .filter(|&&(r, from, until)| r == to && from <= self.step && self.step < until)
            .map(|&(_, _, until)| until)
            .max()
    }

    fn handle(&mut self, ev: Event) {
        let to = ev.to();
        if !self.takes(to) {
            if let Event::Msg { from, step, .. } = ev {
                if matches!(self.state[to as usize], State::Done) {
                    self.report.strays.push((from, to, step));
                } else {
                    self.report.lost += 1;
                }
            }
            return;
        }
        let m = &mut self.machines[to as usize];
        let res = match ev {
            Event::Msg {
                from,
                step,
                payload,
                ..
            } => {
                self.report.delivered += 1;
                self.report.delivered_from[from as usize] += 1;
                m.deliver(
                    Incoming {
                        from,
                        step,
                        payload,
                    },
                    &mut self.out,
                )
                .map_err(Failure::Machine)
            }
            Event::Notice { failed, .. } => m
                .peer_failed(failed, &mut self.out)
                .map_err(|e| Failure::PeerFailed(e.rank)),
        };
        self.collect(to, res);
    }
}

/// Runs one collective on `n` ranks with `faults` injected; delivery order, crash losses and
/// notice timing are drawn from `seed`. `make(rank)` builds each rank's machine (also for dead
/// ranks, which are never started). Fails only if a machine cannot be built or a fault names a
/// rank outside the group; everything a rank does is in its [`Outcome`].
pub fn run_with_faults<F>(
    n: u32,
    seed: u64,
    faults: &[Fault],
    make: F,
) -> Result<FaultReport, SimError>
where
    F: FnMut(Rank) -> Result<Box<dyn Collective>, ProtoError>,
{
    run_with_faults_capped(n, seed, faults, MAX_STEPS, make)
}

/// [`run_with_faults`], cut short after `max_steps` steps instead of [`MAX_STEPS`].
pub fn run_with_faults_capped<F>(
    n: u32,
    seed: u64,
    faults: &[Fault],
    max_steps: u64,
    mut make: F,
) -> Result<FaultReport, SimError>
where
    F: FnMut(Rank) -> Result<Box<dyn Collective>, ProtoError>,
{
    let mut crashes: Vec<(u64, Rank)> = Vec::new();
    let mut dead = Vec::new();
    let mut drops = BTreeSet::new();
    let mut stalls = Vec::new();
    for f in faults {
        let rank = match *f {
            Fault::Dead { rank } => {
                dead.push(rank);
                rank
            }
            Fault::Crash { rank, step } => {
                crashes.push((step, rank));
                rank
            }
            Fault::Drop { message } => {
                drops.insert(message);
                0
            }
            Fault::Stall { rank, step, steps } => {
                stalls.push((rank, step, step.saturating_add(steps)));
                rank
            }
        };
        if rank >= n {
            return Err(SimError::BadFault(format!(
                "{f:?} names a rank outside a group of {n}"
            )));
        }
    }
    // Latest first, so the next crash is popped from the end.
    crashes.sort_unstable_by(|a, b| b.cmp(a));
    let mut machines = Vec::with_capacity(n as usize);
    for rank in 0..n {
        machines.push(make(rank).map_err(|err| SimError::Machine { rank, err })?);
    }
    let mut run = Run {
        n,
        machines,
        state: (0..n).map(|_| State::Running).collect(),
        rng: SimRng::new(seed),
        pool: Vec::new(),
        held: Vec::new(),
        drops,
        stalls,
        step: 0,
        out: Outbox::new(),
        report: FaultReport {
            outcomes: Vec::new(),
            sent: 0,
            delivered: 0,
            delivered_from: vec![0; n as usize],
            lost: 0,
            strays: Vec::new(),
            steps: 0,
            exhausted: false,
        },
    };
    for &r in &dead {
        run.state[r as usize] = State::Dead;
    }
    for rank in 0..n {
        if run.state[rank as usize].gone() {
            continue;
        }
        let res = run.machines[rank as usize]
            .start(&mut run.out)
            .map_err(Failure::Machine);
        run.collect(rank, res);
    }
    for &r in &dead {
        run.notify(r);
    }
    loop {
        while let Some(&(at, rank)) = crashes.last()
            && at <= run.step
        {
            crashes.pop();
            run.crash(rank);
        }
        let step = run.step;
        let (ready, later): (Vec<_>, Vec<_>) = core::mem::take(&mut run.held)
            .into_iter()
            .partition(|&(at, _)| at <= step);
        run.held = later;
        run.pool.extend(ready.into_iter().map(|(_, e)| e));
        if run.pool.is_empty() {
            // Nothing in flight: time moves on to the next crash or stall end, if any.
            let next = crashes
                .last()
                .map(|&(at, _)| at)
                .into_iter()
                .chain(run.held.iter().map(|&(at, _)| at))
                .min();
            match next {
                Some(at) => {
                    run.step = at.max(run.step);
                    continue;
                }
                None => break,
            }
        }
        if run.step >= max_steps {
            run.report.exhausted = true;
            break;
        }
        let i = run.rng.below(run.pool.len());
        let ev = run.pool.swap_remove(i);
        match run.stalled(ev.to()) {
            Some(until) => run.held.push((until, ev)),
            None => run.handle(ev),
        }
        run.step += 1;
    }
    run.report.steps = run.step;
    let Run {
        machines,
        state,
        mut report,
        ..
    } = run;
    for (m, s) in machines.into_iter().zip(state) {
        report.outcomes.push(match s {
            State::Running => Outcome::Waiting,
            State::Done => match m.finish() {
                Ok(v) => Outcome::Finished(v),
                Err(e) => Outcome::Failed(Failure::Machine(e)),
            },
            State::Failed(f) => Outcome::Failed(f),
            State::Crashed(at) => Outcome::Crashed(at),
            State::Dead => Outcome::Dead,
        });
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::barrier::Barrier;
    use crate::machine::PeerFailed;
    use crate::types::Group;

    fn barrier(n: u32) -> impl FnMut(Rank) -> Result<Box<dyn Collective>, ProtoError> {
        move |r| Ok(Box::new(Barrier::new(Group::new(r, n)?)) as Box<dyn Collective>)
    }

    #[test]
    fn a_stall_delays_a_rank_and_the_run_still_ends() {
        let plain = run_with_faults(2, 0, &[], barrier(2)).unwrap();
        assert_eq!(plain.steps, 2);
        let stall = Fault::Stall {
            rank: 1,
            step: 0,
            steps: 1000,
        };
        let r = run_with_faults(2, 0, &[stall], barrier(2)).unwrap();
        assert!(r.steps >= 1000, "{r:?}");
        assert!(r.outcomes.iter().all(|o| matches!(o, Outcome::Finished(_))));
    }

    #[test]
    fn a_crash_is_told_to_the_survivors_and_a_drop_is_a_hang() {
        for seed in 0..20 {
            let crash = Fault::Crash { rank: 1, step: 0 };
            let r = run_with_faults(3, seed, &[crash], barrier(3)).unwrap();
            assert_eq!(r.outcomes[1], Outcome::Crashed(0));
            assert_eq!(r.survivors(), vec![0, 2]);
            for s in [0, 2] {
                assert!(
                    matches!(
                        r.outcomes[s],
                        Outcome::Finished(_) | Outcome::Failed(Failure::PeerFailed(1))
                    ),
                    "{:?}",
                    r.outcomes[s]
                );
            }
            let dead = run_with_faults(3, seed, &[Fault::Dead { rank: 2 }], barrier(3)).unwrap();
            assert_eq!(dead.outcomes[2], Outcome::Dead);
            assert_eq!(dead.delivered_from[2], 0);
            let drop = run_with_faults(3, seed, &[Fault::Drop { message: 0 }], barrier(3)).unwrap();
            assert!(!drop.waiting().is_empty() && !drop.exhausted);
            assert_eq!(drop.lost, 1);
        }
    }

    /// Sends to its peer on every message and on start, forever.
    struct PingPong(Rank);

    impl Collective for PingPong {
        fn start(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
            out.send(1 - self.0, 0, Bytes::new());
            Ok(())
        }
        fn deliver(&mut self, _: Incoming, out: &mut Outbox) -> Result<(), ProtoError> {
            self.start(out)
        }
        fn is_done(&self) -> bool {
            false
        }
        fn finish(self: Box<Self>) -> Result<Vec<u8>, ProtoError> {
            Err(ProtoError::NotFinished)
        }
        fn peer_failed(&mut self, rank: Rank, _: &mut Outbox) -> Result<(), PeerFailed> {
            Err(PeerFailed { rank })
        }
    }

    #[test]
    fn a_protocol_that_never_stops_is_cut_short() {
        let make = |r: Rank| Ok(Box::new(PingPong(r)) as Box<dyn Collective>);
        let r = run_with_faults_capped(2, 0, &[], 500, make).unwrap();
        assert!(r.exhausted);
        assert_eq!(r.steps, 500);
        assert_eq!(r.waiting(), vec![0, 1]);
        // A crash ends it: the survivor is told and gives up.
        let crash = Fault::Crash { rank: 0, step: 10 };
        let r = run_with_faults_capped(2, 0, &[crash], 500, make).unwrap();
        assert!(!r.exhausted);
        assert_eq!(r.outcomes[1], Outcome::Failed(Failure::PeerFailed(0)));
    }

    #[test]
    fn bad_destinations_and_self_sends_fail_the_sender() {
        struct To(Rank);
        impl Collective for To {
            fn start(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
                out.send(self.0, 0, Bytes::new());
                Ok(())
            }
            fn deliver(&mut self, m: Incoming, _: &mut Outbox) -> Result<(), ProtoError> {
                Err(m.unexpected())
            }
            fn is_done(&self) -> bool {
                false
            }
            fn finish(self: Box<Self>) -> Result<Vec<u8>, ProtoError> {
                Err(ProtoError::NotFinished)
            }
        }
        let r = run_with_faults(2, 0, &[], |r| {
            Ok(Box::new(To(if r == 0 { 5 } else { 1 })) as Box<dyn Collective>)
        })
        .unwrap();
        assert!(matches!(
            r.outcomes[0],
            Outcome::Failed(Failure::Sim(SimError::BadDestination { to: 5, .. }))
        ));
        assert_eq!(
            r.outcomes[1],
            Outcome::Failed(Failure::Sim(SimError::SelfSend(1)))
        );
    }
}
