//! Correctness under a hostile network (run by tests/chaos.rs with `NEXAR_CHAOS` set): integer
//! allreduces of several sizes must be bit-exact and point-to-point messages must arrive in the
//! order they were sent, whatever the chaos layer does to the datagrams underneath.
//!
//! ```text
//! NEXAR_TRANSPORT=quic NEXAR_BULK_LANE=quic NEXAR_CHAOS=seed=7,loss=0.05,dup=0.01,reorder=0.05 \
//!     target/release/nexarrun -n 4 target/release/examples/chaos_check
//! ```

use nexar::{Context, ReduceOp, Source};
use std::time::Instant;

/// Element counts of the allreduces: a few words up to 4 MiB of i64.
const SIZES: [usize; 5] = [1, 1000, 65_536, 262_144, 524_288];
/// Messages each rank sends to its right neighbour, in order.
const P2P_MESSAGES: u64 = 200;

fn fail(rank: u32, what: String) -> ! {
    eprintln!("rank {rank}: {what}");
    std::process::exit(1);
}

fn main() -> nexar::Result<()> {
    let ctx = Context::init()?;
    let world = ctx.world();
    let (rank, size) = (world.rank(), world.size());
    let start = Instant::now();
    let mut bytes = 0usize;
    for (round, &n) in SIZES.iter().enumerate() {
        // Wrapping sums: overflow is part of the check (bit-exact, any order of reduction).
        let seed = round as i64 * 7919;
        let mut a: Vec<i64> = (0..n)
            .map(|i| {
                (i as i64 + seed).wrapping_mul(0x9E37_79B9_7F4A_7C15u64 as i64) ^ i64::from(rank)
            })
            .collect();
        let want64: Vec<i64> = (0..n)
            .map(|i| {
                (0..size).fold(0i64, |acc, r| {
                    acc.wrapping_add(
                        (i as i64 + seed).wrapping_mul(0x9E37_79B9_7F4A_7C15u64 as i64)
                            ^ i64::from(r),
                    )
                })
            })
            .collect();
        world.allreduce_blocking(&mut a, ReduceOp::Sum)?;
        if a != want64 {
            let at = a.iter().zip(&want64).position(|(x, y)| x != y).unwrap_or(0);
            fail(
                rank,
                format!(
                    "i64 allreduce of {n} differs at {at}: {} != {}",
                    a[at], want64[at]
                ),
            );
        }
        let mut b: Vec<i32> = (0..n).map(|i| i as i32 * 3 - rank as i32).collect();
        world.allreduce_blocking(&mut b, ReduceOp::Sum)?;
        let s = size as i32;
        let tri = s * (s - 1) / 2;
        if let Some(at) = (0..n).find(|&i| b[i] != (i as i32 * 3).wrapping_mul(s) - tri) {
            fail(
                rank,
                format!("i32 allreduce of {n} differs at {at}: {}", b[at]),
            );
        }
        bytes += n * 12;
    }
    // p2p order: numbered messages of varying sizes (some on the bulk lane) to the right
    // neighbour; the left neighbour's must come in numbering order.
    let right = (rank + 1) % size;
    let left = (rank + size - 1) % size;
    let mut reqs = Vec::new();
    for k in 0..P2P_MESSAGES {
        let len = if k % 20 == 0 {
            20_000
        } else {
            1 + (k as usize % 7)
        };
        let msg: Vec<u64> = (0..len as u64).map(|j| k * 1_000_003 + j).collect();
        reqs.push(world.isend(&msg, right, 5)?);
    }
    for k in 0..P2P_MESSAGES {
        let len = if k % 20 == 0 {
            20_000
        } else {
            1 + (k as usize % 7)
        };
        let mut buf = vec![0u64; len];
        world.recv_blocking(&mut buf, Source::Rank(left), 5.into())?;
        if buf[0] != k * 1_000_003
            || buf
                .iter()
                .enumerate()
                .any(|(j, &x)| x != k * 1_000_003 + j as u64)
        {
            fail(
                rank,
                format!(
                    "p2p message {k} from rank {left} arrived out of order or corrupted (first word {})",
                    buf[0]
                ),
            );
        }
    }
    for r in reqs {
        r.wait()?;
    }
    world.barrier_blocking()?;
    let (dropped, duplicated, held) = nexar::transport::quic::chaos::counts();
    println!(
        "rank {rank}/{size}: chaos checks passed over {} ({bytes} allreduce bytes, {P2P_MESSAGES} \
         ordered messages) in {:.2} s; datagrams dropped {dropped} duplicated {duplicated} \
         reordered {held}",
        ctx.transport_name(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
