//! The control channel on the rendezvous connections, which stay open for the whole job.
//!
//! Each message travels alone on a unidirectional QUIC stream, in the style of [`super::proto`]
//! (little-endian, every length checked before anything is taken):
//!
//! ```text
//! rank failed     (server -> rank): "NXRC" ver:u8 1:u8 rank:u32 reason:str
//! returns errors  (rank -> server): "NXRC" ver:u8 2:u8 seq:u64 on:u8
//! str:            len:u16 bytes (UTF-8)
//! ```
//!
//! * **Rank failed**: the launcher saw a rank end abnormally and tells every other rank at once
//!   (far sooner than any timeout); each rank's `watch` task reports it to the engine as a
//!   lost peer.
//! * **Returns errors**: the rank handles errors itself, so the launcher should leave it
//!   running when a peer dies (see `nexarrun`). Declarations may overtake each other on their
//!   separate streams; `seq` orders them and the server keeps the latest.

use crate::error::{Error, ErrorKind, Result};
use crate::transport::FrameSink;
use parking_lot::Mutex;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

const MAGIC: &[u8; 4] = b"NXRC";
const VERSION: u8 = 1;
const KIND_RANK_FAILED: u8 = 1;
const KIND_RETURNS_ERRORS: u8 = 2;
/// Longest failure reason.
pub const MAX_REASON: usize = 512;
/// Largest control message on the wire.
pub const MAX_CONTROL: usize = 4 + 1 + 1 + 4 + 2 + MAX_REASON;

/// One control message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Control {
    /// World rank `rank` ended abnormally; `reason` says how ("exited with code 3").
    RankFailed {
        /// The failed world rank.
        rank: u32,
        /// How it ended.
        reason: String,
    },
    /// The sending rank does (`on`) or does not return errors to its program.
    ReturnsErrors {
        /// Orders declarations of one rank (later wins).
        seq: u64,
        /// Whether errors are returned.
        on: bool,
    },
}

fn bad(what: impl Into<String>) -> Error {
    Error::new(
        ErrorKind::Bootstrap,
        format!("malformed rendezvous control message: {}", what.into()),
    )
}

impl Control {
    /// Encodes the message.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(32);
        out.extend_from_slice(MAGIC);
        out.push(VERSION);
        match self {
            Control::RankFailed { rank, reason } => {
                out.push(KIND_RANK_FAILED);
                out.extend_from_slice(&rank.to_le_bytes());
                let mut end = reason.len().min(MAX_REASON);
                while !reason.is_char_boundary(end) {
                    end -= 1;
                }
                out.extend_from_slice(&(end as u16).to_le_bytes());
                out.extend_from_slice(&reason.as_bytes()[..end]);
            }
            Control::ReturnsErrors { seq, on } => {
                out.push(KIND_RETURNS_ERRORS);
                out.extend_from_slice(&seq.to_le_bytes());
                out.push(u8::from(*on));
            }
        }
        out
    }

    /// Decodes and validates a message.
    pub fn decode(buf: &[u8]) -> Result<Self> {
        if buf.len() < 6 {
            return Err(bad(format!("{} bytes is too short", buf.len())));
        }
        if &buf[..4] != MAGIC {
            return Err(bad("bad magic"));
        }
        if buf[4] != VERSION {
            return Err(bad(format!("version {}, expected {VERSION}", buf[4])));
        }
        let body = &buf[6..];
        match buf[5] {
            KIND_RANK_FAILED => {
                if body.len() < 6 {
                    return Err(bad("truncated rank-failed message"));
                }
                let rank = u32::from_le_bytes(body[..4].try_into().expect("4 bytes"));
                let len = u16::from_le_bytes([body[4], body[5]]) as usize;
                if len > MAX_REASON {
                    return Err(bad(format!("a reason of {len} bytes exceeds {MAX_REASON}")));
                }
                if body.len() != 6 + len {
                    return Err(bad("reason length does not match the message"));
                }
                let reason = String::from_utf8(body[6..].to_vec())
                    .map_err(|_| bad("reason is not UTF-8"))?;
                Ok(Control::RankFailed { rank, reason })
            }
            KIND_RETURNS_ERRORS => {
                if body.len() != 9 {
                    return Err(bad("a returns-errors message must carry 9 bytes"));
                }
                let seq = u64::from_le_bytes(body[..8].try_into().expect("8 bytes"));
                let on = match body[8] {
                    0 => false,
                    1 => true,
                    v => return Err(bad(format!("returns-errors flag {v}"))),
                };
                Ok(Control::ReturnsErrors { seq, on })
            }
            k => Err(bad(format!("unknown kind {k}"))),
        }
    }
}

/// Sends one message on its own unidirectional stream (best effort: a closed connection means
/// the other side is gone, which is reported elsewhere).
pub(super) async fn send(conn: &quinn::Connection, msg: &Control) {
    let bytes = msg.encode();
    let r = tokio::time::timeout(Duration::from_secs(5), async {
        let mut s = conn.open_uni().await.ok()?;
        s.write_all(&bytes).await.ok()?;
        s.finish().ok()
    })
    .await;
    if !matches!(r, Ok(Some(()))) {
        tracing::debug!("rendezvous control message not sent: {msg:?}");
    }
}

