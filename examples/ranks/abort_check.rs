//! Abort propagation check, run by tests/abort.rs. After a barrier the last rank aborts the
//! job with code 7 (`Context::abort`) while the others block in a receive nothing will match.
//! Every rank must end with exit status 7, with or without a launcher watching the job.
//!
//! `abort_check [mode]`:
//! - no mode: the last rank aborts at once, from its main thread;
//! - `thread`: the last rank aborts from another thread while its main thread is blocked in a
//!   receive;
//! - `stdin`: every rank prints `rank R ready` after the barrier; the last rank aborts when a
//!   line arrives on its standard input (the test first kills or stops other ranks) and
//!   prints nothing more.

use nexar::{Context, Source, TagMatch};
use std::io::Write;

fn main() -> nexar::Result<()> {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let ctx = Context::init()?;
    let w = ctx.world();
    w.barrier_blocking()?;
    let last = w.size() - 1;
    let me = w.rank();
    println!("rank {me} ready");
    std::io::stdout().flush().ok();
    std::thread::scope(|s| {
        if me == last {
            match mode.as_str() {
                "thread" => {
                    s.spawn(|| {
                        std::thread::sleep(std::time::Duration::from_millis(100));
                        ctx.abort(7)
                    });
                }
                "stdin" => {
                    let mut line = String::new();
                    std::io::stdin().read_line(&mut line).ok();
                    ctx.abort(7);
                }
                _ => ctx.abort(7),
            }
        }
        // The last rank waits on itself when another of its threads aborts.
        let from = if me == last { me } else { last };
        let mut buf = [0u8; 4];
        let r = w.recv_blocking(&mut buf, Source::Rank(from), TagMatch::Tag(99));
        eprintln!("rank {me}: the receive returned {r:?} instead of the job ending");
        std::process::exit(3)
    })
}
