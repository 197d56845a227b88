//! Elastic growth: [`Context::grow`] adds processes to a running job.
//!
//! A world's size and transports are fixed when it starts, so growing builds a NEW world (a new
//! [`Context`]) holding the old ranks in their old order (ranks `0..n`) followed by the new
//! processes (ranks `n..n+add`). It runs under the next epoch's secret
//! ([`JobSecret::for_epoch`]): its own job id, job CA and certificates, so credentials of an
//! older epoch are refused at connect. Rank 0 hosts the new world's rendezvous; the new
//! processes read the secret from a `0600` file in a fresh private directory, which is removed
//! once the new world is connected. The old context stays usable until the program drops it.
//!
//! Limits: the secret file is on rank 0's host, so [`GrowPlan::spawn`] starts the new
//! processes there; a `start` callback that starts them on other hosts must make the file
//! reachable itself. The rendezvous listens on `Config::bind_addr`; when that is unspecified
//! (`0.0.0.0`), other ranks reach it at the host of the old rendezvous address. New
//! processes get `NEXAR_LOCAL_RANK` = their world rank.

use crate::bootstrap::Launch;
use crate::bootstrap::rendezvous::RendezvousServer;
use crate::context::{Context, build_runtime};
use crate::error::{Error, ErrorKind, Result};
use crate::security::{JobSecret, SECRET_LEN};
use crate::spawn::PARENTS_VAR;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use zeroize::Zeroizing;

/// Longest rendezvous address carried by the grow announcement.
const MAX_ADDR: usize = 256;

/// What rank 0 hands the `start` callback of [`Context::grow`]: how to start each new process.
#[derive(Debug, Clone)]
pub struct GrowPlan {
    /// Epoch of the new world (one more than the growing world's).
    pub epoch: u32,
    /// Size of the growing world; the new processes get ranks `old_size..new_size`.
    pub old_size: u32,
    /// Size of the new world.
    pub new_size: u32,
    /// `host:port` of the new world's rendezvous (hosted by rank 0).
    pub rendezvous: String,
    /// One entry per new process, in rank order.
    pub newcomers: Vec<Newcomer>,
    /// Fails the new world's rendezvous at once, for every rank waiting in it: for a starter
    /// that sees a new process exit before it joined (otherwise the others wait out the
    /// connect timeout). Does nothing once the new world is connected.
    pub abort: crate::bootstrap::rendezvous::RendezvousAbort,
}

/// One process to start for a grow.
#[derive(Debug, Clone)]
pub struct Newcomer {
    /// Its rank in the new world.
    pub rank: u32,
    /// The environment variables it must be started with (on top of the inherited ones); it
    /// then joins with the ordinary [`Context::init`]. Holds the secret file's path, never the
    /// secret itself.
    pub env: Vec<(String, String)>,
}

impl Newcomer {
    /// A command that starts this process as `program args...` with its environment from the
    /// plan (on top of this process's, less the launcher's private variables); standard
    /// streams are inherited unless the caller changes them.
    pub fn command(&self, program: &Path, args: &[String]) -> Command {
        let mut cmd = Command::new(program);
        cmd.args(args)
            .env_remove("NEXAR_SECRET_FD")
            .env_remove("NEXAR_RENDEZVOUS_HOST")
            .envs(self.env.iter().map(|(k, v)| (k, v)));
        cmd
    }
}

impl GrowPlan {
    /// Starts every new process as `program args...` with its environment from the plan
    /// (standard streams inherited), and returns the children (the caller may wait for them).
    /// Stops at the first process that cannot be started, killing the ones already started.
    pub fn spawn(&self, program: &Path, args: &[String]) -> Result<Vec<Child>> {
        self.start_with(|n| n.command(program, args))
    }

    /// Starts every new process, in rank order, with the command `make` gives for it (made
    /// with [`Newcomer::command`], so that it joins), and returns the children. Stops at the
    /// first process that cannot be started, killing the ones already started.
    pub fn start_with(&self, mut make: impl FnMut(&Newcomer) -> Command) -> Result<Vec<Child>> {
        let mut children: Vec<Child> = Vec::new();
        for n in &self.newcomers {
            let mut cmd = make(n);
            match cmd.spawn() {
                Ok(c) => children.push(c),
                Err(e) => {
                    for mut c in children {
                        let _ = c.kill();
                        let _ = c.wait();
                    }
                    return Err(Error::new(
                        ErrorKind::Bootstrap,
                        format!(
                            "grow: cannot start new rank {} as {}: {e}",
                            n.rank,
                            Path::new(cmd.get_program()).display()
                        ),
                    ));
                }
            }
        }
        Ok(children)
    }
}

