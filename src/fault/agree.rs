//! Fault-tolerant agreement (ULFM's `MPIX_Comm_agree`), also the first step of
//! [`Comm::shrink`].
//!
//! Algorithm (one coordinator, decisions flooded). Assumption: failures are fail-stop and
//! every live member eventually detects each failure (the transports' liveness checks);
//! the protocol never waits on a rank this rank knows failed.
//!
//! 1. Each member's *contribution* is its flag, the members it knows failed and the ones it
//!    acknowledged; it sends it to every member it does not know failed. The *coordinator*
//!    (in a member's view) is the lowest-ranked member it does not know failed. Sending to
//!    all (not only the current coordinator) lets a new coordinator decide as soon as it has
//!    detected the failures itself, without waiting for every member to detect them.
//! 2. The coordinator waits until it holds the contribution of every member it does not know
//!    failed, then *decides*: the bitwise AND of every flag it holds, the failed set (the
//!    union of the reported failed sets, the members it holds no contribution from and those
//!    it now knows failed), and whether some failed member was not acknowledged by every
//!    contributor.
//! 3. Whoever decides or receives a decision it may adopt (see 4) adopts it, sends it to
//!    every member it does not know failed, and returns. Flooding the decision means that if
//!    any live member holds a decision, every live member ends up with that same decision,
//!    even when the coordinator dies part-way through sending it.
//! 4. **Ballots** close the window in which a coordinator dies while its decision is in
//!    flight and its successor decides differently. Each decision carries its coordinator's
//!    comm rank as a ballot. Rank 0 (the first coordinator) decides at once; a later
//!    coordinator first *queries* every live member with its ballot. A member answers at
//!    once, from the engine, whether or not its own call still runs, with the decision it
//!    adopted (if any), and from then on refuses decisions of lower ballots. Only when every
//!    live member answered does the successor decide: it re-sends the adopted decision of
//!    the highest ballot if any member holds one, else its own. So a decision is either
//!    adopted by some member before it answered (and the successor learns and keeps it), or
//!    refused by every member that answered: no two survivors return different decisions.
//!    A rank adopts one decision per agreement, under the agreement's lock shared with the
//!    answers, so an adoption and an answer never cross.
//!
//! Every survivor thus returns the same value and failed set (and the same error, see
//! [`Agreement::unacknowledged`]). Messages: n(n - 1) contributions and n(n - 1) decisions,
//! plus 2(n - 1) per successor coordinator; agreements are rare (recovery), so the flood's
//! cost is accepted. Frames are [`crate::wire::FrameKind::Agree`], numbered per communicator
//! apart from collectives, so agreement works after a revocation or after failed collectives
//! left their numbers out of step.

use super::state::Agreements;
use crate::comm::{Comm, CommInner};
use crate::error::{Error, Result};
use crate::wire::{Frame, FrameHeader, FrameKind};
use bytes::Bytes;

/// Frame step of a member's contribution.
const CONTRIBUTE: u32 = 1;
/// Frame step of a decision (its ballot in the header's tag).
const DECIDE: u32 = 2;
/// Frame step of a coordinator's query (its ballot in the tag), answered by the engine.
pub(crate) const QUERY: u32 = 3;
/// Frame step of the answer to a query (the query's ballot in the tag).
pub(crate) const PROMISE: u32 = 4;

/// Encodes an answer to a query: the ballot promised, then, if a decision was adopted, its
/// ballot and the decision.
pub(crate) fn encode_promise(b: &crate::fault::state::Ballot) -> Bytes {
    let mut out = b.promised.to_le_bytes().to_vec();
    if let Some((ballot, d)) = &b.adopted {
        out.extend_from_slice(&ballot.to_le_bytes());
        out.extend_from_slice(d);
    }
    out.into()
}

/// A member's answer to a query: the ballot it promised, and the decision it adopted with its
/// ballot.
type Answer = (u32, Option<(u32, Bytes)>);

/// Decodes an answer to a query for a communicator of `n` members; `None` if malformed.
fn decode_promise(p: &[u8], n: usize) -> Option<Answer> {
    let at = &mut 0;
    let promised = word(p, at)?;
    if *at == p.len() {
        return Some((promised, None));
    }
    let ballot = word(p, at)?;
    let d = Bytes::copy_from_slice(&p[*at..]);
    Agreement::decode(&d, n)?;
    Some((promised, Some((ballot, d))))
}

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

/// One member's input.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Contribution {
    flag: u32,
    failed: Vec<u32>,
    acked: Vec<u32>,
}

fn put_list(out: &mut Vec<u8>, l: &[u32]) {
    out.extend_from_slice(&(l.len() as u32).to_le_bytes());
    for x in l {
        out.extend_from_slice(&x.to_le_bytes());
    }
}

/// Reads a u32 at `*at`.
fn word(p: &[u8], at: &mut usize) -> Option<u32> {
    let w = u32::from_le_bytes(p.get(*at..*at + 4)?.try_into().ok()?);
    *at += 4;
    Some(w)
}

