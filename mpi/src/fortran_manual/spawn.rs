//! `MPI_COMM_SPAWN` and `_MULTIPLE`: Fortran argument lists. See [`super`].

use crate::fortran_support::{self as fs, fortran_fn};
use crate::handles::*;
use std::ffi::{CString, c_char, c_int};
unsafe extern "C" {
    fn PMPI_Comm_rank(comm: usize, rank: *mut c_int) -> c_int;
    fn MPI_Comm_spawn(
        command: *const c_char,
        argv: *mut *mut c_char,
        maxprocs: c_int,
        info: usize,
        root: c_int,
        comm: usize,
        intercomm: *mut usize,
        errcodes: *mut c_int,
    ) -> c_int;
    fn PMPI_Comm_spawn(
        command: *const c_char,
        argv: *mut *mut c_char,
        maxprocs: c_int,
        info: usize,
        root: c_int,
        comm: usize,
        intercomm: *mut usize,
        errcodes: *mut c_int,
    ) -> c_int;
    fn MPI_Comm_spawn_multiple(
        count: c_int,
        commands: *mut *mut c_char,
        argvs: *mut *mut *mut c_char,
        maxprocs: *const c_int,
        infos: *const usize,
        root: c_int,
        comm: usize,
        intercomm: *mut usize,
        errcodes: *mut c_int,
    ) -> c_int;
    fn PMPI_Comm_spawn_multiple(
        count: c_int,
        commands: *mut *mut c_char,
        argvs: *mut *mut *mut c_char,
        maxprocs: *const c_int,
        infos: *const usize,
        root: c_int,
        comm: usize,
        intercomm: *mut usize,
        errcodes: *mut c_int,
    ) -> c_int;
}

/// Whether this process is rank `root` of `comm`: only the root's command arguments are read
/// (the others may pass anything).
fn at_root(comm: usize, root: c_int) -> bool {
    let mut me: c_int = -1;
    // SAFETY: a valid out-pointer; an invalid handle leaves `me` at -1 (the spawn reports it).
    unsafe { PMPI_Comm_rank(comm, &mut me) };
    me == root
}

/// A Fortran argument list: strings of `len` characters `stride` apart from `p`, up to the
/// first blank one (the end mark), as C strings.
///
/// # Safety
/// `p` holds the strings and the blank one after them.
unsafe fn argv_of(p: *const u8, len: usize, stride: usize) -> Vec<CString> {
    let mut out = Vec::new();
    loop {
        // SAFETY: the caller's contract: every string up to the blank one is readable.
        let s = unsafe { fs::string_in(p.add(out.len() * stride), len) };
        if s.as_bytes().is_empty() {
            return out;
        }
        out.push(s);
    }
}

/// C `argv` pointers (NULL-terminated) to `strings`, which must outlive them.
fn c_argv(strings: &[CString]) -> Vec<*mut c_char> {
    strings
        .iter()
        .map(|s| s.as_ptr().cast_mut())
        .chain(std::iter::once(std::ptr::null_mut()))
        .collect()
}

fortran_fn! {
    /// Fortran binding of `MPI_Comm_spawn`: `(COMMAND, ARGV, MAXPROCS, INFO, ROOT, COMM,
    /// INTERCOMM, ARRAY_OF_ERRCODES, IERROR)` with the two CHARACTER lengths hidden at the end;
    /// `ARGV` ends with a blank string, or is `MPI_ARGV_NULL`.
    mpi_comm_spawn_ / pmpi_comm_spawn_ => MPI_Comm_spawn / PMPI_Comm_spawn,
    |c| (command: *const u8, argv: *const u8, maxprocs: *const c_int, info: *const c_int,
         root: *const c_int, comm: *const c_int, intercomm: *mut c_int, errcodes: *mut c_int,
         ierror: *mut c_int, command_len: usize, argv_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            spawn_one(c, command, argv, maxprocs, info, root, comm, intercomm, errcodes, ierror,
                command_len, argv_len)
        }
    }
}

/// The C `MPI_Comm_spawn` or its profiling twin.
type SpawnFn = unsafe extern "C" fn(
    *const c_char,
    *mut *mut c_char,
    c_int,
    usize,
    c_int,
    usize,
    *mut usize,
    *mut c_int,
) -> c_int;

/// The body of [`mpi_comm_spawn_`].
///
/// # Safety
/// The arguments are the Fortran caller's, valid as [`mpi_comm_spawn_`] states.
#[allow(clippy::too_many_arguments)]
unsafe fn spawn_one(
    c: SpawnFn,
    command: *const u8,
    argv: *const u8,
    maxprocs: *const c_int,
    info: *const c_int,
    root: *const c_int,
    comm: *const c_int,
    intercomm: *mut c_int,
    errcodes: *mut c_int,
    ierror: *mut c_int,
    command_len: usize,
    argv_len: usize,
) {
    // SAFETY: the caller's contract.
    unsafe {
        let (comm_c, root_v) = (PMPI_Comm_fromint(fs::get(comm)), fs::get(root));
        let cmd = fs::string_in(command, command_len);
        let args = if at_root(comm_c, root_v) && !argv.is_null() && !fs::is_argv_null(argv) {
            argv_of(argv, argv_len, argv_len)
        } else {
            Vec::new()
        };
        let mut ptrs = c_argv(&args);
        let argv_c = if args.is_empty() {
            std::ptr::null_mut()
        } else {
            ptrs.as_mut_ptr()
        };
        let mut ic: usize = 0;
        let rc = c(
            cmd.as_ptr(),
            argv_c,
            fs::get(maxprocs),
            PMPI_Info_fromint(fs::get(info)),
            root_v,
            comm_c,
            &mut ic,
            fs::int_array(errcodes),
        );
        if rc == 0 {
            fs::set(intercomm, PMPI_Comm_toint(ic));
        }
        fs::set(ierror, rc);
    }
}

