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
//! A multi-host job ([`run_job`] with [`Leading`]) runs the same policy over every host: the
//! joiners' ranks are supervised through their launchers (see [`crate::multihost`]), which
//! report their exits and terminate them when asked.
//!
//! Exit code: 0 when every rank exits 0; otherwise the code of the first rank that failed
//! (128 + signal when killed by a signal), whether the others were terminated or left running
//! (and whatever they exit with later); 124 when the timeout expired; 127 (126) when a program cannot be found
//! (run); 130 / 143 when the launcher itself was interrupted / terminated; 2 for a bad plan
//! (a working directory that does not exist).

use crate::spawn::{Reach, Starter, start_failure_code};
use nexar::Config;
use nexar::bootstrap::rendezvous::{ControlHub, RendezvousServer};
use nexar::security::JobSecret;
use std::ffi::OsString;
use std::net::SocketAddr;
use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::ExitStatus;
use std::time::Duration;
use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::mpsc;

/// Grace period between SIGTERM and SIGKILL.
pub const KILL_GRACE: Duration = Duration::from_secs(1);

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
    /// How this launcher's ranks are pinned to CPUs (`None`: `NEXAR_BIND`, else automatic;
    /// see [`crate::binding`]).
    pub bind: Option<crate::binding::Bind>,
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
pub struct Rank {
    /// World rank.
    pub rank: u32,
    /// Its pid, which is also its process group id (-1: it runs on another host).
    pub pid: i32,
    /// Not yet seen exiting.
    pub alive: bool,
}

impl Rank {
    /// A copy (ranks are not `Clone`, so that copies are visible).
    pub fn copy(&self) -> Self {
        Self { ..*self }
    }
}

/// What happens to the ranks of a job, as the supervisor learns it.
#[derive(Debug)]
pub enum Event {
    /// World rank `rank` ended with exit `code` (128 + signal when killed); `how` describes it.
    Exit {
        /// World rank.
        rank: u32,
        /// Exit code.
        code: i32,
        /// "exited with code 3".
        how: String,
    },
    /// The job cannot go on (a host never joined): terminate everything and exit with `code`.
    Fatal {
        /// The job's exit code.
        code: i32,
        /// Printed as the reason.
        msg: String,
    },
}

/// The leader's side of a multi-host job: this launcher runs the plan's ranks as world ranks
/// `0..K` of a world of `size`, and joiners run the rest (see [`crate::multihost`]).
pub struct Leading {
    /// Where the joiners connect (and the IP this host's ranks bind).
    pub listen: SocketAddr,
    /// World size.
    pub size: u32,
    /// The job secret, shared with the joiners through a file.
    pub secret: JobSecret,
    /// Joiners to start through a remote shell (`-H`), if any.
    pub rsh: Option<crate::rsh::RshPlan>,
}

/// Runs a plan to completion; `me` names the launcher in messages. Returns the exit code.
pub async fn run(me: &str, plan: &Plan) -> i32 {
    run_job(me, plan, None).await
}

/// Checks a plan before anything starts; `Err` is the exit code (after a message).
fn check_plan(me: &str, plan: &Plan) -> Result<u32, i32> {
    let size = plan.size();
    if size == 0 || plan.contexts.iter().any(|c| c.count == 0) {
        eprintln!("{me}: every program needs at least 1 rank");
        return Err(2);
    }
    let Ok(n) = u32::try_from(size) else {
        eprintln!("{me}: {size} ranks are too many");
        return Err(2);
    };
    if let Some(t) = plan.timeout
        && !(t > 0.0 && t.is_finite())
    {
        eprintln!("{me}: --timeout must be a positive number of seconds");
        return Err(2);
    }
    for dir in plan.contexts.iter().filter_map(|c| c.wdir.as_ref()) {
        if !dir.is_dir() {
            eprintln!(
                "{me}: working directory '{}' is not a directory",
                dir.display()
            );
            return Err(2);
        }
    }
    Ok(n)
}

/// How long the rendezvous of a one-rank job waits for a joiner that never comes: longer than
/// any job (and short of the timer's limit of about two years).
const SINGLETON_RENDEZVOUS_WAIT: std::time::Duration = std::time::Duration::from_secs(365 * 86_400);

