//! `Context::abort` (and through it `nexar_abort` / `MPI_Abort`) ends every rank with the
//! abort's code: without a launcher (the abort frame reaches each peer), over shared memory and
//! over QUIC, and under nexarrun (which returns the code).

mod common;

use common::procs::{example, launch_by_hand, nexarrun_path, stderr_text, wait_all, wait_until};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn check_all_aborted(outs: &[Output]) {
    for (r, o) in outs.iter().enumerate() {
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(7), "rank {r}: {stderr}");
        if r + 1 < outs.len() {
            assert!(
                stderr.contains(&format!(
                    "rank {} aborted the job with code 7",
                    outs.len() - 1
                )),
                "rank {r}: {stderr}"
            );
        }
    }
}

fn aborts_without_a_launcher(transport: &str) {
    let dir = tempfile::tempdir().unwrap();
    let start = Instant::now();
    let launch = launch_by_hand(&example("abort_check"), 3, dir.path(), |c| {
        c.env("NEXAR_TRANSPORT", transport);
    });
    let outs = wait_all(launch.children);
    // Generous (start-up included): without the abort frame the survivors would wait for the
    // peer timeout (30 s) and then exit with 3.
    assert!(start.elapsed() < Duration::from_secs(20), "{outs:?}");
    check_all_aborted(&outs);
}

#[test]
fn an_abort_ends_every_rank_over_shared_memory_without_a_launcher() {
    aborts_without_a_launcher("auto");
}

#[test]
fn an_abort_ends_every_rank_over_quic_without_a_launcher() {
    aborts_without_a_launcher("quic");
}

/// Runs 3 ranks of abort_check under nexarrun (`launcher` options, then `args` for the
/// ranks) and checks the job ends with the abort's code.
fn assert_nexarrun_returns_the_abort_code(launcher: &[&str], args: &[&str]) {
    let out = Command::new(nexarrun_path())
        .args(["-n", "3"])
        .args(launcher)
        .arg(example("abort_check"))
        .args(args)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(7), "{}", stderr_text(&out));
}

#[test]
fn nexarrun_returns_the_abort_code() {
    assert_nexarrun_returns_the_abort_code(&[], &[]);
}

#[test]
fn an_abort_from_another_thread_ends_every_rank() {
    assert_nexarrun_returns_the_abort_code(&["--timeout", "60"], &["thread"]);
}

/// Sends `sig` to `child`.
fn signal(child: &std::process::Child, sig: i32) {
    // SAFETY: kill has no memory effects.
    unsafe { libc::kill(child.id() as i32, sig) };
}

/// 4 ranks by hand: once all are ready, rank 1 is killed and rank 2 stopped, then rank 3
/// aborts. Rank 3 must exit promptly with 7 although one peer is dead and one hung; rank 0
/// exits with 7; rank 2, once resumed, too (the abort frame waited for it).
fn abort_with_a_dead_and_a_hung_peer(transport: &str) {
    use std::io::{BufRead, BufReader, Write};
    let dir = tempfile::tempdir().unwrap();
    let mut launch = launch_by_hand(&example("abort_check"), 4, dir.path(), |c| {
        c.env("NEXAR_TRANSPORT", transport)
            .arg("stdin")
            .stdin(std::process::Stdio::piped());
    });
    let children = &mut launch.children;
    let give_up = Instant::now() + Duration::from_secs(60);
    for (r, c) in children.iter_mut().enumerate() {
        let mut line = String::new();
        let mut out = BufReader::new(c.stdout.take().unwrap());
        out.read_line(&mut line).unwrap();
        if line.trim() != format!("rank {r} ready") {
            let _ = c.kill();
            let mut err = String::new();
            std::io::Read::read_to_string(&mut c.stderr.take().unwrap(), &mut err).unwrap();
            panic!("rank {r} not ready: {line:?}\n{err}");
        }
    }
    signal(&children[1], libc::SIGKILL);
    signal(&children[2], libc::SIGSTOP);
    let asked = Instant::now();
    children[3]
        .stdin
        .take()
        .unwrap()
        .write_all(b"abort\n")
        .unwrap();
    let wait_exit = |c: &mut std::process::Child| wait_until(c, give_up);
    let aborter = wait_exit(&mut children[3]);
    let took = asked.elapsed();
    let first = wait_exit(&mut children[0]);
    signal(&children[2], libc::SIGCONT);
    let resumed = wait_exit(&mut children[2]);
    for c in children.iter_mut() {
        let _ = c.kill();
        let _ = c.wait();
    }
    eprintln!("{transport}: the aborting rank exited {took:?} after the request");
    assert_eq!(aborter.and_then(|s| s.code()), Some(7), "aborting rank");
    assert!(took < Duration::from_secs(2), "abort took {took:?}");
    assert_eq!(first.and_then(|s| s.code()), Some(7), "rank 0");
    assert_eq!(resumed.and_then(|s| s.code()), Some(7), "resumed rank 2");
}

#[test]
fn an_abort_returns_promptly_with_a_dead_and_a_hung_peer_over_shared_memory() {
    abort_with_a_dead_and_a_hung_peer("auto");
}

#[test]
fn an_abort_returns_promptly_with_a_dead_and_a_hung_peer_over_quic() {
    abort_with_a_dead_and_a_hung_peer("quic");
}
