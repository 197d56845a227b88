//! Two-phase collective I/O (collective buffering, as ROMIO does it): the collective reads and
//! writes (`_all` at explicit offsets or the individual pointer, and their split forms) move
//! the data between the ranks and a few aggregators, which access the file in large
//! contiguous pieces, instead of every rank reading or writing its own small pieces.
//!
//! * The ranks exchange the byte range each one accesses (one allgather). The range they
//!   cover together is cut into one contiguous file domain per aggregator, and each domain
//!   into windows of at most `cb_buffer_size` bytes; window `r` of every domain is handled in
//!   round `r`.
//! * The ranks cut their runs into pieces at those boundaries and tell each aggregator, once
//!   for all rounds, the pieces it gets (an alltoall of counts and an alltoallv of
//!   descriptions, a strided run of equal pieces as one: `encode`).
//! * Each round some rank has a piece in (an OR of bitmaps tells): one alltoallv of the
//!   bytes. An aggregator writes the union of the pieces it got, coalesced, or reads that
//!   union and sends every rank its pieces back. Its own pieces go straight between its data
//!   and the window, never through the exchange.
//! * An aggregator's file access overlaps the exchange, on a helper thread ([`Worker`]): a
//!   write's window is written while the next one is gathered, the next windows of a read
//!   are read while this one is sent out; it holds at most `WINDOWS` windows. The buffers
//!   are kept for the next call (`Buffers`), so only the first rounds of a process pay for
//!   fresh pages.
//! * Aggregators: `cb_nodes` of them (default: one per host, the first rank of each host);
//!   more than there are hosts are spread evenly over the ranks.
//! * Whether it is used: hint `romio_cb_write` / `romio_cb_read` of rank 0: `enable`,
//!   `disable`, or `automatic` (the default: when the ranks' byte ranges interleave and some
//!   rank's pieces are small, under [`AUTO_PIECE_MAX`] on average: larger pieces are written
//!   as fast by each rank alone, without the exchange and the extra copy). Not in atomic
//!   mode, and not for one rank.
//!
//! Every rank takes part in every round whatever happens; an aggregator that fails keeps going
//! (sending zeros) and returns its error, and the caller agrees on the outcome, so a failure
//! never leaves a rank waiting.

use super::access::Dir;
use super::file::FileObj;
use super::posix::{self, Run};
use super::worker::{Job, Worker};
use crate::consts::MPI_ERR_INTERN;
use crate::errors::report::{MpiError, Result};
use parking_lot::Mutex;
use std::os::fd::AsFd;

/// In `automatic` mode, collective buffering is used only when some rank's pieces average less
/// than this: measured on this box (2-D block array of 32 KiB rows, 256 MiB, 2-4 ranks), rank
/// by rank `pwrite`s of such pieces ran 1.3-2x faster than two-phase, while 256-byte records
/// ran 2.6x faster with it.
pub const AUTO_PIECE_MAX: u64 = 16 << 10;

