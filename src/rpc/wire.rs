//! RPC frames: how a request or a reply rides in an [`FrameKind::Rpc`] frame.
//!
//! Everything fits in the ordinary frame header, so payloads are never copied to prepend a
//! sub-header:
//!
//! | field     | request                 | reply                                         |
//! |-----------|-------------------------|-----------------------------------------------|
//! | `context` | communicator context    | the request's context                         |
//! | `seq`     | request id (per caller) | the request's id                              |
//! | `tag`     | function id (u32 bits)  | the request's function id                     |
//! | `step`    | 0                       | [`REPLY_FLAG`] + status << 8                  |
//! | `fp`      | 0                       | for [`Status::Failed`]: the `ErrorKind` code  |
//! | `fp_len`  | 0                       | 0                                             |
//! | payload   | the arguments           | the result, or a UTF-8 error message          |

use crate::error::ErrorKind;
use crate::wire::{Frame, FrameHeader, FrameKind};
use bytes::Bytes;

/// `step` bit that marks a reply.
pub const REPLY_FLAG: u32 = 1;
/// Longest error message a reply carries (longer ones are cut at a character boundary).
pub const MAX_ERROR_MESSAGE: usize = 4096;

/// How a call ended, as the callee reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Status {
    /// The handler returned a result (the payload).
    Ok = 0,
    /// No handler is registered under the function id on that communicator.
    NoSuchFunction = 1,
    /// The handler (or the callee, refusing the request) returned an error: `fp` is its kind.
    Failed = 2,
    /// The handler panicked; the payload is the panic message.
    Panicked = 3,
}

impl Status {
    fn from_u8(v: u8) -> Option<Self> {
        match v {
            0 => Some(Self::Ok),
            1 => Some(Self::NoSuchFunction),
            2 => Some(Self::Failed),
            3 => Some(Self::Panicked),
            _ => None,
        }
    }
}

/// What a reply says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The handler's result.
    Ok(Bytes),
    /// No handler under that id.
    NoSuchFunction,
    /// The handler returned an error of this kind, with this message.
    Failed(ErrorKind, String),
    /// The handler panicked with this message.
    Panicked(String),
}

/// A decoded RPC message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RpcMsg {
    /// A call.
    Request {
        /// Communicator context the function is registered on.
        context: u64,
        /// The caller's request id.
        id: u64,
        /// Function id.
        fn_id: u32,
        /// Arguments.
        payload: Bytes,
    },
    /// The answer to a call.
    Reply {
        /// The request's context.
        context: u64,
        /// The request's id.
        id: u64,
        /// The request's function id.
        fn_id: u32,
        /// How it ended.
        outcome: Outcome,
    },
}

/// Why a frame is not a valid RPC message, and whom to tell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Malformed {
    /// True if the frame claims to be a reply (the pending call `id` fails), false if a
    /// request (the callee answers it with an error).
    pub reply: bool,
    /// The request id the frame names.
    pub id: u64,
    /// The frame's context and function id (to address an error reply).
    pub context: u64,
    /// The frame's function id.
    pub fn_id: u32,
    /// What is wrong.
    pub why: String,
}

/// Cuts `s` to at most [`MAX_ERROR_MESSAGE`] bytes at a character boundary.
pub fn clip(mut s: String) -> String {
    if s.len() > MAX_ERROR_MESSAGE {
        let mut end = MAX_ERROR_MESSAGE;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
    }
    s
}

