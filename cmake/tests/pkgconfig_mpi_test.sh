#!/usr/bin/env bash
# ctest nexar.consumer.pkgconfig_mpi: compiles an MPI program against the installed nexar with
# `pkg-config --cflags --libs mpi-c`, checks it loads the installed libmpi_abi.so.1, and runs it
# at 2 ranks under the mpiexec the .pc file names (as a singleton when none is installed).
# mpi-cxx and mpi-fort must give the same flags.
# Usage: pkgconfig_mpi_test.sh PKG_CONFIG CC PREFIX PCDIR SOURCE WORKDIR VERSION
set -euo pipefail
pkg_config="$1" cc="$2" prefix="$3" pcdir="$4" source="$5" workdir="$6" version="$7"

rm -rf "$workdir"
mkdir -p "$workdir"
export PKG_CONFIG_PATH="$pcdir"
for m in mpi-c mpi-cxx mpi-fort; do
  got="$("$pkg_config" --modversion "$m")"
  if [ "$got" != "$version" ]; then
    echo "pkg-config --modversion $m: $got, expected $version" >&2
    exit 1
  fi
done
flags="$("$pkg_config" --cflags --libs mpi-c)"
for m in mpi-cxx mpi-fort; do
  if [ "$("$pkg_config" --cflags --libs "$m")" != "$flags" ]; then
    echo "pkg-config $m gives other flags than mpi-c" >&2
    exit 1
  fi
done
set -x
# shellcheck disable=SC2086
"$cc" -Wall -Wextra -Werror -o "$workdir/app" "$source" $flags
set +x
loaded="$(ldd "$workdir/app" | awk '$1 == "libmpi_abi.so.1" { print $3 }')"
case "$(readlink -f "${loaded:-/nonexistent}")" in
  "$(readlink -f "$prefix")"/*) ;;
  *)
    echo "app does not load libmpi_abi.so.1 from $prefix:" >&2
    ldd "$workdir/app" >&2
    exit 1
    ;;
esac
mpiexec="$("$pkg_config" --variable=mpiexec mpi-c)"
if [ -x "$mpiexec" ]; then
  out="$("$mpiexec" -n 2 "$workdir/app")"
else
  echo "(no mpiexec installed: running as a singleton)"
  out="$("$workdir/app")"
fi
echo "$out"
case "$out" in
  *"library: nexar"*"allreduce: ok"*) ;;
  *) echo "the program did not report nexar and a correct Allreduce" >&2; exit 1 ;;
esac
