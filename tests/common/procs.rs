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

/// Ranks started by hand, and their job's id (the name prefix of its shared-memory inboxes).
pub struct HandLaunch {
    /// One child per rank, in rank order.
    pub children: Vec<Child>,
    /// The job id derived from the secret.
    pub job_id: String,
}

/// Starts `n` ranks of `prog` by hand (no launcher watches them): rank 0 hosts the rendezvous,
/// the job secret is in a file under `dir`, output is piped. `configure` adds arguments and
/// environment to each rank's command.
pub fn launch_by_hand(
    prog: &Path,
    n: u32,
    dir: &Path,
    configure: impl Fn(&mut Command),
) -> HandLaunch {
    let secret_path = dir.join("secret");
    let secret = JobSecret::generate().unwrap();
    secret.write_file(&secret_path).unwrap();
    let rdv = format!("127.0.0.1:{}", free_udp_port());
    let children = (0..n)
        .map(|r| {
            let mut cmd = Command::new(prog);
            cmd.env("NEXAR_RANK", r.to_string())
                .env("NEXAR_SIZE", n.to_string())
                .env("NEXAR_RENDEZVOUS", &rdv)
                .env("NEXAR_JOB_SECRET_FILE", &secret_path)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            configure(&mut cmd);
            if r == 0 {
                cmd.env("NEXAR_RENDEZVOUS_HOST", "1");
            }
            cmd.spawn().unwrap()
        })
        .collect();
    HandLaunch {
        children,
        job_id: secret.job_id(),
    }
}

/// Waits for every child and returns their outputs in order.
pub fn wait_all(children: Vec<Child>) -> Vec<std::process::Output> {
    children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect()
}
