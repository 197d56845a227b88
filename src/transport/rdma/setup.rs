//! Setting up an RDMA bulk lane: the two messages exchanged on a bidirectional QUIC stream of
//! the peers' authenticated connection, and the decisions each side takes. Pure code (no I/O,
//! no device), compiled with or without the `rdma` feature so its tests run everywhere.
//!
//! The writer (the rank whose bulk queue got a frame) sends a [`Hello`]: its rank, its queue
//! pair's endpoint and its buffer pools. The acceptor answers with a [`Reply`]: its endpoint and
//! pools, or a refusal with the reason. Both then connect their queue pairs. The QUIC connection
//! already proved who the peer is (its certificate); the hello's rank must match it.
//!
//! Wire format (big-endian), `MAGIC`, `u16` version, `u8` kind, then by kind:
//! * hello (1): `u32` rank, endpoint, pools;
//! * accept (2): endpoint, pools;
//! * refuse (3): `u16` length, that many bytes of UTF-8 reason.
//!
//! An endpoint is `u32` queue pair number, `u16` LID, `u8` 0 or 1 (has a GID), 16 bytes of GID
//! (zeros without one); pools are `u32` send slots, `u32` send slot length, `u32` receive slots,
//! `u32` receive slot length.

use super::QueuePair;
use crate::config::RdmaMode;
use std::io;

/// First bytes of every set-up message.
pub const MAGIC: [u8; 4] = *b"NXRD";
/// Version of this protocol; a peer speaking another is refused.
pub const VERSION: u16 = 1;
/// Longest set-up message a reader accepts (a refusal with the longest reason).
pub const MAX_MESSAGE: usize = 7 + 2 + MAX_REASON;
/// Longest refusal reason sent (longer ones are cut at a character boundary).
pub const MAX_REASON: usize = 1024;
/// Most buffers in one pool.
pub const MAX_SLOTS: u32 = 4096;
/// Smallest and largest registered buffer.
pub const SLOT_LEN_RANGE: std::ops::RangeInclusive<u32> = 64..=(64 << 20);

const KIND_HELLO: u8 = 1;
const KIND_ACCEPT: u8 = 2;
const KIND_REFUSE: u8 = 3;
const ENDPOINT_LEN: usize = 4 + 2 + 1 + 16;
const POOLS_LEN: usize = 16;

/// Where a queue pair is reached (what `ibverbs::QueuePairEndpoint` holds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Endpoint {
    /// Queue pair number.
    pub qp_num: u32,
    /// Local identifier of the port (InfiniBand; 0 on RoCE).
    pub lid: u16,
    /// Global identifier (needed on RoCE and across subnets).
    pub gid: Option<[u8; 16]>,
}

/// The registered buffer pools of one side's queue pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pools {
    /// Send buffers.
    pub send_slots: u32,
    /// Bytes per send buffer.
    pub send_slot_len: u32,
    /// Receive buffers.
    pub recv_slots: u32,
    /// Bytes per receive buffer.
    pub recv_slot_len: u32,
}

/// The pools of the side that writes frames: large send buffers, small receive buffers for
/// the reader's credit returns.
pub const WRITER_POOLS: Pools = Pools {
    send_slots: 16,
    send_slot_len: 256 << 10,
    recv_slots: 16,
    recv_slot_len: 4 << 10,
};

/// The mirror image for the side that reads them.
pub const READER_POOLS: Pools = Pools {
    send_slots: WRITER_POOLS.recv_slots,
    send_slot_len: WRITER_POOLS.recv_slot_len,
    recv_slots: WRITER_POOLS.send_slots,
    recv_slot_len: WRITER_POOLS.send_slot_len,
};

impl Pools {
    /// Checks both pools are within the protocol's limits.
    pub fn check(&self) -> Result<(), String> {
        for (what, n) in [("send", self.send_slots), ("receive", self.recv_slots)] {
            if n == 0 || n > MAX_SLOTS {
                return Err(format!("{n} {what} buffers is outside 1..={MAX_SLOTS}"));
            }
        }
        for (what, n) in [
            ("send", self.send_slot_len),
            ("receive", self.recv_slot_len),
        ] {
            if !SLOT_LEN_RANGE.contains(&n) {
                return Err(format!(
                    "{what} buffers of {n} bytes are outside {}..={} bytes",
                    SLOT_LEN_RANGE.start(),
                    SLOT_LEN_RANGE.end()
                ));
            }
        }
        Ok(())
    }

