//! Scheduler launches across two "hosts" made of network namespaces (see tests/multihost_support),
//! WITHOUT `NEXAR_BIND_ADDR`: each rank must find on its own the address the other host reaches it
//! on (src/bootstrap/bind.rs). Ranks are started as the scheduler would start them (simulated
//! Slurm, torchrun and Open MPI variables), two per namespace, with `NEXAR_HOSTNAME` naming their
//! host and `/etc/netns/NS/hosts` resolving `hostA` / `hostB` to the namespace addresses. Each runs
//! examples/ranks/multihost_check.rs, which verifies its results and prints its transport counters; QUIC
//! must have carried traffic between the hosts and shared memory within each. The same job also
//! runs under MPICH's real `mpiexec.hydra` across the two namespaces (PMI: rank 0 compares host
//! names through the KVS). Needs root and `ip` (and `mpiexec.hydra` for the last test); otherwise
//! prints `SKIPPED: reason` and passes. Every wait has a deadline; processes are killed and the
//! namespaces deleted on drop.

mod common;
mod multihost_support;

use common::procs::example;
use multihost_support::*;
use std::process::Command;
use std::time::{Duration, Instant};

/// Variables of the scheduler, for world rank `rank` of 4 (2 per host).
type EnvFor = dyn Fn(u32) -> Vec<(String, String)>;

/// Variables no rank may inherit from the test's own environment.
const CLEARED: [&str; 12] = [
    "NEXAR_BIND_ADDR",
    "NEXAR_TRANSPORT",
    "NEXAR_BULK_LANE",
    "NEXAR_RANK",
    "NEXAR_SIZE",
    "NEXAR_RENDEZVOUS",
    "NEXAR_SECRET_FD",
    "PMI_FD",
    "PMI_PORT",
    "OMPI_COMM_WORLD_RANK",
    "SLURM_PROCID",
    "RANK",
];

/// Checks the `MULTIHOST` reports of 4 ranks (0, 1 on hostA; 2, 3 on hostB) in `out`.
fn check_reports(what: &str, out: &str, log: &str) {
    let mut rs = reports(out);
    rs.sort_by(|x, y| x["rank"].cmp(&y["rank"]));
    assert_eq!(rs.len(), 4, "{what}: expected 4 reports\n{log}");
    for (r, rep) in rs.iter().enumerate() {
        let host = if r < 2 { "hostA" } else { "hostB" };
        assert_eq!(rep["rank"], r.to_string(), "{what}");
        assert_eq!(rep["size"], "4", "{what}");
        assert_eq!(rep["host"], host, "{what}: rank {r}");
        assert_eq!(rep["transport"], "shm+quic", "{what}: rank {r}");
        let n = |k: &str| rep[k].parse::<u64>().unwrap();
        assert!(n("shm_bytes") > 0, "{what}: rank {r} used no shared memory");
        assert!(
            n("quic_bytes") > 0,
            "{what}: rank {r} sent nothing over QUIC"
        );
    }
}

