//! Tests of the lane protocol over the in-memory fake queue pair (`fake.rs`: a fake, not
//! hardware). The fake fails any SEND that finds no posted receive, so every test that ends
//! with no violations also shows the credit invariant held for every message.

use super::QueuePair;
use super::fake::{FakeConfig, FakeQp, Link, pair};
use super::message::{HEADER_LEN, Header, Kind};
use super::stream::{QpReader, QpWriter, credit_batch};
use proptest::prelude::*;
use std::io;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Pools of one lane: the writer end (`w_*`) and the reader end (`r_*`).
#[derive(Debug, Clone, Copy)]
struct Lane {
    /// Writer send slots and their length (the reader's receive slots have the same length).
    w_send: (usize, usize),
    /// Writer receive slots (credit messages).
    w_recv: usize,
    /// Reader receive slots: the window.
    r_recv: usize,
    /// Reader send slots (credit messages).
    r_send: usize,
}

impl Lane {
    fn new(w_send: (usize, usize), w_recv: usize, r_recv: usize, r_send: usize) -> Self {
        Self {
            w_send,
            w_recv,
            r_recv,
            r_send,
        }
    }

    fn configs(&self) -> (FakeConfig, FakeConfig) {
        let w = FakeConfig {
            send_slots: self.w_send.0,
            send_slot_len: self.w_send.1,
            recv_slots: self.w_recv,
            recv_slot_len: HEADER_LEN,
        };
        let r = FakeConfig {
            send_slots: self.r_send,
            send_slot_len: HEADER_LEN,
            recv_slots: self.r_recv,
            recv_slot_len: self.w_send.1,
        };
        (w, r)
    }

    /// A connected writer and reader (the reader made first, as the contract asks).
    fn open(&self, seed: u64, delay: u32) -> (QpWriter, QpReader, Link) {
        let (w, r) = self.configs();
        let (wq, rq, link) = pair(w, r, seed, delay);
        let reader = QpReader::new(Box::new(rq)).unwrap();
        let writer = QpWriter::new(Box::new(wq), self.r_recv).unwrap();
        (writer, reader, link)
    }

    /// The reader alone, with the raw fake end that plays the writer.
    fn raw_writer(&self) -> (FakeQp, QpReader, Link) {
        let (w, r) = self.configs();
        let (wq, rq, link) = pair(w, r, 1, 0);
        (wq, QpReader::new(Box::new(rq)).unwrap(), link)
    }

    /// The writer alone, with the raw fake end that plays the reader (receives posted).
    fn raw_reader(&self) -> (QpWriter, FakeQp, Link) {
        let (w, r) = self.configs();
        let (wq, mut rq, link) = pair(w, r, 1, 0);
        for s in 0..self.r_recv {
            rq.post_recv(s).unwrap();
        }
        (QpWriter::new(Box::new(wq), self.r_recv).unwrap(), rq, link)
    }
}

/// Sends one raw message of `header` + `payload` from a fake end's slot 0.
fn raw_send(q: &mut FakeQp, header: &[u8], payload: &[u8]) {
    let buf = q.send_buf(0);
    buf[..header.len()].copy_from_slice(header);
    buf[header.len()..header.len() + payload.len()].copy_from_slice(payload);
    q.post_send(0, header.len() + payload.len()).unwrap();
    let mut out = Vec::new();
    q.poll(&mut out).unwrap(); // collect the Sent so slot 0 is free again
}

fn header(kind: Kind, credits: u16, len: u32) -> [u8; HEADER_LEN] {
    let mut h = [0; HEADER_LEN];
    Header { kind, credits, len }.encode(&mut h);
    h
}

/// Deterministic pseudo-random bytes.
fn bytes(n: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

/// What the writer task does: write bytes or flush.
#[derive(Debug, Clone)]
enum Op {
    Write(usize),
    Flush,
}

async fn with_deadline<T>(secs: u64, f: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(secs), f)
        .await
        .expect("the lane stalled past its deadline")
}

