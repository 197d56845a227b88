//! Starting one rank process: its launch environment, its secret pipe, its output forwarding.

use crate::launch::{AppContext, Event, Plan, Rank, describe};
use nexar::security::JobSecret;
use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::process::Stdio;
use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};
use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinHandle;

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
    /// World rank.
    pub rank: u32,
    /// World size.
    pub size: u32,
    /// Rank among the ranks of this host.
    pub local_rank: u32,
    /// Its application context (MPMD).
    pub appnum: u32,
}

/// How the ranks of this launcher reach the job.
#[derive(Clone, Copy)]
pub struct Reach {
    /// The rendezvous address.
    pub rendezvous: SocketAddr,
    /// `NEXAR_BIND_ADDR` for the ranks (multi-host jobs: the address other hosts reach this
    /// one at); `None` leaves the launcher's environment as it is.
    pub bind: Option<IpAddr>,
}

/// Starts one rank of `ctx` with the launch contract in its environment and the job secret on
/// an inherited pipe, pinned to `cpu` when given (see [`crate::binding`]).
fn spawn_rank(
    ctx: &AppContext,
    who: RankId,
    tag_output: bool,
    reach: Reach,
    secret: &JobSecret,
    cpu: Option<usize>,
) -> std::io::Result<tokio::process::Child> {
    let rdv = reach.rendezvous;
    let (read_end, write_end) = secret_pipe()?;
    {
        let mut w = std::fs::File::from(write_end);
        w.write_all(secret.expose())?;
        // Dropping the file closes the write end: the rank reads 32 bytes, then EOF.
    }
    let fd = read_end.as_raw_fd();
    let RankId {
        rank,
        size,
        local_rank,
        appnum,
    } = who;
    let mut cmd = tokio::process::Command::new(&ctx.program);
    cmd.args(&ctx.args);
    // The plan's variables first: the launch contract below always wins.
    for (k, v) in &ctx.env {
        cmd.env(k, v);
    }
    if let Some(dir) = &ctx.wdir {
        cmd.current_dir(dir);
    }
    if let Some(ip) = reach.bind {
        cmd.env("NEXAR_BIND_ADDR", ip.to_string());
    }
    cmd.env("NEXAR_RANK", rank.to_string())
        .env("NEXAR_SIZE", size.to_string())
        .env("NEXAR_LOCAL_RANK", local_rank.to_string())
        .env("NEXAR_APPNUM", appnum.to_string())
        .env("NEXAR_UNIVERSE_SIZE", size.to_string())
        .env("NEXAR_RENDEZVOUS", rdv.to_string())
        .env("NEXAR_SECRET_FD", fd.to_string())
        .env_remove("NEXAR_JOB_SECRET_FILE")
        .env_remove("NEXAR_JOB_SECRET")
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
    // SAFETY: the closure runs in the forked child before exec and only calls fcntl and
    // sched_setaffinity, which are async-signal-safe. It makes this rank's secret pipe (and
    // only it) survive exec, and pins the rank (every thread it starts inherits the CPU).
    unsafe {
        cmd.pre_exec(move || {
            if libc::fcntl(fd, libc::F_SETFD, 0) == -1 {
                return Err(std::io::Error::last_os_error());
            }
            if let Some(cpu) = cpu {
                crate::binding::pin_to(cpu)?;
            }
            Ok(())
        });
    }
    let child = cmd.spawn();
    drop(read_end);
    child
}

/// Starts and watches the ranks of one launcher (the single-host one, a leader or a joiner):
/// its `i`-th rank is world rank `base + i` of a world of `size`.
pub struct Starter<'a> {
    plan: &'a Plan,
    rank_ctx: Vec<u32>,
    size: u32,
    base: u32,
    reach: Reach,
    secret: &'a JobSecret,
    done: &'a UnboundedSender<Event>,
    /// The CPUs handed out to the ranks in turn (`None`: no pinning).
    cpus: Option<Vec<usize>>,
    /// The output forwarding tasks of the ranks started so far (with `-l`).
    pub forwarders: Vec<JoinHandle<()>>,
}

impl<'a> Starter<'a> {
    /// A starter of `plan`'s ranks from world rank `base` on; their exits go to `done`.
    pub fn new(
        plan: &'a Plan,
        size: u32,
        base: u32,
        reach: Reach,
        secret: &'a JobSecret,
        done: &'a UnboundedSender<Event>,
    ) -> Self {
        let rank_ctx = plan.rank_contexts();
        // `main` resolved the binding (from the command line or NEXAR_BIND) into the plan.
        let cpus = plan
            .bind
            .unwrap_or(crate::binding::Bind::Auto)
            .cpus(rank_ctx.len() as u32, crate::binding::allowed_cpus());
        Self {
            plan,
            cpus,
            rank_ctx,
            size,
            base,
            reach,
            secret,
            done,
            forwarders: Vec::new(),
        }
    }

    /// The program of this launcher's `i`-th rank (for messages).
    pub fn program(&self, i: u32) -> String {
        let appnum = self.rank_ctx[i as usize];
        self.plan.contexts[appnum as usize]
            .program
            .to_string_lossy()
            .into_owned()
    }

    /// Starts this launcher's `i`-th rank: forwards its output when tagged and reports its
    /// exit on `done`.
    pub fn start(&mut self, i: u32) -> std::io::Result<Rank> {
        let appnum = self.rank_ctx[i as usize];
        let ctx = &self.plan.contexts[appnum as usize];
        let rank = self.base + i;
        let who = RankId {
            rank,
            size: self.size,
            local_rank: i,
            appnum,
        };
        let tag = self.plan.tag_output;
        let cpu = self.cpus.as_ref().map(|c| c[i as usize % c.len()]);
        let mut child = spawn_rank(ctx, who, tag, self.reach, self.secret, cpu)?;
        let pid = child.id().map_or(-1, |p| p as i32);
        if tag {
            self.forwarders
                .extend(forward(child.stdout.take(), rank, false));
            self.forwarders
                .extend(forward(child.stderr.take(), rank, true));
        }
        let tx = self.done.clone();
        tokio::spawn(async move {
            let (code, how) = match child.wait().await {
                Ok(st) => describe(st),
                Err(e) => (1, format!("could not be waited for: {e}")),
            };
            let _ = tx.send(Event::Exit { rank, code, how });
        });
        Ok(Rank {
            rank,
            pid,
            alive: true,
        })
    }
}

/// The exit code of a rank that could not be started, as shells report it: 126 when the
/// program is not executable, 127 otherwise (not found).
pub fn start_failure_code(e: &std::io::Error) -> i32 {
    if e.kind() == std::io::ErrorKind::PermissionDenied {
        126
    } else {
        127
    }
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
