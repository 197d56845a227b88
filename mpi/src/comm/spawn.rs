//! Dynamic processes (MPI 4.1 §11.8): `MPI_Comm_spawn`, `MPI_Comm_spawn_multiple`,
//! `MPI_Comm_get_parent`, and what `MPI_Comm_disconnect` does for them.
//!
//! The engine does the work ([`nexar::Context::spawn`]): the spawning communicator's members
//! and the new processes form a new world, and each side gets an intercommunicator to the
//! other. Here: the root's arguments (commands, argv, counts, the `wdir` and `path` info keys)
//! become processes started with the environment the engine hands out, plus `NEXAR_APPNUM`
//! (their `MPI_APPNUM`); a spawned process's `MPI_COMM_WORLD` is its own group and
//! `MPI_Comm_get_parent` the intercommunicator to its parents ([`join_as_child`]). The spawning
//! side keeps the new world until the program disconnects from it or finalizes
//! ([`Running::spawned`]).
//!
//! Children are started by the root's process directly (not through `mpiexec`), on its host,
//! with standard input from `/dev/null` and the root's standard output and error.

use crate::comm::communicator::MPI_Info;
use crate::comm::info::pairs_or_empty;
use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
use crate::state::{Running, comm, errhandler_of, insert_comm, with_running};
use nexar::{Comm, FinalSync, GrowPlan};
use std::ffi::{CStr, c_char, c_int};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::Ordering;

/// One command of a spawn: what the root starts `procs` times.
struct App {
    program: PathBuf,
    args: Vec<String>,
    procs: u32,
    wdir: Option<PathBuf>,
}

