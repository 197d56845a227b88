//! Two-phase collective I/O (collective buffering, as ROMIO does it): the collective reads and
//! writes (`_all` at explicit offsets or the individual pointer, and their split forms) move
//! the data between the ranks and a few aggregators, which access the file in large
//! contiguous pieces, instead of every rank reading or writing its own small pieces.
//!
//! * The ranks exchange the byte range each one accesses (one allgather). The range they
//!   cover together is cut into one contiguous file domain per aggregator, and each domain
//!   into windows of at most `cb_buffer_size` bytes; window `r` of every domain is handled in
//!   round `r`, so an aggregator holds at most one window.
//! * Each round: the ranks send each aggregator the pieces of their runs that fall in its
//!   window (an alltoall of counts, an alltoallv of `(offset, length)` pairs and, for writes,
//!   one of the bytes). An aggregator writes the union of the pieces it got, coalesced, or
//!   reads that union and sends every rank its pieces back.
//! * Aggregators: `cb_nodes` of them (default: one per host, the first rank of each host);
//!   more than there are hosts are spread evenly over the ranks.
//! * Whether it is used: hint `romio_cb_write` / `romio_cb_read` of rank 0: `enable`,
//!   `disable`, or `automatic` (the default: when the ranks' byte ranges interleave). Not in
//!   atomic mode, and not for one rank.
//!
//! Every rank takes part in every round whatever happens; an aggregator that fails keeps going
//! (sending zeros) and returns its error, and the caller agrees on the outcome, so a failure
//! never leaves a rank waiting.

use super::access::Dir;
use super::file::FileObj;
use super::posix::{self, Run};
use crate::errors::report::{MpiError, Result};
use std::os::fd::AsFd;

/// The default `cb_buffer_size`: the most file bytes one aggregator handles in a round.
pub const DEFAULT_BUFFER: u64 = 16 << 20;

/// How a collective access is done, from rank 0's hints.
struct Plan {
    /// Aggregator ranks.
    aggs: Vec<u32>,
    /// Start of the range every rank's access lies in.
    lo: u64,
    /// Bytes of each aggregator's file domain.
    domain: u64,
    /// Bytes of each round's window of a domain.
    window: u64,
    /// Rounds.
    rounds: u64,
}

/// One piece of a rank's access: in round `round`, to aggregator `agg` (an index into
/// [`Plan::aggs`]), file bytes `off..off + len`, at `at` in the rank's packed data.
#[derive(Clone, Copy)]
struct Piece {
    round: u64,
    agg: usize,
    off: u64,
    len: usize,
    at: usize,
}

/// Words each rank contributes to the planning allgather.
const FACTS: usize = 5;

fn hint(f: &FileObj, key: &str) -> Option<String> {
    let st = f.state.lock();
    st.hints
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.clone())
}

/// Plans the collective access of `runs` (every rank calls it); `None`: each rank does its
/// own I/O.
fn plan(f: &FileObj, runs: &[Run], dir: Dir) -> Result<Option<Plan>> {
    let key = if dir == Dir::Write {
        "romio_cb_write"
    } else {
        "romio_cb_read"
    };
    let mode = match hint(f, key).as_deref() {
        Some("enable") => 1,
        Some("disable") => 2,
        _ => 0,
    };
    let number = |k: &str| hint(f, k).and_then(|v| v.trim().parse::<u64>().ok());
    let nodes = number("cb_nodes").unwrap_or(f.hosts.len() as u64);
    let buffer = number("cb_buffer_size").unwrap_or(DEFAULT_BUFFER);
    let lo = runs.iter().map(|r| r.0).min().unwrap_or(u64::MAX);
    let hi = runs.iter().map(|r| r.0 + r.1 as u64).max().unwrap_or(0);
    let p = f.comm.size() as usize;
    let mut all = vec![0u64; FACTS * p];
    f.comm
        .allgather_blocking(&[lo, hi, mode, nodes, buffer], &mut all)?;
    // Rank 0's hints decide, so every rank decides the same.
    let (mode, nodes, buffer) = (all[2], all[3].clamp(1, p as u64), all[4].max(1));
    let mut ranges: Vec<(u64, u64)> = all
        .chunks(FACTS)
        .map(|c| (c[0], c[1]))
        .filter(|&(l, h)| l < h)
        .collect();
    ranges.sort_unstable();
    let (Some(first), Some(last_hi)) = (ranges.first(), ranges.iter().map(|r| r.1).max()) else {
        return Ok(None);
    };
    let interleaved = ranges.windows(2).any(|w| w[1].0 < w[0].1);
    let atomic = f.state.lock().atomic;
    if p == 1 || atomic || mode == 2 || (mode == 0 && !interleaved) {
        return Ok(None);
    }
    let glo = first.0;
    let aggs: Vec<u32> = if nodes as usize <= f.hosts.len() {
        (0..nodes as usize)
            .map(|i| f.hosts[i * f.hosts.len() / nodes as usize])
            .collect()
    } else {
        (0..nodes as usize)
            .map(|i| (i * p / nodes as usize) as u32)
            .collect()
    };
    let domain = (last_hi - glo).div_ceil(aggs.len() as u64).max(1);
    let window = buffer.min(domain);
    Ok(Some(Plan {
        rounds: domain.div_ceil(window),
        aggs,
        lo: glo,
        domain,
        window,
    }))
}

