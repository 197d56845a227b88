//! The launch core shared by `nexarrun` and its `mpiexec` / `mpirun` front end: starts a
//! [`Plan`]'s ranks on this host, hosts their rendezvous, forwards their output and exit codes.
//!
//! Each rank gets `NEXAR_RANK`, `NEXAR_SIZE`, `NEXAR_LOCAL_RANK`, `NEXAR_RENDEZVOUS`,
//! `NEXAR_APPNUM` (its MPMD application context) and `NEXAR_UNIVERSE_SIZE` in its environment,
//! and the job secret through an inherited pipe named by `NEXAR_SECRET_FD` (never on a command
//! line, never in the environment). Each rank runs in its own process group, so terminating a
//! rank terminates what it started too.
//!
//! When a rank fails (exits non-zero or is killed), every other rank is told at once over its
//! rendezvous connection (its pending operations fail with `ProcFailed` within milliseconds).
//! Ranks that declared they return errors (the Rust and C APIs by default, MPI programs that
//! set a non-fatal error handler) keep running and may recover; the others are terminated
//! (SIGTERM, then SIGKILL after a second), as `mpiexec` does.
//!
//! Exit code: 0 when every rank exits 0; otherwise the code of the first rank that failed
//! (128 + signal when killed by a signal), whether the others were terminated or left running
//! (and whatever they exit with later); 124 when the timeout expired; 127 (126) when a program cannot be found
//! (run); 130 / 143 when the launcher itself was interrupted / terminated; 2 for a bad plan
//! (a working directory that does not exist).

use nexar::Config;
use nexar::bootstrap::rendezvous::{ControlHub, RendezvousServer};
use nexar::security::JobSecret;
use std::ffi::OsString;
use std::io::Write;
use std::net::SocketAddr;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};
use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::mpsc;

/// Grace period between SIGTERM and SIGKILL.
const KILL_GRACE: Duration = Duration::from_secs(1);

/// One application context: `count` ranks of one program (MPMD launches have several).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AppContext {
    /// How many ranks run this program.
    pub count: u32,
    /// The program (a path, or a name looked up in `PATH`).
    pub program: OsString,
    /// Its arguments.
    pub args: Vec<OsString>,
    /// Variables set for these ranks on top of the launcher's environment, in order (a later
    /// setting of the same variable wins).
    pub env: Vec<(OsString, OsString)>,
    /// Working directory of these ranks (default: the launcher's).
    pub wdir: Option<PathBuf>,
}

/// Everything one launch needs.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The application contexts; ranks are numbered consecutively across them.
    pub contexts: Vec<AppContext>,
    /// Prefix every output line with its rank, as `[R] `.
    pub tag_output: bool,
    /// Kill the whole job after this many seconds (exit code 124).
    pub timeout: Option<f64>,
}

impl Plan {
    /// Total number of ranks.
    pub fn size(&self) -> u64 {
        self.contexts.iter().map(|c| u64::from(c.count)).sum()
    }

    /// The flat rank list: for rank r, the index of its application context.
    pub fn rank_contexts(&self) -> Vec<u32> {
        let mut out = Vec::new();
        for (i, c) in self.contexts.iter().enumerate() {
            out.extend(std::iter::repeat_n(i as u32, c.count as usize));
        }
        out
    }
}

/// A started rank.
struct Rank {
    rank: u32,
    /// Its pid, which is also its process group id.
    pid: i32,
    alive: bool,
}

impl Rank {
    fn copy(&self) -> Self {
        Self { ..*self }
    }
}

