//! PMIx: the process-management interface of Slurm's `srun --mpi=pmix`, Open MPI's `mpirun`
//! and PRRTE's `prterun`, through the system's PMIx client library.
//!
//! The library (`libpmix.so.2`, Debian's `libpmix2`) is loaded at run time, so a build and a
//! machine without it still work: a PMIx launch is then handled as before (a Slurm or Open MPI
//! launch by their variables, which needs a job secret file). `NEXAR_PMIX_LIB` names the
//! library to load instead, or `none` to ignore PMIx.
//!
//! Only the handful of blocking client calls the start-up exchange needs are bound: `PMIx_Init`,
//! `PMIx_Get`, `PMIx_Put`, `PMIx_Commit`, `PMIx_Fence`, `PMIx_Finalize`, `PMIx_Abort`. Their
//! structures are declared here with the layout of the PMIx standard's `pmix_common.h`
//! (unchanged since PMIx 2: `pmix_proc_t` is a 256-byte namespace and a `u32` rank,
//! `pmix_value_t` a `u16` type and an 8-aligned union). Each blocking call runs on a helper
//! thread and is given up after the connect timeout, so a dead or wedged server is an error,
//! never a hang.

use super::kvs::Kvs;
use super::{PmiAddr, boot};
use crate::error::Result;
use std::ffi::{CStr, CString, c_char, c_int, c_void};
use std::sync::OnceLock;
use std::time::Duration;

const PMIX_SUCCESS: c_int = 0;
const PMIX_STRING: u16 = 3;
const PMIX_UINT16: u16 = 13;
const PMIX_UINT32: u16 = 14;
/// `pmix_scope_t` `PMIX_GLOBAL`: shared with every process of the job, local and remote.
const PMIX_GLOBAL: u8 = 3;
/// `PMIX_RANK_WILDCARD`: a key about the whole job rather than one process.
const RANK_WILDCARD: u32 = u32::MAX - 1;
/// `PMIX_MAX_NSLEN` + 1.
const NSPACE_LEN: usize = 256;

/// The variables a PMIx server sets for its clients, one per protocol generation; any of them
/// (with `PMIX_NAMESPACE` and `PMIX_RANK`) means a PMIx launch.
pub const SERVER_URI_VARS: [&str; 6] = [
    "PMIX_SERVER_URI41",
    "PMIX_SERVER_URI4",
    "PMIX_SERVER_URI3",
    "PMIX_SERVER_URI21",
    "PMIX_SERVER_URI2",
    "PMIX_SERVER_URI",
];

/// `pmix_proc_t`.
#[repr(C)]
#[derive(Clone, Copy)]
struct Proc {
    nspace: [c_char; NSPACE_LEN],
    rank: u32,
}

/// The union of `pmix_value_t` (24 bytes in PMIx 4; only the members nexar reads are named).
#[repr(C)]
#[derive(Clone, Copy)]
union ValueData {
    string: *mut c_char,
    uint16: u16,
    uint32: u32,
    _size: [u64; 3],
}

/// `pmix_value_t`.
#[repr(C)]
struct Value {
    ty: u16,
    data: ValueData,
}

type InitFn = unsafe extern "C" fn(*mut Proc, *mut c_void, usize) -> c_int;
type FinalizeFn = unsafe extern "C" fn(*const c_void, usize) -> c_int;
type AbortFn = unsafe extern "C" fn(c_int, *const c_char, *mut Proc, usize) -> c_int;
type PutFn = unsafe extern "C" fn(u8, *const c_char, *mut Value) -> c_int;
type CommitFn = unsafe extern "C" fn() -> c_int;
type FenceFn = unsafe extern "C" fn(*const Proc, usize, *const c_void, usize) -> c_int;
type GetFn = unsafe extern "C" fn(
    *const Proc,
    *const c_char,
    *const c_void,
    usize,
    *mut *mut Value,
) -> c_int;
type ErrorStringFn = unsafe extern "C" fn(c_int) -> *const c_char;
type ValueDestructFn = unsafe extern "C" fn(*mut Value);

/// The client calls, resolved once; the library stays loaded for the life of the process
/// (its progress thread must never see it unloaded).
struct Lib {
    init: InitFn,
    finalize: FinalizeFn,
    abort: AbortFn,
    put: PutFn,
    commit: CommitFn,
    fence: FenceFn,
    get: GetFn,
    error_string: ErrorStringFn,
    value_destruct: Option<ValueDestructFn>,
    _lib: libloading::Library,
}