/// Runs writer and reader as tasks; returns what the reader got and the writer's stats.
async fn transfer(lane: Lane, ops: Vec<Op>, read_sizes: Vec<usize>, seed: u64, delay: u32) {
    let (mut w, mut r, link) = lane.open(seed, delay);
    let total: usize = ops
        .iter()
        .map(|o| if let Op::Write(n) = o { *n } else { 0 })
        .sum();
    let data = bytes(total, seed);
    let sent = data.clone();
    let writer = tokio::spawn(async move {
        let mut at = 0;
        for op in ops {
            match op {
                Op::Write(n) => {
                    w.write_all(&sent[at..at + n]).await?;
                    at += n;
                }
                Op::Flush => w.flush().await?,
            }
        }
        w.shutdown().await?;
        io::Result::Ok(w.stats())
    });
    let reader = tokio::spawn(async move {
        let mut got = Vec::new();
        let mut i = 0;
        loop {
            let mut chunk = vec![0; read_sizes[i % read_sizes.len()]];
            i += 1;
            let n = r.read(&mut chunk).await?;
            if n == 0 {
                break;
            }
            got.extend_from_slice(&chunk[..n]);
        }
        io::Result::Ok((got, r.stats()))
    });
    let (ws, (got, rs)) = with_deadline(60, async {
        (
            writer.await.unwrap().unwrap(),
            reader.await.unwrap().unwrap(),
        )
    })
    .await;
    assert!(
        got == data,
        "{} bytes received, {} sent, or they differ",
        got.len(),
        data.len()
    );
    assert_eq!(link.violations(), Vec::<String>::new());
    assert_eq!(ws.bytes, total as u64);
    assert_eq!(rs.messages, ws.messages);
    assert_eq!(ws.credits_returned, rs.credits_returned);
    // Every credit message carried at least a batch: ceil(window / writer receives), and a
    // quarter of the window.
    let batch = lane
        .r_recv
        .div_ceil(lane.w_recv)
        .max(lane.r_recv.div_ceil(4)) as u64;
    assert!(
        rs.credits_returned >= batch * rs.credit_messages,
        "{rs:?} batch {batch}"
    );
}

fn run<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(f)
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (1usize..=6000).prop_map(Op::Write),
        1 => Just(Op::Flush),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_streams_arrive_byte_exact(
        slot_len in prop_oneof![64usize..=512, 513usize..=65536],
        send_slots in 1usize..=4,
        w_recv in 1usize..=4,
        window in 1usize..=16,
        r_send in 1usize..=3,
        ops in proptest::collection::vec(op(), 0..24),
        read_sizes in proptest::collection::vec(1usize..=70_000, 1..5),
        seed in any::<u64>(),
        delay in 0u32..=3,
    ) {
        let lane = Lane::new((send_slots, slot_len), w_recv, window, r_send);
        run(transfer(lane, ops, read_sizes, seed, delay));
    }
}

#[test]
fn small_and_large_windows_and_slots() {
    for (slot, window, w_recv) in [(64, 1, 1), (65536, 16, 2), (100, 16, 1), (4096, 7, 3)] {
        let ops = vec![Op::Write(300_000), Op::Flush, Op::Write(5)];
        let lane = Lane::new((2, slot), w_recv, window, 1);
        run(transfer(lane, ops, vec![1000, 65536, 3], 42, 2));
    }
}