/// Runs a plan to completion; `me` names the launcher in messages. Returns the exit code.
pub async fn run(me: &str, plan: &Plan) -> i32 {
    let size = plan.size();
    if size == 0 || plan.contexts.iter().any(|c| c.count == 0) {
        eprintln!("{me}: every program needs at least 1 rank");
        return 2;
    }
    let Ok(n) = u32::try_from(size) else {
        eprintln!("{me}: {size} ranks are too many");
        return 2;
    };
    if let Some(t) = plan.timeout
        && !(t > 0.0 && t.is_finite())
    {
        eprintln!("{me}: --timeout must be a positive number of seconds");
        return 2;
    }
    for dir in plan.contexts.iter().filter_map(|c| c.wdir.as_ref()) {
        if !dir.is_dir() {
            eprintln!(
                "{me}: working directory '{}' is not a directory",
                dir.display()
            );
            return 2;
        }
    }
    let rank_ctx = plan.rank_contexts();
    let cfg = match Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{me}: {e}");
            return 2;
        }
    };
    let secret = match JobSecret::generate() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{me}: {e}");
            return 1;
        }
    };
    let server = match RendezvousServer::start(&secret, SocketAddr::new(cfg.bind_addr, 0), n, &cfg)
    {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{me}: cannot start the rendezvous: {e}");
            return 1;
        }
    };
    let mut rdv = server.local_addr();
    if rdv.ip().is_unspecified() {
        // Bound to every interface (NEXAR_BIND_ADDR=0.0.0.0): local ranks use loopback.
        rdv.set_ip(if rdv.is_ipv4() {
            std::net::Ipv4Addr::LOCALHOST.into()
        } else {
            std::net::Ipv6Addr::LOCALHOST.into()
        });
    }

    let (done_tx, mut done_rx) = mpsc::unbounded_channel::<(u32, std::io::Result<ExitStatus>)>();
    let mut ranks: Vec<Rank> = Vec::with_capacity(n as usize);
    let mut forwarders = Vec::new();
    for rank in 0..n {
        let appnum = rank_ctx[rank as usize];
        let ctx = &plan.contexts[appnum as usize];
        let who = RankId {
            rank,
            size: n,
            appnum,
        };
        match spawn_rank(ctx, who, plan.tag_output, rdv, &secret) {
            Ok(mut child) => {
                let pid = child.id().map_or(-1, |p| p as i32);
                if plan.tag_output {
                    forwarders.extend(forward(child.stdout.take(), rank, false));
                    forwarders.extend(forward(child.stderr.take(), rank, true));
                }
                let tx = done_tx.clone();
                tokio::spawn(async move {
                    let st = child.wait().await;
                    let _ = tx.send((rank, st));
                });
                ranks.push(Rank {
                    rank,
                    pid,
                    alive: true,
                });
            }
            Err(e) => {
                let prog = ctx.program.to_string_lossy();
                eprintln!("{me}: cannot start '{prog}': {e}");
                terminate(&ranks, libc::SIGKILL);
                while ranks.iter().any(|r| r.alive) {
                    match done_rx.recv().await {
                        Some((r, _)) => ranks[r as usize].alive = false,
                        None => break,
                    }
                }
                return if e.kind() == std::io::ErrorKind::PermissionDenied {
                    126
                } else {
                    127
                };
            }
        }
    }
    drop(done_tx);
    // Dropping `secret` here wipes nexarrun's copy; the rendezvous keeps what it derived.
    let job_id = secret.job_id();
    drop(secret);
    let me_task = me.to_string();
    let hub = server.control();
    tokio::spawn(async move {
        if let Err(e) = server.wait().await {
            eprintln!("{me_task}: rendezvous failed: {e}");
        }
        // Keep the rendezvous (and the ranks' connections to it) open for the whole job.
        std::future::pending::<()>().await;
    });
    let code = supervise(me, plan.timeout, ranks, done_rx, hub).await;
    // Shared-memory inboxes are unlinked by the ranks once mapped; a rank killed early may
    // leave its name behind.
    nexar::transport::shm::segment::remove_job_inboxes(&job_id, n);
    // Let the forwarders write what the ranks printed last (bounded: a stray grandchild may
    // hold a pipe open).
    let _ = tokio::time::timeout(Duration::from_secs(2), async {
        for f in forwarders {
            let _ = f.await;
        }
    })
    .await;
    code
}

