//! Windows served by active messages (members that share no memory, see [`super`]): each
//! access to another member is a remote procedure call on the window's communicator, run by
//! the target's engine on its own memory and control words, so the target takes no part.
//!
//! **Order and completion.** Each origin numbers its requests to each target; the target
//! serves one origin's requests in that order (a request waits for its predecessor), which
//! keeps MPI's accumulate ordering however the calls are scheduled. So puts, non-fetching
//! accumulates and the store that ends a custom accumulate need not wait for their replies:
//! at most [`MAX_IN_FLIGHT`] of them (of up to [`PIPELINED_BYTES`] each) per target are in
//! flight, and a flush, unlock, complete, fence or free waits for them ([`Window::settle`]),
//! reporting the first error. Everything else waits for its reply.
//!
//! One function id, [`FN`], on the window's private communicator; a request is an operation
//! byte, its sequence number (u64) and its fields, little-endian:
//!
//! ```text
//! PUT        runs, data                      -> ()
//! GET        runs                            -> the runs' bytes
//! ACC        combine, op, dtype, fetch, runs, origin -> the old bytes if fetch
//! CAS        offset u64, len u32, compare, origin    -> the old bytes
//! LOCK       kind                            -> () once granted (waits at the target)
//! UNLOCK     kind                            -> ()
//! HOLD       runs                            -> the runs' bytes, the accumulate mutex kept
//! RELEASE    store u8, runs, data            -> () (data written if store), mutex released
//!            (HOLD and RELEASE: a custom combiner, which runs at the origin)
//! POST       count u64                       -> () (the caller's posts to this member)
//! COMPLETE                                   -> () (one more complete from the caller)
//! runs = count u32, then (offset u64, bytes u64) each: offsets from the target window's
//!        start (absolute addresses for a dynamic window), checked again by the target
//! ```
//!
//! A malformed request is answered with [`ErrorKind::Mismatch`]; the target's own errors
//! (a run outside its window, [`ErrorKind::RmaRange`]) reach the origin with their kind, and a
//! dead target gives [`ErrorKind::ProcFailed`] (the RPC layer watches it).

use super::Window;
use super::access::{Combine, Place};
use super::sync::LockKind;
use crate::error::{Error, ErrorKind, Result};
use crate::request::Request as Call;
use crate::rpc::Rpc;
use bytes::Bytes;
use nexar_proto::{Datatype, Order, ReduceOp, Reducer};
use parking_lot::Mutex;
use std::collections::BTreeMap;
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// The function id a window's members serve on its communicator.
pub(super) const FN: u32 = 1;

const PUT: u8 = 1;
const GET: u8 = 2;
const ACC: u8 = 3;
const CAS: u8 = 4;
const LOCK: u8 = 5;
const UNLOCK: u8 = 6;
const HOLD: u8 = 7;
const RELEASE: u8 = 8;
const POST: u8 = 9;
const COMPLETE: u8 = 10;

/// How an accumulate's combiner travels.
const REPLACE: u8 = 0;
const NO_OP: u8 = 1;
const BUILTIN: u8 = 2;

/// Most requests in flight to one target without their replies.
pub(super) const MAX_IN_FLIGHT: usize = 64;
/// Largest request sent without waiting for its reply.
pub(super) const PIPELINED_BYTES: usize = 64 << 10;
/// A request whose predecessor from the same origin has not arrived after this long fails
/// (the predecessor was refused by the RPC layer, say): its successors cannot be served.
const LOST_AFTER: Duration = Duration::from_secs(60);
/// How often a request waiting for its turn checks that its origin and this engine live.
const CHECK_EVERY: Duration = Duration::from_millis(10);

/// The active-message side of one member's window: its calls to the others, and the order in
/// which it serves theirs.
pub(super) struct Remote {
    rpc: Rpc,
    flight: Mutex<Flight>,
    /// Per origin: where serving its requests stands.
    served: Mutex<Vec<Served>>,
}

/// Serving one origin's requests.
#[derive(Default)]
struct Served {
    /// Requests served so far (the number of the next one).
    next: u64,
    /// The threads holding later requests, by number: each is woken alone when its turn
    /// comes (many may wait while a window of requests is in flight).
    waiting: BTreeMap<u64, std::thread::Thread>,
}

