//! Fault-tolerant agreement (ULFM's `MPIX_Comm_agree`), also the first step of
//! [`Comm::shrink`].
//!
//! The protocol is the sans-IO machine `nexar_proto::fault::agree` (its module documentation
//! has the rules, the assumption they rest on and why they are safe); this file starts it and
//! waits for its decision, and `fault::state` (the engine's agreement feature) feeds it this
//! rank's agreement frames and peer failures and sends what it emits. In short: every member
//! sends its contribution (flag, known failures, acknowledged failures) to every member it
//! does not know failed; the lowest member it does not know failed coordinates, deciding the
//! AND of the flags it holds and the failed set once it holds every live member's
//! contribution; decisions are flooded; a successor coordinator first queries every live
//! member (ballots: a member that answered refuses decisions of lower ballots, and the
//! successor re-sends the highest-ballot decision any member adopted); and a member holding a
//! lower coordinator's decision that becomes the lowest live member sends it again under its
//! own rank, even after it returned (rule 5: without it, a coordinator dying with its decision
//! half sent and a successor dying after its query left members waiting forever).
//!
//! Every survivor thus returns the same value and failed set (and the same error, see
//! [`Agreement::unacknowledged`]). Messages: n(n - 1) contributions and n(n - 1) decisions,
//! plus 2(n - 1) per successor coordinator and n - 1 per rule-5 resend; agreements are rare
//! (recovery), so the flood's cost is accepted. Frames are [`crate::wire::FrameKind::Agree`]
//! (step: contribution 1, decision 2, query 3, promise 4; the ballot in the header's tag),
//! numbered per communicator apart from collectives, so agreement works after a revocation or
//! after failed collectives left their numbers out of step.

use super::state::{Agreements, Driven, send_all};
use crate::comm::{Comm, CommInner};
use crate::error::{Error, Result};
use nexar_proto::Group;
use nexar_proto::fault::agree::{self as machine, Agree};
use std::sync::Arc;

/// What an agreement decided; the same on every member that returns it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Agreement {
    /// Bitwise AND of the flags of the members that took part.
    pub value: u32,
    /// Comm ranks counted as failed, ascending.
    pub failed: Vec<u32>,
    /// True if some member in `failed` was not acknowledged (see [`Comm::ack_failed`]) by
    /// every member that took part: [`Comm::agree`] then fails with
    /// [`crate::ErrorKind::ProcFailed`] on every member.
    pub unacknowledged: bool,
}

impl From<machine::Agreement> for Agreement {
    fn from(a: machine::Agreement) -> Self {
        Self {
            value: a.value,
            failed: a.failed,
            unacknowledged: a.unacknowledged,
        }
    }
}

/// Runs one agreement on `comm` with this rank's `flag`; returns its number and decision.
pub(crate) async fn run(comm: &CommInner, flag: u32) -> Result<(u64, Agreement)> {
    let engine = &comm.engine;
    engine.check_open()?;
    engine.set_recovering();
    let agreements = engine.feature::<Agreements>();
    let seq = comm.fault.next_agreement();
    let key = (comm.context, seq);
    let world = comm.members.world().clone();
    let (failed, acked) = (comm.failed_ranks(), comm.acked_ranks());
    let g = Group::new(comm.rank, comm.size())?;
    let make = |ballot| -> Result<Driven> {
        let m = Agree::new(g, flag, &failed, &acked, ballot)?;
        Ok(Driven::new(m, world.clone(), Arc::downgrade(engine)))
    };
    let failed_now = |w: u32| w != engine.rank && engine.failure_of(w).is_some();
    let sends = agreements
        .table
        .lock()
        .start(engine.rank, key, make, failed_now)?;
    send_all(engine, sends);
    loop {
        let notified = agreements.wake.notified();
        tokio::pin!(notified);
        notified.as_mut().enable();
        engine.check_open()?;
        if let Some(d) = agreements.table.lock().outcome(key) {
            return Ok((seq, d.into()));
        }
        notified.await;
    }
}

