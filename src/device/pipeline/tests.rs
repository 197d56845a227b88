//! Unit tests of the staging pipeline against a host-memory fake copy engine.
//!
//! `FakeEngine` exists only for these unit tests: its "device" is a host `Vec`, and each copy
//! is carried out when it is waited for (the latest moment a real asynchronous copy may land),
//! so a pipeline that read a bounce buffer before waiting, or refilled one with a copy still in
//! flight, would see wrong bytes or trip the fake's assertions.

use super::{CopyEngine, SLOTS, download, upload};
use crate::error::{Error, ErrorKind, Result};

/// Device addresses of the fake start here, so offsets and addresses cannot be confused.
const BASE: u64 = 0x7000_0000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Down { src: u64, len: usize },
    Up { dst: u64, len: usize },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ev {
    Start(usize, Op),
    Done(usize),
}

/// Host-memory stand-in for a GPU copy engine; for unit tests only (see the module docs).
struct FakeEngine {
    mem: Vec<u8>,
    bounce: Vec<Vec<u8>>,
    inflight: [Option<Op>; SLOTS],
    log: Vec<Ev>,
    /// Copies in flight each time the pipeline took a bounce buffer for host work.
    busy_at_host: Vec<usize>,
    max_inflight: usize,
    starts: usize,
    fail_start: Option<usize>,
}

impl FakeEngine {
    fn new(mem: Vec<u8>, chunk: usize) -> Self {
        Self {
            mem,
            bounce: vec![vec![0xEE; chunk]; SLOTS],
            inflight: [None; SLOTS],
            log: Vec::new(),
            busy_at_host: Vec::new(),
            max_inflight: 0,
            starts: 0,
            fail_start: None,
        }
    }

    fn idx(&self, addr: u64, len: usize) -> std::ops::Range<usize> {
        let at = (addr - BASE) as usize;
        assert!(
            at + len <= self.mem.len(),
            "copy past the fake device buffer"
        );
        at..at + len
    }

    fn start(&mut self, slot: usize, op: Op) -> Result<()> {
        assert!(
            self.inflight[slot].is_none(),
            "slot {slot} restarted with a copy in flight"
        );
        if self.fail_start == Some(self.starts) {
            return Err(Error::new(ErrorKind::Internal, "fake copy failure"));
        }
        self.starts += 1;
        self.inflight[slot] = Some(op);
        self.log.push(Ev::Start(slot, op));
        let busy = self.inflight.iter().flatten().count();
        self.max_inflight = self.max_inflight.max(busy);
        Ok(())
    }

    fn busy(&self) -> usize {
        self.inflight.iter().flatten().count()
    }
}

impl CopyEngine for FakeEngine {
    fn chunk(&self) -> usize {
        self.bounce[0].len()
    }

    fn start_download(&mut self, slot: usize, src: u64, len: usize) -> Result<()> {
        self.start(slot, Op::Down { src, len })
    }

    fn start_upload(&mut self, slot: usize, dst: u64, len: usize) -> Result<()> {
        self.start(slot, Op::Up { dst, len })
    }

    fn wait(&mut self, slot: usize) -> Result<()> {
        match self.inflight[slot].take() {
            Some(Op::Down { src, len }) => {
                let r = self.idx(src, len);
                self.bounce[slot][..len].copy_from_slice(&self.mem[r]);
            }
            Some(Op::Up { dst, len }) => {
                let r = self.idx(dst, len);
                self.mem[r].copy_from_slice(&self.bounce[slot][..len]);
            }
            None => {}
        }
        self.log.push(Ev::Done(slot));
        Ok(())
    }

    fn bounce(&mut self, slot: usize) -> &mut [u8] {
        assert!(
            self.inflight[slot].is_none(),
            "bounce buffer {slot} touched with a copy in flight"
        );
        self.busy_at_host.push(self.busy());
        &mut self.bounce[slot]
    }
}

fn pattern(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i * 7 + i / 251) as u8).collect()
}

const CHUNK: usize = 16;
const SIZES: [usize; 8] = [
    0,
    1,
    CHUNK - 1,
    CHUNK,
    CHUNK + 1,
    2 * CHUNK,
    3 * CHUNK + 5,
    97,
];

#[test]
fn download_delivers_every_byte_in_order_with_a_partial_last_chunk() {
    for total in SIZES {
        let data = pattern(total);
        let mut eng = FakeEngine::new(data.clone(), CHUNK);
        let mut got = Vec::new();
        let mut offsets = Vec::new();
        download(&mut eng, BASE, total, |off, bytes| {
            offsets.push((off, bytes.len()));
            got.extend_from_slice(bytes);
            Ok(())
        })
        .unwrap();
        assert_eq!(got, data, "total {total}");
        let want: Vec<_> = (0..total.div_ceil(CHUNK))
            .map(|k| (k * CHUNK, CHUNK.min(total - k * CHUNK)))
            .collect();
        assert_eq!(offsets, want, "chunks of {total}");
        assert_eq!(eng.busy(), 0, "nothing left in flight");
    }
}

