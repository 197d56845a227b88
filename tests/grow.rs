//! Elastic growth across real processes (examples/ranks/grow_check.rs, ranks launched by hand): a job
//! of 2 grows by 2 and runs an allreduce over the 4; a job grows twice (epoch 2); a newcomer
//! that never starts gives every old rank an error within the shortened connect timeout.
//! In process: credentials of an older epoch are refused by a newer epoch's rendezvous, with
//! the reason logged; bad arguments are refused. Timing figures are printed (eprintln).

mod common;
#[path = "common/rogue.rs"]
mod rogue;

use common::procs::{
    example, launch_by_hand, nexarrun_path, stderr_text, stdout_text, wait_all_within,
};
use nexar::bootstrap::rendezvous::{self, Hello, RendezvousServer};
use nexar::security::{Credentials, JobSecret, RENDEZVOUS_ALPN};
use nexar::transport::quic::endpoint;
use nexar::{Config, Context, ErrorKind};
use rogue::{identity, rogue_connect};
use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::Child;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Each rank's exit code and stdout once all exited (stderr is echoed); kills them all and
/// panics past `limit`.
fn finish(children: Vec<Child>, limit: Duration) -> Vec<(i32, String)> {
    wait_all_within(children, limit)
        .iter()
        .map(|o| {
            eprint!("{}", stderr_text(o));
            (o.status.code().unwrap_or(-1), stdout_text(o))
        })
        .collect()
}

/// Runs 2 ranks of grow_check with the extra environment `vars`.
fn run_grow(vars: &[(&str, &str)]) -> (Vec<(i32, String)>, Duration) {
    let dir = tempfile::tempdir().unwrap();
    let t = Instant::now();
    let launch = launch_by_hand(&example("grow_check"), 2, dir.path(), |c| {
        c.env("NEXAR_CONNECT_TIMEOUT_MS", "10000");
        for (k, v) in vars {
            c.env(k, v);
        }
    });
    let out = finish(launch.children, Duration::from_secs(45));
    (out, t.elapsed())
}

/// The `ok` lines of every process for worlds of `size`.
fn oks(out: &[(i32, String)], size: u32, epoch: u32) -> Vec<String> {
    let tag = format!(" size={size} epoch={epoch} ");
    out.iter()
        .flat_map(|(_, o)| o.lines())
        .filter(|l| l.starts_with("ok ") && l.contains(&tag))
        .map(str::to_string)
        .collect()
}

fn assert_world(out: &[(i32, String)], size: u32, epoch: u32) {
    let lines = oks(out, size, epoch);
    let sum = u64::from(size) * u64::from(size + 1) / 2;
    assert!(
        lines.iter().all(|l| l.ends_with(&format!("sum={sum}"))),
        "{lines:?}"
    );
    let mut ranks: Vec<u32> = lines
        .iter()
        .map(|l| {
            l["ok rank=".len()..]
                .split(' ')
                .next()
                .unwrap()
                .parse()
                .unwrap()
        })
        .collect();
    ranks.sort_unstable();
    ranks.dedup();
    assert_eq!(
        ranks,
        (0..size).collect::<Vec<_>>(),
        "every rank of the world of {size} checked it: {lines:?}"
    );
}

#[test]
fn two_ranks_grow_by_two_and_allreduce_over_four() {
    let (out, took) = run_grow(&[("GROW_CHECK_ADD", "2"), ("GROW_CHECK_TIMES", "1")]);
    eprintln!("grow 2 -> 4 (start, grow, checks, exit): {took:?}");
    for (code, o) in &out {
        assert_eq!(*code, 0, "{o}");
    }
    assert_world(&out, 2, 0);
    assert_world(&out, 4, 1);
}

#[test]
fn a_job_grows_over_quic_only() {
    let (out, took) = run_grow(&[("GROW_CHECK_ADD", "2"), ("NEXAR_TRANSPORT", "quic")]);
    eprintln!("grow 2 -> 4 over QUIC (start, grow, checks, exit): {took:?}");
    for (code, o) in &out {
        assert_eq!(*code, 0, "{o}");
    }
    assert_world(&out, 4, 1);
}

#[test]
fn a_job_grows_twice_to_epoch_two() {
    let (out, took) = run_grow(&[("GROW_CHECK_ADD", "1"), ("GROW_CHECK_TIMES", "2")]);
    eprintln!("grow 2 -> 3 -> 4 (start, grows, checks, exit): {took:?}");
    for (code, o) in &out {
        assert_eq!(*code, 0, "{o}");
    }
    assert_world(&out, 2, 0);
    assert_world(&out, 3, 1);
    assert_world(&out, 4, 2);
}

