//! Every collective over the in-memory transport, checked against a sequential reference
//! computed locally from the (deterministic) inputs of every rank.

mod common;

use common::run_ok;
use nexar::{ErrorKind, IntInt, ReduceOp};

const SIZES: [usize; 7] = [1, 2, 3, 4, 5, 7, 8];

fn lengths(n: usize) -> Vec<usize> {
    let mut v = vec![0, 1, n.saturating_sub(1), n + 1, 1000 * n + 3];
    v.dedup();
    v
}

/// Rank r's input element i: small integers, exact in every type used here.
fn val(r: u32, i: usize) -> i64 {
    ((r as i64 * 7 + i as i64 * 3) % 11) - 5
}

fn input(r: u32, len: usize) -> Vec<i64> {
    (0..len).map(|i| val(r, i)).collect()
}

#[test]
fn barrier_and_bcast_every_root() {
    for n in SIZES {
        run_ok(n, |ctx| {
            let w = ctx.world();
            w.barrier_blocking()?;
            for root in 0..n as u32 {
                for len in lengths(n) {
                    let mut buf = if w.rank() == root {
                        input(root, len)
                    } else {
                        vec![0; len]
                    };
                    w.bcast_blocking(&mut buf, root)?;
                    assert_eq!(buf, input(root, len), "n={n} root={root} len={len}");
                }
            }
            Ok(())
        });
    }
}

#[test]
fn reduce_and_allreduce_match_the_sequential_sum() {
    for n in SIZES {
        run_ok(n, |ctx| {
            let w = ctx.world();
            for len in lengths(n) {
                let want: Vec<i64> = (0..len)
                    .map(|i| (0..n as u32).map(|r| val(r, i)).sum())
                    .collect();
                let mut v = input(w.rank(), len);
                w.allreduce_blocking(&mut v, ReduceOp::Sum)?;
                assert_eq!(v, want, "allreduce n={n} len={len}");
                let root = (len % n) as u32;
                let mut out = vec![0i64; len];
                w.reduce_blocking(&input(w.rank(), len), &mut out, ReduceOp::Sum, root)?;
                if w.rank() == root {
                    assert_eq!(out, want, "reduce n={n} len={len}");
                } else {
                    assert!(out.iter().all(|&x| x == 0), "non-root buffer untouched");
                }
            }
            let mut m = [IntInt::new(w.rank() as i32 % 2, w.rank() as i32)];
            w.allreduce_blocking(&mut m, ReduceOp::MaxLoc)?;
            let want = if n > 1 {
                IntInt::new(1, 1)
            } else {
                IntInt::new(0, 0)
            };
            assert_eq!(m[0], want);
            Ok(())
        });
    }
}

#[test]
fn allreduce_floats_are_bitwise_identical_on_every_rank() {
    for n in [3usize, 5, 8] {
        let outs = run_ok(n, |ctx| {
            let w = ctx.world();
            let mut v: Vec<f32> = (0..50_000)
                .map(|i| {
                    ((i * 7919 + w.rank() as usize * 104_729) % 1000) as f32 * 1e-3
                        + 1e3 * (i % 3) as f32
                })
                .collect();
            w.allreduce_blocking(&mut v, ReduceOp::Sum)?;
            Ok(v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>())
        });
        assert!(outs.windows(2).all(|p| p[0] == p[1]), "n={n}");
    }
}

#[test]
fn gathers_and_scatters() {
    for n in SIZES {
        run_ok(n, |ctx| {
            let w = ctx.world();
            let me = w.rank();
            for len in lengths(n) {
                let all: Vec<i64> = (0..n as u32).flat_map(|r| input(r, len)).collect();
                let mut out = vec![0i64; len * n];
                w.allgather_blocking(&input(me, len), &mut out)?;
                assert_eq!(out, all, "allgather n={n} len={len}");
                let root = (n - 1) as u32;
                let mut out = vec![0i64; if me == root { len * n } else { 0 }];
                w.gather_blocking(&input(me, len), &mut out, root)?;
                if me == root {
                    assert_eq!(out, all, "gather n={n} len={len}");
                }
                let mut mine = vec![0i64; len];
                let send = if me == 0 { all.clone() } else { vec![] };
                w.scatter_blocking(&send, &mut mine, 0)?;
                assert_eq!(mine, input(me, len), "scatter n={n} len={len}");
                let mut out = vec![0i64; len * n];
                let send: Vec<i64> = (0..n as u32)
                    .flat_map(|r| input(me * 100 + r, len))
                    .collect();
                w.alltoall_blocking(&send, &mut out)?;
                let want: Vec<i64> = (0..n as u32)
                    .flat_map(|r| input(r * 100 + me, len))
                    .collect();
                assert_eq!(out, want, "alltoall n={n} len={len}");
            }
            Ok(())
        });
    }
}

