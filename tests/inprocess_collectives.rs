//! The conformance suite (tests/common/checks.rs) over the in-memory transport, at world sizes
//! 1 to 8 (primes, powers of two and neither).

mod common;

use common::{checks, run_ok};

const SIZES: [usize; 8] = [1, 2, 3, 4, 5, 6, 7, 8];

fn run_check(name: &str) {
    let (_, f) = checks::ALL
        .iter()
        .find(|(n, _)| *n == name)
        .expect("known check");
    for n in SIZES {
        run_ok(n, |ctx| {
            f(ctx).map_err(|e| e.context(format!("{name} at {n} ranks")))
        });
    }
}

macro_rules! check_tests {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                run_check(stringify!($name));
            }
        )*
        const TESTED: &[&str] = &[$(stringify!($name)),*];
    };
}

check_tests!(
    p2p_order,
    p2p_any_source_any_tag,
    p2p_tag_selection,
    p2p_probe,
    p2p_truncation,
    p2p_self_and_sendrecv_ring,
    p2p_nonblocking_post_order,
    p2p_receives_into_posted_buffers,
    p2p_large_messages,
    p2p_ssend_mprobe_cancel,
    barrier_bcast_every_root,
    reduce_allreduce,
    allreduce_bitwise_identical,
    gathers_scatters_alltoall,
    v_variants,
    reduce_scatter_scans,
    nonblocking_collectives,
    collectives_invisible_to_receives,
    communicators,
    invalid_arguments,
);

#[test]
fn every_check_has_a_test() {
    let all: Vec<&str> = checks::ALL.iter().map(|(n, _)| *n).collect();
    assert_eq!(all, TESTED, "check_tests! must list every check, in order");
}
