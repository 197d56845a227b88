//! The engine conformance suite: each check runs on every rank of a world (any size >= 1) and
//! asserts what that rank observes. The in-process tests run it over the in-memory transport;
//! `examples/conformance.rs` runs it under nexarrun over QUIC.

#![allow(dead_code)]

use nexar::{ANY_SOURCE, ANY_TAG, Context, ErrorKind, IntInt, ReduceOp, Result, Source, TagMatch};

/// A named check.
pub type Check = (&'static str, fn(&Context) -> Result<()>);

/// Every check, in the order they run.
pub const ALL: &[Check] = &[
    ("p2p_order", p2p_order),
    ("p2p_any_source_any_tag", p2p_any_source_any_tag),
    ("p2p_tag_selection", p2p_tag_selection),
    ("p2p_probe", p2p_probe),
    ("p2p_truncation", p2p_truncation),
    ("p2p_self_and_sendrecv_ring", p2p_self_and_sendrecv_ring),
    ("p2p_nonblocking_post_order", p2p_nonblocking_post_order),
    (
        "p2p_receives_into_posted_buffers",
        p2p_receives_into_posted_buffers,
    ),
    ("p2p_large_messages", p2p_large_messages),
    ("p2p_ssend_mprobe_cancel", p2p_ssend_mprobe_cancel),
    ("barrier_bcast_every_root", barrier_bcast_every_root),
    ("reduce_allreduce", reduce_allreduce),
    ("allreduce_bitwise_identical", allreduce_bitwise_identical),
    ("gathers_scatters_alltoall", gathers_scatters_alltoall),
    ("v_variants", v_variants),
    ("reduce_scatter_scans", reduce_scatter_scans),
    ("nonblocking_collectives", nonblocking_collectives),
    (
        "collectives_invisible_to_receives",
        collectives_invisible_to_receives,
    ),
    ("communicators", communicators),
    ("invalid_arguments", invalid_arguments),
];

fn lengths(n: usize) -> Vec<usize> {
    let mut v = vec![0, 1, n.saturating_sub(1), n + 1, 1000 * n + 3];
    v.dedup();
    v
}

/// Rank r's input element i: small integers, exact in every type used here.
fn val(r: u32, i: usize) -> i64 {
    ((r as i64 * 7 + i as i64 * 3) % 11) - 5
}

fn input(r: u32, len: usize) -> Vec<i64> {
    (0..len).map(|i| val(r, i)).collect()
}

fn sum_over_ranks(n: u32, i: usize) -> i64 {
    (0..n).map(|r| val(r, i)).sum()
}

pub fn p2p_order(ctx: &Context) -> Result<()> {
    let w = ctx.world();
    if w.size() < 2 {
        return Ok(());
    }
    // Small and large messages interleaved: they travel on different lanes but must match in
    // the order sent.
    let msg = |i: u32| -> Vec<u32> { vec![i; if i.is_multiple_of(5) { 100_000 } else { 1 }] };
    match w.rank() {
        0 => {
            for i in 0..60u32 {
                w.send_blocking(&msg(i), 1, 7)?;
            }
        }
        1 => {
            for i in 0..60u32 {
                let (bytes, st) = pollster::block_on(w.recv_bytes(Source::Rank(0), 7))?;
                assert_eq!(st.bytes, msg(i).len() * 4);
                assert_eq!(&bytes[..4], &i.to_ne_bytes(), "message {i} overtaken");
            }
        }
        _ => {}
    }
    Ok(())
}

pub fn p2p_any_source_any_tag(ctx: &Context) -> Result<()> {
    let w = ctx.world();
    if w.rank() != 0 {
        w.send_blocking(&[w.rank() * 10], 0, w.rank() as i32)?;
        return Ok(());
    }
    let mut seen = Vec::new();
    for _ in 1..w.size() {
        let mut v = [0u32];
        let st = w.recv_blocking(&mut v, ANY_SOURCE, ANY_TAG)?;
        assert_eq!(v[0], st.source * 10);
        assert_eq!((st.tag, st.bytes), (st.source as i32, 4));
        seen.push(st.source);
    }
    seen.sort();
    assert_eq!(seen, (1..w.size()).collect::<Vec<_>>());
    Ok(())
}

pub fn p2p_tag_selection(ctx: &Context) -> Result<()> {
    let w = ctx.world();
    if w.size() < 2 {
        return Ok(());
    }
    match w.rank() {
        0 => {
            w.send_blocking(&[1u8], 1, 1)?;
            w.send_blocking(&[2u8], 1, 2)?;
        }
        1 => {
            let mut v = [0u8];
            w.recv_blocking(&mut v, Source::Rank(0), TagMatch::Tag(2))?;
            assert_eq!(v[0], 2);
            w.recv_blocking(&mut v, Source::Rank(0), TagMatch::Tag(1))?;
            assert_eq!(v[0], 1);
        }
        _ => {}
    }
    Ok(())
}

pub fn p2p_probe(ctx: &Context) -> Result<()> {
    let w = ctx.world();
    let last = w.size() - 1;
    if w.rank() == 0 {
        w.send_blocking(&[5u64, 6, 7], last, 3)?;
    }
    if w.rank() == last {
        let st = w.probe_blocking(ANY_SOURCE, TagMatch::Tag(3))?;
        assert_eq!((st.source, st.tag, st.bytes), (0, 3, 24));
        assert_eq!(st.count::<u64>(), Some(3));
        assert!(w.iprobe(ANY_SOURCE, TagMatch::Tag(4))?.is_none());
        let mut v = vec![0u64; 3];
        w.recv_blocking(&mut v, Source::Rank(0), TagMatch::Tag(3))?;
        assert_eq!(v, [5, 6, 7]);
        assert!(w.iprobe(ANY_SOURCE, TagMatch::Tag(3))?.is_none());
    }
    Ok(())
}

pub fn p2p_truncation(ctx: &Context) -> Result<()> {
    let w = ctx.world();
    let last = w.size() - 1;
    if w.rank() == 0 {
        w.send_blocking(&[1u8, 2, 3, 4], last, 11)?;
    }
    if w.rank() == last {
        let mut buf = [0u8; 4];
        let e = w
            .recv_blocking(&mut buf[..2], Source::Rank(0), TagMatch::Tag(11))
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Truncated);
        assert_eq!(buf, [1, 2, 0, 0], "nothing written past the buffer");
    }
    Ok(())
}

