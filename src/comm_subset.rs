//! Communicators on an explicit, ordered subset of a parent's ranks, created by the members
//! alone (no message is exchanged, and non-members take no part): what `MPI_Comm_create_group`
//! needs, and `MPI_Comm_create` on a subgroup.
//!
//! The context id is derived, identically on every member, from the parent's context, a tag
//! the members agree on, the member list, and how many communicators these members already
//! made with that tag on that parent. MPI requires concurrent creations on one parent to use
//! distinct tags, and allows sequential ones to reuse a tag; every member makes the sequential
//! ones in the same order, so the per-(tag, member list) counter advances identically on all
//! of them and two creations never share an id. The kind string keeps these ids apart from
//! those of dup and split.

use crate::comm::{Comm, SELF_CONTEXT};
use crate::error::{Error, ErrorKind, Result};
use std::collections::HashSet;

impl Comm {
    /// A communicator of the parent ranks `ranks` (ranks in this communicator, in the order
    /// of the new ranks), made locally: only members call it, and every member must pass the
    /// same `ranks` and `tag`. `None` when this process is not in `ranks`. Creations that may
    /// run at once on one parent must use distinct tags; sequential ones may reuse a tag.
    ///
    /// Fails with `InvalidRank` for a rank out of range or given twice, and `InvalidArgument`
    /// for an empty list.
    pub fn create_subset(&self, ranks: &[u32], tag: u64) -> Result<Option<Comm>> {
        self.inner
            .refuse_inter("creating a communicator from a subset")?;
        if ranks.is_empty() {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                "create_subset: the member list is empty",
            ));
        }
        let mut seen = HashSet::with_capacity(ranks.len());
        let mut world = Vec::with_capacity(ranks.len());
        for &r in ranks {
            if !seen.insert(r) {
                return Err(Error::new(
                    ErrorKind::InvalidRank,
                    format!("create_subset: rank {r} is listed twice"),
                ));
            }
            world.push(self.inner.world_rank(r)?);
        }
        if !seen.contains(&self.rank()) {
            return Ok(None);
        }
        self.inner.engine.check_alive(&world)?;
        let idx = {
            let mut counters = self.inner.subsets.lock();
            let c = counters.entry((tag, world.clone())).or_insert(0);
            let idx = *c;
            *c += 1;
            idx
        };
        let ctx = subset_context(self.inner.context, tag, &world, idx);
        Ok(Some(Comm::from_parts(
            self.inner.engine.clone(),
            ctx,
            world,
        )))
    }
}

/// The context id of the `idx`-th creation with `tag` over `world` on parent context `parent`.
fn subset_context(parent: u64, tag: u64, world: &[u32], idx: u64) -> u64 {
    let mut input = Vec::with_capacity(48 + 4 * world.len());
    input.extend_from_slice(b"nexar-context-subset");
    input.extend_from_slice(&parent.to_le_bytes());
    input.extend_from_slice(&tag.to_le_bytes());
    input.extend_from_slice(&idx.to_le_bytes());
    input.extend_from_slice(&(world.len() as u64).to_le_bytes());
    for w in world {
        input.extend_from_slice(&w.to_le_bytes());
    }
    let d = ring::digest::digest(&ring::digest::SHA256, &input);
    let id = u64::from_le_bytes(d.as_ref()[..8].try_into().expect("8 bytes"));
    id.max(SELF_CONTEXT + 1)
}

#[cfg(test)]
mod tests {
    use super::subset_context;

    #[test]
    fn ids_differ_by_every_input() {
        let base = subset_context(7, 3, &[0, 2], 0);
        assert_eq!(base, subset_context(7, 3, &[0, 2], 0));
        for other in [
            subset_context(8, 3, &[0, 2], 0),
            subset_context(7, 4, &[0, 2], 0),
            subset_context(7, 3, &[2, 0], 0),
            subset_context(7, 3, &[0, 2, 4], 0),
            subset_context(7, 3, &[0, 2], 1),
        ] {
            assert_ne!(base, other);
        }
    }
}
