//! Unit tests of the PMI-1 client and the start-up exchange, against the in-process fake
//! process managers of [`super::fake`] (no real hydra here; `tests/pmi_hydra.rs` runs one).

use super::client::{Conn, PmiClient, Reply, hex_decode, hex_encode};
use super::exchange::{KEY_RENDEZVOUS, KEY_SECRET, run};
use super::fake::{Act, FakePmi, initack_server, scripted};
use super::{PmiAddr, detect};
use crate::config::Config;
use crate::error::{ErrorKind, Result};
use crate::security::JobSecret;
use std::collections::HashMap;
use std::time::{Duration, Instant};

const T: Duration = Duration::from_secs(5);

fn client(s: std::os::unix::net::UnixStream, t: Duration) -> PmiClient {
    PmiClient::new(Conn::Unix(s), t).unwrap()
}

/// The error of `r`, checked to be a `Bootstrap` error whose message holds every word of `want`.
fn boot_err<T: std::fmt::Debug>(r: Result<T>, want: &[&str]) -> String {
    let e = r.expect_err("expected a bootstrap error");
    assert_eq!(e.kind(), ErrorKind::Bootstrap, "{e}");
    for w in want {
        assert!(e.message().contains(w), "{:?} lacks {w:?}", e.message());
    }
    e.message().to_string()
}

#[test]
fn reply_parsing_and_hex() {
    let r = Reply::parse("cmd=get_result rc=-1 msg=key x not found").unwrap();
    assert_eq!(r.cmd, "get_result");
    assert_eq!(r.fields["rc"], "-1");
    assert_eq!(r.fields["msg"], "key x not found");
    assert_eq!(Reply::parse("cmd=barrier_out").unwrap().fields.len(), 0);
    for bad in ["", "garbage", "cmd=", "rc=0 cmd=x", "cmd=x oops"] {
        assert!(Reply::parse(bad).is_none(), "{bad:?} should not parse");
    }
    let data = [0u8, 1, 0xab, 0xff, b' ', b'='];
    assert_eq!(hex_encode(&data), "0001abff203d");
    assert_eq!(hex_decode(&hex_encode(&data)).unwrap(), data);
    for bad in ["0", "zz", "+1", "0g"] {
        assert!(hex_decode(bad).is_none(), "{bad:?} is not hex");
    }
}

#[test]
fn put_get_barrier_between_three_clients_over_sockets() {
    let pm = FakePmi::new(3);
    let threads: Vec<_> = (0..3u32)
        .map(|rank| {
            let s = pm.pair();
            std::thread::spawn(move || -> Result<Vec<String>> {
                let mut c = client(s, T);
                c.init()?;
                let m = c.get_maxes()?;
                assert_eq!((m.kvsname_max, m.keylen_max, m.vallen_max), (256, 64, 1024));
                let kvs = c.get_my_kvsname()?;
                assert_eq!(kvs, "kvs_42_0");
                assert_eq!(c.get_universe_size()?, 3);
                assert_eq!(c.get_appnum()?, 0);
                c.put(&kvs, &format!("k{rank}"), &hex_encode(&[rank as u8; 4]))?;
                c.barrier()?;
                let all = (0..3)
                    .map(|r| c.get(&kvs, &format!("k{r}")))
                    .collect::<Result<Vec<_>>>()?;
                c.barrier()?;
                c.finalize()?;
                Ok(all)
            })
        })
        .collect();
    for t in threads {
        let all = t.join().unwrap().unwrap();
        let want: Vec<String> = (0..3u8).map(|r| hex_encode(&[r; 4])).collect();
        assert_eq!(
            all, want,
            "every rank reads every rank's value after the barrier"
        );
    }
    assert_eq!(pm.finalized.load(std::sync::atomic::Ordering::SeqCst), 3);
}

