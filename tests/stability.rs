//! Resource stability: many communicator split/free cycles, in-process world create/drop
//! cycles and QUIC connect/disconnect cycles leave the process's file descriptors, threads and
//! resident memory where they were.
//!
//! Each test warms up (first-use allocations, runtime threads), measures a baseline, runs the
//! cycles, then allows the generous bounds below: fds within +4, threads within +2, RSS growth
//! under 32 MiB. The figures are printed. Debug builds run 200 cycles (fast enough for CI);
//! `NEXAR_STABILITY_CYCLES=1000` runs the full count. `NEXAR_STABILITY_TRACE=1` prints the
//! QUIC test's figures every 50 cycles (before settling: connections still draining show).

mod common;

use common::*;
use nexar::transport::Transport;
use nexar::{Context, ReduceOp};
use std::time::{Duration, Instant};

/// The tests measure the whole process: they take turns.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

const FD_SLACK: usize = 4;
const THREAD_SLACK: usize = 2;
const RSS_SLACK_KIB: usize = 32 << 10;

/// Cycles to run: `NEXAR_STABILITY_CYCLES`, else 1000 in release and 200 in debug builds.
fn cycles() -> usize {
    std::env::var("NEXAR_STABILITY_CYCLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 200 } else { 1000 })
}

/// This process's open file descriptors, threads and resident set (KiB).
#[derive(Debug, Clone, Copy)]
struct Usage {
    fds: usize,
    threads: usize,
    rss_kib: usize,
}

fn status_field(name: &str) -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix(name))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in /proc/self/status"))
}

/// Measures after handing freed memory back to the system (`malloc_trim`), so the RSS figure
/// shows memory still in use, not what the allocator's per-thread arenas happen to keep.
fn usage() -> Usage {
    // SAFETY: malloc_trim only returns free heap pages to the system.
    unsafe { libc::malloc_trim(0) };
    Usage {
        fds: std::fs::read_dir("/proc/self/fd").unwrap().count(),
        threads: status_field("Threads:"),
        rss_kib: status_field("VmRSS:"),
    }
}

/// Whether `now` is back where `before` was: every fd and thread released, RSS within 4 MiB.
/// Closed connections, runtimes and idle blocking threads go away in the background, so the
/// tests wait (up to [`SETTLE`]) for this before the final measurement; a real leak never gets
/// there and fails the bounds below.
fn settled(before: &Usage, now: &Usage) -> bool {
    now.fds <= before.fds && now.threads <= before.threads && now.rss_kib <= before.rss_kib + 4096
}

/// How long resources may take to be released (tokio keeps idle blocking threads 10 s).
const SETTLE: Duration = Duration::from_secs(15);

