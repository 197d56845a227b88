//! The hosts of the batch allocation `mpiexec` runs in, for a command line that names none:
//! what Open MPI's `mpirun` and hydra read from the scheduler.
//!
//! | scheduler | hosts and slots | other hosts' ranks started by |
//! |---|---|---|
//! | Slurm, more than one node (`SLURM_JOB_NUM_NODES` > 1) | `SLURM_JOB_NODELIST` (hostlist syntax) with `SLURM_TASKS_PER_NODE` (`2(x3),1`) | `srun`, one step per node ([`Via::Srun`]); this node is `SLURMD_NODENAME` |
//! | PBS / Torque | `PBS_NODEFILE`: one line per slot | the remote shell |
//! | LSF | `LSB_DJOB_HOSTFILE`: one line per slot | the remote shell |
//!
//! A one-node Slurm allocation is handled by its task count alone (`SLURM_NTASKS`, in
//! [`crate::mpiexec_args`]): every rank runs here.

use crate::hosts::{self, HostSlots};
use crate::rsh::Via;
use std::ffi::OsString;

/// The allocation's hosts and how to reach them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allocation {
    /// Hosts in the scheduler's order, with their slots.
    pub hosts: Vec<HostSlots>,
    /// How ranks on the other hosts are started.
    pub via: Via,
    /// This node's name in the scheduler's terms, when it may differ from the host name.
    pub this_node: Option<String>,
}

fn var(getenv: &impl Fn(&str) -> Option<OsString>, name: &str) -> Option<String> {
    getenv(name).map(|v| v.to_string_lossy().trim().to_string())
}

/// The allocation this process runs in, when a scheduler's variables say (see the module
/// table). `Err` names a malformed variable or an unreadable node file.
pub fn hosts(getenv: &impl Fn(&str) -> Option<OsString>) -> Result<Option<Allocation>, String> {
    if let Some(a) = slurm(getenv)? {
        return Ok(Some(a));
    }
    for name in ["PBS_NODEFILE", "LSB_DJOB_HOSTFILE"] {
        if let Some(path) = var(getenv, name).filter(|p| !p.is_empty()) {
            let text = std::fs::read_to_string(&path)
                .map_err(|e| format!("cannot read {name}={path}: {e}"))?;
            let hosts = hosts::parse_hostfile(&text, &path)?;
            if !hosts.is_empty() {
                return Ok(Some(Allocation {
                    hosts,
                    via: Via::Rsh,
                    this_node: None,
                }));
            }
        }
    }
    Ok(None)
}

/// A Slurm allocation of more than one node.
fn slurm(getenv: &impl Fn(&str) -> Option<OsString>) -> Result<Option<Allocation>, String> {
    let nodes = var(getenv, "SLURM_JOB_NUM_NODES").or_else(|| var(getenv, "SLURM_NNODES"));
    let Some(nodes) = nodes else {
        return Ok(None);
    };
    let nodes: u32 = nodes
        .parse()
        .map_err(|_| format!("SLURM_JOB_NUM_NODES={nodes:?} is not a number"))?;
    if nodes <= 1 {
        return Ok(None);
    }
    let list = var(getenv, "SLURM_JOB_NODELIST")
        .or_else(|| var(getenv, "SLURM_NODELIST"))
        .ok_or("a Slurm allocation of several nodes without SLURM_JOB_NODELIST")?;
    let names = nexar::bootstrap::schedulers::expand_hostlist(&list)
        .map_err(|e| e.message().to_string())?;
    let per_node = var(getenv, "SLURM_TASKS_PER_NODE")
        .or_else(|| var(getenv, "SLURM_JOB_CPUS_PER_NODE"))
        .ok_or("a Slurm allocation of several nodes without SLURM_TASKS_PER_NODE")?;
    let counts = tasks_per_node(&per_node)?;
    if counts.len() != names.len() {
        return Err(format!(
            "SLURM_TASKS_PER_NODE={per_node:?} gives {} nodes, SLURM_JOB_NODELIST={list:?} {}",
            counts.len(),
            names.len()
        ));
    }
    Ok(Some(Allocation {
        hosts: names
            .into_iter()
            .zip(counts)
            .map(|(host, n)| HostSlots {
                host,
                slots: Some(n),
            })
            .collect(),
        via: Via::Srun,
        this_node: var(getenv, "SLURMD_NODENAME"),
    }))
}

