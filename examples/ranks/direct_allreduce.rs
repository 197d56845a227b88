//! Large-allreduce check, run by tests/direct_allreduce.rs under nexarrun: f32 and i64 sums,
//! an i64 max and a non-commutative custom op over sizes around the direct-algorithm threshold
//! (odd element counts included), each result compared with a local reduction of every rank's
//! input. Prints `rank r/n: direct-allreduce ok checks=K bytes_sent=B over T` (B small when the ranks
//! reduced straight out of each other's memory, about the vector size per call otherwise).
//!
//! `direct_allreduce time BYTES ITERS` instead times BYTES-byte f32 sum allreduces (for
//! profiling) and prints the median bus bandwidth on rank 0. `direct_allreduce crash`: the last
//! rank starts a 4 MiB allreduce and kills itself; the others report how their call ended.

use nexar::{Comm, Context, CustomOp, Order, ReduceOp, Reducer};
use std::sync::Arc;
use std::time::Instant;

/// Affine maps `x -> a*x + b` (wrapping u32) plus a tag word, composed left to right:
/// associative, not commutative; 12-byte elements so blocks split at odd byte offsets.
#[derive(Debug)]
struct Compose;

fn word(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes(b[4 * i..4 * i + 4].try_into().unwrap())
}

fn compose(l: &[u8], r: &[u8]) -> [u8; 12] {
    let (a1, b1, t1) = (word(l, 0), word(l, 1), word(l, 2));
    let (a2, b2, t2) = (word(r, 0), word(r, 1), word(r, 2));
    // Apply l then r: r(l(x)) = a2*(a1*x + b1) + b2.
    let a = a1.wrapping_mul(a2);
    let b = a2.wrapping_mul(b1).wrapping_add(b2);
    let t = t1.wrapping_add(t2);
    let mut out = [0u8; 12];
    out[..4].copy_from_slice(&a.to_le_bytes());
    out[4..8].copy_from_slice(&b.to_le_bytes());
    out[8..].copy_from_slice(&t.to_le_bytes());
    out
}

impl CustomOp for Compose {
    fn combine(&self, acc: &mut [u8], inc: &[u8], order: Order) {
        for (a, i) in acc.chunks_exact_mut(12).zip(inc.chunks_exact(12)) {
            let v = match order {
                Order::AccFirst => compose(a, i),
                Order::IncFirst => compose(i, a),
            };
            a.copy_from_slice(&v);
        }
    }
    fn elem_size(&self) -> usize {
        12
    }
    fn commutative(&self) -> bool {
        false
    }
}

/// Rank `r`'s input bytes for a case (deterministic, so every rank can compute every input).
fn input(case: usize, r: u32, bytes: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(bytes);
    let mut i = 0u32;
    while v.len() < bytes {
        let x = i
            .wrapping_mul(2_654_435_761)
            .wrapping_add(r * 977 + case as u32 * 31);
        let w: [u8; 4] = match case {
            // f32 sums of small integers stay exact in any order.
            0 => ((x % 64) as f32).to_le_bytes(),
            // Odd affine coefficients: compositions never collapse to zero.
            3 => (x | 1).to_le_bytes(),
            _ => x.to_le_bytes(),
        };
        v.extend_from_slice(&w);
        i += 1;
    }
    v.truncate(bytes);
    v
}

fn reducer(case: usize) -> Reducer {
    match case {
        0 => Reducer::builtin(ReduceOp::Sum, nexar::Datatype::F32),
        1 => Reducer::builtin(ReduceOp::Sum, nexar::Datatype::I64),
        2 => Reducer::builtin(ReduceOp::Max, nexar::Datatype::I64),
        _ => Reducer::custom(Arc::new(Compose)),
    }
}

/// How the input is handed over: moved, borrowed, or borrowed as the receive buffer.
#[derive(Clone, Copy, Debug)]
enum Input {
    Owned,
    Borrowed,
    InPlace,
}

