//! alltoall and alltoallv: rank `i` sends a distinct block to every rank `j` (`send_bytes[j]`
//! bytes at `i`, matched by `recv_bytes[i]` bytes at `j`); every rank ends with the blocks it
//! received, concatenated in sender rank order. A rank's block to itself is copied locally.
//!
//! The message from `i` to `j` always travels at step `(j - i) mod n - 1`, whatever the
//! algorithm, and is always sent, even when empty (so a size disagreement between ranks is a
//! [`ProtoError::LengthMismatch`], never a hang). The algorithms differ only in *when* a rank
//! emits its sends, so they interoperate and each rank may choose on its own:
//! * [`Algo::Pairwise`]: step `s` to `r + s + 1` is sent once step `s - 1` from `r - s` has
//!   arrived: `n - 1` rounds, at most one exchange per peer pair in flight.
//! * [`Algo::Scattered`]: every send is emitted at `start`: one round.
//!
//! Both send `n (n - 1)` messages in all.

use crate::prelude::*;
use crate::select::movement;

use crate::algo::allgather::{block_offsets, check_len};
use crate::error::ProtoError;
use crate::machine::{Collective, Incoming, Outbox, check_sender};
use crate::types::{Group, Rank};
use bytes::Bytes;

/// An alltoall algorithm, for forcing one with [`machine_with`]. Ranks may use different ones in
/// the same call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algo {
    /// Pairwise exchange: in step `s` (`0..n-1`) rank `r` sends to `r + s + 1` and receives from
    /// `r - s - 1`; step `s + 1` is sent once step `s` has been received. `n - 1` rounds.
    Pairwise,
    /// All `n - 1` sends at once at `start`, received in any order. One round.
    Scattered,
}

/// alltoall(v) for rank `g.rank` with the algorithm chosen by this rank's send volume: `data` is
/// the blocks for ranks `0..n` concatenated (`send_bytes[j]` bytes for rank `j`), `recv_bytes[j]`
/// the bytes this rank receives from rank `j`. Needs `send_bytes[me] == recv_bytes[me]`. The
/// output is the received blocks in sender rank order.
pub fn machine(
    g: Group,
    data: Vec<u8>,
    send_bytes: Vec<usize>,
    recv_bytes: Vec<usize>,
) -> Result<Box<dyn Collective>, ProtoError> {
    let soff = block_offsets(g, &send_bytes, "send_bytes")?;
    let algo = movement::alltoall(soff[soff.len() - 1]);
    machine_with(g, data, send_bytes, recv_bytes, algo)
}

/// Like [`machine`], with the algorithm forced.
pub fn machine_with(
    g: Group,
    data: Vec<u8>,
    send_bytes: Vec<usize>,
    recv_bytes: Vec<usize>,
    algo: Algo,
) -> Result<Box<dyn Collective>, ProtoError> {
    let soff = block_offsets(g, &send_bytes, "send_bytes")?;
    let roff = block_offsets(g, &recv_bytes, "recv_bytes")?;
    let n = g.size as usize;
    check_len("data", data.len(), soff[n])?;
    let r = g.rank as usize;
    if send_bytes[r] != recv_bytes[r] {
        return Err(ProtoError::InvalidArgument(format!(
            "rank {r} sends itself {} bytes but expects {}",
            send_bytes[r], recv_bytes[r]
        )));
    }
    Ok(Box::new(Exchange::new(g, algo, data, soff, roff)))
}

/// Either alltoall algorithm: blocks are placed as they arrive; only the send schedule differs.
#[derive(Debug)]
struct Exchange {
    g: Group,
    algo: Algo,
    /// My send buffer; payloads are zero-copy slices of it.
    data: Bytes,
    soff: Vec<usize>,
    roff: Vec<usize>,
    out: Vec<u8>,
    /// Which steps' blocks have arrived.
    got: Vec<bool>,
    /// Number of leading steps all received.
    prefix: usize,
    remaining: usize,
    /// Next step to send; `n - 1` once all are sent.
    next_send: usize,
    started: bool,
}

impl Exchange {
    fn new(g: Group, algo: Algo, data: Vec<u8>, soff: Vec<usize>, roff: Vec<usize>) -> Self {
        let n = g.size as usize;
        let r = g.rank as usize;
        let mut out = vec![0u8; roff[n]];
        out[roff[r]..roff[r + 1]].copy_from_slice(&data[soff[r]..soff[r + 1]]);
        Self {
            g,
            algo,
            data: Bytes::from(data),
            soff,
            roff,
            out,
            got: vec![false; n - 1],
            prefix: 0,
            remaining: n - 1,
            next_send: 0,
            started: false,
        }
    }

    /// Emits every send the schedule allows now.
    fn pump(&mut self, out: &mut Outbox) {
        let n = self.g.size as usize;
        let allowed = match self.algo {
            Algo::Scattered => n - 1,
            Algo::Pairwise => (self.prefix + 1).min(n - 1),
        };
        while self.next_send < allowed {
            let to = (self.g.rank as usize + self.next_send + 1) % n;
            let payload = self.data.slice(self.soff[to]..self.soff[to + 1]);
            out.send(to as Rank, self.next_send as u32, payload);
            self.next_send += 1;
        }
    }
}

impl Collective for Exchange {
    fn start(&mut self, out: &mut Outbox) -> Result<(), ProtoError> {
        self.started = true;
        self.pump(out);
        Ok(())
    }

    fn deliver(&mut self, msg: Incoming, out: &mut Outbox) -> Result<(), ProtoError> {
        check_sender(&msg, self.g.size)?;
        let n = self.g.size as usize;
        let from = msg.from as usize;
        // The step a message from `from` must carry; none from myself.
        let dist = (self.g.rank as usize + n - from) % n;
        if dist == 0 || msg.step as usize != dist - 1 {
            return Err(msg.unexpected());
        }
        let s = dist - 1;
        if self.got[s] {
            return Err(msg.duplicate());
        }
        let range = self.roff[from]..self.roff[from + 1];
        msg.expect_len(range.len())?;
        self.out[range].copy_from_slice(&msg.payload);
        self.got[s] = true;
        self.remaining -= 1;
        while self.prefix < n - 1 && self.got[self.prefix] {
            self.prefix += 1;
        }
        self.pump(out);
        Ok(())
    }

    fn is_done(&self) -> bool {
        self.started && self.remaining == 0 && self.next_send == self.got.len()
    }

    fn finish(self: Box<Self>) -> Result<Vec<u8>, ProtoError> {
        if !self.is_done() {
            return Err(ProtoError::NotFinished);
        }
        Ok(self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choice_by_send_volume() {
        assert_eq!(movement::alltoall(0), Algo::Scattered);
        assert_eq!(
            movement::alltoall(movement::SMALL_TOTAL_BYTES - 1),
            Algo::Scattered
        );
        assert_eq!(
            movement::alltoall(movement::SMALL_TOTAL_BYTES),
            Algo::Pairwise
        );
    }
}
