//! What each fuzz target does with one input, shared by the cargo-fuzz targets
//! (`fuzz_targets/*.rs`) and the stable corpus test (`tests/fuzz_corpus.rs`), which runs every
//! checked-in corpus file through the same functions so `cargo test` exercises them too.
//!
//! Every driver must return normally for any input: decoders answer errors, machines answer
//! errors. A panic is a bug.

use bytes::Bytes;
use nexar::bootstrap::rendezvous::{Hello, Reply};
use nexar::wire::{HEADER_LEN, decode_header, decode_stream, encode_header};
use nexar_proto::algo;
use nexar_proto::{Collective, Datatype, Group, Incoming, Outbox, ReduceOp};

/// `frame_decode`: the input is a stream from rank `input[0] % 8` (the rest of the bytes) with
/// a payload limit of 1 MiB; every header-sized window is also decoded on its own. Whatever
/// decodes must re-encode to the same bytes.
pub fn frame_decode(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let peer = u32::from(first % 8);
    if let Ok(frames) = decode_stream(rest, peer, 1 << 20) {
        for f in frames {
            assert_eq!(f.header.len as usize, f.payload.len());
            assert_eq!(f.header.src, peer);
        }
    }
    for w in rest.windows(HEADER_LEN).take(64) {
        if let Ok(h) = decode_header(w, 1 << 20) {
            assert_eq!(decode_header(&encode_header(&h), 1 << 20).ok(), Some(h));
        }
    }
}

/// `rendezvous_decode`: the input is a rendezvous `Hello`, then (from the same bytes) a `Reply`
/// for a world of `input[0] % 64 + 1` ranks. Whatever decodes must survive an encode/decode
/// round trip unchanged.
pub fn rendezvous_decode(data: &[u8]) {
    if let Ok(h) = Hello::decode(data) {
        let again = Hello::decode(&h.encode()).expect("a decoded Hello re-encodes validly");
        assert_eq!(again.encode(), h.encode());
    }
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let size = u32::from(first % 64) + 1;
    if let Ok(r) = Reply::decode(rest, size) {
        let again = Reply::decode(&r.encode(), size).expect("a decoded Reply re-encodes validly");
        assert_eq!(again.encode(), r.encode());
    }
}

/// Reads the fuzzer's choices one byte (or word) at a time; zeros once exhausted.
struct Choices<'a>(&'a [u8]);

impl Choices<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    fn below(&mut self, n: usize) -> usize {
        let v = usize::from(self.byte()) | (usize::from(self.byte()) << 8);
        if n == 0 { 0 } else { v % n }
    }

    fn done(&self) -> bool {
        self.0.is_empty()
    }
}

/// Builds rank `rank`'s machine of collective `which` on `size` ranks over `count` i32
/// elements.
fn build(which: u8, rank: u32, size: u32, count: usize, root: u32) -> Option<Box<dyn Collective>> {
    let g = Group::new(rank, size).ok()?;
    let data: Vec<u8> = (0..count as i32 * 4)
        .map(|i| (i as u32 ^ rank) as u8)
        .collect();
    let r = match which % 6 {
        0 => algo::allreduce::machine(g, Datatype::I32, ReduceOp::Sum, data),
        1 => algo::bcast::machine(g, root, data),
        2 => algo::reduce::machine(g, root, Datatype::I32, ReduceOp::Max, data),
        3 => {
            let blocks = vec![data.len(); size as usize];
            algo::allgather::machine(g, data, blocks)
        }
        4 => {
            let per = count.div_ceil(size as usize) * 4;
            let data = vec![rank as u8; per * size as usize];
            let v = vec![per; size as usize];
            algo::alltoall::machine(g, data, v.clone(), v)
        }
        _ => Ok(Box::new(algo::barrier::Barrier::new(g)) as Box<dyn Collective>),
    };
    r.ok()
}

/// `proto_machines`: runs one collective on 1..=9 ranks and lets the input choose, message by
/// message, which in-flight message is delivered next and whether it is delivered as is,
/// twice, truncated, with a wrong step or from a wrong sender. Machines must answer errors
/// (after which the driver stops feeding that rank), never panic.
pub fn proto_machines(data: &[u8]) {
    let mut c = Choices(data);
    let which = c.byte();
    let size = u32::from(c.byte() % 9) + 1;
    let count = c.below(300);
    let root = c.below(size as usize) as u32;
    let mut machines: Vec<Option<Box<dyn Collective>>> = (0..size)
        .map(|r| build(which, r, size, count, root))
        .collect();
    // In flight: (to, incoming).
    let mut pool: Vec<(u32, Incoming)> = Vec::new();
    let mut out = Outbox::new();
    for (rank, m) in machines.iter_mut().enumerate() {
        let Some(mm) = m.as_mut() else { continue };
        if mm.start(&mut out).is_err() {
            *m = None;
        }
        for o in out.drain() {
            let msg = Incoming {
                from: rank as u32,
                step: o.step,
                payload: o.payload,
            };
            pool.push((o.to, msg));
        }
    }
    let mut steps = 0;
    while !pool.is_empty() && steps < 10_000 {
        steps += 1;
        let i = if c.done() { 0 } else { c.below(pool.len()) };
        let (to, mut msg) = pool.swap_remove(i);
        match c.byte() % 16 {
            // Duplicate: deliver now and keep a copy in flight.
            1 => pool.push((to, msg.clone())),
            // Truncate the payload.
            2 if !msg.payload.is_empty() => {
                let cut = c.below(msg.payload.len());
                msg.payload = msg.payload.slice(..cut);
            }
            // A step the schedule does not have.
            3 => msg.step = msg.step.wrapping_add(u32::from(c.byte()) + 1),
            // A sender that is some other rank (possibly outside the group).
            4 => msg.from = u32::from(c.byte()) % (size + 2),
            // Extra bytes.
            5 => {
                let mut v = msg.payload.to_vec();
                v.push(c.byte());
                msg.payload = Bytes::from(v);
            }
            _ => {}
        }
        let Some(slot) = machines.get_mut(to as usize) else {
            continue;
        };
        let Some(m) = slot.as_mut() else { continue };
        if m.deliver(msg, &mut out).is_err() {
            *slot = None;
            out.drain().for_each(drop);
            continue;
        }
        for o in out.drain() {
            let msg = Incoming {
                from: to,
                step: o.step,
                payload: o.payload,
            };
            pool.push((o.to, msg));
        }
    }
    for m in machines.into_iter().flatten() {
        if m.is_done() {
            let _ = m.finish();
        }
    }
}
