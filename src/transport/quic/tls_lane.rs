//! The TLS-over-TCP bulk lane: set-up and authentication. Frame I/O is in `tls_stream.rs`.
//!
//! Each rank listens on TCP at the same IP address and port number as its QUIC (UDP) endpoint,
//! so peers find it without any rendezvous change. A rank's writer to a peer dials one TLS
//! connection to it and sends only its bulk frames there (one connection per ordered pair, used
//! one way). TLS 1.3 with mutual authentication, the job CA as the only root, no resumption and
//! no 0-RTT ([`Credentials::bulk_tls_server_config`]). The dialer checks the server certificate
//! names the rank it wants; the acceptor reads the `Hello` that opens the stream and checks the
//! client certificate names the rank it claims, exactly as on QUIC (`conn.rs`).
//!
//! When the listener cannot bind, or dialing a peer fails, the reason is logged and the QUIC
//! bulk stream carries the large frames instead.

use super::conn::hello_peer;
use super::{Inner, tls_stream};
use crate::error::{Error, ErrorKind, Result};
use crate::security::Credentials;
use crate::security::verify::verify_cert_name;
use parking_lot::Mutex;
use rustls::pki_types::{CertificateDer, ServerName};
use socket2::{Domain, Protocol, Socket, Type};
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::io::BufReader;
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;
use tokio::time::timeout;
use tokio_rustls::{TlsAcceptor, TlsConnector};

/// The dialing side's stream.
pub(super) type ClientStream = tokio_rustls::client::TlsStream<TcpStream>;
/// The accepting side's stream. rustls reads at most 4 KiB per call; the buffer under it turns
/// that into one system call per [`READ_BUFFER`] bytes (measured: 10-25% less CPU per byte).
pub(super) type ServerStream = tokio_rustls::server::TlsStream<BufReader<TcpStream>>;

/// User-space read buffer under the accepting side's TLS.
const READ_BUFFER: usize = 1 << 20;
/// rustls's limit for encrypted data waiting to be written (default 64 KiB): larger `writev`s.
const SEND_BUFFER_LIMIT: usize = 1 << 20;

/// Pending connections the listener queues.
const BACKLOG: i32 = 128;
/// Longest wait for a peer's TCP connect and TLS handshake (at most the connect timeout). The
/// peer already answered on QUIC, so this is quick unless TCP is filtered, and meanwhile its
/// large frames wait: give up early and fall back to QUIC.
const DIAL_LIMIT: std::time::Duration = std::time::Duration::from_secs(10);

/// The TLS bulk lane of one rank: its TLS configurations and its listener task.
pub(super) struct TlsLane {
    acceptor: TlsAcceptor,
    connector: TlsConnector,
    listener: Mutex<Option<JoinHandle<()>>>,
}

impl TlsLane {
    /// Builds the TLS configurations and binds a TCP listener on `addr` (the QUIC endpoint's
    /// address). The listener is started by [`Self::start`].
    pub(super) fn bind(creds: &Credentials, addr: SocketAddr) -> Result<(Self, TcpListener)> {
        let acceptor = TlsAcceptor::from(Arc::new(creds.bulk_tls_server_config()?));
        let connector = TlsConnector::from(Arc::new(creds.bulk_tls_client_config()?));
        let io = |what: &'static str| {
            move |e: std::io::Error| {
                Error::new(ErrorKind::Transport, format!("{what} TCP {addr}: {e}"))
            }
        };
        let sock = Socket::new(Domain::for_address(addr), Type::STREAM, Some(Protocol::TCP))
            .map_err(io("cannot create a socket for"))?;
        // A listener of an earlier job may have left connections in TIME_WAIT on this port.
        sock.set_reuse_address(true)
            .map_err(io("cannot set SO_REUSEADDR on"))?;
        sock.bind(&addr.into()).map_err(io("cannot bind"))?;
        sock.listen(BACKLOG).map_err(io("cannot listen on"))?;
        sock.set_nonblocking(true)
            .map_err(io("cannot make non-blocking"))?;
        let listener = TcpListener::from_std(sock.into()).map_err(io("cannot register"))?;
        let lane = Self {
            acceptor,
            connector,
            listener: Mutex::new(None),
        };
        Ok((lane, listener))
    }

    /// Starts accepting bulk connections on `listener`.
    pub(super) fn start(inner: &Arc<Inner>, listener: TcpListener) {
        if let Some(lane) = &inner.tls {
            let task = inner.runtime.spawn(accept_loop(inner.clone(), listener));
            *lane.listener.lock() = Some(task);
        }
    }

    /// Stops accepting (connections already accepted keep being read).
    pub(super) fn stop(&self) {
        if let Some(task) = self.listener.lock().take() {
            task.abort();
        }
    }
}

