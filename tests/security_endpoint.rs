//! A rank's own QUIC endpoint against hostile clients, in-process with its log captured (the
//! rendezvous and whole rank processes are in tests/security_join.rs).

mod common;
#[path = "common/rogue.rs"]
mod rogue;

use common::{frame, secret, test_config, wait_until, world};
use nexar::security::TRANSPORT_ALPN;
use nexar::transport::Transport;
use parking_lot::Mutex;
use rogue::{claim_rank, identity, rogue_connect, spray_garbage};
use std::sync::Arc;
use std::time::Duration;

/// A writer into memory for the log of the test below.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Captured {
    type Writer = Captured;
    fn make_writer(&'a self) -> Self::Writer {
        self.clone()
    }
}

/// A rank's own QUIC endpoint (in-process, its warnings captured): garbage datagrams, a client
/// without a certificate, one with another job's certificate and one with another rank's
/// certificate are refused with the reason logged, and the rank keeps talking to its real peer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rank_endpoint_refuses_bad_clients_and_garbage_and_logs_why() {
    let log = Captured::default();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(log.clone())
        .with_ansi(false)
        .with_env_filter(tracing_subscriber::EnvFilter::new("warn"))
        .finish();
    tracing::subscriber::set_global_default(subscriber).unwrap();
    let text = || String::from_utf8_lossy(&log.0.lock()).into_owned();
    let s = secret(41);
    let (mut ts, mut sinks) = world(3, &s, &test_config());
    // Rank 2 exists only as a name on the impostor's certificate.
    drop((ts.pop(), sinks.pop()));
    let addr = ts[0].local_addr().unwrap();
    spray_garbage(addr, 500);
    let how = rogue_connect(addr, TRANSPORT_ALPN, None).await;
    eprintln!("rank endpoint, no certificate: {how}");
    assert!(!how.starts_with("answered"), "{how}");
    assert!(
        wait_until(Duration::from_secs(10), || text()
            .contains("peer sent no certificates"))
        .await,
        "{}",
        text()
    );
    let how = rogue_connect(addr, TRANSPORT_ALPN, Some(identity(&secret(42), 1))).await;
    eprintln!("rank endpoint, another job's certificate: {how}");
    assert!(!how.starts_with("answered"), "{how}");
    assert!(
        wait_until(Duration::from_secs(10), || text().contains("UnknownIssuer")).await,
        "{}",
        text()
    );
    // This job's certificate for rank 2 saying hello as rank 1.
    let how = claim_rank(&s, 2, 1, &ts[0]).await;
    eprintln!("rank endpoint, another rank's certificate: {how}");
    assert!(
        wait_until(Duration::from_secs(10), || text()
            .contains("rejected an incoming connection"))
        .await,
        "{}",
        text()
    );
    assert!(text().contains("reason=Hello claims rank 1"), "{}", text());
    spray_garbage(addr, 500);
    ts[0].send(1, frame(0, 1, 1000)).unwrap();
    ts[1].send(0, frame(1, 1, 1000)).unwrap();
    for sink in &sinks {
        assert!(wait_until(Duration::from_secs(10), || sink.frame_count() == 1).await);
        assert!(sink.lost.lock().is_empty(), "a peer was declared lost");
    }
    let log = text();
    eprintln!("rank 0 log:\n{log}");
    for line in log.lines() {
        let expected =
            line.contains("handshake failed") || line.contains("rejected an incoming connection");
        assert!(expected, "unexpected warning: {line}");
    }
}
