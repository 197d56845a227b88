//! The fallback of the direct allreduce: when some rank cannot copy directly, every rank runs
//! the usual proto machine over the same collective, fed the frames the direct run filed.

use super::DirectAllreduce;
use crate::error::{Error, ErrorKind, Result};
use crate::ops::plan::unplanned;
use nexar_proto::select::plan::{Algo, Coll, Facts};
use nexar_proto::{Collective, Incoming, Outbox, algo};

/// The proto machine run over the direct allreduce's collective when some rank cannot copy
/// directly (`NEXAR_SHM_CMA=0`, QUIC forced, ptrace forbidden).
pub(super) struct Fallback;

impl Fallback {
    pub(super) async fn run(d: &mut DirectAllreduce, recv: &mut [u8]) -> Result<()> {
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
        let mut next = 0;
        while !m.is_done() {
            if next == d.machine_frames.len() {
                d.machine_frames.clear();
                next = 0;
                d.pump().await?;
                continue;
            }
            let f = d.machine_frames[next].clone();
            next += 1;
            let from = d
                .comm
                .members
                .comm_rank_of(f.header.src)
                .expect("checked in pump");
            let msg = Incoming {
                from,
                step: f.header.step,
                payload: f.payload,
            };
            m.deliver(msg, &mut out).map_err(|e| {
                Error::from(e).context(format!("allreduce on rank {}", d.comm.rank))
            })?;
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
