//! Idle ranks use (almost) no CPU, for tests/shm_transport.rs: rank 0 sleeps for a second
//! before sending, while every other rank waits in a blocking receive and reports the CPU time
//! its whole process used meanwhile (`cpu_ms=N`).

use nexar::{Context, Source, TagMatch};
use std::time::{Duration, Instant};

fn cpu_time() -> Duration {
    // SAFETY: getrusage fills the struct it is given.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(ru.ru_utime) + tv(ru.ru_stime)
}

fn main() -> nexar::Result<()> {
    let ctx = Context::init()?;
    let w = ctx.world();
    w.barrier_blocking()?;
    let mut buf = [0u8; 8];
    if w.rank() == 0 {
        std::thread::sleep(Duration::from_secs(1));
        for r in 1..w.size() {
            w.send_blocking(&[7u8; 8], r, 0)?;
        }
        println!("rank 0/{}: sent", w.size());
    } else {
        let (cpu, wall) = (cpu_time(), Instant::now());
        w.recv_blocking(&mut buf, Source::Rank(0), TagMatch::Tag(0))?;
        assert_eq!(buf, [7u8; 8]);
        println!(
            "rank {}/{}: idle over {}: waited_ms={} cpu_ms={}",
            w.rank(),
            w.size(),
            ctx.transport_name(),
            wall.elapsed().as_millis(),
            (cpu_time() - cpu).as_millis()
        );
    }
    Ok(())
}
