//! Launch environment validation, the rendezvous, and `establish` with real QUIC on 127.0.0.1.

mod common;

use common::procs::free_udp_port;
use common::*;
use nexar::bootstrap::rendezvous::{self, Hello, RendezvousServer};
use nexar::bootstrap::{Launch, establish};
use nexar::security::{Credentials, JobSecret};
use nexar::transport::quic::endpoint;
use nexar::{Config, ErrorKind};
use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::os::unix::fs::PermissionsExt;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn vars(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
    let m: HashMap<String, String> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    move |k| m.get(k).cloned()
}

fn launch_err(pairs: &[(&str, &str)]) -> nexar::Error {
    let e = Launch::from_vars(vars(pairs)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Bootstrap, "{e}");
    e
}

fn secret_file(mode: u32) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("secret");
    secret(1).write_file(&path).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
    let p = path.to_str().unwrap().to_string();
    (dir, p)
}

#[test]
fn no_variables_make_a_singleton() {
    let l = Launch::from_vars(vars(&[])).unwrap();
    assert_eq!((l.rank, l.size), (0, 1));
    assert!(l.secret.is_none());
}

#[test]
fn launch_validation_names_the_variable() {
    assert!(
        launch_err(&[("NEXAR_RANK", "0")])
            .message()
            .contains("NEXAR_SIZE")
    );
    assert!(
        launch_err(&[("NEXAR_SIZE", "2")])
            .message()
            .contains("NEXAR_RANK")
    );
    assert!(
        launch_err(&[("NEXAR_RANK", "x"), ("NEXAR_SIZE", "2")])
            .message()
            .contains("NEXAR_RANK")
    );
    assert!(
        launch_err(&[("NEXAR_RANK", "0"), ("NEXAR_SIZE", "0")])
            .message()
            .contains("NEXAR_SIZE=0")
    );
    let e = launch_err(&[("NEXAR_RANK", "2"), ("NEXAR_SIZE", "2")]);
    assert!(e.message().contains("NEXAR_RANK=2"), "{e}");
    let (_d, file) = secret_file(0o600);
    let e = launch_err(&[
        ("NEXAR_RANK", "0"),
        ("NEXAR_SIZE", "2"),
        ("NEXAR_JOB_SECRET_FILE", &file),
    ]);
    assert!(e.message().contains("NEXAR_RENDEZVOUS"), "{e}");
    let e = launch_err(&[
        ("NEXAR_RANK", "0"),
        ("NEXAR_SIZE", "2"),
        ("NEXAR_RENDEZVOUS", "127.0.0.1:7000"),
    ]);
    assert!(e.message().contains("NEXAR_SECRET_FD"), "{e}");
    for bad in ["nohost", "h:", ":7", "h:99999", "h:0"] {
        let e = launch_err(&[
            ("NEXAR_RANK", "0"),
            ("NEXAR_SIZE", "2"),
            ("NEXAR_RENDEZVOUS", bad),
            ("NEXAR_JOB_SECRET_FILE", &file),
        ]);
        assert!(e.message().contains("NEXAR_RENDEZVOUS"), "{e}");
    }
    let e = launch_err(&[
        ("NEXAR_RANK", "0"),
        ("NEXAR_SIZE", "2"),
        ("NEXAR_RENDEZVOUS", "h:1"),
        ("NEXAR_JOB_SECRET_FILE", &file),
        ("NEXAR_SECRET_FD", "5"),
    ]);
    assert!(e.message().contains("only one"), "{e}");
    let e = launch_err(&[
        ("NEXAR_RANK", "0"),
        ("NEXAR_SIZE", "1"),
        ("NEXAR_RENDEZVOUS_HOST", "maybe"),
    ]);
    assert!(e.message().contains("NEXAR_RENDEZVOUS_HOST"), "{e}");
    let e = launch_err(&[
        ("NEXAR_RANK", "0"),
        ("NEXAR_SIZE", "1"),
        ("NEXAR_SECRET_FD", "987654"),
    ]);
    assert!(e.message().contains("NEXAR_SECRET_FD"), "{e}");
}

#[test]
fn a_secret_file_readable_by_others_is_refused() {
    for mode in [0o644, 0o640, 0o604, 0o660] {
        let (_d, file) = secret_file(mode);
        let e = launch_err(&[
            ("NEXAR_RANK", "1"),
            ("NEXAR_SIZE", "2"),
            ("NEXAR_RENDEZVOUS", "localhost:7000"),
            ("NEXAR_JOB_SECRET_FILE", &file),
        ]);
        assert!(e.message().contains("NEXAR_JOB_SECRET_FILE"), "{e}");
        assert!(e.message().contains("mode"), "{e}");
    }
    let (_d, file) = secret_file(0o400);
    let l = Launch::from_vars(vars(&[
        ("NEXAR_RANK", "1"),
        ("NEXAR_SIZE", "2"),
        ("NEXAR_RENDEZVOUS", "localhost:7000"),
        ("NEXAR_JOB_SECRET_FILE", &file),
        ("NEXAR_RENDEZVOUS_HOST", "1"),
    ]))
    .unwrap();
    assert_eq!(l.secret.as_ref(), Some(&secret(1)));
    assert_eq!(l.local_rank, 1);
    assert!(!l.host_rendezvous, "only rank 0 hosts the rendezvous");
}

