//! Launches by other tools: Open MPI's `mpirun`, Slurm's `srun` and PyTorch's `torchrun`.
//!
//! Consulted only when nexar's own `NEXAR_RANK` / `NEXAR_SIZE` are absent, in this order (the
//! first whose rank variable is set wins): Open MPI (`OMPI_COMM_WORLD_RANK`), Slurm
//! (`SLURM_PROCID`), torchrun (`RANK`). See the table in [`crate::bootstrap`] for the
//! rendezvous and port each one derives. A PMI process manager (`PMI_FD`, `PMI_PORT`: MPICH's
//! hydra, Slurm's `srun --mpi=pmi2`) ranks above all three and is handled by
//! [`crate::bootstrap::pmi`], which talks to it.

use crate::error::{Error, ErrorKind, Result};

/// First port of the range derived ports fall in (above the well-known and most registered
/// service ports).
pub const DERIVED_PORT_BASE: u16 = 20000;
/// Number of ports in the derived range (`20000..=29999`).
pub const DERIVED_PORT_SPAN: u16 = 10000;

/// What a scheduler's environment says about this process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Detected {
    /// The scheduler, for messages (`"Open MPI"`, `"Slurm"`, `"torchrun"`).
    pub source: &'static str,
    /// World rank.
    pub rank: u32,
    /// World size.
    pub size: u32,
    /// Rank on this host.
    pub local_rank: u32,
    /// `host:port` of the rendezvous rank 0 hosts, derived from the scheduler's variables
    /// (`None` for a world of one, or when `NEXAR_RENDEZVOUS` overrides it).
    pub rendezvous: Option<String>,
}

type Get<'a> = &'a dyn Fn(&str) -> Option<String>;

fn boot(msg: String) -> Error {
    Error::new(ErrorKind::Bootstrap, msg)
}

fn num<T: std::str::FromStr>(get: Get<'_>, name: &str) -> Result<Option<T>> {
    match get(name) {
        None => Ok(None),
        Some(v) => v
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| boot(format!("{name}={v:?} is not a non-negative integer"))),
    }
}

fn required<T: std::str::FromStr>(get: Get<'_>, name: &str, source: &str) -> Result<T> {
    num(get, name)?.ok_or_else(|| boot(format!("{source} launch: {name} is not set")))
}

/// Rank, size and local rank from a scheduler's rank, size and local-rank variables: the first
/// two required and checked, the local rank defaulting to the rank.
fn place(
    get: Get<'_>,
    src: &str,
    [rank_var, size_var, local_var]: [&str; 3],
) -> Result<(u32, u32, u32)> {
    let rank: u32 = required(get, rank_var, src)?;
    let size: u32 = required(get, size_var, src)?;
    check_place(rank, size, rank_var, size_var)?;
    let local_rank = num(get, local_var)?.unwrap_or(rank);
    Ok((rank, size, local_rank))
}

/// Checks `rank < size` and `size > 0`, naming the variables on failure.
fn check_place(rank: u32, size: u32, rank_var: &str, size_var: &str) -> Result<()> {
    if size == 0 {
        return Err(boot(format!(
            "{size_var}=0: a world needs at least one rank"
        )));
    }
    if rank >= size {
        return Err(boot(format!(
            "{rank_var}={rank} is out of range for {size_var}={size} (ranks are 0..{})",
            size - 1
        )));
    }
    Ok(())
}

/// Maps a job-unique number into `20000..=29999`.
pub fn derived_port(key: u64) -> u16 {
    DERIVED_PORT_BASE + (key % u64::from(DERIVED_PORT_SPAN)) as u16
}

/// Slurm: `20000 + (SLURM_JOB_ID * 31 + SLURM_STEP_ID) mod 10000`, so concurrent steps of one
/// job and consecutive jobs get different ports.
pub fn slurm_port(job_id: u64, step_id: u64) -> u16 {
    derived_port(job_id.wrapping_mul(31).wrapping_add(step_id))
}

/// torchrun: `MASTER_PORT + 1`, or 1024 when that falls outside `1024..=65535` (torchrun's
/// agent may own `MASTER_PORT` itself).
pub fn torchrun_port(master_port: u16) -> u16 {
    match master_port.checked_add(1) {
        Some(p) if p >= 1024 => p,
        _ => 1024,
    }
}

