//! Back-pressure on the QUIC transport (`transport::budget`): a receiver whose sink reports a
//! sender over its unexpected-message budget stops reading that sender's p2p frames; the
//! sender's sends keep succeeding, collective frames still pass, and once the "receives" drain
//! the budget every frame arrives, in order, intact. Run with both bulk lanes (TLS and QUIC).
//! End to end (examples/ranks/flood_check.rs): a 96 MiB flood of unmatched messages over QUIC and
//! over shared memory waits at the sender, a collective passes meanwhile (QUIC), and everything
//! arrives in order once received.

mod common;

use bytes::Bytes;
use common::*;
use nexar::config::BulkLane;
use nexar::transport::budget::RxBudget;
use nexar::transport::quic::QuicTransport;
use nexar::transport::{FrameSink, Transport};
use nexar::wire::{Frame, FrameHeader, FrameKind};
use parking_lot::Mutex;
use std::sync::Arc;
use std::time::{Duration, Instant};

const T: Duration = Duration::from_secs(20);
/// The budget per peer in this test.
const LIMIT: u64 = 1 << 20;

/// A sink that plays the matcher: every p2p frame counts as unexpected until the test drains.
struct Flooded {
    budget: Arc<RxBudget>,
    p2p: Mutex<Vec<Frame>>,
    other: Mutex<Vec<Frame>>,
}

impl FrameSink for Flooded {
    fn on_frame(&self, frame: Frame) {
        if frame.header.frame_kind() == Some(FrameKind::P2p) {
            self.budget
                .queued(frame.header.src, frame.payload.len() as u64);
            self.p2p.lock().push(frame);
        } else {
            self.other.lock().push(frame);
        }
    }
    fn on_peer_lost(&self, peer: u32, reason: String) {
        panic!("rank {peer} lost: {reason}");
    }
    fn rx_budget(&self) -> Option<Arc<RxBudget>> {
        Some(self.budget.clone())
    }
}

fn p2p_bytes(sink: &Flooded) -> u64 {
    sink.p2p.lock().iter().map(|f| f.payload.len() as u64).sum()
}