/// The default `cb_buffer_size`: the most file bytes one aggregator handles in a round. Small
/// windows start the pipeline of reads, exchanges and writes sooner and stay in the CPU's
/// caches from the gather to the `pwrite`; with the descriptions exchanged once, a round costs
/// only one alltoallv. Measured on this box (64 MiB of 256-byte records, write / read MiB/s):
/// 2 ranks 16 MiB 790-840 / 1080-1130, 4 MiB 1040-1060 / 1430, 2 MiB 1130-1180 / 1520-1570,
/// 1 MiB 1230-1240 / 1630-1640; 4 ranks 16 MiB 750-820 / 940-960, 2 MiB 880-920 /
/// 1060-1230, 1 MiB 710-930 / 1040-1210.
pub const DEFAULT_BUFFER: u64 = 2 << 20;

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
const FACTS: usize = 6;

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
    let bytes: u64 = runs.iter().map(|r| r.1 as u64).sum();
    let mean_piece = if runs.is_empty() {
        u64::MAX
    } else {
        bytes / runs.len() as u64
    };
    f.comm
        .allgather_blocking(&[lo, hi, mode, nodes, buffer, mean_piece], &mut all)?;
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
    let small = all.chunks(FACTS).any(|c| c[5] < AUTO_PIECE_MAX);
    let atomic = f.state.lock().atomic;
    if p == 1 || atomic || mode == 2 || (mode == 0 && !(interleaved && small)) {
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

impl Plan {
    /// The aggregator (index into `aggs`) and round of file offset `off`.
    fn place(&self, off: u64) -> (usize, u64) {
        let rel = off - self.lo;
        let agg = ((rel / self.domain) as usize).min(self.aggs.len() - 1);
        (agg, (rel - agg as u64 * self.domain) / self.window)
    }

    /// The round of file offset `off`.
    fn round_of(&self, off: u64) -> u64 {
        self.place(off).1
    }
}

/// Cuts `runs` (consecutive bytes of the rank's packed data) at domain and window boundaries.
fn pieces(plan: &Plan, runs: &[Run]) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut at = 0;
    for &(off, len) in runs {
        let (mut o, end) = (off, off + len as u64);
        while o < end {
            let (agg, round) = plan.place(o);
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

/// Window buffers one aggregator may have at once: the one being gathered and the one the
/// writer thread is writing.
const WINDOWS: usize = 2;

/// The buffers of collective buffering, kept by the process between calls ([`POOL`]) so
/// that the rounds and calls after the first reuse pages already mapped: the files of a
/// checkpoint are often opened, written once and closed, and a fresh window is zeroed and
/// page-faulted (a fault every 4 KiB), which cost as much as the copies into it.
#[derive(Default)]
struct Buffers {
    /// The bytes this rank sends in a round's exchange.
    send: Vec<u8>,
    /// The bytes it receives.
    recv: Vec<u8>,
    /// An aggregator's windows not in use.
    windows: Vec<Vec<u8>>,
}

/// Buffers larger than this are not kept between calls (a large `cb_buffer_size` would
/// otherwise stay mapped for the life of the process).
const KEEP_MAX: usize = 32 << 20;

/// The buffers between calls (a call takes them, and puts back what it had if none are
/// there then: calls on several threads at once each use their own).
static POOL: Mutex<Option<Buffers>> = Mutex::new(None);

impl Buffers {
    /// The kept buffers, or none.
    fn take() -> Self {
        POOL.lock().take().unwrap_or_default()
    }

    /// Keeps the buffers (those not over [`KEEP_MAX`]) for the next call.
    fn keep(mut self) {
        let small = |v: &Vec<u8>| v.capacity() <= KEEP_MAX;
        self.windows.retain(small);
        for v in [&mut self.send, &mut self.recv] {
            if !small(v) {
                *v = Vec::new();
            }
        }
        POOL.lock().get_or_insert(self);
    }
}

/// The first `n` bytes of `v`, grown when shorter (unused bytes are not cleared: every byte
/// handed on is written first).
fn room(v: &mut Vec<u8>, n: usize) -> &mut [u8] {
    if v.len() < n {
        // A fresh zeroed allocation, not `resize`: no copy of the old bytes, pages mapped on
        // first touch.
        *v = vec![0u8; n];
    }
    &mut v[..n]
}

/// Flag on the length word of a piece description: two more words follow, `count` and
/// `stride`, and the description stands for `count` pieces of that length `stride` bytes
/// apart (a strided view's pieces cost 4 words a run of them, not 2 words each).
const VECTOR: u64 = 1 << 63;

/// Appends the descriptions of `pieces` (one round's, for one rank) to `out`: `off, len`, or
/// `off, len | VECTOR, count, stride` for a run of equal pieces at a constant stride.
fn encode(pieces: &[&Piece], out: &mut Vec<u64>) {
    let mut i = 0;
    while i < pieces.len() {
        let first = pieces[i];
        let mut j = i + 1;
        let stride = pieces
            .get(j)
            .filter(|pc| pc.off > first.off)
            .map_or(0, |pc| pc.off - first.off);
        while j < pieces.len()
            && stride > 0
            && pieces[j].len == first.len
            && pieces[j - 1].off.checked_add(stride) == Some(pieces[j].off)
        {
            j += 1;
        }
        if j - i > 1 {
            out.extend([first.off, first.len as u64 | VECTOR, (j - i) as u64, stride]);
        } else {
            j = i + 1;
            out.extend([first.off, first.len as u64]);
        }
        i = j;
    }
}

/// Calls `each(off, len)` for every piece the descriptions `words` (of [`encode`]) stand
/// for, in order.
fn decode(mut words: &[u64], mut each: impl FnMut(u64, usize)) -> Result<()> {
    while let [off, len, rest @ ..] = words {
        let (count, stride, rest) = match (len & VECTOR != 0, rest) {
            (true, [count, stride, rest @ ..]) => (*count, *stride, rest),
            (true, _) => {
                return Err(MpiError::new(
                    MPI_ERR_INTERN,
                    "collective buffering: a truncated piece description",
                ));
            }
            (false, _) => (1, 0, rest),
        };
        let len = (len & !VECTOR) as usize;
        for k in 0..count {
            each(off + k * stride, len);
        }
        words = rest;
    }
    if words.is_empty() {
        Ok(())
    } else {
        Err(MpiError::new(
            MPI_ERR_INTERN,
            "collective buffering: a truncated piece description",
        ))
    }
}

/// The pieces of a call, exchanged once before the rounds: descriptions of every round go to
/// the aggregators together (one exchange of counts and one of descriptions in all, not two
/// a round), and each round then exchanges only its bytes.
struct Exchange<'a> {
    /// The rounds some rank has a piece in, ascending: the others are skipped by every rank
    /// (ranges that interleave sparsely leave most windows empty).
    rounds: Vec<u64>,
    /// This rank's pieces, by round, then destination rank, then the rank's order.
    mine: Vec<&'a Piece>,
    /// As an aggregator, `(round, source, off, len)` of the pieces the other ranks send it, by
    /// round, then source, then the source's order.
    theirs: Vec<(u64, usize, u64, usize)>,
}

/// Exchanges the descriptions of this rank's pieces `all` with the aggregators.
fn exchange<'a>(f: &FileObj, plan: &Plan, all: &'a [Piece]) -> Result<Exchange<'a>> {
    let p = f.comm.size() as usize;
    let me = f.comm.rank() as usize;
    let dest = |pc: &Piece| plan.aggs[pc.agg] as usize;
    // Stable sorts: pieces keep the rank's order within a round and destination.
    let mut by_dest: Vec<&Piece> = all.iter().filter(|pc| dest(pc) != me).collect();
    by_dest.sort_by_key(|pc| (dest(pc), pc.round));
    let mut words: Vec<u64> = Vec::new();
    let mut counts = vec![0u64; p];
    for group in by_dest.chunk_by(|a, b| (dest(a), a.round) == (dest(b), b.round)) {
        let before = words.len();
        encode(group, &mut words);
        counts[dest(group[0])] += (words.len() - before) as u64;
    }
    let mut rcounts = vec![0u64; p];
    f.comm.alltoall_blocking(&counts, &mut rcounts)?;
    let scount: Vec<usize> = counts.iter().map(|&c| c as usize).collect();
    let rcount: Vec<usize> = rcounts.iter().map(|&c| c as usize).collect();
    let mut recv = vec![0u64; rcount.iter().sum()];
    f.comm
        .alltoallv_blocking(&words, &scount, None, &mut recv, &rcount, None)?;
    let mut theirs = Vec::new();
    let mut at = 0;
    for (src, &n) in rcount.iter().enumerate() {
        decode(&recv[at..at + n], |o, l| {
            theirs.push((plan.round_of(o), src, o, l))
        })?;
        at += n;
    }
    theirs.sort_by_key(|t| t.0);
    let mut mine: Vec<&Piece> = all.iter().collect();
    mine.sort_by_key(|pc| (pc.round, dest(pc)));
    // An OR of every rank's bitmap of the rounds it has pieces in (one round: it is run).
    let mut busy = vec![0u64; plan.rounds.div_ceil(64) as usize];
    for pc in &mine {
        busy[(pc.round / 64) as usize] |= 1 << (pc.round % 64);
    }
    if plan.rounds == 1 {
        busy[0] = 1;
    } else {
        f.comm.allreduce_blocking(&mut busy, nexar::ReduceOp::Bor)?;
    }
    let rounds = (0..plan.rounds)
        .filter(|r| busy[(r / 64) as usize] >> (r % 64) & 1 != 0)
        .collect();
    Ok(Exchange {
        rounds,
        mine,
        theirs,
    })
}