/// torchrun can hand every rank a variable but not a file: `NEXAR_JOB_SECRET` holds the secret
/// itself (64 hex digits); a malformed one is refused without echoing it, and two sources at
/// once are refused naming both.
#[test]
fn the_secret_can_come_in_a_variable() {
    let hex: String = secret(7)
        .expose()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let torch = |s: &str| {
        Launch::from_vars(vars(&[
            ("RANK", "1"),
            ("WORLD_SIZE", "2"),
            ("LOCAL_RANK", "1"),
            ("MASTER_ADDR", "127.0.0.1"),
            ("MASTER_PORT", "29500"),
            ("NEXAR_JOB_SECRET", s),
        ]))
    };
    let l = torch(&format!(" {hex}\n")).unwrap();
    assert_eq!(l.secret.as_ref(), Some(&secret(7)));
    assert_eq!((l.rank, l.size), (1, 2));
    for bad in ["", "abc", &hex[..32], &format!("{}zz", &hex[..62])] {
        let e = torch(bad).unwrap_err();
        assert!(e.message().contains("NEXAR_JOB_SECRET holds"), "{e}");
        assert!(bad.len() < 8 || !e.message().contains(bad), "echoed: {e}");
    }
    let (_d, file) = secret_file(0o600);
    let e = launch_err(&[
        ("NEXAR_RANK", "0"),
        ("NEXAR_SIZE", "2"),
        ("NEXAR_RENDEZVOUS", "localhost:7000"),
        ("NEXAR_JOB_SECRET_FILE", &file),
        ("NEXAR_JOB_SECRET", &hex),
    ]);
    assert!(
        e.message()
            .contains("NEXAR_JOB_SECRET_FILE and NEXAR_JOB_SECRET"),
        "{e}"
    );
}

#[test]
fn the_secret_pipe_is_read_and_closed() {
    let mut fds = [0i32; 2];
    // SAFETY: fds is a valid array of two ints.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    let bytes = [42u8; 32];
    // SAFETY: writing 32 bytes from a valid buffer to the pipe's write end, then closing it.
    unsafe {
        assert_eq!(libc::write(fds[1], bytes.as_ptr().cast(), 32), 32);
        libc::close(fds[1]);
    }
    // Move the read end to a high number nothing else in this process will reuse meanwhile.
    // SAFETY: dup2/close on descriptors this test owns.
    let high = unsafe {
        let h = libc::dup2(fds[0], 900);
        libc::close(fds[0]);
        h
    };
    assert_eq!(high, 900);
    let fd = high.to_string();
    let l = Launch::from_vars(vars(&[
        ("NEXAR_RANK", "0"),
        ("NEXAR_SIZE", "3"),
        ("NEXAR_LOCAL_RANK", "0"),
        ("NEXAR_RENDEZVOUS", "127.0.0.1:7000"),
        ("NEXAR_SECRET_FD", &fd),
    ]))
    .unwrap();
    assert_eq!(l.secret.as_ref(), Some(&JobSecret::from_bytes(bytes)));
    // SAFETY: F_GETFD only queries the descriptor table.
    assert_eq!(unsafe { libc::fcntl(high, libc::F_GETFD) }, -1, "fd closed");
}

