//! The bind-address rules over simulated environments (no sockets except the UDP-connect probe).

use super::*;

fn vars(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> + use<> {
    let m: std::collections::HashMap<String, String> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    move |k| m.get(k).cloned()
}

fn span(pairs: &[(&str, &str)]) -> Option<Span> {
    scheduler_span(&vars(pairs))
}

const RDV: &str = "10.1.2.3:20007";

#[test]
fn nexar_launches_and_singletons_have_no_scheduler_span() {
    assert_eq!(span(&[]), None);
    assert_eq!(span(&[("NEXAR_RANK", "0"), ("SLURM_PROCID", "0")]), None);
    assert_eq!(span(&[("NEXAR_SIZE", "2"), ("PMI_FD", "3")]), None);
}

#[test]
fn pmi_span_is_decided_through_the_kvs() {
    assert_eq!(span(&[("PMI_FD", "3")]), Some(Span::Unknown));
    assert_eq!(
        span(&[("PMI_PORT", "h:1"), ("PMI_ID", "0")]),
        Some(Span::Unknown)
    );
}

#[test]
fn open_mpi_compares_local_size_with_size() {
    let base = [("OMPI_COMM_WORLD_RANK", "1"), ("OMPI_COMM_WORLD_SIZE", "4")];
    let with = |local: &'static str| {
        let mut v = base.to_vec();
        v.push(("OMPI_COMM_WORLD_LOCAL_SIZE", local));
        span(&v)
    };
    assert_eq!(with("4"), Some(Span::OneHost));
    assert_eq!(with("2"), Some(Span::Several));
    assert_eq!(span(&base), Some(Span::Unknown));
}

#[test]
fn slurm_counts_distinct_step_nodes_then_node_counts() {
    let s = |extra: &[(&'static str, &'static str)]| {
        let mut v = vec![("SLURM_PROCID", "0"), ("SLURM_NTASKS", "4")];
        v.extend_from_slice(extra);
        span(&v)
    };
    assert_eq!(s(&[("SLURM_STEP_NODELIST", "node07")]), Some(Span::OneHost));
    assert_eq!(s(&[("SLURM_STEP_NODELIST", "n[1-1]")]), Some(Span::OneHost));
    assert_eq!(
        s(&[("SLURM_STEP_NODELIST", "hostA,hostB")]),
        Some(Span::Several)
    );
    assert_eq!(
        s(&[("SLURM_STEP_NODELIST", "n[01-03]")]),
        Some(Span::Several)
    );
    // The step's list beats the job's node count.
    let one = [("SLURM_STEP_NODELIST", "a"), ("SLURM_NNODES", "8")];
    assert_eq!(s(&one), Some(Span::OneHost));
    assert_eq!(s(&[("SLURM_STEP_NUM_NODES", "1")]), Some(Span::OneHost));
    assert_eq!(s(&[("SLURM_NNODES", "1")]), Some(Span::OneHost));
    assert_eq!(s(&[("SLURM_NNODES", "3")]), Some(Span::Several));
    assert_eq!(s(&[]), Some(Span::Unknown));
    assert_eq!(s(&[("SLURM_STEP_NODELIST", "bad[")]), Some(Span::Unknown));
}

#[test]
fn torchrun_uses_local_world_size_then_master_addr() {
    let t = |extra: &[(&'static str, &'static str)]| {
        let mut v = vec![("RANK", "0"), ("WORLD_SIZE", "4")];
        v.extend_from_slice(extra);
        span(&v)
    };
    assert_eq!(t(&[("LOCAL_WORLD_SIZE", "4")]), Some(Span::OneHost));
    assert_eq!(
        t(&[("LOCAL_WORLD_SIZE", "2"), ("MASTER_ADDR", "127.0.0.1")]),
        Some(Span::Several)
    );
    assert_eq!(t(&[("MASTER_ADDR", "127.0.0.1")]), Some(Span::OneHost));
    assert_eq!(t(&[("MASTER_ADDR", "localhost")]), Some(Span::OneHost));
    assert_eq!(t(&[("MASTER_ADDR", "[::1]")]), Some(Span::OneHost));
    assert_eq!(t(&[("MASTER_ADDR", "node1")]), Some(Span::Unknown));
    assert_eq!(t(&[]), Some(Span::Unknown));
}