fortran_fn! {
    /// Fortran binding of `MPI_Comm_spawn_multiple`: `(COUNT, ARRAY_OF_COMMANDS, ARRAY_OF_ARGV,
    /// ARRAY_OF_MAXPROCS, ARRAY_OF_INFO, ROOT, COMM, INTERCOMM, ARRAY_OF_ERRCODES, IERROR)` with
    /// the two CHARACTER lengths hidden at the end; `ARRAY_OF_ARGV(COUNT, *)` holds command `i`'s
    /// arguments in row `i`, each row ending with a blank string, or is `MPI_ARGVS_NULL`.
    mpi_comm_spawn_multiple_ / pmpi_comm_spawn_multiple_
        => MPI_Comm_spawn_multiple / PMPI_Comm_spawn_multiple,
    |c| (count: *const c_int, commands: *const u8, argvs: *const u8, maxprocs: *const c_int,
         infos: *const c_int, root: *const c_int, comm: *const c_int, intercomm: *mut c_int,
         errcodes: *mut c_int, ierror: *mut c_int, commands_len: usize, argv_len: usize) -> () {
        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.
        unsafe {
            spawn_many(c, count, commands, argvs, maxprocs, infos, root, comm, intercomm,
                errcodes, ierror, commands_len, argv_len)
        }
    }
}

/// The C `MPI_Comm_spawn_multiple` or its profiling twin.
type SpawnManyFn = unsafe extern "C" fn(
    c_int,
    *mut *mut c_char,
    *mut *mut *mut c_char,
    *const c_int,
    *const usize,
    c_int,
    usize,
    *mut usize,
    *mut c_int,
) -> c_int;

/// The body of [`mpi_comm_spawn_multiple_`]: at the root, the commands, argument rows and
/// infos become their C forms; elsewhere nothing is read but `COUNT`'s value.
///
/// # Safety
/// The arguments are the Fortran caller's, valid as [`mpi_comm_spawn_multiple_`] states.
#[allow(clippy::too_many_arguments)]
unsafe fn spawn_many(
    c: SpawnManyFn,
    count: *const c_int,
    commands: *const u8,
    argvs: *const u8,
    maxprocs: *const c_int,
    infos: *const c_int,
    root: *const c_int,
    comm: *const c_int,
    intercomm: *mut c_int,
    errcodes: *mut c_int,
    ierror: *mut c_int,
    commands_len: usize,
    argv_len: usize,
) {
    // SAFETY: the caller's contract.
    unsafe {
        let (comm_c, root_v, n) = (
            PMPI_Comm_fromint(fs::get(comm)),
            fs::get(root),
            fs::get(count),
        );
        let here = at_root(comm_c, root_v) && n > 0;
        let k = if here { n as usize } else { 0 };
        let cmds: Vec<CString> = (0..k)
            .map(|i| fs::string_in(commands.add(i * commands_len), commands_len))
            .collect();
        let mut cmd_ptrs: Vec<*mut c_char> = cmds.iter().map(|s| s.as_ptr().cast_mut()).collect();
        let no_args = argvs.is_null() || fs::is_argvs_null(argvs);
        // Row i of ARRAY_OF_ARGV(COUNT, *): element (i, j) is `(j * count + i) * len` in.
        let rows: Vec<Vec<CString>> = (0..k)
            .map(|i| {
                if no_args {
                    Vec::new()
                } else {
                    argv_of(argvs.add(i * argv_len), argv_len, k * argv_len)
                }
            })
            .collect();
        let mut row_ptrs: Vec<Vec<*mut c_char>> = rows.iter().map(|r| c_argv(r)).collect();
        let mut argv_c: Vec<*mut *mut c_char> =
            row_ptrs.iter_mut().map(|r| r.as_mut_ptr()).collect();
        let info_c: Vec<usize> = (0..k).map(|i| PMPI_Info_fromint(*infos.add(i))).collect();
        let mut ic: usize = 0;
        let rc = c(
            n,
            if here {
                cmd_ptrs.as_mut_ptr()
            } else {
                std::ptr::null_mut()
            },
            if here && !no_args {
                argv_c.as_mut_ptr()
            } else {
                std::ptr::null_mut()
            },
            maxprocs,
            if here {
                info_c.as_ptr()
            } else {
                std::ptr::null()
            },
            root_v,
            comm_c,
            &mut ic,
            fs::int_array(errcodes),
        );
        if rc == 0 {
            fs::set(intercomm, PMPI_Comm_toint(ic));
        }
        fs::set(ierror, rc);
    }
}
