//! Shared helpers for the QUIC, security and launcher tests.
#![allow(dead_code)]

use bytes::Bytes;
use nexar::Config;
use nexar::security::JobSecret;
use nexar::transport::FrameSink;
use nexar::transport::quic::QuicTransport;
use nexar::wire::{Frame, FrameHeader, FrameKind};
use parking_lot::Mutex;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A sink that records everything.
#[derive(Default)]
pub struct Recorder {
    pub frames: Mutex<Vec<Frame>>,
    pub lost: Mutex<Vec<(u32, String)>>,
    /// What `known_failures` answers (set by a test).
    pub known: Mutex<Vec<u32>>,
    /// Failures peers reported in their goodbyes: (who, which ranks).
    pub reported: Mutex<Vec<(u32, Vec<u32>)>>,
}

impl FrameSink for Recorder {
    fn on_frame(&self, frame: Frame) {
        self.frames.lock().push(frame);
    }
    fn on_peer_lost(&self, peer: u32, reason: String) {
        self.lost.lock().push((peer, reason));
    }
    fn known_failures(&self) -> Vec<u32> {
        self.known.lock().clone()
    }
    fn on_failures_reported(&self, by: u32, failed: &[u32]) {
        self.reported.lock().push((by, failed.to_vec()));
    }
}

impl Recorder {
    pub fn new() -> Arc<Self> {
        Arc::new(Self::default())
    }
    pub fn frame_count(&self) -> usize {
        self.frames.lock().len()
    }
    pub fn lost_peers(&self) -> Vec<u32> {
        self.lost.lock().iter().map(|(p, _)| *p).collect()
    }
}

/// Polls `cond` every 5 ms until it holds or `limit` passes. Returns whether it held.
pub async fn wait_until(limit: Duration, mut cond: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    loop {
        if cond() {
            return true;
        }
        if start.elapsed() > limit {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// A configuration with short timeouts for tests.
pub fn test_config() -> Config {
    Config {
        peer_timeout: Duration::from_secs(2),
        connect_timeout: Duration::from_secs(5),
        ..Config::default()
    }
}

/// A fixed secret for tests.
pub fn secret(byte: u8) -> JobSecret {
    JobSecret::from_bytes([byte; 32])
}

/// Binds `n` transports sharing `secret` and gives each the others' addresses.
pub fn world(n: u32, secret: &JobSecret, cfg: &Config) -> (Vec<QuicTransport>, Vec<Arc<Recorder>>) {
    let sinks: Vec<_> = (0..n).map(|_| Recorder::new()).collect();
    let ts: Vec<_> = (0..n)
        .map(|r| QuicTransport::bind(r, n, secret, cfg, sinks[r as usize].clone()).unwrap())
        .collect();
    let addrs: Vec<_> = ts.iter().map(|t| t.local_addr().unwrap()).collect();
    for t in &ts {
        t.set_peer_addrs(addrs.clone()).unwrap();
    }
    (ts, sinks)
}

/// A p2p frame from `src` with sequence number `seq` and a payload whose bytes depend on both.
pub fn frame(src: u32, seq: u64, len: usize) -> Frame {
    let mut h = FrameHeader::new(FrameKind::P2p, src);
    h.seq = seq;
    h.tag = 7;
    Frame::new(h, pattern(src, seq, len))
}

/// The payload `frame` builds.
pub fn pattern(src: u32, seq: u64, len: usize) -> Bytes {
    let salt = (src as u64)
        .wrapping_mul(31)
        .wrapping_add(seq.wrapping_mul(7)) as u8;
    (0..len)
        .map(|i| (i as u8).wrapping_mul(13) ^ salt)
        .collect()
}

/// Checks a received frame against what `frame` built.
pub fn check(f: &Frame) {
    assert_eq!(f.header.len as usize, f.payload.len());
    let want = pattern(f.header.src, f.header.seq, f.payload.len());
    assert!(
        f.payload == want,
        "payload of frame seq {} corrupted",
        f.header.seq
    );
}
