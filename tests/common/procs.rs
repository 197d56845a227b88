//! Helpers for tests that start real rank processes: the launcher and example binaries built
//! by `cargo test`, and launching ranks by hand (the environment contract, no launcher).

use nexar::security::JobSecret;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The `nexarrun` launcher of this build, or `NEXAR_TEST_NEXARRUN` when set (test binaries
/// carried to another machine, where the build's absolute path does not exist:
/// `scripts/gpu_check.sh`).
pub fn nexarrun_path() -> PathBuf {
    match std::env::var_os("NEXAR_TEST_NEXARRUN") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_BIN_EXE_nexarrun")),
    }
}

/// An example binary built by `cargo test` next to this test's profile directory.
pub fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let dir = exe
        .parent()
        .and_then(|d| d.parent())
        .expect("target/<profile>");
    let p = dir.join("examples").join(name);
    assert!(p.exists(), "{} is not built", p.display());
    p
}

/// A UDP port on 127.0.0.1 that was free a moment ago.
pub fn free_udp_port() -> u16 {
    std::net::UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Ranks started by hand, and their job's id (the name prefix of its shared-memory inboxes).
pub struct HandLaunch {
    /// One child per rank, in rank order.
    pub children: Vec<Child>,
    /// The job id derived from the secret.
    pub job_id: String,
}

/// Starts `n` ranks of `prog` by hand (no launcher watches them): rank 0 hosts the rendezvous,
/// the job secret is in a file under `dir`, output is piped. `configure` adds arguments and
/// environment to each rank's command.
pub fn launch_by_hand(
    prog: &Path,
    n: u32,
    dir: &Path,
    configure: impl Fn(&mut Command),
) -> HandLaunch {
    let secret_path = dir.join("secret");
    let secret = JobSecret::generate().unwrap();
    secret.write_file(&secret_path).unwrap();
    let rdv = format!("127.0.0.1:{}", free_udp_port());
    let children = (0..n)
        .map(|r| {
            let mut cmd = Command::new(prog);
            cmd.env("NEXAR_RANK", r.to_string())
                .env("NEXAR_SIZE", n.to_string())
                .env("NEXAR_RENDEZVOUS", &rdv)
                .env("NEXAR_JOB_SECRET_FILE", &secret_path)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            configure(&mut cmd);
            if r == 0 {
                cmd.env("NEXAR_RENDEZVOUS_HOST", "1");
            }
            cmd.spawn().unwrap()
        })
        .collect();
    HandLaunch {
        children,
        job_id: secret.job_id(),
    }
}

/// Waits for every child and returns their outputs in order.
pub fn wait_all(children: Vec<Child>) -> Vec<std::process::Output> {
    children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect()
}

/// Waits for `child` until `deadline`; `None` if it is still running then (it is left running).
pub fn wait_until(child: &mut Child, deadline: Instant) -> Option<ExitStatus> {
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        if Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Child processes killed (and reaped) when dropped: a failed assertion never leaves ranks
/// running.
pub struct Reaper(pub Vec<Child>);

impl Drop for Reaper {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// A child's piped output, read on a thread from the start so a chatty child never blocks on
/// a full pipe while the test polls it.
struct Drain {
    buf: Arc<Mutex<Vec<u8>>>,
    thread: Option<JoinHandle<()>>,
}

impl Drain {
    fn new(pipe: Option<impl Read + Send + 'static>) -> Self {
        let buf = Arc::new(Mutex::new(Vec::new()));
        let thread = pipe.map(|mut p| {
            let buf = buf.clone();
            std::thread::spawn(move || {
                let mut chunk = [0u8; 8192];
                while let Ok(n) = p.read(&mut chunk) {
                    if n == 0 {
                        break;
                    }
                    buf.lock().unwrap().extend_from_slice(&chunk[..n]);
                }
            })
        });
        Self { buf, thread }
    }

    /// What was read once the pipe closed, or by `deadline` (a grandchild may hold it open).
    fn take(mut self, deadline: Instant) -> Vec<u8> {
        if let Some(t) = self.thread.take() {
            while !t.is_finished() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(5));
            }
            if t.is_finished() {
                let _ = t.join();
            }
        }
        std::mem::take(&mut *self.buf.lock().unwrap())
    }
}

/// Longest the output of an exited child may take to arrive.
const DRAIN_GRACE: Duration = Duration::from_secs(5);

impl Reaper {
    /// Waits for every child until `limit`, then returns their outputs in order (the pipes
    /// that were set up; others are empty). Past the limit, kills them all and panics with
    /// whatever they wrote.
    pub fn wait(mut self, limit: Duration) -> Vec<Output> {
        let deadline = Instant::now() + limit;
        let drains: Vec<(Drain, Drain)> = self
            .0
            .iter_mut()
            .map(|c| (Drain::new(c.stdout.take()), Drain::new(c.stderr.take())))
            .collect();
        let mut status: Vec<Option<ExitStatus>> = vec![None; self.0.len()];
        while status.iter().any(Option::is_none) {
            for (c, s) in self.0.iter_mut().zip(status.iter_mut()) {
                if s.is_none() {
                    *s = c.try_wait().unwrap();
                }
            }
            if status.iter().any(Option::is_none) && Instant::now() >= deadline {
                let stacks: String = self
                    .0
                    .iter()
                    .zip(&status)
                    .filter(|(_, s)| s.is_none())
                    .map(|(c, _)| stack_of(c.id()))
                    .collect();
                for c in &mut self.0 {
                    let _ = c.kill();
                    let _ = c.wait();
                }
                let grace = Instant::now() + DRAIN_GRACE;
                let mut outs = String::new();
                for (o, e) in drains {
                    outs.push_str(&String::from_utf8_lossy(&o.take(grace)));
                    outs.push_str(&String::from_utf8_lossy(&e.take(grace)));
                }
                panic!("ranks still running after {limit:?}; output:\n{outs}{stacks}");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        // Every child exited: nothing left to kill.
        self.0.clear();
        let grace = Instant::now() + DRAIN_GRACE;
        status
            .into_iter()
            .zip(drains)
            .map(|(s, (o, e))| Output {
                status: s.expect("every child exited"),
                stdout: o.take(grace),
                stderr: e.take(grace),
            })
            .collect()
    }
}

/// Where the threads of hung process `pid` wait, for the report of a hang: the frames of
/// nexar's own code per thread, when `gdb` is installed (else a line saying it is not).
fn stack_of(pid: u32) -> String {
    let out = Command::new("timeout")
        .args(["30", "gdb", "-batch", "-nx", "-p", &pid.to_string()])
        .args(["-ex", "thread apply all bt 40"])
        .stdin(Stdio::null())
        .output();
    let Some(out) = out.ok().filter(|o| o.status.success()) else {
        return format!("\n(pid {pid}: no stacks; gdb is not installed or could not attach)\n");
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let frames: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("Thread ") || (l.starts_with('#') && l.contains("nexar")))
        .collect();
    format!("\n--- stacks of pid {pid}:\n{}\n", frames.join("\n"))
}

/// Waits for every child (in order) until `limit` and returns their outputs; past the limit
/// kills them all and panics with their output (see [`Reaper::wait`]).
pub fn wait_all_within(children: Vec<Child>, limit: Duration) -> Vec<Output> {
    Reaper(children).wait(limit)
}

/// The text of a child's stdout.
pub fn stdout_text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The text of a child's stderr.
pub fn stderr_text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs `n` ranks of the example `prog` under nexarrun (its own 240 s timeout ends a hung job)
/// with `NEXAR_TRANSPORT=transport`, the variables `unset` removed (so the caller's environment
/// cannot change what the test means) and `env` added; returns the launcher's output.
pub fn nexarrun_output(
    n: u32,
    prog: &str,
    transport: &str,
    unset: &[&str],
    env: &[(&str, &str)],
) -> Output {
    let mut cmd = Command::new(nexarrun_path());
    cmd.args(["-n", &n.to_string(), "--timeout", "240", "--"])
        .arg(example(prog))
        .env("NEXAR_TRANSPORT", transport);
    for k in unset {
        cmd.env_remove(k);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("nexarrun starts")
}

/// Asserts the job succeeded and returns, for each of its `n` ranks, the first line of its
/// stdout that reports `rank r/n: ` and contains `needle`.
pub fn rank_lines(n: u32, out: &Output, needle: &str) -> Vec<String> {
    let stdout = succeeded(out, format_args!("n={n}"));
    let stderr = stderr_text(out);
    (0..n)
        .map(|r| {
            let tag = format!("rank {r}/{n}: ");
            stdout
                .lines()
                .find(|l| l.contains(&tag) && l.contains(needle))
                .unwrap_or_else(|| panic!("rank {r} did not report {needle:?}\n{stdout}\n{stderr}"))
                .to_string()
        })
        .collect()
}

/// Asserts that the process behind `out` exited successfully (the message names `what` and
/// shows both outputs) and returns its stdout.
pub fn succeeded(out: &Output, what: impl std::fmt::Display) -> String {
    let stdout = stdout_text(out);
    assert!(
        out.status.success(),
        "{what}: exit {:?}\nstdout:\n{stdout}\nstderr:\n{}",
        out.status,
        stderr_text(out)
    );
    stdout
}
