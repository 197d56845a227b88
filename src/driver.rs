//! Drives one proto collective state machine: ships what it emits, feeds it what arrives, and
//! turns peer failures into errors. This is the only place proto machines meet the engine.
//!
//! A run is started synchronously ([`CollectiveRun::start`]) so that the collective's sequence
//! number is taken in program order even for non-blocking calls; the rest is async.

use crate::comm::CommInner;
use crate::core::engine::{CollEvent, Engine};
use crate::core::fingerprint::{
    COLL_PROBE_AFTER, COLL_PROBE_STEP, FLAGS_PROBE_STEP, Fingerprint, MISMATCH_STEP, kinds_message,
    mismatch_message, notice_error, probe_origin,
};
use crate::core::mailbox;
use crate::error::{Error, ErrorKind, Result};
use nexar_proto::algo::confirm::Confirmed;
use nexar_proto::{Collective, Incoming, Outbox};
use std::sync::Arc;

/// Checks a collective frame against this rank's call: the error for a mismatch notice or a
/// differing fingerprint (after telling every other member of `comm`), else `Ok`.
pub(crate) fn check_frame(
    comm: &CommInner,
    seq: u64,
    mine: &Fingerprint,
    f: &crate::wire::Frame,
) -> Result<()> {
    let h = &f.header;
    if h.step == MISMATCH_STEP {
        return Err(notice_error(f));
    }
    let theirs = Fingerprint::from_words(h.fp, h.fp_len);
    let msg = if theirs != *mine {
        mismatch_message(seq, comm.engine.rank, h.src, mine, &theirs)
    } else if h.step == FLAGS_PROBE_STEP {
        kinds_message(seq, h.src, comm.engine.rank)
    } else {
        return Ok(());
    };
    let note = bytes::Bytes::from(msg.clone().into_bytes());
    let world = comm.members.world();
    for &to in world.iter() {
        if to != comm.engine.rank {
            let _ = comm.engine.send_coll(
                to,
                comm.context,
                seq,
                MISMATCH_STEP,
                note.clone(),
                mine,
                world,
            );
        }
    }
    Err(Error::new(ErrorKind::Mismatch, msg))
}

/// How long a call that failed because a peer left waits for that peer's mismatch notice.
const NOTICE_GRACE: std::time::Duration = std::time::Duration::from_millis(100);

/// A peer failure that ends a call may be the echo of a mismatch: a rank that detected one
/// tells every member and leaves, and its peers' next sends to it fail. A mismatch notice or
/// a mismatching frame in the call's mailbox, already there or arriving within
/// [`NOTICE_GRACE`] (over QUIC a leaving rank's goodbye can overtake its notice), is the real
/// cause: this returns it instead of `e`. Other errors are returned unchanged at once.
pub(crate) async fn prefer_mismatch(
    comm: &CommInner,
    seq: u64,
    fp: &Fingerprint,
    rx: &mut mailbox::Receiver<CollEvent>,
    e: Error,
) -> Error {
    if e.kind() != ErrorKind::ProcFailed {
        return e;
    }
    let mismatch = |ev: CollEvent| match ev {
        CollEvent::Frame(f) => check_frame(comm, seq, fp, &f)
            .err()
            .filter(|m| m.kind() == ErrorKind::Mismatch),
        CollEvent::PeerLost(_) => None,
    };
    while let Some(ev) = rx.try_recv() {
        if let Some(m) = mismatch(ev) {
            return m;
        }
    }
    let wait = async {
        loop {
            if let Some(m) = mismatch(rx.recv().await) {
                return m;
            }
        }
    };
    // The timer belongs to the engine's runtime: blocking calls poll this future on their
    // own thread, outside any runtime.
    let timed = {
        let _rt = comm.engine.runtime.enter();
        tokio::time::timeout(NOTICE_GRACE, wait)
    };
    timed.await.unwrap_or(e)
}

/// How often a waiting call looks for members that left the job, and how long it must have
/// heard nothing before such a member ends it (see [`CollectiveRun::run_to_end`]).
const DEPARTURE_CHECK_EVERY: std::time::Duration = std::time::Duration::from_millis(250);
const DEPARTURE_GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// The timers of a waiting collective call: when to probe its peers ([`COLL_PROBE_AFTER`]),
/// and the ticks that look for members that left the job.
struct Timers {
    probe: std::pin::Pin<Box<tokio::time::Sleep>>,
    departures: tokio::time::Interval,
}

