//! A rank program for tests/rpc.rs: remote procedure calls between real processes.
//!
//! ```text
//! rpc_check all    every scenario (echo, sums, 1,000 concurrent calls to every rank, unknown
//!                  id, handler error and panic, timeout, 4 MiB payload, self call, bad rank,
//!                  nested calls); prints `TIME ...` figures and `OK rank=R`
//! rpc_check latency  rank 0 calls an 8-byte echo on rank 1 (the others idle); prints
//!                  `TIME rank=0 echo_8B_median_us=...` next to a p2p ping-pong's
//! rpc_check kill   the last rank kills itself (SIGKILL) while the others wait on calls to it;
//!                  they print `FAILED rank=R kind=K failed=F after_ms=T`
//! ```
//!
//! Any unexpected result prints `BAD rank=R ...` and exits with status 1.

use bytes::Bytes;
use nexar::{Context, ErrorKind};
use std::io::Write;
use std::time::{Duration, Instant};

#[path = "../../tests/rpc_support/mod.rs"]
mod rpc_support;

use rpc_support::*;

fn say(line: String) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Fails the run with a `BAD` line unless `ok`.
fn check(rank: u32, ok: bool, what: impl std::fmt::Display) {
    if !ok {
        say(format!("BAD rank={rank} {what}"));
        std::process::exit(1);
    }
}

fn all(ctx: &Context) -> nexar::Result<()> {
    let (me, n) = (ctx.rank(), ctx.size());
    let rpc = ctx.rpc();
    serve_all(&rpc, me);
    ctx.world().barrier_blocking()?;
    // Echo, sums and the caller's rank, to every rank (this one included).
    for to in 0..n {
        let r = rpc.call(to, ECHO, b"hello".to_vec(), T)?;
        check(me, &r[..] == b"hello", format_args!("echo from {to}"));
        let args: Vec<u64> = (0..1000).map(|i| i * (to as u64 + 1)).collect();
        let r = u64s(&rpc.call(to, SUM, bytes_of(&args), T)?);
        check(
            me,
            r == [499_500 * (to as u64 + 1)],
            format_args!("sum {r:?}"),
        );
        let r = u64s(&rpc.call(to, WHO, Bytes::new(), None)?);
        check(me, r == [to as u64, me as u64], format_args!("who {r:?}"));
    }
    // Round-trip latency of small calls to the next rank.
    let next = (me + 1) % n;
    let t = Instant::now();
    for _ in 0..1000 {
        rpc.call(next, ECHO, vec![0u8; 8], T)?;
    }
    say(format!(
        "TIME rank={me} small_call_us={:.1}",
        t.elapsed().as_secs_f64() * 1e6 / 1000.0
    ));
    // 1,000 concurrent calls to every rank.
    let t = Instant::now();
    let reqs: Vec<_> = (0..1000u64)
        .flat_map(|i| (0..n).map(move |to| (i, to)))
        .map(|(i, to)| {
            (
                i,
                to,
                rpc.start_call(to, SUM, bytes_of(&[i, me as u64, 5]), T),
            )
        })
        .collect();
    let calls = reqs.len();
    for (i, to, r) in reqs {
        let v = u64s(&r.wait()?);
        check(
            me,
            v == [i + me as u64 + 5],
            format_args!("call {i} to {to}: {v:?}"),
        );
    }
    say(format!(
        "TIME rank={me} concurrent_calls={calls} ms={:.1}",
        t.elapsed().as_secs_f64() * 1e3
    ));
    // Errors come back as errors.
    let e = rpc.call(next, 999, Bytes::new(), T).unwrap_err();
    check(
        me,
        e.kind() == ErrorKind::Unsupported,
        format_args!("unknown id: {e}"),
    );
    let e = rpc.call(next, FAIL, Bytes::new(), T).unwrap_err();
    let want = format!("rank {next} refuses rank {me}");
    check(
        me,
        e.kind() == ErrorKind::InvalidArgument && e.message().contains(&want),
        format_args!("handler error: {e}"),
    );
    let e = rpc.call(next, PANIC, Bytes::new(), T).unwrap_err();
    check(
        me,
        e.kind() == ErrorKind::Internal && e.message().contains("blew up"),
        format_args!("panic: {e}"),
    );
    let e = rpc.call(n, ECHO, Bytes::new(), T).unwrap_err();
    check(
        me,
        e.kind() == ErrorKind::InvalidRank,
        format_args!("bad rank: {e}"),
    );
    let short = Some(Duration::from_millis(100));
    let e = rpc.call(next, SLOW, bytes_of(&[500]), short).unwrap_err();
    check(
        me,
        e.kind() == ErrorKind::Timeout,
        format_args!("timeout: {e}"),
    );
    // 4 MiB each way.
    let big: Vec<u8> = (0..4u32 << 20).map(|i| (i % 251) as u8).collect();
    let t = Instant::now();
    let r = rpc.call(next, ECHO, big.clone(), T)?;
    check(me, r[..] == big[..], "4 MiB echo differs");
    say(format!(
        "TIME rank={me} echo_4MiB_ms={:.1}",
        t.elapsed().as_secs_f64() * 1e3
    ));
    // Self call, and a nested call that comes back to this rank.
    let r = u64s(&rpc.call(me, WHO, Bytes::new(), T)?);
    check(me, r == [me as u64, me as u64], "self call");
    let r = u64s(&rpc.call(next, RELAY, Bytes::new(), T)?);
    let want = (n as u64) * (n as u64 - 1) / 2;
    check(me, r == [want], format_args!("relay {r:?}"));
    // Let the late replies of the timed-out calls arrive before leaving.
    std::thread::sleep(Duration::from_millis(500));
    ctx.world().barrier_blocking()?;
    // Every call (nested ones in this rank's handlers included) ended before the barrier, so
    // nothing may be pending now: timed-out calls were removed.
    check(me, rpc.pending_calls() == 0, "a call stayed pending");
    say(format!("OK rank={me}"));
    Ok(())
}