pub fn p2p_self_and_sendrecv_ring(ctx: &Context) -> Result<()> {
    let w = ctx.world();
    let (me, n) = (w.rank(), w.size());
    w.send_blocking(&[me], me, 9)?;
    let mut v = [0u32];
    w.recv_blocking(&mut v, Source::Rank(me), TagMatch::Tag(9))?;
    assert_eq!(v[0], me);
    let (right, left) = ((me + 1) % n, (me + n - 1) % n);
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
}

/// Synchronous sends acknowledged by wildcard receives, matched probes that own their message,
/// and a cancelled receive that does not take a later message.
pub fn p2p_ssend_mprobe_cancel(ctx: &Context) -> Result<()> {
    let w = ctx.world();
    let (me, n) = (w.rank(), w.size());
    let (right, left) = ((me + 1) % n, (me + n - 1) % n);
    let s = w.issend(&[me, me * 2], right, 21)?;
    let mut v = [0u32; 2];
    let st = w.recv_blocking(&mut v, ANY_SOURCE, TagMatch::Tag(21))?;
    assert_eq!((v, st.source), ([left, left * 2], left));
    s.wait()?;
    w.send_blocking(&[me as u16; 3], right, 22)?;
    let m = w.mprobe_blocking(ANY_SOURCE, TagMatch::Tag(22))?;
    assert!(w.iprobe(ANY_SOURCE, TagMatch::Tag(22))?.is_none());
    let mut b = [0u16; 3];
    let st = m.recv(&mut b)?;
    assert_eq!((b, st.source), ([left as u16; 3], left));
    // Only this rank sends itself tag 23, so nothing can match before the cancel.
    let p = w.start_recv(Source::Rank(me), TagMatch::Tag(23))?;
    assert!(p.cancel_handle().cancel());
    drop(p);
    w.send_blocking(&[me + 5], me, 23)?;
    let mut c = [0u32];
    w.recv_blocking(&mut c, Source::Rank(me), TagMatch::Tag(23))?;
    assert_eq!(c[0], me + 5);
    Ok(())
}