/// The libraries tried when `NEXAR_PMIX_LIB` is not set.
const DEFAULT_LIBS: [&str; 2] = ["libpmix.so.2", "libpmix.so"];

/// Loads the PMIx client library (once per process): `Err` says why it is not available.
fn library() -> std::result::Result<&'static Lib, String> {
    static LIB: OnceLock<std::result::Result<Lib, String>> = OnceLock::new();
    LIB.get_or_init(|| {
        let names: Vec<String> = match std::env::var("NEXAR_PMIX_LIB") {
            Ok(v) if v.trim() == "none" => return Err("NEXAR_PMIX_LIB=none".into()),
            Ok(v) => vec![v.trim().to_string()],
            Err(_) => DEFAULT_LIBS.iter().map(|s| s.to_string()).collect(),
        };
        let mut why = Vec::new();
        for name in &names {
            // SAFETY: loading the PMIx client runs its constructors, which only set up its own
            // state; the symbols are then bound with the signatures of pmix.h.
            match unsafe { load(name) } {
                Ok(lib) => return Ok(lib),
                Err(e) => why.push(format!("{name}: {e}")),
            }
        }
        Err(why.join("; "))
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// Loads `name` and binds the calls.
///
/// # Safety
/// `name` must be a PMIx client library (its symbols are bound with pmix.h's signatures).
unsafe fn load(name: &str) -> std::result::Result<Lib, libloading::Error> {
    // SAFETY: as the caller promises; see `library`.
    let lib = unsafe { libloading::Library::new(name)? };
    // SAFETY: each symbol is declared with its signature in pmix.h; the pointers stay valid
    // because the library is kept in `Lib` and never unloaded.
    unsafe {
        Ok(Lib {
            init: *lib.get::<InitFn>(b"PMIx_Init\0")?,
            finalize: *lib.get::<FinalizeFn>(b"PMIx_Finalize\0")?,
            abort: *lib.get::<AbortFn>(b"PMIx_Abort\0")?,
            put: *lib.get::<PutFn>(b"PMIx_Put\0")?,
            commit: *lib.get::<CommitFn>(b"PMIx_Commit\0")?,
            fence: *lib.get::<FenceFn>(b"PMIx_Fence\0")?,
            get: *lib.get::<GetFn>(b"PMIx_Get\0")?,
            error_string: *lib.get::<ErrorStringFn>(b"PMIx_Error_string\0")?,
            value_destruct: lib
                .get::<ValueDestructFn>(b"PMIx_Value_destruct\0")
                .ok()
                .map(|s| *s),
            _lib: lib,
        })
    }
}

/// Whether the variables looked up with `get` describe a PMIx launch (a namespace, a rank and a
/// server to connect to). Does not load the library.
pub fn launched_by_pmix(get: &dyn Fn(&str) -> Option<String>) -> bool {
    get("PMIX_NAMESPACE").is_some()
        && get("PMIX_RANK").is_some()
        && SERVER_URI_VARS.iter().any(|v| get(v).is_some())
}

/// A PMIx launch this process can join: the variables say so and the library loads. `Err`
/// (with the reason) when the variables say so but the library cannot be loaded.
pub fn detect(
    get: &dyn Fn(&str) -> Option<String>,
) -> std::result::Result<Option<PmiAddr>, String> {
    if !launched_by_pmix(get) {
        return Ok(None);
    }
    library().map(|_| {
        Some(PmiAddr::Pmix {
            namespace: get("PMIX_NAMESPACE").unwrap_or_default(),
        })
    })
}

/// Why a PMIx launch described by the variables looked up with `get` cannot be joined through
/// PMIx (its client library does not load); `None` when it is not a PMIx launch or it can be.
pub fn unavailable(get: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    detect(get).err()
}

/// Runs `f` on a helper thread and waits at most `limit` for it: a PMIx call that does not
/// return (a dead or wedged server) becomes an error naming `what` instead of a hang. The
/// thread is left behind in that case; the caller fails its start-up.
fn bounded<T: Send + 'static>(
    what: &str,
    limit: Duration,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T> {
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    std::thread::Builder::new()
        .name("nexar-pmix".into())
        .spawn(move || {
            let _ = tx.send(f());
        })
        .map_err(|e| boot(format!("PMIx {what}: cannot start a thread: {e}")))?;
    rx.recv_timeout(limit).map_err(|_| {
        boot(format!(
            "PMIx {what} did not return within {limit:?} (is the process manager alive? \
             NEXAR_CONNECT_TIMEOUT sets the limit)"
        ))
    })
}

/// The text of a PMIx status.
fn status_text(lib: &Lib, rc: c_int) -> String {
    // SAFETY: PMIx_Error_string returns a static string for any status (or NULL).
    let p = unsafe { (lib.error_string)(rc) };
    if p.is_null() {
        return format!("status {rc}");
    }
    // SAFETY: non-NULL, NUL-terminated, static.
    let s = unsafe { CStr::from_ptr(p) }.to_string_lossy();
    format!("{s} ({rc})")
}

fn check(lib: &Lib, what: &str, rc: c_int) -> Result<()> {
    if rc == PMIX_SUCCESS {
        Ok(())
    } else {
        Err(boot(format!("PMIx {what}: {}", status_text(lib, rc))))
    }
}

/// A connected PMIx client: this process's name in the job.
pub struct PmixClient {
    me: Proc,
    timeout: Duration,
    done: bool,
}

impl std::fmt::Debug for PmixClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PmixClient")
            .field("namespace", &self.namespace())
            .field("rank", &self.me.rank)
            .finish()
    }
}

