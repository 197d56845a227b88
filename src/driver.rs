//! Drives one proto collective state machine: ships what it emits, feeds it what arrives, and
//! turns peer failures into errors. This is the only place proto machines meet the engine.
//!
//! A run is started synchronously ([`CollectiveRun::start`]) so that the collective's sequence
//! number is taken in program order even for non-blocking calls; the rest is async.

use crate::comm::CommInner;
use crate::engine::{CollEvent, Engine};
use crate::error::{Error, ErrorKind, Result};
use crate::mailbox;
use nexar_proto::{Collective, Incoming, Outbox};
use std::sync::Arc;

/// What every member of a communicator must agree on for one collective call: which
/// collective, its root, its reduction and (where all ranks pass the same amount) its byte
/// length. Carried by every collective frame; a frame whose fingerprint differs from the
/// receiver's own call fails the call with [`ErrorKind::Mismatch`] naming both sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Fingerprint {
    /// The collective ([`Kind`] as a byte).
    pub kind: u8,
    /// Root rank (0 for rootless collectives).
    pub root: u32,
    /// Reduction: `op + 1` in the high byte and the datatype in the low one for a predefined
    /// op, `0xFF` and the element size (capped at 255) for a custom one; 0 without reduction.
    pub reduction: u16,
    /// Byte length every rank passes (0 where ranks may legitimately pass different lengths).
    pub len: u64,
}

/// Collectives, as named in mismatch messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Kind {
    Barrier = 1,
    Bcast = 2,
    Reduce = 3,
    Allreduce = 4,
    Allgather = 5,
    Gather = 6,
    Scatter = 7,
    Alltoall = 8,
    ReduceScatter = 9,
    Scan = 10,
}

const KIND_NAMES: [&str; 11] = [
    "?",
    "barrier",
    "bcast",
    "reduce",
    "allreduce",
    "allgather",
    "gather",
    "scatter",
    "alltoall",
    "reduce_scatter",
    "scan",
];

impl Fingerprint {
    /// A fingerprint of `kind` with nothing else to compare.
    pub fn of(kind: Kind) -> Self {
        Self {
            kind: kind as u8,
            ..Self::default()
        }
    }

    /// With a root.
    pub fn root(mut self, root: u32) -> Self {
        self.root = root;
        self
    }

    /// With the byte length every rank passes.
    pub fn len(mut self, len: usize) -> Self {
        self.len = len as u64;
        self
    }

    /// With a reduction.
    pub fn reducing(mut self, r: &nexar_proto::Reducer) -> Self {
        self.reduction = match r {
            nexar_proto::Reducer::Builtin { op, dtype } => {
                (((*op as u16) + 1) << 8) | (*dtype as u16)
            }
            nexar_proto::Reducer::Custom(c) => 0xFF00 | c.elem_size().min(255) as u16,
        };
        self
    }

    /// The two header words.
    pub fn words(&self) -> (u64, u64) {
        (
            ((self.kind as u64) << 56) | ((self.reduction as u64) << 32) | self.root as u64,
            self.len,
        )
    }

    /// From the two header words.
    pub fn from_words(fp: u64, len: u64) -> Self {
        Self {
            kind: (fp >> 56) as u8,
            reduction: (fp >> 32) as u16,
            root: fp as u32,
            len,
        }
    }

    fn kind_name(&self) -> &'static str {
        KIND_NAMES.get(self.kind as usize).copied().unwrap_or("?")
    }

    /// "kind X vs Y, root ..." for the fields that differ between this call and `theirs`.
    pub fn differences(&self, theirs: &Fingerprint) -> String {
        let mut d = Vec::new();
        if self.kind != theirs.kind {
            d.push(format!(
                "collective {} here, {} there",
                self.kind_name(),
                theirs.kind_name()
            ));
        }
        if self.root != theirs.root {
            d.push(format!("root {} here, {} there", self.root, theirs.root));
        }
        if self.reduction >> 8 != theirs.reduction >> 8 {
            d.push(format!(
                "reduction op {:#x} here, {:#x} there",
                self.reduction >> 8,
                theirs.reduction >> 8
            ));
        }
        if self.reduction & 0xFF != theirs.reduction & 0xFF {
            d.push(format!(
                "datatype {} here, {} there",
                self.reduction & 0xFF,
                theirs.reduction & 0xFF
            ));
        }
        if self.len != theirs.len {
            d.push(format!("{} bytes here, {} there", self.len, theirs.len));
        }
        d.join("; ")
    }
}

