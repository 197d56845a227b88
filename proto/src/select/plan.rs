//! The one plan per collective call: nothing at all (no bytes, or one rank), NCCL, the shared
//! flag area, the direct shared-memory allreduce, or which proto algorithm.
//!
//! The engine asks [`plan`] once for every collective it starts, with [`Facts`] that are the
//! same on every rank of the communicator (its size, the vector's length, whether every member
//! runs on one host, the operator's commutativity, settings every rank reads alike), so every
//! rank takes the same path without exchanging a message. Nothing else in nexar chooses an
//! algorithm: the per-collective rules in [`super::reductions`] and [`super::movement`] are the
//! plan's parts, and the machines' convenience constructors (`algo::bcast::machine` and the
//! like, for tests and the simulator) ask those same rules.

use super::movement::{self, ReduceScatterAlgo, ScanAlgo};
use super::reductions::{self, AllreduceAlgo, BcastAlgo, ReduceAlgo};
use crate::algo::{allgather, alltoall, gather, scatter};

/// Which collective a call runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Coll {
    /// Barrier.
    Barrier,
    /// Broadcast from a root.
    Bcast,
    /// Reduction to a root.
    Reduce,
    /// Reduction to every rank.
    Allreduce,
    /// Reduction whose result is scattered in blocks (reduce_scatter and its `_block` form).
    ReduceScatter,
    /// Inclusive or exclusive prefix reduction.
    Scan,
    /// Every rank's block to every rank (allgather(v)).
    Allgather,
    /// Every rank's block to a root (gather(v)).
    Gather,
    /// A root's blocks to every rank (scatter(v)).
    Scatter,
    /// Every rank's blocks to every rank (alltoall(v)).
    Alltoall,
}

impl Coll {
    /// Whether NCCL can run this collective (the four NCCL has, with equal blocks).
    pub const fn nccl_routable(self) -> bool {
        matches!(
            self,
            Self::Allreduce | Self::Bcast | Self::Allgather | Self::ReduceScatter
        )
    }
}

/// What the plan is decided from. Every field must be the same on every rank of the
/// communicator (except where a field says otherwise), or ranks would take different paths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Facts {
    /// The collective.
    pub coll: Coll,
    /// Ranks in the communicator.
    pub size: u32,
    /// Bytes the algorithm moves: the vector for bcast, reduce, allreduce and scan; the sum of
    /// every rank's block for allgather, gather, scatter and reduce_scatter; **this rank's** send
    /// volume for alltoall (its algorithms interoperate, so ranks may choose differently).
    pub bytes: usize,
    /// The reduction operator is commutative (`true` where nothing is reduced).
    pub commutative: bool,
    /// Every rank knows every block's size. False for gatherv and scatterv, where a non-root
    /// knows only its own block: only the linear algorithms work then; and for alltoallv,
    /// where each rank knows only its own counts.
    pub layout_shared: bool,
    /// Every member of the communicator runs on this host (the direct allreduce needs it).
    pub one_host: bool,
    /// Smallest allreduce (bytes) the direct shared-memory path takes; `usize::MAX` turns it off.
    pub direct_min_bytes: usize,
    /// The call may go through NCCL: a build with NCCL, not turned off, not already decided
    /// against for this communicator, and a blocking call (MPI never matches a blocking
    /// collective with a non-blocking one, so the two kinds may take different paths).
    pub nccl: bool,
    /// Largest bcast, reduce or allreduce (bytes) that may run on the communicator's shared
    /// flag area (a barrier always may):
    /// `Some` only for a blocking call (for the reason given at [`Facts::nccl`]) with the area
    /// not turned off (`NEXAR_FLAGS_MAX`) and not found unusable on this communicator.
    pub flags_max_bytes: Option<usize>,
}

