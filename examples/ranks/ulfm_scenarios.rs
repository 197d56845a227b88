//! ULFM recovery scenarios for tests/ulfm.rs, one per first argument. Every rank prints
//! machine-readable lines (`KEY field=value ...`) on stdout.
//!
//! * `revoke`: rank 0 revokes the world while rank 1 sits in an ANY_SOURCE receive, rank 2
//!   in a barrier and the others in a non-blocking receive; every rank prints when its
//!   operation failed (`REVOKED at_us=...`, wall clock, rank 0 `REVOKE at_us=...`), then the
//!   ranks shrink, check an allreduce on the shrunk communicator and agree.
//! * `attrition`: rounds until one rank is left: one rank of the current communicator kills
//!   itself with SIGKILL (the first round: rank 0, the agreement coordinator); the others
//!   sit in an allreduce until it fails, revoke, shrink and check an allreduce (`ROUND`).
//! * `agree`: rank 0 kills itself while the others enter an agreement that waits on it as
//!   coordinator; they print the decision (`AGREE1`), acknowledge the failure and agree
//!   again (`AGREE2`).

use nexar::{ANY_SOURCE, ANY_TAG, Comm, Context, ReduceOp};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

fn now_us() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_micros()
}

fn fail(rank: u32, what: &str, e: impl std::fmt::Display) -> ! {
    println!("FAIL rank={rank} what={what} error={e}");
    std::process::exit(1);
}

fn die() -> ! {
    use std::io::Write;
    let _ = std::io::stdout().flush();
    // SAFETY: kill has no memory effects.
    unsafe { libc::kill(libc::getpid(), libc::SIGKILL) };
    unreachable!("SIGKILL ends the process");
}

/// Sums the world ranks of `c`'s members with an allreduce and checks the result.
fn check_allreduce(ctx: &Context, c: &Comm) -> u64 {
    let me = ctx.rank();
    let mut v = [me as u64];
    if let Err(e) = c.allreduce_blocking(&mut v, ReduceOp::Sum) {
        fail(me, "allreduce", e);
    }
    let want: u64 = (0..c.size())
        .map(|r| c.world_rank_of(r).unwrap() as u64)
        .sum();
    if v[0] != want {
        fail(me, "allreduce-result", format!("{} != {want}", v[0]));
    }
    v[0]
}

fn revoke(ctx: &Context) {
    let w = ctx.world();
    let me = w.rank();
    if let Err(e) = w.barrier_blocking() {
        fail(me, "barrier", e);
    }
    let e = match me {
        0 => {
            std::thread::sleep(Duration::from_millis(300));
            println!("REVOKE at_us={}", now_us());
            if let Err(e) = w.revoke() {
                fail(me, "revoke", e);
            }
            None
        }
        1 => w.recv_blocking(&mut [0u8], ANY_SOURCE, ANY_TAG).err(),
        2 => w.barrier_blocking().err(),
        _ => match w.irecv(vec![0u8], 0, 5) {
            Ok(r) => r.wait().err(),
            Err(e) => Some(e),
        },
    };
    if me != 0 {
        match e {
            Some(e) if e.kind() == nexar::ErrorKind::Revoked => {
                println!("REVOKED rank={me} at_us={}", now_us())
            }
            Some(e) => fail(me, "wrong-error", e),
            None => fail(me, "not-revoked", "operation succeeded"),
        }
    }
    let s = w
        .shrink_blocking()
        .unwrap_or_else(|e| fail(me, "shrink", e));
    let sum = check_allreduce(ctx, &s);
    let flag = w
        .agree_blocking(0xF0 | me)
        .unwrap_or_else(|e| fail(me, "agree", e));
    println!("DONE rank={me} size={} sum={sum} flag={flag}", s.size());
}

fn attrition(ctx: &Context) {
    let me = ctx.rank();
    let mut c = ctx.world().clone();
    let mut round = 0;
    while c.size() > 1 {
        if let Err(e) = c.barrier_blocking() {
            fail(me, "barrier", e);
        }
        // Round 0 kills the coordinator (comm rank 0), later rounds the middle rank.
        let victim = if round == 0 { 0 } else { c.size() / 2 };
        if c.rank() == victim {
            std::thread::sleep(Duration::from_millis(100));
            die();
        }
        let t = Instant::now();
        let err = loop {
            let mut v = [1u32];
            if let Err(e) = c.allreduce_blocking(&mut v, ReduceOp::Sum) {
                break e;
            }
        };
        let detect_ms = t.elapsed().as_millis();
        if let Err(e) = c.revoke() {
            fail(me, "revoke", e);
        }
        let t = Instant::now();
        let s = c
            .shrink_blocking()
            .unwrap_or_else(|e| fail(me, "shrink", e));
        let shrink_ms = t.elapsed().as_millis();
        let sum = check_allreduce(ctx, &s);
        println!(
            "ROUND round={round} rank={me} size={} sum={sum} detect_ms={detect_ms} \
             shrink_ms={shrink_ms} error={:?}",
            s.size(),
            err.kind()
        );
        c = s;
        round += 1;
    }
    println!("LAST rank={me} rounds={round}");
}

fn agree(ctx: &Context) {
    let w = ctx.world();
    let me = w.rank();
    if let Err(e) = w.barrier_blocking() {
        fail(me, "barrier", e);
    }
    if me == 0 {
        std::thread::sleep(Duration::from_millis(100));
        die();
    }
    let t = Instant::now();
    let a = w
        .agree_outcome_blocking(!(1 << me))
        .unwrap_or_else(|e| fail(me, "agree", e));
    println!(
        "AGREE1 rank={me} value={:#x} failed={:?} unacked={} ms={}",
        a.value,
        a.failed,
        a.unacknowledged,
        t.elapsed().as_millis()
    );
    let t = Instant::now();
    while w.failed_ranks().is_empty() {
        if t.elapsed() > Duration::from_secs(20) {
            fail(me, "detect", "rank 0's failure was never detected");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    w.ack_failed();
    let v = w
        .agree_blocking(0xFF00 | me)
        .unwrap_or_else(|e| fail(me, "agree2", e));
    println!("AGREE2 rank={me} value={v:#x}");
}

fn main() {
    let ctx = Context::init().unwrap_or_else(|e| {
        eprintln!("init failed: {e}");
        std::process::exit(2);
    });
    match std::env::args().nth(1).as_deref() {
        Some("revoke") => revoke(&ctx),
        Some("attrition") => attrition(&ctx),
        Some("agree") => agree(&ctx),
        other => {
            eprintln!("usage: ulfm_scenarios revoke|attrition|agree (got {other:?})");
            std::process::exit(2);
        }
    }
    // The world is revoked or has dead members: finalize's barrier fails, and the survivors
    // synchronize by agreement instead.
    match ctx.finalize() {
        Ok(()) => println!("FINALIZED rank={}", ctx.rank()),
        Err(e) => fail(ctx.rank(), "finalize", e),
    }
}
