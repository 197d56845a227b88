//! Fault-tolerant agreement (ULFM's `MPIX_Comm_agree`) as a sans-IO machine: the survivors
//! agree on the bitwise AND of a flag and on a set of failed ranks, although members fail while
//! it runs.
//!
//! The engine runs this machine: `src/fault/agree.rs` starts it and waits for its decision,
//! and the engine's agreement feature (`src/fault/state.rs`) feeds it frames and failures and
//! sends what it emits. The simulator ([`crate::sim::faults`]) tests it. Rule 5 closes a hang
//! the simulator found in the engine's earlier rules (1-4).
//!
//! # Assumptions
//! Failures are fail-stop, links between live members are reliable (any order), and every live
//! member is eventually told (with [`Collective::peer_failed`]) of every member that failed,
//! and of no member that did not. The protocol never waits on a member this rank knows failed.
//!
//! # Rules
//! 1. Each member's *contribution* is its flag, the members it knew failed when it started, and
//!    the failures it acknowledged; [`Collective::start`] sends it to every member not known
//!    failed. The *coordinator*, in a member's view, is the lowest member it does not know
//!    failed.
//! 2. The coordinator waits until it holds the contribution of every member it does not know
//!    failed, then *decides* ([`Agreement`]): the AND of every flag it holds; the failed set,
//!    the union of the reported failed sets, the members it holds no contribution from and the
//!    ones it knows failed now; and whether some failed member was not acknowledged by every
//!    contributor.
//! 3. Whoever decides, or receives a decision it may adopt, adopts it, sends it to every member
//!    it does not know failed, and is done. Flooding means that if any live member holds a
//!    decision, every live member ends up with it, even when the coordinator dies part-way.
//! 4. **Ballots.** Each decision carries its coordinator's rank as a ballot. Rank 0 decides at
//!    once; a later coordinator `c` first *queries* every live member with ballot `c`. A member
//!    answers at once (also after it is done: [`Collective::serves_after_done`]) with the
//!    decision it adopted, if any, and from then on refuses decisions of lower ballots. Once
//!    every live member answered (and none promised a higher ballot), `c` decides: the adopted
//!    decision of the highest ballot among the answers, else its own. A member adopts one
//!    decision per agreement ([`Ballot`]).
//! 5. A member that adopted the decision of a ballot below its own rank and is (or becomes,
//!    also after it is done) the lowest member it does not know failed sends that decision
//!    again, to every member not known failed, under its own rank as ballot.
//!
//! So every survivor ends with the same decision. Messages: `n(n-1)` contributions, `n(n-1)`
//! decisions, `2(n-1)` per successor coordinator, and `n-1` per rule-5 resend.
//!
//! ## Why rule 5
//! The simulator found a hang in rules 1-4 (`a_member_holding_an_old_decision_resends_it_when_
//! it_becomes_the_lowest` in `proto/tests/faults.rs`): coordinator 0 decides and dies with its
//! decision half sent; some members adopt it (and are done); the successor 2 queries, so the
//! members that had not adopted yet promise ballot 2, and 2 dies before deciding. The lowest
//! live member is now done, so nobody queries or decides again, and the members that promised
//! ballot 2 refuse every ballot-0 copy of the decision: they wait forever. Rule 5 is safe for
//! the reason rule 4 is: a member `z` that adopted `d` and is alive answered every query made
//! after its adoption with `d`, and refused every lower ballot after a query it answered, so
//! every decision of a ballot above `d`'s is `d`; no member promised a ballot above `z` (only a
//! coordinator above `z` queries, and only once `z` failed). So `d` under ballot `z` is adopted
//! by everyone who has not adopted `d` already.
//!
//! # Messages and the engine's frames
//! The engine sends `FrameKind::Agree` frames with `step` = the kind ([`CONTRIBUTE`],
//! [`DECIDE`], [`QUERY`], [`PROMISE`], the same numbers), the ballot in the header's `tag`
//! (0 for a contribution; for a promise the ballot of the query answered) and the body as
//! payload. A machine message carries the same kind as its `step` and `ballot (u32 LE) ++
//! body` as its payload: [`message`] builds one, [`split`] takes one apart. Bodies are encoded
//! exactly as the engine encodes them.
//!
//! To drive it, the engine: builds an [`Agree`] per agreement with the [`Ballot`] it
//! holds for that agreement (a query may arrive before the call starts, answered with
//! [`Ballot::answer_query`]); delivers the frames it queued for the agreement and then each
//! new one; calls [`Collective::peer_failed`] on `mark_failed` of a member; and once the
//! machine is done, keeps it (the latest of each communicator) so that later queries are
//! answered and later failures reach it (rule 5). A message the machine rejects leaves it
//! unchanged: the engine logs it and carries on. Messages that reach a done machine other than
//! queries are dropped unread.

