//! Waiting for a peer in a window's shared area (a lock, the accumulate mutex, a post or a
//! complete): spin briefly, then yield, then sleep in growing naps (4 ranks may share 2 cores),
//! and every millisecond look for what would make the wait last forever: the engine finalized,
//! a watched peer failed, or the collective timeout (`NEXAR_TIMEOUT`) passed.

use crate::core::engine::Engine;
use crate::error::{Error, ErrorKind, Result};
use std::time::{Duration, Instant};

/// Passes spent spinning before the clock is read.
const SPIN_PASSES: u32 = 64;
/// Yielding time after spinning, before sleeping.
const YIELD_FOR: Duration = Duration::from_micros(200);
/// First and longest single sleep.
const FIRST_NAP: Duration = Duration::from_micros(20);
const MAX_NAP: Duration = Duration::from_micros(500);
/// How often the checks run.
const CHECK_EVERY: Duration = Duration::from_millis(1);

/// Waits until `ready()` holds; `watch()` names the world ranks whose failure ends the wait
/// (`what` describes the wait in errors).
pub(super) fn until(
    engine: &Engine,
    what: &dyn Fn() -> String,
    watch: &dyn Fn() -> Vec<u32>,
    mut ready: impl FnMut() -> bool,
) -> Result<()> {
    let mut passes = 0u32;
    while passes < SPIN_PASSES {
        if ready() {
            return Ok(());
        }
        std::hint::spin_loop();
        passes += 1;
    }
    let start = Instant::now();
    let mut nap = FIRST_NAP;
    let mut next_check = Duration::ZERO;
    loop {
        if ready() {
            return Ok(());
        }
        let waited = start.elapsed();
        if waited >= next_check {
            next_check = waited + CHECK_EVERY;
            engine.check_open()?;
            for w in watch() {
                if let Some(e) = engine.failure_of(w) {
                    return Err(e.context(what()));
                }
            }
            if let Some(limit) = engine.cfg.coll_timeout
                && waited >= limit
            {
                return Err(Error::new(
                    ErrorKind::Timeout,
                    format!("{} did not happen within {limit:?} (NEXAR_TIMEOUT)", what()),
                ));
            }
        }
        if waited < YIELD_FOR {
            std::thread::yield_now();
        } else {
            std::thread::sleep(nap);
            nap = (nap * 2).min(MAX_NAP);
        }
    }
}
