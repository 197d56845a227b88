//! Connections: accepting and authenticating incoming ones, dialing peers, and serving the
//! streams of an authenticated connection.
//!
//! An incoming connection has passed TLS (its certificate chains to the job CA) but its rank is
//! not known yet. Its first stream must start with a `Hello` frame; the rank that frame claims is
//! checked against the certificate (`rank-<src>.<jobid>.nexar`) before anything else is read. A
//! dialed connection is authenticated by TLS itself: the server name we ask for is the rank we
//! expect.

use super::reader::{self, ReadFail};
use super::{Inner, codes};
use crate::security::verify::verify_peer_name;
use crate::wire::{FrameHeader, FrameKind};
use std::sync::Arc;
use tokio::time::timeout;

/// Accepts incoming connections until the endpoint closes.
pub(super) async fn accept_loop(inner: Arc<Inner>) {
    while let Some(incoming) = inner.endpoint.accept().await {
        inner
            .runtime
            .spawn(handle_incoming(inner.clone(), incoming));
    }
}

async fn handle_incoming(inner: Arc<Inner>, incoming: quinn::Incoming) {
    let remote = incoming.remote_address();
    let conn = match timeout(inner.connect_timeout, incoming).await {
        Ok(Ok(c)) => c,
        Ok(Err(e)) => {
            tracing::warn!(rank = inner.rank, %remote, error = %e, "incoming handshake failed");
            return;
        }
        Err(_) => {
            tracing::warn!(rank = inner.rank, %remote, "incoming handshake timed out");
            return;
        }
    };
    let auth = match timeout(inner.connect_timeout, authenticate(&inner, &conn)).await {
        Ok(r) => r,
        Err(_) => Err(format!(
            "no Hello within {:?} of connecting",
            inner.connect_timeout
        )),
    };
    let (peer, first) = match auth {
        Ok(ok) => ok,
        Err(reason) => {
            tracing::error!(rank = inner.rank, %remote, %reason, "rejected an incoming connection");
            conn.close(codes::AUTH, truncate(&reason).as_bytes());
            return;
        }
    };
    if !inner.peers.add_conn(peer, conn.clone()) {
        conn.close(codes::REJECTED, b"this rank already left or failed");
        return;
    }
    tracing::debug!(rank = inner.rank, peer, %remote, "accepted a connection");
    inner.runtime.spawn(reader::read_stream(
        inner.clone(),
        conn.clone(),
        peer,
        first,
        true,
    ));
    serve(inner, conn, peer).await;
}

/// Reads the first stream's `Hello` and checks the certificate against the rank it claims.
async fn authenticate(
    inner: &Inner,
    conn: &quinn::Connection,
) -> Result<(u32, quinn::RecvStream), String> {
    let mut recv = conn
        .accept_uni()
        .await
        .map_err(|e| format!("connection ended before its Hello: {e}"))?;
    // A Hello has no payload: limit 0 rejects anything longer before reading it.
    let header = match reader::read_header(&mut recv, 0).await {
        Ok(Some(h)) => h,
        Ok(None) => return Err("stream ended before its Hello".into()),
        Err(ReadFail::Conn(e)) => return Err(format!("connection ended before its Hello: {e}")),
        Err(ReadFail::Protocol(m) | ReadFail::Malformed(m)) => {
            return Err(format!("bad Hello: {m}"));
        }
    };
    let peer = hello_peer(inner, &header)?;
    verify_peer_name(conn, &inner.creds.rank_name(peer))
        .map_err(|e| format!("Hello claims rank {peer}: {}", e.message()))?;
    Ok((peer, recv))
}

/// The rank a lane's first frame claims (QUIC stream or TLS bulk lane), before its certificate
/// is checked: the frame must be a `Hello` from another rank of this world.
pub(super) fn hello_peer(inner: &Inner, header: &FrameHeader) -> Result<u32, String> {
    if header.frame_kind() != Some(FrameKind::Hello) {
        return Err(format!(
            "first frame has kind {} instead of Hello",
            header.kind
        ));
    }
    let peer = header.src;
    if peer >= inner.size || peer == inner.rank {
        return Err(format!(
            "Hello claims rank {peer}, which is not a peer in a world of {}",
            inner.size
        ));
    }
    Ok(peer)
}

/// An authenticated connection to `peer`: an open one, or a new one dialed now.
pub(super) async fn connection_for(
    inner: &Arc<Inner>,
    peer: u32,
) -> Result<quinn::Connection, String> {
    if let Some(c) = inner.peers.alive_conn(peer) {
        return Ok(c);
    }
    let addr = inner
        .addr_of(peer)
        .ok_or_else(|| format!("no address is known for rank {peer}"))?;
    let name = inner.creds.rank_name(peer);
    let connecting = inner
        .endpoint
        .connect_with(inner.client_config.clone(), addr, &name)
        .map_err(|e| format!("cannot connect to rank {peer} at {addr}: {e}"))?;
    let conn = match timeout(inner.connect_timeout, connecting).await {
        Ok(Ok(c)) => c,
        Ok(Err(e)) => return Err(format!("cannot connect to rank {peer} at {addr}: {e}")),
        Err(_) => {
            return Err(format!(
                "connecting to rank {peer} at {addr} timed out after {:?}",
                inner.connect_timeout
            ));
        }
    };
    // rustls checked the name already; check again so a misconfiguration cannot skip it.
    if let Err(e) = verify_peer_name(&conn, &name) {
        conn.close(codes::AUTH, b"certificate does not name the expected rank");
        return Err(format!("rank {peer} at {addr}: {}", e.message()));
    }
    if !inner.peers.add_conn(peer, conn.clone()) {
        conn.close(codes::REJECTED, b"this rank already left or failed");
        return Err(format!("rank {peer} already left or failed"));
    }
    tracing::debug!(rank = inner.rank, peer, %addr, "connected");
    inner
        .runtime
        .spawn(serve(inner.clone(), conn.clone(), peer));
    Ok(conn)
}

/// Accepts the streams `peer` opens on `conn` until the connection ends, then sorts out why
/// it ended.
async fn serve(inner: Arc<Inner>, conn: quinn::Connection, peer: u32) {
    loop {
        // Bidirectional streams are RDMA set-ups (allowed only when RDMA may be used).
        let next = tokio::select! {
            r = conn.accept_uni() => r,
            r = conn.accept_bi() => match r {
                Ok((send, recv)) => {
                    let task = super::rdma_lane::accept(inner.clone(), peer, send, recv);
                    inner.runtime.spawn(task);
                    continue;
                }
                Err(e) => Err(e),
            },
        };
        match next {
            Ok(recv) => {
                inner.runtime.spawn(reader::read_stream(
                    inner.clone(),
                    conn.clone(),
                    peer,
                    recv,
                    false,
                ));
            }
            Err(e) => {
                inner.peers.remove_conn(peer, &conn);
                inner.connection_ended(peer, &e);
                return;
            }
        }
    }
}

/// QUIC close reasons must fit in a packet; keep them short.
pub(super) fn truncate(reason: &str) -> &str {
    let mut end = reason.len().min(200);
    while !reason.is_char_boundary(end) {
        end -= 1;
    }
    &reason[..end]
}