/// Reads a rank list, every entry below `n`; sorted and deduplicated.
fn list(p: &[u8], at: &mut usize, n: usize) -> Option<Vec<u32>> {
    let len = word(p, at)? as usize;
    if len > n {
        return None;
    }
    let mut l = (0..len)
        .map(|_| word(p, at).filter(|&r| (r as usize) < n))
        .collect::<Option<Vec<u32>>>()?;
    l.sort_unstable();
    l.dedup();
    Some(l)
}

impl Contribution {
    fn encode(&self) -> Bytes {
        let mut out = self.flag.to_le_bytes().to_vec();
        put_list(&mut out, &self.failed);
        put_list(&mut out, &self.acked);
        out.into()
    }

    /// Parses a contribution for a communicator of `n` members; `None` if malformed.
    fn decode(p: &[u8], n: usize) -> Option<Self> {
        let at = &mut 0;
        let c = Self {
            flag: word(p, at)?,
            failed: list(p, at, n)?,
            acked: list(p, at, n)?,
        };
        (*at == p.len()).then_some(c)
    }
}

impl Agreement {
    fn encode(&self) -> Bytes {
        let mut out = self.value.to_le_bytes().to_vec();
        out.extend_from_slice(&u32::from(self.unacknowledged).to_le_bytes());
        put_list(&mut out, &self.failed);
        out.into()
    }

    /// Parses a decision for a communicator of `n` members; `None` if malformed.
    fn decode(p: &[u8], n: usize) -> Option<Self> {
        let at = &mut 0;
        let value = word(p, at)?;
        let unacknowledged = match word(p, at)? {
            0 => false,
            1 => true,
            _ => return None,
        };
        let failed = list(p, at, n)?;
        (*at == p.len()).then_some(Self {
            value,
            failed,
            unacknowledged,
        })
    }

    /// The coordinator's decision from the contributions it holds (`got`, by comm rank) and
    /// the members it knows failed now (`dead`).
    fn decide(got: &[Option<Contribution>], dead: &[bool]) -> Self {
        let held: Vec<&Contribution> = got.iter().flatten().collect();
        let value = held.iter().fold(u32::MAX, |v, c| v & c.flag);
        let mut failed: Vec<u32> = held.iter().flat_map(|c| c.failed.iter().copied()).collect();
        failed.extend(
            (0..got.len() as u32).filter(|&r| got[r as usize].is_none() || dead[r as usize]),
        );
        failed.sort_unstable();
        failed.dedup();
        let unacknowledged = failed
            .iter()
            .any(|r| held.iter().any(|c| c.acked.binary_search(r).is_err()));
        Self {
            value,
            failed,
            unacknowledged,
        }
    }
}

