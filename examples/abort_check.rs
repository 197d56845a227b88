//! Abort propagation check, run by tests/abort.rs: after a barrier the last rank aborts the
//! job with code 7 (`Context::abort`) while the others block in a receive nothing will match.
//! Every rank must end with exit status 7, with or without a launcher watching the job.

use nexar::{Context, Source, TagMatch};

fn main() -> nexar::Result<()> {
    let ctx = Context::init()?;
    let w = ctx.world();
    w.barrier_blocking()?;
    let last = w.size() - 1;
    if w.rank() == last {
        ctx.abort(7);
    }
    let mut buf = [0u8; 4];
    let r = w.recv_blocking(&mut buf, Source::Rank(last), TagMatch::Tag(99));
    eprintln!(
        "rank {}: the receive returned {r:?} instead of the job ending",
        w.rank()
    );
    std::process::exit(3)
}
