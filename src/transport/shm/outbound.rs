//! Records on the rings, and the per-peer queue of what could not be written yet.
//!
//! A frame is a `FRAME` slot (encoded header, then the start of the payload) followed by as many
//! `CONT` slots as the rest of the payload needs; a ring has one producer, so the slots of one
//! frame are never interleaved with another's. Large payloads may instead travel as a `CMA`
//! slot (header, address, token): the receiver copies the bytes out of the sender's memory and
//! answers `ACK` (or `NACK`, after which the sender resends the frame in slots).
//!
//! A small point-to-point message may instead be a single `P2P` slot: a 24-byte record of what
//! its frame header would say beyond what the ring already tells (sender, length, kind), then
//! the payload. With the 64-byte frame header an 8-byte message spanned two cache lines of the
//! slot, so every message cost two line transfers between the cores; now it costs one.

use super::ring::Ring;
use crate::wire::{FrameHeader, FrameKind};
use bytes::Bytes;
use std::collections::VecDeque;

/// First slot of a frame.
pub const FRAME: u32 = 1;
/// A further slot of the current frame's payload.
pub const CONT: u32 = 2;
/// A frame whose payload the receiver reads from the sender's memory.
pub const CMA: u32 = 3;
/// The receiver copied a `CMA` payload (token).
pub const ACK: u32 = 4;
/// The receiver could not copy a `CMA` payload (token): send it in slots.
pub const NACK: u32 = 5;
/// The sender is leaving cleanly.
pub const GOODBYE: u32 = 6;
/// A whole small point-to-point frame in one slot, with a compact header ([`encode_p2p`]).
pub const P2P: u32 = 7;

/// Bytes of a `P2P` slot's record before the payload: context (u64), sequence number (u64),
/// tag (i32), flags (u32), little-endian.
pub const P2P_HEAD: usize = 24;

/// The `P2P` record of p2p frame header `h` (its sender, kind and length go without saying:
/// the ring's producer, `P2P`, the slot's length).
pub fn encode_p2p(h: &FrameHeader) -> [u8; P2P_HEAD] {
    let mut out = [0u8; P2P_HEAD];
    out[..8].copy_from_slice(&h.context.to_le_bytes());
    out[8..16].copy_from_slice(&h.seq.to_le_bytes());
    out[16..20].copy_from_slice(&h.tag.to_le_bytes());
    out[20..].copy_from_slice(&h.step.to_le_bytes());
    out
}

/// The frame header a `P2P` slot from `src` with `data` stands for, and its payload; `None`
/// for a record too short to hold [`P2P_HEAD`] bytes.
pub fn decode_p2p(src: u32, data: &[u8]) -> Option<(FrameHeader, &[u8])> {
    let (head, body) = data.split_at_checked(P2P_HEAD)?;
    let word = |at: usize| u64::from_le_bytes(head[at..at + 8].try_into().expect("8 bytes"));
    let half = |at: usize| <[u8; 4]>::try_from(&head[at..at + 4]).expect("4 bytes");
    let mut h = FrameHeader::new(FrameKind::P2p, src);
    h.context = word(0);
    h.seq = word(8);
    h.tag = i32::from_le_bytes(half(16));
    h.step = u32::from_le_bytes(half(20));
    h.len = body.len() as u64;
    Some((h, body))
}

/// Something waiting to be written to one peer's ring.
pub enum Item {
    /// A frame in slots; `sent` payload bytes (and the header, if `started`) are written.
    Frame {
        /// The encoded header.
        head: Vec<u8>,
        /// The payload.
        payload: Bytes,
        /// Whether the first slot is written.
        started: bool,
        /// Payload bytes written.
        sent: usize,
    },
    /// A one-slot record.
    Control {
        /// Record kind.
        kind: u32,
        /// Record body.
        body: Vec<u8>,
    },
}

impl Item {
    /// A frame to send in slots.
    pub fn frame(head: Vec<u8>, payload: Bytes) -> Self {
        Self::Frame {
            head,
            payload,
            started: false,
            sent: 0,
        }
    }

    /// Writes as much as fits; true when the item is complete.
    fn write(&mut self, ring: &Ring) -> bool {
        match self {
            Item::Control { kind, body } => ring.try_push(*kind, &[body]),
            Item::Frame {
                head,
                payload,
                started,
                sent,
            } => write_frame(ring, head, payload, started, sent),
        }
    }
}

