//! Authentication of the QUIC transport: wrong secrets, wrong rank claims, malformed frames.

mod common;

use bytes::Bytes;
use common::*;
use nexar::ErrorKind;
use nexar::security::{Credentials, JobSecret, TRANSPORT_ALPN};
use nexar::transport::Transport;
use nexar::transport::quic::{QuicTransport, codes, endpoint};
use nexar::wire::{FrameHeader, FrameKind, encode_header};
use std::net::{IpAddr, Ipv4Addr};
use std::time::Duration;

const T: Duration = Duration::from_secs(10);

/// Rank 0 with `good`, and rank 1 of the same world built from `rank1_creds`.
fn pair_with(
    good: &JobSecret,
    rank1_creds: Credentials,
    size: u32,
) -> (
    QuicTransport,
    std::sync::Arc<Recorder>,
    QuicTransport,
    std::sync::Arc<Recorder>,
) {
    let cfg = test_config();
    let s0 = Recorder::new();
    let s1 = Recorder::new();
    let t0 = QuicTransport::bind(0, size, good, &cfg, s0.clone()).unwrap();
    let t1 = QuicTransport::bind_with_credentials(1, size, rank1_creds, &cfg, s1.clone()).unwrap();
    let mut addrs = vec![t0.local_addr().unwrap(), t1.local_addr().unwrap()];
    // Extra ranks (never contacted) get a dummy address.
    addrs.resize(size as usize, addrs[0]);
    t0.set_peer_addrs(addrs.clone()).unwrap();
    t1.set_peer_addrs(addrs).unwrap();
    (t0, s0, t1, s1)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_secret_cannot_deliver_to_a_rank() {
    let good = secret(1);
    let bad = Credentials::for_rank(&secret(2), 1).unwrap();
    let (_t0, s0, t1, s1) = pair_with(&good, bad, 2);
    t1.send(0, frame(1, 0, 100)).unwrap();
    assert!(wait_until(T, || !s1.lost.lock().is_empty()).await);
    let (peer, reason) = s1.lost.lock()[0].clone();
    assert_eq!(peer, 0);
    assert!(reason.contains("rank 0"), "{reason}");
    let e = t1.send(0, frame(1, 1, 1)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::ProcFailed);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(s0.frame_count(), 0);
    assert!(s0.lost.lock().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rank_never_talks_to_a_peer_with_a_wrong_secret() {
    let good = secret(3);
    let bad = Credentials::for_rank(&secret(4), 1).unwrap();
    let (t0, s0, _t1, s1) = pair_with(&good, bad, 2);
    t0.send(1, frame(0, 0, 100)).unwrap();
    assert!(wait_until(T, || s0.lost_peers() == [1]).await);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(s1.frame_count(), 0);
    assert_eq!(
        t0.send(1, frame(0, 1, 1)).unwrap_err().kind(),
        ErrorKind::ProcFailed
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_certificate_for_rank_2_cannot_claim_rank_1() {
    let good = secret(5);
    let rank2 = Credentials::for_rank(&good, 2).unwrap();
    let (_t0, s0, t1, s1) = pair_with(&good, rank2, 3);
    t1.send(0, frame(1, 0, 100)).unwrap();
    assert!(wait_until(T, || s1.lost_peers() == [0]).await);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(s0.frame_count(), 0);
    // The claimed rank is not proven: nobody is reported lost on the accepting side.
    assert!(s0.lost.lock().is_empty());
}

/// A hand-driven QUIC client holding a valid certificate for rank `as_rank`, connected to
/// `target` (rank 0).
async fn raw_client(secret: &JobSecret, as_rank: u32, target: &QuicTransport) -> quinn::Connection {
    let creds = Credentials::for_rank(secret, as_rank).unwrap();
    let tcfg = endpoint::transport_config(&test_config(), 0).unwrap();
    let client = creds.quic_client_config(TRANSPORT_ALPN, tcfg).unwrap();
    let ep = endpoint::make_endpoint(IpAddr::V4(Ipv4Addr::LOCALHOST), 0, None).unwrap();
    ep.connect_with(client, target.local_addr().unwrap(), &creds.rank_name(0))
        .unwrap()
        .await
        .unwrap()
}

fn hello(src: u32) -> Bytes {
    Bytes::copy_from_slice(&encode_header(&FrameHeader::new(FrameKind::Hello, src)))
}

fn p2p_header(src: u32, len: u64) -> Bytes {
    let mut h = FrameHeader::new(FrameKind::P2p, src);
    h.len = len;
    Bytes::copy_from_slice(&encode_header(&h))
}

/// Sends `bytes` on a new stream from a valid rank-1 client to rank 0 (with `max_message`
/// 1 MiB); returns the code rank 0 closed the connection with and rank 0's sink.
async fn send_raw(bytes: Vec<Bytes>, finish: bool) -> (quinn::VarInt, std::sync::Arc<Recorder>) {
    let s = secret(6);
    let cfg = nexar::Config {
        max_message: 1 << 20,
        ..test_config()
    };
    let sink = Recorder::new();
    let t0 = QuicTransport::bind(0, 3, &s, &cfg, sink.clone()).unwrap();
    let conn = raw_client(&s, 1, &t0).await;
    let mut send = conn.open_uni().await.unwrap();
    for b in bytes {
        // The peer may close while we write; that is the point.
        if send.write_all(&b).await.is_err() {
            break;
        }
    }
    if finish {
        let _ = send.finish();
    }
    let why = tokio::time::timeout(T, conn.closed()).await.unwrap();
    let code = match why {
        quinn::ConnectionError::ApplicationClosed(c) => c.error_code,
        other => panic!("unexpected close: {other}"),
    };
    tokio::time::sleep(Duration::from_millis(50)).await;
    drop(t0);
    (code, sink)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_header_with_a_bad_magic_closes_the_connection() {
    let (code, sink) = send_raw(
        vec![hello(1), Bytes::from(vec![0x55u8; nexar::wire::HEADER_LEN])],
        false,
    )
    .await;
    assert_eq!(code, codes::PROTOCOL);
    assert_eq!(sink.frame_count(), 0);
    let lost = sink.lost.lock().clone();
    assert_eq!(lost.len(), 1);
    assert_eq!(lost[0].0, 1);
    assert!(
        lost[0].1.contains("sent a malformed frame"),
        "{}",
        lost[0].1
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversize_frame_is_rejected_before_its_payload() {
    let (code, sink) = send_raw(
        vec![
            hello(1),
            p2p_header(1, 2 << 20),
            Bytes::from(vec![1u8; 1000]),
        ],
        false,
    )
    .await;
    assert_eq!(code, codes::PROTOCOL);
    assert_eq!(sink.frame_count(), 0);
    assert!(
        sink.lost.lock()[0].1.contains("exceeds"),
        "{:?}",
        sink.lost.lock()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frame_claiming_another_source_is_dropped() {
    let (code, sink) = send_raw(
        vec![
            hello(1),
            p2p_header(1, 3),
            Bytes::from_static(b"abc"),
            p2p_header(2, 3),
            Bytes::from_static(b"xyz"),
        ],
        false,
    )
    .await;
    assert_eq!(code, codes::PROTOCOL);
    let frames = sink.frames.lock();
    assert_eq!(frames.len(), 1, "only the honest frame arrives");
    assert_eq!(&frames[0].payload[..], b"abc");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn data_before_a_hello_is_refused() {
    let (code, sink) = send_raw(vec![p2p_header(1, 3), Bytes::from_static(b"abc")], false).await;
    assert_eq!(code, codes::AUTH);
    assert_eq!(sink.frame_count(), 0);
    assert!(sink.lost.lock().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_payload_cut_short_delivers_nothing() {
    let (code, sink) = send_raw(
        vec![hello(1), p2p_header(1, 100), Bytes::from(vec![1u8; 10])],
        true,
    )
    .await;
    assert_eq!(code, codes::PROTOCOL);
    assert_eq!(sink.frame_count(), 0);
}

#[test]
fn job_ca_and_names_are_shared_by_every_rank_with_the_secret() {
    let s = secret(7);
    let a = nexar::security::JobCa::derive(&s).unwrap();
    let b = nexar::security::JobCa::derive(&JobSecret::from_bytes(*s.expose())).unwrap();
    assert_eq!(a.cert(), b.cert());
    let c = Credentials::for_rank(&s, 3).unwrap();
    assert_eq!(c.name(), format!("rank-3.{}.nexar", s.job_id()));
    assert_eq!(
        c.rendezvous_name(),
        format!("rendezvous.{}.nexar", s.job_id())
    );
    assert!(!format!("{s:?} {c:?}").contains(&format!("{:02x}", s.expose()[0]).repeat(4)));
}
