//! QUIC transport (quinn + rustls): one connection per peer pair, separate streams for small and
//! bulk traffic, and beside it a TLS-over-TCP lane for bulk traffic.
//!
//! * One quinn endpoint per rank, with large socket buffers and flow-control windows
//!   ([`endpoint`]).
//! * Connections are made lazily, on the first frame for a peer. When two ranks dial each other
//!   at once there may be two connections for the pair: every authenticated connection is read,
//!   frames go out on one. A connection the peer opened is reused for sending when it exists.
//! * Four long-lived unidirectional streams per direction (`lanes.rs`): a control lane for
//!   frames under [`BULK_THRESHOLD`] bytes and a bulk lane, so small messages never queue behind
//!   big ones, each twice: once for point-to-point messages and once for everything else, so a
//!   receiver can stop reading a flooding sender's p2p traffic (`transport::budget`) without
//!   holding up collectives. `send` never blocks: it pushes into an unbounded queue per lane.
//! * The bulk lane runs over TLS 1.3 on TCP by default (`tls_lane.rs`, `tls_stream.rs`;
//!   `NEXAR_BULK_LANE=quic` keeps it on a QUIC stream). Each rank listens on TCP at the IP and
//!   port number of its UDP endpoint, so no rendezvous change is needed; a writer dials one TLS
//!   connection per ordered pair and bulk lane, once the lane's first frame is queued (never,
//!   for peers that only exchange small frames), authenticated with the same per-rank certificates and checks
//!   as QUIC, frames encoded the same way. If the listener cannot bind or a peer cannot be
//!   dialed, the reason is logged and the QUIC bulk stream is used. Each bulk lane counts as one
//!   of a goodbye's `LANE_COUNT` streams whichever connection carries it; a TLS lane
//!   that ends without a `close_notify` reports its peer lost (once, like QUIC).
//! * Why TLS over TCP (decided by measurement, `examples/bulk_lanes.rs`: 16 MiB frames one way
//!   on 127.0.0.1, one runtime thread, medians of 5 rounds on a shared 2-core VM): the
//!   transport moves 0.62 GB/s (0.88 GB per CPU-second) with the QUIC bulk lane and 1.32 GB/s
//!   (1.46 GB per CPU-second) with the TLS lane. quinn does packetization, acknowledgements and
//!   per-packet crypto in user space and a receiver reassembles each frame from packet-sized
//!   chunks; TCP leaves segmentation and acknowledgements to the kernel, TLS encrypts 16 KiB
//!   records, and the reader fills one recycled buffer per frame (`recv_pool.rs`). QUIC knobs
//!   did not close the gap: GSO off halves a quinn stream's throughput, 1452-byte packets cut
//!   it to a third (hence `LOOPBACK_MTU`), BBR and NewReno are no better than Cubic. Figures:
//!   `bench/README.md`, "The network path".
//! * Every stream starts with a `Hello` frame naming the sender's rank. The acceptor checks the
//!   client certificate against that rank before reading anything else (`conn.rs`); every later
//!   frame's `src` must match it, or the connection is closed.
//! * A connection lost without a `Goodbye` (error, idle timeout, protocol violation) reports the
//!   peer to [`FrameSink::on_peer_lost`] exactly once; sends to it then fail with
//!   [`ErrorKind::ProcFailed`]. A malformed frame (bad header, unknown kind, length over
//!   `max_message`, a `src` other than the certificate's, a truncated frame) is logged, closes
//!   only that connection (code [`codes::PROTOCOL`]; a TLS lane is dropped) and reports the peer
//!   lost with "sent a malformed frame: `<reason>`". No payload buffer larger than
//!   [`crate::wire::PREALLOC_LIMIT`] is reserved before its bytes arrive.
//! * `NEXAR_CHAOS` (testing only, `chaos.rs`) puts a seeded datagram mangler under the socket.
//!
//! `Hello` and `Goodbye` frames are consumed by the transport and never reach the sink. A
//! `Goodbye` carries the ranks its sender knew had failed ([`FrameSink::known_failures`]; the
//! shared-memory goodbye does the same), handed to [`FrameSink::on_failures_reported`]: a rank
//! that leaves because of a failure tells the peers that could not see it yet. A frame sent to
//! this rank itself is handed to its own sink at once.
//!
//! * With the cargo feature `rdma`, a bulk lane between hosts goes over an RDMA queue pair when
//!   both sides have a device (`rdma_lane.rs`, `transport::rdma`, `NEXAR_RDMA`, `docs/RDMA.md`),
//!   set up over a bidirectional QUIC stream; otherwise the reason is logged once per peer and
//!   the TLS or QUIC lane is used.
//!
//! [`Transport::stats`] has three entries: `"quic"` (frames on QUIC streams), `"tls"` (frames on
//! the TLS bulk lane) and `"rdma"` (frames on the RDMA bulk lane).

