//! Reduction kernels: the fast kernels against the scalar reference (bitwise, every valid
//! (datatype, op), both orders, aligned and misaligned buffers), argument errors, and a few
//! hand-computed results per operator.

use bytemuck::Pod;
use half::{bf16, f16};
use nexar_proto::kernels::{Order, fast, reduce_into, reference};
use nexar_proto::sim::SimRng;
use nexar_proto::{Datatype, ProtoError, ReduceOp};
use proptest::prelude::*;

const ORDERS: [Order; 2] = [Order::AccFirst, Order::IncFirst];
const LENGTHS: [usize; 10] = [0, 1, 3, 7, 8, 15, 16, 17, 1000, 1023];
const FLOAT_OPS: [ReduceOp; 4] = [ReduceOp::Sum, ReduceOp::Prod, ReduceOp::Min, ReduceOp::Max];

/// Bytes at a chosen offset from an 8-byte aligned allocation: offset 0 is aligned for every
/// scalar type, offset 1 for none wider than a byte.
struct Buf {
    store: Vec<u64>,
    off: usize,
    len: usize,
}

impl Buf {
    fn new(data: &[u8], off: usize) -> Self {
        let mut store = vec![0u64; (data.len() + off).div_ceil(8) + 1];
        bytemuck::cast_slice_mut::<u64, u8>(&mut store)[off..off + data.len()]
            .copy_from_slice(data);
        Buf {
            store,
            off,
            len: data.len(),
        }
    }

    fn bytes(&self) -> &[u8] {
        &bytemuck::cast_slice::<u64, u8>(&self.store)[self.off..self.off + self.len]
    }

    fn bytes_mut(&mut self) -> &mut [u8] {
        &mut bytemuck::cast_slice_mut::<u64, u8>(&mut self.store)[self.off..self.off + self.len]
    }
}

fn random_bytes(rng: &mut SimRng, len: usize) -> Vec<u8> {
    (0..len).map(|_| rng.next_u64() as u8).collect()
}

/// The reference result of `acc ⊕ inc`.
fn expected(op: ReduceOp, dt: Datatype, acc: &[u8], inc: &[u8], order: Order) -> Vec<u8> {
    let mut out = acc.to_vec();
    reference::reduce_unchecked(op, dt, &mut out, inc, order);
    out
}

/// Whether `fast::try_reduce` must take (`op`, `dt`) for buffers at byte offset `off`.
fn has_fast_path(dt: Datatype, off: usize) -> bool {
    (dt.is_integer() || matches!(dt, Datatype::F32 | Datatype::F64))
        && off.is_multiple_of(dt.size())
}

/// Runs `fast::try_reduce` and `reduce_into` on copies at offset `off` and checks both against the
/// reference bit for bit; also checks `try_reduce` took exactly the cases it should.
fn check_case(op: ReduceOp, dt: Datatype, acc: &[u8], inc: &[u8], order: Order, off: usize) {
    let want = expected(op, dt, acc, inc, order);
    let ctx = || {
        format!(
            "{op} on {dt}, {order:?}, {} bytes at offset {off}",
            acc.len()
        )
    };

    let (mut a, b) = (Buf::new(acc, off), Buf::new(inc, off));
    reduce_into(op, dt, a.bytes_mut(), b.bytes(), order).unwrap();
    assert_eq!(a.bytes(), &want[..], "reduce_into: {}", ctx());

    let (mut a, b) = (Buf::new(acc, off), Buf::new(inc, off));
    let took = fast::try_reduce(op, dt, a.bytes_mut(), b.bytes(), order);
    assert_eq!(took, has_fast_path(dt, off), "fast path taken: {}", ctx());
    if took {
        assert_eq!(a.bytes(), &want[..], "try_reduce: {}", ctx());
    } else {
        assert_eq!(
            a.bytes(),
            acc,
            "try_reduce touched acc without a fast path: {}",
            ctx()
        );
    }
}

