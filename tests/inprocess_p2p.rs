//! Point-to-point semantics over the in-memory transport.

mod common;

use common::{run_ok, run_ranks};
use nexar::{ANY_SOURCE, ANY_TAG, ErrorKind, Source, TagMatch};

#[test]
fn messages_between_a_pair_do_not_overtake() {
    run_ok(2, |ctx| {
        let w = ctx.world();
        if w.rank() == 0 {
            for i in 0..100u32 {
                w.send_blocking(&[i], 1, 7)?;
            }
        } else {
            for i in 0..100u32 {
                let mut v = [0u32];
                w.recv_blocking(&mut v, Source::Rank(0), TagMatch::Tag(7))?;
                assert_eq!(v[0], i);
            }
        }
        Ok(())
    });
}

#[test]
fn any_source_and_any_tag_report_the_sender() {
    let out = run_ok(4, |ctx| {
        let w = ctx.world();
        if w.rank() != 0 {
            w.send_blocking(&[w.rank() * 10], 0, w.rank() as i32)?;
            return Ok(vec![]);
        }
        let mut seen = Vec::new();
        for _ in 1..4 {
            let mut v = [0u32];
            let st = w.recv_blocking(&mut v, ANY_SOURCE, ANY_TAG)?;
            assert_eq!(v[0], st.source * 10);
            assert_eq!(st.tag, st.source as i32);
            assert_eq!(st.bytes, 4);
            seen.push(st.source);
        }
        seen.sort();
        Ok(seen)
    });
    assert_eq!(out[0], vec![1, 2, 3]);
}

#[test]
fn tags_select_messages_out_of_arrival_order() {
    run_ok(2, |ctx| {
        let w = ctx.world();
        if w.rank() == 0 {
            w.send_blocking(&[1u8], 1, 1)?;
            w.send_blocking(&[2u8], 1, 2)?;
        } else {
            let mut v = [0u8];
            w.recv_blocking(&mut v, Source::Rank(0), TagMatch::Tag(2))?;
            assert_eq!(v[0], 2);
            w.recv_blocking(&mut v, Source::Rank(0), TagMatch::Tag(1))?;
            assert_eq!(v[0], 1);
        }
        Ok(())
    });
}

#[test]
fn probe_reports_without_consuming() {
    run_ok(2, |ctx| {
        let w = ctx.world();
        if w.rank() == 0 {
            w.send_blocking(&[5u64, 6, 7], 1, 3)?;
        } else {
            let st = w.probe_blocking(ANY_SOURCE, ANY_TAG)?;
            assert_eq!((st.source, st.tag, st.bytes), (0, 3, 24));
            assert_eq!(st.count::<u64>(), Some(3));
            assert!(w.iprobe(ANY_SOURCE, TagMatch::Tag(4))?.is_none());
            let mut v = vec![0u64; st.count::<u64>().unwrap()];
            w.recv_blocking(&mut v, Source::Rank(0), TagMatch::Tag(3))?;
            assert_eq!(v, [5, 6, 7]);
            assert!(w.iprobe(ANY_SOURCE, ANY_TAG)?.is_none());
        }
        Ok(())
    });
}

#[test]
fn truncation_is_an_error_and_writes_nothing_past_the_buffer() {
    run_ok(2, |ctx| {
        let w = ctx.world();
        if w.rank() == 0 {
            w.send_blocking(&[1u8, 2, 3, 4], 1, 0)?;
        } else {
            let mut buf = [0u8; 4];
            let e = w
                .recv_blocking(&mut buf[..2], Source::Rank(0), TagMatch::Tag(0))
                .unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Truncated);
            assert_eq!(buf, [1, 2, 0, 0]);
        }
        Ok(())
    });
}

#[test]
fn self_messages_and_sendrecv_ring() {
    let n = 5;
    run_ok(n, |ctx| {
        let w = ctx.world();
        let me = w.rank();
        w.send_blocking(&[me], me, 9)?;
        let mut v = [0u32];
        w.recv_blocking(&mut v, Source::Rank(me), TagMatch::Tag(9))?;
        assert_eq!(v[0], me);
        let right = (me + 1) % n as u32;
        let left = (me + n as u32 - 1) % n as u32;
        let st = w.sendrecv_blocking(
            &[me],
            right,
            1,
            &mut v,
            Source::Rank(left),
            TagMatch::Tag(1),
        )?;
        assert_eq!((v[0], st.source), (left, left));
        Ok(())
    });
}

