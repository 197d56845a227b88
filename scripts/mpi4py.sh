#!/usr/bin/env bash
# mpi4py 4.1.2 against nexar's MPI shim: builds mpi4py from the PyPI sdist with the shim's mpicc
# (mpi4py sees MPI_ABI_VERSION in our mpi.h and builds for the MPI standard ABI), then runs
# mpi4py's own test/main.py with the shim's mpiexec at 1, 2 and 3 ranks, one run per module.
#
#   scripts/mpi4py.sh            the required modules; exit status 1 on any failure, error or hang
#   scripts/mpi4py.sh --next     the further modules (informational; exit status 0)
#   scripts/mpi4py.sh -v         also print the per-module summary when everything passes
#   MPI4PY_NP="1 2"              rank counts to run (default "1 2 3")
#   MPI4PY_TIMEOUT=SECS          per-run time limit (default 180): a hang fails, it never blocks
#
# Everything lives under build/mpi4py/ (NEXAR_BUILD_DIR overrides build/): the sdist cache, a
# venv, the built wheel and one log per run. The wheel is rebuilt only when the shim's ABI surface
# (mpi.h and the mpicc wrapper) changes: mpi4py links libmpi_abi.so.1 dynamically, so a rebuilt
# shim library is picked up without rebuilding mpi4py.
# Tests listed in mpi/tests/mpi4py-excludes.txt (`pattern  # reason`, fnmatch on
# module.Class.test, with `*` added around a pattern that has none) are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

mode=required
verbose=0
for arg in "$@"; do
  case $arg in
    --next) mode=next ;;
    -v | --verbose) verbose=1 ;;
    -h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "mpi4py.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

version=4.1.2
required=(test_environ test_comm test_p2p_buf test_p2p_obj test_cco_buf test_cco_obj test_status
  test_win test_rma test_rma_nb
  test_msgzero test_errorcode test_io test_cco_ngh_buf test_cco_ngh_obj test_cco_pr_ngh_buf
  test_p2p_buf_part test_session
  test_request test_cco_vec test_cco_nb_buf test_cco_nb_vec test_group test_op test_datatype
  test_pack test_p2p_buf_matched test_p2p_obj_matched test_util_pkl5 test_util_dtlib
  test_exceptions
  test_address test_attributes test_buffer test_cco_buf_inter test_cco_obj_inter
  test_cco_pr_buf test_cco_pr_vec test_cco_vec_inter test_cffi test_comm_inter test_comm_topo
  test_ctypes test_doc test_errhandler test_file test_grequest test_handle test_info
  test_mpiabi test_mpiapi test_mpimem test_msgspec test_objmodel test_package test_pickle
  test_subclass test_threads test_toplevel test_util_sync
  test_dynproc test_spawn test_util_pool)
# The 1 of mpi4py's 64 modules that does not pass (informational: `--next`):
#   test_ulfm: on an MPI whose ULFM extension mpi4py does not recognise (it looks for MPICH's
#     or Open MPI's), its Comm.Iagree falls back to an Iallreduce, which testIAgree starts before
#     a Barrier on one rank and after it on the others: nexar reports the mismatched collective.
next=(test_ulfm)
read -r -a nps <<<"${MPI4PY_NP:-1 2 3}"
limit=${MPI4PY_TIMEOUT:-180}
build=${NEXAR_BUILD_DIR:-$root/build}
work=$build/mpi4py
prefix=$work/prefix
mkdir -p "$work/cache" "$work/logs"

# Runs a command with its output in a log; prints the log's tail and fails if the command fails.
quiet() {
  local log=$1
  shift
  if ! "$@" >"$log" 2>&1; then
    echo "mpi4py.sh: failed: $*" >&2
    tail -n 40 "$log" >&2
    exit 1
  fi
}

# 0. Python with venv and its C headers (Debian splits them out); apt-get only if missing.
if ! python3 -c 'import ensurepip, sysconfig, os, sys
sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
  2>/dev/null; then
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then sudo=(sudo); fi
  quiet "$work/logs/apt.log" "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  quiet "$work/logs/apt.log" "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
    --no-install-recommends python3-venv python3-dev
fi

# 1. The shim: libmpi_abi, nexarrun and the wrappers (cmake, like scripts/test.sh does).
if [ ! -f "$build/CMakeCache.txt" ]; then
  quiet "$work/logs/cmake-configure.log" cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release
fi
quiet "$work/logs/cmake-build.log" cmake --build "$build" --target nexar_cargo

# 2. An installed-layout prefix made of the staged files (bin/mpicc finds include/ and lib/ next
#    to itself; bin/mpiexec is nexarrun under its MPI name).
#    Files are replaced by rename, never rewritten in place (a running job may have them open).
put() {
  cp -f "$1" "$2.tmp.$$"
  mv -f "$2.tmp.$$" "$2"
}
mkdir -p "$prefix/bin" "$prefix/include" "$prefix/lib"
put "$build/wrappers/mpicc" "$prefix/bin/mpicc"
ln -sfn "$build/bin/nexarrun" "$prefix/bin/mpiexec"
put include/mpi.h "$prefix/include/mpi.h"
put "$build/lib/libmpi_abi.so.1" "$prefix/lib/libmpi_abi.so.1"
ln -sfn libmpi_abi.so.1 "$prefix/lib/libmpi_abi.so"
mpiexec=$prefix/bin/mpiexec

# 3. The sdist (cached), a venv with the build tools, and the wheel keyed on the ABI surface.
venv=$work/venv
py=$venv/bin/python
if [ ! -x "$py" ]; then
  quiet "$work/logs/venv.log" python3 -m venv "$venv"
