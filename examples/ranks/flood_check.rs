//! Back-pressure end to end (run by tests/backpressure.rs): rank 1 floods rank 0 with
//! `MESSAGES` messages of 1 MiB nobody has asked for yet; rank 0 waits, notes its memory, then
//! receives them all and checks their order and contents. With `NEXAR_MAX_UNEXPECTED` small,
//! rank 0's memory stays far below the flood while it waits, and rank 1's sends never fail.
//!
//! Argument `barrier-first`: both ranks run a barrier before rank 0 receives (a collective
//! while the p2p traffic is stalled must still complete).

use nexar::{Context, Source, TagMatch};
use std::time::Duration;

const MESSAGES: usize = 96;
const LEN: usize = 1 << 20;

fn vm_rss_mib() -> f64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    s.lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |kib| kib / 1024.0)
}

fn main() -> nexar::Result<()> {
    let barrier_first = std::env::args().nth(1).as_deref() == Some("barrier-first");
    let ctx = Context::init()?;
    let world = ctx.world();
    let rank = world.rank();
    let before = vm_rss_mib();
    if rank == 1 {
        let mut reqs = Vec::new();
        for k in 0..MESSAGES {
            let msg: Vec<u32> = (0..LEN / 4).map(|j| (k * 7919 + j) as u32).collect();
            reqs.push(world.isend(&msg, 0, k as i32)?);
        }
        if barrier_first {
            world.barrier_blocking()?;
        }
        for r in reqs {
            r.wait()?;
        }
        println!("rank 1: {MESSAGES} sends of {LEN} bytes completed without error");
    } else if rank == 0 {
        if barrier_first {
            world.barrier_blocking()?;
        }
        std::thread::sleep(Duration::from_millis(1500));
        let stalled = vm_rss_mib();
        let mut buf = vec![0u32; LEN / 4];
        for k in 0..MESSAGES {
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
            "rank 0: received {MESSAGES} x {LEN} bytes in order; VmRSS {before:.0} MiB at start, \
             {stalled:.0} MiB while the flood waited"
        );
    }
    world.barrier_blocking()?;
    ctx.finalize()
}