/// 10,000 messages through a window of one: every message waits for the credit of the one
/// before, so a lost wake-up would stall the test (each wait has a deadline).
#[test]
fn a_writer_blocked_on_credits_wakes_up_every_time() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        const N: u64 = 10_000;
        let lane = Lane::new((1, 64), 1, 1, 1);
        let (mut w, mut r, link) = lane.open(9, 1);
        let writer = tokio::spawn(async move {
            for i in 0..N {
                w.write_all(&i.to_le_bytes()).await?;
                w.flush().await?;
            }
            w.shutdown().await?;
            io::Result::Ok(w.stats())
        });
        let reader = tokio::spawn(async move {
            for i in 0..N {
                let mut b = [0; 8];
                r.read_exact(&mut b).await?;
                assert_eq!(u64::from_le_bytes(b), i);
            }
            let mut rest = Vec::new();
            r.read_to_end(&mut rest).await?;
            assert!(rest.is_empty());
            io::Result::Ok(r.stats())
        });
        let (ws, rs) = with_deadline(120, async {
            (
                writer.await.unwrap().unwrap(),
                reader.await.unwrap().unwrap(),
            )
        })
        .await;
        assert_eq!(ws.messages, N + 1, "one message per flush, then End");
        assert_eq!(rs.messages, N + 1);
        // End needed the credit of the last data message, so every one came back.
        assert_eq!(ws.credits_returned, N);
        assert_eq!(rs.credit_messages, N);
        assert!(ws.credit_waits > 0, "window 1 must make the writer wait");
        assert_eq!((link.delivered(1), link.delivered(0)), (N + 1, N));
        assert_eq!(link.violations(), Vec::<String>::new());
    });
}

#[test]
fn credits_come_back_in_batches() {
    // Window 16 and 2 writer receives: credits return 8 at a time.
    let lane = Lane::new((4, 128), 2, 16, 2);
    let ops = (0..500).flat_map(|_| [Op::Write(100), Op::Flush]).collect();
    run(transfer(lane, ops, vec![37], 3, 1));
}

#[tokio::test]
async fn shutdown_sends_end_and_the_reader_sees_eof() {
    let (mut w, mut r, link) = Lane::new((2, 256), 1, 4, 1).open(5, 2);
    w.write_all(b"hello, lane").await.unwrap();
    with_deadline(10, w.shutdown()).await.unwrap();
    w.shutdown().await.unwrap(); // idempotent
    w.flush().await.unwrap();
    let e = w.write_all(b"more").await.unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::BrokenPipe);
    let mut got = Vec::new();
    with_deadline(10, r.read_to_end(&mut got)).await.unwrap();
    assert_eq!(got, b"hello, lane");
    let mut b = [0; 4];
    assert_eq!(r.read(&mut b).await.unwrap(), 0, "EOF stays EOF");
    assert_eq!(
        w.stats().messages,
        1,
        "the last bytes ride in the End message"
    );
    assert_eq!(link.violations(), Vec::<String>::new());
}

#[tokio::test]
async fn an_empty_stream_is_just_end() {
    let (mut w, mut r, _link) = Lane::new((1, 64), 1, 1, 1).open(5, 0);
    with_deadline(10, w.shutdown()).await.unwrap();
    let mut got = Vec::new();
    with_deadline(10, r.read_to_end(&mut got)).await.unwrap();
    assert!(got.is_empty());
}

#[tokio::test]
async fn a_failed_work_request_reaches_both_ends() {
    let (mut w, mut r, link) = Lane::new((2, 128), 1, 4, 1).open(11, 1);
    let writer = tokio::spawn(async move {
        let chunk = [7u8; 1000];
        loop {
            w.write_all(&chunk).await?;
        }
        #[allow(unreachable_code)]
        io::Result::Ok(())
    });
    let reader = tokio::spawn(async move {
        let mut b = [0; 333];
        loop {
            if r.read(&mut b).await? == 0 {
                return io::Result::Ok(());
            }
        }
    });
    tokio::time::sleep(Duration::from_millis(30)).await;
    link.fail("injected: transport retry counter exceeded");
    let (we, re) =
        with_deadline(10, async { (writer.await.unwrap(), reader.await.unwrap()) }).await;
    for e in [we.unwrap_err(), re.unwrap_err()] {
        assert_eq!(e.kind(), io::ErrorKind::ConnectionAborted, "{e}");
        assert!(e.to_string().contains("retry counter exceeded"), "{e}");
    }
}

