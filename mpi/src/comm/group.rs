//! Groups: ordered sets of processes, kept as lists of process ids (group rank -> id).
//!
//! A process id is its world rank in this process's own world (`MPI_COMM_WORLD`'s context;
//! a spawned process's world includes its parents). Worlds this process spawned or met through
//! a port number their members differently, so each registers how its ranks map to ids
//! ([`register_world`]): members this process already knows keep their ids, the others get
//! fresh ones from `2^31` up. Groups of communicators of different worlds thus compare and
//! translate correctly.
//!
//! `MPI_GROUP_EMPTY` is the empty group and every operation whose result is empty returns it
//! (as the standard allows); freeing it is accepted and only sets the handle to
//! `MPI_GROUP_NULL`. User groups live in a handle table of their own ([`crate::table::Table`]).
//! Groups are local objects: no function here communicates. Errors are raised on
//! `MPI_COMM_WORLD` (no communicator is involved), like every other error without one.

use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
use crate::state::{comm, with_running};
use crate::table::{Table, USER_HANDLES};
use parking_lot::Mutex;
use std::collections::{HashMap, HashSet};
use std::ffi::c_int;
use std::sync::Arc;

/// `MPI_Group` handle.
pub type MPI_Group = usize;

/// `MPI_GROUP_EMPTY` (`MPI_GROUP_NULL` is in [`crate::consts`]).
pub const MPI_GROUP_EMPTY: MPI_Group = 0x109;
/// Compare result: same members in the same order (and, for communicators, the same handle).
pub const MPI_IDENT: c_int = 201;
/// Compare result: communicators with the same members in the same order.
pub const MPI_CONGRUENT: c_int = 202;
/// Compare result: the same members in another order.
pub const MPI_SIMILAR: c_int = 203;
/// Compare result: different members.
pub const MPI_UNEQUAL: c_int = 204;

/// Rank -> process id of every spawned or connected world, by [`nexar::Comm::world_id`].
static WORLD_IDS: Mutex<Option<HashMap<usize, Arc<[u32]>>>> = Mutex::new(None);
/// Process ids by identity across worlds ([`nexar::Origin`]).
static ORIGIN_IDS: Mutex<Option<HashMap<nexar::Origin, u32>>> = Mutex::new(None);
/// The next fresh process id (for processes first met in a spawned or connected world).
static NEXT_ID: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1 << 31);

/// Seeds the ids of this process's own world: world rank `w` (whose identity is
/// `origins[w]`) has id `w`. Called once, at start.
pub fn seed_ids(origins: impl Iterator<Item = nexar::Origin>) {
    let mut m = ORIGIN_IDS.lock();
    let m = m.get_or_insert_with(HashMap::new);
    m.clear();
    for (w, o) in origins.enumerate() {
        m.insert(o, w as u32);
    }
}

