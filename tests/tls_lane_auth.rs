//! Authentication of the TLS bulk lane on 127.0.0.1: a TCP client without TLS, without a
//! certificate, with a certificate of another job, or claiming a rank its certificate does not
//! name is refused and nothing it sends is delivered, while the job keeps working; a frame whose
//! `src` differs from the authenticated rank ends the lane and reports that rank.

mod common;

use common::*;
use nexar::security::{BULK_TLS_ALPN, Credentials, JobCa, JobSecret};
use nexar::transport::Transport;
use nexar::transport::quic::QuicTransport;
use nexar::wire::{FrameHeader, FrameKind, encode_header};
use rustls::pki_types::ServerName;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_rustls::client::TlsStream;

const T: Duration = Duration::from_secs(20);
const BIG: usize = 1 << 20;

fn header(kind: FrameKind, src: u32, len: u64) -> Vec<u8> {
    let mut h = FrameHeader::new(kind, src);
    h.len = len;
    encode_header(&h).to_vec()
}

/// Bytes of a p2p frame from `src` with a 100 KiB payload (bulk-sized).
fn bulk_frame(src: u32) -> Vec<u8> {
    let mut v = header(FrameKind::P2p, src, 100 << 10);
    v.extend(std::iter::repeat_n(9u8, 100 << 10));
    v
}

/// Connects with `config` to the TLS lane at `addr`, asking for the certificate of `rank` of
/// `job`. The handshake may still fail later on the server's side (TLS 1.3 checks the client
/// certificate after the client finished).
async fn dial(
    config: rustls::ClientConfig,
    addr: SocketAddr,
    server: &str,
) -> std::io::Result<TlsStream<TcpStream>> {
    let tcp = TcpStream::connect(addr).await?;
    TlsConnector::from(Arc::new(config))
        .connect(ServerName::try_from(server.to_string()).unwrap(), tcp)
        .await
}

/// Writes `bytes` and waits until the server closes the connection; true if it did (an error
/// or end of stream on reading) within the time limit. The real ranks never write on a bulk
/// lane they accepted, so anything read before the close can only be an alert.
async fn refused<S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin>(
    mut s: S,
    bytes: &[u8],
) -> bool {
    let _ = s.write_all(bytes).await;
    let _ = s.flush().await;
    // The server may answer with a TLS alert before it closes.
    let mut buf = [0u8; 256];
    let closed = async {
        while let Ok(n) = s.read(&mut buf).await {
            if n == 0 {
                break;
            }
        }
    };
    tokio::time::timeout(T, closed).await.is_ok()
}

/// A client configuration trusting `trusted` CAs, presenting `identity` (or nothing).
fn client_config(
    trusted: &[&JobCa],
    identity: Option<&nexar::security::Identity>,
) -> rustls::ClientConfig {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut roots = rustls::RootCertStore::empty();
    for ca in trusted {
        roots.add(ca.cert().clone()).unwrap();
    }
    let b = rustls::ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .unwrap()
        .with_root_certificates(roots);
    let mut cfg = match identity {
        Some(id) => b
            .with_client_auth_cert(vec![id.cert().clone()], id.key())
            .unwrap(),
        None => b.with_no_client_auth(),
    };
    cfg.alpn_protocols = vec![BULK_TLS_ALPN.to_vec()];
    cfg
}

