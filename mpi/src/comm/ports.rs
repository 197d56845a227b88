//! Client/server connections (MPI 4.1 §11.9): `MPI_Open_port`, `MPI_Close_port`,
//! `MPI_Comm_accept`, `MPI_Comm_connect`, `MPI_Comm_join`, and the name service
//! (`MPI_Publish_name`, `MPI_Lookup_name`, `MPI_Unpublish_name`).
//!
//! Ports are the engine's ([`nexar::Port`]): a name that is a capability, and a handshake that
//! proves it on both sides. The groups that meet form a new world kept with the spawned ones
//! ([`crate::state::Running::spawned`]) and parted the same way by `MPI_Comm_disconnect`.
//!
//! The name service is a directory of files, one per published service, holding the port name
//! (mode `0600`, in a `0700` directory): `NEXAR_NAME_DIR`, else `nexar-names-<uid>` in the
//! temporary directory. Processes of one user on one host (or on hosts sharing that
//! directory) see each other's names, as with Open MPI's `ompi-server` or MPICH's hydra name
//! server, without a daemon.

use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
use crate::state::{comm, errhandler_of, insert_comm, with_running};
use nexar::Port;
use parking_lot::Mutex;
use std::collections::HashMap;
use std::ffi::{CStr, c_char, c_int};
use std::path::PathBuf;
use std::sync::Arc;

/// `MPI_ERR_NAME`: a service name nobody published.
const MPI_ERR_NAME: c_int = 38;
/// `MPI_ERR_PORT`: an invalid or unknown port name.
const MPI_ERR_PORT: c_int = 43;
/// `MPI_ERR_SERVICE`: unpublishing a name that is not published.
const MPI_ERR_SERVICE: c_int = 51;
/// Room for a port name, its NUL included (`MPI_MAX_PORT_NAME`).
const MAX_PORT_NAME: usize = 1024;

/// Ports this process opened, by name.
static PORTS: Mutex<Option<HashMap<String, Arc<Port>>>> = Mutex::new(None);

/// A C string argument, or `MPI_ERR_ARG` naming it.
fn text(p: *const c_char, what: &str) -> Result<String> {
    non_null(p, what)?;
    // SAFETY: non-NULL; NUL-terminated per the MPI contract.
    Ok(unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
}

/// Writes `s` and a NUL into `out` (room for [`MAX_PORT_NAME`] bytes).
fn write_name(out: *mut c_char, s: &str) -> Result<()> {
    non_null(out, "port_name")?;
    if s.len() >= MAX_PORT_NAME {
        return Err(MpiError::new(
            MPI_ERR_INTERN,
            "a port name outgrew MPI_MAX_PORT_NAME",
        ));
    }
    // SAFETY: non-NULL with room for MPI_MAX_PORT_NAME bytes per the MPI contract.
    unsafe {
        std::ptr::copy_nonoverlapping(s.as_ptr(), out.cast::<u8>(), s.len());
        out.add(s.len()).write(0);
    }
    Ok(())
}

/// Opens a port and returns its name.
fn open_port() -> Result<String> {
    let ip = with_running(|r| Ok(r.ctx.config().bind_addr))?;
    let port = Port::open(ip).map_err(|e| MpiError::new(MPI_ERR_PORT, e.to_string()))?;
    let name = port.name().to_string();
    PORTS
        .lock()
        .get_or_insert_with(HashMap::new)
        .insert(name.clone(), Arc::new(port));
    Ok(name)
}

/// A meeting's engine error in MPI terms.
fn meet_error(e: nexar::Error) -> MpiError {
    use nexar::ErrorKind as K;
    match e.kind() {
        K::InvalidComm | K::InvalidRank | K::ProcFailed | K::Revoked => MpiError::from(e),
        _ => MpiError::new(MPI_ERR_PORT, e.to_string()),
    }
}

/// Accepts (`accepting`) or connects on `name` over `comm_h` and stores the intercommunicator.
fn meet(
    name: Option<String>,
    root: c_int,
    comm_h: MPI_Comm,
    newcomm: *mut MPI_Comm,
    accepting: bool,
) -> Result<()> {
    non_null(newcomm, "newcomm")?;
    let c = comm(comm_h)?;
    let root = crate::comm::spawn::root_arg(root, &c)?;
    let met = with_running(|r| {
        let ctx = r.context_of(&c)?;
        let got = if accepting {
            let port = name
                .as_ref()
                .and_then(|n| PORTS.lock().as_ref()?.get(n.trim()).cloned());
            if name.is_some() && port.is_none() {
                // Still take part, so the other members fail too instead of waiting.
                let _ = ctx.accept(None, &c, root);
                return Err(MpiError::new(
                    MPI_ERR_PORT,
                    "MPI_Comm_accept: the port was not opened by this process (or was closed)",
                ));
            }
            ctx.accept(port.as_deref(), &c, root)
        } else {
            ctx.connect(name.as_deref(), &c, root)
        };
        got.map_err(meet_error)
    })?;
    crate::comm::group::register_world(met.inter.world_id(), &met.origins);
    let h = insert_comm(met.inter, errhandler_of(comm_h))?;
    with_running(|r| {
        r.spawned.lock().push(Arc::new(met.world));
        Ok(())
    })?;
    // SAFETY: checked for NULL.
    unsafe { newcomm.write(h) };
    Ok(())
}

/// The name service's directory, created `0700` if missing.
fn name_dir() -> Result<PathBuf> {
    use std::os::unix::fs::DirBuilderExt;
    let dir = std::env::var_os("NEXAR_NAME_DIR").map_or_else(
        // SAFETY: getuid has no preconditions.
        || std::env::temp_dir().join(format!("nexar-names-{}", unsafe { libc::getuid() })),
        PathBuf::from,
    );
    match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
        Ok(()) => Ok(dir),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(dir),
        Err(e) => Err(MpiError::new(
            MPI_ERR_INTERN,
            format!("name service directory {}: {e}", dir.display()),
        )),
    }
}

