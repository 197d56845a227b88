//! Dynamic processes: [`Context::spawn`] starts new processes that, together with a spawning
//! group, form a new world (MPI's `MPI_Comm_spawn`).
//!
//! The new world is a [`Context::grow`] of the group rather than of the whole job: the group's
//! members keep their order as ranks `0..n`, the new processes are `n..n + add`, and the world
//! runs under a fresh secret (groups of one job may spawn at the same time, and each new world
//! needs its own job id). The spawning side gets the new world and an intercommunicator whose
//! remote group is the new processes; a new process learns from [`PARENTS_VAR`] that it was
//! spawned and builds the matching intercommunicator and a communicator of its own group (its
//! `MPI_COMM_WORLD`) with [`Context::spawned`].
//!
//! Parting (`MPI_Comm_disconnect`): the two sides stop depending on each other when the
//! program says so; the spawning side then closes the new world without a final barrier
//! ([`FinalSync::Nobody`]) and each new process's final barrier covers its own group only
//! ([`FinalSync::Group`]). Until then, finalizing waits for the whole new world, as MPI's
//! "connected processes" finalize together.

use crate::comm::Comm;
use crate::context::Context;
use crate::error::{Error, ErrorKind, Result};
use crate::grow::{GrowPlan, Growth};

/// The variable that tells a process started by [`Context::spawn`] how many ranks of its world
/// are the spawning group (ranks `0..n`).
pub const PARENTS_VAR: &str = "NEXAR_SPAWN_PARENTS";

/// Tag of the two groups' communicators ([`Comm::create_subset`] over the new world).
const GROUP_TAG: u64 = 0x5350_4157_4e47_5250; // "SPAWNGRP"
/// Tag of the leaders' swap when the intercommunicator is made.
const LEADER_TAG: i32 = 0x5350_4157; // "SPAW"

/// A process's identity across worlds: the world it was started in (a key derived from that
/// world's job id) and its rank there. A process keeps it in every world it spawns or meets,
/// so programs can tell the same process apart from a new one (MPI's groups do).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Origin {
    /// The world it was started in.
    pub world: u64,
    /// Its rank in that world.
    pub rank: u32,
}

impl Origin {
    fn to_words(self) -> [u64; 2] {
        [self.world, u64::from(self.rank)]
    }
}

/// Every member's [`Origin`], by rank of world `w` (collective over `w`); `mine` is this
/// process's.
pub(crate) fn gather_origins(w: &Comm, mine: Origin) -> Result<Vec<Origin>> {
    let mut all = vec![0u64; 2 * w.size() as usize];
    w.allgather_blocking(&mine.to_words(), &mut all)?;
    Ok(all
        .chunks_exact(2)
        .map(|c| Origin {
            world: c[0],
            rank: c[1] as u32,
        })
        .collect())
}

/// What a spawn gives the spawning group.
#[derive(Debug)]
pub struct Spawned {
    /// The new world: the spawning group (ranks `0..n`) and the new processes. Keep it while
    /// [`Spawned::inter`] (or anything made from it) is in use; dropping it finalizes it.
    pub world: Context,
    /// Intercommunicator of the new world: local group the spawning group, remote group the
    /// new processes (in their rank order).
    pub inter: Comm,
    /// Every member's [`Origin`], by rank of the new world.
    pub origins: Vec<Origin>,
}

/// Who the final barrier of [`Context::finalize`] waits for.
#[derive(Debug, Clone, Default)]
pub enum FinalSync {
    /// Every rank of the world (the default).
    #[default]
    World,
    /// The members of this communicator only (a spawned group that parted from its parents).
    Group(Comm),
    /// Nobody: close at once (a spawning group that parted from the processes it started).
    Nobody,
}

impl Context {
    /// Starts `add` new processes that join the members of `comm` in a new world: collective
    /// over `comm` (an intracommunicator of this context). `add` counts at `root` only (as
    /// MPI's `maxprocs`): the others learn the new world's size from it. On `root` only, `start` is called
    /// with the plan and must start every new process with its environment (for example with
    /// [`GrowPlan::spawn`]); the new processes call [`Context::init`] and then
    /// [`Context::spawned`]. Blocks until the new processes joined.
    ///
    /// Errors: those of [`Context::grow`] (bad counts, no launch, a `start` that fails, new
    /// processes that never arrive: every member gets the error), `InvalidComm` for an
    /// intercommunicator or another context's communicator, `InvalidRank` for a bad root.
    pub fn spawn(
        &self,
        comm: &Comm,
        root: u32,
        add: u32,
        start: impl FnOnce(&GrowPlan) -> Result<()>,
    ) -> Result<Spawned> {
        let n = comm.size();
        let mut world = self.grow_group(comm, root, add, Growth::Spawn, start)?;
        world.set_origin(self.origin());
        let origins = gather_origins(world.world(), self.origin())?;
        let (_, inter) = join_groups(world.world(), n, true)?;
        Ok(Spawned {
            world,
            inter,
            origins,
        })
    }

    /// For a process started by [`Context::spawn`]: a communicator of the processes started
    /// with it (in their order), the intercommunicator to the spawning group (its remote
    /// group), and every world member's [`Origin`] (the parents keep theirs). Collective over
    /// the started processes, matching the spawning side's [`Context::spawn`]. `None` for a
    /// process that was not spawned.
    pub fn spawned(&self) -> Result<Option<(Comm, Comm, Vec<Origin>)>> {
        let Some(n) = self.parents() else {
            return Ok(None);
        };
        let origins = gather_origins(self.world(), self.origin())?;
        let (group, inter) = join_groups(self.world(), n, false)?;
        Ok(Some((group, inter, origins)))
    }
}

/// The communicator of this rank's group and the intercommunicator between ranks `0..n` of
/// world `w` and the rest: every rank builds its group's communicator, then the leaders (ranks
/// 0 and `n` of `w`) swap groups.
pub(crate) fn join_groups(w: &Comm, n: u32, spawning: bool) -> Result<(Comm, Comm)> {
    let (mine, remote_leader): (Vec<u32>, u32) = if spawning {
        ((0..n).collect(), n)
    } else {
        ((n..w.size()).collect(), 0)
    };
    let local = w
        .create_subset(&mine, GROUP_TAG)?
        .ok_or_else(|| Error::new(ErrorKind::Internal, "spawn: not in its own group"))?;
    let inter = local.intercomm_create_blocking(0, Some(w), remote_leader, LEADER_TAG)?;
    Ok((local, inter))
}

/// Reads [`PARENTS_VAR`] for a world of `size`: `None` when unset, an error when it does not
/// name a proper part of the world. The variable is then removed from the environment: a job
/// this process launches in turn (`mpiexec` from a spawned program) was not spawned.
pub(crate) fn parents_from_env(size: u32) -> Result<Option<u32>> {
    let Ok(v) = std::env::var(PARENTS_VAR) else {
        return Ok(None);
    };
    // SAFETY: called during initialization, like `bootstrap::env::scrub_environment` (whose
    // contract this shares): nothing of this library reads the environment concurrently.
    unsafe { std::env::remove_var(PARENTS_VAR) };
    match v.trim().parse::<u32>() {
        Ok(n) if n > 0 && n < size => Ok(Some(n)),
        _ => Err(Error::new(
            ErrorKind::Bootstrap,
            format!(
                "{PARENTS_VAR}={v:?} is not a count between 1 and {}",
                size - 1
            ),
        )),
    }
}