/// Waits for the ranks. When one fails, every other rank is told at once (the rendezvous
/// control channel); those that declared they return errors keep running, the others are
/// terminated. A timeout or a signal terminates the whole job.
async fn supervise(
    me: &str,
    timeout: Option<f64>,
    mut ranks: Vec<Rank>,
    mut done_rx: mpsc::UnboundedReceiver<(u32, std::io::Result<ExitStatus>)>,
    hub: ControlHub,
) -> i32 {
    let mut sigint = signal(SignalKind::interrupt()).ok();
    let mut sigterm = signal(SignalKind::terminate()).ok();
    let far = Duration::from_secs(100 * 365 * 24 * 3600);
    let job_deadline = tokio::time::sleep(timeout.map_or(far, Duration::from_secs_f64));
    tokio::pin!(job_deadline);
    let kill_at = tokio::time::sleep(far);
    tokio::pin!(kill_at);
    let mut result: Option<i32> = None;
    // The whole job is being terminated (no more per-rank decisions).
    let mut terminating = false;
    let mut term = Terminator {
        doomed: vec![false; ranks.len()],
        armed: false,
    };
    let everyone: Vec<u32> = (0..ranks.len() as u32).collect();

    while ranks.iter().any(|r| r.alive) {
        tokio::select! {
            msg = done_rx.recv() => {
                let Some((rank, status)) = msg else { break };
                ranks[rank as usize].alive = false;
                let (code, how) = match status {
                    Ok(st) => describe(st),
                    Err(e) => (1, format!("could not be waited for: {e}")),
                };
                if code == 0 {
                    continue;
                }
                result.get_or_insert(code);
                if terminating || term.doomed[rank as usize] {
                    continue;
                }
                hub.notify_failed(rank, &how);
                let live: Vec<u32> = ranks
                    .iter()
                    .filter(|r| r.alive && !term.doomed[r.rank as usize])
                    .map(|r| r.rank)
                    .collect();
                let (keep, end): (Vec<u32>, Vec<u32>) =
                    live.into_iter().partition(|&r| hub.returns_errors(r));
                if keep.is_empty() {
                    eprintln!("{me}: rank {rank} {how}; terminating the job");
                    terminating = true;
                } else if end.is_empty() {
                    eprintln!("{me}: rank {rank} {how}; ranks {keep:?} return errors and keep running");
                } else {
                    eprintln!(
                        "{me}: rank {rank} {how}; ranks {keep:?} return errors and keep running, terminating ranks {end:?}"
                    );
                }
                term.doom(&ranks, &end, &mut kill_at);
            }
            _ = &mut job_deadline, if !terminating => {
                eprintln!(
                    "{me}: the job timed out after {} s; terminating it",
                    timeout.unwrap_or_default()
                );
                result.get_or_insert(124);
                terminating = true;
                term.doom(&ranks, &everyone, &mut kill_at);
            }
            _ = &mut kill_at => {
                let late: Vec<Rank> = ranks
                    .iter()
                    .filter(|r| term.doomed[r.rank as usize])
                    .map(Rank::copy)
                    .collect();
                terminate(&late, libc::SIGKILL);
                kill_at.as_mut().reset(tokio::time::Instant::now() + far);
                term.armed = false;
            }
            Some(()) = recv_signal(&mut sigint) => {
                result.get_or_insert(130);
                terminating = true;
                term.doom(&ranks, &everyone, &mut kill_at);
            }
            Some(()) = recv_signal(&mut sigterm) => {
                result.get_or_insert(143);
                terminating = true;
                term.doom(&ranks, &everyone, &mut kill_at);
            }
        }
    }
    // Whatever the terminated ranks started dies with them (every rank's, when the whole job
    // was terminated).
    let groups: Vec<Rank> = ranks
        .iter()
        .filter(|r| terminating || term.doomed[r.rank as usize])
        .map(|r| Rank {
            alive: true,
            ..r.copy()
        })
        .collect();
    terminate(&groups, libc::SIGKILL);
    result.unwrap_or(0)
}

/// Which ranks are being terminated, and whether their SIGKILL is scheduled.
struct Terminator {
    /// Ranks sent SIGTERM; SIGKILL follows after [`KILL_GRACE`].
    doomed: Vec<bool>,
    armed: bool,
}

impl Terminator {
    /// Sends SIGTERM to the live ranks of `which` not already doomed and schedules SIGKILL.
    fn doom(
        &mut self,
        ranks: &[Rank],
        which: &[u32],
        kill_at: &mut std::pin::Pin<&mut tokio::time::Sleep>,
    ) {
        let fresh: Vec<Rank> = which
            .iter()
            .filter(|&&r| !self.doomed[r as usize] && ranks[r as usize].alive)
            .map(|&r| ranks[r as usize].copy())
            .collect();
        for r in &fresh {
            self.doomed[r.rank as usize] = true;
        }
        terminate(&fresh, libc::SIGTERM);
        if !fresh.is_empty() && !self.armed {
            self.armed = true;
            kill_at
                .as_mut()
                .reset(tokio::time::Instant::now() + KILL_GRACE);
        }
    }
}

async fn recv_signal(s: &mut Option<tokio::signal::unix::Signal>) -> Option<()> {
    match s {
        Some(s) => s.recv().await,
        None => std::future::pending().await,
    }
}

/// The job exit code for a rank's status, and a description.
fn describe(st: ExitStatus) -> (i32, String) {
    match (st.code(), st.signal()) {
        (Some(c), _) => (c, format!("exited with code {c}")),
        (None, Some(sig)) => (128 + sig, format!("was killed by signal {sig}")),
        (None, None) => (1, "ended in an unknown way".to_string()),
    }
}

/// Sends `sig` to the process group of every live rank.
fn terminate(ranks: &[Rank], sig: libc::c_int) {
    for r in ranks.iter().filter(|r| r.alive && r.pid > 0) {
        // SAFETY: kill has no memory effects; a negative pid names the rank's process group.
        unsafe { libc::kill(-r.pid, sig) };
    }
}