    /// Whether `self` (one side) and `peer` fit: every message one sends fits a receive buffer
    /// of the other, and neither side has more send buffers than the other has receives posted
    /// (so a SEND never finds no receive, whatever the credit scheme batches).
    pub fn fits(&self, peer: &Pools) -> Result<(), String> {
        if self.send_slot_len > peer.recv_slot_len {
            return Err(format!(
                "send buffers of {} bytes do not fit the peer's receive buffers of {} bytes",
                self.send_slot_len, peer.recv_slot_len
            ));
        }
        if peer.send_slot_len > self.recv_slot_len {
            return Err(format!(
                "the peer's send buffers of {} bytes do not fit receive buffers of {} bytes",
                peer.send_slot_len, self.recv_slot_len
            ));
        }
        if peer.send_slots > self.recv_slots {
            return Err(format!(
                "the peer has {} send buffers for {} receives posted here",
                peer.send_slots, self.recv_slots
            ));
        }
        if self.send_slots > peer.recv_slots {
            return Err(format!(
                "{} send buffers for the peer's {} receives posted",
                self.send_slots, peer.recv_slots
            ));
        }
        Ok(())
    }
}

/// The writer's opening message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hello {
    /// The writer's rank (must be the rank its QUIC certificate names).
    pub rank: u32,
    /// The writer's queue pair.
    pub endpoint: Endpoint,
    /// The writer's pools.
    pub pools: Pools,
}

/// The acceptor's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// Its queue pair is ready (receives posted): connect and send.
    Accept {
        /// The acceptor's queue pair.
        endpoint: Endpoint,
        /// The acceptor's pools.
        pools: Pools,
    },
    /// No RDMA lane; the writer falls back (or fails, with `NEXAR_RDMA=require`).
    Refuse {
        /// Why, in words.
        reason: String,
    },
}

fn head(kind: u8, out: &mut Vec<u8>) {
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_be_bytes());
    out.push(kind);
}

fn put_endpoint(e: &Endpoint, out: &mut Vec<u8>) {
    out.extend_from_slice(&e.qp_num.to_be_bytes());
    out.extend_from_slice(&e.lid.to_be_bytes());
    out.push(u8::from(e.gid.is_some()));
    out.extend_from_slice(&e.gid.unwrap_or([0; 16]));
}

fn put_pools(p: &Pools, out: &mut Vec<u8>) {
    for v in [p.send_slots, p.send_slot_len, p.recv_slots, p.recv_slot_len] {
        out.extend_from_slice(&v.to_be_bytes());
    }
}

/// Encodes a [`Hello`].
pub fn encode_hello(h: &Hello) -> Vec<u8> {
    let mut out = Vec::with_capacity(7 + 4 + ENDPOINT_LEN + POOLS_LEN);
    head(KIND_HELLO, &mut out);
    out.extend_from_slice(&h.rank.to_be_bytes());
    put_endpoint(&h.endpoint, &mut out);
    put_pools(&h.pools, &mut out);
    out
}

/// Encodes a [`Reply`] (a refusal's reason cut to [`MAX_REASON`] bytes).
pub fn encode_reply(r: &Reply) -> Vec<u8> {
    let mut out = Vec::with_capacity(64);
    match r {
        Reply::Accept { endpoint, pools } => {
            head(KIND_ACCEPT, &mut out);
            put_endpoint(endpoint, &mut out);
            put_pools(pools, &mut out);
        }
        Reply::Refuse { reason } => {
            head(KIND_REFUSE, &mut out);
            let mut end = reason.len().min(MAX_REASON);
            while !reason.is_char_boundary(end) {
                end -= 1;
            }
            out.extend_from_slice(&(end as u16).to_be_bytes());
            out.extend_from_slice(&reason.as_bytes()[..end]);
        }
    }
    out
}

