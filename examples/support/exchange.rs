//! The verified pairwise exchange of the check examples (`examples/rdma_probe.rs` and the
//! programs of `examples/ranks/`; each includes this file with `#[path]`, since every example
//! is its own crate root and `mod x;` finds files only beside it): every rank sends bytes made for their destination to the rank `k` places up
//! while receiving from the rank `k` places down, so no pair waits on another.

use nexar::{Comm, Source, TagMatch};

/// Makes the `size` bytes rank `src` sends to rank `dst`.
pub type Pattern = fn(u32, u32, usize) -> Vec<u8>;

/// The `size` bytes rank `src` sends to rank `dst` (the usual [`Pattern`]).
pub fn pattern(src: u32, dst: u32, size: usize) -> Vec<u8> {
    (0..size)
        .map(|i| (i as u32).wrapping_mul(31).wrapping_add(src * 7 + dst * 13) as u8)
        .collect()
}

/// Sends `make(me, to, size)` to the rank `k` places up (`to`) while receiving `size` bytes
/// from the rank `k` places down (`from`), both with `tag`. Returns `from` and whether its
/// bytes arrived intact (equal to `make(from, me, size)`).
pub fn shift(w: &Comm, k: u32, size: usize, tag: i32, make: Pattern) -> nexar::Result<(u32, bool)> {
    let (me, n) = (w.rank(), w.size());
    let (to, from) = ((me + k) % n, (me + n - k) % n);
    let mut got = vec![0u8; size];
    w.sendrecv_blocking(
        &make(me, to, size),
        to,
        tag,
        &mut got,
        Source::Rank(from),
        TagMatch::Tag(tag),
    )?;
    Ok((from, got == make(from, me, size)))
}
