//! Blocking small collectives on the communicator's shared flag area (the plan's
//! `Plan::Flags`: a blocking barrier, or a bcast, reduce or allreduce of at most [`max_bytes`],
//! on a communicator whose members all share memory on one host).
//!
//! The calling threads meet in one shared segment ([`FlagArea`]); no frame, mailbox, machine or
//! thread hand-off is involved. Call `s` (the communicator's collective number, shared with
//! the other paths) uses slot parity `s mod 2`:
//! 1. **Reuse**: the slot of this parity last held this rank's call `p` (`seq` word `p + 1`);
//!    wait until every peer's `done` word says it finished reading `p` (nearly always already
//!    so: a peer that finished the call in between has).
//! 2. **Publish**: write the payload and the call's fingerprint into the slot, then its
//!    `seq` word `s + 1` (release).
//! 3. **Gather**: wait for every peer's slot of this parity to say `s + 1` (acquire); a
//!    different fingerprint is a mismatch, named at once by both sides.
//! 4. **Finish**: an allreduce combines every slot's payload in rank order (`x0 ⊕ x1 ⊕ ...`),
//!    the same on every rank, so every rank holds identical bits; a reduce does that at the
//!    root only; a bcast copies the root's slot (the others publish nothing). Then `done` =
//!    `s + 1`. Every call waits for every member, a bcast's and a reduce's too: that is what
//!    lets the next call reuse the other slot without asking.
//!
//! Waiting spins for the transport's spin limit (none when the host's ranks outnumber its
//! cores), then yields, then sleeps in growing steps up to `MAX_NAP` (0.5 ms), so waiting ranks
//! neither starve the others nor burn a core for long. While a call waits (past `CHECKS_AFTER`, 0.2 ms)
//! it looks every `CHECK_EVERY` (1 ms) for what would make it wait forever: a failed, finalized or
//! revoked peer, the collective timeout (`NEXAR_TIMEOUT`), a mismatch notice, a peer running
//! the same call number on another path (its frames arrive at this rank), or a peer already past
//! this call while another has not joined it (a skipped call). After `PROBE_AFTER` (1 ms) it sends each
//! missing peer one probe frame with the call's fingerprint, so a peer waiting on another path
//! (say, a non-blocking barrier against a blocking one) finds the mismatch too.
//!
//! Blocking calls only: MPI never matches a blocking collective with a non-blocking one, so
//! non-blocking and persistent calls keep the frame paths, and ranks still agree on the plan.

use crate::comm::Comm;
use crate::core::engine::EarlyFlags;
use crate::core::fingerprint::{
    FLAGS_PROBE_STEP, Fingerprint, MISMATCH_STEP, kinds_message, mismatch_message, notice_error,
};
use crate::error::{Error, ErrorKind, Result};
use crate::transport::shm::flag_area::FlagArea;
use bytes::Bytes;
use nexar_proto::{Order, ReduceOp, Reducer};
use std::sync::atomic::Ordering;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// Default largest bcast, reduce or allreduce (bytes) on the flag area.
pub const DEFAULT_MAX_BYTES: usize = 1024;

/// A waiting call starts its checks this long after it began.
const CHECKS_AFTER: Duration = Duration::from_micros(200);
/// Then checks this often.
const CHECK_EVERY: Duration = Duration::from_millis(1);
/// A waiting call probes the peers still missing this long after it began.
const PROBE_AFTER: Duration = Duration::from_millis(1);
/// Yielding time after spinning, before sleeping.
const YIELD_FOR: Duration = Duration::from_micros(200);
/// Longest single sleep of a waiting call.
const MAX_NAP: Duration = Duration::from_micros(500);
/// How long a call that found a peer gone looks for that peer's mismatch notice (as the frame
/// paths do).
const NOTICE_GRACE: Duration = Duration::from_millis(100);
/// Every this many calls, a rank drops the probes its peers left for calls it ran here.
const PURGE_EVERY: u64 = 256;