/// A reader over a received message; every method fails on truncation instead of panicking.
struct Cursor<'a>(&'a [u8]);

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], String> {
        if self.0.len() < n {
            return Err(format!("set-up message truncated in its {what}"));
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Ok(a)
    }
    fn u8(&mut self, what: &str) -> Result<u8, String> {
        Ok(self.take(1, what)?[0])
    }
    fn u16(&mut self, what: &str) -> Result<u16, String> {
        let b = self.take(2, what)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }
    fn u32(&mut self, what: &str) -> Result<u32, String> {
        let b = self.take(4, what)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn endpoint(&mut self) -> Result<Endpoint, String> {
        let qp_num = self.u32("queue pair number")?;
        let lid = self.u16("LID")?;
        let has_gid = self.u8("GID flag")?;
        let raw: [u8; 16] = self.take(16, "GID")?.try_into().expect("16 bytes");
        let gid = match has_gid {
            0 => None,
            1 => Some(raw),
            other => return Err(format!("GID flag is {other}, not 0 or 1")),
        };
        Ok(Endpoint { qp_num, lid, gid })
    }
    fn pools(&mut self) -> Result<Pools, String> {
        let p = Pools {
            send_slots: self.u32("send buffer count")?,
            send_slot_len: self.u32("send buffer length")?,
            recv_slots: self.u32("receive buffer count")?,
            recv_slot_len: self.u32("receive buffer length")?,
        };
        p.check()?;
        Ok(p)
    }
    fn end(&self) -> Result<(), String> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "set-up message has {} unexpected trailing bytes",
                self.0.len()
            ))
        }
    }
}

/// Checks magic and version and returns the kind.
fn open(buf: &[u8]) -> Result<(u8, Cursor<'_>), String> {
    if buf.len() > MAX_MESSAGE {
        return Err(format!(
            "set-up message of {} bytes exceeds {MAX_MESSAGE}",
            buf.len()
        ));
    }
    let mut c = Cursor(buf);
    if c.take(4, "magic")? != MAGIC {
        return Err("not an RDMA set-up message (bad magic)".into());
    }
    let version = c.u16("version")?;
    if version != VERSION {
        return Err(format!(
            "RDMA set-up version {version} is not supported (this rank speaks {VERSION})"
        ));
    }
    let kind = c.u8("kind")?;
    Ok((kind, c))
}

/// Decodes a [`Hello`] (limits checked).
pub fn decode_hello(buf: &[u8]) -> Result<Hello, String> {
    let (kind, mut c) = open(buf)?;
    if kind != KIND_HELLO {
        return Err(format!("expected an RDMA hello, got message kind {kind}"));
    }
    let rank = c.u32("rank")?;
    let endpoint = c.endpoint()?;
    let pools = c.pools()?;
    c.end()?;
    Ok(Hello {
        rank,
        endpoint,
        pools,
    })
}

/// Decodes a [`Reply`] (limits checked; a reason must be UTF-8).
pub fn decode_reply(buf: &[u8]) -> Result<Reply, String> {
    let (kind, mut c) = open(buf)?;
    let reply = match kind {
        KIND_ACCEPT => Reply::Accept {
            endpoint: c.endpoint()?,
            pools: c.pools()?,
        },
        KIND_REFUSE => {
            let n = c.u16("reason length")? as usize;
            if n > MAX_REASON {
                return Err(format!("refusal reason of {n} bytes exceeds {MAX_REASON}"));
            }
            let bytes = c.take(n, "reason")?;
            let reason = std::str::from_utf8(bytes)
                .map_err(|_| "refusal reason is not UTF-8".to_string())?;
            Reply::Refuse {
                reason: reason.to_string(),
            }
        }
        other => return Err(format!("expected an RDMA reply, got message kind {other}")),
    };
    c.end()?;
    Ok(reply)
}

/// What the writing side does with a bulk lane, decided before any message is sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plan {
    /// `NEXAR_RDMA=off`: the TLS or QUIC lane, silently (exactly as without the feature).
    Skip,
    /// Try RDMA: send a hello.
    Try,
    /// The TLS or QUIC lane; log the reason once for this peer.
    FallBack(String),
    /// `NEXAR_RDMA=require` and it cannot be met: fail the connection with the reason.
    Fail(String),
}

/// The writer's plan, given its mode and whether this host has a usable device (`Err`: why not).
pub fn plan(mode: RdmaMode, device: Result<(), &str>) -> Plan {
    match (mode, device) {
        (RdmaMode::Off, _) => Plan::Skip,
        (_, Ok(())) => Plan::Try,
        (RdmaMode::Auto, Err(why)) => Plan::FallBack(why.to_string()),
        (RdmaMode::Require, Err(why)) => Plan::Fail(format!("NEXAR_RDMA=require: {why}")),
    }
}

