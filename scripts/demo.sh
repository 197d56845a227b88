#!/usr/bin/env bash
# Builds everything and runs the main demo: a 4-rank allreduce on this host over QUIC, launched
# by nexarrun. Usage: scripts/demo.sh [RANKS]
set -euo pipefail
cd "$(dirname "$0")/.."
ranks="${1:-4}"

cargo build --workspace --release --lib --bins --examples --locked
echo "== nexarrun -n $ranks target/release/examples/allreduce_demo"
target/release/nexarrun -n "$ranks" -l target/release/examples/allreduce_demo
echo "== nexarrun -n $ranks target/release/examples/ring"
target/release/nexarrun -n "$ranks" target/release/examples/ring
