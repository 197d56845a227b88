//! Shared-memory transport check, run by tests/shm_transport.rs under nexarrun: every rank
//! exchanges messages of sizes around the slot and one-copy boundaries with every other rank
//! (ring wraparound, pipelined chunks, `process_vm_readv`), verifies every byte, and prints its
//! transport counters (`one_copy=N` counts payloads copied directly out of the sender).

#[path = "../support/exchange.rs"]
mod exchange;

use exchange::{pattern, shift};
use nexar::{Context, Source, TagMatch};

/// Sizes that hit an empty payload, one slot, slot boundaries, the one-copy threshold, and
/// multi-megabyte pipelined transfers.
const SIZES: &[usize] = &[
    0,
    1,
    8,
    8000,
    8184,
    8185,
    65535,
    65536,
    65537,
    (1 << 20) - 1,
    1 << 20,
    (5 << 20) + 3,
];

/// Lent sends (`send_blocking`, `isend_bytes_lent`): a large message to a shared-memory peer is
/// read straight out of the sender's buffer. Once the send has returned (or its request
/// completed) the buffer is the caller's again: scribbling over it must not change what the
/// receiver gets.
fn lent_sends(w: &nexar::Comm) -> nexar::Result<()> {
    let (me, n) = (w.rank(), w.size());
    for &size in &[1 << 20, (3 << 20) + 5] {
        for k in 1..n {
            let to = (me + k) % n;
            let from = (me + n - k) % n;
            let tag = 1000 + k as i32;
            for nonblocking in [false, true] {
                let pending = w.start_recv(Source::Rank(from), TagMatch::Tag(tag))?;
                let mut out = pattern(me, to, size);
                if nonblocking {
                    // SAFETY: `out` is neither touched nor dropped before the request completes.
                    let req = unsafe { w.isend_bytes_lent(&out, to, tag)? };
                    req.wait()?;
                } else {
                    w.send_blocking(&out, to, tag)?;
                }
                out.fill(0xEE);
                let mut got = vec![0u8; size];
                pending.finish_into_blocking(&mut got)?;
                if got != pattern(from, me, size) {
                    eprintln!("rank {me}: lent {size} bytes from rank {from} arrived corrupted");
                    std::process::exit(1);
                }
            }
        }
    }
    Ok(())
}

fn main() -> nexar::Result<()> {
    let ctx = Context::init()?;
    let w = ctx.world();
    let (me, n) = (w.rank(), w.size());
    for round in 0..3 {
        for &size in SIZES {
            // Pairwise exchanges in a fixed order: everyone sends to rank me+k while receiving
            // from rank me-k, so no pair waits on another.
            for k in 1..n {
                let tag = (round * 100 + k) as i32;
                let (from, intact) = shift(w, k, size, tag, pattern)?;
                if !intact {
                    eprintln!("rank {me}: {size} bytes from rank {from} arrived corrupted");
                    std::process::exit(1);
                }
            }
        }
    }
    lent_sends(w)?;
    w.barrier_blocking()?;
    let stats = ctx.transport_stats();
    let shm = stats
        .iter()
        .find(|(name, _)| *name == "shm")
        .map(|(_, s)| *s);
    match shm {
        Some(s) => println!(
            "rank {me}/{n}: shm check passed over {}: frames_sent={} frames_received={} bytes_sent={} one_copy={}",
            ctx.transport_name(),
            s.frames_sent,
            s.frames_received,
            s.bytes_sent,
            s.one_copy_frames
        ),
        None => println!(
            "rank {me}/{n}: shm check passed over {} without shm counters",
            ctx.transport_name()
        ),
    }
    Ok(())
}
