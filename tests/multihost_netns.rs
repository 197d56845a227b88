//! Multi-host `nexarrun` on two "hosts" made of Linux network namespaces: a bridge namespace
//! with a bridge, two host namespaces linked to it by veth pairs (10.213.7.1/24 and .2), each
//! nexarrun run under `unshare --uts` with its own host name (equal host names would make the
//! ranks use shared memory across "hosts"). Needs root, `ip` and `unshare`; otherwise each
//! test prints `SKIPPED: reason` and passes. The namespaces are deleted by a guard, even when
//! a test panics; every wait has a deadline and children are terminated on failure.
//!
//! The last tests need no namespaces (loopback only) and always run.

mod common;

use common::procs::{example, nexarrun_path};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

const LEADER_IP: &str = "10.213.7.1";
const JOINER_IP: &str = "10.213.7.2";

/// Why these tests cannot run here, if they cannot.
fn unavailable() -> Option<String> {
    // SAFETY: geteuid has no preconditions and no memory effects.
    if unsafe { libc::geteuid() } != 0 {
        return Some("not root (network namespaces need root)".into());
    }
    for (tool, arg) in [
        ("ip", "-V"),
        ("unshare", "--version"),
        ("hostname", "--version"),
    ] {
        let ok = Command::new(tool)
            .arg(arg)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            return Some(format!("`{tool}` is missing"));
        }
    }
    None
}

