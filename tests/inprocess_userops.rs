//! User-defined reductions through the engine's byte-level starts (`start_*_with`) over the
//! in-memory transport at 1 to 5 ranks: a non-commutative op (2x2 wrapping u32 matrix product)
//! must give the rank-ordered product on every path, and `reduce_local` exposes the kernels.

mod common;

use common::run_ok;
use nexar::{CustomOp, Datatype, ErrorKind, Order, ReduceOp, Reducer};
use std::sync::Arc;

/// 2x2 matrices of wrapping u32, row-major, 16 bytes each; `acc ⊕ inc` is the product.
#[derive(Debug)]
struct MatMul;

type M = [u32; 4];

fn mul(a: M, b: M) -> M {
    let f = |x: u32, y: u32, z: u32, w: u32| x.wrapping_mul(y).wrapping_add(z.wrapping_mul(w));
    [
        f(a[0], b[0], a[1], b[2]),
        f(a[0], b[1], a[1], b[3]),
        f(a[2], b[0], a[3], b[2]),
        f(a[2], b[1], a[3], b[3]),
    ]
}

fn to_bytes(ms: &[M]) -> Vec<u8> {
    ms.iter().flatten().flat_map(|v| v.to_ne_bytes()).collect()
}

fn from_bytes(b: &[u8]) -> Vec<M> {
    b.chunks_exact(16)
        .map(|c| {
            std::array::from_fn(|i| u32::from_ne_bytes(c[i * 4..i * 4 + 4].try_into().unwrap()))
        })
        .collect()
}

impl CustomOp for MatMul {
    fn combine(&self, acc: &mut [u8], inc: &[u8], order: Order) {
        let (a, i) = (from_bytes(acc), from_bytes(inc));
        let out: Vec<M> = a
            .iter()
            .zip(&i)
            .map(|(&a, &i)| match order {
                Order::AccFirst => mul(a, i),
                Order::IncFirst => mul(i, a),
            })
            .collect();
        acc.copy_from_slice(&to_bytes(&out));
    }
    fn elem_size(&self) -> usize {
        16
    }
    fn commutative(&self) -> bool {
        false
    }
}

fn reducer() -> Reducer {
    Reducer::custom(Arc::new(MatMul))
}

/// Rank `r`'s `count` matrices: distinct, non-commuting, deterministic.
fn input(r: u32, count: usize) -> Vec<M> {
    (0..count as u32)
        .map(|i| [1 + r, 2 * i + r, 3 + i * r, 1 + (r ^ i)])
        .collect()
}

/// Element-wise product `x[lo] * x[lo+1] * ... * x[hi-1]` in rank order.
fn ordered(lo: u32, hi: u32, count: usize) -> Vec<M> {
    let mut acc = input(lo, count);
    for r in lo + 1..hi {
        acc = acc
            .iter()
            .zip(input(r, count))
            .map(|(&a, b)| mul(a, b))
            .collect();
    }
    acc
}

fn wait(p: nexar::PendingCollective, out: &mut [u8]) -> nexar::Result<()> {
    pollster::block_on(p.finish_into(out))
}

#[test]
fn non_commutative_reductions_keep_the_rank_order() {
    for n in 1..=5usize {
        run_ok(n, |ctx| {
            let w = ctx.world();
            let (me, n) = (w.rank(), w.size());
            for count in [0, 1, 7, 5000] {
                let send = to_bytes(&input(me, count));
                let mut out = vec![0u8; send.len()];
                wait(w.start_allreduce_with(&send, reducer())?, &mut out)?;
                assert_eq!(from_bytes(&out), ordered(0, n, count), "allreduce n={n}");
                for root in 0..n {
                    let mut out = vec![0u8; send.len()];
                    wait(w.start_reduce_with(&send, reducer(), root)?, &mut out)?;
                    if me == root {
                        assert_eq!(from_bytes(&out), ordered(0, n, count), "reduce root={root}");
                    }
                }
                let mut out = vec![0u8; send.len()];
                wait(w.start_scan_with(&send, reducer(), false)?, &mut out)?;
                assert_eq!(from_bytes(&out), ordered(0, me + 1, count), "scan");
                let mut out = vec![9u8; send.len()];
                wait(w.start_scan_with(&send, reducer(), true)?, &mut out)?;
                if me == 0 {
                    assert!(out.iter().all(|&b| b == 9), "exscan leaves rank 0 alone");
                } else {
                    assert_eq!(from_bytes(&out), ordered(0, me, count), "exscan");
                }
            }
            // Reduce-scatter with uneven blocks.
            let counts: Vec<usize> = (0..n as usize).map(|r| (r * 3 + 1) % 4).collect();
            let total: usize = counts.iter().sum();
            let send = to_bytes(&input(me, total));
            let mine = counts[me as usize];
            let mut out = vec![0u8; mine * 16];
            wait(
                w.start_reduce_scatter_with(&send, &counts, reducer())?,
                &mut out,
            )?;
            let start: usize = counts[..me as usize].iter().sum();
            assert_eq!(
                from_bytes(&out),
                ordered(0, n, total)[start..start + mine],
                "reduce_scatter"
            );
            Ok(())
        });
    }
}

#[test]
fn custom_reducer_errors_are_reported() {
    run_ok(2, |ctx| {
        let w = ctx.world();
        // Not a whole number of 16-byte elements.
        let err = w.start_allreduce_with(&[0; 20], reducer()).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidArgument);
        let err = w.start_reduce_with(&[0; 16], reducer(), 7).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidRoot);
        Ok(())
    });
}

#[test]
fn reduce_local_puts_the_input_on_the_left() {
    let a = [[1, 1, 0, 1]];
    let b = [[1, 0, 1, 1]];
    let mut inout = to_bytes(&b);
    nexar::reduce_local_with(&reducer(), &to_bytes(&a), &mut inout).unwrap();
    assert_eq!(from_bytes(&inout), vec![mul(a[0], b[0])]);
    assert_ne!(mul(a[0], b[0]), mul(b[0], a[0]));
    let x: Vec<u8> = [5i32, -2].iter().flat_map(|v| v.to_ne_bytes()).collect();
    let mut y: Vec<u8> = [3i32, 4].iter().flat_map(|v| v.to_ne_bytes()).collect();
    nexar::reduce_local(ReduceOp::Max, Datatype::I32, &x, &mut y).unwrap();
    let want: Vec<u8> = [5i32, 4].iter().flat_map(|v| v.to_ne_bytes()).collect();
    assert_eq!(y, want);
}
