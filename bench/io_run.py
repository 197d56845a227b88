#!/usr/bin/env python3
"""MPI-IO benchmark (issue 22): bench/iobench.c built against nexar's MPI shim and against
Open MPI, run at 2 and 4 ranks, and compared with a single dd of the same bytes.

    python3 bench/io_run.py                       # 256 MiB array, 64 MiB records, both MPIs
    python3 bench/io_run.py --quick --nexar-only  # smoke test: small files, nexar only (seconds)
    python3 bench/io_run.py --dir /scratch        # files under /scratch (default: the build tree)

Building, finding Open MPI and launching are bench/run.py's (same options). Bandwidth is MiB/s
(2^20 bytes per second) of file bytes; ratios are nexar / Open MPI and nexar / dd, above 1
meaning nexar is faster. iobench verifies every byte it reads: a wrong byte fails the run and
no result file is written. See bench/README.md.
"""

import argparse
import datetime
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run  # noqa: E402  (next to this file: building and launching)
from run import HarnessError, log  # noqa: E402

ROOT = run.ROOT
SOURCE = ROOT / "bench" / "iobench.c"
MIB = 1 << 20
DD_BLOCK = 4 * MIB

# The goals of issue 22, per (ranks, case, op): at least Open MPI's bandwidth, and within 2x
# of a single dd of the same bytes.
GOAL_OMPI, GOAL_DD = 1.0, 0.5


loadavg = run.loadavg


def filesystem_of(path):
    """(mount point, type, device) of the file system holding `path`, from /proc/mounts."""
    best, longest = ("?", "?", "?"), -1
    try:
        mounts = Path("/proc/mounts").read_text().splitlines()
    except OSError:
        return best
    path = os.path.realpath(path)
    for line in mounts:
        dev, mnt, fstype = line.split()[:3]
        inside = path == mnt or path.startswith(mnt.rstrip("/") + "/")
        if inside and len(mnt) >= longest:  # the last of equals: the mount on top
            best, longest = (mnt, fstype, dev), len(mnt)
    return best


def evict(path):
    """Drops a file's clean pages from the page cache (iobench does the same before reads)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def timed(cmd):
    """Seconds `cmd` took (the whole process, as iobench times open to close)."""
    t0 = time.monotonic()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.monotonic() - t0
    if proc.returncode != 0:
        raise HarnessError(f"{' '.join(cmd)} failed: {proc.stderr.strip()}")
    return elapsed


def dd_reference(scratch, nbytes, reps):
    """A single dd writing `nbytes` with an fsync, then reading them back after the file's
    pages were dropped from the cache: {"write": [s...], "read": [s...]}."""
    path = str(Path(scratch) / "dd.dat")
    out = {"write": [], "read": []}
    for _ in range(reps):
        if os.path.exists(path):
            os.unlink(path)
        out["write"].append(timed(["dd", "if=/dev/zero", f"of={path}", f"bs={DD_BLOCK}",
                                   f"count={nbytes}", "iflag=count_bytes", "conv=fsync"]))
        evict(path)
        out["read"].append(timed(["dd", f"if={path}", "of=/dev/null", f"bs={DD_BLOCK}"]))
    os.unlink(path)
    return out


class IoProgress(run.Progress):
    """run.Progress, showing iobench's results as they arrive."""

    def point(self, p):
        self._show(f"{p['case']} {p['op']}: {p['mib_s']:.0f} MiB/s")


# ---- tables -------------------------------------------------------------------------------

def rows_of(runs, dd):
    """One row per (ranks, case, op): each MPI's MiB/s, dd's, and the ratios."""
    idx = {}
    for r in runs:
        for p in r["points"]:
            idx.setdefault((r["ranks"], p["case"], p["op"]), {})[r["impl"]] = p
    rows = []
    for (ranks, case, op), by_impl in sorted(idx.items(), key=lambda kv: (
            kv[0][0], kv[0][1], kv[0][2] != "write")):
        n, o = by_impl.get("nexar"), by_impl.get("openmpi")
        nbytes = (n or o)["bytes"]
        ref = dd.get(nbytes)
        dd_mib = nbytes / MIB / statistics.median(ref[op]) if ref else None
        nx = n["mib_s"] if n else None
        om = o["mib_s"] if o else None
        rows.append({"ranks": ranks, "case": case, "op": op, "bytes": nbytes,
                     "grid": (n or o)["grid"], "nexar_mib_s": nx, "openmpi_mib_s": om,
                     "dd_mib_s": dd_mib,
                     "nexar_over_openmpi": nx / om if nx and om else None,
                     "nexar_over_dd": nx / dd_mib if nx and dd_mib else None,
                     "openmpi_over_dd": om / dd_mib if om and dd_mib else None})
    return rows


