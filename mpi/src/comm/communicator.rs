//! Communicator functions: rank, size, dup (blocking and non-blocking), split, create, compare,
//! names and free (error handlers are in [`crate::errors::handlers`]). On an intercommunicator
//! rank, size and the group are the local group's; dup, split, create, free, names and compare
//! work on it (split and create give intercommunicators of subgroups of both groups);
//! `MPI_Comm_create_group` is refused by the engine (`MPI_ERR_COMM`). Intercommunicators themselves
//! are in [`crate::comm::intercomm`].
//!
//! `MPI_Comm_create` and `MPI_Comm_create_group` use the engine's member-only creation
//! ([`nexar::Comm::create_subset`]): the members derive the new context id from the parent, a
//! tag and the member list, so non-members take no part. `MPI_Comm_create` uses a tag above
//! every user tag. Dup carries the info hints ([`crate::comm::info`]) and the topology
//! ([`crate::comm::topo`]) to the new communicator.

use crate::comm::group::{MPI_CONGRUENT, MPI_Group, MPI_IDENT, comm_members, compare, members};
use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
use crate::request::table::{MPI_Request, store_request};
use crate::state::{comm, errhandler_of, insert_comm, remove_comm, with_running};
use parking_lot::Mutex;
use std::collections::{BTreeMap, HashMap};
use std::ffi::{c_char, c_int};

/// `MPI_Info` handle (see [`crate::comm::info`]).
pub type MPI_Info = usize;

/// Tag of `MPI_Comm_create`'s communicators in the engine (user tags of
/// `MPI_Comm_create_group` are `int`s, below it).
const CREATE_TAG: u64 = 1 << 32;

/// `MPI_MAX_OBJECT_NAME`: room for a communicator name and its NUL.
pub const MPI_MAX_OBJECT_NAME: usize = 128;
/// `MPI_COMM_TYPE_SHARED`: split by shared-memory domain (here: by host).
pub const MPI_COMM_TYPE_SHARED: c_int = 221;
/// `MPI_COMM_TYPE_HW_UNGUIDED`.
const MPI_COMM_TYPE_HW_UNGUIDED: c_int = 222;
/// `MPI_COMM_TYPE_HW_GUIDED` and `MPI_COMM_TYPE_RESOURCE_GUIDED`: split by the resource named
/// by the info key `mpi_hw_resource_type`.
const GUIDED_SPLIT_TYPES: [c_int; 2] = [223, 224];

/// Whether `info` asks a guided split for the shared-memory domain (`mpi_hw_resource_type` =
/// `mpi_shared_memory`, the one resource type the standard defines), which nexar knows.
fn asks_shared_memory(info: MPI_Info) -> Result<bool> {
    Ok(crate::comm::info::pairs_or_empty(info)?
        .iter()
        .any(|(k, v)| k == "mpi_hw_resource_type" && v == "mpi_shared_memory"))
}

/// Names given with `MPI_Comm_set_name` (world and self have default names).
static NAMES: Mutex<BTreeMap<MPI_Comm, Vec<u8>>> = Mutex::new(BTreeMap::new());

fn name_of(h: MPI_Comm) -> Vec<u8> {
    match (NAMES.lock().get(&h), h) {
        (Some(n), _) => n.clone(),
        (None, MPI_COMM_WORLD) => b"MPI_COMM_WORLD".to_vec(),
        (None, MPI_COMM_SELF) => b"MPI_COMM_SELF".to_vec(),
        (None, MPI_COMM_NULL) => b"MPI_COMM_NULL".to_vec(),
        (None, _) => Vec::new(),
    }
}

fn write_int(out: *mut c_int, name: &str, v: c_int) -> Result<()> {
    non_null(out, name)?;
    // SAFETY: checked for NULL; writable per the MPI contract.
    unsafe { out.write(v) };
    Ok(())
}

fn store_new(parent: MPI_Comm, newcomm: *mut MPI_Comm, c: Option<nexar::Comm>) -> Result<()> {
    let h = match c {
        Some(c) => insert_comm(c, errhandler_of(parent))?,
        None => MPI_COMM_NULL,
    };
    // SAFETY: the caller checked `newcomm` for NULL.
    unsafe { newcomm.write(h) };
    Ok(())
}

