//! [`Context`]: one process's membership in a nexar job. It owns the engine's runtime, the
//! connections to the other ranks, and the world and self communicators.

use crate::bootstrap::{self, Launch, World};
use crate::comm::{Comm, SELF_CONTEXT, WORLD_CONTEXT};
use crate::config::{Config, TransportChoice};
use crate::core::engine::Engine;
use crate::error::{Error, ErrorKind, Result};
use crate::spawn::{FinalSync, Origin};
use crate::transport::mem::MemFabric;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Owns a tokio runtime and shuts it down without blocking (safe even inside async code).
struct RuntimeOwner(Option<tokio::runtime::Runtime>);

impl Drop for RuntimeOwner {
    fn drop(&mut self) {
        if let Some(rt) = self.0.take() {
            rt.shutdown_background();
        }
    }
}

/// Sets `SIGPIPE` to ignored if it is at its default action (see [`Context::init_with`]).
fn ignore_default_sigpipe() {
    // SAFETY: sigaction with a null new action only reads the current one into `old`, a
    // zeroed struct it may write.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(libc::SIGPIPE, std::ptr::null(), &mut old) == 0
            && old.sa_sigaction == libc::SIG_DFL
        {
            libc::signal(libc::SIGPIPE, libc::SIG_IGN);
        }
    }
}

pub(crate) fn build_runtime(threads: usize) -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads.max(1))
        .thread_name("nexar")
        .enable_all()
        .build()
        .map_err(|e| {
            Error::new(
                ErrorKind::Internal,
                format!("cannot start the runtime: {e}"),
            )
        })
}

/// One process's membership in a job.
///
/// Create it once with [`Context::init`] (from the launcher's environment, or a singleton
/// world of one), or several in one process with [`Context::in_process`] for tests. Dropping it
/// finalizes: a final barrier with the other ranks (skipped in-process), then a clean close.
pub struct Context {
    engine: Arc<Engine>,
    world: Comm,
    self_comm: Comm,
    finalized: AtomicBool,
    fabric: Option<Arc<MemFabric>>,
    // How this process joined (secret included, wiped on drop; None in-process): kept to grow.
    launch: Option<Launch>,
    epoch: u32,
    // The process manager's connection under PMI: finalized with this context.
    pmi: Option<Arc<bootstrap::pmi::PmiSession>>,
    // For a process started by `Context::spawn`: how many world ranks are its parents.
    parents: Option<u32>,
    // Who the final barrier waits for (changed when spawned and spawning groups part).
    final_sync: parking_lot::Mutex<FinalSync>,
    // This process's identity across worlds (see `Origin`).
    origin: Origin,
    // Declared last: dropped after everything that may still touch the runtime.
    _runtime: Arc<RuntimeOwner>,
}

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context")
            .field("rank", &self.engine.rank)
            .field("size", &self.engine.size)
            .finish()
    }
}

impl Context {
    /// Joins the job described by the environment (see [`crate::bootstrap`]) with the
    /// configuration from `NEXAR_*` variables. Without a launcher this is rank 0 of 1.
    pub fn init() -> Result<Self> {
        Self::init_with(Config::from_env()?)
    }

    /// Like [`Context::init`] with an explicit configuration.
    ///
    /// A process whose `SIGPIPE` is at its default action (terminate) gets it ignored, as Rust
    /// programs and Open MPI do: a peer that dies mid-write must turn into an error
    /// (`EPIPE`, then `ProcFailed`), never kill this process. A handler the program installed
    /// is left alone.
    pub fn init_with(cfg: Config) -> Result<Self> {
        ignore_default_sigpipe();
        crate::logging::install();
        let runtime = build_runtime(cfg.threads)?;
        // A PMI process manager (hydra, srun --mpi=pmi2) ranks below nexar's own variables.
        if let Some(p) = bootstrap::pmi::boot_from_env(&cfg, runtime.handle())? {
            let mut ctx = Self::from_launch(p.launch, cfg, 0, runtime, p.server)?;
            ctx.pmi = Some(p.session);
            return Ok(ctx);
        }
        let launch = Launch::from_env()?;
        let epoch = match std::env::var("NEXAR_EPOCH") {
            Ok(v) => v.trim().parse().map_err(|_| {
                Error::new(
                    ErrorKind::Bootstrap,
                    format!("NEXAR_EPOCH={v:?} is not a non-negative integer"),
                )
            })?,
            Err(_) => 0,
        };
        let parents = crate::spawn::parents_from_env(launch.size)?;
        let mut ctx = Self::from_launch(launch, cfg, epoch, runtime, None)?;
        ctx.parents = parents;
        Ok(ctx)
    }