#[test]
fn explicit_addresses_always_win() {
    let rdv: SocketAddr = RDV.parse().unwrap();
    let lo: IpAddr = "127.0.0.1".parse().unwrap();
    let cfg = Config::default();
    // NEXAR_BIND_ADDR, even loopback, is explicit; the default alone is not.
    let set = vars(&[("NEXAR_BIND_ADDR", "127.0.0.1")]);
    assert_eq!(explicit(&cfg, &set), Some(lo));
    assert_eq!(explicit(&cfg, &vars(&[])), None);
    let coded = Config {
        bind_addr: "10.9.9.9".parse().unwrap(),
        ..Config::default()
    };
    assert_eq!(explicit(&coded, &vars(&[])), Some(coded.bind_addr));
    for s in [
        None,
        Some(Span::OneHost),
        Some(Span::Several),
        Some(Span::Unknown),
    ] {
        assert_eq!(choose(Some(lo), lo, s, rdv), Choice::Configured(lo));
    }
}

#[test]
fn the_choice_follows_the_span() {
    let rdv: SocketAddr = RDV.parse().unwrap();
    let lo: IpAddr = "127.0.0.1".parse().unwrap();
    assert_eq!(choose(None, lo, None, rdv), Choice::Configured(lo));
    assert_eq!(choose(None, lo, Some(Span::OneHost), rdv), Choice::Loopback);
    assert_eq!(
        choose(None, lo, Some(Span::Several), rdv),
        Choice::Toward(rdv)
    );
    assert_eq!(
        choose(None, lo, Some(Span::Unknown), rdv),
        Choice::Toward(rdv)
    );
    assert_eq!(
        loopback_like("::5".parse().unwrap()),
        IpAddr::from(Ipv6Addr::LOCALHOST)
    );
    assert_eq!(loopback_like(rdv.ip()), lo);
}

#[test]
fn endpoint_ip_applies_the_rules() {
    let cfg = Config::default();
    let rdv: SocketAddr = "127.0.0.1:20001".parse().unwrap();
    // Slurm across hosts, rendezvous on loopback: the route toward it is loopback.
    let slurm = vars(&[("SLURM_PROCID", "1"), ("SLURM_STEP_NODELIST", "a,b")]);
    assert_eq!(endpoint_ip(&cfg, &slurm, 1, rdv).unwrap(), rdv.ip());
    // One host: loopback whatever the rendezvous address.
    let one = vars(&[("SLURM_PROCID", "1"), ("SLURM_STEP_NODELIST", "a")]);
    let far: SocketAddr = RDV.parse().unwrap();
    assert_eq!(endpoint_ip(&cfg, &one, 1, far).unwrap(), rdv.ip());
    // Explicit wins.
    let set = vars(&[("SLURM_PROCID", "1"), ("NEXAR_BIND_ADDR", "0.0.0.0")]);
    let any = Config {
        bind_addr: "0.0.0.0".parse().unwrap(),
        ..Config::default()
    };
    assert_eq!(endpoint_ip(&any, &set, 1, far).unwrap(), any.bind_addr);
}

#[test]
fn the_udp_probe_finds_the_local_end_of_a_route() {
    let lo: SocketAddr = "127.0.0.1:9".parse().unwrap();
    assert_eq!(local_ip_toward(lo).unwrap(), lo.ip());
    // Every address of an interface that is up routes to itself.
    for ip in interface_ips().into_iter().filter(IpAddr::is_ipv4) {
        assert_eq!(local_ip_toward(SocketAddr::new(ip, 9)).unwrap(), ip);
    }
}

#[test]
fn rank_zero_prefers_a_resolved_routable_address() {
    let ip = |s: &str| s.parse::<IpAddr>().unwrap();
    let resolved = [ip("127.0.1.1"), ip("fd00::7"), ip("10.0.0.5")];
    let ifaces = [ip("127.0.0.1"), ip("192.168.1.9")];
    assert_eq!(routable_ip(&resolved, &ifaces), Some(ip("10.0.0.5")));
    assert_eq!(routable_ip(&resolved[..2], &ifaces), Some(ip("fd00::7")));
    assert_eq!(
        routable_ip(&resolved[..1], &ifaces),
        Some(ip("192.168.1.9"))
    );
    assert_eq!(routable_ip(&[], &ifaces[..1]), None);
    assert_eq!(rendezvous_ip(true, "anything").unwrap(), ip("127.0.0.1"));
    assert!(interface_ips().iter().any(IpAddr::is_loopback), "lo is up");
}

#[test]
fn nexar_hostname_overrides_the_system_name() {
    assert_eq!(
        hostname_from(&vars(&[("NEXAR_HOSTNAME", " box7 ")])),
        "box7"
    );
    assert_eq!(
        hostname_from(&vars(&[("NEXAR_HOSTNAME", " ")])),
        system_hostname()
    );
    assert_eq!(hostname_from(&vars(&[])), system_hostname());
}
