//! Window creation and release: `MPI_Win_create`, `MPI_Win_allocate`,
//! `MPI_Win_allocate_shared`, `MPI_Win_create_dynamic` (and their `_c` forms),
//! `MPI_Win_shared_query(_c)`, `MPI_Win_attach`, `MPI_Win_detach`, `MPI_Win_free`.
//!
//! Creation is collective over the communicator and fails on every member alike (an
//! unsupported communicator, one spanning hosts, gives `MPI_ERR_UNSUPPORTED_OPERATION`).
//! `MPI_Win_allocate_shared` memory is contiguous across ranks unless the info key
//! `alloc_shared_noncontig` is `true` (each rank's memory then starts on a page);
//! `MPI_Win_allocate` memory is loadable by the other ranks of the host too, so
//! `MPI_Win_shared_query` answers for both; for the other flavors it gives size 0 and NULL.

use super::{Fixed, MPI_Win, WinEntry, call, insert, remove, win};
use crate::comm::communicator::MPI_Info;
use crate::consts::*;
use crate::errors::report::{MpiError, Result, non_null};
use crate::state::comm;
use nexar::rma::{Exposed, Flavor};
use std::ffi::{c_int, c_void};

/// `MPI_WIN_FLAVOR_*` and `MPI_WIN_UNIFIED`.
const MPI_WIN_FLAVOR_CREATE: c_int = 311;
const MPI_WIN_FLAVOR_ALLOCATE: c_int = 312;
const MPI_WIN_FLAVOR_DYNAMIC: c_int = 313;
const MPI_WIN_FLAVOR_SHARED: c_int = 314;
const MPI_WIN_UNIFIED: c_int = 321;

fn flavor_code(f: Flavor) -> c_int {
    match f {
        Flavor::Create => MPI_WIN_FLAVOR_CREATE,
        Flavor::Allocate => MPI_WIN_FLAVOR_ALLOCATE,
        Flavor::Shared => MPI_WIN_FLAVOR_SHARED,
        Flavor::Dynamic => MPI_WIN_FLAVOR_DYNAMIC,
    }
}

/// Checks the arguments, creates the window and writes its handle to `out` (and, for the
/// allocating flavors, its memory's address to `*baseptr`).
#[allow(clippy::too_many_arguments)]
fn create(
    flavor: Flavor,
    base: *mut c_void,
    size: MPI_Aint,
    disp_unit: MPI_Aint,
    info: MPI_Info,
    comm_h: MPI_Comm,
    baseptr: *mut c_void,
    out: *mut MPI_Win,
) -> Result<()> {
    non_null(out, "win")?;
    if matches!(flavor, Flavor::Allocate | Flavor::Shared) {
        non_null(baseptr, "baseptr")?;
    }
    let c = comm(comm_h)?;
    if size < 0 {
        return Err(MpiError::new(
            MPI_ERR_SIZE,
            format!("window size {size} is negative"),
        ));
    }
    if disp_unit <= 0 || disp_unit > c_int::MAX as MPI_Aint {
        return Err(MpiError::new(
            MPI_ERR_DISP,
            format!("displacement unit {disp_unit} is not a positive int"),
        ));
    }
    if flavor == Flavor::Create && size > 0 && base.is_null() {
        return Err(MpiError::new(
            MPI_ERR_ARG,
            format!("window base is NULL with size {size}"),
        ));
    }
    let hints = crate::comm::info::pairs_or_empty(info)?;
    let noncontig = hints
        .iter()
        .any(|(k, v)| k == "alloc_shared_noncontig" && v.trim().eq_ignore_ascii_case("true"));
    let w = c.win_create(
        flavor,
        Exposed {
            base: base.cast(),
            size: size as usize,
            disp_unit: disp_unit as usize,
            noncontig,
        },
    )?;
    let (mem, size, disp_unit) = w.local();
    let h = insert(WinEntry {
        win: w.clone(),
        errhandler: MPI_ERRORS_ARE_FATAL,
        name: Vec::new(),
        info: hints,
        fixed: Box::new(Fixed {
            base: mem as usize,
            size: size as MPI_Aint,
            disp_unit: disp_unit as c_int,
            flavor: flavor_code(flavor),
            model: MPI_WIN_UNIFIED,
        }),
    })?;
    // SAFETY: checked for NULL; `baseptr` is really a `void **` (MPI's "address of a pointer").
    unsafe {
        if matches!(flavor, Flavor::Allocate | Flavor::Shared) {
            baseptr.cast::<*mut c_void>().write(mem.cast());
        }
        out.write(h);
    }
    Ok(())
}

