//! Data movement: put, get, accumulate (with or without fetching), compare-and-swap. The
//! target's memory is addressed by a displacement (in its displacement unit) and the byte runs
//! of the target datatype relative to it, `(offset, length)` in typemap order; the origin side
//! is the packed bytes (the binding packs and unpacks derived origin datatypes). Each call
//! checks the target rank, the access epoch ([`ErrorKind::RmaSync`]) and, except for other
//! members of a dynamic window, that every run lies inside the target's window
//! ([`ErrorKind::RmaRange`]); it completes before it returns. A member reached by active
//! messages is given the runs as offsets from its window's start (absolute addresses for a
//! dynamic window) and checks them again itself (`remote.rs`).

use super::{Flavor, Reach, Window, wait};
use crate::error::{Error, ErrorKind, Result};
use nexar_proto::{Order, Reducer};
use smallvec::SmallVec;
use std::sync::atomic::Ordering;

/// The absolute addresses and lengths of one access's runs: inline up to two (a contiguous
/// access, the usual case, allocates nothing).
type Addresses = SmallVec<[(u64, usize); 2]>;

/// How an accumulate combines the origin data into the target's.
#[derive(Clone, Copy)]
pub enum Combine<'a> {
    /// The target takes the origin data (`MPI_REPLACE`).
    Replace,
    /// The target is left unchanged (`MPI_NO_OP`: a fetch only).
    NoOp,
    /// `target = target ⊕ origin` element-wise.
    Reduce(&'a Reducer),
}

/// Where the runs of one access lie: in this process, in process `pid` (cross-memory
/// attach), or in window member `rank` reached by active messages (the runs' addresses are then
/// offsets from its window's start).
pub(super) enum Place {
    Here,
    Cma(i32),
    Remote(u32),
}

/// One checked access to one target: what turns its runs into absolute addresses.
pub(super) struct Landing {
    rank: u32,
    /// The target's window size (bytes).
    size: usize,
    dynamic: bool,
    /// The displacement in bytes.
    start: i128,
    /// Where the target's window (a dynamic one's address space) starts, as `place` sees it.
    base: i128,
    place: Place,
    /// The regions attached to a dynamic window of this process (checked for every run).
    attached: Option<Vec<(usize, usize)>>,
}

impl Landing {
    /// The absolute address of the run of `n` bytes at `off` past the displacement, or
    /// [`ErrorKind::RmaRange`] if it leaves the target's window.
    pub(super) fn address(&self, off: isize, n: usize) -> Result<u64> {
        let lo = self.start + off as i128;
        let inside = match &self.attached {
            Some(regions) => covered(regions, lo, lo + n as i128),
            None => self.dynamic || (lo >= 0 && lo + n as i128 <= self.size as i128),
        };
        let addr = self.base + lo;
        if !inside || addr < 0 || addr + n as i128 > u64::MAX as i128 {
            return Err(Error::new(
                ErrorKind::RmaRange,
                format!(
                    "bytes {lo}..{} of rank {}'s window are outside it ({} bytes)",
                    lo + n as i128,
                    self.rank,
                    self.size
                ),
            ));
        }
        Ok(addr as u64)
    }
}

impl Window {
    /// Writes `src` (packed: the runs' total bytes) into member `rank`'s window at `disp`,
    /// spread over `runs`.
    pub fn put(&self, rank: u32, disp: isize, runs: &[(isize, usize)], src: &[u8]) -> Result<()> {
        if let [(0, n)] = *runs
            && n == src.len()
            && n > 0
        {
            let (place, a) = self.locate_one(rank, disp, n)?;
            return self.write(&place, &[(a, n)], src);
        }
        let (place, at) = self.locate(rank, disp, runs, src.len())?;
        self.write(&place, &at, src)
    }

    /// Reads member `rank`'s window at `disp`, gathered from `runs`, into `dst` (packed: the
    /// runs' total bytes).
    pub fn get(
        &self,
        rank: u32,
        disp: isize,
        runs: &[(isize, usize)],
        dst: &mut [u8],
    ) -> Result<()> {
        if let [(0, n)] = *runs
            && n == dst.len()
            && n > 0
        {
            let (place, a) = self.locate_one(rank, disp, n)?;
            return self.read(&place, &[(a, n)], dst);
        }
        let (place, at) = self.locate(rank, disp, runs, dst.len())?;
        self.read(&place, &at, dst)
    }

