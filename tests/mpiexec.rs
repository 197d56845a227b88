//! The launcher started as `mpiexec` / `mpirun` (links to the nexarrun binary in a temporary
//! directory), with real processes: MPMD rank numbering, per-context environments, working
//! directories, exports, exit codes and the options accepted for compatibility.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A temporary directory holding `mpiexec` and `mpirun`, both links to the launcher.
struct Launchers {
    dir: tempfile::TempDir,
}

impl Launchers {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        for name in ["mpiexec", "mpirun"] {
            std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_nexarrun"), dir.path().join(name))
                .unwrap();
        }
        Launchers { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn run(&self, name: &str, args: &[&str]) -> Output {
        self.command(name)
            .args(args)
            .output()
            .expect("launcher runs")
    }

    fn command(&self, name: &str) -> Command {
        let mut c = Command::new(self.path(name));
        c.env_remove("MPIEXEC_TIMEOUT");
        c
    }
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn sorted_lines(b: &[u8]) -> Vec<String> {
    let mut v: Vec<String> = text(b).lines().map(str::to_string).collect();
    v.sort();
    v
}

#[test]
fn version_names_nexar_under_both_names() {
    let l = Launchers::new();
    for name in ["mpiexec", "mpirun"] {
        for flag in ["--version", "-V"] {
            let out = l.run(name, &[flag]);
            assert!(out.status.success(), "{name} {flag}");
            let s = text(&out.stdout);
            assert!(s.starts_with(name) && s.contains("nexar"), "{s}");
        }
    }
}

#[test]
fn mpmd_ranks_are_numbered_across_contexts_with_their_own_env() {
    let l = Launchers::new();
    let show =
        "echo \"$NEXAR_RANK/$NEXAR_SIZE/$NEXAR_APPNUM/$NEXAR_UNIVERSE_SIZE $0 ${CTX:-none} $G\"";
    for name in ["mpiexec", "mpirun"] {
        let out = l.run(
            name,
            &[
                "-genv", "G", "g", "-n", "2", "-env", "CTX", "first", "sh", "-c", show, "a", ":",
                "-np", "3", "sh", "-c", show, "b", ":", "sh", "-c", show, "c",
            ],
        );
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert_eq!(
            sorted_lines(&out.stdout),
            [
                "0/6/0/6 a first g",
                "1/6/0/6 a first g",
                "2/6/1/6 b none g",
                "3/6/1/6 b none g",
                "4/6/1/6 b none g",
                "5/6/2/6 c none g",
            ],
            "{name}"
        );
    }
}

#[test]
fn wdir_sets_the_working_directory() {
    let l = Launchers::new();
    let work = tempfile::tempdir().unwrap();
    let want = work.path().canonicalize().unwrap();
    for opt in ["-wdir", "--wdir", "-wd"] {
        let out = l.run(
            "mpiexec",
            &[
                "-n",
                "2",
                opt,
                work.path().to_str().unwrap(),
                "sh",
                "-c",
                "pwd -P",
            ],
        );
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        for line in text(&out.stdout).lines() {
            assert_eq!(Path::new(line), want, "{opt}");
        }
    }
    let out = l.run("mpiexec", &["-wdir", "/nonexistent/dir", "true"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("/nonexistent/dir"));
}

#[test]
fn x_exports_variables() {
    let l = Launchers::new();
    let out = l
        .command("mpirun")
        .env("NEXAR_TEST_EXPORTED", "from-parent")
        .args([
            "-x",
            "NEXAR_TEST_EXPORTED",
            "-x",
            "NEXAR_TEST_SET=set here",
            "-n",
            "2",
            "sh",
            "-c",
            "echo \"$NEXAR_TEST_EXPORTED|$NEXAR_TEST_SET\"",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        sorted_lines(&out.stdout),
        ["from-parent|set here", "from-parent|set here"]
    );
}

#[test]
fn exit_codes_follow_the_failing_rank() {
    let l = Launchers::new();
    let out = l.run(
        "mpiexec",
        &[
            "-n",
            "1",
            "true",
            ":",
            "-n",
            "2",
            "sh",
            "-c",
            "[ $NEXAR_RANK = 2 ] && exit 5; sleep 1000",
        ],
    );
    assert_eq!(out.status.code(), Some(5), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("mpiexec: rank 2 exited with code 5"));
    let out = l.run("mpiexec", &["-n", "2", "/nonexistent/prog"]);
    assert_eq!(out.status.code(), Some(127));
    let out = l.run("mpiexec", &["--timeout", "0.5", "sleep", "1000"]);
    assert_eq!(out.status.code(), Some(124));
}

#[test]
fn compatibility_options_are_accepted_and_ignored() {
    let l = Launchers::new();
    let out = l.run(
        "mpirun",
        &[
            "--oversubscribe",
            "--allow-run-as-root",
            "--mca",
            "btl",
            "tcp,self",
            "--bind-to",
            "none",
            "--map-by",
            "slot",
            "--report-bindings",
            "-np",
            "2",
            "sh",
            "-c",
            "echo ok $NEXAR_RANK",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(sorted_lines(&out.stdout), ["ok 0", "ok 1"]);
}

#[test]
fn hosts_and_hostfiles_on_this_machine() {
    let l = Launchers::new();
    let out = l.run(
        "mpiexec",
        &["-H", "localhost:3", "sh", "-c", "echo $NEXAR_SIZE"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(sorted_lines(&out.stdout), ["3", "3", "3"]);
    let hf = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(hf.path(), "localhost slots=2\n").unwrap();
    let out = l.run(
        "mpirun",
        &[
            "--hostfile",
            hf.path().to_str().unwrap(),
            "sh",
            "-c",
            "echo $NEXAR_RANK",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(sorted_lines(&out.stdout), ["0", "1"]);
    // This machine by its own name, and by a loopback address.
    let me = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
    let hosts = format!("{},127.0.0.1", me.trim());
    let out = l.run("mpiexec", &["-hosts", &hosts, "-n", "1", "true"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn usage_errors_exit_2_with_a_clear_message() {
    let l = Launchers::new();
    let out = l.run("mpiexec", &["--frobnicate", "true"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown option '--frobnicate'"));
    let out = l.run("mpiexec", &["-H", "node-that-is-not-here.invalid", "true"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("must be this machine"), "{err}");
    let out = l.run("mpirun", &[]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn nexarrun_keeps_its_own_command_line() {
    // The same binary under its own name still reads `-x` etc. as program arguments.
    let out = Command::new(env!("CARGO_BIN_EXE_nexarrun"))
        .args(["-n", "1", "echo", "-x", "--mca", ":"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), "-x --mca :\n");
}
