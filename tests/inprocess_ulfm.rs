//! ULFM recovery over the in-memory transport: revoke, agree, shrink and failure
//! acknowledgement, with crashes simulated in-process.

mod common;

use nexar::{ANY_SOURCE, ANY_TAG, ErrorKind, ReduceOp, TagMatch};
use std::time::{Duration, Instant};

/// Waits (at most 5 s) until `cond` holds.
fn wait_until(what: &str, cond: impl Fn() -> bool) {
    let t = Instant::now();
    while !cond() {
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[test]
fn revoke_fails_pending_and_later_operations_but_not_other_comms_or_recovery() {
    let ctxs = nexar::Context::in_process(4).unwrap();
    let other: Vec<_> = std::thread::scope(|s| {
        let hs: Vec<_> = ctxs
            .iter()
            .map(|c| s.spawn(move || c.world().dup_blocking()))
            .collect();
        hs.into_iter().map(|h| h.join().unwrap().unwrap()).collect()
    });
    let results: Vec<_> = std::thread::scope(|s| {
        let hs: Vec<_> = ctxs
            .iter()
            .map(|c| {
                s.spawn(move || {
                    let w = c.world();
                    let t = Instant::now();
                    let e = match w.rank() {
                        0 => {
                            std::thread::sleep(Duration::from_millis(50));
                            w.revoke().unwrap();
                            assert!(w.is_revoked());
                            w.barrier_blocking().unwrap_err()
                        }
                        1 => {
                            let mut b = [0u8];
                            w.recv_blocking(&mut b, ANY_SOURCE, ANY_TAG).unwrap_err()
                        }
                        2 => w.ssend_blocking(&[1u8], 3, 9).unwrap_err(),
                        _ => {
                            let mut v = [1u64];
                            w.allreduce_blocking(&mut v, ReduceOp::Sum).unwrap_err()
                        }
                    };
                    (e.kind(), t.elapsed())
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (r, (kind, took)) in results.iter().enumerate() {
        assert_eq!(*kind, ErrorKind::Revoked, "rank {r}");
        assert!(*took < Duration::from_secs(2), "rank {r} took {took:?}");
    }
    // Later operations fail at once; recovery calls and other communicators still work.
    let out = std::thread::scope(|s| {
        let hs: Vec<_> = ctxs
            .iter()
            .zip(&other)
            .map(|(c, o)| {
                s.spawn(move || {
                    let w = c.world();
                    assert!(w.is_revoked());
                    assert_eq!(
                        w.send_blocking(&[1u8], 0, 0).unwrap_err().kind(),
                        ErrorKind::Revoked
                    );
                    assert_eq!(
                        w.iprobe(ANY_SOURCE, ANY_TAG).unwrap_err().kind(),
                        ErrorKind::Revoked
                    );
                    assert_eq!(w.dup_blocking().unwrap_err().kind(), ErrorKind::Revoked);
                    let e = w.split_blocking(Some(0), 0).unwrap_err();
                    assert_eq!(e.kind(), ErrorKind::Revoked);
                    let mut v = [w.rank() as u64 + 1];
                    o.allreduce_blocking(&mut v, ReduceOp::Sum).unwrap();
                    let flag = w.agree_blocking(0b1110 | (w.rank() & 1)).unwrap();
                    let s = w.shrink_blocking().unwrap();
                    assert_eq!((s.size(), s.rank()), (4, w.rank()));
                    assert!(!s.is_revoked());
                    let mut x = [s.rank() as u64];
                    s.allreduce_blocking(&mut x, ReduceOp::Sum).unwrap();
                    (v[0], flag, x[0], s.context_id())
                })
            })
            .collect();
        hs.into_iter()
            .map(|h| h.join().unwrap())
            .collect::<Vec<_>>()
    });
    for o in &out {
        assert_eq!((o.0, o.1, o.2, o.3), (10, 0b1110, 6, out[0].3));
    }
}

#[test]
fn after_a_crash_agree_is_uniform_and_shrink_rebuilds_the_survivors() {
    let ctxs = nexar::Context::in_process(4).unwrap();
    // Rank 0, the first coordinator, crashes.
    assert!(ctxs[0].simulate_crash());
    let out = std::thread::scope(|s| {
        let hs: Vec<_> = ctxs[1..]
            .iter()
            .map(|c| {
                s.spawn(move || {
                    let w = c.world();
                    wait_until("the failure", || w.failed_ranks() == vec![0]);
                    // ANY_SOURCE receives fail until the failure is acknowledged.
                    let mut b = [0u8];
                    let e = w.recv_blocking(&mut b, ANY_SOURCE, ANY_TAG).unwrap_err();
                    assert_eq!(e.kind(), ErrorKind::ProcFailed);
                    // Nobody acknowledged it: the same error everywhere.
                    let e = w.agree_blocking(u32::MAX).unwrap_err();
                    assert_eq!(
                        (e.kind(), e.failed_rank()),
                        (ErrorKind::ProcFailed, Some(0))
                    );
                    assert_eq!(w.ack_failed(), 1);
                    assert_eq!(w.acked_failed(), vec![0]);
                    let v = w.agree_blocking(1 << w.rank() | 1).unwrap();
                    // A wildcard receive now works (message from the next rank).
                    let next = w.rank() % 3 + 1;
                    w.send_blocking(&[w.rank() as u8], next, 4).unwrap();
                    let st = w
                        .recv_blocking(&mut b, ANY_SOURCE, TagMatch::Tag(4))
                        .unwrap();
                    assert_eq!(st.source as u8, b[0]);
                    let s = w.shrink_blocking().unwrap();
                    let mut x = [s.rank() as u64 + 10];
                    s.allreduce_blocking(&mut x, ReduceOp::Sum).unwrap();
                    (v, s.size(), s.rank() + 1 == w.rank(), x[0])
                })
            })
            .collect();
        hs.into_iter()
            .map(|h| h.join().unwrap())
            .collect::<Vec<_>>()
    });
    for o in out {
        assert_eq!(o, (1, 3, true, 33));
    }
}

#[test]
fn agreement_survives_a_coordinator_that_dies_midway() {
    let ctxs = nexar::Context::in_process(3).unwrap();
    let out = std::thread::scope(|s| {
        let hs: Vec<_> = ctxs[1..]
            .iter()
            .map(|c| s.spawn(move || c.world().agree_outcome_blocking(0b11 ^ c.rank())))
            .collect();
        // Ranks 1 and 2 wait for rank 0, which crashes instead of taking part.
        std::thread::sleep(Duration::from_millis(50));
        assert!(ctxs[0].simulate_crash());
        hs.into_iter()
            .map(|h| h.join().unwrap().unwrap())
            .collect::<Vec<_>>()
    });
    assert_eq!(out[0], out[1]);
    assert_eq!(
        (out[0].value, out[0].failed.clone(), out[0].unacknowledged),
        (0, vec![0], true)
    );
}

/// `ack_failed_first` acknowledges failures a prefix at a time, on top of earlier ones, and a
/// non-blocking agreement started before a collective on some ranks and after it on others
/// completes (agreements are numbered apart from collectives) and reports what is
/// unacknowledged.
#[test]
fn failures_are_acknowledged_a_prefix_at_a_time_and_iagree_crosses_collectives() {
    let ctxs = nexar::Context::in_process(5).unwrap();
    assert!(ctxs[0].simulate_crash());
    assert!(ctxs[2].simulate_crash());
    let survivors = [1usize, 3, 4];
    let out = std::thread::scope(|s| {
        let hs: Vec<_> = survivors
            .iter()
            .map(|&i| {
                let c = &ctxs[i];
                s.spawn(move || {
                    let w = c.world();
                    wait_until("both failures", || w.failed_ranks() == vec![0, 2]);
                    assert_eq!(w.ack_failed_first(0), 0);
                    assert_eq!(w.ack_failed_first(1), 1);
                    assert_eq!(w.acked_failed(), vec![0]);
                    // Rank 2's failure is not acknowledged: wildcard receives still fail.
                    let mut b = [0u8];
                    let e = w.recv_blocking(&mut b, ANY_SOURCE, ANY_TAG).unwrap_err();
                    assert_eq!(e.kind(), ErrorKind::ProcFailed);
                    assert_eq!(w.ack_failed_first(1), 1);
                    let a = w.iagree_outcome(0b111).unwrap().wait().unwrap();
                    assert!(a.unacknowledged);
                    assert_eq!(w.ack_failed_first(5), 2);
                    assert_eq!(w.acked_failed(), vec![0, 2]);
                    // On the survivors' communicator, its rank 0 starts an agreement before
                    // a collective, the others after it.
                    let s = w.shrink_blocking().unwrap();
                    let mine = 0b1100 | (1 << s.rank());
                    let mut x = [1u64];
                    let req = if s.rank() == 0 {
                        let r = s.iagree_outcome(mine).unwrap();
                        s.allreduce_blocking(&mut x, ReduceOp::Sum).unwrap();
                        r
                    } else {
                        s.allreduce_blocking(&mut x, ReduceOp::Sum).unwrap();
                        s.iagree_outcome(mine).unwrap()
                    };
                    let a = req.wait().unwrap();
                    (a.value, a.unacknowledged, x[0])
                })
            })
            .collect();
        hs.into_iter()
            .map(|h| h.join().unwrap())
            .collect::<Vec<_>>()
    });
    for o in out {
        assert_eq!(o, (0b1100, false, 3));
    }
}
