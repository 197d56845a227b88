//! Multi-host `nexarrun` on two "hosts" made of Linux network namespaces: a bridge namespace
//! with a bridge, two host namespaces linked to it by veth pairs (10.213.7.1/24 and .2), each
//! nexarrun run under `unshare --uts` with its own host name (equal host names would make the
//! ranks use shared memory across "hosts"). Needs root, `ip` and `unshare`; otherwise each
//! test prints `SKIPPED: reason` and passes. The namespaces are deleted by a guard, even when
//! a test panics; every wait has a deadline and children are terminated on failure (see
//! tests/multihost_support). Tests that need no namespaces: tests/multihost_loopback.rs.

mod common;
mod multihost_support;

use common::procs::example;
use multihost_support::*;
use std::time::{Duration, Instant};

#[test]
fn two_hosts_use_shared_memory_within_and_quic_between() {
    let hosts = hosts_or_skip!();
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("job.secret");
    let start = Instant::now();
    let mut leader = Run::start(
        dir.path(),
        "leader",
        Some((&hosts.a, "hostA")),
        &leader_args(&secret, 7001, &[]),
    );
    // The leader creates the secret file; the joiner then reads it (as if copied over).
    wait_for_file(&secret);
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&secret).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "the leader's secret file has mode {mode:o}");
    let mut joiner = Run::start(
        dir.path(),
        "joiner",
        Some((&hosts.b, "hostB")),
        &joiner_args(&secret, 7001, &[]),
    );
    let js = joiner.wait(Duration::from_secs(60), "the joiner");
    let ls = leader.wait(Duration::from_secs(60), "the leader");
    let (lo, jo) = (leader.stdout(), joiner.stdout());
    eprintln!(
        "two-host job of 4 ranks done in {:?}\nleader:\n{lo}{}joiner:\n{jo}{}",
        start.elapsed(),
        leader.stderr(),
        joiner.stderr()
    );
    assert!(ls.success() && js.success(), "leader {ls}, joiner {js}");
    for (out, host, ranks) in [(&lo, "hostA", ["0", "1"]), (&jo, "hostB", ["2", "3"])] {
        let mut rs = reports(out);
        rs.sort_by(|x, y| x["rank"].cmp(&y["rank"]));
        assert_eq!(rs.len(), 2, "{host}: {out}");
        for (r, want) in rs.iter().zip(ranks) {
            assert_eq!(r["rank"], want);
            assert_eq!(r["size"], "4");
            assert_eq!(r["host"], host, "rank {want} runs on the wrong host");
            assert_eq!(r["transport"], "shm+quic", "rank {want}");
            let shm: u64 = r["shm_bytes"].parse().unwrap();
            let quic: u64 = r["quic_bytes"].parse().unwrap();
            let tls: u64 = r["tls_bytes"].parse().unwrap();
            assert!(shm > 0, "rank {want} sent nothing through shared memory");
            assert!(quic + tls > 0, "rank {want} sent nothing over the network");
            assert!(quic > 0, "rank {want} sent nothing over QUIC");
            assert!(tls > 0, "rank {want} sent nothing on the TLS bulk lane");
        }
    }
}

#[test]
fn a_stranger_without_the_secret_is_refused() {
    let hosts = hosts_or_skip!();
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("job.secret");
    let wrong = dir.path().join("wrong.secret");
    nexar::security::JobSecret::generate()
        .unwrap()
        .write_file(&wrong)
        .unwrap();
    let mut leader = Run::start(
        dir.path(),
        "leader",
        Some((&hosts.a, "hostA")),
        &leader_args(&secret, 7002, &[]),
    );
    let t0 = Instant::now();
    let mut stranger = Run::start(
        dir.path(),
        "stranger",
        Some((&hosts.b, "hostB")),
        &joiner_args(&wrong, 7002, &[]),
    );
    let st = stranger.wait(Duration::from_secs(30), "the stranger");
    eprintln!(
        "stranger refused after {:?}: {}",
        t0.elapsed(),
        stranger.stderr()
    );
    assert_eq!(st.code(), Some(1), "{}", stranger.stderr());
    assert!(
        stranger.stderr().contains("different job secret"),
        "{}",
        stranger.stderr()
    );
    assert!(
        reports(&stranger.stdout()).is_empty(),
        "a stranger's ranks ran"
    );
    // The leader is not disturbed: the real joiner still completes the job.
    let mut joiner = Run::start(
        dir.path(),
        "joiner",
        Some((&hosts.b, "hostB")),
        &joiner_args(&secret, 7002, &[]),
    );
    let js = joiner.wait(Duration::from_secs(60), "the joiner");
    let ls = leader.wait(Duration::from_secs(60), "the leader");
    assert!(
        ls.success() && js.success(),
        "leader {ls}: {}\njoiner {js}: {}",
        leader.stderr(),
        joiner.stderr()
    );
    assert!(
        leader.stderr().contains("refused a launcher"),
        "{}",
        leader.stderr()
    );
    assert_eq!(
        reports(&leader.stdout()).len() + reports(&joiner.stdout()).len(),
        4
    );
}