/// Largest allreduce on the flag area: `NEXAR_FLAGS_MAX` (bytes; `off` turns the flag area off
/// for barriers too; set it alike on every rank) or [`DEFAULT_MAX_BYTES`].
pub fn max_bytes() -> Option<usize> {
    static MAX: OnceLock<Option<usize>> = OnceLock::new();
    *MAX.get_or_init(|| match std::env::var("NEXAR_FLAGS_MAX") {
        Ok(v) if v.trim().eq_ignore_ascii_case("off") => None,
        Ok(v) => Some(v.trim().parse().unwrap_or(DEFAULT_MAX_BYTES)),
        Err(_) => Some(DEFAULT_MAX_BYTES),
    })
}

impl crate::comm::CommInner {
    /// The plan fact for a blocking call: the flag area's maximum unless it is off here.
    pub(crate) fn flags_max(&self) -> Option<usize> {
        max_bytes().filter(|_| !matches!(self.flags.get(), Some(None)))
    }
}

impl Comm {
    /// The flag area, set up by the first call the plan sends to it (collectively: the plan is
    /// the same on every member, so all of them get here at the same call). `None`: some member
    /// cannot use one, and the communicator never will (every member learns the same).
    pub(super) fn flag_area(&self) -> Result<Option<Arc<FlagArea>>> {
        self.inner.refuse_inter("this collective")?;
        if let Some(state) = self.inner.flags.get() {
            return Ok(state.clone());
        }
        let made = self.set_up_flag_area();
        let state = made.as_ref().ok().cloned().flatten();
        // Only this communicator's collective calls get here, one at a time (as MPI requires).
        let _ = self.inner.flags.set(state);
        made
    }