#[test]
fn every_valid_pair_matches_reference() {
    let mut rng = SimRng::new(0x6b65_726e);
    let mut cases = 0;
    for dt in Datatype::ALL {
        for op in ReduceOp::ALL.into_iter().filter(|op| op.accepts(dt)) {
            for order in ORDERS {
                for n in LENGTHS {
                    let acc = random_bytes(&mut rng, n * dt.size());
                    let inc = random_bytes(&mut rng, n * dt.size());
                    for off in [0, 1] {
                        check_case(op, dt, &acc, &inc, order, off);
                        cases += 1;
                    }
                }
            }
        }
    }
    // 8 integer types x 10 ops + 4 floats x 4 ops + 5 pairs x 2 ops = 106 pairs.
    assert_eq!(cases, 106 * 2 * LENGTHS.len() * 2);
}

/// Bit patterns worth every combination: zeros of both signs, infinities, NaNs with different
/// signs and payloads (quiet and signalling), subnormals, extremes and ordinary numbers.
const F32_SPECIALS: [u32; 16] = [
    0x0000_0000, // +0
    0x8000_0000, // -0
    0x3f80_0000, // 1
    0xbf80_0000, // -1
    0x7f80_0000, // +inf
    0xff80_0000, // -inf
    0x7fc0_0000, // quiet NaN
    0xffc0_0000, // -quiet NaN
    0x7fc0_1234, // quiet NaN, payload
    0x7f80_0001, // signalling NaN
    0xff80_4321, // -signalling NaN, payload
    0x0000_0001, // smallest subnormal
    0x8000_0001, // -smallest subnormal
    0x7f7f_ffff, // MAX
    0x0080_0000, // MIN_POSITIVE
    0x4049_0fdb, // pi
];

const F64_SPECIALS: [u64; 16] = [
    0x0000_0000_0000_0000,
    0x8000_0000_0000_0000,
    0x3ff0_0000_0000_0000,
    0xbff0_0000_0000_0000,
    0x7ff0_0000_0000_0000,
    0xfff0_0000_0000_0000,
    0x7ff8_0000_0000_0000,
    0xfff8_0000_0000_0000,
    0x7ff8_0000_0000_1234,
    0x7ff0_0000_0000_0001,
    0xfff0_0000_0000_4321,
    0x0000_0000_0000_0001,
    0x8000_0000_0000_0001,
    0x7fef_ffff_ffff_ffff,
    0x0010_0000_0000_0000,
    0x4009_21fb_5444_2d18,
];

/// Every (left, right) pair of `specials`, as two buffers of `n * n` elements, so every
/// combination lands in a vectorised loop body as well as in a scalar tail.
fn all_pairs<T: Pod>(specials: &[T]) -> (Vec<u8>, Vec<u8>) {
    let (mut acc, mut inc) = (Vec::new(), Vec::new());
    for a in specials {
        for b in specials {
            acc.extend_from_slice(bytemuck::bytes_of(a));
            inc.extend_from_slice(bytemuck::bytes_of(b));
        }
    }
    (acc, inc)
}

#[test]
fn float_specials_match_reference_in_every_combination() {
    for (dt, (acc, inc)) in [
        (Datatype::F32, all_pairs(&F32_SPECIALS)),
        (Datatype::F64, all_pairs(&F64_SPECIALS)),
    ] {
        for op in FLOAT_OPS {
            for order in ORDERS {
                check_case(op, dt, &acc, &inc, order, 0);
                // Shifted by one element, so each pair sits in a different vector lane.
                let s = dt.size();
                check_case(op, dt, &acc[s..], &inc[s..], order, 0);
            }
        }
    }
}

/// Runs one typed reduction through `reduce_into` on aligned buffers.
fn reduce<T: Pod>(op: ReduceOp, dt: Datatype, acc: &[T], inc: &[T], order: Order) -> Vec<T> {
    let mut out = acc.to_vec();
    reduce_into(
        op,
        dt,
        bytemuck::cast_slice_mut(&mut out),
        bytemuck::cast_slice(inc),
        order,
    )
    .unwrap();
    out
}

