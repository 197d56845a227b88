//! The rendezvous client: each rank sends its hello over a bidirectional stream and waits for the
//! table. The connection stays open afterwards, held by a [`RendezvousLink`].

use super::control::{self, Declarations};
use super::proto::{Hello, Reply, max_reply};
use crate::config::Config;
use crate::error::{Error, ErrorKind, Result};
use crate::security::{Credentials, RENDEZVOUS_ALPN};
use crate::transport::FrameSink;
use crate::transport::quic::{codes, endpoint};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How long a rank waits for an unanswering rendezvous before saying so on stderr.
const FIRST_NOTICE: Duration = Duration::from_secs(5);
/// How often it says so again while still waiting.
const NOTICE_EVERY: Duration = Duration::from_secs(20);

/// Extra time a client waits beyond `connect_timeout`, so the server's own timeout message
/// (which names the missing ranks) arrives first.
const REPLY_MARGIN: Duration = Duration::from_secs(2);

/// The open connection of a rank to its rendezvous, kept for the control channel (see
/// [`super::control`]): failure notices from the launcher, declarations to it.
pub struct RendezvousLink {
    conn: quinn::Connection,
    runtime: tokio::runtime::Handle,
    decl: Declarations,
}

impl RendezvousLink {
    /// Whether the rendezvous connection is still open.
    pub fn is_open(&self) -> bool {
        self.conn.close_reason().is_none()
    }

    /// Reports every rank the launcher says failed to `sink` (as a lost peer), for as long as
    /// the connection lives. `me` and `size`: this rank and the world size.
    pub fn watch(&self, sink: Arc<dyn FrameSink>, me: u32, size: u32) {
        let conn = self.conn.clone();
        let _guard = self.runtime.enter();
        control::watch(conn, sink, me, size);
    }

    /// Tells the launcher whether this rank returns errors to its program (and should be left
    /// running when a peer dies). Returns at once; callable from any thread.
    pub fn declare_returns_errors(&self, on: bool) {
        let conn = self.conn.clone();
        let msg = self.decl.next(on);
        self.runtime
            .spawn(async move { control::send(&conn, &msg).await });
    }
}

impl Drop for RendezvousLink {
    fn drop(&mut self) {
        self.conn.close(codes::GOODBYE, b"bye");
    }
}

/// True for a close caused by certificate or TLS failures.
fn is_auth_failure(e: &quinn::ConnectionError) -> bool {
    use quinn::ConnectionError as C;
    let crypto = |code: quinn::TransportErrorCode| (0x100..0x200).contains(&u64::from(code));
    match e {
        C::TransportError(t) => crypto(t.code),
        C::ConnectionClosed(c) => crypto(c.error_code),
        C::ApplicationClosed(c) => c.error_code == codes::AUTH,
        _ => false,
    }
}

fn conn_error(server: SocketAddr, e: &quinn::ConnectionError) -> Error {
    let kind = if is_auth_failure(e) {
        ErrorKind::Security
    } else {
        ErrorKind::Bootstrap
    };
    Error::new(kind, format!("cannot join the rendezvous at {server}: {e}"))
}

/// Joins the rendezvous at `server` from `endpoint` and returns the table (index = rank) and
/// the open link. Bounded by `cfg.connect_timeout` (plus a small margin); while the server is
/// not up yet, connection attempts are retried until then.
pub async fn join(
    endpoint: &quinn::Endpoint,
    creds: &Credentials,
    server: SocketAddr,
    hello: &Hello,
    cfg: &Config,
) -> Result<(Vec<(SocketAddr, String)>, RendezvousLink)> {
    let limit = cfg.connect_timeout + REPLY_MARGIN;
    let connected = AtomicBool::new(false);
    let work = join_inner(endpoint, creds, server, hello, cfg, &connected);
    tokio::pin!(work);
    let start = tokio::time::Instant::now();
    let mut notice = start + FIRST_NOTICE;
    loop {
        tokio::select! {
            r = &mut work => return r,
            _ = tokio::time::sleep_until(start + limit) => {
                return Err(Error::new(
                    ErrorKind::Timeout,
                    format!(
                        "rank {}: no answer from the rendezvous at {server} within {limit:?}",
                        hello.rank
                    ),
                ));
            }
            _ = tokio::time::sleep_until(notice) => {
                // Not silent: the usual cause is a rank 0 that never started or failed to
                // bind, and the user should hear it long before the connect timeout.
                if !connected.load(Ordering::Relaxed) {
                    eprintln!(
                        "nexar: rank {}: no rendezvous at {server} after {} s (rank 0 hosts it \
                         under a scheduler: is it running, did it fail to bind?); giving up \
                         after {} s (NEXAR_CONNECT_TIMEOUT_MS)",
                        hello.rank,
                        start.elapsed().as_secs(),
                        limit.as_secs()
                    );
                }
                notice += NOTICE_EVERY;
            }
        }
    }
}

async fn join_inner(
    endpoint: &quinn::Endpoint,
    creds: &Credentials,
    server: SocketAddr,
    hello: &Hello,
    cfg: &Config,
    connected: &AtomicBool,
) -> Result<(Vec<(SocketAddr, String)>, RendezvousLink)> {
    let client = creds.quic_client_config(RENDEZVOUS_ALPN, endpoint::transport_config(cfg, 0)?)?;
    let name = creds.rendezvous_name();
    let conn = loop {
        let connecting = endpoint
            .connect_with(client.clone(), server, &name)
            .map_err(|e| {
                Error::new(
                    ErrorKind::Bootstrap,
                    format!("cannot connect to the rendezvous at {server}: {e}"),
                )
            })?;
        match connecting.await {
            Ok(c) => {
                connected.store(true, Ordering::Relaxed);
                break c;
            }
            Err(quinn::ConnectionError::TimedOut) => {
                tracing::debug!(%server, "rendezvous not answering yet; retrying");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => return Err(conn_error(server, &e)),
        }
    };
    let link = RendezvousLink {
        conn: conn.clone(),
        runtime: tokio::runtime::Handle::current(),
        decl: Declarations::default(),
    };
    let io = |e: &dyn std::fmt::Display| {
        Error::new(ErrorKind::Bootstrap, format!("rendezvous at {server}: {e}"))
    };
    let (mut send, mut recv) = conn.open_bi().await.map_err(|e| conn_error(server, &e))?;
    send.write_all(&hello.encode()).await.map_err(|e| io(&e))?;
    send.finish().map_err(|e| io(&e))?;
    let buf = match recv.read_to_end(max_reply(hello.size)).await {
        Ok(b) => b,
        Err(quinn::ReadToEndError::Read(quinn::ReadError::ConnectionLost(e))) => {
            return Err(conn_error(server, &e));
        }
        Err(e) => return Err(io(&e)),
    };
    match Reply::decode(&buf, hello.size)? {
        Reply::Table(rows) => Ok((rows, link)),
        Reply::Refused(msg) => Err(Error::new(
            ErrorKind::Bootstrap,
            format!(
                "the rendezvous at {server} refused rank {}: {msg}",
                hello.rank
            ),
        )),
    }
}
