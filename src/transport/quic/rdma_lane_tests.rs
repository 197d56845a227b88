//! The RDMA bulk lane end to end in one process, with a FAKE device (`rdma::fake_factory`:
//! in-memory queue pairs, no hardware): the set-up exchange over a real QUIC connection, frames
//! through the generic `write_frames` / `read_frames` over `QpWriter` / `QpReader`, the
//! `"rdma"` counters, the goodbye accounting at shutdown, and the fallbacks when the peer
//! refuses. Nothing here exercises verbs.

use super::QuicTransport;
use crate::config::{Config, RdmaMode};
use crate::security::JobSecret;
use crate::transport::rdma::fake_factory::FakeFactory;
use crate::transport::rdma::probe::Found;
use crate::transport::{FrameSink, Transport, TransportStats};
use crate::wire::{Frame, FrameHeader, FrameKind};
use bytes::Bytes;
use parking_lot::Mutex;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Default)]
struct Recorder {
    frames: Mutex<Vec<Frame>>,
    lost: Mutex<Vec<(u32, String)>>,
}

impl FrameSink for Recorder {
    fn on_frame(&self, frame: Frame) {
        self.frames.lock().push(frame);
    }
    fn on_peer_lost(&self, peer: u32, reason: String) {
        self.lost.lock().push((peer, reason));
    }
}

fn cfg(rdma: RdmaMode) -> Config {
    Config {
        peer_timeout: Duration::from_secs(5),
        connect_timeout: Duration::from_secs(5),
        rdma,
        ..Config::default()
    }
}

fn payload(src: u32, seq: u64, len: usize) -> Bytes {
    let salt = (u64::from(src) * 31 + seq * 7) as u8;
    (0..len)
        .map(|i| (i as u8).wrapping_mul(13) ^ salt)
        .collect()
}

fn frame(src: u32, seq: u64, len: usize) -> Frame {
    let mut h = FrameHeader::new(FrameKind::P2p, src);
    h.seq = seq;
    Frame::new(h, payload(src, seq, len))
}

/// Two ranks; those with `Some(factory)` use that fake device.
fn world(
    modes: [RdmaMode; 2],
    fakes: [Option<Arc<FakeFactory>>; 2],
) -> Vec<(QuicTransport, Arc<Recorder>)> {
    let secret = JobSecret::from_bytes([77; 32]);
    let ts: Vec<_> = (0..2u32)
        .map(|r| {
            let sink = Arc::new(Recorder::default());
            let t =
                QuicTransport::bind(r, 2, &secret, &cfg(modes[r as usize]), sink.clone()).unwrap();
            if let Some(f) = &fakes[r as usize] {
                t.inner.rdma.use_fake_device(Found {
                    device: "fake0".into(),
                    all: vec!["fake0".into()],
                    factory: f.clone(),
                });
            }
            (t, sink)
        })
        .collect();
    let addrs: Vec<_> = ts.iter().map(|(t, _)| t.local_addr().unwrap()).collect();
    for (t, _) in &ts {
        t.set_peer_addrs(addrs.clone()).unwrap();
    }
    ts
}

fn lane(t: &QuicTransport, name: &str) -> TransportStats {
    t.stats()
        .into_iter()
        .find(|(n, _)| *n == name)
        .map(|(_, s)| s)
        .unwrap_or_else(|| panic!("no {name:?} stats"))
}

