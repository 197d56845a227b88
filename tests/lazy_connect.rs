//! QUIC connections are made lazily, on the first frame for a peer: after a barrier (and the
//! final barrier of finalize, the same pattern) each rank has connected only to the peers the
//! dissemination barrier talks to, never to all `n - 1`.
//!
//! 16 ranks over QUIC (`NEXAR_TRANSPORT=quic`): rank `r` signals `r + 1, r + 2, r + 4, r + 8`
//! and hears from `r - 1, r - 2, r - 4, r - 8` (mod 16), 7 distinct peers of 15. Counters:
//! `TransportStats::{connections_dialed, connections_accepted, peers_connected}` of the "quic"
//! entry, printed by `examples/scale_probe.rs --barrier-only` after finalize.

mod common;

use common::procs::{example, nexarrun_path};
use std::collections::BTreeMap;
use std::process::Command;

const N: u32 = 16;

/// `(dialed, accepted, peers)` by rank, from the `CONN` lines.
fn counters(stdout: &str) -> BTreeMap<u32, (u64, u64, u64)> {
    let field = |l: &str, k: &str| -> u64 {
        l.split_whitespace()
            .find_map(|kv| kv.strip_prefix(k)?.strip_prefix('='))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no {k} in {l:?}"))
    };
    stdout
        .lines()
        .filter_map(|l| l.find("CONN ").map(|i| &l[i..]))
        .map(|l| {
            let rank = field(l, "rank") as u32;
            (
                rank,
                (field(l, "dialed"), field(l, "accepted"), field(l, "peers")),
            )
        })
        .collect()
}

#[test]
fn a_barrier_connects_only_to_its_partners() {
    let out = Command::new(nexarrun_path())
        .args(["-n", &N.to_string(), "--timeout", "60", "--"])
        .arg(example("scale_probe"))
        .arg("--barrier-only")
        .env("NEXAR_TRANSPORT", "quic")
        .output()
        .expect("nexarrun starts");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "exit {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
    let got = counters(&stdout);
    assert_eq!(got.len(), N as usize, "every rank reports\n{stdout}");
    let rounds = N.trailing_zeros() as u64; // ceil(log2 16) = 4 destinations
    let partners = |r: u32| -> usize {
        let mut set = std::collections::BTreeSet::new();
        for k in 0..rounds as u32 {
            set.insert((r + (1 << k)) % N);
            set.insert((r + N - (1 << k)) % N);
        }
        set.len()
    };
    let mut total_dialed = 0;
    for (&r, &(dialed, accepted, peers)) in &got {
        eprintln!("rank {r}: dialed {dialed}, accepted {accepted}, peers {peers}");
        assert_eq!(peers, partners(r) as u64, "rank {r}: peers connected");
        assert!(peers < u64::from(N - 1), "rank {r} connected to everyone");
        assert!(dialed <= rounds, "rank {r} dialed {dialed} > {rounds}");
        assert!(
            accepted <= rounds,
            "rank {r} accepted {accepted} > {rounds}"
        );
        assert!(
            dialed + accepted >= peers,
            "rank {r}: a peer without a connection"
        );
        total_dialed += dialed;
    }
    let all_pairs = u64::from(N * (N - 1) / 2);
    eprintln!("connections dialed in all: {total_dialed} (all pairs: {all_pairs})");
    assert!(total_dialed <= u64::from(N) * rounds);
}
