//! The RDMA bulk lane's selection on a machine without RDMA hardware (this one: no device, no
//! kernel RDMA support). These tests check the fallback and the refusals, never the queue pair
//! data path itself (that needs a device; see `docs/RDMA.md`).
//!
//! * With the `rdma` feature: a 2-rank job over QUIC moves 4 MiB messages, the TLS lane carries
//!   them ("rdma" counters zero), and the log says why RDMA was not used; with
//!   `NEXAR_RDMA=require` the job fails fast naming the reason.
//! * Without it: `NEXAR_RDMA=require` is refused at start-up ("built without the rdma
//!   feature"), and `auto` behaves as before (the TLS lane, no RDMA log).

mod common;

use common::procs::{example, nexarrun_path, stderr_text, stdout_text};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// Runs a 2-rank `rdma_probe --job` over QUIC with `NEXAR_RDMA=mode` (the caller's `NEXAR_*`
/// lane settings removed so they cannot change what the test means).
fn job(mode: &str) -> (Output, Duration) {
    let start = Instant::now();
    let out = Command::new(nexarrun_path())
        .args(["-n", "2", "--timeout", "60", "--"])
        .arg(example("rdma_probe"))
        .arg("--job")
        .env("NEXAR_TRANSPORT", "quic")
        .env("NEXAR_RDMA", mode)
        .env("NEXAR_LOG", "nexar=info")
        .env_remove("NEXAR_BULK_LANE")
        .output()
        .expect("nexarrun starts");
    (out, start.elapsed())
}

fn field(line: &str, key: &str) -> u64 {
    line.split_whitespace()
        .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {key} in {line:?}"))
}

/// The `RDMAJOB` lines of a successful job, one per rank.
fn job_lines(out: &Output) -> Vec<String> {
    let stdout = stdout_text(out);
    assert!(
        out.status.success(),
        "exit {:?}\nstdout:\n{stdout}\nstderr:\n{}",
        out.status,
        stderr_text(out)
    );
    let lines: Vec<String> = stdout
        .lines()
        .filter_map(|l| l.find("RDMAJOB ").map(|i| l[i..].to_string()))
        .collect();
    assert_eq!(lines.len(), 2, "both ranks report\n{stdout}");
    lines
}

/// Whether this host has a usable device (then the lane must carry the data instead).
fn has_device() -> bool {
    nexar::transport::rdma::probe::device().is_ok()
}

/// On a host with a device (never the case where this was written): the RDMA lane carried the
/// bulk data.
fn check_rdma_used(out: &Output) {
    for l in job_lines(out) {
        assert!(field(&l, "rdma_bytes") >= 4 << 20, "{l}");
    }
}

#[test]
fn auto_without_a_device_uses_the_tls_lane() {
    let (out, _) = job("auto");
    if has_device() {
        return check_rdma_used(&out);
    }
    for l in job_lines(&out) {
        // Allreduce and the 4 MiB exchange went over the TLS lane, none over RDMA.
        assert!(field(&l, "tls_bytes") >= 4 << 20, "{l}");
        assert_eq!(field(&l, "rdma_bytes"), 0, "{l}");
    }
    let stderr = stderr_text(&out);
    if cfg!(feature = "rdma") {
        assert!(
            stderr.contains("RDMA bulk lane unavailable") && stderr.contains("no RDMA device"),
            "the log gives the reason\n{stderr}"
        );
    } else {
        assert!(
            !stderr.contains("RDMA bulk lane"),
            "silent without the feature\n{stderr}"
        );
    }
}

#[test]
fn off_is_silent_and_uses_the_tls_lane() {
    let (out, _) = job("off");
    for l in job_lines(&out) {
        assert!(field(&l, "tls_bytes") >= 4 << 20, "{l}");
        assert_eq!(field(&l, "rdma_bytes"), 0, "{l}");
    }
    assert!(!stderr_text(&out).contains("RDMA bulk lane"));
}

#[test]
fn require_without_a_device_fails_fast_with_the_reason() {
    let (out, took) = job("require");
    if has_device() {
        return check_rdma_used(&out);
    }
    let all = format!("{}\n{}", stdout_text(&out), stderr_text(&out));
    assert!(!out.status.success(), "the job must fail\n{all}");
    assert!(!all.contains("RDMAJOB"), "no rank finished\n{all}");
    if cfg!(feature = "rdma") {
        assert!(
            all.contains("NEXAR_RDMA=require") && all.contains("no RDMA device"),
            "the error names the reason\n{all}"
        );
    } else {
        assert!(
            all.contains("built without the rdma feature"),
            "the error names the reason\n{all}"
        );
    }
    assert!(took < Duration::from_secs(30), "failed after {took:?}");
}

#[test]
fn the_probe_explains_itself() {
    let out = Command::new(example("rdma_probe"))
        .output()
        .expect("rdma_probe runs");
    let stdout = stdout_text(&out);
    assert!(out.status.success(), "{stdout}\n{}", stderr_text(&out));
    let line = stdout.lines().next().unwrap_or_default();
    if cfg!(feature = "rdma") {
        // A device (then its name) or the reason there is none.
        assert!(
            line.starts_with("RDMA device=") || line.starts_with("RDMA none: no RDMA device"),
            "{line}"
        );
    } else {
        assert_eq!(line, "RDMA none: nexar was built without the rdma feature");
    }
}
