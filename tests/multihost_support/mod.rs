//! Helpers for the multi-host tests (tests/multihost_netns.rs, tests/multihost_loopback.rs):
//! two "hosts" made of network namespaces on a bridge, and `nexarrun` processes with their
//! output in files, waited for with deadlines and terminated on drop.

#![allow(dead_code)] // each test binary uses a part

use crate::common::procs::{example, nexarrun_path};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

pub const LEADER_IP: &str = "10.213.7.1";
pub const JOINER_IP: &str = "10.213.7.2";

/// Why these tests cannot run here, if they cannot.
pub fn unavailable() -> Option<String> {
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
pub struct Hosts {
    /// The bridge namespace.
    pub bridge: String,
    /// Host A's namespace (the leader, 10.213.7.1).
    pub a: String,
    /// Host B's namespace (a joiner, 10.213.7.2).
    pub b: String,
}

static NEXT: AtomicU32 = AtomicU32::new(0);

impl Hosts {
    /// Creates the namespaces, or explains why it cannot (the caller skips).
    pub fn new() -> Result<Self, String> {
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
pub struct Run {
    /// The nexarrun process.
    pub child: Child,
    out: PathBuf,
    err: PathBuf,
    /// Its exit status, once waited for.
    pub status: Option<ExitStatus>,
}

impl Run {
    /// Starts `nexarrun args...` in namespace `ns` (host name `host`), or on this host when
    /// `ns` is `None`. Output goes to `dir/<name>.out|.err`.
    pub fn start(dir: &Path, name: &str, ns: Option<(&str, &str)>, args: &[String]) -> Self {
        Self::start_with(dir, name, ns, args, &[])
    }

    /// [`Self::start`] with extra environment variables.
    pub fn start_with(
        dir: &Path,
        name: &str,
        ns: Option<(&str, &str)>,
        args: &[String],
        envs: &[(&str, &str)],
    ) -> Self {
        Self::start_prog(dir, name, ns, &nexarrun_path(), args, envs)
    }

    /// [`Self::start_with`] of launcher `prog` (nexarrun under another name: `mpiexec`).
    pub fn start_prog(
        dir: &Path,
        name: &str,
        ns: Option<(&str, &str)>,
        prog: &Path,
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
                    .arg(prog)
                    .args(args);
                c
            }
            None => {
                let mut c = Command::new(prog);
                c.args(args);
                c
            }
        };
        cmd.env_remove("NEXAR_JOB_SECRET_FILE")
            // These tests check the automatic transport choice (CI also runs with
            // NEXAR_TRANSPORT=quic) and the launchers' own bind addresses.
            .env_remove("NEXAR_TRANSPORT")
            .env_remove("NEXAR_BIND_ADDR")
            .env_remove("NEXAR_BULK_LANE")
            // The test's own settings win (after the removals).
            .envs(envs.iter().copied())
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
    pub fn wait(&mut self, limit: Duration, what: &str) -> ExitStatus {
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

    pub fn stdout(&self) -> String {
        std::fs::read_to_string(&self.out).unwrap_or_default()
    }

    pub fn stderr(&self) -> String {
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

/// A script standing in for ssh: it runs its command line (`$2`) in namespace `ns` under host
/// name `host`, for host `ip` only (any other host: exit 255, as ssh does).
pub fn fake_rsh(dir: &Path, ip: &str, ns: &str, host: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let rsh = dir.join("fake_rsh");
    std::fs::write(
        &rsh,
        format!(
            "#!/bin/sh\n[ \"$1\" = {ip} ] || {{ echo \"fake rsh: unknown host $1\" >&2; exit 255; }}\n\
             exec ip netns exec {ns} unshare --uts sh -c 'hostname {host} && exec sh -c \"$0\"' \"$2\"\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&rsh, std::fs::Permissions::from_mode(0o700)).unwrap();
    rsh
}

/// `mpiexec` and `mpirun` in `dir`: links to nexarrun.
pub fn mpiexec_in(dir: &Path) -> PathBuf {
    for name in ["mpiexec", "mpirun"] {
        std::os::unix::fs::symlink(nexarrun_path(), dir.join(name)).unwrap();
    }
    dir.join("mpiexec")
}

/// Waits (at most 10 s) until the leader has created the secret file at `path`.
pub fn wait_for_file(path: &Path) {
    let t0 = Instant::now();
    while !path.exists() && t0.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Owned strings.
pub fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

/// Arguments of the leader of a 2+2 job of `multihost_check` in host A.
pub fn leader_args(secret: &Path, port: u16, prog_args: &[&str]) -> Vec<String> {
    let mut a = s(&["-n", "4", "--listen"]);
    a.push(format!("{LEADER_IP}:{port}"));
    a.extend(s(&["--local", "2", "--secret-file"]));
    a.push(secret.display().to_string());
    a.push(example("multihost_check").display().to_string());
    a.extend(s(prog_args));
    a
}

/// Arguments of the joiner of that job.
pub fn joiner_args(secret: &Path, port: u16, prog_args: &[&str]) -> Vec<String> {
    let mut a = s(&["--join"]);
    a.push(format!("{LEADER_IP}:{port}"));
    a.extend(s(&["--local", "2", "--secret-file"]));
    a.push(secret.display().to_string());
    a.push(example("multihost_check").display().to_string());
    a.extend(s(prog_args));
    a
}

/// Parses `MULTIHOST key=value ...` lines.
pub fn reports(out: &str) -> Vec<std::collections::HashMap<String, String>> {
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

/// The namespaces, or `SKIPPED: reason` and return.
#[macro_export]
macro_rules! hosts_or_skip {
    () => {
        match $crate::multihost_support::Hosts::new() {
            Ok(h) => h,
            Err(why) => {
                eprintln!("SKIPPED: multihost netns test: {why}");
                return;
            }
        }
    };
}

/// Host-name files for namespaces: `ip netns exec NS` bind-mounts `/etc/netns/NS/hosts` over
/// `/etc/hosts`, so names resolve inside the "hosts" as on a cluster. Removed on drop.
pub struct NameFiles {
    dirs: Vec<PathBuf>,
}

impl NameFiles {
    /// Writes `names` (name, address) plus localhost as the hosts file of each namespace.
    pub fn new(namespaces: &[&str], names: &[(&str, &str)]) -> Self {
        let mut text = String::from("127.0.0.1 localhost\n::1 localhost\n");
        for (name, ip) in names {
            text.push_str(&format!("{ip} {name}\n"));
        }
        let dirs: Vec<PathBuf> = namespaces
            .iter()
            .map(|ns| PathBuf::from("/etc/netns").join(ns))
            .collect();
        for d in &dirs {
            std::fs::create_dir_all(d).unwrap();
            std::fs::write(d.join("hosts"), &text).unwrap();
        }
        NameFiles { dirs }
    }
}

impl Drop for NameFiles {
    fn drop(&mut self) {
        for d in &self.dirs {
            let _ = std::fs::remove_dir_all(d);
        }
    }
}

/// A process with its output in files; killed on drop unless it exited.
pub struct Proc {
    /// The process.
    pub child: Child,
    out: PathBuf,
    err: PathBuf,
    /// Its exit status, once waited for.
    pub status: Option<ExitStatus>,
    /// It leads its own process group, killed whole on drop.
    group: bool,
}

impl Proc {
    /// Starts `cmd` as the leader of a new process group (killed as a group on drop), with
    /// output in `dir/<name>.out|.err`: for process managers whose children outlive them.
    pub fn spawn_group(mut cmd: Command, dir: &Path, name: &str) -> Self {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
        let mut p = Self::spawn(cmd, dir, name);
        p.group = true;
        p
    }

    /// Starts `cmd` with output in `dir/<name>.out|.err`.
    pub fn spawn(mut cmd: Command, dir: &Path, name: &str) -> Self {
        let out = dir.join(format!("{name}.out"));
        let err = dir.join(format!("{name}.err"));
        cmd.stdin(Stdio::null())
            .stdout(std::fs::File::create(&out).unwrap())
            .stderr(std::fs::File::create(&err).unwrap());
        let child = cmd.spawn().unwrap_or_else(|e| panic!("start {name}: {e}"));
        Proc {
            child,
            out,
            err,
            status: None,
            group: false,
        }
    }

    /// Waits until `deadline`; `None` when it is still running then.
    pub fn wait_until(&mut self, deadline: Instant) -> Option<ExitStatus> {
        loop {
            if let Some(st) = self.child.try_wait().unwrap() {
                self.status = Some(st);
                return Some(st);
            }
            if Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn stdout(&self) -> String {
        std::fs::read_to_string(&self.out).unwrap_or_default()
    }

    pub fn stderr(&self) -> String {
        std::fs::read_to_string(&self.err).unwrap_or_default()
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        if self.group {
            // SAFETY: kill has no memory effects; the group is the one this child leads.
            unsafe { libc::kill(-(self.child.id() as i32), libc::SIGKILL) };
        }
        if self.status.is_none() && !matches!(self.child.try_wait(), Ok(Some(_))) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
