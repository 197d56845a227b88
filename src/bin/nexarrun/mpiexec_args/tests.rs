use super::*;
use std::io::Write;

fn os(v: &[&str]) -> Vec<OsString> {
    v.iter().map(OsString::from).collect()
}

fn env_of(k: &str) -> Option<OsString> {
    match k {
        "HOME" => Some("/home/me".into()),
        "FOO" => Some("foo-value".into()),
        _ => None,
    }
}

fn here(h: &str) -> bool {
    hosts::is_local(h, "box.example.org")
}

fn plan(v: &[&str]) -> Plan {
    match parse_with_host(&os(v), env_of, here) {
        Ok(Command::Run(p)) => p,
        other => panic!("{v:?}: {other:?}"),
    }
}

fn err(v: &[&str]) -> String {
    match parse_with_host(&os(v), env_of, here) {
        Err(e) => e,
        other => panic!("{v:?} should fail: {other:?}"),
    }
}

fn pairs(v: &[(&str, &str)]) -> Vec<(OsString, OsString)> {
    v.iter().map(|(k, v)| ((*k).into(), (*v).into())).collect()
}

#[test]
fn every_spelling_of_the_rank_count() {
    for spelling in [
        &["-n", "3"][..],
        &["-np", "3"],
        &["--np", "3"],
        &["--n", "3"],
        &["-c", "3"],
        &["--np=3"],
        &["-n=3"],
    ] {
        let mut v = spelling.to_vec();
        v.extend(["prog", "a"]);
        let p = plan(&v);
        assert_eq!(p.contexts.len(), 1, "{v:?}");
        assert_eq!(p.contexts[0].count, 3, "{v:?}");
        assert_eq!(p.contexts[0].program, "prog");
        assert_eq!(p.contexts[0].args, os(&["a"]));
    }
    assert!(err(&["-n", "0", "prog"]).contains("positive"));
    assert!(err(&["-n", "x", "prog"]).contains("'-n'"));
    assert!(err(&["-n"]).contains("needs 1 value"));
}

#[test]
fn the_default_is_one_rank() {
    let p = plan(&["prog"]);
    assert_eq!(p.contexts[0].count, 1);
    assert!(!p.tag_output);
    assert_eq!(p.timeout, None);
}

#[test]
fn program_arguments_are_left_alone() {
    let p = plan(&["-n", "2", "prog", "-n", "5", "--mca", "-x", "Y"]);
    assert_eq!(p.contexts[0].count, 2);
    assert_eq!(p.contexts[0].args, os(&["-n", "5", "--mca", "-x", "Y"]));
    let p = plan(&["-n", "2", "--", "-weird-prog", "x"]);
    assert_eq!(p.contexts[0].program, "-weird-prog");
}

#[test]
fn mpmd_contexts_with_their_own_counts_env_and_wdir() {
    let p = plan(&[
        "-genv", "G", "1", "-n", "2", "-env", "A", "x", "-wdir", "/tmp", "p1", "a1", ":", "-np",
        "3", "-env", "G", "2", "p2", "a2", "b2", ":", "p3",
    ]);
    assert_eq!(p.contexts.len(), 3);
    let c = &p.contexts;
    assert_eq!((c[0].count, c[1].count, c[2].count), (2, 3, 1));
    assert_eq!(c[0].program, "p1");
    assert_eq!(c[1].args, os(&["a2", "b2"]));
    assert_eq!(c[0].env, pairs(&[("G", "1"), ("A", "x")]));
    assert_eq!(
        c[1].env,
        pairs(&[("G", "1"), ("G", "2")]),
        "local wins (last)"
    );
    assert_eq!(c[2].env, pairs(&[("G", "1")]));
    assert_eq!(c[0].wdir, Some(PathBuf::from("/tmp")));
    assert_eq!(c[1].wdir, None);
    assert_eq!(p.rank_contexts(), vec![0, 0, 1, 1, 1, 2]);
    assert_eq!(p.size(), 6);
}

#[test]
fn mpmd_errors() {
    assert!(err(&[":", "prog"]).contains("no program before"));
    assert!(err(&["p1", ":", ":", "p2"]).contains("no program before"));
    assert!(err(&["p1", ":", "-n", "2"]).contains("no program"));
    assert!(err(&["-n", "2"]).contains("no program"));
    assert!(err(&[]).contains("no program"));
}