fn hand_launch(rank: u32, size: u32, port: u16, s: &JobSecret) -> Launch {
    Launch {
        rank,
        size,
        local_rank: rank,
        rendezvous: Some(format!("127.0.0.1:{port}")),
        host_rendezvous: rank == 0,
        secret: Some(s.clone()),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_ranks_establish_a_world_through_a_rank_hosted_rendezvous() {
    let s = secret(2);
    let cfg = test_config();
    let port = free_udp_port();
    let sinks: Vec<_> = (0..3).map(|_| Recorder::new()).collect();
    let ls: Vec<_> = (0..3).map(|r| hand_launch(r, 3, port, &s)).collect();
    let (w0, w1, w2) = tokio::join!(
        establish(&ls[0], &cfg, sinks[0].clone()),
        establish(&ls[1], &cfg, sinks[1].clone()),
        establish(&ls[2], &cfg, sinks[2].clone()),
    );
    let worlds = [w0.unwrap(), w1.unwrap(), w2.unwrap()];
    let host = nexar::bootstrap::hostname();
    for (r, w) in worlds.iter().enumerate() {
        assert_eq!(w.hosts, vec![host.clone(); 3]);
        assert_eq!(w.transport.name(), "quic");
        for dst in 0..3u32 {
            if dst != r as u32 {
                w.transport.send(dst, frame(r as u32, 0, 5000)).unwrap();
            }
        }
    }
    for s in &sinks {
        assert!(wait_until(Duration::from_secs(10), || s.frame_count() == 2).await);
        s.frames.lock().iter().for_each(check);
    }
    assert!(worlds[0].rendezvous_server.is_some());
    assert!(worlds[1].rendezvous.as_ref().unwrap().is_open());
    let [a, b, c] = &worlds;
    tokio::join!(
        a.transport.shutdown(),
        b.transport.shutdown(),
        c.transport.shutdown()
    );
    for s in &sinks {
        assert!(s.lost.lock().is_empty());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_secret_cannot_join_the_rendezvous() {
    let cfg = test_config();
    let server =
        RendezvousServer::start(&secret(3), "127.0.0.1:0".parse().unwrap(), 2, &cfg).unwrap();
    let port = server.local_addr().port();
    let mut l = hand_launch(1, 2, port, &secret(4));
    l.host_rendezvous = false;
    let start = Instant::now();
    let e = establish(&l, &cfg, Recorder::new()).await.err().unwrap();
    assert_eq!(e.kind(), ErrorKind::Security, "{e}");
    assert!(start.elapsed() < Duration::from_secs(3));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rendezvous_times_out_naming_missing_ranks() {
    let cfg = Config {
        connect_timeout: Duration::from_millis(1500),
        ..test_config()
    };
    let s = secret(5);
    let server = RendezvousServer::start(&s, "127.0.0.1:0".parse().unwrap(), 4, &cfg).unwrap();
    let port = server.local_addr().port();
    let mk = |r| {
        let mut l = hand_launch(r, 4, port, &s);
        l.host_rendezvous = false;
        l
    };
    let (l0, l2) = (mk(0), mk(2));
    let start = Instant::now();
    let (a, b) = tokio::join!(
        establish(&l0, &cfg, Recorder::new()),
        establish(&l2, &cfg, Recorder::new())
    );
    for r in [a, b] {
        let e = r.err().unwrap();
        assert!(e.message().contains("missing ranks [1, 3]"), "{e}");
    }
    assert!(start.elapsed() < cfg.connect_timeout + Duration::from_secs(2));
    let e = server.wait().await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Timeout);
}

/// Joins `server` directly with a certificate for `cert_rank` and a hello claiming `rank`/`size`.
async fn raw_join(
    s: &JobSecret,
    server: SocketAddr,
    cert_rank: u32,
    rank: u32,
    size: u32,
) -> nexar::Result<(Vec<(SocketAddr, String)>, rendezvous::RendezvousLink)> {
    let cfg = test_config();
    let creds = Credentials::for_rank(s, cert_rank).unwrap();
    let ep = endpoint::make_endpoint(IpAddr::V4(Ipv4Addr::LOCALHOST), 0, None).unwrap();
    let hello = Hello {
        rank,
        size,
        addr: ep.local_addr().unwrap(),
        host: format!("host{rank}"),
    };
    let r = rendezvous::join(&ep, &creds, server, &hello, &cfg).await;
    // Keep the endpoint alive as long as the link: leak it for the test's duration.
    std::mem::forget(ep);
    r
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rendezvous_refuses_bad_claims_and_duplicates() {
    let s = secret(6);
    let cfg = test_config();
    let server =
        Arc::new(RendezvousServer::start(&s, "127.0.0.1:0".parse().unwrap(), 2, &cfg).unwrap());
    let addr = server.local_addr();
    let first = tokio::spawn({
        let s = s.clone();
        async move { raw_join(&s, addr, 0, 0, 2).await }
    });
    // Let the first rank 0 be admitted before the impostors arrive.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let e = raw_join(&s, addr, 1, 0, 2).await.err().unwrap();
    assert!(e.message().contains("claims rank 0"), "{e}");
    let e = raw_join(&s, addr, 0, 0, 2).await.err().unwrap();
    assert!(e.message().contains("already joined"), "{e}");
    let e = raw_join(&s, addr, 1, 1, 3).await.err().unwrap();
    assert!(e.message().contains("expects 2"), "{e}");
    let e = raw_join(&s, addr, 5, 5, 2).await.err().unwrap();
    assert!(e.message().contains("outside"), "{e}");
    let (table, _link) = raw_join(&s, addr, 1, 1, 2).await.unwrap();
    let (table0, _link0) = first.await.unwrap().unwrap();
    assert_eq!(table, table0);
    assert_eq!(table[1].1, "host1");
    server.wait().await.unwrap();
    let e = raw_join(&s, addr, 1, 1, 2).await.err().unwrap();
    assert!(e.message().contains("already complete"), "{e}");
}