pub mod chaos;
mod conn;
pub mod endpoint;
mod lanes;
mod peers;
mod rdma_lane;
#[cfg(test)]
mod rdma_lane_tests;
mod reader;
mod recv_pool;
mod stats;
mod tls_lane;
mod tls_stream;

use super::{BoxFuture, FrameSink, Transport, TransportStats};
use crate::config::{BulkLane, Config};
use crate::error::{Error, ErrorKind, Result};
use crate::security::{Credentials, JobSecret, TRANSPORT_ALPN};
use crate::wire::Frame;
use parking_lot::RwLock;
use peers::Peers;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Frames with a payload of at least this many bytes travel on the bulk lane (TLS or QUIC).
pub const BULK_THRESHOLD: usize = 64 << 10;

/// How long `shutdown` waits for queued data to be acknowledged and for peers' goodbyes.
pub const SHUTDOWN_FLUSH_LIMIT: Duration = Duration::from_secs(5);

/// QUIC application close codes used by nexar.
pub mod codes {
    use quinn::VarInt;
    /// Clean shutdown: the peer is leaving, this is not a failure.
    pub const GOODBYE: VarInt = VarInt::from_u32(1);
    /// The peer broke the framing protocol (bad header, oversize frame, wrong `src`).
    pub const PROTOCOL: VarInt = VarInt::from_u32(2);
    /// The peer failed authentication (its certificate does not match the rank it claims).
    pub const AUTH: VarInt = VarInt::from_u32(3);
    /// The transport was dropped without a clean shutdown.
    pub const ABORT: VarInt = VarInt::from_u32(4);
    /// A rendezvous request was refused, or a connection came from a rank already declared
    /// failed.
    pub const REJECTED: VarInt = VarInt::from_u32(5);
}

/// The QUIC transport of one rank. See the module docs.
pub struct QuicTransport {
    inner: Arc<Inner>,
}

/// State shared by the transport handle and its tasks.
struct Inner {
    rank: u32,
    size: u32,
    creds: Credentials,
    endpoint: quinn::Endpoint,
    client_config: quinn::ClientConfig,
    sink: Arc<dyn FrameSink>,
    max_message: u64,
    connect_timeout: Duration,
    runtime: tokio::runtime::Handle,
    addrs: RwLock<Option<Vec<SocketAddr>>>,
    peers: Peers,
    shutting_down: AtomicBool,
    /// The TLS-over-TCP bulk lane, unless it is off or its listener could not bind.
    tls: Option<tls_lane::TlsLane>,
    /// Frames carried on QUIC streams.
    quic_stats: stats::LaneStats,
    /// Frames carried on the TLS bulk lane.
    tls_stats: stats::LaneStats,
    /// The RDMA bulk lane's mode and fallback log.
    rdma: rdma_lane::RdmaLane,
    /// Frames carried on the RDMA bulk lane.
    rdma_stats: stats::LaneStats,
    /// Recycled payload buffers of the TLS bulk lane's readers.
    recv_pool: Arc<recv_pool::RecvPool>,
    /// The sink's unexpected-message budget: p2p frames of a stalled peer are not read.
    budget: Option<Arc<crate::transport::budget::RxBudget>>,
}