/// Receives posted with their buffers (`Comm::start_recv_into`, the path `MPI_Irecv` takes): a
/// window of them filled in posting order by small, large and truncated messages, one taken
/// from the unexpected queue, wildcards interleaved with specific receives, a cancelled one
/// and a dropped one that lose no message.
pub fn p2p_receives_into_posted_buffers(ctx: &Context) -> Result<()> {
    const W: usize = 64;
    const BIG: usize = 100_000;
    if ctx.size() < 2 {
        return Ok(());
    }
    // A communicator of its own, so the wildcard receives see no other check's messages.
    let w = ctx.world().dup_blocking()?;
    // Message i of the window: 8 bytes holding i, except a large one (through the paths for
    // messages that do not fit a ring slot) and one longer than its buffer.
    let msg = |i: usize| -> Vec<u8> {
        let len = match i {
            17 => BIG,
            40 => 20,
            _ => 8,
        };
        let mut v = vec![i as u8; len];
        v[..8].copy_from_slice(&(i as u64).to_le_bytes());
        v
    };
    match w.rank() {
        1 => {
            // Unexpected first: tag 31 is sent before tag 30, so it has arrived once 30 has.
            let mut b = [0u8; 1];
            w.recv_blocking(&mut b, Source::Rank(0), TagMatch::Tag(30))?;
            let mut early = [0u8; 4];
            // SAFETY: `early` outlives the receive, which is awaited below.
            let (r, _) = unsafe {
                w.start_recv_into(early.as_mut_ptr(), 4, Source::Rank(0), TagMatch::Tag(31))?
            };
            let o = w.block_on(r)?;
            assert_eq!(
                (early, o.status.bytes, o.truncated),
                ([9, 8, 7, 6], 4, false)
            );
            // Cancelled before anything matches, then dropped unmatched: neither takes a message.
            let mut spare = [0u8; 8];
            // SAFETY: `spare` outlives both receives.
            let (c, cancel) = unsafe {
                w.start_recv_into(spare.as_mut_ptr(), 8, Source::Rank(0), TagMatch::Tag(32))?
            };
            assert!(cancel.cancel() && cancel.is_cancelled());
            assert_eq!(w.block_on(c).unwrap_err().kind(), ErrorKind::InvalidRequest);
            // SAFETY: as above.
            let (d, _) = unsafe {
                w.start_recv_into(spare.as_mut_ptr(), 8, Source::Rank(0), TagMatch::Tag(32))?
            };
            drop(d);
            // The window, every third receive a wildcard (ANY_SOURCE, ANY_TAG): posted before
            // rank 0 sends, so small messages land straight from the ring.
            let mut bufs = vec![[0u8; 16]; W];
            let mut big = vec![0u8; BIG];
            let mut posted = Vec::with_capacity(W);
            for (i, b) in bufs.iter_mut().enumerate() {
                let (ptr, cap) = if i == 17 {
                    (big.as_mut_ptr(), BIG)
                } else {
                    (b.as_mut_ptr(), b.len())
                };
                let (src, tag) = if i % 3 == 0 {
                    (ANY_SOURCE, ANY_TAG)
                } else {
                    (Source::Rank(0), TagMatch::Tag(33))
                };
                // SAFETY: `bufs` and `big` outlive the receives, all awaited below, and are
                // not touched until then.
                posted.push(unsafe { w.start_recv_into(ptr, cap, src, tag)?.0 });
            }
            w.send_blocking(&[0u8], 0, 34)?;
            // Completed in reverse: completion order does not matter, matching order does.
            let outcomes: Vec<_> = posted
                .into_iter()
                .rev()
                .map(|r| w.block_on(r))
                .collect::<Result<_>>()?;
            for (i, o) in outcomes.into_iter().rev().enumerate() {
                let m = msg(i);
                let got: &[u8] = if i == 17 {
                    &big
                } else {
                    &bufs[i][..m.len().min(16)]
                };
                assert_eq!(got, &m[..got.len()], "receive {i} of the window");
                assert_eq!((o.status.source, o.status.bytes), (0, m.len()));
                assert_eq!(o.truncated, i == 40, "receive {i}");
            }
            // The message the cancelled and the dropped receives did not take is still there.
            let mut last = [0u8; 8];
            w.recv_blocking(&mut last, Source::Rank(0), TagMatch::Tag(32))?;
            assert_eq!(last, *b"not lost");
        }
        0 => {
            w.send_blocking(&[9u8, 8, 7, 6], 1, 31)?;
            w.send_blocking(&[0u8], 1, 30)?;
            let mut go = [0u8];
            w.recv_blocking(&mut go, Source::Rank(1), TagMatch::Tag(34))?;
            for i in 0..W {
                w.send_blocking(&msg(i), 1, 33)?;
            }
            w.send_blocking(b"not lost", 1, 32)?;
        }
        _ => {}
    }
    Ok(())
}

