//! Multi-host `nexarrun` failure handling that needs no network namespaces (loopback only, so
//! it runs everywhere): a missing joiner, a lost leader, a failing remote shell, a joiner
//! asking for too many ranks. Every wait has a deadline; children are terminated on failure.

mod common;
mod multihost_support;

use common::procs::{example, nexarrun_path};
use multihost_support::*;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs `nexarrun ARGS --secret-file SECRET multihost_check` (no secret file from the
/// environment) with `envs`; its output and how long it took.
fn nexarrun(args: &[&str], secret: &Path, envs: &[(&str, &str)]) -> (Output, Duration) {
    let t0 = Instant::now();
    let out = Command::new(nexarrun_path())
        .args(args)
        .arg("--secret-file")
        .arg(secret)
        .arg(example("multihost_check"))
        .envs(envs.iter().copied())
        .env_remove("NEXAR_JOB_SECRET_FILE")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (out, t0.elapsed())
}

/// Loopback only (no namespaces): a leader whose joiner never comes fails after the connect
/// timeout with a message naming the ranks without a host.
#[test]
fn a_missing_joiner_fails_the_leader_in_bounded_time() {
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("job.secret");
    let port = common::procs::free_udp_port();
    let listen = format!("127.0.0.1:{port}");
    let args = ["-n", "3", "--listen", &listen, "--local", "1"];
    let (out, took) = nexarrun(&args, &secret, &[("NEXAR_CONNECT_TIMEOUT_MS", "1500")]);
    let err = String::from_utf8_lossy(&out.stderr);
    eprintln!("leader without joiner gave up after {took:?}: {err}");
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("ranks 1..=2 have no host"), "{err}");
    assert!(took < Duration::from_secs(20), "{took:?}");
}

