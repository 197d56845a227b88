//! Bulk throughput of the network path on 127.0.0.1: one stream of 16 MiB frames between two
//! endpoints, over
//!
//! * `quic-lane`: the QUIC transport with its bulk lane on a QUIC stream (`NEXAR_BULK_LANE=quic`);
//! * `tls-lane`: the QUIC transport with its TLS-over-TCP bulk lane (`NEXAR_BULK_LANE=tls`);
//! * `raw-tls`: tokio-rustls over TCP alone (TLS 1.3 AES-128-GCM, the lane's own configuration),
//!   with kernel-tuned and with fixed 8 MiB socket buffers;
//! * `raw-quic`: one quinn stream alone with the transport's settings (`endpoint.rs`), and with one
//!   knob changed each: GSO off, 1452-byte packets, BBR or NewReno instead of Cubic;
//! * `raw-tcp`: plain TCP, the ceiling (what Open MPI's TCP transport moves, unencrypted).
//!
//! Not a test; the figures in bench/README.md ("The network path") come from it:
//! `cargo run --release --example bulk_lanes [MiB per run] [rounds] [transport]` (defaults 512
//! and 3; a third argument `transport` runs the two transport variants only; every
//! variant runs once per round, interleaved, and the medians are printed at the end;
//! `BENCH_THREADS`: runtime threads, default 1 as in the engine).

use bytes::Bytes;
use nexar::config::BulkLane;
use nexar::security::{Credentials, JobSecret};
use nexar::transport::quic::QuicTransport;
use nexar::transport::{FrameSink, Transport};
use nexar::wire::{Frame, FrameHeader, FrameKind};
use std::sync::Arc;
use std::time::Instant;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};

const FRAME: usize = 16 << 20;

struct Chan(UnboundedSender<Frame>);

impl FrameSink for Chan {
    fn on_frame(&self, frame: Frame) {
        let _ = self.0.send(frame);
    }
    fn on_peer_lost(&self, peer: u32, reason: String) {
        eprintln!("peer {peer} lost: {reason}");
    }
}

/// CPU seconds (user + system) this process used so far, all threads.
fn cpu_secs() -> f64 {
    // SAFETY: getrusage writes into the zeroed struct we pass and reads nothing else.
    let ru = unsafe {
        let mut ru: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut ru);
        ru
    };
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    tv(ru.ru_utime) + tv(ru.ru_stime)
}

/// When a measurement started: wall clock and process CPU time.
struct Start(Instant, f64);

impl Start {
    fn now() -> Self {
        Self(Instant::now(), cpu_secs())
    }
}

/// Prints wall-clock throughput and bytes per CPU second (both ends together): on a shared
/// machine the second figure is the steadier one.
fn report(what: &str, bytes: usize, start: Start) {
    let secs = start.0.elapsed().as_secs_f64();
    let cpu = cpu_secs() - start.1;
    let (wall, per_cpu) = (bytes as f64 / secs / 1e9, bytes as f64 / cpu / 1e9);
    println!("{what:<40} {wall:>6.2} GB/s wall, {per_cpu:>6.2} GB per CPU-second");
    SAMPLES
        .lock()
        .expect("samples")
        .push((what.to_string(), wall, per_cpu));
}

/// Every measurement of this run: (what, GB/s wall, GB per CPU-second).
static SAMPLES: std::sync::Mutex<Vec<(String, f64, f64)>> = std::sync::Mutex::new(Vec::new());

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Prints the median of every variant over the rounds.
fn summary(rounds: usize) {
    let samples = SAMPLES.lock().expect("samples");
    let mut names: Vec<&str> = Vec::new();
    for (n, _, _) in samples.iter() {
        if !names.contains(&n.as_str()) {
            names.push(n);
        }
    }
    println!("\nmedian of {rounds} rounds:");
    for n in names {
        let of = |pick: fn(&(String, f64, f64)) -> f64| {
            median(samples.iter().filter(|s| s.0 == n).map(pick).collect())
        };
        println!(
            "{n:<40} {:>6.2} GB/s wall, {:>6.2} GB per CPU-second",
            of(|s| s.1),
            of(|s| s.2)
        );
    }
}