    /// Combines `origin` (packed, the runs' total bytes; ignored by [`Combine::NoOp`]) into
    /// member `rank`'s window at `disp` over `runs`, atomically with respect to every other
    /// accumulate on that member; with `fetch`, first copies the target's data (packed) there.
    pub fn accumulate(
        &self,
        rank: u32,
        disp: isize,
        runs: &[(isize, usize)],
        origin: &[u8],
        combine: Combine<'_>,
        fetch: Option<&mut [u8]>,
    ) -> Result<()> {
        let total: usize = runs.iter().map(|r| r.1).sum();
        if !matches!(combine, Combine::NoOp) && origin.len() != total {
            return Err(Error::invalid(format!(
                "the origin data ({} bytes) and the target data ({total} bytes) of an \
                 accumulate differ in size",
                origin.len()
            )));
        }
        if fetch.as_ref().is_some_and(|f| f.len() != total) {
            return Err(Error::invalid(format!(
                "the result buffer of a fetching accumulate must hold the {total} bytes of the \
                 target data"
            )));
        }
        let (place, at) = self.locate(rank, disp, runs, total)?;
        if let Place::Remote(r) = place {
            return self.accumulate_remote(r, &at, origin, combine, fetch);
        }
        let _held = self.acc_lock(rank as usize)?;
        self.combine_held(&place, &at, origin, combine, fetch)
    }

    /// The read-combine-write of an accumulate whose target's accumulate mutex is held.
    pub(super) fn combine_held(
        &self,
        place: &Place,
        at: &[(u64, usize)],
        origin: &[u8],
        combine: Combine<'_>,
        fetch: Option<&mut [u8]>,
    ) -> Result<()> {
        let total: usize = at.iter().map(|r| r.1).sum();
        if let (Place::Here, Combine::Reduce(r)) = (place, combine)
            && at
                .iter()
                .all(|&(a, n)| r.count_of(n).is_ok() && !overlaps(origin, a, n))
        {
            // In this process's address space and whole elements in every run: combine in
            // place, without staging the target's data.
            if let Some(f) = fetch {
                self.read(place, at, f)?;
            }
            let mut done = 0;
            for &(a, n) in at {
                // SAFETY: `a` lies inside window memory in this process (checked by `locate`);
                // the accumulate mutex keeps other accumulates out, and the MPI rules keep
                // puts and the owner's stores off these bytes meanwhile.
                let target = unsafe { std::slice::from_raw_parts_mut(a as usize as *mut u8, n) };
                r.reduce_into(target, &origin[done..done + n], Order::AccFirst)
                    .map_err(Error::from)?;
                done += n;
            }
            return Ok(());
        }
        let mut now = vec![0u8; total];
        self.read(place, at, &mut now)?;
        if let Some(f) = fetch {
            f.copy_from_slice(&now);
        }
        match combine {
            Combine::NoOp => Ok(()),
            Combine::Replace => self.write(place, at, origin),
            Combine::Reduce(r) => {
                r.reduce_into(&mut now, origin, Order::AccFirst)
                    .map_err(Error::from)?;
                self.write(place, at, &now)
            }
        }
    }

    /// Compares the `compare.len()` bytes of member `rank`'s window at `disp` with `compare`
    /// and, if equal, replaces them with `origin`; `result` receives the old bytes. Atomic with
    /// respect to every accumulate on that member.
    pub fn compare_and_swap(
        &self,
        rank: u32,
        disp: isize,
        origin: &[u8],
        compare: &[u8],
        result: &mut [u8],
    ) -> Result<()> {
        let len = compare.len();
        if origin.len() != len || result.len() != len {
            return Err(Error::invalid("compare-and-swap operands differ in size"));
        }
        let runs = [(0isize, len)];
        let (place, at) = self.locate(rank, disp, &runs, len)?;
        if let Place::Remote(r) = place {
            return self.compare_and_swap_remote(r, at[0].0, origin, compare, result);
        }
        let _held = self.acc_lock(rank as usize)?;
        self.swap_held(&place, &at, origin, compare, result)
    }