#[test]
fn v_variants_with_displacements() {
    for n in SIZES {
        run_ok(n, |ctx| {
            let w = ctx.world();
            let me = w.rank() as usize;
            let counts: Vec<usize> = (0..n).map(|r| (r * 3) % 4).collect();
            // Reverse order with a one-element gap between blocks.
            let mut displs = vec![0; n];
            let mut at = 0;
            for r in (0..n).rev() {
                displs[r] = at;
                at += counts[r] + 1;
            }
            let total = at;
            let mine = input(me as u32, counts[me]);
            let mut expect = vec![-99i64; total];
            for r in 0..n {
                expect[displs[r]..displs[r] + counts[r]]
                    .copy_from_slice(&input(r as u32, counts[r]));
            }
            let mut out = vec![-99i64; total];
            w.allgatherv_blocking(&mine, &mut out, &counts, Some(&displs))?;
            assert_eq!(out, expect, "allgatherv n={n}");
            let mut out = vec![-99i64; total];
            w.gatherv_blocking(&mine, &mut out, &counts, Some(&displs), 0)?;
            if me == 0 {
                assert_eq!(out, expect, "gatherv n={n}");
            }
            let mut got = vec![0i64; counts[me]];
            w.scatterv_blocking(&expect, &counts, Some(&displs), &mut got, 0)?;
            assert_eq!(got, mine, "scatterv n={n}");
            // alltoallv: rank s sends (s + d) % 3 elements to rank d.
            let sc: Vec<usize> = (0..n).map(|d| (me + d) % 3).collect();
            let rc: Vec<usize> = (0..n).map(|s| (s + me) % 3).collect();
            let send: Vec<i64> = (0..n)
                .flat_map(|d| input((me * 100 + d) as u32, sc[d]))
                .collect();
            let mut recv = vec![0i64; rc.iter().sum()];
            w.alltoallv_blocking(&send, &sc, None, &mut recv, &rc, None)?;
            let want: Vec<i64> = (0..n)
                .flat_map(|s| input((s * 100 + me) as u32, rc[s]))
                .collect();
            assert_eq!(recv, want, "alltoallv n={n}");
            Ok(())
        });
    }
}

#[test]
fn reduce_scatter_and_scans() {
    for n in SIZES {
        run_ok(n, |ctx| {
            let w = ctx.world();
            let me = w.rank();
            let counts: Vec<usize> = (0..n).map(|r| r % 3).collect();
            let total: usize = counts.iter().sum();
            let sum: Vec<i64> = (0..total)
                .map(|i| (0..n as u32).map(|r| val(r, i)).sum())
                .collect();
            let start: usize = counts[..me as usize].iter().sum();
            let mut out = vec![0i64; counts[me as usize]];
            w.reduce_scatter_blocking(&input(me, total), &mut out, &counts, ReduceOp::Sum)?;
            assert_eq!(
                out,
                sum[start..start + counts[me as usize]],
                "reduce_scatter n={n}"
            );
            let mut out = vec![0i64; 3];
            w.reduce_scatter_block_blocking(&input(me, 3 * n), &mut out, ReduceOp::Sum)?;
            let want: Vec<i64> = (3 * me as usize..3 * me as usize + 3)
                .map(|i| (0..n as u32).map(|r| val(r, i)).sum())
                .collect();
            assert_eq!(out, want, "reduce_scatter_block n={n}");
            let mut out = vec![0i64; 5];
            w.scan_blocking(&input(me, 5), &mut out, ReduceOp::Sum)?;
            let want: Vec<i64> = (0..5).map(|i| (0..=me).map(|r| val(r, i)).sum()).collect();
            assert_eq!(out, want, "scan n={n}");
            let mut out = vec![7i64; 5];
            w.exscan_blocking(&input(me, 5), &mut out, ReduceOp::Sum)?;
            if me == 0 {
                assert_eq!(out, vec![7; 5], "exscan leaves rank 0 untouched");
            } else {
                let want: Vec<i64> = (0..5).map(|i| (0..me).map(|r| val(r, i)).sum()).collect();
                assert_eq!(out, want, "exscan n={n}");
            }
            Ok(())
        });
    }
}

