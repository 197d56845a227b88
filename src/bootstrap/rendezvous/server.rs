//! The rendezvous server: hosted by `nexarrun`, or by rank 0 itself when
//! `NEXAR_RENDEZVOUS_HOST=1`. It presents `rendezvous.<jobid>.nexar`, admits only clients whose
//! certificate names the rank they claim, waits for all ranks, and answers everyone with the
//! address table. Connections stay open afterwards, held by the [`ControlHub`].

use super::control::ControlHub;
use super::proto::{Hello, MAX_HELLO, Reply};
use crate::config::Config;
use crate::error::{Error, ErrorKind, Result};
use crate::security::verify::verify_peer_name;
use crate::security::{Credentials, JobSecret, RENDEZVOUS_ALPN, rank_name};
use crate::transport::quic::{codes, endpoint};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::sync::{mpsc, watch};
use tokio::time::{Instant, timeout};

/// A running rendezvous. Dropping it closes every connection.
pub struct RendezvousServer {
    endpoint: quinn::Endpoint,
    hold: std::sync::Arc<std::sync::OnceLock<(u32, u32)>>,
    addr: SocketAddr,
    outcome: watch::Receiver<Option<Result<()>>>,
    hub: ControlHub,
    abort: mpsc::UnboundedSender<String>,
}

/// Ends a rendezvous that is still gathering: every waiting rank is refused with the reason
/// (a process that was to join is known to be gone). Does nothing once the rendezvous
/// completed or failed.
#[derive(Debug, Clone)]
pub struct RendezvousAbort(mpsc::UnboundedSender<String>);

impl RendezvousAbort {
    /// Fails the rendezvous with `why`, if it is still gathering.
    pub fn abort(&self, why: String) {
        let _ = self.0.send(why);
    }
}

impl Drop for RendezvousServer {
    fn drop(&mut self) {
        self.endpoint.close(codes::GOODBYE, b"rendezvous closed");
    }
}

/// A rank that passed admission and waits for the table.
struct Joiner {
    hello: Hello,
    conn: quinn::Connection,
    send: quinn::SendStream,
}

impl RendezvousServer {
    /// Starts a rendezvous for a world of `size` on `bind` (port 0: any). It gives up
    /// `cfg.connect_timeout` after starting, telling the waiting ranks which ranks are missing.
    /// Must be called inside a tokio runtime.
    pub fn start(secret: &JobSecret, bind: SocketAddr, size: u32, cfg: &Config) -> Result<Self> {
        if size == 0 {
            return Err(Error::invalid(
                "a rendezvous needs a world of at least one rank",
            ));
        }
        let creds = Credentials::for_rendezvous(secret)?;
        let tcfg = endpoint::transport_config(cfg, 1)?;
        let server = creds.quic_server_config(RENDEZVOUS_ALPN, tcfg)?;
        let endpoint = endpoint::make_endpoint(bind.ip(), bind.port(), Some(server))?;
        let addr = endpoint
            .local_addr()
            .map_err(|e| Error::new(ErrorKind::Bootstrap, format!("rendezvous address: {e}")))?;
        let (tx, outcome) = watch::channel(None);
        let (jtx, jrx) = mpsc::unbounded_channel();
        let job_id = creds.job_id().to_string();
        tokio::spawn(accept_loop(
            endpoint.clone(),
            jtx,
            job_id,
            cfg.connect_timeout,
        ));
        let hub = ControlHub::default();
        let (abort, aborted) = mpsc::unbounded_channel();
        let hold = std::sync::Arc::new(std::sync::OnceLock::new());
        tokio::spawn(gather(
            jrx,
            size,
            cfg.connect_timeout,
            tx,
            hub.clone(),
            aborted,
            hold.clone(),
        ));
        tracing::debug!(%addr, size, "rendezvous listening");
        Ok(Self {
            addr,
            outcome,
            hub,
            abort,
            hold,
            endpoint,
        })
    }

    /// The address ranks reach the rendezvous at.
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// When this rendezvous fails, the joiner of rank `host` (the process hosting it, whose
    /// runtime keeps it running) is answered last: after every rank below `members` (ranks
    /// known to be alive) arrived and heard why, or the deadline passed. Otherwise ranks still
    /// connecting would find no rendezvous and wait out their connect timeout.
    pub fn answer_host_last(&self, host: u32, members: u32) {
        let _ = self.hold.set((host, members));
    }