/// Registers world `world_id` (see [`nexar::Comm::world_id`]) whose rank `w` is the process
/// `origins[w]`: processes already known keep their ids, the others get fresh ones.
pub fn register_world(world_id: usize, origins: &[nexar::Origin]) {
    let ids: Arc<[u32]> = {
        let mut m = ORIGIN_IDS.lock();
        let m = m.get_or_insert_with(HashMap::new);
        origins
            .iter()
            .map(|o| {
                *m.entry(*o)
                    .or_insert_with(|| NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
            })
            .collect()
    };
    WORLD_IDS
        .lock()
        .get_or_insert_with(HashMap::new)
        .insert(world_id, ids);
}

/// Forgets a world registered with [`register_world`] (it was closed).
pub fn forget_world(world_id: usize) {
    if let Some(m) = WORLD_IDS.lock().as_mut() {
        m.remove(&world_id);
    }
}

/// The process id of world rank `w` of `c`'s world.
pub fn id_of(c: &nexar::Comm, w: u32) -> u32 {
    match WORLD_IDS.lock().as_ref().and_then(|m| m.get(&c.world_id())) {
        Some(ids) => ids.get(w as usize).copied().unwrap_or(w),
        None => w,
    }
}

/// Live user groups: process ids in group-rank order.
static GROUPS: Mutex<Table<Arc<[u32]>>> = Mutex::new(Table::new(USER_HANDLES));

/// The members (world ranks) of a group handle, or `MPI_ERR_GROUP`.
pub fn members(h: MPI_Group) -> Result<Arc<[u32]>> {
    with_running(|_| Ok(()))?;
    match h {
        MPI_GROUP_EMPTY => Ok(Arc::from(Vec::new())),
        MPI_GROUP_NULL => Err(MpiError::new(MPI_ERR_GROUP, "group is MPI_GROUP_NULL")),
        _ => {
            GROUPS.lock().get(h).cloned().ok_or_else(|| {
                MpiError::new(MPI_ERR_GROUP, format!("invalid or freed group {h:#x}"))
            })
        }
    }
}

/// Whether `h` is a live group handle (for `MPI_Group_fromint`).
pub fn group_valid(h: usize) -> bool {
    matches!(h, MPI_GROUP_NULL | MPI_GROUP_EMPTY) || GROUPS.lock().get(h).is_some()
}

/// A handle for a group of these world ranks (`MPI_GROUP_EMPTY` when there are none).
pub fn new_group(world: Vec<u32>) -> Result<MPI_Group> {
    if world.is_empty() {
        return Ok(MPI_GROUP_EMPTY);
    }
    GROUPS
        .lock()
        .insert(world.into())
        .ok_or_else(|| MpiError::new(MPI_ERR_NO_MEM, "too many live groups"))
}

/// The group of a communicator's members (process ids), in comm-rank order.
pub fn comm_members(c: &nexar::Comm) -> Result<Vec<u32>> {
    (0..c.size())
        .map(|r| {
            c.world_rank_of(r)
                .map(|w| id_of(c, w))
                .map_err(MpiError::from)
        })
        .collect()
}

/// This process's id (its world rank in its own world; see the module documentation).
pub fn my_world_rank() -> Result<u32> {
    let w = comm(MPI_COMM_WORLD)?;
    Ok(w.world_rank_of(w.rank())?)
}

/// The rank of world rank `w` in `g`, if a member.
pub fn rank_in(g: &[u32], w: u32) -> Option<usize> {
    g.iter().position(|&m| m == w)
}

/// `IDENT` (same members, same order), `SIMILAR` (same members) or `UNEQUAL`.
pub fn compare(a: &[u32], b: &[u32]) -> c_int {
    if a == b {
        MPI_IDENT
    } else if a.len() == b.len()
        && a.iter().collect::<HashSet<_>>() == b.iter().collect::<HashSet<_>>()
    {
        MPI_SIMILAR
    } else {
        MPI_UNEQUAL
    }
}

fn write<T>(out: *mut T, name: &str, v: T) -> Result<()> {
    non_null(out, name)?;
    // SAFETY: checked for NULL; writable per the MPI contract.
    unsafe { out.write(v) };
    Ok(())
}

/// The `n` ints at `p` (NULL allowed when `n` is 0).
fn int_slice<'a>(p: *const c_int, n: c_int, name: &str) -> Result<&'a [c_int]> {
    if n < 0 {
        return Err(MpiError::new(MPI_ERR_ARG, format!("n {n} is negative")));
    }
    if n == 0 {
        return Ok(&[]);
    }
    non_null(p, name)?;
    // SAFETY: non-NULL; the caller provides `n` ints.
    Ok(unsafe { std::slice::from_raw_parts(p, n as usize) })
}

/// Checks that `ranks` are distinct valid ranks of a group of `size` (`MPI_ERR_RANK`).
fn check_ranks(ranks: &[c_int], size: usize) -> Result<Vec<usize>> {
    let mut seen = vec![false; size];
    ranks
        .iter()
        .map(|&r| {
            let i = usize::try_from(r)
                .ok()
                .filter(|&i| i < size)
                .ok_or_else(|| {
                    MpiError::new(
                        MPI_ERR_RANK,
                        format!("rank {r} is out of range for a group of size {size}"),
                    )
                })?;
            if std::mem::replace(&mut seen[i], true) {
                return Err(MpiError::new(
                    MPI_ERR_RANK,
                    format!("rank {r} appears more than once"),
                ));
            }
            Ok(i)
        })
        .collect()
}

/// The ranks of `n` triplets (first, last, stride), checked: stride not 0 (`MPI_ERR_ARG`),
/// first and last valid (`MPI_ERR_RANK`), all ranks distinct (`MPI_ERR_RANK`). A triplet whose
/// stride points away from `last` is empty.
fn range_ranks(ranges: *const [c_int; 3], n: c_int, size: usize) -> Result<Vec<usize>> {
    if n < 0 {
        return Err(MpiError::new(MPI_ERR_ARG, format!("n {n} is negative")));
    }
    let triplets: &[[c_int; 3]] = if n == 0 {
        &[]
    } else {
        non_null(ranges, "ranges")?;
        // SAFETY: non-NULL; the caller provides `n` triplets.
        unsafe { std::slice::from_raw_parts(ranges, n as usize) }
    };
    let mut ranks = Vec::new();
    for &[first, last, stride] in triplets {
        if stride == 0 {
            return Err(MpiError::new(
                MPI_ERR_ARG,
                format!("range ({first}, {last}, {stride}) has stride 0"),
            ));
        }
        for r in [first, last] {
            if r < 0 || r as usize >= size {
                return Err(MpiError::new(
                    MPI_ERR_RANK,
                    format!(
                        "range ({first}, {last}, {stride}): rank {r} is out of range for a group of size {size}"
                    ),
                ));
            }
        }
        let (mut r, last, stride) = (i64::from(first), i64::from(last), i64::from(stride));
        while (stride > 0 && r <= last) || (stride < 0 && r >= last) {
            ranks.push(r as c_int);
            r += stride;
        }
    }
    check_ranks(&ranks, size)
}

/// Reads the group handle at `p` (for `MPI_Group_free`).
fn read_handle(p: *mut MPI_Group) -> Result<MPI_Group> {
    non_null(p, "group")?;
    // SAFETY: checked for NULL.
    Ok(unsafe { p.read() })
}

mpi_fn! {
    /// The group of `comm`'s members, in rank order.
    fn MPI_Comm_group(comm_h: MPI_Comm, group: *mut MPI_Group) -> c_int => PMPI_Comm_group {
        call("MPI_Comm_group", comm_h, || {
            non_null(group, "group")?;
            let g = new_group(comm_members(&comm(comm_h)?)?)?;
            write(group, "group", g)
        })
    }

    /// The number of processes in `group`.
    fn MPI_Group_size(group: MPI_Group, size: *mut c_int) -> c_int => PMPI_Group_size {
        call("MPI_Group_size", MPI_COMM_WORLD, || {
            non_null(size, "size")?;
            let n = members(group)?.len() as c_int;
            write(size, "size", n)
        })
    }

    /// This process's rank in `group`, or `MPI_UNDEFINED` when it is not a member.
    fn MPI_Group_rank(group: MPI_Group, rank: *mut c_int) -> c_int => PMPI_Group_rank {
        call("MPI_Group_rank", MPI_COMM_WORLD, || {
            non_null(rank, "rank")?;
            let g = members(group)?;
            let r = rank_in(&g, my_world_rank()?).map_or(MPI_UNDEFINED, |r| r as c_int);
            write(rank, "rank", r)
        })
    }

    /// The group of the `n` listed ranks of `group`, in the order listed (distinct valid ranks,
    /// else `MPI_ERR_RANK`).
    fn MPI_Group_incl(group: MPI_Group, n: c_int, ranks: *const c_int, newgroup: *mut MPI_Group)
        -> c_int => PMPI_Group_incl
    {
        call("MPI_Group_incl", MPI_COMM_WORLD, || {
            non_null(newgroup, "newgroup")?;
            let g = members(group)?;
            let idx = check_ranks(int_slice(ranks, n, "ranks")?, g.len())?;
            let h = new_group(idx.iter().map(|&i| g[i]).collect())?;
            write(newgroup, "newgroup", h)
        })
    }

    /// `group` without the `n` listed ranks (distinct valid ranks, else `MPI_ERR_RANK`), in
    /// the order of `group`.
    fn MPI_Group_excl(group: MPI_Group, n: c_int, ranks: *const c_int, newgroup: *mut MPI_Group)
        -> c_int => PMPI_Group_excl
    {
        call("MPI_Group_excl", MPI_COMM_WORLD, || {
            non_null(newgroup, "newgroup")?;
            let g = members(group)?;
            let out: HashSet<usize> =
                check_ranks(int_slice(ranks, n, "ranks")?, g.len())?.into_iter().collect();
            let kept = (0..g.len()).filter(|i| !out.contains(i)).map(|i| g[i]).collect();
            write(newgroup, "newgroup", new_group(kept)?)
        })
    }

    /// The group of the ranks of `n` (first, last, stride) triplets, in that order.
    fn MPI_Group_range_incl(group: MPI_Group, n: c_int, ranges: *const [c_int; 3],
        newgroup: *mut MPI_Group) -> c_int => PMPI_Group_range_incl
    {
        call("MPI_Group_range_incl", MPI_COMM_WORLD, || {
            non_null(newgroup, "newgroup")?;
            let g = members(group)?;
            let idx = range_ranks(ranges, n, g.len())?;
            let h = new_group(idx.iter().map(|&i| g[i]).collect())?;
            write(newgroup, "newgroup", h)
        })
    }

    /// `group` without the ranks of `n` (first, last, stride) triplets.
    fn MPI_Group_range_excl(group: MPI_Group, n: c_int, ranges: *const [c_int; 3],
        newgroup: *mut MPI_Group) -> c_int => PMPI_Group_range_excl
    {
        call("MPI_Group_range_excl", MPI_COMM_WORLD, || {
            non_null(newgroup, "newgroup")?;
            let g = members(group)?;
            let out: HashSet<usize> = range_ranks(ranges, n, g.len())?.into_iter().collect();
            let kept = (0..g.len()).filter(|i| !out.contains(i)).map(|i| g[i]).collect();
            write(newgroup, "newgroup", new_group(kept)?)
        })
    }

    /// The members of `group1`, then those of `group2` not in `group1`.
    fn MPI_Group_union(group1: MPI_Group, group2: MPI_Group, newgroup: *mut MPI_Group) -> c_int
        => PMPI_Group_union
    {
        call("MPI_Group_union", MPI_COMM_WORLD, || {
            non_null(newgroup, "newgroup")?;
            let (a, b) = (members(group1)?, members(group2)?);
            let in_a: HashSet<u32> = a.iter().copied().collect();
            let mut v = a.to_vec();
            v.extend(b.iter().filter(|w| !in_a.contains(w)));
            write(newgroup, "newgroup", new_group(v)?)
        })
    }

    /// The members of `group1` that are in `group2`, in `group1`'s order.
    fn MPI_Group_intersection(group1: MPI_Group, group2: MPI_Group, newgroup: *mut MPI_Group)
        -> c_int => PMPI_Group_intersection
    {
        call("MPI_Group_intersection", MPI_COMM_WORLD, || {
            non_null(newgroup, "newgroup")?;
            let (a, b) = (members(group1)?, members(group2)?);
            let in_b: HashSet<u32> = b.iter().copied().collect();
            let v = a.iter().copied().filter(|w| in_b.contains(w)).collect();
            write(newgroup, "newgroup", new_group(v)?)
        })
    }

    /// The members of `group1` that are not in `group2`, in `group1`'s order.
    fn MPI_Group_difference(group1: MPI_Group, group2: MPI_Group, newgroup: *mut MPI_Group)
        -> c_int => PMPI_Group_difference
    {
        call("MPI_Group_difference", MPI_COMM_WORLD, || {
            non_null(newgroup, "newgroup")?;
            let (a, b) = (members(group1)?, members(group2)?);
            let in_b: HashSet<u32> = b.iter().copied().collect();
            let v = a.iter().copied().filter(|w| !in_b.contains(w)).collect();
            write(newgroup, "newgroup", new_group(v)?)
        })
    }

    /// The ranks in `group2` of `n` ranks of `group1`: `MPI_UNDEFINED` for non-members,
    /// `MPI_PROC_NULL` for `MPI_PROC_NULL`.
    fn MPI_Group_translate_ranks(group1: MPI_Group, n: c_int, ranks1: *const c_int,
        group2: MPI_Group, ranks2: *mut c_int) -> c_int => PMPI_Group_translate_ranks
    {
        call("MPI_Group_translate_ranks", MPI_COMM_WORLD, || {
            let (a, b) = (members(group1)?, members(group2)?);
            let src = int_slice(ranks1, n, "ranks1")?;
            let rank_in_b: HashMap<u32, usize> = b.iter().enumerate().map(|(i, &w)| (w, i)).collect();
            let out = src
                .iter()
                .map(|&r| match r {
                    MPI_PROC_NULL => Ok(MPI_PROC_NULL),
                    r if r >= 0 && (r as usize) < a.len() => {
                        Ok(rank_in_b.get(&a[r as usize]).map_or(MPI_UNDEFINED, |&i| i as c_int))
                    }
                    r => Err(MpiError::new(
                        MPI_ERR_RANK,
                        format!("rank {r} is out of range for group1 of size {}", a.len()),
                    )),
                })
                .collect::<Result<Vec<c_int>>>()?;
            if !out.is_empty() {
                non_null(ranks2, "ranks2")?;
                // SAFETY: non-NULL; the caller provides room for `n` ints.
                unsafe { std::ptr::copy_nonoverlapping(out.as_ptr(), ranks2, out.len()) };
            }
            Ok(())
        })
    }

    /// `MPI_IDENT` (same members in the same order), `MPI_SIMILAR` (same members) or
    /// `MPI_UNEQUAL`.
    fn MPI_Group_compare(group1: MPI_Group, group2: MPI_Group, result: *mut c_int) -> c_int
        => PMPI_Group_compare
    {
        call("MPI_Group_compare", MPI_COMM_WORLD, || {
            non_null(result, "result")?;
            let r = compare(&members(group1)?, &members(group2)?);
            write(result, "result", r)
        })
    }

    /// Frees a group and sets `*group` to `MPI_GROUP_NULL` (`MPI_GROUP_EMPTY` is accepted and
    /// stays valid).
    fn MPI_Group_free(group: *mut MPI_Group) -> c_int => PMPI_Group_free {
        call("MPI_Group_free", MPI_COMM_WORLD, || {
            let h = read_handle(group)?;
            members(h)?;
            if h != MPI_GROUP_EMPTY {
                GROUPS.lock().remove(h);
                crate::session::forget_group(h);
            }
            write(group, "group", MPI_GROUP_NULL)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compare_kinds() {
        assert_eq!(compare(&[0, 1, 2], &[0, 1, 2]), MPI_IDENT);
        assert_eq!(compare(&[0, 1, 2], &[2, 0, 1]), MPI_SIMILAR);
        assert_eq!(compare(&[0, 1], &[0, 1, 2]), MPI_UNEQUAL);
        assert_eq!(compare(&[], &[]), MPI_IDENT);
    }

    #[test]
    fn ranges_and_rank_checks() {
        let r = |t: &[[c_int; 3]], size| range_ranks(t.as_ptr(), t.len() as c_int, size);
        assert_eq!(r(&[[0, 6, 2]], 8).unwrap(), vec![0, 2, 4, 6]);
        assert_eq!(r(&[[7, 1, -3]], 8).unwrap(), vec![7, 4, 1]);
        assert_eq!(r(&[[3, 1, 1]], 8).unwrap(), Vec::<usize>::new());
        assert_eq!(r(&[[0, 1, 0]], 8).unwrap_err().class, MPI_ERR_ARG);
        assert_eq!(r(&[[0, 8, 1]], 8).unwrap_err().class, MPI_ERR_RANK);
        assert_eq!(
            r(&[[0, 3, 1], [2, 2, 1]], 8).unwrap_err().class,
            MPI_ERR_RANK
        );
        assert_eq!(check_ranks(&[1, 1], 4).unwrap_err().class, MPI_ERR_RANK);
        assert_eq!(check_ranks(&[-1], 4).unwrap_err().class, MPI_ERR_RANK);
        assert_eq!(check_ranks(&[3, 0], 4).unwrap(), vec![3, 0]);
    }

    #[test]
    fn constants_match_the_spec() {
        let value = crate::consts::spec_value;
        for (name, v) in [
            ("MPI_GROUP_EMPTY", MPI_GROUP_EMPTY as i64),
            ("MPI_IDENT", MPI_IDENT.into()),
            ("MPI_CONGRUENT", MPI_CONGRUENT.into()),
            ("MPI_SIMILAR", MPI_SIMILAR.into()),
            ("MPI_UNEQUAL", MPI_UNEQUAL.into()),
        ] {
            assert_eq!(value(name), v, "{name}");
        }
    }
}