/// One-way throughput through two QUIC transports with the given bulk lane.
async fn transport(lane: BulkLane, frames: usize) {
    let cfg = nexar::Config {
        bulk_lane: lane,
        ..nexar::Config::default()
    };
    let secret = JobSecret::generate().expect("secret");
    let (tx0, _rx0) = unbounded_channel();
    let (tx1, mut rx1) = unbounded_channel();
    let t0 = QuicTransport::bind(0, 2, &secret, &cfg, Arc::new(Chan(tx0))).expect("bind");
    let t1 = QuicTransport::bind(1, 2, &secret, &cfg, Arc::new(Chan(tx1))).expect("bind");
    let addrs = vec![
        t0.local_addr().expect("addr"),
        t1.local_addr().expect("addr"),
    ];
    t0.set_peer_addrs(addrs.clone()).expect("addrs");
    t1.set_peer_addrs(addrs).expect("addrs");
    let big = Bytes::from(vec![7u8; FRAME]);
    let frame = || Frame::new(FrameHeader::new(FrameKind::P2p, 0), big.clone());
    for _ in 0..2 {
        t0.send(1, frame()).expect("send");
        rx1.recv().await.expect("frame");
    }
    let start = Start::now();
    for _ in 0..frames {
        t0.send(1, frame()).expect("send");
    }
    for _ in 0..frames {
        rx1.recv().await.expect("frame");
    }
    let name = match lane {
        BulkLane::Quic => "quic-lane (transport)",
        BulkLane::Tls => "tls-lane (transport)",
    };
    report(name, frames * FRAME, start);
    let tls = t0.stats().into_iter().find(|(n, _)| *n == "tls");
    let on_tls = tls.map(|(_, s)| s.frames_sent).unwrap_or(0);
    let want = if lane == BulkLane::Tls { frames + 2 } else { 0 };
    assert_eq!(on_tls as usize, want, "frames on the TLS lane");
    tokio::join!(t0.shutdown(), t1.shutdown());
}

/// Writes `frames` 16 MiB buffers into `w`; the other side reads them all.
async fn pump<W, R>(mut w: W, mut r: R, frames: usize) -> Start
where
    W: AsyncWrite + Unpin + Send + 'static,
    R: AsyncRead + Unpin + Send + 'static,
{
    let reader = tokio::spawn(async move {
        let mut buf = vec![0u8; FRAME];
        for _ in 0..frames + 2 {
            r.read_exact(&mut buf).await.expect("read");
        }
    });
    let big = vec![7u8; FRAME];
    for _ in 0..2 {
        w.write_all(&big).await.expect("write");
    }
    w.flush().await.expect("flush");
    let start = Start::now();
    for _ in 0..frames {
        w.write_all(&big).await.expect("write");
    }
    w.flush().await.expect("flush");
    reader.await.expect("reader");
    start
}

fn tune(s: &TcpStream, buffers: Option<usize>) {
    s.set_nodelay(true).expect("nodelay");
    if let Some(n) = buffers {
        let sock = socket2::SockRef::from(s);
        sock.set_send_buffer_size(n).expect("sndbuf");
        sock.set_recv_buffer_size(n).expect("rcvbuf");
    }
}

async fn tcp_pair(buffers: Option<usize>) -> (TcpStream, TcpStream) {
    let l = TcpListener::bind("127.0.0.1:0").await.expect("listen");
    let addr = l.local_addr().expect("addr");
    let (c, s) = tokio::join!(TcpStream::connect(addr), l.accept());
    let (c, s) = (c.expect("connect"), s.expect("accept").0);
    tune(&c, buffers);
    tune(&s, buffers);
    (c, s)
}

async fn raw_tcp(frames: usize) {
    let (c, s) = tcp_pair(None).await;
    let start = pump(c, s, frames).await;
    report("raw-tcp", frames * FRAME, start);
}

/// Raw TLS; `tuned`: a 1 MiB user-space read buffer under rustls (which reads at most 4 KiB
/// per call) and a 1 MiB send buffer limit in rustls (default 64 KiB, so larger `writev`s).
async fn raw_tls(frames: usize, buffers: Option<usize>, tuned: bool) {
    let secret = JobSecret::generate().expect("secret");
    let server = Credentials::for_rank(&secret, 1).expect("creds");
    let client = Credentials::for_rank(&secret, 0).expect("creds");
    let acceptor =
        tokio_rustls::TlsAcceptor::from(Arc::new(server.bulk_tls_server_config().expect("cfg")));
    let connector =
        tokio_rustls::TlsConnector::from(Arc::new(client.bulk_tls_client_config().expect("cfg")));
    let name = rustls::pki_types::ServerName::try_from(client.rank_name(1)).expect("name");
    let (c, s) = tcp_pair(buffers).await;
    let rbuf = if tuned { 1 << 20 } else { 0 };
    let s = tokio::io::BufReader::with_capacity(rbuf.max(1), s);
    let (c, s) = tokio::join!(connector.connect(name, c), acceptor.accept(s));
    let (mut c, s) = (c.expect("client handshake"), s.expect("server handshake"));
    if tuned {
        c.get_mut().1.set_buffer_limit(Some(1 << 20));
    }
    let suite = c.get_ref().1.negotiated_cipher_suite().expect("suite");
    let start = pump(c, s, frames).await;
    let what = match buffers {
        Some(n) => format!("raw-tls, {} MiB socket buffers", n >> 20),
        None => "raw-tls, kernel-tuned buffers".to_string(),
    } + if tuned { ", big reads" } else { "" };
    report(&what, frames * FRAME, start);
    assert_eq!(suite.suite(), rustls::CipherSuite::TLS13_AES_128_GCM_SHA256);
}