/// Cuts `runs` (consecutive bytes of the rank's packed data) at domain and window boundaries.
fn pieces(plan: &Plan, runs: &[Run]) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut at = 0;
    for &(off, len) in runs {
        let (mut o, end) = (off, off + len as u64);
        while o < end {
            let rel = o - plan.lo;
            let agg = ((rel / plan.domain) as usize).min(plan.aggs.len() - 1);
            let in_dom = rel - agg as u64 * plan.domain;
            let round = in_dom / plan.window;
            let stop = (plan.lo + agg as u64 * plan.domain + (round + 1) * plan.window).min(end);
            let n = (stop - o) as usize;
            out.push(Piece {
                round,
                agg,
                off: o,
                len: n,
                at,
            });
            at += n;
            o = stop;
        }
    }
    out
}

/// What an aggregator received in a round: per source rank, its pieces `(off, len)`.
struct Received {
    /// `(source, off, len)` in the order they arrived (by source, then the source's order).
    pieces: Vec<(usize, u64, usize)>,
}

/// This rank's pieces of one round: per destination rank, the pieces it is sent (in order).
type ByDest<'a> = Vec<Vec<&'a Piece>>;

/// One round's exchange of piece descriptions: gives what this rank receives as an
/// aggregator, and this rank's pieces by destination.
fn exchange_pieces<'a>(
    f: &FileObj,
    plan: &Plan,
    all: &'a [Piece],
    round: u64,
) -> Result<(Received, ByDest<'a>)> {
    let p = f.comm.size() as usize;
    let mut by_dest: ByDest<'a> = vec![Vec::new(); p];
    let mine = all.iter().filter(|pc| pc.round == round);
    for pc in mine {
        by_dest[plan.aggs[pc.agg] as usize].push(pc);
    }
    let counts: Vec<u64> = by_dest.iter().map(|v| v.len() as u64).collect();
    let mut rcounts = vec![0u64; p];
    f.comm.alltoall_blocking(&counts, &mut rcounts)?;
    let send: Vec<u64> = by_dest
        .iter()
        .flatten()
        .flat_map(|pc| [pc.off, pc.len as u64])
        .collect();
    let scount: Vec<usize> = counts.iter().map(|&c| 2 * c as usize).collect();
    let rcount: Vec<usize> = rcounts.iter().map(|&c| 2 * c as usize).collect();
    let mut recv = vec![0u64; rcount.iter().sum()];
    f.comm
        .alltoallv_blocking(&send, &scount, None, &mut recv, &rcount, None)?;
    let mut pieces = Vec::with_capacity(recv.len() / 2);
    let mut it = recv.chunks(2);
    for (src, &n) in rcounts.iter().enumerate() {
        for _ in 0..n {
            let d = it.next().expect("counted above");
            pieces.push((src, d[0], d[1] as usize));
        }
    }
    Ok((Received { pieces }, by_dest))
}

/// The union of the received pieces, as runs relative to the window start `base`.
fn union(rx: &Received) -> (u64, Vec<Run>) {
    let mut spans: Vec<(u64, u64)> = rx
        .pieces
        .iter()
        .map(|&(_, o, l)| (o, o + l as u64))
        .collect();
    spans.sort_unstable();
    let base = spans.first().map_or(0, |s| s.0);
    let mut out: Vec<Run> = Vec::new();
    for (s, e) in spans {
        match out.last_mut() {
            Some(last) if s <= last.0 + last.1 as u64 => {
                let end = (last.0 + last.1 as u64).max(e);
                last.1 = (end - last.0) as usize;
            }
            _ => out.push((s, (e - s) as usize)),
        }
    }
    (base, out)
}

