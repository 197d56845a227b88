//! Data-movement collectives (allgather(v), gather(v), scatter(v), alltoall(v)) error paths:
//! bad arguments, messages of the wrong length or from the wrong (peer, step), machines asked
//! to finish early, and ranks that disagree about a call (they fail instead of hanging).

use bytes::Bytes;
use nexar_proto::algo::{allgather, alltoall, gather, scatter};
use nexar_proto::sim::{self, SimError};
use nexar_proto::{Collective, Group, Incoming, Outbox, ProtoError, Rank};

fn invalid<T>(r: Result<T, ProtoError>) -> bool {
    matches!(r, Err(ProtoError::InvalidArgument(_)))
}

#[test]
fn bad_arguments_are_errors() {
    let g = Group::new(1, 4).unwrap();
    let bb = vec![2usize; 4];
    let ok = vec![0u8; 2];

    // allgather: vector length, overflow, data length, recursive doubling off powers of two.
    assert!(invalid(allgather::machine(g, ok.clone(), vec![2; 3])));
    assert!(invalid(allgather::machine(
        g,
        ok.clone(),
        vec![1, 2, usize::MAX, 0]
    )));
    assert!(invalid(allgather::machine(g, vec![0; 3], bb.clone())));
    for algo in [allgather::Algo::Ring, allgather::Algo::Bruck] {
        assert!(invalid(allgather::machine_with(
            g,
            vec![0; 1],
            bb.clone(),
            algo
        )));
    }
    let g6 = Group::new(1, 6).unwrap();
    let rd = allgather::Algo::RecursiveDoubling;
    assert!(invalid(allgather::machine_with(
        g6,
        ok.clone(),
        vec![2; 6],
        rd
    )));
    assert!(allgather::machine_with(g, ok.clone(), bb.clone(), rd).is_ok());

    // gather: root range, vector length, overflow, data length.
    for algo in [gather::Algo::Linear, gather::Algo::Binomial] {
        assert!(invalid(gather::machine_with(
            g,
            4,
            ok.clone(),
            bb.clone(),
            algo
        )));
        assert!(invalid(gather::machine_with(
            g,
            0,
            ok.clone(),
            vec![2; 5],
            algo
        )));
        let over = vec![usize::MAX, 2, 1, 1];
        assert!(invalid(gather::machine_with(g, 0, ok.clone(), over, algo)));
        assert!(invalid(gather::machine_with(
            g,
            0,
            vec![],
            bb.clone(),
            algo
        )));
    }
    assert!(invalid(gather::machine(g, 9, ok.clone(), bb.clone())));

    // scatter: root range, root needs the whole input, others nothing.
    let root = Group::new(0, 4).unwrap();
    for algo in [scatter::Algo::Linear, scatter::Algo::Binomial] {
        assert!(invalid(scatter::machine_with(
            g,
            4,
            vec![],
            bb.clone(),
            algo
        )));
        assert!(invalid(scatter::machine_with(
            g,
            0,
            ok.clone(),
            bb.clone(),
            algo
        )));
        assert!(invalid(scatter::machine_with(
            root,
            0,
            vec![0; 7],
            bb.clone(),
            algo
        )));
        assert!(invalid(scatter::machine_with(
            root,
            0,
            vec![0; 8],
            vec![2; 3],
            algo
        )));
        let over = vec![usize::MAX, 2, 1, 1];
        assert!(invalid(scatter::machine_with(g, 0, vec![], over, algo)));
        assert!(scatter::machine_with(root, 0, vec![0; 8], bb.clone(), algo).is_ok());
    }
    assert!(invalid(scatter::machine(g, 0, vec![1], bb.clone())));

    // alltoall: lengths, overflow, data length, self block mismatch.
    for algo in [alltoall::Algo::Pairwise, alltoall::Algo::Scattered] {
        let a = |data: usize, s: Vec<usize>, r: Vec<usize>| {
            alltoall::machine_with(g, vec![0; data], s, r, algo)
        };
        assert!(invalid(a(6, vec![2; 3], vec![2; 4])));
        assert!(invalid(a(8, vec![2; 4], vec![2; 5])));
        assert!(invalid(a(8, vec![2; 4], vec![usize::MAX, 2, 2, 2])));
        assert!(invalid(a(7, vec![2; 4], vec![2; 4])));
        assert!(invalid(a(8, vec![2; 4], vec![2, 3, 2, 2])));
        assert!(a(8, vec![2; 4], vec![5, 2, 0, 0]).is_ok());
    }
    assert!(invalid(alltoall::machine(g, vec![], vec![], vec![])));
}

fn msg(from: Rank, step: u32, len: usize) -> Incoming {
    Incoming {
        from,
        step,
        payload: Bytes::from(vec![0u8; len]),
    }
}

/// Feeds a started machine the expected first message `(from, step)` of `len` bytes, broken in
/// every way (wrong length, wrong step, wrong or foreign peer), then intact, then again.
fn probe(
    mut m: Box<dyn Collective>,
    from: Rank,
    step: u32,
    len: usize,
    wrong_peer: Rank,
    ctx: &str,
) {
    let mut out = Outbox::new();
    m.start(&mut out).unwrap();
    let e = m.deliver(msg(from, step, len + 1), &mut out).unwrap_err();
    assert!(matches!(e, ProtoError::LengthMismatch { .. }), "{ctx}: {e}");
    if len > 0 {
        let e = m.deliver(msg(from, step, len - 1), &mut out).unwrap_err();
        assert!(matches!(e, ProtoError::LengthMismatch { .. }), "{ctx}: {e}");
    }
    for (f, s) in [(from, step + 100), (wrong_peer, step), (99, step)] {
        let e = m.deliver(msg(f, s, len), &mut out).unwrap_err();
        assert!(
            matches!(e, ProtoError::UnexpectedMessage { .. }),
            "{ctx} ({f}, {s}): {e}"
        );
    }
    m.deliver(msg(from, step, len), &mut out).unwrap();
    let e = m.deliver(msg(from, step, len), &mut out).unwrap_err();
    assert!(
        matches!(e, ProtoError::DuplicateMessage { .. }),
        "{ctx}: {e}"
    );
}

