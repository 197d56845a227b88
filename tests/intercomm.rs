//! Intercommunicators (`Comm::intercomm_create`) over the in-memory transport: ranks address
//! the remote group, collectives between the groups give each group the other's data, merge
//! orders the groups, and intracommunicator collectives are refused.

mod common;

use common::run_ok;
use nexar::{ErrorKind, InterRoot, ReduceOp, Reducer, Source, TagMatch};

/// World ranks of parity `p` among `n`.
fn side(p: u32, n: u32) -> Vec<u32> {
    (0..n).filter(|r| r % 2 == p).collect()
}

#[test]
fn parity_groups_talk_across() {
    for n in [2usize, 3, 4, 5] {
        run_ok(n, |ctx| {
            let w = ctx.world();
            let me = w.rank();
            let (mine, theirs) = (side(me % 2, w.size()), side(1 - me % 2, w.size()));
            let local = w.split_blocking(Some(me % 2), 0)?.expect("a color");
            let ic = local.intercomm_create_blocking(0, Some(w), 1 - me % 2, 3)?;
            assert!(ic.is_inter());
            assert_eq!(ic.size() as usize, mine.len());
            assert_eq!(ic.remote_size(), Some(theirs.len() as u32));
            assert_eq!(ic.remote_world_rank_of(0)?, theirs[0]);
            assert_eq!(ic.peer_count() as usize, theirs.len());

            // Point-to-point addresses remote ranks; statuses name remote ranks.
            for j in 0..theirs.len() as u32 {
                ic.send_blocking(&[me], j, 1)?;
            }
            let mut seen = vec![false; theirs.len()];
            for _ in 0..theirs.len() {
                let mut v = [0u32];
                let st = ic.recv_blocking(&mut v, Source::Any, TagMatch::Tag(1))?;
                assert_eq!(v[0], theirs[st.source as usize]);
                seen[st.source as usize] = true;
            }
            assert!(seen.iter().all(|&s| s));

            // Allreduce: the other group's sum.
            let send = (me as u64).to_le_bytes().to_vec();
            let sum = Reducer::builtin(ReduceOp::Sum, nexar::Datatype::U64);
            let mut out = [0u8; 8];
            ic.block_on(ic.start_inter_allreduce(send, sum)?.finish_into(&mut out))?;
            let want: u64 = theirs.iter().map(|&r| u64::from(r)).sum();
            assert_eq!(u64::from_le_bytes(out), want);

            // Bcast from the even group's rank 0.
            let root = match (me % 2, ic.rank()) {
                (0, 0) => InterRoot::Root,
                (0, _) => InterRoot::Idle,
                _ => InterRoot::Remote(0),
            };
            let mut b = [0u8; 4];
            let p = ic.start_inter_bcast(vec![7, 8, 9, 10], 4, root)?;
            if root == InterRoot::Remote(0) {
                ic.block_on(p.finish_into(&mut b))?;
                assert_eq!(b, [7, 8, 9, 10]);
            } else {
                ic.block_on(p.finish_into(&mut []))?;
            }
            ic.block_on(ic.start_inter_barrier()?.finish_into(&mut []))?;

            // Intracommunicator collectives are refused on every rank alike.
            let e = ic.barrier_blocking().unwrap_err();
            assert_eq!(e.kind(), ErrorKind::InvalidComm);

            // Merge: the high group last.
            let m = ic.intercomm_merge_blocking(me % 2 == 1)?;
            let pos = mine.iter().position(|&r| r == me).unwrap() as u32;
            let evens = side(0, w.size()).len() as u32;
            assert_eq!(m.rank(), if me % 2 == 0 { pos } else { evens + pos });
            let mut all = vec![u64::from(me)];
            m.allreduce_blocking(&mut all, ReduceOp::Sum)?;
            assert_eq!(all[0], (0..w.size() as u64).sum::<u64>());

            // Dup: the same groups, its own traffic.
            let d = ic.dup_blocking()?;
            assert_ne!(d.context_id(), ic.context_id());
            assert_eq!(d.remote_size(), ic.remote_size());
            Ok(())
        });
    }
}
