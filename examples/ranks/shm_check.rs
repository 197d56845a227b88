//! Shared-memory transport check, run by tests/shm_transport.rs under nexarrun: every rank
//! exchanges messages of sizes around the slot and one-copy boundaries with every other rank
//! (ring wraparound, pipelined chunks, `process_vm_readv`), verifies every byte, and prints its
//! transport counters (`one_copy=N` counts payloads copied directly out of the sender). The
//! blocking send and receive fast paths run the same sizes.

#[path = "../support/exchange.rs"]
mod exchange;

use exchange::{pattern, shift};
use nexar::{Context, Source, TagMatch};

/// Data bytes of one ring slot.
const SLOT_DATA: usize =
    nexar::transport::shm::SLOT_BYTES as usize - nexar::transport::shm::ring::SLOT_HEADER;
/// The largest payload that travels inline in one slot (after the frame header).
const INLINE_MAX: usize = SLOT_DATA - nexar::wire::HEADER_LEN;

/// Sizes that hit an empty payload, one slot, slot boundaries, the one-copy threshold, and
/// multi-megabyte pipelined transfers.
const SIZES: &[usize] = &[
    0,
    1,
    8,
    INLINE_MAX,
    INLINE_MAX + 1,
    SLOT_DATA,
    SLOT_DATA + 1,
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

/// The blocking fast paths: `send_blocking` copies a message below the one-copy threshold
/// straight into the ring (or a queue), `recv_blocking` takes it as it arrives without posting
/// a receive. Every size, to every peer, the sends all issued before the receives (eager and
/// lent sends both complete without a posted receive), and a message with a tag the receive
/// skips first must wait its turn in the unexpected queue without being lost or reordered.
fn blocking_fast_paths(w: &nexar::Comm) -> nexar::Result<()> {
    let (me, n) = (w.rank(), w.size());
    for &size in SIZES {
        for k in 1..n {
            let (to, from) = ((me + k) % n, (me + n - k) % n);
            w.send_blocking(&pattern(me, to, size), to, 2000)?;
            w.send_blocking(&pattern(to, me, size), to, 2001)?;
            let mut got = vec![0u8; size];
            let st = w.recv_blocking(&mut got, Source::Rank(from), TagMatch::Tag(2001))?;
            let mut first = vec![0u8; size];
            let st0 = w.recv_blocking(&mut first, Source::Rank(from), TagMatch::Any)?;
            if got != pattern(me, from, size)
                || first != pattern(from, me, size)
                || (st.source, st.tag, st.bytes) != (from, 2001, size)
                || (st0.source, st0.tag, st0.bytes) != (from, 2000, size)
            {
                eprintln!("rank {me}: blocking {size} bytes from rank {from} arrived wrong");
                std::process::exit(1);
            }
        }
    }
    Ok(())
}

/// Windows of non-blocking receives posted before their messages arrive (the `osu_bw`
/// pattern): each small message lands straight from the ring slot in its receive's buffer,
/// and each large one (over the one-copy threshold) is read straight from the sender into it
/// when one-copy reads are permitted (both counted as `landed`), in posting order.
fn posted_windows(w: &nexar::Comm) -> nexar::Result<()> {
    const WINDOW: usize = 32;
    const LARGE: usize = 2 << 20;
    let (me, n) = (w.rank(), w.size());
    for k in 1..n {
        let (to, from) = ((me + k) % n, (me + n - k) % n);
        let posted: Vec<_> = (0..WINDOW)
            .map(|_| w.irecv(vec![0u64; 1], Source::Rank(from), TagMatch::Tag(3000)))
            .collect::<nexar::Result<_>>()?;
        let large: Vec<_> = (0..2)
            .map(|_| w.irecv(vec![0u8; LARGE], Source::Rank(from), TagMatch::Tag(3001)))
            .collect::<nexar::Result<_>>()?;
        // Everyone's receives are posted before anyone sends.
        w.barrier_blocking()?;
        for i in 0..WINDOW {
            w.send_blocking(&[(me as u64) << 32 | i as u64], to, 3000)?;
        }
        for i in 0..2 {
            w.send_blocking(&pattern(me, to + i, LARGE), to, 3001)?;
        }
        for (i, r) in posted.into_iter().enumerate() {
            let (got, st) = r.wait()?;
            if got[0] != (from as u64) << 32 | i as u64 || st.source != from {
                eprintln!("rank {me}: posted receive {i} from rank {from} got {got:?}");
                std::process::exit(1);
            }
        }
        for (i, r) in large.into_iter().enumerate() {
            let (got, st) = r.wait()?;
            if got != pattern(from, me + i as u32, LARGE) || st.bytes != LARGE {
                eprintln!("rank {me}: large posted receive {i} from rank {from} arrived wrong");
                std::process::exit(1);
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
    blocking_fast_paths(w)?;
    posted_windows(w)?;
    w.barrier_blocking()?;
    let stats = ctx.transport_stats();
    let shm = stats
        .iter()
        .find(|(name, _)| *name == "shm")
        .map(|(_, s)| *s);
    match shm {
        Some(s) => println!(
            "rank {me}/{n}: shm check passed over {}: frames_sent={} frames_received={} bytes_sent={} one_copy={} landed={}",
            ctx.transport_name(),
            s.frames_sent,
            s.frames_received,
            s.bytes_sent,
            s.one_copy_frames,
            s.landed_frames
        ),
        None => println!(
            "rank {me}/{n}: shm check passed over {} without shm counters",
            ctx.transport_name()
        ),
    }
    Ok(())
}
