//! MPI_T control and performance variables: nexar's settings and traffic (see
//! [`crate::tools`]), their handles and performance-variable sessions.

use super::{
    MPI_T_ERR_CVAR_SET_NEVER, MPI_T_ERR_INVALID_HANDLE, MPI_T_ERR_INVALID_NAME,
    MPI_T_ERR_INVALID_SESSION, MPI_T_ERR_OUT_OF_HANDLES, MPI_T_ERR_OUT_OF_SESSIONS,
    MPI_T_ERR_PVAR_NO_STARTSTOP, MPI_T_ERR_PVAR_NO_WRITE, call, in_str, index, out, put, put_str,
    t_err,
};
use crate::consts::*;
use crate::errors::report::MpiError;
use crate::state::{Phase, STATE};
use crate::table::{Table, USER_HANDLES};
use parking_lot::Mutex;
use std::ffi::{c_char, c_int, c_void};

/// Every numeric variable's type.
const ULL: MPI_Datatype = crate::datatype::predefined::MPI_UNSIGNED_LONG_LONG;
/// The transport's name's type.
const CHAR: MPI_Datatype = crate::datatype::predefined::MPI_CHAR;
const VERBOSITY_USER_BASIC: c_int = 0x09;
const VERBOSITY_TUNER_BASIC: c_int = 0x11;
const BIND_NO_OBJECT: c_int = 1;
const SCOPE_CONSTANT: c_int = 1;
/// `MPI_T_PVAR_CLASS_LEVEL`.
pub const CLASS_LEVEL: c_int = 2;
/// `MPI_T_PVAR_CLASS_COUNTER`.
pub const CLASS_COUNTER: c_int = 7;
/// `MPI_T_PVAR_ALL_HANDLES`.
const ALL_HANDLES: usize = 1;

/// A control variable's value.
enum Value {
    Number(u64),
    Text(String),
}

/// One control variable: its name, what it is, and its value now.
pub(crate) struct Cvar {
    pub name: &'static str,
    pub desc: &'static str,
    verbosity: c_int,
    text: bool,
    value: fn(&nexar::Config, Option<&nexar::Context>) -> Value,
}

fn ms(d: std::time::Duration) -> Value {
    Value::Number(d.as_millis() as u64)
}

/// The control variables, in index order.
pub(crate) static CVARS: &[Cvar] = &[
    Cvar {
        name: "NEXAR_TRANSPORT",
        desc: "Transport between this rank and its peers: shm (shared memory), quic, shm+quic, \
               self (a world of one) or mem (in process); before MPI_Init the setting (auto, quic)",
        verbosity: VERBOSITY_USER_BASIC,
        text: true,
        value: |cfg, ctx| {
            Value::Text(match ctx {
                Some(c) => c.transport_name().to_string(),
                None => format!("{:?}", cfg.transport).to_ascii_lowercase(),
            })
        },
    },
    Cvar {
        name: "NEXAR_MAX_UNEXPECTED",
        desc: "Bytes of unmatched point-to-point messages kept per sending peer before that peer's \
               traffic is held back (back-pressure)",
        verbosity: VERBOSITY_TUNER_BASIC,
        text: false,
        value: |cfg, _| Value::Number(cfg.max_unexpected),
    },
    Cvar {
        name: "NEXAR_MAX_MESSAGE",
        desc: "Largest single message in bytes",
        verbosity: VERBOSITY_USER_BASIC,
        text: false,
        value: |cfg, _| Value::Number(cfg.max_message),
    },
    Cvar {
        name: "shm_one_copy_min",
        desc: "Smallest shared-memory message copied once, straight from the sender's memory \
               (process_vm_readv); smaller ones are eager through the rings; 0 when one-copy \
               is off (NEXAR_SHM_CMA=0)",
        verbosity: VERBOSITY_TUNER_BASIC,
        text: false,
        value: |cfg, _| {
            Value::Number(if cfg.shm_cma {
                nexar::transport::shm::CMA_THRESHOLD as u64
            } else {
                0
            })
        },
    },
    Cvar {
        name: "NEXAR_ALLREDUCE_DIRECT_MIN",
        desc: "Smallest allreduce in bytes for the direct shared-memory algorithm",
        verbosity: VERBOSITY_TUNER_BASIC,
        text: false,
        value: |_, _| Value::Number(nexar::ops::direct_allreduce::min_bytes() as u64),
    },
    Cvar {
        name: "NEXAR_FLAGS_MAX",
        desc: "Largest barrier, bcast, reduce or allreduce in bytes run on the communicator's \
               shared flag area (0: the flag area is off)",
        verbosity: VERBOSITY_TUNER_BASIC,
        text: false,
        value: |_, _| Value::Number(nexar::ops::flags::max_bytes().map_or(0, |b| b as u64)),
    },
    Cvar {
        name: "NEXAR_PEER_TIMEOUT_MS",
        desc: "Silence in milliseconds after which a peer is declared failed",
        verbosity: VERBOSITY_USER_BASIC,
        text: false,
        value: |cfg, _| ms(cfg.peer_timeout),
    },
    Cvar {
        name: "NEXAR_CONNECT_TIMEOUT_MS",
        desc: "Limit in milliseconds for the rendezvous and connection set-up",
        verbosity: VERBOSITY_USER_BASIC,
        text: false,
        value: |cfg, _| ms(cfg.connect_timeout),
    },
    Cvar {
        name: "NEXAR_TIMEOUT",
        desc: "Seconds after which an incomplete collective fails (0: no limit)",
        verbosity: VERBOSITY_USER_BASIC,
        text: false,
        value: |cfg, _| Value::Number(cfg.coll_timeout.map_or(0, |d| d.as_secs())),
    },
    Cvar {
        name: "NEXAR_THREADS",
        desc: "Worker threads of the engine's runtime",
        verbosity: VERBOSITY_TUNER_BASIC,
        text: false,
        value: |cfg, _| Value::Number(cfg.threads as u64),
    },
];