/// Reads the next message the other side sends; `None` once the connection is closed.
pub(super) async fn next(conn: &quinn::Connection) -> Option<Result<Control>> {
    let mut s = conn.accept_uni().await.ok()?;
    Some(match s.read_to_end(MAX_CONTROL).await {
        Ok(buf) => Control::decode(&buf),
        Err(e) => Err(bad(format!("unreadable: {e}"))),
    })
}

/// A rank's side: reports every "rank failed" notice from the launcher to `sink` as a lost
/// peer, until the connection closes. Runs on the current tokio runtime.
pub(super) fn watch(conn: quinn::Connection, sink: Arc<dyn FrameSink>, me: u32, size: u32) {
    tokio::spawn(async move {
        while let Some(msg) = next(&conn).await {
            match msg {
                Ok(Control::RankFailed { rank, reason }) if rank < size && rank != me => {
                    tracing::debug!(me, rank, %reason, "the launcher reports a failed rank");
                    sink.on_peer_lost(rank, format!("the launcher reports that it {reason}"));
                }
                Ok(other) => tracing::warn!(me, "ignoring a rendezvous control message {other:?}"),
                Err(e) => tracing::warn!(me, "rendezvous control: {e}"),
            }
        }
    });
}

/// The launcher's side: the ranks' connections and what each declared.
#[derive(Clone, Default)]
pub struct ControlHub {
    state: Arc<Mutex<HubState>>,
}

#[derive(Default)]
struct HubState {
    /// Index = rank.
    conns: Vec<Option<quinn::Connection>>,
    /// Index = rank: (sequence number, returns errors) of the latest declaration.
    returns_errors: Vec<(u64, bool)>,
}

impl ControlHub {
    /// Takes the admitted connections (index = rank) and reads each rank's declarations.
    pub(super) fn attach(&self, conns: Vec<quinn::Connection>) {
        {
            let mut st = self.state.lock();
            st.returns_errors = vec![(0, false); conns.len()];
            st.conns = conns.iter().cloned().map(Some).collect();
        }
        for (rank, conn) in conns.into_iter().enumerate() {
            let hub = self.clone();
            tokio::spawn(async move {
                while let Some(msg) = next(&conn).await {
                    match msg {
                        Ok(Control::ReturnsErrors { seq, on }) => {
                            let mut st = hub.state.lock();
                            let slot = &mut st.returns_errors[rank];
                            if seq >= slot.0 {
                                *slot = (seq, on);
                            }
                        }
                        Ok(other) => tracing::warn!(rank, "ignoring {other:?} from a rank"),
                        Err(e) => tracing::warn!(rank, "rendezvous control: {e}"),
                    }
                }
            });
        }
    }

    /// Whether `rank` declared that it returns errors (false before the rendezvous completed).
    pub fn returns_errors(&self, rank: u32) -> bool {
        self.state
            .lock()
            .returns_errors
            .get(rank as usize)
            .is_some_and(|d| d.1)
    }

    /// Tells every other rank that `rank` failed (`reason`: "exited with code 3"). Returns at
    /// once; the messages go out on the current tokio runtime.
    pub fn notify_failed(&self, rank: u32, reason: &str) {
        let conns: Vec<quinn::Connection> = {
            let st = self.state.lock();
            st.conns
                .iter()
                .enumerate()
                .filter(|(r, _)| *r != rank as usize)
                .filter_map(|(_, c)| c.clone())
                .filter(|c| c.close_reason().is_none())
                .collect()
        };
        let msg = Control::RankFailed {
            rank,
            reason: reason.to_string(),
        };
        for c in conns {
            let msg = msg.clone();
            tokio::spawn(async move { send(&c, &msg).await });
        }
    }
}

/// A rank's declarations, numbered so the launcher keeps the latest.
#[derive(Default)]
pub(super) struct Declarations {
    seq: AtomicU64,
}

impl Declarations {
    /// The next returns-errors declaration.
    pub(super) fn next(&self, on: bool) -> Control {
        Control::ReturnsErrors {
            seq: self.seq.fetch_add(1, Ordering::Relaxed) + 1,
            on,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_rejects_garbage() {
        let msgs = [
            Control::RankFailed {
                rank: 3,
                reason: "was killed by signal 9".into(),
            },
            Control::ReturnsErrors { seq: 7, on: true },
            Control::ReturnsErrors { seq: 8, on: false },
        ];
        for m in &msgs {
            let b = m.encode();
            assert_eq!(&Control::decode(&b).unwrap(), m);
            for cut in 0..b.len() {
                assert!(Control::decode(&b[..cut]).is_err(), "{m:?} cut at {cut}");
            }
            let mut long = b.clone();
            long.push(0);
            assert!(Control::decode(&long).is_err());
        }
        let long = Control::RankFailed {
            rank: 0,
            reason: "x".repeat(2000),
        };
        match Control::decode(&long.encode()).unwrap() {
            Control::RankFailed { reason, .. } => assert_eq!(reason.len(), MAX_REASON),
            other => panic!("{other:?}"),
        }
        let mut rng = nexar_proto::sim::SimRng::new(9);
        let base = msgs[0].encode();
        for _ in 0..2000 {
            let mut b = base.clone();
            let i = rng.below(b.len());
            b[i] = rng.next_u64() as u8;
            let _ = Control::decode(&b);
        }
    }
}
