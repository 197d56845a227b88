//! `nexarrun -n N [-l] [--timeout SECS] [--] prog args...`: starts N ranks of a program on this
//! host, hosts their rendezvous, forwards their output and exit codes (see [`launch`]).
//!
//! Across hosts, one `nexarrun` per host: the leader `nexarrun -n N --listen IP:PORT --local K
//! --secret-file PATH prog` and, on each other host, `nexarrun --join IP:PORT --local K
//! --secret-file PATH prog` (see [`multihost`], [`join`] and docs/MULTIHOST.md).
//!
//! Installed (or linked) under the name `mpiexec` or `mpirun`, the same binary takes MPI-style
//! arguments instead (Hydra and Open MPI spellings, MPMD `:`; see [`mpiexec_args`]); its host
//! lists with other hosts lead a job across hosts like `-H` (see [`mpiexec_hosts`]).

mod allocation;
mod binding;
mod hosts;
mod join;
mod launch;
mod mpiexec_args;
mod mpiexec_hosts;
mod multihost;
mod rsh;
mod secret_file;
mod spawn;

use clap::Parser;
use launch::{AppContext, Plan};
use std::ffi::OsString;
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;

const AFTER_HELP: &str = "\
Several hosts: run one nexarrun per host, all with the same secret file.
  leader (host A):  nexarrun -n 4 --listen 10.0.0.1:7000 --local 2 --secret-file s prog
  joiner (host B):  nexarrun --join 10.0.0.1:7000 --local 2 --secret-file s prog
The leader runs ranks 0..K-1 and gives each joiner the next block of ranks, in the order they
join. --local is required with --listen and --join. The leader creates the secret file (mode
0600) when it does not exist; copy it to the other hosts over a safe channel.
Or let the leader start the joiners through a remote shell ($NEXAR_RSH, default ssh):
  nexarrun -H hostA:2,hostB:2 --secret-file ~/job.secret prog
(the first host is this one; the secret file must be at the same path on every host). See
docs/MULTIHOST.md.";

#[derive(Parser, Debug)]
#[command(
    name = "nexarrun",
    version,
    about = "Start the ranks of a nexar program: N on this host, or a multi-host job with one \
             nexarrun per host",
    after_help = AFTER_HELP,
    trailing_var_arg = true
)]
struct Args {
    /// Number of ranks in the job (required unless --join).
    #[arg(short = 'n', long = "np", value_name = "N")]
    n: Option<u32>,
    /// Prefix every output line with its rank, as `[R] `.
    #[arg(short = 'l', long = "tag-output")]
    tag_output: bool,
    /// Kill the whole job after SECS seconds (exit code 124; on the leader).
    #[arg(long, value_name = "SECS")]
    timeout: Option<f64>,
    /// Pin each rank to a CPU: auto (when the ranks fit this host's CPUs; the default, or
    /// $NEXAR_BIND), core (always), none.
    #[arg(long = "bind-to", value_name = "auto|core|none", value_parser = binding::Bind::parse)]
    bind_to: Option<binding::Bind>,
    /// Lead a multi-host job: accept joining nexarruns on IP:PORT (UDP); the rendezvous and
    /// this host's ranks bind IP.
    #[arg(long, value_name = "IP:PORT", conflicts_with = "join")]
    listen: Option<SocketAddr>,
    /// Join the multi-host job whose leader listens on IP:PORT.
    #[arg(long, value_name = "IP:PORT", conflicts_with = "n")]
    join: Option<SocketAddr>,
    /// Lead a multi-host job on HOST:SLOTS,... (the first is this host) and start the other
    /// hosts' joiners through $NEXAR_RSH (default ssh).
    #[arg(short = 'H', long = "hosts", value_name = "LIST", conflicts_with_all = ["join", "local"])]
    hosts: Option<String>,
    /// Ranks to run on this host (with --listen or --join; required there).
    #[arg(long, value_name = "K")]
    local: Option<u32>,
    /// The job secret shared by the hosts' nexarruns (default: $NEXAR_JOB_SECRET_FILE); the
    /// leader creates it (mode 0600) when missing.
    #[arg(long, value_name = "PATH")]
    secret_file: Option<PathBuf>,
    /// The program to run and its arguments.
    #[arg(
        required = true,
        allow_hyphen_values = true,
        value_name = "PROG [ARGS]..."
    )]
    command: Vec<OsString>,
}

/// What this nexarrun does.
enum Role {
    /// The whole job on this host.
    Alone,
    /// The leader of a multi-host job.
    Leader(launch::Leading),
    /// A joiner of a multi-host job.
    Joiner(join::Joining),
}

