//! MPI-style command lines for the launcher installed as `mpiexec` / `mpirun`.
//!
//! Hydra (MPICH) and Open MPI spellings, with one or two leading dashes and `--opt=value`:
//!
//! - per application context: `-n`/`-np`/`-c` N, `-wdir`/`-wd` DIR, `-env VAR VAL`,
//!   `-envlist A,B`, `-host`/`-hosts`/`-H` LIST;
//! - for the whole job: `-genv VAR VAL`, `-x VAR` (export VAR from this environment) or
//!   `-x VAR=VAL`, `-genvlist A,B`, `-genvall`/`-envall` (the default: everything is passed),
//!   `-gwdir DIR`, `-hostfile`/`-machinefile`/`-f` FILE, `-ppn`/`-N`/`-npernode` N,
//!   `-l`/`-prepend-rank`/`--tag-output`, `--timeout SECS` (or `MPIEXEC_TIMEOUT`);
//! - `--bind-to X` / `-bind-to X` / `-binding X`: `core` (also `cpu`, `hwthread`), `none`,
//!   `auto` (see [`crate::binding`]; other Open MPI / Hydra levels, such as `socket`, are
//!   refused);
//! - accepted and ignored: `--oversubscribe`, `--map-by X`, `--rank-by X`,
//!   `--allow-run-as-root`, `--mca K V`, `--gmca K V`, `--report-bindings`, `--display-map`,
//!   `-quiet`, `-verbose`, `-launcher X` / `-bootstrap X` other than `slurm` (which starts other
//!   hosts through srun) and the remote shells;
//! - MPMD: `prog1 args : -n 2 prog2 args`; ranks are numbered consecutively across contexts;
//! - nexar's own: `--secret-file PATH` (jobs across hosts; default `NEXAR_JOB_SECRET_FILE`).
//!
//! When every host is this machine (see [`crate::hosts`]), without `-n` a context runs `-ppn`
//! ranks, else the total slots of the hosts given, else the task count of the one-node Slurm
//! allocation it runs in (`SLURM_NTASKS`), else 1 (like MPICH). Hosts other than this
//! one make a job across hosts, started like `nexarrun -H` (see [`crate::mpiexec_hosts`]).
//! With no hosts given, a batch allocation of several nodes supplies them
//! ([`crate::allocation`]: Slurm's through `srun`, PBS's and LSF's through the remote shell);
//! `-launcher slurm` / `-bootstrap slurm` start the hosts given through `srun` as well.

use crate::allocation;
use crate::hosts::{self, HostSlots};
use crate::launch::{AppContext, Plan};
use crate::mpiexec_hosts::{self, Spread};
use crate::rsh::Via;
use std::ffi::{OsStr, OsString};
use std::path::PathBuf;

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Launch this plan.
    Run(Plan),
    /// Lead a job across hosts: `plan` holds this host's ranks, `spread` every host's share.
    RunAcross {
        /// This host's ranks (one application context).
        plan: Plan,
        /// The ranks of every host.
        spread: Spread,
        /// `--secret-file`, if given.
        secret_file: Option<PathBuf>,
        /// How the other hosts' ranks are started.
        via: Via,
    },
    /// Print the version.
    Version,
    /// Print the usage.
    Help,
}

/// Options that take no value and are accepted for compatibility, with no effect.
const IGNORED_FLAGS: &[&str] = &[
    "oversubscribe",
    "nooversubscribe",
    "allow-run-as-root",
    "report-bindings",
    "display-map",
    "display-allocation",
    "quiet",
    "q",
    "verbose",
    "bind-to-socket",
    "enable-recovery",
    "disable-recovery",
    "use-hwthread-cpus",
];
/// Options that take one value and are accepted for compatibility, with no effect.
const IGNORED_WITH_VALUE: &[&str] = &["map-by", "rank-by", "bootstrap-exec", "rmk", "iface"];
/// Options that take two values (`--mca key value`), accepted and ignored.
const IGNORED_WITH_TWO: &[&str] = &["mca", "gmca"];

/// One `:`-separated context while it is being read.
#[derive(Default)]
struct Partial {
    n: Option<u32>,
    env: Vec<(OsString, OsString)>,
    wdir: Option<PathBuf>,
    command: Vec<OsString>,
}

