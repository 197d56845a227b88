//! The fingerprint of a collective call: what every member must agree on (which collective, its
//! root, its reduction, its length). Every collective frame carries it, so the engine can catch a
//! mismatched call even in a frame that arrives after this rank's call has finished.

/// What every member of a communicator must agree on for one collective call: which
/// collective, its root, its reduction and (where all ranks pass the same amount) its byte
/// length. Carried by every collective frame; a frame whose fingerprint differs from the
/// receiver's own call fails the call with [`ErrorKind::Mismatch`](crate::ErrorKind::Mismatch) naming both sides.
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

    /// The reduction as words a user recognises: the op (`max`, `a user op`, `none`) and the
    /// element (`f64`, `4-byte elements`, `none`), never the raw codes.
    fn reduction_parts(&self) -> (String, String) {
        let (op, low) = ((self.reduction >> 8) as u8, self.reduction as u8);
        match op {
            0 => ("none".into(), "none".into()),
            0xFF => ("a user-defined op".into(), format!("{low}-byte elements")),
            op => (
                nexar_proto::ReduceOp::from_u8(op - 1)
                    .map_or_else(|| format!("#{op}"), |o| o.name().to_string()),
                nexar_proto::Datatype::from_u8(low)
                    .map_or_else(|| format!("#{low}"), |t| t.name().to_string()),
            ),
        }
    }

    /// Whether some rank can finish this collective without hearing from every member (a bcast
    /// or scatter root, a reduce or gather leaf, a scan's first ranks): the calls strict
    /// checking confirms ([`crate::Config::strict_collectives`]).
    pub fn lets_a_rank_finish_alone(&self) -> bool {
        [
            Kind::Bcast,
            Kind::Reduce,
            Kind::Gather,
            Kind::Scatter,
            Kind::Scan,
        ]
        .iter()
        .any(|k| *k as u8 == self.kind)
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
        let (ours, other) = (self.reduction_parts(), theirs.reduction_parts());
        if ours.0 != other.0 {
            d.push(format!("reduction op {} here, {} there", ours.0, other.0));
        }
        if ours.1 != other.1 {
            d.push(format!("datatype {} here, {} there", ours.1, other.1));
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

/// Step of the probe a rank waiting on its communicator's flag area (`ops::flags`) sends a
/// peer that is slow to arrive: it carries the call's fingerprint, so a peer running the same
/// call number on another path (a different collective, or a non-blocking one) finds the
/// mismatch in it; a peer on the flag area too leaves it unread.
pub(crate) const FLAGS_PROBE_STEP: u32 = u32::MAX - 0x100;

/// Step of the probe a frame-path collective that has waited [`COLL_PROBE_AFTER`] sends around
/// the communicator's ring, carrying the call's fingerprint and, as payload, the world rank
/// that started it: each member that runs or ran the same call passes it to its successor
/// (comm rank + 1) until it comes back to its origin; a member that runs or ran another call
/// under this number (another root, another collective) reports the mismatch to everyone. A
/// reduce whose ranks disagree on the root thus fails on every root instead of leaving them
/// waiting for frames that went elsewhere. Each rank only ever talks to its ring neighbours, so
/// probing opens no connections beyond them (lazy connections stay few at scale).
pub(crate) const COLL_PROBE_STEP: u32 = u32::MAX - 0x101;

/// The world rank that started probe `f` (see [`COLL_PROBE_STEP`]).
pub(crate) fn probe_origin(f: &crate::wire::Frame) -> Option<u32> {
    let b: [u8; 4] = f.payload.get(..4)?.try_into().ok()?;
    Some(u32::from_le_bytes(b))
}

/// The probe payload naming `origin`.
pub(crate) fn probe_payload(origin: u32) -> bytes::Bytes {
    bytes::Bytes::copy_from_slice(&origin.to_le_bytes())
}

/// Where world rank `me` passes a probe started by `origin` among `members` (world ranks in
/// comm order): its successor on the ring, or `None` once the probe has gone round.
pub(crate) fn probe_next(members: &[u32], me: u32, origin: u32) -> Option<u32> {
    let i = members.iter().position(|&m| m == me)?;
    let next = members[(i + 1) % members.len()];
    (next != origin && next != me).then_some(next)
}

/// How long a frame-path collective waits before probing: past the time a small call takes, so
/// the probe (one 4-byte frame to the ring successor, once per call) costs nothing there.
pub(crate) const COLL_PROBE_AFTER: std::time::Duration = std::time::Duration::from_millis(100);

/// The error for a mismatch notice `f` (a frame of step [`MISMATCH_STEP`]) another rank sent.
pub(crate) fn notice_error(f: &crate::wire::Frame) -> crate::error::Error {
    crate::error::Error::new(
        crate::error::ErrorKind::Mismatch,
        format!(
            "rank {} reports a mismatched collective: {}",
            f.header.src,
            String::from_utf8_lossy(&f.payload)
        ),
    )
}

/// The message for call `seq` run as a blocking collective by world rank `blocking` and as a
/// non-blocking (or persistent) one by world rank `other`, with the same fingerprint.
pub(crate) fn kinds_message(seq: u64, blocking: u32, other: u32) -> String {
    format!(
        "mismatched collective (call {seq} on this communicator): world rank {blocking} runs it \
         as a blocking collective, world rank {other} as a non-blocking or persistent one (MPI \
         never matches the two kinds)"
    )
}

/// The message naming both ranks and the fields in which their calls differ.
pub(crate) fn mismatch_message(
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

#[cfg(test)]
mod tests {
    use super::*;
    use nexar_proto::{Datatype, ReduceOp, Reducer};

    /// Mismatch messages name ops and element types as words, never as raw codes.
    #[test]
    fn differences_name_ops_and_types() {
        let red = |op, dtype| Reducer::Builtin { op, dtype };
        let a = Fingerprint::of(Kind::Allreduce).reducing(&red(ReduceOp::Max, Datatype::F64));
        let b = Fingerprint::of(Kind::Allreduce).reducing(&red(ReduceOp::Min, Datatype::I32));
        assert_eq!(
            a.differences(&b),
            "reduction op max here, min there; datatype f64 here, i32 there"
        );
        let barrier = Fingerprint::of(Kind::Barrier);
        assert_eq!(
            barrier.differences(&a),
            "collective barrier here, allreduce there; reduction op none here, max there; \
             datatype none here, f64 there"
        );
    }
}
