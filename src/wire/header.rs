//! The frame header and its validated rkyv encoding.

use crate::error::{Error, ErrorKind, Result};
use rkyv::rancor;

/// First field of every header: "NXR1" in little-endian, so stray traffic is rejected at once.
pub const MAGIC: u32 = u32::from_le_bytes(*b"NXR1");

/// What a frame carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum FrameKind {
    /// A user point-to-point message (matched by context, source and tag).
    P2p = 1,
    /// A collective algorithm's message (routed by context, sequence and step).
    Collective = 2,
    /// Opens a stream: names the sender's rank so the receiver can check it against the
    /// sender's certificate.
    Hello = 3,
    /// The sender is shutting down cleanly; the connection closing next is not a failure.
    Goodbye = 4,
    /// A receiver matched a synchronous p2p message: `seq` is that message's sequence number
    /// (the acknowledgement completes the sender's synchronous send). No payload.
    Ack = 5,
    /// The sender is aborting the whole job (`nexar_abort`, `MPI_Abort`): `tag` is the exit
    /// status; the receiver ends its process with it. No payload.
    Abort = 6,
    /// The sender revoked communicator `context` (ULFM `MPIX_Comm_revoke`): the payload lists
    /// the communicator's members (world ranks, u32 little-endian) so the receiver can forward
    /// it once to all of them.
    Revoke = 7,
    /// A message of a fault-tolerant agreement on communicator `context` (`agree`, `shrink`):
    /// `seq` is the communicator's agreement number, `step` the message type (see
    /// `fault::agree`).
    Agree = 8,
    /// A remote procedure call or its reply (see `crate::rpc::wire` for the field layout).
    Rpc = 10,
}

/// p2p header flag (in `step`): the sender waits for an [`FrameKind::Ack`] once the message is
/// matched (a synchronous send).
pub const P2P_SYNC: u32 = 1;

impl FrameKind {
    /// Parses the wire byte.
    pub fn from_u8(v: u8) -> Option<Self> {
        match v {
            1 => Some(Self::P2p),
            2 => Some(Self::Collective),
            3 => Some(Self::Hello),
            4 => Some(Self::Goodbye),
            5 => Some(Self::Ack),
            6 => Some(Self::Abort),
            7 => Some(Self::Revoke),
            8 => Some(Self::Agree),
            10 => Some(Self::Rpc),
            _ => None,
        }
    }
}

/// The fixed header in front of every frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)]
pub struct FrameHeader {
    /// Always [`MAGIC`].
    pub magic: u32,
    /// A [`FrameKind`] as a byte.
    pub kind: u8,
    /// Sender's world rank (checked against the authenticated peer by the transport).
    pub src: u32,
    /// Communicator context id.
    pub context: u64,
    /// User tag (p2p only).
    pub tag: i32,
    /// p2p: per-sender-receiver sequence number (non-overtaking order); collective: the
    /// communicator's collective sequence number.
    pub seq: u64,
    /// Collective: the algorithm step. p2p: flags ([`P2P_SYNC`]; other bits are rejected).
    pub step: u32,
    /// Payload length in bytes.
    pub len: u64,
    /// Collective: what the sender's call was (kind, root, reduction; see
    /// `driver::Fingerprint`), so ranks that called different collectives find out.
    pub fp: u64,
    /// Collective: the byte length the sender's call agreed on (0 where lengths may differ).
    pub fp_len: u64,
}

impl FrameHeader {
    /// A header of `kind` from `src` with every other field zero.
    pub fn new(kind: FrameKind, src: u32) -> Self {
        Self {
            magic: MAGIC,
            kind: kind as u8,
            src,
            context: 0,
            tag: 0,
            seq: 0,
            step: 0,
            len: 0,
            fp: 0,
            fp_len: 0,
        }
    }

    /// The kind, if the byte is valid.
    pub fn frame_kind(&self) -> Option<FrameKind> {
        FrameKind::from_u8(self.kind)
    }
}

/// Size in bytes of an encoded header (a constant: the archived struct has a fixed layout).
pub const HEADER_LEN: usize = std::mem::size_of::<ArchivedFrameHeader>();

/// Encodes a header into exactly [`HEADER_LEN`] bytes. Serializes straight into a stack
/// buffer (no arena, no heap): this runs once per frame on the small-message fast path.
pub fn encode_header(h: &FrameHeader) -> [u8; HEADER_LEN] {
    let mut out = [0u8; HEADER_LEN];
    let writer = rkyv::ser::writer::Buffer::from(&mut out);
    let written = rkyv::api::low::to_bytes_in_with_alloc::<_, _, rancor::Panic>(
        h,
        writer,
        rkyv::ser::allocator::SubAllocator::empty(),
    )
    .map(|w| w.len())
    .unwrap_or_else(|never| match never {});
    debug_assert_eq!(written, HEADER_LEN);
    out
}