pub fn p2p_nonblocking_post_order(ctx: &Context) -> Result<()> {
    let w = ctx.world();
    if w.size() < 2 {
        return Ok(());
    }
    match w.rank() {
        1 => {
            let a = w.irecv(vec![0u16; 1], ANY_SOURCE, TagMatch::Tag(4))?;
            let b = w.irecv(vec![0u16; 1], ANY_SOURCE, TagMatch::Tag(4))?;
            w.send_blocking(&[0u8], 0, 5)?; // the receives are posted
            let ((va, _), (vb, _)) = (a.wait()?, b.wait()?);
            assert_eq!((va[0], vb[0]), (100, 200));
        }
        0 => {
            let mut go = [0u8];
            w.recv_blocking(&mut go, Source::Rank(1), TagMatch::Tag(5))?;
            w.isend(&[100u16], 1, 4)?.wait()?;
            w.isend(&[200u16], 1, 4)?.wait()?;
        }
        _ => {}
    }
    Ok(())
}

pub fn p2p_large_messages(ctx: &Context) -> Result<()> {
    let w = ctx.world();
    if w.size() < 2 || w.rank() > 1 {
        return Ok(());
    }
    let peer = 1 - w.rank();
    let n = 4 << 20; // 16 MiB of u32
    let mine: Vec<u32> = (0..n as u32).map(|i| i ^ w.rank()).collect();
    let mut got = vec![0u32; n];
    w.sendrecv_blocking(
        &mine,
        peer,
        2,
        &mut got,
        Source::Rank(peer),
        TagMatch::Tag(2),
    )?;
    assert!(got.iter().enumerate().all(|(i, &x)| x == i as u32 ^ peer));
    Ok(())
}

pub fn barrier_bcast_every_root(ctx: &Context) -> Result<()> {
    let w = ctx.world();
    let n = w.size();
    w.barrier_blocking()?;
    for root in 0..n {
        for len in lengths(n as usize) {
            let mut buf = if w.rank() == root {
                input(root, len)
            } else {
                vec![0; len]
            };
            w.bcast_blocking(&mut buf, root)?;
            assert_eq!(buf, input(root, len), "bcast root={root} len={len}");
        }
    }
    let big_root = n / 2;
    let mut big = if w.rank() == big_root {
        input(7, 300_000)
    } else {
        vec![0; 300_000]
    };
    w.bcast_blocking(&mut big, big_root)?;
    assert_eq!(big, input(7, 300_000));
    Ok(())
}

pub fn reduce_allreduce(ctx: &Context) -> Result<()> {
    let w = ctx.world();
    let n = w.size();
    for len in lengths(n as usize).into_iter().chain([300_000]) {
        let want: Vec<i64> = (0..len).map(|i| sum_over_ranks(n, i)).collect();
        let mut v = input(w.rank(), len);
        w.allreduce_blocking(&mut v, ReduceOp::Sum)?;
        assert_eq!(v, want, "allreduce len={len}");
        let root = (len as u32) % n;
        let mut out = vec![0i64; len];
        w.reduce_blocking(&input(w.rank(), len), &mut out, ReduceOp::Sum, root)?;
        if w.rank() == root {
            assert_eq!(out, want, "reduce len={len}");
        } else {
            assert!(out.iter().all(|&x| x == 0), "non-root buffer untouched");
        }
    }
    let mut m = [IntInt::new(w.rank() as i32 % 2, w.rank() as i32)];
    w.allreduce_blocking(&mut m, ReduceOp::MaxLoc)?;
    let want = if n > 1 {
        IntInt::new(1, 1)
    } else {
        IntInt::new(0, 0)
    };
    assert_eq!(m[0], want);
    let mut f = [w.rank() as f32 + 0.5];
    w.allreduce_blocking(&mut f, ReduceOp::Max)?;
    assert_eq!(f[0], n as f32 - 0.5);
    Ok(())
}

