#!/bin/sh
# ctest nexar.wrappers: the installed MPI compiler wrappers' query flags, compile-only
# detection, relocation of the installation, an MPI program built with mpicc and run, and the
# mpiexec / mpirun links next to them.
# Usage: wrappers_test.sh PREFIX WORKDIR BINDIR INCLUDEDIR LIBDIR VERSION HAS_NEXARRUN
set -eu
prefix=$1 workdir=$2 bindir=$3 incdir=$4 libdir=$5 version=$6 has_nexarrun=$7

failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
# expect_has WHAT TEXT WORD...: TEXT contains every WORD (as whole space-separated words).
expect_has() {
  what=$1 text=$2
  shift 2
  for _word in "$@"; do
    case " $text " in *" $_word "*) ;; *) fail "$what: '$_word' missing in: $text" ;; esac
  done
}
expect_lacks() {
  what=$1 text=$2
  shift 2
  for _word in "$@"; do
    case " $text " in *" $_word"*) fail "$what: unexpected '$_word' in: $text" ;; esac
  done
}
expect_eq() {
  [ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"
}

unset CC CXX FC NEXAR_MPICC_CC NEXAR_MPICXX_CXX NEXAR_MPIFORT_FC
rm -rf "$workdir"
mkdir -p "$workdir"

# check_tree PREFIX: every query against the installation at PREFIX.
check_tree() {
  p=$(cd "$1" && pwd)
  b=$p/$bindir
  inc=$p/$incdir
  lib=$p/$libdir
  for w in mpicc mpicxx mpifort mpif90 mpif77; do
    [ -x "$b/$w" ] || fail "$b/$w is not installed (executable)"
  done
  for l in mpif90 mpif77; do
    [ -h "$b/$l" ] && [ "$(readlink "$b/$l")" = mpifort ] || fail "$l is not a link to mpifort"
  done

  out=$("$b/mpicc" -show)
  expect_has "mpicc -show" "$out" cc "-I$inc" "-L$lib" "-Wl,-rpath,$lib" -lmpi_abi
  case $out in cc\ *) ;; *) fail "mpicc -show does not start with cc: $out" ;; esac
  expect_eq "mpicc -showme" "$("$b/mpicc" -showme)" "$out"
  expect_eq "mpicc --showme" "$("$b/mpicc" --showme)" "$out"

  out=$("$b/mpicc" -showme:compile)
  expect_eq "mpicc -showme:compile" "$out" "-I$inc"
  out=$("$b/mpicc" -showme:link)
  expect_eq "mpicc -showme:link" "$out" "-L$lib -Wl,-rpath,$lib -lmpi_abi"
  expect_eq "mpicc -showme:incdirs" "$("$b/mpicc" -showme:incdirs)" "$inc"
  expect_eq "mpicc -showme:libdirs" "$("$b/mpicc" -showme:libdirs)" "$lib"
  expect_eq "mpicc -showme:libs" "$("$b/mpicc" -showme:libs)" "mpi_abi"
  expect_eq "mpicc -showme:command" "$("$b/mpicc" -showme:command)" "cc"
  out=$("$b/mpicc" -showme:version)
  expect_has "mpicc -showme:version" "$out" nexar "$version"
  out=$("$b/mpicc" -showme:help)
  case $out in *-showme:incdirs*) ;; *) fail "mpicc -showme:help: $out" ;; esac
  if "$b/mpicc" -showme:bogus >/dev/null 2>&1; then fail "mpicc -showme:bogus succeeded"; fi

  out=$("$b/mpicc" -c x.c -show)
  expect_eq "mpicc -c x.c -show" "$out" "cc -I$inc -c x.c"
  expect_lacks "mpicc -c -show" "$out" -l -L
  for f in -E -S -M -MM -fsyntax-only; do
    expect_lacks "mpicc $f -show" "$("$b/mpicc" "$f" x.c -show)" -l -L
  done
  out=$("$b/mpicc" x.c -o x -show)
  expect_eq "mpicc x.c -o x -show" "$out" "cc -I$inc x.c -o x -L$lib -Wl,-rpath,$lib -lmpi_abi"
  for f in -compile-info -compile_info; do
    out=$("$b/mpicc" "$f" x.c)
    expect_eq "mpicc $f" "$out" "cc -I$inc x.c"
  done
  for f in -link-info -link_info; do
    out=$("$b/mpicc" "$f" x.o)
    expect_eq "mpicc $f" "$out" "cc -I$inc x.o -L$lib -Wl,-rpath,$lib -lmpi_abi"
  done
  out=$("$b/mpicc" -show '-DMSG="a b"' "it's.c")
  expect_eq "quoting" "$out" "cc -I$inc '-DMSG=\"a b\"' 'it'\\''s.c' -L$lib -Wl,-rpath,$lib -lmpi_abi"

  # Compiler choice: NEXAR_MPICC_CC, then CC, then cc; a wrapper named there is ignored.
  expect_eq "CC=gcc" "$(CC=gcc "$b/mpicc" -showme:command)" gcc
  expect_eq "NEXAR_MPICC_CC" "$(CC=gcc NEXAR_MPICC_CC='ccache cc' "$b/mpicc" -showme:command)" "ccache cc"
  expect_eq "CC=mpicc" "$(CC=/x/mpicc "$b/mpicc" -showme:command)" cc
  # A wrapper among several words (flags, a launcher) is replaced too: before, these made the
  # wrapper run itself forever.
  expect_eq "CC=mpicc -std=c11" "$(CC="mpicc -std=c11" "$b/mpicc" -showme:command)" "cc -std=c11"
  expect_eq "CC=ccache mpicc" "$(CC="ccache $b/mpicc" "$b/mpicc" -showme:command)" "ccache cc"
  expect_eq "CXX=mpicxx -O2" "$(CXX="mpicxx -O2" "$b/mpicxx" -showme:command)" "c++ -O2"

  out=$("$b/mpicxx" -show)
  case $out in c++\ *) ;; *) fail "mpicxx -show does not start with c++: $out" ;; esac
  expect_has "mpicxx -show" "$out" "-I$inc" -lmpi_abi
  expect_eq "CXX=g++" "$(CXX=g++ "$b/mpicxx" -showme:command)" g++
  for w in mpifort mpif90 mpif77; do
    out=$("$b/$w" -show)
    case $out in gfortran\ *) ;; *) fail "$w -show does not use gfortran: $out" ;; esac
    expect_has "$w -show" "$out" "-I$inc" -lmpi_abi
    expect_eq "$w FC" "$(FC=flang "$b/$w" -showme:command)" flang
  done
  out=$("$b/mpif90" -showme:version)
  expect_has "mpif90 -showme:version" "$out" mpif90: nexar "$version"
  case $out in *Fortran*) ;; *) fail "mpif90 -showme:version does not say Fortran: $out" ;; esac

  if [ "$has_nexarrun" = ON ]; then
    for l in mpiexec mpirun; do
      [ -h "$b/$l" ] && [ "$(readlink "$b/$l")" = nexarrun ] || fail "$l is not a link to nexarrun"
      out=$("$b/$l" --version)
      expect_has "$l --version" "$out" "$l" "(nexar)"
    done
    out=$("$b/mpiexec" -n 2 --oversubscribe sh -c 'echo r$NEXAR_RANK' | sort | tr '\n' ' ')
    expect_eq "mpiexec -n 2" "$out" "r0 r1 "
  fi
}