/// A pipe whose ends are both close-on-exec, the read end numbered 3 or higher.
fn secret_pipe() -> std::io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as RawFd; 2];
    // SAFETY: fds is a valid array of two descriptors for pipe2 to fill.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: pipe2 succeeded, so both descriptors are open and owned by nobody else.
    let (r, w) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    // Never 0-2: the child's standard streams are set up over those numbers.
    // SAFETY: F_DUPFD_CLOEXEC duplicates an open descriptor; no memory effects.
    let high = unsafe { libc::fcntl(r.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 3) };
    if high < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: fcntl returned a new open descriptor that we now own.
    Ok((unsafe { OwnedFd::from_raw_fd(high) }, w))
}

/// Where a rank stands in the job.
#[derive(Clone, Copy)]
struct RankId {
    rank: u32,
    size: u32,
    appnum: u32,
}

fn spawn_rank(
    ctx: &AppContext,
    who: RankId,
    tag_output: bool,
    rdv: SocketAddr,
    secret: &JobSecret,
) -> std::io::Result<tokio::process::Child> {
    let (read_end, write_end) = secret_pipe()?;
    {
        let mut w = std::fs::File::from(write_end);
        w.write_all(secret.expose())?;
        // Dropping the file closes the write end: the rank reads 32 bytes, then EOF.
    }
    let fd = read_end.as_raw_fd();
    let RankId { rank, size, appnum } = who;
    let mut cmd = tokio::process::Command::new(&ctx.program);
    cmd.args(&ctx.args);
    // The plan's variables first: the launch contract below always wins.
    for (k, v) in &ctx.env {
        cmd.env(k, v);
    }
    if let Some(dir) = &ctx.wdir {
        cmd.current_dir(dir);
    }
    cmd.env("NEXAR_RANK", rank.to_string())
        .env("NEXAR_SIZE", size.to_string())
        .env("NEXAR_LOCAL_RANK", rank.to_string())
        .env("NEXAR_APPNUM", appnum.to_string())
        .env("NEXAR_UNIVERSE_SIZE", size.to_string())
        .env("NEXAR_RENDEZVOUS", rdv.to_string())
        .env("NEXAR_SECRET_FD", fd.to_string())
        .env_remove("NEXAR_JOB_SECRET_FILE")
        .env_remove("NEXAR_RENDEZVOUS_HOST")
        .process_group(0)
        .kill_on_drop(true);
    // Rank 0 reads nexarrun's input when it is a file or a pipe; a terminal stays with
    // nexarrun (a rank in its own process group reading it would be stopped).
    // SAFETY: isatty only queries descriptor 0.
    let stdin_is_tty = unsafe { libc::isatty(0) } == 1;
    if rank == 0 && !stdin_is_tty {
        cmd.stdin(Stdio::inherit());
    } else {
        cmd.stdin(Stdio::null());
    }
    if tag_output {
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    } else {
        cmd.stdout(Stdio::inherit()).stderr(Stdio::inherit());
    }
    // SAFETY: the closure runs in the forked child before exec and only calls fcntl, which is
    // async-signal-safe. It makes this rank's secret pipe (and only it) survive exec.
    unsafe {
        cmd.pre_exec(move || {
            if libc::fcntl(fd, libc::F_SETFD, 0) == -1 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let child = cmd.spawn();
    drop(read_end);
    child
}

/// Copies a rank's output to ours line by line, each line prefixed with `[rank] `.
fn forward(
    stream: Option<impl AsyncRead + Unpin + Send + 'static>,
    rank: u32,
    to_stderr: bool,
) -> Option<tokio::task::JoinHandle<()>> {
    let stream = stream?;
    Some(tokio::spawn(async move {
        let mut reader = BufReader::new(stream);
        let mut line = Vec::with_capacity(256);
        let prefix = format!("[{rank}] ");
        loop {
            line.clear();
            match reader.read_until(b'\n', &mut line).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {
                    if line.last() != Some(&b'\n') {
                        line.push(b'\n');
                    }
                    let res = if to_stderr {
                        let mut e = std::io::stderr().lock();
                        e.write_all(prefix.as_bytes())
                            .and_then(|_| e.write_all(&line))
                    } else {
                        let mut o = std::io::stdout().lock();
                        o.write_all(prefix.as_bytes())
                            .and_then(|_| o.write_all(&line))
                            .and_then(|_| o.flush())
                    };
                    if res.is_err() {
                        return;
                    }
                }
            }
        }
    }))
}
