//! A rank that dies without saying goodbye, for tests/shm_transport.rs: after a barrier the
//! last rank kills itself with SIGKILL; every other rank waits for a message from it, reports
//! how the failure surfaced, and exits without finalizing.

use nexar::{Context, Source, TagMatch};
use std::time::Instant;

fn main() {
    let ctx = match Context::init() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("init failed: {e}");
            std::process::exit(2);
        }
    };
    let w = ctx.world();
    let victim = w.size() - 1;
    println!("rank {} up over {}", w.rank(), ctx.transport_name());
    if let Err(e) = w.barrier_blocking() {
        eprintln!("rank {}: barrier failed: {e}", w.rank());
        std::process::exit(1);
    }
    if w.rank() == victim {
        // SAFETY: kill has no memory effects.
        unsafe { libc::kill(libc::getpid(), libc::SIGKILL) };
    }
    let t = Instant::now();
    let mut buf = [0u8; 8];
    match w.recv_blocking(&mut buf, Source::Rank(victim), TagMatch::Tag(0)) {
        Ok(_) => {
            eprintln!("rank {}: received from a dead rank", w.rank());
            std::process::exit(1);
        }
        Err(e) => println!(
            "rank {}: lost rank {victim} after {} ms: {e}",
            w.rank(),
            t.elapsed().as_millis()
        ),
    }
    // Leave like a crashed job would: no final barrier, no goodbyes.
    std::process::exit(0);
}
