//! Wire format: a small fixed-size header (rkyv, validated on receipt) followed by the payload as
//! raw bytes. Bulk data is never serialized; every length is checked against limits before any
//! buffer is allocated for it.

mod header;
mod stream;

pub use header::{
    FrameHeader, FrameKind, HEADER_LEN, MAGIC, P2P_SYNC, decode_header, encode_header,
};
pub use stream::decode_stream;

use bytes::Bytes;

/// Most bytes a receiver reserves for a payload before that payload's bytes arrive. A header
/// alone (whose length passed the `max_message` check) cannot make a process reserve more:
/// larger payloads grow their buffer as data comes in.
pub const PREALLOC_LIMIT: usize = 16 << 20;

/// One unit of traffic between two ranks: header plus raw payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    /// The decoded header; `header.len` equals `payload.len()`.
    pub header: FrameHeader,
    /// The payload bytes.
    pub payload: Bytes,
}

impl Frame {
    /// Builds a frame, setting `header.len` from the payload.
    pub fn new(mut header: FrameHeader, payload: Bytes) -> Self {
        header.len = payload.len() as u64;
        Self { header, payload }
    }
}
