#!/usr/bin/env python3
"""One-sided communication benchmark (issue 21): bench/rmabench.c built against nexar's MPI shim
and against Open MPI, run at 2 ranks on this host, plus nexar the way windows between hosts
work: NEXAR_TRANSPORT=quic and NEXAR_RMA=messages (every access an active message over QUIC).

    python3 bench/rma_run.py                       # 3 interleaved rounds, both MPIs and QUIC
    python3 bench/rma_run.py --quick --nexar-only  # smoke test: small sizes, nexar only (seconds)
    python3 bench/rma_run.py --rounds 5 --bench put,get --max-bytes 1M

Building, finding Open MPI and launching are bench/run.py's (same options). rmabench times
MPI_Put / MPI_Get + MPI_Win_flush per operation (8 B to 16 MiB), MPI_Fetch_and_op + flush, and
windows of puts / gets per flush (put_bw, get_bw) in a passive-target epoch (rank 0 locks rank
1). Every (ranks, configuration) run is repeated --rounds times, round by round and in
alternating order, so noise hits all configurations; every point's figure is the median over
the rounds. Ratios are times nexar / Open MPI: below 1 means nexar is faster. rmabench verifies
every result: a wrong value fails the run and no result file is written. A configuration whose
MPI refuses the window (rmabench exit status 4, nexar over QUIC) is reported as unsupported.
See bench/README.md.
"""

import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import report  # noqa: E402  (next to this file: sizes and bandwidth fields)
import run  # noqa: E402  (next to this file: building and launching)
from run import HarnessError, log  # noqa: E402

ROOT = run.ROOT
SOURCE = ROOT / "bench" / "rmabench.c"
MIB = 1 << 20
UNSUPPORTED_EXIT = 4  # rmabench: the MPI refused MPI_Win_allocate

# The configurations: (name, implementation whose build runs, run.command_for mode).
# "nexar-quic" is nexar with NEXAR_TRANSPORT=quic (command_for's network mode) and
# NEXAR_RMA=messages: the windows are served by active messages over QUIC, as between hosts.
CONFIGS = [("nexar", "nexar", "local"), ("openmpi", "openmpi", "local"),
           ("nexar-quic", "nexar", "network")]

# The goals of issue 21: same-host (default transport) put and get no slower than Open MPI.
GOAL_RANKS = 2
GOAL_POINTS = [("put", 8), ("put", MIB), ("put", 16 * MIB),
               ("get", 8), ("get", MIB), ("get", 16 * MIB)]
BENCH_ORDER = ["put", "get", "fetch_and_op", "put_bw", "get_bw"]


loadavg = run.loadavg


class RmaProgress(run.Progress):
    """run.Progress, showing rmabench's results as they arrive and keeping its error record
    (the window refused) for the caller."""

    def start(self, title):
        self.error = None
        super().start(title)

    def refused(self):
        """Ends a run whose window was refused (instead of finish)."""
        self.done += 1
        if self.tty:
            sys.stderr.write("\r\033[K")
        print(f"[bench] [{self.done}/{self.total}] {self.title}: not supported: "
              f"{self.error.get('call')} refused the window", file=sys.stderr, flush=True)

    def point(self, p):
        if p.get("benchmark") == "error":
            self.error = p
            self._show(f"{p.get('call')} refused: {p.get('error')}")
        elif "ops_per_s" in p:
            self._show(f"{p['benchmark']}: {p['median_us']:.3f} us, "
                       f"{p['ops_per_s'] / 1e6:.2f} Mops/s")
        else:
            super().point(p)


# ---- merging and tables -------------------------------------------------------------------

def merge(runs):
    """{(config, ranks): {(benchmark, bytes): point}} with every point's median_us, bw_gbs and
    ops_per_s the medians over the rounds (rounds_us keeps every round's median)."""
    groups = {}
    for r in runs:
        for p in r["points"]:
            groups.setdefault((r["config"], r["ranks"]), {}).setdefault(
                (p["benchmark"], p["bytes"]), []).append(p)
    out = {}
    for key, by_point in groups.items():
        merged = {}
        for pkey, pts in by_point.items():
            p = dict(pts[0])
            p["rounds_us"] = [q["median_us"] for q in pts]
            p["median_us"] = statistics.median(p["rounds_us"])
            p["min_us"] = min(q["min_us"] for q in pts)
            for field in ("bw_gbs", "ops_per_s"):
                if field in p:
                    p[field] = statistics.median(q[field] for q in pts)
            merged[pkey] = p
        out[key] = merged
    return out


