//! Helpers for tests that start real rank processes: the launcher and example binaries built
//! by `cargo test`, and launching ranks by hand (the environment contract, no launcher).

use nexar::security::JobSecret;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// The `nexarrun` launcher of this build.
pub fn nexarrun_path() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_nexarrun"))
}

/// An example binary built by `cargo test` next to this test's profile directory.
pub fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let dir = exe
        .parent()
        .and_then(|d| d.parent())
        .expect("target/<profile>");
    let p = dir.join("examples").join(name);
    assert!(p.exists(), "{} is not built", p.display());
    p
}

/// A UDP port on 127.0.0.1 that was free a moment ago.
pub fn free_udp_port() -> u16 {
    std::net::UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Starts `n` ranks of `prog` by hand (no launcher watches them): rank 0 hosts the rendezvous,
/// the job secret is in a file under `dir`, output is piped. `env` is added to each.
pub fn launch_by_hand(prog: &Path, n: u32, dir: &Path, env: &[(&str, &str)]) -> Vec<Child> {
    let secret_path = dir.join("secret");
    JobSecret::generate()
        .unwrap()
        .write_file(&secret_path)
        .unwrap();
    let rdv = format!("127.0.0.1:{}", free_udp_port());
    (0..n)
        .map(|r| {
            let mut cmd = Command::new(prog);
            cmd.env("NEXAR_RANK", r.to_string())
                .env("NEXAR_SIZE", n.to_string())
                .env("NEXAR_RENDEZVOUS", &rdv)
                .env("NEXAR_JOB_SECRET_FILE", &secret_path)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            for (k, v) in env {
                cmd.env(k, v);
            }
            if r == 0 {
                cmd.env("NEXAR_RENDEZVOUS_HOST", "1");
            }
            cmd.spawn().unwrap()
        })
        .collect()
}