use crate::prelude::*;

use crate::error::ProtoError;
use crate::machine::{Collective, Incoming, Outbox, PeerFailed, check_sender};
use crate::types::{Group, Rank};
use bytes::Bytes;

/// Step of a member's contribution (ballot 0).
pub const CONTRIBUTE: u32 = 1;
/// Step of a decision (ballot: its coordinator's rank).
pub const DECIDE: u32 = 2;
/// Step of a successor coordinator's query (ballot: its rank; empty body).
pub const QUERY: u32 = 3;
/// Step of the answer to a query (ballot: the query's).
pub const PROMISE: u32 = 4;

/// A machine message's payload: `ballot` then `body`.
pub fn message(ballot: u32, body: &[u8]) -> Bytes {
    let mut p = Vec::with_capacity(4 + body.len());
    p.extend_from_slice(&ballot.to_le_bytes());
    p.extend_from_slice(body);
    p.into()
}

/// A machine message's payload taken apart: its ballot and body; `None` if it is shorter than a
/// ballot.
pub fn split(payload: &Bytes) -> Option<(u32, Bytes)> {
    let ballot = u32::from_le_bytes(payload.get(..4)?.try_into().ok()?);
    Some((ballot, payload.slice(4..)))
}

/// What an agreement decided; the same on every member that finishes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Agreement {
    /// Bitwise AND of the flags of the contributions the deciding coordinator held.
    pub value: u32,
    /// Ranks counted as failed, ascending.
    pub failed: Vec<Rank>,
    /// True if some rank in `failed` was not acknowledged by every contributor: the engine's
    /// `Comm::agree` then fails with a process-failed error on every member.
    pub unacknowledged: bool,
}

/// One member's input.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Contribution {
    flag: u32,
    failed: Vec<Rank>,
    acked: Vec<Rank>,
}

/// A member's answer to a query: the ballot it promised, and the decision it adopted with its
/// ballot.
type Answer = (u32, Option<(u32, Bytes)>);

