//! Wire format: a small fixed-size header (rkyv, validated on receipt) followed by the payload as
//! raw bytes. Bulk data is never serialized; every length is checked against limits before any
//! buffer is allocated for it.

mod header;

pub use header::{
    FrameHeader, FrameKind, HEADER_LEN, MAGIC, P2P_SYNC, decode_header, encode_header,
};

use bytes::Bytes;

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
