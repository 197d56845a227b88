//! Partitioned point-to-point communication (MPI 4): `MPI_Psend_init`, `MPI_Precv_init` (and
//! `_c` forms), `MPI_Pready`, `MPI_Pready_range`, `MPI_Pready_list`, `MPI_Parrived`.
//!
//! A partitioned request is a persistent request (`MPI_Start`, the wait / test family and
//! `MPI_Request_free` treat it as one) whose send side says, partition by partition, when its
//! data is ready. How it moves:
//! - **Matching by initialization order.** The k-th `MPI_Psend_init` from rank a to rank b
//!   with tag t pairs with the k-th `MPI_Precv_init` on b from a with tag t, as MPI requires.
//!   Each pair talks on a companion communicator of its own (`nexar::Comm::companion`, keyed
//!   by both world ranks, the tag and k), so its message never meets ordinary point-to-point
//!   traffic, nor another pair's.
//! - **One message per round.** The send goes out when the last partition is marked ready, as
//!   one message of the whole buffer (MPI lets an implementation move partitions whenever it
//!   likes once they are ready, and the two sides may partition differently). The receive is
//!   posted at `MPI_Start`; `MPI_Parrived` of any partition says whether that message is in,
//!   so it is true for every partition once it is, and the request then tests complete.
//!
//! Partitions are checked (`MPI_ERR_ARG` outside `0..partitions`, a partition marked twice in
//! one round, `MPI_Pready` on a receive or an inactive request); wildcards are refused for the
//! receive's source and tag (`MPI_ERR_RANK`, `MPI_ERR_TAG`), as the standard does not allow them.

use crate::args::{Buf, count, dest_rank, send_tag};
use crate::comm::communicator::MPI_Info;
use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
use crate::p2p::send_modes::{Mode, start_send};
use crate::request::table::{MPI_Request, Running, comm_of, store_persistent};
use parking_lot::Mutex;
use std::collections::HashMap;
use std::ffi::{c_int, c_void};
use std::sync::{Arc, Weak};
use std::task::{Poll, Waker};

/// One partitioned request: its channel, buffer and the state of the round in progress.
struct Part {
    /// The pair's companion communicator; `None` for `MPI_PROC_NULL`.
    channel: Option<nexar::Comm>,
    comm_h: MPI_Comm,
    /// The whole buffer (`partitions * count` elements); the MPI contract keeps it valid
    /// until the request is freed.
    buf: Buf,
    partitions: usize,
    /// The peer's rank in the user's communicator (or `MPI_PROC_NULL`).
    peer: c_int,
    tag: c_int,
    send: bool,
    round: Mutex<Round>,
}

// SAFETY: `buf` points at the user's buffer, which MPI lets any thread use for the request.
unsafe impl Send for Part {}
// SAFETY: as above; the round's state is behind its mutex.
unsafe impl Sync for Part {}

/// The send side's round: which partitions are ready, and where the send goes once all are.
#[derive(Default)]
struct Round {
    active: bool,
    ready: Vec<bool>,
    left: usize,
    /// The round's request, until the last partition's `MPI_Pready` starts the send.
    handoff: Option<Arc<Handoff>>,
}

/// Where the started send goes to the request `MPI_Start` made (which may be waiting on
/// another thread: its waker is woken).
#[derive(Default)]
struct Handoff(Mutex<(Option<Running>, Option<Waker>)>);

impl Handoff {
    fn give(&self, r: Running) {
        let waker = {
            let mut slot = self.0.lock();
            slot.0 = Some(r);
            slot.1.take()
        };
        if let Some(w) = waker {
            w.wake();
        }
    }