async fn flood(lane: BulkLane) {
    let cfg = nexar::Config {
        bulk_lane: lane,
        ..test_config()
    };
    let s = secret(77);
    let sink = Arc::new(Flooded {
        budget: Arc::new(RxBudget::new(LIMIT, 2)),
        p2p: Mutex::new(Vec::new()),
        other: Mutex::new(Vec::new()),
    });
    let t0 = QuicTransport::bind(0, 2, &s, &cfg, sink.clone()).unwrap();
    let t1 = QuicTransport::bind(1, 2, &s, &cfg, Recorder::new()).unwrap();
    let addrs = vec![t0.local_addr().unwrap(), t1.local_addr().unwrap()];
    t0.set_peer_addrs(addrs.clone()).unwrap();
    t1.set_peer_addrs(addrs).unwrap();

    // 200 messages (small and bulk-sized mixed, 13 MiB in all), then a collective frame.
    let sizes: Vec<usize> = (0..200)
        .map(|i| if i % 4 == 0 { 1000 } else { 90 << 10 })
        .collect();
    let total: u64 = sizes.iter().map(|&n| n as u64).sum();
    for (i, &n) in sizes.iter().enumerate() {
        t1.send(0, frame(1, i as u64, n))
            .expect("a stalled receiver never fails a send");
    }
    let mut coll = FrameHeader::new(FrameKind::Collective, 1);
    coll.seq = 42;
    t1.send(0, Frame::new(coll, Bytes::from_static(b"collective")))
        .unwrap();

    // The collective frame passes the stalled p2p traffic.
    assert!(
        wait_until(T, || !sink.other.lock().is_empty()).await,
        "{lane:?}: the collective frame was held up behind stalled p2p traffic"
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    let held = p2p_bytes(&sink);
    // At most the budget plus one frame per p2p lane (each read one frame as it filled up).
    assert!(
        held <= LIMIT + 2 * (90 << 10),
        "{lane:?}: {held} bytes delivered past a budget of {LIMIT}"
    );
    assert!(held < total);
    eprintln!(
        "back-pressure over {lane:?}: {held} of {total} bytes delivered while stalled (budget \
         {LIMIT})"
    );

    // The receives: drain what arrived, repeatedly, until everything came.
    let start = Instant::now();
    let mut drained = 0usize;
    while drained < sizes.len() {
        assert!(
            start.elapsed() < T,
            "{lane:?}: only {drained} frames after draining"
        );
        let now: Vec<u64> = sink.p2p.lock()[drained..]
            .iter()
            .map(|f| f.payload.len() as u64)
            .collect();
        for n in &now {
            sink.budget.taken(1, *n);
        }
        drained += now.len();
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let frames = sink.p2p.lock().clone();
    assert_eq!(frames.len(), sizes.len());
    for f in &frames {
        check(f);
        assert_eq!(f.payload.len(), sizes[f.header.seq as usize]);
    }
    // Each lane (small p2p, bulk p2p) keeps its order; the matcher restores the order across
    // the two.
    for small in [true, false] {
        let lane: Vec<u64> = frames
            .iter()
            .filter(|f| (f.payload.len() < 64 << 10) == small)
            .map(|f| f.header.seq)
            .collect();
        assert!(lane.is_sorted(), "{lane:?}");
    }
    let mut seqs: Vec<u64> = frames.iter().map(|f| f.header.seq).collect();
    seqs.sort_unstable();
    assert_eq!(
        seqs,
        (0..sizes.len() as u64).collect::<Vec<_>>(),
        "nothing lost or doubled"
    );
    eprintln!(
        "back-pressure over {lane:?}: drained {total} bytes in {:.2} s",
        start.elapsed().as_secs_f64()
    );
    t1.shutdown().await;
    t0.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_sender_is_not_read_until_receives_drain_over_tls_bulk_lane() {
    flood(BulkLane::Tls).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_sender_is_not_read_until_receives_drain_over_quic_bulk_lane() {
    flood(BulkLane::Quic).await;
}

/// Runs examples/ranks/flood_check.rs on 2 ranks with a 4 MiB budget; returns rank 0's line.
fn flood_job(env: &[(&str, &str)], arg: &str) -> String {
    let mut cmd = std::process::Command::new(common::procs::nexarrun_path());
    cmd.args(["-n", "2", "--timeout", "120", "--"])
        .arg(common::procs::example("flood_check"))
        .arg(arg)
        .env("NEXAR_MAX_UNEXPECTED", (4 << 20).to_string());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("nexarrun starts");
    let stdout = common::procs::succeeded(&out, format_args!("{env:?} {arg}"));
    let stderr = common::procs::stderr_text(&out);
    let sends = if arg == "small" { 24_576 } else { 96 };
    assert!(
        stdout.contains(&format!("rank 1: {sends} sends")),
        "{stdout}"
    );
    stdout
        .lines()
        .find(|l| l.starts_with("rank 0: received"))
        .unwrap_or_else(|| panic!("{stdout}\n{stderr}"))
        .to_string()
}

/// (VmRSS at start, VmRSS while the flood waited) from rank 0's line.
fn rss_figures(line: &str) -> (f64, f64) {
    let nums: Vec<f64> = line
        .split("VmRSS ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    (nums[0], nums[1])
}

#[test]
fn a_96_mib_flood_waits_at_the_sender_and_arrives_in_order() {
    // QUIC with either bulk lane, a barrier while the flood is stalled; then shared memory,
    // every byte through the rings (one-copy off) and with one-copy transfers.
    // Bounds: the budget plus what the transport holds unread (QUIC's 32 MiB stream window
    // when the bulk lane is a QUIC stream; TCP buffers or the ring otherwise).
    for (env, arg, bound) in [
        (&[("NEXAR_TRANSPORT", "quic")][..], "barrier-first", 32.0),
        (
            &[("NEXAR_BULK_LANE", "quic"), ("NEXAR_TRANSPORT", "quic")][..],
            "barrier-first",
            72.0,
        ),
        (&[("NEXAR_SHM_CMA", "0")][..], "plain", 32.0),
        (&[][..], "plain", 32.0),
        // Small messages, each one ring slot with its compact header (`P2P`), are held back
        // just the same (on the rings even when the suite runs with QUIC forced: over QUIC
        // the control stream's window, not the budget, bounds what waits).
        (&[("NEXAR_TRANSPORT", "auto")][..], "small", 32.0),
        // A barrier while stalled on shared memory: the ring is read through while the
        // collective is open (no bound then), and nothing deadlocks.
        (&[][..], "barrier-first", 1000.0),
    ] {
        let line = flood_job(env, arg);
        let (start, stalled) = rss_figures(&line);
        eprintln!("flood {env:?} {arg}: {line}");
        // Without back-pressure rank 0 would hold the whole 96 MiB flood.
        assert!(
            stalled - start < bound,
            "{env:?}: rank 0 grew from {start} to {stalled} MiB while stalled (bound {bound})"
        );
    }
}
