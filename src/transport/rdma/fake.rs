//! A FAKE queue pair for unit tests: two in-memory ends joined by a mutex. It is not
//! hardware and proves nothing about verbs; it checks the lane protocol against the rules a
//! reliable-connected queue pair imposes, and records every breach in [`Link::violations`]:
//!
//! * a SEND that finds no receive posted on the other end fails (as RNR would, with the
//!   retry count at 0) and puts the pair in the error state;
//! * a message longer than the receiving slot fails (a local length error);
//! * reposting a send slot before its `Sent` completion, touching a send buffer while its
//!   send is outstanding, posting a receive twice, or reading a receive buffer that holds no
//!   completed message are recorded as violations.
//!
//! Messages arrive in order at the receiver's posted receives (oldest first, like a receive
//! queue), and those that arrived before a failure complete before the `Failed`; a send's `Sent` completion shows up after a pseudo-random number of polls (so
//! slots are really recycled late).

use super::{Completion, QueuePair};
use parking_lot::Mutex;
use std::collections::VecDeque;
use std::io;
use std::sync::Arc;

/// The slot pools of one fake end.
#[derive(Debug, Clone, Copy)]
pub struct FakeConfig {
    /// Send buffers.
    pub send_slots: usize,
    /// Bytes per send buffer.
    pub send_slot_len: usize,
    /// Receive buffers.
    pub recv_slots: usize,
    /// Bytes per receive buffer.
    pub recv_slot_len: usize,
}

/// Messages travelling to one end.
#[derive(Debug, Default)]
struct Inbox {
    /// Receives that end posted, oldest first.
    posted: VecDeque<usize>,
    /// Messages delivered into those receives, not yet polled.
    arrived: VecDeque<(usize, Vec<u8>)>,
    /// Bytes per receive buffer of that end.
    slot_len: usize,
    /// Messages ever delivered to that end.
    delivered: u64,
}

/// State shared by both ends.
#[derive(Debug, Default)]
struct Shared {
    inbox: [Inbox; 2],
    failed: Option<String>,
    poll_error: Option<String>,
    violations: Vec<String>,
    rng: u64,
    max_sent_delay: u32,
}

impl Shared {
    fn violation(&mut self, v: String) {
        self.violations.push(v);
    }

    fn next_delay(&mut self) -> u32 {
        // xorshift64: deterministic per seed.
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        (self.rng % (self.max_sent_delay as u64 + 1)) as u32
    }
}

/// The control handle of a fake pair: injects failures and reports violations.
#[derive(Clone)]
pub struct Link(Arc<Mutex<Shared>>);

impl Link {
    /// Puts the pair in the error state: each end's next poll reports `Failed { what }`.
    pub fn fail(&self, what: &str) {
        self.0.lock().failed.get_or_insert_with(|| what.to_string());
    }

    /// Makes every later poll on both ends return an error with `what`.
    pub fn break_poll(&self, what: &str) {
        self.0.lock().poll_error = Some(what.to_string());
    }

    /// Every breach of the queue pair rules so far (empty when the protocol behaved).
    pub fn violations(&self) -> Vec<String> {
        self.0.lock().violations.clone()
    }

    /// Messages delivered to end `side` (0 or 1) so far.
    pub fn delivered(&self, side: usize) -> u64 {
        self.0.lock().inbox[side].delivered
    }
}

/// A receive slot's state, to catch misuse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RecvState {
    Idle,
    Posted,
    Completed,
}

/// One end of a fake pair (see the module docs: a fake for unit tests, not hardware).
pub struct FakeQp {
    side: usize,
    shared: Arc<Mutex<Shared>>,
    cfg: FakeConfig,
    send_bufs: Vec<Vec<u8>>,
    recv_bufs: Vec<Vec<u8>>,
    outstanding: Vec<bool>,
    /// Sends awaiting their completion: (polls left, slot).
    sending: VecDeque<(u32, usize)>,
    recv_state: Vec<RecvState>,
    failure_reported: bool,
}

