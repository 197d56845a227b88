//! Runs the engine conformance suite (the same checks the in-process tests use) on a real job:
//! `nexarrun -n 4 target/release/examples/conformance`. Each rank prints how many checks passed;
//! any failure exits non-zero.

#[path = "../tests/common/checks.rs"]
mod checks;

fn main() {
    let ctx = match nexar::Context::init() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("init failed: {e}");
            std::process::exit(2);
        }
    };
    for (name, check) in checks::ALL {
        if let Err(e) = check(&ctx) {
            eprintln!("rank {}: check {name} failed: {e}", ctx.rank());
            std::process::exit(1);
        }
    }
    println!(
        "rank {}/{}: {} conformance checks passed over {}",
        ctx.rank(),
        ctx.size(),
        checks::ALL.len(),
        ctx.transport_name()
    );
}
