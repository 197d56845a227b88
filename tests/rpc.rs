//! Remote procedure calls over the in-memory transport (one thread per rank), and across real
//! processes under nexarrun (`examples/ranks/rpc_check.rs`).

mod common;
mod rpc_support;

use bytes::Bytes;
use common::run_ranks;
use nexar::{Context, ErrorKind, Source, TagMatch};
use rpc_support::*;
use std::time::{Duration, Instant};

#[test]
fn echo_sum_caller_rank_and_self_calls() {
    run_ranks(3, |ctx| {
        let rpc = ctx.rpc();
        serve_all(&rpc, ctx.rank());
        ctx.world().barrier_blocking().unwrap();
        for to in 0..3 {
            let r = rpc.call(to, ECHO, b"hello".to_vec(), T).unwrap();
            assert_eq!(&r[..], b"hello");
            let args: Vec<u64> = (0..100).map(|i| i * (to as u64 + 1)).collect();
            let r = rpc.call(to, SUM, bytes_of(&args), T).unwrap();
            assert_eq!(u64s(&r), vec![4950 * (to as u64 + 1)]);
            let r = rpc.call(to, WHO, Bytes::new(), None).unwrap();
            assert_eq!(u64s(&r), vec![to as u64, ctx.rank() as u64]);
        }
        assert_eq!(rpc.pending_calls(), 0);
        ctx.world().barrier_blocking().unwrap();
    });
}

#[test]
fn a_thousand_concurrent_calls_from_every_rank_to_every_rank() {
    const N: u64 = 1000;
    let t = Instant::now();
    run_ranks(4, |ctx| {
        let rpc = ctx.rpc();
        serve_all(&rpc, ctx.rank());
        ctx.world().barrier_blocking().unwrap();
        let me = ctx.rank() as u64;
        let reqs: Vec<_> = (0..N)
            .flat_map(|i| (0..4u32).map(move |to| (i, to)))
            .map(|(i, to)| {
                let args = bytes_of(&[i, me, to as u64]);
                (i, to, rpc.start_call(to, SUM, args, T))
            })
            .collect();
        for (i, to, r) in reqs {
            assert_eq!(u64s(&r.wait().unwrap()), vec![i + me + to as u64]);
        }
        assert_eq!(rpc.pending_calls(), 0);
        ctx.world().barrier_blocking().unwrap();
    });
    eprintln!(
        "rpc in-process: 4 ranks x 4 targets x {N} concurrent calls in {:?}",
        t.elapsed()
    );
}

#[test]
fn errors_reach_the_caller_and_the_callee_carries_on() {
    run_ranks(2, |ctx| {
        let rpc = ctx.rpc();
        serve_all(&rpc, ctx.rank());
        ctx.world().barrier_blocking().unwrap();
        let other = 1 - ctx.rank();
        let e = rpc.call(other, 999, b"x".to_vec(), T).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Unsupported);
        assert!(e.message().contains("no function 999"), "{e}");
        let e = rpc.call(other, FAIL, Bytes::new(), T).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidArgument);
        let want = format!("rank {other} refuses rank {}", ctx.rank());
        assert!(e.message().contains(&want), "{e}");
        let e = rpc.call(other, PANIC, Bytes::new(), T).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Internal);
        assert!(e.message().contains("handler blew up on purpose"), "{e}");
        let e = rpc.call(7, ECHO, Bytes::new(), T).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidRank);
        // Still serving after all that.
        assert_eq!(
            &rpc.call(other, ECHO, b"ok".to_vec(), T).unwrap()[..],
            b"ok"
        );
        ctx.world().barrier_blocking().unwrap();
    });
}

#[test]
fn a_timeout_removes_the_call_and_the_late_reply_is_dropped() {
    run_ranks(2, |ctx| {
        let rpc = ctx.rpc();
        serve_all(&rpc, ctx.rank());
        ctx.world().barrier_blocking().unwrap();
        if ctx.rank() == 0 {
            let t = Instant::now();
            let short = Some(Duration::from_millis(100));
            let e = rpc.call(1, SLOW, bytes_of(&[600]), short).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Timeout, "{e}");
            // The handler sleeps 600 ms: an answer before that is the timeout's.
            eprintln!(
                "rpc in-process: a 100 ms timeout fired after {:?}",
                t.elapsed()
            );
            assert_eq!(rpc.pending_calls(), 0);
            // The late reply comes and goes; the next call gets its own answer.
            std::thread::sleep(Duration::from_millis(700));
            let r = rpc.call(1, SLOW, bytes_of(&[0]), T).unwrap();
            assert_eq!(&r[..], b"late");
            assert_eq!(rpc.pending_calls(), 0);
        }
        ctx.world().barrier_blocking().unwrap();
    });
}