    /// Rank 0 creates the area under a fresh name and broadcasts the name; every member maps
    /// it; an allreduce tells everyone whether all did; rank 0 then unlinks the name. Both
    /// collectives run on the frame paths (they are not blocking calls of a binding).
    fn set_up_flag_area(&self) -> Result<Option<Arc<FlagArea>>> {
        let max = max_bytes().unwrap_or(0);
        let n = self.size() as usize;
        let engine = &self.inner.engine;
        let transport = engine.transport();
        let usable = self
            .inner
            .members
            .world()
            .iter()
            .all(|&w| w == engine.rank || transport.shares_memory(w));
        let mut name = [0u8; 128];
        let mut area = None;
        let mut created = None;
        if self.rank() == 0 && usable {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos());
            let path = format!(
                "/dev/shm/nexar-flags-{}-{:x}-{nanos:x}",
                std::process::id(),
                self.inner.context
            );
            match FlagArea::create(std::path::Path::new(&path), n, max) {
                Ok(a) => {
                    name[..path.len()].copy_from_slice(path.as_bytes());
                    area = Some(a);
                    created = Some(path);
                }
                Err(e) => tracing::debug!("no flag area for this communicator: {path}: {e}"),
            }
        }
        let named = self.bcast_blocking(&mut name, 0);
        if self.rank() != 0 && usable && named.is_ok() {
            let len = name.iter().position(|&b| b == 0).unwrap_or(name.len());
            if len > 0 {
                let path = String::from_utf8_lossy(&name[..len]).into_owned();
                match FlagArea::open(std::path::Path::new(&path), n, max) {
                    Ok(a) => area = Some(a),
                    Err(e) => tracing::debug!("cannot map the flag area {path}: {e}"),
                }
            }
        }
        let mut all = [u8::from(area.is_some())];
        let agreed = named.and_then(|()| self.allreduce_blocking(&mut all, ReduceOp::Min));
        if let Some(path) = created {
            let _ = std::fs::remove_file(path);
        }
        agreed?;
        Ok(area.filter(|_| all[0] == 1).map(Arc::new))
    }

    /// Blocking barrier on the flag area.
    pub(super) fn barrier_on_flags(&self, area: &FlagArea) -> Result<()> {
        let fp = Fingerprint::of(crate::core::fingerprint::Kind::Barrier);
        self.run_on_flags(area, fp, &[], |_, _| Ok(()))
    }

    /// Blocking allreduce with `reducer` of the `len` bytes at `input` into the `len` bytes at
    /// `out` (they may be the same memory) on the flag area.
    ///
    /// # Safety
    /// `input` must be readable and `out` writable for `len` bytes, with no reference to
    /// either alive (they may alias: the input is copied into the slot before `out` is
    /// written).
    pub(super) unsafe fn allreduce_on_flags(
        &self,
        area: &FlagArea,
        input: *const u8,
        out: *mut u8,
        len: usize,
        reducer: &Reducer,
    ) -> Result<()> {
        let fp = Fingerprint::of(crate::core::fingerprint::Kind::Allreduce)
            .reducing(reducer)
            .len(len);
        let out_slice = || {
            if len == 0 {
                return &mut [][..];
            }
            // SAFETY: writable for `len` bytes per the contract; made only after the input's
            // last read, when no other reference to the memory is alive.
            unsafe { std::slice::from_raw_parts_mut(out, len) }
        };
        if len > 0 && (crate::device::is_device(input) || crate::device::is_device(out)) {
            // SAFETY: readable for `len` bytes per the contract; staged through the host.
            let host_in =
                crate::device::to_host_vec(unsafe { std::slice::from_raw_parts(input, len) })?;
            let mut host = vec![0; len];
            let reduce = |a: &FlagArea, p| reduce_slots(a, p, &mut host, reducer);
            self.run_on_flags(area, fp, &host_in, reduce)?;
            return crate::device::copy_into(out_slice(), &host);
        }
        // SAFETY: readable for `len` bytes per the contract.
        unsafe {
            self.run_on_flags_raw(area, fp, input, len, |a, p| {
                reduce_slots(a, p, out_slice(), reducer)
            })
        }
    }

    /// Blocking bcast of `len` bytes from `root` into `buf` (the root's data is already
    /// there) on the flag area.
    pub(super) fn bcast_on_flags(&self, area: &FlagArea, buf: &mut [u8], root: u32) -> Result<()> {
        let fp = Fingerprint::of(crate::core::fingerprint::Kind::Bcast)
            .root(root)
            .len(buf.len());
        let root = root as usize;
        if self.rank() as usize == root {
            let data = crate::device::host_view(buf)?;
            return self.run_on_flags(area, fp, &data, |_, _| Ok(()));
        }
        let len = buf.len();
        self.run_on_flags(area, fp, &[], |area, parity| {
            // SAFETY: the root published this call's payload and writes its slot again only
            // after this rank says `done`.
            crate::device::copy_into(buf, unsafe { area.data(root, parity, len) })
        })
    }

    /// Blocking reduce with `reducer` of `input` to `root`, whose result goes into `out` (the
    /// root's, host memory; `None` elsewhere), on the flag area.
    pub(super) fn reduce_on_flags(
        &self,
        area: &FlagArea,
        input: &[u8],
        out: Option<&mut [u8]>,
        reducer: &Reducer,
        root: u32,
    ) -> Result<()> {
        let fp = Fingerprint::of(crate::core::fingerprint::Kind::Reduce)
            .root(root)
            .reducing(reducer)
            .len(input.len());
        let input = crate::device::host_view(input)?;
        self.run_on_flags(area, fp, &input, |area, parity| match out {
            Some(out) => reduce_slots(area, parity, out, reducer),
            None => Ok(()),
        })
    }

    /// One call on the flag area (see the module docs): publishes `input`, waits for every
    /// peer's contribution, then runs `finish` over the slots of this call's parity.
    fn run_on_flags(
        &self,
        area: &FlagArea,
        fp: Fingerprint,
        input: &[u8],
        finish: impl FnOnce(&FlagArea, usize) -> Result<()>,
    ) -> Result<()> {
        // SAFETY: a live slice.
        unsafe { self.run_on_flags_raw(area, fp, input.as_ptr(), input.len(), finish) }
    }

    /// [`Comm::run_on_flags`] over `len` bytes at `input`, read only before `finish` runs.
    ///
    /// # Safety
    /// `input` must be readable for `len` bytes until this rank's slot is written.
    unsafe fn run_on_flags_raw(
        &self,
        area: &FlagArea,
        fp: Fingerprint,
        input: *const u8,
        len: usize,
        finish: impl FnOnce(&FlagArea, usize) -> Result<()>,
    ) -> Result<()> {
        let inner = &self.inner;
        let engine = &inner.engine;
        engine.check_open()?;
        engine.check_revoked(inner.context)?;
        engine.check_alive(inner.members.world())?;
        let seq = inner.next_collective_seq();
        let target = seq + 1;
        let parity = (seq & 1) as usize;
        let me = self.rank() as usize;
        let mut wait = Wait::new(self, area, seq, fp, parity);
        // 1. Reuse: peers finished reading what this slot held. Skipped after a complete call
        // just before this one: every peer published that call, which it does only after
        // finishing the one before it, the last to use this slot.
        let before = area.seq(me, parity).load(Ordering::Relaxed);
        if before > 0 && area.last_complete().load(Ordering::Relaxed) != seq {
            wait.until(|r| area.done(r).load(Ordering::Acquire) >= before)?;
        }
        // 2. Publish.
        // SAFETY: this rank's own slot, which no peer reads any more (step 1); the input is
        // readable for `len` bytes (the contract).
        unsafe { area.write(me, parity, input, len) };
        let (w0, w1) = fp.words();
        let (f0, f1) = area.fingerprint(me, parity);
        f0.store(w0, Ordering::Relaxed);
        f1.store(w1, Ordering::Relaxed);
        area.seq(me, parity).store(target, Ordering::Release);
        // 3. Gather, then 4. reduce; `done` is said whatever the outcome (this rank reads no
        // more), so no peer waits on it in step 1.
        let res = wait
            .until(|r| area.seq(r, parity).load(Ordering::Acquire) == target)
            .and_then(|()| self.check_fingerprints(area, seq, parity, &fp))
            .and_then(|()| finish(area, parity));
        area.done(me).store(target, Ordering::Release);
        if res.is_ok() {
            area.last_complete().store(target, Ordering::Relaxed);
        }
        if area.count_call() % PURGE_EVERY == PURGE_EVERY - 1 {
            engine.purge_early(inner.context, seq);
        }
        res
    }

    /// Every peer's slot holds call `seq` with fingerprint `fp`, or a mismatch naming both.
    fn check_fingerprints(
        &self,
        area: &FlagArea,
        seq: u64,
        parity: usize,
        fp: &Fingerprint,
    ) -> Result<()> {
        for r in 0..area.members() {
            let (f0, f1) = area.fingerprint(r, parity);
            let theirs =
                Fingerprint::from_words(f0.load(Ordering::Relaxed), f1.load(Ordering::Relaxed));
            if theirs != *fp {
                let world = self.inner.members.world();
                let me = self.inner.engine.rank;
                let msg = mismatch_message(seq, me, world[r], fp, &theirs);
                // Peers on the flag area see it themselves; one that left it is told.
                return Err(self.notify_mismatch(seq, fp, msg));
            }
        }
        Ok(())
    }

    /// Tells every other member that call `seq` is mismatched (as the frame paths do) and
    /// returns the error.
    fn notify_mismatch(&self, seq: u64, fp: &Fingerprint, msg: String) -> Error {
        let world = self.inner.members.world();
        let engine = &self.inner.engine;
        let note = Bytes::from(msg.clone().into_bytes());
        for &to in world.iter().filter(|&&w| w != engine.rank) {
            let _ = engine.send_coll(
                to,
                self.inner.context,
                seq,
                MISMATCH_STEP,
                note.clone(),
                fp,
                world,
            );
        }
        Error::new(ErrorKind::Mismatch, msg)
    }
}

