//! Runtime configuration: defaults, a builder-style API, and the `NEXAR_*` environment variables.
//!
//! | variable | meaning | default |
//! |---|---|---|
//! | `NEXAR_TRANSPORT` | `auto` or `quic` (force QUIC between every pair) | `auto` |
//! | `NEXAR_THREADS` | engine runtime worker threads | 1 |
//! | `NEXAR_PEER_TIMEOUT_MS` | silence after which a peer is declared failed: QUIC's idle timeout (keep-alives at a third of it) and the shared-memory heartbeat limit (heartbeats at a tenth of it, from a background thread, so a rank busy computing still beats); 10 s leaves room for an overloaded host (a short `SIGSTOP` or scheduling stall is not a failure) while a frozen rank is still caught promptly; a rank that dies is detected much sooner (launcher notice, inbox lock, connection reset) | 10000 |
//! | `NEXAR_CONNECT_TIMEOUT_MS` | limit for rendezvous and connection set-up | 60000 |
//! | `NEXAR_MAX_MESSAGE` | largest single message in bytes | 1 TiB |
//! | `NEXAR_MAX_UNEXPECTED` | bytes of unmatched p2p messages buffered per sending peer; past it that peer's p2p traffic is not read until receives drain it (back-pressure: its sends queue, nothing errors or is lost; see `transport::budget`) | 64 MiB |
//! | `NEXAR_BIND_ADDR` | IP address the QUIC endpoint binds; always wins, even `127.0.0.1` (without it, ranks started by a scheduler across hosts pick a routable address: `bootstrap::bind`) | 127.0.0.1 |
//! | `NEXAR_HOSTNAME` | the host name that decides which ranks share memory (read by `bootstrap::hostname`): containers sharing one name, tests | the system's host name |
//! | `NEXAR_SHM_CALLER_PROGRESS` | `0`: blocking calls park and let the shared-memory progress thread deliver, instead of reading the rings on the calling thread | `1` |
//! | `NEXAR_BULK_LANE` | `tls`: frames of 64 KiB and more between ranks travel on an authenticated TLS-over-TCP connection beside QUIC; `quic`: on a QUIC stream | `tls` |
//! | `NEXAR_RDMA` | the RDMA bulk lane between hosts (cargo feature `rdma`, `docs/RDMA.md`): `auto` uses it when this host has an RDMA device and the peer agrees, else the TLS lane (the reason logged once per peer); `require` fails a connection that cannot use it, with the reason; `off` never tries. Data on the queue pair is neither encrypted nor authenticated per packet (as with MPI and NCCL on InfiniBand): only its set-up is, over the peer's authenticated QUIC connection. `require` in a build without the feature is refused | `auto` |
//! | `NEXAR_RMA` | `auto`: one-sided windows among ranks that share memory use it directly (loads, stores, cross-memory attach), other windows are served by active messages (`crate::rma`); `messages`: every window but `MPI_Win_allocate_shared`'s is served by active messages, as between hosts (tests, and hosts where shared windows cannot be mapped) | `auto` |
//! | `NEXAR_SHM_CMA` | `0`: never copy large shared-memory messages with `process_vm_readv` (use the pipelined ring path) | `1` |
//! | `NEXAR_ALLREDUCE_DIRECT_MIN` | smallest allreduce in bytes for the direct shared-memory algorithm (set it alike on every rank) | 1 MiB |
//! | `NEXAR_ALLREDUCE_HUGEPAGES` | `0`: do not ask for 2 MiB pages on buffers the direct allreduce exposes to its peers | `1` |
//! | `NEXAR_TIMEOUT` | seconds after which an incomplete collective fails with `Timeout` (a rank skipped it or is stuck); unset or 0: no limit | unset |
//! | `NEXAR_SHM_SPIN_US` | microseconds a waiting thread busy-polls shared memory before yielding (read by `transport::shm::spin_limit`) | 10, or 0 when the host's ranks outnumber its cores |
//! | `NEXAR_NCCL` | builds with the `nccl` feature: `auto` lets a communicator's first allreduce / bcast / allgather / reduce_scatter set up NCCL among each host's ranks and route those collectives through it when every rank can (`device::nccl::auto`); `off` never sets it up (no extra round, the staged path as without the feature). Set it alike on every rank; read only by `nccl` builds | `auto` |
//! | `NEXAR_NCCL_INIT_TIMEOUT_MS` | builds with the `nccl` feature: deadline for NCCL's communicator set-up (`ncclCommInitRankConfig`, non-blocking); past it the set-up is aborted and every rank falls back to the staged path | `NEXAR_CONNECT_TIMEOUT_MS` |
//! | `NEXAR_CHAOS` | testing aid: `seed=7,loss=0.05,dup=0.01,reorder=0.05,delay_ms=2` makes every QUIC socket drop, duplicate and reorder outgoing datagrams with a seeded generator (`transport::quic::chaos`); off costs nothing | unset |

