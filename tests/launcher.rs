//! `nexarrun` with real processes: exit codes, termination, output forwarding, the environment
//! contract, and a real multi-process world over QUIC.

mod common;

use common::*;
use nexar::bootstrap::{Launch, establish};
use std::collections::{BTreeMap, HashSet};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn nexarrun() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_nexarrun"));
    c.env_remove("NEXAR_TEST_CHILD");
    c
}

fn run(args: &[&str]) -> (Output, Duration) {
    let start = Instant::now();
    let out = nexarrun().args(args).output().expect("nexarrun runs");
    (out, start.elapsed())
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn version_is_printed() {
    let (out, _) = run(&["--version"]);
    assert!(out.status.success());
    assert!(
        text(&out.stdout).starts_with("nexarrun "),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn every_rank_sees_the_environment_contract_and_output_is_tagged() {
    for n in 1..=4u32 {
        let (out, _) = run(&[
            "-n",
            &n.to_string(),
            "-l",
            "sh",
            "-c",
            "echo \"$NEXAR_RANK/$NEXAR_SIZE/$NEXAR_LOCAL_RANK $NEXAR_RENDEZVOUS\"; echo oops >&2",
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        let stderr = text(&out.stderr);
        for r in 0..n {
            let want = format!("[{r}] {r}/{n}/{r} 127.0.0.1:");
            assert!(stdout.contains(&want), "missing {want:?} in {stdout}");
            assert!(stderr.contains(&format!("[{r}] oops")), "{stderr}");
        }
        assert_eq!(stdout.lines().count(), n as usize);
    }
}

/// `NEXAR_LOG` reaches every rank: each logs to stderr with its rank in front, and without
/// colour codes when stderr is not a terminal (here a pipe), nexarrun included. Before, only
/// nexarrun logged, in colour even into a pipe.
#[test]
fn nexar_log_makes_every_rank_log_with_its_rank_and_no_colour_into_a_pipe() {
    let out = nexarrun()
        .env("NEXAR_LOG", "debug")
        .args(["-n", "2", "--"])
        .arg(common::procs::example("allreduce_demo"))
        .output()
        .expect("nexarrun runs");
    let err = text(&out.stderr);
    assert!(out.status.success(), "{:?}\n{err}", out.status);
    for r in 0..2 {
        assert!(
            err.contains(&format!("[nexar rank {r}] ")),
            "no log line of rank {r}:\n{err}"
        );
    }
    assert!(!err.contains('\x1b'), "colour codes in a pipe:\n{err}");
}

/// A one-rank job outliving the connect timeout logs no rendezvous error (its rank never joins
/// a rendezvous); before, `mpiexec -n 1` printed "rendezvous timed out" after 60 s.
#[test]
fn a_one_rank_job_that_outlives_the_connect_timeout_logs_no_rendezvous_error() {
    let out = nexarrun()
        .env("NEXAR_CONNECT_TIMEOUT_MS", "200")
        .args(["-n", "1", "--", "sh", "-c", "sleep 0.8"])
        .output()
        .expect("nexarrun runs");
    let err = text(&out.stderr);
    assert!(out.status.success(), "{:?}\n{err}", out.status);
    assert!(!err.contains("rendezvous"), "{err}");
}

#[test]
fn without_tags_output_passes_through() {
    let (out, _) = run(&["-n", "2", "sh", "-c", "printf 'x%s\\n' $NEXAR_RANK"]);
    assert!(out.status.success());
    let mut lines: Vec<_> = text(&out.stdout).lines().map(str::to_string).collect();
    lines.sort();
    assert_eq!(lines, ["x0", "x1"]);
}

#[test]
fn program_arguments_are_left_alone() {
    let (out, _) = run(&["-n", "1", "--", "echo", "-l", "-n", "--timeout", "x"]);
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), "-l -n --timeout x\n");
    let (out, _) = run(&["-n", "1", "printf", "%s|", "-n", "3", "-l"]);
    assert_eq!(text(&out.stdout), "-n|3|-l|");
}

#[test]
fn a_failing_rank_sets_the_exit_code_and_its_siblings_are_terminated() {
    let (out, took) = run(&[
        "-n",
        "3",
        "sh",
        "-c",
        "if [ $NEXAR_RANK = 1 ]; then sleep 0.2; exit 3; fi; sleep 1000",
    ]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("rank 1 exited with code 3"),
        "{}",
        text(&out.stderr)
    );
    assert!(took < Duration::from_secs(10), "{took:?}");
}

#[test]
fn siblings_ignoring_sigterm_are_killed_and_signals_map_to_128_plus() {
    let (out, took) = run(&[
        "-n",
        "3",
        "sh",
        "-c",
        "trap '' TERM; if [ $NEXAR_RANK = 2 ]; then kill -9 $$; fi; sleep 1000",
    ]);
    assert_eq!(out.status.code(), Some(137), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("rank 2 was killed by signal 9"));
    assert!(took < Duration::from_secs(10), "{took:?}");
}

#[test]
fn the_timeout_kills_the_job_with_124() {
    let (out, took) = run(&["-n", "2", "--timeout", "0.5", "sleep", "1000"]);
    assert_eq!(out.status.code(), Some(124));
    assert!(text(&out.stderr).contains("timed out"));
    assert!(took < Duration::from_secs(5), "{took:?}");
}

#[test]
fn a_program_that_cannot_start_is_a_clear_error() {
    let (out, _) = run(&["-n", "2", "/nonexistent/program"]);
    assert_eq!(out.status.code(), Some(127));
    let err = text(&out.stderr);
    assert!(err.contains("cannot start '/nonexistent/program'"), "{err}");
    let (out, _) = run(&["-n", "0", "true"]);
    assert_ne!(out.status.code(), Some(0));
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

#[test]
fn the_secret_reaches_ranks_only_through_their_own_pipe() {
    let script = r#"
        printf 'D:%s\n' "$NEXAR_SECRET_FD"
        printf 'S:'; od -An -tx1 -v "/proc/self/fd/$NEXAR_SECRET_FD" | tr -d ' \n'; echo
        printf 'E:'; od -An -tx1 -v /proc/$$/environ | tr -d ' \n'; echo
        printf 'A:'; od -An -tx1 -v /proc/$$/cmdline | tr -d ' \n'; echo
        printf 'F:'; ls /proc/$$/fd | tr '\n' ' '; echo
    "#;
    let (out, _) = run(&["-n", "3", "-l", "sh", "-c", script]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // rank -> key -> value
    let mut seen: BTreeMap<u32, BTreeMap<String, String>> = BTreeMap::new();
    for line in text(&out.stdout).lines() {
        let (tag, rest) = line.split_once("] ").unwrap();
        let rank: u32 = tag.trim_start_matches('[').parse().unwrap();
        let (k, v) = rest.split_once(':').unwrap();
        seen.entry(rank)
            .or_default()
            .insert(k.into(), v.trim().into());
    }
    assert_eq!(seen.len(), 3);
    let secrets: HashSet<&String> = seen.values().map(|m| &m["S"]).collect();
    assert_eq!(secrets.len(), 1, "every rank reads the same secret");
    let fds: Vec<&String> = seen.values().map(|m| &m["D"]).collect();
    for (rank, m) in &seen {
        let s = &m["S"];
        assert_eq!(s.len(), 64, "rank {rank} read 32 bytes: {s}");
        for key in ["E", "A"] {
            let hex = &m[key];
            assert!(
                !hex.contains(s.as_str()),
                "secret bytes in rank {rank}'s {key}"
            );
            let txt = String::from_utf8_lossy(&unhex(hex)).to_lowercase();
            assert!(
                !txt.contains(s.as_str()),
                "hex secret in rank {rank}'s {key}"
            );
        }
        let open: HashSet<&str> = m["F"].split_whitespace().collect();
        for fd in &fds {
            let mine = *fd == &m["D"];
            assert_eq!(
                open.contains(fd.as_str()),
                mine,
                "rank {rank}, fd {fd}: {open:?}"
            );
        }
    }
}

/// The program the next test starts under nexarrun: this very test binary, running only this
/// test, as one rank. Does nothing when run normally.
#[test]
fn child_rank_under_nexarrun() {
    if std::env::var_os("NEXAR_TEST_CHILD").is_none() {
        return;
    }
    let fd: i32 = std::env::var("NEXAR_SECRET_FD").unwrap().parse().unwrap();
    let launch = Launch::from_env().unwrap();
    assert!(
        std::env::var_os("NEXAR_SECRET_FD").is_none(),
        "secret variable scrubbed"
    );
    // SAFETY: F_GETFD only queries the descriptor table.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFD) };
    assert_eq!(flags, -1, "secret pipe closed");
    let cfg = nexar::Config::from_env().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let sink = Recorder::new();
        let world = establish(&launch, &cfg, sink.clone()).await.unwrap();
        let (me, n) = (launch.rank, launch.size);
        for dst in (0..n).filter(|&d| d != me) {
            world.transport.send(dst, frame(me, 0, 100)).unwrap();
            world.transport.send(dst, frame(me, 1, 1 << 20)).unwrap();
        }
        let want = 2 * (n as usize - 1);
        assert!(wait_until(Duration::from_secs(20), || sink.frame_count() == want).await);
        sink.frames.lock().iter().for_each(check);
        world.transport.shutdown().await;
        assert!(sink.lost.lock().is_empty(), "{:?}", sink.lost.lock());
        println!("rank {me} of {n} ok, hosts {:?}", world.hosts.len());
    });
}

#[test]
fn ranks_under_nexarrun_establish_a_world_and_exchange_frames() {
    let exe = std::env::current_exe().unwrap();
    let out = nexarrun()
        .env("NEXAR_TEST_CHILD", "1")
        .env("NEXAR_CONNECT_TIMEOUT_MS", "20000")
        .env("NEXAR_PEER_TIMEOUT_MS", "5000")
        .args(["-n", "4", "-l", "--timeout", "60"])
        .arg(&exe)
        .args([
            "child_rank_under_nexarrun",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}\n{}",
        text(&out.stderr)
    );
    for r in 0..4 {
        let ok = stdout.lines().any(|l| {
            l.starts_with(&format!("[{r}] ")) && l.contains(&format!("rank {r} of 4 ok, hosts 4"))
        });
        assert!(ok, "rank {r} did not finish: {stdout}");
    }
}

/// The CPUs this process may run on, from `/proc/self/status` (`Cpus_allowed_list`, such as
/// `0-3,6`), expanded.
fn cpu_list(list: &str) -> Vec<usize> {
    let mut out = Vec::new();
    for part in list.trim().split(',').filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => out.extend(a.parse::<usize>().unwrap()..=b.parse::<usize>().unwrap()),
            None => out.push(part.parse().unwrap()),
        }
    }
    out
}

fn my_cpus() -> Vec<usize> {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        .expect("Cpus_allowed_list in /proc/self/status");
    cpu_list(line)
}

/// Each rank's allowed CPUs under `nexarrun -n N ARGS` with `env`.
fn rank_cpus(n: usize, args: &[&str], env: &[(&str, &str)]) -> BTreeMap<u32, Vec<usize>> {
    let mut cmd = nexarrun();
    cmd.args(["-n", &n.to_string(), "-l"])
        .args(args)
        .args(["sh", "-c", "grep Cpus_allowed_list /proc/self/status"])
        .env_remove("NEXAR_BIND");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("nexarrun runs");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    text(&out.stdout)
        .lines()
        .map(|l| {
            let (rank, rest) = l.split_once("] ").expect("tagged line");
            let list = rest.split_once(':').expect("a status line").1;
            (
                rank.trim_start_matches('[').parse().unwrap(),
                cpu_list(list),
            )
        })
        .collect()
}

/// Ranks that fit the launcher's CPUs get one each, in order, as Open MPI's mpirun binds
/// (two spinning ranks left to share a CPU made a 64 KiB ping-pong 3.5x slower in some
/// launches); more ranks than CPUs, or `--bind-to none` / `NEXAR_BIND=none`, are left alone;
/// `--bind-to core` pins round robin even then; a bad `NEXAR_BIND` is a usage error.
#[test]
fn ranks_are_pinned_one_per_cpu_when_they_fit() {
    let all = my_cpus();
    let fit = all.len().min(4);
    let pinned = rank_cpus(fit, &[], &[]);
    assert_eq!(pinned.len(), fit);
    for (r, cpus) in &pinned {
        assert_eq!(
            cpus,
            &vec![all[*r as usize]],
            "rank {r} of {fit} on {all:?}"
        );
    }
    for (args, env) in [
        (&["--bind-to", "none"][..], &[][..]),
        (&[][..], &[("NEXAR_BIND", "none")][..]),
    ] {
        for cpus in rank_cpus(fit, args, env).values() {
            assert_eq!(cpus, &all, "{args:?} {env:?}");
        }
    }
    let over = all.len() + 1;
    for cpus in rank_cpus(over, &[], &[]).values() {
        assert_eq!(cpus, &all, "oversubscribed ranks stay unpinned");
    }
    for (r, cpus) in rank_cpus(over, &["--bind-to", "core"], &[]) {
        assert_eq!(cpus, vec![all[r as usize % all.len()]], "round robin");
    }
    let out = nexarrun()
        .args(["-n", "1", "true"])
        .env("NEXAR_BIND", "socket")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("NEXAR_BIND"),
        "{}",
        text(&out.stderr)
    );
}
