//! The link between the launchers of a multi-host job: the leader `nexarrun` listens on a QUIC
//! endpoint (`--listen IP:PORT`), each joiner `nexarrun --join IP:PORT` connects to it. Both
//! sides present certificates issued by the job CA (derived from the job secret, as for the
//! rendezvous): the leader `launcher-leader.<jobid>.nexar`, each joiner
//! `launcher-joiner.<jobid>.nexar`; a process without the secret fails the TLS handshake on
//! both sides.
//!
//! A joiner opens one bidirectional stream with [`LauncherMsg::Join`] and gets
//! [`LauncherMsg::Welcome`] (or `Refused`). Afterwards each message travels alone on a
//! unidirectional stream: joiners report their ranks' exits, the leader asks for ranks to be
//! terminated. The connection stays open for the whole job; its loss ends the job on the
//! joiner's side.

use super::launcher_proto::{LauncherMsg, MAX_LAUNCHER_MSG};
use crate::config::Config;
use crate::error::{Error, ErrorKind, Result};
use crate::security::verify::verify_peer_name;
use crate::security::{Credentials, JobSecret};
use crate::transport::quic::{codes, endpoint};
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

/// ALPN of the launcher link.
pub const LAUNCHER_ALPN: &[u8] = b"nexar-launcher/1";

/// The certificate name of the leader launcher of job `job_id`.
pub fn leader_name(job_id: &str) -> String {
    format!("launcher-leader.{job_id}.nexar")
}

/// The certificate name of a joiner launcher of job `job_id`.
pub fn joiner_name(job_id: &str) -> String {
    format!("launcher-joiner.{job_id}.nexar")
}

/// The leader's listening endpoint. Dropping it closes every launcher connection.
pub struct LeaderEndpoint {
    endpoint: quinn::Endpoint,
    addr: SocketAddr,
    job_id: String,
}

/// A joiner that passed the handshake and asked for ranks; answer it with
/// [`Self::welcome`] or [`Self::refuse`].
pub struct PendingJoiner {
    conn: quinn::Connection,
    send: quinn::SendStream,
    /// How many ranks it runs.
    pub local: u32,
    /// Its host name.
    pub host: String,
}

/// An open launcher connection (either side).
#[derive(Clone)]
pub struct LauncherLink {
    conn: quinn::Connection,
    /// The joiner's own endpoint, kept as long as the link.
    _endpoint: Option<quinn::Endpoint>,
}

/// What a joiner learns from the leader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Welcome {
    /// Its first world rank.
    pub base: u32,
    /// World size.
    pub size: u32,
    /// The rendezvous address for its ranks.
    pub rendezvous: SocketAddr,
    /// The local address this host reaches the leader from (its ranks bind there).
    pub local_ip: IpAddr,
}

fn boot(msg: String) -> Error {
    Error::new(ErrorKind::Bootstrap, msg)
}

impl LeaderEndpoint {
    /// Listens for joiners on `bind`. Must be called inside a tokio runtime.
    pub fn start(secret: &JobSecret, bind: SocketAddr, cfg: &Config) -> Result<Self> {
        let job_id = secret.job_id();
        let creds = Credentials::issue(secret, &leader_name(&job_id))?;
        let mut lcfg = cfg.clone();
        lcfg.bind_addr = bind.ip();
        let server =
            creds.quic_server_config(LAUNCHER_ALPN, endpoint::transport_config(&lcfg, 1)?)?;
        let endpoint = endpoint::make_endpoint(bind.ip(), bind.port(), Some(server))?;
        let addr = endpoint
            .local_addr()
            .map_err(|e| boot(format!("launcher endpoint address: {e}")))?;
        Ok(Self {
            endpoint,
            addr,
            job_id,
        })
    }

    /// Waits until every connection closed so far has told its peer (for at most `limit`), so
    /// joiners learn of the end at once rather than by a timeout.
    pub async fn wait_idle(&self, limit: Duration) {
        let _ = tokio::time::timeout(limit, self.endpoint.wait_idle()).await;
    }

    /// The address joiners connect to.
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Waits for the next connection attempt; `None` once the endpoint is closed. Admit it
    /// with [`IncomingLauncher::admit`] (on its own task, so a slow stranger delays nobody).
    pub async fn incoming(&self) -> Option<IncomingLauncher> {
        let incoming = self.endpoint.accept().await?;
        Some(IncomingLauncher {
            incoming,
            want: joiner_name(&self.job_id),
        })
    }

    /// Waits for the next joiner and admits it (see [`IncomingLauncher::admit`]).
    pub async fn accept(&self, limit: Duration) -> Option<Result<PendingJoiner>> {
        Some(self.incoming().await?.admit(limit).await)
    }
}

/// A connection attempt to the leader, not yet admitted.
pub struct IncomingLauncher {
    incoming: quinn::Incoming,
    want: String,
}

