#!/usr/bin/env bash
# The GPU checks of issue 8 in two steps, for a GPU machine that has no Rust toolchain:
#
#   bash scripts/gpu_check.sh build   # here: release test binaries, examples and nexarrun
#                                     # (features cuda + nccl) into .gpu/, stripped
#   bash scripts/gpu_check.sh run     # there, in a copy of the repository holding .gpu/:
#                                     # runs them on the GPU, writes gpu_check.log to $OUT (or .)
#
# On a GPU machine a "SKIPPED" line is a failure: every GPU case must really run there.
# NCCL: cudarc loads `libnccl.so`; installs that ship only `libnccl.so.2` (the pip wheel
# nvidia-nccl-cu13, the runtime-only apt package) get a private symlink on LD_LIBRARY_PATH.
set -uo pipefail
cd "$(dirname "$0")/.."

TESTS=(cuda_buffers nccl_hier nccl_auto)
EXAMPLES=(cuda_allreduce cuda_bandwidth nccl_auto)
G=.gpu/release

# Prints the test executables `cargo test --no-run` builds for the given selection.
test_executables() {
  cargo test --release --features nccl --locked --no-run --message-format=json "$@" |
    python3 -c 'import json,sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"]:
        print(m["executable"])'
}

build() {
  set -e
  export CARGO_INCREMENTAL=0
  rm -rf .gpu && mkdir -p "$G/deps" "$G/examples"
  local args=()
  for t in "${TESTS[@]}"; do
    if [ -f "tests/$t.rs" ]; then args+=(--test "$t"); fi
  done
  test_executables -p nexar --lib "${args[@]}" >.gpu/executables
  test_executables -p nexar-mpi --test cuda_aware --test nccl_route >>.gpu/executables
  local ex=()
  for e in "${EXAMPLES[@]}"; do ex+=(--example "$e"); done
  cargo build -p nexar --release --features nccl --locked --bin nexarrun "${ex[@]}"
  while read -r exe; do cp "$exe" "$G/deps/"; done <.gpu/executables
  cp target/release/nexarrun "$G/"
  for e in "${EXAMPLES[@]}"; do cp "target/release/examples/$e" "$G/examples/"; done
  strip "$G"/deps/* "$G"/examples/* "$G/nexarrun"
  du -sh .gpu
  echo "carry .gpu (ignored by git) and run: bash scripts/gpu_check.sh run"
}

nccl_path() {
  if ldconfig -p 2>/dev/null | grep -q 'libnccl\.so '; then return; fi
  local so
  so=$( (ldconfig -p 2>/dev/null | awk '/libnccl\.so\.2 /{print $NF; exit}'
    python3 - <<'PY' 2>/dev/null
import glob, site, sys
for d in site.getsitepackages() + [site.getusersitepackages()] + sys.path:
    for f in glob.glob(d + "/nvidia/nccl/lib/libnccl.so.2"):
        print(f)
PY
  ) | head -n1)
  if [ -n "$so" ]; then
    mkdir -p /tmp/nexar-nccl && ln -sf "$so" /tmp/nexar-nccl/libnccl.so
    export LD_LIBRARY_PATH=/tmp/nexar-nccl${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    echo "NCCL: $so (through /tmp/nexar-nccl/libnccl.so)"
  else
    echo "NCCL: no libnccl found (NCCL cases will fail as SKIPPED)"
  fi
}

run() {
  local out=${OUT:-.}
  local log=$out/gpu_check.log
  : >"$log"
  export NEXAR_TEST_NEXARRUN=$PWD/$G/nexarrun RUST_LOG=${RUST_LOG:-nexar=info}
  nccl_path 2>&1 | tee -a "$log"
  nvidia-smi -L 2>&1 | tee -a "$log"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 | tee -a "$log"
  python3 -m pip show nvidia-nccl-cu13 nvidia-nccl-cu12 2>/dev/null | grep -E '^(Name|Version)' | tee -a "$log"
  local failed=()
  for t in "$G"/deps/*; do
    # The library's own unit tests: only the device ones (the rest ran in CI).
    local filter=()
    case "$(basename "$t")" in nexar-*) filter=(device) ;; esac
    echo "== $(basename "$t") ${filter[*]}" | tee -a "$log"
    if ! timeout 100 "$t" "${filter[@]}" --test-threads=1 --nocapture 2>&1 | tee -a "$log"; then
      failed+=("$(basename "$t")")
    fi
  done
  echo "== cuda_bandwidth (staged path vs cuMemcpyDtoH, GB/s)" | tee -a "$log"
  timeout 120 "$G/examples/cuda_bandwidth" 2>&1 | tee -a "$log" || failed+=(cuda_bandwidth)
  # Device allreduce at 8 B / 1 MiB / 64 MiB: as built (NCCL where the communicator takes
  # it: one rank; ranks sharing the one GPU fall back), then the staged path alone.
  for nccl in auto off; do
    for n in 1 2 4; do
      echo "== NEXAR_NCCL=$nccl nexarrun -n $n cuda_allreduce time" | tee -a "$log"
      NEXAR_NCCL=$nccl timeout 60 "$G/nexarrun" -n "$n" -- "$G/examples/cuda_allreduce" time 2>&1 |
        tee -a "$log" || failed+=("cuda_allreduce-$nccl-$n")
    done
  done
  local skipped
  skipped=$(grep -c 'SKIPPED' "$log" || true)
  echo "== summary: failed: ${failed[*]:-none}; SKIPPED lines: $skipped" | tee -a "$log"
  [ ${#failed[@]} -eq 0 ] && [ "$skipped" -eq 0 ]
}

case "${1:-}" in
  build) build ;;
  run) run ;;
  *) echo "usage: $0 build|run" >&2; exit 2 ;;
esac