#[test]
fn float_min_max_agree_with_std_where_std_is_deterministic() {
    let specials: Vec<f32> = F32_SPECIALS.iter().map(|&b| f32::from_bits(b)).collect();
    for &a in &specials {
        for &b in &specials {
            // `f32::min`/`max` leave ties (-0.0 vs +0.0) and NaN pairs unspecified.
            if a == b || (a.is_nan() && b.is_nan()) {
                continue;
            }
            for order in ORDERS {
                let (l, r) = match order {
                    Order::AccFirst => (a, b),
                    Order::IncFirst => (b, a),
                };
                let min = reduce(ReduceOp::Min, Datatype::F32, &[a], &[b], order)[0];
                let max = reduce(ReduceOp::Max, Datatype::F32, &[a], &[b], order)[0];
                assert_eq!(min.to_bits(), l.min(r).to_bits(), "min({l}, {r})");
                assert_eq!(max.to_bits(), l.max(r).to_bits(), "max({l}, {r})");
            }
        }
    }
}

#[test]
fn float_min_max_ties_and_nans_are_pinned_down() {
    let (neg, pos) = (-0.0f64, 0.0f64);
    let bits = |v: Vec<f64>| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    for op in [ReduceOp::Min, ReduceOp::Max] {
        // On a tie the left operand wins.
        let got = reduce(op, Datatype::F64, &[neg, pos], &[pos, neg], Order::AccFirst);
        assert_eq!(bits(got), bits(vec![neg, pos]), "{op} AccFirst");
        let got = reduce(op, Datatype::F64, &[neg, pos], &[pos, neg], Order::IncFirst);
        assert_eq!(bits(got), bits(vec![pos, neg]), "{op} IncFirst");
        // A NaN loses to a number on either side; of two NaNs the right one is kept unchanged.
        let (qnan, snan) = (
            f64::from_bits(0x7ff8_0000_0000_1234),
            f64::from_bits(0xfff0_0000_0000_0001),
        );
        for order in ORDERS {
            let got = reduce(op, Datatype::F64, &[qnan, 2.5], &[-1.0, snan], order);
            assert_eq!(got, vec![-1.0, 2.5], "{op} {order:?}");
        }
        let got = reduce(op, Datatype::F64, &[qnan], &[snan], Order::AccFirst);
        assert_eq!(got[0].to_bits(), snan.to_bits(), "{op} of two NaNs");
    }
}

#[test]
fn float_nan_results_are_canonical() {
    let (qa, sb) = (f32::from_bits(0x7fc0_1234), f32::from_bits(0xff80_4321));
    let (inf, ninf) = (f32::INFINITY, f32::NEG_INFINITY);
    for op in [ReduceOp::Sum, ReduceOp::Prod] {
        for order in ORDERS {
            // NaN pairs, a NaN and a number, and NaNs made from numbers (inf + -inf, 0 * inf).
            let acc = [qa, sb, qa, 1.0, inf, 0.0];
            let inc = [sb, qa, 2.0, sb, ninf, inf];
            let got = reduce(op, Datatype::F32, &acc, &inc, order);
            let want_nan = |i: usize| i < 4 || (i == 4) == (op == ReduceOp::Sum);
            for (i, g) in got.iter().enumerate().filter(|&(i, _)| want_nan(i)) {
                assert_eq!(
                    g.to_bits(),
                    f32::NAN.to_bits(),
                    "{op} {order:?} element {i}"
                );
            }
            let got = reduce(
                op,
                Datatype::F64,
                &[f64::from_bits(0xfff0_0000_0000_0001)],
                &[0.5],
                order,
            );
            assert_eq!(
                got[0].to_bits(),
                f64::NAN.to_bits(),
                "{op} {order:?} on f64"
            );
        }
    }
    let h = reduce(
        ReduceOp::Sum,
        Datatype::F16,
        &[f16::from_bits(0xfe01)],
        &[f16::ONE],
        Order::AccFirst,
    );
    assert_eq!(h[0].to_bits(), f16::from_f32(f32::NAN).to_bits());
}

/// Element strategy: mostly the special patterns, plus any bit pattern at all.
fn f32_bits() -> impl Strategy<Value = u32> {
    prop_oneof![prop::sample::select(F32_SPECIALS.to_vec()), any::<u32>()]
}

