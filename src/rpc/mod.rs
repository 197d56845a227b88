//! Remote procedure calls by function id.
//!
//! A rank registers a handler under a numeric function id on a communicator; any member can
//! then call it by (rank, id) with a byte payload and get the handler's bytes back. Calls are
//! blocking ([`Rpc::call`]) or non-blocking ([`Rpc::start_call`], a [`Request`] that is also a
//! future), so many can be in flight at once; each has an optional timeout.
//!
//! ```
//! # fn main() -> nexar::Result<()> {
//! let ranks = nexar::Context::in_process(2)?;
//! // Rank 1 serves function 7: the sum of the little-endian u32s it is sent.
//! ranks[1].rpc().register(7, |args: &[u8], _caller: u32| {
//!     let sum: u32 = args
//!         .chunks_exact(4)
//!         .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
//!         .sum();
//!     Ok(sum.to_le_bytes().to_vec())
//! });
//! let args: Vec<u8> = [1u32, 2, 3].iter().flat_map(|v| v.to_le_bytes()).collect();
//! let timeout = Some(std::time::Duration::from_secs(10));
//! let reply = ranks[0].rpc().call(1, 7, args, timeout)?;
//! assert_eq!(reply.as_ref(), &6u32.to_le_bytes());
//! // Nothing is registered under 8: the caller gets an error, the callee carries on.
//! let e = ranks[0].rpc().call(1, 8, Vec::new(), timeout).unwrap_err();
//! assert_eq!(e.kind(), nexar::ErrorKind::Unsupported);
//! # Ok(()) }
//! ```
//!
//! Semantics:
//! - Handlers are registered per communicator (its context id) and run on the runtime's
//!   blocking pool, never on the thread that reads the transport: a slow handler does not
//!   stall message delivery, and a handler may itself make calls. The `caller` argument is the
//!   caller's rank in the communicator. Register before others call (e.g. then a barrier): a
//!   call that arrives first gets "no such function".
//! - A handler's error reaches the caller with its kind and message; a panic becomes an
//!   [`ErrorKind::Internal`] error with the panic message; an unregistered id gives
//!   [`ErrorKind::Unsupported`]; a timeout gives [`ErrorKind::Timeout`] (a reply arriving later
//!   is dropped); a callee that dies gives [`ErrorKind::ProcFailed`]; a bad rank gives
//!   [`ErrorKind::InvalidRank`]. Calling one's own rank works.
//! - Re-registering an id replaces its handler (calls already running finish with the old
//!   one); [`Rpc::unregister`] removes it. Finalizing drops every handler and fails this
//!   rank's pending calls with [`ErrorKind::Finalized`]; a finalized rank answers calls with
//!   that error while its connections last. Pass a timeout where the callee may leave.
//! - A rank runs or queues at most 65,536 calls (and 1 GiB of their arguments) at once and
//!   refuses more with [`ErrorKind::ResourceExhausted`]. Handlers that block waiting on calls
//!   of their own hold a blocking-pool thread each (tokio's default pool has 512), which
//!   bounds how deep and wide such nesting can go.
//! - Frames are [`crate::wire::FrameKind::Rpc`] (layout in [`wire`]); a malformed request is
//!   answered with an [`ErrorKind::Mismatch`] error, a malformed reply fails the call it
//!   names, and anything else malformed is dropped with a debug log.

mod serve;
mod table;
pub mod wire;

pub(crate) use table::Tables;

use crate::comm::Comm;
use crate::core::engine::Engine;
use crate::error::{Error, ErrorKind, Result};
use crate::request::Request;
use bytes::Bytes;
use std::sync::Arc;
use std::time::Duration;
use table::{Pending, Registered, Scope};
use tokio::sync::oneshot;

/// A handle for making and serving remote procedure calls on one communicator. Cheap to clone;
/// get one with [`Comm::rpc`] or [`Context::rpc`](crate::Context::rpc).
#[derive(Clone)]
pub struct Rpc {
    engine: Arc<Engine>,
    context: u64,
    /// Members' world ranks in comm-rank order.
    world: Arc<[u32]>,
    /// World rank -> comm rank.
    scope: Scope,
}

impl std::fmt::Debug for Rpc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rpc")
            .field("context", &self.context)
            .field("size", &self.world.len())
            .finish()
    }
}

impl Comm {
    /// The RPC handle of this communicator: handlers registered through it answer calls made
    /// on this communicator, and ranks are ranks in it. See [`crate::rpc`].
    pub fn rpc(&self) -> Rpc {
        let world = self.inner.members.world().clone();
        let scope = world
            .iter()
            .enumerate()
            .map(|(i, &w)| (w, i as u32))
            .collect();
        Rpc {
            engine: self.inner.engine.clone(),
            context: self.inner.context,
            world,
            scope: Arc::new(scope),
        }
    }
}

impl Rpc {
    /// Number of ranks that can be called.
    pub fn size(&self) -> u32 {
        self.world.len() as u32
    }

    /// Registers `handler` under `fn_id`, replacing (and returning true for) any handler
    /// already there. The handler gets the payload and the caller's rank. Does nothing (and
    /// returns false) once the context is finalized.
    pub fn register<F>(&self, fn_id: u32, handler: F) -> bool
    where
        F: Fn(&[u8], u32) -> Result<Vec<u8>> + Send + Sync + 'static,
    {
        let r = Registered {
            handler: Arc::new(handler),
            scope: self.scope.clone(),
        };
        self.engine
            .feature::<Tables>()
            .register(self.context, fn_id, r)
    }