/// One performance variable.
pub(crate) struct Pvar {
    pub name: &'static str,
    pub desc: &'static str,
    pub class: c_int,
    /// Read at any time, never started or stopped (the levels).
    continuous: bool,
    value: fn(&nexar::Context) -> u64,
}

/// The sum of one traffic counter over the transports in use.
fn traffic(c: &nexar::Context, f: fn(&nexar::transport::TransportStats) -> u64) -> u64 {
    c.transport_stats().iter().map(|(_, s)| f(s)).sum()
}

/// The performance variables, in index order.
pub(crate) static PVARS: &[Pvar] = &[
    Pvar {
        name: "frames_sent",
        desc: "Frames (messages and protocol frames) this rank handed to its transports",
        class: CLASS_COUNTER,
        continuous: false,
        value: |c| traffic(c, |s| s.frames_sent),
    },
    Pvar {
        name: "bytes_sent",
        desc: "Payload bytes of the frames sent",
        class: CLASS_COUNTER,
        continuous: false,
        value: |c| traffic(c, |s| s.bytes_sent),
    },
    Pvar {
        name: "frames_received",
        desc: "Frames this rank's transports delivered",
        class: CLASS_COUNTER,
        continuous: false,
        value: |c| traffic(c, |s| s.frames_received),
    },
    Pvar {
        name: "bytes_received",
        desc: "Payload bytes of the frames received",
        class: CLASS_COUNTER,
        continuous: false,
        value: |c| traffic(c, |s| s.bytes_received),
    },
    Pvar {
        name: "one_copy_frames",
        desc: "Shared-memory frames whose payload the receiver copied straight from the \
               sender's memory",
        class: CLASS_COUNTER,
        continuous: false,
        value: |c| traffic(c, |s| s.one_copy_frames),
    },
    Pvar {
        name: "unexpected_messages",
        desc: "Point-to-point messages that arrived before a matching receive and wait for one",
        class: CLASS_LEVEL,
        continuous: true,
        value: |c| c.unexpected_queue().0,
    },
    Pvar {
        name: "unexpected_bytes",
        desc: "Payload bytes of the unexpected messages",
        class: CLASS_LEVEL,
        continuous: true,
        value: |c| c.unexpected_queue().1,
    },
];