/// Sends an agreement frame to comm rank `to`; a failed send marks it failed (the protocol
/// then stops waiting for it).
fn send(comm: &CommInner, seq: u64, to: usize, (step, ballot): (u32, u32), payload: Bytes) {
    let engine = &comm.engine;
    let w = comm.members.world()[to];
    let mut h = FrameHeader::new(FrameKind::Agree, engine.rank);
    h.context = comm.context;
    h.seq = seq;
    h.step = step;
    h.tag = ballot as i32;
    if let Err(e) = engine.transport().send(w, Frame::new(h, payload)) {
        engine.mark_failed(w, Error::proc_failed(w, format!("agreement: {e}")));
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
    let n = comm.size() as usize;
    let me = comm.rank as usize;
    let world = comm.members.world().clone();
    let mine = Contribution {
        flag,
        failed: comm.failed_ranks(),
        acked: comm.acked_ranks(),
    };
    let mut got: Vec<Option<Contribution>> = vec![None; n];
    got[me] = Some(mine.clone());
    // The adopted decision (encoded) and the ballot that carried it.
    let mut decision: Option<(u32, Bytes)> = None;
    // Every member gets this rank's contribution, not only the current coordinator: whoever
    // turns out to be the coordinator (the lowest member it does not know failed) can decide
    // as soon as it has detected the failures, without waiting for every other member to
    // detect them too.
    let encoded = mine.encode();
    for r in (0..n).filter(|&r| r != me && engine.failure_of(world[r]).is_none()) {
        send(comm, seq, r, (CONTRIBUTE, 0), encoded.clone());
    }
    // Set once this rank coordinates as a successor: the answers to its query, by comm rank.
    let mut answers: Option<Vec<Option<Answer>>> = None;
    loop {
        let notified = engine.arrivals().notified();
        tokio::pin!(notified);
        notified.as_mut().enable();
        engine.check_open()?;
        let frames = agreements.frames.lock().take(key);
        for f in frames {
            let Some(from) = comm.members.comm_rank_of(f.header.src) else {
                continue;
            };
            match f.header.step {
                CONTRIBUTE => match Contribution::decode(&f.payload, n) {
                    Some(c) => got[from as usize] = Some(c),
                    None => tracing::warn!(from, "dropping a malformed agreement contribution"),
                },
                DECIDE if decision.is_none() => {
                    if Agreement::decode(&f.payload, n).is_none() {
                        tracing::warn!(from, "dropping a malformed agreement decision");
                        continue;
                    }
                    let ballot = f.header.tag as u32;
                    // Refused when this rank promised a later coordinator.
                    decision = agreements
                        .frames
                        .lock()
                        .adopt(key, ballot, f.payload.clone());
                }
                PROMISE => match (answers.as_mut(), decode_promise(&f.payload, n)) {
                    (Some(a), Some(p)) if f.header.tag as u32 == me as u32 => {
                        a[from as usize] = Some(p)
                    }
                    (_, None) => tracing::warn!(from, "dropping a malformed agreement answer"),
                    _ => {}
                },
                _ => {}
            }
        }
        let dead: Vec<bool> = (0..n)
            .map(|r| r != me && engine.failure_of(world[r]).is_some())
            .collect();
        if decision.is_none() {
            let coord = (0..n).find(|&r| !dead[r]).expect("this rank is alive");
            let contributions = (0..n).all(|r| got[r].is_some() || dead[r]);
            if coord == me && me == 0 {
                if contributions {
                    let d = Agreement::decide(&got, &dead).encode();
                    // Refused only if a successor already queried this rank: then wait for
                    // its decision.
                    decision = agreements.frames.lock().adopt(key, 0, d);
                }
            } else if coord == me {
                let a = answers.get_or_insert_with(|| {
                    let mine = agreements.frames.lock().promise(key, me as u32);
                    for r in (0..n).filter(|&r| r != me && !dead[r]) {
                        send(comm, seq, r, (QUERY, me as u32), Bytes::new());
                    }
                    let mut a = vec![None; n];
                    a[me] = Some((mine.promised, mine.adopted));
                    a
                });
                let answered = (0..n).all(|r| a[r].is_some() || dead[r]);
                let outranked = a.iter().flatten().any(|(p, _)| *p > me as u32);
                if contributions && answered && !outranked {
                    let held = a
                        .iter()
                        .flatten()
                        .filter_map(|(_, d)| d.clone())
                        .max_by_key(|(b, _)| *b);
                    let d = match held {
                        Some((_, d)) => d,
                        None => Agreement::decide(&got, &dead).encode(),
                    };
                    decision = agreements.frames.lock().adopt(key, me as u32, d);
                }
            }
        }
        if let Some((ballot, payload)) = decision {
            agreements.frames.lock().finish(key);
            for r in (0..n).filter(|&r| r != me && !dead[r]) {
                send(comm, seq, r, (DECIDE, ballot), payload.clone());
            }
            let d = Agreement::decode(&payload, n).expect("adopted decisions were checked");
            return Ok((seq, d));
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
        Ok(run(&self.inner, flag).await?.1)
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

    fn c(flag: u32, failed: &[u32], acked: &[u32]) -> Option<Contribution> {
        Some(Contribution {
            flag,
            failed: failed.to_vec(),
            acked: acked.to_vec(),
        })
    }

    #[test]
    fn decides_and_of_flags_union_of_failures_and_missing_members() {
        let got = vec![
            c(0b111, &[], &[]),
            None,
            c(0b101, &[3], &[3]),
            c(0b110, &[], &[]),
        ];
        let d = Agreement::decide(&got, &[false, true, false, false]);
        assert_eq!(d.value, 0b100);
        assert_eq!(d.failed, vec![1, 3]);
        assert!(d.unacknowledged);
        let got = vec![c(1, &[2], &[2]), c(3, &[2], &[2]), None];
        let d = Agreement::decide(&got, &[false, false, true]);
        assert_eq!(
            (d.value, d.failed.clone(), d.unacknowledged),
            (1, vec![2], false)
        );
    }

    #[test]
    fn encodings_round_trip_and_reject_bad_input() {
        let x = Contribution {
            flag: 9,
            failed: vec![1, 4],
            acked: vec![4],
        };
        assert_eq!(Contribution::decode(&x.encode(), 5), Some(x.clone()));
        assert_eq!(Contribution::decode(&x.encode(), 4), None);
        let e = x.encode();
        assert_eq!(Contribution::decode(&e[..e.len() - 1], 5), None);
        let d = Agreement {
            value: 7,
            failed: vec![0],
            unacknowledged: true,
        };
        assert_eq!(Agreement::decode(&d.encode(), 2), Some(d));
        let mut bad = 1u32.to_le_bytes().to_vec();
        bad.extend_from_slice(&u32::MAX.to_le_bytes());
        bad.extend_from_slice(&0u32.to_le_bytes());
        assert_eq!(Agreement::decode(&bad, 2), None);
        assert_eq!(Contribution::decode(&[0xFF; 3], 2), None);
    }
}
