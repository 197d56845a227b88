//! Synchronization: fence, post / start / complete / wait (+ test), lock / unlock (shared and
//! exclusive), lock_all / unlock_all, flushes and sync, and the epoch bookkeeping that turns
//! misuse into [`ErrorKind::RmaSync`] errors.
//!
//! Every operation completes at issue time (see the module docs of [`super`]), so:
//! * a fence is a sequentially consistent memory fence around a barrier of the window's
//!   communicator;
//! * start waits until each target of its group has posted to this origin once more than
//!   the starts this origin already matched (`post[t][o]`); complete bumps `complete[t][o]`;
//!   wait (and test) see `complete[t][o]` reach the posts `t` made to `o`;
//! * a lock takes the target's lock word (exclusive: `0 -> EXCLUSIVE | holder`; shared: one
//!   more holder while no exclusive one), unlock releases it, and flushes are memory fences.
//!
//! On a window served by active messages (`remote.rs`) the same words live in the member that
//! reads them: a post is written into the origin's area, a complete into the target's, and a
//! lock is taken by the target on its own word for the caller; fences, completes, unlocks and
//! flushes first wait for the accesses still in flight ([`Window::settle`]).
//!
//! Epochs are checked locally: an access needs a fence epoch, an access epoch that includes
//! the target, or a lock on it. Nested locks on a target, unlock without a lock, start /
//! post without their complete / wait, and a fence inside a lock or PSCW epoch are errors.

use super::area::EXCLUSIVE;
use super::{Window, wait};
use crate::error::{Error, ErrorKind, Result};
use parking_lot::{Mutex, MutexGuard};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering, fence};

/// A lock's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LockKind {
    /// Only the holder accesses the target (`MPI_LOCK_EXCLUSIVE`).
    Exclusive,
    /// Shared with other shared holders (`MPI_LOCK_SHARED`).
    Shared,
}

/// This member's epochs on one window.
pub(super) struct Epoch {
    /// Between fences (a fence without `no_succeed` opens one).
    fence: bool,
    /// The targets of the access epoch `start` opened.
    access: Option<Vec<usize>>,
    /// The origins of the exposure epoch `post` opened.
    exposure: Option<Vec<usize>>,
    /// Posts this member made to each origin, ever.
    posted: Vec<u64>,
    /// Posts of each target this member's starts matched, ever.
    matched: Vec<u64>,
    /// Locks held, by target.
    locks: BTreeMap<usize, LockKind>,
    /// Inside lock_all.
    lock_all: bool,
}

fn sync_error(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::RmaSync, message)
}

/// This member's [`Epoch`] behind a mutex and, beside it, per target, whether an access to it
/// is inside an epoch now: the question every put and get asks, answered without the lock.
/// A guard that changed the epoch rewrites the flags when it is dropped, so a flag says "open"
/// no longer than the epoch is (an access racing with the call that closes its epoch is
/// erroneous MPI either way).
pub(super) struct EpochCell {
    epoch: Mutex<Epoch>,
    open: Box<[AtomicBool]>,
}

impl EpochCell {
    /// No epoch open, on a window of `n` members.
    pub(super) fn new(n: usize) -> Self {
        Self {
            epoch: Mutex::new(Epoch::new(n)),
            open: (0..n).map(|_| AtomicBool::new(false)).collect(),
        }
    }

    /// The epoch, locked; changes through the guard are published to the flags on drop.
    pub(super) fn lock(&self) -> EpochGuard<'_> {
        EpochGuard {
            epoch: self.epoch.lock(),
            open: &self.open,
            changed: false,
        }
    }

    /// [`Epoch::check_access`], from the flags when they say "open" (the usual case).
    pub(super) fn check_access(&self, t: usize) -> Result<()> {
        if self.open.get(t).is_some_and(|f| f.load(Ordering::Acquire)) {
            return Ok(());
        }
        self.lock().check_access(t)
    }
}

