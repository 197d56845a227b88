//! Intercommunicators: a local group and a disjoint remote group. Point-to-point calls address
//! the remote group's ranks (`CommInner::peers`); rank and size are the local group's;
//! collectives between the groups are in `ops::inter`.
//!
//! Creation (`MPI_Intercomm_create`): every member of each group draws a fresh child id from
//! its local communicator (creation is collective over it, so all members draw the same id);
//! the two leaders swap their group and id over the peer communicator, then each broadcasts
//! the other side's within its local group. The intercommunicator's context id is derived from
//! both ids and both groups, ordered by group: every member of either side computes the same,
//! and since each id is fresh on its side, no other communicator shares it. Dup and merge
//! derive theirs from the intercommunicator (collective over both groups, so its child counter
//! advances alike everywhere). The messages of collectives between the groups use a second
//! derived context, so they never match a user's receive.

use crate::comm::{Comm, Members, SELF_CONTEXT};
use crate::error::{Error, ErrorKind, Result};
use crate::ops::{Source, TagMatch};
use bytes::Bytes;
use std::sync::atomic::{AtomicU64, Ordering};

/// What an intercommunicator keeps besides its local group.
pub(crate) struct Inter {
    /// The remote group: remote rank -> world rank.
    pub remote: Members,
    /// An intracommunicator over the local group (its own context), for the local phases of
    /// collectives between the groups.
    pub local: Comm,
    /// Context of the messages collectives exchange between the groups.
    pub coll_context: u64,
    /// Number of the next collective between the groups (its messages' tag, its turn).
    coll_seq: AtomicU64,
    /// Whose turn it is: collectives between the groups run one at a time, in the order they
    /// were started, so their local phases start in the same order on every member.
    turns: parking_lot::Mutex<Turns>,
    /// Signalled when the turn moves on.
    turn_moved: tokio::sync::Notify,
    /// Whether the local group comes first when the groups are ordered (its rank 0 has the
    /// lower world rank): what both sides agree on without asking.
    pub low: bool,
}

impl Inter {
    pub(crate) fn new(remote: Vec<u32>, local: Comm, context: u64) -> Self {
        let low = local.inner.members.world()[0] < remote[0];
        Self {
            remote: Members::new(remote),
            local,
            coll_context: derive(b"nexar-inter-coll", &[context]),
            coll_seq: AtomicU64::new(0),
            turns: Default::default(),
            turn_moved: Default::default(),
            low,
        }
    }

    /// The number of the next collective between the groups: every member of both groups
    /// starts them in the same order, so the numbers agree.
    pub fn next_ticket(&self) -> u64 {
        self.coll_seq.fetch_add(1, Ordering::Relaxed)
    }

    /// Waits until it is `ticket`'s turn.
    async fn wait_turn(&self, ticket: u64) {
        loop {
            let moved = self.turn_moved.notified();
            tokio::pin!(moved);
            moved.as_mut().enable();
            if self.turns.lock().next == ticket {
                return;
            }
            moved.await;
        }
    }

    /// `ticket` is over (finished, failed, or dropped before its turn): the turn moves past it
    /// and past later tickets already given up.
    fn end_turn(&self, ticket: u64) {
        let mut guard = self.turns.lock();
        let t = &mut *guard;
        if t.next == ticket {
            t.next += 1;
            while t.abandoned.remove(&t.next) {
                t.next += 1;
            }
        } else {
            t.abandoned.insert(ticket);
        }
        drop(guard);
        self.turn_moved.notify_waiters();
    }
}

/// The turn of collectives between the groups (see [`Inter::wait_turn`]).
#[derive(Default)]
struct Turns {
    /// The ticket whose turn it is.
    next: u64,
    /// Later tickets given up before their turn.
    abandoned: std::collections::BTreeSet<u64>,
}

/// A collective's place in the turn; dropping it ends the turn (see [`Inter::end_turn`]).
pub(crate) struct Turn {
    comm: Comm,
    ticket: u64,
}

