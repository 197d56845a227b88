//! The fuzz corpora on stable: every checked-in file under `fuzz/corpus/<target>/` goes through
//! the same driver its cargo-fuzz target uses (`fuzz/src/drivers.rs`), so `cargo test` exercises
//! the decoders and machines on them even where nightly and cargo-fuzz are missing. A crash the
//! fuzzers found is fixed, and its input is added to the corpus, so it stays fixed.
//!
//! `cargo test --test fuzz_corpus -- --ignored` rewrites the seed files (valid encodings the
//! fuzzers mutate from).

#[path = "../fuzz/src/drivers.rs"]
#[allow(dead_code)]
mod drivers;

use nexar::bootstrap::rendezvous::{Hello, Reply};
use nexar::wire::{FrameHeader, FrameKind, P2P_SYNC, encode_header};
use std::path::{Path, PathBuf};

fn corpus(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target)
}

fn run_corpus(target: &str, driver: fn(&[u8])) -> usize {
    let dir = corpus(target);
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        let data = std::fs::read(&path).unwrap();
        let outcome = std::panic::catch_unwind(|| driver(&data));
        assert!(outcome.is_ok(), "{target} panicked on {}", path.display());
        n += 1;
    }
    n
}

#[test]
fn frame_decode_corpus_never_panics() {
    assert!(run_corpus("frame_decode", drivers::frame_decode) >= 3);
}

#[test]
fn rendezvous_decode_corpus_never_panics() {
    assert!(run_corpus("rendezvous_decode", drivers::rendezvous_decode) >= 2);
}

#[test]
fn proto_machines_corpus_never_panics() {
    assert!(run_corpus("proto_machines", drivers::proto_machines) >= 6);
}

/// The seed files: valid inputs (and a few near misses) for each target.
fn seeds() -> Vec<(&'static str, &'static str, Vec<u8>)> {
    let frame = |kind: FrameKind, src: u32, payload: &[u8], step: u32| {
        let mut h = FrameHeader::new(kind, src);
        h.len = payload.len() as u64;
        h.step = step;
        h.seq = 3;
        let mut v = encode_header(&h).to_vec();
        v.extend_from_slice(payload);
        v
    };
    let mut stream = vec![2u8];
    stream.extend(frame(FrameKind::Hello, 2, b"", 0));
    stream.extend(frame(FrameKind::P2p, 2, b"hello", P2P_SYNC));
    stream.extend(frame(
        FrameKind::Collective,
        2,
        &[1, 2, 3, 4, 5, 6, 7, 8],
        4,
    ));
    stream.extend(frame(FrameKind::Ack, 2, b"", 0));
    let mut truncated = stream.clone();
    truncated.truncate(stream.len() - 3);
    let mut wrong_src = vec![1u8];
    wrong_src.extend(frame(FrameKind::Hello, 1, b"", 0));
    wrong_src.extend(frame(FrameKind::P2p, 5, b"x", 0));
    let hello = Hello {
        rank: 3,
        size: 4,
        addr: "127.0.0.1:4000".parse().unwrap(),
        host: "node-a".into(),
    }
    .encode();
    let mut table = vec![1u8]; // a world of 2
    table.extend(
        Reply::Table(vec![
            ("127.0.0.1:4000".parse().unwrap(), "node-a".into()),
            ("[::1]:4001".parse().unwrap(), "node-b".into()),
        ])
        .encode(),
    );
    let mut refused = vec![0u8];
    refused.extend(Reply::Refused("wrong job".into()).encode());
    let mut out = vec![
        ("frame_decode", "stream", stream),
        ("frame_decode", "truncated", truncated),
        ("frame_decode", "wrong_src", wrong_src),
        ("rendezvous_decode", "hello", hello),
        ("rendezvous_decode", "table", table),
        ("rendezvous_decode", "refused", refused),
    ];
    // proto_machines: each collective on 4 and 5 ranks, in order, then with duplicates and
    // truncations chosen by the trailing bytes.
    for which in 0..6u8 {
        let mut v = vec![which, 4 + which % 2, 40, 0, 1];
        v.extend((0..64u8).map(|i| i.wrapping_mul(37)));
        out.push((
            "proto_machines",
            [
                "allreduce",
                "bcast",
                "reduce",
                "allgather",
                "alltoall",
                "barrier",
            ][which as usize],
            v,
        ));
    }
    out
}

#[test]
#[ignore = "rewrites the checked-in seed corpora"]
fn regenerate_seed_corpora() {
    for (target, name, bytes) in seeds() {
        let dir = corpus(target);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("seed-{name}")), bytes).unwrap();
    }
}
