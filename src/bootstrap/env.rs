//! Reading and validating the launch environment (see the table in the module docs of
//! [`crate::bootstrap`]).

use super::Launch;
use crate::error::{Error, ErrorKind, Result};
use crate::security::JobSecret;
use std::path::Path;

/// Variables that hold or point at the job secret; removed from the environment once read.
pub const SECRET_VARS: [&str; 3] = [
    "NEXAR_SECRET_FD",
    "NEXAR_JOB_SECRET_FILE",
    "NEXAR_JOB_SECRET",
];

fn boot(msg: String) -> Error {
    Error::new(ErrorKind::Bootstrap, msg)
}

fn parse_u32(get: &dyn Fn(&str) -> Option<String>, name: &str) -> Result<Option<u32>> {
    match get(name) {
        None => Ok(None),
        Some(v) => v
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| boot(format!("{name}={v:?} is not a non-negative integer"))),
    }
}

fn parse_flag(get: &dyn Fn(&str) -> Option<String>, name: &str) -> Result<bool> {
    match get(name).as_deref().map(str::trim) {
        None | Some("" | "0" | "false" | "no") => Ok(false),
        Some("1" | "true" | "yes") => Ok(true),
        Some(v) => Err(boot(format!("{name}={v:?}: expected 1 or 0"))),
    }
}

/// Checks `host:port` (IPv6 literals in brackets) without resolving it.
fn check_rendezvous(v: &str) -> Result<String> {
    let v = v.trim();
    let bad = || {
        boot(format!(
            "NEXAR_RENDEZVOUS={v:?}: expected host:port (for example 10.0.0.1:7000)"
        ))
    };
    let (host, port) = v.rsplit_once(':').ok_or_else(bad)?;
    if host.is_empty() || port.parse::<u16>().map_or(true, |p| p == 0) {
        return Err(bad());
    }
    Ok(v.to_string())
}

/// The job secret from `NEXAR_SECRET_FD`, `NEXAR_JOB_SECRET_FILE` or `NEXAR_JOB_SECRET` (64
/// hex digits in the variable itself, for launchers that can pass variables but not files, such
/// as torchrun); `None` when none is set, an error when more than one is.
pub(super) fn read_secret(get: &dyn Fn(&str) -> Option<String>) -> Result<Option<JobSecret>> {
    let set: Vec<(&str, String)> = SECRET_VARS
        .iter()
        .filter_map(|&name| get(name).map(|v| (name, v)))
        .collect();
    let (name, value) = match set.as_slice() {
        [] => return Ok(None),
        [one] => one,
        more => {
            let names: Vec<&str> = more.iter().map(|(n, _)| *n).collect();
            return Err(boot(format!(
                "{} are all set; set only one source of the job secret",
                names.join(" and ")
            )));
        }
    };
    match *name {
        "NEXAR_SECRET_FD" => {
            let n: i32 = value.trim().parse().map_err(|_| {
                boot(format!(
                    "NEXAR_SECRET_FD={value:?} is not a file descriptor"
                ))
            })?;
            JobSecret::read_from_fd(n)
                .map(Some)
                .map_err(|e| boot(format!("NEXAR_SECRET_FD={n}: {}", e.message())))
        }
        "NEXAR_JOB_SECRET_FILE" => JobSecret::read_from_file(Path::new(value))
            .map(Some)
            .map_err(|e| boot(format!("NEXAR_JOB_SECRET_FILE: {}", e.message()))),
        // The value itself is never echoed: it is the secret.
        _ => JobSecret::parse(value.as_bytes())
            .ok()
            .filter(|_| value.trim().len() == 64)
            .map(Some)
            .ok_or_else(|| {
                boot(format!(
                    "NEXAR_JOB_SECRET holds {} characters: expected 64 hexadecimal digits \
                     (for example from `openssl rand -hex 32`)",
                    value.trim().len()
                ))
            }),
    }
}

/// Builds a [`Launch`] from variables looked up with `get`. Reads (and closes) the secret pipe
/// when one is named; never touches the process environment itself.
pub fn launch_from(get: &dyn Fn(&str) -> Option<String>) -> Result<Launch> {
    let rank = parse_u32(get, "NEXAR_RANK")?;
    let size = parse_u32(get, "NEXAR_SIZE")?;
    let (rank, size) = match (rank, size) {
        (None, None) => {
            if let Some(pmi) = super::pmi::detect(get)? {
                // Joining a PMI job talks to the process manager and starts the rendezvous:
                // Context::init does that (bootstrap::pmi), a plain Launch cannot.
                return Err(boot(format!(
                    "started by a PMI process manager ({pmi}): join with Context::init, \
                     which talks to it; a Launch cannot be read from the variables alone"
                )));
            }
            let overridden = get("NEXAR_RENDEZVOUS").is_some();
            if let Some(d) = super::schedulers::detect(get, overridden)? {
                return launch_detected(get, d);
            }
            // A singleton still closes a secret pipe it was handed.
            let secret = read_secret(get)?;
            return Ok(Launch {
                secret,
                ..Launch::singleton()
            });
        }
        (Some(_), None) => return Err(boot("NEXAR_RANK is set but NEXAR_SIZE is not".into())),
        (None, Some(_)) => return Err(boot("NEXAR_SIZE is set but NEXAR_RANK is not".into())),
        (Some(r), Some(s)) => (r, s),
    };
    if size == 0 {
        return Err(boot("NEXAR_SIZE=0: a world needs at least one rank".into()));
    }
    if rank >= size {
        return Err(boot(format!(
            "NEXAR_RANK={rank} is out of range for NEXAR_SIZE={size} (ranks are 0..{})",
            size - 1
        )));
    }
    let local_rank = parse_u32(get, "NEXAR_LOCAL_RANK")?.unwrap_or(rank);
    let rendezvous = get("NEXAR_RENDEZVOUS")
        .map(|v| check_rendezvous(&v))
        .transpose()?;
    let host_rendezvous = parse_flag(get, "NEXAR_RENDEZVOUS_HOST")? && rank == 0;
    let secret = read_secret(get)?;
    if size > 1 {
        if rendezvous.is_none() {
            return Err(boot(format!(
                "NEXAR_RENDEZVOUS is not set; a world of {size} needs the rendezvous address \
                 (host:port)"
            )));
        }
        if secret.is_none() {
            return Err(boot(format!(
                "no job secret: a world of {size} needs NEXAR_SECRET_FD (set by nexarrun), \
                 NEXAR_JOB_SECRET_FILE or NEXAR_JOB_SECRET"
            )));
        }
    }
    Ok(Launch {
        rank,
        size,
        local_rank,
        rendezvous,
        host_rendezvous,
        secret,
    })
}