/// A C string argument, or `MPI_ERR_ARG` naming it.
///
/// # Safety
/// `p` is NULL or a NUL-terminated string.
unsafe fn string_arg(p: *const c_char, what: &str) -> Result<String> {
    non_null(p, what)?;
    // SAFETY: non-NULL and NUL-terminated per the caller.
    Ok(unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
}

/// The strings of a NULL-terminated `argv` (none for `MPI_ARGV_NULL`).
///
/// # Safety
/// `argv` is NULL or a NULL-terminated array of NUL-terminated strings.
unsafe fn argv_arg(argv: *const *mut c_char) -> Result<Vec<String>> {
    let mut out = Vec::new();
    if argv.is_null() {
        return Ok(out);
    }
    for i in 0.. {
        // SAFETY: the array is NULL-terminated per the caller; we stop at the NULL.
        let s = unsafe { argv.add(i).read() };
        if s.is_null() {
            break;
        }
        // SAFETY: each entry is a NUL-terminated string.
        out.push(unsafe { string_arg(s, "argv") }?);
    }
    Ok(out)
}

/// The program to run for `command`: through the info's `path` (a `:`-separated list of
/// directories) first; a name with a `/` relative to this process's directory; otherwise
/// through `PATH`, then this process's directory (as `mpiexec` finds `./app` named `app`).
fn resolve(command: &str, search: Option<&str>) -> Result<PathBuf> {
    let runnable = |p: &Path| {
        use std::os::unix::fs::PermissionsExt;
        p.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    let here = std::env::current_dir().unwrap_or_default();
    let dirs = search
        .into_iter()
        .flat_map(|s| s.split(':'))
        .map(PathBuf::from)
        .chain(
            if command.contains('/') {
                None
            } else {
                std::env::var_os("PATH").map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
            }
            .into_iter()
            .flatten(),
        );
    for d in dirs.chain([here.clone()]) {
        let p = here.join(d).join(command);
        if runnable(&p) {
            return Ok(p);
        }
    }
    Err(MpiError::new(
        MPI_ERR_SPAWN,
        format!("cannot spawn {command:?}: no such executable program"),
    ))
}

/// The root's commands, checked (only the root's arguments count).
///
/// # Safety
/// The pointers follow `MPI_Comm_spawn_multiple`'s contract for `count` commands.
unsafe fn apps_arg(
    count: c_int,
    commands: *const *mut c_char,
    argvs: *const *mut *mut c_char,
    maxprocs: *const c_int,
    infos: *const MPI_Info,
) -> Result<Vec<App>> {
    if count <= 0 {
        return Err(MpiError::new(
            MPI_ERR_ARG,
            format!("count is {count}: at least one command must be given"),
        ));
    }
    non_null(commands, "array_of_commands")?;
    non_null(maxprocs, "array_of_maxprocs")?;
    let mut apps = Vec::with_capacity(count as usize);
    for i in 0..count as usize {
        // SAFETY: `count` entries per the contract.
        let (command, procs) = unsafe { (commands.add(i).read(), maxprocs.add(i).read()) };
        // SAFETY: a NUL-terminated string per the contract.
        let command = unsafe { string_arg(command, "command") }?;
        if procs <= 0 {
            return Err(MpiError::new(
                MPI_ERR_ARG,
                format!("maxprocs is {procs} for {command:?}: it must be at least 1"),
            ));
        }
        let args = if argvs.is_null() {
            Vec::new()
        } else {
            // SAFETY: `count` entries, each MPI_ARGV_NULL or a NULL-terminated array.
            unsafe { argv_arg(argvs.add(i).read()) }?
        };
        let info = if infos.is_null() {
            MPI_INFO_NULL
        } else {
            // SAFETY: `count` entries per the contract.
            unsafe { infos.add(i).read() }
        };
        let pairs = pairs_or_empty(info)?;
        let key = |k: &str| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        let program = resolve(&command, key("path").as_deref())?;
        let wdir = key("wdir").map(PathBuf::from);
        if let Some(d) = wdir.as_ref().filter(|d| !d.is_dir()) {
            return Err(MpiError::new(
                MPI_ERR_SPAWN,
                format!(
                    "cannot spawn {command:?}: wdir {} is not a directory",
                    d.display()
                ),
            ));
        }
        apps.push(App {
            program,
            args,
            procs: procs as u32,
            wdir,
        });
    }
    Ok(apps)
}

/// Starts every new process of `plan` (in rank order: the first app's processes first), and a
/// thread that reaps them when they exit. Stops at the first that cannot start, killing the
/// ones already started.
fn start(apps: &[App], plan: &GrowPlan) -> nexar::Result<()> {
    // The app of each new process, in rank order.
    let appnums: Vec<usize> = apps
        .iter()
        .enumerate()
        .flat_map(|(k, a)| std::iter::repeat_n(k, a.procs as usize))
        .collect();
    let mut which = appnums.iter().copied();
    let children = plan.start_with(|n| {
        let appnum = which.next().unwrap_or(0);
        let app = &apps[appnum];
        let mut cmd = n.command(&app.program, &app.args);
        cmd.stdin(Stdio::null())
            .env("NEXAR_APPNUM", appnum.to_string());
        if let Some(d) = &app.wdir {
            cmd.current_dir(d);
        }
        cmd
    })?;
    // One waiter a child: a child that exits before the new world is connected (not an MPI
    // program, or one that failed at start) fails the spawn at once for every member; after
    // that, exits are only reaped.
    for (k, mut c) in children.into_iter().enumerate() {
        let abort = plan.abort.clone();
        let rank = plan.old_size as usize + k;
        let program = apps[appnums[k]].program.display().to_string();
        let waiter = std::thread::Builder::new()
            .name("nexar-spawn-reaper".into())
            .spawn(move || {
                if let Ok(status) = c.wait() {
                    abort.abort(format!(
                        "spawned process {program} (new rank {rank}) exited ({status}) before joining"
                    ));
                }
            });
        if let Err(e) = waiter {
            // The child runs on; it stays a zombie until this process exits.
            eprintln!("nexar MPI: no thread to reap a spawned process: {e}");
        }
    }
    Ok(())
}

/// A spawn's engine error in MPI terms: argument errors keep their class; failing to start or
/// join the new processes is `MPI_ERR_SPAWN`.
fn spawn_error(e: nexar::Error) -> MpiError {
    use nexar::ErrorKind as K;
    match e.kind() {
        K::InvalidArgument | K::InvalidComm | K::InvalidRank | K::ProcFailed | K::Revoked => {
            MpiError::from(e)
        }
        _ => MpiError::new(MPI_ERR_SPAWN, e.to_string()),
    }
}

/// The common body of both spawn calls: `apps` is the root's checked arguments (`None` on
/// other ranks, `Some(Err)` when the root's are wrong: every member then fails).
fn spawn(
    comm_h: MPI_Comm,
    root: c_int,
    apps: Option<Result<Vec<App>>>,
    intercomm: *mut MPI_Comm,
) -> Result<u32> {
    non_null(intercomm, "intercomm")?;
    let c = comm(comm_h)?;
    if c.is_inter() {
        return Err(MpiError::new(
            MPI_ERR_COMM,
            "spawning needs an intracommunicator",
        ));
    }
    let root = root_arg(root, &c)?;
    // The root's bad arguments still go through the engine's announcement (with a
    // placeholder count), so the other members fail too instead of waiting.
    let (apps, add, bad) = match apps {
        Some(Ok(a)) => {
            let add = a.iter().map(|a| a.procs).sum();
            (a, add, None)
        }
        Some(Err(e)) => (Vec::new(), 1, Some(e)),
        None => (Vec::new(), 0, None),
    };
    let spawned = with_running(|r| {
        Ok(r.context_of(&c)?.spawn(&c, root, add, |plan| match &bad {
            Some(e) => Err(nexar::Error::new(
                nexar::ErrorKind::InvalidArgument,
                e.message.clone(),
            )),
            None => start(&apps, plan),
        }))
    })?;
    let spawned = match (spawned, bad) {
        (Err(_), Some(e)) => return Err(e),
        (r, _) => r.map_err(spawn_error)?,
    };
    let remote = spawned.inter.remote_size().unwrap_or(0);
    crate::comm::group::register_world(spawned.inter.world_id(), &spawned.origins);
    let h = insert_comm(spawned.inter, errhandler_of(comm_h))?;
    with_running(|r| {
        r.spawned.lock().push(std::sync::Arc::new(spawned.world));
        Ok(())
    })?;
    // SAFETY: checked for NULL.
    unsafe { intercomm.write(h) };
    Ok(remote)
}

/// A root argument checked against `c`'s size, or `MPI_ERR_ROOT`.
pub(crate) fn root_arg(root: c_int, c: &Comm) -> Result<u32> {
    if root < 0 || root as u32 >= c.size() {
        return Err(MpiError::new(
            MPI_ERR_ROOT,
            format!(
                "root {root} is not a rank of a communicator of {}",
                c.size()
            ),
        ));
    }
    Ok(root as u32)
}

/// Writes `MPI_SUCCESS` to the first `n` entries of `errcodes` unless it is
/// `MPI_ERRCODES_IGNORE` (NULL): on every member, as MPICH does (mpi4py checks them there).
fn success_codes(errcodes: *mut c_int, n: u32) {
    if errcodes.is_null() {
        return;
    }
    for i in 0..n as usize {
        // SAFETY: MPI requires room for one code per started process.
        unsafe { errcodes.add(i).write(MPI_SUCCESS) };
    }
}

/// For a process started by a spawn (called once, at `MPI_Init`): its group's communicator,
/// which becomes its `MPI_COMM_WORLD`, and the intercommunicator `MPI_Comm_get_parent`
/// returns; `None` for any other process. Collective over the processes started together.
/// Seeds the process ids of groups either way (see [`crate::comm::group`]).
pub fn join_as_child(ctx: &nexar::Context) -> Result<Option<(Comm, Comm)>> {
    match ctx.spawned().map_err(spawn_error)? {
        Some((group, inter, origins)) => {
            crate::comm::group::seed_ids(origins.into_iter());
            Ok(Some((group, inter)))
        }
        None => {
            let world = ctx.origin().world;
            crate::comm::group::seed_ids((0..ctx.size()).map(|rank| nexar::Origin { world, rank }));
            Ok(None)
        }
    }
}

/// Whether `c` reaches across the boundary of a spawned process's world: a member (local or
/// remote) among the first `parents` world ranks, its parents.
fn reaches_parents(c: &Comm, parents: u32) -> bool {
    let local = (0..c.size()).filter_map(|r| c.world_rank_of(r).ok());
    let remote = (0..c.remote_size().unwrap_or(0)).filter_map(|r| c.remote_world_rank_of(r).ok());
    local.chain(remote).any(|w| w < parents)
}

/// After `MPI_Comm_disconnect` freed `c`: if nothing else connects this process to the other
/// side of a spawn, the two sides part. The spawning side closes the spawned world (no final
/// barrier: the disconnect's barrier was the last step together); a spawned process's final
/// barrier then covers its own group only, and `MPI_Comm_get_parent` returns `MPI_COMM_NULL`.
pub fn part_after_disconnect(r: &Running, c: &Comm) {
    let mut spawned = r.spawned.lock();
    if let Some(i) = spawned.iter().position(|w| w.owns(c)) {
        let still = r.comms.lock().values().any(|e| spawned[i].owns(&e.comm));
        if !still {
            let w = spawned.swap_remove(i);
            drop(spawned);
            crate::comm::group::forget_world(w.world().world_id());
            w.set_final_sync(FinalSync::Nobody);
            drop(w);
        }
        return;
    }
    drop(spawned);
    if let Some(n) = r.ctx.parents().filter(|&n| reaches_parents(c, n)) {
        let still = r.comms.lock().values().any(|e| reaches_parents(&e.comm, n));
        if !still {
            r.ctx.set_final_sync(FinalSync::Group(r.world_comm.clone()));
        }
    }
}

/// Forgets the parent handle when the program frees or disconnects it.
pub fn forget_parent(r: &Running, h: MPI_Comm) {
    let _ = r
        .parent
        .compare_exchange(h, MPI_COMM_NULL, Ordering::AcqRel, Ordering::Acquire);
}

mpi_fn! {
    /// Starts `maxprocs` copies of `command` with arguments `argv` (`MPI_ARGV_NULL` for none)
    /// and returns an intercommunicator to them: collective over `comm`; `command`, `argv`,
    /// `maxprocs` and `info` count at `root` only. Info keys: `wdir` (the new processes'
    /// working directory) and `path` (`:`-separated directories to find `command` in);
    /// others are ignored. The new processes run on the root's host, started by the root's
    /// process; their `MPI_COMM_WORLD` holds them alone, `MPI_Comm_get_parent` gives the
    /// intercommunicator back, and `MPI_APPNUM` is 0. nexar starts all of them or none, so
    /// `array_of_errcodes` (unless `MPI_ERRCODES_IGNORE`) is all `MPI_SUCCESS` on success, on
    /// every member (room for one code per new process).
    /// Blocking until the new processes joined (`NEXAR_CONNECT_TIMEOUT_MS` at most).
    /// Thread-safe. Errors: `MPI_ERR_SPAWN` (no such program, it cannot start or never joins,
    /// on every member), `MPI_ERR_ARG` (NULL `command` or `intercomm`, `maxprocs` < 1 at the
    /// root), `MPI_ERR_ROOT`, `MPI_ERR_COMM`, `MPI_ERR_INFO`.
    fn MPI_Comm_spawn(command: *const c_char, argv: *mut *mut c_char, maxprocs: c_int,
        info: MPI_Info, root: c_int, comm_h: MPI_Comm, intercomm: *mut MPI_Comm,
        array_of_errcodes: *mut c_int) -> c_int => PMPI_Comm_spawn
    {
        call("MPI_Comm_spawn", comm_h, || {
            let me = comm(comm_h)?.rank();
            let apps = (root >= 0 && me == root as u32).then(|| {
                let commands = [command.cast_mut()];
                let argvs = [argv];
                // SAFETY: one command, per MPI_Comm_spawn's contract.
                unsafe { apps_arg(1, commands.as_ptr(), argvs.as_ptr(), &maxprocs, &info) }
            });
            let n = spawn(comm_h, root, apps, intercomm)?;
            success_codes(array_of_errcodes, n);
            Ok(())
        })
    }

    /// `MPI_Comm_spawn` of `count` commands at once (`array_of_argv` may be
    /// `MPI_ARGVS_NULL`, `array_of_info` entries `MPI_INFO_NULL`): one intercommunicator to
    /// all of them, ranked in command order; the processes of command `i` have `MPI_APPNUM`
    /// `i`. The arguments count at `root` only. Same blocking, threading and errors as
    /// `MPI_Comm_spawn` (`MPI_ERR_ARG` also for `count` < 1).
    fn MPI_Comm_spawn_multiple(count: c_int, array_of_commands: *mut *mut c_char,
        array_of_argv: *mut *mut *mut c_char, array_of_maxprocs: *const c_int,
        array_of_info: *const MPI_Info, root: c_int, comm_h: MPI_Comm,
        intercomm: *mut MPI_Comm, array_of_errcodes: *mut c_int) -> c_int
        => PMPI_Comm_spawn_multiple
    {
        call("MPI_Comm_spawn_multiple", comm_h, || {
            let me = comm(comm_h)?.rank();
            let apps = (root >= 0 && me == root as u32).then(|| {
                // SAFETY: per MPI_Comm_spawn_multiple's contract for `count` commands.
                unsafe {
                    apps_arg(count, array_of_commands, array_of_argv, array_of_maxprocs,
                        array_of_info)
                }
            });
            let n = spawn(comm_h, root, apps, intercomm)?;
            success_codes(array_of_errcodes, n);
            Ok(())
        })
    }

    /// The intercommunicator to the group that spawned this process (`MPI_Comm_spawn`), or
    /// `MPI_COMM_NULL` for a process started by the launcher, or once the program freed or
    /// disconnected it. Local, thread-safe. Errors: `MPI_ERR_ARG` (NULL `parent`).
    fn MPI_Comm_get_parent(parent: *mut MPI_Comm) -> c_int => PMPI_Comm_get_parent {
        call("MPI_Comm_get_parent", MPI_COMM_WORLD, || {
            non_null(parent, "parent")?;
            let h = with_running(|r| Ok(r.parent.load(Ordering::Acquire)))?;
            // SAFETY: checked for NULL; writable per the MPI contract.
            unsafe { parent.write(h) };
            Ok(())
        })
    }
}