#[test]
fn nonblocking_collectives_overlap_and_keep_program_order() {
    run_ok(4, |ctx| {
        let w = ctx.world();
        let me = w.rank() as i64;
        let a = w.iallreduce(vec![me; 10], ReduceOp::Sum)?;
        let b = w.ibcast(vec![me; 3], 2)?;
        let c = w.ibarrier()?;
        let d = w.iallgather(&[me])?;
        let mut e = w.iallreduce(vec![1i64; 100_000], ReduceOp::Sum)?;
        c.wait()?;
        assert_eq!(d.wait()?, vec![0, 1, 2, 3]);
        assert_eq!(b.wait()?, vec![2; 3]);
        assert_eq!(a.wait()?, vec![6; 10]);
        while !e.test() {
            std::thread::yield_now();
        }
        assert!(e.wait()?.iter().all(|&x| x == 4));
        Ok(())
    });
}

#[test]
fn communicators_split_dup_and_stay_apart() {
    let out = run_ok(6, |ctx| {
        let w = ctx.world();
        let me = w.rank();
        // Two colors, keys reversing the order inside each color.
        let sub = w
            .split_blocking(Some(me % 2), -(me as i32))?
            .expect("has a color");
        assert_eq!(sub.size(), 3);
        let dup = sub.dup_blocking()?;
        assert_ne!(dup.context_id(), sub.context_id());
        // Concurrent traffic on sub and dup with the same tags must not mix.
        let mut a = vec![sub.rank() as i64];
        let mut b = vec![100 + sub.rank() as i64];
        sub.allreduce_blocking(&mut a, ReduceOp::Sum)?;
        dup.allreduce_blocking(&mut b, ReduceOp::Sum)?;
        assert_eq!((a[0], b[0]), (3, 303));
        let none = w.split_blocking(if me == 0 { None } else { Some(7) }, 0)?;
        assert_eq!(none.is_none(), me == 0);
        if let Some(c) = &none {
            assert_eq!(c.size(), 5);
        }
        let host = w.split_by_host_blocking(0)?;
        assert_eq!(host.size(), 6, "one host in process");
        Ok((sub.rank(), ctx.self_comm().size()))
    });
    // Key = -rank, so the highest world rank of each color is rank 0.
    assert_eq!(
        out.iter().map(|x| x.0).collect::<Vec<_>>(),
        vec![2, 2, 1, 1, 0, 0]
    );
    assert!(out.iter().all(|x| x.1 == 1));
}

#[test]
fn invalid_collective_arguments_are_errors_not_panics() {
    common::run_ranks(3, |ctx| {
        let w = ctx.world();
        let mut v = [1i32; 4];
        assert_eq!(
            w.bcast_blocking(&mut v, 3).unwrap_err().kind(),
            ErrorKind::InvalidRoot
        );
        assert_eq!(
            w.reduce_blocking(&[1.0f32], &mut [0.0], ReduceOp::Band, 0)
                .unwrap_err()
                .kind(),
            ErrorKind::InvalidOp
        );
        assert_eq!(
            w.allgather_blocking(&[1u8], &mut [0u8; 2])
                .unwrap_err()
                .kind(),
            ErrorKind::InvalidCount
        );
        assert_eq!(
            w.alltoall_blocking(&[1u8; 4], &mut [0u8; 4])
                .unwrap_err()
                .kind(),
            ErrorKind::InvalidCount
        );
        let e = w
            .allgatherv_blocking(&[1u8], &mut [0u8; 2], &[1, 1], None)
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidCount);
        let e = w
            .allgatherv_blocking(&[1u8], &mut [0u8; 3], &[1, 1, usize::MAX], None)
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidCount);
        // (An error on some ranks only, such as bad gatherv counts at the root, desynchronizes
        // the collective sequence; detecting that is the mismatched-collective work.)
        // After the errors nothing is left half-started: a real collective still works.
        let mut s = [w.rank() as i32];
        w.allreduce_blocking(&mut s, ReduceOp::Sum).unwrap();
        assert_eq!(s[0], 3);
    });
}