/// A private (`0700`) directory holding the new epoch's secret file; removed on drop.
struct SecretDir(PathBuf);

impl SecretDir {
    fn create(job_id: &str) -> Result<Self> {
        use std::os::unix::fs::DirBuilderExt;
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let path = std::env::temp_dir().join(format!(
            "nexar-grow-{job_id}-{}-{nanos}",
            std::process::id()
        ));
        std::fs::DirBuilder::new()
            .mode(0o700)
            .create(&path)
            .map_err(|e| {
                Error::new(
                    ErrorKind::Bootstrap,
                    format!("grow: cannot create {}: {e}", path.display()),
                )
            })?;
        Ok(Self(path))
    }
}

impl Drop for SecretDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Rank 0's part before the announcement: the new world's rendezvous, the secret file and the
/// program's `start` callback.
struct Hosted {
    server: RendezvousServer,
    dir: SecretDir,
    addr: String,
    secret: JobSecret,
}

/// Which secret a grown world runs under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Growth {
    /// The job's next epoch ([`Context::grow`]: the whole world grows).
    NextEpoch,
    /// A fresh one ([`Context::spawn`]: groups of one job may spawn at the same time); the new
    /// processes learn the parents' count from [`PARENTS_VAR`].
    Spawn,
}

/// What the hosting rank needs to start a new world.
struct Planned {
    secret: JobSecret,
    /// The hosting rank (ranks of the new world: the old ones keep theirs).
    host: u32,
    epoch: u32,
    old_size: u32,
    new_size: u32,
    /// Variables every new process gets on top of the joining ones.
    env: Vec<(String, String)>,
}

/// The host other ranks reach rank 0's new rendezvous at.
fn rendezvous_host(bind: IpAddr, old: Option<&str>) -> String {
    if !bind.is_unspecified() {
        return match bind {
            IpAddr::V6(a) => format!("[{a}]"),
            IpAddr::V4(a) => a.to_string(),
        };
    }
    // Bound to every interface: the host the old rendezvous was reached at, else this host.
    old.and_then(|o| o.rsplit_once(':').map(|(h, _)| h.to_string()))
        .unwrap_or_else(crate::bootstrap::hostname)
}

impl Context {
    /// Adds `add` processes to the job: a collective over the world (every rank calls it with
    /// the same `add`) that returns a NEW context of `size() + add` ranks, epoch
    /// [`Context::epoch`]` + 1`. The old ranks keep their ranks; the new processes get ranks
    /// `size()..size() + add`.
    ///
    /// On rank 0, `start` is called with the [`GrowPlan`] and must start the new processes
    /// (for example with [`GrowPlan::spawn`]); it is not called on other ranks. The new
    /// processes call [`Context::init`] as usual. This context stays usable until dropped.
    ///
    /// Errors: `add == 0` or a size overflow is [`ErrorKind::InvalidArgument`]; an in-process
    /// world is [`ErrorKind::Unsupported`]; if `start` fails, every rank gets an error; a new
    /// process that never arrives gives every old rank the rendezvous timeout error after
    /// `connect_timeout` (`NEXAR_CONNECT_TIMEOUT_MS`).
    pub fn grow(&self, add: u32, start: impl FnOnce(&GrowPlan) -> Result<()>) -> Result<Context> {
        self.grow_group(self.world(), 0, add, Growth::NextEpoch, start)
    }

