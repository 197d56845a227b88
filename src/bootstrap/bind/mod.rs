//! Which address a rank binds when a scheduler started it (PMI, Open MPI, Slurm, torchrun) and
//! nobody named one.
//!
//! Rules, first match wins:
//!
//! 1. An explicit address always wins: `NEXAR_BIND_ADDR` (even `127.0.0.1`), or a
//!    [`Config::bind_addr`] set in code to anything but the default `127.0.0.1`.
//! 2. nexar's own launches (`NEXAR_RANK` set: `nexarrun`, by hand) keep the configured address;
//!    `nexarrun` sets `NEXAR_BIND_ADDR` itself for multi-host jobs.
//! 3. A world the scheduler says spans one host binds loopback (the fastest QUIC path, see the
//!    loopback MTU in `transport::quic::endpoint`): Open MPI with `OMPI_COMM_WORLD_LOCAL_SIZE`
//!    = `_SIZE`, Slurm with one host in `SLURM_STEP_NODELIST` (else `SLURM_STEP_NUM_NODES`,
//!    `SLURM_NNODES`), torchrun with `LOCAL_WORLD_SIZE` = `WORLD_SIZE` or a loopback
//!    `MASTER_ADDR`.
//! 4. Otherwise the rank binds the address this host uses to reach the rendezvous: a UDP socket
//!    is connected (no packet is sent) to the rendezvous address and its local address read.
//!    Under PMI this is always the rule for the QUIC endpoint, because rank 0 already chose the
//!    rendezvous address from the host names of every rank ([`rendezvous_ip`]): loopback when
//!    they all match, which then yields loopback here too.
//!
//! The chosen address is logged at debug level. [`endpoint_ip`] reads the process environment
//! when a world is established (a [`crate::bootstrap::Launch`] does not record which scheduler
//! started the process); the rules themselves are pure functions over a variable lookup.

use crate::config::Config;
use crate::error::{Error, ErrorKind, Result};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, UdpSocket};

type Get<'a> = &'a dyn Fn(&str) -> Option<String>;

/// How many hosts a scheduler says the world spans.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Span {
    /// Every rank runs on this host.
    OneHost,
    /// The ranks run on more than one host.
    Several,
    /// The scheduler does not say (PMI: rank 0 decides through the KVS).
    Unknown,
}

/// The address chosen for this rank's endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    /// The configured address (explicit, or not a scheduler launch).
    Configured(IpAddr),
    /// Loopback: the world spans one host.
    Loopback,
    /// The local address of the route toward this rendezvous address.
    Toward(SocketAddr),
}

/// The host name that decides which ranks share memory: `NEXAR_HOSTNAME` when set and not
/// blank (containers sharing one name, tests), else the system's host name.
pub fn hostname_from(get: Get<'_>) -> String {
    match get("NEXAR_HOSTNAME") {
        Some(h) if !h.trim().is_empty() => h.trim().to_string(),
        _ => system_hostname(),
    }
}

