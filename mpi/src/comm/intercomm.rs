//! Intercommunicators (MPI 4.1 §7.6): creation, merge and the queries. The engine keeps the
//! remote group and maps point-to-point ranks onto it ([`nexar::Comm::intercomm_create`]);
//! `MPI_Comm_size`, `MPI_Comm_rank` and `MPI_Comm_group` give the local group's, and
//! collectives between the groups are in [`crate::coll::inter`].
//!
//! `MPI_Intercomm_create_from_groups` builds the two pieces `MPI_Intercomm_create` is given:
//! the local group's communicator and a two-leader communicator as the peer, both made from
//! `MPI_COMM_WORLD` by their members alone under tags derived from the string tag, so the
//! leaders' swap never meets a user's message.

use crate::comm::group::{MPI_Group, comm_members, members, new_group, rank_in};
use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
use crate::state::{comm, errhandler_of, insert_comm, set_errhandler};
use std::ffi::{c_char, c_int};

/// `MPI_ERR_COMM` for a communicator that is not an intercommunicator.
fn not_inter() -> MpiError {
    MpiError::new(MPI_ERR_COMM, "not an intercommunicator")
}

/// The intercommunicator behind `h`, or `MPI_ERR_COMM`.
fn inter(h: MPI_Comm) -> Result<nexar::Comm> {
    let c = comm(h)?;
    if c.is_inter() {
        Ok(c)
    } else {
        Err(not_inter())
    }
}

/// The world ranks of `c`'s remote group, in remote rank order.
pub fn remote_members(c: &nexar::Comm) -> Result<Vec<u32>> {
    (0..c.remote_size().ok_or_else(not_inter)?)
        .map(|r| {
            c.remote_world_rank_of(r)
                .map(|w| crate::comm::group::id_of(c, w))
                .map_err(MpiError::from)
        })
        .collect()
}

/// A rank argument `r` checked against `n`.
fn rank_arg(r: c_int, n: u32, what: &str) -> Result<u32> {
    u32::try_from(r).ok().filter(|&r| r < n).ok_or_else(|| {
        MpiError::new(
            MPI_ERR_RANK,
            format!("{what} {r} is out of range (size {n})"),
        )
    })
}

/// The peer communicator of `MPI_Intercomm_create`'s local leader, with `remote_leader` and
/// `tag` checked.
fn leader_args(peer_comm: MPI_Comm, remote_leader: c_int, tag: c_int) -> Result<nexar::Comm> {
    let p = comm(peer_comm)?;
    rank_arg(remote_leader, p.peer_count(), "remote_leader")?;
    if tag < 0 {
        return Err(MpiError::new(MPI_ERR_TAG, format!("tag {tag} is negative")));
    }
    Ok(p)
}

/// Engine tags of `MPI_Intercomm_create_from_groups`' communicators on `MPI_COMM_WORLD`: above
/// every `int` tag of `MPI_Comm_create_group` and `MPI_Comm_create`'s (1 << 32); the local
/// group's and the leaders' apart.
fn string_tags(tag: &[u8]) -> (u64, u64) {
    (string_tag(2, tag), string_tag(3, tag))
}

/// The engine tag of a communicator made on `MPI_COMM_WORLD` from string tag `tag` by the
/// function family `kind` (2 and 3: `MPI_Intercomm_create_from_groups`' local group and
/// leaders; 4: `MPI_Comm_create_from_group`): above every `int` tag (1 << 32), families apart.
pub(crate) fn string_tag(kind: u64, tag: &[u8]) -> u64 {
    (kind << 32) | (fnv1a(tag) & 0xffff_ffff)
}