    /// The world `comm`'s members (ranks `0..n`, in `comm`'s order) form with `add` new
    /// processes (ranks `n..n + add`): [`Context::grow`] over any intracommunicator of this
    /// context, hosted by `root` (which runs `start`). Collective over `comm`.
    pub(crate) fn grow_group(
        &self,
        comm: &crate::Comm,
        root: u32,
        add: u32,
        growth: Growth,
        start: impl FnOnce(&GrowPlan) -> Result<()>,
    ) -> Result<Context> {
        if comm.is_inter() || !self.owns(comm) {
            return Err(Error::new(
                ErrorKind::InvalidComm,
                "grow: the communicator must be an intracommunicator of this context",
            ));
        }
        let old_size = comm.size();
        if root >= old_size {
            return Err(Error::new(
                ErrorKind::InvalidRank,
                format!("grow: root {root} is not a rank of a communicator of {old_size}"),
            ));
        }
        let size_after = |add: u32| {
            old_size
                .checked_add(add)
                .filter(|_| add > 0)
                .ok_or_else(|| {
                    Error::invalid(format!(
                        "grow: cannot add {add} ranks to a world of {old_size}"
                    ))
                })
        };
        // The whole world grows by an `add` every rank knows; a spawn's count counts at its
        // root only (the others learn the new size from the announcement).
        if growth == Growth::NextEpoch {
            size_after(add)?;
        }
        let launch = self.launch().ok_or_else(|| {
            Error::new(
                ErrorKind::Unsupported,
                "grow: in-process worlds cannot grow; start the job with nexarrun or by hand",
            )
        })?;
        let epoch = self
            .epoch()
            .checked_add(1)
            .ok_or_else(|| Error::invalid("grow: the epoch counter is exhausted".to_string()))?;
        let cfg = self.config().clone();
        let runtime = build_runtime(cfg.threads)?;
        let hosted = if comm.rank() == root {
            let secret = size_after(add).and_then(|_| match growth {
                // A singleton started without a secret makes one up: it is the whole job.
                Growth::NextEpoch => match &launch.secret {
                    Some(s) => Ok(s.for_epoch(epoch)),
                    None => JobSecret::generate().map(|s| s.for_epoch(epoch)),
                },
                // Groups may spawn at once: each new world needs a job id of its own.
                Growth::Spawn => JobSecret::generate(),
            });
            Some(secret.and_then(|secret| {
                let env = match growth {
                    Growth::NextEpoch => Vec::new(),
                    Growth::Spawn => vec![(PARENTS_VAR.to_string(), old_size.to_string())],
                };
                let plan = Planned {
                    secret,
                    host: root,
                    epoch,
                    old_size,
                    new_size: old_size + add,
                    env,
                };
                self.host_growth(launch, plan, &runtime, start)
            }))
        } else {
            None
        };
        let announced = announce(
            comm,
            root,
            hosted
                .as_ref()
                .and_then(|h| h.as_ref().ok())
                .map(|h| Joining {
                    addr: h.addr.clone(),
                    secret: h.secret.clone(),
                    size: old_size + add,
                    split: old_size,
                }),
            epoch,
        );
        let (
            hosted,
            Joining {
                addr,
                secret,
                size: new_size,
                ..
            },
        ) = match (hosted, announced) {
            (Some(Err(e)), _) => return Err(e),
            (_, Err(e)) => return Err(e),
            (Some(Ok(h)), Ok(a)) => (Some(h), a),
            (None, Ok(a)) => (None, a),
        };
        let next = Launch {
            rank: comm.rank(),
            size: new_size,
            local_rank: launch.local_rank,
            rendezvous: Some(addr),
            host_rendezvous: false,
            secret: Some(secret),
        };
        let (server, dir) = match hosted {
            Some(h) => (Some(h.server), Some(h.dir)),
            None => (None, None),
        };
        let ctx = Context::from_launch(next, cfg, epoch, runtime, server);
        // Every new process read the secret before it could join; the file is no longer needed.
        drop(dir);
        let ctx = agree_on_outcome(comm, root, ctx)?;
        tracing::debug!(
            rank = ctx.rank(),
            size = new_size,
            epoch,
            "grown world connected"
        );
        Ok(ctx)
    }

