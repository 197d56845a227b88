//! The engine's one door to the plan ([`nexar_proto::select::plan`]): the facts of a collective
//! call on a communicator, gathered here once so that every start asks the plan the same way.
//!
//! Every fact is the same on every member: the communicator's size, the call's length, the
//! members' hosts (learnt at start-up) and the settings every rank reads alike
//! (`NEXAR_ALLREDUCE_DIRECT_MIN`). That is what lets each rank plan alone and still take the
//! same path as its peers.

use super::direct_allreduce;
use crate::comm::CommInner;
use crate::error::{Error, ErrorKind, Result};
use nexar_proto::select::plan::{self, Algo, Coll, Facts, Plan};

impl CommInner {
    /// Whether every member of this communicator of more than one rank runs on this host
    /// (worked out on the first call: the hosts are known before any communicator is used).
    pub(crate) fn one_host(&self) -> bool {
        *self.one_host.get_or_init(|| {
            let world = self.members.world();
            let hosts = self.engine.hosts();
            let host_of = |w: u32| hosts.get(w as usize);
            world.len() > 1
                && host_of(world[0]).is_some()
                && world.iter().all(|&w| host_of(w) == host_of(world[0]))
        })
    }

    /// The facts of a `coll` call moving `bytes` on this communicator, for a commutative (or no)
    /// operator, with every block's size known everywhere and no NCCL. Callers change the
    /// fields that differ for their call.
    pub(crate) fn facts(&self, coll: Coll, bytes: usize) -> Facts {
        Facts {
            one_host: self.one_host(),
            direct_min_bytes: direct_allreduce::min_bytes(),
            ..Facts::machine(coll, self.size(), bytes, true)
        }
    }

    /// The plan for the call `f` describes.
    pub(crate) fn plan(&self, f: &Facts) -> Plan {
        plan::plan(f)
    }

    /// The proto algorithm the plan gives `f`, which the caller can only run as a machine.
    pub(crate) fn machine_algo(&self, f: &Facts) -> Result<Algo> {
        match self.plan(f) {
            Plan::Machine(a) => Ok(a),
            p => Err(unplanned(f.coll, p)),
        }
    }
}

/// The error for a plan its caller has no path for (a bug: the facts it gave rule it out).
pub(crate) fn unplanned(coll: Coll, p: impl std::fmt::Debug) -> Error {
    Error::new(
        ErrorKind::Internal,
        format!("the plan chose {p:?} for a {coll:?} call that cannot run it"),
    )
}
