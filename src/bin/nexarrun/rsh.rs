//! `nexarrun -H hostA:2,hostB:2 prog`: a multi-host job whose joiners the leader starts itself
//! through a remote shell (`NEXAR_RSH`, default `ssh`; words split on blanks), as
//! `RSH host nexarrun --join IP:PORT --local K --secret-file PATH [-l] prog args...`.
//!
//! The first host of the list must be this one (the leader); the others each get a joiner, in
//! list order. The leader listens on the local address that routes to the first remote host
//! (or `--listen`), on a free port. The remote `nexarrun` is this executable's path, and the
//! secret file must be at the same path on every host (a shared home directory): the secret
//! never travels on a command line.
//!
//! `mpiexec -H` / `-hostfile` with other hosts takes the same path (see
//! [`crate::mpiexec_hosts`]); its remote command line first changes to the working directory
//! and sets the job's exported variables: `cd DIR && env VAR=VAL ... nexarrun --join ...`.

use crate::hosts::{self, HostSlots};
use crate::launch::Leading;
use crate::secret_file;
use nexar::security::JobSecret;
use std::ffi::OsString;
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::path::{Path, PathBuf};

/// How the leader starts a joiner on another host.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Via {
    /// The remote shell `NEXAR_RSH` (default `ssh`): `RSH host 'command line'`.
    #[default]
    Rsh,
    /// Slurm's own launcher, inside an allocation (as hydra's `-launcher slurm`): one job step
    /// per host, `srun --nodes=1 --ntasks=1 --nodelist=host --overlap --whole /bin/sh -c 'command
    /// line'`. The job secret travels in the step's environment (`NEXAR_JOB_SECRET`, carried by
    /// Slurm's authenticated channel), so no shared secret file is needed.
    Srun,
}

/// `srun`'s options for a joiner's step: one task on the one node, sharing the allocation's
/// resources with the leader's step (`--overlap`) and holding every CPU of the node the job has
/// (`--whole`: the joiner's ranks must not share one task's CPU), no PMI (the joiner and its
/// ranks use nexar's own start-up), and the whole job ended if the joiner fails.
pub const SRUN_JOINER: [&str; 6] = [
    "--nodes=1",
    "--ntasks=1",
    "--overlap",
    "--whole",
    "--mpi=none",
    "--kill-on-bad-exit=1",
];

/// What the joiners run, as the remote command line gives it to them.
#[derive(Debug, Clone, Default)]
pub struct RemoteRun {
    /// How the joiners are started.
    pub via: Via,
    /// The program and its arguments.
    pub command: Vec<OsString>,
    /// Pass `-l` on.
    pub tag_output: bool,
    /// Variables set on the remote command line (`env VAR=VAL ...`), for the joiner's ranks.
    pub env: Vec<(OsString, OsString)>,
    /// The remote working directory (`cd DIR && ...`); `None`: the remote shell's.
    pub wdir: Option<PathBuf>,
}

/// The joiners a leader starts through the remote shell.
#[derive(Debug, Clone)]
pub struct RshPlan {
    /// Remote hosts, in list order, with their rank counts.
    pub hosts: Vec<(String, u32)>,
    /// The secret file (same path on every host); `None` when the secret travels in the
    /// joiners' environment instead ([`Via::Srun`]).
    pub secret_file: Option<PathBuf>,
    /// The secret itself, for joiners that get it in their environment ([`Via::Srun`]).
    pub secret: Option<JobSecret>,
    /// What they run.
    pub run: RemoteRun,
}

/// A `-H` job: this host's ranks, the world size, the listen address and the remote hosts.
#[derive(Debug)]
pub struct HostJob {
    /// Ranks on this host (the first entry).
    pub local: u32,
    /// World size.
    pub size: u32,
    /// Where the leader listens (port 0: any).
    pub listen: SocketAddr,
    /// Remote hosts and their counts.
    pub remote: Vec<(String, u32)>,
}

/// Whether `host` is this machine: its name, `localhost`, or an address of it.
pub fn is_this_host(host: &str) -> bool {
    if hosts::is_local(host, &hosts::this_hostname()) {
        return true;
    }
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    bare.parse::<IpAddr>()
        .is_ok_and(|ip| std::net::UdpSocket::bind(SocketAddr::new(ip, 0)).is_ok())
}