/// Duplicates `parent` into `*newcomm` (checked for NULL by the caller), copying its
/// attributes through their copy callbacks; if one fails, the new communicator is freed.
fn dup_into(parent: MPI_Comm, newcomm: *mut MPI_Comm) -> Result<()> {
    let c = comm(parent)?.dup_blocking()?;
    let h = insert_comm(c, errhandler_of(parent))?;
    if let Err(e) = crate::comm::attr::copy_all(parent, h) {
        let _ = crate::comm::attr::delete_all(h);
        let _ = remove_comm(h);
        return Err(e);
    }
    crate::comm::info::copy_comm_hints(parent, h);
    crate::comm::topo::copy_topology(parent, h);
    // SAFETY: the caller checked `newcomm` for NULL.
    unsafe { newcomm.write(h) };
    Ok(())
}

/// [`dup_into`], then the hints of `info` (checked first) replace the copied ones.
fn dup_with_info(parent: MPI_Comm, info: MPI_Info, newcomm: *mut MPI_Comm) -> Result<()> {
    crate::comm::info::pairs_or_empty(info)?;
    dup_into(parent, newcomm)?;
    // SAFETY: written by dup_into.
    crate::comm::info::set_comm_hints(unsafe { newcomm.read() }, info)
}

/// The ranks in `c` of the world ranks `g` (in `g`'s order); `MPI_ERR_GROUP` for one that is
/// not in `c`.
fn ranks_in_comm(c: &nexar::Comm, g: &[u32]) -> Result<Vec<u32>> {
    let index: HashMap<u32, u32> = comm_members(c)?
        .into_iter()
        .enumerate()
        .map(|(i, w)| (w, i as u32))
        .collect();
    g.iter()
        .map(|w| {
            index.get(w).copied().ok_or_else(|| {
                MpiError::new(
                    MPI_ERR_GROUP,
                    format!("group member (world rank {w}) is not in the communicator"),
                )
            })
        })
        .collect()
}

/// The member-only communicator of `ranks` (of `c`, handle `h`) into `*newcomm`;
/// `MPI_COMM_NULL` for an empty group or a non-member.
fn create_on(
    h: MPI_Comm,
    c: &nexar::Comm,
    ranks: &[u32],
    tag: u64,
    newcomm: *mut MPI_Comm,
) -> Result<()> {
    let new = if ranks.is_empty() {
        None
    } else {
        c.create_subset(ranks, tag)?
    };
    store_new(h, newcomm, new)
}

