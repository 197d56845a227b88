//! How a rank learns who it is and reaches the others.
//!
//! Environment contract (set by `nexarrun`, or by hand / another tool):
//!
//! | variable | meaning |
//! |---|---|
//! | `NEXAR_RANK`, `NEXAR_SIZE` | this process's world rank and the world size (both or neither) |
//! | `NEXAR_LOCAL_RANK` | rank among the processes on this host (default: `NEXAR_RANK`) |
//! | `NEXAR_RENDEZVOUS` | `host:port` of the rendezvous (required when size > 1) |
//! | `NEXAR_RENDEZVOUS_HOST` | `1`: rank 0 hosts the rendezvous itself on that address (launches by hand or by other tools); ignored on other ranks |
//! | `NEXAR_SECRET_FD` | an inherited pipe the 32-byte job secret can be read from (nexarrun); read, then closed |
//! | `NEXAR_JOB_SECRET_FILE` | a file holding the job secret, 32 raw bytes or 64 hex digits (hand launches); must not be accessible by group or others |
//! | `NEXAR_JOB_SECRET` | the job secret itself, 64 hex digits (launchers that pass variables but not files, such as torchrun); read, then removed from the environment |
//! | `NEXAR_HOSTNAME` | the host name that decides which ranks share memory (default: the system's host name); for containers that share one name, or tests |
//! | `NEXAR_EPOCH` | the epoch of a grown world this process joins (set for new processes by [`crate::Context::grow`]; default 0) |
//!
//! With none of these set the process is rank 0 of a world of 1, as in MPI. A world of more than
//! one rank needs the rendezvous address and exactly one secret source. After reading, the
//! secret variables are removed from the environment.
//!
//! Other launchers are recognized when `NEXAR_RANK` is absent ([`schedulers`]). Precedence,
//! highest first (the first whose rank variable is set is used; the others are ignored):
//!
//! | source | rank / size / local rank | rendezvous (rank 0 hosts it) |
//! |---|---|---|
//! | nexar (`nexarrun`, by hand) | `NEXAR_RANK` / `NEXAR_SIZE` / `NEXAR_LOCAL_RANK` | `NEXAR_RENDEZVOUS` |
//! | PMI-1 (`mpiexec.hydra`, `srun --mpi=pmi2`) | `PMI_FD` with `PMI_RANK` / `PMI_SIZE`, else `PMI_PORT` + `PMI_ID` (rank and size from the `initack` reply); local rank `MPI_LOCALRANKID` / `PMI_LOCAL_RANK` / `SLURM_LOCALID`, else counted through the KVS | rank 0 starts it on (`bind_addr`, any port) and publishes it, and the job secret unless `NEXAR_JOB_SECRET_FILE` is set, in the process manager's KVS ([`pmi`]) |
//! | PMIx (`srun --mpi=pmix`, Open MPI `mpirun`, `prterun`) | `PMIX_NAMESPACE` + `PMIX_RANK` + `PMIX_SERVER_URI*`, when the PMIx client library loads (`libpmix.so.2`, or `NEXAR_PMIX_LIB`; `none` ignores PMIx): rank from `PMIx_Init`, size `pmix.job.size`, local rank `pmix.lrank` | as for PMI-1, through `PMIx_Put` / `PMIx_Fence` / `PMIx_Get` ([`pmi::pmix`]) |
//! | Open MPI `mpirun` | `OMPI_COMM_WORLD_RANK` / `_SIZE` / `_LOCAL_RANK` | one host (`OMPI_COMM_WORLD_LOCAL_SIZE` = `_SIZE`): `127.0.0.1:` 20000 + `OMPI_MCA_ess_base_jobid` mod 10000 (else the FNV-1a hash of `PMIX_NAMESPACE`); several hosts: `NEXAR_RENDEZVOUS` required |
//! | Slurm `srun` | `SLURM_PROCID` / `SLURM_NTASKS` / `SLURM_LOCALID` | first host of `SLURM_STEP_NODELIST` (hostlist syntax such as `node[01-03,07],gpu5`; `127.0.0.1` when the step has one node), port 20000 + (`SLURM_JOB_ID` × 31 + `SLURM_STEP_ID`) mod 10000; without `SLURM_STEP_NODELIST` (run directly in a batch script or `salloc` shell, not by `srun`) a world of one |
//! | torchrun | `RANK` / `WORLD_SIZE` / `LOCAL_RANK` | `MASTER_ADDR`, port `MASTER_PORT` + 1 (1024 when that leaves 1024..=65535); `MASTER_PORT` itself is never bound, torchrun's agent may own it |
//! | none | singleton | none |
//!
//! For Open MPI, Slurm and torchrun, `NEXAR_RENDEZVOUS` (when set) replaces the derived
//! rendezvous, rank 0 always hosts it, and a world of more than one rank needs
//! `NEXAR_JOB_SECRET_FILE` (a file shared by every rank; no secret is ever derived from the
//! scheduler's variables). A bad value (not a number, rank >= size) is a `Bootstrap` error
//! naming the variable.
//!
//! Under a scheduler (PMI, Open MPI, Slurm, torchrun) without `NEXAR_BIND_ADDR`, a world the
//! scheduler says spans one host binds loopback, and any other binds the address this host
//! uses to reach the rendezvous; under PMI rank 0 first learns every rank's host name through
//! the KVS and hosts the rendezvous on loopback (one host) or on its host's routable address
//! ([`bind`]). `NEXAR_BIND_ADDR` always wins.
//!
//! A PMI launch needs a live connection to the process manager, so only [`crate::Context::init`]
//! joins one (through [`pmi`]); [`Launch::from_env`] / [`Launch::from_vars`] refuse it with a
//! `Bootstrap` error.
//!
//! For a launch by hand, write a secret once (`JobSecret::generate()?.write_file(path)`), point
//! every rank's `NEXAR_JOB_SECRET_FILE` at it, give every rank the same `NEXAR_RENDEZVOUS`, and
//! set `NEXAR_RENDEZVOUS_HOST=1` for rank 0.