/// Plans a `-H` job from the host list, `-n` (must match the slots when given) and
/// `--listen` (its port is used; port 0 or absent: a free one).
pub fn plan_hosts(
    list: &str,
    n: Option<u32>,
    listen: Option<SocketAddr>,
) -> Result<HostJob, String> {
    let hosts: Vec<HostSlots> = hosts::parse_host_list(list)?;
    let mut entries = hosts.iter().map(|h| (h.host.clone(), h.slots.unwrap_or(1)));
    let (first, local) = entries.next().ok_or("-H needs at least one host")?;
    if !is_this_host(&first) {
        return Err(format!(
            "-H: the first host '{first}' must be this one (the leader runs there)"
        ));
    }
    let remote: Vec<(String, u32)> = entries.collect();
    if remote.is_empty() {
        return Err("-H names only this host; run without -H".into());
    }
    let total: u64 = u64::from(local) + remote.iter().map(|r| u64::from(r.1)).sum::<u64>();
    let size = u32::try_from(total).map_err(|_| format!("-H: {total} ranks are too many"))?;
    if let Some(n) = n
        && n != size
    {
        return Err(format!(
            "-n {n} does not match the {size} slots of -H {list}"
        ));
    }
    let listen = match listen {
        Some(l) => l,
        None => listen_towards(&remote[0].0)?,
    };
    Ok(HostJob {
        local,
        size,
        listen,
        remote,
    })
}

/// The leader's listen address when none is given: the local address that routes to `host`
/// (the first remote host), any port.
pub fn listen_towards(host: &str) -> Result<SocketAddr, String> {
    let peer = (host.trim_start_matches('[').trim_end_matches(']'), 9)
        .to_socket_addrs()
        .ok()
        .and_then(|mut a| a.next())
        .ok_or_else(|| format!("-H: cannot resolve host '{host}'"))?;
    let ip = nexar::bootstrap::rendezvous::launchers::local_ip_towards(peer)
        .map_err(|e| e.message().to_string())?;
    Ok(SocketAddr::new(ip, 0))
}

