//! Point-to-point matching with MPI semantics.
//!
//! * Messages match on (context, source, tag); a receive may use ANY_SOURCE and/or ANY_TAG.
//! * Non-overtaking: messages from one sender are matched in the order it sent them. Transports
//!   may reorder (separate lanes), so every p2p frame carries a per-(sender, receiver) sequence
//!   number and [`Matcher::arrive`] releases frames strictly in sequence.
//! * A message with no posted receive waits in the unexpected queue; a receive posted later takes
//!   the oldest match. Its bytes count against the sender's budget
//!   ([`crate::transport::budget`]): a sender over budget is not read any further (back-pressure,
//!   no error) until receives drain its messages.
//! * Receives are completed through one-shot channels or, when posted with their buffer, in a
//!   [`RecvCell`] (a small message from a ring slot is copied straight into the buffer:
//!   [`Matcher::arrive_inline`]); this module does no I/O and never blocks.
//! * A synchronous message carries the sequence number to acknowledge; when a receive (or a
//!   matched probe) takes it, (sender, sequence) goes to an outbox the engine drains and sends
//!   as acknowledgements after releasing its lock.

use super::recv_cell::{Landed, RecvCell};
use crate::error::{Error, ErrorKind, Result};
use crate::transport::budget::RxBudget;
use bytes::Bytes;
use rustc_hash::FxHashMap as HashMap;
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;
use tokio::sync::oneshot;

/// A delivered point-to-point message.
#[derive(Debug, Clone)]
pub(crate) struct Envelope {
    /// Communicator context.
    pub context: u64,
    /// Sender's world rank.
    pub src: u32,
    /// User tag.
    pub tag: i32,
    /// The message bytes.
    pub payload: Bytes,
    /// Sequence number to acknowledge once matched (a synchronous send), until acknowledged.
    pub ack: Option<u64>,
}

/// What a receive (or probe) accepts. `members` are the world ranks of the communicator, so an
/// ANY_SOURCE receive can be failed when any member dies.
#[derive(Debug, Clone)]
pub(crate) struct RecvSpec {
    pub context: u64,
    /// World rank of the source, or `None` for ANY_SOURCE.
    pub source: Option<u32>,
    /// Tag, or `None` for ANY_TAG.
    pub tag: Option<i32>,
    pub members: Arc<[u32]>,
}

impl RecvSpec {
    fn accepts(&self, e: &Envelope) -> bool {
        self.accepts_parts(e.context, e.src, e.tag)
    }

    fn accepts_parts(&self, context: u64, src: u32, tag: i32) -> bool {
        context == self.context
            && self.source.is_none_or(|s| s == src)
            && self.tag.is_none_or(|t| t == tag)
    }

    fn involves(&self, world_rank: u32) -> bool {
        match self.source {
            Some(s) => s == world_rank,
            None => self.members.contains(&world_rank),
        }
    }
}

/// Where a posted receive's result goes.
pub(crate) type RecvReply = oneshot::Sender<Result<Envelope>>;

/// How a posted receive is completed.
pub(crate) enum Reply {
    /// Through a one-shot channel (its receiver dropped: the receive was abandoned).
    Channel(RecvReply),
    /// In place, in the receive's buffer (see [`RecvCell`]).
    Cell(Arc<RecvCell>),
}

impl Reply {
    /// Completes the receive with `err`.
    fn fail(self, err: &Error) {
        match self {
            Reply::Channel(tx) => {
                let _ = tx.send(Err(err.clone()));
            }
            Reply::Cell(cell) => cell.complete(Err(err.clone())),
        }
    }
}

struct Posted {
    id: u64,
    spec: RecvSpec,
    reply: Reply,
}

/// A posted receive taken out of the queue for its claimant to fill (see [`Matcher::claim`]).
pub(crate) struct Claim {
    posted: Posted,
    src: u32,
}

impl Claim {
    /// The receive's cell.
    pub fn cell(&self) -> &Arc<RecvCell> {
        match &self.posted.reply {
            Reply::Cell(c) => c,
            Reply::Channel(_) => unreachable!("only receives posted with a cell are claimed"),
        }
    }