/// Collective write of `data` (this rank's packed file bytes) to `runs`: two-phase when the
/// plan says so, else each rank writes its own runs. Every rank of the file calls it.
pub fn write(f: &FileObj, runs: &[Run], data: &[u8]) -> Result<()> {
    let io_err = |e: std::io::Error| posix::error("writing", &f.name, &e);
    let Some(plan) = plan(f, runs, Dir::Write)? else {
        return posix::write_runs(f.fd.as_fd(), runs, data).map_err(io_err);
    };
    let all = pieces(&plan, runs);
    let mut failed: Option<MpiError> = None;
    for round in 0..plan.rounds {
        let (rx, by_dest) = exchange_pieces(f, &plan, &all, round)?;
        // The bytes, in the order of the descriptions.
        let p = f.comm.size() as usize;
        let mut send = Vec::new();
        for pc in by_dest.iter().flatten() {
            send.extend_from_slice(&data[pc.at..pc.at + pc.len]);
        }
        let scount: Vec<usize> = by_dest
            .iter()
            .map(|v| v.iter().map(|pc| pc.len).sum())
            .collect();
        let mut rcount = vec![0usize; p];
        for &(src, _, l) in &rx.pieces {
            rcount[src] += l;
        }
        let mut recv = vec![0u8; rcount.iter().sum()];
        f.comm
            .alltoallv_blocking(&send, &scount, None, &mut recv, &rcount, None)?;
        if rx.pieces.is_empty() {
            continue;
        }
        // Assemble the window and write its union, coalesced.
        let (base, spans) = union(&rx);
        let top = spans.last().map_or(base, |s| s.0 + s.1 as u64);
        let mut window = vec![0u8; (top - base) as usize];
        let mut at = 0;
        for &(_, o, l) in &rx.pieces {
            let w = (o - base) as usize;
            window[w..w + l].copy_from_slice(&recv[at..at + l]);
            at += l;
        }
        for &(o, l) in &spans {
            let w = (o - base) as usize;
            if let Err(e) = posix::pwrite_all(f.fd.as_fd(), &window[w..w + l], o) {
                failed.get_or_insert(io_err(e));
            }
        }
    }
    failed.map_or(Ok(()), Err)
}

/// Collective read of `runs` into `out` (this rank's packed file bytes); gives the bytes read
/// before the end of the file. Two-phase when the plan says so. Every rank calls it.
pub fn read(f: &FileObj, runs: &[Run], out: &mut [u8]) -> Result<usize> {
    let io_err = |e: std::io::Error| posix::error("reading", &f.name, &e);
    let Some(plan) = plan(f, runs, Dir::Read)? else {
        return posix::read_runs(f.fd.as_fd(), runs, out).map_err(io_err);
    };
    let all = pieces(&plan, runs);
    let mut failed: Option<MpiError> = None;
    // Bytes past the end of the file are not read: `out` keeps what it held there.
    let size = posix::size(f.fd.as_fd()).unwrap_or_else(|e| {
        failed.get_or_insert(io_err(e));
        0
    });
    let p = f.comm.size() as usize;
    for round in 0..plan.rounds {
        let (rx, by_dest) = exchange_pieces(f, &plan, &all, round)?;
        // Read the union (zeros past the end of the file), then send each source its pieces.
        let mut send = Vec::new();
        let mut scount = vec![0usize; p];
        if !rx.pieces.is_empty() {
            let (base, spans) = union(&rx);
            let top = spans.last().map_or(base, |s| s.0 + s.1 as u64);
            let mut window = vec![0u8; (top - base) as usize];
            for &(o, l) in &spans {
                let w = (o - base) as usize;
                if let Err(e) = posix::pread_full(f.fd.as_fd(), &mut window[w..w + l], o) {
                    failed.get_or_insert(io_err(e));
                }
            }
            for &(src, o, l) in &rx.pieces {
                let w = (o - base) as usize;
                send.extend_from_slice(&window[w..w + l]);
                scount[src] += l;
            }
        }
        let rcount: Vec<usize> = by_dest
            .iter()
            .map(|v| v.iter().map(|pc| pc.len).sum())
            .collect();
        let mut recv = vec![0u8; rcount.iter().sum()];
        f.comm
            .alltoallv_blocking(&send, &scount, None, &mut recv, &rcount, None)?;
        let mut at = 0;
        for pc in by_dest.iter().flatten() {
            let n = size.saturating_sub(pc.off).min(pc.len as u64) as usize;
            out[pc.at..pc.at + n].copy_from_slice(&recv[at..at + n]);
            at += pc.len;
        }
    }
    if let Some(e) = failed {
        return Err(e);
    }
    // Reading past the end reads short: the bytes before the first run that crosses it (runs
    // ascend: filetypes have non-decreasing displacements).
    let mut got = 0;
    for &(o, l) in runs {
        let n = size.saturating_sub(o).min(l as u64) as usize;
        got += n;
        if n < l {
            break;
        }
    }
    Ok(got)
}
