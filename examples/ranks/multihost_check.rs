//! A multi-host check, run by tests/multihost_netns.rs with one `nexarrun` per (network
//! namespace) host: allreduce, broadcasts from a rank on each host, and point-to-point with
//! every peer (up to 200 000 bytes, over the bulk-lane threshold), all verified; then each rank prints its host and transport counters:
//!
//! ```text
//! MULTIHOST rank=R size=N host=H transport=T shm_bytes=S quic_bytes=Q tls_bytes=B
//! ```
//!
//! (`*_bytes`: payload bytes sent over that transport.) `multihost_check die R`: rank R exits
//! with code 3 after a first barrier; the others declare that they do not return errors and
//! sleep, so the launchers must terminate them (prints `SLEEPING rank=R host=H pid=P` first).

#[path = "../support/exchange.rs"]
mod exchange;

use exchange::{pattern, shift};
use nexar::{Context, ReduceOp};
use std::time::Duration;

fn fail(rank: u32, what: String) -> ! {
    eprintln!("rank {rank}: WRONG RESULT: {what}");
    std::process::exit(1);
}

fn main() -> nexar::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let ctx = Context::init()?;
    let w = ctx.world();
    let (me, n) = (w.rank(), w.size());
    let host = nexar::bootstrap::hostname();

    if args.first().map(String::as_str) == Some("die") {
        let victim: u32 = args.get(1).and_then(|v| v.parse().ok()).unwrap_or(n - 1);
        // As MPI's default error handler: the launcher ends this rank with the job.
        ctx.set_returns_errors(false);
        w.barrier_blocking()?;
        if me == victim {
            // Let the others leave the barrier first: they must learn of this death from
            // their launchers, not from a failing barrier.
            std::thread::sleep(Duration::from_millis(300));
            eprintln!("rank {me} on {host}: exiting with code 3 on purpose");
            std::process::exit(3);
        }
        println!("SLEEPING rank={me} host={host} pid={}", std::process::id());
        std::thread::sleep(Duration::from_secs(120));
        eprintln!("rank {me}: still alive after 120 s: nobody terminated it");
        std::process::exit(1);
    }

    // Allreduce: element i of rank r is r * 1000 + i.
    let len = 1 << 12;
    let mut v: Vec<f64> = (0..len)
        .map(|i| f64::from(me) * 1000.0 + i as f64)
        .collect();
    w.allreduce_blocking(&mut v, ReduceOp::Sum)?;
    let s = f64::from(n);
    for (i, &x) in v.iter().enumerate() {
        let want = 1000.0 * s * (s - 1.0) / 2.0 + s * i as f64;
        if x != want {
            fail(me, format!("allreduce element {i} is {x}, expected {want}"));
        }
    }
    // Broadcasts from the first and the last rank (on different hosts).
    for root in [0, n - 1] {
        let mut b: Vec<u64> = if me == root {
            (0..513).map(|i| i * 7 + u64::from(root)).collect()
        } else {
            vec![0; 513]
        };
        w.bcast_blocking(&mut b, root)?;
        if b.iter()
            .enumerate()
            .any(|(i, &x)| x != i as u64 * 7 + u64::from(root))
        {
            fail(me, format!("bcast from rank {root} arrived wrong"));
        }
    }
    // Point-to-point with every peer, in a fixed pairwise order.
    // 200 000 bytes: over the bulk threshold, so between hosts it takes the TLS bulk lane.
    for &size in &[1usize, 4000, 30_000, 200_000] {
        for k in 1..n {
            let (from, intact) = shift(w, k, size, k as i32, pattern)?;
            if !intact {
                fail(
                    me,
                    format!("{size} bytes from rank {from} arrived corrupted"),
                );
            }
        }
    }
    w.barrier_blocking()?;
    let stats = ctx.transport_stats();
    let bytes = |name: &str| {
        stats
            .iter()
            .filter(|(n, _)| *n == name)
            .map(|(_, s)| s.bytes_sent)
            .sum::<u64>()
    };
    println!(
        "MULTIHOST rank={me} size={n} host={host} transport={} shm_bytes={} quic_bytes={} tls_bytes={}",
        ctx.transport_name(),
        bytes("shm"),
        bytes("quic"),
        bytes("tls")
    );
    ctx.finalize()
}
