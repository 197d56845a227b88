//! `mpiexec -H hostA:2,hostB:2 prog` / `-hostfile FILE` with hosts other than this one: the
//! ranks are spread over the hosts in list order and the job runs as `nexarrun -H` runs it
//! (see [`crate::rsh`]): this launcher leads and runs the first host's ranks, and starts one
//! joining `nexarrun` per other host through `NEXAR_RSH` (default `ssh`).
//!
//! Spreading: each host takes up to its slots (`-ppn N` for every host when given, else its
//! stated slots, else 1) in list order until the `-n` ranks are placed; without `-n`, every
//! slot is filled. Consecutive entries of the same host (`-H a,a,b,b`) and the leading entries
//! that name this machine merge. When all ranks fit on this machine (`-H localhost:4,node7:4
//! -n 2`), the job runs on this host alone, as with local-only host lists.
//!
//! The first host must be this machine (the leader runs there). One application context
//! only: MPMD (`:`) across hosts is refused. The remote ranks start in `-wdir` (default: this
//! launcher's working directory, as with Hydra) with the job's exported variables (`-env`,
//! `-genv`, `-x`, `-envlist`, `-genvlist`) set on the remote command line; everything else of
//! their environment is the remote shell's. The secret file: `--secret-file PATH`, else
//! `NEXAR_JOB_SECRET_FILE`, with the same rules as `nexarrun -H`.

use crate::hosts::HostSlots;
use crate::launch::{Leading, Plan};
use crate::rsh::{self, HostJob, RemoteRun, Via};
use std::path::PathBuf;

/// The ranks of a job across hosts, as the command line spreads them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spread {
    /// Ranks on this machine (world ranks `0..local`).
    pub local: u32,
    /// The other hosts, in order, with their rank counts (none is empty).
    pub remote: Vec<(String, u32)>,
}

impl Spread {
    /// World size.
    pub fn size(&self) -> u32 {
        self.local + self.remote.iter().map(|r| r.1).sum::<u32>()
    }
}

/// Spreads `n` ranks (`None`: every slot) over `hosts`; `here` says whether a host is this
/// machine. `Err` names the problem.
pub fn spread(
    hosts: &[HostSlots],
    n: Option<u32>,
    ppn: Option<u32>,
    here: impl Fn(&str) -> bool,
) -> Result<Spread, String> {
    let first = hosts.first().ok_or("no hosts given")?;
    if !here(&first.host) {
        return Err(format!(
            "the first host '{}' must be this machine: mpiexec leads the job and runs the \
             first host's ranks (list this host first)",
            first.host
        ));
    }
    let capacity = |h: &HostSlots| u64::from(ppn.unwrap_or(h.slots.unwrap_or(1)));
    let total: u64 = hosts.iter().map(capacity).sum();
    let mut left = match n {
        Some(n) if u64::from(n) > total => {
            return Err(format!(
                "-n {n} is more than the {total} slots of the hosts given (oversubscribing \
                 hosts other than this one is not supported: give more slots, host:N)"
            ));
        }
        Some(n) => u64::from(n),
        None => total,
    };
    if left > u64::from(u32::MAX) {
        return Err(format!("{left} ranks are too many"));
    }
    let mut local = 0u32;
    let mut remote: Vec<(String, u32)> = Vec::new();
    let mut leading = true;
    for h in hosts {
        let take = capacity(h).min(left) as u32;
        left -= u64::from(take);
        leading = leading && here(&h.host);
        if take == 0 {
            continue;
        }
        match remote.last_mut() {
            _ if leading => local += take,
            Some((last, k)) if *last == h.host => *k += take,
            _ => remote.push((h.host.clone(), take)),
        }
    }
    Ok(Spread { local, remote })
}

