//! Joining a job with bad credentials, against real rank processes (a rank's own endpoint is
//! tested in tests/security_endpoint.rs; more in-process authentication tests are in
//! tests/security.rs and tests/bootstrap.rs).
//!
//! The ranks are this test binary re-run as `rank_process` (see there): it logs to stderr at
//! the `NEXAR_LOG` level, joins the job, proves it with an allreduce, reports its pid and
//! environment, and waits for a release file. Every wait has a deadline and children are
//! killed when a test fails.
//!
//! Scenarios against a rank-hosted rendezvous: garbage datagrams, a rank process holding
//! another job's secret, a client without a certificate, a client with another job's
//! certificate and one with another rank's certificate are each refused at connect, with the
//! reason in the rendezvous host's log; the genuine rank then joins as if nothing happened.
//! The job secret never appears in a rank's command line, initial environment block or logs,
//! and the variables pointing at it are gone from the environment after init, whether the
//! ranks are started by hand or by nexarrun.

mod common;
#[path = "common/rogue.rs"]
mod rogue;

use common::procs::{free_udp_port, nexarrun_path, wait_until};
use nexar::bootstrap::SECRET_VARS;
use nexar::bootstrap::rendezvous::{self, Hello};
use nexar::security::{Credentials, JobSecret, RENDEZVOUS_ALPN};
use nexar::transport::quic::endpoint;
use nexar::{Config, Context, ReduceOp};
use parking_lot::Mutex;
use rogue::{identity, rogue_connect, spray_garbage};
use std::io::{BufRead, BufReader, Read};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Set in a rank process: the path of the file whose existence releases it.
const CHILD: &str = "NEXAR_SECJOIN_RELEASE";
const DEADLINE: Duration = Duration::from_secs(20);

/// The body of the rank processes the tests start (a no-op when run as a test).
#[test]
fn rank_process() {
    let Some(release) = std::env::var_os(CHILD) else {
        return;
    };
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("NEXAR_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .init();
    let ctx = match Context::init() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("rank init failed: {e}");
            std::process::exit(3);
        }
    };
    let w = ctx.world();
    let mut v = [1u64];
    w.block_on(w.allreduce(&mut v, ReduceOp::Sum)).unwrap();
    let leftover: Vec<&str> = SECRET_VARS
        .iter()
        .copied()
        .filter(|k| std::env::var_os(k).is_some())
        .collect();
    println!(
        "ready rank={} pid={} sum={} leftover={leftover:?}",
        ctx.rank(),
        std::process::id(),
        v[0]
    );
    let start = Instant::now();
    while !Path::new(&release).exists() && start.elapsed() < DEADLINE {
        std::thread::sleep(Duration::from_millis(20));
    }
    w.block_on(w.barrier()).unwrap();
    drop(ctx);
    std::process::exit(0);
}

/// A started rank process whose output is collected line by line as it comes.
struct Rank {
    child: Child,
    out: Arc<Mutex<Vec<String>>>,
    err: Arc<Mutex<Vec<String>>>,
    /// The threads reading stdout and stderr: joined once the process has exited, so that
    /// its last lines are in `out` / `err` before anyone reads them.
    readers: Vec<std::thread::JoinHandle<()>>,
}

fn collect(
    r: impl Read + Send + 'static,
) -> (Arc<Mutex<Vec<String>>>, std::thread::JoinHandle<()>) {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let l = lines.clone();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(r).lines().map_while(|l| l.ok()) {
            l.lock().push(line);
        }
    });
    (lines, reader)
}

impl Rank {
    fn start(mut cmd: Command) -> Self {
        let mut child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (out, r1) = collect(child.stdout.take().unwrap());
        let (err, r2) = collect(child.stderr.take().unwrap());
        Self {
            child,
            out,
            err,
            readers: vec![r1, r2],
        }
    }

    fn stderr(&self) -> String {
        self.err.lock().join("\n")
    }

    /// Waits for a line of stderr containing `needle`.
    fn wait_stderr(&self, needle: &str) -> bool {
        wait_for(|| self.err.lock().iter().any(|l| l.contains(needle)))
    }

