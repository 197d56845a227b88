#!/usr/bin/env python3
"""Start-up and small-collective costs at 16, 32 and 64 ranks on one host.

Runs `nexarrun -n N target/release/examples/scale_probe` for each rank count and transport
(shared memory, the default; QUIC, with NEXAR_TRANSPORT=quic), parses every rank's `SCALE` line
and prints the mean and max over ranks of each figure, plus the job's wall time and /dev/shm
usage. A measurement, not a test. Build first:

    cargo build --release --bin nexarrun --example scale_probe
    python3 bench/scale.py [--ranks 16,32,64] [--transports shm,quic] [--timeout 240]
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NEXARRUN = os.path.join(ROOT, "target", "release", "nexarrun")
PROBE = os.path.join(ROOT, "target", "release", "examples", "scale_probe")

# Figures printed, in order: (key, unit, how to scale the raw value).
FIGURES = [
    ("init_from_launch_ms", "ms", 1.0),
    ("init_from_start_ms", "ms", 1.0),
    ("init_from_main_ms", "ms", 1.0),
    ("first_barrier_us", "us", 1.0),
    ("warm_barrier_us", "us", 1.0),
    ("first_allreduce_us", "us", 1.0),
    ("warm_allreduce_us", "us", 1.0),
    ("rss_init_kib", "MiB", 1 / 1024),
    ("hwm_init_kib", "MiB", 1 / 1024),
    ("hwm_end_kib", "MiB", 1 / 1024),
    ("shmem_kib", "MiB", 1 / 1024),
    ("quic_peers", "", 1.0),
    ("quic_dialed", "", 1.0),
    ("quic_accepted", "", 1.0),
]

LINE = re.compile(r"SCALE (.*)$")


def devshm_used_kib():
    u = shutil.disk_usage("/dev/shm")
    return u.used // 1024


def run(n, transport, timeout):
    env = dict(os.environ)
    env.pop("NEXAR_TRANSPORT", None)
    if transport == "quic":
        env["NEXAR_TRANSPORT"] = "quic"
    before = devshm_used_kib()
    t0 = time.time()
    env["SCALE_T0"] = repr(t0)
    cmd = [NEXARRUN, "-n", str(n), "--timeout", str(timeout), PROBE]
    try:
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout + 30)
    except subprocess.TimeoutExpired:
        return None, f"nexarrun did not exit within {timeout + 30} s", time.time() - t0, before
    wall = time.time() - t0
    rows = []
    for line in p.stdout.splitlines():
        m = LINE.search(line)
        if m:
            rows.append(dict(kv.split("=", 1) for kv in m.group(1).split()))
    if p.returncode != 0 or len(rows) != n:
        tail = (p.stderr or "")[-2000:]
        return None, f"exit {p.returncode}, {len(rows)}/{n} ranks reported\n{tail}", wall, before
    return rows, None, wall, before


def summarize(n, transport, rows, wall, before):
    name = rows[0].get("transport", "?")
    print(f"\n== {n} ranks, transport {name} (requested {transport}); job wall time {wall:.2f} s")
    devshm = max(int(r["devshm_used_kib"]) for r in rows)
    print(f"   /dev/shm used during the run: {devshm / 1024:.1f} MiB "
          f"(before the job: {before / 1024:.1f} MiB; whole file system)")
    print(f"   {'figure':<22} {'mean':>12} {'max':>12}")
    for key, unit, scale in FIGURES:
        vals = [float(r[key]) * scale for r in rows if key in r]
        vals = [v for v in vals if v == v]  # drop NaN
        if not vals:
            continue
        mean = sum(vals) / len(vals)
        label = f"{key} [{unit}]" if unit else key
        print(f"   {label:<22} {mean:>12.1f} {max(vals):>12.1f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ranks", default="16,32,64")
    ap.add_argument("--transports", default="shm,quic")
    ap.add_argument("--timeout", type=float, default=240.0)
    args = ap.parse_args()
    for exe in (NEXARRUN, PROBE):
        if not os.path.exists(exe):
            sys.exit(f"{exe} is missing: cargo build --release --bin nexarrun --example scale_probe")
    failed = False
    for transport in args.transports.split(","):
        for n in [int(x) for x in args.ranks.split(",")]:
            rows, err, wall, before = run(n, transport, args.timeout)
            if err:
                failed = True
                print(f"\n== {n} ranks, {transport}: FAILED after {wall:.1f} s: {err}")
                continue
            summarize(n, transport, rows, wall, before)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