impl Turn {
    /// Takes the next ticket of intercommunicator `comm`.
    pub fn take(comm: &Comm) -> Result<Self> {
        let inter = comm
            .inner
            .inter
            .as_deref()
            .ok_or_else(|| Error::new(ErrorKind::InvalidComm, "not an intercommunicator"))?;
        Ok(Self {
            comm: comm.clone(),
            ticket: inter.next_ticket(),
        })
    }

    /// The tag of this collective's messages.
    pub fn tag(&self) -> i32 {
        (self.ticket & 0x3fff_ffff) as i32
    }

    /// Waits for this collective's turn.
    pub async fn wait(&self) {
        if let Some(inter) = self.comm.inner.inter.as_deref() {
            inter.wait_turn(self.ticket).await;
        }
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        if let Some(inter) = self.comm.inner.inter.as_deref() {
            inter.end_turn(self.ticket);
        }
    }
}

/// A context id from `kind` and `parts`.
pub(crate) fn derive(kind: &[u8], parts: &[u64]) -> u64 {
    let mut input = kind.to_vec();
    for p in parts {
        input.extend_from_slice(&p.to_le_bytes());
    }
    let d = ring::digest::digest(&ring::digest::SHA256, &input);
    let id = u64::from_le_bytes(d.as_ref()[..8].try_into().expect("8 bytes"));
    id.max(SELF_CONTEXT + 1)
}

/// A group and its fresh id, as a leader sends it: id, then the world ranks.
fn encode_side(id: u64, world: &[u32]) -> Vec<u8> {
    let mut b = Vec::with_capacity(8 + 4 * world.len());
    b.extend_from_slice(&id.to_le_bytes());
    for w in world {
        b.extend_from_slice(&w.to_le_bytes());
    }
    b
}

fn decode_side(b: &[u8]) -> Result<(u64, Vec<u32>)> {
    if b.len() < 12 || !(b.len() - 8).is_multiple_of(4) {
        return Err(Error::new(
            ErrorKind::Mismatch,
            format!(
                "intercomm_create: the remote leader sent {} bytes, not a group",
                b.len()
            ),
        ));
    }
    let id = u64::from_le_bytes(b[..8].try_into().expect("8 bytes"));
    let world = b[8..]
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    Ok((id, world))
}

