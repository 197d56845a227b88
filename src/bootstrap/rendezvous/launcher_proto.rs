//! Messages between the launchers of a multi-host job (one `nexarrun` per host): the leader,
//! which hosts the rendezvous, and the joiners, which start ranks on other hosts. A tiny
//! little-endian encoding in the style of [`super::proto`]; every length is checked against a
//! fixed limit before anything is taken from the buffer.
//!
//! ```text
//! join     (joiner -> leader, request):  "NXLJ" ver:u8 0:u8 local:u32 host:str
//! welcome  (leader -> joiner, answer):   "NXLJ" ver:u8 1:u8 base:u32 size:u32 rendezvous:str
//! refused  (leader -> joiner, answer):   "NXLJ" ver:u8 2:u8 message:str
//! exited   (joiner -> leader):           "NXLJ" ver:u8 3:u8 rank:u32 code:i32 reason:str
//! kill     (leader -> joiner):           "NXLJ" ver:u8 4:u8 count:u32 rank:u32*count
//! str:     len:u16 bytes (UTF-8)
//! ```

use super::proto::Cursor;
use crate::error::Result;
use std::net::SocketAddr;

const MAGIC: &[u8; 4] = b"NXLJ";
const VERSION: u8 = 1;
/// Longest host name, reason or refusal message.
pub const MAX_TEXT: usize = 1024;
/// Most ranks one kill message names (longer lists are split).
pub const MAX_KILL: usize = 8192;
/// Largest launcher message on the wire.
pub const MAX_LAUNCHER_MSG: usize = 4 + 1 + 1 + 4 + 4 * MAX_KILL;

/// One message between launchers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LauncherMsg {
    /// A joiner asks for a block of `local` ranks; `host` is its host name.
    Join {
        /// How many ranks the joiner runs.
        local: u32,
        /// The joiner's host name (for messages).
        host: String,
    },
    /// The leader assigns the joiner world ranks `base..base+local` of a world of `size`,
    /// whose rendezvous is at `rendezvous`.
    Welcome {
        /// The joiner's first world rank.
        base: u32,
        /// World size.
        size: u32,
        /// Where the ranks reach the rendezvous.
        rendezvous: SocketAddr,
    },
    /// The leader refuses the joiner; the message says why.
    Refused(String),
    /// A joiner's rank ended: `code` is its exit code (128 + signal when killed), `reason` says
    /// how ("exited with code 3").
    Exited {
        /// World rank.
        rank: u32,
        /// Exit code.
        code: i32,
        /// How it ended.
        reason: String,
    },
    /// The leader asks the joiner to terminate these world ranks (SIGTERM, then SIGKILL).
    Kill(Vec<u32>),
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    super::proto::put_str(out, s, MAX_TEXT);
}

