//! Many local ranks over shared memory, run by tests/shm_many.rs under nexarrun: with more than
//! 16 ranks on a host the rings shrink (`nexar::transport::shm::slots_for`), so mid-size
//! messages (64 KiB to 1 MiB, several ring-fulls each) must pipeline through fewer slots.
//! Every rank exchanges such messages with near and far partners and with everyone at once
//! (an incast on rank 0), verifies every byte, and prints its transport counters.

#[path = "../support/exchange.rs"]
#[allow(dead_code)] // the usual pattern: this check has its own
mod exchange;

use exchange::shift;
use nexar::{Context, Source, TagMatch};

/// Mid-size messages: one 64 KiB, an odd size across slot boundaries, and one just below the
/// one-copy threshold (with `NEXAR_SHM_CMA=0` the 1 MiB one goes through the rings too).
const SIZES: &[usize] = &[1 << 16, (200 << 10) + 3, (1 << 20) - 1, 1 << 20];

fn pattern(src: u32, dst: u32, size: usize) -> Vec<u8> {
    let seed = src.wrapping_mul(7).wrapping_add(dst.wrapping_mul(13)) as u8;
    (0..size)
        .map(|i| (i as u8).wrapping_mul(31) ^ seed ^ (i >> 8) as u8)
        .collect()
}

fn check(me: u32, from: u32, size: usize, got: &[u8]) {
    if got != pattern(from, me, size).as_slice() {
        corrupted(me, from, size);
    }
}

/// Reports bytes from `from` that arrived corrupted and exits.
fn corrupted(me: u32, from: u32, size: usize) -> ! {
    eprintln!("rank {me}: {size} bytes from rank {from} arrived corrupted");
    std::process::exit(1);
}

fn main() -> nexar::Result<()> {
    let ctx = Context::init()?;
    let w = ctx.world();
    let (me, n) = (w.rank(), w.size());
    // Partners at distance 1, a few ranks away and half-way round (deduplicated for small n).
    let mut dists: Vec<u32> = [1, 5, n / 2]
        .into_iter()
        .filter(|&k| k > 0 && k < n)
        .collect();
    dists.dedup();
    for &size in SIZES {
        for &k in &dists {
            let (from, intact) = shift(w, k, size, k as i32, pattern)?;
            if !intact {
                corrupted(me, from, size);
            }
        }
    }
    // Incast: every rank sends 256 KiB to rank 0 at once; rank 0 drains all rings.
    let size = 256 << 10;
    if me == 0 {
        for from in 1..n {
            let mut got = vec![0u8; size];
            w.recv_blocking(&mut got, Source::Rank(from), TagMatch::Tag(7))?;
            check(me, from, size, &got);
        }
    } else {
        w.send_blocking(&pattern(me, 0, size), 0, 7)?;
    }
    w.barrier_blocking()?;
    let shm = ctx
        .transport_stats()
        .iter()
        .find(|(name, _)| *name == "shm")
        .map(|(_, s)| *s);
    match shm {
        Some(s) => println!(
            "rank {me}/{n}: shm many passed over {}: frames_sent={} bytes_sent={} one_copy={}",
            ctx.transport_name(),
            s.frames_sent,
            s.bytes_sent,
            s.one_copy_frames
        ),
        None => println!(
            "rank {me}/{n}: shm many passed over {} without shm counters",
            ctx.transport_name()
        ),
    }
    Ok(())
}
