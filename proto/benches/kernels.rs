//! Reduction kernel throughput (sum of f32/f64/i32/i64, max of f32/f64/i32) against
//! `copy_from_slice` (memcpy) of the same sizes as the baseline.
//!
//! Throughput counts the bytes of one operand: a reduction reads `acc` and `inc` and writes `acc`
//! (three passes over that many bytes), a copy reads one buffer and writes another (two).
//!
//! Run: `cargo bench -p nexar-proto --bench kernels -- --warm-up-time 1 --measurement-time 2`

use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};
use nexar_proto::kernels::{Order, reduce_into};
use nexar_proto::{Datatype, ReduceOp};
use std::hint::black_box;

/// Buffer sizes: L1-resident, L2-resident, and larger than most last-level caches.
const SIZES: [(usize, &str); 3] = [
    (4 << 10, "4KiB"),
    (256 << 10, "256KiB"),
    (16 << 20, "16MiB"),
];

/// An 8-byte aligned buffer of `bytes` bytes holding `value` in every element of `dtype`, so the
/// fast kernels run (and float sums stay normal: no subnormal slow paths).
fn filled(dtype: Datatype, bytes: usize, value: u8) -> Vec<u64> {
    let mut store = vec![0u64; bytes / 8];
    let raw: &mut [u8] = bytemuck::cast_slice_mut(&mut store);
    for e in raw.chunks_exact_mut(dtype.size()) {
        match dtype {
            Datatype::F32 => e.copy_from_slice(&f32::from(value).to_ne_bytes()),
            Datatype::F64 => e.copy_from_slice(&f64::from(value).to_ne_bytes()),
            Datatype::I32 => e.copy_from_slice(&i32::from(value).to_ne_bytes()),
            Datatype::I64 => e.copy_from_slice(&i64::from(value).to_ne_bytes()),
            _ => unreachable!("only benchmarked types"),
        }
    }
    store
}

fn kernels(c: &mut Criterion) {
    let mut g = c.benchmark_group("memcpy");
    for (bytes, label) in SIZES {
        let src = vec![1u8; bytes];
        let mut dst = vec![0u8; bytes];
        g.throughput(Throughput::Bytes(bytes as u64));
        g.bench_function(BenchmarkId::from_parameter(label), |b| {
            b.iter(|| dst.copy_from_slice(black_box(&src)))
        });
    }
    g.finish();

    let sums =
        [Datatype::F32, Datatype::F64, Datatype::I32, Datatype::I64].map(|d| (ReduceOp::Sum, d));
    let maxes = [Datatype::F32, Datatype::F64, Datatype::I32].map(|d| (ReduceOp::Max, d));
    for (op, dtype) in sums.into_iter().chain(maxes) {
        let name = if op == ReduceOp::Sum { "sum" } else { "max" };
        let mut g = c.benchmark_group(format!("{name}_{dtype}"));
        for (bytes, label) in SIZES {
            let mut acc = filled(dtype, bytes, 0);
            let inc = filled(dtype, bytes, 1);
            let (acc, inc): (&mut [u8], &[u8]) = (
                bytemuck::cast_slice_mut(&mut acc),
                bytemuck::cast_slice(&inc),
            );
            g.throughput(Throughput::Bytes(bytes as u64));
            g.bench_function(BenchmarkId::from_parameter(label), |b| {
                b.iter(|| reduce_into(op, dtype, acc, black_box(inc), Order::AccFirst))
            });
        }
        g.finish();
    }

    // The scalar fallback misaligned buffers get, for comparison.
    let mut g = c.benchmark_group("sum_f32_misaligned");
    for (bytes, label) in SIZES {
        let mut acc = filled(Datatype::F32, bytes + 8, 0);
        let inc = filled(Datatype::F32, bytes + 8, 1);
        let acc = &mut bytemuck::cast_slice_mut::<u64, u8>(&mut acc)[1..bytes + 1];
        let inc = &bytemuck::cast_slice::<u64, u8>(&inc)[1..bytes + 1];
        g.throughput(Throughput::Bytes(bytes as u64));
        g.bench_function(BenchmarkId::from_parameter(label), |b| {
            b.iter(|| {
                reduce_into(
                    ReduceOp::Sum,
                    Datatype::F32,
                    acc,
                    black_box(inc),
                    Order::AccFirst,
                )
            })
        });
    }
    g.finish();
}

/// Criterion's generated entry points, kept in a private module (they are `pub fn`s without docs).
mod group {
    criterion::criterion_group!(benches, super::kernels);
}

criterion_main!(group::benches);
