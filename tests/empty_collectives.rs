//! Collectives that move no byte (issue 17: "zero-byte and zero-count collectives return at
//! once, still matched and checked"): every member can tell alone that nothing moves, so the
//! call completes without waiting for anyone, blocking or not, and later calls still match.
//! (Not alltoallv, gatherv, scatterv, whose ranks know only their own counts, nor a barrier.)
//! In-process worlds with a collective timeout, so a call that does wait fails instead of
//! hanging the test.

use nexar::{Context, ErrorKind, ReduceOp, Source, TagMatch};

const N: usize = 3;

fn world() -> Vec<Context> {
    let cfg = nexar::Config {
        coll_timeout: Some(std::time::Duration::from_secs(10)),
        ..nexar::Config::default()
    };
    Context::in_process_with(N, cfg).expect("in-process world")
}

/// Every collective of no bytes whose count every member knows, blocking and non-blocking.
fn empty_calls(c: &Context) -> nexar::Result<()> {
    let w = c.world();
    let (none, mut out): (Vec<f64>, Vec<f64>) = (Vec::new(), Vec::new());
    w.bcast_blocking(&mut out, 2)?;
    w.reduce_blocking(&none, &mut out, ReduceOp::Sum, 1)?;
    w.allreduce_blocking(&mut out, ReduceOp::Max)?;
    w.allgather_blocking(&none, &mut out)?;
    // Displacements are each rank's own: only the counts (all zero) are shared.
    let mut spaced = vec![7.0; 6];
    let displs = [5 - c.rank() as usize, 3, 1];
    w.allgatherv_blocking(&none, &mut spaced, &[0; N], Some(&displs))?;
    assert_eq!(spaced, vec![7.0; 6], "an empty allgatherv wrote its buffer");
    w.gather_blocking(&none, &mut out, 1)?;
    w.scatter_blocking(&none, &mut out, 2)?;
    w.scan_blocking(&none, &mut out, ReduceOp::Sum)?;
    w.exscan_blocking(&none, &mut out, ReduceOp::Sum)?;
    w.reduce_scatter_blocking(&none, &mut out, &[0; N], ReduceOp::Sum)?;
    w.alltoall_blocking(&none, &mut out)?;
    w.ibcast(Vec::<f64>::new(), 0)?.wait()?;
    w.iallreduce(Vec::<u32>::new(), ReduceOp::Sum)?.wait()?;
    w.iallgather(&none)?.wait()?;
    Ok(())
}

#[test]
fn collectives_of_no_bytes_complete_without_the_other_members() {
    let ctxs = world();
    let results: Vec<nexar::Result<Vec<u64>>> = std::thread::scope(|s| {
        let handles: Vec<_> = ctxs
            .iter()
            .map(|c| {
                s.spawn(move || {
                    let w = c.world();
                    if c.rank() == 0 {
                        // Before anyone else calls anything: a call that waited for the
                        // others would time out here (and the others are told not to go on).
                        let early = empty_calls(c);
                        for peer in 1..N as u32 {
                            w.send_blocking(&[early.is_ok() as u8], peer, 9)?;
                        }
                        early?;
                    } else {
                        let mut go = [0u8];
                        w.recv_blocking(&mut go, Source::Rank(0), TagMatch::Tag(9))?;
                        if go[0] == 0 {
                            return Err(nexar::Error::invalid("rank 0's empty calls failed"));
                        }
                        empty_calls(c)?;
                    }
                    // Calls that move data still meet the same calls elsewhere.
                    let mut v = vec![c.rank() as u64 + 1; 4];
                    w.allreduce_blocking(&mut v, ReduceOp::Sum)?;
                    let mut b = vec![c.rank() as u64; 2];
                    w.bcast_blocking(&mut b, 1)?;
                    v.extend(b);
                    Ok(v)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (r, res) in results.into_iter().enumerate() {
        let v = res.unwrap_or_else(|e| panic!("rank {r}: {e}"));
        assert_eq!(v, vec![6, 6, 6, 6, 1, 1], "rank {r}");
    }
}

#[test]
fn empty_calls_still_check_their_arguments() {
    let ctxs = Context::in_process(1).expect("world");
    let w = ctxs[0].world();
    let mut out: Vec<f64> = Vec::new();
    let e = w.bcast_blocking(&mut out, 1).expect_err("root 1 of 1 rank");
    assert_eq!(e.kind(), ErrorKind::InvalidRoot, "{e}");
    let e = w
        .reduce_blocking(&[] as &[f64], &mut out, ReduceOp::Sum, 3)
        .expect_err("root 3 of 1 rank");
    assert_eq!(e.kind(), ErrorKind::InvalidRoot, "{e}");
    let e = w
        .reduce_scatter_blocking(&[] as &[f64], &mut out, &[0, 0], ReduceOp::Sum)
        .expect_err("two counts for one rank");
    assert_eq!(e.kind(), ErrorKind::InvalidCount, "{e}");
}

#[test]
fn a_member_passing_no_bytes_where_the_others_pass_some_is_caught_at_the_next_call() {
    let ctxs = world();
    let results: Vec<nexar::Result<()>> = std::thread::scope(|s| {
        let handles: Vec<_> = ctxs
            .iter()
            .map(|c| {
                s.spawn(move || {
                    let w = c.world();
                    let n = if c.rank() == 1 { 0 } else { 4 };
                    let mut v = vec![1.0f32; n];
                    w.allreduce_blocking(&mut v, ReduceOp::Sum)?;
                    w.barrier_blocking()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (r, res) in results.iter().enumerate() {
        let e = res.as_ref().expect_err(&format!("rank {r} did not fail"));
        assert_eq!(e.kind(), ErrorKind::Mismatch, "rank {r}: {e}");
    }
}