/// A locked [`Epoch`] (see [`EpochCell::lock`]).
pub(super) struct EpochGuard<'a> {
    epoch: MutexGuard<'a, Epoch>,
    open: &'a [AtomicBool],
    changed: bool,
}

impl std::ops::Deref for EpochGuard<'_> {
    type Target = Epoch;
    fn deref(&self) -> &Epoch {
        &self.epoch
    }
}

impl std::ops::DerefMut for EpochGuard<'_> {
    fn deref_mut(&mut self) -> &mut Epoch {
        self.changed = true;
        &mut self.epoch
    }
}

impl Drop for EpochGuard<'_> {
    fn drop(&mut self) {
        if self.changed {
            for (t, f) in self.open.iter().enumerate() {
                f.store(self.epoch.covers(t), Ordering::Release);
            }
        }
    }
}

impl Epoch {
    pub(super) fn new(n: usize) -> Self {
        Self {
            fence: false,
            access: None,
            exposure: None,
            posted: vec![0; n],
            matched: vec![0; n],
            locks: BTreeMap::new(),
            lock_all: false,
        }
    }

    /// Whether an access to target `t` is inside an epoch.
    pub(super) fn check_access(&self, t: usize) -> Result<()> {
        if self.covers(t) {
            return Ok(());
        }
        Err(sync_error(format!(
            "no access epoch covers target rank {t}: call MPI_Win_fence, MPI_Win_start with a \
             group containing it, MPI_Win_lock on it or MPI_Win_lock_all first"
        )))
    }

    /// Whether an epoch open now covers accesses to target `t`.
    fn covers(&self, t: usize) -> bool {
        self.fence
            || self.lock_all
            || self.locks.contains_key(&t)
            || self.access.as_ref().is_some_and(|g| g.contains(&t))
    }

    /// Fails unless no lock, access or exposure epoch is open (`what` is the attempted call).
    pub(super) fn check_idle(&self, what: &str) -> Result<()> {
        let open = if self.lock_all {
            "a lock_all epoch"
        } else if !self.locks.is_empty() {
            "a lock epoch"
        } else if self.access.is_some() {
            "an access epoch (MPI_Win_start without MPI_Win_complete)"
        } else if self.exposure.is_some() {
            "an exposure epoch (MPI_Win_post without MPI_Win_wait)"
        } else {
            return Ok(());
        };
        Err(sync_error(format!("cannot {what} inside {open}")))
    }

    fn passive(&self) -> bool {
        self.lock_all || !self.locks.is_empty()
    }
}

impl Window {
    fn engine(&self) -> &crate::core::engine::Engine {
        &self.inner.comm.inner.engine
    }

    fn world_of(&self, r: usize) -> u32 {
        self.inner.comm.inner.members.world()[r]
    }

    /// Whether member `r` is reached by active messages.
    fn is_remote(&self, r: usize) -> bool {
        matches!(self.inner.targets[r].reach, super::Reach::Remote)
    }

    fn check_group(&self, group: &[u32]) -> Result<Vec<usize>> {
        let n = self.inner.targets.len();
        group
            .iter()
            .map(|&r| {
                self.target(r)?;
                Ok(r as usize)
            })
            .collect::<Result<Vec<_>>>()
            .and_then(|g| {
                if g.len() > n {
                    Err(Error::invalid("the group has more members than the window"))
                } else {
                    Ok(g)
                }
            })
    }

    /// A barrier of the window's members between two sequentially consistent fences: every
    /// member's accesses before it are visible to every member after it. Blocking, so it runs
    /// on the communicator's flag area where there is one (a few microseconds).
    pub(super) fn barrier(&self) -> Result<()> {
        fence(Ordering::SeqCst);
        self.inner
            .comm
            .start_barrier_to(crate::ops::dest::Mode::Blocking)?
            .wait()?;
        fence(Ordering::SeqCst);
        Ok(())
    }

