#!/usr/bin/env python3
"""Side-by-side benchmark: bench/mpibench.c built against nexar's MPI shim and against Open MPI,
run at 2 and 4 ranks, compared as nexar / Open MPI ratios, checked against the goals of issue 5.

    python3 bench/run.py                    # full run, both MPIs, this host's default transports
    python3 bench/run.py --network          # nexar forced onto QUIC, Open MPI onto TCP
    python3 bench/run.py --mode both        # both of the above in one run
    python3 bench/run.py --quick --nexar-only   # CI smoke test (< 1 min)
    python3 bench/run.py --plot bench/results/latest.png

Python 3 standard library only; matplotlib is installed with pip only when --plot is given.
Every mpibench result is verified by the program itself: a wrong result fails the run.
See bench/README.md.
"""

import argparse
import datetime
import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import report  # noqa: E402  (next to this file)

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "bench" / "mpibench.c"
CFLAGS = ["-O2", "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-Wall", "-Wextra"]


class HarnessError(Exception):
    """A step failed: the message says which and why."""


def loadavg():
    """/proc/loadavg as it reads (1, 5 and 15 minute averages, runnable/all, last pid)."""
    try:
        return Path("/proc/loadavg").read_text().strip()
    except OSError:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())


def fmt_or_dash(x, fmt):
    """x formatted, or a dash as wide as the format (a figure not measured)."""
    width = int(fmt.split(".")[0] or 0)
    return "-".rjust(width) if x is None else format(x, fmt)


def log(msg):
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


def run_checked(cmd, what, env=None, cwd=ROOT):
    """Runs a build step, raising HarnessError with its output when it fails."""
    proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        tail = "\n".join(proc.stdout.splitlines()[-30:])
        raise HarnessError(f"{what} failed (exit {proc.returncode}): {' '.join(map(str, cmd))}"
                           f"\n{tail}")
    return proc.stdout


# ---- building -------------------------------------------------------------------------------

def build_nexar(build_dir, work, skip_build, source=SOURCE):
    """Builds libmpi_abi, nexarrun and the mpicc wrapper through CMake (build target
    nexar_cargo only), then `source` (mpibench by default) with that mpicc.
    Returns (binary, launcher)."""
    cache = build_dir / "CMakeCache.txt"
    if not skip_build:
        if not cache.exists():
            log(f"configuring CMake in {build_dir}")
            run_checked(["cmake", "-S", str(ROOT), "-B", str(build_dir),
                         "-DCMAKE_BUILD_TYPE=Release"], "cmake configure")
        log("building libmpi_abi, nexarrun and the wrappers (cmake --build --target nexar_cargo)")
        run_checked(["cmake", "--build", str(build_dir), "--target", "nexar_cargo"],
                    "cmake build of nexar_cargo")
    wrapper = build_dir / "wrappers" / "mpicc"
    libdir = build_dir / "lib"
    launcher = build_dir / "bin" / "mpiexec"
    for path, what in ((wrapper, "the mpicc wrapper"), (libdir / "libmpi_abi.so.1", "libmpi_abi"),
                       (launcher, "mpiexec (nexarrun)")):
        if not path.exists():
            raise HarnessError(f"{what} is missing: {path} (build with cmake, or drop --no-build)")
    # The wrapper finds include/ and lib/ next to its own bin/ (the installed layout), so give
    # it a small prefix: a copy of the wrapper, and links to the headers and staged libraries.
    prefix = work / "nexar-prefix"
    if prefix.exists():
        shutil.rmtree(prefix)
    (prefix / "bin").mkdir(parents=True)
    shutil.copy2(wrapper, prefix / "bin" / "mpicc")
    (prefix / "include").symlink_to(ROOT / "include")
    (prefix / "lib").symlink_to(libdir.resolve())
    binary = work / f"{source.stem}-nexar"
    run_checked([str(prefix / "bin" / "mpicc"), *CFLAGS, "-o", str(binary), str(source), "-lm"],
                f"compiling {source.stem} with nexar's mpicc")
    return binary, launcher


def build_nexar_capi(build_dir, work, launcher, source=SOURCE):
    """`source` built against nexar's own C API (-DNEXAR_CAPI, bench/capi_as_mpi.h, libnexar
    from the build tree). Returns (binary, launcher)."""
    libdir = (build_dir / "lib").resolve()
    if not (libdir / "libnexar.so").exists():
        raise HarnessError(f"libnexar is missing: {libdir} (build with cmake, or drop --no-build)")
    binary = work / f"{source.stem}-nexar-capi"
    run_checked(["cc", *CFLAGS, "-DNEXAR_CAPI", f"-I{ROOT / 'include'}", f"-I{ROOT / 'bench'}",
                 "-o", str(binary), str(source), f"-L{libdir}", "-lnexar", "-lm",
                 f"-Wl,-rpath,{libdir}"],
                f"compiling {source.stem} against nexar's C API")
    return binary, launcher