#[tokio::test]
async fn a_poll_error_is_an_io_error_naming_it() {
    let (mut w, mut r, link) = Lane::new((1, 64), 1, 1, 1).open(1, 0);
    link.break_poll("device removed");
    let mut b = [0; 4];
    let e = with_deadline(10, r.read(&mut b)).await.unwrap_err();
    assert!(
        e.to_string().contains("polling the completion queue"),
        "{e}"
    );
    assert!(e.to_string().contains("device removed"), "{e}");
    let e = with_deadline(10, w.write_all(b"x")).await.unwrap_err();
    assert!(e.to_string().contains("device removed"), "{e}");
    // The error sticks.
    assert!(r.read(&mut b).await.is_err());
}

#[tokio::test]
async fn malformed_messages_to_the_reader_are_invalid_data() {
    let lane = Lane::new((1, 64), 1, 4, 1);
    let data = |len| header(Kind::Data, 1, len);
    let cases: Vec<(Vec<Vec<u8>>, &str)> = vec![
        (vec![vec![1, 0, 1]], "shorter than the 8-byte header"),
        (
            vec![[&header(Kind::Data, 1, 9)[..], b"abc"].concat()],
            "states 9 payload bytes",
        ),
        (
            vec![[&header(Kind::Data, 1, 100)[..], &[0; 56]].concat()],
            "states 100",
        ),
        (
            vec![{
                let mut h = data(0).to_vec();
                h[0] = 42;
                h
            }],
            "unknown message kind 42",
        ),
        (
            vec![header(Kind::Credit, 1, 0).to_vec()],
            "received a Credit message",
        ),
        (
            vec![data(0).to_vec(), header(Kind::Data, 2, 0).to_vec()],
            "window changed from 1 to 2",
        ),
        (
            vec![header(Kind::End, 1, 0).to_vec(), data(0).to_vec()],
            "arrived after End",
        ),
    ];
    for (msgs, want) in cases {
        let (mut raw, mut r, _link) = lane.raw_writer();
        for m in &msgs {
            raw_send(
                &mut raw,
                &m[..HEADER_LEN.min(m.len())],
                &m[HEADER_LEN.min(m.len())..],
            );
        }
        let mut got = Vec::new();
        let e = with_deadline(10, r.read_to_end(&mut got))
            .await
            .unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData, "{e}");
        assert!(e.to_string().contains(want), "{e} lacks {want:?}");
    }
}

#[tokio::test]
async fn malformed_messages_to_the_writer_are_invalid_data() {
    let lane = Lane::new((1, 64), 1, 2, 1);
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (
            header(Kind::Credit, 1, 0).to_vec(),
            "credit overflow: 2 held + 1 returned",
        ),
        (header(Kind::Data, 1, 0).to_vec(), "received a Data message"),
        (vec![2, 0, 1, 0, 0, 0], "shorter than"),
    ];
    for (m, want) in cases {
        let (mut w, mut raw, _link) = lane.raw_reader();
        raw_send(&mut raw, &m, &[]);
        let e = with_deadline(10, w.write_all(b"x")).await.unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData, "{e}");
        assert!(e.to_string().contains(want), "{e} lacks {want:?}");
    }
}

#[test]
fn pools_that_cannot_carry_the_protocol_are_rejected() {
    let ok = Lane::new((1, 64), 1, 1, 1);
    let (w, r) = ok.configs();
    let cases = [
        (
            FakeConfig {
                send_slot_len: HEADER_LEN,
                ..w
            },
            r,
            1,
            "leave no room",
        ),
        (FakeConfig { send_slots: 0, ..w }, r, 1, "no send slots"),
        (FakeConfig { recv_slots: 0, ..w }, r, 1, "0 receive slots"),
        (w, r, 0, "credits is 0"),
    ];
    for (wc, rc, credits, want) in cases {
        let (wq, _rq, _) = pair(wc, rc, 1, 0);
        let e = QpWriter::new(Box::new(wq), credits)
            .err()
            .expect("rejected");
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert!(e.to_string().contains(want), "{e} lacks {want:?}");
    }
    for (rc, want) in [
        (
            FakeConfig {
                recv_slots: 70_000,
                ..r
            },
            "70000 receive slots",
        ),
        (
            FakeConfig {
                recv_slot_len: HEADER_LEN,
                ..r
            },
            "leave no room",
        ),
        (
            FakeConfig {
                send_slot_len: 4,
                ..r
            },
            "cannot hold",
        ),
    ] {
        let (_wq, rq, _) = pair(w, rc, 1, 0);
        let e = QpReader::new(Box::new(rq)).err().expect("rejected");
        assert!(e.to_string().contains(want), "{e} lacks {want:?}");
    }
}

