//! The fallback of the direct allreduce: when some rank cannot copy directly, every rank runs
//! the usual proto machine over the same collective, fed the frames the direct run filed.

use super::{DirectAllreduce, Event};
use crate::error::{Error, ErrorKind, Result};
use crate::ops::plan::unplanned;
use nexar_proto::algo::allreduce::direct::{STEP_DESCRIBE, STEP_DONE};
use nexar_proto::select::plan::{Algo, Coll, Facts};
use nexar_proto::{Collective, Incoming, Outbox, algo};

/// The proto machine run over the direct allreduce's collective when some rank cannot copy
/// directly (`NEXAR_SHM_CMA=0`, QUIC forced, ptrace forbidden).
pub(super) struct Fallback;

impl Fallback {
    /// Runs the plan's machine over this call, first fed `filed` (what the direct machine
    /// kept for it); control messages (peers' `Done`s) still go to the direct machine.
    pub(super) async fn run(
        d: &mut DirectAllreduce,
        recv: &mut [u8],
        filed: Vec<Incoming>,
    ) -> Result<()> {
        let group = d.comm.group();
        let data = if !d.owned.is_empty() {
            std::mem::take(&mut d.owned)
        } else if d.data_len > 0 && recv.as_ptr() as usize == d.data_addr {
            // In place: the input is `recv`; no second reference to it is made.
            recv.to_vec()
        } else {
            d.data().to_vec()
        };
        // The direct path is out (some rank cannot copy directly): the plan's machine for it.
        let facts = Facts {
            commutative: d.red.commutative(),
            direct_min_bytes: usize::MAX,
            ..d.comm.facts(Coll::Allreduce, data.len())
        };
        let algo = match d.comm.machine_algo(&facts)? {
            Algo::Allreduce(a) => a,
            other => return Err(unplanned(Coll::Allreduce, other)),
        };
        let mut m: Box<dyn Collective> =
            algo::allreduce::reducer_machine_with(group, d.red.clone(), data, algo)?;
        let mut out = Outbox::new();
        m.start(&mut out)?;
        Self::flush(d, &mut out)?;
        let rank = d.comm.rank;
        let context = || format!("allreduce on rank {rank}");
        let mut filed = filed.into_iter();
        while !m.is_done() {
            let msg = match filed.next() {
                Some(msg) => msg,
                None => match d.next_event().await {
                    Event::Msg(msg) if matches!(msg.step, STEP_DESCRIBE | STEP_DONE) => {
                        let mut ignored = Outbox::new();
                        d.machine()
                            .deliver(msg, &mut ignored)
                            .map_err(|e| Error::from(e).context(context()))?;
                        continue;
                    }
                    Event::Msg(msg) => msg,
                    Event::Failed(e) => return Err(e),
                    Event::Nothing => continue,
                },
            };
            m.deliver(msg, &mut out)
                .map_err(|e| Error::from(e).context(context()))?;
            Self::flush(d, &mut out)?;
        }
        let result = m.finish()?;
        if result.len() != recv.len() {
            return Err(Error::new(
                ErrorKind::Internal,
                format!(
                    "allreduce produced {} bytes for a {}-byte buffer",
                    result.len(),
                    recv.len()
                ),
            ));
        }
        recv.copy_from_slice(&result);
        Ok(())
    }

    fn flush(d: &DirectAllreduce, out: &mut Outbox) -> Result<()> {
        for m in out.drain() {
            d.send(m.to as usize, m.step, m.payload)?;
        }
        Ok(())
    }
}
