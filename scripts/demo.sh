#!/usr/bin/env bash
# Builds everything and runs the main demo: a 4-rank allreduce on this host over QUIC, launched
# by nexarrun, then (if cmake is installed) a C++ conjugate-gradient solver on the C API.
# Usage: scripts/demo.sh [RANKS]
set -euo pipefail
cd "$(dirname "$0")/.."
ranks="${1:-4}"

cargo build --workspace --release --lib --bins --examples --locked
echo "== nexarrun -n $ranks target/release/examples/allreduce_demo"
target/release/nexarrun -n "$ranks" -l target/release/examples/allreduce_demo
echo "== nexarrun -n $ranks target/release/examples/ring"
target/release/nexarrun -n "$ranks" target/release/examples/ring

# The same library from C++: the distributed conjugate-gradient example, built with CMake (only
# when cmake is installed; scripts/test.sh installs it).
if command -v cmake >/dev/null; then
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build --parallel 2 --target cg_solver
  echo "== nexarrun -n $ranks build/examples_c/cg_solver"
  target/release/nexarrun -n "$ranks" build/examples_c/cg_solver
fi