def find_openmpi():
    """(mpicc, mpirun) of Open MPI, or None."""
    cc = shutil.which("mpicc.openmpi") or ("/usr/bin/mpicc.openmpi"
                                            if os.path.exists("/usr/bin/mpicc.openmpi") else None)
    run = shutil.which("mpirun.openmpi") or ("/usr/bin/mpirun.openmpi"
                                             if os.path.exists("/usr/bin/mpirun.openmpi") else None)
    return (cc, run) if cc and run else None


def install_openmpi():
    """apt-get install openmpi-bin libopenmpi-dev; False (with a message) when that fails."""
    apt = shutil.which("apt-get")
    if not apt:
        log("Open MPI is not installed and there is no apt-get: reporting nexar only")
        return False
    cmd = [apt, "install", "-y", "openmpi-bin", "libopenmpi-dev"]
    if os.geteuid() != 0:
        if not shutil.which("sudo"):
            log("Open MPI is not installed and this is not root: reporting nexar only")
            return False
        cmd = ["sudo", "-n", *cmd]
    log("Open MPI not found: " + " ".join(cmd))
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        # The package lists may be missing (fresh container): update once and retry.
        subprocess.run([*cmd[:-4], "update"], env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True)
    if proc.returncode != 0:
        tail = "\n".join(proc.stdout.splitlines()[-5:])
        log(f"apt-get failed (exit {proc.returncode}); reporting nexar only\n{tail}")
        return False
    return True


def build_openmpi(work, allow_install, source=SOURCE):
    """`source` (mpibench by default) built with Open MPI's mpicc: (binary, mpirun), or None
    when unavailable."""
    found = find_openmpi()
    if not found and allow_install and install_openmpi():
        found = find_openmpi()
    if not found:
        if not allow_install:
            log("Open MPI not found (and --no-install): reporting nexar only")
        return None
    cc, mpirun = found
    binary = work / f"{source.stem}-openmpi"
    run_checked([cc, *CFLAGS, "-o", str(binary), str(source), "-lm"],
                f"compiling {source.stem} with Open MPI's mpicc")
    return binary, mpirun


# ---- running --------------------------------------------------------------------------------

def command_for(impl, launcher, binary, ranks, mode, bench_args):
    """The launch command and environment of one run."""
    env = dict(os.environ)
    if impl.startswith("nexar"):
        env.pop("NEXAR_TRANSPORT", None)  # local: nexar's automatic choice
        if mode == "network":
            env["NEXAR_TRANSPORT"] = "quic"  # src/config.rs: auto | quic
        cmd = [str(launcher), "-n", str(ranks), str(binary), *bench_args]
    else:
        cmd = [launcher, "--allow-run-as-root", "--oversubscribe", "-n", str(ranks)]
        if mode == "network":
            # The TCP byte-transfer layer only (ob1 so UCX cannot take over), on loopback.
            cmd += ["--mca", "pml", "ob1", "--mca", "btl", "tcp,self",
                    "--mca", "btl_tcp_if_include", "lo"]
        cmd += [str(binary), *bench_args]
    return cmd, env


class Progress:
    """One status line per run; rewritten in place on a terminal as points arrive."""

    def __init__(self, total):
        self.total, self.done = total, 0
        self.tty = sys.stderr.isatty()

    def start(self, title):
        self.title, self.t0 = title, time.monotonic()
        self._show("starting")

    def point(self, p):
        bw = report.bandwidth(p)
        extra = f", {bw:.3f} GB/s" if bw is not None else ""
        self._show(f"{p['benchmark']} {report.human_bytes(p['bytes'])}: "
                   f"{p['median_us']:.2f} us{extra}")

    def finish(self, npoints):
        self.done += 1
        msg = f"done: {npoints} points in {time.monotonic() - self.t0:.1f} s"
        if self.tty:
            sys.stderr.write("\r\033[K")
        print(f"[bench] [{self.done}/{self.total}] {self.title}: {msg}", file=sys.stderr,
              flush=True)

    def _show(self, status):
        line = f"[bench] [{self.done + 1}/{self.total}] {self.title}: {status}"
        if self.tty:
            sys.stderr.write("\r\033[K" + line[:shutil.get_terminal_size().columns - 1])
            sys.stderr.flush()
        elif status == "starting":
            print(line, file=sys.stderr, flush=True)


