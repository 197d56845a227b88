//! The hierarchical NCCL communicator (feature `nccl`). Without a GPU: the fallback path at
//! 1 and 3 in-process ranks (host buffers, no GPU given), checked against local results; the
//! GPU tests print "SKIPPED: no CUDA device" and return. With a GPU (NCCL needs one GPU per
//! rank, so NCCL itself is tested on a single-rank communicator): allreduce / bcast /
//! allgather / reduce_scatter on device buffers through NCCL, a host buffer on the same
//! communicator falling back, and 2 ranks sharing GPU 0 falling back to the staged path.
#![cfg(feature = "nccl")]

mod common;

use common::gpu::no_gpu;
use nexar::device::DeviceBuffer;
use nexar::device::nccl::NcclHier;
use nexar::{Comm, Context, ReduceOp};

/// Runs `f(rank, world)` on every rank of an in-process world of `n`, in parallel.
fn on_ranks<R: Send>(n: usize, f: impl Fn(u32, &Comm) -> R + Sync) -> Vec<R> {
    let ctxs = Context::in_process(n).unwrap();
    std::thread::scope(|s| {
        let hs: Vec<_> = ctxs
            .iter()
            .map(|c| s.spawn(|| f(c.rank(), c.world())))
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

/// The four collectives on host buffers through `h` against local computations.
fn check_host_results(h: &NcclHier, rank: u32, size: u32) {
    let w = h.comm();
    let mut v: Vec<f32> = (0..1000).map(|i| (i as f32) * 0.5 + rank as f32).collect();
    w.block_on(h.allreduce(&mut v, ReduceOp::Sum)).unwrap();
    let base = (0..size).map(|r| r as f32).sum::<f32>();
    for (i, x) in v.iter().enumerate() {
        assert_eq!(*x, (i as f32) * 0.5 * size as f32 + base, "allreduce[{i}]");
    }
    let mut b: Vec<i64> = if rank == size - 1 {
        (0..77).collect()
    } else {
        vec![-1; 77]
    };
    w.block_on(h.bcast(&mut b, size - 1)).unwrap();
    assert_eq!(b, (0..77).collect::<Vec<i64>>());
    let mine = [rank as i32 * 10, rank as i32 * 10 + 1];
    let mut all = vec![0i32; 2 * size as usize];
    w.block_on(h.allgather(&mine, &mut all)).unwrap();
    let want: Vec<i32> = (0..size as i32)
        .flat_map(|r| [r * 10, r * 10 + 1])
        .collect();
    assert_eq!(all, want);
    let send: Vec<u64> = (0..3 * size as u64).map(|i| i + rank as u64).collect();
    let mut got = vec![0u64; 3];
    w.block_on(h.reduce_scatter(&send, &mut got, ReduceOp::Max))
        .unwrap();
    let want: Vec<u64> = (0..3)
        .map(|i| 3 * rank as u64 + i + size as u64 - 1)
        .collect();
    assert_eq!(got, want);
    // A bad length is an error, not a crash.
    let mut short = vec![0i32; 1];
    assert!(w.block_on(h.allgather(&mine, &mut short)).is_err());
}

#[test]
fn without_a_gpu_every_collective_falls_back_with_the_host_results() {
    for n in [1, 3] {
        on_ranks(n, |rank, w| {
            let h = w.block_on(NcclHier::new(w, None)).unwrap();
            assert!(!h.uses_nccl(), "no GPU given: NCCL must not be chosen");
            assert!(h.fallback().is_some(), "the agreed reason is kept");
            check_host_results(&h, rank, n as u32);
            // Four collectives staged (the bad length fails before routing), none on NCCL.
            assert_eq!(h.calls(), (0, 4));
        });
    }
}

fn device_f32(v: &[f32]) -> DeviceBuffer {
    let mut d = DeviceBuffer::new(0, std::mem::size_of_val(v)).unwrap();
    d.write(bytemuck::cast_slice(v)).unwrap();
    d
}

fn read_f32(d: &DeviceBuffer) -> Vec<f32> {
    let mut out = vec![0f32; d.len() / 4];
    d.read(bytemuck::cast_slice_mut(&mut out)).unwrap();
    out
}

#[test]
fn single_rank_nccl_collectives_on_device_buffers_and_host_fallback() {
    if no_gpu() {
        return;
    }
    on_ranks(1, |rank, w| {
        let h = w.block_on(NcclHier::new(w, Some(0))).unwrap();
        if !h.uses_nccl() {
            println!("SKIPPED: libnccl not loadable (fallback checked only)");
        }
        let input: Vec<f32> = (0..(3 << 20)).map(|i| (i % 1001) as f32 - 500.0).collect();
        let mut d = device_f32(&input);
        let t = std::time::Instant::now();
        // SAFETY: `d` is a device buffer only handed to nexar.
        w.block_on(h.allreduce(unsafe { d.as_slice_mut::<f32>() }, ReduceOp::Sum))
            .unwrap();
        eprintln!(
            "1-rank 12 MiB allreduce: {:?} (NCCL: {})",
            t.elapsed(),
            h.uses_nccl()
        );
        assert_eq!(read_f32(&d), input, "1-rank allreduce is the identity");
        // SAFETY: as above.
        w.block_on(h.bcast(unsafe { d.as_slice_mut::<f32>() }, 0))
            .unwrap();
        assert_eq!(read_f32(&d), input);
        let s = device_f32(&input[..1000]);
        let mut r = device_f32(&[0.0; 1000]);
        // SAFETY: device buffers only handed to nexar.
        let (sv, rv) = unsafe {
            (
                std::slice::from_raw_parts(s.ptr() as *const f32, 1000),
                r.as_slice_mut::<f32>(),
            )
        };
        w.block_on(h.allgather(sv, rv)).unwrap();
        assert_eq!(read_f32(&r), &input[..1000]);
        // SAFETY: as above.
        let rv = unsafe { r.as_slice_mut::<f32>() };
        w.block_on(h.reduce_scatter(sv, rv, ReduceOp::Max)).unwrap();
        assert_eq!(read_f32(&r), &input[..1000]);
        // A host buffer on the same communicator takes the fallback.
        check_host_results(&h, rank, 1);
    });
}

#[test]
fn ranks_sharing_a_gpu_fall_back_to_the_staged_path() {
    if no_gpu() {
        return;
    }
    on_ranks(2, |rank, w| {
        let h = w.block_on(NcclHier::new(w, Some(0))).unwrap();
        assert!(!h.uses_nccl(), "two local ranks on GPU 0 must not use NCCL");
        let mine: Vec<f32> = (0..5000).map(|i| i as f32 + rank as f32).collect();
        let mut d = device_f32(&mine);
        // SAFETY: device buffer only handed to nexar.
        w.block_on(h.allreduce(unsafe { d.as_slice_mut::<f32>() }, ReduceOp::Sum))
            .unwrap();
        let want: Vec<f32> = (0..5000).map(|i| 2.0 * i as f32 + 1.0).collect();
        assert_eq!(read_f32(&d), want);
        check_host_results(&h, rank, 2);
    });
}