/// This member's requests to the others.
struct Flight {
    /// Per target: requests numbered so far.
    sent: Vec<u64>,
    /// Per target: requests in `pending`.
    in_flight: Vec<usize>,
    /// Requests sent without waiting, oldest first: (target, call, what it was).
    pending: VecDeque<(u32, Call<Bytes>, &'static str)>,
}

impl Remote {
    /// The active-message side of a window of `n` members on `rpc`'s communicator.
    pub(super) fn new(rpc: Rpc, n: usize) -> Self {
        Self {
            rpc,
            flight: Mutex::new(Flight {
                sent: vec![0; n],
                in_flight: vec![0; n],
                pending: VecDeque::new(),
            }),
            served: Mutex::new((0..n).map(|_| Served::default()).collect()),
        }
    }

    /// Stops serving (the window is gone).
    pub(super) fn stop(&self) {
        self.rpc.unregister(FN);
    }
}

impl Flight {
    /// Numbers `req` as this member's next request to `rank` and sends it.
    fn start(&mut self, rpc: &Rpc, rank: u32, mut req: Request) -> Call<Bytes> {
        let seq = &mut self.sent[rank as usize];
        req.0[1..9].copy_from_slice(&seq.to_le_bytes());
        *seq += 1;
        rpc.start_call(rank, FN, req.0, None)
    }
}

/// Serving `origin`'s next request: dropping it lets the one after it in.
struct Turn<'a> {
    remote: &'a Remote,
    origin: usize,
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        let mut served = self.remote.served.lock();
        let o = &mut served[self.origin];
        o.next += 1;
        if let Some(t) = o.waiting.get(&o.next) {
            t.unpark();
        }
    }
}

/// Starts serving `window`'s accesses from the other members (the handler holds it weakly:
/// dropping the window ends the service, see `Drop for Inner`).
pub(super) fn serve(window: &Window) {
    let weak = Arc::downgrade(&window.inner);
    if let Some(remote) = &window.inner.remote {
        remote.rpc.register(FN, move |req: &[u8], caller: u32| {
            let inner = weak
                .upgrade()
                .ok_or_else(|| Error::new(ErrorKind::InvalidArgument, "the window was freed"))?;
            Window { inner }.answer(req, caller)
        });
    }
}

/// A request being built.
struct Request(Vec<u8>);

impl Request {
    /// Request `op`, its sequence number left for [`Flight::start`] to fill in.
    fn new(op: u8, capacity: usize) -> Self {
        let mut v = Vec::with_capacity(capacity + 16);
        v.push(op);
        v.extend_from_slice(&[0; 8]);
        Self(v)
    }

    fn u8(mut self, v: u8) -> Self {
        self.0.push(v);
        self
    }

    fn u32(mut self, v: u32) -> Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }

    fn u64(mut self, v: u64) -> Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }

    fn runs(self, at: &[(u64, usize)]) -> Self {
        at.iter().fold(self.u32(at.len() as u32), |r, &(a, n)| {
            r.u64(a).u64(n as u64)
        })
    }

    fn bytes(mut self, b: &[u8]) -> Self {
        self.0.extend_from_slice(b);
        self
    }
}

/// A request being read.
struct Fields<'a>(&'a [u8]);

fn malformed() -> Error {
    Error::new(ErrorKind::Mismatch, "malformed window request")
}

impl<'a> Fields<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if self.0.len() < n {
            return Err(malformed());
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }

    fn u8(&mut self) -> Result<u8> {
        Ok(self.take(1)?[0])
    }

    fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }

    fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }

    fn kind(&mut self) -> Result<LockKind> {
        match self.u8()? {
            0 => Ok(LockKind::Shared),
            1 => Ok(LockKind::Exclusive),
            _ => Err(malformed()),
        }
    }

    /// The runs of an access to this member's own window: checked and made absolute.
    fn runs(&mut self, w: &Window) -> Result<(Vec<(u64, usize)>, usize)> {
        let n = self.u32()? as usize;
        if n > self.0.len() / 16 {
            return Err(malformed());
        }
        let l = w.placement(w.inner.me as u32, 0);
        let mut at = Vec::with_capacity(n);
        let mut total = 0usize;
        for _ in 0..n {
            let (off, len) = (self.u64()?, self.u64()?);
            let len = usize::try_from(len).map_err(|_| malformed())?;
            let off = isize::try_from(off).map_err(|_| {
                Error::new(ErrorKind::RmaRange, "a run starts past the address space")
            })?;
            at.push((l.address(off, len)?, len));
            total = total.checked_add(len).ok_or_else(malformed)?;
        }
        Ok((at, total))
    }
}