def run_one(cmd, env, timeout, progress):
    """Runs one job, streaming its JSON lines; returns (library, points, elapsed seconds)."""
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    timed_out = threading.Event()

    def kill():
        timed_out.set()
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    timer = threading.Timer(timeout, kill)
    timer.start()
    err_lines = []
    err_thread = threading.Thread(target=lambda: err_lines.extend(proc.stderr), daemon=True)
    err_thread.start()
    library, points, junk = None, [], []
    try:
        for line in proc.stdout:
            line = line.strip()
            if not line.startswith("{"):
                if line:
                    junk.append(line)
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                junk.append(line)
                continue
            if rec.get("benchmark") == "meta":
                library = rec.get("library")
            else:
                points.append(rec)
                progress.point(rec)
        proc.wait()
    finally:
        timer.cancel()
        err_thread.join(timeout=5)
    elapsed = time.monotonic() - t0
    if timed_out.is_set():
        raise HarnessError(f"timed out after {timeout} s: {' '.join(cmd)}")
    if proc.returncode != 0:
        tail = "".join(err_lines[-20:]) + "\n".join(junk[-5:])
        raise HarnessError(f"exit status {proc.returncode} (3 = a result failed verification): "
                           f"{' '.join(cmd)}\n{tail}")
    if not points:
        raise HarnessError(f"no measurements from: {' '.join(cmd)}\n{''.join(err_lines[-20:])}")
    return library, points, elapsed


# ---- options and main -----------------------------------------------------------------------

def add_common_options(ap):
    """The options every harness here shares (bench/run.py, bench/io_run.py): which MPIs,
    whether and where to build, the rank counts."""
    ap.add_argument("--nexar-only", action="store_true", help="do not build or run Open MPI")
    ap.add_argument("--no-install", action="store_true",
                    help="never apt-get install Open MPI (use it only if already installed)")
    ap.add_argument("--no-build", action="store_true",
                    help="use the existing CMake build tree as it is")
    ap.add_argument("--build-dir", type=Path, default=ROOT / "build",
                    help="nexar's CMake build tree (default: build/)")
    ap.add_argument("--ranks", default="2,4", help="comma-separated rank counts (default 2,4)")


def parse_ranks(ap, args):
    """Turns --ranks into a list of positive integers, or stops with an argparse error."""
    try:
        args.ranks = [int(r) for r in args.ranks.split(",") if r.strip()]
    except ValueError:
        ap.error(f"--ranks {args.ranks!r}: expected comma-separated integers")
    if not args.ranks or any(r < 1 for r in args.ranks):
        ap.error(f"--ranks {args.ranks!r}: expected positive integers")


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=["local", "network", "both"], default="local",
                    help="local: default transports; network: nexar on QUIC, Open MPI on TCP")
    ap.add_argument("--network", action="store_const", const="network", dest="mode",
                    help="same as --mode network")
    ap.add_argument("--quick", action="store_true",
                    help="small sizes, few repetitions: a smoke test (< 1 min)")
    add_common_options(ap)
    ap.add_argument("--no-capi", action="store_true",
                    help="do not measure nexar's C API (mpibench built against libnexar)")
    ap.add_argument("--bench", help="mpibench --bench list (default: all four)")
    ap.add_argument("--max-bytes", help="cap on ping-pong and allreduce sizes (e.g. 16M)")
    ap.add_argument("--json", type=Path, default=ROOT / "bench" / "results" / "latest.json",
                    help="where to write all points and ratios (default bench/results/latest.json)")
    ap.add_argument("--plot", type=Path, metavar="PNG",
                    help="draw time and bandwidth against size (installs matplotlib if needed)")
    ap.add_argument("--timeout", type=float, default=1200,
                    help="seconds one run may take before it is killed (default 1200)")
    ap.add_argument("--extra", default="", help="more mpibench options, space-separated")
    ap.add_argument("--rounds", type=int, default=1,
                    help="repeat every (mode, ranks, MPI) run this many times, interleaved "
                         "(round 1 of each, then round 2, ...); ratios use each point's median "
                         "over the rounds (default 1)")
    args = ap.parse_args(argv)
    parse_ranks(ap, args)
    return args


