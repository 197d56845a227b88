//! Ranks started the way Open MPI, Slurm and torchrun start them: each child gets only that
//! scheduler's variables plus `NEXAR_JOB_SECRET_FILE`, and the world must still form and run
//! a verified allreduce (the `allreduce_demo` example).

mod common;

use common::procs::example;
use nexar::bootstrap::schedulers::{derived_port, slurm_port, torchrun_port};
use nexar::security::JobSecret;
use std::net::{TcpListener, UdpSocket};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// No test waits longer than this for its ranks.
const DEADLINE: Duration = Duration::from_secs(40);

/// A fresh directory with a job secret in it.
fn secret_dir(tag: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("nexar-sched-env-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let secret = dir.join("secret");
    JobSecret::generate().unwrap().write_file(&secret).unwrap();
    (dir, secret)
}

fn udp_free(port: u16) -> bool {
    UdpSocket::bind(("127.0.0.1", port)).is_ok()
}

/// A `MASTER_PORT` whose rendezvous port (`MASTER_PORT + 1`) the system just handed out as a
/// free ephemeral UDP port: tests running at the same time never scan their way to the same
/// one (two jobs on one port meet each other's rendezvous and refuse each other's secret).
fn ephemeral_master_port() -> u16 {
    loop {
        let port = UdpSocket::bind("127.0.0.1:0")
            .and_then(|s| s.local_addr())
            .expect("an ephemeral UDP port")
            .port();
        if port > 1 && torchrun_port(port - 1) == port {
            return port - 1;
        }
    }
}

/// A key in `start..` whose derived port is free on 127.0.0.1 right now.
fn free_key(start: u64, port_of: impl Fn(u64) -> u16) -> u64 {
    (start..start + 10_000)
        .find(|&k| udp_free(port_of(k)))
        .expect("a free port in the derived range")
}

/// Waits for every child until the deadline, killing all of them once it passes.
fn wait_all_bounded(mut children: Vec<Child>) -> Vec<Output> {
    let start = Instant::now();
    while children.iter_mut().any(|c| c.try_wait().unwrap().is_none()) {
        if start.elapsed() > DEADLINE {
            for c in &mut children {
                let _ = c.kill();
            }
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect()
}

/// Starts `n` ranks of `allreduce_demo`, rank `r` with exactly `vars(r)` and the secret file.
fn start(n: u32, secret: &Path, vars: impl Fn(u32) -> Vec<(String, String)>) -> Vec<Output> {
    let prog = example("allreduce_demo");
    let t = Instant::now();
    let children = (0..n)
        .map(|r| {
            let mut cmd = Command::new(&prog);
            cmd.env_clear()
                .envs(vars(r))
                .env("NEXAR_JOB_SECRET_FILE", secret)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            cmd.spawn().unwrap()
        })
        .collect();
    let outs = wait_all_bounded(children);
    eprintln!("{n} ranks formed a world and finished in {:?}", t.elapsed());
    outs
}

/// Every rank exited 0 and printed the verified allreduce line for a world of `n`.
fn assert_verified(outs: &[Output], n: u32) {
    for (r, o) in outs.iter().enumerate() {
        let out = String::from_utf8_lossy(&o.stdout);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "rank {r}: {:?}\n{out}\n{err}", o.status);
        assert!(
            out.contains(&format!("rank {r}/{n}: allreduce of 65536 f64 verified")),
            "rank {r}: {out}\n{err}"
        );
    }
}

fn kv(pairs: &[(&str, String)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

#[test]
fn slurm_environment_forms_a_world() {
    let (dir, secret) = secret_dir("slurm");
    let job = free_key(4242, |j| slurm_port(j, 0));
    let outs = start(3, &secret, |r| {
        kv(&[
            ("SLURM_PROCID", r.to_string()),
            ("SLURM_NTASKS", "3".into()),
            ("SLURM_LOCALID", r.to_string()),
            // The first node of the step hosts the rendezvous; the others are never contacted.
            ("SLURM_STEP_NODELIST", "localhost,ghost[02-03]".into()),
            ("SLURM_JOB_ID", job.to_string()),
            ("SLURM_STEP_ID", "0".into()),
        ])
    });
    assert_verified(&outs, 3);
    let _ = std::fs::remove_dir_all(dir);
}

/// A program run directly in a Slurm batch script (the allocation's variables, no srun step,
/// no secret) is a world of one, as under Open MPI and MPICH; before, it exited 16 naming
/// SLURM_STEP_NODELIST.
#[test]
fn a_program_started_in_a_batch_script_is_a_world_of_one() {
    let mut cmd = Command::new(example("allreduce_demo"));
    cmd.env_clear()
        .envs(kv(&[
            ("SLURM_JOB_ID", "4321".into()),
            ("SLURM_NTASKS", "4".into()),
            ("SLURM_PROCID", "0".into()),
            ("SLURM_NODELIST", "localhost".into()),
        ]))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let outs = wait_all_bounded(vec![cmd.spawn().unwrap()]);
    assert_verified(&outs, 1);
}

#[test]
fn torchrun_environment_forms_a_world_without_master_port() {
    let (dir, secret) = secret_dir("torch");
    // Hold MASTER_PORT (TCP, as torchrun's agent does, and UDP) for the whole run: nexar must
    // not need it.
    let (master, _tcp, _udp) = (20000..30000)
        .find_map(|p| {
            let tcp = TcpListener::bind(("127.0.0.1", p)).ok()?;
            let udp = UdpSocket::bind(("127.0.0.1", p)).ok()?;
            udp_free(torchrun_port(p)).then_some((p, tcp, udp))
        })
        .expect("a free MASTER_PORT");
    let outs = start(3, &secret, |r| {
        kv(&[
            ("RANK", r.to_string()),
            ("WORLD_SIZE", "3".into()),
            ("LOCAL_RANK", r.to_string()),
            ("MASTER_ADDR", "127.0.0.1".into()),
            ("MASTER_PORT", master.to_string()),
        ])
    });
    assert_verified(&outs, 3);
    let _ = std::fs::remove_dir_all(dir);
}

/// torchrun across nodes can pass variables but no files: the secret in `NEXAR_JOB_SECRET`.
#[test]
fn torchrun_with_the_secret_in_a_variable_forms_a_world() {
    let hex: String = JobSecret::generate()
        .unwrap()
        .expose()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let master = ephemeral_master_port();
    let children = (0..2u32)
        .map(|r| {
            Command::new(example("allreduce_demo"))
                .env_clear()
                .envs(kv(&[
                    ("RANK", r.to_string()),
                    ("WORLD_SIZE", "2".into()),
                    ("LOCAL_RANK", r.to_string()),
                    ("MASTER_ADDR", "127.0.0.1".into()),
                    ("MASTER_PORT", master.to_string()),
                    ("NEXAR_JOB_SECRET", hex.clone()),
                ]))
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    assert_verified(&wait_all_bounded(children), 2);
}

/// A rank whose rendezvous host (rank 0 under a scheduler) never comes up says so on stderr
/// while it waits, then fails at the connect timeout: never a silent wait.
#[test]
fn a_missing_rendezvous_is_reported_while_waiting() {
    let (dir, secret) = secret_dir("norank0");
    let master = ephemeral_master_port();
    let t = Instant::now();
    let out = Command::new(example("allreduce_demo"))
        .env_clear()
        .envs(kv(&[
            ("RANK", "1".into()),
            ("WORLD_SIZE", "2".into()),
            ("LOCAL_RANK", "1".into()),
            ("MASTER_ADDR", "127.0.0.1".into()),
            ("MASTER_PORT", master.to_string()),
            ("NEXAR_CONNECT_TIMEOUT_MS", "6000".into()),
        ]))
        .env("NEXAR_JOB_SECRET_FILE", &secret)
        .output()
        .unwrap();
    let took = t.elapsed();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("rank 1: no rendezvous at 127.0.0.1:"), "{err}");
    assert!(err.contains("after 5 s"), "{err}");
    assert!(took < Duration::from_secs(20), "took {took:?}");
    let _ = std::fs::remove_dir_all(dir);
}

/// The derived rendezvous port is taken: rank 0 fails to bind at once, and the ranks of its
/// host fail right after with rank 0's reason instead of waiting out the connect timeout (they
/// used to wait it out: 62 s by default).
#[test]
fn a_taken_rendezvous_port_fails_every_rank_of_the_host_at_once() {
    let (dir, secret) = secret_dir("taken");
    let job = free_key(5151, |j| slurm_port(j, 0));
    // Another program holds the port (UDP: the rendezvous is QUIC).
    let _holder = UdpSocket::bind(("127.0.0.1", slurm_port(job, 0))).expect("bind the port");
    let t = Instant::now();
    let outs = start(3, &secret, |r| {
        kv(&[
            ("SLURM_PROCID", r.to_string()),
            ("SLURM_NTASKS", "3".into()),
            ("SLURM_LOCALID", r.to_string()),
            ("SLURM_STEP_NODELIST", "localhost".into()),
            ("SLURM_JOB_ID", job.to_string()),
            ("SLURM_STEP_ID", "0".into()),
            ("NEXAR_CONNECT_TIMEOUT_MS", "60000".into()),
        ])
    });
    let took = t.elapsed();
    for (r, o) in outs.iter().enumerate() {
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "rank {r}: {err}");
        if r > 0 {
            assert!(
                err.contains(&format!(
                    "rank {r}: rank 0 could not host the rendezvous at 127.0.0.1:"
                )),
                "rank {r}: {err}"
            );
        }
    }
    assert!(took < Duration::from_secs(10), "took {took:?}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn open_mpi_environment_forms_a_world() {
    let (dir, secret) = secret_dir("ompi");
    let jobid = free_key(545_783_809, derived_port);
    let outs = start(3, &secret, |r| {
        kv(&[
            ("OMPI_COMM_WORLD_RANK", r.to_string()),
            ("OMPI_COMM_WORLD_SIZE", "3".into()),
            ("OMPI_COMM_WORLD_LOCAL_RANK", r.to_string()),
            ("OMPI_COMM_WORLD_LOCAL_SIZE", "3".into()),
            ("OMPI_MCA_ess_base_jobid", jobid.to_string()),
        ])
    });
    assert_verified(&outs, 3);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn scheduler_launch_without_secret_fails_clearly() {
    let out = Command::new(example("allreduce_demo"))
        .env_clear()
        .envs(kv(&[
            ("RANK", "1".into()),
            ("WORLD_SIZE", "2".into()),
            ("MASTER_ADDR", "127.0.0.1".into()),
            ("MASTER_PORT", "29500".into()),
        ]))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("NEXAR_JOB_SECRET_FILE"), "{err}");
}

/// Open MPI's launcher, when it is installed and works here.
fn open_mpi_launcher() -> Option<&'static str> {
    ["mpirun.openmpi", "mpirun"].into_iter().find(|m| {
        Command::new(m)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// Runs `allreduce_demo` on 2 ranks under Open MPI's `mpirun` with the variables `vars`
/// passed to the ranks (`-x`); `None` (after printing SKIPPED) when mpirun is not installed.
fn mpirun_demo(vars: &[String]) -> Option<Output> {
    let Some(mpirun) = open_mpi_launcher() else {
        println!("SKIPPED: Open MPI's mpirun is not installed");
        return None;
    };
    let prog = example("allreduce_demo");
    let t = Instant::now();
    let mut cmd = Command::new(mpirun);
    cmd.args(["--allow-run-as-root", "--oversubscribe", "-n", "2"]);
    for v in vars {
        cmd.args(["-x", v]);
    }
    let child = cmd
        .arg(&prog)
        .env_remove("NEXAR_RANK")
        .env_remove("NEXAR_SIZE")
        .env_remove("NEXAR_RENDEZVOUS")
        .env_remove("NEXAR_RENDEZVOUS_HOST")
        .env_remove("NEXAR_SECRET_FD")
        .env_remove("NEXAR_JOB_SECRET")
        .env_remove("NEXAR_JOB_SECRET_FILE")
        .env_remove("NEXAR_PMIX_LIB")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = wait_all_bounded(vec![child]).remove(0);
    eprintln!("mpirun -n 2 finished in {:?}", t.elapsed());
    Some(out)
}

/// Both ranks of `allreduce_demo` reported a verified allreduce.
fn assert_demo_verified(out: &Output) {
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}\n{text}\n{err}", out.status);
    for r in 0..2 {
        assert!(
            text.contains(&format!("rank {r}/2: allreduce of 65536 f64 verified")),
            "{text}\n{err}"
        );
    }
}

/// One real run under Open MPI's launcher with a shared secret file.
#[test]
fn real_mpirun_forms_a_world() {
    let (dir, secret) = secret_dir("mpirun");
    if let Some(out) = mpirun_demo(&[format!("NEXAR_JOB_SECRET_FILE={}", secret.display())]) {
        assert_demo_verified(&out);
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// Under `mpirun` the ranks join through its PMIx server (the system's libpmix, loaded at run
/// time): no secret file is needed, as under hydra's PMI-1. Without PMIx the same launch fails
/// for want of a secret (the next test).
#[test]
fn real_mpirun_joins_through_pmix_without_a_secret_file() {
    if !pmix_library_present() {
        println!("SKIPPED: no libpmix.so.2 on this machine");
        return;
    }
    if let Some(out) = mpirun_demo(&[]) {
        assert_demo_verified(&out);
    }
}

/// A PMIx launch whose client library cannot be loaded falls back to the Open MPI variables and
/// says what to do: install the library, name it, or give a secret.
#[test]
fn mpirun_without_the_pmix_library_names_each_fix() {
    let Some(out) = mpirun_demo(&["NEXAR_PMIX_LIB=/nonexistent/libpmix.so.2".into()]) else {
        return;
    };
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    for want in [
        "no job secret",
        "NEXAR_JOB_SECRET_FILE",
        "/nonexistent/libpmix.so.2",
        "libpmix2",
        "NEXAR_PMIX_LIB",
    ] {
        assert!(err.contains(want), "{want:?} missing from: {err}");
    }
}

/// Whether the PMIx client library loads here (what nexar would load by default).
fn pmix_library_present() -> bool {
    [
        "/usr/lib/x86_64-linux-gnu/libpmix.so.2",
        "/usr/lib/aarch64-linux-gnu/libpmix.so.2",
        "/usr/lib64/libpmix.so.2",
        "/usr/lib/libpmix.so.2",
    ]
    .iter()
    .any(|p| Path::new(p).exists())
}

/// Run by the next test as a child process: a Slurm launch read from the real environment
/// must remove the secret variable once read. Does nothing when run normally.
#[test]
fn child_reads_slurm_environment() {
    if std::env::var_os("NEXAR_SCHED_CHILD").is_none() {
        return;
    }
    let launch = nexar::bootstrap::Launch::from_env().unwrap();
    assert_eq!((launch.rank, launch.size, launch.local_rank), (1, 2, 1));
    assert!(launch.secret.is_some() && !launch.host_rendezvous);
    assert!(
        std::env::var_os("NEXAR_JOB_SECRET_FILE").is_none(),
        "secret variable scrubbed"
    );
    println!("CHILD OK");
}

#[test]
fn scheduler_launch_scrubs_the_secret_variable() {
    let (dir, secret) = secret_dir("scrub");
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child_reads_slurm_environment", "--nocapture"])
        .env_clear()
        .envs(kv(&[
            ("NEXAR_SCHED_CHILD", "1".into()),
            ("SLURM_PROCID", "1".into()),
            ("SLURM_NTASKS", "2".into()),
            ("SLURM_LOCALID", "1".into()),
            ("SLURM_STEP_NODELIST", "localhost".into()),
            ("SLURM_JOB_ID", "77".into()),
        ]))
        .env("NEXAR_JOB_SECRET_FILE", &secret)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("CHILD OK"), "{text}");
    let _ = std::fs::remove_dir_all(dir);
}
