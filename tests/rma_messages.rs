//! Windows served by active messages (`Config::rma_messages`, the path between hosts), in one
//! process: data movement through the target's engine, the checks the target makes itself
//! (ranges, a dynamic window's attached regions), accumulates whose combiner cannot travel
//! (a custom reducer: the target's accumulate mutex held from the origin), compare-and-swap,
//! locks that wait at the target, post / start / complete / wait, and puts sent without
//! waiting whose errors come with the call that completes them.

use nexar::rma::{Combine, Exposed, Flavor, LockKind, Window};
use nexar::{Config, Context, CustomOp, Datatype, ErrorKind, Order, ReduceOp, Reducer, Result};
use std::sync::Arc;

/// Runs `f` on each of `n` in-process ranks whose windows are served by active messages.
fn run<T: Send>(n: usize, f: impl Fn(&Context) -> Result<T> + Sync) -> Vec<T> {
    let cfg = Config {
        rma_messages: true,
        ..Config::default()
    };
    let ctxs = Context::in_process_with(n, cfg).expect("in-process world");
    std::thread::scope(|s| {
        let hs: Vec<_> = ctxs.iter().map(|c| s.spawn(|| f(c))).collect();
        hs.into_iter()
            .enumerate()
            .map(|(r, h)| {
                h.join()
                    .expect("rank thread panicked")
                    .unwrap_or_else(|e| panic!("rank {r}: {e}"))
            })
            .collect()
    })
}

fn exposed(base: *mut u8, size: usize, disp_unit: usize) -> Exposed {
    Exposed {
        base,
        size,
        disp_unit,
        noncontig: false,
    }
}

fn u64s(w: &Window) -> Vec<u64> {
    let (base, size, _) = w.local();
    // SAFETY: this rank's window memory, read after a synchronization.
    (0..size / 8)
        .map(|i| unsafe { (base as *const u64).add(i).read_volatile() })
        .collect()
}

/// Keeps the larger u64 (a combiner that only exists here: it cannot travel).
#[derive(Debug)]
struct Larger;

impl CustomOp for Larger {
    fn combine(&self, acc: &mut [u8], inc: &[u8], _order: Order) {
        for (a, b) in acc.chunks_exact_mut(8).zip(inc.chunks_exact(8)) {
            let (x, y) = (
                u64::from_le_bytes(a.try_into().unwrap()),
                u64::from_le_bytes(b.try_into().unwrap()),
            );
            a.copy_from_slice(&x.max(y).to_le_bytes());
        }
    }
    fn elem_size(&self) -> usize {
        8
    }
    fn commutative(&self) -> bool {
        true
    }
}

#[test]
fn data_moves_through_the_targets_engine_and_the_target_checks_ranges() {
    let n = 3;
    let all = run(n, |ctx| {
        let world = ctx.world();
        let (me, n) = (world.rank(), world.size());
        let w = world.win_create(Flavor::Allocate, exposed(std::ptr::null_mut(), 32, 8))?;
        assert!(
            w.shared_query((me + 1) % n)?.is_none(),
            "another member's memory is not addressable here"
        );
        let right = (me + 1) % n;
        w.fence(false)?;
        // A strided put (two runs) of the rank into its right neighbour's slots 0 and 2.
        let v = u64::from(me) + 10;
        let bytes = [v.to_le_bytes(), v.to_le_bytes()].concat();
        w.put(right, 0, &[(0, 8), (16, 8)], &bytes)?;
        w.fence(false)?;
        let mut back = [0u8; 16];
        w.get(right, 0, &[(0, 8), (16, 8)], &mut back)?;
        assert_eq!(back, bytes.as_slice(), "get of what this rank put");
        // Outside the target's 32 bytes: refused (checked here and at the target).
        let e = w.put(right, 4, &[(0, 8)], &[0; 8]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::RmaRange, "{e}");
        w.fence(false)?;
        // Every rank adds 1 to rank 0's slot 1 (travelling builtin combiner) and offers its
        // rank to slot 3 through the custom maximum (mutex held from the origin).
        let sum = Reducer::builtin(ReduceOp::Sum, Datatype::U64);
        let larger = Reducer::custom(Arc::new(Larger));
        w.lock(LockKind::Shared, 0)?;
        let mut old = [0u8; 8];
        w.accumulate(
            0,
            1,
            &[(0, 8)],
            &1u64.to_le_bytes(),
            Combine::Reduce(&sum),
            Some(&mut old),
        )?;
        assert!(u64::from_le_bytes(old) < u64::from(n));
        w.accumulate(
            0,
            3,
            &[(0, 8)],
            &u64::from(me + 100).to_le_bytes(),
            Combine::Reduce(&larger),
            None,
        )?;
        w.unlock(0)?;
        world.barrier_blocking()?;
        // Compare-and-swap on rank 0's slot 1: exactly one rank swaps n -> 1000.
        w.lock(LockKind::Exclusive, 0)?;
        let mut was = [0u8; 8];
        w.compare_and_swap(
            0,
            1,
            &1000u64.to_le_bytes(),
            &u64::from(n).to_le_bytes(),
            &mut was,
        )?;
        w.unlock(0)?;
        let swapped = u64::from_le_bytes(was) == u64::from(n);
        w.fence(true)?;
        let mine = u64s(&w);
        w.free()?;
        Ok((swapped, mine))
    });
    let n = n as u64;
    assert_eq!(all.iter().filter(|(s, _)| *s).count(), 1, "one swap");
    for (r, (_, mem)) in all.iter().enumerate() {
        let left = (r as u64 + n - 1) % n + 10;
        assert_eq!(mem[0], left, "rank {r} slot 0");
        assert_eq!(mem[2], left, "rank {r} slot 2");
    }
    assert_eq!(all[0].1[1], 1000, "the counter, then swapped");
    assert_eq!(all[0].1[3], 100 + n - 1, "the custom maximum");
}