/// Encodes `msg` as a frame from world rank `src`.
pub fn encode(src: u32, msg: RpcMsg) -> Frame {
    let mut h = FrameHeader::new(FrameKind::Rpc, src);
    match msg {
        RpcMsg::Request {
            context,
            id,
            fn_id,
            payload,
        } => {
            h.context = context;
            h.seq = id;
            h.tag = fn_id as i32;
            Frame::new(h, payload)
        }
        RpcMsg::Reply {
            context,
            id,
            fn_id,
            outcome,
        } => {
            h.context = context;
            h.seq = id;
            h.tag = fn_id as i32;
            let (status, payload) = match outcome {
                Outcome::Ok(p) => (Status::Ok, p),
                Outcome::NoSuchFunction => (Status::NoSuchFunction, Bytes::new()),
                Outcome::Failed(kind, m) => {
                    h.fp = kind.code() as u64;
                    (Status::Failed, Bytes::from(clip(m)))
                }
                Outcome::Panicked(m) => (Status::Panicked, Bytes::from(clip(m))),
            };
            h.step = REPLY_FLAG | (status as u32) << 8;
            Frame::new(h, payload)
        }
    }
}

fn message(payload: &Bytes) -> Result<String, String> {
    if payload.len() > MAX_ERROR_MESSAGE {
        return Err(format!(
            "error message of {} bytes exceeds {MAX_ERROR_MESSAGE}",
            payload.len()
        ));
    }
    Ok(String::from_utf8_lossy(payload).into_owned())
}

