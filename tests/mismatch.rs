//! Mismatched collectives: ranks that call different collectives, or the same one with a
//! different count, op, datatype or root, all fail the call with `Mismatch` naming the fields
//! (every collective frame carries its call's fingerprint; the first rank to see a difference
//! tells the others), instead of hanging or returning a wrong answer. A rank that skips a
//! collective is caught at the next one, or by the optional collective timeout
//! (`NEXAR_TIMEOUT`). In-process worlds (the checks are the engine's).

mod common;

use common::run_ranks;
use nexar::{ErrorKind, ReduceOp};

/// Runs `f` on 3 ranks and asserts every rank failed with `Mismatch` whose message contains
/// `needle`.
fn all_fail_naming(f: impl Fn(&nexar::Context) -> nexar::Result<()> + Sync, needle: &str) {
    let results = run_ranks(3, f);
    for (r, res) in results.iter().enumerate() {
        let e = res.as_ref().expect_err(&format!("rank {r} did not fail"));
        assert_eq!(e.kind(), ErrorKind::Mismatch, "rank {r}: {e}");
        assert!(e.message().contains(needle), "rank {r}: {e}");
    }
}

#[test]
fn a_different_count_fails_every_rank() {
    all_fail_naming(
        |c| {
            let n = if c.rank() == 1 { 8 } else { 4 };
            let mut v = vec![1.0f32; n];
            c.world().allreduce_blocking(&mut v, ReduceOp::Sum)
        },
        "bytes here",
    );
}

#[test]
fn a_different_op_fails_every_rank() {
    all_fail_naming(
        |c| {
            let op = if c.rank() == 2 {
                ReduceOp::Max
            } else {
                ReduceOp::Sum
            };
            let mut v = vec![1i64; 16];
            c.world().allreduce_blocking(&mut v, op)
        },
        "reduction op",
    );
}

#[test]
fn a_different_datatype_fails_every_rank() {
    all_fail_naming(
        |c| {
            if c.rank() == 0 {
                let mut v = vec![1i32; 4];
                c.world().allreduce_blocking(&mut v, ReduceOp::Sum)
            } else {
                let mut v = vec![1.0f32; 4];
                c.world().allreduce_blocking(&mut v, ReduceOp::Sum)
            }
        },
        "datatype",
    );
}

#[test]
fn a_different_root_fails_every_rank_at_the_latest_at_the_next_call() {
    // Rank 0 believes it is the root: a root receives nothing in a broadcast, so it may finish
    // before anyone tells it; its next collective on the communicator fails instead.
    all_fail_naming(
        |c| {
            let root = if c.rank() == 0 { 0 } else { 1 };
            let mut v = vec![c.rank() as u8; 64];
            c.world().bcast_blocking(&mut v, root)?;
            c.world().barrier_blocking()
        },
        "mismatch",
    );
}

#[test]
fn a_skipped_collective_is_caught_at_the_next_one() {
    all_fail_naming(
        |c| {
            let w = c.world();
            if c.rank() != 1 {
                let mut v = vec![1u32; 8];
                w.allreduce_blocking(&mut v, ReduceOp::Sum)?;
            }
            w.barrier_blocking()
        },
        "collective",
    );
}

#[test]
fn matching_calls_still_agree() {
    let sums = run_ranks(3, |c| {
        let mut v = vec![c.rank() as i64 + 1; 1000];
        c.world().allreduce_blocking(&mut v, ReduceOp::Sum)?;
        let mut b = vec![c.rank() as u8; 10];
        c.world().bcast_blocking(&mut b, 2)?;
        Ok::<_, nexar::Error>((v[999], b[0]))
    });
    for s in sums {
        assert_eq!(s.unwrap(), (6, 2));
    }
}

#[test]
fn a_collective_timeout_fails_a_call_nobody_else_joins() {
    let cfg = nexar::Config {
        coll_timeout: Some(std::time::Duration::from_millis(300)),
        ..nexar::Config::default()
    };
    let ctxs = nexar::Context::in_process_with(2, cfg).unwrap();
    // Rank 1 never calls the barrier.
    let e = ctxs[0]
        .world()
        .barrier_blocking()
        .expect_err("nobody else joined");
    assert_eq!(e.kind(), ErrorKind::Timeout, "{e}");
    assert!(e.message().contains("NEXAR_TIMEOUT"), "{e}");
}

/// Ranks that disagree on a small reduce's root: the non-roots send and return (their part is
/// done), and each would-be root waited forever for contributions that went elsewhere. After
/// a short wait a frame-path call probes its peers with its fingerprint; a peer that ran the
/// other call reports the mismatch, so every root fails instead of hanging.
#[test]
fn reduce_roots_that_disagree_fail_instead_of_hanging() {
    let t = std::time::Instant::now();
    let results = run_ranks(4, |c| {
        let root = if c.rank() < 2 { 0 } else { 3 };
        let send = [f64::from(c.rank() + 1); 8];
        let mut recv = [0.0f64; 8];
        c.world()
            .reduce_blocking(&send, &mut recv, ReduceOp::Sum, root)
            .map(|()| root)
            .map_err(|e| (root, e))
    });
    for (r, res) in results.iter().enumerate() {
        if r == 0 || r == 3 {
            let (_, e) = res.as_ref().expect_err(&format!("root {r} did not fail"));
            assert_eq!(e.kind(), ErrorKind::Mismatch, "root {r}: {e}");
            assert!(
                e.message().contains("root 0 here, 3 there")
                    || e.message().contains("root 3 here, 0 there"),
                "root {r}: {e}"
            );
        }
    }
    assert!(
        t.elapsed() < std::time::Duration::from_secs(10),
        "took {:?}",
        t.elapsed()
    );
}