impl Facts {
    /// Facts for a call that can only run as a proto machine (no shared memory, no NCCL), the
    /// case of the simulator and the machines' convenience constructors.
    pub const fn machine(coll: Coll, size: u32, bytes: usize, commutative: bool) -> Self {
        Self {
            coll,
            size,
            bytes,
            commutative,
            layout_shared: true,
            one_host: false,
            direct_min_bytes: usize::MAX,
            nccl: false,
            flags_max_bytes: None,
        }
    }
}

/// The proto algorithm a collective runs, with the collective it belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algo {
    /// The barrier's one algorithm (dissemination).
    Barrier,
    /// A bcast algorithm.
    Bcast(BcastAlgo),
    /// A reduce algorithm.
    Reduce(ReduceAlgo),
    /// An allreduce algorithm.
    Allreduce(AllreduceAlgo),
    /// A reduce_scatter algorithm.
    ReduceScatter(ReduceScatterAlgo),
    /// A scan / exscan algorithm.
    Scan(ScanAlgo),
    /// An allgather algorithm.
    Allgather(allgather::Algo),
    /// A gather algorithm.
    Gather(gather::Algo),
    /// A scatter algorithm.
    Scatter(scatter::Algo),
    /// An alltoall algorithm.
    Alltoall(alltoall::Algo),
}

/// How one collective call runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Plan {
    /// Through NCCL, whose per-communicator decision (taken collectively on the first such
    /// call) may still send it back to the other paths.
    Nccl,
    /// The communicator's shared flag area: the calling threads of the members of one host
    /// meet in cache lines of one shared segment (barrier; small bcast, reduce, allreduce).
    Flags,
    /// The direct shared-memory allreduce: every rank reads its peers' buffers in place.
    Direct,
    /// A communicator of one rank reducing to everyone (allreduce): the result is the input,
    /// so nothing runs and at most one copy is made (none in place).
    Alone,
    /// No data moves, and every member knows it (see [`moves_nothing`]): the call completes
    /// at once on every rank, after the argument checks, with no message.
    Nothing,
    /// A proto machine running this algorithm.
    Machine(Algo),
}

/// How the call described by `f` runs. Pure and deterministic: the same facts give the same
/// plan on every rank.
pub fn plan(f: &Facts) -> Plan {
    if moves_nothing(f) {
        return Plan::Nothing;
    }
    if f.nccl && f.coll.nccl_routable() {
        return Plan::Nccl;
    }
    if f.coll == Coll::Allreduce && f.size == 1 {
        return Plan::Alone;
    }
    if matches!(
        f.coll,
        Coll::Barrier | Coll::Bcast | Coll::Reduce | Coll::Allreduce
    ) && f.one_host
        && f.size > 1
        && f.flags_max_bytes.is_some_and(|max| f.bytes <= max)
    {
        return Plan::Flags;
    }
    if f.coll == Coll::Allreduce
        && f.one_host
        && f.size > 1
        && f.bytes > 0
        && f.bytes >= f.direct_min_bytes
    {
        return Plan::Direct;
    }
    Plan::Machine(algorithm(f))
}

/// Whether the call `f` describes moves no byte on any rank, which every rank can tell alone:
/// zero bytes in all, for a collective whose block sizes every member knows. Not a barrier
/// (it synchronizes), not alltoallv, gatherv or scatterv (a rank knows only its own counts,
/// and the small alltoall algorithm forwards other ranks' blocks through this one). An
/// alltoall of equal blocks qualifies: its bytes are this rank's own, but with equal blocks
/// none sent means none anywhere. MPI lets such a call return at once: a collective other
/// than a barrier promises no synchronization.
pub fn moves_nothing(f: &Facts) -> bool {
    f.bytes == 0 && f.layout_shared && f.coll != Coll::Barrier
}