_f = run.fmt_or_dash


def table(rows):
    lines = [f"{'ranks':>5} {'case':<8} {'op':<5} {'MiB':>5} {'nexar':>8} {'Open MPI':>9}"
             f" {'dd':>8} {'nexar/OMPI':>10} {'nexar/dd':>9} {'OMPI/dd':>8}"]
    for r in rows:
        lines.append(f"{r['ranks']:>5} {r['case']:<8} {r['op']:<5} {r['bytes'] / MIB:>5.0f}"
                     f" {_f(r['nexar_mib_s'], '8.0f')} {_f(r['openmpi_mib_s'], '9.0f')}"
                     f" {_f(r['dd_mib_s'], '8.0f')} {_f(r['nexar_over_openmpi'], '10.2f')}"
                     f" {_f(r['nexar_over_dd'], '9.2f')} {_f(r['openmpi_over_dd'], '8.2f')}")
    return "\n".join(lines)


def goals(rows):
    """Issue 22's two goals for every row: pass, miss (by what factor) or not measured."""
    out = []
    for r in rows:
        for what, key, goal in (("nexar >= Open MPI", "nexar_over_openmpi", GOAL_OMPI),
                                ("nexar within 2x of dd", "nexar_over_dd", GOAL_DD)):
            ratio = r[key]
            status = ("not measured" if ratio is None else "pass" if ratio >= goal
                      else f"miss by {goal / ratio:.2f}x")
            out.append({"goal": what, "ranks": r["ranks"], "case": r["case"], "op": r["op"],
                        "ratio": ratio, "target": f">= {goal}x", "status": status})
    return out


def goal_table(goal_rows):
    lines = [f"{'goal':<22} {'ranks':>5} {'case':<8} {'op':<5} {'target':>8} {'ratio':>7}  status"]
    for g in goal_rows:
        lines.append(f"{g['goal']:<22} {g['ranks']:>5} {g['case']:<8} {g['op']:<5}"
                     f" {g['target']:>8} {_f(g['ratio'], '7.2f')}  {g['status']}")
    return "\n".join(lines)


# ---- options and main ---------------------------------------------------------------------

def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true",
                    help="8 MiB array, 2 MiB records, 2 repetitions: a smoke test (< 30 s)")
    run.add_common_options(ap)
    ap.add_argument("--dir", type=Path,
                    help="where the scratch directory goes (a local disk; default: "
                         "BUILD_DIR/bench-work); it is removed at the end")
    ap.add_argument("--array-bytes", default="256M", help="2-D array file size (default 256M)")
    ap.add_argument("--records-bytes", default="64M", help="records file size (default 64M)")
    ap.add_argument("--record-bytes", default="256", help="bytes per record (default 256)")
    ap.add_argument("--reps", type=int, default=3,
                    help="repetitions per case, MPI and dd; medians are reported (default 3)")
    ap.add_argument("--hint", action="append", default=[], metavar="KEY=VALUE",
                    help="an MPI_Info hint for iobench's opens, both MPIs (repeatable)")
    ap.add_argument("--no-dd", action="store_true", help="skip the dd reference")
    ap.add_argument("--json", type=Path,
                    default=ROOT / "bench" / "results" / "io-latest.json",
                    help="where to write the results (default bench/results/io-latest.json)")
    ap.add_argument("--timeout", type=float, default=900,
                    help="seconds one run may take before it is killed (default 900)")
    args = ap.parse_args(argv)
    run.parse_ranks(ap, args)
    if args.reps < 1:
        ap.error("--reps must be at least 1")
    if args.quick:
        args.array_bytes, args.records_bytes, args.reps = "8M", "2M", 2
    return args


def size_bytes(text):
    """'256M' -> 268435456 (binary K/M/G, as iobench reads them)."""
    mul = {"K": 1 << 10, "M": MIB, "G": 1 << 30}.get(text[-1:].upper(), 1)
    return int(float(text[:-1] if mul > 1 else text) * mul)


