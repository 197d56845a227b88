//! The confirmation round ([`nexar_proto::algo::confirm`]): a bcast or reduce followed by a
//! barrier gives the same outputs as the bare machine under every delivery order, costs exactly
//! one dissemination barrier more, and no rank is done before it heard from the others.

use nexar_proto::Outbox;
use nexar_proto::algo::confirm::{CONFIRM_STEP_BASE, Confirmed};
use nexar_proto::algo::{bcast, ceil_log2};
use nexar_proto::select::reductions::BcastAlgo;
use nexar_proto::{Collective, Group, Rank, sim, testkit};

fn bcast_machine(n: u32, r: Rank, root: Rank, data: &[u8]) -> Box<dyn Collective> {
    let input = if r == root {
        data.to_vec()
    } else {
        vec![0; data.len()]
    };
    bcast::machine_with(Group::new(r, n).unwrap(), root, input, BcastAlgo::Binomial).unwrap()
}

#[test]
fn a_confirmed_bcast_gives_the_roots_bytes_and_costs_one_barrier() {
    for n in 1..=9u32 {
        let data = testkit::bytes(0, 100, n as u64);
        for root in [0, n / 2, n - 1] {
            let bare = sim::run_synchronous(n, |r| Ok(bcast_machine(n, r, root, &data))).unwrap();
            for seed in testkit::seeds().take(8) {
                let conf = sim::run(n, seed, |r| {
                    Ok(Box::new(Confirmed::new(
                        bcast_machine(n, r, root, &data),
                        Group::new(r, n).unwrap(),
                    )) as Box<dyn Collective>)
                })
                .unwrap_or_else(|e| panic!("n={n} root={root} seed={seed}: {e}"));
                for (r, out) in conf.outputs.iter().enumerate() {
                    assert_eq!(out, &bare.outputs[r], "n={n} root={root} rank {r}");
                }
                let barrier_msgs = (n * ceil_log2(n)) as usize;
                assert_eq!(conf.messages, bare.messages + barrier_msgs, "n={n}");
            }
        }
    }
}

#[test]
fn a_bcast_root_is_not_done_until_every_member_confirmed() {
    let data = [7u8; 8];
    let mut root = Confirmed::new(bcast_machine(2, 0, 0, &data), Group::new(0, 2).unwrap());
    let mut out = Outbox::new();
    root.start(&mut out).unwrap();
    // The bare root would be done here; the confirmed one sent its data and its barrier signal
    // and waits for rank 1's.
    assert!(!root.is_done());
    let steps: Vec<u32> = out.drain().map(|m| m.step).collect();
    assert!(steps.contains(&CONFIRM_STEP_BASE), "{steps:?}");
    root.deliver(
        nexar_proto::Incoming {
            from: 1,
            step: CONFIRM_STEP_BASE,
            payload: bytes::Bytes::new(),
        },
        &mut out,
    )
    .unwrap();
    assert!(root.is_done());
    assert_eq!(Box::new(root).finish().unwrap(), data);
}