    /// The matcher's id of the receive.
    pub fn id(&self) -> u64 {
        self.posted.id
    }

    /// What the receive accepts.
    pub fn spec(&self) -> &RecvSpec {
        &self.posted.spec
    }
}

/// Outcome of posting a receive.
pub(crate) enum Posting {
    /// An unexpected message matched at once.
    Matched(Envelope),
    /// Registered; the reply channel fires later. The id cancels it.
    Queued(u64),
}

/// Per-process matching state (guarded by the engine's lock).
pub(crate) struct Matcher {
    posted: VecDeque<Posted>,
    unexpected: VecDeque<Envelope>,
    /// Unexpected bytes and waiting receives per peer, read by the transports.
    budget: Arc<RxBudget>,
    /// Next sequence number expected from each sender.
    next_seq: HashMap<u32, u64>,
    /// Frames that arrived ahead of their turn, per sender.
    early: HashMap<u32, BTreeMap<u64, Envelope>>,
    next_id: u64,
    /// (sender, sequence) of synchronous messages matched since the last [`Matcher::take_acks`].
    acks: Vec<(u32, u64)>,
}

impl Matcher {
    /// A matcher for a world of `size` whose transports stop reading a sender's p2p traffic
    /// while `max_unexpected` bytes of its messages wait unmatched.
    pub fn new(max_unexpected: u64, size: u32) -> Self {
        Self {
            posted: VecDeque::new(),
            unexpected: VecDeque::new(),
            budget: Arc::new(RxBudget::new(max_unexpected, size)),
            next_seq: HashMap::default(),
            early: HashMap::default(),
            next_id: 0,
            acks: Vec::new(),
        }
    }

    /// The budget the transports consult (see [`crate::transport::budget`]).
    pub fn budget(&self) -> Arc<RxBudget> {
        self.budget.clone()
    }

    /// Takes the posted receive at `pos` out of the queue.
    fn unpost(&mut self, pos: usize) -> Posted {
        let p = self.posted.remove(pos).expect("index is valid");
        self.budget.receive_done(p.spec.source);
        p
    }

    /// Accepts frame `seq` from `env.src`, releasing it and any frames it unblocks in order.
    /// Returns an error naming the sender if it replayed a sequence number; the caller then
    /// treats that sender as failed.
    pub fn arrive(&mut self, seq: u64, env: Envelope) -> Result<()> {
        let src = env.src;
        let next = self.next_seq.entry(src).or_insert(0);
        if seq < *next {
            return Err(Error::new(
                ErrorKind::Mismatch,
                format!("rank {src} replayed message sequence number {seq}"),
            ));
        }
        if seq > *next {
            let early = self.early.entry(src).or_default();
            if early.insert(seq, env).is_some() {
                return Err(Error::new(
                    ErrorKind::Mismatch,
                    format!("rank {src} sent sequence number {seq} twice"),
                ));
            }
            return Ok(());
        }
        *next += 1;
        self.release(env)?;
        self.release_early(src)
    }

    /// Releases, in order, the frames from `src` that were waiting for the one just released.
    fn release_early(&mut self, src: u32) -> Result<()> {
        while let Some(early) = self.early.get_mut(&src) {
            let want = self.next_seq[&src];
            match early.remove(&want) {
                Some(e) => {
                    *self.next_seq.get_mut(&src).expect("present") += 1;
                    self.release(e)?;
                }
                None => break,
            }
        }
        if self.early.get(&src).is_some_and(|m| m.is_empty()) {
            self.early.remove(&src);
        }
        Ok(())
    }

    /// The receive fast path: frame `seq` from `src`, whose payload `body` still sits in a
    /// transport buffer, lands straight in the first posted receive that accepts it, if that
    /// receive was posted with its buffer ([`Reply::Cell`]) and the frame is next in order.
    /// True if it landed; false leaves everything as it was (the caller then delivers the frame
    /// the general way, through [`Matcher::arrive`]). Never for synchronous messages: they
    /// need an acknowledgement the caller sends.
    pub fn arrive_inline(
        &mut self,
        seq: u64,
        context: u64,
        src: u32,
        tag: i32,
        body: &[u8],
    ) -> bool {
        match self.claim(seq, context, src, tag) {
            Some(c) => {
                c.cell().land(src, tag, body);
                true
            }
            None => false,
        }
    }