    /// The compare-and-swap of [`Window::compare_and_swap`] once the target's accumulate mutex
    /// is held.
    pub(super) fn swap_held(
        &self,
        place: &Place,
        at: &[(u64, usize)],
        origin: &[u8],
        compare: &[u8],
        result: &mut [u8],
    ) -> Result<()> {
        self.read(place, at, result)?;
        if result == compare {
            self.write(place, at, origin)?;
        }
        Ok(())
    }

    /// Checks an access of `runs` at `disp` in member `rank`'s window (`len`: the origin's
    /// bytes, which must be the runs' total) and gives their absolute addresses.
    fn locate(
        &self,
        rank: u32,
        disp: isize,
        runs: &[(isize, usize)],
        len: usize,
    ) -> Result<(Place, Addresses)> {
        let total: usize = runs.iter().map(|r| r.1).sum();
        if total != len {
            return Err(Error::invalid(format!(
                "the origin data ({len} bytes) and the target data ({total} bytes) differ in size"
            )));
        }
        let l = self.landing(rank, disp)?;
        let mut at = Addresses::with_capacity(runs.len());
        for &(off, n) in runs {
            if n > 0 {
                at.push((l.address(off, n)?, n));
            }
        }
        Ok((l.place, at))
    }

    /// [`Window::locate`] of one run of `len` bytes at `disp` (a contiguous put or get).
    fn locate_one(&self, rank: u32, disp: isize, len: usize) -> Result<(Place, u64)> {
        let l = self.landing(rank, disp)?;
        let a = l.address(0, len)?;
        Ok((l.place, a))
    }

    /// Checks an access to member `rank` at `disp` (the target rank, the epoch, that the
    /// target is alive) and gives what placing its runs needs.
    fn landing(&self, rank: u32, disp: isize) -> Result<Landing> {
        let t = *self.target(rank)?;
        self.inner.epoch.check_access(rank as usize)?;
        let world = self.inner.comm.inner.members.world()[rank as usize];
        if let Some(e) = self.inner.comm.inner.engine.failure_of(world) {
            return Err(e);
        }
        Ok(self.place(rank, t, disp))
    }

    /// Where the runs of an access to member `rank` (a valid rank) at `disp` land; for this
    /// member's own memory also what an access through active messages asks for.
    pub(super) fn placement(&self, rank: u32, disp: isize) -> Landing {
        self.place(rank, self.inner.targets[rank as usize], disp)
    }

    /// [`Window::placement`] of member `rank`'s memory `t`.
    #[inline(always)]
    fn place(&self, rank: u32, t: super::Target, disp: isize) -> Landing {
        let dynamic = self.inner.flavor == Flavor::Dynamic;
        let start = if dynamic {
            disp as i128
        } else {
            disp as i128 * t.disp_unit as i128
        };
        let (place, base) = match t.reach {
            Reach::Here(p) => (Place::Here, p as usize as i128),
            Reach::Cma { pid, base } => (Place::Cma(pid), base as i128),
            // Offsets from the target's window start; it checks them again.
            Reach::Remote => (Place::Remote(rank), 0),
        };
        let attached = if dynamic && matches!(place, Place::Here) {
            Some(self.inner.attached.lock().clone())
        } else {
            None
        };
        Landing {
            rank,
            size: t.size,
            dynamic,
            start,
            base,
            place,
            attached,
        }
    }

    #[inline]
    pub(super) fn write(&self, place: &Place, at: &[(u64, usize)], src: &[u8]) -> Result<()> {
        match *place {
            Place::Here => {
                let mut done = 0;
                for &(a, n) in at {
                    // SAFETY: `a` lies inside a window's memory in this process (checked by
                    // `locate`); `copy` allows the origin to overlap it.
                    unsafe { std::ptr::copy(src[done..].as_ptr(), a as usize as *mut u8, n) };
                    done += n;
                }
                Ok(())
            }
            Place::Cma(pid) => crate::transport::shm::cma::write_runs(pid, at, src)
                .map_err(|e| cma_error(e, "write")),
            Place::Remote(rank) => self.write_remote(rank, at, src),
        }
    }

