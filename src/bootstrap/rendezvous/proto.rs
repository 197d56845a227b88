//! The rendezvous messages, a tiny length-prefixed little-endian encoding. Every length is checked
//! against a fixed limit before anything is taken from the buffer.
//!
//! ```text
//! hello:  "NXRV" ver:u8 rank:u32 size:u32 addr:str host:str
//! reply:  "NXRV" ver:u8 0:u8 count:u32 (addr:str host:str)*count
//!       | "NXRV" ver:u8 1:u8 message:str
//! str:    len:u16 bytes (UTF-8)
//! ```

use crate::error::{Error, ErrorKind, Result};
use std::net::SocketAddr;

const MAGIC: &[u8; 4] = b"NXRV";
const VERSION: u8 = 1;
/// Longest endpoint address string.
pub const MAX_ADDR: usize = 64;
/// Longest host name.
pub const MAX_HOST: usize = 255;
/// Longest error message.
pub const MAX_MESSAGE: usize = 1024;
/// Largest hello on the wire.
pub const MAX_HELLO: usize = 4 + 1 + 4 + 4 + 2 + MAX_ADDR + 2 + MAX_HOST;

/// Largest reply for a world of `size` ranks.
pub fn max_reply(size: u32) -> usize {
    4 + 1 + 1 + 4 + (size as usize) * (4 + MAX_ADDR + MAX_HOST) + 2 + MAX_MESSAGE
}

/// What a rank tells the rendezvous.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hello {
    /// World rank.
    pub rank: u32,
    /// World size, as this rank believes it.
    pub size: u32,
    /// Where this rank's QUIC endpoint listens.
    pub addr: SocketAddr,
    /// This rank's host name.
    pub host: String,
}

/// The rendezvous's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// Everyone arrived: each rank's endpoint address and host, index = rank.
    Table(Vec<(SocketAddr, String)>),
    /// The rendezvous refused this rank or failed; the message says why.
    Refused(String),
}

/// Appends `s` as `len:u16 bytes`, cut to at most `max` bytes at a character boundary.
pub(super) fn put_str(out: &mut Vec<u8>, s: &str, max: usize) {
    let mut end = s.len().min(max);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    out.extend_from_slice(&(end as u16).to_le_bytes());
    out.extend_from_slice(&s.as_bytes()[..end]);
}

fn header(out: &mut Vec<u8>) {
    out.extend_from_slice(MAGIC);
    out.push(VERSION);
}

/// A cursor over a received message (this module's and [`super::launcher_proto`]'s): every
/// read checks the length first, and errors name the message kind.
pub(super) struct Cursor<'a> {
    buf: &'a [u8],
    kind: &'static str,
}

impl<'a> Cursor<'a> {
    /// A cursor over `buf`, a `kind` message ("rendezvous", "launcher").
    pub(super) fn new(buf: &'a [u8], kind: &'static str) -> Self {
        Self { buf, kind }
    }

    /// The error for a malformed message of this cursor's kind.
    pub(super) fn bad(&self, what: impl Into<String>) -> Error {
        Error::new(
            ErrorKind::Bootstrap,
            format!("malformed {} message: {}", self.kind, what.into()),
        )
    }

    /// The next `n` bytes.
    pub(super) fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if self.buf.len() < n {
            return Err(self.bad("truncated"));
        }
        let (head, rest) = self.buf.split_at(n);
        self.buf = rest;
        Ok(head)
    }

    /// The next byte.
    pub(super) fn u8(&mut self) -> Result<u8> {
        Ok(self.take(1)?[0])
    }

    /// The next little-endian `u32`.
    pub(super) fn u32(&mut self) -> Result<u32> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// The next string of at most `max` bytes.
    pub(super) fn str(&mut self, max: usize) -> Result<String> {
        let b = self.take(2)?;
        let len = u16::from_le_bytes([b[0], b[1]]) as usize;
        if len > max {
            return Err(self.bad(format!("string of {len} bytes exceeds {max}")));
        }
        let s = self.take(len)?;
        String::from_utf8(s.to_vec()).map_err(|_| self.bad("string is not UTF-8"))
    }

    /// The next string, parsed as a socket address (`what` names it in errors).
    pub(super) fn addr(&mut self, max: usize, what: &str) -> Result<SocketAddr> {
        let s = self.str(max)?;
        s.parse().map_err(|_| self.bad(format!("bad {what} {s:?}")))
    }

    /// Checks the magic and the version.
    pub(super) fn header(&mut self, magic: &[u8; 4], version: u8) -> Result<()> {
        if self.take(4)? != magic {
            return Err(self.bad("bad magic"));
        }
        let v = self.u8()?;
        if v != version {
            return Err(self.bad(format!("version {v}, expected {version}")));
        }
        Ok(())
    }

    /// Checks that nothing is left.
    pub(super) fn end(&self) -> Result<()> {
        if self.buf.is_empty() {
            Ok(())
        } else {
            Err(self.bad(format!("{} trailing bytes", self.buf.len())))
        }
    }
}