/// After the strangers: the real ranks still exchange bulk frames over the TLS lane and
/// nobody was reported lost.
async fn job_still_works(ts: &[QuicTransport], sinks: &[Arc<Recorder>]) {
    let tls_received = || {
        ts[1]
            .stats()
            .into_iter()
            .find(|(n, _)| *n == "tls")
            .unwrap()
            .1
            .frames_received
    };
    let before = tls_received();
    ts[0].send(1, frame(0, 77, BIG)).unwrap();
    assert!(wait_until(T, || sinks[1].frame_count() == 1).await);
    sinks[1].frames.lock().iter().for_each(check);
    assert!(sinks[1].frames.lock().iter().all(|f| f.header.src == 0));
    assert_eq!(tls_received(), before + 1);
    for s in sinks {
        assert!(s.lost.lock().is_empty(), "{:?}", s.lost.lock());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn strangers_are_refused_and_the_job_keeps_working() {
    let s = secret(51);
    let (ts, sinks) = world(3, &s, &test_config());
    let addr = ts[1].local_addr().unwrap();
    let ca = JobCa::derive(&s).unwrap();
    let target = ts[1].credentials().rank_name(1);

    // Plain TCP, no TLS at all.
    let mut plain = TcpStream::connect(addr).await.unwrap();
    let mut bytes = header(FrameKind::Hello, 0, 0);
    bytes.extend(bulk_frame(0));
    assert!(
        refused(&mut plain, &bytes).await,
        "plain TCP was not refused"
    );

    // TLS without a client certificate.
    let mut hello = header(FrameKind::Hello, 0, 0);
    hello.extend(bulk_frame(0));
    // (A handshake error on the client's side is a refusal too.)
    if let Ok(c) = dial(client_config(&[&ca], None), addr, &target).await {
        assert!(refused(c, &hello).await, "no certificate was not refused");
    }

    // A certificate of another job for rank 0 (the client trusts both CAs so only the server
    // can refuse).
    let other = JobSecret::from_bytes([52; 32]);
    let other_ca = JobCa::derive(&other).unwrap();
    let foreign = other_ca
        .issue(&Credentials::for_rank(&other, 0).unwrap().rank_name(0))
        .unwrap();
    let with_foreign = client_config(&[&ca, &other_ca], Some(&foreign));
    if let Ok(c) = dial(with_foreign, addr, &target).await {
        assert!(
            refused(c, &hello).await,
            "another job's cert was not refused"
        );
    }

    // A valid certificate of rank 2 whose Hello claims rank 0.
    let rank2 = Credentials::for_rank(&s, 2).unwrap();
    let c = dial(rank2.bulk_tls_client_config().unwrap(), addr, &target)
        .await
        .expect("rank 2's handshake succeeds");
    assert!(refused(c, &hello).await, "a false Hello was not refused");

    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(
        sinks[1].frame_count(),
        0,
        "a stranger's frame was delivered"
    );
    job_still_works(&ts, &sinks).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frame_with_a_false_src_ends_the_lane_and_reports_its_rank() {
    let s = secret(53);
    let (ts, sinks) = world(3, &s, &test_config());
    let addr = ts[1].local_addr().unwrap();
    let target = ts[1].credentials().rank_name(1);
    // Rank 2 (a real certificate, played by the test) opens its lane properly, sends one good
    // frame, then one claiming to come from rank 0.
    let rank2 = Credentials::for_rank(&s, 2).unwrap();
    let c = dial(rank2.bulk_tls_client_config().unwrap(), addr, &target)
        .await
        .unwrap();
    let mut bytes = header(FrameKind::Hello, 2, 0);
    bytes.extend(bulk_frame(2));
    bytes.extend(bulk_frame(0));
    assert!(refused(c, &bytes).await);
    assert!(wait_until(T, || sinks[1].lost_peers() == [2]).await);
    let frames = sinks[1].frames.lock().clone();
    assert_eq!(frames.len(), 1);
    assert_eq!(frames[0].header.src, 2);
    assert!(
        sinks[1].lost.lock()[0]
            .1
            .contains("authenticated as rank 2")
    );
    sinks[1].lost.lock().clear();
    sinks[1].frames.lock().clear();
    job_still_works(&ts, &sinks).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversize_header_is_refused_before_allocating() {
    let s = secret(54);
    let cfg = nexar::Config {
        max_message: 1 << 20,
        ..test_config()
    };
    let (ts, sinks) = world(3, &s, &cfg);
    let addr = ts[1].local_addr().unwrap();
    let target = ts[1].credentials().rank_name(1);
    let rank2 = Credentials::for_rank(&s, 2).unwrap();
    let c = dial(rank2.bulk_tls_client_config().unwrap(), addr, &target)
        .await
        .unwrap();
    let mut bytes = header(FrameKind::Hello, 2, 0);
    bytes.extend(header(FrameKind::P2p, 2, u64::MAX / 2));
    assert!(refused(c, &bytes).await);
    assert!(wait_until(T, || sinks[1].lost_peers() == [2]).await);
    assert!(sinks[1].lost.lock()[0].1.contains("exceeds the limit"));
    assert_eq!(sinks[1].frame_count(), 0);
}