/// `MPI_Win_shared_query`: member `rank`'s memory (`MPI_PROC_NULL`: the lowest-ranked member
/// with memory) as this process addresses it; NULL and 0 bytes where it cannot (another host).
fn shared_query(
    h: MPI_Win,
    rank: c_int,
    size: *mut MPI_Aint,
    disp_unit: *mut MPI_Aint,
    baseptr: *mut c_void,
) -> Result<()> {
    non_null(size, "size")?;
    non_null(disp_unit, "disp_unit")?;
    non_null(baseptr, "baseptr")?;
    let w = win(h)?;
    let n = w.comm().size();
    let answer = match crate::args::dest_rank(rank, n, "shared-query")? {
        Some(r) => w.shared_query(r)?,
        None => match (0..n).find(|&r| w.size_of(r).is_ok_and(|s| s > 0)) {
            Some(r) => w.shared_query(r)?,
            None => None,
        },
    };
    let (p, s, u) = answer.unwrap_or((std::ptr::null_mut(), 0, 1));
    // SAFETY: all checked for NULL; `baseptr` is a `void **`.
    unsafe {
        size.write(s as MPI_Aint);
        disp_unit.write(u as MPI_Aint);
        baseptr.cast::<*mut c_void>().write(p.cast());
    }
    Ok(())
}

