//! A rank program for tests/failure_detection.rs: ranks run collectives while one of them is
//! killed or stopped, and report, one line each on stdout, how the failure surfaced.
//!
//! ```text
//! fault_victim kill BYTES VICTIM DELAY_MS [fatal]
//!     Allreduces of BYTES bytes until one fails; rank VICTIM kills itself (SIGKILL) DELAY_MS
//!     after the first barrier, printing `KILL rank=V at_us=T` first. `fatal`: the ranks do not
//!     return errors (as MPI's default handler), so a launcher terminates them.
//! fault_victim loop BYTES SECONDS
//!     Verified allreduces of BYTES bytes for SECONDS (rank 0 decides when to stop), then
//!     `OK rank=R iters=N` and a clean finalize. On an error: the `ERR` line; then a rank
//!     that learns it was dropped by the others tries to send to them, and the others
//!     probe for `FAULT_LINGER_MS` ms for anything it sent late (`LATE src=S` or
//!     `LINGER clean`).
//! fault_victim busy SECONDS
//!     Rank 1 computes for SECONDS without calling nexar while the others wait in a barrier;
//!     then `OK rank=R` (a busy rank is not a failed one: its heartbeats go on).
//! ```
//!
//! Errors print `ERR rank=R at_us=T kind=K failed=F msg=M` (`at_us`: microseconds since the
//! Unix epoch, to compare with the `KILL` line; `failed`: the rank the error names, or -1;
//! `known`: 1 when the world's failed set already holds that rank).

use nexar::{ANY_SOURCE, ANY_TAG, Comm, Config, Context, ReduceOp};
use std::io::Write;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

fn now_us() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_micros())
}

fn say(line: String) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn report(w: &Comm, e: &nexar::Error) {
    let rank = w.rank();
    let failed = e.failed_rank().map_or(-1, i64::from);
    // Whether the failed set this rank reports already holds the rank the error names (ULFM:
    // `MPIX_Comm_get_failed` right after the error must include it).
    let known = e
        .failed_rank()
        .is_some_and(|f| w.failed_ranks().contains(&f));
    say(format!(
        "ERR rank={rank} at_us={} kind={:?} failed={failed} known={} msg={}",
        now_us(),
        e.kind(),
        u8::from(known),
        e.to_string().replace('\n', " ")
    ));
}

fn arg<T: std::str::FromStr>(args: &[String], i: usize, what: &str) -> T {
    args.get(i).and_then(|v| v.parse().ok()).unwrap_or_else(|| {
        eprintln!("fault_victim: argument {i} ({what}) is missing or malformed");
        std::process::exit(2)
    })
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).cloned().unwrap_or_default();
    let fatal = args.iter().any(|a| a == "fatal");
    let cfg = match Config::from_env() {
        Ok(c) => Config {
            returns_errors: !fatal,
            ..c
        },
        Err(e) => {
            eprintln!("fault_victim: {e}");
            std::process::exit(2);
        }
    };
    let ctx = match Context::init_with(cfg) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("fault_victim: init failed: {e}");
            std::process::exit(2);
        }
    };
    match mode.as_str() {
        "kill" => kill_mode(&ctx, &args),
        "loop" => loop_mode(&ctx, &args),
        "busy" => busy_mode(&ctx, &args),
        other => {
            eprintln!("fault_victim: unknown mode {other:?}");
            std::process::exit(2);
        }
    }
}

/// This process's resident memory in KiB (`VmRSS`), 0 if unreadable.
fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.split_whitespace().next()?.parse().ok())
        })
        .unwrap_or(0)
}