#[test]
fn both_ends_are_send_and_unpin() {
    fn check<T: Send + Unpin + 'static>() {}
    check::<QpWriter>();
    check::<QpReader>();
    check::<super::mr_cache::MrCache<Vec<u8>>>();
}

/// The lane carries nexar frames: encoded headers and payloads go in, the same frames decode
/// on the other side.
#[tokio::test]
async fn the_lane_carries_nexar_frames() {
    use crate::wire::{FrameHeader, FrameKind, HEADER_LEN as FRAME_HEADER_LEN};
    use crate::wire::{decode_header, encode_header};
    let (mut w, mut r, link) = Lane::new((3, 4096), 2, 8, 1).open(17, 2);
    let frames: Vec<(FrameHeader, Vec<u8>)> = (0..40u64)
        .map(|i| {
            let mut h = FrameHeader::new(FrameKind::P2p, 3);
            h.context = 7;
            h.tag = i as i32;
            h.seq = i;
            let payload = bytes((i as usize * 7919) % 50_000, i);
            h.len = payload.len() as u64;
            (h, payload)
        })
        .collect();
    let sent = frames.clone();
    let writer = tokio::spawn(async move {
        for (h, p) in &sent {
            w.write_all(&encode_header(h)).await?;
            w.write_all(p).await?;
        }
        w.shutdown().await
    });
    let reader = tokio::spawn(async move {
        let mut got = Vec::new();
        loop {
            let mut hb = [0u8; FRAME_HEADER_LEN];
            match r.read_exact(&mut hb).await {
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(got),
                Err(e) => return Err(e),
            }
            let h = decode_header(&hb, 1 << 20).map_err(|e| io::Error::other(e.to_string()))?;
            let mut p = vec![0; h.len as usize];
            r.read_exact(&mut p).await?;
            got.push((h, p));
        }
    });
    let (wr, got) =
        with_deadline(30, async { (writer.await.unwrap(), reader.await.unwrap()) }).await;
    wr.unwrap();
    assert_eq!(got.unwrap(), frames);
    assert_eq!(link.violations(), Vec::<String>::new());
}

#[test]
fn credit_batches_fit_the_writer_receives_and_the_window() {
    // (reader window, writer receives, batch)
    for (window, peer, want) in [
        (1, 1, 1),
        (16, 1, 16),
        (16, 2, 8),
        (16, 16, 4),
        (7, 3, 3),
        (2, 100, 1),
    ] {
        let b = credit_batch(window, peer);
        assert_eq!(b, want, "window {window}, peer {peer}");
        // At most window / b credit messages can be unprocessed: never more than `peer`.
        assert!(window / b <= peer && b <= window);
    }
}

/// The writer closing the queue pair after its End was delivered is no failure for the reader.
#[tokio::test]
async fn a_failure_after_end_is_not_an_error() {
    let lane = Lane::new((1, 64), 1, 4, 1);
    let (mut raw, mut r, link) = lane.raw_writer();
    raw_send(&mut raw, &header(Kind::Data, 1, 2), b"ab");
    raw_send(&mut raw, &header(Kind::End, 1, 2), b"cd");
    link.fail("remote closed");
    let mut got = Vec::new();
    with_deadline(10, r.read_to_end(&mut got)).await.unwrap();
    assert_eq!(got, b"abcd");
    // Without End the same failure is an error.
    let (mut raw, mut r, link) = lane.raw_writer();
    raw_send(&mut raw, &header(Kind::Data, 1, 2), b"ab");
    link.fail("remote closed");
    let e = with_deadline(10, r.read_to_end(&mut got))
        .await
        .unwrap_err();
    assert!(e.to_string().contains("remote closed"), "{e}");
}