/// The leader of `job`, whose joiners the remote shell starts to run `run`: the secret is read
/// from the file named by `secret_flag` (else `NEXAR_JOB_SECRET_FILE`), or created there
/// (mode 0600) when missing; its absolute path goes on the remote command lines.
///
/// Joiners started through `srun` without a secret file get the secret in their environment
/// instead: the leader generates one.
pub fn leading(
    job: HostJob,
    secret_flag: Option<&Path>,
    run: RemoteRun,
) -> Result<Leading, String> {
    let named = secret_flag.is_some() || std::env::var_os("NEXAR_JOB_SECRET_FILE").is_some();
    let (secret, secret_file, carried) = if run.via == Via::Srun && !named {
        let s = JobSecret::generate().map_err(|e| e.message().to_string())?;
        (s.clone(), None, Some(s))
    } else {
        let path = secret_file::resolve(secret_flag)?;
        let secret = secret_file::for_leader(Some(&path))?;
        let path = std::fs::canonicalize(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        (secret, Some(path), None)
    };
    Ok(Leading {
        listen: job.listen,
        size: job.size,
        secret,
        rsh: Some(RshPlan {
            hosts: job.remote,
            secret_file,
            secret: carried,
            run,
        }),
    })
}

/// Quotes `s` for a POSIX shell (the remote shell joins its arguments into one command line).
pub fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c))
    {
        return s.to_string();
    }
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// The command that starts the joiner for `host` with `count` ranks: through the remote shell
/// `rsh`, or through `srun` (see [`Via`]).
pub fn joiner_command(
    plan: &RshPlan,
    rsh: &str,
    host: &str,
    count: u32,
    leader: SocketAddr,
) -> Result<tokio::process::Command, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find nexarrun itself: {e}"))?;
    let run = &plan.run;
    let mut remote: Vec<String> = Vec::new();
    if !run.env.is_empty() {
        remote.push("env".into());
        remote.extend(
            run.env
                .iter()
                .map(|(k, v)| format!("{}={}", k.to_string_lossy(), v.to_string_lossy())),
        );
    }
    remote.extend([
        exe.to_string_lossy().into_owned(),
        "--join".into(),
        leader.to_string(),
        "--local".into(),
        count.to_string(),
    ]);
    if let Some(file) = &plan.secret_file {
        remote.extend(["--secret-file".into(), file.to_string_lossy().into_owned()]);
    }
    if run.tag_output {
        remote.push("-l".into());
    }
    remote.push("--".into());
    remote.extend(run.command.iter().map(|a| a.to_string_lossy().into_owned()));
    let mut line: Vec<String> = remote.iter().map(|w| shell_quote(w)).collect();
    if let Some(dir) = &run.wdir {
        let dir = shell_quote(&dir.to_string_lossy());
        line.splice(0..0, ["cd".to_string(), dir, "&&".to_string()]);
    }
    let mut cmd = match run.via {
        Via::Rsh => {
            let mut words = rsh.split_whitespace();
            let program = words.next().ok_or("NEXAR_RSH is empty")?;
            let mut cmd = tokio::process::Command::new(program);
            cmd.args(words).arg(host).arg(line.join(" "));
            cmd
        }
        Via::Srun => {
            let mut cmd = tokio::process::Command::new("srun");
            cmd.args(SRUN_JOINER)
                .arg(format!("--nodelist={host}"))
                .args(["/bin/sh", "-c"])
                .arg(line.join(" "));
            if let Some(secret) = &plan.secret {
                cmd.env(
                    "NEXAR_JOB_SECRET",
                    nexar::bootstrap::pmi::hex_encode(secret.expose()),
                );
            }
            cmd
        }
    };
    cmd.stdin(std::process::Stdio::null()).kill_on_drop(true);
    Ok(cmd)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_for_a_shell() {
        assert_eq!(shell_quote("abc/d-1.x"), "abc/d-1.x");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("$HOME"), "'$HOME'");
    }

    /// The remote command line the remote shell gets for `run`.
    fn line_of(run: RemoteRun) -> Vec<String> {
        let plan = RshPlan {
            hosts: vec![("hostB".into(), 2)],
            secret_file: Some("/s/job.secret".into()),
            secret: None,
            run,
        };
        let cmd = joiner_command(
            &plan,
            "ssh -p 2222",
            "hostB",
            2,
            "10.0.0.1:7000".parse().unwrap(),
        )
        .unwrap();
        let cmd = cmd.as_std();
        assert_eq!(cmd.get_program(), "ssh");
        cmd.get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn remote_command_lines() {
        let exe = shell_quote(&std::env::current_exe().unwrap().to_string_lossy());
        let joiner = format!("{exe} --join 10.0.0.1:7000 --local 2 --secret-file /s/job.secret");
        // nexarrun -H: the program and -l only.
        let args = line_of(RemoteRun {
            command: vec!["./app".into(), "a b".into()],
            tag_output: true,
            ..Default::default()
        });
        assert_eq!(
            args,
            [
                "-p",
                "2222",
                "hostB",
                &format!("{joiner} -l -- ./app 'a b'")
            ]
        );
        // mpiexec: the working directory and the exported variables first.
        let args = line_of(RemoteRun {
            command: vec!["./app".into()],
            tag_output: false,
            env: vec![("A".into(), "x y".into()), ("B".into(), "2".into())],
            wdir: Some("/w d".into()),
            ..Default::default()
        });
        assert_eq!(
            args[3],
            format!("cd '/w d' && env 'A=x y' B=2 {joiner} -- ./app")
        );
    }

    #[test]
    fn through_srun_one_step_per_host_with_the_secret_in_its_environment() {
        let secret = JobSecret::from_bytes([7; 32]);
        let plan = RshPlan {
            hosts: vec![("n2".into(), 3)],
            secret_file: None,
            secret: Some(secret),
            run: RemoteRun {
                via: Via::Srun,
                command: vec!["./app".into()],
                wdir: Some("/w".into()),
                ..Default::default()
            },
        };
        let cmd = joiner_command(&plan, "ssh", "n2", 3, "10.0.0.1:7000".parse().unwrap()).unwrap();
        let cmd = cmd.as_std();
        assert_eq!(cmd.get_program(), "srun");
        let args: Vec<String> = cmd
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        let exe = shell_quote(&std::env::current_exe().unwrap().to_string_lossy());
        let mut want: Vec<String> = SRUN_JOINER.iter().map(|s| s.to_string()).collect();
        want.extend([
            "--nodelist=n2".into(),
            "/bin/sh".into(),
            "-c".into(),
            format!("cd /w && {exe} --join 10.0.0.1:7000 --local 3 -- ./app"),
        ]);
        assert_eq!(args, want);
        let env: Vec<_> = cmd.get_envs().collect();
        assert_eq!(
            env,
            [(
                std::ffi::OsStr::new("NEXAR_JOB_SECRET"),
                Some(std::ffi::OsStr::new(&"07".repeat(32)))
            )]
        );
    }

    #[test]
    fn plans_a_host_list() {
        let j = plan_hosts("localhost:2,127.0.0.1:3", None, None).unwrap();
        assert_eq!((j.local, j.size), (2, 5));
        assert_eq!(j.remote, vec![("127.0.0.1".to_string(), 3)]);
        assert!(j.listen.ip().is_loopback());
        assert!(plan_hosts("localhost:2,127.0.0.1:3", Some(4), None).is_err());
        assert!(plan_hosts("localhost:2", None, None).is_err());
        let e = plan_hosts("no-such-host.invalid:2,localhost", None, None).unwrap_err();
        assert!(e.contains("must be this one"), "{e}");
    }
}