pub mod bind;
mod env;
pub mod pmi;
pub mod rendezvous;
pub mod schedulers;

use crate::config::{Config, TransportChoice};
use crate::error::{Error, ErrorKind, Result};
use crate::security::JobSecret;
use crate::transport::quic::QuicTransport;
use crate::transport::routed::Routed;
use crate::transport::shm;
use crate::transport::{FrameSink, Transport};
use rendezvous::{Hello, RendezvousLink, RendezvousServer};
use std::net::SocketAddr;
use std::sync::Arc;

pub use env::{SECRET_VARS, announced_size};

/// What a rank knows before it connects: its place in the world and how to find the others.
#[derive(Debug, Clone)]
pub struct Launch {
    /// World rank.
    pub rank: u32,
    /// World size.
    pub size: u32,
    /// Rank among the processes on this host.
    pub local_rank: u32,
    /// `host:port` of the rendezvous (`None` for a singleton).
    pub rendezvous: Option<String>,
    /// This rank (always rank 0) hosts the rendezvous itself on [`Self::rendezvous`].
    pub host_rendezvous: bool,
    /// The job secret (`None` for a singleton started without one).
    pub secret: Option<JobSecret>,
}

impl Launch {
    /// Rank 0 of a world of 1.
    pub fn singleton() -> Self {
        Self {
            rank: 0,
            size: 1,
            local_rank: 0,
            rendezvous: None,
            host_rendezvous: false,
            secret: None,
        }
    }

    /// Reads the launch description from the environment (see the module docs), then removes
    /// the secret variables from it, whether or not reading succeeded.
    ///
    /// Call it during initialization, before other threads read the environment (removing a
    /// variable races with concurrent readers).
    pub fn from_env() -> Result<Self> {
        let r = env::launch_from(&|name| std::env::var(name).ok());
        env::scrub_environment();
        r
    }

    /// Like [`Self::from_env`], with variables looked up through `get` and without touching the
    /// process environment (for tools and tests). A secret pipe it names is still read and
    /// closed.
    pub fn from_vars(get: impl Fn(&str) -> Option<String>) -> Result<Self> {
        env::launch_from(&get)
    }
}