/// A header-sized buffer aligned for [`ArchivedFrameHeader`] (rkyv validates alignment).
#[repr(C, align(16))]
struct AlignedHeader([u8; HEADER_LEN]);

/// Decodes and validates a header: structure (rkyv bytecheck), magic, kind, and
/// `len <= max_len`. Nothing is allocated for the payload before this passes.
pub fn decode_header(bytes: &[u8], max_len: u64) -> Result<FrameHeader> {
    if bytes.len() != HEADER_LEN {
        return Err(Error::new(
            ErrorKind::Mismatch,
            format!(
                "frame header is {} bytes, expected {HEADER_LEN}",
                bytes.len()
            ),
        ));
    }
    let mut aligned = AlignedHeader([0; HEADER_LEN]);
    aligned.0.copy_from_slice(bytes);
    let archived = rkyv::api::low::access::<ArchivedFrameHeader, rancor::Error>(&aligned.0)
        .map_err(|e| Error::new(ErrorKind::Mismatch, format!("malformed frame header: {e}")))?;
    let h: FrameHeader = rkyv::deserialize::<FrameHeader, rancor::Error>(archived)
        .map_err(|e| Error::new(ErrorKind::Mismatch, format!("malformed frame header: {e}")))?;
    if h.magic != MAGIC {
        return Err(Error::new(
            ErrorKind::Mismatch,
            "frame header has a bad magic number",
        ));
    }
    if h.frame_kind().is_none() {
        return Err(Error::new(
            ErrorKind::Mismatch,
            format!("unknown frame kind {}", h.kind),
        ));
    }
    match h.frame_kind() {
        Some(FrameKind::P2p) if h.step & !P2P_SYNC != 0 => {
            return Err(Error::new(
                ErrorKind::Mismatch,
                format!("p2p frame has unknown flags {:#x}", h.step),
            ));
        }
        Some(FrameKind::Ack) if h.len != 0 => {
            return Err(Error::new(
                ErrorKind::Mismatch,
                format!("acknowledgement frame carries {} payload bytes", h.len),
            ));
        }
        Some(FrameKind::Abort) if h.len != 0 => {
            return Err(Error::new(
                ErrorKind::Mismatch,
                format!("abort frame carries {} payload bytes", h.len),
            ));
        }
        _ => {}
    }
    if h.len > max_len {
        return Err(Error::new(
            ErrorKind::ResourceExhausted,
            format!("frame of {} bytes exceeds the limit of {max_len}", h.len),
        ));
    }
    Ok(h)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> FrameHeader {
        FrameHeader {
            magic: MAGIC,
            kind: FrameKind::Collective as u8,
            src: 3,
            context: 7,
            tag: -2,
            seq: u64::MAX - 1,
            step: 9,
            len: 1234,
            fp: 0x0102_0000_0000_0003,
            fp_len: 4096,
        }
    }

    #[test]
    fn round_trips() {
        let h = sample();
        let enc = encode_header(&h);
        assert_eq!(decode_header(&enc, u64::MAX).unwrap(), h);
    }

    #[test]
    fn rejects_oversized_lengths_before_allocating() {
        let enc = encode_header(&sample());
        let e = decode_header(&enc, 1000).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::ResourceExhausted);
    }

    #[test]
    fn rejects_bad_magic_kind_and_size() {
        let mut h = sample();
        h.magic = 0;
        assert!(decode_header(&encode_header(&h), u64::MAX).is_err());
        let mut h = sample();
        h.kind = 99;
        assert!(decode_header(&encode_header(&h), u64::MAX).is_err());
        assert!(decode_header(&[0u8; 3], u64::MAX).is_err());
    }

    #[test]
    fn checks_p2p_flags_and_empty_acks() {
        let mut h = sample();
        h.kind = FrameKind::P2p as u8;
        h.step = P2P_SYNC;
        assert_eq!(decode_header(&encode_header(&h), u64::MAX).unwrap(), h);
        h.step = 2;
        assert!(decode_header(&encode_header(&h), u64::MAX).is_err());
        let mut a = FrameHeader::new(FrameKind::Ack, 1);
        a.seq = 5;
        assert_eq!(decode_header(&encode_header(&a), 0).unwrap(), a);
        a.len = 1;
        assert!(decode_header(&encode_header(&a), u64::MAX).is_err());
        let mut x = FrameHeader::new(FrameKind::Abort, 2);
        x.tag = 7;
        assert_eq!(decode_header(&encode_header(&x), 0).unwrap(), x);
        x.len = 3;
        assert!(decode_header(&encode_header(&x), u64::MAX).is_err());
    }

    #[test]
    fn random_bytes_never_panic() {
        let mut rng = nexar_proto::sim::SimRng::new(1);
        for _ in 0..10_000 {
            let b: Vec<u8> = (0..HEADER_LEN).map(|_| rng.next_u64() as u8).collect();
            let _ = decode_header(&b, 1 << 20);
        }
    }
}