#[test]
fn exports_with_x_env_genv_and_lists() {
    let p = plan(&[
        "-x",
        "FOO",
        "-x",
        "BAR=1=2",
        "-x",
        "UNSET",
        "--genv",
        "K",
        "v w",
        "-genvall",
        "-envall",
        "-genvlist",
        "HOME,UNSET",
        "prog",
    ]);
    assert_eq!(
        p.contexts[0].env,
        pairs(&[
            ("FOO", "foo-value"),
            ("BAR", "1=2"),
            ("K", "v w"),
            ("HOME", "/home/me")
        ])
    );
    let p = plan(&["-envlist", "FOO", "p1", ":", "p2"]);
    assert_eq!(p.contexts[0].env, pairs(&[("FOO", "foo-value")]));
    assert!(p.contexts[1].env.is_empty());
    assert!(err(&["-env", "A"]).contains("needs 2"));
    assert!(err(&["-genv=A", "B", "prog"]).contains("takes 2 values"));
}

#[test]
fn wdir_spellings_and_global_wdir() {
    for o in ["-wdir", "--wdir", "-wd", "--wd"] {
        let p = plan(&[o, "/srv", "prog"]);
        assert_eq!(p.contexts[0].wdir, Some(PathBuf::from("/srv")), "{o}");
    }
    let p = plan(&["-gwdir", "/g", "p1", ":", "-wdir", "/l", "p2"]);
    assert_eq!(p.contexts[0].wdir, Some(PathBuf::from("/g")));
    assert_eq!(p.contexts[1].wdir, Some(PathBuf::from("/l")));
}

#[test]
fn ignored_options_are_accepted() {
    let p = plan(&[
        "--oversubscribe",
        "--allow-run-as-root",
        "--bind-to",
        "core",
        "--map-by",
        "ppr:1:node",
        "--mca",
        "btl",
        "tcp,self",
        "-mca",
        "pml",
        "ob1",
        "--report-bindings",
        "-quiet",
        "--bind-to=none",
        "-n",
        "2",
        "prog",
    ]);
    assert_eq!(p.contexts[0].count, 2);
    assert_eq!(p.contexts[0].program, "prog");
    assert!(err(&["--mca", "btl"]).contains("needs 2"));
}

#[test]
fn binding_options_choose_the_pinning_and_the_last_one_wins() {
    use crate::binding::Bind;
    assert_eq!(
        plan(&["-n", "2", "prog"]).bind,
        None,
        "left to NEXAR_BIND / auto"
    );
    assert_eq!(plan(&["--bind-to", "core", "prog"]).bind, Some(Bind::Cpu));
    assert_eq!(
        plan(&["-bind-to", "hwthread", "prog"]).bind,
        Some(Bind::Cpu)
    );
    assert_eq!(plan(&["-binding", "none", "prog"]).bind, Some(Bind::None));
    assert_eq!(
        plan(&["--bind-to", "core", "--bind-to=none", "prog"]).bind,
        Some(Bind::None)
    );
    assert_eq!(plan(&["--bind-to-none", "prog"]).bind, Some(Bind::None));
    assert!(err(&["--bind-to", "socket", "prog"]).contains("socket"));
}

#[test]
fn inside_a_one_node_slurm_allocation_the_default_is_its_task_count() {
    let alloc = |nodes: Option<&'static str>| {
        move |k: &str| match k {
            "SLURM_NTASKS" => Some(OsString::from("4")),
            "SLURM_JOB_NUM_NODES" => nodes.map(OsString::from),
            _ => None,
        }
    };
    let count = |getenv, v: &[&str]| match parse_with_host(&os(v), getenv, here).unwrap() {
        Command::Run(p) => p.contexts[0].count,
        other => panic!("{other:?}"),
    };
    assert_eq!(count(alloc(Some("1")), &["prog"]), 4);
    assert_eq!(count(alloc(None), &["prog"]), 4);
    // -n wins; an allocation over several nodes needs its node list (see the two-node test).
    assert_eq!(count(alloc(Some("1")), &["-n", "2", "prog"]), 2);
    let e = parse_with_host(&os(&["prog"]), alloc(Some("2")), here).unwrap_err();
    assert!(e.contains("SLURM_JOB_NODELIST"), "{e}");
    let bad = |k: &str| (k == "SLURM_NTASKS").then(|| OsString::from("x"));
    assert!(parse_with_host(&os(&["prog"]), bad, here).is_err());
}

