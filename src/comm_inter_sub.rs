//! Intercommunicators on subgroups of an intercommunicator's two groups: split by color (MPI's
//! `MPI_Comm_split` on an intercommunicator) and create from a subgroup of each side
//! (`MPI_Comm_create` on one). Both are collective over both groups: each group learns its own
//! choices (a local collective), the rank 0s swap them, and each rank 0 broadcasts the other
//! side's. The new context ids derive from the parent intercommunicator's next child id (which
//! every member of both groups draws alike) and, for a split, the color.

use crate::comm::{Comm, decode_split_entry, encode_split_entry};
use crate::comm_inter::{Inter, Turn, derive};
use crate::error::Result;
use nexar_proto::Datatype;

/// Bytes of one member's (color, key) entry.
const ENTRY: usize = 12;

impl Comm {
    /// Splits an intercommunicator: the members of each group with the same `color` form the
    /// local group of a new intercommunicator whose remote group is the other group's members
    /// of that color, each ordered by `key` (ties by rank). `None` for `color = None`
    /// (`MPI_UNDEFINED`) or a color the other group lacks.
    pub(crate) async fn inter_split(
        &self,
        inter: &Inter,
        color: Option<u32>,
        key: i32,
    ) -> Result<Option<Comm>> {
        let child = self.inner.next_child_context("split");
        let turn = Turn::take(self)?;
        turn.wait().await;
        let mine = encode_split_entry(color, key);
        let mut local = vec![0u8; ENTRY * self.size() as usize];
        inter
            .local
            .start_allgather(&mine, Datatype::U8)?
            .finish_into(&mut local)
            .await?;
        let their_len = ENTRY * inter.remote.world().len();
        let remote = self
            .leaders_swap(inter, turn.tag(), local.clone(), their_len)
            .await?;
        drop(turn);
        let Some(color) = color else { return Ok(None) };
        let pick = |table: &[u8], world: &[u32]| -> Vec<u32> {
            let mut chosen: Vec<(i32, usize)> = table
                .chunks_exact(ENTRY)
                .enumerate()
                .filter_map(|(r, e)| {
                    let (c, k) = decode_split_entry(e);
                    (c == Some(color)).then_some((k, r))
                })
                .collect();
            chosen.sort_unstable();
            chosen.iter().map(|&(_, r)| world[r]).collect()
        };
        let local_world = pick(&local, self.inner.members.world());
        let remote_world = pick(&remote, inter.remote.world());
        let context = derive(b"nexar-inter-split", &[child, u64::from(color)]);
        Ok(self.inter_sub(inter, context, local_world, remote_world))
    }

    /// The intercommunicator between `local` (world ranks of this group, the same list on
    /// every member of it; empty when this side passes the empty group) and the subgroup the
    /// other side passes. `None` for a rank not in `local`, or when either side is empty.
    /// Collective over both groups.
    pub async fn inter_create(&self, local: &[u32]) -> Result<Option<Comm>> {
        let Some(inter) = &self.inner.inter else {
            return Err(crate::Error::new(
                crate::ErrorKind::InvalidComm,
                "inter_create: not an intercommunicator",
            ));
        };
        let child = self.inner.next_child_context("create");
        let turn = Turn::take(self)?;
        turn.wait().await;
        // Each side's list goes with its length first: the other side cannot know it.
        let len = (local.len() as u64).to_le_bytes().to_vec();
        let their_len = self.leaders_swap(inter, turn.tag(), len, 8).await?;
        let their_len = u64::from_le_bytes(their_len[..8].try_into().expect("8 bytes")) as usize;
        let out: Vec<u8> = local.iter().flat_map(|w| w.to_le_bytes()).collect();
        let theirs = self
            .leaders_swap(inter, turn.tag(), out, 4 * their_len)
            .await?;
        drop(turn);
        let remote: Vec<u32> = theirs
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        let context = derive(b"nexar-inter-create", &[child]);
        Ok(self.inter_sub(inter, context, local.to_vec(), remote))
    }

    /// The intercommunicator `context` of `local` and `remote` (subgroups of this one's), if
    /// this rank is in `local` and neither is empty.
    fn inter_sub(
        &self,
        inter: &Inter,
        context: u64,
        local: Vec<u32>,
        remote: Vec<u32>,
    ) -> Option<Comm> {
        if local.is_empty() || remote.is_empty() || !local.contains(&self.inner.engine.rank) {
            return None;
        }
        // The local group's own context: apart from the other side's (by `low`).
        let local_context = derive(b"nexar-inter-local", &[context, u64::from(inter.low)]);
        let local_comm = Comm::from_parts(self.inner.engine.clone(), local_context, local.clone());
        let sub = Inter::new(remote, local_comm, context);
        Some(Comm::from_parts_with(
            self.inner.engine.clone(),
            context,
            local,
            Some(Box::new(sub)),
        ))
    }
}