/// Tries for a UDP port whose TCP twin is free too (the TLS bulk lane listens there).
const PORT_TRIES: usize = 16;

/// Binds the QUIC endpoint and, with the TLS bulk lane on, a TCP listener on the same port
/// number (an ephemeral UDP port's TCP twin may be taken: then another port is tried). Without
/// a listener the lane is off and large frames go over QUIC (logged).
#[allow(clippy::type_complexity)]
fn bind_endpoints(
    rank: u32,
    cfg: &Config,
    creds: &Credentials,
    server: quinn::ServerConfig,
) -> Result<(
    quinn::Endpoint,
    Option<tls_lane::TlsLane>,
    Option<tokio::net::TcpListener>,
)> {
    if matches!(cfg.bulk_lane, BulkLane::Quic) {
        let endpoint = endpoint::make_endpoint(cfg.bind_addr, 0, Some(server))?;
        return Ok((endpoint, None, None));
    }
    let mut why = None;
    for _ in 0..PORT_TRIES {
        let endpoint = endpoint::make_endpoint(cfg.bind_addr, 0, Some(server.clone()))?;
        let addr = endpoint.local_addr().map_err(|e| {
            Error::new(
                ErrorKind::Transport,
                format!("cannot read the endpoint address: {e}"),
            )
        })?;
        match tls_lane::TlsLane::bind(creds, addr) {
            Ok((lane, listener)) => return Ok((endpoint, Some(lane), Some(listener))),
            Err(e) => {
                why = Some(e);
                endpoint.close(codes::ABORT, b"port retry");
            }
        }
    }
    if let Some(e) = why {
        tracing::warn!(rank, error = %e, "TLS bulk lane unavailable; large frames go over QUIC");
    }
    let endpoint = endpoint::make_endpoint(cfg.bind_addr, 0, Some(server))?;
    Ok((endpoint, None, None))
}

impl QuicTransport {
    /// Binds a QUIC endpoint on `cfg.bind_addr` (any port) for world rank `rank` of `size`,
    /// with a certificate for `rank-<rank>` derived from `secret`, and starts accepting peers.
    /// Frames are not sent until [`Self::set_peer_addrs`] gave every rank's address. Must be
    /// called inside a tokio runtime, which then drives the transport.
    pub fn bind(
        rank: u32,
        size: u32,
        secret: &JobSecret,
        cfg: &Config,
        sink: Arc<dyn FrameSink>,
    ) -> Result<Self> {
        Self::bind_with_credentials(rank, size, Credentials::for_rank(secret, rank)?, cfg, sink)
    }

    /// Like [`Self::bind`] with explicit credentials. Normally `creds` name `rank`; tests use
    /// this to build a rank whose certificate names another rank.
    pub fn bind_with_credentials(
        rank: u32,
        size: u32,
        creds: Credentials,
        cfg: &Config,
        sink: Arc<dyn FrameSink>,
    ) -> Result<Self> {
        if rank >= size {
            return Err(Error::new(
                ErrorKind::InvalidRank,
                format!("rank {rank} is outside a world of {size}"),
            ));
        }
        let runtime = tokio::runtime::Handle::try_current().map_err(|_| {
            Error::new(
                ErrorKind::Internal,
                "QuicTransport::bind must be called inside a tokio runtime",
            )
        })?;
        let bidi = rdma_lane::RdmaLane::peer_bidi_streams(cfg.rdma);
        let tcfg = endpoint::transport_config(cfg, bidi)?;
        let server = creds.quic_server_config(TRANSPORT_ALPN, tcfg.clone())?;
        let client_config = creds.quic_client_config(TRANSPORT_ALPN, tcfg)?;
        let (endpoint, tls, listener) = bind_endpoints(rank, cfg, &creds, server)?;
        let inner = Arc::new(Inner {
            rank,
            size,
            creds,
            endpoint,
            client_config,
            sink: sink.clone(),
            max_message: cfg.max_message,
            connect_timeout: cfg.connect_timeout,
            runtime,
            addrs: RwLock::new(None),
            peers: Peers::new(size),
            shutting_down: AtomicBool::new(false),
            tls,
            quic_stats: stats::LaneStats::default(),
            tls_stats: stats::LaneStats::default(),
            rdma: rdma_lane::RdmaLane::new(cfg.rdma),
            rdma_stats: stats::LaneStats::default(),
            recv_pool: Arc::default(),
            budget: sink.rx_budget(),
        });
        // Received payloads are fresh buffers: keep freed large ones warm (see the module).
        crate::transport::shm::malloc::keep_large_buffers_warm();
        inner.runtime.spawn(conn::accept_loop(inner.clone()));
        if let Some(listener) = listener {
            tls_lane::TlsLane::start(&inner, listener);
        }
        tracing::debug!(rank, size, addr = ?inner.endpoint.local_addr().ok(), "QUIC transport bound");
        Ok(Self { inner })
    }

