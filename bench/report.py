"""Ratios, tables, the issue's goals and the optional plot for bench/run.py (stdlib only, except
matplotlib inside `plot`).

A run is a dict: mode ("local" or "network"), impl ("nexar" or "openmpi"), ranks, library,
points (mpibench's JSON records). Ratios are always nexar / Open MPI: a time ratio below 1 means
nexar is faster, a bandwidth ratio above 1 means nexar is faster.
"""

import math

MIB = 1 << 20

# The goals of issues 5 and 17: (name, mode, ranks, benchmark, bytes, metric, comparison, goal).
# metric "time" compares median_us, "bw" the bandwidth field; "le" passes when ratio <= goal.
GOALS = [
    ("2 ranks, barrier", "local", 2, "barrier", 0, "time", "le", 1.0),
    ("2 ranks, 1 MiB bcast", "local", 2, "bcast", MIB, "time", "le", 1.0),
    ("2 ranks, 16 MiB ping-pong bandwidth", "local", 2, "pingpong", 16 * MIB, "bw", "ge", 1.0),
    ("2 ranks, 8 B streaming (64 in flight)", "local", 2, "stream", 8, "bw", "ge", 1.0),
    ("2 ranks, 4 MiB streaming (64 in flight)", "local", 2, "stream", 4 * MIB, "bw", "ge", 1.0),
    ("2 ranks, 8 B iallreduce + wait", "local", 2, "iallreduce", 8, "time", "le", 1.5),
    ("2 ranks, 8 B allreduce", "local", 2, "allreduce", 8, "time", "le", 1.0),
    ("2 ranks, 8 B ping-pong", "local", 2, "pingpong", 8, "time", "le", 1.0),
    ("2 ranks, 16 MiB allreduce bus bandwidth", "local", 2, "allreduce", 16 * MIB, "bw", "ge", 1.5),
    ("4 ranks on this host, 8 B allreduce", "local", 4, "allreduce", 8, "time", "le", 1.0),
    ("network path, 16 MiB allreduce (2 ranks)", "network", 2, "allreduce", 16 * MIB, "bw", "ge", 1.0),
    # The C API (nexar_send / nexar_recv, nexar_allreduce) against the same Open MPI figures.
    ("2 ranks, 8 B ping-pong, C API", "local", 2, "capi pingpong", 8, "time", "le", 1.0),
    ("2 ranks, 8 B allreduce, C API", "local", 2, "capi allreduce", 8, "time", "le", 1.0),
]

#: The implementations measured against Open MPI, and the prefix their benchmark names get in
#: the ratio rows: the shim ("nexar", mpibench built with nexar's mpicc) and nexar's own C API
#: ("nexar-capi", the same mpibench source built with -DNEXAR_CAPI against libnexar).
NEXAR_IMPLS = {"nexar": "", "nexar-capi": "capi "}


def bandwidth(point):
    """The point's bandwidth in GB/s (bus bandwidth for allreduce), or None (barrier)."""
    return point.get("bus_bw_gbs", point.get("bw_gbs"))


def human_bytes(n):
    """8 -> '8 B', 1048576 -> '1 MiB'."""
    for unit, size in (("GiB", 1 << 30), ("MiB", MIB), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} B"


def merge_rounds(runs):
    """One run per (mode, impl, ranks) from runs repeated in rounds: each point's median_us
    and bandwidth are the medians over the rounds (`rounds_us` keeps every round's median)."""
    groups = {}
    for run in runs:
        groups.setdefault((run["mode"], run["impl"], run["ranks"]), []).append(run)
    merged = []
    for (mode, impl, ranks), group in groups.items():
        by_key = {}
        for run in group:
            for p in run["points"]:
                by_key.setdefault((p["benchmark"], p["bytes"]), []).append(p)
        points = []
        for pts in by_key.values():
            p = dict(pts[0])
            p["rounds_us"] = [q["median_us"] for q in pts]
            p["median_us"] = _median(p["rounds_us"])
            p["min_us"] = min(q["min_us"] for q in pts)
            for key in ("bw_gbs", "bus_bw_gbs"):
                if key in p:
                    p[key] = _median([q[key] for q in pts])
            points.append(p)
        merged.append({**group[0], "rounds": len(group), "points": points})
    return merged