cd "$workdir"
echo "== the installation: $prefix"
check_tree "$prefix"

# A real compile (no MPI header or library needed for -c).
printf 'int main(void) { return 0; }\n' >x.c
"$prefix/$bindir/mpicc" -c x.c -o x.o || fail "mpicc -c x.c"
[ -f x.o ] || fail "mpicc -c x.c made no x.o"
out=$("$prefix/$bindir/mpicc" -v 2>/dev/null)
case $out in *"mpicc for nexar $version"*) ;; *) fail "mpicc -v: $out" ;; esac
"$prefix/$bindir/mpicc" --version >/dev/null || fail "mpicc --version"

echo "== moved: $workdir/moved"
cp -R -P "$prefix" "$workdir/moved"
check_tree "$workdir/moved"

echo "== an MPI program built with the moved installation's mpicc and run"
cat >mpi_hello.c <<'EOF_C'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    int rank = -1, size = -1;
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) return 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int sum = 0;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d of %d sum %d\n", rank, size, sum);
    return MPI_Finalize() == MPI_SUCCESS && sum == size * (size - 1) / 2 ? 0 : 1;
}
EOF_C
if "$workdir/moved/$bindir/mpicc" mpi_hello.c -o mpi_hello; then
  expect_eq "mpi_hello alone" "$(./mpi_hello)" "rank 0 of 1 sum 0"
  if [ "$has_nexarrun" = ON ]; then
    out=$("$workdir/moved/$bindir/mpiexec" -n 2 ./mpi_hello | sort | tr '\n' ' ')
    expect_eq "mpiexec -n 2 mpi_hello" "$out" "rank 0 of 2 sum 1 rank 1 of 2 sum 1 "
  fi
else
  fail "mpicc mpi_hello.c"
fi

echo "== called through a link from elsewhere"
mkdir -p "$workdir/elsewhere"
ln -s "$workdir/moved/$bindir/mpicc" "$workdir/elsewhere/mpicc"
moved=$(cd "$workdir/moved" && pwd)
expect_eq "mpicc via a link" "$("$workdir/elsewhere/mpicc" -showme:incdirs)" "$moved/$incdir"
expect_eq "mpicc from PATH" "$(PATH="$workdir/elsewhere:$PATH" mpicc -showme:libdirs)" "$moved/$libdir"

if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) failed" >&2
  exit 1
fi
echo "all wrapper checks passed"
