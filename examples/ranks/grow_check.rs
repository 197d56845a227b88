//! Elastic growth check (tests/grow.rs): the job grows by `GROW_CHECK_ADD` ranks (default 2)
//! `GROW_CHECK_TIMES` times (default 1). Rank 0 starts the new processes by running this binary
//! again with the argument `newcomer`; those join with the ordinary `Context::init` and take
//! part in later grows. After each grow every rank checks its rank, size and epoch and an
//! allreduce over the new world, and the old world is checked to still work.
//!
//! With `GROW_CHECK_MODE=never` rank 0 starts nothing: every old rank must get the rendezvous
//! timeout error; it prints `growfail ...` and exits 0. With `GROW_CHECK_MODE=startfail` rank
//! 0's start callback fails: every old rank must get an error the same way.
//!
//! Rank 0 also checks that the new epoch's secret file is gone once the grown world is up.
//!
//! Prints one `ok rank=R size=S epoch=E sum=X` line per world a process checks.

use nexar::{Context, ReduceOp};
use std::process::Child;
use std::time::{Duration, Instant};

fn env_u32(name: &str, default: u32) -> u32 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Checks a world: ranks in range, and the allreduce of rank+1 over it.
fn check(ctx: &Context) -> nexar::Result<()> {
    let (r, n) = (u64::from(ctx.rank()), u64::from(ctx.size()));
    assert!(r < n, "rank {r} out of a world of {n}");
    let w = ctx.world();
    let mut v = [r + 1];
    w.block_on(w.allreduce(&mut v, ReduceOp::Sum))?;
    assert_eq!(v[0], n * (n + 1) / 2, "allreduce over {n} ranks");
    println!("ok rank={r} size={n} epoch={} sum={}", ctx.epoch(), v[0]);
    Ok(())
}

/// Waits for the processes this rank started, killing them past the deadline.
fn reap(children: Vec<Child>) -> bool {
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut ok = true;
    for mut c in children {
        loop {
            match c.try_wait() {
                Ok(Some(st)) => {
                    ok &= st.success();
                    break;
                }
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                _ => {
                    let _ = c.kill();
                    let _ = c.wait();
                    ok = false;
                    break;
                }
            }
        }
    }
    ok
}

fn main() {
    let newcomer = std::env::args().nth(1).as_deref() == Some("newcomer");
    let add = env_u32("GROW_CHECK_ADD", 2);
    let times = env_u32("GROW_CHECK_TIMES", 1);
    let mode = std::env::var("GROW_CHECK_MODE").unwrap_or_default();
    let (never, startfail) = (mode == "never", mode == "startfail");
    let me = std::env::current_exe().expect("own path");
    let mut ctx = Context::init().expect("init");
    if newcomer {
        assert!(ctx.epoch() >= 1, "a newcomer joins a grown world");
    }
    let mut children = Vec::new();
    check(&ctx).expect("check");
    while ctx.epoch() < times {
        let t0 = Instant::now();
        let mut secret_file = None;
        let grown = ctx.grow(add, |plan| {
            secret_file = plan.newcomers[0]
                .env
                .iter()
                .find(|(k, _)| k == "NEXAR_JOB_SECRET_FILE")
                .map(|(_, v)| std::path::PathBuf::from(v));
            if startfail {
                return Err(nexar::Error::invalid(
                    "grow_check: refusing to start anyone",
                ));
            }
            if !never {
                children.extend(plan.spawn(&me, &["newcomer".to_string()])?);
            }
            Ok(())
        });
        let next = match grown {
            Ok(c) => c,
            Err(e) if never || startfail => {
                println!(
                    "growfail rank={} kind={:?} after_ms={}: {e}",
                    ctx.rank(),
                    e.kind(),
                    t0.elapsed().as_millis()
                );
                return;
            }
            Err(e) => panic!("rank {}: grow failed: {e}", ctx.rank()),
        };
        eprintln!(
            "rank {}: grew to {} ranks (epoch {}) in {} ms",
            ctx.rank(),
            next.size(),
            next.epoch(),
            t0.elapsed().as_millis()
        );
        if let Some(f) = &secret_file {
            assert!(!f.exists(), "{} outlived the grow", f.display());
        }
        assert_eq!(next.rank(), ctx.rank(), "old ranks keep their rank");
        assert_eq!(next.size(), ctx.size() + add);
        assert_eq!(next.epoch(), ctx.epoch() + 1);
        check(&ctx).expect("the old world still works");
        check(&next).expect("check the grown world");
        ctx = next;
    }
    drop(ctx);
    if !reap(children) {
        eprintln!("a newcomer failed");
        std::process::exit(1);
    }
}
