//! The leader's side of a multi-host job (`nexarrun -n N --listen IP:PORT --local K`): admits
//! joining launchers (mutual TLS with the job CA, see `nexar::bootstrap::rendezvous::launchers`),
//! assigns each a contiguous block of world ranks in join order (the leader's own ranks are
//! `0..K`), turns their exit reports into [`Event`]s for the supervisor, and forwards its
//! decisions to terminate ranks.
//!
//! A joiner whose connection is lost before all its ranks reported counts as the failure of
//! those ranks ("was lost with its host"). Ranks no joiner came for within the connect timeout
//! end the job with a message saying so.

use crate::launch::Event;
use crate::rsh::{self, RshPlan};
use nexar::Config;
use nexar::bootstrap::rendezvous::launcher_proto::LauncherMsg;
use nexar::bootstrap::rendezvous::launchers::{LauncherLink, LeaderEndpoint};
use nexar::security::JobSecret;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinHandle;

/// Longest a joiner may take between connecting and asking for its ranks.
const ADMIT_LIMIT: Duration = Duration::from_secs(10);

/// The shape of the job the leader hosts.
#[derive(Debug, Clone, Copy)]
pub struct JobShape {
    /// World size.
    pub size: u32,
    /// The first rank run by a joiner (= the leader's `--local`).
    pub first_remote: u32,
    /// Where every rank reaches the rendezvous.
    pub rendezvous: SocketAddr,
}

/// A joiner's block of ranks.
struct Block {
    base: u32,
    count: u32,
    link: LauncherLink,
}

/// What the acceptor and the supervisor share.
struct Shared {
    blocks: Vec<Block>,
    /// The next rank to assign; `size` once the job is full or admissions are closed.
    next: u32,
}

/// The joiners of a job, as the leader sees them.
pub struct Remote {
    shared: Arc<Mutex<Shared>>,
    tx: UnboundedSender<Event>,
    size: u32,
    acceptor: JoinHandle<()>,
    /// Remote shells running joiners (`-H`), each watched by a task.
    shells: Mutex<Vec<JoinHandle<()>>>,
    /// Kept open for the whole job (dropping it closes every joiner's connection).
    endpoint: Arc<LeaderEndpoint>,
}

impl Remote {
    /// Listens on `listen` for joiners of `job`; their ranks' exits go to `tx`.
    pub fn start(
        me: &str,
        secret: &JobSecret,
        listen: SocketAddr,
        job: JobShape,
        cfg: &Config,
        tx: UnboundedSender<Event>,
    ) -> nexar::Result<Self> {
        let endpoint = Arc::new(LeaderEndpoint::start(secret, listen, cfg)?);
        let shared = Arc::new(Mutex::new(Shared {
            blocks: Vec::new(),
            next: job.first_remote,
        }));
        let acceptor = tokio::spawn(accept_joiners(
            me.to_string(),
            endpoint.clone(),
            job,
            cfg.connect_timeout,
            shared.clone(),
            tx.clone(),
        ));
        Ok(Self {
            shared,
            tx,
            size: job.size,
            acceptor,
            shells: Mutex::new(Vec::new()),
            endpoint,
        })
    }

    /// Asks the joiners running any of `ranks` to terminate them. Ranks no joiner took yet
    /// are given up at once (admissions close): they end as "never started".
    pub fn kill(&self, ranks: &[u32]) {
        let mut st = self.shared.lock().unwrap_or_else(|e| e.into_inner());
        for b in &st.blocks {
            let mine: Vec<u32> = ranks
                .iter()
                .copied()
                .filter(|r| (b.base..b.base + b.count).contains(r))
                .collect();
            if mine.is_empty() {
                continue;
            }
            let link = b.link.clone();
            tokio::spawn(async move {
                for m in LauncherMsg::kills(&mine) {
                    link.send(&m).await;
                }
            });
        }
        if ranks.iter().any(|&r| r >= st.next) {
            give_up(
                &mut st,
                self.size,
                &self.tx,
                "never started (the job ended first)",
            );
        }
    }

    /// Starts a joiner on each host of `plan` through `NEXAR_RSH` (default `ssh`). A remote
    /// shell that fails while ranks still have no host ends the job.
    pub fn start_joiners(&self, me: &str, plan: &RshPlan) -> Result<(), String> {
        let rsh = std::env::var("NEXAR_RSH").unwrap_or_else(|_| "ssh".into());
        let leader = self.endpoint.local_addr();
        for (host, count) in &plan.hosts {
            let mut cmd = rsh::joiner_command(plan, &rsh, host, *count, leader)?;
            let mut child = cmd
                .spawn()
                .map_err(|e| format!("cannot start the remote shell '{rsh}' for {host}: {e}"))?;
            let (shared, tx, size) = (self.shared.clone(), self.tx.clone(), self.size);
            let (me, host) = (me.to_string(), host.clone());
            let task = tokio::spawn(async move {
                let st = child.wait().await;
                let bad = st.as_ref().map_or(true, |s| !s.success());
                let mut sh = shared.lock().unwrap_or_else(|e| e.into_inner());
                if bad && sh.next < size {
                    let how = match st {
                        Ok(s) => format!("{s}"),
                        Err(e) => e.to_string(),
                    };
                    let _ = tx.send(Event::Fatal {
                        code: 1,
                        msg: format!(
                            "the remote shell for {host} ended ({how}) before every rank had a host"
                        ),
                    });
                    give_up(&mut sh, size, &tx, "never started (a remote shell failed)");
                }
                drop(sh);
                tracing::debug!(%me, %host, "remote shell done");
            });
            self.shells
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(task);
        }
        Ok(())
    }

