//! Communicators: a group of ranks plus a context id that keeps its traffic apart.
//!
//! Context ids are 64-bit and derived, identically on every member, from the parent's context
//! and the index of the creating call on the parent (dup and split are collective over the
//! parent, so all members agree on that index). Unlike "allreduce the next free id", this cannot
//! give two communicators created concurrently by different threads the same id. World is 0,
//! self is 1. Communicators on a subset of the parent, made by their members only, derive
//! theirs from the member list and a tag instead (see `comm_subset.rs`). Intercommunicators
//! keep a remote group beside the members (see `comm_inter.rs`).

use crate::core::engine::Engine;
use crate::error::{Error, ErrorKind, Result};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Context id of the world communicator.
pub(crate) const WORLD_CONTEXT: u64 = 0;
/// Context id of every self communicator (its traffic never leaves the process).
pub(crate) const SELF_CONTEXT: u64 = 1;

/// Members of a communicator: comm rank -> world rank, and back.
#[derive(Debug)]
pub(crate) struct Members {
    world: Arc<[u32]>,
    /// Fx hashing: looked up for every collective frame and status.
    index: rustc_hash::FxHashMap<u32, u32>,
}

impl Members {
    /// From the world ranks in comm-rank order.
    pub fn new(world: Vec<u32>) -> Self {
        let index = world
            .iter()
            .enumerate()
            .map(|(i, &w)| (w, i as u32))
            .collect();
        Self {
            world: world.into(),
            index,
        }
    }

    /// World ranks in comm-rank order.
    pub fn world(&self) -> &Arc<[u32]> {
        &self.world
    }

    /// The comm rank of a world rank, if it is a member.
    pub fn comm_rank_of(&self, world: u32) -> Option<u32> {
        self.index.get(&world).copied()
    }
}

/// Shared state of one communicator.
pub(crate) struct CommInner {
    pub engine: Arc<Engine>,
    pub context: u64,
    pub rank: u32,
    pub members: Members,
    coll_seq: AtomicU64,
    children: AtomicU64,
    /// Creations on a subset so far, by (tag, member world ranks): see `comm_subset.rs`.
    pub(crate) subsets: parking_lot::Mutex<HashMap<(u64, Vec<u32>), u64>>,
    /// Agreement numbers and acknowledged failures (see `crate::fault`).
    pub(crate) fault: crate::fault::shrink::CommFault,
    /// Automatic NCCL routing's cached decision (`device::nccl::auto`).
    #[cfg(feature = "nccl")]
    pub(crate) nccl: crate::device::nccl::auto::Slot,
    /// The shared flag area of blocking small collectives (`ops::flags`), once set up.
    pub(crate) flags: crate::transport::shm::flag_area::FlagState,
    /// Whether every member runs on this host, once asked (`ops::plan`): members and hosts
    /// never change for a communicator.
    pub(crate) one_host: std::sync::OnceLock<bool>,
    /// The remote group and the rest of an intercommunicator (`comm_inter.rs`); `None` for an
    /// intracommunicator.
    pub(crate) inter: Option<Box<crate::comm_inter::Inter>>,
}

impl CommInner {
    /// Next collective sequence number (collectives are called in the same order everywhere).
    pub fn next_collective_seq(&self) -> u64 {
        self.coll_seq.fetch_add(1, Ordering::Relaxed)
    }

    /// Opens this communicator's next collective call: checks every member is alive, takes
    /// the sequence number, opens the call's mailbox and arms the collective timeout.
    pub(crate) fn open_collective(
        &self,
    ) -> Result<(
        u64,
        crate::core::mailbox::Receiver<crate::core::engine::CollEvent>,
    )> {
        let engine = &self.engine;
        // An intercommunicator's collectives run on its local group and between its leaders
        // (`ops::inter`); an intracommunicator algorithm here would mix up the two groups.
        self.refuse_inter("this collective")?;
        engine.check_alive(self.members.world())?;
        let seq = self.next_collective_seq();
        let rx = engine.open_collective(self.context, seq)?;
        engine.arm_collective_timeout(self.context, seq);
        Ok((seq, rx))
    }

    /// Closes this communicator's collective call `seq` (see [`Engine::close_collective`]).
    pub(crate) fn close_collective(
        &self,
        seq: u64,
        rx: &mut crate::core::mailbox::Receiver<crate::core::engine::CollEvent>,
        fp: &crate::core::fingerprint::Fingerprint,
    ) {
        self.engine
            .close_collective(self.context, seq, rx, fp, self.members.world());
    }