def rows_of(merged, ranks_list):
    """One row per (ranks, benchmark, bytes) that any configuration measured."""
    rows = []
    for ranks in ranks_list:
        keys = set()
        for config, _, _ in CONFIGS:
            keys |= set(merged.get((config, ranks), {}))
        for bench, nbytes in sorted(keys, key=lambda k: (
                BENCH_ORDER.index(k[0]) if k[0] in BENCH_ORDER else len(BENCH_ORDER), k[1])):
            pts = {c: merged.get((c, ranks), {}).get((bench, nbytes)) for c, _, _ in CONFIGS}
            n, o, q = pts["nexar"], pts["openmpi"], pts["nexar-quic"]

            def us(p):
                return p["median_us"] if p else None

            def ratio(a, b):
                return a["median_us"] / b["median_us"] if a and b and b["median_us"] > 0 else None

            rows.append({
                "ranks": ranks, "benchmark": bench, "bytes": nbytes,
                "window": (n or o or q)["window"],
                "nexar_us": us(n), "openmpi_us": us(o), "nexar_quic_us": us(q),
                "nexar_over_openmpi": ratio(n, o), "nexar_quic_over_openmpi": ratio(q, o),
                "nexar_bw_gbs": report.bandwidth(n) if n else None,
                "openmpi_bw_gbs": report.bandwidth(o) if o else None,
                "nexar_quic_bw_gbs": report.bandwidth(q) if q else None,
                "nexar_ops_per_s": n.get("ops_per_s") if n else None,
                "openmpi_ops_per_s": o.get("ops_per_s") if o else None,
                "nexar_quic_ops_per_s": q.get("ops_per_s") if q else None,
            })
    return rows


_f = run.fmt_or_dash


def _us(x):
    """Microseconds with 3 significant digits or more, 9 wide."""
    if x is None:
        return "-".rjust(9)
    return f"{x:9.3f}" if x < 100 else f"{x:9.1f}"


def table(rows, quic_note):
    """The results as text: one block per rank count; ratios are times nexar / Open MPI."""
    lines, current = [], None
    for r in rows:
        if r["ranks"] != current:
            current = r["ranks"]
            if lines:
                lines.append("")
            lines.append(f"== {current} ranks: median us per operation (per window for put_bw /"
                         " get_bw); ratio = time nexar / Open MPI (< 1: nexar faster);"
                         " bandwidth in GB/s, fetch_and_op in Mop/s")
            lines.append(f"{'benchmark':<12} {'size':>8} {'win':>3} {'nexar us':>9}"
                         f" {'OMPI us':>9} {'ratio':>6} {'quic us':>9} {'ratio':>7}"
                         f" {'nexar GB/s':>10} {'OMPI GB/s':>9}")
        quic = _us(r["nexar_quic_us"]) if r["nexar_quic_us"] is not None else quic_note.rjust(9)
        if r["benchmark"] == "fetch_and_op":  # operations per second instead of bandwidth
            n, o = r["nexar_ops_per_s"], r["openmpi_ops_per_s"]
            bw = (f" {_f(n and n / 1e6, '10.2f')} {_f(o and o / 1e6, '9.2f')}")
        else:
            bw = f" {_f(r['nexar_bw_gbs'], '10.3f')} {_f(r['openmpi_bw_gbs'], '9.3f')}"
        lines.append(f"{r['benchmark']:<12} {report.human_bytes(r['bytes']):>8}"
                     f" {r['window']:>3} {_us(r['nexar_us'])} {_us(r['openmpi_us'])}"
                     f" {_f(r['nexar_over_openmpi'], '6.2f')} {quic}"
                     f" {_f(r['nexar_quic_over_openmpi'], '7.2f')}{bw}")
    return "\n".join(lines)


