//! Synchronous sends, matched probes and receive cancellation over the in-memory transport.

mod common;

use common::run_ok;
use nexar::{ANY_SOURCE, ANY_TAG, ErrorKind, Source, TagMatch};
use std::time::{Duration, Instant};

#[test]
fn ssend_completes_only_once_a_wildcard_receive_matched_it() {
    let out = run_ok(2, |ctx| {
        let w = ctx.world();
        if ctx.rank() == 0 {
            let t = Instant::now();
            w.ssend_blocking(&[7u32, 8], 1, 3)?;
            let blocking = t.elapsed();
            // Issend: not complete before the match, complete after it.
            let mut r = w.issend(&[9u32], 1, 4)?;
            std::thread::sleep(Duration::from_millis(100));
            let early = r.test();
            w.send_blocking(&[0u8], 1, 99)?; // "post your receive now"
            r.wait()?;
            Ok((blocking, early))
        } else {
            std::thread::sleep(Duration::from_millis(200));
            let mut b = [0u32; 2];
            let st = w.recv_blocking(&mut b, ANY_SOURCE, ANY_TAG)?;
            assert_eq!((b, st.source, st.tag), ([7, 8], 0, 3));
            w.recv_blocking(&mut [0u8], Source::Rank(0), TagMatch::Tag(99))?;
            let mut c = [0u32];
            w.recv_blocking(&mut c, ANY_SOURCE, TagMatch::Tag(4))?;
            assert_eq!(c, [9]);
            Ok((Duration::ZERO, false))
        }
    });
    assert!(
        out[0].0 >= Duration::from_millis(150),
        "ssend returned after {:?}, before the receiver's receive",
        out[0].0
    );
    assert!(!out[0].1, "issend completed before the receive was posted");
}

#[test]
fn ssend_to_self_and_a_matched_probe_acknowledge() {
    run_ok(1, |ctx| {
        let w = ctx.world();
        let s = w.start_ssend_bytes(bytes::Bytes::from_static(b"abc"), 0, 1)?;
        let m = w.mprobe_blocking(Source::Any, TagMatch::Any)?;
        // The matched probe took it: the send is complete although not yet received.
        pollster::block_on(s)?;
        assert_eq!(m.status().bytes, 3);
        let (bytes, st) = m.into_bytes();
        assert_eq!((&bytes[..], st.tag), (&b"abc"[..], 1));
        Ok(())
    });
}

#[test]
fn ssend_to_a_crashed_rank_fails_naming_it() {
    let ctxs = nexar::Context::in_process(3).unwrap();
    std::thread::scope(|s| {
        let sender = s.spawn(|| ctxs[0].world().ssend_blocking(&[1u8], 2, 0));
        std::thread::sleep(Duration::from_millis(50));
        assert!(ctxs[2].simulate_crash());
        let e = sender.join().unwrap().unwrap_err();
        assert_eq!(
            (e.kind(), e.failed_rank()),
            (ErrorKind::ProcFailed, Some(2))
        );
    });
}

#[test]
fn matched_probes_own_their_messages() {
    let n = 4;
    run_ok(n, |ctx| {
        let w = ctx.world();
        if ctx.rank() != 0 {
            let data: Vec<u16> = (0..ctx.rank() as u16 * 3).collect();
            w.send_blocking(&data, 0, 10 + ctx.rank() as i32)?;
            return Ok(());
        }
        let mut seen = Vec::new();
        for _ in 1..n {
            let m = w.mprobe_blocking(Source::Any, TagMatch::Any)?;
            let st = m.status();
            // Nobody else can see or take it now.
            if let Some(p) = w.iprobe(Source::Rank(st.source), ANY_TAG)? {
                panic!("probe saw the matched message: {p:?}");
            }
            assert_eq!(st.tag, 10 + st.source as i32);
            let mut buf = vec![0u16; st.count::<u16>().unwrap()];
            m.recv(&mut buf)?;
            assert_eq!(buf, (0..st.source as u16 * 3).collect::<Vec<_>>());
            seen.push(st.source);
        }
        seen.sort();
        assert_eq!(seen, vec![1, 2, 3]);
        assert!(w.improbe(ANY_SOURCE, ANY_TAG)?.is_none());
        Ok(())
    });
}

#[test]
fn a_dropped_matched_message_is_given_back_and_truncation_is_reported() {
    run_ok(1, |ctx| {
        let w = ctx.world();
        w.send_blocking(&[1u8, 2, 3], 0, 5)?;
        let m = loop {
            if let Some(m) = w.improbe(ANY_SOURCE, TagMatch::Tag(5))? {
                break m;
            }
        };
        drop(m);
        let m = w.improbe(Source::Rank(0), ANY_TAG)?.expect("given back");
        let mut small = [0u8; 2];
        let out = m.recv_into(&mut small);
        assert!(out.truncated);
        assert_eq!((small, out.status.bytes), ([1, 2], 3));
        Ok(())
    });
}

#[test]
fn cancel_withdraws_an_unmatched_receive_only() {
    run_ok(1, |ctx| {
        let w = ctx.world();
        let p = w.start_recv(Source::Rank(0), TagMatch::Tag(1))?;
        let h = p.cancel_handle();
        assert!(h.cancel());
        assert!(h.is_cancelled());
        let e = pollster::block_on(p.finish_into(&mut [0u8; 4])).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidRequest);
        // The message sent later is not lost to the cancelled receive.
        w.send_blocking(&[4u8], 0, 1)?;
        let p = w.start_recv(Source::Rank(0), TagMatch::Tag(1))?;
        assert!(!p.cancel_handle().cancel(), "already matched");
        let mut b = [0u8];
        let out = pollster::block_on(p.finish_into(&mut b))?;
        assert_eq!((b, out.status.bytes), ([4], 1));
        Ok(())
    });
}