    /// The address peers reach this rank at.
    pub fn local_addr(&self) -> Result<SocketAddr> {
        self.inner.endpoint.local_addr().map_err(|e| {
            Error::new(
                ErrorKind::Transport,
                format!("cannot read the endpoint address: {e}"),
            )
        })
    }

    /// Sets every rank's endpoint address (index = rank; this rank's own entry is ignored).
    pub fn set_peer_addrs(&self, addrs: Vec<SocketAddr>) -> Result<()> {
        if addrs.len() != self.inner.size as usize {
            return Err(Error::invalid(format!(
                "address table has {} entries for a world of {}",
                addrs.len(),
                self.inner.size
            )));
        }
        *self.inner.addrs.write() = Some(addrs);
        Ok(())
    }

    /// This rank.
    pub fn rank(&self) -> u32 {
        self.inner.rank
    }

    /// The world size.
    pub fn size(&self) -> u32 {
        self.inner.size
    }

    /// This rank's credentials (job id, certificate names, TLS configurations).
    pub fn credentials(&self) -> &Credentials {
        &self.inner.creds
    }

    /// The underlying quinn endpoint (the rendezvous client dials from it, so a rank uses one
    /// UDP socket for everything).
    pub fn endpoint(&self) -> &quinn::Endpoint {
        &self.inner.endpoint
    }
}

impl Transport for QuicTransport {
    fn send(&self, to: u32, frame: Frame) -> Result<()> {
        self.inner.send(to, frame)
    }

    fn shutdown(&self) -> BoxFuture<'_, ()> {
        Box::pin(self.inner.clone().shutdown())
    }

    fn name(&self) -> &'static str {
        "quic"
    }

    fn lends(&self, _to: u32, len: usize) -> bool {
        // The TLS lane's writer encrypts a bulk payload into its own buffers and drops it; the
        // QUIC streams would keep it until acknowledged.
        len >= BULK_THRESHOLD && self.inner.tls.is_some()
    }

    /// `"quic"`: frames on QUIC streams; `"tls"`: frames on the TLS bulk lane; `"rdma"`:
    /// frames on the RDMA bulk lane.
    fn stats(&self) -> Vec<(&'static str, TransportStats)> {
        vec![
            (
                "quic",
                (self.inner.peers).with_connection_counts(self.inner.quic_stats.get()),
            ),
            ("tls", self.inner.tls_stats.get()),
            ("rdma", self.inner.rdma_stats.get()),
        ]
    }
}

impl Drop for QuicTransport {
    fn drop(&mut self) {
        if let Some(lane) = &self.inner.tls {
            lane.stop();
        }
        if !self.inner.shutting_down.swap(true, Ordering::SeqCst) {
            // Not a clean exit: peers see a failure at once instead of waiting for a timeout.
            self.inner
                .endpoint
                .close(codes::ABORT, b"transport dropped");
        } else {
            // Shut down (possibly interrupted mid-way): make sure the endpoint and its tasks
            // end. Closing an already closed endpoint does nothing.
            self.inner.endpoint.close(codes::GOODBYE, b"shutdown");
        }
        self.inner.peers.abandon();
    }
}