/// The proto algorithm for `f` (the [`Plan::Machine`] part of [`plan`]).
fn algorithm(f: &Facts) -> Algo {
    let (n, b, comm) = (f.size, f.bytes, f.commutative);
    match f.coll {
        Coll::Barrier => Algo::Barrier,
        Coll::Bcast => Algo::Bcast(reductions::bcast(n, b)),
        Coll::Reduce => Algo::Reduce(reductions::reduce_for(n, b, comm)),
        Coll::Allreduce => Algo::Allreduce(reductions::allreduce_for(n, b, comm)),
        Coll::ReduceScatter => Algo::ReduceScatter(movement::reduce_scatter_for(n, b, comm)),
        Coll::Scan => Algo::Scan(movement::scan(n, b)),
        Coll::Allgather => Algo::Allgather(movement::allgather(n, b)),
        Coll::Gather if !f.layout_shared => Algo::Gather(gather::Algo::Linear),
        Coll::Gather => Algo::Gather(movement::gather(b)),
        Coll::Scatter if !f.layout_shared => Algo::Scatter(scatter::Algo::Linear),
        Coll::Scatter => Algo::Scatter(movement::scatter(b)),
        Coll::Alltoall => Algo::Alltoall(movement::alltoall(b)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(coll: Coll, size: u32, bytes: usize) -> Facts {
        Facts {
            one_host: true,
            direct_min_bytes: 1 << 20,
            ..Facts::machine(coll, size, bytes, true)
        }
    }

    #[test]
    fn a_large_allreduce_on_one_host_goes_direct_and_nothing_else_does() {
        assert_eq!(plan(&facts(Coll::Allreduce, 4, 1 << 20)), Plan::Direct);
        // Below the threshold, empty, across hosts, or another collective: a machine.
        for f in [
            facts(Coll::Allreduce, 4, (1 << 20) - 1),
            facts(Coll::Allreduce, 4, 1),
            Facts {
                one_host: false,
                ..facts(Coll::Allreduce, 4, 1 << 20)
            },
            facts(Coll::Reduce, 4, 1 << 20),
            facts(Coll::Bcast, 4, 1 << 20),
        ] {
            assert!(matches!(plan(&f), Plan::Machine(_)), "{f:?}");
        }
        let zero_min = Facts {
            direct_min_bytes: 0,
            ..facts(Coll::Allreduce, 2, 8)
        };
        assert_eq!(plan(&zero_min), Plan::Direct);
    }

    #[test]
    fn an_allreduce_on_one_rank_runs_nothing_unless_nccl_takes_it() {
        for bytes in [8, 1 << 20] {
            assert_eq!(plan(&facts(Coll::Allreduce, 1, bytes)), Plan::Alone);
        }
        let nccl = Facts {
            nccl: true,
            ..facts(Coll::Allreduce, 1, 8)
        };
        assert_eq!(plan(&nccl), Plan::Nccl);
        for coll in [Coll::Bcast, Coll::Reduce, Coll::Barrier] {
            assert!(matches!(plan(&facts(coll, 1, 8)), Plan::Machine(_)));
        }
    }

    #[test]
    fn nccl_takes_only_the_four_collectives_it_has() {
        for coll in [
            Coll::Allreduce,
            Coll::Bcast,
            Coll::Allgather,
            Coll::ReduceScatter,
        ] {
            let f = Facts {
                nccl: true,
                ..facts(coll, 4, 8)
            };
            assert_eq!(plan(&f), Plan::Nccl, "{coll:?}");
        }
        for coll in [
            Coll::Barrier,
            Coll::Reduce,
            Coll::Scan,
            Coll::Gather,
            Coll::Scatter,
            Coll::Alltoall,
        ] {
            let f = Facts {
                nccl: true,
                ..facts(coll, 4, 8)
            };
            assert!(matches!(plan(&f), Plan::Machine(_)), "{coll:?}");
        }
    }

    #[test]
    fn the_machine_part_follows_the_collective_rules() {
        let m = |f: Facts| match plan(&f) {
            Plan::Machine(a) => a,
            p => panic!("{f:?}: {p:?}"),
        };
        assert_eq!(
            m(Facts::machine(Coll::Allreduce, 12, 16 << 20, true)),
            Algo::Allreduce(AllreduceAlgo::Ring)
        );
        // A non-commutative reducer never gets the ring.
        assert_eq!(
            m(Facts::machine(Coll::Allreduce, 12, 16 << 20, false)),
            Algo::Allreduce(AllreduceAlgo::Rabenseifner)
        );
        assert_eq!(
            m(Facts::machine(Coll::Allgather, 8, 100, true)),
            Algo::Allgather(allgather::Algo::RecursiveDoubling)
        );
        assert_eq!(
            m(Facts::machine(Coll::Allgather, 6, 100, true)),
            Algo::Allgather(allgather::Algo::Bruck)
        );
        // gatherv / scatterv: non-roots know only their own block, so the linear algorithm.
        for (coll, want) in [
            (Coll::Gather, Algo::Gather(gather::Algo::Linear)),
            (Coll::Scatter, Algo::Scatter(scatter::Algo::Linear)),
        ] {
            let f = Facts {
                layout_shared: false,
                ..Facts::machine(coll, 8, 100, true)
            };
            assert_eq!(m(f), want);
            assert_ne!(m(Facts::machine(coll, 8, 100, true)), want);
        }
        assert_eq!(m(Facts::machine(Coll::Barrier, 5, 0, true)), Algo::Barrier);
    }

    #[test]
    fn blocking_small_collectives_on_one_host_use_the_flag_area() {
        let flags = |coll, size, bytes| Facts {
            flags_max_bytes: Some(1024),
            ..facts(coll, size, bytes)
        };
        for f in [
            flags(Coll::Barrier, 4, 0),
            flags(Coll::Allreduce, 2, 8),
            flags(Coll::Allreduce, 2, 1),
            flags(Coll::Allreduce, 8, 1024),
            flags(Coll::Bcast, 3, 8),
            flags(Coll::Reduce, 3, 1024),
        ] {
            assert_eq!(plan(&f), Plan::Flags, "{f:?}");
        }
        // Larger, not blocking (no maximum), one rank, across hosts, or another collective.
        for f in [
            flags(Coll::Allreduce, 4, 1025),
            facts(Coll::Allreduce, 4, 8),
            facts(Coll::Barrier, 4, 0),
            flags(Coll::Barrier, 1, 0),
            Facts {
                one_host: false,
                ..flags(Coll::Barrier, 4, 0)
            },
            flags(Coll::Bcast, 4, 1025),
            flags(Coll::Scan, 4, 8),
            flags(Coll::Allgather, 4, 8),
        ] {
            assert!(matches!(plan(&f), Plan::Machine(_)), "{f:?}");
        }
        // NCCL, when possible, comes first.
        let nccl = Facts {
            nccl: true,
            ..flags(Coll::Allreduce, 4, 8)
        };
        assert_eq!(plan(&nccl), Plan::Nccl);
    }

    #[test]
    fn a_call_of_no_bytes_every_member_knows_of_runs_nothing() {
        for coll in [
            Coll::Bcast,
            Coll::Reduce,
            Coll::Allreduce,
            Coll::ReduceScatter,
            Coll::Scan,
            Coll::Allgather,
            Coll::Gather,
            Coll::Scatter,
            Coll::Alltoall,
        ] {
            for size in [1, 2, 5] {
                let f = Facts {
                    nccl: true,
                    flags_max_bytes: Some(1024),
                    ..facts(coll, size, 0)
                };
                assert_eq!(plan(&f), Plan::Nothing, "{f:?}");
            }
            assert_ne!(plan(&facts(coll, 4, 1)), Plan::Nothing, "{coll:?}");
        }
        // A barrier synchronizes; in alltoallv, gatherv and scatterv a rank knows only its
        // own counts.
        let unshared = |coll| Facts {
            layout_shared: false,
            ..facts(coll, 4, 0)
        };
        for f in [
            facts(Coll::Barrier, 4, 0),
            unshared(Coll::Alltoall),
            unshared(Coll::Gather),
            unshared(Coll::Scatter),
        ] {
            assert!(matches!(plan(&f), Plan::Machine(_)), "{f:?}");
        }
    }
}