def goals(rows):
    """Issue 21's goal for every (benchmark, size) in GOAL_POINTS at GOAL_RANKS ranks: nexar's
    time at most Open MPI's (pass), or by what factor it misses, or not measured."""
    by_key = {(r["ranks"], r["benchmark"], r["bytes"]): r for r in rows}
    out = []
    for bench, nbytes in GOAL_POINTS:
        r = by_key.get((GOAL_RANKS, bench, nbytes))
        ratio = r["nexar_over_openmpi"] if r else None
        status = ("not measured" if ratio is None else "pass" if ratio <= 1.0
                  else f"miss by {ratio:.2f}x")
        out.append({"goal": f"{bench} {report.human_bytes(nbytes)} same host, nexar time <= "
                            "Open MPI time", "ranks": GOAL_RANKS, "benchmark": bench,
                    "bytes": nbytes, "nexar_us": r["nexar_us"] if r else None,
                    "openmpi_us": r["openmpi_us"] if r else None, "ratio": ratio,
                    "target": "<= 1.0x", "status": status})
    return out


def goal_table(goal_rows):
    lines = [f"{'goal (2 ranks, default transports)':<36} {'nexar us':>9} {'OMPI us':>9}"
             f" {'ratio':>6}  status"]
    for g in goal_rows:
        what = f"{g['benchmark']} {report.human_bytes(g['bytes'])}: nexar <= Open MPI"
        lines.append(f"{what:<36} {_us(g['nexar_us'])} {_us(g['openmpi_us'])}"
                     f" {_f(g['ratio'], '6.2f')}  {g['status']}")
    return "\n".join(lines)


# ---- options and main ---------------------------------------------------------------------

def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true",
                    help="8 B to 64 KiB, 3 short repetitions, one round: a smoke test (seconds)")
    run.add_common_options(ap)
    ap.set_defaults(ranks="2")
    for action in ap._actions:  # add_common_options documents bench/run.py's default
        if action.dest == "ranks":
            action.help = "comma-separated rank counts (default 2)"
    ap.add_argument("--rounds", type=int, default=3,
                    help="run every (ranks, configuration) this many times, round by round "
                         "(order reversed every other round); medians over rounds (default 3; "
                         "--quick: 1)")
    ap.add_argument("--no-quic", action="store_true",
                    help="leave out the nexar run with NEXAR_TRANSPORT=quic")
    ap.add_argument("--bench", help="rmabench --bench list (default: "
                                    "put,get,fetch_and_op,put_bw,get_bw)")
    ap.add_argument("--max-bytes", help="largest size and window (default 16M)")
    ap.add_argument("--extra", default="", help="more rmabench options, space-separated")
    ap.add_argument("--json", type=Path,
                    default=ROOT / "bench" / "results" / "rma-latest.json",
                    help="where to write the results (default bench/results/rma-latest.json)")
    ap.add_argument("--timeout", type=float, default=600,
                    help="seconds one run may take before it is killed (default 600)")
    args = ap.parse_args(argv)
    run.parse_ranks(ap, args)
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    if args.quick:
        args.rounds = 1
    return args


def bench_args(args):
    """rmabench's options for this run."""
    out = []
    if args.quick:
        out += ["--max-bytes", "64K", "--step", "8", "--window", "16", "--reps", "3",
                "--target", "0.03", "--point-budget", "1"]
    if args.max_bytes:
        out += ["--max-bytes", args.max_bytes]
    if args.bench:
        out += ["--bench", args.bench]
    return out + args.extra.split()