/// The rank-order reduction of every slot's payload into `out`.
fn reduce_slots(area: &FlagArea, parity: usize, out: &mut [u8], reducer: &Reducer) -> Result<()> {
    let len = out.len();
    let slot = |r: usize| {
        // SAFETY: every member published this call's payload into its slot and writes it
        // again only after this rank says `done`.
        unsafe { area.data(r, parity, len) }
    };
    out.copy_from_slice(slot(0));
    for r in 1..area.members() {
        reducer.reduce_into(out, slot(r), Order::AccFirst)?;
    }
    Ok(())
}

/// A call waiting on its peers: the spin / yield / sleep policy and the checks that end a wait
/// that would never end.
struct Wait<'a> {
    comm: &'a Comm,
    area: &'a FlagArea,
    seq: u64,
    fp: Fingerprint,
    parity: usize,
    start: Option<Instant>,
    spin: Duration,
    nap: Duration,
    next_check: Duration,
    probed: bool,
    /// The last look at the clock found the wait still within the spin.
    spinning: bool,
    /// Counted as a blocked caller of the transport (past the spin).
    blocked: bool,
    /// Slept on the transport's doorbell.
    slept: bool,
}

impl Drop for Wait<'_> {
    fn drop(&mut self) {
        if self.blocked
            && let Some(p) = self.comm.inner.engine.transport().caller_progress()
        {
            p.exit(self.slept);
        }
    }
}