fn check(w: &Comm, case: usize, elems: usize, how: Input) -> nexar::Result<()> {
    let red = reducer(case);
    let bytes = elems * red.elem_size();
    let (me, n) = (w.rank(), w.size());
    let mut want = input(case, 0, bytes);
    for r in 1..n {
        red.reduce_into(&mut want, &input(case, r, bytes), Order::AccFirst)?;
    }
    let mine = input(case, me, bytes);
    let got = match how {
        Input::Owned => {
            let mut got = vec![0u8; bytes];
            let p = w.start_allreduce_owned(mine, red)?;
            w.block_on(p.finish_into(&mut got))?;
            got
        }
        Input::Borrowed => {
            let mut got = vec![0u8; bytes];
            // SAFETY: `mine` outlives the call and is not touched until it completes.
            let p = unsafe { w.start_allreduce_borrowed(mine.as_ptr(), bytes, red)? };
            w.block_on(p.finish_into(&mut got))?;
            got
        }
        Input::InPlace => {
            let mut buf = mine;
            // SAFETY: `buf` is the input and the receive buffer, untouched until completion.
            let p = unsafe { w.start_allreduce_borrowed(buf.as_ptr(), bytes, red)? };
            w.block_on(p.finish_into(&mut buf))?;
            buf
        }
    };
    if got != want {
        let at = got.iter().zip(&want).position(|(a, b)| a != b).unwrap();
        eprintln!("rank {me}: case {case}, {elems} elements, {how:?}: wrong result at byte {at}");
        std::process::exit(1);
    }
    Ok(())
}

fn time(w: &Comm, bytes: usize, iters: usize) -> nexar::Result<()> {
    let mut v = vec![1.0f32; bytes / 4];
    let mut times = Vec::with_capacity(iters);
    w.allreduce_blocking(&mut v, ReduceOp::Sum)?;
    for _ in 0..iters {
        v.fill(1.0);
        w.barrier_blocking()?;
        let t = Instant::now();
        w.allreduce_blocking(&mut v, ReduceOp::Sum)?;
        times.push(t.elapsed().as_secs_f64());
    }
    assert!(v.iter().all(|&x| x == w.size() as f32));
    times.sort_by(f64::total_cmp);
    let med = times[iters / 2];
    let p = w.size() as f64;
    if w.rank() == 0 {
        let bus = 2.0 * (p - 1.0) / p * bytes as f64 / med / 1e9;
        println!(
            "{bytes} B x{}: median {:.1} us, bus bw {bus:.3} GB/s",
            w.size(),
            med * 1e6
        );
    }
    Ok(())
}

/// The last rank dies in the middle of a large allreduce; the others must get an error.
fn crash(w: &Comm) -> nexar::Result<()> {
    let bytes = 4 << 20;
    w.barrier_blocking()?;
    let p = w.start_allreduce_owned(input(0, w.rank(), bytes), reducer(0))?;
    if w.rank() == w.size() - 1 {
        // SAFETY: kill has no memory effects.
        unsafe { libc::kill(libc::getpid(), libc::SIGKILL) };
    }
    let t = Instant::now();
    let mut got = vec![0u8; bytes];
    match w.block_on(p.finish_into(&mut got)) {
        Ok(()) => {
            eprintln!("rank {}: allreduce with a dead rank succeeded", w.rank());
            std::process::exit(1);
        }
        Err(e) => println!(
            "rank {}: allreduce failed after {} ms: {:?}: {e}",
            w.rank(),
            t.elapsed().as_millis(),
            e.kind()
        ),
    }
    // Leave like a crashed job would.
    std::process::exit(0);
}

fn main() -> nexar::Result<()> {
    let ctx = Context::init()?;
    let w = ctx.world();
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("crash") {
        return crash(w);
    }
    if args.get(1).map(String::as_str) == Some("time") {
        let bytes = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(16 << 20);
        let iters = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(20);
        time(w, bytes, iters)?;
        return ctx.finalize();
    }
    // Element counts: tiny (fewer than ranks), odd, around 1 MiB, and several pieces per block.
    let counts = [3usize, 1001, (1 << 18) - 1, 1 << 18, (1 << 18) + 7, 700_001];
    let mut checks = 0;
    for case in 0..4 {
        for (i, &c) in counts.iter().enumerate() {
            // Whole elements: i64 cases count 8-byte elements, the custom op 12-byte ones.
            let elems = if case == 1 || case == 2 { c / 2 + 1 } else { c };
            let how = [Input::Owned, Input::Borrowed, Input::InPlace][(i + case) % 3];
            check(w, case, elems, how)?;
            checks += 1;
        }
    }
    // A sub-communicator (odd and even world ranks): comm ranks map to other processes.
    // Reversed keys make comm rank order differ from world rank order.
    let key = -(w.rank() as i32);
    if let Some(sub) = w.block_on(w.split(Some(w.rank() % 2), key))? {
        check(&sub, 3, 300_001, Input::Borrowed)?;
        checks += 1;
    }
    let sent: u64 = ctx
        .transport_stats()
        .iter()
        .map(|(_, s)| s.bytes_sent)
        .sum();
    println!(
        "rank {}/{}: direct-allreduce ok checks={checks} bytes_sent={sent} over {}",
        w.rank(),
        w.size(),
        ctx.transport_name()
    );
    ctx.finalize()
}