use crate::error::{Error, ErrorKind, Result};
use std::net::IpAddr;
use std::time::Duration;

/// Which transport carries traffic between ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransportChoice {
    /// The best available per pair.
    Auto,
    /// QUIC for every pair, even on one host.
    Quic,
}

/// Which connection carries large frames between ranks on the network path (see
/// `transport::quic`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BulkLane {
    /// TLS 1.3 over TCP, same certificates as QUIC (several times QUIC's throughput).
    Tls,
    /// A QUIC stream of the peer's connection.
    Quic,
}

/// Whether communicators may route their collectives through NCCL (builds with the `nccl`
/// feature; see `device::nccl::auto`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NcclMode {
    /// Set up NCCL on a communicator's first routable collective when every rank can run it.
    Auto,
    /// Never set up NCCL: collectives take the staged path with no extra cost.
    Off,
}

/// Whether large frames between hosts may travel on an RDMA queue pair (see
/// `transport::rdma` and `docs/RDMA.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RdmaMode {
    /// Use it when this host has a device and the peer agrees; otherwise the TLS or QUIC bulk
    /// lane, with the reason logged once per peer.
    Auto,
    /// Never try.
    Off,
    /// A bulk lane that cannot use RDMA fails its connection with the reason.
    Require,
}

impl RdmaMode {
    /// Parses a `NEXAR_RDMA` value. `require` is refused when this build lacks the `rdma`
    /// feature (it could never be met).
    pub fn parse(v: &str) -> Result<Self> {
        match v {
            "auto" | "" => Ok(Self::Auto),
            "off" => Ok(Self::Off),
            "require" if cfg!(feature = "rdma") => Ok(Self::Require),
            "require" => Err(Error::new(
                ErrorKind::Bootstrap,
                "NEXAR_RDMA=require: nexar was built without the rdma feature",
            )),
            other => Err(Error::new(
                ErrorKind::Bootstrap,
                format!("NEXAR_RDMA={other:?}: expected auto, off or require"),
            )),
        }
    }
}