#[test]
fn large_payloads_and_a_slow_handler_does_not_stall_messages() {
    run_ranks(2, |ctx| {
        let rpc = ctx.rpc();
        serve_all(&rpc, ctx.rank());
        let w = ctx.world();
        w.barrier_blocking().unwrap();
        if ctx.rank() == 0 {
            let big: Vec<u8> = (0..4 << 20).map(|i: u32| (i % 251) as u8).collect();
            let r = rpc.call(1, ECHO, big.clone(), T).unwrap();
            assert!(r[..] == big[..]);
            // Rank 1's handler sleeps a second; its thread still answers a ping meanwhile.
            let slow = rpc.start_call(1, SLOW, bytes_of(&[1000]), T);
            let t = Instant::now();
            w.send_blocking(&[7u32], 1, 0).unwrap();
            let mut b = [0u32];
            w.recv_blocking(&mut b, Source::Rank(1), TagMatch::Tag(0))
                .unwrap();
            let ping = t.elapsed();
            assert_eq!(b[0], 8);
            assert!(ping < Duration::from_millis(900), "{ping:?}");
            eprintln!("rpc in-process: ping during a 1 s handler took {ping:?}");
            assert_eq!(&slow.wait().unwrap()[..], b"late");
        } else {
            let mut b = [0u32];
            w.recv_blocking(&mut b, Source::Rank(0), TagMatch::Tag(0))
                .unwrap();
            w.send_blocking(&[b[0] + 1], 0, 0).unwrap();
        }
        w.barrier_blocking().unwrap();
    });
}

#[test]
fn handlers_make_nested_calls_including_back_to_their_caller() {
    run_ranks(3, |ctx| {
        let rpc = ctx.rpc();
        // RELAY asks every rank (its caller included) who it is, and sums the answers.
        serve_all(&rpc, ctx.rank());
        ctx.world().barrier_blocking().unwrap();
        let to = (ctx.rank() + 1) % 3;
        let r = rpc.call(to, RELAY, Bytes::new(), T).unwrap();
        assert_eq!(u64s(&r), vec![3]);
        ctx.world().barrier_blocking().unwrap();
    });
}

#[test]
fn register_replace_unregister_and_per_communicator_scope() {
    run_ranks(2, |ctx| {
        let w = ctx.world();
        let rpc = ctx.rpc();
        assert!(!rpc.register(20, |_: &[u8], _| Ok(b"one".to_vec())));
        assert!(rpc.register(20, |_: &[u8], _| Ok(b"two".to_vec())));
        assert!(rpc.is_registered(20));
        // A reversed-order duplicate: comm ranks differ from world ranks there.
        let rev = w
            .split_blocking(Some(0), -(ctx.rank() as i32))
            .unwrap()
            .unwrap();
        let rrpc = rev.rpc();
        rrpc.register(WHO, |_: &[u8], from| Ok(vec![from as u8]));
        w.barrier_blocking().unwrap();
        let other = 1 - ctx.rank();
        assert_eq!(&rpc.call(other, 20, Bytes::new(), T).unwrap()[..], b"two");
        // WHO lives on `rev` only, and reports the caller's rank there.
        let e = rpc.call(other, WHO, Bytes::new(), T).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Unsupported);
        let other_rev = 1 - rev.rank();
        let r = rrpc.call(other_rev, WHO, Bytes::new(), T).unwrap();
        assert_eq!(r[..], [rev.rank() as u8]);
        w.barrier_blocking().unwrap();
        assert!(rpc.unregister(20));
        assert!(!rpc.unregister(20));
        w.barrier_blocking().unwrap();
        let e = rpc.call(other, 20, Bytes::new(), T).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Unsupported);
        w.barrier_blocking().unwrap();
    });
}

#[test]
fn a_crashed_callee_fails_pending_and_later_calls_with_proc_failed() {
    let ctxs = Context::in_process(3).unwrap();
    for c in &ctxs {
        serve_all(&c.rpc(), c.rank());
    }
    let rpc = ctxs[0].rpc();
    let pending = rpc.start_call(2, SLOW, bytes_of(&[5000]), None);
    let other = rpc.start_call(1, SLOW, bytes_of(&[300]), None);
    std::thread::sleep(Duration::from_millis(50));
    let t = Instant::now();
    assert!(ctxs[2].simulate_crash());
    let e = pending.wait().unwrap_err();
    eprintln!(
        "rpc in-process: pending call failed {:?} after the crash",
        t.elapsed()
    );
    assert!(t.elapsed() < Duration::from_secs(2));
    assert_eq!(
        (e.kind(), e.failed_rank()),
        (ErrorKind::ProcFailed, Some(2))
    );
    let e = rpc.call(2, ECHO, Bytes::new(), T).unwrap_err();
    assert_eq!(
        (e.kind(), e.failed_rank()),
        (ErrorKind::ProcFailed, Some(2))
    );
    // Calls to live ranks are unaffected.
    assert_eq!(&other.wait().unwrap()[..], b"late");
    assert_eq!(rpc.pending_calls(), 0);
}