mpi_fn! {
    /// This process's rank in `comm`.
    fn MPI_Comm_rank(comm_h: MPI_Comm, rank: *mut c_int) -> c_int => PMPI_Comm_rank {
        call("MPI_Comm_rank", comm_h, || {
            non_null(rank, "rank")?;
            write_int(rank, "rank", comm(comm_h)?.rank() as c_int)
        })
    }

    /// The number of ranks in `comm`.
    fn MPI_Comm_size(comm_h: MPI_Comm, size: *mut c_int) -> c_int => PMPI_Comm_size {
        call("MPI_Comm_size", comm_h, || {
            non_null(size, "size")?;
            write_int(size, "size", comm(comm_h)?.size() as c_int)
        })
    }

    /// Duplicates `comm` (collective): same ranks, separate traffic, same error handler, and
    /// its attributes copied through their copy callbacks.
    fn MPI_Comm_dup(comm_h: MPI_Comm, newcomm: *mut MPI_Comm) -> c_int => PMPI_Comm_dup {
        call("MPI_Comm_dup", comm_h, || {
            non_null(newcomm, "newcomm")?;
            dup_into(comm_h, newcomm)
        })
    }

    /// Splits `comm` by `color` (collective), ranks ordered by `key`; `MPI_UNDEFINED` gives
    /// `MPI_COMM_NULL`. The new communicators inherit `comm`'s error handler. On an
    /// intercommunicator, the parts of one color in both groups form an intercommunicator
    /// (`MPI_COMM_NULL` where the other group lacks the color).
    fn MPI_Comm_split(comm_h: MPI_Comm, color: c_int, key: c_int, newcomm: *mut MPI_Comm) -> c_int
        => PMPI_Comm_split
    {
        call("MPI_Comm_split", comm_h, || {
            non_null(newcomm, "newcomm")?;
            let c = comm(comm_h)?;
            let color = match color {
                MPI_UNDEFINED => None,
                c if c >= 0 => Some(c as u32),
                c => return Err(MpiError::new(MPI_ERR_ARG, format!("color {c} is negative"))),
            };
            store_new(comm_h, newcomm, c.split_blocking(color, key)?)
        })
    }

    /// Frees a user communicator and sets `*comm` to `MPI_COMM_NULL`.
    fn MPI_Comm_free(comm_p: *mut MPI_Comm) -> c_int => PMPI_Comm_free {
        // SAFETY: read only when not NULL.
        let h = if comm_p.is_null() { MPI_COMM_WORLD } else { unsafe { comm_p.read() } };
        call("MPI_Comm_free", h, || free_comm(h, comm_p))
    }

    /// Disconnects from a user communicator and frees it, setting `*comm` to `MPI_COMM_NULL`.
    /// Collective over every member (both groups of an intercommunicator): it returns once all
    /// of them have called it; by then everything sent on the communicator has been
    /// transmitted (nexar copies messages out when they are sent), and requests still pending
    /// on it stay valid. When no other communicator connects a spawning group and the
    /// processes it spawned, the two part: the spawned world is closed on the spawning side
    /// and each side finalizes without waiting for the other. Blocking, thread-safe. Errors: `MPI_ERR_ARG` (NULL), `MPI_ERR_COMM` (invalid
    /// or predefined communicator), `MPIX_ERR_PROC_FAILED` (a member failed).
    fn MPI_Comm_disconnect(comm_p: *mut MPI_Comm) -> c_int => PMPI_Comm_disconnect {
        // SAFETY: read only when not NULL.
        let h = if comm_p.is_null() { MPI_COMM_WORLD } else { unsafe { comm_p.read() } };
        call("MPI_Comm_disconnect", h, || {
            non_null(comm_p, "comm")?;
            if matches!(h, MPI_COMM_WORLD | MPI_COMM_SELF) {
                return Err(MpiError::new(
                    MPI_ERR_COMM,
                    "a predefined communicator cannot be disconnected (MPI_Finalize releases it)",
                ));
            }
            let c = comm(h)?;
            use crate::coll::blocking::Complete;
            crate::coll::blocking::barrier(&c, nexar::Mode::Blocking)?.complete()?;
            free_comm(h, comm_p)?;
            with_running(|r| {
                crate::comm::spawn::part_after_disconnect(r, &c);
                Ok(())
            })
        })
    }

    /// `MPI_IDENT` (same handle), `MPI_CONGRUENT` (same members in the same order),
    /// `MPI_SIMILAR` (same members) or `MPI_UNEQUAL`. Local.
    fn MPI_Comm_compare(comm1: MPI_Comm, comm2: MPI_Comm, result: *mut c_int) -> c_int
        => PMPI_Comm_compare
    {
        call("MPI_Comm_compare", comm1, || {
            non_null(result, "result")?;
            let (a, b) = (comm(comm1)?, comm(comm2)?);
            let r = if comm1 == comm2 {
                MPI_IDENT
            } else if a.is_inter() || b.is_inter() {
                crate::comm::intercomm::compare_inter(&a, &b)?
            } else {
                match compare(&comm_members(&a)?, &comm_members(&b)?) {
                    MPI_IDENT => MPI_CONGRUENT,
                    r => r,
                }
            };
            write_int(result, "result", r)
        })
    }

    /// A communicator of the members of `group` (a subgroup of `comm`, the same on every rank),
    /// ranked as in `group`; `MPI_COMM_NULL` on the other ranks. Called by every rank of
    /// `comm`; the members create it among themselves, with no message exchanged. On an
    /// intercommunicator `group` is a subgroup of the local group, and the result joins it to
    /// the subgroup the other side passed (`MPI_COMM_NULL` when either is empty).
    fn MPI_Comm_create(comm_h: MPI_Comm, group: MPI_Group, newcomm: *mut MPI_Comm) -> c_int
        => PMPI_Comm_create
    {
        call("MPI_Comm_create", comm_h, || {
            non_null(newcomm, "newcomm")?;
            let c = comm(comm_h)?;
            let g = members(group)?;
            let ranks = ranks_in_comm(&c, &g)?;
            if c.is_inter() {
                // `group` is a subgroup of the local group; the remote side passes its own.
                return store_new(comm_h, newcomm, c.inter_create_blocking(&g)?);
            }
            create_on(comm_h, &c, &ranks, CREATE_TAG, newcomm)
        })
    }

    /// A communicator of the members of `group` (a subgroup of `comm`), ranked as in `group`,
    /// created by the members alone (collective over `group` only). Creations that may run at
    /// once on `comm` must use distinct `tag`s; sequential ones may reuse one. A process not in
    /// `group` gets `MPI_COMM_NULL`.
    fn MPI_Comm_create_group(comm_h: MPI_Comm, group: MPI_Group, tag: c_int,
        newcomm: *mut MPI_Comm) -> c_int => PMPI_Comm_create_group
    {
        call("MPI_Comm_create_group", comm_h, || {
            non_null(newcomm, "newcomm")?;
            let c = comm(comm_h)?;
            let g = members(group)?;
            if tag < 0 {
                return Err(MpiError::new(MPI_ERR_TAG, format!("tag {tag} is negative")));
            }
            let ranks = ranks_in_comm(&c, &g)?;
            create_on(comm_h, &c, &ranks, tag as u64, newcomm)
        })
    }

    /// Starts a dup of `comm`: the new communicator is made at once (a dup exchanges no
    /// messages), so the request is complete; `*newcomm` is valid right away.
    fn MPI_Comm_idup(comm_h: MPI_Comm, newcomm: *mut MPI_Comm, request: *mut MPI_Request)
        -> c_int => PMPI_Comm_idup
    {
        call("MPI_Comm_idup", comm_h, || {
            non_null(newcomm, "newcomm")?;
            non_null(request, "request")?;
            dup_into(comm_h, newcomm)?;
            store_request(request, comm_h, nexar::Request::ready(Ok(None)))
        })
    }

    /// [`MPI_Comm_idup`] with the hints of `info` instead of `comm`'s.
    fn MPI_Comm_idup_with_info(comm_h: MPI_Comm, info: MPI_Info, newcomm: *mut MPI_Comm,
        request: *mut MPI_Request) -> c_int => PMPI_Comm_idup_with_info
    {
        call("MPI_Comm_idup_with_info", comm_h, || {
            non_null(newcomm, "newcomm")?;
            non_null(request, "request")?;
            dup_with_info(comm_h, info, newcomm)?;
            store_request(request, comm_h, nexar::Request::ready(Ok(None)))
        })
    }

    /// Splits `comm` by type (collective): `MPI_COMM_TYPE_SHARED`, and the hardware- or
    /// resource-guided types when `info` sets `mpi_hw_resource_type` to `mpi_shared_memory`,
    /// group the ranks on the same host, ordered by `key`; `MPI_UNDEFINED` gives
    /// `MPI_COMM_NULL`. Guided types naming another (unknown) resource, or none, give
    /// `MPI_COMM_NULL` as the standard says, and so does `MPI_COMM_TYPE_HW_UNGUIDED` (nexar
    /// knows no hardware level below the host, so there is no strictly smaller split). Every
    /// rank takes part in one split over `comm`, whatever type it passed.
    fn MPI_Comm_split_type(comm_h: MPI_Comm, split_type: c_int, key: c_int, info: MPI_Info,
        newcomm: *mut MPI_Comm) -> c_int => PMPI_Comm_split_type
    {
        call("MPI_Comm_split_type", comm_h, || {
            non_null(newcomm, "newcomm")?;
            let c = comm(comm_h)?;
            let by_host = match split_type {
                MPI_COMM_TYPE_SHARED => true,
                t if GUIDED_SPLIT_TYPES.contains(&t) => asks_shared_memory(info)?,
                MPI_UNDEFINED | MPI_COMM_TYPE_HW_UNGUIDED => false,
                t => return Err(MpiError::new(MPI_ERR_ARG, format!("invalid split_type {t}"))),
            };
            if by_host {
                store_new(comm_h, newcomm, Some(c.split_by_host_blocking(key)?))
            } else {
                // The engine's split by host is one split over `comm`; a rank that is in none
                // takes part with no color.
                store_new(comm_h, newcomm, c.split_blocking(None, key)?)
            }
        })
    }

    /// [`MPI_Comm_dup`] with the hints of `info` instead of `comm`'s.
    fn MPI_Comm_dup_with_info(comm_h: MPI_Comm, info: MPI_Info, newcomm: *mut MPI_Comm) -> c_int
        => PMPI_Comm_dup_with_info
    {
        call("MPI_Comm_dup_with_info", comm_h, || {
            non_null(newcomm, "newcomm")?;
            dup_with_info(comm_h, info, newcomm)
        })
    }

    /// Names `comm` (local); names longer than `MPI_MAX_OBJECT_NAME - 1` bytes are truncated.
    fn MPI_Comm_set_name(comm_h: MPI_Comm, comm_name: *const c_char) -> c_int
        => PMPI_Comm_set_name
    {
        call("MPI_Comm_set_name", comm_h, || {
            non_null(comm_name, "comm_name")?;
            comm(comm_h)?;
            // SAFETY: non-NULL, NUL-terminated per the MPI contract.
            let bytes = unsafe { std::ffi::CStr::from_ptr(comm_name) }.to_bytes();
            let bytes = &bytes[..bytes.len().min(MPI_MAX_OBJECT_NAME - 1)];
            NAMES.lock().insert(comm_h, bytes.to_vec());
            Ok(())
        })
    }

    /// `comm`'s name ("" if none was given; "MPI_COMM_WORLD" / "MPI_COMM_SELF" /
    /// "MPI_COMM_NULL" by default),
    /// NUL-terminated, into a buffer of `MPI_MAX_OBJECT_NAME` bytes.
    fn MPI_Comm_get_name(comm_h: MPI_Comm, comm_name: *mut c_char, resultlen: *mut c_int)
        -> c_int => PMPI_Comm_get_name
    {
        call("MPI_Comm_get_name", comm_h, || {
            non_null(comm_name, "comm_name")?;
            non_null(resultlen, "resultlen")?;
            // MPI_COMM_NULL has the name "MPI_COMM_NULL" (as in MPICH; mpi4py tests it).
            if comm_h != MPI_COMM_NULL {
                comm(comm_h)?;
            }
            let name = name_of(comm_h);
            let b = &name[..name.len().min(MPI_MAX_OBJECT_NAME - 1)];
            // SAFETY: non-NULL; room for MPI_MAX_OBJECT_NAME bytes per the MPI contract.
            unsafe {
                std::ptr::copy_nonoverlapping(b.as_ptr(), comm_name.cast::<u8>(), b.len());
                comm_name.add(b.len()).write(0);
            }
            write_int(resultlen, "resultlen", b.len() as c_int)
        })
    }
}

/// Frees communicator `h` (attributes deleted, name, hints and topology dropped) and writes
/// `MPI_COMM_NULL` to `comm_p` (`MPI_Comm_free`, and `MPI_Comm_disconnect` after its barrier).
fn free_comm(h: MPI_Comm, comm_p: *mut MPI_Comm) -> Result<()> {
    non_null(comm_p, "comm")?;
    if !matches!(h, MPI_COMM_WORLD | MPI_COMM_SELF) {
        comm(h)?;
        crate::comm::attr::delete_all(h)?;
    }
    remove_comm(h)?;
    with_running(|r| {
        crate::comm::spawn::forget_parent(r, h);
        Ok(())
    })?;
    NAMES.lock().remove(&h);
    crate::comm::info::drop_comm_hints(h);
    crate::session::forget_comm(h);
    crate::comm::topo::drop_topology(h);
    // SAFETY: checked for NULL.
    unsafe { comm_p.write(MPI_COMM_NULL) };
    Ok(())
}
