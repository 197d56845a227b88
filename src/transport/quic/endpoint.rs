//! The UDP socket and quinn endpoint of a process, and the tuned QUIC transport parameters.
//!
//! quinn's defaults are tuned for the Internet, not for a cluster: 208 KiB socket buffers lose
//! packets on loopback, and a 1.25 MB stream window caps a single stream's throughput. These
//! settings trade memory per connection for bandwidth.

use crate::config::Config;
use crate::error::{Error, ErrorKind, Result};
use quinn::{IdleTimeout, TransportConfig, VarInt};
use socket2::{Domain, Protocol, Socket, Type};
use std::net::{IpAddr, SocketAddr};
use std::os::fd::AsRawFd;
use std::sync::Arc;
use std::time::Duration;

/// Requested kernel socket buffer size (send and receive).
pub const SOCKET_BUFFER: usize = 8 << 20;
/// Flow-control window of one stream.
pub const STREAM_WINDOW: u32 = 32 << 20;
/// Flow-control window of a whole connection (receive and send). Three stream windows: the two
/// p2p streams may sit full while their sender is over its unexpected-message budget
/// (`transport::budget`) and collective traffic still has a window of its own.
pub const CONNECTION_WINDOW: u32 = 3 * STREAM_WINDOW;
/// Unidirectional streams a peer may open at once (we use four per direction).
const MAX_UNI_STREAMS: u32 = 16;
/// Largest keep-alive interval; shorter when the peer timeout is short.
const MAX_KEEP_ALIVE: Duration = Duration::from_secs(1);

fn io_err(what: &str) -> impl FnOnce(std::io::Error) -> Error + '_ {
    move |e| Error::new(ErrorKind::Transport, format!("{what}: {e}"))
}

/// Sets a socket buffer, falling back to the privileged `*BUFFORCE` option when the
/// administrative limit (`net.core.rmem_max`) cut the request short. Never fails: a smaller
/// buffer only costs performance.
fn grow_buffer(sock: &Socket, recv: bool) {
    let want = SOCKET_BUFFER;
    let _ = if recv {
        sock.set_recv_buffer_size(want)
    } else {
        sock.set_send_buffer_size(want)
    };
    let got = if recv {
        sock.recv_buffer_size()
    } else {
        sock.send_buffer_size()
    }
    .unwrap_or(0);
    // Linux reports twice the requested value (bookkeeping overhead included).
    if got < want {
        let opt = if recv {
            libc::SO_RCVBUFFORCE
        } else {
            libc::SO_SNDBUFFORCE
        };
        let val = want as libc::c_int;
        // SAFETY: `val` outlives the call and its size is passed; the fd is a valid socket.
        let _ = unsafe {
            libc::setsockopt(
                sock.as_raw_fd(),
                libc::SOL_SOCKET,
                opt,
                (&val as *const libc::c_int).cast(),
                std::mem::size_of::<libc::c_int>() as libc::socklen_t,
            )
        };
    }
    tracing::debug!(
        recv,
        requested = want,
        effective = if recv {
            sock.recv_buffer_size()
        } else {
            sock.send_buffer_size()
        }
        .unwrap_or(0),
        "UDP socket buffer"
    );
}

/// Binds a UDP socket on `addr` with large kernel buffers, ready for quinn.
pub fn bind_socket(addr: SocketAddr) -> Result<std::net::UdpSocket> {
    let sock = Socket::new(Domain::for_address(addr), Type::DGRAM, Some(Protocol::UDP))
        .map_err(io_err("cannot create a UDP socket"))?;
    grow_buffer(&sock, true);
    grow_buffer(&sock, false);
    sock.bind(&addr.into())
        .map_err(io_err(&format!("cannot bind UDP {addr}")))?;
    sock.set_nonblocking(true)
        .map_err(io_err("cannot make the UDP socket non-blocking"))?;
    Ok(sock.into())
}