def bench_args(args):
    """mpibench's options for this run."""
    out = []
    if args.quick:
        out += ["--max-bytes", "64K", "--step", "8", "--bcast-bytes", "64K", "--reps", "3",
                "--target", "0.03", "--point-budget", "1"]
    if args.max_bytes:
        out += ["--max-bytes", args.max_bytes]
    if args.bench:
        out += ["--bench", args.bench]
    out += args.extra.split()
    return out


def ensure_matplotlib():
    """Imports matplotlib, installing it with pip first when it is missing."""
    try:
        import matplotlib  # noqa: F401
        return
    except ImportError:
        pass
    base = [sys.executable, "-m", "pip", "install", "--quiet", "matplotlib"]
    log("installing matplotlib with pip (for --plot)")
    proc = subprocess.run(base, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0 and "externally-managed" in proc.stdout:
        proc = subprocess.run(base + ["--break-system-packages"], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        raise HarnessError(f"pip install matplotlib failed:\n{proc.stdout[-2000:]}")
    import importlib

    importlib.invalidate_caches()


def main(argv=None):
    args = parse_args(argv)
    modes = ["local", "network"] if args.mode == "both" else [args.mode]
    # Per build tree, so runs from different checkouts never share compiled benchmarks.
    work = args.build_dir.resolve() / "bench-work"
    work.mkdir(parents=True, exist_ok=True)
    started = time.time()
    load_at_start = list(os.getloadavg())
    try:
        impls = {"nexar": build_nexar(args.build_dir.resolve(), work, args.no_build)}
        if not args.no_capi:
            impls["nexar-capi"] = build_nexar_capi(args.build_dir.resolve(), work,
                                                   impls["nexar"][1])
        if not args.nexar_only:
            ompi = build_openmpi(work, allow_install=not args.no_install)
            if ompi:
                impls["openmpi"] = ompi
        mpi_args = bench_args(args)
        plan = [(k, m, r, i) for k in range(1, max(1, args.rounds) + 1) for m in modes
                for r in args.ranks for i in impls]
        progress = Progress(len(plan))
        runs = []
        for rnd, mode, ranks, impl in plan:
            binary, launcher = impls[impl]
            cmd, env = command_for(impl, launcher, binary, ranks, mode, mpi_args)
            progress.start(f"{impl} {ranks} ranks {mode}")
            library, points, elapsed = run_one(cmd, env, args.timeout, progress)
            progress.finish(len(points))
            runs.append({"round": rnd, "mode": mode, "impl": impl, "ranks": ranks,
                         "library": library,
                         "command": cmd, "transport_env": env.get("NEXAR_TRANSPORT")
                         if impl == "nexar" else None,
                         "elapsed_s": round(elapsed, 2), "points": points})
    except HarnessError as e:
        log(f"FAILED: {e}")
        return 1

    merged = report.merge_rounds(runs)
    rows = report.ratios(merged)
    goal_rows = report.goals(rows)
    print()
    for impl in impls:
        lib = next((r["library"] for r in runs if r["impl"] == impl), None)
        print(f"{impl}: {lib}")
    load_at_end = list(os.getloadavg())
    print(f"host: {os.cpu_count()} CPUs, load average at start {load_at_start[0]:.2f}, at end "
          f"{load_at_end[0]:.2f}; mpibench {' '.join(mpi_args) or '(defaults)'}; "
          f"{max(1, args.rounds)} round(s), medians over rounds")
    print()
    if rows:
        print(report.ratio_table(rows))
        print()
        print("== goals of issues 5 and 17 (ratios nexar / Open MPI from this run)")
        print(report.goal_table(goal_rows))
    else:
        print(report.single_table(merged))
        print("\n(no Open MPI numbers: ratios and goals not computed)")

    result = {
        "generated": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "host": {"node": platform.node(), "machine": platform.machine(),
                 "cpus": os.cpu_count(), "loadavg_at_start": load_at_start,
                 "loadavg_at_end": load_at_end},
        "options": {"modes": modes, "ranks": args.ranks, "quick": args.quick,
                    "rounds": max(1, args.rounds), "mpibench_args": mpi_args},
        "duration_s": round(time.time() - started, 1),
        "ratio_definition": "nexar / Open MPI: time ratio < 1 and bandwidth ratio > 1 mean "
                            "nexar is faster",
        "runs": runs,
        "ratios": rows,
        "goals": goal_rows if rows else [],
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=1) + "\n")
    log(f"wrote {args.json}")
    if args.plot:
        try:
            ensure_matplotlib()
            report.plot(merged, args.plot)
            log(f"wrote {args.plot}")
        except (HarnessError, ImportError) as e:
            log(f"FAILED: plot: {e}")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