/// What the writer does with the acceptor's refusal (or a failed set-up): fall back, or fail
/// under `require`.
pub fn after_refusal(mode: RdmaMode, why: &str) -> Plan {
    match mode {
        RdmaMode::Require => Plan::Fail(format!("NEXAR_RDMA=require: {why}")),
        _ => Plan::FallBack(why.to_string()),
    }
}

/// The acceptor's answer to `hello` from the peer its QUIC certificate names (`peer`), given
/// its mode, whether it has a device (`Err`: why not) and its own pools. `Ok` means: make the
/// queue pair and accept; `Err` is the refusal's reason.
pub fn acceptor_check(
    me: u32,
    peer: u32,
    mode: RdmaMode,
    device: Result<(), &str>,
    hello: &Hello,
    mine: &Pools,
) -> Result<(), String> {
    if hello.rank != peer {
        return Err(format!(
            "RDMA hello claims rank {} on a connection authenticated as rank {peer}",
            hello.rank
        ));
    }
    if mode == RdmaMode::Off {
        return Err(format!("NEXAR_RDMA=off on rank {me}"));
    }
    device.map_err(|why| format!("rank {me}: {why}"))?;
    mine.fits(&hello.pools)
        .map_err(|why| format!("rank {me}: buffer sizes do not match: {why}"))
}

/// Makes queue pairs on a device: `ibv.rs` with the `rdma` feature; a test double otherwise.
pub trait QpFactory: Send + Sync {
    /// A queue pair with registered pools `pools`, not connected yet.
    fn prepare(&self, pools: &Pools) -> io::Result<Box<dyn PreparedQp>>;
}

/// A queue pair made but not connected: its endpoint goes to the peer, then it connects.
pub trait PreparedQp: Send {
    /// Where the peer reaches it.
    fn endpoint(&self) -> Endpoint;
    /// Connects to the peer's queue pair (ready to receive and send).
    fn connect(self: Box<Self>, remote: &Endpoint) -> io::Result<Box<dyn QueuePair>>;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ep(gid: bool) -> Endpoint {
        Endpoint {
            qp_num: 0x00ab_cdef,
            lid: 7,
            gid: gid.then_some([9; 16]),
        }
    }

    fn hello() -> Hello {
        Hello {
            rank: 3,
            endpoint: ep(true),
            pools: WRITER_POOLS,
        }
    }

    #[test]
    fn messages_round_trip() {
        for gid in [false, true] {
            let h = Hello {
                endpoint: ep(gid),
                ..hello()
            };
            assert_eq!(decode_hello(&encode_hello(&h)).unwrap(), h);
            let a = Reply::Accept {
                endpoint: ep(gid),
                pools: READER_POOLS,
            };
            assert_eq!(decode_reply(&encode_reply(&a)).unwrap(), a);
        }
        let r = Reply::Refuse {
            reason: "no RDMA device: é".into(),
        };
        assert_eq!(decode_reply(&encode_reply(&r)).unwrap(), r);
    }