impl<'a> Wait<'a> {
    fn new(comm: &'a Comm, area: &'a FlagArea, seq: u64, fp: Fingerprint, parity: usize) -> Self {
        let spin = comm
            .inner
            .engine
            .transport()
            .caller_progress()
            .map_or(Duration::ZERO, |p| p.spin_limit());
        Self {
            comm,
            area,
            seq,
            fp,
            parity,
            start: None,
            spin,
            nap: Duration::from_micros(20),
            next_check: CHECKS_AFTER,
            probed: false,
            spinning: true,
            blocked: false,
            slept: false,
        }
    }

    /// Waits until `ready(r)` holds for every peer `r`.
    fn until(&mut self, ready: impl Fn(usize) -> bool) -> Result<()> {
        let me = self.comm.rank() as usize;
        let area = self.area;
        let mut passes = 0u32;
        for r in (0..area.members()).filter(|&r| r != me) {
            while !ready(r) {
                passes += 1;
                self.pause(passes, || {
                    (0..area.members())
                        .filter(|&q| q != me && !ready(q))
                        .collect()
                })?;
            }
        }
        Ok(())
    }

    /// One pause of a waiting call; runs the checks when due (`missing`: the peers not ready).
    fn pause(&mut self, passes: u32, missing: impl Fn() -> Vec<usize>) -> Result<()> {
        // While spinning the clock is read only every 64 passes (a read costs several).
        if !passes.is_multiple_of(64) && (passes < 64 || self.spinning) {
            std::hint::spin_loop();
            return Ok(());
        }
        let start = *self.start.get_or_insert_with(Instant::now);
        let waited = start.elapsed();
        self.spinning = waited < self.spin;
        if waited >= self.next_check {
            self.next_check = waited + CHECK_EVERY;
            self.check(waited, &missing())?;
        }
        if waited < self.spin {
            std::hint::spin_loop();
            return Ok(());
        }
        // Past the spin, this call waits like any blocked caller: counted as one (the
        // transport's own thread stands aside), it drives the transport itself (its queued
        // sends, such as a root's announcements of large frames still waiting for ring slots,
        // go out at once) and sleeps on the transport's doorbell, which traffic rings. A call
        // done within the spin never pays for any of that.
        let progress = self.comm.inner.engine.transport().caller_progress();
        if let Some(p) = progress {
            if !self.blocked {
                self.blocked = true;
                p.enter();
            }
            if p.poll() {
                return Ok(());
            }
        }
        if waited < self.spin + YIELD_FOR {
            std::thread::yield_now();
        } else {
            match progress {
                Some(p) => {
                    p.sleep(&|| false, self.nap);
                    self.slept = true;
                }
                None => std::thread::sleep(self.nap),
            }
            self.nap = (self.nap * 2).min(MAX_NAP);
        }
        Ok(())
    }