/// A QUIC setting to try against the transport's own.
#[derive(Clone, Copy, Debug)]
enum Knob {
    Transport,
    NoGso,
    Mtu1452,
    Bbr,
    NewReno,
}

/// One quinn stream between two endpoints built like the transport's, with `knob` changed.
async fn raw_quic(frames: usize, knob: Knob) {
    use nexar::security::TRANSPORT_ALPN;
    use nexar::transport::quic::endpoint;
    let cfg = nexar::Config::default();
    let Ok(mut t) = Arc::try_unwrap(endpoint::transport_config(&cfg, 0).expect("transport config"))
    else {
        unreachable!("a fresh transport config has one owner")
    };
    match knob {
        Knob::Transport => {}
        Knob::NoGso => {
            t.enable_segmentation_offload(false);
        }
        Knob::Mtu1452 => {
            t.initial_mtu(1452).min_mtu(1452);
        }
        Knob::Bbr => {
            t.congestion_controller_factory(Arc::new(quinn::congestion::BbrConfig::default()));
        }
        Knob::NewReno => {
            t.congestion_controller_factory(Arc::new(quinn::congestion::NewRenoConfig::default()));
        }
    }
    let t = Arc::new(t);
    let secret = JobSecret::generate().expect("secret");
    let server = Credentials::for_rank(&secret, 1).expect("creds");
    let client = Credentials::for_rank(&secret, 0).expect("creds");
    let server_cfg = server
        .quic_server_config(TRANSPORT_ALPN, t.clone())
        .expect("server config");
    let client_cfg = client
        .quic_client_config(TRANSPORT_ALPN, t)
        .expect("client config");
    let ip = cfg.bind_addr;
    let ep_s = endpoint::make_endpoint(ip, 0, Some(server_cfg)).expect("endpoint");
    let ep_c = endpoint::make_endpoint(ip, 0, None).expect("endpoint");
    let to = ep_s.local_addr().expect("addr");
    let dial = ep_c
        .connect_with(client_cfg, to, &client.rank_name(1))
        .expect("connect");
    let accept = async { ep_s.accept().await.expect("incoming").await };
    let (c, s) = tokio::join!(dial, accept);
    let (c, s) = (c.expect("client"), s.expect("server"));
    let total = (frames + 2) * FRAME;
    let reader = tokio::spawn(async move {
        let mut recv = s.accept_uni().await.expect("stream");
        let mut got = 0;
        while got < total {
            let chunk = recv.read_chunk(usize::MAX, true).await.expect("read");
            got += chunk.expect("data").bytes.len();
        }
        s
    });
    let mut send = c.open_uni().await.expect("open");
    let big = Bytes::from(vec![7u8; FRAME]);
    for _ in 0..2 {
        send.write_chunk(big.clone()).await.expect("write");
    }
    let start = Start::now();
    for _ in 0..frames {
        send.write_chunk(big.clone()).await.expect("write");
    }
    let s = reader.await.expect("reader");
    report(&format!("raw-quic, {knob:?}"), frames * FRAME, start);
    c.close(0u32.into(), b"done");
    s.close(0u32.into(), b"done");
}

fn main() {
    let mib: usize = std::env::args()
        .nth(1)
        .and_then(|v| v.parse().ok())
        .unwrap_or(512);
    let frames = (mib / 16).max(1);
    let rounds: usize = std::env::args()
        .nth(2)
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let transports_only = std::env::args().nth(3).as_deref() == Some("transport");
    let threads = std::env::var("BENCH_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads)
        .enable_all()
        .build()
        .expect("runtime");
    println!("{} x 16 MiB one way, {threads} runtime threads", frames);
    rt.block_on(async {
        for _ in 0..rounds {
            if transports_only {
                transport(BulkLane::Quic, frames).await;
                transport(BulkLane::Tls, frames).await;
                continue;
            }
            raw_tcp(frames).await;
            raw_tls(frames, None, false).await;
            raw_tls(frames, Some(8 << 20), false).await;
            raw_tls(frames, None, true).await;
            raw_tls(frames, Some(8 << 20), true).await;
            for knob in [
                Knob::Transport,
                Knob::NoGso,
                Knob::Mtu1452,
                Knob::Bbr,
                Knob::NewReno,
            ] {
                raw_quic(frames, knob).await;
            }
            transport(BulkLane::Quic, frames).await;
            transport(BulkLane::Tls, frames).await;
        }
    });
    summary(rounds);
}
