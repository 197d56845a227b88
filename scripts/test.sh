#!/usr/bin/env bash
# The whole test suite: formatting, lints, every test of every crate, then the C, C++ and
# Fortran side through CMake and CTest. CI runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
# Disk: CI machines may have only a few GiB free. Every artefact is built once here, so the
# incremental cache (as large as the build itself) is not kept, and Cargo.toml builds without
# debug info (symbols stay). The free disk is printed at the start and the end.
export CARGO_INCREMENTAL=0
disk_report() { echo "== disk: $(df -h --output=avail . | tail -1 | tr -d ' ') free; target/ $(du -sh target 2>/dev/null | cut -f1)"; }
disk_report
# A cold run writes about 3 GiB at its peak (target/, build/, build-asan/, fuzz/target/ until
# the fuzzing is done); short of that, say so now rather than through a compiler's "No space
# left on device" later.
if [ "$(df -k --output=avail . | tail -1)" -lt $((4 * 1024 * 1024)) ] && [ ! -d target/debug ]; then
  echo "warning: a cold run writes about 3 GiB and less than 4 GiB is free here"
fi

# First, so that every later step that compiles C or compares with or runs under Open MPI
# (tests/sched_env.rs runs a job under mpirun.openmpi) finds its tools on a fresh machine.
echo "== tools: cmake, C, C++ and Fortran compilers, Open MPI (apt-get only if missing)"
missing=()
command -v cmake >/dev/null || missing+=(cmake)
command -v gfortran >/dev/null || missing+=(gfortran)
command -v pkg-config >/dev/null || missing+=(pkg-config)
command -v g++ >/dev/null || missing+=(g++)
# Open MPI: the benchmark's reference, and the "other MPI" the FindMPI test must not pick.
command -v mpicc.openmpi >/dev/null || missing+=(openmpi-bin libopenmpi-dev)
# MPICH's mpiexec.hydra: the PMI-1 process manager tests/pmi_hydra.rs and the CTest hydra runs
# use (Open MPI keeps the mpicc/mpirun alternatives: its priority is higher).
command -v mpiexec.hydra >/dev/null || missing+=(mpich)
# The `rdma` feature: the ibverbs crate links libibverbs and generates its bindings with
# bindgen (libclang).
dpkg -s libibverbs-dev >/dev/null 2>&1 || missing+=(libibverbs-dev)
dpkg -s libclang-dev >/dev/null 2>&1 || missing+=(libclang-dev)
# Real Slurm (scripts/slurm/check.sh: munge, slurmctld and two slurmd on this machine); its
# PMIx plugin and Open MPI's mpirun use the system's libpmix, which nexar loads at run time.
command -v slurmctld >/dev/null || missing+=(slurm-wlm)
command -v munged >/dev/null || missing+=(munge)
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then sudo=(sudo); fi
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    "${missing[@]}"
fi
# Every cargo test run below records the passing tests that said SKIPPED; the list and its count
# are printed at the end (scripts/skips.sh).
source scripts/skips.sh
echo "== cargo fmt --check"
cargo fmt --all --check
echo "== generated files up to date (cargo xtask check)"
cargo xtask check
echo "== MPI ABI header (mpi/spec/check.sh: compiles alone, standard values, every function + PMPI twin)"
bash mpi/spec/check.sh
echo "== nexar-proto is pure: #![no_std] + #![forbid(unsafe_code)], built for a target without an OS"
rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
cargo build -p nexar-proto --lib --target wasm32-unknown-unknown --locked
echo "== cargo clippy (-D warnings)"
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== rustdoc (-D warnings: every intra-doc link resolves; nexar and nexar-capi share a lib name, so two runs)"
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --locked -p nexar -p nexar-proto -p nexar-bind -p nexar-mpi
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --locked -p nexar-capi
echo "== cargo build (release libraries and binaries; the examples are checked by clippy above)"
cargo build --workspace --release --lib --bins --locked
echo "== libnexar.so exports only nexar_* symbols"
cargo xtask symbols target/release/libnexar.so
echo "== libmpi_abi.so exports exactly MPI_X and PMPI_X for every function of the MPI spec"
cargo xtask symbols --mpi target/release/libmpi_abi.so
echo "== cargo test"
cargo_test "cargo test" cargo test --workspace --locked
echo "== kernel tests in release (the vectorised paths exist only with optimisation)"
cargo_test "kernels (release)" cargo test -p nexar-proto --release --locked --test kernels

echo "== cmake: configure and build (libnexar through cargo, examples, CTest programs)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build --parallel 2
echo "== ctest (C, C++ and Fortran examples and tests, install + find_package + pkg-config)"
ctest --test-dir build --output-on-failure -j2
echo "== Slurm for real: srun --mpi=pmix/pmi2/none, sbatch and salloc with mpiexec over two nodes (scripts/slurm/check.sh)"
slurm_out=$(bash scripts/slurm/check.sh build 2>&1) || { echo "$slurm_out"; exit 1; }
echo "$slurm_out"
grep '^SKIPPED' <<<"$slurm_out" | sed 's#^#slurm: scripts/slurm/check.sh: #' >> "$SKIPS_LOG" || true
echo "== the Rust and CTest suites again with QUIC forced between local ranks"
NEXAR_TRANSPORT=quic cargo_test "cargo test (QUIC)" cargo test --workspace --locked
NEXAR_TRANSPORT=quic ctest --test-dir build --output-on-failure -j2
echo "== C tests again under AddressSanitizer + UndefinedBehaviorSanitizer"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DNEXAR_SANITIZE=ON
cmake --build build-asan --parallel 2
ctest --test-dir build-asan --output-on-failure -j2 -R '^test_'
echo "== cargo-fuzz targets, 20 s each over their corpora (scripts/fuzz.sh)"
bash scripts/fuzz.sh
# Nothing later uses the fuzz build (0.8 GiB), and CI machines can be short of disk.
rm -rf fuzz/target
echo "== mpi4py 4.1.2 built with the shim's mpicc, its own test suite at 1, 2 and 3 ranks"
bash scripts/mpi4py.sh
echo "== features cuda, nccl and rdma, one feature set compiled once (nccl implies cuda). cudarc loads"
echo "   libcuda and libnccl at run time; ibverbs links libibverbs. No GPU and no RDMA device here:"
echo "   GPU-only cases report SKIPPED (scripts/gpu_check.sh runs them on a GPU machine), the RDMA lane"
echo "   falls back to TLS with the reason logged, NEXAR_RDMA=require fails fast; the lane protocol's"
echo "   own tests (a fake queue pair) ran above in every build."
feat=(--features nccl,nexar/rdma)
cargo clippy -p nexar -p nexar-capi -p nexar-mpi --all-targets --locked "${feat[@]}" -- -D warnings
# Only the examples the feature tests start (clippy above compiled every example with them).
cargo build -p nexar --locked "${feat[@]}" --bins \
  --example cuda_allreduce --example nccl_auto --example rdma_probe
cargo_test "features" cargo test -p nexar --locked "${feat[@]}" --lib --test cuda_buffers --test nccl_hier --test nccl_auto \
  --test inprocess_collectives --test inprocess_userops --test p2p_modes --test rdma_lane --test tls_lane
cargo_test "features (mpi)" cargo test -p nexar-mpi --locked "${feat[@]}"
skips_report
disk_report