/// A connected fake pair: end 0 with pools `a`, end 1 with pools `b`. `Sent` completions
/// come after 0..=`max_sent_delay` polls, chosen by a generator seeded with `seed`.
pub fn pair(
    a: FakeConfig,
    b: FakeConfig,
    seed: u64,
    max_sent_delay: u32,
) -> (FakeQp, FakeQp, Link) {
    let mut shared = Shared {
        rng: seed | 1,
        max_sent_delay,
        ..Shared::default()
    };
    shared.inbox[0].slot_len = a.recv_slot_len;
    shared.inbox[1].slot_len = b.recv_slot_len;
    let shared = Arc::new(Mutex::new(shared));
    let end = |side, cfg: FakeConfig| FakeQp {
        side,
        shared: shared.clone(),
        cfg,
        send_bufs: vec![vec![0; cfg.send_slot_len]; cfg.send_slots],
        recv_bufs: vec![vec![0; cfg.recv_slot_len]; cfg.recv_slots],
        outstanding: vec![false; cfg.send_slots],
        sending: VecDeque::new(),
        recv_state: vec![RecvState::Idle; cfg.recv_slots],
        failure_reported: false,
    };
    let (qa, qb) = (end(0, a), end(1, b));
    (qa, qb, Link(shared))
}

fn fake_err(msg: String) -> io::Error {
    io::Error::other(format!("fake queue pair: {msg}"))
}

impl QueuePair for FakeQp {
    fn send_slots(&self) -> usize {
        self.cfg.send_slots
    }
    fn send_slot_len(&self) -> usize {
        self.cfg.send_slot_len
    }
    fn recv_slots(&self) -> usize {
        self.cfg.recv_slots
    }
    fn recv_slot_len(&self) -> usize {
        self.cfg.recv_slot_len
    }

    fn send_buf(&mut self, slot: usize) -> &mut [u8] {
        if self.outstanding[slot] {
            self.shared.lock().violation(format!(
                "end {}: send buffer {slot} touched while its send is outstanding",
                self.side
            ));
        }
        &mut self.send_bufs[slot]
    }

    fn recv_buf(&self, slot: usize) -> &[u8] {
        if self.recv_state[slot] != RecvState::Completed {
            self.shared.lock().violation(format!(
                "end {}: receive buffer {slot} read while it holds no message",
                self.side
            ));
        }
        &self.recv_bufs[slot]
    }

    fn post_send(&mut self, slot: usize, len: usize) -> io::Result<()> {
        let side = self.side;
        let mut sh = self.shared.lock();
        if let Some(what) = &sh.failed {
            return Err(fake_err(format!("post_send on a failed pair ({what})")));
        }
        if slot >= self.cfg.send_slots || len > self.cfg.send_slot_len {
            return Err(fake_err(format!(
                "post_send of slot {slot}, {len} bytes: out of range"
            )));
        }
        if self.outstanding[slot] {
            sh.violation(format!(
                "end {side}: send slot {slot} reposted before its Sent"
            ));
            return Err(fake_err(format!("send slot {slot} is busy")));
        }
        let peer = 1 - side;
        let Some(rslot) = sh.inbox[peer].posted.pop_front() else {
            sh.violation(format!(
                "end {side}: SEND with no receive posted at end {peer} (RNR)"
            ));
            sh.failed = Some("receiver not ready (no receive posted)".into());
            return Err(fake_err("RNR: no receive posted at the peer".into()));
        };
        if len > sh.inbox[peer].slot_len {
            sh.violation(format!(
                "end {side}: SEND of {len} bytes into a shorter receive"
            ));
            sh.failed = Some("local length error".into());
            return Err(fake_err("message longer than the receive buffer".into()));
        }
        let data = self.send_bufs[slot][..len].to_vec();
        sh.inbox[peer].arrived.push_back((rslot, data));
        sh.inbox[peer].delivered += 1;
        let delay = sh.next_delay();
        self.outstanding[slot] = true;
        self.sending.push_back((delay, slot));
        Ok(())
    }