/// A connected world: the transport to every other rank and each rank's host name.
pub struct World {
    /// Carries frames to the other ranks.
    pub transport: Arc<dyn Transport>,
    /// Host name of every world rank (index = rank), for same-host splits.
    pub hosts: Vec<String>,
    /// This rank's open connection to the rendezvous (none for a singleton).
    pub rendezvous: Option<RendezvousLink>,
    /// The rendezvous this rank hosts (rank 0 with `NEXAR_RENDEZVOUS_HOST=1`); kept running
    /// for as long as the world lives.
    pub rendezvous_server: Option<RendezvousServer>,
}

/// Resolves `host:port`, preferring an address of the same family as `bind`.
async fn resolve(hostport: &str, bind: std::net::IpAddr) -> Result<SocketAddr> {
    let addrs: Vec<SocketAddr> = tokio::net::lookup_host(hostport)
        .await
        .map_err(|e| {
            Error::new(
                ErrorKind::Bootstrap,
                format!("NEXAR_RENDEZVOUS={hostport:?} cannot be resolved: {e}"),
            )
        })?
        .collect();
    addrs
        .iter()
        .find(|a| a.is_ipv4() == bind.is_ipv4())
        .or(addrs.first())
        .copied()
        .ok_or_else(|| {
            Error::new(
                ErrorKind::Bootstrap,
                format!("NEXAR_RENDEZVOUS={hostport:?} resolves to no address"),
            )
        })
}

/// Connects this rank to the world described by `launch`: binds the QUIC endpoint, joins the
/// rendezvous (hosting it first when asked to), and returns the world. Must run inside the
/// tokio runtime that will drive the transport. Bounded by `cfg.connect_timeout`.
pub async fn establish(launch: &Launch, cfg: &Config, sink: Arc<dyn FrameSink>) -> Result<World> {
    connect_world(launch, cfg, sink, false, None).await
}

/// Like [`establish`], and when `cfg.transport` is [`TransportChoice::Auto`] ranks on the same
/// host talk through shared memory (see [`crate::transport::shm`]); QUIC carries the rest.
pub async fn establish_auto(
    launch: &Launch,
    cfg: &Config,
    sink: Arc<dyn FrameSink>,
) -> Result<World> {
    connect_world(
        launch,
        cfg,
        sink,
        cfg.transport == TransportChoice::Auto,
        None,
    )
    .await
}

/// Like [`establish_auto`] for a rank that already started the rendezvous `server` itself (a
/// grown world's rank 0, see [`crate::Context::grow`]); the server lives as long as the world.
pub(crate) async fn establish_hosting(
    launch: &Launch,
    cfg: &Config,
    sink: Arc<dyn FrameSink>,
    server: Option<RendezvousServer>,
) -> Result<World> {
    let use_shm = cfg.transport == TransportChoice::Auto;
    connect_world(launch, cfg, sink, use_shm, server).await
}

