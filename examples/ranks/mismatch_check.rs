//! Mismatched collectives across real processes, run by tests/mismatch_procs.rs:
//! `mismatch_check <case> <bytes>` makes the last rank call a collective that differs from
//! everyone else's in one field (`count`, `datatype`, `op`, `root`, or `order`: the last rank
//! calls bcast then allreduce, the others allreduce then bcast) on vectors of about `bytes`
//! bytes. Every rank must fail with `Mismatch`, never hang or return a result.
//!
//! Each rank prints one line `rank R: mismatch after T ms: MESSAGE` and exits 0 when its call
//! failed with `Mismatch`; it prints what happened instead and exits 3 otherwise.

use nexar::{Comm, ErrorKind, ReduceOp};
use std::time::Instant;

/// Buffers, filled before the clock starts.
struct Bufs {
    a: Vec<i32>,
    b: Vec<i32>,
    f: Vec<f32>,
}

/// Runs this rank's side of `case`; `odd` is the rank that differs.
fn run(w: &Comm, case: &str, bufs: &mut Bufs, odd: bool) -> nexar::Result<()> {
    let Bufs { a, b, f } = bufs;
    match case {
        "count" => {
            let n = if odd { a.len() } else { a.len() - 1 };
            w.allreduce_blocking(&mut a[..n], ReduceOp::Sum)
        }
        "datatype" => {
            if odd {
                w.allreduce_blocking(f, ReduceOp::Sum)
            } else {
                w.allreduce_blocking(b, ReduceOp::Sum)
            }
        }
        "op" => {
            let op = if odd { ReduceOp::Max } else { ReduceOp::Sum };
            w.allreduce_blocking(b, op)
        }
        "root" => {
            w.bcast_blocking(b, if odd { 1 } else { 0 })?;
            // A rank whose bcast finished as root learns of the mismatch at its next call.
            w.barrier_blocking()
        }
        "order" => {
            if odd {
                w.bcast_blocking(b, 0)?;
                w.allreduce_blocking(a, ReduceOp::Sum)?;
            } else {
                w.allreduce_blocking(a, ReduceOp::Sum)?;
                w.bcast_blocking(b, 0)?;
            }
            w.barrier_blocking()
        }
        other => {
            eprintln!("unknown case {other:?}");
            std::process::exit(2);
        }
    }
}

fn main() -> nexar::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let case = args.get(1).map(String::as_str).unwrap_or("count");
    let bytes: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(64);
    let ctx = nexar::Context::init()?;
    let w = ctx.world();
    let odd = w.rank() == w.size() - 1;
    let n = (bytes / 4).max(1);
    let mut bufs = Bufs {
        a: vec![1; n + 1],
        b: vec![2; n],
        f: vec![1.0; n],
    };
    w.barrier_blocking()?;
    let t = Instant::now();
    let r = run(w, case, &mut bufs, odd);
    let ms = t.elapsed().as_secs_f64() * 1e3;
    match r {
        Err(e) if e.kind() == ErrorKind::Mismatch => {
            println!(
                "rank {}: mismatch after {ms:.1} ms: {}",
                w.rank(),
                e.message()
            );
            Ok(())
        }
        other => {
            println!(
                "rank {}: expected a mismatch, got {other:?} after {ms:.1} ms",
                w.rank()
            );
            std::process::exit(3);
        }
    }
}
