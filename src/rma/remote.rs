//! Windows served by active messages (members that share no memory, see [`super`]): each
//! access to another member is one remote procedure call on the window's communicator, run by
//! the target's engine on its own memory and control words, so the target takes no part.
//!
//! One function id, [`FN`], on the window's private communicator; a request is an operation
//! byte and its fields, little-endian:
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
use bytes::Bytes;
use nexar_proto::{Datatype, Order, ReduceOp, Reducer};
use std::sync::Arc;
use std::sync::atomic::Ordering;

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

/// Starts serving `window`'s accesses from the other members (the handler holds it weakly:
/// dropping the window ends the service, see `Drop for Inner`).
pub(super) fn serve(window: &Window) {
    let weak = Arc::downgrade(&window.inner);
    if let Some(rpc) = &window.inner.rpc {
        rpc.register(FN, move |req: &[u8], caller: u32| {
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
    fn new(op: u8, capacity: usize) -> Self {
        let mut v = Vec::with_capacity(capacity + 16);
        v.push(op);
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

impl Window {
    fn call(&self, rank: u32, req: Request, what: &str) -> Result<Bytes> {
        let rpc = self.inner.rpc.as_ref().ok_or_else(|| {
            Error::new(
                ErrorKind::Internal,
                "a window in shared memory has no active messages",
            )
        })?;
        rpc.call(rank, FN, req.0, None)
            .map_err(|e| e.context(format!("{what} on window rank {rank}")))
    }

    /// Writes `src` into the runs `at` (offsets) of member `rank`.
    pub(super) fn write_remote(&self, rank: u32, at: &[(u64, usize)], src: &[u8]) -> Result<()> {
        let req = Request::new(PUT, 4 + 16 * at.len() + src.len())
            .runs(at)
            .bytes(src);
        self.call(rank, req, "a put").map(drop)
    }

    /// Reads the runs `at` (offsets) of member `rank` into `dst`.
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
        let old = self.call(rank, req, "an accumulate")?;
        if let Some(f) = fetch {
            if old.len() != f.len() {
                return Err(malformed().context("the fetched data has the wrong size"));
            }
            f.copy_from_slice(&old);
        }
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
        let req = Request::new(HOLD, 4 + 16 * at.len()).runs(at);
        let held = self.call(rank, req, "an accumulate (fetching its target data)")?;
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
        let released = self.call(rank, req, "an accumulate (storing its result)");
        combined.and(released.map(drop))
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
        match f.u8()? {
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