/// Step of the notice a rank that found a mismatch sends every member, so all of them fail
/// the call instead of some waiting forever. Its payload is the message.
pub(crate) const MISMATCH_STEP: u32 = u32::MAX - 1;

/// The message naming both ranks and the fields in which their calls differ.
fn mismatch_message(
    seq: u64,
    me: u32,
    src: u32,
    mine: &Fingerprint,
    theirs: &Fingerprint,
) -> String {
    format!(
        "mismatched collective (call {seq} on this communicator) between world ranks {me} and \
         {src}: {}",
        mine.differences(theirs)
    )
}

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
        return Err(Error::new(
            ErrorKind::Mismatch,
            format!(
                "rank {} reports a mismatched collective: {}",
                h.src,
                String::from_utf8_lossy(&f.payload)
            ),
        ));
    }
    let theirs = Fingerprint::from_words(h.fp, h.fp_len);
    if theirs == *mine {
        return Ok(());
    }
    let msg = mismatch_message(seq, comm.engine.rank, h.src, mine, &theirs);
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

/// For a frame that arrives after this rank finished its call with fingerprint `mine`: if the
/// frame's call differs, the mismatch notice (a frame from `me`, step [`MISMATCH_STEP`]) to
/// send every member and to file for this rank's next call.
pub(crate) fn late_mismatch(
    me: u32,
    mine: &Fingerprint,
    f: &crate::wire::Frame,
) -> Option<crate::wire::Frame> {
    let h = &f.header;
    if h.step == MISMATCH_STEP {
        return None;
    }
    let theirs = Fingerprint::from_words(h.fp, h.fp_len);
    if theirs == *mine {
        return None;
    }
    let msg = mismatch_message(h.seq, me, h.src, mine, &theirs);
    let mut nh = *h;
    nh.src = me;
    nh.step = MISMATCH_STEP;
    (nh.fp, nh.fp_len) = mine.words();
    Some(crate::wire::Frame::new(
        nh,
        bytes::Bytes::from(msg.into_bytes()),
    ))
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
}

impl CollectiveRun {
    /// Takes the next sequence number of `comm`, opens the mailbox and starts the machine.
    pub fn start(
        comm: &Arc<CommInner>,
        mut machine: Box<dyn Collective>,
        fp: Fingerprint,
    ) -> Result<Self> {
        let (seq, rx) = comm.open_collective()?;
        let mut run = Self {
            comm: comm.clone(),
            seq,
            fp,
            machine: None,
            rx,
            out: Outbox::new(),
            failed: None,
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
            self.comm.engine.send_coll(
                to,
                self.comm.context,
                self.seq,
                m.step,
                m.payload,
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
        let machine = self.machine.take().expect("machine present until finish");
        Ok(machine.finish()?)
    }

    /// Feeds the machine until it is done.
    async fn run_to_end(&mut self) -> Result<()> {
        loop {
            let machine = self.machine.as_mut().expect("machine present until finish");
            if machine.is_done() {
                break;
            }
            let event = self.rx.recv().await;
            match event {
                CollEvent::Frame(f) => {
                    check_frame(&self.comm, self.seq, &self.fp, &f)?;
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
                    let relevant = match e.failed_rank() {
                        Some(r) => self.comm.members.comm_rank_of(r).is_some(),
                        None => true,
                    };
                    if relevant {
                        return Err(e);
                    }
                }
            }
        }
        Ok(())
    }
}

impl Drop for CollectiveRun {
    fn drop(&mut self) {
        self.comm.close_collective(self.seq, &mut self.rx, &self.fp);
    }
}