/// Runs a plan, alone (`lead` = `None`: the plan is the whole job) or as the leader of a
/// multi-host job. Returns the exit code.
pub async fn run_job(me: &str, plan: &Plan, lead: Option<Leading>) -> i32 {
    let k = match check_plan(me, plan) {
        Ok(k) => k,
        Err(code) => return code,
    };
    let n = lead.as_ref().map_or(k, |l| l.size);
    if k > n {
        eprintln!("{me}: --local {k} is more than the {n} ranks of the job");
        return 2;
    }
    let mut cfg = match Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{me}: {e}");
            return 2;
        }
    };
    let (secret, listen, rsh) = match lead {
        Some(l) => (l.secret, Some(l.listen), l.rsh),
        None => match JobSecret::generate() {
            Ok(s) => (s, None, None),
            Err(e) => {
                eprintln!("{me}: {e}");
                return 1;
            }
        },
    };
    if let Some(l) = listen {
        // The rendezvous must be reachable from the other hosts too.
        cfg.bind_addr = l.ip();
    }
    if n == 1 {
        // A world of one never joins a rendezvous: without this its gathering would time out
        // after NEXAR_CONNECT_TIMEOUT_MS and log a spurious error into a healthy job.
        cfg.connect_timeout = SINGLETON_RENDEZVOUS_WAIT;
    }
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
    let reach = Reach {
        rendezvous: rdv,
        bind: listen.map(|l| l.ip()),
    };

    let (done_tx, mut done_rx) = mpsc::unbounded_channel::<Event>();
    let remote = match listen {
        Some(l) => {
            let job = crate::multihost::JobShape {
                size: n,
                first_remote: k,
                rendezvous: rdv,
            };
            match crate::multihost::Remote::start(me, &secret, l, job, &cfg, done_tx.clone()) {
                Ok(r) => {
                    if let Some(p) = &rsh
                        && let Err(e) = r.start_joiners(me, p)
                    {
                        eprintln!("{me}: {e}");
                        return 1;
                    }
                    Some(r)
                }
                Err(e) => {
                    eprintln!("{me}: cannot listen for joining launchers on {l}: {e}");
                    return 1;
                }
            }
        }
        None => None,
    };
    let mut ranks: Vec<Rank> = Vec::with_capacity(n as usize);
    let mut starter = Starter::new(plan, n, 0, reach, &secret, &done_tx);
    for rank in 0..k {
        match starter.start(rank) {
            Ok(r) => ranks.push(r),
            Err(e) => {
                eprintln!("{me}: cannot start '{}': {e}", starter.program(rank));
                terminate(&ranks, libc::SIGKILL);
                while ranks.iter().any(|r| r.alive) {
                    match done_rx.recv().await {
                        Some(Event::Exit { rank, .. }) if rank < k => {
                            ranks[rank as usize].alive = false
                        }
                        Some(_) => {}
                        None => break,
                    }
                }
                return start_failure_code(&e);
            }
        }
    }
    let forwarders = std::mem::take(&mut starter.forwarders);
    drop(starter);
    // Ranks the joiners run: no pid here; the joiners report their exits.
    ranks.extend((k..n).map(|rank| Rank {
        rank,
        pid: -1,
        alive: true,
    }));
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
    let code = supervise(me, plan.timeout, ranks, done_rx, hub, remote.as_ref()).await;
    if let Some(r) = remote {
        r.finish().await;
    }
    // Shared-memory inboxes are unlinked by the ranks once mapped; a rank killed early may
    // leave its name behind.
    nexar::transport::shm::segment::remove_job_inboxes(&job_id, k);
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
    mut done_rx: mpsc::UnboundedReceiver<Event>,
    hub: ControlHub,
    remote: Option<&crate::multihost::Remote>,
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
        remote,
    };
    let everyone: Vec<u32> = (0..ranks.len() as u32).collect();

    while ranks.iter().any(|r| r.alive) {
        tokio::select! {
            msg = done_rx.recv() => {
                let (rank, code, how) = match msg {
                    None => break,
                    Some(Event::Exit { rank, code, how }) => (rank, code, how),
                    Some(Event::Fatal { code, msg }) => {
                        if !terminating {
                            eprintln!("{me}: {msg}; terminating the job");
                            result.get_or_insert(code);
                            terminating = true;
                            term.doom(&ranks, &everyone, &mut kill_at);
                        }
                        continue;
                    }
                };
                let Some(r) = ranks.get_mut(rank as usize).filter(|r| r.alive) else {
                    continue;
                };
                r.alive = false;
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
    kill_groups(&ranks, |r| terminating || term.doomed[r.rank as usize]);
    result.unwrap_or(0)
}

/// Which ranks are being terminated, and whether their SIGKILL is scheduled.
struct Terminator<'a> {
    /// Ranks sent SIGTERM; SIGKILL follows after [`KILL_GRACE`].
    doomed: Vec<bool>,
    armed: bool,
    /// The joiners, which terminate their own ranks when asked.
    remote: Option<&'a crate::multihost::Remote>,
}

impl Terminator<'_> {
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
        if let Some(remote) = self.remote {
            let far: Vec<u32> = fresh.iter().filter(|r| r.pid < 0).map(|r| r.rank).collect();
            remote.kill(&far);
        }
        if !fresh.is_empty() && !self.armed {
            self.armed = true;
            kill_at
                .as_mut()
                .reset(tokio::time::Instant::now() + KILL_GRACE);
        }
    }
}

/// The next delivery of signal `s` (never, when it could not be installed).
pub async fn recv_signal(s: &mut Option<tokio::signal::unix::Signal>) -> Option<()> {
    match s {
        Some(s) => s.recv().await,
        None => std::future::pending().await,
    }
}

/// The job exit code for a rank's status, and a description.
pub fn describe(st: ExitStatus) -> (i32, String) {
    match (st.code(), st.signal()) {
        (Some(c), _) => (c, format!("exited with code {c}")),
        (None, Some(sig)) => (128 + sig, format!("was killed by signal {sig}")),
        (None, None) => (1, "ended in an unknown way".to_string()),
    }
}

/// Sends `sig` to the process group of every live rank.
pub fn terminate(ranks: &[Rank], sig: libc::c_int) {
    signal_groups(ranks.iter().filter(|r| r.alive), sig);
}

/// Kills (SIGKILL) the process group of every rank `doomed` picks, exited or not: what a
/// terminated rank started dies with it.
pub fn kill_groups(ranks: &[Rank], doomed: impl Fn(&Rank) -> bool) {
    signal_groups(ranks.iter().filter(|r| doomed(r)), libc::SIGKILL);
}

fn signal_groups<'a>(ranks: impl Iterator<Item = &'a Rank>, sig: libc::c_int) {
    for r in ranks.filter(|r| r.pid > 0) {
        // SAFETY: kill has no memory effects; a negative pid names the rank's process group.
        unsafe { libc::kill(-r.pid, sig) };
    }
}