/// 64-bit FNV-1a, to turn a job name (`PMIX_NAMESPACE`) into a port key.
fn fnv1a(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Open MPI on one host: `20000 + OMPI_MCA_ess_base_jobid mod 10000`, else the FNV-1a hash of
/// `PMIX_NAMESPACE` in its place.
fn ompi_port(get: Get<'_>) -> Result<Option<u16>> {
    if let Some(id) = num::<u64>(get, "OMPI_MCA_ess_base_jobid")? {
        return Ok(Some(derived_port(id)));
    }
    Ok(get("PMIX_NAMESPACE").map(|ns| derived_port(fnv1a(ns.trim()))))
}

/// Expands a Slurm hostlist such as `node[01-03,07],gpu5` (zero padding kept, several bracket
/// groups in one name multiply out).
pub fn expand_hostlist(list: &str) -> Result<Vec<String>> {
    let bad = |why: &str| boot(format!("Slurm hostlist {list:?}: {why}"));
    let mut hosts = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    let bytes = list.as_bytes();
    for i in 0..=bytes.len() {
        match bytes.get(i) {
            Some(b'[') => depth += 1,
            Some(b']') if depth == 0 => return Err(bad("unbalanced ']'")),
            Some(b']') => depth -= 1,
            Some(b',') | None if depth == 0 => {
                let item = list[start..i].trim();
                if !item.is_empty() {
                    hosts.extend(expand_one(item).map_err(|why| bad(&why))?);
                }
                start = i + 1;
            }
            None => return Err(bad("unbalanced '['")),
            _ => {}
        }
    }
    if hosts.is_empty() {
        return Err(bad("names no host"));
    }
    Ok(hosts)
}

/// Expands one name with zero or more `[...]` groups.
fn expand_one(item: &str) -> std::result::Result<Vec<String>, String> {
    let Some(open) = item.find('[') else {
        return Ok(vec![item.to_string()]);
    };
    let close = open + item[open..].find(']').ok_or("unbalanced '['")?;
    let (prefix, group, rest) = (&item[..open], &item[open + 1..close], &item[close + 1..]);
    let tails = expand_one(rest)?;
    let mut out = Vec::new();
    for range in group.split(',') {
        let range = range.trim();
        let (lo, hi) = range.split_once('-').unwrap_or((range, range));
        let parse = |s: &str| {
            s.parse::<u64>()
                .map_err(|_| format!("{range:?} is not a number or a range"))
        };
        let (l, h) = (parse(lo)?, parse(hi)?);
        if l > h {
            return Err(format!("range {range:?} runs backwards"));
        }
        for n in l..=h {
            for t in &tails {
                out.push(format!("{prefix}{n:0width$}{t}", width = lo.len()));
            }
        }
    }
    Ok(out)
}

/// The first host of a Slurm hostlist, without expanding the rest.
pub fn first_host(list: &str) -> Result<String> {
    let first_item = {
        let mut depth = 0;
        let end = list
            .char_indices()
            .find(|&(_, c)| {
                match c {
                    '[' => depth += 1,
                    ']' => depth -= 1,
                    _ => {}
                }
                c == ',' && depth == 0
            })
            .map_or(list.len(), |(i, _)| i);
        &list[..end]
    };
    // Keep only each group's first number, so `n[1-1000000]` is not expanded to find `n1`.
    let mut reduced = String::new();
    let mut rest = first_item;
    while let Some(open) = rest.find('[') {
        let close = open
            + rest[open..]
                .find(']')
                .ok_or_else(|| boot(format!("Slurm hostlist {list:?}: unbalanced '['")))?;
        let group = &rest[open + 1..close];
        let first = group.split([',', '-']).next().unwrap_or_default();
        reduced.push_str(&rest[..open]);
        reduced.push_str(&format!("[{first}]"));
        rest = &rest[close + 1..];
    }
    reduced.push_str(rest);
    expand_hostlist(&reduced)?
        .into_iter()
        .next()
        .ok_or_else(|| boot(format!("Slurm hostlist {list:?} names no host")))
}

fn open_mpi(get: Get<'_>, overridden: bool) -> Result<Detected> {
    let src = "Open MPI";
    let (rank, size, local_rank) = place(
        get,
        src,
        [
            "OMPI_COMM_WORLD_RANK",
            "OMPI_COMM_WORLD_SIZE",
            "OMPI_COMM_WORLD_LOCAL_RANK",
        ],
    )?;
    let local_size: u32 = num(get, "OMPI_COMM_WORLD_LOCAL_SIZE")?.unwrap_or(size);
    let rendezvous = if overridden || size == 1 {
        None
    } else if local_size != size {
        return Err(boot(format!(
            "Open MPI launch across hosts (OMPI_COMM_WORLD_LOCAL_SIZE={local_size} < \
             OMPI_COMM_WORLD_SIZE={size}): set NEXAR_RENDEZVOUS to host:port on rank 0's host"
        )));
    } else {
        let port = ompi_port(get)?.ok_or_else(|| {
            boot(
                "Open MPI launch: neither OMPI_MCA_ess_base_jobid nor PMIX_NAMESPACE is set \
                 to derive a rendezvous port from; set NEXAR_RENDEZVOUS"
                    .into(),
            )
        })?;
        Some(format!("127.0.0.1:{port}"))
    };
    Ok(Detected {
        source: src,
        rank,
        size,
        local_rank,
        rendezvous,
    })
}

fn slurm(get: Get<'_>, overridden: bool) -> Result<Detected> {
    let src = "Slurm";
    // Only srun sets the step's node list. A program started directly in a batch script (or
    // an salloc shell), which also sees SLURM_PROCID / SLURM_NTASKS of the allocation, is one
    // process on its own: a world of one, as Open MPI and MPICH run it.
    if get("SLURM_STEP_NODELIST").is_none() && !overridden {
        return Ok(Detected {
            source: "Slurm (outside srun: a world of one)",
            rank: 0,
            size: 1,
            local_rank: 0,
            rendezvous: None,
        });
    }
    let (rank, size, local_rank) =
        place(get, src, ["SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"])?;
    let rendezvous = if overridden || size == 1 {
        None
    } else {
        let list = get("SLURM_STEP_NODELIST").ok_or_else(|| {
            boot(
                "Slurm launch: SLURM_STEP_NODELIST is not set (not started by srun?); start the \
                 ranks with srun or set NEXAR_RENDEZVOUS"
                    .into(),
            )
        })?;
        let job: u64 = required(get, "SLURM_JOB_ID", src)?;
        let step: u64 = num(get, "SLURM_STEP_ID")?.unwrap_or(0);
        // A step on one node needs no name lookup (Slurm node names need not resolve).
        let host = if expand_hostlist(list.trim())?.len() == 1 {
            "127.0.0.1".to_string()
        } else {
            first_host(list.trim())?
        };
        Some(format!("{host}:{}", slurm_port(job, step)))
    };
    Ok(Detected {
        source: src,
        rank,
        size,
        local_rank,
        rendezvous,
    })
}

fn torchrun(get: Get<'_>, overridden: bool) -> Result<Detected> {
    let src = "torchrun";
    let (rank, size, local_rank) = place(get, src, ["RANK", "WORLD_SIZE", "LOCAL_RANK"])?;
    let rendezvous = if overridden || size == 1 {
        None
    } else {
        let addr = get("MASTER_ADDR")
            .map(|a| a.trim().to_string())
            .filter(|a| !a.is_empty())
            .ok_or_else(|| boot("torchrun launch: MASTER_ADDR is not set".into()))?;
        let port: u16 = required(get, "MASTER_PORT", src)?;
        if port == 0 {
            return Err(boot("MASTER_PORT=0 is not a port".into()));
        }
        // IPv6 literals need brackets in host:port.
        let host = if addr.contains(':') && !addr.starts_with('[') {
            format!("[{addr}]")
        } else {
            addr
        };
        Some(format!("{host}:{}", torchrun_port(port)))
    };
    Ok(Detected {
        source: src,
        rank,
        size,
        local_rank,
        rendezvous,
    })
}

/// Detects a launch by Open MPI, Slurm or torchrun (in that order of precedence), or returns
/// `None` when none of them started this process. PMI variables are not looked at here (the
/// caller checks [`crate::bootstrap::pmi::detect`] first). `overridden`: `NEXAR_RENDEZVOUS` is set and
/// replaces the derived rendezvous (the result's `rendezvous` is then `None`).
pub fn detect(get: Get<'_>, overridden: bool) -> Result<Option<Detected>> {
    if get("OMPI_COMM_WORLD_RANK").is_some() {
        return open_mpi(get, overridden).map(Some);
    }
    if get("SLURM_PROCID").is_some() {
        return slurm(get, overridden).map(Some);
    }
    if get("RANK").is_some() && get("WORLD_SIZE").is_some() {
        return torchrun(get, overridden).map(Some);
    }
    Ok(None)
}

#[cfg(test)]
mod tests;