    /// `MPI_Win_fence` (collective): completes every access of the epoch it ends and opens the
    /// next unless `no_succeed` (`MPI_MODE_NOSUCCEED`).
    pub fn fence(&self, no_succeed: bool) -> Result<()> {
        self.inner.epoch.lock().check_idle("call a fence")?;
        let settled = self.settle(None);
        self.barrier()?;
        settled?;
        self.inner.epoch.lock().fence = !no_succeed;
        Ok(())
    }

    /// `MPI_Win_post`: opens an exposure epoch for the origins `group` (window ranks).
    pub fn post(&self, group: &[u32]) -> Result<()> {
        let g = self.check_group(group)?;
        let mut e = self.inner.epoch.lock();
        if e.exposure.is_some() {
            return Err(sync_error(
                "MPI_Win_post inside an exposure epoch (MPI_Win_wait not called yet)",
            ));
        }
        fence(Ordering::SeqCst);
        let me = self.inner.me;
        for &o in &g {
            e.posted[o] += 1;
            if self.is_remote(o) {
                if let Err(err) = self.post_remote(o as u32, e.posted[o]) {
                    // Not posted to this one: a later post makes up for the others.
                    e.posted[o] -= 1;
                    return Err(err);
                }
            } else {
                self.inner
                    .area
                    .post(me, o)
                    .store(e.posted[o], Ordering::Release);
            }
        }
        e.exposure = Some(g);
        e.fence = false;
        Ok(())
    }

    /// `MPI_Win_start`: opens an access epoch to the targets `group` (window ranks), once
    /// each has posted to this member.
    pub fn start(&self, group: &[u32]) -> Result<()> {
        let g = self.check_group(group)?;
        let want: Vec<u64> = {
            let mut e = self.inner.epoch.lock();
            if e.access.is_some() || e.passive() {
                return Err(sync_error(
                    "MPI_Win_start inside an access epoch (MPI_Win_complete not called yet, or \
                     a lock held)",
                ));
            }
            g.iter()
                .map(|&t| {
                    e.matched[t] += 1;
                    e.matched[t]
                })
                .collect()
        };
        let me = self.inner.me;
        for (&t, &w) in g.iter().zip(&want) {
            let word = self.inner.area.post(t, me);
            let waited = wait::until(
                self.engine(),
                &|| format!("waiting in MPI_Win_start for rank {t}'s MPI_Win_post"),
                &|| vec![self.world_of(t)],
                || word.load(Ordering::Acquire) >= w,
            );
            if let Err(err) = waited {
                let mut e = self.inner.epoch.lock();
                for &u in &g {
                    e.matched[u] -= 1;
                }
                return Err(err);
            }
        }
        let mut e = self.inner.epoch.lock();
        e.access = Some(g);
        e.fence = false;
        Ok(())
    }

    /// `MPI_Win_complete`: ends the access epoch `start` opened.
    pub fn complete(&self) -> Result<()> {
        let g = self
            .inner
            .epoch
            .lock()
            .access
            .take()
            .ok_or_else(|| sync_error("MPI_Win_complete without MPI_Win_start"))?;
        fence(Ordering::SeqCst);
        let me = self.inner.me;
        let mut told = self.settle(None);
        for t in g {
            if self.is_remote(t) {
                told = told.and(self.complete_remote(t as u32));
            } else {
                self.inner
                    .area
                    .complete(t, me)
                    .fetch_add(1, Ordering::Release);
            }
        }
        told
    }

    /// Whether every origin of the exposure epoch has completed.
    fn exposure_done(&self, g: &[usize], posted: &[u64]) -> bool {
        let me = self.inner.me;
        g.iter()
            .all(|&o| self.inner.area.complete(me, o).load(Ordering::Acquire) >= posted[o])
    }

    fn exposure(&self) -> Result<(Vec<usize>, Vec<u64>)> {
        let e = self.inner.epoch.lock();
        let g = e
            .exposure
            .clone()
            .ok_or_else(|| sync_error("MPI_Win_wait / MPI_Win_test without MPI_Win_post"))?;
        Ok((g, e.posted.clone()))
    }

