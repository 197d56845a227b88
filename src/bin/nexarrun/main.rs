//! `nexarrun -n N [-l] [--timeout SECS] [--] prog args...`: starts N ranks of a program on this
//! host, hosts their rendezvous, forwards their output and exit codes (see [`launch`]).
//!
//! Installed (or linked) under the name `mpiexec` or `mpirun`, the same binary takes MPI-style
//! arguments instead (Hydra and Open MPI spellings, MPMD `:`; see [`mpiexec_args`]).

mod hosts;
mod launch;
mod mpiexec_args;

use clap::Parser;
use launch::{AppContext, Plan};
use std::ffi::OsString;
use std::io::Write;

#[derive(Parser, Debug)]
#[command(
    name = "nexarrun",
    version,
    about = "Start N ranks of a nexar program on this host",
    trailing_var_arg = true
)]
struct Args {
    /// Number of ranks to start.
    #[arg(short = 'n', long = "np", value_name = "N")]
    n: u32,
    /// Prefix every output line with its rank, as `[R] `.
    #[arg(short = 'l', long = "tag-output")]
    tag_output: bool,
    /// Kill the whole job after SECS seconds (exit code 124).
    #[arg(long, value_name = "SECS")]
    timeout: Option<f64>,
    /// The program to run and its arguments.
    #[arg(
        required = true,
        allow_hyphen_values = true,
        value_name = "PROG [ARGS]..."
    )]
    command: Vec<OsString>,
}

impl Args {
    fn into_plan(self) -> Plan {
        let mut command = self.command.into_iter();
        let program = command.next().unwrap_or_default();
        Plan {
            contexts: vec![AppContext {
                count: self.n,
                program,
                args: command.collect(),
                env: Vec::new(),
                wdir: None,
            }],
            tag_output: self.tag_output,
            timeout: self.timeout,
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
    let (me, plan) = if mpi_style {
        let argv: Vec<OsString> = std::env::args_os().skip(1).collect();
        match mpiexec_args::parse(&argv, |k| std::env::var_os(k)) {
            Ok(mpiexec_args::Command::Run(plan)) => (name, plan),
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
        ("nexarrun".to_string(), Args::parse().into_plan())
    };
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
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
    let code = rt.block_on(launch::run(&me, &plan));
    let _ = std::io::stdout().flush();
    // Exit without waiting for blocked output forwarders of stray grandchildren.
    std::process::exit(code);
}
