//! Point-to-point ping-pong between ranks 0 and 1 (others idle): median one-way time for small
//! messages and bandwidth for large ones. Information only; the benchmark harness is where
//! performance is measured properly.

use nexar::{Context, Source, TagMatch};
use std::time::Instant;

fn main() -> nexar::Result<()> {
    let ctx = Context::init()?;
    let w = ctx.world();
    if w.size() < 2 {
        println!("pingpong needs at least 2 ranks");
        return Ok(());
    }
    for bytes in [8usize, 1 << 10, 1 << 16, 1 << 20, 16 << 20] {
        let mut buf = vec![0u8; bytes];
        let reps = if bytes >= 1 << 20 { 10 } else { 500 };
        let mut times = Vec::with_capacity(reps);
        w.barrier_blocking()?;
        for i in 0..reps + 5 {
            let t = Instant::now();
            match w.rank() {
                0 => {
                    w.send_blocking(&buf, 1, 0)?;
                    w.recv_blocking(&mut buf, Source::Rank(1), TagMatch::Tag(0))?;
                }
                1 => {
                    w.recv_blocking(&mut buf, Source::Rank(0), TagMatch::Tag(0))?;
                    w.send_blocking(&buf, 0, 0)?;
                }
                _ => {}
            }
            if i >= 5 {
                times.push(t.elapsed().as_secs_f64() / 2.0);
            }
        }
        times.sort_by(f64::total_cmp);
        let one_way = times[reps / 2];
        if w.rank() == 0 {
            println!(
                "pingpong {bytes:>9} B ({}): one way {:>9.1} us, {:.3} GB/s",
                ctx.transport_name(),
                one_way * 1e6,
                bytes as f64 / one_way / 1e9
            );
        }
    }
    Ok(())
}