    /// `MPI_Win_wait`: ends the exposure epoch once every origin has completed.
    pub fn wait(&self) -> Result<()> {
        let (g, posted) = self.exposure()?;
        wait::until(
            self.engine(),
            &|| "waiting in MPI_Win_wait for the origins' MPI_Win_complete".to_string(),
            &|| g.iter().map(|&o| self.world_of(o)).collect(),
            || self.exposure_done(&g, &posted),
        )?;
        fence(Ordering::SeqCst);
        self.inner.epoch.lock().exposure = None;
        Ok(())
    }

    /// `MPI_Win_test`: [`Window::wait`] if every origin has completed (true), else false.
    pub fn test(&self) -> Result<bool> {
        let (g, posted) = self.exposure()?;
        if !self.exposure_done(&g, &posted) {
            return Ok(false);
        }
        fence(Ordering::SeqCst);
        self.inner.epoch.lock().exposure = None;
        Ok(true)
    }

    /// Takes target `t`'s lock for this process.
    fn acquire(&self, t: usize, kind: LockKind) -> Result<()> {
        if self.is_remote(t) {
            return self.lock_remote(t as u32, kind);
        }
        self.acquire_for(t, kind, self.engine().rank)
    }

    /// Takes target `t`'s lock word, in this process's area, for the process of world rank
    /// `holder`.
    pub(super) fn acquire_for(&self, t: usize, kind: LockKind, holder: u32) -> Result<()> {
        let word = self.inner.area.lock(t);
        let me = u64::from(holder);
        let world = self.inner.comm.inner.members.world();
        wait::until(
            self.engine(),
            &|| format!("waiting for the {kind:?} lock on rank {t}"),
            &|| {
                let v = word.load(Ordering::Relaxed);
                let mut w = vec![world[t]];
                if v & EXCLUSIVE != 0 {
                    w.push((v & !EXCLUSIVE) as u32);
                }
                w
            },
            || match kind {
                LockKind::Exclusive => word
                    .compare_exchange_weak(0, EXCLUSIVE | me, Ordering::Acquire, Ordering::Relaxed)
                    .is_ok(),
                LockKind::Shared => {
                    let v = word.load(Ordering::Relaxed);
                    v & EXCLUSIVE == 0
                        && word
                            .compare_exchange_weak(v, v + 1, Ordering::Acquire, Ordering::Relaxed)
                            .is_ok()
                }
            },
        )
    }

    /// Releases this process's lock on target `t`.
    fn release(&self, t: usize, kind: LockKind) -> Result<()> {
        if self.is_remote(t) {
            return self.unlock_remote(t as u32, kind);
        }
        self.release_here(t, kind);
        Ok(())
    }

    /// Releases target `t`'s lock word in this process's area.
    pub(super) fn release_here(&self, t: usize, kind: LockKind) {
        fence(Ordering::SeqCst);
        let word = self.inner.area.lock(t);
        match kind {
            LockKind::Exclusive => word.store(0, Ordering::Release),
            LockKind::Shared => {
                word.fetch_sub(1, Ordering::Release);
            }
        }
    }

    /// `MPI_Win_lock`: starts a passive-target epoch on `rank`.
    pub fn lock(&self, kind: LockKind, rank: u32) -> Result<()> {
        self.target(rank)?;
        let t = rank as usize;
        {
            let e = self.inner.epoch.lock();
            if e.lock_all || e.locks.contains_key(&t) {
                return Err(sync_error(format!(
                    "rank {t} is already locked by this process (nested MPI_Win_lock)"
                )));
            }
            if e.access.is_some() || e.exposure.is_some() {
                return Err(sync_error("MPI_Win_lock inside a PSCW epoch"));
            }
        }
        if let Some(e) = self.engine().failure_of(self.world_of(t)) {
            return Err(e.context(format!("locking rank {t}")));
        }
        self.acquire(t, kind)?;
        let mut e = self.inner.epoch.lock();
        e.locks.insert(t, kind);
        e.fence = false;
        Ok(())
    }