    #[test]
    fn long_reasons_are_cut_at_a_character_boundary() {
        let r = Reply::Refuse {
            reason: "é".repeat(MAX_REASON),
        };
        let enc = encode_reply(&r);
        assert!(enc.len() <= MAX_MESSAGE);
        match decode_reply(&enc).unwrap() {
            Reply::Refuse { reason } => {
                assert_eq!(reason.len(), MAX_REASON);
                assert!(reason.chars().all(|c| c == 'é'));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn every_truncation_is_an_error() {
        let h = encode_hello(&hello());
        for n in 0..h.len() {
            let e = decode_hello(&h[..n]).unwrap_err();
            assert!(e.contains("truncated"), "{n}: {e}");
        }
        let a = encode_reply(&Reply::Accept {
            endpoint: ep(false),
            pools: READER_POOLS,
        });
        for n in 0..a.len() {
            assert!(decode_reply(&a[..n]).is_err(), "{n}");
        }
    }

    #[test]
    fn malformed_messages_are_errors() {
        let good = encode_hello(&hello());
        let with = |i: usize, v: u8| {
            let mut b = good.clone();
            b[i] = v;
            b
        };
        assert!(decode_hello(&with(0, b'X')).unwrap_err().contains("magic"));
        assert!(decode_hello(&with(5, 2)).unwrap_err().contains("version 2"));
        assert!(decode_hello(&with(6, 9)).unwrap_err().contains("kind 9"));
        // The GID flag follows magic+version+kind (7), rank (4), qp (4), lid (2).
        assert!(decode_hello(&with(17, 2)).unwrap_err().contains("GID flag"));
        let mut long = good.clone();
        long.push(0);
        assert!(decode_hello(&long).unwrap_err().contains("trailing"));
        assert!(
            decode_hello(&vec![0; MAX_MESSAGE + 1])
                .unwrap_err()
                .contains("exceeds")
        );
        // A hello is not a reply and the other way round.
        assert!(decode_reply(&good).unwrap_err().contains("kind 1"));
        let refuse = encode_reply(&Reply::Refuse { reason: "x".into() });
        assert!(decode_hello(&refuse).unwrap_err().contains("kind 3"));
        // A refusal whose reason is not UTF-8 or claims more than the limit.
        let mut bad = refuse.clone();
        bad[9] = 0xff;
        assert!(decode_reply(&bad).unwrap_err().contains("UTF-8"));
        let mut huge = refuse[..7].to_vec();
        huge.extend_from_slice(&u16::MAX.to_be_bytes());
        assert!(decode_reply(&huge).unwrap_err().contains("exceeds"));
    }

    #[test]
    fn absurd_pools_are_errors() {
        let cases = [
            (0, 4096, 1, 4096, "0 send buffers"),
            (MAX_SLOTS + 1, 4096, 1, 4096, "send buffers is outside"),
            (1, 4096, 1, u32::MAX, "receive buffers of 4294967295"),
            (1, 1, 1, 4096, "send buffers of 1 bytes"),
        ];
        for (a, b, c, d, want) in cases {
            let h = Hello {
                pools: Pools {
                    send_slots: a,
                    send_slot_len: b,
                    recv_slots: c,
                    recv_slot_len: d,
                },
                ..hello()
            };
            let e = decode_hello(&encode_hello(&h)).unwrap_err();
            assert!(e.contains(want), "{e} lacks {want}");
        }
    }

    #[test]
    fn writer_plans() {
        assert_eq!(plan(RdmaMode::Off, Err("none")), Plan::Skip);
        assert_eq!(plan(RdmaMode::Off, Ok(())), Plan::Skip);
        assert_eq!(plan(RdmaMode::Auto, Ok(())), Plan::Try);
        assert_eq!(plan(RdmaMode::Require, Ok(())), Plan::Try);
        assert_eq!(
            plan(RdmaMode::Auto, Err("no device")),
            Plan::FallBack("no device".into())
        );
        assert_eq!(
            plan(RdmaMode::Require, Err("no device")),
            Plan::Fail("NEXAR_RDMA=require: no device".into())
        );
        assert_eq!(
            after_refusal(RdmaMode::Auto, "x"),
            Plan::FallBack("x".into())
        );
        assert_eq!(
            after_refusal(RdmaMode::Require, "x"),
            Plan::Fail("NEXAR_RDMA=require: x".into())
        );
    }

    #[test]
    fn acceptor_checks() {
        let h = hello();
        let ok = acceptor_check(0, 3, RdmaMode::Auto, Ok(()), &h, &READER_POOLS);
        assert_eq!(ok, Ok(()));
        let wrong_rank = acceptor_check(0, 2, RdmaMode::Auto, Ok(()), &h, &READER_POOLS);
        assert!(wrong_rank.unwrap_err().contains("authenticated as rank 2"));
        let off = acceptor_check(0, 3, RdmaMode::Off, Ok(()), &h, &READER_POOLS);
        assert_eq!(off.unwrap_err(), "NEXAR_RDMA=off on rank 0");
        let none = acceptor_check(0, 3, RdmaMode::Auto, Err("no device"), &h, &READER_POOLS);
        assert_eq!(none.unwrap_err(), "rank 0: no device");
        let small = Pools {
            recv_slot_len: WRITER_POOLS.send_slot_len / 2,
            ..READER_POOLS
        };
        let e = acceptor_check(0, 3, RdmaMode::Auto, Ok(()), &h, &small).unwrap_err();
        assert!(e.contains("do not fit"), "{e}");
        let many = Pools {
            send_slots: WRITER_POOLS.recv_slots + 1,
            ..READER_POOLS
        };
        let e = acceptor_check(0, 3, RdmaMode::Auto, Ok(()), &h, &many).unwrap_err();
        assert!(e.contains("receives posted"), "{e}");
        assert_eq!(WRITER_POOLS.fits(&READER_POOLS), Ok(()));
        assert_eq!(READER_POOLS.fits(&WRITER_POOLS), Ok(()));
    }
}