fi
if [ ! -f "$venv/.tools-ok" ]; then
  quiet "$work/logs/venv.log" "$py" -m pip install -q -U pip 'setuptools>=70.1' wheel 'cython>=3.0.1'
  touch "$venv/.tools-ok"
fi
sdist=$work/cache/mpi4py-$version.tar.gz
if [ ! -f "$sdist" ]; then
  # --no-build-isolation: pip prepares the metadata with the venv's tools instead of compiling
  # Cython from source (what --no-binary :all: would do to the build requirements).
  quiet "$work/logs/download.log" "$py" -m pip download --no-binary :all: --no-deps \
    --no-build-isolation -d "$work/cache" "mpi4py==$version"
fi
key=$(cat "$prefix/include/mpi.h" "$prefix/bin/mpicc" "$sdist" | sha256sum | cut -c1-16)
wheeldir=$work/wheel-$key
if [ "$(cat "$venv/.mpi4py-key" 2>/dev/null)" != "$key" ]; then
  rm -rf "$work"/wheel-*
  # -O0 -g0: MPI.c is huge; optimising it takes ~10 minutes and buys nothing for the tests.
  quiet "$work/logs/wheel.log" env MPICC="$prefix/bin/mpicc" CFLAGS="-O0 -g0" \
    "$py" -m pip wheel -v --no-build-isolation --no-deps -w "$wheeldir" "$sdist"
  quiet "$work/logs/install.log" "$py" -m pip install -q --force-reinstall --no-deps \
    "$wheeldir"/mpi4py-*.whl
  if ! grep -q 'checking for MPI ABI support' "$work/logs/wheel.log"; then
    echo "mpi4py.sh: mpi4py did not check for MPI ABI support (see $work/logs/wheel.log)" >&2
    exit 1
  fi
  echo "$key" >"$venv/.mpi4py-key"
fi
srcdir=$work/src/mpi4py-$version
if [ ! -f "$srcdir/test/main.py" ]; then
  mkdir -p "$work/src"
  tar -xzf "$sdist" -C "$work/src"
fi

# 4. Exclusions: one `pattern  # reason` a line.
excludes=()
while IFS= read -r line || [ -n "$line" ]; do
  pattern=${line%%#*}
  pattern=${pattern//[[:space:]]/}
  [ -n "$pattern" ] && excludes+=(-x "$pattern")
done <mpi/tests/mpi4py-excludes.txt

# 5. The runs: one per module and rank count, each with a time limit (mpiexec's own, and an
#    outer one in case the launcher itself hangs).
if [ "$mode" = next ]; then modules=("${next[@]}"); else modules=("${required[@]}"); fi
if [ ${#modules[@]} -eq 0 ]; then
  echo "mpi4py.sh: no $mode modules"
  exit 0
fi
logs=$work/logs/$mode
rm -rf "$logs"
mkdir -p "$logs"
for np in "${nps[@]}"; do
  for mod in "${modules[@]}"; do
    log=$logs/np$np-$mod.log
    rc=0
    (cd "$srcdir" && timeout -k 10 $((limit + 30)) "$mpiexec" -n "$np" --timeout "$limit" -l \
      "$py" test/main.py -v --no-builddir "${excludes[@]}" "$mod") >"$log" 2>&1 || rc=$?
    echo "$rc" >"$log.rc"
  done
done

# 6. Summary from the logs: per module and rank count, tests run and the worst rank's failures.
"$py" - "$logs" "$mode" "$verbose" "${nps[*]}" "${modules[@]}" <<'EOF'
import pathlib, re, sys
logs, mode, verbose, nps, mods = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3] == "1", sys.argv[4].split(), sys.argv[5:]
bad, rows = [], []
for mod in mods:
    cells = []
    for np in nps:
        log = logs / f"np{np}-{mod}.log"
        text = log.read_text(errors="replace")
        rc = int((logs / f"np{np}-{mod}.log.rc").read_text())
        ran = [int(m) for m in re.findall(r"^\[0\] Ran (\d+) test", text, re.M)]
        fail = max([int(m) for m in re.findall(r"failures=(\d+)", text)] or [0])
        err = max([int(m) for m in re.findall(r"errors=(\d+)", text)] or [0])
        skip = max([int(m) for m in re.findall(r"skipped=(\d+)", text)] or [0])
        if rc in (124, 137):
            cell = "TIMEOUT"
        elif not ran:
            cell = f"NO-RUN(rc={rc})"  # died before or while running the tests
        else:
            # Failures and errors count subtests too, so they can exceed the tests run.
            cell = f"{ran[0]}r/{fail}f/{err}e/{skip}s"
            if rc != 0 and not (fail or err):
                cell += f" rc={rc}"
        if rc != 0 or fail or err or not ran:
            bad.append((mod, np, cell, log))
        cells.append(f"np{np}: {cell}")
    rows.append(f"  {mod:24s} " + "   ".join(cells))
if bad or verbose or mode == "next":
    print(f"mpi4py {mode} modules: tests run/failures/errors/skipped (worst rank) per rank count")
    print("\n".join(rows))
else:
    # One line even when all is well, so a log shows what ran.
    print(f"mpi4py {mode} modules: all {len(mods)} passed at {', '.join(nps)} ranks "
          f"({' '.join(mods)}; -v for the table)")
# The required set also names each failure (the first lines of each bad log).
for mod, np, cell, log in bad if mode == "required" else []:
    print(f"mpi4py: {mod} at {np} ranks: {cell} (log: {log})", file=sys.stderr)
    text = log.read_text(errors="replace").splitlines()
    for line in [l for l in text if re.search(r"\.\.\. (FAIL|ERROR)|Error:|Exception:", l)][:20]:
        print("    " + line, file=sys.stderr)
sys.exit(1 if bad and mode == "required" else 0)
EOF
