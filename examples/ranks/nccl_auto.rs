//! Automatic NCCL routing end to end, run by tests/nccl_auto.rs under nexarrun (1-4 ranks).
//!
//! Runs allreduce (i64 sum, f64 sum, f32 max; blocking and async), bcast, allgather,
//! reduce_scatter_block and reduce_scatter (equal and unequal counts) on host buffers of 1 to
//! 300 000 elements (the largest takes the direct shared-memory allreduce), plus a
//! non-blocking iallreduce after routing was decided, each compared with a value computed
//! locally; then checks that a fresh `dup` stays undecided through a barrier and decides on
//! its first allreduce. Prints
//! `rank r/n: nccl_auto ok state=STATE nccl=A staged=B hash=H`, where STATE is
//! `Comm::nccl_status` of the world, A/B its routed and staged call counts and H a hash of
//! every result (equal with `NEXAR_NCCL=off`, and in a build without the feature).
//!
//! With the argument `device` (a `cuda` build on a GPU machine) the same allreduce / bcast /
//! allgather / reduce_scatter also run on device buffers of GPU 0 (every rank shares it, so
//! NCCL is expected to fall back with `SharedGpu` at 2+ ranks) and the line gains
//! `device=checked`. Logs go to stderr (`NEXAR_LOG`, default `info`): the fallback reason
//! appears once per process.

use nexar::{Comm, Context, ReduceOp};

fn fail(m: String) -> nexar::Error {
    nexar::Error::new(nexar::ErrorKind::Internal, format!("nccl_auto: {m}"))
}

fn same<T: PartialEq + std::fmt::Debug>(what: &str, got: &[T], want: &[T]) -> nexar::Result<()> {
    if got.len() != want.len() {
        return Err(fail(format!(
            "{what}: {} elements, want {}",
            got.len(),
            want.len()
        )));
    }
    match (0..got.len()).find(|&i| got[i] != want[i]) {
        Some(i) => Err(fail(format!(
            "{what}: [{i}] is {:?}, want {:?}",
            got[i], want[i]
        ))),
        None => Ok(()),
    }
}

/// FNV-1a over result bytes, so runs can be compared exactly.
struct Hash(u64);

impl Hash {
    fn add<T: bytemuck::Pod>(&mut self, v: &[T]) {
        for b in bytemuck::cast_slice::<T, u8>(v) {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3);
        }
    }
}

fn val(r: u32, i: usize) -> i64 {
    ((i as i64 * 2_654_435_761) ^ (i64::from(r) * 97)) % 1_000_003 - 500_000
}