pub fn allreduce_bitwise_identical(ctx: &Context) -> Result<()> {
    let w = ctx.world();
    for len in [1000usize, 200_000] {
        let mut v: Vec<f32> = (0..len)
            .map(|i| {
                ((i * 7919 + w.rank() as usize * 104_729) % 1000) as f32 * 1e-3
                    + 1e3 * (i % 3) as f32
            })
            .collect();
        w.allreduce_blocking(&mut v, ReduceOp::Sum)?;
        // Compare a digest of the bits across ranks.
        let digest = v.iter().fold(0u64, |h, x| {
            (h ^ x.to_bits() as u64).wrapping_mul(0x100_0000_01b3)
        });
        let mut all = vec![0u64; w.size() as usize];
        w.allgather_blocking(&[digest], &mut all)?;
        assert!(
            all.iter().all(|&d| d == digest),
            "ranks disagree on allreduce bits"
        );
    }
    Ok(())
}

pub fn gathers_scatters_alltoall(ctx: &Context) -> Result<()> {
    let w = ctx.world();
    let (me, n) = (w.rank(), w.size() as usize);
    for len in lengths(n) {
        let all: Vec<i64> = (0..n as u32).flat_map(|r| input(r, len)).collect();
        let mut out = vec![0i64; len * n];
        w.allgather_blocking(&input(me, len), &mut out)?;
        assert_eq!(out, all, "allgather len={len}");
        let root = (n - 1) as u32;
        let mut out = vec![0i64; if me == root { len * n } else { 0 }];
        w.gather_blocking(&input(me, len), &mut out, root)?;
        if me == root {
            assert_eq!(out, all, "gather len={len}");
        }
        let mut mine = vec![0i64; len];
        let send = if me == 0 { all.clone() } else { vec![] };
        w.scatter_blocking(&send, &mut mine, 0)?;
        assert_eq!(mine, input(me, len), "scatter len={len}");
        let mut out = vec![0i64; len * n];
        let send: Vec<i64> = (0..n as u32)
            .flat_map(|r| input(me * 100 + r, len))
            .collect();
        w.alltoall_blocking(&send, &mut out)?;
        let want: Vec<i64> = (0..n as u32)
            .flat_map(|r| input(r * 100 + me, len))
            .collect();
        assert_eq!(out, want, "alltoall len={len}");
    }
    Ok(())
}

pub fn v_variants(ctx: &Context) -> Result<()> {
    let w = ctx.world();
    let (me, n) = (w.rank() as usize, w.size() as usize);
    let counts: Vec<usize> = (0..n).map(|r| (r * 3) % 4).collect();
    // Reverse order with a one-element gap between blocks.
    let mut displs = vec![0; n];
    let mut at = 0;
    for r in (0..n).rev() {
        displs[r] = at;
        at += counts[r] + 1;
    }
    let mine = input(me as u32, counts[me]);
    let mut expect = vec![-99i64; at];
    for r in 0..n {
        expect[displs[r]..displs[r] + counts[r]].copy_from_slice(&input(r as u32, counts[r]));
    }
    let mut out = vec![-99i64; at];
    w.allgatherv_blocking(&mine, &mut out, &counts, Some(&displs))?;
    assert_eq!(out, expect, "allgatherv");
    let mut out = vec![-99i64; at];
    w.gatherv_blocking(&mine, &mut out, &counts, Some(&displs), 0)?;
    if me == 0 {
        assert_eq!(out, expect, "gatherv");
    }
    let mut got = vec![0i64; counts[me]];
    w.scatterv_blocking(&expect, &counts, Some(&displs), &mut got, 0)?;
    assert_eq!(got, mine, "scatterv");
    // alltoallv: rank s sends (s + d) % 3 elements to rank d.
    let sc: Vec<usize> = (0..n).map(|d| (me + d) % 3).collect();
    let rc: Vec<usize> = (0..n).map(|s| (s + me) % 3).collect();
    let send: Vec<i64> = (0..n)
        .flat_map(|d| input((me * 100 + d) as u32, sc[d]))
        .collect();
    let mut recv = vec![0i64; rc.iter().sum()];
    w.alltoallv_blocking(&send, &sc, None, &mut recv, &rc, None)?;
    let want: Vec<i64> = (0..n)
        .flat_map(|s| input((s * 100 + me) as u32, rc[s]))
        .collect();
    assert_eq!(recv, want, "alltoallv");
    Ok(())
}