impl Comm {
    /// Fault-tolerant agreement among the live members (ULFM's `MPIX_Comm_agree`): returns
    /// the bitwise AND of their `flag`s, the same on every member that returns. Collective
    /// over the live members (call it in the same order everywhere, like a collective); works
    /// on a revoked communicator and completes despite members failing meanwhile (see the
    /// module documentation for the algorithm and its assumption).
    ///
    /// # Errors
    /// [`crate::ErrorKind::ProcFailed`], on every member alike, if a member failed that was
    /// not acknowledged (see [`Comm::ack_failed`]) by every member: use
    /// [`Comm::agree_outcome`] to get the value anyway.
    pub async fn agree(&self, flag: u32) -> Result<u32> {
        let a = self.agree_outcome(flag).await?;
        if a.unacknowledged {
            let first = a.failed.first().copied().unwrap_or(0);
            let w = self.inner.world_rank(first)?;
            return Err(Error::proc_failed(
                w,
                format!(
                    "agreement: ranks {:?} of this communicator failed and not every member \
                     acknowledged it",
                    a.failed
                ),
            ));
        }
        Ok(a.value)
    }

    /// [`Comm::agree`], returning the whole decision even when a failure was not
    /// acknowledged.
    pub async fn agree_outcome(&self, flag: u32) -> Result<Agreement> {
        self.inner.refuse_inter("agreement")?;
        Ok(run(&self.inner, flag).await?.1)
    }

    /// Non-blocking [`Comm::agree_outcome`] (ULFM's `MPIX_Comm_iagree`): takes its place
    /// among this communicator's agreements when called. Agreements are numbered apart from
    /// collectives, so collectives may be called while one is in flight (in any order relative
    /// to it on different members).
    ///
    /// # Errors
    /// As [`Comm::agree_outcome`], from the start or from the request.
    pub fn iagree_outcome(&self, flag: u32) -> Result<crate::Request<Agreement>> {
        self.inner.refuse_inter("agreement")?;
        let inner = self.inner.clone();
        // The first poll, inside `spawn`, takes the agreement's number.
        Ok(crate::Request::spawn(
            &self.inner.engine.runtime,
            async move { Ok(run(&inner, flag).await?.1) },
        ))
    }

    /// Blocking [`Comm::agree`].
    pub fn agree_blocking(&self, flag: u32) -> Result<u32> {
        self.block_on(self.agree(flag))
    }

