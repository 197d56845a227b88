//! Communicators on a subset of the parent, made by the members alone
//! (`Comm::create_subset`), over the in-memory transport.

mod common;

use common::run_ok;
use nexar::{ErrorKind, ReduceOp, Source, TagMatch};

#[test]
fn even_ranks_create_twice_with_one_tag_while_odd_ranks_create_their_own() {
    for n in [1usize, 2, 3, 4, 5, 8] {
        run_ok(n, |ctx| {
            let w = ctx.world();
            let me = w.rank();
            let mine: Vec<u32> = (0..w.size()).filter(|r| r % 2 == me % 2).collect();
            // Only the members call; odd ranks use the same tag on another member list.
            let a = w.create_subset(&mine, 5)?.expect("a member");
            let b = w.create_subset(&mine, 5)?.expect("a member");
            assert_ne!(
                a.context_id(),
                b.context_id(),
                "same tag twice: distinct ids"
            );
            assert_ne!(a.context_id(), w.context_id());
            assert_eq!(a.size() as usize, mine.len());
            assert_eq!(a.rank(), me / 2);
            assert_eq!(a.world_rank_of(a.rank())?, me);
            // The two communicators' traffic with equal tags does not mix.
            if a.size() > 1 {
                let peer = 1 - a.rank().min(1);
                if a.rank() < 2 {
                    a.send_blocking(&[1u8], peer, 0)?;
                    b.send_blocking(&[2u8], peer, 0)?;
                    let mut v = [0u8];
                    b.recv_blocking(&mut v, Source::Rank(peer), TagMatch::Tag(0))?;
                    assert_eq!(v[0], 2);
                    a.recv_blocking(&mut v, Source::Rank(peer), TagMatch::Tag(0))?;
                    assert_eq!(v[0], 1);
                }
            }
            let mut x = vec![i64::from(me)];
            a.allreduce_blocking(&mut x, ReduceOp::Sum)?;
            assert_eq!(x[0], mine.iter().map(|&r| i64::from(r)).sum::<i64>());
            let mut y = vec![1i64];
            b.allreduce_blocking(&mut y, ReduceOp::Sum)?;
            assert_eq!(y[0], mine.len() as i64);
            Ok(())
        });
    }
}

#[test]
fn order_of_the_list_gives_the_ranks_and_non_members_get_none() {
    run_ok(4, |ctx| {
        let w = ctx.world();
        let me = w.rank();
        let list = [3u32, 1, 0];
        let c = w.create_subset(&list, 0)?;
        if me == 2 {
            assert!(c.is_none());
            return Ok(());
        }
        let c = c.expect("a member");
        let pos = list.iter().position(|&r| r == me).unwrap() as u32;
        assert_eq!(c.rank(), pos);
        let mut v = vec![0u32; 3];
        c.allgather_blocking(&[me], &mut v)?;
        assert_eq!(v, list);
        // A subset of the subset, derived from the new context.
        let pair = c.create_subset(&[1, 0], 9)?;
        assert_eq!(pair.is_some(), c.rank() < 2);
        if let Some(p) = pair {
            p.barrier_blocking()?;
        }
        Ok(())
    });
}

#[test]
fn bad_lists_are_errors() {
    run_ok(2, |ctx| {
        let w = ctx.world();
        let kind = |r: nexar::Result<_>| r.map(|_: Option<nexar::Comm>| ()).unwrap_err().kind();
        assert_eq!(kind(w.create_subset(&[], 0)), ErrorKind::InvalidArgument);
        assert_eq!(kind(w.create_subset(&[0, 0], 0)), ErrorKind::InvalidRank);
        assert_eq!(kind(w.create_subset(&[0, 2], 0)), ErrorKind::InvalidRank);
        Ok(())
    });
}