async fn accept_loop(inner: Arc<Inner>, listener: TcpListener) {
    loop {
        match listener.accept().await {
            Ok((tcp, remote)) => {
                inner
                    .runtime
                    .spawn(handle_incoming(inner.clone(), tcp, remote));
            }
            Err(e) => {
                // Out of descriptors and the like: wait a little instead of spinning.
                tracing::warn!(rank = inner.rank, error = %e, "TLS bulk lane: accept failed");
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
        }
    }
}

async fn handle_incoming(inner: Arc<Inner>, tcp: TcpStream, remote: SocketAddr) {
    let _ = tcp.set_nodelay(true);
    let auth = timeout(inner.connect_timeout, authenticate(&inner, tcp)).await;
    let (peer, stream) = match auth {
        Ok(Ok(ok)) => ok,
        Ok(Err(reason)) => {
            tracing::error!(rank = inner.rank, %remote, %reason, "TLS bulk lane: rejected a connection");
            return;
        }
        Err(_) => {
            tracing::error!(rank = inner.rank, %remote, "TLS bulk lane: no handshake and Hello within {:?}", inner.connect_timeout);
            return;
        }
    };
    tracing::debug!(rank = inner.rank, peer, %remote, "TLS bulk lane accepted");
    tls_stream::read_frames(inner, peer, stream, tls_stream::BulkKind::Tls).await;
}

/// Runs the TLS handshake (the client certificate must chain to the job CA), reads the `Hello`
/// and checks the certificate names the rank it claims.
async fn authenticate(inner: &Inner, tcp: TcpStream) -> Result<(u32, ServerStream), String> {
    let lane = inner.tls.as_ref().ok_or("the TLS bulk lane is off")?;
    let mut stream = lane
        .acceptor
        .accept(BufReader::with_capacity(READ_BUFFER, tcp))
        .await
        .map_err(|e| format!("TLS handshake failed: {e}"))?;
    let cert = first_cert(stream.get_ref().1.peer_certificates())?;
    // A Hello has no payload: limit 0 rejects anything longer before reading it.
    let header = match tls_stream::read_header(&mut stream, 0).await {
        Ok(Some(h)) => h,
        Ok(None) => return Err("stream ended before its Hello".into()),
        Err(m) => return Err(format!("bad Hello: {m}")),
    };
    let peer = hello_peer(inner, &header)?;
    verify_cert_name(&cert, &inner.creds.rank_name(peer))
        .map_err(|e| format!("Hello claims rank {peer}: {}", e.message()))?;
    // A peer that already said goodbye may still open its lane (it counts in the goodbye);
    // one declared failed may not come back.
    if inner.peers.is_lost(peer) {
        return Err(format!("rank {peer} was declared failed"));
    }
    Ok((peer, stream))
}

fn first_cert(
    chain: Option<&[CertificateDer<'static>]>,
) -> Result<CertificateDer<'static>, String> {
    chain
        .and_then(|c| c.first())
        .cloned()
        .ok_or_else(|| "the peer presented no certificate".to_string())
}

/// Dials `peer`'s bulk lane: TCP to the port of its QUIC endpoint, TLS checking the server
/// certificate names `peer`, then the `Hello`.
pub(super) async fn connect(inner: &Inner, peer: u32) -> Result<ClientStream, String> {
    let lane = inner.tls.as_ref().ok_or("the TLS bulk lane is off")?;
    let addr = inner
        .addr_of(peer)
        .ok_or_else(|| format!("no address is known for rank {peer}"))?;
    let name = inner.creds.rank_name(peer);
    let server_name =
        ServerName::try_from(name.clone()).map_err(|e| format!("bad server name {name}: {e}"))?;
    let dial = async {
        let tcp = TcpStream::connect(addr)
            .await
            .map_err(|e| format!("cannot connect to TCP {addr}: {e}"))?;
        let _ = tcp.set_nodelay(true);
        lane.connector
            .connect(server_name, tcp)
            .await
            .map_err(|e| format!("TLS handshake with {addr} failed: {e}"))
    };
    let limit = inner.connect_timeout.min(DIAL_LIMIT);
    let mut stream = timeout(limit, dial)
        .await
        .map_err(|_| format!("connecting to TCP {addr} timed out after {limit:?}"))??;
    // rustls checked the name already; check again so a misconfiguration cannot skip it.
    let cert = first_cert(stream.get_ref().1.peer_certificates())?;
    verify_cert_name(&cert, &name).map_err(|e| format!("{addr}: {}", e.message()))?;
    stream.get_mut().1.set_buffer_limit(Some(SEND_BUFFER_LIMIT));
    tls_stream::write_hello(&mut stream, inner.rank)
        .await
        .map_err(|e| format!("cannot send the Hello to {addr}: {e}"))?;
    Ok(stream)
}
