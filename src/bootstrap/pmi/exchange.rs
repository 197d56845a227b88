//! The start-up exchange through the PMI key-value space (see the table in
//! [`crate::bootstrap::pmi`]): rank 0 starts the rendezvous and publishes its address and the
//! job secret; after one barrier every rank reads them and knows its local rank.

use super::client::{Conn, PmiClient, hex_decode, hex_encode};
use super::kvs::{Kvs, SimpleKvs};
use super::pmix::PmixClient;
use super::{PmiAddr, PmiSession, TAKEN, boot, detect};
use crate::bootstrap::rendezvous::RendezvousServer;
use crate::bootstrap::{Launch, bind, env, hostname};
use crate::config::Config;
use crate::error::Result;
use crate::security::JobSecret;
use std::net::SocketAddr;
use std::os::fd::FromRawFd;
use std::os::unix::net::UnixStream;
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// KVS key of the rendezvous address.
pub const KEY_RENDEZVOUS: &str = "nexar-rdv";
/// KVS key of the job secret (or `file`).
pub const KEY_SECRET: &str = "nexar-secret";
/// Value of [`KEY_SECRET`] when rank 0 read the secret from `NEXAR_JOB_SECRET_FILE`.
const SECRET_FROM_FILE: &str = "file";

/// KVS key of rank `r`'s host name.
fn host_key(r: u32) -> String {
    format!("nexar-host-{r}")
}

/// A launch through PMI, ready for [`crate::Context`]: the launch, the rendezvous rank 0
/// already started, and the connection to keep open.
pub(crate) struct PmiBoot {
    pub launch: Launch,
    pub server: Option<RendezvousServer>,
    pub session: Arc<PmiSession>,
}

/// When nexar's own `NEXAR_RANK` / `NEXAR_SIZE` are absent and a PMI process manager started
/// this process, joins it: connects, runs the exchange and returns the launch (`None`: not a
/// PMI launch). Reads the secret variables and removes them from the environment. Rank 0
/// starts the rendezvous on `handle`'s runtime.
pub(crate) fn boot_from_env(
    cfg: &Config,
    handle: &tokio::runtime::Handle,
) -> Result<Option<PmiBoot>> {
    let get = |name: &str| std::env::var(name).ok();
    if get("NEXAR_RANK").is_some() || get("NEXAR_SIZE").is_some() {
        return Ok(None);
    }
    let Some(addr) = detect(&get)? else {
        return Ok(None);
    };
    let secret = env::read_secret(&get);
    env::scrub_environment();
    run(&addr, &get, secret?, cfg, handle).map(Some)
}

/// Takes ownership of the inherited socket `fd` (checked to be an open socket).
fn take_fd(fd: i32) -> Result<UnixStream> {
    // SAFETY: an all-zero `stat` is a valid value of this plain C struct.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: fstat only writes into the struct it is given; a bad fd is reported, not used.
    if unsafe { libc::fstat(fd, &mut st) } != 0 {
        return Err(boot(format!(
            "PMI_FD={fd}: not an open file descriptor ({})",
            std::io::Error::last_os_error()
        )));
    }
    if st.st_mode & libc::S_IFMT != libc::S_IFSOCK {
        return Err(boot(format!("PMI_FD={fd}: not a socket")));
    }
    if TAKEN.swap(true, Ordering::SeqCst) {
        return Err(boot(format!(
            "PMI_FD={fd}: this process already used its PMI connection (initialized twice?)"
        )));
    }
    // Children this process starts must not inherit the connection.
    // SAFETY: fd was just checked to be open; F_SETFD only changes its flags.
    unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) };
    // SAFETY: the descriptor is open, a socket, and claimed once per process (TAKEN).
    Ok(unsafe { UnixStream::from_raw_fd(fd) })
}

fn env_u32(get: &dyn Fn(&str) -> Option<String>, name: &str) -> Result<Option<u32>> {
    get(name)
        .map(|v| {
            v.trim()
                .parse()
                .map_err(|_| boot(format!("{name}={v:?} is not a non-negative integer")))
        })
        .transpose()
}