/// One round's share of an [`Exchange`], taken in round order.
struct Round<'a> {
    /// This rank's pieces for the other ranks, by destination.
    send: Vec<&'a Piece>,
    /// This rank's pieces for itself (an aggregator's own: they never enter the exchange).
    own: Vec<&'a Piece>,
    /// `(source, off, len)` of the pieces the other ranks send this rank.
    theirs: &'a [(u64, usize, u64, usize)],
}

impl<'a> Exchange<'a> {
    /// Round `round`'s pieces.
    fn round(&'a self, round: u64, me: usize, plan: &Plan) -> Round<'a> {
        let mine = self.mine.partition_point(|pc| pc.round < round);
        let mine_end = self.mine.partition_point(|pc| pc.round <= round);
        let (own, send) = self.mine[mine..mine_end]
            .iter()
            .partition(|pc| plan.aggs[pc.agg] as usize == me);
        let lo = self.theirs.partition_point(|t| t.0 < round);
        let hi = self.theirs.partition_point(|t| t.0 <= round);
        Round {
            send,
            own,
            theirs: &self.theirs[lo..hi],
        }
    }
}

impl Round<'_> {
    /// Whether this rank has file access to do in the round.
    fn accesses(&self) -> bool {
        !self.theirs.is_empty() || !self.own.is_empty()
    }

