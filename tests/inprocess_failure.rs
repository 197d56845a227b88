//! Basic liveness over the in-memory transport: a crashed rank fails every pending and later
//! operation that involves it, naming it; communicators without it keep working.

mod common;

use nexar::{ANY_SOURCE, ANY_TAG, ErrorKind, Source, TagMatch};

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

#[test]
fn a_failed_sendrecv_does_not_lose_the_message_it_matched() {
    common::run_ok(2, |ctx| {
        let w = ctx.world();
        if w.rank() == 0 {
            w.send_blocking(&[42u32], 1, 3)?;
        } else {
            // Wait until the message is here, so the receive half matches it at once.
            w.probe_blocking(Source::Rank(0), TagMatch::Tag(3))?;
            let mut v = [0u32];
            let e = w
                .sendrecv_blocking(&[1u8], 99, 0, &mut v, Source::Rank(0), TagMatch::Tag(3))
                .unwrap_err();
            assert_eq!(e.kind(), ErrorKind::InvalidRank);
            assert!(
                w.iprobe(Source::Rank(0), TagMatch::Tag(3))?.is_some(),
                "message kept"
            );
            w.recv_blocking(&mut v, Source::Rank(0), TagMatch::Tag(3))?;
            assert_eq!(v[0], 42);
        }
        Ok(())
    });
}

#[test]
fn a_dropped_receive_gives_back_a_message_matched_after_posting() {
    common::run_ok(2, |ctx| {
        let w = ctx.world();
        if w.rank() == 1 {
            let pending = w.start_recv(Source::Rank(0), TagMatch::Tag(8))?;
            w.send_blocking(&[0u8], 0, 9)?; // posted: go ahead
            let mut ack = [0u8];
            w.recv_blocking(&mut ack, Source::Rank(0), TagMatch::Tag(10))?; // it was sent
            drop(pending); // matched in the background, never read
            let mut v = [0u64];
            w.recv_blocking(&mut v, Source::Rank(0), TagMatch::Tag(8))?;
            assert_eq!(v[0], 77);
        } else {
            let mut go = [0u8];
            w.recv_blocking(&mut go, Source::Rank(1), TagMatch::Tag(9))?;
            w.send_blocking(&[77u64], 1, 8)?;
            w.send_blocking(&[1u8], 1, 10)?;
        }
        Ok(())
    });
}