/// A connection to the process manager and what it said about this process.
struct Joined {
    kvs: Box<dyn Kvs>,
    /// The KVS name (PMI-1) or namespace (PMIx), for logs.
    name: String,
    rank: u32,
    size: u32,
    /// Rank on this host, when the process manager says.
    local_rank: Option<u32>,
    /// Ranks on this host, when the process manager says.
    local_size: Option<u32>,
}

/// Connects to the process manager and learns this process's rank, size and (where the
/// process manager says) its place on the host.
fn connect(addr: &PmiAddr, get: &dyn Fn(&str) -> Option<String>, cfg: &Config) -> Result<Joined> {
    let t = cfg.connect_timeout;
    let (mut c, rank, size) = match addr {
        PmiAddr::Fd(fd) => {
            let rank = env_u32(get, "PMI_RANK")?;
            let size = env_u32(get, "PMI_SIZE")?;
            let (Some(rank), Some(size)) = (rank, size) else {
                return Err(boot(format!(
                    "PMI_FD={fd} is set but PMI_RANK or PMI_SIZE is not"
                )));
            };
            if size == 0 || rank >= size {
                return Err(boot(format!(
                    "PMI_RANK={rank} is out of range for PMI_SIZE={size}"
                )));
            }
            (PmiClient::new(Conn::Unix(take_fd(*fd)?), t)?, rank, size)
        }
        PmiAddr::Port { hostport, id } => PmiClient::connect_port(hostport, *id, t)?,
        PmiAddr::Pmix { .. } => {
            if TAKEN.swap(true, Ordering::SeqCst) {
                return Err(boot(
                    "PMIx: this process already joined its job (initialized twice?)".into(),
                ));
            }
            let j = PmixClient::join(t)?;
            return Ok(Joined {
                name: j.client.namespace(),
                kvs: Box::new(j.client),
                rank: j.rank,
                size: j.size,
                local_rank: j.local_rank,
                local_size: j.local_size,
            });
        }
    };
    c.init()?;
    c.get_maxes()?;
    let kvsname = c.get_my_kvsname()?;
    let local_rank = match env_u32(get, "MPI_LOCALRANKID")? {
        Some(r) => Some(r),
        None => match env_u32(get, "PMI_LOCAL_RANK")? {
            Some(r) => Some(r),
            None => env_u32(get, "SLURM_LOCALID")?,
        },
    };
    Ok(Joined {
        name: kvsname.clone(),
        kvs: Box::new(SimpleKvs { client: c, kvsname }),
        rank,
        size,
        local_rank,
        local_size: env_u32(get, "MPI_LOCALNRANKS")?,
    })
}

/// The address other ranks reach a server bound at `bound` on.
fn published(bound: SocketAddr) -> String {
    if bound.ip().is_unspecified() {
        format!("{}:{}", hostname(), bound.port())
    } else {
        bound.to_string()
    }
}

fn hex_text(what: &str, key: &str, v: &str) -> Result<String> {
    hex_decode(v)
        .and_then(|b| String::from_utf8(b).ok())
        .ok_or_else(|| boot(format!("PMI {what}: {key}={v:?} is not hex-encoded text")))
}

