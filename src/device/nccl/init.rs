//! Making a host's NCCL communicator with a deadline.
//!
//! NCCL's blocking `ncclCommInitRank` waits forever for a local rank that never joins. Here
//! the communicator is made non-blocking (`ncclConfig_t::blocking = 0`): per NCCL's contract
//! `ncclCommInitRankConfig` then returns at once (`ncclSuccess` or `ncclInProgress`) and the
//! caller polls `ncclCommGetAsyncError` until the state leaves `ncclInProgress`; a
//! communicator that is not ready by the deadline is given up with `ncclCommAbort` (which never
//! waits for peers). The caller then agrees with every rank on the outcome, so a set-up that
//! failed or timed out anywhere makes every rank fall back together.

use super::plain;
use crate::comm::Comm;
use crate::device::cuda::with_context;
use crate::error::{Error, ErrorKind, Result};
use cudarc::nccl::{result as nr, sys as ns};
use std::time::{Duration, Instant};

/// An NCCL communicator, destroyed on drop.
pub(super) struct RawComm(pub(super) ns::ncclComm_t);

// SAFETY: used by one thread at a time (documented on `NcclHier`); NCCL allows a
// communicator to move between threads.
unsafe impl Send for RawComm {}
// SAFETY: every use goes through `&self` methods that the owner serialises (one collective
// at a time per communicator, as the engine's own collectives require).
unsafe impl Sync for RawComm {}

impl RawComm {
    /// Waits until NCCL's background work on the communicator is no longer in progress
    /// (`ncclCommGetAsyncError`), for at most `deadline`.
    pub(super) fn settle(&self, deadline: Duration) -> Result<()> {
        poll_until(deadline, Duration::from_micros(100), || {
            let mut state = ns::ncclResult_t::ncclSuccess;
            // SAFETY: a live communicator owned by `self`.
            let r = unsafe { ns::ncclCommGetAsyncError(self.0, &mut state) };
            match (r, state) {
                (ns::ncclResult_t::ncclSuccess, ns::ncclResult_t::ncclSuccess) => InitPoll::Ready,
                (ns::ncclResult_t::ncclSuccess, ns::ncclResult_t::ncclInProgress) => {
                    InitPoll::InProgress
                }
                (ns::ncclResult_t::ncclSuccess, e) | (e, _) => InitPoll::Failed(format!("{e:?}")),
            }
        })
    }

    /// Gives the communicator up without waiting for its peers (a set-up that another rank
    /// could not finish: `ncclCommDestroy` might wait for it).
    pub(super) fn abort(self) {
        // SAFETY: made by `ncclCommInitRankConfig`, released once (no drop afterwards).
        unsafe { _ = nr::comm_abort(self.0) };
        std::mem::forget(self);
    }
}

impl Drop for RawComm {
    fn drop(&mut self) {
        // SAFETY: made by `ncclCommInitRankConfig`, destroyed once.
        unsafe { _ = nr::comm_destroy(self.0) };
    }
}

/// One look at a non-blocking set-up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InitPoll {
    /// Ready to use.
    Ready,
    /// Still being set up.
    InProgress,
    /// Failed (NCCL's message).
    Failed(String),
}

/// Polls `poll` every `step` until it is no longer [`InitPoll::InProgress`] or `deadline` has
/// passed since the call: `Ok` when ready, else an error (`ErrorKind::Timeout` past the
/// deadline, `ErrorKind::Internal` for a failure). A pure loop, unit-tested with fakes.
pub fn poll_until(
    deadline: Duration,
    step: Duration,
    mut poll: impl FnMut() -> InitPoll,
) -> Result<()> {
    let start = Instant::now();
    loop {
        match poll() {
            InitPoll::Ready => return Ok(()),
            InitPoll::Failed(why) => {
                return Err(Error::new(
                    ErrorKind::Internal,
                    format!(
                        "NCCL (ncclCommInitRankConfig or a call on its communicator) failed: {why}"
                    ),
                ));
            }
            InitPoll::InProgress if start.elapsed() >= deadline => {
                return Err(Error::new(
                    ErrorKind::Timeout,
                    format!(
                        "ncclCommInitRankConfig did not finish within {deadline:?} \
                         (NEXAR_NCCL_INIT_TIMEOUT_MS): a local rank did not join"
                    ),
                ));
            }
            InitPoll::InProgress => std::thread::sleep(step),
        }
    }
}

/// `NCCL_CONFIG_INITIALIZER` of the bound API version (2.30), non-blocking: every tunable
/// left at NCCL's "undefined" marker so the library picks its defaults.
fn nonblocking_config() -> ns::ncclConfig_t {
    const UNDEF: i32 = i32::MIN; // NCCL_CONFIG_UNDEF_INT
    ns::ncclConfig_t {
        size: std::mem::size_of::<ns::ncclConfig_t>(),
        magic: 0xcafe_beef,
        version: 2 * 10_000 + 30 * 100, // NCCL_VERSION(2, 30, 0): the layout of this struct
        blocking: 0,
        cgaClusterSize: UNDEF,
        minCTAs: UNDEF,
        maxCTAs: UNDEF,
        netName: std::ptr::null(),
        splitShare: UNDEF,
        trafficClass: UNDEF,
        commName: std::ptr::null(),
        collnetEnable: UNDEF,
        CTAPolicy: UNDEF,
        shrinkShare: UNDEF,
        nvlsCTAs: UNDEF,
        nChannelsPerNetPeer: UNDEF,
        nvlinkCentricSched: UNDEF,
        graphUsageMode: UNDEF,
        numRmaCtx: UNDEF,
        maxP2pPeers: UNDEF,
    }
}