def _median(v):
    s = sorted(v)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def _index(runs):
    """{(mode, impl, ranks): {(benchmark, bytes): point}}."""
    out = {}
    for run in runs:
        table = out.setdefault((run["mode"], run["impl"], run["ranks"]), {})
        for p in run["points"]:
            table[(p["benchmark"], p["bytes"])] = p
    return out


def ratios(runs):
    """One row per (mode, ranks, benchmark, bytes) measured by both nexar (the shim, or the C
    API with "capi " before the benchmark's name) and Open MPI."""
    idx = _index(runs)
    rows = []
    for (mode, impl, ranks), nexar in sorted(idx.items(), key=lambda kv: (kv[0][0], kv[0][2],
                                                                          kv[0][1])):
        if impl not in NEXAR_IMPLS:
            continue
        ompi = idx.get((mode, "openmpi", ranks))
        if not ompi:
            continue
        for key in sorted(nexar, key=lambda k: (_bench_order(k[0]), k[1])):
            if key not in ompi:
                continue
            n, o = nexar[key], ompi[key]
            nbw, obw = bandwidth(n), bandwidth(o)
            rows.append({
                "mode": mode,
                "ranks": ranks,
                "benchmark": NEXAR_IMPLS[impl] + key[0],
                "bytes": key[1],
                "nexar_median_us": n["median_us"],
                "openmpi_median_us": o["median_us"],
                "time_ratio": n["median_us"] / o["median_us"] if o["median_us"] > 0 else None,
                "nexar_bw_gbs": nbw,
                "openmpi_bw_gbs": obw,
                "bw_ratio": nbw / obw if nbw is not None and obw else None,
            })
    return rows


def _bench_order(name):
    order = ["pingpong", "stream", "allreduce", "iallreduce", "barrier", "bcast"]
    return order.index(name) if name in order else len(order)


def _row_order(row):
    """Rows of one (mode, ranks) block: the shim's benchmarks, then the C API's."""
    name = row["benchmark"]
    capi = name.startswith("capi ")
    return (row["mode"], row["ranks"], capi, _bench_order(name.removeprefix("capi ")),
            row["bytes"])


def _fmt(x, digits=2):
    if x is None:
        return "-"
    if x == 0:
        return "0"
    if abs(x) >= 1000:
        return f"{x:.0f}"
    return f"{x:.{digits}f}" if abs(x) >= 0.01 else f"{x:.2e}"


def ratio_table(rows):
    """The nexar / Open MPI table as text, one block per (mode, ranks)."""
    lines = []
    rows = sorted(rows, key=_row_order)
    header = (f"{'benchmark':<15} {'bytes':>8} {'nexar us':>10} {'ompi us':>10} {'time x':>8}"
              f" {'nexar GB/s':>10} {'ompi GB/s':>10} {'bw x':>7}")
    current = None
    for r in rows:
        if (r["mode"], r["ranks"]) != current:
            current = (r["mode"], r["ranks"])
            if lines:
                lines.append("")
            lines.append(f"== {r['mode']} transport, {r['ranks']} ranks: nexar / Open MPI "
                         "(time x < 1: nexar faster; bw x > 1: nexar faster)")
            lines.append(header)
        lines.append(f"{r['benchmark']:<15} {human_bytes(r['bytes']):>8}"
                     f" {_fmt(r['nexar_median_us']):>10} {_fmt(r['openmpi_median_us']):>10}"
                     f" {_fmt(r['time_ratio'], 3):>8} {_fmt(r['nexar_bw_gbs'], 3):>10}"
                     f" {_fmt(r['openmpi_bw_gbs'], 3):>10} {_fmt(r['bw_ratio'], 3):>7}")
    return "\n".join(lines)