mpi_fn! {
    /// Creates a window over `size` bytes at `base` of every member (collective). Peers
    /// reach the memory with cross-memory attach.
    fn MPI_Win_create(base: *mut c_void, size: MPI_Aint, disp_unit: c_int, info: MPI_Info,
        comm: MPI_Comm, win: *mut MPI_Win) -> c_int => PMPI_Win_create
    {
        crate::errors::report::call("MPI_Win_create", comm, || {
            create(Flavor::Create, base, size, disp_unit as MPI_Aint, info, comm,
                std::ptr::null_mut(), win)
        })
    }

    /// [`MPI_Win_create`] with an `MPI_Aint` displacement unit.
    fn MPI_Win_create_c(base: *mut c_void, size: MPI_Aint, disp_unit: MPI_Aint, info: MPI_Info,
        comm: MPI_Comm, win: *mut MPI_Win) -> c_int => PMPI_Win_create_c
    {
        crate::errors::report::call("MPI_Win_create_c", comm, || {
            create(Flavor::Create, base, size, disp_unit, info, comm, std::ptr::null_mut(), win)
        })
    }

    /// Allocates `size` bytes of window memory on every member (collective), in shared memory
    /// that every member of the host can also load and store (see `MPI_Win_shared_query`);
    /// `*(void **)baseptr` receives its address.
    fn MPI_Win_allocate(size: MPI_Aint, disp_unit: c_int, info: MPI_Info, comm: MPI_Comm,
        baseptr: *mut c_void, win: *mut MPI_Win) -> c_int => PMPI_Win_allocate
    {
        crate::errors::report::call("MPI_Win_allocate", comm, || {
            create(Flavor::Allocate, std::ptr::null_mut(), size, disp_unit as MPI_Aint, info,
                comm, baseptr, win)
        })
    }

    /// [`MPI_Win_allocate`] with an `MPI_Aint` displacement unit.
    fn MPI_Win_allocate_c(size: MPI_Aint, disp_unit: MPI_Aint, info: MPI_Info, comm: MPI_Comm,
        baseptr: *mut c_void, win: *mut MPI_Win) -> c_int => PMPI_Win_allocate_c
    {
        crate::errors::report::call("MPI_Win_allocate_c", comm, || {
            create(Flavor::Allocate, std::ptr::null_mut(), size, disp_unit, info, comm,
                baseptr, win)
        })
    }

    /// Allocates shared window memory (collective): contiguous across ranks unless the info
    /// key `alloc_shared_noncontig` is `true`.
    fn MPI_Win_allocate_shared(size: MPI_Aint, disp_unit: c_int, info: MPI_Info,
        comm: MPI_Comm, baseptr: *mut c_void, win: *mut MPI_Win) -> c_int
        => PMPI_Win_allocate_shared
    {
        crate::errors::report::call("MPI_Win_allocate_shared", comm, || {
            create(Flavor::Shared, std::ptr::null_mut(), size, disp_unit as MPI_Aint, info,
                comm, baseptr, win)
        })
    }

    /// [`MPI_Win_allocate_shared`] with an `MPI_Aint` displacement unit.
    fn MPI_Win_allocate_shared_c(size: MPI_Aint, disp_unit: MPI_Aint, info: MPI_Info,
        comm: MPI_Comm, baseptr: *mut c_void, win: *mut MPI_Win) -> c_int
        => PMPI_Win_allocate_shared_c
    {
        crate::errors::report::call("MPI_Win_allocate_shared_c", comm, || {
            create(Flavor::Shared, std::ptr::null_mut(), size, disp_unit, info, comm, baseptr,
                win)
        })
    }

    /// Creates a window without memory (collective); memory is attached with
    /// `MPI_Win_attach` and addressed by absolute address (`MPI_Get_address`).
    fn MPI_Win_create_dynamic(info: MPI_Info, comm: MPI_Comm, win: *mut MPI_Win) -> c_int
        => PMPI_Win_create_dynamic
    {
        crate::errors::report::call("MPI_Win_create_dynamic", comm, || {
            create(Flavor::Dynamic, std::ptr::null_mut(), 0, 1, info, comm,
                std::ptr::null_mut(), win)
        })
    }

    /// Member `rank`'s memory in a shared or allocated window, as this process addresses it:
    /// size, displacement unit and `*(void **)baseptr`; size 0 and NULL for other flavors.
    fn MPI_Win_shared_query(win: MPI_Win, rank: c_int, size: *mut MPI_Aint,
        disp_unit: *mut c_int, baseptr: *mut c_void) -> c_int => PMPI_Win_shared_query
    {
        call("MPI_Win_shared_query", win, || {
            non_null(disp_unit, "disp_unit")?;
            let mut unit: MPI_Aint = 0;
            shared_query(win, rank, size, &raw mut unit, baseptr)?;
            // SAFETY: checked for NULL.
            unsafe { disp_unit.write(unit as c_int) };
            Ok(())
        })
    }

    /// [`MPI_Win_shared_query`] with an `MPI_Aint` displacement unit.
    fn MPI_Win_shared_query_c(win: MPI_Win, rank: c_int, size: *mut MPI_Aint,
        disp_unit: *mut MPI_Aint, baseptr: *mut c_void) -> c_int => PMPI_Win_shared_query_c
    {
        call("MPI_Win_shared_query_c", win, || shared_query(win, rank, size, disp_unit, baseptr))
    }

    /// Attaches `size` bytes at `base` to dynamic window `win` (local).
    fn MPI_Win_attach(win: MPI_Win, base: *mut c_void, size: MPI_Aint) -> c_int
        => PMPI_Win_attach
    {
        call("MPI_Win_attach", win, || {
            let w = super::win(win)?;
            if w.flavor() != Flavor::Dynamic {
                return Err(MpiError::new(MPI_ERR_RMA_FLAVOR,
                    "MPI_Win_attach needs a window made by MPI_Win_create_dynamic"));
            }
            if size < 0 {
                return Err(MpiError::new(MPI_ERR_SIZE, format!("size {size} is negative")));
            }
            if size > 0 && base.is_null() {
                return Err(MpiError::new(MPI_ERR_ARG, "base is NULL"));
            }
            Ok(w.attach(base.cast(), size as usize)?)
        })
    }

    /// Detaches the memory attached at `base` from dynamic window `win` (local).
    fn MPI_Win_detach(win: MPI_Win, base: *const c_void) -> c_int => PMPI_Win_detach {
        call("MPI_Win_detach", win, || {
            let w = super::win(win)?;
            if w.flavor() != Flavor::Dynamic {
                return Err(MpiError::new(MPI_ERR_RMA_FLAVOR,
                    "MPI_Win_detach needs a window made by MPI_Win_create_dynamic"));
            }
            Ok(w.detach(base.cast())?)
        })
    }

    /// Frees `*win` (collective; no lock or PSCW epoch may be open here) after deleting its
    /// attributes, and sets `*win` to `MPI_WIN_NULL`.
    fn MPI_Win_free(win: *mut MPI_Win) -> c_int => PMPI_Win_free {
        let h = if win.is_null() { MPI_WIN_NULL } else {
            // SAFETY: checked for NULL.
            unsafe { win.read() }
        };
        call("MPI_Win_free", h, || {
            non_null(win, "win")?;
            let w = super::win(h)?;
            w.free()?;
            super::props::delete_all(h)?;
            remove(h)?;
            // SAFETY: checked for NULL.
            unsafe { win.write(MPI_WIN_NULL) };
            Ok(())
        })
    }
}