    /// A handle that fails this rendezvous while it gathers (see [`RendezvousAbort`]).
    pub fn abort_handle(&self) -> RendezvousAbort {
        RendezvousAbort(self.abort.clone())
    }

    /// The control channel to the ranks (usable once the rendezvous completed).
    pub fn control(&self) -> ControlHub {
        self.hub.clone()
    }

    /// Waits until every rank got the table (`Ok`) or the rendezvous failed (the error names
    /// the missing ranks).
    pub async fn wait(&self) -> Result<()> {
        let mut rx = self.outcome.clone();
        match rx.wait_for(Option::is_some).await {
            Ok(v) => v.clone().unwrap_or(Ok(())),
            Err(_) => Err(Error::new(
                ErrorKind::Internal,
                "the rendezvous task ended without an outcome",
            )),
        }
    }
}

async fn accept_loop(
    endpoint: quinn::Endpoint,
    tx: mpsc::UnboundedSender<Joiner>,
    job_id: String,
    limit: Duration,
) {
    while let Some(incoming) = endpoint.accept().await {
        tokio::spawn(admit(incoming, tx.clone(), job_id.clone(), limit));
    }
}

/// Handshake, read the hello, check the certificate names the claimed rank.
async fn admit(
    incoming: quinn::Incoming,
    tx: mpsc::UnboundedSender<Joiner>,
    job_id: String,
    limit: Duration,
) {
    let remote = incoming.remote_address();
    let res = timeout(limit, async {
        let conn = incoming
            .await
            .map_err(|e| format!("handshake failed: {e}"))?;
        let (send, mut recv) = conn
            .accept_bi()
            .await
            .map_err(|e| format!("no request: {e}"))?;
        let buf = recv
            .read_to_end(MAX_HELLO)
            .await
            .map_err(|e| format!("cannot read the hello: {e}"))?;
        let mut joiner = Joiner {
            hello: match Hello::decode(&buf) {
                Ok(h) => h,
                Err(e) => {
                    let msg = e.message().to_string();
                    refuse(conn, send, &msg, codes::REJECTED);
                    return Err(msg);
                }
            },
            conn,
            send,
        };
        let rank = joiner.hello.rank;
        if let Err(e) = verify_peer_name(&joiner.conn, &rank_name(&job_id, rank)) {
            let msg = format!("claims rank {rank}: {}", e.message());
            refuse(joiner.conn, joiner.send, &msg, codes::AUTH);
            return Err(msg);
        }
        if joiner.hello.addr.ip().is_unspecified() {
            // The rank listens on every interface: use the address it reached us from.
            joiner.hello.addr.set_ip(joiner.conn.remote_address().ip());
        }
        Ok(joiner)
    })
    .await;
    match res {
        Ok(Ok(j)) => {
            let _ = tx.send(j);
        }
        Ok(Err(reason)) => tracing::warn!(%remote, %reason, "rendezvous refused a client"),
        Err(_) => tracing::warn!(%remote, "rendezvous client timed out"),
    }
}

/// Sends a refusal, lets it arrive, then closes the connection with `code`.
fn refuse(conn: quinn::Connection, mut send: quinn::SendStream, msg: &str, code: quinn::VarInt) {
    let bytes = Reply::Refused(msg.to_string()).encode();
    tokio::spawn(async move {
        let _ = timeout(Duration::from_secs(2), async {
            send.write_all(&bytes).await.ok()?;
            send.finish().ok()?;
            send.stopped().await.ok()
        })
        .await;
        conn.close(code, b"refused");
    });
}