def main(argv=None):
    args = parse_args(argv)
    build_dir = args.build_dir.resolve()
    work = build_dir / "bench-work"
    work.mkdir(parents=True, exist_ok=True)
    parent = (args.dir or work).resolve()
    parent.mkdir(parents=True, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="iobench-", dir=parent)
    mount, fstype, device = filesystem_of(scratch)
    if fstype in ("tmpfs", "ramfs"):
        log(f"warning: {scratch} is on {fstype}: this measures memory, not a disk")
    started, load_start = time.time(), loadavg()
    io_args = ["--dir", scratch, "--array-bytes", args.array_bytes,
               "--records-bytes", args.records_bytes, "--record-bytes", args.record_bytes,
               "--reps", str(args.reps)]
    for hint in args.hint:
        io_args += ["--hint", hint]
    dd, runs = {"before": {}, "after": {}}, []
    try:
        impls = {"nexar": run.build_nexar(build_dir, work, args.no_build, SOURCE)}
        if not args.nexar_only:
            ompi = run.build_openmpi(work, not args.no_install, SOURCE)
            if ompi:
                impls["openmpi"] = ompi
        # The same bytes as iobench's files (the array rounds down to whole doubles).
        sizes = sorted({size_bytes(args.array_bytes) // 8 * 8,
                        size_bytes(args.records_bytes) // size_bytes(args.record_bytes)
                        * size_bytes(args.record_bytes)})
        if not args.no_dd:
            # dd before and after the MPI runs, so a change of load shows as a change of dd.
            log(f"dd reference before the MPI runs ({args.reps} x {len(sizes)} sizes)")
            dd["before"] = {n: dd_reference(scratch, n, args.reps) for n in sizes}
        plan = [(r, i) for r in args.ranks for i in impls]
        progress = IoProgress(len(plan))
        for ranks, impl in plan:
            binary, launcher = impls[impl]
            cmd, env = run.command_for(impl, launcher, binary, ranks, "local", io_args)
            load = loadavg()
            progress.start(f"{impl} {ranks} ranks")
            library, points, elapsed = run.run_one(cmd, env, args.timeout, progress)
            progress.finish(len(points))
            runs.append({"impl": impl, "ranks": ranks, "library": library, "command": cmd,
                         "loadavg_before": load, "elapsed_s": round(elapsed, 2),
                         "points": points})
        if not args.no_dd:
            log("dd reference after the MPI runs")
            dd["after"] = {n: dd_reference(scratch, n, args.reps) for n in sizes}
    except HarnessError as e:
        log(f"FAILED: {e}")
        return 1
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    load_end = loadavg()

    # The reference: every dd repetition of both passes, medians per size and direction.
    dd_all = {n: {op: dd["before"].get(n, {}).get(op, []) + dd["after"].get(n, {}).get(op, [])
                  for op in ("write", "read")} for n in set(dd["before"]) | set(dd["after"])}
    rows = rows_of(runs, dd_all)
    goal_rows = goals(rows)
    print()
    for impl in impls:
        lib = next((r["library"] for r in runs if r["impl"] == impl), None)
        print(f"{impl}: {lib}")
    print(f"host: {os.cpu_count()} CPUs; load (/proc/loadavg) at start {load_start}, "
          f"at end {load_end}")
    print(f"files: {scratch} on {fstype} ({device}, mounted at {mount}); "
          f"{args.reps} repetitions, medians; MiB/s")
    if not args.no_dd:
        print("dd: write bs=4M conv=fsync, read bs=4M after dropping the file's pages from the "
              "page cache")
    print()
    print(table(rows))
    if any(r["nexar_over_openmpi"] is not None or r["nexar_over_dd"] is not None for r in rows):
        print()
        print("== goals of issue 22 (ratios from this run)")
        print(goal_table(goal_rows))

    result = {
        "generated": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "host": {"node": platform.node(), "machine": platform.machine(),
                 "cpus": os.cpu_count(), "loadavg_at_start": load_start,
                 "loadavg_at_end": load_end},
        "files": {"filesystem": fstype, "device": device, "mount": mount},
        "options": {"ranks": args.ranks, "quick": args.quick, "iobench_args": io_args[2:],
                    "reps": args.reps},
        "duration_s": round(time.time() - started, 1),
        "timed": {"write": "MPI_File_open(CREATE|WRONLY) .. set_view .. write_all .. sync .. "
                           "close, slowest rank",
                  "read": "MPI_File_open(RDONLY) .. set_view .. read_all .. close, slowest "
                          "rank, file pages evicted from the page cache beforehand",
                  "dd_write": f"dd if=/dev/zero bs={DD_BLOCK} conv=fsync, whole process",
                  "dd_read": f"dd of=/dev/null bs={DD_BLOCK} after posix_fadvise DONTNEED, "
                             "whole process"},
        "ratio_definition": "bandwidth ratios: above 1 means nexar is faster",
        "dd_seconds": {pass_: {str(n): v for n, v in d.items()} for pass_, d in dd.items()},
        "runs": runs,
        "rows": rows,
        "goals": goal_rows,
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=1) + "\n")
    log(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
