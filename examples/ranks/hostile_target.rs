//! A job that keeps working while tests/wire_hostile.rs attacks it: rounds of a verified i64
//! allreduce and a verified ring exchange, until the file named by `HOSTILE_STOP` exists.
//!
//! Mode `all` (the default): every rank works on the world and finalizes cleanly at the end.
//! Mode `pair`: ranks 0 and 1 work on a communicator of their own while rank 2 idles; the test
//! then steals rank 2's identity (it holds the job secret) to send malformed frames to rank 0.
//! Rank 0 declares rank 2 failed, so the world cannot finalize: every rank exits directly
//! after reporting.

use nexar::{Context, ReduceOp, Source};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Longest run: the test stops the job long before this.
const LIMIT: Duration = Duration::from_secs(600);

fn fail(rank: u32, what: String) -> ! {
    eprintln!("rank {rank}: {what}");
    std::process::exit(1);
}

fn main() -> nexar::Result<()> {
    let pair = std::env::args().nth(1).as_deref() == Some("pair");
    let stop = PathBuf::from(std::env::var("HOSTILE_STOP").expect("HOSTILE_STOP is set"));
    let ctx = Context::init()?;
    let world = ctx.world();
    let rank = world.rank();
    let comm = if pair {
        world
            .split_blocking(Some(u32::from(rank >= 2)), rank as i32)?
            .expect("every rank has a color")
    } else {
        world.dup_blocking()?
    };
    println!("rank {rank}: ready");
    // The test starts its attack once every rank has left the world-wide start-up calls.
    let _ = std::fs::write(stop.with_file_name(format!("ready{rank}")), b"");
    let start = Instant::now();
    if pair && rank >= 2 {
        while !stop.exists() && start.elapsed() < LIMIT {
            std::thread::sleep(Duration::from_millis(20));
        }
        println!("rank {rank}: idled");
        std::process::exit(0);
    }
    let (me, n) = (comm.rank(), comm.size());
    let mut rounds = 0u64;
    loop {
        // Rank 0 decides when to stop, for everybody.
        let mut flag = [u8::from(
            me == 0 && (stop.exists() || start.elapsed() > LIMIT),
        )];
        comm.bcast_blocking(&mut flag, 0)?;
        if flag[0] != 0 {
            break;
        }
        let len = 4096;
        let mut v: Vec<i64> = (0..len)
            .map(|i| (rounds as i64) * 7 + i as i64 * i64::from(me + 1))
            .collect();
        comm.allreduce_blocking(&mut v, ReduceOp::Sum)?;
        let ranks: i64 = (1..=i64::from(n)).sum();
        for (i, &x) in v.iter().enumerate() {
            if x != (rounds as i64) * 7 * i64::from(n) + i as i64 * ranks {
                fail(
                    rank,
                    format!("round {rounds}: allreduce element {i} is {x}"),
                );
            }
        }
        let right = (me + 1) % n;
        let left = (me + n - 1) % n;
        let msg: Vec<u64> = (0..256).map(|j| rounds * 1000 + j).collect();
        let mut got = vec![0u64; 256];
        comm.sendrecv_blocking(&msg, right, 3, &mut got, Source::Rank(left), 3.into())?;
        if got
            .iter()
            .enumerate()
            .any(|(j, &x)| x != rounds * 1000 + j as u64)
        {
            fail(rank, format!("round {rounds}: ring message corrupted"));
        }
        rounds += 1;
        std::thread::sleep(Duration::from_millis(5));
    }
    println!(
        "rank {rank}: {rounds} rounds verified in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    if pair {
        // No finalize (see the module docs): a barrier, then time for the last frames to
        // leave before the process ends.
        comm.barrier_blocking()?;
        std::thread::sleep(Duration::from_millis(300));
        if rank == 0 {
            // The test impersonated rank 2: sending to it now fails, saying why it was lost.
            match world.send_blocking(&[0u8], 2, 9) {
                Ok(()) => println!("rank 0: rank 2 still reachable"),
                Err(e) => println!("rank 0: rank 2 unreachable: {e}"),
            }
        }
        std::process::exit(0);
    }
    ctx.finalize()
}
