//! Hostile input against a running job (examples/ranks/hostile_target.rs, 3 ranks over QUIC with the
//! TLS bulk lane, launched by hand):
//! * garbage UDP datagrams and random TCP bytes thrown at every rank's ports change nothing;
//! * 10,000 malformed frames (2,000 in a debug build) from a peer holding a real rank
//!   certificate cause no panic and little memory growth in the victim; each offending
//!   connection is closed, and the victim keeps serving its other peer.
//!
//! Every wait has a deadline and children are killed on failure. Figures are printed.

mod common;

use common::procs::{HandLaunch, Reaper, example, launch_by_hand, stderr_text, succeeded};
use nexar::security::{Credentials, JobSecret, TRANSPORT_ALPN};
use nexar::transport::quic::{codes, endpoint};
use nexar::wire::{FrameHeader, FrameKind, HEADER_LEN, encode_header};
use nexar_proto::sim::SimRng;
use std::collections::HashSet;
use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpStream, UdpSocket};
use std::path::Path;
use std::process::Output;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Longest a job may take once told to stop.
const FINISH: Duration = Duration::from_secs(60);

/// The job's ranks, killed when dropped (a failed assertion must not leave ranks running).
struct Job(Reaper);

impl Job {
    fn start(mode: &str, dir: &Path) -> (Self, String) {
        let stop = dir.join("stop");
        let HandLaunch { children, job_id } =
            launch_by_hand(&example("hostile_target"), 3, dir, |cmd| {
                cmd.arg(mode)
                    .env("HOSTILE_STOP", &stop)
                    .env("NEXAR_TRANSPORT", "quic")
                    .env("NEXAR_CONNECT_TIMEOUT_MS", "5000");
            });
        (Self(Reaper(children)), job_id)
    }

    fn pid(&self, rank: usize) -> u32 {
        self.0.0[rank].id()
    }

    /// Tells the job to stop and waits for every rank (killing all at the deadline).
    fn finish(self, dir: &Path) -> Vec<Output> {
        std::fs::write(dir.join("stop"), b"").unwrap();
        self.0.wait(FINISH)
    }
}

/// Socket inodes open in process `pid`.
fn socket_inodes(pid: u32) -> HashSet<u64> {
    let Ok(dir) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return HashSet::new();
    };
    dir.filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
        .filter_map(|l| {
            let s = l.to_string_lossy().into_owned();
            s.strip_prefix("socket:[")?.strip_suffix(']')?.parse().ok()
        })
        .collect()
}

/// Local ports of `pid`'s sockets in a /proc/net table (`udp` or `tcp`); for TCP only
/// listening sockets (state 0A).
fn ports(pid: u32, table: &str) -> Vec<u16> {
    let inodes = socket_inodes(pid);
    let text = std::fs::read_to_string(format!("/proc/{pid}/net/{table}")).unwrap_or_default();
    let mut out: Vec<u16> = text
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let port = u16::from_str_radix(f.get(1)?.rsplit(':').next()?, 16).ok()?;
            let listening = table != "tcp" || f.get(3) == Some(&"0A");
            let inode: u64 = f.get(9)?.parse().ok()?;
            (listening && inodes.contains(&inode)).then_some(port)
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Waits until every rank has a UDP socket and a TCP listener (its QUIC endpoint and TLS
/// lane), then a little longer so the job is past its set-up.
fn wait_ready(job: &Job, dir: &Path) -> Vec<(Vec<u16>, Vec<u16>)> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let all: Vec<_> = (0..3)
            .map(|r| (ports(job.pid(r), "udp"), ports(job.pid(r), "tcp")))
            .collect();
        // Every rank finished its start-up collectives (which involve rank 2, the one the
        // malformed-frame test impersonates) before any attack begins.
        let ready = (0..3).all(|r| dir.join(format!("ready{r}")).exists());
        if ready && all.iter().all(|(u, t)| !u.is_empty() && !t.is_empty()) {
            std::thread::sleep(Duration::from_millis(500));
            return all;
        }
        assert!(
            Instant::now() < deadline,
            "the ranks never opened their ports"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Whether process `pid` runs (exists and is not a zombie).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
        s.rsplit(')')
            .next()
            .is_some_and(|t| !t.trim_start().starts_with('Z'))
    })
}

fn vm_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .expect("VmRSS")
}

