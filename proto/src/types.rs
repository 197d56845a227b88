//! Ranks, tags and the group a collective runs in.

use crate::prelude::*;

/// A process's index inside a communicator (or the world), `0..size`.
pub type Rank = u32;

/// A user message tag. Non-negative for real messages; the engine maps the wildcard separately.
pub type Tag = i32;

/// The communicator-local view a state machine needs: who am I, how many are we.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Group {
    /// This rank, `0..size`.
    pub rank: Rank,
    /// Number of ranks, at least 1.
    pub size: u32,
}

impl Group {
    /// Builds a group, checking `rank < size` and `size >= 1`.
    pub fn new(rank: Rank, size: u32) -> Result<Self, crate::ProtoError> {
        if size == 0 || rank >= size {
            return Err(crate::ProtoError::InvalidArgument(format!(
                "rank {rank} is out of range for a group of {size}"
            )));
        }
        Ok(Self { rank, size })
    }

    /// Checks that `root` names a member.
    pub fn check_root(&self, root: Rank) -> Result<(), crate::ProtoError> {
        if root >= self.size {
            return Err(crate::ProtoError::InvalidArgument(format!(
                "root {root} is out of range for a group of {}",
                self.size
            )));
        }
        Ok(())
    }

    /// Rank relative to `root` (root becomes 0), for tree algorithms.
    pub fn relative(&self, root: Rank) -> Rank {
        ((self.rank as u64 + self.size as u64 - root as u64) % self.size as u64) as Rank
    }

    /// Inverse of [`Group::relative`]: the absolute rank of relative rank `rel`.
    pub fn absolute(&self, rel: Rank, root: Rank) -> Rank {
        ((rel as u64 + root as u64) % self.size as u64) as Rank
    }
}
