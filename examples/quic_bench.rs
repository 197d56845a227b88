//! Rough QUIC transport numbers on loopback: one-way throughput of 16 MiB frames and 8-byte
//! ping-pong latency between two in-process ranks. Not a test; run with
//! `cargo run --release --example quic_bench`.

use bytes::Bytes;
use nexar::security::JobSecret;
use nexar::transport::quic::QuicTransport;
use nexar::transport::{FrameSink, Transport};
use nexar::wire::{Frame, FrameHeader, FrameKind};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};

struct Chan(UnboundedSender<Frame>);

impl FrameSink for Chan {
    fn on_frame(&self, frame: Frame) {
        let _ = self.0.send(frame);
    }
    fn on_peer_lost(&self, peer: u32, reason: String) {
        eprintln!("peer {peer} lost: {reason}");
    }
}

fn frame(src: u32, payload: Bytes) -> Frame {
    Frame::new(FrameHeader::new(FrameKind::P2p, src), payload)
}

fn main() {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .init();
    let threads = std::env::var("BENCH_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads)
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let cfg = nexar::Config::default();
        let secret = JobSecret::generate().expect("secret");
        let (tx0, mut rx0) = unbounded_channel();
        let (tx1, mut rx1) = unbounded_channel();
        let t0 = QuicTransport::bind(0, 2, &secret, &cfg, Arc::new(Chan(tx0))).expect("bind");
        let t1 = QuicTransport::bind(1, 2, &secret, &cfg, Arc::new(Chan(tx1))).expect("bind");
        let addrs = vec![
            t0.local_addr().expect("addr"),
            t1.local_addr().expect("addr"),
        ];
        t0.set_peer_addrs(addrs.clone()).expect("addrs");
        t1.set_peer_addrs(addrs).expect("addrs");

        let big = Bytes::from(vec![7u8; 16 << 20]);
        for _ in 0..2 {
            t0.send(1, frame(0, big.clone())).expect("send");
            rx1.recv().await.expect("frame");
        }
        let n = 32;
        let start = Instant::now();
        for _ in 0..n {
            t0.send(1, frame(0, big.clone())).expect("send");
        }
        for _ in 0..n {
            rx1.recv().await.expect("frame");
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "throughput, 16 MiB frames one way: {:.0} MB/s",
            (n as f64) * big.len() as f64 / secs / 1e6
        );

        let small = Bytes::from_static(&[1u8; 8]);
        let iters = 2000;
        let mut best = Duration::MAX;
        for _ in 0..3 {
            let start = Instant::now();
            for _ in 0..iters {
                t0.send(1, frame(0, small.clone())).expect("send");
                rx1.recv().await.expect("frame");
                t1.send(0, frame(1, small.clone())).expect("send");
                rx0.recv().await.expect("frame");
            }
            best = best.min(start.elapsed());
        }
        println!(
            "latency, 8 B one way (half round trip): {:.1} us",
            best.as_secs_f64() / iters as f64 / 2.0 * 1e6
        );
        tokio::join!(t0.shutdown(), t1.shutdown());
    });
}