#[test]
fn a_dynamic_window_target_checks_its_attached_regions_spanning_adjacent_ones() {
    run(2, |ctx| {
        let world = ctx.world();
        let me = world.rank();
        let w = world.win_create(Flavor::Dynamic, exposed(std::ptr::null_mut(), 0, 1))?;
        let mut region = vec![0u64; 4];
        let addr = region.as_mut_ptr() as u64;
        if me == 1 {
            // Two regions side by side: one access may span both.
            w.attach(region.as_mut_ptr().cast(), 16)?;
            w.attach(region[2..].as_mut_ptr().cast(), 16)?;
        }
        let mut addrs = [0u64; 2];
        world.allgather_blocking(&[addr], &mut addrs)?;
        if me == 0 {
            w.lock(LockKind::Exclusive, 1)?;
            let both = [7u64.to_le_bytes(), 8u64.to_le_bytes()].concat();
            w.put(1, addrs[1] as isize + 8, &[(0, 16)], &both)?;
            w.flush(Some(1))?;
            // Past the attached regions: the target refuses it; the put was sent without
            // waiting, so the unlock that completes it reports the error (and still unlocks).
            w.put(1, addrs[1] as isize + 32, &[(0, 8)], &[0; 8])?;
            let e = w.unlock(1).unwrap_err();
            assert_eq!(
                e.kind(),
                ErrorKind::RmaRange,
                "past the attached region: {e}"
            );
            w.lock(LockKind::Exclusive, 1)?;
            w.unlock(1)?;
        }
        world.barrier_blocking()?;
        if me == 1 {
            // SAFETY: read after the barrier that follows the put.
            let v = unsafe {
                [
                    std::ptr::read_volatile(&region[1]),
                    std::ptr::read_volatile(&region[2]),
                ]
            };
            assert_eq!(v, [7, 8]);
            w.detach(region.as_ptr().cast())?;
            w.detach(region[2..].as_ptr().cast())?;
        }
        w.free()?;
        Ok(())
    });
}

#[test]
fn exposure_epochs_and_exclusive_locks_work_through_messages() {
    let all = run(3, |ctx| {
        let world = ctx.world();
        let me = world.rank();
        let w = world.win_create(Flavor::Allocate, exposed(std::ptr::null_mut(), 16, 8))?;
        // Rank 0 exposes to ranks 1 and 2, which each put their rank into a slot.
        for _ in 0..3 {
            if me == 0 {
                w.post(&[1, 2])?;
                w.wait()?;
            } else {
                w.start(&[0])?;
                w.put(0, me as isize - 1, &[(0, 8)], &u64::from(me).to_le_bytes())?;
                w.complete()?;
            }
        }
        // Exclusive locks serialize read-increment-write on rank 2's slot 0.
        for _ in 0..20 {
            w.lock(LockKind::Exclusive, 2)?;
            let mut b = [0u8; 8];
            w.get(2, 0, &[(0, 8)], &mut b)?;
            w.put(2, 0, &[(0, 8)], &(u64::from_le_bytes(b) + 1).to_le_bytes())?;
            w.unlock(2)?;
        }
        w.fence(false)?;
        w.fence(true)?;
        let mem = u64s(&w);
        w.free()?;
        Ok(mem)
    });
    assert_eq!(&all[0][..], &[1, 2], "the puts of the access epochs");
    assert_eq!(all[2][0], 60, "increments under exclusive locks");
}

#[test]
fn accesses_in_flight_are_served_in_order() {
    let all = run(2, |ctx| {
        let world = ctx.world();
        let w = world.win_create(Flavor::Allocate, exposed(std::ptr::null_mut(), 24, 8))?;
        if world.rank() == 0 {
            let sum = Reducer::builtin(ReduceOp::Sum, Datatype::U64);
            w.lock(LockKind::Exclusive, 1)?;
            // Several times more than may be in flight at once: the oldest are waited for.
            for i in 0..300u64 {
                let v = i.to_le_bytes();
                w.accumulate(1, 0, &[(0, 8)], &v, Combine::Replace, None)?;
                w.accumulate(
                    1,
                    1,
                    &[(0, 8)],
                    &1u64.to_le_bytes(),
                    Combine::Reduce(&sum),
                    None,
                )?;
                w.put(1, 2, &[(0, 8)], &v)?;
            }
            // No flush: the get is served after everything sent before it.
            let mut last = [0u8; 24];
            w.get(1, 0, &[(0, 24)], &mut last)?;
            w.unlock(1)?;
            let got: Vec<u64> = last
                .chunks_exact(8)
                .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
                .collect();
            assert_eq!(
                got,
                [299, 300, 299],
                "the last replace, every sum, the last put"
            );
        }
        w.fence(false)?;
        w.fence(true)?;
        let mem = u64s(&w);
        w.free()?;
        Ok(mem)
    });
    assert_eq!(all[1], [299, 300, 299]);
}
