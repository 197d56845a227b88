//! Real runs under MPICH's process manager `mpiexec.hydra` (Debian package `mpich`, installed by
//! scripts/test.sh): nexar joins through PMI-1 over the inherited socket (`PMI_FD`, hydra's
//! default) and over TCP (`-pmi-port`: `PMI_PORT` + `PMI_ID`), and an abort ends the job.
//!
//! Skipped, loudly, only when `mpiexec.hydra` is not installed. Every run has a deadline after
//! which hydra's whole process group is killed, so nothing here can hang.

mod common;

use common::procs::example;
use nexar::security::JobSecret;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Longest a hydra job may run here.
const DEADLINE: Duration = Duration::from_secs(60);

/// Variables of other launches that must not leak into the job (the test itself may run under
/// nexarrun, Open MPI or Slurm). Configuration variables such as `NEXAR_TRANSPORT` are kept.
const STALE: [&str; 14] = [
    "NEXAR_RANK",
    "NEXAR_SIZE",
    "NEXAR_LOCAL_RANK",
    "NEXAR_RENDEZVOUS",
    "NEXAR_RENDEZVOUS_HOST",
    "NEXAR_SECRET_FD",
    "NEXAR_JOB_SECRET_FILE",
    "NEXAR_EPOCH",
    "RANK",
    "WORLD_SIZE",
    "LOCAL_RANK",
    "MASTER_ADDR",
    "MASTER_PORT",
    "PMI_ID",
];
const STALE_PREFIXES: [&str; 4] = ["OMPI_", "PMIX_", "SLURM_", "PMI_"];

/// `mpiexec.hydra` when installed (else the test prints why it skips).
fn hydra() -> Option<&'static str> {
    let ok = Command::new("mpiexec.hydra")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!(
            "SKIPPED: mpiexec.hydra is not installed (apt-get install mpich); the PMI tests did \
             NOT run"
        );
    }
    ok.then_some("mpiexec.hydra")
}

/// `mpiexec.hydra ARGS`, in its own process group, without stale launch variables.
fn hydra_cmd(args: &[&str], extra_env: &[(&str, String)]) -> Command {
    let mut cmd = Command::new("mpiexec.hydra");
    cmd.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    for (k, _) in std::env::vars() {
        if STALE.contains(&k.as_str()) || STALE_PREFIXES.iter().any(|p| k.starts_with(p)) {
            cmd.env_remove(&k);
        }
    }
    cmd.envs(extra_env.iter().map(|(k, v)| (*k, v.as_str())));
    cmd
}

/// Waits for `child` until [`DEADLINE`], then kills its process group (hydra and its ranks).
fn wait_bounded(mut child: Child) -> (Output, Duration) {
    let t = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t.elapsed() > DEADLINE {
            // SAFETY: kill(2) on the process group this test created for the child.
            unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    (child.wait_with_output().unwrap(), t.elapsed())
}

/// Runs `allreduce_demo` under hydra with `args` before the program and checks that every one
/// of the `n` ranks printed its verified allreduce, and that hydra exited 0.
fn run_demo(n: u32, args: &[&str], extra_env: &[(&str, String)]) {
    let prog = example("allreduce_demo");
    let np = n.to_string();
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["-n", &np]);
    let mut cmd = hydra_cmd(&all, extra_env);
    cmd.arg(&prog);
    let (out, took) = wait_bounded(cmd.spawn().unwrap());
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    eprintln!(
        "mpiexec.hydra {} -n {n}: {:?} in {took:?}",
        args.join(" "),
        out.status
    );
    assert!(out.status.success(), "{:?}\n{text}\n{err}", out.status);
    for r in 0..n {
        assert!(
            text.contains(&format!("rank {r}/{n}: allreduce of 65536 f64 verified")),
            "rank {r} missing:\n{text}\n{err}"
        );
    }
}

#[test]
fn hydra_pmi_fd_one_to_four_ranks() {
    if hydra().is_none() {
        return;
    }
    for n in 1..=4 {
        run_demo(n, &[], &[]);
    }
}

