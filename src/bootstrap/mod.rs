//! How a rank learns who it is and reaches the others.
//!
//! Environment contract (set by `nexarrun`, or by hand / another tool):
//!
//! | variable | meaning |
//! |---|---|
//! | `NEXAR_RANK`, `NEXAR_SIZE` | this process's world rank and the world size |
//! | `NEXAR_RENDEZVOUS` | `host:port` of the rendezvous |
//! | `NEXAR_SECRET_FD` | an inherited pipe the 32-byte job secret can be read from (nexarrun) |
//! | `NEXAR_JOB_SECRET_FILE` | a file holding the job secret (hand launches) |
//!
//! With none of these set the process is rank 0 of a world of 1, as in MPI.

use crate::config::Config;
use crate::error::{Error, ErrorKind, Result};
use crate::transport::{FrameSink, Transport};
use std::sync::Arc;

/// What a rank knows before it connects: its place in the world and how to find the others.
#[derive(Debug, Clone)]
pub struct Launch {
    /// World rank.
    pub rank: u32,
    /// World size.
    pub size: u32,
}

impl Launch {
    /// Reads the launch description from the environment (see the module docs).
    pub fn from_env() -> Result<Self> {
        if std::env::var_os("NEXAR_RANK").is_none() && std::env::var_os("NEXAR_SIZE").is_none() {
            return Ok(Self { rank: 0, size: 1 });
        }
        Err(Error::new(
            ErrorKind::Unsupported,
            "multi-process launches are not available yet",
        ))
    }
}

/// A connected world: the transport to every other rank and each rank's host name.
pub struct World {
    /// Carries frames to the other ranks.
    pub transport: Arc<dyn Transport>,
    /// Host name of every world rank (index = rank), for same-host splits.
    pub hosts: Vec<String>,
}

/// Connects this rank to the world described by `launch`.
pub async fn establish(launch: &Launch, _cfg: &Config, _sink: Arc<dyn FrameSink>) -> Result<World> {
    if launch.size != 1 {
        return Err(Error::new(
            ErrorKind::Unsupported,
            "multi-process launches are not available yet",
        ));
    }
    Ok(World {
        transport: Arc::new(crate::transport::SelfOnly),
        hosts: vec![hostname()],
    })
}

/// This machine's host name (empty if it cannot be read).
pub fn hostname() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is valid for its full length; gethostname NUL-terminates on success.
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    if rc != 0 {
        return String::new();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}