    fn post_recv(&mut self, slot: usize) -> io::Result<()> {
        let mut sh = self.shared.lock();
        if let Some(what) = &sh.failed {
            return Err(fake_err(format!("post_recv on a failed pair ({what})")));
        }
        if slot >= self.cfg.recv_slots {
            return Err(fake_err(format!("post_recv of slot {slot}: out of range")));
        }
        if self.recv_state[slot] == RecvState::Posted {
            sh.violation(format!(
                "end {}: receive slot {slot} posted twice",
                self.side
            ));
            return Err(fake_err(format!("receive slot {slot} is already posted")));
        }
        self.recv_state[slot] = RecvState::Posted;
        sh.inbox[self.side].posted.push_back(slot);
        Ok(())
    }

    fn poll(&mut self, out: &mut Vec<Completion>) -> io::Result<()> {
        let mut sh = self.shared.lock();
        if let Some(what) = &sh.poll_error {
            return Err(fake_err(what.clone()));
        }
        // Messages that arrived before a failure still complete, ahead of it.
        while let Some((slot, data)) = sh.inbox[self.side].arrived.pop_front() {
            self.recv_bufs[slot][..data.len()].copy_from_slice(&data);
            self.recv_state[slot] = RecvState::Completed;
            out.push(Completion::Received {
                slot,
                len: data.len(),
            });
        }
        if let Some(what) = &sh.failed {
            if !self.failure_reported {
                self.failure_reported = true;
                out.push(Completion::Failed { what: what.clone() });
            }
            return Ok(());
        }
        // Completions leave in posting order, each after its own delay.
        while let Some(&(left, slot)) = self.sending.front() {
            if left > 0 {
                self.sending.front_mut().expect("front exists").0 -= 1;
                break;
            }
            self.sending.pop_front();
            self.outstanding[slot] = false;
            out.push(Completion::Sent { slot });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(slots: usize, len: usize) -> FakeConfig {
        FakeConfig {
            send_slots: slots,
            send_slot_len: len,
            recv_slots: slots,
            recv_slot_len: len,
        }
    }

    #[test]
    fn the_fake_detects_a_send_without_a_posted_receive() {
        let (mut a, mut b, link) = pair(cfg(1, 16), cfg(1, 16), 1, 0);
        let e = a.post_send(0, 4).unwrap_err();
        assert!(e.to_string().contains("RNR"), "{e}");
        assert_eq!(link.violations().len(), 1);
        let mut out = Vec::new();
        b.poll(&mut out).unwrap();
        assert!(matches!(&out[..], [Completion::Failed { what }] if what.contains("not ready")));
    }

    #[test]
    fn the_fake_delivers_in_order_into_posted_receives() {
        let (mut a, mut b, link) = pair(cfg(2, 16), cfg(2, 16), 7, 0);
        b.post_recv(1).unwrap();
        b.post_recv(0).unwrap();
        a.send_buf(0)[..3].copy_from_slice(b"one");
        a.post_send(0, 3).unwrap();
        a.send_buf(1)[..3].copy_from_slice(b"two");
        a.post_send(1, 3).unwrap();
        let mut out = Vec::new();
        b.poll(&mut out).unwrap();
        assert_eq!(
            out,
            vec![
                Completion::Received { slot: 1, len: 3 },
                Completion::Received { slot: 0, len: 3 }
            ]
        );
        assert_eq!(&b.recv_buf(1)[..3], b"one");
        assert_eq!(&b.recv_buf(0)[..3], b"two");
        out.clear();
        a.poll(&mut out).unwrap();
        assert_eq!(
            out,
            vec![Completion::Sent { slot: 0 }, Completion::Sent { slot: 1 }]
        );
        assert!(link.violations().is_empty());
    }
}