impl Comm {
    /// An intercommunicator between this communicator's members (the local group) and the
    /// group whose leader is `remote_leader` in `peer` (MPI's `MPI_Intercomm_create`).
    /// Collective over this communicator; the other group calls it at the same time over its
    /// own. `peer` (holding both leaders) and `remote_leader` count only at `local_leader`,
    /// whose swap with the remote leader uses `tag` on `peer`.
    ///
    /// Fails with `InvalidComm` when this is an intercommunicator or the groups overlap,
    /// `InvalidRank` for a leader out of range, and with the leader's error everywhere when
    /// its swap fails.
    pub async fn intercomm_create(
        &self,
        local_leader: u32,
        peer: Option<&Comm>,
        remote_leader: u32,
        tag: i32,
    ) -> Result<Comm> {
        self.inner
            .refuse_inter("intercomm_create's local communicator")?;
        self.inner.world_rank(local_leader)?;
        let mine = self.inner.next_child_context("inter");
        let local = self.dup().await?;
        // The leader's outcome travels in the first broadcast, so a failed swap fails every
        // member instead of leaving them waiting.
        let mut swapped = Ok(Vec::new());
        if self.rank() == local_leader {
            swapped = match peer {
                Some(peer) => {
                    let out = Bytes::from(encode_side(mine, self.inner.members.world()));
                    swap(peer, out, remote_leader, tag).await
                }
                None => Err(Error::new(
                    ErrorKind::InvalidComm,
                    "intercomm_create: the local leader has no peer communicator",
                )),
            };
        }
        // A failed swap travels as u64::MAX less its error kind.
        let failed = |k: ErrorKind| u64::MAX - k as u64;
        let head = match &swapped {
            Ok(b) => b.len() as u64,
            Err(e) => failed(e.kind()),
        };
        let mut len = head.to_le_bytes();
        bcast_bytes(&local, &mut len, local_leader).await?;
        let len = u64::from_le_bytes(len);
        if let Some(&kind) = ErrorKind::ALL.iter().find(|&&k| failed(k) == len) {
            return Err(swapped.err().unwrap_or_else(|| {
                Error::new(
                    kind,
                    "intercomm_create: the local leader could not swap groups with the remote \
                     leader",
                )
            }));
        }
        let mut theirs = swapped.unwrap_or_default();
        theirs.resize(len as usize, 0);
        bcast_bytes(&local, &mut theirs, local_leader).await?;
        let (their_id, remote) = decode_side(&theirs)?;
        let mine_world = self.inner.members.world();
        if remote.iter().any(|w| mine_world.contains(w)) {
            return Err(Error::new(
                ErrorKind::InvalidComm,
                "intercomm_create: the local and remote groups overlap",
            ));
        }
        let low = mine_world[0] < remote[0];
        let (a, b) = if low {
            (mine, their_id)
        } else {
            (their_id, mine)
        };
        // The groups go in too: ids drawn from communicators whose ids repeat across
        // processes (every MPI_COMM_SELF has the same) may pair up alike for another pair of
        // groups that shares a process.
        let (lo, hi) = if low {
            (&mine_world[..], &remote[..])
        } else {
            (&remote[..], &mine_world[..])
        };
        let mut parts = vec![a, b, lo.len() as u64];
        parts.extend(lo.iter().chain(hi).map(|&w| u64::from(w)));
        let context = derive(b"nexar-inter", &parts);
        let world = mine_world.to_vec();
        let inter = Inter::new(remote, local, context);
        Ok(Comm::from_parts_with(
            self.inner.engine.clone(),
            context,
            world,
            Some(Box::new(inter)),
        ))
    }

    /// The intercommunicator with context `context` over the same groups as `inter` (this
    /// one's): its dup. Collective over both groups.
    pub(crate) fn inter_child(&self, context: u64, inter: &Inter) -> Result<Comm> {
        // The local group's dup, made here: no message is needed (see `Comm::dup`).
        let local = Comm::from_parts(
            self.inner.engine.clone(),
            inter.local.inner.next_child_context("dup"),
            self.inner.members.world().to_vec(),
        );
        let inter = Inter::new(inter.remote.world().to_vec(), local, context);
        Ok(Comm::from_parts_with(
            self.inner.engine.clone(),
            context,
            self.inner.members.world().to_vec(),
            Some(Box::new(inter)),
        ))
    }

    /// The intracommunicator of both groups of this intercommunicator (MPI's
    /// `MPI_Intercomm_merge`): the group whose members pass `high = false` comes first; when
    /// both pass the same, the group whose rank 0 has the lower world rank does. Every member
    /// of a group must pass the same `high`. Collective over both groups.
    pub async fn intercomm_merge(&self, high: bool) -> Result<Comm> {
        let Some(inter) = &self.inner.inter else {
            return Err(Error::new(
                ErrorKind::InvalidComm,
                "intercomm_merge: not an intercommunicator",
            ));
        };
        let context = self.inner.next_child_context("merge");
        let turn = Turn::take(self)?;
        turn.wait().await;
        let theirs = self
            .leaders_swap(inter, turn.tag(), vec![u8::from(high)], 1)
            .await?;
        let their_high = theirs.first().is_some_and(|&h| h != 0);
        let first = if high == their_high { inter.low } else { !high };
        let (mine, remote) = (self.inner.members.world(), inter.remote.world());
        let world: Vec<u32> = if first {
            mine.iter().chain(remote.iter()).copied().collect()
        } else {
            remote.iter().chain(mine.iter()).copied().collect()
        };
        Ok(Comm::from_parts(self.inner.engine.clone(), context, world))
    }