fn kind_byte(kind: LockKind) -> u8 {
    match kind {
        LockKind::Shared => 0,
        LockKind::Exclusive => 1,
    }
}

fn context(e: Error, what: &str, rank: u32) -> Error {
    e.context(format!("{what} on window rank {rank}"))
}

impl Window {
    fn remote(&self) -> Result<&Remote> {
        self.inner.remote.as_ref().ok_or_else(|| {
            Error::new(
                ErrorKind::Internal,
                "a window in shared memory has no active messages",
            )
        })
    }

    /// Sends `req` to member `rank` and waits for the reply.
    fn call(&self, rank: u32, req: Request, what: &str) -> Result<Bytes> {
        let r = self.remote()?;
        let call = r.flight.lock().start(&r.rpc, rank, req);
        r.rpc.finish(call).map_err(|e| context(e, what, rank))
    }

    /// Sends `req` to member `rank` without waiting for the reply (see the module docs), as
    /// part of the flight `fl` holds.
    fn send_in(
        &self,
        r: &Remote,
        mut fl: parking_lot::MutexGuard<'_, Flight>,
        rank: u32,
        req: Request,
        what: &'static str,
    ) -> Result<()> {
        if req.0.len() > PIPELINED_BYTES {
            let call = fl.start(&r.rpc, rank, req);
            drop(fl);
            return r
                .rpc
                .finish(call)
                .map(drop)
                .map_err(|e| context(e, what, rank));
        }
        let call = fl.start(&r.rpc, rank, req);
        fl.pending.push_back((rank, call, what));
        fl.in_flight[rank as usize] += 1;
        if fl.in_flight[rank as usize] <= MAX_IN_FLIGHT {
            return Ok(());
        }
        // Too many: wait for the oldest to this target.
        let i = fl
            .pending
            .iter()
            .position(|p| p.0 == rank)
            .expect("counted in flight");
        let (_, oldest, what) = fl.pending.remove(i).expect("found");
        fl.in_flight[rank as usize] -= 1;
        drop(fl);
        r.rpc
            .finish(oldest)
            .map(drop)
            .map_err(|e| context(e, what, rank))
    }

    /// [`Window::send_in`] on its own.
    fn send(&self, rank: u32, req: Request, what: &'static str) -> Result<()> {
        let r = self.remote()?;
        self.send_in(r, r.flight.lock(), rank, req, what)
    }

    /// Waits for the replies of the requests sent without waiting to member `rank` (`None`:
    /// to every member); the first error is the result. Nothing to do in shared memory.
    pub(super) fn settle(&self, rank: Option<u32>) -> Result<()> {
        let Some(r) = &self.inner.remote else {
            return Ok(());
        };
        let calls: Vec<_> = {
            let mut fl = r.flight.lock();
            if fl.pending.is_empty() {
                return Ok(());
            }
            let all = std::mem::take(&mut fl.pending);
            let (mine, keep) = all.into_iter().partition(|p| rank.is_none_or(|t| p.0 == t));
            fl.pending = keep;
            for p in &mine {
                fl.in_flight[p.0 as usize] -= 1;
            }
            mine.into_iter().collect()
        };
        let mut first = Ok(());
        for (t, call, what) in calls {
            let got = r.rpc.finish(call);
            if let (Ok(()), Err(e)) = (&first, got) {
                first = Err(context(e, what, t));
            }
        }
        first
    }

    /// Writes `src` into the runs `at` (offsets) of member `rank`.
    // Out of the shared-memory path's way: `write` / `read` stay small enough to inline.
    #[cold]
    #[inline(never)]
    pub(super) fn write_remote(&self, rank: u32, at: &[(u64, usize)], src: &[u8]) -> Result<()> {
        let req = Request::new(PUT, 4 + 16 * at.len() + src.len())
            .runs(at)
            .bytes(src);
        self.send(rank, req, "a put")
    }

