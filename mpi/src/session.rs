//! Sessions (MPI 4): `MPI_Session_init` / `_finalize`, process sets (`mpi://WORLD`,
//! `mpi://SELF`), `MPI_Group_from_session_pset`, `MPI_Comm_create_from_group`, session info
//! and error handlers.
//!
//! A session is a handle with an error handler and a thread level; the engine underneath is
//! the process's one (`crate::init`): the first session starts it when `MPI_Init` has not,
//! `MPI_Init` after a session joins the same engine, and the engine ends with whichever of the
//! world model and the sessions ends last (a process that used sessions only leaves the job at
//! exit, as `MPI_Finalize` would). Communicators made from a session's groups are ordinary
//! communicators: `MPI_Comm_create_from_group` builds one over the group's members only
//! (collective over them, never over the rest of the job), keyed by the string tag.
//!
//! Errors of session functions go through the session's error handler (for `MPI_Session_init`
//! the one passed in; for `MPI_Comm_create_from_group` the one passed in).
//!
//! A session's buffered-send buffer (`MPI_Session_attach_buffer` ...) serves the communicators
//! `MPI_Comm_create_from_group` made from a group of one of its process sets (after the
//! communicator's own buffer, before the process's); groups derived from such a group, and
//! communicators derived from such a communicator, use the process's buffer.

use crate::comm::communicator::MPI_Info;
use crate::comm::group::{MPI_GROUP_EMPTY, MPI_Group, members, my_world_rank, new_group, rank_in};
use crate::comm::info::MPI_ERR_INFO_VALUE;
use crate::consts::*;
use crate::errors::report::{MpiError, Result, non_null, raise_with};
use crate::state::{comm, insert_comm, remove_comm, set_errhandler};
use crate::table::{Table, USER_HANDLES};
use nexar_bind::boundary::Report;
use parking_lot::Mutex;
use std::collections::BTreeMap;
use std::ffi::{CStr, c_char, c_int, c_void};

/// `MPI_Session` handle.
pub type MPI_Session = usize;

/// `MPI_Session_errhandler_function`: `void f(MPI_Session *session, int *error_code, ...)`
/// (the communicators' handler type: every handle is pointer-sized).
pub type SessionErrhandlerFn = crate::errors::handlers::CommErrhandlerFn;

/// `MPI_ERR_SESSION`: an invalid session handle.
pub const MPI_ERR_SESSION: c_int = 60;

/// The process sets every session offers, in `MPI_Session_get_nth_pset` order.
const PSETS: [&str; 2] = ["mpi://WORLD", "mpi://SELF"];

/// A live session.
struct Session {
    errhandler: MPI_Errhandler,
    thread_level: c_int,
}

static SESSIONS: Mutex<Table<Session>> = Mutex::new(Table::new(USER_HANDLES));

/// The session each live group made by `MPI_Group_from_session_pset` came from.
static GROUP_SESSION: Mutex<BTreeMap<MPI_Group, MPI_Session>> = Mutex::new(BTreeMap::new());
/// The session each live communicator made from such a group belongs to.
static COMM_SESSION: Mutex<BTreeMap<MPI_Comm, MPI_Session>> = Mutex::new(BTreeMap::new());

/// The session communicator `h` was made from, if any (its buffered sends may use the
/// session's buffer).
pub(crate) fn session_of_comm(h: MPI_Comm) -> Option<MPI_Session> {
    COMM_SESSION.lock().get(&h).copied()
}

/// Forgets group `h` (freed).
pub(crate) fn forget_group(h: MPI_Group) {
    GROUP_SESSION.lock().remove(&h);
}

/// Forgets communicator `h` (freed).
pub(crate) fn forget_comm(h: MPI_Comm) {
    COMM_SESSION.lock().remove(&h);
}

/// Whether `h` is a live session handle (for `MPI_Session_fromint`).
pub fn session_valid(h: usize) -> bool {
    h == MPI_SESSION_NULL || SESSIONS.lock().get(h).is_some()
}