/// Transport parameters for connections of this job. `peer_bidi_streams` is how many
/// bidirectional streams the peer may open (0 between ranks, 1 towards a rendezvous server).
pub fn transport_config(cfg: &Config, peer_bidi_streams: u32) -> Result<Arc<TransportConfig>> {
    let mut t = TransportConfig::default();
    t.max_concurrent_uni_streams(VarInt::from_u32(MAX_UNI_STREAMS))
        .max_concurrent_bidi_streams(VarInt::from_u32(peer_bidi_streams))
        .stream_receive_window(VarInt::from_u32(STREAM_WINDOW))
        .receive_window(VarInt::from_u32(CONNECTION_WINDOW))
        .send_window(u64::from(CONNECTION_WINDOW))
        .keep_alive_interval(Some(keep_alive(cfg.peer_timeout)))
        .max_idle_timeout(Some(IdleTimeout::try_from(cfg.peer_timeout).map_err(
            |_| {
                Error::invalid(format!(
                    "peer timeout {:?} is too large for QUIC",
                    cfg.peer_timeout
                ))
            },
        )?));
    if cfg.bind_addr.is_loopback() {
        // Every peer is on this host. Loopback's MTU is 64 KiB, and bigger packets cut the
        // per-packet costs (crypto calls, syscalls, ACKs): measured 2-2.5x the throughput of
        // 1452-byte packets. No discovery needed, and none wanted: see LOOPBACK_MTU.
        t.initial_mtu(LOOPBACK_MTU)
            .min_mtu(LOOPBACK_MTU)
            .mtu_discovery_config(None);
    }
    Ok(Arc::new(t))
}

/// UDP payload size on loopback. quinn hands the kernel up to 10 packets per GSO send and the
/// kernel refuses a GSO send over 64 KiB, so a packet must stay under 6553 bytes: with 9000-byte
/// packets every batched send fails and throughput collapses to a few MB/s.
pub const LOOPBACK_MTU: u16 = 6500;

/// The keep-alive interval for a peer timeout: at most one second, and at least three
/// keep-alives per timeout so a live peer is never declared dead.
pub fn keep_alive(peer_timeout: Duration) -> Duration {
    MAX_KEEP_ALIVE
        .min(peer_timeout / 3)
        .max(Duration::from_millis(10))
}

/// Creates a quinn endpoint on `ip:port` (port 0: any) that accepts connections with
/// `server_config`. On a loopback address it accepts [`LOOPBACK_MTU`]-sized UDP payloads. Must
/// be called inside a tokio runtime.
pub fn make_endpoint(
    ip: IpAddr,
    port: u16,
    server_config: Option<quinn::ServerConfig>,
) -> Result<quinn::Endpoint> {
    let mut ep_cfg = quinn::EndpointConfig::default();
    if ip.is_loopback() {
        ep_cfg
            .max_udp_payload_size(LOOPBACK_MTU)
            .map_err(|e| Error::new(ErrorKind::Internal, format!("endpoint config: {e}")))?;
    }
    let socket = bind_socket(SocketAddr::new(ip, port))?;
    let runtime = quinn::default_runtime().ok_or_else(|| {
        Error::new(
            ErrorKind::Internal,
            "the QUIC endpoint must be created inside a tokio runtime",
        )
    })?;
    // NEXAR_CHAOS (testing only): a socket that mistreats datagrams; unset, the plain one.
    if let Some(spec) = super::chaos::ChaosSpec::from_env()? {
        let plain = runtime
            .wrap_udp_socket(socket)
            .map_err(io_err("cannot register the UDP socket"))?;
        let handle = tokio::runtime::Handle::try_current().map_err(|_| {
            Error::new(
                ErrorKind::Internal,
                "the QUIC endpoint must be created inside a tokio runtime",
            )
        })?;
        let chaos = super::chaos::ChaosSocket::wrap(plain, spec, handle);
        return quinn::Endpoint::new_with_abstract_socket(ep_cfg, server_config, chaos, runtime)
            .map_err(io_err("cannot create the QUIC endpoint"));
    }
    quinn::Endpoint::new(ep_cfg, server_config, socket, runtime)
        .map_err(io_err("cannot create the QUIC endpoint"))
}
