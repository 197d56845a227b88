//! The callee's side: routing an incoming RPC frame, running the handler off the transport's
//! reader path (on the runtime's blocking pool) and sending the reply.

use super::table::{Handler, MAX_QUEUED, MAX_QUEUED_BYTES, Registered, Tables};
use super::wire::{self, Outcome, RpcMsg};
use crate::core::engine::Engine;
use crate::core::feature::Feature;
use crate::error::{Error, ErrorKind};
use crate::transport::Transport;
use crate::wire::{Frame, FrameKind};
use bytes::Bytes;
use std::sync::Arc;

/// What a handler task needs to answer (no handle on the engine itself, which only lends
/// `&self` to the transport's reader).
#[derive(Clone)]
struct Replier {
    tables: Arc<Tables>,
    transport: Arc<dyn Transport>,
    me: u32,
}

impl Replier {
    fn of(engine: &Engine) -> Self {
        Self {
            tables: engine.feature::<Tables>(),
            transport: engine.transport().clone(),
            me: engine.rank,
        }
    }

    /// Sends a reply to world rank `to` (delivered in place to this rank's own calls).
    fn send(&self, to: u32, context: u64, id: u64, fn_id: u32, outcome: Outcome) {
        if to == self.me {
            self.tables.reply(self.me, context, id, fn_id, outcome);
            return;
        }
        let msg = RpcMsg::Reply {
            context,
            id,
            fn_id,
            outcome,
        };
        // A failed send means the caller is gone; its failure is handled elsewhere.
        if let Err(e) = self.transport.send(to, wire::encode(self.me, msg)) {
            tracing::debug!(rank = self.me, to, id, "rpc: reply not sent: {e}");
        }
    }
}

/// The RPC tables are the engine's RPC feature: they take the RPC frames and fail the calls a
/// failed peer or the close leaves unanswered.
impl Feature for Tables {
    fn kinds(&self) -> &'static [FrameKind] {
        &[FrameKind::Rpc]
    }

    fn on_frame(&self, engine: &Engine, frame: Frame) {
        on_frame(engine, frame);
    }

    fn on_peer_failed(&self, rank: u32, err: &Error) {
        self.fail_peer(rank, err);
    }

    fn on_close(&self, err: &Error) {
        self.close(err);
    }
}

/// Routes an [`crate::wire::FrameKind::Rpc`] frame from world rank `frame.header.src`.
fn on_frame(engine: &Engine, frame: Frame) {
    let src = frame.header.src;
    match wire::decode(frame) {
        Ok(RpcMsg::Request {
            context,
            id,
            fn_id,
            payload,
        }) => serve(engine, src, context, id, fn_id, payload),
        Ok(RpcMsg::Reply {
            context,
            id,
            fn_id,
            outcome,
        }) => engine
            .feature::<Tables>()
            .reply(src, context, id, fn_id, outcome),
        Err(m) => {
            tracing::debug!(
                rank = engine.rank,
                src,
                id = m.id,
                "rpc: malformed frame: {}",
                m.why
            );
            if m.reply {
                let why = format!("rpc: malformed reply from world rank {src}: {}", m.why);
                engine.feature::<Tables>().fail_one(
                    src,
                    m.id,
                    Error::new(ErrorKind::Mismatch, why),
                );
            } else {
                let why = format!("malformed request: {}", m.why);
                Replier::of(engine).send(
                    src,
                    m.context,
                    m.id,
                    m.fn_id,
                    Outcome::Failed(ErrorKind::Mismatch, why),
                );
            }
        }
    }
}