/// The usage once settled, or after [`SETTLE`].
fn settle(before: &Usage) -> Usage {
    let start = Instant::now();
    loop {
        let u = usage();
        if settled(before, &u) || start.elapsed() > SETTLE {
            return u;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Prints the figures and asserts the bounds.
fn assert_stable(what: &str, n: usize, before: Usage, after: Usage, took: Duration) {
    eprintln!(
        "{what}: {n} cycles in {:.2} s ({:.2} ms each): fds {} -> {}, threads {} -> {}, \
         RSS {} -> {} KiB ({:+} KiB)",
        took.as_secs_f64(),
        took.as_secs_f64() * 1e3 / n as f64,
        before.fds,
        after.fds,
        before.threads,
        after.threads,
        before.rss_kib,
        after.rss_kib,
        after.rss_kib as i64 - before.rss_kib as i64
    );
    assert!(
        after.fds <= before.fds + FD_SLACK,
        "{what}: fds grew {} -> {}",
        before.fds,
        after.fds
    );
    assert!(
        after.threads <= before.threads + THREAD_SLACK,
        "{what}: threads grew {} -> {}",
        before.threads,
        after.threads
    );
    assert!(
        after.rss_kib <= before.rss_kib + RSS_SLACK_KIB,
        "{what}: RSS grew {} -> {} KiB",
        before.rss_kib,
        after.rss_kib
    );
}

/// `n` split/free cycles on every rank of `ctxs` (one scoped thread per rank); every 50th
/// communicator also carries an allreduce, checked.
fn split_cycles(ctxs: &[Context], n: usize) {
    std::thread::scope(|s| {
        for ctx in ctxs {
            s.spawn(move || {
                let w = ctx.world();
                for i in 0..n {
                    let color = (ctx.rank() + i as u32) % 2;
                    let sub = w
                        .block_on(w.split(Some(color), -(ctx.rank() as i32)))
                        .unwrap()
                        .expect("a color gives a communicator");
                    if i % 50 == 0 {
                        let mut v = [1u64, ctx.rank() as u64];
                        sub.block_on(sub.allreduce(&mut v, ReduceOp::Sum)).unwrap();
                        assert_eq!(v[0], sub.size() as u64, "cycle {i}");
                    }
                    drop(sub);
                }
            });
        }
    });
}

#[test]
fn split_and_free_cycles_do_not_leak() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let n = cycles();
    let ctxs = Context::in_process(4).unwrap();
    split_cycles(&ctxs, 50); // warm-up
    let before = usage();
    let t = Instant::now();
    split_cycles(&ctxs, n);
    let took = t.elapsed();
    assert_stable("comm split/free", n, before, settle(&before), took);
}

/// `n` cycles of building a 2-rank in-process world, one allreduce, and dropping it (the
/// runtime, its threads and the in-memory transport go with it).
fn world_cycles(n: usize) {
    for i in 0..n {
        let ctxs = Context::in_process(2).unwrap();
        std::thread::scope(|s| {
            for ctx in &ctxs {
                s.spawn(move || {
                    let w = ctx.world();
                    let mut v = [ctx.rank() as u64 + 1];
                    w.block_on(w.allreduce(&mut v, ReduceOp::Sum)).unwrap();
                    assert_eq!(v[0], 3, "cycle {i}");
                });
            }
        });
    }
}

#[test]
fn in_process_world_cycles_do_not_leak() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let n = cycles();
    world_cycles(20); // warm-up
    let before = usage();
    let t = Instant::now();
    world_cycles(n);
    let took = t.elapsed();
    assert_stable(
        "in-process world create/drop",
        n,
        before,
        settle(&before),
        took,
    );
}

/// One QUIC connect / exchange / disconnect cycle between two fresh endpoints.
async fn quic_cycle(i: usize) {
    let (ts, sinks) = world(2, &secret((i % 250) as u8), &test_config());
    ts[0].send(1, frame(0, i as u64, 100)).unwrap();
    ts[1].send(0, frame(1, i as u64, 100)).unwrap();
    for s in &sinks {
        assert!(
            wait_until(Duration::from_secs(10), || s.frame_count() == 1).await,
            "cycle {i}: a frame did not arrive"
        );
    }
    drop(ts);
}

#[test]
fn quic_connect_disconnect_cycles_do_not_leak() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(quic_cycles(cycles()));
}

async fn quic_cycles(n: usize) {
    for i in 0..20 {
        quic_cycle(i).await; // warm-up
    }
    // Closed endpoints release their sockets in the background: let the warm-up settle too.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = usage();
    let t = Instant::now();
    for i in 0..n {
        quic_cycle(i).await;
        if std::env::var_os("NEXAR_STABILITY_TRACE").is_some() && i % 50 == 49 {
            eprintln!("quic: after {} cycles: {:?}", i + 1, usage());
        }
    }
    let took = t.elapsed();
    let t = Instant::now();
    wait_until(SETTLE, || settled(&before, &usage())).await;
    eprintln!("quic: settled in {:.2} s", t.elapsed().as_secs_f64());
    assert_stable("quic connect/disconnect", n, before, usage(), took);
}