/// Writes as much of a frame (`head` and `payload`) as fits in `ring`, resuming after the
/// first slot if `started` and after `sent` payload bytes; updates both. True when the whole
/// frame is written.
pub fn write_frame(
    ring: &Ring,
    head: &[u8],
    payload: &[u8],
    started: &mut bool,
    sent: &mut usize,
) -> bool {
    let cap = ring.capacity();
    if !*started {
        let n = payload.len().min(cap - head.len());
        if !ring.try_push(FRAME, &[head, &payload[..n]]) {
            return false;
        }
        *started = true;
        *sent = n;
    }
    while *sent < payload.len() {
        let n = (payload.len() - *sent).min(cap);
        if !ring.try_push(CONT, &[&payload[*sent..*sent + n]]) {
            return false;
        }
        *sent += n;
    }
    true
}

/// What a call to [`Outbound::pump`] achieved.
#[derive(Debug, Default, Clone, Copy)]
pub struct Pumped {
    /// At least one slot was published (the receiver should be woken).
    pub wrote: bool,
    /// Items remain: the ring is full and the producer flag is set.
    pub blocked: bool,
}

/// The queue of one peer's outgoing items, in order.
#[derive(Default)]
pub struct Outbound {
    queue: VecDeque<Item>,
}

impl Outbound {
    /// Appends an item.
    pub fn push(&mut self, item: Item) {
        self.queue.push_back(item);
    }

    /// True when everything was written.
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// Drops everything (the peer is gone).
    pub fn clear(&mut self) {
        self.queue.clear();
    }

    /// Writes queued items into `ring` until done or the ring is full.
    pub fn pump(&mut self, ring: &Ring) -> Pumped {
        let mut out = Pumped::default();
        while let Some(front) = self.queue.front_mut() {
            let before = ring.published();
            let done = front.write(ring);
            out.wrote |= ring.published() != before;
            if done {
                self.queue.pop_front();
            } else if !ring.block_producer() {
                out.blocked = true;
                return out;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::ring::ring_bytes;
    use super::*;

    #[test]
    fn a_compact_p2p_record_gives_back_the_header_it_was_made_from() {
        let mut h = FrameHeader::new(FrameKind::P2p, 3);
        h.context = 0x0123_4567_89ab_cdef;
        h.seq = u64::MAX - 1;
        h.tag = -7;
        let mut slot = encode_p2p(&h).to_vec();
        slot.extend_from_slice(b"eight by");
        let (back, body) = decode_p2p(3, &slot).expect("a whole record");
        h.len = 8;
        assert_eq!(back, h);
        assert_eq!(body, b"eight by");
        // The sender is the ring's producer, whatever the record says.
        assert_eq!(decode_p2p(5, &slot).unwrap().0.src, 5);
        assert!(decode_p2p(3, &slot[..P2P_HEAD - 1]).is_none(), "too short");
        assert_eq!(
            decode_p2p(3, &slot[..P2P_HEAD]).unwrap().1,
            b"",
            "no payload"
        );
    }

    #[test]
    fn a_large_frame_is_pipelined_through_a_small_ring() {
        let mut mem = vec![0u64; ring_bytes(4, 64).div_ceil(8) + 8];
        let p = mem.as_mut_ptr() as *mut u8;
        // SAFETY: aligned inside `mem`, which outlives the ring.
        let ring = unsafe { Ring::from_raw(p.add(p.align_offset(64)), 4, 64) };
        let payload: Bytes = (0..1000u32).map(|i| i as u8).collect::<Vec<_>>().into();
        let mut out = Outbound::default();
        out.push(Item::frame(vec![9u8; 10], payload.clone()));
        out.push(Item::Control {
            kind: GOODBYE,
            body: vec![],
        });
        let mut got = Vec::new();
        let mut kinds = Vec::new();
        loop {
            let p = out.pump(&ring);
            while let Some(()) = ring.pop(|k, d| {
                kinds.push(k);
                got.extend_from_slice(d);
            }) {}
            if !p.blocked {
                break;
            }
        }
        assert_eq!(&got[..10], &[9u8; 10]);
        assert_eq!(&got[10..], &payload[..]);
        assert_eq!(kinds[0], FRAME);
        assert_eq!(*kinds.last().unwrap(), GOODBYE);
        assert!(kinds[1..kinds.len() - 1].iter().all(|&k| k == CONT));
    }
}