    /// Reads the runs `at` (offsets) of member `rank` into `dst`.
    // Out of the shared-memory path's way: `write` / `read` stay small enough to inline.
    #[cold]
    #[inline(never)]
    pub(super) fn read_remote(&self, rank: u32, at: &[(u64, usize)], dst: &mut [u8]) -> Result<()> {
        let req = Request::new(GET, 4 + 16 * at.len()).runs(at);
        let got = self.call(rank, req, "a get")?;
        if got.len() != dst.len() {
            return Err(malformed().context(format!("a get returned {} bytes", got.len())));
        }
        dst.copy_from_slice(&got);
        Ok(())
    }

    /// An accumulate on member `rank`: one call where the combiner can travel (replace, no-op,
    /// a predefined op on a predefined type), else two: the target's data fetched with its
    /// accumulate mutex kept, combined here, and stored back as the mutex is released.
    pub(super) fn accumulate_remote(
        &self,
        rank: u32,
        at: &[(u64, usize)],
        origin: &[u8],
        combine: Combine<'_>,
        fetch: Option<&mut [u8]>,
    ) -> Result<()> {
        let (how, op, dtype) = match combine {
            Combine::Replace => (REPLACE, 0, 0),
            Combine::NoOp => (NO_OP, 0, 0),
            Combine::Reduce(Reducer::Builtin { op, dtype }) => (BUILTIN, *op as u8, *dtype as u8),
            Combine::Reduce(r) => return self.accumulate_custom(rank, at, origin, r, fetch),
        };
        let req = Request::new(ACC, 8 + 16 * at.len() + origin.len())
            .u8(how)
            .u8(op)
            .u8(dtype)
            .u8(u8::from(fetch.is_some()))
            .runs(at)
            .bytes(if how == NO_OP { &[] } else { origin });
        let Some(f) = fetch else {
            return self.send(rank, req, "an accumulate");
        };
        let old = self.call(rank, req, "an accumulate")?;
        if old.len() != f.len() {
            return Err(malformed().context("the fetched data has the wrong size"));
        }
        f.copy_from_slice(&old);
        Ok(())
    }

    fn accumulate_custom(
        &self,
        rank: u32,
        at: &[(u64, usize)],
        origin: &[u8],
        r: &Reducer,
        fetch: Option<&mut [u8]>,
    ) -> Result<()> {
        let total: usize = at.iter().map(|r| r.1).sum();
        let rem = self.remote()?;
        // The flight stays locked until the store is sent, so no other thread's request to
        // `rank` falls between the two (served after the hold, it could wait for the mutex
        // while holding the store up).
        let mut fl = rem.flight.lock();
        let req = Request::new(HOLD, 4 + 16 * at.len()).runs(at);
        let call = fl.start(&rem.rpc, rank, req);
        let held = rem
            .rpc
            .finish(call)
            .map_err(|e| context(e, "an accumulate (fetching its target data)", rank))?;
        let mut now = held.to_vec();
        let combined = if now.len() != total {
            Err(malformed().context("the held target data has the wrong size"))
        } else {
            if let Some(f) = fetch {
                f.copy_from_slice(&now);
            }
            r.reduce_into(&mut now, origin, Order::AccFirst)
                .map_err(Error::from)
        };
        // Released in every case; stored only if combined.
        let req = Request::new(RELEASE, 5 + 16 * at.len() + total)
            .u8(u8::from(combined.is_ok()))
            .runs(at)
            .bytes(if combined.is_ok() { &now } else { &[] });
        let released = self.send_in(rem, fl, rank, req, "an accumulate (storing its result)");
        combined.and(released)
    }

    /// A compare-and-swap of the `compare.len()` bytes at offset `off` of member `rank`.
    pub(super) fn compare_and_swap_remote(
        &self,
        rank: u32,
        off: u64,
        origin: &[u8],
        compare: &[u8],
        result: &mut [u8],
    ) -> Result<()> {
        let req = Request::new(CAS, 12 + 2 * compare.len())
            .u64(off)
            .u32(compare.len() as u32)
            .bytes(compare)
            .bytes(origin);
        let old = self.call(rank, req, "a compare-and-swap")?;
        if old.len() != result.len() {
            return Err(malformed().context("the compare-and-swap result has the wrong size"));
        }
        result.copy_from_slice(&old);
        Ok(())
    }

    /// Takes member `rank`'s lock (the call returns once the target granted it).
    pub(super) fn lock_remote(&self, rank: u32, kind: LockKind) -> Result<()> {
        let req = Request::new(LOCK, 1).u8(kind_byte(kind));
        self.call(rank, req, &format!("waiting for the {kind:?} lock"))
            .map(drop)
    }