/// Completes a launch found in a scheduler's variables: rank 0 hosts the rendezvous (the
/// derived one, or `NEXAR_RENDEZVOUS` when set), and a world of more than one needs a secret.
fn launch_detected(
    get: &dyn Fn(&str) -> Option<String>,
    d: super::schedulers::Detected,
) -> Result<Launch> {
    let rendezvous = match get("NEXAR_RENDEZVOUS") {
        Some(v) => Some(check_rendezvous(&v)?),
        None => d.rendezvous,
    };
    let secret = read_secret(get)?;
    if d.size > 1 && secret.is_none() {
        // A PMIx launch whose client library could not be loaded says why; under srun without
        // PMIx the usual cause is a site default of --mpi=none: PMI-2 and PMIx carry the secret
        // with no file at all.
        let hint = match (super::pmi::pmix::unavailable(get), d.source) {
            (Some(why), _) => format!(
                "; or let nexar use the PMIx server that started these ranks: its client \
                 library could not be loaded ({why}; install libpmix2 or name the library in \
                 NEXAR_PMIX_LIB), or start them with `srun --mpi=pmi2`"
            ),
            (None, "Slurm") => "; or start the ranks with `srun --mpi=pmix` or `srun --mpi=pmi2` \
                 (this srun provided neither: its default plugin is probably none; `srun \
                 --mpi=list` shows them), which need no file"
                .to_string(),
            _ => String::new(),
        };
        return Err(boot(format!(
            "{} launch of {} ranks: no job secret; set NEXAR_JOB_SECRET_FILE to a file (mode \
             0600) holding the job secret, shared by every rank, or NEXAR_JOB_SECRET to the \
             same 64 hex digits on every rank{hint}",
            d.source, d.size
        )));
    }
    Ok(Launch {
        rank: d.rank,
        size: d.size,
        local_rank: d.local_rank,
        host_rendezvous: d.size > 1 && d.rank == 0,
        rendezvous: if d.size > 1 { rendezvous } else { None },
        secret,
    })
}

/// Removes the secret-pointing variables from the process environment.
pub fn scrub_environment() {
    for name in SECRET_VARS {
        if std::env::var_os(name).is_some() {
            // SAFETY: called during library initialization, before the engine starts threads
            // that read the environment; the caller (Launch::from_env) documents this contract.
            unsafe { std::env::remove_var(name) };
        }
    }
}

/// The world size the launch variables (looked up with `get`) announce, found without joining
/// the job or reading the secret, in [`super::Launch::from_env`]'s order: `NEXAR_SIZE`, PMI's
/// `PMI_SIZE` (under PMIx the launcher's own variables), then Open MPI, Slurm, torchrun; 1 when
/// nothing launched this process. `None`
/// when the variables do not say (a PMI launch without `PMI_SIZE`) or are malformed.
pub fn announced_size(get: &dyn Fn(&str) -> Option<String>) -> Option<u32> {
    if get("NEXAR_SIZE").is_some() {
        return parse_u32(get, "NEXAR_SIZE").ok().flatten();
    }
    match super::pmi::detect(get).ok()? {
        // PMIx says the size only through its server; the launcher's own variables (Slurm's,
        // Open MPI's) say it too.
        Some(super::pmi::PmiAddr::Pmix { .. }) | None => {}
        Some(_) => return parse_u32(get, "PMI_SIZE").ok().flatten(),
    }
    let overridden = get("NEXAR_RENDEZVOUS").is_some();
    match super::schedulers::detect(get, overridden).ok()? {
        Some(d) => Some(d.size),
        None => Some(1),
    }
}

#[cfg(test)]
mod tests {
    use super::announced_size;

    fn size_of(vars: &[(&str, &str)]) -> Option<u32> {
        announced_size(&|k| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        })
    }

    #[test]
    fn announced_size_follows_the_launch_precedence() {
        assert_eq!(size_of(&[]), Some(1));
        assert_eq!(
            size_of(&[("NEXAR_RANK", "1"), ("NEXAR_SIZE", "4")]),
            Some(4)
        );
        assert_eq!(
            size_of(&[("PMI_FD", "5"), ("PMI_RANK", "0"), ("PMI_SIZE", "3")]),
            Some(3)
        );
        assert_eq!(size_of(&[("PMI_FD", "5")]), None);
        assert_eq!(size_of(&[("NEXAR_SIZE", "x")]), None);
    }
}
