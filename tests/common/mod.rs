//! Helpers for engine tests: run a closure on every rank of an in-process world, one thread per
//! rank, and collect the results.

#![allow(dead_code)]

pub mod checks;
#[cfg(feature = "cuda")]
pub mod gpu;
pub mod procs;
pub mod transport;

#[allow(unused_imports)] // not every test binary uses the transport helpers
pub use transport::*;

use nexar::{Context, Result};

/// Runs `f(ctx)` on each of `n` in-process ranks (one thread each) and returns the results in
/// rank order. Panics in a rank propagate.
pub fn run_ranks<T, F>(n: usize, f: F) -> Vec<T>
where
    T: Send,
    F: Fn(&Context) -> T + Sync,
{
    let ctxs = Context::in_process(n).expect("in-process world");
    std::thread::scope(|s| {
        let handles: Vec<_> = ctxs.iter().map(|c| s.spawn(|| f(c))).collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("rank thread panicked"))
            .collect()
    })
}

/// Like [`run_ranks`] for closures returning `Result`, unwrapping with the rank in the message.
pub fn run_ok<T, F>(n: usize, f: F) -> Vec<T>
where
    T: Send,
    F: Fn(&Context) -> Result<T> + Sync,
{
    run_ranks(n, |c| {
        f(c).unwrap_or_else(|e| panic!("rank {}: {e}", c.rank()))
    })
}
