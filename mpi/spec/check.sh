#!/usr/bin/env bash
# Checks include/mpi.h, generated from mpi/spec by `cargo xtask gen`:
#  (a) the header compiles alone as C99, C11 and C++11 with -Wall -Wextra -Werror -pedantic;
#  (b) mpi/spec/tests/abi_values.c, which asserts values fixed by the standard ABI, compiles;
#  (c) the spec lists exactly the functions of the reference header, each declared in mpi.h
#      with its PMPI_ twin, plus MPIX_ extensions (declared with their PMPIX_ twins).
set -euo pipefail
cd "$(dirname "$0")/../.."

CC=${CC:-cc}
CXX=${CXX:-c++}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
warn=(-Wall -Wextra -Werror)

# (a)
for std in c99 c11; do
  "$CC" -std=$std "${warn[@]}" -pedantic -fsyntax-only -x c include/mpi.h
done
"$CXX" -std=c++11 "${warn[@]}" -pedantic -fsyntax-only -x c++ include/mpi.h
echo "mpi.h compiles alone as C99, C11 and C++11"

# (b)
"$CC" -std=c11 "${warn[@]}" -Iinclude -c mpi/spec/tests/abi_values.c -o "$tmp/abi_values.o"
echo "mpi.h values match the standard ABI (abi_values.c)"

# (c) The reference mpi.h (mpi-forum/mpi-abi-stubs at 90d88b071aecb0c9a13e3d36528bc7f7cd14b896)
# declares 664 MPI_ functions, counted there with
#   grep -cE '^[A-Za-z_ ]+ MPI_[A-Za-z0-9_]+\(' mpi.h
# (its MPI_ prototypes, _c variants and MPI_T included, PMPI_ twins excluded); the MPI_ exports of
# that repository's mpilib.def are the same 664 names.
expected=664
grep -E '^(no|yes) ' mpi/spec/functions.txt | sed -E 's/^[a-z]+ +[^ ]+ +//; s/\(.*//; s/.* //' \
  | sort > "$tmp/all"
# MPIX_ functions are non-standard extensions (ULFM fault tolerance): not counted against the
# reference, but each must be declared in mpi.h with its PMPIX_ twin too.
grep -v '^MPIX_' "$tmp/all" > "$tmp/spec"
grep '^MPIX_' "$tmp/all" > "$tmp/ext" || true
n=$(sort -u "$tmp/spec" | wc -l)
if [ "$n" -ne "$expected" ] || [ "$(wc -l < "$tmp/spec")" -ne "$n" ]; then
  echo "functions.txt: $n distinct functions ($(wc -l < "$tmp/spec") entries), expected $expected" >&2
  exit 1
fi
grep -oE ' P?MPI_[A-Za-z0-9_]+\(' include/mpi.h | tr -d ' (' | sort > "$tmp/header"
missing=0
while read -r f; do
  for name in "$f" "P$f"; do
    if [ "$(grep -cx "$name" "$tmp/header")" -ne 1 ]; then
      echo "include/mpi.h: $name is not declared exactly once" >&2
      missing=1
    fi
  done
done < "$tmp/spec"
if [ "$(wc -l < "$tmp/header")" -ne $((2 * expected)) ]; then
  echo "include/mpi.h: $(wc -l < "$tmp/header") prototypes, expected $((2 * expected))" >&2
  missing=1
fi
grep -oE ' P?MPIX_[A-Za-z0-9_]+\(' include/mpi.h | tr -d ' (' | sort > "$tmp/header_ext"
while read -r f; do
  for name in "$f" "P$f"; do
    if [ "$(grep -cx "$name" "$tmp/header_ext")" -ne 1 ]; then
      echo "include/mpi.h: $name is not declared exactly once" >&2
      missing=1
    fi
  done
done < "$tmp/ext"
[ "$missing" -eq 0 ]
echo "mpi.h declares all $expected MPI_ functions and their PMPI_ twins"
echo "mpi.h declares the $(wc -l < "$tmp/ext") MPIX_ extension functions and their PMPIX_ twins"