/// Loopback only: a joiner whose leader vanishes (SIGKILL) terminates its ranks and exits.
#[test]
fn a_joiner_that_loses_its_leader_terminates_its_ranks() {
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("job.secret");
    let port = common::procs::free_udp_port();
    let prog = example("multihost_check").display().to_string();
    let secret_s = secret.display().to_string();
    let leader_addr = format!("127.0.0.1:{port}");
    // A short peer timeout: the joiner notices a silent leader within 1.5 s.
    let quick = [("NEXAR_PEER_TIMEOUT_MS", "1500")];
    let mut leader = Run::start_with(
        dir.path(),
        "leader",
        None,
        &s(&[
            "-n",
            "2",
            "--listen",
            &leader_addr,
            "--local",
            "1",
            "--secret-file",
            &secret_s,
            &prog,
            "die",
            "9",
        ]),
        &quick,
    );
    wait_for_file(&secret);
    let mut joiner = {
        let mut args = s(&[
            "--join",
            &leader_addr,
            "--local",
            "1",
            "--secret-file",
            &secret_s,
        ]);
        args.extend(s(&[&prog, "die", "9"]));
        Run::start_with(dir.path(), "joiner", None, &args, &quick)
    };
    // Wait until both ranks sleep (the job is up), then kill the leader outright.
    let up = Instant::now();
    while !(leader.stdout().contains("SLEEPING") && joiner.stdout().contains("SLEEPING")) {
        assert!(
            up.elapsed() < Duration::from_secs(30),
            "the job did not come up: {}{}",
            leader.stderr(),
            joiner.stderr()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let killed = Instant::now();
    leader.child.kill().unwrap();
    leader.status = Some(leader.child.wait().unwrap());
    let js = joiner.wait(Duration::from_secs(30), "the joiner");
    let je = joiner.stderr();
    eprintln!(
        "joiner ended {:?} after its leader was killed: {je}",
        killed.elapsed()
    );
    assert!(je.contains("lost the leader"), "{je}");
    assert!(!js.success(), "{js}");
    // The leader's own rank is an orphan now (its launcher was SIGKILLed): end it by its pid.
    let orphan: i32 = leader
        .stdout()
        .split_whitespace()
        .find_map(|w| w.strip_prefix("pid="))
        .and_then(|p| p.parse().ok())
        .expect("the leader's rank printed its pid");
    // SAFETY: kill has no memory effects; the pid is the sleeping rank this test started.
    unsafe { libc::kill(orphan, libc::SIGKILL) };
    assert!(
        killed.elapsed() < Duration::from_secs(15),
        "{:?}",
        killed.elapsed()
    );
}

/// Loopback only: a remote shell that fails ends the job at once, naming the host.
#[test]
fn a_failing_remote_shell_ends_the_job_promptly() {
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("job.secret");
    let args = ["-H", "localhost:1,127.0.0.1:1"];
    let (out, took) = nexarrun(&args, &secret, &[("NEXAR_RSH", "false")]);
    let err = String::from_utf8_lossy(&out.stderr);
    eprintln!("failing remote shell: job over after {took:?}: {err}");
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("the remote shell for 127.0.0.1 ended"),
        "{err}"
    );
    assert!(took < Duration::from_secs(20), "{took:?}");
}

/// Loopback only: a joiner asking for more ranks than remain is refused with a message; the
/// leader goes on and completes the job with a fitting joiner.
#[test]
fn a_joiner_asking_for_too_many_ranks_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("job.secret");
    let secret_s = secret.display().to_string();
    let addr = format!("127.0.0.1:{}", common::procs::free_udp_port());
    let prog = example("multihost_check").display().to_string();
    let mut leader = Run::start(
        dir.path(),
        "leader",
        None,
        &s(&[
            "-n",
            "2",
            "--listen",
            &addr,
            "--local",
            "1",
            "--secret-file",
            &secret_s,
            &prog,
        ]),
    );
    wait_for_file(&secret);
    let join = |name: &str, k: &str| {
        Run::start(
            dir.path(),
            name,
            None,
            &s(&[
                "--join",
                &addr,
                "--local",
                k,
                "--secret-file",
                &secret_s,
                &prog,
            ]),
        )
    };
    let mut greedy = join("greedy", "3");
    let gs = greedy.wait(Duration::from_secs(30), "the greedy joiner");
    assert_eq!(gs.code(), Some(1), "{}", greedy.stderr());
    assert!(
        greedy
            .stderr()
            .contains("it asked for 3 ranks; 1 of the job's 2 ranks have no host"),
        "{}",
        greedy.stderr()
    );
    let mut fitting = join("fitting", "1");
    let fs = fitting.wait(Duration::from_secs(60), "the fitting joiner");
    let ls = leader.wait(Duration::from_secs(60), "the leader");
    assert!(
        fs.success() && ls.success(),
        "{}{}",
        fitting.stderr(),
        leader.stderr()
    );
    assert_eq!(
        reports(&leader.stdout()).len() + reports(&fitting.stdout()).len(),
        2
    );
}

/// Loopback only: `mpiexec` with another host takes the `-H` path, whose usage errors exit 2
/// before anything starts: no secret file, then a host that does not resolve.
#[test]
fn mpiexec_with_other_hosts_needs_a_secret_and_known_hosts() {
    let dir = tempfile::tempdir().unwrap();
    let mpiexec = mpiexec_in(dir.path());
    let secret = dir.path().join("job.secret");
    let run = |secret_file: Option<&Path>| {
        let mut c = Command::new(&mpiexec);
        c.args(["-H", "localhost:1,node-b.invalid:1", "true"])
            .env_remove("NEXAR_JOB_SECRET_FILE")
            .env("NEXAR_RSH", "false")
            .stdin(Stdio::null());
        if let Some(f) = secret_file {
            c.env("NEXAR_JOB_SECRET_FILE", f);
        }
        c.output().unwrap()
    };
    let out = run(None);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("needs a secret file"), "{err}");
    let out = run(Some(&secret));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("cannot resolve host 'node-b.invalid'"),
        "{err}"
    );
    // A local-only list runs here as before, secret or not.
    let out = Command::new(&mpiexec)
        .args(["-H", "localhost:2", "sh", "-c", "echo $NEXAR_SIZE"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "2\n2\n");
}