pub fn reduce_scatter_scans(ctx: &Context) -> Result<()> {
    let w = ctx.world();
    let (me, n) = (w.rank(), w.size());
    let counts: Vec<usize> = (0..n as usize).map(|r| r % 3).collect();
    let total: usize = counts.iter().sum();
    let start: usize = counts[..me as usize].iter().sum();
    let mut out = vec![0i64; counts[me as usize]];
    w.reduce_scatter_blocking(&input(me, total), &mut out, &counts, ReduceOp::Sum)?;
    let want: Vec<i64> = (start..start + counts[me as usize])
        .map(|i| sum_over_ranks(n, i))
        .collect();
    assert_eq!(out, want, "reduce_scatter");
    let mut out = vec![0i64; 3];
    w.reduce_scatter_block_blocking(&input(me, 3 * n as usize), &mut out, ReduceOp::Sum)?;
    let b = 3 * me as usize;
    let want: Vec<i64> = (b..b + 3).map(|i| sum_over_ranks(n, i)).collect();
    assert_eq!(out, want, "reduce_scatter_block");
    let mut out = vec![0i64; 5];
    w.scan_blocking(&input(me, 5), &mut out, ReduceOp::Sum)?;
    let want: Vec<i64> = (0..5).map(|i| (0..=me).map(|r| val(r, i)).sum()).collect();
    assert_eq!(out, want, "scan");
    let mut out = vec![7i64; 5];
    w.exscan_blocking(&input(me, 5), &mut out, ReduceOp::Sum)?;
    if me == 0 {
        assert_eq!(out, vec![7; 5], "exscan leaves rank 0 untouched");
    } else {
        let want: Vec<i64> = (0..5).map(|i| (0..me).map(|r| val(r, i)).sum()).collect();
        assert_eq!(out, want, "exscan");
    }
    Ok(())
}

pub fn nonblocking_collectives(ctx: &Context) -> Result<()> {
    let w = ctx.world();
    let (me, n) = (w.rank() as i64, w.size() as i64);
    let a = w.iallreduce(vec![me; 10], ReduceOp::Sum)?;
    let b = w.ibcast(vec![me; 3], (n - 1) as u32)?;
    let c = w.ibarrier()?;
    let d = w.iallgather(&[me])?;
    let mut e = w.iallreduce(vec![1i64; 100_000], ReduceOp::Sum)?;
    c.wait()?;
    assert_eq!(d.wait()?, (0..n).collect::<Vec<_>>());
    assert_eq!(b.wait()?, vec![n - 1; 3]);
    assert_eq!(a.wait()?, vec![n * (n - 1) / 2; 10]);
    while !e.test() {
        std::thread::yield_now();
    }
    assert!(e.wait()?.iter().all(|&x| x == n));
    Ok(())
}

pub fn collectives_invisible_to_receives(ctx: &Context) -> Result<()> {
    let w = ctx.world();
    // A wildcard receive posted before collectives run must not be matched by their traffic.
    let mut pending = w.irecv(vec![0u32; 1], ANY_SOURCE, ANY_TAG)?;
    w.barrier_blocking()?;
    let mut v = vec![w.rank() as i64; 64];
    w.allreduce_blocking(&mut v, ReduceOp::Sum)?;
    let mut g = vec![0u8; w.size() as usize];
    w.allgather_blocking(&[1u8], &mut g)?;
    assert!(!pending.test(), "collective traffic matched a user receive");
    assert!(w.iprobe(ANY_SOURCE, ANY_TAG)?.is_none());
    w.send_blocking(&[w.rank() + 1000], w.rank(), 0)?;
    let results = nexar::wait_all([pending]);
    let (buf, st) = results.into_iter().next().expect("one result")?;
    assert_eq!((buf[0], st.source), (w.rank() + 1000, w.rank()));
    w.barrier_blocking()
}

