//! The joiner's side of a multi-host job (`nexarrun --join IP:PORT --local K prog`): joins the
//! leader, learns its block of world ranks and the rendezvous, starts its ranks with
//! `NEXAR_BIND_ADDR` set to the address this host reaches the leader from, reports every
//! rank's exit to the leader, and terminates ranks when the leader asks. A joiner that loses
//! the leader terminates its ranks.
//!
//! Exit code: the first non-zero exit code of its ranks (128 + signal when killed), 0 when all
//! exit 0; 1 when it cannot join (no leader, a wrong secret, refused); 130 / 143 when
//! interrupted / terminated.

use crate::launch::{Event, KILL_GRACE, Plan, Rank, kill_groups, recv_signal, terminate};
use crate::spawn::{Reach, Starter, start_failure_code};
use nexar::Config;
use nexar::bootstrap::rendezvous::launcher_proto::LauncherMsg;
use nexar::bootstrap::rendezvous::launchers::{LauncherLink, join_leader};
use nexar::security::JobSecret;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::mpsc;

/// A joiner's setup.
pub struct Joining {
    /// The leader's `--listen` address.
    pub leader: SocketAddr,
    /// The job secret (from the file shared with the leader).
    pub secret: JobSecret,
}

/// Joins the leader and runs this host's ranks of the plan; returns the exit code.
pub async fn run_joiner(me: &str, plan: &Plan, joining: Joining) -> i32 {
    let k = match u32::try_from(plan.size()) {
        Ok(k) if k > 0 => k,
        _ => {
            eprintln!("{me}: --local must be between 1 and {}", u32::MAX);
            return 2;
        }
    };
    let cfg = match Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{me}: {e}");
            return 2;
        }
    };
    let host = nexar::bootstrap::hostname();
    let (welcome, link) = match join_leader(&joining.secret, joining.leader, k, &host, &cfg).await {
        Ok(w) => w,
        Err(e) => {
            eprintln!("{me}: {}", e.message());
            return 1;
        }
    };
    let base = welcome.base;
    tracing::info!(base, k, size = welcome.size, "joined the leader");
    let reach = Reach {
        rendezvous: welcome.rendezvous,
        bind: Some(welcome.local_ip),
    };
    // Exit reports go out in order through one task; it ends once every rank reported.
    let (report_tx, mut report_rx) = mpsc::unbounded_channel::<LauncherMsg>();
    let reporter = {
        let link = link.clone();
        tokio::spawn(async move {
            while let Some(m) = report_rx.recv().await {
                link.send(&m).await;
            }
        })
    };
    let (done_tx, done_rx) = mpsc::unbounded_channel::<Event>();
    let mut starter = Starter::new(plan, welcome.size, base, reach, &joining.secret, &done_tx);
    let mut ranks = Vec::with_capacity(k as usize);
    let mut failed_start = None;
    for i in 0..k {
        let rank = base + i;
        let started = if failed_start.is_some() {
            Err(std::io::Error::other(
                "an earlier rank could not be started",
            ))
        } else {
            starter.start(i)
        };
        match started {
            Ok(r) => ranks.push(r),
            Err(e) => {
                let code = start_failure_code(&e);
                if failed_start.is_none() {
                    eprintln!("{me}: cannot start '{}': {e}", starter.program(i));
                    failed_start = Some(code);
                }
                let _ = done_tx.send(Event::Exit {
                    rank,
                    code,
                    how: format!("could not be started: {e}"),
                });
                ranks.push(Rank {
                    rank,
                    pid: -1,
                    alive: true,
                });
            }
        }
    }
    let forwarders = std::mem::take(&mut starter.forwarders);
    drop(starter);
    drop(done_tx);
    let job_id = joining.secret.job_id();
    drop(joining);
    let code = watch(me, ranks, base, done_rx, &link, &report_tx).await;
    drop(report_tx);
    // Bounded: the leader may be gone.
    let _ = tokio::time::timeout(Duration::from_secs(5), reporter).await;
    link.close(Duration::from_millis(200)).await;
    let _ = tokio::time::timeout(Duration::from_secs(2), async {
        for f in forwarders {
            let _ = f.await;
        }
    })
    .await;
    for i in 0..k {
        let _ = std::fs::remove_file(nexar::transport::shm::segment::inbox_path(
            &job_id,
            base + i,
        ));
    }
    code
}