    /// Local rank 0 swaps its `mine` with the remote rank 0's (with `tag`, in the caller's
    /// turn); every member gets what the remote rank 0 sent, which must be `their_len` bytes.
    /// Other members' `mine` is not used.
    pub(crate) async fn leaders_swap(
        &self,
        inter: &Inter,
        tag: i32,
        mine: Vec<u8>,
        their_len: usize,
    ) -> Result<Vec<u8>> {
        let mut out = vec![0u8; their_len];
        if self.rank() == 0 {
            let got = self.inter_sendrecv(inter, mine, 0, 0, tag).await?;
            check_len("the remote leader", got.len(), out.len())?;
            out.copy_from_slice(&got);
        }
        bcast_bytes(&inter.local, &mut out, 0).await?;
        Ok(out)
    }

    /// Sends `payload` to remote rank `dest` and receives from remote rank `source`, both on
    /// the collectives' context with `tag`.
    pub(crate) async fn inter_sendrecv(
        &self,
        inter: &Inter,
        payload: Vec<u8>,
        dest: u32,
        source: u32,
        tag: i32,
    ) -> Result<Bytes> {
        let recv = self.inter_post(inter, source, tag)?;
        self.inter_send(inter, payload, dest, tag)?;
        recv.await
    }

    /// Sends `payload` to remote rank `dest` on the collectives' context with `tag`.
    pub(crate) fn inter_send(
        &self,
        inter: &Inter,
        payload: Vec<u8>,
        dest: u32,
        tag: i32,
    ) -> Result<()> {
        let to = self.inner.peer_world_rank(dest)?;
        self.inner
            .engine
            .send_p2p(to, inter.coll_context, tag, Bytes::from(payload))
    }

    /// Posts a receive from remote rank `source` on the collectives' context with `tag`.
    pub(crate) fn inter_post(
        &self,
        inter: &Inter,
        source: u32,
        tag: i32,
    ) -> Result<impl Future<Output = Result<Bytes>> + Send + 'static> {
        let mut spec = self.recv_spec(Source::Rank(source), TagMatch::Tag(tag))?;
        spec.context = inter.coll_context;
        let posted = crate::ops::p2p::post_spec(&self.inner.engine, spec)?;
        Ok(async move { Ok(posted.await?.payload) })
    }
}

/// Sends `out` to `peer_rank` and receives its message, with `tag` on `peer`.
async fn swap(peer: &Comm, out: Bytes, peer_rank: u32, tag: i32) -> Result<Vec<u8>> {
    let recv = peer.post_recv(Source::Rank(peer_rank), TagMatch::Tag(tag))?;
    peer.send_bytes(out, peer_rank, tag)?;
    Ok(recv.await?.payload.to_vec())
}

/// Broadcasts `buf` from `root` over the intracommunicator `c`.
pub(crate) async fn bcast_bytes(c: &Comm, buf: &mut [u8], root: u32) -> Result<()> {
    let data = buf.to_vec();
    c.start_bcast(&data, root)?.finish_into(buf).await
}

/// `Mismatch` unless `from` sent `got` bytes where `want` were expected.
pub(crate) fn check_len(from: &str, got: usize, want: usize) -> Result<()> {
    if got != want {
        return Err(Error::new(
            ErrorKind::Mismatch,
            format!("{from} sent {got} bytes where {want} were expected"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{decode_side, derive, encode_side};

    #[test]
    fn side_round_trips() {
        let b = encode_side(42, &[3, 1, 7]);
        assert_eq!(decode_side(&b).unwrap(), (42, vec![3, 1, 7]));
        assert!(decode_side(&b[..10]).is_err());
    }

    #[test]
    fn ids_depend_on_order_and_kind() {
        assert_ne!(
            derive(b"nexar-inter", &[1, 2]),
            derive(b"nexar-inter", &[2, 1])
        );
        assert_ne!(
            derive(b"nexar-inter", &[1, 2]),
            derive(b"nexar-inter-coll", &[1, 2])
        );
    }
}