/// What `PMIx_Init` and the job's keys say about this process.
pub struct Joined {
    /// The connected client.
    pub client: PmixClient,
    /// World rank.
    pub rank: u32,
    /// World size (`pmix.job.size`).
    pub size: u32,
    /// Rank on this node (`pmix.lrank`), when the server says.
    pub local_rank: Option<u32>,
    /// Processes of the job on this node (`pmix.local.size`), when the server says.
    pub local_size: Option<u32>,
}

impl PmixClient {
    /// Connects to the PMIx server named by the environment (`PMIx_Init`) and reads this
    /// process's rank, the job size, and its place on the node. Every call is bounded by
    /// `timeout`.
    pub fn join(timeout: Duration) -> Result<Joined> {
        let lib = library().map_err(|why| {
            boot(format!(
                "PMIx launch, but its client library is not available: {why}"
            ))
        })?;
        let me = bounded("PMIx_Init", timeout, move || {
            let mut me = Proc {
                nspace: [0; NSPACE_LEN],
                rank: 0,
            };
            // SAFETY: `me` is a valid pmix_proc_t to fill; no info array.
            let rc = unsafe { (lib.init)(&mut me, std::ptr::null_mut(), 0) };
            (rc, me)
        })?;
        check(lib, "PMIx_Init", me.0)?;
        let client = PmixClient {
            me: me.1,
            timeout,
            done: false,
        };
        let job = Proc {
            rank: RANK_WILDCARD,
            ..client.me
        };
        let size = client
            .get_u32(job, "pmix.job.size")?
            .ok_or_else(|| boot("PMIx: the server does not say the job size".into()))?;
        let rank = client.me.rank;
        if size == 0 || rank >= size {
            return Err(boot(format!(
                "PMIx: rank {rank} is out of range for a job of {size}"
            )));
        }
        let local_rank = client.get_u32(client.me, "pmix.lrank")?;
        let local_size = client.get_u32(job, "pmix.local.size")?;
        Ok(Joined {
            client,
            rank,
            size,
            local_rank,
            local_size,
        })
    }

    /// The job's namespace.
    pub fn namespace(&self) -> String {
        // SAFETY: PMIx NUL-terminates the namespace within its 256 bytes.
        unsafe { CStr::from_ptr(self.me.nspace.as_ptr()) }
            .to_string_lossy()
            .into_owned()
    }