/// The file of service `name` (hex-encoded, so any name is a safe file name).
fn service_file(name: &str) -> Result<PathBuf> {
    let hex: String = name.bytes().map(|b| format!("{b:02x}")).collect();
    Ok(name_dir()?.join(hex))
}

mpi_fn! {
    /// Opens a port and writes its name (at most `MPI_MAX_PORT_NAME` bytes with the NUL) to
    /// `port_name`. The name is a capability: any process that has it may connect. `info` is
    /// ignored. Local, thread-safe. Errors: `MPI_ERR_ARG` (NULL), `MPI_ERR_PORT` (no socket).
    fn MPI_Open_port(info: usize, port_name: *mut c_char) -> c_int => PMPI_Open_port {
        let _ = info;
        call("MPI_Open_port", MPI_COMM_WORLD, || {
            non_null(port_name, "port_name")?;
            write_name(port_name, &open_port()?)
        })
    }

    /// Closes a port this process opened: later connections to it fail. Local.
    /// Errors: `MPI_ERR_PORT` (not open here), `MPI_ERR_ARG` (NULL).
    fn MPI_Close_port(port_name: *const c_char) -> c_int => PMPI_Close_port {
        call("MPI_Close_port", MPI_COMM_WORLD, || {
            let name = text(port_name, "port_name")?;
            PORTS
                .lock()
                .as_mut()
                .and_then(|p| p.remove(name.trim()))
                .map(drop)
                .ok_or_else(|| MpiError::new(MPI_ERR_PORT, "MPI_Close_port: no such open port"))
        })
    }

    /// Waits for a group that connects to `port_name` (significant at `root` only, a port
    /// this process opened) and returns an intercommunicator to it. Collective over `comm`;
    /// blocks until a group connects. `info` is ignored. Errors: `MPI_ERR_PORT`,
    /// `MPI_ERR_ROOT`, `MPI_ERR_COMM`, `MPI_ERR_ARG`.
    fn MPI_Comm_accept(port_name: *const c_char, info: usize, root: c_int, comm_h: MPI_Comm,
        newcomm: *mut MPI_Comm) -> c_int => PMPI_Comm_accept
    {
        let _ = info;
        call("MPI_Comm_accept", comm_h, || {
            let me = comm(comm_h)?.rank();
            let name = (root >= 0 && me == root as u32)
                .then(|| text(port_name, "port_name"))
                .transpose()?;
            meet(name, root, comm_h, newcomm, true)
        })
    }

    /// Connects to the group accepting on `port_name` (significant at `root` only) and
    /// returns an intercommunicator to it. Collective over `comm`. Fails with `MPI_ERR_PORT`
    /// when the name is malformed, nobody answers within `NEXAR_CONNECT_TIMEOUT_MS`, or the
    /// answer does not prove the port's key. Also `MPI_ERR_ROOT`, `MPI_ERR_COMM`,
    /// `MPI_ERR_ARG`.
    fn MPI_Comm_connect(port_name: *const c_char, info: usize, root: c_int, comm_h: MPI_Comm,
        newcomm: *mut MPI_Comm) -> c_int => PMPI_Comm_connect
    {
        let _ = info;
        call("MPI_Comm_connect", comm_h, || {
            let me = comm(comm_h)?.rank();
            let name = (root >= 0 && me == root as u32)
                .then(|| text(port_name, "port_name"))
                .transpose()?;
            meet(name, root, comm_h, newcomm, false)
        })
    }

    /// Joins the process at the other end of the connected socket `fd` (both call it): an
    /// intercommunicator of the two. Each side opens a port, the two swap names over the
    /// socket, and the side with the smaller name accepts. Blocking, thread-safe. Errors:
    /// `MPI_ERR_ARG` (NULL, or a socket that fails), `MPI_ERR_PORT`.
    fn MPI_Comm_join(fd: c_int, intercomm: *mut MPI_Comm) -> c_int => PMPI_Comm_join {
        call("MPI_Comm_join", MPI_COMM_SELF, || {
            non_null(intercomm, "intercomm")?;
            let mine = open_port()?;
            let theirs = swap_names(fd, &mine);
            let result = theirs.and_then(|theirs| {
                if mine < theirs {
                    meet(Some(mine.clone()), 0, MPI_COMM_SELF, intercomm, true)
                } else {
                    meet(Some(theirs), 0, MPI_COMM_SELF, intercomm, false)
                }
            });
            if let Some(p) = PORTS.lock().as_mut() {
                p.remove(&mine);
            }
            result
        })
    }

    /// Publishes `port_name` under `service_name` in the name service (see the module
    /// documentation). `info` is ignored. Local. Errors: `MPI_ERR_SERVICE` (already
    /// published), `MPI_ERR_INTERN` (the directory cannot be written), `MPI_ERR_ARG`.
    fn MPI_Publish_name(service_name: *const c_char, info: usize, port_name: *const c_char)
        -> c_int => PMPI_Publish_name
    {
        let _ = info;
        call("MPI_Publish_name", MPI_COMM_WORLD, || {
            use std::io::Write;
            use std::os::unix::fs::OpenOptionsExt;
            let (service, port) = (text(service_name, "service_name")?, text(port_name, "port_name")?);
            let file = service_file(&service)?;
            let mut f = std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600)
                .open(&file)
                .map_err(|e| MpiError::new(MPI_ERR_SERVICE,
                    format!("cannot publish {service:?}: {e}")))?;
            f.write_all(port.as_bytes()).map_err(|e| MpiError::new(MPI_ERR_INTERN,
                format!("cannot publish {service:?}: {e}")))
        })
    }

    /// Removes `service_name` from the name service. Local. Errors: `MPI_ERR_SERVICE` (not
    /// published), `MPI_ERR_ARG`.
    fn MPI_Unpublish_name(service_name: *const c_char, info: usize, port_name: *const c_char)
        -> c_int => PMPI_Unpublish_name
    {
        let _ = (info, port_name);
        call("MPI_Unpublish_name", MPI_COMM_WORLD, || {
            let service = text(service_name, "service_name")?;
            std::fs::remove_file(service_file(&service)?).map_err(|e| MpiError::new(
                MPI_ERR_SERVICE, format!("cannot unpublish {service:?}: {e}")))
        })
    }

    /// The port name published under `service_name`, written to `port_name` (room for
    /// `MPI_MAX_PORT_NAME` bytes). `info` is ignored. Local. Errors: `MPI_ERR_NAME` (nothing
    /// published under that name), `MPI_ERR_ARG`.
    fn MPI_Lookup_name(service_name: *const c_char, info: usize, port_name: *mut c_char)
        -> c_int => PMPI_Lookup_name
    {
        let _ = info;
        call("MPI_Lookup_name", MPI_COMM_WORLD, || {
            let service = text(service_name, "service_name")?;
            let port = std::fs::read_to_string(service_file(&service)?).map_err(|e| MpiError::new(
                MPI_ERR_NAME, format!("no service {service:?} is published: {e}")))?;
            write_name(port_name, &port)
        })
    }
}