/// Runs call `id` from world rank `src` (possibly this rank) and replies.
pub(crate) fn serve(engine: &Engine, src: u32, context: u64, id: u64, fn_id: u32, payload: Bytes) {
    let replier = Replier::of(engine);
    let refuse = |outcome| replier.send(src, context, id, fn_id, outcome);
    if let Err(e) = engine.check_open() {
        // Told rather than left waiting: a rank that left cleanly is not a failed one.
        return refuse(Outcome::Failed(e.kind(), e.message().to_string()));
    }
    let Some(Registered { handler, scope }) = engine.feature::<Tables>().handler(context, fn_id)
    else {
        return refuse(Outcome::NoSuchFunction);
    };
    let Some(&caller) = scope.get(&src) else {
        return refuse(Outcome::Failed(
            ErrorKind::InvalidRank,
            format!("world rank {src} is not a member of the communicator of function {fn_id}"),
        ));
    };
    let len = payload.len() as u64;
    if !engine.feature::<Tables>().admit(len) {
        return refuse(Outcome::Failed(
            ErrorKind::ResourceExhausted,
            format!(
                "too many calls in progress on this rank (limits: {MAX_QUEUED} calls, \
                 {MAX_QUEUED_BYTES} bytes of arguments)"
            ),
        ));
    }
    let max = engine.cfg.max_message;
    let task = replier.clone();
    // The blocking pool: a slow handler, or one that makes calls of its own, never holds up
    // the reader that delivers frames (replies to those calls included).
    engine.runtime.spawn_blocking(move || {
        let outcome = run(&handler, &payload, caller, max);
        drop(payload);
        task.tables.release(len);
        task.send(src, context, id, fn_id, outcome);
    });
}

/// Calls `handler`, turning its error, panic or oversized result into the reply's outcome.
fn run(handler: &Handler, payload: &[u8], caller: u32, max: u64) -> Outcome {
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handler(payload, caller)));
    match r {
        Ok(Ok(v)) if v.len() as u64 > max => Outcome::Failed(
            ErrorKind::ResourceExhausted,
            format!(
                "the result of {} bytes exceeds the message limit of {max} bytes",
                v.len()
            ),
        ),
        Ok(Ok(v)) => Outcome::Ok(Bytes::from(v)),
        Ok(Err(e)) => Outcome::Failed(e.kind(), e.message().to_string()),
        Err(p) => {
            let m = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a non-string panic payload".into());
            Outcome::Panicked(m)
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::error::ErrorKind;
    use crate::transport::FrameSink;
    use crate::wire::{Frame, FrameHeader, FrameKind};
    use bytes::Bytes;
    use std::time::Duration;

    /// A malformed request is answered with an error the caller sees; a malformed reply fails
    /// the call it names; a reply from the wrong rank is dropped.
    #[test]
    fn malformed_frames_fail_the_call_they_address() {
        let ctxs = crate::Context::in_process(3).unwrap();
        let engine = |r: usize| ctxs[r].world().inner.engine.clone();
        ctxs[1].rpc().register(9, |_: &[u8], _| {
            std::thread::sleep(Duration::from_millis(500));
            Ok(Vec::new())
        });
        let rpc = ctxs[0].rpc();
        // Fresh ranks number their calls from 0.
        let first = rpc.start_call(1, 9, Bytes::new(), None);
        let second = rpc.start_call(1, 9, Bytes::new(), None);
        // Rank 1 gets a copy of call 0 with unknown flags: it answers with an error.
        let mut h = FrameHeader::new(FrameKind::Rpc, 0);
        h.tag = 9;
        h.step = 0x40;
        engine(1).on_frame(Frame::new(h, Bytes::new()));
        let e = first.wait().unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Mismatch);
        assert!(e.message().contains("malformed request"), "{e}");
        // Rank 2 is not the callee of call 1: its reply is dropped.
        let mut h = FrameHeader::new(FrameKind::Rpc, 2);
        h.seq = 1;
        h.tag = 9;
        h.step = super::wire::REPLY_FLAG;
        engine(0).on_frame(Frame::new(h, Bytes::from_static(b"forged")));
        assert_eq!(rpc.pending_calls(), 1);
        // A reply to call 1 with an unknown status fails it.
        h.src = 1;
        h.step = super::wire::REPLY_FLAG | 77 << 8;
        engine(0).on_frame(Frame::new(h, Bytes::new()));
        let e = second.wait().unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Mismatch);
        assert!(e.message().contains("unknown status 77"), "{e}");
        assert_eq!(rpc.pending_calls(), 0);
    }
}
