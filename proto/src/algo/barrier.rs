//! Dissemination barrier: in round `k`, rank `r` signals `r + 2^k` and waits for `r - 2^k`
//! (mod n). `ceil(log2 n)` rounds, `n * ceil(log2 n)` empty messages.

use crate::prelude::*;

use crate::algo::ceil_log2;
use crate::error::ProtoError;
use crate::machine::{Collective, Inbox, Incoming, Outbox, check_sender};
use crate::types::Group;
use bytes::Bytes;

/// One rank's dissemination barrier.
#[derive(Debug)]
pub struct Barrier {
    g: Group,
    rounds: u32,
    /// Next round whose incoming signal we wait for.
    round: u32,
    inbox: Inbox,
}

impl Barrier {
    /// A barrier for `g`.
    pub fn new(g: Group) -> Self {
        Self {
            g,
            rounds: ceil_log2(g.size),
            round: 0,
            inbox: Inbox::new(),
        }
    }

    fn dist(&self, k: u32) -> u32 {
        (1u32 << k) % self.g.size
    }

    fn signal(&self, k: u32, out: &mut Outbox) {
        let to = (self.g.rank + self.dist(k)) % self.g.size;
        out.send(to, k, Bytes::new());
    }

    fn advance(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        while self.round < self.rounds {
            let from = (self.g.rank + self.g.size - self.dist(self.round)) % self.g.size;
            if self.inbox.take_exact(from, self.round, 0)?.is_none() {
                return Ok(());
            }
            self.round += 1;
            if self.round < self.rounds {
                self.signal(self.round, out);
            }
        }
        Ok(())
    }
}

impl Collective for Barrier {
    fn start(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        if self.rounds > 0 {
            self.signal(0, out);
        }
        self.advance(out)
    }

    fn deliver(&mut self, msg: Incoming, out: &mut Outbox) -> Result<(), ProtoError> {
        check_sender(&msg, self.g.size)?;
        if msg.step >= self.rounds || msg.step < self.round {
            return Err(msg.unexpected());
        }
        self.inbox.put(msg)?;
        self.advance(out)
    }

    fn is_done(&self) -> bool {
        self.round == self.rounds
    }

    fn finish(self: Box<Self>) -> Result<Vec<u8>, ProtoError> {
        if !self.is_done() {
            return Err(ProtoError::NotFinished);
        }
        Ok(Vec::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim;

    #[test]
    fn barrier_completes_with_expected_message_count() {
        for n in 1..=17u32 {
            for seed in 0..20 {
                let rep =
                    sim::run(n, seed, |r| Ok(Box::new(Barrier::new(Group::new(r, n)?)))).unwrap();
                assert_eq!(rep.messages, (n * ceil_log2(n)) as usize, "n={n}");
            }
            let rep =
                sim::run_synchronous(n, |r| Ok(Box::new(Barrier::new(Group::new(r, n)?)))).unwrap();
            assert_eq!(rep.rounds, ceil_log2(n), "n={n}");
        }
    }
}