    /// Blocking [`Comm::agree_outcome`].
    pub fn agree_outcome_blocking(&self, flag: u32) -> Result<Agreement> {
        self.block_on(self.agree_outcome(flag))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Context;
    use crate::wire::{Frame, FrameHeader, FrameKind};
    use machine::{DECIDE, QUERY};
    use std::sync::{Arc, mpsc};
    use std::time::{Duration, Instant};

    /// Sends an agreement frame of the world's first agreement as world rank `from`, whose
    /// part is played by hand here.
    fn inject(ctxs: &[Arc<Context>], from: usize, to: u32, step: u32, ballot: u32, body: &[u8]) {
        let inner = &ctxs[from].world().inner;
        let mut h = FrameHeader::new(FrameKind::Agree, from as u32);
        (h.context, h.seq, h.step, h.tag) = (inner.context, 0, step, ballot as i32);
        let f = Frame::new(h, bytes::Bytes::copy_from_slice(body));
        inner.engine.transport().send(to, f).unwrap();
    }

    /// Waits (at most 5 s) until `cond` holds.
    fn wait_until(what: &str, cond: impl Fn() -> bool) {
        let t = Instant::now();
        while !cond() {
            assert!(t.elapsed() < Duration::from_secs(5), "timed out: {what}");
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// The hang the simulator found in the rules without rule 5
    /// (`proto/tests/faults.rs`), over real engines: ranks 3 and 4 run the engine's agreement;
    /// ranks 0 and 2 are real engines whose agreement part is played by hand (rank 1 is dead
    /// from the start). Coordinator 0 decides and its decision reaches only rank 3 before it
    /// dies; its successor 2 queried rank 4 first (so 4 refuses ballot 0, including 3's flood
    /// of it) and dies before deciding. Rank 3 returned already and is now the lowest live
    /// member: it must send the decision again under its own rank, or rank 4 waits forever.
    #[test]
    fn a_member_holding_an_old_decision_resends_it_when_it_becomes_the_lowest() {
        let ctxs: Vec<Arc<Context>> = Context::in_process(5)
            .unwrap()
            .into_iter()
            .map(Arc::new)
            .collect();
        assert!(ctxs[1].simulate_crash());
        let key = (ctxs[0].world().inner.context, 0);
        let mut results = Vec::new();
        for r in [3, 4] {
            let c = ctxs[r].clone();
            wait_until("rank 1's failure", || c.world().failed_ranks() == vec![1]);
            let (tx, rx) = mpsc::channel();
            std::thread::spawn(move || {
                let _ = tx.send(c.world().agree_outcome_blocking(0b111 ^ (1 << r)));
            });
            let c = ctxs[r].clone();
            let agreements = c.world().inner.engine.feature::<Agreements>();
            wait_until("the agreement's start", || {
                agreements.table.lock().started(key)
            });
            results.push(rx);
        }
        // Successor 2 queries rank 4 only, then coordinator 0's decision reaches rank 3 only.
        inject(&ctxs, 2, 4, QUERY, 2, &[]);
        let decision = machine::Agreement {
            value: 0b001,
            failed: vec![1],
            unacknowledged: true,
        };
        inject(&ctxs, 0, 3, DECIDE, 0, &decision.encode());
        let at_3 = results[0]
            .recv_timeout(Duration::from_secs(5))
            .expect("rank 3 adopts coordinator 0's decision")
            .unwrap();
        assert_eq!(at_3, Agreement::from(decision));
        assert!(ctxs[0].simulate_crash() && ctxs[2].simulate_crash());
        let at_4 = match results[1].recv_timeout(Duration::from_secs(5)) {
            Ok(r) => r.unwrap(),
            Err(_) => {
                // Release rank 4's call before failing.
                ctxs[4].simulate_crash();
                panic!("rank 4 hangs: rank 3 did not resend the decision (rule 5)");
            }
        };
        assert_eq!(at_4, at_3);
    }

    /// On a communicator whose comm ranks are not in world-rank order, frames and failures
    /// reach the right member: the coordinator (comm rank 0, world rank 3) crashes before it
    /// takes part.
    #[test]
    fn a_reordered_communicator_agrees_when_its_coordinator_crashes() {
        let ctxs: Vec<Arc<Context>> = Context::in_process(4)
            .unwrap()
            .into_iter()
            .map(Arc::new)
            .collect();
        let comms: Vec<Comm> = std::thread::scope(|s| {
            let hs: Vec<_> = ctxs
                .iter()
                .map(|c| s.spawn(move || c.world().split_blocking(Some(0), -(c.rank() as i32))))
                .collect();
            hs.into_iter()
                .map(|h| h.join().unwrap().unwrap().unwrap())
                .collect()
        });
        for (w, c) in comms.iter().enumerate() {
            assert_eq!(c.rank(), 3 - w as u32);
        }
        let mut comms = comms.into_iter().map(Some).collect::<Vec<_>>();
        let results: Vec<_> = (0..3)
            .map(|w| {
                let c = comms[w].take().unwrap();
                let (tx, rx) = mpsc::channel();
                std::thread::spawn(move || {
                    let _ = tx.send(c.agree_outcome_blocking(0b111 ^ (1 << c.rank())));
                });
                rx
            })
            .collect();
        std::thread::sleep(Duration::from_millis(20));
        assert!(ctxs[3].simulate_crash());
        for (w, rx) in results.iter().enumerate() {
            let Ok(r) = rx.recv_timeout(Duration::from_secs(5)) else {
                for c in &ctxs[..3] {
                    c.simulate_crash();
                }
                panic!("world rank {w} hangs");
            };
            let a = r.unwrap();
            assert_eq!(
                (a.value, a.failed, a.unacknowledged),
                (0b001, vec![0], true)
            );
        }
    }
}
