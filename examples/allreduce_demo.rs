//! The main demo: every rank contributes a vector, allreduce sums it, and each rank checks the
//! result against the closed-form answer.
//!
//! ```text
//! cargo build --release --examples
//! target/release/nexarrun -n 4 target/release/examples/allreduce_demo
//! ```

use nexar::{Context, ReduceOp};

fn main() -> nexar::Result<()> {
    let ctx = Context::init()?;
    let world = ctx.world();
    let (rank, size) = (world.rank(), world.size());

    // Element i of rank r is r * 1000 + i; the sum over ranks is
    // 1000 * size*(size-1)/2 + size * i.
    let n = 1 << 16;
    let mut v: Vec<f64> = (0..n).map(|i| (rank as f64) * 1000.0 + i as f64).collect();
    world.allreduce_blocking(&mut v, ReduceOp::Sum)?;
    let s = size as f64;
    let ok = v
        .iter()
        .enumerate()
        .all(|(i, &x)| x == 1000.0 * s * (s - 1.0) / 2.0 + s * i as f64);

    // A small collective tour on top: broadcast from the last rank and a barrier.
    let mut token = [if rank == size - 1 { 42u64 } else { 0 }];
    world.bcast_blocking(&mut token, size - 1)?;
    world.barrier_blocking()?;

    if ok && token[0] == 42 {
        println!(
            "rank {rank}/{size}: allreduce of {n} f64 verified over {} (v[1] = {})",
            ctx.transport_name(),
            v[1]
        );
        Ok(())
    } else {
        eprintln!(
            "rank {rank}/{size}: WRONG RESULT (v[1] = {}, token = {})",
            v[1], token[0]
        );
        std::process::exit(1);
    }
}