    /// Takes the receive frame `seq` from `src` would match, for the caller to fill directly:
    /// the first posted receive that accepts it, if that receive was posted with its buffer and
    /// the frame is next in order (as [`Matcher::arrive_inline`]). The frame counts as arrived.
    /// The caller then completes the claimed cell, or gives the claim back with
    /// [`Matcher::unclaim`] if it could not (everything is then as before the claim).
    pub fn claim(&mut self, seq: u64, context: u64, src: u32, tag: i32) -> Option<Claim> {
        let pos = self.claimable_at(seq, context, src, tag)?;
        *self.next_seq.entry(src).or_insert(0) += 1;
        Some(Claim {
            posted: self.unpost(pos),
            src,
        })
    }

    /// Whether [`Matcher::claim`] would take a receive for this frame now.
    pub fn claimable(&self, seq: u64, context: u64, src: u32, tag: i32) -> bool {
        self.claimable_at(seq, context, src, tag).is_some()
    }

    /// The position in the queue of the receive [`Matcher::claim`] would take.
    fn claimable_at(&self, seq: u64, context: u64, src: u32, tag: i32) -> Option<usize> {
        if self.next_seq.get(&src).copied().unwrap_or(0) != seq || self.early.contains_key(&src) {
            return None;
        }
        let pos = self
            .posted
            .iter()
            .position(|p| p.spec.accepts_parts(context, src, tag))?;
        matches!(self.posted[pos].reply, Reply::Cell(_)).then_some(pos)
    }

    /// Undoes [`Matcher::claim`]: the receive goes back to its place in posting order and the
    /// frame counts as not arrived (it comes again, through another path).
    pub fn unclaim(&mut self, c: Claim) {
        if let Some(next) = self.next_seq.get_mut(&c.src) {
            *next -= 1;
        }
        self.budget.receive_posted(c.posted.spec.source);
        // Ids grow in posting order.
        let at = self.posted.partition_point(|p| p.id < c.posted.id);
        self.posted.insert(at, c.posted);
    }

    /// Records that `env` was matched: a synchronous message is acknowledged (once).
    fn matched(&mut self, env: &mut Envelope) {
        if let Some(seq) = env.ack.take() {
            self.acks.push((env.src, seq));
        }
    }

    /// Hands `env` to receive `p`; gives it back (unacknowledged) if the receive was dropped.
    fn hand_over(&mut self, p: Posted, mut env: Envelope) -> std::result::Result<(), Envelope> {
        let ack = env.ack;
        self.matched(&mut env);
        let tx = match p.reply {
            Reply::Channel(tx) => tx,
            Reply::Cell(cell) => {
                cell.complete(Ok(parked(env)));
                return Ok(());
            }
        };
        match tx.send(Ok(env)) {
            Ok(()) => Ok(()),
            Err(Ok(mut env)) => {
                if ack.is_some() {
                    self.acks.pop();
                }
                env.ack = ack;
                Err(env)
            }
            Err(Err(_)) => unreachable!("an Ok was sent"),
        }
    }

    /// The acknowledgements to send: (sender world rank, message sequence number).
    pub fn take_acks(&mut self) -> Vec<(u32, u64)> {
        std::mem::take(&mut self.acks)
    }

    /// Matches an in-order message against posted receives, or queues it.
    fn release(&mut self, env: Envelope) -> Result<()> {
        if let Some(pos) = self.posted.iter().position(|p| p.spec.accepts(&env)) {
            let p = self.unpost(pos);
            // A dropped receiver means the receive was cancelled; the message goes back.
            if let Err(env) = self.hand_over(p, env) {
                return self.release(env);
            }
            return Ok(());
        }
        // Over budget, the transports stop reading this sender until receives drain it.
        self.budget.queued(env.src, env.payload.len() as u64);
        self.unexpected.push_back(env);
        Ok(())
    }