impl Inner {
    fn send(self: &Arc<Self>, to: u32, mut frame: Frame) -> Result<()> {
        if to == self.rank {
            self.sink.on_frame(frame);
            return Ok(());
        }
        if to >= self.size {
            return Err(Error::new(
                ErrorKind::InvalidRank,
                format!("rank {to} is outside a world of {}", self.size),
            ));
        }
        let len = frame.payload.len() as u64;
        if len > self.max_message {
            return Err(Error::new(
                ErrorKind::ResourceExhausted,
                format!(
                    "message of {len} bytes exceeds the limit of {} (NEXAR_MAX_MESSAGE)",
                    self.max_message
                ),
            ));
        }
        if self.shutting_down.load(Ordering::SeqCst) {
            return Err(Error::new(
                ErrorKind::Finalized,
                "the QUIC transport is shut down",
            ));
        }
        frame.header.len = len;
        frame.header.src = self.rank;
        self.peers.enqueue(self, to, frame)
    }

    fn addr_of(&self, peer: u32) -> Option<SocketAddr> {
        self.addrs
            .read()
            .as_ref()
            .and_then(|a| a.get(peer as usize).copied())
    }

    /// Waits while `peer`'s p2p traffic is stalled by the unexpected-message budget (called
    /// before reading a p2p payload; see `transport::budget`). Gives up the wait once the peer
    /// is lost or this transport shuts down (what is read then is dropped or drained).
    async fn p2p_admission(&self, peer: u32) {
        let Some(b) = &self.budget else { return };
        if !b.stalled(peer) {
            return;
        }
        tracing::debug!(
            rank = self.rank,
            peer,
            used = b.used(peer),
            "p2p reading paused: unexpected-message budget reached"
        );
        loop {
            tokio::select! {
                () = b.wait_unstalled(peer) => break,
                () = tokio::time::sleep(Duration::from_millis(100)) => {
                    if self.peers.is_lost(peer) || self.shutting_down.load(Ordering::SeqCst) {
                        break;
                    }
                }
            }
        }
        tracing::debug!(rank = self.rank, peer, "p2p reading resumed");
    }

    /// Reports `peer` lost (once; never during shutdown or after its goodbye).
    fn peer_lost(&self, peer: u32, reason: String) {
        let shutting_down = self.shutting_down.load(Ordering::SeqCst);
        if self.peers.mark_lost(peer, &reason) && !shutting_down {
            tracing::warn!(rank = self.rank, peer, %reason, "peer lost");
            self.sink.on_peer_lost(peer, reason);
        }
    }

    /// Sorts out why a connection to `peer` ended: a goodbye, our own close, or a failure.
    fn connection_ended(&self, peer: u32, why: &quinn::ConnectionError) {
        use quinn::ConnectionError as C;
        match why {
            C::LocallyClosed => {}
            C::ApplicationClosed(c) if c.error_code == codes::GOODBYE => {
                self.peers.mark_left(peer, 0);
            }
            other => self.peer_lost(peer, format!("connection lost: {other}")),
        }
    }

    async fn shutdown(self: Arc<Self>) {
        if self.shutting_down.swap(true, Ordering::SeqCst) {
            return;
        }
        let deadline = tokio::time::Instant::now() + SHUTDOWN_FLUSH_LIMIT;
        let writers = self.peers.say_goodbye(&self);
        for w in writers {
            if tokio::time::timeout_at(deadline, w).await.is_err() {
                tracing::warn!(
                    rank = self.rank,
                    "shutdown: queued frames not flushed in time"
                );
                break;
            }
        }
        self.peers.wait_goodbyes(&self, deadline).await;
        if let Some(lane) = &self.tls {
            lane.stop();
        }
        self.endpoint.close(codes::GOODBYE, b"shutdown");
        let _ = tokio::time::timeout(Duration::from_secs(1), self.endpoint.wait_idle()).await;
        tracing::debug!(rank = self.rank, "QUIC transport shut down");
    }
}