fn kill_mode(ctx: &Context, args: &[String]) -> ! {
    let bytes: usize = arg(args, 2, "BYTES");
    let victim: u32 = arg(args, 3, "VICTIM");
    let delay: u64 = arg(args, 4, "DELAY_MS");
    let w = ctx.world();
    let me = w.rank();
    if let Err(e) = w.barrier_blocking() {
        report(w, &e);
        std::process::exit(1);
    }
    if me == victim {
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(delay));
            say(format!("KILL rank={me} at_us={}", now_us()));
            // SAFETY: kill has no memory effects.
            unsafe { libc::kill(libc::getpid(), libc::SIGKILL) };
        });
    }
    let n = (bytes / 8).max(1);
    let expect = f64::from(w.size() * (w.size() + 1) / 2);
    let mut buf = vec![0.0f64; n];
    let start = Instant::now();
    let mut iters = 0u64;
    // Resident memory once the buffers and connections are warm (after the first call).
    let mut warm_kib = None;
    while start.elapsed() < Duration::from_secs(60) {
        buf.fill(f64::from(me + 1));
        if let Err(e) = w.allreduce_blocking(&mut buf, ReduceOp::Sum) {
            report(w, &e);
            // Leave cleanly (the final barrier fails at once on the dead member): peers that
            // have not noticed the death yet see this rank say goodbye, not a second failure.
            let t = Instant::now();
            let _ = ctx.finalize();
            say(format!("FIN rank={me} ms={}", t.elapsed().as_millis()));
            if let Some(warm) = warm_kib {
                say(format!(
                    "MEM rank={me} warm_kib={warm} end_kib={}",
                    rss_kib()
                ));
            }
            std::process::exit(0);
        }
        if warm_kib.is_none() {
            warm_kib = Some(rss_kib());
        }
        if buf[0] != expect || buf[n - 1] != expect {
            say(format!("BAD rank={me} got {} expected {expect}", buf[0]));
            std::process::exit(4);
        }
        iters += 1;
    }
    say(format!("NOERR rank={me} iters={iters}"));
    std::process::exit(3);
}

fn busy_mode(ctx: &Context, args: &[String]) -> ! {
    let secs: f64 = arg(args, 2, "SECONDS");
    let w = ctx.world();
    let me = w.rank();
    if me == 1 {
        // Spin on the CPU: no nexar call, no sleeping in the library.
        let start = Instant::now();
        let mut x = 0u64;
        while start.elapsed().as_secs_f64() < secs {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
    }
    if let Err(e) = w.barrier_blocking() {
        report(w, &e);
        std::process::exit(1);
    }
    say(format!("OK rank={me}"));
    let code = i32::from(ctx.finalize().is_err());
    std::process::exit(code);
}

fn loop_mode(ctx: &Context, args: &[String]) -> ! {
    let bytes: usize = arg(args, 2, "BYTES");
    let secs: f64 = arg(args, 3, "SECONDS");
    let w = ctx.world();
    let me = w.rank();
    let n = (bytes / 8).max(2);
    let size = f64::from(w.size());
    let mut buf = vec![0.0f64; n];
    let start = Instant::now();
    let mut iters = 0u64;
    loop {
        let i = iters as f64 + 1.0;
        buf.fill(f64::from(me + 1) * i);
        // Element 0 carries rank 0's decision to stop, so every rank stops after the same call.
        buf[0] = if me == 0 && start.elapsed().as_secs_f64() >= secs {
            1.0
        } else {
            0.0
        };
        if let Err(e) = w.allreduce_blocking(&mut buf, ReduceOp::Sum) {
            report(w, &e);
            after_error(w, me, &e);
        }
        let expect = i * size * (size + 1.0) / 2.0;
        if buf[1..].iter().any(|&x| x != expect) {
            say(format!(
                "BAD rank={me} iter={iters} got {} expected {expect}",
                buf[1]
            ));
            std::process::exit(4);
        }
        iters += 1;
        if buf[0] > 0.5 {
            break;
        }
    }
    say(format!("OK rank={me} iters={iters}"));
    let code = match ctx.finalize() {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("fault_victim: rank {me}: finalize: {e}");
            5
        }
    };
    std::process::exit(code);
}

/// After a failure: a rank the others dropped tries to reach them anyway (those frames must
/// not be delivered); the others watch for anything arriving.
fn after_error(w: &Comm, me: u32, e: &nexar::Error) -> ! {
    let dropped = e
        .to_string()
        .contains(&format!("declared rank {me} failed"));
    if dropped {
        for to in (0..w.size()).filter(|&r| r != me) {
            let _ = w.send_blocking(&[7u8; 8], to, 99);
        }
        say(format!("SENT_LATE rank={me}"));
        std::process::exit(0);
    }
    let linger: u64 = std::env::var("FAULT_LINGER_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let until = Instant::now() + Duration::from_millis(linger);
    while Instant::now() < until {
        if let Ok(Some(st)) = w.iprobe(ANY_SOURCE, ANY_TAG) {
            say(format!("LATE rank={me} src={} tag={}", st.source, st.tag));
            std::process::exit(0);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    say(format!("LINGER rank={me} clean"));
    std::process::exit(0);
}