#[test]
fn initack_over_tcp_gives_rank_and_size() {
    let pm = FakePmi::new(2);
    let addr = pm.listen();
    let (mut c, rank, size) = PmiClient::connect_port(&addr, 1, T).unwrap();
    assert_eq!((rank, size), (1, 2));
    c.init().unwrap();
    c.put("kvs_42_0", "x", "61").unwrap();
    assert_eq!(c.get("kvs_42_0", "x").unwrap(), "61");
    let abort = c.abort(7);
    assert!(abort.is_ok());
    let deadline = Instant::now() + T;
    while pm.aborts.lock().unwrap().is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(
        *pm.aborts.lock().unwrap(),
        [7],
        "the manager saw the abort code"
    );
}

#[test]
fn bad_initack_replies_are_errors() {
    let cases: [(&'static str, &[&str]); 4] = [
        ("cmd=nope\n", &["initack", "expected cmd=initack"]),
        (
            "cmd=initack\ncmd=set size=2\ncmd=set rank=5\ncmd=set debug=0\n",
            &["rank 5", "size 2"],
        ),
        (
            "cmd=initack\ncmd=set size=x\ncmd=set rank=0\ncmd=set debug=0\n",
            &["size=x"],
        ),
        ("cmd=initack\ncmd=set size=2\n", &["closed"]),
    ];
    for (lines, want) in cases {
        let addr = initack_server(lines);
        let r = PmiClient::connect_port(&addr, 0, Duration::from_millis(500));
        if want == ["closed"] {
            // The test server keeps the socket open: a missing line is a timeout instead.
            boot_err(r.map(|_| ()), &["initack", "no reply"]);
        } else {
            boot_err(r.map(|_| ()), want);
        }
    }
    // Nobody listening: connecting fails at once, naming the address.
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap().to_string();
    drop(l);
    boot_err(
        PmiClient::connect_port(&addr, 0, T).map(|_| ()),
        &["PMI_PORT", "connect"],
    );
}

#[test]
fn malformed_wrong_and_failed_replies_name_the_command() {
    let mut c = client(scripted(vec![Act::Line("garbage here")]), T);
    boot_err(c.init(), &["PMI init", "malformed", "garbage"]);

    let mut c = client(scripted(vec![Act::Line("cmd=maxes kvsname_max=1")]), T);
    boot_err(c.init(), &["PMI init", "expected cmd=response_to_init"]);

    let mut c = client(
        scripted(vec![Act::Line(
            "cmd=response_to_init rc=-1 msg=denied here",
        )]),
        T,
    );
    boot_err(c.init(), &["PMI init failed", "rc=-1", "denied here"]);

    let mut c = client(
        scripted(vec![Act::Line("cmd=response_to_init rc=0 pmi_version=2")]),
        T,
    );
    boot_err(c.init(), &["version 2"]);

    let mut c = client(
        scripted(vec![Act::Line("cmd=get_result rc=-1 msg=not_found")]),
        T,
    );
    boot_err(c.get("kvs", "nexar-rdv"), &["PMI get failed", "nexar-rdv"]);

    let mut c = client(scripted(vec![Act::Line("cmd=maxes keylen_max=64")]), T);
    boot_err(c.get_maxes(), &["get_maxes", "kvsname_max"]);

    let mut c = client(scripted(vec![Act::Line("cmd=put_result rc=1 msg=full")]), T);
    boot_err(c.put("kvs", "k", "v"), &["PMI put failed", "rc=1"]);
}

#[test]
fn closed_silent_and_endless_servers_end_in_errors() {
    let mut c = client(scripted(vec![Act::Close]), T);
    boot_err(c.barrier(), &["PMI barrier", "closed"]);

    let t0 = Instant::now();
    let mut c = client(
        scripted(vec![Act::Silent(Duration::from_secs(10))]),
        Duration::from_millis(300),
    );
    boot_err(c.barrier(), &["PMI barrier", "no reply"]);
    assert!(
        t0.elapsed() < Duration::from_secs(3),
        "timed out after {:?}",
        t0.elapsed()
    );

    // A reply that never ends its line: bounded by MAX_LINE, not by memory.
    let mut c = client(scripted(vec![Act::Raw(vec![b'x'; 100_000])]), T);
    boot_err(c.finalize(), &["PMI finalize", "longer than"]);

    // A slow drip of bytes cannot stretch the deadline.
    let (mine, theirs) = std::os::unix::net::UnixStream::pair().unwrap();
    std::thread::spawn(move || {
        use std::io::Write;
        let mut w = mine;
        for _ in 0..40 {
            if w.write_all(b"c").is_err() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    });
    let t0 = Instant::now();
    let mut c = client(theirs, Duration::from_millis(400));
    boot_err(c.finalize(), &["no reply"]);
    assert!(t0.elapsed() < Duration::from_millis(1500));
}

#[test]
fn keys_and_values_are_checked_before_sending() {
    let mut c = client(
        scripted(vec![Act::Line(
            "cmd=maxes kvsname_max=256 keylen_max=8 vallen_max=16",
        )]),
        T,
    );
    c.get_maxes().unwrap();
    boot_err(c.put("kvs", "k", &"a".repeat(17)), &["vallen_max=16"]);
    boot_err(c.put("kvs", "a-long-key", "v"), &["keylen_max=8"]);
    boot_err(c.put("kvs", "k", "a b"), &["value"]);
    boot_err(c.put("kvs", "k=1", "v"), &["key"]);
    boot_err(c.get("kvs", ""), &["key"]);
}

fn vars(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
    let m: HashMap<String, String> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    move |k| m.get(k).cloned()
}

#[test]
fn detection_and_bad_variables() {
    assert_eq!(detect(&vars(&[])).unwrap(), None);
    assert_eq!(
        detect(&vars(&[
            ("PMI_FD", "6"),
            ("PMI_PORT", "h:1"),
            ("PMI_ID", "0")
        ]))
        .unwrap(),
        Some(PmiAddr::Fd(6)),
        "PMI_FD wins over PMI_PORT"
    );
    assert_eq!(
        detect(&vars(&[("PMI_PORT", "vm:40931"), ("PMI_ID", "3")])).unwrap(),
        Some(PmiAddr::Port {
            hostport: "vm:40931".into(),
            id: 3
        })
    );
    boot_err(detect(&vars(&[("PMI_FD", "x")])), &["PMI_FD=\"x\""]);
    boot_err(detect(&vars(&[("PMI_FD", "-1")])), &["PMI_FD"]);
    boot_err(detect(&vars(&[("PMI_PORT", "h:1")])), &["PMI_ID"]);
    boot_err(detect(&vars(&[("PMI_PORT", "h")])), &["PMI_PORT"]);
    boot_err(
        detect(&vars(&[("PMI_PORT", "h:1"), ("PMI_ID", "a")])),
        &["PMI_ID=\"a\""],
    );
    // A plain Launch refuses a PMI launch (only Context::init can join it) but nexar's own
    // variables still win over PMI.
    let pmi = [("PMI_FD", "6"), ("PMI_RANK", "0"), ("PMI_SIZE", "2")];
    boot_err(
        crate::bootstrap::Launch::from_vars(vars(&pmi)),
        &["PMI", "Context::init"],
    );
    let mut own = pmi.to_vec();
    own.extend([("NEXAR_RANK", "0"), ("NEXAR_SIZE", "1")]);
    let l = crate::bootstrap::Launch::from_vars(vars(&own)).unwrap();
    assert_eq!((l.rank, l.size), (0, 1));
    // PMI beats Open MPI.
    let mut ompi = pmi.to_vec();
    ompi.extend([("OMPI_COMM_WORLD_RANK", "1"), ("OMPI_COMM_WORLD_SIZE", "2")]);
    boot_err(crate::bootstrap::Launch::from_vars(vars(&ompi)), &["PMI"]);
}

/// Runs the start-up exchange for `size` ranks against a fake manager over TCP (PMI_PORT), each
/// rank on its own thread, with `secret_of(rank)` as its `NEXAR_JOB_SECRET_FILE` secret.
fn exchange(
    size: u32,
    secret_of: impl Fn(u32) -> Option<JobSecret>,
    env: &'static [(&'static str, &'static str)],
) -> (
    std::sync::Arc<FakePmi>,
    Vec<Result<super::exchange::PmiBoot>>,
) {
    exchange_with(size, secret_of, |_| env.to_vec())
}

/// [`exchange`] with each rank's variables from `env_of(rank)`.
fn exchange_with(
    size: u32,
    secret_of: impl Fn(u32) -> Option<JobSecret>,
    env_of: impl Fn(u32) -> Vec<(&'static str, &'static str)>,
) -> (
    std::sync::Arc<FakePmi>,
    Vec<Result<super::exchange::PmiBoot>>,
) {
    let pm = FakePmi::new(size as usize);
    let addr = pm.listen();
    let rt = crate::context::build_runtime(1).unwrap();
    let cfg = Config {
        connect_timeout: Duration::from_secs(5),
        ..Config::default()
    };
    let threads: Vec<_> = (0..size)
        .map(|rank| {
            let a = PmiAddr::Port {
                hostport: addr.clone(),
                id: rank,
            };
            let (cfg, h, s) = (cfg.clone(), rt.handle().clone(), secret_of(rank));
            let env = env_of(rank);
            std::thread::spawn(move || run(&a, &vars(&env), s, &cfg, &h))
        })
        .collect();
    let out = threads.into_iter().map(|t| t.join().unwrap()).collect();
    rt.shutdown_background();
    (pm, out)
}

#[test]
fn exchange_publishes_rendezvous_and_secret_through_the_kvs() {
    let (pm, boots) = exchange(3, |_| None, &[]);
    let boots: Vec<_> = boots.into_iter().map(|b| b.unwrap()).collect();
    let l0 = &boots[0].launch;
    assert!(boots[0].server.is_some(), "rank 0 started the rendezvous");
    let rdv = l0.rendezvous.clone().unwrap();
    assert!(rdv.starts_with("127.0.0.1:"), "{rdv}");
    assert_eq!(
        hex_decode(&pm.value(KEY_RENDEZVOUS).unwrap()).unwrap(),
        rdv.as_bytes()
    );
    assert_eq!(
        pm.value(KEY_SECRET).unwrap().len(),
        64,
        "a generated secret, in hex"
    );
    for (r, b) in boots.iter().enumerate() {
        let l = &b.launch;
        assert_eq!((l.rank, l.size), (r as u32, 3));
        assert_eq!(
            l.local_rank, r as u32,
            "one host: local rank counted via the KVS"
        );
        assert_eq!(l.rendezvous.as_deref(), Some(rdv.as_str()));
        assert!(!l.host_rendezvous);
        assert_eq!(l.secret, l0.secret, "every rank holds rank 0's secret");
        assert_eq!(r == 0, b.server.is_some());
        b.session.finalize().unwrap();
    }
    assert_eq!(pm.finalized.load(std::sync::atomic::Ordering::SeqCst), 3);
}

#[test]
fn exchange_with_secret_files_keeps_the_secret_out_of_the_kvs() {
    let s = JobSecret::generate().unwrap();
    let s2 = s.clone();
    let env = &[("MPI_LOCALRANKID", "7"), ("MPI_LOCALNRANKS", "2")];
    let (pm, boots) = exchange(2, move |_| Some(s2.clone()), env);
    assert_eq!(pm.value(KEY_SECRET).as_deref(), Some("file"));
    assert!(
        pm.value("nexar-host-0").is_none(),
        "local rank and local size given: no host keys"
    );
    for b in boots {
        let b = b.unwrap();
        assert_eq!(b.launch.secret.as_ref(), Some(&s));
        assert_eq!(b.launch.local_rank, 7);
    }
    // Rank 0 has a file, rank 1 none: rank 1 says so (and the reverse).
    let s3 = s.clone();
    let (_, boots) = exchange(2, move |r| (r == 0).then(|| s3.clone()), &[]);
    boot_err(
        boots.into_iter().nth(1).unwrap().map(|_| ()),
        &["rank 0 has its own job secret", "this rank has none"],
    );
    let (_, boots) = exchange(2, move |r| (r == 1).then(|| s.clone()), &[]);
    boot_err(
        boots.into_iter().nth(1).unwrap().map(|_| ()),
        &["not on rank 0"],
    );
}

#[test]
fn singleton_under_pmi_needs_no_rendezvous() {
    let (pm, boots) = exchange(1, |_| None, &[]);
    let b = boots.into_iter().next().unwrap().unwrap();
    assert_eq!((b.launch.rank, b.launch.size), (0, 1));
    assert!(b.launch.rendezvous.is_none() && b.server.is_none());
    assert!(pm.value(KEY_RENDEZVOUS).is_none());
    b.session.finalize().unwrap();
    b.session.finalize().unwrap();
    assert_eq!(pm.finalized.load(std::sync::atomic::Ordering::SeqCst), 1);
}

#[test]
fn ranks_on_one_host_keep_loopback_even_without_local_sizes() {
    // The host names go through the KVS (no MPI_LOCALNRANKS) and all match: loopback.
    let env = &[("NEXAR_HOSTNAME", "same"), ("MPI_LOCALRANKID", "0")];
    let (pm, boots) = exchange(3, |_| None, env);
    assert!(pm.value("nexar-host-2").is_some(), "hosts were exchanged");
    for b in boots {
        let rdv = b.unwrap().launch.rendezvous.unwrap();
        assert!(rdv.starts_with("127.0.0.1:"), "{rdv}");
    }
    // An explicit NEXAR_BIND_ADDR skips the exchange.
    let env = &[("NEXAR_BIND_ADDR", "127.0.0.1"), ("MPI_LOCALRANKID", "0")];
    let (pm, boots) = exchange(2, |_| None, env);
    assert!(pm.value("nexar-host-0").is_none(), "no host exchange");
    assert!(boots.into_iter().all(|b| b.is_ok()));
}

#[test]
fn ranks_on_several_hosts_get_a_routable_rendezvous() {
    // Two "hosts" by name; rank 0's name does not resolve, so it takes an interface address.
    let names = ["nexar-test-host-a.invalid", "nexar-test-host-b.invalid"];
    let (pm, boots) = exchange_with(
        3,
        |_| None,
        |r| vec![("NEXAR_HOSTNAME", names[(r as usize).min(1)])],
    );
    let routable =
        crate::bootstrap::bind::routable_ip(&[], &crate::bootstrap::bind::interface_ips());
    let Some(ip) = routable else {
        // A machine with loopback only: rank 0 says why it cannot host the rendezvous.
        let b0 = boots.into_iter().next().unwrap().map(|_| ());
        boot_err(b0, &["several hosts", "NEXAR_BIND_ADDR"]);
        eprintln!("SKIPPED part: no non-loopback interface here");
        return;
    };
    let rdv = hex_decode(&pm.value(KEY_RENDEZVOUS).unwrap()).unwrap();
    let rdv = String::from_utf8(rdv).unwrap();
    let addr: std::net::SocketAddr = rdv.parse().unwrap();
    assert_eq!(addr.ip(), ip, "rendezvous {rdv}");
    for (r, b) in boots.into_iter().enumerate() {
        let l = b.unwrap().launch;
        assert_eq!(l.rendezvous.as_deref(), Some(rdv.as_str()));
        // Local ranks counted by host name: rank 2 is the second on host b.
        assert_eq!(l.local_rank, [0, 0, 1][r], "rank {r}");
    }
}