impl Timers {
    /// Starts both timers (inside the runtime's context: the caller's own thread may poll the
    /// call, and a timer needs the runtime's time driver).
    fn start(engine: &Engine) -> Self {
        let _in_runtime = engine.runtime.enter();
        Self {
            probe: Box::pin(tokio::time::sleep(COLL_PROBE_AFTER)),
            departures: tokio::time::interval(DEPARTURE_CHECK_EVERY),
        }
    }
}

/// One collective call in flight on one rank.
pub(crate) struct CollectiveRun {
    comm: Arc<CommInner>,
    seq: u64,
    fp: Fingerprint,
    machine: Option<Box<dyn Collective>>,
    rx: mailbox::Receiver<CollEvent>,
    out: Outbox,
    /// A peer failure met while starting, reported by [`CollectiveRun::finish`].
    failed: Option<Error>,
    /// Large payloads the transport holds until the receiver has copied them (see
    /// [`CollectiveRun::flush`]); the call completes once they are released.
    held: Vec<crate::ops::lend::Released>,
}

impl CollectiveRun {
    /// Takes the next sequence number of `comm`, opens the mailbox and starts the machine.
    pub fn start(
        comm: &Arc<CommInner>,
        mut machine: Box<dyn Collective>,
        fp: Fingerprint,
    ) -> Result<Self> {
        if comm.engine.cfg.strict_collectives && fp.lets_a_rank_finish_alone() {
            machine = Box::new(Confirmed::new(machine, comm.group()));
        }
        let (seq, rx) = comm.open_collective()?;
        let mut run = Self {
            comm: comm.clone(),
            seq,
            fp,
            machine: None,
            rx,
            out: Outbox::new(),
            failed: None,
            held: Vec::new(),
        };
        machine.start(&mut run.out)?;
        run.machine = Some(machine);
        if let Err(e) = run.flush() {
            if e.kind() != ErrorKind::ProcFailed {
                return Err(e);
            }
            // Reported by `finish`, which first gives a mismatch notice time to arrive.
            run.failed = Some(e);
        }
        Ok(run)
    }

    fn engine(&self) -> &Engine {
        &self.comm.engine
    }

    fn flush(&mut self) -> Result<()> {
        let members = self.comm.members.world();
        for m in self.out.drain() {
            let to = members[m.to as usize];
            // A payload the transport keeps until the receiver copied it (a one-copy read on
            // shared memory, the TLS bulk lane) is tracked, and the call waits for it: without
            // that a root of large broadcasts ran ahead of its receivers, holding a buffer
            // per call (a 2-rank 1 MiB bcast loop grew the root to 1 GB).
            let payload = if self.comm.engine.transport().lends(to, m.payload.len()) {
                let (payload, released) = crate::ops::lend::track(m.payload);
                self.held.push(released);
                payload
            } else {
                m.payload
            };
            self.comm.engine.send_coll(
                to,
                self.comm.context,
                self.seq,
                m.step,
                payload,
                &self.fp,
                members,
            )?;
        }
        Ok(())
    }

    /// Runs the machine to completion and returns this rank's output bytes.
    pub async fn finish(mut self) -> Result<Vec<u8>> {
        let ended = match self.failed.take() {
            Some(e) => Err(e),
            None => self.run_to_end().await,
        };
        if let Err(e) = ended {
            return Err(prefer_mismatch(&self.comm, self.seq, &self.fp, &mut self.rx, e).await);
        }
        if let Err(e) = self.await_released().await {
            return Err(prefer_mismatch(&self.comm, self.seq, &self.fp, &mut self.rx, e).await);
        }
        let machine = self.machine.take().expect("machine present until finish");
        Ok(machine.finish()?)
    }