impl Args {
    /// The plan of this host's ranks and this launcher's role; `Err` is a usage message.
    fn into_role(mut self) -> Result<(Plan, Role), String> {
        if let Some(list) = self.hosts.take() {
            let job = rsh::plan_hosts(&list, self.n, self.listen)?;
            let plan = self.plan(job.local);
            let run = rsh::RemoteRun {
                command: self.command,
                tag_output: self.tag_output,
                ..Default::default()
            };
            let lead = rsh::leading(job, self.secret_file.as_deref(), run)?;
            return Ok((plan, Role::Leader(lead)));
        }
        let local = match (self.listen.is_some() || self.join.is_some(), self.local) {
            (false, Some(_)) => return Err("--local needs --listen or --join".into()),
            (false, None) => self.n.ok_or("-n N is required")?,
            (true, Some(k)) if k > 0 => k,
            (true, _) => {
                return Err("--local K (at least 1) is required with --listen and --join".into());
            }
        };
        let role = if let Some(listen) = self.listen {
            let size = self.n.ok_or("-n N is required with --listen")?;
            if listen.ip().is_unspecified() {
                return Err(format!(
                    "--listen {listen}: give the IP address the other hosts reach this one at"
                ));
            }
            if local >= size {
                return Err(format!(
                    "--local {local} leaves no rank of the {size} for a joining host"
                ));
            }
            let secret = secret_file::for_leader(self.secret_file.as_deref())?;
            Role::Leader(launch::Leading {
                listen,
                size,
                secret,
                rsh: None,
            })
        } else if let Some(leader) = self.join {
            let secret = secret_file::for_joiner(self.secret_file.as_deref())?;
            Role::Joiner(join::Joining { leader, secret })
        } else {
            if self.secret_file.is_some() {
                return Err("--secret-file needs --listen or --join".into());
            }
            Role::Alone
        };
        Ok((self.plan(local), role))
    }

    /// The plan of `count` ranks of the command on this host.
    fn plan(&self, count: u32) -> Plan {
        let mut command = self.command.iter().cloned();
        let program = command.next().unwrap_or_default();
        Plan {
            contexts: vec![AppContext {
                count,
                program,
                args: command.collect(),
                env: Vec::new(),
                wdir: None,
            }],
            tag_output: self.tag_output,
            timeout: self.timeout,
            bind: self.bind_to,
        }
    }
}

/// The name this binary was started as (`mpiexec`, `mpirun`, `nexarrun`, ...).
fn invoked_as() -> String {
    std::env::args_os()
        .next()
        .and_then(|a| {
            std::path::Path::new(&a)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
        })
        .unwrap_or_default()
}

fn main() {
    let name = invoked_as();
    let mpi_style = name.starts_with("mpiexec") || name.starts_with("mpirun");
    let (me, mut plan, role) = if mpi_style {
        let argv: Vec<OsString> = std::env::args_os().skip(1).collect();
        match mpiexec_args::parse(&argv, |k| std::env::var_os(k)) {
            Ok(mpiexec_args::Command::Run(plan)) => (name, plan, Role::Alone),
            Ok(mpiexec_args::Command::RunAcross {
                plan,
                spread,
                secret_file,
                via,
            }) => match mpiexec_hosts::leading(&plan, spread, secret_file, via) {
                Ok(lead) => (name, plan, Role::Leader(lead)),
                Err(e) => {
                    eprintln!("{name}: {e}");
                    std::process::exit(2);
                }
            },
            Ok(mpiexec_args::Command::Version) => {
                println!("{name} (nexar) {}", env!("CARGO_PKG_VERSION"));
                return;
            }
            Ok(mpiexec_args::Command::Help) => {
                print!("{}", mpiexec_args::usage(&name));
                return;
            }
            Err(e) => {
                eprintln!("{name}: {e}");
                eprintln!("{name}: try '{name} --help'");
                std::process::exit(2);
            }
        }
    } else {
        match Args::parse().into_role() {
            Ok((plan, role)) => ("nexarrun".to_string(), plan, role),
            Err(e) => {
                eprintln!("nexarrun: {e}");
                eprintln!("nexarrun: try 'nexarrun --help'");
                std::process::exit(2);
            }
        }
    };
    // A bad NEXAR_BIND is a usage error before anything starts (the command line's own
    // binding was checked when it was parsed).
    match binding::Bind::resolve(plan.bind) {
        Ok(b) => plan.bind = Some(b),
        Err(e) => {
            eprintln!("{me}: {e}");
            std::process::exit(2);
        }
    }
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("NEXAR_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("error")),
        )
        .init();
    let rt = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("{me}: cannot start the runtime: {e}");
            std::process::exit(1);
        }
    };
    let code = rt.block_on(async {
        match role {
            Role::Alone => launch::run(&me, &plan).await,
            Role::Leader(l) => launch::run_job(&me, &plan, Some(l)).await,
            Role::Joiner(j) => join::run_joiner(&me, &plan, j).await,
        }
    });
    let _ = std::io::stdout().flush();
    // Exit without waiting for blocked output forwarders of stray grandchildren.
    std::process::exit(code);
}
