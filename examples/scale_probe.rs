//! Start-up and small-collective costs of one rank, for `bench/scale.py` (which runs it under
//! `nexarrun -n 16/32/64` and aggregates). A measurement, not a test.
//!
//! Each rank prints one line `SCALE key=value ...` with:
//! * `init_from_start_ms`: process start (from `/proc/self/stat`, 10 ms resolution) to
//!   `Context::init` returning; `init_from_main_ms`: `main` entry to the same point;
//!   `init_from_launch_ms`: from the wall-clock time in `SCALE_T0` (seconds since the epoch, set
//!   by the script just before it starts `nexarrun`), if present;
//! * `first_barrier_us`, `warm_barrier_us` (median of [`WARM_REPS`]), `first_allreduce_us`,
//!   `warm_allreduce_us` (an 8-byte `f64` sum, median);
//! * `rss_init_kib` / `hwm_init_kib` (VmRSS / VmHWM right after init), `hwm_end_kib` (VmHWM at
//!   the end), `shmem_kib` (RssShmem: resident shared-memory pages this rank maps);
//! * `devshm_used_kib`: `/dev/shm` usage seen by this rank after the first barrier (every
//!   inbox exists then; the whole file system, so other jobs on the host count too);
//! * `quic_dialed`, `quic_accepted`, `quic_peers`: QUIC connection counters.
//!
//! With the argument `--barrier-only` (for `tests/lazy_connect.rs`) a rank does one barrier,
//! finalizes (a second barrier, then every writer and dial has finished) and prints
//! `CONN rank=R dialed=D accepted=A peers=P` from the QUIC counters.

use nexar::{Context, ReduceOp};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// Repetitions of the warm measurements.
const WARM_REPS: usize = 20;

/// A `kB` field of `/proc/self/status` (0 when missing).
fn status_kib(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// Seconds since boot, from `CLOCK_BOOTTIME` (the clock `/proc/<pid>/stat` start times use).
fn boot_secs() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes into the timespec it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_BOOTTIME, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// This process's start time in seconds since boot (field 22 of `/proc/self/stat`, in ticks).
fn process_start_secs() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name, which is in parentheses and may contain spaces.
    let rest = &stat[stat.rfind(')')? + 2..];
    let ticks: f64 = rest.split_whitespace().nth(19)?.parse().ok()?;
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    Some(ticks / hz)
}

/// Used bytes of the file system holding `/dev/shm`, in KiB.
fn devshm_used_kib() -> u64 {
    // SAFETY: statvfs is plain old data; all zeroes is a valid value.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: a NUL-terminated path and a struct valid for writes.
    if unsafe { libc::statvfs(c"/dev/shm".as_ptr(), &mut st) } != 0 {
        return 0;
    }
    (st.f_blocks - st.f_bfree) as u64 * st.f_frsize as u64 / 1024
}

fn median_us(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2] * 1e6
}

fn timed(f: impl FnOnce() -> nexar::Result<()>) -> nexar::Result<f64> {
    let t = Instant::now();
    f()?;
    Ok(t.elapsed().as_secs_f64())
}

fn quic_stats(ctx: &Context) -> nexar::transport::TransportStats {
    ctx.transport_stats()
        .into_iter()
        .find(|(name, _)| *name == "quic")
        .map(|(_, s)| s)
        .unwrap_or_default()
}

/// One barrier, then the connection counters once everything has settled.
fn barrier_only(ctx: &Context) -> nexar::Result<()> {
    ctx.world().barrier_blocking()?;
    ctx.finalize()?;
    let s = quic_stats(ctx);
    println!(
        "CONN rank={} dialed={} accepted={} peers={}",
        ctx.rank(),
        s.connections_dialed,
        s.connections_accepted,
        s.peers_connected
    );
    Ok(())
}

fn main() -> nexar::Result<()> {
    let main_t = Instant::now();
    let started = process_start_secs();
    let ctx = Context::init()?;
    let init_done = Instant::now();
    let from_main = init_done.duration_since(main_t).as_secs_f64() * 1e3;
    let from_start = started.map_or(f64::NAN, |s| (boot_secs() - s) * 1e3);
    let wall = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64());
    let from_launch = std::env::var("SCALE_T0")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .map_or(f64::NAN, |t0| (wall - t0) * 1e3);
    let (rss_init, hwm_init) = (status_kib("VmRSS"), status_kib("VmHWM"));
    if std::env::args().any(|a| a == "--barrier-only") {
        return barrier_only(&ctx);
    }

    let w = ctx.world();
    let first_barrier = timed(|| w.barrier_blocking())?;
    let devshm = devshm_used_kib();
    let mut x = [1.0f64];
    let first_allreduce = timed(|| w.allreduce_blocking(&mut x, ReduceOp::Sum))?;
    assert_eq!(x[0], f64::from(w.size()), "allreduce result");
    let mut barriers = Vec::with_capacity(WARM_REPS);
    let mut allreduces = Vec::with_capacity(WARM_REPS);
    for _ in 0..WARM_REPS {
        barriers.push(timed(|| w.barrier_blocking())?);
        x[0] = 1.0;
        allreduces.push(timed(|| w.allreduce_blocking(&mut x, ReduceOp::Sum))?);
        assert_eq!(x[0], f64::from(w.size()), "allreduce result");
    }
    let quic = quic_stats(&ctx);
    println!(
        "SCALE rank={} size={} transport={} init_from_start_ms={from_start:.1} \
         init_from_main_ms={from_main:.1} init_from_launch_ms={from_launch:.1} \
         first_barrier_us={:.1} warm_barrier_us={:.1} first_allreduce_us={:.1} \
         warm_allreduce_us={:.1} rss_init_kib={rss_init} hwm_init_kib={hwm_init} \
         hwm_end_kib={} shmem_kib={} devshm_used_kib={devshm} quic_dialed={} \
         quic_accepted={} quic_peers={}",
        w.rank(),
        w.size(),
        ctx.transport_name(),
        first_barrier * 1e6,
        median_us(barriers),
        first_allreduce * 1e6,
        median_us(allreduces),
        status_kib("VmHWM"),
        status_kib("RssShmem"),
        quic.connections_dialed,
        quic.connections_accepted,
        quic.peers_connected,
    );
    ctx.finalize()
}
