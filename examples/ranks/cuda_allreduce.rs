//! CUDA device buffers end to end, run by tests/cuda_buffers.rs under nexarrun (1-4 ranks; the
//! ranks may share one GPU): allreduce (f32 sum, i64 max, and mixed device/host ranks), bcast,
//! a send/recv ring, allgather and reduce_scatter over device buffers of sizes from 1 element
//! to several staging chunks with a partial last chunk. Every result is copied back with a
//! plain driver copy and compared with the same operation on host buffers (the host path) and
//! with a value computed locally. Prints `rank r/n: cuda ok checks=K device=D`. With the
//! argument `time`, rank 0 then prints the median time of an 8 B, a 1 MiB and a 64 MiB f32
//! allreduce on device and on host buffers, with the communicator's NCCL route (run a release
//! build for meaningful figures; `NEXAR_NCCL=off` keeps the staged path).
//!
//! Without the `cuda` feature or without a GPU it prints `SKIPPED: ...` and exits 0.

#[cfg(not(feature = "cuda"))]
fn main() {
    println!("SKIPPED: nexar built without the `cuda` feature");
}

#[cfg(feature = "cuda")]
fn main() -> nexar::Result<()> {
    gpu::main()
}

#[cfg(feature = "cuda")]
mod gpu {
    use nexar::device::{CHUNK, DeviceBuffer};
    use nexar::{Comm, Context, ReduceOp};
    use std::time::Instant;

    /// Element counts: one, small, just over one chunk of f32s, and 2.5 chunks plus one.
    const SIZES: [usize; 4] = [1, 1000, CHUNK / 4 + 3, (5 * CHUNK / 2) / 4 + 1];

    /// Rank `r`'s f32 input: small multiples of 0.5, so sums are exact in any order.
    fn f32_input(r: u32, n: usize) -> Vec<f32> {
        (0..n)
            .map(|i| ((i * 31 + r as usize * 7) % 1000) as f32 * 0.5)
            .collect()
    }

    fn i64_input(r: u32, n: usize) -> Vec<i64> {
        (0..n)
            .map(|i| ((i as i64 * 2_654_435_761) ^ (r as i64 * 97)) % 1_000_003 - 500_000)
            .collect()
    }

    fn to_device<T: bytemuck::Pod>(ord: i32, v: &[T]) -> nexar::Result<DeviceBuffer> {
        let mut d = DeviceBuffer::new(ord, std::mem::size_of_val(v))?;
        d.write(bytemuck::cast_slice(v))?;
        Ok(d)
    }

    fn from_device<T: bytemuck::Pod + Default + Clone>(d: &DeviceBuffer) -> nexar::Result<Vec<T>> {
        let mut v = vec![T::default(); d.len() / std::mem::size_of::<T>()];
        d.read(bytemuck::cast_slice_mut(&mut v))?;
        Ok(v)
    }

    /// Fails the rank (non-zero exit through main's error) on a mismatch.
    fn same<T: PartialEq + std::fmt::Debug>(
        what: &str,
        got: &[T],
        want: &[T],
    ) -> nexar::Result<()> {
        if got.len() != want.len() {
            return Err(mismatch(format!(
                "{what}: {} elements, want {}",
                got.len(),
                want.len()
            )));
        }
        if let Some(i) = (0..got.len()).find(|&i| got[i] != want[i]) {
            return Err(mismatch(format!(
                "{what}: element {i} of {} is {:?}, want {:?}",
                got.len(),
                got[i],
                want[i]
            )));
        }
        Ok(())
    }

    fn mismatch(m: String) -> nexar::Error {
        nexar::Error::new(nexar::ErrorKind::Internal, format!("cuda_allreduce: {m}"))
    }