def single_table(runs):
    """Without Open MPI: nexar's own numbers per (mode, ranks)."""
    lines = []
    for run in runs:
        lines.append(f"== {run['impl']} ({run['library']}), {run['mode']} transport, "
                     f"{run['ranks']} ranks")
        lines.append(f"{'benchmark':<10} {'bytes':>8} {'median us':>10} {'min us':>10} {'GB/s':>8}")
        for p in run["points"]:
            lines.append(f"{p['benchmark']:<10} {human_bytes(p['bytes']):>8}"
                         f" {_fmt(p['median_us']):>10} {_fmt(p['min_us']):>10}"
                         f" {_fmt(bandwidth(p), 3):>8}")
        lines.append("")
    return "\n".join(lines).rstrip()


def goals(rows):
    """The issue's goals with the measured ratio and pass / miss / not measured."""
    by_key = {(r["mode"], r["ranks"], r["benchmark"], r["bytes"]): r for r in rows}
    out = []
    for name, mode, ranks, bench, nbytes, metric, cmp, goal in GOALS:
        r = by_key.get((mode, ranks, bench, nbytes))
        ratio = None if r is None else r["time_ratio" if metric == "time" else "bw_ratio"]
        if ratio is None:
            status, off = "not measured", None
        elif (ratio <= goal) if cmp == "le" else (ratio >= goal):
            status, off = "pass", None
        else:
            # How far from the goal, as a factor >= 1 in the direction that matters.
            off = ratio / goal if cmp == "le" else (goal / ratio if ratio > 0 else math.inf)
            status = f"miss by {off:.1f}x"
        out.append({
            "goal": name,
            "mode": mode,
            "ranks": ranks,
            "benchmark": bench,
            "bytes": nbytes,
            "metric": "time ratio" if metric == "time" else "bandwidth ratio",
            "target": f"{'<=' if cmp == 'le' else '>='} {goal}x",
            "ratio": ratio,
            "status": status,
            "miss_factor": off,
        })
    return out


def goal_table(goal_rows):
    """The goals as text."""
    lines = [f"{'goal (nexar / Open MPI)':<44} {'metric':<16} {'target':>8} {'measured':>9}  status",]
    for g in goal_rows:
        measured = "-" if g["ratio"] is None else f"{g['ratio']:.3f}x"
        lines.append(f"{g['goal']:<44} {g['metric']:<16} {g['target']:>8} {measured:>9}  "
                     f"{g['status']}")
    return "\n".join(lines)


def plot(runs, path):
    """Time and bandwidth against size (log axes) for ping-pong and allreduce, every run."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    benches = ["pingpong", "allreduce"]
    fig, axes = plt.subplots(2, 2, figsize=(13, 9))
    styles = {"nexar": "-", "openmpi": "--", "nexar-capi": ":"}
    # One colour per (ranks, mode), so nexar (solid) and Open MPI (dashed) of a setup pair up.
    setups = sorted({(r["ranks"], r["mode"]) for r in runs})
    colours = {s: f"C{i % 10}" for i, s in enumerate(setups)}
    for col, bench in enumerate(benches):
        ax_t, ax_b = axes[0][col], axes[1][col]
        for run in runs:
            pts = sorted((p for p in run["points"] if p["benchmark"] == bench),
                         key=lambda p: p["bytes"])
            if not pts:
                continue
            label = f"{run['impl']} {run['ranks']}r {run['mode']}"
            xs = [p["bytes"] for p in pts]
            kw = {"linestyle": styles.get(run["impl"], "-"), "marker": "o", "ms": 3,
                  "color": colours[(run["ranks"], run["mode"])], "label": label}
            ax_t.plot(xs, [p["median_us"] for p in pts], **kw)
            ax_b.plot(xs, [bandwidth(p) for p in pts], **kw)
        what = "one-way latency" if bench == "pingpong" else "time per allreduce"
        ax_t.set_title(f"{bench}: {what} (median)")
        ax_t.set_ylabel("microseconds")
        ax_b.set_title(f"{bench}: {'bandwidth' if bench == 'pingpong' else 'bus bandwidth'}")
        ax_b.set_ylabel("GB/s")
        for ax in (ax_t, ax_b):
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_xlabel("message size (bytes)")
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