    /// The union of the pieces of the window, coalesced and ascending.
    fn spans(&self) -> Vec<Run> {
        union(
            self.theirs
                .iter()
                .map(|&(_, _, o, l)| (o, l))
                .chain(self.own.iter().map(|pc| (pc.off, pc.len))),
        )
    }

    /// Bytes this rank sends each rank (`to_theirs`: the answers to the pieces received, as
    /// a reading aggregator does), or receives from each.
    fn counts(&self, p: usize, plan: &Plan, to_theirs: bool) -> Vec<usize> {
        let mut c = vec![0usize; p];
        if to_theirs {
            for &(_, src, _, l) in self.theirs {
                c[src] += l;
            }
        } else {
            for pc in &self.send {
                c[plan.aggs[pc.agg] as usize] += pc.len;
            }
        }
        c
    }
}

/// The union of `spans` (`(offset, length)`), coalesced, ascending.
fn union(spans: impl Iterator<Item = (u64, usize)>) -> Vec<Run> {
    let mut spans: Vec<(u64, u64)> = spans.map(|(o, l)| (o, o + l as u64)).collect();
    // Stable: it finds the ascending runs (each rank's pieces ascend) and merges them, in
    // linear time where the unstable sort took 1.5 ms a 16 MiB window of 256-byte pieces.
    spans.sort();
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
    out
}