/// Runs a setup command; panics with its output when it fails.
fn sh(args: &[&str]) {
    let out = Command::new(args[0]).args(&args[1..]).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Two host namespaces on a bridge; deleted on drop.
struct Hosts {
    bridge: String,
    a: String,
    b: String,
}

static NEXT: AtomicU32 = AtomicU32::new(0);

impl Hosts {
    /// Creates the namespaces, or explains why it cannot (the caller skips).
    fn new() -> Result<Self, String> {
        if let Some(why) = unavailable() {
            return Err(why);
        }
        let id = format!(
            "{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let h = Hosts {
            bridge: format!("nxbr-{id}"),
            a: format!("nxha-{id}"),
            b: format!("nxhb-{id}"),
        };
        let made = Command::new("ip")
            .args(["netns", "add", &h.bridge])
            .output()
            .map_err(|e| e.to_string())?;
        if !made.status.success() {
            return Err(format!(
                "cannot create a network namespace: {}",
                String::from_utf8_lossy(&made.stderr).trim()
            ));
        }
        sh(&["ip", "netns", "add", &h.a]);
        sh(&["ip", "netns", "add", &h.b]);
        let br = h.bridge.as_str();
        sh(&["ip", "-n", br, "link", "add", "br0", "type", "bridge"]);
        sh(&["ip", "-n", br, "link", "set", "br0", "up"]);
        for (ns, ip, peer) in [(&h.a, LEADER_IP, "vha"), (&h.b, JOINER_IP, "vhb")] {
            sh(&[
                "ip", "-n", ns, "link", "add", "eth0", "type", "veth", "peer", "name", peer,
                "netns", br,
            ]);
            sh(&["ip", "-n", br, "link", "set", peer, "master", "br0"]);
            sh(&["ip", "-n", br, "link", "set", peer, "up"]);
            sh(&[
                "ip",
                "-n",
                ns,
                "addr",
                "add",
                &format!("{ip}/24"),
                "dev",
                "eth0",
            ]);
            sh(&["ip", "-n", ns, "link", "set", "eth0", "up"]);
            sh(&["ip", "-n", ns, "link", "set", "lo", "up"]);
        }
        Ok(h)
    }
}

impl Drop for Hosts {
    fn drop(&mut self) {
        for ns in [&self.a, &self.b, &self.bridge] {
            let _ = Command::new("ip")
                .args(["netns", "del", ns])
                .stderr(Stdio::null())
                .status();
        }
    }
}

/// A running nexarrun with its output in files; terminated (SIGTERM, then SIGKILL) on drop.
struct Run {
    child: Child,
    out: PathBuf,
    err: PathBuf,
    status: Option<ExitStatus>,
}

impl Run {
    /// Starts `nexarrun args...` in namespace `ns` (host name `host`), or on this host when
    /// `ns` is `None`. Output goes to `dir/<name>.out|.err`.
    fn start(dir: &Path, name: &str, ns: Option<(&str, &str)>, args: &[String]) -> Self {
        Self::start_with(dir, name, ns, args, &[])
    }

    /// [`Self::start`] with extra environment variables.
    fn start_with(
        dir: &Path,
        name: &str,
        ns: Option<(&str, &str)>,
        args: &[String],
        envs: &[(&str, &str)],
    ) -> Self {
        let out = dir.join(format!("{name}.out"));
        let err = dir.join(format!("{name}.err"));
        let mut cmd = match ns {
            Some((ns, host)) => {
                let mut c = Command::new("ip");
                c.args(["netns", "exec", ns, "unshare", "--uts", "sh", "-c"])
                    .arg(format!("hostname {host} && exec \"$0\" \"$@\""))
                    .arg(nexarrun_path())
                    .args(args);
                c
            }
            None => {
                let mut c = Command::new(nexarrun_path());
                c.args(args);
                c
            }
        };
        cmd.envs(envs.iter().copied())
            .env_remove("NEXAR_JOB_SECRET_FILE")
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(&out).unwrap())
            .stderr(std::fs::File::create(&err).unwrap());
        let child = cmd.spawn().expect("start nexarrun");
        Run {
            child,
            out,
            err,
            status: None,
        }
    }

    /// Waits at most `limit` for it to exit; panics (terminating it) past that.
    fn wait(&mut self, limit: Duration, what: &str) -> ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(st) = self.child.try_wait().unwrap() {
                self.status = Some(st);
                return st;
            }
            if start.elapsed() > limit {
                panic!(
                    "{what} did not finish within {limit:?}\nstdout:\n{}\nstderr:\n{}",
                    self.stdout(),
                    self.stderr()
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn stdout(&self) -> String {
        std::fs::read_to_string(&self.out).unwrap_or_default()
    }

    fn stderr(&self) -> String {
        std::fs::read_to_string(&self.err).unwrap_or_default()
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        if self.status.is_some() || matches!(self.child.try_wait(), Ok(Some(_))) {
            return;
        }
        let pid = self.child.id() as i32;
        // SAFETY: kill has no memory effects; pid is our own child, not yet reaped.
        unsafe { libc::kill(pid, libc::SIGTERM) };
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(3) {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

fn leader_args(secret: &Path, port: u16, prog_args: &[&str]) -> Vec<String> {
    let mut a = s(&["-n", "4", "--listen"]);
    a.push(format!("{LEADER_IP}:{port}"));
    a.extend(s(&["--local", "2", "--secret-file"]));
    a.push(secret.display().to_string());
    a.push(example("multihost_check").display().to_string());
    a.extend(s(prog_args));
    a
}

fn joiner_args(secret: &Path, port: u16, prog_args: &[&str]) -> Vec<String> {
    let mut a = s(&["--join"]);
    a.push(format!("{LEADER_IP}:{port}"));
    a.extend(s(&["--local", "2", "--secret-file"]));
    a.push(secret.display().to_string());
    a.push(example("multihost_check").display().to_string());
    a.extend(s(prog_args));
    a
}

/// Parses `MULTIHOST key=value ...` lines.
fn reports(out: &str) -> Vec<std::collections::HashMap<String, String>> {
    out.lines()
        .filter_map(|l| l.strip_prefix("MULTIHOST "))
        .map(|l| {
            l.split_whitespace()
                .filter_map(|kv| kv.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

macro_rules! hosts_or_skip {
    () => {
        match Hosts::new() {
            Ok(h) => h,
            Err(why) => {
                eprintln!("SKIPPED: multihost netns test: {why}");
                return;
            }
        }
    };
}

#[test]
fn two_hosts_use_shared_memory_within_and_quic_between() {
    let hosts = hosts_or_skip!();
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("job.secret");
    let start = Instant::now();
    let mut leader = Run::start(
        dir.path(),
        "leader",
        Some((&hosts.a, "hostA")),
        &leader_args(&secret, 7001, &[]),
    );
    // The leader creates the secret file; the joiner then reads it (as if copied over).
    let made = Instant::now();
    while !secret.exists() && made.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(10));
    }
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&secret).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "the leader's secret file has mode {mode:o}");
    let mut joiner = Run::start(
        dir.path(),
        "joiner",
        Some((&hosts.b, "hostB")),
        &joiner_args(&secret, 7001, &[]),
    );
    let js = joiner.wait(Duration::from_secs(60), "the joiner");
    let ls = leader.wait(Duration::from_secs(60), "the leader");
    let (lo, jo) = (leader.stdout(), joiner.stdout());
    eprintln!(
        "two-host job of 4 ranks done in {:?}\nleader:\n{lo}{}joiner:\n{jo}{}",
        start.elapsed(),
        leader.stderr(),
        joiner.stderr()
    );
    assert!(ls.success() && js.success(), "leader {ls}, joiner {js}");
    for (out, host, ranks) in [(&lo, "hostA", ["0", "1"]), (&jo, "hostB", ["2", "3"])] {
        let mut rs = reports(out);
        rs.sort_by(|x, y| x["rank"].cmp(&y["rank"]));
        assert_eq!(rs.len(), 2, "{host}: {out}");
        for (r, want) in rs.iter().zip(ranks) {
            assert_eq!(r["rank"], want);
            assert_eq!(r["size"], "4");
            assert_eq!(r["host"], host, "rank {want} runs on the wrong host");
            assert_eq!(r["transport"], "shm+quic", "rank {want}");
            let shm: u64 = r["shm_bytes"].parse().unwrap();
            let quic: u64 = r["quic_bytes"].parse().unwrap();
            let tls: u64 = r["tls_bytes"].parse().unwrap();
            assert!(shm > 0, "rank {want} sent nothing through shared memory");
            assert!(quic + tls > 0, "rank {want} sent nothing over the network");
            assert!(quic > 0, "rank {want} sent nothing over QUIC");
        }
    }
}

#[test]
fn a_stranger_without_the_secret_is_refused() {
    let hosts = hosts_or_skip!();
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("job.secret");
    let wrong = dir.path().join("wrong.secret");
    nexar::security::JobSecret::generate()
        .unwrap()
        .write_file(&wrong)
        .unwrap();
    let mut leader = Run::start(
        dir.path(),
        "leader",
        Some((&hosts.a, "hostA")),
        &leader_args(&secret, 7002, &[]),
    );
    let t0 = Instant::now();
    let mut stranger = Run::start(
        dir.path(),
        "stranger",
        Some((&hosts.b, "hostB")),
        &joiner_args(&wrong, 7002, &[]),
    );
    let st = stranger.wait(Duration::from_secs(30), "the stranger");
    eprintln!(
        "stranger refused after {:?}: {}",
        t0.elapsed(),
        stranger.stderr()
    );
    assert_eq!(st.code(), Some(1), "{}", stranger.stderr());
    assert!(
        stranger.stderr().contains("different job secret"),
        "{}",
        stranger.stderr()
    );
    assert!(
        reports(&stranger.stdout()).is_empty(),
        "a stranger's ranks ran"
    );
    // The leader is not disturbed: the real joiner still completes the job.
    let mut joiner = Run::start(
        dir.path(),
        "joiner",
        Some((&hosts.b, "hostB")),
        &joiner_args(&secret, 7002, &[]),
    );
    let js = joiner.wait(Duration::from_secs(60), "the joiner");
    let ls = leader.wait(Duration::from_secs(60), "the leader");
    assert!(
        ls.success() && js.success(),
        "leader {ls}: {}\njoiner {js}: {}",
        leader.stderr(),
        joiner.stderr()
    );
    assert!(
        leader.stderr().contains("refused a launcher"),
        "{}",
        leader.stderr()
    );
    assert_eq!(
        reports(&leader.stdout()).len() + reports(&joiner.stdout()).len(),
        4
    );
}

#[test]
fn a_rank_dying_on_the_other_host_ends_the_job_everywhere() {
    let hosts = hosts_or_skip!();
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("job.secret");
    let t0 = Instant::now();
    let mut leader = Run::start(
        dir.path(),
        "leader",
        Some((&hosts.a, "hostA")),
        &leader_args(&secret, 7003, &["die", "3"]),
    );
    while !secret.exists() && t0.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(10));
    }
    let mut joiner = Run::start(
        dir.path(),
        "joiner",
        Some((&hosts.b, "hostB")),
        &joiner_args(&secret, 7003, &["die", "3"]),
    );
    let ls = leader.wait(Duration::from_secs(40), "the leader");
    let js = joiner.wait(Duration::from_secs(40), "the joiner");
    let took = t0.elapsed();
    let (le, je) = (leader.stderr(), joiner.stderr());
    eprintln!(
        "rank 3 died on hostB; job over everywhere after {took:?}\nleader:\n{le}joiner:\n{je}"
    );
    // Rank 3 exited with 3; the sleeping ranks 0-2 were terminated by their launchers.
    assert_eq!(ls.code(), Some(3), "{le}");
    assert_eq!(js.code(), Some(3), "{je}");
    assert!(le.contains("rank 3 (on hostB) exited with code 3"), "{le}");
    let sleeping = leader.stdout() + &joiner.stdout();
    for r in 0..3 {
        assert!(
            sleeping.contains(&format!("SLEEPING rank={r} ")),
            "{sleeping}"
        );
    }
    assert!(!le.contains("still alive") && !je.contains("still alive"));
    assert!(took < Duration::from_secs(40));
}

/// Loopback only (no namespaces): a leader whose joiner never comes fails after the connect
/// timeout with a message naming the ranks without a host.
#[test]
fn a_missing_joiner_fails_the_leader_in_bounded_time() {
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("job.secret");
    let port = common::procs::free_udp_port();
    let t0 = Instant::now();
    let out = Command::new(nexarrun_path())
        .args([
            "-n",
            "3",
            "--listen",
            &format!("127.0.0.1:{port}"),
            "--local",
            "1",
        ])
        .arg("--secret-file")
        .arg(&secret)
        .arg(example("multihost_check"))
        .env("NEXAR_CONNECT_TIMEOUT_MS", "1500")
        .env_remove("NEXAR_JOB_SECRET_FILE")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let took = t0.elapsed();
    let err = String::from_utf8_lossy(&out.stderr);
    eprintln!("leader without joiner gave up after {took:?}: {err}");
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("ranks 1..=2 have no host"), "{err}");
    assert!(took < Duration::from_secs(20), "{took:?}");
}

/// Loopback only: a joiner whose leader vanishes (SIGKILL) terminates its ranks and exits.
#[test]
fn a_joiner_that_loses_its_leader_terminates_its_ranks() {
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("job.secret");
    let port = common::procs::free_udp_port();
    let prog = example("multihost_check").display().to_string();
    let secret_s = secret.display().to_string();
    let leader_addr = format!("127.0.0.1:{port}");
    // A short peer timeout: the joiner notices a silent leader within 1.5 s.
    let quick = [("NEXAR_PEER_TIMEOUT_MS", "1500")];
    let mut leader = Run::start_with(
        dir.path(),
        "leader",
        None,
        &s(&[
            "-n",
            "2",
            "--listen",
            &leader_addr,
            "--local",
            "1",
            "--secret-file",
            &secret_s,
            &prog,
            "die",
            "9",
        ]),
        &quick,
    );
    let t0 = Instant::now();
    while !secret.exists() && t0.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(10));
    }
    let mut joiner = {
        let mut args = s(&[
            "--join",
            &leader_addr,
            "--local",
            "1",
            "--secret-file",
            &secret_s,
        ]);
        args.extend(s(&[&prog, "die", "9"]));
        Run::start_with(dir.path(), "joiner", None, &args, &quick)
    };
    // Wait until both ranks sleep (the job is up), then kill the leader outright.
    let up = Instant::now();
    while !(leader.stdout().contains("SLEEPING") && joiner.stdout().contains("SLEEPING")) {
        assert!(
            up.elapsed() < Duration::from_secs(30),
            "the job did not come up: {}{}",
            leader.stderr(),
            joiner.stderr()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let killed = Instant::now();
    leader.child.kill().unwrap();
    leader.status = Some(leader.child.wait().unwrap());
    let js = joiner.wait(Duration::from_secs(30), "the joiner");
    let je = joiner.stderr();
    eprintln!(
        "joiner ended {:?} after its leader was killed: {je}",
        killed.elapsed()
    );
    assert!(je.contains("lost the leader"), "{je}");
    assert!(!js.success(), "{js}");
    // The leader's own rank is an orphan now (its launcher was SIGKILLed): end it by its pid.
    let orphan: i32 = leader
        .stdout()
        .split_whitespace()
        .find_map(|w| w.strip_prefix("pid="))
        .and_then(|p| p.parse().ok())
        .expect("the leader's rank printed its pid");
    // SAFETY: kill has no memory effects; the pid is the sleeping rank this test started.
    unsafe { libc::kill(orphan, libc::SIGKILL) };
    assert!(
        killed.elapsed() < Duration::from_secs(15),
        "{:?}",
        killed.elapsed()
    );
}

/// `-H`: the leader starts the joiner itself through `NEXAR_RSH` (here a script standing in
/// for ssh that runs the command line in host B's namespace).
#[test]
fn the_leader_starts_joiners_through_a_remote_shell() {
    let hosts = hosts_or_skip!();
    let dir = tempfile::tempdir().unwrap();
    let rsh = dir.path().join("fake_rsh");
    std::fs::write(
        &rsh,
        format!(
            "#!/bin/sh\n[ \"$1\" = {JOINER_IP} ] || {{ echo \"fake rsh: unknown host $1\" >&2; exit 255; }}\n\
             exec ip netns exec {} unshare --uts sh -c 'hostname hostB && exec sh -c \"$0\"' \"$2\"\n",
            hosts.b
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&rsh, std::fs::Permissions::from_mode(0o700)).unwrap();
    let secret = dir.path().join("job.secret");
    let t0 = Instant::now();
    let mut leader = Run::start_with(
        dir.path(),
        "leader",
        Some((&hosts.a, "hostA")),
        &s(&[
            "-H",
            &format!("{LEADER_IP}:2,{JOINER_IP}:2"),
            "--secret-file",
            &secret.display().to_string(),
            &example("multihost_check").display().to_string(),
        ]),
        &[("NEXAR_RSH", rsh.to_str().unwrap())],
    );
    let ls = leader.wait(Duration::from_secs(60), "the leader");
    let out = leader.stdout();
    eprintln!(
        "-H job done in {:?}:\n{out}{}",
        t0.elapsed(),
        leader.stderr()
    );
    assert!(ls.success(), "{ls}: {}", leader.stderr());
    // The joiner's output comes back through the remote shell.
    let mut seen: Vec<(String, String)> = reports(&out)
        .into_iter()
        .map(|r| (r["rank"].clone(), r["host"].clone()))
        .collect();
    seen.sort();
    let want: Vec<(String, String)> = [
        ("0", "hostA"),
        ("1", "hostA"),
        ("2", "hostB"),
        ("3", "hostB"),
    ]
    .iter()
    .map(|(r, h)| (r.to_string(), h.to_string()))
    .collect();
    assert_eq!(seen, want);
}

/// Loopback only: a remote shell that fails ends the job at once, naming the host.
#[test]
fn a_failing_remote_shell_ends_the_job_promptly() {
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("job.secret");
    let t0 = Instant::now();
    let out = Command::new(nexarrun_path())
        .args(["-H", "localhost:1,127.0.0.1:1", "--secret-file"])
        .arg(&secret)
        .arg(example("multihost_check"))
        .env("NEXAR_RSH", "false")
        .env_remove("NEXAR_JOB_SECRET_FILE")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let took = t0.elapsed();
    let err = String::from_utf8_lossy(&out.stderr);
    eprintln!("failing remote shell: job over after {took:?}: {err}");
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("the remote shell for 127.0.0.1 ended"),
        "{err}"
    );
    assert!(took < Duration::from_secs(20), "{took:?}");
}

/// Loopback only: a joiner asking for more ranks than remain is refused with a message; the
/// leader goes on and completes the job with a fitting joiner.
#[test]
fn a_joiner_asking_for_too_many_ranks_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("job.secret");
    let secret_s = secret.display().to_string();
    let addr = format!("127.0.0.1:{}", common::procs::free_udp_port());
    let prog = example("multihost_check").display().to_string();
    let mut leader = Run::start(
        dir.path(),
        "leader",
        None,
        &s(&[
            "-n",
            "2",
            "--listen",
            &addr,
            "--local",
            "1",
            "--secret-file",
            &secret_s,
            &prog,
        ]),
    );
    let t0 = Instant::now();
    while !secret.exists() && t0.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(10));
    }
    let join = |name: &str, k: &str| {
        Run::start(
            dir.path(),
            name,
            None,
            &s(&[
                "--join",
                &addr,
                "--local",
                k,
                "--secret-file",
                &secret_s,
                &prog,
            ]),
        )
    };
    let mut greedy = join("greedy", "3");
    let gs = greedy.wait(Duration::from_secs(30), "the greedy joiner");
    assert_eq!(gs.code(), Some(1), "{}", greedy.stderr());
    assert!(
        greedy
            .stderr()
            .contains("it asked for 3 ranks; 1 of the job's 2 ranks have no host"),
        "{}",
        greedy.stderr()
    );
    let mut fitting = join("fitting", "1");
    let fs = fitting.wait(Duration::from_secs(60), "the fitting joiner");
    let ls = leader.wait(Duration::from_secs(60), "the leader");
    assert!(
        fs.success() && ls.success(),
        "{}{}",
        fitting.stderr(),
        leader.stderr()
    );
    assert_eq!(
        reports(&leader.stdout()).len() + reports(&fitting.stdout()).len(),
        2
    );
}