/// Errors reported through error handler `.0` on the session (or communicator) handle `.1`.
struct OnHandler(MPI_Errhandler, usize);

impl Report for OnHandler {
    type Error = MpiError;
    const SUCCESS: c_int = MPI_SUCCESS;

    fn internal(&self, message: String) -> MpiError {
        MpiError::new(MPI_ERR_INTERN, message)
    }

    fn fail(&self, func: &str, e: MpiError) -> c_int {
        raise_with(func, self.0, self.1, e)
    }
}

/// Runs `f` as the body of `func`, whose errors belong to session `h` (an invalid handle's go
/// to `MPI_COMM_WORLD`'s handler, as the shim's other errors without an object do:
/// `MPI_ERRORS_ARE_FATAL` unless the program set another).
fn call(func: &str, h: MPI_Session, f: impl FnOnce() -> Result<()>) -> c_int {
    let handler = SESSIONS.lock().get(h).map(|s| s.errhandler);
    let handler = handler.unwrap_or_else(|| crate::state::errhandler_of(MPI_COMM_WORLD));
    nexar_bind::boundary::call(OnHandler(handler, h), func, f)
}

fn bad_session(h: MPI_Session) -> MpiError {
    if h == MPI_SESSION_NULL {
        MpiError::new(MPI_ERR_SESSION, "session is MPI_SESSION_NULL")
    } else {
        MpiError::new(
            MPI_ERR_SESSION,
            format!("invalid or finalized session {h:#x}"),
        )
    }
}

/// Runs `f` with live session `h`.
fn with_session<R>(h: MPI_Session, f: impl FnOnce(&mut Session) -> R) -> Result<R> {
    SESSIONS
        .lock()
        .get_mut(h)
        .map(f)
        .ok_or_else(|| bad_session(h))
}

/// Whether `e` is an error handler a session may have.
fn settable(e: MPI_Errhandler) -> Result<()> {
    let predefined = matches!(
        e,
        MPI_ERRORS_ARE_FATAL | MPI_ERRORS_RETURN | MPI_ERRORS_ABORT
    );
    if predefined || crate::errors::handlers::errhandler_live(e) {
        Ok(())
    } else {
        Err(MpiError::new(
            MPI_ERR_ERRHANDLER,
            format!("invalid or freed error handler {e:#x}"),
        ))
    }
}

/// The thread level an info's `thread_level` asks for; without one, `MPI_THREAD_MULTIPLE`
/// (the highest, which nexar supports, as MPICH grants it).
fn requested_level(info: MPI_Info) -> Result<c_int> {
    let pairs = crate::comm::info::pairs_or_empty(info)?;
    let Some((_, v)) = pairs.iter().find(|(k, _)| k == "thread_level") else {
        return Ok(MPI_THREAD_MULTIPLE);
    };
    match v.trim() {
        "MPI_THREAD_SINGLE" => Ok(MPI_THREAD_SINGLE),
        "MPI_THREAD_FUNNELED" => Ok(MPI_THREAD_FUNNELED),
        "MPI_THREAD_SERIALIZED" => Ok(MPI_THREAD_SERIALIZED),
        "MPI_THREAD_MULTIPLE" => Ok(MPI_THREAD_MULTIPLE),
        other => Err(MpiError::new(
            MPI_ERR_INFO_VALUE,
            format!("thread_level \"{other}\" is not an MPI thread level"),
        )),
    }
}

fn level_name(l: c_int) -> &'static str {
    match l {
        MPI_THREAD_FUNNELED => "MPI_THREAD_FUNNELED",
        MPI_THREAD_SERIALIZED => "MPI_THREAD_SERIALIZED",
        MPI_THREAD_MULTIPLE => "MPI_THREAD_MULTIPLE",
        _ => "MPI_THREAD_SINGLE",
    }
}