/// Collective write of `data` (this rank's packed file bytes) to `runs`: two-phase when the
/// plan says so, else each rank writes its own runs. Every rank of the file calls it.
pub fn write(f: &FileObj, runs: &[Run], data: &[u8]) -> Result<()> {
    let io_err = |e: std::io::Error| posix::error("writing", &f.name, &e);
    let Some(plan) = plan(f, runs, Dir::Write)? else {
        return posix::write_runs(f.fd.as_fd(), runs, data).map_err(io_err);
    };
    let all = pieces(&plan, runs);
    let x = exchange(f, &plan, &all)?;
    let (p, me) = (f.comm.size() as usize, f.comm.rank() as usize);
    let is_agg = plan.aggs.contains(&(me as u32));
    let mut bufs = Buffers::take();
    let windows = std::mem::take(&mut bufs.windows);
    let (windows, failed) = std::thread::scope(|s| -> Result<_> {
        let n = x.rounds.len();
        let mut writer = is_agg.then(|| Worker::start(s, f.fd.as_fd(), Dir::Write, windows, n));
        let mut failed = None;
        for &round in &x.rounds {
            let r = x.round(round, me, &plan);
            // The bytes for the other ranks, in the order of their pieces.
            bufs.send.clear();
            for pc in &r.send {
                bufs.send.extend_from_slice(&data[pc.at..pc.at + pc.len]);
            }
            let scount = r.counts(p, &plan, false);
            let rcount = r.counts(p, &plan, true);
            let recv = room(&mut bufs.recv, rcount.iter().sum());
            f.comm
                .alltoallv_blocking(&bufs.send, &scount, None, recv, &rcount, None)?;
            let Some(writer) = writer.as_mut().filter(|_| r.accesses()) else {
                continue;
            };
            // At most [`WINDOWS`] windows: the one gathered now and the one being written.
            if writer.out >= WINDOWS - 1 {
                let (job, err) = writer.oldest()?;
                writer.free.push(job.buf);
                failed = failed.or(err);
            }
            // Gather the window in rank order (where pieces overlap, the higher rank's bytes
            // win, as if each rank's pieces were written in turn) and hand it on.
            let spans = r.spans();
            let base = spans.first().map_or(0, |s| s.0);
            let top = spans.last().map_or(base, |s| s.0 + s.1 as u64);
            let mut buf = writer.window();
            let window = room(&mut buf, (top - base) as usize);
            let mut put = |o: u64, bytes: &[u8]| {
                let w = (o - base) as usize;
                window[w..w + bytes.len()].copy_from_slice(bytes);
            };
            let split = r.theirs.partition_point(|t| t.1 < me);
            let mut at = 0;
            for &(_, _, o, l) in &r.theirs[..split] {
                put(o, &recv[at..at + l]);
                at += l;
            }
            for pc in &r.own {
                put(pc.off, &data[pc.at..pc.at + pc.len]);
            }
            for &(_, _, o, l) in &r.theirs[split..] {
                put(o, &recv[at..at + l]);
                at += l;
            }
            writer.submit(Job { buf, base, spans })?;
        }
        let (windows, last) = match writer {
            Some(w) => w.finish()?,
            None => (Vec::new(), None),
        };
        Ok((windows, failed.or(last)))
    })?;
    bufs.windows = windows;
    bufs.keep();
    failed.map_or(Ok(()), |e| Err(io_err(e)))
}

/// Hands the reader the window of round `r` (the union of its pieces), if it has any.
fn queue_read(reader: &mut Worker<'_>, r: &Round<'_>) -> Result<()> {
    if !r.accesses() {
        return Ok(());
    }
    let spans = r.spans();
    let base = spans.first().map_or(0, |s| s.0);
    let top = spans.last().map_or(base, |s| s.0 + s.1 as u64);
    let mut buf = reader.window();
    room(&mut buf, (top - base) as usize);
    reader.submit(Job { buf, base, spans })
}