/// Job-wide settings.
#[derive(Default)]
struct Global {
    env: Vec<(OsString, OsString)>,
    wdir: Option<PathBuf>,
    hosts: Vec<HostSlots>,
    slots_given: bool,
    ppn: Option<u32>,
    tag_output: bool,
    timeout: Option<f64>,
    secret_file: Option<PathBuf>,
    bind: Option<crate::binding::Bind>,
    via: Option<Via>,
}

/// The task count of the Slurm allocation this runs in (`SLURM_NTASKS`, as `salloc -n 4` or a
/// batch script with `--ntasks` sets it), when the allocation is this one node: what a
/// context without `-n`, hosts or `-ppn` runs, as Open MPI's and MPICH's `mpiexec` do there.
fn allocation_tasks(getenv: &impl Fn(&str) -> Option<OsString>) -> Result<Option<u32>, String> {
    let Some(v) = getenv("SLURM_NTASKS") else {
        return Ok(None);
    };
    let nodes = getenv("SLURM_JOB_NUM_NODES").map(|n| n.to_string_lossy().trim().to_string());
    if nodes.as_deref().is_some_and(|n| n != "1") {
        // Ranks on the allocation's other nodes would need srun: run one here, as before.
        return Ok(None);
    }
    parse_count("SLURM_NTASKS", &v.to_string_lossy()).map(Some)
}

/// Reads `argv` (without argv\[0\]); `getenv` answers `-x VAR`, `MPIEXEC_TIMEOUT` and the
/// allocation's task count (`SLURM_NTASKS`).
pub fn parse(
    argv: &[OsString],
    getenv: impl Fn(&str) -> Option<OsString>,
) -> Result<Command, String> {
    parse_with_host(argv, getenv, crate::rsh::is_this_host)
}