/// Runs 4 ranks of multihost_check (0, 1 on hostA; 2, 3 on hostB) and checks their reports.
fn run_two_hosts(what: &str, env_for: &EnvFor) {
    let hosts = hosts_or_skip!();
    let _names = NameFiles::new(
        &[&hosts.a, &hosts.b],
        &[("hostA", LEADER_IP), ("hostB", JOINER_IP)],
    );
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("job.secret");
    nexar::security::JobSecret::generate()
        .unwrap()
        .write_file(&secret)
        .unwrap();
    let start = Instant::now();
    let mut ranks: Vec<Proc> = (0..4u32)
        .map(|r| {
            let (ns, host) = if r < 2 {
                (&hosts.a, "hostA")
            } else {
                (&hosts.b, "hostB")
            };
            let mut cmd = Command::new("ip");
            cmd.args(["netns", "exec", ns])
                .arg(example("multihost_check"))
                .env("NEXAR_HOSTNAME", host)
                .env("NEXAR_JOB_SECRET_FILE", &secret)
                .env("NEXAR_CONNECT_TIMEOUT_MS", "20000");
            for v in CLEARED {
                cmd.env_remove(v);
            }
            cmd.envs(env_for(r));
            Proc::spawn(cmd, dir.path(), &format!("rank{r}"))
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(45);
    let statuses: Vec<_> = ranks.iter_mut().map(|p| p.wait_until(deadline)).collect();
    let log = |p: &Proc, r: usize| format!("rank {r}:\n{}{}", p.stdout(), p.stderr());
    let all: String = ranks.iter().enumerate().map(|(r, p)| log(p, r)).collect();
    eprintln!(
        "{what}: 4 ranks on 2 hosts done in {:?}\n{all}",
        start.elapsed()
    );
    for (r, st) in statuses.iter().enumerate() {
        assert!(
            st.is_some_and(|s| s.success()),
            "{what}: rank {r} ended with {st:?}\n{all}"
        );
    }
    let out: String = ranks.iter().map(Proc::stdout).collect();
    check_reports(what, &out, &all);
}

fn pairs(v: &[(&str, String)]) -> Vec<(String, String)> {
    v.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()
}

#[test]
fn slurm_across_two_hosts_binds_routable_addresses() {
    // The rendezvous comes from the node list: hostA (resolved through the namespace's hosts
    // file), port 20000 + (job * 31 + step) mod 10000.
    let job = (std::process::id() % 100_000).to_string();
    run_two_hosts("Slurm", &move |r| {
        pairs(&[
            ("SLURM_PROCID", r.to_string()),
            ("SLURM_NTASKS", "4".into()),
            ("SLURM_LOCALID", (r % 2).to_string()),
            ("SLURM_STEP_NODELIST", "hostA,hostB".into()),
            ("SLURM_JOB_ID", job.clone()),
            ("SLURM_STEP_ID", "0".into()),
        ])
    });
}

#[test]
fn torchrun_across_two_hosts_binds_routable_addresses() {
    run_two_hosts("torchrun", &|r| {
        pairs(&[
            ("RANK", r.to_string()),
            ("WORLD_SIZE", "4".into()),
            ("LOCAL_RANK", (r % 2).to_string()),
            ("LOCAL_WORLD_SIZE", "2".into()),
            ("MASTER_ADDR", "hostA".into()),
            ("MASTER_PORT", "29500".into()),
        ])
    });
}

#[test]
fn open_mpi_across_two_hosts_binds_routable_addresses() {
    // Open MPI derives no rendezvous across hosts: NEXAR_RENDEZVOUS names rank 0's host.
    run_two_hosts("Open MPI", &|r| {
        pairs(&[
            ("OMPI_COMM_WORLD_RANK", r.to_string()),
            ("OMPI_COMM_WORLD_SIZE", "4".into()),
            ("OMPI_COMM_WORLD_LOCAL_RANK", (r % 2).to_string()),
            ("OMPI_COMM_WORLD_LOCAL_SIZE", "2".into()),
            ("NEXAR_RENDEZVOUS", "hostA:23456".into()),
        ])
    });
}

/// A stand-in for `ssh` that hydra calls as `SCRIPT [-x] HOST COMMAND...`: runs the command in
/// that host's namespace, under its host name.
fn ssh_script(dir: &std::path::Path, hosts: &Hosts) -> std::path::PathBuf {
    let path = dir.join("netns-ssh.sh");
    let text = format!(
        r#"#!/bin/sh
while [ "${{1#-}}" != "$1" ]; do shift; done
host=$1; shift
case $host in
{LEADER_IP}|hostA) ns={a}; name=hostA;;
{JOINER_IP}|hostB) ns={b}; name=hostB;;
*) echo "netns-ssh: unknown host $host" >&2; exit 255;;
esac
exec ip netns exec $ns unshare --uts sh -c "hostname $name && exec sh -c \"\$0\"" "$*"
"#,
        a = hosts.a,
        b = hosts.b
    );
    std::fs::write(&path, text).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
fn hydra_across_two_hosts_binds_routable_addresses() {
    let hydra_ok = Command::new("mpiexec.hydra")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !hydra_ok {
        eprintln!("SKIPPED: hydra netns test: mpiexec.hydra is not installed");
        return;
    }
    let hosts = hosts_or_skip!();
    let _names = NameFiles::new(
        &[&hosts.a, &hosts.b],
        &[("hostA", LEADER_IP), ("hostB", JOINER_IP)],
    );
    let dir = tempfile::tempdir().unwrap();
    let script = ssh_script(dir.path(), &hosts);
    // mpiexec runs on hostA; hydra starts hostA's proxy itself and hostB's through the script.
    // `-iface eth0`: the proxies reach mpiexec on the namespace's address.
    let mut cmd = Command::new("ip");
    cmd.args(["netns", "exec", &hosts.a, "unshare", "--uts", "sh", "-c"])
        .arg("hostname hostA && exec \"$0\" \"$@\"")
        .arg("mpiexec.hydra")
        .args(["-launcher", "ssh", "-launcher-exec"])
        .arg(&script)
        .args(["-iface", "eth0", "-hosts"])
        .arg(format!("{LEADER_IP}:2,{JOINER_IP}:2"))
        .args(["-n", "4"])
        .arg(example("multihost_check"))
        .env("NEXAR_CONNECT_TIMEOUT_MS", "20000")
        .env_remove("NEXAR_JOB_SECRET_FILE");
    for v in CLEARED {
        cmd.env_remove(v);
    }
    let start = Instant::now();
    let mut job = Proc::spawn_group(cmd, dir.path(), "mpiexec");
    let st = job.wait_until(Instant::now() + Duration::from_secs(45));
    let (out, err) = (job.stdout(), job.stderr());
    let log = format!("stdout:\n{out}stderr:\n{err}");
    eprintln!(
        "hydra: 4 ranks on 2 hosts done in {:?}\n{log}",
        start.elapsed()
    );
    assert!(
        st.is_some_and(|s| s.success()),
        "hydra ended with {st:?}\n{log}"
    );
    check_reports("hydra", &out, &log);
}
