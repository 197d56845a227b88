//! Many ranks on one host over shared memory: at 24 local ranks the rings have 32 slots instead
//! of 64 (`slots_for`), and mid-size messages (64 KiB to 1 MiB) pipelined through them, with and
//! without one-copy reads, arrive byte-exact (`examples/ranks/shm_many.rs` checks every byte).

mod common;

use common::procs::{example, nexarrun_path};
use std::process::Command;
use std::time::Instant;

const N: u32 = 24;

/// Runs `shm_many` at [`N`] ranks with `cma` as `NEXAR_SHM_CMA`; returns each rank's line.
fn run(cma: &str) -> Vec<String> {
    let t = Instant::now();
    let out = Command::new(nexarrun_path())
        .args(["-n", &N.to_string(), "--timeout", "120", "--"])
        .arg(example("shm_many"))
        .env("NEXAR_TRANSPORT", "auto")
        .env("NEXAR_SHM_CMA", cma)
        .env_remove("NEXAR_SHM_CALLER_PROGRESS")
        .env_remove("NEXAR_SHM_TEST_FAIL_READS")
        .output()
        .expect("nexarrun starts");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "exit {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
    eprintln!(
        "shm_many at {N} ranks, NEXAR_SHM_CMA={cma}: {:?}",
        t.elapsed()
    );
    (0..N)
        .map(|r| {
            let tag = format!("rank {r}/{N}: shm many passed over shm");
            stdout
                .lines()
                .find(|l| l.contains(&tag))
                .unwrap_or_else(|| panic!("rank {r} did not pass over shm\n{stdout}\n{stderr}"))
                .to_string()
        })
        .collect()
}

#[test]
fn mid_size_messages_through_the_smaller_rings_of_24_local_ranks() {
    assert_eq!(
        nexar::transport::shm::slots_for(N),
        32,
        "rings are smaller here"
    );
    let lines = run("0");
    for l in &lines {
        assert!(
            l.contains("one_copy=0"),
            "everything went through the rings: {l}"
        );
    }
    run("1");
}