#[test]
fn hydra_pmi_port_one_to_four_ranks() {
    if hydra().is_none() {
        return;
    }
    for n in 1..=4 {
        run_demo(n, &["-pmi-port"], &[]);
    }
}

#[test]
fn hydra_with_a_shared_secret_file() {
    if hydra().is_none() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("nexar-pmi-hydra-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("secret");
    JobSecret::generate().unwrap().write_file(&path).unwrap();
    let file = path.to_string_lossy().into_owned();
    run_demo(3, &[], &[("NEXAR_JOB_SECRET_FILE", file)]);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn hydra_ends_the_job_when_a_rank_aborts() {
    if hydra().is_none() {
        return;
    }
    let prog = example("abort_check");
    for args in [&["-n", "3"][..], &["-pmi-port", "-n", "2"][..]] {
        let mut cmd = hydra_cmd(args, &[]);
        cmd.arg(&prog);
        let (out, took) = wait_bounded(cmd.spawn().unwrap());
        let text = String::from_utf8_lossy(&out.stdout);
        let err = String::from_utf8_lossy(&out.stderr);
        eprintln!(
            "mpiexec.hydra {} abort_check: {:?} in {took:?}",
            args.join(" "),
            out.status
        );
        assert!(
            took < DEADLINE,
            "the aborted job did not end:\n{text}\n{err}"
        );
        assert_eq!(
            out.status.code(),
            Some(7),
            "hydra must end the job with the abort code:\n{text}\n{err}"
        );
    }
}

/// A broken PMI environment (no hydra needed): the program fails at once with a `Bootstrap`
/// error naming the variable, never hangs.
#[test]
fn bad_pmi_environment_fails_fast() {
    let prog = example("allreduce_demo");
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().to_string()
    };
    let cases: [(&[(&str, &str)], &str); 5] = [
        (
            &[("PMI_FD", "0"), ("PMI_RANK", "0"), ("PMI_SIZE", "2")],
            "PMI_FD=0: not a socket",
        ),
        (
            &[("PMI_FD", "977"), ("PMI_RANK", "0"), ("PMI_SIZE", "2")],
            "PMI_FD=977: not an open file descriptor",
        ),
        (
            &[("PMI_FD", "0"), ("PMI_RANK", "2"), ("PMI_SIZE", "2")],
            "PMI_RANK=2",
        ),
        (&[("PMI_PORT", "127.0.0.1:1")], "PMI_ID"),
        (
            &[("PMI_PORT", closed.as_str()), ("PMI_ID", "0")],
            "cannot connect",
        ),
    ];
    for (vars, want) in cases {
        let t = Instant::now();
        let mut cmd = Command::new(&prog);
        cmd.env_clear()
            .envs(vars.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        let (out, took) = wait_bounded(cmd.spawn().unwrap());
        let err = String::from_utf8_lossy(&out.stderr);
        eprintln!("{vars:?}: {:?} in {:?}", out.status, t.elapsed());
        assert!(!out.status.success(), "{vars:?} must fail: {err}");
        assert!(err.contains(want), "{vars:?}: expected {want:?} in {err}");
        assert!(took < Duration::from_secs(10), "{vars:?} took {took:?}");
    }
}

/// A process manager that accepts the connection and never answers: the rank gives up after
/// `NEXAR_CONNECT_TIMEOUT_MS` with an error naming the PMI command, instead of hanging.
#[test]
fn silent_process_manager_times_out() {
    let prog = example("allreduce_demo");
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap().to_string();
    // Accept and hold the connection until the test ends.
    let holder = std::thread::spawn(move || l.accept().map(|(s, _)| s));
    let mut cmd = Command::new(&prog);
    cmd.env_clear()
        .env("PMI_PORT", &addr)
        .env("PMI_ID", "0")
        .env("NEXAR_CONNECT_TIMEOUT_MS", "500")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let (out, took) = wait_bounded(cmd.spawn().unwrap());
    let err = String::from_utf8_lossy(&out.stderr);
    eprintln!("silent process manager: {:?} after {took:?}", out.status);
    assert!(!out.status.success());
    assert!(err.contains("PMI initack: no reply"), "{err}");
    assert!(took < Duration::from_secs(10), "took {took:?}");
    drop(holder.join());
}