    /// Where rank 0 hosts the new world's rendezvous (and its newcomers bind): the configured
    /// address when the world lives on one host or the user chose one; otherwise (ranks on
    /// several hosts, default loopback) the address this host uses toward the old rendezvous,
    /// which every old rank already reached.
    fn growth_bind_ip(&self, cfg: &crate::config::Config, launch: &Launch) -> Result<IpAddr> {
        let hosts = self.world_hosts();
        let one_host = hosts.iter().all(|h| Some(h) == hosts.first());
        let explicit = crate::bootstrap::bind::explicit(cfg, &|n| std::env::var(n).ok());
        if one_host || explicit.is_some() || !cfg.bind_addr.is_loopback() {
            return Ok(explicit.unwrap_or(cfg.bind_addr));
        }
        let old = launch.rendezvous.as_deref().unwrap_or_default();
        let target = std::net::ToSocketAddrs::to_socket_addrs(old)
            .ok()
            .and_then(|mut a| a.next())
            .ok_or_else(|| {
                Error::new(
                    ErrorKind::Bootstrap,
                    format!(
                        "grow: the old rendezvous {old:?} does not resolve; set NEXAR_BIND_ADDR"
                    ),
                )
            })?;
        crate::bootstrap::bind::local_ip_toward(target).map_err(|e| {
            Error::new(
                ErrorKind::Bootstrap,
                format!("grow: no address of this host reaches {target}: {e}; set NEXAR_BIND_ADDR"),
            )
        })
    }

    /// The hosting rank: starts the new world's rendezvous (inside `runtime`), writes the
    /// secret file and runs the program's `start` callback.
    fn host_growth(
        &self,
        launch: &Launch,
        plan: Planned,
        runtime: &tokio::runtime::Runtime,
        start: impl FnOnce(&GrowPlan) -> Result<()>,
    ) -> Result<Hosted> {
        let cfg = self.config();
        let _in_runtime = runtime.enter();
        let bind_ip = self.growth_bind_ip(cfg, launch)?;
        let secret = plan.secret;
        let server =
            RendezvousServer::start(&secret, SocketAddr::new(bind_ip, 0), plan.new_size, cfg)?;
        // If the new world fails, this process (whose runtime runs the rendezvous) hears last,
        // so the other members, still connecting, hear why instead of finding nothing.
        server.answer_host_last(plan.host, plan.old_size);
        let host = rendezvous_host(bind_ip, launch.rendezvous.as_deref());
        let addr = format!("{host}:{}", server.local_addr().port());
        if addr.len() > MAX_ADDR {
            return Err(Error::new(
                ErrorKind::Bootstrap,
                format!("grow: rendezvous address {addr:?} is longer than {MAX_ADDR} bytes"),
            ));
        }
        let dir = SecretDir::create(&secret.job_id())?;
        let file = dir.0.join("secret");
        secret.write_file(&file)?;
        let (old_size, new_size, epoch) = (plan.old_size, plan.new_size, plan.epoch);
        let newcomers = (old_size..new_size)
            .map(|rank| {
                let mut env: Vec<(String, String)> = vec![
                    ("NEXAR_RANK".into(), rank.to_string()),
                    ("NEXAR_SIZE".into(), new_size.to_string()),
                    ("NEXAR_LOCAL_RANK".into(), rank.to_string()),
                    ("NEXAR_RENDEZVOUS".into(), addr.clone()),
                    ("NEXAR_JOB_SECRET_FILE".into(), file.display().to_string()),
                    ("NEXAR_EPOCH".into(), epoch.to_string()),
                    // Reachable from every old rank's host, like the new rendezvous.
                    ("NEXAR_BIND_ADDR".into(), bind_ip.to_string()),
                ];
                env.extend(plan.env.iter().cloned());
                Newcomer { rank, env }
            })
            .collect();
        let grow_plan = GrowPlan {
            epoch,
            old_size,
            new_size,
            rendezvous: addr.clone(),
            newcomers,
            abort: server.abort_handle(),
        };
        start(&grow_plan)?;
        Ok(Hosted {
            server,
            dir,
            addr,
            secret,
        })
    }
}

/// Longest error text the hosting rank shares when the new world failed.
const MAX_REASON: usize = 1024;