/// [`parse`] with `here` saying which hosts are this machine (for tests).
pub fn parse_with_host(
    argv: &[OsString],
    getenv: impl Fn(&str) -> Option<OsString>,
    here: impl Fn(&str) -> bool,
) -> Result<Command, String> {
    let mut g = Global::default();
    let mut contexts: Vec<Partial> = Vec::new();
    let mut cur = Partial::default();
    let mut i = 0;
    while i < argv.len() {
        let arg = &argv[i];
        i += 1;
        if arg == ":" {
            return Err(format!(
                "':' with no program before it (application context {})",
                contexts.len()
            ));
        }
        let text = arg.to_str();
        let is_option = text.is_some_and(|t| t.starts_with('-') && t.len() > 1);
        if arg == "--" || !is_option {
            // The program: it and its arguments run until a lone ':'.
            let start = if arg == "--" { i } else { i - 1 };
            let end = argv[start..]
                .iter()
                .position(|a| a == ":")
                .map_or(argv.len(), |p| start + p);
            if start == end {
                return Err(format!(
                    "no program given for application context {}",
                    contexts.len()
                ));
            }
            cur.command = argv[start..end].to_vec();
            contexts.push(std::mem::take(&mut cur));
            i = end + 1;
            continue;
        }
        let text = text.unwrap_or_default();
        let (name, inline) = match text.trim_start_matches('-').split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (text.trim_start_matches('-'), None),
        };
        // The option's values: the inline `=value` or the next arguments.
        let mut take = |count: usize| -> Result<Vec<String>, String> {
            if let Some(v) = &inline {
                if count != 1 {
                    return Err(format!("option '{text}' takes {count} values, not '='"));
                }
                return Ok(vec![v.clone()]);
            }
            if i + count > argv.len() {
                return Err(format!("option '{text}' needs {count} value(s)"));
            }
            let vals = argv[i..i + count]
                .iter()
                .map(|v| {
                    v.to_str()
                        .map(str::to_string)
                        .ok_or_else(|| format!("the value of '{text}' is not UTF-8"))
                })
                .collect::<Result<Vec<_>, _>>()?;
            i += count;
            Ok(vals)
        };
        match name {
            "n" | "np" | "c" => cur.n = Some(parse_count(text, &take(1)?[0])?),
            "H" | "host" | "hosts" => {
                let list = hosts::parse_host_list(&take(1)?[0])?;
                g.slots_given = true;
                g.hosts.extend(list);
            }
            "hostfile" | "machinefile" | "f" | "default-hostfile" => {
                let path = take(1)?.remove(0);
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| format!("cannot read hostfile '{path}': {e}"))?;
                g.hosts.extend(hosts::parse_hostfile(&text, &path)?);
                g.slots_given = true;
            }
            "ppn" | "N" | "npernode" => g.ppn = Some(parse_count(text, &take(1)?[0])?),
            "wdir" | "wd" => cur.wdir = Some(PathBuf::from(take(1)?.remove(0))),
            "gwdir" => g.wdir = Some(PathBuf::from(take(1)?.remove(0))),
            "secret-file" => g.secret_file = Some(PathBuf::from(take(1)?.remove(0))),
            "x" => {
                let spec = take(1)?.remove(0);
                export(&mut g.env, &spec, &getenv);
            }
            "env" => {
                let v = take(2)?;
                cur.env.push((v[0].clone().into(), v[1].clone().into()));
            }
            "genv" => {
                let v = take(2)?;
                g.env.push((v[0].clone().into(), v[1].clone().into()));
            }
            "envlist" => {
                for var in take(1)?[0].split(',').filter(|v| !v.is_empty()) {
                    export(&mut cur.env, var, &getenv);
                }
            }
            "genvlist" => {
                for var in take(1)?[0].split(',').filter(|v| !v.is_empty()) {
                    export(&mut g.env, var, &getenv);
                }
            }
            // Every variable reaches the ranks anyway.
            "genvall" | "envall" => {}
            "l" | "prepend-rank" | "tag-output" => g.tag_output = true,
            "timeout" => g.timeout = Some(parse_timeout(text, &take(1)?[0])?),
            "bind-to" | "binding" => {
                let v = take(1)?.remove(0);
                g.bind = Some(
                    crate::binding::Bind::parse(&v).map_err(|e| format!("option '{text}': {e}"))?,
                );
            }
            // Hydra's launcher names: `slurm` starts other hosts' ranks through srun; the
            // remote shells and `fork` (this host only) keep NEXAR_RSH; others are ignored.
            "launcher" | "bootstrap" => match take(1)?[0].as_str() {
                "slurm" | "srun" => g.via = Some(Via::Srun),
                "ssh" | "rsh" | "fork" | "manual" => g.via = Some(Via::Rsh),
                _ => {}
            },
            "bind-to-none" => g.bind = Some(crate::binding::Bind::None),
            "bind-to-core" => g.bind = Some(crate::binding::Bind::Cpu),
            "V" | "version" => return Ok(Command::Version),
            "h" | "help" => return Ok(Command::Help),
            n if IGNORED_FLAGS.contains(&n) => {}
            n if IGNORED_WITH_VALUE.contains(&n) => {
                take(1)?;
            }
            n if IGNORED_WITH_TWO.contains(&n) => {
                take(2)?;
            }
            _ => return Err(format!("unknown option '{text}'")),
        }
    }
    if contexts.is_empty() {
        return Err("no program given".to_string());
    }
    if cur.n.is_some() || cur.wdir.is_some() || !cur.env.is_empty() {
        return Err("options after the last ':' but no program".to_string());
    }
    if g.timeout.is_none()
        && let Some(t) = getenv("MPIEXEC_TIMEOUT")
    {
        let t = t.to_string_lossy();
        g.timeout = Some(parse_timeout("MPIEXEC_TIMEOUT", &t)?);
    }
    // Inside a batch allocation spanning several nodes, with no hosts given, the allocation's
    // nodes are the hosts (Slurm's through srun, PBS's and LSF's through the remote shell).
    let mut node_name = None;
    if g.hosts.is_empty()
        && let Some(alloc) = allocation::hosts(&getenv)?
    {
        g.hosts = alloc.hosts;
        g.slots_given = true;
        g.via = g.via.or(Some(alloc.via));
        node_name = alloc.this_node;
    }
    let here = |h: &str| here(h) || node_name.as_deref() == Some(h);
    let default_n = match (g.ppn, g.slots_given) {
        (Some(ppn), _) => ppn,
        (None, true) => u32::try_from(hosts::total_slots(&g.hosts))
            .map_err(|_| "too many slots".to_string())?
            .max(1),
        (None, false) => allocation_tasks(&getenv)?.unwrap_or(1),
    };
    let across = g.hosts.iter().any(|h| !here(&h.host));
    if across && contexts.len() > 1 {
        return Err(format!(
            "{} application contexts (':') across hosts: a job on other hosts runs one program",
            contexts.len()
        ));
    }
    let spread = match contexts.first() {
        Some(c) if across => Some(mpiexec_hosts::spread(&g.hosts, c.n, g.ppn, here)?),
        _ => None,
    };
    let mut contexts: Vec<AppContext> = contexts
        .into_iter()
        .map(|p| {
            let mut command = p.command.into_iter();
            let program = command.next().unwrap_or_default();
            let mut env = g.env.clone();
            env.extend(p.env);
            AppContext {
                count: p.n.unwrap_or(default_n),
                program,
                args: command.collect(),
                env,
                wdir: p.wdir.or_else(|| g.wdir.clone()),
            }
        })
        .collect();
    if let Some(s) = &spread {
        contexts[0].count = s.local;
    }
    let plan = Plan {
        contexts,
        tag_output: g.tag_output,
        timeout: g.timeout,
        bind: g.bind,
    };
    Ok(match spread {
        Some(spread) if !spread.remote.is_empty() => Command::RunAcross {
            plan,
            spread,
            secret_file: g.secret_file,
            via: g.via.unwrap_or_default(),
        },
        _ => Command::Run(plan),
    })
}