    fn poll_take(&self, cx: &mut std::task::Context<'_>) -> Poll<Running> {
        let mut slot = self.0.lock();
        match slot.0.take() {
            Some(r) => Poll::Ready(r),
            None => {
                slot.1 = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    }
}

/// Live partitioned requests by handle (weak: the request's starter owns the state, so a
/// freed request's entry dies with it).
static PARTS: Mutex<Option<HashMap<MPI_Request, Weak<Part>>>> = Mutex::new(None);

/// Initializations so far per (context, sender world rank, receiver world rank, tag, side):
/// the k-th one on each side gets channel k (counted apart per side: a process may be both
/// ends of a pair).
static INITS: Mutex<Option<HashMap<PairKey, u64>>> = Mutex::new(None);

/// (context, sender world rank, receiver world rank, tag, this side sends).
type PairKey = (u64, u32, u32, c_int, bool);

/// The state behind partitioned request `h`.
fn part_of(h: MPI_Request) -> Result<Arc<Part>> {
    PARTS
        .lock()
        .as_ref()
        .and_then(|m| m.get(&h))
        .and_then(Weak::upgrade)
        .ok_or_else(|| {
            MpiError::new(
                MPI_ERR_REQUEST,
                format!("request {h:#x} is not a live partitioned request"),
            )
        })
}

/// World rank of the user-communicator rank `r` this process sends to or receives from.
fn peer_world(c: &nexar::Comm, r: u32) -> Result<u32> {
    let w = if c.is_inter() {
        c.remote_world_rank_of(r)
    } else {
        c.world_rank_of(r)
    };
    w.map_err(MpiError::from)
}

/// The companion communicator of this side's next pair from `from` to `to` (world ranks) with
/// `tag`.
fn channel(c: &nexar::Comm, from: u32, to: u32, tag: c_int, send: bool) -> nexar::Comm {
    let k = {
        let mut inits = INITS.lock();
        let n = inits
            .get_or_insert_with(HashMap::default)
            .entry((c.context_id(), from, to, tag, send))
            .or_insert(0);
        *n += 1;
        *n - 1
    };
    let mut key = b"mpi-partitioned".to_vec();
    for part in [u64::from(from), u64::from(to), tag as u64, k] {
        key.extend_from_slice(&part.to_le_bytes());
    }
    c.companion(&key)
}

#[allow(clippy::too_many_arguments)]
fn init(
    buf: *const c_void,
    partitions: c_int,
    n: MPI_Count,
    dt: MPI_Datatype,
    peer: c_int,
    tag: c_int,
    comm_h: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
    send: bool,
) -> Result<()> {
    let c = crate::coll::persistent::init(comm_h, info, request)?;
    if partitions < 0 {
        return Err(MpiError::new(
            MPI_ERR_ARG,
            format!("partitions is {partitions}, must not be negative"),
        ));
    }
    if n < 0 {
        return Err(MpiError::new(
            MPI_ERR_COUNT,
            format!("count is {n}, must not be negative"),
        ));
    }
    let total = n.checked_mul(MPI_Count::from(partitions)).ok_or_else(|| {
        MpiError::new(
            MPI_ERR_COUNT,
            format!("{partitions} partitions of {n} elements overflow a count"),
        )
    })?;
    let b = Buf::new(buf, total, dt, if send { "send" } else { "receive" })?;
    if !send && peer == MPI_ANY_SOURCE {
        return Err(MpiError::new(
            MPI_ERR_RANK,
            "a partitioned receive needs a source rank (MPI_ANY_SOURCE is not allowed)",
        ));
    }
    if !send && tag == MPI_ANY_TAG {
        return Err(MpiError::new(
            MPI_ERR_TAG,
            "a partitioned receive needs a tag (MPI_ANY_TAG is not allowed)",
        ));
    }
    send_tag(tag)?;
    let what = if send { "destination" } else { "source" };
    let channel = match dest_rank(peer, c.peer_count(), what)? {
        None => None,
        Some(r) => {
            let (me, them) = (c.world_rank_of(c.rank())?, peer_world(&c, r)?);
            let (from, to) = if send { (me, them) } else { (them, me) };
            Some(channel(&c, from, to, tag, send))
        }
    };
    let part = Arc::new(Part {
        channel,
        comm_h,
        buf: b,
        partitions: partitions as usize,
        peer,
        tag,
        send,
        round: Mutex::default(),
    });
    let weak = Arc::downgrade(&part);
    let starter = move || start(&part);
    store_persistent(request, comm_h, Box::new(starter))?;
    // SAFETY: `request` was checked for NULL and just written by `store_persistent`.
    let h = unsafe { request.read() };
    let mut parts = PARTS.lock();
    let parts = parts.get_or_insert_with(HashMap::default);
    parts.retain(|_, w| w.strong_count() > 0);
    parts.insert(h, weak);
    Ok(())
}

/// `MPI_Start` of a partitioned request: a receive is posted; a send waits for its partitions.
fn start(p: &Part) -> Result<Running> {
    let Some(chan) = p.channel.as_ref() else {
        let mut round = p.round.lock();
        *round = Round {
            active: p.send,
            ready: vec![false; p.partitions],
            left: p.partitions,
            handoff: None,
        };
        let st = (!p.send).then(crate::request::status::MPI_Status::proc_null);
        return Ok(nexar::Request::ready(Ok(st)).into());
    };
    if !p.send {
        return crate::p2p::nonblocking::post_recv(chan, p.buf.clone(), p.peer, p.tag);
    }
    let handoff = Arc::new(Handoff::default());
    if p.partitions == 0 {
        launch(p, &handoff)?;
    } else {
        *p.round.lock() = Round {
            active: true,
            ready: vec![false; p.partitions],
            left: p.partitions,
            handoff: Some(handoff.clone()),
        };
    }
    // Polled by the tester: completes once the last partition's MPI_Pready has sent the
    // buffer and that send has completed.
    Ok(nexar::Request::inline(async move {
        let running = std::future::poll_fn(|cx| handoff.poll_take(cx)).await;
        running.req.await
    })
    .into())
}

/// Sends the whole buffer (every partition is ready) and hands the send to the request.
fn launch(p: &Part, to: &Handoff) -> Result<()> {
    let Some(chan) = p.channel.as_ref() else {
        return Ok(());
    };
    // The companion has the user's ranks, so the peer's rank is the same there.
    let req = start_send(chan, p.comm_h, &p.buf, p.peer, p.tag, Mode::Standard)?;
    // The request may have been freed meanwhile: the send still goes out.
    to.give(req.into());
    Ok(())
}

/// Marks `partitions` of send request `h` ready; the last one sends the buffer.
fn pready(h: MPI_Request, partitions: impl IntoIterator<Item = c_int>) -> Result<()> {
    let p = part_of(h)?;
    if !p.send {
        return Err(MpiError::new(
            MPI_ERR_REQUEST,
            format!("request {h:#x} is a partitioned receive: only a send marks partitions ready"),
        ));
    }
    let launch_now = {
        let mut round = p.round.lock();
        if !round.active {
            return Err(MpiError::new(
                MPI_ERR_REQUEST,
                format!("partitioned send {h:#x} is not active (MPI_Start it first)"),
            ));
        }
        for i in partitions {
            let slot = usize::try_from(i)
                .ok()
                .and_then(|i| round.ready.get(i).copied().map(|r| (i, r)));
            match slot {
                None => {
                    return Err(MpiError::new(
                        MPI_ERR_ARG,
                        format!("partition {i} is out of range 0..{}", p.partitions),
                    ));
                }
                Some((_, true)) => {
                    return Err(MpiError::new(
                        MPI_ERR_ARG,
                        format!("partition {i} is already marked ready in this round"),
                    ));
                }
                Some((i, false)) => {
                    round.ready[i] = true;
                    round.left -= 1;
                }
            }
        }
        if round.left == 0 {
            round.active = false;
            round.handoff.take()
        } else {
            None
        }
    };
    match launch_now {
        Some(to) => launch(&p, &to),
        None => Ok(()),
    }
}

/// Whether `partition` of receive request `h` has arrived (the whole message has).
fn parrived(h: MPI_Request, partition: c_int, flag: *mut c_int) -> Result<()> {
    non_null(flag, "flag")?;
    let p = part_of(h)?;
    if p.send {
        return Err(MpiError::new(
            MPI_ERR_REQUEST,
            format!("request {h:#x} is a partitioned send: MPI_Parrived takes a receive"),
        ));
    }
    if usize::try_from(partition).map_or(true, |i| i >= p.partitions) {
        return Err(MpiError::new(
            MPI_ERR_ARG,
            format!("partition {partition} is out of range 0..{}", p.partitions),
        ));
    }
    if crate::request::table::is_inactive(h) {
        return Err(MpiError::new(
            MPI_ERR_REQUEST,
            format!("partitioned receive {h:#x} is not active (MPI_Start it first)"),
        ));
    }
    let done = crate::request::table::all_done(&h, 1)?;
    // SAFETY: checked for NULL above; writable per the MPI contract.
    unsafe { flag.write(c_int::from(done)) };
    Ok(())
}

macro_rules! partitioned_inits {
    ($($(#[$doc:meta])* $name:ident / $pname:ident ($buf:ty, $cnt:ty, $conv:expr) => $send:expr;)*) => {
        mpi_fn! {$(
            $(#[$doc])*
            fn $name(buf: $buf, partitions: c_int, n: $cnt, dt: MPI_Datatype,
                     peer: c_int, tag: c_int, comm_h: MPI_Comm, info: MPI_Info,
                     request: *mut MPI_Request) -> c_int => $pname {
                call(stringify!($name), comm_h, || {
                    init(buf.cast(), partitions, $conv(n), dt, peer, tag, comm_h, info, request, $send)
                })
            }
        )*}
    };
}

partitioned_inits! {
    /// Creates an inactive partitioned send of `partitions` partitions of `n` elements each
    /// to `peer` with `tag`. Each `MPI_Start` begins a round; the buffer is sent when
    /// `MPI_Pready` has marked every partition. Not collective; matches the peer's
    /// `MPI_Precv_init` calls in order. Errors: as `MPI_Send_init`, and `MPI_ERR_ARG` for
    /// negative `partitions`.
    MPI_Psend_init / PMPI_Psend_init (*const c_void, c_int, count) => true;
    /// Large-count `MPI_Psend_init`.
    MPI_Psend_init_c / PMPI_Psend_init_c (*const c_void, MPI_Count, std::convert::identity) => true;
    /// Creates an inactive partitioned receive of `partitions` partitions of `n` elements each
    /// from `peer` with `tag` (no wildcards). Each `MPI_Start` posts it; `MPI_Parrived` says
    /// whether a partition is in.
    MPI_Precv_init / PMPI_Precv_init (*mut c_void, c_int, count) => false;
    /// Large-count `MPI_Precv_init`.
    MPI_Precv_init_c / PMPI_Precv_init_c (*mut c_void, MPI_Count, std::convert::identity) => false;
}

mpi_fn! {
    /// Marks `partition` of the active partitioned send `request` ready (never blocks; the
    /// last partition of a round starts the transfer). Errors: `MPI_ERR_REQUEST` for a
    /// receive, an inactive or a non-partitioned request; `MPI_ERR_ARG` for a partition out of
    /// range or already marked in this round.
    fn MPI_Pready(partition: c_int, request: MPI_Request) -> c_int => PMPI_Pready {
        call("MPI_Pready", comm_of(request), || pready(request, [partition]))
    }

    /// `MPI_Pready` of partitions `low..=high`.
    fn MPI_Pready_range(low: c_int, high: c_int, request: MPI_Request) -> c_int
        => PMPI_Pready_range
    {
        call("MPI_Pready_range", comm_of(request), || {
            if low > high {
                return Err(MpiError::new(
                    MPI_ERR_ARG,
                    format!("partition range {low}..={high} is empty"),
                ));
            }
            pready(request, low..=high)
        })
    }

    /// `MPI_Pready` of the `length` partitions listed in `partitions`.
    fn MPI_Pready_list(length: c_int, partitions: *const c_int, request: MPI_Request) -> c_int
        => PMPI_Pready_list
    {
        call("MPI_Pready_list", comm_of(request), || {
            let n = usize::try_from(length).map_err(|_| {
                MpiError::new(MPI_ERR_ARG, format!("length is {length}, must not be negative"))
            })?;
            if n > 0 {
                non_null(partitions, "array_of_partitions")?;
            }
            // SAFETY: `length` readable ints per the MPI contract (checked for NULL above).
            let list = if n == 0 { &[][..] } else { unsafe { std::slice::from_raw_parts(partitions, n) } };
            pready(request, list.iter().copied())
        })
    }

    /// Sets `*flag` to whether `partition` of the active partitioned receive `request` has
    /// arrived (never blocks; drives progress once). Errors: `MPI_ERR_REQUEST` for a send, an
    /// inactive or a non-partitioned request; `MPI_ERR_ARG` for a partition out of range.
    fn MPI_Parrived(request: MPI_Request, partition: c_int, flag: *mut c_int) -> c_int
        => PMPI_Parrived
    {
        call("MPI_Parrived", comm_of(request), || parrived(request, partition, flag))
    }
}