fn checks(w: &Comm, n: usize, h: &mut Hash) -> nexar::Result<()> {
    let (r, size) = (w.rank(), w.size());
    let ranks = || 0..size;
    // i64 sum, blocking.
    let mut a: Vec<i64> = (0..n).map(|i| val(r, i)).collect();
    w.allreduce_blocking(&mut a, ReduceOp::Sum)?;
    let want: Vec<i64> = (0..n).map(|i| ranks().map(|q| val(q, i)).sum()).collect();
    same("allreduce i64 sum", &a, &want)?;
    h.add(&a);
    // f64 sum of small integers (exact in any order), async.
    let mut f: Vec<f64> = (0..n).map(|i| (val(r, i) % 1000) as f64).collect();
    w.block_on(w.allreduce(&mut f, ReduceOp::Sum))?;
    let want: Vec<f64> = (0..n)
        .map(|i| ranks().map(|q| (val(q, i) % 1000) as f64).sum())
        .collect();
    same("allreduce f64 sum", &f, &want)?;
    h.add(&f);
    // f32 max.
    let mut m: Vec<f32> = (0..n).map(|i| val(r, i) as f32 * 0.5).collect();
    w.allreduce_blocking(&mut m, ReduceOp::Max)?;
    let want: Vec<f32> = (0..n)
        .map(|i| {
            ranks()
                .map(|q| val(q, i) as f32 * 0.5)
                .fold(f32::MIN, f32::max)
        })
        .collect();
    same("allreduce f32 max", &m, &want)?;
    h.add(&m);
    // bcast from the last rank.
    let root = size - 1;
    let want: Vec<u64> = (0..n as u64).map(|i| i * 3 + 7).collect();
    let mut b = if r == root { want.clone() } else { vec![0; n] };
    w.bcast_blocking(&mut b, root)?;
    same("bcast", &b, &want)?;
    h.add(&b);
    // allgather.
    let mine: Vec<u32> = (0..n as u32).map(|i| i ^ (r << 20)).collect();
    let mut all = vec![0u32; n * size as usize];
    w.allgather_blocking(&mine, &mut all)?;
    let want: Vec<u32> = ranks()
        .flat_map(|q| (0..n as u32).map(move |i| i ^ (q << 20)))
        .collect();
    same("allgather", &all, &want)?;
    h.add(&all);
    // reduce_scatter_block, and reduce_scatter with equal then unequal counts.
    let send: Vec<i32> = (0..n * size as usize).map(|i| val(r, i) as i32).collect();
    let block = |q: u32| -> Vec<i32> {
        (0..n)
            .map(|i| ranks().map(|p| val(p, q as usize * n + i) as i32).sum())
            .collect()
    };
    let mut got = vec![0i32; n];
    w.reduce_scatter_block_blocking(&send, &mut got, ReduceOp::Sum)?;
    same("reduce_scatter_block", &got, &block(r))?;
    h.add(&got);
    let counts = vec![n; size as usize];
    w.reduce_scatter_blocking(&send, &mut got, &counts, ReduceOp::Sum)?;
    same("reduce_scatter", &got, &block(r))?;
    let mut counts: Vec<usize> = vec![1; size as usize];
    counts[0] = n * size as usize - (size as usize - 1);
    let mut got = vec![0i32; counts[r as usize]];
    w.reduce_scatter_blocking(&send, &mut got, &counts, ReduceOp::Sum)?;
    let off: usize = counts[..r as usize].iter().sum();
    let want: Vec<i32> = (off..off + got.len())
        .map(|i| ranks().map(|p| val(p, i) as i32).sum())
        .collect();
    same("reduce_scatter (unequal)", &got, &want)?;
    h.add(&got);
    // Non-blocking: always the request-based path.
    let v: Vec<i64> = (0..n).map(|i| val(r, i)).collect();
    let v = w.iallreduce(v, ReduceOp::Max)?.wait()?;
    let want: Vec<i64> = (0..n)
        .map(|i| ranks().map(|q| val(q, i)).max().unwrap())
        .collect();
    same("iallreduce", &v, &want)?;
    h.add(&v);
    Ok(())
}

/// A new communicator decides on its first routable collective, not before.
fn decides_lazily(w: &Comm) -> nexar::Result<()> {
    use nexar::device::nccl::NcclState;
    let d = w.dup_blocking()?;
    let before = d.nccl_status().state;
    d.barrier_blocking()?;
    let after_barrier = d.nccl_status().state;
    let mut x = [1u8];
    d.allreduce_blocking(&mut x, ReduceOp::Sum)?;
    same("dup allreduce", &x, &[w.size() as u8])?;
    let after = d.nccl_status().state;
    let lazy = matches!(
        before,
        NcclState::Undecided | NcclState::Disabled | NcclState::Off(_)
    ) && before == after_barrier
        && (before != NcclState::Undecided || after != NcclState::Undecided);
    if !lazy {
        return Err(fail(format!(
            "dup: {before:?} -> barrier {after_barrier:?} -> allreduce {after:?}"
        )));
    }
    Ok(())
}