fn put_list(out: &mut Vec<u8>, l: &[Rank]) {
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
fn list(p: &[u8], at: &mut usize, n: usize) -> Option<Vec<Rank>> {
    let len = word(p, at)? as usize;
    if len > n {
        return None;
    }
    let mut l = (0..len)
        .map(|_| word(p, at).filter(|&r| (r as usize) < n))
        .collect::<Option<Vec<Rank>>>()?;
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

    /// Parses a contribution for a group of `n`; `None` if malformed.
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
    /// The encoding the engine puts in a decision frame, and what [`Agree`]'s
    /// [`Collective::finish`] returns.
    pub fn encode(&self) -> Bytes {
        let mut out = self.value.to_le_bytes().to_vec();
        out.extend_from_slice(&u32::from(self.unacknowledged).to_le_bytes());
        put_list(&mut out, &self.failed);
        out.into()
    }

    /// Parses a decision for a group of `n`; `None` if malformed.
    pub fn decode(p: &[u8], n: u32) -> Option<Self> {
        let at = &mut 0;
        let value = word(p, at)?;
        let unacknowledged = match word(p, at)? {
            0 => false,
            1 => true,
            _ => return None,
        };
        let failed = list(p, at, n as usize)?;
        (*at == p.len()).then_some(Self {
            value,
            failed,
            unacknowledged,
        })
    }

    /// The coordinator's decision from the contributions it holds (`got`, by rank) and the
    /// members it knows failed now (`dead`).
    fn decide(got: &[Option<Contribution>], dead: &[bool]) -> Self {
        let held: Vec<&Contribution> = got.iter().flatten().collect();
        let value = held.iter().fold(u32::MAX, |v, c| v & c.flag);
        let mut failed: Vec<Rank> = held.iter().flat_map(|c| c.failed.iter().copied()).collect();
        failed.extend(
            (0..got.len() as Rank).filter(|&r| got[r as usize].is_none() || dead[r as usize]),
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

/// One member's ballot state for one agreement: the highest coordinator ballot it promised to
/// follow, and the decision it adopted with the ballot that carried it. It outlives the call:
/// the engine keeps it to answer a later coordinator's query after the member returned.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Ballot {
    /// Decisions of lower ballots are refused.
    pub promised: u32,
    /// The adopted decision (encoded [`Agreement`]) and its ballot.
    pub adopted: Option<(u32, Bytes)>,
}

impl Ballot {
    /// A coordinator of `ballot` asks what this member adopted: from now on decisions of lower
    /// ballots are refused. Returns the body of the [`PROMISE`] that answers it.
    pub fn answer_query(&mut self, ballot: u32) -> Bytes {
        self.promised = self.promised.max(ballot);
        let mut out = self.promised.to_le_bytes().to_vec();
        if let Some((b, d)) = &self.adopted {
            out.extend_from_slice(&b.to_le_bytes());
            out.extend_from_slice(d);
        }
        out.into()
    }

    /// Adopts `decision`, carried by `ballot`, unless a higher ballot was promised. Returns what
    /// this member holds afterwards: the decision it adopted earlier if any (a member adopts
    /// once), else this one; `None` when refused.
    pub fn adopt(&mut self, ballot: u32, decision: Bytes) -> Option<(u32, Bytes)> {
        if let Some(a) = &self.adopted {
            return Some(a.clone());
        }
        if ballot < self.promised {
            return None;
        }
        self.adopted = Some((ballot, decision));
        self.adopted.clone()
    }
}

/// Decodes a [`PROMISE`] body for a group of `n`; `None` if malformed.
fn decode_answer(p: &Bytes, n: u32) -> Option<Answer> {
    let at = &mut 0;
    let promised = word(p, at)?;
    if *at == p.len() {
        return Some((promised, None));
    }
    let ballot = word(p, at)?;
    let d = p.slice(*at..);
    Agreement::decode(&d, n)?;
    Some((promised, Some((ballot, d))))
}

/// One member's part of one agreement.
#[derive(Debug)]
pub struct Agree {
    g: Group,
    mine: Contribution,
    /// Members this rank knows failed (never itself).
    dead: Vec<bool>,
    /// Contributions held, by rank (this rank's own included).
    got: Vec<Option<Contribution>>,
    ballot: Ballot,
    /// The adopted decision and its ballot; set once, then the machine is done.
    decision: Option<(u32, Bytes)>,
    /// The ballot this rank last sent its decision under (rules 3 and 5).
    flooded: Option<u32>,
    /// Set once this rank coordinates as a successor: the answers to its query, by rank.
    answers: Option<Vec<Option<Answer>>>,
}

impl Agree {
    /// Member `g.rank`'s agreement on `flag`, knowing `failed` failed and having acknowledged
    /// `acked` (ranks of `g`, any order), with the `ballot` state this member already holds for
    /// this agreement (the default unless a query came before the call).
    pub fn new(
        g: Group,
        flag: u32,
        failed: &[Rank],
        acked: &[Rank],
        ballot: Ballot,
    ) -> Result<Self, ProtoError> {
        let g = Group::new(g.rank, g.size)?;
        let n = g.size as usize;
        let check = |l: &[Rank], what: &str| -> Result<Vec<Rank>, ProtoError> {
            if let Some(r) = l.iter().find(|&&r| r >= g.size) {
                return Err(ProtoError::InvalidArgument(format!(
                    "{what} rank {r} is out of range for a group of {}",
                    g.size
                )));
            }
            let mut l = l.to_vec();
            l.sort_unstable();
            l.dedup();
            Ok(l)
        };
        let failed = check(failed, "failed")?;
        let acked = check(acked, "acknowledged")?;
        if failed.contains(&g.rank) {
            return Err(ProtoError::InvalidArgument(format!(
                "rank {} cannot count itself as failed",
                g.rank
            )));
        }
        let mut dead = vec![false; n];
        for &r in &failed {
            dead[r as usize] = true;
        }
        let mine = Contribution {
            flag,
            failed,
            acked,
        };
        let mut got = vec![None; n];
        got[g.rank as usize] = Some(mine.clone());
        Ok(Self {
            g,
            mine,
            dead,
            got,
            ballot,
            decision: None,
            flooded: None,
            answers: None,
        })
    }

    /// This member's ballot state, to keep once the machine is done (see the module doc).
    pub fn ballot(&self) -> &Ballot {
        &self.ballot
    }

    /// The decision, once done.
    pub fn outcome(&self) -> Option<Agreement> {
        let (_, d) = self.decision.as_ref()?;
        Agreement::decode(d, self.g.size)
    }

    fn me(&self) -> usize {
        self.g.rank as usize
    }

    /// Live members other than this one, in this rank's view.
    fn others(&self) -> impl Iterator<Item = Rank> + '_ {
        (0..self.g.size).filter(|&r| r != self.g.rank && !self.dead[r as usize])
    }

    /// Decides, queries or adopts as far as what this rank holds allows, and sends an adopted
    /// decision on (the engine's loop body after taking frames).
    fn progress(&mut self, out: &mut Outbox) {
        if self.decision.is_none() {
            self.try_decide(out);
        }
        let Some((ballot, d)) = self.decision.clone() else {
            return;
        };
        // Done: what only deciding reads is dropped, so a machine kept after it is done (for
        // queries and rule 5) holds O(n) bytes, not every member's contribution.
        if !self.got.is_empty() {
            self.got = Vec::new();
            self.answers = None;
        }
        // Rule 3: send the adopted decision on under its ballot. Rule 5: a member that
        // adopted a lower ballot's decision and is now the lowest live member sends it again
        // under its own rank.
        let me = self.g.rank;
        let lowest = (0..self.g.size).find(|&r| !self.dead[r as usize]) == Some(me);
        let b = if lowest && ballot < me { me } else { ballot };
        if self.flooded != Some(b) {
            self.flooded = Some(b);
            let targets: Vec<Rank> = self.others().collect();
            for r in targets {
                out.send(r, DECIDE, message(b, &d));
            }
        }
    }

    /// Rules 2 and 4: decides as coordinator (querying first as a successor) once it may.
    fn try_decide(&mut self, out: &mut Outbox) {
        let me = self.me();
        let n = self.g.size as usize;
        let coord = (0..n).find(|&r| !self.dead[r]).unwrap_or(me);
        let contributions = (0..n).all(|r| self.got[r].is_some() || self.dead[r]);
        if coord == me && me == 0 {
            if contributions {
                let d = Agreement::decide(&self.got, &self.dead).encode();
                // Refused only if a successor already queried this rank: then wait for its
                // decision.
                self.decision = self.ballot.adopt(0, d);
            }
        } else if coord == me {
            if self.answers.is_none() {
                let ballot = me as u32;
                self.ballot.answer_query(ballot);
                let targets: Vec<Rank> = self.others().collect();
                for r in targets {
                    out.send(r, QUERY, message(ballot, &[]));
                }
                let mut a = vec![None; n];
                a[me] = Some((self.ballot.promised, self.ballot.adopted.clone()));
                self.answers = Some(a);
            }
            let a = self.answers.as_ref().expect("set above");
            let answered = (0..n).all(|r| a[r].is_some() || self.dead[r]);
            let outranked = a.iter().flatten().any(|(p, _)| *p > me as u32);
            if contributions && answered && !outranked {
                let held = a
                    .iter()
                    .flatten()
                    .filter_map(|(_, d)| d.clone())
                    .max_by_key(|(b, _)| *b);
                let d = match held {
                    Some((_, d)) => d,
                    None => Agreement::decide(&self.got, &self.dead).encode(),
                };
                self.decision = self.ballot.adopt(me as u32, d);
            }
        }
    }
}

impl Collective for Agree {
    fn start(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        let body = self.mine.encode();
        let targets: Vec<Rank> = self.others().collect();
        for r in targets {
            out.send(r, CONTRIBUTE, message(0, &body));
        }
        self.progress(out);
        Ok(())
    }

    fn deliver(&mut self, msg: Incoming, out: &mut Outbox) -> Result<(), ProtoError> {
        check_sender(&msg, self.g.size)?;
        let n = self.g.size;
        let bad = msg.unexpected();
        if msg.from == self.g.rank {
            return Err(bad);
        }
        let (ballot, body) = split(&msg.payload).ok_or_else(|| bad.clone())?;
        let from = msg.from as usize;
        match msg.step {
            // Answered whether or not this rank is done: the promise holds from now on.
            QUERY => {
                let answer = self.ballot.answer_query(ballot);
                out.send(msg.from, PROMISE, message(ballot, &answer));
                return Ok(());
            }
            // Once done, everything else is dropped unread, as the engine drops the frames of
            // a finished agreement.
            _ if self.decision.is_some() => return Ok(()),
            CONTRIBUTE => {
                let c = Contribution::decode(&body, n as usize).ok_or(bad)?;
                self.got[from] = Some(c);
            }
            DECIDE => {
                Agreement::decode(&body, n).ok_or(bad)?;
                // Refused when this rank promised a later coordinator.
                self.decision = self.ballot.adopt(ballot, body);
            }
            PROMISE => {
                let answer = decode_answer(&body, n).ok_or(bad)?;
                if let Some(a) = self.answers.as_mut()
                    && ballot == self.g.rank
                {
                    a[from] = Some(answer);
                }
            }
            _ => return Err(bad),
        }
        self.progress(out);
        Ok(())
    }

    fn is_done(&self) -> bool {
        self.decision.is_some()
    }

    fn finish(self: Box<Self>) -> Result<Vec<u8>, ProtoError> {
        match self.decision {
            Some((_, d)) => Ok(d.to_vec()),
            None => Err(ProtoError::NotFinished),
        }
    }

    fn peer_failed(&mut self, rank: Rank, out: &mut Outbox) -> Result<(), PeerFailed> {
        if rank >= self.g.size || rank == self.g.rank || self.dead[rank as usize] {
            return Ok(());
        }
        self.dead[rank as usize] = true;
        // Also once done: rule 5 may have this rank send its decision again.
        self.progress(out);
        Ok(())
    }

    fn serves_after_done(&self) -> bool {
        true
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
        assert_eq!(Agreement::decode(&d.encode(), 2), Some(d.clone()));
        let mut bad = 1u32.to_le_bytes().to_vec();
        bad.extend_from_slice(&u32::MAX.to_le_bytes());
        bad.extend_from_slice(&0u32.to_le_bytes());
        assert_eq!(Agreement::decode(&bad, 2), None);
        assert_eq!(Contribution::decode(&[0xFF; 3], 2), None);
        let m = message(5, b"xy");
        assert_eq!(split(&m), Some((5, Bytes::from_static(b"xy"))));
        assert_eq!(split(&Bytes::from_static(b"abc")), None);
        let mut b = Ballot::default();
        b.adopt(2, d.encode());
        let a = b.answer_query(3);
        assert_eq!(decode_answer(&a, 2), Some((3, Some((2, d.encode())))));
        assert_eq!(decode_answer(&Bytes::from_static(&[1, 0, 0]), 2), None);
    }

    #[test]
    fn a_promise_refuses_lower_ballots_and_reports_the_adopted_decision() {
        let mut t = Ballot::default();
        let d0 = Bytes::from_static(b"zero");
        let d1 = Bytes::from_static(b"one");
        // Promised to coordinator 1 first: coordinator 0's decision in flight is refused.
        t.answer_query(1);
        assert_eq!(t.adopt(0, d0.clone()), None);
        assert_eq!(t.adopt(1, d1.clone()), Some((1, d1.clone())));
        // Adopted once: a later decision does not replace it.
        assert_eq!(t.adopt(2, d0.clone()), Some((1, d1.clone())));
        t.answer_query(2);
        assert_eq!(t.adopted, Some((1, d1)));
        assert_eq!(t.promised, 2);
    }

    fn g(rank: u32, size: u32) -> Group {
        Group::new(rank, size).unwrap()
    }

    #[test]
    fn bad_arguments_and_messages_are_rejected_without_changing_state() {
        assert!(Agree::new(g(0, 3), 1, &[3], &[], Ballot::default()).is_err());
        assert!(Agree::new(g(0, 3), 1, &[], &[5], Ballot::default()).is_err());
        assert!(Agree::new(g(1, 3), 1, &[1], &[], Ballot::default()).is_err());
        let mut m = Agree::new(g(0, 2), 1, &[], &[], Ballot::default()).unwrap();
        let mut out = Outbox::new();
        m.start(&mut out).unwrap();
        assert_eq!(out.len(), 1);
        out.drain();
        let msg = |from, step, payload: Bytes| Incoming {
            from,
            step,
            payload,
        };
        for bad in [
            msg(1, CONTRIBUTE, Bytes::from_static(b"ab")),
            msg(1, CONTRIBUTE, message(0, &[1, 2, 3])),
            msg(1, DECIDE, message(0, &[0; 5])),
            msg(1, PROMISE, message(0, &[0; 3])),
            msg(1, 9, message(0, &[])),
            msg(
                0,
                CONTRIBUTE,
                message(0, &Contribution::decode(&[0; 12], 2).unwrap().encode()),
            ),
            msg(2, CONTRIBUTE, message(0, &[])),
        ] {
            assert!(m.deliver(bad, &mut out).is_err());
            assert!(out.is_empty() && !m.is_done());
        }
        let good = c(3, &[], &[]).unwrap().encode();
        m.deliver(msg(1, CONTRIBUTE, message(0, &good)), &mut out)
            .unwrap();
        assert!(m.is_done());
        assert_eq!(
            m.outcome(),
            Some(Agreement {
                value: 1,
                failed: vec![],
                unacknowledged: false
            })
        );
        // A query after the end is answered with the adopted decision.
        out.drain();
        m.deliver(msg(1, QUERY, message(1, &[])), &mut out).unwrap();
        let sent: Vec<_> = out.drain().collect();
        assert_eq!(sent.len(), 1);
        let (b, body) = split(&sent[0].payload).unwrap();
        assert_eq!((sent[0].to, sent[0].step, b), (1, PROMISE, 1));
        let (promised, adopted) = decode_answer(&body, 2).unwrap();
        assert_eq!(promised, 1);
        assert_eq!(adopted.map(|(b, _)| b), Some(0));
    }
}