/// Collective read of `runs` into `out` (this rank's packed file bytes); gives the bytes read
/// before the end of the file. Two-phase when the plan says so. Every rank calls it.
pub fn read(f: &FileObj, runs: &[Run], out: &mut [u8]) -> Result<usize> {
    let io_err = |e: std::io::Error| posix::error("reading", &f.name, &e);
    let Some(plan) = plan(f, runs, Dir::Read)? else {
        return posix::read_runs(f.fd.as_fd(), runs, out).map_err(io_err);
    };
    let all = pieces(&plan, runs);
    let x = exchange(f, &plan, &all)?;
    let mut failed: Option<MpiError> = None;
    // Bytes past the end of the file are not read: `out` keeps what it held there.
    let size = posix::size(f.fd.as_fd()).unwrap_or_else(|e| {
        failed.get_or_insert(io_err(e));
        0
    });
    let (p, me) = (f.comm.size() as usize, f.comm.rank() as usize);
    let is_agg = plan.aggs.contains(&(me as u32));
    let mut bufs = Buffers::take();
    let windows = std::mem::take(&mut bufs.windows);
    let windows = std::thread::scope(|s| -> Result<_> {
        let n = x.rounds.len();
        let mut reader = is_agg.then(|| Worker::start(s, f.fd.as_fd(), Dir::Read, windows, n));
        // The reader works [`WINDOWS`] rounds ahead: the disk reads the next window while
        // this one is exchanged.
        if let Some(reader) = reader.as_mut() {
            for &round in x.rounds.iter().take(WINDOWS) {
                queue_read(reader, &x.round(round, me, &plan))?;
            }
        }
        for (i, &round) in x.rounds.iter().enumerate() {
            let r = x.round(round, me, &plan);
            // Send each source its pieces of the window and keep this rank's own.
            bufs.send.clear();
            if let Some(reader) = reader.as_mut().filter(|_| r.accesses()) {
                let (job, err) = reader.oldest()?;
                if let Some(e) = err {
                    failed.get_or_insert(io_err(e));
                }
                let window = |o: u64, l: usize| {
                    let w = (o - job.base) as usize;
                    &job.buf[w..w + l]
                };
                for &(_, _, o, l) in r.theirs {
                    bufs.send.extend_from_slice(window(o, l));
                }
                for pc in &r.own {
                    let n = size.saturating_sub(pc.off).min(pc.len as u64) as usize;
                    out[pc.at..pc.at + n].copy_from_slice(window(pc.off, n));
                }
                reader.free.push(job.buf);
            }
            if let (Some(reader), Some(&ahead)) = (reader.as_mut(), x.rounds.get(i + WINDOWS)) {
                queue_read(reader, &x.round(ahead, me, &plan))?;
            }
            let scount = r.counts(p, &plan, true);
            let rcount = r.counts(p, &plan, false);
            let recv = room(&mut bufs.recv, rcount.iter().sum());
            f.comm
                .alltoallv_blocking(&bufs.send, &scount, None, recv, &rcount, None)?;
            let mut at = 0;
            for pc in &r.send {
                let n = size.saturating_sub(pc.off).min(pc.len as u64) as usize;
                out[pc.at..pc.at + n].copy_from_slice(&recv[at..at + n]);
                at += pc.len;
            }
        }
        match reader {
            Some(reader) => reader.finish().map(|(w, err)| {
                if let Some(e) = err {
                    failed.get_or_insert(io_err(e));
                }
                w
            }),
            None => Ok(Vec::new()),
        }
    })?;
    bufs.windows = windows;
    bufs.keep();
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

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(off: u64, len: usize) -> Piece {
        Piece {
            round: 0,
            agg: 0,
            off,
            len,
            at: 0,
        }
    }

    fn round_trip(list: &[(u64, usize)]) -> Vec<u64> {
        let pieces: Vec<Piece> = list.iter().map(|&(o, l)| piece(o, l)).collect();
        let refs: Vec<&Piece> = pieces.iter().collect();
        let mut words = Vec::new();
        encode(&refs, &mut words);
        let mut back = Vec::new();
        decode(&words, |o, l| back.push((o, l))).unwrap();
        assert_eq!(back, list);
        words
    }

    #[test]
    fn descriptions_round_trip_and_strided_pieces_shrink() {
        // A strided run: one vector description.
        let strided: Vec<(u64, usize)> = (0..1000).map(|k| (16 + 512 * k, 256)).collect();
        assert_eq!(round_trip(&strided).len(), 4);
        // Irregular pieces, a length change, a stride change, repeats and a step back.
        round_trip(&[]);
        round_trip(&[(5, 3)]);
        round_trip(&[
            (0, 8),
            (16, 8),
            (32, 8),
            (40, 8),
            (48, 4),
            (100, 4),
            (100, 4),
            (0, 1),
        ]);
        round_trip(&[(10, 2), (20, 2), (30, 3), (40, 3), (50, 3), (60, 3)]);
    }

    #[test]
    fn a_truncated_description_is_an_error() {
        assert!(decode(&[0, 8 | VECTOR, 3], |_, _| {}).is_err());
        assert!(decode(&[0], |_, _| {}).is_err());
    }

    #[test]
    fn union_coalesces_touching_and_overlapping_spans() {
        let u = union([(10, 5), (0, 10), (30, 5), (12, 10), (40, 0)].into_iter());
        assert_eq!(u, vec![(0, 22), (30, 5), (40, 0)]);
    }
}
