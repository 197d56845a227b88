//! The TLS-over-TCP bulk lane of the QUIC transport on 127.0.0.1: large frames take it (proved
//! by the transport's "tls" counters), arrive intact and in order, shutdown flushes it, a lane
//! that dies reports its peer lost once, and `BulkLane::Quic` or a peer without the lane falls
//! back to QUIC streams.

mod common;

use common::*;
use nexar::config::BulkLane;
use nexar::transport::quic::QuicTransport;
use nexar::transport::{Transport, TransportStats};
use std::time::{Duration, Instant};

const T: Duration = Duration::from_secs(30);
const BIG: usize = 8 << 20;

fn lane_stats(t: &QuicTransport, lane: &str) -> TransportStats {
    t.stats()
        .into_iter()
        .find(|(n, _)| *n == lane)
        .map(|(_, s)| s)
        .unwrap_or_else(|| panic!("no {lane:?} entry in the transport stats"))
}

/// Frames `i` of the interleaved stream: every fifth is 8 MiB, the rest small.
fn size_of(i: u64) -> usize {
    if i.is_multiple_of(5) {
        BIG
    } else {
        (i as usize) * 37 % 5000
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn large_frames_take_the_tls_lane_both_ways_intact_and_in_order() {
    let (ts, sinks) = world(2, &secret(41), &test_config());
    let n = 30u64;
    for i in 0..n {
        ts[0].send(1, frame(0, i, size_of(i))).unwrap();
        ts[1].send(0, frame(1, i, size_of(i))).unwrap();
    }
    let bigs = (0..n).filter(|&i| size_of(i) == BIG).count() as u64;
    for (me, sink) in sinks.iter().enumerate() {
        assert!(wait_until(T, || sink.frame_count() == n as usize).await);
        let frames = sink.frames.lock();
        frames.iter().for_each(check);
        assert!(frames.iter().all(|f| f.header.src == 1 - me as u32));
        // Each lane keeps its order; the engine restores order across lanes.
        let lane_order = |big: bool| -> Vec<u64> {
            frames
                .iter()
                .filter(|f| (f.payload.len() == BIG) == big)
                .map(|f| f.header.seq)
                .collect()
        };
        let want_big: Vec<u64> = (0..n).filter(|&i| size_of(i) == BIG).collect();
        let want_small: Vec<u64> = (0..n).filter(|&i| size_of(i) != BIG).collect();
        assert_eq!(lane_order(true), want_big);
        assert_eq!(lane_order(false), want_small);
    }
    for t in &ts {
        let tls = lane_stats(t, "tls");
        assert_eq!((tls.frames_sent, tls.frames_received), (bigs, bigs));
        assert_eq!(tls.bytes_sent, bigs * BIG as u64);
        assert_eq!(tls.bytes_received, bigs * BIG as u64);
        let quic = lane_stats(t, "quic");
        assert_eq!(quic.frames_sent, n - bigs);
        assert_eq!(quic.frames_received, n - bigs);
    }
    for s in &sinks {
        assert!(s.lost.lock().is_empty(), "{:?}", s.lost.lock());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bulk_lane_quic_keeps_large_frames_on_quic() {
    let cfg = nexar::Config {
        bulk_lane: BulkLane::Quic,
        ..test_config()
    };
    let (ts, sinks) = world(2, &secret(42), &cfg);
    for i in 0..4 {
        ts[0].send(1, frame(0, i, BIG)).unwrap();
        ts[0].send(1, frame(0, 100 + i, 10)).unwrap();
    }
    assert!(wait_until(T, || sinks[1].frame_count() == 8).await);
    sinks[1].frames.lock().iter().for_each(check);
    assert_eq!(lane_stats(&ts[0], "tls"), TransportStats::default());
    assert_eq!(lane_stats(&ts[1], "tls"), TransportStats::default());
    assert_eq!(lane_stats(&ts[0], "quic").frames_sent, 8);
    assert_eq!(lane_stats(&ts[1], "quic").frames_received, 8);
    assert!(sinks[1].lost.lock().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_peer_without_the_tls_lane_gets_large_frames_over_quic() {
    let s = secret(43);
    let tls = test_config();
    let quic = nexar::Config {
        bulk_lane: BulkLane::Quic,
        ..test_config()
    };
    let sinks = [Recorder::new(), Recorder::new()];
    let ts = [
        QuicTransport::bind(0, 2, &s, &tls, sinks[0].clone()).unwrap(),
        QuicTransport::bind(1, 2, &s, &quic, sinks[1].clone()).unwrap(),
    ];
    let addrs: Vec<_> = ts.iter().map(|t| t.local_addr().unwrap()).collect();
    for t in &ts {
        t.set_peer_addrs(addrs.clone()).unwrap();
    }
    for i in 0..3 {
        ts[0].send(1, frame(0, i, BIG)).unwrap();
        ts[1].send(0, frame(1, i, BIG)).unwrap();
    }
    assert!(wait_until(T, || sinks[1].frame_count() == 3).await);
    assert!(wait_until(T, || sinks[0].frame_count() == 3).await);
    for s in &sinks {
        s.frames.lock().iter().for_each(check);
        assert!(s.lost.lock().is_empty());
    }
    assert_eq!(lane_stats(&ts[0], "tls").frames_sent, 0);
    assert_eq!(lane_stats(&ts[0], "quic").frames_sent, 3);
    tokio::join!(ts[0].shutdown(), ts[1].shutdown());
    for s in &sinks {
        assert!(s.lost.lock().is_empty(), "{:?}", s.lost.lock());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_flushes_large_frames_queued_on_the_tls_lane() {
    let (ts, sinks) = world(3, &secret(44), &test_config());
    // Connections up first (see the QUIC transport's shutdown test).
    ts[0].send(1, frame(0, 1000, 1)).unwrap();
    ts[2].send(1, frame(2, 1000, 1)).unwrap();
    assert!(wait_until(T, || sinks[1].frame_count() == 2).await);
    for i in 0..6 {
        ts[0].send(1, frame(0, i, BIG)).unwrap();
        ts[2].send(1, frame(2, i, BIG / 2)).unwrap();
        ts[2].send(1, frame(2, 100 + i, 7)).unwrap();
    }
    let start = Instant::now();
    tokio::join!(ts[0].shutdown(), ts[1].shutdown(), ts[2].shutdown());
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(sinks[1].frame_count(), 2 + 18);
    sinks[1].frames.lock().iter().for_each(check);
    for s in &sinks {
        assert!(s.lost.lock().is_empty(), "{:?}", s.lost.lock());
    }
    assert_eq!(lane_stats(&ts[1], "tls").frames_received, 12);
}

#[test]
fn a_tls_lane_closed_without_goodbye_reports_the_peer_lost_once() {
    let cfg = test_config();
    let rt_a = tokio::runtime::Runtime::new().unwrap();
    let rt_b = tokio::runtime::Runtime::new().unwrap();
    let s = secret(45);
    let sink_a = Recorder::new();
    let a = rt_a.block_on(async { QuicTransport::bind(0, 2, &s, &cfg, sink_a.clone()).unwrap() });
    let b = rt_b.block_on(async { QuicTransport::bind(1, 2, &s, &cfg, Recorder::new()).unwrap() });
    let addrs = vec![a.local_addr().unwrap(), b.local_addr().unwrap()];
    a.set_peer_addrs(addrs.clone()).unwrap();
    b.set_peer_addrs(addrs).unwrap();
    rt_a.block_on(async {
        b.send(0, frame(1, 0, BIG)).unwrap();
        assert!(wait_until(T, || sink_a.frame_count() == 1).await);
    });
    assert_eq!(lane_stats(&a, "tls").frames_received, 1);
    // b dies: its runtime stops and its sockets close, the TLS lane without a close_notify.
    std::mem::forget(b);
    rt_b.shutdown_background();
    let start = Instant::now();
    rt_a.block_on(async {
        assert!(wait_until(T, || !sink_a.lost.lock().is_empty()).await);
        // The TCP close is seen at once, long before QUIC's idle timeout.
        assert!(start.elapsed() < cfg.peer_timeout, "{:?}", start.elapsed());
        // QUIC notices too, later; the peer is still reported once.
        tokio::time::sleep(cfg.peer_timeout + Duration::from_millis(500)).await;
    });
    let lost = sink_a.lost.lock().clone();
    assert_eq!(lost.len(), 1, "{lost:?}");
    assert_eq!(lost[0].0, 1);
    assert!(lost[0].1.contains("TLS bulk lane"), "{}", lost[0].1);
    assert_eq!(
        a.send(1, frame(0, 1, 1)).unwrap_err().kind(),
        nexar::ErrorKind::ProcFailed
    );
}