impl Hello {
    /// Encodes the hello.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(MAX_HELLO);
        header(&mut out);
        out.extend_from_slice(&self.rank.to_le_bytes());
        out.extend_from_slice(&self.size.to_le_bytes());
        put_str(&mut out, &self.addr.to_string(), MAX_ADDR);
        put_str(&mut out, &self.host, MAX_HOST);
        out
    }

    /// Decodes and validates a hello.
    pub fn decode(buf: &[u8]) -> Result<Self> {
        let mut c = Cursor::new(buf, "rendezvous");
        c.header(MAGIC, VERSION)?;
        let rank = c.u32()?;
        let size = c.u32()?;
        let addr = c.addr(MAX_ADDR, "address")?;
        let host = c.str(MAX_HOST)?;
        c.end()?;
        Ok(Self {
            rank,
            size,
            addr,
            host,
        })
    }
}

impl Reply {
    /// Encodes the reply.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        header(&mut out);
        match self {
            Reply::Table(rows) => {
                out.push(0);
                out.extend_from_slice(&(rows.len() as u32).to_le_bytes());
                for (addr, host) in rows {
                    put_str(&mut out, &addr.to_string(), MAX_ADDR);
                    put_str(&mut out, host, MAX_HOST);
                }
            }
            Reply::Refused(msg) => {
                out.push(1);
                put_str(&mut out, msg, MAX_MESSAGE);
            }
        }
        out
    }

    /// Decodes a reply for a world of `size`; a table of any other length is an error.
    pub fn decode(buf: &[u8], size: u32) -> Result<Self> {
        let mut c = Cursor::new(buf, "rendezvous");
        c.header(MAGIC, VERSION)?;
        let reply = match c.u8()? {
            0 => {
                let n = c.u32()?;
                if n != size {
                    return Err(c.bad(format!("table has {n} ranks, expected {size}")));
                }
                let mut rows = Vec::with_capacity(n as usize);
                for _ in 0..n {
                    let addr = c.addr(MAX_ADDR, "address")?;
                    let host = c.str(MAX_HOST)?;
                    rows.push((addr, host));
                }
                Reply::Table(rows)
            }
            1 => Reply::Refused(c.str(MAX_MESSAGE)?),
            s => return Err(c.bad(format!("unknown status {s}"))),
        };
        c.end()?;
        Ok(reply)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        let h = Hello {
            rank: 3,
            size: 8,
            addr: "127.0.0.1:4000".parse().unwrap(),
            host: "node-ü".into(),
        };
        assert_eq!(Hello::decode(&h.encode()).unwrap(), h);
        let r = Reply::Table(vec![
            ("127.0.0.1:1".parse().unwrap(), "a".into()),
            ("[::1]:2".parse().unwrap(), "b".into()),
        ]);
        assert_eq!(Reply::decode(&r.encode(), 2).unwrap(), r);
        assert!(Reply::decode(&r.encode(), 3).is_err());
        let r = Reply::Refused("no".into());
        assert_eq!(Reply::decode(&r.encode(), 2).unwrap(), r);
    }

    #[test]
    fn rejects_garbage_without_panicking() {
        let h = Hello {
            rank: 0,
            size: 1,
            addr: "127.0.0.1:1".parse().unwrap(),
            host: "h".into(),
        }
        .encode();
        for cut in 0..h.len() {
            assert!(Hello::decode(&h[..cut]).is_err());
        }
        let mut long = h.clone();
        long.push(0);
        let e = Hello::decode(&long).unwrap_err();
        assert_eq!(
            e.message(),
            "malformed rendezvous message: 1 trailing bytes"
        );
        let mut rng = nexar_proto::sim::SimRng::new(5);
        for _ in 0..2000 {
            let mut b = h.clone();
            let i = rng.below(b.len());
            b[i] = rng.next_u64() as u8;
            let _ = Hello::decode(&b);
            let _ = Reply::decode(&b, 1);
        }
    }
}