    /// Runs every check for vectors of `n` elements; returns how many passed.
    fn checks(w: &Comm, ord: i32, n: usize) -> nexar::Result<u32> {
        let (r, size) = (w.rank(), w.size());
        let mut k = 0;

        // f32 sum in place on device vs host path vs local sum.
        let mine = f32_input(r, n);
        let mut dev = to_device(ord, &mine)?;
        // SAFETY: the slice is only handed to nexar, never read on the host.
        w.allreduce_blocking(unsafe { dev.as_slice_mut::<f32>() }, ReduceOp::Sum)?;
        let mut host = mine.clone();
        w.allreduce_blocking(&mut host, ReduceOp::Sum)?;
        // Every rank's input built once (building it per element made the check O(n^2)).
        let inputs: Vec<Vec<f32>> = (0..size).map(|q| f32_input(q, n)).collect();
        let local: Vec<f32> = (0..n).map(|i| inputs.iter().map(|v| v[i]).sum()).collect();
        let got: Vec<f32> = from_device(&dev)?;
        same("allreduce f32 sum (device vs host path)", &got, &host)?;
        same("allreduce f32 sum (device vs local)", &got, &local)?;
        k += 1;

        // i64 max with even ranks on device and odd ranks on host memory.
        let mine = i64_input(r, n);
        let got: Vec<i64> = if r % 2 == 0 {
            let mut d = to_device(ord, &mine)?;
            // SAFETY: as above.
            w.allreduce_blocking(unsafe { d.as_slice_mut::<i64>() }, ReduceOp::Max)?;
            from_device(&d)?
        } else {
            let mut h = mine.clone();
            w.allreduce_blocking(&mut h, ReduceOp::Max)?;
            h
        };
        let inputs: Vec<Vec<i64>> = (0..size).map(|q| i64_input(q, n)).collect();
        let local: Vec<i64> = (0..n)
            .map(|i| inputs.iter().map(|v| v[i]).max().unwrap())
            .collect();
        same("allreduce i64 max (mixed device/host ranks)", &got, &local)?;
        k += 1;

        // bcast from the last rank into device buffers that start as garbage elsewhere.
        let root = size - 1;
        let want = f32_input(root + 11, n);
        let start = if r == root {
            want.clone()
        } else {
            vec![-1.0; n]
        };
        let mut d = to_device(ord, &start)?;
        // SAFETY: as above.
        w.bcast_blocking(unsafe { d.as_slice_mut::<f32>() }, root)?;
        same("bcast", &from_device::<f32>(&d)?, &want)?;
        k += 1;

        // Ring: send my device buffer to r+1, receive r-1's into a device buffer.
        let (next, prev) = ((r + 1) % size, (r + size - 1) % size);
        let mut src = to_device(ord, &i64_input(r + 100, n))?;
        let mut dst = to_device(ord, &vec![0i64; n])?;
        // SAFETY: as above (the send slice is only read by nexar through the driver).
        w.send_blocking(unsafe { src.as_slice_mut::<i64>() }, next, 7)?;
        // SAFETY: as above.
        let st = w.recv_blocking(unsafe { dst.as_slice_mut::<i64>() }, prev.into(), 7.into())?;
        if st.source != prev || st.bytes != n * 8 {
            return Err(mismatch(format!("ring recv status {st:?}")));
        }
        same(
            "send/recv ring",
            &from_device::<i64>(&dst)?,
            &i64_input(prev + 100, n),
        )?;
        k += 1;

        // allgather of device blocks into a device buffer.
        let mut mine = to_device(ord, &f32_input(r, n))?;
        let mut all = to_device(ord, &vec![0f32; n * size as usize])?;
        // SAFETY: as above; two distinct allocations.
        let (s, a) = unsafe { (mine.as_slice_mut::<f32>(), all.as_slice_mut::<f32>()) };
        w.allgather_blocking(s, a)?;
        let want: Vec<f32> = (0..size).flat_map(|q| f32_input(q, n)).collect();
        same("allgather", &from_device::<f32>(&all)?, &want)?;
        k += 1;

        // reduce_scatter: n elements per rank out of n * size.
        let input: Vec<f32> = (0..size).flat_map(|q| f32_input(r + q, n)).collect();
        let mut send = to_device(ord, &input)?;
        let mut recv = to_device(ord, &vec![0f32; n])?;
        let counts = vec![n; size as usize];
        // SAFETY: as above; two distinct allocations.
        let (s, rv) = unsafe { (send.as_slice_mut::<f32>(), recv.as_slice_mut::<f32>()) };
        w.reduce_scatter_blocking(s, rv, &counts, ReduceOp::Sum)?;
        let inputs: Vec<Vec<f32>> = (0..size).map(|q| f32_input(q + r, n)).collect();
        let want: Vec<f32> = (0..n).map(|i| inputs.iter().map(|v| v[i]).sum()).collect();
        same("reduce_scatter", &from_device::<f32>(&recv)?, &want)?;
        k += 1;
        Ok(k)
    }