fn assert_rounds(outs: &[Output], ranks: &[usize]) -> Vec<u64> {
    ranks
        .iter()
        .map(|&r| {
            let out = &outs[r];
            let stdout = succeeded(out, format_args!("rank {r}"));
            stdout
                .lines()
                .find_map(|l| {
                    l.split("rounds verified")
                        .next()?
                        .rsplit(' ')
                        .nth(1)?
                        .parse()
                        .ok()
                })
                .filter(|&n: &u64| n > 0)
                .unwrap_or_else(|| {
                    panic!(
                        "rank {r} verified no rounds\n{stdout}\n{}",
                        stderr_text(out)
                    )
                })
        })
        .collect()
}

#[test]
fn garbage_datagrams_and_random_tcp_bytes_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (job, _) = Job::start("all", dir.path());
    let ports = wait_ready(&job, dir.path());
    let lo = IpAddr::V4(Ipv4Addr::LOCALHOST);
    let mut rng = SimRng::new(0x6a7a);
    let udp = UdpSocket::bind("127.0.0.1:0").unwrap();
    let start = Instant::now();
    let (mut datagrams, mut tcp_conns, mut tcp_bytes) = (0u64, 0u64, 0u64);
    for round in 0..40 {
        for (u, t) in &ports {
            for &p in u {
                for k in 0..100 {
                    let len = 1 + rng.below(1400);
                    let mut b: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
                    if k % 3 == 0 {
                        // Looks like a QUIC long header (Initial, version 1): gets further in.
                        b[0] = 0xC0 | (b[0] & 0x0F);
                        if b.len() > 5 {
                            b[1..5].copy_from_slice(&1u32.to_be_bytes());
                        }
                    }
                    if udp.send_to(&b, SocketAddr::new(lo, p)).is_ok() {
                        datagrams += 1;
                    }
                }
            }
            for &p in t {
                if let Ok(mut s) =
                    TcpStream::connect_timeout(&SocketAddr::new(lo, p), Duration::from_secs(2))
                {
                    let len = rng.below(8192);
                    let mut b: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
                    if round % 4 == 0 && b.len() > 5 {
                        // A TLS record header (handshake, TLS 1.2) in front of garbage.
                        b[..5].copy_from_slice(&[0x16, 0x03, 0x03, 0x01, 0x00]);
                    }
                    if s.write_all(&b).is_ok() {
                        tcp_bytes += b.len() as u64;
                    }
                    tcp_conns += 1;
                }
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let attack = start.elapsed().as_secs_f64();
    let outs = job.finish(dir.path());
    let rounds = assert_rounds(&outs, &[0, 1, 2]);
    eprintln!(
        "garbage: {datagrams} UDP datagrams and {tcp_conns} TCP connections ({tcp_bytes} bytes) \
         at 3 ranks in {attack:.1} s; the job verified {rounds:?} rounds and finalized cleanly"
    );
}

/// Bytes of one malformed frame (variant `i`) from a peer claiming rank `src`.
fn malformed(i: usize, src: u32) -> Vec<u8> {
    let mut h = FrameHeader::new(FrameKind::P2p, src);
    match i % 5 {
        0 => return vec![0x55; HEADER_LEN],
        1 => h.kind = 99,
        2 => h.len = u64::MAX / 2,
        3 => h.src = src + 7,
        _ => {
            // A payload cut short by the end of the stream.
            h.len = 1000;
            let mut v = encode_header(&h).to_vec();
            v.extend_from_slice(&[1u8; 10]);
            return v;
        }
    }
    encode_header(&h).to_vec()
}

fn hello(src: u32) -> Vec<u8> {
    encode_header(&FrameHeader::new(FrameKind::Hello, src)).to_vec()
}

/// Connects to `addr` as rank 2 and sends `bytes` on one stream; returns the code the victim
/// closed the connection with (`None`: it did not close within the time limit).
async fn attack_once(
    ep: &quinn::Endpoint,
    client: quinn::ClientConfig,
    addr: SocketAddr,
    server_name: &str,
    bytes: Vec<u8>,
) -> Option<quinn::VarInt> {
    let connecting = ep.connect_with(client, addr, server_name).ok()?;
    let conn = tokio::time::timeout(Duration::from_secs(10), connecting)
        .await
        .ok()?
        .ok()?;
    if let Ok(mut s) = conn.open_uni().await {
        let _ = s.write_all(&bytes).await;
        let _ = s.finish();
    }
    match tokio::time::timeout(Duration::from_secs(10), conn.closed()).await {
        Ok(quinn::ConnectionError::ApplicationClosed(c)) => Some(c.error_code),
        _ => None,
    }
}

#[test]
fn malformed_frames_from_an_authenticated_peer_close_only_its_connections() {
    // Each frame costs a handshake: 10,000 in an optimized build, 2,000 in a debug one (about
    // 70 handshakes a second on a busy 2-core machine); NEXAR_HOSTILE_FRAMES overrides.
    let frames: usize = std::env::var("NEXAR_HOSTILE_FRAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) {
            2_000
        } else {
            10_000
        });
    const PARALLEL: usize = 32;
    let dir = tempfile::tempdir().unwrap();
    let (job, _) = Job::start("pair", dir.path());
    let ports = wait_ready(&job, dir.path());
    let victim = job.pid(0);
    let secret = JobSecret::read_from_file(&dir.path().join("secret")).unwrap();
    let creds = Credentials::for_rank(&secret, 2).unwrap();
    // Rank 0 also hosts the rendezvous (another UDP socket): its QUIC endpoint is the UDP
    // port whose number its TLS lane listens on over TCP.
    let (udp0, tcp0) = &ports[0];
    let port = *udp0
        .iter()
        .find(|p| tcp0.contains(p))
        .expect("QUIC port of rank 0");
    let target = SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port);
    let name = creds.rank_name(0);
    let rss_before = vm_rss_kib(victim);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let start = Instant::now();
    let codes_seen = rt.block_on(async {
        let cfg = nexar::Config::default();
        let tcfg = endpoint::transport_config(&cfg, 0).unwrap();
        let client = creds.quic_client_config(TRANSPORT_ALPN, tcfg).unwrap();
        let ep = endpoint::make_endpoint(IpAddr::V4(Ipv4Addr::LOCALHOST), 0, None).unwrap();
        let sem = Arc::new(tokio::sync::Semaphore::new(PARALLEL));
        let mut tasks = tokio::task::JoinSet::new();
        for i in 0..frames {
            let permit = sem.clone().acquire_owned().await.unwrap();
            if i % 256 == 0 {
                assert!(alive(victim), "the victim died after {i} malformed frames");
            }
            // Half the streams open with a valid Hello (the malformed frame comes second), half
            // with the malformed frame itself where the Hello should be.
            let mut bytes = if i % 2 == 0 { hello(2) } else { Vec::new() };
            bytes.extend(malformed(i / 2, 2));
            let (ep, client, name) = (ep.clone(), client.clone(), name.clone());
            tasks.spawn(async move {
                let code = attack_once(&ep, client, target, &name, bytes).await;
                drop(permit);
                code
            });
        }
        let mut seen = Vec::new();
        while let Some(r) = tasks.join_next().await {
            seen.push(r.unwrap());
        }
        ep.close(0u32.into(), b"done");
        seen
    });
    let attack = start.elapsed().as_secs_f64();
    let rss_after = vm_rss_kib(victim);
    let count = |c: quinn::VarInt| codes_seen.iter().filter(|&&x| x == Some(c)).count();
    let (protocol, auth, rejected) = (
        count(codes::PROTOCOL),
        count(codes::AUTH),
        count(codes::REJECTED),
    );
    let unclosed = codes_seen.iter().filter(|c| c.is_none()).count();
    let outs = job.finish(dir.path());
    let rounds = assert_rounds(&outs, &[0, 1]);
    let victim_log = String::from_utf8_lossy(&outs[0].stdout);
    eprintln!(
        "malformed frames: {frames} connections as rank 2 in {attack:.1} s ({:.0}/s); closed \
         with PROTOCOL {protocol}, AUTH {auth}, REJECTED {rejected}, not closed {unclosed}; \
         victim VmRSS {rss_before} -> {rss_after} KiB ({:+} KiB); ranks 0 and 1 verified \
         {rounds:?} rounds meanwhile",
        frames as f64 / attack,
        rss_after as i64 - rss_before as i64
    );
    assert_eq!(
        unclosed, 0,
        "every offending connection is closed by the victim"
    );
    assert!(
        protocol >= 1,
        "the first malformed frame after a Hello closes with PROTOCOL"
    );
    assert_eq!(protocol + auth + rejected, frames);
    assert!(
        rss_after < rss_before + 16 * 1024,
        "victim RSS grew from {rss_before} to {rss_after} KiB"
    );
    assert!(
        victim_log.contains("rank 2 unreachable") && victim_log.contains("sent a malformed frame"),
        "the victim reports why rank 2 was lost:\n{victim_log}"
    );
}