fn f64_bits() -> impl Strategy<Value = u64> {
    prop_oneof![
        prop::sample::select(F64_SPECIALS.to_vec()),
        any::<u64>(),
        // Ordinary magnitudes, where sums and products do not all overflow.
        (-1.0e6f64..1.0e6).prop_map(f64::to_bits),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn f32_random_bits_match_reference(
        pairs in prop::collection::vec((f32_bits(), f32_bits()), 0..80),
        op in prop::sample::select(FLOAT_OPS.to_vec()),
        order in prop::sample::select(ORDERS.to_vec()),
    ) {
        let acc: Vec<u32> = pairs.iter().map(|p| p.0).collect();
        let inc: Vec<u32> = pairs.iter().map(|p| p.1).collect();
        check_case(op, Datatype::F32, bytemuck::cast_slice(&acc), bytemuck::cast_slice(&inc), order, 0);
    }

    #[test]
    fn f64_random_bits_match_reference(
        pairs in prop::collection::vec((f64_bits(), f64_bits()), 0..80),
        op in prop::sample::select(FLOAT_OPS.to_vec()),
        order in prop::sample::select(ORDERS.to_vec()),
    ) {
        let acc: Vec<u64> = pairs.iter().map(|p| p.0).collect();
        let inc: Vec<u64> = pairs.iter().map(|p| p.1).collect();
        check_case(op, Datatype::F64, bytemuck::cast_slice(&acc), bytemuck::cast_slice(&inc), order, 0);
    }

    #[test]
    fn integer_random_bits_match_reference(
        dt in prop::sample::select(Datatype::ALL[..8].to_vec()),
        op in prop::sample::select(ReduceOp::ALL[..10].to_vec()),
        order in prop::sample::select(ORDERS.to_vec()),
        n in 0usize..70,
        seed in any::<u64>(),
    ) {
        let mut rng = SimRng::new(seed);
        let bytes = n * dt.size();
        let (acc, mut inc) = (random_bytes(&mut rng, bytes), random_bytes(&mut rng, bytes));
        // Zeros, so the logical operators see both truth values.
        for i in (0..bytes).step_by(3 * dt.size()) {
            inc[i..i + dt.size()].fill(0);
        }
        check_case(op, dt, &acc, &inc, order, 0);
    }
}

#[test]
fn invalid_ops_are_rejected() {
    let cases = [
        (ReduceOp::Band, Datatype::F32),
        (ReduceOp::Bxor, Datatype::F64),
        (ReduceOp::Land, Datatype::F16),
        (ReduceOp::Lor, Datatype::Bf16),
        (ReduceOp::MinLoc, Datatype::I32),
        (ReduceOp::MaxLoc, Datatype::F64),
        (ReduceOp::Sum, Datatype::F64I32),
        (ReduceOp::Max, Datatype::I32I32),
    ];
    for (op, dt) in cases {
        let mut acc = vec![7u8; 16];
        let got = reduce_into(op, dt, &mut acc, &[1u8; 16], Order::AccFirst);
        assert_eq!(
            got,
            Err(ProtoError::InvalidOp {
                op: op.name(),
                dtype: dt.name()
            })
        );
        assert_eq!(acc, vec![7u8; 16], "{op} on {dt} touched acc");
    }
}

#[test]
fn bad_lengths_are_rejected() {
    let is_invalid_argument =
        |r: Result<(), ProtoError>| matches!(r, Err(ProtoError::InvalidArgument(_)));
    let mut acc = vec![0u8; 8];
    // Operands of different lengths.
    assert!(is_invalid_argument(reduce_into(
        ReduceOp::Sum,
        Datatype::F32,
        &mut acc,
        &[0u8; 4],
        Order::AccFirst
    )));
    assert!(is_invalid_argument(reduce_into(
        ReduceOp::Sum,
        Datatype::I64,
        &mut acc,
        &[0u8; 16],
        Order::IncFirst
    )));
    // Partial elements.
    let mut acc = vec![0u8; 6];
    assert!(is_invalid_argument(reduce_into(
        ReduceOp::Sum,
        Datatype::F32,
        &mut acc,
        &[0u8; 6],
        Order::AccFirst
    )));
    let mut acc = vec![0u8; 12];
    assert!(is_invalid_argument(reduce_into(
        ReduceOp::MinLoc,
        Datatype::F64I32,
        &mut acc,
        &[0u8; 12],
        Order::AccFirst
    )));
    // Empty buffers are fine.
    assert_eq!(
        reduce_into(ReduceOp::Prod, Datatype::F64, &mut [], &[], Order::AccFirst),
        Ok(())
    );
}

#[test]
fn integer_ops_by_hand() {
    let i32s = |op, a: &[i32], b: &[i32]| reduce(op, Datatype::I32, a, b, Order::AccFirst);
    assert_eq!(i32s(ReduceOp::Land, &[0, 2, 3], &[1, 0, 5]), [0, 0, 1]);
    assert_eq!(
        i32s(ReduceOp::Lor, &[0, 0, 3, -4], &[0, 7, 0, 9]),
        [0, 1, 1, 1]
    );
    assert_eq!(
        i32s(ReduceOp::Lxor, &[0, 2, 3, 0], &[0, 0, 5, -9]),
        [0, 1, 0, 1]
    );
    assert_eq!(
        i32s(ReduceOp::Sum, &[i32::MAX, -5], &[1, 3]),
        [i32::MIN, -2]
    );
    assert_eq!(i32s(ReduceOp::Prod, &[-3, 1 << 30], &[7, 4]), [-21, 0]);
    assert_eq!(i32s(ReduceOp::Min, &[-3, 8], &[2, -9]), [-3, -9]);
    assert_eq!(i32s(ReduceOp::Max, &[-3, 8], &[2, -9]), [2, 8]);
    let u8s = |op, a: &[u8], b: &[u8]| reduce(op, Datatype::U8, a, b, Order::IncFirst);
    assert_eq!(u8s(ReduceOp::Band, &[0b1100], &[0b1010]), [0b1000]);
    assert_eq!(u8s(ReduceOp::Bor, &[0b1100], &[0b1010]), [0b1110]);
    assert_eq!(u8s(ReduceOp::Bxor, &[0b1100], &[0b1010]), [0b0110]);
    assert_eq!(u8s(ReduceOp::Prod, &[16, 3], &[16, 5]), [0, 15]);
    assert_eq!(u8s(ReduceOp::Sum, &[250], &[10]), [4]);
    let u64s = |op, a: &[u64], b: &[u64]| reduce(op, Datatype::U64, a, b, Order::AccFirst);
    assert_eq!(u64s(ReduceOp::Max, &[u64::MAX, 1], &[0, 2]), [u64::MAX, 2]);
    assert_eq!(u64s(ReduceOp::Land, &[1 << 63, 0], &[2, 2]), [1, 0]);
    let i16s = |op, a: &[i16], b: &[i16]| reduce(op, Datatype::I16, a, b, Order::AccFirst);
    assert_eq!(
        i16s(ReduceOp::Min, &[i16::MIN, 0], &[5, -1]),
        [i16::MIN, -1]
    );
}

#[test]
fn float_ops_by_hand() {
    let f32s = |op, a: &[f32], b: &[f32]| reduce(op, Datatype::F32, a, b, Order::AccFirst);
    assert_eq!(f32s(ReduceOp::Sum, &[1.5, -2.0], &[2.25, 2.0]), [3.75, 0.0]);
    assert_eq!(
        f32s(ReduceOp::Prod, &[1.5, f32::MAX], &[-4.0, 2.0]),
        [-6.0, f32::INFINITY]
    );
    assert_eq!(
        f32s(ReduceOp::Min, &[1.0, f32::NAN], &[-1.0, 3.0]),
        [-1.0, 3.0]
    );
    assert_eq!(
        f32s(ReduceOp::Max, &[1.0, f32::NEG_INFINITY], &[-1.0, f32::NAN]),
        [1.0, f32::NEG_INFINITY]
    );
    let f64s = |op, a: &[f64], b: &[f64]| reduce(op, Datatype::F64, a, b, Order::IncFirst);
    assert_eq!(f64s(ReduceOp::Sum, &[0.5], &[0.25]), [0.75]);
    assert!(f64s(ReduceOp::Sum, &[f64::INFINITY], &[f64::NEG_INFINITY])[0].is_nan());
    assert_eq!(f64s(ReduceOp::Prod, &[3.0], &[-0.5]), [-1.5]);
}

#[test]
fn half_precision_by_hand() {
    let h = |v: &[f32]| v.iter().map(|&x| f16::from_f32(x)).collect::<Vec<_>>();
    assert_eq!(
        reduce(
            ReduceOp::Sum,
            Datatype::F16,
            &h(&[1.5, 2.0]),
            &h(&[2.25, -3.0]),
            Order::AccFirst
        ),
        h(&[3.75, -1.0])
    );
    assert_eq!(
        reduce(
            ReduceOp::Sum,
            Datatype::F16,
            &[f16::MAX],
            &[f16::MAX],
            Order::AccFirst
        ),
        [f16::INFINITY]
    );
    assert_eq!(
        reduce(
            ReduceOp::Max,
            Datatype::F16,
            &h(&[1.0, -2.0]),
            &h(&[0.5, 7.0]),
            Order::IncFirst
        ),
        h(&[1.0, 7.0])
    );
    let b = |v: &[f32]| v.iter().map(|&x| bf16::from_f32(x)).collect::<Vec<_>>();
    assert_eq!(
        reduce(
            ReduceOp::Sum,
            Datatype::Bf16,
            &b(&[1.0, 256.0]),
            &b(&[2.0, 1.0]),
            Order::AccFirst
        ),
        b(&[3.0, 256.0])
    );
    assert_eq!(
        reduce(
            ReduceOp::Prod,
            Datatype::Bf16,
            &b(&[1.5]),
            &b(&[-2.0]),
            Order::AccFirst
        ),
        b(&[-3.0])
    );
}

/// One value-index element: `value` at offset 0, the `i32` index at `index_at`, zero padding.
fn pair(value: &[u8], index: i32, dt: Datatype) -> Vec<u8> {
    let mut e = vec![0u8; dt.size()];
    let at = dt.index_offset().unwrap();
    e[..value.len()].copy_from_slice(value);
    e[at..at + 4].copy_from_slice(&index.to_ne_bytes());
    e
}

fn reduce_bytes(op: ReduceOp, dt: Datatype, acc: &[u8], inc: &[u8], order: Order) -> Vec<u8> {
    let mut a = Buf::new(acc, 0);
    reduce_into(op, dt, a.bytes_mut(), inc, order).unwrap();
    a.bytes().to_vec()
}

#[test]
fn minloc_maxloc_by_hand() {
    let f = |v: f32, i| pair(&v.to_ne_bytes(), i, Datatype::F32I32);
    for order in ORDERS {
        // Ties keep the lower index, whichever side it is on.
        let acc = [f(1.0, 5), f(1.0, 2), f(3.0, 9), f(-1.0, 4)].concat();
        let inc = [f(1.0, 2), f(1.0, 5), f(2.0, 7), f(-1.0, 4)].concat();
        let want_min = [f(1.0, 2), f(1.0, 2), f(2.0, 7), f(-1.0, 4)].concat();
        let want_max = [f(1.0, 2), f(1.0, 2), f(3.0, 9), f(-1.0, 4)].concat();
        assert_eq!(
            reduce_bytes(ReduceOp::MinLoc, Datatype::F32I32, &acc, &inc, order),
            want_min
        );
        assert_eq!(
            reduce_bytes(ReduceOp::MaxLoc, Datatype::F32I32, &acc, &inc, order),
            want_max
        );
    }
    // Pair types with the index at offset 8 and at offset 4 after a 2-byte value.
    let d = |v: f64, i| pair(&v.to_ne_bytes(), i, Datatype::F64I32);
    let got = reduce_bytes(
        ReduceOp::MaxLoc,
        Datatype::F64I32,
        &[d(2.0, 3), d(0.5, 1)].concat(),
        &[d(4.0, 8), d(0.5, 0)].concat(),
        Order::AccFirst,
    );
    assert_eq!(got, [d(4.0, 8), d(0.5, 0)].concat());
    let s = |v: i16, i| pair(&v.to_ne_bytes(), i, Datatype::I16I32);
    let got = reduce_bytes(
        ReduceOp::MinLoc,
        Datatype::I16I32,
        &s(-7, 6),
        &s(-8, 9),
        Order::IncFirst,
    );
    assert_eq!(got, s(-8, 9));
    let l = |v: i64, i| pair(&v.to_ne_bytes(), i, Datatype::I64I32);
    let got = reduce_bytes(
        ReduceOp::MaxLoc,
        Datatype::I64I32,
        &l(i64::MAX, 3),
        &l(i64::MAX, 1),
        Order::AccFirst,
    );
    assert_eq!(got, l(i64::MAX, 1));
}