/// Collects joiners until all `size` ranks arrived or `limit` passed, answers them, then
/// refuses latecomers while keeping the admitted connections open.
async fn gather(
    mut rx: mpsc::UnboundedReceiver<Joiner>,
    size: u32,
    limit: Duration,
    outcome: watch::Sender<Option<Result<()>>>,
    hub: ControlHub,
    mut aborted: mpsc::UnboundedReceiver<String>,
    hold: std::sync::Arc<std::sync::OnceLock<(u32, u32)>>,
) {
    let deadline = Instant::now() + limit;
    let mut slots: Vec<Option<Joiner>> = (0..size).map(|_| None).collect();
    let mut arrived = 0u32;
    while arrived < size {
        let failed = tokio::select! {
            j = rx.recv() => match j {
                Some(j) => Ok(j),
                None => return,
            },
            Some(why) = aborted.recv() => Err((why, ErrorKind::Bootstrap)),
            _ = tokio::time::sleep_until(deadline) => {
                Err((format!("rendezvous timed out after {limit:?}"), ErrorKind::Timeout))
            }
        };
        let j = match failed {
            Ok(j) => j,
            Err((why, kind)) => {
                let missing: Vec<u32> =
                    (0..size).filter(|&r| slots[r as usize].is_none()).collect();
                let msg = format!(
                    "{why}: {} of {size} ranks did not arrive (missing ranks {missing:?})",
                    missing.len()
                );
                tracing::error!("{msg}");
                let hold = hold.get().copied();
                let mut seen: Vec<bool> = slots.iter().map(Option::is_some).collect();
                let mut held = None;
                for j in slots.iter_mut().filter_map(Option::take) {
                    if hold.is_some_and(|(host, _)| host == j.hello.rank) {
                        held = Some(j);
                    } else {
                        refuse(j.conn, j.send, &msg, codes::REJECTED);
                    }
                }
                // The host's own process keeps this rendezvous running: it hears last, once
                // the ranks known to be alive heard why (or the deadline passed).
                if let Some((host, members)) = hold {
                    let members = members.min(size) as usize;
                    while !seen[..members].iter().all(|&s| s) {
                        tokio::select! {
                            j = rx.recv() => {
                                let Some(j) = j else { break };
                                let r = j.hello.rank;
                                if let Some(s) = seen.get_mut(r as usize) {
                                    *s = true;
                                }
                                if r == host && held.is_none() {
                                    held = Some(j);
                                } else {
                                    refuse(j.conn, j.send, &msg, codes::REJECTED);
                                }
                            }
                            _ = tokio::time::sleep_until(deadline) => break,
                        }
                    }
                }
                if let Some(j) = held {
                    refuse(j.conn, j.send, &msg, codes::REJECTED);
                }
                let _ = outcome.send(Some(Err(Error::new(kind, msg.clone()))));
                refuse_all(rx, &format!("the rendezvous already failed: {msg}")).await;
                return;
            }
        };
        let h = &j.hello;
        let problem = if h.size != size {
            Some(format!(
                "rank {} believes the world has {} ranks, the rendezvous expects {size}",
                h.rank, h.size
            ))
        } else if h.rank >= size {
            Some(format!("rank {} is outside a world of {size}", h.rank))
        } else if slots[h.rank as usize].is_some() {
            Some(format!("rank {} already joined", h.rank))
        } else {
            None
        };
        match problem {
            Some(msg) => {
                tracing::warn!("rendezvous: {msg}");
                refuse(j.conn, j.send, &msg, codes::REJECTED);
            }
            None => {
                let r = h.rank as usize;
                slots[r] = Some(j);
                arrived += 1;
            }
        }
    }
    let joined: Vec<Joiner> = slots.into_iter().flatten().collect();
    let table = Reply::Table(
        joined
            .iter()
            .map(|j| (j.hello.addr, j.hello.host.clone()))
            .collect(),
    )
    .encode();
    // The control channel reads declarations from here on (before any rank has the table).
    hub.attach(joined.iter().map(|j| j.conn.clone()).collect());
    for mut j in joined {
        let bytes = table.clone();
        tokio::spawn(async move {
            if j.send.write_all(&bytes).await.is_ok() {
                let _ = j.send.finish();
            }
        });
    }
    tracing::debug!(size, "rendezvous complete");
    let _ = outcome.send(Some(Ok(())));
    refuse_all(rx, "the rendezvous is already complete").await;
}

async fn refuse_all(mut rx: mpsc::UnboundedReceiver<Joiner>, msg: &str) {
    while let Some(j) = rx.recv().await {
        refuse(j.conn, j.send, msg, codes::REJECTED);
    }
}