    /// The "ready" lines printed so far.
    fn ready_lines(&self) -> Vec<String> {
        self.out
            .lock()
            .iter()
            // libtest may have printed "test rank_process ... " on the same line.
            .filter_map(|l| l.find("ready rank=").map(|at| l[at..].to_string()))
            .collect()
    }

    /// Waits for the process to exit (and for its output to be read to the end).
    fn wait_exit(&mut self) -> Option<i32> {
        let code = wait_until(&mut self.child, Instant::now() + DEADLINE).and_then(|s| s.code());
        if code.is_some() {
            // The pipes reach EOF with the process (no grandchild holds them).
            for r in self.readers.drain(..) {
                let _ = r.join();
            }
        }
        code
    }
}

impl Drop for Rank {
    fn drop(&mut self) {
        // Never leave a rank behind, whatever happened.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn wait_for(mut cond: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < DEADLINE {
        if cond() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    cond()
}

/// This test binary re-run as a rank process released by `release`.
fn rank_command(release: &Path) -> Command {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args(["--exact", "rank_process", "--nocapture", "--test-threads=1"])
        .env(CHILD, release)
        .env("NEXAR_LOG", "warn,nexar=debug")
        .env_remove("RUST_LOG");
    cmd
}

/// A rank started by hand (the environment contract) with the secret in `secret_file`.
fn hand_rank(release: &Path, rank: u32, rdv: &str, secret_file: &Path) -> Rank {
    let mut cmd = rank_command(release);
    cmd.env("NEXAR_RANK", rank.to_string())
        .env("NEXAR_SIZE", "2")
        .env("NEXAR_RENDEZVOUS", rdv)
        .env("NEXAR_JOB_SECRET_FILE", secret_file)
        .env("NEXAR_CONNECT_TIMEOUT_MS", "20000");
    if rank == 0 {
        cmd.env("NEXAR_RENDEZVOUS_HOST", "1");
    }
    Rank::start(cmd)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Asserts that neither form of `secret` (raw bytes, hex in either case) occurs in `data`.
fn assert_no_secret(what: &str, data: &[u8], secret: &JobSecret) {
    let raw = secret.expose();
    assert!(
        !data.windows(raw.len()).any(|w| w == raw),
        "{what} holds the raw job secret"
    );
    let h = hex(raw);
    let text = String::from_utf8_lossy(data).to_lowercase();
    assert!(!text.contains(&h), "{what} holds the job secret in hex");
}

/// Checks a running rank's command line and initial environment block for the secret.
fn check_proc(pid: u32, secret: &JobSecret) {
    for part in ["cmdline", "environ"] {
        let data = std::fs::read(format!("/proc/{pid}/{part}")).unwrap();
        assert_no_secret(&format!("/proc/{pid}/{part}"), &data, secret);
    }
}

fn pid_of(ready: &str) -> u32 {
    ready
        .split_whitespace()
        .find_map(|f| f.strip_prefix("pid="))
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no pid in {ready:?}"))
}

/// Joins the rendezvous at `to` with `creds` and a hello claiming `rank` of 2.
async fn join_with(creds: &Credentials, to: SocketAddr, rank: u32) -> nexar::Result<()> {
    let cfg = Config {
        connect_timeout: Duration::from_secs(5),
        ..Config::default()
    };
    let ep = endpoint::make_endpoint(IpAddr::V4(Ipv4Addr::LOCALHOST), 0, None).unwrap();
    let hello = Hello {
        rank,
        size: 2,
        addr: ep.local_addr().unwrap(),
        host: "impostor".into(),
    };
    let r = rendezvous::join(&ep, creds, to, &hello, &cfg)
        .await
        .map(drop);
    ep.close(0u32.into(), b"done");
    r
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_credentials_are_refused_at_the_rendezvous_and_logged() {
    let dir = tempfile::tempdir().unwrap();
    let release = dir.path().join("release");
    let (good_file, other_file) = (dir.path().join("secret"), dir.path().join("other"));
    let (good, other) = (
        JobSecret::generate().unwrap(),
        JobSecret::generate().unwrap(),
    );
    good.write_file(&good_file).unwrap();
    other.write_file(&other_file).unwrap();
    let port = free_udp_port();
    let rdv = format!("127.0.0.1:{port}");
    let rdv_addr: SocketAddr = rdv.parse().unwrap();

    let mut r0 = hand_rank(&release, 0, &rdv, &good_file);
    // The rendezvous answers once it listens: wait for a refusal of a real (wrong) client.
    let t = Instant::now();
    spray_garbage(rdv_addr, 500);

    // 1. A rank process holding another job's secret.
    let mut rogue = hand_rank(&release, 1, &rdv, &other_file);
    let code = rogue.wait_exit();
    let rogue_err = rogue.stderr();
    eprintln!("rogue rank (another job's secret): exit {code:?}: {rogue_err}");
    assert_eq!(
        code,
        Some(3),
        "the rogue rank must fail its init: {rogue_err}"
    );
    assert!(rogue_err.contains("rank init failed"), "{rogue_err}");
    assert!(
        r0.wait_stderr("rendezvous refused a client"),
        "rank 0 logged no refusal: {}",
        r0.stderr()
    );
    eprintln!("first refusal logged after {:?}", t.elapsed());

    // 2. No certificate at all.
    let refusals = |r: &Rank| {
        r.err
            .lock()
            .iter()
            .filter(|l| l.contains("rendezvous refused a client"))
            .count()
    };
    let before = refusals(&r0);
    let how = rogue_connect(rdv_addr, RENDEZVOUS_ALPN, None).await;
    eprintln!("client without a certificate: {how}");
    assert!(!how.starts_with("answered"), "{how}");
    assert!(
        wait_for(|| refusals(&r0) > before),
        "no refusal logged for a client without a certificate: {}",
        r0.stderr()
    );
    assert!(r0.stderr().contains("peer sent no certificates"));

    // 3. Another job's certificate for rank 1, checked by the rendezvous itself (the client
    // trusts any server), and by a real client of that job (which refuses our server first).
    let before = refusals(&r0);
    let how = rogue_connect(rdv_addr, RENDEZVOUS_ALPN, Some(identity(&other, 1))).await;
    eprintln!("another job's certificate: {how}");
    assert!(!how.starts_with("answered"), "{how}");
    assert!(wait_for(|| refusals(&r0) > before), "{}", r0.stderr());
    let own_check = |l: &String| l.contains("UnknownIssuer") && !l.contains("aborted by peer");
    assert!(r0.err.lock().iter().any(own_check), "{}", r0.stderr());
    let e = join_with(&Credentials::for_rank(&other, 1).unwrap(), rdv_addr, 1)
        .await
        .unwrap_err();
    eprintln!("another job's rank joining: {e}");
    assert!(e.message().contains("UnknownIssuer"), "{e}");

    // 4. This job's certificate for rank 0 claiming rank 1.
    let before = refusals(&r0);
    let e = join_with(&Credentials::for_rank(&good, 0).unwrap(), rdv_addr, 1)
        .await
        .unwrap_err();
    eprintln!("another rank's certificate: {e}");
    assert!(e.message().contains("claims rank 1"), "{e}");
    assert!(wait_for(|| refusals(&r0) > before), "{}", r0.stderr());
    spray_garbage(rdv_addr, 500);

    // The genuine rank 1 joins as if nothing happened.
    let mut r1 = hand_rank(&release, 1, &rdv, &good_file);
    let ranks = [&r0, &r1];
    assert!(
        wait_for(|| ranks.iter().all(|r| r.ready_lines().len() == 1)),
        "the job did not form: rank 0: {} / rank 1: {}",
        r0.stderr(),
        r1.stderr()
    );
    for r in ranks {
        let ready = r.ready_lines().remove(0);
        assert!(ready.contains("sum=2"), "{ready}");
        assert!(ready.contains("leftover=[]"), "{ready}");
        check_proc(pid_of(&ready), &good);
    }
    std::fs::write(&release, b"").unwrap();
    assert_eq!(r0.wait_exit(), Some(0), "{}", r0.stderr());
    assert_eq!(r1.wait_exit(), Some(0), "{}", r1.stderr());
    let log0 = r0.stderr();
    eprintln!("rank 0 log:\n{log0}");
    for log in [&log0, &r1.stderr(), &rogue_err] {
        assert_no_secret("a rank's log", log.as_bytes(), &good);
    }
    // Every refusal says why; nothing else (the garbage included) drew a warning, on either
    // genuine rank.
    assert!(log0.contains("reason=claims rank 1"), "{log0}");
    let refused = log0
        .lines()
        .filter(|l| l.contains("refused a client"))
        .count();
    assert_eq!(refused, 5, "one refusal per bad client:\n{log0}");
    for line in log0.lines().filter(|l| l.contains("refused a client")) {
        assert!(line.contains("reason="), "{line}");
    }
    for (log, what) in [(&log0, "rank 0"), (&r1.stderr(), "rank 1")] {
        for line in log.lines() {
            let warned = line.contains("WARN") || line.contains("ERROR");
            assert!(
                !warned || line.contains("refused a client"),
                "{what}: {line}"
            );
        }
    }
}

/// Ranks under nexarrun: the secret comes through a pipe, never argv or the environment.
#[test]
fn the_secret_is_in_no_rank_argv_environment_or_log() {
    let dir = tempfile::tempdir().unwrap();
    let release: PathBuf = dir.path().join("release");
    let mut cmd = Command::new(nexarrun_path());
    cmd.args(["-n", "2", "--timeout", "40", "--"])
        .arg(std::env::current_exe().unwrap())
        .args(["--exact", "rank_process", "--nocapture", "--test-threads=1"])
        .env(CHILD, &release)
        .env("NEXAR_LOG", "warn,nexar=debug");
    let mut job = Rank::start(cmd);
    assert!(
        wait_for(|| job.ready_lines().len() == 2),
        "ranks not ready: {}",
        job.stderr()
    );
    let pids: Vec<u32> = job.ready_lines().iter().map(|l| pid_of(l)).collect();
    // The secret is not known to this process: look for what carries it instead.
    for (pid, line) in pids.iter().zip(job.ready_lines()) {
        assert!(line.contains("leftover=[]"), "{line}");
        let env = std::fs::read(format!("/proc/{pid}/environ")).unwrap();
        let env = String::from_utf8_lossy(&env);
        assert!(
            !env.contains("NEXAR_JOB_SECRET="),
            "rank {pid}: a secret variable in the environment"
        );
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap();
        assert!(
            !String::from_utf8_lossy(&cmdline).contains("secret"),
            "rank {pid}: the command line mentions the secret"
        );
        // nexarrun hands the secret over an inherited pipe (named by NEXAR_SECRET_FD, which
        // the initial environment block still shows) that the rank closes after reading.
        let fd = env
            .split('\0')
            .find_map(|kv| kv.strip_prefix("NEXAR_SECRET_FD="))
            .expect("nexarrun passes NEXAR_SECRET_FD");
        let target = std::fs::read_link(format!("/proc/{pid}/fd/{fd}")).unwrap_or_default();
        assert!(
            !target.to_string_lossy().starts_with("pipe:"),
            "rank {pid}: the secret pipe (fd {fd}) is still open"
        );
    }
    std::fs::write(&release, b"").unwrap();
    assert_eq!(job.wait_exit(), Some(0), "{}", job.stderr());
    // nexar's own debug log holds no 64-hex-digit string (the secret's text form; rustls'
    // debug lines would: they print handshake bytes).
    let log = job.stderr();
    let long_hex = log
        .split(|c: char| !c.is_ascii_hexdigit())
        .any(|w| w.len() >= 64);
    assert!(!long_hex, "a 64-hex-digit string in the log:\n{log}");
}