impl IncomingLauncher {
    /// Handshake (mutual TLS with the job CA), certificate name, then the join request, all
    /// within `limit`. `Err` names a refused attempt (a stranger without the secret, garbage).
    pub async fn admit(self, limit: Duration) -> Result<PendingJoiner> {
        let remote = self.incoming.remote_address();
        let (incoming, want) = (self.incoming, self.want);
        let res = tokio::time::timeout(limit, async {
            let conn = incoming
                .await
                .map_err(|e| format!("handshake failed: {e}"))?;
            if let Err(e) = verify_peer_name(&conn, &want) {
                conn.close(codes::AUTH, b"not a launcher of this job");
                return Err(e.message().to_string());
            }
            let (send, mut recv) = conn
                .accept_bi()
                .await
                .map_err(|e| format!("no join request: {e}"))?;
            let buf = recv
                .read_to_end(MAX_LAUNCHER_MSG)
                .await
                .map_err(|e| format!("cannot read the join request: {e}"))?;
            match LauncherMsg::decode(&buf) {
                Ok(LauncherMsg::Join { local, host }) => Ok(PendingJoiner {
                    conn,
                    send,
                    local,
                    host,
                }),
                Ok(other) => {
                    conn.close(codes::PROTOCOL, b"expected a join request");
                    Err(format!("expected a join request, got {other:?}"))
                }
                Err(e) => {
                    conn.close(codes::PROTOCOL, b"malformed join request");
                    Err(e.message().to_string())
                }
            }
        })
        .await;
        match res {
            Ok(Ok(j)) => Ok(j),
            Ok(Err(why)) => Err(boot(format!("refused a launcher from {remote}: {why}"))),
            Err(_) => Err(boot(format!(
                "refused a launcher from {remote}: no join request within {limit:?}"
            ))),
        }
    }
}

impl Drop for LeaderEndpoint {
    fn drop(&mut self) {
        self.endpoint.close(codes::GOODBYE, b"the job is over");
    }
}

impl PendingJoiner {
    /// Where the joiner connected from.
    pub fn remote(&self) -> SocketAddr {
        self.conn.remote_address()
    }

    /// Assigns it world ranks `base..base + local` of a world of `size` and returns the link
    /// at once (the answer goes out on the current tokio runtime; messages sent on the link
    /// meanwhile wait at the joiner until it has read the answer).
    pub fn welcome(self, base: u32, size: u32, rendezvous: SocketAddr) -> LauncherLink {
        let PendingJoiner { conn, mut send, .. } = self;
        let msg = LauncherMsg::Welcome {
            base,
            size,
            rendezvous,
        };
        tokio::spawn(async move {
            if send.write_all(&msg.encode()).await.is_ok() {
                let _ = send.finish();
            }
        });
        LauncherLink {
            conn,
            _endpoint: None,
        }
    }

    /// Refuses it with `why` and closes its connection.
    pub fn refuse(mut self, why: &str) {
        let bytes = LauncherMsg::Refused(why.to_string()).encode();
        tokio::spawn(async move {
            let _ = tokio::time::timeout(Duration::from_secs(2), async {
                self.send.write_all(&bytes).await.ok()?;
                self.send.finish().ok()?;
                self.send.stopped().await.ok()
            })
            .await;
            self.conn.close(codes::REJECTED, b"refused");
        });
    }
}

impl LauncherLink {
    /// Sends one message on its own stream and waits until the other side read it (bounded;
    /// a lost connection is reported by [`Self::next`] / [`Self::closed`]).
    pub async fn send(&self, msg: &LauncherMsg) {
        let bytes = msg.encode();
        let r = tokio::time::timeout(Duration::from_secs(5), async {
            let mut s = self.conn.open_uni().await.ok()?;
            s.write_all(&bytes).await.ok()?;
            s.finish().ok()?;
            s.stopped().await.ok().map(|_| ())
        })
        .await;
        if !matches!(r, Ok(Some(()))) {
            tracing::debug!("launcher message not sent: {msg:?}");
        }
    }

    /// The next message from the other side; `None` once the connection is closed.
    pub async fn next(&self) -> Option<Result<LauncherMsg>> {
        let mut s = self.conn.accept_uni().await.ok()?;
        Some(match s.read_to_end(MAX_LAUNCHER_MSG).await {
            Ok(buf) => LauncherMsg::decode(&buf),
            Err(e) => Err(boot(format!("unreadable launcher message: {e}"))),
        })
    }

    /// Waits until the connection is closed and says why.
    pub async fn closed(&self) -> String {
        self.conn.closed().await.to_string()
    }