/// Runs `f` with the running engine's context and configuration, or the configuration it
/// would start with (and no context) before `MPI_Init` / after `MPI_Finalize`.
fn with_engine<R>(f: impl FnOnce(&nexar::Config, Option<&nexar::Context>) -> R) -> R {
    match &*STATE.read() {
        Phase::Running(r) => f(r.ctx.config(), Some(&r.ctx)),
        _ => {
            let cfg = nexar::Config::from_env().unwrap_or_default();
            f(&cfg, None)
        }
    }
}

/// A performance variable's value now (0 while no engine runs).
fn pvar_now(i: usize) -> u64 {
    with_engine(|_, c| c.map_or(0, |c| (PVARS[i].value)(c)))
}

/// A performance-variable handle: which variable, and its counter's state in its session.
struct PvarHandle {
    session: usize,
    var: usize,
    started: bool,
    /// The variable's value when the handle last started.
    base: u64,
    /// What it counted while started before.
    counted: u64,
}

impl PvarHandle {
    fn read(&self) -> u64 {
        let p = &PVARS[self.var];
        if p.continuous {
            return pvar_now(self.var);
        }
        let running = if self.started {
            pvar_now(self.var).saturating_sub(self.base)
        } else {
            0
        };
        self.counted + running
    }
}

static SESSIONS: Mutex<Table<()>> = Mutex::new(Table::new(USER_HANDLES));
static PVAR_HANDLES: Mutex<Table<PvarHandle>> = Mutex::new(Table::new(USER_HANDLES));
static CVAR_HANDLES: Mutex<Table<usize>> = Mutex::new(Table::new(USER_HANDLES));

/// Frees every session, handle of both kinds (the last `MPI_T_finalize`).
pub(crate) fn release_all() {
    SESSIONS.lock().clear();
    PVAR_HANDLES.lock().clear();
    CVAR_HANDLES.lock().clear();
}

fn session(h: usize) -> Result<(), MpiError> {
    SESSIONS.lock().get(h).map(|_| ()).ok_or_else(|| {
        t_err(
            MPI_T_ERR_INVALID_SESSION,
            format!("invalid or freed performance-variable session {h:#x}"),
        )
    })
}

fn bad_handle(h: usize) -> MpiError {
    t_err(
        MPI_T_ERR_INVALID_HANDLE,
        format!("invalid or freed handle {h:#x}"),
    )
}

/// Runs `f` on handle `h` of session `s`, or on each of its handles for
/// `MPI_T_PVAR_ALL_HANDLES` (`all` then skips the continuous ones, as start and stop must).
fn each_handle(
    s: usize,
    h: usize,
    mut f: impl FnMut(&mut PvarHandle) -> Result<(), MpiError>,
) -> Result<(), MpiError> {
    session(s)?;
    let mut t = PVAR_HANDLES.lock();
    if h == ALL_HANDLES {
        for p in t.values_mut().filter(|p| p.session == s) {
            if !PVARS[p.var].continuous {
                f(p)?;
            }
        }
        return Ok(());
    }
    let p = t
        .get_mut(h)
        .filter(|p| p.session == s)
        .ok_or_else(|| bad_handle(h))?;
    f(p)
}

fn no_startstop(p: &PvarHandle) -> Result<(), MpiError> {
    if PVARS[p.var].continuous {
        Err(t_err(
            MPI_T_ERR_PVAR_NO_STARTSTOP,
            format!(
                "{} is read continuously: it has no start or stop",
                PVARS[p.var].name
            ),
        ))
    } else {
        Ok(())
    }
}