/// Engine configuration.
#[derive(Debug, Clone)]
pub struct Config {
    /// Transport selection.
    pub transport: TransportChoice,
    /// Worker threads of the engine's tokio runtime.
    pub threads: usize,
    /// A peer silent for this long is declared failed (QUIC idle timeout, shared-memory
    /// heartbeat limit).
    pub peer_timeout: Duration,
    /// Limit for rendezvous and connection establishment.
    pub connect_timeout: Duration,
    /// Largest single message (frame payload) accepted or sent.
    pub max_message: u64,
    /// Bytes of unmatched point-to-point messages buffered per sending peer; past it that
    /// peer's p2p traffic is not read until receives drain it (`transport::budget`).
    pub max_unexpected: u64,
    /// Address the QUIC endpoint binds.
    pub bind_addr: IpAddr,
    /// Shared memory may copy large messages directly out of the sender (`process_vm_readv`).
    pub shm_cma: bool,
    /// The connection that carries large frames on the network path.
    pub bulk_lane: BulkLane,
    /// Whether large frames between hosts may use an RDMA queue pair instead.
    pub rdma: RdmaMode,
    /// Blocking calls read shared-memory rings on the calling thread.
    pub shm_caller_progress: bool,
    /// A collective not complete after this long fails with [`ErrorKind::Timeout`] (a rank
    /// skipped it or is stuck); `None` (the default) waits as long as the peers live.
    pub coll_timeout: Option<Duration>,
    /// This process handles errors itself (they are returned to it), so a launcher should
    /// leave it running when another rank dies: it is told of the death and may recover.
    /// `true` (the default) for the Rust and C APIs; the MPI shim starts with `false`
    /// (`MPI_ERRORS_ARE_FATAL`). Changed later with `Context::set_returns_errors`.
    pub returns_errors: bool,
    /// Strict collective checking (`NEXAR_STRICT_COLLECTIVES=1`): a rooted collective or scan
    /// on the frame paths ends with a confirmation round (a barrier carrying the call's
    /// fingerprint), so a rank that would finish without hearing from every member (a bcast
    /// root, a reduce leaf) also fails when members disagree about the call, instead of
    /// returning success and failing at its next call. Off by default: it costs one barrier
    /// per such call (collectives on the shared flag area check every member anyway).
    pub strict_collectives: bool,
    /// One-sided windows (but shared ones) are served by active messages even among ranks that
    /// share memory (`NEXAR_RMA=messages`), as they are between hosts.
    pub rma_messages: bool,
    /// NCCL routing of collectives (`NEXAR_NCCL`; only `nccl` builds read it).
    pub nccl: NcclMode,
    /// Deadline for NCCL communicator set-up (`NEXAR_NCCL_INIT_TIMEOUT_MS`); `None`: the
    /// connect timeout.
    pub nccl_init_timeout: Option<Duration>,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            transport: TransportChoice::Auto,
            threads: 1,
            peer_timeout: Duration::from_secs(10),
            connect_timeout: Duration::from_secs(60),
            // A bound on what a header may claim, not a reservation (receivers grow buffers
            // as bytes arrive): MPI programs send messages of several GiB.
            max_message: 1 << 40,
            max_unexpected: crate::transport::budget::DEFAULT_PER_PEER,
            bind_addr: IpAddr::from([127, 0, 0, 1]),
            shm_cma: true,
            shm_caller_progress: true,
            coll_timeout: None,
            bulk_lane: BulkLane::Tls,
            rdma: RdmaMode::Auto,
            returns_errors: true,
            strict_collectives: false,
            rma_messages: false,
            nccl: NcclMode::Auto,
            nccl_init_timeout: None,
        }
    }
}

fn parse<T: std::str::FromStr>(name: &str) -> Result<Option<T>> {
    match std::env::var(name) {
        Ok(v) => v.trim().parse().map(Some).map_err(|_| {
            Error::new(
                ErrorKind::Bootstrap,
                format!("{name}={v:?} is not a valid value"),
            )
        }),
        Err(_) => Ok(None),
    }
}