    /// Closes the connection (the job is over); waits at most `limit` for the other side to
    /// acknowledge.
    pub async fn close(&self, limit: Duration) {
        self.conn.close(codes::GOODBYE, b"the job is over");
        if let Some(ep) = &self._endpoint {
            let _ = tokio::time::timeout(limit, ep.wait_idle()).await;
        }
    }

    /// The other side's address.
    pub fn remote(&self) -> SocketAddr {
        self.conn.remote_address()
    }
}

/// The local address this host uses to reach `peer` (asks the kernel's routing; sends nothing).
pub fn local_ip_towards(peer: SocketAddr) -> Result<IpAddr> {
    let any: IpAddr = if peer.is_ipv4() {
        std::net::Ipv4Addr::UNSPECIFIED.into()
    } else {
        std::net::Ipv6Addr::UNSPECIFIED.into()
    };
    let probe = std::net::UdpSocket::bind(SocketAddr::new(any, 0))
        .and_then(|s| s.connect(peer).map(|_| s))
        .and_then(|s| s.local_addr())
        .map_err(|e| boot(format!("no route to the leader at {peer}: {e}")))?;
    Ok(probe.ip())
}

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

/// Joins the leader at `leader` asking for `local` ranks; returns the assignment and the link.
/// Retries while the leader is not up yet, for at most `cfg.connect_timeout`. A wrong secret
/// is an [`ErrorKind::Security`] error.
pub async fn join_leader(
    secret: &JobSecret,
    leader: SocketAddr,
    local: u32,
    host: &str,
    cfg: &Config,
) -> Result<(Welcome, LauncherLink)> {
    let limit = cfg.connect_timeout;
    match tokio::time::timeout(limit, join_inner(secret, leader, local, host, cfg)).await {
        Ok(r) => r,
        Err(_) => Err(Error::new(
            ErrorKind::Timeout,
            format!("no answer from the leader at {leader} within {limit:?}"),
        )),
    }
}

async fn join_inner(
    secret: &JobSecret,
    leader: SocketAddr,
    local: u32,
    host: &str,
    cfg: &Config,
) -> Result<(Welcome, LauncherLink)> {
    let job_id = secret.job_id();
    let creds = Credentials::issue(secret, &joiner_name(&job_id))?;
    let local_ip = local_ip_towards(leader)?;
    let mut lcfg = cfg.clone();
    lcfg.bind_addr = local_ip;
    let client = creds.quic_client_config(LAUNCHER_ALPN, endpoint::transport_config(&lcfg, 0)?)?;
    let ep = endpoint::make_endpoint(local_ip, 0, None)?;
    let name = leader_name(&job_id);
    let fail = |e: &quinn::ConnectionError| {
        let kind = if is_auth_failure(e) {
            ErrorKind::Security
        } else {
            ErrorKind::Bootstrap
        };
        let hint = if kind == ErrorKind::Security {
            " (the leader has a different job secret?)"
        } else {
            ""
        };
        Error::new(
            kind,
            format!("cannot join the leader at {leader}: {e}{hint}"),
        )
    };
    let conn = loop {
        let connecting = ep
            .connect_with(client.clone(), leader, &name)
            .map_err(|e| boot(format!("cannot connect to the leader at {leader}: {e}")))?;
        match connecting.await {
            Ok(c) => break c,
            Err(quinn::ConnectionError::TimedOut) => {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(e) => return Err(fail(&e)),
        }
    };
    let io = |e: &dyn std::fmt::Display| boot(format!("leader at {leader}: {e}"));
    let (mut send, mut recv) = conn.open_bi().await.map_err(|e| fail(&e))?;
    let join = LauncherMsg::Join {
        local,
        host: host.to_string(),
    };
    send.write_all(&join.encode()).await.map_err(|e| io(&e))?;
    send.finish().map_err(|e| io(&e))?;
    let buf = match recv.read_to_end(MAX_LAUNCHER_MSG).await {
        Ok(b) => b,
        Err(quinn::ReadToEndError::Read(quinn::ReadError::ConnectionLost(e))) => {
            return Err(fail(&e));
        }
        Err(e) => return Err(io(&e)),
    };
    match LauncherMsg::decode(&buf)? {
        LauncherMsg::Welcome {
            base,
            size,
            rendezvous,
        } => {
            if base.checked_add(local).is_none_or(|end| end > size) {
                return Err(boot(format!(
                    "the leader assigned ranks {base}.. of a world of {size} to {local} ranks"
                )));
            }
            Ok((
                Welcome {
                    base,
                    size,
                    rendezvous,
                    local_ip,
                },
                LauncherLink {
                    conn,
                    _endpoint: Some(ep),
                },
            ))
        }
        LauncherMsg::Refused(why) => Err(boot(format!("the leader at {leader} refused: {why}"))),
        other => Err(boot(format!(
            "the leader at {leader} answered {other:?} to a join request"
        ))),
    }
}