#[test]
fn a_newcomer_that_never_starts_fails_every_old_rank_within_the_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let t = Instant::now();
    let launch = launch_by_hand(&example("grow_check"), 2, dir.path(), |c| {
        c.env("NEXAR_CONNECT_TIMEOUT_MS", "1500")
            .env("GROW_CHECK_MODE", "never");
    });
    let out = finish(launch.children, Duration::from_secs(30));
    eprintln!("grow with a missing newcomer, whole run: {:?}", t.elapsed());
    for (code, o) in &out {
        assert_eq!(*code, 0, "{o}");
        let line = o
            .lines()
            .find(|l| l.starts_with("growfail"))
            .unwrap_or_else(|| panic!("no grow failure reported: {o}"));
        eprintln!("{line}");
        let ms: u64 = line
            .split("after_ms=")
            .nth(1)
            .and_then(|r| r.split(':').next())
            .and_then(|v| v.parse().ok())
            .unwrap();
        // 1.5 s timeout plus the reply margin; generous for a loaded 2-core box.
        assert!(ms < 10_000, "{line}");
    }
}

#[test]
fn a_job_under_nexarrun_grows() {
    let t = Instant::now();
    let child = std::process::Command::new(nexarrun_path())
        .args(["-n", "2", "--timeout", "40", "--"])
        .arg(example("grow_check"))
        .env("GROW_CHECK_ADD", "2")
        .env("NEXAR_CONNECT_TIMEOUT_MS", "10000")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let out = finish(vec![child], Duration::from_secs(45));
    eprintln!("nexarrun -n 2, grow 2 -> 4: {:?}", t.elapsed());
    assert_eq!(out[0].0, 0, "{}", out[0].1);
    assert_world(&out, 2, 0);
    assert_world(&out, 4, 1);
}

#[test]
fn a_failing_start_fails_every_old_rank() {
    let dir = tempfile::tempdir().unwrap();
    let launch = launch_by_hand(&example("grow_check"), 2, dir.path(), |c| {
        c.env("GROW_CHECK_MODE", "startfail");
    });
    let out = finish(launch.children, Duration::from_secs(30));
    for (code, o) in &out {
        assert_eq!(*code, 0, "{o}");
        let line = o
            .lines()
            .find(|l| l.starts_with("growfail"))
            .unwrap_or_else(|| {
                panic!("no grow failure reported: {o}");
            });
        eprintln!("{line}");
    }
    assert!(
        out[0].1.contains("refusing to start anyone"),
        "{}",
        out[0].1
    );
}

#[test]
fn bad_arguments_are_refused() {
    let ctxs = Context::in_process(2).unwrap();
    let e = ctxs[0].grow(0, |_| Ok(())).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidArgument, "{e}");
    let e = ctxs[0].grow(u32::MAX, |_| Ok(())).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidArgument, "{e}");
    let e = ctxs[0].grow(1, |_| Ok(())).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported, "{e}");
    assert_eq!(ctxs[0].epoch(), 0);
}

/// A `tracing` writer into a shared buffer.
#[derive(Clone)]
struct Log(Arc<Mutex<Vec<u8>>>);

impl Write for Log {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn credentials_of_an_older_epoch_are_refused_and_logged() {
    let log = Log(Arc::new(Mutex::new(Vec::new())));
    let w = log.clone();
    tracing_subscriber::fmt()
        .with_writer(move || w.clone())
        .with_ansi(false)
        .with_env_filter(tracing_subscriber::EnvFilter::new("warn"))
        .init();
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let cfg = Config {
            connect_timeout: Duration::from_secs(3),
            ..Config::default()
        };
        let base = JobSecret::generate().unwrap();
        let bind = SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0);
        let server = RendezvousServer::start(&base.for_epoch(1), bind, 2, &cfg).unwrap();
        let ep = endpoint::make_endpoint(IpAddr::V4(Ipv4Addr::LOCALHOST), 0, None).unwrap();
        let hello = Hello {
            rank: 1,
            size: 2,
            addr: ep.local_addr().unwrap(),
            host: "stale".into(),
        };
        let stale = Credentials::for_rank(&base, 1).unwrap();
        let t = Instant::now();
        let e = rendezvous::join(&ep, &stale, server.local_addr(), &hello, &cfg)
            .await
            .map(drop)
            .unwrap_err();
        eprintln!(
            "epoch-0 rank 1 joining epoch 1: refused in {:?}: {e}",
            t.elapsed()
        );
        assert_eq!(e.kind(), ErrorKind::Security, "{e}");
        // A client that trusts any server: the rendezvous itself must refuse the stale
        // certificate, and log why.
        let how = rogue_connect(
            server.local_addr(),
            RENDEZVOUS_ALPN,
            Some(identity(&base, 1)),
        )
        .await;
        eprintln!("epoch-0 certificate, server not checked: {how}");
        assert!(!how.starts_with("answered"), "{how}");
        let own_check = |l: &str| {
            l.contains("rendezvous refused a client")
                && l.contains("UnknownIssuer")
                && !l.contains("aborted by peer")
        };
        let deadline = Instant::now() + Duration::from_secs(5);
        let logged = || String::from_utf8_lossy(&log.0.lock().unwrap()).into_owned();
        while !logged().lines().any(own_check) && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let text = logged();
        eprintln!("rendezvous log: {text}");
        assert!(text.lines().any(own_check), "{text}");
        for s in [&base, &base.for_epoch(1)] {
            let hex: String = s.expose().iter().map(|b| format!("{b:02x}")).collect();
            assert!(!text.contains(&hex), "a secret was logged");
        }
        ep.close(0u32.into(), b"done");
        drop(server);
    });
}