/// The system's host name (`gethostname`; empty if it cannot be read).
pub fn system_hostname() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is valid for its full length; gethostname NUL-terminates on success.
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    if rc != 0 {
        return String::new();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

/// The explicitly requested bind address, if any (rule 1).
pub fn explicit(cfg: &Config, get: Get<'_>) -> Option<IpAddr> {
    let default = Config::default().bind_addr;
    (cfg.bind_addr != default || get("NEXAR_BIND_ADDR").is_some()).then_some(cfg.bind_addr)
}

fn num(get: Get<'_>, name: &str) -> Option<u64> {
    get(name).and_then(|v| v.trim().parse().ok())
}

/// Compares a local size with the world size: equal is one host, smaller is several.
fn by_local_size(local: Option<u64>, size: Option<u64>) -> Span {
    match (local, size) {
        (Some(l), Some(s)) if l >= s => Span::OneHost,
        (Some(_), Some(_)) => Span::Several,
        _ => Span::Unknown,
    }
}

/// What the scheduler that started this process says about the world's hosts, or `None` when
/// no scheduler did (nexar's own variables, or a singleton). Same precedence as
/// [`crate::bootstrap`]'s detection; malformed values read as [`Span::Unknown`] (detection
/// itself reports them).
pub fn scheduler_span(get: Get<'_>) -> Option<Span> {
    if get("NEXAR_RANK").is_some() || get("NEXAR_SIZE").is_some() {
        return None;
    }
    if get("PMI_FD").is_some() || get("PMI_PORT").is_some() {
        return Some(Span::Unknown);
    }
    if get("OMPI_COMM_WORLD_RANK").is_some() {
        return Some(by_local_size(
            num(get, "OMPI_COMM_WORLD_LOCAL_SIZE"),
            num(get, "OMPI_COMM_WORLD_SIZE"),
        ));
    }
    if get("SLURM_PROCID").is_some() {
        let listed = get("SLURM_STEP_NODELIST")
            .and_then(|l| super::schedulers::expand_hostlist(l.trim()).ok())
            .map(|mut h| {
                h.sort();
                h.dedup();
                h.len() as u64
            });
        let nodes = listed
            .or_else(|| num(get, "SLURM_STEP_NUM_NODES"))
            .or_else(|| num(get, "SLURM_NNODES"));
        return Some(match nodes {
            Some(1) => Span::OneHost,
            Some(_) => Span::Several,
            None => Span::Unknown,
        });
    }
    if get("RANK").is_some() && get("WORLD_SIZE").is_some() {
        let by_size = by_local_size(num(get, "LOCAL_WORLD_SIZE"), num(get, "WORLD_SIZE"));
        if by_size != Span::Unknown {
            return Some(by_size);
        }
        let master = get("MASTER_ADDR").unwrap_or_default();
        let master = master.trim().trim_start_matches('[').trim_end_matches(']');
        let local =
            master == "localhost" || master.parse::<IpAddr>().is_ok_and(|a| a.is_loopback());
        return Some(if local { Span::OneHost } else { Span::Unknown });
    }
    None
}

/// Applies the rules of the module docs (pure): `explicit` from [`explicit`], `span` from
/// [`scheduler_span`], `rdv` the resolved rendezvous address.
pub fn choose(
    explicit: Option<IpAddr>,
    configured: IpAddr,
    span: Option<Span>,
    rdv: SocketAddr,
) -> Choice {
    match (explicit, span) {
        (Some(a), _) => Choice::Configured(a),
        (None, None) => Choice::Configured(configured),
        (None, Some(Span::OneHost)) => Choice::Loopback,
        (None, Some(_)) => Choice::Toward(rdv),
    }
}

/// Loopback of the same family as `like`.
pub fn loopback_like(like: IpAddr) -> IpAddr {
    match like {
        IpAddr::V4(_) => Ipv4Addr::LOCALHOST.into(),
        IpAddr::V6(_) => Ipv6Addr::LOCALHOST.into(),
    }
}

/// The local address of the route toward `target` (UDP connect: no packet is sent).
pub fn local_ip_toward(target: SocketAddr) -> std::io::Result<IpAddr> {
    let any: IpAddr = match target {
        SocketAddr::V4(_) => Ipv4Addr::UNSPECIFIED.into(),
        SocketAddr::V6(_) => Ipv6Addr::UNSPECIFIED.into(),
    };
    let s = UdpSocket::bind(SocketAddr::new(any, 0))?;
    s.connect(target)?;
    Ok(s.local_addr()?.ip())
}

/// The address this rank's endpoint binds, by the rules of the module docs, for a world whose
/// rendezvous is at `rdv`. Logged at debug level.
pub fn endpoint_ip(cfg: &Config, get: Get<'_>, rank: u32, rdv: SocketAddr) -> Result<IpAddr> {
    let span = scheduler_span(get);
    let choice = choose(explicit(cfg, get), cfg.bind_addr, span, rdv);
    let ip = match choice {
        Choice::Configured(a) => a,
        Choice::Loopback => loopback_like(rdv.ip()),
        Choice::Toward(t) => local_ip_toward(t).map_err(|e| {
            Error::new(
                ErrorKind::Bootstrap,
                format!(
                    "rank {rank}: cannot find this host's address toward the rendezvous {t}: {e}; \
                     set NEXAR_BIND_ADDR"
                ),
            )
        })?,
    };
    tracing::debug!(rank, %ip, ?span, ?choice, "endpoint bind address");
    Ok(ip)
}

/// Rank 0's rendezvous address under PMI when the ranks run on several hosts (pure): the first
/// non-loopback address its host name resolves to (IPv4 first), else the first non-loopback
/// address of an interface that is up (IPv4 first). `None` when there is neither.
pub fn routable_ip(resolved: &[IpAddr], interfaces: &[IpAddr]) -> Option<IpAddr> {
    let pick = |list: &[IpAddr]| {
        let usable = |a: &&IpAddr| !a.is_loopback() && !a.is_unspecified();
        list.iter()
            .filter(usable)
            .find(|a| a.is_ipv4())
            .or_else(|| list.iter().find(usable))
            .copied()
    };
    pick(resolved).or_else(|| pick(interfaces))
}

/// The addresses `host` resolves to (empty when it does not).
pub fn resolve_host(host: &str) -> Vec<IpAddr> {
    use std::net::ToSocketAddrs;
    (host, 0u16)
        .to_socket_addrs()
        .map(|it| it.map(|a| a.ip()).collect())
        .unwrap_or_default()
}

/// The addresses of this host's interfaces that are up (IPv4 and IPv6).
pub fn interface_ips() -> Vec<IpAddr> {
    let mut out = Vec::new();
    let mut head: *mut libc::ifaddrs = std::ptr::null_mut();
    // SAFETY: getifaddrs fills `head` with a list we free below with freeifaddrs.
    if unsafe { libc::getifaddrs(&mut head) } != 0 {
        return out;
    }
    let mut cur = head;
    while !cur.is_null() {
        // SAFETY: `cur` is a node of the list getifaddrs returned, not yet freed.
        let ifa = unsafe { &*cur };
        let up = ifa.ifa_flags & (libc::IFF_UP as libc::c_uint) != 0;
        if up && !ifa.ifa_addr.is_null() {
            // SAFETY: ifa_addr points at a sockaddr whose family says which struct it is.
            let family = i32::from(unsafe { (*ifa.ifa_addr).sa_family });
            if family == libc::AF_INET {
                // SAFETY: family AF_INET means a sockaddr_in.
                let sin = unsafe { &*(ifa.ifa_addr as *const libc::sockaddr_in) };
                out.push(IpAddr::V4(Ipv4Addr::from(u32::from_be(
                    sin.sin_addr.s_addr,
                ))));
            } else if family == libc::AF_INET6 {
                // SAFETY: family AF_INET6 means a sockaddr_in6.
                let sin6 = unsafe { &*(ifa.ifa_addr as *const libc::sockaddr_in6) };
                out.push(IpAddr::V6(Ipv6Addr::from(sin6.sin6_addr.s6_addr)));
            }
        }
        cur = ifa.ifa_next;
    }
    // SAFETY: `head` came from getifaddrs and is freed once.
    unsafe { libc::freeifaddrs(head) };
    out
}

/// Rank 0's rendezvous address under PMI with no explicit bind address: loopback when every
/// rank reported the same host name (`one_host`), else [`routable_ip`] of `host`.
pub fn rendezvous_ip(one_host: bool, host: &str) -> Result<IpAddr> {
    if one_host {
        return Ok(Ipv4Addr::LOCALHOST.into());
    }
    routable_ip(&resolve_host(host), &interface_ips()).ok_or_else(|| {
        Error::new(
            ErrorKind::Bootstrap,
            format!(
                "PMI rank 0: the ranks run on several hosts but host {host:?} has no \
                 non-loopback address to host the rendezvous on; set NEXAR_BIND_ADDR"
            ),
        )
    })
}

#[cfg(test)]
mod tests;