fn main() -> nexar::Result<()> {
    let filter = tracing_subscriber::EnvFilter::try_from_env("NEXAR_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
    let ctx = Context::init()?;
    let w = ctx.world();
    let mut h = Hash(0xcbf2_9ce4_8422_2325);
    for n in [1, 1000, 300_000] {
        checks(w, n, &mut h)?;
    }
    decides_lazily(w)?;
    let device = if std::env::args().nth(1).as_deref() == Some("device") {
        device::checks(w)?
    } else {
        String::new()
    };
    let s = w.nccl_status();
    println!(
        "rank {}/{}: nccl_auto ok state={:?} nccl={} staged={} hash={:016x}{device}",
        w.rank(),
        w.size(),
        s.state,
        s.nccl_calls,
        s.staged_calls,
        h.0
    );
    Ok(())
}

#[cfg(not(feature = "cuda"))]
mod device {
    pub fn checks(_: &nexar::Comm) -> nexar::Result<String> {
        Ok(" device=SKIPPED".into())
    }
}

#[cfg(feature = "cuda")]
mod device {
    use super::{same, val};
    use nexar::device::DeviceBuffer;
    use nexar::{Comm, ReduceOp};

    fn to_device<T: bytemuck::Pod>(v: &[T]) -> nexar::Result<DeviceBuffer> {
        let mut d = DeviceBuffer::new(0, std::mem::size_of_val(v).max(1))?;
        d.write(bytemuck::cast_slice(v))?;
        Ok(d)
    }

    fn back<T: bytemuck::Pod + Default + Clone>(
        d: &DeviceBuffer,
        n: usize,
    ) -> nexar::Result<Vec<T>> {
        let mut v = vec![T::default(); n];
        d.read(bytemuck::cast_slice_mut(&mut v))?;
        Ok(v)
    }

    /// The four routable collectives on device buffers of GPU 0, against local values, on a
    /// fresh communicator whose first call has a device buffer (so GPU 0 is its NCCL GPU).
    pub fn checks(world: &Comm) -> nexar::Result<String> {
        if nexar::device::device_count() == 0 {
            return Ok(" device=SKIPPED".into());
        }
        let w = &world.dup_blocking()?;
        let (r, size, n) = (w.rank(), w.size(), 100_000usize);
        let ranks = || 0..size;
        let mine: Vec<i64> = (0..n).map(|i| val(r, i)).collect();
        let mut d = to_device(&mine)?;
        // SAFETY: device memory, only handed to nexar.
        w.allreduce_blocking(unsafe { d.as_slice_mut::<i64>() }, ReduceOp::Sum)?;
        let want: Vec<i64> = (0..n).map(|i| ranks().map(|q| val(q, i)).sum()).collect();
        same("device allreduce", &back::<i64>(&d, n)?, &want)?;
        let want: Vec<f32> = (0..n).map(|i| i as f32).collect();
        let start = if r == 0 { want.clone() } else { vec![0.0; n] };
        let mut d = to_device(&start)?;
        // SAFETY: as above.
        w.bcast_blocking(unsafe { d.as_slice_mut::<f32>() }, 0)?;
        same("device bcast", &back::<f32>(&d, n)?, &want)?;
        let s = to_device(&mine)?;
        let mut all = to_device(&vec![0i64; n * size as usize])?;
        // SAFETY: as above; `s` holds `n` i64s.
        let sv = unsafe { std::slice::from_raw_parts(s.ptr() as *const i64, n) };
        // SAFETY: as above.
        w.allgather_blocking(sv, unsafe { all.as_slice_mut::<i64>() })?;
        let want: Vec<i64> = ranks()
            .flat_map(|q| (0..n).map(move |i| val(q, i)))
            .collect();
        same(
            "device allgather",
            &back::<i64>(&all, n * size as usize)?,
            &want,
        )?;
        let send: Vec<i64> = (0..n * size as usize).map(|i| val(r, i)).collect();
        let s = to_device(&send)?;
        let mut got = to_device(&vec![0i64; n])?;
        // SAFETY: as above.
        let sv = unsafe { std::slice::from_raw_parts(s.ptr() as *const i64, send.len()) };
        // SAFETY: as above.
        w.reduce_scatter_block_blocking(sv, unsafe { got.as_slice_mut::<i64>() }, ReduceOp::Max)?;
        let want: Vec<i64> = (0..n)
            .map(|i| ranks().map(|p| val(p, r as usize * n + i)).max().unwrap())
            .collect();
        same("device reduce_scatter", &back::<i64>(&got, n)?, &want)?;
        let st = w.nccl_status();
        Ok(format!(
            " device=checked dstate={:?} dnccl={} dstaged={}",
            st.state, st.nccl_calls, st.staged_calls
        ))
    }
}
