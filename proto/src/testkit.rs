//! Helpers shared by the algorithm tests: the rank counts, lengths and seeds every collective is
//! checked with, deterministic inputs, and a sequential reference reduction.

use crate::prelude::*;

use crate::datatype::Datatype;
use crate::kernels::{Order, reference};
use crate::op::ReduceOp;
use crate::sim::SimRng;

/// Rank counts every algorithm is tested at: 1..=17 (primes, powers of two and neither).
pub fn rank_counts() -> impl Iterator<Item = u32> {
    1..=17
}

/// Delivery-order seeds every algorithm is tested with.
pub fn seeds() -> impl Iterator<Item = u64> {
    0..20
}

/// Element counts to test at `p` ranks: 0, 1, p-1, p+1 and a large count that is not a
/// multiple of `p`.
pub fn lengths(p: u32) -> Vec<usize> {
    let p = p as usize;
    let mut v = vec![0, 1, p.saturating_sub(1), p + 1, 1000 * p + 7];
    v.dedup();
    v
}

/// Deterministic input of `count` elements of `dtype` for `rank`: small values, so sums and
/// products of up to 17 ranks stay exact in every type, and every pair index is the rank.
pub fn input(dtype: Datatype, rank: u32, count: usize, salt: u64) -> Vec<u8> {
    let mut rng = SimRng::new(salt ^ ((rank as u64) << 32) ^ count as u64);
    let mut out = Vec::with_capacity(count * dtype.size());
    for _ in 0..count {
        let v = (rng.next_u64() % 3) as i64; // 0, 1 or 2
        let mut elem = vec![0u8; dtype.size()];
        match dtype {
            Datatype::I8 => elem.copy_from_slice(&(v as i8).to_ne_bytes()),
            Datatype::U8 => elem.copy_from_slice(&(v as u8).to_ne_bytes()),
            Datatype::I16 => elem.copy_from_slice(&(v as i16).to_ne_bytes()),
            Datatype::U16 => elem.copy_from_slice(&(v as u16).to_ne_bytes()),
            Datatype::I32 => elem.copy_from_slice(&(v as i32).to_ne_bytes()),
            Datatype::U32 => elem.copy_from_slice(&(v as u32).to_ne_bytes()),
            Datatype::I64 => elem.copy_from_slice(&v.to_ne_bytes()),
            Datatype::U64 => elem.copy_from_slice(&(v as u64).to_ne_bytes()),
            Datatype::F16 => elem.copy_from_slice(&half::f16::from_f32(v as f32).to_ne_bytes()),
            Datatype::Bf16 => elem.copy_from_slice(&half::bf16::from_f32(v as f32).to_ne_bytes()),
            Datatype::F32 => elem.copy_from_slice(&(v as f32).to_ne_bytes()),
            Datatype::F64 => elem.copy_from_slice(&(v as f64).to_ne_bytes()),
            Datatype::F32I32 => elem[..4].copy_from_slice(&(v as f32).to_ne_bytes()),
            Datatype::F64I32 => elem[..8].copy_from_slice(&(v as f64).to_ne_bytes()),
            Datatype::I32I32 => elem[..4].copy_from_slice(&(v as i32).to_ne_bytes()),
            Datatype::I64I32 => elem[..8].copy_from_slice(&v.to_ne_bytes()),
            Datatype::I16I32 => elem[..2].copy_from_slice(&(v as i16).to_ne_bytes()),
        }
        if let Some(off) = dtype.index_offset() {
            elem[off..off + 4].copy_from_slice(&(rank as i32).to_ne_bytes());
        }
        out.extend_from_slice(&elem);
    }
    out
}

/// Deterministic bytes for data-movement tests: distinct per (rank, position).
pub fn bytes(rank: u32, len: usize, salt: u64) -> Vec<u8> {
    let mut rng = SimRng::new(salt.wrapping_mul(31) ^ rank as u64);
    (0..len).map(|_| rng.next_u64() as u8).collect()
}

/// The sequential reference: `inputs[0] ⊕ inputs[1] ⊕ ... ⊕ inputs[k]`, left to right.
pub fn seq_reduce(op: ReduceOp, dtype: Datatype, inputs: &[Vec<u8>]) -> Vec<u8> {
    let mut acc = inputs[0].clone();
    for inc in &inputs[1..] {
        reference::reduce_unchecked(op, dtype, &mut acc, inc, Order::AccFirst);
    }
    acc
}

/// (dtype, op) pairs the reduction algorithms are tested with: every op on a representative
/// type, plus every type under sum (or minloc for pairs).
pub fn reduction_cases() -> Vec<(Datatype, ReduceOp)> {
    let mut v: Vec<(Datatype, ReduceOp)> = ReduceOp::ALL
        .iter()
        .map(|&op| {
            if op.accepts(Datatype::I32) {
                (Datatype::I32, op)
            } else {
                (Datatype::F64I32, op)
            }
        })
        .collect();
    for dt in Datatype::ALL {
        v.push((
            dt,
            if dt.is_pair() {
                ReduceOp::MaxLoc
            } else {
                ReduceOp::Sum
            },
        ));
    }
    v.push((Datatype::F32, ReduceOp::Prod));
    v.push((Datatype::F64, ReduceOp::Min));
    v
}