fn nccl_failed(what: &str, e: ns::ncclResult_t) -> Error {
    Error::new(ErrorKind::Internal, format!("NCCL {what} failed: {e:?}"))
}

/// Makes the host's NCCL communicator on GPU `gpu` within `deadline`: local rank 0 makes the
/// unique id, a nexar bcast on the host communicator hands it out.
pub(super) async fn init_host_comm(host: &Comm, gpu: i32, deadline: Duration) -> Result<RawComm> {
    // Byte 0: 1 if the id is valid (local rank 0 may fail to make one).
    let mut msg = [0u8; 129];
    if let Some(id) = (host.rank() == 0)
        .then(nr::get_uniqueid)
        .and_then(|r| r.ok())
    {
        msg[0] = 1;
        for (d, s) in msg[1..].iter_mut().zip(id.internal) {
            *d = s as u8;
        }
    }
    plain::bcast(host, &mut msg, 0).await?;
    if msg[0] != 1 {
        return Err(Error::new(
            ErrorKind::Internal,
            "NCCL: ncclGetUniqueId failed on local rank 0",
        ));
    }
    let mut id = ns::ncclUniqueId { internal: [0; 128] };
    for (d, s) in id.internal.iter_mut().zip(&msg[1..]) {
        *d = *s as _;
    }
    let mut raw: ns::ncclComm_t = std::ptr::null_mut();
    let mut cfg = nonblocking_config();
    with_context(gpu, || {
        // SAFETY: out-parameter and config live across the call; every local rank calls this
        // with the same id. Non-blocking: returns at once, set-up goes on in NCCL's threads.
        let r = unsafe {
            ns::ncclCommInitRankConfig(
                &mut raw,
                host.size() as i32,
                id,
                host.rank() as i32,
                &mut cfg,
            )
        };
        match r {
            ns::ncclResult_t::ncclSuccess | ns::ncclResult_t::ncclInProgress => Ok(()),
            e => Err(nccl_failed("ncclCommInitRankConfig", e)),
        }
    })
    .inspect_err(|_| {
        if !raw.is_null() {
            RawComm(raw).abort();
        }
    })?;
    let comm = RawComm(raw);
    let ready = comm.settle(deadline);
    match ready {
        Ok(()) => Ok(comm),
        Err(e) => {
            comm.abort();
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fake set-up (no NCCL involved): in progress for `n` polls, then `last`.
    fn fake(n: usize, last: InitPoll) -> impl FnMut() -> InitPoll {
        let mut calls = 0;
        move || {
            calls += 1;
            if calls <= n {
                InitPoll::InProgress
            } else {
                last.clone()
            }
        }
    }

    const STEP: Duration = Duration::from_millis(1);

    #[test]
    fn ready_after_some_polls_is_ok() {
        assert!(poll_until(Duration::from_secs(5), STEP, fake(0, InitPoll::Ready)).is_ok());
        assert!(poll_until(Duration::from_secs(5), STEP, fake(20, InitPoll::Ready)).is_ok());
    }

    #[test]
    fn a_failure_is_internal_and_names_ncclcomminitrankconfig() {
        let e = poll_until(
            Duration::from_secs(5),
            STEP,
            fake(3, InitPoll::Failed("ncclSystemError".into())),
        )
        .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Internal);
        assert!(e.to_string().contains("ncclCommInitRankConfig"), "{e}");
        assert!(e.to_string().contains("ncclSystemError"), "{e}");
    }

    #[test]
    fn a_rank_that_never_joins_times_out_near_the_deadline() {
        let t = Instant::now();
        let e = poll_until(Duration::from_millis(50), STEP, || InitPoll::InProgress).unwrap_err();
        let took = t.elapsed();
        assert_eq!(e.kind(), ErrorKind::Timeout);
        assert!(e.to_string().contains("NEXAR_NCCL_INIT_TIMEOUT_MS"), "{e}");
        assert!(took >= Duration::from_millis(50), "gave up early: {took:?}");
        assert!(
            took < Duration::from_secs(5),
            "overran the deadline: {took:?}"
        );
    }

    #[test]
    fn the_config_is_nccls_initializer_made_non_blocking() {
        let c = nonblocking_config();
        assert_eq!(c.blocking, 0);
        assert_eq!(c.magic, 0xcafe_beef);
        assert_eq!(c.size, std::mem::size_of::<ns::ncclConfig_t>());
        assert_eq!(c.version, 23_000);
        assert_eq!(c.minCTAs, i32::MIN);
        assert!(c.netName.is_null());
    }
}