    /// What would make this wait last forever (see the module docs), as an error.
    fn check(&mut self, waited: Duration, missing: &[usize]) -> Result<()> {
        let inner = &self.comm.inner;
        let engine = &inner.engine;
        let world = inner.members.world();
        engine.check_open()?;
        engine.check_revoked(inner.context)?;
        self.check_early(missing)?;
        for &r in missing {
            // A missing peer that left the job (it finalized) will never join this call.
            let gone = engine.failure_of(world[r]).or_else(|| {
                engine
                    .has_departed(world[r])
                    .then(|| engine.departure_error(world[r]))
            });
            if let Some(e) = gone {
                // A peer that found a mismatch tells everyone and leaves: its notice, if it
                // comes within the grace the frame paths give it, is the real cause.
                let grace = Instant::now() + NOTICE_GRACE;
                while Instant::now() < grace {
                    self.check_early(missing)?;
                    std::thread::sleep(Duration::from_millis(1));
                }
                return Err(e);
            }
        }
        if let Some(limit) = engine.cfg.coll_timeout
            && waited >= limit
        {
            return Err(Error::new(
                ErrorKind::Timeout,
                format!(
                    "collective call {} on this communicator did not complete within {limit:?} \
                     (NEXAR_TIMEOUT): a rank skipped it or is stuck",
                    self.seq
                ),
            ));
        }
        if waited >= PROBE_AFTER && !self.probed {
            self.probed = true;
            for &r in missing {
                // A peer the probe cannot reach is found failed by the next check.
                let _ = engine.send_coll(
                    world[r],
                    inner.context,
                    self.seq,
                    FLAGS_PROBE_STEP,
                    Bytes::new(),
                    &self.fp,
                    world,
                );
            }
        }
        Ok(())
    }

    /// The mismatches this rank's early frames and the peers' slots show (see the module
    /// docs), as an error.
    fn check_early(&self, missing: &[usize]) -> Result<()> {
        let inner = &self.comm.inner;
        let engine = &inner.engine;
        let world = inner.members.world();
        // A peer already past this call (its slot of the other parity, or its frames of a
        // later call) is no sign of trouble if every peer has joined this one by now.
        let target = self.seq + 1;
        let other = 1 - self.parity;
        let ahead = missing
            .iter()
            .find(|&&r| self.area.seq(r, other).load(Ordering::Acquire) > target)
            .map(|&r| world[r]);
        let early = engine.early_for_flags(inner.context, self.seq);
        let msg = match early {
            EarlyFlags::Notice(f) => return Err(notice_error(&f)),
            EarlyFlags::OtherPath(f) => {
                let h = &f.header;
                let theirs = Fingerprint::from_words(h.fp, h.fp_len);
                if theirs != self.fp {
                    mismatch_message(self.seq, engine.rank, h.src, &self.fp, &theirs)
                } else {
                    kinds_message(self.seq, engine.rank, h.src)
                }
            }
            EarlyFlags::Ahead(src) => self.skipped(src, missing),
            EarlyFlags::Nothing => match ahead {
                Some(src) => self.skipped(src, missing),
                None => return Ok(()),
            },
        };
        if msg.is_empty() {
            return Ok(());
        }
        Err(self.comm.notify_mismatch(self.seq, &self.fp, msg))
    }

    /// The message for world rank `src` being past this call while `missing` peers had not
    /// joined it, or empty if they all have by now (`src` then legitimately moved on).
    fn skipped(&self, src: u32, missing: &[usize]) -> String {
        let target = self.seq + 1;
        let world = self.comm.inner.members.world();
        let still: Vec<u32> = missing
            .iter()
            .filter(|&&r| self.area.seq(r, self.parity).load(Ordering::Acquire) != target)
            .map(|&r| world[r])
            .collect();
        if still.is_empty() {
            return String::new();
        }
        format!(
            "mismatched collective (call {} on this communicator): world rank {src} has moved \
             past it while world ranks {still:?} have not joined it (the ranks' calls are out of \
             step: a rank skipped a collective)",
            self.seq
        )
    }
}
