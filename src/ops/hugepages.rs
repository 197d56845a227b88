//! Transparent huge pages for the buffers the direct allreduce exposes to `process_vm_readv`.
//!
//! The kernel pins every page a cross-memory read touches, walking the page tables page by
//! page; with 4 KiB pages that walk (`follow_page_pte`) cost about a fifth of a 16 MiB
//! allreduce. Backing the buffers with 2 MiB pages turns it into one step per 2 MiB and cuts
//! TLB misses in the copies. Only whole, aligned 2 MiB stretches inside a buffer are advised
//! (`MADV_HUGEPAGE`, then `MADV_COLLAPSE` to convert pages already faulted in), and only the
//! second time the same buffer is seen: converting costs about one copy of it, which a buffer
//! used once would not earn back, while a reused one (the usual case) gains on every later
//! call. Contents never change, and failure (THP off, no free huge pages) is ignored.
//! `NEXAR_ALLREDUCE_HUGEPAGES=0` turns it off.

use parking_lot::Mutex;
use std::collections::HashMap;
use std::sync::OnceLock;

const HUGE: usize = 2 << 20;
/// Ranges remembered; past this the set is cleared (advising again is harmless).
const REMEMBER: usize = 256;

fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var("NEXAR_ALLREDUCE_HUGEPAGES").map_or(true, |v| v != "0"))
}

/// Asks for huge pages under the aligned 2 MiB stretches of `len` bytes at `addr`.
pub(crate) fn advise(addr: usize, len: usize) {
    let start = addr.next_multiple_of(HUGE);
    let end = addr.saturating_add(len) / HUGE * HUGE;
    if end <= start || !enabled() {
        return;
    }
    // Times each range was seen, up to 2 (advised).
    static SEEN: OnceLock<Mutex<HashMap<(usize, usize), u8>>> = OnceLock::new();
    {
        let mut seen = SEEN.get_or_init(Default::default).lock();
        if seen.len() >= REMEMBER {
            seen.clear();
        }
        let times = seen.entry((start, end)).or_insert(0);
        *times = times.saturating_add(1).min(3);
        if *times != 2 {
            return;
        }
    }
    let p = start as *mut libc::c_void;
    // SAFETY: the range lies inside a buffer this process owns and keeps mapped; both advices
    // leave its contents unchanged (they only change how it is backed).
    unsafe {
        if libc::madvise(p, end - start, libc::MADV_HUGEPAGE) == 0 {
            libc::madvise(p, end - start, libc::MADV_COLLAPSE);
        }
    }
}
