#!/usr/bin/env bash
# Runs every cargo-fuzz target (fuzz/) for a short fixed time over its checked-in corpus.
# Installs the nightly toolchain and cargo-fuzz when missing. A crash fails the script and
# leaves its input under fuzz/artifacts/<target>/: fix the bug, then add the input to
# fuzz/corpus/<target>/ so tests/fuzz_corpus.rs keeps checking it on stable.
#
#   scripts/fuzz.sh            # 20 s per target
#   FUZZ_SECONDS=300 scripts/fuzz.sh proto_machines
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${FUZZ_SECONDS:-20}"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(frame_decode rendezvous_decode proto_machines)
fi

if ! rustup toolchain list | grep -q '^nightly'; then
  echo "installing the nightly toolchain"
  rustup toolchain install nightly --profile minimal
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  echo "installing cargo-fuzz"
  cargo install cargo-fuzz --locked
fi

for t in "${targets[@]}"; do
  echo "== fuzz $t for ${seconds}s"
  # Work on a scratch copy of the corpus: new inputs the fuzzer finds are not checked in.
  work="$(mktemp -d)"
  cp -r "fuzz/corpus/$t/." "$work/"
  cargo +nightly fuzz run --fuzz-dir fuzz "$t" "$work" -- \
    -max_total_time="$seconds" -max_len=4096 -rss_limit_mb=2048 -print_final_stats=1
  rm -rf "$work"
done