pub fn communicators(ctx: &Context) -> Result<()> {
    let w = ctx.world();
    let (me, n) = (w.rank(), w.size());
    // Two colors, keys reversing the order inside each color.
    let sub = w
        .split_blocking(Some(me % 2), -(me as i32))?
        .expect("has a color");
    let mine: Vec<u32> = (0..n).filter(|r| r % 2 == me % 2).collect();
    assert_eq!(sub.size() as usize, mine.len());
    assert_eq!(
        sub.rank() as usize,
        mine.len() - 1 - mine.iter().position(|&r| r == me).unwrap()
    );
    let dup = sub.dup_blocking()?;
    assert_ne!(dup.context_id(), sub.context_id());
    // Traffic on sub and dup with the same tags must not mix.
    if sub.size() > 1 {
        let peer = 1 - sub.rank().min(1);
        if sub.rank() < 2 {
            sub.send_blocking(&[1u8], peer, 0)?;
            dup.send_blocking(&[2u8], peer, 0)?;
            let mut v = [0u8];
            dup.recv_blocking(&mut v, Source::Rank(peer), TagMatch::Tag(0))?;
            assert_eq!(v[0], 2);
            sub.recv_blocking(&mut v, Source::Rank(peer), TagMatch::Tag(0))?;
            assert_eq!(v[0], 1);
        }
    }
    let mut a = vec![1i64];
    let mut b = vec![100i64];
    sub.allreduce_blocking(&mut a, ReduceOp::Sum)?;
    dup.allreduce_blocking(&mut b, ReduceOp::Sum)?;
    assert_eq!((a[0], b[0]), (sub.size() as i64, 100 * sub.size() as i64));
    let none = w.split_blocking(if me == 0 { None } else { Some(7) }, 0)?;
    assert_eq!(none.is_none(), me == 0);
    if let Some(c) = &none {
        assert_eq!(c.size(), n - 1);
        c.barrier_blocking()?;
    }
    let host = w.split_by_host_blocking(0)?;
    assert_eq!(host.size(), n, "every rank runs on this host");
    assert_eq!(ctx.self_comm().size(), 1);
    let mut s = [me];
    ctx.self_comm().allreduce_blocking(&mut s, ReduceOp::Sum)?;
    assert_eq!(s[0], me);
    Ok(())
}

pub fn invalid_arguments(ctx: &Context) -> Result<()> {
    let w = ctx.world();
    let n = w.size();
    let kind = |r: Result<()>| r.unwrap_err().kind();
    assert_eq!(kind(w.send_blocking(&[1u8], n, 0)), ErrorKind::InvalidRank);
    assert_eq!(kind(w.send_blocking(&[1u8], 0, -5)), ErrorKind::InvalidTag);
    let mut b = [0u8];
    let e = w
        .recv_blocking(&mut b, Source::Rank(n + 7), ANY_TAG)
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidRank);
    assert_eq!(
        w.iprobe(ANY_SOURCE, TagMatch::Tag(-1)).unwrap_err().kind(),
        ErrorKind::InvalidTag
    );
    let mut v = [1i32; 4];
    assert_eq!(kind(w.bcast_blocking(&mut v, n)), ErrorKind::InvalidRoot);
    assert_eq!(
        kind(w.reduce_blocking(&[1.0f32], &mut [0.0], ReduceOp::Band, 0)),
        ErrorKind::InvalidOp
    );
    assert_eq!(
        kind(w.allgather_blocking(&[1u8], &mut [0u8; 1000])),
        ErrorKind::InvalidCount
    );
    if n > 1 {
        assert_eq!(
            kind(w.alltoall_blocking(&[1u8; 1], &mut [0u8; 1])),
            ErrorKind::InvalidCount
        );
    }
    let counts = vec![1usize; n as usize];
    let e = w.allgatherv_blocking(&[1u8], &mut [0u8; 1], &counts[..1], None);
    if n > 1 {
        assert_eq!(kind(e), ErrorKind::InvalidCount);
    }
    let mut huge = counts.clone();
    huge[0] = usize::MAX;
    assert_eq!(
        kind(w.allgatherv_blocking(&[1u8], &mut [0u8; 64], &huge, None)),
        ErrorKind::InvalidCount
    );
    // After the errors nothing is left half-started: a real collective still works.
    let mut s = [w.rank() as i32];
    w.allreduce_blocking(&mut s, ReduceOp::Sum)?;
    assert_eq!(s[0] as u32, n * (n - 1) / 2);
    Ok(())
}