/// Runs the exchange for the process manager at `addr` (see the module docs).
pub(crate) fn run(
    addr: &PmiAddr,
    get: &dyn Fn(&str) -> Option<String>,
    secret: Option<JobSecret>,
    cfg: &Config,
    handle: &tokio::runtime::Handle,
) -> Result<PmiBoot> {
    let Joined {
        kvs: mut c,
        name: kvs,
        rank,
        size,
        local_rank,
        local_size,
    } = connect(addr, get, cfg)?;
    tracing::debug!(rank, size, kvs, "PMI connected");
    if size == 1 {
        let launch = Launch {
            local_rank: 0,
            secret,
            ..Launch::singleton()
        };
        let session = PmiSession::new(c, kvs, rank);
        return Ok(PmiBoot {
            launch,
            server: None,
            session,
        });
    }
    let host = bind::hostname_from(get);
    // Without an explicit address rank 0 must know whether the ranks span several hosts before
    // it picks the rendezvous address: unless the process manager says every rank is local
    // (hydra's MPI_LOCALNRANKS, PMIx's local size), the host names go through the KVS and a
    // first barrier.
    let explicit = bind::explicit(cfg, get);
    let decide_span = explicit.is_none() && local_size != Some(size);
    if local_rank.is_none() || decide_span {
        c.put(&host_key(rank), &hex_encode(host.as_bytes()))?;
    }
    if decide_span {
        c.barrier()?;
    }
    let mut server = None;
    if rank == 0 {
        let ip = if decide_span {
            let mut one_host = true;
            for r in 1..size {
                let key = host_key(r);
                if hex_text("get", &key, &c.get(r, &key)?)? != host {
                    one_host = false;
                    break;
                }
            }
            bind::rendezvous_ip(one_host, &host)?
        } else {
            cfg.bind_addr
        };
        tracing::debug!(%ip, host, "PMI rank 0 hosts the rendezvous");
        let (s, word) = match &secret {
            Some(s) => (s.clone(), SECRET_FROM_FILE.to_string()),
            None => {
                let s = JobSecret::generate()?;
                let w = hex_encode(s.expose());
                (s, w)
            }
        };
        let srv = {
            let _guard = handle.enter();
            RendezvousServer::start(&s, SocketAddr::new(ip, 0), size, cfg)?
        };
        let rdv = published(srv.local_addr());
        c.put(KEY_RENDEZVOUS, &hex_encode(rdv.as_bytes()))?;
        c.put(KEY_SECRET, &word)?;
        server = Some((srv, rdv, s));
    }
    c.barrier()?;
    let (server, rendezvous, secret) = match server {
        Some((srv, rdv, s)) => (Some(srv), rdv, s),
        None => {
            let rdv = hex_text("get", KEY_RENDEZVOUS, &c.get(0, KEY_RENDEZVOUS)?)?;
            let word = c.get(0, KEY_SECRET)?;
            let s = match (word.as_str(), secret) {
                (SECRET_FROM_FILE, Some(s)) => s,
                (SECRET_FROM_FILE, None) => {
                    return Err(boot(format!(
                        "PMI rank {rank}: rank 0 has its own job secret (NEXAR_JOB_SECRET_FILE \
                         or NEXAR_JOB_SECRET) but this rank has none; give every rank the same"
                    )));
                }
                (_, Some(_)) => {
                    return Err(boot(format!(
                        "PMI rank {rank}: a job secret (NEXAR_JOB_SECRET_FILE or \
                         NEXAR_JOB_SECRET) is set here but not on rank 0; set it on every rank \
                         or on none"
                    )));
                }
                (hex, None) => hex_decode(hex)
                    .and_then(|b| <[u8; 32]>::try_from(b).ok())
                    .map(JobSecret::from_bytes)
                    .ok_or_else(|| {
                        boot(format!("PMI get: {KEY_SECRET} is not a hex 32-byte secret"))
                    })?,
            };
            (None, rdv, s)
        }
    };
    let local_rank = match local_rank {
        Some(r) => r,
        None => {
            let mut n = 0;
            for r in 0..rank {
                let key = host_key(r);
                if hex_text("get", &key, &c.get(r, &key)?)? == host {
                    n += 1;
                }
            }
            n
        }
    };
    let launch = Launch {
        rank,
        size,
        local_rank,
        rendezvous: Some(rendezvous),
        host_rendezvous: false,
        secret: Some(secret),
    };
    let session = PmiSession::new(c, kvs, rank);
    Ok(PmiBoot {
        launch,
        server,
        session,
    })
}