/// Sends `mine` over socket `fd` and reads the other side's name (length-prefixed).
fn swap_names(fd: c_int, mine: &str) -> Result<String> {
    use std::io::{Read, Write};
    use std::os::fd::{FromRawFd, IntoRawFd};
    if fd < 0 {
        return Err(MpiError::new(
            MPI_ERR_ARG,
            format!("fd {fd} is not a socket"),
        ));
    }
    // SAFETY: the caller owns `fd` (a connected socket per MPI_Comm_join's contract); it is
    // given back with into_raw_fd below, never closed here.
    let mut s = unsafe { std::net::TcpStream::from_raw_fd(fd) };
    let io = |e: std::io::Error| MpiError::new(MPI_ERR_ARG, format!("MPI_Comm_join: fd {fd}: {e}"));
    let res = (|| {
        s.write_all(&(mine.len() as u32).to_be_bytes())
            .map_err(io)?;
        s.write_all(mine.as_bytes()).map_err(io)?;
        let mut len = [0u8; 4];
        s.read_exact(&mut len).map_err(io)?;
        let len = u32::from_be_bytes(len) as usize;
        if len >= MAX_PORT_NAME {
            return Err(MpiError::new(
                MPI_ERR_PORT,
                "MPI_Comm_join: the other side sent no port name",
            ));
        }
        let mut buf = vec![0u8; len];
        s.read_exact(&mut buf).map_err(io)?;
        String::from_utf8(buf)
            .map_err(|_| MpiError::new(MPI_ERR_PORT, "MPI_Comm_join: a garbled port name"))
    })();
    let _ = s.into_raw_fd();
    res
}