impl LauncherMsg {
    /// Encodes the message. A kill list longer than [`MAX_KILL`] is truncated: split it with
    /// [`LauncherMsg::kills`].
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64);
        out.extend_from_slice(MAGIC);
        out.push(VERSION);
        match self {
            LauncherMsg::Join { local, host } => {
                out.push(0);
                out.extend_from_slice(&local.to_le_bytes());
                put_str(&mut out, host);
            }
            LauncherMsg::Welcome {
                base,
                size,
                rendezvous,
            } => {
                out.push(1);
                out.extend_from_slice(&base.to_le_bytes());
                out.extend_from_slice(&size.to_le_bytes());
                put_str(&mut out, &rendezvous.to_string());
            }
            LauncherMsg::Refused(msg) => {
                out.push(2);
                put_str(&mut out, msg);
            }
            LauncherMsg::Exited { rank, code, reason } => {
                out.push(3);
                out.extend_from_slice(&rank.to_le_bytes());
                out.extend_from_slice(&code.to_le_bytes());
                put_str(&mut out, reason);
            }
            LauncherMsg::Kill(ranks) => {
                out.push(4);
                let ranks = &ranks[..ranks.len().min(MAX_KILL)];
                out.extend_from_slice(&(ranks.len() as u32).to_le_bytes());
                for r in ranks {
                    out.extend_from_slice(&r.to_le_bytes());
                }
            }
        }
        out
    }

    /// Kill messages for `ranks`, each within [`MAX_KILL`].
    pub fn kills(ranks: &[u32]) -> Vec<LauncherMsg> {
        ranks
            .chunks(MAX_KILL)
            .map(|c| LauncherMsg::Kill(c.to_vec()))
            .collect()
    }

    /// Decodes and validates a message.
    pub fn decode(buf: &[u8]) -> Result<Self> {
        let mut c = Cursor::new(buf, "launcher");
        c.header(MAGIC, VERSION)?;
        let msg = match c.u8()? {
            0 => LauncherMsg::Join {
                local: c.u32()?,
                host: c.str(MAX_TEXT)?,
            },
            1 => {
                let base = c.u32()?;
                let size = c.u32()?;
                let rendezvous = c.addr(MAX_TEXT, "rendezvous address")?;
                LauncherMsg::Welcome {
                    base,
                    size,
                    rendezvous,
                }
            }
            2 => LauncherMsg::Refused(c.str(MAX_TEXT)?),
            3 => LauncherMsg::Exited {
                rank: c.u32()?,
                code: c.u32()? as i32,
                reason: c.str(MAX_TEXT)?,
            },
            4 => {
                let n = c.u32()? as usize;
                if n > MAX_KILL {
                    return Err(c.bad(format!("a kill list of {n} ranks exceeds {MAX_KILL}")));
                }
                let mut ranks = Vec::with_capacity(n);
                for _ in 0..n {
                    ranks.push(c.u32()?);
                }
                LauncherMsg::Kill(ranks)
            }
            k => return Err(c.bad(format!("unknown kind {k}"))),
        };
        c.end()?;
        Ok(msg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples() -> Vec<LauncherMsg> {
        vec![
            LauncherMsg::Join {
                local: 2,
                host: "hostB".into(),
            },
            LauncherMsg::Welcome {
                base: 2,
                size: 4,
                rendezvous: "10.77.0.1:4000".parse().unwrap(),
            },
            LauncherMsg::Welcome {
                base: 0,
                size: 1,
                rendezvous: "[fe80::1]:9".parse().unwrap(),
            },
            LauncherMsg::Refused("the job is full".into()),
            LauncherMsg::Exited {
                rank: 3,
                code: -1,
                reason: "was killed by signal 9".into(),
            },
            LauncherMsg::Kill(vec![]),
            LauncherMsg::Kill(vec![2, 3, 7]),
        ]
    }

    #[test]
    fn round_trips_and_rejects_truncation() {
        for m in samples() {
            let b = m.encode();
            assert!(b.len() <= MAX_LAUNCHER_MSG);
            assert_eq!(LauncherMsg::decode(&b).unwrap(), m);
            for cut in 0..b.len() {
                assert!(
                    LauncherMsg::decode(&b[..cut]).is_err(),
                    "{m:?} cut at {cut}"
                );
            }
            let mut long = b.clone();
            long.push(0);
            assert!(LauncherMsg::decode(&long).is_err());
        }
    }

    #[test]
    fn splits_long_kill_lists_and_clips_text() {
        let all: Vec<u32> = (0..(MAX_KILL as u32 * 2 + 5)).collect();
        let msgs = LauncherMsg::kills(&all);
        assert_eq!(msgs.len(), 3);
        let mut back = Vec::new();
        for m in msgs {
            let b = m.encode();
            assert!(b.len() <= MAX_LAUNCHER_MSG);
            match LauncherMsg::decode(&b).unwrap() {
                LauncherMsg::Kill(r) => back.extend(r),
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(back, all);
        let long = LauncherMsg::Refused("é".repeat(MAX_TEXT));
        match LauncherMsg::decode(&long.encode()).unwrap() {
            LauncherMsg::Refused(s) => assert!(s.len() <= MAX_TEXT && s.len() >= MAX_TEXT - 1),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn survives_garbage() {
        // Errors name the message kind (the cursor is shared with the rendezvous messages).
        let e = LauncherMsg::decode(b"NXLJ\x01\x09").unwrap_err();
        assert!(
            e.message() == "malformed launcher message: unknown kind 9",
            "{e}"
        );
        let mut rng = nexar_proto::sim::SimRng::new(11);
        for m in samples() {
            let base = m.encode();
            for _ in 0..500 {
                let mut b = base.clone();
                let i = rng.below(b.len());
                b[i] = rng.next_u64() as u8;
                let _ = LauncherMsg::decode(&b);
            }
        }
    }
}