/// Reads a C string argument.
fn c_str<'a>(p: *const c_char, name: &str) -> Result<&'a str> {
    non_null(p, name)?;
    // SAFETY: non-NULL and NUL-terminated per the MPI contract.
    unsafe { CStr::from_ptr(p) }
        .to_str()
        .map_err(|_| MpiError::new(MPI_ERR_ARG, format!("`{name}` is not UTF-8")))
}

/// The world ranks of process set `name` (`MPI_ERR_ARG` for an unknown one). Names compare
/// without regard to case, as URIs' schemes do.
fn pset_members(name: &str) -> Result<Vec<u32>> {
    if name.eq_ignore_ascii_case(PSETS[0]) {
        return crate::comm::group::comm_members(&comm(MPI_COMM_WORLD)?);
    }
    if name.eq_ignore_ascii_case(PSETS[1]) {
        return Ok(vec![my_world_rank()?]);
    }
    Err(MpiError::new(
        MPI_ERR_ARG,
        format!("no process set named \"{name}\" (nexar has mpi://WORLD and mpi://SELF)"),
    ))
}

fn init(info: MPI_Info, errhandler: MPI_Errhandler, out: *mut MPI_Session) -> Result<()> {
    non_null(out, "session")?;
    settable(errhandler)?;
    let level = requested_level(info)?;
    crate::init::session_started(level)?;
    let h = SESSIONS.lock().insert(Session {
        errhandler,
        thread_level: level,
    });
    let Some(h) = h else {
        crate::init::session_ended()?;
        return Err(MpiError::new(MPI_ERR_NO_MEM, "too many live sessions"));
    };
    // SAFETY: checked for NULL; writable per the MPI contract.
    unsafe { out.write(h) };
    Ok(())
}

fn finalize(session: *mut MPI_Session) -> Result<()> {
    non_null(session, "session")?;
    // SAFETY: checked for NULL; readable and writable per the MPI contract.
    let h = unsafe { session.read() };
    SESSIONS.lock().remove(h).ok_or_else(|| bad_session(h))?;
    // SAFETY: as above.
    unsafe { session.write(MPI_SESSION_NULL) };
    crate::init::session_ended()
}

/// `MPI_Session_get_nth_pset`: with `*len` 0 only the length (with the NUL) is written.
fn nth_pset(n: c_int, len: *mut c_int, name: *mut c_char) -> Result<()> {
    non_null(len, "pset_len")?;
    let pset = usize::try_from(n)
        .ok()
        .and_then(|i| PSETS.get(i))
        .ok_or_else(|| {
            MpiError::new(
                MPI_ERR_ARG,
                format!("n is {n}; the session has {} process sets", PSETS.len()),
            )
        })?;
    // SAFETY: checked for NULL; readable per the MPI contract.
    if unsafe { len.read() } > 0 {
        non_null(name, "pset_name")?;
    }
    // The same length-with-NUL contract as MPI_T's strings.
    crate::tools::put_str(pset, name, len);
    Ok(())
}

fn create_from_group(
    group: MPI_Group,
    stringtag: *const c_char,
    info: MPI_Info,
    errhandler: MPI_Errhandler,
    newcomm: *mut MPI_Comm,
) -> Result<()> {
    non_null(newcomm, "newcomm")?;
    let tag = c_str(stringtag, "stringtag")?;
    crate::comm::info::pairs_or_empty(info)?;
    settable(errhandler)?;
    if group == MPI_GROUP_EMPTY {
        // SAFETY: checked for NULL; writable per the MPI contract.
        unsafe { newcomm.write(MPI_COMM_NULL) };
        return Ok(());
    }
    let g = members(group)?;
    if rank_in(&g, my_world_rank()?).is_none() {
        return Err(MpiError::new(
            MPI_ERR_GROUP,
            "this process is not in the group (only its members call MPI_Comm_create_from_group)",
        ));
    }
    let world = crate::state::whole_world()?;
    let c = world
        .create_subset(&g, crate::comm::intercomm::string_tag(4, tag.as_bytes()))?
        .ok_or_else(|| MpiError::new(MPI_ERR_GROUP, "this process is not in the group"))?;
    let h = insert_comm(c, errhandler)?;
    if let Err(e) = set_errhandler(h, errhandler) {
        let _ = remove_comm(h);
        return Err(e);
    }
    if let Some(s) = GROUP_SESSION.lock().get(&group) {
        COMM_SESSION.lock().insert(h, *s);
    }
    // SAFETY: checked for NULL; writable per the MPI contract.
    unsafe { newcomm.write(h) };
    Ok(())
}

