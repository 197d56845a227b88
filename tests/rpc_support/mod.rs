//! The remote functions both RPC suites serve: `tests/rpc.rs` (in-process ranks) and
//! `examples/ranks/rpc_check.rs` (processes under nexarrun, which loads this file with `#[path]`).

#![allow(dead_code)] // each user calls a part

use bytes::Bytes;
use nexar::Rpc;
use std::time::Duration;

/// The timeout of ordinary calls.
pub const T: Option<Duration> = Some(Duration::from_secs(20));
/// Returns its payload.
pub const ECHO: u32 = 1;
/// Sums the payload's little-endian `u64`s.
pub const SUM: u32 = 2;
/// Fails with `InvalidArgument`: "rank ME refuses rank FROM".
pub const FAIL: u32 = 3;
/// Panics.
pub const PANIC: u32 = 4;
/// Sleeps the payload's first `u64` in milliseconds, then returns `late`.
pub const SLOW: u32 = 5;
/// Returns `[callee, caller]` as `u64`s.
pub const WHO: u32 = 6;
/// Asks every rank (its caller included) who it is and returns the sum: nested calls.
pub const RELAY: u32 = 7;

/// The little-endian `u64`s of `b`.
pub fn u64s(b: &[u8]) -> Vec<u64> {
    b.chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect()
}

/// `v` as little-endian bytes.
pub fn bytes_of(v: &[u64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Registers every function above on `rpc` (rank `me`).
pub fn serve_all(rpc: &Rpc, me: u32) {
    rpc.register(ECHO, |p: &[u8], _| Ok(p.to_vec()));
    rpc.register(SUM, |p: &[u8], _| {
        Ok(u64s(p).iter().sum::<u64>().to_le_bytes().to_vec())
    });
    rpc.register(FAIL, move |_: &[u8], from| {
        Err(nexar::Error::invalid(format!(
            "rank {me} refuses rank {from}"
        )))
    });
    rpc.register(PANIC, |_: &[u8], _| panic!("handler blew up on purpose"));
    rpc.register(SLOW, |p: &[u8], _| {
        std::thread::sleep(Duration::from_millis(u64s(p)[0]));
        Ok(b"late".to_vec())
    });
    rpc.register(WHO, move |_: &[u8], from| {
        Ok(bytes_of(&[me as u64, from as u64]))
    });
    let inner = rpc.clone();
    rpc.register(RELAY, move |_: &[u8], _| {
        let mut s = 0;
        for to in 0..inner.size() {
            s += u64s(&inner.call(to, WHO, Bytes::new(), T)?)[0];
        }
        Ok(s.to_le_bytes().to_vec())
    });
}