#[test]
fn tags_and_timeouts() {
    for o in ["-l", "-prepend-rank", "--tag-output"] {
        assert!(plan(&[o, "prog"]).tag_output, "{o}");
    }
    assert_eq!(plan(&["--timeout", "2.5", "prog"]).timeout, Some(2.5));
    assert!(err(&["--timeout", "-1", "prog"]).contains("positive"));
    let getenv = |k: &str| (k == "MPIEXEC_TIMEOUT").then(|| OsString::from("7"));
    match parse_with_host(&os(&["prog"]), getenv, here).unwrap() {
        Command::Run(p) => assert_eq!(p.timeout, Some(7.0)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn unknown_options_are_named() {
    let e = err(&["--frobnicate", "prog"]);
    assert!(e.contains("unknown option '--frobnicate'"), "{e}");
    let e = err(&["-n", "2", "-zz", "prog"]);
    assert!(e.contains("'-zz'"), "{e}");
}

#[test]
fn version_and_help() {
    for o in ["-V", "--version", "-version"] {
        assert_eq!(
            parse_with_host(&os(&[o]), env_of, here).unwrap(),
            Command::Version
        );
    }
    for o in ["-h", "--help", "-help"] {
        assert_eq!(
            parse_with_host(&os(&[o]), env_of, here).unwrap(),
            Command::Help
        );
    }
    assert!(usage("mpiexec").contains("nexar"));
}

#[test]
fn local_hosts_are_accepted_and_give_slots() {
    for o in ["-H", "-host", "-hosts", "--host", "--hosts"] {
        let p = plan(&[o, "localhost,127.0.0.1", "prog"]);
        assert_eq!(p.contexts[0].count, 2, "{o}: one slot per host entry");
    }
    let p = plan(&["-H", "localhost:4", "prog"]);
    assert_eq!(p.contexts[0].count, 4);
    let p = plan(&["-H", "box:4", "-n", "2", "prog"]);
    assert_eq!(p.contexts[0].count, 2, "-n wins over slots");
    let p = plan(&["-H", "box.example.org", "prog"]);
    assert_eq!(p.contexts[0].count, 1);
}

/// `(this host's plan, the spread, --secret-file)` of a job across hosts.
fn across(v: &[&str]) -> (Plan, Spread, Option<PathBuf>) {
    match parse_with_host(&os(v), env_of, here) {
        Ok(Command::RunAcross {
            plan,
            spread,
            secret_file,
            via,
        }) => {
            assert_eq!(via, Via::Rsh, "{v:?}");
            (plan, spread, secret_file)
        }
        other => panic!("{v:?}: {other:?}"),
    }
}

/// The variables of a batch script's shell in a two-node Slurm allocation of 4 tasks whose
/// first node (this one) is `n1`.
fn slurm_two_nodes(k: &str) -> Option<OsString> {
    match k {
        "SLURM_JOB_NUM_NODES" => Some("2".into()),
        "SLURM_JOB_NODELIST" => Some("n[1-2]".into()),
        "SLURM_TASKS_PER_NODE" => Some("2(x2)".into()),
        "SLURM_NTASKS" => Some("4".into()),
        "SLURMD_NODENAME" => Some("n1".into()),
        _ => env_of(k),
    }
}

#[test]
fn a_slurm_allocation_of_two_nodes_runs_its_tasks_through_srun() {
    let run = |v: &[&str]| match parse_with_host(&os(v), slurm_two_nodes, here) {
        Ok(Command::RunAcross {
            plan, spread, via, ..
        }) => (plan.contexts[0].count, spread, via),
        other => panic!("{v:?}: {other:?}"),
    };
    let (local, s, via) = run(&["prog"]);
    assert_eq!(
        (local, s.remote.clone(), via),
        (2, vec![("n2".to_string(), 2)], Via::Srun)
    );
    let (local, s, _) = run(&["-n", "3", "prog"]);
    assert_eq!((local, s.remote), (2, vec![("n2".to_string(), 1)]));
    // Ranks that fit this node stay here; hosts on the command line win over the allocation.
    match parse_with_host(&os(&["-n", "2", "prog"]), slurm_two_nodes, here) {
        Ok(Command::Run(p)) => assert_eq!(p.contexts[0].count, 2),
        other => panic!("{other:?}"),
    }
    match parse_with_host(&os(&["-H", "box:3", "prog"]), slurm_two_nodes, here) {
        Ok(Command::Run(p)) => assert_eq!(p.contexts[0].count, 3),
        other => panic!("{other:?}"),
    }
}

#[test]
fn hydra_launcher_slurm_starts_other_hosts_through_srun() {
    for opt in ["-launcher", "-bootstrap", "--launcher"] {
        let v = os(&[opt, "slurm", "-H", "box:1,node7:1", "prog"]);
        match parse_with_host(&v, env_of, here) {
            Ok(Command::RunAcross { via, .. }) => assert_eq!(via, Via::Srun, "{opt}"),
            other => panic!("{other:?}"),
        }
    }
    let (_, s, _) = across(&["-launcher", "ssh", "-H", "box:1,node7:1", "prog"]);
    assert_eq!(s.remote.len(), 1);
}

#[test]
fn other_hosts_make_a_job_across_hosts() {
    let (p, s, f) = across(&["-H", "localhost:2,node7:2", "-x", "FOO", "prog", "a"]);
    assert_eq!(p.contexts.len(), 1);
    assert_eq!(p.contexts[0].count, 2, "this host's share");
    assert_eq!(p.contexts[0].args, os(&["a"]));
    assert_eq!(p.contexts[0].env, pairs(&[("FOO", "foo-value")]));
    assert_eq!(s.remote, vec![("node7".to_string(), 2)]);
    assert_eq!((s.size(), f), (4, None));
    let (p, s, f) = across(&[
        "--host",
        "box:1,10.0.0.5:3",
        "-n",
        "3",
        "--secret-file",
        "/s/job.secret",
        "prog",
    ]);
    assert_eq!((p.contexts[0].count, s.size()), (1, 3));
    assert_eq!(s.remote, vec![("10.0.0.5".to_string(), 2)]);
    assert_eq!(f, Some(PathBuf::from("/s/job.secret")));
    // All ranks fit on this host: a job on this host alone.
    assert_eq!(
        plan(&["-H", "box:4,node7:4", "-n", "2", "prog"]).contexts[0].count,
        2
    );
    // --secret-file is harmless for a job on this host.
    let p = plan(&["--secret-file=/s", "-n", "2", "prog"]);
    assert_eq!(p.contexts[0].count, 2);
}

#[test]
fn jobs_across_hosts_refuse_what_they_cannot_do() {
    let e = err(&["-H", "node7,localhost", "prog"]);
    assert!(e.contains("'node7' must be this machine"), "{e}");
    let e = err(&["-H", "localhost,node7", "-n", "1", "a", ":", "-n", "1", "b"]);
    assert!(e.contains("across hosts"), "{e}");
    let e = err(&["-H", "localhost:1,node7:1", "-n", "3", "prog"]);
    assert!(e.contains("-n 3 is more than the 2 slots"), "{e}");
}

#[test]
fn ppn_spellings() {
    for o in ["-ppn", "-N", "-npernode", "--npernode"] {
        assert_eq!(plan(&[o, "3", "prog"]).contexts[0].count, 3, "{o}");
        assert_eq!(plan(&[o, "3", "-n", "2", "prog"]).contexts[0].count, 2);
    }
}

#[test]
fn hostfiles_with_slots() {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    writeln!(f, "# my hosts\nlocalhost slots=3\n127.0.0.1:2\n").unwrap();
    let path = f.path().to_str().unwrap().to_string();
    for o in [
        "-hostfile",
        "--hostfile",
        "-machinefile",
        "--machinefile",
        "-f",
        "--default-hostfile",
    ] {
        let p = plan(&[o, &path, "prog"]);
        assert_eq!(p.contexts[0].count, 5, "{o}: n = total slots");
        let p = plan(&[o, &path, "-n", "2", "prog"]);
        assert_eq!(p.contexts[0].count, 2, "{o}: -n wins");
    }
    let mut remote = tempfile::NamedTempFile::new().unwrap();
    writeln!(remote, "localhost slots=2\nnode9 slots=2").unwrap();
    let rpath = remote.path().to_str().unwrap().to_string();
    let (p, s, _) = across(&["-f", &rpath, "prog"]);
    assert_eq!(p.contexts[0].count, 2);
    assert_eq!(s.remote, vec![("node9".to_string(), 2)]);
    let e = err(&["-f", "/nonexistent/hostfile", "prog"]);
    assert!(e.contains("cannot read hostfile"), "{e}");
}