    /// Posts a receive: takes the oldest matching unexpected message, or queues the receive.
    pub fn post(&mut self, spec: RecvSpec, reply: RecvReply) -> Posting {
        if let Some(env) = self.take(&spec) {
            return Posting::Matched(env);
        }
        Posting::Queued(self.enqueue(spec, Reply::Channel(reply)))
    }

    /// Queues a receive behind those posted before it; returns its id.
    fn enqueue(&mut self, spec: RecvSpec, reply: Reply) -> u64 {
        self.next_id += 1;
        let id = self.next_id;
        self.budget.receive_posted(spec.source);
        self.posted.push_back(Posted { id, spec, reply });
        id
    }

    /// Completes `cell` with the oldest unexpected message `spec` matches, if there is one
    /// (parked in the cell for its waiter to copy out).
    pub fn take_into(&mut self, spec: &RecvSpec, cell: &RecvCell) -> bool {
        match self.take(spec) {
            Some(env) => {
                cell.complete(Ok(parked(env)));
                true
            }
            None => false,
        }
    }

    /// Queues a receive completed in `cell` (after [`Matcher::take_into`] found nothing);
    /// returns the id that withdraws it.
    pub fn post_cell(&mut self, spec: RecvSpec, cell: Arc<RecvCell>) -> u64 {
        self.enqueue(spec, Reply::Cell(cell))
    }

    /// Gives back a message that was matched to a receive the caller then abandoned: it goes to
    /// the first waiting receive that accepts it, else to the front of the unexpected queue
    /// (it was the oldest match when it was taken).
    pub fn requeue(&mut self, env: Envelope) {
        if let Some(pos) = self.posted.iter().position(|p| p.spec.accepts(&env)) {
            let p = self.unpost(pos);
            if let Err(env) = self.hand_over(p, env) {
                self.requeue(env);
            }
            return;
        }
        self.budget.queued(env.src, env.payload.len() as u64);
        self.unexpected.push_front(env);
    }

    /// Withdraws a queued receive (its future was dropped). Returns false if it already matched.
    pub fn cancel(&mut self, id: u64) -> bool {
        match self.posted.iter().position(|p| p.id == id) {
            Some(pos) => {
                self.unpost(pos);
                true
            }
            None => false,
        }
    }

    /// Withdraws a queued receive, completing it with `err`. False if it already matched.
    pub fn cancel_with(&mut self, id: u64, err: &Error) -> bool {
        match self.posted.iter().position(|p| p.id == id) {
            Some(pos) => {
                self.unpost(pos).reply.fail(err);
                true
            }
            None => false,
        }
    }

    /// Removes and returns the oldest unexpected message a receive with `spec` would match
    /// (a receive or a matched probe: no later receive or probe can see it).
    pub fn take(&mut self, spec: &RecvSpec) -> Option<Envelope> {
        let pos = self.unexpected.iter().position(|e| spec.accepts(e))?;
        let mut env = self.unexpected.remove(pos).expect("index is valid");
        self.budget.taken(env.src, env.payload.len() as u64);
        self.matched(&mut env);
        Some(env)
    }

    /// The oldest unexpected message a receive with `spec` would match: (src, tag, bytes).
    pub fn probe(&self, spec: &RecvSpec) -> Option<(u32, i32, usize)> {
        self.unexpected
            .iter()
            .find(|e| spec.accepts(e))
            .map(|e| (e.src, e.tag, e.payload.len()))
    }

    /// Fails every posted receive that could only be satisfied by `world_rank` (or ANY_SOURCE
    /// receives on communicators containing it). Messages it sent earlier stay deliverable.
    pub fn fail_peer(&mut self, world_rank: u32, err: &Error) {
        let (dead, alive): (Vec<Posted>, Vec<Posted>) = self
            .posted
            .drain(..)
            .partition(|p| p.spec.involves(world_rank));
        self.posted = alive.into();
        for p in dead {
            self.budget.receive_done(p.spec.source);
            p.reply.fail(err);
        }
        self.early.remove(&world_rank);
    }