mpi_fn! {
    /// The number of control variables.
    fn MPI_T_cvar_get_num(num_cvar: *mut c_int) -> c_int => PMPI_T_cvar_get_num {
        call("MPI_T_cvar_get_num", || {
            out(num_cvar, "num_cvar")?;
            put(num_cvar, CVARS.len() as c_int);
            Ok(())
        })
    }

    /// Describes control variable `cvar_index` (every output may be NULL; strings follow
    /// MPI_T's length convention). No enumerations: `*enumtype` is `MPI_T_ENUM_NULL`.
    fn MPI_T_cvar_get_info(cvar_index: c_int, name: *mut c_char, name_len: *mut c_int,
        verbosity: *mut c_int, datatype: *mut MPI_Datatype, enumtype: *mut usize,
        desc: *mut c_char, desc_len: *mut c_int, bind: *mut c_int, scope: *mut c_int) -> c_int
        => PMPI_T_cvar_get_info
    {
        call("MPI_T_cvar_get_info", || {
            let v = &CVARS[index(cvar_index, CVARS.len(), "control variable")?];
            put_str(v.name, name, name_len);
            put(verbosity, v.verbosity);
            put(datatype, if v.text { CHAR } else { ULL });
            put(enumtype, 0);
            put_str(v.desc, desc, desc_len);
            put(bind, BIND_NO_OBJECT);
            put(scope, SCOPE_CONSTANT);
            Ok(())
        })
    }

    /// The index of the control variable named `name` (`MPI_T_ERR_INVALID_NAME` if none).
    fn MPI_T_cvar_get_index(name: *const c_char, cvar_index: *mut c_int) -> c_int
        => PMPI_T_cvar_get_index
    {
        call("MPI_T_cvar_get_index", || {
            out(cvar_index, "cvar_index")?;
            let n = in_str(name, "name")?;
            let i = CVARS.iter().position(|v| v.name == n).ok_or_else(|| {
                t_err(MPI_T_ERR_INVALID_NAME, format!("no control variable named \"{n}\""))
            })?;
            put(cvar_index, i as c_int);
            Ok(())
        })
    }

    /// A handle on control variable `cvar_index` (bound to no object: `obj_handle` is
    /// ignored); `*count` is 1, or the string's length with its NUL for the transport's name.
    fn MPI_T_cvar_handle_alloc(cvar_index: c_int, obj_handle: *mut c_void, handle: *mut usize,
        count: *mut c_int) -> c_int => PMPI_T_cvar_handle_alloc
    {
        let _ = obj_handle;
        call("MPI_T_cvar_handle_alloc", || {
            out(handle, "handle")?;
            out(count, "count")?;
            let i = index(cvar_index, CVARS.len(), "control variable")?;
            let n = with_engine(|cfg, c| match (CVARS[i].value)(cfg, c) {
                Value::Text(s) => s.len() as c_int + 1,
                Value::Number(_) => 1,
            });
            let h = CVAR_HANDLES.lock().insert(i).ok_or_else(|| {
                t_err(MPI_T_ERR_OUT_OF_HANDLES, "too many control-variable handles")
            })?;
            put(handle, h);
            put(count, n);
            Ok(())
        })
    }

    /// Frees a control-variable handle and sets it to `MPI_T_CVAR_HANDLE_NULL`.
    fn MPI_T_cvar_handle_free(handle: *mut usize) -> c_int => PMPI_T_cvar_handle_free {
        call("MPI_T_cvar_handle_free", || {
            out(handle, "handle")?;
            // SAFETY: checked for NULL.
            let h = unsafe { handle.read() };
            CVAR_HANDLES.lock().remove(h).ok_or_else(|| bad_handle(h))?;
            put(handle, 0);
            Ok(())
        })
    }

    /// Reads the variable into `buf` (an `unsigned long long`, or `count` chars for text).
    fn MPI_T_cvar_read(handle: usize, buf: *mut c_void) -> c_int => PMPI_T_cvar_read {
        call("MPI_T_cvar_read", || {
            out(buf, "buf")?;
            let i = *CVAR_HANDLES.lock().get(handle).ok_or_else(|| bad_handle(handle))?;
            match with_engine(|cfg, c| (CVARS[i].value)(cfg, c)) {
                Value::Number(n) => put(buf.cast::<u64>(), n),
                Value::Text(s) => {
                    // SAFETY: `buf` holds `count` chars (the handle's count) per the contract.
                    unsafe {
                        std::ptr::copy_nonoverlapping(s.as_ptr(), buf.cast::<u8>(), s.len());
                        buf.cast::<u8>().add(s.len()).write(0);
                    }
                }
            }
            Ok(())
        })
    }

    /// Refused: nexar's settings are fixed for the run (`MPI_T_ERR_CVAR_SET_NEVER`).
    fn MPI_T_cvar_write(handle: usize, buf: *const c_void) -> c_int => PMPI_T_cvar_write {
        let _ = buf;
        call("MPI_T_cvar_write", || {
            let i = *CVAR_HANDLES.lock().get(handle).ok_or_else(|| bad_handle(handle))?;
            Err(t_err(
                MPI_T_ERR_CVAR_SET_NEVER,
                format!("{} is read once at start-up (set the environment variable)", CVARS[i].name),
            ))
        })
    }

    /// The number of performance variables.
    fn MPI_T_pvar_get_num(num_pvar: *mut c_int) -> c_int => PMPI_T_pvar_get_num {
        call("MPI_T_pvar_get_num", || {
            out(num_pvar, "num_pvar")?;
            put(num_pvar, PVARS.len() as c_int);
            Ok(())
        })
    }

    /// Describes performance variable `pvar_index` (every output may be NULL): an
    /// `unsigned long long`, bound to no object, read-only, not atomic; the counters start
    /// and stop, the levels are continuous.
    fn MPI_T_pvar_get_info(pvar_index: c_int, name: *mut c_char, name_len: *mut c_int,
        verbosity: *mut c_int, var_class: *mut c_int, datatype: *mut MPI_Datatype,
        enumtype: *mut usize, desc: *mut c_char, desc_len: *mut c_int, bind: *mut c_int,
        readonly: *mut c_int, continuous: *mut c_int, atomic: *mut c_int) -> c_int
        => PMPI_T_pvar_get_info
    {
        call("MPI_T_pvar_get_info", || {
            let v = &PVARS[index(pvar_index, PVARS.len(), "performance variable")?];
            put_str(v.name, name, name_len);
            put(verbosity, VERBOSITY_USER_BASIC);
            put(var_class, v.class);
            put(datatype, ULL);
            put(enumtype, 0);
            put_str(v.desc, desc, desc_len);
            put(bind, BIND_NO_OBJECT);
            put(readonly, 1);
            put(continuous, c_int::from(v.continuous));
            put(atomic, 0);
            Ok(())
        })
    }

    /// The index of the performance variable `name` of class `var_class`.
    fn MPI_T_pvar_get_index(name: *const c_char, var_class: c_int, pvar_index: *mut c_int)
        -> c_int => PMPI_T_pvar_get_index
    {
        call("MPI_T_pvar_get_index", || {
            out(pvar_index, "pvar_index")?;
            let n = in_str(name, "name")?;
            let i = PVARS
                .iter()
                .position(|v| v.name == n && v.class == var_class)
                .ok_or_else(|| {
                    t_err(
                        MPI_T_ERR_INVALID_NAME,
                        format!("no performance variable named \"{n}\" of class {var_class}"),
                    )
                })?;
            put(pvar_index, i as c_int);
            Ok(())
        })
    }

    /// A new performance-variable session.
    fn MPI_T_pvar_session_create(session: *mut usize) -> c_int => PMPI_T_pvar_session_create {
        call("MPI_T_pvar_session_create", || {
            out(session, "session")?;
            let s = SESSIONS.lock().insert(()).ok_or_else(|| {
                t_err(MPI_T_ERR_OUT_OF_SESSIONS, "too many performance-variable sessions")
            })?;
            put(session, s);
            Ok(())
        })
    }

    /// Frees a session and its handles; sets it to `MPI_T_PVAR_SESSION_NULL`.
    fn MPI_T_pvar_session_free(session: *mut usize) -> c_int => PMPI_T_pvar_session_free {
        call("MPI_T_pvar_session_free", || {
            out(session, "session")?;
            // SAFETY: checked for NULL.
            let s = unsafe { session.read() };
            self::session(s)?;
            SESSIONS.lock().remove(s);
            PVAR_HANDLES.lock().retain(|p| p.session != s);
            put(session, 0);
            Ok(())
        })
    }

    /// A handle on performance variable `pvar_index` in `session` (stopped; bound to no
    /// object); `*count` is 1.
    fn MPI_T_pvar_handle_alloc(session: usize, pvar_index: c_int, obj_handle: *mut c_void,
        handle: *mut usize, count: *mut c_int) -> c_int => PMPI_T_pvar_handle_alloc
    {
        let _ = obj_handle;
        call("MPI_T_pvar_handle_alloc", || {
            out(handle, "handle")?;
            out(count, "count")?;
            self::session(session)?;
            let var = index(pvar_index, PVARS.len(), "performance variable")?;
            let h = PVAR_HANDLES
                .lock()
                .insert(PvarHandle { session, var, started: false, base: 0, counted: 0 })
                .ok_or_else(|| {
                    t_err(MPI_T_ERR_OUT_OF_HANDLES, "too many performance-variable handles")
                })?;
            put(handle, h);
            put(count, 1);
            Ok(())
        })
    }

    /// Frees a handle of `session`; sets it to `MPI_T_PVAR_HANDLE_NULL`.
    fn MPI_T_pvar_handle_free(session: usize, handle: *mut usize) -> c_int
        => PMPI_T_pvar_handle_free
    {
        call("MPI_T_pvar_handle_free", || {
            out(handle, "handle")?;
            self::session(session)?;
            // SAFETY: checked for NULL.
            let h = unsafe { handle.read() };
            let mut t = PVAR_HANDLES.lock();
            if t.get(h).is_none_or(|p| p.session != session) {
                return Err(bad_handle(h));
            }
            t.remove(h);
            put(handle, 0);
            Ok(())
        })
    }

    /// Starts counting (one handle, or every non-continuous handle of the session).
    fn MPI_T_pvar_start(session: usize, handle: usize) -> c_int => PMPI_T_pvar_start {
        call("MPI_T_pvar_start", || {
            each_handle(session, handle, |p| {
                no_startstop(p)?;
                if !p.started {
                    p.base = pvar_now(p.var);
                    p.started = true;
                }
                Ok(())
            })
        })
    }

    /// Stops counting; the value read stays what was counted.
    fn MPI_T_pvar_stop(session: usize, handle: usize) -> c_int => PMPI_T_pvar_stop {
        call("MPI_T_pvar_stop", || {
            each_handle(session, handle, |p| {
                no_startstop(p)?;
                if p.started {
                    p.counted += pvar_now(p.var).saturating_sub(p.base);
                    p.started = false;
                }
                Ok(())
            })
        })
    }

    /// Reads the variable (an `unsigned long long`): a counter what it counted while started,
    /// a level its value now.
    fn MPI_T_pvar_read(session: usize, handle: usize, buf: *mut c_void) -> c_int
        => PMPI_T_pvar_read
    {
        call("MPI_T_pvar_read", || {
            out(buf, "buf")?;
            if handle == ALL_HANDLES {
                return Err(bad_handle(handle));
            }
            let mut v = 0;
            each_handle(session, handle, |p| {
                v = p.read();
                Ok(())
            })?;
            put(buf.cast::<u64>(), v);
            Ok(())
        })
    }

    /// Refused: every variable is read-only (`MPI_T_ERR_PVAR_NO_WRITE`).
    fn MPI_T_pvar_write(session: usize, handle: usize, buf: *const c_void) -> c_int
        => PMPI_T_pvar_write
    {
        let _ = buf;
        call("MPI_T_pvar_write", || {
            each_handle(session, handle, |_| Ok(()))?;
            Err(t_err(MPI_T_ERR_PVAR_NO_WRITE, "nexar's performance variables are read-only"))
        })
    }

    /// Refused: every variable is read-only, and a reset writes (`MPI_T_ERR_PVAR_NO_WRITE`).
    fn MPI_T_pvar_reset(session: usize, handle: usize) -> c_int => PMPI_T_pvar_reset {
        call("MPI_T_pvar_reset", || {
            each_handle(session, handle, |_| Ok(()))?;
            Err(t_err(MPI_T_ERR_PVAR_NO_WRITE, "nexar's performance variables are read-only"))
        })
    }

    /// Refused as `MPI_T_pvar_reset` (nothing is read either).
    fn MPI_T_pvar_readreset(session: usize, handle: usize, buf: *mut c_void) -> c_int
        => PMPI_T_pvar_readreset
    {
        let _ = buf;
        call("MPI_T_pvar_readreset", || {
            each_handle(session, handle, |_| Ok(()))?;
            Err(t_err(MPI_T_ERR_PVAR_NO_WRITE, "nexar's performance variables are read-only"))
        })
    }
}