/// A started machine that still waits for input refuses to finish.
fn unfinished(mut m: Box<dyn Collective>, ctx: &str) {
    m.start(&mut Outbox::new()).unwrap();
    assert!(!m.is_done(), "{ctx}");
    assert_eq!(m.finish().unwrap_err(), ProtoError::NotFinished, "{ctx}");
}

#[test]
fn bad_messages_are_errors() {
    let n = 4;
    let bb = vec![3usize, 5, 7, 2];
    let g1 = Group::new(1, n).unwrap();
    let g0 = Group::new(0, n).unwrap();

    use allgather::Algo as Ag;
    let ag = |algo| allgather::machine_with(g1, vec![0; 5], bb.clone(), algo).unwrap();
    // Ring: block 0 from the left neighbour 0 at step 0.
    probe(ag(Ag::Ring), 0, 0, 3, 2, "ring");
    // Recursive doubling: partner 0 at round 0.
    probe(ag(Ag::RecursiveDoubling), 0, 0, 3, 3, "recursive doubling");
    // Bruck: rank 2 at round 0 (we send to rank 0).
    probe(ag(Ag::Bruck), 2, 0, 7, 0, "bruck");
    for algo in [Ag::Ring, Ag::RecursiveDoubling, Ag::Bruck] {
        unfinished(ag(algo), &format!("allgather {algo:?}"));
    }

    // Gather at root 0: rank 1 sends its block at step 0 in both algorithms.
    for algo in [gather::Algo::Linear, gather::Algo::Binomial] {
        let m = || gather::machine_with(g0, 0, vec![0; 3], bb.clone(), algo).unwrap();
        probe(m(), 1, 0, 5, 0, &format!("gather {algo:?}"));
        unfinished(m(), &format!("gather {algo:?}"));
        // A non-root never receives.
        let mut leaf = gather::machine_with(g1, 0, vec![0; 5], bb.clone(), algo).unwrap();
        leaf.start(&mut Outbox::new()).unwrap();
        let e = leaf.deliver(msg(0, 0, 3), &mut Outbox::new()).unwrap_err();
        assert!(matches!(e, ProtoError::UnexpectedMessage { .. }), "{e}");
    }

    // Scatter from root 0 to rank 1: linear at step 0, binomial at step ceil(log2 4) - 1 = 1.
    for (algo, step) in [(scatter::Algo::Linear, 0), (scatter::Algo::Binomial, 1)] {
        let m = || scatter::machine_with(g1, 0, vec![], bb.clone(), algo).unwrap();
        probe(m(), 0, step, 5, 2, &format!("scatter {algo:?}"));
        unfinished(m(), &format!("scatter {algo:?}"));
    }

    // Alltoall at rank 1: rank 0's block arrives at step 0; rank 2's at step 2.
    for algo in [alltoall::Algo::Pairwise, alltoall::Algo::Scattered] {
        // Rank 1 sends bb (17 bytes, 5 to itself) and receives these.
        let recv = vec![4usize, 5, 6, 1];
        let m = || alltoall::machine_with(g1, vec![0; 17], bb.clone(), recv.clone(), algo).unwrap();
        probe(m(), 0, 0, 4, 2, &format!("alltoall {algo:?}"));
        probe(m(), 2, 2, 6, 1, &format!("alltoall {algo:?} self"));
        unfinished(m(), &format!("alltoall {algo:?}"));
    }
}

#[test]
fn disagreeing_ranks_fail_instead_of_hanging() {
    let n = 5;
    // allgather: rank 0 believes its block is 3 bytes, everyone else 2.
    for algo in [allgather::Algo::Ring, allgather::Algo::Bruck] {
        let res = sim::run(n, 4, |r| {
            let bb = if r == 0 {
                vec![3, 2, 2, 2, 2]
            } else {
                vec![2; 5]
            };
            let data = vec![0u8; bb[r as usize]];
            allgather::machine_with(Group::new(r, n)?, data, bb, algo)
        });
        assert!(
            matches!(
                res,
                Err(SimError::Machine {
                    err: ProtoError::LengthMismatch { .. },
                    ..
                })
            ),
            "{algo:?}: {res:?}"
        );
    }
    // alltoall: rank 0 sends rank 1 nothing, but rank 1 expects 2 bytes (an empty block is
    // still a message, so this is a length error, not a hang).
    let res = sim::run(n, 4, |r| {
        let mut send = vec![2usize; 5];
        if r == 0 {
            send[1] = 0;
        }
        let data = vec![0u8; send.iter().sum()];
        alltoall::machine_with(
            Group::new(r, n)?,
            data,
            send,
            vec![2; 5],
            alltoall::Algo::Pairwise,
        )
    });
    assert!(
        matches!(
            res,
            Err(SimError::Machine {
                rank: 1,
                err: ProtoError::LengthMismatch { .. },
            })
        ),
        "{res:?}"
    );
}