    /// Builds a context for `launch` on `runtime`: connects it to the world (with the
    /// rendezvous `server` this rank already started, if any) and registers it for aborts.
    pub(crate) fn from_launch(
        launch: Launch,
        cfg: Config,
        epoch: u32,
        runtime: tokio::runtime::Runtime,
        server: Option<bootstrap::rendezvous::RendezvousServer>,
    ) -> Result<Self> {
        crate::logging::set_rank(launch.rank);
        let engine = Engine::new(
            launch.rank,
            launch.size,
            cfg.clone(),
            runtime.handle().clone(),
            crate::router::features(),
        );
        let sink = engine.clone();
        let join = runtime.spawn(async move {
            let world = bootstrap::establish_hosting(&launch, &cfg, sink, server).await;
            world.map(|w| (w, launch))
        });
        let (world, launch) = pollster::block_on(join).map_err(|e| {
            Error::new(ErrorKind::Internal, format!("bootstrap task failed: {e}"))
        })??;
        engine.connect(world);
        crate::abort::register_for_abort(&engine);
        if engine.cfg.returns_errors {
            engine.declare_returns_errors(true);
        }
        let mut ctx = Self::assemble(engine, Arc::new(RuntimeOwner(Some(runtime))), None);
        ctx.origin.world = world_key(launch.secret.as_ref());
        ctx.launch = Some(launch);
        ctx.epoch = epoch;
        Ok(ctx)
    }

    /// `n` ranks in this process, connected by the in-memory transport. For tests and
    /// examples; each context is normally driven from its own thread.
    pub fn in_process(n: usize) -> Result<Vec<Self>> {
        Self::in_process_with(n, Config::default())
    }

    /// [`Context::in_process`] with an explicit configuration.
    pub fn in_process_with(n: usize, cfg: Config) -> Result<Vec<Self>> {
        if n == 0 || n > u32::MAX as usize {
            return Err(Error::invalid(format!(
                "cannot build an in-process world of {n} ranks"
            )));
        }
        if cfg.transport == TransportChoice::Quic {
            return Err(Error::new(
                ErrorKind::Unsupported,
                "in-process worlds use the in-memory transport; QUIC needs separate processes",
            ));
        }
        let runtime = Arc::new(RuntimeOwner(Some(build_runtime(cfg.threads)?)));
        let handle = runtime.0.as_ref().expect("just built").handle().clone();
        let fabric = MemFabric::new(n);
        let host = bootstrap::hostname();
        Ok((0..n as u32)
            .map(|rank| {
                let engine = Engine::new(
                    rank,
                    n as u32,
                    cfg.clone(),
                    handle.clone(),
                    crate::router::features(),
                );
                let transport = Arc::new(fabric.attach(rank, engine.clone()));
                engine.connect(World {
                    transport,
                    hosts: vec![host.clone(); n],
                    rendezvous: None,
                    rendezvous_server: None,
                });
                Self::assemble(engine, runtime.clone(), Some(fabric.clone()))
            })
            .collect())
    }

    fn assemble(
        engine: Arc<Engine>,
        runtime: Arc<RuntimeOwner>,
        fabric: Option<Arc<MemFabric>>,
    ) -> Self {
        let rank = engine.rank;
        let world = Comm::from_parts(engine.clone(), WORLD_CONTEXT, (0..engine.size).collect());
        let self_comm = Comm::from_parts(engine.clone(), SELF_CONTEXT, vec![engine.rank]);
        Self {
            engine,
            world,
            self_comm,
            finalized: AtomicBool::new(false),
            fabric,
            launch: None,
            epoch: 0,
            pmi: None,
            parents: None,
            final_sync: Default::default(),
            origin: Origin { world: 0, rank },
            _runtime: runtime,
        }
    }

    /// The communicator of every rank in the job.
    pub fn world(&self) -> &Comm {
        &self.world
    }

    /// The RPC handle of the world communicator (see [`Comm::rpc`]).
    pub fn rpc(&self) -> crate::rpc::Rpc {
        self.world().rpc()
    }

    /// The epoch of this world: 0 for a job as started, one more for each
    /// [`Context::grow`] that led to it.
    pub fn epoch(&self) -> u32 {
        self.epoch
    }

    /// How this process joined its world (`None` for in-process worlds), for growing it.
    pub(crate) fn launch(&self) -> Option<&Launch> {
        self.launch.as_ref()
    }

    /// The configuration this context runs with (defaults and `NEXAR_*` variables, as read
    /// at its start).
    pub fn config(&self) -> &Config {
        &self.engine.cfg
    }

    /// Host name of every world rank (index = rank).
    pub(crate) fn world_hosts(&self) -> &[String] {
        self.engine.hosts()
    }

    /// Whether `comm` is a communicator of this context (of its world, not another one's).
    pub fn owns(&self, comm: &Comm) -> bool {
        Arc::ptr_eq(&comm.inner.engine, &self.engine)
    }

    /// For a process started by [`Context::spawn`]: how many ranks of its world (ranks
    /// `0..n`) are the group that spawned it.
    pub fn parents(&self) -> Option<u32> {
        self.parents
    }

    /// This process's identity across worlds: the world it was started in and its rank there
    /// (kept in the worlds it spawns or meets).
    pub fn origin(&self) -> Origin {
        self.origin
    }

    /// A world made by spawning or meeting keeps its creator's identity.
    pub(crate) fn set_origin(&mut self, o: Origin) {
        self.origin = o;
    }

    /// Sets whom the final barrier of [`Context::finalize`] waits for (see [`FinalSync`]):
    /// groups that parted (`MPI_Comm_disconnect` of a spawn's intercommunicator) no longer
    /// wait for each other.
    pub fn set_final_sync(&self, sync: FinalSync) {
        *self.final_sync.lock() = sync;
    }