    /// Context id for the next communicator created from this one.
    pub fn next_child_context(&self, kind: &str) -> u64 {
        let idx = self.children.fetch_add(1, Ordering::Relaxed);
        let mut input = Vec::with_capacity(32);
        input.extend_from_slice(b"nexar-context");
        input.extend_from_slice(kind.as_bytes());
        input.extend_from_slice(&self.context.to_le_bytes());
        input.extend_from_slice(&idx.to_le_bytes());
        let d = ring::digest::digest(&ring::digest::SHA256, &input);
        let id = u64::from_le_bytes(d.as_ref()[..8].try_into().expect("8 bytes"));
        id.max(SELF_CONTEXT + 1)
    }

    /// World rank of comm rank `r`, checked.
    pub fn world_rank(&self, r: u32) -> Result<u32> {
        self.members
            .world()
            .get(r as usize)
            .copied()
            .ok_or_else(|| {
                Error::new(
                    ErrorKind::InvalidRank,
                    format!(
                        "rank {r} is out of range for a communicator of size {}",
                        self.size()
                    ),
                )
            })
    }

    /// The ranks point-to-point calls address: the remote group of an intercommunicator, the
    /// members of an intracommunicator. The one place p2p maps ranks through.
    pub(crate) fn peers(&self) -> &Members {
        self.inter.as_ref().map_or(&self.members, |i| &i.remote)
    }

    /// World rank of the point-to-point peer `r` (see [`CommInner::peers`]), checked.
    pub fn peer_world_rank(&self, r: u32) -> Result<u32> {
        let peers = self.peers().world();
        peers.get(r as usize).copied().ok_or_else(|| {
            Error::new(
                ErrorKind::InvalidRank,
                format!(
                    "rank {r} is out of range for a {}group of size {}",
                    if self.inter.is_some() { "remote " } else { "" },
                    peers.len()
                ),
            )
        })
    }

    /// `InvalidComm` naming `what` on an intercommunicator.
    pub(crate) fn refuse_inter(&self, what: &str) -> Result<()> {
        if self.inter.is_some() {
            return Err(Error::new(
                ErrorKind::InvalidComm,
                format!("{what} on an intercommunicator is not supported yet"),
            ));
        }
        Ok(())
    }

    /// Number of members.
    pub fn size(&self) -> u32 {
        self.members.world().len() as u32
    }

    /// The proto group view.
    pub fn group(&self) -> nexar_proto::Group {
        nexar_proto::Group {
            rank: self.rank,
            size: self.size(),
        }
    }
}

/// A communicator: a group of ranks that exchange messages and run collectives together.
///
/// Cloning is cheap and yields a handle to the same communicator. Dropping the last handle frees
/// it (operations in flight keep it alive until they finish). All methods take `&self` and may be
/// called from several threads at once; collectives must still be called in the same order on
/// every member, as in MPI.
#[derive(Clone)]
pub struct Comm {
    pub(crate) inner: Arc<CommInner>,
}

impl std::fmt::Debug for Comm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Comm")
            .field("rank", &self.rank())
            .field("size", &self.size())
            .field("context", &self.inner.context)
            .finish()
    }
}

impl Comm {
    pub(crate) fn from_parts(engine: Arc<Engine>, context: u64, world_ranks: Vec<u32>) -> Self {
        Self::from_parts_with(engine, context, world_ranks, None)
    }

    /// [`Comm::from_parts`] of an intercommunicator (`inter`) or an intracommunicator (`None`);
    /// `world_ranks` is the local group.
    pub(crate) fn from_parts_with(
        engine: Arc<Engine>,
        context: u64,
        world_ranks: Vec<u32>,
        inter: Option<Box<crate::comm_inter::Inter>>,
    ) -> Self {
        let me = engine.rank;
        let members = Members::new(world_ranks);
        let rank = members.comm_rank_of(me).expect("this process is a member");
        Self {
            inner: Arc::new(CommInner {
                engine,
                context,
                rank,
                members,
                coll_seq: AtomicU64::new(0),
                children: AtomicU64::new(0),
                subsets: parking_lot::Mutex::new(HashMap::new()),
                fault: Default::default(),
                #[cfg(feature = "nccl")]
                nccl: Default::default(),
                one_host: Default::default(),
                flags: Default::default(),
                inter,
            }),
        }
    }

    /// Whether this is an intercommunicator (see [`Comm::intercomm_create`]).
    pub fn is_inter(&self) -> bool {
        self.inner.inter.is_some()
    }

    /// How many ranks point-to-point calls address: the remote group's size on an
    /// intercommunicator, [`Comm::size`] otherwise.
    pub fn peer_count(&self) -> u32 {
        self.inner.peers().world().len() as u32
    }

    /// The size of an intercommunicator's remote group; `None` for an intracommunicator.
    pub fn remote_size(&self) -> Option<u32> {
        self.inner
            .inter
            .as_ref()
            .map(|i| i.remote.world().len() as u32)
    }

