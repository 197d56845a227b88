#!/usr/bin/env bash
# Skipped test cases, counted and shown (a skip is never a silent pass).
#
#   source scripts/skips.sh
#   cargo_test LABEL cargo test ARGS...    # runs the tests, prints them as usual, and records
#                                          # every passing test whose output says "SKIPPED"
#   skips_report                           # prints the recorded skips and their count
#
# libtest hides the output of passing tests; `--show-output` prints it in a "successes:"
# section after the results. The filter below drops that section from the console and keeps,
# for each test whose captured output has a SKIPPED line, "LABEL: binary test: the line".
SKIPS_LOG=${SKIPS_LOG:-$(mktemp -t nexar-skips.XXXXXX)}
: > "$SKIPS_LOG"

cargo_test() {
  local label=$1
  shift
  "$@" -- --show-output 2>&1 | awk -v label="$label" -v out="$SKIPS_LOG" '
    /^ *Running / { bin = ($2 == "unittests") ? $3 : $2 }
    /^successes:$/ { if (mode == 0) { mode = 1; next } else { mode = 2; next } }
    mode == 1 && /^---- .* stdout ----$/ { name = $2; next }
    mode == 1 && /SKIPPED/ { line = $0; sub(/^ +/, "", line); print label ": " bin " " name ": " line >> out; next }
    mode == 1 { next }
    mode == 2 && /^$/ { mode = 0; next }
    mode == 2 { next }
    { print }
  '
}

skips_report() {
  local n
  n=$(sort -u "$SKIPS_LOG" | wc -l)
  echo "== skipped test cases: $n (each passed only what it could check; scripts/gpu_check.sh and the netns tests need hardware or privileges this machine lacks)"
  sort -u "$SKIPS_LOG" | sed 's/^/   SKIPPED /'
}
