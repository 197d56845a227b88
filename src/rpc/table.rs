//! The engine's RPC state: registered handlers (by communicator context and function id) and
//! this rank's calls awaiting a reply (by request id).

use super::wire::Outcome;
use crate::error::{Error, ErrorKind, Result};
use bytes::Bytes;
use parking_lot::{Mutex, RwLock};
use rustc_hash::FxHashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use tokio::sync::oneshot;
use tokio::task::AbortHandle;

/// A registered function: arguments and the caller's rank in the communicator in, result out.
pub type Handler = Arc<dyn Fn(&[u8], u32) -> Result<Vec<u8>> + Send + Sync + 'static>;

/// Members of the communicator a handler was registered on (world rank -> comm rank).
pub(crate) type Scope = Arc<FxHashMap<u32, u32>>;

/// A handler and the communicator it serves.
#[derive(Clone)]
pub(crate) struct Registered {
    pub handler: Handler,
    pub scope: Scope,
}

/// Handlers by (communicator context, function id).
type HandlerMap = FxHashMap<(u64, u32), Registered>;

/// One call awaiting its reply.
pub(crate) struct Pending {
    /// World rank of the callee (only it may answer).
    pub to_world: u32,
    /// Its rank in the communicator (for messages).
    pub to_rank: u32,
    pub context: u64,
    pub fn_id: u32,
    pub tx: oneshot::Sender<Result<Bytes>>,
    /// The timeout's timer task, cancelled when the call ends first.
    pub timer: Option<AbortHandle>,
}

impl Pending {
    /// Completes the call with `r` and stops its timer.
    pub fn finish(self, r: Result<Bytes>) {
        if let Some(t) = self.timer {
            t.abort();
        }
        let _ = self.tx.send(r);
    }

    /// The caller's result for what the callee replied.
    pub fn result_of(&self, outcome: Outcome) -> Result<Bytes> {
        let (f, r) = (self.fn_id, self.to_rank);
        match outcome {
            Outcome::Ok(b) => Ok(b),
            Outcome::NoSuchFunction => Err(Error::new(
                ErrorKind::Unsupported,
                format!("rpc: rank {r} has no function {f} registered on this communicator"),
            )),
            Outcome::Failed(kind, m) => Err(Error::new(
                kind,
                format!("rpc: function {f} on rank {r} failed: {m}"),
            )),
            Outcome::Panicked(m) => Err(Error::new(
                ErrorKind::Internal,
                format!("rpc: function {f} on rank {r} panicked: {m}"),
            )),
        }
    }
}

/// Shared RPC state of one engine (cloned into handler tasks).
#[derive(Default)]
pub(crate) struct Tables {
    /// Handlers, and whether the engine closed (then nothing more is registered: a handler
    /// may hold a handle on the engine, and only closing breaks that cycle).
    handlers: RwLock<(HandlerMap, bool)>,
    pending: Mutex<FxHashMap<u64, Pending>>,
    next_id: AtomicU64,
    /// Requests accepted whose handler has not finished (bounded by [`MAX_QUEUED`]).
    pub running: AtomicUsize,
    /// Their payload bytes (bounded by [`MAX_QUEUED_BYTES`]).
    pub running_bytes: AtomicU64,
}

/// Most requests a rank runs or queues at once; more are refused with an error reply.
pub(crate) const MAX_QUEUED: usize = 1 << 16;
/// Most request payload bytes a rank holds for handlers at once (one request of any size is
/// always accepted when none is held); more are refused with an error reply.
pub(crate) const MAX_QUEUED_BYTES: u64 = 1 << 30;

impl Tables {
    /// Registers `r` under (`context`, `fn_id`); true if it replaced a handler. Does nothing
    /// (false) once closed.
    pub fn register(&self, context: u64, fn_id: u32, r: Registered) -> bool {
        let mut h = self.handlers.write();
        !h.1 && h.0.insert((context, fn_id), r).is_some()
    }

    /// Removes the handler under (`context`, `fn_id`); true if there was one.
    pub fn unregister(&self, context: u64, fn_id: u32) -> bool {
        self.handlers.write().0.remove(&(context, fn_id)).is_some()
    }

    /// The handler under (`context`, `fn_id`).
    pub fn handler(&self, context: u64, fn_id: u32) -> Option<Registered> {
        self.handlers.read().0.get(&(context, fn_id)).cloned()
    }

    /// A fresh request id.
    pub fn next_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// Records a call awaiting its reply.
    pub fn insert(&self, id: u64, p: Pending) {
        self.pending.lock().insert(id, p);
    }