    /// Removes the handler under `fn_id`; true if there was one. Later calls to it get
    /// "no such function"; calls already running finish.
    pub fn unregister(&self, fn_id: u32) -> bool {
        self.engine
            .feature::<Tables>()
            .unregister(self.context, fn_id)
    }

    /// Whether a handler is registered under `fn_id` on this rank.
    pub fn is_registered(&self, fn_id: u32) -> bool {
        self.engine
            .feature::<Tables>()
            .handler(self.context, fn_id)
            .is_some()
    }

    /// Number of this rank's calls still awaiting a reply (on every communicator).
    pub fn pending_calls(&self) -> usize {
        self.engine.feature::<Tables>().pending_len()
    }

    /// Calls function `fn_id` on `rank` with `payload` and blocks for the reply (at most
    /// `timeout`, if given). See the [module docs](crate::rpc) for the errors.
    pub fn call(
        &self,
        rank: u32,
        fn_id: u32,
        payload: impl Into<Bytes>,
        timeout: Option<Duration>,
    ) -> Result<Bytes> {
        self.finish(self.start_call(rank, fn_id, payload, timeout))
    }

    /// Blocks for the reply of a call [`Rpc::start_call`] started, driving the transport on
    /// this thread while waiting where it can (shared memory), like the other blocking calls:
    /// the reply needs no hand-off from its progress thread.
    pub(crate) fn finish(&self, call: Request<Bytes>) -> Result<Bytes> {
        let progress = self
            .engine
            .transport_if_connected()
            .and_then(|t| t.caller_progress());
        crate::transport::caller::block_on(progress, call)
    }

    /// Starts a call and returns at once; the [`Request`] (also a future) yields the reply.
    /// Errors known at once (bad rank, dead target, oversized payload) complete it immediately.
    /// Dropping it abandons the call (its reply is then discarded).
    pub fn start_call(
        &self,
        rank: u32,
        fn_id: u32,
        payload: impl Into<Bytes>,
        timeout: Option<Duration>,
    ) -> Request<Bytes> {
        match self.launch(rank, fn_id, payload.into(), timeout) {
            Ok(rx) => Request::inline(async move {
                rx.await.unwrap_or_else(|_| {
                    Err(Error::new(
                        ErrorKind::Internal,
                        "rpc: the call was dropped without an answer",
                    ))
                })
            }),
            Err(e) => Request::ready(Err(e)),
        }
    }

    fn launch(
        &self,
        rank: u32,
        fn_id: u32,
        payload: Bytes,
        timeout: Option<Duration>,
    ) -> Result<oneshot::Receiver<Result<Bytes>>> {
        let engine = &self.engine;
        engine.check_open()?;
        let to = *self.world.get(rank as usize).ok_or_else(|| {
            Error::new(
                ErrorKind::InvalidRank,
                format!(
                    "rpc: rank {rank} is out of range for a communicator of size {}",
                    self.world.len()
                ),
            )
        })?;
        let max = engine.cfg.max_message;
        if payload.len() as u64 > max {
            return Err(Error::new(
                ErrorKind::ResourceExhausted,
                format!(
                    "rpc: a payload of {} bytes exceeds the message limit of {max} bytes",
                    payload.len()
                ),
            ));
        }
        if let Some(e) = engine.failure_of(to) {
            return Err(e);
        }
        let tables = engine.feature::<Tables>();
        let id = tables.next_id();
        let (tx, rx) = oneshot::channel();
        tables.insert(
            id,
            Pending {
                to_world: to,
                to_rank: rank,
                context: self.context,
                fn_id,
                tx,
                timer: None,
            },
        );
        // Re-checked after registering: a failure (or close) recorded since either shows here
        // or found the entry (`Engine::mark_failed` and `close` fail pending calls after
        // recording).
        if let Some(e) = engine.failure_of(to).or_else(|| engine.check_open().err()) {
            tables.take(id);
            return Err(e);
        }
        if let Some(d) = timeout {
            let t = tables_timer(engine, id, rank, fn_id, d);
            if !tables.set_timer(id, t.clone()) {
                t.abort();
            }
        }
        if to == engine.rank {
            serve::serve(engine, to, self.context, id, fn_id, payload);
        } else {
            let msg = wire::RpcMsg::Request {
                context: self.context,
                id,
                fn_id,
                payload,
            };
            if let Err(e) = engine.transport().send(to, wire::encode(engine.rank, msg)) {
                if let Some(p) = tables.take(id) {
                    p.finish(Err(e.clone()));
                }
                return Err(e);
            }
        }
        Ok(rx)
    }
}

/// Starts the timer that fails call `id` after `d` (removing it, so a late reply is dropped).
fn tables_timer(
    engine: &Engine,
    id: u64,
    rank: u32,
    fn_id: u32,
    d: Duration,
) -> tokio::task::AbortHandle {
    let tables = engine.feature::<Tables>();
    engine
        .runtime
        .spawn(async move {
            tokio::time::sleep(d).await;
            if let Some(p) = tables.take(id) {
                p.finish(Err(Error::new(
                    ErrorKind::Timeout,
                    format!("rpc: function {fn_id} on rank {rank} did not answer within {d:?}"),
                )));
            }
        })
        .abort_handle()
}