async fn connect_world(
    launch: &Launch,
    cfg: &Config,
    sink: Arc<dyn FrameSink>,
    use_shm: bool,
    started: Option<RendezvousServer>,
) -> Result<World> {
    if launch.size == 0 || launch.rank >= launch.size {
        return Err(Error::new(
            ErrorKind::Bootstrap,
            format!(
                "rank {} of a world of {} is invalid",
                launch.rank, launch.size
            ),
        ));
    }
    if launch.size == 1 {
        return Ok(World {
            transport: Arc::new(crate::transport::SelfOnly),
            hosts: vec![hostname()],
            rendezvous: None,
            rendezvous_server: None,
        });
    }
    let secret = launch.secret.as_ref().ok_or_else(|| {
        Error::new(
            ErrorKind::Bootstrap,
            format!(
                "rank {}: no job secret for a world of {}",
                launch.rank, launch.size
            ),
        )
    })?;
    let rdv = launch.rendezvous.as_deref().ok_or_else(|| {
        Error::new(
            ErrorKind::Bootstrap,
            format!("rank {}: no rendezvous address", launch.rank),
        )
    })?;
    let rdv_addr = resolve(rdv, cfg.bind_addr).await?;
    // Under a scheduler with no address given, bind where the other hosts can reach us.
    let ip = bind::endpoint_ip(cfg, &|n| std::env::var(n).ok(), launch.rank, rdv_addr)?;
    let chosen;
    let cfg = if ip == cfg.bind_addr {
        cfg
    } else {
        chosen = Config {
            bind_addr: ip,
            ..cfg.clone()
        };
        &chosen
    };
    let server = if started.is_some() {
        started
    } else if launch.host_rendezvous && launch.rank == 0 {
        // A failure to bind is left for this host's waiting ranks to read (fail fast).
        match RendezvousServer::start(secret, rdv_addr, launch.size, cfg) {
            Ok(s) => {
                rendezvous::bind_failure::clear(&secret.job_id());
                Some(s)
            }
            Err(e) => {
                rendezvous::bind_failure::record(&secret.job_id(), e.message());
                return Err(e);
            }
        }
    } else {
        None
    };
    // The inbox must exist before this rank joins the rendezvous: once it completes, peers map it.
    let inbox = if use_shm {
        shm::prepare(&secret.job_id(), launch.rank, launch.size)
    } else {
        None
    };
    let transport = QuicTransport::bind(launch.rank, launch.size, secret, cfg, sink.clone())?;
    let host = hostname();
    let hello = Hello {
        rank: launch.rank,
        size: launch.size,
        addr: transport.local_addr()?,
        host,
    };
    let joining = rendezvous::join(
        transport.endpoint(),
        transport.credentials(),
        rdv_addr,
        &hello,
        cfg,
    );
    let (table, link) = if server.is_some() {
        joining.await?
    } else {
        until_rank0_fails(joining, &secret.job_id(), launch.rank, rdv_addr).await?
    };
    link.watch(sink.clone(), launch.rank, launch.size);
    let (addrs, hosts): (Vec<SocketAddr>, Vec<String>) = table.into_iter().unzip();
    transport.set_peer_addrs(addrs)?;
    tracing::debug!(rank = launch.rank, size = launch.size, "world established");
    let net: Arc<dyn Transport> = Arc::new(transport);
    let local = match inbox {
        Some(i) => {
            // Connecting waits until the local peers have laid out their inboxes: do it off the
            // runtime's workers, which must go on serving QUIC and the rendezvous this rank may
            // host (a blocked worker there kept a peer from ever getting the table: deadlock).
            let peers = hosts.clone();
            let (max, cma, progress, timeout) = (
                cfg.max_message,
                cfg.shm_cma,
                cfg.shm_caller_progress,
                cfg.peer_timeout,
            );
            tokio::task::spawn_blocking(move || {
                shm::connect(i, &peers, sink, max, cma, progress, timeout)
            })
            .await
            .map_err(|e| {
                Error::new(
                    ErrorKind::Internal,
                    format!("rank {}: shared-memory setup failed: {e}", launch.rank),
                )
            })?
        }
        None => None,
    };
    let transport = match local {
        Some(local) => Arc::new(Routed::new(local, net, launch.rank, launch.size)),
        None => net,
    };
    Ok(World {
        transport,
        hosts,
        rendezvous: Some(link),
        rendezvous_server: server,
    })
}

/// This host's name for deciding which ranks share memory: `NEXAR_HOSTNAME` when set and not
/// blank, else the system's host name (empty if it cannot be read).
pub fn hostname() -> String {
    bind::hostname_from(&|n| std::env::var(n).ok())
}

/// Runs `joining` (a rank's join of the rendezvous at `rdv`) until it ends, or until rank 0 of
/// this host records that it could not host the rendezvous: then fails at once with rank 0's
/// reason ([`rendezvous::bind_failure`]) instead of waiting out the connect timeout.
async fn until_rank0_fails<T>(
    joining: impl std::future::Future<Output = Result<T>>,
    job_id: &str,
    rank: u32,
    rdv: SocketAddr,
) -> Result<T> {
    tokio::pin!(joining);
    let mut tick = tokio::time::interval(std::time::Duration::from_millis(200));
    loop {
        tokio::select! {
            r = &mut joining => return r,
            _ = tick.tick() => {
                let slack = std::time::Duration::from_secs(10);
                if let Some(why) = rendezvous::bind_failure::recorded(job_id, slack) {
                    return Err(Error::new(
                        ErrorKind::Bootstrap,
                        format!(
                            "rank {rank}: rank 0 could not host the rendezvous at {rdv}: {why}"
                        ),
                    ));
                }
            }
        }
    }
}
