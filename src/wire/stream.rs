//! The framing rules of a stream, as one synchronous function over a byte buffer: the
//! reference the transports' stream readers (QUIC `reader.rs`, the TLS lane's `tls_stream.rs`)
//! follow, and what the `frame_decode` fuzz target and its corpus test exercise.
//!
//! A stream from an authenticated `peer` is a `Hello` naming that peer (no payload), then
//! frames: a header that passes [`decode_header`] with `len <= max_len`, whose `src` is `peer`
//! and whose kind is not `Hello`, followed by exactly `len` payload bytes. The stream may end
//! only at a frame boundary.

use super::{Frame, FrameKind, HEADER_LEN, decode_header};
use crate::error::{Error, ErrorKind, Result};
use bytes::Bytes;

fn malformed(msg: String) -> Error {
    Error::new(ErrorKind::Mismatch, msg)
}

/// Splits `bytes`, a whole stream from `peer`, into its frames (the opening `Hello` is checked
/// and dropped). Any violation is an error describing it; nothing is allocated for a payload
/// whose bytes are not all present.
pub fn decode_stream(bytes: &[u8], peer: u32, max_len: u64) -> Result<Vec<Frame>> {
    let mut frames = Vec::new();
    let mut rest = bytes;
    let mut hello_seen = false;
    while !rest.is_empty() {
        if rest.len() < HEADER_LEN {
            return Err(malformed(format!(
                "stream ended inside a frame header ({} of {HEADER_LEN} bytes)",
                rest.len()
            )));
        }
        let limit = if hello_seen { max_len } else { 0 };
        let header = decode_header(&rest[..HEADER_LEN], limit)?;
        rest = &rest[HEADER_LEN..];
        if header.src != peer {
            return Err(malformed(format!(
                "frame claims to come from rank {} on a stream authenticated as rank {peer}",
                header.src
            )));
        }
        let kind = header.frame_kind();
        if !hello_seen {
            if kind != Some(FrameKind::Hello) {
                return Err(malformed("stream does not start with a Hello".into()));
            }
            hello_seen = true;
            continue;
        }
        if kind == Some(FrameKind::Hello) {
            return Err(malformed(
                "unexpected Hello in the middle of a stream".into(),
            ));
        }
        // `len <= max_len` was checked; now check the bytes are really there.
        let len = usize::try_from(header.len)
            .ok()
            .filter(|&l| l <= rest.len())
            .ok_or_else(|| {
                malformed(format!(
                    "stream ended inside a payload ({} of {} bytes)",
                    rest.len(),
                    header.len
                ))
            })?;
        frames.push(Frame {
            header,
            payload: Bytes::copy_from_slice(&rest[..len]),
        });
        rest = &rest[len..];
    }
    Ok(frames)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::{FrameHeader, encode_header};

    fn frame_bytes(kind: FrameKind, src: u32, payload: &[u8]) -> Vec<u8> {
        let mut h = FrameHeader::new(kind, src);
        h.len = payload.len() as u64;
        let mut v = encode_header(&h).to_vec();
        v.extend_from_slice(payload);
        v
    }

    #[test]
    fn splits_a_valid_stream_and_checks_every_rule() {
        let mut s = frame_bytes(FrameKind::Hello, 3, b"");
        s.extend(frame_bytes(FrameKind::P2p, 3, b"abc"));
        s.extend(frame_bytes(FrameKind::Collective, 3, &[7u8; 100]));
        let frames = decode_stream(&s, 3, 1000).unwrap();
        assert_eq!(frames.len(), 2);
        assert_eq!(&frames[0].payload[..], b"abc");
        assert_eq!(frames[1].payload.len(), 100);
        // Wrong peer, no Hello, truncation, oversize, Hello in the middle.
        assert!(decode_stream(&s, 2, 1000).is_err());
        assert!(decode_stream(&s[HEADER_LEN..], 3, 1000).is_err());
        assert!(decode_stream(&s[..s.len() - 1], 3, 1000).is_err());
        assert!(decode_stream(&s[..s.len() - 100 - HEADER_LEN + 3], 3, 1000).is_err());
        assert_eq!(
            decode_stream(&s, 3, 99).unwrap_err().kind(),
            ErrorKind::ResourceExhausted
        );
        let mut twice = s.clone();
        twice.extend(frame_bytes(FrameKind::Hello, 3, b""));
        assert!(decode_stream(&twice, 3, 1000).is_err());
    }
}
