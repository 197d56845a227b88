#!/usr/bin/env bash
# The whole test suite: formatting, lints, every test of every crate. CI runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo fmt --check"
cargo fmt --all --check
echo "== generated files up to date (cargo xtask check)"
cargo xtask check
echo "== cargo clippy (-D warnings)"
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== cargo build (release binaries and examples, used by multi-process tests)"
cargo build --workspace --release --lib --bins --examples --locked
echo "== libnexar.so exports only nexar_* symbols"
cargo xtask symbols target/release/libnexar.so
echo "== cargo test"
cargo test --workspace --locked
echo "== kernel tests in release (the vectorised paths exist only with optimisation)"
cargo test -p nexar-proto --release --locked --test kernels
