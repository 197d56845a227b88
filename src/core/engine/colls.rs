//! The collective half of the engine: each collective call's mailbox (opened with frames that
//! arrived before the call started), the memory of finished calls that catches late frames of
//! a mismatched call, the optional collective timeout, and sending collective frames.

use super::{CLOSED_KEPT, CollEvent, CollKey, Engine};
use crate::core::mailbox;
use crate::error::{Error, ErrorKind, Result};
use crate::wire::{Frame, FrameHeader, FrameKind};
use bytes::Bytes;
use std::sync::Arc;

/// What [`Engine::early_for_flags`] found.
pub(crate) enum EarlyFlags {
    /// Nothing about the call.
    Nothing,
    /// A mismatch notice for the call or an earlier one.
    Notice(Frame),
    /// A frame of the call from a peer running it on another path.
    OtherPath(Frame),
    /// A frame of a later call from this world rank.
    Ahead(u32),
}

impl Engine {
    /// Opens the mailbox of collective (`context`, `seq`), pre-loaded with early frames.
    pub fn open_collective(&self, context: u64, seq: u64) -> Result<mailbox::Receiver<CollEvent>> {
        self.check_open()?;
        self.check_revoked(context)?;
        let (tx, rx) = mailbox::mailbox();
        let mut r = self.colls.lock();
        if !r.early.is_empty() {
            // Frames kept for calls of this communicator that already finished here are
            // stale: drop them, but a mismatch notice among them fails this call.
            let stale: Vec<CollKey> = r
                .early
                .keys()
                .filter(|(c, s)| *c == context && *s < seq)
                .copied()
                .collect();
            let mut notice = None;
            for k in stale {
                for f in r.early.remove(&k).unwrap_or_default() {
                    if f.header.step == crate::core::fingerprint::MISMATCH_STEP && notice.is_none()
                    {
                        notice = Some((k.1, f));
                    }
                }
            }
            if let Some((old, f)) = notice {
                return Err(Error::new(
                    ErrorKind::Mismatch,
                    format!(
                        "an earlier collective (call {old} on this communicator) was mismatched; \
                         rank {} reported: {}",
                        f.header.src,
                        String::from_utf8_lossy(&f.payload)
                    ),
                ));
            }
            for f in r.early.remove(&(context, seq)).unwrap_or_default() {
                tx.send(CollEvent::Frame(f));
            }
        }
        r.open.insert((context, seq), tx);
        self.budget.collective_opened(); // frames may sit behind stalled p2p
        Ok(rx)
    }

    /// What this rank's early frames say about call `seq` of `context`, which runs on the
    /// communicator's flag area and has no mailbox (see `ops::flags`): a mismatch notice for
    /// it or an earlier call (taken: it is reported once), a frame of this call from a peer
    /// running it on another path, or a sign that some peer is past this call.
    pub(crate) fn early_for_flags(&self, context: u64, seq: u64) -> EarlyFlags {
        use crate::core::fingerprint::{FLAGS_PROBE_STEP, MISMATCH_STEP};
        let mut r = self.colls.lock();
        if r.early.is_empty() {
            return EarlyFlags::Nothing;
        }
        let mut found = EarlyFlags::Nothing;
        let mut notice = None;
        for (&(c, s), frames) in r.early.iter() {
            if c != context {
                continue;
            }
            for f in frames {
                let step = f.header.step;
                if step == MISMATCH_STEP && s <= seq {
                    notice = Some((c, s));
                } else if s == seq && step != FLAGS_PROBE_STEP && step != MISMATCH_STEP {
                    found = EarlyFlags::OtherPath(f.clone());
                } else if s > seq && matches!(found, EarlyFlags::Nothing) {
                    found = EarlyFlags::Ahead(f.header.src);
                }
            }
        }
        if let Some(key) = notice {
            let frames = r.early.remove(&key).unwrap_or_default();
            if let Some(f) = frames.into_iter().find(|f| f.header.step == MISMATCH_STEP) {
                return EarlyFlags::Notice(f);
            }
        }
        found
    }

    /// Drops the early frames of calls of `context` before `seq` that are not mismatch
    /// notices: probes left by peers of calls that ran on the flag area, which opens no
    /// mailbox to take them.
    pub(crate) fn purge_early(&self, context: u64, seq: u64) {
        use crate::core::fingerprint::MISMATCH_STEP;
        let mut r = self.colls.lock();
        r.early.retain(|&(c, s), frames| {
            if c != context || s >= seq {
                return true;
            }
            frames.retain(|f| f.header.step == MISMATCH_STEP);
            !frames.is_empty()
        });
    }

