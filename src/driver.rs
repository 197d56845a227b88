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

/// One collective call in flight on one rank.
pub(crate) struct CollectiveRun {
    comm: Arc<CommInner>,
    seq: u64,
    machine: Option<Box<dyn Collective>>,
    rx: mailbox::Receiver<CollEvent>,
    out: Outbox,
}

impl CollectiveRun {
    /// Takes the next sequence number of `comm`, opens the mailbox and starts the machine.
    pub fn start(comm: &Arc<CommInner>, mut machine: Box<dyn Collective>) -> Result<Self> {
        let engine = &comm.engine;
        engine.check_alive(comm.members.world())?;
        let seq = comm.next_collective_seq();
        let rx = engine.open_collective(comm.context, seq)?;
        let mut run = Self {
            comm: comm.clone(),
            seq,
            machine: None,
            rx,
            out: Outbox::new(),
        };
        machine.start(&mut run.out)?;
        run.machine = Some(machine);
        run.flush()?;
        Ok(run)
    }

    fn engine(&self) -> &Engine {
        &self.comm.engine
    }

    fn flush(&mut self) -> Result<()> {
        let members = self.comm.members.world();
        for m in self.out.drain() {
            let to = members[m.to as usize];
            self.comm
                .engine
                .send_coll(to, self.comm.context, self.seq, m.step, m.payload)?;
        }
        Ok(())
    }

    /// Runs the machine to completion and returns this rank's output bytes.
    pub async fn finish(mut self) -> Result<Vec<u8>> {
        loop {
            let machine = self.machine.as_mut().expect("machine present until finish");
            if machine.is_done() {
                break;
            }
            let event = self.rx.recv().await;
            match event {
                CollEvent::Frame(f) => {
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
        let machine = self.machine.take().expect("machine present until finish");
        Ok(machine.finish()?)
    }
}

impl Drop for CollectiveRun {
    fn drop(&mut self) {
        self.comm
            .engine
            .close_collective(self.comm.context, self.seq);
    }
}
