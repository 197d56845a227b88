//! Elastic growth from C: `nexar_grow` adds processes to a running job (see the Rust
//! `nexar::Context::grow` for the semantics). A grown world is a new world (its own epoch and
//! credentials) of the old ranks, in their order, followed by the new processes. The contexts
//! of grown worlds live here until `nexar_finalize`, which finalizes them (newest first) before
//! the original world.

use crate::boundary::{call, non_null, write_out};
use crate::lifecycle::{WORLD_HANDLE, insert_comm, with_running};
use crate::types::nexar_comm_t;
use nexar::{Context, Error, ErrorKind, Result};
use parking_lot::Mutex;
use std::ffi::{CStr, c_char, c_int};
use std::path::PathBuf;
use std::process::Child;

/// A grown world: its context, the handle its world communicator got, and the processes this
/// rank started for it (reaped without waiting at finalize).
struct Grown {
    handle: u64,
    ctx: Context,
    children: Vec<Child>,
}

static GROWN: Mutex<Vec<Grown>> = Mutex::new(Vec::new());

/// Copies a C string argument.
fn c_string(p: *const c_char, what: &str) -> Result<String> {
    non_null(p, what)?;
    // SAFETY: checked for NULL; the caller passes a NUL-terminated string.
    let s = unsafe { CStr::from_ptr(p) };
    s.to_str()
        .map(str::to_string)
        .map_err(|_| Error::invalid(format!("nexar_grow: {what} is not valid UTF-8")))
}

/// Copies a NULL-terminated argument vector (NULL: no arguments); at most 4096 entries.
fn c_args(argv: *const *const c_char) -> Result<Vec<String>> {
    let mut out = Vec::new();
    if argv.is_null() {
        return Ok(out);
    }
    for i in 0..4096 {
        // SAFETY: the caller passes an array terminated by NULL; we stop at the terminator.
        let p = unsafe { *argv.add(i) };
        if p.is_null() {
            return Ok(out);
        }
        out.push(c_string(p, &format!("argv[{i}]"))?);
    }
    Err(Error::invalid(
        "nexar_grow: argv has more than 4096 entries or lacks its NULL terminator",
    ))
}

/// Grows the world `world` (`NEXAR_COMM_WORLD`, or a communicator an earlier `nexar_grow`
/// returned) by `add` processes and writes the grown world's communicator to `*new_world`.
/// Rank 0 of `world` starts the `add` processes as `program argv[0] argv[1] ...` (`argv`: a
/// NULL-terminated list of arguments after the program name, as in `MPI_Comm_spawn`; NULL for
/// none), inheriting its environment plus the variables that place them in the grown world,
/// and its standard streams. They call `nexar_init` as usual and their `NEXAR_COMM_WORLD` is
/// the grown world. Old ranks keep their rank in the grown world; new processes get ranks
/// `size..size+add`. `program` and `argv` are read on rank 0 only (other ranks may pass
/// NULL).
///
/// Ownership: `*new_world` is a new communicator handle owned by the caller (free it with
/// `nexar_comm_free`; the grown world itself lives until `nexar_finalize`). `world` stays
/// valid and usable until `nexar_finalize`, which finalizes grown worlds first. The started
/// processes are not waited for.
/// Blocking: yes; collective over `world` (every member calls it with the same `add`), until
/// the grown world is connected or the connect timeout (`NEXAR_CONNECT_TIMEOUT_MS`) expires.
/// Thread safety: any thread, but one grow at a time per world.
/// Errors: `NEXAR_ERR_ARG` (`add` < 1, size overflow, NULL `new_world`, NULL or invalid
/// `program` / `argv` on rank 0), `NEXAR_ERR_COMM` (`world` is not a world), `NEXAR_ERR_BOOTSTRAP`
/// (a process could not be started, or did not arrive in time; on every old rank),
/// `NEXAR_ERR_NOT_INITIALIZED`, `NEXAR_ERR_FINALIZED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_grow(
    world: nexar_comm_t,
    add: c_int,
    program: *const c_char,
    argv: *const *const c_char,
    new_world: *mut nexar_comm_t,
) -> c_int {
    call("nexar_grow", || {
        non_null(new_world, "new_world")?;
        let add = u32::try_from(add)
            .ok()
            .filter(|&a| a > 0)
            .ok_or_else(|| Error::invalid(format!("nexar_grow: add={add} must be at least 1")))?;
        let mut children = Vec::new();
        let mut start = |plan: &nexar::GrowPlan| -> Result<()> {
            let program = PathBuf::from(c_string(program, "program")?);
            let args = c_args(argv)?;
            children = plan.spawn(&program, &args)?;
            Ok(())
        };
        let h = world as u64;
        let ctx = if h == WORLD_HANDLE {
            with_running(|r| r.ctx.grow(add, &mut start))?
        } else {
            // Holding the list while growing keeps this world alive; grows run one at a time.
            let grown = GROWN.lock();
            let Some(g) = grown.iter().find(|g| g.handle == h) else {
                return Err(Error::new(
                    ErrorKind::InvalidComm,
                    "nexar_grow: world must be NEXAR_COMM_WORLD or a world nexar_grow returned",
                ));
            };
            g.ctx.grow(add, &mut start)?
        };
        let handle = insert_comm(ctx.world().clone())?;
        GROWN.lock().push(Grown {
            handle: handle as u64,
            ctx,
            children,
        });
        // SAFETY: checked for NULL; the caller provides a writable handle.
        unsafe { write_out(new_world, handle) };
        Ok(())
    })
}

/// Finalizes the grown worlds, newest first (called by `nexar_finalize` before the original
/// world). Returns the first error.
pub(crate) fn finalize_grown() -> Result<()> {
    let mut grown = std::mem::take(&mut *GROWN.lock());
    let mut result = Ok(());
    while let Some(mut g) = grown.pop() {
        let r = g.ctx.finalize();
        if result.is_ok() {
            result = r;
        }
        for c in &mut g.children {
            let _ = c.try_wait();
        }
    }
    result
}