#[test]
fn a_rank_dying_on_the_other_host_ends_the_job_everywhere() {
    let hosts = hosts_or_skip!();
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("job.secret");
    let t0 = Instant::now();
    let mut leader = Run::start(
        dir.path(),
        "leader",
        Some((&hosts.a, "hostA")),
        &leader_args(&secret, 7003, &["die", "3"]),
    );
    wait_for_file(&secret);
    let mut joiner = Run::start(
        dir.path(),
        "joiner",
        Some((&hosts.b, "hostB")),
        &joiner_args(&secret, 7003, &["die", "3"]),
    );
    let ls = leader.wait(Duration::from_secs(40), "the leader");
    let js = joiner.wait(Duration::from_secs(40), "the joiner");
    let took = t0.elapsed();
    let (le, je) = (leader.stderr(), joiner.stderr());
    eprintln!(
        "rank 3 died on hostB; job over everywhere after {took:?}\nleader:\n{le}joiner:\n{je}"
    );
    // Rank 3 exited with 3; the sleeping ranks 0-2 were terminated by their launchers.
    assert_eq!(ls.code(), Some(3), "{le}");
    assert_eq!(js.code(), Some(3), "{je}");
    assert!(le.contains("rank 3 (on hostB) exited with code 3"), "{le}");
    let sleeping = leader.stdout() + &joiner.stdout();
    for r in 0..3 {
        assert!(
            sleeping.contains(&format!("SLEEPING rank={r} ")),
            "{sleeping}"
        );
    }
    assert!(!le.contains("still alive") && !je.contains("still alive"));
    assert!(took < Duration::from_secs(40));
}

/// Rank and host of every `MULTIHOST` report, sorted.
fn ranks_and_hosts(out: &str) -> Vec<(String, String)> {
    let mut seen: Vec<(String, String)> = reports(out)
        .into_iter()
        .map(|r| (r["rank"].clone(), r["host"].clone()))
        .collect();
    seen.sort();
    seen
}

/// Waits (at most 60 s) for the leader of a `what` job started at `t0`, prints its output,
/// checks that it succeeded and returns its standard output.
fn succeeds(leader: &mut Run, what: &str, t0: Instant) -> String {
    let st = leader.wait(Duration::from_secs(60), what);
    let out = leader.stdout();
    eprintln!(
        "{what} job done in {:?}:\n{out}{}",
        t0.elapsed(),
        leader.stderr()
    );
    assert!(st.success(), "{what}: {st}: {}", leader.stderr());
    out
}

/// Ranks 0-1 on host A, 2-3 on host B.
fn two_and_two() -> Vec<(String, String)> {
    [
        ("0", "hostA"),
        ("1", "hostA"),
        ("2", "hostB"),
        ("3", "hostB"),
    ]
    .iter()
    .map(|(r, h)| (r.to_string(), h.to_string()))
    .collect()
}

/// `-H`: the leader starts the joiner itself through `NEXAR_RSH` (here a script standing in
/// for ssh that runs the command line in host B's namespace).
#[test]
fn the_leader_starts_joiners_through_a_remote_shell() {
    let hosts = hosts_or_skip!();
    let dir = tempfile::tempdir().unwrap();
    let rsh = fake_rsh(dir.path(), JOINER_IP, &hosts.b, "hostB");
    let secret = dir.path().join("job.secret");
    let t0 = Instant::now();
    let mut leader = Run::start_with(
        dir.path(),
        "leader",
        Some((&hosts.a, "hostA")),
        &s(&[
            "-H",
            &format!("{LEADER_IP}:2,{JOINER_IP}:2"),
            "--secret-file",
            &secret.display().to_string(),
            &example("multihost_check").display().to_string(),
        ]),
        &[("NEXAR_RSH", rsh.to_str().unwrap())],
    );
    let out = succeeds(&mut leader, "-H", t0);
    // The joiner's output comes back through the remote shell.
    assert_eq!(ranks_and_hosts(&out), two_and_two());
}

/// The `mpiexec` twin of the test above: `mpiexec -H hostA:2,B:2` (a link named `mpiexec` to
/// nexarrun) starts host B's joiner through the same stand-in remote shell, with the secret
/// file from `NEXAR_JOB_SECRET_FILE`; `-genv` and `-wdir` reach the ranks on both hosts.
#[test]
fn mpiexec_starts_joiners_through_a_remote_shell() {
    let hosts = hosts_or_skip!();
    let dir = tempfile::tempdir().unwrap();
    let rsh = fake_rsh(dir.path(), JOINER_IP, &hosts.b, "hostB");
    let mpiexec = mpiexec_in(dir.path());
    let work = dir.path().join("work dir");
    std::fs::create_dir(&work).unwrap();
    let secret = dir.path().join("job.secret");
    // Each rank says where it runs and what it got, then runs the check.
    let script = "echo \"ENV rank=$NEXAR_RANK mark=$MARK pwd=$(pwd)\"; exec \"$0\"";
    let t0 = Instant::now();
    let mut leader = Run::start_prog(
        dir.path(),
        "mpiexec",
        Some((&hosts.a, "hostA")),
        &mpiexec,
        &s(&[
            "-H",
            &format!("hostA:2,{JOINER_IP}:2"),
            "-genv",
            "MARK",
            "two words",
            "-wdir",
            work.to_str().unwrap(),
            "sh",
            "-c",
            script,
            &example("multihost_check").display().to_string(),
        ]),
        &[
            ("NEXAR_RSH", rsh.to_str().unwrap()),
            ("NEXAR_JOB_SECRET_FILE", secret.to_str().unwrap()),
        ],
    );
    let out = succeeds(&mut leader, "mpiexec -H", t0);
    assert_eq!(ranks_and_hosts(&out), two_and_two());
    for r in 0..4 {
        let want = format!("ENV rank={r} mark=two words pwd={}", work.display());
        assert!(out.lines().any(|l| l == want), "{want}:\n{out}");
    }
}