    /// Waits until the large payloads this call sent are released: their receivers copied
    /// them (or were lost, which drops them too). The call is still open meanwhile: a
    /// mismatch notice (a receiver that found the call mismatched, typically on reading this
    /// very payload) or the loss of a member ends it as it would have during the run, and
    /// probes are passed on.
    async fn await_released(&mut self) -> Result<()> {
        for released in std::mem::take(&mut self.held) {
            tokio::pin!(released);
            loop {
                let event = tokio::select! {
                    _ = &mut released => break,
                    ev = self.rx.recv() => ev,
                };
                match event {
                    CollEvent::Frame(f) => {
                        check_frame(&self.comm, self.seq, &self.fp, &f)?;
                        if f.header.step == COLL_PROBE_STEP
                            && let Some(origin) = probe_origin(&f)
                        {
                            self.pass_probe(origin);
                        }
                    }
                    CollEvent::PeerLost(e) => {
                        if self.ends_the_call(&e) {
                            return Err(e);
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Passes a probe started by `origin` on around the ring (see [`COLL_PROBE_STEP`]).
    fn pass_probe(&self, origin: u32) {
        let key = (self.comm.context, self.seq);
        let members = self.comm.members.world();
        self.comm.engine.pass_probe(key, origin, &self.fp, members);
    }

    /// Feeds the machine until it is done.
    async fn run_to_end(&mut self) -> Result<()> {
        // The probe and the departure checks are timers, set up only once the call has to
        // wait: a call whose frames are already there reads no clock and arms no timer.
        let mut timers: Option<Timers> = None;
        let mut probed = false;
        // Frames seen, and the departure checks since the last one that saw new frames.
        let (mut frames, mut frames_at_check, mut quiet_checks) = (0u64, 0u64, 0u32);
        loop {
            let machine = self.machine.as_mut().expect("machine present until finish");
            if machine.is_done() {
                break;
            }
            let event = match self.rx.try_recv() {
                Some(ev) => ev,
                None => {
                    let t = timers.get_or_insert_with(|| Timers::start(&self.comm.engine));
                    tokio::select! {
                        biased;
                        ev = self.rx.recv() => ev,
                        _ = &mut t.probe, if !probed => {
                            probed = true;
                            self.pass_probe(self.comm.engine.rank);
                            continue;
                        }
                        _ = t.departures.tick(), if probed => {
                            // A member that left the job sent everything it ever will before
                            // its goodbye: a call that has heard nothing for a while since,
                            // with such a member, is waiting for what will never come. (A
                            // correct program's members leave only after the final barrier,
                            // when no call is open.)
                            quiet_checks = if frames == frames_at_check { quiet_checks + 1 } else { 0 };
                            frames_at_check = frames;
                            let engine = &self.comm.engine;
                            if DEPARTURE_CHECK_EVERY * quiet_checks >= DEPARTURE_GRACE
                                && let Some(r) = engine.departed_among(self.comm.members.world())
                            {
                                return Err(engine.departure_error(r));
                            }
                            continue;
                        }
                    }
                }
            };
            if matches!(event, CollEvent::Frame(_)) {
                frames += 1;
            }
            let machine = self.machine.as_mut().expect("machine present until finish");
            match event {
                CollEvent::Frame(f) => {
                    check_frame(&self.comm, self.seq, &self.fp, &f)?;
                    if f.header.step == COLL_PROBE_STEP {
                        // The same call on the prober: nothing for the machine; pass it on.
                        if let Some(origin) = probe_origin(&f) {
                            self.pass_probe(origin);
                        }
                        continue;
                    }
                    let from = self
                        .comm
                        .members
                        .comm_rank_of(f.header.src)
                        .ok_or_else(|| {
                            Error::new(
                                ErrorKind::Mismatch,
                                format!(
                                    "collective frame from rank {} outside the group",
                                    f.header.src
                                ),
                            )
                        })?;
                    let msg = Incoming {
                        from,
                        step: f.header.step,
                        payload: f.payload,
                    };
                    machine.deliver(msg, &mut self.out).map_err(|e| {
                        Error::from(e).context(format!("collective on rank {}", self.engine().rank))
                    })?;
                    self.flush()?;
                }
                CollEvent::PeerLost(e) => {
                    if self.ends_the_call(&e) {
                        return Err(e);
                    }
                }
            }
        }
        Ok(())
    }

    /// Whether a peer loss ends this call: a member of the communicator (or an unnamed rank).
    fn ends_the_call(&self, e: &Error) -> bool {
        match e.failed_rank() {
            Some(r) => self.comm.members.comm_rank_of(r).is_some(),
            None => true,
        }
    }
}

impl Drop for CollectiveRun {
    fn drop(&mut self) {
        self.comm.close_collective(self.seq, &mut self.rx, &self.fp);
    }
}