    /// Closes a collective's mailbox; a mismatch notice still unread in `rx` is kept for the
    /// communicator's next call (see [`Engine::open_collective`]), which then fails.
    pub fn close_collective(
        &self,
        context: u64,
        seq: u64,
        rx: &mut mailbox::Receiver<CollEvent>,
        fp: &crate::core::fingerprint::Fingerprint,
        members: &Arc<[u32]>,
    ) {
        let mut r = self.colls.lock();
        // Removed first, under the lock deliveries take: nothing arrives in `rx` afterwards.
        r.open.remove(&(context, seq));
        self.budget.collective_closed();
        r.closed.insert((context, seq), (*fp, members.clone()));
        r.closed_order.push_back((context, seq));
        if r.closed_order.len() > CLOSED_KEPT
            && let Some(k) = r.closed_order.pop_front()
        {
            r.closed.remove(&k);
        }
        // Frames still unread arrived while the call was open but already done (a root's
        // broadcast finishes as soon as it has sent): a mismatched one is a late frame of a
        // different call and must be reported as one, or no rank may ever notice.
        let mut late = None;
        while let Some(ev) = rx.try_recv() {
            if let CollEvent::Frame(f) = ev {
                if f.header.step == crate::core::fingerprint::MISMATCH_STEP {
                    r.early.entry((context, seq)).or_default().push(f);
                } else if late.is_none() {
                    late = crate::core::fingerprint::late_mismatch(self.rank, fp, &f);
                }
            }
        }
        drop(r);
        if let Some(notice) = late {
            self.report_late_mismatch((context, seq), notice, members);
        }
    }

    /// A frame of call `key`, which this rank finished, came from a different call: tells every
    /// member (the sender's call may still be waiting) and keeps the notice for this rank's
    /// later calls on that communicator. Called without the collective lock held.
    pub(super) fn report_late_mismatch(&self, key: CollKey, notice: Frame, members: &[u32]) {
        for &to in members.iter().filter(|&&m| m != self.rank) {
            let mut h = notice.header;
            h.src = self.rank;
            let _ = self
                .transport()
                .send(to, Frame::new(h, notice.payload.clone()));
        }
        self.on_frame_local_notice(key, notice);
    }

    /// With a collective timeout configured (`NEXAR_TIMEOUT`), fails call `seq` of
    /// `context` if it is still open when the limit passes.
    pub fn arm_collective_timeout(self: &Arc<Self>, context: u64, seq: u64) {
        let Some(limit) = self.cfg.coll_timeout else {
            return;
        };
        let engine = Arc::downgrade(self);
        self.runtime.spawn(async move {
            tokio::time::sleep(limit).await;
            let Some(engine) = engine.upgrade() else {
                return;
            };
            if let Some(tx) = engine.colls.lock().open.get(&(context, seq)) {
                tx.send(CollEvent::PeerLost(Error::new(
                    ErrorKind::Timeout,
                    format!(
                        "collective call {seq} on this communicator did not complete within \
                         {limit:?} (NEXAR_TIMEOUT): a rank skipped it or is stuck"
                    ),
                )));
            }
        });
    }

    /// Files a mismatch notice this rank made for a call it already finished, as if it had
    /// arrived: later calls on that communicator fail.
    pub(super) fn on_frame_local_notice(&self, key: CollKey, notice: Frame) {
        let mut r = self.colls.lock();
        for ((c, s), tx) in r.open.iter() {
            if *c == key.0 && *s > key.1 {
                tx.send(CollEvent::Frame(notice.clone()));
            }
        }
        r.early.entry(key).or_default().push(notice);
    }

    /// Passes a probe of call `key` started by world rank `origin` to this rank's ring
    /// successor among `members`, unless it has gone round (see
    /// `core::fingerprint::COLL_PROBE_STEP`). `fp` is this rank's fingerprint of the call: the
    /// prober's, or the probe would have been reported as a mismatch. A successor the probe
    /// cannot reach is reported failed the usual way.
    pub(crate) fn pass_probe(
        &self,
        key: CollKey,
        origin: u32,
        fp: &crate::core::fingerprint::Fingerprint,
        members: &[u32],
    ) {
        use crate::core::fingerprint::{COLL_PROBE_STEP, probe_next, probe_payload};
        if let Some(to) = probe_next(members, self.rank, origin) {
            let _ = self.send_coll(
                to,
                key.0,
                key.1,
                COLL_PROBE_STEP,
                probe_payload(origin),
                fp,
                members,
            );
        }
    }

    /// Sends one collective message to world rank `to`.
    pub fn send_coll(
        &self,
        to: u32,
        context: u64,
        seq: u64,
        step: u32,
        payload: Bytes,
        fp: &crate::core::fingerprint::Fingerprint,
        members: &[u32],
    ) -> Result<()> {
        if let Some(e) = self.failure_of(to) {
            return Err(e);
        }
        let mut h = FrameHeader::new(FrameKind::Collective, self.rank);
        h.context = context;
        h.seq = seq;
        h.step = step;
        (h.fp, h.fp_len) = fp.words();
        self.transport()
            .send(to, Frame::new(h, payload))
            .map_err(|e| self.named_failure(self.explain_departure(e, to, members)))
    }

    /// A send to `to` failed with `e`. If `to` left without having failed (it finalized, most
    /// likely after an error of its own), a process failure among `members` is the better
    /// explanation: it is returned instead, once the transport looked for failures it has not
    /// noticed yet (the departed peer may have noticed first).
    fn explain_departure(&self, e: Error, to: u32, members: &[u32]) -> Error {
        if e.kind() != ErrorKind::ProcFailed
            || e.failed_rank() != Some(to)
            || self.failure_of(to).is_some()
        {
            return e;
        }
        self.transport().refresh_liveness();
        match self.check_alive(members) {
            Err(failure) if failure.failed_rank() != Some(to) => failure,
            _ => e,
        }
    }
}
