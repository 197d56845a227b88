//! Which RDMA device nexar would use on this host, or why none:
//!
//! ```text
//! cargo run --features rdma --example rdma_probe
//! RDMA device=mlx5_0 all=mlx5_0,mlx5_1          (or)
//! RDMA none: no RDMA device: ibv_get_device_list failed: ... (this kernel has no RDMA support ...)
//! ```
//!
//! `rdma_probe --job` under a launcher (`nexarrun -n 2 -- rdma_probe --job`): every rank also
//! exchanges 4 MiB messages (allreduce and point-to-point, verified) with the others, then
//! prints which lane carried the bytes:
//!
//! ```text
//! RDMAJOB rank=R size=N quic_bytes=Q tls_bytes=T rdma_bytes=D
//! ```
//!
//! Logs (the reason a lane fell back included) go to stderr, filtered by `NEXAR_LOG`
//! (default `warn`).

#[path = "support/exchange.rs"]
mod exchange;

use exchange::{pattern, shift};
use nexar::{Context, ReduceOp};

fn main() {
    let job = std::env::args().any(|a| a == "--job");
    let filter = tracing_subscriber::EnvFilter::try_from_env("NEXAR_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .init();
    match nexar::transport::rdma::probe::device() {
        Ok(found) => println!("RDMA device={} all={}", found.device, found.all.join(",")),
        Err(why) => println!("RDMA none: {why}"),
    }
    if job && let Err(e) = run_job() {
        eprintln!("rdma_probe: {e}");
        std::process::exit(1);
    }
}

fn run_job() -> nexar::Result<()> {
    let ctx = Context::init()?;
    let w = ctx.world();
    let (me, n) = (w.rank(), w.size());
    // 4 MiB of f64: far over the bulk threshold, so it takes the bulk lane between ranks.
    let len = 1 << 19;
    let mut v: Vec<f64> = (0..len).map(|i| f64::from(me) + i as f64).collect();
    w.allreduce_blocking(&mut v, ReduceOp::Sum)?;
    let s = f64::from(n);
    for (i, &x) in v.iter().enumerate() {
        let want = s * (s - 1.0) / 2.0 + s * i as f64;
        if x != want {
            return Err(nexar::Error::invalid(format!(
                "allreduce element {i} is {x}, expected {want}"
            )));
        }
    }
    let size = 4 << 20;
    for k in 1..n {
        let (from, intact) = shift(w, k, size, k as i32, pattern)?;
        if !intact {
            return Err(nexar::Error::invalid(format!(
                "{size} bytes from rank {from} arrived corrupted"
            )));
        }
    }
    w.barrier_blocking()?;
    let stats = ctx.transport_stats();
    let bytes = |name: &str| -> u64 {
        stats
            .iter()
            .filter(|(n, _)| *n == name)
            .map(|(_, s)| s.bytes_sent)
            .sum()
    };
    println!(
        "RDMAJOB rank={me} size={n} quic_bytes={} tls_bytes={} rdma_bytes={}",
        bytes("quic"),
        bytes("tls"),
        bytes("rdma")
    );
    ctx.finalize()
}