/// Decodes and validates an [`FrameKind::Rpc`] frame (its header already passed the generic
/// checks: magic, kind, length limit).
pub fn decode(frame: Frame) -> Result<RpcMsg, Malformed> {
    let h = frame.header;
    let reply = h.step & REPLY_FLAG != 0;
    let bad = |why: String| Malformed {
        reply,
        id: h.seq,
        context: h.context,
        fn_id: h.tag as u32,
        why,
    };
    if h.len != frame.payload.len() as u64 {
        return Err(bad(format!(
            "header says {} payload bytes, frame has {}",
            h.len,
            frame.payload.len()
        )));
    }
    if h.fp_len != 0 {
        return Err(bad(format!("unused field fp_len is {}", h.fp_len)));
    }
    if !reply {
        if h.step != 0 || h.fp != 0 {
            return Err(bad(format!(
                "request has unknown flags (step {:#x}, fp {:#x})",
                h.step, h.fp
            )));
        }
        return Ok(RpcMsg::Request {
            context: h.context,
            id: h.seq,
            fn_id: h.tag as u32,
            payload: frame.payload,
        });
    }
    if h.step & !(REPLY_FLAG | 0xff << 8) != 0 {
        return Err(bad(format!("reply has unknown flags {:#x}", h.step)));
    }
    let status_byte = (h.step >> 8) as u8;
    let status =
        Status::from_u8(status_byte).ok_or_else(|| bad(format!("unknown status {status_byte}")))?;
    if status != Status::Failed && h.fp != 0 {
        return Err(bad(format!(
            "reply has an error kind {} without failing",
            h.fp
        )));
    }
    let outcome = match status {
        Status::Ok => Outcome::Ok(frame.payload),
        Status::NoSuchFunction if frame.payload.is_empty() => Outcome::NoSuchFunction,
        Status::NoSuchFunction => {
            return Err(bad("a no-such-function reply carries a payload".into()));
        }
        Status::Failed => {
            let kind = i32::try_from(h.fp)
                .ok()
                .and_then(ErrorKind::from_code)
                .ok_or_else(|| bad(format!("unknown error kind {}", h.fp)))?;
            Outcome::Failed(kind, message(&frame.payload).map_err(bad)?)
        }
        Status::Panicked => Outcome::Panicked(message(&frame.payload).map_err(bad)?),
    };
    Ok(RpcMsg::Reply {
        context: h.context,
        id: h.seq,
        fn_id: h.tag as u32,
        outcome,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::{decode_header, encode_header};
    use proptest::prelude::*;

    fn kind() -> impl Strategy<Value = ErrorKind> {
        (0..ErrorKind::ALL.len()).prop_map(|i| ErrorKind::ALL[i])
    }

    fn outcome() -> impl Strategy<Value = Outcome> {
        prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..256)
                .prop_map(|v| Outcome::Ok(Bytes::from(v))),
            Just(Outcome::NoSuchFunction),
            (kind(), ".{0,64}").prop_map(|(k, m)| Outcome::Failed(k, m)),
            ".{0,64}".prop_map(Outcome::Panicked),
        ]
    }

    fn msg() -> impl Strategy<Value = RpcMsg> {
        let req = (
            any::<u64>(),
            any::<u64>(),
            any::<u32>(),
            proptest::collection::vec(any::<u8>(), 0..256),
        )
            .prop_map(|(context, id, fn_id, p)| RpcMsg::Request {
                context,
                id,
                fn_id,
                payload: Bytes::from(p),
            });
        let rep = (any::<u64>(), any::<u64>(), any::<u32>(), outcome()).prop_map(
            |(context, id, fn_id, outcome)| RpcMsg::Reply {
                context,
                id,
                fn_id,
                outcome,
            },
        );
        prop_oneof![req, rep]
    }

    proptest! {
        #[test]
        fn round_trips_through_the_frame_header(m in msg(), src in any::<u32>()) {
            let f = encode(src, m.clone());
            // The header survives the generic wire encoding too.
            let h = decode_header(&encode_header(&f.header), u64::MAX).unwrap();
            prop_assert_eq!(h, f.header);
            prop_assert_eq!(decode(Frame { header: h, payload: f.payload }).unwrap(), m);
        }

        #[test]
        fn malformed_headers_are_rejected_not_panicking(
            step in any::<u32>(), fp in any::<u64>(), fp_len in any::<u64>(),
            id in any::<u64>(), p in proptest::collection::vec(any::<u8>(), 0..64),
        ) {
            let mut h = FrameHeader::new(FrameKind::Rpc, 1);
            h.step = step;
            h.fp = fp;
            h.fp_len = fp_len;
            h.seq = id;
            let f = Frame::new(h, Bytes::from(p));
            match decode(f.clone()) {
                Ok(m) => {
                    // Whatever decodes must encode back to the same header.
                    prop_assert_eq!(encode(1, m).header, f.header);
                }
                Err(e) => {
                    prop_assert_eq!(e.id, id);
                    prop_assert_eq!(e.reply, step & REPLY_FLAG != 0);
                    prop_assert!(!e.why.is_empty());
                }
            }
        }
    }

    #[test]
    fn specific_malformations_are_named() {
        let mut h = FrameHeader::new(FrameKind::Rpc, 0);
        h.step = 2;
        let e = decode(Frame::new(h, Bytes::new())).unwrap_err();
        assert!(!e.reply && e.why.contains("unknown flags"), "{e:?}");
        h.step = REPLY_FLAG | 9 << 8;
        let e = decode(Frame::new(h, Bytes::new())).unwrap_err();
        assert!(e.reply && e.why.contains("unknown status 9"), "{e:?}");
        h.step = REPLY_FLAG | (Status::Failed as u32) << 8;
        h.fp = 999;
        let e = decode(Frame::new(h, Bytes::new())).unwrap_err();
        assert!(e.why.contains("unknown error kind 999"), "{e:?}");
        h.fp = ErrorKind::Timeout.code() as u64;
        let long = Bytes::from(vec![b'x'; MAX_ERROR_MESSAGE + 1]);
        let e = decode(Frame::new(h, long)).unwrap_err();
        assert!(e.why.contains("exceeds"), "{e:?}");
        // A header whose length disagrees with the payload.
        let mut f = Frame::new(
            FrameHeader::new(FrameKind::Rpc, 0),
            Bytes::from_static(b"ab"),
        );
        f.header.len = 5;
        assert!(decode(f).unwrap_err().why.contains("payload bytes"));
    }

    #[test]
    fn long_messages_are_clipped_on_a_char_boundary() {
        let s = "é".repeat(MAX_ERROR_MESSAGE);
        let c = clip(s);
        assert!(c.len() <= MAX_ERROR_MESSAGE && c.chars().all(|ch| ch == 'é'));
    }
}