/// The leader of an `mpiexec` job across hosts: `plan` (one application context, its count
/// already this host's share) and `spread`; `secret_file` is `--secret-file`, if given.
pub fn leading(
    plan: &Plan,
    spread: Spread,
    secret_file: Option<PathBuf>,
    via: Via,
) -> Result<Leading, String> {
    // The missing secret file is the likelier mistake: say so before anything else (srun
    // carries the secret itself).
    if via == Via::Rsh {
        crate::secret_file::resolve(secret_file.as_deref())?;
    }
    let ctx = plan
        .contexts
        .first()
        .ok_or("no application context to run")?;
    let wdir = match &ctx.wdir {
        Some(d) if d.is_absolute() => d.clone(),
        other => {
            let here = std::env::current_dir()
                .map_err(|e| format!("cannot read the working directory: {e}"))?;
            other.as_ref().map_or(here.clone(), |d| here.join(d))
        }
    };
    // Slurm node names need not resolve: listen where this host's name routes (as rank 0 under
    // PMI does).
    let listen = match (via, rsh::listen_towards(&spread.remote[0].0)) {
        (_, Ok(l)) => l,
        (Via::Srun, Err(_)) => {
            let host = nexar::bootstrap::hostname();
            let ip = nexar::bootstrap::bind::rendezvous_ip(false, &host)
                .map_err(|e| e.message().to_string())?;
            std::net::SocketAddr::new(ip, 0)
        }
        (Via::Rsh, Err(e)) => return Err(e),
    };
    let job = HostJob {
        local: spread.local,
        size: spread.size(),
        listen,
        remote: spread.remote,
    };
    let mut command = vec![ctx.program.clone()];
    command.extend(ctx.args.iter().cloned());
    let run = RemoteRun {
        via,
        command,
        tag_output: plan.tag_output,
        env: ctx.env.clone(),
        wdir: Some(wdir),
    };
    rsh::leading(job, secret_file.as_deref(), run)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hosts::parse_host_list;

    fn here(h: &str) -> bool {
        matches!(h, "box" | "localhost" | "127.0.0.1")
    }

    fn sp(list: &str, n: Option<u32>, ppn: Option<u32>) -> Result<Spread, String> {
        spread(&parse_host_list(list).unwrap(), n, ppn, here)
    }

    fn remote(v: &[(&str, u32)]) -> Vec<(String, u32)> {
        v.iter().map(|(h, k)| (h.to_string(), *k)).collect()
    }

    #[test]
    fn fills_hosts_in_order_up_to_their_slots() {
        let s = sp("box:2,nodeB:2", None, None).unwrap();
        assert_eq!((s.local, s.remote.clone()), (2, remote(&[("nodeB", 2)])));
        assert_eq!(s.size(), 4);
        let s = sp("box:2,nodeB:2,nodeC:4", Some(5), None).unwrap();
        assert_eq!(s.local, 2);
        assert_eq!(s.remote, remote(&[("nodeB", 2), ("nodeC", 1)]));
        // Hosts without a count offer one slot; repeated entries merge.
        let s = sp("box,box,nodeB,nodeB,nodeC", None, None).unwrap();
        assert_eq!(s.local, 2);
        assert_eq!(s.remote, remote(&[("nodeB", 2), ("nodeC", 1)]));
        // Leading entries naming this machine merge too.
        let s = sp("localhost:1,127.0.0.1:2,nodeB", None, None).unwrap();
        assert_eq!((s.local, s.remote.len()), (3, 1));
    }

    #[test]
    fn ppn_sets_every_hosts_share() {
        let s = sp("box:8,nodeB", None, Some(3)).unwrap();
        assert_eq!((s.local, s.remote.clone()), (3, remote(&[("nodeB", 3)])));
        let s = sp("box,nodeB", Some(4), Some(2)).unwrap();
        assert_eq!((s.local, s.remote.clone()), (2, remote(&[("nodeB", 2)])));
    }

    #[test]
    fn ranks_that_fit_here_stay_here() {
        let s = sp("box:4,nodeB:4", Some(3), None).unwrap();
        assert_eq!((s.local, s.remote.len()), (3, 0));
    }

    #[test]
    fn refusals_say_why() {
        let e = sp("nodeB:2,box:2", None, None).unwrap_err();
        assert!(e.contains("'nodeB' must be this machine"), "{e}");
        let e = sp("box:2,nodeB:2", Some(5), None).unwrap_err();
        assert!(e.contains("-n 5 is more than the 4 slots"), "{e}");
        assert!(spread(&[], None, None, here).is_err());
    }
}