/// Waits for this host's ranks, reporting each exit to the leader and obeying its kill
/// requests; terminates them all when the leader is lost or on SIGINT / SIGTERM.
async fn watch(
    me: &str,
    mut ranks: Vec<Rank>,
    base: u32,
    mut done_rx: mpsc::UnboundedReceiver<Event>,
    link: &LauncherLink,
    report: &mpsc::UnboundedSender<LauncherMsg>,
) -> i32 {
    let mut sigint = signal(SignalKind::interrupt()).ok();
    let mut sigterm = signal(SignalKind::terminate()).ok();
    let far = Duration::from_secs(100 * 365 * 24 * 3600);
    let kill_at = tokio::time::sleep(far);
    tokio::pin!(kill_at);
    let mut result: Option<i32> = None;
    let mut leader_open = true;
    let mut doomed = vec![false; ranks.len()];
    let all: Vec<u32> = ranks.iter().map(|r| r.rank).collect();
    // Reading a message is not cancel-safe (an accepted stream dropped half-read is lost), so
    // one task reads them all; `None` once the leader is gone.
    let (from_leader_tx, mut from_leader) = mpsc::unbounded_channel();
    let reader = {
        let link = link.clone();
        tokio::spawn(async move {
            while let Some(m) = link.next().await {
                if from_leader_tx.send(m).is_err() {
                    return;
                }
            }
        })
    };
    while ranks.iter().any(|r| r.alive) {
        tokio::select! {
            ev = done_rx.recv() => {
                let Some(Event::Exit { rank, code, how }) = ev else { break };
                let Some(r) = ranks.get_mut((rank - base) as usize) else { continue };
                r.alive = false;
                if code != 0 {
                    result.get_or_insert(code);
                }
                let _ = report.send(LauncherMsg::Exited { rank, code, reason: how });
            }
            msg = from_leader.recv(), if leader_open => match msg {
                Some(Ok(LauncherMsg::Kill(which))) => doom(&ranks, &which, base, &mut doomed, &mut kill_at),
                Some(Ok(other)) => tracing::warn!("ignoring {other:?} from the leader"),
                Some(Err(e)) => tracing::warn!("launcher link: {e}"),
                None => {
                    leader_open = false;
                    let why = link.closed().await;
                    eprintln!(
                        "{me}: lost the leader at {} ({why}); terminating this host's ranks",
                        link.remote()
                    );
                    doom(&ranks, &all, base, &mut doomed, &mut kill_at);
                }
            },
            _ = &mut kill_at => {
                let late: Vec<Rank> = ranks
                    .iter()
                    .filter(|r| doomed[(r.rank - base) as usize])
                    .map(Rank::copy)
                    .collect();
                terminate(&late, libc::SIGKILL);
                kill_at.as_mut().reset(tokio::time::Instant::now() + far);
            }
            Some(()) = recv_signal(&mut sigint) => {
                result.get_or_insert(130);
                doom(&ranks, &all, base, &mut doomed, &mut kill_at);
            }
            Some(()) = recv_signal(&mut sigterm) => {
                result.get_or_insert(143);
                doom(&ranks, &all, base, &mut doomed, &mut kill_at);
            }
        }
    }
    reader.abort();
    // What the terminated ranks started dies with them.
    kill_groups(&ranks, |r| doomed[(r.rank - base) as usize]);
    result.unwrap_or(0)
}

/// Sends SIGTERM to the live ranks of `which` (world ranks) not already doomed and schedules
/// SIGKILL after [`KILL_GRACE`].
fn doom(
    ranks: &[Rank],
    which: &[u32],
    base: u32,
    doomed: &mut [bool],
    kill_at: &mut std::pin::Pin<&mut tokio::time::Sleep>,
) {
    let fresh: Vec<Rank> = which
        .iter()
        .filter_map(|&r| r.checked_sub(base).map(|i| i as usize))
        .filter(|&i| i < ranks.len() && ranks[i].alive && !doomed[i])
        .map(|i| ranks[i].copy())
        .collect();
    for r in &fresh {
        doomed[(r.rank - base) as usize] = true;
    }
    terminate(&fresh, libc::SIGTERM);
    if !fresh.is_empty() {
        kill_at
            .as_mut()
            .reset(tokio::time::Instant::now() + KILL_GRACE);
    }
}