    #[inline]
    pub(super) fn read(&self, place: &Place, at: &[(u64, usize)], dst: &mut [u8]) -> Result<()> {
        match *place {
            Place::Here => {
                let mut done = 0;
                for &(a, n) in at {
                    // SAFETY: as in `write`.
                    unsafe { std::ptr::copy(a as usize as *const u8, dst[done..].as_mut_ptr(), n) };
                    done += n;
                }
                Ok(())
            }
            Place::Cma(pid) => crate::transport::shm::cma::read_runs(pid, at, dst)
                .map_err(|e| cma_error(e, "read")),
            Place::Remote(rank) => self.read_remote(rank, at, dst),
        }
    }

    /// Holds member `t`'s accumulate mutex until the guard drops.
    fn acc_lock(&self, t: usize) -> Result<AccGuard<'_>> {
        self.acc_lock_for(t, self.inner.comm.inner.engine.rank)
    }

    /// Holds member `t`'s accumulate mutex (in this process's area) for the process of world
    /// rank `holder` until the guard drops.
    pub(super) fn acc_lock_for(&self, t: usize, holder: u32) -> Result<AccGuard<'_>> {
        let inner = &self.inner;
        let engine = &inner.comm.inner.engine;
        let word = inner.area.acc_mutex(t);
        let mine = u64::from(holder) + 1;
        let world = inner.comm.inner.members.world();
        wait::until(
            engine,
            &|| format!("taking the accumulate mutex of rank {t}"),
            &|| {
                let holder = word.load(Ordering::Relaxed);
                let mut w = vec![world[t]];
                if holder != 0 {
                    w.push((holder - 1) as u32);
                }
                w
            },
            || {
                word.compare_exchange_weak(0, mine, Ordering::Acquire, Ordering::Relaxed)
                    .is_ok()
            },
        )?;
        Ok(AccGuard { word })
    }
}

/// A held accumulate mutex.
pub(super) struct AccGuard<'a> {
    word: &'a std::sync::atomic::AtomicU64,
}

impl Drop for AccGuard<'_> {
    fn drop(&mut self) {
        self.word.store(0, Ordering::Release);
    }
}

/// Whether the attached `regions` (address, bytes) cover every byte of `lo..hi`: an access may
/// span regions attached side by side.
#[inline(never)]
fn covered(regions: &[(usize, usize)], lo: i128, hi: i128) -> bool {
    let mut at = lo;
    while at < hi {
        match regions
            .iter()
            .find(|&&(b, s)| b as i128 <= at && at < b as i128 + s as i128)
        {
            Some(&(b, s)) => at = b as i128 + s as i128,
            None => return false,
        }
    }
    // An empty access is inside if its address is.
    lo < hi
        || regions
            .iter()
            .any(|&(b, s)| b as i128 <= lo && lo <= (b + s) as i128)
}

/// Whether `bytes` and the `n` bytes at address `a` share memory.
fn overlaps(bytes: &[u8], a: u64, n: usize) -> bool {
    let (lo, hi) = (
        bytes.as_ptr() as u64,
        bytes.as_ptr() as u64 + bytes.len() as u64,
    );
    lo < a + n as u64 && a < hi
}

fn cma_error(e: std::io::Error, what: &str) -> Error {
    let kind = match e.raw_os_error() {
        Some(libc::EFAULT) | Some(libc::ENOMEM) => ErrorKind::RmaRange,
        Some(libc::ESRCH) => ErrorKind::ProcFailed,
        _ if e.kind() == std::io::ErrorKind::UnexpectedEof => ErrorKind::RmaRange,
        _ => ErrorKind::Transport,
    };
    Error::new(
        kind,
        format!("cross-memory {what} of the target's window memory failed: {e}"),
    )
}

#[cfg(test)]
mod tests {
    use super::covered;

    #[test]
    fn an_access_may_span_regions_attached_side_by_side_but_not_a_gap() {
        let regions = [(1000, 100), (1100, 50), (2000, 10)];
        assert!(covered(&regions, 1050, 1150), "across two adjacent regions");
        assert!(!covered(&regions, 1050, 1151), "one byte past the second");
        assert!(!covered(&regions, 1140, 2005), "across a gap");
        assert!(covered(&regions, 2000, 2010));
        assert!(!covered(&regions, 999, 1001));
        assert!(
            covered(&regions, 1150, 1150),
            "empty, at the end of a region"
        );
    }
}