#[test]
fn finalizing_fails_pending_calls_and_drops_handlers() {
    let ctxs = Context::in_process(2).unwrap();
    for c in &ctxs {
        serve_all(&c.rpc(), c.rank());
    }
    let rpc = ctxs[0].rpc();
    let pending = rpc.start_call(1, SLOW, bytes_of(&[2000]), None);
    ctxs[0].finalize().unwrap();
    assert_eq!(pending.wait().unwrap_err().kind(), ErrorKind::Finalized);
    assert!(!rpc.is_registered(ECHO));
    assert!(!rpc.register(ECHO, |p: &[u8], _| Ok(p.to_vec())));
    assert!(!rpc.is_registered(ECHO));
    let e = rpc.call(1, ECHO, Bytes::new(), T).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Finalized);
}

#[test]
fn calls_run_across_processes_under_nexarrun() {
    use common::procs::{example, nexarrun_path};
    for transport in ["quic", "auto"] {
        let t = Instant::now();
        let out = std::process::Command::new(nexarrun_path())
            .args(["-n", "3", "--timeout", "60", "--"])
            .arg(example("rpc_check"))
            .arg("all")
            .env("NEXAR_TRANSPORT", transport)
            .output()
            .expect("nexarrun starts");
        let text = String::from_utf8_lossy(&out.stdout);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{transport}:\n{text}\n{err}");
        for r in 0..3 {
            assert!(
                text.contains(&format!("OK rank={r}")),
                "{transport}:\n{text}\n{err}"
            );
        }
        for l in text.lines().filter(|l| l.starts_with("TIME")) {
            eprintln!("rpc {transport}: {l}");
        }
        eprintln!("rpc {transport}: whole run {:?}", t.elapsed());
        // Latency of one call against a p2p round trip (printed, not asserted).
        let out = std::process::Command::new(nexarrun_path())
            .args(["-n", "2", "--timeout", "60", "--"])
            .arg(example("rpc_check"))
            .arg("latency")
            .env("NEXAR_TRANSPORT", transport)
            .output()
            .expect("nexarrun starts");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{transport}:\n{text}");
        assert!(
            text.contains("OK rank=0") && text.contains("OK rank=1"),
            "{text}"
        );
        for l in text.lines().filter(|l| l.starts_with("TIME")) {
            eprintln!("rpc {transport}: {l}");
        }
    }
}

#[test]
fn a_killed_callee_gives_proc_failed_across_processes() {
    use common::procs::{example, nexarrun_path};
    let t = Instant::now();
    let out = std::process::Command::new(nexarrun_path())
        .args(["-n", "3", "--timeout", "60", "--"])
        .arg(example("rpc_check"))
        .arg("kill")
        .env("NEXAR_TRANSPORT", "auto")
        .env("NEXAR_PEER_TIMEOUT_MS", "3000")
        .output()
        .expect("nexarrun starts");
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    // The victim (rank 2) dies by SIGKILL; both survivors saw their calls to it fail.
    assert_eq!(out.status.code(), Some(137), "{text}\n{err}");
    for r in 0..2 {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("FAILED rank={r} ")))
            .unwrap_or_else(|| panic!("rank {r} reported no failure:\n{text}\n{err}"));
        assert!(line.contains("kind=ProcFailed failed=2"), "{line}");
        eprintln!("rpc kill: {line}");
    }
    eprintln!("rpc kill: whole run {:?}", t.elapsed());
}

#[test]
fn calls_are_futures_too() {
    run_ranks(2, |ctx| {
        let rpc = ctx.rpc();
        serve_all(&rpc, ctx.rank());
        ctx.world().barrier_blocking().unwrap();
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let other = 1 - ctx.rank();
        let got: Vec<u64> = rt.block_on(async {
            let calls: Vec<_> = (0..100u64)
                .map(|i| rpc.start_call(other, SUM, bytes_of(&[i, 1]), T))
                .collect();
            let mut out = Vec::new();
            for c in calls {
                out.push(u64s(&c.await.unwrap())[0]);
            }
            out
        });
        assert_eq!(got, (1..=100).collect::<Vec<u64>>());
        ctx.world().barrier_blocking().unwrap();
    });
}