impl Config {
    /// Defaults overridden by any `NEXAR_*` variables that are set. A malformed value is an
    /// error naming the variable, never silently ignored.
    pub fn from_env() -> Result<Self> {
        let mut c = Self::default();
        if let Some(t) = parse::<String>("NEXAR_TRANSPORT")? {
            c.transport = match t.as_str() {
                "auto" | "" => TransportChoice::Auto,
                "quic" => TransportChoice::Quic,
                other => {
                    return Err(Error::new(
                        ErrorKind::Bootstrap,
                        format!("NEXAR_TRANSPORT={other:?}: expected auto or quic"),
                    ));
                }
            };
        }
        if let Some(n) = parse::<usize>("NEXAR_THREADS")? {
            c.threads = n.max(1);
        }
        if let Some(ms) = parse::<u64>("NEXAR_PEER_TIMEOUT_MS")? {
            c.peer_timeout = Duration::from_millis(ms.max(100));
        }
        if let Some(ms) = parse::<u64>("NEXAR_CONNECT_TIMEOUT_MS")? {
            c.connect_timeout = Duration::from_millis(ms.max(100));
        }
        if let Some(n) = parse::<u64>("NEXAR_MAX_MESSAGE")? {
            c.max_message = n;
        }
        if let Some(n) = parse::<u64>("NEXAR_MAX_UNEXPECTED")? {
            c.max_unexpected = n;
        }
        if let Some(a) = parse::<IpAddr>("NEXAR_BIND_ADDR")? {
            c.bind_addr = a;
        }
        if let Some(v) = parse::<String>("NEXAR_BULK_LANE")? {
            c.bulk_lane = match v.as_str() {
                "tls" | "" => BulkLane::Tls,
                "quic" => BulkLane::Quic,
                other => {
                    return Err(Error::new(
                        ErrorKind::Bootstrap,
                        format!("NEXAR_BULK_LANE={other:?}: expected tls or quic"),
                    ));
                }
            };
        }
        if let Some(v) = parse::<String>("NEXAR_RDMA")? {
            c.rdma = RdmaMode::parse(&v)?;
        }
        if let Some(v) = parse::<u8>("NEXAR_SHM_CMA")? {
            c.shm_cma = v != 0;
        }
        if let Some(v) = parse::<u8>("NEXAR_SHM_CALLER_PROGRESS")? {
            c.shm_caller_progress = v != 0;
        }
        if let Some(v) = parse::<String>("NEXAR_RMA")? {
            c.rma_messages = match v.as_str() {
                "auto" | "" => false,
                "messages" => true,
                other => {
                    return Err(Error::new(
                        ErrorKind::Bootstrap,
                        format!("NEXAR_RMA={other:?}: expected auto or messages"),
                    ));
                }
            };
        }
        if let Some(v) = parse::<u8>("NEXAR_STRICT_COLLECTIVES")? {
            c.strict_collectives = v != 0;
        }
        if let Some(secs) = parse::<f64>("NEXAR_TIMEOUT")? {
            c.coll_timeout = Duration::try_from_secs_f64(secs)
                .ok()
                .filter(|d| !d.is_zero());
        }
        // Only `nccl` builds read these, so other builds behave exactly as before.
        #[cfg(feature = "nccl")]
        {
            if let Some(v) = parse::<String>("NEXAR_NCCL")? {
                c.nccl = match v.as_str() {
                    "auto" | "" => NcclMode::Auto,
                    "off" => NcclMode::Off,
                    other => {
                        return Err(Error::new(
                            ErrorKind::Bootstrap,
                            format!("NEXAR_NCCL={other:?}: expected auto or off"),
                        ));
                    }
                };
            }
            if let Some(ms) = parse::<u64>("NEXAR_NCCL_INIT_TIMEOUT_MS")? {
                c.nccl_init_timeout = Some(Duration::from_millis(ms.max(1)));
            }
        }
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::RdmaMode;

    #[test]
    fn nexar_rdma_values() {
        assert_eq!(RdmaMode::parse("auto").unwrap(), RdmaMode::Auto);
        assert_eq!(RdmaMode::parse("").unwrap(), RdmaMode::Auto);
        assert_eq!(RdmaMode::parse("off").unwrap(), RdmaMode::Off);
        let bad = RdmaMode::parse("yes").unwrap_err();
        assert!(bad.message().contains("NEXAR_RDMA=\"yes\""), "{bad}");
        let req = RdmaMode::parse("require");
        if cfg!(feature = "rdma") {
            assert_eq!(req.unwrap(), RdmaMode::Require);
        } else {
            let e = req.unwrap_err();
            assert!(
                e.message().contains("built without the rdma feature"),
                "{e}"
            );
        }
    }
}
