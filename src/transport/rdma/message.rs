//! The 8-byte header in front of every message of the RDMA lane, and its validation.
//!
//! Layout (little-endian): byte 0 the [`Kind`], byte 1 reserved (must be 0, so stray or
//! garbled traffic is rejected), bytes 2..4 `credits` (u16), bytes 4..8 the payload length
//! (u32). The payload follows the header directly; the message is exactly header plus payload.

use std::io;

/// Bytes of the header in front of every message.
pub const HEADER_LEN: usize = 8;

/// What a message carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Writer to reader: stream bytes. `credits` announces the writer's receive window.
    Data = 1,
    /// Reader to writer: `credits` returns that many receive credits; no payload.
    Credit = 2,
    /// Writer to reader: the last message of the stream (may carry its final bytes).
    /// `credits` announces the writer's receive window, as in [`Kind::Data`].
    End = 3,
}

/// A validated message header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// The message kind.
    pub kind: Kind,
    /// Data / End: the writer's receive window; Credit: credits returned.
    pub credits: u16,
    /// Payload bytes after the header.
    pub len: u32,
}

impl Header {
    /// Writes the header into the first [`HEADER_LEN`] bytes of `out` (at least that long).
    pub fn encode(&self, out: &mut [u8]) {
        out[0] = self.kind as u8;
        out[1] = 0;
        out[2..4].copy_from_slice(&self.credits.to_le_bytes());
        out[4..8].copy_from_slice(&self.len.to_le_bytes());
    }

    /// Parses and checks the header of a received message (`msg` is the whole message: its
    /// length must be exactly header plus the payload length the header states). Every
    /// inconsistency is an `InvalidData` error naming it; nothing here can panic.
    pub fn decode(msg: &[u8]) -> io::Result<Self> {
        if msg.len() < HEADER_LEN {
            return Err(invalid(format!(
                "RDMA lane: message of {} bytes is shorter than the {HEADER_LEN}-byte header",
                msg.len()
            )));
        }
        let kind = match msg[0] {
            1 => Kind::Data,
            2 => Kind::Credit,
            3 => Kind::End,
            k => return Err(invalid(format!("RDMA lane: unknown message kind {k}"))),
        };
        if msg[1] != 0 {
            return Err(invalid(format!(
                "RDMA lane: reserved header byte is {} (must be 0)",
                msg[1]
            )));
        }
        let credits = u16::from_le_bytes([msg[2], msg[3]]);
        let len = u32::from_le_bytes([msg[4], msg[5], msg[6], msg[7]]);
        let actual = msg.len() - HEADER_LEN;
        if len as usize != actual {
            return Err(invalid(format!(
                "RDMA lane: {kind:?} header states {len} payload bytes but the message carries {actual}"
            )));
        }
        match kind {
            Kind::Credit if len != 0 => Err(invalid(format!(
                "RDMA lane: Credit message carries {len} payload bytes (must be 0)"
            ))),
            Kind::Credit if credits == 0 => Err(invalid(
                "RDMA lane: Credit message returns 0 credits".into(),
            )),
            Kind::Data | Kind::End if credits == 0 => Err(invalid(format!(
                "RDMA lane: {kind:?} message announces a receive window of 0"
            ))),
            _ => Ok(Self { kind, credits, len }),
        }
    }
}

/// An `InvalidData` error: the peer broke the lane protocol.
pub fn invalid(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(h: Header, payload: &[u8]) -> Vec<u8> {
        let mut m = vec![0; HEADER_LEN];
        h.encode(&mut m);
        m.extend_from_slice(payload);
        m
    }

    #[test]
    fn round_trip() {
        let h = Header {
            kind: Kind::Data,
            credits: 7,
            len: 3,
        };
        assert_eq!(Header::decode(&msg(h, b"abc")).unwrap(), h);
        let c = Header {
            kind: Kind::Credit,
            credits: 65535,
            len: 0,
        };
        assert_eq!(Header::decode(&msg(c, b"")).unwrap(), c);
    }

    #[test]
    fn malformed_headers_are_invalid_data() {
        let ok = msg(
            Header {
                kind: Kind::End,
                credits: 1,
                len: 2,
            },
            b"xy",
        );
        let mut cases: Vec<(Vec<u8>, &str)> = vec![
            (vec![1, 0, 1], "shorter than"),
            (
                ok[..9].to_vec(),
                "states 2 payload bytes but the message carries 1",
            ),
            ([ok.clone(), vec![0]].concat(), "carries 3"),
        ];
        let mut bad_kind = ok.clone();
        bad_kind[0] = 9;
        cases.push((bad_kind, "unknown message kind 9"));
        let mut reserved = ok.clone();
        reserved[1] = 1;
        cases.push((reserved, "reserved header byte"));
        let mut zero_window = ok.clone();
        zero_window[2] = 0;
        cases.push((zero_window, "receive window of 0"));
        let credit_payload = msg(
            Header {
                kind: Kind::Credit,
                credits: 1,
                len: 1,
            },
            b"z",
        );
        cases.push((credit_payload, "must be 0"));
        let zero_credit = msg(
            Header {
                kind: Kind::Credit,
                credits: 0,
                len: 0,
            },
            b"",
        );
        cases.push((zero_credit, "returns 0 credits"));
        for (bytes, want) in cases {
            let e = Header::decode(&bytes).unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::InvalidData);
            assert!(e.to_string().contains(want), "{e} lacks {want:?}");
        }
    }
}