mpi_fn! {
    /// Starts a session with error handler `errhandler` and the thread level `info`'s
    /// `thread_level` asks for (granted as asked; `MPI_THREAD_MULTIPLE` without it). Joins the
    /// job first if neither `MPI_Init` nor another session has. Local. Errors (through
    /// `errhandler`): `MPI_ERR_ARG` (NULL `session`), `MPI_ERR_ERRHANDLER`, `MPI_ERR_INFO`,
    /// `MPI_ERR_INFO_VALUE` (an unknown thread level), `MPI_ERR_OTHER` after the engine ended.
    fn MPI_Session_init(info: MPI_Info, errhandler: MPI_Errhandler, session: *mut MPI_Session)
        -> c_int => PMPI_Session_init
    {
        let report = if settable(errhandler).is_ok() { errhandler } else { MPI_ERRORS_ARE_FATAL };
        nexar_bind::boundary::call(OnHandler(report, MPI_SESSION_NULL), "MPI_Session_init", || {
            init(info, errhandler, session)
        })
    }

    /// Ends `*session` and sets it to `MPI_SESSION_NULL`; communicators made from it stay
    /// usable (free them first, as MPI asks). The last session after `MPI_Finalize` leaves
    /// the job.
    fn MPI_Session_finalize(session: *mut MPI_Session) -> c_int => PMPI_Session_finalize {
        let h = if session.is_null() { MPI_SESSION_NULL } else {
            // SAFETY: non-NULL; readable per the MPI contract.
            unsafe { session.read() }
        };
        call("MPI_Session_finalize", h, || finalize(session))
    }

    /// A new info with the session's `thread_level` (the caller frees it).
    fn MPI_Session_get_info(session: MPI_Session, info_used: *mut MPI_Info) -> c_int
        => PMPI_Session_get_info
    {
        call("MPI_Session_get_info", session, || {
            let level = with_session(session, |s| s.thread_level)?;
            let mut pairs = Vec::new();
            crate::comm::info::set(&mut pairs, "thread_level", level_name(level));
            crate::comm::info::store_new(pairs, info_used)
        })
    }

    /// The number of process sets: 2 (`mpi://WORLD`, `mpi://SELF`).
    fn MPI_Session_get_num_psets(session: MPI_Session, info: MPI_Info, npset_names: *mut c_int)
        -> c_int => PMPI_Session_get_num_psets
    {
        call("MPI_Session_get_num_psets", session, || {
            with_session(session, |_| ())?;
            crate::comm::info::pairs_or_empty(info)?;
            non_null(npset_names, "npset_names")?;
            // SAFETY: checked for NULL; writable per the MPI contract.
            unsafe { npset_names.write(PSETS.len() as c_int) };
            Ok(())
        })
    }

    /// The name of process set `n` into `pset_name` (`*pset_len` bytes, NUL-terminated); with
    /// `*pset_len` 0 only the length it needs (with the NUL) is written to `*pset_len`.
    fn MPI_Session_get_nth_pset(session: MPI_Session, info: MPI_Info, n: c_int,
        pset_len: *mut c_int, pset_name: *mut c_char) -> c_int => PMPI_Session_get_nth_pset
    {
        call("MPI_Session_get_nth_pset", session, || {
            with_session(session, |_| ())?;
            crate::comm::info::pairs_or_empty(info)?;
            nth_pset(n, pset_len, pset_name)
        })
    }

    /// A new info describing process set `pset_name`: `mpi_size`, its number of processes.
    fn MPI_Session_get_pset_info(session: MPI_Session, pset_name: *const c_char,
        info: *mut MPI_Info) -> c_int => PMPI_Session_get_pset_info
    {
        call("MPI_Session_get_pset_info", session, || {
            with_session(session, |_| ())?;
            let n = pset_members(c_str(pset_name, "pset_name")?)?.len();
            let mut pairs = Vec::new();
            crate::comm::info::set(&mut pairs, "mpi_size", &n.to_string());
            crate::comm::info::store_new(pairs, info)
        })
    }

    /// A new group of the processes of `pset_name` (in `MPI_COMM_WORLD` rank order). Local.
    fn MPI_Group_from_session_pset(session: MPI_Session, pset_name: *const c_char,
        newgroup: *mut MPI_Group) -> c_int => PMPI_Group_from_session_pset
    {
        call("MPI_Group_from_session_pset", session, || {
            with_session(session, |_| ())?;
            non_null(newgroup, "newgroup")?;
            let g = new_group(pset_members(c_str(pset_name, "pset_name")?)?)?;
            if g != MPI_GROUP_EMPTY {
                GROUP_SESSION.lock().insert(g, session);
            }
            // SAFETY: checked for NULL; writable per the MPI contract.
            unsafe { newgroup.write(g) };
            Ok(())
        })
    }

    /// A communicator over `group`'s members with error handler `errhandler`, collective over
    /// them only (every member passes the same `stringtag`; two creations with the same group
    /// and tag in the same order get distinct communicators). `MPI_GROUP_EMPTY` gives
    /// `MPI_COMM_NULL`. Errors (through `errhandler`): `MPI_ERR_GROUP` (this process not a
    /// member), `MPI_ERR_ARG`, `MPI_ERR_INFO`, `MPI_ERR_ERRHANDLER`.
    fn MPI_Comm_create_from_group(group: MPI_Group, stringtag: *const c_char, info: MPI_Info,
        errhandler: MPI_Errhandler, newcomm: *mut MPI_Comm) -> c_int
        => PMPI_Comm_create_from_group
    {
        let report = if settable(errhandler).is_ok() { errhandler } else { MPI_ERRORS_ARE_FATAL };
        nexar_bind::boundary::call(OnHandler(report, MPI_COMM_NULL),
            "MPI_Comm_create_from_group",
            || create_from_group(group, stringtag, info, errhandler, newcomm))
    }

    /// A user error handler for sessions, called with the session and the error code.
    fn MPI_Session_create_errhandler(session_errhandler_fn: Option<SessionErrhandlerFn>,
        errhandler: *mut MPI_Errhandler) -> c_int => PMPI_Session_create_errhandler
    {
        crate::errors::report::call("MPI_Session_create_errhandler", MPI_COMM_WORLD, || {
            non_null(errhandler, "errhandler")?;
            let f = session_errhandler_fn.ok_or_else(|| {
                MpiError::new(MPI_ERR_ARG, "argument `session_errhandler_fn` is NULL")
            })?;
            // Both kinds of handler take a pointer to a pointer-sized handle and a pointer to
            // the code (then C varargs): the same type, one table.
            let h = crate::errors::handlers::new_user_errhandler(f)?;
            // SAFETY: checked for NULL; writable per the MPI contract.
            unsafe { errhandler.write(h) };
            Ok(())
        })
    }

    /// Sets the session's error handler.
    fn MPI_Session_set_errhandler(session: MPI_Session, errhandler: MPI_Errhandler) -> c_int
        => PMPI_Session_set_errhandler
    {
        call("MPI_Session_set_errhandler", session, || {
            settable(errhandler)?;
            with_session(session, |s| s.errhandler = errhandler)
        })
    }

    /// The session's error handler (a user one gains a reference: free it with
    /// `MPI_Errhandler_free`).
    fn MPI_Session_get_errhandler(session: MPI_Session, errhandler: *mut MPI_Errhandler)
        -> c_int => PMPI_Session_get_errhandler
    {
        call("MPI_Session_get_errhandler", session, || {
            non_null(errhandler, "errhandler")?;
            let e = with_session(session, |s| s.errhandler)?;
            crate::errors::handlers::retain_errhandler(e);
            // SAFETY: checked for NULL; writable per the MPI contract.
            unsafe { errhandler.write(e) };
            Ok(())
        })
    }

    /// Raises `errorcode` on the session through its error handler; returns what the handler
    /// leaves (`MPI_SUCCESS` when it returns normally, as for communicators).
    fn MPI_Session_call_errhandler(session: MPI_Session, errorcode: c_int) -> c_int
        => PMPI_Session_call_errhandler
    {
        let handler = match with_session(session, |s| s.errhandler) {
            Ok(h) => h,
            Err(e) => return raise_with("MPI_Session_call_errhandler", MPI_ERRORS_ARE_FATAL,
                                        session, e),
        };
        let e = MpiError::new(errorcode, crate::errors::report::describe(errorcode).to_string());
        raise_with("MPI_Session_call_errhandler", handler, session, e);
        MPI_SUCCESS
    }

    /// Attaches `buffer` of `size` bytes for the buffered sends of the session's communicators
    /// (`MPI_BUFFER_AUTOMATIC`: no limit). Errors: `MPI_ERR_BUFFER` if one is attached already.
    fn MPI_Session_attach_buffer(session: MPI_Session, buffer: *mut c_void, size: c_int)
        -> c_int => PMPI_Session_attach_buffer
    {
        call("MPI_Session_attach_buffer", session, || {
            with_session(session, |_| ())?;
            crate::p2p::buffered::attach_for_session(session, buffer, MPI_Count::from(size))
        })
    }

    /// Large-count `MPI_Session_attach_buffer`.
    fn MPI_Session_attach_buffer_c(session: MPI_Session, buffer: *mut c_void, size: MPI_Count)
        -> c_int => PMPI_Session_attach_buffer_c
    {
        call("MPI_Session_attach_buffer_c", session, || {
            with_session(session, |_| ())?;
            crate::p2p::buffered::attach_for_session(session, buffer, size)
        })
    }

    /// Detaches the session's buffer: its address in `*(void **)buffer_addr` and its size
    /// (NULL and 0 if none was attached).
    fn MPI_Session_detach_buffer(session: MPI_Session, buffer_addr: *mut c_void,
        size: *mut c_int) -> c_int => PMPI_Session_detach_buffer
    {
        call("MPI_Session_detach_buffer", session, || {
            with_session(session, |_| ())?;
            crate::p2p::buffered::detach_int_for_session(session, buffer_addr, size)
        })
    }

    /// Large-count `MPI_Session_detach_buffer`.
    fn MPI_Session_detach_buffer_c(session: MPI_Session, buffer_addr: *mut c_void,
        size: *mut MPI_Count) -> c_int => PMPI_Session_detach_buffer_c
    {
        call("MPI_Session_detach_buffer_c", session, || {
            with_session(session, |_| ())?;
            crate::p2p::buffered::detach_for_session(session, buffer_addr, size)
        })
    }

    /// `MPI_Buffer_flush` for the session's buffer.
    fn MPI_Session_flush_buffer(session: MPI_Session) -> c_int => PMPI_Session_flush_buffer {
        call("MPI_Session_flush_buffer", session, || {
            with_session(session, |_| ())?;
            crate::p2p::buffered::flush_for_session(session);
            Ok(())
        })
    }

    /// `MPI_Session_flush_buffer` as a request (complete on return, as `MPI_Buffer_iflush`).
    fn MPI_Session_iflush_buffer(session: MPI_Session, request: *mut crate::request::table::MPI_Request)
        -> c_int => PMPI_Session_iflush_buffer
    {
        call("MPI_Session_iflush_buffer", session, || {
            with_session(session, |_| ())?;
            non_null(request, "request")?;
            crate::p2p::buffered::flush_for_session(session);
            crate::request::table::store_request(request, MPI_COMM_SELF,
                nexar::Request::ready(Ok(None)))
        })
    }
}