def main(argv=None):
    args = parse_args(argv)
    build_dir = args.build_dir.resolve()
    work = build_dir / "bench-work"
    work.mkdir(parents=True, exist_ok=True)
    started, load_start = time.time(), loadavg()
    log(f"load (/proc/loadavg) at start: {load_start}")
    rma_args = bench_args(args)
    runs, unsupported = [], {}
    try:
        impls = {"nexar": run.build_nexar(build_dir, work, args.no_build, SOURCE)}
        if not args.nexar_only:
            ompi = run.build_openmpi(work, not args.no_install, SOURCE)
            if ompi:
                impls["openmpi"] = ompi
        configs = [c for c in CONFIGS if c[1] in impls and not (args.no_quic and c[2] ==
                                                                "network")]
        plan = []
        for rnd in range(1, args.rounds + 1):
            order = configs if rnd % 2 else configs[::-1]
            plan += [(rnd, ranks, c) for ranks in args.ranks for c in order]
        progress = RmaProgress(len(plan))
        for rnd, ranks, (config, impl, mode) in plan:
            if (config, ranks) in unsupported:  # refused once: the same build refuses again
                progress.done += 1
                continue
            binary, launcher = impls[impl]
            cmd, env = run.command_for(impl, launcher, binary, ranks, mode, rma_args)
            env.pop("NEXAR_RMA", None)
            if config == "nexar-quic":
                env["NEXAR_RMA"] = "messages"
            load = loadavg()
            progress.start(f"round {rnd}: {config} {ranks} ranks")
            entry = {"round": rnd, "config": config, "impl": impl, "mode": mode,
                     "ranks": ranks, "transport_env": env.get("NEXAR_TRANSPORT")
                     if impl == "nexar" else None, "rma_env": env.get("NEXAR_RMA"), "command": cmd, "loadavg_before": load}
            try:
                library, points, elapsed = run.run_one(cmd, env, args.timeout, progress)
            except HarnessError as e:
                refused = progress.error
                if not (refused and str(e).startswith(f"exit status {UNSUPPORTED_EXIT} ")):
                    raise
                # The MPI refused the window: a result (not supported), not a failure.
                unsupported[(config, ranks)] = refused
                progress.refused()
                runs.append({**entry, "library": None, "elapsed_s": None, "points": [],
                             "unsupported": refused})
                continue
            progress.finish(len(points))
            runs.append({**entry, "library": library, "elapsed_s": round(elapsed, 2),
                         "points": points})
    except HarnessError as e:
        log(f"FAILED: {e}")
        return 1
    load_end = loadavg()

    merged = merge(runs)
    rows = rows_of(merged, args.ranks)
    goal_rows = goals(rows)
    quic_refused = any(c == "nexar-quic" for c, _ in unsupported)
    print()
    for config, _, _ in configs:
        lib = next((r["library"] for r in runs if r["config"] == config and r["library"]),
                   None)
        if lib:
            print(f"{config}: {lib}")
    for (config, ranks), err in unsupported.items():
        print(f"{config} at {ranks} ranks: not supported ('unsup.' below): {err.get('call')} "
              f"failed: {err.get('error')}")
    print(f"host: {os.cpu_count()} CPUs; load (/proc/loadavg) at start {load_start}, "
          f"at end {load_end}")
    print(f"rmabench {' '.join(rma_args) or '(defaults)'}; {args.rounds} round(s), medians "
          "over rounds")
    print()
    print(table(rows, "unsup." if quic_refused else "-"))
    if any(g["ratio"] is not None for g in goal_rows):
        print()
        print("== goals of issue 21 (ratios from this run)")
        print(goal_table(goal_rows))

    result = {
        "generated": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "host": {"node": platform.node(), "machine": platform.machine(),
                 "cpus": os.cpu_count(), "loadavg_at_start": load_start,
                 "loadavg_at_end": load_end},
        "options": {"ranks": args.ranks, "quick": args.quick, "rounds": args.rounds,
                    "configs": [c for c, _, _ in configs], "rmabench_args": rma_args},
        "duration_s": round(time.time() - started, 1),
        "timed": {"put": "MPI_Put of N bytes to rank 1 + MPI_Win_flush(1), per operation",
                  "get": "MPI_Get of N bytes from rank 1 + MPI_Win_flush(1), per operation",
                  "fetch_and_op": "MPI_Fetch_and_op(1, MPI_INT64_T, MPI_SUM) + "
                                  "MPI_Win_flush(1), per operation",
                  "put_bw": "`window` MPI_Put of N bytes to consecutive offsets + one "
                            "MPI_Win_flush, per window",
                  "get_bw": "`window` MPI_Get of N bytes + one MPI_Win_flush, per window",
                  "epoch": "rank 0 holds MPI_Win_lock(MPI_LOCK_SHARED, 1) around each timed "
                           "repetition (lock and unlock not timed); window from "
                           "MPI_Win_allocate of the largest size on every rank"},
        "ratio_definition": "time ratio nexar / Open MPI: below 1 means nexar is faster",
        "unsupported": [{"config": c, "ranks": r, **err} for (c, r), err in unsupported.items()],
        "runs": runs,
        "rows": rows,
        "goals": goal_rows,
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=1) + "\n")
    log(f"load (/proc/loadavg) at end: {load_end}")
    log(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