    /// The communicator containing only this rank.
    pub fn self_comm(&self) -> &Comm {
        &self.self_comm
    }

    /// This process's world rank.
    pub fn rank(&self) -> u32 {
        self.engine.rank
    }

    /// Number of ranks in the job.
    pub fn size(&self) -> u32 {
        self.engine.size
    }

    /// True once [`Context::finalize`] ran (or the rank was crashed in a test).
    pub fn is_finalized(&self) -> bool {
        self.finalized.load(Ordering::SeqCst)
    }

    /// Ends the whole job with exit status `code`: every other rank is told to exit with it
    /// (an abort frame, whether or not a launcher watches the job), then this process exits.
    /// See [`crate::abort_job`].
    pub fn abort(&self, code: i32) -> ! {
        crate::abort::abort_job(code)
    }

    /// Declares whether this rank handles errors itself. A launcher (`nexarrun`) leaves a rank
    /// that does running when another rank dies (it sees the failure as
    /// [`ErrorKind::ProcFailed`] errors and may recover), and terminates one that does not
    /// together with the job, like `mpiexec`. Rust programs return errors by default
    /// ([`Config::returns_errors`]): every call already reports failures as `Result`s.
    pub fn set_returns_errors(&self, on: bool) {
        self.engine.declare_returns_errors(on);
    }

    /// Name of the transport to other ranks (`"quic"`, `"shm"`, `"shm+quic"`, `"mem"`, `"self"`).
    pub fn transport_name(&self) -> &'static str {
        self.engine.transport().name()
    }

    /// The unexpected queue now: point-to-point messages that arrived before a receive
    /// matched them, and their payload bytes (what the MPI tools interface reports).
    pub fn unexpected_queue(&self) -> (u64, u64) {
        let b = self.engine.budget();
        (b.queued_messages(), b.queued_bytes())
    }

    /// Traffic counters of the transports in use (shared memory: frames and bytes each way,
    /// and how many payloads were copied directly); empty for transports without counters.
    pub fn transport_stats(&self) -> Vec<(&'static str, crate::transport::TransportStats)> {
        self.engine.transport().stats()
    }

    /// For tests of failure handling: makes this in-process rank vanish as if it crashed;
    /// every other rank sees it fail. Returns false (and does nothing) outside
    /// [`Context::in_process`] worlds.
    pub fn simulate_crash(&self) -> bool {
        let Some(fabric) = &self.fabric else {
            return false;
        };
        self.finalized.store(true, Ordering::SeqCst);
        self.engine.close();
        fabric.kill(self.engine.rank, "simulated crash");
        true
    }

    /// Leaves the job cleanly: a final barrier with every rank (so no rank closes connections
    /// another still needs), then flush and close. Called by `Drop` if not called explicitly;
    /// calling it explicitly reports errors.
    /// Later operations fail with [`ErrorKind::Finalized`]; a second call does nothing.
    pub fn finalize(&self) -> Result<()> {
        if self.finalized.swap(true, Ordering::SeqCst) {
            return Ok(());
        }
        let transport = self.engine.transport().clone();
        let mut result = Ok(());
        let over = match &*self.final_sync.lock() {
            FinalSync::World => Some(self.world.clone()),
            FinalSync::Group(c) => Some(c.clone()),
            FinalSync::Nobody => None,
        };
        if let Some(world) = over.filter(|c| c.size() > 1 && transport.name() != "mem") {
            let barrier = world.start_barrier();
            // Peers that finish late are not failed ones (those fail the barrier at once).
            let timeout = self.engine.cfg.peer_timeout * 3;
            let fut = async move {
                tokio::time::timeout(timeout, crate::fault::finalize::final_sync(world, barrier))
                    .await
                    .map_err(|_| {
                        Error::new(
                            ErrorKind::Timeout,
                            "final barrier timed out; closing anyway",
                        )
                    })?
            };
            result = pollster::block_on(self.engine.runtime.spawn(fut))
                .unwrap_or_else(|e| Err(Error::new(ErrorKind::Internal, e.to_string())));
        }
        self.engine.close();
        let shutdown = async move { transport.shutdown().await };
        let _ = pollster::block_on(self.engine.runtime.spawn(shutdown));
        self.engine.leave_rendezvous();
        if let Some(pmi) = &self.pmi {
            result = result.and(pmi.finalize());
        }
        result
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        if let Err(e) = self.finalize() {
            tracing::warn!(rank = self.engine.rank, "finalize: {e}");
        }
    }
}

/// The key of a world for [`Origin`]: its job id (every member derives the same from the
/// secret); a world without a secret (a singleton) gets a random one.
fn world_key(secret: Option<&crate::security::JobSecret>) -> u64 {
    match secret {
        Some(s) => u64::from_str_radix(&s.job_id(), 16).unwrap_or(0),
        None => crate::security::JobSecret::generate()
            .map(|s| u64::from_str_radix(&s.job_id(), 16).unwrap_or(0))
            .unwrap_or(0),
    }
}