#[test]
fn download_overlaps_the_next_copy_with_the_host_work() {
    let total = 5 * CHUNK + 3;
    let mut eng = FakeEngine::new(pattern(total), CHUNK);
    download(&mut eng, BASE, total, |_, _| Ok(())).unwrap();
    assert_eq!(eng.max_inflight, 2, "two copies in flight at once");
    // While chunk k (not the last) is handled on the host, chunk k+1's copy is in flight.
    let n = total.div_ceil(CHUNK);
    let want: Vec<_> = (0..n).map(|k| usize::from(k + 1 < n)).collect();
    assert_eq!(eng.busy_at_host, want);
    // Copies start in address order, alternating slots, each before the previous chunk's wait.
    let starts: Vec<_> = eng
        .log
        .iter()
        .filter_map(|e| match e {
            Ev::Start(slot, Op::Down { src, .. }) => Some((*slot, *src)),
            _ => None,
        })
        .collect();
    let want: Vec<_> = (0..n)
        .map(|k| (k % SLOTS, BASE + (k * CHUNK) as u64))
        .collect();
    assert_eq!(starts, want);
    assert_eq!(
        &eng.log[..3],
        &[
            Ev::Start(
                0,
                Op::Down {
                    src: BASE,
                    len: CHUNK
                }
            ),
            Ev::Start(
                1,
                Op::Down {
                    src: BASE + CHUNK as u64,
                    len: CHUNK
                }
            ),
            Ev::Done(0),
        ]
    );
}

#[test]
fn upload_lands_every_byte_and_fills_a_chunk_while_the_previous_one_copies() {
    for total in SIZES {
        let src = pattern(total);
        let mut eng = FakeEngine::new(vec![0; total], CHUNK);
        upload(&mut eng, BASE, total, |off, bounce| {
            bounce.copy_from_slice(&src[off..off + bounce.len()]);
            Ok(())
        })
        .unwrap();
        assert_eq!(eng.mem, src, "total {total}");
        assert_eq!(eng.busy(), 0, "upload returns with every copy done");
        let n = total.div_ceil(CHUNK);
        let want: Vec<_> = (0..n).map(|k| k.min(1)).collect();
        assert_eq!(
            eng.busy_at_host, want,
            "previous upload in flight, total {total}"
        );
        if total > CHUNK {
            assert_eq!(eng.max_inflight, 2);
        }
    }
}

#[test]
fn upload_never_refills_a_slot_before_its_copy_is_done() {
    let total = 7 * CHUNK;
    let mut eng = FakeEngine::new(vec![0; total], CHUNK);
    upload(&mut eng, BASE, total, |off, b| {
        b.fill((off / CHUNK) as u8 + 1);
        Ok(())
    })
    .unwrap();
    // A refill before the wait would have tripped the fake's assertion; check the data too.
    for k in 0..7 {
        assert!(
            eng.mem[k * CHUNK..(k + 1) * CHUNK]
                .iter()
                .all(|&b| b == k as u8 + 1)
        );
    }
}

#[test]
fn a_failed_copy_is_reported_and_nothing_stays_in_flight() {
    let total = 6 * CHUNK;
    let mut eng = FakeEngine::new(pattern(total), CHUNK);
    eng.fail_start = Some(3);
    let mut seen = 0;
    let e = download(&mut eng, BASE, total, |_, _| {
        seen += 1;
        Ok(())
    })
    .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Internal);
    assert!(seen < 6, "the consumer stops at the failure");
    assert_eq!(eng.busy(), 0);

    let mut eng = FakeEngine::new(vec![0; total], CHUNK);
    eng.fail_start = Some(2);
    let e = upload(&mut eng, BASE, total, |_, _| Ok(())).unwrap_err();
    assert!(e.message().contains("fake copy failure"), "{e}");
    assert_eq!(eng.busy(), 0);
}

#[test]
fn a_consumer_error_stops_the_download_and_drains_it() {
    let total = 4 * CHUNK;
    let mut eng = FakeEngine::new(pattern(total), CHUNK);
    let e = download(&mut eng, BASE, total, |off, _| {
        if off == CHUNK {
            Err(Error::new(ErrorKind::Truncated, "stop"))
        } else {
            Ok(())
        }
    })
    .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Truncated);
    assert_eq!(eng.busy(), 0, "the in-flight copy was waited for");
}