    /// Removes call `id`, if still pending.
    pub fn take(&self, id: u64) -> Option<Pending> {
        self.pending.lock().remove(&id)
    }

    /// Attaches the timer of call `id`; false (the caller aborts it) if the call already ended.
    pub fn set_timer(&self, id: u64, timer: AbortHandle) -> bool {
        match self.pending.lock().get_mut(&id) {
            Some(p) => {
                p.timer = Some(timer);
                true
            }
            None => false,
        }
    }

    /// Completes call `id` with a reply from world rank `src`; a reply that matches no pending
    /// call (late, after a timeout) or comes from the wrong rank is dropped.
    pub fn reply(&self, src: u32, context: u64, id: u64, fn_id: u32, outcome: Outcome) {
        let p = {
            let mut pending = self.pending.lock();
            match pending.get(&id) {
                Some(p) if p.to_world == src && p.context == context && p.fn_id == fn_id => {
                    pending.remove(&id)
                }
                Some(_) => {
                    tracing::debug!(
                        src,
                        id,
                        "rpc: dropping a reply that does not match its call"
                    );
                    None
                }
                None => {
                    tracing::debug!(src, id, "rpc: dropping a late reply");
                    None
                }
            }
        };
        if let Some(p) = p {
            let r = p.result_of(outcome);
            p.finish(r);
        }
    }

    /// Fails call `id` with `err` if it is still pending and addressed to `src`.
    pub fn fail_one(&self, src: u32, id: u64, err: Error) {
        let p = {
            let mut pending = self.pending.lock();
            match pending.get(&id) {
                Some(p) if p.to_world == src => pending.remove(&id),
                _ => None,
            }
        };
        if let Some(p) = p {
            p.finish(Err(err));
        }
    }

    /// Fails every call to world rank `rank` with `err` (the rank died).
    pub fn fail_peer(&self, rank: u32, err: &Error) {
        let lost: Vec<Pending> = {
            let mut pending = self.pending.lock();
            let ids: Vec<u64> = pending
                .iter()
                .filter(|(_, p)| p.to_world == rank)
                .map(|(id, _)| *id)
                .collect();
            ids.iter().filter_map(|id| pending.remove(id)).collect()
        };
        for p in lost {
            p.finish(Err(err.clone()));
        }
    }

    /// The engine closed: every pending call fails with `err` and handlers are dropped (they
    /// may hold handles on the engine).
    pub fn close(&self, err: &Error) {
        let all: Vec<Pending> = self.pending.lock().drain().map(|(_, p)| p).collect();
        for p in all {
            p.finish(Err(err.clone()));
        }
        let handlers = {
            let mut h = self.handlers.write();
            h.1 = true;
            std::mem::take(&mut h.0)
        };
        drop(handlers);
    }

    /// Admits a request of `len` bytes for its handler; false (nothing taken) when over the
    /// limits. Paired with [`Tables::release`].
    pub fn admit(&self, len: u64) -> bool {
        let n = self.running.fetch_add(1, Ordering::AcqRel);
        let b = self.running_bytes.fetch_add(len, Ordering::AcqRel);
        if n >= MAX_QUEUED || (b > 0 && b + len > MAX_QUEUED_BYTES) {
            self.release(len);
            return false;
        }
        true
    }

    /// A handler admitted with `len` bytes finished.
    pub fn release(&self, len: u64) {
        self.running.fetch_sub(1, Ordering::AcqRel);
        self.running_bytes.fetch_sub(len, Ordering::AcqRel);
    }

    /// Number of calls awaiting a reply.
    pub fn pending_len(&self) -> usize {
        self.pending.lock().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn admission_bounds_calls_and_bytes() {
        let t = Tables::default();
        // One request of any size is admitted when nothing is held.
        assert!(t.admit(MAX_QUEUED_BYTES * 2));
        assert!(!t.admit(1));
        t.release(MAX_QUEUED_BYTES * 2);
        assert!(t.admit(MAX_QUEUED_BYTES / 2));
        assert!(t.admit(MAX_QUEUED_BYTES / 2));
        assert!(!t.admit(1));
        t.release(MAX_QUEUED_BYTES / 2);
        t.release(MAX_QUEUED_BYTES / 2);
        for _ in 0..MAX_QUEUED {
            assert!(t.admit(0));
        }
        assert!(!t.admit(0));
        assert_eq!(t.running.load(Ordering::Relaxed), MAX_QUEUED);
        assert_eq!(t.running_bytes.load(Ordering::Relaxed), 0);
    }
}