async fn wait_for(sink: &Recorder, n: usize) -> bool {
    let end = Instant::now() + Duration::from_secs(20);
    while Instant::now() < end {
        if sink.frames.lock().len() >= n || !sink.lost.lock().is_empty() {
            return sink.frames.lock().len() >= n;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    false
}

/// Sizes: bulk frames of several lengths (one over the 256 KiB slot, one not a multiple).
const SIZES: [usize; 6] = [64 << 10, 1 << 20, 300_001, 4 << 20, 100_000, 2 << 20];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn frames_cross_the_fake_rdma_lane_intact_and_in_order() {
    let fake = Arc::new(FakeFactory::default());
    let ts = world(
        [RdmaMode::Auto; 2],
        [Some(fake.clone()), Some(fake.clone())],
    );
    for (seq, &len) in SIZES.iter().enumerate() {
        ts[0].0.send(1, frame(0, seq as u64, len)).unwrap();
        ts[1].0.send(0, frame(1, seq as u64, len)).unwrap();
    }
    for (me, (_, sink)) in ts.iter().enumerate() {
        assert!(
            wait_for(sink, SIZES.len()).await,
            "rank {me}: {:?}",
            sink.lost.lock()
        );
        let frames = sink.frames.lock();
        let from = 1 - me as u32;
        for (seq, f) in frames.iter().enumerate() {
            assert_eq!((f.header.src, f.header.seq), (from, seq as u64));
            assert!(
                f.payload == payload(from, seq as u64, SIZES[seq]),
                "frame {seq} corrupted"
            );
        }
    }
    let total: usize = SIZES.iter().sum();
    for (t, _) in &ts {
        let rdma = lane(t, "rdma");
        assert_eq!((rdma.frames_sent, rdma.frames_received), (6, 6));
        assert_eq!(rdma.bytes_sent, total as u64);
        assert_eq!(rdma.bytes_received, total as u64);
        assert_eq!(lane(t, "tls").frames_sent, 0);
    }
    assert_eq!(fake.violations(), Vec::<String>::new());
    // A clean shutdown: the RDMA lanes count in the goodbyes, nobody is reported lost.
    let (a, b) = (&ts[0].0, &ts[1].0);
    tokio::time::timeout(Duration::from_secs(10), async {
        tokio::join!(a.shutdown(), b.shutdown())
    })
    .await
    .expect("shutdown finishes");
    for (_, sink) in &ts {
        assert!(sink.lost.lock().is_empty(), "{:?}", sink.lost.lock());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_peer_without_a_device_refuses_and_tls_carries_the_frames() {
    let fake = Arc::new(FakeFactory::default());
    // Rank 1 has no device: it refuses rank 0's hello; rank 0 falls back to TLS (both bulk
    // lanes, logged once for the peer).
    let ts = world([RdmaMode::Auto; 2], [Some(fake), None]);
    let mut bulk = frame(0, 0, 1 << 20);
    bulk.header = FrameHeader::new(FrameKind::Collective, 0);
    ts[0].0.send(1, frame(0, 0, 1 << 20)).unwrap();
    ts[0].0.send(1, bulk).unwrap();
    assert!(wait_for(&ts[1].1, 2).await, "{:?}", ts[1].1.lost.lock());
    // The sender counts a frame once its write returns, which may be after the receiver
    // delivered it: wait (bounded) for the count rather than read it at once.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while lane(&ts[0].0, "tls").frames_sent < 2 && std::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    assert_eq!(lane(&ts[0].0, "tls").frames_sent, 2);
    assert_eq!(lane(&ts[0].0, "rdma").frames_sent, 0);
    assert!(ts[0].0.inner.rdma.told.lock().contains(&1));
    assert!(ts[0].1.lost.lock().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn require_with_a_refusing_peer_fails_with_its_reason() {
    let fake = Arc::new(FakeFactory::default());
    let ts = world([RdmaMode::Require, RdmaMode::Off], [Some(fake), None]);
    ts[0].0.send(1, frame(0, 0, 1 << 20)).unwrap();
    let end = Instant::now() + Duration::from_secs(10);
    while ts[0].1.lost.lock().is_empty() && Instant::now() < end {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let lost = ts[0].1.lost.lock().clone();
    assert_eq!(lost.len(), 1, "{lost:?}");
    let (peer, reason) = &lost[0];
    assert_eq!(*peer, 1);
    // Rank 1 allows no set-up stream (RDMA off there), so rank 0 cannot even ask.
    assert!(reason.contains("NEXAR_RDMA=require"), "{reason}");
    assert!(reason.contains("rank 1"), "{reason}");
    assert_eq!(lane(&ts[0].0, "tls").frames_sent, 0);
}