/// FNV-1a of `b`: the same on every rank, which is all a tag needs.
fn fnv1a(b: &[u8]) -> u64 {
    b.iter().fold(0xcbf2_9ce4_8422_2325, |h, &x| {
        (h ^ u64::from(x)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

mpi_fn! {
    /// An intercommunicator between `local_comm`'s members and the group whose leader is
    /// `remote_leader` in `peer_comm` (collective over `local_comm`; `peer_comm`,
    /// `remote_leader` and `tag` count only at `local_leader`, whose swap with the remote
    /// leader uses `tag` on `peer_comm`). The groups must be disjoint.
    fn MPI_Intercomm_create(local_comm: MPI_Comm, local_leader: c_int, peer_comm: MPI_Comm,
        remote_leader: c_int, tag: c_int, newintercomm: *mut MPI_Comm) -> c_int
        => PMPI_Intercomm_create
    {
        call("MPI_Intercomm_create", local_comm, || {
            non_null(newintercomm, "newintercomm")?;
            let c = comm(local_comm)?;
            if c.is_inter() {
                return Err(MpiError::new(MPI_ERR_COMM, "local_comm is an intercommunicator"));
            }
            let leader = rank_arg(local_leader, c.size(), "local_leader")?;
            let peer = if c.rank() == leader {
                match leader_args(peer_comm, remote_leader, tag) {
                    Ok(p) => Some(p),
                    Err(e) => {
                        // Only the leader sees these arguments: the engine tells the others
                        // it has no peer, so they fail too instead of waiting.
                        let _ = c.intercomm_create_blocking(leader, None, 0, 0);
                        return Err(e);
                    }
                }
            } else {
                None
            };
            let new = c.intercomm_create_blocking(leader, peer.as_ref(), remote_leader as u32,
                tag.max(0))?;
            let h = insert_comm(new, errhandler_of(local_comm))?;
            // SAFETY: checked for NULL.
            unsafe { newintercomm.write(h) };
            Ok(())
        })
    }

    /// An intercommunicator between `local_group` and `remote_group` (disjoint, both within
    /// `MPI_COMM_WORLD`), made by their members alone: collective over both groups, which
    /// pass the same `stringtag`. `info` is accepted and ignored; the new intercommunicator
    /// gets `errhandler`.
    fn MPI_Intercomm_create_from_groups(local_group: MPI_Group, local_leader: c_int,
        remote_group: MPI_Group, remote_leader: c_int, stringtag: *const c_char, info: usize,
        errhandler: MPI_Errhandler, newintercomm: *mut MPI_Comm) -> c_int
        => PMPI_Intercomm_create_from_groups
    {
        call("MPI_Intercomm_create_from_groups", MPI_COMM_WORLD, || {
            non_null(newintercomm, "newintercomm")?;
            non_null(stringtag, "stringtag")?;
            crate::comm::info::pairs_or_empty(info)?;
            let (lg, rg) = (members(local_group)?, members(remote_group)?);
            let world = crate::state::whole_world()?;
            let me = crate::comm::group::my_world_rank()?;
            let Some(_) = rank_in(&lg, me) else {
                return Err(MpiError::new(MPI_ERR_GROUP, "this process is not in local_group"));
            };
            let ll = lg[rank_arg(local_leader, lg.len() as u32, "local_leader")? as usize];
            let rl = rg[rank_arg(remote_leader, rg.len() as u32, "remote_leader")? as usize];
            // SAFETY: non-NULL, NUL-terminated per the MPI contract.
            let tag = unsafe { std::ffi::CStr::from_ptr(stringtag) }.to_bytes();
            let (local_tag, bridge_tag) = string_tags(tag);
            let local = world
                .create_subset(&lg, local_tag)?
                .ok_or_else(|| MpiError::new(MPI_ERR_GROUP, "this process is not in local_group"))?;
            let leader = rank_in(&lg, ll).expect("a member") as u32;
            let bridge = if me == ll {
                let mut pair = [ll, rl];
                pair.sort_unstable();
                world.create_subset(&pair, bridge_tag)?
            } else {
                None
            };
            let remote_in_bridge = u32::from(rl > ll);
            let new = local.intercomm_create_blocking(leader, bridge.as_ref(), remote_in_bridge, 0)?;
            let h = insert_comm(new, errhandler_of(MPI_COMM_WORLD))?;
            if let Err(e) = set_errhandler(h, errhandler) {
                let _ = crate::state::remove_comm(h);
                return Err(e);
            }
            // SAFETY: checked for NULL.
            unsafe { newintercomm.write(h) };
            Ok(())
        })
    }

    /// The intracommunicator of both groups of `intercomm` (collective over both): the group
    /// passing `high = 0` comes first; when both pass the same, the group whose rank 0 has the
    /// lower `MPI_COMM_WORLD` rank does.
    fn MPI_Intercomm_merge(intercomm: MPI_Comm, high: c_int, newintracomm: *mut MPI_Comm)
        -> c_int => PMPI_Intercomm_merge
    {
        call("MPI_Intercomm_merge", intercomm, || {
            non_null(newintracomm, "newintracomm")?;
            let new = inter(intercomm)?.intercomm_merge_blocking(high != 0)?;
            let h = insert_comm(new, errhandler_of(intercomm))?;
            // SAFETY: checked for NULL.
            unsafe { newintracomm.write(h) };
            Ok(())
        })
    }

    /// Whether `comm` is an intercommunicator.
    fn MPI_Comm_test_inter(comm_h: MPI_Comm, flag: *mut c_int) -> c_int => PMPI_Comm_test_inter {
        call("MPI_Comm_test_inter", comm_h, || {
            non_null(flag, "flag")?;
            let v = c_int::from(comm(comm_h)?.is_inter());
            // SAFETY: checked for NULL.
            unsafe { flag.write(v) };
            Ok(())
        })
    }

    /// The size of an intercommunicator's remote group; `MPI_ERR_COMM` for an
    /// intracommunicator.
    fn MPI_Comm_remote_size(comm_h: MPI_Comm, size: *mut c_int) -> c_int
        => PMPI_Comm_remote_size
    {
        call("MPI_Comm_remote_size", comm_h, || {
            non_null(size, "size")?;
            let n = inter(comm_h)?.remote_size().ok_or_else(not_inter)?;
            // SAFETY: checked for NULL.
            unsafe { size.write(n as c_int) };
            Ok(())
        })
    }

    /// The remote group of an intercommunicator; `MPI_ERR_COMM` for an intracommunicator.
    fn MPI_Comm_remote_group(comm_h: MPI_Comm, group: *mut MPI_Group) -> c_int
        => PMPI_Comm_remote_group
    {
        call("MPI_Comm_remote_group", comm_h, || {
            non_null(group, "group")?;
            let g = new_group(remote_members(&inter(comm_h)?)?)?;
            // SAFETY: checked for NULL.
            unsafe { group.write(g) };
            Ok(())
        })
    }
}

/// `MPI_Comm_compare` of two different handles, at least one an intercommunicator: both
/// groups compared (`MPI_IDENT` of both groups is `MPI_CONGRUENT`); an intra- and an
/// intercommunicator are `MPI_UNEQUAL`.
pub fn compare_inter(a: &nexar::Comm, b: &nexar::Comm) -> Result<c_int> {
    use crate::comm::group::{MPI_CONGRUENT, MPI_IDENT, MPI_SIMILAR, MPI_UNEQUAL, compare};
    if a.is_inter() != b.is_inter() {
        return Ok(MPI_UNEQUAL);
    }
    let local = compare(&comm_members(a)?, &comm_members(b)?);
    let remote = compare(&remote_members(a)?, &remote_members(b)?);
    Ok(match (local, remote) {
        (MPI_IDENT, MPI_IDENT) => MPI_CONGRUENT,
        (MPI_UNEQUAL, _) | (_, MPI_UNEQUAL) => MPI_UNEQUAL,
        _ => MPI_SIMILAR,
    })
}