/// Slurm's per-node counts: `2(x3),1` is 2, 2, 2, 1.
pub fn tasks_per_node(s: &str) -> Result<Vec<u32>, String> {
    let bad = || format!("SLURM_TASKS_PER_NODE={s:?} is not a list such as 2(x3),1");
    let mut out = Vec::new();
    for item in s.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let (count, times) = match item.split_once("(x") {
            Some((c, rest)) => (c, rest.strip_suffix(')').ok_or_else(bad)?),
            None => (item, "1"),
        };
        let count: u32 = count.parse().map_err(|_| bad())?;
        let times: usize = times.parse().map_err(|_| bad())?;
        out.extend(std::iter::repeat_n(count, times));
    }
    if out.is_empty() {
        return Err(bad());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<OsString> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.into())
    }

    #[test]
    fn slurm_counts() {
        assert_eq!(tasks_per_node("2(x3),1").unwrap(), [2, 2, 2, 1]);
        assert_eq!(tasks_per_node("4").unwrap(), [4]);
        for bad in ["", "x", "2(x", "2(xa)", "-1"] {
            assert!(tasks_per_node(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_slurm_allocation_of_several_nodes_is_its_hosts_through_srun() {
        let a = hosts(&env(&[
            ("SLURM_JOB_NUM_NODES", "3"),
            ("SLURM_JOB_NODELIST", "n[1-2],gpu7"),
            ("SLURM_TASKS_PER_NODE", "2(x2),1"),
            ("SLURMD_NODENAME", "n1"),
        ]))
        .unwrap()
        .unwrap();
        let got: Vec<(String, Option<u32>)> =
            a.hosts.into_iter().map(|h| (h.host, h.slots)).collect();
        assert_eq!(
            got,
            [
                ("n1".into(), Some(2)),
                ("n2".into(), Some(2)),
                ("gpu7".into(), Some(1))
            ]
        );
        assert_eq!(a.via, Via::Srun);
        assert_eq!(a.this_node.as_deref(), Some("n1"));
        // One node: left to the task count; none: nothing.
        assert!(
            hosts(&env(&[
                ("SLURM_JOB_NUM_NODES", "1"),
                ("SLURM_JOB_NODELIST", "n1")
            ]))
            .unwrap()
            .is_none()
        );
        assert!(hosts(&env(&[])).unwrap().is_none());
        let e = hosts(&env(&[
            ("SLURM_JOB_NUM_NODES", "2"),
            ("SLURM_JOB_NODELIST", "n[1-2]"),
            ("SLURM_TASKS_PER_NODE", "2(x3)"),
        ]))
        .unwrap_err();
        assert!(e.contains("gives 3 nodes"), "{e}");
    }

    #[test]
    fn pbs_and_lsf_node_files() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("nodes");
        std::fs::write(&f, "nodeA\nnodeA\nnodeB\n").unwrap();
        for var in ["PBS_NODEFILE", "LSB_DJOB_HOSTFILE"] {
            let a = hosts(&env(&[(var, f.to_str().unwrap())])).unwrap().unwrap();
            let names: Vec<&str> = a.hosts.iter().map(|h| h.host.as_str()).collect();
            assert_eq!(names, ["nodeA", "nodeA", "nodeB"]);
            assert_eq!(a.via, Via::Rsh);
        }
        let e = hosts(&env(&[("PBS_NODEFILE", "/nonexistent/nodes")])).unwrap_err();
        assert!(e.contains("PBS_NODEFILE=/nonexistent/nodes"), "{e}");
    }
}