/// The members of `comm` agree whether the new world formed: it did only if it did for every
/// one. When it did not, each gets the hosting rank's reason (it holds the rendezvous, which
/// knows why: a new process that exited, the ranks that never arrived), or its own.
fn agree_on_outcome(comm: &crate::Comm, root: u32, mine: Result<Context>) -> Result<Context> {
    let mut all = [u8::from(mine.is_ok())];
    comm.block_on(comm.allreduce(&mut all, crate::ReduceOp::Min))?;
    if all[0] == 1 {
        return mine;
    }
    if let Ok(w) = &mine {
        // Others never joined: closing must not wait for them.
        w.set_final_sync(crate::spawn::FinalSync::Nobody);
    }
    let mut why = vec![0u8; 2 + MAX_REASON];
    if comm.rank() == root
        && let Err(e) = &mine
    {
        let text = e.message().as_bytes();
        let n = text.len().min(MAX_REASON);
        why[..2].copy_from_slice(&(n as u16).to_be_bytes());
        why[2..2 + n].copy_from_slice(&text[..n]);
    }
    comm.block_on(comm.bcast(&mut why, root))?;
    let n = usize::from(u16::from_be_bytes([why[0], why[1]])).min(MAX_REASON);
    let reason = String::from_utf8_lossy(&why[2..2 + n]).into_owned();
    Err(match mine {
        Err(e) if reason.is_empty() => e,
        Err(e) => Error::new(e.kind(), reason),
        Ok(_) if reason.is_empty() => Error::new(
            ErrorKind::Bootstrap,
            "grow: another member could not join the new world (see its error)",
        ),
        Ok(_) => Error::new(ErrorKind::Bootstrap, reason),
    })
}

/// What the members of a group need to join a new world: its rendezvous, secret and size, and
/// where the group's ranks start (`split`: the first group has ranks `0..split`).
#[derive(Debug)]
pub(crate) struct Joining {
    pub addr: String,
    pub secret: JobSecret,
    pub size: u32,
    pub split: u32,
}

/// Broadcasts the hosting rank's outcome over `comm` from `root` (`Some`: how to join the new
/// world; `None`: it failed, or this is not the root) and the epoch; returns it on every rank,
/// or an error on all of them.
pub(crate) fn announce(
    comm: &crate::Comm,
    root: u32,
    mine: Option<Joining>,
    epoch: u32,
) -> Result<Joining> {
    const HEAD: usize = 15 + SECRET_LEN;
    let mut buf = Zeroizing::new(vec![0u8; HEAD + MAX_ADDR]);
    if let Some(j) = &mine {
        if j.addr.len() > MAX_ADDR {
            return Err(Error::new(
                ErrorKind::Bootstrap,
                format!(
                    "grow: rendezvous address {:?} is longer than {MAX_ADDR} bytes",
                    j.addr
                ),
            ));
        }
        buf[0] = 1;
        buf[1..5].copy_from_slice(&epoch.to_be_bytes());
        buf[5..7].copy_from_slice(&(j.addr.len() as u16).to_be_bytes());
        buf[7..11].copy_from_slice(&j.size.to_be_bytes());
        buf[11..15].copy_from_slice(&j.split.to_be_bytes());
        buf[15..HEAD].copy_from_slice(j.secret.expose());
        buf[HEAD..HEAD + j.addr.len()].copy_from_slice(j.addr.as_bytes());
    }
    comm.block_on(comm.bcast(&mut buf, root))?;
    if buf[0] != 1 {
        return Err(Error::new(
            ErrorKind::Bootstrap,
            format!("grow: rank {root} could not start the new world (see its error)"),
        ));
    }
    let got = u32::from_be_bytes(buf[1..5].try_into().expect("4 bytes"));
    if got != epoch {
        return Err(Error::new(
            ErrorKind::Internal,
            format!(
                "grow: rank {root} grows to epoch {got} but this rank is at {}",
                epoch.wrapping_sub(1)
            ),
        ));
    }
    let len = usize::from(u16::from_be_bytes([buf[5], buf[6]])).min(MAX_ADDR);
    let word = |at: usize| u32::from_be_bytes(buf[at..at + 4].try_into().expect("4 bytes"));
    let (size, split) = (word(7), word(11));
    let secret = JobSecret::from_bytes(buf[15..HEAD].try_into().expect("32 bytes"));
    let addr = String::from_utf8(buf[HEAD..HEAD + len].to_vec()).map_err(|_| {
        Error::new(
            ErrorKind::Internal,
            "grow: the announced address is not UTF-8",
        )
    })?;
    Ok(Joining {
        addr,
        secret,
        size,
        split,
    })
}