    /// `MPI_Win_unlock`: ends the passive-target epoch on `rank`.
    pub fn unlock(&self, rank: u32) -> Result<()> {
        self.target(rank)?;
        let t = rank as usize;
        let kind = self.inner.epoch.lock().locks.remove(&t).ok_or_else(|| {
            sync_error(format!(
                "MPI_Win_unlock of rank {t}, which this process has not locked"
            ))
        })?;
        let settled = self.settle(Some(rank));
        self.release(t, kind).and(settled)
    }

    /// `MPI_Win_lock_all`: a shared lock on every member.
    pub fn lock_all(&self) -> Result<()> {
        {
            let e = self.inner.epoch.lock();
            if e.passive() {
                return Err(sync_error("MPI_Win_lock_all while holding a lock"));
            }
            if e.access.is_some() || e.exposure.is_some() {
                return Err(sync_error("MPI_Win_lock_all inside a PSCW epoch"));
            }
        }
        for t in 0..self.inner.targets.len() {
            if let Err(err) = self.acquire(t, LockKind::Shared) {
                for u in 0..t {
                    let _ = self.release(u, LockKind::Shared);
                }
                return Err(err);
            }
        }
        let mut e = self.inner.epoch.lock();
        e.lock_all = true;
        e.fence = false;
        Ok(())
    }

    /// `MPI_Win_unlock_all`.
    pub fn unlock_all(&self) -> Result<()> {
        {
            let mut e = self.inner.epoch.lock();
            if !e.lock_all {
                return Err(sync_error("MPI_Win_unlock_all without MPI_Win_lock_all"));
            }
            e.lock_all = false;
        }
        // Every lock is released even if one target cannot be reached; the first error is
        // the call's.
        let mut released = self.settle(None);
        for t in 0..self.inner.targets.len() {
            released = released.and(self.release(t, LockKind::Shared));
        }
        released
    }

    /// `MPI_Win_flush` / `MPI_Win_flush_local` on `rank` (`None`: the `_all` forms): waits for
    /// the accesses still in flight to a member reached by active messages (in shared memory
    /// every access already completed, so this is an ordering point); it needs a
    /// passive-target epoch (on `rank`, for the one-target forms).
    pub fn flush(&self, rank: Option<u32>) -> Result<()> {
        {
            let e = self.inner.epoch.lock();
            let ok = match rank {
                Some(r) => {
                    self.target(r)?;
                    e.lock_all || e.locks.contains_key(&(r as usize))
                }
                None => e.passive(),
            };
            if !ok {
                return Err(sync_error(
                    "a flush needs a passive-target epoch (MPI_Win_lock or MPI_Win_lock_all)",
                ));
            }
        }
        self.settle(rank)?;
        fence(Ordering::SeqCst);
        Ok(())
    }

    /// `MPI_Win_sync`: a memory fence between this process's loads and stores of window
    /// memory and the window's public copy (one and the same in the unified model).
    pub fn sync(&self) {
        fence(Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accesses_need_an_epoch_and_idle_checks_name_the_open_one() {
        let mut e = Epoch::new(3);
        assert_eq!(e.check_access(1).unwrap_err().kind(), ErrorKind::RmaSync);
        assert!(e.check_idle("free the window").is_ok());
        e.locks.insert(1, LockKind::Shared);
        assert!(e.check_access(1).is_ok());
        assert!(e.check_access(2).is_err(), "a lock covers its target only");
        let busy = e.check_idle("free the window").unwrap_err();
        assert!(busy.message().contains("a lock epoch"), "{busy}");
        e.locks.clear();
        e.access = Some(vec![2]);
        assert!(e.check_access(2).is_ok() && e.check_access(0).is_err());
        assert!(e.check_idle("call a fence").is_err());
        e.access = None;
        e.exposure = Some(vec![0]);
        assert!(
            e.check_access(0).is_err(),
            "an exposure epoch gives no access"
        );
        e.exposure = None;
        e.fence = true;
        assert!(e.check_access(0).is_ok() && e.check_access(2).is_ok());
        e.lock_all = true;
        assert!(e.passive());
    }
}
