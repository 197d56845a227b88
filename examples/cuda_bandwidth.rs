//! Bandwidth probe for the staged device path (single process, GPU 0): for buffers of 4 MiB
//! to 1 GiB it times
//! - `staged D2H`: nexar's pipelined download (two pinned chunks) into pageable host memory,
//!   as every operation on a device send buffer does;
//! - `staged H2D`: the reverse, as a device receive buffer gets its result;
//! - `memcpy D2H pinned` / `pageable`: one plain `cuMemcpyDtoH` (what `cudaMemcpy` does) into
//!   a pinned or a pageable host buffer: the ceilings the staged path is compared with.
//!
//! Prints one line per size in GB/s (median of 5). `cuda_bandwidth MAX_MIB` caps the size.
//! Without the `cuda` feature or a GPU it prints `SKIPPED: ...`.

#[cfg(not(feature = "cuda"))]
fn main() {
    println!("SKIPPED: nexar built without the `cuda` feature");
}

#[cfg(feature = "cuda")]
fn main() -> nexar::Result<()> {
    use nexar::device::cudarc::driver::sys;
    use nexar::device::{DeviceBuffer, with_context};
    use std::time::Instant;

    if nexar::device::device_count() == 0 {
        println!("SKIPPED: no CUDA device");
        return Ok(());
    }
    let max_mib: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1024);
    let check = |r: sys::CUresult, what: &str| {
        if r == sys::CUresult::CUDA_SUCCESS {
            Ok(())
        } else {
            Err(nexar::Error::new(
                nexar::ErrorKind::Internal,
                format!("{what}: {r:?}"),
            ))
        }
    };
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let gbps = |bytes: usize, s: f64| bytes as f64 / s / 1e9;
    println!("bytes  staged_D2H  staged_H2D  memcpy_D2H_pinned  memcpy_D2H_pageable  (GB/s)");
    let mut mib = 4;
    while mib <= max_mib {
        let len = mib << 20;
        let dev = DeviceBuffer::new(0, len)?;
        dev.read(&mut vec![0u8; len])?; // touch once
        let mut pageable = vec![1u8; len];
        let mut pinned: *mut std::ffi::c_void = std::ptr::null_mut();
        with_context(0, || {
            // SAFETY: out-parameter; context current.
            check(
                unsafe { sys::cuMemHostAlloc(&mut pinned, len, 0) },
                "cuMemHostAlloc",
            )
        })?;
        let (mut sd, mut su, mut mp, mut mg) = (vec![], vec![], vec![], vec![]);
        for _ in 0..5 {
            let t = Instant::now();
            // SAFETY: `dev` holds `len` bytes on device 0.
            unsafe { nexar::device::download_to(0, dev.ptr(), &mut pageable) }?;
            sd.push(t.elapsed().as_secs_f64());
            let t = Instant::now();
            // SAFETY: as above.
            unsafe { nexar::device::upload_from(0, &pageable, dev.ptr()) }?;
            su.push(t.elapsed().as_secs_f64());
            with_context(0, || {
                let t = Instant::now();
                // SAFETY: both ranges hold `len` bytes.
                let r = unsafe { sys::cuMemcpyDtoH_v2(pinned, dev.ptr(), len) };
                check(r, "cuMemcpyDtoH")?;
                mp.push(t.elapsed().as_secs_f64());
                let t = Instant::now();
                let dst = pageable.as_mut_ptr().cast();
                // SAFETY: as above.
                let r = unsafe { sys::cuMemcpyDtoH_v2(dst, dev.ptr(), len) };
                check(r, "cuMemcpyDtoH")?;
                mg.push(t.elapsed().as_secs_f64());
                Ok(())
            })?;
        }
        println!(
            "{len:>10}  {:>8.2}  {:>8.2}  {:>8.2}  {:>8.2}",
            gbps(len, median(sd)),
            gbps(len, median(su)),
            gbps(len, median(mp)),
            gbps(len, median(mg))
        );
        with_context(0, || {
            // SAFETY: allocated above, freed once.
            check(unsafe { sys::cuMemFreeHost(pinned) }, "cuMemFreeHost")
        })?;
        mib *= 4;
    }
    Ok(())
}
