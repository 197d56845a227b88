//! Rough allreduce timings (median of repetitions) for a few sizes. Information only: the
//! benchmark harness is where performance is measured properly.

use nexar::{Context, ReduceOp};
use std::time::Instant;

fn main() -> nexar::Result<()> {
    let ctx = Context::init()?;
    let w = ctx.world();
    for bytes in [8usize, 1 << 10, 1 << 16, 1 << 20, 16 << 20] {
        let n = bytes / 4;
        let mut v = vec![1.0f32; n];
        let reps = if bytes >= 1 << 20 { 10 } else { 200 };
        w.allreduce_blocking(&mut v, ReduceOp::Sum)?; // warm-up
        let mut times = Vec::with_capacity(reps);
        for _ in 0..reps {
            v.fill(1.0);
            w.barrier_blocking()?;
            let t = Instant::now();
            w.allreduce_blocking(&mut v, ReduceOp::Sum)?;
            times.push(t.elapsed().as_secs_f64());
        }
        assert!(v.iter().all(|&x| x == w.size() as f32));
        times.sort_by(f64::total_cmp);
        let med = times[reps / 2];
        let p = w.size() as f64;
        let busbw = 2.0 * (p - 1.0) / p * bytes as f64 / med / 1e9;
        if w.rank() == 0 {
            println!(
                "allreduce {bytes:>9} B over {} ranks ({}): median {:>10.1} us, bus bw {busbw:.3} GB/s",
                w.size(),
                ctx.transport_name(),
                med * 1e6
            );
        }
    }
    Ok(())
}
