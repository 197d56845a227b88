//! One-sided windows through the engine's API, run by tests/rma.rs.
//!
//! * `rma_check` (under nexarrun): on an allocated and on a created window, a ring of puts
//!   under fences, then a counter on rank 0 bumped by every rank with fetching accumulates
//!   under lock_all; every value checked. Prints `rank r/n: rma ok`. The same between hosts
//!   (two host names), where active messages serve the windows.
//! * `rma_check refused` (or `RMA_CHECK=refused`): creating a shared window
//!   (`MPI_Win_allocate_shared`) must fail on every rank (the test runs it with two host names,
//!   `NEXAR_HOSTNAME`, so the ranks share no memory). Prints `rank r/n: rma refused: <error>`.
//! * `rma_check crash`: the last rank takes the exclusive lock on rank 0 and dies holding it;
//!   the others then ask for that lock, and for a lock on the dead rank, and print how each
//!   ended (`lock failed: ...`), which must be promptly and with `ProcFailed`.

use nexar::rma::{Combine, Exposed, Flavor, LockKind, Window};
use nexar::{Comm, Context, Datatype, ReduceOp, Reducer};
use std::time::Instant;

const ROUNDS: usize = 25;

fn exposed(base: *mut u8, size: usize) -> Exposed {
    Exposed {
        base,
        size,
        disp_unit: 8,
        noncontig: false,
    }
}

/// Reads the `i`-th u64 of this rank's window memory.
fn slot(w: &Window, i: usize) -> u64 {
    let (base, size, _) = w.local();
    assert!((i + 1) * 8 <= size);
    // SAFETY: inside this rank's window memory (asserted), read between synchronizations.
    unsafe { (base as *const u64).add(i).read_volatile() }
}

fn check(w: &Window, comm: &Comm) -> nexar::Result<()> {
    let (me, n) = (comm.rank(), comm.size());
    let right = (me + 1) % n;
    let left = (me + n - 1) % n;
    w.fence(false)?;
    w.put(right, 1, &[(0, 8)], &u64::from(me).to_le_bytes())?;
    w.fence(false)?;
    assert_eq!(slot(w, 1), u64::from(left), "ring put");
    let sum = Reducer::builtin(ReduceOp::Sum, Datatype::U64);
    w.lock_all()?;
    let mut tickets = Vec::new();
    for _ in 0..ROUNDS {
        let mut old = [0u8; 8];
        w.accumulate(
            0,
            0,
            &[(0, 8)],
            &1u64.to_le_bytes(),
            Combine::Reduce(&sum),
            Some(&mut old),
        )?;
        tickets.push(u64::from_le_bytes(old));
    }
    w.unlock_all()?;
    assert!(tickets.windows(2).all(|t| t[0] < t[1]), "{tickets:?}");
    w.fence(true)?;
    if me == 0 {
        assert_eq!(slot(w, 0), (ROUNDS as u64) * u64::from(n), "counter");
    }
    w.free()
}

fn main() -> nexar::Result<()> {
    let ctx = Context::init()?;
    let world = ctx.world();
    let (me, n) = (world.rank(), world.size());
    let mode = std::env::args()
        .nth(1)
        .or_else(|| std::env::var("RMA_CHECK").ok());
    match mode.as_deref() {
        Some("refused") => {
            let e = world
                .win_create(Flavor::Shared, exposed(std::ptr::null_mut(), 64))
                .err()
                .expect("a window over ranks that share no memory was created");
            println!("rank {me}/{n}: rma refused: {:?}: {e}", e.kind());
        }
        Some("crash") => crash(world)?,
        _ => {
            let w = world.win_create(Flavor::Allocate, exposed(std::ptr::null_mut(), 16))?;
            check(&w, world)?;
            let mut mine = [0u64; 2];
            let w = world.win_create(Flavor::Create, exposed(mine.as_mut_ptr().cast(), 16))?;
            check(&w, world)?;
            drop(w);
            std::hint::black_box(&mut mine);
            println!("rank {me}/{n}: rma ok");
        }
    }
    ctx.finalize()
}

fn crash(world: &Comm) -> nexar::Result<()> {
    let (me, n) = (world.rank(), world.size());
    let w = world.win_create(Flavor::Allocate, exposed(std::ptr::null_mut(), 8))?;
    if me == n - 1 {
        w.lock(LockKind::Exclusive, 0)?;
    }
    world.barrier_blocking()?;
    if me == n - 1 {
        // SAFETY: kill has no memory effects.
        unsafe { libc::kill(libc::getpid(), libc::SIGKILL) };
    }
    for (what, kind, target) in [
        ("held by the dead rank", LockKind::Exclusive, 0),
        ("on the dead rank", LockKind::Shared, n - 1),
    ] {
        let t = Instant::now();
        match w.lock(kind, target) {
            Ok(()) => {
                println!("rank {me}/{n}: lock {what} succeeded");
                std::process::exit(1);
            }
            Err(e) => println!(
                "rank {me}/{n}: lock {what} failed after {} ms: {:?}: {e}",
                t.elapsed().as_millis(),
                e.kind()
            ),
        }
    }
    std::process::exit(0)
}