fn median_us(mut t: Vec<f64>) -> f64 {
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

fn latency(ctx: &Context) -> nexar::Result<()> {
    let rpc = ctx.rpc();
    serve_all(&rpc, ctx.rank());
    let w = ctx.world();
    w.barrier_blocking()?;
    if ctx.rank() == 0 && ctx.size() > 1 {
        let mut calls = Vec::new();
        let mut pings = Vec::new();
        for i in 0..2100 {
            let t = Instant::now();
            rpc.call(1, ECHO, vec![0u8; 8], T)?;
            let rpc_us = t.elapsed().as_secs_f64() * 1e6;
            let t = Instant::now();
            w.send_blocking(&[0u8; 8], 1, 0)?;
            w.recv_blocking(
                &mut [0u8; 8],
                nexar::Source::Rank(1),
                nexar::TagMatch::Tag(0),
            )?;
            if i >= 100 {
                calls.push(rpc_us);
                pings.push(t.elapsed().as_secs_f64() * 1e6);
            }
        }
        say(format!(
            "TIME rank=0 echo_8B_median_us={:.1} p2p_roundtrip_8B_median_us={:.1}",
            median_us(calls),
            median_us(pings)
        ));
        w.send_blocking(&[1u8; 8], 1, 0)?;
    } else if ctx.rank() == 1 {
        let mut b = [0u8; 8];
        loop {
            w.recv_blocking(&mut b, nexar::Source::Rank(0), nexar::TagMatch::Tag(0))?;
            if b[0] == 1 {
                break;
            }
            w.send_blocking(&b, 0, 0)?;
        }
    }
    w.barrier_blocking()?;
    say(format!("OK rank={}", ctx.rank()));
    Ok(())
}

fn kill(ctx: &Context) -> nexar::Result<()> {
    let (me, n) = (ctx.rank(), ctx.size());
    let rpc = ctx.rpc();
    serve_all(&rpc, me);
    let victim = n - 1;
    ctx.world().barrier_blocking()?;
    if me == victim {
        std::thread::sleep(Duration::from_millis(200));
        // SAFETY: kill has no memory effects.
        unsafe { libc::kill(libc::getpid(), libc::SIGKILL) };
        unreachable!("SIGKILL ends the process");
    }
    let t = Instant::now();
    let e = rpc
        .call(victim, SLOW, bytes_of(&[30_000]), None)
        .unwrap_err();
    say(format!(
        "FAILED rank={me} kind={:?} failed={} after_ms={}",
        e.kind(),
        e.failed_rank().map_or(-1, i64::from),
        t.elapsed().as_millis()
    ));
    check(me, rpc.pending_calls() == 0, "a failed call stayed pending");
    Ok(())
}

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let ctx = Context::init().unwrap_or_else(|e| {
        eprintln!("rpc_check: init failed: {e}");
        std::process::exit(2)
    });
    let r = match mode.as_str() {
        "all" => all(&ctx),
        "kill" => kill(&ctx),
        "latency" => latency(&ctx),
        m => {
            eprintln!("rpc_check: unknown mode {m:?} (all, latency, kill)");
            std::process::exit(2)
        }
    };
    if let Err(e) = r {
        say(format!("BAD rank={} error: {e}", ctx.rank()));
        std::process::exit(1);
    }
    // With a dead rank the final barrier fails; that is expected in `kill` mode.
    let _ = ctx.finalize();
}
