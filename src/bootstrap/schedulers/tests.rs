//! Unit tests of scheduler detection: hostlists, port formulas, precedence and bad values.

use super::*;
use crate::bootstrap::Launch;
use crate::error::ErrorKind;
use crate::security::JobSecret;
use std::collections::HashMap;

fn vars(pairs: &[(&str, &str)]) -> HashMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn launch(pairs: &[(&str, &str)]) -> crate::error::Result<Launch> {
    let m = vars(pairs);
    Launch::from_vars(move |k| m.get(k).cloned())
}

/// A secret file unique to this test, as every multi-rank scheduler launch needs one; removed
/// when the test ends (a test must not leave files behind).
struct SecretFile(String);

impl SecretFile {
    fn as_str(&self) -> &str {
        &self.0
    }
}

impl Drop for SecretFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn secret_file(tag: &str) -> SecretFile {
    let p = std::env::temp_dir().join(format!("nexar-sched-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    JobSecret::generate().unwrap().write_file(&p).unwrap();
    SecretFile(p.to_string_lossy().into_owned())
}

fn err_msg(r: crate::error::Result<Launch>) -> String {
    let e = r.expect_err("expected a bootstrap error");
    assert_eq!(e.kind(), ErrorKind::Bootstrap);
    e.message().to_string()
}

#[test]
fn hostlist_expansion() {
    assert_eq!(
        expand_hostlist("node[01-03,07],gpu5").unwrap(),
        ["node01", "node02", "node03", "node07", "gpu5"]
    );
    assert_eq!(expand_hostlist("a").unwrap(), ["a"]);
    assert_eq!(
        expand_hostlist("r[1-2]n[8-9]").unwrap(),
        ["r1n8", "r1n9", "r2n8", "r2n9"]
    );
    assert_eq!(expand_hostlist("x[9-11]").unwrap(), ["x9", "x10", "x11"]);
    assert_eq!(
        expand_hostlist("n[098-100]").unwrap(),
        ["n098", "n099", "n100"]
    );
    for bad in ["node[1-3", "node1-3]", "n[3-1]", "n[a-b]", "", ","] {
        assert!(expand_hostlist(bad).is_err(), "{bad:?} should be refused");
    }
    assert_eq!(first_host("gpu[3-4],cpu[1-1000000]").unwrap(), "gpu3");
    assert_eq!(first_host("solo").unwrap(), "solo");
    assert_eq!(first_host("n[0001-9999999999]x[5,1]").unwrap(), "n0001x5");
    assert!(first_host("n[1-").is_err());
}

#[test]
fn port_formulas() {
    assert_eq!(derived_port(0), 20000);
    assert_eq!(derived_port(9999), 29999);
    assert_eq!(derived_port(10000), 20000);
    assert_eq!(slurm_port(1234, 0), 20000 + (1234 * 31) % 10000);
    assert_ne!(slurm_port(1234, 0), slurm_port(1234, 1));
    assert_ne!(slurm_port(1234, 0), slurm_port(1235, 0));
    assert_eq!(torchrun_port(29500), 29501);
    assert_eq!(torchrun_port(65535), 1024);
    assert_eq!(torchrun_port(80), 1024, "never a privileged port");
    assert_eq!(torchrun_port(1022), 1024);
    for key in [0u64, 7, u64::MAX] {
        assert!((20000..=29999).contains(&derived_port(key)));
    }
}

#[test]
fn slurm_launch() {
    let s = secret_file("slurm");
    let l = launch(&[
        ("SLURM_PROCID", "2"),
        ("SLURM_NTASKS", "4"),
        ("SLURM_LOCALID", "0"),
        ("SLURM_STEP_NODELIST", "node[07-08]"),
        ("SLURM_JOB_ID", "1234"),
        ("SLURM_STEP_ID", "3"),
        ("NEXAR_JOB_SECRET_FILE", s.as_str()),
    ])
    .unwrap();
    assert_eq!((l.rank, l.size, l.local_rank), (2, 4, 0));
    let want = format!("node07:{}", slurm_port(1234, 3));
    assert_eq!(l.rendezvous.as_deref(), Some(want.as_str()));
    assert!(!l.host_rendezvous);
    assert!(l.secret.is_some());
    // A step on one node meets on loopback: node names need not resolve.
    let l = launch(&[
        ("SLURM_PROCID", "1"),
        ("SLURM_NTASKS", "2"),
        ("SLURM_STEP_NODELIST", "n1"),
        ("SLURM_JOB_ID", "1234"),
        ("SLURM_STEP_ID", "3"),
        ("NEXAR_JOB_SECRET_FILE", s.as_str()),
    ])
    .unwrap();
    let want = format!("127.0.0.1:{}", slurm_port(1234, 3));
    assert_eq!(l.rendezvous.as_deref(), Some(want.as_str()));
}

#[test]
fn torchrun_launch_and_override() {
    let s = secret_file("torch");
    let base = [
        ("RANK", "0"),
        ("WORLD_SIZE", "3"),
        ("LOCAL_RANK", "0"),
        ("MASTER_ADDR", "10.1.2.3"),
        ("MASTER_PORT", "29500"),
        ("NEXAR_JOB_SECRET_FILE", s.as_str()),
    ];
    let l = launch(&base).unwrap();
    assert_eq!(l.rendezvous.as_deref(), Some("10.1.2.3:29501"));
    assert!(l.host_rendezvous, "rank 0 hosts the rendezvous");
    let mut over = base.to_vec();
    over.push(("NEXAR_RENDEZVOUS", "127.0.0.1:4000"));
    let l = launch(&over).unwrap();
    assert_eq!(l.rendezvous.as_deref(), Some("127.0.0.1:4000"));
    assert!(l.host_rendezvous);
    let mut v6 = base.to_vec();
    v6[3] = ("MASTER_ADDR", "fd00::1");
    assert_eq!(
        launch(&v6).unwrap().rendezvous.as_deref(),
        Some("[fd00::1]:29501")
    );
}

#[test]
fn open_mpi_one_host() {
    let s = secret_file("ompi");
    let mut v = vec![
        ("OMPI_COMM_WORLD_RANK", "1"),
        ("OMPI_COMM_WORLD_SIZE", "2"),
        ("OMPI_COMM_WORLD_LOCAL_RANK", "1"),
        ("OMPI_COMM_WORLD_LOCAL_SIZE", "2"),
        ("OMPI_MCA_ess_base_jobid", "545783809"),
        ("PMIX_NAMESPACE", "545783809"),
        ("NEXAR_JOB_SECRET_FILE", s.as_str()),
    ];
    let l = launch(&v).unwrap();
    assert_eq!((l.rank, l.size, l.local_rank), (1, 2, 1));
    let want = format!("127.0.0.1:{}", 20000 + 545783809 % 10000);
    assert_eq!(l.rendezvous.as_deref(), Some(want.as_str()));
    // Without the jobid, the namespace still yields a port in range.
    v.retain(|(k, _)| *k != "OMPI_MCA_ess_base_jobid");
    let port: u16 = launch(&v).unwrap().rendezvous.unwrap()[10..]
        .parse()
        .unwrap();
    assert!((20000..=29999).contains(&port));
    // Across hosts there is no address to derive.
    v[3] = ("OMPI_COMM_WORLD_LOCAL_SIZE", "1");
    assert!(err_msg(launch(&v)).contains("NEXAR_RENDEZVOUS"));
    v.push(("NEXAR_RENDEZVOUS", "head:7000"));
    assert_eq!(launch(&v).unwrap().rendezvous.as_deref(), Some("head:7000"));
}

#[test]
fn precedence() {
    let s = secret_file("prec");
    let mut v = vec![
        ("OMPI_COMM_WORLD_RANK", "1"),
        ("OMPI_COMM_WORLD_SIZE", "2"),
        ("OMPI_MCA_ess_base_jobid", "5"),
        ("SLURM_PROCID", "3"),
        ("SLURM_NTASKS", "4"),
        ("SLURM_STEP_NODELIST", "n1"),
        ("SLURM_JOB_ID", "9"),
        ("RANK", "4"),
        ("WORLD_SIZE", "5"),
        ("MASTER_ADDR", "m"),
        ("MASTER_PORT", "29500"),
        ("NEXAR_JOB_SECRET_FILE", s.as_str()),
    ];
    assert_eq!(
        launch(&v).unwrap().rank,
        1,
        "Open MPI wins over Slurm and torchrun"
    );
    v.drain(..3);
    assert_eq!(launch(&v).unwrap().rank, 3, "Slurm wins over torchrun");
    v.drain(..4);
    assert_eq!(launch(&v).unwrap().rank, 4, "torchrun");
    v.push(("NEXAR_RANK", "0"));
    v.push(("NEXAR_SIZE", "1"));
    let l = launch(&v).unwrap();
    assert_eq!(
        (l.rank, l.size),
        (0, 1),
        "NEXAR_RANK wins over every scheduler"
    );
    // PMI ranks above the schedulers (and is joined by Context::init, see bootstrap::pmi).
    v.retain(|(k, _)| !k.starts_with("NEXAR_RANK") && !k.starts_with("NEXAR_SIZE"));
    v.push(("PMI_FD", "3"));
    assert!(err_msg(launch(&v)).contains("PMI_FD=3"));
}

#[test]
fn bad_values_name_the_variable() {
    let s = secret_file("bad");
    let cases: [(&[(&str, &str)], &str); 5] = [
        (
            &[
                ("SLURM_PROCID", "4"),
                ("SLURM_NTASKS", "4"),
                ("SLURM_STEP_NODELIST", "n1"),
            ],
            "SLURM_PROCID=4",
        ),
        (
            &[
                ("SLURM_PROCID", "x"),
                ("SLURM_NTASKS", "4"),
                ("SLURM_STEP_NODELIST", "n1"),
            ],
            "SLURM_PROCID",
        ),
        (
            &[("OMPI_COMM_WORLD_RANK", "0"), ("OMPI_COMM_WORLD_SIZE", "0")],
            "OMPI_COMM_WORLD_SIZE=0",
        ),
        (
            &[
                ("RANK", "0"),
                ("WORLD_SIZE", "2"),
                ("MASTER_ADDR", "h"),
                ("MASTER_PORT", "http"),
            ],
            "MASTER_PORT",
        ),
        (
            &[
                ("SLURM_PROCID", "0"),
                ("SLURM_NTASKS", "2"),
                ("SLURM_STEP_NODELIST", "n[1-"),
                ("SLURM_JOB_ID", "1"),
            ],
            "hostlist",
        ),
    ];
    for (pairs, want) in cases {
        let mut v = pairs.to_vec();
        v.push(("NEXAR_JOB_SECRET_FILE", s.as_str()));
        let msg = err_msg(launch(&v));
        assert!(msg.contains(want), "{msg:?} should name {want}");
    }
}

#[test]
fn secret_is_required_and_size_one_is_a_singleton() {
    let msg = err_msg(launch(&[
        ("RANK", "1"),
        ("WORLD_SIZE", "2"),
        ("MASTER_ADDR", "h"),
        ("MASTER_PORT", "29500"),
    ]));
    assert!(msg.contains("NEXAR_JOB_SECRET_FILE"), "{msg}");
    // A program run directly in a batch script (the allocation's variables, no srun step) is
    // a world of one, with or without a secret.
    for extra in [vec![], vec![("SLURM_PROCID", "0")]] {
        let mut v = vec![("SLURM_NTASKS", "4"), ("SLURM_JOB_ID", "5")];
        v.extend(extra);
        let l = launch(&v).unwrap();
        assert_eq!(
            (l.rank, l.size, l.rendezvous, l.host_rendezvous),
            (0, 1, None, false)
        );
    }
    // srun without PMI-2 (a site default of pmix or none) and no secret file: the error says
    // how to fix it either way.
    let msg = err_msg(launch(&[
        ("SLURM_PROCID", "1"),
        ("SLURM_NTASKS", "2"),
        ("SLURM_LOCALID", "1"),
        ("SLURM_JOB_ID", "5"),
        ("SLURM_STEP_NODELIST", "n1"),
    ]));
    assert!(
        msg.contains("--mpi=pmi2") && msg.contains("NEXAR_JOB_SECRET_FILE"),
        "{msg}"
    );
    let l = launch(&[("SLURM_PROCID", "0"), ("SLURM_NTASKS", "1")]).unwrap();
    assert_eq!(
        (l.rank, l.size, l.rendezvous, l.host_rendezvous),
        (0, 1, None, false)
    );
}