    /// Stops admitting joiners and closes every joiner's connection (the job is over).
    pub async fn finish(self) {
        self.acceptor.abort();
        let links: Vec<LauncherLink> = {
            let st = self.shared.lock().unwrap_or_else(|e| e.into_inner());
            st.blocks.iter().map(|b| b.link.clone()).collect()
        };
        for l in &links {
            l.close(Duration::ZERO).await;
        }
        if !links.is_empty() {
            self.endpoint.wait_idle(Duration::from_secs(1)).await;
        }
        // The remote shells end with their joiners; past a bound they are killed (dropped).
        let shells = std::mem::take(&mut *self.shells.lock().unwrap_or_else(|e| e.into_inner()));
        for mut t in shells {
            if tokio::time::timeout(Duration::from_secs(3), &mut t)
                .await
                .is_err()
            {
                t.abort();
            }
        }
    }
}

/// Closes admissions: every rank not yet assigned ends with `how`.
fn give_up(st: &mut Shared, size: u32, tx: &UnboundedSender<Event>, how: &str) {
    for rank in st.next..size {
        let _ = tx.send(Event::Exit {
            rank,
            code: 1,
            how: how.to_string(),
        });
    }
    st.next = size;
}

async fn accept_joiners(
    me: String,
    endpoint: Arc<LeaderEndpoint>,
    job: JobShape,
    limit: Duration,
    shared: Arc<Mutex<Shared>>,
    tx: UnboundedSender<Event>,
) {
    let listen = endpoint.local_addr();
    // A little before the rendezvous gives up (same limit), so this clearer message comes first.
    let limit = limit.mul_f64(0.9);
    let deadline = tokio::time::sleep(limit);
    tokio::pin!(deadline);
    let mut waiting = job.first_remote < job.size;
    // Each attempt is admitted on its own task (a stranger stalling its handshake delays
    // nobody); admitted joiners are assigned here, in the order they finish admission.
    let (admitted_tx, mut admitted) = tokio::sync::mpsc::unbounded_channel();
    let ep = endpoint.clone();
    let me2 = me.clone();
    let gate = tokio::spawn(async move {
        while let Some(inc) = ep.incoming().await {
            let tx = admitted_tx.clone();
            let me = me2.clone();
            tokio::spawn(async move {
                match inc.admit(ADMIT_LIMIT).await {
                    Ok(j) => {
                        let _ = tx.send(j);
                    }
                    Err(e) => eprintln!("{me}: {}", e.message()),
                }
            });
        }
    });
    // The gate ends with this task (aborted by `Remote::finish`).
    let _gate = AbortOnDrop(gate);
    loop {
        tokio::select! {
            j = admitted.recv() => {
                let Some(j) = j else { return };
                let (count, host) = (j.local, j.host.clone());
                // Assigned and registered under one lock: a kill request sees the block at once.
                let assigned = {
                    let mut st = shared.lock().unwrap_or_else(|e| e.into_inner());
                    let left = job.size - st.next;
                    if count == 0 || count > left {
                        Err((
                            j,
                            format!(
                                "it asked for {count} ranks; {left} of the job's {} ranks have no host yet",
                                job.size
                            ),
                        ))
                    } else {
                        let base = st.next;
                        st.next += count;
                        let link = j.welcome(base, job.size, job.rendezvous);
                        st.blocks.push(Block { base, count, link: link.clone() });
                        if st.next == job.size {
                            waiting = false;
                        }
                        Ok((base, link))
                    }
                };
                let (base, link) = match assigned {
                    Ok(a) => a,
                    Err((j, why)) => {
                        eprintln!("{me}: refused the launcher on {host} ({}): {why}", j.remote());
                        j.refuse(&why);
                        continue;
                    }
                };
                tracing::info!(%host, base, count, "a launcher joined");
                tokio::spawn(watch_joiner(link, host, base, count, tx.clone()));
            }
            _ = &mut deadline, if waiting => {
                waiting = false;
                let mut st = shared.lock().unwrap_or_else(|e| e.into_inner());
                if st.next < job.size {
                    let _ = tx.send(Event::Fatal {
                        code: 1,
                        msg: format!(
                            "ranks {}..={} have no host: no launcher joined for them within \
                             {limit:?} (start `nexarrun --join {listen} --local K ...` on the other \
                             hosts)",
                            st.next,
                            job.size - 1
                        ),
                    });
                    give_up(&mut st, job.size, &tx, "never started (no launcher joined for it)");
                }
            }
        }
    }
}

/// Relays one joiner's exit reports; when its connection is lost, its unreported ranks fail.
async fn watch_joiner(
    link: LauncherLink,
    host: String,
    base: u32,
    count: u32,
    tx: UnboundedSender<Event>,
) {
    let mut reported = vec![false; count as usize];
    while let Some(msg) = link.next().await {
        match msg {
            Ok(LauncherMsg::Exited { rank, code, reason })
                if (base..base + count).contains(&rank) =>
            {
                reported[(rank - base) as usize] = true;
                let _ = tx.send(Event::Exit {
                    rank,
                    code,
                    how: format!("(on {host}) {reason}"),
                });
            }
            Ok(other) => tracing::warn!(%host, "ignoring {other:?} from a joined launcher"),
            Err(e) => tracing::warn!(%host, "launcher link: {e}"),
        }
        if reported.iter().all(|&r| r) {
            return;
        }
    }
    let why = link.closed().await;
    for (i, _) in reported.iter().enumerate().filter(|(_, r)| !**r) {
        let _ = tx.send(Event::Exit {
            rank: base + i as u32,
            code: 1,
            how: format!("was lost with its host {host} (launcher connection: {why})"),
        });
    }
}

/// Aborts a task when dropped.
struct AbortOnDrop(JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}