    /// World rank of an intercommunicator's remote rank `r`; `InvalidComm` for an
    /// intracommunicator.
    pub fn remote_world_rank_of(&self, r: u32) -> Result<u32> {
        if self.inner.inter.is_none() {
            return Err(Error::new(
                ErrorKind::InvalidComm,
                "not an intercommunicator",
            ));
        }
        self.inner.peer_world_rank(r)
    }

    /// This process's rank in the communicator (in the local group of an intercommunicator).
    pub fn rank(&self) -> u32 {
        self.inner.rank
    }

    /// Number of ranks in the communicator (in the local group of an intercommunicator).
    pub fn size(&self) -> u32 {
        self.inner.size()
    }

    /// An identity of the world (the [`crate::Context`]) this communicator belongs to: equal
    /// for every communicator of one context, distinct between contexts alive at the same
    /// time in this process (a spawned or connected world is a context of its own).
    pub fn world_id(&self) -> usize {
        Arc::as_ptr(&self.inner.engine) as usize
    }

    /// The context id (identical on every member; distinct between communicators).
    pub fn context_id(&self) -> u64 {
        self.inner.context
    }

    /// World rank of comm rank `r`.
    pub fn world_rank_of(&self, r: u32) -> Result<u32> {
        self.inner.world_rank(r)
    }

    /// A new communicator with the same members and a fresh context. Collective.
    pub async fn dup(&self) -> Result<Comm> {
        // No communication is needed: the id is derived, and traffic that reaches a member
        // before it has created the communicator waits in its unexpected/early queues.
        self.inner.engine.check_alive(self.inner.members.world())?;
        self.inner.engine.check_revoked(self.inner.context)?;
        let ctx = self.inner.next_child_context("dup");
        if let Some(inter) = &self.inner.inter {
            return self.inter_child(ctx, inter);
        }
        Ok(Comm::from_parts(
            self.inner.engine.clone(),
            ctx,
            self.inner.members.world().to_vec(),
        ))
    }

    /// Splits into disjoint communicators, one per `color`; ranks are ordered by `key`, ties
    /// by rank in this communicator. `color = None` (MPI_UNDEFINED) yields no communicator.
    /// Collective. On an intercommunicator, each group splits and the parts of one color in
    /// both groups form a new intercommunicator (none where the other group lacks the color).
    pub async fn split(&self, color: Option<u32>, key: i32) -> Result<Option<Comm>> {
        if let Some(inter) = &self.inner.inter {
            return self.inter_split(inter, color, key).await;
        }
        let ctx = self.inner.next_child_context("split");
        let mine = encode_split_entry(color, key);
        let mut all = vec![0u8; mine.len() * self.size() as usize];
        self.allgather_bytes(&mine, &mut all).await?;
        let Some(color) = color else { return Ok(None) };
        let mut chosen: Vec<(i32, u32)> = Vec::new();
        for (r, entry) in all.chunks_exact(mine.len()).enumerate() {
            let (c, k) = decode_split_entry(entry);
            if c == Some(color) {
                chosen.push((k, r as u32));
            }
        }
        chosen.sort_unstable();
        let world: Vec<u32> = chosen
            .iter()
            .map(|&(_, r)| self.inner.members.world()[r as usize])
            .collect();
        Ok(Some(Comm::from_parts(
            self.inner.engine.clone(),
            ctx,
            world,
        )))
    }

    /// Splits by host: ranks on the same host (same host name) share a communicator, ordered by
    /// `key`. Collective.
    pub async fn split_by_host(&self, key: i32) -> Result<Comm> {
        let hosts = self.inner.engine.hosts();
        let me = self.inner.engine.rank as usize;
        let my_host = hosts.get(me).cloned().unwrap_or_default();
        // Color = lowest world rank on my host: every rank on that host computes the same.
        let color = hosts.iter().position(|h| *h == my_host).unwrap_or(me) as u32;
        let comm = self.split(Some(color), key).await?;
        comm.ok_or_else(|| {
            Error::new(
                ErrorKind::Internal,
                "split by host produced no communicator",
            )
        })
    }
}

pub(crate) fn encode_split_entry(color: Option<u32>, key: i32) -> [u8; 12] {
    let mut b = [0u8; 12];
    b[0..4].copy_from_slice(&u32::from(color.is_some()).to_le_bytes());
    b[4..8].copy_from_slice(&color.unwrap_or(0).to_le_bytes());
    b[8..12].copy_from_slice(&key.to_le_bytes());
    b
}

pub(crate) fn decode_split_entry(b: &[u8]) -> (Option<u32>, i32) {
    let word = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
    let color = (word(0) != 0).then(|| word(4));
    (color, word(8) as i32)
}