    /// Median time (seconds per call) of f32 sum allreduces of `bytes` on device and on host
    /// buffers: `reps` calls per sample, five samples.
    fn timing(w: &Comm, ord: i32, bytes: usize, reps: usize) -> nexar::Result<(f64, f64)> {
        let n = bytes / 4;
        let mut dev = to_device(ord, &vec![1f32; n])?;
        let mut host = vec![1f32; n];
        let (mut td, mut th) = (Vec::new(), Vec::new());
        // One untimed call of each first: connections, staging buffers, NCCL set-up.
        // SAFETY: `dev` is a live device allocation of `n` f32 that only nexar touches.
        w.allreduce_blocking(unsafe { dev.as_slice_mut::<f32>() }, ReduceOp::Sum)?;
        w.allreduce_blocking(&mut host, ReduceOp::Sum)?;
        for _ in 0..5 {
            w.barrier_blocking()?;
            let t = Instant::now();
            for _ in 0..reps {
                // SAFETY: as above.
                w.allreduce_blocking(unsafe { dev.as_slice_mut::<f32>() }, ReduceOp::Sum)?;
            }
            td.push(t.elapsed().as_secs_f64() / reps as f64);
            w.barrier_blocking()?;
            let t = Instant::now();
            for _ in 0..reps {
                w.allreduce_blocking(&mut host, ReduceOp::Sum)?;
            }
            th.push(t.elapsed().as_secs_f64() / reps as f64);
        }
        td.sort_by(f64::total_cmp);
        th.sort_by(f64::total_cmp);
        Ok((td[2], th[2]))
    }

    pub fn main() -> nexar::Result<()> {
        let ctx = Context::init()?;
        let w = ctx.world();
        let (r, size) = (w.rank(), w.size());
        let ndev = nexar::device::device_count();
        if ndev == 0 {
            println!("rank {r}/{size}: SKIPPED: no CUDA device");
            return Ok(());
        }
        let ord = r as i32 % ndev;
        let mut k = 0;
        for n in SIZES {
            k += checks(w, ord, n)?;
        }
        println!("rank {r}/{size}: cuda ok checks={k} device={ord}");
        if std::env::args().nth(1).as_deref() != Some("time") {
            return Ok(());
        }
        // 8 B, 1 MiB and 64 MiB: the latency, middle and bandwidth ends of the staged path
        // (and of the NCCL route where the communicator took it: see `route=`).
        for (bytes, reps) in [(8, 2000), (1 << 20, 50), (64 << 20, 3)] {
            let (td, th) = timing(w, ord, bytes, reps)?;
            if r == 0 {
                let st = w.nccl_status();
                println!(
                    "rank 0/{size}: allreduce {bytes} B f32: device {:.1} us, host {:.1} us, \
                     route={:?} nccl_calls={} staged_calls={}",
                    td * 1e6,
                    th * 1e6,
                    st.state,
                    st.nccl_calls,
                    st.staged_calls
                );
            }
        }
        Ok(())
    }
}