    /// `PMIx_Get` of `key` about `who`: the value converted by `read`, `None` when the server
    /// has no such key.
    fn get_value<T: Send + 'static>(
        &self,
        who: Proc,
        key: &str,
        read: fn(&Value) -> Option<T>,
    ) -> Result<Option<T>> {
        let lib = library().map_err(|w| boot(format!("PMIx: {w}")))?;
        let ckey = CString::new(key).map_err(|_| boot(format!("PMIx get: bad key {key:?}")))?;
        let (rc, got) = bounded("PMIx_Get", self.timeout, move || {
            let mut out: *mut Value = std::ptr::null_mut();
            // SAFETY: `who` and `ckey` are valid for the call; PMIx allocates `out`.
            let rc = unsafe { (lib.get)(&who, ckey.as_ptr(), std::ptr::null(), 0, &mut out) };
            let got = if rc == PMIX_SUCCESS && !out.is_null() {
                // SAFETY: PMIx returned a valid value, read once, then released as
                // PMIX_VALUE_RELEASE does (destruct the contents, free the struct).
                unsafe {
                    let v = read(&*out);
                    if let Some(d) = lib.value_destruct {
                        d(out);
                    }
                    libc::free(out.cast());
                    v
                }
            } else {
                None
            };
            (rc, got)
        })?;
        match rc {
            PMIX_SUCCESS => Ok(got),
            // PMIX_ERR_NOT_FOUND (-46): the server does not hold that key.
            -46 => Ok(None),
            rc => Err(boot(format!(
                "PMIx get {key:?} of rank {}: {}",
                who.rank,
                status_text(lib, rc)
            ))),
        }
    }

    fn get_u32(&self, who: Proc, key: &str) -> Result<Option<u32>> {
        self.get_value(who, key, |v| match v.ty {
            // SAFETY: the type tag says which member is live.
            PMIX_UINT32 => Some(unsafe { v.data.uint32 }),
            // SAFETY: as above.
            PMIX_UINT16 => Some(u32::from(unsafe { v.data.uint16 })),
            _ => None,
        })
    }
}

// SAFETY: the client holds plain data (its name); PMIx's client calls are thread safe.
unsafe impl Send for PmixClient {}

impl Kvs for PmixClient {
    fn put(&mut self, key: &str, value: &str) -> Result<()> {
        let lib = library().map_err(|w| boot(format!("PMIx: {w}")))?;
        let ckey = CString::new(key).map_err(|_| boot(format!("PMIx put: bad key {key:?}")))?;
        let cval =
            CString::new(value).map_err(|_| boot(format!("PMIx put: bad value for {key:?}")))?;
        let mut v = Value {
            ty: PMIX_STRING,
            data: ValueData {
                string: cval.as_ptr().cast_mut(),
            },
        };
        // SAFETY: key and value are valid C strings for the call; PMIx copies the value.
        let rc = unsafe { (lib.put)(PMIX_GLOBAL, ckey.as_ptr(), &mut v) };
        check(lib, "PMIx_Put", rc)
    }

    fn barrier(&mut self) -> Result<()> {
        let lib = library().map_err(|w| boot(format!("PMIx: {w}")))?;
        // SAFETY: no arguments; publishes what this process put.
        check(lib, "PMIx_Commit", unsafe { (lib.commit)() })?;
        let rc = bounded("PMIx_Fence", self.timeout, move || {
            // SAFETY: NULL procs means every process of this job; no info.
            unsafe { (lib.fence)(std::ptr::null(), 0, std::ptr::null(), 0) }
        })?;
        check(lib, "PMIx_Fence", rc)
    }

    fn get(&mut self, owner: u32, key: &str) -> Result<String> {
        let who = Proc {
            rank: owner,
            ..self.me
        };
        self.get_value(who, key, |v| match v.ty {
            // SAFETY: the type tag says the string member is live; copied before release.
            PMIX_STRING if !unsafe { v.data.string }.is_null() => Some(
                // SAFETY: a NUL-terminated string owned by the value.
                unsafe { CStr::from_ptr(v.data.string) }
                    .to_string_lossy()
                    .into_owned(),
            ),
            _ => None,
        })?
        .ok_or_else(|| boot(format!("PMIx get: rank {owner} published no {key:?}")))
    }

    fn finalize(&mut self) -> Result<()> {
        if std::mem::replace(&mut self.done, true) {
            return Ok(());
        }
        let lib = library().map_err(|w| boot(format!("PMIx: {w}")))?;
        let rc = bounded("PMIx_Finalize", self.timeout, move || {
            // SAFETY: no info; ends this client's connection.
            unsafe { (lib.finalize)(std::ptr::null(), 0) }
        })?;
        check(lib, "PMIx_Finalize", rc)
    }

    fn abort(&mut self, code: i32) -> Result<()> {
        let lib = library().map_err(|w| boot(format!("PMIx: {w}")))?;
        let msg = format!("nexar: the job was aborted with exit code {code}");
        let msg = CString::new(msg).unwrap_or_default();
        let rc = bounded("PMIx_Abort", Duration::from_secs(1), move || {
            // SAFETY: a valid message; NULL procs means every process of this job.
            unsafe { (lib.abort)(code, msg.as_ptr(), std::ptr::null_mut(), 0) }
        })?;
        check(lib, "PMIx_Abort", rc)
    }
}