    /// Fails every posted receive on communicator `context` (it was revoked).
    pub fn fail_context(&mut self, context: u64, err: &Error) {
        let (dead, alive): (Vec<Posted>, Vec<Posted>) = self
            .posted
            .drain(..)
            .partition(|p| p.spec.context == context);
        self.posted = alive.into();
        for p in dead {
            // No longer waiting: back-pressure on its source resumes (as every unpost does).
            self.budget.receive_done(p.spec.source);
            p.reply.fail(err);
        }
    }

    /// Fails every posted receive (shutdown).
    pub fn fail_all(&mut self, err: &Error) {
        for p in self.posted.drain(..) {
            self.budget.receive_done(p.spec.source);
            p.reply.fail(err);
        }
    }
}

/// A matched message parked in a cell for its waiter to copy out.
fn parked(env: Envelope) -> Landed {
    Landed {
        src: env.src,
        tag: env.tag,
        len: env.payload.len(),
        parked: Some(env.payload),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(src: u32, tag: i32, byte: u8) -> Envelope {
        Envelope {
            context: 0,
            src,
            tag,
            payload: Bytes::from(vec![byte]),
            ack: None,
        }
    }

    fn spec(source: Option<u32>, tag: Option<i32>) -> RecvSpec {
        RecvSpec {
            context: 0,
            source,
            tag,
            members: Arc::from(vec![0, 1, 2]),
        }
    }

    fn take(m: &mut Matcher, s: RecvSpec) -> Option<Envelope> {
        let (tx, _rx) = oneshot::channel();
        match m.post(s, tx) {
            Posting::Matched(e) => Some(e),
            Posting::Queued(id) => {
                m.cancel(id);
                None
            }
        }
    }

    #[test]
    fn out_of_order_frames_are_released_in_sequence() {
        let mut m = Matcher::new(1 << 20, 3);
        m.arrive(2, env(1, 5, 2)).unwrap();
        m.arrive(1, env(1, 5, 1)).unwrap();
        assert!(
            take(&mut m, spec(Some(1), Some(5))).is_none(),
            "seq 0 has not arrived"
        );
        m.arrive(0, env(1, 5, 0)).unwrap();
        for want in 0..3 {
            assert_eq!(
                take(&mut m, spec(Some(1), Some(5))).unwrap().payload[0],
                want
            );
        }
    }

    #[test]
    fn wildcards_take_the_oldest_match() {
        let mut m = Matcher::new(1 << 20, 3);
        m.arrive(0, env(2, 7, 10)).unwrap();
        m.arrive(0, env(1, 8, 11)).unwrap();
        assert_eq!(take(&mut m, spec(None, Some(8))).unwrap().src, 1);
        assert_eq!(take(&mut m, spec(None, None)).unwrap().src, 2);
    }

    #[test]
    fn posted_receive_completes_on_arrival() {
        let mut m = Matcher::new(1 << 20, 3);
        let (tx, mut rx) = oneshot::channel();
        assert!(matches!(
            m.post(spec(Some(0), None), tx),
            Posting::Queued(_)
        ));
        m.arrive(0, env(0, 3, 9)).unwrap();
        let e = rx.try_recv().unwrap().unwrap();
        assert_eq!((e.src, e.tag), (0, 3));
    }

    #[test]
    fn cancelled_receive_gives_the_message_back() {
        let mut m = Matcher::new(1 << 20, 3);
        let (tx, rx) = oneshot::channel();
        assert!(matches!(
            m.post(spec(Some(0), None), tx),
            Posting::Queued(_)
        ));
        drop(rx);
        m.arrive(0, env(0, 3, 9)).unwrap();
        assert_eq!(take(&mut m, spec(Some(0), Some(3))).unwrap().payload[0], 9);
    }

    #[test]
    fn an_abandoned_match_is_requeued_first() {
        let mut m = Matcher::new(1 << 20, 3);
        m.arrive(0, env(1, 5, 1)).unwrap();
        m.arrive(1, env(1, 5, 2)).unwrap();
        let first = take(&mut m, spec(Some(1), Some(5))).unwrap();
        m.requeue(first);
        assert_eq!(take(&mut m, spec(Some(1), Some(5))).unwrap().payload[0], 1);
        assert_eq!(take(&mut m, spec(Some(1), Some(5))).unwrap().payload[0], 2);
    }

    #[test]
    fn flooding_stalls_the_sender_and_replays_are_rejected() {
        let mut m = Matcher::new(2, 3);
        let b = m.budget();
        m.arrive(0, env(1, 0, 0)).unwrap();
        assert!(!b.stalled(1));
        m.arrive(1, env(1, 0, 0)).unwrap();
        assert!(b.stalled(1), "two bytes queued: rank 1 is not read further");
        assert!(!b.stalled(2));
        // Overshoot (a frame already read) is queued, never refused.
        m.arrive(2, env(1, 0, 7)).unwrap();
        assert_eq!(b.used(1), 3);
        // A receive for something not queued lifts the stall while it waits.
        let (tx, _rx) = oneshot::channel();
        let Posting::Queued(id) = m.post(spec(Some(1), Some(9)), tx) else {
            panic!("nothing with tag 9 is queued");
        };
        assert!(!b.stalled(1));
        m.cancel(id);
        assert!(b.stalled(1));
        // Draining in order resumes reading; nothing was lost.
        for want in [0, 0, 7] {
            assert_eq!(
                take(&mut m, spec(Some(1), Some(0))).unwrap().payload[0],
                want
            );
        }
        assert!(!b.stalled(1));
        assert_eq!(b.used(1), 0);
        assert_eq!(
            m.arrive(0, env(1, 0, 0)).unwrap_err().kind(),
            ErrorKind::Mismatch
        );
    }

    #[test]
    fn synchronous_messages_are_acknowledged_once_when_matched() {
        let mut m = Matcher::new(1 << 20, 3);
        let sync = |seq| Envelope {
            ack: Some(seq),
            ..env(1, 4, seq as u8)
        };
        m.arrive(0, sync(0)).unwrap();
        assert!(
            m.take_acks().is_empty(),
            "unexpected messages are not matched yet"
        );
        assert!(m.probe(&spec(None, None)).is_some());
        assert!(m.take_acks().is_empty(), "a probe does not match");
        let first = take(&mut m, spec(None, None)).unwrap();
        assert_eq!(m.take_acks(), vec![(1, 0)]);
        m.requeue(first);
        take(&mut m, spec(Some(1), None)).unwrap();
        assert!(m.take_acks().is_empty(), "acknowledged only once");
        // A posted wildcard receive matches on arrival; a dropped one does not acknowledge.
        let (tx, rx) = oneshot::channel();
        m.post(spec(None, None), tx);
        drop(rx);
        let (tx, mut rx) = oneshot::channel();
        m.post(spec(None, Some(4)), tx);
        m.arrive(1, sync(1)).unwrap();
        assert_eq!(m.take_acks(), vec![(1, 1)]);
        assert_eq!(rx.try_recv().unwrap().unwrap().payload[0], 1);
    }

    #[test]
    fn cancel_completes_a_queued_receive_only() {
        let mut m = Matcher::new(1 << 20, 3);
        let (tx, mut rx) = oneshot::channel();
        let Posting::Queued(id) = m.post(spec(Some(0), None), tx) else {
            panic!("nothing has arrived")
        };
        let err = Error::new(ErrorKind::InvalidRequest, "cancelled");
        assert!(m.cancel_with(id, &err));
        assert!(rx.try_recv().unwrap().is_err());
        assert!(!m.cancel_with(id, &err), "already gone");
    }

    #[test]
    fn peer_failure_fails_specific_and_wildcard_receives() {
        let mut m = Matcher::new(1 << 20, 3);
        let (tx1, mut rx1) = oneshot::channel();
        let (tx2, mut rx2) = oneshot::channel();
        let (tx3, mut rx3) = oneshot::channel();
        m.post(spec(Some(2), None), tx1);
        m.post(spec(None, None), tx2);
        m.post(
            RecvSpec {
                members: Arc::from(vec![0, 1]),
                ..spec(None, None)
            },
            tx3,
        );
        m.fail_peer(2, &Error::proc_failed(2, "gone"));
        assert_eq!(rx1.try_recv().unwrap().unwrap_err().failed_rank(), Some(2));
        assert!(rx2.try_recv().unwrap().is_err());
        assert!(
            rx3.try_recv().is_err(),
            "a communicator without rank 2 keeps waiting"
        );
    }

    /// A cell over `buf` (the test keeps `buf` alive and untouched while the cell is posted).
    fn cell(buf: &mut [u8]) -> Arc<RecvCell> {
        // SAFETY: every test below keeps the buffer alive until the cell completed or was
        // withdrawn, and reads it only after.
        Arc::new(unsafe { RecvCell::new(buf.as_mut_ptr(), buf.len()) })
    }

    fn landed(c: &RecvCell) -> Landed {
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        match c.poll_take(&mut cx) {
            std::task::Poll::Ready(r) => r.unwrap(),
            std::task::Poll::Pending => panic!("not complete"),
        }
    }

    #[test]
    fn inline_arrivals_land_in_order_in_cells_only() {
        let mut m = Matcher::new(1 << 20, 3);
        let (mut a, mut b) = ([0u8; 4], [0u8; 4]);
        let (ca, cb) = (cell(&mut a), cell(&mut b));
        assert!(!m.arrive_inline(0, 0, 1, 5, &[1]), "nothing posted");
        m.post_cell(spec(Some(1), None), ca.clone());
        m.post_cell(spec(None, Some(5)), cb.clone());
        assert!(!m.arrive_inline(1, 0, 1, 5, &[9]), "seq 0 has not arrived");
        assert!(m.arrive_inline(0, 0, 1, 5, &[1, 2]));
        assert!(m.arrive_inline(1, 0, 1, 5, &[3, 4, 5, 6, 7]));
        assert_eq!((landed(&ca).len, landed(&cb).len), (2, 5));
        assert_eq!((a, b), ([1, 2, 0, 0], [3, 4, 5, 6]));
        // A receive posted with a channel first keeps its place: the frame goes the general way.
        let (tx, _rx) = oneshot::channel();
        m.post(spec(Some(1), None), tx);
        let mut c = [0u8; 1];
        m.post_cell(spec(Some(1), None), cell(&mut c));
        assert!(!m.arrive_inline(2, 0, 1, 5, &[1]));
        // Out-of-order frames waiting: the next one is released through `arrive`, in order.
        let mut m = Matcher::new(1 << 20, 3);
        m.arrive(1, env(1, 5, 8)).unwrap();
        let mut d = [0u8; 1];
        let cd = cell(&mut d);
        m.post_cell(spec(Some(1), None), cd.clone());
        assert!(!m.arrive_inline(0, 0, 1, 5, &[7]), "seq 1 waits for it");
        m.arrive(0, env(1, 5, 7)).unwrap();
        let l = landed(&cd);
        assert_eq!(
            l.parked.as_deref(),
            Some(&[7u8][..]),
            "parked: a Bytes already"
        );
    }

    #[test]
    fn cells_are_completed_by_unexpected_messages_failures_and_cancels() {
        let mut m = Matcher::new(1 << 20, 3);
        m.arrive(0, env(2, 1, 42)).unwrap();
        let mut a = [0u8; 1];
        let ca = cell(&mut a);
        assert!(m.take_into(&spec(Some(2), None), &ca));
        assert_eq!(landed(&ca).parked.as_deref(), Some(&[42u8][..]));
        let (mut b, mut c) = ([0u8; 1], [0u8; 1]);
        let (cb, cc) = (cell(&mut b), cell(&mut c));
        let id = m.post_cell(spec(Some(2), None), cb.clone());
        m.post_cell(spec(Some(1), None), cc.clone());
        m.fail_peer(2, &Error::proc_failed(2, "gone"));
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        assert!(matches!(
            cb.poll_take(&mut cx),
            std::task::Poll::Ready(Err(_))
        ));
        assert!(!m.cancel(id), "already failed");
        assert!(m.cancel_with(
            m.next_id,
            &Error::new(ErrorKind::InvalidRequest, "cancelled")
        ));
        assert!(matches!(
            cc.poll_take(&mut cx),
            std::task::Poll::Ready(Err(_))
        ));
        assert_eq!(
            (a, b, c),
            ([0], [0], [0]),
            "only parked or landed bytes are written"
        );
    }
}