#[test]
fn nonblocking_receives_match_in_post_order() {
    run_ok(2, |ctx| {
        let w = ctx.world();
        if w.rank() == 1 {
            let a = w.irecv(vec![0u16; 1], ANY_SOURCE, TagMatch::Tag(4))?;
            let b = w.irecv(vec![0u16; 1], ANY_SOURCE, TagMatch::Tag(4))?;
            w.send_blocking(&[0u8], 0, 0)?; // tell rank 0 the receives are posted
            let (va, _) = a.wait()?;
            let (vb, _) = b.wait()?;
            assert_eq!((va[0], vb[0]), (100, 200));
        } else {
            let mut go = [0u8];
            w.recv_blocking(&mut go, Source::Rank(1), TagMatch::Tag(0))?;
            w.isend(&[100u16], 1, 4)?.wait()?;
            w.isend(&[200u16], 1, 4)?.wait()?;
        }
        Ok(())
    });
}

#[test]
fn bad_arguments_fail_cleanly() {
    run_ranks(2, |ctx| {
        let w = ctx.world();
        assert_eq!(
            w.send_blocking(&[1u8], 2, 0).unwrap_err().kind(),
            ErrorKind::InvalidRank
        );
        assert_eq!(
            w.send_blocking(&[1u8], 0, -5).unwrap_err().kind(),
            ErrorKind::InvalidTag
        );
        let mut b = [0u8];
        let e = w
            .recv_blocking(&mut b, Source::Rank(7), ANY_TAG)
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidRank);
        assert_eq!(
            w.iprobe(ANY_SOURCE, TagMatch::Tag(-1)).unwrap_err().kind(),
            ErrorKind::InvalidTag
        );
    });
}

#[test]
fn a_crashed_peer_fails_pending_and_later_operations_naming_it() {
    let ctxs = nexar::Context::in_process(3).unwrap();
    // Before the crash: ranks 0 and 1 build a communicator of their own.
    let pair: Vec<_> = std::thread::scope(|s| {
        let hs: Vec<_> = ctxs
            .iter()
            .map(|c| s.spawn(move || c.world().split_blocking((c.rank() < 2).then_some(0), 0)))
            .collect();
        hs.into_iter().map(|h| h.join().unwrap().unwrap()).collect()
    });
    std::thread::scope(|s| {
        let waiter = s.spawn(|| {
            let mut b = [0u8];
            ctxs[0]
                .world()
                .recv_blocking(&mut b, Source::Rank(2), ANY_TAG)
        });
        let any = s.spawn(|| {
            let mut b = [0u8];
            ctxs[1].world().recv_blocking(&mut b, ANY_SOURCE, ANY_TAG)
        });
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(ctxs[2].simulate_crash());
        let e = waiter.join().unwrap().unwrap_err();
        assert_eq!(
            (e.kind(), e.failed_rank()),
            (ErrorKind::ProcFailed, Some(2))
        );
        assert!(e.message().contains("rank 2"));
        let e = any.join().unwrap().unwrap_err();
        assert_eq!(e.kind(), ErrorKind::ProcFailed);
    });
    let e = ctxs[0].world().send_blocking(&[1u8], 2, 0).unwrap_err();
    assert_eq!(e.failed_rank(), Some(2));
    let e = ctxs[0].world().barrier_blocking().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::ProcFailed);
    // The communicator without the dead rank keeps working.
    std::thread::scope(|s| {
        let hs: Vec<_> = pair[..2]
            .iter()
            .map(|c| {
                s.spawn(move || {
                    let c = c.as_ref().unwrap();
                    let mut v = [0u32];
                    c.allgather_blocking(&[c.rank() + 1], &mut [0u32; 2])?;
                    c.barrier_blocking()?;
                    c.send_blocking(&[c.rank()], 1 - c.rank(), 0)?;
                    c.recv_blocking(&mut v, Source::Rank(1 - c.rank()), TagMatch::Tag(0))?;
                    Ok::<_, nexar::Error>(v[0])
                })
            })
            .collect();
        let got: Vec<u32> = hs.into_iter().map(|h| h.join().unwrap().unwrap()).collect();
        assert_eq!(got, vec![1, 0]);
    });
}