/// `-x VAR=VAL` sets VAR; `-x VAR` passes this environment's VAR (nothing when it is unset).
fn export(
    env: &mut Vec<(OsString, OsString)>,
    spec: &str,
    getenv: &impl Fn(&str) -> Option<OsString>,
) {
    match spec.split_once('=') {
        Some((k, v)) => env.push((k.into(), v.into())),
        None => {
            if let Some(v) = getenv(spec) {
                env.push((OsStr::new(spec).to_os_string(), v));
            }
        }
    }
}

fn parse_count(opt: &str, v: &str) -> Result<u32, String> {
    match v.trim().parse::<u32>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!(
            "'{opt}' needs a positive number of ranks, got '{v}'"
        )),
    }
}

fn parse_timeout(opt: &str, v: &str) -> Result<f64, String> {
    match v.trim().parse::<f64>() {
        Ok(t) if t > 0.0 && t.is_finite() => Ok(t),
        _ => Err(format!(
            "'{opt}' needs a positive number of seconds, got '{v}'"
        )),
    }
}

/// The `--help` text.
pub fn usage(me: &str) -> String {
    format!(
        "Usage: {me} [options] prog [args] [: [options] prog [args]]...\n\
         Starts the ranks of an MPI/nexar job on this host or across hosts (nexar {version}).\n\n\
         Per program:  -n|-np|-c N   -wdir|-wd DIR   -env VAR VAL   -envlist A,B\n\
         Whole job:    -genv VAR VAL   -x VAR[=VAL]   -genvlist A,B   -genvall   -gwdir DIR\n\
         \x20             -host|-hosts|-H LIST   -hostfile|-machinefile|-f FILE\n\
         \x20             -ppn|-N|-npernode N   -l|--tag-output   --timeout SECS\n\
         \x20             --secret-file PATH (jobs across hosts; or NEXAR_JOB_SECRET_FILE)\n\
         \x20             --bind-to auto|core|none (pin ranks to CPUs; default auto: when\n\
         \x20             they fit this host's CPUs; or NEXAR_BIND)\n\
         Ignored:      --oversubscribe --map-by X --rank-by X --allow-run-as-root\n\
         \x20             --mca K V --report-bindings --display-map -quiet -verbose\n\
         Launchers:    -launcher|-bootstrap slurm (other hosts through srun) or ssh\n\
         Hosts other than this one (list this one first) get their ranks through a remote\n\
         shell ($NEXAR_RSH, default ssh) running nexarrun there; see docs/MULTIHOST.md.\n\
         Inside a batch allocation, with no hosts given: its nodes and tasks (Slurm, whose\n\
         other nodes are reached through srun; PBS_NODEFILE; LSB_DJOB_HOSTFILE).\n",
        version = env!("CARGO_PKG_VERSION")
    )
}

#[cfg(test)]
mod tests;
