//! Back-pressure end to end (run by tests/backpressure.rs): rank 1 floods rank 0 with
//! 96 messages of 1 MiB nobody has asked for yet; rank 0 waits, notes its memory, then
//! receives them all and checks their order and contents. With `NEXAR_MAX_UNEXPECTED` small,
//! rank 0's memory stays far below the flood while it waits, and rank 1's sends never fail.
//!
//! Argument `barrier-first`: both ranks run a barrier before rank 0 receives (a collective
//! while the p2p traffic is stalled must still complete). Argument `small`: the same 96 MiB as
//! 24,576 messages of 4 KiB (each one ring slot, the small-message path).

use nexar::{Context, Source, TagMatch};
use std::time::Duration;

/// Bytes in all.
const TOTAL: usize = 96 << 20;

fn vm_rss_mib() -> f64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    s.lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |kib| kib / 1024.0)
}

fn main() -> nexar::Result<()> {
    let arg = std::env::args().nth(1);
    let barrier_first = arg.as_deref() == Some("barrier-first");
    let len: usize = if arg.as_deref() == Some("small") {
        4 << 10
    } else {
        1 << 20
    };
    let messages = TOTAL / len;
    let ctx = Context::init()?;
    let world = ctx.world();
    let rank = world.rank();
    let before = vm_rss_mib();
    if rank == 1 {
        let mut reqs = Vec::new();
        for k in 0..messages {
            let msg: Vec<u32> = (0..len / 4).map(|j| (k * 7919 + j) as u32).collect();
            reqs.push(world.isend(&msg, 0, k as i32)?);
        }
        if barrier_first {
            world.barrier_blocking()?;
        }
        for r in reqs {
            r.wait()?;
        }
        println!("rank 1: {messages} sends of {len} bytes completed without error");
    } else if rank == 0 {
        if barrier_first {
            world.barrier_blocking()?;
        }
        std::thread::sleep(Duration::from_millis(1500));
        let stalled = vm_rss_mib();
        let mut buf = vec![0u32; len / 4];
        for k in 0..messages {
            // Any tag: the order they arrive in must be the order they were sent in.
            let st = world.recv_blocking(&mut buf, Source::Rank(1), TagMatch::Any)?;
            let ok = st.tag == k as i32
                && buf
                    .iter()
                    .enumerate()
                    .all(|(j, &x)| x == (k * 7919 + j) as u32);
            if !ok {
                eprintln!(
                    "rank 0: message {k} arrived out of order or corrupted (tag {})",
                    st.tag
                );
                std::process::exit(1);
            }
        }
        println!(
            "rank 0: received {messages} x {len} bytes in order; VmRSS {before:.0} MiB at start, \
             {stalled:.0} MiB while the flood waited"
        );
    }
    world.barrier_blocking()?;
    ctx.finalize()
}