    /// Releases member `rank`'s lock.
    pub(super) fn unlock_remote(&self, rank: u32, kind: LockKind) -> Result<()> {
        let req = Request::new(UNLOCK, 1).u8(kind_byte(kind));
        self.call(rank, req, "an unlock").map(drop)
    }

    /// Tells origin `rank` that this member posted to it `count` times in all.
    pub(super) fn post_remote(&self, rank: u32, count: u64) -> Result<()> {
        self.call(rank, Request::new(POST, 8).u64(count), "a post")
            .map(drop)
    }

    /// Tells target `rank` that this member completed one more access epoch to it.
    pub(super) fn complete_remote(&self, rank: u32) -> Result<()> {
        self.call(rank, Request::new(COMPLETE, 0), "a complete")
            .map(drop)
    }

    /// Waits until request `seq` of member `origin` is the next to serve.
    fn turn(&self, origin: usize, seq: u64) -> Result<Turn<'_>> {
        let r = self.remote()?;
        let start = Instant::now();
        let mut served = r.served.lock();
        let waited = loop {
            let o = served.get_mut(origin).ok_or_else(malformed)?;
            if o.next == seq {
                break Ok(());
            }
            if o.next > seq {
                break Err(malformed().context(format!("request {seq} came twice")));
            }
            o.waiting.insert(seq, std::thread::current());
            drop(served);
            // Woken by the predecessor's end; the timeout is for the checks.
            std::thread::park_timeout(CHECK_EVERY);
            let engine = &self.inner.comm.inner.engine;
            let world = self.inner.comm.inner.members.world()[origin];
            let gone = engine
                .check_open()
                .err()
                .or_else(|| engine.failure_of(world));
            served = r.served.lock();
            if let Some(e) = gone {
                break Err(e);
            }
            if start.elapsed() > LOST_AFTER {
                break Err(Error::new(
                    ErrorKind::Internal,
                    format!(
                        "window rank {origin}'s request {} never arrived: its later ones \
                         cannot be served",
                        served[origin].next
                    ),
                ));
            }
        };
        served[origin].waiting.remove(&seq);
        waited.map(|()| Turn { remote: r, origin })
    }

    /// Serves request `req` from member `caller` on this member's memory and words (on the
    /// engine's blocking pool: locks and the accumulate mutex may be waited for).
    fn answer(&self, req: &[u8], caller: u32) -> Result<Vec<u8>> {
        let mut f = Fields(req);
        let me = self.inner.me;
        let n = self.inner.targets.len();
        let from = *self
            .inner
            .comm
            .inner
            .members
            .world()
            .get(caller as usize)
            .ok_or_else(malformed)?;
        let op = f.u8()?;
        let _turn = self.turn(caller as usize, f.u64()?)?;
        match op {
            PUT => {
                let (at, total) = f.runs(self)?;
                if f.0.len() != total {
                    return Err(malformed());
                }
                self.write(&Place::Here, &at, f.0)?;
                Ok(Vec::new())
            }
            GET => {
                let (at, total) = f.runs(self)?;
                let mut out = vec![0u8; total];
                self.read(&Place::Here, &at, &mut out)?;
                Ok(out)
            }
            ACC => {
                let (how, op, dtype, fetch) = (f.u8()?, f.u8()?, f.u8()?, f.u8()? != 0);
                let (at, total) = f.runs(self)?;
                let reducer;
                let combine = match how {
                    REPLACE => Combine::Replace,
                    NO_OP => Combine::NoOp,
                    BUILTIN => {
                        let op = ReduceOp::from_u8(op).ok_or_else(malformed)?;
                        let dtype = Datatype::from_u8(dtype).ok_or_else(malformed)?;
                        reducer = Reducer::builtin(op, dtype);
                        reducer.check().map_err(Error::from)?;
                        Combine::Reduce(&reducer)
                    }
                    _ => return Err(malformed()),
                };
                if how != NO_OP && f.0.len() != total {
                    return Err(malformed());
                }
                let _held = self.acc_lock_for(me, from)?;
                let mut old = vec![0u8; if fetch { total } else { 0 }];
                self.combine_held(&Place::Here, &at, f.0, combine, fetch.then_some(&mut old))?;
                Ok(old)
            }
            CAS => {
                let off = f.u64()?;
                let len = f.u32()? as usize;
                let compare = f.take(len)?;
                let origin = f.take(len)?;
                let l = self.placement(me as u32, 0);
                let off = isize::try_from(off).map_err(|_| malformed())?;
                let at = [(l.address(off, len)?, len)];
                let _held = self.acc_lock_for(me, from)?;
                let mut old = vec![0u8; len];
                self.swap_held(&Place::Here, &at, origin, compare, &mut old)?;
                Ok(old)
            }
            LOCK => {
                let kind = f.kind()?;
                self.acquire_for(me, kind, from)?;
                // Granted to a caller that died meanwhile: nobody would release it.
                if let Some(e) = self.inner.comm.inner.engine.failure_of(from) {
                    self.release_here(me, kind);
                    return Err(e);
                }
                Ok(Vec::new())
            }
            UNLOCK => {
                self.release_here(me, f.kind()?);
                Ok(Vec::new())
            }
            HOLD => {
                let (at, total) = f.runs(self)?;
                let held = self.acc_lock_for(me, from)?;
                let mut out = vec![0u8; total];
                self.read(&Place::Here, &at, &mut out)?;
                // Kept across calls: RELEASE ends it (or, should the caller die first, the
                // others' waits for it fail, see `acc_lock_for`'s watch).
                std::mem::forget(held);
                Ok(out)
            }
            RELEASE => {
                let store = f.u8()? != 0;
                let word = self.inner.area.acc_mutex(me);
                if word.load(Ordering::Acquire) != u64::from(from) + 1 {
                    return Err(
                        malformed().context("the caller does not hold the accumulate mutex")
                    );
                }
                let stored = f.runs(self).and_then(|(at, total)| {
                    if !store {
                        return Ok(());
                    }
                    if f.0.len() != total {
                        return Err(malformed());
                    }
                    self.write(&Place::Here, &at, f.0)
                });
                word.store(0, Ordering::Release);
                stored.map(|()| Vec::new())
            }
            POST if (caller as usize) < n => {
                let count = f.u64()?;
                self.inner
                    .area
                    .post(caller as usize, me)
                    .fetch_max(count, Ordering::AcqRel);
                Ok(Vec::new())
            }
            COMPLETE if (caller as usize) < n => {
                self.inner
                    .area
                    .complete(me, caller as usize)
                    .fetch_add(1, Ordering::AcqRel);
                Ok(Vec::new())
            }
            _ => Err(malformed()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rma::{Exposed, Flavor};
    use crate::{Config, Context};

    /// Request `seq` of a put of `v` into the first 8 bytes.
    fn put(seq: u64, v: u64) -> Vec<u8> {
        let mut r = Request::new(PUT, 32)
            .runs(&[(0, 8)])
            .bytes(&v.to_le_bytes());
        r.0[1..9].copy_from_slice(&seq.to_le_bytes());
        r.0
    }

    #[test]
    fn a_request_waits_for_its_predecessor_from_the_same_origin() {
        let cfg = Config {
            rma_messages: true,
            ..Config::default()
        };
        let ctxs = Context::in_process_with(2, cfg).unwrap();
        let mine = || Exposed {
            base: std::ptr::null_mut(),
            size: 16,
            disp_unit: 8,
            noncontig: false,
        };
        let wins: Vec<Window> = std::thread::scope(|s| {
            let hs: Vec<_> = ctxs
                .iter()
                .map(|c| s.spawn(move || c.world().win_create(Flavor::Allocate, mine()).unwrap()))
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let w1 = &wins[1];
        std::thread::scope(|s| {
            // Rank 0's request 1 arrives before its request 0: it waits.
            let later = s.spawn(|| w1.answer(&put(1, 7), 0));
            std::thread::sleep(Duration::from_millis(100));
            assert!(!later.is_finished(), "request 1 waits for request 0");
            w1.answer(&put(0, 5), 0).unwrap();
            later.join().unwrap().unwrap();
        });
        let (base, _, _) = w1.local();
        // SAFETY: rank 1's window memory, written above by the served puts.
        let v = unsafe { (base as *const u64).read_volatile() };
        assert_eq!(v, 7, "served in order: 5, then 7");
        let e = w1.answer(&put(1, 9), 0).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Mismatch, "a repeated number: {e}");
        std::thread::scope(|s| {
            for w in &wins {
                s.spawn(move || w.free().unwrap());
            }
        });
    }
}
